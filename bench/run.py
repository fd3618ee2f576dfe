#!/usr/bin/env python3
"""hostloop's benchmark table: hostloop and its peers (node, deno, bun) side by side.

    python3 bench/run.py --hostloop build/release/hostloop \
        --loop-bench build/release/bench/loop_bench [--runs N] [--only ROWS] [--quick] [--json]

Prints one fixed-width table (benchmark | hostloop | node | deno | bun | target | verdict),
then notes, then the raw medians as one JSON object on the last line. Standard library only.

Rows come from ROWS below, of three kinds:
  startup  wall time and peak RSS of running an empty module, per runtime
  js       a script bench/js/NAME.mjs that prints one line of JSON with its metrics
  gbench   benchmarks (or counters) from the Google Benchmark binary --loop-bench

To add a row, append to ROWS (see bench/README.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Optional

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT_DIR = os.path.dirname(BENCH_DIR)
JS_DIR = os.path.join(BENCH_DIR, "js")
PEERS_DIR = os.path.join(BENCH_DIR, "peers", "node_modules")

RUNTIMES = ["hostloop", "node", "deno", "bun"]
PEERS = ["node", "deno", "bun"]
# A ratio target's reference that means "the best of the peers measured in this run" (the
# lowest value for an at_most target, the highest for an at_least one), e.g.
# at_most(1.0, FASTEST_PEER): hostloop at least as fast as the fastest peer present.
FASTEST_PEER = "fastest peer"
PEER_BINARIES = {
    "deno": [os.path.join(PEERS_DIR, "@deno", "linux-x64-glibc", "deno")],
    "bun": [
        os.path.join(PEERS_DIR, "@oven", "bun-linux-x64", "bin", "bun"),
        os.path.join(PEERS_DIR, "@oven", "bun-linux-x64-baseline", "bin", "bun"),
    ],
}

# --------------------------------------------------------------------------------------------
# Targets


@dataclasses.dataclass(frozen=True)
class Target:
    """A target for hostloop's value in a row.

    Absolute (ref=None): hostloop's value `op` value, e.g. Target("<=", 25) for "<= 25 ms".
    Ratio (ref set): hostloop's value / the reference's value `op` value, where ref is a
    runtime name for startup/js rows ("node"), FASTEST_PEER (the best peer of the run), or a
    benchmark name ("BM_EventfdPingPongFloor"), all measured in the same run. With ref_row
    ("row.key"), the reference is runtime `ref`'s value in that other js row of the same run
    (which then runs too): for an API the runtime lacks, its nearest equivalent.
    """

    op: str
    value: float
    ref: Optional[str] = None
    ref_row: Optional[str] = None

    def describe(self, unit: str) -> str:
        v = f"{self.value:g}"
        if self.ref is None:
            return f"{self.op} {v}" + (f" {unit}" if unit and unit != "count" else "")
        if self.ref_row:
            return f"{self.op} {v}x {self.ref} {self.ref_row.split('.')[0]}"
        return f"{self.op} {v}x {self.ref}"

    def holds(self, x: float) -> bool:
        return {
            "<=": x <= self.value,
            "<": x < self.value,
            ">=": x >= self.value,
            ">": x > self.value,
            "==": x == self.value,
        }[self.op]


def at_most(value, ref=None, ref_row=None):
    return Target("<=", value, ref, ref_row)


def at_least(value, ref=None):
    return Target(">=", value, ref)


def exactly(value):
    return Target("==", value)


@dataclasses.dataclass
class Metric:
    """One table row. `key` is the JSON key (js rows), the benchmark name (gbench rows),
    or "wall_ms"/"rss_mib" (startup rows)."""

    key: str
    label: str
    unit: str
    target: Optional[Target] = None
    # gbench only: read this counter of the benchmark instead of its time.
    counter: Optional[str] = None
    # gbench only: "real_time" or "cpu_time".
    field: str = "real_time"


@dataclasses.dataclass
class Row:
    name: str  # what --only selects
    kind: str  # "startup" | "js" | "gbench"
    metrics: list
    script: Optional[str] = None  # file under bench/js (startup, js)
    runs: Optional[int] = None  # default repetitions for this row (else --runs / 5)
    timeout_s: float = 120.0  # per process
    # js rows: run every process pinned to one CPU (the first one this process may use, as
    # loop_bench pins its cross-thread benchmarks by default), e.g. for rows compared with
    # BM_EventfdPingPongFloor.
    pin_cpu: bool = False
    # idle rows: the script whose costs are subtracted (run with the same runtime, same round).
    baseline: Optional[str] = None


# --------------------------------------------------------------------------------------------
# The registry. Append rows here; see bench/README.md.

ROWS = [
    Row(
        "startup",
        "startup",
        script="empty.mjs",
        runs=20,
        timeout_s=30,
        metrics=[
            Metric("wall_ms", "startup: empty module, wall", "ms", at_most(25)),
            Metric("rss_mib", "startup: empty module, peak RSS", "MiB", at_most(32)),
        ],
    ),
    Row(
        "settimeout_schedule_clear",
        "js",
        script="settimeout_schedule_clear.mjs",
        metrics=[
            Metric("schedule_ns", "setTimeout x1M: schedule", "ns/op", at_most(0.35, "node")),
            Metric("clear_ns", "setTimeout x1M: clear", "ns/op", at_most(0.5, "node")),
        ],
    ),
    Row(
        "timer_order",
        "js",
        script="timer_order.mjs",
        metrics=[
            Metric("violations", "timer order x200k: violations", "count", exactly(0)),
            Metric("ms", "timer order x200k: total", "ms"),
        ],
    ),
    Row(
        "macrotask_messagechannel",
        "js",
        script="macrotask_messagechannel.mjs",
        metrics=[
            Metric("ns_per_task", "MessageChannel task chain x200k", "ns/task",
                   at_most(0.5, "node")),
        ],
    ),
    Row(
        # Only hostloop has scheduler.postTask (node 20, deno and bun print skip), so the
        # reference is node's time per task of its own macrotask chain, MessageChannel's, in
        # the same run (an absolute 318.5 ns, half of node's at a quiet moment, failed
        # whenever the VM was slow for everyone).
        "macrotask_posttask",
        "js",
        script="macrotask_posttask.mjs",
        metrics=[
            Metric("ns_per_task", "scheduler.postTask chain x200k", "ns/task",
                   at_most(0.5, "node", "macrotask_messagechannel.ns_per_task")),
        ],
    ),
    Row(
        # Two processes per round and runtime, overlapped (see run_idle); ~2.6 s per runtime.
        "idle_cost",
        "idle",
        script="idle_2s.mjs",
        baseline="empty.mjs",
        timeout_s=30,
        metrics=[
            Metric("cpu_ms", "idle 2 s on one timer: CPU beyond empty", "ms", at_most(10)),
            Metric("waits", "idle 2 s on one timer: kernel waits beyond empty", "count",
                   at_most(2)),
        ],
    ),
    Row(
        # Pinned to one CPU, like the floor it is compared with (loop_bench --loop_bench_cpus=same).
        "worker_pingpong",
        "js",
        script="worker_pingpong.mjs",
        pin_cpu=True,
        timeout_s=60,
        metrics=[
            Metric("us_per_round_trip", "worker postMessage round trip x20k", "us",
                   at_most(1.1, "BM_EventfdPingPongFloor")),
        ],
    ),
    Row(
        "waitasync_pingpong",
        "js",
        script="waitasync_pingpong.mjs",
        pin_cpu=True,
        timeout_s=60,
        metrics=[
            Metric("us_per_round_trip", "Atomics.waitAsync/wait round trip x20k", "us",
                   at_most(0.6, "BM_EventfdPingPongFloor")),
        ],
    ),
    Row(
        "worker_flood",
        "js",
        script="worker_flood.mjs",
        timeout_s=60,
        metrics=[
            Metric("msgs_per_s", "worker flood x200k: delivery rate", "msg/s",
                   at_least(2.8, "node")),
            Metric("worst_gap_ms", "worker flood: worst 1 ms-interval gap beyond period", "ms",
                   at_most(2)),
            Metric("period_ms", "worker flood: interval period before the flood", "ms"),
        ],
    ),
    Row(
        # 10,000 ~1 KB files read at once (Promise.all), each runtime with its own async
        # whole-file read; set-up and clean-up untimed. hostloop: at least as fast as the
        # fastest peer of the run.
        "fs_read_10k",
        "js",
        script="fs_read_10k.mjs",
        timeout_s=120,
        metrics=[
            Metric("ms", "fs: read 10k x 1 KB files, Promise.all", "ms",
                   at_most(1.0, FASTEST_PEER)),
            Metric("files_per_s", "fs: read 10k x 1 KB files, rate", "files/s"),
        ],
    ),
    Row(
        # Creating web platform objects programs make in bulk (100k each, most dying
        # young). Target: no slower than node, which implements EventTarget/Event/
        # AbortController in JS too and URL in C++ (ada); hostloop's URL classes are
        # whatwg-url's (js_deps/), whose record is built from libnode's ada for URL-safe
        # ASCII input (src/runtime/url_parser.h) and from whatwg-url's parser otherwise.
        "web_objects",
        "js",
        script="web_objects.mjs",
        metrics=[
            Metric("eventtarget_ns", "new EventTarget()", "ns/op", at_most(1.0, "node")),
            Metric("event_ns", "new Event('x')", "ns/op", at_most(1.0, "node")),
            Metric("customevent_ns", "new CustomEvent('x', {detail})", "ns/op", at_most(1.0, "node")),
            Metric("abortcontroller_ns", "new AbortController()", "ns/op", at_most(1.0, "node")),
            Metric("url_short_ns", "new URL('http://a/b')", "ns/op", at_most(1.0, "node")),
            Metric("url_long_ns", "new URL(63-char https URL)", "ns/op", at_most(1.0, "node")),
        ],
    ),
    # C++ loop benchmarks (hostloop only; the peer columns show "-"). All selected gbench rows
    # share one loop_bench run; timeout_s is for that whole run (~30 s for every row).
    # Cross-thread rows are wall time; the same-thread rows are the benchmark thread's CPU
    # time (see the top of bench/loop_bench.cc).
    Row(
        "cross_thread_round_trip",
        "gbench",
        timeout_s=300,
        metrics=[
            Metric(
                "BM_CrossThreadRoundTrip",
                "loop: cross-thread post round trip",
                "ns",
                at_most(1.1, "BM_EventfdPingPongFloor"),
            ),
            Metric(
                "BM_CrossThreadRoundTripInternal",
                "loop: cross-thread PostInternal round trip",
                "ns",
                at_most(1.1, "BM_EventfdPingPongFloor"),
            ),
            Metric("BM_EventfdPingPongFloor", "loop: eventfd ping-pong floor", "ns"),
            # For reading the waitAsync row: a round trip where both sides
            # sleep in futexes, as fast as two threads can take turns.
            Metric("BM_FutexPingPong", "loop: futex ping-pong (reference)", "ns"),
        ],
    ),
    Row(
        # The same three, as CPU time of both threads per round trip (counter cpu_ns): less
        # sensitive than wall time to scheduling. For information.
        "cross_thread_cpu",
        "gbench",
        timeout_s=300,
        metrics=[
            Metric("BM_CrossThreadRoundTrip", "loop: cross-thread post, CPU", "ns", counter="cpu_ns"),
            Metric("BM_CrossThreadRoundTripInternal", "loop: cross-thread PostInternal, CPU", "ns",
                   counter="cpu_ns"),
            Metric("BM_EventfdPingPongFloor", "loop: eventfd ping-pong floor, CPU", "ns",
                   counter="cpu_ns"),
        ],
    ),
    Row(
        "same_thread_post_run",
        "gbench",
        timeout_s=300,
        metrics=[
            Metric("BM_SameThreadPostAndRun", "loop: Post x1000 + RunUntilIdle, per entry", "ns",
                   at_most(50), field="cpu_time"),
        ],
    ),
    Row(
        # One entry per pass (each posts the next): the loop's floor under
        # the macrotask chain rows, V8 left out. For information.
        "ordered_chain",
        "gbench",
        timeout_s=300,
        metrics=[
            Metric("BM_OrderedChain", "loop: self-reposting ordered entry, per pass", "ns",
                   field="cpu_time"),
        ],
    ),
    Row(
        "internal_lane_drain",
        "gbench",
        timeout_s=300,
        metrics=[
            Metric("BM_InternalLaneDrain", "loop: internal lane drain (10k entries)", "entries/s",
                   at_least(10e6), counter="entries_per_s"),
        ],
    ),
    Row(
        "timers_1m_pending",
        "gbench",
        timeout_s=300,
        metrics=[
            Metric("BM_TimerScheduleWith1MPending", "loop: TimerQueue schedule, 1M pending", "ns",
                   at_most(60)),
            # Cancels as the runtime makes them (a task's clearTimeout()s
            # flushed together through CancelMany) carry the target; one call
            # per cancel is shown beside them (see bench/README.md).
            Metric("BM_TimerCancelManyWith1MPending",
                   "loop: TimerQueue cancel random, 1M pending, batched", "ns", at_most(30)),
            Metric("BM_TimerCancelWith1MPending",
                   "loop: TimerQueue cancel random, 1M pending, one call each", "ns"),
            Metric("BM_LooperScheduleWith1MPending", "loop: Looper::Schedule, 1M pending", "ns",
                   at_most(60)),
            Metric("BM_LooperCancelManyWith1MPending",
                   "loop: Looper cancel random, 1M pending, batched", "ns", at_most(30)),
            Metric("BM_LooperCancelWith1MPending",
                   "loop: Looper::Cancel random, 1M pending, one call each", "ns"),
        ],
    ),
]

KIND_DEFAULT_RUNS = {"startup": 20, "js": 5, "gbench": 5, "idle": 5}
QUICK_RUNS = 3

# --------------------------------------------------------------------------------------------
# Helpers


def fmt_num(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) >= 1000):
        return f"{int(x)}"
    ax = abs(x)
    if ax == 0:
        return "0"
    if ax >= 100:
        return f"{x:.0f}"
    if ax >= 10:
        return f"{x:.1f}"
    if ax >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def json_num(x):
    if x is None:
        return None
    if float(x).is_integer():
        return int(x)
    return round(x, 4)


def median(xs):
    return statistics.median(xs) if xs else None


def progress(msg: str) -> None:
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def error_summary(stderr: str) -> str:
    """The first non-empty stderr line, plus the first line naming an error if that differs
    (node prints the failing location before the error itself)."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    if not lines:
        return ""
    first = lines[0]
    err = next((ln for ln in lines if re.search(r"\b\w*(Error|Exception|panic)\b", ln)), None)
    if err and err != first:
        return short(f"{first} | {err}")
    return short(first)


