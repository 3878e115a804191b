/*
** cs_bvh.c: the triangle tree: binned SAH build (Wald 2007, "On fast
** construction of SAH-based bounding volume hierarchies"), refit, and the
** walks by box, segment and nearest point. Only this file knows cs_BvhNode.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cs_bvh.h"

#define CS_BVH_BINS     12    /* SAH bins along the widest centroid axis */
#define CS_BVH_LEAF     4     /* a node of at most this many triangles is a leaf */
#define CS_BVH_LEAF_SAH 8     /* up to this many, a leaf when the SAH finds it cheaper */
#define CS_BVH_COST_BOX 1.0f  /* SAH: one node visit, in triangle tests */
/* From this depth on every split is a median split, so 2^30 triangles
** (CS_MAX_TRIANGLES) end in leaves of <= 4 by depth 32 + 28 = 60. */
#define CS_BVH_MEDIAN_DEPTH 32
#define CS_BVH_STACK    64    /* build and walks: more than the deepest leaf */
/* Relative slack of the walks' box tests: a subtraction, a reciprocal and a
** product (or a square and a sum) each round by half an ulp, so widening by
** 8 ulps never prunes a box that exact arithmetic would touch. */
#define CS_BVH_SLACK    (8 * DBL_EPSILON)
#define CS_BVH_NONE     UINT32_MAX


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

/* Makes [lo, hi] the empty box (it grows to the first box added). */
static void bvh_box_empty(float lo[3], float hi[3]) {
  lo[0] = lo[1] = lo[2] = INFINITY;
  hi[0] = hi[1] = hi[2] = -INFINITY;
}

/* Grows [lo, hi] to hold [blo, bhi]. */
CS_INLINE void bvh_box_grow(float lo[3], float hi[3], const float blo[3], const float bhi[3]) {
  /* unrolled, unconditional stores: the build's inner loops (minss, maxss) */
  lo[0] = blo[0] < lo[0] ? blo[0] : lo[0];
  lo[1] = blo[1] < lo[1] ? blo[1] : lo[1];
  lo[2] = blo[2] < lo[2] ? blo[2] : lo[2];
  hi[0] = bhi[0] > hi[0] ? bhi[0] : hi[0];
  hi[1] = bhi[1] > hi[1] ? bhi[1] : hi[1];
  hi[2] = bhi[2] > hi[2] ? bhi[2] : hi[2];
}

/* Half the surface area of a non-empty box: the SAH's measure. */
static float bvh_box_area(const float lo[3], const float hi[3]) {
  float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
  return dx * dy + dy * dz + dz * dx;
}

/* }================================================================== */


/* {==================================================================
** Build
** ===================================================================*/

/* One triangle while building: 32 bytes, moved as a whole by partitions. */
typedef struct cs_BvhRec {
  float lo[3], hi[3];     /* the triangle's bounds, rounded outward */
  uint32_t tri;
  uint32_t bin;           /* its bin in the current split */
} cs_BvhRec;

/* A node waiting to be written. */
typedef struct cs_BvhTask {
  uint32_t begin, end;    /* its records */
  uint32_t parent;        /* a right child: the node whose index names it */
  uint32_t depth;
  float lo[3], hi[3];     /* bounds of its records */
  float clo[3], chi[3];   /* bounds of their centroid keys */
} cs_BvhTask;

typedef struct cs_BvhBin {
  float lo[3], hi[3];
  uint32_t count;
} cs_BvhBin;

/* The centroid key of r on axis k: lo + hi, twice the centre (the halving
** would change nothing but the cost). */
CS_INLINE float bvh_key(const cs_BvhRec *r, int k) {
  return r->lo[k] + r->hi[k];
}

/* Grows the centroid bounds [clo, chi] to hold r's keys. */
CS_INLINE void bvh_key_grow(float clo[3], float chi[3], const cs_BvhRec *r) {
  float c0 = bvh_key(r, 0), c1 = bvh_key(r, 1), c2 = bvh_key(r, 2);
  clo[0] = c0 < clo[0] ? c0 : clo[0];
  clo[1] = c1 < clo[1] ? c1 : clo[1];
  clo[2] = c2 < clo[2] ? c2 : clo[2];
  chi[0] = c0 > chi[0] ? c0 : chi[0];
  chi[1] = c1 > chi[1] ? c1 : chi[1];
  chi[2] = c2 > chi[2] ? c2 : chi[2];
}

