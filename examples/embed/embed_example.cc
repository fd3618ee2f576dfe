// An application with its own poll() loop that embeds hostloop: it posts its
// own messages between JS timers, watches its own fd through the loop,
// receives a value from JS, and shuts down cleanly. Run by `make test`: it
// exits 1 if the order of events is not the one hostloop promises.
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "hostloop/hostloop.h"

using std::chrono::milliseconds;

int main(int argc, char** argv) {
  std::string error;
  if (!hostloop::Engine::Initialize(argv[0], {}, &error)) {
    std::fprintf(stderr, "embed_example: %s\n", error.c_str());
    return 1;
  }
  std::vector<std::string> order;
  std::string received;
  // JS reaches the application through a native module, hostloop:app.
  hostloop::DefineJsonModule(
      "app", {{"log",
               [&](const std::string& arguments) {
                 order.push_back("js:  " + arguments);
                 return std::string();
               }},
              {"send", [&](const std::string& arguments) {
                 received = arguments;
                 return std::string("\"thanks from C++\"");
               }}});

  int exit_code = 0;
  {
    auto looper = std::move(hostloop::Looper::Create()).value();
    auto runtime = hostloop::Runtime::Create(looper.get());

    // The application's own messages, between the JS timers (L3). The 50 ms
    // margins only absorb the time the module takes to load (ASan builds
    // included); the order itself is the loop's (due time, sequence) order.
    looper->PostDelayed([&] { order.push_back("app: message due at 150 ms"); }, milliseconds(150));
    // An fd of the application's, watched by the loop: a pipe it writes to
    // from its own message at 250 ms.
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return 1;
    looper->PostDelayed(
        [&] {
          order.push_back("app: message due at 250 ms (writes the pipe)");
          (void)!::write(pipe_fds[1], "x", 1);
        },
        milliseconds(250));
    hostloop::Looper::WatchId watch = 0;
    watch = looper
                ->WatchFd(pipe_fds[0], POLLIN,
                          [&](uint32_t) {
                            char byte;
                            (void)!::read(pipe_fds[0], &byte, 1);
                            order.push_back("app: pipe readable");
                            looper->UnwatchFd(watch);
                          })
                .value();

    runtime->EvaluateModule(R"JS(
      import { log, send } from 'hostloop:app';
      setTimeout(() => log('timer 100 ms'), 100);
      setTimeout(() => log('timer 200 ms'), 200);
      setTimeout(() => {
        const reply = send({ answer: 42, from: 'js' });
        log('timer 300 ms, C++ replied ' + reply);
      }, 300);
    )JS");

    // The application's loop: hostloop is one more fd in it (L10).
    while (looper->Step()) {
      pollfd fd{looper->BackendFd(), POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(looper->NextTimeoutMs()));
    }
    exit_code = runtime->exit_code();
    runtime.reset();  // clean shutdown, while the Looper still exists
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
  }
  hostloop::Engine::Shutdown();

  const std::vector<std::string> expected = {
      "js:  [\"timer 100 ms\"]",
      "app: message due at 150 ms",
      "js:  [\"timer 200 ms\"]",
      "app: message due at 250 ms (writes the pipe)",
      "app: pipe readable",
      "js:  [\"timer 300 ms, C++ replied thanks from C++\"]",
  };
  for (const std::string& line : order) std::printf("%s\n", line.c_str());
  std::printf("received from JS: %s\n", received.c_str());
  if (order != expected || received != "[{\"answer\":42,\"from\":\"js\"}]" || exit_code != 0) {
    std::fprintf(stderr, "embed_example: unexpected order or value (exit code %d)\n", exit_code);
    return 1;
  }
  return 0;
}
