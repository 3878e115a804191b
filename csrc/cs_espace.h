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
/* Points: x_e = E^-1 (x - c0), and back. */
cs_Vec3 cs_espace_to(const cs_ESpace *es, cs_Vec3 world_point);
cs_Vec3 cs_espace_from(const cs_ESpace *es, cs_Vec3 es_point);
/* Displacements: v_e = E^-1 v, and back. */
cs_Vec3 cs_espace_vec_to(const cs_ESpace *es, cs_Vec3 world_vec);
cs_Vec3 cs_espace_vec_from(const cs_ESpace *es, cs_Vec3 es_vec);
/* A normal from ellipsoid space to world space (inverse transpose), unit. */
cs_Vec3 cs_espace_normal_from(const cs_ESpace *es, cs_Vec3 es_normal);
/* World-space half extents of the ellipsoid's bounding box. */
cs_Vec3 cs_espace_half_extents(const cs_ESpace *es);

#endif
