#!/usr/bin/env python3
"""crowd.py: the walkers through the batch call (issue 15), C and Lua, run
after run in turn so that they share the machine's noise.

Each round runs bench/crowd.c once (the C loop, the C batch on 1 thread and
on 2 threads, each one run, wall clock) and bench/walkers.lua --batch on 1
and on 2 threads (wall clock); with --ffi LIB, bench/walkers.lua --batch
under LuaJIT through the FFI binding (LIB: build/libcollideslide.so) on 1
thread too. Prints the medians over the rounds, the ratios the issue names
(2 threads / 1 thread, C and Lua; the Lua batch / the C loop), Amdahl's
serial fraction from the C 2-thread speed-up, and checks that every
configuration ends on the same checksum.

usage: crowd.py --crowd BIN --lua LUA --scene OBJ [--ffi LIB] [--rounds R] [--frames F] [--warmup W]
"""
import argparse, os, re, statistics, subprocess, sys

def result(out):
    for line in out.splitlines():
        if line.startswith("RESULT"):
            return dict(kv.split("=", 1) for kv in line.split()[1:])
    raise SystemExit("no RESULT line in:\n" + out)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crowd", required=True)
    ap.add_argument("--lua", required=True)
    ap.add_argument("--scene", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=240)
    ap.add_argument("--warmup", type=int, default=60)
    ap.add_argument("--ffi", default=None)
    a = ap.parse_args()
    env = dict(os.environ)
    env["LUA_CPATH"] = "./build/%s/?.so;;" % a.lua
    env["LUA_PATH"] = "./lua/?.lua;./lua/?/init.lua;;"
    names = ["c_loop", "c_batch1", "c_batch2", "lua_batch1", "lua_batch2"] + (["ffi_batch1"] if a.ffi else [])
    runs = {k: [] for k in names}
    ffi_env = dict(env, CS_BACKEND="ffi", COLLIDESLIDE_LIB=a.ffi or "")
    sums = set()

    def walkers(lua, threads, run_env, name):
        """One bench/walkers.lua --threads run: its rate into runs[name]."""
        out = subprocess.run([lua, "bench/walkers.lua", a.scene, "--runs", "1", "--frames",
                              str(a.frames), "--warmup", str(a.warmup), "--threads", str(threads)],
                             capture_output=True, text=True, check=True, env=run_env).stdout
        res = result(out)
        runs[name].append(float(res["steps_per_s"]))
        sums.add(res["checksum"])

    for r in range(a.rounds):
        out = subprocess.run([a.crowd, a.scene, "--movers", "1024", "--frames", str(a.frames),
                              "--warmup", str(a.warmup), "--runs", "1", "--threads", "2"],
                             capture_output=True, text=True, check=True).stdout
        res = result(out)
        runs["c_loop"].append(float(res["loop"]))
        runs["c_batch1"].append(float(res["batch1"]))
        runs["c_batch2"].append(float(res["batch2"]))
        if res["same"] != "1":
            raise SystemExit("crowd: a batch ended off the loop's checksum")
        sums.update(re.findall(r"checksum (\S+)", out))
        for t in (1, 2):
            walkers(a.lua, t, env, "lua_batch%d" % t)
        if a.ffi:
            walkers("luajit", 1, ffi_env, "ffi_batch1")
    med = {k: statistics.median(v) for k, v in runs.items()}
    print("crowd: 1024 walkers on %s, %d rounds, wall clock, medians (mover-steps/s):"
          % (os.path.basename(a.scene), a.rounds))
    for k in runs:
        print("  %-11s %9.0f   (runs: %s)" % (k, med[k], ", ".join("%.0f" % x for x in runs[k])))
    # the ratio of each round (its runs shared the machine's state), then
    # their median; and the ratio of the medians
    per_round = sorted(b / a for a, b in zip(runs["c_batch1"], runs["c_batch2"]))
    print("  C, 2 threads / 1 thread per round: %s; median %.2fx"
          % (", ".join("%.3f" % x for x in per_round), statistics.median(per_round)))
    s2 = med["c_batch2"] / med["c_batch1"]
    f = max(0.0, 2.0 / s2 - 1.0)
    print("  C: 2 threads / 1 thread = %.2fx, medians (target >= 1.8); batch 1 thread / loop = %.3f"
          % (s2, med["c_batch1"] / med["c_loop"]))
    print("  Lua %s: 2 threads / 1 thread = %.2fx; Lua batch / C loop = %.3f (target >= 0.95)"
          % (a.lua, med["lua_batch2"] / med["lua_batch1"], med["lua_batch1"] / med["c_loop"]))
    if a.ffi:
        print("  LuaJIT, FFI binding: batch on 1 thread / C loop = %.3f"
              % (med["ffi_batch1"] / med["c_loop"]))
    print("  Amdahl from the C speed-up: serial fraction f = 2/S2 - 1 = %.3f; model: %s"
          % (f, ", ".join("%d cores %.1fx" % (k, 1 / (f + (1 - f) / k)) for k in (4, 8, 16))))
    print("  end checksums, every configuration (one means bit-identical): %s" % ", ".join(sorted(sums)))
    return 0 if len(sums) == 1 else 1

if __name__ == "__main__":
    sys.exit(main())
