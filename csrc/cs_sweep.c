/*
** cs_sweep.c: the swept unit sphere against one triangle, in ellipsoid space
** (Fauerby 2003, section 3; Rouwe 2003, section 3 for the stable quadratic).
** Pure functions: no allocation, no globals.
*/
#include <float.h>

#include "cs_geom.h"
#include "cs_sweep.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Is p (in the triangle's plane) inside triangle abc with unit normal n?
** Edge-inclusive sign tests on (edge x (p - vertex)) . n; a point that
** rounding puts just outside is caught by the edge sweep at the same t. */
static int point_in_triangle(cs_Vec3 p, const cs_TriES *tr) {
  if (v3_dot(v3_cross(v3_sub(tr->b, tr->a), v3_sub(p, tr->a)), tr->n) < 0) return 0;
  if (v3_dot(v3_cross(v3_sub(tr->c, tr->b), v3_sub(p, tr->b)), tr->n) < 0) return 0;
  if (v3_dot(v3_cross(v3_sub(tr->a, tr->c), v3_sub(p, tr->c)), tr->n) < 0) return 0;
  return 1;
}

/* A move from a touch counts as moving in when the rate at which the
** distance to the feature falls is above this share of the speed (|b| is
** 2 |vel| cos for a vertex, 2 ee |vel| cos for an edge, the distance being
** 1): below it the move runs along the feature, whose distance only grows
** from its minimum (a graze). Without it a slide that stopped at a graze
** (a mover resting exactly on a slab, walking off its edge) met the edge
** again at t = 0 on every sweep and stopped there for good. Pinned by
** test_tolerances: graze_restart (0: 1 of 24 turned scenes stops at the
** edge). Past it a move in at a smaller cosine from a touch is let through;
** it enters the feature by at most cos^2 / 2 radii (5e-25). */
#define TOUCH_IN_COS 1e-12

/* A move longer than this (squared, e-space: 1e4 radii) meets vertices and
** edges by the point of its path nearest to them, not by the quadratic's
** discriminant: that is b^2 - 4ac of terms near (vv |bp|)^2, whose rounding
** outgrows the 4 vv it is to find once the move is 1e8 radii (a sphere of
** 1e-7 dropped 200 m onto a vertex of a placed terrain missed it and fell
** through: found by an independent tester, 57 of 6,534 vertices). Shorter
** moves keep the quadratic, as pinned by the tolerance tests. */
#define LONG_MOVE_VV 1e8

/* In the slide's mode, a path that comes within the edge's cylinder or the
** vertex's sphere by less than this (1 - h^2, h its nearest distance: a
** depth of PLANE_TOUCH, below, to first order) grazes it and meets nothing: the direction
** from the feature at the tangent is the move's normal tilted by rounding
** (6e-9), and the skin kept along it took the whole move back (a walk along
** a floor over a convex crease, 1e-16 off the floor, lost its move at the
** crease; found by an independent tester, 170 of 400 pressing walks). Only
** for a move along the triangle's plane, away from it, or into it by no
** more than PLANE_TOUCH: one that goes deeper enters the face past the edge
** (a concave crease), and the edge stands for the face's contact, which
** fell on it. */
#define GRAZE_1MH2 9.98e-10

/* The first t in [0, *t] at which a point moving from q (relative to the
** feature) by w is at distance 1 from the feature (ww = w.w > 0, |q| > 1):
** from s, where it comes nearest, back by the chord's half; one that comes
** nearer than 1 by less than graze (1 - h^2: GRAZE_1MH2 or 0) passes it. 1
** when met. */
CS_COLD int nearest_point_root(cs_Vec3 q, cs_Vec3 w, double ww, double graze, double *t) {
  double s = -v3_dot(w, q) / ww, h2, r;
  if (!(s > 0.0)) return 0;                      /* moving away from it */
  h2 = v3_len2(v3_madd(q, w, s));
  if (!(h2 < 1.0 - graze)) return 0;             /* passes it by, or grazes it */
  r = s - sqrt((1.0 - h2) / ww);
  if (r < 0.0) r = 0.0;                          /* (outside at 0: rounding) */
  if (r > *t) return 0;
  *t = r;
  return 1;
}

