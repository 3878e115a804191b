/*
** test_batch.c: many movers in one call (issue 15). The batch must give
** the bits of a loop over the list for every thread count, with and without
** movers that are solid to each other; every argument is checked before any
** mover moves; a failure names the mover and leaves each mover moved or as
** it was; filters run on the calling thread, in list order.
**
** Scenes: a floor of 2 x 2 m tiles, random boxes on it (walls, steps,
** ceilings), a platform body that moves, and a crowd of spheres and turned
** ellipsoids, part of them added to the world (solid to each other), with
** random step heights and snapping. Two copies of the scene are built from
** the same seed: one moved by a loop of cs_world_collide_and_slide, one by
** the batch; after every frame each mover's position, ground state and
** contact count must be the same, bit for bit.
**
** test_batch [movers [frames [seeds]]] (default 160, 40, 6); with "tsan"
** as the first argument it runs the threads' stress of make test-tsan:
** batches on 4 threads, and the job-system contract (threads of our own
** calling cs_world_collide_and_slide_in on one prepared world).
** Prints "N passed, M failed".
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"
#include "scenes.h"
#include "threads.h"

static int passed, failed;
static cs_Alloc A;

static void check(int ok, const char *name, const char *detail) {
  if (ok) passed++;
  else { failed++; printf("FAIL %s: %s\n", name, detail); }
}

static cs_Vec3 V(double x, double y, double z) { cs_Vec3 v; v.x = x; v.y = y; v.z = z; return v; }

/* xorshift64*: the same stream on every platform */
static double urand(uint64_t *s) {
  *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
  return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}
static double rr(uint64_t *s, double a, double b) { return a + (b - a) * urand(s); }

/* {==================================================================
** A scene, built twice from one seed
** ===================================================================*/

#define MAXM 2048

typedef struct Scene {
  cs_World *w;
  cs_Mesh *meshes[64];
  int nmeshes;
  cs_Body *platform;
  cs_Mover *m[MAXM];
  int n;
} Scene;

static void add_mesh(Scene *sc, cs_Mesh *mesh, cs_Body **out) {
  cs_Body *b = NULL;
  if (!mesh) return;
  sc->meshes[sc->nmeshes++] = mesh;
  cs_world_add(sc->w, mesh, &b);
  if (out) *out = b;
}

/* half: the yard's half width; solid: the share of movers added */
static void scene_build(Scene *sc, uint64_t seed, int n, double half, double solid) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  int i, nb = 10 + (int)(urand(&s) * 20);
  memset(sc, 0, sizeof *sc);
  cs_world_new(&A, &sc->w);
  add_mesh(sc, scene_box(&A, V(-half - 1, -1, -half - 1), V(half + 1, 0, half + 1)), NULL);
  for (i = 0; i < nb && sc->nmeshes < 60; i++) {
    double x = rr(&s, -half, half), z = rr(&s, -half, half), h = rr(&s, 0.1, 2.5);
    double wx = rr(&s, 0.2, 3), wz = rr(&s, 0.2, 3), y0 = urand(&s) < 0.2 ? rr(&s, 1.5, 3) : 0;
    add_mesh(sc, scene_box(&A, V(x, y0, z), V(x + wx, y0 + h, z + wz)), NULL);
  }
  add_mesh(sc, scene_box(&A, V(-2, 0, -2), V(2, 0.3, 2)), &sc->platform);
  sc->n = n;
  for (i = 0; i < n; i++) {
    cs_Mover *m = NULL;
    double r = rr(&s, 0.2, 0.6);
    cs_Vec3 p = V(rr(&s, -half, half), rr(&s, 0.5, 4), rr(&s, -half, half));
    cs_mover_new(&A, &m);
    if (urand(&s) < 0.3) {
      double q[4], l;
      int k;
      for (k = 0; k < 4; k++) q[k] = rr(&s, -1, 1);
      l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
      for (k = 0; k < 4; k++) q[k] /= l;
      cs_mover_set_radius(m, (cs_Vec3[1]){V(r, r * rr(&s, 1, 2.5), r * rr(&s, 0.6, 1))});
      cs_mover_set_orientation(m, q);
    } else cs_mover_set_radius(m, (cs_Vec3[1]){V(r, r, r)});
    cs_mover_set_position(m, &p);
    if (urand(&s) < 0.5) cs_mover_set(m, CS_STEP_HEIGHT, rr(&s, 0, 0.4));
    if (urand(&s) < 0.5) cs_mover_set(m, CS_SNAP_DISTANCE, rr(&s, 0, 0.3));
    if (urand(&s) < solid) cs_world_add_mover(sc->w, m);
    sc->m[i] = m;
  }
}

