#include "cli/repl.h"

#include <fcntl.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <termios.h>
#include <unistd.h>

// libedit's readline compatibility interface.
#include <editline/readline.h>

#include <algorithm>
#include <iterator>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <climits>
#include <clocale>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "base/file_util.h"
#include "runtime/v8_util.h"

// V8's REPL mode (what DevTools' console and deno's REPL use, through the
// inspector's Runtime.evaluate with replMode): top-level await, let/const
// that later inputs can redeclare, and the completion value as the value of
// the promise it returns. libnode exports this function of V8's debug
// interface (src/debug/debug-interface.h, not among the public headers), so
// it is declared here with V8 10.2's signature (CMake pins V8 10).
namespace v8::debug {
enum class EvaluateGlobalMode { kDefault, kDisableBreaks, kDisableBreaksAndThrowOnSideEffect };
v8::MaybeLocal<v8::Value> EvaluateGlobal(v8::Isolate* isolate, v8::Local<v8::String> source,
                                         EvaluateGlobalMode mode, bool repl_mode);
}  // namespace v8::debug

namespace hostloop::cli {
namespace {

Repl* g_repl = nullptr;
int g_signal_write_fd = -1;

// Ctrl-C during an input's synchronous evaluation (`while (true) {}`): the
// loop cannot read the self-pipe then, so the handler also wakes a watchdog
// thread (sem_post is async-signal-safe), which terminates the evaluation
// (TerminateExecution is thread-safe), as node's REPL does. The mutex makes
// "still evaluating" and "terminate" one step against the end of the
// evaluation, so a late Ctrl-C never terminates the next JS that runs.
std::atomic<bool> g_evaluating{false};
std::atomic<bool> g_interrupted{false};
sem_t g_sigint_semaphore;
std::mutex g_terminate_mutex;

// Ctrl-Cs the loop has not read yet. JS that runs outside an input's
// evaluation (a timer's endless loop) keeps the loop from reading them: a
// second Ctrl-C then ends the process as SIGINT does by default, with the
// terminal's modes as they were before the REPL (tcsetattr and raise are
// async-signal-safe).
std::atomic<int> g_unread_interrupts{0};
bool g_saved_terminal = false;
struct termios g_terminal_modes;
// stdin's flags before the session made it non-blocking (-1: unchanged).
std::atomic<int> g_restore_stdin_flags{-1};

// Gives the terminal back as it was: its modes (libedit's character mode
// off, echo on) and stdin's blocking mode, which the file description
// shares with whatever runs next. Async-signal-safe (tcsetattr, fcntl).
void RestoreTerminal() {
  if (g_saved_terminal) ::tcsetattr(0, TCSANOW, &g_terminal_modes);
  const int flags = g_restore_stdin_flags.load(std::memory_order_relaxed);
  if (flags >= 0) ::fcntl(0, F_SETFL, flags);
}

void OnSigint(int) {
  int saved = errno;
  char byte = 'i';
  (void)!::write(g_signal_write_fd, &byte, 1);
  if (g_evaluating.load(std::memory_order_relaxed)) {
    ::sem_post(&g_sigint_semaphore);
  } else if (g_unread_interrupts.fetch_add(1) >= 1) {
    RestoreTerminal();
    ::signal(SIGINT, SIG_DFL);
    ::raise(SIGINT);
  }
  errno = saved;
}

// The terminal rows the prompt and the line being typed take: the row of
// the cursor and the last one, counted from the prompt's (0). Characters
// count one column each (libedit's positions are characters), so a line of
// wide characters is underestimated.
struct InputRows {
  int cursor = 0;
  int last = 0;
};
InputRows CurrentInputRows() {
  int rows = 0;
  int columns = 0;
  rl_get_screen_size(&rows, &columns);
  if (columns <= 0) return {};
  const int prompt = rl_prompt != nullptr ? static_cast<int>(std::strlen(rl_prompt)) : 0;
  return {(prompt + std::max(rl_point, 0)) / columns, (prompt + std::max(rl_end, 0)) / columns};
}

// The signals that end the process with the session open: V8's fatal
// errors (out of memory: SIGTRAP), crashes, and SIGTERM/SIGHUP/SIGQUIT.
// Each gives the terminal back first (it was left without echo, and stdin
// non-blocking for the next program), then is handled as before the
// session (ends the process, or reaches a sanitizer's handler).
constexpr int kFatalSignals[] = {SIGTRAP, SIGABRT, SIGILL,  SIGBUS, SIGFPE,
                                 SIGSEGV, SIGTERM, SIGHUP, SIGQUIT};

// The actions the handlers replaced (a sanitizer's, or the default), given
// back before the signal is raised again: the crash report still comes.
struct sigaction g_previous_actions[std::size(kFatalSignals)];

void OnFatalSignal(int signal_number) {
  RestoreTerminal();
  for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) {
    if (kFatalSignals[i] == signal_number) ::sigaction(signal_number, &g_previous_actions[i], nullptr);
  }
  ::raise(signal_number);
}

void SetFatalSignalHandlers(bool install) {
  for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) {
    if (!install) {
      ::sigaction(kFatalSignals[i], &g_previous_actions[i], nullptr);
      continue;
    }
    struct sigaction action {};
    action.sa_handler = OnFatalSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER;
    ::sigaction(kFatalSignals[i], &action, &g_previous_actions[i]);
  }
}

