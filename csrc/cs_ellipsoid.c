/*
** cs_ellipsoid.c: another mover's ellipsoid in a mover's ellipsoid space
** (issue 14). Mapped by the mover's E^-1, an ellipsoid stays an ellipsoid
** (Fauerby 2003, 3.1: the map is linear), so the swept unit sphere meets it
** when the centre's distance to it falls to 1. The distance to an
** ellipsoid is Eberly's ("Distance from a Point to an Ellipse, an
** Ellipsoid, or a Hyperellipsoid", 2013): one root of a monotone function,
** found by bisection. Along the sweep the distance is a convex function of
** t (distance to a convex set along a line), so Newton's method from t = 0
** never passes its first root and stops on a miss when the slope turns.
*/
#include "cs_ellipsoid.h"

/* {==================================================================
** The principal frame
** ===================================================================*/

/* Diagonalises the symmetric S by cyclic Jacobi rotations: S = V diag(d)
** V^T. Converges quadratically; 3x3 needs a handful of sweeps. */
static void jacobi3(cs_Mat3 *S, cs_Mat3 *V, double d[3]) {
  int sweep, p, q, k;
  *V = m3_identity();
  for (sweep = 0; sweep < 50; sweep++) {
    double off = S->m[0][1] * S->m[0][1] + S->m[0][2] * S->m[0][2] + S->m[1][2] * S->m[1][2];
    double diag = S->m[0][0] * S->m[0][0] + S->m[1][1] * S->m[1][1] + S->m[2][2] * S->m[2][2];
    if (off <= 1e-34 * diag || off == 0) break;
    for (p = 0; p < 2; p++)
      for (q = p + 1; q < 3; q++) {
        double apq = S->m[p][q], theta, t, c, s;
        if (apq == 0) continue;
        theta = (S->m[q][q] - S->m[p][p]) / (2 * apq);
        t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
        c = 1 / sqrt(t * t + 1);
        s = t * c;
        for (k = 0; k < 3; k++) {           /* S = J^T S J, rows and columns p, q */
          double skp = S->m[k][p], skq = S->m[k][q];
          S->m[k][p] = c * skp - s * skq;
          S->m[k][q] = s * skp + c * skq;
        }
        for (k = 0; k < 3; k++) {
          double spk = S->m[p][k], sqk = S->m[q][k];
          S->m[p][k] = c * spk - s * sqk;
          S->m[q][k] = s * spk + c * sqk;
        }
        for (k = 0; k < 3; k++) {
          double vkp = V->m[k][p], vkq = V->m[k][q];
          V->m[k][p] = c * vkp - s * vkq;
          V->m[k][q] = s * vkp + c * vkq;
        }
      }
  }
  for (k = 0; k < 3; k++) d[k] = S->m[k][k];
}

void cs_ellipsoid_es_init(cs_EllipsoidES *e, const cs_Mat3 *Ainv, cs_Vec3 c0, cs_Vec3 p,
                          const cs_Mat3 *EB) {
  cs_Mat3 M = m3_mul(Ainv, EB), S;
  double d[3];
  int i, j, k;
  e->c = m3_apply(Ainv, v3_sub(p, c0));
  for (i = 0; i < 3; i++)                     /* S = M M^T */
    for (j = 0; j < 3; j++) {
      double x = 0;
      for (k = 0; k < 3; k++) x += M.m[i][k] * M.m[j][k];
      S.m[i][j] = x;
    }
  jacobi3(&S, &e->U, d);
  for (i = 0; i < 3; i++) e->s[i] = sqrt(d[i] > 0 ? d[i] : 0);
}

/* }================================================================== */

/* {==================================================================
** The distance
** ===================================================================*/

/* F(t) = sum (s_i y_i / (t + s_i^2))^2 - 1: the nearest point of the
** surface to y is x_i = s_i^2 y_i / (t + s_i^2) at the root of F (the
** Lagrange condition y - x = t grad(g)/2 for g = sum x_i^2 / s_i^2 - 1). F
** decreases for t > -min s_i^2; the root is > 0 outside, < 0 inside. */
static double eberly_f(const double s[3], const double y[3], double t) {
  double f = -1;
  int i;
  for (i = 0; i < 3; i++) {
    double r = s[i] * y[i] / (t + s[i] * s[i]);
    f += r * r;
  }
  return f;
}

