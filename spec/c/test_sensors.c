/*
** test_sensors.c: sensor volumes (issue 16): closedness, the inside test
** against boxes (placed in every way), and the crossings a mover's centre
** makes along the path of its call, checked against inside-ness sampled
** densely along the same path (an independent check: it uses only
** cs_sensor_contains at points). Prints "N passed, M failed" last.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"
#include "by_value.h"
#include "scenes.h"

static int passed, failed;

static void check(int ok, const char *name, const char *detail) {
  if (ok) passed++;
  else { failed++; printf("FAIL %s: %s\n", name, detail); }
}

static cs_Alloc A;

/* The box [lo, hi] (scenes.h). */
static cs_Mesh *box(cs_Vec3 lo, cs_Vec3 hi) { return scene_box(&A, lo, hi); }

static cs_Vec3 V(double x, double y, double z) { cs_Vec3 v; v.x = x; v.y = y; v.z = z; return v; }

/* {==================================================================
** Closedness and the inside test
** ===================================================================*/

static void closed_meshes(void) {
  cs_World *w = NULL;
  cs_Sensor *s = NULL;
  cs_Mesh *b = box(V(0, 0, 0), V(1, 1, 1)), *open = NULL, *flipped = NULL;
  double quad[12] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
  unsigned qi[6] = {0, 1, 2, 0, 2, 3}, bad[2] = {9, 9};
  unsigned fi[36];
  double bv[24];
  cs_MeshDesc d;
  int uses = -1, i;
  cs_world_new(&A, &w);
  check(cs_world_add_sensor(w, b, &s, bad, &uses) == CS_OK && s != NULL, "closed box",
        "refused");
  memset(&d, 0, sizeof d);
  d.vertices = quad; d.vertex_count = 4; d.indices = qi; d.triangle_count = 2;
  cs_mesh_new(&A, &d, &open, NULL);
  check(cs_world_add_sensor(w, open, &s, bad, &uses) == CS_EINVAL && s == NULL, "open quad",
        "accepted");
  check(uses == 1 && bad[0] != bad[1], "open quad", "the open edge not named");
  /* the box with one triangle flipped: closed but not consistently wound */
  for (i = 0; i < 8; i++) {
    cs_Vec3 p = csv_mesh_vertex(b, (size_t)i);
    bv[3 * i] = p.x; bv[3 * i + 1] = p.y; bv[3 * i + 2] = p.z;
  }
  for (i = 0; i < 12; i++) cs_mesh_triangle(b, (size_t)i, fi + 3 * i);
  { unsigned t = fi[1]; fi[1] = fi[2]; fi[2] = t; }
  d.vertices = bv; d.vertex_count = 8; d.indices = fi; d.triangle_count = 12;
  cs_mesh_new(&A, &d, &flipped, NULL);
  check(cs_world_add_sensor(w, flipped, &s, bad, &uses) == CS_EINVAL, "flipped triangle",
        "accepted");
  check(cs_world_sensor_count(w) == 1, "closed meshes", "a refused sensor was added");
  cs_world_free(w);
  cs_mesh_free(b);
  cs_mesh_free(open);
  cs_mesh_free(flipped);
}

