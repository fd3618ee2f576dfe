#!/usr/bin/env python3
"""Table-driven tests of the hostloop command line: options, bad input,
error reports and module loading failures (README "Exit codes").

    python3 tests/cli_test.py build/release/hostloop [NAME_SUBSTRING...]

Each case runs the binary in a fresh temporary directory (its cwd) holding
the case's files, and checks the exit code, stdout and stderr. Expectations
are substrings (str) or regular expressions (re.Pattern, searched with
re.MULTILINE), each list matched in order. In argv, file contents and
expectations, "{dir}" stands for the case's directory and "{url}" for its
file: URL (in a regular expression, both are escaped).

Whatever a case expects, a crash fails it: death by a signal, an exit code of
128 or more, or a crash report ("Aborted", "Segmentation fault", "terminate
called", V8's "Fatal error", a failed CHECK, a sanitizer report) on stderr.
Stdlib only.
"""
import dataclasses
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from dataclasses import dataclass, field
from typing import Callable, Optional

import crash_markers

# The CLI cases also count the shell's "Aborted" (SIGABRT) as a crash.
CRASH_MARKERS = ("Aborted",) + crash_markers.CRASH_MARKERS


def R(pattern: str) -> "re.Pattern[str]":
    """A regular-expression expectation ({dir} and {url} are filled in, escaped)."""
    return re.compile(pattern, re.MULTILINE)


@dataclass
class Case:
    name: str
    argv: list  # arguments after the binary
    files: dict = field(default_factory=dict)  # relative path -> str or bytes
    exit: int = 0
    stdout: list = field(default_factory=list)  # in-order expectations
    stderr: list = field(default_factory=list)
    stdout_exact: Optional[str] = None
    stderr_exact: Optional[str] = None
    stdout_absent: list = field(default_factory=list)  # substrings that must not appear
    stderr_absent: list = field(default_factory=list)
    merge: bool = False  # stderr into the same pipe as stdout (then check stdout*)
    closed_stdout: bool = False  # stdout is a pipe whose reader has gone
    setup: Optional[Callable[[str, "Case"], "Case"]] = None  # may adjust the case
    timeout: float = 60.0
    stdin: Optional[bytes] = None  # written to the program's stdin (else /dev/null)


# ---------------------------------------------------------------------------
# Programs used by several cases
# ---------------------------------------------------------------------------

REJECT_THEN_TIMER = """\
Promise.reject(new Error('nope'));
setTimeout(() => console.log('later'), 20);
"""

THROW_IN_TIMER = """\
setTimeout(() => {
  throw new Error('boom');
}, 1);
setTimeout(() => console.log('later'), 50);
"""

CRASH_FREE = [
    # Values whose reporting must not crash the reporter.
    ("null", "throw null;", "Uncaught null"),
    ("undefined", "throw undefined;", "Uncaught undefined"),
    ("a string", "throw 'text';", "Uncaught 'text'"),
    ("a symbol", "throw Symbol('sym');", "Uncaught Symbol(sym)"),
    ("a plain object", "throw { code: 7 };", "Uncaught { code: 7 }"),
    ("a null-prototype object", "throw Object.create(null);", "Uncaught [Object: null prototype] {}"),
    ("an object whose toString throws", "throw { toString() { throw new Error('no'); } };", "Uncaught"),
    ("a throwing proxy", "throw new Proxy({}, { get() { throw new Error('trap'); } });", "Uncaught"),
    (
        "an Error whose stack getter throws",
        "const e = new Error('x');\n"
        "Object.defineProperty(e, 'stack', { get() { throw new Error('getter'); } });\n"
        "throw e;",
        "Uncaught",
    ),
    (
        "an Error whose name and message are getters that throw",
        "const e = new Error('x');\n"
        "Object.defineProperty(e, 'name', { get() { throw 1; } });\n"
        "Object.defineProperty(e, 'message', { get() { throw 2; } });\n"
        "throw e;",
        "Uncaught",
    ),
]


def unreadable_setup(directory: str, case: Case) -> Case:
    """chmod 000 makes the file unreadable, except for root (the tests may run
    as root, where open() ignores the mode bits). Then the case falls back to
    another path that cannot be read as a module: a directory."""
    path = os.path.join(directory, "secret.mjs")
    with open(path, "w") as f:
        f.write("console.log('must not run');\n")
    os.chmod(path, 0)
    if not os.access(path, os.R_OK):
        return dataclasses.replace(
            case, stderr=["Cannot read module '{dir}/secret.mjs'", "Permission denied"])
    os.mkdir(os.path.join(directory, "secret_dir.mjs"))
    return dataclasses.replace(
        case, argv=["secret_dir.mjs"],
        stderr=["Cannot read module '{dir}/secret_dir.mjs'", "Is a directory"])


def symlink_loop_setup(directory: str, case: Case) -> Case:
    # Unreadable even for root: open() fails with ELOOP.
    os.symlink("loop_b.mjs", os.path.join(directory, "loop_a.mjs"))
    os.symlink("loop_a.mjs", os.path.join(directory, "loop_b.mjs"))
    return case


def dangling_symlink_setup(directory: str, case: Case) -> Case:
    os.symlink(os.path.join(directory, "gone", "target.mjs"), os.path.join(directory, "link.mjs"))
    return case


def symlinked_dir_setup(directory: str, case: Case) -> Case:
    """target/ holds a file; link -> target (a symlink to a directory)."""
    os.mkdir(os.path.join(directory, "target"))
    with open(os.path.join(directory, "target", "precious"), "w") as f:
        f.write("data\n")
    os.symlink("target", os.path.join(directory, "link"))
    return case


def gig_file_setup(directory: str, case: Case) -> Case:
    """A sparse file of 1 GiB named "gig" (no disk blocks, no RAM)."""
    with open(os.path.join(directory, "gig"), "wb") as f:
        f.truncate(2**30)
    return case


def sparse_files_setup(directory: str, case: Case) -> Case:
    """Sparse files: 4 GiB + 5 bytes and 3 GiB (no disk blocks, no RAM)."""
    for name, size in (("huge", 2**32 + 5), ("big", 3 * 2**30)):
        with open(os.path.join(directory, name), "wb") as f:
            f.write(b"HELLO")
            f.truncate(size)
    return case


