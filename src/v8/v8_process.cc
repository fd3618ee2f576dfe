#include "v8/v8_process.h"

#include <v8-initialization.h>
#include <v8-version.h>

#include <memory>

#include "base/check.h"

static_assert(V8_MAJOR_VERSION == 10,
              "hostloop builds against V8 10 (Debian libnode108); these are other V8 headers");

namespace hostloop::v8host {
namespace {

std::unique_ptr<HostPlatform>& PlatformSlot() {
  static std::unique_ptr<HostPlatform> platform;
  return platform;
}

}  // namespace

const v8::StartupData* g_snapshot = nullptr;
// V8 cannot be initialized again once disposed (its platform state is final).
bool g_disposed = false;

base::Result<void> V8Process::Initialize(const char* argv0,
                                         const std::vector<std::string>& v8_flags,
                                         const v8::StartupData* snapshot) {
  if (initialized()) return base::Error{0, "V8 is already initialized in this process"};
  if (g_disposed) {
    return base::Error{0, "V8 was shut down in this process and cannot be initialized again"};
  }
  g_snapshot = snapshot;
  // Import assertions (`assert { type: 'json' }`) are behind a flag in V8 10.2.
  // --no-verify-snapshot-checksum: V8 10.2 checksums the whole startup
  // snapshot (adler32 over ~1.1 MB) on every isolate creation, 1.2-1.5 ms of
  // each start-up and of each new Worker on the dev VM. The snapshot is part
  // of the binary's read-only data, so the check only guards against a
  // corrupted executable; later V8 versions do it in debug builds only.
  static const char kDefaultFlags[] =
      "--harmony-import-assertions --turbo-fast-api-calls --no-verify-snapshot-checksum";
  v8::V8::SetFlagsFromString(kDefaultFlags, sizeof kDefaultFlags - 1);
  if (!v8_flags.empty()) {
    // SetFlagsFromCommandLine removes the flags it knows; what is left over
    // is a typo the user should hear about.
    std::vector<std::string> storage = v8_flags;
    std::vector<char*> argv;
    std::string program = "hostloop";
    argv.push_back(program.data());
    for (std::string& flag : storage) argv.push_back(flag.data());
    int argc = static_cast<int>(argv.size());
    v8::V8::SetFlagsFromCommandLine(&argc, argv.data(), /*remove_flags=*/true);
    if (argc > 1) {
      std::string unknown;
      for (int i = 1; i < argc; ++i) {
        if (!unknown.empty()) unknown += ", ";
        unknown += argv[i];
      }
      // (V8 leaves a known flag with a bad value too, after printing why.)
      return base::Error{0, "unknown V8 flag or bad flag value: " + unknown};
    }
  }
  v8::V8::InitializeICUDefaultLocation(argv0);
  PlatformSlot() = std::make_unique<HostPlatform>();
  v8::V8::InitializePlatform(PlatformSlot().get());
  if (!v8::V8::Initialize()) return base::Error{0, "V8 failed to initialize"};
  return {};
}

const v8::StartupData* V8Process::snapshot() { return g_snapshot; }

HostPlatform* V8Process::platform() { return PlatformSlot().get(); }

bool V8Process::initialized() { return PlatformSlot() != nullptr; }

void V8Process::Shutdown() {
  if (!initialized()) return;
  v8::V8::Dispose();
  v8::V8::DisposePlatform();
  PlatformSlot().reset();
  g_disposed = true;
}

bool V8Process::shut_down() { return g_disposed; }

const char* V8Process::Version() { return v8::V8::GetVersion(); }

}  // namespace hostloop::v8host
