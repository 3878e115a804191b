/*
** test_geom.c: cs_geom.c against long double brute force, and the reference
** sweep on hand-computed and generated cases. Prints "N passed, M failed".
** cc -std=c99 -O2 -Icsrc -Ispec/c spec/c/test_geom.c spec/c/sweep_reference.c csrc/cs_geom.c -lm
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cs_internal.h"
#include "sweep_reference.h"

#define SEED 20240611ULL

typedef long double ld;

typedef struct Stats { long passed, failed, shown; } Stats;

/* Counts one check; prints the first failures with their message. */
static int check(Stats *st, int ok, const char *what, double x, double y) {
  if (ok) { st->passed++; return 1; }
  st->failed++;
  if (st->shown++ < 40) printf("FAIL %s (%.17g vs %.17g)\n", what, x, y);
  return 0;
}

static cs_Vec3 rvec(ref_Rng *r, double s) {
  return v3(ref_rng_range(r, -s, s), ref_rng_range(r, -s, s), ref_rng_range(r, -s, s));
}

static void to_ld(ld o[3], cs_Vec3 v) { o[0] = v.x; o[1] = v.y; o[2] = v.z; }

static double maxabs(cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, cs_Vec3 p) {
  double m = 0, x[12];
  int i;
  x[0] = a.x; x[1] = a.y; x[2] = a.z; x[3] = b.x; x[4] = b.y; x[5] = b.z;
  x[6] = c.x; x[7] = c.y; x[8] = c.z; x[9] = p.x; x[10] = p.y; x[11] = p.z;
  for (i = 0; i < 12; i++) if (fabs(x[i]) > m) m = fabs(x[i]);
  return m;
}

/* {==================================================================
** cs_closest_on_triangle
** ===================================================================*/

/* Distance (long double) from x to segment p0 p1. */
static ld seg_dist(cs_Vec3 x, cs_Vec3 p0, cs_Vec3 p1) {
  ld lx[3], l0[3], l1[3], o[3], e[3], w[3], ee = 0, s = 0, d2 = 0;
  int i;
  to_ld(lx, x); to_ld(l0, p0); to_ld(l1, p1);
  for (i = 0; i < 3; i++) { e[i] = l1[i] - l0[i]; w[i] = lx[i] - l0[i]; ee += e[i] * e[i]; s += w[i] * e[i]; }
  s = ee > 0 ? s / ee : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  for (i = 0; i < 3; i++) { o[i] = l0[i] + e[i] * s - lx[i]; d2 += o[i] * o[i]; }
  return sqrtl(d2);
}

/* One closest-point check: the distance matches the reference, the point
** lies on the triangle, and the feature code names where it lies. */
static void closest_case(Stats *st, cs_Vec3 p, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, double tol) {
  ld lp[3], la[3], lb[3], lc[3], lr[3], out[3], dref, dgot, don;
  cs_Vec3 r, v[3];
  int f = -1, ok;
  double scale = maxabs(a, b, c, p), eps = tol * (1 + scale);
  r = cs_closest_on_triangle(p, a, b, c, &f);
  to_ld(lp, p); to_ld(la, a); to_ld(lb, b); to_ld(lc, c); to_ld(lr, r);
  dref = ref_closest_on_triangle(lp, la, lb, lc, out);
  dgot = sqrtl((lp[0] - lr[0]) * (lp[0] - lr[0]) + (lp[1] - lr[1]) * (lp[1] - lr[1])
               + (lp[2] - lr[2]) * (lp[2] - lr[2]));
  check(st, cs_isfinite3(r), "closest: finite", r.x, 0);
  check(st, fabsl(dgot - dref) <= eps, "closest: distance matches the reference", (double)dgot,
        (double)dref);
  don = ref_closest_on_triangle(lr, la, lb, lc, out);
  check(st, don <= eps, "closest: the point lies on the triangle", (double)don, eps);
  v[0] = a; v[1] = b; v[2] = c;
  ok = f >= 0 && f <= 6;
  if (f >= 1 && f <= 3) ok = seg_dist(r, v[f - 1], v[f % 3]) <= eps;
  if (f >= 4) ok = r.x == v[f - 4].x && r.y == v[f - 4].y && r.z == v[f - 4].z;
  check(st, ok, "closest: the feature code names the point's feature", f, 0);
}

