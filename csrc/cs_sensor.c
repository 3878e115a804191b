/*
** cs_sensor.c: the geometry of sensor volumes: is a point inside a closed
** mesh (its winding number), and where a mover's centre crosses its
** surface along the path of one call. Pure functions of a mesh, its
** placement and points; the world owns the sensors (cs_world.c) and the
** slide records the path (cs_slide.c).
*/
#include <stdlib.h>
#include <string.h>

#include "cs_geom.h"
#include "cs_mesh.h"
#include "cs_sensor.h"

/* {==================================================================
** Inside: the winding number
** ===================================================================*/

#define FOUR_PI (4 * 3.14159265358979323846)

/* The solid angles the triangles t0 .. t1 - 1 of m subtend at p (mesh
** space), summed. Each by Van Oosterom and Strackee (1983): tan(omega / 2)
** = a.(b x c) / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|), with a, b, c
** the vertices relative to p. (A range, so that the whole mesh's scan is
** one loop: a call a triangle made it 6% slower.) */
static double solid_angles(const cs_Mesh *m, uint32_t t0, uint32_t t1, cs_Vec3 p) {
  double sum = 0;
  uint32_t t;
  for (t = t0; t < t1; t++) {
    const uint32_t *ix = m->tris + 3 * (size_t)t;
    cs_Vec3 a = v3_sub(cs_mesh_vert(m, ix[0]), p), b = v3_sub(cs_mesh_vert(m, ix[1]), p);
    cs_Vec3 c = v3_sub(cs_mesh_vert(m, ix[2]), p);
    double la = v3_len(a), lb = v3_len(b), lc = v3_len(c);
    double num = v3_dot(a, v3_cross(b, c));
    double den = la * lb * lc + v3_dot(a, b) * lc + v3_dot(b, c) * la + v3_dot(c, a) * lb;
    sum += 2 * atan2(num, den);
  }
  return sum;
}

/* The winding number of the mesh around p (mesh space): its solid angle at
** p over 4 pi. Exactly an integer away from the surface, up to rounding;
** +1 or -1 inside a closed mesh (the sign is its orientation). */
static double winding_number(const cs_Mesh *m, cs_Vec3 p) {
  return solid_angles(m, 0, m->ntris, p) / FOUR_PI;
}

/* A world point in the placed mesh's own space. */
static cs_Vec3 to_mesh(const cs_Body *place, cs_Vec3 p) {
  return m3_apply(&place->Ainv, v3_sub(p, place->T));
}

/* Inside when the winding number is not 0: it rounds to -1, 0 or 1 for a
** closed mesh, so half is the threshold (a point on the surface, where it
** is one half, is taken as outside). */
static int inside_mesh(const cs_Mesh *m, cs_Vec3 p_mesh) {
  return fabs(winding_number(m, p_mesh)) > 0.5 + 1e-9;
}

/* Is the world point p in the placed mesh's bounds? */
static int in_bounds(const cs_Body *pl, cs_Vec3 p) {
  return !(p.x < pl->lo.x || p.y < pl->lo.y || p.z < pl->lo.z ||
           p.x > pl->hi.x || p.y > pl->hi.y || p.z > pl->hi.z);
}

int cs_sensor_contains_point(const cs_Sensor *s, cs_Vec3 p) {
  const cs_Body *pl = &s->place;
  return in_bounds(pl, p) && inside_mesh(pl->mesh, to_mesh(pl, p));
}

/* }================================================================== */

/* {==================================================================
** Crossings along a path
** ===================================================================*/


static int double_cmp(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return a < b ? -1 : a > b;
}

