/*
** cs_world.c: worlds, bodies and their transforms, the gather of potential
** colliders into a mover's ellipsoid space (Nettle 2000; one affine map per
** body: x_e = E^-1 (A p + T - c0), cs_espace.h), and the calls that move or
** sweep a mover. It calls down only: into the broad phase for the bodies
** near a call, each body's tree for their triangles, the slide for the
** response, the sweep kernel for a sweep.
*/
#include <stdio.h>
#include <string.h>

#include "cs_check.h"
#include "cs_world.h"

/* {==================================================================
** Worlds and bodies
** ===================================================================*/

cs_Status cs_world_new(const cs_Alloc *alloc, cs_World **out) {
  cs_World *w = cs_malloc(alloc, sizeof *w);
  *out = NULL;
  if (!w) return CS_ENOMEM;
  memset(w, 0, sizeof *w);
  w->alloc = *alloc;
  w->id = cs_new_id();
  cs_scratch_init(&w->scratch, alloc, &w->err);
  w->nthreads = 1;
  w->movers.world = w;
  w->movers.alloc = *alloc;
  cs_broad_init(&w->broad, alloc);
  *out = w;
  return CS_OK;
}

const cs_Error *cs_world_error(const cs_World *w) { return &w->err; }

static const char *const QXYZW[4] = {"qx", "qy", "qz", "qw"};
static const char *const SXYZ[3] = {"sx", "sy", "sz"};
static const char *const VXYZ[3] = {"vx", "vy", "vz"};
static const char *const GXYZ[3] = {"gx", "gy", "gz"};
static const char *const DXYZ[3] = {"dx", "dy", "dz"};
static void sensors_free(cs_World *w);
static int any_sensor(const cs_World *w, unsigned mask);

void cs_world_free(cs_World *w) {
  size_t i;
  cs_Alloc a;
  if (!w) return;
  a = w->alloc;
  for (i = 0; i < w->nbodies; i++) cs_free(&a, w->bodies[i], sizeof(cs_Body));
  for (i = 0; i < w->nfree; i++) cs_free(&a, w->free_bodies[i], sizeof(cs_Body));
  cs_free(&a, w->bodies, w->capbodies * sizeof(cs_Body *));
  cs_free(&a, w->free_bodies, w->capfree * sizeof(cs_Body *));
  cs_free(&a, w->friction, w->capfriction * sizeof(cs_FrictionEntry));
  cs_pool_free(w->pool);   /* ends the threads first */
  for (i = 0; i < (size_t)w->ntscratch; i++) cs_scratch_release(&w->tscratch[i]);
  cs_free(&a, w->tscratch, (size_t)w->ntscratch * sizeof(cs_CallScratch));
  cs_free(&a, w->bmem, w->capbmem);
  cs_free(&a, w->carry, w->capcarry * sizeof(cs_Mover *));
  cs_free(&a, w->stackers, w->capstackers * sizeof(cs_Mover *));
  cs_scratch_release(&w->scratch);
  cs_broad_free(&w->broad);
  sensors_free(w);
  cs_moverset_free(&w->movers, &a);
  cs_free(&a, w, sizeof *w);
}

void cs_scratch_init(cs_CallScratch *sc, const cs_Alloc *a, cs_Error *err) {
  memset(sc, 0, sizeof *sc);
  sc->alloc = *a;
  sc->sensor.alloc = *a;
  sc->err = err ? err : &sc->own_err;
}

/* A call of the contract from a filter of a call working in the same
** scratch (found by an independent tester: it reallocated the triangles
** the outer gather was filling). */
cs_Status cs_scratch_busy(cs_CallScratch *sc) {
  return cs_fail(sc->err, CS_EBUSY, 0,
                 "the scratch is in use by a call on this thread (a filter's call needs a scratch of its own)");
}

void cs_scratch_release(cs_CallScratch *sc) {
  const cs_Alloc *a = &sc->alloc;
  cs_SensorScratch *ss = &sc->sensor;
  cs_free(a, sc->tris, sc->captris * sizeof(cs_TriES));
  cs_free(a, (void *)sc->gbodies, sc->capgbodies * sizeof(cs_Body *));
  cs_free(a, sc->filters, sc->capfilters * sizeof(cs_FilterEntry));
  cs_free(a, sc->contacts.data, sc->contacts.cap * sizeof(cs_Contact));
  cs_u32buf_free(a, &sc->ids);
  cs_free(a, sc->near, sc->capnear * sizeof(cs_Mover *));
  cs_free(a, sc->ells, sc->capells * sizeof(cs_EllipsoidES));
  cs_free(a, (void *)sc->ell_movers, sc->capellm * sizeof(cs_Mover *));
  cs_free(a, sc->ell_resp, sc->capellr);
  cs_free(a, ss->path, ss->cappath * sizeof(cs_Vec3));
  cs_free(a, ss->len, ss->caplen * sizeof(double));
  cs_free(a, ss->hits, ss->caphits * sizeof(double));
  cs_u32buf_free(a, &ss->ids);
  cs_free(a, ss->spans, ss->capspans * sizeof(double));
  cs_free(a, ss->events, ss->capevents * sizeof(cs_SensorEvent));
  cs_free(a, ss->inside, ss->capinside * sizeof(cs_SensorRef));
  cs_free(a, sc->riders, sc->capriders * sizeof(cs_Mover *));
  cs_free(a, sc->undo, sc->capundo * sizeof(cs_Vec3));
  cs_free(a, sc->pushed, sc->cappushed * sizeof(cs_Mover *));
  if (sc->aux) {
    cs_scratch_release(sc->aux);
    cs_free(a, sc->aux, sizeof *sc->aux);
  }
}

static void carry_riders(cs_World *w, cs_Body *b, const cs_Mat3 *oldA, cs_Vec3 oldT);
static int sweep_ellipsoid(cs_World *w, cs_CallScratch *sc, const cs_Mover *self,
                           const cs_Body *hidden, cs_Vec3 p, cs_Vec3 r, const double q[4],
                           cs_Vec3 d, unsigned mask, cs_Hit *hit, int darg);

/* A's smallest singular value, 1 / sqrt of the largest eigenvalue of
** Ainv^T Ainv (the trigonometric solution for a symmetric 3x3 matrix, Smith
** 1961; the largest eigenvalue keeps its relative precision where the
** smallest of A^T A, 1e-40 beside 1, would not). */
static double sigma_min_of(const cs_Mat3 *Ainv) {
  double M[3][3], q, p1, p2, p, r, B[3][3], lmax;
  int i, j, k;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) {
      M[i][j] = 0;
      for (k = 0; k < 3; k++) M[i][j] += Ainv->m[k][i] * Ainv->m[k][j];
    }
  p1 = M[0][1] * M[0][1] + M[0][2] * M[0][2] + M[1][2] * M[1][2];
  q = (M[0][0] + M[1][1] + M[2][2]) / 3;
  p2 = (M[0][0] - q) * (M[0][0] - q) + (M[1][1] - q) * (M[1][1] - q) + (M[2][2] - q) * (M[2][2] - q)
     + 2 * p1;
  p = sqrt(p2 / 6);
  if (!(p > 0)) return 1.0 / sqrt(q);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) B[i][j] = (M[i][j] - (i == j ? q : 0)) / p;
  r = (B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1]) - B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0])
       + B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0])) / 2;
  r = r < -1 ? -1 : r > 1 ? 1 : r;
  lmax = q + 2 * p * cos(acos(r) / 3);
  return 1.0 / sqrt(lmax);
}

/* A matrix's smallest scale is held to CS_MIN_SCALE as the scales of the
** ten-number form are, within this share for rounding: the matrix of a
** placement scaled by exactly 1e-20 is taken back (a third of the turns
** were refused, and a scale of 1e-20 along two axes always, by the
** Frobenius bound: found by an independent tester, round 24). Where the two
** largest eigenvalues of sigma_min_of meet (two axes scaled alike), the
** trigonometric solution loses half the digits: about 1e-8 of them. */
#define MIN_SCALE_SLACK 1e-7

/* 1 / |Ainv|_F: a lower bound of A's smallest singular value. */
static double sigma_min_bound(const cs_Mat3 *Ainv) {
  double f = 0;
  int i, j;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) f += Ainv->m[i][j] * Ainv->m[i][j];
  return 1.0 / sqrt(f);
}

/* A change of w that may touch anything (unchanged_since). */
static void wide_change(cs_World *w) { w->wide_stamp = ++w->stamp; }

/* The sum of the box's three extents. */
static double box_girth(cs_Vec3 lo, cs_Vec3 hi) { return (hi.x - lo.x) + (hi.y - lo.y) + (hi.z - lo.z); }

/* Logs body b's placement elsewhere, a change in the box [lo, hi]. A body
** placed again with no other change since its last logged placement (a
** script's sub-steps), near it (the union at most twice the new box's
** girth), widens that entry instead: the union under the newer stamp
** answers for both, only more cautiously for the calls between them. An
** entry each filled the ring, and a full ring's evictions make every
** mover gather anew (65 placements in a frame, anywhere: found by an
** independent tester). */
static void log_change(cs_World *w, const cs_Body *b, cs_Vec3 lo, cs_Vec3 hi) {
  cs_ChangeEntry *e;
  if (w->nlog > 0 && b == w->log_body) {
    e = &w->log[(w->nlog - 1) % CS_CHANGE_LOG];
    if (e->stamp == w->stamp) {
      cs_Vec3 ulo = v3_min(e->lo, lo), uhi = v3_max(e->hi, hi);
      if (box_girth(ulo, uhi) <= 2 * box_girth(lo, hi)) {
        e->lo = ulo;
        e->hi = uhi;
        e->stamp = ++w->stamp;
        return;
      }
    }
  }
  e = &w->log[w->nlog % CS_CHANGE_LOG];
  if (w->nlog >= CS_CHANGE_LOG) w->floor_stamp = e->stamp;   /* (evicted: no longer answered) */
  e->stamp = ++w->stamp;
  e->lo = lo;
  e->hi = hi;
  w->nlog++;
  w->log_body = b;
}

/* unchanged_since for a stamp before the world's: the log, newest first
** (it holds the entries in stamp order), as far back as the stamp. */
static int unchanged_in_log(const cs_World *w, uint64_t stamp, cs_Vec3 lo, cs_Vec3 hi) {
  uint64_t k;
  if (stamp < w->wide_stamp || stamp < w->floor_stamp) return 0;
  for (k = w->nlog; k > 0 && k + CS_CHANGE_LOG > w->nlog; k--) {
    const cs_ChangeEntry *e = &w->log[(k - 1) % CS_CHANGE_LOG];
    if (e->stamp <= stamp) break;
    if (v3_boxes_meet(e->lo, e->hi, lo, hi)) return 0;
  }
  return 1;
}

/* Did no change since the world's stamp was `stamp` touch the box [lo, hi]
** (world space)? */
CS_INLINE int unchanged_since(const cs_World *w, uint64_t stamp, cs_Vec3 lo, cs_Vec3 hi) {
  return stamp == w->stamp || unchanged_in_log(w, stamp, lo, hi);
}

static void body_set_linear(cs_Body *b, const cs_Mat3 *A, cs_Mat3 *Ainv, cs_Vec3 t) {
  cs_Mat3 id = m3_identity(), oldA = b->A;
  cs_Vec3 oldT = b->T, oldlo = b->lo, oldhi = b->hi;
  b->A = *A;
  b->Ainv = *Ainv;
  b->T = t;
  b->xform = memcmp(A, &id, sizeof id) == 0 ? CS_XFORM_TRANSLATE : CS_XFORM_GENERAL;
  b->sigma_min = sigma_min_bound(Ainv);
  cs_body_update_bounds(b);
  if (b->world) {
    int moved = memcmp(&oldA, A, sizeof oldA) != 0 || memcmp(&oldT, &t, sizeof t) != 0;
    cs_broad_moved(&b->world->broad, b);
    b->world->version++;
    if (moved) {                                 /* (placed where it was: no change) */
      if ((int)(b->moved_version - b->world->last_call) <= 0) {
        b->prevA = oldA;                         /* (not moved since that move) */
        b->prevT = oldT;
      }
      b->changed = b->moved_version = b->world->version;
      b->placed++;
      log_change(b->world, b, v3_min(oldlo, b->lo), v3_max(oldhi, b->hi));
    }
    /* (placed where it was: no carry; the anchors' round trip through a
    ** turned or scaled placement moved added riders by ulps: found by an
    ** independent tester) */
    if (moved && b->riders) carry_riders(b->world, b, &oldA, oldT);
  }
}

/* The ground body of the last call, if that call was in this world, the
** body is still in it and the mover still collides with it (only then does
** it carry the mover). The world id is checked first: a body of another
** world may be freed memory. */
CS_INLINE const cs_Body *live_ground_body(const cs_World *w, const cs_Mover *m) {
  const cs_Body *b = m->ground_body;
  if (m->world != w->id || !m->has_ground || !b) return NULL;
  if (!b->alive || b->generation != m->ground_generation) return NULL;
  return b->enabled && (b->layers & m->collides_with) ? b : NULL;
}

/* Where b's placement puts the point its rider m stands on (its anchor in
** b's space). */
CS_INLINE cs_Vec3 stood_point(const cs_Body *b, const cs_Mover *m) {
  return cs_body_to_world(b, m->ground_anchor);
}

/* Where b's new placement puts its rider m: moved as the point it stands
** on (exactly where it is while b did not move). */
CS_INLINE cs_Vec3 rider_place(const cs_Body *b, const cs_Mover *m) {
  return v3_add(m->pos, v3_sub(stood_point(b, m), m->ground_point));
}

/* Does the box [lo, hi] meet one of the sensors a mover with collides_with
** mask tracks (their boxes)? Sensors follow the path of a call only. In a
** batch (shared) they were brought up to date before it (cs_world_refit),
** and are only read. */
static int sensor_near_box(cs_World *w, int shared, unsigned mask, cs_Vec3 lo, cs_Vec3 hi) {
  size_t i;
  if (!(shared ? any_sensor(w, mask) : cs_world_prepare_sensors(w, mask))) return 0;
  for (i = 0; i < w->nsensors; i++) {
    const cs_Body *p = &w->sensors[i]->place;
    if ((w->sensors[i]->layers & mask) && v3_boxes_meet(p->lo, p->hi, lo, hi)) return 1;
  }
  return 0;
}

/* Does the segment [a, b] of m's centre come near a sensor it tracks? */
static int path_near_sensor(cs_World *w, const cs_Mover *m, cs_Vec3 a, cs_Vec3 b) {
  return sensor_near_box(w, 0, m->collides_with, v3_min(a, b), v3_max(a, b));
}

/* m grown half a skin every way, swept by d from its centre against what
** it collides with but the body b (NULL: none left out) and the movers going
** along (carrying), in scratch sc: as a placement moves a rider, so that it
** lands that far from anything. sweep_ellipsoid's answer. */
static int sweep_grown(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, const cs_Body *b,
                       cs_Vec3 d, cs_Hit *hit) {
  double h = 0.5 * cs_mover_skin(m);
  return sweep_ellipsoid(w, sc, NULL, b, m->pos, v3_add(m->radius, v3(h, h, h)),
                         m->oriented ? m->q : NULL, d, m->collides_with, hit, 1);
}

