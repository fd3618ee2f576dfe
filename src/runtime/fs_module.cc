// hostloop:fs: promise-returning file operations on the native thread pool
// (native_module.h); files that are not regular ones (FIFOs, pipes,
// terminals, devices) are read and written on the runtime's own loop once
// the pool has opened them (fs_watches.h). Errors are Error objects with
// `code` ("ENOENT"), `errno`, `syscall` and `path`, like node's. A write that fails part-way
// is reported as a failure, never as success.
#include "runtime/fs_module.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/fs_result.h"
#include "runtime/fs_watches.h"
#include "runtime/native_module.h"
#include "runtime/runtime.h"
#include "runtime/v8_util.h"
#include "runtime/view_contents.h"

namespace hostloop::runtime {
namespace {

// ---- Blocking operations (pool thread) ------------------------------------------

// Whether a file is read and written on the loop (FsWatches), not on the
// pool: anything but a regular file, a block device (whose reads and
// writes never wait for another party) or a directory (which fails).
bool IsStream(const struct stat& info) {
  return !S_ISREG(info.st_mode) && !S_ISBLK(info.st_mode) && !S_ISDIR(info.st_mode);
}

// The file is left to the runtime's loop (FsWatches), with its fd.
FsResult OnLoop(base::UniqueFd fd, std::string path) {
  FsResult result;
  result.on_loop = true;
  result.stream = std::move(fd);
  result.path = std::move(path);
  return result;
}

// A regular file's fd opened with O_NONBLOCK (which only files that are not
// regular ones look at, on Linux) said EAGAIN anyway (a FUSE file system
// may): it blocks from now on. False if it did already.
bool MakeBlocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && (flags & O_NONBLOCK) != 0 && ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0;
}

// The most one read() asks for: between two, a read looks at its cancel
// flag (a 1 GiB file read in one call took 5 s here before an abort could
// stop it; 8 MiB take a few ms).
constexpr std::size_t kReadChunk = 8 * 1024 * 1024;

// Reads the whole file, at most `limit` bytes: a larger one (or one that
// grows past it) fails with too_large set. The open never waits (a FIFO
// opened for reading with O_NONBLOCK opens at once), and a file that is
// not a regular one comes back open, to be read on the loop (on_loop).
// Once `cancelled` is set (its signal aborted, or its runtime ended: nobody
// waits for the result any more) it stops before its next read.
FsResult ReadFileJob(std::string path, std::size_t limit, const std::atomic<bool>& cancelled) {
  FsResult result;
  if (cancelled.load(std::memory_order_relaxed))
    return std::move(result.Fail("read", ECANCELED, std::move(path)));
  base::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) return std::move(result.Fail("open", errno, std::move(path)));
  struct stat info;
  std::size_t first = kFirstReadSize;
  // The size fstat gives for a regular file whose size it knows; procfs
  // and sysfs files say 0 or 4096 and are read to a read() of 0.
  std::size_t known_size = 0;
  if (::fstat(fd.Get(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return std::move(result.Fail("read", EISDIR, std::move(path)));
    if (IsStream(info)) return OnLoop(std::move(fd), std::move(path));
    if (info.st_size > 0) {
      if (static_cast<std::size_t>(info.st_size) > limit) {
        result.path = std::move(path);
        return std::move(result.TooLarge(info.st_size));
      }
      first = static_cast<std::size_t>(info.st_size) + 1;
      if (S_ISREG(info.st_mode)) known_size = static_cast<std::size_t>(info.st_size);
    }
  }
  while (true) {
    if (cancelled.load(std::memory_order_relaxed)) {
      return std::move(result.Fail("read", ECANCELED, std::move(path)));  // (dropped: nobody waits)
    }
    switch (result.MakeRoom(first, limit)) {
      case FsResult::Room::kOk:
        break;
      case FsResult::Room::kTooLarge:
        result.path = std::move(path);
        return std::move(result.TooLarge(result.size));
      case FsResult::Room::kNoMemory:
        return std::move(result.Fail("read", ENOMEM, std::move(path)));  // (result frees data)
    }
    std::size_t wanted = std::min(result.capacity - result.size, kReadChunk);
    ssize_t n = ::read(fd.Get(), result.data + result.size, wanted);
    if (n < 0) {
      if (errno == EINTR || (errno == EAGAIN && MakeBlocking(fd.Get()))) continue;
      return std::move(result.Fail("read", errno, std::move(path)));
    }
    if (n == 0) break;
    result.size += static_cast<std::size_t>(n);
    // A regular file that gave exactly its size and less than asked for is
    // at its end: no read of 0 bytes to confirm it (one syscall in five for
    // a small file). One that grew since fstat fills the buffer and the loop
    // goes on; a pseudo-file whose size is not its content length (sysfs
    // says 4096) reads on to a 0.
    if (known_size > 0 && result.size == known_size && static_cast<std::size_t>(n) < wanted) break;
  }
  // (The buffer holds at most `limit` bytes here: a read that filled its
  // limit + 1 bytes ended at the size check above.) The path goes back with
  // the bytes (a text read that V8 cannot make a string names it), moved:
  // the string is freed on the thread that made it, with no copy here.
  result.path = std::move(path);
  return result;
}

// Writes the payload (given back in the result when the write is left to
// the loop). Opened without blocking: a FIFO with no reader yet fails with
// ENXIO, and the loop opens it again until one comes.
FsResult WriteFileJob(std::string path, Payload payload, bool append, bool exclusive, mode_t mode) {
  FsResult result;
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | (append ? O_APPEND : O_TRUNC) |
                    (exclusive ? O_EXCL : 0);
  base::UniqueFd fd(::open(path.c_str(), flags, mode));
  struct stat info;
  if (!fd) {
    const int error = errno;
    if (error != ENXIO || ::stat(path.c_str(), &info) < 0 || !S_ISFIFO(info.st_mode)) {
      return std::move(result.Fail("open", error, path));
    }
  } else if (::fstat(fd.Get(), &info) < 0 || !IsStream(info)) {
    const char* data = payload.data();
    std::size_t left = payload.size();
    while (left > 0) {
      ssize_t n = ::write(fd.Get(), data, left);
      if (n < 0) {
        if (errno == EINTR || (errno == EAGAIN && MakeBlocking(fd.Get()))) continue;
        return std::move(result.Fail("write", errno, path));
      }
      data += n;
      left -= static_cast<std::size_t>(n);
    }
    // close() can report a deferred write error (NFS, quota): not success.
    if (::close(fd.Release()) < 0 && errno != EINTR) {
      return std::move(result.Fail("close", errno, path));
    }
    return result;
  }
  FsResult handover = OnLoop(std::move(fd), std::move(path));
  handover.open_flags = flags;
  handover.mode = mode;
  handover.payload = std::move(payload);
  return handover;
}

FsResult ReaddirJob(const std::string& path, bool with_types) {
  FsResult result;
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return std::move(result.Fail("scandir", errno, path));
  std::vector<std::pair<std::string, unsigned char>> entries;
  errno = 0;
  while (dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    unsigned char type = entry->d_type;
    if (with_types && type == DT_UNKNOWN) {
      // (Some file systems do not say: ask.)
      struct stat info;
      if (::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
        type = S_ISREG(info.st_mode)   ? DT_REG
               : S_ISDIR(info.st_mode) ? DT_DIR
               : S_ISLNK(info.st_mode) ? DT_LNK
                                       : DT_UNKNOWN;
      }
    }
    entries.emplace_back(entry->d_name, type);
    errno = 0;
  }
  int error = errno;
  ::closedir(dir);
  if (error != 0) return std::move(result.Fail("scandir", error, path));
  // In byte order, as node's readdir (libuv sorts with strcmp): the order
  // readdir(3) gives depends on the file system and its history.
  std::sort(entries.begin(), entries.end());
  result.names.reserve(entries.size());
  for (auto& [name, type] : entries) {
    result.names.push_back(std::move(name));
    if (with_types) result.types.push_back(type);
  }
  return result;
}

FsResult StatJob(const std::string& path) {
  FsResult result;
  if (::stat(path.c_str(), &result.info) < 0) return std::move(result.Fail("stat", errno, path));
  return result;
}

// Whether `path` names a directory (following links).
bool IsDirectory(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// mkdir -p: creates `path` and its missing parents (recording the first
// directory created); 0 or an errno. Tries the path itself first, so an
// existing or nearly existing tree costs a syscall or two, not two per
// component from the root.
int MakeDirectories(const std::string& path, mode_t mode, std::string* created) {
  if (::mkdir(path.c_str(), mode) == 0) {
    *created = path;
    return 0;
  }
  int error = errno;
  if (error == EEXIST) return IsDirectory(path) ? 0 : EEXIST;
  if (error != ENOENT) return error;
  // A parent is missing: make it, then this.
  std::size_t end = path.find_last_not_of('/');
  std::size_t slash = end == std::string::npos ? std::string::npos : path.rfind('/', end);
  if (slash == std::string::npos) return ENOENT;
  std::size_t parent_end = path.find_last_not_of('/', slash);
  if (parent_end == std::string::npos) return ENOENT;  // "/x" with no "/": cannot be
  error = MakeDirectories(path.substr(0, parent_end + 1), mode, created);
  if (error != 0) return error;
  if (::mkdir(path.c_str(), mode) == 0) {
    if (created->empty()) *created = path;
    return 0;
  }
  error = errno;
  if (error == EEXIST && IsDirectory(path)) return 0;  // made meanwhile
  return error;
}

FsResult MkdirJob(const std::string& path, bool recursive, mode_t mode) {
  FsResult result;
  if (!recursive) {
    if (::mkdir(path.c_str(), mode) < 0) return std::move(result.Fail("mkdir", errno, path));
    return result;
  }
  // As node: an empty path is ENOENT, a file in the way is ENOTDIR, and a
  // file at the path itself is EEXIST.
  if (path.empty()) return std::move(result.Fail("mkdir", ENOENT, path));
  std::string created;
  int error = MakeDirectories(path, mode, &created);
  if (error != 0) {
    // A file in the way of "file/x" is the kernel's ENOTDIR; "file/" is
    // ENOTDIR too (the kernel says EEXIST).
    if (error == EEXIST && path.back() == '/') error = ENOTDIR;
    return std::move(result.Fail("mkdir", error, path));
  }
  result.created = std::move(created);
  return result;
}

// Removes `path` and, when recursive, everything under it. On failure,
// `syscall` and `failed` name the operation and the entry that failed.
int RemoveTree(const std::string& path, bool recursive, const char** syscall, std::string* failed) {
  *failed = path;
  struct stat info;
  if (::lstat(path.c_str(), &info) < 0) {
    *syscall = "lstat";
    return errno;
  }
  if (!S_ISDIR(info.st_mode)) {
    *syscall = "unlink";
    return ::unlink(path.c_str()) < 0 ? errno : 0;
  }
  if (!recursive) {
    *syscall = "rm";
    return EISDIR;
  }
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    *syscall = "opendir";
    return errno;
  }
  std::vector<std::string> children;
  while (true) {
    errno = 0;
    dirent* entry = ::readdir(dir);
    if (entry == nullptr) {
      if (errno != 0) {
        int error = errno;
        ::closedir(dir);
        *syscall = "readdir";
        return error;
      }
      break;
    }
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    children.push_back(path + "/" + entry->d_name);
  }
  ::closedir(dir);
  for (const std::string& child : children) {
    // (An entry that vanished meanwhile is as good as removed.)
    if (int error = RemoveTree(child, true, syscall, failed); error != 0 && error != ENOENT)
      return error;
  }
  *failed = path;
  *syscall = "rmdir";
  return ::rmdir(path.c_str()) < 0 ? errno : 0;
}

FsResult RmJob(const std::string& path, bool recursive, bool force) {
  FsResult result;
  // The entry to remove is the path's last component, itself. A trailing
  // slash or a last component "." or ".." would make lstat() resolve it
  // (follow a symlink to a directory elsewhere, whose contents would go
  // before rmdir() failed): refused, as rm(1) refuses "." and "..".
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  const std::string last = trimmed.substr(trimmed.rfind('/') + 1);
  if (last == "." || last == "..") return std::move(result.Fail("rm", EINVAL, path));
  if (trimmed.size() != path.size()) {
    struct stat info;
    if (::lstat(trimmed.c_str(), &info) == 0 && !S_ISDIR(info.st_mode)) {
      // "link/" or "file/": not a directory, whatever a symlink points at.
      return std::move(result.Fail("rm", ENOTDIR, path));
    }
  }
  const char* syscall = "rm";
  std::string failed;
  int error = RemoveTree(trimmed, recursive, &syscall, &failed);
  if (error == ENOENT && force) return result;
  if (error != 0) return std::move(result.Fail(syscall, error, failed == trimmed ? path : failed));
  return result;
}

FsResult RenameJob(const std::string& from, const std::string& to) {
  FsResult result;
  if (::rename(from.c_str(), to.c_str()) < 0) {
    result.Fail("rename", errno, from);
    result.dest = to;
  }
  return result;
}

// ---- Home thread -------------------------------------------------------------------

// "ENOENT: no such file or directory, open '/x'", with code/errno/syscall/path.
// A path as the message of an error quotes it: cut after 4 KB (at a UTF-8
// character boundary), so the message stays a string V8 can make (a path
// near V8's longest string made the message too long, a fatal error).
std::string QuotedPath(const std::string& path) {
  constexpr std::size_t kMaxQuoted = 4096;
  if (path.size() <= kMaxQuoted) return "'" + path + "'";
  std::size_t end = kMaxQuoted;
  while (end > 0 && (static_cast<unsigned char>(path[end]) & 0xC0) == 0x80) --end;
  return "'" + path.substr(0, end) + "...' (" + std::to_string(path.size()) + " bytes)";
}

// The string, or undefined when V8 cannot make one that long.
v8::Local<v8::Value> StringOrUndefined(v8::Isolate* isolate, const std::string& text) {
  v8::Local<v8::String> string;
  if (text.size() > static_cast<std::size_t>(v8::String::kMaxLength) ||
      !v8::String::NewFromUtf8(isolate, text.data(), v8::NewStringType::kNormal,
                               static_cast<int>(text.size()))
           .ToLocal(&string)) {
    return v8::Undefined(isolate);
  }
  return string;
}

v8::Local<v8::Value> MakeFsError(v8::Isolate* isolate, const FsResult& result) {
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  const char* name = ::strerrorname_np(result.error);
  std::string code = name != nullptr ? name : "EUNKNOWN";
  std::string reason = std::strerror(result.error);
  if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(reason[0]));
  std::string message =
      code + ": " + reason + ", " + result.syscall + " " + QuotedPath(result.path);
  if (!result.dest.empty()) message += " -> " + QuotedPath(result.dest);
  v8::Local<v8::Object> error = v8::Exception::Error(V8String(isolate, message)).As<v8::Object>();
  error->CreateDataProperty(context, V8Symbol(isolate, "code"), V8String(isolate, code))
      .FromMaybe(false);
  error
      ->CreateDataProperty(context, V8Symbol(isolate, "errno"),
                           v8::Integer::New(isolate, -result.error))
      .FromMaybe(false);
  error
      ->CreateDataProperty(context, V8Symbol(isolate, "syscall"), V8String(isolate, result.syscall))
      .FromMaybe(false);
  error
      ->CreateDataProperty(context, V8Symbol(isolate, "path"),
                           StringOrUndefined(isolate, result.path))
      .FromMaybe(false);
  if (!result.dest.empty()) {
    error
        ->CreateDataProperty(context, V8Symbol(isolate, "dest"),
                             StringOrUndefined(isolate, result.dest))
        .FromMaybe(false);
  }
  return error;
}

Runtime* RuntimeOf(const v8::FunctionCallbackInfo<v8::Value>& info) {
  return Runtime::From(info.GetIsolate());
}

// Returns a rejected promise for bad arguments (a promise-returning API).
void Reject(const v8::FunctionCallbackInfo<v8::Value>& info, v8::Local<v8::Value> error) {
  v8::Local<v8::Promise::Resolver> resolver;
  if (!v8::Promise::Resolver::New(info.GetIsolate()->GetCurrentContext()).ToLocal(&resolver))
    return;
  resolver->Reject(info.GetIsolate()->GetCurrentContext(), error).FromMaybe(false);
  info.GetReturnValue().Set(resolver->GetPromise());
}

// `name` is the argument's name in messages (node's: "path", "oldPath"...).
bool PathArgument(const v8::FunctionCallbackInfo<v8::Value>& info, int index, std::string* path,
                  const char* name = "path") {
  v8::Isolate* isolate = info.GetIsolate();
  // (Made on the error paths only: a call that succeeds allocates nothing
  // but the path.)
  auto reject = [&](const char* what) {
    Reject(info, v8::Exception::TypeError(
                     V8String(isolate, std::string("The \"") + name + "\" argument must " + what)));
    return false;
  };
  if (info.Length() <= index || !info[index]->IsString()) return reject("be of type string");
  *path = StdString(isolate, info[index]);
  if (path->find('\0') != std::string::npos) return reject("not contain null bytes");
  return true;
}

// Reads `options.name` (or `options` itself when it is a string, for
// "encoding"). A getter that throws rejects the call's promise (and nothing
// is done): returns false then.
bool Option(const v8::FunctionCallbackInfo<v8::Value>& info, int index, const char* name,
            v8::Local<v8::Value>* out) {
  v8::Isolate* isolate = info.GetIsolate();
  *out = v8::Undefined(isolate);
  if (info.Length() <= index) return true;
  v8::Local<v8::Value> options = info[index];
  if (options->IsString() && std::strcmp(name, "encoding") == 0) {
    *out = options;
    return true;
  }
  if (!options->IsObject()) return true;
  v8::TryCatch try_catch(isolate);
  if (!options.As<v8::Object>()
           ->Get(isolate->GetCurrentContext(), V8Symbol(isolate, name))
           .ToLocal(out)) {
    if (try_catch.HasTerminated()) return false;
    v8::Local<v8::Value> exception = try_catch.Exception();
    try_catch.Reset();
    Reject(info, exception);
    return false;
  }
  return true;
}

// The options argument at `index` is absent, null, a string (an encoding)
// or an object; anything else rejects the call's promise (false).
bool CheckOptionsArgument(const v8::FunctionCallbackInfo<v8::Value>& info, int index) {
  if (info.Length() <= index || info[index]->IsUndefined() || info[index]->IsNull() ||
      info[index]->IsString() || info[index]->IsObject()) {
    return true;
  }
  Reject(info, v8::Exception::TypeError(V8String(
                   info.GetIsolate(), "The \"options\" argument must be a string or an object")));
  return false;
}

// An option's value as a string; a conversion that throws rejects the
// call's promise, like any bad argument (false).
bool OptionText(const v8::FunctionCallbackInfo<v8::Value>& info, v8::Local<v8::Value> value,
                std::string* text) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::TryCatch try_catch(isolate);
  v8::Local<v8::String> string;
  if (!value->ToString(isolate->GetCurrentContext()).ToLocal(&string)) {
    if (!try_catch.HasTerminated()) Reject(info, try_catch.Exception());
    return false;
  }
  *text = StdString(isolate, string);
  return true;
}