def status_text(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return f"killed by {name}"
    return f"exit {os.waitstatus_to_exitcode(status)}"


@dataclasses.dataclass
class Proc:
    wall_s: float
    status: int  # raw wait status
    maxrss_kib: int
    stdout: str
    stderr: str
    timed_out: bool
    cpu_s: float = 0.0  # user + system CPU time of the child (all threads, waited-for children)

    @property
    def ok(self) -> bool:
        return not self.timed_out and os.WIFEXITED(self.status) and os.WEXITSTATUS(self.status) == 0

    def failure(self) -> str:
        what = "timed out" if self.timed_out else status_text(self.status)
        err = error_summary(self.stderr)
        return f"{what}: {err}" if err else what


CHILD_ENV = dict(os.environ)
CHILD_ENV.update(
    {
        "NO_COLOR": "1",
        "DENO_NO_UPDATE_CHECK": "1",
        "DENO_NO_PROMPT": "1",
        "DO_NOT_TRACK": "1",
    }
)


# start() may run on several threads at once (idle rows overlap their processes); chdir and
# the thread's CPU affinity are changed around posix_spawn under this lock.
_SPAWN_LOCK = threading.Lock()


@dataclasses.dataclass
class Started:
    """A child process from start(); finish() waits for it."""

    pid: int
    t0: float
    out: object
    err: object
    timer: threading.Timer
    timed_out: threading.Event
    error: Optional[Proc] = None  # set when it could not be started


def start(argv, timeout_s: float, cwd: str = JS_DIR, cpus=None) -> Started:
    """Starts argv (stdin /dev/null, stdout/stderr into temp files, its own process group) and
    returns at once; `cpus` (a set of CPU numbers) pins it. The child is killed after
    timeout_s."""
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, out.fileno(), 1),
        (os.POSIX_SPAWN_DUP2, err.fileno(), 2),
    ]
    with _SPAWN_LOCK:
        old_cwd = os.getcwd()
        old_cpus = None
        os.chdir(cwd)  # posix_spawn has no cwd argument before Python 3.13's file actions
        try:
            if cpus is not None:
                # The child inherits this thread's affinity.
                old_cpus = os.sched_getaffinity(0)
                os.sched_setaffinity(0, cpus)
            t0 = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, CHILD_ENV, file_actions=actions, setpgroup=0)
        except OSError as e:
            out.close()
            err.close()
            failed = Proc(0.0, 127 << 8, 0, "", f"cannot run {argv[0]}: {e}", False)
            return Started(0, 0.0, None, None, None, None, error=failed)
        finally:
            if old_cpus is not None:
                os.sched_setaffinity(0, old_cpus)
            os.chdir(old_cwd)
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout_s, kill)
    timer.daemon = True
    timer.start()
    return Started(pid, t0, out, err, timer, timed_out)


