#!/bin/sh
# tools/deps.sh [LUA [TOOL...]]: make sure what `make test` needs is here: the
# interpreter LUA (default lua5.4), its headers, busted running on that LUA and
# a C compiler; plus any TOOL named (valgrind, luarocks, clang, bullet). Installs what is
# missing from Debian packages when we are root or sudo needs no password,
# otherwise prints the command to run and exits 1. Silent when nothing is missing.
set -eu

LUA=${1:-lua5.4}
[ $# -gt 0 ] && shift

# Interpreter -> its Debian packages and the header that proves the -dev one.
case $LUA in
  lua5.1) pkgs="lua5.1 liblua5.1-0-dev"; header=/usr/include/lua5.1/lua.h ;;
  lua5.2) pkgs="lua5.2 liblua5.2-dev";   header=/usr/include/lua5.2/lua.h ;;
  lua5.3) pkgs="lua5.3 liblua5.3-dev";   header=/usr/include/lua5.3/lua.h ;;
  lua5.4) pkgs="lua5.4 liblua5.4-dev";   header=/usr/include/lua5.4/lua.h ;;
  luajit) pkgs="luajit libluajit-5.1-dev"; header=/usr/include/luajit-2.1/lua.h ;;
  *) echo "deps.sh: unknown LUA '$LUA' (lua5.1 lua5.2 lua5.3 lua5.4 luajit)" >&2
     exit 2 ;;
esac

# Debian's lua-busted ships busted for every Lua; its C helpers (term, system)
# and penlight come as separate packages, listed here so that a half-removed
# install is repaired too.
BUSTED_PKGS="lua-busted lua-term lua-system lua-penlight lua-filesystem lua-cliargs lua-luassert lua-say lua-mediator lua-dkjson"

missing=""
need() { for p in "$@"; do case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac; done; }

busted_ok() { busted --lua="$LUA" --version >/dev/null 2>&1; }
cc_ok() {   # a compiler that can also build against libc and libm
  printf '#include <math.h>\n#include <stdio.h>\nint main(void){printf("%%g",sqrt(2.0));return 0;}\n' >"$tmpc"
  ${CC:-cc} -o "$tmpc.out" "$tmpc" -lm >/dev/null 2>&1
}
fuzz_ok() {
  printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n){(void)d;(void)n;return 0;}\n' >"$tmpc"
  clang -fsanitize=fuzzer -o "$tmpc.out" "$tmpc" >/dev/null 2>&1
}
tmpd=$(mktemp -d /tmp/cs-deps.XXXXXX); tmpc=$tmpd/t.c
trap 'rm -rf "$tmpd"' EXIT

check() {
  missing=""
  command -v "$LUA" >/dev/null 2>&1 || need $pkgs
  [ -f "$header" ] || need $pkgs
  # Busted is checked on LUA once LUA is there; a busted that exists but
  # fails to start on it gets its packages reinstalled.
  if ! command -v busted >/dev/null 2>&1; then need $BUSTED_PKGS
  elif command -v "$LUA" >/dev/null 2>&1 && ! busted_ok; then need $BUSTED_PKGS
  fi
  cc_ok || need gcc libc6-dev
  for tool in "$@"; do
    case $tool in
      valgrind) command -v valgrind >/dev/null 2>&1 || need valgrind ;;
      luarocks) command -v luarocks >/dev/null 2>&1 || need luarocks ;;
      # libFuzzer's runtime lives in libclang-rt-14-dev on Debian 12.
      clang) fuzz_ok || need clang libclang-rt-14-dev ;;
      # make bench-peers: Bullet's headers and libraries, and a C++ compiler
      bullet) pkg-config --exists bullet 2>/dev/null || need libbullet-dev pkg-config
              command -v ${CXX:-c++} >/dev/null 2>&1 || need g++ ;;
      *) echo "deps.sh: unknown tool '$tool' (valgrind luarocks clang bullet)" >&2; exit 2 ;;
    esac
  done
}

# Up to two rounds: the second installs what only shows once the first is in
# (busted's modules for a freshly installed LUA).
round=0
while :; do
  check "$@"
  [ -z "$missing" ] && exit 0
  missing=${missing# }
  round=$((round + 1))
  if [ $round -gt 2 ]; then
    echo "deps.sh: still missing after apt-get install: $missing" >&2
    busted --lua="$LUA" --version >&2 || true
    exit 1
  fi
  if [ $round = 1 ]; then
    if [ "$(id -u)" = 0 ]; then sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"
    else
      echo "deps.sh: missing for $LUA: $missing" >&2
      echo "deps.sh: run:  sudo apt-get update && sudo apt-get install -y $missing" >&2
      exit 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
      echo "deps.sh: missing for $LUA: $missing; no apt-get here: install the equivalents" >&2
      exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq </dev/null
  fi
  echo "deps.sh: installing $missing"
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 $missing </dev/null >/dev/null
done
