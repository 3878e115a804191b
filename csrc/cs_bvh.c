/*
** cs_bvh.c: the triangle tree: the build, refit, and the walks by box,
** segment and nearest point. Only this file knows cs_BvhNode.
** The build: up to CS_BVH_LINEAR_MAX triangles, binned SAH (Wald 2007, "On
** fast construction of SAH-based bounding volume hierarchies"); above, a
** linear top (LBVH: Lauterbach et al. 2009, Karras 2012) splits the
** triangles in Morton order, by the highest bit where their codes differ,
** into ranges of at most CS_BVH_LINEAR_MAX, and each range below it is
** built by the binned SAH in the caches (see "Build: the linear top").
** Either way the nodes are written depth first, a left child right after
** its parent, and every leaf is at most 60 levels below the root.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cs_bvh.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CS_BVH_BINS     12    /* SAH bins along the widest centroid axis */
/* A node of at most CS_BVH_LEAF triangles is a leaf, every larger one is
** split. Leaves of up to 8 rather than 4 (and up to 8 where the SAH found a
** leaf cheaper than a split): on terrain_708 the tree has 40% fewer nodes
** (39.6 bytes a triangle, not 46.6), builds 10% faster, and a step costs
** 0.2-0.6% more instructions (bench/RESULTS.md, 2026-11-26). */
#define CS_BVH_LEAF     8
/* From this depth on every split is a median split, so 2^30 triangles
** (CS_MAX_TRIANGLES) end in leaves of <= 8 by depth 32 + 27 = 59. */
#define CS_BVH_MEDIAN_DEPTH 32
/* Relative slack of the walks' box tests: a subtraction, a reciprocal and a
** product (or a square and a sum) each round by half an ulp, so widening by
** 8 ulps never prunes a box that exact arithmetic would touch. */
#define CS_BVH_SLACK    (8 * DBL_EPSILON)
#define CS_BVH_NONE     UINT32_MAX

/* Inlined even when large (GCC and Clang), where copies for constant
** arguments pay. */
#if defined(__GNUC__)
#define CS_BVH_FLATTEN  static inline __attribute__((always_inline))
#else
#define CS_BVH_FLATTEN  CS_INLINE
#endif


/* {==================================================================
** Bounds
** ===================================================================*/

/* The largest float <= x: a lower bound that stays below the double. When
** the conversion rounded up, one step of f's bits toward -inf: away from 0
** for a negative f (-0 becomes the smallest negative subnormal), toward 0
** for a positive one (never +0: only x < 0 rounds up to 0, and to -0).
** Branch-free, as half the conversions round each way. */
CS_INLINE float bvh_down(double x) {
  float f;
  uint32_t u;
  if (x > FLT_MAX) return FLT_MAX;
  if (x < -FLT_MAX) return -INFINITY;
  f = (float)x;
  memcpy(&u, &f, sizeof u);
  u += (0u - (uint32_t)((double)f > x)) & (2 * (u >> 31) - 1);   /* +1 or -1 */
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The smallest float >= x: an upper bound that stays above the double
** (bvh_down mirrored; +0 steps to the smallest positive subnormal). */
CS_INLINE float bvh_up(double x) {
  float f;
  uint32_t u;
  if (x < -FLT_MAX) return -FLT_MAX;
  if (x > FLT_MAX) return INFINITY;
  f = (float)x;
  memcpy(&u, &f, sizeof u);
  u += (0u - (uint32_t)((double)f < x)) & (1 - 2 * (u >> 31));
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The double-precision bounds of triangle t in lo and hi. */
static void bvh_tri_box(const double *verts, const uint32_t *tris, uint32_t t,
                        double lo[3], double hi[3]) {
  const uint32_t *v = tris + 3 * (size_t)t;
  const double *a = verts + 3 * (size_t)v[0];
  const double *b = verts + 3 * (size_t)v[1];
  const double *c = verts + 3 * (size_t)v[2];
  int k;
  for (k = 0; k < 3; k++) {
    double l = a[k], h = a[k];
    if (b[k] < l) l = b[k];
    if (b[k] > h) h = b[k];
    if (c[k] < l) l = c[k];
    if (c[k] > h) h = c[k];
    lo[k] = l;
    hi[k] = h;
  }
}

/* The float bounds of the triangles prims[0 .. n) in lo and hi, rounded
** outward from the doubles. */
static void bvh_leaf_box(const double *verts, const uint32_t *tris,
                         const uint32_t *prims, uint32_t n, float lo[3], float hi[3]) {
  double l[3], h[3], tl[3], th[3];
  uint32_t i;
  int k;
  bvh_tri_box(verts, tris, prims[0], l, h);
  for (i = 1; i < n; i++) {
    bvh_tri_box(verts, tris, prims[i], tl, th);
    for (k = 0; k < 3; k++) {
      if (tl[k] < l[k]) l[k] = tl[k];
      if (th[k] > h[k]) h[k] = th[k];
    }
  }
  for (k = 0; k < 3; k++) {
    lo[k] = bvh_down(l[k]);
    hi[k] = bvh_up(h[k]);
  }
}

/* An inner node's bounds: the union of its children's, l and r. */
static void bvh_node_union(cs_BvhNode *n, const cs_BvhNode *l, const cs_BvhNode *r) {
  int k;
  for (k = 0; k < 3; k++) {
    n->lo[k] = l->lo[k] < r->lo[k] ? l->lo[k] : r->lo[k];
    n->hi[k] = l->hi[k] > r->hi[k] ? l->hi[k] : r->hi[k];
  }
}

/* }================================================================== */


/* {==================================================================
** Build
** ===================================================================*/

/* Rows of 4 floats, the build's unit: SSE2 registers where the compiler
** has them, else arrays. Both make the same operations lane by lane (a min
** is a < b ? a : b, as minps), so both build the same tree. The fourth
** lane of a row holds no bound. */
#if defined(__SSE2__)
typedef __m128 cs_BvhRow;
CS_INLINE cs_BvhRow bvh_row_load(const float *p) { return _mm_loadu_ps(p); }
CS_INLINE void bvh_row_store(float *p, cs_BvhRow a) { _mm_storeu_ps(p, a); }
CS_INLINE cs_BvhRow bvh_row_set(float x) { return _mm_set1_ps(x); }
CS_INLINE cs_BvhRow bvh_row_min(cs_BvhRow a, cs_BvhRow b) { return _mm_min_ps(a, b); }
CS_INLINE cs_BvhRow bvh_row_max(cs_BvhRow a, cs_BvhRow b) { return _mm_max_ps(a, b); }
CS_INLINE cs_BvhRow bvh_row_add(cs_BvhRow a, cs_BvhRow b) { return _mm_add_ps(a, b); }
CS_INLINE cs_BvhRow bvh_row_sub(cs_BvhRow a, cs_BvhRow b) { return _mm_sub_ps(a, b); }
/* p[0 .. 2] and a 0 (p[3] is read, and must lie in the same object) */
CS_INLINE cs_BvhRow bvh_row_load3(const float *p) {
  return _mm_and_ps(_mm_loadu_ps(p), _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1)));
}
#else
typedef struct cs_BvhRow { float f[4]; } cs_BvhRow;
CS_INLINE cs_BvhRow bvh_row_load(const float *p) {
  cs_BvhRow r;
  memcpy(r.f, p, sizeof r.f);
  return r;
}
CS_INLINE void bvh_row_store(float *p, cs_BvhRow a) { memcpy(p, a.f, sizeof a.f); }
CS_INLINE cs_BvhRow bvh_row_set(float x) {
  cs_BvhRow r;
  r.f[0] = r.f[1] = r.f[2] = r.f[3] = x;
  return r;
}
CS_INLINE cs_BvhRow bvh_row_min(cs_BvhRow a, cs_BvhRow b) {
  int i;
  for (i = 0; i < 4; i++) a.f[i] = a.f[i] < b.f[i] ? a.f[i] : b.f[i];
  return a;
}
CS_INLINE cs_BvhRow bvh_row_max(cs_BvhRow a, cs_BvhRow b) {
  int i;
  for (i = 0; i < 4; i++) a.f[i] = a.f[i] > b.f[i] ? a.f[i] : b.f[i];
  return a;
}
CS_INLINE cs_BvhRow bvh_row_add(cs_BvhRow a, cs_BvhRow b) {
  int i;
  for (i = 0; i < 4; i++) a.f[i] += b.f[i];
  return a;
}
CS_INLINE cs_BvhRow bvh_row_sub(cs_BvhRow a, cs_BvhRow b) {
  int i;
  for (i = 0; i < 4; i++) a.f[i] -= b.f[i];
  return a;
}
CS_INLINE cs_BvhRow bvh_row_load3(const float *p) {
  cs_BvhRow r;
  r.f[0] = p[0]; r.f[1] = p[1]; r.f[2] = p[2]; r.f[3] = 0;
  return r;
}
#endif

