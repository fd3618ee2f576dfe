// FsResult's read buffer: a small file's first block comes from the slab, a
// block that has to grow moves to malloc with its bytes, and the destructor
// and TooLarge give the block back. (TakeBytes needs V8 running: the fs
// specs in tests/js cover it, and under ASan a slab block given to free(),
// or a malloc'd one to the slab, is reported.)
#include "runtime/fs_result.h"

#include <gtest/gtest.h>

#include <cstring>

#include "base/slab_allocator.h"

namespace hostloop::runtime {
namespace {

std::size_t LiveSlabBlocks() { return base::SlabAllocator::Shared().live_blocks(); }

TEST(FsResult, ASmallFilesFirstBlockComesFromTheSlab) {
  const std::size_t before = LiveSlabBlocks();
  {
    FsResult result;
    ASSERT_EQ(result.MakeRoom(1025, 1 << 20), FsResult::Room::kOk);
    EXPECT_TRUE(result.slab);
    EXPECT_EQ(result.capacity, 1025u);
    EXPECT_EQ(LiveSlabBlocks(), before + 1);
  }
  EXPECT_EQ(LiveSlabBlocks(), before);
}

TEST(FsResult, ALargerFirstBlockComesFromMalloc) {
  const std::size_t before = LiveSlabBlocks();
  FsResult result;
  ASSERT_EQ(result.MakeRoom(kFirstReadSize, 1 << 20), FsResult::Room::kOk);
  EXPECT_FALSE(result.slab);
  EXPECT_EQ(LiveSlabBlocks(), before);
}

TEST(FsResult, AFileThatGrowsWhileReadMovesToMallocWithItsBytes) {
  const std::size_t before = LiveSlabBlocks();
  FsResult result;
  ASSERT_EQ(result.MakeRoom(100, 1 << 20), FsResult::Room::kOk);
  std::memset(result.data, 'x', 100);
  result.size = 100;  // full: the file gave more than fstat said
  ASSERT_EQ(result.MakeRoom(100, 1 << 20), FsResult::Room::kOk);
  EXPECT_FALSE(result.slab);
  EXPECT_EQ(result.capacity, 200u);
  EXPECT_EQ(LiveSlabBlocks(), before);
  for (std::size_t i = 0; i < 100; ++i) ASSERT_EQ(result.data[i], 'x') << i;
}

TEST(FsResult, TooLargeGivesTheBlockBack) {
  const std::size_t before = LiveSlabBlocks();
  FsResult result;
  ASSERT_EQ(result.MakeRoom(50, 1 << 20), FsResult::Room::kOk);
  result.TooLarge(12345);
  EXPECT_EQ(result.data, nullptr);
  EXPECT_EQ(result.too_large, 12345u);
  EXPECT_EQ(LiveSlabBlocks(), before);
}

TEST(FsResult, AMovedResultTakesTheBlockWithIt) {
  const std::size_t before = LiveSlabBlocks();
  FsResult first;
  ASSERT_EQ(first.MakeRoom(10, 1 << 20), FsResult::Room::kOk);
  {
    FsResult second(std::move(first));
    EXPECT_TRUE(second.slab);
    EXPECT_FALSE(first.slab);
    EXPECT_EQ(first.data, nullptr);
  }
  EXPECT_EQ(LiveSlabBlocks(), before);
}

}  // namespace
}  // namespace hostloop::runtime