/* Vertex p against the sphere base + t vel: |base + t vel - p|^2 = 1,
** i.e. (v.v) t^2 + 2 v.(base - p) t + |base - p|^2 - 1 = 0 (Fauerby 3.3). */
static int sweep_vertex(cs_Vec3 base, cs_Vec3 vel, double vv, cs_Vec3 p, double graze, double *t) {
  cs_Vec3 bp = v3_sub(base, p);
  double b = 2.0 * v3_dot(vel, bp), c = v3_len2(bp) - 1.0;
  /* Touching at the start (c <= 0), moving in (b < 0): a contact at t = 0.
  ** The sweep gets here only when there is no overlap at t = 0, so c <= 0
  ** is the rounding of a touch; cs_lowest_root would drop its root, which
  ** rounds below 0, and the sphere would pass through (spec/c/test_sweep.c,
  ** "touching" cases). Moving along it or away, nothing is met. */
  if (c <= 0.0) {
    if (b < -2.0 * TOUCH_IN_COS * sqrt(vv)) { *t = 0.0; return 1; }
    return 0;
  }
  if (vv > LONG_MOVE_VV) return nearest_point_root(bp, vel, vv, graze, t);
  if (b * b - 4.0 * vv * c < 4.0 * vv * graze) return 0;    /* (1 - h^2) 4 vv */
  return cs_lowest_root(vv, b, c, *t, t);
}

/* sweep_edge's root for a long move (see LONG_MOVE_VV), the sphere outside
** the edge's cylinder at the start: across the edge's line the path and
** the foot's offset bp (ebp = e.bp, ev = e.vel) with their parts along the
** edge taken out are a point against a point (the cylinder's section);
** where along the edge, from the foot of the centre then (ev r and ebp
** cancel to 1e-8 of the edge there). */
CS_COLD int edge_root_long(cs_Vec3 base, cs_Vec3 vel, cs_Vec3 p1, cs_Vec3 e, double ee,
                           double ev, cs_Vec3 bp, double ebp, double graze, double *t,
                           cs_Vec3 *point) {
  cs_Vec3 w = v3_madd(vel, e, -ev / ee), q = v3_madd(bp, e, -ebp / ee);
  double ww = v3_len2(w), r = *t, f;
  if (!(ww > 0.0) || !nearest_point_root(v3_neg(q), w, ww, graze, &r)) return 0;
  f = v3_dot(v3_sub(v3_madd(base, vel, r), p1), e) / ee;
  if (f < 0.0 || f > 1.0) return 0;
  *t = r;
  *point = v3_madd(p1, e, f);
  return 1;
}

/* Edge p1-p2 against the sphere: the centre's distance to the edge's line
** is 1 (Fauerby 3.3, the infinite cylinder around the edge); the hit counts
** when its foot lies on the segment. On a hit lowers *t and sets *point. */
static int sweep_edge(cs_Vec3 base, cs_Vec3 vel, double vv, cs_Vec3 p1, cs_Vec3 p2,
                      double graze, double *t, cs_Vec3 *point) {
  cs_Vec3 e = v3_sub(p2, p1), bp = v3_sub(p1, base);
  double ee = v3_dot(e, e), s0 = ee > 0.0 ? -v3_dot(e, bp) / ee : 0.0, ev, ebp, a, b, c, r, f;
  /* Fauerby's terms are taken from the foot of base on the edge's line,
  ** p1 + s0 e, not from p1: the cylinder is the same, and c no longer
  ** cancels ee |bp|^2 against (e.bp)^2, which lost eps |bp|^2 (2e-6 for an
  ** edge end 1e5 radii away: fuzz/regressions/fuzz_slide/long-edge). */
  bp = v3_madd(bp, e, s0);
  ev = v3_dot(e, vel);
  ebp = v3_dot(e, bp);
  a = ee * -vv + ev * ev;
  b = ee * 2.0 * v3_dot(vel, bp) - 2.0 * ev * ebp;
  c = ee * (1.0 - v3_len2(bp)) + ebp * ebp;
  if (a == 0.0) return 0;   /* moving along the edge: its end vertices decide */
  /* Touching the edge's cylinder at the start, moving in (c >= 0 is inside,
  ** since a < 0; b > 0 is inward): a contact at t = 0, as in sweep_vertex;
  ** moving along it or away, nothing is met. */
  if (c >= 0.0) {
    if (!(b > 2.0 * TOUCH_IN_COS * ee * sqrt(vv))) return 0;
    r = 0.0;
  } else if (-a > LONG_MOVE_VV * ee) {        /* (-a / ee: the move across the edge, squared) */
    return edge_root_long(base, vel, p1, e, ee, ev, bp, ebp, graze, t, point);
  } else if (b * b - 4.0 * a * c < -4.0 * ee * a * graze ||   /* (1 - h^2) 4 ee ee ww */
             !cs_lowest_root(a, b, c, *t, &r)) return 0;
  f = s0 + (ev * r - ebp) / ee;  /* where along the edge the contact lies */
  if (f < 0.0 || f > 1.0) return 0;
  *t = r;
  *point = v3_madd(p1, e, f);
  return 1;
}

