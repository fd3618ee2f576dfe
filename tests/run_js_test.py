#!/usr/bin/env python3
"""Runs one JS spec test (tests/js/NAME.mjs) with the hostloop binary.

Directives in the test's leading comment lines:
  // hostloop-flags: --v8-flags=--expose-gc --uncaught-errors=warn
  // expect-exit: 1                (default 0)
  // differential: node            (also run `node FILE`; stdouts must match)
Expected output files beside the test:
  NAME.stdout   stdout must equal it exactly
  NAME.stderr   each of its lines must appear in stderr, in order
                ({DIR} stands for the test's directory)
"""
import os
import shutil
import subprocess
import sys

from crash_markers import SANITIZER_MARKERS


def directives(path):
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("//"):
                if line:
                    break
                continue
            body = line[2:].strip()
            for key in ("hostloop-flags", "expect-exit", "differential", "timeout"):
                if body.startswith(key + ":"):
                    found[key] = body[len(key) + 1:].strip()
    return found


def run(cmd, cwd, timeout):
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode("utf-8", "replace"), (e.stderr or b"").decode("utf-8", "replace")
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def main():
    hostloop, test = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    test_dir = os.path.dirname(test)
    d = directives(test)
    flags = d.get("hostloop-flags", "").split()
    expected_exit = int(d.get("expect-exit", "0"))
    timeout = float(d.get("timeout", "120"))
    code, out, err = run([hostloop, *flags, test], test_dir, timeout)
    failures = []
    if code is None:
        failures.append(f"timed out after {timeout:.0f} s")
    elif code != expected_exit:
        failures.append(f"exit code {code}, expected {expected_exit}")

    # A sanitizer report fails the test even when the exit code was expected.
    for marker in SANITIZER_MARKERS:
        if marker in err:
            failures.append("sanitizer report: " + marker)

    base = test[: -len(".mjs")]
    if os.path.exists(base + ".stdout"):
        with open(base + ".stdout", encoding="utf-8") as f:
            want = f.read()
        if out != want:
            failures.append("stdout differs from " + os.path.basename(base) + ".stdout")
            import difflib
            diff = difflib.unified_diff(want.splitlines(), out.splitlines(), "expected", "actual", lineterm="", n=2)
            failures.append("\n".join(list(diff)[:80]))
    if os.path.exists(base + ".stderr"):
        with open(base + ".stderr", encoding="utf-8") as f:
            wanted = [l.replace("{DIR}", test_dir) for l in f.read().splitlines() if l.strip()]
        position = 0
        for line in wanted:
            found = err.find(line, position)
            if found < 0:
                failures.append(f"stderr lacks (in order): {line!r}")
                break
            position = found + len(line)

    if d.get("differential") == "node":
        node = shutil.which("node")
        if node is None:
            print("note: node is not installed; the differential half was skipped")
        else:
            ncode, nout, nerr = run([node, test], test_dir, timeout)
            if nout != out:
                failures.append("stdout differs from node's")
                import difflib
                diff = difflib.unified_diff(nout.splitlines(), out.splitlines(), "node", "hostloop", lineterm="", n=2)
                failures.append("\n".join(list(diff)[:80]))

    if failures:
        print(f"FAIL {os.path.basename(test)}")
        for failure in failures:
            print("  " + failure)
        print("---- stdout ----\n" + out[-4000:])
        print("---- stderr ----\n" + err[-4000:])
        return 1
    print(f"ok {os.path.basename(test)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
