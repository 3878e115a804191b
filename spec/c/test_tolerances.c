/*
** test_tolerances.c: one exact scene per tolerance of the slide (the block
** at the top of csrc/cs_slide.c), each built so that its checks fail when
** the tolerance is set to 0 or made a thousand times larger (issue 11:
** every tolerance named with the case that pins it). tools/pin_tolerances.sh
** rebuilds the slide with each mutant and reports which case kills it.
**
** The scenes call the slide itself (cs_slide_move) on a hand-built set, so
** the triangles' order and the mover's clean start are the test's: the
** mover is a unit sphere centred at the origin, so its ellipsoid space is
** world space and every number below is the one the slide sees. Checks are
** on what the mover does (where it ends, its ground state, its contacts,
** was_stuck) and, after every call, that it overlaps nothing (the exact
** distance of spec/c/invariants.c). TOL_VERBOSE=1 prints the figures.
** Prints "N passed, M failed".
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"
#include "invariants.h"

static int passed, failed, verbose;
static cs_Alloc A;

static void check(int ok, const char *name, const char *detail) {
  if (ok) passed++;
  else { failed++; printf("FAIL %s: %s\n", name, detail); }
}

/* {==================================================================
** A hand-built set
** ===================================================================*/

#define MAX_TRIS 8

typedef struct Scene {
  cs_TriES tris[MAX_TRIS];
  int n;
  cs_Mover *m;
  cs_Vec3 end;            /* where the last call left the mover */
  cs_Status status;
  int may_stay_stuck;     /* the case wants the mover left overlapping */
} Scene;

/* The unit sphere at the origin, skin as given (< 0: the default, 0.01),
** max_iterations as given (0: the default, 5). */
static void scene_init(Scene *s, double skin, int max_iterations) {
  cs_Vec3 r = v3(1, 1, 1), o = v3(0, 0, 0);
  memset(s, 0, sizeof *s);
  cs_mover_new(&A, &s->m);
  cs_mover_set_radius(s->m, &r);
  cs_mover_set_position(s->m, &o);
  if (skin >= 0) cs_mover_set(s->m, CS_SKIN, skin);
  if (max_iterations > 0) cs_mover_set(s->m, CS_MAX_ITERATIONS, max_iterations);
}

static void scene_free(Scene *s) { cs_mover_free(s->m); }

/* Triangle abc, front face (b - a) x (c - a), slides. */
static void tri(Scene *s, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c) {
  cs_TriES *t = &s->tris[s->n++];
  memset(t, 0, sizeof *t);
  t->a = a; t->b = b; t->c = c;
  t->n = v3_normalize(v3_cross(v3_sub(b, a), v3_sub(c, a)));
  t->d = -v3_dot(t->n, a);
  cs_tri_bounds(t);
  t->tri = (uint32_t)(s->n - 1);
  t->response = t->filter_response = CS_RESPONSE_SLIDE;
}

/* The least exact distance (unit sphere at the mover's centre) to the
** scene's triangles. */
static double clearance(const Scene *s) {
  inv_Ellipsoid e;
  double c[3], r[3] = {1, 1, 1}, best = HUGE_VAL;
  int i;
  c[0] = s->m->pos.x; c[1] = s->m->pos.y; c[2] = s->m->pos.z;
  inv_ellipsoid_init(&e, c, r, NULL);
  for (i = 0; i < s->n; i++) {
    const cs_TriES *t = &s->tris[i];
    double a[3], b[3], cc[3], d;
    /* the set is in ellipsoid space at the call's start (the origin) */
    a[0] = t->a.x; a[1] = t->a.y; a[2] = t->a.z;
    b[0] = t->b.x; b[1] = t->b.y; b[2] = t->b.z;
    cc[0] = t->c.x; cc[1] = t->c.y; cc[2] = t->c.z;
    d = inv_es_distance(&e, a, b, cc);
    if (d < best) best = d;
  }
  return best;
}

