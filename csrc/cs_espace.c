/*
** cs_espace.c: the map into and out of a mover's ellipsoid space (see
** cs_espace.h; Fauerby 2003, sections 2.4 and 3.1).
*/
#include "cs_espace.h"

void cs_espace_init(cs_ESpace *es, cs_Vec3 c0, cs_Vec3 r, const cs_Mat3 *rot, int oriented) {
  es->c0 = c0;
  es->r = r;
  es->inv_r = v3(1.0 / r.x, 1.0 / r.y, 1.0 / r.z);
  es->oriented = oriented;
  es->R = *rot;
}

/* x_e = diag(1/r) R^T v */
cs_Vec3 cs_espace_vec_to(const cs_ESpace *es, cs_Vec3 v) {
  if (es->oriented) v = m3_apply_t(&es->R, v);
  return v3_mul(v, es->inv_r);
}

/* v = R diag(r) x_e */
cs_Vec3 cs_espace_vec_from(const cs_ESpace *es, cs_Vec3 v) {
  v = v3_mul(v, es->r);
  return es->oriented ? m3_apply(&es->R, v) : v;
}

cs_Vec3 cs_espace_to(const cs_ESpace *es, cs_Vec3 p) {
  return cs_espace_vec_to(es, v3_sub(p, es->c0));
}

cs_Vec3 cs_espace_from(const cs_ESpace *es, cs_Vec3 p) {
  return v3_add(es->c0, cs_espace_vec_from(es, p));
}

/* Normals map by the inverse transpose: E^-T = R diag(1/r). */
cs_Vec3 cs_espace_normal_from(const cs_ESpace *es, cs_Vec3 n) {
  n = v3_mul(n, es->inv_r);
  if (es->oriented) n = m3_apply(&es->R, n);
  return v3_normalize(n);
}

/* World-space half extents of the ellipsoid: sqrt(sum_j (R_ij r_j)^2). */
cs_Vec3 cs_espace_half_extents(const cs_ESpace *es) {
  int i;
  double e[3];
  if (!es->oriented) return es->r;
  for (i = 0; i < 3; i++) {
    double a = es->R.m[i][0] * es->r.x, b = es->R.m[i][1] * es->r.y, c = es->R.m[i][2] * es->r.z;
    e[i] = sqrt(a * a + b * b + c * c);
  }
  return v3(e[0], e[1], e[2]);
}
