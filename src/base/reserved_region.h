// ReservedRegion: a block of memory that grows in place. It reserves
// address space for its largest size once (no memory, no commit charge) and
// makes a prefix usable as it grows, so growing never copies or moves what
// is there and never touches more than the new part.
//
// Why: on the VMs hostloop runs on, a first touch of a 4 KB page costs ~10 us
// (a hypervisor exit per fault), so a structure filled with a million
// entries spends more time in page faults than in its own code. Past its
// first 2 MB a region asks for transparent huge pages (the kernel's
// "madvise" mode grants only what is asked for): one fault per 2 MB, ~40x
// less per byte here. The first 2 MB stays in 4 KB pages, so a small
// structure costs what it touches and no more; once a region grows past its
// first step (64 KB), each further part below 2 MB is faulted in by one
// MADV_POPULATE_WRITE call as it is made usable (~20x cheaper a page than
// one fault at a time, for committing up to half the region's size ahead of
// use while it is under 2 MB).
//
// Not thread-safe; the owner serializes access.
#pragma once

#include <cstddef>

namespace hostloop::base {

// A transparent huge page on x86-64.
inline constexpr std::size_t kHugePageSize = std::size_t{2} << 20;

// Asks for huge pages behind the kHugePageSize-aligned part of
// [data, data + bytes) (the kernel's "madvise" THP mode grants only what is
// asked for); nothing when that part is empty.
void AdviseHugePages(void* data, std::size_t bytes);

class ReservedRegion {
 public:
  // A region that may grow to `max_bytes`. Reserves nothing until the first
  // Grow().
  explicit ReservedRegion(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  ~ReservedRegion();
  ReservedRegion(const ReservedRegion&) = delete;
  ReservedRegion& operator=(const ReservedRegion&) = delete;

  // The start of the region (nullptr before the first Grow()). It never
  // moves once set.
  void* data() const { return data_; }
  // How many bytes from data() are usable.
  std::size_t usable() const { return usable_; }
  std::size_t max_bytes() const { return max_bytes_; }

  // Makes at least the first `bytes` usable (new memory reads as zero).
  // It grows by at least half of what is usable, so n appends cost O(n).
  // False (and nothing changes) when `bytes` exceeds max_bytes() or the
  // system refuses the memory.
  bool Grow(std::size_t bytes);

  // The size past which a region asks for huge pages.
  static constexpr std::size_t kHugePage = kHugePageSize;
  // The smallest step a region grows by; its first step is not populated.
  static constexpr std::size_t kFirstStep = std::size_t{64} << 10;

 private:
  const std::size_t max_bytes_;
  void* data_ = nullptr;
  std::size_t reserved_ = 0;  // bytes mapped (max_bytes_ rounded up)
  std::size_t usable_ = 0;
};

// Maps `bytes` (a multiple of the page size) of anonymous private memory
// aligned to `alignment` (a power of two, a multiple of the page size) with
// `protection` and extra mmap `flags`; the slack mapped to align it is given
// back. nullptr if the system refuses.
void* MapAligned(std::size_t bytes, std::size_t alignment, int protection, int flags = 0);

}  // namespace hostloop::base
