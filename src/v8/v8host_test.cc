// The V8-facing allocators: huge pages behind large buffers and commits.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "base/smaps_test_util.h"
#include "v8/array_buffer_allocator.h"
#include "v8/huge_page_allocator.h"

namespace hostloop::v8host {
namespace {

constexpr std::size_t kMB = std::size_t{1} << 20;

TEST(ArrayBufferAllocator, LargeBuffersAreZeroedAlignedMappingsWithHugePages) {
  ArrayBufferAllocator allocator;
  const std::size_t length = 5 * kMB + 123;
  auto* data = static_cast<unsigned char*>(allocator.Allocate(length));
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(data) % (2 * kMB), 0u);
  for (std::size_t i = 0; i < length; i += 4093) ASSERT_EQ(data[i], 0) << i;
  EXPECT_TRUE(base::AsksForHugePages(data));
  std::memset(data, 0x5a, length);  // all of it is writable
  allocator.Free(data, length);
  EXPECT_EQ(base::VmFlagsAt(data), "");  // unmapped
}

TEST(ArrayBufferAllocator, SmallBuffersComeFromTheHeap) {
  ArrayBufferAllocator allocator;
  auto* zeroed = static_cast<unsigned char*>(allocator.Allocate(1000));
  ASSERT_NE(zeroed, nullptr);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(zeroed[i], 0);
  EXPECT_FALSE(base::AsksForHugePages(zeroed));
  void* raw = allocator.AllocateUninitialized(64);
  ASSERT_NE(raw, nullptr);
  void* empty = allocator.Allocate(0);
  EXPECT_NE(empty, nullptr);
  allocator.Free(zeroed, 1000);
  allocator.Free(raw, 64);
  allocator.Free(empty, 0);
}

TEST(ArrayBufferAllocator, UninitializedLargeBuffersAreMappedToo) {
  ArrayBufferAllocator allocator;
  std::vector<void*> buffers;
  for (int i = 0; i < 4; ++i) {
    void* data = allocator.AllocateUninitialized(3 * kMB);
    ASSERT_NE(data, nullptr);
    EXPECT_TRUE(base::AsksForHugePages(data));
    buffers.push_back(data);
  }
  for (void* data : buffers) allocator.Free(data, 3 * kMB);
}

// A PageAllocator over mmap that records the alignment it was asked for.
class MmapPageAllocator final : public v8::PageAllocator {
 public:
  size_t AllocatePageSize() override { return 4096; }
  size_t CommitPageSize() override { return 4096; }
  void SetRandomMmapSeed(int64_t) override {}
  void* GetRandomMmapAddr() override { return nullptr; }
  void* AllocatePages(void*, size_t length, size_t alignment, Permission permissions) override {
    last_alignment = alignment;
    void* raw = mmap(nullptr, length + alignment, Protection(permissions),
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    auto start = reinterpret_cast<std::uintptr_t>(raw);
    auto aligned = (start + alignment - 1) / alignment * alignment;
    return reinterpret_cast<void*>(aligned);  // (the slack is left mapped: a test)
  }
  bool FreePages(void* address, size_t length) override { return munmap(address, length) == 0; }
  bool ReleasePages(void*, size_t, size_t) override { return true; }
  bool SetPermissions(void* address, size_t length, Permission permissions) override {
    return mprotect(address, length, Protection(permissions)) == 0;
  }
  bool DecommitPages(void*, size_t) override { return true; }

  size_t last_alignment = 0;

 private:
  static int Protection(Permission permissions) {
    return permissions == kNoAccess ? PROT_NONE : PROT_READ | PROT_WRITE;
  }
};

TEST(HugePageAllocator, AlignsLargeReservationsAndAdvisesTheirReadWriteCommits) {
  MmapPageAllocator inner;
  HugePageAllocator allocator(&inner);
  // A large object's page: reserved without access, then committed.
  auto* chunk = static_cast<char*>(
      allocator.AllocatePages(nullptr, 6 * kMB, 256 * 1024, v8::PageAllocator::kNoAccess));
  ASSERT_NE(chunk, nullptr);
  EXPECT_EQ(inner.last_alignment, 2 * kMB);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(chunk) % (2 * kMB), 0u);
  EXPECT_FALSE(base::AsksForHugePages(chunk));
  ASSERT_TRUE(allocator.SetPermissions(chunk, 5 * kMB, v8::PageAllocator::kReadWrite));
  EXPECT_TRUE(base::AsksForHugePages(chunk));
  EXPECT_TRUE(base::AsksForHugePages(chunk + 2 * kMB));
  // The tail past the last aligned 2 MB stays in small pages.
  EXPECT_FALSE(base::AsksForHugePages(chunk + 4 * kMB));
  EXPECT_TRUE(allocator.FreePages(chunk, 6 * kMB));
}

TEST(HugePageAllocator, LeavesSmallPagesAlone) {
  MmapPageAllocator inner;
  HugePageAllocator allocator(&inner);
  auto* page = static_cast<char*>(
      allocator.AllocatePages(nullptr, 256 * 1024, 256 * 1024, v8::PageAllocator::kReadWrite));
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(inner.last_alignment, 256u * 1024);
  EXPECT_FALSE(base::AsksForHugePages(page));
  EXPECT_TRUE(allocator.FreePages(page, 256 * 1024));
}

// How many of the pages in [data, data + bytes) are resident.
std::size_t ResidentPages(void* data, std::size_t bytes) {
  std::vector<unsigned char> residency(bytes / 4096);
  if (mincore(data, bytes, residency.data()) != 0) return 0;
  std::size_t resident = 0;
  for (unsigned char page : residency) resident += page & 1;
  return resident;
}

TEST(HugePageAllocator, PopulatesLargeCommitsOnceEnabled) {
  MmapPageAllocator inner;
  HugePageAllocator allocator(&inner);
  constexpr std::size_t kPage = 256 * 1024;
  auto* before = static_cast<char*>(
      allocator.AllocatePages(nullptr, kPage, kPage, v8::PageAllocator::kNoAccess));
  ASSERT_TRUE(allocator.SetPermissions(before, kPage, v8::PageAllocator::kReadWrite));
  EXPECT_EQ(ResidentPages(before, kPage), 0u);  // faulted in as touched

  allocator.EnablePopulate();
  auto* after = static_cast<char*>(
      allocator.AllocatePages(nullptr, kPage, kPage, v8::PageAllocator::kNoAccess));
  ASSERT_TRUE(allocator.SetPermissions(after, kPage, v8::PageAllocator::kReadWrite));
  EXPECT_EQ(ResidentPages(after, kPage), kPage / 4096);
  // Small commits stay lazy.
  auto* small = static_cast<char*>(
      allocator.AllocatePages(nullptr, kPage, kPage, v8::PageAllocator::kNoAccess));
  ASSERT_TRUE(allocator.SetPermissions(small, 16 * 1024, v8::PageAllocator::kReadWrite));
  EXPECT_EQ(ResidentPages(small, 16 * 1024), 0u);
  for (char* pages : {before, after, small}) allocator.FreePages(pages, kPage);
}

TEST(HugePageAllocator, LeavesMemoryOutsideTheHeapAlone) {
  // A WebAssembly.Memory or a resizable ArrayBuffer: reserved with the OS
  // page size and committed in full, though it may stay almost unused.
  MmapPageAllocator inner;
  HugePageAllocator allocator(&inner);
  allocator.EnablePopulate();
  constexpr std::size_t kSize = 64 * kMB;
  auto* memory = static_cast<char*>(
      allocator.AllocatePages(nullptr, kSize, 4096, v8::PageAllocator::kNoAccess));
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(inner.last_alignment, 4096u);
  ASSERT_TRUE(allocator.SetPermissions(memory, kSize, v8::PageAllocator::kReadWrite));
  EXPECT_EQ(ResidentPages(memory, kSize), 0u);
  EXPECT_FALSE(base::AsksForHugePages(memory + 4 * kMB));
  allocator.FreePages(memory, kSize);
}

}  // namespace
}  // namespace hostloop::v8host