/* A unit box placed by translation, rotation, scale and a mirror: inside
** exactly when the point, mapped back, is inside [0, 1]^3. */
static void inside_test(void) {
  cs_World *w = NULL;
  cs_Sensor *s = NULL;
  cs_Mesh *b = box(V(0, 0, 0), V(1, 1, 1));
  double q[4] = {0.2, 0.3, 0.1, 0.9}, l = sqrt(0.04 + 0.09 + 0.01 + 0.81), m[16];
  int i, bad = 0, k;
  unsigned seed = 12345;
  cs_world_new(&A, &w);
  cs_world_add_sensor(w, b, &s, NULL, NULL);
  for (k = 0; k < 3; k++) {
    if (k == 0) cs_sensor_set_transform(s, (cs_Vec3[1]){V(2, 3, 4)}, (double[4]){0, 0, 0, 1}, (cs_Vec3[1]){V(1, 1, 1)});
    if (k == 1) cs_sensor_set_transform(s, (cs_Vec3[1]){V(-1, 0.5, 2)}, q, (cs_Vec3[1]){V(2, 0.5, 3)});
    if (k == 2) cs_sensor_set_transform(s, (cs_Vec3[1]){V(0, 0, 0)}, q, (cs_Vec3[1]){V(-1.5, 1, 1)});   /* mirrored */
    cs_sensor_get_matrix(s, m);
    for (i = 0; i < 20000; i++) {
      double u[3], p[3];
      int j, in;
      for (j = 0; j < 3; j++) {
        seed = seed * 1103515245u + 12345u;
        u[j] = -0.5 + 2.0 * (double)(seed >> 8) / (double)(1u << 24);
      }
      for (j = 0; j < 3; j++) p[j] = m[j] * u[0] + m[4 + j] * u[1] + m[8 + j] * u[2] + m[12 + j];
      in = u[0] > 1e-9 && u[0] < 1 - 1e-9 && u[1] > 1e-9 && u[1] < 1 - 1e-9 && u[2] > 1e-9 &&
           u[2] < 1 - 1e-9;
      if (fabs(u[0]) < 1e-6 || fabs(u[0] - 1) < 1e-6 || fabs(u[1]) < 1e-6 ||
          fabs(u[1] - 1) < 1e-6 || fabs(u[2]) < 1e-6 || fabs(u[2] - 1) < 1e-6)
        continue;                             /* on the surface: either */
      if (cs_sensor_contains(s, (cs_Vec3[1]){V(p[0], p[1], p[2])}) != in) bad++;
    }
  }
  (void)l;
  check(bad == 0, "inside test", "a point on the wrong side of a placed box");
  cs_world_free(w);
  cs_mesh_free(b);
}

/* }================================================================== */

/* {==================================================================
** Crossings along a call's path
** ===================================================================*/

/* A slab 0.01 thick across x in [5, 5.01]: a mover moving 10 m in one call
** gets its enter at t = 0.5 and its exit at t = 0.501, in that order. */
static void fast_thin_crossing(void) {
  cs_World *w = NULL;
  cs_Sensor *s = NULL;
  cs_Mover *m = NULL;
  cs_Mesh *slab = box(V(5, -5, -5), V(5.01, 5, 5));
  const cs_SensorEvent *e0, *e1;
  cs_world_new(&A, &w);
  cs_world_add_sensor(w, slab, &s, NULL, NULL);
  cs_mover_new(&A, &m);
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(10, 0, 0)}, NULL);
  e0 = cs_mover_sensor_event(m, 0);
  e1 = cs_mover_sensor_event(m, 1);
  check(cs_mover_sensor_event_count(m) == 2 && e0->sensor == s && e0->enter &&
        fabs(e0->t - 0.5) < 1e-12 && e1->sensor == s && !e1->enter && fabs(e1->t - 0.501) < 1e-12,
        "10 m through 0.01 m", "missed or misplaced");
  check(!cs_mover_is_inside(m, s), "10 m through 0.01 m", "inside after leaving");
  /* back to x = 5.005, inside: an enter only, at t = (10 - 5.01) / 4.995 */
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(-4.995, 0, 0)}, NULL);
  e0 = cs_mover_sensor_event(m, 0);
  check(cs_mover_sensor_event_count(m) == 1 && e0->enter && fabs(e0->t - 4.99 / 4.995) < 1e-9,
        "stopping inside", "wrong events");
  check(cs_mover_is_inside(m, s), "stopping inside", "not inside");
  /* standing still inside: nothing new */
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(0, 0, 0)}, NULL);
  check(cs_mover_sensor_event_count(m) == 0 && cs_mover_is_inside(m, s), "standing inside",
        "an event without a crossing");
  /* layers that no longer meet: not inside at once, and the next call
  ** leaves the sensor at t = 0 (enters and exits pair up); then nothing */
  cs_sensor_set_layers(s, 2);
  cs_mover_set(m, CS_COLLIDES_WITH, 1);
  check(!cs_mover_is_inside(m, s), "layers", "inside a sensor it no longer tracks");
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(1, 0, 0)}, NULL);
  e0 = cs_mover_sensor_event(m, 0);
  check(cs_mover_sensor_event_count(m) == 1 && e0->sensor == s && !e0->enter && e0->t == 0 &&
        !cs_mover_is_inside(m, s), "layers", "no exit at t = 0");
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(1, 0, 0)}, NULL);
  check(cs_mover_sensor_event_count(m) == 0 && !cs_mover_is_inside(m, s), "layers", "tracked");
  cs_world_free(w);
  cs_mover_free(m);
  cs_mesh_free(slab);
}

