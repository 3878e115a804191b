/*
** spec/c/test_errors.c: the core's own argument checks (collideslide.h,
** ERRORS): a C engine gets the status, the argument and the message the Lua
** bindings show, and nothing changes on an error.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"

static int passed, failed;

static void expect(int ok, const char *what) {
  if (ok) passed++;
  else { failed++; printf("FAIL %s\n", what); }
}

static void expect_error(const cs_Error *e, cs_Status s, int arg, const char *msg, const char *what) {
  int ok = e->status == s && e->arg == arg && strcmp(e->message, msg) == 0;
  if (!ok) printf("  got status %d arg %d \"%s\"\n", (int)e->status, e->arg, e->message);
  expect(ok, what);
}

/* {==================================================================
** Found by an independent tester of the C API (round ten)
** ===================================================================*/

static cs_World *busy_world;
static cs_Mesh *busy_mesh;
static cs_Status busy_add;
static cs_Mover *grown;

static int add_from_filter(void *ud, const cs_Body *b, int tag) {
  cs_Body *nb;
  (void)ud; (void)b; (void)tag;
  busy_add = cs_world_add(busy_world, busy_mesh, &nb);
  return CS_RESPONSE_SLIDE;
}

static cs_Status grow_status = CS_OK;
static int grow_from_filter(void *ud, const cs_Body *b, int tag) {
  cs_Vec3 r = {2, 2, 2};
  (void)ud; (void)b; (void)tag;
  grow_status = cs_mover_set_radius(grown, &r);
  return CS_RESPONSE_SLIDE;
}

/* The getters out of range give zeros, as cs_mesh_vertex does (they read
** past the mesh); cs_world_add from a filter says why in the world's error
** (it kept the last call's); a mover's filter cannot grow it during its move
** (the move ended with the new radius 1.48 in the floor, pushed out only by
** the next call: round twenty-three), as the Lua bindings refuse it. */
/* A 20 x 20 floor at y = 0 facing up, two triangles. */
static cs_Status new_floor(const cs_Alloc *a, cs_Mesh **out) {
  static const double v[] = {-10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10};
  static const unsigned ix[] = {0, 1, 2, 0, 2, 3};
  cs_MeshDesc d = {v, 4, ix, 2, NULL, CS_BACKFACES_COLLIDE};
  return cs_mesh_new(a, &d, out, NULL);
}

static void api_round_ten(cs_Mesh *mesh, cs_World *w) {
  cs_Alloc a = cs_default_alloc();
  unsigned idx[3] = {7, 7, 7};
  cs_Vec3 v = {1, 1, 1}, p = {0, 0.6, 0}, walk = {0.1, 0, 0}, g = {0, -0.2, 0}, got;
  cs_Mover *m;
  int i;
  cs_mesh_triangle(mesh, cs_mesh_triangle_count(mesh), idx);
  cs_mesh_vertex(mesh, cs_mesh_vertex_count(mesh), &v);
  expect(idx[0] == 0 && idx[1] == 0 && idx[2] == 0 && v.x == 0 && v.y == 0 && v.z == 0 &&
         cs_mesh_tag(mesh, 1u << 30) == 0, "mesh getters: out of range gives zeros");

  cs_world_set_friction(w, 1, NAN);               /* a failure for the error to hold */
  busy_world = w;
  busy_mesh = mesh;
  cs_mover_new(&a, &m);
  cs_mover_set_position(m, &p);
  cs_mover_set_filter(m, add_from_filter, NULL);
  cs_world_collide_and_slide(w, m, &walk, &g);
  expect(busy_add == CS_EBUSY, "cs_world_add in a filter: CS_EBUSY");
  expect_error(cs_world_error(w), CS_EBUSY, 0, cs_status_string(CS_EBUSY),
               "cs_world_add in a filter: the world's error says so");
  cs_mover_free(m);

  cs_mover_new(&a, &grown);
  cs_mover_set_position(grown, &p);
  cs_mover_set_filter(grown, grow_from_filter, NULL);
  cs_world_collide_and_slide(w, grown, &walk, &g);
  expect(grow_status == CS_EBUSY, "a mover's setter from its own filter: CS_EBUSY");
  expect_error(cs_mover_error(grown), CS_EBUSY, 0, "the mover is busy (its move is under way: called from a filter)",
               "a mover's setter from its own filter says why");
  cs_mover_get_radius(grown, &got);
  expect(got.x == 0.5 && got.y == 0.5 && got.z == 0.5, "the refused setter leaves the radius");
  cs_mover_get_position(grown, &got);
  expect(got.y >= 0.5 && got.y <= 0.5 + 0.006, "the mover ends clear of the floor, within its skin");
  cs_mover_set_filter(grown, NULL, NULL);
  for (i = 0; i < 2; i++) cs_world_collide_and_slide(w, grown, &walk, &g);
  got.x = got.y = got.z = 0.4;
  expect(cs_mover_set_radius(grown, &got) == CS_OK, "after its move the setter works again");
  cs_mover_free(grown);
}

