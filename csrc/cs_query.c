/*
** cs_query.c: the world's read-only queries (raycasts, closest point, box and
** ellipsoid overlap). Candidates come from each body's tree in body space;
** every exact test runs in world space on the triangle's mapped vertices, so
** non-uniform scale and mirroring stay exact. Allocates only where noted.
*/
#include <stdlib.h>
#include <string.h>

#include "cs_check.h"
#include "cs_geom.h"
#include "cs_world.h"

/* Relative padding of the boxes handed to the trees and of the body bounds:
** they are recomputed through a 3x3 map (a few ulps each), and a triangle
** that exactly touches a query (boundaries count) must not be culled by that
** rounding. The exact world-space tests that follow decide. */
#define QPAD 1e-12

/* {==================================================================
** Bodies as seen by a query
** ===================================================================*/

/* A body's placement as one query uses it, copied when the body's turn
** comes: the triangle loops read it without going through the body. */
typedef struct QBody {
  const cs_Body *body;
  const cs_Mesh *mesh;
  cs_Mat3 A, Ainv;
  cs_Vec3 T;
  cs_Vec3 lo, hi;         /* world bounds, padded */
  int general;            /* A is not the identity */
  double mirror;          /* sign of det(A): -1 flips the winding, hence the front */
  double sigma_min;
} QBody;

/* Returns 1 and fills qb when b is enabled, in mask and has triangles.
** Brings b's bounds (and its mesh's tree) up to date with vertex edits. */
static int qbody_init(QBody *qb, cs_Body *b, unsigned mask) {
  double pad;
  if (!b->enabled || (b->layers & mask) == 0 || b->mesh->bvh.node_count == 0) return 0;
  cs_body_refresh(b);
  qb->body = b;
  qb->mesh = b->mesh;
  qb->A = b->A;
  qb->Ainv = b->Ainv;
  qb->T = b->T;
  qb->general = b->xform != CS_XFORM_TRANSLATE;
  qb->mirror = qb->general && m3_det(&b->A) < 0 ? -1 : 1;
  qb->sigma_min = qb->general ? b->sigma_min : 1;
  pad = QPAD * (1 + fabs(b->lo.x) + fabs(b->lo.y) + fabs(b->lo.z)
                  + fabs(b->hi.x) + fabs(b->hi.y) + fabs(b->hi.z));
  qb->lo = v3_sub(b->lo, v3(pad, pad, pad));
  qb->hi = v3_add(b->hi, v3(pad, pad, pad));
  return 1;
}

/* A world point in the body's space. */
static cs_Vec3 qbody_point_in(const QBody *qb, cs_Vec3 p) {
  p = v3_sub(p, qb->T);
  return qb->general ? m3_apply(&qb->Ainv, p) : p;
}

/* A world vector in the body's space. */
static cs_Vec3 qbody_vec_in(const QBody *qb, cs_Vec3 d) {
  return qb->general ? m3_apply(&qb->Ainv, d) : d;
}

/* The world box [lo, hi] as a box in the body's space: the bounds of its
** eight mapped corners (centre Ainv (c - T), half-extent |Ainv| h), padded by
** the rounding of that map. */
static void qbody_box_in(const QBody *qb, cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 *blo, cs_Vec3 *bhi) {
  cs_Vec3 c = v3_scale(v3_add(lo, hi), 0.5), h = v3_scale(v3_sub(hi, lo), 0.5);
  cs_Vec3 cb = qbody_point_in(qb, c), hb;
  const double (*m)[3] = qb->Ainv.m;
  double e[3];
  int i;
  /* the half-extent grown by the rounding of c - T, before the map */
  h = v3_add(h, v3_scale(v3(fabs(c.x) + fabs(qb->T.x) + h.x, fabs(c.y) + fabs(qb->T.y) + h.y,
                            fabs(c.z) + fabs(qb->T.z) + h.z), QPAD));
  if (!qb->general) {
    hb = h;
  } else {
    for (i = 0; i < 3; i++)
      e[i] = fabs(m[i][0]) * h.x + fabs(m[i][1]) * h.y + fabs(m[i][2]) * h.z;
    hb = v3(e[0], e[1], e[2]);
  }
  *blo = v3_sub(cb, hb);
  *bhi = v3_add(cb, hb);
}

