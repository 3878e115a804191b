/*
** cs_sweep.h: the sweep kernel (cs_sweep.c): a unit sphere against one
** triangle in ellipsoid space (Fauerby 2003, section 3). Pure: no
** allocation, no globals, no calls above cs_geom.
*/
#ifndef CS_SWEEP_H
#define CS_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "cs_math.h"

/* A triangle mapped into the mover's ellipsoid space for one call, with
** what the response needs of its body and tag already resolved by the
** gather (cs_world.c), so that the slide never asks the world. */
typedef struct cs_TriES {
  cs_Vec3 a, b, c;        /* vertices, ellipsoid space relative to the call's start */
  cs_Vec3 n;              /* unit front normal, ellipsoid space */
  double d;               /* plane: dot(n, x) + d = 0 */
  cs_Vec3 lo, hi;         /* bounds of a, b, c (cs_sweep_triangles' first test,
                          ** which reads lo and hi as 6 doubles in a row) */
  /* the kernel's distance bound (cs_sweep.c), filled when first needed by
  ** cs_sweep_triangles (edge_ready), which cs_tri_bounds clears: */
  cs_Vec3 edge_n[3];      /* unit outward normals in the plane of ab, bc, ca */
  double edge_d[3];       /* max over the vertices v of dot(edge_n[k], v) */
  double off;             /* the vertices' largest |dot(n, v) + d| (rounding) */
  double size;            /* |a| (1-norm) + the sum of hi - lo: its coordinates' size */
  double friction;        /* the world's coefficient for tag, in [0, 1] */
  uint32_t tri;           /* index in its mesh */
  uint32_t body;          /* index into the gathered set's bodies */
  int32_t tag;
  uint8_t one_sided;      /* backfaces ignored: only hit from the front */
  uint8_t response;       /* cs_Response the sweeps see now (CROSS: skipped) */
  uint8_t filter_response;  /* the filter's answer (SLIDE without one): what
                            ** response returns to after the carry pass has
                            ** hidden the carrier's triangles as CROSS */
  uint8_t edge_ready;     /* edge_n, edge_d, off and size are set */
  uint8_t solid;          /* of a closed two-sided mesh (cs_Mesh.closed): the
                          ** wall of a solid (depenetration, cs_slide.c) */
} cs_TriES;

enum { CS_FEATURE_FACE = 0, CS_FEATURE_EDGE = 1, CS_FEATURE_VERTEX = 2,
       CS_FEATURE_OVERLAP = 3 };

typedef struct cs_SweepHit {
  double t;               /* fraction of vel at first contact */
  cs_Vec3 point;          /* contact point on the triangle (ellipsoid space) */
  cs_Vec3 normal;         /* unit, from the point toward the centre at t */
  int feature;            /* CS_FEATURE_* */
} cs_SweepHit;

/* Flags of cs_sweep_triangle */
enum {
  /* At an overlap at t = 0, report it only when vel deepens it (the slide
  ** loop's mode: a mover may always leave what it already touches). */
  CS_SWEEP_DEEPENING_ONLY = 1,
  /* The caller knows the sphere overlaps nothing at base (the slide, after
  ** a clean start): the overlap test is skipped. */
  CS_SWEEP_CLEAR_START = 2,
  /* cs_sweep_triangles: the triangles are swept once (a query): no bound
  ** before the kernel, whose data would not pay (results are the same) */
  CS_SWEEP_ONCE = 4,
  /* One-sided triangles count from both sides, as the overlap tests of
  ** depenetration (cs_slide.c) see them: a push out of a floor the mover
  ** sank into moves along the floor's front normal, which the papers'
  ** one-sided test would skip, so the floor never bounded the push. */
  CS_SWEEP_BOTH_SIDES = 8
};

/* Sets tri->lo/hi from its vertices and marks its distance-bound data
** unset (cs_sweep_triangles fills it when first needed); every cs_TriES
** handed to the sweep must have been through it after its vertices, normal
** and plane were set. */
void cs_tri_bounds(cs_TriES *tri);

/* The unit sphere centred at base, moving by vel, against tri (Fauerby 2003,
** section 3). Returns 1 and fills *hit when it touches tri at some
** t in [0, tmax]; an overlap at the start is t = 0 (feature OVERLAP). */
int cs_sweep_triangle(cs_Vec3 base, cs_Vec3 vel, const cs_TriES *tri, double tmax,
                      int flags, cs_SweepHit *hit);
/* Does the unit sphere at base rest on tri's plane (within PLANE_TOUCH,
** cs_sweep.c: rounding), or lie a radius or more off it, and move by vel
** along the plane, away from it, or into it by no more than PLANE_TOUCH?
** Then it never gets into tri deeper than that rounding; the slide's
** sweeps (CS_SWEEP_DEEPENING_ONLY) meet nothing of such a triangle, and
** depenetration's pushes pass it. */
int cs_sweep_rests_on(const cs_TriES *tri, cs_Vec3 base, cs_Vec3 vel);
/* Loops cs_sweep_triangle over n triangles (those with response CROSS are
** skipped, and those that a cheap bound shows out of reach); returns the
** index of the earliest hit, or -1. Fills the triangles' distance-bound
** data where it is not yet set (the only change it makes to them). */
long cs_sweep_triangles(cs_Vec3 base, cs_Vec3 vel, cs_TriES *tris, size_t n,
                        double tmax, int flags, cs_SweepHit *hit);

#endif