/* }================================================================== */

/* {==================================================================
** Found by an independent tester of the C API (round twenty-one)
** ===================================================================*/

static cs_Body *busy_body;
static cs_Status busy_edit;

static int remove_from_filter(void *ud, const cs_Body *b, int tag) {
  cs_Vec3 p = {0, 0, 0};
  (void)ud; (void)b; (void)tag;
  cs_world_remove(busy_world, busy_body);
  busy_edit = cs_mesh_set_vertex(busy_mesh, 0, &p);
  return CS_RESPONSE_SLIDE;
}

/* cs_world_remove from a filter removed nothing and said nothing (now
** CS_EBUSY in the world's error); a batch's filter may not edit the
** world's meshes; the open-mesh message of cs_world_add_sensor ran past
** the header's 159 bytes and was cut. */
static void api_round_twenty_one(cs_Mesh *mesh, cs_World *w) {
  cs_Alloc a = cs_default_alloc();
  double open_v[] = {0, 0, 0, 1, 0, 0, 0, 0, 1}, moves[6] = {0.1, 0, 0, 0, -0.2, 0};
  unsigned open_ix[] = {0, 1, 2}, bad[2];
  cs_MeshDesc od = {open_v, 3, open_ix, 1, NULL, CS_BACKFACES_COLLIDE};
  cs_Vec3 p = {0, 0.6, 0}, walk = {0.1, 0, 0}, g = {0, -0.2, 0}, v0;
  cs_Mesh *open;
  cs_Sensor *sn;
  cs_Mover *m;
  size_t n = cs_world_body_count(w), bad_index;
  int uses;
  cs_world_add(w, mesh, &busy_body);
  busy_world = w;
  busy_mesh = mesh;
  cs_mesh_vertex(mesh, 0, &v0);
  cs_mover_new(&a, &m);
  cs_mover_set_position(m, &p);
  cs_mover_set_filter(m, remove_from_filter, NULL);
  cs_world_collide_and_slide(w, m, &walk, &g);
  expect(cs_world_body_count(w) == n + 1, "cs_world_remove in a filter: nothing removed");
  expect_error(cs_world_error(w), CS_EBUSY, 0,
               "remove: the world is busy (inside one of its filters)",
               "cs_world_remove in a filter: the world's error says so");
  expect(busy_edit == CS_OK, "a single call's filter may edit a mesh");
  cs_mesh_set_vertex(mesh, 0, &v0);
  cs_mover_set_position(m, &p);
  expect(cs_world_collide_and_slide_many(w, &m, 1, moves, 6, NULL, NULL, NULL) == CS_OK, "a batch");
  expect(busy_edit == CS_EBUSY, "a batch's filter may not edit the world's meshes");
  expect(strstr(cs_mesh_error(mesh)->message, "batch is under way") != NULL, "the mesh's error says so");
  expect(cs_mesh_set_vertex(mesh, 0, &v0) == CS_OK, "after the batch the mesh may be edited");
  cs_mover_free(m);
  cs_world_remove(w, busy_body);
  expect(cs_world_body_count(w) == n, "cs_world_remove outside a filter");

  od.backfaces = 7;                             /* no vertex at fault: (size_t)-1 */
  bad_index = 5;
  expect(cs_mesh_new(&a, &od, &open, &bad_index) == CS_EINVAL && bad_index == (size_t)-1,
         "cs_mesh_new: a bad backfaces value names no vertex");
  od.backfaces = CS_BACKFACES_COLLIDE;
  cs_mesh_new(&a, &od, &open, NULL);
  expect(cs_world_add_sensor(w, open, &sn, bad, &uses) == CS_EINVAL, "an open sensor mesh");
  expect(strlen(cs_world_error(w)->message) < 159 &&
         strstr(cs_world_error(w)->message, "one winding)") != NULL, "its message is whole");
  cs_mesh_free(open);
}

