/*
** test_bvh.c: checks cs_bvh.c against brute force (box queries, nearest ray
** hit, nearest point), the tree's invariants, refit, empty and degenerate
** inputs, the linear top's awkward inputs (both sides of CS_BVH_LINEAR_MAX,
** one code, far clusters, huge and tiny coordinates), a failing allocator,
** and times a 1M-triangle heightfield build.
**   cc -std=c99 -O2 -Icsrc spec/c/test_bvh.c csrc/cs_alloc.c csrc/cs_bvh.c -lm
**   ./a.out [seed] [-q]      (-q: one timed build instead of five)
*/
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L   /* clock_gettime under -std=c99 */
#endif
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs_internal.h"

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#endif

/* {==================================================================
** Harness: checks, a seeded generator, a counting allocator that can fail
** ===================================================================*/

static int passed, failed, case_failures;
static const char *case_name;   /* test-only state: this file is not the library */
static int quick, qdiv = 1;     /* -q: fewer queries and one timed build */

#define CHECK(c) do { if (!(c)) check_fail(__LINE__, #c); } while (0)
#define CHECKF(c, ...) do { if (!(c)) { check_fail(__LINE__, #c); \
  if (case_failures <= 5) { printf("      "); printf(__VA_ARGS__); printf("\n"); } } } while (0)

static void check_fail(int line, const char *what) {
  if (++case_failures <= 5) printf("  FAIL [%s] line %d: %s\n", case_name, line, what);
}

static double now(void);

static void run_case(const char *name, void (*fn)(void)) {
  double t0 = now();
  case_name = name;
  case_failures = 0;
  fn();
  t0 = now() - t0;
  if (case_failures) { failed++; printf("not ok  %s (%d failures, %.2f s)\n", name, case_failures, t0); }
  else { passed++; printf("ok      %s (%.2f s)\n", name, t0); }
}

static uint64_t rng_state;

/* splitmix64 */
static uint64_t rng_next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double rnd(void) { return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0); }
static double rnd_range(double lo, double hi) { return lo + (hi - lo) * rnd(); }
static uint32_t rnd_int(uint32_t n) { return (uint32_t)(rng_next() % n); }

typedef struct TestAlloc {
  size_t live;          /* bytes handed out and not freed */
  size_t calls;         /* allocations and reallocations asked for */
  size_t limit;         /* calls beyond this many fail */
  int bad_size;         /* a free or realloc gave the wrong old size */
} TestAlloc;

typedef union Header { size_t size; long double ld; void *p; long long ll; } Header;

static void *test_alloc_fn(void *ud, void *ptr, size_t osize, size_t nsize) {
  TestAlloc *ta = (TestAlloc *)ud;
  Header *h = ptr ? (Header *)ptr - 1 : NULL;
  if (h && h->size != osize) ta->bad_size = 1;
  if (nsize == 0) {
    if (h) { ta->live -= h->size; free(h); }
    return NULL;
  }
  if (++ta->calls > ta->limit) return NULL;
  {
    Header *nh = (Header *)realloc(h, sizeof(Header) + nsize);
    if (!nh) return NULL;
    if (h) ta->live -= osize;
    ta->live += nsize;
    nh->size = nsize;
    return nh + 1;
  }
}

static TestAlloc g_ta;
static cs_Alloc g_alloc;

static void alloc_reset(size_t limit) {
  g_ta.live = 0; g_ta.calls = 0; g_ta.limit = limit; g_ta.bad_size = 0;
  g_alloc.fn = test_alloc_fn;
  g_alloc.ud = &g_ta;
}

/* Wall-clock seconds (QueryPerformanceCounter on Windows: MinGW has
** clock_gettime only through winpthreads). */
static double now(void) {
#if defined(_WIN32)
  LARGE_INTEGER t, f;
  QueryPerformanceCounter(&t);
  QueryPerformanceFrequency(&f);
  return (double)t.QuadPart / (double)f.QuadPart;
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* }================================================================== */


/* {==================================================================
** Meshes
** ===================================================================*/

typedef struct Mesh {
  double *v;
  uint32_t *t;
  uint8_t *skip;        /* NULL: none skipped */
  uint32_t nv, nt;
} Mesh;

static Mesh mesh_alloc(uint32_t nv, uint32_t nt, int with_skip) {
  Mesh m;
  m.nv = nv; m.nt = nt;
  m.v = (double *)calloc(3 * (size_t)nv + 1, sizeof(double));
  m.t = (uint32_t *)calloc(3 * (size_t)nt + 1, sizeof(uint32_t));
  m.skip = with_skip ? (uint8_t *)calloc((size_t)nt + 1, 1) : NULL;
  if (!m.v || !m.t || (with_skip && !m.skip)) { printf("out of memory\n"); exit(2); }
  return m;
}

static void mesh_free(Mesh *m) { free(m->v); free(m->t); free(m->skip); }

static int skipped(const Mesh *m, uint32_t t) { return m->skip && m->skip[t]; }

static cs_Vec3 vert(const Mesh *m, uint32_t t, int j) {
  const double *p = m->v + 3 * (size_t)m->t[3 * (size_t)t + j];
  return v3(p[0], p[1], p[2]);
}

/* n separate triangles around random centres in [-size, size]^3 + offset: most
** small, some long, some points (degenerate), a share skipped. */
static Mesh make_soup(uint32_t n, double size, double offset, int with_skip) {
  Mesh m = mesh_alloc(3 * n, n, with_skip);
  uint32_t i;
  int j, k;
  for (i = 0; i < n; i++) {
    double c[3], r = rnd() < 0.1 ? size * 0.3 : size * 0.01 * (0.1 + rnd());
    int point = rnd() < 0.02;
    for (k = 0; k < 3; k++) c[k] = offset + rnd_range(-size, size);
    for (j = 0; j < 3; j++) {
      for (k = 0; k < 3; k++)
        m.v[9 * (size_t)i + 3 * j + k] = point ? c[k] : c[k] + rnd_range(-r, r);
      m.t[3 * i + j] = 3 * i + j;
    }
    if (with_skip) m.skip[i] = rnd() < 0.1;
  }
  return m;
}

static double height(double x, double z, double phase) {
  return 3 * sin(0.05 * x + phase) * cos(0.07 * z) + 0.5 * sin(0.9 * x * z * 0.01 + phase);
}

/* A w x w grid of unit cells from (offset, offset), two triangles a cell. */
static Mesh make_heightfield(uint32_t w, double offset, double phase) {
  uint32_t n = w + 1, x, z, i = 0;
  Mesh m = mesh_alloc(n * n, 2 * w * w, 0);
  for (z = 0; z < n; z++)
    for (x = 0; x < n; x++) {
      double *p = m.v + 3 * ((size_t)z * n + x);
      p[0] = offset + x;
      p[1] = height(x, z, phase);
      p[2] = offset + z;
    }
  for (z = 0; z < w; z++)
    for (x = 0; x < w; x++) {
      uint32_t a = z * n + x, b = a + 1, c = a + n, d = c + 1;
      m.t[i++] = a; m.t[i++] = c; m.t[i++] = b;
      m.t[i++] = b; m.t[i++] = c; m.t[i++] = d;
    }
  return m;
}

static void heightfield_move(Mesh *m, uint32_t w, double phase) {
  uint32_t n = w + 1, x, z;
  for (z = 0; z < n; z++)
    for (x = 0; x < n; x++)
      m->v[3 * ((size_t)z * n + x) + 1] = height(x, z, phase);
}

