/*
** test_sweep.c: the sweep kernel (cs_sweep_triangle, csrc/cs_sweep.c)
** against the slow reference (spec/c/sweep_reference.c, conservative
** advancement in long double) on 10,000 generated cases: faces, edges,
** vertices, misses, grazes, slivers, thin triangles, overlaps, parallel
** moves (700 of each of the reference generator's 12 kinds), long thin
** ellipsoids (800: a generated case read as world space and mapped by
** diag(1/r), radii 0.05 to 5 in ratios 1:3 to 1:10) and touching starts
** (800: a face, edge or vertex contact moved to t = 0; they found the
** kernel's first bug, see test_regressions.c), and a few hand cases.
** Prints counts per category and "N passed, M failed" last.
** TEST_SWEEP_SHOW=n prints the first n failures (default 40).
** cc -std=c99 -O2 -Icsrc spec/c/test_sweep.c spec/c/sweep_reference.c build/libcollideslide.a -lm
**
** Tolerances (all in ellipsoid space, where the sphere has radius 1):
**  - hit or miss: the same, except a graze: when the two disagree, the
**    closest the centre comes to the triangle over t in [0, 1] must be
**    within GRAZE of 1, or the contact within GRAZE of the end of the move
**    (distance at t = 1 within GRAZE of 1), or the move within 1e-12 of
**    parallel to a one-sided triangle's plane (the backface test's sign).
**  - t: |t - t_ref| <= T_ABS + T_REL / rate, where rate = -f'(t_ref) is how
**    fast the distance f(t) closes at contact (|vel| cos of the incidence):
**    a distance error e moves the root by e / rate, so grazing contacts get
**    the slack their conditioning needs and head-on ones get 1e-9.
**  - point: within POINT (1e-6) of the reference's.
**  - the kernel's own answer, checked exactly in long double: the point lies
**    on the triangle (ON_TRI), at distance 1 from the centre at t (within
**    UNIT; an overlap at t = 0 is instead the nearest point); at
**    t - EARLY the sphere does not overlap (distance >= 1 - 1e-12); at t it
**    overlaps by at most 1e-9; a reported miss never comes nearer than
**    1 - 1e-9.
**  - ill-conditioned triangles (slivers) add 2 eps kappa L to every
**    distance tolerance above and (2 eps kappa L) / rate to t's: see
**    conditioning_slack. It is ~1e-15 for well-shaped triangles.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"
#include "sweep_reference.h"

#define SEED 20250101ULL
#define NCASES 10000

#define GRAZE 1e-9
#define T_ABS 1e-9
#define T_REL 1e-12
#define POINT 1e-6
#define ON_TRI 1e-9
#define UNIT 1e-9
#define EARLY 1e-9

typedef long double ld;

/* Categories: the reference generator's kinds, then the ellipsoid ones. */
enum { CAT_LONG_THIN = REF_KIND_COUNT, CAT_TOUCHING, CAT_COUNT };

typedef struct Cat {
  long cases, hits, misses, graze_ok, failed;
  double max_dt, max_dp;
} Cat;

typedef struct Stats { long passed, failed, shown; } Stats;

static long show_limit = 40;   /* failures printed; TEST_SWEEP_SHOW=n changes it */

static int check(Stats *st, Cat *cat, int ok, long id, const char *what, double x, double y) {
  if (ok) { st->passed++; return 1; }
  st->failed++;
  cat->failed++;
  if (st->shown++ < show_limit) printf("FAIL case %ld: %s (%.17g vs %.17g)\n", id, what, x, y);
  return 0;
}

static const char *cat_name(int c) {
  return c == CAT_LONG_THIN ? "long-thin-ell" : c == CAT_TOUCHING ? "touching" : ref_case_kind_name(c);
}

/* {==================================================================
** Exact measures (long double), independent of the kernel
** ===================================================================*/

typedef struct Case {
  double base[3], vel[3], a[3], b[3], c[3];
  int one_sided;
} Case;

/* Distance from base + t vel to the triangle; *near gets the nearest point. */
static ld dist_at(const Case *k, ld t, ld near[3]) {
  ld p[3], a[3], b[3], c[3], tmp[3];
  int i;
  for (i = 0; i < 3; i++) {
    p[i] = (ld)k->base[i] + (ld)k->vel[i] * t;
    a[i] = k->a[i]; b[i] = k->b[i]; c[i] = k->c[i];
  }
  return ref_closest_on_triangle(p, a, b, c, near ? near : tmp);
}

