/*
** test_lifetimes.c: a mover outlives the worlds it moved in (issue 10).
** Each case runs twice: with an allocator that hands a freed block back to
** the next request of its size (fuzz/fuzz_alloc.h, reuse on), so the new
** world lands at the freed world's address and its body at the freed body's
** (the case then checks that reuse really happened, so it can fail without
** the fix in every build, sanitized or not); and with plain malloc/free, so
** that ASan and valgrind see any read of the freed world. Prints
** "N passed, M failed" last.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cs_internal.h"
#include "by_value.h"
#include "scenes.h"
#include "../../fuzz/fuzz_alloc.h"

static int passed, failed;

static void check(int ok, const char *mode, const char *name, const char *detail) {
  if (ok) passed++;
  else { failed++; printf("FAIL %s (%s): %s\n", name, mode, detail); }
}

/* A box [lo, hi] (scenes.h). */
static cs_Mesh *box_mesh(cs_Alloc *a, cs_Vec3 lo, cs_Vec3 hi) { return scene_box(a, lo, hi); }

/* A 20 x 20 floor at y = 0 facing up, or a lone triangle at x = 1000. */
static cs_Mesh *floor_mesh(cs_Alloc *a, int far) {
  static const double fv[12] = {-10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10};
  static const unsigned fi[6] = {0, 1, 2, 0, 2, 3};
  static const double tv[9] = {1000, 0, 0, 1000, 0, 1, 1001, 0, 0};
  cs_MeshDesc d;
  cs_Mesh *m = NULL;
  memset(&d, 0, sizeof d);
  if (far) { d.vertices = tv; d.vertex_count = 3; }
  else { d.vertices = fv; d.vertex_count = 4; d.indices = fi; d.triangle_count = 2; }
  return cs_mesh_new(a, &d, &m, NULL) == CS_OK ? m : NULL;
}

static cs_Mover *sphere(cs_Alloc *a, cs_Vec3 at) {
  cs_Mover *m = NULL;
  if (cs_mover_new(a, &m) != CS_OK) return NULL;
  cs_mover_set_position(m, &at);
  return m;
}

/* In the allocator's reuse mode the new object must sit where the freed one
** did, or the case proves nothing. */
static void check_reused(int reuse, const void *old, const void *now, const char *name) {
  if (reuse) check(old == now, "reuse", name, "the allocator did not hand the block back");
}

/*   world A:  o ->|wall x = 0.8        world C:  o -->   ...   box at x = 100
** The mover fills its gather cache beside A's wall; moving 0.4 in C must
** meet nothing. */
static void stale_cache(cs_Alloc *a, int reuse, const char *mode) {
  cs_World *wa = NULL, *wc = NULL;
  cs_Mesh *wall = box_mesh(a, (cs_Vec3){0.8, -5, -5}, (cs_Vec3){2, 5, 5});
  cs_Mesh *far = box_mesh(a, (cs_Vec3){100, -5, -5}, (cs_Vec3){101, 5, 5});
  cs_Mover *m = sphere(a, (cs_Vec3){0, 0, 0});
  cs_Body *b;
  cs_Vec3 p, dx = {0.001, 0, 0};
  void *old;
  cs_world_new(a, &wa);
  cs_world_add(wa, wall, &b);
  cs_world_collide_and_slide(wa, m, &dx, NULL);
  cs_world_collide_and_slide(wa, m, &dx, NULL);
  old = wa;
  cs_world_free(wa);
  cs_world_new(a, &wc);
  check_reused(reuse, old, wc, "stale cache");
  cs_world_add(wc, far, &b);
  cs_world_collide_and_slide(wc, m, &(cs_Vec3){0.4, 0, 0}, NULL);
  p = csv_mover_position(m);
  check(fabs(p.x - 0.402) < 1e-12 && p.y == 0 && p.z == 0, mode, "stale cache",
        "the mover met a freed world's wall");
  check(cs_mover_contact_count(m) == 0, mode, "stale cache", "a contact in an empty space");
  cs_world_free(wc);
  cs_mover_free(m);
  cs_mesh_free(wall);
  cs_mesh_free(far);
}

/*   world 1:  o          world 2:  o   (nothing below; a triangle at x = 1000)
**           =====                  |
** Standing on world 1's floor, the mover must fall in world 2. */
static void ghost_floor(cs_Alloc *a, int reuse, const char *mode) {
  cs_World *w1 = NULL, *w2 = NULL;
  cs_Mesh *fl = floor_mesh(a, 0), *tri = floor_mesh(a, 1);
  cs_Mover *m = sphere(a, (cs_Vec3){0, 0.6, 0});
  cs_Body *b;
  cs_Vec3 g = {0, -0.1, 0}, zero = {0, 0, 0};
  void *old;
  int i;
  cs_world_new(a, &w1);
  cs_world_add(w1, fl, &b);
  for (i = 0; i < 5; i++) cs_world_collide_and_slide(w1, m, &zero, &g);
  check(cs_mover_ground_state(m) == CS_GROUND_ON, mode, "ghost floor", "did not settle");
  old = w1;
  cs_world_free(w1);
  cs_world_new(a, &w2);
  check_reused(reuse, old, w2, "ghost floor");
  cs_world_add(w2, tri, &b);
  for (i = 0; i < 5; i++) cs_world_collide_and_slide(w2, m, &zero, &g);
  check(fabs(csv_mover_position(m).y - 0.005) < 1e-9, mode, "ghost floor",
        "the mover stood on a freed world's floor");
  check(cs_mover_ground_state(m) == CS_GROUND_AIR && cs_mover_contact_count(m) == 0, mode,
        "ghost floor", "ground or contacts from a freed world");
  cs_world_free(w2);
  cs_mover_free(m);
  cs_mesh_free(fl);
  cs_mesh_free(tri);
}