/* Where the segment p + s d, lying in the plane of triangle abc (within
** rounding), is in the triangle: [s[0], s[1]] within [0, 1]; 0 when it is
** not in that plane or misses the triangle. The ray test meets no such
** triangle (parallel), and at an edge shared with it the other triangle's
** hit is on its own edge, which rounding may drop: a path along an
** L-shaped sensor's inner face, passing into the solid at the inner
** corner's edge, had no hit there, and its stretch inside was never
** sampled (found by an independent tester, 160 of 249 such passages). */
static int coplanar_span(cs_Vec3 p, cs_Vec3 d, const cs_Vec3 v[3], double s[2]) {
  cs_Vec3 n = v3_cross(v3_sub(v[1], v[0]), v3_sub(v[2], v[0]));
  double nn = v3_dot(n, n), e0 = v3_dot(n, v3_sub(p, v[0])), e1 = e0 + v3_dot(n, d), tol, lo = 0, hi = 1;
  int k;
  /* both ends within tol of the plane: e^2 <= tol^2 |n|^2, before a root */
  tol = 1e-12 * (1 + v3_maxabs(p) + v3_maxabs(d) + v3_maxabs(v[0]));
  if (!(nn > 0 && e0 * e0 <= tol * tol * nn && e1 * e1 <= tol * tol * nn)) return 0;
  n = v3_scale(n, 1 / sqrt(nn));
  for (k = 0; k < 3; k++) {          /* inside edge k: (n x edge) . (x - v[k]) >= 0 */
    cs_Vec3 m = v3_cross(n, v3_sub(v[(k + 1) % 3], v[k]));
    double f0 = v3_dot(m, v3_sub(p, v[k])), fd = v3_dot(m, d);
    if (fd == 0) {
      if (f0 < 0) return 0;
    } else if (fd > 0) lo = fmax(lo, -f0 / fd);
    else hi = fmin(hi, -f0 / fd);
  }
  if (!(lo <= hi)) return 0;
  s[0] = lo;
  s[1] = hi;
  return 1;
}

/* Appends s to the hits. */
static cs_Status add_hit(const cs_Alloc *a, double **buf, size_t *cap, size_t *n, double s) {
  if (*n == *cap) {
    cs_Status st = cs_grow(a, (void **)buf, cap, *n + 1, sizeof(double));
    if (st != CS_OK) return st;
  }
  (*buf)[(*n)++] = s;
  return CS_OK;
}

/* Adds the ends of the union of the spans[0..n) (pairs, sorted here) that
** lie inside (0, 1): where the segment leaves a face's plane region, not
** where it passes from one of the face's triangles to the next (a path
** 1e-13 inside a finely split face gave two hits a triangle, each stretch
** sampled over the whole mesh: 20 times slower, found by an independent
** tester). */
static cs_Status add_span_ends(cs_SensorScratch *sc, size_t nspans, size_t *n) {
  double *sp = sc->spans, lo, hi;
  size_t i;
  cs_Status st;
  if (nspans == 0) return CS_OK;
  qsort(sp, nspans, 2 * sizeof(double), double_cmp);   /* (by their starts) */
  lo = sp[0];
  hi = sp[1];
  for (i = 1; i <= nspans; i++) {
    if (i < nspans && sp[2 * i] <= hi) {    /* overlaps or touches: one region */
      hi = fmax(hi, sp[2 * i + 1]);
      continue;
    }
    if (lo > 0 && (st = add_hit(&sc->alloc, &sc->hits, &sc->caphits, n, lo)) != CS_OK) return st;
    if (hi < 1 && (st = add_hit(&sc->alloc, &sc->hits, &sc->caphits, n, hi)) != CS_OK) return st;
    if (i < nspans) {
      lo = sp[2 * i];
      hi = sp[2 * i + 1];
    }
  }
  return CS_OK;
}

