/*
** test_regressions.c: every bug the stress runner (spec/c/stress.c) and the
** fuzzers (fuzz/) found, as a case with literal numbers. The inputs that
** found them are kept under fuzz/regressions/<harness>/ (make fuzz replays
** them). A case marked KNOWN is a reported bug not yet fixed: it prints
** KNOWN while it fails and FIXED when it passes (then drop the mark); it
** does not fail the run. Prints "N passed, M failed" last.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cs_internal.h"
#include "by_value.h"
#include "invariants.h"

typedef struct Stats { int passed, failed, known, fixed; } Stats;

static void report(Stats *st, int ok, int known, const char *name, const char *detail) {
  if (known) {
    if (ok) { st->fixed++; printf("FIXED %s: it passes now; drop its KNOWN mark\n", name); }
    else { st->known++; printf("KNOWN %s (%s)\n", name, detail); }
    return;
  }
  if (ok) st->passed++;
  else { st->failed++; printf("FAIL %s (%s)\n", name, detail); }
}

static cs_TriES make_tri(cs_Vec3 a, cs_Vec3 b, cs_Vec3 c) {
  cs_TriES t;
  memset(&t, 0, sizeof t);
  t.a = a; t.b = b; t.c = c;
  t.n = v3_normalize(v3_cross(v3_sub(b, a), v3_sub(c, a)));
  t.d = -v3_dot(t.n, a);
  cs_tri_bounds(&t);
  t.response = CS_RESPONSE_SLIDE;
  return t;
}

/* The least ellipsoid-space distance from the mover to the triangles. */
static double mover_distance(const cs_Mover *m, const double *tris, int n) {
  inv_Ellipsoid e;
  cs_Vec3 p = csv_mover_position(m), r = csv_mover_radius(m);
  double c[3], rr[3], best = HUGE_VAL;
  int i;
  c[0] = p.x; c[1] = p.y; c[2] = p.z;
  rr[0] = r.x; rr[1] = r.y; rr[2] = r.z;
  inv_ellipsoid_init(&e, c, rr, NULL);
  for (i = 0; i < n; i++) {
    double d = inv_es_distance(&e, tris + 9 * i, tris + 9 * i + 3, tris + 9 * i + 6);
    if (d < best) best = d;
  }
  return best;
}

/* A world holding one mesh (vertices v, nv of them; indices ix for nt
** triangles, or NULL for 0-1-2, 3-4-5, ...) and a mover of its own, for a
** case to place; 0 when any allocation failed. Freed by scene_free. */
typedef struct Scene { cs_Mesh *mesh; cs_World *w; cs_Body *b; cs_Mover *m; } Scene;

static int scene_new(Scene *sc, const double *v, size_t nv, const unsigned *ix, size_t nt) {
  cs_Alloc al = cs_default_alloc();
  cs_MeshDesc d;
  memset(sc, 0, sizeof *sc);
  memset(&d, 0, sizeof d);
  d.vertices = v;
  d.vertex_count = nv;
  d.indices = ix;
  d.triangle_count = nt;
  return cs_mesh_new(&al, &d, &sc->mesh, NULL) == CS_OK && cs_world_new(&al, &sc->w) == CS_OK &&
         cs_world_add(sc->w, sc->mesh, &sc->b) == CS_OK && cs_mover_new(&al, &sc->m) == CS_OK;
}

static void scene_free(Scene *sc) {
  if (sc->m) cs_mover_free(sc->m);
  if (sc->w) cs_world_free(sc->w);
  if (sc->mesh) cs_mesh_free(sc->mesh);
}

/* {==================================================================
** The sweep kernel
** ===================================================================*/

