/*
** test_ellipsoid.c: the ellipsoid obstacle of cs_ellipsoid.c (issue 14)
** against a slow reference written apart from it: the distance from the
** Lagrange condition on the quadric itself, x - c = (I + l Q)^-1 (q - c)
** with Q = (M M^T)^-1, l found by bisection in long double (no principal
** frame); the sweep from the convexity of the distance along the path: a
** ternary search for its minimum, then bisection for where it is 1. Hand
** cases first (spheres, whose answers are closed-form), then random
** ellipsoids of any radii and orientation on both sides. Prints "N passed,
** M failed" last.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cs_ellipsoid.h"

static int passed, failed;

static void check(int ok, const char *name, const char *detail) {
  if (ok) passed++;
  else { failed++; if (failed < 20) printf("FAIL %s: %s\n", name, detail); }
}

/* {==================================================================
** The reference
** ===================================================================*/

typedef long double ld;

/* The ellipsoid { c + M u : |u| <= 1 } as the quadric (x - c)^T Q (x - c) <= 1. */
typedef struct RefE { ld c[3], Q[3][3]; } RefE;

static void ref_init(RefE *r, cs_Vec3 c, const cs_Mat3 *M) {
  ld S[3][3], det;
  int i, j, k;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) {
      ld x = 0;
      for (k = 0; k < 3; k++) x += (ld)M->m[i][k] * M->m[j][k];
      S[i][j] = x;
    }
  det = S[0][0] * (S[1][1] * S[2][2] - S[1][2] * S[2][1]) - S[0][1] * (S[1][0] * S[2][2] - S[1][2] * S[2][0])
      + S[0][2] * (S[1][0] * S[2][1] - S[1][1] * S[2][0]);
  r->Q[0][0] = (S[1][1] * S[2][2] - S[1][2] * S[2][1]) / det;
  r->Q[0][1] = (S[0][2] * S[2][1] - S[0][1] * S[2][2]) / det;
  r->Q[0][2] = (S[0][1] * S[1][2] - S[0][2] * S[1][1]) / det;
  r->Q[1][0] = (S[1][2] * S[2][0] - S[1][0] * S[2][2]) / det;
  r->Q[1][1] = (S[0][0] * S[2][2] - S[0][2] * S[2][0]) / det;
  r->Q[1][2] = (S[0][2] * S[1][0] - S[0][0] * S[1][2]) / det;
  r->Q[2][0] = (S[1][0] * S[2][1] - S[1][1] * S[2][0]) / det;
  r->Q[2][1] = (S[0][1] * S[2][0] - S[0][0] * S[2][1]) / det;
  r->Q[2][2] = (S[0][0] * S[1][1] - S[0][1] * S[1][0]) / det;
  r->c[0] = c.x; r->c[1] = c.y; r->c[2] = c.z;
}

/* Solves (I + l Q) x = b by Cramer's rule. */
static void ref_solve(const RefE *r, ld l, const ld b[3], ld x[3]) {
  ld A[3][3], det;
  int i, j, k;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) A[i][j] = (i == j) + l * r->Q[i][j];
  det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0])
      + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  for (k = 0; k < 3; k++) {
    ld B[3][3];
    memcpy(B, A, sizeof B);
    for (i = 0; i < 3; i++) B[i][k] = b[i];
    x[k] = (B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1]) - B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0])
          + B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0])) / det;
  }
}

static ld quad(const RefE *r, const ld v[3]) {
  ld s = 0;
  int i, j;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) s += v[i] * r->Q[i][j] * v[j];
  return s;
}

/* The distance from q (outside) to the quadric: g(l) = quad((I + l Q)^-1 b)
** decreases from quad(b) > 1 at l = 0 to 0; bisection for g = 1. */
static ld ref_distance(const RefE *r, const ld q[3]) {
  ld b[3], x[3], lo = 0, hi = 1, d2 = 0;
  int i, it;
  for (i = 0; i < 3; i++) b[i] = q[i] - r->c[i];
  if (quad(r, b) <= 1) return -1;             /* inside: not needed here */
  for (;;) { ref_solve(r, hi, b, x); if (quad(r, x) < 1) break; hi *= 2; }
  for (it = 0; it < 140; it++) {
    ld mid = 0.5L * (lo + hi);
    ref_solve(r, mid, b, x);
    if (quad(r, x) > 1) lo = mid; else hi = mid;
  }
  ref_solve(r, 0.5L * (lo + hi), b, x);
  for (i = 0; i < 3; i++) d2 += (b[i] - x[i]) * (b[i] - x[i]);
  return sqrtl(d2);
}

static ld ref_distance_at(const RefE *r, cs_Vec3 base, cs_Vec3 vel, ld t) {
  ld q[3];
  q[0] = base.x + t * vel.x; q[1] = base.y + t * vel.y; q[2] = base.z + t * vel.z;
  return ref_distance(r, q);
}