/* The world vertices of triangle t into v[]; returns 0 for a degenerate one
** (never reported). */
static int qbody_triangle(const QBody *qb, uint32_t t, cs_Vec3 v[3]) {
  const uint32_t *idx = qb->mesh->tris + 3 * (size_t)t;
  int i;
  if (qb->mesh->flags && (qb->mesh->flags[t] & CS_TRI_DEGENERATE)) return 0;
  for (i = 0; i < 3; i++) {
    cs_Vec3 p = cs_mesh_vert(qb->mesh, idx[i]);
    v[i] = v3_add(qb->general ? m3_apply(&qb->A, p) : p, qb->T);
  }
  return 1;
}

/* The unit front normal of world triangle v[] (the mapped body-space
** (b - a) x (c - a), i.e. its inverse transpose: flipped when A mirrors). */
static cs_Vec3 qbody_front(const QBody *qb, const cs_Vec3 v[3]) {
  cs_Vec3 n = v3_cross(v3_sub(v[1], v[0]), v3_sub(v[2], v[0]));
  return v3_scale(v3_normalize(n), qb->mirror);
}

/* Triangle t's tag (0 when the mesh has none). */
static int qbody_tag(const QBody *qb, uint32_t t) {
  return qb->mesh->tags ? (int)qb->mesh->tags[t] : 0;
}

/* Fills *h for triangle tri of qb. (t + 0.0: a ray from a point on a face
** into it gave t = -0.0, and 1 / t -inf: an independent tester.) */
static void fill_hit(cs_Hit *h, const QBody *qb, uint32_t tri, double t, cs_Vec3 point,
                     cs_Vec3 normal) {
  h->t = t + 0.0;
  h->point = point;
  h->normal = normal;
  h->body = qb->body;
  h->triangle = tri;
  h->tag = qbody_tag(qb, tri);
  h->mover = NULL;
}

/* 1 when (slot, tri) comes before the hit recorded as (bslot, btri): the tie
** rule of every "nearest" query, so results do not depend on walk order. */
static int comes_first(size_t slot, uint32_t tri, size_t bslot, unsigned btri) {
  return slot < bslot || (slot == bslot && tri < btri);
}

/* The unit direction from c (on a triangle) toward p: the face normal facing
** p when c is inside the face (exactly the direction of p - c, without its
** rounding), p - c normalised at an edge or vertex, and front when p == c. */
static cs_Vec3 away_from(cs_Vec3 p, cs_Vec3 c, int feature, cs_Vec3 front) {
  cs_Vec3 d = v3_sub(p, c);
  double l = v3_len(d);
  if (l == 0) return front;
  if (feature == 0) return v3_dot(front, d) < 0 ? v3_neg(front) : front;
  return v3_scale(d, 1.0 / l);
}

/* }================================================================== */

/* {==================================================================
** Walks
** ===================================================================*/

/* Called per body; returns > 0 to go on, 0 to stop, < 0 on an error. */
typedef int (*BodyFn)(void *ud, const QBody *qb);

/* Calls fn for every enabled body in mask whose world bounds meet the world
** box [lo, hi] (infinite bounds are fine), through the world's tree over
** bodies, so in no particular order. The box is padded by QPAD against the
** rounding of the body bounds. Returns 1 when all were visited, else what fn
** returned to stop. fn's callbacks must not change the world (the walk
** holds the tree; the Lua binding marks the world busy around them). */
static int for_bodies(cs_World *w, cs_Vec3 lo, cs_Vec3 hi, unsigned mask, BodyFn fn, void *ud) {
  cs_BroadWalk it;
  cs_Body *b;
  int result = 1;
  double pad = QPAD * (1 + fabs(lo.x) + fabs(lo.y) + fabs(lo.z)
                         + fabs(hi.x) + fabs(hi.y) + fabs(hi.z));
  cs_world_walk_begin(w, &it, v3_sub(lo, v3(pad, pad, pad)), v3_add(hi, v3(pad, pad, pad)), mask);
  while (result > 0 && (b = cs_broad_walk_next(&w->broad, &it)) != NULL) {
    QBody qb;
    if (qbody_init(&qb, b, mask)) result = fn(ud, &qb);
  }
  cs_broad_walk_end(&w->broad, &it);
  return result;
}

