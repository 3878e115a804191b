/*
** cs_espace.h: a mover's ellipsoid space (Fauerby 2003, sections 2.4 and
** 3.1): the affine map that turns the ellipsoid centred at c0, with radii r
** and orientation R, into the unit sphere at the origin,
**   x_e = E^-1 (x - c0),  E = R diag(r),
** so the sweep kernel only ever meets unit spheres. Vectors map by E^-1,
** normals by the inverse transpose E^T (then renormalised). The gather
** (cs_world.c) maps triangles in, the slide (cs_slide.c) maps its results
** out; this file depends on nothing but cs_math.h.
*/
#ifndef CS_ESPACE_H
#define CS_ESPACE_H

#include "cs_math.h"

typedef struct cs_ESpace {
  cs_Vec3 c0;             /* the centre at the call's start */
  cs_Vec3 r, inv_r;       /* radii and their inverses */
  cs_Mat3 R;              /* the orientation, used only when oriented */
  int oriented;
} cs_ESpace;

void cs_espace_init(cs_ESpace *es, cs_Vec3 c0, cs_Vec3 r, const cs_Mat3 *rot, int oriented);
/* World-space half extents of the ellipsoid's bounding box. */
cs_Vec3 cs_espace_half_extents(const cs_ESpace *es);

/* The maps themselves are inline: the slide calls them a few dozen times a
** step. */

/* Displacements: v_e = E^-1 v = diag(1/r) R^T v, and back, v = R diag(r) v_e. */
CS_INLINE cs_Vec3 cs_espace_vec_to(const cs_ESpace *es, cs_Vec3 v) {
  if (es->oriented) v = m3_apply_t(&es->R, v);
  return v3_mul(v, es->inv_r);
}
CS_INLINE cs_Vec3 cs_espace_vec_from(const cs_ESpace *es, cs_Vec3 v) {
  v = v3_mul(v, es->r);
  return es->oriented ? m3_apply(&es->R, v) : v;
}
/* Points: x_e = E^-1 (x - c0), and back. */
CS_INLINE cs_Vec3 cs_espace_to(const cs_ESpace *es, cs_Vec3 p) {
  return cs_espace_vec_to(es, v3_sub(p, es->c0));
}
CS_INLINE cs_Vec3 cs_espace_from(const cs_ESpace *es, cs_Vec3 p) {
  return v3_add(es->c0, cs_espace_vec_from(es, p));
}
/* A normal from ellipsoid space to world space, unit: normals map by the
** inverse transpose, E^-T = R diag(1/r). */
CS_INLINE cs_Vec3 cs_espace_normal_from(const cs_ESpace *es, cs_Vec3 n) {
  n = v3_mul(n, es->inv_r);
  if (es->oriented) n = m3_apply(&es->R, n);
  return v3_normalize(n);
}
/* And a world normal into ellipsoid space, unit: E^T = diag(r) R^T. */
CS_INLINE cs_Vec3 cs_espace_normal_to(const cs_ESpace *es, cs_Vec3 n) {
  if (es->oriented) n = m3_apply_t(&es->R, n);
  return v3_normalize(v3_mul(n, es->r));
}

#endif
