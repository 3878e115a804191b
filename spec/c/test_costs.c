/*
** test_costs.c: calls cost what their work costs, not the world's size (an
** independent tester's cost cliffs, round 24). The world's tree over its
** bodies (cs_broad.c): a world of many distinct meshes, one body placed,
** enabled or given layers a frame among many still ones; each case checks
** the broad phase's own count of the work its updates did
** (cs_Broad.work) and, on the clock, that a call after such a change costs
** about what a call without it does. A query whose callback stops early
** stops its walk. The clock's checks take CPU time, the best of several
** rounds, with a wide margin: before the fixes the ratios were 50 to 3,800.
** Prints "N passed, M failed" last.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cs_internal.h"
#include "by_value.h"
#include "scenes.h"

static int passed, failed;

/* Prints each case with its figures (bench/RESULTS.md quotes them). */
static void check(int ok, const char *name, const char *detail) {
  if (ok) passed++;
  else failed++;
  printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", name, *detail ? ": " : "", detail);
}

#define NBODIES 20000

typedef struct Scene {
  cs_World *w;
  cs_Mover *m;
  cs_Mesh *floor, *shared;
  cs_Mesh *own[NBODIES];   /* distinct meshes, or NULL */
  cs_Body *bodies[NBODIES];
} Scene;

static Scene sc;
static const double Q1[4] = {0, 0, 0, 1};
static const cs_Vec3 S1 = {1, 1, 1};

/* A floor under the mover at the origin and NBODIES small boxes 1 km away,
** each of its own mesh (distinct) or all of one. */
static void scene_make(cs_Alloc *a, int distinct) {
  size_t i;
  cs_Body *fb;
  cs_Vec3 at = {0, 0.5, 0};
  memset(&sc, 0, sizeof sc);
  sc.floor = scene_box(a, v3(-50, -1, -50), v3(50, 0, 50));
  sc.shared = scene_box(a, v3(0, 0, 0), v3(1, 1, 1));
  cs_world_new(a, &sc.w);
  cs_world_add(sc.w, sc.floor, &fb);
  for (i = 0; i < NBODIES; i++) {
    cs_Vec3 t = {1000 + 2.0 * (double)(i % 100), 0, 2.0 * (double)(i / 100)};
    cs_Mesh *mesh = sc.shared;
    if (distinct) mesh = sc.own[i] = scene_box(a, v3(0, 0, 0), v3(1, 1, 1));
    cs_world_add(sc.w, mesh, &sc.bodies[i]);
    cs_body_set_transform(sc.bodies[i], &t, Q1, &S1);
  }
  cs_mover_new(a, &sc.m);
  cs_mover_set_position(sc.m, &at);
}

static void scene_free(void) {
  size_t i;
  cs_mover_free(sc.m);
  cs_world_free(sc.w);
  for (i = 0; i < NBODIES; i++) cs_mesh_free(sc.own[i]);
  cs_mesh_free(sc.floor);
  cs_mesh_free(sc.shared);
}

/* One step of the mover: a little walk back and forth and gravity. */
static void step(int k) {
  cs_Vec3 walk = {k % 2 ? 0.01 : -0.01, 0, 0}, grav = {0, -0.01, 0};
  cs_world_collide_and_slide(sc.w, sc.m, &walk, &grav);
}

typedef void (*Change)(int k);

static void no_change(int k) { (void)k; }
static void place_one(int k) {     /* a door swinging 1 km away */
  cs_Vec3 t = {1000, (k % 2) ? 0.5 : 0.0, 0};
  cs_body_set_transform(sc.bodies[0], &t, Q1, &S1);
}
static void toggle_one(int k) { cs_body_set_enabled(sc.bodies[7], k % 2); }
static void layer_one(int k) { cs_body_set_layers(sc.bodies[9], (k % 2) ? 1u : 2u); }

