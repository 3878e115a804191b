/*
** test_query.c: the world queries against long double brute force over every
** triangle of random scenes (rotated, scaled, mirrored, sheared), public API only.
** cc -std=c99 -O2 -Icsrc -Ispec/c spec/c/test_query.c spec/c/sweep_reference.c build/libcollideslide.a -lm
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"
#include "sweep_reference.h"

#define SEED 77031ULL
#define MARGIN 1e-9L      /* brute-force cases closer than this to a boundary are not called */

typedef long double ld;

typedef struct Stats { long passed, failed, shown; } Stats;

static int check(Stats *st, int ok, const char *what, double x, double y) {
  if (ok) { st->passed++; return 1; }
  st->failed++;
  if (st->shown++ < 40) printf("FAIL %s (%.17g vs %.17g)\n", what, x, y);
  return 0;
}

/* {==================================================================
** Counting allocator (with a failure switch)
** ===================================================================*/

typedef struct CountAlloc { long live, fail_after; } CountAlloc;

static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  CountAlloc *c = (CountAlloc *)ud;
  (void)osize;
  if (nsize == 0) {
    if (ptr) c->live--;
    free(ptr);
    return NULL;
  }
  if (c->fail_after == 0) return NULL;
  if (c->fail_after > 0) c->fail_after--;
  if (!ptr) c->live++;
  return realloc(ptr, nsize);
}

/* }================================================================== */

/* {==================================================================
** Scenes: the test keeps its own copy of every mesh and transform
** ===================================================================*/

#define MAXTRIS 400
#define MAXBODIES 10

typedef struct SMesh {
  double v[3 * 3 * MAXTRIS];
  unsigned idx[3 * MAXTRIS];
  int tags[MAXTRIS];
  int degenerate[MAXTRIS];
  size_t nverts, ntris;
  int backfaces;
  cs_Mesh *mesh;
} SMesh;

typedef struct Scene {
  cs_Alloc alloc;
  CountAlloc counter;
  cs_World *world;
  SMesh meshes[3];
  cs_Body *bodies[MAXBODIES];
  int body_mesh[MAXBODIES];
  ld M[MAXBODIES][12];    /* world = M[0..8] p + M[9..11], row-major, from get_matrix */
  ld det[MAXBODIES];
  int nbodies;
} Scene;

static void sm_add_tri(SMesh *m, const double a[3], const double b[3], const double c[3],
                       int tag, int degenerate) {
  size_t k;
  for (k = 0; k < 3; k++) {
    m->v[3 * m->nverts + k] = a[k];
    m->v[3 * m->nverts + 3 + k] = b[k];
    m->v[3 * m->nverts + 6 + k] = c[k];
  }
  for (k = 0; k < 3; k++) m->idx[3 * m->ntris + k] = (unsigned)(m->nverts + k);
  m->nverts += 3;
  m->tags[m->ntris] = tag;
  m->degenerate[m->ntris] = degenerate;
  m->ntris++;
}

static void rnd3(ref_Rng *r, double o[3], double s) {
  o[0] = ref_rng_range(r, -s, s); o[1] = ref_rng_range(r, -s, s); o[2] = ref_rng_range(r, -s, s);
}

/* A soup of random triangles, a few degenerate ones among them. */
static void make_soup(ref_Rng *r, SMesh *m, int backfaces) {
  int i, k;
  double a[3], b[3], c[3], s;
  m->nverts = m->ntris = 0;
  m->backfaces = backfaces;
  for (i = 0; i < 150; i++) {
    rnd3(r, a, 4);
    s = ref_rng_range(r, 0.2, 3);
    rnd3(r, b, s); rnd3(r, c, s);
    for (k = 0; k < 3; k++) { b[k] += a[k]; c[k] += a[k]; }
    sm_add_tri(m, a, b, c, (int)(ref_rng_uniform(r) * 4), 0);
  }
  for (i = 0; i < 6; i++) {     /* repeated vertices and exact collinear triples */
    rnd3(r, a, 3); rnd3(r, b, 3);
    if (i % 2) sm_add_tri(m, a, a, b, 9, 1);
    else {
      for (k = 0; k < 3; k++) c[k] = a[k];
      c[i % 3] = a[i % 3] + 1;
      for (k = 0; k < 3; k++) b[k] = a[k];
      b[i % 3] = a[i % 3] + 2;
      sm_add_tri(m, a, b, c, 9, 1);
    }
  }
}

/* A height field over [-5, 5]^2 in x z, 8 by 8 cells, fronts facing up. */
static void make_terrain(ref_Rng *r, SMesh *m, int backfaces) {
  double h[9][9], p[4][3];
  int i, j, k;
  m->nverts = m->ntris = 0;
  m->backfaces = backfaces;
  for (i = 0; i < 9; i++)
    for (j = 0; j < 9; j++) h[i][j] = ref_rng_range(r, -1, 1);
  for (i = 0; i < 8; i++)
    for (j = 0; j < 8; j++) {
      for (k = 0; k < 4; k++) {
        int di = k & 1, dj = k >> 1;
        p[k][0] = -5 + 10.0 * (i + di) / 8;
        p[k][1] = h[i + di][j + dj];
        p[k][2] = -5 + 10.0 * (j + dj) / 8;
      }
      /* (p1 - p0) x (p2 - p0) with x then z steps points up for p0 p2 p1 */
      sm_add_tri(m, p[0], p[2], p[1], i, 0);
      sm_add_tri(m, p[1], p[2], p[3], j, 0);
    }
}