/* Can the sphere meet the triangle's boundary (its vertices and edges) at
** some t in [0, te]? A cheap conservative bound that spares most triangles
** the six quadratics. For unit directions u1, u2 at right angles, the
** distance from a point c to the triangle is at least sqrt(s1^2 + s2^2),
** s the separations u.c - max over the vertices v of u.v (where positive):
** the support function bounds every point of the triangle, also of a sliver
** whose vertices rounding left off its plane (by up to tr->off). u1 is the
** normal (or its opposite) and u2 the outward normal in the plane of one
** edge (the one that separates most; cs_tri_bounds keeps them). Every
** separation is linear in t along c(t) = base + t vel, so its least value
** on an interval is at an end (or 0 where the height changes sign). The
** interval starts where the centre comes within 1 + off of the plane (t0 on
** a sound triangle): no root of the quadratics lies before that. When even
** these lower bounds put the centre farther than 1 for the whole interval,
** nothing is met. Double precision with a margin far above the rounding of
** this test and of the quadratics (relative to the coordinates' size), so
** that it drops only triangles the full test would not hit: results do not
** change (spec/c/test_sweep.c compares with a reference).
** move_size: move_size_of(base, vel, te) or more.
** The bound is on the distance to the whole triangle over [ts, te], so it
** also rules out a face contact (at t0, in the interval) and an overlap at
** the start (then ts = 0): cs_sweep_triangles uses it before the kernel.
** Returns 0 when the triangle is surely out of reach. */
/* The size of a move's coordinates up to te, for boundary_in_reach. */
CS_INLINE double move_size_of(cs_Vec3 base, cs_Vec3 vel, double te) {
  return 1.0 + fabs(base.x) + fabs(base.y) + fabs(base.z)
       + te * (fabs(vel.x) + fabs(vel.y) + fabs(vel.z));
}

CS_INLINE int boundary_in_reach(cs_Vec3 base, cs_Vec3 vel, const cs_TriES *tr, double dist,
                            double ndv, double t0, double te, double move_size) {
  cs_Vec3 p, q = v3_madd(base, vel, te);
  double ts = 0.0, hs, he = dist + te * ndv, h, l = -HUGE_VAL, size, margin;
  int k;
  /* the size of the coordinates the test and the quadratics work with */
  size = move_size + tr->size;
  margin = 1e-8 * size + 1e-15 * size * size;
  if (t0 > 0.0) {
    ts = t0 - (tr->off + margin) / fabs(ndv);
    if (ts < 0.0) ts = 0.0;
  }
  p = v3_madd(base, vel, ts);
  for (k = 0; k < 3; k++) {
    double gs = v3_dot(tr->edge_n[k], p), ge = v3_dot(tr->edge_n[k], q);
    double g = (gs < ge ? gs : ge) - tr->edge_d[k];
    if (g > l) l = g;
  }
  l -= margin;
  if (!(l > 0)) return 1;                 /* the foot may lie over the triangle */
  /* the height's separation: above the highest vertex or below the lowest */
  hs = dist + ts * ndv;
  h = hs < he ? hs : he;
  if (h > tr->off) h -= tr->off;
  else {
    h = hs > he ? hs : he;
    h = h < -tr->off ? -tr->off - h : 0.0;
  }
  h = h > margin ? h - margin : 0.0;
  return !(h * h + l * l > 1.0);
}

