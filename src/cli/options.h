// Command-line parsing for the hostloop command.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "runtime/runtime.h"

namespace hostloop::cli {

struct Options {
  bool help = false;
  bool version = false;
  // The module file, or the code of -e.
  std::optional<std::string> file;
  std::optional<std::string> eval;
  std::vector<std::string> v8_flags;
  std::vector<std::string> args;
  runtime::UncaughtErrorPolicy uncaught_errors = runtime::UncaughtErrorPolicy::kThrow;
  runtime::RejectionPolicy unhandled_rejections = runtime::RejectionPolicy::kThrow;
  bool trace_loop = false;
};

// Options come before the file; everything after it belongs to the program.
base::Result<Options> ParseOptions(int argc, const char* const* argv);

extern const char kUsage[];

}  // namespace hostloop::cli