// The `mode` option (permission bits of a file or directory created): a
// number, or an octal string as node takes it; `fallback` when absent.
// Anything else rejects the call's promise with a TypeError (false).
bool ModeOption(const v8::FunctionCallbackInfo<v8::Value>& info, v8::Local<v8::Value> value,
                mode_t fallback, mode_t* mode) {
  *mode = fallback;
  if (value->IsUndefined()) return true;
  v8::Isolate* isolate = info.GetIsolate();
  if (value->IsNumber()) {
    const double number = value.As<v8::Number>()->Value();
    if (number >= 0 && number <= 4294967295.0 &&
        number == static_cast<double>(static_cast<uint32_t>(number))) {
      *mode = static_cast<mode_t>(static_cast<uint32_t>(number) & 07777);
      return true;
    }
  } else if (value->IsString()) {
    const std::string text = StdString(isolate, value);
    if (!text.empty() && text.size() <= 11 &&
        text.find_first_not_of("01234567") == std::string::npos) {
      *mode = static_cast<mode_t>(std::strtoul(text.c_str(), nullptr, 8) & 07777);
      return true;
    }
  }
  Reject(info,
         v8::Exception::TypeError(V8String(
             isolate, "The \"mode\" option must be a 32-bit unsigned integer or an octal string")));
  return false;
}