/* The bin of key c: 0 .. nb - 1, also for NaN and infinities. */
CS_INLINE uint32_t bvh_bin(float c, float cmin, float scale, int nb) {
  float f = (c - cmin) * scale;
  if (!(f > 0)) return 0;
  return f < (float)nb ? (uint32_t)f : (uint32_t)nb - 1;
}

/* Fills t's bounds and centroid bounds from its records. */
static void bvh_task_bounds(const cs_BvhRec *rec, cs_BvhTask *t) {
  uint32_t i;
  bvh_box_empty(t->lo, t->hi);
  bvh_box_empty(t->clo, t->chi);
  for (i = t->begin; i < t->end; i++) {
    bvh_box_grow(t->lo, t->hi, rec[i].lo, rec[i].hi);
    bvh_key_grow(t->clo, t->chi, rec + i);
  }
}

/* Returns 1 after making l and r the two halves of t's records, split at mid. */
static int bvh_split_at(const cs_BvhRec *rec, const cs_BvhTask *t, uint32_t mid,
                        cs_BvhTask *l, cs_BvhTask *r) {
  l->begin = t->begin; l->end = mid;
  r->begin = mid; r->end = t->end;
  l->depth = r->depth = t->depth + 1;
  l->parent = r->parent = CS_BVH_NONE;
  bvh_task_bounds(rec, l);
  bvh_task_bounds(rec, r);
  return 1;
}

/* Swaps records i and j. */
CS_INLINE void bvh_swap(cs_BvhRec *rec, uint32_t i, uint32_t j) {
  cs_BvhRec tmp = rec[i];
  rec[i] = rec[j];
  rec[j] = tmp;
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
      if (c < p) bvh_swap(rec, lt++, i++);
      else if (c > p) bvh_swap(rec, i, --gt);
      else i++;             /* equal, or NaN */
    }
    if (k < lt) hi = lt;
    else if (k >= gt) lo = gt;
    else return;
  }
}

/* Moves the records of rec[begin, end) whose bin is <= split before the
** others (Hoare: only misplaced pairs swap) and gathers each side's centroid
** bounds into l and r; returns the first record of the right side. */
static uint32_t bvh_partition(cs_BvhRec *rec, uint32_t begin, uint32_t end, uint32_t split,
                              cs_BvhTask *l, cs_BvhTask *r) {
  float llo[3], lhi[3], rlo[3], rhi[3];   /* locals, so they stay in registers */
  uint32_t i = begin, j = end;
  bvh_box_empty(llo, lhi);
  bvh_box_empty(rlo, rhi);
  for (;;) {
    while (i < j && rec[i].bin <= split) bvh_key_grow(llo, lhi, rec + i++);
    while (i < j && rec[j - 1].bin > split) bvh_key_grow(rlo, rhi, rec + --j);
    if (i >= j) break;
    bvh_swap(rec, i, j - 1);
    bvh_key_grow(llo, lhi, rec + i++);
    bvh_key_grow(rlo, rhi, rec + --j);
  }
  memcpy(l->clo, llo, sizeof llo); memcpy(l->chi, lhi, sizeof lhi);
  memcpy(r->clo, rlo, sizeof rlo); memcpy(r->chi, rhi, sizeof rhi);
  return i;
}