/* What stops mover m going straight to `to`, where a placement puts it:
** the segment swept by sweep_grown (b left out); no filter is asked (a
** setTransform is no call): what a filter would let it pass blocks it here,
** and its call carries it instead. So does a sensor near the way, whose
** events only a call's path gives. An added mover met first is *o
** (WAY_MOVER). */
enum { WAY_CLEAR, WAY_BLOCKED, WAY_MOVER };
static int rider_way(cs_World *w, const cs_Mover *m, const cs_Body *b, cs_Vec3 to,
                     const cs_Mover **o) {
  cs_Vec3 d = v3_sub(to, m->pos);
  cs_Hit hit;
  int met;
  if (v3_len2(d) == 0) return WAY_CLEAR;
  if (path_near_sensor(w, m, m->pos, to)) return WAY_BLOCKED;
  met = sweep_grown(w, &w->scratch, m, b, d, &hit);
  if (met == 0) return WAY_CLEAR;
  /* a mover met only by the half skin at the start, the way leading off it,
  ** is not in the way: it blocks, as before (pushed, a mover beside a rider
  ** lifted away from it was dragged along: found by an independent tester) */
  *o = met > 0 && (hit.t > 0 || v3_dot(d, hit.normal) < 0) ? hit.mover : NULL;
  return *o ? WAY_MOVER : WAY_BLOCKED;
}

/* Is m clear of everything at `to`, b included (a start in something is a
** sweep's hit at t = 0; the sweep's way, along d, is a billionth of m)? A
** rider with an older anchor than b's last placement lands at its anchor,
** where b's turn since may have put b's surface (found by an independent
** tester's crowds: 4 in 15,000 placements, 2.5% of the radius deep). */
static int spot_clear(cs_World *w, const cs_Mover *m, cs_Vec3 to, cs_Vec3 d) {
  double l = v3_len(d);
  cs_Hit hit;
  if (!(l > 0)) return 1;
  return sweep_ellipsoid(w, &w->scratch, NULL, NULL, to, m->radius, m->oriented ? m->q : NULL,
                         v3_scale(d, 1e-9 * cs_mover_min_radius(m) / l), m->collides_with, &hit, 1) == 0;
}

/* Appends m to the movers going along (w->carry, *n of them); 0 when the
** list cannot grow. */
static int carry_push(cs_World *w, cs_Mover *m, size_t *n) {
  if (*n == w->capcarry &&
      cs_grow(&w->alloc, (void **)&w->carry, &w->capcarry, *n + 1, sizeof(cs_Mover *)) != CS_OK)
    return 0;
  m->carrying = CARRY_RIDES;
  w->carry[(*n)++] = m;
  return 1;
}

/* Does m ride g, one of w's movers: did its last call in w end standing on
** g's walkable top (g by pointer and id: m->ground_mover is never read
** through, it may be freed), and does m still collide with g? Only a top
** carries: a mover leaning on another's steep side (ground STEEP) was
** dragged off with it (found by an independent tester). */
CS_INLINE int rides(const cs_World *w, const cs_Mover *m, const cs_Mover *g) {
  return m->world == w->id && cs_mover_grounded(m) && m->ground_mover == g &&
         g->id == m->ground_mover_id && (g->layers & m->collides_with);
}

/* The world's movers that stand on a mover (w->stackers), those that
** carry_stacked asks, rather than all movers for each one pushed (a chain
** of 300 pushed movers: 200 us a placement, 148 us this way; the rest is
** a sweep or two a pushed mover). 0 when the list cannot grow. */
static int find_stackers(cs_World *w) {
  size_t i;
  w->nstackers = 0;
  for (i = 0; i < w->movers.count; i++) {
    cs_Mover *o = w->movers.items[i];
    if (!o->ground_mover) continue;
    if (w->nstackers == w->capstackers &&
        cs_grow(&w->alloc, (void **)&w->stackers, &w->capstackers, w->nstackers + 1,
                sizeof(cs_Mover *)) != CS_OK)
      return 0;
    w->stackers[w->nstackers++] = o;
  }
  return 1;
}

/* Appends the movers standing on those going along from the from-th on, at
** any depth (their ground mover one of them: rides); 0 when the list cannot
** grow. */
static int carry_stacked(cs_World *w, size_t from, size_t *n) {
  size_t i, k;
  while (from < *n) {
    size_t to = *n;
    for (i = 0; i < w->nstackers; i++) {
      cs_Mover *o = w->stackers[i];
      if (o->carrying) continue;
      for (k = from; k < to && !rides(w, o, w->carry[k]); k++) {}
      if (k < to && !carry_push(w, o, n)) return 0;
    }
    from = to;
  }
  return 1;
}

/* Is m a rider of b whose anchor moves by d, within rounding? Every mover
** going along must move by the same d, so that none meets another. An
** anchor older than b's last placement (one that took none along: turned,
** or near a sensor; a rider added again) may go otherwise: sent there, the
** rider went into the mover on it, or into one pushed by d (found by an
** independent tester: 400 of 500 scenes overlapped). Unless common_way
** takes its way for all, such a rider goes by d too, and keeps the rest for
** its next call (carry_riders). */
#define CARRY_SAME_REL 1e-7
static int anchor_fresh(const cs_Body *b, const cs_Mover *m, cs_Vec3 d) {
  double off;
  if (m->carrying != CARRY_RIDES || m->ground_body != b) return 0;
  off = v3_len(v3_sub(v3_sub(rider_place(b, m), m->pos), d));
  return off <= CARRY_SAME_REL * cs_mover_min_radius(m) +
                1e-14 * (v3_len(m->pos) + v3_len(b->T) + v3_len(d));
}

/* The way every mover going along takes: the one way of all the riders'
** anchors (riders[0..n)), when they agree within rounding; else d, b's
** displacement. They agree when b only moved since their calls (d), or,
** with older anchors, when they moved alike (b placed while none was taken
** along, or a rider added again): the stack on a lone such rider went by d,
** and the rest left to the rider's call was blocked by that stack, which
** held it inside the lift (found by an independent tester: 88 of 300
** stacks, 28 before). */
static cs_Vec3 common_way(const cs_Body *b, size_t n, cs_Mover *const *riders, cs_Vec3 d) {
  cs_Vec3 way = v3_sub(rider_place(b, riders[0]), riders[0]->pos);
  size_t i;
  for (i = 1; i < n; i++)
    if (!anchor_fresh(b, riders[i], way)) return d;
  return anchor_fresh(b, riders[0], d) ? d : way;
}

/* Where b's placement by d puts a mover going along: a rider at its anchor
** in b's space (*fresh: anchor_fresh); every other one by d. */
static cs_Vec3 carry_target(const cs_Body *b, const cs_Mover *m, cs_Vec3 d, int *fresh) {
  *fresh = anchor_fresh(b, m, d);
  return *fresh ? rider_place(b, m) : v3_add(m->pos, d);
}

/* Has m a filter, set in the core or a binding's (cs_mover_mark_filtered)? */
CS_INLINE int has_filter(const cs_Mover *m) {
  return m->filter || m->mover_filter || m->marked_filtered;
}

/* Can the *n movers going along all go by d (b's displacement, with_b, or
** common_way's)? An idle added mover in the way of one of them, which the
** two meet both ways, is pushed along by d as well, with the movers standing
** on it, when its own way is clear: a mover falling onto a stack on a rising
** lift held the whole stack back, the lift rose into its bottom mover, and
** that one ended below the lift (found by an independent tester). Else none
** goes. */
static int carry_clear(cs_World *w, const cs_Body *b, cs_Vec3 d, int with_b, size_t *n) {
  size_t i = 0, at;
  while (i < *n) {
    const cs_Mover *m = w->carry[i], *o = NULL;
    cs_Vec3 to;
    int way, fresh;
    if (m->in_batch || m->moving) return 0;   /* (in_batch first: moving may be a thread's) */
    to = carry_target(b, m, d, &fresh);
    /* b is left out of the sweep of a mover that keeps its place on b: every
    ** one when d is b's own displacement (with_b), else a rider going to its
    ** anchor; the others go by a way b did not, which can lead into b (found
    ** by an independent tester's crowds) */
    way = rider_way(w, m, with_b || fresh ? b : NULL, to, &o);
    if (way == WAY_CLEAR && !with_b && fresh && !spot_clear(w, m, to, d)) return 0;
    if (way == WAY_CLEAR) { i++; continue; }  /* (else m's way is asked again) */
    /* (a filter may let the two cross: not asked here, so it blocks; a mover
    ** a filter lets pass was pushed along: found by an independent tester) */
    if (way == WAY_BLOCKED || !(o->collides_with & m->layers) || has_filter(m) || has_filter(o))
      return 0;
    at = *n;
    /* (o is one of w's movers, as every mover a sweep of w meets: the set's
    ** own pointer, not const) */
    if (!carry_push(w, w->movers.items[o->set_slot], n)) return 0;
    w->carry[at]->carrying = CARRY_PUSHED;
    if (!carry_stacked(w, at, n)) return 0;
  }
  return 1;
}

/* A body placed anew takes the added movers standing on it along (issue
** 14), and the movers standing on those: a platform placed after its riders
** moved then carries them as one placed before, and the riders' next call
** sees no carry left to do (not even the body's velocity: m->carried). Only
** when the placement moves the body without turning or scaling it (every
** mover going along then moves by the same d and meets none of the others),
** when none of them is moving (a filter, maybe in another world, placed the
** body), and when every one's way is clear (carry_clear, which may push
** movers in the way along): else a rider would be put into a wall, a
** ceiling or another mover, with no sweep. Then none goes, and each rider's
** next call carries it, sliding, as a mover that is not added (by its
** anchor, which follows turns). A rider of another world, or of a removed
** body, stays; so do all while a move of this world is under way (it holds
** the scratch the sweeps need). */
static void carry_riders(cs_World *w, cs_Body *b, const cs_Mat3 *oldA, cs_Vec3 oldT) {
  size_t i, n = 0;
  int ok = 1, clear;
  cs_Vec3 db = v3_sub(b->T, oldT), d = db;   /* b's displacement; the way they all take */
  if (w->busy) return;
  for (i = 0; i < w->movers.count && ok; i++)
    if (live_ground_body(w, w->movers.items[i]) == b) ok = carry_push(w, w->movers.items[i], &n);
  b->riders = n > 0;
  if (ok && n > 0) d = common_way(b, n, w->carry, db);
  clear = ok && n > 0 && memcmp(oldA, &b->A, sizeof b->A) == 0 && find_stackers(w) &&
          carry_stacked(w, 0, &n) && carry_clear(w, b, d, memcmp(&d, &db, sizeof d) == 0, &n);
  /* a mover pushed before the mover it stands on was: it stands on one
  ** going along, as a stacked one (its next call carried it by d again:
  ** found by an independent tester) */
  for (i = 0; i < n && clear; i++) {
    cs_Mover *m = w->carry[i];
    size_t k;
    for (k = 0; m->carrying == CARRY_PUSHED && m->ground_mover && k < n; k++)
      if (rides(w, m, w->carry[k])) m->carrying = CARRY_RIDES;
  }
  for (i = 0; i < n; i++) {
    cs_Mover *m = w->carry[i];
    if (clear) {
      int fresh;
      cs_Vec3 to = carry_target(b, m, d, &fresh);
      /* the placement is m's travel: a mover that is not added, riding m,
      ** is carried by it at its next call (found by an independent tester:
      ** it stayed behind); a stacked rider went along by d already */
      m->travel = v3_add(m->travel, v3_sub(to, m->pos));
      m->pos = to;
      if (m->carrying == CARRY_RIDES) {   /* (a pushed one stays on its own ground) */
        if (m->ground_body != b) m->ground_mover_travel = v3_add(m->ground_mover_travel, d);
        else m->ground_point = fresh ? stood_point(b, m) : v3_add(m->ground_point, d);
        m->carried = 1;
      }
      cs_moverset_moved(&w->movers, m);
    }
    m->carrying = 0;
  }
}

cs_Status cs_world_add(cs_World *w, cs_Mesh *mesh, cs_Body **out) {
  cs_Body *b;
  cs_Mat3 id = m3_identity();
  unsigned gen = 0;
  cs_Status s = CS_EBUSY;
  *out = NULL;
  /* (each failure in the world's error, as the header says: an independent
  ** tester found the last call's still there) */
  if (w->busy) return cs_fail_status(&w->err, s);
  if ((w->nbodies == w->capbodies &&
       (s = cs_grow(&w->alloc, (void **)&w->bodies, &w->capbodies, w->nbodies + 1,
                    sizeof(cs_Body *))) != CS_OK) ||
      /* room in the free list now, so that removing this body never fails */
      (w->nfree + w->nbodies + 1 > w->capfree &&
       (s = cs_grow(&w->alloc, (void **)&w->free_bodies, &w->capfree,
                    w->nfree + w->nbodies + 1, sizeof(cs_Body *))) != CS_OK) ||
      (s = cs_broad_mesh_ref(&w->broad, mesh, 1)) != CS_OK)
    return cs_fail_status(&w->err, s);
  if (w->nfree > 0) {             /* reuse a removed body's memory */
    b = w->free_bodies[--w->nfree];
    gen = b->generation;
  } else if (!(b = cs_malloc(&w->alloc, sizeof *b))) {
    cs_broad_mesh_ref(&w->broad, mesh, -1);
    return cs_fail_status(&w->err, CS_ENOMEM);
  }
  memset(b, 0, sizeof *b);
  w->undo_old_version = w->version;
  w->undo_stamp = w->stamp;
  w->undo_wide = w->wide_stamp;
  w->undo_nlog = w->nlog;
  w->undo_slot = w->log[w->nlog % CS_CHANGE_LOG];     /* (the add's placement takes it) */
  w->undo_floor = w->floor_stamp;
  w->undo_log_body = w->log_body;
  w->log_body = NULL;                    /* (b may be a removed body's memory) */
  w->undo_rebuild = w->broad.rebuild;
  w->undo_dirty = w->broad.dirty;
  b->generation = gen + 1;
  b->world = w;
  b->mesh = mesh;
  b->layers = 1;
  b->enabled = 1;
  b->alive = 1;
  b->slot = w->nbodies;
  body_set_linear(b, &id, &id, v3(0, 0, 0));
  b->prevA = id;                          /* (added: it has not moved) */
  b->moved_version = 0;
  w->nonesided += mesh->backfaces == CS_BACKFACES_IGNORE;
  cs_broad_changed(&w->broad);
  b->changed = b->added_version = ++w->version;
  wide_change(w);
  b->changed_mesh = mesh->version;
  w->bodies[w->nbodies++] = b;
  w->undo_body = b;
  w->undo_version = w->version;
  *out = b;
  return CS_OK;
}

