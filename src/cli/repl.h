// The REPL: `hostloop` with no file. stdin is a watched fd on the loop, never
// a blocking read, so timers, workers and promises keep running while it
// waits for input. On a terminal, libedit provides line editing and history
// (BSD-licensed, in Debian's base system as libedit2, and its readline
// callback API reads one character per readable event, which is what an
// event loop needs); piped input is read line by line, so it is scriptable.
//
// Each input is evaluated in V8's REPL mode, a script in the global scope
// with top-level `await` whose declarations later inputs see (and may
// redeclare); an input that ends early ("function f() {") continues on the
// next line; the REPL waits for an input's promise before the next. Results
// print like console.log; errors print as "Uncaught ..." and the REPL goes on.
// `.exit` and Ctrl-D exit; Ctrl-C clears the current input, and a second
// Ctrl-C on an empty line exits, as in node. Node's other REPL commands that
// make sense without a resettable context work too: `.help`, `.break` (drop
// the input typed so far), `.load FILE` (its text as one input), `.save FILE`
// (the session's inputs); another `.word` on a fresh line is an error. Ctrl-C during an input's
// evaluation interrupts it (a watchdog thread calls TerminateExecution) or
// gives up its pending await; an await that nothing left can settle is
// reported once the loop is idle, and the session goes on.
#pragma once

#include <v8.h>

#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/unique_fd.h"
#include "loop/looper.h"
#include "runtime/runtime.h"

namespace hostloop::cli {

class Repl {
 public:
  Repl(runtime::Runtime* runtime, loop::Looper* looper);
  ~Repl();

  // Starts reading stdin; the loop does the rest.
  bool Start();
  bool interactive() const { return interactive_; }
  // After Run() returned: if an input was awaiting a promise when the loop
  // went idle, reports it and resumes the session (then Run() again);
  // false when the session is over.
  bool AbandonStuckAwait();
  // Whether a SIGINT ended the session (piped input): the process then ends
  // as SIGINT ends it (128 + 2 to the shell), after cleaning up.
  bool ended_by_sigint() const { return ended_by_sigint_; }

 private:
  static void OnReadlineLine(char* line);
  void OnStdinReadable();
  // One rl_callback_read_char(), with rl_line_buffer pointing at scratch_
  // (see the comment in repl.cc).
  void ReadTerminalKey();
  void ReadRegularStdin();
  void OnInterrupt();
  void OnContinued();
  void HandleLine(std::string line);
  // Runs `line` if it is a REPL command (see RunCommand in repl.cc); false
  // when it is JavaScript.
  bool RunCommand(const std::string& line);
  // Evaluates buffer_; when the input is complete, records it for .save and
  // clears buffer_.
  bool EndIfStopped();
  void EvaluateBuffer();
  void ProcessQueuedLines();
  // Returns false when the input is incomplete (needs more lines).
  bool Evaluate(const std::string& source);
  static void OnAwaitReaction(const v8::FunctionCallbackInfo<v8::Value>& info, bool fulfilled);
  void OnAsyncSettled(bool fulfilled, v8::Local<v8::Value> value);
  bool TakeInterruption();
  void GiveUpAwait(std::string_view why);
  bool IsIncomplete(const std::string& source, v8::Local<v8::Value> exception,
                    v8::Local<v8::Message> message);
  void PrintValue(v8::Local<v8::Value> value);
  void PrintException(v8::Local<v8::Value> exception, v8::Local<v8::Message> message);
  void ResumeInput();
  void ReinstallHandler(const char* prompt);
  void Exit();
  void ExitAfterQueuedWork();

  runtime::Runtime* const runtime_;
  loop::Looper* const looper_;
  bool interactive_ = false;
  bool ended_by_sigint_ = false;
  // RestoreTerminal runs on fatal signals while the session is open.
  bool fatal_signal_handlers_ = false;
  loop::Looper::WatchId stdin_watch_ = 0;
  loop::Looper::WatchId signal_watch_ = 0;
  base::UniqueFd signal_read_;
  std::string partial_;             // bytes of an unfinished line (piped input)
  std::string buffer_;              // an incomplete input, lines so far
  std::deque<std::string> queued_;  // lines waiting while an await runs
  std::vector<std::string> inputs_;  // complete inputs so far, for .save
  bool busy_ = false;               // a top-level await is pending
  bool eof_ = false;
  bool interrupted_once_ = false;
  bool exited_ = false;
  bool exit_posted_ = false;
  // The id of the input whose promise the REPL waits for (busy_).
  uint32_t pending_await_ = 0;
  // A Ctrl-C that interrupted an evaluation: its self-pipe byte is not a
  // second Ctrl-C.
  bool swallow_interrupt_ = false;
  std::thread watchdog_;
  std::atomic<bool> watchdog_stop_{false};
  bool at_prompt_ = false;  // the prompt is on screen, waiting for input
  // stdin's file status flags before the session made it non-blocking, or -1.
  int restore_stdin_flags_ = -1;
  // What libedit writes through rl_line_buffer lands here (ReadTerminalKey):
  // address space reserved with mmap, of which libedit's one byte per key
  // touches a page.
  struct Scratch {
    Scratch() = default;
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    ~Scratch();
    // At least `bytes` of it; false if no memory could be reserved.
    bool Reserve(std::size_t bytes);
    char* data = nullptr;
    std::size_t size = 0;
  };
  Scratch scratch_;
  // The longest line the editor has held, in bytes (what one key can add
  // at most, by recalling it from history or yanking it).
  std::size_t longest_line_ = 0;
};

}  // namespace hostloop::cli