/* test_sweep.c, "touching" cases (fuzz/regressions/fuzz_sweep/touching-floor):
** a unit sphere at distance exactly 1 over a floor, moving down into it.
** The plane test put t0 = -0 <= 0, the overlap test (distance 1) said no
** overlap, and the face was never tested: the sphere passed through. */
static void sweep_touching_floor(Stats *st) {
  cs_TriES t = make_tri(v3(-10, 0, -10), v3(0, 0, 10), v3(10, 0, -10));
  cs_SweepHit h;
  int hit = cs_sweep_triangle(v3(0, 1, 0), v3(0, -2, 0), &t, 1.0, 0, &h);
  report(st, hit && h.t == 0 && h.feature == CS_FEATURE_FACE, 0, "sweep: touching a floor, moving in",
         "the sphere passed through the floor");
  hit = cs_sweep_triangle(v3(0, 1, 0), v3(0, -2, 0), &t, 1.0, CS_SWEEP_DEEPENING_ONLY, &h);
  report(st, hit && h.t == 0, 0, "sweep: the same in the slide loop's mode", "missed");
  hit = cs_sweep_triangle(v3(0, 1, 0), v3(1, 2, 0), &t, 1.0, 0, &h);
  report(st, !hit, 0, "sweep: touching a floor, moving away", "a hit");
}

/* fuzz_slide (fuzz/regressions/fuzz_slide/long-edge) and fuzz_sweep
** (fuzz/regressions/fuzz_sweep/long-edge): Fauerby's edge quadratic took its
** terms from the edge's first vertex, and lost eps |base - p1|^2 to
** cancellation: with the vertex 1e5 radii away, t was off by 9e-8 (1e6:
** by 1e-5, the centre 2e-5 from distance 1). The unit sphere at
** (0, 0.5, 3) moving (0, 0, -4) meets the x axis when z = sqrt(0.75). */
static void sweep_long_edge(Stats *st) {
  double exact = (3 - sqrt(0.75)) / 4;
  char detail[128];
  cs_SweepHit h;
  int k;
  for (k = 0; k < 2; k++) {
    double L = k ? 1e6 : 1e5;
    cs_TriES t = make_tri(v3(-L, 0, 0), v3(L, 0, 0), v3(0, -L, 0));
    int hit = cs_sweep_triangle(v3(0, 0.5, 3), v3(0, 0, -4), &t, 1.0, 0, &h);
    snprintf(detail, sizeof detail, "t = %.17g, exact %.17g", hit ? h.t : -1, exact);
    report(st, hit && h.feature == CS_FEATURE_EDGE && fabs(h.t - exact) <= 1e-12, 0,
           k ? "sweep: an edge 1e6 long, t to 1e-12" : "sweep: an edge 1e5 long, t to 1e-12", detail);
  }
}

/* }================================================================== */

/* {==================================================================
** collideAndSlide
** ===================================================================*/

/* fuzz/regressions/fuzz_slide/long-edge: an ellipsoid (0.05, 0.208, 0.5)
** with a skin of 1e-9 of its radius, moving 25 km along y = 0 into a
** triangle whose edge lies in that plane, 1.5e5 radii from its vertices:
** with the edge quadratic's cancellation (above) it ended 3.1e-6 inside
** the triangle (ellipsoid space); it must end clear, by 1e-9. */
static void slide_long_edge(Stats *st) {
  static const double tri[9] = {0, 0, -2176, -128, -128, 0, 6400, 0, 5248};
  Scene sc;
  cs_Mover *m;
  cs_Vec3 g = {-0x1.1c91e5c8a90b5p-42, 0x1.373f935378e46p-37, -0x1.1c91e5c8a90b5p-42};
  char detail[128];
  double dist;
  if (!scene_new(&sc, tri, 3, NULL, 0)) {
    report(st, 0, 0, "slide: long edge", "setup failed");
    scene_free(&sc);
    return;
  }
  m = sc.m;
  cs_mover_set_radius(m, &(cs_Vec3){0x1.999999999999ap-5, 0x1.aa7d2ce15b234p-3, 0x1p-1});
  cs_mover_set(m, CS_SKIN, 0x1.b7cdfd9d7bdbcp-35);
  cs_mover_set(m, CS_MAX_ITERATIONS, 4);
  cs_mover_set(m, CS_SLOPE_LIMIT, 90);
  cs_mover_set(m, CS_BLOCK_STEEP_SLOPES, 1);
  cs_mover_set_position(m, &(cs_Vec3){0x1.e4p+13, 0, 0});
  cs_world_collide_and_slide(sc.w, m, &(cs_Vec3){-0x1.86f88bf0ace62p+14, 0, -0x1.f97f69f15baadp+7}, &g);
  dist = mover_distance(m, tri, 1);
  snprintf(detail, sizeof detail, "ellipsoid-space distance %.17g", dist);
  report(st, dist >= 1 - INV_OVERLAP_TOL, 0, "slide: 25 km along a long edge ends clear", detail);
  scene_free(&sc);
}