static void scene_free(Scene *sc) {
  int i;
  for (i = 0; i < sc->n; i++) cs_mover_free(sc->m[i]);
  cs_world_free(sc->w);
  for (i = 0; i < sc->nmeshes; i++) cs_mesh_free(sc->meshes[i]);
}

/* Frame f's moves (walk, gravity), the same for both copies. */
static void frame_moves(uint64_t seed, int f, int n, double *mv) {
  uint64_t s = seed * 31 + (uint64_t)f * 0x632BE59BD9B4E019ull + 7;
  int i;
  for (i = 0; i < n; i++) {
    double speed = urand(&s) < 0.1 ? rr(&s, 0.5, 2) : rr(&s, 0, 0.2);
    double a = rr(&s, 0, 6.283185307179586);
    mv[6 * i] = speed * cos(a);
    mv[6 * i + 1] = urand(&s) < 0.05 ? rr(&s, 0, 0.5) : 0;
    mv[6 * i + 2] = speed * sin(a);
    mv[6 * i + 3] = 0;
    mv[6 * i + 4] = -rr(&s, 0.05, 0.3);
    mv[6 * i + 5] = 0;
  }
}

static void move_platform(Scene *sc, int f) {
  cs_Vec3 t = V(3 * sin(f * 0.1), 0.5 + 0.4 * sin(f * 0.07), 0);
  cs_Vec3 one = V(1, 1, 1);
  double q[4];
  q[0] = 0; q[1] = sin(f * 0.02); q[2] = 0; q[3] = cos(f * 0.02);
  cs_body_set_transform(sc->platform, &t, q, &one);
}

/* Same bits: position, ground state, contact count. */
static int same_mover(const cs_Mover *a, const cs_Mover *b) {
  cs_Vec3 pa, pb;
  cs_mover_get_position(a, &pa);
  cs_mover_get_position(b, &pb);
  return memcmp(&pa, &pb, sizeof pa) == 0 && cs_mover_ground_state(a) == cs_mover_ground_state(b) &&
         cs_mover_contact_count(a) == cs_mover_contact_count(b);
}

/* }================================================================== */

/* {==================================================================
** The batch equals the loop
** ===================================================================*/

static void batch_equals_loop(uint64_t seed, int n, int frames, int threads, double solid,
                              double half) {
  Scene L, B;
  double *mv = (double *)malloc(6 * sizeof(double) * (size_t)n);
  double *out = (double *)malloc(3 * sizeof(double) * (size_t)n);
  int f, i, bad = -1, badframe = -1;
  char name[96], detail[160];
  scene_build(&L, seed, n, half, solid);
  scene_build(&B, seed, n, half, solid);
  cs_world_set_threads(B.w, threads);
  for (f = 0; f < frames && bad < 0; f++) {
    size_t failed_at = 0;
    cs_Status s;
    frame_moves(seed, f, n, mv);
    move_platform(&L, f);
    move_platform(&B, f);
    for (i = 0; i < n; i++)
      cs_world_collide_and_slide(L.w, L.m[i], (cs_Vec3 *)&mv[6 * i], (cs_Vec3 *)&mv[6 * i + 3]);
    s = cs_world_collide_and_slide_many(B.w, B.m, (size_t)n, mv, 6, out, NULL, &failed_at);
    if (s != CS_OK) { bad = (int)failed_at; badframe = f; break; }
    for (i = 0; i < n && bad < 0; i++) {
      cs_Vec3 p;
      cs_mover_get_position(B.m[i], &p);
      if (!same_mover(L.m[i], B.m[i]) || memcmp(&p, &out[3 * i], sizeof p) != 0) {
        bad = i;
        badframe = f;
      }
    }
  }
  sprintf(name, "batch = loop (seed %lu, %d movers, %d threads, %.0f%% solid)",
          (unsigned long)seed, n, threads, 100 * solid);
  sprintf(detail, "mover %d differs after frame %d", bad + 1, badframe);
  check(bad < 0, name, detail);
  scene_free(&L);
  scene_free(&B);
  free(mv);
  free(out);
}

/* }================================================================== */

/* {==================================================================
** Checks before any move, failures during the batch, filters
** ===================================================================*/