/* Splits t's records in two by the binned SAH (reordering them) and fills
** the children's tasks l and r; returns 0 when t should be a leaf. */
static int bvh_split(cs_BvhRec *rec, const cs_BvhTask *t, cs_BvhTask *l, cs_BvhTask *r) {
  cs_BvhBin bins[CS_BVH_BINS];
  float rarea[CS_BVH_BINS], lo[3], hi[3], ext, cmin, scale, cost, best_cost = 0, area;
  uint32_t rcount[CS_BVH_BINS], n = t->end - t->begin, i, cnt;
  int axis = 0, k, best = -1, nb = n < CS_BVH_BINS ? (int)n : CS_BVH_BINS;
  if (t->chi[1] - t->clo[1] > t->chi[axis] - t->clo[axis]) axis = 1;
  if (t->chi[2] - t->clo[2] > t->chi[axis] - t->clo[axis]) axis = 2;
  ext = t->chi[axis] - t->clo[axis];
  if (!(ext > 0)) {         /* every centroid coincides: no plane parts them */
    if (n <= CS_BVH_LEAF_SAH) return 0;
    return bvh_split_at(rec, t, t->begin + n / 2, l, r);
  }
  if (t->depth >= CS_BVH_MEDIAN_DEPTH) {  /* bound the depth, whatever the SAH says */
    bvh_select(rec, t->begin, t->end, t->begin + n / 2, axis);
    return bvh_split_at(rec, t, t->begin + n / 2, l, r);
  }
  cmin = t->clo[axis];
  scale = (float)nb / ext;  /* bvh_bin clamps the top key */
  for (k = 0; k < nb; k++) {
    bvh_box_empty(bins[k].lo, bins[k].hi);
    bins[k].count = 0;
  }
  for (i = t->begin; i < t->end; i++) {
    cs_BvhRec *p = rec + i;
    cs_BvhBin *b = bins + (p->bin = bvh_bin(bvh_key(p, axis), cmin, scale, nb));
    b->count++;
    bvh_box_grow(b->lo, b->hi, p->lo, p->hi);
  }
  /* The cost of a split after bin k is A_l N_l + A_r N_r (the constant
  ** factors of the SAH dropped): sweep from the right, then from the left. */
  bvh_box_empty(lo, hi);
  cnt = 0;
  for (k = nb - 1; k > 0; k--) {
    bvh_box_grow(lo, hi, bins[k].lo, bins[k].hi);
    cnt += bins[k].count;
    rcount[k] = cnt;
    rarea[k] = cnt ? bvh_box_area(lo, hi) : 0;
  }
  bvh_box_empty(lo, hi);
  cnt = 0;
  for (k = 0; k < nb - 1; k++) {
    bvh_box_grow(lo, hi, bins[k].lo, bins[k].hi);
    cnt += bins[k].count;
    if (cnt == 0 || rcount[k + 1] == 0) continue;
    cost = bvh_box_area(lo, hi) * (float)cnt + rarea[k + 1] * (float)rcount[k + 1];
    if (best < 0 || cost < best_cost) { best = k; best_cost = cost; }
  }
  if (best < 0) {           /* every key in one bin (only through rounding) */
    if (n <= CS_BVH_LEAF_SAH) return 0;
    return bvh_split_at(rec, t, t->begin + n / 2, l, r);
  }
  /* leaf cost N A against split cost C_box A + A_l N_l + A_r N_r */
  area = bvh_box_area(t->lo, t->hi);
  if (n <= CS_BVH_LEAF_SAH && (float)n * area <= CS_BVH_COST_BOX * area + best_cost)
    return 0;
  i = bvh_partition(rec, t->begin, t->end, (uint32_t)best, l, r);
  CS_ASSERT(i > t->begin && i < t->end);
  l->begin = t->begin; l->end = i;
  r->begin = i; r->end = t->end;
  l->depth = r->depth = t->depth + 1;
  l->parent = r->parent = CS_BVH_NONE;
  bvh_box_empty(l->lo, l->hi);
  bvh_box_empty(r->lo, r->hi);
  for (k = 0; k < nb; k++) {
    if (k <= best) bvh_box_grow(l->lo, l->hi, bins[k].lo, bins[k].hi);
    else bvh_box_grow(r->lo, r->hi, bins[k].lo, bins[k].hi);
  }
  return 1;
}