// The `signal` option of the options argument at `index`: an AbortSignal
// that is already aborted rejects the call's promise with its reason, and
// nothing is done (false); so does a value that is not an AbortSignal (a
// TypeError). `*signal` is the signal (undefined when none).
bool SignalOption(const v8::FunctionCallbackInfo<v8::Value>& info, int index,
                  v8::Local<v8::Value>* signal) {
  if (!Option(info, index, "signal", signal)) return false;
  if ((*signal)->IsUndefined()) return true;
  v8::Local<v8::Value> reason;
  if (AbortReason(RuntimeOf(info), *signal, &reason) && reason->IsUndefined()) return true;
  Reject(info, reason);
  return false;
}

// An option hostloop:fs does not support, set (truthy): rejects the call's
// promise with a TypeError that says what the call does instead (true), so
// it is never silently ignored.
bool RefuseOption(const v8::FunctionCallbackInfo<v8::Value>& info, v8::Local<v8::Value> value,
                  const char* name, const char* instead) {
  if (!value->BooleanValue(info.GetIsolate())) return false;
  Reject(info, v8::Exception::TypeError(V8String(
                   info.GetIsolate(), std::string("Unsupported option '") + name +
                                          "' (hostloop:fs " + instead + ")")));
  return true;
}

// The `encoding` option: none (`*text` false) or utf8 in any spelling
// (`*text` true); any other name rejects with a TypeError that says what
// the call supports.
bool Utf8Encoding(const v8::FunctionCallbackInfo<v8::Value>& info, v8::Local<v8::Value> encoding,
                  const char* supported, bool* text) {
  *text = false;
  if (encoding->IsUndefined() || encoding->IsNull()) return true;
  std::string name;
  if (!OptionText(info, encoding, &name)) return false;
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name != "utf8" && name != "utf-8") {
    Reject(info, v8::Exception::TypeError(V8String(
                     info.GetIsolate(),
                     "Unsupported encoding '" + name + "' (hostloop:fs " + supported + ")")));
    return false;
  }
  *text = true;
  return true;
}