/* finish_hit: a contact normal within this sine of the triangle's own
** normal is the face's. Met at an edge or vertex right under the centre
** (the shared edge of a floor's two triangles, a sphere 1e-9 over it
** coming down on it), the direction from the point is the face's normal
** tilted by rounding (5e-10), and the slide's plane with it: the move
** clipped to it dipped into the other triangle's face, met at a glancing
** angle a metre on, and the pass ended there, call after call (found by
** an independent tester). A tilt this small changes no response by more
** than 1e-6 radii a radius; a sphere rolling over a true edge passes it
** within 1e-6 of its turn. Pinned by spec/c/test_tolerances.c, edge_tilt. */
#define FACE_NORMAL_SIN 1e-6

/* The contact normal at time t: from the contact point toward the centre. */
static void finish_hit(cs_Vec3 base, cs_Vec3 vel, const cs_TriES *tr, int feature,
                       double t, cs_Vec3 point, cs_SweepHit *hit) {
  cs_Vec3 n = v3_sub(v3_madd(base, vel, t), point);
  double l = v3_len(n);
  if (l > 1e-12) {
    double dn;
    n = v3_scale(n, 1.0 / l);
    dn = v3_dot(n, tr->n);
    if (v3_len2(v3_madd(n, tr->n, -dn)) < FACE_NORMAL_SIN * FACE_NORMAL_SIN)
      n = dn < 0 ? v3_neg(tr->n) : tr->n;
  }
  else n = v3_dot(vel, tr->n) > 0 ? v3_neg(tr->n) : tr->n;  /* centre on the triangle */
  hit->t = t;
  hit->point = point;
  hit->normal = n;
  hit->feature = feature;
}

/* check_overlap, in the slide's mode: a move whose part into the surface
** is at most this fraction of its length runs along the surface (rounding
** of a move clipped to it). */
#define TOUCH_ALONG_REL 1e-12

/* check_overlap: a centre nearer to the triangle than this share of its
** and the triangle's coordinates (largest |.| of each) is on it, where the
** direction away from it is rounding. Pinned by the on-plane case of
** movement_spec (a centre on the face two boxes share, 1e-17 off it). */
#define CENTRE_ON_REL (64 * DBL_EPSILON)

/* rests_on_plane: a sphere that stays within this of the triangle's plane
** (e-space units, a depth into it) is resting on it: the overlap cannot
** get deeper than the plane's own depth, whatever the closest point says.
** Just under the depth the slide takes for stuck (cs_slide.c, STUCK_EPS: a
** squared distance 1 - 1e-9, a depth of 5e-10), so no call ends stuck by it
** and no overlap is neither resting nor stuck (at half of it, a mover put
** 2.6e-10 to 4.9e-10 into a flat quad lost every move across its diagonal:
** found by an independent tester); far above the rounding of a floor mapped
** into a turned e-space 1e5 from the origin (1e-11). Pinned by
** spec/c/test_tolerances.c, plane_touch and push_along_floor. */
#define PLANE_TOUCH 4.99e-10