// SIGWINCH (the terminal was resized) and SIGCONT (back from Ctrl-Z): a byte
// each through the same self-pipe, for the loop to act on.
void OnTerminalSignal(int signal_number) {
  int saved = errno;
  char byte = signal_number == SIGWINCH ? 'w' : 'c';
  (void)!::write(g_signal_write_fd, &byte, 1);
  errno = saved;
}

// Marks an input's synchronous evaluation for the watchdog.
class EvaluatingScope {
 public:
  EvaluatingScope() {
    g_interrupted.store(false);
    g_evaluating.store(true);
  }
  ~EvaluatingScope() {
    std::lock_guard<std::mutex> lock(g_terminate_mutex);
    g_evaluating.store(false);
  }
  EvaluatingScope(const EvaluatingScope&) = delete;
  EvaluatingScope& operator=(const EvaluatingScope&) = delete;
};

bool IsBlank(const std::string& text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

}  // namespace

Repl::Repl(runtime::Runtime* runtime, loop::Looper* looper) : runtime_(runtime), looper_(looper) {}

Repl::~Repl() {
  if (!exited_) Exit();
  if (watchdog_.joinable()) {
    watchdog_stop_.store(true);
    ::sem_post(&g_sigint_semaphore);
    watchdog_.join();
    ::sem_destroy(&g_sigint_semaphore);
  }
  if (g_repl == this) g_repl = nullptr;
}