/* Called per candidate triangle (world vertices v); returns as a BodyFn. */
typedef int (*TriFn)(void *ud, const QBody *qb, uint32_t tri, const cs_Vec3 v[3]);

typedef struct BoxWalk {
  const cs_Alloc *alloc;
  cs_Vec3 lo, hi;
  TriFn fn;
  void *ud;
  cs_U32Buf ids;
} BoxWalk;

/* BodyFn of visit_box: the body's tree queried with the box in body space. */
/* The tree is walked a part at a time (BOX_PART triangles), so that a
** callback that stops early stops the walk too. */
#define BOX_PART 64
static int box_walk_body(void *ud, const QBody *qb) {
  BoxWalk *bw = (BoxWalk *)ud;
  cs_Vec3 blo, bhi, v[3];
  cs_BvhCursor cur;
  size_t i;
  qbody_box_in(qb, bw->lo, bw->hi, &blo, &bhi);
  cs_bvh_cursor_start(&cur);
  do {
    bw->ids.count = 0;
    if (cs_bvh_query_box_some(&qb->mesh->bvh, bw->alloc, qb->mesh->verts, qb->mesh->tris,
                              blo, bhi, &cur, BOX_PART, &bw->ids) != CS_OK)
      return -1;
    for (i = 0; i < bw->ids.count; i++) {
      uint32_t t = bw->ids.data[i];
      int r;
      if (!qbody_triangle(qb, t, v)) continue;
      r = bw->fn(bw->ud, qb, t, v);
      if (r <= 0) return r;
    }
  } while (!cs_bvh_cursor_done(&cur));
  return 1;
}

/* Visits the non-degenerate triangles of every body in mask whose tree
** bounds meet the world box [lo, hi], with their world vertices (a superset
** of those that meet it exactly). Returns 1 when done, 0 when fn stopped,
** -1 on allocation failure. Allocates one index buffer, freed here. */
static int visit_box(cs_World *w, cs_Vec3 lo, cs_Vec3 hi, unsigned mask, TriFn fn, void *ud) {
  BoxWalk bw;
  int r;
  bw.alloc = &w->alloc;
  bw.lo = lo;
  bw.hi = hi;
  bw.fn = fn;
  bw.ud = ud;
  bw.ids.data = NULL;
  bw.ids.count = bw.ids.cap = 0;
  r = for_bodies(w, lo, hi, mask, box_walk_body, &bw);
  cs_u32buf_free(&w->alloc, &bw.ids);
  return r;
}

/* }================================================================== */

/* {==================================================================
** Raycasts
** ===================================================================*/

typedef struct HitRec { cs_Hit hit; size_t slot; } HitRec;

typedef struct RayQuery {
  cs_Vec3 o, d;
  const QBody *qb;
  int all;                /* collect every hit (else keep the nearest) */
  int found;
  HitRec best;
  HitRec *hits;           /* all: the hits so far */
  size_t nhits, caphits;
  const cs_Alloc *alloc;
  int oom;
} RayQuery;


/* cs_BvhRayFn: tests one triangle in world space; keeps it (all) or keeps the
** nearest and lowers *tmax to it. Returns 0 only to stop after a failed
** allocation. */
static int ray_triangle_fn(void *ud, uint32_t tri, double *tmax) {
  RayQuery *q = (RayQuery *)ud;
  const QBody *qb = q->qb;
  cs_Vec3 v[3], n;
  double s;
  HitRec rec;
  if (!qbody_triangle(qb, tri, v)) return 1;
  if (!cs_ray_triangle(q->o, q->d, v[0], v[1], v[2], *tmax, &s)) return 1;
  n = qbody_front(qb, v);
  if (qb->mesh->backfaces == CS_BACKFACES_IGNORE && !(v3_dot(q->d, n) < 0)) return 1;
  if (q->all) {
    if (cs_grow(q->alloc, (void **)&q->hits, &q->caphits, q->nhits + 1, sizeof(HitRec)) != CS_OK) {
      q->oom = 1;
      return 0;
    }
  } else if (q->found && (s > q->best.hit.t ||
                          (s == q->best.hit.t &&
                           !comes_first(qb->body->slot, tri, q->best.slot, q->best.hit.triangle)))) {
    return 1;
  }
  if (v3_dot(n, q->d) > 0) n = v3_neg(n);   /* facing the origin */
  fill_hit(&rec.hit, qb, tri, s, v3_madd(q->o, q->d, s), n);
  rec.slot = qb->body->slot;
  if (q->all) {
    q->hits[q->nhits++] = rec;
  } else {
    q->best = rec;
    q->found = 1;
    *tmax = s;
  }
  return 1;
}