/* Half the surface area of the box [lo, hi] (not empty): the SAH's measure. */
CS_INLINE float bvh_row_area(cs_BvhRow lo, cs_BvhRow hi) {
  float d[4];
  bvh_row_store(d, bvh_row_sub(hi, lo));
  return d[0] * d[1] + d[1] * d[2] + d[2] * d[0];
}

#if defined(__SSE2__)
/* Lanes 0 and 1 of xy and lane 0 of z, rounded to floats toward -inf (dir
** < 0) or +inf, in lanes 0 .. 2; lane 3 is 0. bvh_down and bvh_up two at a
** time, making the same floats: cvtpd2ps rounds to nearest, and where that
** went the wrong way, the bits step as there. An overflow to +-inf steps to
** +-FLT_MAX or stays, as their clamps give. */
CS_INLINE cs_BvhRow bvh_round2(__m128d xy, __m128d z, int dir) {
  __m128 f = _mm_movelh_ps(_mm_cvtpd_ps(xy), _mm_cvtpd_ps(z));
  __m128d gxy = _mm_cvtps_pd(f), gz = _mm_cvtps_pd(_mm_movehl_ps(f, f));
  __m128d mxy = dir < 0 ? _mm_cmpgt_pd(gxy, xy) : _mm_cmplt_pd(gxy, xy);
  __m128d mz = dir < 0 ? _mm_cmpgt_pd(gz, z) : _mm_cmplt_pd(gz, z);
  __m128i m = _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(mxy), _mm_castpd_ps(mz),
                                              _MM_SHUFFLE(2, 0, 2, 0)));
  __m128i u = _mm_castps_si128(f), s = _mm_srai_epi32(u, 31);
  __m128i d = _mm_and_si128(_mm_add_epi32(_mm_add_epi32(s, s), _mm_set1_epi32(1)), m);
  /* d: -1 for a negative f, +1 for a positive one, where it rounded wrong */
  return _mm_castsi128_ps(dir < 0 ? _mm_sub_epi32(u, d) : _mm_add_epi32(u, d));
}
#endif

#if defined(__SSE2__)
/* Triangle t's double bounds, x and y in lxy and hxy, z in lane 0 of lz
** and hz; in bvh_tri_box's order (minpd(x, y) is x < y ? x : y), so the
** same doubles. */
CS_INLINE void bvh_tri_box2(const double *verts, const uint32_t *tris, uint32_t t,
                            __m128d *lxy, __m128d *lz, __m128d *hxy, __m128d *hz) {
  const uint32_t *v = tris + 3 * (size_t)t;
  const double *a = verts + 3 * (size_t)v[0];
  const double *b = verts + 3 * (size_t)v[1];
  const double *c = verts + 3 * (size_t)v[2];
  __m128d axy = _mm_loadu_pd(a), bxy = _mm_loadu_pd(b), cxy = _mm_loadu_pd(c);
  __m128d az = _mm_load_sd(a + 2), bz = _mm_load_sd(b + 2), cz = _mm_load_sd(c + 2);
  *lxy = _mm_min_pd(cxy, _mm_min_pd(bxy, axy));
  *hxy = _mm_max_pd(cxy, _mm_max_pd(bxy, axy));
  *lz = _mm_min_sd(cz, _mm_min_sd(bz, az));
  *hz = _mm_max_sd(cz, _mm_max_sd(bz, az));
}
#endif

/* Triangle t's bounds as rows, rounded outward (lane 3 is 0). */
CS_INLINE void bvh_tri_rows(const double *verts, const uint32_t *tris, uint32_t t,
                            cs_BvhRow *lo, cs_BvhRow *hi) {
#if defined(__SSE2__)
  __m128d lxy, lz, hxy, hz;
  bvh_tri_box2(verts, tris, t, &lxy, &lz, &hxy, &hz);
  *lo = bvh_round2(lxy, lz, -1);
  *hi = bvh_round2(hxy, hz, 1);
#else
  double l[3], h[3];
  float fl[3], fh[3];
  int k;
  bvh_tri_box(verts, tris, t, l, h);
  for (k = 0; k < 3; k++) {
    fl[k] = bvh_down(l[k]);
    fh[k] = bvh_up(h[k]);
  }
  *lo = bvh_row_load3(fl);
  *hi = bvh_row_load3(fh);
#endif
}

/* One triangle while building: 32 bytes, moved as a whole by partitions;
** lo and hi each start a row. */
typedef struct cs_BvhRec {
  float lo[3];            /* the triangle's bounds, rounded outward */
  uint32_t tri;
  float hi[3];
  uint32_t bin;           /* its bin in the split of the node that holds it */
} cs_BvhRec;

/* A node waiting to be written. */
typedef struct cs_BvhTask {
  float lo[4], hi[4];     /* bounds of its records (rows) */
  float clo[4], chi[4];   /* bounds of their centroid keys */
  uint32_t begin, end;    /* its records */
  uint32_t parent;        /* a right child: the node whose index names it */
  uint32_t depth;
  int side;               /* 0 left (or the root), 1 right */
  int binned;             /* its bins are made (by its parent's partition) */
} cs_BvhTask;

/* How a node's records fall into its bins: key c on axis goes to bin
** (c - cmin) * scale, clamped to 0 .. nb - 1. */
typedef struct cs_BvhCut {
  int axis;
  uint32_t nb;            /* 0: the node needs no bins */
  float cmin, scale;
} cs_BvhCut;

/* A node's bins: per bin the bounds of its records (rows box[k][0] and
** box[k][1]) and of their centroid keys (box[k][2], box[k][3]), and its
** count. */
typedef struct cs_BvhBins {
  float box[CS_BVH_BINS][4][4];
  uint32_t count[CS_BVH_BINS];
  uint32_t nb;
} cs_BvhBins;

/* The bins of a node at depth d (below CS_BVH_MEDIAN_DEPTH) lie in slot
** 2 d + side. A node makes its children's bins while it partitions (slots
** at depth d + 1), and the right children waiting on the stack are at most
** one per depth, none deeper than the node: no slot is overwritten in use.
** Depth CS_BVH_MEDIAN_DEPTH has slots too, never binned into: a node above
** it may name them. */
#define CS_BVH_SLOTS    (2 * (CS_BVH_MEDIAN_DEPTH + 1))
/* The slots' size in records: they are allocated after the records. */
#define CS_BVH_SLOT_RECS \
  ((CS_BVH_SLOTS * sizeof(cs_BvhBins) + sizeof(cs_BvhRec) - 1) / sizeof(cs_BvhRec))

/* The centroid key of r on axis k: lo + hi, twice the centre (the halving
** would change nothing but the cost). */
CS_INLINE float bvh_key(const cs_BvhRec *r, int k) {
  return r->lo[k] + r->hi[k];
}

/* The axis of t's widest centroid extent, and that extent in *ext. */
static int bvh_axis(const cs_BvhTask *t, float *ext) {
  int axis = 0;
  if (t->chi[1] - t->clo[1] > t->chi[axis] - t->clo[axis]) axis = 1;
  if (t->chi[2] - t->clo[2] > t->chi[axis] - t->clo[axis]) axis = 2;
  *ext = t->chi[axis] - t->clo[axis];
  return axis;
}

/* Fills c with t's binning; nb 0 when t will not be binned: a leaf by its
** count, every centroid on one plane, or a median split. */
static void bvh_cut(const cs_BvhTask *t, cs_BvhCut *c) {
  uint32_t n = t->end - t->begin;
  float ext;
  c->axis = bvh_axis(t, &ext);
  c->nb = 0;
  c->cmin = c->scale = 0;
  if (n <= CS_BVH_LEAF || !(ext > 0) || t->depth >= CS_BVH_MEDIAN_DEPTH) return;
  c->nb = n < CS_BVH_BINS ? n : CS_BVH_BINS;
  c->cmin = t->clo[c->axis];
  c->scale = (float)c->nb / ext;  /* bvh_bin_add clamps the top key */
}