bool Repl::Start() {
  g_repl = this;
  interactive_ = ::isatty(0) && ::isatty(1);

  // The watchdog that interrupts a runaway evaluation on Ctrl-C.
  if (::sem_init(&g_sigint_semaphore, 0, 0) != 0) return false;
  v8::Isolate* isolate = runtime_->isolate();
  watchdog_ = std::thread([this, isolate] {
    while (true) {
      while (::sem_wait(&g_sigint_semaphore) != 0 && errno == EINTR) {
      }
      if (watchdog_stop_.load()) return;
      std::lock_guard<std::mutex> lock(g_terminate_mutex);
      if (g_evaluating.load()) {
        g_interrupted.store(true);
        isolate->TerminateExecution();
      }
    }
  });
  // Ctrl-C reaches the loop through a self-pipe: the signal handler only
  // writes a byte.
  if (interactive_) g_saved_terminal = ::tcgetattr(0, &g_terminal_modes) == 0;
  int fds[2];
  if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) return false;
  signal_read_.Reset(fds[0]);
  g_signal_write_fd = fds[1];
  struct sigaction action {};
  action.sa_handler = OnSigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  if (interactive_) {
    // libedit's own handlers are off (rl_catch_signals = 0): the loop
    // redraws for a new terminal size, and re-enters character mode after
    // Ctrl-Z and fg (the shell gives the terminal back in line mode).
    struct sigaction terminal_action {};
    terminal_action.sa_handler = OnTerminalSignal;
    sigemptyset(&terminal_action.sa_mask);
    terminal_action.sa_flags = SA_RESTART;
    ::sigaction(SIGWINCH, &terminal_action, nullptr);
    ::sigaction(SIGCONT, &terminal_action, nullptr);
  }
  auto signal_watch = looper_->WatchFd(
      signal_read_.Get(), EPOLLIN,
      [this](uint32_t) {
        char bytes[64];
        bool interrupt = false;
        bool resized = false;
        bool continued = false;
        ssize_t n;
        g_unread_interrupts.store(0);
        while ((n = ::read(signal_read_.Get(), bytes, sizeof bytes)) > 0) {
          for (ssize_t i = 0; i < n; ++i) {
            interrupt |= bytes[i] == 'i';
            resized |= bytes[i] == 'w';
            continued |= bytes[i] == 'c';
          }
        }
        if (continued) OnContinued();
        if (resized && interactive_ && at_prompt_ && !exited_) rl_resize_terminal();
        if (interrupt) OnInterrupt();
      },
      loop::Liveness::kWeak);
  if (!signal_watch.ok()) return false;
  signal_watch_ = signal_watch.value();

  if (interactive_) {
    // libedit reads multibyte characters only in a UTF-8 (or other
    // multibyte) LC_CTYPE; in the default "C" locale it dropped every
    // non-ASCII byte of the line ('héllo' became 'hllo').
    const char* locale = std::setlocale(LC_CTYPE, "");
    if (locale == nullptr || std::strcmp(locale, "C") == 0 || std::strcmp(locale, "POSIX") == 0) {
      std::setlocale(LC_CTYPE, "C.UTF-8");  // JS source is UTF-8 whatever the environment says
    }
    rl_catch_signals = 0;
    using_history();
    // No repeat counts (Esc and a digit only redraw the line): one key inserting up
    // to 1,000,000 characters makes libedit grow its line buffer, point
    // rl_line_buffer at its conversion buffer through its resize hook, then
    // reallocate that buffer and write through the stale pointer, past the
    // end of a freed block (see ReadTerminalKey).
    for (char digit = '0'; digit <= '9'; ++digit) {
      const std::string command = std::string("bind ^[") + digit + " ed-redisplay";
      rl_parse_and_bind(command.c_str());
    }
    // Nor libedit's commands that read further keys with a blocking read()
    // of their own, stalling timers, workers and output until answered:
    // file-name completion on Tab (its "Display all N possibilities?"
    // question; file names are not what a JS prompt completes anyway: Tab
    // inserts a tab) and incremental history search (Ctrl-R, Ctrl-S; Up
    // and Down still walk the history). These keys redraw the line: an
    // unassigned key (an error to libedit) lost the Enter typed right after.
    rl_parse_and_bind("bind ^I ed-insert");
    rl_parse_and_bind("bind ^R ed-redisplay");
    rl_parse_and_bind("bind ^S ed-redisplay");
    std::printf("Welcome to hostloop %s (V8 %s). Type .exit or press Ctrl+D to leave.\n",
                HOSTLOOP_VERSION, v8::V8::GetVersion());
    std::fflush(stdout);
    rl_callback_handler_install("> ", OnReadlineLine);
    at_prompt_ = true;
    // Output from timers and other tasks while the prompt waits: clear the
    // prompt and what was typed (every row of it when it wraps: only the
    // cursor's row was cleared, and the others stayed on the screen, or
    // mixed into the output), write, and draw them again.
    runtime_->set_output_hook([this](bool before) {
      if (!at_prompt_ || exited_) return;
      if (before) {
        std::string clear = "\r";
        const InputRows rows = CurrentInputRows();
        if (rows.cursor > 0) clear += "\x1b[" + std::to_string(rows.cursor) + "A";
        clear += "\x1b[J";
        (void)!::write(1, clear.data(), clear.size());
      } else {
        rl_forced_update_display();
      }
    });
  } else {
    // Non-blocking while the session reads it, restored at Exit(): the open
    // file description is shared (with the terminal, when stdin is one and
    // only stdout is piped), and what runs after hostloop must find it as it
    // was.
    int flags = ::fcntl(0, F_GETFL);
    if (flags >= 0 && !(flags & O_NONBLOCK) && ::fcntl(0, F_SETFL, flags | O_NONBLOCK) == 0) {
      restore_stdin_flags_ = flags;
      g_restore_stdin_flags.store(flags);
    }
  }
  fatal_signal_handlers_ = g_saved_terminal || restore_stdin_flags_ >= 0;
  if (fatal_signal_handlers_) SetFatalSignalHandlers(true);
  auto watch = looper_->WatchFd(0, EPOLLIN, [this](uint32_t) { OnStdinReadable(); });
  if (!watch.ok()) {
    if (watch.error().code != EPERM) {
      std::fprintf(stderr, "hostloop: cannot watch stdin: %s\n", watch.error().message.c_str());
      return false;
    }
    // A regular file (or /dev/null) cannot be polled: it is always readable
    // and never blocks, so it is read a chunk per loop entry instead.
    ReadRegularStdin();
    return true;
  }
  stdin_watch_ = watch.value();
  return true;
}

void Repl::ReadRegularStdin() {
  looper_->Post([this] {
    if (exited_) return;
    OnStdinReadable();
    if (!eof_) ReadRegularStdin();
  });
}