// Rejects with the job's error; returns whether it did.
bool RejectIfFailed(Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver,
                    const FsResult& result) {
  if (result.error == 0) return false;
  resolver->Reject(runtime->context(), MakeFsError(runtime->isolate(), result)).FromMaybe(false);
  return true;
}

void SettleVoid(Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver, FsResult& result) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  if (result.error != 0) {
    resolver->Reject(context, MakeFsError(isolate, result)).FromMaybe(false);
  } else {
    resolver->Resolve(context, v8::Undefined(isolate)).FromMaybe(false);
  }
}

// The operation's signal was aborted: rejects with its reason (true).
bool RejectIfAborted(Runtime* runtime, const PendingPromise& pending) {
  if (pending.signal.IsEmpty()) return false;
  v8::Local<v8::Value> reason;
  if (!AbortReason(runtime, pending.signal, &reason) || reason->IsUndefined()) return false;
  pending.resolver->Reject(runtime->context(), reason).FromMaybe(false);
  return true;
}

// Settles a readFile with what was read (on the pool or on the loop).
void SettleRead(Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver, FsResult& result,
                bool text, std::size_t limit) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  if (RejectIfFailed(runtime, resolver, result)) return;
  auto reject_too_large = [&](std::size_t size) {
    // node's ERR_FS_FILE_TOO_LARGE, a RangeError.
    v8::Local<v8::Object> error =
        v8::Exception::RangeError(
            V8String(isolate, "File size (" + std::to_string(size) +
                                  ") is greater than what readFile can return as " +
                                  (text ? "a string" : "bytes") + " (" + std::to_string(limit) +
                                  ")"))
            .As<v8::Object>();
    error
        ->CreateDataProperty(context, V8Symbol(isolate, "code"),
                             V8String(isolate, "ERR_FS_FILE_TOO_LARGE"))
        .FromMaybe(false);
    error
        ->CreateDataProperty(context, V8Symbol(isolate, "path"),
                             StringOrUndefined(isolate, result.path))
        .FromMaybe(false);
    resolver->Reject(context, error).FromMaybe(false);
  };
  if (result.too_large > 0) {
    reject_too_large(result.too_large);
    return;
  }
  v8::Local<v8::Value> value;
  if (text) {
    v8::Local<v8::String> string;
    if (!v8::String::NewFromUtf8(isolate, reinterpret_cast<const char*>(result.data),
                                 v8::NewStringType::kNormal, static_cast<int>(result.size))
             .ToLocal(&string)) {
      reject_too_large(result.size);
      return;
    }
    value = string;
  } else {
    // The bytes read become the ArrayBuffer: no copy.
    std::size_t size = result.size;
    v8::Local<v8::ArrayBuffer> buffer = v8::ArrayBuffer::New(isolate, result.TakeBytes());
    value = v8::Uint8Array::New(buffer, 0, size);
  }
  resolver->Resolve(context, value).FromMaybe(false);
}