def finish(st: Started) -> Proc:
    """Waits for a started child with os.wait4 (for its rusage). Wall time runs from just
    before posix_spawn to wait4's return."""
    if st.error is not None:
        return st.error
    pid = st.pid
    while True:
        try:
            _, status, ru = os.wait4(pid, 0)
            break
        except InterruptedError:
            continue
    t1 = time.perf_counter()
    st.timer.cancel()
    # Anything the child left in its process group goes with it.
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    with st.out as out, st.err as err:
        out.seek(0)
        err.seek(0)
        return Proc(
            wall_s=t1 - st.t0,
            status=status,
            maxrss_kib=ru.ru_maxrss,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            timed_out=st.timed_out.is_set(),
            cpu_s=ru.ru_utime + ru.ru_stime,
        )


def spawn(argv, timeout_s: float, cwd: str = JS_DIR, cpus=None) -> Proc:
    """Runs argv to its end: start() then finish()."""
    return finish(start(argv, timeout_s, cwd, cpus))


# --------------------------------------------------------------------------------------------
# Runtimes


@dataclasses.dataclass
class Runtime:
    name: str
    path: Optional[str]  # None: absent
    version: str = ""
    absent_reason: str = ""

    def argv(self, script: str):
        if self.name == "deno":
            return [self.path, "run", "-A", script]
        return [self.path, script]


