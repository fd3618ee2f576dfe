#!/usr/bin/env python3
"""The build tree's libnode copy (cmake/V8.cmake, scripts/prelink_libnode.py).

  1. every binary given loads libnode.so.108 from the build tree's copy;
  2. the copy differs from the original only in relocation entries: each
     changed entry is a symbol relocation (64, GLOB_DAT, JUMP_SLOT) against a
     global symbol or weak function libnode defines, turned into RELATIVE with the
     symbol's address folded in (the address libnode's own definition has);
     the section headers, symbols and every other byte are the original's;
  3. no binary given, and no library it loads before libnode, defines a strong
     symbol whose references were made relative, or copies a libnode object
     (`prelink_libnode.py --check`);
  4. the loader does the work expected: hostloop starts with at most half the symbol
     lookups it makes with the original (LD_DEBUG=statistics), and runs a script.

usage: prelink_test.py ORIGINAL_LIBNODE COPY BINARY...
"""
import os
import pathlib
import re
import struct
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "scripts"))
import prelink_libnode as pl  # noqa: E402


def loaded_libnode(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    match = re.search(r"libnode\.so\.108 => (\S+)", out)
    return match.group(1) if match else None


def libraries_before_libnode(binary):
    """The libraries the loader searches before libnode for `binary` (ldd lists them in
    load order, which is the lookup order): their definitions could interpose libnode's."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        match = re.search(r"(\S+) => (/\S+)", line)
        if not match:
            continue
        if match.group(1) == "libnode.so.108":
            return found
        found.append(match.group(2))
    return found


def relocation_entries(elf):
    for sec in elf.rela_sections():
        for off in range(sec["offset"], sec["offset"] + sec["size"], 24):
            yield off


def check_copy(original, copy, failures):
    a = open(original, "rb").read()
    b = open(copy, "rb").read()
    if len(a) != len(b):
        failures.append(f"size differs: {len(a)} vs {len(b)}")
        return
    elf = pl.Elf(a)
    syms = elf.dynsym()
    convertible = pl.convertible_symbols(syms)
    changed = 0
    for off in relocation_entries(elf):
        if a[off:off + 24] == b[off:off + 24]:
            continue
        changed += 1
        r_offset, r_info, r_addend = struct.unpack_from("<QQq", a, off)
        n_offset, n_info, n_addend = struct.unpack_from("<QQq", b, off)
        rtype, rsym = r_info & 0xFFFFFFFF, r_info >> 32
        if rtype not in pl.CONVERTIBLE or rsym not in convertible:
            failures.append(f"entry at {off:#x}: type {rtype} symbol {syms[rsym][0]!r} must not change")
            continue
        want = syms[rsym][4] + (r_addend if rtype == pl.R_X86_64_64 else 0)
        if (n_offset, n_info, n_addend) != (r_offset, pl.R_X86_64_RELATIVE, want):
            failures.append(f"entry at {off:#x}: got {(n_offset, n_info, n_addend)}, "
                            f"want {(r_offset, pl.R_X86_64_RELATIVE, want)}")
    if changed < 10000:
        failures.append(f"only {changed} relocations were made relative (the original has ~53,000 to convert)")
    # Outside the relocation sections, every byte is the original's.
    start = 0
    for sec in sorted(elf.rela_sections(), key=lambda sec: sec["offset"]) + [dict(offset=len(a), size=0)]:
        if a[start:sec["offset"]] != b[start:sec["offset"]]:
            failures.append(f"bytes between {start:#x} and {sec['offset']:#x} differ")
        start = sec["offset"] + sec["size"]
    return changed


def lookups(binary, library_dir, script):
    env = dict(os.environ, LD_DEBUG="statistics")
    if library_dir:
        env["LD_LIBRARY_PATH"] = library_dir
    result = subprocess.run([binary, script], capture_output=True, text=True, env=env, timeout=60)
    match = re.search(r"final number of relocations: (\d+)", result.stderr)
    return result, int(match.group(1)) if match else None


def main():
    original, copy, *binaries = sys.argv[1:]
    failures = []
    copy_dir = str(pathlib.Path(copy).resolve().parent)

    for binary in binaries:
        where = loaded_libnode(binary)
        if where is None or str(pathlib.Path(where).resolve().parent) != copy_dir:
            failures.append(f"{binary} loads libnode from {where}, not from {copy_dir}")

    changed = check_copy(original, copy, failures)

    earlier = sorted({lib for binary in binaries for lib in libraries_before_libnode(binary)})
    clashes = subprocess.run([sys.executable, pl.__file__, "--check", original, *binaries, *earlier],
                             capture_output=True, text=True)
    if clashes.returncode != 0:
        failures.append("a binary defines a symbol made relative:\n" + clashes.stderr)

    hostloop = next((b for b in binaries if pathlib.Path(b).name == "hostloop"), None)
    if hostloop:
        script = pathlib.Path(copy_dir) / "prelink_test_probe.mjs"
        script.write_text("console.log(typeof WebAssembly, [1, 2].map((x) => x * 2).join());\n")
        with_copy, n_copy = lookups(hostloop, None, str(script))
        with_original, n_original = lookups(hostloop, str(pathlib.Path(original).parent), str(script))
        for name, result in (("copy", with_copy), ("original", with_original)):
            if result.returncode != 0 or result.stdout.strip() != "object 2,4":
                failures.append(f"hostloop with the {name} exited {result.returncode}: {result.stdout!r}")
        if n_copy is None or n_original is None:
            failures.append("LD_DEBUG=statistics printed no relocation count")
        elif not 2 * n_copy <= n_original:
            failures.append(f"symbol lookups at start: {n_copy} with the copy, {n_original} with the original")
        else:
            print(f"symbol lookups at start: {n_copy} with the copy, {n_original} with the original")

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(failures)} failure(s); {changed} relocations made relative")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