/* Fixed (a call whose start is not known clear gathers a diameter more, and
** depenetration never goes past what was gathered): the stress runner at
** offset 1e7 (spec/c/stress.c
** --offset 1e7, world 0) saw movers leave a sealed room; the cause is not
** the offset. A call gathers the triangles within its moves' reach (the
** mover's box grown by |walk| + |gravity| + skins, cs_world.c), but a mover
** that starts inside geometry is pushed out first (depenetrate,
** cs_slide.c) by up to 4 radii, along the cheapest free direction among
** the gathered triangles only: it can land in, or pass through, a triangle
** the gather left out. Here a unit sphere at the origin overlaps a small
** triangle at x = -0.001 (the cheapest way out is 0.999 along +x, plus the
** skin) and a wall x = 1.95 lies just beyond the gather box (x <= 1.906:
** 1 + 4 skins + the cache's 0.5 |r|): the mover ends 0.06 deep in the
** wall. (With a wall at 1.06 it failed before the gather grew the cache's
** margin.) */
static void slide_depenetration_beyond_gather(Stats *st) {
  static const double v[18] = {-0.001, -0.1, -0.1, -0.001, 0.1, 0.0, -0.001, -0.1, 0.1,
                               1.95, -10, -10, 1.95, -10, 10, 1.95, 10, 0};
  Scene sc;
  cs_Mover *m;
  char detail[128];
  double dist;
  if (!scene_new(&sc, v, 6, NULL, 0)) {
    report(st, 0, 0, "slide: depenetration", "setup failed");
    scene_free(&sc);
    return;
  }
  m = sc.m;
  cs_mover_set_radius(m, &(cs_Vec3){1, 1, 1});
  cs_mover_set_position(m, &(cs_Vec3){0, 0, 0});
  cs_world_collide_and_slide(sc.w, m, &(cs_Vec3){0, 0, 0}, NULL);
  dist = mover_distance(m, v + 9, 1);
  snprintf(detail, sizeof detail, "stuck %d, then distance %.17g to a wall it never gathered",
           cs_mover_was_stuck(m), dist);
  report(st, dist >= 1 - INV_OVERLAP_TOL, 0, "slide: depenetration stays within what was gathered",
         detail);
  scene_free(&sc);
}

/* An independent tester (round eleven): with a skin of 0 a sphere moved
** into a tilted wall at an angle stopped at the contact instead of
** sliding: the remainder, clipped to the wall in world space, came back
** into ellipsoid space pointing 1e-17 into it, and the sweep met the face
** at t = 0 at each of the five iterations (cs_sweep.c, TOUCH_ALONG_REL).
** The slide must end at the destination's foot on the wall's plane, one
** radius in front of it. */
static void skin0_tilted_wall(Stats *st) {
  static const double v[12] = {-14.227245026525795, 11.858683375821149, -9.1080803436959243,
    5.6470406444971282, -17.342649545129444, 9.6614408197855717, 14.314412913693246,
    -12.896739631930807, 7.4007898093701616, -5.5598727573296767, 16.304593289019785,
    -11.368731354111334};
  static const unsigned ix[6] = {0, 1, 2, 0, 2, 3};
  const cs_Vec3 start = {-1.5341553689104448, 2.7091280971261238, -0.55406882009822844};
  const cs_Vec3 move = {0.67119291611047593, -2.8061458352430813, -2.9453430395644964};
  Scene sc;
  cs_Mover *m;
  cs_Vec3 a = {v[0], v[1], v[2]}, n, dest, end, want;
  char detail[160];
  double off;
  if (!scene_new(&sc, v, 4, ix, 2)) {
    report(st, 0, 0, "slide: skin 0 along a tilted wall", "setup failed");
    scene_free(&sc);
    return;
  }
  m = sc.m;
  n = v3_normalize(v3_cross(v3_sub((cs_Vec3){v[3], v[4], v[5]}, a), v3_sub((cs_Vec3){v[6], v[7], v[8]}, a)));
  if (v3_dot(v3_sub(start, a), n) < 0) n = v3_neg(n);       /* the side the sphere is on */
  dest = v3_add(start, move);
  want = v3_madd(dest, n, 0.5 - v3_dot(v3_sub(dest, a), n));
  cs_mover_set_radius(m, &(cs_Vec3){0.5, 0.5, 0.5});
  cs_mover_set(m, CS_SKIN, 0);
  cs_mover_set_position(m, &start);
  cs_world_collide_and_slide(sc.w, m, &move, NULL);
  end = csv_mover_position(m);
  off = v3_len(v3_sub(end, want));
  snprintf(detail, sizeof detail, "ends %.17g from the slide's end, %d contacts", off,
           (int)cs_mover_contact_count(m));
  report(st, off <= 1e-9, 0, "slide: skin 0 along a tilted wall", detail);
  scene_free(&sc);
}

