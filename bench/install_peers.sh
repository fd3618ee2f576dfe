#!/usr/bin/env bash
# Installs Deno and Bun into bench/peers/ (git-ignored) for side-by-side runs
# in bench/run.py, and strace (with apt-get, when run as root) for the
# idle_cost row. Node is expected on PATH already.
#
# Both come from the npm registry as prebuilt per-platform packages; the
# binaries are inside them:
#   bench/peers/node_modules/@deno/linux-x64-glibc/deno
#   bench/peers/node_modules/@oven/bun-linux-x64/bin/bun
# (on an x86-64 CPU without AVX2 that bun cannot run; the
# @oven/bun-linux-x64-baseline package is installed instead).
#
# Idempotent: a peer whose binary is present and answers --version is skipped.
# Never fatal: without npm, the registry, or on another platform it prints a
# note and exits 0; run.py then shows the missing peer as "-".
set -u

bench_dir="$(cd "$(dirname "$0")" && pwd)"
prefix="$bench_dir/peers"
mods="$prefix/node_modules"
deno_bin="$mods/@deno/linux-x64-glibc/deno"
bun_bin="$mods/@oven/bun-linux-x64/bin/bun"
bun_baseline_bin="$mods/@oven/bun-linux-x64-baseline/bin/bun"

note() { echo "install_peers: $*" >&2; }

runs() { [ -x "$1" ] && "$1" --version >/dev/null 2>&1; }

# strace: run.py's idle_cost row counts kernel waits with it. Installed with apt-get when
# this runs as root on a Debian/Ubuntu machine; otherwise a note (the row then shows
# "skip" for the waits).
if command -v strace >/dev/null 2>&1; then
  :
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  note "apt-get install strace"
  apt_to=()
  command -v timeout >/dev/null 2>&1 && apt_to=(timeout 300)
  export DEBIAN_FRONTEND=noninteractive
  "${apt_to[@]}" apt-get install -y -q strace >&2 ||
    { "${apt_to[@]}" apt-get update -q >&2 && "${apt_to[@]}" apt-get install -y -q strace >&2; } ||
    note "could not install strace; idle_cost will not count kernel waits"
else
  note "strace not found (install it, e.g. apt-get install strace, for idle_cost's kernel waits)"
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  note "only linux x86-64 packages are wired up here ($(uname -s)-$(uname -m)); skipping"
  exit 0
fi

want=()
if runs "$deno_bin"; then
  note "deno present: $("$deno_bin" --version 2>/dev/null | head -n1)"
else
  want+=(@deno/linux-x64-glibc)
fi

bun_pkg=@oven/bun-linux-x64
grep -qw avx2 /proc/cpuinfo 2>/dev/null || bun_pkg=@oven/bun-linux-x64-baseline
if runs "$bun_bin" || runs "$bun_baseline_bin"; then
  b="$bun_bin"; runs "$b" || b="$bun_baseline_bin"
  note "bun present: $("$b" --version 2>/dev/null | head -n1)"
else
  want+=("$bun_pkg")
fi

[ "${#want[@]}" = 0 ] && exit 0

if ! command -v npm >/dev/null 2>&1; then
  note "npm not found; cannot install ${want[*]} (peers will show as '-')"
  exit 0
fi

mkdir -p "$prefix" || { note "cannot create $prefix"; exit 0; }
note "npm install --prefix bench/peers ${want[*]}"
to=()
command -v timeout >/dev/null 2>&1 && to=(timeout 600)
if ! "${to[@]}" npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
    --fetch-retries=1 --fetch-timeout=60000 "${want[@]}" >&2; then
  note "npm install failed (registry unavailable?); peers that are missing will show as '-'"
  exit 0
fi

runs "$deno_bin" && note "deno: $("$deno_bin" --version 2>/dev/null | head -n1)" ||
  note "deno: not runnable after install"
if runs "$bun_bin"; then
  note "bun: $("$bun_bin" --version 2>/dev/null)"
elif runs "$bun_baseline_bin"; then
  note "bun (baseline build): $("$bun_baseline_bin" --version 2>/dev/null)"
else
  note "bun: not runnable after install"
fi
exit 0