def resolve_exe(p: str) -> Optional[str]:
    if os.sep in p:
        p = os.path.abspath(p)
        return p if os.path.isfile(p) and os.access(p, os.X_OK) else None
    return shutil.which(p)


def version_of(path: str) -> Optional[str]:
    try:
        r = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=20, env=CHILD_ENV
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    line = (r.stdout.strip().splitlines() or [""])[0]
    return line.strip()


def find_peer(name: str) -> Optional[str]:
    for p in PEER_BINARIES.get(name, []):
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which(name)


def discover_runtimes(args, notes) -> dict:
    wanted = set(args.runtimes)
    rts = {}

    hl = resolve_exe(args.hostloop)
    if hl is None:
        rts["hostloop"] = Runtime("hostloop", None, absent_reason=f"{args.hostloop} not found (build it first)")
    else:
        v = version_of(hl) or ""
        rts["hostloop"] = Runtime("hostloop", hl, v)

    node = shutil.which("node")
    rts["node"] = Runtime("node", node) if node else Runtime("node", None, absent_reason="node not on PATH")

    install_hint = "run bench/install_peers.sh" if args.no_install else \
        "bench/install_peers.sh could not install it (no npm or registry?)"
    if ({"deno", "bun"} & wanted) and not args.no_install:
        if not all(find_peer(p) for p in ("deno", "bun") if p in wanted):
            script = os.path.join(BENCH_DIR, "install_peers.sh")
            progress("deno/bun missing: running bench/install_peers.sh")
            try:
                subprocess.run(["bash", script], stdout=sys.stderr, stderr=sys.stderr, timeout=900)
            except (OSError, subprocess.TimeoutExpired) as e:
                notes.append(f"install_peers.sh failed: {e}")
    for p in ("deno", "bun"):
        path = find_peer(p)
        rts[p] = (
            Runtime(p, path)
            if path
            else Runtime(p, None, absent_reason=f"not in bench/peers nor on PATH ({install_hint})")
        )

    for name in ("node", "deno", "bun"):
        rt = rts[name]
        if rt.path is None:
            continue
        v = version_of(rt.path)
        if v is None:
            rts[name] = Runtime(name, None, absent_reason=f"{rt.path} --version failed")
        else:
            v = v.split("(")[0].strip()
            rt.version = v[len(name):].strip() if v.startswith(name + " ") else v

    for name in RUNTIMES:
        if name not in wanted and rts[name].path is not None:
            rts[name] = Runtime(name, None, absent_reason="left out by --runtimes")
    for name in RUNTIMES:
        if rts[name].path is None:
            notes.append(f"{name}: {rts[name].absent_reason}; its column shows '-'")
    return rts


# --------------------------------------------------------------------------------------------
# Cells: what one runtime got for one metric.


@dataclasses.dataclass
class Cell:
    value: Optional[float] = None
    text: str = "-"  # what the table shows when value is None: "-", "n/a", "skip"


def runs_for(row: Row, args) -> int:
    if args.runs is not None:
        return args.runs
    if args.quick:
        return QUICK_RUNS
    return row.runs or KIND_DEFAULT_RUNS[row.kind]


def run_startup(row: Row, rts: dict, args, notes) -> dict:
    n = runs_for(row, args)
    script = os.path.join(JS_DIR, row.script)
    live = [rt for rt in rts.values() if rt.path]
    progress(f"{row.name}: {n} runs x {len(live)} runtimes, round-robin")
    # One unmeasured warm-up run each (page cache, deno's code cache).
    for rt in live:
        spawn(rt.argv(script), row.timeout_s)
    walls = {rt.name: [] for rt in live}
    rss = {rt.name: [] for rt in live}
    failed = {}
    for i in range(n):
        for rt in rotated(live, i):
            if rt.name in failed:
                continue
            p = spawn(rt.argv(script), row.timeout_s)
            if not p.ok:
                failed[rt.name] = p.failure()
                continue
            walls[rt.name].append(p.wall_s * 1e3)
            rss[rt.name].append(p.maxrss_kib / 1024.0)
    out = {}
    for rt in RUNTIMES:
        if rts[rt].path is None:
            out[rt] = {m.key: Cell() for m in row.metrics}
        elif rt in failed:
            notes.append(f"{rt}: {row.name} failed ({failed[rt]})")
            out[rt] = {m.key: Cell(text="n/a") for m in row.metrics}
        else:
            vals = {"wall_ms": median(walls[rt]), "rss_mib": median(rss[rt])}
            out[rt] = {m.key: Cell(vals.get(m.key)) for m in row.metrics}
    return out


def rotated(items, i):
    """Round i of a round-robin starts at item i, so no runtime always runs first or
    always follows the same neighbour."""
    k = i % len(items) if items else 0
    return items[k:] + items[:k]


def parse_json_line(stdout: str):
    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                return obj
    return None


def pinned_cpus(row: Row):
    """The CPU set a row's processes run on: None (not pinned), or the first CPU this process
    may use, the one loop_bench pins its cross-thread benchmarks to by default."""
    if not row.pin_cpu:
        return None
    return {min(os.sched_getaffinity(0))}


