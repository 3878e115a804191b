#!/bin/sh
# tools/wine_tests.sh DIR "NAME [ARGS...]"...: runs DIR/NAME.exe ARGS under
# wine (make windows), one after another, each with its output in
# DIR/NAME[-ARGS].log, and fails if any exits non-zero, prints a FAIL line or
# "N failed" with N > 0, imports a DLL that Windows does not ship (the core
# and the tests must need no winpthreads or libgcc DLL), or runs past
# WINE_TIMEOUT seconds (default 600).
#
# Wine runs headless and non-interactive: a private prefix DIR/wineprefix
# (made by wineboot on first use), no DISPLAY, WINEDEBUG=-all, and no
# Mono/Gecko install prompt (mscoree and mshtml disabled).
set -u

dir=$1; shift
WINE_TIMEOUT=${WINE_TIMEOUT:-600}
OBJDUMP=${WIN_OBJDUMP:-x86_64-w64-mingw32-objdump}
WINEPREFIX=$(cd "$dir" && pwd)/wineprefix
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY
# Debian keeps wineserver out of PATH.
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)

t0=$(date +%s)
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "== wineboot --init ($WINEPREFIX)"
  wineboot --init </dev/null >"$dir/wineboot.log" 2>&1
  "$wineserver" -w
  [ -f "$WINEPREFIX/system.reg" ] || { cat "$dir/wineboot.log"; echo "wine_tests: wineboot failed"; exit 1; }
  echo "   $(($(date +%s) - t0)) s"
fi

ok=0; bad=0
for spec in "$@"; do
  # shellcheck disable=SC2086
  set -- $spec
  name=$1; shift
  exe=$dir/$name.exe
  log=$dir/$(echo "$spec" | tr ' /' '-_').log
  why=""
  dlls=$("$OBJDUMP" -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u | tr '\n' ' ')
  for d in $dlls; do
    case $d in kernel32.dll|msvcrt.dll|ucrtbase.dll|api-ms-win-*) ;; *) why="$why imports $d;" ;; esac
  done
  s=$(date +%s)
  timeout "$WINE_TIMEOUT" wine "$exe" "$@" </dev/null >"$log" 2>&1
  rc=$?
  # Wine's own client/server link can drop under load ("wine client error:0:
  # recvmsg: Connection reset by peer") before the test prints a line: that
  # is wine, not the test, and the run is made once more (and said).
  if [ $rc != 0 ] && grep -q '^wine client error' "$log" && ! grep -q -v '^wine client error' "$log"; then
    echo "     $spec: wine's server link dropped ($(head -1 "$log")); running it again"
    "$wineserver" -w
    timeout "$WINE_TIMEOUT" wine "$exe" "$@" </dev/null >"$log" 2>&1
    rc=$?
  fi
  secs=$(($(date +%s) - s))
  [ $rc = 124 ] && why="$why timed out after $WINE_TIMEOUT s;"
  [ $rc != 0 ] && [ $rc != 124 ] && why="$why exit $rc;"
  grep -q -E '(^|[^0-9])[1-9][0-9]* failed|FAIL' "$log" && why="$why failures printed;"
  last=$(grep -E '[0-9]+ passed|ok|pass' "$log" | tail -1)
  if [ -z "$why" ]; then
    ok=$((ok + 1)); echo "ok   $spec ($secs s): $last"
  else
    bad=$((bad + 1)); echo "FAIL $spec ($secs s):$why log $log"
    grep -E 'FAIL|[1-9][0-9]* failed' "$log" | head -20
    tail -5 "$log"
  fi
done
"$wineserver" -w
echo "wine_tests: $((ok + bad)) runs in $(($(date +%s) - t0)) s, wine's start included"
echo "windows: $ok passed, $bad failed"
[ $bad = 0 ]