/* Empties b's first nb bins. */
static void bvh_bins_empty(cs_BvhBins *b, uint32_t nb) {
  const cs_BvhRow inf = bvh_row_set(INFINITY), ninf = bvh_row_set(-INFINITY);
  uint32_t k;
  for (k = 0; k < nb; k++) {
    bvh_row_store(b->box[k][0], inf);
    bvh_row_store(b->box[k][1], ninf);
    bvh_row_store(b->box[k][2], inf);
    bvh_row_store(b->box[k][3], ninf);
    b->count[k] = 0;
  }
  b->nb = nb;
}

/* The bin of f = (key - cmin) * scale: f clamped to 0 .. top (a NaN to
** 0), truncated. Branches, not maxss and minss: those put 8 cycles more
** before the bin's address, and measured slower. */
CS_INLINE uint32_t bvh_bin_index(float f, float top) {
  f = f > 0 ? f : 0;
  return (uint32_t)(f < top ? f : top);
}

/* Puts r in its bin of b, kept in r->bin. */
CS_INLINE void bvh_bin_add(cs_BvhBins *b, int axis, float cmin, float scale, float top,
                           cs_BvhRec *r) {
  uint32_t k = bvh_bin_index((bvh_key(r, axis) - cmin) * scale, top);
  float *box = b->box[k][0];
#if defined(__SSE2__)
  cs_BvhRow lo = bvh_row_load3(r->lo), hi = bvh_row_load3(r->hi), c = bvh_row_add(lo, hi);
  bvh_row_store(box, bvh_row_min(lo, bvh_row_load(box)));
  bvh_row_store(box + 4, bvh_row_max(hi, bvh_row_load(box + 4)));
  bvh_row_store(box + 8, bvh_row_min(c, bvh_row_load(box + 8)));
  bvh_row_store(box + 12, bvh_row_max(c, bvh_row_load(box + 12)));
#else
  int i;                  /* the same, lanes 0 .. 2 only: the loop stays small */
  for (i = 0; i < 3; i++) {
    float l = r->lo[i], h = r->hi[i], c = l + h;
    box[i] = l < box[i] ? l : box[i];
    box[4 + i] = h > box[4 + i] ? h : box[4 + i];
    box[8 + i] = c < box[8 + i] ? c : box[8 + i];
    box[12 + i] = c > box[12 + i] ? c : box[12 + i];
  }
#endif
  r->bin = k;
  b->count[k]++;
}

/* Bins t's records into b by c (c->nb > 0). */
static void bvh_bin_all(cs_BvhRec *rec, const cs_BvhTask *t, const cs_BvhCut *c,
                        cs_BvhBins *b) {
  const int axis = c->axis;
  const float cmin = c->cmin, scale = c->scale, top = (float)c->nb - 1;
  uint32_t i;
  bvh_bins_empty(b, c->nb);
  for (i = t->begin; i < t->end; i++) bvh_bin_add(b, axis, cmin, scale, top, rec + i);
}

/* Fills t's bounds and centroid bounds from its records. */
static void bvh_task_bounds(const cs_BvhRec *rec, cs_BvhTask *t) {
  cs_BvhRow lo = bvh_row_set(INFINITY), hi = bvh_row_set(-INFINITY), clo = lo, chi = hi;
  uint32_t i;
  for (i = t->begin; i < t->end; i++) {
    cs_BvhRow l = bvh_row_load3(rec[i].lo), h = bvh_row_load3(rec[i].hi);
    cs_BvhRow c = bvh_row_add(l, h);
    lo = bvh_row_min(l, lo);
    hi = bvh_row_max(h, hi);
    clo = bvh_row_min(c, clo);
    chi = bvh_row_max(c, chi);
  }
  bvh_row_store(t->lo, lo);
  bvh_row_store(t->hi, hi);
  bvh_row_store(t->clo, clo);
  bvh_row_store(t->chi, chi);
}

/* Fills t's bounds and centroid bounds from bins [from, to) of b. */
static void bvh_bins_bounds(const cs_BvhBins *b, int from, int to, cs_BvhTask *t) {
  cs_BvhRow lo = bvh_row_set(INFINITY), hi = bvh_row_set(-INFINITY), clo = lo, chi = hi;
  int k;
  for (k = from; k < to; k++) {
    lo = bvh_row_min(bvh_row_load(b->box[k][0]), lo);
    hi = bvh_row_max(bvh_row_load(b->box[k][1]), hi);
    clo = bvh_row_min(bvh_row_load(b->box[k][2]), clo);
    chi = bvh_row_max(bvh_row_load(b->box[k][3]), chi);
  }
  bvh_row_store(t->lo, lo);
  bvh_row_store(t->hi, hi);
  bvh_row_store(t->clo, clo);
  bvh_row_store(t->chi, chi);
}

/* Makes l and r t's children over [t->begin, mid) and [mid, t->end), not
** yet bounded nor binned. */
static void bvh_children(const cs_BvhTask *t, uint32_t mid, cs_BvhTask *l, cs_BvhTask *r) {
  l->begin = t->begin; l->end = mid;
  r->begin = mid; r->end = t->end;
  l->depth = r->depth = t->depth + 1;
  l->parent = r->parent = CS_BVH_NONE;
  l->side = 0; r->side = 1;
  l->binned = r->binned = 0;
}

/* Makes l and r the two halves of t's records, split at mid. */
static void bvh_split_at(const cs_BvhRec *rec, const cs_BvhTask *t, uint32_t mid,
                         cs_BvhTask *l, cs_BvhTask *r) {
  bvh_children(t, mid, l, r);
  bvh_task_bounds(rec, l);
  bvh_task_bounds(rec, r);
}

/* Swaps records *p and *q (with SSE2 as two rows each: a struct copy
** compiled to 14 moves of its fields). */
CS_INLINE void bvh_swap(cs_BvhRec *p, cs_BvhRec *q) {
#if defined(__SSE2__)
  float *a = (float *)(void *)p, *b = (float *)(void *)q;
  __m128 a0 = _mm_loadu_ps(a), a1 = _mm_loadu_ps(a + 4);
  _mm_storeu_ps(a, _mm_loadu_ps(b));
  _mm_storeu_ps(a + 4, _mm_loadu_ps(b + 4));
  _mm_storeu_ps(b, a0);
  _mm_storeu_ps(b + 4, a1);
#else
  cs_BvhRec tmp = *p;
  *p = *q;
  *q = tmp;
#endif
}

/* Reorders rec[lo, hi) so that rec[k] holds the key it would hold sorted on
** axis, with no greater key before it and no smaller one after it. A 3-way
** quickselect: runs of equal keys cannot make it quadratic. */
static void bvh_select(cs_BvhRec *rec, uint32_t lo, uint32_t hi, uint32_t k, int axis) {
  while (hi - lo > 1) {
    float x = bvh_key(rec + lo, axis), y = bvh_key(rec + lo + (hi - lo) / 2, axis);
    float z = bvh_key(rec + hi - 1, axis), p;
    uint32_t lt = lo, i = lo, gt = hi;
    if (x > y) { p = x; x = y; y = p; }
    if (y > z) y = z;
    p = x > y ? x : y;      /* the median of the three */
    while (i < gt) {        /* [lo, lt) < p, [lt, i) == p, [gt, hi) > p */
      float c = bvh_key(rec + i, axis);
      if (c < p) bvh_swap(rec + lt++, rec + i++);
      else if (c > p) bvh_swap(rec + i, rec + --gt);
      else i++;             /* equal, or NaN */
    }
    if (k < lt) hi = lt;
    else if (k >= gt) lo = gt;
    else return;
  }
}

/* bvh_partition's loop for constant lon and ron (whether a side is binned):
** inlined four ways, so the loop tests neither. */
CS_BVH_FLATTEN uint32_t bvh_partition_loop(cs_BvhRec *rec, uint32_t begin, uint32_t end,
                                           uint32_t split, const cs_BvhCut *lc, cs_BvhBins *lb,
                                           const cs_BvhCut *rc, cs_BvhBins *rb, int lon, int ron) {
  const int la = lc->axis, ra = rc->axis;
  const float lmin = lc->cmin, lscale = lc->scale, ltop = (float)lc->nb - 1;
  const float rmin = rc->cmin, rscale = rc->scale, rtop = (float)rc->nb - 1;
  cs_BvhRec *p = rec + begin, *q = rec + end;
  for (;;) {
    for (; p < q && p->bin <= split; p++)
      if (lon) bvh_bin_add(lb, la, lmin, lscale, ltop, p);
    for (; p < q && q[-1].bin > split; q--)
      if (ron) bvh_bin_add(rb, ra, rmin, rscale, rtop, q - 1);
    if (p >= q) break;
    bvh_swap(p, q - 1);
    if (lon) bvh_bin_add(lb, la, lmin, lscale, ltop, p);
    if (ron) bvh_bin_add(rb, ra, rmin, rscale, rtop, q - 1);
    p++;
    q--;
  }
  return (uint32_t)(p - rec);
}

