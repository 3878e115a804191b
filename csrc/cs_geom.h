/*
** cs_geom.h: geometry primitives (cs_geom.c), all in double precision.
** Pure functions over points; they call nothing of the core.
*/
#ifndef CS_GEOM_H
#define CS_GEOM_H

#include "cs_math.h"

/* The point of triangle abc nearest to p (Ericson, Real-Time Collision
** Detection, 5.1.5, for the vertex regions; the face/edge choice uses a
** normal built from the two shortest edges, which stays right on slivers).
** *feature: 0 face, 1..3 edge ab, bc, ca, 4..6 vertex a, b, c (may be NULL). */
cs_Vec3 cs_closest_on_triangle(cs_Vec3 p, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, int *feature);
/* Segment o + s d, s in [0, tmax], against triangle abc, both sides. Returns 1
** and *s on a hit. */
int cs_ray_triangle(cs_Vec3 o, cs_Vec3 d, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c,
                    double tmax, double *s);
/* Exact triangle / box overlap by the separating axis theorem
** (Akenine-Moller 2001). */
int cs_triangle_box_overlap(cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c);
/* Does the segment o + s d, s in [0, tmax], meet the box [lo, hi]? (slabs,
** boundaries included) */
int cs_segment_meets_box(cs_Vec3 o, cs_Vec3 d, double tmax, cs_Vec3 lo, cs_Vec3 hi);

#endif
