/*
** invariants.c: the ellipsoid-vs-triangle overlap measure and the triangle
** grid of invariants.h. Written apart from the core on purpose: its own
** ellipsoid map, the reference's long double closest point, its own grid.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "sweep_reference.h"

typedef long double ld;

/* {==================================================================
** Ellipsoids
** ===================================================================*/

void inv_ellipsoid_init(inv_Ellipsoid *e, const double c[3], const double r[3], const double q[4]) {
  int i, j;
  for (i = 0; i < 3; i++) {
    e->c[i] = c[i];
    e->r[i] = r[i];
    for (j = 0; j < 3; j++) e->R[i][j] = i == j;
  }
  e->oriented = 0;
  if (q && !(q[0] == 0 && q[1] == 0 && q[2] == 0)) {
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double x = q[0] / l, y = q[1] / l, z = q[2] / l, w = q[3] / l;
    e->R[0][0] = 1 - 2 * (y * y + z * z); e->R[0][1] = 2 * (x * y - z * w); e->R[0][2] = 2 * (x * z + y * w);
    e->R[1][0] = 2 * (x * y + z * w); e->R[1][1] = 1 - 2 * (x * x + z * z); e->R[1][2] = 2 * (y * z - x * w);
    e->R[2][0] = 2 * (x * z - y * w); e->R[2][1] = 2 * (y * z + x * w); e->R[2][2] = 1 - 2 * (x * x + y * y);
    e->oriented = 1;
  }
}

/* h_i = sqrt(sum_j (R_ij r_j)^2), the support of the ellipsoid along axis i. */
void inv_ellipsoid_extents(const inv_Ellipsoid *e, double h[3]) {
  int i, j;
  for (i = 0; i < 3; i++) {
    double s = 0;
    for (j = 0; j < 3; j++) s += (e->R[i][j] * e->r[j]) * (e->R[i][j] * e->r[j]);
    h[i] = sqrt(s);
  }
}

static void to_es_ld(const inv_Ellipsoid *e, const double x[3], ld out[3]) {
  ld d[3];
  int i;
  /* the difference of two doubles is exact in long double (64-bit
  ** mantissa) whenever they are within 2^11 of each other in exponent */
  for (i = 0; i < 3; i++) d[i] = (ld)x[i] - (ld)e->c[i];
  for (i = 0; i < 3; i++)
    out[i] = (e->R[0][i] * d[0] + e->R[1][i] * d[1] + e->R[2][i] * d[2]) / (ld)e->r[i];
}

void inv_to_es(const inv_Ellipsoid *e, const double x[3], double out[3]) {
  ld o[3];
  int i;
  to_es_ld(e, x, o);
  for (i = 0; i < 3; i++) out[i] = (double)o[i];
}

double inv_es_distance(const inv_Ellipsoid *e, const double a[3], const double b[3],
                       const double c[3]) {
  ld ae[3], be[3], ce[3], p[3] = {0, 0, 0}, near[3];
  to_es_ld(e, a, ae);
  to_es_ld(e, b, be);
  to_es_ld(e, c, ce);
  return (double)ref_closest_on_triangle(p, ae, be, ce, near);
}

/* cs_mesh.c's test, restated: |(b-a) x (c-a)|^2 <= 1e-24 (|b-a|^2 + |c-a|^2)^2,
** and non-finite products. */
int inv_triangle_degenerate(const double a[3], const double b[3], const double c[3]) {
  double e1[3], e2[3], x[3], cross2, size2;
  int i;
  for (i = 0; i < 3; i++) { e1[i] = b[i] - a[i]; e2[i] = c[i] - a[i]; }
  x[0] = e1[1] * e2[2] - e1[2] * e2[1];
  x[1] = e1[2] * e2[0] - e1[0] * e2[2];
  x[2] = e1[0] * e2[1] - e1[1] * e2[0];
  cross2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  size2 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2] + e2[0] * e2[0] + e2[1] * e2[1]
        + e2[2] * e2[2];
  if (!isfinite(cross2) || !isfinite(size2)) return 1;
  return cross2 <= 1e-24 * size2 * size2;
}

/* }================================================================== */

/* {==================================================================
** The soup and its grid
** ===================================================================*/

void inv_soup_init(inv_Soup *s) { memset(s, 0, sizeof *s); }

void inv_soup_free(inv_Soup *s) {
  free(s->v);
  free(s->skip);
  free(s->start);
  free(s->items);
  free(s->stamp);
  memset(s, 0, sizeof *s);
}

int inv_soup_add(inv_Soup *s, const double a[3], const double b[3], const double c[3], int skip) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 256;
    double *v = realloc(s->v, cap * 9 * sizeof(double));
    unsigned char *k;
    if (!v) return 0;
    s->v = v;
    k = realloc(s->skip, cap);
    if (!k) return 0;
    s->skip = k;
    s->cap = cap;
  }
  memcpy(s->v + 9 * s->n, a, 3 * sizeof(double));
  memcpy(s->v + 9 * s->n + 3, b, 3 * sizeof(double));
  memcpy(s->v + 9 * s->n + 6, c, 3 * sizeof(double));
  s->skip[s->n] = (unsigned char)(skip != 0);
  s->n++;
  return 1;
}

static void tri_box(const double *t, double lo[3], double hi[3]) {
  int i;
  for (i = 0; i < 3; i++) {
    lo[i] = fmin(t[i], fmin(t[3 + i], t[6 + i]));
    hi[i] = fmax(t[i], fmax(t[3 + i], t[6 + i]));
  }
}

