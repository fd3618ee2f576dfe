// Whole-file reads for module loading and tests.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace hostloop::base {

class ReadCanceller;

// The file's bytes; Error::code is the errno (ENOENT, EACCES, EISDIR, ...).
// A file that is not a regular one (a FIFO, a pipe named by /dev/fd/N, a
// terminal) is read until its writers are gone, which may take forever:
// `canceller`, if given, ends the wait from another thread (ECANCELED).
Result<std::string> ReadFileToString(const std::string& path, ReadCanceller* canceller = nullptr);
// All that can be read from `fd` until end of file (a pipe, stdin); errors
// name `what`.
Result<std::string> ReadFdToString(int fd, const std::string& what);

// Replaces (or creates, mode 0644 before the umask) the file with `contents`.
// Error::code is the errno; on an error the file may hold part of it.
Result<void> WriteStringToFile(const std::string& path, std::string_view contents);

// Drops a leading UTF-8 byte-order mark, as decoding a script or module
// file does (HTML "UTF-8 decode"; files from some editors carry one).
inline void StripUtf8Bom(std::string& text) {
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
}

}  // namespace hostloop::base