/* Moves the records of rec[begin, end) whose bin is <= split before the
** others (Hoare: only misplaced pairs swap), binning each on the way by its
** side's cut into lb or rb (a side cut into no bins is skipped): the
** children's bins cost no pass of their own. Returns the first record of
** the right side. */
static uint32_t bvh_partition(cs_BvhRec *rec, uint32_t begin, uint32_t end, uint32_t split,
                              const cs_BvhCut *lc, cs_BvhBins *lb,
                              const cs_BvhCut *rc, cs_BvhBins *rb) {
  if (lc->nb && rc->nb) return bvh_partition_loop(rec, begin, end, split, lc, lb, rc, rb, 1, 1);
  if (lc->nb) return bvh_partition_loop(rec, begin, end, split, lc, lb, rc, rb, 1, 0);
  if (rc->nb) return bvh_partition_loop(rec, begin, end, split, lc, lb, rc, rb, 0, 1);
  return bvh_partition_loop(rec, begin, end, split, lc, lb, rc, rb, 0, 0);
}

/* Splits t's records (more than CS_BVH_LEAF) in two by the binned SAH
** (reordering them) and fills the children's tasks l and r (and their bins,
** in slots). */
static void bvh_split(cs_BvhRec *rec, const cs_BvhTask *t, cs_BvhBins *slots,
                     cs_BvhTask *l, cs_BvhTask *r) {
  cs_BvhBins *b, *lb;
  cs_BvhCut c, lc, rc;
  cs_BvhRow lo, hi;
  float rarea[CS_BVH_BINS], ext, cost, best_cost = 0;
  uint32_t rcount[CS_BVH_BINS], n = t->end - t->begin, i, cnt, lcount = 0;
  int axis, k, best = -1, nb;
  axis = bvh_axis(t, &ext);
  if (!(ext > 0)) {         /* every centroid coincides: no plane parts them */
    bvh_split_at(rec, t, t->begin + n / 2, l, r);
    return;
  }
  if (t->depth >= CS_BVH_MEDIAN_DEPTH) {  /* bound the depth, whatever the SAH says */
    bvh_select(rec, t->begin, t->end, t->begin + n / 2, axis);
    bvh_split_at(rec, t, t->begin + n / 2, l, r);
    return;
  }
  b = slots + 2 * t->depth + t->side;
  if (!t->binned) {         /* the root, or a child of a median split */
    bvh_cut(t, &c);
    CS_ASSERT(c.nb > 0);
    bvh_bin_all(rec, t, &c, b);
  }
  nb = (int)b->nb;
  /* The cost of a split after bin k is A_l N_l + A_r N_r (the constant
  ** factors of the SAH dropped): sweep from the right, then from the left. */
  lo = bvh_row_set(INFINITY);
  hi = bvh_row_set(-INFINITY);
  cnt = 0;
  for (k = nb - 1; k > 0; k--) {
    lo = bvh_row_min(bvh_row_load(b->box[k][0]), lo);
    hi = bvh_row_max(bvh_row_load(b->box[k][1]), hi);
    cnt += b->count[k];
    rcount[k] = cnt;
    rarea[k] = cnt ? bvh_row_area(lo, hi) : 0;
  }
  lo = bvh_row_set(INFINITY);
  hi = bvh_row_set(-INFINITY);
  cnt = 0;
  for (k = 0; k < nb - 1; k++) {
    lo = bvh_row_min(bvh_row_load(b->box[k][0]), lo);
    hi = bvh_row_max(bvh_row_load(b->box[k][1]), hi);
    cnt += b->count[k];
    if (cnt == 0 || rcount[k + 1] == 0) continue;
    cost = bvh_row_area(lo, hi) * (float)cnt + rarea[k + 1] * (float)rcount[k + 1];
    if (best < 0 || cost < best_cost) { best = k; best_cost = cost; lcount = cnt; }
  }
  if (best < 0) {           /* every key in one bin (only through rounding) */
    bvh_split_at(rec, t, t->begin + n / 2, l, r);
    return;
  }
  /* The children's bounds from the bins; their bins are made as the
  ** records move (Wald 2007 bins each node in a pass of its own). */
  bvh_children(t, t->begin + lcount, l, r);
  bvh_bins_bounds(b, 0, best + 1, l);
  bvh_bins_bounds(b, best + 1, nb, r);
  bvh_cut(l, &lc);
  bvh_cut(r, &rc);
  lb = slots + 2 * l->depth;
  if (lc.nb) bvh_bins_empty(lb, lc.nb);
  if (rc.nb) bvh_bins_empty(lb + 1, rc.nb);
  l->binned = lc.nb > 0;
  r->binned = rc.nb > 0;
  i = bvh_partition(rec, t->begin, t->end, (uint32_t)best, &lc, lb, &rc, lb + 1);
  CS_ASSERT(i == l->end);
  (void)i;
}

/* A build's state. */
typedef struct cs_BvhBuild {
  const cs_Alloc *a;
  const double *verts;
  const uint32_t *tris;
  uint32_t *prims;          /* the kept triangles: sorted by code, then leaf order */
  double cmin[3], scale;    /* the Morton grid (linear builds) */
  cs_BvhRec *rec;           /* the records of one SAH range (nrec), then the bins */
  size_t nrec;
  cs_BvhBins *slots;        /* rec + nrec: CS_BVH_SLOTS bins */
  uint32_t base;            /* the range's first entry in prims */
  cs_BvhNode *nodes;
  size_t cap;               /* nodes allocated */
  size_t most;              /* 2 m - 1: the most a binary tree with m leaves has */
  uint32_t count;           /* nodes written */
} cs_BvhBuild;

/* Returns CS_OK and the id of a new node in *id (capacity grown when the
** reserve runs out: rare, leaves averaging under 2 triangles), or CS_ENOMEM
** (b->nodes stays valid, b->cap its size). */
static cs_Status bvh_node_new(cs_BvhBuild *b, uint32_t *id) {
  CS_ASSERT(b->count < b->most);
  if (b->count == b->cap) {
    size_t ncap = b->cap * 2 < b->most ? b->cap * 2 : b->most;
    cs_BvhNode *nd = (cs_BvhNode *)cs_realloc(b->a, b->nodes, b->cap * sizeof *nd,
                                              ncap * sizeof *nd);
    if (!nd) return CS_ENOMEM;
    b->nodes = nd;
    b->cap = ncap;
  }
  *id = b->count++;
  return CS_OK;
}

/* Writes the subtree over the records of *root by the binned SAH into
** b->nodes, depth first from node b->count on: a left child right after its
** parent, a right child's id in its parent's index; a leaf's index is its
** records' first position plus b->base. Returns CS_OK or CS_ENOMEM. */
static cs_Status bvh_build_nodes(cs_BvhBuild *b, const cs_BvhTask *root) {
  cs_BvhTask stack[CS_BVH_STACK], t = *root, l, r;
  int sp = 0;
  for (;;) {
    uint32_t id;
    cs_BvhNode *nd;
    cs_Status s = bvh_node_new(b, &id);
    if (s != CS_OK) return s;
    nd = b->nodes + id;
    memcpy(nd->lo, t.lo, sizeof nd->lo);
    memcpy(nd->hi, t.hi, sizeof nd->hi);
    if (t.parent != CS_BVH_NONE) b->nodes[t.parent].index = id;
    if (t.end - t.begin > CS_BVH_LEAF && sp < CS_BVH_STACK) {
      bvh_split(b->rec, &t, b->slots, &l, &r);
      nd->index = 0;        /* set when the right child is written */
      nd->count = 0;
      r.parent = id;
      stack[sp++] = r;
      t = l;
    } else {
      nd->index = b->base + t.begin;
      nd->count = t.end - t.begin;
      if (sp == 0) break;
      t = stack[--sp];
    }
  }
  return CS_OK;
}