/* The sorted parameters in (0, 1) where the segment p + s d (mesh space)
** meets a triangle; the ray test is watertight (cs_ray_triangle), so a
** segment through an edge or vertex meets at least one of its triangles,
** and where the segment lies in triangles' planes, its way in and out of
** the region they cover (coplanar_span, add_span_ends). The triangles
** asked are those the mesh's tree finds near the segment (every one was
** asked: a mover inside a sensor of 16,000 triangles paid 1 ms a call). */
static cs_Status segment_hits(const cs_Mesh *m, cs_Vec3 p, cs_Vec3 d, cs_SensorScratch *sc,
                              size_t *n) {
  const cs_Alloc *a = &sc->alloc;
  double **buf = &sc->hits, pad = 1e-9 * (1 + v3_maxabs(p) + v3_maxabs(d));
  size_t *cap = &sc->caphits, i, nspans = 0;
  cs_Vec3 lo = v3_min(p, v3_add(p, d)), hi = v3_max(p, v3_add(p, d)), g = v3(pad, pad, pad);
  cs_Status st;
  *n = 0;
  sc->ids.count = 0;
  st = cs_bvh_query_segment(&m->bvh, a, m->verts, m->tris, v3_sub(lo, g), v3_add(hi, g), p, d, g, &sc->ids);
  if (st != CS_OK) return st;
  for (i = 0; i < sc->ids.count; i++) {
    const uint32_t *ix = m->tris + 3 * (size_t)sc->ids.data[i];
    cs_Vec3 v[3];
    double s;
    v[0] = cs_mesh_vert(m, ix[0]);
    v[1] = cs_mesh_vert(m, ix[1]);
    v[2] = cs_mesh_vert(m, ix[2]);
    /* a triangle degenerate in mesh space may not be in the world (a sliver
    ** scaled up by the placement: found by an independent tester, crossings
    ** of such a box were missed); an extra hit only adds a point where the
    ** winding number is sampled, so none is skipped */
    if (cs_ray_triangle(p, d, v[0], v[1], v[2], 1.0, &s) && (st = add_hit(a, buf, cap, n, s)) != CS_OK)
      return st;
    /* (a segment that is nearly in the plane may cross it inside too) */
    if ((st = cs_grow(a, (void **)&sc->spans, &sc->capspans, 2 * nspans + 2, sizeof(double))) != CS_OK)
      return st;
    nspans += (size_t)coplanar_span(p, d, v, sc->spans + 2 * nspans);
  }
  if ((st = add_span_ends(sc, nspans, n)) != CS_OK) return st;
  if (*n > 1) qsort(*buf, *n, sizeof(double), double_cmp);
  return CS_OK;
}

/* A stretch of a segment shorter than this (relative to the size of its
** coordinates, 1 + their largest magnitude) is within rounding of the hits
** that bound it: its winding number goes either way, so it is not sampled
** and the state before it stands. A call that ended exactly on a turned
** sensor's face gave an exit and an enter at the next call's start, one
** sampling each side of the face (found by an independent tester, 0.4% of
** the passages built for it). 4e-15 is about 18 ulps: those passages need
** more than 0 and hold from 1e-15 on, near the origin and at 1e5; a sensor
** 1e-9 thick at 1e5 from the origin (4 times the precision contract's error
** there) is still sampled (1e-12 missed it: the next tester). */
#define SENSOR_TINY_REL 4e-15

/* The world distance from p within which a point is on the surface, within
** rounding (a quarter of SENSOR_TINY_REL, so that the middle of a stretch
** that is sampled is not). */
static double near_tol(cs_Vec3 p) {
  return 0.25 * SENSOR_TINY_REL * (1 + v3_maxabs(p));
}

/* A near_surface walk: the placed mesh, the world point and the squared
** world distance that counts as on the surface; found when a triangle is
** that near. */
typedef struct NearQuery {
  const cs_Body *pl;
  cs_Vec3 p;
  double tol2;
  int found;
  uint32_t tri;           /* the triangle found */
} NearQuery;

static int near_triangle_fn(void *ud, uint32_t tri, double *max_d2) {
  NearQuery *q = (NearQuery *)ud;
  const cs_Mesh *m = q->pl->mesh;
  const uint32_t *ix = m->tris + 3 * (size_t)tri;
  cs_Vec3 v[3], c;
  int k, feature;
  (void)max_d2;
  for (k = 0; k < 3; k++) v[k] = cs_body_to_world(q->pl, cs_mesh_vert(m, ix[k]));
  c = cs_closest_on_triangle(q->p, v[0], v[1], v[2], &feature);
  if (v3_len2(v3_sub(c, q->p)) <= q->tol2) {
    q->found = 1;
    q->tri = tri;
    return 0;
  }
  return 1;
}

