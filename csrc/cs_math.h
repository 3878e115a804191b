/*
** cs_math.h: double-precision vectors, 3x3 matrices, quaternions and the
** numerically stable quadratic (Rouwe 2003, section 3.6). Header only.
*/
#ifndef CS_MATH_H
#define CS_MATH_H

#include <math.h>

#include "collideslide.h"

#define CS_INLINE static inline
/* A function the compiler must inline (a walk specialised for each of its
** callers' constant arguments); an ordinary inline one elsewhere. */
#if defined(__GNUC__)
#define CS_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define CS_ALWAYS_INLINE CS_INLINE
#endif
/* A rare path kept out of its hot caller, whose registers it would
** otherwise crowd (cs_sweep.c: the long moves' vertex and edge tests). */
#if defined(__GNUC__)
#define CS_COLD static __attribute__((noinline, cold))
#else
#define CS_COLD static
#endif

CS_INLINE cs_Vec3 v3(double x, double y, double z) { cs_Vec3 r; r.x = x; r.y = y; r.z = z; return r; }
CS_INLINE cs_Vec3 v3_add(cs_Vec3 a, cs_Vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
CS_INLINE cs_Vec3 v3_sub(cs_Vec3 a, cs_Vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
CS_INLINE cs_Vec3 v3_scale(cs_Vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
CS_INLINE cs_Vec3 v3_mul(cs_Vec3 a, cs_Vec3 b) { return v3(a.x * b.x, a.y * b.y, a.z * b.z); }
CS_INLINE cs_Vec3 v3_div(cs_Vec3 a, cs_Vec3 b) { return v3(a.x / b.x, a.y / b.y, a.z / b.z); }
CS_INLINE cs_Vec3 v3_madd(cs_Vec3 a, cs_Vec3 b, double s) { return v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s); }
CS_INLINE cs_Vec3 v3_neg(cs_Vec3 a) { return v3(-a.x, -a.y, -a.z); }
CS_INLINE double v3_dot(cs_Vec3 a, cs_Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CS_INLINE cs_Vec3 v3_cross(cs_Vec3 a, cs_Vec3 b) {
  return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
CS_INLINE double v3_len2(cs_Vec3 a) { return v3_dot(a, a); }
CS_INLINE double v3_len(cs_Vec3 a) { return sqrt(v3_dot(a, a)); }
CS_INLINE cs_Vec3 v3_min(cs_Vec3 a, cs_Vec3 b) {
  return v3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}
CS_INLINE cs_Vec3 v3_max(cs_Vec3 a, cs_Vec3 b) {
  return v3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}
CS_INLINE double v3_get(cs_Vec3 a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }
/* The largest |component| of a: the size of its coordinates. */
CS_INLINE double v3_maxabs(cs_Vec3 a) { return fmax(fmax(fabs(a.x), fabs(a.y)), fabs(a.z)); }
/* Do the boxes [alo, ahi] and [blo, bhi] meet (touching counts)? */
CS_INLINE int v3_boxes_meet(cs_Vec3 alo, cs_Vec3 ahi, cs_Vec3 blo, cs_Vec3 bhi) {
  return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y &&
         alo.z <= bhi.z && blo.z <= ahi.z;
}

/* Unit vector along a; the zero vector stays zero. */
CS_INLINE cs_Vec3 v3_normalize(cs_Vec3 a) {
  double l = v3_len(a);
  return l > 0 ? v3_scale(a, 1.0 / l) : a;
}

CS_INLINE int cs_isfinite3(cs_Vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* A 3x3 matrix, row-major: m[row][col]. */
typedef struct cs_Mat3 { double m[3][3]; } cs_Mat3;

CS_INLINE cs_Mat3 m3_identity(void) {
  cs_Mat3 r = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  return r;
}
CS_INLINE cs_Vec3 m3_apply(const cs_Mat3 *a, cs_Vec3 v) {
  return v3(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
            a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
            a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}
/* transpose(a) * v */
CS_INLINE cs_Vec3 m3_apply_t(const cs_Mat3 *a, cs_Vec3 v) {
  return v3(a->m[0][0] * v.x + a->m[1][0] * v.y + a->m[2][0] * v.z,
            a->m[0][1] * v.x + a->m[1][1] * v.y + a->m[2][1] * v.z,
            a->m[0][2] * v.x + a->m[1][2] * v.y + a->m[2][2] * v.z);
}
CS_INLINE cs_Mat3 m3_mul(const cs_Mat3 *a, const cs_Mat3 *b) {
  cs_Mat3 r;
  int i, j;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
  return r;
}
CS_INLINE double m3_det(const cs_Mat3 *a) {
  return a->m[0][0] * (a->m[1][1] * a->m[2][2] - a->m[1][2] * a->m[2][1])
       - a->m[0][1] * (a->m[1][0] * a->m[2][2] - a->m[1][2] * a->m[2][0])
       + a->m[0][2] * (a->m[1][0] * a->m[2][1] - a->m[1][1] * a->m[2][0]);
}
/* Inverse by the adjugate; returns 0 when a is singular. */
CS_INLINE int m3_inverse(const cs_Mat3 *a, cs_Mat3 *out) {
  double d = m3_det(a), id;
  const double (*m)[3] = a->m;
  if (!(fabs(d) > 0) || !isfinite(d)) return 0;
  id = 1.0 / d;
  out->m[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) * id;
  out->m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * id;
  out->m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * id;
  out->m[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) * id;
  out->m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * id;
  out->m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * id;
  out->m[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) * id;
  out->m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * id;
  out->m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * id;
  return 1;
}

/* Rotation matrix of the unit quaternion (x, y, z, w). */
CS_INLINE cs_Mat3 m3_from_quat(const double q[4]) {
  double x = q[0], y = q[1], z = q[2], w = q[3];
  cs_Mat3 r;
  r.m[0][0] = 1 - 2 * (y * y + z * z); r.m[0][1] = 2 * (x * y - z * w); r.m[0][2] = 2 * (x * z + y * w);
  r.m[1][0] = 2 * (x * y + z * w); r.m[1][1] = 1 - 2 * (x * x + z * z); r.m[1][2] = 2 * (y * z - x * w);
  r.m[2][0] = 2 * (x * z - y * w); r.m[2][1] = 2 * (y * z + x * w); r.m[2][2] = 1 - 2 * (x * x + y * y);
  return r;
}

/* The entry time of a t^2 + b t + c = 0 (a > 0): its smaller root, stored
** in *t when it lies in [0, tmax]; returns 0 otherwise (an already-negative
** smaller root means the shape overlapped at t = 0, which the sweep tests
** before it solves any quadratic). The stable form (Rouwe 2003, section 3.6; Numerical
** Recipes 5.6): q = -(b + sign(b) sqrt(disc)) / 2, roots q / a and c / q,
** which avoids cancelling b against sqrt(disc). */
CS_INLINE int cs_lowest_root(double a, double b, double c, double tmax, double *t) {
  double disc = b * b - 4 * a * c, q, r0, r1, tmp;
  if (disc < 0) return 0;
  q = b < 0 ? -0.5 * (b - sqrt(disc)) : -0.5 * (b + sqrt(disc));
  if (q == 0) {           /* b == 0 and c == 0 (a > 0): a double root at 0 */
    r0 = r1 = 0;
  } else {
    r0 = q / a;
    r1 = c / q;
  }
  if (r0 > r1) { tmp = r0; r0 = r1; r1 = tmp; }
  if (r0 >= 0 && r0 <= tmax) { *t = r0; return 1; }
  return 0;
}

#endif
