// Process-wide V8 set-up: flags, ICU, the HostPlatform. Once per process,
// before any runtime exists; torn down after the last one.
#pragma once

#include <string>
#include <vector>

#include <v8-snapshot.h>

#include "base/result.h"
#include "v8/host_platform.h"

namespace hostloop::v8host {

class V8Process {
 public:
  // `v8_flags` are V8 command-line flags ("--expose-gc"). Unknown flags are
  // an error naming them. `argv0` helps ICU find its data.
  // `snapshot` (may be null) is the startup snapshot every isolate starts
  // from; it must outlive V8.
  static base::Result<void> Initialize(const char* argv0, const std::vector<std::string>& v8_flags,
                                       const v8::StartupData* snapshot = nullptr);
  static const v8::StartupData* snapshot();
  static HostPlatform* platform();
  static bool initialized();
  // Whether Shutdown() ran (V8 cannot be initialized again).
  static bool shut_down();
  static void Shutdown();
  // "10.2.154.26-node.37"
  static const char* Version();
};

}  // namespace hostloop::v8host