def run_js(row: Row, rts: dict, args, notes) -> dict:
    n = runs_for(row, args)
    script = os.path.join(JS_DIR, row.script)
    live = [rt for rt in rts.values() if rt.path]
    cpus = pinned_cpus(row)
    progress(f"{row.name}: {n} runs x {len(live)} runtimes, round-robin"
             + (f", pinned to cpu {min(cpus)}" if cpus else ""))
    samples = {rt.name: {m.key: [] for m in row.metrics} for rt in live}
    failed = {}
    skipped = {}
    for i in range(n):
        for rt in rotated(live, i):
            if rt.name in failed or rt.name in skipped:
                continue
            p = spawn(rt.argv(script), row.timeout_s, cpus=cpus)
            obj = parse_json_line(p.stdout) if p.ok else None
            if not p.ok:
                failed[rt.name] = p.failure()
                continue
            if obj is None:
                failed[rt.name] = "no JSON line on stdout" + (
                    f": {error_summary(p.stderr)}" if p.stderr.strip() else ""
                )
                continue
            if "skip" in obj:
                skipped[rt.name] = str(obj["skip"])
                continue
            missing = [m.key for m in row.metrics if not isinstance(obj.get(m.key), (int, float))]
            if missing:
                failed[rt.name] = f"JSON lacks numeric {', '.join(missing)}: {short(json.dumps(obj))}"
                continue
            for m in row.metrics:
                samples[rt.name][m.key].append(float(obj[m.key]))
    out = {}
    for rt in RUNTIMES:
        if rts[rt].path is None:
            out[rt] = {m.key: Cell() for m in row.metrics}
        elif rt in failed:
            notes.append(f"{rt}: {row.name} failed ({failed[rt]})")
            out[rt] = {m.key: Cell(text="n/a") for m in row.metrics}
        elif rt in skipped:
            notes.append(f"{rt}: {row.name} skipped: {skipped[rt]}")
            out[rt] = {m.key: Cell(text="skip") for m in row.metrics}
        else:
            out[rt] = {m.key: Cell(median(samples[rt][m.key])) for m in row.metrics}
    return out


# Kernel waits counted by idle rows: every way a thread can sleep on fds/timeouts, and futex
# waits (FUTEX_WAIT*: futex calls that wake others are not waits). futex counts because a loop
# may sleep on one: hostloop's does when it watches no fd (src/loop/eventfd_waker.h), and
# thread pools sleep on condition variables. Both scripts of the row pay for the threads
# that merely start and park, so the difference is the waits idling added.
WAIT_SYSCALLS = ["epoll_wait", "epoll_pwait", "epoll_pwait2", "poll", "ppoll", "select",
                 "pselect6"]
FUTEX_WAIT_OPS = ("FUTEX_WAIT", "FUTEX_WAIT_BITSET", "FUTEX_WAIT_REQUEUE_PI", "FUTEX_LOCK_PI")
_strace_argv = None  # cached by strace_prefix()


def strace_prefix(notes):
    """The strace command line that logs WAIT_SYSCALLS and futex calls over all threads (-f),
    one line per call, without the output file (appended per run). None, with a note, when
    strace is missing or cannot trace here (no ptrace permission)."""
    global _strace_argv
    if _strace_argv is not None:
        return _strace_argv or None
    _strace_argv = []
    exe = shutil.which("strace")
    if exe is None:
        notes.append("strace not found: idle rows can't count kernel waits (bench/install_peers.sh "
                     "installs it with apt-get when run as root)")
        return None
    syscalls = list(WAIT_SYSCALLS) + ["futex"]
    why = ""
    # --seccomp-bpf stops the tracee only at the traced syscalls (strace >= 5.3), so the rest
    # of the process runs at full speed. Older strace, or one that doesn't know epoll_pwait2:
    # fall back.
    for seccomp in (True, False):
        for names in (syscalls, [c for c in syscalls if c != "epoll_pwait2"]):
            argv = [exe, "-f", "-qq"] + (["--seccomp-bpf"] if seccomp else []) + \
                ["-e", "trace=" + ",".join(names)]
            try:
                r = subprocess.run(argv + ["-o", os.devnull, "true"], capture_output=True,
                                   text=True, timeout=30)
            except (OSError, subprocess.TimeoutExpired) as e:
                why = str(e)
                continue
            if r.returncode == 0:
                _strace_argv = argv
                return argv
            why = error_summary(r.stderr) or f"exit {r.returncode}"
    notes.append(f"strace can't trace here ({why}): idle rows can't count kernel waits")
    return None