/* cs_batch_summary: the words of a batch stopped once it had begun. */
static void summaries(void) {
  static const struct { const char *moved; size_t failed, size; const char *want; } cases[] = {
    {"0", 0, 256, "no mover moved, mover 1 did not"},
    {"10", 1, 256, "mover 1 moved, mover 2 did not"},
    {"11001", 2, 256, "movers 1-2 and 5 moved, mover 3 and 1 other did not"},
    {"1010110", 1, 256, "movers 1, 3 and 2 others moved, mover 2 and 2 others did not"},
    {"1110111000", 3, 256, "movers 1-3 and 5-7 moved, mover 4 and 3 others did not"},
    {"11001", 2, 11, "movers 1-2"},               /* cut at the buffer's end */
  };
  unsigned char moved[16];
  char buf[256];
  size_t i, k, n;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    n = strlen(cases[i].moved);
    for (k = 0; k < n; k++) moved[k] = (unsigned char)(cases[i].moved[k] == '1');
    memset(buf, 'x', sizeof buf);
    check(strcmp(cs_batch_summary(buf, cases[i].size, moved, n, cases[i].failed), cases[i].want) == 0,
          "cs_batch_summary", buf);
  }
}

static void bad_arguments(void) {
  Scene sc;
  double mv[6 * 800];
  unsigned char moved[800];
  cs_Vec3 before[800], p;
  cs_Mover *list[800];
  size_t failed_at = 0;
  int i, same = 1;
  cs_Status s;
  scene_build(&sc, 77, 800, 20, 0.5);
  cs_world_set_threads(sc.w, 2);
  frame_moves(77, 0, 800, mv);
  for (i = 0; i < 800; i++) { cs_mover_get_position(sc.m[i], &before[i]); list[i] = sc.m[i]; }
  mv[6 * 699 + 2] = NAN;
  s = cs_world_collide_and_slide_many(sc.w, list, 800, mv, 6, NULL, moved, &failed_at);
  for (i = 0; i < 800; i++) { cs_mover_get_position(sc.m[i], &p); same &= memcmp(&p, &before[i], sizeof p) == 0; }
  check(s == CS_EINVAL && failed_at == 699 && same, "a NaN in the 700th move: nothing moves",
        cs_world_error(sc.w)->message);
  check(strstr(cs_world_error(sc.w)->message, "mover 700") != NULL, "the message names mover 700",
        cs_world_error(sc.w)->message);
  mv[6 * 699 + 2] = 0;
  mv[6 * 5 + 4] = 1e300;
  s = cs_world_collide_and_slide_many(sc.w, list, 800, mv, 6, NULL, moved, &failed_at);
  check(s == CS_ERANGE && failed_at == 5, "a gravity out of range in mover 6", cs_world_error(sc.w)->message);
  mv[6 * 5 + 4] = -0.1;
  list[10] = list[3];
  s = cs_world_collide_and_slide_many(sc.w, list, 800, mv, 6, NULL, moved, &failed_at);
  check(s == CS_EINVAL && failed_at == 10 && strstr(cs_world_error(sc.w)->message, "mover 4"),
        "a mover listed twice", cs_world_error(sc.w)->message);
  list[10] = NULL;
  s = cs_world_collide_and_slide_many(sc.w, list, 800, mv, 6, NULL, moved, &failed_at);
  check(s == CS_EINVAL && failed_at == 10, "a NULL mover", cs_world_error(sc.w)->message);
  list[10] = sc.m[10];
  s = cs_world_collide_and_slide_many(sc.w, list, 800, mv, 5, NULL, moved, &failed_at);
  check(s == CS_EINVAL, "a stride of 5", cs_world_error(sc.w)->message);
  for (i = 0; i < 800; i++) { cs_mover_get_position(sc.m[i], &p); same &= memcmp(&p, &before[i], sizeof p) == 0; }
  check(same, "no mover moved after the refused batches", "");
  check(cs_world_set_threads(sc.w, 0) == CS_EINVAL && cs_world_set_threads(sc.w, CS_MAX_THREADS + 1) == CS_EINVAL &&
        cs_world_get_threads(sc.w) == 2, "threads out of range are refused", cs_world_error(sc.w)->message);
  scene_free(&sc);
}

