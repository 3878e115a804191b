/*
** cs_geom.c: the pure geometry primitives in double precision: closest point
** on a triangle (Ericson 2005, 5.1.5), segment vs triangle (Woop, Benthin and
** Wald 2013, watertight) and triangle vs box (Akenine-Moller 2001, SAT).
*/
#include "cs_geom.h"

/* {==================================================================
** Closest point on a triangle
** ===================================================================*/

/* The point of segment p0 p1 nearest to p (world or any space, the same as
** the inputs). *t gets its parameter in [0, 1]; a zero-length segment gives
** p0 and t = 0. */
static cs_Vec3 closest_on_segment(cs_Vec3 p, cs_Vec3 p0, cs_Vec3 p1, double *t) {
  cs_Vec3 e = v3_sub(p1, p0);
  double ee = v3_dot(e, e), s = 0;
  if (ee > 0) {
    s = v3_dot(v3_sub(p, p0), e) / ee;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
  }
  *t = s;
  return s == 0 ? p0 : s == 1 ? p1 : v3_madd(p0, e, s);
}

/* The nearest point of the three edges to p, with its feature code: the
** closest point of abc whenever p does not project inside the face. */
static cs_Vec3 closest_on_edges(cs_Vec3 p, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, int *feature) {
  cs_Vec3 v[3], q, best = a;
  double best_d2 = HUGE_VAL, t;
  int i, f = 4;
  v[0] = a; v[1] = b; v[2] = c;
  for (i = 0; i < 3; i++) {
    double d2;
    q = closest_on_segment(p, v[i], v[(i + 1) % 3], &t);
    d2 = v3_len2(v3_sub(p, q));
    if (d2 < best_d2) {
      best_d2 = d2;
      best = q;
      /* edge i is i+1; its endpoints are vertices i (4+i) and i+1 */
      f = t == 0 ? 4 + i : t == 1 ? 4 + (i + 1) % 3 : 1 + i;
    }
  }
  *feature = f;
  return best;
}

/* The unit-free normal of abc for the face test, into *n, and in *anchor an
** endpoint of the longest edge (a point the plane is sure to pass through).
** (b - a) x (c - a) as the cross product of the two shortest edges (its
** rounding scales with their lengths), then made exactly perpendicular to
** the longest edge: on a sliver the cross product's rounding would tilt the
** plane along that edge, by eps L / h for length L and height h, and move
** far points of the face by eps L^2 / h; what is left tilts it about the
** edge, which moves the face by eps L only. */
static void robust_normal(cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, cs_Vec3 *n, cs_Vec3 *anchor) {
  cs_Vec3 ab = v3_sub(b, a), bc = v3_sub(c, b), ca = v3_sub(a, c), e;
  double lab = v3_len2(ab), lbc = v3_len2(bc), lca = v3_len2(ca), le;
  if (lab >= lbc && lab >= lca) {         /* ab longest: the edges at c */
    *n = v3_cross(v3_neg(ca), bc);
    e = ab; le = lab; *anchor = a;
  } else if (lbc >= lca) {                /* bc longest: the edges at a */
    *n = v3_cross(ab, v3_neg(ca));
    e = bc; le = lbc; *anchor = b;
  } else {                                /* ca longest: the edges at b */
    *n = v3_cross(bc, v3_neg(ab));
    e = ca; le = lca; *anchor = c;
  }
  if (le > 0) *n = v3_madd(*n, e, -v3_dot(*n, e) / le);
}

/* The point of triangle abc nearest to p (Ericson, Real-Time Collision
** Detection, 5.1.5), in the inputs' space; *feature as in cs_internal.h.
** Ericson's vertex regions (signs of dot products); then face or edge by the
** side of each edge the projection of p falls on. Departure: Ericson gets
** those sides (va, vb, vc) and the face point's barycentrics as differences
** of products of dot products, which cancel to noise on slivers (weights off
** by eps L D / h^2, the point anywhere along the sliver); here they are
** triple products with a normal from robust_normal, and the face point is
** the projection onto the plane. Outside the face, the nearest of the three
** edges (their regions' points in exact arithmetic, and never wrong by more
** than rounding where the region tests are uncertain). A degenerate
** triangle (no normal) is the union of its edges. */
cs_Vec3 cs_closest_on_triangle(cs_Vec3 p, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, int *feature) {
  cs_Vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a), bp, cp, n, anchor;
  double d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap), d3, d4, d5, d6, nn;
  int f = 0;
  if (!feature) feature = &f;
  if (d1 <= 0 && d2 <= 0) { *feature = 4; return a; }
  bp = v3_sub(p, b);
  d3 = v3_dot(ab, bp);
  d4 = v3_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) { *feature = 5; return b; }
  cp = v3_sub(p, c);
  d5 = v3_dot(ab, cp);
  d6 = v3_dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) { *feature = 6; return c; }
  robust_normal(a, b, c, &n, &anchor);
  nn = v3_dot(n, n);
  if (nn > 0 && v3_dot(n, v3_cross(ab, ap)) >= 0 && v3_dot(n, v3_cross(v3_sub(c, b), bp)) >= 0
      && v3_dot(n, v3_cross(v3_sub(a, c), cp)) >= 0) {
    *feature = 0;
    return v3_madd(p, n, -v3_dot(n, v3_sub(p, anchor)) / nn);
  }
  return closest_on_edges(p, a, b, c, feature);
}

/* }================================================================== */

/* {==================================================================
** Segment vs triangle
** ===================================================================*/