/* A closed cube of half-size 1, fronts facing out. */
static void make_cube(SMesh *m, int backfaces) {
  static const int f[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                              {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  double c[8][3];
  int i;
  m->nverts = m->ntris = 0;
  m->backfaces = backfaces;
  for (i = 0; i < 8; i++) {
    c[i][0] = i & 1 ? 1 : -1; c[i][1] = i & 2 ? 1 : -1; c[i][2] = i & 4 ? 1 : -1;
  }
  for (i = 0; i < 6; i++) {
    sm_add_tri(m, c[f[i][0]], c[f[i][1]], c[f[i][2]], i, 0);
    sm_add_tri(m, c[f[i][0]], c[f[i][2]], c[f[i][3]], i, 0);
  }
}

static int sm_build(Scene *sc, SMesh *m) {
  cs_MeshDesc d;
  size_t bad = 0;
  memset(&d, 0, sizeof d);
  d.vertices = m->v;
  d.vertex_count = m->nverts;
  d.indices = m->idx;
  d.triangle_count = m->ntris;
  d.tags = m->tags;
  d.backfaces = m->backfaces;
  return cs_mesh_new(&sc->alloc, &d, &m->mesh, &bad) == CS_OK;
}

/* Random unit quaternion. */
static void rnd_quat(ref_Rng *r, double q[4]) {
  double l;
  do {
    q[0] = ref_rng_range(r, -1, 1); q[1] = ref_rng_range(r, -1, 1);
    q[2] = ref_rng_range(r, -1, 1); q[3] = ref_rng_range(r, -1, 1);
    l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  } while (l < 0.1 || l > 1);
  q[0] /= l; q[1] /= l; q[2] /= l; q[3] /= l;
}

/* Places body i: kind 0 translation, 1 rotation and uniform scale, 2 rotation
** and non-uniform scale (mirroring at random), 3 a general sheared matrix. */
static void place_body(ref_Rng *r, Scene *sc, int i, int kind) {
  cs_Body *b = sc->bodies[i];
  cs_Vec3 t, s;
  double q[4] = {0, 0, 0, 1}, m[16];
  int k, j;
  t.x = ref_rng_range(r, -6, 6); t.y = ref_rng_range(r, -6, 6); t.z = ref_rng_range(r, -6, 6);
  s.x = s.y = s.z = 1;
  if (kind >= 1) rnd_quat(r, q);
  if (kind == 1) s.x = s.y = s.z = ref_rng_range(r, 0.3, 3);
  if (kind >= 2) {
    s.x = ref_rng_range(r, 0.3, 3) * (ref_rng_uniform(r) < 0.3 ? -1 : 1);
    s.y = ref_rng_range(r, 0.3, 3);
    s.z = ref_rng_range(r, 0.3, 3);
  }
  cs_body_set_transform(b, &t, q, &s);
  if (kind == 3) {
    cs_body_get_matrix(b, m);
    m[4] += ref_rng_range(r, -0.8, 0.8);      /* shear: column 1, row 0 */
    m[2] += ref_rng_range(r, -0.8, 0.8);
    if (cs_body_set_matrix(b, m) != CS_OK) cs_body_set_transform(b, &t, q, &s);
  }
  cs_body_get_matrix(b, m);
  for (k = 0; k < 3; k++) {
    for (j = 0; j < 3; j++) sc->M[i][3 * k + j] = m[4 * j + k];
    sc->M[i][9 + k] = m[12 + k];
  }
  sc->det[i] = sc->M[i][0] * (sc->M[i][4] * sc->M[i][8] - sc->M[i][5] * sc->M[i][7])
             - sc->M[i][1] * (sc->M[i][3] * sc->M[i][8] - sc->M[i][5] * sc->M[i][6])
             + sc->M[i][2] * (sc->M[i][3] * sc->M[i][7] - sc->M[i][4] * sc->M[i][6]);
}

static int scene_new(ref_Rng *r, Scene *sc) {
  int i;
  memset(sc, 0, sizeof *sc);
  sc->counter.fail_after = -1;
  sc->alloc.fn = count_alloc;
  sc->alloc.ud = &sc->counter;
  make_soup(r, &sc->meshes[0], CS_BACKFACES_COLLIDE);
  make_terrain(r, &sc->meshes[1], CS_BACKFACES_IGNORE);
  make_cube(&sc->meshes[2], ref_rng_uniform(r) < 0.5 ? CS_BACKFACES_IGNORE : CS_BACKFACES_COLLIDE);
  for (i = 0; i < 3; i++)
    if (!sm_build(sc, &sc->meshes[i])) return 0;
  if (cs_world_new(&sc->alloc, &sc->world) != CS_OK) return 0;
  sc->nbodies = 4 + (int)(ref_rng_uniform(r) * (MAXBODIES - 4));
  for (i = 0; i < sc->nbodies; i++) {
    sc->body_mesh[i] = i < 3 ? i : (int)(ref_rng_uniform(r) * 3);
    if (cs_world_add(sc->world, sc->meshes[sc->body_mesh[i]].mesh, &sc->bodies[i]) != CS_OK)
      return 0;
    cs_body_set_userdata(sc->bodies[i], (void *)(size_t)(i + 1));
    place_body(r, sc, i, i % 4);
    cs_body_set_layers(sc->bodies[i], 1u << (int)(ref_rng_uniform(r) * 4));
    if (i == 5) cs_body_set_enabled(sc->bodies[i], 0);
  }
  return 1;
}

/* Moves 20 vertices of the soup (cs_mesh_set_vertex, no refit: the queries
** must notice) and gives body 0 a new placement. */
static void edit_scene(ref_Rng *r, Scene *sc) {
  SMesh *m = &sc->meshes[0];
  int i, k;
  for (i = 0; i < 20; i++) {
    size_t t = (size_t)(ref_rng_uniform(r) * 150), vi = m->idx[3 * t + (i % 3)];
    cs_Vec3 p;
    for (k = 0; k < 3; k++) m->v[3 * vi + k] += ref_rng_range(r, -2, 2);
    p.x = m->v[3 * vi]; p.y = m->v[3 * vi + 1]; p.z = m->v[3 * vi + 2];
    cs_mesh_set_vertex(m->mesh, vi, &p);
  }
  place_body(r, sc, 0, 2);
}

static void scene_free(Scene *sc) {
  int i;
  cs_world_free(sc->world);
  for (i = 0; i < 3; i++) cs_mesh_free(sc->meshes[i].mesh);
}

/* The index of body b in the scene (userdata holds it). */
static int body_index(const cs_Body *b) { return (int)(size_t)cs_body_get_userdata(b) - 1; }

/* World vertices of triangle t of body i, in long double. */
static void world_tri(const Scene *sc, int i, size_t t, ld v[3][3]) {
  const SMesh *m = &sc->meshes[sc->body_mesh[i]];
  const ld *M = sc->M[i];
  int k, j;
  for (k = 0; k < 3; k++) {
    const double *p = m->v + 3 * m->idx[3 * t + k];
    for (j = 0; j < 3; j++)
      v[k][j] = M[3 * j] * p[0] + M[3 * j + 1] * p[1] + M[3 * j + 2] * p[2] + M[9 + j];
  }
}

/* 1 when body i takes part in a query with mask. */
static int body_live(const Scene *sc, int i, unsigned mask) {
  return cs_body_get_enabled(sc->bodies[i]) && (cs_body_get_layers(sc->bodies[i]) & mask) != 0;
}

static void lsub(ld r[3], const ld a[3], const ld b[3]) {
  r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; r[2] = a[2] - b[2];
}
static ld ldot(const ld a[3], const ld b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void lcross(ld r[3], const ld a[3], const ld b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1]; r[1] = a[2] * b[0] - a[0] * b[2]; r[2] = a[0] * b[1] - a[1] * b[0];
}
static ld llen(const ld a[3]) { return sqrtl(ldot(a, a)); }

/* Unit world front normal of a world triangle of body i. */
static void front_normal(const Scene *sc, int i, ld v[3][3], ld n[3]) {
  ld e1[3], e2[3], l;
  lsub(e1, v[1], v[0]);
  lsub(e2, v[2], v[0]);
  lcross(n, e1, e2);
  l = llen(n) * (sc->det[i] < 0 ? -1 : 1);
  n[0] /= l; n[1] /= l; n[2] /= l;
}

/* }================================================================== */

/* {==================================================================
** Brute-force raycast
** ===================================================================*/

typedef struct BHit { ld t; int body; size_t tri; int sure; } BHit;

/* Segment o + s d, s in [0, 1], against a world triangle: 1 sure hit (s in
** *s), 0 sure miss, -1 too close to call. one_sided: only when dot(d, front) < 0. */
static int brute_ray(const ld o[3], const ld d[3], ld v[3][3], const ld front[3], int one_sided,
                     ld *s) {
  ld n[3], e1[3], e2[3], q[3], w[3], x[3], dn, dl = llen(d), mn = 1e30L, nl;
  int i, k;
  lsub(e1, v[1], v[0]);
  lsub(e2, v[2], v[0]);
  lcross(n, e1, e2);
  nl = llen(n);
  dn = ldot(d, n) / nl;
  if (fabsl(dn) < 1e-7L * dl) return -1;
  if (one_sided && ldot(d, front) >= 0) return 0;
  lsub(w, v[0], o);
  *s = ldot(w, n) / nl / dn;
  for (k = 0; k < 3; k++) q[k] = o[k] + d[k] * *s;
  for (i = 0; i < 3; i++) {
    ld e[3], dist;
    lsub(e, v[(i + 1) % 3], v[i]);
    lsub(w, q, v[i]);
    lcross(x, e, w);
    dist = ldot(x, n) / nl / llen(e);
    if (dist < mn) mn = dist;
  }
  if (mn < -MARGIN * (1 + dl) || *s * dl < -MARGIN || (*s - 1) * dl > MARGIN) return 0;
  if (mn > MARGIN * (1 + dl) && *s * dl > MARGIN && (*s - 1) * dl < -MARGIN) return 1;
  return -1;
}

/* Every sure or uncertain hit of the segment; returns the count. */
static int brute_ray_all(const Scene *sc, cs_Vec3 o3, cs_Vec3 d3, unsigned mask, BHit *out) {
  ld o[3], d[3], v[3][3], n[3], s = 0;
  int i, n_out = 0, r;
  size_t t;
  o[0] = o3.x; o[1] = o3.y; o[2] = o3.z;
  d[0] = d3.x; d[1] = d3.y; d[2] = d3.z;
  for (i = 0; i < sc->nbodies; i++) {
    const SMesh *m = &sc->meshes[sc->body_mesh[i]];
    if (!body_live(sc, i, mask)) continue;
    for (t = 0; t < m->ntris; t++) {
      if (m->degenerate[t]) continue;
      world_tri(sc, i, t, v);
      front_normal(sc, i, v, n);
      r = brute_ray(o, d, v, n, m->backfaces == CS_BACKFACES_IGNORE, &s);
      if (r == 0) continue;
      out[n_out].t = s;
      out[n_out].body = i;
      out[n_out].tri = t;
      out[n_out].sure = r == 1;
      n_out++;
    }
  }
  return n_out;
}

/* A reported hit is sane: unit normal facing the origin and parallel to the
** triangle's, point = o + t d on the triangle, tag matches. */
static void check_hit_shape(Stats *st, const Scene *sc, cs_Vec3 o, cs_Vec3 d, const cs_Hit *h) {
  int i = body_index(h->body);
  ld v[3][3], n[3], p[3], near[3], dist, nl, dotn;
  const SMesh *m = &sc->meshes[sc->body_mesh[i]];
  world_tri(sc, i, h->triangle, v);
  front_normal(sc, i, v, n);
  nl = sqrtl((ld)h->normal.x * h->normal.x + (ld)h->normal.y * h->normal.y
             + (ld)h->normal.z * h->normal.z);
  dotn = fabsl(n[0] * h->normal.x + n[1] * h->normal.y + n[2] * h->normal.z);
  check(st, fabsl(nl - 1) < 1e-12L, "ray: normal is unit", (double)nl, 1);
  check(st, dotn > 1 - 1e-9L, "ray: normal is the triangle's", (double)dotn, 1);
  check(st, h->normal.x * d.x + h->normal.y * d.y + h->normal.z * d.z <= 0,
        "ray: normal faces the origin", 0, 0);
  p[0] = h->point.x; p[1] = h->point.y; p[2] = h->point.z;
  dist = ref_closest_on_triangle(p, v[0], v[1], v[2], near);
  check(st, dist < 1e-9L, "ray: point on the triangle", (double)dist, 0);
  check(st, fabs(o.x + d.x * h->t - h->point.x) + fabs(o.y + d.y * h->t - h->point.y)
            + fabs(o.z + d.z * h->t - h->point.z) < 1e-12 * (1 + fabs(o.x) + fabs(d.x)
            + fabs(o.y) + fabs(d.y) + fabs(o.z) + fabs(d.z)),
        "ray: point = o + t d", h->t, 0);
  check(st, h->tag == m->tags[h->triangle], "ray: tag", h->tag, m->tags[h->triangle]);
  check(st, !m->degenerate[h->triangle], "ray: never a degenerate triangle", (double)h->triangle, 0);
}

typedef struct AllCtx { cs_Hit hits[4 * MAXTRIS]; int n, stop_after; } AllCtx;

static int collect_hit(void *ud, const cs_Hit *h) {
  AllCtx *c = (AllCtx *)ud;
  c->hits[c->n++] = *h;
  return c->stop_after < 0 || c->n < c->stop_after;
}

static void test_rays(Stats *st, ref_Rng *r, Scene *sc, int nrays) {
  static BHit bh[MAXBODIES * MAXTRIS];
  static AllCtx all;
  int q, i, j, skipped = 0;
  for (q = 0; q < nrays; q++) {
    cs_Vec3 o, d;
    unsigned mask = ref_rng_uniform(r) < 0.5 ? ~0u : (unsigned)(ref_rng_uniform(r) * 16);
    cs_Hit h;
    int nb, got, best = -1, uncertain_near = 0;
    long count;
    double a[3];
    rnd3(r, a, 14); o.x = a[0]; o.y = a[1]; o.z = a[2];
    rnd3(r, a, 14); d.x = a[0] - o.x; d.y = a[1] - o.y; d.z = a[2] - o.z;
    if (q % 7 == 0) { d.x *= 0.1; d.y *= 0.1; d.z *= 0.1; }   /* short segments */
    nb = brute_ray_all(sc, o, d, mask, bh);
    for (i = 0; i < nb; i++)
      if (bh[i].sure && (best < 0 || bh[i].t < bh[best].t)) best = i;
    for (i = 0; i < nb; i++)
      if (!bh[i].sure && (best < 0 || bh[i].t <= bh[best].t + 1e-9L)) uncertain_near = 1;
    got = cs_world_raycast(sc->world, &o, &d, mask, &h);
    if (uncertain_near) { skipped++; continue; }
    check(st, got == (best >= 0), "raycast: hit or miss as brute force", got, best >= 0);
    if (got && best >= 0) {
      check(st, fabsl(h.t - bh[best].t) <= 1e-10L, "raycast: nearest t", h.t, (double)bh[best].t);
      check_hit_shape(st, sc, o, d, &h);
      check(st, h.t >= 0 && h.t <= 1, "raycast: t in [0, 1]", h.t, 0);
    }
    /* raycast_all: every sure hit, no sure miss, nearest first */
    all.n = 0;
    all.stop_after = -1;
    count = cs_world_raycast_all(sc->world, &o, &d, mask, collect_hit, &all);
    check(st, count == all.n, "raycastAll: count = calls", (double)count, all.n);
    for (i = 1; i < all.n; i++)
      check(st, all.hits[i].t >= all.hits[i - 1].t, "raycastAll: nearest first", all.hits[i].t,
            all.hits[i - 1].t);
    for (i = 0; i < nb; i++) {
      int found = 0;
      if (!bh[i].sure) continue;
      for (j = 0; j < all.n; j++)
        if (body_index(all.hits[j].body) == bh[i].body && all.hits[j].triangle == bh[i].tri) {
          found = 1;
          check(st, fabsl(all.hits[j].t - bh[i].t) <= 1e-10L, "raycastAll: t", all.hits[j].t,
                (double)bh[i].t);
        }
      check(st, found == 1, "raycastAll: every sure hit reported once", found, 1);
    }
    for (j = 0; j < all.n; j++) {
      int listed = 0;
      for (i = 0; i < nb; i++)
        if (body_index(all.hits[j].body) == bh[i].body && all.hits[j].triangle == bh[i].tri)
          listed = 1;
      check(st, listed, "raycastAll: no sure miss reported", all.hits[j].t, 0);
      check_hit_shape(st, sc, o, d, &all.hits[j]);
    }
    if (all.n > 0 && got)
      check(st, all.hits[0].t == h.t && all.hits[0].body == h.body &&
                all.hits[0].triangle == h.triangle,
            "raycastAll: its first is raycast's", all.hits[0].t, h.t);
    if (all.n >= 2) {   /* stopping early */
      int n0 = all.n;
      all.n = 0;
      all.stop_after = 1;
      count = cs_world_raycast_all(sc->world, &o, &d, mask, collect_hit, &all);
      check(st, count == 1 && all.n == 1, "raycastAll: fn returning 0 stops", (double)count, n0);
    }
  }
  printf("rays: %d of %d too close to call, skipped\n", skipped, nrays);
}

/* Rays through a shared edge of the terrain (from its front side) never
** slip between its two triangles. */
static void test_watertight(Stats *st, ref_Rng *r, Scene *sc, int n) {
  int q, i;
  for (i = 0; i < sc->nbodies; i++) {
    if (sc->body_mesh[i] != 1 || !cs_body_get_enabled(sc->bodies[i])) continue;
    for (q = 0; q < n; q++) {
      size_t t = 2 * (size_t)(ref_rng_uniform(r) * 64);
      ld v0[3][3], v1[3][3], n0[3], n1[3], u = ref_rng_uniform(r);
      cs_Vec3 o, d, p;
      cs_Hit h;
      int got;
      world_tri(sc, i, t, v0);          /* p0 p2 p1: the shared edge is v0[2] v0[1] */
      world_tri(sc, i, t + 1, v1);
      front_normal(sc, i, v0, n0);
      front_normal(sc, i, v1, n1);
      p.x = (double)(v0[1][0] + (v0[2][0] - v0[1][0]) * u);
      p.y = (double)(v0[1][1] + (v0[2][1] - v0[1][1]) * u);
      p.z = (double)(v0[1][2] + (v0[2][2] - v0[1][2]) * u);
      o.x = p.x + (double)(n0[0] + n1[0]) * 3;
      o.y = p.y + (double)(n0[1] + n1[1]) * 3;
      o.z = p.z + (double)(n0[2] + n1[2]) * 3;
      d.x = (p.x - o.x) * 2; d.y = (p.y - o.y) * 2; d.z = (p.z - o.z) * 2;
      got = cs_world_raycast(sc->world, &o, &d, cs_body_get_layers(sc->bodies[i]), &h);
      check(st, got && h.t <= 0.5 + 1e-12, "raycast: no gap along a shared edge", h.t, 0.5);
    }
  }
}

/* }================================================================== */

/* {==================================================================
** Brute-force closest point
** ===================================================================*/

static void test_closest(Stats *st, ref_Rng *r, Scene *sc, int n) {
  int q, i, skipped = 0;
  for (q = 0; q < n; q++) {
    unsigned mask = ref_rng_uniform(r) < 0.5 ? ~0u : (unsigned)(ref_rng_uniform(r) * 16);
    double a[3], maxd = q % 3 == 0 ? HUGE_VAL : ref_rng_range(r, 0, 4);
    ld p[3], v[3][3], near[3], d, best = 1e30L, second = 1e30L;
    cs_Vec3 pp;
    cs_Hit h;
    int got, bi = -1;
    size_t t, bt = 0;
    rnd3(r, a, 14);
    pp.x = a[0]; pp.y = a[1]; pp.z = a[2];
    p[0] = a[0]; p[1] = a[1]; p[2] = a[2];
    for (i = 0; i < sc->nbodies; i++) {
      const SMesh *m = &sc->meshes[sc->body_mesh[i]];
      if (!body_live(sc, i, mask)) continue;
      for (t = 0; t < m->ntris; t++) {
        if (m->degenerate[t]) continue;
        world_tri(sc, i, t, v);
        d = ref_closest_on_triangle(p, v[0], v[1], v[2], near);
        if (d < best) { second = best; best = d; bi = i; bt = t; }
        else if (d < second) second = d;
      }
    }
    got = cs_world_closest_point(sc->world, &pp, maxd, mask, &h);
    if (bi >= 0 && fabsl(best - maxd) < 1e-9L) { skipped++; continue; }
    check(st, got == (bi >= 0 && best <= maxd), "closest: found as brute force", got,
          bi >= 0 && best <= maxd);
    if (got && bi >= 0) {
      ld hp[3], nn, dn, dl;
      int hi = body_index(h.body);
      check(st, fabsl(h.t - best) <= 1e-10L, "closest: distance", h.t, (double)best);
      if (second - best > 1e-9L)
        check(st, hi == bi && h.triangle == bt, "closest: triangle", h.triangle, (double)bt);
      world_tri(sc, hi, h.triangle, v);
      hp[0] = h.point.x; hp[1] = h.point.y; hp[2] = h.point.z;
      check(st, ref_closest_on_triangle(hp, v[0], v[1], v[2], near) < 1e-10L,
            "closest: point on its triangle", 0, 0);
      dl = sqrtl((p[0] - hp[0]) * (p[0] - hp[0]) + (p[1] - hp[1]) * (p[1] - hp[1])
                 + (p[2] - hp[2]) * (p[2] - hp[2]));
      check(st, fabsl(dl - h.t) <= 1e-10L, "closest: t = |p - point|", h.t, (double)dl);
      nn = sqrtl((ld)h.normal.x * h.normal.x + (ld)h.normal.y * h.normal.y
                 + (ld)h.normal.z * h.normal.z);
      check(st, fabsl(nn - 1) < 1e-12L, "closest: normal unit", (double)nn, 1);
      if (dl > 1e-6L) {
        dn = (h.normal.x * (p[0] - hp[0]) + h.normal.y * (p[1] - hp[1])
              + h.normal.z * (p[2] - hp[2])) / dl;
        check(st, dn > 1 - 1e-9L, "closest: normal toward p", (double)dn, 1);
      }
      check(st, h.tag == sc->meshes[sc->body_mesh[hi]].tags[h.triangle], "closest: tag", h.tag, 0);
    }
  }
  printf("closest: %d of %d too close to call, skipped\n", skipped, n);
}

/* }================================================================== */

/* {==================================================================
** Brute-force box and ellipsoid overlap
** ===================================================================*/

/* 1 when the triangle keeps a point inside the box grown by g. */
static int clip_overlap(const ld lo[3], const ld hi[3], ld v[3][3], ld g) {
  return ref_triangle_box_overlap(lo, hi, (const ld (*)[3])v, g);
}

typedef struct TriRec { int body; unsigned tri; double depth; cs_Vec3 normal; } TriRec;
typedef struct TriCtx { TriRec rec[MAXBODIES * MAXTRIS]; int n, stop_after; } TriCtx;

static int collect_tri(void *ud, const cs_Body *b, unsigned tri) {
  TriCtx *c = (TriCtx *)ud;
  c->rec[c->n].body = body_index(b);
  c->rec[c->n].tri = tri;
  c->n++;
  return c->stop_after < 0 || c->n < c->stop_after;
}

static int collect_overlap(void *ud, const cs_Body *b, unsigned tri, double depth, const cs_Vec3 *np) {
  cs_Vec3 n = *np;
  TriCtx *c = (TriCtx *)ud;
  c->rec[c->n].body = body_index(b);
  c->rec[c->n].tri = tri;
  c->rec[c->n].depth = depth;
  c->rec[c->n].normal = n;
  c->n++;
  return c->stop_after < 0 || c->n < c->stop_after;
}

/* Index in c of (body, tri) reported, or -1; counts duplicates in *times. */
static int find_rec(const TriCtx *c, int body, size_t tri, int *times) {
  int j, at = -1;
  *times = 0;
  for (j = 0; j < c->n; j++)
    if (c->rec[j].body == body && c->rec[j].tri == tri) { at = j; (*times)++; }
  return at;
}

static void test_boxes(Stats *st, ref_Rng *r, Scene *sc, int n) {
  static TriCtx c;
  int q, i, j;
  for (q = 0; q < n; q++) {
    unsigned mask = ref_rng_uniform(r) < 0.5 ? ~0u : (unsigned)(ref_rng_uniform(r) * 16);
    double a[3], h[3];
    ld lo[3], hi[3], v[3][3];
    cs_Vec3 clo, chi;
    long count;
    int nsure = 0;
    size_t t;
    rnd3(r, a, 10);
    for (j = 0; j < 3; j++) h[j] = ref_rng_range(r, 0.05, q % 4 == 0 ? 8 : 2);
    clo.x = a[0] - h[0]; clo.y = a[1] - h[1]; clo.z = a[2] - h[2];
    chi.x = a[0] + h[0]; chi.y = a[1] + h[1]; chi.z = a[2] + h[2];
    lo[0] = clo.x; lo[1] = clo.y; lo[2] = clo.z;
    hi[0] = chi.x; hi[1] = chi.y; hi[2] = chi.z;
    c.n = 0;
    c.stop_after = -1;
    count = cs_world_query_box(sc->world, &clo, &chi, mask, collect_tri, &c);
    check(st, count == c.n, "queryBox: count = calls", (double)count, c.n);
    for (i = 0; i < sc->nbodies; i++) {
      const SMesh *m = &sc->meshes[sc->body_mesh[i]];
      int live = body_live(sc, i, mask);
      for (t = 0; t < m->ntris; t++) {
        int times, in, out;
        find_rec(&c, i, t, &times);
        if (!live || m->degenerate[t]) {
          check(st, times == 0, "queryBox: masked, disabled or degenerate never reported", times, 0);
          continue;
        }
        world_tri(sc, i, t, v);
        in = clip_overlap(lo, hi, v, -MARGIN);
        out = !clip_overlap(lo, hi, v, MARGIN);
        nsure += in;
        if (in) check(st, times == 1, "queryBox: a triangle inside is reported once", times, 1);
        if (out) check(st, times == 0, "queryBox: a triangle outside is not reported", times, 0);
      }
    }
    if (nsure >= 2) {
      c.n = 0;
      c.stop_after = 2;
      count = cs_world_query_box(sc->world, &clo, &chi, mask, collect_tri, &c);
      check(st, count == 2 && c.n == 2, "queryBox: fn returning 0 stops", (double)count, 2);
    }
  }
}

/* The ellipsoid frame: x_e = diag(1/r) R^T (x - p). */
typedef struct Ell { ld p[3], r[3], R[3][3]; } Ell;

static void ell_to(const Ell *e, const ld x[3], ld out[3]) {
  ld d[3];
  int i;
  lsub(d, x, e->p);
  for (i = 0; i < 3; i++)
    out[i] = (e->R[0][i] * d[0] + e->R[1][i] * d[1] + e->R[2][i] * d[2]) / e->r[i];
}

/* e's rotation from the unit quaternion q (x, y, z, w). */
static void ell_rotation(Ell *e, const double q[4]) {
  double x = q[0], y = q[1], z = q[2], w = q[3];
  e->R[0][0] = 1 - 2 * (y * y + z * z); e->R[0][1] = 2 * (x * y - z * w); e->R[0][2] = 2 * (x * z + y * w);
  e->R[1][0] = 2 * (x * y + z * w); e->R[1][1] = 1 - 2 * (x * x + z * z); e->R[1][2] = 2 * (y * z - x * w);
  e->R[2][0] = 2 * (x * z - y * w); e->R[2][1] = 2 * (y * z + x * w); e->R[2][2] = 1 - 2 * (x * x + y * y);
}

static void test_ellipsoids(Stats *st, ref_Rng *r, Scene *sc, int n) {
  static TriCtx c;
  int q, i, j, k;
  for (q = 0; q < n; q++) {
    unsigned mask = ref_rng_uniform(r) < 0.5 ? ~0u : (unsigned)(ref_rng_uniform(r) * 16);
    double a[3], qt[4];
    cs_Vec3 p, rad;
    Ell e;
    long count;
    size_t t;
    rnd3(r, a, 9);
    p.x = a[0]; p.y = a[1]; p.z = a[2];
    rad.x = ref_rng_range(r, 0.2, 2.5); rad.y = ref_rng_range(r, 0.2, 2.5);
    rad.z = ref_rng_range(r, 0.2, 2.5);
    rnd_quat(r, qt);
    if (q % 3 == 0) { qt[0] = qt[1] = qt[2] = 0; qt[3] = 1; }
    ell_rotation(&e, qt);
    e.p[0] = p.x; e.p[1] = p.y; e.p[2] = p.z;
    e.r[0] = rad.x; e.r[1] = rad.y; e.r[2] = rad.z;
    c.n = 0;
    c.stop_after = -1;
    count = cs_world_overlap_ellipsoid(sc->world, &p, &rad, q % 3 == 0 && q % 2 ? NULL : qt, mask,
                                       collect_overlap, &c);
    check(st, count == c.n, "overlap: count = calls", (double)count, c.n);
    for (i = 0; i < sc->nbodies; i++) {
      const SMesh *m = &sc->meshes[sc->body_mesh[i]];
      int live = body_live(sc, i, mask);
      for (t = 0; t < m->ntris; t++) {
        ld v[3][3], ve[3][3], o[3] = {0, 0, 0}, cl[3], g, ne[3], mw[3], lm, depth;
        int times, at;
        at = find_rec(&c, i, t, &times);
        if (!live || m->degenerate[t]) {
          check(st, times == 0, "overlap: masked, disabled or degenerate never reported", times, 0);
          continue;
        }
        world_tri(sc, i, t, v);
        for (k = 0; k < 3; k++) ell_to(&e, v[k], ve[k]);
        g = ref_closest_on_triangle(o, ve[0], ve[1], ve[2], cl);
        if (g < 1 - MARGIN) check(st, times == 1, "overlap: an intersecting triangle is reported once", times, 1);
        if (g > 1 + MARGIN) check(st, times == 0, "overlap: an apart triangle is not reported", times, 0);
        if (at < 0 || g < 1e-6L) continue;
        /* expected push-out: n_e = -c / |c|, world m = R diag(1/r) n_e */
        for (k = 0; k < 3; k++) ne[k] = -cl[k] / g;
        for (k = 0; k < 3; k++)
          mw[k] = e.R[k][0] * ne[0] / e.r[0] + e.R[k][1] * ne[1] / e.r[1] + e.R[k][2] * ne[2] / e.r[2];
        lm = llen(mw);
        depth = (1 - g) / lm;
        check(st, fabsl(c.rec[at].depth - depth) <= 1e-9L * (1 + depth), "overlap: depth",
              c.rec[at].depth, (double)depth);
        for (j = 0; j < 3; j++) mw[j] /= lm;
        check(st, fabsl(c.rec[at].normal.x - mw[0]) + fabsl(c.rec[at].normal.y - mw[1])
                  + fabsl(c.rec[at].normal.z - mw[2]) <= 1e-8L,
              "overlap: normal", c.rec[at].normal.x, (double)mw[0]);
      }
    }
  }
}

/* The sweep of an ellipsoid (cs_world_sweep_ellipsoid) against the
** reference kernel on every triangle of the scene, mapped into the
** ellipsoid's space by hand: long sweeps in every direction (their gather
** keeps the triangles along the path only, through each body's placement:
** turned, scaled, mirrored, sheared). */
static void test_sweeps(Stats *st, ref_Rng *r, Scene *sc, int n) {
  int q, i, k;
  for (q = 0; q < n; q++) {
    unsigned mask = ref_rng_uniform(r) < 0.5 ? ~0u : (unsigned)(ref_rng_uniform(r) * 16);
    double a[3], qt[4], best = 2, len = q % 2 ? 24 : 6;
    cs_Vec3 p, rad, d;
    cs_Hit h;
    Ell e;
    ld de[3], dw[3];
    int got;
    size_t t;
    rnd3(r, a, 12);
    p.x = a[0]; p.y = a[1]; p.z = a[2];
    rnd3(r, a, len);
    d.x = a[0]; d.y = a[1]; d.z = a[2];
    rad.x = ref_rng_range(r, 0.1, 1.5); rad.y = ref_rng_range(r, 0.1, 1.5);
    rad.z = ref_rng_range(r, 0.1, 1.5);
    rnd_quat(r, qt);
    if (q % 3 == 0) { qt[0] = qt[1] = qt[2] = 0; qt[3] = 1; }
    ell_rotation(&e, qt);
    e.p[0] = 0; e.p[1] = 0; e.p[2] = 0;
    e.r[0] = rad.x; e.r[1] = rad.y; e.r[2] = rad.z;
    dw[0] = d.x; dw[1] = d.y; dw[2] = d.z;
    ell_to(&e, dw, de);                         /* (a displacement: p = 0) */
    e.p[0] = p.x; e.p[1] = p.y; e.p[2] = p.z;
    got = cs_world_sweep_ellipsoid(sc->world, &p, &rad, qt, &d, mask, &h);
    for (i = 0; i < sc->nbodies; i++) {
      const SMesh *m = &sc->meshes[sc->body_mesh[i]];
      if (!body_live(sc, i, mask)) continue;
      for (t = 0; t < m->ntris; t++) {
        ld v[3][3], ve[3][3], fn[3], ge[3], g1[3], g2[3];
        double base[3] = {0, 0, 0}, vel[3], va[3], vb[3], vc[3], tt, pt[3];
        int one = m->backfaces == CS_BACKFACES_IGNORE;
        if (m->degenerate[t]) continue;
        world_tri(sc, i, t, v);
        for (k = 0; k < 3; k++) ell_to(&e, v[k], ve[k]);
        front_normal(sc, i, v, fn);           /* the winding the front faces */
        lsub(g1, v[1], v[0]);
        lsub(g2, v[2], v[0]);
        lcross(ge, g1, g2);
        for (k = 0; k < 3; k++) {
          va[k] = (double)ve[0][k];
          vb[k] = (double)(ldot(ge, fn) < 0 ? ve[2][k] : ve[1][k]);
          vc[k] = (double)(ldot(ge, fn) < 0 ? ve[1][k] : ve[2][k]);
          vel[k] = (double)de[k];
        }
        if (ref_sweep_sphere_triangle(base, vel, va, vb, vc, one, &tt, pt) && tt < best) best = tt;
      }
    }
    if (got == 1)
      check(st, best <= 1 && fabs(h.t - best) <= 1e-6, "sweep: t is the reference's first contact",
            h.t, best);
    else
      check(st, got == 0 && best >= 1 - 1e-6, "sweep: a miss the reference misses too", got, best);
  }
}

/* }================================================================== */

/* {==================================================================
** Hand cases
** ===================================================================*/

static int first_hit(void *ud, const cs_Hit *h) { (void)ud; (void)h; return 1; }
static int count_tri(void *ud, const cs_Body *b, unsigned t) { (void)b; (void)t; ++*(int *)ud; return 1; }
static int keep_overlap(void *ud, const cs_Body *b, unsigned tri, double depth, const cs_Vec3 *np) {
  cs_Vec3 n = *np;
  double *o = (double *)ud;
  (void)b; (void)tri;
  o[0] = depth; o[1] = n.x; o[2] = n.y; o[3] = n.z;
  return 1;
}

static int near3(cs_Vec3 a, double x, double y, double z, double tol) {
  return fabs(a.x - x) <= tol && fabs(a.y - y) <= tol && fabs(a.z - z) <= tol;
}

static void test_hand(Stats *st) {
  /* a floor quad at y = 0 over [-5, 5]^2, fronts up */
  static const double fv[12] = {-5, 0, -5, -5, 0, 5, 5, 0, 5, 5, 0, -5};
  static const unsigned fi[6] = {0, 1, 2, 0, 2, 3};
  CountAlloc ca = {0, -1};
  cs_Alloc al;
  cs_MeshDesc d;
  cs_Mesh *floor_c = NULL, *floor_i = NULL;
  cs_World *w = NULL;
  cs_Body *b = NULL;
  cs_Hit h;
  cs_Vec3 o, dv, lo, hi, one = {1, 1, 1}, zero = {0, 0, 0};
  double q0[4] = {0, 0, 0, 1}, qz[4], out[4];
  int n;
  al.fn = count_alloc;
  al.ud = &ca;
  memset(&d, 0, sizeof d);
  d.vertices = fv; d.vertex_count = 4; d.indices = fi; d.triangle_count = 2;
  check(st, cs_mesh_new(&al, &d, &floor_c, NULL) == CS_OK, "hand: mesh", 0, 0);
  d.backfaces = CS_BACKFACES_IGNORE;
  check(st, cs_mesh_new(&al, &d, &floor_i, NULL) == CS_OK, "hand: mesh", 0, 0);
  check(st, cs_world_new(&al, &w) == CS_OK, "hand: world", 0, 0);
  cs_world_add(w, floor_c, &b);
  o.x = 0.5; o.y = 5; o.z = 0.25; dv.x = 0; dv.y = -10; dv.z = 0;
  check(st, cs_world_raycast(w, &o, &dv, ~0u, &h) && h.t == 0.5 && near3(h.point, 0.5, 0, 0.25, 0)
            && near3(h.normal, 0, 1, 0, 0), "hand: ray down onto the floor", h.t, 0.5);
  o.y = -5; dv.y = 10;
  check(st, cs_world_raycast(w, &o, &dv, ~0u, &h) && h.t == 0.5 && near3(h.normal, 0, -1, 0, 0),
        "hand: ray up into the floor: normal faces the origin", h.normal.y, -1);
  check(st, !cs_world_raycast(w, &o, &dv, 2u, &h), "hand: layers outside the mask", 0, 0);
  cs_body_set_enabled(b, 0);
  check(st, !cs_world_raycast(w, &o, &dv, ~0u, &h), "hand: disabled body", 0, 0);
  cs_body_set_enabled(b, 1);
  dv.y = 4;
  check(st, !cs_world_raycast(w, &o, &dv, ~0u, &h), "hand: ray stopping short", 0, 0);
  dv.x = 0; dv.y = 0; dv.z = 0;
  check(st, !cs_world_raycast(w, &o, &dv, ~0u, &h), "hand: zero ray", 0, 0);
  /* backface-ignoring floor, and the same mirrored (scale y -1: front faces down) */
  cs_world_remove(w, b);
  cs_world_add(w, floor_i, &b);
  o.y = -5; dv.y = 10;
  check(st, !cs_world_raycast(w, &o, &dv, ~0u, &h), "hand: one-sided floor from below", 0, 0);
  o.y = 5; dv.y = -10;
  check(st, cs_world_raycast(w, &o, &dv, ~0u, &h), "hand: one-sided floor from above", 0, 0);
  {
    cs_Vec3 t0 = {0, 0, 0}, sm = {1, -1, 1};
    cs_body_set_transform(b, &t0, q0, &sm);
  }
  check(st, !cs_world_raycast(w, &o, &dv, ~0u, &h), "hand: mirrored one-sided floor from above", 0, 0);
  o.y = -5; dv.y = 10;
  check(st, cs_world_raycast(w, &o, &dv, ~0u, &h) && near3(h.normal, 0, -1, 0, 0),
        "hand: mirrored one-sided floor from below", h.normal.y, -1);
  check(st, cs_world_raycast_all(w, &o, &dv, ~0u, first_hit, NULL) == 1, "hand: raycastAll count", 0, 0);
  /* closest point: 2 above; on the floor (front normal, mirrored: down) */
  o.x = 1; o.y = 2; o.z = 1;
  check(st, cs_world_closest_point(w, &o, HUGE_VAL, ~0u, &h) && h.t == 2 &&
            near3(h.point, 1, 0, 1, 0) && near3(h.normal, 0, 1, 0, 0),
        "hand: closest point 2 above", h.t, 2);
  check(st, cs_world_closest_point(w, &o, 2, ~0u, &h), "hand: max distance inclusive", 0, 0);
  check(st, !cs_world_closest_point(w, &o, 1.999, ~0u, &h), "hand: beyond max distance", 0, 0);
  o.y = 0;
  check(st, cs_world_closest_point(w, &o, 1, ~0u, &h) && h.t == 0 && near3(h.normal, 0, -1, 0, 0),
        "hand: on the triangle: the front normal", h.normal.y, -1);
  o.x = 7; o.y = 0; o.z = 0;
  check(st, cs_world_closest_point(w, &o, HUGE_VAL, ~0u, &h) && h.t == 2 &&
            near3(h.normal, 1, 0, 0, 0), "hand: beside an edge, in the plane", h.t, 2);
  /* box touching the floor from above: boundaries count */
  lo.x = -1; lo.y = 0; lo.z = -1; hi.x = 1; hi.y = 1; hi.z = 1;
  n = 0;
  check(st, cs_world_query_box(w, &lo, &hi, ~0u, count_tri, &n) == 2 && n == 2,
        "hand: box resting on the floor meets both triangles", n, 2);
  lo.y = 1e-9;
  n = 0;
  check(st, cs_world_query_box(w, &lo, &hi, ~0u, count_tri, &n) == 0, "hand: box above", n, 0);
  /* overlap: sphere at 0.5 above: depth 0.5 up; ellipsoid (1, 2, 1) at 1: depth 1;
  ** r (2, 1, 1) turned 90 degrees about z (long axis up) at 1: depth 1 */
  cs_body_set_transform(b, &zero, q0, &one);
  o.x = 2; o.y = 0.5; o.z = -2;    /* over triangle 1 only */
  out[0] = -1;
  check(st, cs_world_overlap_ellipsoid(w, &o, &one, NULL, ~0u, keep_overlap, out) == 1 &&
            fabs(out[0] - 0.5) < 1e-12 && fabs(out[2] - 1) < 1e-12,
        "hand: sphere half sunk", out[0], 0.5);
  {
    cs_Vec3 r2 = {1, 2, 1}, r3 = {2, 1, 1};
    double s = sqrt(0.5);
    o.y = 1;
    check(st, cs_world_overlap_ellipsoid(w, &o, &r2, NULL, ~0u, keep_overlap, out) == 1 &&
              fabs(out[0] - 1) < 1e-12 && fabs(out[2] - 1) < 1e-12,
          "hand: tall ellipsoid sunk 1", out[0], 1);
    qz[0] = 0; qz[1] = 0; qz[2] = s; qz[3] = s;
    check(st, cs_world_overlap_ellipsoid(w, &o, &r3, qz, ~0u, keep_overlap, out) == 1 &&
              fabs(out[0] - 1) < 1e-12 && fabs(out[2] - 1) < 1e-12,
          "hand: turned ellipsoid sunk 1", out[0], 1);
    o.y = 2.5;
    check(st, cs_world_overlap_ellipsoid(w, &o, &r2, NULL, ~0u, keep_overlap, out) == 0,
          "hand: ellipsoid above", 0, 0);
    o.y = 2;
    check(st, cs_world_overlap_ellipsoid(w, &o, &r2, NULL, ~0u, keep_overlap, out) == 0,
          "hand: touching is not overlapping", 0, 0);
  }
  /* allocation failures: -1, nothing leaked */
  {
    long live = ca.live, got;
    o.x = 0.5; o.y = 5; o.z = -0.5; dv.x = 0; dv.y = -10; dv.z = 0;
    lo.x = -1; lo.y = -1; lo.z = -1; hi.x = 1; hi.y = 1; hi.z = 1;
    ca.fail_after = 0;
    got = cs_world_raycast_all(w, &o, &dv, ~0u, first_hit, NULL);
    check(st, got == -1 && ca.live == live, "hand: raycastAll out of memory", (double)got, -1);
    got = cs_world_query_box(w, &lo, &hi, ~0u, count_tri, &n);
    check(st, got == -1 && ca.live == live, "hand: queryBox out of memory", (double)got, -1);
    o.y = 0.5;
    got = cs_world_overlap_ellipsoid(w, &o, &one, NULL, ~0u, keep_overlap, out);
    check(st, got == -1 && ca.live == live, "hand: overlap out of memory", (double)got, -1);
    ca.fail_after = -1;
    check(st, cs_world_raycast(w, &o, &dv, ~0u, &h), "hand: raycast allocates nothing", 0, 0);
  }
  cs_world_free(w);
  cs_mesh_free(floor_c);
  cs_mesh_free(floor_i);
  check(st, ca.live == 0, "hand: everything freed", (double)ca.live, 0);
}

/* }================================================================== */

int main(int argc, char **argv) {
  Stats st = {0, 0, 0};
  ref_Rng rng;
  unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 10) : SEED;
  int s, scenes = argc > 2 ? atoi(argv[2]) : 12;
  printf("seed %llu\n", seed);
  ref_rng_seed(&rng, seed);
  test_hand(&st);
  for (s = 0; s < scenes; s++) {
    Scene sc;
    if (!check(&st, scene_new(&rng, &sc), "scene builds", s, 0)) return 1;
    test_rays(&st, &rng, &sc, 300);
    test_watertight(&st, &rng, &sc, 300);
    test_closest(&st, &rng, &sc, 200);
    test_boxes(&st, &rng, &sc, 100);
    test_ellipsoids(&st, &rng, &sc, 100);
    test_sweeps(&st, &rng, &sc, 100);
    edit_scene(&rng, &sc);            /* vertex edits without a refit, a body moved */
    test_rays(&st, &rng, &sc, 100);
    test_closest(&st, &rng, &sc, 100);
    test_boxes(&st, &rng, &sc, 50);
    test_ellipsoids(&st, &rng, &sc, 50);
    test_sweeps(&st, &rng, &sc, 50);
    scene_free(&sc);
    check(&st, sc.counter.live == 0, "scene: everything freed", (double)sc.counter.live, 0);
  }
  printf("%ld passed, %ld failed\n", st.passed, st.failed);
  return st.failed == 0 ? 0 : 1;
}