/* One collideAndSlide of the mover (at the origin) on the scene; known_clear
** as the world would pass it (0: the call looks for overlaps first). The
** mover must end clear of every triangle. */
static void run(Scene *s, const char *name, cs_Vec3 walk, const cs_Vec3 *gravity, int known_clear) {
  cs_ESpace es;
  cs_ContactBuf cb;
  cs_SlideSet set;
  const cs_Body *bodies[1] = {NULL};
  int ends_clear = 0, i;
  char detail[160];
  double d;
  memset(&cb, 0, sizeof cb);
  memset(&set, 0, sizeof set);
  cs_espace_init(&es, s->m->pos, s->m->radius, &s->m->rot, 0);
  for (i = 0; i < s->n; i++) cs_tri_bounds(&s->tris[i]);   /* fresh kernel data */
  set.es = &es;
  set.tris = s->tris;
  set.ntris = (size_t)s->n;
  set.bodies = bodies;
  set.reach = 100;
  set.known_clear = known_clear;
  set.walk = walk;
  set.gravity = gravity;
  set.contacts = &cb;
  set.alloc = &A;
  s->status = cs_slide_move(s->m, &set, &ends_clear);
  s->end = s->m->pos;
  if (cb.data) A.fn(A.ud, cb.data, cb.cap * sizeof(cs_Contact), 0);
  d = clearance(s);
  snprintf(detail, sizeof detail, "status %d, ends at (%.17g, %.17g, %.17g), distance 1 %+.3g",
           (int)s->status, s->end.x, s->end.y, s->end.z, d - 1);
  if (verbose) printf("  %s: %s, ground %d, %u contacts, stuck %d\n", name, detail,
                      (int)s->m->ground, (unsigned)s->m->ncontacts, s->m->was_stuck);
  check(s->status == CS_OK && (s->may_stay_stuck || d >= 1 - INV_OVERLAP_TOL), name, detail);
}

static int near(double a, double b, double tol) { return fabs(a - b) <= tol; }

static void expect(int ok, const char *name, const Scene *s, const char *what) {
  char detail[240];
  snprintf(detail, sizeof detail, "%s; ends at (%.17g, %.17g, %.17g), ground %d, %u contacts, stuck %d",
           what, s->end.x, s->end.y, s->end.z, (int)s->m->ground, (unsigned)s->m->ncontacts,
           s->m->was_stuck);
  check(ok, name, detail);
}

/* }================================================================== */

/* Triangle abc turned to face the point p (its front toward p). */
static void tri_facing(Scene *s, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, cs_Vec3 p) {
  if (v3_dot(v3_cross(v3_sub(b, a), v3_sub(c, a)), v3_sub(p, a)) < 0) tri(s, a, c, b);
  else tri(s, a, b, c);
}

/* The quad a b c d as two triangles facing p. */
static void quad_facing(Scene *s, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, cs_Vec3 d, cs_Vec3 p) {
  tri_facing(s, a, b, c, p);
  tri_facing(s, a, c, d, p);
}

/* The plate y = h over x in [x0, x1], z in [-10, 10], facing p. */
static void plate_y(Scene *s, double h, double x0, double x1, cs_Vec3 p) {
  quad_facing(s, v3(x0, h, -10), v3(x1, h, -10), v3(x1, h, 10), v3(x0, h, 10), p);
}

/* {==================================================================
** The cases, one or two per tolerance
** ===================================================================*/

/* GLANCING_COS: a glancing stop. One sweep (max_iterations 1) along a
** floor, dipping into it: the skin is kept along the contact normal, which
** costs skin / cos of travel.
**   cos 1e-13: the floor 1e-14 below touch, met after 0.1: the skin would
**   cost 1e11, so the move runs to the contact (x = 0.1) and stops there;
**   cos 1e-10: the floor 1e-11 below touch (inside the skin): the skin is
**   kept, the mover stays at x = 0. */
static void glancing_stop(void) {
  Scene s;
  scene_init(&s, -1, 1);
  plate_y(&s, -1 - 1e-14, -10, 10, v3(0, 0, 0));
  run(&s, "glancing_stop", v3(1, -1e-13, 0), NULL, 1);
  expect(near(s.end.x, 0.1, 1e-3) && near(s.end.y - s.tris[0].a.y, 1, 1e-15) && s.m->ncontacts == 1,
         "glancing_stop: cos 1e-13 runs to the contact", &s, "want x = 0.1, touching");
  scene_free(&s);
  scene_init(&s, -1, 1);
  plate_y(&s, -1 - 1e-11, -10, 10, v3(0, 0, 0));
  run(&s, "glancing_stop", v3(1, -1e-10, 0), NULL, 1);
  expect(s.end.x == 0 && s.end.y == 0 && s.m->ncontacts == 1,
         "glancing_stop: cos 1e-10 keeps the skin", &s, "want to stay at the origin");
  scene_free(&s);
}