/* Segment o + s d, s in [0, tmax], against triangle abc from either side.
** Returns 1 and *s (the parameter, in units of d) on a hit, 0 on a miss.
** Woop, Benthin and Wald 2013, "Watertight Ray/Triangle Intersection": the
** vertices are sheared into a frame where the ray is the z axis, and the
** three 2D edge functions U, V, W are evaluated there. A shared edge gives
** the same products in both of its triangles (negated exactly), so a ray
** through it hits at least one of them; a zero edge function counts as
** inside (edge-inclusive). det = U + V + W == 0 (a segment in the plane, or a
** degenerate triangle) is a miss. d == 0 is a miss. */
int cs_ray_triangle(cs_Vec3 o, cs_Vec3 d, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c,
                    double tmax, double *s) {
  double dv[3], av[3], bv[3], cv[3], sx, sy, sz, ax, ay, bx, by, cx, cy, u, v, w, det, t;
  int kx, ky, kz, tmp;
  cs_Vec3 pa = v3_sub(a, o), pb = v3_sub(b, o), pc = v3_sub(c, o);
  dv[0] = d.x; dv[1] = d.y; dv[2] = d.z;
  av[0] = pa.x; av[1] = pa.y; av[2] = pa.z;
  bv[0] = pb.x; bv[1] = pb.y; bv[2] = pb.z;
  cv[0] = pc.x; cv[1] = pc.y; cv[2] = pc.z;
  kz = fabs(dv[0]) >= fabs(dv[1]) ? (fabs(dv[0]) >= fabs(dv[2]) ? 0 : 2)
                                  : (fabs(dv[1]) >= fabs(dv[2]) ? 1 : 2);
  if (dv[kz] == 0) return 0;
  kx = (kz + 1) % 3;
  ky = (kx + 1) % 3;
  if (dv[kz] < 0) { tmp = kx; kx = ky; ky = tmp; }   /* keeps the winding */
  sz = 1.0 / dv[kz];
  sx = dv[kx] * sz;
  sy = dv[ky] * sz;
  ax = av[kx] - sx * av[kz]; ay = av[ky] - sy * av[kz];
  bx = bv[kx] - sx * bv[kz]; by = bv[ky] - sy * bv[kz];
  cx = cv[kx] - sx * cv[kz]; cy = cv[ky] - sy * cv[kz];
  u = cx * by - cy * bx;
  v = ax * cy - ay * cx;
  w = bx * ay - by * ax;
  if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) return 0;
  det = u + v + w;
  if (det == 0 || !isfinite(det)) return 0;
  /* t = (U az + V bz + W cz) / det, the z values scaled by 1 / d[kz] */
  t = (u * (sz * av[kz]) + v * (sz * bv[kz]) + w * (sz * cv[kz])) / det;
  if (!(t >= 0 && t <= tmax)) return 0;
  *s = t;
  return 1;
}

/* }================================================================== */

/* {==================================================================
** Triangle vs box
** ===================================================================*/

/* 1 when axis separates the triangle (vertices v[], relative to the box
** centre) from the box of half-extents h. Touching is not separated. All
** three vertices are projected (Akenine-Moller's code projects two where the
** third coincides in exact arithmetic; here rounding must not decide). */
static int separated_on(cs_Vec3 axis, const cs_Vec3 v[3], cs_Vec3 h) {
  double p0 = v3_dot(axis, v[0]), p1 = v3_dot(axis, v[1]), p2 = v3_dot(axis, v[2]);
  double mn = p0 < p1 ? p0 : p1, mx = p0 > p1 ? p0 : p1;
  double r = h.x * fabs(axis.x) + h.y * fabs(axis.y) + h.z * fabs(axis.z);
  if (p2 < mn) mn = p2;
  if (p2 > mx) mx = p2;
  return mn > r || mx < -r;
}

/* 1 when triangle abc meets the box [lo, hi] (boundaries included), 0 when
** they are apart; any space, the same for both. Separating axis theorem over
** the 13 axes of Akenine-Moller 2001: the 3 box axes, the triangle's normal
** and the 9 products edge x box axis. A zero axis (from a degenerate
** triangle) never separates, and the remaining axes still decide a segment
** or a point exactly. */
int cs_triangle_box_overlap(cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c) {
  cs_Vec3 ctr = v3_scale(v3_add(lo, hi), 0.5), h = v3_scale(v3_sub(hi, lo), 0.5);
  cs_Vec3 v[3], e[3], axes[3];
  int i, j;
  v[0] = v3_sub(a, ctr); v[1] = v3_sub(b, ctr); v[2] = v3_sub(c, ctr);
  axes[0] = v3(1, 0, 0); axes[1] = v3(0, 1, 0); axes[2] = v3(0, 0, 1);
  for (i = 0; i < 3; i++)
    if (separated_on(axes[i], v, h)) return 0;
  e[0] = v3_sub(v[1], v[0]); e[1] = v3_sub(v[2], v[1]); e[2] = v3_sub(v[0], v[2]);
  if (separated_on(v3_cross(e[0], e[1]), v, h)) return 0;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      if (separated_on(v3_cross(e[i], axes[j]), v, h)) return 0;
  return 1;
}

/* }================================================================== */

/* 1 when the segment o + s d, s in [0, tmax], meets the box [lo, hi] (slabs,
** boundaries included). */
int cs_segment_meets_box(cs_Vec3 o, cs_Vec3 d, double tmax, cs_Vec3 lo, cs_Vec3 hi) {
  double t0 = 0, t1 = tmax;
  int i;
  for (i = 0; i < 3; i++) {
    double oi = v3_get(o, i), di = v3_get(d, i), l = v3_get(lo, i), h = v3_get(hi, i);
    if (di == 0) {
      if (oi < l || oi > h) return 0;
    } else {
      double ta = (l - oi) / di, tb = (h - oi) / di;
      if (ta > tb) { double tmp = ta; ta = tb; tb = tmp; }
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
      if (t0 > t1) return 0;
    }
  }
  return 1;
}