/* A filter that records the thread and the order it runs in, and aborts
** on the mover listed at abort_at. */
typedef struct FilterLog {
  tt_Id caller;
  int wrong_thread, calls, last_index, out_of_order, abort_at;
  int index[MAXM];    /* per mover: its index in the list */
  int called[MAXM];   /* per mover: how often its filter ran */
  cs_Mover **list;
} FilterLog;
static FilterLog LOG;

static int log_filter(void *ud, const cs_Body *body, int tag) {
  int i = *(int *)ud;
  (void)body; (void)tag;
  if (!tt_same(tt_self(), LOG.caller)) LOG.wrong_thread++;
  if (i < LOG.last_index) LOG.out_of_order++;
  LOG.last_index = i;
  LOG.calls++;
  LOG.called[i]++;
  return i == LOG.abort_at ? -1 : CS_RESPONSE_SLIDE;
}

static void filters_and_failures(int threads) {
  Scene sc;
  double mv[6 * 300];
  unsigned char moved[300];
  cs_Vec3 before[300], p;
  size_t failed_at = 0;
  int i, ok, nf = 0;
  cs_Status s;
  char name[160], detail[200], expect[32];
  int at;
  scene_build(&sc, 99, 300, 15, 0.5);
  cs_world_set_threads(sc.w, threads);
  memset(&LOG, 0, sizeof LOG);
  LOG.caller = tt_self();
  LOG.abort_at = -1;
  for (i = 0; i < 300; i++) {
    LOG.index[i] = i;
    if (i % 7 == 0) { cs_mover_set_filter(sc.m[i], log_filter, &LOG.index[i]); nf++; }
  }
  frame_moves(99, 0, 300, mv);
  LOG.last_index = -1;
  s = cs_world_collide_and_slide_many(sc.w, sc.m, 300, mv, 6, NULL, moved, &failed_at);
  sprintf(name, "filters on the calling thread, in list order (%d threads)", threads);
  check(s == CS_OK && LOG.calls > 0 && LOG.wrong_thread == 0 && LOG.out_of_order == 0, name, "");
  /* abort at the first filtered mover from index 100 on whose filter ran
  ** (it meets something): every mover before it moved, it did not, the
  ** rest moved or not, as moved says */
  for (at = 100; at < 300 && !(at % 7 == 0 && LOG.called[at] > 0); at++) {}
  for (i = 0; i < 300; i++) cs_mover_get_position(sc.m[i], &before[i]);
  LOG.abort_at = at;
  LOG.last_index = -1;
  s = cs_world_collide_and_slide_many(sc.w, sc.m, 300, mv, 6, NULL, moved, &failed_at);
  ok = at < 300 && s == CS_EABORT && failed_at == (size_t)at && moved[at] == 0;
  for (i = 0; i < at; i++) ok &= moved[i] == 1;
  for (i = 0; i < 300; i++) {
    cs_mover_get_position(sc.m[i], &p);
    if (!moved[i]) ok &= memcmp(&p, &before[i], sizeof p) == 0;
  }
  sprintf(name, "a filter's abort: the movers before it moved, the rest moved or untouched (%d threads)", threads);
  sprintf(detail, "status %d, failed at %lu, moved[140] %d: %s", (int)s, (unsigned long)failed_at,
          moved[140], cs_world_error(sc.w)->message);
  check(ok, name, detail);
  sprintf(expect, "mover %d:", at + 1);
  check(strstr(cs_world_error(sc.w)->message, expect) != NULL, "the abort's message names the mover",
        cs_world_error(sc.w)->message);
  (void)nf;
  scene_free(&sc);
}

/* A filter that tries to edit the world and another listed mover while
** the batch runs: every edit is refused, on any thread count, and works
** again after the call. */
typedef struct EditTry { Scene *sc; cs_World *other; int tried, refused; } EditTry;

static int edit_filter(void *ud, const cs_Body *body, int tag) {
  EditTry *e = (EditTry *)ud;
  cs_Vec3 t = V(0, 0.5, 0), one = V(1, 1, 1), p = V(0, 5, 0);
  double q[4] = {0, 0, 0, 1};
  (void)body; (void)tag;
  e->tried += 8;
  /* layers, enabled, and another world's calls on a listed mover (found by
  ** independent testers: let through, read by the batch's threads) */
  e->refused += cs_body_set_layers(e->sc->platform, 1) == CS_EBUSY;
  e->refused += cs_body_set_enabled(e->sc->platform, 1) == CS_EBUSY;
  e->refused += cs_world_add_mover(e->other, e->sc->m[e->sc->n - 1]) == CS_EBUSY;
  e->refused += cs_world_collide_and_slide(e->other, e->sc->m[e->sc->n - 1], &t, NULL) == CS_EBUSY;
  e->refused += cs_body_set_transform(e->sc->platform, &t, q, &one) == CS_EBUSY;
  e->refused += cs_body_set_velocity(e->sc->platform, &t) == CS_EBUSY;
  e->refused += cs_world_set_friction(e->sc->w, 3, 0.5) == CS_EBUSY;
  e->refused += cs_mover_set_position(e->sc->m[e->sc->n - 1], &p) == CS_EBUSY;
  return CS_RESPONSE_SLIDE;
}