/* Never fails: cs_world_add reserved the free list's slot. Removed bodies
** stay allocated (in a free list) until the world is freed,
** so that pointers held in contacts and movers never dangle; their
** generation tells a mover that its ground body is gone. */
void cs_world_remove(cs_World *w, cs_Body *b) {
  size_t slot = b->slot;
  /* removed right after its add, nothing else changed: the world goes
  ** back to what it was (a failed world:add changed the next move's last
  ** bits, through the version: found by an independent tester). The body
  ** is the last one, so the swap below restores the list's order too. */
  int undo = b == w->undo_body && w->version == w->undo_version && w->broad.rebuild;
  if (w->busy && b->alive && b->world == w) {     /* (said in the world's error: the
                                                  ** C caller had no word of it) */
    cs_fail(&w->err, CS_EBUSY, 0, "remove: the world is busy (inside one of its filters)");
    return;
  }
  if (!b->alive || b->world != w) return;
  w->undo_body = NULL;
  CS_ASSERT(w->nfree < w->capfree);   /* reserved by cs_world_add */
  w->bodies[slot] = w->bodies[--w->nbodies];
  w->bodies[slot]->slot = slot;
  cs_broad_mesh_ref(&w->broad, b->mesh, -1);
  w->nonesided -= b->mesh->backfaces == CS_BACKFACES_IGNORE;
  cs_broad_changed(&w->broad);
  w->version++;
  wide_change(w);
  b->alive = 0;
  b->generation++;
  w->free_bodies[w->nfree++] = b;
  if (undo) {
    w->version = w->undo_old_version;
    w->stamp = w->undo_stamp;
    w->wide_stamp = w->undo_wide;
    w->nlog = w->undo_nlog;               /* (the add's placement: dropped) */
    w->log[w->nlog % CS_CHANGE_LOG] = w->undo_slot;
    w->floor_stamp = w->undo_floor;
    w->log_body = w->undo_log_body;      /* (a placement after it widens the same
                                         ** entry: a refused add changed the next
                                         ** moves' last bits, found by an
                                         ** independent tester) */
    w->broad.rebuild = w->undo_rebuild;
    w->broad.dirty = w->undo_dirty;
  }
}

size_t cs_world_body_count(const cs_World *w) { return w->nbodies; }

/* The gather copies each triangle's friction (cs_TriES.friction): a change
** is a change of the world, which the movers' caches see. */
/* While a batch runs, its threads read the world (issue 15). */
static cs_Status refuse_in_batch(cs_World *w) {
  return cs_fail(&w->err, CS_EBUSY, 0,
                 "the world is running a batch (collideAndSlideMany): edit it after the call");
}

/* The place of tag in the friction table, kept in the order of the tags,
** or where it would go: a gather looks up every triangle's (a linear
** search made a call 7 times dearer with 10,000 tags: found by an
** independent tester). */
static size_t friction_place(const cs_World *w, int tag) {
  size_t lo = 0, hi = w->nfriction;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (w->friction[mid].tag < tag) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

cs_Status cs_world_set_friction(cs_World *w, int tag, double c) {
  size_t i;
  char b[CS_NUMBUF];
  cs_Status s = cs_check_finite(&w->err, 2, "coefficient", c);
  if (s != CS_OK) return s;
  if (w->batching) return refuse_in_batch(w);
  if (c < 0 || c > 1)
    return cs_fail(&w->err, CS_EINVAL, 2, "coefficient must be in [0, 1], got %s", cs_fmtnum(b, c));
  w->version++;
  wide_change(w);
  i = friction_place(w, tag);
  if (i < w->nfriction && w->friction[i].tag == tag) {
    w->friction[i].coefficient = c;
    return CS_OK;
  }
  if (w->nfriction == w->capfriction) {
    s = cs_grow(&w->alloc, (void **)&w->friction, &w->capfriction, w->nfriction + 1,
                sizeof(cs_FrictionEntry));
    if (s != CS_OK) return cs_fail_status(&w->err, s);
  }
  memmove(w->friction + i + 1, w->friction + i, (w->nfriction - i) * sizeof(cs_FrictionEntry));
  w->friction[i].tag = tag;
  w->friction[i].coefficient = c;
  w->nfriction++;
  return CS_OK;
}

double cs_world_get_friction(const cs_World *w, int tag) {
  size_t i = friction_place(w, tag);
  return i < w->nfriction && w->friction[i].tag == tag ? w->friction[i].coefficient : 0.0;
}

/* A scale component: nonzero, at least CS_MIN_SCALE and at most
** CS_MAX_COORD in magnitude. */
static cs_Status check_scale(cs_Error *e, int arg, const char *name, double x) {
  char b[CS_NUMBUF];
  cs_Status st = cs_check_coord(e, arg, name, x);
  if (st != CS_OK) return st;
  if (x == 0)
    return cs_fail(e, CS_EINVAL, arg, "scale %s must be nonzero, got %s", name, cs_fmtnum(b, x));
  if (fabs(x) < CS_MIN_SCALE)
    return cs_fail(e, CS_EINVAL, arg, "scale %s is too small (|%s| < 1e-20), got %s", name, name,
                   cs_fmtnum(b, x));
  return CS_OK;
}


/* Does b's mesh placed by A and t stay within 2 CS_MAX_COORD? Every call
** maps the placed triangles into a mover's ellipsoid space: a floor of 1e30
** scaled by 1e27 let a mover of radius 1e-20 fall through it. The test is
** on the cube of the mesh's extent E, whose placement's row i reaches
** |t_i| + E (|A_i1| + |A_i2| + |A_i3|): a mesh within 1e30 turned any way
** stays within sqrt 3 of it. *limit: the largest E this placement allows,
** to which the mesh's vertex edits are held once it is placed. */
static cs_Status check_placed(cs_Error *e, int arg, cs_Body *b, const cs_Mat3 *A, cs_Vec3 t,
                              double *limit) {
  double lim = HUGE_VAL;
  int i;
  for (i = 0; i < 3; i++) {
    double rows = fabs(A->m[i][0]) + fabs(A->m[i][1]) + fabs(A->m[i][2]);
    if (rows > 0) lim = fmin(lim, (2 * CS_MAX_COORD - fabs(v3_get(t, i))) / rows);
  }
  *limit = lim;
  if (!(cs_mesh_extent(b->mesh) <= lim))
    return cs_fail(e, CS_ERANGE, arg, "the mesh placed by this transform reaches past 2e30 "
                   "(its extent, scaled and moved)");
  return CS_OK;
}

/* The transform of a body or a sensor's placement; errors go to e. A NULL
** tp, q or sp is no translation, turn or scale (the queries take a NULL q
** so; here it crashed: found by an independent tester). */
static cs_Status set_transform(cs_Body *b, cs_Error *e, const cs_Vec3 *tp, const double q[4],
                               const cs_Vec3 *sp) {
  static const double q1[4] = {0, 0, 0, 1};
  static const cs_Vec3 zero = {0, 0, 0}, one = {1, 1, 1};
  double qn[4], l, lim;
  cs_Mat3 R, A, Ainv;
  cs_Vec3 t, s;
  cs_Status st;
  int i, j;
  if (!tp) tp = &zero;
  if (!q) q = q1;
  if (!sp) sp = &one;
  t = *tp;
  s = *sp;
  if ((st = cs_check_vec(e, 1, cs_names_xyz, tp)) != CS_OK ||
      (st = cs_check_quat(e, 4, QXYZW, q)) != CS_OK ||
      (st = check_scale(e, 8, SXYZ[0], s.x)) != CS_OK ||
      (st = check_scale(e, 9, SXYZ[1], s.y)) != CS_OK ||
      (st = check_scale(e, 10, SXYZ[2], s.z)) != CS_OK)
    return st;
  l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (i = 0; i < 4; i++) qn[i] = l > 0 ? q[i] / l : (i == 3);
  R = m3_from_quat(qn);
  /* A = R S: column j of R scaled by s_j; A^-1 = S^-1 R^T */
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) {
      double sj = j == 0 ? s.x : j == 1 ? s.y : s.z;
      double si = i == 0 ? s.x : i == 1 ? s.y : s.z;
      A.m[i][j] = R.m[i][j] * sj;
      Ainv.m[i][j] = R.m[j][i] / si;
    }
  /* blamed on the scale, or on the translation when there is none */
  i = fabs(s.x) == 1 && fabs(s.y) == 1 && fabs(s.z) == 1 ? 1 : 8;
  if ((st = check_placed(e, i, b, &A, t, &lim)) != CS_OK) return st;
  if (b->world && b->world->batching) return refuse_in_batch(b->world);
  cs_mesh_limit_extent(b->mesh, lim);
  body_set_linear(b, &A, &Ainv, t);
  return CS_OK;
}

cs_Status cs_body_set_transform(cs_Body *b, const cs_Vec3 *t, const double q[4], const cs_Vec3 *s) {
  return set_transform(b, &b->world->err, t, q, s);
}

static cs_Status set_matrix(cs_Body *b, cs_Error *e, const double m[16]) {
  cs_Mat3 A, Ainv;
  char name[16], buf[CS_NUMBUF];
  double det, lim;
  cs_Status st;
  int i, j;
  for (i = 0; i < 16; i++) {
    snprintf(name, sizeof name, "m[%d]", i + 1);
    if ((st = cs_check_finite(e, i + 1, name, m[i])) != CS_OK) return st;
  }
  for (i = 0; i < 15; i++) {   /* the linear part and the translation, as scales and coordinates */
    if (i == 3 || i == 7 || i == 11) continue;
    snprintf(name, sizeof name, "m[%d]", i + 1);
    if ((st = cs_check_coord(e, i + 1, name, m[i])) != CS_OK) return st;
  }
  if (fabs(m[3]) > 1e-9 || fabs(m[7]) > 1e-9 || fabs(m[11]) > 1e-9 || fabs(m[15] - 1) > 1e-9)
    return cs_fail(e, CS_EINVAL, 1, "matrix is not affine (its last row must be 0, 0, 0, 1)");
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) A.m[i][j] = m[4 * j + i];   /* column-major */
  det = m3_det(&A);
  if (det == 0 || !isfinite(det) || !isfinite(1.0 / det))
    return cs_fail(e, CS_EINVAL, 1, "matrix is not invertible (determinant %s)", cs_fmtnum(buf, det));
  if (!m3_inverse(&A, &Ainv))
    return cs_fail(e, CS_EINVAL, 1, "matrix is not invertible (its inverse overflows)");
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      if (!isfinite(Ainv.m[i][j]))
        return cs_fail(e, CS_EINVAL, 1, "matrix is not invertible (its inverse overflows)");
  if (!(sigma_min_of(&Ainv) >= CS_MIN_SCALE * (1 - MIN_SCALE_SLACK)))
    return cs_fail(e, CS_EINVAL, 1, "matrix is too close to singular (it scales some direction "
                   "by less than 1e-20)");
  if ((st = check_placed(e, 1, b, &A, v3(m[12], m[13], m[14]), &lim)) != CS_OK) return st;
  if (b->world && b->world->batching) return refuse_in_batch(b->world);
  cs_mesh_limit_extent(b->mesh, lim);
  body_set_linear(b, &A, &Ainv, v3(m[12], m[13], m[14]));
  return CS_OK;
}

cs_Status cs_body_set_matrix(cs_Body *b, const double m[16]) {
  return set_matrix(b, &b->world->err, m);
}

void cs_body_get_matrix(const cs_Body *b, double m[16]) {
  int i, j;
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 3; j++) m[4 * j + i] = b->A.m[i][j];
    m[12 + i] = v3_get(b->T, i);
    m[4 * i + 3] = 0;
  }
  m[15] = 1;
}

cs_Status cs_body_set_velocity(cs_Body *b, const cs_Vec3 *v) {
  cs_Status s = cs_check_vec(&b->world->err, 1, VXYZ, v);
  if (s != CS_OK) return s;
  if (b->world->batching) return refuse_in_batch(b->world);
  b->vel = *v;
  return CS_OK;
}
void cs_body_get_velocity(const cs_Body *b, cs_Vec3 *out) { *out = b->vel; }
/* Layers and enabled are read by a batch's threads too (refused during
** one, as transforms are: otherwise a filter's change reached the movers of
** other threads or not, by the thread count; found by an independent
** tester). */
cs_Status cs_body_set_layers(cs_Body *b, unsigned layers) {
  int changed = b->layers != layers;
  if (b->world->batching) return refuse_in_batch(b->world);
  b->layers = layers;
  b->world->version++;
  wide_change(b->world);
  if (changed) b->changed = b->world->version;
  return CS_OK;
}
unsigned cs_body_get_layers(const cs_Body *b) { return b->layers; }
cs_Status cs_body_set_enabled(cs_Body *b, int e) {
  int changed = b->enabled != (e != 0);
  if (b->world->batching) return refuse_in_batch(b->world);
  b->enabled = e != 0;   /* (the tree holds disabled bodies too: no refit) */
  b->world->version++;
  wide_change(b->world);
  if (changed) b->changed = b->world->version;
  return CS_OK;
}
int cs_body_get_enabled(const cs_Body *b) { return b->enabled; }
cs_Mesh *cs_body_mesh(const cs_Body *b) { return b->mesh; }
void cs_body_set_userdata(cs_Body *b, void *ud) { b->userdata = ud; }
void *cs_body_get_userdata(const cs_Body *b) { return b->userdata; }

void cs_body_bounds(cs_Body *b, cs_Vec3 *lo, cs_Vec3 *hi) {
  cs_body_refresh(b);
  *lo = b->lo;
  *hi = b->hi;
}

/* }================================================================== */

/* {==================================================================
** The bodies near a box, through the broad phase
** ===================================================================*/

/* Brings the broad phase up to date. Inside a walk (a query's callback)
** the tree stays as it is, but a mesh edited there is noticed at once: the
** walks and moves the callback runs next go body by body with the edited
** bounds, and every mover gathers anew (they went on with the old
** vertices, through a wall moved in by setVertex: found by an independent
** tester). */
void cs_world_sync(cs_World *w) {
  unsigned edited;
  size_t i;
  if (cs_atomic_get(&w->broad.walks) > 0) {
    if (cs_broad_note_edits(&w->broad)) {
      w->version++;
      wide_change(w);
      for (i = 0; i < w->nbodies; i++)
        if (cs_body_stale(w->bodies[i])) w->bodies[i]->changed = w->version;
    }
    return;
  }
  edited = cs_broad_update(&w->broad, w->bodies, w->nbodies);
  if (edited) {                         /* (writes nothing when nothing changed) */
    w->version += edited;
    wide_change(w);
    /* the bodies of an edited mesh moved (a room moved by its vertices left
    ** a stuck mover's safe place behind its wall: found by an independent
    ** tester) */
    for (i = 0; i < w->nbodies; i++) {
      cs_Body *b = w->bodies[i];
      if (b->changed_mesh != b->mesh->version) {
        b->changed = w->version;
        b->changed_mesh = b->mesh->version;
      }
    }
  }
}

/* Is a refit pending that the calls of the job-system contract (the _in
** calls) would do at the same time: the broad phase's, a sensor's bounds
** after its mesh's edit (the calls went on with the sensor's old bounds and
** gave no events: found by an independent tester), the movers' grid? */
int cs_world_pending(const cs_World *w) {
  size_t i;
  if (cs_broad_pending(&w->broad) || !cs_moverset_ready(&w->movers)) return 1;
  for (i = 0; i < w->nsensors; i++)
    if (cs_body_stale(&w->sensors[i]->place)) return 1;
  return 0;
}

