/*
** cs_ellipsoid.h: another ellipsoid as an obstacle, in a mover's ellipsoid
** space (cs_ellipsoid.c): the exact distance from a point to it and the
** first contact of the swept unit sphere with it (issue 14, movers that
** meet). Pure: no allocation, no globals.
*/
#ifndef CS_ELLIPSOID_H
#define CS_ELLIPSOID_H

#include "cs_sweep.h"

/* An ellipsoid { c + M u : |u| <= 1 } in the mover's ellipsoid space, kept
** in its principal frame: M M^T = U diag(s^2) U^T. */
typedef struct cs_EllipsoidES {
  cs_Vec3 c;              /* centre */
  cs_Mat3 U;              /* columns: the principal axes, orthonormal */
  double s[3];            /* semi-axes along them, > 0 */
} cs_EllipsoidES;

/* The ellipsoid E_B u + p (world space: centre p, linear part E_B = R diag(r)
** of the other mover) seen from a mover's ellipsoid space, where x_e =
** E_A^-1 (x - c0): its centre E_A^-1 (p - c0) and linear part E_A^-1 E_B,
** diagonalised (Jacobi). Ainv is E_A^-1. */
void cs_ellipsoid_es_init(cs_EllipsoidES *e, const cs_Mat3 *Ainv, cs_Vec3 c0, cs_Vec3 p,
                          const cs_Mat3 *EB);

/* The distance from q to the ellipsoid's surface (negative inside, then
** the depth along the normal at the nearest surface point), that point
** (*x) and the unit normal there, facing q (*n). */
double cs_ellipsoid_distance(const cs_EllipsoidES *e, cs_Vec3 q, cs_Vec3 *x, cs_Vec3 *n);

/* The unit sphere centred at base, moving by vel, against the ellipsoid:
** the first t in [0, tmax] where they touch (hit->point on the ellipsoid,
** hit->normal from it toward the sphere's centre). An overlap at t = 0 is
** a hit at t = 0 (feature OVERLAP), with CS_SWEEP_DEEPENING_ONLY only when
** vel goes deeper. Returns 1 on a hit. */
int cs_sweep_ellipsoid(cs_Vec3 base, cs_Vec3 vel, const cs_EllipsoidES *e, double tmax,
                       int flags, cs_SweepHit *hit);

#endif