/* UP_EPS: a wall normal rounded upward. A wall 2 away leaning back by k
** (its normal's up part k), walked into: k = 1e-12 is a wall that rounding
** tipped, no ground (AIR); k = 1e-7 faces up, steep ground (STEEP). */
static void wall_rounded_up(void) {
  static const double ks[2] = {1e-12, 1e-7};
  int i;
  for (i = 0; i < 2; i++) {
    double k = ks[i];
    Scene s;
    scene_init(&s, -1, 0);
    quad_facing(&s, v3(2 - 10 * k, -10, -10), v3(2 + 10 * k, 10, -10), v3(2 + 10 * k, 10, 10),
                v3(2 - 10 * k, -10, 10), v3(0, 0, 0));
    run(&s, "wall_rounded_up", v3(2, 0, 0), NULL, 1);
    expect(s.m->ncontacts == 1 && near(s.end.x, 1 - cs_mover_get(s.m, CS_SKIN), 1e-9) &&
           s.m->ground == (i == 0 ? CS_GROUND_AIR : CS_GROUND_STEEP),
           i == 0 ? "wall_rounded_up: up part 1e-12 is no ground" :
                    "wall_rounded_up: up part 1e-7 is steep ground", &s,
           i == 0 ? "want AIR, stopped a skin short" : "want STEEP, stopped a skin short");
    scene_free(&s);
  }
}

/* WALKABLE_EPS: a slope exactly at the limit. Dropped onto a ramp at
** exactly the slope limit, 45 degrees (integer vertices: it rises 15 per 15
** along (3, 0, 4) / 5; its normal (-3, 5, -4) / sqrt 50, whose up part
** rounds 1 ulp below cos 45): ground (ON), resting where it landed. A ramp
** 1e-10 steeper (up part cos 45 - 1e-10): STEEP, it slides. */
static void slope_at_limit(void) {
  Scene s;
  cs_Vec3 g = v3(0, -3, 0);
  double c45 = cos(45 * (3.14159265358979323846 / 180.0)), th;
  cs_Vec3 t1, t2, p0 = v3(0, -3, 0), n;
  scene_init(&s, -1, 0);
  tri_facing(&s, v3(3, -18, -21), v3(30, 27, 15), v3(-33, -18, 6), v3(0, 0, 0));
  if (verbose) printf("  slope_at_limit: normal up %.17g, cos(limit) %.17g\n", s.tris[0].n.y, c45);
  run(&s, "slope_at_limit", v3(0, 0, 0), &g, 1);
  expect(s.m->ground == CS_GROUND_ON && s.end.x == 0 && s.end.z == 0 && s.m->ncontacts == 1,
         "slope_at_limit: a ramp at the limit is ground", &s, "want ON, no slide");
  scene_free(&s);
  /* the ramp through p0 along t1 = (cos th, sin th, 0), normal (-sin th, cos th, 0) */
  th = acos(c45 - 1e-10);
  t1 = v3(cos(th), sin(th), 0);
  t2 = v3(0, 0, 1);
  scene_init(&s, -1, 0);
  quad_facing(&s, v3_add(p0, v3_add(v3_scale(t1, -10), v3_scale(t2, -10))),
              v3_add(p0, v3_add(v3_scale(t1, 10), v3_scale(t2, -10))),
              v3_add(p0, v3_add(v3_scale(t1, 10), v3_scale(t2, 10))),
              v3_add(p0, v3_add(v3_scale(t1, -10), v3_scale(t2, 10))), v3(0, 0, 0));
  n = s.tris[0].n;
  if (verbose) printf("  slope_at_limit: steeper normal up %.17g\n", n.y);
  run(&s, "slope_at_limit", v3(0, 0, 0), &g, 1);
  expect(s.m->ground == CS_GROUND_STEEP, "slope_at_limit: 1e-10 steeper is steep", &s, "want STEEP");
  scene_free(&s);
}