/* Writes the subtree over prims[begin, end) at depth (side: 0 left or the
** root, 1 right) by the binned SAH: makes their records (growing the work
** allocation when they outnumber its room: a range of one Morton code),
** builds, and puts the triangles back in prims in leaf order. Returns
** CS_OK or CS_ENOMEM. */
static cs_Status bvh_build_range(cs_BvhBuild *b, uint32_t begin, uint32_t end,
                                 uint32_t depth, int side) {
  cs_BvhRow lo = bvh_row_set(INFINITY), hi = bvh_row_set(-INFINITY), clo = lo, chi = hi;
  uint32_t n = end - begin, i;
  cs_BvhRec *rec;
  cs_BvhTask t;
  cs_Status s;
  if (n > b->nrec) {
    rec = (cs_BvhRec *)cs_realloc(b->a, b->rec, (b->nrec + CS_BVH_SLOT_RECS) * sizeof *rec,
                                  ((size_t)n + CS_BVH_SLOT_RECS) * sizeof *rec);
    if (!rec) return CS_ENOMEM;
    b->rec = rec;
    b->nrec = n;
    b->slots = (cs_BvhBins *)(void *)(rec + n);
  }
  rec = b->rec;
  for (i = 0; i < n; i++) {
    cs_BvhRec *r = rec + i;
    cs_BvhRow pl, ph, pc;
    uint32_t tri = b->prims[begin + i];
    bvh_tri_rows(b->verts, b->tris, tri, &pl, &ph);
    bvh_row_store(r->lo, pl);             /* and tri, then set */
    bvh_row_store(r->hi, ph);
    r->tri = tri;
    r->bin = 0;
    pc = bvh_row_add(pl, ph);
    lo = bvh_row_min(pl, lo);
    hi = bvh_row_max(ph, hi);
    clo = bvh_row_min(pc, clo);
    chi = bvh_row_max(pc, chi);
  }
  t.begin = 0; t.end = n;
  t.parent = CS_BVH_NONE;
  t.depth = depth;
  t.side = side;
  t.binned = 0;
  bvh_row_store(t.lo, lo);
  bvh_row_store(t.hi, hi);
  bvh_row_store(t.clo, clo);
  bvh_row_store(t.chi, chi);
  b->base = begin;
  s = bvh_build_nodes(b, &t);
  if (s != CS_OK) return s;
  for (i = 0; i < n; i++) b->prims[begin + i] = rec[i].tri;
  return CS_OK;
}

/* }================================================================== */


/* {==================================================================
** Build: the linear top (LBVH)
** ===================================================================*/

/* The binned SAH makes a pass over every record a level, about 18 levels
** for 1M triangles, each over more records than the caches hold. Above
** CS_BVH_LINEAR_MAX triangles the top of the tree is linear instead, as in
** the LBVH of Lauterbach et al. 2009 ("Fast BVH construction on GPUs") and
** Karras 2012 ("Maximizing parallelism in the construction of BVHs, octrees
** and k-d trees"): the triangles are sorted by the Morton code of their
** centroid, and a range of codes splits where its highest differing bit
** changes (a spatial median on a grid), found by a binary search. Ranges of
** at most CS_BVH_LINEAR_MAX triangles, or of one code, are built by the
** binned SAH below, their records made then, in the caches: the records of
** all the triangles are never held at once.
**
** One scale for all three axes, set by the widest extent of the centroids:
** scaling each axis to the full grid would split a flat terrain along its
** thin height as often as along its width, making boxes as wide as the
** terrain and a centimetre high; with one scale its height takes few (or no)
** bits and the splits go along x and z, as the SAH would.
**
** Depth: a split consumes at least one of the 21 bits, so the SAH ranges
** start at depth <= 21 < CS_BVH_MEDIAN_DEPTH, and the SAH's own bound (every
** split a median one from CS_BVH_MEDIAN_DEPTH on: 2^30 triangles in leaves
** by depth 60) holds for the whole tree, below CS_BVH_STACK. */

/* Codes of 3 x 7 bits, a grid of 128^3 cells: 1M triangles over a
** terrain's 128 x 128 cells of one level make about 60 a cell, so ranges
** come under CS_BVH_LINEAR_MAX triangles before the bits run out; a range
** of one code with more is built by the SAH, only slower. Sorted in
** two radix passes of 11 bits: measured faster than three of 10 (30-bit
** codes) or of 8 (24-bit) on 1M triangles, the pairs' scatter being what
** costs. */
#define CS_BVH_MORTON_AXIS_BITS 7u
#define CS_BVH_RADIX_BITS       11u
#define CS_BVH_RADIX            (1u << CS_BVH_RADIX_BITS)
#define CS_BVH_RADIX_PASSES     2   /* 2 x 11 >= 3 x 7 */

/* The bits of a 5-bit number spread to every third bit. */
static const uint16_t bvh_spread5[32] = {
  0x0000, 0x0001, 0x0008, 0x0009, 0x0040, 0x0041, 0x0048, 0x0049,
  0x0200, 0x0201, 0x0208, 0x0209, 0x0240, 0x0241, 0x0248, 0x0249,
  0x1000, 0x1001, 0x1008, 0x1009, 0x1040, 0x1041, 0x1048, 0x1049,
  0x1200, 0x1201, 0x1208, 0x1209, 0x1240, 0x1241, 0x1248, 0x1249
};

/* The bits of x (< 1024) spread to every third bit, from bit 0. */
CS_INLINE uint32_t bvh_spread(uint32_t x) {
  return (uint32_t)bvh_spread5[x >> 5] << 15 | bvh_spread5[x & 31];
}

/* Twice the centre of triangle t's double bounds (lo + hi), rounded to
** floats, in key[0 .. 2]: what its Morton code is made from. Same floats
** with SSE2 and without: min and max pick as bvh_tri_box, the sums and
** the conversions round alike. */
CS_INLINE void bvh_tri_key(const double *verts, const uint32_t *tris, uint32_t t, float key[3]) {
#if defined(__SSE2__)
  __m128d lxy, lz, hxy, hz;
  __m128 kxy, kz;
  bvh_tri_box2(verts, tris, t, &lxy, &lz, &hxy, &hz);
  kxy = _mm_cvtpd_ps(_mm_add_pd(lxy, hxy));
  kz = _mm_cvtpd_ps(_mm_add_sd(lz, hz));
  _mm_storel_pi((__m64 *)(void *)key, kxy);
  _mm_store_ss(key + 2, kz);
#else
  double l[3], h[3];
  bvh_tri_box(verts, tris, t, l, h);
  key[0] = (float)(l[0] + h[0]);
  key[1] = (float)(l[1] + h[1]);
  key[2] = (float)(l[2] + h[2]);
#endif
}

/* The cell of f = (key - cmin) * scale on one axis: f clamped to 0 .. 127
** (a NaN to 0, as bvh_bin_index), truncated. */
CS_INLINE uint32_t bvh_cell(double f) {
  const double top = (double)((1u << CS_BVH_MORTON_AXIS_BITS) - 1);
  f = f > 0 ? f : 0;
  return (uint32_t)(f < top ? f : top);
}

/* The Morton code of a centroid key: x's bit above y's above z's. */
CS_INLINE uint32_t bvh_morton(const float key[3], const double cmin[3], double scale) {
  return bvh_spread(bvh_cell(((double)key[0] - cmin[0]) * scale)) << 2
       | bvh_spread(bvh_cell(((double)key[1] - cmin[1]) * scale)) << 1
       | bvh_spread(bvh_cell(((double)key[2] - cmin[2]) * scale));
}

/* The Morton code of triangle t on b's grid. */
CS_INLINE uint32_t bvh_code(const cs_BvhBuild *b, uint32_t t) {
  float key[3];
  bvh_tri_key(b->verts, b->tris, t, key);
  return bvh_morton(key, b->cmin, b->scale);
}