static double v3_sum_abs(cs_Vec3 v) { return fabs(v.x) + fabs(v.y) + fabs(v.z); }

/* BodyFn: walks the body's tree with the segment in body space (the segment
** parameter is the same in both spaces), its boxes padded by the rounding of
** that map and of the placed triangles (QPAD of the coordinates on both
** sides, |Ainv| <= 1 / sigma_min): unpadded, a segment through an edge of a
** placed closed box (into it) could pass a hair outside the leaf that the
** world-space test hits, and met nothing (found by an independent tester,
** up to 0.8% of such segments). Returns -1 after a failed allocation. */
static int ray_body_fn(void *ud, const QBody *qb) {
  RayQuery *q = (RayQuery *)ud;
  double tmax = !q->all && q->found ? q->best.hit.t : 1, pad;
  cs_Vec3 ob, db;
  if (!cs_segment_meets_box(q->o, q->d, tmax, qb->lo, qb->hi)) return 1;
  q->qb = qb;
  ob = qbody_point_in(qb, q->o);
  db = qbody_vec_in(qb, q->d);
  pad = QPAD * (1 + v3_sum_abs(ob) + v3_sum_abs(db) +
                (v3_sum_abs(q->o) + v3_sum_abs(q->d) + v3_sum_abs(qb->T)) / qb->sigma_min);
  cs_bvh_raycast(&qb->mesh->bvh, ob, db, tmax, pad, ray_triangle_fn, q);
  return q->oom ? -1 : 1;
}

/* Runs the ray query q over the world. Returns what for_bodies returns. */
static int ray_run(cs_World *w, RayQuery *q, cs_Vec3 o, cs_Vec3 d, unsigned mask, int all) {
  cs_Vec3 e = v3_add(o, d);
  q->o = o;
  q->d = d;
  q->qb = NULL;
  q->all = all;
  q->found = 0;
  q->hits = NULL;
  q->nhits = q->caphits = 0;
  q->alloc = &w->alloc;
  q->oom = 0;
  if (d.x == 0 && d.y == 0 && d.z == 0) return 1;
  return for_bodies(w, v3_min(o, e), v3_max(o, e), mask, ray_body_fn, q);
}

/* {==================================================================
** Rays against the world's added movers (issue 14)
** ===================================================================*/

/* The segment o + s d, s in [0, 1], against mover m's ellipsoid: in its
** unit-sphere space (x' = diag(1/r) R^T (x - c)) the quadratic
** |o' + s d'|^2 = 1. A segment starting inside it does not hit it (a
** mover's own centre). Returns 1 with *s and the world normal. */
static int ray_mover(const cs_Mover *m, cs_Vec3 o, cs_Vec3 d, double *s, cs_Vec3 *n) {
  cs_Vec3 r = m->radius, oc = v3_sub(o, m->seen_pos), oe, de, p;   /* where the grid filed it */
  double a, b, c, disc, t;
  if (m->oriented) { oc = m3_apply_t(&m->rot, oc); d = m3_apply_t(&m->rot, d); }
  oe = v3_div(oc, r);
  de = v3_div(d, r);
  c = v3_dot(oe, oe) - 1;
  if (c <= 0) return 0;                    /* starts inside (or on) it */
  a = v3_dot(de, de);
  b = v3_dot(oe, de);
  if (a == 0 || b >= 0) return 0;          /* going away */
  disc = b * b - a * c;
  if (disc < 0) return 0;
  t = c / (-b + sqrt(disc));               /* the nearer root, without cancellation */
  if (!(t >= 0 && t <= 1)) return 0;
  p = v3_madd(oe, de, t);                  /* on the unit sphere: the normal is E^-T p */
  p = v3_div(p, r);
  if (m->oriented) p = m3_apply(&m->rot, p);
  *s = t;
  *n = v3_normalize(p);
  return 1;
}

typedef struct RayMovers {
  cs_Vec3 o, d;
  unsigned mask;
  RayQuery *q;
} RayMovers;