/* }================================================================== */

/* {==================================================================
** Found by an independent tester of allocation failures (round twenty-three)
** ===================================================================*/

static long alloc_count, alloc_fail_at;

/* The default allocator, failing the alloc_fail_at-th request. */
static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud; (void)osize;
  if (nsize == 0) { free(ptr); return NULL; }
  if (++alloc_count == alloc_fail_at) return NULL;
  return realloc(ptr, nsize);
}

static int keep_hit(void *ud, const cs_Hit *h) { (void)ud; (void)h; return 1; }
static int keep_tri(void *ud, const cs_Body *b, unsigned t) { (void)ud; (void)b; (void)t; return 1; }
static int keep_overlap(void *ud, const cs_Body *b, unsigned t, double d, const cs_Vec3 *n) {
  (void)ud; (void)b; (void)t; (void)d; (void)n; return 1;
}
static int keep_mover(void *ud, const cs_Mover *o, double d, const cs_Vec3 *n) {
  (void)ud; (void)o; (void)d; (void)n; return 1;
}

/* Every query that fails to allocate says so in the world's error: they
** returned -1 (CS_ENOMEM) with cs_world_error still saying OK. */
static void queries_out_of_memory(void) {
  cs_Alloc a = {failing_alloc, NULL};
  int q, seen = 0, bad = 0;
  for (q = 0; q < 7; q++) {
    long k;
    for (k = 1; k < 50; k++) {
      cs_Mesh *mesh;
      cs_World *w;
      cs_Body *b;
      cs_Mover *m1, *m2;
      cs_Vec3 p1 = {0, 0.5, 0}, p2 = {0.9, 0.5, 0}, o = {0, 5, 0}, dd = {0, -10, 0};
      cs_Vec3 lo = {-1, -1, -1}, hi = {1, 1, 1}, r = {1, 1, 1}, sw = {1, 0, 0};
      cs_Hit h;
      long res = 0, before;
      alloc_fail_at = 0;
      if (new_floor(&a, &mesh) != CS_OK || cs_world_new(&a, &w) != CS_OK ||
          cs_world_add(w, mesh, &b) != CS_OK || cs_mover_new(&a, &m1) != CS_OK ||
          cs_mover_new(&a, &m2) != CS_OK) {
        expect(0, "out of memory: setup");
        return;
      }
      cs_mover_set_position(m1, &p1);
      cs_mover_set_position(m2, &p2);
      cs_world_add_mover(w, m2);
      before = alloc_count;
      alloc_fail_at = alloc_count + k;
      switch (q) {
        case 0: res = cs_world_raycast_all(w, &o, &dd, ~0u, keep_hit, NULL); break;
        case 1: res = cs_world_query_box(w, &lo, &hi, ~0u, keep_tri, NULL); break;
        case 2: res = cs_world_overlap_ellipsoid(w, &p1, &r, NULL, ~0u, keep_overlap, NULL); break;
        case 3: res = cs_world_overlap_movers(w, &p1, &r, NULL, ~0u, m1, keep_mover, NULL); break;
        case 4: res = cs_world_overlap(w, &p1, &r, NULL, ~0u, m1, keep_overlap, keep_mover, NULL); break;
        case 5: res = cs_world_sweep(w, m1, &sw, &h); break;
        default: res = cs_world_sweep_ellipsoid(w, &p1, &r, NULL, &sw, ~0u, &h); break;
      }
      alloc_fail_at = 0;
      if (res < 0) {
        const cs_Error *e = cs_world_error(w);
        seen++;
        if (!(res == -(long)CS_ENOMEM && e->status == CS_ENOMEM && strcmp(e->message, "not enough memory") == 0)) {
          printf("  query %d, allocation %ld: returned %ld, error %d \"%s\"\n", q, k, res, (int)e->status,
                 e->message);
          bad++;
        }
      }
      cs_mover_free(m1);
      cs_mover_free(m2);
      cs_world_free(w);
      cs_mesh_free(mesh);
      if (alloc_count - before < k) break;   /* the call made fewer than k allocations */
    }
  }
  expect(seen >= 7 && bad == 0, "out of memory: every query says CS_ENOMEM in the world's error");
}