/* Is the world point p within rounding of the placed surface (near_tol)?
** There the winding number goes either way. The triangles tested are the
** mesh tree's within twice that distance mapped into mesh space (|Ainv| <=
** 1 / sigma_min), and a little more for rounding: a scan of every triangle
** made a 4,800-triangle sensor's crossings twice as slow (an independent
** tester). *tri is the triangle found (when it is not NULL). */
static int near_surface(const cs_Sensor *s, cs_Vec3 p, uint32_t *tri) {
  const cs_Body *pl = &s->place;
  double tol = near_tol(p), r;
  cs_Vec3 pm = to_mesh(pl, p);
  NearQuery q;
  q.pl = pl;
  q.p = p;
  q.tol2 = tol * tol;
  q.found = 0;
  q.tri = 0;
  r = 2 * tol / pl->sigma_min + 1e-12 * (1 + v3_maxabs(pm));
  cs_bvh_closest(&pl->mesh->bvh, pm, r * r, near_triangle_fn, &q);
  if (tri) *tri = q.tri;
  return q.found;
}

/* Is the winding number w that of a point away from the surface (a whole
** number, up to rounding)? */
static int whole(double w) {
  return fabs(w - floor(w + 0.5)) < 0.25;
}

/* A walk summing, over the triangles near two points, how much more solid
** angle each subtends at p1 than at p0. */
typedef struct SidesQuery {
  const cs_Mesh *m;
  cs_Vec3 p0, p1;
  double diff;
} SidesQuery;

static int sides_triangle_fn(void *ud, uint32_t tri, double *max_d2) {
  SidesQuery *q = (SidesQuery *)ud;
  (void)max_d2;
  q->diff += solid_angles(q->m, tri, tri + 1, q->p1) - solid_angles(q->m, tri, tri + 1, q->p0);
  return 1;
}

/* The winding number at p1, given w0 at p0 (mesh space), 2 h apart: w0 and
** the change of the triangles within r = 1e6 h of their middle c (the
** mesh tree's); a triangle farther away changes by less than h / r of a
** turn, and all of them together by about as much (the solid angle of a
** surface seen from beyond r changes at most about 1 / r a unit of
** length). One scan of the mesh instead of two: a mover gliding along a
** face of a 10,800-triangle sensor paid 0.37 ms a call with two, 0.19 ms
** with one, about what a call inside it pays (0.18 ms). */
static double winding_across(const cs_Mesh *m, double w0, cs_Vec3 p0, cs_Vec3 p1, cs_Vec3 c,
                             double h) {
  SidesQuery q;
  double r = 1e6 * h;
  q.m = m;
  q.p0 = p0;
  q.p1 = p1;
  q.diff = 0;
  cs_bvh_closest(&m->bvh, c, r * r, sides_triangle_fn, &q);
  return w0 + q.diff / FOUR_PI;
}

