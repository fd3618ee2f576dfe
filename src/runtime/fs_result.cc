#include "runtime/fs_result.h"

#include <algorithm>

namespace hostloop::runtime {

FsResult::FsResult(FsResult&& other) noexcept
    : error(other.error),
      syscall(other.syscall),
      path(std::move(other.path)),
      dest(std::move(other.dest)),
      data(std::exchange(other.data, nullptr)),
      size(std::exchange(other.size, 0)),
      capacity(std::exchange(other.capacity, 0)),
      too_large(other.too_large),
      names(std::move(other.names)),
      types(std::move(other.types)),
      info(other.info),
      created(std::move(other.created)),
      on_loop(other.on_loop),
      stream(std::move(other.stream)),
      open_flags(other.open_flags),
      mode(other.mode),
      payload(std::move(other.payload)) {}

FsResult::Room FsResult::MakeRoom(std::size_t first, std::size_t limit) {
  if (size < capacity) return Room::kOk;
  if (capacity > limit) return Room::kTooLarge;
  const std::size_t grown = std::min(capacity == 0 ? first : capacity * 2, limit + 1);
  auto* block = static_cast<uint8_t*>(std::realloc(data, grown));
  if (block == nullptr) return Room::kNoMemory;  // (data stays, and is freed with the result)
  data = block;
  capacity = grown;
  return Room::kOk;
}

FsResult& FsResult::TooLarge(std::size_t seen) {
  std::free(std::exchange(data, nullptr));
  size = 0;
  capacity = 0;
  too_large = seen;
  return *this;
}

}  // namespace hostloop::runtime
