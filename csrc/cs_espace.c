/*
** cs_espace.c: the map into and out of a mover's ellipsoid space (see
** cs_espace.h; Fauerby 2003, sections 2.4 and 3.1): what is not inline.
*/
#include "cs_espace.h"

void cs_espace_init(cs_ESpace *es, cs_Vec3 c0, cs_Vec3 r, const cs_Mat3 *rot, int oriented) {
  es->c0 = c0;
  es->r = r;
  es->inv_r = v3(1.0 / r.x, 1.0 / r.y, 1.0 / r.z);
  es->oriented = oriented;
  es->R = *rot;
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