/* cs_moverset_near's visitor: keeps the mover's hit (the nearest, or all). */
static int ray_mover_fn(void *ud, cs_Mover *m) {
  RayMovers *rm = (RayMovers *)ud;
  RayQuery *q = rm->q;
  HitRec rec;
  cs_Vec3 n;
  double s;
  if (!(m->layers & rm->mask) || !ray_mover(m, rm->o, rm->d, &s, &n)) return 1;
  if (!q->all && q->found && !(s < q->best.hit.t)) return 1;
  memset(&rec, 0, sizeof rec);
  rec.hit.t = s;
  rec.hit.point = v3_madd(rm->o, rm->d, s);
  rec.hit.normal = n;
  rec.hit.mover = m;
  rec.slot = (size_t)-1;                   /* after every body at the same t */
  if (q->all) {
    if (cs_grow(q->alloc, (void **)&q->hits, &q->caphits, q->nhits + 1, sizeof(HitRec)) != CS_OK) {
      q->oom = 1;
      return 0;
    }
    q->hits[q->nhits++] = rec;
  } else {
    q->best = rec;
    q->found = 1;
  }
  return 1;
}

/* The world's added movers on the segment, into q. */
static void ray_movers(cs_World *w, RayQuery *q, cs_Vec3 o, cs_Vec3 d, unsigned mask) {
  RayMovers rm;
  cs_Vec3 e = v3_add(o, d);
  if (w->movers.count == 0 || q->oom || (d.x == 0 && d.y == 0 && d.z == 0)) return;
  rm.o = o; rm.d = d; rm.mask = mask; rm.q = q;
  cs_moverset_near(&w->movers, v3_min(o, e), v3_max(o, e), ray_mover_fn, &rm);
}

/* }================================================================== */

/* The nearest triangle on the world segment o .. o + d. Returns 1 and fills
** *hit (t in [0, 1], world point, unit world normal facing the origin), or 0
** when the segment is free (or d is zero). Ties go to the lower body slot,
** then the lower triangle index. */
static const char *const OXYZ[3] = {"ox", "oy", "oz"};
static const char *const DXYZ[3] = {"dx", "dy", "dz"};
static const char *const MINXYZ[3] = {"minx", "miny", "minz"};
static const char *const MAXXYZ[3] = {"maxx", "maxy", "maxz"};

/* The numbers of a segment (o, d): 0, or -(status) with the world's error. */
static int check_segment(cs_World *w, const cs_Vec3 *o, const cs_Vec3 *d) {
  if (cs_check_vec(&w->err, 1, OXYZ, o) != CS_OK || cs_check_vec(&w->err, 4, DXYZ, d) != CS_OK)
    return -(int)w->err.status;
  return 0;
}

int cs_world_raycast(cs_World *w, const cs_Vec3 *op, const cs_Vec3 *dp, unsigned mask, cs_Hit *hit) {
  RayQuery q;
  int bad = check_segment(w, op, dp);
  if (bad) return bad;
  ray_run(w, &q, *op, *dp, mask, 0);
  ray_movers(w, &q, *op, *dp, mask);
  if (!q.found) return 0;
  if (hit) *hit = q.best.hit;
  return 1;
}

/* qsort order of raycast_all: t, then body slot, then triangle. */
static int hit_order(const void *pa, const void *pb) {
  const HitRec *a = (const HitRec *)pa, *b = (const HitRec *)pb;
  if (a->hit.t != b->hit.t) return a->hit.t < b->hit.t ? -1 : 1;
  if (a->slot != b->slot) return a->slot < b->slot ? -1 : 1;
  if (a->hit.triangle != b->hit.triangle) return a->hit.triangle < b->hit.triangle ? -1 : 1;
  return 0;
}

/* Every triangle on the segment, nearest first (ties as raycast), given to fn
** until it returns 0. Returns the number given (the one that stopped
** included), or -1 when the hit buffer cannot be allocated (fn not called).
** The hits are gathered before the first call, so fn may use the world. */
long cs_world_raycast_all(cs_World *w, const cs_Vec3 *op, const cs_Vec3 *dp, unsigned mask,
                          cs_HitFn fn, void *ud) {
  RayQuery q;
  long count = 0;
  size_t i;
  int r = check_segment(w, op, dp);
  if (r) return r;
  r = ray_run(w, &q, *op, *dp, mask, 1);
  if (r >= 0) ray_movers(w, &q, *op, *dp, mask);
  if (q.oom) r = -1;
  if (r >= 0 && q.nhits > 0) {
    qsort(q.hits, q.nhits, sizeof(HitRec), hit_order);
    for (i = 0; i < q.nhits; i++) {
      count++;
      if (fn && !fn(ud, &q.hits[i].hit)) break;
    }
  }
  cs_free(&w->alloc, q.hits, q.caphits * sizeof(HitRec));
  return r < 0 ? -(long)cs_fail_status(&w->err, CS_ENOMEM) : count;
}