def strace_counts(path: str) -> Optional[int]:
    """The number of kernel waits in an `strace -f -o path` log: calls of WAIT_SYSCALLS, and
    futex calls whose operation waits. A call interrupted by another thread's output shows
    up as "futex(... <unfinished ...>" and later "<... futex resumed>": only the first names
    the operation, and only it is counted. None when there is no log."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    total = 0
    for ln in text.splitlines():
        # "123   epoll_wait(3, ..." (-f with -o), "[pid  123] epoll_wait(3, ..." (-f to a
        # terminal), or "epoll_wait(3, ...".
        m = re.match(r"(?:\[pid\s+\d+\]\s+|\d+\s+)?(\w+)\((.*)", ln)
        if not m:
            continue
        name, rest = m.groups()
        if name in WAIT_SYSCALLS:
            total += 1
        elif name == "futex":
            args = rest.split(",", 2)
            op = args[1].strip() if len(args) > 1 else ""
            op = op.split("|")[0].replace("_PRIVATE", "")
            if op in FUTEX_WAIT_OPS:
                total += 1
    return total


def run_idle(row: Row, rts: dict, args, notes) -> dict:
    """An idle row: what row.script costs beyond row.baseline, per runtime, as metrics
    "cpu_ms" (user + system CPU from wait4's rusage) and "waits" (kernel waits counted by
    strace). Each round, per runtime, overlapped so that a round costs about one script run:
      t=0      the script, untraced (its CPU time)
      t=0.5 s  the script under strace (its waits), once the first one is asleep
      t=1.0 s  the baseline untraced, then the baseline under strace, one after the other
    so no two start-ups overlap while the long-running script sleeps. Values are medians over
    rounds of (script - baseline) from the same round."""
    n = runs_for(row, args)
    script = os.path.join(JS_DIR, row.script)
    base = os.path.join(JS_DIR, row.baseline)
    live = [rt for rt in rts.values() if rt.path]
    strace = strace_prefix(notes)
    progress(f"{row.name}: {n} runs x {len(live)} runtimes, round-robin"
             + ("" if strace else " (no strace: CPU only)"))
    samples = {rt.name: {"cpu_ms": [], "waits": []} for rt in live}
    failed = {}
    with tempfile.TemporaryDirectory() as tmp:
        s_out, b_out = os.path.join(tmp, "script.strace"), os.path.join(tmp, "baseline.strace")
        for i in range(n):
            for rt in rotated(live, i):
                if rt.name in failed:
                    continue
                for f in (s_out, b_out):
                    if os.path.exists(f):
                        os.unlink(f)
                t0 = time.perf_counter()
                st_script = start(rt.argv(script), row.timeout_s)
                st_traced = None
                if strace:
                    time.sleep(max(0.0, t0 + 0.5 - time.perf_counter()))
                    st_traced = start(strace + ["-o", s_out] + rt.argv(script), row.timeout_s)
                    time.sleep(max(0.0, t0 + 1.0 - time.perf_counter()))
                p_base = spawn(rt.argv(base), row.timeout_s)
                p_base_traced = spawn(strace + ["-o", b_out] + rt.argv(base), row.timeout_s) \
                    if strace else None
                p_script = finish(st_script)
                p_traced = finish(st_traced) if st_traced else None
                for what, p in (("script", p_script), ("baseline", p_base),
                                ("traced script", p_traced), ("traced baseline", p_base_traced)):
                    if p is not None and not p.ok:
                        failed[rt.name] = f"{what}: {p.failure()}"
                        break
                if rt.name in failed:
                    continue
                samples[rt.name]["cpu_ms"].append((p_script.cpu_s - p_base.cpu_s) * 1e3)
                if strace:
                    a, b = strace_counts(s_out), strace_counts(b_out)
                    if a is None or b is None:
                        failed[rt.name] = "no strace summary"
                        continue
                    samples[rt.name]["waits"].append(float(a - b))
    out = {}
    for rt in RUNTIMES:
        if rts[rt].path is None:
            out[rt] = {m.key: Cell() for m in row.metrics}
        elif rt in failed:
            notes.append(f"{rt}: {row.name} failed ({failed[rt]})")
            out[rt] = {m.key: Cell(text="n/a") for m in row.metrics}
        else:
            out[rt] = {}
            for m in row.metrics:
                xs = samples[rt].get(m.key, [])
                out[rt][m.key] = Cell(median(xs)) if xs else Cell(text="skip")
    return out


TIME_UNITS_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def gbench_ref(row: Row, m: Metric) -> Optional[str]:
    """The benchmark a startup/js/idle row's target refers to (a ref that is not a runtime,
    e.g. at_most(1.1, "BM_EventfdPingPongFloor")), or None."""
    t = m.target
    if row.kind == "gbench" or t is None or t.ref is None or t.ref in RUNTIMES or t.ref == FASTEST_PEER:
        return None
    return t.ref


def gbench_names_needed(rows) -> list:
    names = []
    for row in rows:
        for m in row.metrics:
            if row.kind != "gbench":
                if gbench_ref(row, m):
                    names.append(gbench_ref(row, m))
                continue
            names.append(m.key)
            if m.target and m.target.ref:
                names.append(m.target.ref)
    return list(dict.fromkeys(names))


def match_bench(name: str, available: list) -> Optional[str]:
    if name in available:
        return name
    pref = [a for a in available if a.startswith(name + "/")]
    return pref[0] if pref else None


def run_gbench(rows, args, notes) -> dict:
    """Runs the loop_bench binary once for every selected gbench row.
    Returns {benchmark name: median aggregate entry}; empty when it can't run."""
    path = resolve_exe(args.loop_bench) if args.loop_bench else None
    if path is None:
        notes.append(f"gbench rows: {args.loop_bench or '--loop-bench'} not found; they show '-'")
        return {}
    try:
        listed = subprocess.run(
            [path, "--benchmark_list_tests=true"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        notes.append(f"gbench: {path} --benchmark_list_tests failed: {e}")
        return {}
    available = [ln.strip() for ln in listed.stdout.splitlines() if ln.strip()]
    wanted = gbench_names_needed(rows)
    chosen = {}
    for name in wanted:
        full = match_bench(name, available)
        if full is None:
            notes.append(
                f"gbench: {name} is not in {os.path.basename(path)} "
                f"(it has: {', '.join(available) or 'nothing'})"
            )
        else:
            if full != name and not re.fullmatch(r"/(real|manual|process)_time", full[len(name):]):
                notes.append(f"gbench: {name} measured as {full}")
            chosen[name] = full
    if not chosen:
        return {}
    gb_rows = [r for r in rows if r.kind == "gbench"]
    reps = runs_for(gb_rows[0], args) if gb_rows else (
        args.runs or (QUICK_RUNS if args.quick else KIND_DEFAULT_RUNS["gbench"]))
    esc = lambda s: re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", s)
    filt = "^(" + "|".join(esc(f) for f in dict.fromkeys(chosen.values())) + ")$"
    argv = [
        path,
        "--benchmark_format=json",
        f"--benchmark_repetitions={reps}",
        "--benchmark_report_aggregates_only=true",
        f"--benchmark_filter={filt}",
    ]
    progress(f"gbench: {len(set(chosen.values()))} benchmarks x {reps} repetitions")
    try:
        r = subprocess.run(argv, capture_output=True, text=True,
                           timeout=max([r.timeout_s for r in gb_rows] or [300]))
    except subprocess.TimeoutExpired:
        notes.append(f"gbench: {os.path.basename(path)} timed out")
        return {}
    if r.returncode != 0:
        notes.append(f"gbench: {os.path.basename(path)} exit {r.returncode}: {error_summary(r.stderr)}")
        return {}
    try:
        data = json.loads(r.stdout)
    except ValueError:
        notes.append(f"gbench: {os.path.basename(path)} printed no JSON")
        return {}
    by_run = {}
    for b in data.get("benchmarks", []):
        run_name = b.get("run_name", b.get("name"))
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                by_run[run_name] = b
        elif run_name not in by_run:  # one repetition: no aggregates
            by_run[run_name] = b
    return {name: by_run[full] for name, full in chosen.items() if full in by_run}


def gbench_value(entry: dict, m: Metric) -> Optional[float]:
    if entry is None:
        return None
    if m.counter:
        v = entry.get(m.counter)
        return float(v) if isinstance(v, (int, float)) else None
    v = entry.get(m.field)
    if not isinstance(v, (int, float)):
        return None
    ns = float(v) * TIME_UNITS_NS.get(entry.get("time_unit", "ns"), 1.0)
    return ns / TIME_UNITS_NS.get(m.unit, 1.0)


# --------------------------------------------------------------------------------------------
# Verdicts and output


@dataclasses.dataclass
class Line:
    row: Row
    metric: Metric
    cells: dict  # runtime -> Cell
    ratio: Optional[float] = None
    ref_value: Optional[float] = None
    verdict: str = "-"
    ref_name: Optional[str] = None  # the peer a FASTEST_PEER target resolved to


def evaluate(line: Line, gb: dict, results: dict) -> None:
    t = line.metric.target
    h = line.cells["hostloop"].value
    if t is None or h is None:
        return
    if t.ref_row:
        row_name, key = t.ref_row.split(".")
        cell = results.get(row_name, {}).get(t.ref, {}).get(key, Cell())
        if cell.value is None or cell.value == 0:
            return
        line.ref_value = cell.value
        line.ratio = h / cell.value
        line.verdict = "ok" if t.holds(line.ratio) else "MISS"
        return
    if t.ref is None:
        line.verdict = "ok" if t.holds(h) else "MISS"
        return
    if line.row.kind == "gbench":
        ref_metric = dataclasses.replace(line.metric, key=t.ref)
        ref = gbench_value(gb.get(t.ref), ref_metric)
    elif gbench_ref(line.row, line.metric):
        # A benchmark's real time, in this metric's time unit.
        ref_metric = dataclasses.replace(line.metric, key=t.ref, counter=None, field="real_time")
        ref = gbench_value(gb.get(t.ref), ref_metric)
    elif t.ref == FASTEST_PEER:
        measured = [(line.cells[p].value, p) for p in PEERS
                    if p in line.cells and line.cells[p].value is not None]
        if not measured:
            return
        pick = min if t.op in ("<=", "<") else max
        ref, line.ref_name = pick(measured)
    else:
        ref = line.cells.get(t.ref, Cell()).value
    if ref is None or ref == 0:
        return
    line.ref_value = ref
    line.ratio = h / ref
    line.verdict = "ok" if t.holds(line.ratio) else "MISS"


def render_table(lines) -> str:
    header = ["benchmark", "hostloop", "node", "deno", "bun", "target", "verdict"]
    body = []
    for ln in lines:
        label = f"{ln.metric.label} ({ln.metric.unit})" if ln.metric.unit else ln.metric.label
        cells = []
        for rt in RUNTIMES:
            c = ln.cells[rt]
            s = fmt_num(c.value) if c.value is not None else c.text
            if rt == "hostloop" and ln.ratio is not None:
                s += f" ({ln.ratio:.2f}x)"
            cells.append(s)
        target = ln.metric.target.describe(ln.metric.unit) if ln.metric.target else "-"
        body.append([label] + cells + [target, ln.verdict])
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]

    def fmt(r):
        parts = []
        for i, s in enumerate(r):
            if i == 0 or i >= 5:
                parts.append(s.ljust(widths[i]))
            else:
                parts.append(s.rjust(widths[i]))
        return " | ".join(parts).rstrip()

    sep = "-+-".join("-" * w for w in widths)
    return "\n".join([fmt(header), sep] + [fmt(r) for r in body])


def machine_info() -> dict:
    info = {"nproc": os.cpu_count()}
    try:
        info["nproc"] = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    try:
        info["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        info["loadavg"] = None
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for ln in f:
                if ln.startswith("model name"):
                    cpu = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info["cpu"] = cpu or platform.processor()
    info["kernel"] = platform.release()
    try:
        with open("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") as f:
            info["governor"] = f.read().strip()
    except OSError:
        pass
    return info


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hostloop", default=os.path.join(ROOT_DIR, "build/release/hostloop"),
                    help="hostloop binary (default: build/release/hostloop)")
    ap.add_argument("--loop-bench", default=os.path.join(ROOT_DIR, "build/release/bench/loop_bench"),
                    help="Google Benchmark binary for gbench rows")
    ap.add_argument("--runs", type=int, help="repetitions for every row (default: per row)")
    ap.add_argument("--quick", action="store_true", help=f"fast smoke run: {QUICK_RUNS} runs per row")
    ap.add_argument("--only", help="comma-separated row names or kinds (startup, js, gbench)")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES),
                    help="comma-separated subset of hostloop,node,deno,bun")
    ap.add_argument("--no-install", action="store_true",
                    help="don't run bench/install_peers.sh when deno/bun are missing")
    ap.add_argument("--json", action="store_true", help="print only the JSON line")
    ap.add_argument("--fail-on-miss", action="store_true", help="exit 1 when a verdict is MISS")
    ap.add_argument("--list", action="store_true", help="list the rows and exit")
    args = ap.parse_args(argv)
    if args.runs is not None and args.runs < 1:
        ap.error("--runs must be >= 1")
    args.runtimes = [r.strip() for r in args.runtimes.split(",") if r.strip()]
    bad = [r for r in args.runtimes if r not in RUNTIMES]
    if bad:
        ap.error(f"unknown runtime(s) {', '.join(bad)}; choose from {', '.join(RUNTIMES)}")
    return args, ap