/* A mover walking 30 frames over a bumpy floor, the k-th allocation of its
** calls failing (0: none), a failed call retried as a caller would; its end. */
static cs_Vec3 walk_with_failure(long k, int *retried) {
  enum { G = 16 };
  static double v[3 * (G + 1) * (G + 1)];
  static unsigned ix[6 * G * G];
  cs_Alloc a = {failing_alloc, NULL};
  cs_MeshDesc d;
  cs_Mesh *mesh;
  cs_World *w;
  cs_Body *b;
  cs_Mover *m;
  cs_Vec3 p = {-10, 1, -9}, walk = {0.35, 0, 0.3}, g = {0, -0.3, 0}, end = {0, 0, 0};
  int i, j, t = 0, f;
  for (i = 0; i <= G; i++)
    for (j = 0; j <= G; j++) {
      double *q = &v[3 * (i * (G + 1) + j)];
      q[0] = -16 + 2.0 * j; q[2] = -16 + 2.0 * i; q[1] = 0.5 * sin(0.7 * i) * cos(0.5 * j);
    }
  for (i = 0; i < G; i++)
    for (j = 0; j < G; j++) {
      unsigned c0 = (unsigned)(i * (G + 1) + j), *q = &ix[6 * t++];
      q[0] = c0; q[1] = c0 + G + 1; q[2] = c0 + 1; q[3] = c0 + 1; q[4] = c0 + G + 1; q[5] = c0 + G + 2;
    }
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = (G + 1) * (G + 1); d.indices = ix; d.triangle_count = 2 * G * G;
  alloc_fail_at = 0;
  *retried = 0;
  if (cs_mesh_new(&a, &d, &mesh, NULL) != CS_OK || cs_world_new(&a, &w) != CS_OK ||
      cs_world_add(w, mesh, &b) != CS_OK || cs_mover_new(&a, &m) != CS_OK)
    return end;
  cs_mover_set_position(m, &p);
  if (k > 0) alloc_fail_at = alloc_count + k;
  for (f = 0; f < 30; f++)
    if (cs_world_collide_and_slide(w, m, &walk, &g) != CS_OK) {
      (*retried)++;
      cs_world_collide_and_slide(w, m, &walk, &g);
    }
  alloc_fail_at = 0;
  cs_mover_get_position(m, &end);
  cs_mover_free(m);
  cs_world_free(w);
  cs_mesh_free(mesh);
  return end;
}