cs_Status cs_world_prepare(cs_World *w) {
  if (w->busy) return cs_fail_status(&w->err, CS_EBUSY);
  w->last_call = w->version;     /* (the contract's moves do not write it) */
  cs_world_refit(w);
  /* a refit that could not allocate leaves its work pending, which the
  ** calls of the contract would then do at the same time */
  if (cs_world_pending(w))
    return cs_fail(&w->err, CS_ENOMEM, 0, "%s (the world is not prepared)",
                   cs_status_string(CS_ENOMEM));
  return cs_ok(&w->err);
}

void cs_world_refit(cs_World *w) {
  size_t i;
  cs_world_sync(w);
  for (i = 0; i < w->nbodies; i++) cs_body_refresh(w->bodies[i]);
  /* every sensor, of layers 0 too (cs_world_pending asks them all: a zone of
  ** layers 0 whose mesh was edited kept the world pending for good, and
  ** cs_world_prepare said CS_ENOMEM: found by an independent tester) */
  for (i = 0; i < w->nsensors; i++) cs_body_refresh(&w->sensors[i]->place);
  cs_moverset_prepare(&w->movers);
}

void cs_world_walk_begin(cs_World *w, cs_BroadWalk *it, cs_Vec3 lo, cs_Vec3 hi, unsigned mask) {
  cs_world_sync(w);
  cs_broad_walk_begin(&w->broad, it, w->bodies, w->nbodies, lo, hi, mask);
}

void cs_world_near_begin(cs_World *w, cs_BroadNear *it, cs_Vec3 p, unsigned mask) {
  cs_world_sync(w);
  cs_broad_near_begin(&w->broad, it, w->bodies, w->nbodies, p, mask);
}

/* }================================================================== */

/* {==================================================================
** The gather: potential colliders of one call, in ellipsoid space
** ===================================================================*/