def fifos_setup(*names: str, writes: Optional[dict] = None) -> Callable[[str, Case], Case]:
    """The named files are FIFOs. Nobody writes them, except those in
    `writes` (name -> text): a thread opens each of those (which waits for
    the reader) and writes it in two parts, a little apart."""
    def setup(directory: str, case: Case) -> Case:
        for name in names:
            os.mkfifo(os.path.join(directory, name))
        for name, text in (writes or {}).items():
            def write(path: str = os.path.join(directory, name), text: str = text) -> None:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text[:len(text) // 2])
                    f.flush()
                    threading.Event().wait(0.2)
                    f.write(text[len(text) // 2:])
            threading.Thread(target=write, daemon=True).start()
        return case
    return setup


def fifo_peer_setup(*names: str, peer: Callable[[str], None]) -> Callable[[str, Case], Case]:
    """The named files are FIFOs, and `peer(directory)` runs in a thread: the
    other end, which reads or writes them as the case needs (its blocking
    opens wait for the program's)."""
    def setup(directory: str, case: Case) -> Case:
        for name in names:
            os.mkfifo(os.path.join(directory, name))
        threading.Thread(target=peer, args=(directory,), daemon=True).start()
        return case
    return setup


def write_in_parts(name: str, parts: list, pause: float = 0.1) -> Callable[[str], None]:
    """A FIFO peer: writes `parts` (bytes) to FIFO `name`, `pause` s apart."""
    def peer(directory: str) -> None:
        with open(os.path.join(directory, name), "wb", buffering=0) as f:
            for i, part in enumerate(parts):
                if i > 0:
                    threading.Event().wait(pause)
                f.write(part)
    return peer


def pattern_bytes(size: int) -> bytes:
    """What FIFO_WRITE_PROGRAM writes: byte i is (i * 7) & 255."""
    return bytes((i * 7) & 255 for i in range(size))


def read_slowly_then_report(directory: str) -> None:
    """The peer of FIFO_WRITE_PROGRAM: opens out.fifo 0.3 s after the
    program started writing it (which waits for a reader), reads it in 16 KB
    parts with pauses (the writer fills the pipe and waits), then writes
    what it got to back.fifo, which the program reads."""
    threading.Event().wait(0.3)
    received = bytearray()
    with open(os.path.join(directory, "out.fifo"), "rb", buffering=0) as f:
        while True:
            part = f.read(16384)
            if not part:
                break
            received += part
            threading.Event().wait(0.002)
    with open(os.path.join(directory, "back.fifo"), "w", encoding="utf-8") as f:
        f.write(f"reader got {len(received)} bytes, "
                f"{'as written' if received == pattern_bytes(len(received)) else 'NOT as written'}")


def read_a_little_then_close(directory: str) -> None:
    """A FIFO peer: reads 10 bytes of out.fifo and closes it."""
    with open(os.path.join(directory, "out.fifo"), "rb", buffering=0) as f:
        f.read(10)


# More FIFO reads than the thread pool has threads (one per CPU, at least 2):
# they held every pool thread in read() before they moved to the loop.
STALLED_FIFO_READS = max(2, os.cpu_count() or 2) + 2

FIFO_WRITE_PROGRAM = """\
import { readFile, writeFile } from 'hostloop:fs';
const data = new Uint8Array(1 << 20).map((_, i) => (i * 7) & 255);
await writeFile('./out.fifo', data);
console.log('written');
console.log(await readFile('./back.fifo', 'utf8'));
"""


# A worker whose script is w.mjs (or w.js), terminated 100 ms after it is
# made; nothing reaches its error listener.
TERMINATE_LOADING_WORKER = """\
const w = new Worker(new URL('./{script}', import.meta.url){options});
w.onerror = () => console.log('error event');
setTimeout(() => {{ w.terminate(); console.log('terminated'); }}, 100);
"""


# ---------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------

CASES = [
    # ---- options ------------------------------------------------------------
    Case("--help prints the usage on stdout", ["--help"], exit=0,
         stdout=["Usage: hostloop [options] FILE [args...]", "-e, --eval CODE", "--v8-flags=",
                 "--uncaught-errors=", "--unhandled-rejections="],
         stderr_exact=""),
    Case("-h prints the usage on stdout", ["-h"], exit=0, stdout=["Usage: hostloop"], stderr_exact=""),
    Case("--version prints hostloop X.Y.Z and the V8 version", ["--version"], exit=0,
         stdout=[R(r"\Ahostloop \d+\.\d+\.\d+\n"), R(r"^V8 10\.2\.\S+$")], stderr_exact=""),
    Case("-v prints the versions", ["-v"], exit=0, stdout=[R(r"\Ahostloop \d+\.\d+\.\d+$"), "V8 10.2."]),
    Case("no arguments starts the REPL; stdin at EOF (/dev/null) ends it, exit 0", [], exit=0,
         stdout_exact=""),
    Case("an unknown option: exit 2", ["--bogus", "main.mjs"], files={"main.mjs": "console.log('ran')"},
         exit=2, stderr=["unknown option --bogus", "hostloop --help"], stdout_exact=""),
    Case("an unknown short option: exit 2", ["-x"], exit=2, stderr=["unknown option -x"]),
    Case("--unhandled-rejections=bogus: exit 2", ["--unhandled-rejections=bogus", "main.mjs"],
         files={"main.mjs": "console.log('ran')"}, exit=2,
         stderr=["--unhandled-rejections", "bogus"], stdout_exact=""),
    Case("--unhandled-rejections without a value: exit 2", ["--unhandled-rejections", "main.mjs"],
         files={"main.mjs": ""}, exit=2, stderr=["--unhandled-rejections"]),
    Case("--uncaught-errors=bogus: exit 2", ["--uncaught-errors=bogus", "main.mjs"],
         files={"main.mjs": ""}, exit=2, stderr=["--uncaught-errors", "bogus"]),
    Case("--v8-flags=--no-such-flag: exit 2, names the flag", ["--v8-flags=--no-such-flag", "-e", "1"],
         exit=2, stderr=["--no-such-flag"], stdout_exact=""),
    Case("--v8-flags with a bad value for a known flag: exit 2, not called unknown",
         ["--v8-flags=--stack-size=abc", "-e", "1"], exit=2,
         stderr=["illegal value for flag --stack-size=abc", "bad flag value: --stack-size=abc"]),
    Case("--v8-flags that remove Atomics or WebAssembly: programs still run",
         ["--v8-flags=--no-harmony-atomics,--no-expose-wasm", "-e",
          "console.log(typeof Atomics, typeof WebAssembly)"],
         exit=0, stdout_exact="undefined undefined\n", stderr_exact=""),
    Case("a bad flag after a good one in --v8-flags: exit 2, names it",
         ["--v8-flags=--expose-gc,--no-such-flag", "-e", "1"], exit=2, stderr=["--no-such-flag"]),
    Case("--v8-flags=--expose-gc exposes gc()", ["--v8-flags=--expose-gc", "-e", "console.log(typeof gc)"],
         exit=0, stdout_exact="function\n"),
    Case("without --expose-gc there is no gc()", ["-e", "console.log(typeof gc)"],
         exit=0, stdout_exact="undefined\n"),
    Case("--v8-flags may be repeated and lists several flags",
         ["--v8-flags=--expose-gc", "--v8-flags=--allow-natives-syntax,--stack-size=900",
          "-e", "console.log(typeof gc, %IsSmi(1))"], exit=0, stdout_exact="function true\n"),
    Case("-e without CODE: exit 2", ["-e"], exit=2, stderr=["-e needs CODE"]),
    Case("- runs all of stdin as the main module ([stdin]), with the arguments after it",
         ["-", "a", "b"], exit=0,
         stdin=b"await new Promise((r) => setTimeout(r, 5));\n"
               b"console.log(import.meta.url.endsWith('/[stdin]'), hostloop.args.join(','));\n",
         stdout_exact="true a,b\n"),
    Case("- with an error in the stdin module reports it at [stdin]: exit 1",
         ["-"], exit=1, stdin=b"\nthrow new Error('from stdin');\n",
         stderr=["Uncaught Error: from stdin", "[stdin]:2:7"]),
    Case("--trace-loop prints event-loop statistics to stderr at exit",
         ["--trace-loop", "-e", "setTimeout(() => console.log('tick'), 1)"], exit=0,
         stdout_exact="tick\n", stderr=[R(r"\S")]),
    Case("--trace-loop: a due-now post made at the end of a 200 ms task is not 200 ms late "
         "(its stamp was the pass's old clock reading; the bound is generous)",
         ["--trace-loop", "-e",
          "const { port1, port2 } = new MessageChannel();\n"
          "port1.onmessage = () => port1.close();\n"
          "scheduler.postTask(() => {\n"
          "  const end = performance.now() + 200; while (performance.now() < end) {}\n"
          "  port2.postMessage('x');\n"
          "});\n"],
         exit=0, stderr=[R(r"loop lag: +max \d{1,2}\.\d+ ms")]),
    Case("--trace-loop: notified Atomics.waitAsync calls leave no timeout task behind "
         "(each stale one ran at its deadline: ~200 more passes and internal-lane entries)",
         ["--trace-loop", "-e",
          "const ia = new Int32Array(new SharedArrayBuffer(16));\n"
          "const waits = [];\n"
          "for (let i = 1; i <= 200; i++) waits.push(Atomics.waitAsync(ia, 0, 0, i).value);\n"
          "console.log(Atomics.notify(ia, 0), (await Promise.all(waits)).every((v) => v === 'ok'));\n"
          "await new Promise((resolve) => setTimeout(resolve, 300));\n"],
         exit=0, stdout_exact="200 true\n",
         stderr=[R(r"passes: +\d{1,2}$"), R(r"internal lane \d{1,2},")]),
    Case("--trace-loop also prints the statistics when a REPL session ends (stdin at EOF)",
         ["--trace-loop"], exit=0, stderr=["hostloop --trace-loop:", R(r"passes: +\d+")]),

    # ---- -e CODE --------------------------------------------------------------
    Case("-e evaluates CODE as a module: top-level await, import.meta.url ends with [eval]",
         ["-e", "await new Promise((r) => setTimeout(r, 5));\n"
                "console.log(typeof this, import.meta.url)"],
         exit=0, stdout_exact="undefined {url}/[eval]\n"),
    Case("--eval is -e", ["--eval", "console.log(await Promise.resolve('awaited'))"],
         exit=0, stdout_exact="awaited\n"),
    Case("-e CODE imports relative to the working directory",
         ["-e", "import { x } from './lib.mjs'; console.log(x)"],
         files={"lib.mjs": "export const x = 'from lib';\n"}, exit=0, stdout_exact="from lib\n"),
    Case("-e CODE args: the args reach hostloop.args", ["-e", "console.log(hostloop.args)", "a", "b"],
         exit=0, stdout_exact="[ 'a', 'b' ]\n"),
    Case("-e with an uncaught error names [eval] in the stack",
         ["-e", "throw new Error('from eval')"], exit=1,
         stderr=[R(r"\AUncaught Error: from eval\n"), "{url}/[eval]:1:7"]),
    Case("-e with a syntax error", ["-e", "let x = = 1;"], exit=1,
         stderr=["{dir}/[eval]:1:9", "let x = = 1;", R(r"^ {8}\^+$"), "SyntaxError: Unexpected token '='"]),

    # ---- program arguments -------------------------------------------------------
    Case("args after FILE reach hostloop.args, options there included",
         ["main.mjs", "x", "--y", "-e", "z", "--help"],
         files={"main.mjs": "console.log(JSON.stringify(hostloop.args));\n"},
         exit=0, stdout_exact='["x","--y","-e","z","--help"]\n', stderr_exact=""),
    Case("no args: hostloop.args is empty and frozen", ["main.mjs"],
         files={"main.mjs": "console.log(hostloop.args.length, Object.isFrozen(hostloop.args));\n"},
         exit=0, stdout_exact="0 true\n"),
    Case("-- ends the options: FILE may start with a dash", ["--", "-dash.mjs", "arg"],
         files={"-dash.mjs": "console.log('dash', hostloop.args[0]);\n"}, exit=0, stdout_exact="dash arg\n"),
    Case("options before FILE apply, FILE given with an absolute path",
         ["--unhandled-rejections=none", "{dir}/main.mjs"],
         files={"main.mjs": "Promise.reject(new Error('ignored')); console.log('ok');\n"},
         exit=0, stdout_exact="ok\n", stderr_exact=""),

    # ---- files that cannot be run ---------------------------------------------------
    Case("a missing file: the message names the path, exit 1", ["missing.mjs"], exit=1,
         stderr=["Cannot find module '{dir}/missing.mjs'"], stdout_exact=""),
    Case("a missing file given with an absolute path", ["{dir}/sub/missing.mjs"], exit=1,
         stderr=["{dir}/sub/missing.mjs"]),
    # chmod 000, or (as root, where chmod does not stop reading) a directory.
    Case("an unreadable file: exit 1, the message names the path", ["secret.mjs"], exit=1,
         setup=unreadable_setup, stdout_exact=""),
    Case("a symlink loop (unreadable even for root): exit 1", ["loop_a.mjs"], exit=1,
         setup=symlink_loop_setup, stderr=["{dir}/loop_a.mjs", "symbolic links"]),
    Case("a dangling symlink: exit 1 naming the path", ["link.mjs"], exit=1,
         setup=dangling_symlink_setup, stderr=["{dir}/link.mjs"]),
    Case("a directory as FILE: exit 1", ["adir"], files={"adir/inner.mjs": ""}, exit=1,
         stderr=["{dir}/adir", "Is a directory"], stdout_exact=""),
    Case("an empty string as FILE: exit 1, no crash", [""], exit=1, stderr=["{dir}"]),
    Case("an empty file: exit 0, no output", ["empty.mjs"], files={"empty.mjs": ""}, exit=0,
         stdout_exact="", stderr_exact=""),
    Case("a file of comments and blank lines: exit 0", ["c.mjs"], files={"c.mjs": "// nothing\n\n/* at all */\n"},
         exit=0, stdout_exact="", stderr_exact=""),
    Case("binary garbage: a SyntaxError, exit 1", ["bin.mjs"], files={"bin.mjs": b"\xff\xfe\x00\x01\x02garbage"},
         exit=1, stderr=["{dir}/bin.mjs:1:", "SyntaxError"]),
    Case("a .json file as FILE: a clear error, exit 1", ["data.json"], files={"data.json": '{"a": 1}'},
         exit=1, stderr=["{dir}/data.json"]),

    Case("a worker terminated while its unhandledrejection listener runs reports nothing after",
         ["--unhandled-rejections=warn", "main.mjs"],
         files={
             "main.mjs": "const w = new Worker(new URL('./w.mjs', import.meta.url), {type: 'module'});\n"
                         "w.onmessage = (e) => { console.log(e.data); w.terminate(); console.log('terminated'); };\n",
             "w.mjs": "addEventListener('unhandledrejection', () => {\n"
                      "  postMessage('listener running');\n"
                      "  const t = Date.now(); while (Date.now() - t < 2000);\n"
                      "});\n"
                      "Promise.reject(new Error('the reason'));\n",
         },
         stdout_exact="listener running\nterminated\n", stderr_absent=["Uncaught", "the reason"]),

    Case("a main module throwing a Symbol: its error event names the module, not hostloop's code",
         ["-e", "addEventListener('error', (e) => console.log(e.filename, e.lineno));\n"
                "throw Symbol('s')"],
         exit=1, stdout_exact="{url}/[eval] 0\n", stderr=["Uncaught Symbol(s)"],
         stderr_absent=["hostloop:internal"]),

    # ---- scripts that are FIFOs (their reads wait for a writer) ----------------------
    # A worker waiting for its script ended only at the writer's whim:
    # terminate() left its thread in read(), and the exit that joins it hung.
    Case("a worker whose module script is a FIFO nobody writes ends at terminate()", ["main.mjs"],
         files={"main.mjs": TERMINATE_LOADING_WORKER.format(script="w.mjs", options=", {type: 'module'}")},
         setup=fifos_setup("w.mjs"), timeout=30, stdout_exact="terminated\n", stderr_exact=""),
    Case("a worker whose classic script is a FIFO nobody writes ends at terminate()", ["main.mjs"],
         files={"main.mjs": TERMINATE_LOADING_WORKER.format(script="w.js", options="")},
         setup=fifos_setup("w.js"), timeout=30, stdout_exact="terminated\n", stderr_exact=""),
    Case("a worker importing a FIFO nobody writes ends at terminate()", ["main.mjs"],
         files={"main.mjs": TERMINATE_LOADING_WORKER.format(script="w.mjs", options=", {type: 'module'}"),
                "w.mjs": "import './fifo.mjs';\n"},
         setup=fifos_setup("fifo.mjs"), timeout=30, stdout_exact="terminated\n", stderr_exact=""),
    Case("a worker in import() of a FIFO nobody writes ends at terminate()", ["main.mjs"],
         files={"main.mjs": TERMINATE_LOADING_WORKER.format(script="w.mjs", options=", {type: 'module'}"),
                "w.mjs": "await import('./fifo.mjs');\n"},
         setup=fifos_setup("fifo.mjs"), timeout=30, stdout_exact="terminated\n", stderr_exact=""),
    Case("a worker in importScripts() of a FIFO nobody writes ends at terminate()", ["main.mjs"],
         files={"main.mjs": TERMINATE_LOADING_WORKER.format(script="w.js", options=""),
                "w.js": "importScripts('./fifo.js');\n"},
         setup=fifos_setup("fifo.js"), timeout=30, stdout_exact="terminated\n", stderr_exact=""),
    Case("hostloop.exit() ends a program whose worker waits for a FIFO script", ["main.mjs"],
         files={"main.mjs": "new Worker(new URL('./w.mjs', import.meta.url), {type: 'module'});\n"
                            "setTimeout(() => hostloop.exit(3), 100);\n"},
         setup=fifos_setup("w.mjs"), timeout=30, exit=3, stdout_exact="", stderr_exact=""),
    Case("an uncaught error ends a program whose worker waits for a FIFO script", ["main.mjs"],
         files={"main.mjs": "new Worker(new URL('./w.mjs', import.meta.url), {type: 'module'});\n"
                            "setTimeout(() => { throw new Error('main failed'); }, 100);\n"},
         setup=fifos_setup("w.mjs"), timeout=30, exit=1, stderr=["Uncaught Error: main failed"]),
    Case("a worker reads its FIFO script and module as a writer writes them", ["main.mjs"],
         files={"main.mjs": "const w = new Worker(new URL('./w.mjs', import.meta.url), {type: 'module'});\n"
                            "w.onmessage = (e) => { console.log(e.data); w.terminate(); };\n"},
         setup=fifos_setup("w.mjs", "dep.mjs", writes={
             "w.mjs": "import { part } from './dep.mjs';\npostMessage('worker read ' + part);\n",
             "dep.mjs": "export const part = 'both FIFOs';\n"}),
         timeout=30, stdout_exact="worker read both FIFOs\n", stderr_exact=""),
    Case("a main module that is a FIFO is read as its writer writes it", ["main.mjs"],
         setup=fifos_setup("main.mjs", writes={"main.mjs": "console.log('main from a FIFO');\n"}),
         timeout=30, stdout_exact="main from a FIFO\n", stderr_exact=""),
    # What `hostloop <(echo ...)` passes: /dev/fd/63, a pipe.
    Case("a main module read from a pipe (/dev/stdin)", ["/dev/stdin"],
         stdin=b"console.log('main from a pipe');\n", timeout=30,
         stdout_exact="main from a pipe\n", stderr_exact=""),

    # ---- syntax errors ---------------------------------------------------------------
    Case("a syntax error: path:line:col, the source line, a caret, SyntaxError", ["syntax.mjs"],
         files={"syntax.mjs": "console.log('must not run');\n// a comment\nlet x = = 2;\n"}, exit=1,
         stderr=[R(r"\A{dir}/syntax\.mjs:3:9\n"), R(r"^let x = = 2;$"), R(r"^ {8}\^$"),
                 "SyntaxError: Unexpected token '='"],
         stdout_exact="", stderr_absent=["must not run"]),
    Case("a syntax error with a multi-character token: the caret spans it", ["syntax.mjs"],
         files={"syntax.mjs": "const a = 1;\nconst b = 2 return;\n"}, exit=1,
         stderr=["{dir}/syntax.mjs:2:13", "const b = 2 return;", R(r"^ {12}\^{6}$"), "SyntaxError"]),
    Case("a syntax error in an imported module names that module", ["main.mjs"],
         files={"main.mjs": "import './sub/child.mjs';\nconsole.log('must not run');\n",
                "sub/child.mjs": "export const x = ;\n"}, exit=1,
         stderr=["{dir}/sub/child.mjs:1:18", "export const x = ;", R(r"^ {17}\^$"),
                 "SyntaxError: Unexpected token ';'"], stdout_exact=""),
    Case("unexpected end of input", ["eof.mjs"], files={"eof.mjs": "function f() {\n  return 1;\n"},
         exit=1, stderr=["{dir}/eof.mjs:", "SyntaxError: Unexpected end of input"]),
    Case("an import of a name the module does not export: SyntaxError naming it", ["main.mjs"],
         files={"main.mjs": "import { nothere } from './lib.mjs';\n", "lib.mjs": "export const x = 1;\n"},
         exit=1, stderr=["{dir}/main.mjs:1:10", "SyntaxError", "nothere"]),
    Case("a syntax error on a tab-indented line: the caret keeps the tab, under the token",
         ["tab.mjs"], files={"tab.mjs": "function f() {\n\tlet x = = 2;\n}\n"}, exit=1,
         stderr=["{dir}/tab.mjs:2:10", "\tlet x = = 2;", R(r"^\t {8}\^$"), "SyntaxError"]),

    # ---- uncaught exceptions ---------------------------------------------------------
    Case("an Error thrown at top level: Uncaught Error: boom and a file:// stack line", ["throw.mjs"],
         files={"throw.mjs": "console.log('before');\n  throw new Error('boom');\n"}, exit=1,
         stdout_exact="before\n",
         stderr=[R(r"\AUncaught Error: boom\n"), R(r"^    at {url}/throw\.mjs:2:9$")]),
    Case("an Error thrown in a function: the stack names the function", ["throw.mjs"],
         files={"throw.mjs": "function explode() {\n  throw new TypeError('bad');\n}\nexplode();\n"}, exit=1,
         stderr=[R(r"\AUncaught TypeError: bad\n"), "at explode ({url}/throw.mjs:2:9)", "{url}/throw.mjs:4:1"]),
    Case("an Error thrown in a setTimeout callback: reported, exit 1, later timers do not run",
         ["timer.mjs"], files={"timer.mjs": THROW_IN_TIMER}, exit=1,
         stderr=[R(r"\AUncaught Error: boom\n"), "{url}/timer.mjs:2:9"], stdout_absent=["later"]),
    Case("--uncaught-errors=warn: a timer's error is reported and the program goes on",
         ["--uncaught-errors=warn", "timer.mjs"], files={"timer.mjs": THROW_IN_TIMER}, exit=0,
         stderr=["Uncaught Error: boom", "{url}/timer.mjs:2:9"], stdout_exact="later\n"),
    Case("throw 42: Uncaught 42", ["t.mjs"], files={"t.mjs": "throw 42;\n"}, exit=1,
         stderr=[R(r"\AUncaught 42$")]),
    Case("throw 42 in a timer: Uncaught 42", ["t.mjs"], files={"t.mjs": "setTimeout(() => { throw 42; });\n"},
         exit=1, stderr=[R(r"\AUncaught 42$")]),
    Case("an error thrown from queueMicrotask is reported", ["q.mjs"],
         files={"q.mjs": "queueMicrotask(() => { throw new Error('micro'); });\n"
                         "setTimeout(() => console.log('later'), 20);\n"},
         exit=1, stderr=["Uncaught Error: micro", "{url}/q.mjs:1:30"], stdout_absent=["later"]),
    Case("stack overflow: RangeError, exit 1", ["deep.mjs"],
         files={"deep.mjs": "function f() { return f() + 1; }\nf();\n"}, exit=1,
         stderr=["Uncaught RangeError: Maximum call stack size exceeded", "{url}/deep.mjs:1:"]),
    *[
        Case(f"throwing {what}: reported without a crash", ["t.mjs"], files={"t.mjs": code + "\n"},
             exit=1, stderr=[expected])
        for what, code, expected in CRASH_FREE
    ],

    # ---- module loading -----------------------------------------------------------------
    Case("an unresolvable import names the resolved path, the importer and line:col", ["main.mjs"],
         files={"main.mjs": "// the import below is on line 2\nimport './nope.mjs';\nconsole.log('must not run');\n"},
         exit=1, stdout_exact="",
         stderr=["Cannot find module '{dir}/nope.mjs' imported from {dir}/main.mjs", "{url}/main.mjs:2:8"]),
    Case("a missing import from a nested module names both files", ["main.mjs"],
         files={"main.mjs": "import './sub/child.mjs';\n",
                "sub/child.mjs": "export const ok = 1;\n\n  import { y } from '../missing.mjs';\n"},
         exit=1, stderr=["Cannot find module '{dir}/missing.mjs' imported from {dir}/sub/child.mjs",
                         "{url}/sub/child.mjs:3:21"]),
    Case("a bare specifier: explains bare specifiers are unsupported", ["bare.mjs"],
         files={"bare.mjs": "import 'lodash';\n"}, exit=1,
         stderr=["TypeError", "'lodash'", "imported from {dir}/bare.mjs", "bare module specifier",
                 "not supported", "{url}/bare.mjs:1:8"]),
    Case("a bare specifier in import(): explains bare specifiers are unsupported", ["bare.mjs"],
         files={"bare.mjs": "await import('lodash');\n"}, exit=1,
         stderr=["'lodash'", "bare module specifier"]),
    Case("an unsupported URL scheme", ["net.mjs"], files={"net.mjs": "import 'https://example.com/x.mjs';\n"},
         exit=1, stderr=["https://example.com/x.mjs", "unsupported URL scheme"]),
    Case("an encoded NUL in a specifier: a clear error", ["nul.mjs"], files={"nul.mjs": "import './a%00.mjs';\n"},
         exit=1, stderr=["NUL"]),
    Case("an unknown hostloop: module", ["m.mjs"], files={"m.mjs": "import 'hostloop:nope';\n"},
         exit=1, stderr=["hostloop:nope"]),
    Case("a JSON module that is not valid JSON: SyntaxError naming the JSON file", ["main.mjs"],
         files={"main.mjs": "import data from './bad.json' assert { type: 'json' };\n",
                "bad.json": '{"a": 1,}\n'},
         exit=1, stderr=["SyntaxError", "{dir}/bad.json"]),
    Case("an empty JSON module: SyntaxError naming the file", ["main.mjs"],
         files={"main.mjs": "import data from './empty.json' with { type: 'json' };\n", "empty.json": ""},
         exit=1, stderr=["SyntaxError", "{dir}/empty.json"]),
    Case("a .json import without assert { type: 'json' }: a clear TypeError", ["main.mjs"],
         files={"main.mjs": "import data from './data.json';\n", "data.json": '{"a": 1}\n'},
         exit=1, stderr=["TypeError", "{dir}/data.json", "type: 'json'", "{url}/main.mjs:1:18"]),
    Case("an unsupported assertion type: TypeError naming it", ["main.mjs"],
         files={"main.mjs": "import data from './data.json' assert { type: 'css' };\n", "data.json": "{}\n"},
         exit=1, stderr=["TypeError", "Unsupported module type 'css'", "./data.json"]),
    Case("an unsupported type in with { type }: TypeError naming it", ["main.mjs"],
         files={"main.mjs": "import data from './data.json' with { type: 'webassembly' };\n", "data.json": "{}\n"},
         exit=1, stderr=["TypeError", "'webassembly'"]),
    Case("a JSON module imported with assert and with: both work", ["main.mjs"],
         files={"main.mjs": "import a from './data.json' assert { type: 'json' };\n"
                            "import b from './data.json' with { type: 'json' };\n"
                            "console.log(a.x, a === b);\n",
                "data.json": '{"x": [1, 2]}\n'},
         exit=0, stdout_exact="[ 1, 2 ] true\n"),
    Case("an uncaught failing import(): exit 1, names the missing file", ["dyn.mjs"],
         files={"dyn.mjs": "await import('./nope.mjs');\n"}, exit=1,
         stderr=["Uncaught", "{dir}/nope.mjs"]),
    Case("a caught failing import(): the program goes on", ["dyn.mjs"],
         files={"dyn.mjs": "try { await import('./nope.mjs'); } catch (e) { console.log('caught', e.name); }\n"},
         exit=0, stdout_exact="caught Error\n"),
    Case("an error thrown while an imported module evaluates", ["main.mjs"],
         files={"main.mjs": "import './lib.mjs';\nconsole.log('must not run');\n",
                "lib.mjs": "console.log('lib');\nthrow new Error('lib failed');\n"},
         exit=1, stdout_exact="lib\n", stderr=["Uncaught Error: lib failed", "{url}/lib.mjs:2:7"]),

    # ---- unhandled rejections ------------------------------------------------------------
    Case("an unhandled rejection: Uncaught (in promise), exit 1, later timers do not run",
         ["rej.mjs"], files={"rej.mjs": REJECT_THEN_TIMER}, exit=1,
         stderr=[R(r"\AUncaught \(in promise\) Error: nope\n"), "{url}/rej.mjs:1:16"],
         stdout_absent=["later"]),
    Case("--unhandled-rejections=throw is the default", ["--unhandled-rejections=throw", "rej.mjs"],
         files={"rej.mjs": REJECT_THEN_TIMER}, exit=1, stderr=["Uncaught (in promise) Error: nope"],
         stdout_absent=["later"]),
    Case("--unhandled-rejections=warn: reported, the program goes on, exit 0",
         ["--unhandled-rejections=warn", "rej.mjs"], files={"rej.mjs": REJECT_THEN_TIMER}, exit=0,
         stderr=["Uncaught (in promise) Error: nope"], stdout_exact="later\n"),
    Case("--unhandled-rejections=none: nothing printed, exit 0",
         ["--unhandled-rejections=none", "rej.mjs"], files={"rej.mjs": REJECT_THEN_TIMER}, exit=0,
         stderr_exact="", stdout_exact="later\n"),
    Case("an unhandled rejection with a non-Error reason", ["rej.mjs"],
         files={"rej.mjs": "Promise.reject(42);\n"}, exit=1, stderr=["Uncaught (in promise) 42"]),
    Case("a rejection handled in the same turn is not reported", ["rej.mjs"],
         files={"rej.mjs": "const p = Promise.reject(new Error('x'));\nawait null;\n"
                           "p.catch(() => console.log('handled'));\n"},
         exit=0, stdout_exact="handled\n", stderr_exact=""),
    Case("an async function's rejection with no handler", ["rej.mjs"],
         files={"rej.mjs": "async function f() {\n  await null;\n  throw new Error('async boom');\n}\nf();\n"},
         exit=1, stderr=["Uncaught (in promise) Error: async boom", "at f ({url}/rej.mjs:3:9)"]),
    Case("a rejected top-level await: Uncaught, exit 1", ["tla.mjs"],
         files={"tla.mjs": "await Promise.reject(new Error('tla failed'));\n"}, exit=1,
         stderr=["Uncaught Error: tla failed", "{url}/tla.mjs:1:22"]),

    # ---- top-level await that never settles ---------------------------------------------
    Case("a top-level await that can never settle: exit 13", ["tla.mjs"],
         files={"tla.mjs": "console.log('waiting');\nawait new Promise(() => {});\nconsole.log('must not run');\n"},
         exit=13, stdout_exact="waiting\n", stderr=["top-level await never settled", "{dir}/tla.mjs"]),
    Case("a never-settling top-level await after timers ran: exit 13", ["tla.mjs"],
         files={"tla.mjs": "await new Promise((r) => setTimeout(r, 5));\nawait new Promise(() => {});\n"},
         exit=13, stderr=["top-level await never settled"]),
    Case("a never-settling top-level await in an imported module: exit 13", ["main.mjs"],
         files={"main.mjs": "import './stuck.mjs';\nconsole.log('must not run');\n",
                "stuck.mjs": "await new Promise(() => {});\n"},
         exit=13, stdout_exact="", stderr=["top-level await never settled"]),
    Case("-e with a never-settling top-level await: exit 13", ["-e", "await new Promise(() => {})"],
         exit=13, stderr=["top-level await never settled"]),

    # ---- output streams -------------------------------------------------------------------
    Case("stdout and stderr on one pipe keep the program's order", ["-e",
         "console.log('a'); console.error('b'); console.log('c')"],
         merge=True, exit=0, stdout_exact="a\nb\nc\n"),
    Case("stdout and stderr on one pipe keep the order across turns", ["io.mjs"],
         files={"io.mjs": "console.log('1');\nconsole.warn('2');\nawait null;\nconsole.log('3');\n"
                          "setTimeout(() => { console.error('4'); console.log('5'); }, 1);\n"},
         merge=True, exit=0, stdout_exact="1\n2\n3\n4\n5\n"),
    Case("output written before an uncaught error precedes its report", ["io.mjs"],
         files={"io.mjs": "console.log('before');\nthrow new Error('after');\n"},
         merge=True, exit=1, stdout=[R(r"\Abefore\nUncaught Error: after\n")]),
    # A UTF-8 byte-order mark at the start of a file is dropped, as decoding
    # a script does: before a shebang it was a SyntaxError, and without one
    # it shifted the first line's columns.
    Case("a BOM before a shebang line is dropped", ["bom.mjs"],
         files={"bom.mjs": b"\xef\xbb\xbf#!/usr/bin/env hostloop\nconsole.log('bom ok')\n"},
         exit=0, stdout_exact="bom ok\n"),
    Case("a BOM does not shift the first line's columns", ["bom.mjs"],
         files={"bom.mjs": b"\xef\xbb\xbfconsole.log(new Error('x').stack.split('\\n')[1].trim())\n"},
         exit=0, stdout_exact="at {url}/bom.mjs:1:13\n"),
    Case("large output is complete", ["-e",
         "for (let i = 0; i < 20000; i++) console.log('line', i); console.log('end')"],
         exit=0, stdout=[R(r"\Aline 0\nline 1\n"), R(r"^line 19999\nend\n\Z")]),
    # Whoever read stdout is gone: the program stops with exit code 1 and a
    # note on stderr (as node; a C program would die of SIGPIPE), not with a
    # signal, and not running on forever with its output going nowhere.
    Case("a closed stdout stops the program (exit 1), no signal", ["-e",
         "for (let i = 0; i < 2000; i++) console.log('x'.repeat(100)); console.error('done')"],
         closed_stdout=True, exit=1,
         stderr_exact="hostloop: stdout was closed by its reader (EPIPE); stopping\n"),
    Case("a closed stdout stops a program that would log forever", ["-e",
         "setInterval(() => console.log('tick'), 1)"],
         closed_stdout=True, exit=1, timeout=20,
         stderr=["hostloop: stdout was closed by its reader (EPIPE); stopping"]),
    Case("a closed stderr stops the program too (exit 1)", ["-e", "setInterval(() => console.error(1), 1)"],
         merge=True, closed_stdout=True, exit=1, timeout=20),
    # A worker's write finds stdout closed: the whole program stops with exit
    # code 1 (it stopped the worker only: the main runtime ran on forever,
    # or exited 0).
    Case("a closed stdout met by a worker stops the program (exit 1)", ["main.mjs"],
         files={"w.js": "setInterval(() => console.log('w'.repeat(100)), 1);\n",
                "main.mjs": "new Worker(new URL('./w.js', import.meta.url));\nsetInterval(() => {}, 500);\n"},
         closed_stdout=True, exit=1, timeout=20,
         stderr=["hostloop: stdout was closed by its reader (EPIPE); stopping"]),
    Case("a closed stdout met by a worker of an idle main exits 1, not 0", ["main.mjs"],
         files={"w.js": "setInterval(() => console.log('w'.repeat(100)), 1);\n",
                "main.mjs": "new Worker(new URL('./w.js', import.meta.url));\n"},
         closed_stdout=True, exit=1, timeout=20,
         stderr=["hostloop: stdout was closed by its reader (EPIPE); stopping"]),
    # ---- hostloop:fs: what a path names, and files too large to return ----------
    # rm() removes the entry the path names: "link/" (a trailing slash) made
    # lstat() follow the symlink, and the target directory's contents went
    # before rmdir() failed; a last component "." did the same.
    Case("fs rm of 'symlink/' and of 'dir/.' removes nothing outside", ["main.mjs"],
         files={"main.mjs": """import { rm, readdir } from 'hostloop:fs';
const report = async (what, path) => {
  try {
    await rm(path, { recursive: true });
    console.log(what, 'resolved');
  } catch (e) {
    console.log(what, e.code, e.syscall);
  }
};
await report('link/', './link/');
await report('link//', './link//');
await report('link/.', './link/.');
await report('target/.', './target/.');
await report('target/..', './target/..');
console.log('target:', (await readdir('./target')).join(','));
await report('link', './link');
console.log('left:', (await readdir('.')).sort().join(','));
"""}, setup=symlinked_dir_setup, exit=0,
         stdout_exact="link/ ENOTDIR rm\nlink// ENOTDIR rm\nlink/. EINVAL rm\ntarget/. EINVAL rm\n"
                      "target/.. EINVAL rm\ntarget: precious\nlink resolved\nleft: main.mjs,target\n"),
    # A recursive rm that fails names the entry that failed, not the top.
    Case("fs rm -r names the entry that failed", ["-e", """import { rm } from 'hostloop:fs';
try {
  await rm('/proc/self/fdinfo', { recursive: true });
} catch (e) {
  console.log(e.syscall, e.path.startsWith('/proc/self/fdinfo/'), e.message.includes("'/proc/self/fdinfo/"));
}
"""], exit=0, stdout_exact="unlink true true\n"),
    # Larger than a Uint8Array (4 GiB) or a string can be: a RangeError with
    # node's code, not a V8 abort (bytes) or a string cut at the first NUL
    # (text: the length was cast to int).
    Case("fs readFile of files too large to return rejects with RangeError", ["main.mjs"],
         files={"main.mjs": """import { readFile } from 'hostloop:fs';
for (const [name, encoding] of [['huge', undefined], ['huge', 'utf8'], ['big', 'utf8']]) {
  try {
    const value = await readFile(`./${name}`, encoding);
    console.log(name, encoding, 'resolved', value.length);
  } catch (e) {
    console.log(name, encoding, e.constructor.name, e.code, e.path);
  }
}
"""}, setup=sparse_files_setup, exit=0,
         stdout_exact="huge undefined RangeError ERR_FS_FILE_TOO_LARGE ./huge\n"
                      "huge utf8 RangeError ERR_FS_FILE_TOO_LARGE ./huge\n"
                      "big utf8 RangeError ERR_FS_FILE_TOO_LARGE ./big\n"),
    # A signal aborted while a regular file is read on the pool rejects at
    # once, and the pool's read stops at its next chunk: the 3 GiB read used
    # to run to its end first (5 s a GiB on the dev VM, all of it in RAM)
    # and only then reject. The bound is generous; the program's exit waits
    # for the pool job, so it comes soon after too.
    Case("fs readFile of a 3 GiB file: its signal's abort rejects at once and stops the read",
         ["main.mjs"],
         files={"main.mjs": """import { readFile } from 'hostloop:fs';
const controller = new AbortController();
const started = performance.now();
const reading = readFile('./big', { signal: controller.signal });
setTimeout(() => controller.abort(), 5);
try {
  await reading;
  console.log('resolved');
} catch (e) {
  const ms = performance.now() - started;
  console.log(e.name, ms < 2000 ? 'at once' : `after ${Math.round(ms)} ms`);
}
"""}, setup=sparse_files_setup, exit=0, timeout=120, stdout_exact="AbortError at once\n"),
    # A worker terminated while its reads of a large file run (no signal):
    # its runtime's end stops them at their next chunk, and those still
    # queued never start, so they do not hold the pool's threads (two on
    # the dev VM) for the seconds a 1 GiB read takes; main's small read after
    # the terminate used to wait for them all.
    Case("fs readFile: a terminated worker's reads stop, and free the pool for others",
         ["main.mjs"],
         files={"main.mjs": """import { readFile } from 'hostloop:fs';
const worker = new Worker(new URL('./reader.mjs', import.meta.url), { type: 'module' });
await new Promise((resolve) => { worker.onmessage = resolve; });
worker.terminate();
const started = performance.now();
const text = await readFile('./small', 'utf8');
const ms = performance.now() - started;
console.log(text, ms < 3000 ? 'at once' : `after ${Math.round(ms)} ms`);
""", "reader.mjs": """import { readFile } from 'hostloop:fs';
for (let i = 0; i < 8; i++) readFile('./gig').catch(() => {});
self.postMessage('reading');
""", "small": "small file"}, setup=gig_file_setup, exit=0, timeout=120,
         stdout_exact="small file at once\n"),
    # An encoding whose string conversion throws rejects the promise; it
    # threw synchronously and left a second, unhandled rejection behind.
    Case("fs readFile: an encoding that cannot be converted rejects, once", ["-e", """import { readFile } from 'hostloop:fs';
const p = readFile('/etc/hostname', { encoding: Symbol('x') });
console.log(p instanceof Promise);
await p.catch((e) => console.log('rejected', e.constructor.name));
"""], exit=0, stdout_exact="true\nrejected TypeError\n", stderr_exact=""),
    # ---- hostloop:fs on FIFOs and pipes: read and written on the loop, not the pool ----
    # A read or write of a FIFO waited in the kernel on a pool thread until
    # the other end acted: a few FIFOs nobody writes held every pool thread,
    # and every fs call of the process (a worker's too) waited for ever.
    Case("fs readFile of FIFOs nobody writes holds up no other fs call, a worker's neither",
         ["main.mjs"],
         files={"main.mjs": f"""import {{ readFile }} from 'hostloop:fs';
for (let i = 0; i < {STALLED_FIFO_READS}; i++) {{
  readFile(`./never${{i}}`).then(() => console.log('a FIFO nobody writes was read'));
}}
const w = new Worker(new URL('./w.mjs', import.meta.url), {{ type: 'module' }});
const fromWorker = new Promise((resolve) => {{ w.onmessage = (e) => resolve(e.data); }});
console.log(await readFile('./regular.txt', 'utf8'));
console.log(await fromWorker);
hostloop.exit(0);
""",
                "w.mjs": "import { readFile } from 'hostloop:fs';\n"
                         "postMessage('worker: ' + await readFile('./regular.txt', 'utf8'));\n",
                "regular.txt": "a regular file"},
         setup=fifos_setup(*[f"never{i}" for i in range(STALLED_FIFO_READS)]), timeout=30,
         stdout_exact="a regular file\nworker: a regular file\n", stderr_exact=""),
    # Read on the loop: each part as it comes (a UTF-8 character cut between
    # two parts, parts larger than the pipe), the end when the writer
    # closes; then nothing keeps the program alive.
    Case("fs readFile of a FIFO resolves with what its writer wrote in parts, then the program ends",
         ["main.mjs"],
         files={"main.mjs": """import { readFile } from 'hostloop:fs';
console.log(await readFile('./text.fifo', 'utf8'));
const bytes = await readFile('./bytes.fifo');
console.log(bytes.length, bytes.every((b, i) => b === ((i * 7) & 255)));
"""},
         setup=fifo_peer_setup("text.fifo", "bytes.fifo", peer=lambda directory: (
             write_in_parts("text.fifo", [b"caf\xc3", b"\xa9 ", "✓ done".encode()])(directory),
             write_in_parts("bytes.fifo", [pattern_bytes(300000)[:100],
                                           pattern_bytes(300000)[100:200000],
                                           pattern_bytes(300000)[200000:]])(directory))),
         timeout=30, stdout_exact="café ✓ done\n300000 true\n", stderr_exact=""),
    Case("fs writeFile to a FIFO nobody reads yet resolves once a reader has read it all",
         ["main.mjs"], files={"main.mjs": FIFO_WRITE_PROGRAM},
         setup=fifo_peer_setup("out.fifo", "back.fifo", peer=read_slowly_then_report), timeout=30,
         stdout_exact="written\nreader got 1048576 bytes, as written\n", stderr_exact=""),
    # Both ends on one loop: reads and writes take turns, whichever opens first.
    Case("fs readFile of a FIFO the program writes itself, 3 MiB, and the other way round",
         ["main.mjs"],
         files={"main.mjs": """import { readFile, writeFile } from 'hostloop:fs';
const data = new Uint8Array(3 << 20).map((_, i) => (i * 7) & 255);
const [bytes] = await Promise.all([readFile('./self.fifo'), writeFile('./self.fifo', data)]);
console.log(bytes.length, bytes.every((b, i) => b === ((i * 7) & 255)));
const [, text] = await Promise.all([writeFile('./self.fifo', 'writer first'), readFile('./self.fifo', 'utf8')]);
console.log(text);
"""},
         setup=fifos_setup("self.fifo"), timeout=30, stdout_exact="3145728 true\nwriter first\n",
         stderr_exact=""),
    Case("fs writeFile to a FIFO whose reader leaves rejects with EPIPE", ["main.mjs"],
         files={"main.mjs": """import { writeFile } from 'hostloop:fs';
try {
  await writeFile('./out.fifo', new Uint8Array(1 << 20));
  console.log('resolved');
} catch (e) {
  console.log(e.code, e.syscall, e.path === './out.fifo', e.message.endsWith("write './out.fifo'"));
}
"""},
         setup=fifo_peer_setup("out.fifo", peer=read_a_little_then_close), timeout=30,
         stdout_exact="EPIPE write true true\n", stderr_exact=""),
    # The signal cancels a FIFO read or write at once, and closes the fd: a
    # write to the FIFO that was being read then finds no reader.
    Case("fs readFile/writeFile of a FIFO: the signal rejects them at once, and the program ends",
         ["main.mjs"],
         files={"main.mjs": """import { readFile, writeFile } from 'hostloop:fs';
const controller = new AbortController();
const read = readFile('./never.fifo', { signal: controller.signal });
const write = writeFile('./unread.fifo', 'x', { signal: controller.signal });
setTimeout(() => controller.abort(new Error('enough')), 100);
for (const [what, promise] of [['read', read], ['write', write]]) {
  await promise.then(() => console.log(what, 'resolved'), (e) => console.log(what, 'rejected:', e.message));
}
const timedOut = (promise) => promise.then(() => 'resolved', (e) => e.name);
console.log('read', await timedOut(readFile('./never.fifo', { signal: AbortSignal.timeout(50) })));
console.log('write', await timedOut(writeFile('./never.fifo', 'x', { signal: AbortSignal.timeout(300) })));
"""},
         setup=fifos_setup("never.fifo", "unread.fifo"), timeout=30,
         stdout_exact="read rejected: enough\nwrite rejected: enough\nread TimeoutError\n"
                      "write TimeoutError\n", stderr_exact=""),
    Case("a worker terminated while it reads and writes FIFOs, with signals, ends cleanly", ["main.mjs"],
         files={"main.mjs": """const w = new Worker(new URL('./w.mjs', import.meta.url), { type: 'module' });
w.onmessage = () => setTimeout(() => { w.terminate(); console.log('terminated'); }, 50);
""",
                "w.mjs": """import { readFile, writeFile } from 'hostloop:fs';
readFile('./never.fifo', { signal: new AbortController().signal });
readFile('./never.fifo');
writeFile('./unread.fifo', 'x', { signal: AbortSignal.timeout(60000) });
postMessage('pending');
"""},
         setup=fifos_setup("never.fifo", "unread.fifo"), timeout=30,
         stdout_exact="terminated\n", stderr_exact=""),
    Case("hostloop.exit() ends a program whose FIFO read and write are pending", ["main.mjs"],
         files={"main.mjs": """import { readFile, writeFile } from 'hostloop:fs';
readFile('./never.fifo', { signal: new AbortController().signal });
writeFile('./unread.fifo', 'x');
setTimeout(() => hostloop.exit(3), 50);
"""},
         setup=fifos_setup("never.fifo", "unread.fifo"), timeout=30, exit=3,
         stdout_exact="", stderr_exact=""),
    Case("fs readFile('/dev/stdin') and writeFile('/dev/stdout') when they are pipes", ["-e", """\
import { readFile, writeFile } from 'hostloop:fs';
await writeFile('/dev/stdout', 'stdin said: ' + await readFile('/dev/stdin', 'utf8'));
"""], stdin=b"hello through a pipe\n", timeout=30,
         stdout_exact="stdin said: hello through a pipe\n", stderr_exact=""),
    # ---- console: never an exception out of console.log; web objects show state ----
    Case("console.log of values that throw while formatted prints the rest, never throws", ["-e", """
const e = new Error('boom');
Object.defineProperty(e, 'stack', { get() { throw new Error('stack getter'); } });
console.log('err:', e);
console.log('obj:', Object.create(new Proxy({}, { getPrototypeOf() { throw new Error('gp'); }, get() { throw new Error('trap'); } })));
console.log({ get [Symbol.toStringTag]() { throw new Error('tag getter'); } }, 'after');
const iterator = Array.prototype[Symbol.iterator];
Array.prototype[Symbol.iterator] = function* () { yield 'HACK'; };
console.log('hello', 42);
Array.prototype[Symbol.iterator] = iterator;
console.clear();
console.log('the end');
"""], exit=0, stdout_exact="err: [value could not be formatted: Error: stack getter]\n"
                             "obj: [value could not be formatted: Error: trap]\n"
                             "[value could not be formatted: Error: tag getter] after\n"
                             "hello 42\nthe end\n", stderr_exact=""),
    Case("console.log shows the state of events, signals, controllers and codecs", ["-e", """
const controller = new AbortController();
console.log(controller);
controller.abort('why');
console.log(controller.signal);
console.log(new CustomEvent('ping', { detail: { id: 7 }, cancelable: true }));
console.log(new MessageEvent('message', { data: [1, 2] }));
console.log(new TextDecoder('utf-16le', { fatal: true }), new TextEncoder());
console.log(Object.create(Event.prototype));
"""], exit=0, stdout=["AbortController { signal: AbortSignal { aborted: false } }\n",
                      "AbortSignal { aborted: true, reason: 'why' }\n",
                      R(r"^CustomEvent \{\n  type: 'ping',\n  defaultPrevented: false,\n  cancelable: true,\n"
                        r"  timeStamp: [\d.]+,\n  detail: \{ id: 7 \}\n\}$"),
                      R(r"^  data: \[ 1, 2 \],$"),
                      "TextDecoder { encoding: 'utf-16le', fatal: true, ignoreBOM: false } "
                      "TextEncoder { encoding: 'utf-8' }\n",
                      "Event {}\n"], stderr_exact=""),
]


# ---------------------------------------------------------------------------
# The runner
# ---------------------------------------------------------------------------

def fill(text: str, directory: str, url: str, regex: bool = False) -> str:
    if regex:
        return text.replace("{dir}", re.escape(directory)).replace("{url}", re.escape(url))
    return text.replace("{dir}", directory).replace("{url}", url)


def check_in_order(label: str, text: str, expectations: list, directory: str, url: str) -> list:
    failures = []
    position = 0
    for expectation in expectations:
        if isinstance(expectation, re.Pattern):
            pattern = re.compile(fill(expectation.pattern, directory, url, regex=True), expectation.flags)
            match = pattern.search(text, position)
            if match is None:
                failures.append(f"{label} lacks (in order) a match for /{pattern.pattern}/")
                break
            position = match.end()
        else:
            wanted = fill(expectation, directory, url)
            found = text.find(wanted, position)
            if found < 0:
                failures.append(f"{label} lacks (in order) {wanted!r}")
                break
            position = found + len(wanted)
    return failures


def run_case(hostloop: str, case: Case) -> list:
    directory = os.path.realpath(tempfile.mkdtemp(prefix="hostloop-cli-"))
    try:
        url = "file://" + urllib.parse.quote(directory)
        for relative, content in case.files.items():
            path = os.path.join(directory, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            mode = "wb" if isinstance(content, bytes) else "w"
            with open(path, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as f:
                f.write(content if isinstance(content, bytes) else fill(content, directory, url))
        if case.setup is not None:
            case = case.setup(directory, case)
        argv = [hostloop] + [fill(arg, directory, url) for arg in case.argv]

        stdout_target = subprocess.PIPE
        closed_write_end = None
        if case.closed_stdout:
            read_end, closed_write_end = os.pipe()
            os.close(read_end)
            stdout_target = closed_write_end
        try:
            stdin_args = {"stdin": subprocess.DEVNULL} if case.stdin is None else {"input": case.stdin}
            proc = subprocess.run(argv, cwd=directory, stdout=stdout_target,
                                  stderr=subprocess.STDOUT if case.merge else subprocess.PIPE,
                                  timeout=case.timeout, **stdin_args)
        except OSError as e:
            return [f"could not run {argv[0]}: {e}"]
        except subprocess.TimeoutExpired as e:
            return [f"timed out after {case.timeout:.0f} s",
                    "---- stdout ----\n" + (e.stdout or b"").decode("utf-8", "replace")[-3000:],
                    "---- stderr ----\n" + (e.stderr or b"").decode("utf-8", "replace")[-3000:]]
        finally:
            if closed_write_end is not None:
                os.close(closed_write_end)
        out = (proc.stdout or b"").decode("utf-8", "replace")
        err = (proc.stderr or b"").decode("utf-8", "replace")
        code = proc.returncode

        failures = []
        # A crash is never an acceptable answer to bad input.
        if code < 0:
            failures.append(f"crashed: killed by signal {-code}")
        elif code >= 128:
            failures.append(f"crashed: exit code {code} (>= 128)")
        for marker in CRASH_MARKERS:
            if marker in err or (case.merge and marker in out):
                failures.append(f"crash report on stderr: {marker!r}")
        if code != case.exit:
            failures.append(f"exit code {code}, expected {case.exit}")

        if case.stdout_exact is not None and out != fill(case.stdout_exact, directory, url):
            failures.append(f"stdout is {out[:2000]!r}, expected exactly "
                            f"{fill(case.stdout_exact, directory, url)!r}")
        if case.stderr_exact is not None and err != fill(case.stderr_exact, directory, url):
            failures.append(f"stderr is {err[:2000]!r}, expected exactly "
                            f"{fill(case.stderr_exact, directory, url)!r}")
        failures += check_in_order("stdout", out, case.stdout, directory, url)
        failures += check_in_order("stderr", err, case.stderr, directory, url)
        for label, text, absent in (("stdout", out, case.stdout_absent), ("stderr", err, case.stderr_absent)):
            for unwanted in absent:
                if fill(unwanted, directory, url) in text:
                    failures.append(f"{label} contains {fill(unwanted, directory, url)!r}")
        if failures:
            failures.append("command: " + " ".join(repr(a) for a in argv) + f"  (cwd {directory})")
            failures.append("---- stdout ----\n" + out[-3000:])
            if not case.merge:
                failures.append("---- stderr ----\n" + err[-3000:])
        return failures
    finally:
        # chmod 000 files are removable (the directory is writable).
        shutil.rmtree(directory, ignore_errors=True)


def output_before_endless_loop(hostloop: str) -> list:
    """A line logged before `while (true) {}` reaches stdout while the loop
    spins (it was buffered until the task ended, so it never came, and a
    kill lost it). Waits for the line, then kills the process."""
    directory = tempfile.mkdtemp(prefix="hostloop-cli-")
    try:
        path = os.path.join(directory, "spin.mjs")
        with open(path, "w", encoding="utf-8") as f:
            f.write("console.log('before the endless loop');\nwhile (true) {}\n")
        proc = subprocess.Popen([hostloop, path], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        try:
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            line = proc.stdout.readline().decode("utf-8", "replace") if ready else ""
        finally:
            proc.kill()
            proc.wait()
        if line != "before the endless loop\n":
            return [f"stdout while the loop spins: {line!r}, expected the line logged before it"]
        return []
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def nonblocking_stdout_loses_nothing(hostloop: str) -> list:
    """stdout is a pipe whose file description is non-blocking (as when a
    parent or a terminal shares one that set O_NONBLOCK), and the reader
    starts late: every line still arrives, and the exit code is 0. (On
    EAGAIN the rest of each write was dropped: 94% of 100k lines lost, exit
    code 0.)"""
    import fcntl
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
    code = "for (let i = 0; i < 100000; i++) console.log('line', i); console.log('THE END');"
    proc = subprocess.Popen([hostloop, "-e", code], stdin=subprocess.DEVNULL, stdout=write_end,
                            stderr=subprocess.PIPE)
    os.close(write_end)
    # The pipe (64 KB) fills long before the program ends: it must wait.
    select.select([], [], [], 0.5)
    data = b""
    with os.fdopen(read_end, "rb") as reader:
        while True:
            chunk = reader.read(1 << 16)
            if not chunk:
                break
            data += chunk
    try:
        code_seen = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return ["did not exit within 60 s"]
    lines = data.decode("utf-8", "replace").splitlines()
    failures = []
    if len(lines) != 100001 or lines[-1] != "THE END" or lines[99999] != "line 99999":
        failures.append(f"stdout has {len(lines)} lines (expected 100001), last {lines[-1:]!r}")
    if code_seen != 0:
        failures.append(f"exit code {code_seen}, stderr {proc.stderr.read()[:300]!r}")
    proc.stderr.close()
    return failures


def pids_cgroup() -> Optional[str]:
    """A new pids cgroup (v1 or v2) this process may limit and join, or None."""
    for parent in ("/sys/fs/cgroup/pids", "/sys/fs/cgroup"):
        if not os.path.exists(os.path.join(parent, "cgroup.procs")):
            continue
        if parent == "/sys/fs/cgroup":
            try:
                with open(os.path.join(parent, "cgroup.subtree_control")) as f:
                    if "pids" not in f.read().split():
                        continue
            except OSError:
                continue
        path = os.path.join(parent, f"hostloop_cli_test_{os.getpid()}")
        try:
            os.mkdir(path)
        except OSError:
            continue
        if os.path.exists(os.path.join(path, "pids.max")):
            return path
        os.rmdir(path)
    return None


def worker_without_a_thread(hostloop: str) -> Optional[list]:
    """When no thread can be created for a worker (a container's pids limit,
    RLIMIT_NPROC), that worker gets an `error` Event and the program goes on
    (std::thread's exception used to abort the process). Needs a pids cgroup
    to join (root): skipped, and said so, without one."""
    cgroup = pids_cgroup()
    if cgroup is None:
        return None
    try:
        def join() -> None:
            with open(os.path.join(cgroup, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
        # How many threads a started hostloop has (V8's platform threads
        # scale with the CPUs): the limit leaves room for a few workers only.
        probe = subprocess.run(
            [hostloop, "-e", "import fs from 'hostloop:fs'; const s = await fs.readFile("
             "'/proc/self/status', 'utf8'); console.log(/Threads:\\s+(\\d+)/.exec(s)[1]);"],
            capture_output=True, text=True, timeout=60)
        if probe.returncode != 0:
            return [f"the thread count probe failed: {probe.stderr[:300]!r}"]
        with open(os.path.join(cgroup, "pids.max"), "w") as f:
            f.write(str(int(probe.stdout) + 3))
        code = (
            "let failed = 0; const workers = [];"
            "for (let i = 0; i < 20; i++) {"
            "  const w = new Worker('data:text/javascript,setTimeout(() => {}, 300)', {type: 'module'});"
            "  w.onerror = (e) => { failed++; if (e.constructor !== Event) console.log('not an Event'); };"
            "  workers.push(w);"
            "}"
            "setTimeout(() => { console.log('failed', failed); workers.forEach((w) => w.terminate()); }, 200);")
        proc = subprocess.run([hostloop, "-e", code], capture_output=True, text=True, timeout=60,
                              preexec_fn=join)
    finally:
        os.rmdir(cgroup)
    failures = []
    match = re.search(r"^failed (\d+)$", proc.stdout, re.MULTILINE)
    if proc.returncode != 0 or match is None or not 10 <= int(match.group(1)) <= 20:
        failures.append(f"exit code {proc.returncode} (expected 0 and 10-20 error events), "
                        f"stdout {proc.stdout[:300]!r}, stderr {proc.stderr[:500]!r}")
    if "not an Event" in proc.stdout:
        failures.append("an error event that is not a plain Event")
    if "hostloop: a worker could not start: no thread for it" not in proc.stderr:
        failures.append(f"no reason on stderr: {proc.stderr[:300]!r}")
    return failures


EXTRA_CHECKS = [("output before an endless loop is written at once", output_before_endless_loop),
                ("a non-blocking stdout loses no output", nonblocking_stdout_loses_nothing),
                ("a worker with no thread to run on gets an error event", worker_without_a_thread)]


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: cli_test.py HOSTLOOP [NAME_SUBSTRING...]", file=sys.stderr)
        return 2
    hostloop = os.path.abspath(sys.argv[1])
    filters = sys.argv[2:]
    names = [case.name for case in CASES]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        print(f"duplicate case names: {sorted(duplicates)}")
        return 1
    selected = [case for case in CASES if not filters or any(f in case.name for f in filters)]
    failed = []
    for case in selected:
        failures = run_case(hostloop, case)
        if failures:
            failed.append(case.name)
            print(f"FAIL {case.name}")
            for failure in failures:
                print("  " + failure.replace("\n", "\n  "))
        else:
            print(f"ok   {case.name}")
    for name, check in EXTRA_CHECKS:
        if filters and not any(f in name for f in filters):
            continue
        selected.append(name)
        failures = check(hostloop)
        if failures is None:
            selected.pop()
            print(f"skip {name} (what it needs is missing here: see its docstring)")
            continue
        if failures:
            failed.append(name)
            print(f"FAIL {name}")
            for failure in failures:
                print("  " + failure.replace("\n", "\n  "))
        else:
            print(f"ok   {name}")
    print(f"\n{len(selected) - len(failed)} of {len(selected)} cases passed")
    if failed:
        print("failed:\n  " + "\n  ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