/* The least distance over t in [0, 1]: golden section on a convex function. */
static ld min_dist(const Case *k) {
  const ld g = 0.6180339887498948482L;
  ld lo = 0, hi = 1, x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  ld f1 = dist_at(k, x1, NULL), f2 = dist_at(k, x2, NULL), f0, fe;
  int i;
  for (i = 0; i < 120; i++) {
    if (f1 < f2) { hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = dist_at(k, x1, NULL); }
    else { lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = dist_at(k, x2, NULL); }
  }
  f0 = dist_at(k, 0, NULL);
  fe = dist_at(k, 1, NULL);
  if (f0 < f1) f1 = f0;
  if (fe < f1) f1 = fe;
  return f1 < f2 ? f1 : f2;
}

/* How fast the distance closes at t (-f'(t)), by a central difference. */
static ld closing_rate(const Case *k, ld t) {
  ld h = 1e-7L, lo = t - h < 0 ? 0 : t - h, hi = t + h;
  return -(dist_at(k, hi, NULL) - dist_at(k, lo, NULL)) / (hi - lo);
}

static ld pdist(const double p[3], cs_Vec3 q) {
  ld x = (ld)p[0] - q.x, y = (ld)p[1] - q.y, z = (ld)p[2] - q.z;
  return sqrtl(x * x + y * y + z * z);
}

/* The point's distance to the triangle (0 when it lies on it). */
static ld off_triangle(const Case *k, cs_Vec3 p) {
  ld q[3], a[3], b[3], c[3], out[3];
  int i;
  q[0] = p.x; q[1] = p.y; q[2] = p.z;
  for (i = 0; i < 3; i++) { a[i] = k->a[i]; b[i] = k->b[i]; c[i] = k->c[i]; }
  return ref_closest_on_triangle(q, a, b, c, out);
}

/* The slack an ill-conditioned triangle needs: the plane's normal, made in
** double from (b - a) x (c - a) as the gather makes it, is off by about
** eps kappa radians, kappa = |b - a| |c - a| / |(b - a) x (c - a)| (1 / the
** sine of the angle at a), so a face contact can be off the exact plane
** by eps kappa L (L the longest edge). Measured on these cases: at most
** 1.1 eps kappa L for the point, 0.1 eps kappa L x rate for t on slivers
** (kappa ~ 4e7 there, so up to 4e-8); about 1e-15 for well-shaped ones. */
static double conditioning_slack(const cs_TriES *t) {
  cs_Vec3 e1 = v3_sub(t->b, t->a), e2 = v3_sub(t->c, t->a), e3 = v3_sub(t->c, t->b);
  double kappa = v3_len(e1) * v3_len(e2) / v3_len(v3_cross(e1, e2));
  double L = fmax(v3_len(e1), fmax(v3_len(e2), v3_len(e3)));
  return 2 * DBL_EPSILON * kappa * L;
}

/* }================================================================== */

/* {==================================================================
** Cases
** ===================================================================*/

static cs_Vec3 dv(const double x[3]) { return v3(x[0], x[1], x[2]); }

/* The triangle as the world gather builds it (cs_world.c, map_triangle). */
static void make_tri(const Case *k, cs_TriES *t) {
  cs_Vec3 n;
  memset(t, 0, sizeof *t);
  t->a = dv(k->a);
  t->b = dv(k->b);
  t->c = dv(k->c);
  n = v3_cross(v3_sub(t->b, t->a), v3_sub(t->c, t->a));
  t->n = v3_scale(n, 1.0 / v3_len(n));
  t->d = -v3_dot(t->n, t->a);
  cs_tri_bounds(t);
  t->one_sided = (uint8_t)k->one_sided;
  t->response = CS_RESPONSE_SLIDE;
}

