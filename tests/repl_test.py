#!/usr/bin/env python3
"""Tests of the hostloop REPL (`hostloop` with no file; src/cli/repl.h).

    python3 tests/repl_test.py build/release/hostloop [NAME_SUBSTRING...]

Two groups of cases:

  pipe   stdin is a pipe: lines are read as they come and evaluated in order,
         timers run while a top-level await is pending, multi-line input,
         declarations made with top-level await persist, errors print
         "Uncaught ..." on stderr and the session goes on, `.exit` ends it at
         once (pending timers never fire), EOF ends it; the other commands
         (.help, .break, .load, .save) and '.' lines that are code.
  tmux   an interactive terminal, driven through tmux: keys are sent with
         `tmux send-keys`, the screen is read with `tmux capture-pane -p` and
         polled until the expected text appears (generous bounds, never a
         fixed sleep as an assertion). Line editing, history, timer output
         while the prompt waits, Ctrl-C, Ctrl-D, `.exit`.

Every tmux case runs in its own session on a tmux server private to this run
(`tmux -L <unique socket> -f /dev/null`), which is killed at the end, also on
failure. Without tmux the tmux cases are skipped with a note (the pipe cases
still run). Whatever a case expects, a crash fails it (see cli_test.py).
Stdlib only.
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, Optional

from crash_markers import CRASH_MARKERS

WAIT_S = 20.0  # bound for anything to appear (sanitizer builds are slow)


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------
# Pipe cases
# ---------------------------------------------------------------------------

@dataclass
class Piped:
    code: Optional[int]  # None: still running when the bound passed (killed)
    out: str
    err: str


def run_piped(hostloop: str, lines: list, close_stdin: bool = True, timeout: float = 30.0,
              before_close: Optional[Callable[[subprocess.Popen], None]] = None) -> Piped:
    """Writes `lines` (each followed by a newline) to the REPL's stdin; closes
    stdin when close_stdin (EOF), else keeps it open, so that the REPL must
    end by itself. Returns what it printed."""
    cwd = tempfile.mkdtemp(prefix="hostloop-repl-")
    try:
        proc = subprocess.Popen([hostloop], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        proc.stdin.write("".join(line + "\n" for line in lines).encode())
        proc.stdin.flush()
        if before_close is not None:
            before_close(proc)
        try:
            out, err = proc.communicate(timeout=timeout) if close_stdin else _wait_open(proc, timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            code = None
        return Piped(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


def _wait_open(proc: subprocess.Popen, timeout: float):
    """Waits for the process to exit while its stdin stays open."""
    proc.wait(timeout=timeout)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    return out, err


def check_clean_exit(result: Piped, what: str = "the REPL") -> None:
    if result.code is None:
        raise Failure(f"{what} did not exit within the bound (killed)\n" + show(result))
    if result.code < 0 or result.code >= 128:
        raise Failure(f"{what} crashed: exit status {result.code}\n" + show(result))
    for marker in CRASH_MARKERS:
        if marker in result.err:
            raise Failure(f"crash report on stderr: {marker!r}\n" + show(result))
    if result.code != 0:
        raise Failure(f"{what} exited with {result.code}, expected 0\n" + show(result))


def show(result: Piped) -> str:
    return f"---- stdout ----\n{result.out[-3000:]}\n---- stderr ----\n{result.err[-3000:]}"


def lines_of(text: str) -> list:
    return [line.rstrip("\r") for line in text.splitlines()]


def expect_in_order(text: str, wanted: list, label: str, result: Piped) -> None:
    """Each item (a whole line, or a compiled regex searched in the text) must
    appear after the previous one."""
    position = 0
    for item in wanted:
        if isinstance(item, re.Pattern):
            match = item.search(text, position)
            if match is None:
                raise Failure(f"{label} lacks (in order) /{item.pattern}/\n" + show(result))
            position = match.end()
        else:
            match = re.compile("^" + re.escape(item) + "$", re.MULTILINE).search(text, position)
            if match is None:
                raise Failure(f"{label} lacks (in order) the line {item!r}\n" + show(result))
            position = match.end()


def pipe_timer_then_await(hostloop: str) -> None:
    """A timer set on one line fires while a later top-level await is pending;
    the input after the await waits for it."""
    result = run_piped(hostloop, [
        "setTimeout(() => console.log('timer fired'), 20)",
        "await new Promise(r => setTimeout(() => r('awaited'), 200))",
        "'after'",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["timer fired", "'awaited'", "'after'"], "stdout", result)
    out = lines_of(result.out)
    if out[-1:] != ["'after'"]:
        raise Failure(f"'after' is not the last line of stdout\n" + show(result))
    if out.count("timer fired") != 1:
        raise Failure("the timer printed more or less than once\n" + show(result))


def pipe_multiline_function(hostloop: str) -> None:
    result = run_piped(hostloop, [
        "function add(a,",
        "    b) {",
        "  return a * 10 + b; }",
        "add(4, 2)",
        "const t = `multi",
        "line`",
        "t.split('\\n').length",
        "({",
        "  key: 'value',",
        "}).key",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["42", "2", "'value'"], "stdout", result)
    if "SyntaxError" in result.err or "Uncaught" in result.err:
        raise Failure("an incomplete input was evaluated too early\n" + show(result))


def pipe_await_declaration(hostloop: str) -> None:
    result = run_piped(hostloop, [
        "const x = await Promise.resolve(41)",
        "x + 1",
        "let y = await new Promise(r => setTimeout(() => r(100), 10))",
        "y + x",
        "let z = 5",
        "z * 2",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["42", "141", "10"], "stdout", result)
    if result.err.strip():
        raise Failure("unexpected stderr\n" + show(result))


def pipe_await_statements(hostloop: str) -> None:
    """Inputs evaluate in V8's REPL mode: the completion value of an input
    with await that is not one expression (it printed undefined), destructuring
    declarations with await (they were not kept), let redeclared by a later
    input, a promise as the value shown rather than awaited, and error
    positions at the input's own line (the async wrapper shifted them)."""
    result = run_piped(hostloop, [
        "await 1; 6",
        "1; await 2",
        "let a = await 3; a",
        "const {b, c: [d]} = await Promise.resolve({b: 4, c: [5]})",
        "b + d",
        "let a = 'redeclared'",
        "a",
        "Promise.resolve(7)",
        "({'.repl_result': 8})",
        "if (true) {",
        "  await null; throw new Error('line two') }",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["6", "2", "3", "9", "'redeclared'", "Promise { 7 }",
                                 "{ '.repl_result': 8 }"], "stdout", result)
    expect_in_order(result.err, [re.compile(r"^Uncaught Error: line two\n\s+at \S*:2:\d+", re.M)], "stderr", result)


def pipe_rejection_before_eof(hostloop: str) -> None:
    """An unhandled rejection from the last inputs is reported before the
    session ends at EOF (its report is a task; EOF used to end the loop
    first, and the rejection went unreported)."""
    result = run_piped(hostloop, [
        "Promise.reject(new Error('last words')); 'value'",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["'value'"], "stdout", result)
    expect_in_order(result.err, [re.compile(r"^Uncaught \(in promise\) Error: last words$", re.M)],
                    "stderr", result)


def pipe_incomplete_inputs(hostloop: str) -> None:
    """Inputs left open on their last line continue on the next (a call's
    arguments, try without catch, a string continued with a backslash, a
    block comment: each was an error on its first line), while input nested
    too deep for the parser is a RangeError reported at once (it was taken
    for incomplete and swallowed every later line)."""
    result = run_piped(hostloop, [
        "console.log('a'", ", 'b')",
        "try { 1 }", "catch (e) { 2 }",
        "'abc\\", "def'",
        "/* open", "*/ 7",
        "[".join([""] * 2400) + "]".join([""] * 2400),
        "'after the deep one'",
        "let broken = = 1",
        "'after the syntax error'",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["a b", "1", "'abcdef'", "7", "'after the deep one'",
                                 "'after the syntax error'"], "stdout", result)
    expect_in_order(result.err, [re.compile(r"^Uncaught RangeError: Maximum call stack size exceeded$", re.M),
                                 re.compile(r"^Uncaught SyntaxError: Unexpected token '='$", re.M)],
                    "stderr", result)


def pipe_complete_lines_with_errors(hostloop: str) -> None:
    """A complete line with a syntax error is reported at once, even when V8
    names an error that can also mean "unfinished" (it asked for another
    line and swallowed it into the failed input): a call with a bad argument
    list, and "/*" inside a string followed by a bad token."""
    result = run_piped(hostloop, ["console.log(1 2)", "'after ' + 1", "\"/*\" @", "'after ' + 2"])
    check_clean_exit(result)
    expect_in_order(result.out, ["'after 1'", "'after 2'"], "stdout", result)
    expect_in_order(result.err, [re.compile(r"^Uncaught SyntaxError: missing \) after argument list$", re.M),
                                 re.compile(r"^Uncaught SyntaxError: Invalid or unexpected token$", re.M)],
                    "stderr", result)


def pipe_await_that_never_settles(hostloop: str) -> None:
    """An input awaiting a promise nothing can settle: once the loop is idle
    the REPL says so and goes on with the next lines (it ended at once,
    exit code 0, and the lines after it were lost)."""
    result = run_piped(hostloop, [
        "await new Promise(() => {})",
        "1 + 2",
        "await new Promise((resolve) => setTimeout(resolve, 20)); 'a timer settles this one'",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["3", "'a timer settles this one'"], "stdout", result)
    expect_in_order(result.err, [re.compile(r"^Uncaught Error: the input awaits a promise that nothing left", re.M)],
                    "stderr", result)


def pipe_object_literal_input(hostloop: str) -> None:
    """An input that starts with `{` is an object literal if it can be one
    (node, deno and DevTools agree; it was a block: `{a: 1}` printed 1), else
    a block; a trailing `;` keeps it a block."""
    result = run_piped(hostloop, ["{a: 1}", "{ b: [1, 2] }", "{ let x = 5; x * 2 }", "{a: 1};",
                                  # `{` alone on a line, as pasted JSON starts: the
                                  # object goes on (as a block, `"c": 3` was a
                                  # SyntaxError at once)
                                  "{", '"c": 3', "}", "{", "  d: 4,", "  e: 5", "}",
                                  "{", "}"])
    check_clean_exit(result)
    expect_in_order(result.out, ["{ a: 1 }", "{ b: [ 1, 2 ] }", "10", "1", "{ c: 3 }",
                                 "{ d: 4, e: 5 }", "{}"], "stdout", result)
    if "Uncaught" in result.err:
        raise Failure("an error was reported\n" + show(result))


def pipe_exception_continues(hostloop: str) -> None:
    result = run_piped(hostloop, [
        "throw new Error('boom')",
        "'still here'",
        "null.property",
        "await Promise.reject(new Error('async boom'))",
        "'still here 2'",
        "throw 'a string'",
        "'the end'",
    ])
    check_clean_exit(result)
    expect_in_order(result.err, [re.compile(r"^Uncaught Error: boom$", re.M),
                                 re.compile(r"^Uncaught TypeError: Cannot read propert", re.M),
                                 re.compile(r"^Uncaught Error: async boom$", re.M),
                                 re.compile(r"^Uncaught 'a string'$", re.M)], "stderr", result)
    expect_in_order(result.out, ["'still here'", "'still here 2'", "'the end'"], "stdout", result)
    if "Uncaught" in result.out:
        raise Failure("an error report went to stdout\n" + show(result))


def pipe_syntax_error_continues(hostloop: str) -> None:
    """A syntax error is an exception like any other: "Uncaught SyntaxError: ..."
    on stderr (repl.h: errors print as "Uncaught ..."; node's REPL prints
    "Uncaught SyntaxError: Unexpected token '*'"), and the session goes on."""
    result = run_piped(hostloop, ["1 +* 2", "'after the syntax error'"])
    check_clean_exit(result)
    expect_in_order(result.out, ["'after the syntax error'"], "stdout", result)
    expect_in_order(result.err, [re.compile(r"^Uncaught SyntaxError: Unexpected token '\*'$", re.M)],
                    "stderr", result)


def pipe_exit_at_once(hostloop: str) -> None:
    """`.exit` ends the session at once, with stdin still open: a pending timer
    never fires, later lines are not evaluated."""
    started = time.monotonic()
    result = run_piped(hostloop, [
        "setTimeout(() => console.log('late timer'), 30000)",
        "'before exit'",
        ".exit",
        "'after exit'",
    ], close_stdin=False, timeout=20)
    took = time.monotonic() - started
    check_clean_exit(result, "the REPL after .exit (stdin still open)")
    expect_in_order(result.out, ["'before exit'"], "stdout", result)
    for unwanted in ("late timer", "after exit"):
        if unwanted in result.out:
            raise Failure(f"stdout contains {unwanted!r}\n" + show(result))
    if took > 15:
        raise Failure(f".exit took {took:.1f} s")


def pipe_program_exit(hostloop: str) -> None:
    """`hostloop.exit(4)` ends the session with code 4 at once, with stdin
    still open: no result is printed for it, later lines are not evaluated,
    and an await that the exit interrupts ends the session too."""
    for lines, before in (
        (["'before exit'", "hostloop.exit(4)", "'after exit'"], "'before exit'"),
        (["'before exit'", "await null; hostloop.exit(4)", "'after exit'"], "'before exit'"),
        (["setTimeout(() => hostloop.exit(4), 50), 'before exit'",
          "await new Promise(r => setTimeout(r, 30000))", "'after exit'"], "'before exit'"),
    ):
        result = run_piped(hostloop, lines, close_stdin=False, timeout=20)
        if result.code != 4:
            raise Failure(f"the REPL exited with {result.code}, expected 4 (hostloop.exit(4))\n"
                          + show(result))
        expect_in_order(result.out, [before], "stdout", result)
        if lines_of(result.out)[-1:] != [before] or "after exit" in result.out:
            raise Failure("output after hostloop.exit(4)\n" + show(result))
        if "Uncaught" in result.err:
            raise Failure("an error reported for hostloop.exit(4)\n" + show(result))


def pipe_exit_with_spaces(hostloop: str) -> None:
    result = run_piped(hostloop, ["'one'", "  .exit  ", "'two'"], close_stdin=False, timeout=20)
    check_clean_exit(result, "the REPL after '  .exit  '")
    if "'two'" in result.out:
        raise Failure("a line after .exit was evaluated\n" + show(result))


def pipe_eof_ends(hostloop: str) -> None:
    result = run_piped(hostloop, ["1 + 1"])
    check_clean_exit(result, "the REPL at EOF")
    expect_in_order(result.out, ["2"], "stdout", result)
    # No input at all.
    empty = run_piped(hostloop, [])
    check_clean_exit(empty, "the REPL on empty input")
    # A last line without a newline is still evaluated.
    cwd = tempfile.mkdtemp(prefix="hostloop-repl-")
    try:
        proc = subprocess.run([hostloop], cwd=cwd, input=b"'no newline'", capture_output=True, timeout=30)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    partial = Piped(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    check_clean_exit(partial, "the REPL at EOF after a line without a newline")
    expect_in_order(partial.out, ["'no newline'"], "stdout", partial)


def pipe_eof_during_await(hostloop: str) -> None:
    """EOF while a top-level await is pending: the result still prints, and the
    lines queued behind it still run, then the REPL ends."""
    result = run_piped(hostloop, [
        "await new Promise(r => setTimeout(() => r('late value'), 150))",
        "'queued after it'",
    ])
    check_clean_exit(result)
    expect_in_order(result.out, ["'late value'", "'queued after it'"], "stdout", result)


def check_sigint_death(result: Piped, what: str) -> None:
    """The process ended as SIGINT ends one (the shell sees 130), without a
    crash report: a session a SIGINT ended did not succeed (it exited 0)."""
    if result.code is None:
        raise Failure(f"{what} did not exit within the bound (killed)\n" + show(result))
    for marker in CRASH_MARKERS:
        if marker in result.err:
            raise Failure(f"crash report on stderr: {marker!r}\n" + show(result))
    if result.code != -signal.SIGINT:
        raise Failure(f"{what}: expected death by SIGINT, got exit {result.code}\n" + show(result))


def pipe_sigint_ends(hostloop: str) -> None:
    """On piped input, SIGINT ends the session (repl.cc: non-interactive),
    and the process ends as SIGINT ends one (README: 128 + the signal)."""
    def interrupt(proc):
        deadline = time.monotonic() + WAIT_S
        # The first result shows the REPL is running (its SIGINT handler set).
        line = proc.stdout.readline()
        if line.strip() != b"'ready'" or time.monotonic() > deadline:
            raise Failure(f"no 'ready' from the REPL (got {line!r})")
        proc.send_signal(signal.SIGINT)

    result = run_piped(hostloop, ["'ready'", "setTimeout(() => console.log('late'), 30000)"],
                       close_stdin=False, timeout=20, before_close=interrupt)
    check_sigint_death(result, "the REPL after SIGINT")
    if "late" in result.out:
        raise Failure("the timer fired\n" + show(result))


def pipe_sigint_during_evaluation_ends(hostloop: str) -> None:
    """On piped input, SIGINT during a runaway evaluation interrupts it and
    ends the session: the lines read after it do not run."""
    def interrupt(proc):
        # stderr is written at once: once this line is there, the input that
        # wrote it is spinning (stdin already holds the lines after it).
        line = proc.stderr.readline()
        if line.strip() != b"spinning":
            raise Failure(f"no 'spinning' from the REPL (got {line!r})")
        proc.send_signal(signal.SIGINT)

    result = run_piped(hostloop, ["console.error('spin' + 'ning'); for (;;) {}", "console.log('after' + ' the loop')",
                                  "setTimeout(() => console.log('late'), 100)"],
                       close_stdin=False, timeout=20, before_close=interrupt)
    check_sigint_death(result, "the REPL after SIGINT during an evaluation")
    expect_in_order(result.err, [re.compile(r"^Uncaught Error: Script execution was interrupted by SIGINT$", re.M)],
                    "stderr", result)
    for unwanted in ("after the loop", "late"):
        if unwanted in result.out:
            raise Failure(f"a line after the interrupted one ran ({unwanted!r})\n" + show(result))


def pipe_second_sigint_ends_a_runaway_timer(hostloop: str) -> None:
    """A timer callback that never returns keeps the loop from reading the
    first Ctrl-C (only an input's own evaluation is interrupted): a second
    one ends the process as SIGINT does (node's piped REPL dies at the
    first). It hung for good."""
    def interrupt(proc):
        line = proc.stderr.readline()
        if line.strip() != b"spinning":
            raise Failure(f"no 'spinning' from the timer (got {line!r})")
        proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)

    result = run_piped(hostloop, ["setTimeout(() => { console.error('spin' + 'ning'); for (;;) {} }, 10); 1"],
                       close_stdin=False, timeout=20, before_close=interrupt)
    if result.code != -signal.SIGINT:
        raise Failure(f"expected death by SIGINT, got exit {result.code}\n" + show(result))


def pipe_closed_stdout(hostloop: str) -> None:
    """stdout closed by its reader while a piped session prints: the runtime
    stops (exit 1, as a program does), and the session ends without touching
    the runtime it outlived (ASan: a use after free in Repl::Exit)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.Popen([hostloop], stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    try:
        proc.stdin.write(b"for (let i = 0; i < 1e5; i++) console.log(i)\n")
        proc.stdin.flush()
        # stdin stays open: the session must end because the runtime stopped.
        err = proc.stderr.read()
        code = proc.wait(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise Failure("the REPL kept running after stdout was closed")
    finally:
        proc.stdin.close()
    result = Piped(code, "", err.decode("utf-8", "replace"))
    for marker in CRASH_MARKERS:
        if marker in result.err:
            raise Failure(f"crash report on stderr: {marker!r}\n" + show(result))
    if code != 1 or "stdout was closed by its reader" not in result.err:
        raise Failure(f"exit {code}, expected 1 with the EPIPE note\n" + show(result))


def pipe_restores_stdin_flags(hostloop: str) -> None:
    """The session makes stdin non-blocking while it reads it and restores
    it at the end: the open file description is shared (with a terminal,
    when only stdout is piped), and whoever reads it next must block."""
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen([hostloop], stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.write(write_end, b"1 + 1\n")
        os.close(write_end)
        write_end = None
        out, err = proc.communicate(timeout=WAIT_S)
        result = Piped(proc.returncode, out.decode(), err.decode())
        check_clean_exit(result)
        if not os.get_blocking(read_end):
            raise Failure("stdin was left non-blocking (O_NONBLOCK) after the REPL exited\n" + show(result))
    finally:
        os.close(read_end)
        if write_end is not None:
            os.close(write_end)


def pipe_closed_stdin(hostloop: str) -> None:
    """A closed stdin (`hostloop <&-`) reads as /dev/null: the session ends at
    once with exit code 0 (the epoll fd took number 0, and the REPL failed
    to watch its own epoll fd as stdin)."""
    proc = subprocess.run([hostloop], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          preexec_fn=lambda: os.close(0), timeout=WAIT_S)
    check_clean_exit(Piped(proc.returncode, proc.stdout.decode(), proc.stderr.decode()), "the REPL with stdin closed")


def pipe_help_lists_commands(hostloop: str) -> None:
    result = run_piped(hostloop, [".help", "'after help'"])
    check_clean_exit(result)
    commands = [re.compile(rf"^\.{name} +\S", re.M) for name in ("break", "exit", "help", "load", "save")]
    expect_in_order(result.out, commands + ["'after help'"], "stdout", result)


def pipe_break_discards_partial_input(hostloop: str) -> None:
    """`.break` drops an unfinished multi-line input: the function typed so
    far is never defined, and the next line is a fresh input."""
    result = run_piped(hostloop, ["function broken() {", "  return 1;", ".break", "typeof broken", "'next'"])
    check_clean_exit(result)
    expect_in_order(result.out, ["'undefined'", "'next'"], "stdout", result)
    if result.err.strip():
        raise Failure("unexpected stderr\n" + show(result))


def pipe_load_and_save(hostloop: str) -> None:
    """`.load FILE` evaluates the file's text as one input (its declarations
    stay, its completion value prints); `.save FILE` writes every input so far,
    the loaded text included; a file that cannot be read is an error and the
    session goes on."""
    cwd = tempfile.mkdtemp(prefix="hostloop-repl-")
    try:
        loaded = os.path.join(cwd, "load me.js")
        saved = os.path.join(cwd, "session.js")
        with open(loaded, "w", encoding="utf-8") as f:
            f.write("const fromFile = 21;\nfunction twice(x) {\n  return 2 * x;\n}\ntwice(fromFile)\n")
        result = run_piped(hostloop, [f".load {loaded}", "fromFile + 1", f".load {cwd}/missing.js",
                                      f".save {saved}", "'after save'"])
        check_clean_exit(result)
        expect_in_order(result.out, ["42", "22", f"Session saved to: {saved}", "'after save'"], "stdout", result)
        expect_in_order(result.err, [re.compile(r"^Failed to load: .*missing\.js: No such file or directory$", re.M)],
                        "stderr", result)
        with open(saved, encoding="utf-8") as f:
            text = f.read()
        for wanted in ("const fromFile = 21;", "return 2 * x;", "fromFile + 1\n"):
            if wanted not in text:
                raise Failure(f"the saved session lacks {wanted!r}:\n{text}")
        if ".load" in text or ".save" in text:
            raise Failure(f"the saved session contains REPL commands:\n{text}")
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


def pipe_commands_and_code(hostloop: str) -> None:
    """A '.word' on a fresh line that is no command is an error; '.5' is a
    number; in a continued input a line starting with '.' is code."""
    result = run_piped(hostloop, [".nosuchcommand", ".5", "(40", ".toString())", "'end'"])
    check_clean_exit(result)
    expect_in_order(result.out, ["0.5", "'40'", "'end'"], "stdout", result)
    expect_in_order(result.err, [re.compile(r"^Invalid REPL keyword: \.nosuchcommand", re.M)], "stderr", result)
    if "Uncaught" in result.err:
        raise Failure("a line was evaluated as JavaScript by mistake\n" + show(result))


PIPE_CASES = [
    ("pipe: a timer fires during a pending top-level await; the next line waits", pipe_timer_then_await),
    ("pipe: multi-line input (function, template, object literal)", pipe_multiline_function),
    ("pipe: declarations with top-level await persist (const x = await ...; x + 1)", pipe_await_declaration),
    ("pipe: REPL mode: completion values, destructuring with await, redeclared let", pipe_await_statements),
    ("pipe: an unhandled rejection from the last input is reported before EOF ends it", pipe_rejection_before_eof),
    ("pipe: inputs left open continue; too deep or wrong inputs are errors at once", pipe_incomplete_inputs),
    ("pipe: an await nothing can settle is reported and the next lines run", pipe_await_that_never_settles),
    ("pipe: complete lines with syntax errors are reported at once, not continued",
     pipe_complete_lines_with_errors),
    ("pipe: `{a: 1}` is an object literal, `{ stmt }` a block", pipe_object_literal_input),
    ("pipe: an exception prints Uncaught on stderr and the session continues", pipe_exception_continues),
    ("pipe: a syntax error prints Uncaught SyntaxError and the session continues", pipe_syntax_error_continues),
    ("pipe: .exit ends at once (stdin open, a pending timer never prints)", pipe_exit_at_once),
    ("pipe: hostloop.exit(4) ends the session with 4 at once", pipe_program_exit),
    ("pipe: .exit with surrounding spaces", pipe_exit_with_spaces),
    ("pipe: EOF ends the session", pipe_eof_ends),
    ("pipe: EOF during a pending await: the result and queued lines still come", pipe_eof_during_await),
    ("pipe: SIGINT ends a piped session (as SIGINT ends a process)", pipe_sigint_ends),
    ("pipe: SIGINT during an evaluation ends a piped session; later lines do not run",
     pipe_sigint_during_evaluation_ends),
    ("pipe: a second SIGINT ends a session whose timer never returns", pipe_second_sigint_ends_a_runaway_timer),
    ("pipe: stdout closed by its reader ends the session (exit 1), no crash", pipe_closed_stdout),
    ("pipe: stdin's blocking mode is restored at the end", pipe_restores_stdin_flags),
    ("pipe: a closed stdin reads as /dev/null", pipe_closed_stdin),
    ("pipe: .help lists the REPL commands", pipe_help_lists_commands),
    ("pipe: .break drops an unfinished multi-line input", pipe_break_discards_partial_input),
    ("pipe: .load evaluates a file as one input, .save writes the session's inputs", pipe_load_and_save),
    ("pipe: an unknown .word is an error; .5 and continued '.' lines are code", pipe_commands_and_code),
]


# ---------------------------------------------------------------------------
# tmux cases
# ---------------------------------------------------------------------------

class Tmux:
    """One tmux session running the REPL, on this run's private tmux server.
    The pane's command is `HOSTLOOP; echo EXITED rc=$?; sleep 30`, so the
    screen stays readable after the REPL exits."""

    socket = f"hostloop-repl-test-{os.getpid()}"
    counter = 0

    def __init__(self, hostloop: str, cwd: str, command: str = ""):
        Tmux.counter += 1
        self.name = f"repl{Tmux.counter}"
        self.cwd = cwd
        command = command or f"{shlex.quote(hostloop)}; echo EXITED rc=$?; sleep 30"
        self.tmux("new-session", "-d", "-s", self.name, "-x", "120", "-y", "40", "-c", cwd, command)
        self.log = []  # screens captured at the checkpoints, for failure messages

    @staticmethod
    def tmux(*args, check=True) -> str:
        proc = subprocess.run(["tmux", "-L", Tmux.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, timeout=30)
        if check and proc.returncode != 0:
            raise Failure(f"tmux {' '.join(args)} failed: {proc.stderr.strip()}")
        return proc.stdout

    socket_path = None

    @staticmethod
    def start_server() -> None:
        """Starts the private server with a session that keeps it alive between
        cases (a server whose last session ends exits, and a new session
        started at that moment fails)."""
        Tmux.tmux("new-session", "-d", "-s", "keepalive", "sleep 3600")
        Tmux.socket_path = Tmux.tmux("display-message", "-p", "-t", "keepalive", "#{socket_path}").strip()

    @staticmethod
    def kill_server() -> None:
        subprocess.run(["tmux", "-L", Tmux.socket, "kill-server"], capture_output=True, timeout=30)
        if Tmux.socket_path:
            try:
                os.unlink(Tmux.socket_path)
            except OSError:
                pass

    def type(self, text: str) -> None:
        """Types text literally (no key names)."""
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def keys(self, *names: str) -> None:
        """Sends named keys: Enter, Left, BSpace, Up, C-c, C-d, ..."""
        self.tmux("send-keys", "-t", self.name, *names)

    def screen(self) -> str:
        """The visible screen, trailing spaces and trailing empty lines removed."""
        lines = [line.rstrip() for line in self.tmux("capture-pane", "-p", "-t", self.name).splitlines()]
        return "\n".join(lines).rstrip("\n")

    def kill(self) -> None:
        self.tmux("kill-session", "-t", self.name, check=False)

    def wait_for(self, predicate: Callable[[str], bool], what: str, timeout: float = WAIT_S) -> str:
        """Polls the screen until predicate(screen) holds; fails with the last
        screen after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if predicate(text):
                return text
            for marker in CRASH_MARKERS:
                if marker in text:
                    raise Failure(f"crash report on the screen while waiting for {what}: {marker!r}\n"
                                  f"---- screen ----\n{text}")
            if re.search(r"^EXITED rc=(?!0$)", text, re.M):
                raise Failure(f"the REPL exited with an error while waiting for {what}\n---- screen ----\n{text}")
            if time.monotonic() > deadline:
                raise Failure(f"timed out after {timeout:.0f} s waiting for {what}\n---- screen ----\n{text}")
            time.sleep(0.05)

    def wait_line(self, pattern: str, what: str, after: int = 0, timeout: float = WAIT_S) -> str:
        """Waits for a whole screen line matching `pattern` (a regex), found
        among the lines from index `after` on."""
        regex = re.compile(pattern)
        return self.wait_for(lambda s: any(regex.fullmatch(l) for l in s.splitlines()[after:]), what, timeout)

    def line_count(self) -> int:
        """The number of lines up to the last non-empty one."""
        return len(self.screen().splitlines())

    def wait_prompt(self, typed: str = "", what: str = "") -> str:
        """Waits until the last non-empty line is the prompt followed by `typed`."""
        want = ("> " + typed).rstrip()
        return self.wait_for(lambda s: last_line(s) == want, what or f"the prompt line {want!r}")

    def snapshot(self, label: str) -> None:
        self.log.append(f"---- {label} ----\n{self.screen()}")


def last_line(screen: str) -> str:
    lines = [line for line in screen.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def start_repl(hostloop: str, cwd: str) -> Tmux:
    session = Tmux(hostloop, cwd)
    session.wait_for(lambda s: "Welcome to hostloop" in s and last_line(s) == ">", "the banner and the first prompt")
    return session


CAPTURES = []  # (label, screen) shown at the end for the record


def tmux_result_after_enter(session: Tmux) -> None:
    session.type("6 * 7")
    session.wait_prompt("6 * 7")
    session.keys("Enter")
    session.wait_line(r"42", "the result 42")
    session.wait_prompt(what="a new prompt after the result")


def tmux_non_ascii_input(session: Tmux) -> None:
    """Non-ASCII characters reach the evaluator, whatever the locale (libedit
    dropped every non-ASCII byte in the "C" locale: 'héllo' became 'hllo')."""
    session.type("'h\u00e9llo \U0001F600'.length")
    session.keys("Enter")
    session.wait_line(r"^8$", "the length 8 (h, e-acute, l, l, o, space, two code units)")
    session.wait_prompt(what="a new prompt after the result")


def tmux_line_editing(session: Tmux) -> None:
    # Left twice puts the cursor before " 2"; BSpace deletes the "+"; "*" goes
    # in its place: "10 + 2" becomes "10 * 2" (20; unedited it would be 12).
    session.type("10 + 2")
    session.wait_prompt("10 + 2")
    session.keys("Left", "Left", "BSpace")
    session.wait_prompt("10  2", "the line after Left, Left, BSpace")
    session.type("*")
    screen = session.wait_prompt("10 * 2", "the edited line '> 10 * 2'")
    CAPTURES.append(("line editing: typed '10 + 2', Left Left BSpace, typed '*'", screen))
    session.keys("Enter")
    session.wait_line(r"20", "the result of the edited line, 20")
    # Ctrl-A (start of line) and Ctrl-E (end of line): "40 + 5" -> "140 + 50".
    session.wait_prompt()
    session.type("40 + 5")
    session.wait_prompt("40 + 5")
    session.keys("C-a")
    session.type("1")
    session.wait_prompt("140 + 5", "the line after Ctrl-A and '1'")
    session.keys("C-e")
    session.type("0")
    screen = session.wait_prompt("140 + 50", "the line after Ctrl-E and '0'")
    CAPTURES.append(("line editing: typed '40 + 5', Ctrl-A, '1', Ctrl-E, '0'", screen))
    session.keys("Enter")
    session.wait_line(r"190", "the result 190")


def tmux_history(session: Tmux) -> None:
    line = "globalThis.n = (globalThis.n ?? 0) + 1"
    session.type(line)
    session.wait_prompt(line)
    session.keys("Enter")
    session.wait_line(r"1", "the first result, 1")
    session.wait_prompt(what="the prompt after the first result")
    session.type("'something else'")
    session.keys("Enter")
    session.wait_line(r"'something else'", "the second input's result")
    session.wait_prompt()
    session.keys("Up", "Up")
    screen = session.wait_prompt(line, "Up, Up recalling the first line")
    CAPTURES.append(("history: Up, Up recalls the first line", screen))
    session.keys("Enter")
    session.wait_line(r"2", "the re-evaluated line's result, 2")
    session.wait_prompt()
    session.keys("Up")
    session.wait_prompt(line, "Up recalling the same line again")
    session.keys("Enter")
    session.wait_line(r"3", "the result 3")


def tmux_timer_output_while_waiting(session: Tmux) -> None:
    # The message is built at run time, so the echoed input does not contain it.
    session.type("setTimeout(() => console.log('TIMER' + '-OUT'), 1500)")
    session.keys("Enter")
    session.wait_prompt(what="the prompt after scheduling the timer")
    # Typed, not entered: the timer fires while the prompt waits with it.
    session.type("'half typed")
    session.wait_prompt("'half typed")
    screen = session.wait_line(r"TIMER-OUT", "the timer's output while the prompt waits")
    # The prompt and the partial input are drawn again below the output.
    screen = session.wait_prompt("'half typed", "the prompt and the partial input redrawn after the timer's output")
    lines = screen.splitlines()
    out_index = max(i for i, l in enumerate(lines) if l == "TIMER-OUT")
    if not any(l == "> 'half typed" for l in lines[out_index + 1:]):
        raise Failure("the prompt was not redrawn below the timer's output\n" + screen)
    CAPTURES.append(("timer output while the prompt waits with partial input", screen))
    session.type("'")
    session.keys("Enter")
    session.wait_line(r"'half typed'", "the completed input's result")


def tmux_worker_output_while_waiting(session: Tmux) -> None:
    """A worker's console output, while the prompt waits with partial input,
    is written by the main thread around the prompt like a timer's (the
    worker hands it over: Runtime::forwards_output), instead of over the
    prompt line with no prompt after it."""
    with open(os.path.join(session.cwd, "talker.mjs"), "w", encoding="utf-8") as f:
        f.write("setTimeout(() => { console.log('WORKER' + '-OUT'); console.error('WORKER' + '-ERR'); }, 1500);\n")
    session.type("new Worker('./talker.mjs', { type: 'module' }), 'started'")
    session.keys("Enter")
    session.wait_line(r"'started'", "the worker started")
    session.type("'typing")
    session.wait_prompt("'typing")
    session.wait_line(r"WORKER-ERR", "the worker's output while the prompt waits")
    screen = session.wait_prompt("'typing", "the prompt and the partial input redrawn after the worker's output")
    lines = screen.splitlines()
    out_index = lines.index("WORKER-OUT")
    if lines[out_index + 1] != "WORKER-ERR" or not any(l == "> 'typing" for l in lines[out_index + 2:]):
        raise Failure("the worker's output was not written on lines of its own, with the prompt redrawn below\n"
                      + screen)
    CAPTURES.append(("worker output while the prompt waits with partial input", screen))
    session.type("'")
    session.keys("Enter")
    session.wait_line(r"'typing'", "the completed input's result")


def tmux_ctrl_c_clears_partial_input(session: Tmux) -> None:
    session.type("'discard me'")
    session.wait_prompt("'discard me'", "the partial input on screen (read by the REPL)")
    before = session.line_count()
    session.keys("C-c")
    # A fresh, empty prompt on a new line (as node draws it).
    problems = []
    try:
        screen = session.wait_for(lambda s: len(s.splitlines()) > before and last_line(s) == ">",
                                  "a fresh empty prompt below the line after Ctrl-C")
        CAPTURES.append(("Ctrl-C with partial input", screen))
    except Failure as failure:
        CAPTURES.append(("Ctrl-C with partial input: the screen after the wait", session.screen()))
        problems.append(str(failure).split("\n")[0])
    # What is typed next is a new input on its own.
    session.type("'ke' + 'pt'")
    session.keys("Enter")
    screen = session.wait_for(lambda s: re.search(r"^'kept'$", s, re.M) or "Uncaught" in s or "SyntaxError" in s,
                              "the result of the line typed after Ctrl-C")
    CAPTURES.append(("Ctrl-C with partial input, then typed 'kept' and Enter", screen))
    if not re.search(r"^'kept'$", screen, re.M) or "SyntaxError" in screen:
        problems.append("Ctrl-C did not discard the partial input: the next line was evaluated with it")
    if problems:
        raise Failure("\n".join(problems) + "\n---- screen ----\n" + screen)


def tmux_ctrl_c_empty_line_hint_and_prompt(session: Tmux) -> None:
    """Ctrl-C on an empty line prints the hint, then a fresh prompt (repl.cc:
    "Redraws the prompt on a fresh line"; node does the same)."""
    session.keys("C-c")
    session.wait_for(lambda s: "(To exit, press Ctrl+C again or Ctrl+D or type .exit)" in s,
                     "the hint after Ctrl-C")
    try:
        screen = session.wait_for(lambda s: s.splitlines()[-1] == ">" and "(To exit" in s.splitlines()[-2],
                                  "a fresh prompt '>' below the hint")
    except Failure:
        CAPTURES.append(("Ctrl-C on an empty line: the screen after the wait", session.screen()))
        raise
    CAPTURES.append(("Ctrl-C on an empty line: hint and prompt", screen))
    session.type("6 * 7")
    session.keys("Enter")
    session.wait_line(r"42", "a result after the hint")


def tmux_ctrl_c_twice_exits(session: Tmux) -> None:
    session.keys("C-c")
    screen = session.wait_for(lambda s: "(To exit, press Ctrl+C again or Ctrl+D or type .exit)" in s,
                              "the hint after the first Ctrl-C")
    CAPTURES.append(("Ctrl-C on an empty line", screen))
    session.keys("C-c")
    screen = session.wait_line(r"EXITED rc=0", "the exit after the second Ctrl-C")
    CAPTURES.append(("Ctrl-C twice on an empty line", screen))


def tmux_ctrl_c_then_input_does_not_exit(session: Tmux) -> None:
    """A Ctrl-C on an empty line, then input: the next Ctrl-C is a first one again."""
    session.keys("C-c")
    session.wait_for(lambda s: "(To exit" in s, "the hint after Ctrl-C")
    session.type("'typed in between'")
    session.keys("Enter")
    session.wait_line(r"'typed in between'", "the result in between")
    session.wait_prompt()
    count = session.screen().count("(To exit")
    session.keys("C-c")
    session.wait_for(lambda s: s.count("(To exit") > count, "the hint again (not an exit)")
    if "EXITED" in session.screen():
        raise Failure("the REPL exited on a Ctrl-C that followed other input\n" + session.screen())
    session.keys("C-c")
    session.wait_line(r"EXITED rc=0", "the exit after two Ctrl-C in a row")


def tmux_ctrl_c_interrupts_evaluation(session: Tmux) -> None:
    """Ctrl-C stops an input's runaway synchronous evaluation, and gives up on
    a pending await (both went on: the loop never read the Ctrl-C, and the
    await resumed later); the session goes on, with no exit hint."""
    session.type("while (true) {}")
    session.keys("Enter")
    time.sleep(0.3)
    session.keys("C-c")
    session.wait_for(lambda s: "Uncaught Error: Script execution was interrupted by SIGINT" in s, "the interruption")
    session.type("6 * 7")
    session.keys("Enter")
    session.wait_line(r"^42$", "a result after the interruption")
    session.type("await new Promise((r) => setTimeout(() => r('late'), 1500))")
    session.keys("Enter")
    time.sleep(0.3)
    session.keys("C-c")
    session.wait_for(lambda s: s.count("interrupted by SIGINT") == 2, "the await given up")
    session.type("'next'")
    session.keys("Enter")
    session.wait_line(r"^'next'$", "the next input")
    time.sleep(1.6)
    screen = session.screen()
    if re.search(r"^'late'$", screen, re.M) or "(To exit" in screen or "EXITED" in screen:
        raise Failure("the abandoned await printed, or an exit hint came\n" + screen)


def tmux_ctrl_c_after_clearing_input(session: Tmux) -> None:
    """Ctrl-C that cleared typed text, then Ctrl-C twice on the empty line:
    the hint, then the exit (every later Ctrl-C looked like one with input)."""
    session.type("abc")
    session.wait_prompt("abc")
    session.keys("C-c")
    time.sleep(0.3)
    session.keys("C-c")
    session.wait_for(lambda s: "(To exit" in s, "the hint on the now empty line")
    session.keys("C-c")
    session.wait_line(r"EXITED rc=0", "the exit")


def tmux_resize_and_continue(session: Tmux) -> None:
    """A resized terminal (SIGWINCH) and a stop and continue (SIGSTOP, then
    SIGCONT, as Ctrl-Z and fg do) leave a working prompt: the line typed
    across the resize evaluates whole, and after SIGCONT a fresh prompt in
    character mode takes input."""
    session.type("'" + "x" * 100)
    session.tmux("resize-window", "-t", session.name, "-x", "50")
    session.type("'.length")
    session.keys("Enter")
    session.wait_line(r"100", "the line typed across the resize, 100 characters")
    session.wait_prompt()
    shell_pid = int(session.tmux("display-message", "-p", "-t", session.name, "#{pane_pid}").strip())
    children = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # (The command name is in parentheses and may hold spaces.)
        if int(stat.rsplit(")", 1)[1].split()[1]) == shell_pid:
            children.append(entry)
    if len(children) != 1:
        raise Failure(f"expected one hostloop under the pane's shell, found {children}")
    pid = int(children[0])
    before = session.line_count()
    os.kill(pid, signal.SIGSTOP)
    os.kill(pid, signal.SIGCONT)
    session.wait_for(lambda s: len(s.splitlines()) > before and last_line(s) == ">",
                     "a fresh prompt after SIGCONT")
    session.type("6 * 7")
    session.keys("Enter")
    session.wait_line(r"42", "input evaluated after SIGCONT")


def tmux_ctrl_d_exits(session: Tmux) -> None:
    session.keys("C-d")
    session.wait_line(r"EXITED rc=0", "the exit after Ctrl-D")


def tmux_dot_exit(session: Tmux) -> None:
    session.type("setTimeout(() => console.log('LATE' + 'TIMER'), 60000)")
    session.keys("Enter")
    session.wait_prompt()
    session.type(".exit")
    session.keys("Enter")
    session.wait_line(r"EXITED rc=0", "the exit after .exit (a 60 s timer pending)")


def tmux_multiline_and_errors(session: Tmux) -> None:
    session.type("function seven() {")
    session.keys("Enter")
    session.wait_for(lambda s: last_line(s) == "...", "the continuation prompt '... '")
    session.type("return 7; }")
    session.keys("Enter")
    session.wait_prompt(what="the prompt after the function")
    session.type("seven() * 6")
    session.keys("Enter")
    session.wait_line(r"42", "the result 42")
    session.type("null.x")
    session.keys("Enter")
    session.wait_for(lambda s: re.search(r"^Uncaught TypeError", s, re.M), "Uncaught TypeError")
    session.wait_prompt(what="the prompt after the error")
    session.type("await new Promise(r => setTimeout(() => r('slow' + 'ly'), 300))")
    session.keys("Enter")
    session.wait_line(r"'slowly'", "the awaited result")
    session.wait_prompt(what="the prompt after the await")


def tmux_long_lines(session: Tmux) -> None:
    """Lines of many kilobytes, typed and recalled from history (libedit kept
    writing through a stale pointer once a line outgrew its first buffer, and
    an 8000-character line corrupted the heap)."""
    line = "'" + "c" * 12000 + "'.length"
    session.type(line)
    session.keys("Enter")
    session.wait_line(r"12000", "the long line's result, 12000", timeout=WAIT_S * 3)
    session.wait_prompt(what="the prompt after the long line")
    session.keys("Up")
    session.wait_for(lambda s: last_line(s).endswith("c'.length"), "Up recalling the long line")
    session.keys("Enter")
    # (The recalled line fills the screen: the first result has scrolled away.)
    session.wait_for(lambda s: [l for l in s.splitlines() if l.strip()][-2:] == ["12000", ">"],
                     "the recalled line's result, 12000, and a prompt")
    # Repeat counts are off: Esc 9 then '9999a' is the text '9999a' (a count
    # of 99,999 made libedit write past the end of a freed buffer).
    session.type("'")
    session.keys("M-9", "9", "9", "9", "9", "a")
    session.type("'.length")
    session.keys("Enter")
    session.wait_for(lambda s: [l for l in s.splitlines() if l.strip()][-2:] == ["5", ">"],
                     "the length of '9999a', 5")
    session.type("6 * 7")
    session.keys("Enter")
    session.wait_line(r"42", "a short line's result after them")
    session.wait_prompt(what="a new prompt after the result")


def tmux_output_while_typing_a_wrapped_line(session: Tmux) -> None:
    """Output while the typed line wraps (120 columns, 150 characters typed):
    the prompt and every row of the line are cleared before the output and
    drawn once after it, wherever the cursor is. Only the cursor's row was
    cleared: each tick left another copy of the line's first row, and with
    the cursor on the first row the second row mixed into the output
    ("Bxxxx...")."""
    session.type("let n = 0; const ticker = setInterval(() => console.log('TICK', ++n, 'A\\nB'), 400)")
    session.keys("Enter")
    session.wait_prompt(what="the prompt after starting the interval")
    typed = "'" + "x" * 150 + "'"
    session.type(typed)
    session.wait_line(r"TICK 2 A", "two ticks while the wrapped line waits")
    session.keys("C-a")  # the cursor on the line's first row
    screen = session.wait_line(r"TICK 4 A", "two more ticks with the cursor on the first row")
    lines = screen.splitlines()
    first_rows = [l for l in lines if l.startswith("> 'xxx")]
    if len(first_rows) != 1:
        raise Failure(f"the wrapped line's first row is on the screen {len(first_rows)} times\n" + screen)
    if any(l != "B" and l.startswith("B") for l in lines):
        raise Failure("the line's second row mixed into the output\n" + screen)
    CAPTURES.append(("output while a wrapped line waits", screen))
    # Ctrl-C with the cursor on the first row: the whole typed line stays
    # above the new prompt (the prompt was drawn over its second row).
    session.keys("C-c")
    session.type("clearInterval(ticker); 'stopped'")
    session.keys("Enter")
    screen = session.wait_line(r"'stopped'", "the line typed after Ctrl-C")
    lines = screen.splitlines()
    tail = "x" * 31 + "'"  # the typed line's second row (150 + 3 = 153 columns: 33 on row two)
    if not any(l.endswith(tail) and not l.startswith(">") for l in lines):
        raise Failure("the typed line's second row was overwritten after Ctrl-C\n" + screen)
    if any(l.startswith("> clearInterval") and l.endswith("'") and "x" in l for l in lines):
        raise Failure("the new prompt was drawn over the old line\n" + screen)


def tmux_fatal_error_restores_the_terminal(hostloop: str) -> None:
    """V8's fatal out-of-memory error (SIGTRAP) in a timer, while the prompt
    waits in libedit's character mode, ends the session: the terminal gets
    its modes back (echo, line mode), as before the REPL started. It was
    left without echo for whatever ran next (a shell that does not reset the
    terminal, sh here)."""
    cwd = tempfile.mkdtemp(prefix="hostloop-repl-")
    inner = (f"stty -g > before; {shlex.quote(hostloop)} --v8-flags=--max-old-space-size=16; "
             f"echo ENDED rc=$?; stty -g > after; cmp -s before after && echo MODES SAME || "
             f"echo MODES DIFFER")
    command = f"sh -c {shlex.quote(inner)}; sleep 30"
    session = Tmux(hostloop, cwd, command)
    try:
        session.wait_for(lambda s: "Welcome to hostloop" in s and last_line(s) == ">", "the banner and the first prompt")
        session.type("setTimeout(() => { const a = []; for (;;) a.push(new Array(1e5).fill(1.5)); }, 300)")
        session.keys("Enter")
        screen = session.wait_for(lambda s: "MODES" in s, "the REPL's end and the terminal check",
                                  timeout=WAIT_S * 4)
        # ("ENDED", not "EXITED": wait_for stops at an EXITED line with rc != 0.)
        if not re.search(r"^ENDED rc=133$", screen, re.M):
            raise Failure("expected exit 133 (V8's fatal error)\n" + screen)
        if "MODES SAME" not in screen:
            raise Failure("the terminal's modes differ from before the REPL\n" + screen)
    finally:
        session.kill()
        shutil.rmtree(cwd, ignore_errors=True)


def tmux_no_blocking_editor_commands(session: Tmux) -> None:
    """libedit commands that read more keys with a blocking read() of their
    own are unbound, so the loop never stalls at the prompt: Tab inserts a
    tab (no file-name completion and its "Display all?" question), and after
    Ctrl-R (no incremental search) a timer's output keeps coming."""
    session.type("'")
    session.keys("Tab")
    session.type("'.length")
    session.keys("Enter")
    session.wait_line(r"1", "a tab typed into the string, length 1")
    session.wait_prompt()
    session.type("globalThis.n = 0; globalThis.t = setInterval(() => console.log('tick', ++n), 30); 'set'")
    session.keys("Enter")
    session.wait_line(r"tick 2", "the interval's output")
    session.keys("C-r")

    def last_tick(screen: str) -> int:
        ticks = [int(m) for m in re.findall(r"^tick (\d+)$", screen, re.M)]
        return max(ticks) if ticks else 0

    after = last_tick(session.screen())
    session.wait_for(lambda s: last_tick(s) >= after + 3, "three more ticks after Ctrl-R")
    session.type("clearInterval(t)")
    session.keys("Enter")
    session.wait_for(lambda s: last_line(s) == ">" and "clearInterval(t)" in s, "the interval cleared")


TMUX_CASES = [
    ("tmux: a result prints after Enter", tmux_result_after_enter),
    ("tmux: non-ASCII input is kept (whatever the locale)", tmux_non_ascii_input),
    ("tmux: line editing (Left, BSpace, Ctrl-A, Ctrl-E)", tmux_line_editing),
    ("tmux: history (Up recalls a previous line, Enter re-evaluates it)", tmux_history),
    ("tmux: a timer's output appears while the prompt waits", tmux_timer_output_while_waiting),
    ("tmux: a worker's output appears while the prompt waits", tmux_worker_output_while_waiting),
    ("tmux: Ctrl-C with partial input clears the line", tmux_ctrl_c_clears_partial_input),
    ("tmux: Ctrl-C on an empty line prints the hint and a fresh prompt", tmux_ctrl_c_empty_line_hint_and_prompt),
    ("tmux: Ctrl-C twice on an empty line exits", tmux_ctrl_c_twice_exits),
    ("tmux: Ctrl-C, input, Ctrl-C does not exit", tmux_ctrl_c_then_input_does_not_exit),
    ("tmux: Ctrl-C interrupts a runaway evaluation and gives up a pending await", tmux_ctrl_c_interrupts_evaluation),
    ("tmux: Ctrl-C after clearing typed text, then twice, exits", tmux_ctrl_c_after_clearing_input),
    ("tmux: Ctrl-D exits", tmux_ctrl_d_exits),
    ("tmux: .exit exits", tmux_dot_exit),
    ("tmux: multi-line input, errors and top-level await", tmux_multiline_and_errors),
    ("tmux: long lines, typed and recalled from history; no repeat counts", tmux_long_lines),
    ("tmux: a resize and a stop/continue leave a working prompt", tmux_resize_and_continue),
    ("tmux: no editor command stalls the loop (Tab inserts a tab, Ctrl-R does not search)",
     tmux_no_blocking_editor_commands),
    ("tmux: output while a wrapped line waits clears every row; Ctrl-C keeps the line",
     tmux_output_while_typing_a_wrapped_line),
]

# tmux cases that start their own session (a shell command around hostloop).
TMUX_OWN_SESSION_CASES = [
    ("tmux: V8's fatal error gives the terminal its modes back (exit 133)",
     tmux_fatal_error_restores_the_terminal),
]


def run_tmux_case(hostloop: str, function) -> None:
    cwd = tempfile.mkdtemp(prefix="hostloop-repl-")
    session = None
    try:
        session = start_repl(hostloop, cwd)
        function(session)
    finally:
        if session is not None:
            session.kill()
        shutil.rmtree(cwd, ignore_errors=True)


# ---------------------------------------------------------------------------
# The runner
# ---------------------------------------------------------------------------

def main() -> int:
    if len(sys.argv) < 2:
        print("usage: repl_test.py HOSTLOOP [NAME_SUBSTRING...]", file=sys.stderr)
        return 2
    hostloop = os.path.abspath(sys.argv[1])
    filters = sys.argv[2:]
    selected = [(name, fn, kind) for kind, cases in (("pipe", PIPE_CASES), ("tmux", TMUX_CASES),
                                                     ("tmux-own", TMUX_OWN_SESSION_CASES))
                for name, fn in cases if not filters or any(f in name for f in filters)]
    have_tmux = shutil.which("tmux") is not None
    if not have_tmux and any(kind != "pipe" for _, _, kind in selected):
        print("note: tmux is not installed; the interactive (tmux) cases are skipped")
        selected = [case for case in selected if case[2] == "pipe"]
    failed = []
    try:
        if any(kind != "pipe" for _, _, kind in selected):
            Tmux.start_server()
        for name, function, kind in selected:
            try:
                if kind == "tmux":
                    run_tmux_case(hostloop, function)
                else:
                    function(hostloop)
            except Failure as failure:
                failed.append(name)
                print(f"FAIL {name}")
                print("  " + str(failure).replace("\n", "\n  "))
            except (OSError, subprocess.SubprocessError) as error:
                failed.append(name)
                print(f"FAIL {name}\n  {type(error).__name__}: {error}")
            else:
                print(f"ok   {name}")
            sys.stdout.flush()
    finally:
        if have_tmux:
            Tmux.kill_server()
    if CAPTURES:
        print("\nscreens captured at the checkpoints:")
        for label, screen in CAPTURES:
            body = "\n".join(screen.rstrip("\n").splitlines()[-14:])
            print(f"---- {label} ----\n{body}")
    print(f"\n{len(selected) - len(failed)} of {len(selected)} cases passed")
    if failed:
        print("failed:\n  " + "\n  ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