/* The world box [lo, hi] in the body's space: the box of its 8 corners. */
static void box_to_body(const cs_Body *b, cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 *blo, cs_Vec3 *bhi) {
  int i;
  if (b->xform == CS_XFORM_TRANSLATE) {
    *blo = v3_sub(lo, b->T);
    *bhi = v3_sub(hi, b->T);
    return;
  }
  *blo = v3(HUGE_VAL, HUGE_VAL, HUGE_VAL);
  *bhi = v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
  for (i = 0; i < 8; i++) {
    cs_Vec3 p = v3(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
    p = m3_apply(&b->Ainv, v3_sub(p, b->T));
    *blo = v3_min(*blo, p);
    *bhi = v3_max(*bhi, p);
  }
}

/* The affine map body space -> ellipsoid space: x_e = M p + t. */
typedef struct BodyMap { cs_Mat3 M; cs_Vec3 t; int diagonal; int mirror; } BodyMap;

static void body_map(const cs_Body *b, const cs_ESpace *es, BodyMap *bm) {
  cs_Mat3 Einv;
  int i, j;
  bm->t = cs_espace_vec_to(es, v3_sub(b->T, es->c0));
  bm->diagonal = b->xform == CS_XFORM_TRANSLATE && !es->oriented;
  if (bm->diagonal) {   /* the common case: a per-axis scale */
    bm->mirror = 0;
    return;
  }
  /* Einv = diag(1/r) R^T */
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      Einv.m[i][j] = (es->oriented ? es->R.m[j][i] : (double)(i == j)) * v3_get(es->inv_r, i);
  bm->M = m3_mul(&Einv, &b->A);
  bm->mirror = m3_det(&bm->M) < 0;
}

static cs_Vec3 map_point(const BodyMap *bm, const cs_ESpace *es, cs_Vec3 p) {
  if (bm->diagonal) return v3_add(v3_mul(p, es->inv_r), bm->t);
  return v3_add(m3_apply(&bm->M, p), bm->t);
}

/* The filter's answer for (body, tag): asked once per call and cached. */
static int filter_response(cs_CallScratch *sc, size_t first, int tag,
                           cs_FilterFn filter, void *ud, const cs_Body *b) {
  size_t i;
  int r;
  for (i = first; i < sc->nfilters; i++)
    if (sc->filters[i].tag == tag) return sc->filters[i].response;
  r = filter(ud, b, tag);
  if (r < 0 || r > CS_RESPONSE_CROSS) return -1;
  if (sc->nfilters == sc->capfilters &&
      cs_grow(&sc->alloc, (void **)&sc->filters, &sc->capfilters, sc->nfilters + 1,
              sizeof(cs_FilterEntry)) != CS_OK)
    return -2;
  sc->filters[sc->nfilters].tag = tag;
  sc->filters[sc->nfilters].response = r;
  sc->nfilters++;
  return r;
}

/* Maps one triangle into ellipsoid space; returns 0 for one that the map
** makes degenerate. */
static int map_triangle(const cs_Mesh *mesh, uint32_t t, const BodyMap *bm,
                        const cs_ESpace *es, cs_TriES *out) {
  const uint32_t *i = mesh->tris + 3 * (size_t)t;
  cs_Vec3 n, ab, bc, ca, corner;
  double l, lab, lbc, lca;
  out->a = map_point(bm, es, cs_mesh_vert(mesh, i[0]));
  out->b = map_point(bm, es, cs_mesh_vert(mesh, i[1]));
  out->c = map_point(bm, es, cs_mesh_vert(mesh, i[2]));
  if (bm->mirror) { cs_Vec3 tmp = out->b; out->b = out->c; out->c = tmp; }
  /* (b - a) x (c - a); on a sliver (the angle at a within 1e-3 of 0 or 180
  ** degrees) the cross product of the two shortest edges instead, whose
  ** rounding scales with their lengths: from b - a and c - a, a needle 1e-7
  ** wide and 3 long swept by an ellipsoid of radius 1e-6 was met 2.7e-4 of
  ** the move early (found by an independent tester) */
  ab = v3_sub(out->b, out->a);
  ca = v3_sub(out->a, out->c);
  n = v3_cross(ab, v3_neg(ca));
  corner = out->a;
  lab = v3_len2(ab);
  lca = v3_len2(ca);
  if (v3_len2(n) < 1e-6 * lab * lca) {
    bc = v3_sub(out->c, out->b);
    lbc = v3_len2(bc);
    if (lab >= lbc && lab >= lca) { n = v3_cross(v3_neg(ca), bc); corner = out->c; }   /* edges at c */
    else if (lca >= lbc) { n = v3_cross(bc, v3_neg(ab)); corner = out->b; }          /* edges at b */
  }
  l = v3_len(n);
  if (!(l > 0) || !isfinite(l)) return 0;
  out->n = v3_scale(n, 1.0 / l);
  out->d = -v3_dot(out->n, corner);
  cs_tri_bounds(out);
  out->tri = t;
  out->tag = mesh->tags ? mesh->tags[t] : 0;
  out->one_sided = mesh->backfaces == CS_BACKFACES_IGNORE;
  out->solid = mesh->closed && !out->one_sided;
  out->response = out->filter_response = CS_RESPONSE_SLIDE;
  return 1;
}

/* A sweep's path for its gather: the shape's box, half extents h, from
** world point o along d (gather_body). */
typedef struct SweepPath { cs_Vec3 o, d, h; } SweepPath;

/* Does the box of the path's sweep hold four times the volume of the way
** itself (a bound of it: the shape's box at the start, and a square prism
** as wide as the shape's widest along the move)? */
static int box_holds_far_more(const SweepPath *path) {
  cs_Vec3 h = path->h, d = v3(fabs(path->d.x), fabs(path->d.y), fabs(path->d.z));
  double hmax = fmax(fmax(h.x, h.y), h.z);
  double box = (2 * h.x + d.x) * (2 * h.y + d.y) * (2 * h.z + d.z);
  double way = 8 * h.x * h.y * h.z + (d.x + d.y + d.z) * 4 * hmax * hmax;   /* (|d| at most) */
  return box > 4 * way;
}

/* The triangles of b's mesh whose bounds meet the body-space box [blo, bhi]
** and, with a path, lie along it: the path mapped into body space, and
** the shape's box's extents there (|Ainv| h), with room for the rounding. */
static cs_Status query_body(cs_CallScratch *sc, const cs_Body *b, cs_Vec3 blo, cs_Vec3 bhi,
                            const SweepPath *path) {
  const cs_Mesh *mesh = b->mesh;
  const cs_Mat3 *A = &b->Ainv;
  cs_Vec3 o, d, pad, h;
  double slack;
  if (!path) return cs_bvh_query_box(&mesh->bvh, &sc->alloc, mesh->verts, mesh->tris, blo, bhi, &sc->ids);
  o = m3_apply(A, v3_sub(path->o, b->T));
  d = m3_apply(A, path->d);
  h = path->h;
  pad = v3(fabs(A->m[0][0]) * h.x + fabs(A->m[0][1]) * h.y + fabs(A->m[0][2]) * h.z,
           fabs(A->m[1][0]) * h.x + fabs(A->m[1][1]) * h.y + fabs(A->m[1][2]) * h.z,
           fabs(A->m[2][0]) * h.x + fabs(A->m[2][1]) * h.y + fabs(A->m[2][2]) * h.z);
  slack = 1e-9 * (1 + v3_len(o) + v3_len(d) + v3_len(pad));
  pad = v3_add(pad, v3(slack, slack, slack));
  return cs_bvh_query_segment(&mesh->bvh, &sc->alloc, mesh->verts, mesh->tris, blo, bhi, o, d, pad,
                              &sc->ids);
}

/* Gathers one body's triangles; see cs_world_gather. */
static cs_Status gather_body(const cs_World *w, cs_CallScratch *sc, const cs_Body *b, const cs_ESpace *es,
                             cs_Vec3 lo, cs_Vec3 hi, const SweepPath *path, cs_FilterFn filter, void *ud) {
  const cs_Mesh *mesh = b->mesh;
  cs_Vec3 blo, bhi;
  BodyMap bm;
  uint32_t gb = (uint32_t)sc->ngbodies;
  size_t k, first_filter = sc->nfilters;
  cs_Status s;
  box_to_body(b, lo, hi, &blo, &bhi);
  sc->ids.count = 0;
  s = query_body(sc, b, blo, bhi, path);
  if (s != CS_OK) return s;
  if (sc->ids.count == 0) return CS_OK;
  if ((s = cs_grow(&sc->alloc, (void **)&sc->gbodies, &sc->capgbodies, sc->ngbodies + 1,
                   sizeof(cs_Body *))) != CS_OK ||
      (s = cs_grow(&sc->alloc, (void **)&sc->tris, &sc->captris, sc->ntris + sc->ids.count,
                   sizeof(cs_TriES))) != CS_OK)
    return s;
  sc->gbodies[sc->ngbodies++] = b;
  body_map(b, es, &bm);
  if (mesh->backfaces == CS_BACKFACES_IGNORE) sc->nonesided += sc->ids.count;   /* (a bound) */
  for (k = 0; k < sc->ids.count; k++) {
    uint32_t t = sc->ids.data[k];
    cs_TriES *te = &sc->tris[sc->ntris];
    if (mesh->flags[t] & CS_TRI_DEGENERATE) continue;
    if (!map_triangle(mesh, t, &bm, es, te)) continue;
    te->body = gb;
    te->friction = w->nfriction ? cs_world_get_friction(w, te->tag) : 0.0;
    if (filter) {
      int r = filter_response(sc, first_filter, te->tag, filter, ud, b);
      if (r == -2) return CS_ENOMEM;
      if (r < 0) return CS_EABORT;
      if (r == CS_RESPONSE_CROSS) continue;
      te->response = te->filter_response = (uint8_t)r;
    }
    sc->ntris++;
  }
  return CS_OK;
}

/* cs_world_gather, along a sweep's path when one is given. */
static cs_Status gather(cs_World *w, cs_CallScratch *sc, const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi,
                        const SweepPath *path, unsigned mask, cs_FilterFn filter, void *ud) {
  cs_BroadWalk it;
  cs_Body *b;
  cs_Status s = CS_OK;
  sc->ntris = 0;
  sc->nonesided = 0;
  sc->ngbodies = 0;
  sc->nfilters = 0;
  if (sc->shared)   /* prepared, and only read: no sync, no walk count */
    cs_broad_walk_shared(&w->broad, &it, w->bodies, w->nbodies, lo, hi, mask);
  else cs_world_walk_begin(w, &it, lo, hi, mask);
  while (s == CS_OK && (b = cs_broad_walk_next(&w->broad, &it)) != NULL)
    s = gather_body(w, sc, b, es, lo, hi, path, filter, ud);
  cs_broad_walk_end(&w->broad, &it);
  return s;
}

cs_Status cs_world_gather(cs_World *w, cs_CallScratch *sc, const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi,
                          unsigned mask, cs_FilterFn filter, void *ud) {
  return gather(w, sc, es, lo, hi, NULL, mask, filter, ud);
}

/* }================================================================== */

/* {==================================================================
** The calls
** ===================================================================*/

/* The world box around the ellipsoid at es->c0, grown by margin. */
static void ellipsoid_box(const cs_ESpace *es, double margin, cs_Vec3 *lo, cs_Vec3 *hi) {
  cs_Vec3 h = cs_espace_half_extents(es);
  h = v3_add(h, v3(margin, margin, margin));
  *lo = v3_sub(es->c0, h);
  *hi = v3_add(es->c0, h);
}


/* How the ground body moved its rider since the last call: its velocity
** when one is set (API.md), else the motion of the rider's anchor in the
** body's space, so that a platform turned by setTransform alone carries
** its riders around (Fauerby 2000, "Dynamic geometry"). */
static cs_Vec3 ground_carry(const cs_Body *b, const cs_Mover *m) {
  if (v3_len2(b->vel) > 0 && !m->carried) return b->vel;
  /* not placed since: none (the anchor's round trip through a scaled or
  ** turned placement is not exact, and gave riders of bodies that never
  ** moved a "carry" of rounding: found by an independent tester) */
  if (b->placed == m->ground_placed) return v3(0, 0, 0);
  return v3_sub(rider_place(b, m), m->pos);
}

/* {==================================================================
** The mover's gather cache
** ===================================================================*/

/* How much larger than a call's box the cached box is, in radii, every
** way; and how far it reaches ahead along the mover's last move, in moves
** (at most CACHE_AHEAD_MAX radii): a mover walking on gathers once every
** CACHE_AHEAD frames or so, and its cache holds the strip ahead of it
** rather than a square around it. */
#define CACHE_FAT 0.1
#define CACHE_AHEAD 10.0
#define CACHE_AHEAD_MAX 8.0

static int box_inside(cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 olo, cs_Vec3 ohi) {
  return lo.x >= olo.x && lo.y >= olo.y && lo.z >= olo.z &&
         hi.x <= ohi.x && hi.y <= ohi.y && hi.z <= ohi.z;
}

/* The box a gather for the call box [lo, hi] caches (see CACHE_FAT). The
** strip ahead is taken only when the mover starts inside its last cached
** box in this world: a mover placed anew (setPosition) gathers as on its
** first call, whatever its last move was. */
static void cache_box(const cs_World *w, const cs_Mover *m, cs_Vec3 *lo, cs_Vec3 *hi) {
  double r = v3_len(m->radius), fat = CACHE_FAT * r, l = v3_len(m->last_move);
  const cs_GatherCache *c = &m->cache;
  cs_Vec3 ahead = v3(0, 0, 0);
  if (l > 0 && l < HUGE_VAL && c->world == w->id && box_inside(m->pos, m->pos, c->lo, c->hi))
    ahead = v3_scale(m->last_move, l * CACHE_AHEAD <= CACHE_AHEAD_MAX * r ? CACHE_AHEAD
                                                                 : CACHE_AHEAD_MAX * r / l);
  *lo = v3_add(v3_sub(*lo, v3(fat, fat, fat)), v3_min(ahead, v3(0, 0, 0)));
  *hi = v3_add(v3_add(*hi, v3(fat, fat, fat)), v3_max(ahead, v3(0, 0, 0)));
}

/* A cache of this many triangles or fewer is swept cheaply whatever its
** box (cache_oversized is not asked: most caches, about 33 triangles on
** terrain_708). */
#define CACHE_FEW 256

/* A cache serves a call only while the mover is within this many radii of
** its frame's origin (c0: where the gather's call started), so that the
** call's e-space coordinates stay small, as every call's are: after one
** call back from 4e10 to the origin, whose box held the few triangles near
** the origin, every later call there worked 4e10 from its frame's origin
** and ended on a grid of 2^-16 (found by an independent tester). A cache's
** box reaches reach + CACHE_FAT + CACHE_AHEAD_MAX radii from c0 or so. */
#define CACHE_NEAR_C0 64.0

/* Is the cached box more than twice as wide, along some axis, as the box a
** gather for the call box [lo, hi] would cache (cache_box)? Then its sweeps
** would go over far more triangles than the call needs: one long call (a
** frame of a hitch, 100 m) left every later call of the mover sweeping its
** whole gather, 3 ms a call instead of 0.4 us (found by an independent
** tester). */
static int cache_oversized(const cs_Mover *m, cs_Vec3 lo, cs_Vec3 hi) {
  const cs_GatherCache *c = &m->cache;
  double r = v3_len(m->radius), extra = 2 * CACHE_FAT * r + CACHE_AHEAD_MAX * r;
  return c->hi.x - c->lo.x > 2 * (hi.x - lo.x + extra) ||
         c->hi.y - c->lo.y > 2 * (hi.y - lo.y + extra) ||
         c->hi.z - c->lo.z > 2 * (hi.z - lo.z + extra);
}

/* Does the cache hold every triangle a call in the box [lo, hi] may meet,
** mapped the way this call would map them? (Filters answer per call: no
** cache with one.) */
static int cache_usable(const cs_World *w, const cs_Mover *m, cs_Vec3 lo, cs_Vec3 hi) {
  const cs_GatherCache *c = &m->cache;
  return c->world == w->id && unchanged_since(w, c->stamp, c->lo, c->hi) &&
         c->mask == m->collides_with &&
         v3_len2(v3_sub(m->pos, c->c0)) <= CACHE_NEAR_C0 * CACHE_NEAR_C0 * v3_len2(m->radius) &&
         !m->filter && memcmp(&c->radius, &m->radius, sizeof c->radius) == 0 &&
         memcmp(c->q, m->q, sizeof c->q) == 0 && box_inside(lo, hi, c->lo, c->hi) &&
         (c->ntris <= CACHE_FEW || !cache_oversized(m, lo, hi));
}

/* Keeps the world's gathered triangles (for the box [lo, hi], mapped from
** es) in the mover's cache; on allocation failure (CS_ENOMEM) the cache is
** left as it was, and the call fails: a cache emptied by a failure the
** call absorbed moved the next calls' ellipsoid space, and the mover's
** later moves differed in their last bits from a run without it (found by
** an independent tester).
** When the mover and the call's scratch allocate alike (the Lua binding's
** state, the C default), the triangles move instead of being copied: the
** scratch's buffer becomes the cache's, and the cache's old one the
** scratch's for its next gather (sc->tris is then no longer the gathered
** set). */
static cs_Status cache_store(const cs_World *w, cs_CallScratch *sc, cs_Mover *m,
                             const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi) {
  cs_GatherCache *c = &m->cache;
  int moves = m->alloc.fn == sc->alloc.fn && m->alloc.ud == sc->alloc.ud;
  if (cs_grow(&m->alloc, (void **)&c->bodies, &c->capbodies, sc->ngbodies, sizeof(cs_Body *)) != CS_OK ||
      (!moves && cs_grow(&m->alloc, (void **)&c->tris, &c->captris, sc->ntris, sizeof(cs_TriES)) != CS_OK))
    return CS_ENOMEM;             /* (growing keeps what it held) */
  if (moves) {
    cs_TriES *t = c->tris;          /* nothing fails after this */
    size_t cap = c->captris;
    c->tris = sc->tris;
    c->captris = sc->captris;
    sc->tris = t;
    sc->captris = cap;
  } else if (sc->ntris) {
    memcpy(c->tris, sc->tris, sc->ntris * sizeof(cs_TriES));
  }
  if (sc->ngbodies) memcpy((void *)c->bodies, (const void *)sc->gbodies, sc->ngbodies * sizeof(cs_Body *));
  /* what one long call grew them to goes back (a crowd's hitch of a frame
  ** kept 1.4 GB for good: the same tester) */
  cs_shrink(&m->alloc, (void **)&c->tris, &c->captris, sc->ntris, sizeof(cs_TriES));
  cs_shrink(&sc->alloc, (void **)&sc->tris, &sc->captris, sc->ntris, sizeof(cs_TriES));
  c->ntris = sc->ntris;
  c->nonesided = sc->nonesided;
  c->nbodies = sc->ngbodies;
  c->world = w->id;
  c->stamp = w->stamp;
  c->mask = m->collides_with;
  c->c0 = es->c0;
  c->radius = m->radius;
  memcpy(c->q, m->q, sizeof c->q);
  c->lo = lo;
  c->hi = hi;
  return CS_OK;
}

/* }================================================================== */

/* {==================================================================
** Movers that meet (issue 14)
** ===================================================================*/

cs_Status cs_world_add_mover(cs_World *w, cs_Mover *m) {
  cs_Status s;
  if (w->busy) return cs_fail_status(&w->err, CS_EBUSY);
  if (m->in_batch)     /* (a C filter of another world's batch; the Lua ones refuse first) */
    return cs_fail(&w->err, CS_EBUSY, 1, "the mover is in a batch under way (collideAndSlideMany): "
                   "add it after the call");
  if (m->set)
    return cs_fail(&w->err, CS_EINVAL, 1, "the mover is in a world already (remove it there first)");
  s = cs_moverset_add(&w->movers, &w->alloc, m);
  if (s != CS_OK) return cs_fail_status(&w->err, s);
  /* a mover added where it stands is taken along from the next placement of
  ** its ground (found by an independent tester: one that landed before it
  ** was added stayed behind once) */
  if (live_ground_body(w, m)) w->bodies[m->ground_body->slot]->riders = 1;
  return cs_ok(&w->err);
}

cs_Status cs_world_remove_mover(cs_World *w, cs_Mover *m) {
  if (w->busy) return cs_fail_status(&w->err, CS_EBUSY);
  if (m->set != &w->movers) return cs_fail(&w->err, CS_EINVAL, 1, "the mover is not in this world");
  if (m->in_batch)     /* listed in another world's batch: its threads read m->set */
    return cs_fail(&w->err, CS_EBUSY, 1, "the mover is in a batch under way (collideAndSlideMany): "
                   "remove it after the call");
  cs_moverset_remove(&w->movers, m);
  return cs_ok(&w->err);
}

size_t cs_world_mover_count(const cs_World *w) { return w->movers.count; }

/* A gather of the movers near a call: the box and the mover left out. */
typedef struct MoverNear {
  cs_CallScratch *sc;
  const cs_Mover *m;      /* left out (the moving mover, or NULL) */
  unsigned mask;          /* what the others' layers must meet */
  cs_Vec3 lo, hi;
  size_t had;             /* sc->near[0..had): met already, left out */
  size_t n;
  cs_Status status;
} MoverNear;

/* Does o (not m, its layers meeting mask) have bounds that meet the box
** [lo, hi]? Its position is the one the set filed (seen_pos): during a
** batch a mover running on another thread is never near (cs_batch.c), and
** this reads nothing that thread writes. */
static int mover_meets_box(const cs_Mover *m, unsigned mask, const cs_Mover *o,
                           cs_Vec3 lo, cs_Vec3 hi) {
  cs_Vec3 h, p = o->seen_pos;
  if (o == m || !(o->layers & mask)) return 0;
  h = cs_mover_half_extents(o);
  /* (carrying last: a call in a batch sets it on the movers in its box
  ** only, which no call running at the same time reaches: take_riders) */
  return p.x + h.x >= lo.x && p.x - h.x <= hi.x && p.y + h.y >= lo.y &&
         p.y - h.y <= hi.y && p.z + h.z >= lo.z && p.z - h.z <= hi.z && !o->carrying;
}

/* Keeps o when it is near (cs_moverset_near's visitor). */
static int near_one_mover(void *ud, cs_Mover *o) {
  MoverNear *g = (MoverNear *)ud;
  cs_CallScratch *sc = g->sc;
  size_t i;
  if (!mover_meets_box(g->m, g->mask, o, g->lo, g->hi)) return 1;
  for (i = 0; i < g->had; i++)
    if (sc->near[i] == o) return 1;
  if (g->n == sc->capnear &&
      cs_grow(&sc->alloc, (void **)&sc->near, &sc->capnear, g->n + 1, sizeof(cs_Mover *)) != CS_OK) {
    g->status = CS_ENOMEM;
    return 0;
  }
  sc->near[g->n++] = o;
  return 1;
}

/* The near movers in the order of their slots in the set: the order a
** call meets them in never depends on the grid's history (so a batch on
** any number of threads gives the loop's bits). Insertion sort: a call
** meets a handful. */
static void sort_near(cs_Mover **a, size_t n) {
  size_t i, j;
  for (i = 1; i < n; i++) {
    cs_Mover *x = a[i];
    for (j = i; j > 0 && a[j - 1]->set_slot > x->set_slot; j--) a[j] = a[j - 1];
    a[j] = x;
  }
}

/* Maps o into the call's ellipsoid space, as sc->ells[k]. */
static void map_mover(cs_CallScratch *sc, size_t k, const cs_Mat3 *Ainv, const cs_ESpace *es,
                      const cs_Mover *o) {
  cs_Mat3 EB;
  int a, j;
  for (a = 0; a < 3; a++)                   /* E_B = R diag(r) */
    for (j = 0; j < 3; j++)
      EB.m[a][j] = (o->oriented ? o->rot.m[a][j] : (double)(a == j)) * v3_get(o->radius, j);
  cs_ellipsoid_es_init(&sc->ells[k], Ainv, es->c0, o->seen_pos, &EB);   /* = o->pos but in a batch */
  sc->ell_movers[k] = o;
}

/* Appends to sc->ells[0..*n) the added movers other than m (may be NULL)
** whose layers meet mask and whose bounds meet the box [lo, hi], other
** than the *met already in sc->near (an earlier gather of this call's),
** mapped into es (found through the movers' grid), each with m's mover
** filter's answer when ask is set (a move's; sweeps and overlaps never
** call a filter, which may belong to a move under way): so a call that
** gathers again in a wider box asks it once per mover all the same. Adds
** to *n the movers kept, to *met those met (sc->near). */
static cs_Status gather_more_movers(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, int ask,
                                    unsigned mask, const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi,
                                    size_t *met, size_t *n) {
  MoverNear g;
  cs_Mat3 Ainv;
  size_t k;
  int i, j;
  if (w->movers.count == 0) return CS_OK;
  g.sc = sc; g.m = m; g.mask = mask; g.lo = lo; g.hi = hi; g.had = g.n = *met;
  g.status = CS_OK;
  cs_moverset_near(&w->movers, lo, hi, near_one_mover, &g);
  if (g.status != CS_OK) return g.status;
  if (g.n == *met) return CS_OK;
  sort_near(sc->near + *met, g.n - *met);
  if (cs_grow(&sc->alloc, (void **)&sc->ells, &sc->capells, *n + g.n, sizeof(cs_EllipsoidES)) != CS_OK ||
      cs_grow(&sc->alloc, (void **)&sc->ell_movers, &sc->capellm, *n + g.n, sizeof(cs_Mover *)) != CS_OK ||
      cs_grow(&sc->alloc, (void **)&sc->ell_resp, &sc->capellr, *n + g.n, 1) != CS_OK)
    return CS_ENOMEM;
  /* E_A^-1 = diag(1/r) R^T */
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      Ainv.m[i][j] = (es->oriented ? es->R.m[j][i] : (double)(i == j)) * v3_get(es->inv_r, i);
  for (k = *met; k < g.n; k++) {
    const cs_Mover *o = sc->near[k];
    int resp = CS_RESPONSE_SLIDE;
    if (ask && m->mover_filter) {           /* asked once per mover a call meets */
      resp = m->mover_filter(m->mover_filter_ud, o);
      if (resp < 0) return CS_EABORT;
      if (resp == CS_RESPONSE_CROSS) continue;
    }
    sc->ell_resp[*n] = (unsigned char)resp;
    map_mover(sc, (*n)++, &Ainv, es, o);
  }
  *met = g.n;
  return CS_OK;
}

/* Gathers into sc->ells[0..*n) the movers gather_more_movers finds in the
** box [lo, hi]. */
static cs_Status gather_movers(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, int ask,
                               unsigned mask, const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi,
                               size_t *n) {
  size_t met = 0;
  *n = 0;
  return gather_more_movers(w, sc, m, ask, mask, es, lo, hi, &met, n);
}

/* The mover m stood on in its last call in this world, if it is still
** one of the world's movers (found by pointer and id: never read before). */
static const cs_Mover *live_ground_mover(const cs_World *w, const cs_Mover *m) {
  size_t i;
  if (!m->ground_mover) return NULL;
  for (i = 0; i < w->movers.count; i++)
    if (w->movers.items[i] == m->ground_mover)
      return rides(w, m, w->movers.items[i]) ? m->ground_mover : NULL;
  return NULL;
}

/* }================================================================== */

/* {==================================================================
** A push out of a body that takes the mover's riders along
** ===================================================================*/

/* A mover that a body moved into, its push out of the body blocked only by
** the movers standing on it, stayed in the body for good: they move only by
** its travel, and it could not travel (a stack placed on a lift that rose
** before the stack's first call, or turned once; found by an independent
** tester, round 28: the bottom mover 0.099 deep in the lift for 100 frames
** after it stopped). Now such a call moves its riders by its push first,
** when each one's way is clear, and then runs as before, its push free.
** Only the riders a call meets (sc->near) are asked, and only ways within
** two diameters of the mover (take_riders): what a call reads or writes, a
** batch orders it with (cs_batch.c), so the batch stays the loop's bits. */

/* Appends o to the list (*n of *cap, grown in sc's allocator); 0 when it
** cannot grow. */
static int list_add(cs_CallScratch *sc, cs_Mover ***list, size_t *n, size_t *cap, cs_Mover *o) {
  if (*n == *cap && cs_grow(&sc->alloc, (void **)list, cap, *n + 1, sizeof(cs_Mover *)) != CS_OK)
    return 0;
  (*list)[(*n)++] = o;
  return 1;
}

/* Is o the mover m or one of its riders found (sc->riders)? By pointer
** only: o may be a freed mover's (a ground mover's pointer). */
static int in_stack(const cs_CallScratch *sc, const cs_Mover *m, const cs_Mover *o) {
  size_t i;
  if (o == m) return 1;
  for (i = 0; i < sc->nriders; i++)
    if (sc->riders[i] == o) return 1;
  return 0;
}

/* Does one of the movers the call met (sc->ell_movers[0..n)) ride m? The
** cheap test first: most calls have no rider. */
static int rider_near(const cs_World *w, const cs_CallScratch *sc, const cs_Mover *m, size_t n) {
  size_t k;
  for (k = 0; k < n; k++)
    if (sc->ell_movers[k]->ground_mover == m && rides(w, sc->ell_movers[k], m)) return 1;
  return 0;
}

/* The movers among those the call met (sc->near[0..met)) that ride m at
** any depth (rides: their ground is m or one of them), into sc->riders; 0
** when the list cannot grow. */
static int find_riders(const cs_World *w, cs_CallScratch *sc, const cs_Mover *m, size_t met) {
  size_t i, before;
  sc->nriders = 0;
  do {
    before = sc->nriders;
    for (i = 0; i < met; i++) {
      cs_Mover *o = sc->near[i];
      if (!o->ground_mover || in_stack(sc, m, o) || !in_stack(sc, m, o->ground_mover) ||
          !rides(w, o, o->ground_mover))
        continue;
      if (!list_add(sc, &sc->riders, &sc->nriders, &sc->capriders, o)) return 0;
    }
  } while (sc->nriders > before);
  return 1;
}

/* The scratch for the riders' sweeps (made on the first need). */
static cs_CallScratch *aux_scratch(cs_CallScratch *sc) {
  if (!sc->aux && (sc->aux = (cs_CallScratch *)cs_malloc(&sc->alloc, sizeof *sc->aux)) != NULL)
    cs_scratch_init(sc->aux, &sc->alloc, NULL);
  return sc->aux;
}

/* The set without the riders among its movers (in the aux scratch's
** arrays): what the push out would be, were they not there. 0 when the
** arrays cannot grow. */
static int set_without_riders(cs_CallScratch *sc, cs_CallScratch *x, const cs_SlideSet *set,
                              cs_SlideSet *out) {
  size_t k, n = 0;
  if (cs_grow(&x->alloc, (void **)&x->ells, &x->capells, set->nells, sizeof(cs_EllipsoidES)) != CS_OK ||
      cs_grow(&x->alloc, (void **)&x->ell_movers, &x->capellm, set->nells, sizeof(cs_Mover *)) != CS_OK ||
      cs_grow(&x->alloc, (void **)&x->ell_resp, &x->capellr, set->nells, 1) != CS_OK)
    return 0;
  for (k = 0; k < set->nells; k++) {
    if (in_stack(sc, NULL, set->ell_movers[k])) continue;
    x->ells[n] = set->ells[k];
    x->ell_movers[n] = set->ell_movers[k];
    x->ell_resp[n++] = set->ell_resp[k];
  }
  *out = *set;
  out->ells = x->ells;
  out->ell_movers = x->ell_movers;
  out->ell_resp = x->ell_resp;
  out->nells = n;
  return 1;
}

/* Does m's push by d (its centre from p, e-space) meet one of its riders
** in the set? Else the call pushes it so with them where they are, as
** before. */
static int push_meets_riders(const cs_CallScratch *sc, const cs_SlideSet *set, cs_Vec3 p, cs_Vec3 d) {
  cs_Vec3 v = cs_espace_vec_to(set->es, d);
  cs_SweepHit h;
  size_t k;
  for (k = 0; k < set->nells; k++)
    if (in_stack(sc, NULL, set->ell_movers[k]) && cs_sweep_ellipsoid(p, v, &set->ells[k], 1.0, 0, &h))
      return 1;
  return 0;
}

/* May rider o of m go by d? No filter (a filter might let it pass what the
** sweep below does not ask it about, as carry_clear says); not moving (a
** filter's move, maybe in another world), nor in a batch other than m's; not
** pushed along since its last call, and d no longer than its diameter (a
** batch bounds its call from where it saw it: cs_batch.c);
** its box where it is and by d within [lo, hi]; no sensor near (its events
** are its calls' path only, as rider_way says); and its way, swept as a
** placement sweeps its riders (sweep_grown, the stack left out), clear. */
static int rider_free(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, const cs_Mover *o,
                      cs_Vec3 d, cs_Vec3 lo, cs_Vec3 hi) {
  /* g: sweep_grown's half skin, and the sweep's own margin (sweep_ellipsoid) */
  double l = v3_len(d), g = 0.5 * cs_mover_skin(o) + 1e-9 * (1 + v3_len(o->pos) + l);
  cs_Vec3 e = v3_add(cs_mover_half_extents(o), v3(g, g, g)), to = v3_add(o->pos, d);
  cs_Vec3 blo = v3_sub(v3_min(o->pos, to), e), bhi = v3_add(v3_max(o->pos, to), e);
  cs_Hit hit;
  if (has_filter(o) || o->moving || o->pushed ||
      (o->in_batch && !(m->in_batch && o->batch_stamp == m->batch_stamp)) ||
      l > 2 * fmax(fmax(o->radius.x, o->radius.y), o->radius.z) || !box_inside(blo, bhi, lo, hi) ||
      sensor_near_box(w, sc->shared, o->collides_with, blo, bhi))
    return 0;
  return sweep_grown(w, sc->aux, o, NULL, d, &hit) == 0;
}

/* Can every rider go by d (each with the whole stack left out of the
** sweeps: they all go alike)? */
static int riders_free(cs_World *w, cs_CallScratch *sc, cs_Mover *m, cs_Vec3 d, cs_Vec3 lo, cs_Vec3 hi) {
  size_t i;
  int ok = 1;
  m->carrying = CARRY_RIDES;
  for (i = 0; i < sc->nriders; i++) sc->riders[i]->carrying = CARRY_RIDES;
  for (i = 0; i < sc->nriders && ok; i++) ok = rider_free(w, sc, m, sc->riders[i], d, lo, hi);
  for (i = 0; i < sc->nriders; i++) sc->riders[i]->carrying = 0;
  m->carrying = 0;
  return ok;
}

/* Moves m's riders by d. Their travel stays: a mover standing on one of
** them that m's call did not meet (so not taken along) is not carried by d
** at its next call, which a batch planned before the push (its start, its
** reach box) would not know: the batch gave other bits than the loop
** (found by an independent tester, round 28: a rider pushed sideways from
** under the mover on it, which its next call then carried 0.67 m in the
** loop and not in the batch). Such a mover's support went from under it.
** The riders standing on m saw its travel, which its call adds d to: they
** count d as carried already (ground_mover_travel), so that their next call
** does not carry them by d again; those standing on a rider taken along
** see no travel of it. The set's copies of them follow. Filed now, or by
** the batch after the wave (sc->pushed, reserved by the caller). */
static void move_riders(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, cs_SlideSet *set,
                        cs_Vec3 d) {
  cs_Vec3 v = cs_espace_vec_to(set->es, d);
  size_t i;
  for (i = 0; i < sc->nriders; i++) {
    cs_Mover *o = sc->riders[i];
    sc->undo[2 * i] = o->pos;
    sc->undo[2 * i + 1] = o->ground_mover_travel;
    o->pos = v3_add(o->pos, d);
    if (o->ground_mover == m) o->ground_mover_travel = v3_add(o->ground_mover_travel, d);
    o->pushed = 1;
    if (sc->shared) sc->pushed[sc->npushed++] = o;
    else cs_world_file_mover(w, o);
  }
  for (i = 0; i < set->nells; i++)     /* (the set's arrays are sc's own) */
    if (in_stack(sc, NULL, set->ell_movers[i])) sc->ells[i].c = v3_add(sc->ells[i].c, v);
  sc->riders_moved = 1;
}

/* m's call failed after its push took the riders along (move_riders): they
** go back, as a failed call changes nothing (found by an independent
** tester: an allocation that failed in the slide left the rider moved).
** In a batch they are filed after the wave where they are, as before. */
static void put_riders_back(cs_World *w, cs_CallScratch *sc) {
  size_t i;
  for (i = 0; i < sc->nriders; i++) {
    cs_Mover *o = sc->riders[i];
    o->pos = sc->undo[2 * i];
    o->ground_mover_travel = sc->undo[2 * i + 1];
    o->pushed = 0;                        /* (rider_free took none pushed) */
    if (!sc->shared) cs_world_file_mover(w, o);
  }
}

/* Before m's call on set, when m starts in something (not known clear)
** with movers near (the caller's test): when some of them ride it, and its
** push out without them (cs_slide_push_out) would meet them, the riders go
** by that push when they all may (riders_free) within two diameters (m's)
** of m's box: a batch orders the call with every mover there, as the call
** starts where the batch saw it (cs_batch.c, reach_boxes: so a mover pushed
** along since its last call takes none along). A failure to allocate
** leaves them. */
static void take_riders(cs_World *w, cs_CallScratch *sc, cs_Mover *m, cs_SlideSet *set, size_t met,
                        double diameter) {
  cs_CallScratch *x;
  cs_SlideSet bare;
  cs_Vec3 d, h = v3_add(cs_mover_half_extents(m), v3(2 * diameter, 2 * diameter, 2 * diameter));
  if (m->set != &w->movers || m->pushed || has_filter(m) || !rider_near(w, sc, m, set->nells))
    return;
  if (!find_riders(w, sc, m, met) || !(x = aux_scratch(sc)) || !set_without_riders(sc, x, set, &bare) ||
      !cs_slide_push_out(m, &bare, &d) ||
      !push_meets_riders(sc, set, cs_espace_to(set->es, m->pos), d) ||
      (sc->shared && cs_grow(&sc->alloc, (void **)&sc->pushed, &sc->cappushed,
                             sc->npushed + sc->nriders, sizeof(cs_Mover *)) != CS_OK) ||
      cs_grow(&sc->alloc, (void **)&sc->undo, &sc->capundo, 2 * sc->nriders, sizeof(cs_Vec3)) != CS_OK ||
      !riders_free(w, sc, m, d, v3_sub(m->pos, h), v3_add(m->pos, h)))
    return;
  move_riders(w, sc, m, set, d);
}

/* Files the riders a batch's calls moved on thread scratch sc (cs_batch.c,
** between its waves). */
void cs_world_file_pushed(cs_World *w, cs_CallScratch *sc) {
  size_t i;
  for (i = 0; i < sc->npushed; i++) cs_world_file_mover(w, sc->pushed[i]);
  sc->npushed = 0;
}

/* }================================================================== */

void cs_world_file_mover(cs_World *w, cs_Mover *m) {
  if (!m->set) return;
  cs_moverset_moved(m->set, m);
  if (m->has_ground && m->ground_body && m->ground_body->slot < w->nbodies &&
      w->bodies[m->ground_body->slot] == m->ground_body)
    w->bodies[m->ground_body->slot]->riders = 1;   /* (the world's own, not const) */
}

/* The slide on one gathered set; a call that ends clear lets the next one
** skip the overlap search while the mover and this world stay unchanged. */
static cs_Status slide(cs_World *w, cs_CallScratch *sc, cs_Mover *m, cs_SlideSet *set) {
  int ends_clear = 0;
  cs_Status s;
  cs_Vec3 before = m->pos;
  set->contacts = &sc->contacts;
  set->alloc = &sc->alloc;
  set->last_safe = m->has_safe && m->world == w->id ? &m->last_safe : NULL;
  /* its side of the bodies' triangles holds while none moved since, and
  ** the mover was not teleported (a teleport is taken as meant) */
  set->side_ref = set->last_safe && m->safe_version == w->version ? &m->last_safe : NULL;
  set->motion = m->world == w->id && !m->placed_anew;
  set->since = m->call_version;
  /* the path is recorded for the sensors the mover tracks, and for those
  ** it was inside of and no longer tracks (it leaves them at the start) */
  set->world = w->id;
  if ((sc->shared ? any_sensor(w, m->collides_with) : cs_world_prepare_sensors(w, m->collides_with)) ||
      cs_mover_inside_world(m, w->id)) {
    set->sensors = w->sensors;
    set->nsensors = w->nsensors;
    set->path = &sc->sensor;
  }
  s = cs_slide_move(m, set, &ends_clear);
  if (s == CS_ERANGE)
    return cs_fail(sc->err, s, 1, "the move leaves the range of doubles; the mover is left as it was");
  if (s != CS_OK) return cs_fail_status(sc->err, s);
  m->last_move = v3_sub(m->pos, before);
  m->travel = v3_add(m->travel, m->last_move);
  m->carried = 0;
  m->pushed = 0;
  if (!sc->shared) cs_world_file_mover(w, m);
  m->world = w->id;
  m->call_version = w->version;
  m->clean = ends_clear;
  m->clean_stamp = w->stamp;
  if (ends_clear) m->safe_version = w->version;
  return CS_OK;
}

/* The call's slide, after take_riders (when it was asked): a failure puts
** the riders it took along back. */
static cs_Status slide_taking(cs_World *w, cs_CallScratch *sc, cs_Mover *m, cs_SlideSet *set) {
  cs_Status s = slide(w, sc, m, set);
  if (s != CS_OK && sc->riders_moved) put_riders_back(w, sc);
  sc->riders_moved = 0;
  return s;
}

/* A call's reach (world units: its moves, and for a move the step height,
** snap distance and skin too) must stay within CS_MAX_COORD and within
** CS_MAX_COORD of the mover's smallest radius, so that nothing mapped into
** its ellipsoid space can overflow. arg: the argument to blame (0: no
** argument); why: what takes it there when no argument does, with its
** verb ("... puts"; NULL: the moves together). */
static cs_Status check_reach(cs_Error *e, int arg, double reach, const cs_Vec3 *r,
                             const char *why) {
  double rmin = fmin(fmin(r->x, r->y), r->z);
  char b[CS_NUMBUF], c[CS_NUMBUF];
  if (reach <= CS_MAX_COORD && reach / rmin <= CS_MAX_COORD) return CS_OK;
  /* the settings or the ground's carry: said, as a stepHeight of 1e30 is
  ** taken by its setter and then refuses every move (each message fits
  ** 116 bytes with any two numbers, and cs_Error's 160 with the batch's
  ** "mover i: " before it: found cut at 119 by an independent tester) */
  if (why)
    return cs_fail(e, CS_ERANGE, 0, "%s the move out of range (it reaches %s, %s radii)",
                   why, cs_fmtnum(b, reach), cs_fmtnum(c, reach / rmin));
  return cs_fail(e, CS_ERANGE, arg,
                 "the move is out of range: it reaches %s (%s radii of the mover), more than 1e30",
                 cs_fmtnum(b, reach), cs_fmtnum(c, reach / rmin));
}

/* A move of the given reach from p stays within CS_MAX_COORD. */
static cs_Status check_end(cs_Error *e, const cs_Vec3 *p, double reach) {
  char b[CS_NUMBUF], r[CS_NUMBUF];
  int i;
  for (i = 0; i < 3; i++)
    if (fabs(v3_get(*p, i)) + reach > CS_MAX_COORD)
      return cs_fail(e, CS_ERANGE, 1, "the move is out of range: from %s = %s it reaches %s farther, "
                     "past 1e30", cs_names_xyz[i], cs_fmtnum(b, v3_get(*p, i)), cs_fmtnum(r, reach));
  return CS_OK;
}

/* A move from a filter, in another world, of a mover that a batch under way
** moves or reads (listed, or added to its world) is refused as its setters
** are (cs_mover.c): the batch's threads read it, and a filter's move took
** it away before the movers listed ahead of the filter had met it, on 2
** threads or more only (found by an independent tester). */
cs_Status cs_world_batch_refusal(cs_Error *e, const cs_Mover *m) {
  return cs_fail(e, CS_EBUSY, 0, m->in_batch
                 ? "the mover is in a batch under way (collideAndSlideMany): move it after the call"
                 : "the mover is added to a world whose batch is under way (collideAndSlideMany): "
                   "move it after the call");
}

/* A call's reach (world units around the mover) within CS_MAX_COORD, and
** within CS_MAX_COORD of the mover's smallest radius (false for NaN)? */
static int reach_within(const cs_Mover *m, double reach) {
  return !(reach > CS_MAX_COORD) && reach / cs_mover_min_radius(m) <= CS_MAX_COORD;
}

/* Does the mover's place, that reach away along any axis, stay within
** CS_MAX_COORD? */
static int end_within(const cs_Mover *m, double reach) {
  return !(fabs(m->pos.x) + reach > CS_MAX_COORD || fabs(m->pos.y) + reach > CS_MAX_COORD ||
           fabs(m->pos.z) + reach > CS_MAX_COORD);
}

cs_Status cs_world_check_move(const cs_World *w, cs_Error *e, const cs_Mover *m,
                              const cs_Vec3 *walk, const cs_Vec3 *gravity, cs_MoveStart *st) {
  double reach;
  cs_Status s;
  /* (NULL, as gravity may be: a segfault; found by an independent tester) */
  if (!walk) return cs_fail(e, CS_EINVAL, 1, "walk must not be NULL ({0, 0, 0} for none)");
  if ((s = cs_check_vec(e, 1, VXYZ, walk)) != CS_OK) return s;
  if (gravity && (s = cs_check_vec(e, 4, GXYZ, gravity)) != CS_OK) return s;
  st->ground = live_ground_body(w, m);
  st->ground_mover = st->ground ? NULL : live_ground_mover(w, m);
  /* a ground mover carries by how far its calls took it since the rider's
  ** last call: once per move (its last move at every call carried a rider
  ** that called more often, across the still carrier and off it: found by
  ** an independent tester), and not by a teleport */
  st->carry = st->ground ? ground_carry(st->ground, m)
            : st->ground_mover ? v3_sub(st->ground_mover->travel, m->ground_mover_travel)
            : v3(0, 0, 0);
  /* No pass travels farther than the moves it is given (DESIGN.md, Gather):
  ** a slide only shortens them; a step adds twice its height; snapping and
  ** the ground probe reach down a little more. */
  reach = v3_len(*walk) + (gravity ? v3_len(*gravity) : 0) + v3_len(st->carry)
        + 2 * m->step_height + (m->snap_distance > 0 ? cs_mover_snap_reach(m, *walk) : 0.0)
        + 4 * cs_mover_skin(m) + 1e-9;
  if (!reach_within(m, reach)) {
    double lw = v3_len(*walk), lg = gravity ? v3_len(*gravity) : 0;
    double settings = 2 * m->step_height + m->snap_distance + 4 * cs_mover_skin(m) + 1e-9;
    /* blame the walk or the gravity when it alone is too long, else the
    ** ground's carry or the settings, else the moves together */
    if (check_reach(e, 1, lw, &m->radius, NULL) != CS_OK) return CS_ERANGE;
    if (check_reach(e, 4, lg, &m->radius, NULL) != CS_OK) return CS_ERANGE;
    if (check_reach(e, 0, v3_len(st->carry), &m->radius,
                    "its ground's carry (platform) puts") != CS_OK ||
        check_reach(e, 0, settings, &m->radius, "stepHeight, snapDistance and skin put") != CS_OK)
      return CS_ERANGE;
    return check_reach(e, 0, reach, &m->radius, NULL);
  }
  /* nor may it end past CS_MAX_COORD, where the mover's own setter would
  ** refuse its place (x = 9e29 walked 9e29 three times reached 3.6e30) */
  if (!end_within(m, reach)) return check_end(e, &m->pos, reach);
  st->margin = reach;
  return CS_OK;
}


/* The world length the way out of the movers of sc->ells[0..n) that the
** mover (its diameter given) overlaps at its start (es's origin) may take:
** through each of them, at most its diameter and the mover's. 0: none. */
static double way_out_of_movers(const cs_CallScratch *sc, size_t n, double diameter) {
  double out = 0;
  size_t k;
  for (k = 0; k < n; k++)
    if (cs_ellipsoid_distance(&sc->ells[k], v3(0, 0, 0), NULL, NULL) < 1) {
      cs_Vec3 r = sc->ell_movers[k]->radius;
      out += 2 * fmax(fmax(r.x, r.y), r.z) + diameter;
    }
  return out;
}

/* A start inside other movers: the reach (*margin) grows by the way out of
** them, and the movers in the wider box join sc->ells[0..*n) (each asked
** once: gather_more_movers). A start wholly inside a larger mover needs
** more than a diameter of its own to leave it, and stayed stuck there for
** good (found by an independent tester: a sphere of radius 0.3 put at the
** centre of an added one of radius 1). */
static cs_Status widen_for_movers(cs_World *w, cs_CallScratch *sc, const cs_Mover *m,
                                  const cs_ESpace *es, double diameter, double *margin,
                                  size_t *met, size_t *n) {
  cs_Vec3 lo, hi;
  double out = way_out_of_movers(sc, *n, diameter);
  if (out == 0 || !reach_within(m, *margin + out) || !end_within(m, *margin + out)) return CS_OK;
  *margin += out;
  ellipsoid_box(es, *margin, &lo, &hi);
  return gather_more_movers(w, sc, m, 1, m->collides_with, es, lo, hi, met, n);
}

/* The move proper, its arguments checked; see cs_world_move. */
static cs_Status move_in(cs_World *w, cs_CallScratch *sc, cs_Mover *m, cs_Vec3 walk,
                         const cs_Vec3 *gravity, const cs_MoveStart *st) {
  cs_ESpace es;
  cs_SlideSet set;
  cs_Vec3 lo, hi;
  double diameter, plain, margin = st->margin;
  size_t nells = 0, met = 0, k;
  cs_Status s;
  int clear;
  /* the filter as the call began: one that clears itself from its first
  ** answer left a set gathered without the triangles it crossed, which the
  ** call then kept as the mover's unfiltered cache (a mover fell through its
  ** floor for good: found by an independent tester) */
  cs_FilterFn filter = m->filter;
  void *filter_ud = m->filter_ud;
  cs_espace_init(&es, m->pos, m->radius, &m->rot, m->oriented);
  /* A start not known to be clear may need pushing out of something: room
  ** for that too, a diameter, so the push never lands in ungathered
  ** geometry (depenetration is capped to the gathered reach). */
  diameter = 2 * fmax(fmax(m->radius.x, m->radius.y), m->radius.z);
  /* the other movers near, once, in the widest box the call may need (in
  ** es from the start); they move between calls, so a start that overlaps
  ** one of them is not known clear */
  ellipsoid_box(&es, margin + diameter, &lo, &hi);
  clear = m->clean && m->world == w->id && !filter && unchanged_since(w, m->clean_stamp, lo, hi);
  if ((s = gather_more_movers(w, sc, m, 1, m->collides_with, &es, lo, hi, &met, &nells)) != CS_OK)
    return cs_fail_status(sc->err, s);
  for (k = 0; clear && k < nells; k++)    /* the centre is es's origin */
    if (cs_ellipsoid_distance(&sc->ells[k], v3(0, 0, 0), NULL, NULL) < 1) clear = 0;
  /* one-sided triangles let a move end in them (passed from behind): the
  ** call pushes it out at its end (cs_slide.c), as far as a diameter */
  if (!clear || w->nonesided) margin += diameter;
  plain = margin;
  if (!clear && nells &&
      (s = widen_for_movers(w, sc, m, &es, diameter, &margin, &met, &nells)) != CS_OK)
    return cs_fail_status(sc->err, s);
  memset(&set, 0, sizeof set);
  set.es = &es;
  set.reach = margin;
  set.push_reach = margin > plain ? margin : 0;   /* widened for movers */
  set.known_clear = clear;
  set.walk = walk;
  set.gravity = gravity;
  set.carry = st->carry;
  set.carrier = st->ground;
  set.carrier_mover = st->ground_mover;
  set.ells = sc->ells;
  set.ell_movers = sc->ell_movers;
  set.ell_resp = sc->ell_resp;
  set.nells = nells;
  ellipsoid_box(&es, margin, &lo, &hi);
  if (cache_usable(w, m, lo, hi)) {
    /* the cache's space starts at its own c0: the movers follow */
    cs_Vec3 shift;
    cs_espace_init(&es, m->cache.c0, m->radius, &m->rot, m->oriented);
    shift = cs_espace_vec_to(&es, v3_sub(m->pos, m->cache.c0));
    for (k = 0; k < nells; k++) sc->ells[k].c = v3_add(sc->ells[k].c, shift);
    m->cache.stamp = w->stamp;            /* (unchanged in its box since) */
    set.tris = m->cache.tris;
    set.ntris = m->cache.ntris;
    set.nonesided = m->cache.nonesided;
    set.bodies = m->cache.bodies;
    if (set.nells && !clear) take_riders(w, sc, m, &set, met, diameter);   /* (cheap test first) */
    return slide_taking(w, sc, m, &set);
  }
  if (!filter) cache_box(w, m, &lo, &hi);
  s = cs_world_gather(w, sc, &es, lo, hi, m->collides_with, filter, filter_ud);
  if (s != CS_OK) return cs_fail_status(sc->err, s);
  set.tris = sc->tris;
  set.ntris = sc->ntris;
  set.nonesided = sc->nonesided;
  set.bodies = sc->gbodies;
  if (!filter) {                     /* the slide works on the cache's set */
    if ((s = cache_store(w, sc, m, &es, lo, hi)) != CS_OK)
      return cs_fail_status(sc->err, s);
    set.tris = m->cache.tris;
    set.bodies = m->cache.bodies;
  }
  if (set.nells && !clear) take_riders(w, sc, m, &set, met, diameter);
  return slide_taking(w, sc, m, &set);
}

/* move_in, with the mover marked as moving meanwhile: a placement from its
** filter must not take it along (carry_riders), and its own setters refuse
** (cs_mover.c: a radius grown from its filter left it in the floor). */
static cs_Status move(cs_World *w, cs_CallScratch *sc, cs_Mover *m, cs_Vec3 walk,
                      const cs_Vec3 *gravity, const cs_MoveStart *st) {
  cs_Status s;
  int filtered = m->filter != NULL;
  m->moving = 1;
  s = move_in(w, sc, m, walk, gravity, st);
  m->moving = 0;
  /* a filtered call ends clear of what its filter let it meet only: the
  ** next call, maybe without the filter, must not trust it (a mover whose
  ** filter crossed the floor and then cleared itself stayed in the floor) */
  if (filtered) m->clean = 0;
  return s;
}

cs_Status cs_world_move(cs_World *w, cs_CallScratch *sc, cs_Mover *m, const cs_Vec3 *walk,
                        const cs_Vec3 *gravity, const cs_MoveStart *st) {
  cs_MoveStart fresh;
  if (!st) {
    cs_Status s = cs_world_check_move(w, sc->err, m, walk, gravity, &fresh);
    if (s != CS_OK) return s;
    st = &fresh;
  }
  return move(w, sc, m, *walk, gravity, st);
}

cs_Status cs_world_collide_and_slide(cs_World *w, cs_Mover *m, const cs_Vec3 *walk,
                                     const cs_Vec3 *gravity) {
  cs_MoveStart st;
  cs_Status s;
  if (w->busy) return cs_fail_status(&w->err, CS_EBUSY);
  if ((s = cs_world_check_batch_free(&w->err, m)) != CS_OK) return s;
  if ((s = cs_world_check_move(w, &w->err, m, walk, gravity, &st)) != CS_OK) return s;
  w->busy = 1;
  w->last_call = w->version;
  cs_world_sync(w);
  s = move(w, &w->scratch, m, *walk, gravity, &st);
  w->busy = 0;
  return s;
}

/* Maps an ellipsoid-space sweep hit back to world space. */
static void hit_to_world(const cs_CallScratch *sc, const cs_ESpace *es, const cs_TriES *te,
                         const cs_SweepHit *sh, cs_Hit *hit) {
  hit->t = sh->t;
  hit->point = cs_espace_from(es, sh->point);
  hit->normal = cs_espace_normal_from(es, sh->normal);
  hit->body = sc->gbodies[te->body];
  hit->triangle = te->tri;
  hit->tag = te->tag;
  hit->mover = NULL;
}

/* The first hit of the sweep by vel (e-space; the whole way is t in [0, 1])
** among what lies along the part of the way t in [ta, tb]: the triangles
** and added movers in the box the shape sweeps through there. *i and *km
** (-1: none) name the triangle or mover of the hit, which is the first of
** the whole way when it comes before tb: whatever the sweep meets before tb
** lies in the boxes of the parts up to tb. A status. */
static cs_Status sweep_part(cs_World *w, cs_CallScratch *sc, const cs_Mover *self,
                            const cs_Body *hidden, const cs_ESpace *es, const SweepPath *way,
                            cs_Vec3 vel, double ta, double tb, unsigned mask, cs_SweepHit *sh,
                            long *i, long *km) {
  SweepPath path;
  cs_Vec3 lo, hi;
  size_t k, nells = 0;
  path.o = v3_madd(way->o, way->d, ta);
  path.d = v3_scale(way->d, tb - ta);
  path.h = way->h;
  if (ta == 0 && tb == 1) path.d = way->d;       /* (the whole way: its own doubles) */
  lo = v3_sub(path.o, path.h);
  hi = v3_add(path.o, path.h);
  lo = v3_min(lo, v3_add(lo, path.d));
  hi = v3_max(hi, v3_add(hi, path.d));
  /* and of the triangles in it, those along the way, when the box holds
  ** far more than the way (a long diagonal's): that test costs the short
  ** sweeps more than it saves them */
  if (gather(w, sc, es, lo, hi, box_holds_far_more(&path) ? &path : NULL, mask, NULL, NULL) != CS_OK ||
      gather_movers(w, sc, self, 0, mask, es, lo, hi, &nells) != CS_OK)
    return CS_ENOMEM;
  for (k = 0; hidden && k < sc->ntris; k++)
    if (sc->gbodies[sc->tris[k].body] == hidden) sc->tris[k].response = CS_RESPONSE_CROSS;
  *km = -1;
  *i = cs_sweep_triangles(v3(0, 0, 0), vel, sc->tris, sc->ntris, tb, CS_SWEEP_ONCE, sh);
  for (k = 0; k < nells; k++) {            /* an added mover met earlier wins */
    cs_SweepHit eh;
    if (cs_sweep_ellipsoid(v3(0, 0, 0), vel, &sc->ells[k], *i >= 0 || *km >= 0 ? sh->t : tb, 0, &eh) &&
        (*i < 0 && *km < 0 ? 1 : eh.t < sh->t)) {
      *sh = eh;
      *km = (long)k;
    }
  }
  return CS_OK;
}

/* A sweep longer than this many times the shape's half extent goes by
** parts, each twice as long as the one before, from a first part of that
** length: a sweep of 10,000 m through a wall a metre away gathered every
** triangle along the 10,000 m first (1.3 ms for 10,000 walls: found by an
** independent tester), now those of the parts up to its hit. */
#define SWEEP_PART 8.0

/* The sweep of any ellipsoid, leaving out mover self and the triangles of
** body hidden (NULL: none); darg is the number of d.x among the call's
** numbers (the mover's sweep has only d). */
static int sweep_ellipsoid(cs_World *w, cs_CallScratch *sc, const cs_Mover *self,
                           const cs_Body *hidden, cs_Vec3 p, cs_Vec3 r, const double q[4],
                           cs_Vec3 d, unsigned mask, cs_Hit *hit, int darg) {
  cs_ESpace es;
  cs_Mat3 R = m3_identity();
  cs_SweepHit sh;
  SweepPath way;
  cs_Vec3 vel;
  double margin, hmax, len, ta = 0, part;
  long i = -1, km = -1;
  int oriented = q && !(q[0] == 0 && q[1] == 0 && q[2] == 0);
  int own = sc == &w->scratch;   /* the world's scratch: not while a move holds it */
  if (own && w->busy) return -(int)cs_fail_status(sc->err, CS_EBUSY);
  if (cs_check_vec(sc->err, darg, DXYZ, &d) != CS_OK ||
      check_reach(sc->err, darg, v3_len(d), &r, NULL) != CS_OK)
    return -(int)sc->err->status;
  if (oriented) {
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), qn[4];
    int c;
    for (c = 0; c < 4; c++) qn[c] = q[c] / l;
    R = m3_from_quat(qn);
  }
  cs_espace_init(&es, p, r, &R, oriented);
  /* the box of the swept volume: the ellipsoid's box along the way */
  margin = 1e-9 * (1 + v3_len(p) + v3_len(d));
  way.o = p;
  way.d = d;
  way.h = v3_add(cs_espace_half_extents(&es), v3(margin, margin, margin));
  hmax = fmax(fmax(way.h.x, way.h.y), way.h.z);
  len = v3_len(d);
  part = len > SWEEP_PART * hmax ? SWEEP_PART * hmax / len : 1.0;
  vel = cs_espace_vec_to(&es, d);
  if (own) w->busy = 1;
  for (;;) {
    double tb = ta + part >= 0.5 ? 1.0 : ta + part;    /* (the last part takes the rest) */
    if (sweep_part(w, sc, self, hidden, &es, &way, vel, ta, tb, mask, &sh, &i, &km) != CS_OK) {
      if (own) w->busy = 0;
      return -(int)cs_fail_status(sc->err, CS_ENOMEM);
    }
    if (i >= 0 || km >= 0 || tb == 1.0) break;
    ta = tb;
    part *= 2;
  }
  if (own) w->busy = 0;
  if (km >= 0) {
    /* a start with the centre inside the other mover: the distance's normal
    ** is the other's outward one, and the sweep's points toward the swept
    ** centre (es's origin; it pointed away: found by an independent tester) */
    if (sh.t == 0 && v3_dot(sh.normal, sh.point) > 0) sh.normal = v3_neg(sh.normal);
    hit->t = sh.t;
    hit->point = cs_espace_from(&es, sh.point);
    hit->normal = cs_espace_normal_from(&es, sh.normal);
    hit->body = NULL;
    hit->triangle = 0;
    hit->tag = 0;
    hit->mover = sc->ell_movers[km];
    return 1;
  }
  if (i < 0) return 0;
  hit_to_world(sc, &es, &sc->tris[i], &sh, hit);
  return 1;
}