/* SUPPORT_BOX_PAD and SUPPORT_SAME_D2: a contact on a shared edge. A step's
** nose at x = 0.6, y = -1.3: the riser x = 0.6 below it (facing -x), the
** tread y = -1.3 beyond it (facing up). Dropped (one sweep) onto the nose
** from x = 0: the contact is the nose edge, which both triangles hold, and
** is reported on the tread (ON), in either order of the triangles.
**   shared: the tread's nose vertices 1 ulp past the riser's (x =
**   0.6 + 1.1e-16, a nose the two meshes round apart): still one contact,
**   on the tread;
**   apart: the tread 9e-8 back and 9e-8 down from the nose (1.3e-7 away,
**   inside its box grown by the pad): another surface, the riser holds
**   the contact (UNSUPPORTED). */
static void stair_nose(void) {
  int order, k;
  for (k = 0; k < 2; k++)
    for (order = 0; order < 2; order++) {
      Scene s;
      cs_Vec3 g = v3(0, -1, 0), from = v3(0, 0, 0);
      double tx = k == 0 ? nextafter(0.6, 1) : 0.6 + 9e-8, ty = k == 0 ? -1.3 : -1.3 - 9e-8;
      const char *name = k == 0 ? "stair_nose: a nose rounded apart is one contact, on the tread" :
                                  "stair_nose: a tread 1.3e-7 off the nose is another surface";
      scene_init(&s, -1, 1);
      if (order == 0) {
        quad_facing(&s, v3(0.6, -3.3, -5), v3(0.6, -1.3, -5), v3(0.6, -1.3, 5), v3(0.6, -3.3, 5), v3(-1, 0, 0));
        quad_facing(&s, v3(tx, ty, -5), v3(3, ty, -5), v3(3, ty, 5), v3(tx, ty, 5), from);
      } else {
        quad_facing(&s, v3(tx, ty, -5), v3(3, ty, -5), v3(3, ty, 5), v3(tx, ty, 5), from);
        quad_facing(&s, v3(0.6, -3.3, -5), v3(0.6, -1.3, -5), v3(0.6, -1.3, 5), v3(0.6, -3.3, 5), v3(-1, 0, 0));
      }
      run(&s, "stair_nose", v3(0, 0, 0), &g, 1);
      expect(s.m->ncontacts == 1 && s.end.x == 0 && s.m->ground == (k == 0 ? CS_GROUND_ON : CS_GROUND_UNSUPPORTED),
             name, &s, k == 0 ? "want ON, one contact" : "want UNSUPPORTED, one contact");
      scene_free(&s);
    }
}

/* SAME_PLANE_EPS: a bend in a wall. Wall A (x = -1.5, facing +x) up to
** z = 4, then wall B turning 1e-3 toward the mover. Walked into A (met at
** z = 3) and along it (skin 1e-6): B is met and is another plane (1 - cos =
** 5e-7), so the mover slides on along B to the end of its move (z = 6). */
static void wall_bend(void) {
  Scene s;
  double th = 1e-3, x1 = -1.5 + 10 * tan(th);   /* B from z = 4 to 14 */
  scene_init(&s, 1e-6, 0);
  quad_facing(&s, v3(-1.5, -10, -10), v3(-1.5, -10, 4), v3(-1.5, 10, 4), v3(-1.5, 10, -10), v3(0, 0, 0));
  quad_facing(&s, v3(-1.5, -10, 4), v3(x1, -10, 14), v3(x1, 10, 14), v3(-1.5, 10, 4), v3(0, 0, 0));
  run(&s, "wall_bend", v3(-1, 0, 6), NULL, 1);
  expect(near(s.end.z, 6, 1e-3) && s.end.x > -0.5 && s.m->ncontacts == 2,
         "wall_bend: slides on along the turned wall", &s, "want z = 6, two contacts");
  scene_free(&s);
}

/* CLIP_REL_EPS: a move along a wall heading into it by 1e-10 of its length,
** pressed to the floor: the floor clips it, the wall takes off the 1e-10,
** and it runs its whole length along the wall (x = 1). */
static void grazing_wall(void) {
  Scene s;
  scene_init(&s, -1, 0);
  plate_y(&s, -1 - 0.005, -10, 10, v3(0, 0, 0));
  quad_facing(&s, v3(-10, -10, 1 + 1e-11), v3(10, -10, 1 + 1e-11), v3(10, 10, 1 + 1e-11),
              v3(-10, 10, 1 + 1e-11), v3(0, 0, 0));
  run(&s, "grazing_wall", v3(1, -0.5, 1e-10), NULL, 1);
  expect(near(s.end.x, 1, 1e-9) && s.end.y == 0 && near(s.end.z, 0, 1e-12),
         "grazing_wall: runs along the wall", &s, "want x = 1");
  scene_free(&s);
}