/* The mesh's bounds over non-skipped triangles; returns 0 when there are none. */
static int mesh_bounds(const Mesh *m, double lo[3], double hi[3]) {
  uint32_t t;
  int j, k, any = 0;
  for (k = 0; k < 3; k++) { lo[k] = INFINITY; hi[k] = -INFINITY; }
  for (t = 0; t < m->nt; t++) {
    if (skipped(m, t)) continue;
    any = 1;
    for (j = 0; j < 3; j++) {
      const double *p = m->v + 3 * (size_t)m->t[3 * t + j];
      for (k = 0; k < 3; k++) {
        if (p[k] < lo[k]) lo[k] = p[k];
        if (p[k] > hi[k]) hi[k] = p[k];
      }
    }
  }
  return any;
}

static void tri_box(const Mesh *m, uint32_t t, double lo[3], double hi[3]) {
  int j, k;
  for (k = 0; k < 3; k++) { lo[k] = INFINITY; hi[k] = -INFINITY; }
  for (j = 0; j < 3; j++) {
    const double *p = m->v + 3 * (size_t)m->t[3 * t + j];
    for (k = 0; k < 3; k++) {
      if (p[k] < lo[k]) lo[k] = p[k];
      if (p[k] > hi[k]) hi[k] = p[k];
    }
  }
}

/* }================================================================== */


/* {==================================================================
** Geometry for the oracles (independent of the library's cs_geom.c)
** ===================================================================*/

/* Moller-Trumbore, both sides: returns 1 and *s when o + s d, s in [0, tmax],
** meets abc. */
static int ray_tri(cs_Vec3 o, cs_Vec3 d, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, double tmax, double *s) {
  cs_Vec3 e1 = v3_sub(b, a), e2 = v3_sub(c, a), pv = v3_cross(d, e2), tv, qv;
  double det = v3_dot(e1, pv), inv, u, v, t;
  if (det == 0 || !isfinite(det)) return 0;
  inv = 1.0 / det;
  tv = v3_sub(o, a);
  u = v3_dot(tv, pv) * inv;
  if (u < 0 || u > 1) return 0;
  qv = v3_cross(tv, e1);
  v = v3_dot(d, qv) * inv;
  if (v < 0 || u + v > 1) return 0;
  t = v3_dot(e2, qv) * inv;
  if (!(t >= 0 && t <= tmax)) return 0;
  *s = t;
  return 1;
}

/* Ericson, Real-Time Collision Detection 5.1.5: the point of abc nearest p. */
static cs_Vec3 closest_on_tri(cs_Vec3 p, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c) {
  cs_Vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a), bp, cp;
  double d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap), d3, d4, d5, d6, va, vb, vc, den, v, w;
  if (d1 <= 0 && d2 <= 0) return a;
  bp = v3_sub(p, b);
  d3 = v3_dot(ab, bp); d4 = v3_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return v3_madd(a, ab, d1 / (d1 - d3));
  cp = v3_sub(p, c);
  d5 = v3_dot(ab, cp); d6 = v3_dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return v3_madd(a, ac, d2 / (d2 - d6));
  va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return v3_madd(b, v3_sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
  den = 1.0 / (va + vb + vc);
  v = vb * den; w = vc * den;
  return v3_add(a, v3_add(v3_scale(ab, v), v3_scale(ac, w)));
}

static double tri_d2(const Mesh *m, uint32_t t, cs_Vec3 p) {
  cs_Vec3 q = closest_on_tri(p, vert(m, t, 0), vert(m, t, 1), vert(m, t, 2));
  double d2 = v3_len2(v3_sub(p, q));
  return d2 == d2 ? d2 : INFINITY;
}

/* Does o + s d, s in [0, tmax], meet the box? Exact but for one rounding a slab. */
static int seg_box(cs_Vec3 o, cs_Vec3 d, double tmax, const double lo[3], const double hi[3]) {
  double oo[3], dd[3], tn = 0, tf = tmax;
  int k;
  oo[0] = o.x; oo[1] = o.y; oo[2] = o.z;
  dd[0] = d.x; dd[1] = d.y; dd[2] = d.z;
  for (k = 0; k < 3; k++) {
    double a, b;
    if (dd[k] == 0) {
      if (oo[k] < lo[k] || oo[k] > hi[k]) return 0;
      continue;
    }
    a = (lo[k] - oo[k]) / dd[k];
    b = (hi[k] - oo[k]) / dd[k];
    if (a > b) { double s = a; a = b; b = s; }
    if (a > tn) tn = a;
    if (b < tf) tf = b;
  }
  return tn <= tf;
}

/* }================================================================== */


/* {==================================================================
** Checks on one tree
** ===================================================================*/

typedef struct TreeStats { uint32_t depth, leaves, max_leaf; double sah; } TreeStats;