def select_rows(args, ap):
    if not args.only:
        return list(ROWS)
    want = [w.strip() for w in args.only.split(",") if w.strip()]
    names = {r.name for r in ROWS}
    kinds = {r.kind for r in ROWS}
    bad = [w for w in want if w not in names and w not in kinds]
    if bad:
        ap.error(f"unknown row(s) {', '.join(bad)}; rows: {', '.join(r.name for r in ROWS)}; "
                 f"kinds: {', '.join(sorted(kinds))}")
    return [r for r in ROWS if r.name in want or r.kind in want]


def main(argv=None) -> int:
    args, ap = parse_args(sys.argv[1:] if argv is None else argv)
    if args.list:
        for r in ROWS:
            print(f"{r.name:28} {r.kind:8} " + "; ".join(
                f"{m.key} [{m.unit}] {m.target.describe(m.unit) if m.target else '-'}" for m in r.metrics))
        return 0
    rows = select_rows(args, ap)
    # A row whose target refers to another js row's value brings that row along, first.
    for row in list(rows):
        for m in row.metrics:
            if m.target and m.target.ref_row:
                ref_name = m.target.ref_row.split(".")[0]
                if all(r.name != ref_name for r in rows):
                    rows.insert(rows.index(row), next(r for r in ROWS if r.name == ref_name))
    notes = []
    started = time.time()
    machine = machine_info()
    rts = discover_runtimes(args, notes)

    results = {}  # row name -> {runtime -> {key -> Cell}}
    gb = {}
    gb_rows = [r for r in rows if r.kind == "gbench"]
    for row in rows:
        if row.kind == "startup":
            results[row.name] = run_startup(row, rts, args, notes)
        elif row.kind == "js":
            results[row.name] = run_js(row, rts, args, notes)
        elif row.kind == "idle":
            results[row.name] = run_idle(row, rts, args, notes)
    # Rows of other kinds may compare with a benchmark (gbench_ref): it joins the same run.
    ref_rows = [r for r in rows if r.kind != "gbench" and any(gbench_ref(r, m) for m in r.metrics)]
    if gb_rows or ref_rows:
        gb = run_gbench(gb_rows + ref_rows, args, notes)
        for row in ref_rows:
            for m in row.metrics:
                ref = gbench_ref(row, m)
                if ref is None:
                    continue
                v = gbench_value(gb.get(ref), dataclasses.replace(m, key=ref, counter=None,
                                                                    field="real_time")) \
                    if ref in gb else None
                notes.append(f"{row.name}: reference {ref} = "
                             + (f"{fmt_num(v)} {m.unit} (loop_bench median, this run)"
                                if v is not None else "not measured; no verdict"))
    if gb_rows:
        if any(rts[p].path for p in ("node", "deno", "bun")):
            notes.append("gbench rows measure hostloop's C++ loop alone; the peer columns don't apply")
        for row in gb_rows:
            out = {rt: {m.key: Cell() for m in row.metrics} for rt in RUNTIMES}
            for m in row.metrics:
                out["hostloop"][m.key] = Cell(gbench_value(gb.get(m.key), m))
            results[row.name] = out

    lines = []
    for row in rows:
        for m in row.metrics:
            ln = Line(row, m, {rt: results[row.name][rt][m.key] for rt in RUNTIMES})
            evaluate(ln, gb, results)
            lines.append(ln)
            if ln.ref_name:
                notes.append(f"{row.name}.{m.key}: the fastest peer is {ln.ref_name} "
                             f"({fmt_num(ln.ref_value)} {m.unit})")
    elapsed = time.time() - started

    payload = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine,
        "runtimes": {rt: ({"path": r.path, "version": r.version} if r.path else None)
                     for rt, r in rts.items()},
        "elapsed_s": round(elapsed, 1),
        "notes": list(dict.fromkeys(notes)),
        "results": {},
    }
    for ln in lines:
        key = f"{ln.row.name}.{ln.metric.key}"
        payload["results"][key] = {
            "unit": ln.metric.unit,
            "median": {rt: json_num(c.value) for rt, c in ln.cells.items()},
            "runs": runs_for(ln.row, args),
            "target": ln.metric.target.describe(ln.metric.unit) if ln.metric.target else None,
            "ratio": round(ln.ratio, 4) if ln.ratio is not None else None,
            "verdict": ln.verdict,
        }
    json_line = json.dumps(payload, separators=(",", ":"), sort_keys=False)

    if args.json:
        print(json_line)
    else:
        load = machine.get("loadavg")
        print(f"hostloop bench, {payload['date']}")
        print(
            f"machine: nproc {machine['nproc']}, load average "
            f"{' '.join(str(x) for x in load) if load else '?'} (1/5/15 min), {machine['cpu']}, "
            f"Linux {machine['kernel']}" + (f", governor {machine['governor']}" if "governor" in machine else "")
        )
        vers = []
        for rt in RUNTIMES:
            r = rts[rt]
            if r.path is None:
                vers.append(f"{rt} -")
            elif rt == "hostloop":
                vers.append(f"hostloop {os.path.relpath(r.path, ROOT_DIR) if r.path.startswith(ROOT_DIR) else r.path}")
            else:
                vers.append(f"{rt} {r.version}")
        print("runtimes: " + ", ".join(vers))
        print("cells are medians of repeated runs (runtimes interleaved round-robin); ratio targets "
              "compare hostloop with the reference measured in this same run, absolute targets "
              "(ms, MiB) depend on the machine.")
        if load and machine["nproc"] and load[0] > 0.5 * machine["nproc"]:
            print(f"warning: load average {load[0]} on {machine['nproc']} cpus: numbers will be noisy")
        print()
        print(render_table(lines))
        print()
        misses = [ln for ln in lines if ln.verdict == "MISS"]
        print(f"{sum(ln.verdict == 'ok' for ln in lines)} ok, {len(misses)} MISS, "
              f"{sum(ln.verdict == '-' for ln in lines)} not evaluated; took {elapsed:.0f} s")
        if notes:
            print("notes:")
            for n in dict.fromkeys(notes):
                print(f"  - {n}")
        print(json_line)
    if args.fail_on_miss and any(ln.verdict == "MISS" for ln in lines):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