/* Puts the m kept triangles (skip[t] 0) in b->prims in the order of the
** Morton codes of their centroid keys (stable: ties by triangle), on the
** grid it sets in b. One pass over the triangles keeps their keys in
** scratch (16 m bytes) and bounds them; one over the keys makes the pairs
** (code << 32 | triangle) over them (pair j ends by byte 8 j + 8, before
** key j + 1 at 12 j + 12); then a radix sort of the pairs, its last pass
** writing prims. The codes are not kept: the splits make the few they
** need again (bvh_code). */
static void bvh_morton_sort(cs_BvhBuild *b, const uint8_t *skip, uint32_t ntris, uint32_t m,
                            uint64_t *scratch) {
  const double *verts = b->verts;
  const uint32_t *tris = b->tris;
  uint32_t *prims = b->prims;
  uint32_t hist[CS_BVH_RADIX_PASSES][CS_BVH_RADIX];
  uint64_t *x = scratch, *y = scratch + m;
  float *keys = (float *)(void *)scratch, klo[3], khi[3];
  double *clo = b->cmin, ext, scale;
  uint32_t i, j;
  int d, k;
  for (k = 0; k < 3; k++) {
    klo[k] = INFINITY;
    khi[k] = -INFINITY;
  }
  for (i = 0, j = 0; i < ntris; i++) {
    float *key = keys + 3 * (size_t)j;
    if (skip && skip[i]) continue;
    bvh_tri_key(verts, tris, i, key);
    for (k = 0; k < 3; k++) {
      klo[k] = key[k] < klo[k] ? key[k] : klo[k];
      khi[k] = key[k] > khi[k] ? key[k] : khi[k];
    }
    j++;
  }
  for (k = 0; k < 3; k++) clo[k] = klo[k];
  ext = (double)khi[0] - clo[0];
  if ((double)khi[1] - clo[1] > ext) ext = (double)khi[1] - clo[1];
  if ((double)khi[2] - clo[2] > ext) ext = (double)khi[2] - clo[2];
  /* ext 0 (one centroid), inf or NaN (keys overflowed): scale inf, 0 or
  ** NaN, every cell 0 or clamped; one code makes one SAH range */
  scale = b->scale = (double)(1u << CS_BVH_MORTON_AXIS_BITS) / ext;
  memset(hist, 0, sizeof hist);
  for (i = 0, j = 0; i < ntris; i++) {
    uint32_t code;
    if (skip && skip[i]) continue;
    code = bvh_morton(keys + 3 * (size_t)j, clo, scale);
    x[j++] = (uint64_t)code << 32 | i;
    for (d = 0; d < CS_BVH_RADIX_PASSES; d++)
      hist[d][(code >> (CS_BVH_RADIX_BITS * (unsigned)d)) & (CS_BVH_RADIX - 1)]++;
  }
  for (d = 0; d < CS_BVH_RADIX_PASSES; d++) {  /* counts to first positions */
    uint32_t *h = hist[d], sum = 0, c;
    for (k = 0; k < (int)CS_BVH_RADIX; k++) {
      c = h[k];
      h[k] = sum;
      sum += c;
    }
  }
  /* LSD, stable digit by digit: x -> y -> x ..., the last to prims */
  for (d = 0; d < CS_BVH_RADIX_PASSES; d++) {
    uint64_t *src = d % 2 ? y : x, *dst = d % 2 ? x : y;
    uint32_t *h = hist[d];
    unsigned shift = 32 + CS_BVH_RADIX_BITS * (unsigned)d;
    if (d < CS_BVH_RADIX_PASSES - 1) {
      for (i = 0; i < m; i++) {
        uint64_t p = src[i];
        dst[h[(p >> shift) & (CS_BVH_RADIX - 1)]++] = p;
      }
    } else {
      for (i = 0; i < m; i++) {
        uint64_t p = src[i];
        prims[h[(p >> shift) & (CS_BVH_RADIX - 1)]++] = (uint32_t)p;
      }
    }
  }
}

/* Writes the subtree over prims[begin, end) (sorted by code) at depth:
** split at the highest bit where the range's codes differ, the halves
** written depth first, their parent's bounds the union of theirs; a range
** of at most CS_BVH_LINEAR_MAX triangles or of one code is built by the
** binned SAH. Recursion: at most 22 calls deep (a split consumes a bit).
** Whatever the codes, every triangle ends in one leaf and every box bounds
** what it holds: they only choose the splits. Returns CS_OK or CS_ENOMEM. */
static cs_Status bvh_build_linear(cs_BvhBuild *b, uint32_t begin, uint32_t end,
                                  uint32_t depth, int side) {
  uint32_t diff, bit, lo, hi, id, right;
  cs_BvhNode *nd;
  cs_Status s;
  if (end - begin <= CS_BVH_LINEAR_MAX) return bvh_build_range(b, begin, end, depth, side);
  diff = bvh_code(b, b->prims[begin]) ^ bvh_code(b, b->prims[end - 1]);
  if (diff == 0) return bvh_build_range(b, begin, end, depth, side);
  for (bit = 1u << 31; !(diff & bit); bit >>= 1) {}
  /* the first code with that bit set: the codes share the bits above it */
  lo = begin + 1;           /* prims[begin]'s code has it clear, prims[end - 1]'s set */
  hi = end - 1;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (bvh_code(b, b->prims[mid]) & bit) hi = mid;
    else lo = mid + 1;
  }
  if ((s = bvh_node_new(b, &id)) != CS_OK) return s;
  if ((s = bvh_build_linear(b, begin, lo, depth + 1, 0)) != CS_OK) return s;
  right = b->count;
  if ((s = bvh_build_linear(b, lo, end, depth + 1, 1)) != CS_OK) return s;
  nd = b->nodes + id;       /* after the children: the nodes may have moved */
  bvh_node_union(nd, nd + 1, b->nodes + right);
  nd->index = right;
  nd->count = 0;
  return CS_OK;
}

/* Returns CS_OK with the tree in *bvh, CS_ENOMEM or CS_ETOOBIG (more than
** CS_MAX_TRIANGLES) with *bvh empty and nothing held. Three allocations and
** a realloc: the triangle list, the records of a range with the bins after
** them (freed here), and the nodes, reserved for m (most trees need about
** m / 2), grown if needed, then shrunk to fit. Up to CS_BVH_LINEAR_MAX
** triangles the records are all of them; above, the nodes' reserve first
** serves as the sort's scratch, and the records grow only for a range of
** one code larger than CS_BVH_LINEAR_MAX. */
cs_Status cs_bvh_build(cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                       const uint32_t *tris, const uint8_t *skip, uint32_t ntris) {
  cs_BvhNode *fit;
  cs_BvhBuild b;
  uint32_t m = 0, i, j;
  cs_Status s;
  int linear;
  memset(bvh, 0, sizeof *bvh);
  for (i = 0; i < ntris; i++) m += !(skip && skip[i]);
  if (m == 0) return CS_OK;
  if (m > CS_MAX_TRIANGLES) return CS_ETOOBIG;  /* the depth bound needs m <= 2^30 */
  linear = m > CS_BVH_LINEAR_MAX;
  memset(&b, 0, sizeof b);
  b.a = a;
  b.verts = verts;
  b.tris = tris;
  b.nrec = linear ? CS_BVH_LINEAR_MAX : m;
  b.cap = m;                /* >= 16 m bytes, the sort's scratch */
  b.most = 2 * (size_t)m - 1;
  b.prims = (uint32_t *)cs_malloc_array(a, m, sizeof *b.prims);
  if (b.prims)
    b.rec = (cs_BvhRec *)cs_malloc_array(a, b.nrec + CS_BVH_SLOT_RECS, sizeof *b.rec);
  if (b.rec) b.nodes = (cs_BvhNode *)cs_malloc_array(a, b.cap, sizeof *b.nodes);
  if (b.nodes) {
    b.slots = (cs_BvhBins *)(void *)(b.rec + b.nrec);
    if (linear) {
      bvh_morton_sort(&b, skip, ntris, m, (uint64_t *)(void *)b.nodes);
    } else {
      for (i = 0, j = 0; i < ntris; i++)
        if (!(skip && skip[i])) b.prims[j++] = i;
    }
    s = bvh_build_linear(&b, 0, m, 0, 0);
    if (s == CS_OK && b.count < b.cap) {  /* give back the reserve */
      fit = (cs_BvhNode *)cs_realloc(a, b.nodes, b.cap * sizeof *fit, b.count * sizeof *fit);
      if (fit) { b.nodes = fit; b.cap = b.count; }
      else s = CS_ENOMEM;
    }
  } else {
    s = CS_ENOMEM;
  }
  cs_free(a, b.rec, (b.nrec + CS_BVH_SLOT_RECS) * sizeof *b.rec);
  if (s != CS_OK) {
    cs_free(a, b.nodes, b.cap * sizeof *b.nodes);
    cs_free(a, b.prims, m * sizeof *b.prims);
    return s;
  }
  bvh->nodes = b.nodes;
  bvh->prims = b.prims;
  bvh->node_count = b.count;
  bvh->prim_count = m;
  return CS_OK;
}

/* Frees what the tree holds and leaves it empty (safe to call twice). */
void cs_bvh_free(cs_Bvh *bvh, const cs_Alloc *a) {
  cs_free(a, bvh->nodes, (size_t)bvh->node_count * sizeof *bvh->nodes);
  cs_free(a, bvh->prims, (size_t)bvh->prim_count * sizeof *bvh->prims);
  if (bvh->parent) cs_free(a, bvh->parent, (size_t)bvh->node_count * sizeof *bvh->parent);
  if (bvh->leaf_of) cs_free(a, bvh->leaf_of, (size_t)bvh->leaf_of_count * sizeof *bvh->leaf_of);
  memset(bvh, 0, sizeof *bvh);
}

