/*
** invariants.h: the long-run invariants of collide-and-slide, measured
** independently of the core (no cs_geom.c, no tree): an ellipsoid overlaps
** no triangle (its ellipsoid-space distance to each is >= 1 - 1e-9), with
** the exact distance in long double (sweep_reference.c) and a uniform grid
** of the world's triangles for speed. Shared by the stress runner
** (stress.c), the fuzzers (fuzz/) and test_regressions.c.
*/
#ifndef INVARIANTS_H
#define INVARIANTS_H

#include <stddef.h>

/* The overlap tolerance: a mover may sit this far inside a triangle, in
** ellipsoid-space units (the sphere has radius 1). */
#define INV_OVERLAP_TOL 1e-9

/* An ellipsoid: centre c, radii r, orientation R (rows; identity when not
** oriented): its ellipsoid space is x_e = diag(1/r) R^T (x - c). */
typedef struct inv_Ellipsoid {
  double c[3], r[3];
  double R[3][3];
  int oriented;
} inv_Ellipsoid;

/* q: a quaternion (x, y, z, w), normalised here; NULL or (0, 0, 0, w) is none. */
void inv_ellipsoid_init(inv_Ellipsoid *e, const double c[3], const double r[3], const double q[4]);
/* World-space half extents of its bounding box. */
void inv_ellipsoid_extents(const inv_Ellipsoid *e, double h[3]);
/* The point x in its ellipsoid space. */
void inv_to_es(const inv_Ellipsoid *e, const double x[3], double out[3]);
/* Ellipsoid-space distance from the centre to triangle abc (world space),
** in long double from the double inputs. */
double inv_es_distance(const inv_Ellipsoid *e, const double a[3], const double b[3],
                       const double c[3]);

/* The mesh builder's test for a degenerate triangle (cs_mesh.c), which the
** core never collides with, so the checks skip them too. */
int inv_triangle_degenerate(const double a[3], const double b[3], const double c[3]);

/* {==================================================================
** Triangle soup with a uniform grid
** ===================================================================*/

typedef struct inv_Soup {
  double *v;              /* 9 doubles per triangle: a, b, c in world space */
  unsigned char *skip;    /* degenerate: not checked */
  size_t n, cap;
  /* the grid (inv_soup_build) */
  double lo[3], cell;
  int dim[3];
  unsigned *start, *items; /* CSR: cell k holds items[start[k] .. start[k + 1]) */
  unsigned *stamp;
  unsigned cur;
} inv_Soup;

void inv_soup_init(inv_Soup *s);
void inv_soup_free(inv_Soup *s);
/* Appends a world-space triangle; returns 0 when out of memory. */
int inv_soup_add(inv_Soup *s, const double a[3], const double b[3], const double c[3], int skip);
/* Builds the grid (after the last add); cell: a cell's edge, 0 = automatic. */
int inv_soup_build(inv_Soup *s, double cell);

/* The least ellipsoid-space distance from e to any triangle it might
** overlap (checked: those whose boxes meet the ellipsoid's, grown by 1%);
** returns a large number when none is near; *tri gets the triangle (or -1). */
double inv_soup_min_distance(inv_Soup *s, const inv_Ellipsoid *e, long *tri);
/* The same by brute force over every triangle (for small soups). */
double inv_soup_min_distance_brute(const inv_Soup *s, const inv_Ellipsoid *e, long *tri);

/* }================================================================== */

#endif
