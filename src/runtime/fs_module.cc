// hostloop:fs: promise-returning file operations on the native thread pool
// (native_module.h). Errors are Error objects with `code` ("ENOENT"),
// `errno`, `syscall` and `path`, like node's. A write that fails part-way
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
#include <string>
#include <vector>

#include "runtime/native_module.h"
#include "runtime/runtime.h"
#include "runtime/v8_util.h"

namespace hostloop::runtime {
namespace {

// What a pool job hands back to the home thread (no V8 handles).
struct FsResult {
  int error = 0;  // errno
  const char* syscall = "";
  std::string path;
  std::string dest;
  // readFile
  uint8_t* data = nullptr;
  std::size_t size = 0;
  // readFile of more than it can return: the size seen (fstat's, or what
  // was read when the file kept growing); error is 0.
  std::size_t too_large = 0;
  // readdir
  std::vector<std::string> names;
  // stat
  struct stat info {};
  // mkdir: the first directory created
  std::string created;

  FsResult() = default;
  FsResult(FsResult&& other) noexcept
      : error(other.error),
        syscall(other.syscall),
        path(std::move(other.path)),
        dest(std::move(other.dest)),
        data(std::exchange(other.data, nullptr)),
        size(other.size),
        too_large(other.too_large),
        names(std::move(other.names)),
        info(other.info),
        created(std::move(other.created)) {}
  FsResult& operator=(FsResult&&) = delete;
  ~FsResult() { std::free(data); }

