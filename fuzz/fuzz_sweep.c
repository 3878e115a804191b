/*
** fuzz_sweep.c: libFuzzer harness for the sweep kernel (cs_sweep_triangle,
** csrc/cs_sweep.c) against the slow reference (spec/c/sweep_reference.c).
**
** Input: 1 byte of flags, 1 byte of scale, then 15 little-endian int16
** (base, vel, a, b, c), each times 2^(scale - 16 ...) (see decode), so the
** fuzzer reaches any magnitude from 1e-9 to 1e6 with exact, repeatable
** values; with flag 0x80 the 15 numbers are instead raw little-endian
** doubles (any bits: NaN, inf, huge, tiny), for which only the absence of
** crashes and UB is checked unless every number is 0 or within [1e-30, 1e6]
** in magnitude (the core assumes finite input of sane size).
**
** Checked on every finite, non-degenerate case (abort on failure):
**  - a hit has t in [0, tmax], a finite point, a unit normal;
**  - a miss never comes nearer than 1 to the triangle (nor nearer than
**    it started), unless the backface test skipped it;
**  - the kernel's own contact: the point on the triangle and at distance 1
**    from the centre at t, no overlap at t - 1e-9 (distance by the
**    reference's long double closest point), within 1e-6 plus the rounding
**    of the inputs' size M (64 eps kappa M, see below).
** and, on well-conditioned cases only (where double rounding cannot change
** the answer: the least distance over the move is not within 1e-6 of 1,
** the triangle's conditioning kappa < 1e4, the contact closes at a rate
** over 1e-3 |vel|), a kernel hit against the reference (a miss is
** checked above without it):
**  - the reference hits too;
**  - |t - t_ref| <= 1e-6 and the points within 1e-5.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"
#include "invariants.h"
#include "sweep_reference.h"

typedef long double ld;

static double fs_rd(const uint8_t *p) {
  uint64_t u = 0;
  double d;
  int i;
  for (i = 7; i >= 0; i--) u = (u << 8) | p[i];
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Distance from base + t vel to abc in long double. */
static ld fs_dist(const double x[15], ld t) {
  ld p[3], a[3], b[3], c[3], out[3];
  int i;
  for (i = 0; i < 3; i++) {
    p[i] = (ld)x[i] + (ld)x[3 + i] * t;
    a[i] = x[6 + i]; b[i] = x[9 + i]; c[i] = x[12 + i];
  }
  return ref_closest_on_triangle(p, a, b, c, out);
}

static ld fs_min_dist(const double x[15], double tmax) {
  const ld g = 0.6180339887498948482L;
  ld lo = 0, hi = tmax, x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  ld f1 = fs_dist(x, x1), f2 = fs_dist(x, x2), f0 = fs_dist(x, 0), fe = fs_dist(x, tmax);
  int i;
  for (i = 0; i < 100; i++) {
    if (f1 < f2) { hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = fs_dist(x, x1); }
    else { lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = fs_dist(x, x2); }
  }
  if (f0 < f1) f1 = f0;
  if (fe < f1) f1 = fe;
  return f1 < f2 ? f1 : f2;
}