/* }================================================================== */

/* {==================================================================
** Found by an independent tester (round twenty-one): one long call (a
** frame of a hitch, 160 m over a 200 x 200 floor) left the mover's gather
** cache holding its whole gather, which every later small call swept
** (18 times the cost) and which was never given back.
** ===================================================================*/

static void long_call_cache(Stats *st) {
  enum { N = 200 };
  static double v[3 * (N + 1) * (N + 1)];
  static unsigned ix[6 * N * N];
  Scene sc;
  cs_Vec3 p = {-80, 0.51, 0}, small = {0.1, 0, 0}, g = {0, -0.01, 0}, big = {160, 0, 0}, bigg = {0, -1, 0};
  size_t i, j, k = 0, t = 0, after;
  char detail[160];
  for (i = 0; i <= N; i++)
    for (j = 0; j <= N; j++) {
      v[k++] = (double)i - N / 2; v[k++] = 0; v[k++] = (double)j - N / 2;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      unsigned a = (unsigned)(i * (N + 1) + j), b = a + 1, c = a + N + 1, d = c + 1;
      ix[t++] = a; ix[t++] = b; ix[t++] = d; ix[t++] = a; ix[t++] = d; ix[t++] = c;
    }
  if (!scene_new(&sc, v, (N + 1) * (N + 1), ix, 2 * N * N)) {
    report(st, 0, 0, "cache: one long call", "setup failed");
    scene_free(&sc);
    return;
  }
  cs_mover_set_position(sc.m, &p);
  for (i = 0; i < 10; i++) cs_world_collide_and_slide(sc.w, sc.m, &small, &g);
  cs_world_collide_and_slide(sc.w, sc.m, &big, &bigg);
  for (i = 0; i < 10; i++) cs_world_collide_and_slide(sc.w, sc.m, &small, &g);
  after = sc.m->cache.ntris;
  snprintf(detail, sizeof detail, "%zu triangles cached after it, room for %zu", after, sc.m->cache.captris);
  report(st, after < 200 && sc.m->cache.captris * sizeof(cs_TriES) <= 65536 + 4 * after * sizeof(cs_TriES),
         0, "cache: small calls after one long call sweep a small set", detail);
  scene_free(&sc);
}

/* }================================================================== */

/* {==================================================================
** Found by an independent tester (round twenty-three): more than 64 body
** placements between two calls, however far from the mover (crates placed
** each frame 500 m away, or one body sub-stepped 65 times), overflowed the
** world's change log, and every mover gathered anew (12 -> 53 ms a frame for
** 256 movers). A gather anew swaps the mover's cache buffer (cache_store), so
** an unchanged cache.tris says the cache served the call.
** ===================================================================*/