/* The sphere already overlaps the triangle at t = 0 when the closest point
** is nearer than 1. In the slide loop's mode only a move that deepens the
** overlap is blocked: distance to a convex set is a convex function of the
** centre, so if it does not decrease at t = 0 it never does. A centre on
** the triangle gets farther from it whichever way it goes, but the back
** of a solid's triangle (cs_TriES.solid) is its inside: a move there is
** deeper in (found by an independent tester: a mover stuck with its
** centre on the face two boxes share walked on into one of them). */
static int check_overlap(cs_Vec3 base, cs_Vec3 vel, const cs_TriES *tr, int flags,
                         cs_SweepHit *hit, int *skip) {
  cs_Vec3 q = cs_closest_on_triangle(base, tr->a, tr->b, tr->c, NULL);
  cs_Vec3 away = v3_sub(base, q);
  double d2 = v3_len2(away);
  *skip = 0;
  if (d2 >= 1.0) return 0;
  if (flags & CS_SWEEP_DEEPENING_ONLY) {
    /* a tolerance keeps a move along the surface from counting as deeper */
    double vl = v3_len(vel);
    double on = CENTRE_ON_REL * (v3_maxabs(base) + v3_maxabs(tr->a));
    double pd = v3_dot(tr->n, base) + tr->d;
    if (tr->solid && pd <= on && (d2 <= on * on || point_in_triangle(v3_madd(base, tr->n, -pd), tr))) {
      /* on or behind a solid's face, over it: its back is deeper in (the
      ** rounding of a centre on the plane at 1e3 from the origin is past
      ** `on`, which sees the e-space coordinates only: behind counts too) */
      if (!(v3_dot(vel, tr->n) < -TOUCH_ALONG_REL * vl)) { *skip = 1; return 0; }
    } else if (d2 <= on * on || v3_dot(vel, away) >= -TOUCH_ALONG_REL * vl * sqrt(d2)) {
      *skip = 1;                          /* (on it: every way leaves it) */
      return 0;
    }
  }
  finish_hit(base, vel, tr, CS_FEATURE_OVERLAP, 0.0, q, hit);
  return 1;
}

/* Does the sphere (dist = n.base + d, ndv = n.vel) end the move, at tmax, no
** deeper into the plane than PLANE_TOUCH, on the side it started on? */
CS_INLINE int ends_within_touch(double dist, double ndv, double tmax) {
  return (dist < 0.0 ? -1.0 : 1.0) * (dist + ndv * tmax) >= 1.0 - PLANE_TOUCH;
}

/* In the slide's mode (CS_SWEEP_DEEPENING_ONLY): does the sphere rest on
** the triangle's plane (dist = n.base + d within PLANE_TOUCH of 1, on the
** front of a solid's), moving along it or away (ndv = n.vel), or in no
** deeper than PLANE_TOUCH by tmax (a walk along a floor 1e5 from the
** origin, mapped into a turned e-space, heads into it by 3e-12 of its
** length)? Then the move never gets deeper into the triangle than that,
** which is rounding, and nothing of it is met. Without it the triangle's edges and
** vertices were: the direction from them is tilted (1e-8 for a depth of
** 5e-17), so a walk across the shared edge of a flat floor's two triangles
** went into the other's edge at t = 0, and a turned sphere placed on the
** floor stopped there for good (found by an independent tester). */
static int rests_on_plane(const cs_TriES *tr, double dist, double ndv, cs_Vec3 vel, double tmax) {
  double s = dist < 0.0 ? -1.0 : 1.0;
  return s * dist >= 1.0 - PLANE_TOUCH && !(tr->solid && dist < 0.0) &&
         (s * ndv >= -TOUCH_ALONG_REL * v3_len(vel) || ends_within_touch(dist, ndv, tmax));
}

int cs_sweep_rests_on(const cs_TriES *tr, cs_Vec3 base, cs_Vec3 vel) {
  return rests_on_plane(tr, v3_dot(tr->n, base) + tr->d, v3_dot(tr->n, vel), vel, 1.0);
}