/* CPU seconds a call of op(ud, k), k = 0 .. n - 1, the best of 5 rounds. */
typedef void (*Op)(void *ud, int k);
static double best_cpu(Op op, void *ud, int n) {
  double best = HUGE_VAL;
  int r, k;
  for (r = 0; r < 5; r++) {
    clock_t c0 = clock();
    double t;
    for (k = 0; k < n; k++) op(ud, k);
    t = (double)(clock() - c0) / CLOCKS_PER_SEC / n;
    if (t < best) best = t;
  }
  return best;
}

typedef struct ChangeOp { Change change; } ChangeOp;
static void change_and_step(void *ud, int k) {
  ((ChangeOp *)ud)->change(k);
  step(k);
}

/* CPU seconds a frame of change + step, the best of 5 rounds of n frames. */
static double frame_cost(Change change, int n) {
  ChangeOp c;
  c.change = change;
  return best_cpu(change_and_step, &c, n);
}

/* A change and a step cost within `margin` times a step alone (plus a
** microsecond for the change's own work and the clock's grain). */
static void check_cost(const char *name, Change change, double margin) {
  char detail[160];
  double base = frame_cost(no_change, 2000), with = frame_cost(change, 2000);
  snprintf(detail, sizeof detail, "%.3g us a frame against %.3g us without the change",
           with * 1e6, base * 1e6);
  check(with <= margin * base + 1e-6, name, detail);
}

/* The work of the broad phase's updates for one change and a step. */
static size_t work_after(Change change, int k) {
  size_t before = sc.w->broad.work;
  change(k);
  step(k);
  return sc.w->broad.work - before;
}

static void distinct_meshes(cs_Alloc *a) {
  char detail[120];
  size_t work;
  scene_make(a, 1);
  step(0);
  step(1);
  work = work_after(no_change, 2);
  snprintf(detail, sizeof detail, "the update looked at %lu things", (unsigned long)work);
  check(work == 0, "distinct meshes: a call with nothing changed asks no mesh", detail);
  {
    double distinct = frame_cost(no_change, 2000), shared;
    scene_free();
    scene_make(a, 0);
    step(0);
    shared = frame_cost(no_change, 2000);
    snprintf(detail, sizeof detail, "%.3g us a step with %d distinct meshes, %.3g us with one",
             distinct * 1e6, NBODIES, shared * 1e6);
    check(distinct <= 4 * shared + 1e-6, "distinct meshes: a step costs as with one mesh", detail);
  }
  scene_free();
}

static void one_body_changes(cs_Alloc *a) {
  char detail[120];
  size_t work;
  scene_make(a, 0);
  step(0);
  work = work_after(place_one, 1);
  snprintf(detail, sizeof detail, "the update looked at %lu things", (unsigned long)work);
  check(work > 0 && work < 100, "one body placed: its path refitted alone", detail);
  work = work_after(toggle_one, 0);
  snprintf(detail, sizeof detail, "the update looked at %lu things", (unsigned long)work);
  check(work < 100, "one body disabled: no rebuild", detail);
  work = work_after(toggle_one, 1);
  snprintf(detail, sizeof detail, "the update looked at %lu things", (unsigned long)work);
  check(work < 100, "one body enabled: no rebuild", detail);
  check_cost("one body placed a frame", place_one, 4);
  check_cost("one body enabled and disabled a frame", toggle_one, 4);
  check_cost("one body's layers changed a frame", layer_one, 4);
  scene_free();
}

/* A disabled body is skipped by the calls, an enabled one met, with the
** tree holding both. */
static void disabled_skipped(cs_Alloc *a) {
  cs_Mesh *floor = scene_box(a, v3(-5, -1, -5), v3(5, 0, 5));
  cs_World *w = NULL;
  cs_Mover *m = NULL;
  cs_Body *b = NULL;
  cs_Vec3 at = {0, 2, 0}, walk = {0, 0, 0}, grav = {0, -5, 0}, p;
  int k;
  cs_world_new(a, &w);
  cs_world_add(w, floor, &b);
  cs_mover_new(a, &m);
  for (k = 0; k < 3; k++) {
    cs_body_set_enabled(b, k != 1);
    cs_mover_set_position(m, &at);
    cs_world_collide_and_slide(w, m, &walk, &grav);
    cs_mover_get_position(m, &p);
    check(k == 1 ? p.y < -2.9 : fabs(p.y - 0.5) < 0.01,
          k == 1 ? "a disabled floor is fallen through" : "an enabled floor holds", "");
  }
  cs_mover_free(m);
  cs_world_free(w);
  cs_mesh_free(floor);
}