/* Dense sampling: no sampled point of the triangle is nearer than the result. */
static void closest_dense(Stats *st, cs_Vec3 p, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c) {
  cs_Vec3 r = cs_closest_on_triangle(p, a, b, c, NULL);
  double d = v3_len(v3_sub(p, r)), best = HUGE_VAL;
  int i, j, n = 120;
  for (i = 0; i <= n; i++)
    for (j = 0; i + j <= n; j++) {
      double u = (double)i / n, v = (double)j / n;
      cs_Vec3 x = v3_add(a, v3_add(v3_scale(v3_sub(b, a), u), v3_scale(v3_sub(c, a), v)));
      double dx = v3_len(v3_sub(p, x));
      if (dx < best) best = dx;
    }
  check(st, best >= d - 1e-12 * (1 + maxabs(a, b, c, p)), "closest: dense sampling finds nothing nearer",
        best, d);
  /* and the sampling's best is near the result (grid step bounds the gap) */
  check(st, best <= d + 2.0 * v3_len(v3_sub(b, a)) / n + 2.0 * v3_len(v3_sub(c, a)) / n,
        "closest: dense sampling agrees", best, d);
}

static void test_closest(Stats *st, ref_Rng *rng) {
  cs_Vec3 a = v3(0, 0, 0), b = v3(2, 0, 0), c = v3(0, 2, 0), r;
  int f, i;
  /* hand cases, one per region */
  r = cs_closest_on_triangle(v3(0.5, 0.5, 3), a, b, c, &f);
  check(st, f == 0 && r.x == 0.5 && r.y == 0.5 && r.z == 0, "closest: face", f, r.z);
  r = cs_closest_on_triangle(v3(-1, -1, 1), a, b, c, &f);
  check(st, f == 4, "closest: vertex a", f, 4);
  r = cs_closest_on_triangle(v3(3, -1, 0), a, b, c, &f);
  check(st, f == 5 && r.x == 2, "closest: vertex b", f, 5);
  r = cs_closest_on_triangle(v3(-1, 3, 0), a, b, c, &f);
  check(st, f == 6 && r.y == 2, "closest: vertex c", f, 6);
  r = cs_closest_on_triangle(v3(1, -1, 1), a, b, c, &f);
  check(st, f == 1 && r.x == 1 && r.y == 0, "closest: edge ab", f, 1);
  r = cs_closest_on_triangle(v3(2, 2, -1), a, b, c, &f);
  check(st, f == 2 && fabs(r.x - 1) < 1e-15 && fabs(r.y - 1) < 1e-15, "closest: edge bc", f, 2);
  r = cs_closest_on_triangle(v3(-1, 1, 0), a, b, c, &f);
  check(st, f == 3 && r.x == 0 && r.y == 1, "closest: edge ca", f, 3);
  r = cs_closest_on_triangle(v3(0.3, 0.2, 0), a, b, c, &f);
  check(st, f == 0 && r.x == 0.3 && r.y == 0.2, "closest: a point on the face is itself", f, 0);
  /* random well-shaped triangles, points near and far */
  for (i = 0; i < 200000; i++) {
    double s = i % 3 == 0 ? 1 : i % 3 == 1 ? 10 : 1000;
    cs_Vec3 ta = rvec(rng, s), tb = rvec(rng, s), tc = rvec(rng, s);
    cs_Vec3 p = rvec(rng, 2 * s);
    if (i % 5 == 0) {   /* near the plane */
      cs_Vec3 n = v3_normalize(v3_cross(v3_sub(tb, ta), v3_sub(tc, ta)));
      p = v3_madd(p, n, -v3_dot(n, v3_sub(p, ta)) + ref_rng_range(rng, -1e-9, 1e-9) * s);
    }
    closest_case(st, p, ta, tb, tc, 1e-13);
    if (i < 300) closest_dense(st, p, ta, tb, tc);
  }
  /* slivers (caps, needles), down to 1e-13, and exact degenerates */
  for (i = 0; i < 100000; i++) {
    double h = pow(10, -ref_rng_range(rng, 5, 13)), len = ref_rng_range(rng, 0.5, 5);
    cs_Vec3 ta = rvec(rng, 3), dir = v3_normalize(rvec(rng, 1)), perp, tb, tc, p;
    perp = v3_normalize(v3_cross(dir, rvec(rng, 1)));
    tb = v3_madd(ta, dir, len);
    switch (i % 6) {
      case 0: tc = v3_madd(v3_madd(ta, dir, len * ref_rng_uniform(rng)), perp, h); break;
      case 1: tc = v3_madd(tb, perp, h); break;
      case 2: tc = v3_madd(ta, dir, len * ref_rng_range(rng, -1, 2)); break;    /* collinear */
      case 3: tc = tb; break;                                                  /* repeated */
      case 4: tb = ta; tc = ta; break;                                         /* a point */
      default: tc = v3_madd(v3_madd(ta, dir, len * 2), perp, h); break;        /* obtuse cap */
    }
    p = v3_add(ta, rvec(rng, 4));
    if (i % 4 == 0) p = v3_add(v3_scale(v3_add(ta, tb), 0.5), rvec(rng, 1e-6));
    if (i % 3 == 0) { cs_Vec3 tmp = ta; ta = tc; tc = tb; tb = tmp; }   /* rotate the order */
    closest_case(st, p, ta, tb, tc, 1e-12);
  }
}

