#include "cli/options.h"

#include <string_view>

namespace hostloop::cli {

const char kUsage[] =
    "Usage: hostloop [options] FILE [args...]\n"
    "       hostloop [options] -e CODE [args...]\n"
    "       hostloop [options] - [args...]      (the module's code from stdin)\n"
    "       hostloop [options]                 (a REPL)\n"
    "\n"
    "Runs FILE (or CODE, or all of stdin for -) as an ES module on hostloop's event\n"
    "loop; with none of them, starts a read-eval-print loop on stdin.\n"
    "\n"
    "Options:\n"
    "  -e, --eval CODE                 evaluate CODE as a module\n"
    "  --v8-flags=FLAG,FLAG,...        pass flags to V8 (e.g. --v8-flags=--expose-gc)\n"
    "  --uncaught-errors=throw|warn    on an uncaught error: exit 1 (default) or report and go on\n"
    "  --unhandled-rejections=throw|warn|none\n"
    "                                  on an unhandled rejection: exit 1 (default), report, or ignore\n"
    "  --trace-loop                    print event-loop statistics to stderr at exit\n"
    "  -h, --help                      print this help\n"
    "  -v, --version                   print the hostloop and V8 versions\n"
    "\n"
    "Exit codes: 0 success, 1 uncaught error or unhandled rejection (or stdout closed\n"
    "by its reader), 2 usage error, 13 top-level await that can never settle,\n"
    "133 V8's fatal error (out of memory).\n";

namespace {

std::vector<std::string> SplitFlags(std::string_view list) {
  std::vector<std::string> flags;
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    std::string_view flag = list.substr(0, comma);
    if (!flag.empty()) flags.emplace_back(flag);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return flags;
}

}  // namespace

base::Result<Options> ParseOptions(int argc, const char* const* argv) {
  Options options;
  int i = 1;
  for (; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value_of = [&](std::string_view name) -> std::optional<std::string_view> {
      if (arg.substr(0, name.size()) == name && arg.size() > name.size() && arg[name.size()] == '=') {
        return arg.substr(name.size() + 1);
      }
      return std::nullopt;
    };
    if (arg == "-h" || arg == "--help") {
      options.help = true;
    } else if (arg == "-v" || arg == "--version") {
      options.version = true;
    } else if (arg == "-e" || arg == "--eval") {
      if (i + 1 >= argc) return base::Error{0, std::string(arg) + " needs CODE"};
      options.eval = argv[++i];
      ++i;
      break;
    } else if (auto flags = value_of("--v8-flags")) {
      for (std::string& flag : SplitFlags(*flags)) options.v8_flags.push_back(std::move(flag));
    } else if (auto policy = value_of("--uncaught-errors")) {
      if (*policy == "throw") {
        options.uncaught_errors = runtime::UncaughtErrorPolicy::kThrow;
      } else if (*policy == "warn") {
        options.uncaught_errors = runtime::UncaughtErrorPolicy::kWarn;
      } else {
        return base::Error{0, "--uncaught-errors must be throw or warn, not '" + std::string(*policy) + "'"};
      }
    } else if (auto policy = value_of("--unhandled-rejections")) {
      if (*policy == "throw") {
        options.unhandled_rejections = runtime::RejectionPolicy::kThrow;
      } else if (*policy == "warn") {
        options.unhandled_rejections = runtime::RejectionPolicy::kWarn;
      } else if (*policy == "none") {
        options.unhandled_rejections = runtime::RejectionPolicy::kNone;
      } else {
        return base::Error{0, "--unhandled-rejections must be throw, warn or none, not '" +
                                  std::string(*policy) + "'"};
      }
    } else if (arg == "--trace-loop") {
      options.trace_loop = true;
    } else if (arg == "--") {
      ++i;
      if (i < argc) options.file = argv[i++];
      break;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return base::Error{0, "unknown option " + std::string(arg)};
    } else {
      options.file = std::string(arg);
      ++i;
      break;
    }
  }
  for (; i < argc; ++i) options.args.emplace_back(argv[i]);
  return options;
}

}  // namespace hostloop::cli