/* Writes the tree over the records of *root into *nodes (capacity *cap
** nodes, grown up to the 2m - 1 a binary tree with m leaves may need), depth
** first: a left child right after its parent. Returns CS_OK and the count in
** *count, or CS_ENOMEM (*nodes stays valid, *cap its size). */
static cs_Status bvh_build_nodes(const cs_Alloc *a, cs_BvhRec *rec, const cs_BvhTask *root,
                                 cs_BvhNode **nodes, size_t *cap, uint32_t *count) {
  cs_BvhTask stack[CS_BVH_STACK], t = *root, l, r;
  size_t most = 2 * (size_t)root->end - 1;
  uint32_t n = 0;
  int sp = 0;
  for (;;) {
    uint32_t id = n++;
    cs_BvhNode *nd;
    CS_ASSERT(id < most);
    if (id == *cap) {       /* rare: leaves averaging under 2 triangles */
      size_t ncap = *cap * 2 < most ? *cap * 2 : most;
      nd = (cs_BvhNode *)cs_realloc(a, *nodes, *cap * sizeof *nd, ncap * sizeof *nd);
      if (!nd) return CS_ENOMEM;
      *nodes = nd;
      *cap = ncap;
    }
    nd = *nodes + id;
    memcpy(nd->lo, t.lo, sizeof nd->lo);
    memcpy(nd->hi, t.hi, sizeof nd->hi);
    if (t.parent != CS_BVH_NONE) (*nodes)[t.parent].index = id;
    if (t.end - t.begin > CS_BVH_LEAF && sp < CS_BVH_STACK && bvh_split(rec, &t, &l, &r)) {
      nd->index = 0;        /* set when the right child is written */
      nd->count = 0;
      r.parent = id;
      stack[sp++] = r;
      t = l;
    } else {
      nd->index = t.begin;
      nd->count = t.end - t.begin;
      if (sp == 0) break;
      t = stack[--sp];
    }
  }
  *count = n;
  return CS_OK;
}

/* Returns CS_OK with the tree in *bvh, CS_ENOMEM or CS_ETOOBIG (more than
** CS_MAX_TRIANGLES) with *bvh empty and nothing held. Three allocations and
** a realloc: the triangle list, the build records (freed here), and the
** nodes, reserved for m (most trees need about m / 2), grown if needed, then
** shrunk to fit. */
cs_Status cs_bvh_build(cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                       const uint32_t *tris, const uint8_t *skip, uint32_t ntris) {
  cs_BvhRec *rec = NULL;
  cs_BvhNode *nodes = NULL, *fit;
  uint32_t *prims, m = 0, i, j, count = 0;
  size_t cap;
  cs_BvhTask root;
  cs_Status s;
  int k;
  memset(bvh, 0, sizeof *bvh);
  for (i = 0; i < ntris; i++) m += !(skip && skip[i]);
  if (m == 0) return CS_OK;
  if (m > CS_MAX_TRIANGLES) return CS_ETOOBIG;  /* the depth bound needs m <= 2^30 */
  cap = m;
  prims = (uint32_t *)cs_malloc_array(a, m, sizeof *prims);
  if (prims) rec = (cs_BvhRec *)cs_malloc_array(a, m, sizeof *rec);
  if (rec) nodes = (cs_BvhNode *)cs_malloc_array(a, cap, sizeof *nodes);
  if (!nodes) {
    cs_free(a, rec, m * sizeof *rec);
    cs_free(a, prims, m * sizeof *prims);
    return CS_ENOMEM;
  }
  root.begin = 0; root.end = m;
  root.parent = CS_BVH_NONE;
  root.depth = 0;
  bvh_box_empty(root.lo, root.hi);
  bvh_box_empty(root.clo, root.chi);
  for (i = 0, j = 0; i < ntris; i++) {
    double lo[3], hi[3];
    cs_BvhRec *p = rec + j;
    if (skip && skip[i]) continue;
    bvh_tri_box(verts, tris, i, lo, hi);
    for (k = 0; k < 3; k++) {
      p->lo[k] = bvh_down(lo[k]);
      p->hi[k] = bvh_up(hi[k]);
    }
    p->tri = i;
    p->bin = 0;
    bvh_box_grow(root.lo, root.hi, p->lo, p->hi);
    bvh_key_grow(root.clo, root.chi, p);
    j++;
  }
  s = bvh_build_nodes(a, rec, &root, &nodes, &cap, &count);
  for (i = 0; i < m; i++) prims[i] = rec[i].tri;
  cs_free(a, rec, m * sizeof *rec);
  if (s == CS_OK && count < cap) {  /* give back the reserve */
    fit = (cs_BvhNode *)cs_realloc(a, nodes, cap * sizeof *nodes, count * sizeof *nodes);
    if (fit) { nodes = fit; cap = count; }
    else s = CS_ENOMEM;
  }
  if (s != CS_OK) {
    cs_free(a, nodes, cap * sizeof *nodes);
    cs_free(a, prims, m * sizeof *prims);
    return s;
  }
  bvh->nodes = nodes;
  bvh->prims = prims;
  bvh->node_count = count;
  bvh->prim_count = m;
  return CS_OK;
}