/* Returns the bytes the tree holds: its nodes and its triangle list (and
** the maps of cs_bvh_refit_some, once made). */
size_t cs_bvh_memory(const cs_Bvh *bvh) {
  return (size_t)bvh->node_count * sizeof *bvh->nodes
       + (size_t)bvh->prim_count * sizeof *bvh->prims
       + (bvh->parent ? (size_t)bvh->node_count * sizeof *bvh->parent : 0)
       + (bvh->leaf_of ? (size_t)bvh->leaf_of_count * sizeof *bvh->leaf_of : 0);
}

/* Recomputes every node's bounds from the moved vertices, keeping the shape.
** Children come after their parent (left = parent + 1, right > parent), so
** one backward pass sees both children of a node before the node. */
void cs_bvh_refit(cs_Bvh *bvh, const double *verts, const uint32_t *tris) {
  uint32_t i = bvh->node_count;
  while (i-- > 0) {
    cs_BvhNode *n = bvh->nodes + i;
    if (n->count) {
      bvh_leaf_box(verts, tris, bvh->prims + n->index, n->count, n->lo, n->hi);
    } else {
      bvh_node_union(n, n + 1, bvh->nodes + n->index);
    }
  }
}

/* The maps of cs_bvh_refit_some: each node's parent, each triangle's leaf. */
static cs_Status bvh_make_maps(cs_Bvh *bvh, const cs_Alloc *a, uint32_t ntris) {
  uint32_t i, j;
  bvh->parent = cs_malloc_array(a, bvh->node_count, sizeof *bvh->parent);
  bvh->leaf_of = cs_malloc_array(a, ntris, sizeof *bvh->leaf_of);
  if (!bvh->parent || !bvh->leaf_of) {
    if (bvh->parent) cs_free(a, bvh->parent, (size_t)bvh->node_count * sizeof *bvh->parent);
    if (bvh->leaf_of) cs_free(a, bvh->leaf_of, (size_t)ntris * sizeof *bvh->leaf_of);
    bvh->parent = bvh->leaf_of = NULL;
    return CS_ENOMEM;
  }
  bvh->leaf_of_count = ntris;
  for (i = 0; i < ntris; i++) bvh->leaf_of[i] = UINT32_MAX;
  if (bvh->node_count) bvh->parent[0] = UINT32_MAX;
  for (i = 0; i < bvh->node_count; i++) {
    const cs_BvhNode *n = bvh->nodes + i;
    if (n->count == 0) {
      bvh->parent[i + 1] = i;
      bvh->parent[n->index] = i;
    } else {
      for (j = 0; j < n->count; j++) bvh->leaf_of[bvh->prims[n->index + j]] = i;
    }
  }
  return CS_OK;
}

CS_INLINE int same_bounds(const float lo[3], const float hi[3], const cs_BvhNode *n) {
  return lo[0] == n->lo[0] && lo[1] == n->lo[1] && lo[2] == n->lo[2] &&
         hi[0] == n->hi[0] && hi[1] == n->hi[1] && hi[2] == n->hi[2];
}

/* A vertex edit of a 980,000-triangle terrain refitted every node: 36 ms a
** frame for one vertex (found by an independent tester). Each edited
** triangle's leaf, then its ancestors up to the first left as it was. */
cs_Status cs_bvh_refit_some(cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                            const uint32_t *tris, uint32_t ntris, const uint32_t *ids, size_t n) {
  size_t k;
  if (!bvh->parent) {
    cs_Status s = bvh_make_maps(bvh, a, ntris);
    if (s != CS_OK) return s;
  }
  for (k = 0; k < n; k++) {
    uint32_t id = ids[k] < bvh->leaf_of_count ? bvh->leaf_of[ids[k]] : UINT32_MAX;
    while (id != UINT32_MAX) {
      cs_BvhNode *nd = bvh->nodes + id;
      float lo[3], hi[3];
      memcpy(lo, nd->lo, sizeof lo);
      memcpy(hi, nd->hi, sizeof hi);
      if (nd->count) bvh_leaf_box(verts, tris, bvh->prims + nd->index, nd->count, nd->lo, nd->hi);
      else bvh_node_union(nd, nd + 1, bvh->nodes + nd->index);
      if (same_bounds(lo, hi, nd)) break;
      id = bvh->parent[id];
    }
  }
  return CS_OK;
}

/* Returns 1 and the root's bounds (conservative for every triangle in the
** tree), or 0 when the tree is empty. */
int cs_bvh_bounds(const cs_Bvh *bvh, cs_Vec3 *lo, cs_Vec3 *hi) {
  const cs_BvhNode *n = bvh->nodes;
  if (bvh->node_count == 0) return 0;
  *lo = v3(n->lo[0], n->lo[1], n->lo[2]);
  *hi = v3(n->hi[0], n->hi[1], n->hi[2]);
  return 1;
}

/* }================================================================== */


/* {==================================================================
** Walks
** ===================================================================*/

/* The segment o + s d, s in [0, 1], of a box query along a sweep
** (cs_bvh_query_segment), with the boxes it meets grown by pad[k] along k. */
typedef struct cs_BvhSeg {
  double o[3], d[3], inv[3], pad[3];
} cs_BvhSeg;

/* Does the segment meet the box [lo - pad, hi + pad]? Slab test (Kay and
** Kajiya 1986), an axis the segment does not move along by its origin;
** widened by CS_BVH_SLACK: it may accept a near miss, never reject a hit. */
static int bvh_seg_box(const cs_BvhSeg *g, const double lo[3], const double hi[3]) {
  double tn = 0, tf = 1, a, b;
  int k;
  for (k = 0; k < 3; k++) {
    double l = lo[k] - g->pad[k], h = hi[k] + g->pad[k];
    if (g->d[k] == 0 || !isfinite(g->inv[k])) {
      double m = fabs(g->d[k]);
      if (g->o[k] + m < l || g->o[k] - m > h) return 0;
      continue;
    }
    a = (l - g->o[k]) * g->inv[k];
    b = (h - g->o[k]) * g->inv[k];
    if (a > b) { double s = a; a = b; b = s; }
    if (a > tn) tn = a;
    if (b < tf) tf = b;
  }
  return tn * (1 - CS_BVH_SLACK) <= tf * (1 + CS_BVH_SLACK) + CS_BVH_SLACK;
}

/* Appends to out every triangle whose own double bounds meet [lo, hi]
** (inclusive) and, with a segment g, whose bounds grown by g->pad it meets;
** CS_ENOMEM when out cannot grow (it keeps what it got). Inlined into the
** queries, so the box query pays nothing for the segment's test. With a
** cursor c, the walk stops after the leaf that brings out to max entries
** and the next call goes on from there (c->sp 0: the walk is done). */
CS_ALWAYS_INLINE cs_Status query_walk(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                                      const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi,
                                      const cs_BvhSeg *g, cs_U32Buf *out, cs_BvhCursor *c,
                                      size_t max) {
  uint32_t own[CS_BVH_STACK + 1], *stack = c ? c->stack : own;
  double ql[3], qh[3], tl[3], th[3], nl[3], nh[3];
  int sp = 0, k;
  if (c) {
    if (c->sp < 0) { c->sp = 0; if (bvh->node_count) stack[sp++] = 0; }
    else sp = c->sp;
  } else {
    if (bvh->node_count == 0) return CS_OK;
    stack[sp++] = 0;
  }
  ql[0] = lo.x; ql[1] = lo.y; ql[2] = lo.z;
  qh[0] = hi.x; qh[1] = hi.y; qh[2] = hi.z;
  while (sp > 0) {
    uint32_t id = stack[--sp], i;
    const cs_BvhNode *n = bvh->nodes + id;
    if (n->lo[0] > qh[0] || n->hi[0] < ql[0] || n->lo[1] > qh[1] || n->hi[1] < ql[1]
        || n->lo[2] > qh[2] || n->hi[2] < ql[2])
      continue;
    if (g) {
      for (k = 0; k < 3; k++) { nl[k] = n->lo[k]; nh[k] = n->hi[k]; }
      if (!bvh_seg_box(g, nl, nh)) continue;
    }
    if (n->count == 0) {    /* at most one pending sibling per level, plus these */
      stack[sp++] = n->index;
      stack[sp++] = id + 1;
      continue;
    }
    for (i = 0; i < n->count; i++) {
      uint32_t t = bvh->prims[n->index + i];
      bvh_tri_box(verts, tris, t, tl, th);
      for (k = 0; k < 3; k++)
        if (tl[k] > qh[k] || th[k] < ql[k]) break;
      if (k == 3 && (!g || bvh_seg_box(g, tl, th))) {
        cs_Status s = cs_u32buf_push(a, out, t);
        if (s != CS_OK) { if (c) c->sp = 0; return s; }
      }
    }
    if (c && out->count >= max) break;
  }
  if (c) c->sp = sp;
  return CS_OK;
}