/* A failed allocation either fails its call (the mover left as it was, a
** retry giving the never-failing run's bits) or changes nothing: the
** mover's gather cache, emptied by a failure the call absorbed, moved the
** later calls' ellipsoid space, and their last bits. */
static void walk_out_of_memory(void) {
  int retried, k, same = 0, runs = 0;
  cs_Vec3 ref = walk_with_failure(0, &retried), e;
  for (k = 1; k < 40; k++) {
    e = walk_with_failure(k, &retried);
    runs++;
    if (e.x == ref.x && e.y == ref.y && e.z == ref.z) same++;
    else printf("  allocation %d failing: %a %a %a, never failing %a %a %a\n", k, e.x, e.y, e.z,
                ref.x, ref.y, ref.z);
  }
  expect(ref.x > 0 && same == runs, "out of memory: a walk ends on the same bits, whichever allocation failed");
}

/* }================================================================== */

/* A sensor on an open mesh names the open edge's vertices from 1, as the
** header's convention says (it said "edge 0-1 (0-based)": an independent
** tester of the C API, round twenty-three). */
static void sensor_message_from_one(void) {
  cs_Alloc a = cs_default_alloc();
  double v[] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  cs_MeshDesc d = {v, 3, NULL, 1, NULL, CS_BACKFACES_COLLIDE};
  cs_Mesh *mesh;
  cs_World *w;
  cs_Sensor *sn = NULL;
  unsigned bad[2] = {0, 0};
  int uses = 0, x = 0, y = 0;
  if (cs_mesh_new(&a, &d, &mesh, NULL) != CS_OK || cs_world_new(&a, &w) != CS_OK) {
    expect(0, "sensor message: setup");
    return;
  }
  expect(cs_world_add_sensor(w, mesh, &sn, bad, &uses) == CS_EINVAL && sn == NULL, "sensor on an open mesh: CS_EINVAL");
  expect(sscanf(cs_world_error(w)->message, "mesh is not closed: the edge from vertex %d to vertex %d", &x, &y) == 2 &&
         x == (int)bad[0] + 1 && y == (int)bad[1] + 1 && uses == 1,
         "sensor on an open mesh: the message numbers the edge's vertices from 1");
  cs_world_free(w);
  cs_mesh_free(mesh);
}

/* A body filter that crosses the floor once and clears itself from its own
** move (the filter setters are not refused there): the call kept what it
** gathered without the floor as the mover's cache, and trusted its end as
** clear, so the next calls without a filter fell through the floor, or
** stayed in it (found by an independent tester, round twenty-three). */
static cs_Mover *self_clearing;
static int clear_own_filter(void *ud, const cs_Body *b, int tag) {
  (void)ud; (void)b; (void)tag;
  cs_mover_set_filter(self_clearing, NULL, NULL);
  return CS_RESPONSE_CROSS;
}

static void filter_clearing_itself(void) {
  cs_Alloc a = cs_default_alloc();
  cs_Mesh *floor;
  cs_World *w;
  cs_Body *b;
  cs_Vec3 p = {0, 0.7, 0}, walk = {0.01, 0, 0}, grav = {0, -0.1, 0}, down = {0, -0.6, 0};
  int i, pass;
  for (pass = 0; pass < 2; pass++) {    /* a call in the air; one into the floor */
    if (new_floor(&a, &floor) != CS_OK || cs_world_new(&a, &w) != CS_OK ||
        cs_world_add(w, floor, &b) != CS_OK || cs_mover_new(&a, &self_clearing) != CS_OK) {
      expect(0, "filter clearing itself: setup");
      return;
    }
    cs_mover_set_position(self_clearing, &p);
    cs_mover_set_filter(self_clearing, clear_own_filter, NULL);
    cs_world_collide_and_slide(w, self_clearing, pass ? &down : &walk, NULL);
    for (i = 0; i < 12; i++) cs_world_collide_and_slide(w, self_clearing, &walk, &grav);
    cs_mover_get_position(self_clearing, &p);
    expect(p.y >= 0.5 && p.y <= 0.5 + 0.006, pass ? "a filter that crossed the floor and cleared itself: "
           "the next calls push the mover out" : "a filter that cleared itself: the next calls stand on the floor");
    p.y = 0.7;
    cs_mover_free(self_clearing);
    cs_world_free(w);
    cs_mesh_free(floor);
  }
}