/* The cells [c0, c1] a box covers, clamped; 0 when it is outside the grid. */
static int cell_range(const inv_Soup *s, const double lo[3], const double hi[3], int c0[3], int c1[3]) {
  int i;
  for (i = 0; i < 3; i++) {
    double a = floor((lo[i] - s->lo[i]) / s->cell), b = floor((hi[i] - s->lo[i]) / s->cell);
    if (b < 0 || a >= s->dim[i]) return 0;
    c0[i] = a < 0 ? 0 : (int)a;
    c1[i] = b >= s->dim[i] ? s->dim[i] - 1 : (int)b;
  }
  return 1;
}

int inv_soup_build(inv_Soup *s, double cell) {
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, ext = 0;
  size_t t, ncells, total = 0;
  int i, pass;
  for (t = 0; t < s->n; t++) {
    double tl[3], th[3];
    tri_box(s->v + 9 * t, tl, th);
    for (i = 0; i < 3; i++) { lo[i] = fmin(lo[i], tl[i]); hi[i] = fmax(hi[i], th[i]); }
  }
  if (s->n == 0) for (i = 0; i < 3; i++) lo[i] = hi[i] = 0;
  for (i = 0; i < 3; i++) ext = fmax(ext, hi[i] - lo[i]);
  if (!(cell > 0)) cell = ext / 48;
  if (!(cell > 0)) cell = 1;
  for (;;) {
    ncells = 1;
    for (i = 0; i < 3; i++) {
      s->dim[i] = (int)floor((hi[i] - lo[i]) / cell) + 1;
      ncells *= (size_t)s->dim[i];
    }
    if (ncells <= ((size_t)1 << 21)) break;
    cell *= 1.25;
  }
  for (i = 0; i < 3; i++) s->lo[i] = lo[i];
  s->cell = cell;
  free(s->start);
  free(s->items);
  free(s->stamp);
  s->start = calloc(ncells + 1, sizeof(unsigned));
  s->stamp = calloc(s->n ? s->n : 1, sizeof(unsigned));
  s->items = NULL;
  s->cur = 0;
  if (!s->start || !s->stamp) return 0;
  /* two passes: count per cell, then fill */
  for (pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      size_t k, sum = 0;
      for (k = 0; k <= ncells; k++) { size_t c = s->start[k]; s->start[k] = (unsigned)sum; sum += c; }
      total = sum;
      s->items = malloc((total ? total : 1) * sizeof(unsigned));
      if (!s->items) return 0;
    }
    for (t = 0; t < s->n; t++) {
      double tl[3], th[3];
      int c0[3], c1[3], x, y, z;
      if (s->skip[t]) continue;
      tri_box(s->v + 9 * t, tl, th);
      if (!cell_range(s, tl, th, c0, c1)) continue;
      for (z = c0[2]; z <= c1[2]; z++)
        for (y = c0[1]; y <= c1[1]; y++)
          for (x = c0[0]; x <= c1[0]; x++) {
            size_t k = ((size_t)z * s->dim[1] + y) * s->dim[0] + x;
            if (pass == 0) s->start[k]++;
            else s->items[s->start[k]++] = (unsigned)t;
          }
    }
  }
  /* the fill advanced each start to the next cell's: shift back */
  memmove(s->start + 1, s->start, ncells * sizeof(unsigned));
  s->start[0] = 0;
  (void)total;
  return 1;
}

static double tri_check(const inv_Soup *s, size_t t, const inv_Ellipsoid *e, const double lo[3],
                        const double hi[3]) {
  double tl[3], th[3];
  const double *v = s->v + 9 * t;
  int i;
  tri_box(v, tl, th);
  for (i = 0; i < 3; i++)
    if (tl[i] > hi[i] || th[i] < lo[i]) return HUGE_VAL;
  return inv_es_distance(e, v, v + 3, v + 6);
}

/* The ellipsoid's box grown by 1% (a triangle outside it is more than 1.01
** away in ellipsoid space). */
static void query_box(const inv_Ellipsoid *e, double lo[3], double hi[3]) {
  double h[3];
  int i;
  inv_ellipsoid_extents(e, h);
  for (i = 0; i < 3; i++) {
    double g = h[i] * 1.01 + 1e-12 * fabs(e->c[i]);
    lo[i] = e->c[i] - g;
    hi[i] = e->c[i] + g;
  }
}

double inv_soup_min_distance(inv_Soup *s, const inv_Ellipsoid *e, long *tri) {
  double lo[3], hi[3], best = HUGE_VAL;
  int c0[3], c1[3], x, y, z;
  *tri = -1;
  query_box(e, lo, hi);
  if (!cell_range(s, lo, hi, c0, c1)) return best;
  if (++s->cur == 0) {      /* stamps wrapped: clear them */
    memset(s->stamp, 0, s->n * sizeof(unsigned));
    s->cur = 1;
  }
  for (z = c0[2]; z <= c1[2]; z++)
    for (y = c0[1]; y <= c1[1]; y++)
      for (x = c0[0]; x <= c1[0]; x++) {
        size_t k = ((size_t)z * s->dim[1] + y) * s->dim[0] + x;
        unsigned j;
        for (j = s->start[k]; j < s->start[k + 1]; j++) {
          unsigned t = s->items[j];
          double d;
          if (s->stamp[t] == s->cur) continue;
          s->stamp[t] = s->cur;
          d = tri_check(s, t, e, lo, hi);
          if (d < best) { best = d; *tri = (long)t; }
        }
      }
  return best;
}

double inv_soup_min_distance_brute(const inv_Soup *s, const inv_Ellipsoid *e, long *tri) {
  double lo[3], hi[3], best = HUGE_VAL;
  size_t t;
  *tri = -1;
  query_box(e, lo, hi);
  for (t = 0; t < s->n; t++) {
    double d;
    if (s->skip[t]) continue;
    d = tri_check(s, t, e, lo, hi);
    if (d < best) { best = d; *tri = (long)t; }
  }
  return best;
}

/* }================================================================== */