/* TOUCH_IN_COS (cs_sweep.c): a graze. The unit sphere rests exactly on a
** slab's top (distance 1, no skin) and walks over the slab's edge, which it
** grazes there: the slide stops at the graze (the contact normal is at
** right angles to the move, so no skin is kept), and the next sweep starts
** touching the edge. The scene is turned about y by each of 24 angles, so
** that the rate at which the distance to the edge falls rounds to either
** side of 0.
**   0: the rounding counts as moving in, the edge is met at t = 0 on every
**   sweep and the mover stops at the edge for good (1 of the 24 angles;
**   4 when a touch moving along the edge, b = 0, also counted as a hit);
**   1e-12: it walks on, over the edge, its whole walk. */
static void graze_restart(void) {
  int k, stuck = 0;
  for (k = 0; k < 24; k++) {
    Scene s;
    double th = 0.1 + k * 0.26, c = cos(th), sn = sin(th), e = 1.5, w = 3;
    /* x' = R x: the walk along x, the edge at x = 1.5 along z, all turned */
    cs_Vec3 p0 = v3(-10 * c + -10 * sn, -1, 10 * sn + -10 * c), p1 = v3(e * c + -10 * sn, -1, -e * sn + -10 * c),
            p2 = v3(e * c + 10 * sn, -1, -e * sn + 10 * c), p3 = v3(-10 * c + 10 * sn, -1, 10 * sn + 10 * c);
    cs_Vec3 q1 = v3(p1.x, -3, p1.z), q2 = v3(p2.x, -3, p2.z);
    scene_init(&s, 0, 0);
    quad_facing(&s, p0, p1, p2, p3, v3(0, 0, 0));           /* the top, facing up */
    quad_facing(&s, p1, q1, q2, p2, v3(2 * e * c, -2, -2 * e * sn));   /* the side, facing out */
    run(&s, "graze_restart", v3(w * c, 0, -w * sn), NULL, 1);
    if (!(near(s.end.x, w * c, 1e-9) && near(s.end.z, -w * sn, 1e-9))) stuck++;
    scene_free(&s);
  }
  {
    char detail[64];
    snprintf(detail, sizeof detail, "%d of 24 angles stopped at the edge", stuck);
    check(stuck == 0, "graze_restart: walks over the edge it grazes", detail);
  }
}

/* PLANE_TOUCH (cs_sweep.c): a sphere resting on a flat floor of two
** triangles, 1.1e-16 into its plane (the rounding of a turned e-space),
** its centre 1.4e-9 from their shared diagonal: a walk across the
** diagonal goes on (into the other triangle's edge at t = 0 it stopped
** there, call after call: found by an independent tester, a turned
** sphere placed on a floor). Started clear or not; with gravity too. */
static void plane_touch(void) {
  int k;
  for (k = 0; k < 4; k++) {
    Scene s;
    double y = -1 + 0x1p-53, o = -2e-9;    /* the diagonal: x = z + o, the centre over the first */
    cs_Vec3 g = v3(0, -0.01, 0);
    scene_init(&s, -1, 0);
    tri(&s, v3(-10 + o, y, -10), v3(10 + o, y, 10), v3(10 + o, y, -10));    /* both facing up */
    tri(&s, v3(-10 + o, y, -10), v3(-10 + o, y, 10), v3(10 + o, y, 10));
    run(&s, "plane_touch", v3(-1, 0, -0.25), k & 2 ? &g : NULL, k & 1);
    expect(near(s.end.x, -1, 1e-12) && near(s.end.z, -0.25, 1e-12) && s.end.y == 0,
           "plane_touch: walks across the diagonal it rests by", &s, "want (-1, 0, -0.25)");
    scene_free(&s);
  }
}

/* PLANE_TOUCH in depenetration (cs_slide.c, free_distance): a sphere put
** 0.4 into a wall (x = 0.6, facing -x) while resting 1.1e-16 into the
** floor is pushed out level, along the floor, to a skin off the wall (the
** floor barred the level push, and it went out up a slope instead, 0.1
** radii higher and in the air: found by an independent tester). */
static void push_along_floor(void) {
  Scene s;
  scene_init(&s, -1, 0);
  plate_y(&s, -1 + 0x1p-53, -10, 10, v3(0, 0, 0));
  quad_facing(&s, v3(0.6, -2, -10), v3(0.6, 2, -10), v3(0.6, 2, 10), v3(0.6, -2, 10), v3(-5, 0, 0));
  run(&s, "push_along_floor", v3(0, 0, 0), NULL, 0);
  expect(s.m->was_stuck && s.end.y == 0 && s.end.z == 0 && near(s.end.x, -0.4 - 0.01, 1e-9),
         "push_along_floor: out of the wall, level", &s, "want (-0.41, 0, 0)");
  scene_free(&s);
}