// readFile(path[, 'utf8' | { encoding, signal }]) -> Uint8Array | string
void ReadFile(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
  v8::Local<v8::Value> encoding;
  v8::Local<v8::Value> signal;
  bool text = false;
  if (!CheckOptionsArgument(info, 1) || !Option(info, 1, "encoding", &encoding) ||
      !Utf8Encoding(info, encoding, "reads bytes or utf8", &text) ||
      !SignalOption(info, 1, &signal)) {
    return;
  }
  // The most a readFile can return: bytes, a Uint8Array's longest length;
  // text, what NewFromUtf8 takes: at most V8's longest string in bytes.
  const std::size_t limit =
      text ? static_cast<std::size_t>(v8::String::kMaxLength) : v8::TypedArray::kMaxLength;
  // The signal waits beside the promise, on this thread (the job runs on the
  // pool and may end after this runtime did). Its abort rejects at once and
  // stops the pool's read between two chunks (RunAsyncAbortable).
  info.GetReturnValue().Set(RunAsyncAbortable<FsResult>(
      RuntimeOf(info), signal,
      [path = std::move(path), limit](const std::atomic<bool>& cancelled) mutable {
        return ReadFileJob(std::move(path), limit, cancelled);
      },
      [text, limit](Runtime* runtime, const PendingPromise& pending, FsResult& result) {
        // (An abort rejected already; this is for a signal whose abort
        // algorithm could not be added.)
        if (RejectIfAborted(runtime, pending)) return;
        if (result.on_loop) {
          // Not a regular file: read on this loop as it becomes readable,
          // and the signal cancels it at once.
          FsWatches::Of(runtime).Read(
              pending, std::move(result), limit,
              [text, limit](Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver,
                            FsResult& result) {
                SettleRead(runtime, resolver, result, text, limit);
              });
          return;
        }
        SettleRead(runtime, pending.resolver, result, text, limit);
      }));
}

