// What hostloop:fs operations hand from the thread pool (or the loop, for
// files that are not regular ones: fs_watches.h) back to the code that
// settles their promises. No V8 handles: a result may be made and destroyed
// on a pool thread.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <v8.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/unique_fd.h"

namespace hostloop::runtime {

// Bytes to write: a copy of a string's UTF-8, or a view's backing store
// (shared with the JS object, which keeps it alive; it may be released on
// any thread).
struct Payload {
  std::string text;
  std::shared_ptr<v8::BackingStore> store;
  std::size_t offset = 0;
  std::size_t length = 0;
  const char* data() const {
    return store ? static_cast<const char*>(store->Data()) + offset : text.data();
  }
  std::size_t size() const { return store ? length : text.size(); }
};

struct FsResult {
  int error = 0;  // errno
  const char* syscall = "";
  std::string path;
  std::string dest;
  // readFile: the bytes read, in a block of `capacity` bytes that becomes
  // the ArrayBuffer's backing store without a copy (TakeBytes). A first
  // block of up to SlabAllocator::kMaxBlock bytes (a small file's) comes
  // from the SlabAllocator (`slab`), a larger or a grown one from malloc.
  uint8_t* data = nullptr;
  std::size_t size = 0;
  std::size_t capacity = 0;
  bool slab = false;
  // readFile of more than it can return: the size seen (fstat's, or what
  // was read when the file kept growing); error is 0.
  std::size_t too_large = 0;
  // readdir (sorted by bytes, as node's); with file types, each entry's
  // DT_* type beside it
  std::vector<std::string> names;
  std::vector<unsigned char> types;
  // stat
  struct stat info {};
  // mkdir: the first directory created
  std::string created;
  // readFile/writeFile of a file that is not a regular one (a FIFO, a pipe,
  // a terminal, a character device): the job opened it without blocking
  // and left the reading or writing to the runtime's loop (FsWatches), as
  // it may wait for the other end for ever. `stream` is the fd; it is
  // invalid for a write to a FIFO that no reader has open yet, which the
  // loop opens again (`open_flags`, `mode`) until one does. `payload`: the
  // bytes of a write.
  bool on_loop = false;
  base::UniqueFd stream;
  int open_flags = 0;
  mode_t mode = 0;
  Payload payload;

  FsResult() = default;
  FsResult(FsResult&& other) noexcept;
  FsResult& operator=(FsResult&&) = delete;
  ~FsResult() { FreeData(); }

  FsResult& Fail(const char* failed_syscall, int error_number, std::string failed_path) {
    error = error_number;
    syscall = failed_syscall;
    path = std::move(failed_path);
    return *this;
  }

  // Makes room in `data` for at least one more byte: the first block has
  // `first` bytes, each later one twice the last, never more than
  // limit + 1 bytes in all (the extra byte tells a file of exactly `limit`
  // bytes from a larger one).
  enum class Room { kOk, kTooLarge, kNoMemory };
  Room MakeRoom(std::size_t first, std::size_t limit);
  // The read found more than readFile can return (`seen` bytes): nothing
  // is returned but that.
  FsResult& TooLarge(std::size_t seen);
  // The `size` bytes read, as a backing store that owns them (data is null
  // afterwards). Any thread.
  std::unique_ptr<v8::BackingStore> TakeBytes();

 private:
  void FreeData();
};

// What readFile's first buffer holds when the size is not known (a FIFO,
// procfs): node's chunk for files of unknown size.
inline constexpr std::size_t kFirstReadSize = 64 * 1024;

}  // namespace hostloop::runtime