/* Checks the layout and that every bound is conservative for its doubles. */
static TreeStats check_tree(const cs_Bvh *bvh, const Mesh *m) {
  TreeStats st = {0, 0, 0, 0};
  uint32_t want = 0, t, i, visited = 0;
  uint32_t stack[256], dstack[256];
  int sp = 0;
  unsigned char *seen_tri = (unsigned char *)calloc((size_t)m->nt + 1, 1);
  unsigned char *seen_prim = (unsigned char *)calloc((size_t)bvh->prim_count + 1, 1);
  double root_area = 0;
  for (t = 0; t < m->nt; t++) want += !skipped(m, t);
  CHECKF(bvh->prim_count == want, "prim_count %u, want %u", bvh->prim_count, want);
  CHECK((bvh->node_count == 0) == (want == 0));
  for (i = 0; i < bvh->prim_count; i++) {
    uint32_t p = bvh->prims[i];
    CHECK(p < m->nt);
    if (p >= m->nt) continue;
    CHECK(!skipped(m, p));
    CHECK(!seen_tri[p]);
    seen_tri[p] = 1;
  }
  if (bvh->node_count) {
    const cs_BvhNode *r = bvh->nodes;
    double dx = r->hi[0] - r->lo[0], dy = r->hi[1] - r->lo[1], dz = r->hi[2] - r->lo[2];
    root_area = dx * dy + dy * dz + dz * dx;
    stack[sp] = 0; dstack[sp++] = 1;
  }
  while (sp > 0) {
    uint32_t id = stack[--sp], depth = dstack[sp];
    const cs_BvhNode *n = bvh->nodes + id;
    double dx = n->hi[0] - n->lo[0], dy = n->hi[1] - n->lo[1], dz = n->hi[2] - n->lo[2];
    double area = root_area > 0 ? (dx * dy + dy * dz + dz * dx) / root_area : 0;
    int k;
    visited++;
    if (depth > st.depth) st.depth = depth;
    CHECK(visited <= bvh->node_count);
    if (visited > bvh->node_count) break;
    for (k = 0; k < 3; k++) CHECK(n->lo[k] <= n->hi[k]);
    if (n->count == 0) {
      const cs_BvhNode *c[2];
      int j;
      CHECK(n->index > id + 1 && n->index < bvh->node_count);
      if (!(n->index > id + 1 && n->index < bvh->node_count)) continue;
      c[0] = n + 1; c[1] = bvh->nodes + n->index;
      for (j = 0; j < 2; j++)
        for (k = 0; k < 3; k++) CHECK(c[j]->lo[k] >= n->lo[k] && c[j]->hi[k] <= n->hi[k]);
      st.sah += area;
      CHECK(sp + 2 <= 256);
      if (sp + 2 > 256) break;
      stack[sp] = n->index; dstack[sp++] = depth + 1;
      stack[sp] = id + 1; dstack[sp++] = depth + 1;
    } else {
      st.leaves++;
      if (n->count > st.max_leaf) st.max_leaf = n->count;
      st.sah += area * n->count;
      CHECKF(n->count <= 8, "leaf of %u", n->count);
      CHECK(n->index <= bvh->prim_count && n->count <= bvh->prim_count - n->index);
      if (!(n->index <= bvh->prim_count && n->count <= bvh->prim_count - n->index)) continue;
      for (i = n->index; i < n->index + n->count; i++) {
        double lo[3], hi[3];
        CHECK(!seen_prim[i]);
        seen_prim[i] = 1;
        tri_box(m, bvh->prims[i], lo, hi);
        for (k = 0; k < 3; k++)
          CHECKF(n->lo[k] <= lo[k] && n->hi[k] >= hi[k], "node %u axis %d [%.17g %.17g] "
                 "holds tri %u [%.17g %.17g]", id, k, n->lo[k], n->hi[k], bvh->prims[i], lo[k], hi[k]);
      }
    }
  }
  CHECKF(visited == bvh->node_count, "visited %u of %u nodes", visited, bvh->node_count);
  for (i = 0; i < bvh->prim_count; i++) CHECK(seen_prim[i]);
  CHECKF(st.depth <= 64, "depth %u", st.depth);
  {
    cs_Vec3 lo, hi;
    double mlo[3], mhi[3];
    int any = mesh_bounds(m, mlo, mhi);
    CHECK(cs_bvh_bounds(bvh, &lo, &hi) == any);
    if (any)
      CHECK(lo.x <= mlo[0] && lo.y <= mlo[1] && lo.z <= mlo[2]
            && hi.x >= mhi[0] && hi.y >= mhi[1] && hi.z >= mhi[2]);
  }
  CHECK(cs_bvh_memory(bvh) == (size_t)bvh->node_count * 32 + (size_t)bvh->prim_count * 4
        + (bvh->parent ? (size_t)bvh->node_count * 4 : 0) + (size_t)bvh->leaf_of_count * 4);
  free(seen_tri);
  free(seen_prim);
  return st;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void sort_buf(cs_U32Buf *b) {
  if (b->count) qsort(b->data, b->count, sizeof *b->data, cmp_u32);
}

/* A random box around the mesh: mostly small, some large, some points, some
** with a face exactly on a triangle's bound. */
static void random_box(const Mesh *m, const double mlo[3], const double mhi[3],
                       cs_Vec3 *lo, cs_Vec3 *hi) {
  double l[3], h[3], ext = 0;
  int k, kind = (int)rnd_int(10);
  for (k = 0; k < 3; k++) if (mhi[k] - mlo[k] > ext) ext = mhi[k] - mlo[k];
  for (k = 0; k < 3; k++) {
    double c = rnd_range(mlo[k] - 0.1 * ext, mhi[k] + 0.1 * ext);
    double r = kind < 6 ? ext * 0.02 * rnd() : kind < 8 ? ext * 0.3 * rnd() : 0;
    l[k] = c - r; h[k] = c + r;
  }
  if (kind == 9 && m->nt) {   /* touch a triangle's bounds exactly */
    uint32_t t = rnd_int(m->nt);
    double tl[3], th[3];
    tri_box(m, t, tl, th);
    for (k = 0; k < 3; k++) {
      double w = ext * 0.01 * rnd();
      if (rnd() < 0.5) { l[k] = th[k]; h[k] = th[k] + w; }
      else { l[k] = tl[k] - w; h[k] = tl[k]; }
    }
  }
  *lo = v3(l[0], l[1], l[2]);
  *hi = v3(h[0], h[1], h[2]);
}

/* Box queries against brute force over the triangles' double bounds. */
static void check_boxes(const cs_Bvh *bvh, const Mesh *m, int nq) {
  double mlo[3], mhi[3];
  cs_U32Buf out = {NULL, 0, 0};
  uint32_t *want = (uint32_t *)malloc(((size_t)m->nt + 1) * sizeof *want);
  int q, bad = 0;
  if (!mesh_bounds(m, mlo, mhi)) { mlo[0] = mlo[1] = mlo[2] = -1; mhi[0] = mhi[1] = mhi[2] = 1; }
  for (q = 0; q < nq && bad < 5; q++) {
    cs_Vec3 lo, hi;
    double ql[3], qh[3];
    size_t nw = 0, i;
    uint32_t t;
    cs_Status s;
    random_box(m, mlo, mhi, &lo, &hi);
    ql[0] = lo.x; ql[1] = lo.y; ql[2] = lo.z;
    qh[0] = hi.x; qh[1] = hi.y; qh[2] = hi.z;
    for (t = 0; t < m->nt; t++) {
      double tl[3], th[3];
      int k;
      if (skipped(m, t)) continue;
      tri_box(m, t, tl, th);
      for (k = 0; k < 3; k++) if (tl[k] > qh[k] || th[k] < ql[k]) break;
      if (k == 3) want[nw++] = t;
    }
    out.count = 0;
    s = cs_bvh_query_box(bvh, &g_alloc, m->v, m->t, lo, hi, &out);
    CHECK(s == CS_OK);
    sort_buf(&out);
    CHECKF(out.count == nw, "query %d: %lu found, brute force %lu", q, (unsigned long)out.count, (unsigned long)nw);
    if (out.count != nw) { bad++; continue; }
    for (i = 0; i < nw; i++) if (out.data[i] != want[i]) break;
    CHECKF(i == nw, "query %d: sets differ", q);
    if (i != nw) bad++;
  }
  cs_u32buf_free(&g_alloc, &out);
  free(want);
}

typedef struct RayCtx {
  const Mesh *m;
  cs_Vec3 o, d;
  double best;
  uint32_t best_tri, calls;
  int hit, stop_after;
  unsigned char *visits;    /* per triangle, when collecting */
} RayCtx;

/* Nearest hit: lowers *tmax to each hit. */
static int ray_nearest_fn(void *ud, uint32_t tri, double *tmax) {
  RayCtx *c = (RayCtx *)ud;
  double s;
  c->calls++;
  if (ray_tri(c->o, c->d, vert(c->m, tri, 0), vert(c->m, tri, 1), vert(c->m, tri, 2), *tmax, &s)
      && (!c->hit || s < c->best)) {
    c->hit = 1; c->best = s; c->best_tri = tri;
    *tmax = s;
  }
  return 1;
}

/* Records every visit; never lowers tmax; stops after stop_after calls if set. */
static int ray_collect_fn(void *ud, uint32_t tri, double *tmax) {
  RayCtx *c = (RayCtx *)ud;
  (void)tmax;
  c->calls++;
  if (c->visits && c->visits[tri] < 255) c->visits[tri]++;
  return !(c->stop_after && (int)c->calls >= c->stop_after);
}

/* A random segment: through the mesh's box, along an axis, or straight down
** through a vertex. */
static void random_segment(const Mesh *m, const double mlo[3], const double mhi[3],
                           cs_Vec3 *o, cs_Vec3 *d, double *tmax) {
  double ext = 0, p[3], q[3];
  int k, kind = (int)rnd_int(8);
  for (k = 0; k < 3; k++) if (mhi[k] - mlo[k] > ext) ext = mhi[k] - mlo[k];
  for (k = 0; k < 3; k++) {
    p[k] = rnd_range(mlo[k] - 0.2 * ext, mhi[k] + 0.2 * ext);
    q[k] = rnd_range(mlo[k] - 0.2 * ext, mhi[k] + 0.2 * ext);
  }
  *o = v3(p[0], p[1], p[2]);
  *d = v3_sub(v3(q[0], q[1], q[2]), *o);
  *tmax = kind == 0 ? rnd() : 1;
  if (kind == 1 || kind == 2) {     /* along one or two axes only */
    int axis = (int)rnd_int(3);
    double dd[3] = {0, 0, 0};
    dd[axis] = (rnd() < 0.5 ? -1 : 1) * ext * 1.5;
    if (kind == 2) dd[(axis + 1) % 3] = rnd_range(-ext, ext);
    *d = v3(dd[0], dd[1], dd[2]);
    *o = v3_sub(*o, v3_scale(*d, 0.5));
  }
  if (kind == 3 && m->nt) {          /* straight down through a vertex */
    uint32_t t = rnd_int(m->nt);
    cs_Vec3 a = vert(m, t, (int)rnd_int(3));
    *o = v3(a.x, mhi[1] + 1, a.z);
    *d = v3(0, -(mhi[1] - mlo[1] + 2), 0);
  }
  if (kind == 4) *d = v3_scale(*d, 1e-3);   /* short */
  if (kind == 5) *tmax = INFINITY;          /* a ray, not a segment */
}

/* Nearest ray hits equal brute force; every triangle whose bounds the segment
** meets is visited, once; fn returning 0 stops. */
static void check_rays(const cs_Bvh *bvh, const Mesh *m, int nq) {
  double mlo[3], mhi[3];
  unsigned char *visits = (unsigned char *)calloc((size_t)m->nt + 1, 1);
  int q, bad = 0;
  if (!mesh_bounds(m, mlo, mhi)) { mlo[0] = mlo[1] = mlo[2] = -1; mhi[0] = mhi[1] = mhi[2] = 1; }
  for (q = 0; q < nq && bad < 5; q++) {
    RayCtx c;
    cs_Vec3 o, d;
    double tmax, best = 0, s;
    uint32_t t, nvisit = 0;
    int hit = 0;
    random_segment(m, mlo, mhi, &o, &d, &tmax);
    for (t = 0; t < m->nt; t++) {
      if (skipped(m, t)) continue;
      if (ray_tri(o, d, vert(m, t, 0), vert(m, t, 1), vert(m, t, 2), tmax, &s) && (!hit || s < best)) {
        hit = 1; best = s;
      }
    }
    memset(&c, 0, sizeof c);
    c.m = m; c.o = o; c.d = d;
    cs_bvh_raycast(bvh, o, d, tmax, 0, ray_nearest_fn, &c);
    CHECKF(c.hit == hit && (!hit || c.best == best), "ray %d: tree hit %d at %.17g, brute %d at %.17g",
           q, c.hit, c.best, hit, best);
    if (c.hit != hit || (hit && c.best != best)) bad++;
    /* the visit set covers the brute-force segment / bounds test */
    memset(&c, 0, sizeof c);
    c.m = m; c.o = o; c.d = d; c.visits = visits;
    memset(visits, 0, m->nt);
    cs_bvh_raycast(bvh, o, d, tmax, 0, ray_collect_fn, &c);
    for (t = 0; t < m->nt; t++) {
      double lo[3], hi[3];
      CHECK(visits[t] <= 1);
      nvisit += visits[t] != 0;
      if (skipped(m, t)) { CHECK(!visits[t]); continue; }
      tri_box(m, t, lo, hi);
      if (seg_box(o, d, tmax, lo, hi)) {
        CHECKF(visits[t], "ray %d: triangle %u not visited", q, t);
        if (!visits[t]) bad++;
      }
    }
    if (nvisit > 1) {   /* returning 0 stops at once */
      memset(&c, 0, sizeof c);
      c.m = m; c.stop_after = 1;
      cs_bvh_raycast(bvh, o, d, tmax, 0, ray_collect_fn, &c);
      CHECK(c.calls == 1);
    }
  }
  free(visits);
}

typedef struct PointCtx {
  const Mesh *m;
  cs_Vec3 p;
  double best;
  int hit;
  uint32_t calls;
} PointCtx;

static int point_fn(void *ud, uint32_t tri, double *max_d2) {
  PointCtx *c = (PointCtx *)ud;
  double d2 = tri_d2(c->m, tri, c->p);
  c->calls++;
  if (d2 <= *max_d2 && (!c->hit || d2 < c->best)) {
    c->hit = 1; c->best = d2;
    *max_d2 = d2;
  }
  return 1;
}

/* Nearest points equal brute force, unbounded and within a radius. */
static void check_points(const cs_Bvh *bvh, const Mesh *m, int nq) {
  double mlo[3], mhi[3], ext = 0;
  int q, k, bad = 0;
  if (!mesh_bounds(m, mlo, mhi)) { mlo[0] = mlo[1] = mlo[2] = -1; mhi[0] = mhi[1] = mhi[2] = 1; }
  for (k = 0; k < 3; k++) if (mhi[k] - mlo[k] > ext) ext = mhi[k] - mlo[k];
  for (q = 0; q < nq && bad < 5; q++) {
    PointCtx c;
    cs_Vec3 p;
    double best = INFINITY, r2 = q % 2 ? INFINITY : pow(ext * 0.05 * rnd(), 2);
    uint32_t t;
    if (q % 5 == 4 && m->nt) {        /* on a vertex */
      p = vert(m, rnd_int(m->nt), (int)rnd_int(3));
    } else {
      p = v3(rnd_range(mlo[0] - 0.2 * ext, mhi[0] + 0.2 * ext),
             rnd_range(mlo[1] - 0.2 * ext, mhi[1] + 0.2 * ext),
             rnd_range(mlo[2] - 0.2 * ext, mhi[2] + 0.2 * ext));
    }
    for (t = 0; t < m->nt; t++) {
      double d2;
      if (skipped(m, t)) continue;
      d2 = tri_d2(m, t, p);
      if (d2 < best) best = d2;
    }
    memset(&c, 0, sizeof c);
    c.m = m; c.p = p;
    cs_bvh_closest(bvh, p, r2, point_fn, &c);
    if (best <= r2) {
      CHECKF(c.hit && c.best == best, "point %d: tree %d %.17g, brute %.17g", q, c.hit, c.best, best);
      if (!(c.hit && c.best == best)) bad++;
    } else {
      CHECKF(!c.hit, "point %d: tree found %.17g beyond %.17g", q, c.best, r2);
      if (c.hit) bad++;
    }
  }
}

/* Builds with the test allocator and runs every check; returns the stats. */
static TreeStats check_all(const Mesh *m, int nboxes, int nrays, int npoints) {
  cs_Bvh bvh;
  TreeStats st;
  cs_Status s;
  alloc_reset((size_t)-1);
  s = cs_bvh_build(&bvh, &g_alloc, m->v, m->t, m->skip, m->nt);
  CHECK(s == CS_OK);
  st = check_tree(&bvh, m);
  check_boxes(&bvh, m, nboxes / qdiv);
  check_rays(&bvh, m, nrays / qdiv);
  check_points(&bvh, m, npoints / qdiv);
  cs_bvh_free(&bvh, &g_alloc);
  CHECK(bvh.nodes == NULL && bvh.prims == NULL && bvh.node_count == 0 && bvh.prim_count == 0);
  CHECKF(g_ta.live == 0, "%lu bytes leaked", (unsigned long)g_ta.live);
  CHECK(!g_ta.bad_size);
  return st;
}

/* }================================================================== */


/* {==================================================================
** Cases
** ===================================================================*/

static void case_soup(void) {
  Mesh m = make_soup(8000, 100, 0, 1);
  TreeStats st = check_all(&m, 3000, 800, 800);
  printf("        soup 8000: depth %u, %u leaves, largest %u\n", st.depth, st.leaves, st.max_leaf);
  mesh_free(&m);
}

static void case_soup_far(void) {   /* 1e6 from the origin: float rounding matters */
  Mesh m = make_soup(4000, 10, 1e6, 1);
  uint32_t i;
  check_all(&m, 2000, 400, 400);
  mesh_free(&m);
  m = make_soup(2000, 1e-3, -1e6 - 0.3, 0);  /* triangles far below a float ulp */
  for (i = 0; i < 9 * 2000; i++) m.v[i] += 1e-9 * (double)(i % 7);
  check_all(&m, 1000, 300, 300);
  mesh_free(&m);
}

static void case_heightfield(void) {
  Mesh m = make_heightfield(64, 0, 0);
  TreeStats st = check_all(&m, 3000, 800, 800);
  printf("        heightfield 8192: depth %u, %u leaves, largest %u, SAH %.1f\n",
         st.depth, st.leaves, st.max_leaf, st.sah);
  mesh_free(&m);
  m = make_heightfield(40, 1e6 + 0.1, 1);
  check_all(&m, 1000, 300, 300);
  mesh_free(&m);
}

/* Query answers after a refit equal brute force and a fresh build's. */
static void refit_compare(Mesh *m, void (*move)(Mesh *)) {
  cs_Bvh a, b;
  cs_U32Buf oa = {NULL, 0, 0}, ob = {NULL, 0, 0};
  double mlo[3], mhi[3];
  int q;
  alloc_reset((size_t)-1);
  CHECK(cs_bvh_build(&a, &g_alloc, m->v, m->t, m->skip, m->nt) == CS_OK);
  move(m);
  cs_bvh_refit(&a, m->v, m->t);
  check_tree(&a, m);
  check_boxes(&a, m, 1500 / qdiv);
  check_rays(&a, m, 400 / qdiv);
  check_points(&a, m, 400 / qdiv);
  CHECK(cs_bvh_build(&b, &g_alloc, m->v, m->t, m->skip, m->nt) == CS_OK);
  mesh_bounds(m, mlo, mhi);
  for (q = 0; q < 500 / qdiv; q++) {
    cs_Vec3 lo, hi;
    size_t i;
    random_box(m, mlo, mhi, &lo, &hi);
    oa.count = ob.count = 0;
    CHECK(cs_bvh_query_box(&a, &g_alloc, m->v, m->t, lo, hi, &oa) == CS_OK);
    CHECK(cs_bvh_query_box(&b, &g_alloc, m->v, m->t, lo, hi, &ob) == CS_OK);
    sort_buf(&oa);
    sort_buf(&ob);
    CHECK(oa.count == ob.count);
    if (oa.count != ob.count) break;
    for (i = 0; i < oa.count; i++) CHECK(oa.data[i] == ob.data[i]);
  }
  cs_u32buf_free(&g_alloc, &oa);
  cs_u32buf_free(&g_alloc, &ob);
  cs_bvh_free(&a, &g_alloc);
  cs_bvh_free(&b, &g_alloc);
  CHECK(g_ta.live == 0 && !g_ta.bad_size);
}

static void move_soup(Mesh *m) {
  uint32_t i;
  for (i = 0; i < 3 * m->nv; i++) m->v[i] += rnd_range(-5, 5) + (i % 3 == 0 ? 20 : 0);
}

static void move_heightfield(Mesh *m) { heightfield_move(m, 50, 2.0); }

static void case_refit(void) {
  Mesh m = make_soup(5000, 100, 0, 1);
  refit_compare(&m, move_soup);
  mesh_free(&m);
  m = make_heightfield(50, 0, 0);
  refit_compare(&m, move_heightfield);
  mesh_free(&m);
}

/* The refit of a few triangles' paths (cs_bvh_refit_some) leaves the very
** nodes a whole refit makes: random vertices moved a few at a time, the
** triangles that use them refitted, the nodes compared with a copy refitted
** whole. */
static void case_refit_some(void) {
  Mesh m = make_heightfield(60, 0, 0);
  cs_Bvh a, b;
  uint32_t ids[64];
  int round;
  alloc_reset((size_t)-1);
  CHECK(cs_bvh_build(&a, &g_alloc, m.v, m.t, NULL, m.nt) == CS_OK);
  CHECK(cs_bvh_build(&b, &g_alloc, m.v, m.t, NULL, m.nt) == CS_OK);
  for (round = 0; round < 200; round++) {
    size_t n = 0;
    uint32_t e, t, k;
    for (e = 0; e < 1 + rnd_int(4); e++) {
      uint32_t vtx = rnd_int(m.nv);
      m.v[3 * vtx + rnd_int(3)] += rnd_range(-3, 3);
      for (t = 0; t < m.nt && n < 64; t++)
        for (k = 0; k < 3; k++)
          if (m.t[3 * t + k] == vtx) { ids[n++] = t; break; }
    }
    CHECK(cs_bvh_refit_some(&a, &g_alloc, m.v, m.t, m.nt, ids, n) == CS_OK);
    cs_bvh_refit(&b, m.v, m.t);
    CHECK(a.node_count == b.node_count &&
          memcmp(a.nodes, b.nodes, a.node_count * sizeof *a.nodes) == 0);
  }
  check_tree(&a, &m);
  cs_bvh_free(&a, &g_alloc);
  cs_bvh_free(&b, &g_alloc);
  CHECK(g_ta.live == 0 && !g_ta.bad_size);
  {                   /* the maps cannot be made: CS_ENOMEM, nothing changed */
    cs_Bvh c;
    alloc_reset((size_t)-1);
    CHECK(cs_bvh_build(&c, &g_alloc, m.v, m.t, NULL, m.nt) == CS_OK);
    g_ta.limit = g_ta.calls;
    ids[0] = 0;
    CHECK(cs_bvh_refit_some(&c, &g_alloc, m.v, m.t, m.nt, ids, 1) == CS_ENOMEM);
    CHECK(c.parent == NULL && c.leaf_of == NULL);
    cs_bvh_free(&c, &g_alloc);
    CHECK(g_ta.live == 0 && !g_ta.bad_size);
  }
  mesh_free(&m);
}

static void case_empty(void) {
  Mesh m = make_soup(50, 1, 0, 1);
  cs_Bvh bvh;
  cs_U32Buf out = {NULL, 0, 0};
  cs_Vec3 lo, hi;
  RayCtx rc;
  PointCtx pc;
  uint32_t i;
  alloc_reset((size_t)-1);
  for (i = 0; i < 2; i++) {
    cs_Status s;
    if (i == 0) s = cs_bvh_build(&bvh, &g_alloc, m.v, m.t, NULL, 0);
    else {
      memset(m.skip, 1, m.nt);
      s = cs_bvh_build(&bvh, &g_alloc, m.v, m.t, m.skip, m.nt);
    }
    CHECK(s == CS_OK);
    CHECK(bvh.node_count == 0 && bvh.prim_count == 0 && bvh.nodes == NULL && bvh.prims == NULL);
    CHECK(cs_bvh_memory(&bvh) == 0);
    CHECK(cs_bvh_bounds(&bvh, &lo, &hi) == 0);
    CHECK(cs_bvh_query_box(&bvh, &g_alloc, m.v, m.t, v3(-1e9, -1e9, -1e9), v3(1e9, 1e9, 1e9), &out) == CS_OK);
    CHECK(out.count == 0);
    memset(&rc, 0, sizeof rc);
    cs_bvh_raycast(&bvh, v3(0, 0, 0), v3(1, 1, 1), 1, 0, ray_collect_fn, &rc);
    CHECK(rc.calls == 0);
    memset(&pc, 0, sizeof pc);
    pc.m = &m;
    cs_bvh_closest(&bvh, v3(0, 0, 0), INFINITY, point_fn, &pc);
    CHECK(pc.calls == 0);
    cs_bvh_refit(&bvh, m.v, m.t);
    cs_bvh_free(&bvh, &g_alloc);
    cs_bvh_free(&bvh, &g_alloc);  /* twice is harmless */
  }
  cs_u32buf_free(&g_alloc, &out);
  CHECK(g_ta.live == 0);
  mesh_free(&m);
}

static void case_one(void) {
  Mesh m = make_soup(1, 1, 0, 0);
  cs_Bvh bvh;
  RayCtx rc;
  uint32_t k;
  check_all(&m, 200, 100, 100);
  /* a triangle in the plane y = 0.25 and rays along y with zero x and z */
  m.v[0] = 0; m.v[1] = 0.25; m.v[2] = 0;
  m.v[3] = 1; m.v[4] = 0.25; m.v[5] = 0;
  m.v[6] = 0; m.v[7] = 0.25; m.v[8] = 1;
  alloc_reset((size_t)-1);
  CHECK(cs_bvh_build(&bvh, &g_alloc, m.v, m.t, NULL, 1) == CS_OK);
  CHECK(bvh.node_count == 1 && bvh.prim_count == 1);
  for (k = 0; k < 4; k++) {
    static const double xs[4] = {0, 1, 0.5, 1.5}, want[4] = {1, 1, 1, 0};
    memset(&rc, 0, sizeof rc);
    rc.m = &m; rc.o = v3(xs[k], 1, 0); rc.d = v3(0, -1, 0);
    cs_bvh_raycast(&bvh, rc.o, rc.d, 1, 0, ray_nearest_fn, &rc);
    CHECKF(rc.hit == want[k], "x = %g: hit %d", xs[k], rc.hit);
    if (rc.hit) CHECK(rc.best == 0.75);
  }
  memset(&rc, 0, sizeof rc);   /* a segment that stops short */
  cs_bvh_raycast(&bvh, v3(0.2, 1, 0.2), v3(0, -1, 0), 0.7, 0, ray_collect_fn, &rc);
  CHECK(rc.calls == 0);
  memset(&rc, 0, sizeof rc);   /* one that ends on the plane: inclusive */
  cs_bvh_raycast(&bvh, v3(0.2, 1, 0.2), v3(0, -1, 0), 0.75, 0, ray_collect_fn, &rc);
  CHECK(rc.calls == 1);
  memset(&rc, 0, sizeof rc);   /* an unbounded ray beside it: nothing */
  cs_bvh_raycast(&bvh, v3(5, 1, 0.2), v3(0, -1, 0), INFINITY, 0, ray_collect_fn, &rc);
  CHECK(rc.calls == 0);
  memset(&rc, 0, sizeof rc);   /* an unbounded ray through it */
  rc.m = &m; rc.o = v3(0.2, 1, 0.2); rc.d = v3(0, -1e-300, 0);
  cs_bvh_raycast(&bvh, rc.o, rc.d, INFINITY, 0, ray_nearest_fn, &rc);
  CHECKF(rc.hit && fabs(rc.best / 0.75e300 - 1) < 1e-12, "hit %d at %g", rc.hit, rc.best);
  memset(&rc, 0, sizeof rc);   /* negative tmax: nothing */
  cs_bvh_raycast(&bvh, v3(0.2, 1, 0.2), v3(0, -1, 0), -1, 0, ray_collect_fn, &rc);
  CHECK(rc.calls == 0);
  memset(&rc, 0, sizeof rc);   /* a zero direction inside the box */
  cs_bvh_raycast(&bvh, v3(0.2, 0.25, 0.2), v3(0, 0, 0), 1, 0, ray_collect_fn, &rc);
  CHECK(rc.calls == 1);
  cs_bvh_free(&bvh, &g_alloc);
  CHECK(g_ta.live == 0);
  mesh_free(&m);
}

/* Every centroid the same: 200k copies of one triangle, and nested sizes. */
static void case_identical(void) {
  uint32_t n = 200000, i, j;
  Mesh m = mesh_alloc(3, n, 0);
  cs_Bvh bvh;
  TreeStats st;
  double t0;
  m.v[0] = 1; m.v[1] = 2; m.v[2] = 3;
  m.v[3] = 2; m.v[4] = 2; m.v[5] = 3;
  m.v[6] = 1; m.v[7] = 3; m.v[8] = 3;
  for (i = 0; i < 3 * n; i++) m.t[i] = i % 3;
  alloc_reset((size_t)-1);
  t0 = now();
  CHECK(cs_bvh_build(&bvh, &g_alloc, m.v, m.t, NULL, n) == CS_OK);
  t0 = now() - t0;
  st = check_tree(&bvh, &m);
  printf("        %u identical: %.3f s, depth %u, %u nodes\n", n, t0, st.depth, bvh.node_count);
  cs_bvh_free(&bvh, &g_alloc);
  mesh_free(&m);
  m = make_soup(3000, 1, 0, 0);   /* centred on (5, 5, 5), sizes from 1 down to 2^-40 */
  for (i = 0; i < m.nt; i++) {
    double s = ldexp(1, -(int)(i % 41));
    for (j = 0; j < 3; j++) {
      double *p = m.v + 9 * (size_t)i + 3 * j;
      p[0] = 5 + s * (j == 1 ? 2 : -1);
      p[1] = 5 + s * (j == 2 ? 2 : -1);
      p[2] = 5 - s;
    }
  }
  check_all(&m, 1000, 300, 300);
  mesh_free(&m);
}

/* n triangles of sizes 2^(k mod period), side by side along x: the binned
** SAH keeps splitting the big ones off, and only the depth bound keeps the
** tree shallow. */
static Mesh make_chain(uint32_t n, int period) {
  Mesh m = mesh_alloc(3 * n, n, 0);
  uint32_t i, j;
  for (i = 0; i < n; i++) {
    double x = ldexp(1, (int)(i % (uint32_t)period)) * (1 + (double)(i / (uint32_t)period) * 1e-3);
    for (j = 0; j < 3; j++) {
      double *p = m.v + 9 * (size_t)i + 3 * j;
      p[0] = x + (j == 1 ? x * 0.01 : 0);
      p[1] = j == 2 ? 1 : 0;
      p[2] = 0;
      m.t[3 * i + j] = 3 * i + j;
    }
  }
  return m;
}

/* groups of 16 small triangles, 1e9 apart along z: 8 at x = 0 (a full
** leaf), one each at x = 10, 100, .., 1e8. The SAH peels the far ones off
** one at a time (16 -> 1 + 15 -> ... -> 1 + 8): 17 nodes a group, more
** nodes than triangles, so the build's reserve of m nodes must grow. */
static Mesh make_peel(uint32_t groups) {
  Mesh m = mesh_alloc(48 * groups, 16 * groups, 0);
  uint32_t g, i, j;
  for (g = 0; g < groups; g++)
    for (i = 0; i < 16; i++) {
      uint32_t t = 16 * g + i;
      double x = i < 8 ? 0 : pow(10.0, (double)(i - 7));
      for (j = 0; j < 3; j++) {
        double *p = m.v + 9 * (size_t)t + 3 * j;
        p[0] = x + (j == 1 ? 0.1 : 0);
        p[1] = j == 2 ? 0.1 : 0;
        p[2] = 1e9 * g;
        m.t[3 * t + j] = 3 * t + j;
      }
    }
  return m;
}

static void case_chain(void) {
  Mesh m = make_chain(4000, 120);
  TreeStats st = check_all(&m, 600, 200, 200);
  uint32_t g;
  printf("        chain of 2^k: depth %u\n", st.depth);
  mesh_free(&m);
  for (g = 1; g <= 64; g *= 8) {
    cs_Bvh bvh;
    m = make_peel(g);
    alloc_reset((size_t)-1);
    CHECK(cs_bvh_build(&bvh, &g_alloc, m.v, m.t, NULL, m.nt) == CS_OK);
    check_tree(&bvh, &m);
    CHECKF(bvh.node_count > m.nt, "%u nodes for %u triangles", bvh.node_count, m.nt);
    cs_bvh_free(&bvh, &g_alloc);
    CHECK(g_ta.live == 0 && !g_ta.bad_size);
    if (g == 64) check_all(&m, 300, 100, 100);
    mesh_free(&m);
  }
}

/* {------------------------------------------------------------------
** The linear top (CS_BVH_LINEAR_MAX): awkward inputs on both sides of it
** ------------------------------------------------------------------*/

/* n copies of one triangle at (x, y, z), size s, from triangle first of m
** on, as their own vertices. */
static void put_copies(Mesh *m, uint32_t first, uint32_t n, double x, double y, double z,
                       double s) {
  uint32_t i, j;
  for (i = first; i < first + n; i++)
    for (j = 0; j < 3; j++) {
      double *p = m->v + 9 * (size_t)i + 3 * j;
      p[0] = x + (j == 1 ? s : 0);
      p[1] = y + (j == 2 ? s : 0);
      p[2] = z;
      m->t[3 * i + j] = 3 * i + j;
    }
}

/* Triangles i of m, as their own vertices, moved to random spots in the
** cube of side s at c (sizes s / 100). */
static void put_random(Mesh *m, uint32_t first, uint32_t n, double c, double s) {
  uint32_t i, j, k;
  for (i = first; i < first + n; i++) {
    double o[3];
    for (k = 0; k < 3; k++) o[k] = c + rnd_range(0, s);
    for (j = 0; j < 3; j++) {
      for (k = 0; k < 3; k++)
        m->v[9 * (size_t)i + 3 * j + k] = o[k] + (j == k ? s * 0.01 * (0.1 + rnd()) : 0);
      m->t[3 * i + j] = 3 * i + j;
    }
  }
}

/* The layout and bounds, box queries against brute force, and with rays
** also rays and nearest points; plus the depth bound of the linear top
** (60 levels below the root, under the walks' stack of 64). */
static void check_linear(const Mesh *m, const char *what, int rays) {
  cs_Bvh bvh;
  TreeStats st;
  alloc_reset((size_t)-1);
  CHECKF(cs_bvh_build(&bvh, &g_alloc, m->v, m->t, m->skip, m->nt) == CS_OK, "%s", what);
  st = check_tree(&bvh, m);
  CHECKF(st.depth <= 61, "%s: depth %u", what, st.depth);  /* counts the root as 1 */
  check_boxes(&bvh, m, 400 / qdiv);
  if (rays) {
    check_rays(&bvh, m, 100 / qdiv);
    check_points(&bvh, m, 100 / qdiv);
  }
  cs_bvh_free(&bvh, &g_alloc);
  CHECKF(g_ta.live == 0 && !g_ta.bad_size, "%s: %lu bytes leaked", what, (unsigned long)g_ta.live);
}

static void case_linear(void) {
  const uint32_t T = CS_BVH_LINEAR_MAX;
  const uint32_t sizes[] = {1, 2, T - 1, T, T + 1, 2 * T, 2 * T + 1, 5 * T + 3};
  size_t k;
  uint32_t i;
  Mesh m;
  /* thresholds' edges: soups and heightfields of those sizes */
  for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    m = make_soup(sizes[k], 50, 0, 0);
    check_linear(&m, "soup", 1);
    mesh_free(&m);
  }
  for (i = 15; i <= 17; i++) {   /* 450, 512 and 578 triangles */
    m = make_heightfield(i, 0, 0.3);
    check_linear(&m, "heightfield", 1);
    mesh_free(&m);
  }
  /* skips taking a mesh below the threshold, and one staying above it */
  m = make_soup(T + 40, 50, 0, 1);
  for (i = 0; i < 41; i++) m.skip[i] = 1;
  check_linear(&m, "skipped below", 1);
  for (i = 0; i < 41; i++) m.skip[i] = 0;
  m.skip[m.nt - 1] = 1;
  check_linear(&m, "skipped above", 1);
  mesh_free(&m);
  /* every centroid equal: one Morton code for a range above the threshold,
  ** built by the SAH in records grown for it */
  m = mesh_alloc(9 * (3 * T + 1), 3 * T + 1, 0);
  put_copies(&m, 0, m.nt, 1, 2, 3, 1);
  check_linear(&m, "identical", 1);
  mesh_free(&m);
  /* two far clusters, each inside one cell of the grid: each a range of one
  ** code above the threshold */
  m = mesh_alloc(9 * 4 * T, 4 * T, 0);
  put_random(&m, 0, 2 * T, 0, 1);
  put_random(&m, 2 * T, 2 * T, 1e6, 1);
  check_linear(&m, "far clusters", 1);
  /* the same, interleaved: the sort, not the input, groups them */
  for (i = 0; i < 4 * T; i++)
    if (i % 2) put_random(&m, i, 1, 1e6, 1);
    else put_random(&m, i, 1, 0, 1);
  check_linear(&m, "interleaved clusters", 1);
  mesh_free(&m);
  /* huge coordinates: keys past FLT_MAX (inf), some at -1e300, one scale
  ** over everything; tiny ones: keys below the smallest float */
  m = mesh_alloc(9 * 3 * T, 3 * T, 0);
  put_random(&m, 0, T, 0, 100);
  put_random(&m, T, T, 3e38, 1e37);
  put_random(&m, 2 * T, T, -1e300, 1e299);
  check_linear(&m, "huge", 0);   /* rays of 1e300 overflow their slabs */
  put_random(&m, 0, 3 * T, 1e-300, 1e-301);
  check_linear(&m, "tiny", 1);
  put_random(&m, 0, 3 * T, 0, 1e-40);   /* float keys: subnormal or 0 */
  check_linear(&m, "subnormal", 1);
  /* nested sizes around one point: long ranges of one code */
  for (i = 0; i < m.nt; i++) put_copies(&m, i, 1, 5, 5, 5, ldexp(1, -(int)(i % 60)));
  check_linear(&m, "nested", 1);
  mesh_free(&m);
}