static void fs_fail(const char *what, const double x[15], int one_sided, double v1, double v2) {
  int i;
  fprintf(stderr, "fuzz_sweep: %s (%.17g vs %.17g)\n  one_sided %d; base, vel, a, b, c:\n", what,
          v1, v2, one_sided);
  for (i = 0; i < 5; i++)
    fprintf(stderr, "  {%a, %a, %a}  /* %.17g %.17g %.17g */\n", x[3 * i], x[3 * i + 1], x[3 * i + 2],
            x[3 * i], x[3 * i + 1], x[3 * i + 2]);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How far inputs get (printed at exit with FUZZ_STATS=1). */
static long fs_runs, fs_hits, fs_compared, fs_compared_hits;

static void fs_stats(void) {
  fprintf(stderr, "fuzz_sweep: %ld inputs, %ld kernel hits, %ld compared with the reference "
          "(%ld of them hits)\n", fs_runs, fs_hits, fs_compared, fs_compared_hits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  double x[15], t_ref = -1, p_ref[3], tmax = 1.0, vl, scale, kappa, L;
  cs_TriES tri;
  cs_SweepHit h;
  cs_Vec3 e1, e2, e3, n, base, vel;
  int i, raw, one_sided, hk, hr, flags;
  if (fs_runs++ == 0 && getenv("FUZZ_STATS")) atexit(fs_stats);
  if (size < 2) return 0;
  raw = (data[0] & 0x80) != 0;
  one_sided = data[0] & 1;
  flags = (data[0] & 2) ? CS_SWEEP_DEEPENING_ONLY : 0;
  if (data[0] & 4) tmax = 0.5;
  if (raw) {
    if (size < 2 + 15 * 8) return 0;
    for (i = 0; i < 15; i++) x[i] = fs_rd(data + 2 + 8 * i);
  } else {
    if (size < 2 + 15 * 2) return 0;
    /* scale byte: 2^(s/8 - 24), from 6e-8 to 2^8; vel has its own factor */
    scale = ldexp(1.0, (int)(data[1] % 64) / 2 - 24);
    for (i = 0; i < 15; i++) {
      int16_t v = (int16_t)(data[2 + 2 * i] | (data[3 + 2 * i] << 8));
      x[i] = (double)v * (i >= 3 && i < 6 ? ldexp(1.0, (int)(data[1] >> 6) * 4 - 12) : scale);
    }
  }
  /* the triangle as the gather builds it (cs_world.c, map_triangle) */
  memset(&tri, 0, sizeof tri);
  tri.a = v3(x[6], x[7], x[8]);
  tri.b = v3(x[9], x[10], x[11]);
  tri.c = v3(x[12], x[13], x[14]);
  e1 = v3_sub(tri.b, tri.a);
  e2 = v3_sub(tri.c, tri.a);
  e3 = v3_sub(tri.c, tri.b);
  n = v3_cross(e1, e2);
  if (!(v3_len(n) > 0) || !isfinite(v3_len(n))) return 0;   /* the gather drops these */
  tri.n = v3_scale(n, 1.0 / v3_len(n));
  tri.d = -v3_dot(tri.n, tri.a);
  cs_tri_bounds(&tri);
  tri.one_sided = (uint8_t)one_sided;
  tri.response = CS_RESPONSE_SLIDE;
  base = v3(x[0], x[1], x[2]);
  vel = v3(x[3], x[4], x[5]);
  hk = cs_sweep_triangle(base, vel, &tri, tmax, flags, &h);
  fs_hits += hk;
  if (raw) {                            /* crash/UB check only, but for sane sizes */
    for (i = 0; i < 15; i++)
      if (!isfinite(x[i]) || fabs(x[i]) > 1e6 || (x[i] != 0 && fabs(x[i]) < 1e-30)) return 0;
  }
  if (inv_triangle_degenerate(x + 6, x + 9, x + 12)) return 0;   /* never gathered */
  if (hk) {
    if (!(h.t >= 0 && h.t <= tmax)) fs_fail("t out of [0, tmax]", x, one_sided, h.t, tmax);
    if (!cs_isfinite3(h.point)) fs_fail("non-finite point", x, one_sided, h.point.x, 0);
    if (!(fabs(v3_len(h.normal) - 1) < 1e-9)) fs_fail("normal not unit", x, one_sided, v3_len(h.normal), 1);
  }
  vl = v3_len(vel);
  kappa = v3_len(e1) * v3_len(e2) / v3_len(n);
  L = fmax(v3_len(e1), fmax(v3_len(e2), v3_len(e3)));
  /* self-consistency of a hit, in units of the sphere (radius 1) */
  if (hk) {
    /* rounding: the plane's normal is off by eps kappa radians, so points
    ** M from the origin move by eps kappa M. (Before the kernel's edge fix,
    ** Fauerby's edge quadratic lost eps |base - p1|^2: an edge 4e5 radii
    ** long was good to 2e-6 only, the first input this harness found.) */
    double M = L + v3_len(base) + vl;
    ld slack = 1e-6 + 64 * DBL_EPSILON * kappa * M;
    ld c[3], d, f, off;
    ld q[3], a[3], b[3], cc[3], out[3];
    for (i = 0; i < 3; i++) {
      c[i] = (ld)x[i] + (ld)x[3 + i] * h.t;
      a[i] = x[6 + i]; b[i] = x[9 + i]; cc[i] = x[12 + i];
    }
    q[0] = h.point.x; q[1] = h.point.y; q[2] = h.point.z;
    off = ref_closest_on_triangle(q, a, b, cc, out);
    d = sqrtl((c[0] - q[0]) * (c[0] - q[0]) + (c[1] - q[1]) * (c[1] - q[1]) + (c[2] - q[2]) * (c[2] - q[2]));
    f = fs_dist(x, h.t);
    if (off > slack) fs_fail("contact point off the triangle", x, one_sided, (double)off, 0);
    if (h.t > 0 && fabsl(d - 1) > slack) fs_fail("contact not at distance 1", x, one_sided, (double)d, 1);
    if (h.t > 0 && f < 1 - slack) fs_fail("overlap at the contact time", x, one_sided, (double)f, 1);
    if (h.t > 1e-9 && fs_dist(x, h.t - 1e-9) < 1 - slack)
      fs_fail("overlap before the contact", x, one_sided, h.t, 0);
  }
  /* a miss never passes nearer than 1 (nor deeper than it started, in the
  ** slide loop's mode), unless a one-sided triangle was skipped */
  if (!hk && !(one_sided && v3_dot(vel, tri.n) > 0)) {
    double M = L + v3_len(base) + vl;
    ld slack = 1e-6 + 64 * DBL_EPSILON * kappa * M, f0 = fs_dist(x, 0);
    ld fmin = fs_min_dist(x, tmax);
    if (fmin < (f0 < 1 ? f0 : 1) - slack) fs_fail("a miss passes through the triangle", x, one_sided,
                                                   (double)fmin, (double)f0);
  }
  /* against the reference, on well-conditioned cases only */
  if (flags || tmax != 1.0) return 0;            /* the reference has neither */
  if (kappa > 1e4 || vl == 0 || vl > 1e6 || v3_len(base) > 1e6 || L > 4e6 || L < 1e-3) return 0;
  if (one_sided && fabs(v3_dot(vel, tri.n)) < 1e-9 * vl) return 0;   /* the backface test's sign */
  {
    ld fmin = fs_min_dist(x, 1.0);
    if (fabsl(fmin - 1) < 1e-6) return 0;        /* a graze: rounding decides */
    if (fs_dist(x, 0) < 1 + 1e-6 && fs_dist(x, 0) > 1 - 1e-6) return 0;   /* touching at 0 */
    if (fabsl(fs_dist(x, 1) - 1) < 1e-6) return 0;                         /* touching at 1 */
  }
  /* The reference advances by (f - 1) / |vel| a step: along a path that
  ** stays near distance 1, or meets it at a glancing angle (its steps then
  ** shrink by 1 - rate / |vel| each), that takes millions of steps (a
  ** 73-byte input took 75 s). Estimate the count, the sum of
  ** |vel| dt / (f - 1) on 64 samples up to the first near-contact, and
  ** the closing rate there, and skip the slow ones (glancing contacts are
  ** not compared anyway, see below). */
  {
    ld steps = 0, f, prev = fs_dist(x, 0), g0, g1;
    int k;
    for (k = 0; k < 64; k++) {
      f = fs_dist(x, (k + 1.0L) / 64);
      if (f - 1 < 1e-6L) {
        if ((prev - f) * 64 < 1e-3L * vl) return 0;
        break;
      }
      /* the integral of 1 / g over the segment, g = f - 1 taken as linear */
      g0 = prev - 1;
      g1 = f - 1;
      steps += vl / 64 * (fabsl(g1 - g0) > 1e-3L * g0 ? logl(g1 / g0) / (g1 - g0) : 1 / g0);
      prev = f;
    }
    if (steps > 1e5L) return 0;
  }
  /* A kernel miss was checked above without the reference (a miss never
  ** comes nearer than 1); a kernel hit at a glancing angle cannot be
  ** compared in t, and sends the reference into millions of steps (the
  ** sampled estimate misses an overlap shorter than 1/64: a 93-byte input
  ** took 8 s). */
  if (!hk) return 0;
  if (h.t > 0) {
    ld d = 1e-7L, lo = h.t > d ? h.t - d : 0;
    if ((fs_dist(x, lo) - fs_dist(x, h.t + d)) / (h.t + d - lo) < 1e-3L * vl) return 0;
  }
  hr = ref_sweep_sphere_triangle(x, x + 3, x + 6, x + 9, x + 12, one_sided, &t_ref, p_ref);
  fs_compared++;
  fs_compared_hits += hr;
  if (!hr) fs_fail("kernel hits, reference misses", x, one_sided, h.t, 0);
  if (hk && hr) {
    ld rate = (fs_dist(x, t_ref > 1e-7 ? t_ref - 1e-7 : 0) - fs_dist(x, t_ref + 1e-7)) /
              (t_ref > 1e-7 ? 2e-7 : 1e-7 + t_ref);
    double dp = sqrt((h.point.x - p_ref[0]) * (h.point.x - p_ref[0]) +
                     (h.point.y - p_ref[1]) * (h.point.y - p_ref[1]) +
                     (h.point.z - p_ref[2]) * (h.point.z - p_ref[2]));
    if (t_ref > 0 && rate < 1e-3 * vl) return 0;  /* a glancing contact: ill-conditioned t */
    if (fabs(h.t - t_ref) > 1e-6) fs_fail("t differs from the reference", x, one_sided, h.t, t_ref);
    if (dp > 1e-5 * (1 + L)) fs_fail("point differs from the reference", x, one_sided, dp, 0);
  }
  return 0;
}