cs_Status cs_bvh_query_box(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                           const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_U32Buf *out) {
  return query_walk(bvh, a, verts, tris, lo, hi, NULL, out, NULL, 0);
}

/* The box query a part at a time: a query's callback that stops early ends
** the walk there (queryBox over a 980,000-triangle terrain stopped at its
** first triangle took 10 ms, the whole box gathered first: found by an
** independent tester). */
cs_Status cs_bvh_query_box_some(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                                const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_BvhCursor *c,
                                size_t max, cs_U32Buf *out) {
  return query_walk(bvh, a, verts, tris, lo, hi, NULL, out, c, max);
}

/* The box query keeping only the triangles along a segment: the gather of
** a sweep along it (the box of a long diagonal sweep holds far more than
** its path; an independent tester's 100 m sweep over a field of rocks took
** 18 ms, its hit 0.27 m away), and a sensor's crossings. */
cs_Status cs_bvh_query_segment(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                               const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 o,
                               cs_Vec3 d, cs_Vec3 pad, cs_U32Buf *out) {
  cs_BvhSeg g;
  int k;
  g.o[0] = o.x; g.o[1] = o.y; g.o[2] = o.z;
  g.d[0] = d.x; g.d[1] = d.y; g.d[2] = d.z;
  g.pad[0] = pad.x; g.pad[1] = pad.y; g.pad[2] = pad.z;
  for (k = 0; k < 3; k++) g.inv[k] = 1.0 / g.d[k];
  return query_walk(bvh, a, verts, tris, lo, hi, &g, out, NULL, 0);
}

/* A node the walk will come back to: its entry (ray) or distance (point). */
typedef struct cs_BvhEntry {
  uint32_t node;
  double key;
} cs_BvhEntry;

/* The segment of a raycast, ready for slab tests. */
typedef struct cs_BvhRay {
  double o[3], inv[3];
  double reach[3];        /* flat axes: how far the whole segment moves along it */
  double pad;             /* the boxes grown by this on every side */
  int flat[3];            /* d[k] is 0 (or 1 / d[k] overflows): no slab there */
} cs_BvhRay;

/* Returns 1 and the entry parameter *entry when the segment, s in
** [0, tmax], meets n's box; 0 when it misses. Slab test (Kay and Kajiya
** 1986); a flat axis compares the origin instead, so 0 * inf never makes a
** NaN. Widened by CS_BVH_SLACK: it may accept a near miss, never reject a hit. */
static int bvh_ray_box(const cs_BvhRay *r, const cs_BvhNode *n, double tmax, double *entry) {
  double tn = 0, tf = tmax, a, b;
  int k;
  for (k = 0; k < 3; k++) {
    double lo = (double)n->lo[k] - r->pad, hi = (double)n->hi[k] + r->pad;
    if (r->flat[k]) {
      if (r->o[k] + r->reach[k] < lo || r->o[k] - r->reach[k] > hi) return 0;
      continue;
    }
    a = (lo - r->o[k]) * r->inv[k];
    b = (hi - r->o[k]) * r->inv[k];
    if (a > b) { double s = a; a = b; b = s; }
    if (a > tn) tn = a;
    if (b < tf) tf = b;
  }
  *entry = tn;
  return tn * (1 - CS_BVH_SLACK) <= tf * (1 + CS_BVH_SLACK);  /* tf < 0: behind */
}

/* Calls fn for each triangle of each leaf whose box the segment o + s d,
** s in [0, tmax], meets, nearer boxes first; skips boxes entered beyond the
** tmax fn has lowered; returns when fn returns 0 or the boxes run out. */
void cs_bvh_raycast(const cs_Bvh *bvh, cs_Vec3 o, cs_Vec3 d, double tmax, double pad,
                    cs_BvhRayFn fn, void *ud) {
  cs_BvhEntry stack[CS_BVH_STACK];
  cs_BvhRay ray;
  double dd[3], tl, tr;
  uint32_t id = 0, i;
  int sp = 0, k;
  if (bvh->node_count == 0 || !(tmax >= 0)) return;
  ray.o[0] = o.x; ray.o[1] = o.y; ray.o[2] = o.z;
  ray.pad = pad;
  dd[0] = d.x; dd[1] = d.y; dd[2] = d.z;
  for (k = 0; k < 3; k++) {
    ray.inv[k] = 1.0 / dd[k];
    ray.flat[k] = !isfinite(ray.inv[k]);
    ray.reach[k] = dd[k] == 0 ? 0 : fabs(dd[k]) * tmax;   /* not 0 * inf */
  }
  if (!bvh_ray_box(&ray, bvh->nodes, tmax, &tl)) return;
  for (;;) {
    const cs_BvhNode *n = bvh->nodes + id;
    cs_BvhEntry e;
    if (n->count == 0) {    /* the nearer child now, the farther one later */
      int hl = bvh_ray_box(&ray, n + 1, tmax, &tl);
      int hr = bvh_ray_box(&ray, bvh->nodes + n->index, tmax, &tr);
      if (hl && hr) {
        if (tl <= tr) { e.node = n->index; e.key = tr; id = id + 1; }
        else { e.node = id + 1; e.key = tl; id = n->index; }
        stack[sp++] = e;
        continue;
      }
      if (hl || hr) {
        id = hl ? id + 1 : n->index;
        continue;
      }
    } else {
      for (i = 0; i < n->count; i++)
        if (!fn(ud, bvh->prims[n->index + i], &tmax)) return;
    }
    do {                    /* fn may have lowered tmax below a pending entry */
      if (sp == 0) return;
      e = stack[--sp];
    } while (e.key * (1 - CS_BVH_SLACK) > tmax);
    id = e.node;
  }
}

/* Returns a lower bound of the squared distance from p to n's box (0 inside),
** shrunk by CS_BVH_SLACK against the rounding of the squares and the sum. */
static double bvh_box_d2(const cs_BvhNode *n, const double p[3]) {
  double d2 = 0, g;
  int k;
  for (k = 0; k < 3; k++) {
    if (p[k] < n->lo[k]) g = n->lo[k] - p[k];
    else if (p[k] > n->hi[k]) g = p[k] - n->hi[k];
    else continue;
    d2 += g * g;
  }
  return d2 * (1 - CS_BVH_SLACK);
}

/* Calls fn for each triangle of each leaf whose box lies within
** sqrt(max_d2) of p (max_d2 as fn lowers it), nearer boxes first (depth
** first: the nearer child, then the farther one if still close enough);
** returns when fn returns 0 or the boxes run out. */
void cs_bvh_closest(const cs_Bvh *bvh, cs_Vec3 p, double max_d2, cs_BvhPointFn fn, void *ud) {
  cs_BvhEntry stack[CS_BVH_STACK];
  double pp[3], dl, dr;
  uint32_t id = 0, i;
  int sp = 0;
  if (bvh->node_count == 0 || !(max_d2 >= 0)) return;
  pp[0] = p.x; pp[1] = p.y; pp[2] = p.z;
  if (bvh_box_d2(bvh->nodes, pp) > max_d2) return;
  for (;;) {
    const cs_BvhNode *n = bvh->nodes + id;
    cs_BvhEntry e;
    if (n->count == 0) {    /* the nearer child now, the farther one later */
      int hl, hr;
      dl = bvh_box_d2(n + 1, pp);
      dr = bvh_box_d2(bvh->nodes + n->index, pp);
      hl = dl <= max_d2;
      hr = dr <= max_d2;
      if (hl && hr) {
        if (dl <= dr) { e.node = n->index; e.key = dr; id = id + 1; }
        else { e.node = id + 1; e.key = dl; id = n->index; }
        stack[sp++] = e;
        continue;
      }
      if (hl || hr) {
        id = hl ? id + 1 : n->index;
        continue;
      }
    } else {
      for (i = 0; i < n->count; i++)
        if (!fn(ud, bvh->prims[n->index + i], &max_d2)) return;
    }
    do {                    /* fn may have lowered max_d2 below a pending box */
      if (sp == 0) return;
      e = stack[--sp];
    } while (e.key > max_d2);
    id = e.node;
  }
}

/* }================================================================== */
