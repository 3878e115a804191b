#!/bin/sh
# pin_tolerances.sh: the mutation probe of the slide's tolerances (issue 11).
# For each named tolerance of csrc/cs_slide.c (the block at its top) and of
# the sweep kernel's that the slide leans on (csrc/cs_sweep.c) and each of its
# mutant values (0, the value times 1000, and the larger value the first
# probe tried), a copy of its file with that one #define changed is
# compiled into build/mutant/, linked with the other objects of the core
# (build/obj, from `make lib`) and spec/c/test_tolerances.c, and run: a
# mutant is killed when the test fails; the cases that failed are listed.
# The unchanged slide must pass first. Builds one file at a time (-j1).
#
#   make lib && sh tools/pin_tolerances.sh [NAME ...]
#
# Prints one line per mutant: NAME value killed|LIVES [cases], then a
# count. Exits 1 when the unchanged slide fails the test, else 0 (a
# living mutant is a finding, not an error: docs/DESIGN.md says which
# live and why).
set -u
CC=${CC:-cc}
OUT=build/mutant
CFLAGS="-std=c99 -D_POSIX_C_SOURCE=200809L -O2 -g -fPIC"

# file, name, then its mutants: 0, x1000, the first probe's larger value
# (round 26's: 0, x1000 and a larger one past the next tolerance it meets)
MUTANTS='cs_slide GLANCING_COS 0 1e-9 1e-3
cs_slide UP_EPS 0 1e-6 1e-3
cs_slide WALKABLE_EPS 0 1e-9 1e-6
cs_slide SUPPORT_BOX_PAD 0 1e-4 1e-4
cs_slide SUPPORT_SAME_D2 0 1e-11 1e-8
cs_slide CLIP_REL_EPS 0 1e-9 1e-6
cs_slide CREASE_MIN_SIN 0 1e-6 1e-3
cs_slide SAME_PLANE_EPS 0 1e-6 1e-4
cs_slide STUCK_EPS 0 1e-6 1e-5
cs_slide INTERVAL_EPS 0 1e-9 1e-6
cs_slide AWAY_MIN_D2 0 1e-15 1e-8
cs_slide ANCHOR_MIN_REL 0 1e-3 0.5
cs_sweep PLANE_TOUCH 0 4.99e-7 1e-3
cs_sweep GRAZE_1MH2 0 9.98e-7 1e-3
cs_sweep FACE_NORMAL_SIN 0 1e-3 0.1
cs_sweep LONG_MOVE_VV 0 1e11 1e30'

[ -f build/libcollideslide.a ] || { echo "pin_tolerances: run make lib first"; exit 1; }
mkdir -p "$OUT"
support=$(grep -L -E '^[a-z ]*int[[:space:]]+main([^A-Za-z0-9_]|$)' \
          $(ls spec/c/*.c | grep -v '/test_'))

# build_and_run DIR FILE: compiles DIR/FILE.c, links the test with the
# core's other objects, runs it; leaves its output in DIR/out; returns the
# test's status.
build_and_run() {
  objs=$(ls build/obj/*.o | grep -v "/$2\.o$")
  $CC $CFLAGS -Icsrc -c "$1/$2.c" -o "$1/$2.o" || return 2
  $CC $CFLAGS -Icsrc -Ispec/c -o "$1/test_tolerances" spec/c/test_tolerances.c $support \
    "$1/$2.o" $objs -lm -lpthread || return 2
  "$1/test_tolerances" > "$1/out" 2>&1
}

mkdir -p "$OUT/none"
cp csrc/cs_slide.c "$OUT/none/cs_slide.c"
if ! build_and_run "$OUT/none" cs_slide; then
  cat "$OUT/none/out"; echo "pin_tolerances: the unchanged slide fails the test"; exit 1
fi
echo "unchanged: $(tail -n 1 "$OUT/none/out")"

killed=0 total=0 seen=""
echo "$MUTANTS" | while read -r file name values; do
  if [ $# -gt 0 ]; then
    case " $* " in *" $name "*) ;; *) continue ;; esac
  fi
  grep -q "^#define $name " "csrc/$file.c" || { echo "$name: no such #define"; continue; }
  done_values=""
  for v in $values; do
    case " $done_values " in *" $v "*) continue ;; esac
    done_values="$done_values $v"
    dir="$OUT/${name}_$v"
    mkdir -p "$dir"
    sed "s/^#define $name .*/#define $name $v/" "csrc/$file.c" > "$dir/$file.c"
    build_and_run "$dir" "$file"
    rc=$?
    total=$((total + 1))
    if [ $rc -eq 2 ]; then
      echo "$name $v BUILD FAILED"
    elif [ $rc -ne 0 ]; then
      killed=$((killed + 1))
      cases=$(grep '^FAIL ' "$dir/out" | sed 's/^FAIL \([a-z_]*\).*/\1/' | sort -u | tr '\n' ' ')
      [ -n "$cases" ] || cases="(crashed: status $rc)"
      echo "$name $v killed by: $cases"
    else
      echo "$name $v LIVES"
    fi
  done
  echo "$killed $total" > "$OUT/count"
done
read -r k t < "$OUT/count"
echo "$k of $t mutants killed"
