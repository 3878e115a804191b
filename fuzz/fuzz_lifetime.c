/*
** fuzz_lifetime.c: random lives of worlds, bodies, meshes and movers
** (issue 10). Up to 3 worlds, 3 shared meshes and 4 movers; the input is a
** list of operations: create and free worlds and movers, add, remove, move,
** enable and give velocity to bodies, edit the shared meshes, move movers
** in any world, query. Movers outlive worlds and move on in others.
**
** Byte 0 bit 0 turns on the allocator's reuse (fuzz/fuzz_alloc.h): a freed
** block goes to the next request of its size, so new worlds, bodies and
** movers land at freed ones' addresses, as malloc does by chance in plain
** builds. Without reuse, ASan (or valgrind, standalone) sees any read of
** freed memory; with it, the checks below see any stale memory taken for
** live: after every move, each contact and the ground name a live body of
** the world the mover moved in, and each contact point lies on the named
** triangle of that body as it is placed now; a contact with another mover
** names one of the movers, added to that world. Movers are added to and
** removed from worlds (solid to each other), freed while added, and
** outlive the worlds they were added to.
**
** Then 4 bytes an operation: op, a, b, c (missing bytes read as 0).
** Built with libFuzzer (make fuzz) or, with -DFUZZ_STANDALONE, as a program
** that replays files or runs N random inputs from a seed (make
** lifetime-slice, in CI, plain + ASan and under valgrind).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"
#include "../spec/c/by_value.h"
#include "fuzz_alloc.h"

#define NW 3
#define NB 6      /* bodies a world */
#define NM 3      /* meshes */
#define NV 4      /* movers */

/* How a body was placed: its mesh and transform bytes. */
typedef struct Placed { int used, mesh, x, y, z; } Placed;

typedef struct Life {
  cs_Alloc a;
  cs_World *w[NW];
  cs_Body *b[NW][NB];
  Placed placed[NW][NB];
  cs_Mesh *mesh[NM];
  cs_Mover *mv[NV];
  const uint8_t *data;
  size_t size;
} Life;

static int byte_at(const Life *L, size_t i) { return i < L->size ? L->data[i] : 0; }

static void fail(const char *what, int op) {
  fprintf(stderr, "fuzz_lifetime: operation %d: %s\n", op, what);
  abort();
}

/* Mesh 0: a 20 x 20 floor at y = 0; 1: a box of half size 1; 2: a wall. */
static cs_Mesh *make_mesh(const cs_Alloc *a, int k) {
  static const double floor_v[12] = {-10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10};
  static const unsigned floor_i[6] = {0, 1, 2, 0, 2, 3};
  static const double box_v[24] = {-1, -1, -1, 1, -1, -1, 1, -1, 1, -1, -1, 1,
                                   -1, 1, -1, 1, 1, -1, 1, 1, 1, -1, 1, 1};
  static const unsigned box_i[36] = {0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1,
                                     1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0};
  static const double wall_v[12] = {0.8, -5, -5, 0.8, 5, -5, 0.8, 5, 5, 0.8, -5, 5};
  cs_MeshDesc d;
  cs_Mesh *m = NULL;
  memset(&d, 0, sizeof d);
  if (k == 0) { d.vertices = floor_v; d.vertex_count = 4; d.indices = floor_i; d.triangle_count = 2; }
  else if (k == 1) { d.vertices = box_v; d.vertex_count = 8; d.indices = box_i; d.triangle_count = 12; }
  else { d.vertices = wall_v; d.vertex_count = 4; d.indices = floor_i; d.triangle_count = 2; }
  return cs_mesh_new(a, &d, &m, NULL) == CS_OK ? m : NULL;
}

static double signed_unit(int v) { return ((double)v - 127.5) / 127.5; }

/* Is body one of world wi's live bodies? */
static int live_in(const Life *L, int wi, const cs_Body *body) {
  int k;
  for (k = 0; k < NB; k++)
    if (L->b[wi][k] && L->b[wi][k] == body) return 1;
  return 0;
}