/* FACE_NORMAL_SIN (cs_sweep.c): a unit sphere 1e-9 over a flat floor of
** two triangles whose shared diagonal runs under its centre, moved (10,
** -10, 0): it meets the diagonal's edge first, with a normal rounding
** tilts by 5e-10, and slides on along the floor to x = 10 (with the
** tilted plane the move dipped into the other triangle, met it at a
** glancing angle and stopped at x = 0: found by an independent tester).
** Started clear or not, a gap of 1e-9 and 1e-8. */
static void edge_tilt(void) {
  int k;
  for (k = 0; k < 4; k++) {
    Scene s;
    double y = -1 - (k & 2 ? 1e-8 : 1e-9);
    scene_init(&s, -1, 0);
    tri(&s, v3(-10, y, -10), v3(-10, y, 10), v3(10, y, 10));    /* both facing up */
    tri(&s, v3(-10, y, -10), v3(10, y, 10), v3(10, y, -10));
    run(&s, "edge_tilt", v3(10, -10, 0), NULL, k & 1);
    expect(near(s.end.x, 10, 1e-6) && near(s.end.z, 0, 1e-6) && s.end.y <= 1e-12 && s.end.y > y + 1,
           "edge_tilt: slides on along the floor", &s, "want (10, 0, 0)");
    scene_free(&s);
  }
}

/* LONG_MOVE_VV (cs_sweep.c): a unit sphere falling 2e9 radii straight onto
** the apex vertex of a face sloping away below it, and onto the ridge edge
** of another: the vertex (or edge) is met, at t = (1e9 - 1) / 2e9, once
** per path; the quadratic's discriminant rounded below 0 there and the
** sphere passed through (found by an independent tester: a sphere of 1e-7
** dropped 200 m onto a terrain's vertex). Both sweep modes. */
static void long_move(void) {
  static const cs_Vec3 tris[2][3] = {
    {{0, 0, 0}, {-10, -5, 10}, {10, -5, 10}},      /* the apex at the origin */
    {{-10, 0, 0}, {10, 0, 0}, {0, -5, 10}}};       /* the ridge along x */
  static const int flags[2] = {CS_SWEEP_ONCE, CS_SWEEP_DEEPENING_ONLY};
  int k, f;
  for (k = 0; k < 2; k++)
    for (f = 0; f < 2; f++) {
      Scene s;
      cs_SweepHit h;
      char detail[96];
      double want = (1e9 - 1) / 2e9;
      int hit;
      scene_init(&s, -1, 0);
      tri(&s, tris[k][0], tris[k][1], tris[k][2]);
      hit = cs_sweep_triangle(v3(0, 1e9, 0), v3(0, -2e9, 0), &s.tris[0], 1.0, flags[f], &h);
      snprintf(detail, sizeof detail, "hit %d, t %.17g, want %.17g", hit, hit ? h.t : 0.0, want);
      check(hit && fabs(h.t - want) <= 1e-15 && h.feature == (k ? CS_FEATURE_EDGE : CS_FEATURE_VERTEX) &&
            fabs(h.normal.y - 1) <= 1e-12, k ? "long_move: the ridge edge is met" : "long_move: the apex is met",
            detail);
      scene_free(&s);
    }
}

/* GRAZE_1MH2 (cs_sweep.c): a unit sphere resting exactly on a floor that
** turns down by 1e-3 at x = 0.3 (a convex crease) walks (3, -0.03, 0),
** pressing into it: the floor takes the press, and the walk goes on over
** the crease, whose edge it grazes, to x = 3 (the graze's normal, tilted by
** rounding, took the whole walk back: found by an independent tester). And
** PLANE_TOUCH's reach: a sphere 3e-10 into a flat quad (under the stuck
** depth, over half of it) walks across the quad's diagonal. */
/* The tester's scene (r 0.5 at (-0.3, 0.5, 0.25), the crease at x = 0) in
** the unit sphere's space: its vertices (v - start) * 2. */
static cs_Vec3 crease_vertex(double x, double y, double z) {
  return v3((x + 0.3) * 2, (y - 0.5) * 2, (z - 0.25) * 2);
}