static int stop_at_first(void *ud, const cs_Body *b, unsigned t) {
  (void)b; (void)t;
  ++*(long *)ud;
  return 0;
}

/* CPU seconds of one queryBox over [-h, h] around the middle of the terrain
** w whose callback stops at the first triangle, the best of 5 rounds. */
typedef struct QueryOp { cs_World *w; cs_Vec3 lo, hi; long *calls; } QueryOp;
static void stopped_query(void *ud, int k) {
  QueryOp *q = (QueryOp *)ud;
  (void)k;
  cs_world_query_box(q->w, &q->lo, &q->hi, ~0u, stop_at_first, q->calls);
}
static double stopped_query_cost(cs_World *w, double h, long *calls) {
  QueryOp q;
  q.w = w;
  q.lo = v3(-h, -10, -h);
  q.hi = v3(h, 10, h);
  q.calls = calls;
  return best_cpu(stopped_query, &q, 20);
}

/* An N x N terrain of unit cells (2 N^2 triangles) around the origin,
** gently waved; NULL when it cannot be made. */
enum { TN = 400 };
static double tv[3 * (TN + 1) * (TN + 1)];
static unsigned tix[6 * TN * TN];
static cs_Mesh *terrain(cs_Alloc *a) {
  cs_MeshDesc d;
  cs_Mesh *mesh = NULL;
  int i, j, n = 0;
  for (i = 0; i <= TN; i++)
    for (j = 0; j <= TN; j++) {
      double *p = tv + 3 * (i * (TN + 1) + j);
      p[0] = i - TN / 2; p[1] = 0.1 * sin(i * 0.7) * cos(j * 0.3); p[2] = j - TN / 2;
    }
  for (i = 0; i < TN; i++)
    for (j = 0; j < TN; j++) {
      unsigned q = (unsigned)(i * (TN + 1) + j);
      tix[n++] = q; tix[n++] = q + 1; tix[n++] = q + TN + 1;
      tix[n++] = q + 1; tix[n++] = q + TN + 2; tix[n++] = q + TN + 1;
    }
  memset(&d, 0, sizeof d);
  d.vertices = tv; d.vertex_count = (TN + 1) * (TN + 1); d.indices = tix;
  d.triangle_count = 2 * TN * TN;
  return cs_mesh_new(a, &d, &mesh, NULL) == CS_OK ? mesh : NULL;
}

/* queryBox over a whole 320,000-triangle terrain, stopped at its first
** triangle, costs about what a 1 m box does (it gathered the box's
** triangles first: 3,800 times as much on 980,000). */
static void query_stops_early(cs_Alloc *a) {
  cs_Mesh *mesh = terrain(a);
  cs_World *w = NULL;
  cs_Body *b;
  long calls = 0;
  double small, whole;
  char detail[160];
  if (!mesh || cs_world_new(a, &w) != CS_OK || cs_world_add(w, mesh, &b) != CS_OK) {
    check(0, "queryBox stopped early: setup", "");
    return;
  }
  small = stopped_query_cost(w, 0.5, &calls);
  whole = stopped_query_cost(w, TN, &calls);
  snprintf(detail, sizeof detail, "%.3g us over the whole terrain, %.3g us over 1 m; %ld callbacks",
           whole * 1e6, small * 1e6, calls);
  check(calls == 200 && whole <= 20 * small + 2e-6,
        "queryBox stopped at its first triangle costs about a small box's", detail);
  cs_world_free(w);
  cs_mesh_free(mesh);
}

