/*
** sweep_reference.c: the reference sweep (conservative advancement on the
** exact point-triangle distance, then a convexity-safe Newton refinement),
** written apart from cs_sweep.c on purpose, and its case generator.
*/
#include <math.h>
#include <stddef.h>

#include "sweep_reference.h"

typedef long double ld;

/* {==================================================================
** Long double reference
** ===================================================================*/

static void lsub(ld r[3], const ld a[3], const ld b[3]) {
  r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; r[2] = a[2] - b[2];
}
static ld ldot(const ld a[3], const ld b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void lcross(ld r[3], const ld a[3], const ld b[3]) {
  ld x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  r[0] = x; r[1] = y; r[2] = z;
}

/* Nearest point of segment p0 p1 to p into out; returns the squared distance. */
static ld lseg_closest(const ld p[3], const ld p0[3], const ld p1[3], ld out[3]) {
  ld e[3], w[3], ee, s = 0, d[3];
  int i;
  lsub(e, p1, p0);
  lsub(w, p, p0);
  ee = ldot(e, e);
  if (ee > 0) {
    s = ldot(w, e) / ee;
    if (s < 0) s = 0;
    if (s > 1) s = 1;
  }
  for (i = 0; i < 3; i++) out[i] = p0[i] + e[i] * s;
  lsub(d, p, out);
  return ldot(d, d);
}

/* The nearest point of abc to p (long double): the plane projection when it
** falls inside (same-side tests on the three edges), else the nearest edge
** point. Returns the distance. The normal is the cross product at the vertex
** opposite the longest edge, then made perpendicular to that edge, so that a
** sliver's plane does not tilt along its length. */
long double ref_closest_on_triangle(const long double p[3], const long double a[3],
                                    const long double b[3], const long double c[3],
                                    long double out[3]) {
  ld n[3], e[3], f[3], w[3], x[3], best[3] = {0, 0, 0}, nn, k, d2, bd2, len[3];
  const ld *v[3];
  int i, j, inside = 1, L = 0;
  v[0] = a; v[1] = b; v[2] = c;
  for (i = 0; i < 3; i++) {                 /* len[i]: edge v[i] -> v[i+1] */
    lsub(e, v[(i + 1) % 3], v[i]);
    len[i] = ldot(e, e);
    if (len[i] > len[L]) L = i;
  }
  /* at the opposite vertex o = v[L+2]: (v[L] - o) x (v[L+1] - o) */
  lsub(e, v[L], v[(L + 2) % 3]);
  lsub(f, v[(L + 1) % 3], v[(L + 2) % 3]);
  lcross(n, e, f);
  lsub(e, v[(L + 1) % 3], v[L]);
  if (len[L] > 0) {
    k = ldot(n, e) / len[L];
    for (i = 0; i < 3; i++) n[i] -= e[i] * k;
  }
  nn = ldot(n, n);
  if (nn > 0) {
    lsub(w, p, v[L]);
    k = ldot(w, n) / nn;
    for (i = 0; i < 3 && inside; i++) {
      lsub(e, v[(i + 1) % 3], v[i]);
      lsub(w, p, v[i]);
      lcross(x, e, w);
      if (ldot(x, n) < 0) inside = 0;
    }
    if (inside) {
      for (i = 0; i < 3; i++) out[i] = p[i] - n[i] * k;
      return fabsl(k) * sqrtl(nn);
    }
  }
  bd2 = -1;
  for (i = 0; i < 3; i++) {
    d2 = lseg_closest(p, v[i], v[(i + 1) % 3], x);
    if (bd2 < 0 || d2 < bd2) {
      bd2 = d2;
      for (j = 0; j < 3; j++) best[j] = x[j];
    }
  }
  for (j = 0; j < 3; j++) out[j] = best[j];
  return sqrtl(bd2);
}

/* The centre at t, its distance to the triangle, and the nearest point. */
static ld dist_at(const ld base[3], const ld vel[3], ld t, const ld a[3], const ld b[3],
                  const ld c[3], ld centre[3], ld near[3]) {
  int i;
  for (i = 0; i < 3; i++) centre[i] = base[i] + vel[i] * t;
  return ref_closest_on_triangle(centre, a, b, c, near);
}

/* Returns 1 with the first contact time and point of the unit sphere sweep,
** 0 on a miss. The distance f(t) from the centre to the triangle changes at
** most |vel| per unit t, so t += (f - 1) / |vel| never passes the contact
** (conservative advancement). It stops at f - 1 < 1e-12; then Newton steps
** t += (f - 1) / -f'(t) sharpen it: f is convex along a line (distance to a
** convex set), so its tangent meets 1 no later than f does and those steps
** never pass the contact either. */
int ref_sweep_sphere_triangle(const double base_d[3], const double vel_d[3],
                              const double a_d[3], const double b_d[3], const double c_d[3],
                              int one_sided, double *t_out, double point_out[3]) {
  ld base[3], vel[3], a[3], b[3], c[3], ab[3], ac[3], n[3], centre[3], near[3], diff[3];
  ld t = 0, f, vl, slope, step;
  long iter;
  int i;
  for (i = 0; i < 3; i++) {
    base[i] = base_d[i]; vel[i] = vel_d[i];
    a[i] = a_d[i]; b[i] = b_d[i]; c[i] = c_d[i];
  }
  lsub(ab, b, a);
  lsub(ac, c, a);
  lcross(n, ab, ac);
  if (one_sided && ldot(vel, n) >= 0) return 0;
  vl = sqrtl(ldot(vel, vel));
  f = dist_at(base, vel, 0, a, b, c, centre, near);
  if (f >= 1) {
    if (vl == 0) return 0;
    for (iter = 0; f - 1 >= 1e-12L && iter < 50000000L; iter++) {
      t += (f - 1) / vl;
      if (t > 1) return 0;
      f = dist_at(base, vel, t, a, b, c, centre, near);
    }
    for (iter = 0; iter < 200 && f > 1; iter++) {
      lsub(diff, centre, near);
      slope = ldot(vel, diff) / f;          /* f'(t) */
      if (!(slope < 0)) break;              /* at the minimum: a graze within 1e-12 */
      step = (f - 1) / -slope;
      if (!(step > 0)) break;
      t += step;
      if (t > 1) return 0;
      f = dist_at(base, vel, t, a, b, c, centre, near);
    }
  }
  *t_out = (double)t;
  for (i = 0; i < 3; i++) point_out[i] = (double)near[i];
  return 1;
}

/* }================================================================== */

/* {==================================================================
** Case generator (double)
** ===================================================================*/

void ref_rng_seed(ref_Rng *r, unsigned long long seed) { r->s = seed; }

/* splitmix64, top 53 bits as a double in [0, 1) */
double ref_rng_uniform(ref_Rng *r) {
  unsigned long long z = (r->s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

double ref_rng_range(ref_Rng *r, double lo, double hi) {
  return lo + (hi - lo) * ref_rng_uniform(r);
}

static void dset(double r[3], double x, double y, double z) { r[0] = x; r[1] = y; r[2] = z; }
static void dcopy(double r[3], const double a[3]) { dset(r, a[0], a[1], a[2]); }
static void dsub(double r[3], const double a[3], const double b[3]) {
  dset(r, a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
static void dmadd(double r[3], const double a[3], const double b[3], double s) {
  dset(r, a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s);
}
static double ddot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void dcross(double r[3], const double a[3], const double b[3]) {
  dset(r, a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
static double dnormalize(double r[3]) {
  double l = sqrt(ddot(r, r));
  if (l > 0) dset(r, r[0] / l, r[1] / l, r[2] / l);
  return l;
}

/* A uniformly random unit vector. */
static void rand_unit(ref_Rng *rng, double r[3]) {
  double l2;
  do {
    dset(r, ref_rng_range(rng, -1, 1), ref_rng_range(rng, -1, 1), ref_rng_range(rng, -1, 1));
    l2 = ddot(r, r);
  } while (l2 < 1e-4 || l2 > 1);
  dnormalize(r);
}

/* The triangle as an array, and its unit normal. */
typedef struct Tri { double v[3][3]; double n[3]; } Tri;

static void tri_finish(Tri *t) {
  double e1[3], e2[3];
  dsub(e1, t->v[1], t->v[0]);
  dsub(e2, t->v[2], t->v[0]);
  dcross(t->n, e1, e2);
  dnormalize(t->n);
}

/* The smallest angle of the triangle, in radians. */
static double tri_min_angle(const Tri *t) {
  double mn = 10, e1[3], e2[3], cs;
  int i;
  for (i = 0; i < 3; i++) {
    dsub(e1, t->v[(i + 1) % 3], t->v[i]);
    dsub(e2, t->v[(i + 2) % 3], t->v[i]);
    cs = ddot(e1, e2) / sqrt(ddot(e1, e1) * ddot(e2, e2));
    cs = acos(cs < -1 ? -1 : cs > 1 ? 1 : cs);
    if (cs < mn) mn = cs;
  }
  return mn;
}

/* A random well-shaped triangle in [-3, 3]^3 (angles over 10 degrees). */
static void tri_random(ref_Rng *rng, Tri *t) {
  int i, k;
  do {
    for (i = 0; i < 3; i++)
      for (k = 0; k < 3; k++) t->v[i][k] = ref_rng_range(rng, -3, 3);
    tri_finish(t);
  } while (tri_min_angle(t) < 10 * 3.141592653589793 / 180);
}

/* A random rotation (orthonormal rows) applied to x, then a shift. */
static void place(ref_Rng *rng, Tri *t) {
  double r0[3], r1[3], r2[3], shift[3], p[3];
  int i;
  rand_unit(rng, r0);
  do {
    rand_unit(rng, r1);
    dmadd(r1, r1, r0, -ddot(r1, r0));
  } while (dnormalize(r1) < 0.1);
  dcross(r2, r0, r1);
  dset(shift, ref_rng_range(rng, -2, 2), ref_rng_range(rng, -2, 2), ref_rng_range(rng, -2, 2));
  for (i = 0; i < 3; i++) {
    dcopy(p, t->v[i]);
    dset(t->v[i], ddot(r0, p) + shift[0], ddot(r1, p) + shift[1], ddot(r2, p) + shift[2]);
  }
  tri_finish(t);
}

/* A sliver: a cap (a vertex 1e-7 off its opposite edge) or a needle (two
** vertices 1e-7 apart), randomly placed. */
static void tri_sliver(ref_Rng *rng, Tri *t) {
  double len = ref_rng_range(rng, 1, 5), lam = ref_rng_range(rng, 0.1, 0.9);
  if (ref_rng_uniform(rng) < 0.5) {
    dset(t->v[0], 0, 0, 0);
    dset(t->v[1], len, 0, 0);
    dset(t->v[2], len * lam, 1e-7, 0);
  } else {
    dset(t->v[0], 0, 0, 0);
    dset(t->v[1], len, 0, 0);
    dset(t->v[2], len, 1e-7, 0);
  }
  place(rng, t);
}

/* A long thin triangle, 100 by 0.01. */
static void tri_thin(ref_Rng *rng, Tri *t) {
  dset(t->v[0], -50, 0, 0);
  dset(t->v[1], 50, 0, 0);
  dset(t->v[2], ref_rng_range(rng, -50, 50), 0.01, 0);
  place(rng, t);
}

/* The in-plane outward unit normal of edge i (v[i] -> v[i+1]). */
static void edge_out(const Tri *t, int i, double out[3]) {
  double e[3], w[3];
  dsub(e, t->v[(i + 1) % 3], t->v[i]);
  dcross(out, e, t->n);
  dnormalize(out);
  dsub(w, t->v[(i + 2) % 3], t->v[i]);
  if (ddot(out, w) > 0) dset(out, -out[0], -out[1], -out[2]);
}

/* A point q of the triangle on a feature (0 face, 1 edge, 2 vertex) and a
** unit m in q's normal cone, with margins, so q is the nearest point to
** q + s m for every s > 0. Returns the edge (v[i] -> v[i+1]) or vertex index. */
static int pick_feature(ref_Rng *rng, const Tri *t, int feature, double q[3], double m[3]) {
  int i = (int)(ref_rng_uniform(rng) * 3), k;
  double o1[3], o2[3], s, phi, u, v, w;
  if (feature == 0) {
    u = ref_rng_range(rng, 0.05, 1);
    v = ref_rng_range(rng, 0.05, 1);
    w = ref_rng_range(rng, 0.05, 1);
    s = u + v + w;
    for (k = 0; k < 3; k++) q[k] = (u * t->v[0][k] + v * t->v[1][k] + w * t->v[2][k]) / s;
    s = ref_rng_uniform(rng) < 0.5 ? -1 : 1;
    dset(m, t->n[0] * s, t->n[1] * s, t->n[2] * s);
  } else if (feature == 1) {
    s = ref_rng_range(rng, 0.05, 0.95);
    for (k = 0; k < 3; k++) q[k] = t->v[i][k] + (t->v[(i + 1) % 3][k] - t->v[i][k]) * s;
    edge_out(t, i, o1);
    phi = ref_rng_range(rng, 0.05, 3.141592653589793 - 0.05);
    for (k = 0; k < 3; k++) m[k] = cos(phi) * t->n[k] + sin(phi) * o1[k];
  } else {
    dcopy(q, t->v[i]);
    edge_out(t, i, o1);               /* the two edges at v[i] */
    edge_out(t, (i + 2) % 3, o2);
    u = ref_rng_range(rng, 0.05, 1);
    v = ref_rng_range(rng, 0.05, 1);
    w = ref_rng_range(rng, -2, 2);
    for (k = 0; k < 3; k++) m[k] = u * o1[k] + v * o2[k] + w * t->n[k];
  }
  dnormalize(m);
  return i;
}

/* A unit direction u with dot(u, m) <= -cmin (toward the triangle). */
static void toward(ref_Rng *rng, const double m[3], double cmin, double u[3]) {
  do rand_unit(rng, u); while (ddot(u, m) > -cmin);
}

/* Fills the case with a sweep whose centre reaches q + s m at time th. */
static void aim(ref_Rng *rng, ref_Case *out, const double q[3], const double m[3], double s,
                const double u[3], double th) {
  double L = ref_rng_range(rng, 0.5, 6), centre[3];
  dmadd(centre, q, m, s);
  dmadd(out->base, centre, u, -L * th);
  dset(out->vel, u[0] * L, u[1] * L, u[2] * L);
}

/* one_sided at random unless the motion is nearly parallel to the plane
** (where the sign of dot(vel, n) is rounding); then the expectation. */
static void finish_case(ref_Rng *rng, ref_Case *out, const Tri *t, int may_one_side) {
  double vl = sqrt(ddot(out->vel, out->vel));
  dcopy(out->a, t->v[0]);
  dcopy(out->b, t->v[1]);
  dcopy(out->c, t->v[2]);
  out->one_sided = may_one_side && fabs(ddot(out->vel, t->n)) > 0.01 * vl
                   && ref_rng_uniform(rng) < 0.5;
  if (out->one_sided && ddot(out->vel, t->n) >= 0) out->expect_hit = 0;
}

void ref_case_make(ref_Rng *rng, int kind, ref_Case *out) {
  Tri t;
  double q[3], m[3], u[3], e[3];
  int feature = (int)(ref_rng_uniform(rng) * 3), k, edge;
  out->kind = kind;
  out->expect_hit = 1;
  out->expect_t = -1;                     /* unknown */
  if (kind == REF_SLIVER) tri_sliver(rng, &t);
  else if (kind == REF_THIN) tri_thin(rng, &t);
  else tri_random(rng, &t);
  if (kind == REF_FACE) feature = 0;
  if (kind == REF_EDGE || kind == REF_PARALLEL) feature = 1;
  if (kind == REF_VERTEX) feature = 2;
  edge = pick_feature(rng, &t, feature, q, m);
  dcopy(out->expect_point, q);
  switch (kind) {
    case REF_MISS_AWAY:
      do rand_unit(rng, u); while (ddot(u, m) < 0.1);
      aim(rng, out, q, m, 1 + ref_rng_range(rng, 0.01, 1), u, 0);
      out->expect_hit = 0;
      break;
    case REF_MISS_SHORT:
      toward(rng, m, 0.1, u);
      aim(rng, out, q, m, 1, u, ref_rng_range(rng, 1.1, 3));
      out->expect_hit = 0;
      break;
    case REF_GRAZE_MISS: case REF_GRAZE_HIT:
      do {
        rand_unit(rng, u);
        dmadd(u, u, m, -ddot(u, m));
      } while (dnormalize(u) < 0.1);
      aim(rng, out, q, m, kind == REF_GRAZE_MISS ? 1 + 1e-3 : 1 - 1e-3, u,
          ref_rng_range(rng, 0.1, 0.9));
      out->expect_hit = kind == REF_GRAZE_HIT;
      break;
    case REF_OVERLAP:
      rand_unit(rng, u);
      aim(rng, out, q, m, ref_rng_range(rng, 0.02, 0.95), u, 0);
      out->expect_t = 0;
      break;
    case REF_PARALLEL: {
      /* centre beside an edge at height h in (0, 1) over the plane, moving
      ** in the plane toward the edge */
      double h = ref_rng_range(rng, 0.05, 0.95) * (ref_rng_uniform(rng) < 0.5 ? -1 : 1), o[3];
      dsub(e, t.v[(edge + 1) % 3], t.v[edge]);
      edge_out(&t, edge, o);
      dnormalize(e);
      for (k = 0; k < 3; k++) m[k] = h * t.n[k] + sqrt(1 - h * h) * o[k];
      {
        double al = ref_rng_range(rng, 0.1, 1), be = ref_rng_range(rng, -1, 1);
        for (k = 0; k < 3; k++) u[k] = -al * o[k] + be * e[k];
        dnormalize(u);
      }
      out->expect_t = ref_rng_range(rng, 0.05, 0.95);
      aim(rng, out, q, m, 1, u, out->expect_t);
      finish_case(rng, out, &t, 0);
      return;
    }
    case REF_PARALLEL_MISS: {
      double h = ref_rng_range(rng, 1.01, 2) * (ref_rng_uniform(rng) < 0.5 ? -1 : 1);
      do {
        rand_unit(rng, u);
        dmadd(u, u, t.n, -ddot(u, t.n));
      } while (dnormalize(u) < 0.1);
      dcopy(m, t.n);
      aim(rng, out, q, m, h, u, ref_rng_range(rng, -0.5, 1.5));
      out->expect_hit = 0;
      finish_case(rng, out, &t, 0);
      return;
    }
    default:                          /* a contact on the feature */
      toward(rng, m, 0.1, u);
      out->expect_t = ref_rng_range(rng, 0.05, 0.95);
      aim(rng, out, q, m, 1, u, out->expect_t);
      break;
  }
  finish_case(rng, out, &t, 1);
}

const char *ref_case_kind_name(int kind) {
  static const char *const names[REF_KIND_COUNT] = {
    "face", "edge", "vertex", "miss-away", "miss-short", "graze-miss", "graze-hit",
    "sliver", "thin", "overlap", "parallel", "parallel-miss"
  };
  return kind >= 0 && kind < REF_KIND_COUNT ? names[kind] : "?";
}

/* }================================================================== */

/* Clips the polygon (n points; at most 9 after 6 planes) to
** sign * (x[axis] - bound) <= 0. Returns the new count. */
static int ref_clip(long double poly[][3], int n, int axis, long double bound, int sign) {
  long double out[12][3], da, db;
  int i, k, m = 0;
  for (i = 0; i < n; i++) {
    const long double *p = poly[i], *q = poly[(i + 1) % n];
    da = sign * (p[axis] - bound);
    db = sign * (q[axis] - bound);
    if (da <= 0) { for (k = 0; k < 3; k++) out[m][k] = p[k]; m++; }
    if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
      long double t = da / (da - db);
      for (k = 0; k < 3; k++) out[m][k] = p[k] + (q[k] - p[k]) * t;
      m++;
    }
  }
  for (i = 0; i < m; i++) for (k = 0; k < 3; k++) poly[i][k] = out[i][k];
  return m;
}

int ref_triangle_box_overlap(const long double lo[3], const long double hi[3],
                             const long double v[3][3], long double g) {
  long double poly[12][3];
  int n = 3, k;
  for (k = 0; k < 3; k++) { poly[0][k] = v[0][k]; poly[1][k] = v[1][k]; poly[2][k] = v[2][k]; }
  for (k = 0; k < 3 && n > 0; k++) {
    n = ref_clip(poly, n, k, hi[k] + g, 1);
    if (n > 0) n = ref_clip(poly, n, k, lo[k] - g, -1);
  }
  return n > 0;
}