static void crease_graze(void) {
  double a = -1e-3, S = 20, c = S * cos(a), sn = S * sin(a);
  int k;
  for (k = 0; k < 2; k++) {
    Scene s;
    cs_Vec3 p1 = crease_vertex(-S, 0, -S), p2 = crease_vertex(0, 0, -S), p3 = crease_vertex(0, 0, S),
            p4 = crease_vertex(-S, 0, S), p5 = crease_vertex(c, sn, -S), p6 = crease_vertex(c, sn, S);
    scene_init(&s, -1, 0);
    tri(&s, p1, p4, p2);
    tri(&s, p2, p4, p3);
    tri(&s, p2, p3, p5);
    tri(&s, p3, p6, p5);
    run(&s, "crease_graze", v3(3, -0.03, 0), NULL, k);
    expect(near(s.end.x, 3, 1e-9) && near(s.end.y, 0, 1e-12), "crease_graze: walks on over the crease",
           &s, "want (3, 0, 0)");
    scene_free(&s);
  }
  {
    Scene s;
    double y = -1 + 3e-10;
    scene_init(&s, -1, 0);
    tri(&s, v3(-10, y, -10), v3(-10, y, 10), v3(10, y, 10));    /* the diagonal under the centre */
    tri(&s, v3(-10, y, -10), v3(10, y, 10), v3(10, y, -10));
    run(&s, "crease_graze", v3(10, -10, 0), NULL, 0);
    expect(near(s.end.x, 10, 1e-6) && !s.m->was_stuck, "crease_graze: 3e-10 into a quad, across its diagonal",
           &s, "want x = 10, not stuck");
    scene_free(&s);
  }
}

/* CREASE_MIN_SIN: a wedge closing by 1e-7. A floor and a ceiling 2e-8
** above touch that closes toward +x by 1e-7 (their normals 1e-7 from
** opposite), skin 1e-8; a walk (1, 0, 0.5) meets the ceiling, then the
** floor, and slides on along their crease, sideways (z = 0.5). */
static void wedge(void) {
  Scene s;
  double a = 1e-7;
  scene_init(&s, 1e-8, 0);
  plate_y(&s, -1 - 2e-8, -10, 10, v3(0, 0, 0));
  quad_facing(&s, v3(-10, 1 + 2e-8 + 10 * a, -10), v3(10, 1 + 2e-8 - 10 * a, -10),
              v3(10, 1 + 2e-8 - 10 * a, 10), v3(-10, 1 + 2e-8 + 10 * a, 10), v3(0, 0, 0));
  run(&s, "wedge", v3(1, 0, 0.5), NULL, 1);
  expect(near(s.end.z, 0.5, 1e-6) && s.m->ncontacts == 2, "wedge: slides along the crease", &s,
         "want z = 0.5, two contacts");
  scene_free(&s);
}

/* STUCK_EPS: a resting overlap. A floor 1e-12 inside the sphere (touching
** after rounding) is resting contact: not stuck, not moved. A floor 1e-7
** inside is an overlap: stuck, pushed up out of it and a skin beyond. */
static void resting_overlap(void) {
  Scene s;
  scene_init(&s, -1, 0);
  plate_y(&s, -1 + 1e-12, -10, 10, v3(0, 0, 0));
  run(&s, "resting_overlap", v3(0, 0, 0), NULL, 0);
  expect(!s.m->was_stuck && s.end.y == 0, "resting_overlap: 1e-12 inside rests", &s, "want not stuck, unmoved");
  scene_free(&s);
  scene_init(&s, -1, 0);
  plate_y(&s, -1 + 1e-7, -10, 10, v3(0, 0, 0));
  run(&s, "resting_overlap", v3(0, 0, 0), NULL, 0);
  expect(s.m->was_stuck && near(s.end.y, 1e-7 + cs_mover_get(s.m, CS_SKIN), 1e-12) && s.end.x == 0,
         "resting_overlap: 1e-7 inside is stuck", &s, "want stuck, a skin above the floor");
  scene_free(&s);
}