/* One vertex of a 320,000-triangle terrain edited a frame, far from a
** mover walking on it: the frame costs the edit's triangles and the
** mover's new gather, not a refit of the whole terrain (36 ms a frame on
** 980,000 triangles; a vertex that leaves the bounds inward still costs a
** pass over the vertices). The mesh's bounds and degenerate count stay those of
** a mesh made anew from its vertices. */
static cs_Mesh *edit_mesh;
static void edit_one(int k) {   /* a vertex near a far corner, up and down by 0.05 */
  size_t v = 3;                 /* y 0: within the bounds either way */
  cs_Vec3 p = {tv[3 * v], tv[3 * v + 1] + ((k % 2) ? 0.05 : 0.0), tv[3 * v + 2]};
  cs_mesh_set_vertex(edit_mesh, v, &p);
}
static void terrain_edits(cs_Alloc *a) {
  cs_Mesh *mesh = terrain(a), *fresh = NULL;
  cs_Body *b;
  cs_Vec3 at = {0, 1, 0}, lo, hi, flo, fhi, p;
  cs_MeshDesc d;
  char detail[200];
  double base, with;
  int k;
  memset(&sc, 0, sizeof sc);
  if (!mesh || cs_world_new(a, &sc.w) != CS_OK || cs_world_add(sc.w, mesh, &b) != CS_OK ||
      cs_mover_new(a, &sc.m) != CS_OK) {
    check(0, "terrain edits: setup", "");
    return;
  }
  edit_mesh = mesh;
  cs_mover_set_position(sc.m, &at);
  step(0);
  base = frame_cost(no_change, 200);
  with = frame_cost(edit_one, 200);
  snprintf(detail, sizeof detail, "%.3g us a frame with one vertex edited, %.3g us without",
           with * 1e6, base * 1e6);
  check(with <= 20 * base + 20e-6, "one vertex of a large terrain edited a frame", detail);
  /* edits that shrink and grow the bounds, and make triangles degenerate */
  p.x = -(double)TN / 2; p.y = 0; p.z = -(double)TN / 2;
  cs_mesh_set_vertex(mesh, 0, &p);                   /* back to a flat corner */
  for (k = 0; k < 3; k++) {
    cs_Vec3 q;
    cs_mesh_vertex(mesh, (size_t)(TN + 2) * (size_t)(k + 5), &q);
    q.y += 50.0 * (k + 1);
    cs_mesh_set_vertex(mesh, (size_t)(TN + 2) * (size_t)(k + 5), &q);
  }
  cs_mesh_vertex(mesh, 1, &p);                        /* vertex 0 onto vertex 1 */
  cs_mesh_set_vertex(mesh, 0, &p);
  cs_mesh_bounds(mesh, &lo, &hi);
  memset(&d, 0, sizeof d);
  d.vertices = mesh->verts; d.vertex_count = mesh->nverts; d.indices = tix;
  d.triangle_count = mesh->ntris;
  if (cs_mesh_new(a, &d, &fresh, NULL) != CS_OK) { check(0, "terrain edits: fresh mesh", ""); return; }
  cs_mesh_bounds(fresh, &flo, &fhi);
  snprintf(detail, sizeof detail, "bounds y %.17g..%.17g against %.17g..%.17g; %lu degenerate against %lu",
           lo.y, hi.y, flo.y, fhi.y, (unsigned long)cs_mesh_degenerate_count(mesh),
           (unsigned long)cs_mesh_degenerate_count(fresh));
  check(memcmp(&lo, &flo, sizeof lo) == 0 && memcmp(&hi, &fhi, sizeof hi) == 0 &&
        cs_mesh_degenerate_count(mesh) == cs_mesh_degenerate_count(fresh) &&
        cs_mesh_degenerate_count(mesh) > 0,
        "terrain edits: bounds and degenerate count as a mesh made anew", detail);
  cs_mesh_free(fresh);
  cs_mover_free(sc.m);
  cs_world_free(sc.w);
  cs_mesh_free(mesh);
}

