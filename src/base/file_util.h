// Whole-file reads for module loading and tests.
#pragma once

#include <string>

#include "base/result.h"

namespace hostloop::base {

// The file's bytes; Error::code is the errno (ENOENT, EACCES, EISDIR, ...).
Result<std::string> ReadFileToString(const std::string& path);

}  // namespace hostloop::base