/* The first t in [0, 1] where the distance is 1, or -1; *dmin: the least
** distance along the path (to skip grazing cases, where either is right). */
static ld ref_sweep(const RefE *r, cs_Vec3 base, cs_Vec3 vel, ld *dmin) {
  ld lo = 0, hi = 1, tm;
  int it;
  for (it = 0; it < 110; it++) {              /* the minimum of a convex function */
    ld a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
    if (ref_distance_at(r, base, vel, a) < ref_distance_at(r, base, vel, b)) hi = b; else lo = a;
  }
  tm = 0.5L * (lo + hi);
  *dmin = ref_distance_at(r, base, vel, tm);
  if (ref_distance_at(r, base, vel, 0) <= 1) { *dmin = 0; return 0; }
  if (*dmin > 1) return -1;
  lo = 0; hi = tm;
  for (it = 0; it < 200; it++) {
    ld mid = 0.5L * (lo + hi);
    if (ref_distance_at(r, base, vel, mid) > 1) lo = mid; else hi = mid;
  }
  return 0.5L * (lo + hi);
}

/* }================================================================== */

static unsigned long long rs = 0x9E3779B97F4A7C15ull;
static double rnd(void) {
  rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
  return (double)(rs >> 11) / 9007199254740992.0;
}

static cs_Mat3 rand_rotation(void) {
  double q[4], l;
  int i;
  for (i = 0; i < 4; i++) q[i] = rnd() * 2 - 1;
  l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (i = 0; i < 4; i++) q[i] /= l;
  return m3_from_quat(q);
}

/* E = R diag(r) */
static cs_Mat3 shape(const cs_Mat3 *R, cs_Vec3 r) {
  cs_Mat3 E = *R;
  int i;
  for (i = 0; i < 3; i++) { E.m[i][0] *= r.x; E.m[i][1] *= r.y; E.m[i][2] *= r.z; }
  return E;
}

/*   A unit sphere at the origin moving +x by 10 toward a sphere of radius 2
** at x = 5: contact when the centres are 3 apart, t = 0.2; a sphere 3.5
** off the line is missed; a 2 x 1 x 1 ellipsoid (x axis long) at x = 5 is
** met at x = 2 (t = 0.2), turned a quarter about z (y axis long) at x = 3. */
static void hand_cases(void) {
  cs_Mat3 I = m3_identity(), E, Rz;
  cs_EllipsoidES e;
  cs_SweepHit h;
  double qz[4] = {0, 0, 0.70710678118654752, 0.70710678118654752};
  E = shape(&I, v3(2, 2, 2));
  cs_ellipsoid_es_init(&e, &I, v3(0, 0, 0), v3(5, 0, 0), &E);
  check(cs_sweep_ellipsoid(v3(0, 0, 0), v3(10, 0, 0), &e, 1, 0, &h) && fabs(h.t - 0.2) < 1e-12 &&
        fabs(h.normal.x + 1) < 1e-12 && fabs(h.point.x - 3) < 1e-12, "spheres head-on", "t != 0.2");
  check(fabs(cs_ellipsoid_distance(&e, v3(0, 0, 0), NULL, NULL) - 3) < 1e-13, "sphere distance",
        "not 3");
  cs_ellipsoid_es_init(&e, &I, v3(0, 0, 0), v3(5, 3.01, 0), &E);
  check(!cs_sweep_ellipsoid(v3(0, 0, 0), v3(10, 0, 0), &e, 1, 0, &h), "sphere missed", "a hit");
  E = shape(&I, v3(2, 1, 1));
  cs_ellipsoid_es_init(&e, &I, v3(0, 0, 0), v3(5, 0, 0), &E);
  check(cs_sweep_ellipsoid(v3(0, 0, 0), v3(10, 0, 0), &e, 1, 0, &h) && fabs(h.t - 0.2) < 1e-12,
        "long ellipsoid", "t != 0.2");
  Rz = m3_from_quat(qz);
  E = shape(&Rz, v3(2, 1, 1));
  cs_ellipsoid_es_init(&e, &I, v3(0, 0, 0), v3(5, 0, 0), &E);
  check(cs_sweep_ellipsoid(v3(0, 0, 0), v3(10, 0, 0), &e, 1, 0, &h) && fabs(h.t - 0.3) < 1e-12,
        "turned ellipsoid", "t != 0.3");
  /* the mover itself an ellipsoid of radii (2, 1, 1) moving 10 along x (5 in
  ** its space): the other, a unit sphere at x = 6, is (0.5, 1, 1) at x = 3
  ** there; they touch when the mover's centre is at x = 3 (1.5): t = 0.3 */
  {
    cs_Mat3 Ainv = shape(&I, v3(0.5, 1, 1));
    E = shape(&I, v3(1, 1, 1));
    cs_ellipsoid_es_init(&e, &Ainv, v3(0, 0, 0), v3(6, 0, 0), &E);
    check(cs_sweep_ellipsoid(v3(0, 0, 0), v3(5, 0, 0), &e, 1, 0, &h) && fabs(h.t - 0.3) < 1e-12,
          "ellipsoid mover", "t != 0.3");
  }
  /* overlapping at the start: moving in is a hit at 0, moving out is free
  ** in the slide's mode */
  E = shape(&I, v3(1, 1, 1));
  cs_ellipsoid_es_init(&e, &I, v3(0, 0, 0), v3(1.5, 0, 0), &E);
  check(cs_sweep_ellipsoid(v3(0, 0, 0), v3(1, 0, 0), &e, 1, CS_SWEEP_DEEPENING_ONLY, &h) &&
        h.t == 0 && h.feature == CS_FEATURE_OVERLAP, "overlap, deepening", "no hit at 0");
  check(!cs_sweep_ellipsoid(v3(0, 0, 0), v3(-1, 0, 0), &e, 1, CS_SWEEP_DEEPENING_ONLY, &h),
        "overlap, leaving", "a hit");
}

