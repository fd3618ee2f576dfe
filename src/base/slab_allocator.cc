#include "base/slab_allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

#include "base/reserved_region.h"

// Under ASan: poisoning, and the chunks are roots for LeakSanitizer (which
// scans malloc's blocks for pointers, not other mappings: what only a
// slab block pointed to, a pending job's EventLoop say, would be reported
// as leaked at exit).
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#define HL_POISON(address, bytes) ASAN_POISON_MEMORY_REGION(address, bytes)
#define HL_UNPOISON(address, bytes) ASAN_UNPOISON_MEMORY_REGION(address, bytes)
#define HL_IS_POISONED(address) __asan_address_is_poisoned(address)
#define HL_LSAN_ROOT(address, bytes) __lsan_register_root_region(address, bytes)
#define HL_LSAN_UNROOT(address, bytes) __lsan_unregister_root_region(address, bytes)
#else
#define HL_POISON(address, bytes) ((void)(address), (void)(bytes))
#define HL_UNPOISON(address, bytes) ((void)(address), (void)(bytes))
#define HL_IS_POISONED(address) ((void)(address), false)
#define HL_LSAN_ROOT(address, bytes) ((void)(address), (void)(bytes))
#define HL_LSAN_UNROOT(address, bytes) ((void)(address), (void)(bytes))
#endif

