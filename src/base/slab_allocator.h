// SlabAllocator: small blocks that one thread makes and another frees, carved
// from 2 MB chunks that ask for transparent huge pages.
//
// Why: hostloop:fs's readFile reads a file into a block on a pool thread and
// hands that block to JavaScript as its ArrayBuffer's backing store; V8 frees
// it on main (or its sweeper thread) once the buffer is collected, which for
// a burst of reads is often only at the next full GC. Meanwhile every read
// needs fresh memory. From glibc each pool thread's arena grows a page at a
// time, and on the VMs hostloop runs on a first touch of a 4 KB page costs
// ~10 us (a hypervisor exit per fault): 10,000 reads of 1 KB faulted in about
// 2,600 pages on the pool threads, a fifth of the pass. Here fresh memory
// comes in huge pages, one fault per 2 MB. (RunAsync's jobs, 10,000 pending
// in such a burst, come from here too: native_module_inl.h.)
//
// Layout: a chunk is 2 MB, aligned to 2 MB, in 32 runs of 64 KB. Run 0 holds
// the chunk's header; each other run serves one size class at a time, and
// goes back to its chunk when its last block is freed. Size classes step by
// 16 bytes up to 128, then by a quarter of the power of two below (160, 192,
// 224, 256, 320, ...), so a block wastes at most a fifth of itself, up to
// kMaxBlock.
//
// Memory goes back to the system by whole chunks: once every run of a chunk
// is free it is unmapped, except up to kKeptEmptyChunks empty ones kept for
// the next burst (a burst of 10,000 readFiles frees ~6 MB of jobs as it
// ends; unmapping all but one of their chunks had the next burst fault in
// and zero fresh huge pages, ~8% of main's time in a repeated read). A
// long-lived block keeps its run (and chunk) mapped, as a long-lived malloc
// block keeps glibc's arena from shrinking past it. A program's first chunk
// stays in 4 KB pages (one that reads a few small files does not pay for
// 2 MB); chunks mapped while another one is mapped ask for huge pages.
//
// Under AddressSanitizer free blocks and the unused rest of a block are
// poisoned, so a use after free or an overflow is still reported.
//
// Thread-safe: every method may be called on any thread.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "base/thread_annotations.h"

namespace hostloop::base {

class SlabAllocator {
 public:
  static constexpr std::size_t kChunkSize = std::size_t{2} << 20;
  static constexpr std::size_t kRunSize = std::size_t{64} << 10;
  static constexpr std::size_t kRunsPerChunk = kChunkSize / kRunSize;
  // The largest block: a run holds at least four.
  static constexpr std::size_t kMaxBlock = std::size_t{16} << 10;
  static constexpr std::size_t kAlignment = 16;
  static constexpr std::size_t kClassCount = 36;
  // Empty chunks kept mapped for the next burst (8 MB).
  static constexpr std::size_t kKeptEmptyChunks = 4;

  SlabAllocator() = default;
  // Unmaps every chunk: only for an allocator whose blocks are all freed
  // (tests). The process-wide one is never destroyed.
  ~SlabAllocator();
  SlabAllocator(const SlabAllocator&) = delete;
  SlabAllocator& operator=(const SlabAllocator&) = delete;

  // The process-wide allocator, never destroyed (blocks may be freed while
  // static destructors run).
  static SlabAllocator& Shared();

  // A block of at least `bytes` bytes, kAlignment-aligned, its contents
  // unspecified; nullptr when `bytes` is 0 or above kMaxBlock, or when the
  // system refuses memory.
  void* Allocate(std::size_t bytes) EXCLUDES(mutex_);
  // Frees a block that Allocate returned.
  void Free(void* block) EXCLUDES(mutex_);

  // The class of a request of `bytes` (1..kMaxBlock), and the size of that
  // class's blocks.
  static constexpr std::size_t ClassOf(std::size_t bytes) {
    if (bytes <= 128) return (bytes + 15) / 16 - 1;
    // 2^p < bytes <= 2^(p+1): four classes there, a quarter of 2^p apart.
    const int p = static_cast<int>(std::bit_width(bytes - 1)) - 1;
    const std::size_t step = std::size_t{1} << (p - 2);
    const std::size_t quarters = (bytes + step - 1) / step;  // 5..8
    return 8 + static_cast<std::size_t>(p - 7) * 4 + (quarters - 5);
  }
  static constexpr std::size_t ClassSize(std::size_t size_class) {
    if (size_class < 8) return (size_class + 1) * 16;
    const std::size_t group = (size_class - 8) / 4;
    return (5 + (size_class - 8) % 4) << (group + 5);
  }

  // For tests: chunks mapped now, and blocks allocated and not freed.
  std::size_t chunks() const EXCLUDES(mutex_);
  std::size_t live_blocks() const EXCLUDES(mutex_);

 private:
  struct Chunk;
  struct Run {
    Chunk* chunk = nullptr;
    void* free_list = nullptr;  // freed blocks, linked through their first word
    uint32_t fresh = 0;         // blocks handed out so far from the never-used tail
    uint32_t live = 0;
    uint32_t capacity = 0;  // blocks of its class; 0 while the run is free
    uint32_t size_class = 0;
    Run* prev = nullptr;  // in its class's list of runs with room
    Run* next = nullptr;
    char* begin = nullptr;
  };
  struct Chunk {
    Run runs[kRunsPerChunk];  // runs[0] is the header's own space
    uint32_t free_runs = 0;   // how many of runs[1..] are free
    Chunk* prev = nullptr;    // in the list of chunks with a free run
    Chunk* next = nullptr;
  };

  Chunk* MapChunkLocked() REQUIRES(mutex_);
  void UnmapChunkLocked(Chunk* chunk) REQUIRES(mutex_);
  Run* TakeRunLocked(uint32_t size_class) REQUIRES(mutex_);
  void ReleaseRunLocked(Run* run) REQUIRES(mutex_);
  void ListChunkLocked(Chunk* chunk, bool at_tail) REQUIRES(mutex_);
  void UnlistChunkLocked(Chunk* chunk) REQUIRES(mutex_);
  void UnlistRunLocked(Run* run) REQUIRES(mutex_);
  static Run* RunOf(void* block);

  mutable Mutex mutex_;
  Run* with_room_[kClassCount] GUARDED_BY(mutex_) = {};
  // Chunks with a free run, the kept empty ones at the tail.
  Chunk* with_free_run_ GUARDED_BY(mutex_) = nullptr;
  Chunk* with_free_run_tail_ GUARDED_BY(mutex_) = nullptr;
  std::size_t empty_chunks_ GUARDED_BY(mutex_) = 0;
  std::size_t chunks_ GUARDED_BY(mutex_) = 0;
  std::size_t live_ GUARDED_BY(mutex_) = 0;
};

static_assert(SlabAllocator::ClassOf(SlabAllocator::kMaxBlock) == SlabAllocator::kClassCount - 1 &&
              SlabAllocator::ClassSize(SlabAllocator::kClassCount - 1) == SlabAllocator::kMaxBlock);

}  // namespace hostloop::base