void Repl::OnReadlineLine(char* line) {
  Repl* repl = g_repl;
  if (repl == nullptr) return;
  if (line == nullptr) {  // Ctrl-D on an empty line
    std::printf("\n");
    repl->Exit();
    return;
  }
  std::string text(line);
  std::free(line);
  if (!IsBlank(text)) add_history(text.c_str());
  repl->HandleLine(std::move(text));
  if (repl->exited_) return;
  if (repl->busy_) {
    // While a top-level await runs, stdin is not read (typeahead waits in
    // the terminal); the prompt comes back with the result.
    repl->looper_->UnwatchFd(repl->stdin_watch_);
    repl->stdin_watch_ = 0;
    return;
  }
  repl->ResumeInput();
}

// libedit leaves the terminal line-buffered after delivering a line (reading
// the next one would then block the loop); installing the handler again
// switches back to character-at-a-time input and draws the prompt.
void Repl::ResumeInput() {
  if (!interactive_ || exited_) return;
  ReinstallHandler(buffer_.empty() ? "> " : "... ");
  if (stdin_watch_ == 0) {
    auto watch = looper_->WatchFd(0, EPOLLIN, [this](uint32_t) { OnStdinReadable(); });
    if (watch.ok()) stdin_watch_ = watch.value();
  }
}

// libedit (3.1-20221030, Debian 12's) ends each key it handles by writing
// the line's terminating NUL through rl_line_buffer, which it set once to
// its line buffer; when a line outgrows that buffer (about 1 KB) libedit
// reallocates it and rl_line_buffer keeps the freed address, so every later
// key wrote into freed heap memory (an 8000-character line aborted with
// "malloc(): invalid next size"). hostloop reads no line through
// rl_line_buffer (lines come to OnReadlineLine, positions from rl_end), so
// before each key it points rl_line_buffer at a scratch area of its own with
// room for the longest line one key can produce: the current one plus the
// longest ever held (recalled from history, or yanked), plus a generous
// bound on what one key inserts (a completed file name; repeat counts,
// which insert up to 1,000,000 characters, are turned off in Start because
// libedit mishandles them anyway). The area is reserved address space:
// libedit writes one byte in it per key, so it costs a page or two.
Repl::Scratch::~Scratch() {
  if (data != nullptr) ::munmap(data, size);
}

bool Repl::Scratch::Reserve(std::size_t bytes) {
  if (bytes <= size) return true;
  const std::size_t reserve = std::max<std::size_t>(bytes * 2, std::size_t{64} << 20);
  void* area = ::mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (area == MAP_FAILED) return false;
  if (data != nullptr) ::munmap(data, size);
  data = static_cast<char*>(area);
  size = reserve;
  return true;
}

void Repl::ReadTerminalKey() {
  constexpr std::size_t kOneKeyAtMost = std::size_t{4} * 1'000'000 + PATH_MAX + 64;
  const std::size_t needed = static_cast<std::size_t>(std::max(rl_end, 0)) + longest_line_ + kOneKeyAtMost;
  if (!scratch_.Reserve(needed)) {
    // No address space for it: end the session rather than let libedit
    // write through a stale pointer.
    std::fprintf(stderr, "hostloop: out of memory for the line editor\n");
    Exit();
    return;
  }
  rl_line_buffer = scratch_.data;
  rl_callback_read_char();
  longest_line_ = std::max(longest_line_, static_cast<std::size_t>(std::max(rl_end, 0)));
}

void Repl::OnStdinReadable() {
  if (interactive_) {
    ReadTerminalKey();
    return;
  }
  char chunk[4096];
  // (Not once the session ended: Exit() made stdin blocking again.)
  while (!exited_) {
    ssize_t n = ::read(0, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) return;
      n = 0;  // an error ends input like EOF does
    }
    if (n == 0) {
      eof_ = true;
      if (stdin_watch_ != 0) looper_->UnwatchFd(stdin_watch_);
      stdin_watch_ = 0;
      if (!partial_.empty()) HandleLine(std::exchange(partial_, {}));
      if (!busy_ && queued_.empty()) ExitAfterQueuedWork();
      return;
    }
    partial_.append(chunk, static_cast<std::size_t>(n));
    std::size_t newline;
    while (!exited_ && (newline = partial_.find('\n')) != std::string::npos) {
      std::string line = partial_.substr(0, newline);
      partial_.erase(0, newline + 1);
      HandleLine(std::move(line));
    }
  }
}

// Back from Ctrl-Z: libedit's character mode is gone. A fresh prompt in it
// (what was typed on the line is dropped, as after Ctrl-C).
void Repl::OnContinued() {
  if (!interactive_ || exited_ || !at_prompt_ || busy_) return;
  std::printf("\n");
  std::fflush(stdout);
  ReinstallHandler(buffer_.empty() ? "> " : "... ");
}