/* NULL parts of a transform: none of it (an independent tester, round 24:
** it crashed). */
static void transform_null_parts(cs_Body *b) {
  static const double q[4] = {0, 0, 0.6, 0.8};
  cs_Vec3 t = {1, 2, 3}, s = {2, 2, 2};
  double m[16];
  expect(cs_body_set_transform(b, &t, NULL, NULL) == CS_OK, "transform: NULL q and s taken");
  cs_body_get_matrix(b, m);
  expect(m[0] == 1 && m[5] == 1 && m[10] == 1 && m[12] == 1 && m[13] == 2 && m[14] == 3,
         "transform: NULL q and s are no turn and no scale");
  expect(cs_body_set_transform(b, NULL, q, &s) == CS_OK, "transform: NULL t taken");
  cs_body_get_matrix(b, m);
  expect(m[12] == 0 && m[13] == 0 && m[14] == 0 && fabs(m[0] - 2 * (1 - 2 * 0.36)) < 1e-15,
         "transform: NULL t is no translation");
  expect(cs_body_set_transform(b, NULL, NULL, NULL) == CS_OK, "transform: all NULL taken");
  cs_body_get_matrix(b, m);
  expect(m[0] == 1 && m[5] == 1 && m[10] == 1 && m[12] == 0, "transform: all NULL is the identity");
}

/* A call scratch that cannot be allocated says so in the world's error (it
** returned CS_ENOMEM with the error saying OK: an independent tester). */
static void scratch_out_of_memory(void) {
  cs_Alloc a = {failing_alloc, NULL};
  cs_World *w = NULL;
  cs_CallScratch *sc = (cs_CallScratch *)&a;
  alloc_count = 0;
  alloc_fail_at = 0;
  if (cs_world_new(&a, &w) != CS_OK) { expect(0, "scratch: setup"); return; }
  alloc_fail_at = alloc_count + 1;
  expect(cs_call_scratch_new(w, &sc) == CS_ENOMEM && sc == NULL, "scratch: CS_ENOMEM, no scratch");
  expect(cs_world_error(w)->status == CS_ENOMEM, "scratch: the world's error says CS_ENOMEM");
  alloc_fail_at = 0;
  cs_world_free(w);
}