/* }================================================================== */

/* {==================================================================
** Closest point
** ===================================================================*/

typedef struct PointQuery {
  cs_Vec3 p, pb;          /* world, and in the current body's space */
  const QBody *qb;
  double best;            /* world distance to beat (max_distance at first) */
  int found;
  HitRec rec;
} PointQuery;

/* The squared body-space radius that holds every point within world
** distance d of the query: d / sigma_min (|Ainv| <= 1 / sigma_min), padded
** for the rounding of pb. Infinite for an infinite d. */
static double body_radius2(const QBody *qb, cs_Vec3 pb, double d) {
  double r;
  if (!(d < HUGE_VAL) || !(qb->sigma_min > 0)) return HUGE_VAL;
  r = d / qb->sigma_min * (1 + 1e-9) + QPAD * (1 + fabs(pb.x) + fabs(pb.y) + fabs(pb.z));
  return r * r;
}

/* cs_BvhPointFn: the triangle's nearest point in world space; keeps it when
** it is nearer (or ties earlier) and lowers *max_d2 to match. */
static int point_triangle_fn(void *ud, uint32_t tri, double *max_d2) {
  PointQuery *q = (PointQuery *)ud;
  const QBody *qb = q->qb;
  cs_Vec3 v[3], c;
  double dist;
  int feature;
  if (!qbody_triangle(qb, tri, v)) return 1;
  c = cs_closest_on_triangle(q->p, v[0], v[1], v[2], &feature);
  dist = v3_len(v3_sub(q->p, c));
  if (dist > q->best) return 1;
  if (q->found && dist == q->best &&
      !comes_first(qb->body->slot, tri, q->rec.slot, q->rec.hit.triangle)) return 1;
  fill_hit(&q->rec.hit, qb, tri, dist, c, away_from(q->p, c, feature, qbody_front(qb, v)));
  q->rec.slot = qb->body->slot;
  q->best = dist;
  q->found = 1;
  *max_d2 = body_radius2(qb, q->pb, dist);
  return 1;
}

/* Squared distance from p to the box [lo, hi] (0 inside). */
static double box_distance2(cs_Vec3 p, cs_Vec3 lo, cs_Vec3 hi) {
  cs_Vec3 q = v3_max(lo, v3_min(p, hi));
  return v3_len2(v3_sub(p, q));
}

/* BodyFn: the body's tree walked around p in body space. */
static int point_body_fn(void *ud, const QBody *qb) {
  PointQuery *q = (PointQuery *)ud;
  if (q->best < HUGE_VAL && box_distance2(q->p, qb->lo, qb->hi) > q->best * q->best) return 1;
  q->qb = qb;
  q->pb = qbody_point_in(qb, q->p);
  cs_bvh_closest(&qb->mesh->bvh, q->pb, body_radius2(qb, q->pb, q->best), point_triangle_fn, q);
  return 1;
}

