#include "base/slab_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "base/thread_annotations.h"

namespace hostloop::base {
namespace {

TEST(SlabAllocator, EachRequestGetsTheSmallestClassThatHoldsIt) {
  std::size_t previous_size = 0;
  for (std::size_t bytes = 1; bytes <= SlabAllocator::kMaxBlock; ++bytes) {
    const std::size_t size_class = SlabAllocator::ClassOf(bytes);
    const std::size_t size = SlabAllocator::ClassSize(size_class);
    ASSERT_LT(size_class, SlabAllocator::kClassCount) << bytes;
    ASSERT_GE(size, bytes) << bytes;
    ASSERT_EQ(size % SlabAllocator::kAlignment, 0u) << bytes;
    if (size_class > 0) {
      ASSERT_LT(SlabAllocator::ClassSize(size_class - 1), bytes) << bytes;
    }
    // Above 128 bytes, a block is at most a quarter larger than asked for.
    if (bytes > 128) {
      ASSERT_LE(size * 4, bytes * 5) << bytes;
    }
    ASSERT_GE(size, previous_size);
    previous_size = size;
  }
}

TEST(SlabAllocator, RefusesWhatItDoesNotServe) {
  SlabAllocator slab;
  EXPECT_EQ(slab.Allocate(0), nullptr);
  EXPECT_EQ(slab.Allocate(SlabAllocator::kMaxBlock + 1), nullptr);
  EXPECT_EQ(slab.chunks(), 0u);
  slab.Free(nullptr);
}

TEST(SlabAllocator, BlocksAreAlignedDistinctAndKeepTheirBytes) {
  SlabAllocator slab;
  std::mt19937 random(7);
  std::vector<std::pair<uint8_t*, std::size_t>> blocks;
  for (int i = 0; i < 4000; ++i) {
    const std::size_t bytes = 1 + random() % SlabAllocator::kMaxBlock;
    auto* block = static_cast<uint8_t*>(slab.Allocate(bytes));
    ASSERT_NE(block, nullptr);
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(block) % SlabAllocator::kAlignment, 0u);
    std::memset(block, i & 0xff, bytes);
    blocks.emplace_back(block, bytes);
  }
  EXPECT_EQ(slab.live_blocks(), blocks.size());
  // No two blocks overlap: every byte still holds what was written there.
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const auto [block, bytes] = blocks[i];
    const uint8_t value = i & 0xff;
    ASSERT_EQ(std::find_if(block, block + bytes, [&](uint8_t byte) { return byte != value; }),
              block + bytes)
        << i;
  }
  for (const auto& [block, bytes] : blocks) slab.Free(block);
  EXPECT_EQ(slab.live_blocks(), 0u);
}

TEST(SlabAllocator, FreedBlocksAreReusedBeforeFreshMemory) {
  SlabAllocator slab;
  void* first = slab.Allocate(1000);
  void* second = slab.Allocate(1000);
  slab.Free(first);
  EXPECT_EQ(slab.Allocate(1000), first);
  slab.Free(first);
  slab.Free(second);
}

TEST(SlabAllocator, ChunksGoBackOnceEmptyButAFewAreKept) {
  SlabAllocator slab;
  // ~12 MB of 1 KB blocks: more chunks than are kept.
  std::vector<void*> blocks;
  for (int i = 0; i < 12000; ++i) blocks.push_back(slab.Allocate(1024));
  const std::size_t peak = slab.chunks();
  ASSERT_GT(peak, SlabAllocator::kKeptEmptyChunks + 1);
  // Free all but one block of the first chunk: the chunk with that block
  // stays, kKeptEmptyChunks empty ones are kept, the rest go back.
  for (std::size_t i = 1; i < blocks.size(); ++i) slab.Free(blocks[i]);
  EXPECT_EQ(slab.chunks(), 1 + SlabAllocator::kKeptEmptyChunks);
  EXPECT_EQ(slab.live_blocks(), 1u);
  slab.Free(blocks[0]);
  EXPECT_EQ(slab.chunks(), SlabAllocator::kKeptEmptyChunks);
  // The next burst starts in the kept chunks: no chunk is mapped until they
  // are used up.
  std::vector<void*> again;
  const std::size_t per_chunk =
      (SlabAllocator::kRunsPerChunk - 1) * (SlabAllocator::kRunSize / 1024);
  for (std::size_t i = 0; i < per_chunk * SlabAllocator::kKeptEmptyChunks; ++i) {
    again.push_back(slab.Allocate(1024));
  }
  EXPECT_EQ(slab.chunks(), SlabAllocator::kKeptEmptyChunks);
  again.push_back(slab.Allocate(1024));
  EXPECT_EQ(slab.chunks(), SlabAllocator::kKeptEmptyChunks + 1);
  for (void* block : again) slab.Free(block);
  EXPECT_EQ(slab.chunks(), SlabAllocator::kKeptEmptyChunks);
}