/* A long thin ellipsoid: a generated case read as world space at the scale
** of the mean radius, for an ellipsoid with radii in [0.05, 5] whose ratio
** is up to 1:10, mapped into its ellipsoid space by diag(1/r) as cs_world.c
** does (x_e = (x - c0) / r; c0 = 0 here). The kernel sees triangles
** stretched by up to 10 along one axis. */
static void make_long_thin(ref_Rng *rng, Case *k) {
  static const int kinds[] = { REF_FACE, REF_EDGE, REF_VERTEX, REF_GRAZE_HIT, REF_GRAZE_MISS,
                               REF_MISS_SHORT, REF_PARALLEL, REF_SLIVER, REF_OVERLAP };
  ref_Case rc;
  double r[3], mean, mn, mx;
  int i;
  ref_case_make(rng, kinds[(int)(ref_rng_uniform(rng) * 9)], &rc);
  do {
    for (i = 0; i < 3; i++) r[i] = exp(ref_rng_range(rng, log(0.05), log(5.0)));
    mn = fmin(r[0], fmin(r[1], r[2]));
    mx = fmax(r[0], fmax(r[1], r[2]));
  } while (mx > 10 * mn || mx < 3 * mn);   /* ratios between 1:3 and 1:10 */
  mean = (r[0] + r[1] + r[2]) / 3;
  for (i = 0; i < 3; i++) {
    double s = mean, ir = 1.0 / r[i];       /* world = case * mean; es = world / r */
    k->base[i] = (rc.base[i] * s) * ir;
    k->vel[i] = (rc.vel[i] * s) * ir;
    k->a[i] = (rc.a[i] * s) * ir;
    k->b[i] = (rc.b[i] * s) * ir;
    k->c[i] = (rc.c[i] * s) * ir;
  }
  k->one_sided = rc.one_sided;
}

/* Touching at the start: a face, edge or vertex contact case moved so that
** its centre starts at the contact (distance 1 up to the rounding of the
** start), moving in. The first contact is at t = 0 (up to rounding). */
static void make_touching(ref_Rng *rng, Case *k) {
  ref_Case rc;
  int i;
  do ref_case_make(rng, (int)(ref_rng_uniform(rng) * 3), &rc); while (!rc.expect_hit);
  for (i = 0; i < 3; i++) {
    k->base[i] = rc.base[i] + rc.vel[i] * rc.expect_t;
    k->vel[i] = rc.vel[i];
    k->a[i] = rc.a[i]; k->b[i] = rc.b[i]; k->c[i] = rc.c[i];
  }
  k->one_sided = rc.one_sided;
}

/* }================================================================== */