/* A new mover placed inside a sensor: its first call gives an enter at 0. */
static void start_inside(void) {
  cs_World *w = NULL;
  cs_Sensor *s = NULL;
  cs_Mover *m = NULL;
  cs_Mesh *b = box(V(-1, -1, -1), V(1, 1, 1));
  const cs_SensorEvent *e;
  cs_world_new(&A, &w);
  cs_world_add_sensor(w, b, &s, NULL, NULL);
  cs_mover_new(&A, &m);
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(0.1, 0, 0)}, NULL);
  e = cs_mover_sensor_event(m, 0);
  check(cs_mover_sensor_event_count(m) == 1 && e->enter && e->t == 0 && cs_mover_is_inside(m, s),
        "start inside", "no enter at t = 0");
  /* the sensor moved away (as a script places it before the call): exit at 0 */
  cs_sensor_set_transform(s, (cs_Vec3[1]){V(50, 0, 0)}, (double[4]){0, 0, 0, 1}, (cs_Vec3[1]){V(1, 1, 1)});
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(0.1, 0, 0)}, NULL);
  e = cs_mover_sensor_event(m, 0);
  check(cs_mover_sensor_event_count(m) == 1 && !e->enter && e->t == 0 && !cs_mover_is_inside(m, s),
        "sensor moved away", "no exit at t = 0");
  cs_world_free(w);
  cs_mover_free(m);
  cs_mesh_free(b);
}

/*        wall x = 1 (a box [1, 2] x [-5, 5] x [-5, 5])
**          |
**   o --> -|        the mover walks (1, 0, 1): it meets the wall at once
**       ^  |        (radius 0.5, centre x = 0.5 - skin) and slides along +z
**  sensor z in [2, 3] (full height and width): entered where the slide's
**  centre crosses z = 2, left at z = 3.
** The path is (0, 0, 0) -> (0.49..., 0, 0.49...) -> (.., 0, 1): its length is
** known from the positions, and the events sit where z = 2 and z = 3. */
static void slide_into_sensor(void) {
  cs_World *w = NULL;
  cs_Sensor *s = NULL;
  cs_Mover *m = NULL;
  cs_Body *b;
  cs_Mesh *wall = box(V(1, -5, -5), V(2, 5, 5)), *zone = box(V(-5, -5, 2), V(0.8, 5, 3));
  cs_Vec3 p;
  size_t n;
  cs_world_new(&A, &w);
  cs_world_add(w, wall, &b);
  cs_world_add_sensor(w, zone, &s, NULL, NULL);
  cs_mover_new(&A, &m);
  cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(4, 0, 4)}, NULL);
  p = csv_mover_position(m);
  n = cs_mover_sensor_event_count(m);
  check(n == 2 && p.z > 3, "slide into a sensor", "not through the zone");
  if (n == 2) {
    /* the path: straight to the wall, then along it; recompute the length
    ** at z = 2 and z = 3 from the two legs */
    const cs_SensorEvent *e0 = cs_mover_sensor_event(m, 0), *e1 = cs_mover_sensor_event(m, 1);
    double xw = p.x;                       /* the slide leg keeps x */
    double leg1 = sqrt(2) * xw;            /* (0,0,0) to (xw, 0, xw) */
    double total = leg1 + (p.z - xw);
    check(e0->enter && fabs(e0->t - (leg1 + 2 - xw) / total) < 1e-9 &&
          !e1->enter && fabs(e1->t - (leg1 + 3 - xw) / total) < 1e-9,
          "slide into a sensor", "events not where the centre crossed");
  }
  cs_world_free(w);
  cs_mover_free(m);
  cs_mesh_free(wall);
  cs_mesh_free(zone);
}