/* Frees what the tree holds and leaves it empty (safe to call twice). */
void cs_bvh_free(cs_Bvh *bvh, const cs_Alloc *a) {
  cs_free(a, bvh->nodes, (size_t)bvh->node_count * sizeof *bvh->nodes);
  cs_free(a, bvh->prims, (size_t)bvh->prim_count * sizeof *bvh->prims);
  memset(bvh, 0, sizeof *bvh);
}

/* Returns the bytes the tree holds: its nodes and its triangle list. */
size_t cs_bvh_memory(const cs_Bvh *bvh) {
  return (size_t)bvh->node_count * sizeof *bvh->nodes
       + (size_t)bvh->prim_count * sizeof *bvh->prims;
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
      const cs_BvhNode *l = n + 1, *r = bvh->nodes + n->index;
      int k;
      for (k = 0; k < 3; k++) {
        n->lo[k] = l->lo[k] < r->lo[k] ? l->lo[k] : r->lo[k];
        n->hi[k] = l->hi[k] > r->hi[k] ? l->hi[k] : r->hi[k];
      }
    }
  }
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

/* Returns CS_OK after appending to out every triangle whose own double
** bounds meet [lo, hi] (inclusive), or CS_ENOMEM (out keeps what it got). */
cs_Status cs_bvh_query_box(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                           const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_U32Buf *out) {
  uint32_t stack[CS_BVH_STACK + 1];
  double ql[3], qh[3], tl[3], th[3];
  int sp = 0, k;
  if (bvh->node_count == 0) return CS_OK;
  ql[0] = lo.x; ql[1] = lo.y; ql[2] = lo.z;
  qh[0] = hi.x; qh[1] = hi.y; qh[2] = hi.z;
  stack[sp++] = 0;
  while (sp > 0) {
    uint32_t id = stack[--sp], i;
    const cs_BvhNode *n = bvh->nodes + id;
    if (n->lo[0] > qh[0] || n->hi[0] < ql[0] || n->lo[1] > qh[1] || n->hi[1] < ql[1]
        || n->lo[2] > qh[2] || n->hi[2] < ql[2])
      continue;
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
      if (k == 3) {
        cs_Status s = cs_u32buf_push(a, out, t);
        if (s != CS_OK) return s;
      }
    }
  }
  return CS_OK;
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
    if (r->flat[k]) {
      if (r->o[k] + r->reach[k] < n->lo[k] || r->o[k] - r->reach[k] > n->hi[k]) return 0;
      continue;
    }
    a = ((double)n->lo[k] - r->o[k]) * r->inv[k];
    b = ((double)n->hi[k] - r->o[k]) * r->inv[k];
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
void cs_bvh_raycast(const cs_Bvh *bvh, cs_Vec3 o, cs_Vec3 d, double tmax,
                    cs_BvhRayFn fn, void *ud) {
  cs_BvhEntry stack[CS_BVH_STACK];
  cs_BvhRay ray;
  double dd[3], tl, tr;
  uint32_t id = 0, i;
  int sp = 0, k;
  if (bvh->node_count == 0 || !(tmax >= 0)) return;
  ray.o[0] = o.x; ray.o[1] = o.y; ray.o[2] = o.z;
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