/* The sphere meets the triangle's plane at distance dist = n.base + d, and
** ndv = n.vel, in [t0, t1] (Fauerby 3.2), which meets [0, tmax]: the rest
** of cs_sweep_triangle. bound_checked: the caller has already found
** boundary_in_reach true for the same interval (cs_sweep_triangles), so the
** vertex and edge tests go ahead without it. */
static int sweep_in_plane(cs_Vec3 base, cs_Vec3 vel, const cs_TriES *tr, double tmax,
                          int flags, double dist, double ndv, double t0, double t1,
                          int bound_checked, cs_SweepHit *hit) {
  double t, vv, graze;
  cs_Vec3 point;
  int feature = -1, skip;
  if (t0 <= 0.0) {
    /* The sphere cuts the plane now: an overlap, or else only the boundary
    ** can be met (a face contact would have to be in the past). */
    if ((flags & CS_SWEEP_DEEPENING_ONLY) && rests_on_plane(tr, dist, ndv, vel, tmax)) return 0;
    if (!(flags & CS_SWEEP_CLEAR_START)) {
      if (check_overlap(base, vel, tr, flags, hit, &skip)) return 1;
      if (skip) return 0;
    }
    /* No overlap, yet the plane distance says the sphere cuts the plane: over
    ** the face's interior that is a touch (|dist| is 1 up to rounding), and a
    ** move into the plane meets the face at t = 0. Without this the face was
    ** never tested and such a move passed through it (test_sweep.c,
    ** "touching" cases: a unit sphere at distance exactly 1 over a floor,
    ** moving down, missed it). */
    if (dist * ndv < 0.0) {
      cs_Vec3 p = v3_madd(base, tr->n, -dist);
      if (point_in_triangle(p, tr)) {
        finish_hit(base, vel, tr, CS_FEATURE_FACE, 0.0, p, hit);
        return 1;
      }
    }
  } else {
    /* The face: where the sphere first touches the plane (Fauerby 3.2). */
    cs_Vec3 c = v3_madd(base, vel, t0);
    cs_Vec3 p = v3_madd(c, tr->n, -(v3_dot(tr->n, c) + tr->d));
    if (point_in_triangle(p, tr)) {
      finish_hit(base, vel, tr, CS_FEATURE_FACE, t0, p, hit);
      return 1;
    }
  }
  /* Vertices and edges, keeping the earliest root up to min(t1, tmax). */
  t = t1 < tmax ? t1 : tmax;
  vv = v3_len2(vel);
  if (vv == 0.0) return 0;
  if (!bound_checked && tr->edge_ready &&
      !boundary_in_reach(base, vel, tr, dist, ndv, t0, t, move_size_of(base, vel, t)))
    return 0;
  /* (a graze of a triangle whose plane the move goes deeper into than
  ** PLANE_TOUCH is no graze: past the edge it enters the face, whose contact
  ** at t0 fell on the edge) */
  graze = (flags & CS_SWEEP_DEEPENING_ONLY) && (dist * ndv >= 0.0 || ends_within_touch(dist, ndv, tmax))
          ? GRAZE_1MH2 : 0.0;
  if (sweep_vertex(base, vel, vv, tr->a, graze, &t)) { feature = CS_FEATURE_VERTEX; point = tr->a; }
  if (sweep_vertex(base, vel, vv, tr->b, graze, &t)) { feature = CS_FEATURE_VERTEX; point = tr->b; }
  if (sweep_vertex(base, vel, vv, tr->c, graze, &t)) { feature = CS_FEATURE_VERTEX; point = tr->c; }
  if (sweep_edge(base, vel, vv, tr->a, tr->b, graze, &t, &point)) feature = CS_FEATURE_EDGE;
  if (sweep_edge(base, vel, vv, tr->b, tr->c, graze, &t, &point)) feature = CS_FEATURE_EDGE;
  if (sweep_edge(base, vel, vv, tr->c, tr->a, graze, &t, &point)) feature = CS_FEATURE_EDGE;
  if (feature < 0) return 0;
  finish_hit(base, vel, tr, feature, t, point, hit);
  return 1;
}

/* The interval [t0, t1] in which the unit sphere, its centre at signed
** distance dist from the plane and moving ndv along its normal per unit t,
** meets the plane (Fauerby 2003, 3.2); 0 when it does not within [0, tmax]
** (parallel and farther than 1, or the cheap early out). */
CS_INLINE int plane_interval(double dist, double ndv, double tmax, double *t0, double *t1) {
  if (ndv == 0.0) {
    if (fabs(dist) >= 1.0) return 0;
    *t0 = 0.0;
    *t1 = tmax;
    return 1;
  }
  *t0 = (-1.0 - dist) / ndv;
  *t1 = (1.0 - dist) / ndv;
  if (*t0 > *t1) { double tmp = *t0; *t0 = *t1; *t1 = tmp; }
  return !(*t0 > tmax || *t1 < 0.0);
}