void Repl::OnInterrupt() {
  if (exited_) return;
  if (swallow_interrupt_) {
    // This Ctrl-C already interrupted an evaluation (TakeInterruption).
    swallow_interrupt_ = false;
    return;
  }
  if (!interactive_) {
    ended_by_sigint_ = true;
    Exit();
    return;
  }
  if (busy_) {
    // Ctrl-C while an input awaits: give up on it, as node does.
    interrupted_once_ = false;
    GiveUpAwait("\nUncaught Error: Script execution was interrupted by SIGINT\n");
    return;
  }
  bool has_input = !buffer_.empty() || rl_end > 0;
  if (has_input) {
    buffer_.clear();
    // Below the last row of what was typed, which stays on the screen (the
    // cursor may be on an earlier row of a wrapped line: the new prompt was
    // drawn over the rest).
    const InputRows rows = CurrentInputRows();
    if (rows.last > rows.cursor) std::printf("\x1b[%dB", rows.last - rows.cursor);
    std::printf("\n");
    interrupted_once_ = false;
  } else if (interrupted_once_) {
    std::printf("\n");
    Exit();
    return;
  } else {
    std::printf("\n(To exit, press Ctrl+C again or Ctrl+D or type .exit)\n");
    interrupted_once_ = true;
  }
  std::fflush(stdout);
  // A fresh, empty line with the prompt.
  ReinstallHandler("> ");
}

// Leaving character mode and entering it again makes libedit reset its line
// buffer and draw the prompt; installing the handler while it is already in
// character mode would do neither.
void Repl::ReinstallHandler(const char* prompt) {
  rl_callback_handler_remove();
  rl_callback_handler_install(prompt, OnReadlineLine);
  // libedit updates these as characters are typed, not when the line is
  // reset: left as they were, a Ctrl-C that cleared typed text made every
  // later Ctrl-C on the empty line look like one with input (no hint, no
  // exit).
  rl_end = 0;
  rl_point = 0;
  at_prompt_ = true;
}

void Repl::HandleLine(std::string line) {
  if (EndIfStopped()) return;
  at_prompt_ = false;
  interrupted_once_ = false;
  if (busy_) {
    queued_.push_back(std::move(line));
    return;
  }
  if (RunCommand(line)) return;
  buffer_ = buffer_.empty() ? std::move(line) : buffer_ + "\n" + line;
  EvaluateBuffer();
}

// The program stopped itself (hostloop.exit(), stdout closed by its reader):
// the session ends with it, without a result or a prompt, and the lines read
// after the one that stopped it do not run.
bool Repl::EndIfStopped() {
  if (!exited_ && runtime_->stopping()) Exit();
  return exited_;
}

void Repl::EvaluateBuffer() {
  if (!Evaluate(buffer_)) return;  // incomplete: the prompt becomes "... "
  if (!IsBlank(buffer_)) inputs_.push_back(std::move(buffer_));
  buffer_.clear();
}

// node's REPL commands: a line that is a '.' and a word, optionally followed
// by an argument (".load FILE"), and not a number (".5" is JavaScript). A
// known command works on any line, also inside a multi-line input (.break is
// for that); an unknown word is an error on a fresh line and JavaScript in a
// continued one (".toString())" after "(40").
bool Repl::RunCommand(const std::string& line) {
  const std::size_t start = line.find_first_not_of(" \t");
  if (start == std::string::npos || line[start] != '.' || start + 1 >= line.size() ||
      !std::isalpha(static_cast<unsigned char>(line[start + 1]))) {
    return false;
  }
  const std::size_t end = line.find_last_not_of(" \t\r") + 1;
  std::size_t word_end = line.find_first_of(" \t", start);
  if (word_end == std::string::npos || word_end > end) word_end = end;
  const std::string word = line.substr(start + 1, word_end - start - 1);
  std::string argument;
  if (const std::size_t from = line.find_first_not_of(" \t", word_end); from < end) {
    argument = line.substr(from, end - from);
  }
  if (word == "exit") {
    Exit();
  } else if (word == "help") {
    runtime_->Print(
        ".break   Discard the input typed so far (an unfinished multi-line input)\n"
        ".exit    Leave the REPL\n"
        ".help    Show these commands\n"
        ".load    Evaluate a file's text as one input: .load FILE\n"
        ".save    Write this session's inputs to a file: .save FILE\n"
        "\n"
        "Ctrl+C discards the current input (on an empty line, twice, leaves); Ctrl+D leaves.\n",
        1);
  } else if (word == "break") {
    buffer_.clear();
  } else if (word == "load" || word == "save") {
    if (argument.empty()) {
      runtime_->Print("." + word + " needs a file name: ." + word + " FILE\n", 2);
    } else if (word == "save") {
      std::string text;
      for (const std::string& input : inputs_) text += input + "\n";
      base::Result<void> saved = base::WriteStringToFile(argument, text);
      if (saved.ok()) {
        runtime_->Print("Session saved to: " + argument + "\n", 1);
      } else {
        runtime_->Print("Failed to save: " + saved.error().message + "\n", 2);
      }
    } else {
      base::Result<std::string> text = base::ReadFileToString(argument);
      if (!text.ok()) {
        runtime_->Print("Failed to load: " + text.error().message + "\n", 2);
      } else {
        base::StripUtf8Bom(text.value());
        buffer_ = buffer_.empty() ? std::move(text.value()) : buffer_ + "\n" + text.value();
        EvaluateBuffer();
      }
    }
  } else if (buffer_.empty()) {
    runtime_->Print("Invalid REPL keyword: ." + word + " (.help lists the commands)\n", 2);
  } else {
    return false;
  }
  return true;
}

