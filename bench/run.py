#!/usr/bin/env python3
"""run.py: drives the "walkers" benchmark (../shared/bench/README.md) for
`make bench` and `make bench-callgrind`, prints a table and writes RESULTS.md.

  python3 bench/run.py [--quick] [--no-callgrind] [--callgrind-only]
                       [--walkers build/bench/walkers] [--lua lua5.4]
                       [--scenes bench/scenes] [--out bench/RESULTS.md]

Run from the repository root with LUA_PATH/LUA_CPATH set as the Makefile sets
them. C runs bench/walkers.c's binary; Lua runs bench/walkers.lua. Every
figure comes from the RESULT lines those print; nothing here is estimated.
"""
import argparse
import datetime
import os
import platform
import re
import shlex
import subprocess
import sys

MAIN_SCENES = ["terrain_708", "terrain_1415", "arena"]
SIZE_SWEEP = ["terrain_33", "terrain_256", "terrain_708", "terrain_1415"]
# terrain_708's density over a larger world (make_scenes.py "wide"): the same
# walkers meet the same triangles, in a mesh 4x and 16x larger
WIDE_SWEEP = ["wide_1416", "wide_2830"]
# callgrind's reduced run: frames 0..59 untimed (the fall to the ground),
# then frames 60..179 counted, 256 movers
CG_MOVERS, CG_WARMUP, CG_FRAMES = 256, 60, 180
TARGETS = {  # issue 13's targets (terrain_708 unless named)
    "c_steps": 1_500_000, "lua_ratio": 0.9, "sweeps": 4_000_000,
    "instr": 2_500, "size_ratio": 1.3, "build_s": 0.15, "bytes_tri": 24, "wide_ratio": 1.15,
}
# RESULTS.md keeps, from the file it replaces, everything after this line
# (sections written by hand: the peers, LuaJIT).
KEEP_MARK = "<!-- make bench keeps what follows this line -->"


def sh(cmd):
    """Runs cmd (a list), echoing it; returns its stdout. Dies on failure."""
    print("$ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stdout.write("".join("  " + l + "\n" for l in p.stdout.splitlines()
                             if not l.startswith("RESULT")))
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        sys.exit("run.py: command failed (exit %d): %s" % (p.returncode, " ".join(cmd)))
    return p.stdout


def results(out):
    """The RESULT key=value lines of a walkers run, as dicts by impl."""
    res = {}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            d = dict(kv.split("=", 1) for kv in line.split()[1:])
            res[d["impl"]] = d
    return res


def first_line(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"


def machine():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "nproc": os.cpu_count(), "kernel": platform.release(),
            "cc": first_line(["cc", "--version"])}