/* Does a query's hit name a live body of world wi, or one of our movers
** added to it? */
static int hit_live_in(const Life *L, int wi, const cs_Hit *h) {
  int j;
  if (!h->mover) return live_in(L, wi, h->body);
  for (j = 0; j < NV; j++)
    if (L->mv[j] == h->mover) return cs_mover_added_to(h->mover) == L->w[wi];
  return 0;
}

/* The distance from p to triangle t of body, placed as it is now (a loose
** test: the point must be on the triangle's plane and within its bounds). */
static int on_body_triangle(const cs_Body *body, unsigned t, cs_Vec3 p) {
  const cs_Mesh *mesh = cs_body_mesh(body);
  double m[16], v[3][3], lo[3], hi[3], n[3], e1[3], e2[3], d, len, tol, scale = 1;
  unsigned idx[3];
  int i, j;
  if (t >= cs_mesh_triangle_count(mesh)) return 0;
  cs_body_get_matrix(body, m);
  cs_mesh_triangle(mesh, t, idx);
  for (i = 0; i < 3; i++) {
    cs_Vec3 q = csv_mesh_vertex(mesh, idx[i]);
    for (j = 0; j < 3; j++) {
      v[i][j] = m[j] * q.x + m[4 + j] * q.y + m[8 + j] * q.z + m[12 + j];
      scale = fmax(scale, fabs(v[i][j]));
    }
  }
  tol = 1e-6 * scale;
  for (j = 0; j < 3; j++) {
    lo[j] = fmin(v[0][j], fmin(v[1][j], v[2][j])) - tol;
    hi[j] = fmax(v[0][j], fmax(v[1][j], v[2][j])) + tol;
    e1[j] = v[1][j] - v[0][j];
    e2[j] = v[2][j] - v[0][j];
  }
  if (p.x < lo[0] || p.x > hi[0] || p.y < lo[1] || p.y > hi[1] || p.z < lo[2] || p.z > hi[2])
    return 0;
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len == 0) return 0;
  d = (n[0] * (p.x - v[0][0]) + n[1] * (p.y - v[0][1]) + n[2] * (p.z - v[0][2])) / len;
  return fabs(d) <= tol;
}

/* After mover k moved in world wi: everything it reports is of wi, live. */
static void check_results(const Life *L, int wi, int k, int op) {
  const cs_Mover *m = L->mv[k];
  const cs_Body *gb = NULL;
  cs_Vec3 p = csv_mover_position(m);
  size_t i, n = cs_mover_contact_count(m);
  if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z)) fail("a position not finite", op);
  for (i = 0; i < n; i++) {
    const cs_Contact *c = cs_mover_contact(m, i);
    if (c->mover) {                     /* another mover: one of ours, added here */
      int j, ours = 0;
      for (j = 0; j < NV; j++) ours |= L->mv[j] == c->mover;
      if (!ours || cs_mover_added_to(c->mover) != L->w[wi])
        fail("a contact names a mover not added to this world", op);
      continue;
    }
    if (!live_in(L, wi, c->body)) fail("a contact names a body not live in this world", op);
    if (!on_body_triangle(c->body, c->triangle, c->point))
      fail("a contact point is not on the triangle it names", op);
  }
  if (cs_mover_ground(m, NULL, &gb, NULL)) {
    const cs_Mover *gm = cs_mover_ground_mover(m);
    if (gm ? cs_mover_added_to(gm) != L->w[wi] : !live_in(L, wi, gb))
      fail("the ground is neither a live body nor an added mover of this world", op);
  }
}

static void free_world(Life *L, int wi) {
  if (!L->w[wi]) return;
  cs_world_free(L->w[wi]);
  L->w[wi] = NULL;
  memset(L->b[wi], 0, sizeof L->b[wi]);
}

