#include "base/reserved_region.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "base/smaps_test_util.h"

namespace hostloop::base {
namespace {

TEST(ReservedRegion, GrowsInPlaceKeepingContentsAndZeroFillingTheNewPart) {
  ReservedRegion region(64u << 20);
  EXPECT_EQ(region.data(), nullptr);  // nothing reserved before the first Grow
  ASSERT_TRUE(region.Grow(100));
  auto* base = static_cast<unsigned char*>(region.data());
  ASSERT_NE(base, nullptr);
  EXPECT_GE(region.usable(), 100u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(base) % ReservedRegion::kHugePage, 0u);
  std::memset(base, 0xab, region.usable());
  std::size_t filled = region.usable();
  // Growing past the huge-page threshold: same start, old bytes kept, new
  // bytes zero.
  ASSERT_TRUE(region.Grow(10u << 20));
  EXPECT_EQ(region.data(), base);
  EXPECT_GE(region.usable(), 10u << 20);
  EXPECT_EQ(region.usable() % ReservedRegion::kHugePage, 0u);
  for (std::size_t i = 0; i < filled; i += 997) ASSERT_EQ(base[i], 0xab) << i;
  for (std::size_t i = filled; i < region.usable(); i += 4093) ASSERT_EQ(base[i], 0) << i;
  base[region.usable() - 1] = 1;  // the last usable byte is writable
}

TEST(ReservedRegion, GrowsGeometrically) {
  ReservedRegion region(256u << 20);
  int grows = 0;
  std::size_t usable = 0;
  for (std::size_t bytes = 1; bytes <= (200u << 20); bytes += 4096) {
    ASSERT_TRUE(region.Grow(bytes));
    if (region.usable() != usable) ++grows;
    usable = region.usable();
  }
  // 64 KB to 200 MB by at least 1.5x a step: about 20 steps, not 50,000.
  EXPECT_LE(grows, 25);
}

TEST(ReservedRegion, RefusesToGrowPastItsMaximum) {
  ReservedRegion region(1u << 20);
  EXPECT_FALSE(region.Grow((1u << 20) + 1));
  EXPECT_TRUE(region.Grow(1u << 20));
  EXPECT_GE(region.usable(), 1u << 20);
  EXPECT_FALSE(region.Grow((1u << 20) + 1));
}

TEST(ReservedRegion, AsksForHugePagesOnlyPastItsFirstTwoMegabytes) {
  ReservedRegion region(64u << 20);
  ASSERT_TRUE(region.Grow(8u << 20));
  auto* base = static_cast<char*>(region.data());
  const std::string small = VmFlagsAt(base);
  const std::string large = VmFlagsAt(base + ReservedRegion::kHugePage);
  ASSERT_NE(small, "");
  ASSERT_NE(large, "");
  EXPECT_EQ(small.find(" hg"), std::string::npos) << small;
  EXPECT_NE(large.find(" hg"), std::string::npos) << large;
}

TEST(ReservedRegion, FaultsInItsSmallPagesInOneCallOncePastItsFirstStep) {
  ReservedRegion region(64u << 20);
  ASSERT_TRUE(region.Grow(100));
  const std::size_t first = region.usable();
  auto* base = static_cast<unsigned char*>(region.data());
  const long page = sysconf(_SC_PAGESIZE);
  // The first step is left to fault page by page: nothing resident yet.
  std::vector<unsigned char> resident(first / static_cast<std::size_t>(page));
  ASSERT_EQ(mincore(base, first, resident.data()), 0);
  EXPECT_EQ(std::count(resident.begin(), resident.end(), 0), static_cast<long>(resident.size()));
  // Growing again: the new part (below 2 MB) is resident before any touch.
  ASSERT_TRUE(region.Grow(first + 1));
  const std::size_t grown = region.usable() - first;
  ASSERT_GT(grown, 0u);
  ASSERT_LE(region.usable(), ReservedRegion::kHugePage);
  resident.assign(grown / static_cast<std::size_t>(page), 0);
  ASSERT_EQ(mincore(base + first, grown, resident.data()), 0);
  EXPECT_EQ(std::count(resident.begin(), resident.end(), 0), 0);
  for (std::size_t i = first; i < region.usable(); i += 4093) ASSERT_EQ(base[i], 0) << i;
}

}  // namespace
}  // namespace hostloop::base
