// Build-time tool: writes the startup snapshot that the hostloop binary
// embeds (see realm.h). Usage: hostloop_mksnapshot OUTPUT
#include <cstdio>

#include "runtime/realm.h"
#include "v8/v8_process.h"
#include "worker/worker.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
    return 2;
  }
  // The same natives as the hostloop binary registers, before V8 starts.
  hostloop::worker::RegisterWorkerBindings();
  hostloop::base::Result<void> init = hostloop::v8host::V8Process::Initialize(argv[0], {});
  if (!init.ok()) {
    std::fprintf(stderr, "hostloop_mksnapshot: %s\n", init.error().message.c_str());
    return 1;
  }
  hostloop::base::Result<std::string> blob = hostloop::runtime::CreateSnapshotBlob();
  if (!blob.ok()) {
    std::fprintf(stderr, "hostloop_mksnapshot: %s\n", blob.error().message.c_str());
    return 1;
  }
  std::FILE* out = std::fopen(argv[1], "wb");
  if (out == nullptr || std::fwrite(blob.value().data(), 1, blob.value().size(), out) != blob.value().size() ||
      std::fclose(out) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  hostloop::v8host::V8Process::Shutdown();
  return 0;
}