/* Bisection on F over (lo, hi), to the last bit. */
static double eberly_root(const double s[3], const double y[3], double lo, double hi) {
  int it;
  for (it = 0; it < 2200; it++) {
    double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (eberly_f(s, y, mid) > 0) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/* The nearest surface point x (principal frame) to y. */
static void nearest_on_surface(const double s[3], const double y[3], double x[3]) {
  double g = 0, smin = s[0], t;
  int i, imin = 0;
  for (i = 0; i < 3; i++) {
    g += (y[i] / s[i]) * (y[i] / s[i]);
    if (s[i] < smin) { smin = s[i]; imin = i; }
  }
  if (g >= 1) {                             /* outside: a root in [0, smax |y|] */
    double ylen = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    double smax = fmax(s[0], fmax(s[1], s[2]));
    t = eberly_root(s, y, 0, smax * ylen + 1e-300);
  } else {                                  /* inside: in (-smin^2, 0] */
    double lo = -smin * smin;
    double probe = lo + fabs(lo) * 1e-15;
    if (eberly_f(s, y, probe) < 0) {
      /* y on (or near) the plane through the shortest axis: the nearest
      ** point is the end of that axis, bent by the others (Eberly, 4.3) */
      double rest = 1;
      for (i = 0; i < 3; i++) {
        if (i == imin) continue;
        x[i] = s[i] * s[i] * y[i] / (s[i] * s[i] - smin * smin);
        rest -= (x[i] / s[i]) * (x[i] / s[i]);
      }
      x[imin] = (y[imin] < 0 ? -smin : smin) * sqrt(rest > 0 ? rest : 0);
      return;
    }
    t = eberly_root(s, y, lo, 0);
  }
  for (i = 0; i < 3; i++) x[i] = s[i] * s[i] * y[i] / (t + s[i] * s[i]);
}

double cs_ellipsoid_distance(const cs_EllipsoidES *e, cs_Vec3 q, cs_Vec3 *xo, cs_Vec3 *no) {
  cs_Vec3 d = m3_apply_t(&e->U, v3_sub(q, e->c)), n;
  double y[3], x[3], g = 0, dist;
  int i;
  if (e->s[0] == e->s[1] && e->s[1] == e->s[2]) {   /* a sphere (two sphere movers) */
    cs_Vec3 r = v3_sub(q, e->c);
    double l = v3_len(r);
    n = l > 0 ? v3_scale(r, 1.0 / l) : v3(0, 1, 0);
    if (xo) *xo = v3_madd(e->c, n, e->s[0]);
    if (no) *no = n;
    return l - e->s[0];
  }
  y[0] = d.x; y[1] = d.y; y[2] = d.z;
  nearest_on_surface(e->s, y, x);
  for (i = 0; i < 3; i++) g += (y[i] / e->s[i]) * (y[i] / e->s[i]);
  /* the outward normal at x: the gradient of sum x_i^2 / s_i^2 */
  n = v3_normalize(v3(x[0] / (e->s[0] * e->s[0]), x[1] / (e->s[1] * e->s[1]),
                      x[2] / (e->s[2] * e->s[2])));
  dist = sqrt((y[0] - x[0]) * (y[0] - x[0]) + (y[1] - x[1]) * (y[1] - x[1]) +
              (y[2] - x[2]) * (y[2] - x[2]));
  if (xo) *xo = v3_add(e->c, m3_apply(&e->U, v3(x[0], x[1], x[2])));
  if (no) *no = m3_apply(&e->U, n);
  return g < 1 ? -dist : dist;
}

/* }================================================================== */

/* {==================================================================
** The sweep
** ===================================================================*/

/* Overlap below this distance (1 - 1e-12) is an overlap at the start, as
** in the triangle kernel; a touch closer than 1 but within it is contact. */
#define TOUCH_EPS 1e-12

int cs_sweep_ellipsoid(cs_Vec3 base, cs_Vec3 vel, const cs_EllipsoidES *e, double tmax,
                       int flags, cs_SweepHit *hit) {
  cs_Vec3 x, n;
  double t = 0, d = cs_ellipsoid_distance(e, base, &x, &n), slope;
  int it;
  if (d <= 1) {                             /* touching or overlapping at the start */
    slope = v3_dot(vel, n);
    if ((flags & CS_SWEEP_DEEPENING_ONLY) ? !(slope < 0) : (d > 1 - TOUCH_EPS && !(slope < 0)))
      return 0;
    hit->t = 0;
    hit->point = x;
    hit->normal = n;
    hit->feature = d < 1 - TOUCH_EPS ? CS_FEATURE_OVERLAP : CS_FEATURE_FACE;
    return 1;
  }
  /* Newton on f(t) = d(t) - 1 from the left: f is convex, so each step
  ** lands at or before the first root; f' = vel . n (the nearest point's
  ** normal) >= 0 means the distance grows from here on: a miss. */
  for (it = 0; it < 100; it++) {
    double step;
    slope = v3_dot(vel, n);
    if (!(slope < 0)) return 0;
    step = -(d - 1) / slope;
    if (t + step > tmax) return 0;          /* the root is past the tangent's */
    if (step <= 1e-17 * (1 + t)) break;
    t += step;
    d = cs_ellipsoid_distance(e, v3_madd(base, vel, t), &x, &n);
    if (d - 1 <= 1e-15) break;
  }
  if (t > tmax) return 0;
  hit->t = t;
  hit->point = x;
  hit->normal = n;
  hit->feature = CS_FEATURE_FACE;
  return 1;
}

/* }================================================================== */