static void placements_far_away(Stats *st) {
  enum { N = 40, CRATES = 100 };
  static double v[3 * (N + 1) * (N + 1)];
  static unsigned ix[6 * N * N];
  double box[] = {-0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5,
                  -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5};
  unsigned bix[] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                    2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
  cs_Alloc al = cs_default_alloc();
  cs_MeshDesc d;
  cs_Mesh *crate = NULL;
  cs_Body *bodies[CRATES];
  Scene sc;
  cs_Vec3 p = {0, 0.51, 0}, walk = {0.01, 0, 0}, g = {0, -0.01, 0}, one = {1, 1, 1}, at, after;
  const double q[4] = {0, 0, 0, 1};
  size_t i, j, k = 0, t = 0, frame, reused = 0, frames = 0;
  int ok = 1;
  for (i = 0; i <= N; i++)
    for (j = 0; j <= N; j++) {
      v[k++] = ((double)i - N / 2) * 0.25; v[k++] = 0; v[k++] = ((double)j - N / 2) * 0.25;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      unsigned a = (unsigned)(i * (N + 1) + j), b = a + 1, c = a + N + 1, e = c + 1;
      ix[t++] = a; ix[t++] = b; ix[t++] = e; ix[t++] = a; ix[t++] = e; ix[t++] = c;
    }
  memset(&d, 0, sizeof d);
  d.vertices = box; d.vertex_count = 8; d.indices = bix; d.triangle_count = 12;
  if (!scene_new(&sc, v, (N + 1) * (N + 1), ix, 2 * N * N) || cs_mesh_new(&al, &d, &crate, NULL) != CS_OK) {
    report(st, 0, 0, "placements far away", "setup failed");
    scene_free(&sc);
    if (crate) cs_mesh_free(crate);
    return;
  }
  for (i = 0; i < CRATES && ok; i++) ok = cs_world_add(sc.w, crate, &bodies[i]) == CS_OK;
  cs_mover_set_position(sc.m, &p);
  for (frame = 0; ok && frame < 30; frame++) {
    const cs_TriES *before = sc.m->cache.tris;
    for (i = 0; i < CRATES; i++) {           /* 100 crates 500 m away */
      cs_Vec3 c = {500 + 2.0 * (double)i, 0.5 + 0.01 * (double)frame, 0};
      ok = ok && cs_body_set_transform(bodies[i], &c, q, &one) == CS_OK;
    }
    for (i = 0; i < 300; i++) {              /* one of them sub-stepped 300 times */
      cs_Vec3 c = {500, 0.5 + 0.01 * (double)frame + 0.0001 * (double)i, 5};
      ok = ok && cs_body_set_transform(bodies[0], &c, q, &one) == CS_OK;
    }
    ok = ok && cs_world_collide_and_slide(sc.w, sc.m, &walk, &g) == CS_OK;
    if (frame >= 5) {                        /* (its first calls grow the cache) */
      frames++;
      reused += sc.m->cache.tris == before;
    }
  }
  report(st, ok && reused == frames, 0, "placements far away: the mover's cache serves on",
         ok ? "gathered anew" : "a call failed");
  /* a crate placed at the mover after them all is met (the log still answers) */
  at = csv_mover_position(sc.m);
  for (i = 1; i < CRATES; i++) {
    cs_Vec3 c = {600, 0.5, 2.0 * (double)i};
    cs_body_set_transform(bodies[i], &c, q, &one);
  }
  {
    cs_Vec3 c = {at.x + 1.2, 0.5, at.z}, w2 = {1, 0, 0};
    cs_body_set_transform(bodies[0], &c, q, &one);
    ok = ok && cs_world_collide_and_slide(sc.w, sc.m, &w2, &g) == CS_OK;
  }
  after = csv_mover_position(sc.m);
  report(st, ok && after.x < at.x + 1.2 - 0.5 - 0.5 + 1e-6 && after.x > at.x, 0,
         "placements far away: a crate placed after them at the mover stops it", "passed into the crate");
  scene_free(&sc);
  cs_mesh_free(crate);
}

/* }================================================================== */

/* {==================================================================
** Found by an independent tester (round twenty-three): a sweep gathered
** every triangle in its swept box, so a long diagonal sweep over a field
** of rocks gathered the field (242,000 triangles, 122 ms for a hit 0.27 m
** away). It gathers those along its path now; the call's scratch says how
** many it swept.
** ===================================================================*/