// A chunk in use is filled before a kept empty one is touched, so that the
// empty ones can go back whole.
TEST(SlabAllocator, ChunksInUseAreFilledBeforeKeptEmptyOnes) {
  SlabAllocator slab;
  const std::size_t per_chunk =
      (SlabAllocator::kRunsPerChunk - 1) * (SlabAllocator::kRunSize / 1024);
  std::vector<void*> blocks;
  for (std::size_t i = 0; i < per_chunk * 3; ++i) blocks.push_back(slab.Allocate(1024));
  ASSERT_EQ(slab.chunks(), 3u);
  auto chunk_of = [](void* block) {
    return reinterpret_cast<std::uintptr_t>(block) & ~(SlabAllocator::kChunkSize - 1);
  };
  // Free one run's worth of the middle chunk, then empty the first and the
  // last chunk (after it, so that they are not simply older in the list).
  const std::uintptr_t middle = chunk_of(blocks[per_chunk]);
  const std::size_t per_run = SlabAllocator::kRunSize / 1024;
  for (std::size_t i = per_chunk; i < per_chunk + per_run; ++i) slab.Free(blocks[i]);
  for (std::size_t i = 0; i < per_chunk; ++i) slab.Free(blocks[i]);
  for (std::size_t i = 2 * per_chunk; i < 3 * per_chunk; ++i) slab.Free(blocks[i]);
  // The next run's worth goes into the middle chunk's free run.
  for (std::size_t i = 0; i < per_run; ++i) {
    void* block = slab.Allocate(1024);
    EXPECT_EQ(chunk_of(block), middle);
    blocks[per_chunk + i] = block;
  }
  for (std::size_t i = per_chunk; i < 2 * per_chunk; ++i) slab.Free(blocks[i]);
  EXPECT_EQ(slab.live_blocks(), 0u);
}

TEST(SlabAllocator, ARunServesAnotherClassOnceItsBlocksAreFreed) {
  SlabAllocator slab;
  std::vector<void*> small;
  // Fill every run of one chunk with 16-byte blocks.
  const std::size_t per_run = SlabAllocator::kRunSize / 16;
  for (std::size_t i = 0; i < per_run * (SlabAllocator::kRunsPerChunk - 1); ++i) {
    small.push_back(slab.Allocate(16));
  }
  ASSERT_EQ(slab.chunks(), 1u);
  // Free one run's worth: that run can now hold 16 KB blocks, in the same
  // chunk.
  for (std::size_t i = 0; i < per_run; ++i) slab.Free(small[i]);
  void* large = slab.Allocate(SlabAllocator::kMaxBlock);
  EXPECT_EQ(slab.chunks(), 1u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large) & ~(SlabAllocator::kChunkSize - 1),
            reinterpret_cast<std::uintptr_t>(small[0]) & ~(SlabAllocator::kChunkSize - 1));
  slab.Free(large);
  for (std::size_t i = per_run; i < small.size(); ++i) slab.Free(small[i]);
  EXPECT_EQ(slab.live_blocks(), 0u);
}

// Blocks made on one thread and freed on another, as readFile's are (made
// on a pool thread, freed where V8 collects the buffer). TSan checks the
// locking; the counts check nothing is lost.
TEST(SlabAllocator, BlocksMadeOnOneThreadAreFreedOnAnother) {
  SlabAllocator slab;
  Mutex mutex;
  std::vector<void*> handed_over;
  bool done = false;
  constexpr int kBlocks = 50000;
  std::thread maker([&] {
    std::mt19937 random(3);
    for (int i = 0; i < kBlocks; ++i) {
      const std::size_t bytes = 2 + random() % 4095;
      auto* block = static_cast<uint8_t*>(slab.Allocate(bytes));
      ASSERT_NE(block, nullptr);
      block[0] = 1;
      block[bytes - 1] = 2;
      MutexLock lock(mutex);
      handed_over.push_back(block);
    }
    MutexLock lock(mutex);
    done = true;
  });
  int freed = 0;
  while (true) {
    std::vector<void*> batch;
    bool finished;
    {
      MutexLock lock(mutex);
      batch.swap(handed_over);
      finished = done;
    }
    for (void* block : batch) {
      EXPECT_EQ(static_cast<uint8_t*>(block)[0], 1);
      slab.Free(block);
    }
    freed += static_cast<int>(batch.size());
    if (finished && batch.empty()) break;
    std::this_thread::yield();
  }
  maker.join();
  EXPECT_EQ(freed, kBlocks);
  EXPECT_EQ(slab.live_blocks(), 0u);
  EXPECT_LE(slab.chunks(), SlabAllocator::kKeptEmptyChunks);
}

#if defined(__SANITIZE_ADDRESS__)
TEST(SlabAllocatorDeathTest, AddressSanitizerSeesUseAfterFreeAndOverflow) {
  SlabAllocator slab;
  auto* block = static_cast<volatile char*>(slab.Allocate(100));
  block[99] = 1;
  EXPECT_DEATH(block[100] = 1, "use-after-poison");
  slab.Free(const_cast<char*>(block));
  EXPECT_DEATH(block[0] = 1, "use-after-poison");
  EXPECT_DEATH(slab.Free(const_cast<char*>(block)), "");
}
#endif

}  // namespace
}  // namespace hostloop::base