static void edits_refused(int threads) {
  Scene sc;
  EditTry e;
  double mv[6 * 100];
  cs_Vec3 t = V(0, 0.5, 0), one = V(1, 1, 1), p = V(0, 5, 0);
  double q[4] = {0, 0, 0, 1};
  char name[96];
  int i;
  scene_build(&sc, 12, 100, 6, 0.5);
  cs_world_set_threads(sc.w, threads);
  e.sc = &sc; e.tried = e.refused = 0;
  cs_world_new(&A, &e.other);
  for (i = 0; i < 100; i += 10) cs_mover_set_filter(sc.m[i], edit_filter, &e);
  frame_moves(12, 0, 100, mv);
  cs_world_collide_and_slide_many(sc.w, sc.m, 100, mv, 6, NULL, NULL, NULL);
  check(cs_mover_added_to(sc.m[99]) == NULL || cs_mover_added_to(sc.m[99]) == sc.w,
        "a listed mover was not added to another world from a filter", "");
  sprintf(name, "edits from a filter during a batch are refused (%d threads)", threads);
  check(e.tried > 0 && e.refused == e.tried, name, "");
  check(cs_body_set_transform(sc.platform, &t, q, &one) == CS_OK &&
        cs_mover_set_position(sc.m[99], &p) == CS_OK && cs_world_set_friction(sc.w, 3, 0.5) == CS_OK,
        "and accepted after it", "");
  cs_world_free(e.other);
  scene_free(&sc);
}

/* }================================================================== */

/* {==================================================================
** The threads' stress (make test-tsan)
** ===================================================================*/

typedef struct Job {
  cs_World *w;
  cs_Mover **m;
  int first, count;
  int query;              /* 1: queries instead of moves */
  cs_Mover *probe;        /* the query thread's own mover (for sweeps) */
  cs_CallScratch *sc;
  int failures;
  long hits;
} Job;

/* A mover thread moves its share of movers; a query thread casts rays down
** at them, sweeps its own probe mover and overlaps the added movers. */
static void job_main(void *arg) {
  Job *j = (Job *)arg;
  int i, round;
  for (round = 0; round < (j->query ? 4 : 1); round++)
    for (i = j->first; i < j->first + j->count; i++) {
      if (!j->query) {
        cs_Vec3 walk = V(0.05 * (i % 5), 0, 0.03), g = V(0, -0.1, 0);
        if (cs_world_collide_and_slide_in(j->w, j->sc, j->m[i], &walk, &g) != CS_OK) j->failures++;
      } else {
        cs_Vec3 o = V(-20 + (i % 40), 6, -20 + (i / 40) * 2.0), d = V(0, -10, 0), r = V(0.5, 0.5, 0.5);
        cs_Hit h;
        long k;
        int found = cs_world_raycast(j->w, &o, &d, ~0u, &h);
        if (found < 0) j->failures++;
        j->hits += found > 0;
        cs_mover_set_position(j->probe, &o);
        found = cs_world_sweep_in(j->w, j->sc, j->probe, &d, &h);
        if (found < 0) j->failures++;
        j->hits += found > 0;
        o.y = 0.5;
        k = cs_world_overlap(j->w, &o, &r, NULL, ~0u, NULL, NULL, NULL, NULL);
        if (k < 0) j->failures++;
        j->hits += k;
      }
    }
}