int cs_world_sweep_ellipsoid(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                             const cs_Vec3 *d, unsigned mask, cs_Hit *hit) {
  if (cs_check_ellipsoid(&w->err, p, r, q) != CS_OK) return -(int)w->err.status;
  return sweep_ellipsoid(w, &w->scratch, NULL, NULL, *p, *r, q, *d, mask, hit, 11);
}

int cs_world_sweep_in(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, const cs_Vec3 *d,
                      cs_Hit *hit) {
  int r;
  /* the movers' grid too, which the sweep would build at the same time as
  ** others read it (found by an independent tester, under TSan) */
  if (sc->shared && cs_world_pending(w))
    return -(int)cs_fail(sc->err, CS_EINVAL, 0,
                         "the world has changes pending: call cs_world_prepare first");
  if (sc->busy) return -(int)cs_scratch_busy(sc);
  sc->busy = 1;
  r = sweep_ellipsoid(w, sc, m, NULL, m->pos, m->radius, m->oriented ? m->q : NULL, *d,
                      m->collides_with, hit, 1);
  sc->busy = 0;
  return r;
}

int cs_world_sweep(cs_World *w, const cs_Mover *m, const cs_Vec3 *d, cs_Hit *hit) {
  return cs_world_sweep_mask(w, m, d, m->collides_with, hit);
}