/* A mover running over a floor of triangles of 2,000 tags, with friction
** set for 10,000 tags or for one: every gather looks up each triangle's
** friction (a linear search: 7 times the cost). The lookups give each tag
** its own coefficient. */
typedef struct RunOp { cs_World *w; cs_Mover *m; } RunOp;
static void friction_step(void *ud, int k) {
  RunOp *r = (RunOp *)ud;
  cs_Vec3 start = {-45, 0.5, 0}, walk = {0.9, 0, 0}, grav = {0, -0.01, 0};
  if (k == 0) cs_mover_set_position(r->m, &start);
  cs_world_collide_and_slide(r->w, r->m, &walk, &grav);
}
static double friction_run(cs_World *w, cs_Mover *m) {
  RunOp r;
  r.w = w;
  r.m = m;
  return best_cpu(friction_step, &r, 100);
}

static void friction_tags(cs_Alloc *a) {
  enum { N = 100, TAGS = 2000 };
  static double v[3 * (N + 1) * (N + 1)];
  static unsigned ix[6 * N * N];
  static int tags[2 * N * N];
  cs_MeshDesc d;
  cs_Mesh *mesh = NULL;
  cs_World *few = NULL, *many = NULL;
  cs_Body *b;
  cs_Mover *m = NULL;
  double tfew, tmany;
  char detail[160];
  int i, j, n = 0, wrong = 0;
  for (i = 0; i <= N; i++)
    for (j = 0; j <= N; j++) {
      double *p = v + 3 * (i * (N + 1) + j);
      p[0] = i - N / 2; p[1] = 0; p[2] = j - N / 2;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      unsigned q = (unsigned)(i * (N + 1) + j);
      ix[n++] = q; ix[n++] = q + N + 1; ix[n++] = q + 1;
      ix[n++] = q + 1; ix[n++] = q + N + 1; ix[n++] = q + N + 2;
    }
  for (i = 0; i < 2 * N * N; i++) tags[i] = (i * 7919) % TAGS;
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = (N + 1) * (N + 1); d.indices = ix; d.triangle_count = 2 * N * N;
  d.tags = tags;
  if (cs_mesh_new(a, &d, &mesh, NULL) != CS_OK || cs_world_new(a, &few) != CS_OK ||
      cs_world_new(a, &many) != CS_OK || cs_world_add(few, mesh, &b) != CS_OK ||
      cs_world_add(many, mesh, &b) != CS_OK || cs_mover_new(a, &m) != CS_OK) {
    check(0, "friction: setup", "");
    return;
  }
  cs_world_set_friction(few, 5, 0.5);
  for (i = 0; i < 10000; i++) cs_world_set_friction(many, (i * 4099) % 10000 - 5000, (i % 10) / 10.0);
  for (i = 0; i < 10000; i++)
    wrong += cs_world_get_friction(many, (i * 4099) % 10000 - 5000) != (i % 10) / 10.0;
  wrong += cs_world_get_friction(many, 5001) != 0 || cs_world_get_friction(few, 4) != 0;
  check(wrong == 0, "friction: 10,000 tags set in any order, each read back", "");
  tfew = friction_run(few, m);
  tmany = friction_run(many, m);
  snprintf(detail, sizeof detail, "%.3g us a call with 10,000 tags' friction, %.3g us with one",
           tmany * 1e6, tfew * 1e6);
  check(tmany <= 2.5 * tfew + 1e-6, "friction: 10,000 tags cost about what one does", detail);
  cs_mover_free(m);
  cs_world_free(few);
  cs_world_free(many);
  cs_mesh_free(mesh);
}

/* CPU seconds of one sweepEllipsoid of radius 0.25 from the origin along
** +x by len, the best of 5 rounds; *t its hit's t times len. */
typedef struct SweepOp { cs_World *w; cs_Vec3 d; } SweepOp;
static int sweep_once(SweepOp *s, cs_Hit *h) {
  cs_Vec3 p = {0, 0.1, 0.2}, r = {0.25, 0.25, 0.25};
  return cs_world_sweep_ellipsoid(s->w, &p, &r, NULL, &s->d, ~0u, h);
}
static void sweep_op(void *ud, int k) {
  cs_Hit h;
  (void)k;
  sweep_once((SweepOp *)ud, &h);
}
static double sweep_cost(cs_World *w, double len, double *t) {
  SweepOp s;
  cs_Hit h;
  double c;
  s.w = w;
  s.d = v3(len, 0, 0);
  c = best_cpu(sweep_op, &s, 50);
  *t = sweep_once(&s, &h) == 1 ? h.t * len : -1;
  return c;
}