/* }================================================================== */

/* {==================================================================
** Random straight paths against dense sampling
** ===================================================================*/

static unsigned long long rs = 88172645463325252ull;
static double rnd(void) {
  rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
  return (double)(rs >> 11) / 9007199254740992.0;
}

/* In an empty world the path of a call without gravity is the straight
** segment from start to start + walk: sample it densely with
** cs_sensor_contains, and each change of state must match one event of the
** same kind and sensor, in order, with t within a sample of it. Sensors are
** at least 0.05 thick and paths at most 20 long, so 4000 samples see every
** crossing. */
static void random_paths(void) {
  enum { NS = 4, CALLS = 2000, SAMPLES = 4000 };
  cs_World *w = NULL;
  cs_Mesh *mesh[NS];
  cs_Sensor *s[NS];
  cs_Mover *m = NULL;
  int k, c, bad = 0, crossings = 0;
  cs_world_new(&A, &w);
  for (k = 0; k < NS; k++) {
    cs_Vec3 lo = V(rnd() * 8 - 4, rnd() * 8 - 4, rnd() * 8 - 4);
    cs_Vec3 hi = V(lo.x + 0.05 + rnd() * 3, lo.y + 0.05 + rnd() * 3, lo.z + 0.05 + rnd() * 3);
    double q[4];
    mesh[k] = box(lo, hi);
    cs_world_add_sensor(w, mesh[k], &s[k], NULL, NULL);
    q[0] = rnd() - 0.5; q[1] = rnd() - 0.5; q[2] = rnd() - 0.5; q[3] = rnd();
    cs_sensor_set_transform(s[k], (cs_Vec3[1]){V(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5)}, q,
                            (cs_Vec3[1]){V(0.5 + rnd(), 0.5 + rnd(), 0.5 + rnd())});
  }
  cs_mover_new(&A, &m);
  for (c = 0; c < CALLS; c++) {
    cs_Vec3 a = csv_mover_position(m), d, b;
    int state[NS], i;
    size_t next = 0, n;
    double len = 1 + rnd() * 19;
    if (fabs(a.x) > 8 || fabs(a.y) > 8 || fabs(a.z) > 8) {   /* wander back */
      cs_mover_set_position(m, (cs_Vec3[1]){V(rnd() * 4 - 2, rnd() * 4 - 2, rnd() * 4 - 2)});
      cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(0, 0, 0)}, NULL);
      a = csv_mover_position(m);
    }
    d = V(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5);
    { double l = sqrt(d.x * d.x + d.y * d.y + d.z * d.z); d.x *= len / l; d.y *= len / l; d.z *= len / l; }
    for (k = 0; k < NS; k++) state[k] = cs_mover_is_inside(m, s[k]);
    cs_world_collide_and_slide(w, m, &d, NULL);
    b = csv_mover_position(m);
    n = cs_mover_sensor_event_count(m);
    for (i = 1; i <= SAMPLES; i++) {
      double t = (double)i / SAMPLES;
      cs_Vec3 p = V(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
      for (k = 0; k < NS; k++) {
        int in = cs_sensor_contains(s[k], &p);
        const cs_SensorEvent *e;
        if (in == state[k]) continue;
        crossings++;
        e = next < n ? cs_mover_sensor_event(m, next) : NULL;
        if (!e || e->sensor != s[k] || e->enter != in || e->t > t + 1e-9 ||
            e->t < t - 1.0 / SAMPLES - 1e-9)
          bad++;
        next++;
        state[k] = in;
      }
    }
    if (next != n) bad++;
    for (k = 0; k < NS; k++)
      if (cs_mover_is_inside(m, s[k]) != state[k]) bad++;
  }
  printf("random paths: %d calls, %d crossings sampled, %d mismatches\n", CALLS, crossings, bad);
  check(bad == 0 && crossings > 500, "random paths", "events differ from dense sampling");
  cs_world_free(w);
  cs_mover_free(m);
  for (k = 0; k < NS; k++) cs_mesh_free(mesh[k]);
}