static void place_body(Life *L, int wi, int bi, int mi, int x, int y, int z) {
  cs_Body *b = NULL;
  double q[4] = {0, 0, 0, 1};
  if (cs_world_add(L->w[wi], L->mesh[mi], &b) != CS_OK) return;
  q[1] = signed_unit(z) * 0.3;
  cs_body_set_transform(b, &(cs_Vec3){signed_unit(y) * 3, signed_unit(x) * 2 - 1, 0}, q,
                        &(cs_Vec3){1, 1, 1});
  L->b[wi][bi] = b;
  L->placed[wi][bi].used = 1;
  L->placed[wi][bi].mesh = mi;
  L->placed[wi][bi].x = x;
  L->placed[wi][bi].y = y;
  L->placed[wi][bi].z = z;
}

/* "Reload the level": the world freed and made again with the same adds in
** the same order, so its version counts the same, but each body placed a
** little elsewhere (dy). A mover that took the new world for the old one
** would report contacts off the new triangles. */
static void reload_world(Life *L, int wi, int dy) {
  Placed was[NB];
  int k;
  if (!L->w[wi]) return;
  memcpy(was, L->placed[wi], sizeof was);
  free_world(L, wi);
  memset(L->placed[wi], 0, sizeof L->placed[wi]);
  if (cs_world_new(&L->a, &L->w[wi]) != CS_OK) { L->w[wi] = NULL; return; }
  for (k = 0; k < NB; k++)
    if (was[k].used) place_body(L, wi, k, was[k].mesh, was[k].x, (was[k].y + dy) & 255, was[k].z);
}