/* A sweep 4,005 m long through 4,000 walls a metre apart, its hit at the
** first: it costs about what a 2 m sweep does (it gathered every wall
** first: 1.3 ms for 10,000), and finds the wall where the short one does. */
static void long_sweep(cs_Alloc *a) {
  enum { W = 4000 };
  static double v[12 * W];
  static unsigned ix[6 * W];
  cs_MeshDesc d;
  cs_Mesh *mesh = NULL;
  cs_World *w = NULL;
  cs_Body *b;
  double tshort, tlong, cshort, clong;
  char detail[160];
  int k;
  for (k = 0; k < W; k++) {
    double x = k + 1;
    double q[12] = {x, -10, -10, x, 10, -10, x, 10, 10, x, -10, 10};
    unsigned j, f[6] = {0, 1, 2, 0, 2, 3};
    memcpy(v + 12 * k, q, sizeof q);
    for (j = 0; j < 6; j++) ix[6 * k + (int)j] = (unsigned)(4 * k) + f[j];
  }
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = 4 * W; d.indices = ix; d.triangle_count = 2 * W;
  if (cs_mesh_new(a, &d, &mesh, NULL) != CS_OK || cs_world_new(a, &w) != CS_OK ||
      cs_world_add(w, mesh, &b) != CS_OK) {
    check(0, "long sweep: setup", "");
    return;
  }
  cshort = sweep_cost(w, 2, &tshort);
  clong = sweep_cost(w, W + 5, &tlong);
  snprintf(detail, sizeof detail, "%.3g us for 4,005 m (hit at %.17g), %.3g us for 2 m (hit at %.17g)",
           clong * 1e6, tlong, cshort * 1e6, tshort);
  check(fabs(tlong - 0.75) < 1e-9 && fabs(tshort - 0.75) < 1e-9 && clong <= 6 * cshort + 2e-6,
        "a long sweep whose hit is near costs about a short one", detail);
  cs_world_free(w);
  cs_mesh_free(mesh);
}

/* CPU seconds of one closestPoint from p (no limit), the best of 5 rounds;
** *d its distance. */
static void closest_op(void *ud, int k) {
  cs_Hit h;
  (void)k;
  cs_world_closest_point(sc.w, (const cs_Vec3 *)ud, HUGE_VAL, ~0u, &h);
}
static double closest_cost(cs_Vec3 p, double *d) {
  cs_Hit h;
  double c = best_cpu(closest_op, &p, 200);
  *d = cs_world_closest_point(sc.w, &p, HUGE_VAL, ~0u, &h) == 1 ? h.t : -1;
  return c;
}

/* closestPoint 5 km above a field of 20,000 bodies costs about what it
** costs 2 m above one (it visited every body in boxes growing to 5 km:
** 5.5 ms over 100,000), and finds the distance. */
static void closest_far(cs_Alloc *a) {
  cs_Vec3 near = {1100.5, 3, 100.5}, far = {1100.5, 5001, 100.5};
  double dnear, dfar, cnear, cfar;
  char detail[160];
  scene_make(a, 0);
  step(0);
  cnear = closest_cost(near, &dnear);
  cfar = closest_cost(far, &dfar);
  snprintf(detail, sizeof detail, "%.3g us 5 km above (distance %.17g), %.3g us 2 m above (%.17g)",
           cfar * 1e6, dfar, cnear * 1e6, dnear);
  check(dnear == 2 && dfar == 5000 && cfar <= 10 * cnear + 2e-6,
        "closestPoint far above many bodies costs about what it does near them", detail);
  scene_free();
}

int main(void) {
  cs_Alloc a = cs_default_alloc();
  disabled_skipped(&a);
  distinct_meshes(&a);
  one_body_changes(&a);
  query_stops_early(&a);
  terrain_edits(&a);
  friction_tags(&a);
  long_sweep(&a);
  closest_far(&a);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
