#!/usr/bin/env bash
# Installs everything hostloop needs to build and test, idempotently.
#
# V8 comes from Debian's libnode108 + libnode-dev (V8 10.2). An installed
# libnode-dev whose headers say V8 10 is used as is; otherwise both packages
# are fetched with `apt-get download` and unpacked with `dpkg -x` into
# third_party/libnode/ (git-ignored). /usr/include/node is used only after
# v8_major_of finds V8_MAJOR_VERSION == 10 in its v8-version.h: machines with
# the nodejs 20 package hold Node's V8 11.3 headers there, never used.
#
# Prints the V8 root (the folder holding include/node and lib/<triplet>) on the
# last line of stdout; the Makefile passes it to CMake.
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
vendor_dir="$root_dir/third_party/libnode"
triplet="$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)"

log() { echo "setup: $*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; return 1; fi
}

apt_updated=0
apt_update_once() {
  if [ "$apt_updated" = 0 ]; then
    log "apt-get update"
    as_root apt-get update -qq >&2
    apt_updated=1
  fi
}

# Installs the Debian packages given that are not installed yet.
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ "${#missing[@]}" = 0 ] && return 0
  log "installing ${missing[*]}"
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; then
    apt_update_once
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
}

v8_major_of() {
  sed -n 's/^#define V8_MAJOR_VERSION \([0-9]*\).*/\1/p' "$1/include/node/v8-version.h" 2>/dev/null
}

# Build tools and test libraries.
need_tools=()
command -v cmake >/dev/null || need_tools+=(cmake)
command -v g++ >/dev/null || need_tools+=(g++)
command -v make >/dev/null || need_tools+=(make)
command -v python3 >/dev/null || need_tools+=(python3)
[ -f /usr/include/gtest/gtest.h ] || need_tools+=(libgtest-dev libgmock-dev)
[ -f /usr/include/benchmark/benchmark.h ] || need_tools+=(libbenchmark-dev)
[ -f /usr/include/editline/readline.h ] || need_tools+=(libedit-dev)
command -v tmux >/dev/null || need_tools+=(tmux)
[ "${#need_tools[@]}" = 0 ] || apt_install "${need_tools[@]}"

# JS dependencies: js_deps/package-lock.json pins whatwg-url and esbuild,
# which bundle the internal script url.js at build time (js_deps/build_url.sh).
# `npm ci` installs them into js_deps/node_modules (git-ignored), skipped
# while the stamp there matches package.json + package-lock.json. Install
# scripts are not run: esbuild's CLI finds its platform binary without them.
js_deps_dir="$root_dir/js_deps"
command -v npm >/dev/null || apt_install npm
js_deps_sum="$(cat "$js_deps_dir/package.json" "$js_deps_dir/package-lock.json" | sha256sum | cut -d' ' -f1)"
js_deps_stamp="$js_deps_dir/node_modules/.hostloop-lock-sha256"
js_deps_current() {
  [ "$(cat "$js_deps_stamp" 2>/dev/null)" = "$js_deps_sum" ] && [ -x "$js_deps_dir/node_modules/.bin/esbuild" ]
}
if ! js_deps_current; then
  # One install at a time when several builds share the checkout.
  mkdir -p "$root_dir/build"
  exec 9>"$root_dir/build/.js_deps.lock"
  flock 9
  if ! js_deps_current; then
    npm_ci() {
      log "npm ci --prefix js_deps"
      npm ci --prefix "$js_deps_dir" --ignore-scripts --no-audit --no-fund >&2
    }
    if ! npm_ci; then
      log "npm ci failed; retrying once"
      sleep 5
      npm_ci
    fi
    echo "$js_deps_sum" > "$js_deps_stamp"
  fi
  exec 9>&-
fi

# V8: a system libnode-dev, only after its v8-version.h says
# V8_MAJOR_VERSION 10 (Node 20's headers there say 11), or the vendored copy.
if [ "$(v8_major_of /usr)" = 10 ] && [ -e "/usr/lib/$triplet/libnode.so.108" ]; then
  v8_root=/usr
  log "using the installed libnode-dev (V8 10)"
else
  v8_root="$vendor_dir/usr"
  if [ "$(v8_major_of "$v8_root")" != 10 ] || [ ! -e "$v8_root/lib/$triplet/libnode.so.108" ]; then
    log "fetching libnode108 + libnode-dev into third_party/libnode"
    rm -rf "$vendor_dir"
    mkdir -p "$vendor_dir/debs"
    download() {
      (cd "$vendor_dir/debs" && apt-get download -o APT::Sandbox::User=root libnode108 libnode-dev >&2)
    }
    if ! download; then
      apt_update_once
      download
    fi
    for deb in "$vendor_dir"/debs/*.deb; do dpkg -x "$deb" "$vendor_dir"; done
    if [ "$(v8_major_of "$v8_root")" != 10 ]; then
      log "libnode-dev did not bring V8 10 headers; giving up"
      exit 1
    fi
  fi
fi

# libnode's own shared-library dependencies (libuv, ICU, OpenSSL, ...).
if ldd "$v8_root/lib/$triplet/libnode.so.108" | grep -q 'not found'; then
  deb="$(ls "$vendor_dir"/debs/libnode108_*.deb 2>/dev/null | head -1 || true)"
  if [ -n "$deb" ]; then
    deps="$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g' | grep '^lib' || true)"
  else
    deps="libbrotli1 libc-ares2 libicu72 libnghttp2-14 libssl3 libuv1 zlib1g"
  fi
  # shellcheck disable=SC2086
  apt_install $deps
fi
if ldd "$v8_root/lib/$triplet/libnode.so.108" | grep 'not found' >&2; then
  log "libnode still misses the libraries above"
  exit 1
fi

echo "$v8_root"