/* The state around pm (mesh space), which is within rounding of triangle
** tri (near_surface): the winding number a step off tri's plane on either
** side. When both are whole numbers (away from any surface) and both 0 or
** both not, the state is known: the face is the real boundary only where
** the winding number changes between 0 and not 0, and a face of one closed
** part inside another (1 and 2 around it) or two parts' coinciding faces
** (1 and 1) are inside. Otherwise pm is on the real boundary or on an
** edge, and *known is 0. Every point near a triangle was unknown: a path
** along such an inner face, a call stopping on it and a teleport onto it
** gave no enter (found by an independent tester, 7 of 5,000 random
** sensors of overlapping boxes). The step is 4 times the world distance
** the near test allows, in mesh space (|Ainv| <= 1 / sigma_min), so that
** a point that near the real boundary has its two sides across it, plus as
** much of the magnitude of pm and tri's vertices, for the rounding of the
** winding number's triple products next to tri: about 1e-14 of the
** coordinates' size, well below the thinnest sensor the specs catch. */
static int sides_state(const cs_Sensor *sn, cs_Vec3 p, cs_Vec3 pm, uint32_t tri, int *known) {
  const cs_Mesh *m = sn->place.mesh;
  const uint32_t *ix = m->tris + 3 * (size_t)tri;
  cs_Vec3 a = cs_mesh_vert(m, ix[0]), b = cs_mesh_vert(m, ix[1]), c = cs_mesh_vert(m, ix[2]);
  cs_Vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
  double scale = 1 + v3_maxabs(pm) + fmax(v3_maxabs(a), fmax(v3_maxabs(b), v3_maxabs(c)));
  double h = 4 * (near_tol(p) / sn->place.sigma_min + 0.25 * SENSOR_TINY_REL * scale), nn;
  double w0, w1, cl;
  cs_Vec3 q = pm, towards = v3_sub(v3_scale(v3_add(v3_add(a, b), c), 1.0 / 3), pm);
  int k;
  *known = 0;
  nn = v3_len(n);
  cl = v3_len(towards);
  if (!(nn > 0)) return 0;
  n = v3_scale(n, h / nn);
  /* from pm, and then once more from a step toward tri's middle: at a
  ** corner the sides lie in the planes of the corner's other faces, where
  ** the winding number is no whole number (found by an independent tester:
  ** a mover put on the corner of a part inside another got no enter) */
  for (k = 0; k < 2; k++) {
    if (k == 1) {
      if (!(cl > 0)) return 0;
      q = v3_madd(pm, towards, h / cl);
    }
    w0 = winding_number(m, v3_add(q, n));
    w1 = winding_across(m, w0, v3_add(q, n), v3_sub(q, n), q, h);
    if (whole(w0) && whole(w1)) break;
  }
  if (!whole(w0) || !whole(w1) || (fabs(w0) > 0.5) != (fabs(w1) > 0.5)) return 0;
  *known = 1;
  return fabs(w0) > 0.5;
}

/* The state at the world point p (pm in mesh space): its winding number,
** or when p is within rounding of the surface, the sides' (sides_state). */
static int point_state(const cs_Sensor *sn, cs_Vec3 p, cs_Vec3 pm, int *known) {
  uint32_t tri;
  *known = 1;
  if (!near_surface(sn, p, &tri)) return inside_mesh(sn->place.mesh, pm);
  return sides_state(sn, p, pm, tri, known);
}

/* The state on the stretch [s0, s1] of the segment a + s d (world space;
** am + s dm in mesh space): the winding number at its middle or, when that
** lies on the surface, at its three-quarter point, its quarter point or
** its end; when all of them do, the sides of the face at its middle
** (sides_state), and `state` with *known 0 when those differ (1
** otherwise). A path along a face meets none of that face's triangles
** (parallel) and may pass a hair outside the next face's edge, so it has
** no hit where it leaves the sensor: a move along a turned box's face and
** out past its edge ended inside (found by an independent tester, 3% of
** such moves). */
static int stretch_state(const cs_Sensor *sn, cs_Vec3 a, cs_Vec3 d, cs_Vec3 am, cs_Vec3 dm,
                         double s0, double s1, int state, int *known) {
  static const double at[4] = {0.5, 0.75, 0.25, 1.0};
  double mid = s0 + 0.5 * (s1 - s0);
  uint32_t tri = 0, tri_mid = 0;
  int k, now;
  *known = 1;
  for (k = 0; k < 4; k++) {
    double s = s0 + at[k] * (s1 - s0);
    if (!near_surface(sn, v3_madd(a, d, s), &tri)) return inside_mesh(sn->place.mesh, v3_madd(am, dm, s));
    if (k == 0) tri_mid = tri;
  }
  now = sides_state(sn, v3_madd(a, d, mid), v3_madd(am, dm, mid), tri_mid, known);
  return *known ? now : state;
}

/* The state becomes now at t along the path: an event when it changes. */
static cs_Status set_state(cs_SensorScratch *sc, const cs_Sensor *sensor, int *state, int now,
                           double t) {
  if (now == *state) return CS_OK;
  *state = now;
  return cs_sensor_push_event(sc, sensor, now, t);
}

