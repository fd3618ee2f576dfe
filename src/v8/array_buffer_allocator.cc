#include "v8/array_buffer_allocator.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

#include "base/reserved_region.h"

namespace hostloop::v8host {

ArrayBufferAllocator::~ArrayBufferAllocator() {
  // Buffers still mapped belong to backing stores that outlived every
  // isolate (they hold the allocator); nothing is left by then, but unmap
  // whatever is, rather than leak it.
  base::MutexLock lock(mutex_);
  for (const auto& [data, size] : mapped_) munmap(data, size);
}

void* ArrayBufferAllocator::Map(size_t length) {
  const std::size_t size = (length + 4095) & ~std::size_t{4095};
  void* data = base::MapAligned(size, kMappedFrom, PROT_READ | PROT_WRITE);
  if (data == nullptr) return nullptr;
  base::AdviseHugePages(data, size);
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