int cs_world_sweep_mask(cs_World *w, const cs_Mover *m, const cs_Vec3 *d, unsigned mask,
                        cs_Hit *hit) {
  return sweep_ellipsoid(w, &w->scratch, m, NULL, m->pos, m->radius, m->oriented ? m->q : NULL, *d,
                         mask, hit, 1);
}

/* }================================================================== */

/* {==================================================================
** Sensors: the world's list, their placement, and the tracking of a
** mover's path through them (the geometry is cs_sensor.c's)
** ===================================================================*/

static void sensors_free(cs_World *w) {
  size_t i;
  for (i = 0; i < w->nsensors; i++) cs_free(&w->alloc, w->sensors[i], sizeof(cs_Sensor));
  cs_free(&w->alloc, w->sensors, w->capsensors * sizeof(cs_Sensor *));
}

cs_Status cs_world_add_sensor(cs_World *w, cs_Mesh *mesh, cs_Sensor **out,
                              unsigned bad_edge[2], int *uses) {
  cs_Sensor *sn;
  cs_Mat3 id = m3_identity();
  uint32_t bad[2] = {0, 0};
  int u = 0;
  cs_Status s;
  *out = NULL;
  if (w->busy) return cs_fail_status(&w->err, CS_EBUSY);
  s = cs_mesh_check_closed(mesh, &w->alloc, bad, &u);
  if (bad_edge) { bad_edge[0] = bad[0]; bad_edge[1] = bad[1]; }
  if (uses) *uses = u;
  if (s == CS_EINVAL && u == 0)
    return cs_fail(&w->err, s, 1, "mesh has no triangles (a sensor needs a closed mesh)");
  if (s == CS_EINVAL)
    /* (within the header's 159 bytes: the longer words ran past it and were
    ** cut; found by an independent tester) */
    /* (vertices from 1, as the header's convention and the Lua bindings
    ** say; it said "edge 0-1 (0-based)": an independent tester) */
    return cs_fail(&w->err, s, 1, "mesh is not closed: the edge from vertex %lu to vertex %lu has "
                   "%d triangle%s, not two wound opposite ways (shared vertices, one winding)",
                   (unsigned long)bad[0] + 1, (unsigned long)bad[1] + 1, u, u == 1 ? "" : "s");
  if (s == CS_OK && w->nsensors == w->capsensors)
    s = cs_grow(&w->alloc, (void **)&w->sensors, &w->capsensors, w->nsensors + 1,
                sizeof(cs_Sensor *));
  if (s == CS_OK && !(sn = cs_malloc(&w->alloc, sizeof *sn))) s = CS_ENOMEM;
  if (s != CS_OK) return cs_fail_status(&w->err, s);
  memset(sn, 0, sizeof *sn);
  sn->world = w;
  sn->world_id = w->id;
  sn->id = cs_new_id();
  sn->layers = 1;
  sn->slot = w->nsensors;
  sn->place.mesh = mesh;
  body_set_linear(&sn->place, &id, &id, v3(0, 0, 0));
  w->sensors[w->nsensors++] = sn;
  *out = sn;
  return CS_OK;
}