/*   world A:  o  on a floor body           world B:  o  on another floor,
**           =====  (freed)                         =====  moving 1 m a call
** The mover's ground body is A's floor. In B (whose floor, with reuse, is
** A's floor's block) it must be carried by nothing it did not stand on in
** B, and must never read A's freed body (ASan, valgrind: plain mode). */
static void ground_body(cs_Alloc *a, int reuse, const char *mode) {
  cs_World *wa = NULL, *wb = NULL;
  cs_Mesh *fl = floor_mesh(a, 0);
  cs_Mover *m = sphere(a, (cs_Vec3){0, 0.6, 0});
  cs_Body *ba = NULL, *bb = NULL;
  const cs_Body *gb = NULL;
  cs_Vec3 g = {0, -0.1, 0}, zero = {0, 0, 0}, p;
  void *old;
  int i;
  cs_world_new(a, &wa);
  cs_world_add(wa, fl, &ba);
  for (i = 0; i < 3; i++) cs_world_collide_and_slide(wa, m, &zero, &g);
  check(cs_mover_ground(m, NULL, &gb, NULL) && gb == ba, mode, "ground body", "not on A's floor");
  old = wa;
  cs_world_free(wa);
  cs_world_new(a, &wb);
  check_reused(reuse, old, wb, "ground body");
  cs_world_add(wb, fl, &bb);
  check_reused(reuse, (void *)ba, bb, "ground body");
  cs_body_set_velocity(bb, &(cs_Vec3){1, 0, 0});
  cs_world_collide_and_slide(wb, m, &zero, &g);
  p = csv_mover_position(m);
  check(p.x == 0 && fabs(p.y - 0.505) < 1e-9, mode, "ground body",
        "carried by a body it never stood on in this world");
  /* standing on B's floor now, the next call is carried by it */
  cs_world_collide_and_slide(wb, m, &zero, &g);
  p = csv_mover_position(m);
  check(fabs(p.x - 1) < 1e-12, mode, "ground body", "not carried by its own ground");
  cs_world_free(wb);
  cs_mover_free(m);
  cs_mesh_free(fl);
}

/* Meshes and worlds freed in either order (a Lua state's close finalizes
** them in no set order): the world freed after the meshes its bodies place
** touches none of them (it read a freed mesh's list of the worlds told of
** its edits: ASan, the FFI binding's close), and a mesh edited and freed
** after its worlds writes to none of theirs; a mesh placed in many worlds
** come and gone keeps no more than the live ones. */
static void free_orders(cs_Alloc *a, int reuse, const char *mode) {
  cs_Mesh *mesh = floor_mesh(a, 0);
  cs_World *w[3];
  cs_Body *b;
  cs_Vec3 p = {0, 1, 0};
  int k;
  (void)reuse;
  for (k = 0; k < 3; k++) {
    cs_world_new(a, &w[k]);
    cs_world_add(w[k], mesh, &b);
  }
  cs_world_free(w[0]);
  cs_mesh_set_vertex(mesh, 0, &p);            /* the freed world's flag dropped here */
  check(mesh->nwatch == 2, mode, "free orders", "a freed world's watcher kept by the edit");
  for (k = 0; k < 50; k++) {                  /* worlds come and go */
    cs_World *t;
    cs_world_new(a, &t);
    cs_world_add(t, mesh, &b);
    cs_world_free(t);
  }
  cs_world_new(a, &w[0]);
  cs_world_add(w[0], mesh, &b);
  check(mesh->nwatch == 3, mode, "free orders", "watchers of freed worlds piled up");
  cs_mesh_free(mesh);                          /* before the worlds that place it */
  for (k = 0; k < 3; k++) cs_world_free(w[k]);
}

int main(void) {
  int reuse;
  for (reuse = 1; reuse >= 0; reuse--) {
    fa_State st;
    cs_Alloc a = reuse ? fa_alloc_reusing(&st) : fa_alloc(&st, -1);
    const char *mode = reuse ? "reuse" : "plain";
    stale_cache(&a, reuse, mode);
    ghost_floor(&a, reuse, mode);
    ground_body(&a, reuse, mode);
    free_orders(&a, reuse, mode);
    check(st.live == 0, mode, "leaks", "bytes left allocated");
    fa_drain(&st);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
