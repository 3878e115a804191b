#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<harness>/ (small files, committed).

Each seed is a hand-made input in the harness's format (see the comment at
the top of fuzz/fuzz_mesh.c, fuzz_sweep.c, fuzz_slide.c): the cases a
fuzzer would take long to reach alone. Run from anywhere:

    python3 fuzz/make_seeds.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(harness, name, data):
    d = os.path.join(HERE, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(data))


def i8(v):
    return v & 0xFF


# {==== fuzz_mesh: flags, fail-at, vertex count, triangle count, then
# 2 bytes a coordinate (class, int8), 1 byte an index, 1 byte a tag ====

ONE = 6        # class 6: magnitude 1, so the int8 is the coordinate
SPECIAL = 15   # class 15: NaN, inf, -inf, max, -max, min normal, -0, 0.5


def mesh(name, flags, fail_at, verts, tris, tags=(), cls=ONE):
    data = [flags, fail_at, len(verts), len(tris)]
    for v in verts:
        for c in v:
            if isinstance(c, tuple):   # (class, int8)
                data += [c[0], i8(c[1])]
            else:
                data += [cls, i8(c)]
    for t in tris:
        data += list(t)
    data += [i8(t) for t in tags]
    write("fuzz_mesh", name, data)


QUAD = [(0, 0, 0), (0, 0, 10), (10, 0, 10), (10, 0, 0)]
mesh("quad", 0, 0, QUAD, [(0, 1, 2), (0, 2, 3)])
mesh("quad-tags-oneside", 1 | 4, 0, QUAD, [(0, 1, 2), (0, 2, 3)], tags=(3, -7))
mesh("no-indices", 2, 0, QUAD[:3] + [(0, 5, 0), (5, 5, 0), (0, 5, 5)], [])
mesh("nan-vertex", 0, 0, QUAD[:2] + [(1, (SPECIAL, 0), 1)], [(0, 1, 2)])
mesh("inf-vertex", 0, 0, QUAD[:2] + [((SPECIAL, 1), 1, 1)], [(0, 1, 2)])
mesh("index-out-of-range", 0, 0, QUAD, [(0, 1, 5)])
mesh("degenerate", 0, 0, [(0, 0, 0), (1, 1, 1), (2, 2, 2), (0, 0, 0)],
     [(0, 1, 2), (0, 3, 1), (1, 1, 2), (0, 1, 3)])
mesh("huge", 0, 0, [((13, 1), 0, 0), (0, (13, 1), 0), (0, 0, (13, 1))], [(0, 1, 2)])
mesh("tiny", 0, 0, [((1, 1), 0, 0), (0, (1, 1), 0), (0, 0, (1, 1))], [(0, 1, 2)])
mesh("max-double", 0, 0, [((SPECIAL, 3), 0, 0), (0, (SPECIAL, 4), 0), (0, 0, 1)], [(0, 1, 2)])
mesh("no-memory", 0, 3, QUAD, [(0, 1, 2), (0, 2, 3)])
mesh("transformed", 8, 0, QUAD + [(0, 10, 0)], [(0, 1, 2), (0, 2, 3), (0, 4, 1)])
mesh("far", 0, 0, [((10, 100), 0, (10, 100)), ((10, 100), 0, (10, 101)),
                   ((10, 101), 0, (10, 100))], [(0, 1, 2)])

# }====

# {==== fuzz_sweep: flags (1 one-sided, 2 deepening-only, 4 tmax 0.5,
# 0x80 raw doubles), scale byte, 15 int16 (base, vel, a, b, c) ====

UNIT = 0xC0 | 48   # coordinates and velocity in units of 1


def sweep(name, flags, nums, scale=UNIT):
    write("fuzz_sweep", name, [flags, scale] + list(b"".join(struct.pack("<h", n) for n in nums)))


def sweep_raw(name, flags, nums):
    write("fuzz_sweep", name, [flags | 0x80, 0] + list(b"".join(struct.pack("<d", n) for n in nums)))