/* Threads of our own on one prepared world, as an engine's job system
** would run them: two move disjoint halves of the movers (none added), two
** query the world (rays, sweeps, overlaps) meanwhile, with 20 added movers
** standing still for the queries to meet. The moved movers must end as a
** loop in a second world leaves them. */
static void job_system(void) {
  Scene sc, ref;
  tt_Thread th[4];
  Job jobs[4];
  cs_Mover *still[20];
  int t, i, same = 1, failures = 0;
  long hits = 0;
  scene_build(&sc, 5, 400, 20, 0);
  scene_build(&ref, 5, 400, 20, 0);
  for (i = 0; i < 20; i++) {
    cs_Vec3 p = V(-19 + 2 * i, 0.6, -19 + 2 * i);
    cs_mover_new(&A, &still[i]);
    cs_mover_set_position(still[i], &p);
    cs_world_add_mover(sc.w, still[i]);
  }
  check(cs_world_prepare(sc.w) == CS_OK, "prepare", cs_world_error(sc.w)->message);
  for (t = 0; t < 4; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].w = sc.w; jobs[t].m = sc.m;
    jobs[t].query = t >= 2;
    jobs[t].first = jobs[t].query ? 0 : 200 * t;
    jobs[t].count = jobs[t].query ? 400 : 200;
    if (jobs[t].query) cs_mover_new(&A, &jobs[t].probe);
    cs_call_scratch_new(sc.w, &jobs[t].sc);
    if (tt_start(&th[t], job_main, &jobs[t]) != 0) { printf("FAIL: no thread\n"); exit(1); }
  }
  for (t = 0; t < 4; t++) {
    tt_join(&th[t]);
    failures += jobs[t].failures;
    hits += jobs[t].hits;
    cs_call_scratch_free(sc.w, jobs[t].sc);
    cs_mover_free(jobs[t].probe);
  }
  for (i = 0; i < 20; i++) cs_world_remove_mover(sc.w, still[i]);
  for (i = 0; i < 400; i++) {
    cs_Vec3 walk = V(0.05 * (i % 5), 0, 0.03), g = V(0, -0.1, 0);
    cs_world_collide_and_slide(ref.w, ref.m[i], &walk, &g);
  }
  /* the still movers were in sc's world while the movers moved: compare
  ** with a loop that meets them too */
  scene_free(&ref);
  scene_build(&ref, 5, 400, 20, 0);
  for (i = 0; i < 20; i++) cs_world_add_mover(ref.w, still[i]);
  for (i = 0; i < 400; i++) {
    cs_Vec3 walk = V(0.05 * (i % 5), 0, 0.03), g = V(0, -0.1, 0);
    cs_world_collide_and_slide(ref.w, ref.m[i], &walk, &g);
    same &= same_mover(sc.m[i], ref.m[i]);
  }
  check(failures == 0 && same && hits > 0,
        "2 threads moving and 2 querying one prepared world = the loop", "");
  cs_world_add_mover(sc.w, sc.m[0]);
  {
    cs_CallScratch *s1 = NULL;
    cs_Vec3 z = V(0, 0, 0);
    cs_call_scratch_new(sc.w, &s1);
    check(cs_world_collide_and_slide_in(sc.w, s1, sc.m[0], &z, NULL) == CS_EINVAL,
          "an added mover is refused by the job-system call", cs_call_scratch_error(s1)->message);
    cs_call_scratch_free(sc.w, s1);
  }
  for (i = 0; i < 20; i++) cs_mover_free(still[i]);
  scene_free(&sc);
  scene_free(&ref);
}

/* Found by an independent tester of the C API: a mesh edited after
** cs_world_prepare was not "changes pending" for the calls of the contract,
** which moved a mover through the raised floor; and a filter's call of the
** contract on its own thread's scratch reallocated what the outer call was
** filling (now CS_EBUSY). */
static cs_World *reentry_w;
static cs_CallScratch *reentry_sc;
static cs_Mover *reentry_probe;
static int reentry_got = 1;

static int sweep_in_filter(void *ud, const cs_Body *b, int tag) {
  cs_Hit h;
  cs_Vec3 d = V(0, -3, 0);
  (void)ud; (void)b; (void)tag;
  reentry_got = cs_world_sweep_in(reentry_w, reentry_sc, reentry_probe, &d, &h);
  return CS_RESPONSE_SLIDE;
}