bool PayloadArgument(const v8::FunctionCallbackInfo<v8::Value>& info, int index, Payload* payload) {
  v8::Isolate* isolate = info.GetIsolate();
  if (info.Length() > index && info[index]->IsString()) {
    payload->text = StdString(isolate, info[index]);
    return true;
  }
  // (A SharedArrayBuffer itself is not accepted; a view on one is.)
  ViewContents contents;
  bool is_buffer_source = false;
  if (info.Length() > index && !info[index]->IsSharedArrayBuffer() &&
      !GetViewContents(Runtime::From(isolate), info[index], &contents).To(&is_buffer_source)) {
    return false;
  }
  if (is_buffer_source) {
    payload->store = std::move(contents.store);
    payload->offset = contents.offset;
    payload->length = contents.length;
    return true;
  }
  Reject(info,
         v8::Exception::TypeError(V8String(
             isolate, "The \"data\" argument must be a string, an ArrayBuffer or a view of one")));
  return false;
}

// writeFile/appendFile(path, data[, 'utf8' | { encoding, flag }]): strings
// are written as UTF-8; the flags are 'w' (replace), 'a' (append) and
// 'wx'/'ax' (the file must not exist yet). Anything else is refused, never
// silently written some other way.
void WriteOrAppend(const v8::FunctionCallbackInfo<v8::Value>& info, bool append) {
  std::string path;
  Payload payload;
  if (!PathArgument(info, 0, &path) || !PayloadArgument(info, 1, &payload)) return;
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Value> encoding;
  v8::Local<v8::Value> flag;
  v8::Local<v8::Value> mode_option;
  v8::Local<v8::Value> signal;
  bool text;
  mode_t mode;
  // (A signal is looked at before the write starts; a write to a regular
  // file, once started, is finished, never left half-done.)
  if (!CheckOptionsArgument(info, 2) || !Option(info, 2, "encoding", &encoding) ||
      !Option(info, 2, "flag", &flag) || !Option(info, 2, "mode", &mode_option) ||
      !Utf8Encoding(info, encoding, "writes bytes, and strings as utf8", &text) ||
      !ModeOption(info, mode_option, 0666, &mode) || !SignalOption(info, 2, &signal)) {
    return;
  }
  bool exclusive = false;
  if (!flag->IsUndefined()) {
    std::string name;
    if (!OptionText(info, flag, &name)) return;
    if (name == "w" || name == "a" || name == "wx" || name == "ax") {
      append = name[0] == 'a';
      exclusive = name.size() == 2;
    } else {
      Reject(info, v8::Exception::TypeError(V8String(
                       isolate, "Unsupported flag '" + name +
                                    "' (hostloop:fs writes with 'w', 'a', 'wx' or 'ax')")));
      return;
    }
  }
  // A regular file is written on the pool, and once its write started it
  // finishes. Any other is written on this loop (the signal waits beside the
  // promise until then), and the signal cancels it.
  info.GetReturnValue().Set(RunAsyncWithSignal<FsResult>(
      RuntimeOf(info), signal,
      [path = std::move(path), payload = std::move(payload), append, exclusive, mode]() mutable {
        return WriteFileJob(std::move(path), std::move(payload), append, exclusive, mode);
      },
      [](Runtime* runtime, const PendingPromise& pending, FsResult& result) {
        if (!result.on_loop) {
          SettleVoid(runtime, pending.resolver, result);
        } else if (!RejectIfAborted(runtime, pending)) {
          FsWatches::Of(runtime).Write(pending, std::move(result), SettleVoid);
        }
      }));
}

