#!/usr/bin/env python3
"""The V8 header guard (cmake/V8.cmake, scripts/setup.sh).

These machines carry Node 20's V8 11.3 headers in /usr/include/node; compiled
against libnode.so.108 (V8 10.2) they build and then crash. The build must
use headers only after their v8-version.h says V8_MAJOR_VERSION == 10, and
refuse anything else loudly:

  1. configuring with a root whose v8-version.h says 11 fails, naming the
     version and the folder;
  2. when /usr/include/node is not V8 10 (Node 20's headers), configuring
     with /usr fails the same way, and the root this build uses is not /usr;
  3. the root this build uses holds V8 10 headers.

usage: v8_guard_test.py SOURCE_DIR V8_ROOT_IN_USE
"""
import pathlib
import re
import subprocess
import sys
import tempfile


def major_of(root):
    header = pathlib.Path(root) / "include/node/v8-version.h"
    if not header.exists():
        return None
    match = re.search(r"^#define V8_MAJOR_VERSION (\d+)", header.read_text(), re.M)
    return match.group(1) if match else None


def configure(source, root, scratch):
    build = pathlib.Path(scratch) / "build"
    return subprocess.run(
        ["cmake", "-S", source, "-B", str(build), f"-DHOSTLOOP_V8_ROOT={root}"],
        capture_output=True, text=True, timeout=300)


def expect_refused(source, root, major, scratch, failures):
    result = configure(source, root, scratch)
    output = result.stdout + result.stderr
    wanted = f"{root}/include/node holds V8 {major} headers"
    # CMake wraps long messages; compare with whitespace collapsed.
    flat = " ".join(output.split())
    if result.returncode == 0:
        failures.append(f"configure with V8 {major} headers at {root} succeeded")
    elif wanted not in flat:
        failures.append(f"configure with {root} failed without saying {wanted!r}:\n{output}")


def main():
    source, in_use = sys.argv[1], sys.argv[2].rstrip("/")
    failures = []

    with tempfile.TemporaryDirectory() as scratch:
        fake = pathlib.Path(scratch) / "v8-11"
        (fake / "include/node").mkdir(parents=True)
        (fake / "include/node/v8-version.h").write_text(
            "#define V8_MAJOR_VERSION 11\n#define V8_MINOR_VERSION 3\n")
        expect_refused(source, str(fake), "11", scratch, failures)

    system_major = major_of("/usr")
    if system_major is not None and system_major != "10":
        with tempfile.TemporaryDirectory() as scratch:
            expect_refused(source, "/usr", system_major, scratch, failures)
        if in_use == "/usr":
            failures.append(f"the build uses /usr although its headers are V8 {system_major}")
    else:
        print(f"note: /usr/include/node is {'absent' if system_major is None else 'V8 10'}; "
              "the Node 20 case was checked with the fake root only")

    if major_of(in_use) != "10":
        failures.append(f"the build's V8 root {in_use} does not hold V8 10 headers")

    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print("ok: V8 11 headers refused; the build uses V8 10 headers from", in_use)
    return 0


if __name__ == "__main__":
    sys.exit(main())