static void contract_guards(void) {
  cs_Mesh *floor_mesh = scene_box(&A, V(-10, -1, -10), V(10, 0, 10));
  cs_World *w;
  cs_Body *b;
  cs_Mover *m;
  cs_CallScratch *sc;
  cs_Hit h;
  cs_Vec3 p = V(0, 5.5, 0), g = V(0, -0.5, 0), z = V(0, 0, 0), up, got;
  size_t k;
  cs_world_new(&A, &w);
  cs_world_add(w, floor_mesh, &b);
  cs_mover_new(&A, &m);
  cs_mover_set_position(m, &p);
  cs_call_scratch_new(w, &sc);
  check(cs_world_prepare(w) == CS_OK, "contract: prepare", "");
  for (k = 0; k < 8; k++) {                    /* the floor's top up to y = 5 */
    cs_mesh_vertex(floor_mesh, k, &up);
    up.y += 5;
    cs_mesh_set_vertex(floor_mesh, k, &up);
  }
  check(cs_world_collide_and_slide_in(w, sc, m, &z, &g) == CS_EINVAL &&
        cs_world_sweep_in(w, sc, m, &g, &h) == -(int)CS_EINVAL,
        "contract: a mesh edited after prepare is a change pending", cs_call_scratch_error(sc)->message);
  cs_world_prepare(w);
  for (k = 0; k < 4; k++) cs_world_collide_and_slide_in(w, sc, m, &z, &g);
  cs_mover_get_position(m, &got);
  check(got.y >= 5.5, "contract: prepared again, the mover stands on the raised floor", "");
  reentry_w = w;
  reentry_sc = sc;
  reentry_probe = m;
  {
    cs_Mover *outer;
    cs_Vec3 q = V(2, 5.6, 2), walk = V(0.1, 0, 0);
    cs_mover_new(&A, &outer);
    cs_mover_set_position(outer, &q);
    cs_mover_set_filter(outer, sweep_in_filter, NULL);
    check(cs_world_collide_and_slide_in(w, sc, outer, &walk, &g) == CS_OK && reentry_got == -(int)CS_EBUSY,
          "contract: a filter's call on the same scratch is CS_EBUSY", "");
    cs_mover_free(outer);
  }
  cs_call_scratch_free(w, sc);
  cs_world_free(w);
  cs_mover_free(m);
  cs_mesh_free(floor_mesh);
}

/* Found by an independent tester of the C API: a sensor's mesh edited
** after cs_world_prepare was not a change pending (the _in call went on
** with the sensor's old bounds and gave no events), and cs_world_sweep_in
** did not refuse a movers' grid that a radius grown 20-fold had made
** pending: it rebuilt the grid while other threads read it (TSan). */
static void contract_guards_sensor_grid(void) {
  cs_Mesh *floor_mesh = scene_box(&A, V(-50, -1, -50), V(50, 0, 50));
  cs_Mesh *zone = scene_box(&A, V(-1, 0, -1), V(1, 3, 1));
  cs_World *w;
  cs_Body *b;
  cs_Sensor *sn;
  cs_Mover *m, *added[40];
  cs_CallScratch *sc;
  cs_Hit h;
  cs_Vec3 p = V(0, 0.6, 5), walk = V(0, 0, -10), g = V(0, -0.1, 0), v, big = V(10, 10, 10);
  size_t k;
  cs_world_new(&A, &w);
  cs_world_add(w, floor_mesh, &b);
  check(cs_world_add_sensor(w, zone, &sn, NULL, NULL) == CS_OK, "contract: the zone is a sensor", "");
  cs_mover_new(&A, &m);
  cs_mover_set_position(m, &p);
  cs_call_scratch_new(w, &sc);
  check(cs_world_prepare(w) == CS_OK, "contract: prepare (sensor)", "");
  for (k = 0; k < 8; k++) {                    /* the zone moved 20 along z */
    cs_mesh_vertex(zone, k, &v);
    v.z += 20;
    cs_mesh_set_vertex(zone, k, &v);
  }
  check(cs_world_collide_and_slide_in(w, sc, m, &walk, &g) == CS_EINVAL &&
        cs_world_sweep_in(w, sc, m, &walk, &h) == -(int)CS_EINVAL,
        "contract: a sensor's mesh edited after prepare is a change pending",
        cs_call_scratch_error(sc)->message);
  check(cs_world_prepare(w) == CS_OK, "contract: prepared again (sensor)", "");
  p = V(0, 0.6, 25);
  cs_mover_set_position(m, &p);
  check(cs_world_collide_and_slide_in(w, sc, m, &walk, &g) == CS_OK && cs_mover_sensor_event_count(m) == 2,
        "contract: prepared again, the moved zone's two events", "");
  /* a zone no mover tracks (layers 0), edited: prepare refreshes it too (it
  ** kept the world pending for good, prepare saying CS_ENOMEM: the next tester) */
  cs_sensor_set_layers(sn, 0);
  cs_mesh_vertex(zone, 0, &v);
  v.x -= 0.5;
  cs_mesh_set_vertex(zone, 0, &v);
  check(cs_world_prepare(w) == CS_OK && cs_world_collide_and_slide_in(w, sc, m, &walk, &g) == CS_OK,
        "contract: a layers-0 sensor's edit is refitted by prepare", cs_call_scratch_error(sc)->message);
  for (k = 0; k < 40; k++) {
    cs_Vec3 q = V(-40 + 2.0 * (double)k, 0.6, -40);
    cs_mover_new(&A, &added[k]);
    cs_mover_set_position(added[k], &q);
    cs_world_add_mover(w, added[k]);
  }
  check(cs_world_prepare(w) == CS_OK, "contract: prepare (movers)", "");
  cs_mover_set_radius(added[0], &big);         /* the grid's cells now too fine */
  check(cs_world_sweep_in(w, sc, m, &walk, &h) == -(int)CS_EINVAL,
        "contract: sweep_in refuses a movers' grid pending", cs_call_scratch_error(sc)->message);
  check(cs_world_prepare(w) == CS_OK && cs_world_sweep_in(w, sc, m, &walk, &h) >= 0,
        "contract: sweep_in once prepared again", cs_call_scratch_error(sc)->message);
  for (k = 0; k < 40; k++) cs_mover_free(added[k]);
  cs_call_scratch_free(w, sc);
  cs_world_free(w);
  cs_mover_free(m);
  cs_mesh_free(zone);
  cs_mesh_free(floor_mesh);
}