void WriteFile(const v8::FunctionCallbackInfo<v8::Value>& info) { WriteOrAppend(info, false); }
void AppendFile(const v8::FunctionCallbackInfo<v8::Value>& info) { WriteOrAppend(info, true); }

// readdir(path[, 'utf8' | { encoding, withFileTypes }]) -> names, in byte
// order; with withFileTypes, entries { name, parentPath, isFile,
// isDirectory, isSymbolicLink } (booleans, as stat's).
void Readdir(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Value> encoding;
  v8::Local<v8::Value> types_option;
  v8::Local<v8::Value> recursive_option;
  bool text;
  if (!CheckOptionsArgument(info, 1) || !Option(info, 1, "encoding", &encoding) ||
      !Option(info, 1, "withFileTypes", &types_option) ||
      !Option(info, 1, "recursive", &recursive_option) ||
      !Utf8Encoding(info, encoding, "lists names as utf8 strings", &text)) {
    return;
  }
  if (RefuseOption(info, recursive_option, "recursive", "readdir lists one directory")) return;
  const bool with_types = types_option->BooleanValue(isolate);
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info), [path, with_types] { return ReaddirJob(path, with_types); },
      [path, with_types](Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver,
                         FsResult& result) {
        if (RejectIfFailed(runtime, resolver, result)) return;
        v8::Isolate* isolate = runtime->isolate();
        v8::Local<v8::Context> context = runtime->context();
        v8::Local<v8::Array> list = v8::Array::New(isolate, static_cast<int>(result.names.size()));
        v8::Local<v8::String> parent = V8String(isolate, path);
        for (std::size_t i = 0; i < result.names.size(); ++i) {
          v8::Local<v8::Value> item = V8String(isolate, result.names[i]);
          if (with_types) {
            v8::Local<v8::Object> entry = v8::Object::New(isolate);
            auto set = [&](const char* key, v8::Local<v8::Value> value) {
              entry->CreateDataProperty(context, V8Symbol(isolate, key), value).FromMaybe(false);
            };
            const unsigned char type = result.types[i];
            set("name", item);
            set("parentPath", parent);
            set("isFile", v8::Boolean::New(isolate, type == DT_REG));
            set("isDirectory", v8::Boolean::New(isolate, type == DT_DIR));
            set("isSymbolicLink", v8::Boolean::New(isolate, type == DT_LNK));
            item = entry;
          }
          list->Set(context, static_cast<uint32_t>(i), item).FromMaybe(false);
        }
        resolver->Resolve(context, list).FromMaybe(false);
      }));
}

