// The hostloop command: runs an ES module on the event loop and exits with
// the program's status (README "Exit codes").
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "base/file_util.h"
#include "cli/options.h"
#include "cli/repl.h"
#include "loop/looper.h"
#include "runtime/file_url.h"
#include "runtime/realm.h"
#include "runtime/runtime.h"
#include "v8/v8_process.h"
#include "worker/worker.h"

namespace hostloop::cli {
namespace {

int Fail(const std::string& message, int code) {
  std::fprintf(stderr, "hostloop: %s\n", message.c_str());
  return code;
}

// --trace-loop: what the loop did, on stderr at exit.
void PrintLoopTrace(const loop::LooperStats& stats) {
  auto ms = [](loop::Duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  double total = ms(stats.run_time);
  double idle = ms(stats.idle_time);
  std::fprintf(
      stderr,
      "hostloop --trace-loop:\n"
      "  passes:            %llu\n"
      "  entries run:       ordered lane %llu, internal lane %llu, fd callbacks %llu\n"
      "  kernel wakeups:    %llu\n"
      "  time:              %.3f ms total, %.3f ms running (JS and host), %.3f ms idle\n"
      "  loop lag:          max %.3f ms, p99 <= %.3f ms, p50 <= %.3f ms (%llu ordered entries)\n",
      static_cast<unsigned long long>(stats.passes),
      static_cast<unsigned long long>(stats.ordered_entries),
      static_cast<unsigned long long>(stats.internal_entries),
      static_cast<unsigned long long>(stats.fd_callbacks),
      static_cast<unsigned long long>(stats.kernel_wakeups), total, total - idle, idle,
      ms(stats.max_lag), ms(stats.LagPercentile(0.99)), ms(stats.LagPercentile(0.5)),
      static_cast<unsigned long long>(stats.lag_samples));
}

int Main(int argc, char** argv) {
  // A stdin, stdout or stderr that was closed (`hostloop <&-`) is /dev/null,
  // as node does: otherwise the first fd hostloop opens (its epoll fd) took
  // its number, and the REPL watched its own epoll fd as stdin.
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      if (::open("/dev/null", O_RDWR) != fd) break;  // (takes the lowest free number: fd)
    }
  }
  // No death by SIGPIPE: a write to a stdout whose reader is gone fails with
  // EPIPE, and the runtime stops with exit code 1 (Runtime::Print).
  ::signal(SIGPIPE, SIG_IGN);
  worker::RegisterWorkerBindings();
  base::Result<Options> parsed = ParseOptions(argc, argv);
  if (!parsed.ok()) {
    return Fail(parsed.error().message + "\nTry 'hostloop --help'.", runtime::kExitUsage);
  }
  Options options = std::move(parsed).value();
  if (options.help) {
    std::fputs(kUsage, stdout);
    return runtime::kExitOk;
  }
  if (options.version) {
    base::Result<void> init = v8host::V8Process::Initialize(argv[0], {});
    std::printf("hostloop %s\nV8 %s\n", HOSTLOOP_VERSION, v8host::V8Process::Version());
    v8host::V8Process::Shutdown();
    return runtime::kExitOk;
  }
  bool repl = !options.file && !options.eval;

  // The embedded snapshot was made with hostloop's default V8 flags; other
  // flags can change what V8 expects of it, so they get a freshly built realm.
  const v8::StartupData* snapshot =
      options.v8_flags.empty() ? runtime::EmbeddedSnapshot() : nullptr;
  base::Result<void> init = v8host::V8Process::Initialize(argv[0], options.v8_flags, snapshot);
  if (!init.ok()) return Fail(init.error().message, runtime::kExitUsage);

  int exit_code;
  {
    base::Result<std::unique_ptr<loop::Looper>> looper = loop::Looper::Create();
    if (!looper.ok()) return Fail(looper.error().message, runtime::kExitUncaught);
    runtime::RuntimeOptions runtime_options;
    runtime_options.uncaught_errors = options.uncaught_errors;
    runtime_options.unhandled_rejections = options.unhandled_rejections;
    if (repl) {
      // In the REPL an error is reported and the session goes on.
      runtime_options.uncaught_errors = runtime::UncaughtErrorPolicy::kWarn;
      runtime_options.unhandled_rejections = runtime::RejectionPolicy::kWarn;
    }
    runtime_options.args = options.args;
    base::Result<std::unique_ptr<runtime::Runtime>> created =
        runtime::Runtime::Create(looper.value().get(), std::move(runtime_options));
    if (!created.ok()) return Fail(created.error().message, runtime::kExitUncaught);
    std::unique_ptr<runtime::Runtime> runtime = std::move(created).value();

    if (options.trace_loop) looper.value()->set_trace_lag(true);
    if (repl) {
      bool ended_by_sigint = false;
      {
        Repl session(runtime.get(), looper.value().get());
        if (!session.Start()) return Fail("cannot start the REPL", runtime::kExitUncaught);
        {
          runtime::Runtime::RunScope run_scope(runtime.get());
          do {
            looper.value()->Run();
          } while (session.AbandonStuckAwait());
        }
        exit_code = runtime->exit_code();
        ended_by_sigint = session.ended_by_sigint();
        if (options.trace_loop) PrintLoopTrace(looper.value()->stats());
        // The session ends here, while the runtime lives: when the runtime
        // stopped by itself (stdout closed by its reader), the session's
        // Exit() still has to unhook it.
      }
      runtime.reset();
      v8host::V8Process::Shutdown();
      if (ended_by_sigint) {
        // A piped session a SIGINT ended ends as SIGINT ends a process
        // (the shell sees 130; it exited 0, as if it had succeeded).
        ::signal(SIGINT, SIG_DFL);
        ::raise(SIGINT);
        return 128 + SIGINT;
      }
      return exit_code;
    }
    std::string url;
    std::optional<std::string> source;
    if (options.eval) {
      url = runtime::PathToFileUrl(runtime::AbsolutePath("[eval]"));
      source = *options.eval;
    } else if (*options.file == "-") {
      // `hostloop -`: the module's code is all of stdin, read before the
      // loop starts (as node and deno do).
      base::Result<std::string> text = base::ReadFdToString(0, "stdin");
      if (!text.ok()) return Fail("cannot read the module from stdin: " + text.error().message, 1);
      url = runtime::PathToFileUrl(runtime::AbsolutePath("[stdin]"));
      source = std::move(text).value();
    } else {
      url = runtime::PathToFileUrl(runtime::AbsolutePath(*options.file));
    }
    // The main module is evaluated in the loop's first entry (HTML runs a
    // script as a task): what it schedules takes its turn as it would from
    // any task (timers in a later pass, V8's tasks in this pass's internal
    // lane), not all of it in one first pass before anything else.
    bool started = false;
    loop::Looper* main_looper = looper.value().get();
    main_looper->Post([&] {
      started = runtime->StartMainModule(url, source);
      if (!started) main_looper->Quit();
    });
    {
      runtime::Runtime::RunScope run_scope(runtime.get());
      main_looper->Run();
    }
    if (started && !runtime->stopping()) runtime->CheckUnsettledMain();
    if (options.trace_loop) PrintLoopTrace(looper.value()->stats());
    exit_code = runtime->exit_code();
    runtime.reset();
  }
  v8host::V8Process::Shutdown();
  return exit_code;
}

}  // namespace
}  // namespace hostloop::cli

int main(int argc, char** argv) { return hostloop::cli::Main(argc, argv); }
