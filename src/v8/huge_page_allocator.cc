#include "v8/huge_page_allocator.h"

#include <sys/mman.h>

#include <cstdint>

namespace hostloop::v8host {

void* HugePageAllocator::AllocatePages(void* address, size_t length, size_t alignment,
                                       Permission permissions) {
  const bool heap_chunk = alignment >= kHeapChunkAlignment;
  if (heap_chunk && length >= kHugePage && alignment < kHugePage) alignment = kHugePage;
  void* pages = inner_->AllocatePages(address, length, alignment, permissions);
  if (pages == nullptr || !heap_chunk) return pages;
  {
    base::MutexLock lock(mutex_);
    heap_chunks_[reinterpret_cast<std::uintptr_t>(pages)] = length;
  }
  if (permissions == kReadWrite) base::AdviseHugePages(pages, length);
  return pages;
}

bool HugePageAllocator::FreePages(void* address, size_t length) {
  {
    base::MutexLock lock(mutex_);
    heap_chunks_.erase(reinterpret_cast<std::uintptr_t>(address));
  }
  return inner_->FreePages(address, length);
}

bool HugePageAllocator::ReleasePages(void* address, size_t length, size_t new_length) {
  {
    base::MutexLock lock(mutex_);
    auto it = heap_chunks_.find(reinterpret_cast<std::uintptr_t>(address));
    if (it != heap_chunks_.end()) it->second = new_length;
  }
  return inner_->ReleasePages(address, length, new_length);
}

bool HugePageAllocator::InHeapChunk(void* address, size_t length) {
  const auto start = reinterpret_cast<std::uintptr_t>(address);
  base::MutexLock lock(mutex_);
  auto it = heap_chunks_.upper_bound(start);
  if (it == heap_chunks_.begin()) return false;
  --it;
  return start + length <= it->first + it->second;
}

bool HugePageAllocator::SetPermissions(void* address, size_t length, Permission permissions) {
  if (!inner_->SetPermissions(address, length, permissions)) return false;
  if (permissions == kReadWrite && InHeapChunk(address, length)) {
    base::AdviseHugePages(address, length);
    // (Fails harmlessly before Linux 5.14: the pages fault in as before.)
    if (length >= kMinPopulate && populate_.load(std::memory_order_relaxed)) {
      madvise(address, length, MADV_POPULATE_WRITE);
    }
  }
  return true;
}

}  // namespace hostloop::v8host