/* INTERVAL_EPS: touching free intervals. The sphere overlaps a floor
** (y = -0.7); a ceiling above it leaves a slot gap higher than the sphere.
**   gap 1e-10: the slot is room, the mover is pushed up into it (y = 0.3);
**   gap 0 (the ceiling at -0.7 + 2, rounded): the two blocked intervals
**   touch, no room: the mover stays, stuck (the ways through the floor or
**   the ceiling cross them from their fronts, which depenetration never
**   does without a safe place; and sideways the floor goes on). */
static void touching_intervals(void) {
  static const double gaps[2] = {1e-10, 0};
  int i;
  for (i = 0; i < 2; i++) {
    Scene s;
    double f = -0.7;
    scene_init(&s, -1, 0);
    s.may_stay_stuck = i == 1;
    plate_y(&s, f, -10, 10, v3(0, 0, 0));
    plate_y(&s, f + 2 + gaps[i], -10, 10, v3(0, 0, 0));
    run(&s, "touching_intervals", v3(0, 0, 0), NULL, 0);
    if (i == 0)
      expect(s.m->was_stuck && near(s.end.y, f + 1, 1e-12) && s.end.x == 0 && s.end.z == 0,
             "touching_intervals: a slot 1e-10 taller than the mover is room", &s, "want y = 0.3");
    else
      expect(s.m->was_stuck && s.end.y == 0 && s.end.x == 0 && s.end.z == 0,
             "touching_intervals: a slot the mover's height is none", &s, "want stuck, unmoved");
    scene_free(&s);
  }
}

/* p turned by angle a about +y. */
static cs_Vec3 turn_y(cs_Vec3 p, double a) {
  return v3(p.x * cos(a) + p.z * sin(a), p.y, -p.x * sin(a) + p.z * cos(a));
}

/* AWAY_MIN_D2: a centre on a triangle. A plate y = 0 ending at x = -e,
** turned 22.5 degrees about y (so that its edge faces none of the level
** directions depenetration also tries), the centre at the origin
** (overlapping it by a whole radius).
**   e = 1e-12: the centre is on the plate's edge: no direction from it;
**   pushed out along the plate's normal (x, z stay 0, |y| = 1 + skin);
**   e = 1e-8: pushed out sideways, the shortest way (1 - 1e-8), to a skin
**   past distance 1 from the edge. */
static void centre_on_triangle(void) {
  static const double es[2] = {1e-12, 1e-8};
  const double a = 3.14159265358979323846 / 8;
  int i;
  for (i = 0; i < 2; i++) {
    Scene s;
    double e = es[i], skin;
    scene_init(&s, -1, 0);
    skin = cs_mover_get(s.m, CS_SKIN);
    quad_facing(&s, turn_y(v3(-10, 0, -10), a), turn_y(v3(-e, 0, -10), a),
                turn_y(v3(-e, 0, 10), a), turn_y(v3(-10, 0, 10), a), v3(0, 1, 0));
    run(&s, "centre_on_triangle", v3(0, 0, 0), NULL, 0);
    if (i == 0)
      expect(s.m->was_stuck && near(s.end.x, 0, 1e-15) && near(s.end.z, 0, 1e-15) &&
             near(fabs(s.end.y), 1 + skin, 1e-12),
             "centre_on_triangle: on the edge, out along the normal", &s, "want x = z = 0, |y| = 1 + skin");
    else
      /* the direction comes from an offset of 1e-8 from the turned edge:
      ** good to about 1e-8 */
      expect(s.m->was_stuck && s.end.y == 0 && near(s.end.x, (1 + skin - e) * cos(a), 1e-7) &&
             near(s.end.z, -(1 + skin - e) * sin(a), 1e-7),
             "centre_on_triangle: 1e-8 off the edge, out sideways", &s, "want 1 + skin - 1e-8 out of the edge");
    scene_free(&s);
  }
}

/* }================================================================== */

int main(int argc, char **argv) {
  (void)argc; (void)argv;
  A = cs_default_alloc();
  verbose = getenv("TOL_VERBOSE") != NULL;
  glancing_stop();
  wall_rounded_up();
  slope_at_limit();
  stair_nose();
  wall_bend();
  grazing_wall();
  graze_restart();
  plane_touch();
  push_along_floor();
  edge_tilt();
  long_move();
  crease_graze();
  wedge();
  resting_overlap();
  touching_intervals();
  centre_on_triangle();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