/* }================================================================== */

/* {==================================================================
** cs_ray_triangle
** ===================================================================*/

/* The reference in long double: 1 hit, 0 miss, -1 too close to call. */
static int ray_reference(cs_Vec3 o, cs_Vec3 d, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, double tmax,
                         ld *s_out) {
  ld lo[3], ld_[3], v[3][3], n[3], e1[3], e2[3], q[3], dn, s, mn = 1e30L, nl;
  int i, k;
  to_ld(lo, o); to_ld(ld_, d); to_ld(v[0], a); to_ld(v[1], b); to_ld(v[2], c);
  for (k = 0; k < 3; k++) { e1[k] = v[1][k] - v[0][k]; e2[k] = v[2][k] - v[0][k]; }
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  nl = sqrtl(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  dn = (ld_[0] * n[0] + ld_[1] * n[1] + ld_[2] * n[2]) / nl;
  if (fabsl(dn) < 1e-6L * sqrtl(ld_[0] * ld_[0] + ld_[1] * ld_[1] + ld_[2] * ld_[2])) return -1;
  s = ((v[0][0] - lo[0]) * n[0] + (v[0][1] - lo[1]) * n[1] + (v[0][2] - lo[2]) * n[2]) / nl / dn;
  for (k = 0; k < 3; k++) q[k] = lo[k] + ld_[k] * s;
  for (i = 0; i < 3; i++) {   /* signed distance of q from edge i, in the plane */
    ld e[3], w[3], x[3], el;
    for (k = 0; k < 3; k++) { e[k] = v[(i + 1) % 3][k] - v[i][k]; w[k] = q[k] - v[i][k]; }
    x[0] = e[1] * w[2] - e[2] * w[1];
    x[1] = e[2] * w[0] - e[0] * w[2];
    x[2] = e[0] * w[1] - e[1] * w[0];
    el = sqrtl(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    x[0] = (x[0] * n[0] + x[1] * n[1] + x[2] * n[2]) / nl / el;
    if (x[0] < mn) mn = x[0];
  }
  *s_out = s;
  if (mn < -1e-9L || s < -1e-9L || s > tmax + 1e-9L) return 0;
  if (mn > 1e-9L && s > 1e-9L && s < tmax - 1e-9L) return 1;
  return -1;
}

static void test_ray(Stats *st, ref_Rng *rng) {
  cs_Vec3 a = v3(0, 0, 0), b = v3(1, 0, 0), c = v3(0, 1, 0);
  double s = -1;
  int i, k, hits, ambiguous = 0;
  check(st, cs_ray_triangle(v3(0.25, 0.25, 1), v3(0, 0, -2), a, b, c, 1, &s) && s == 0.5,
        "ray: front hit at 0.5", s, 0.5);
  check(st, cs_ray_triangle(v3(0.25, 0.25, -1), v3(0, 0, 2), a, b, c, 1, &s) && s == 0.5,
        "ray: back hit at 0.5", s, 0.5);
  check(st, !cs_ray_triangle(v3(1, 1, 1), v3(0, 0, -2), a, b, c, 1, &s), "ray: miss beside", 0, 0);
  check(st, !cs_ray_triangle(v3(0.25, 0.25, 1), v3(0, 0, -2), a, b, c, 0.4, &s),
        "ray: beyond tmax", 0, 0);
  check(st, cs_ray_triangle(v3(0.25, 0.25, 1), v3(0, 0, -2), a, b, c, 0.5, &s) && s == 0.5,
        "ray: tmax inclusive", s, 0.5);
  check(st, !cs_ray_triangle(v3(0.25, 0.25, 1), v3(0, 0, 2), a, b, c, 1, &s),
        "ray: pointing away", 0, 0);
  check(st, cs_ray_triangle(v3(0.25, 0.25, 0), v3(0, 0, 2), a, b, c, 1, &s) && s == 0,
        "ray: starting on the triangle is s = 0", s, 0);
  check(st, !cs_ray_triangle(v3(-1, 0.25, 0), v3(3, 0, 0), a, b, c, 1, &s),
        "ray: in the plane is a miss", 0, 0);
  check(st, !cs_ray_triangle(v3(0.25, 0.25, 1), v3(0, 0, 0), a, b, c, 1, &s),
        "ray: zero direction is a miss", 0, 0);
  check(st, cs_ray_triangle(v3(0, 0, 1), v3(0, 0, -2), a, b, c, 1, &s) && s == 0.5,
        "ray: through a vertex (edge-inclusive)", s, 0.5);
  check(st, cs_ray_triangle(v3(0.5, 0, 1), v3(0, 0, -2), a, b, c, 1, &s) && s == 0.5,
        "ray: through an edge (edge-inclusive)", s, 0.5);
  check(st, cs_ray_triangle(v3(0.5, 0.5, -1), v3(0, 0, 4), a, b, c, 1, &s) && s == 0.25,
        "ray: through the hypotenuse", s, 0.25);
  check(st, !cs_ray_triangle(v3(0.5, 0.5, -1), v3(0, 0, 4), a, b, a, 1, &s),
        "ray: degenerate triangle is a miss", 0, 0);
  /* watertight: rays through the shared diagonal of a random quad, and
  ** through the shared vertex of a fan, hit at least one triangle */
  for (i = 0; i < 100000; i++) {
    cs_Vec3 q0 = rvec(rng, 5), q1 = rvec(rng, 5), q2, q3, p, o, d;
    cs_Vec3 ax = v3_normalize(v3_sub(q1, q0)), up = v3_normalize(v3_cross(ax, rvec(rng, 1)));
    cs_Vec3 side = v3_cross(up, ax);
    double u = ref_rng_uniform(rng);
    q2 = v3_madd(v3_madd(q0, ax, ref_rng_range(rng, 0, 3)), side, ref_rng_range(rng, 0.5, 3));
    q3 = v3_madd(v3_madd(q0, ax, ref_rng_range(rng, 0, 3)), side, -ref_rng_range(rng, 0.5, 3));
    p = v3_add(v3_scale(q0, 1 - u), v3_scale(q1, u));
    o = v3_add(p, rvec(rng, 10));
    d = v3_scale(v3_sub(p, o), ref_rng_range(rng, 1, 2));
    hits = cs_ray_triangle(o, d, q0, q1, q2, 1, &s) + cs_ray_triangle(o, d, q1, q0, q3, 1, &s);
    check(st, hits >= 1, "ray: watertight across a shared edge", hits, 1);
  }
  for (i = 0; i < 20000; i++) {
    cs_Vec3 ctr = rvec(rng, 5), rim[7], o, d, nrm;
    cs_Vec3 ax = v3_normalize(rvec(rng, 1)), bx = v3_normalize(v3_cross(ax, rvec(rng, 1)));
    ax = v3_cross(bx, v3_normalize(v3_cross(ax, bx)));
    nrm = v3_cross(ax, bx);
    for (k = 0; k < 6; k++) {   /* a slightly bent hexagon around ctr */
      double ang = 2 * 3.141592653589793 * k / 6 + ref_rng_range(rng, -0.3, 0.3);
      double rad = ref_rng_range(rng, 0.5, 3);
      rim[k] = v3_add(ctr, v3_add(v3_scale(ax, rad * cos(ang)), v3_scale(bx, rad * sin(ang))));
      rim[k] = v3_madd(rim[k], nrm, ref_rng_range(rng, -0.05, 0.05));
    }
    rim[6] = rim[0];
    do o = v3_add(ctr, rvec(rng, 10));   /* not grazing: the fan covers ctr as seen */
    while (fabs(v3_dot(v3_normalize(v3_sub(ctr, o)), nrm)) < 0.2);
    d = v3_scale(v3_sub(ctr, o), 1.5);
    for (hits = 0, k = 0; k < 6; k++) hits += cs_ray_triangle(o, d, ctr, rim[k], rim[k + 1], 1, &s);
    check(st, hits >= 1, "ray: watertight at a fan's shared vertex", hits, 1);
  }
  /* random segments against the long double reference */
  for (i = 0; i < 300000; i++) {
    double sc = i % 2 ? 1 : 1000, tmax = i % 3 ? 1 : ref_rng_range(rng, 0, 1);
    cs_Vec3 ta = rvec(rng, sc), tb = rvec(rng, sc), tc = rvec(rng, sc), o = rvec(rng, 2 * sc), d;
    cs_Vec3 aim = v3_add(v3_scale(v3_add(ta, v3_add(tb, tc)), 1.0 / 3), rvec(rng, sc));
    ld sref;
    int want, got;
    if (i % 2 == 0) {   /* aim 1e-7 (relative) beside a random edge point, in the plane */
      cs_Vec3 n = v3_normalize(v3_cross(v3_sub(tb, ta), v3_sub(tc, ta)));
      cs_Vec3 out = v3_normalize(v3_cross(v3_sub(tb, ta), n));
      aim = v3_madd(v3_add(ta, v3_scale(v3_sub(tb, ta), ref_rng_uniform(rng))), out,
                    (i % 4 ? 1e-7 : -1e-7) * sc);
    }
    d = v3_scale(v3_sub(aim, o), ref_rng_range(rng, 0.5, 2.5));
    want = ray_reference(o, d, ta, tb, tc, tmax, &sref);
    got = cs_ray_triangle(o, d, ta, tb, tc, tmax, &s);
    if (want < 0) { ambiguous++; continue; }
    check(st, got == want, "ray: random case agrees with the reference", got, want);
    if (got && want)
      check(st, fabsl((ld)s - sref) <= 1e-11L * (1 + fabsl(sref)), "ray: random case's s",
            s, (double)sref);
  }
  printf("ray: %d random cases too close to call, skipped\n", ambiguous);
}

/* }================================================================== */

/* {==================================================================
** cs_triangle_box_overlap
** ===================================================================*/

/* 1 when the triangle keeps a point after clipping by the box grown by g. */
static int clip_overlap(cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, ld g) {
  ld v[3][3], l[3], h[3];
  to_ld(v[0], a); to_ld(v[1], b); to_ld(v[2], c);
  to_ld(l, lo); to_ld(h, hi);
  return ref_triangle_box_overlap(l, h, (const ld (*)[3])v, g);
}

static void test_box(Stats *st, ref_Rng *rng) {
  cs_Vec3 lo = v3(-1, -1, -1), hi = v3(1, 1, 1);
  int i, ambiguous = 0;
  check(st, cs_triangle_box_overlap(lo, hi, v3(-5, 1, -5), v3(5, 1, -5), v3(0, 1, 5)),
        "box: a triangle in the top face's plane touches", 0, 1);
  check(st, !cs_triangle_box_overlap(lo, hi, v3(-5, 1 + 1e-12, -5), v3(5, 1 + 1e-12, -5),
                                     v3(0, 1 + 1e-12, 5)),
        "box: just above the top face is apart", 0, 0);
  check(st, cs_triangle_box_overlap(lo, hi, v3(1, 1, 1), v3(3, 2, 1), v3(2, 3, 4)),
        "box: a shared corner touches", 0, 1);
  check(st, cs_triangle_box_overlap(lo, hi, v3(-0.1, -0.1, 0), v3(0.1, 0, 0), v3(0, 0.1, 0)),
        "box: a triangle inside", 0, 1);
  check(st, cs_triangle_box_overlap(lo, hi, v3(-10, -10, 0), v3(10, -10, 0), v3(0, 10, 0)),
        "box: a triangle through it, vertices all outside", 0, 1);
  /* beside the edge x = 1, y = 1 diagonally: only an edge x axis separates */
  check(st, !cs_triangle_box_overlap(lo, hi, v3(1.6, 0.5, -5), v3(0.5, 1.6, -5), v3(1.05, 1.05, 5)),
        "box: cut off diagonally beside an edge", 0, 0);
  check(st, cs_triangle_box_overlap(lo, hi, v3(1.4, 0.5, -5), v3(0.5, 1.4, -5), v3(0.95, 0.95, 5)),
        "box: clipping an edge diagonally", 0, 1);
  check(st, !cs_triangle_box_overlap(lo, hi, v3(2, 2, 2), v3(2, 2, 2), v3(2, 2, 2)),
        "box: a point outside", 0, 0);
  check(st, cs_triangle_box_overlap(lo, hi, v3(0, 0, 0), v3(0, 0, 0), v3(0, 0, 0)),
        "box: a point inside", 0, 1);
  for (i = 0; i < 400000; i++) {
    cs_Vec3 c = rvec(rng, 3), h = v3(ref_rng_range(rng, 0.01, 2), ref_rng_range(rng, 0.01, 2),
                                     ref_rng_range(rng, 0.01, 2));
    cs_Vec3 blo = v3_sub(c, h), bhi = v3_add(c, h), ta, tb, tc;
    double sz = i % 3 == 0 ? 0.5 : i % 3 == 1 ? 3 : 20;
    ta = v3_add(c, rvec(rng, sz));
    tb = v3_add(c, rvec(rng, sz));
    tc = v3_add(c, rvec(rng, sz));
    if (i % 10 == 0) tc = v3_add(v3_scale(ta, 0.3), v3_scale(tb, 0.7));   /* a segment */
    if (i % 2 == 0) {   /* slide it along u to 1e-7 (relative) off first contact */
      cs_Vec3 u = v3_normalize(rvec(rng, 1));
      double s0 = 0, s1 = 100, sm, off;
      int k;
      if (!clip_overlap(blo, bhi, ta, tb, tc, 0) ||
          clip_overlap(blo, bhi, v3_madd(ta, u, s1), v3_madd(tb, u, s1), v3_madd(tc, u, s1), 0))
        s1 = s0;        /* no contact to find along u: leave it */
      for (k = 0; k < 64 && s1 > s0; k++) {
        sm = 0.5 * (s0 + s1);
        if (clip_overlap(blo, bhi, v3_madd(ta, u, sm), v3_madd(tb, u, sm), v3_madd(tc, u, sm), 0))
          s0 = sm;
        else
          s1 = sm;
      }
      off = s0 + (i % 4 ? 1e-7 : -1e-7) * (1 + v3_len(c));
      ta = v3_madd(ta, u, off);
      tb = v3_madd(tb, u, off);
      tc = v3_madd(tc, u, off);
    }
    {
      int got = cs_triangle_box_overlap(blo, bhi, ta, tb, tc);
      int sure_in = clip_overlap(blo, bhi, ta, tb, tc, -1e-9L);
      int sure_out = !clip_overlap(blo, bhi, ta, tb, tc, 1e-9L);
      if (!sure_in && !sure_out) { ambiguous++; continue; }
      check(st, got == sure_in, "box: random case agrees with clipping", got, sure_in);
    }
  }
  printf("box: %d random cases too close to call, skipped\n", ambiguous);
}

/* }================================================================== */

/* {==================================================================
** The reference sweep
** ===================================================================*/

static void test_reference_hand(Stats *st) {
  double base[3], vel[3], a[3], b[3], c[3], t = -1, p[3];
  int hit;
  /* a floor at y = 0; from height 3 moving (0, -4, 0): touches at y = 1, t = 0.5 */
  a[0] = -10; a[1] = 0; a[2] = -10;
  b[0] = 0; b[1] = 0; b[2] = 10;
  c[0] = 10; c[1] = 0; c[2] = -10;
  base[0] = 0; base[1] = 3; base[2] = 0;
  vel[0] = 0; vel[1] = -4; vel[2] = 0;
  hit = ref_sweep_sphere_triangle(base, vel, a, b, c, 0, &t, p);
  check(st, hit && fabs(t - 0.5) < 1e-12, "reference: dropped on a plane, t = 0.5", t, 0.5);
  check(st, hit && fabs(p[0]) + fabs(p[1]) + fabs(p[2]) < 1e-12, "reference: ... at the origin",
        p[1], 0);
  /* (b - a) x (c - a) points up: one-sided, a downward move is toward the front */
  hit = ref_sweep_sphere_triangle(base, vel, a, b, c, 1, &t, p);
  check(st, hit && fabs(t - 0.5) < 1e-12, "reference: one-sided, from the front", t, 0.5);
  base[1] = -3; vel[1] = 4;
  check(st, !ref_sweep_sphere_triangle(base, vel, a, b, c, 1, &t, p),
        "reference: one-sided, from the back is skipped", 0, 0);
  check(st, ref_sweep_sphere_triangle(base, vel, a, b, c, 0, &t, p) && fabs(t - 0.5) < 1e-12,
        "reference: two-sided, from the back", t, 0.5);
  /* onto an edge: the triangle lies in z <= 0 on y = 0, its edge on the x axis;
  ** centre (0, 3, 0.6) going down meets it when y^2 + 0.36 = 1, y = 0.8:
  ** t = 2.2 / 4 = 0.55 at (0, 0, 0) */
  a[0] = -5; a[1] = 0; a[2] = 0;
  b[0] = 5; b[1] = 0; b[2] = 0;
  c[0] = 0; c[1] = 0; c[2] = -5;
  base[0] = 0; base[1] = 3; base[2] = 0.6;
  vel[0] = 0; vel[1] = -4; vel[2] = 0;
  hit = ref_sweep_sphere_triangle(base, vel, a, b, c, 0, &t, p);
  check(st, hit && fabs(t - 0.55) < 1e-9, "reference: onto an edge, t = 0.55", t, 0.55);
  check(st, hit && fabs(p[0]) + fabs(p[1]) + fabs(p[2]) < 1e-9, "reference: ... at the origin",
        p[2], 0);
  /* onto a vertex: vertex at the origin, the triangle in x <= 0, z <= 0;
  ** centre (0.36, 3, 0.48) (0.6 off the axis) meets it at y = 0.8, t = 0.55 */
  a[0] = 0; a[1] = 0; a[2] = 0;
  b[0] = -5; b[1] = 0; b[2] = 0;
  c[0] = 0; c[1] = 0; c[2] = -5;
  base[0] = 0.36; base[1] = 3; base[2] = 0.48;
  hit = ref_sweep_sphere_triangle(base, vel, a, b, c, 0, &t, p);
  check(st, hit && fabs(t - 0.55) < 1e-9, "reference: onto a vertex, t = 0.55", t, 0.55);
  check(st, hit && fabs(p[0]) + fabs(p[1]) + fabs(p[2]) < 1e-12, "reference: ... at the vertex",
        p[0], 0);
  /* overlapping at the start: t = 0 */
  base[0] = 0.1; base[1] = 0.5; base[2] = -0.1;
  hit = ref_sweep_sphere_triangle(base, vel, a, b, c, 0, &t, p);
  check(st, hit && t == 0, "reference: an overlap at the start is t = 0", t, 0);
  /* falling short: from height 3 by (0, -1.5, 0) */
  base[0] = -1; base[1] = 3; base[2] = -1;
  vel[1] = -1.5;
  check(st, !ref_sweep_sphere_triangle(base, vel, a, b, c, 0, &t, p),
        "reference: a move that stops short misses", 0, 0);
}

/* The reference against the generator's constructed answers. */
static void test_reference_generated(Stats *st, ref_Rng *rng) {
  int kind, i;
  for (kind = 0; kind < REF_KIND_COUNT; kind++) {
    long bad = 0;
    for (i = 0; i < 3000; i++) {
      ref_Case k;
      double t = -1, p[3], vl, dp;
      int hit;
      ref_case_make(rng, kind, &k);
      hit = ref_sweep_sphere_triangle(k.base, k.vel, k.a, k.b, k.c, k.one_sided, &t, p);
      vl = sqrt(k.vel[0] * k.vel[0] + k.vel[1] * k.vel[1] + k.vel[2] * k.vel[2]);
      if (!check(st, hit == k.expect_hit, ref_case_kind_name(kind), hit, k.expect_hit)) bad++;
      if (hit && k.expect_hit && k.expect_t >= 0) {
        dp = sqrt((p[0] - k.expect_point[0]) * (p[0] - k.expect_point[0])
                  + (p[1] - k.expect_point[1]) * (p[1] - k.expect_point[1])
                  + (p[2] - k.expect_point[2]) * (p[2] - k.expect_point[2]));
        if (!check(st, fabs(t - k.expect_t) * vl <= 1e-9, "reference: generated t", t, k.expect_t))
          bad++;
        if (!check(st, dp <= 1e-6, "reference: generated point", dp, 0)) bad++;
      }
    }
    printf("reference sweep, %-14s %ld bad of 3000\n", ref_case_kind_name(kind), bad);
  }
}

/* }================================================================== */

int main(void) {
  Stats st = {0, 0, 0};
  ref_Rng rng;
  printf("seed %llu\n", SEED);
  ref_rng_seed(&rng, SEED);
  test_closest(&st, &rng);
  test_ray(&st, &rng);
  test_box(&st, &rng);
  test_reference_hand(&st);
  test_reference_generated(&st, &rng);
  printf("%ld passed, %ld failed\n", st.passed, st.failed);
  return st.failed == 0 ? 0 : 1;
}