  FsResult& Fail(const char* failed_syscall, int error_number, std::string failed_path) {
    error = error_number;
    syscall = failed_syscall;
    path = std::move(failed_path);
    return *this;
  }
};

// Bytes to write: a copy of a string's UTF-8, or a view's backing store
// (shared with the JS object, which keeps it alive).
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

// ---- Blocking operations (pool thread) ------------------------------------------

// Reads the whole file, at most `limit` bytes: a larger one (or one that
// grows past it: /dev/zero, a FIFO) fails with too_large set.
FsResult ReadFileJob(const std::string& path, std::size_t limit) {
  FsResult result;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::move(result.Fail("open", errno, path));
  // Larger than `limit` (`size` bytes seen so far): nothing is returned.
  auto too_large = [&](std::size_t size) -> FsResult {
    ::close(fd);
    std::free(std::exchange(result.data, nullptr));
    result.size = 0;
    result.path = path;
    result.too_large = size;
    return std::move(result);
  };
  struct stat info;
  std::size_t capacity = 64 * 1024;
  // The size fstat gives for a regular file whose size it knows; procfs
  // and sysfs files say 0 or 4096 and are read to a read() of 0.
  std::size_t known_size = 0;
  if (::fstat(fd, &info) == 0) {
    if (S_ISDIR(info.st_mode)) {
      ::close(fd);
      return std::move(result.Fail("read", EISDIR, path));
    }
    if (info.st_size > 0) {
      if (static_cast<std::size_t>(info.st_size) > limit) return too_large(info.st_size);
      capacity = static_cast<std::size_t>(info.st_size) + 1;
      if (S_ISREG(info.st_mode)) known_size = static_cast<std::size_t>(info.st_size);
    }
  }
  // Never more than limit + 1 bytes of buffer: the extra byte tells a file
  // of exactly `limit` bytes from a larger one.
  capacity = std::min(capacity, limit + 1);
  result.data = static_cast<uint8_t*>(std::malloc(capacity));
  if (result.data == nullptr) {
    ::close(fd);
    return std::move(result.Fail("read", ENOMEM, path));
  }
  while (true) {
    if (result.size == capacity) {
      if (capacity > limit) return too_large(result.size);
      capacity = std::min(capacity * 2, limit + 1);
      auto* grown = static_cast<uint8_t*>(std::realloc(result.data, capacity));
      if (grown == nullptr) {
        ::close(fd);
        return std::move(result.Fail("read", ENOMEM, path));  // (result frees data)
      }
      result.data = grown;
    }
    std::size_t wanted = capacity - result.size;
    ssize_t n = ::read(fd, result.data + result.size, wanted);
    if (n < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      ::close(fd);
      return std::move(result.Fail("read", error, path));
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
  // limit + 1 bytes ended at the size check above.)
  ::close(fd);
  return result;
}

FsResult WriteFileJob(const std::string& path, const Payload& payload, bool append,
                      bool exclusive) {
  FsResult result;
  int flags =
      O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC) | (exclusive ? O_EXCL : 0);
  int fd = ::open(path.c_str(), flags, 0666);
  if (fd < 0) return std::move(result.Fail("open", errno, path));
  const char* data = payload.data();
  std::size_t left = payload.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      ::close(fd);
      return std::move(result.Fail("write", error, path));
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // close() can report a deferred write error (NFS, quota): not success.
  if (::close(fd) < 0 && errno != EINTR) return std::move(result.Fail("close", errno, path));
  return result;
}

FsResult ReaddirJob(const std::string& path) {
  FsResult result;
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return std::move(result.Fail("scandir", errno, path));
  errno = 0;
  while (dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    result.names.emplace_back(entry->d_name);
  }
  int error = errno;
  ::closedir(dir);
  if (error != 0) return std::move(result.Fail("scandir", error, path));
  return result;
}

FsResult StatJob(const std::string& path) {
  FsResult result;
  if (::stat(path.c_str(), &result.info) < 0) return std::move(result.Fail("stat", errno, path));
  return result;
}

FsResult MkdirJob(const std::string& path, bool recursive) {
  FsResult result;
  if (!recursive) {
    if (::mkdir(path.c_str(), 0777) < 0) return std::move(result.Fail("mkdir", errno, path));
    return result;
  }
  // Each missing component in turn; existing directories are fine. (As
  // node: an empty path is ENOENT, a file in the way is ENOTDIR, and a
  // file at the path itself is EEXIST.)
  if (path.empty()) return std::move(result.Fail("mkdir", ENOENT, path));
  std::string prefix;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    prefix = path.substr(0, slash);
    start = slash + 1;
    if (prefix.empty()) continue;
    if (::mkdir(prefix.c_str(), 0777) == 0) {
      if (result.created.empty()) result.created = prefix;
      continue;
    }
    int error = errno;
    struct stat info;
    if (error == EEXIST && ::stat(prefix.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) continue;
    const bool last = slash == path.size();  // ("file/" is ENOTDIR, as in node)
    return std::move(result.Fail("mkdir", error == EEXIST && !last ? ENOTDIR : error, path));
  }
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
  const std::string quoted = std::string("The \"") + name + "\" argument must ";
  if (info.Length() <= index || !info[index]->IsString()) {
    Reject(info, v8::Exception::TypeError(V8String(isolate, quoted + "be of type string")));
    return false;
  }
  *path = StdString(isolate, info[index]);
  if (path->find('\0') != std::string::npos) {
    Reject(info, v8::Exception::TypeError(V8String(isolate, quoted + "not contain null bytes")));
    return false;
  }
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

// readFile(path[, 'utf8' | { encoding }]) -> Uint8Array | string
void ReadFile(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
  v8::Local<v8::Value> encoding;
  bool text = false;
  if (!CheckOptionsArgument(info, 1) || !Option(info, 1, "encoding", &encoding) ||
      !Utf8Encoding(info, encoding, "reads bytes or utf8", &text)) {
    return;
  }
  // The most a readFile can return: bytes, a Uint8Array's longest length;
  // text, the UTF-8 of V8's longest string (at most 3 bytes a UTF-16 unit;
  // longer input is surely too long) and NewFromUtf8's int length.
  // text, what NewFromUtf8 takes: at most V8's longest string in bytes.
  const std::size_t limit =
      text ? static_cast<std::size_t>(v8::String::kMaxLength) : v8::TypedArray::kMaxLength;
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info), [path = std::move(path), limit] { return ReadFileJob(path, limit); },
      [text, limit](Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver, FsResult& result) {
        if (RejectIfFailed(runtime, resolver, result)) return;
        v8::Isolate* isolate = runtime->isolate();
        v8::Local<v8::Context> context = runtime->context();
        auto reject_too_large = [&](std::size_t size) {
          // node's ERR_FS_FILE_TOO_LARGE, a RangeError.
          v8::Local<v8::Object> error =
              v8::Exception::RangeError(
                  V8String(isolate, "File size (" + std::to_string(size) +
                                        ") is greater than what readFile can return as " +
                                        (text ? "a string" : "bytes") + " (" +
                                        std::to_string(limit) + ")"))
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
          // The bytes read on the pool become the ArrayBuffer: no copy.
          std::size_t size = result.size;
          std::unique_ptr<v8::BackingStore> store = v8::ArrayBuffer::NewBackingStore(
              std::exchange(result.data, nullptr), size,
              [](void* data, std::size_t, void*) { std::free(data); }, nullptr);
          v8::Local<v8::ArrayBuffer> buffer = v8::ArrayBuffer::New(isolate, std::move(store));
          value = v8::Uint8Array::New(buffer, 0, size);
        }
        resolver->Resolve(context, value).FromMaybe(false);
      }));
}

bool PayloadArgument(const v8::FunctionCallbackInfo<v8::Value>& info, int index, Payload* payload) {
  v8::Isolate* isolate = info.GetIsolate();
  if (info.Length() > index && info[index]->IsString()) {
    payload->text = StdString(isolate, info[index]);
    return true;
  }
  if (info.Length() > index && info[index]->IsArrayBufferView()) {
    v8::Local<v8::ArrayBufferView> view = info[index].As<v8::ArrayBufferView>();
    payload->store = view->Buffer()->GetBackingStore();
    payload->offset = view->ByteOffset();
    payload->length = view->ByteLength();
    return true;
  }
  if (info.Length() > index && info[index]->IsArrayBuffer()) {
    payload->store = info[index].As<v8::ArrayBuffer>()->GetBackingStore();
    payload->length = payload->store->ByteLength();
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
  bool text;
  if (!CheckOptionsArgument(info, 2) || !Option(info, 2, "encoding", &encoding) ||
      !Option(info, 2, "flag", &flag) ||
      !Utf8Encoding(info, encoding, "writes bytes, and strings as utf8", &text)) {
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
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info),
      [path = std::move(path), payload = std::move(payload), append, exclusive] {
        return WriteFileJob(path, payload, append, exclusive);
      },
      SettleVoid));
}