/* Random pairs: both movers of radii 0.05 to 5 (up to 10:1) and any
** orientation; the other placed near the path. t must agree to 1e-9 of the
** path (in ellipsoid space) where the path's least distance is not within
** 1e-7 of touching; the distance itself to 1e-9 relative. */
static void random_cases(void) {
  int i, hits = 0, misses = 0, skipped = 0, bad_t = 0, bad_d = 0, bad_n = 0;
  for (i = 0; i < 1500; i++) {
    cs_Mat3 RA = rand_rotation(), RB = rand_rotation(), EA, EB, Ainv;
    cs_Vec3 rA = v3(0.05 + rnd() * 2, 0.05 + rnd() * 2, 0.05 + rnd() * 2);
    cs_Vec3 rB = v3(0.05 + rnd() * 5, 0.05 + rnd() * 5, 0.05 + rnd() * 5);
    cs_Vec3 c0 = v3(rnd() * 10 - 5, rnd() * 10 - 5, rnd() * 10 - 5), p, vel, base = v3(0, 0, 0);
    cs_EllipsoidES e;
    cs_SweepHit h;
    RefE ref;
    ld dmin, tref, qd[3];
    double d, scale;
    int hit;
    EA = shape(&RA, rA);
    EB = shape(&RB, rB);
    m3_inverse(&EA, &Ainv);
    p = v3_add(c0, v3(rnd() * 16 - 8, rnd() * 16 - 8, rnd() * 16 - 8));
    cs_ellipsoid_es_init(&e, &Ainv, c0, p, &EB);
    {                                         /* the reference from M = Ainv EB, not e's frame */
      cs_Mat3 M = m3_mul(&Ainv, &EB);
      ref_init(&ref, e.c, &M);
    }
    /* aim at the other's centre, off by a random amount */
    vel = v3_add(e.c, v3(rnd() * 4 - 2, rnd() * 4 - 2, rnd() * 4 - 2));
    vel = v3_scale(vel, 0.5 + rnd() * 2);
    scale = 1 + v3_len(e.c) + fmax(e.s[0], fmax(e.s[1], e.s[2]));
    /* the distance at the start, against the reference */
    qd[0] = base.x; qd[1] = base.y; qd[2] = base.z;
    d = cs_ellipsoid_distance(&e, base, NULL, NULL);
    if (d > 0) {
      ld dr = ref_distance(&ref, qd);
      if (fabsl(dr - d) > 1e-9L * scale) bad_d++;
    }
    if (d <= 1) { skipped++; continue; }      /* starts overlapping: the hand cases */
    tref = ref_sweep(&ref, base, vel, &dmin);
    hit = cs_sweep_ellipsoid(base, vel, &e, 1.0, 0, &h);
    if (fabsl(dmin - 1) < 1e-7L) { skipped++; continue; }
    if (tref < 0) {
      misses++;
      if (hit) bad_t++;
    } else {
      hits++;
      if (!hit || fabsl(h.t - tref) * v3_len(vel) > 1e-9L * scale) bad_t++;
      else {
        cs_Vec3 c = v3_madd(base, vel, h.t), nn;
        cs_ellipsoid_distance(&e, c, NULL, &nn);
        if (v3_dot(nn, h.normal) < 1 - 1e-9 || fabs(v3_len(v3_sub(c, h.point)) - 1) > 1e-9 * scale)
          bad_n++;
      }
    }
  }
  printf("random ellipsoid pairs: %d hits, %d misses, %d skipped (overlapping or grazing); "
         "%d t, %d distance, %d normal disagreements\n", hits, misses, skipped, bad_t, bad_d, bad_n);
  check(bad_t == 0 && bad_d == 0 && bad_n == 0 && hits > 400 && misses > 100, "random pairs",
        "the sweep disagrees with the reference");
}

int main(void) {
  hand_cases();
  random_cases();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
