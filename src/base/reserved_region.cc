#include "base/reserved_region.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace hostloop::base {
namespace {

std::size_t RoundUp(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

void AdviseHugePages(void* data, std::size_t bytes) {
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = RoundUp(start, kHugePageSize);
  const std::uintptr_t end = (start + bytes) / kHugePageSize * kHugePageSize;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

void* MapAligned(std::size_t bytes, std::size_t alignment, int protection, int flags) {
  void* raw = mmap(nullptr, bytes + alignment, protection, MAP_PRIVATE | MAP_ANONYMOUS | flags,
                   -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = RoundUp(start, alignment);
  // Give back the slack on both sides of the aligned block.
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t end = aligned + bytes;
  if (start + bytes + alignment > end) {
    munmap(reinterpret_cast<void*>(end), start + bytes + alignment - end);
  }
  return reinterpret_cast<void*>(aligned);
}

ReservedRegion::~ReservedRegion() {
  if (data_ != nullptr) munmap(data_, reserved_);
}

bool ReservedRegion::Grow(std::size_t bytes) {
  if (bytes <= usable_) return true;
  if (bytes > max_bytes_) return false;
  if (data_ == nullptr) {
    // Address space only (PROT_NONE is not committed memory), aligned to
    // a huge page so the regions past the first 2 MB can be backed by them.
    const std::size_t reserved = RoundUp(max_bytes_, kHugePage);
    void* data = MapAligned(reserved, kHugePage, PROT_NONE, MAP_NORESERVE);
    if (data == nullptr) return false;
    data_ = data;
    reserved_ = reserved;
  }
  // Grow by half at least; in pages below 2 MB, in huge pages above.
  std::size_t target = std::max({bytes, usable_ + usable_ / 2, kFirstStep});
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  target = RoundUp(target, target > kHugePage ? kHugePage : page);
  target = std::min(target, reserved_);
  char* base = static_cast<char*>(data_);
  if (mprotect(base + usable_, target - usable_, PROT_READ | PROT_WRITE) != 0) return false;
  if (target > kHugePage) {
    const std::size_t from = std::max(usable_, kHugePage);
    AdviseHugePages(base + from, target - from);
  }
  // A region growing past its first step is filling up: its new 4 KB pages
  // are faulted in by one call rather than one fault each (2 MB: ~0.3 ms
  // instead of ~5 ms here). Huge pages fault once per 2 MB anyway, and a
  // small region keeps costing only what it touches.
  if (usable_ >= kFirstStep && usable_ < kHugePage) {
    madvise(base + usable_, std::min(target, kHugePage) - usable_, MADV_POPULATE_WRITE);
  }
  usable_ = target;
  return true;
}

}  // namespace hostloop::base