void cs_world_remove_sensor(cs_World *w, cs_Sensor *sn) {
  size_t slot = sn->slot;
  if (sn->world != w || slot >= w->nsensors || w->sensors[slot] != sn) return;
  if (w->busy) {
    cs_fail(&w->err, CS_EBUSY, 0, "remove_sensor: the world is busy (inside one of its filters)");
    return;
  }
  w->sensors[slot] = w->sensors[--w->nsensors];
  w->sensors[slot]->slot = slot;
  cs_free(&w->alloc, sn, sizeof *sn);
}

size_t cs_world_sensor_count(const cs_World *w) { return w->nsensors; }

cs_Status cs_sensor_set_transform(cs_Sensor *sn, const cs_Vec3 *t, const double q[4],
                                  const cs_Vec3 *scale) {
  if (sn->world->batching) return refuse_in_batch(sn->world);
  return set_transform(&sn->place, &sn->world->err, t, q, scale);
}
cs_Status cs_sensor_set_matrix(cs_Sensor *sn, const double m[16]) {
  if (sn->world->batching) return refuse_in_batch(sn->world);
  return set_matrix(&sn->place, &sn->world->err, m);
}
void cs_sensor_get_matrix(const cs_Sensor *sn, double m[16]) { cs_body_get_matrix(&sn->place, m); }
cs_Status cs_sensor_set_layers(cs_Sensor *sn, unsigned layers) {
  if (sn->world->batching) return refuse_in_batch(sn->world);
  sn->layers = layers;
  return CS_OK;
}
unsigned cs_sensor_get_layers(const cs_Sensor *sn) { return sn->layers; }
void cs_sensor_set_userdata(cs_Sensor *sn, void *ud) { sn->userdata = ud; }
void *cs_sensor_get_userdata(const cs_Sensor *sn) { return sn->userdata; }
cs_Mesh *cs_sensor_mesh(const cs_Sensor *sn) { return sn->place.mesh; }

int cs_sensor_contains(cs_Sensor *sn, const cs_Vec3 *p) {
  if (cs_check_vec(&sn->world->err, 1, cs_names_xyz, p) != CS_OK) return -(int)sn->world->err.status;
  cs_body_refresh(&sn->place);
  return cs_sensor_contains_point(sn, *p);
}

/* Does any sensor meet mask? Then the call records its path. */
static int any_sensor(const cs_World *w, unsigned mask) {
  size_t i;
  for (i = 0; i < w->nsensors; i++)
    if (w->sensors[i]->layers & mask) return 1;
  return 0;
}

/* The same, the sensors' bounds brought up to date with their meshes'
** edits first. */
int cs_world_prepare_sensors(cs_World *w, unsigned mask) {
  size_t i;
  int any = 0;
  for (i = 0; i < w->nsensors; i++)
    if (w->sensors[i]->layers & mask) {
      cs_body_refresh(&w->sensors[i]->place);
      any = 1;
    }
  return any;
}

/* }================================================================== */

/* {==================================================================
** The added movers an ellipsoid overlaps (issue 14)
** ===================================================================*/

/* How far the query ellipsoid (the unit sphere at es's origin) must go
** along the world unit normal nw to leave the ellipsoid e it overlaps (d,
** nn: cs_ellipsoid_distance's answer at the origin): swept back from a
** place surely clear of e along nw, the first contact. The tangent plane's
** distance, (1 - d) / |E^-T nn| (a triangle's measure, cs_query.c), was up
** to 18 times that for an elongated query or a small mover (found by an
** independent tester); it stays as the answer should the sweep miss. */
static double depth_along(const cs_ESpace *es, const cs_EllipsoidES *e, cs_Vec3 nw, double d,
                          cs_Vec3 nn) {
  cs_Vec3 u = cs_espace_vec_to(es, nw), from;
  double smax = fmax(fmax(e->s[0], e->s[1]), e->s[2]), ul = v3_len(u), far;
  cs_SweepHit h;
  if (ul > 0) {
    far = (v3_len(e->c) + smax + 2) / ul;        /* world units: clear of e from there */
    from = v3_scale(u, far);
    if (cs_sweep_ellipsoid(from, v3_neg(from), e, 1.0, 0, &h) && h.t > 0) return far * (1 - h.t);
  }
  return (1 - d) / v3_len(v3_mul(nn, es->inv_r));
}

long cs_world_overlap_movers(cs_World *w, const cs_Vec3 *pp, const cs_Vec3 *rp, const double q[4],
                             unsigned mask, const cs_Mover *self, cs_MoverOverlapFn fn, void *ud) {
  typedef struct Found { const cs_Mover *m; double depth; cs_Vec3 n; } Found;
  cs_ESpace es;
  cs_Mat3 R = m3_identity();
  cs_Vec3 lo, hi;
  Found *found;
  size_t k, n = 0, nf = 0;
  long count = 0;
  int oriented = q && !(q[0] == 0 && q[1] == 0 && q[2] == 0);
  cs_CallScratch sc;                       /* its own: queries may run on threads */
  if (cs_check_ellipsoid(&w->err, pp, rp, q) != CS_OK) return -(long)w->err.status;
  if (w->movers.count == 0) return 0;
  if (oriented) {
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), qn[4];
    int c;
    for (c = 0; c < 4; c++) qn[c] = q[c] / l;
    R = m3_from_quat(qn);
  }
  cs_espace_init(&es, *pp, *rp, &R, oriented);
  ellipsoid_box(&es, 0, &lo, &hi);
  cs_scratch_init(&sc, &w->alloc, NULL);
  sc.shared = 1;
  if (gather_movers(w, &sc, self, 0, mask, &es, lo, hi, &n) != CS_OK) n = (size_t)-1;
  if (n == 0 || n == (size_t)-1 ||
      !(found = (Found *)cs_malloc_array(&w->alloc, n, sizeof *found))) {
    cs_scratch_release(&sc);
    return n == 0 ? 0 : -(long)cs_fail_status(&w->err, CS_ENOMEM);
  }
  /* found first, then given to fn (which may run queries) */
  for (k = 0; k < n; k++) {
    cs_Vec3 nn;
    double d = cs_ellipsoid_distance(&sc.ells[k], v3(0, 0, 0), NULL, &nn);
    if (!(d < 1)) continue;
    /* out along the other's outward normal at its nearest point */
    found[nf].m = sc.ell_movers[k];
    found[nf].n = cs_espace_normal_from(&es, nn);
    found[nf].depth = depth_along(&es, &sc.ells[k], found[nf].n, d, nn);
    nf++;
  }
  for (k = 0; k < nf; k++) {
    count++;
    if (fn && !fn(ud, found[k].m, found[k].depth, &found[k].n)) break;
  }
  cs_free(&w->alloc, found, n * sizeof *found);
  cs_scratch_release(&sc);
  return count;
}

/* }================================================================== */
