#include "runtime/fs_result.h"

#include <algorithm>
#include <cstring>

#include "base/slab_allocator.h"

namespace hostloop::runtime {

FsResult::FsResult(FsResult&& other) noexcept
    : error(other.error),
      syscall(other.syscall),
      path(std::move(other.path)),
      dest(std::move(other.dest)),
      data(std::exchange(other.data, nullptr)),
      size(std::exchange(other.size, 0)),
      capacity(std::exchange(other.capacity, 0)),
      slab(std::exchange(other.slab, false)),
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
  if (capacity == 0) {
    // (nullptr when the slab does not serve that size, or has no memory.)
    if (auto* block = static_cast<uint8_t*>(base::SlabAllocator::Shared().Allocate(grown))) {
      data = block;
      capacity = grown;
      slab = true;
      return Room::kOk;
    }
  } else if (slab) {
    // A small file that grew while it was read: on to malloc.
    auto* block = static_cast<uint8_t*>(std::malloc(grown));
    if (block == nullptr) return Room::kNoMemory;
    std::memcpy(block, data, size);
    base::SlabAllocator::Shared().Free(data);
    data = block;
    capacity = grown;
    slab = false;
    return Room::kOk;
  }
  auto* block = static_cast<uint8_t*>(std::realloc(data, grown));
  if (block == nullptr) return Room::kNoMemory;  // (data stays, and is freed with the result)
  data = block;
  capacity = grown;
  return Room::kOk;
}

FsResult& FsResult::TooLarge(std::size_t seen) {
  FreeData();
  size = 0;
  capacity = 0;
  too_large = seen;
  return *this;
}

std::unique_ptr<v8::BackingStore> FsResult::TakeBytes() {
  v8::BackingStore::DeleterCallback deleter =
      slab ? [](void* block, std::size_t, void*) { base::SlabAllocator::Shared().Free(block); }
           : [](void* block, std::size_t, void*) { std::free(block); };
  capacity = 0;
  slab = false;
  return v8::ArrayBuffer::NewBackingStore(std::exchange(data, nullptr), std::exchange(size, 0),
                                          deleter, nullptr);
}

void FsResult::FreeData() {
  if (slab) {
    base::SlabAllocator::Shared().Free(data);
  } else {
    std::free(data);
  }
  data = nullptr;
  slab = false;
}

}  // namespace hostloop::runtime