/* cs_world_prepare when its refit cannot allocate: CS_ENOMEM (the world is
** not prepared, which the job system must know), then CS_OK once memory
** comes back; a prepared world's first query allocates nothing. */
static int deny;                            /* the gate: allocations fail */
static cs_Alloc real;
static void *gated(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  if (deny && nsize > osize) return NULL;
  return real.fn(real.ud, ptr, osize, nsize);
}

static void prepare_out_of_memory(void) {
  Scene sc;
  cs_Hit h;
  cs_Vec3 o = V(0, 5, 0), d = V(0, -10, 0);
  real = A;
  A.fn = gated;
  scene_build(&sc, 9, 200, 20, 1.0);        /* 200 added movers: the grid is wanted */
  deny = 1;
  check(cs_world_prepare(sc.w) == CS_ENOMEM, "prepare says when it could not refit",
        cs_world_error(sc.w)->message);
  deny = 0;
  check(cs_world_prepare(sc.w) == CS_OK, "prepare succeeds once memory is back", "");
  deny = 1;
  check(cs_world_raycast(sc.w, &o, &d, ~0u, &h) >= 0, "a prepared world's query needs no memory", "");
  deny = 0;
  scene_free(&sc);
  A = real;
}

/* }================================================================== */

int main(int argc, char **argv) {
  int n = 160, frames = 40, seeds = 6, s, k;
  static const int threads[] = {1, 2, 3, 8};
  A = cs_default_alloc();
  if (argc > 1 && strcmp(argv[1], "tsan") == 0) {
    for (s = 1; s <= 2; s++) {
      batch_equals_loop((uint64_t)s, 300, 15, 4, 0.0, 25);
      batch_equals_loop((uint64_t)s, 300, 15, 4, 0.6, 12);
    }
    filters_and_failures(4);
    edits_refused(4);
    job_system();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
  }
  if (argc > 1) n = atoi(argv[1]);
  if (argc > 2) frames = atoi(argv[2]);
  if (argc > 3) seeds = atoi(argv[3]);
  if (n < 1 || n > MAXM) n = 160;
  for (s = 1; s <= seeds; s++)
    for (k = 0; k < 4; k++) {
      batch_equals_loop((uint64_t)s, n, frames, threads[k], 0.0, 20);      /* none added */
      batch_equals_loop((uint64_t)s, n, frames, threads[k], 0.7, 8);       /* a dense solid crowd */
      batch_equals_loop((uint64_t)s + 100, n, frames, threads[k], 0.3, 14);
    }
  summaries();
  bad_arguments();
  filters_and_failures(1);
  filters_and_failures(2);
  filters_and_failures(3);
  edits_refused(1);
  edits_refused(3);
  job_system();
  contract_guards();
  contract_guards_sensor_grid();
  prepare_out_of_memory();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