static void diagonal_sweep_gather(Stats *st) {
  enum { N = 100 };
  static double v[9 * N * N];
  Scene sc;
  /* the line z = x + 0.5 passes 0.28 from every triangle, 0.1 to spare */
  cs_Vec3 p = {-45, 0.15, -44.5}, r = {0.1, 0.1, 0.1}, d = {90, 0, 90};
  cs_Hit h;
  size_t i, j, k = 0;
  int hit, hit2;
  char detail[160];
  for (i = 0; i < N; i++)               /* a small upright triangle every metre */
    for (j = 0; j < N; j++) {
      double x = (double)i - N / 2 + 0.5, z = (double)j - N / 2 + 0.5;
      v[k++] = x - 0.1; v[k++] = 0; v[k++] = z;
      v[k++] = x + 0.1; v[k++] = 0; v[k++] = z;
      v[k++] = x; v[k++] = 0.3; v[k++] = z;
    }
  if (!scene_new(&sc, v, 3 * N * N, NULL, N * N)) {
    report(st, 0, 0, "sweep gather along the path", "setup failed");
    scene_free(&sc);
    return;
  }
  hit = cs_world_sweep_ellipsoid(sc.w, &p, &r, NULL, &d, ~0u, &h);
  snprintf(detail, sizeof detail, "%zu triangles swept of %d", sc.w->scratch.ntris, N * N);
  report(st, hit == 0 && sc.w->scratch.ntris < 5 * N, 0,
         "sweep gather: a diagonal sweep through a field sweeps the triangles along its path", detail);
  p.z = -45;                            /* z = x: through the triangles */
  hit2 = cs_world_sweep_ellipsoid(sc.w, &p, &r, NULL, &d, ~0u, &h);
  report(st, hit2 == 1 && h.t * 90 < 0.5, 0,
         "sweep gather: the same sweep along z = x meets the first triangle", "missed");
  scene_free(&sc);
}

/* }================================================================== */

/* {==================================================================
** Found by an independent tester (round twenty-three): a path 1e-13 inside
** a finely split sensor face lay in each crossed triangle's plane, and
** gave two hits a triangle, each stretch between them sampled over the
** whole mesh (20 times slower). The hits of a face's plane region are its
** ends now; the scratch's hit buffer says how many a segment had.
** ===================================================================*/

static void sensor_face_plane_hits(Stats *st) {
  enum { N = 32, M = N + 1 };
  static double v[3 * M * M * M];
  static unsigned ix[3 * 12 * N * N], id[M * M * M];
  cs_Alloc al = cs_default_alloc();
  cs_MeshDesc d;
  cs_Mesh *mesh = NULL;
  cs_World *w = NULL;
  cs_Mover *m = NULL;
  cs_Sensor *sn = NULL;
  cs_Vec3 p = {0.0123, 1 - 1e-13, 0.0217}, walk = {0.9, 0, 0.837}, zero = {0, 0, 0};
  cs_Vec3 r = {0.01, 0.01, 0.01};
  size_t nv = 0, nt = 0;
  int ax, side, a, b, k, ok;
  char detail[120];
  memset(id, 0, sizeof id);
  /* a closed unit box of N x N quads a face, vertices shared (id: 1-based
  ** index of the lattice point, 0 for none yet) */
  for (ax = 0; ax < 3; ax++)
    for (side = 0; side < 2; side++)
      for (a = 0; a < N; a++)
        for (b = 0; b < N; b++) {
          unsigned c[4];
          static const int da[4] = {0, 1, 1, 0}, db[4] = {0, 0, 1, 1};
          for (k = 0; k < 4; k++) {
            int q[3], slot;
            q[ax] = side * N; q[(ax + 1) % 3] = a + da[k]; q[(ax + 2) % 3] = b + db[k];
            slot = (q[0] * M + q[1]) * M + q[2];
            if (!id[slot]) {
              v[3 * nv] = (double)q[0] / N; v[3 * nv + 1] = (double)q[1] / N; v[3 * nv + 2] = (double)q[2] / N;
              id[slot] = (unsigned)++nv;
            }
            c[k] = id[slot] - 1;
          }
          if (side) {
            ix[3 * nt] = c[0]; ix[3 * nt + 1] = c[1]; ix[3 * nt + 2] = c[2];
            ix[3 * nt + 3] = c[0]; ix[3 * nt + 4] = c[2]; ix[3 * nt + 5] = c[3];
          } else {
            ix[3 * nt] = c[0]; ix[3 * nt + 1] = c[2]; ix[3 * nt + 2] = c[1];
            ix[3 * nt + 3] = c[0]; ix[3 * nt + 4] = c[3]; ix[3 * nt + 5] = c[2];
          }
          nt += 2;
        }
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = nv; d.indices = ix; d.triangle_count = nt;
  ok = cs_mesh_new(&al, &d, &mesh, NULL) == CS_OK && cs_world_new(&al, &w) == CS_OK &&
       cs_mover_new(&al, &m) == CS_OK && cs_world_add_sensor(w, mesh, &sn, NULL, NULL) == CS_OK;
  if (ok) {
    cs_mover_set_radius(m, &r);
    cs_mover_set_position(m, &p);
    ok = cs_world_collide_and_slide(w, m, &zero, NULL) == CS_OK &&
         cs_world_collide_and_slide(w, m, &walk, NULL) == CS_OK;
  }
  snprintf(detail, sizeof detail, "%s; room for %zu hits after a walk over %d triangles of the face",
           ok ? "ran" : "setup failed", w ? w->scratch.sensor.caphits : 0, 2 * N);
  report(st, ok && w->scratch.sensor.caphits <= 16, 0,
         "sensor: a path in a split face's plane has the region's ends as hits", detail);
  if (m) cs_mover_free(m);
  if (w) cs_world_free(w);
  if (mesh) cs_mesh_free(mesh);
}