void Repl::ProcessQueuedLines() {
  while (!busy_ && !exited_ && !queued_.empty()) {
    std::string line = std::move(queued_.front());
    queued_.pop_front();
    HandleLine(std::move(line));
  }
  if (eof_ && !busy_ && queued_.empty() && !exited_) ExitAfterQueuedWork();
}

// Whether the compile error `exception` says the input stopped early (it
// goes on on the next line), like node's REPL: a SyntaxError at the end of
// the input, or one of the errors V8 gives for a construct left open on the
// last line (a call's argument list, a try without its catch, a string
// continued with a backslash, a block comment). Anything else, a
// RangeError from input nested too deep included, is an error to report.
bool Repl::IsIncomplete(const std::string& source, v8::Local<v8::Value> exception,
                        v8::Local<v8::Message> message) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::Local<v8::Context> context = runtime_->context();
  if (message.IsEmpty() || !exception->IsNativeError()) return false;
  v8::Local<v8::Value> name;
  if (!exception.As<v8::Object>()
           ->Get(context, runtime::V8Symbol(isolate, "name"))
           .ToLocal(&name) ||
      runtime::StdString(isolate, name) != "SyntaxError") {
    return false;
  }
  const std::string text = runtime::StdString(isolate, message->Get());
  auto says = [&](const char* what) { return text.find(what) != std::string::npos; };
  if (says("Unexpected end of input") || says("Unterminated template")) return true;
  const std::size_t end = source.find_last_not_of(" \t\r\n") + 1;
  if (static_cast<std::size_t>(message->GetStartPosition()) >= end) return true;
  // The rest only when the error is on the last line.
  const int lines = 1 + static_cast<int>(std::count(source.begin(), source.begin() + end, '\n'));
  if (message->GetLineNumber(context).FromMaybe(0) != lines) return false;
  // ... and at the input's last token: `console.log(1 2)` is complete, and
  // an error (it asked for another line, and took it into the failed input).
  const bool at_last_token = static_cast<std::size_t>(message->GetEndPosition()) >= end;
  if (says("missing ) after argument list") || says("Missing catch or finally after try"))
    return at_last_token;
  if (says("Invalid or unexpected token")) {
    // An unterminated block comment (the error is where it opens, not a
    // "/*" inside a string), or a line continued with a backslash.
    const std::size_t open = source.rfind("/*");
    const bool open_comment = open != std::string::npos &&
                              source.find("*/", open + 2) == std::string::npos &&
                              static_cast<std::size_t>(message->GetStartPosition()) == open;
    return open_comment || (at_last_token && end > 0 && source[end - 1] == '\\');
  }
  return false;
}