/* A one-sided triangle is skipped when the move points away from its front
** (Fauerby 3.2; a zero move, or one along the face, counts as against it).
** "Away" means by more than a share of the move's length: a move along the
** face in the world, mapped into a turned ellipsoid's space, points away or
** in by rounding, and a sweep overlapping the face gave no hit where it
** gives t = 0 (a quarter of random turns at the origin; then, past that
** first fix, 1 in 5 triangles of 0.1 m at 1e4 from the origin and 1 in 7
** slivers: found by independent testers, round 24). The queries' sweeps
** (CS_SWEEP_ONCE) allow the rounding of a triangle 1e5 from the origin or a
** sliver 1e-7 wide (AWAY_QUERY_REL: an angle of 1e-8 radians); the slide,
** which never blocks a move along a face it overlaps, the least
** (AWAY_FROM_FRONT_REL). Pinned by queries_spec ("along a one-sided
** face") and test_regressions. */
#define AWAY_FROM_FRONT_REL 1e-12
#define AWAY_QUERY_REL 1e-8

CS_INLINE int away_from_front(const cs_TriES *tr, double ndv, cs_Vec3 vel, double rel) {
  return tr->one_sided && ndv > 0.0 && ndv * ndv > rel * rel * v3_len2(vel);
}

int cs_sweep_triangle(cs_Vec3 base, cs_Vec3 vel, const cs_TriES *tr, double tmax,
                      int flags, cs_SweepHit *hit) {
  double dist = v3_dot(tr->n, base) + tr->d;   /* signed distance, centre to plane */
  double ndv = v3_dot(tr->n, vel);
  double t0, t1;
  /* one-sided triangles: only a move against the front face */
  if (!(flags & CS_SWEEP_BOTH_SIDES) &&
      away_from_front(tr, ndv, vel, flags & CS_SWEEP_ONCE ? AWAY_QUERY_REL : AWAY_FROM_FRONT_REL))
    return 0;
  if (!plane_interval(dist, ndv, tmax, &t0, &t1)) return 0;
  return sweep_in_plane(base, vel, tr, tmax, flags, dist, ndv, t0, t1, 0, hit);
}

/* The unit outward normal in the plane (normal n) of edge ab, whose third
** vertex is c, and the vertices' largest projection on it; |(b - a) x n| =
** |b - a| since n is a unit normal to the edge, and b lies on the edge's
** line, so the largest projection is a's or c's (up to rounding far below
** the kernel's margin). An edge of no length bounds nothing. */
CS_INLINE void edge_plane(cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, cs_Vec3 n, cs_Vec3 *m, double *d) {
  cs_Vec3 e = v3_sub(b, a);
  double el = v3_len(e), da, dc;
  if (!(el > 0 && el < HUGE_VAL)) { *m = v3(0, 0, 0); *d = 0.0; return; }
  *m = v3_scale(v3_cross(e, n), 1.0 / el);
  da = v3_dot(*m, a);
  dc = v3_dot(*m, c);
  *d = da > dc ? da : dc;
}

/* Fills t's data for boundary_in_reach (from its vertices, normal, plane
** and bounds). */
static void edge_data(cs_TriES *t) {
  double ob = fabs(v3_dot(t->n, t->b) + t->d), oc = fabs(v3_dot(t->n, t->c) + t->d);
  t->size = fabs(t->a.x) + fabs(t->a.y) + fabs(t->a.z)
          + (t->hi.x - t->lo.x) + (t->hi.y - t->lo.y) + (t->hi.z - t->lo.z);
  t->off = ob > oc ? ob : oc;     /* a itself is on the plane: d = -dot(n, a) */
  edge_plane(t->a, t->b, t->c, t->n, &t->edge_n[0], &t->edge_d[0]);
  edge_plane(t->b, t->c, t->a, t->n, &t->edge_n[1], &t->edge_d[1]);
  edge_plane(t->c, t->a, t->b, t->n, &t->edge_n[2], &t->edge_d[2]);
  t->edge_ready = 1;
}

void cs_tri_bounds(cs_TriES *t) {
  t->lo = v3_min(v3_min(t->a, t->b), t->c);
  t->hi = v3_max(v3_max(t->a, t->b), t->c);
  t->edge_ready = 0;
}