/* A mover put back where it is between two calls (an engine writing its
** positions back each frame) must make the same second call: it ended in
** the air 0.38 above where it snapped without the put-back (found by an
** independent tester, round 24). */
static void setpos_self(Stats *st) {
#include "setpos_scene.inc"
  cs_Alloc al = cs_default_alloc();
  cs_Vec3 end[2], before;
  int k, ok = 1;
  char detail[160];
  for (k = 0; k < 2; k++) {
    cs_MeshDesc d;
    cs_Mesh *mesh = NULL;
    cs_World *w = NULL;
    cs_Body *b;
    cs_Mover *m = NULL;
    memset(&d, 0, sizeof d);
    d.vertices = tv; d.vertex_count = (size_t)ntri * 3; d.triangle_count = (size_t)ntri;
    ok = ok && cs_mesh_new(&al, &d, &mesh, NULL) == CS_OK && cs_world_new(&al, &w) == CS_OK &&
         cs_world_add(w, mesh, &b) == CS_OK && cs_mover_new(&al, &m) == CS_OK;
    if (ok) {
      cs_mover_set_radius(m, &r);
      cs_mover_set_orientation(m, q);
      cs_mover_set(m, CS_STEP_HEIGHT, 0.3);
      cs_mover_set(m, CS_SNAP_DISTANCE, 0.3);
      cs_mover_set_position(m, &p);
      ok = cs_world_collide_and_slide(w, m, &wk0, &g0) == CS_OK;
      cs_mover_get_position(m, &before);
      if (k) cs_mover_set_position(m, &before);    /* the same doubles */
      ok = ok && cs_world_collide_and_slide(w, m, &wk1, &g1) == CS_OK;
      cs_mover_get_position(m, &end[k]);
    }
    if (m) cs_mover_free(m);
    if (w) cs_world_free(w);
    if (mesh) cs_mesh_free(mesh);
  }
  snprintf(detail, sizeof detail, "%s; y %.17g without the put-back, %.17g with it",
           ok ? "ran" : "setup failed", ok ? end[0].y : 0, ok ? end[1].y : 0);
  report(st, ok && memcmp(&end[0], &end[1], sizeof end[0]) == 0, 0,
         "mover: put back where it is, the next call is the same", detail);
}

/* }================================================================== */

int main(void) {
  Stats st = {0, 0, 0, 0};
  sweep_touching_floor(&st);
  sweep_long_edge(&st);
  slide_long_edge(&st);
  slide_depenetration_beyond_gather(&st);
  skin0_tilted_wall(&st);
  long_call_cache(&st);
  placements_far_away(&st);
  diagonal_sweep_gather(&st);
  sensor_face_plane_hits(&st);
  setpos_self(&st);
  printf("%d known bugs, %d fixed\n", st.known, st.fixed);
  printf("%d passed, %d failed\n", st.passed, st.failed);
  return st.failed == 0 ? 0 : 1;
}