void WriteFile(const v8::FunctionCallbackInfo<v8::Value>& info) { WriteOrAppend(info, false); }
void AppendFile(const v8::FunctionCallbackInfo<v8::Value>& info) { WriteOrAppend(info, true); }

void Readdir(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info), [path = std::move(path)] { return ReaddirJob(path); },
      [](Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver, FsResult& result) {
        if (RejectIfFailed(runtime, resolver, result)) return;
        v8::Isolate* isolate = runtime->isolate();
        v8::Local<v8::Context> context = runtime->context();
        v8::Local<v8::Array> names = v8::Array::New(isolate, static_cast<int>(result.names.size()));
        for (std::size_t i = 0; i < result.names.size(); ++i) {
          names->Set(context, static_cast<uint32_t>(i), V8String(isolate, result.names[i]))
              .FromMaybe(false);
        }
        resolver->Resolve(context, names).FromMaybe(false);
      }));
}

void Stat(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::string path;
  if (!PathArgument(info, 0, &path)) return;
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
  v8::Local<v8::Value> recursive_option;
  if (!Option(info, 1, "recursive", &recursive_option)) return;
  // (A dictionary's boolean: ToBoolean, as deno and WebIDL read it.)
  bool recursive = recursive_option->BooleanValue(info.GetIsolate());
  info.GetReturnValue().Set(RunAsync<FsResult>(
      RuntimeOf(info), [path = std::move(path), recursive] { return MkdirJob(path, recursive); },
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