/* The fraction of the path at length l, where the state found there
** changed: 0 while nothing has been sampled on the path, since all before
** it is within rounding of the start (a call against a floor begins with a
** sweep of rounding length) and the change is the start's (a teleport, a
** sensor moved over the mover), which the docs put at t = 0. Such changes
** came at t = 1e-17..1e-16 (found by an independent tester). */
static double at_start(int sampled, double l, double total) {
  return sampled && total > 0 ? l / total : 0.0;
}

/* The state of a path that is sampled nowhere: its start point's, unless
** that is on the real boundary (point_state); outside the sensor's box it
** is outside. */
static cs_Status start_state(cs_SensorScratch *sc, const cs_Sensor *sn, cs_Vec3 p, int *state) {
  const cs_Body *pl = &sn->place;
  int known = 1, now = 0;
  if (in_bounds(pl, p)) now = point_state(sn, p, to_mesh(pl, p), &known);
  return known ? set_state(sc, sn, state, now, 0.0) : CS_OK;
}

/* Walks one sensor along the polyline path[0..n) (world space; len[i] the
** length up to point i, len[n - 1] > 0 or the path is a point) starting
** from the state *inside, and appends an event at every change of state.
** The state is sampled (the winding number) at the middle of each stretch
** between consecutive hits of a segment, never at a hit or a path point,
** which may lie on the surface: so a hit counted twice (at an edge), a
** graze or a path point on the surface changes nothing. The first stretch
** of a segment is sampled only while the state is unsure: at the path's
** start (the mover's memory from its last call, which a teleport or a
** moved sensor makes stale), after a stretch too short to sample or lying
** all along the surface, and where the segment starts on the surface (a
** crossing there, at the joint of two segments, is a hit of neither
** within rounding: the walk ending on a face and the gravity pass going in
** gave no enter, found by an independent tester in 1.6% of such paths). A
** segment that misses the sensor's box is outside. A path too short to
** sample anywhere takes the state of its start point, unless that lies on
** the real boundary. *inside ends as the state at the path's end. */
cs_Status cs_sensor_track(const cs_Sensor *sensor, const cs_Vec3 *path, const double *len,
                          size_t n, int *inside, cs_SensorScratch *sc) {
  const cs_Body *pl = &sensor->place;
  const cs_Mesh *m = pl->mesh;
  double total = len[n - 1];
  int state = *inside, sure = 0, sampled = 0, now;
  size_t i, k;
  cs_Status st;
  for (i = 0; i + 1 < n; i++) {
    cs_Vec3 a = path[i], d = v3_sub(path[i + 1], path[i]);
    cs_Vec3 am, dm;
    double seg = len[i + 1] - len[i], tiny, prev = 0;
    size_t nh;
    if (v3_len2(d) == 0) continue;
    tiny = SENSOR_TINY_REL * (1 + v3_maxabs(a)) / v3_len(d);
    if (!cs_segment_meets_box(a, d, 1.0, pl->lo, pl->hi)) {
      if ((st = set_state(sc, sensor, &state, 0, at_start(sampled, len[i], total))) != CS_OK) return st;
      sure = sampled = 1;
      continue;
    }
    am = to_mesh(pl, a);
    dm = m3_apply(&pl->Ainv, d);
    if ((st = segment_hits(m, am, dm, sc, &nh)) != CS_OK)
      return st;
    for (k = 0; k <= nh; k++) {
      double next = k < nh ? sc->hits[k] : 1.0;
      if (next - prev <= tiny) {          /* within rounding of a hit */
        if (k == nh) sure = 0;
        prev = next > prev ? next : prev;
        continue;
      }
      if (k > 0 || !sure || (i > 0 && near_surface(sensor, a, NULL))) {
        int known;
        now = stretch_state(sensor, a, d, am, dm, prev, next, state, &known);
        if ((st = set_state(sc, sensor, &state, now, at_start(sampled, len[i] + prev * seg, total))) != CS_OK)
          return st;
        sampled = 1;
        sure = known;
      }
      prev = next;
    }
  }
  if (!sampled && (st = start_state(sc, sensor, path[0], &state)) != CS_OK) return st;
  *inside = state;
  return CS_OK;
}

