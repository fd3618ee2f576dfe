// ArrayBufferAllocator: backing stores for ArrayBuffers, typed arrays and
// the host's own buffers. Below 2 MB it is malloc/calloc, as V8's default
// allocator; from 2 MB a buffer is its own mapping, 2 MB-aligned, with
// transparent huge pages asked for over its aligned part (see
// huge_page_allocator.h: a first touch of a 4 KB page costs ~10 us on these
// VMs, and growing a large typed array faulted in every page of each copy).
// The kernel zero-fills the mapping, so the calloc contract holds without a
// memset. The trade-off: a large buffer written sparsely (a byte here and
// there across hundreds of MB) is resident in 2 MB blocks, not 4 KB pages;
// one written at a few places or filled, as typed arrays usually are, costs
// what it would have. Thread-safe: a buffer may be freed on another thread than the one
// that allocated it (a SharedArrayBuffer, a pending write's bytes).
#pragma once

#include <v8-array-buffer.h>

#include <cstddef>
#include <unordered_map>

#include "base/reserved_region.h"
#include "base/thread_annotations.h"

namespace hostloop::v8host {

class ArrayBufferAllocator final : public v8::ArrayBuffer::Allocator {
 public:
  static constexpr std::size_t kMappedFrom = base::kHugePageSize;

  ArrayBufferAllocator() = default;
  ~ArrayBufferAllocator() override;

  void* Allocate(size_t length) override;
  void* AllocateUninitialized(size_t length) override;
  void Free(void* data, size_t length) override;

 private:
  void* Map(size_t length);

  base::Mutex mutex_;
  // The mapped buffers' sizes, by address: Free unmaps what was mapped
  // whatever length it is given.
  std::unordered_map<void*, std::size_t> mapped_ GUARDED_BY(mutex_);
};

}  // namespace hostloop::v8host