/* }------------------------------------------------------------------ */

/* Fails the build's allocations from the first on: ENOMEM, an empty tree,
** nothing leaked; returns how many it needs. */
static int alloc_fail_build(const Mesh *m) {
  size_t limit;
  for (limit = 0; limit <= 100; limit++) {
    cs_Bvh bvh;
    cs_Status s;
    memset(&bvh, 0xab, sizeof bvh);
    alloc_reset(limit);
    s = cs_bvh_build(&bvh, &g_alloc, m->v, m->t, m->skip, m->nt);
    if (s == CS_OK) {
      check_tree(&bvh, m);
      cs_bvh_free(&bvh, &g_alloc);
      CHECK(g_ta.live == 0 && !g_ta.bad_size);
      return (int)limit;
    }
    CHECK(s == CS_ENOMEM);
    CHECK(bvh.nodes == NULL && bvh.prims == NULL && bvh.node_count == 0 && bvh.prim_count == 0);
    CHECKF(g_ta.live == 0, "limit %lu: %lu bytes leaked", (unsigned long)limit, (unsigned long)g_ta.live);
    CHECK(!g_ta.bad_size);
  }
  CHECK(!"build never succeeds");
  return -1;
}

/* Every allocation failing in turn: ENOMEM, an empty tree, nothing leaked. */
static void case_alloc_fail(void) {
  Mesh m = make_peel(8);
  size_t limit;
  printf("        build succeeds from %d allocations on (more nodes than triangles)\n",
         alloc_fail_build(&m));
  mesh_free(&m);
  m = mesh_alloc(9 * (2 * CS_BVH_LINEAR_MAX + 1), 2 * CS_BVH_LINEAR_MAX + 1, 0);
  put_copies(&m, 0, m.nt, 1, 2, 3, 1);
  printf("        build succeeds from %d allocations on (one code above CS_BVH_LINEAR_MAX:"
         " the records grow)\n", alloc_fail_build(&m));
  mesh_free(&m);
  m = make_soup(3000, 10, 0, 1);
  printf("        build succeeds from %d allocations on (soup)\n", alloc_fail_build(&m));
  /* query_box: a buffer that cannot grow */
  for (limit = 0; limit < 30; limit++) {
    cs_Bvh bvh;
    cs_U32Buf out = {NULL, 0, 0};
    cs_Status s;
    size_t before;
    alloc_reset((size_t)-1);
    CHECK(cs_bvh_build(&bvh, &g_alloc, m.v, m.t, m.skip, m.nt) == CS_OK);
    before = g_ta.live;
    g_ta.limit = g_ta.calls + limit;
    s = cs_bvh_query_box(&bvh, &g_alloc, m.v, m.t, v3(-20, -20, -20), v3(20, 20, 20), &out);
    CHECK(s == CS_OK || s == CS_ENOMEM);
    CHECK(out.count <= out.cap);
    if (s == CS_ENOMEM) CHECK(out.count == out.cap);
    cs_u32buf_free(&g_alloc, &out);
    CHECK(g_ta.live == before);
    cs_bvh_free(&bvh, &g_alloc);
    CHECK(g_ta.live == 0 && !g_ta.bad_size);
    if (s == CS_OK) break;
  }
  CHECK(limit > 0 && limit < 30);
  mesh_free(&m);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Times a 1M-triangle heightfield (708 x 708 cells): build, refit, queries. */
static void case_big(void) {
  uint32_t w = 708, i;
  Mesh m = make_heightfield(w, 0, 0);
  cs_Alloc def = cs_default_alloc();
  cs_Bvh bvh;
  TreeStats st;
  double times[5], cpu[5], t0, trefit, tq;
  clock_t c0;
  int reps = quick ? 1 : 5, r;
  size_t found = 0;
  for (r = 0; r < reps; r++) {
    c0 = clock();
    t0 = now();
    CHECK(cs_bvh_build(&bvh, &def, m.v, m.t, NULL, m.nt) == CS_OK);
    times[r] = now() - t0;
    cpu[r] = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (r + 1 < reps) cs_bvh_free(&bvh, &def);
  }
  qsort(times, (size_t)reps, sizeof *times, cmp_double);
  qsort(cpu, (size_t)reps, sizeof *cpu, cmp_double);
  st = check_tree(&bvh, &m);
  heightfield_move(&m, w, 0.5);
  t0 = now();
  cs_bvh_refit(&bvh, m.v, m.t);
  trefit = now() - t0;
  {
    cs_U32Buf out = {NULL, 0, 0};
    t0 = now();
    for (i = 0; i < 100000; i++) {
      double x = rnd_range(0, w), z = rnd_range(0, w);
      out.count = 0;
      CHECK(cs_bvh_query_box(&bvh, &def, m.v, m.t, v3(x - 1, -5, z - 1), v3(x + 1, 5, z + 1), &out) == CS_OK);
      found += out.count;
    }
    tq = now() - t0;
    cs_u32buf_free(&def, &out);
  }
  printf("        %u triangles: build %.3f s wall, %.3f s CPU (best of %d; median %.3f wall),"
         " refit %.4f s\n", m.nt, times[0], cpu[0], reps, times[reps / 2], trefit);
  printf("        %u nodes (%.3f a triangle), %u leaves, %.2f bytes a triangle, depth %u, SAH %.1f\n",
         bvh.node_count, (double)bvh.node_count / m.nt, st.leaves,
         (double)cs_bvh_memory(&bvh) / m.nt, st.depth, st.sah);
  printf("        100000 box queries (2 x 10 x 2): %.3f s, %.1f triangles each\n", tq,
         (double)found / 100000);
  if (times[0] >= 0.3)   /* not a failure: a loaded machine or a sanitizer */
    printf("        WARNING: the build took %.3f s, the target is < 0.3 s\n", times[0]);
  CHECK(trefit < times[0]);
  cs_bvh_free(&bvh, &def);
  mesh_free(&m);
}

/* }================================================================== */

int main(int argc, char **argv) {
  uint64_t seed = 20240611;
  int i;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-q") == 0) { quick = 1; qdiv = 4; }
    else seed = strtoull(argv[i], NULL, 10);
  }
  rng_state = seed;
  printf("test_bvh: seed %llu\n", (unsigned long long)seed);
  run_case("soup: queries, rays, points = brute force", case_soup);
  run_case("far from the origin: conservative float bounds", case_soup_far);
  run_case("heightfield: queries, rays, points = brute force", case_heightfield);
  run_case("refit = brute force = fresh build", case_refit);
  run_case("refit of a few triangles = whole refit", case_refit_some);
  run_case("empty and all-skipped", case_empty);
  run_case("one triangle, flat rays", case_one);
  run_case("identical centroids", case_identical);
  run_case("depth bound on a 2^k chain; more nodes than triangles", case_chain);
  run_case("linear top: thresholds, one code, far clusters, huge and tiny", case_linear);
  run_case("failing allocator", case_alloc_fail);
  run_case("1M-triangle heightfield", case_big);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