/* The box the sphere sweeps through, [lo, hi], as cs_sweep_triangles
** tests each triangle's bounds against it first (the loop's most frequent
** test). With SSE2 the six comparisons are made two at a time on the
** bounds as they lie in cs_TriES (lo.x lo.y | lo.z hi.x | hi.y hi.z), with
** hi.x < lo.x tested as -hi.x > -lo.x (a sign flip, exact): the same
** answers as the scalar test, a NaN compares false and keeps the triangle
** in both. */
typedef struct SweptBox {
  cs_Vec3 lo, hi;
#if defined(__SSE2__)
  __m128d q0, q1, q2, flip;
#endif
} SweptBox;

static void swept_box(SweptBox *b, cs_Vec3 lo, cs_Vec3 hi) {
  b->lo = lo;
  b->hi = hi;
#if defined(__SSE2__)
  b->q0 = _mm_set_pd(hi.y, hi.x);       /* _mm_set_pd(high lane, low lane) */
  b->q1 = _mm_set_pd(-lo.x, hi.z);
  b->q2 = _mm_set_pd(lo.z, lo.y);
  b->flip = _mm_set_pd(-0.0, 0.0);
#endif
}

/* Does t's box miss b? */
CS_INLINE int box_misses(const cs_TriES *t, const SweptBox *b) {
#if defined(__SSE2__)
  const double *p = &t->lo.x;           /* lo, hi: 6 doubles in a row */
  __m128d m = _mm_or_pd(_mm_cmpgt_pd(_mm_loadu_pd(p), b->q0),
                        _mm_cmpgt_pd(_mm_xor_pd(_mm_loadu_pd(p + 2), b->flip), b->q1));
  m = _mm_or_pd(m, _mm_cmplt_pd(_mm_loadu_pd(p + 4), b->q2));
  return _mm_movemask_pd(m) != 0;
#else
  return t->lo.x > b->hi.x || t->hi.x < b->lo.x || t->lo.y > b->hi.y || t->hi.y < b->lo.y ||
         t->lo.z > b->hi.z || t->hi.z < b->lo.z;
#endif
}

long cs_sweep_triangles(cs_Vec3 base, cs_Vec3 vel, cs_TriES *tris, size_t n,
                        double tmax, int flags, cs_SweepHit *hit) {
  /* the box the sphere sweeps through: no triangle outside it is met */
  cs_Vec3 end = v3_madd(base, vel, tmax), one = v3(1, 1, 1);
  cs_Vec3 lo = v3_sub(v3_min(base, end), one), hi = v3_add(v3_max(base, end), one);
  long best = -1;
  double move_size = move_size_of(base, vel, tmax);   /* tmax only drops below */
  SweptBox box;
  size_t i;
  swept_box(&box, lo, hi);
  for (i = 0; i < n; i++) {
    cs_TriES *t = &tris[i];
    if (t->response == CS_RESPONSE_CROSS || box_misses(t, &box)) continue;
    /* The plane interval of cs_sweep_triangle (Fauerby 3.2) before the call,
    ** the same expressions, so the same doubles; then boundary_in_reach,
    ** whose bound holds for every contact (the face's at t0 and an overlap
    ** at 0 too, both at distance 1 or less): most triangles of a slide end
    ** here. Its data pays when the triangles are swept again, as the
    ** slide's passes do; a single sweep (CS_SWEEP_ONCE) goes straight to
    ** the kernel, where the two tests would only be made twice. */
    if (!(flags & CS_SWEEP_ONCE)) {
      double dist = v3_dot(t->n, base) + t->d, ndv = v3_dot(t->n, vel), t0, t1;
      if (away_from_front(t, ndv, vel, AWAY_FROM_FRONT_REL)) continue;
      if (!plane_interval(dist, ndv, tmax, &t0, &t1)) continue;
      if (!t->edge_ready) edge_data(t);
      if (!boundary_in_reach(base, vel, t, dist, ndv, t0, t1 < tmax ? t1 : tmax, move_size))
        continue;
      /* the kernel's rest, on the interval just found (the same doubles) */
      if (!sweep_in_plane(base, vel, t, tmax, flags, dist, ndv, t0, t1, 1, hit)) continue;
    } else if (!cs_sweep_triangle(base, vel, t, tmax, flags, hit)) {
      continue;
    }
    best = (long)i;
    tmax = hit->t;
    if (tmax == 0.0) break;     /* nothing is earlier than an overlap */
  }
  return best;
}