bool Repl::Evaluate(const std::string& source) {
  if (IsBlank(source)) return true;
  v8::Isolate* isolate = runtime_->isolate();
  v8::HandleScope scope(isolate);
  v8::Local<v8::Context> context = runtime_->context();
  v8::Local<v8::Value> result;
  std::optional<EvaluatingScope> evaluating(std::in_place);
  // `{a: 1}` is an object literal to whoever types it (node, deno and
  // DevTools all try it in parentheses first); if that is not valid, the
  // input goes as written (a block), compiled again.
  const std::size_t first = source.find_first_not_of(" \t\r\n");
  const std::size_t last = source.find_last_not_of(" \t\r\n");
  bool evaluated = false;
  // Whether the input in parentheses stopped early: `{` alone on a line
  // starts an object literal that goes on (pasted JSON), even though as a
  // block its next line (`"a": 1`) is an error.
  bool wrapped_incomplete = false;
  if (first != std::string::npos && source[first] == '{' && source[last] != ';') {
    v8::TryCatch try_catch(isolate);
    const std::string wrapped = "(" + source.substr(first, last - first + 1) + ")";
    evaluated =
        v8::debug::EvaluateGlobal(isolate, runtime::V8String(isolate, wrapped),
                                  v8::debug::EvaluateGlobalMode::kDefault, /*repl_mode=*/true)
            .ToLocal(&result);
    if (EndIfStopped()) return true;
    // (Only a SyntaxError from compiling can come back here: it ran nothing.)
    if (!evaluated && try_catch.HasTerminated()) {
      evaluating.reset();
      TakeInterruption();
      return true;
    }
    if (!evaluated) {
      // Incomplete in parentheses: an error at the closing parenthesis
      // added here, or at the end.
      v8::Local<v8::Message> message = try_catch.Message();
      wrapped_incomplete =
          IsIncomplete(wrapped, try_catch.Exception(), message) ||
          (!message.IsEmpty() &&
           IsIncomplete(wrapped.substr(0, wrapped.size() - 1), try_catch.Exception(), message));
    }
  }
  if (!evaluated) {
    v8::TryCatch try_catch(isolate);
    if (!v8::debug::EvaluateGlobal(isolate, runtime::V8String(isolate, source),
                                   v8::debug::EvaluateGlobalMode::kDefault, /*repl_mode=*/true)
             .ToLocal(&result)) {
      evaluating.reset();
      if (EndIfStopped() || TakeInterruption()) return true;
      // Only compiling throws here (running settles the promise): a syntax
      // error at the end of the input means it goes on on the next line.
      if (try_catch.HasTerminated()) return true;
      v8::Local<v8::Message> message = try_catch.Message();
      if (wrapped_incomplete || IsIncomplete(source, try_catch.Exception(), message)) {
        return false;  // incomplete: wait for more lines
      }
      PrintException(try_catch.Exception(), message);
      return true;
    }
  }
  if (EndIfStopped()) return true;
  if (!result->IsPromise()) {
    evaluating.reset();
    if (TakeInterruption()) return true;
    PrintValue(result);
    return true;
  }
  // The input's promise: its completion value, or what it threw. The next
  // input waits for it (typeahead included).
  busy_ = true;
  // The reactions know which input they settle: one the REPL gave up on
  // (AbandonStuckAwait) must not print into a later one.
  const uint32_t id = ++pending_await_;
  v8::Local<v8::Array> data = v8::Array::New(isolate, 2);
  data->Set(context, 0, v8::External::New(isolate, this)).Check();
  data->Set(context, 1, v8::Integer::NewFromUnsigned(isolate, id)).Check();
  auto fulfilled = [](const v8::FunctionCallbackInfo<v8::Value>& info) {
    OnAwaitReaction(info, true);
  };
  auto rejected = [](const v8::FunctionCallbackInfo<v8::Value>& info) {
    OnAwaitReaction(info, false);
  };
  if (!runtime_->WhenSettled(result.As<v8::Promise>(), fulfilled, rejected, data)) {
    busy_ = false;
    evaluating.reset();
    TakeInterruption();
    return true;
  }
  // An input without a pending await settles in the microtasks that follow
  // it (run now rather than after this entry): its result prints before the
  // next prompt.
  isolate->PerformMicrotaskCheckpoint();
  evaluating.reset();
  TakeInterruption();
  return true;
}

// After an evaluation: if Ctrl-C terminated it, lets JS run again, reports
// the interruption like node, and gives up on the input's promise. Returns
// whether it was interrupted.
bool Repl::TakeInterruption() {
  if (!g_interrupted.exchange(false)) return false;
  runtime_->isolate()->CancelTerminateExecution();
  // On a terminal the same Ctrl-C's byte in the self-pipe is not a second
  // one. On piped input SIGINT ends the session, here: the lines already
  // read after the interrupted one must not run (they did, until the loop
  // got to the self-pipe).
  swallow_interrupt_ = interactive_;
  if (busy_) {
    busy_ = false;
    ++pending_await_;
  }
  runtime_->Print("Uncaught Error: Script execution was interrupted by SIGINT\n", 2);
  if (!interactive_) {
    ended_by_sigint_ = true;
    Exit();
  }
  return true;
}

