// HugePageAllocator: V8's page allocator with transparent huge pages, and
// populated commits, behind the memory of V8's heap.
//
// A first touch of a 4 KB page costs ~10 us on the VMs hostloop runs on (a
// hypervisor exit per fault), and V8 commits a large object's memory (a
// million-element array, a growing one's every copy) as fresh pages it then
// fills: with 1M timers pending, the timers' handler array spent more time
// in page faults than in JS.
//
// Only the heap's own chunks are touched: V8 reserves them aligned to its
// 256 KB page size (wasm memories and resizable ArrayBuffers come with the
// OS page size, and may stay almost unused: a 1 GiB WebAssembly.Memory that
// was populated took 1.8 s and 1 GiB of RAM). For a heap chunk:
//  - a reservation of 2 MB or more (a large object) is aligned to 2 MB, and
//    a read-write commit asks for huge pages over its aligned interior (one
//    fault per 2 MB, ~40x less per byte here; the "madvise" THP mode grants
//    only what is asked for). V8 commits a large object's page to the
//    object's size and fills it, so nothing is committed that would not be
//    touched anyway; regular 256 KB pages hold no aligned 2 MB.
//  - once populating is enabled (after the first isolate is set up), a
//    read-write commit of 64 KB or more is populated at once
//    (MADV_POPULATE_WRITE: ~4.6 instead of ~10 us a page here): V8 commits
//    heap pages it is about to fill (a semispace's as new space grows, an
//    old-space page for promoted objects); a loop that allocates events ran
//    ~20% faster. Not during start-up, where the commits include capacity a
//    short script never touches (populated, it added 1.3 MB to an empty
//    script's peak RSS).
// Everything else is the wrapped allocator's.
#pragma once

#include <v8-platform.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

#include "base/reserved_region.h"
#include "base/thread_annotations.h"

namespace hostloop::v8host {

class HugePageAllocator final : public v8::PageAllocator {
 public:
  static constexpr std::size_t kHugePage = base::kHugePageSize;
  // V8's heap reserves its chunks aligned to at least this (its page size).
  static constexpr std::size_t kHeapChunkAlignment = std::size_t{256} << 10;

  explicit HugePageAllocator(v8::PageAllocator* inner) : inner_(inner) {}

  // From now on, large read-write commits are populated (see above).
  // Thread-safe.
  void EnablePopulate() { populate_.store(true, std::memory_order_relaxed); }
  static constexpr std::size_t kMinPopulate = std::size_t{64} << 10;

  size_t AllocatePageSize() override { return inner_->AllocatePageSize(); }
  size_t CommitPageSize() override { return inner_->CommitPageSize(); }
  void SetRandomMmapSeed(int64_t seed) override { inner_->SetRandomMmapSeed(seed); }
  void* GetRandomMmapAddr() override { return inner_->GetRandomMmapAddr(); }
  void* AllocatePages(void* address, size_t length, size_t alignment,
                      Permission permissions) override;
  bool FreePages(void* address, size_t length) override;
  bool ReleasePages(void* address, size_t length, size_t new_length) override;
  bool SetPermissions(void* address, size_t length, Permission permissions) override;
  bool DiscardSystemPages(void* address, size_t size) override {
    return inner_->DiscardSystemPages(address, size);
  }
  bool DecommitPages(void* address, size_t size) override {
    return inner_->DecommitPages(address, size);
  }
  bool ReserveForSharedMemoryMapping(void* address, size_t size) override {
    return inner_->ReserveForSharedMemoryMapping(address, size);
  }
  std::unique_ptr<SharedMemory> AllocateSharedPages(size_t length,
                                                    const void* original_address) override {
    return inner_->AllocateSharedPages(length, original_address);
  }
  bool CanAllocateSharedPages() override { return inner_->CanAllocateSharedPages(); }

 private:
  // Whether [address, address + length) lies in a heap chunk.
  bool InHeapChunk(void* address, size_t length);

  v8::PageAllocator* const inner_;
  std::atomic<bool> populate_{false};
  base::Mutex mutex_;
  // The heap's reservations: start -> length.
  std::map<std::uintptr_t, std::size_t> heap_chunks_ GUARDED_BY(mutex_);
};


}  // namespace hostloop::v8host