/* Sliding paths in a room of random boxes (walls, steps, crates) with
** gravity: the path is not known outside the call, so the checks are the
** ones any path must satisfy: each sensor's events alternate, starting from
** the state before the call; t never decreases and stays in [0, 1]; the
** state after the call is cs_sensor_contains at the final centre. */
static void random_slides(void) {
  enum { NS = 8, NB = 8, CALLS = 4000 };
  cs_World *w = NULL;
  cs_Mesh *mesh[NS + NB];
  cs_Sensor *s[NS];
  cs_Body *b;
  cs_Mover *m = NULL;
  int k, c, bad = 0, events = 0;
  cs_Vec3 target = V(0, 0, 0);
  cs_world_new(&A, &w);
  mesh[0] = box(V(-10, -1, -10), V(10, 0, 10));          /* the floor */
  cs_world_add(w, mesh[0], &b);
  for (k = 1; k < NB; k++) {
    cs_Vec3 lo = V(rnd() * 16 - 8, -0.5, rnd() * 16 - 8);
    mesh[k] = box(lo, V(lo.x + 0.2 + rnd() * 3, rnd() * 1.5, lo.z + 0.2 + rnd() * 3));
    cs_world_add(w, mesh[k], &b);
  }
  for (k = 0; k < NS; k++) {
    cs_Vec3 lo = V(rnd() * 16 - 8, rnd() * 0.4 - 0.5, rnd() * 16 - 8);   /* around the centre's height */
    mesh[NB + k] = box(lo, V(lo.x + 0.05 + rnd() * 5, lo.y + 0.8 + rnd() * 2, lo.z + 0.05 + rnd() * 5));
    cs_world_add_sensor(w, mesh[NB + k], &s[k], NULL, NULL);
  }
  cs_mover_new(&A, &m);
  cs_mover_set(m, CS_STEP_HEIGHT, 0.3);
  cs_mover_set(m, CS_SNAP_DISTANCE, 0.2);
  cs_mover_set_position(m, (cs_Vec3[1]){V(0, 3, 0)});
  for (c = 0; c < CALLS; c++) {
    int state[NS];
    double last = 0;
    size_t i, n;
    cs_Vec3 p = csv_mover_position(m), g = V(0, -0.2, 0);
    if (fabs(p.x) > 9 || fabs(p.z) > 9 || p.y < -2) cs_mover_set_position(m, (cs_Vec3[1]){V(0, 3, 0)});
    for (k = 0; k < NS; k++) state[k] = cs_mover_is_inside(m, s[k]);
    if (c % 40 == 0) target = V(rnd() * 16 - 8, 0, rnd() * 16 - 8);   /* walk to it */
    {
      double dx = target.x - p.x, dz = target.z - p.z, l = sqrt(dx * dx + dz * dz) + 1e-9;
      double step = 0.2 + rnd() * 0.8;
      cs_world_collide_and_slide(w, m, (cs_Vec3[1]){V(dx / l * step, 0, dz / l * step)}, &g);
    }
    n = cs_mover_sensor_event_count(m);
    events += (int)n;
    for (i = 0; i < n; i++) {
      const cs_SensorEvent *e = cs_mover_sensor_event(m, i);
      for (k = 0; k < NS && s[k] != e->sensor; k++) continue;
      if (k == NS || e->enter == state[k] || e->t < last || e->t < 0 || e->t > 1) bad++;
      if (k < NS) state[k] = e->enter;
      last = e->t;
    }
    p = csv_mover_position(m);
    for (k = 0; k < NS; k++)
      if (cs_mover_is_inside(m, s[k]) != state[k] || cs_sensor_contains(s[k], &p) != state[k]) bad++;
  }
  printf("random slides: %d calls, %d events, %d inconsistencies\n", CALLS, events, bad);
  check(bad == 0 && events > 100, "random slides", "events inconsistent with the states");
  cs_world_free(w);
  cs_mover_free(m);
  for (k = 0; k < NS + NB; k++) cs_mesh_free(mesh[k]);
}

/* }================================================================== */

int main(void) {
  A = cs_default_alloc();
  closed_meshes();
  inside_test();
  fast_thin_crossing();
  start_inside();
  slide_into_sensor();
  random_paths();
  random_slides();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