namespace hostloop::base {

SlabAllocator::~SlabAllocator() {
  // With every block freed, the chunks left are the kept empty ones, all in
  // the list. Chunks that still hold blocks stay mapped: their blocks may be
  // in use.
  MutexLock lock(mutex_);
  if (live_ != 0) return;
  while (Chunk* chunk = with_free_run_) {
    UnlistChunkLocked(chunk);
    UnmapChunkLocked(chunk);
  }
}

SlabAllocator& SlabAllocator::Shared() {
  static SlabAllocator* shared = new SlabAllocator();
  return *shared;
}

SlabAllocator::Run* SlabAllocator::RunOf(void* block) {
  const auto address = reinterpret_cast<std::uintptr_t>(block);
  auto* chunk = reinterpret_cast<Chunk*>(address & ~(kChunkSize - 1));
  return &chunk->runs[(address & (kChunkSize - 1)) / kRunSize];
}

void* SlabAllocator::Allocate(std::size_t bytes) {
  if (bytes == 0 || bytes > kMaxBlock) return nullptr;
  const std::size_t size_class = ClassOf(bytes);
  const std::size_t size = ClassSize(size_class);
  MutexLock lock(mutex_);
  Run* run = with_room_[size_class];
  if (run == nullptr) {
    run = TakeRunLocked(static_cast<uint32_t>(size_class));
    if (run == nullptr) return nullptr;
    with_room_[size_class] = run;  // (a free run is in no list: prev and next are null)
  }
  char* block;
  if (run->free_list != nullptr) {
    block = static_cast<char*>(run->free_list);
    HL_UNPOISON(block, sizeof(void*));
    run->free_list = *reinterpret_cast<void**>(block);
  } else {
    block = run->begin + static_cast<std::size_t>(run->fresh) * size;
    ++run->fresh;
  }
  HL_UNPOISON(block, bytes);
  HL_POISON(block + bytes, size - bytes);
  ++live_;
  if (++run->live == run->capacity) UnlistRunLocked(run);
  return block;
}

void SlabAllocator::Free(void* block) {
  if (block == nullptr) return;
  MutexLock lock(mutex_);
  // A live block's first byte is never poisoned (Allocate(0) gives none).
  if (HL_IS_POISONED(block)) std::abort();  // a double free, or not a block of ours
  Run* run = RunOf(block);
  const bool was_full = run->live == run->capacity;
  HL_UNPOISON(block, sizeof(void*));
  *reinterpret_cast<void**>(block) = run->free_list;
  run->free_list = block;
  HL_POISON(block, ClassSize(run->size_class));
  --live_;
  if (--run->live == 0) {
    if (!was_full) UnlistRunLocked(run);
    ReleaseRunLocked(run);
  } else if (was_full) {
    Run*& head = with_room_[run->size_class];
    run->prev = nullptr;
    run->next = head;
    if (head != nullptr) head->prev = run;
    head = run;
  }
}

SlabAllocator::Chunk* SlabAllocator::MapChunkLocked() {
  static_assert(sizeof(Chunk) <= kRunSize, "a chunk's header fits in its first run");
  static_assert(kRunSize / kMaxBlock >= 4);
  void* memory = MapAligned(kChunkSize, kChunkSize, PROT_READ | PROT_WRITE);
  if (memory == nullptr) return nullptr;
  // The first chunk stays in 4 KB pages: a program that reads a few small
  // files touches a few pages, not 2 MB.
  if (chunks_ > 0) AdviseHugePages(memory, kChunkSize);
  auto* chunk = new (memory) Chunk();
  char* base = static_cast<char*>(memory);
  for (std::size_t i = 0; i < kRunsPerChunk; ++i) {
    chunk->runs[i].chunk = chunk;
    chunk->runs[i].begin = base + i * kRunSize;
  }
  chunk->free_runs = kRunsPerChunk - 1;
  HL_POISON(base + kRunSize, kChunkSize - kRunSize);
  HL_LSAN_ROOT(memory, kChunkSize);
  ++chunks_;
  return chunk;
}

SlabAllocator::Run* SlabAllocator::TakeRunLocked(uint32_t size_class) {
  // The list's head: a chunk in use if there is one with a free run (the
  // kept empty ones are at the tail, so that they can go back whole).
  Chunk* chunk = with_free_run_;
  if (chunk == nullptr) {
    chunk = MapChunkLocked();
    if (chunk == nullptr) return nullptr;
    ListChunkLocked(chunk, /*at_tail=*/false);
  } else if (chunk->free_runs == kRunsPerChunk - 1) {
    --empty_chunks_;  // a kept one, in use again
  }
  Run* run = nullptr;
  for (std::size_t i = 1; i < kRunsPerChunk; ++i) {
    if (chunk->runs[i].capacity == 0) {
      run = &chunk->runs[i];
      break;
    }
  }
  run->size_class = size_class;
  run->capacity = static_cast<uint32_t>(kRunSize / ClassSize(size_class));
  run->fresh = 0;
  run->live = 0;
  run->free_list = nullptr;
  if (--chunk->free_runs == 0) UnlistChunkLocked(chunk);
  return run;
}

void SlabAllocator::ReleaseRunLocked(Run* run) {
  run->capacity = 0;
  run->free_list = nullptr;
  Chunk* chunk = run->chunk;
  if (++chunk->free_runs == 1) ListChunkLocked(chunk, /*at_tail=*/false);
  if (chunk->free_runs < kRunsPerChunk - 1) return;
  // Every run of the chunk is free: keep it for the next burst (at the
  // list's tail), or give it back if enough are kept already.
  UnlistChunkLocked(chunk);
  if (empty_chunks_ < kKeptEmptyChunks) {
    ++empty_chunks_;
    ListChunkLocked(chunk, /*at_tail=*/true);
    return;
  }
  UnmapChunkLocked(chunk);
}

void SlabAllocator::UnmapChunkLocked(Chunk* chunk) {
  --chunks_;
  HL_LSAN_UNROOT(chunk, kChunkSize);
  HL_UNPOISON(chunk, kChunkSize);
  munmap(chunk, kChunkSize);
}

void SlabAllocator::ListChunkLocked(Chunk* chunk, bool at_tail) {
  if (with_free_run_ == nullptr) {
    chunk->prev = nullptr;
    chunk->next = nullptr;
    with_free_run_ = chunk;
    with_free_run_tail_ = chunk;
  } else if (at_tail) {
    chunk->prev = with_free_run_tail_;
    chunk->next = nullptr;
    with_free_run_tail_->next = chunk;
    with_free_run_tail_ = chunk;
  } else {
    chunk->prev = nullptr;
    chunk->next = with_free_run_;
    with_free_run_->prev = chunk;
    with_free_run_ = chunk;
  }
}

// A chunk is listed exactly while it has a free run (a new one from the
// moment TakeRunLocked lists it), which is when this is called.
void SlabAllocator::UnlistChunkLocked(Chunk* chunk) {
  if (chunk->prev != nullptr) chunk->prev->next = chunk->next;
  if (chunk->next != nullptr) chunk->next->prev = chunk->prev;
  if (with_free_run_ == chunk) with_free_run_ = chunk->next;
  if (with_free_run_tail_ == chunk) with_free_run_tail_ = chunk->prev;
  chunk->prev = nullptr;
  chunk->next = nullptr;
}

void SlabAllocator::UnlistRunLocked(Run* run) {
  if (run->prev != nullptr) run->prev->next = run->next;
  if (run->next != nullptr) run->next->prev = run->prev;
  if (with_room_[run->size_class] == run) with_room_[run->size_class] = run->next;
  run->prev = nullptr;
  run->next = nullptr;
}

std::size_t SlabAllocator::chunks() const {
  MutexLock lock(mutex_);
  return chunks_;
}

std::size_t SlabAllocator::live_blocks() const {
  MutexLock lock(mutex_);
  return live_;
}

}  // namespace hostloop::base