void Repl::OnAwaitReaction(const v8::FunctionCallbackInfo<v8::Value>& info, bool fulfilled) {
  v8::Local<v8::Context> context = info.GetIsolate()->GetCurrentContext();
  v8::Local<v8::Array> data = info.Data().As<v8::Array>();
  auto* repl =
      static_cast<Repl*>(data->Get(context, 0).ToLocalChecked().As<v8::External>()->Value());
  const uint32_t id = data->Get(context, 1).ToLocalChecked()->Uint32Value(context).FromMaybe(0);
  if (repl->busy_ && id == repl->pending_await_) repl->OnAsyncSettled(fulfilled, info[0]);
}

void Repl::OnAsyncSettled(bool fulfilled, v8::Local<v8::Value> value) {
  busy_ = false;
  if (EndIfStopped()) return;
  if (fulfilled) {
    // REPL mode wraps the completion value ({'.repl_result': value}), so
    // that a promise as the value is shown, not adopted.
    v8::Isolate* isolate = runtime_->isolate();
    v8::Local<v8::Context> context = runtime_->context();
    v8::Local<v8::String> key = runtime::V8Symbol(isolate, ".repl_result");
    if (value->IsObject() &&
        value.As<v8::Object>()->HasOwnProperty(context, key).FromMaybe(false)) {
      value = value.As<v8::Object>()->Get(context, key).FromMaybe(value);
    }
    PrintValue(value);
  } else {
    PrintException(value, v8::Exception::CreateMessage(runtime_->isolate(), value));
  }
  // Input was paused only if the result took longer than the input's own
  // entry (OnReadlineLine resumes it otherwise).
  if (stdin_watch_ == 0) ResumeInput();
  ProcessQueuedLines();
}

void Repl::PrintValue(v8::Local<v8::Value> value) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::Local<v8::Function> inspect;
  v8::Local<v8::Value> text;
  v8::TryCatch try_catch(isolate);
  v8::Local<v8::Value> argv[] = {value};
  if (runtime_->InternalFunction("inspect").ToLocal(&inspect) &&
      inspect->Call(runtime_->context(), v8::Undefined(isolate), 1, argv).ToLocal(&text)) {
    runtime_->Print(runtime::StdString(isolate, text) + "\n", 1);
  }
}

void Repl::PrintException(v8::Local<v8::Value> exception, v8::Local<v8::Message> message) {
  runtime_->PrintError(exception, message, "Uncaught", /*source_context=*/false);
}

// The loop went idle while an input awaited a promise: nothing left can
// settle it (input is not read meanwhile). Reported as an error, and the
// session goes on (node's REPL would wait until Ctrl-C; its lines typed ahead
// were lost here, and the REPL ended with exit code 0).
bool Repl::AbandonStuckAwait() {
  if (EndIfStopped() || !busy_) return false;
  GiveUpAwait(
      "Uncaught Error: the input awaits a promise that nothing left in the program can settle\n");
  return true;
}

// Stops waiting for the input's promise (its reactions are then ignored),
// says why, and goes on with input.
void Repl::GiveUpAwait(std::string_view why) {
  busy_ = false;
  ++pending_await_;
  runtime_->Print(why, 2);
  if (stdin_watch_ == 0 && !eof_) ResumeInput();
  ProcessQueuedLines();
}

// End of input: the tasks the last inputs queued still run (an unhandled
// rejection's report is one, queued by the checkpoint after this entry: so
// the exit waits two hops of the ordered lane), later timers do not.
void Repl::ExitAfterQueuedWork() {
  if (exit_posted_ || exited_) return;
  exit_posted_ = true;
  looper_->Post([this] { looper_->Post([this] { Exit(); }); });
}

void Repl::Exit() {
  if (exited_) return;
  exited_ = true;
  at_prompt_ = false;
  runtime_->set_output_hook(nullptr);
  if (stdin_watch_ != 0) looper_->UnwatchFd(stdin_watch_);
  if (signal_watch_ != 0) looper_->UnwatchFd(signal_watch_);
  stdin_watch_ = signal_watch_ = 0;
  if (interactive_) rl_callback_handler_remove();
  if (restore_stdin_flags_ >= 0) ::fcntl(0, F_SETFL, std::exchange(restore_stdin_flags_, -1));
  g_restore_stdin_flags.store(-1);
  if (std::exchange(fatal_signal_handlers_, false)) SetFatalSignalHandlers(false);
  ::signal(SIGINT, SIG_DFL);
  if (interactive_) {
    ::signal(SIGWINCH, SIG_DFL);
    ::signal(SIGCONT, SIG_DFL);
  }
  // Like node's REPL: leaving it ends the program, pending timers included.
  looper_->Quit();
}

}  // namespace hostloop::cli