/* The nearest point to p on any triangle within max_distance (inclusive;
** HUGE_VAL: no limit). Returns 1 and fills *hit: t the distance, point on the
** triangle (world), normal the unit direction from it toward p (the face's
** normal toward p inside a face; the front normal when p lies on the
** triangle). Returns 0 when nothing is that close. */
int cs_world_closest_point(cs_World *w, const cs_Vec3 *pp, double max_distance,
                           unsigned mask, cs_Hit *hit) {
  PointQuery q;
  cs_BroadNear it;
  cs_Body *b;
  cs_Vec3 p;
  char buf[CS_NUMBUF];
  if (cs_check_vec(&w->err, 1, cs_names_xyz, pp) != CS_OK) return -(int)w->err.status;
  if (max_distance != max_distance)
    return -(int)cs_fail(&w->err, CS_EINVAL, 4, "maxDistance is NaN");
  if (!(max_distance >= 0))
    return -(int)cs_fail(&w->err, CS_EINVAL, 4, "maxDistance must be >= 0, got %s",
                         cs_fmtnum(buf, max_distance));
  p = *pp;
  q.p = p;
  q.qb = NULL;
  q.found = 0;
  q.best = max_distance;
  /* the bodies nearest first, none farther than the best found so far */
  cs_world_near_begin(w, &it, p, mask);
  while ((b = cs_broad_near_next(&w->broad, &it, q.best < HUGE_VAL ? q.best * q.best * (1 + 1e-9)
                                                                    : HUGE_VAL)) != NULL) {
    QBody qb;
    if (qbody_init(&qb, b, mask)) point_body_fn(&q, &qb);
  }
  cs_broad_near_end(&w->broad, &it);
  if (!q.found) return 0;
  if (hit) *hit = q.rec.hit;
  return 1;
}

/* }================================================================== */

/* {==================================================================
** Box and ellipsoid overlap
** ===================================================================*/

typedef struct BoxQuery {
  cs_Vec3 lo, hi;
  cs_TriFn fn;
  void *ud;
  long count;
} BoxQuery;

/* TriFn: reports the triangle when it meets the box exactly. */
static int box_triangle_fn(void *ud, const QBody *qb, uint32_t tri, const cs_Vec3 v[3]) {
  BoxQuery *q = (BoxQuery *)ud;
  if (!cs_triangle_box_overlap(q->lo, q->hi, v[0], v[1], v[2])) return 1;
  q->count++;
  return q->fn ? q->fn(q->ud, qb->body, tri) != 0 : 1;
}

/* Gives fn every triangle that meets the world box [lo, hi] (boundaries
** included), until fn returns 0. Returns the number given (the one that
** stopped included), or -1 when an index buffer cannot be allocated (fn may
** have been called for earlier bodies). */
long cs_world_query_box(cs_World *w, const cs_Vec3 *lop, const cs_Vec3 *hip, unsigned mask,
                        cs_TriFn fn, void *ud) {
  BoxQuery q;
  cs_Vec3 lo, hi;
  if (cs_check_vec(&w->err, 1, MINXYZ, lop) != CS_OK || cs_check_vec(&w->err, 4, MAXXYZ, hip) != CS_OK)
    return -(long)w->err.status;
  lo = *lop;
  hi = *hip;
  q.lo = lo;
  q.hi = hi;
  q.fn = fn;
  q.ud = ud;
  q.count = 0;
  if (lo.x > hi.x || lo.y > hi.y || lo.z > hi.z) return 0;
  return visit_box(w, lo, hi, mask, box_triangle_fn, &q) < 0 ? -(long)cs_fail_status(&w->err, CS_ENOMEM)
                                                              : q.count;
}

/* The ellipsoid's frame: x_e = diag(1/r) R^T (x - p), E = R diag(r). */
typedef struct EllQuery {
  cs_Vec3 p, inv_r;
  cs_Mat3 R;
  cs_OverlapFn fn;
  void *ud;
  long count;
} EllQuery;

/* A world point in the ellipsoid's unit-sphere space. */
static cs_Vec3 ell_to(const EllQuery *q, cs_Vec3 x) {
  return v3_mul(m3_apply_t(&q->R, v3_sub(x, q->p)), q->inv_r);
}