static void run_case(Stats *st, Cat *cat, long id, const Case *k) {
  cs_TriES tri;
  cs_SweepHit h;
  double tr = -1, pr[3];
  int hk, hr, one_sided_skip;
  double geom;
  cs_Vec3 base = dv(k->base), vel = dv(k->vel);
  ld vl = sqrtl((ld)k->vel[0] * k->vel[0] + (ld)k->vel[1] * k->vel[1] + (ld)k->vel[2] * k->vel[2]);
  make_tri(k, &tri);
  geom = conditioning_slack(&tri);
  hk = cs_sweep_triangle(base, vel, &tri, 1.0, 0, &h);
  /* cs_sweep_triangles puts its distance bound first (and fills the
  ** triangle's data for it, which the kernel then uses too): neither may
  ** change any bit of the answer */
  {
    cs_SweepHit h2, h3;
    int h2k = (int)(cs_sweep_triangles(base, vel, &tri, 1, 1.0, 0, &h2) + 1);
    int h3k = cs_sweep_triangle(base, vel, &tri, 1.0, 0, &h3);
    int same = h2k == hk && h3k == hk &&
               (!hk || (memcmp(&h.t, &h2.t, sizeof h.t) == 0 && memcmp(&h.t, &h3.t, sizeof h.t) == 0 &&
                        memcmp(&h.point, &h2.point, sizeof h.point) == 0 &&
                        memcmp(&h.point, &h3.point, sizeof h.point) == 0 &&
                        memcmp(&h.normal, &h2.normal, sizeof h.normal) == 0 &&
                        memcmp(&h.normal, &h3.normal, sizeof h.normal) == 0 &&
                        h.feature == h2.feature && h.feature == h3.feature));
    check(st, cat, same, id, "the distance bound changes no result", h2k ? h2.t : -1,
          hk ? h.t : -1);
  }
  hr = ref_sweep_sphere_triangle(k->base, k->vel, k->a, k->b, k->c, k->one_sided, &tr, pr);
  cat->cases++;
  if (hr) cat->hits++; else cat->misses++;
  /* the backface test: both skip a move that does not point against the front */
  one_sided_skip = k->one_sided && v3_dot(vel, tri.n) > 0;
  if (hk != hr) {
    ld fmin = min_dist(k), fend = dist_at(k, 1, NULL);
    int graze = fabsl(fmin - 1) <= GRAZE || fabsl(fend - 1) <= GRAZE ||
                (k->one_sided && fabsl(v3_dot(vel, tri.n)) <= 1e-12 * vl);
    if (check(st, cat, graze, id, hk ? "kernel hits, reference misses" :
              "kernel misses, reference hits", (double)fmin, (double)fend))
      cat->graze_ok++;
    if (!hk) return;
  }
  if (!hk) {
    /* a miss never comes nearer than 1 - 1e-9 (unless the face was skipped) */
    if (!one_sided_skip) {
      ld fmin = min_dist(k);
      check(st, cat, fmin >= 1 - UNIT - geom, id, "a miss passes nearer than 1", (double)fmin, 1);
    }
    return;
  }
  /* both hit (or a graze): compare */
  if (hr) {
    ld rate = closing_rate(k, tr), dt = fabsl((ld)h.t - tr), dp = pdist(pr, h.point);
    ld tol = T_ABS + (rate > 0 ? (T_REL + geom) / rate : 1);
    if (tr == 0 && h.t == 0) tol = 0;
    if (dt > cat->max_dt) cat->max_dt = (double)dt;
    if (dp > cat->max_dp) cat->max_dp = (double)dp;
    check(st, cat, dt <= tol, id, "t agrees with the reference", h.t, (double)tr);
    check(st, cat, dp <= POINT, id, "point agrees with the reference", (double)dp, 0);
  }
  /* the kernel's own answer, measured exactly */
  {
    ld near[3], f = dist_at(k, h.t, near), cx[3], d;
    int i;
    for (i = 0; i < 3; i++) cx[i] = (ld)k->base[i] + (ld)k->vel[i] * h.t;
    d = sqrtl((cx[0] - h.point.x) * (cx[0] - h.point.x) + (cx[1] - h.point.y) * (cx[1] - h.point.y)
              + (cx[2] - h.point.z) * (cx[2] - h.point.z));
    check(st, cat, off_triangle(k, h.point) <= ON_TRI + geom, id, "contact point on the triangle",
          (double)off_triangle(k, h.point), 0);
    if (h.t > 0) {
      check(st, cat, fabsl(d - 1) <= UNIT + geom, id, "contact at distance 1 from the centre",
            (double)d, 1);
      check(st, cat, f >= 1 - UNIT - geom, id, "no overlap deeper than 1e-9 at t", (double)f, 1);
      check(st, cat, dist_at(k, h.t - EARLY > 0 ? h.t - EARLY : 0, NULL) >= 1 - 1e-12L - geom, id,
            "no overlap at t - 1e-9", h.t, 0);
    } else {
      check(st, cat, fabsl(d - f) <= UNIT + geom, id, "an overlap reports the nearest point",
            (double)d, (double)f);
    }
    check(st, cat, fabs(v3_len(h.normal) - 1) <= 1e-12, id, "unit normal", v3_len(h.normal), 1);
    if (d > 1e-6) {
      ld c = ((cx[0] - h.point.x) * h.normal.x + (cx[1] - h.point.y) * h.normal.y
              + (cx[2] - h.point.z) * h.normal.z) / d;
      check(st, cat, c >= 1 - 1e-9, id, "normal points from the contact to the centre",
            (double)c, 1);
    }
  }
}