void Stat(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
  v8::Local<v8::Value> bigint_option;
  if (!CheckOptionsArgument(info, 1) || !Option(info, 1, "bigint", &bigint_option)) return;
  if (RefuseOption(info, bigint_option, "bigint", "stat gives numbers")) return;
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info), [path = std::move(path)] { return StatJob(path); },
      [](Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver, FsResult& result) {
        if (RejectIfFailed(runtime, resolver, result)) return;
        v8::Isolate* isolate = runtime->isolate();
        v8::Local<v8::Context> context = runtime->context();
        // The plain facts; js/fs helpers are not needed for them.
        const struct stat& st = result.info;
        auto ms = [](const timespec& t) { return t.tv_sec * 1e3 + t.tv_nsec / 1e6; };
        v8::Local<v8::Object> stats = v8::Object::New(isolate);
        auto set = [&](const char* key, v8::Local<v8::Value> value) {
          stats->CreateDataProperty(context, V8Symbol(isolate, key), value).FromMaybe(false);
        };
        set("size", v8::Number::New(isolate, static_cast<double>(st.st_size)));
        set("mode", v8::Integer::NewFromUnsigned(isolate, st.st_mode));
        set("uid", v8::Integer::NewFromUnsigned(isolate, st.st_uid));
        set("gid", v8::Integer::NewFromUnsigned(isolate, st.st_gid));
        set("nlink", v8::Number::New(isolate, static_cast<double>(st.st_nlink)));
        set("ino", v8::Number::New(isolate, static_cast<double>(st.st_ino)));
        set("dev", v8::Number::New(isolate, static_cast<double>(st.st_dev)));
        set("mtimeMs", v8::Number::New(isolate, ms(st.st_mtim)));
        set("atimeMs", v8::Number::New(isolate, ms(st.st_atim)));
        set("ctimeMs", v8::Number::New(isolate, ms(st.st_ctim)));
        set("isFile", v8::Boolean::New(isolate, S_ISREG(st.st_mode)));
        set("isDirectory", v8::Boolean::New(isolate, S_ISDIR(st.st_mode)));
        set("isSymbolicLink", v8::Boolean::New(isolate, S_ISLNK(st.st_mode)));
        resolver->Resolve(context, stats).FromMaybe(false);
      }));
}

void Mkdir(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
  // mkdir(path[, mode | { recursive, mode }]), as node takes it.
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Value> recursive_option = v8::Undefined(isolate);
  v8::Local<v8::Value> mode_option = v8::Undefined(isolate);
  if (info.Length() > 1 && (info[1]->IsNumber() || info[1]->IsString())) {
    mode_option = info[1];
  } else if (info.Length() > 1 && !info[1]->IsUndefined() && !info[1]->IsNull() &&
             !info[1]->IsObject()) {
    Reject(info, v8::Exception::TypeError(
                     V8String(isolate, "The \"options\" argument must be a mode or an object")));
    return;
  } else if (!Option(info, 1, "recursive", &recursive_option) ||
             !Option(info, 1, "mode", &mode_option)) {
    return;
  }
  mode_t mode;
  if (!ModeOption(info, mode_option, 0777, &mode)) return;
  // (A dictionary's boolean: ToBoolean, as deno and WebIDL read it.)
  bool recursive = recursive_option->BooleanValue(isolate);
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info),
      [path = std::move(path), recursive, mode] { return MkdirJob(path, recursive, mode); },
      [recursive](Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver, FsResult& result) {
        v8::Isolate* isolate = runtime->isolate();
        v8::Local<v8::Context> context = runtime->context();
        if (result.error != 0) {
          resolver->Reject(context, MakeFsError(isolate, result)).FromMaybe(false);
        } else if (recursive && !result.created.empty()) {
          resolver->Resolve(context, V8String(isolate, result.created)).FromMaybe(false);
        } else {
          resolver->Resolve(context, v8::Undefined(isolate)).FromMaybe(false);
        }
      }));
}

void Rm(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
  v8::Local<v8::Value> recursive_option;
  v8::Local<v8::Value> force_option;
  if (info.Length() > 1 && !info[1]->IsUndefined() && !info[1]->IsNull() && !info[1]->IsObject()) {
    Reject(info, v8::Exception::TypeError(
                     V8String(info.GetIsolate(), "The \"options\" argument must be an object")));
    return;
  }
  if (!Option(info, 1, "recursive", &recursive_option) ||
      !Option(info, 1, "force", &force_option)) {
    return;
  }
  bool recursive = recursive_option->BooleanValue(info.GetIsolate());
  bool force = force_option->BooleanValue(info.GetIsolate());
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info),
      [path = std::move(path), recursive, force] { return RmJob(path, recursive, force); },
      SettleVoid));
}

void Rename(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string from;
  std::string to;
  if (!PathArgument(info, 0, &from, "oldPath") || !PathArgument(info, 1, &to, "newPath")) return;
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info), [from, to] { return RenameJob(from, to); }, SettleVoid));
}

}  // namespace

v8::MaybeLocal<v8::Object> CreateFsModule(Runtime* runtime, v8::Local<v8::Context> context) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Object> exports = v8::Object::New(isolate);
  SetMethod(context, exports, "readFile", ReadFile);
  SetMethod(context, exports, "writeFile", WriteFile);
  SetMethod(context, exports, "appendFile", AppendFile);
  SetMethod(context, exports, "readdir", Readdir);
  SetMethod(context, exports, "stat", Stat);
  SetMethod(context, exports, "mkdir", Mkdir);
  SetMethod(context, exports, "rm", Rm);
  SetMethod(context, exports, "rename", Rename);
  return exports;
}

}  // namespace hostloop::runtime