cs_Status cs_sensor_push_event(cs_SensorScratch *sc, const cs_Sensor *s, int enter, double t) {
  cs_SensorEvent *e;
  if (sc->nevents == sc->capevents) {
    cs_Status st = cs_grow(&sc->alloc, (void **)&sc->events, &sc->capevents, sc->nevents + 1,
                           sizeof(cs_SensorEvent));
    if (st != CS_OK) return st;
  }
  e = &sc->events[sc->nevents++];
  e->sensor = s;
  e->enter = enter;
  e->t = t < 0 ? 0 : t > 1 ? 1 : t;
  return CS_OK;
}

/* Was the mover inside sn at the end of its last call in sn's world? (By
** id alone: ids are never reused.) */
static int was_inside(const cs_Mover *m, const cs_Sensor *sn) {
  size_t i;
  for (i = 0; i < m->ninside; i++)
    if (m->inside[i].id == sn->id) return 1;
  return 0;
}

/* Sorts the events by t, keeping the order of equal ones (insertion sort:
** a call has a few). */
static void sort_events(cs_SensorEvent *e, size_t n) {
  size_t i, j;
  for (i = 1; i < n; i++) {
    cs_SensorEvent x = e[i];
    for (j = i; j > 0 && e[j - 1].t > x.t; j--) e[j] = e[j - 1];
    e[j] = x;
  }
}

cs_Status cs_sensors_track(cs_Sensor *const *sensors, size_t nsensors, uint64_t world,
                           const cs_Mover *m, cs_SensorScratch *sc) {
  size_t i;
  cs_Status s;
  sc->nevents = 0;
  sc->ninside = 0;
  if (sc->npath > sc->caplen &&
      (s = cs_grow(&sc->alloc, (void **)&sc->len, &sc->caplen, sc->npath, sizeof(double))) != CS_OK)
    return s;
  sc->len[0] = 0;
  for (i = 1; i < sc->npath; i++)
    sc->len[i] = sc->len[i - 1] + v3_len(v3_sub(sc->path[i], sc->path[i - 1]));
  for (i = 0; i < nsensors; i++) {
    const cs_Sensor *sn = sensors[i];
    int inside;
    if (!(sn->layers & m->collides_with)) {
      /* no longer tracked (a layers or collidesWith change): a mover it
      ** held leaves it now, so that enters and exits pair up (found by an
      ** independent tester: tracking stopped with no exit) */
      if (was_inside(m, sn) && (s = cs_sensor_push_event(sc, sn, 0, 0.0)) != CS_OK) return s;
      continue;
    }
    inside = was_inside(m, sn);
    if ((s = cs_sensor_track(sn, sc->path, sc->len, sc->npath, &inside, sc)) != CS_OK) return s;
    if (!inside) continue;
    if (sc->ninside == sc->capinside &&
        (s = cs_grow(&sc->alloc, (void **)&sc->inside, &sc->capinside, sc->ninside + 1,
                     sizeof(cs_SensorRef))) != CS_OK)
      return s;
    sc->inside[sc->ninside].sensor = sn;
    sc->inside[sc->ninside].world = world;
    sc->inside[sc->ninside++].id = sn->id;
  }
  sort_events(sc->events, sc->nevents);
  return CS_OK;
}

int cs_mover_inside_world(const cs_Mover *m, uint64_t world) {
  size_t i;
  for (i = 0; i < m->ninside; i++)
    if (m->inside[i].world == world) return 1;
  return 0;
}

/* The mover's memory by ids, for a sensor it tracks now (its layers
** meeting the mover's collides_with, as API.md says; a change of either
** since the call counts at once). */
int cs_mover_is_inside(const cs_Mover *m, const cs_Sensor *s) {
  return (s->layers & m->collides_with) && was_inside(m, s);
}

/* }================================================================== */