/* Hand-made cases with literal numbers: the kernel's own edge conditions. */
static void hand_cases(Stats *st, Cat *cat) {
  Case k;
  cs_TriES tri;
  cs_SweepHit h;
  int hit;
  memset(&k, 0, sizeof k);
  /* a floor y = 0 (normal up), dropped from 3 by -4: t = 0.5 at the origin */
  k.a[0] = -10; k.a[2] = -10; k.b[2] = 10; k.c[0] = 10; k.c[2] = -10;
  k.base[1] = 3; k.vel[1] = -4;
  make_tri(&k, &tri);
  hit = cs_sweep_triangle(dv(k.base), dv(k.vel), &tri, 1.0, 0, &h);
  check(st, cat, hit && h.t == 0.5 && h.feature == CS_FEATURE_FACE, -1, "hand: floor t = 0.5",
        h.t, 0.5);
  /* tmax: the same with tmax 0.4 misses */
  check(st, cat, !cs_sweep_triangle(dv(k.base), dv(k.vel), &tri, 0.4, 0, &h), -2,
        "hand: tmax 0.4 misses", 0, 0);
  /* a zero move away from an overlap: no hit in the slide loop's mode, a hit without */
  k.base[1] = 0.5; k.vel[1] = 0;
  check(st, cat, cs_sweep_triangle(dv(k.base), dv(k.vel), &tri, 1.0, 0, &h) && h.t == 0, -3,
        "hand: overlap at t = 0", h.t, 0);
  check(st, cat, !cs_sweep_triangle(dv(k.base), dv(k.vel), &tri, 1.0, CS_SWEEP_DEEPENING_ONLY, &h),
        -4, "hand: deepening-only ignores a still overlap", 0, 0);
  k.vel[1] = 1;
  check(st, cat, !cs_sweep_triangle(dv(k.base), dv(k.vel), &tri, 1.0, CS_SWEEP_DEEPENING_ONLY, &h),
        -5, "hand: deepening-only lets it leave", 0, 0);
  k.vel[1] = -1;
  check(st, cat, cs_sweep_triangle(dv(k.base), dv(k.vel), &tri, 1.0, CS_SWEEP_DEEPENING_ONLY, &h),
        -6, "hand: deepening-only blocks going deeper", 0, 0);
  /* exactly touching at the start, moving in: t = 0 (distance 1 is a contact) */
  k.base[1] = 1; k.vel[1] = -1;
  hit = cs_sweep_triangle(dv(k.base), dv(k.vel), &tri, 1.0, 0, &h);
  check(st, cat, hit && h.t == 0, -7, "hand: touching at the start, moving in: t = 0", h.t, 0);
}

int main(void) {
  Stats st = {0, 0, 0};
  Cat cats[CAT_COUNT], hand;
  ref_Rng rng;
  long i;
  int c;
  if (getenv("TEST_SWEEP_SHOW")) show_limit = atol(getenv("TEST_SWEEP_SHOW"));
  memset(cats, 0, sizeof cats);
  memset(&hand, 0, sizeof hand);
  printf("test_sweep: seed %llu, %d cases\n", SEED, NCASES);
  ref_rng_seed(&rng, SEED);
  hand_cases(&st, &hand);
  for (i = 0; i < NCASES; i++) {
    Case k;
    /* 12 generator kinds x 700, then 800 long thin ellipsoids, 800 touching */
    c = i < 700L * REF_KIND_COUNT ? (int)(i / 700) : i < 700L * REF_KIND_COUNT + 800 ? CAT_LONG_THIN
                                                                                    : CAT_TOUCHING;
    if (c == CAT_LONG_THIN) {
      make_long_thin(&rng, &k);
    } else if (c == CAT_TOUCHING) {
      make_touching(&rng, &k);
    } else {
      ref_Case rc;
      ref_case_make(&rng, c, &rc);
      memcpy(k.base, rc.base, sizeof k.base);
      memcpy(k.vel, rc.vel, sizeof k.vel);
      memcpy(k.a, rc.a, sizeof k.a);
      memcpy(k.b, rc.b, sizeof k.b);
      memcpy(k.c, rc.c, sizeof k.c);
      k.one_sided = rc.one_sided;
    }
    run_case(&st, &cats[c], i, &k);
  }
  printf("%-14s %6s %6s %6s %6s %7s %10s %10s\n", "category", "cases", "hits", "misses",
         "graze", "failed", "max|dt|", "max|dp|");
  for (c = 0; c < CAT_COUNT; c++)
    printf("%-14s %6ld %6ld %6ld %6ld %7ld %10.3g %10.3g\n", cat_name(c), cats[c].cases,
           cats[c].hits, cats[c].misses, cats[c].graze_ok, cats[c].failed, cats[c].max_dt,
           cats[c].max_dp);
  printf("hand cases: %ld failed\n", hand.failed);
  printf("%ld passed, %ld failed\n", st.passed, st.failed);
  return st.failed == 0 ? 0 : 1;
}