/* TriFn: the closest point c of the mapped triangle to the centre (the
** e-space origin); the triangle overlaps when |c| < 1. The push-out n_e is
** from c toward the centre; in world space a plane at e-space distance g
** along n_e lies at g / |E^-T n_e|, with E^-T = R diag(1/r), so the world
** normal is normalize(m), m = R diag(1/r) n_e, and depth = (1 - |c|) / |m|.
** A centre on the triangle takes its front normal (depth 1 / |m|). */
static int ell_triangle_fn(void *ud, const QBody *qb, uint32_t tri, const cs_Vec3 v[3]) {
  EllQuery *q = (EllQuery *)ud;
  cs_Vec3 ve[3], c, front_e, n_e, m;
  double g, lm;
  int feature, i;
  for (i = 0; i < 3; i++) ve[i] = ell_to(q, v[i]);
  c = cs_closest_on_triangle(v3(0, 0, 0), ve[0], ve[1], ve[2], &feature);
  g = v3_len(c);
  if (!(g < 1)) return 1;
  /* the e-space map has a positive determinant: the world winding holds */
  front_e = v3_cross(v3_sub(ve[1], ve[0]), v3_sub(ve[2], ve[0]));
  lm = v3_len(front_e);
  /* A triangle placed as a needle (a body scaled 1e19 one way and 1 the
  ** other, turned) can have no normal in doubles: degenerate at this
  ** placement, it meets nothing, as a degenerate triangle of a mesh (its
  ** depth was inf, its normal NaN: found by an independent tester). */
  if (!(lm > 0 && lm < HUGE_VAL)) return 1;
  front_e = v3_scale(front_e, qb->mirror / lm);
  n_e = away_from(v3(0, 0, 0), c, feature, front_e);
  m = m3_apply(&q->R, v3_mul(n_e, q->inv_r));
  lm = v3_len(m);
  if (!(lm > 0 && lm < HUGE_VAL)) return 1;
  q->count++;
  if (!q->fn) return 1;
  m = v3_scale(m, 1.0 / lm);
  return q->fn(q->ud, qb->body, tri, (1 - g) / lm, &m) != 0;
}

/* Gives fn every triangle the ellipsoid (centre p, radii r > 0, orientation
** q: NULL or a quaternion xyzw, normalised here) intersects (touching is not
** intersecting), with the depth in world units and the unit world normal
** that pushes the ellipsoid out. Returns the number given (the one that
** stopped included), or -1 when an index buffer cannot be allocated. */
long cs_world_overlap_ellipsoid(cs_World *w, const cs_Vec3 *pp, const cs_Vec3 *rp,
                                const double q[4], unsigned mask, cs_OverlapFn fn, void *ud) {
  EllQuery eq;
  cs_Vec3 h, p, r;
  double e[3], ql;
  int i;
  if (cs_check_ellipsoid(&w->err, pp, rp, q) != CS_OK) return -(long)w->err.status;
  p = *pp;
  r = *rp;
  ql = q ? sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) : 0;
  eq.R = m3_identity();
  if (ql > 0) {
    double qn[4];
    for (i = 0; i < 4; i++) qn[i] = q[i] / ql;
    eq.R = m3_from_quat(qn);
  }
  eq.p = p;
  eq.inv_r = v3(1 / r.x, 1 / r.y, 1 / r.z);
  eq.fn = fn;
  eq.ud = ud;
  eq.count = 0;
  /* world half-extent along axis i: |row i of R diag(r)| */
  for (i = 0; i < 3; i++) {
    const double *row = eq.R.m[i];
    e[i] = sqrt(row[0] * row[0] * r.x * r.x + row[1] * row[1] * r.y * r.y
                + row[2] * row[2] * r.z * r.z) * (1 + QPAD);
  }
  h = v3(e[0], e[1], e[2]);
  return visit_box(w, v3_sub(p, h), v3_add(p, h), mask, ell_triangle_fn, &eq) < 0
         ? -(long)cs_fail_status(&w->err, CS_ENOMEM) : eq.count;
}

/* cs_world_overlap's triangle callback: the caller's, noting a stop. */
typedef struct OverlapStop { cs_OverlapFn fn; void *ud; int stopped; } OverlapStop;
static int overlap_noting_stop(void *ud, const cs_Body *body, unsigned triangle, double depth,
                               const cs_Vec3 *normal) {
  OverlapStop *o = (OverlapStop *)ud;
  if (o->fn(o->ud, body, triangle, depth, normal)) return 1;
  o->stopped = 1;
  return 0;
}

long cs_world_overlap(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                      unsigned mask, const cs_Mover *self, cs_OverlapFn tri_fn,
                      cs_MoverOverlapFn mover_fn, void *ud) {
  OverlapStop o;
  long n, k;
  o.fn = tri_fn; o.ud = ud; o.stopped = 0;
  n = cs_world_overlap_ellipsoid(w, p, r, q, mask, tri_fn ? overlap_noting_stop : NULL, &o);
  if (n < 0 || o.stopped) return n;
  k = cs_world_overlap_movers(w, p, r, q, mask, self, mover_fn, ud);
  return k < 0 ? -1 : n + k;
}

/* }================================================================== */