FLOOR = [-10, 0, -10, 0, 0, 10, 10, 0, -10]
sweep("face", 0, [0, 3, 0, 0, -4, 0] + FLOOR)
sweep("face-one-sided-back", 1, [0, -3, 0, 0, 4, 0] + FLOOR)
sweep("edge", 0, [0, 3, 11, 0, -4, -1] + FLOOR)
sweep("vertex", 0, [11, 3, 11, -1, -4, -1] + FLOOR)
sweep("miss-short", 0, [0, 6, 0, 0, -4, 0] + FLOOR)
sweep("touching", 0, [0, 1, 0, 0, -2, 0] + FLOOR)
sweep("overlap-deepening", 2, [0, 0, 0, 0, -1, 0] + FLOOR)
sweep("parallel", 0, [-20, 0, 0, 30, 0, 0] + FLOOR)
sweep("tmax-half", 4, [0, 3, 0, 0, -4, 0] + FLOOR)
# fine scale (1/256): a sliver and a graze
sweep("sliver", 0, [0, 512, 0, 0, -1024, 0, -2560, 0, 0, 2560, 0, 0, 0, 0, 1], scale=0x40 | 32)
sweep("graze", 0, [-2560, 256, 0, 5120, 0, 0, -1280, 0, -1280, 0, 0, 1280, 1280, 0, -1280],
      scale=0x40 | 32)
sweep_raw("raw-far", 0, [1e5, 3, 1e5, 0, -4, 0, 1e5 - 10, 0, 1e5 - 10, 1e5, 0, 1e5 + 10,
                         1e5 + 10, 0, 1e5 - 10])
sweep_raw("raw-specials", 0, [float("nan"), 0, 0, float("inf"), 0, 0, 0, 0, 0,
                              1e308, 0, 0, 0, 5e-324, 1])

# }====

# {==== fuzz_slide: flags, radii (3), orientation (4 int8), iterations,
# slope, step, snap, triangle count, grid, 9 int8 a triangle, the start
# (3 int8), then 8 bytes a move ====


def slide(name, flags, radii, tris, start, moves, q=(0, 0, 0, 1), iters=4, slope=128,
          step=0, snap=0, grid=8):
    data = [flags] + list(radii) + [i8(c) for c in q] + [iters, slope, step, snap,
                                                          len(tris) - 1, grid]
    for t in tris:
        data += [i8(c) for c in t]
    data += [i8(c) for c in start]
    for (w, we, g, ge) in moves:
        data += [i8(c) for c in w] + [we] + [i8(c) for c in g] + [ge]
    write("fuzz_slide", name, data)


NO_G = 0x80
FLOOR_T = [(-100, 0, -100, 0, 0, 100, 100, 0, -100)]
WALL_T = [(5, 0, -100, 5, 100, 0, 5, 0, 100)]
DOWN = (0, -10, 0)
slide("floor-walk", 0, (128, 160, 128), FLOOR_T, (0, 2, 0),
      [((20, 0, 5), 12, DOWN, 11)] * 6)
slide("wall-slide", 2, (128, 128, 128), FLOOR_T + WALL_T, (0, 2, 0),
      [((40, 0, 20), 12, DOWN, 11)] * 6)
slide("crease", 2, (100, 100, 100),
      [(-50, 50, -50, 0, 0, -50, 0, 0, 50), (0, 0, -50, 50, 50, -50, 0, 0, 50)], (0, 30, 0),
      [((10, -40, 3), 12, DOWN, 12)] * 8)
slide("stairs", 0 | 2, (100, 200, 100),
      [(0, 0, 0, 0, 2, 0, 40, 2, 0), (0, 2, 0, 0, 2, 4, 40, 2, 4),
       (0, 2, 4, 0, 4, 4, 40, 4, 4), (0, 4, 4, 0, 4, 8, 40, 4, 8)], (10, 3, -10),
      [((0, 0, 30), 11, DOWN, 11)] * 6, step=120, snap=60, grid=6)
slide("spikes", 2, (60, 60, 60),
      [(0, 0, 0, 1, 0, 0, 0, 100, 0), (0, 0, 0, 0, 0, 1, 60, 80, 60),
       (0, 0, 0, -1, 0, 0, -70, 70, 10)], (20, 20, 20),
      [((-50, -10, -50), 12, (0, 0, 0), NO_G)] * 8, grid=6)
slide("oriented-long", 4 | 2, (40, 255, 90), FLOOR_T + WALL_T, (0, 3, 0),
      [((30, -5, 10), 12, DOWN, 12)] * 6, q=(10, 20, 30, 90))
slide("instanced", 8 | 2, (128, 128, 128), FLOOR_T + WALL_T, (0, 3, 0),
      [((-30, 0, 30), 12, DOWN, 12)] * 6)
slide("huge-and-tiny", 2 | 16, (20, 20, 20), FLOOR_T + WALL_T, (0, 1, 0),
      [((127, -3, 60), 15, DOWN, 9), ((1, 0, 1), 3, DOWN, 2)] * 4)
slide("one-sided", 1 | 2, (128, 128, 128), FLOOR_T + WALL_T, (0, 2, 0),
      [((20, -20, 5), 12, DOWN, 11)] * 6)

# }====
