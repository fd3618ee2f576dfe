#include "v8/array_buffer_allocator.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

#include "v8/huge_page_allocator.h"

namespace hostloop::v8host {

ArrayBufferAllocator::~ArrayBufferAllocator() {
  // Buffers still mapped belong to backing stores that outlived every
  // isolate (they hold the allocator); nothing is left by then, but unmap
  // whatever is, rather than leak it.
  base::MutexLock lock(mutex_);
  for (const auto& [data, size] : mapped_) munmap(data, size);
}

void* ArrayBufferAllocator::Map(size_t length) {
  constexpr std::uintptr_t kAlign = kMappedFrom;
  const std::size_t size = (length + 4095) & ~std::size_t{4095};
  void* raw = mmap(nullptr, size + kAlign, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  // Keep the 2 MB-aligned `size` bytes; give back the slack on both sides.
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kAlign - 1) & ~(kAlign - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t end = aligned + size;
  if (start + size + kAlign > end) munmap(reinterpret_cast<void*>(end), start + size + kAlign - end);
  void* data = reinterpret_cast<void*>(aligned);
  AdviseHugePages(data, size);
  base::MutexLock lock(mutex_);
  mapped_.emplace(data, size);
  return data;
}

void* ArrayBufferAllocator::Allocate(size_t length) {
  if (length >= kMappedFrom) return Map(length);
  return std::calloc(length == 0 ? 1 : length, 1);
}

void* ArrayBufferAllocator::AllocateUninitialized(size_t length) {
  if (length >= kMappedFrom) return Map(length);
  return std::malloc(length == 0 ? 1 : length);
}

void ArrayBufferAllocator::Free(void* data, size_t length) {
  if (data == nullptr) return;
  if (length >= kMappedFrom) {
    std::size_t size = 0;
    {
      base::MutexLock lock(mutex_);
      auto it = mapped_.find(data);
      if (it != mapped_.end()) {
        size = it->second;
        mapped_.erase(it);
      }
    }
    if (size != 0) {
      munmap(data, size);
      return;
    }
  }
  std::free(data);
}

}  // namespace hostloop::v8host