def git_state():
    """The commit and the core files changed in the working tree, if any."""
    head = first_line(["git", "rev-parse", "--short", "HEAD"])
    try:
        p = subprocess.run(["git", "status", "--short", "--", "csrc", "lua"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        changed = [l[3:] for l in p.stdout.splitlines()]
    except OSError:
        changed = []
    return head, changed


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def callgrind(walkers, scenes, outdir, full=False):
    """Instructions per mover-step on terrain_708 (reduced run, only the
    measured frames: --toggle-collect=run_frames; full: all 600 frames).
    Returns (instr/step, instructions, steps, cmd)."""
    warmup, frames = (0, 600) if full else (CG_WARMUP, CG_FRAMES)
    os.makedirs(outdir, exist_ok=True)
    cgout = os.path.join(outdir, "callgrind.walkers.out")
    cmd = ["valgrind", "--tool=callgrind", "--dump-instr=no", "--collect-atstart=no",
           "--toggle-collect=run_frames", "--callgrind-out-file=" + cgout, walkers,
           os.path.join(scenes, "terrain_708.obj"), "--runs", "1", "--movers", str(CG_MOVERS),
           "--warmup", str(warmup), "--frames", str(frames)]
    sh(cmd)
    total = None
    with open(cgout) as f:
        for line in f:
            m = re.match(r"(?:summary|totals):\s*(\d+)", line)
            if m:
                total = int(m.group(1))
    if total is None:
        sys.exit("run.py: no totals in " + cgout)
    steps = CG_MOVERS * (frames - warmup)
    return total / steps, total, steps, cmd


def fmt(x):
    return "{:,.0f}".format(float(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--walkers", default="build/bench/walkers")
    ap.add_argument("--lua", default="lua5.4")
    ap.add_argument("--scenes", default="bench/scenes")
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--callgrind-only", action="store_true")
    ap.add_argument("--full", action="store_true", help="callgrind: all 600 frames")
    a = ap.parse_args()
    outdir = "bench/out"

    if a.callgrind_only:
        per, total, steps, _ = callgrind(a.walkers, a.scenes, outdir, a.full)
        print("callgrind: %s instructions in %s mover-steps: %s instructions per mover-step"
              % (fmt(total), fmt(steps), fmt(per)))
        print("per function: python3 bench/cg_summary.py %s/callgrind.walkers.out %d "
              "(or callgrind_annotate)" % (outdir, steps))
        return

    runs, frames = (1, 120) if a.quick else (5, 600)
    out = a.out or ("bench/out/RESULTS.quick.md" if a.quick else "bench/RESULTS.md")
    extra = ["--runs", str(runs), "--frames", str(frames)]
    started = datetime.datetime.now(datetime.timezone.utc)
    load0 = loadavg()
    mach = machine()
    lua_version = first_line([a.lua, "-v"]).split("  ")[0]
    head, changed = git_state()
    rows, cmds = {}, []

    def scene(name):
        return os.path.join(a.scenes, name + ".obj")

    for name in MAIN_SCENES:
        c_cmd = [a.walkers, scene(name), "--sweeps"] + extra
        l_cmd = [a.lua, "bench/walkers.lua", scene(name)] + extra
        rc = results(sh(c_cmd))
        rl = results(sh(l_cmd))
        rows[name] = (rc, rl)
        cmds += [c_cmd, l_cmd]
    sizes = {}
    for name in SIZE_SWEEP:
        if name in rows:
            sizes[name] = rows[name][0]["c"]
        else:
            c_cmd = [a.walkers, scene(name)] + extra
            sizes[name] = results(sh(c_cmd))["c"]
            cmds.append(c_cmd)
    # the wide worlds, each after a run of terrain_708 of its own (their ratio is
    # taken within the pair, so that the machine's drift between them is small)
    wide = {}
    for name in WIDE_SWEEP:
        base_cmd = [a.walkers, scene("terrain_708")] + extra
        w_cmd = [a.walkers, scene(name)] + extra
        wide[name] = (results(sh(base_cmd))["c"], results(sh(w_cmd))["c"])
        cmds += [base_cmd, w_cmd]
    cg = None
    if not (a.quick or a.no_callgrind):
        cg = callgrind(a.walkers, a.scenes, outdir)
        cmds.append(cg[3])
    load1 = loadavg()

    # {==== the table
    lines = []
    lines.append("| scene | triangles | C steps/s median (min-max) | Lua steps/s median (min-max) "
                 "| Lua/C | C load s | C build s | Lua load s | Lua build s | C peak RSS MB "
                 "| bytes/tri | fell C/Lua | same end state |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    impl = None
    for name in MAIN_SCENES:
        rc, rl = rows[name]
        c = rc["c"]
        impl = [k for k in rl if k != "c"][0]
        l = rl[impl]
        lines.append("| %s | %s | %s (%s-%s) | %s (%s-%s) | %.2f | %.3f | %.3f | %.3f | %.3f | %.0f "
                     "| %.1f | %s/%s | %s |" % (
                         name, fmt(c["triangles"]), fmt(c["steps_per_s"]), fmt(c["min"]),
                         fmt(c["max"]), fmt(l["steps_per_s"]), fmt(l["min"]), fmt(l["max"]),
                         float(l["steps_per_s"]) / float(c["steps_per_s"]), float(c["load_s"]),
                         float(c["build_s"]), float(l["load_s"]), float(l["build_s"]),
                         int(c["peak_rss_kb"]) / 1024.0, float(c["bytes_per_tri"]), c["fell"],
                         l["fell"], "yes" if c["checksum"] == l["checksum"] else
                         "NO (%s vs %s)" % (c["checksum"], l["checksum"])))
    sweep_lines = ["| scene | sweeps/s median (min-max) | hit |", "|---|---:|---:|"]
    for name in MAIN_SCENES:
        s = rows[name][0]["c-sweep"]
        sweep_lines.append("| %s | %s (%s-%s) | %.0f%% |" % (
            name, fmt(s["sweeps_per_s"]), fmt(s["min"]), fmt(s["max"]),
            100 * float(s["hit_fraction"])))
    size_lines = ["| scene | triangles | C steps/s | cost vs terrain_33 |", "|---|---:|---:|---:|"]
    base = float(sizes["terrain_33"]["steps_per_s"])
    for name in SIZE_SWEEP:
        s = sizes[name]
        size_lines.append("| %s | %s | %s | %.2fx |" % (
            name, fmt(s["triangles"]), fmt(s["steps_per_s"]), base / float(s["steps_per_s"])))
    wide_lines = ["| scene | triangles | C steps/s | terrain_708 just before | cost vs terrain_708 "
                  "| build s | bytes/tri | C peak RSS MB | fell |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in WIDE_SWEEP:
        b, s = wide[name]
        wide_lines.append("| %s | %s | %s | %s | %.2fx | %.3f | %.1f | %.0f | %s |" % (
            name, fmt(s["triangles"]), fmt(s["steps_per_s"]), fmt(b["steps_per_s"]),
            float(b["steps_per_s"]) / float(s["steps_per_s"]), float(s["build_s"]),
            float(s["bytes_per_tri"]), int(s["peak_rss_kb"]) / 1024.0, s["fell"]))
    # }====

    c708 = rows["terrain_708"][0]
    l708 = rows["terrain_708"][1][impl]
    ratio = base / float(sizes["terrain_1415"]["steps_per_s"])

    def verdict(ok):
        return "met" if ok else "**not met**"
    tgt = []
    tgt.append("| C mover-steps/s, terrain_708 | >= 1,500,000 | %s | %s |" % (
        fmt(c708["c"]["steps_per_s"]), verdict(float(c708["c"]["steps_per_s"]) >= TARGETS["c_steps"])))
    if cg:
        tgt.append("| instructions per mover-step, terrain_708 | <= 2,500 | %s | %s |" % (
            fmt(cg[0]), verdict(cg[0] <= TARGETS["instr"])))
    lua_c = float(l708["steps_per_s"]) / float(c708["c"]["steps_per_s"])
    tgt.append("| %s mover-steps/s, terrain_708, against C | >= 0.9 of C | %s (%.2f) | %s |" % (
        lua_version, fmt(l708["steps_per_s"]), lua_c, verdict(lua_c >= TARGETS["lua_ratio"])))
    tgt.append("| world:sweep from C, terrain_708 (sweeps/s) | >= 4,000,000 | %s | %s |" % (
        fmt(c708["c-sweep"]["sweeps_per_s"]),
        verdict(float(c708["c-sweep"]["sweeps_per_s"]) >= TARGETS["sweeps"])))
    tgt.append("| step cost terrain_1415 / terrain_33 | <= 1.3x | %.2fx | %s |" % (
        ratio, verdict(ratio <= TARGETS["size_ratio"])))
    wb, ws = wide["wide_2830"]
    wratio = float(wb["steps_per_s"]) / float(ws["steps_per_s"])
    tgt.append("| step cost wide_2830 (16M triangles) / terrain_708 | <= 1.15x | %.2fx | %s |" % (
        wratio, verdict(wratio <= TARGETS["wide_ratio"])))
    tgt.append("| 1M-triangle build (terrain_708, C) | <= 0.15 s | %.3f s | %s |" % (
        float(c708["c"]["build_s"]), verdict(float(c708["c"]["build_s"]) <= TARGETS["build_s"])))
    tgt.append("| mesh bytes per triangle (terrain_708) | <= 24 | %.1f | %s |" % (
        float(c708["c"]["bytes_per_tri"]),
        verdict(float(c708["c"]["bytes_per_tri"]) <= TARGETS["bytes_tri"])))
    fell = sum(int(rows[n][0]["c"]["fell"]) + int(rows[n][1][impl]["fell"]) for n in MAIN_SCENES)
    tgt.append("| fell-through movers (all scenes, C and Lua) | 0 | %d | %s |" % (fell, verdict(fell == 0)))

    print()
    print("\n".join(lines))
    print()
    print("\n".join(sweep_lines))
    print()
    print("\n".join(size_lines))
    print()
    print("\n".join(wide_lines))
    print()
    if cg:
        print("callgrind (terrain_708, %d movers, frames %d-%d): %s instructions per mover-step"
              % (CG_MOVERS, CG_WARMUP, CG_FRAMES - 1, fmt(cg[0])))
    print("\n".join(tgt))

    md = []
    md.append("# Benchmark results: walkers%s" % (" (QUICK mode: 1 run of 120 frames; not the "
                                                   "standard workload)" if a.quick else ""))
    md.append("")
    md.append("Workload \"walkers\" exactly as `../shared/bench/README.md` defines it: 1024 "
              "ellipsoid movers, radii (0.4, 0.9, 0.4), %d frames at dt = 1/60, one "
              "collideAndSlide(walk, gravity) per mover per frame, single thread, one process. "
              "Written by `make bench` (bench/run.py); every figure below was measured in that "
              "run, none is estimated." % frames)
    md.append("")
    md.append("- Date: %s (UTC)" % started.strftime("%Y-%m-%d %H:%M"))
    md.append("- Machine: %s, nproc %s, Linux %s; load average %s at the start, %s at the end "
              "(the machine is shared: other jobs ran during the run)" % (
                  mach["cpu"], mach["nproc"], mach["kernel"], load0, load1))
    md.append("- Code: commit %s%s" % (head, "; changed in the working tree: " + ", ".join(changed)
                                       if changed else " (csrc/ and lua/ as committed)"))
    md.append("- Compiler: %s, core and bench at `-O2 -g` (no `-march`); %s" % (mach["cc"], lua_version))
    md.append("- mover-steps/s = movers x frames / process CPU seconds of the frames (C: "
              "CLOCK_PROCESS_CPUTIME_ID; Lua: os.clock, the same clock); median of %d runs "
              "in one process, each from the spawn positions." % runs)
    md.append("- Load = read + parse the OBJ (C: bench/walkers.c's parser; Lua: "
              "collideslide.obj, what cs.loadOBJ uses); build = cs_mesh_new / cs.newMesh "
              "(triangles, normals, tree). bytes/tri = cs_mesh_memory / triangles. Peak RSS "
              "(VmHWM, the process's high-water mark) includes the OBJ text and the parsed arrays; "
              "Lua's also the interpreter's tables of the parsed file.")
    md.append("- \"same end state\": the C and Lua runs end with bit-identical mover positions "
              "(a checksum of them): both run the same arithmetic in the same order.")
    md.append("")
    md.append("## Per scene")
    md.append("")
    md += lines
    md.append("")
    md.append("## Single sweeps (C, cs_world_sweep)")
    md.append("")
    md.append("A 0.5 m sphere at each walker's start position swept down to the ground (2 m on "
              "terrain, 8 m in the arena) and 1 m sideways along its first walk direction, "
              "alternately; 200 rounds over the 1024 positions, median of %d." % runs)
    md.append("")
    md += sweep_lines
    md.append("")
    md.append("## Cost against mesh size (C)")
    md.append("")
    md += size_lines
    md.append("")
    md.append("## Cost against world size (C)")
    md.append("")
    md.append("The same hills at terrain_708's density over a world 2x and 4x as wide "
              "(`make_scenes.py bench/scenes wide 1416`, `wide 2830`): every walker meets the "
              "triangles it meets on terrain_708, in a tree over 4x and 16x as many. Each wide "
              "run follows a terrain_708 run of its own; the cost is the ratio of the pair's "
              "steps/s.")
    md.append("")
    md += wide_lines
    md.append("")
    if cg:
        md.append("## Instructions per mover-step (callgrind)")
        md.append("")
        md.append("terrain_708, %d movers: frames 0-%d (the fall to the ground) run uncounted, "
                  "frames %d-%d counted (`--toggle-collect=run_frames`): **%s instructions per "
                  "mover-step** (%s instructions, %s steps)." % (
                      CG_MOVERS, CG_WARMUP - 1, CG_WARMUP, CG_FRAMES - 1, fmt(cg[0]),
                      fmt(cg[1]), fmt(cg[2])))
        md.append("")
        md.append("`make bench-callgrind FULL=1` counts all 600 frames instead (256 movers, "
                  "nothing excluded), to check that the reduced run stands for the whole.")
        md.append("")
    md.append("## Against the targets")
    md.append("")
    md.append("| target | wanted | measured | |")
    md.append("|---|---|---|---|")
    md += tgt
    md.append("")
    md.append("Peers (Bullet, Jolt) are measured beside ours in one process by `make "
              "bench-peers`: see \"Peers\" below.")
    md.append("")
    md.append("## Commands")
    md.append("")
    md.append("    make bench            # this file (QUICK=1: 1 run of 120 frames, to "
              "bench/out/RESULTS.quick.md)")
    md.append("    make bench-callgrind  # the instruction count alone")
    md.append("")
    if os.path.normpath(a.walkers) != os.path.normpath("build/bench/walkers"):
        cpath = os.environ.get("LUA_CPATH", "").split(";")[0]
        md.append("This run staged its binaries outside build/ (`make bench BENCH_BIN=%s BUILD=%s`), "
                  "so that rebuilds by other sessions sharing the tree could not change them mid-run."
                  % (a.walkers, os.path.dirname(cpath.replace("./", "", 1)) or "?"))
        md.append("")
    md.append("which ran, from the repository root (LUA_PATH=\"%s\" LUA_CPATH=\"%s\"):" % (
        os.environ.get("LUA_PATH", ""), os.environ.get("LUA_CPATH", "")))
    md.append("")
    md.append("    python3 ../shared/bench/make_scenes.py bench/scenes terrain 33   "
              "# likewise 256, 708, 1415, wide 1416, wide 2830 and arena")
    for c in cmds:
        md.append("    " + " ".join(shlex.quote(x) for x in c))
    md.append("")
    kept = ""
    try:
        with open(out) as f:
            old_text = f.read()
        if KEEP_MARK in old_text:
            kept = old_text[old_text.index(KEEP_MARK):]
    except OSError:
        pass
    md.append(kept or KEEP_MARK)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(md))
    print("\nwrote " + out)


if __name__ == "__main__":
    main()