int main(void) {
  cs_Alloc a = cs_default_alloc();
  cs_Mesh *mesh;
  cs_World *w;
  cs_Body *b;
  cs_Mover *m;
  cs_Hit hit;
  cs_Vec3 p = {0, 0.6, 0}, walk = {0.1, 0, 0}, bad, got;
  double q0[4] = {0, 0, 0, 0};
  if (new_floor(&a, &mesh) != CS_OK || cs_world_new(&a, &w) != CS_OK ||
      cs_world_add(w, mesh, &b) != CS_OK || cs_mover_new(&a, &m) != CS_OK) {
    puts("setup failed");
    return 1;
  }
  cs_mover_set_position(m, &p);
  api_round_ten(mesh, w);
  api_round_twenty_one(mesh, w);
  queries_out_of_memory();
  sensor_message_from_one();
  filter_clearing_itself();
  walk_out_of_memory();
  transform_null_parts(b);
  scratch_out_of_memory();

  bad = walk; bad.y = NAN;
  expect(cs_world_collide_and_slide(w, m, &bad, NULL) == CS_EINVAL, "collide: NaN is CS_EINVAL");
  expect_error(cs_world_error(w), CS_EINVAL, 2, "vy is NaN", "collide: NaN names vy");
  bad = walk; bad.x = 1e308;
  expect(cs_world_collide_and_slide(w, m, &bad, NULL) == CS_ERANGE, "collide: 1e308 is CS_ERANGE");
  expect_error(cs_world_error(w), CS_ERANGE, 1, "vx is out of range (|vx| > 1e30), got 1e+308",
               "collide: 1e308 names vx");
  cs_mover_get_position(m, &got);
  expect(got.x == 0 && got.y == 0.6 && got.z == 0, "collide: the mover is left where it was");
  /* a NULL walk, as gravity may be NULL: it segfaulted (an independent tester) */
  expect(cs_world_collide_and_slide(w, m, NULL, &walk) == CS_EINVAL, "collide: NULL walk is CS_EINVAL");
  expect_error(cs_world_error(w), CS_EINVAL, 1, "walk must not be NULL ({0, 0, 0} for none)",
               "collide: NULL walk message");
  bad = walk; bad.z = -INFINITY;
  expect(cs_world_collide_and_slide(w, m, &walk, &bad) == CS_EINVAL, "collide: gravity -inf");
  expect_error(cs_world_error(w), CS_EINVAL, 6, "gz is -inf", "collide: names gz");
  expect(cs_world_collide_and_slide(w, m, &walk, NULL) == CS_OK, "collide: a good move");

  bad.x = 0; bad.y = 0; bad.z = 0;
  expect(cs_mover_set_radius(m, &bad) == CS_EINVAL, "radius 0");
  expect_error(cs_mover_error(m), CS_EINVAL, 1, "rx must be > 0, got 0", "radius 0 names rx");
  expect(cs_mover_set_orientation(m, q0) == CS_EINVAL, "zero quaternion");
  expect_error(cs_mover_error(m), CS_EINVAL, 1, "quaternion is zero", "zero quaternion message");
  expect(cs_mover_set(m, CS_SLOPE_LIMIT, 91) == CS_EINVAL, "slope 91");
  expect_error(cs_mover_error(m), CS_EINVAL, 1, "slopeLimit must be in [0, 90] degrees, got 91",
               "slope 91 message");
  expect(cs_mover_set(m, CS_MAX_ITERATIONS, 2.5) == CS_EINVAL, "maxIterations 2.5");
  expect(cs_mover_get(m, CS_SLOPE_LIMIT) == 45 && cs_mover_get(m, CS_MAX_ITERATIONS) == 5,
         "settings unchanged by the errors");
  expect(cs_world_set_friction(w, 1, 1.5) == CS_EINVAL, "friction 1.5");
  expect_error(cs_world_error(w), CS_EINVAL, 2, "coefficient must be in [0, 1], got 1.5", "friction message");
  bad.x = 0; bad.y = 1e31; bad.z = 0;
  expect(cs_world_raycast(w, &p, &bad, ~0u, &hit) == -(int)CS_ERANGE, "raycast 1e31");
  expect_error(cs_world_error(w), CS_ERANGE, 5, "dy is out of range (|dy| > 1e30), got 1e+31",
               "raycast names dy");
  expect(cs_world_closest_point(w, &p, NAN, ~0u, &hit) == -(int)CS_EINVAL, "closest NaN");
  expect_error(cs_world_error(w), CS_EINVAL, 4, "maxDistance is NaN", "closest names maxDistance");
  bad.x = NAN;
  expect(cs_mesh_set_vertex(mesh, 1, &bad) == CS_EINVAL, "vertex NaN");
  expect_error(cs_mesh_error(mesh), CS_EINVAL, 2, "x is NaN", "vertex names x");
  expect(cs_mesh_set_vertex(mesh, 9, &p) == CS_ERANGE, "vertex index 9");

  cs_mover_free(m);
  cs_world_free(w);
  cs_mesh_free(mesh);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