static void run_op(Life *L, int op, int x, int y, int z, int n) {
  int wi = x % NW, k = y % NV, bi = y % NB, mi = z % NM;
  cs_World *w = L->w[wi];
  switch (op % 12) {
  case 10:                              /* a mover added to a world (movers meet) */
    if (w && L->mv[k]) cs_world_add_mover(w, L->mv[k]);
    break;
  case 11:                              /* and removed */
    if (w && L->mv[k]) cs_world_remove_mover(w, L->mv[k]);
    break;
  case 0:                               /* a world */
    if (!w && cs_world_new(&L->a, &L->w[wi]) != CS_OK) L->w[wi] = NULL;
    break;
  case 1:                               /* freed, or reloaded */
    if (z & 1) reload_world(L, wi, 1 + (z >> 1) % 40);
    else { free_world(L, wi); memset(L->placed[wi], 0, sizeof L->placed[wi]); }
    break;
  case 2:                               /* a body, placed */
    if (w && !L->b[wi][bi] && L->mesh[mi]) place_body(L, wi, bi, mi, x, y, z);
    break;
  case 3:                               /* removed */
    if (w && L->b[wi][bi]) {
      cs_world_remove(w, L->b[wi][bi]);
      L->b[wi][bi] = NULL;
      L->placed[wi][bi].used = 0;
    }
    break;
  case 4:                               /* a velocity, or disabled/enabled */
    if (w && L->b[wi][bi]) {
      if (z & 1) cs_body_set_enabled(L->b[wi][bi], z & 2);
      else cs_body_set_velocity(L->b[wi][bi], &(cs_Vec3){signed_unit(z) * 0.5, 0, 0});
    }
    break;
  case 5: case 6:                       /* a move, with gravity or without */
    if (w && L->mv[k]) {
      cs_Vec3 walk = {signed_unit(z) * 0.5, 0, signed_unit(x) * 0.2}, g = {0, -0.1, 0};
      if (cs_world_collide_and_slide(w, L->mv[k], &walk, op % 10 == 5 ? &g : NULL) == CS_OK)
        check_results(L, wi, k, n);
    }
    break;
  case 7:                               /* a query with a mover's shape */
    if (w && L->mv[k]) {
      cs_Hit h;
      int r = cs_world_sweep(w, L->mv[k], &(cs_Vec3){signed_unit(z) * 2, -1, 0}, &h);
      if (r > 0 && !hit_live_in(L, wi, &h)) fail("a sweep names a body not live here", n);
      r = cs_world_raycast(w, (cs_Vec3[1]){csv_mover_position(L->mv[k])}, &(cs_Vec3){0, -5, 0}, ~0u, &h);
      if (r > 0 && !hit_live_in(L, wi, &h)) fail("a ray names a body not live here", n);
    }
    break;
  case 8:                               /* a shared mesh edited */
    if (L->mesh[mi]) {
      cs_Vec3 v = csv_mesh_vertex(L->mesh[mi], 0);
      v.y += signed_unit(x) * 0.1;
      cs_mesh_set_vertex(L->mesh[mi], 0, &v);
    }
    break;
  default:                              /* a mover freed and made anew, or teleported */
    if (z & 1) {
      cs_mover_free(L->mv[k]);
      L->mv[k] = NULL;
      if (cs_mover_new(&L->a, &L->mv[k]) != CS_OK) L->mv[k] = NULL;
    }
    if (L->mv[k]) cs_mover_set_position(L->mv[k], &(cs_Vec3){signed_unit(x), 0.6, 0});
    break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fa_State st;
  Life L;
  size_t i;
  int n = 0;
  memset(&L, 0, sizeof L);
  L.data = data;
  L.size = size;
  L.a = (byte_at(&L, 0) & 1) ? fa_alloc_reusing(&st) : fa_alloc(&st, -1);
  for (i = 0; i < NM; i++) L.mesh[i] = make_mesh(&L.a, (int)i);
  for (i = 0; i < NV; i++) {
    if (cs_mover_new(&L.a, &L.mv[i]) != CS_OK) L.mv[i] = NULL;
    else cs_mover_set_position(L.mv[i], &(cs_Vec3){0.3 * (double)i, 0.6, 0});
  }
  for (i = 1; i + 3 < size + 3 && n < 400; i += 4, n++)
    run_op(&L, byte_at(&L, i), byte_at(&L, i + 1), byte_at(&L, i + 2), byte_at(&L, i + 3), n);
  for (i = 0; i < NW; i++) free_world(&L, (int)i);
  for (i = 0; i < NV; i++) cs_mover_free(L.mv[i]);
  for (i = 0; i < NM; i++) cs_mesh_free(L.mesh[i]);
  if (st.live != 0) { fprintf(stderr, "fuzz_lifetime: %zu bytes leaked\n", st.live); abort(); }
  fa_drain(&st);
  return 0;
}

#ifdef FUZZ_STANDALONE
/* fuzz_lifetime FILE...: replays each file. fuzz_lifetime --random N SEED:
** N random inputs of 8 to 400 bytes (xorshift from SEED); with FUZZ_SAVE=F
** each is written to F before it runs, so F holds the one that failed. */
int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--random") == 0) {
    long count = atol(argv[2]), r;
    uint64_t s = (uint64_t)atoll(argv[3]) * 2654435761u + 1;
    static uint8_t buf[400];
    for (r = 0; r < count; r++) {
      size_t len, j;
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      len = 8 + (size_t)(s % 393);
      for (j = 0; j < len; j++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        buf[j] = (uint8_t)(s >> 24);
      }
      if (getenv("FUZZ_SAVE")) {
        FILE *f = fopen(getenv("FUZZ_SAVE"), "wb");
        if (f) { fwrite(buf, 1, len, f); fclose(f); }
      }
      LLVMFuzzerTestOneInput(buf, len);
    }
    printf("fuzz_lifetime: %ld random inputs (seed %s) passed\n", count, argv[3]);
    return 0;
  }
  {
    int i;
    for (i = 1; i < argc; i++) {
      FILE *f = fopen(argv[i], "rb");
      static uint8_t buf[1 << 16];
      size_t len;
      if (!f) { perror(argv[i]); return 1; }
      len = fread(buf, 1, sizeof buf, f);
      fclose(f);
      LLVMFuzzerTestOneInput(buf, len);
    }
    printf("fuzz_lifetime: %d inputs passed\n", argc - 1);
  }
  return 0;
}
#endif
