/*
** cs_slide.c: the collide-and-slide response on the gathered triangles, in
** ellipsoid space (Fauerby 2003, section 4 and appendix F), as a loop, with
** Quake's PM_SlideMove lessons for creases, and the passes a walking
** character needs: carry (Fauerby 2000, "Dynamic geometry"), depenetration
** and the last safe position (Fauerby 2000, "Error handling"), step up/down
** (Quake's PM_StepSlideMove), gravity (Fauerby 2003, 4.3), snapping.
*/
#include <float.h>
#include <limits.h>
#include <string.h>

#include "cs_body.h"
#include "cs_geom.h"
#include "cs_slide.h"

#define MAX_PLANES 8
#define MAX_CANDIDATES 128

/* {==================================================================
** Tolerances. Each says what it guards and the case that pins it: a case
** of spec/c/test_tolerances.c that fails when the tolerance is set to 0
** or made larger. tools/pin_tolerances.sh rebuilds the slide with each
** set to 0, to 1000 times its value and to the larger value the first
** probe tried, and names the cases that fail (docs/DESIGN.md, "The
** slide's tolerances", has its table). Four mutants live; each comment
** says why.
** ===================================================================*/

/* sweep_step: below this cosine between the move and the contact normal the
** move runs along the surface, and stopping a skin short along the normal
** would cost skin / cos of travel (1e10 and more); the skin is then not
** taken off and the move runs to the contact. Pinned by test_tolerances:
** glancing_stop (0: a move at cos 1e-13 no longer reaches its contact;
** 1e-9: one at cos 1e-10 no longer keeps its skin). */
#define GLANCING_COS 1e-12
/* is_below, slide_normal, classify_ground: a unit contact normal whose up
** component is at most this does not face up (a wall whose normal rounds a
** hair upward is no ground, and gets no wall treatment). Pinned by
** test_tolerances: wall_rounded_up (0: a wall tipped 1e-12 is steep ground;
** 1e-6: one leaning back 1e-7 is no ground). */
#define UP_EPS 1e-9
/* is_walkable, slide_normal: a slope exactly at slope_limit is walkable
** although cos(limit) and the normal's up part round apart. Pinned by
** test_tolerances: slope_at_limit (0: a 45-degree ramp whose normal's up
** part rounds 1 ulp below cos 45 is steep; 1e-9: a ramp 1e-10 steeper than
** the limit is ground). */
#define WALKABLE_EPS 1e-12
/* support_triangle: how far (ellipsoid-space units) outside a triangle's
** box a contact point may lie and still be tested as on it: the box is the
** float-free bounds of the same doubles, so this only absorbs the rounding
** of the contact point. Pinned from below by test_tolerances: stair_nose
** (0: a nose the tread and riser round 1 ulp apart is reported on the
** riser). Not from above, and cannot be: the test that follows accepts
** only triangles whose closest point is within sqrt(SUPPORT_SAME_D2) =
** 1e-7 of the contact, which lie within 1e-7 of it on every axis, so any
** pad of 1e-7 or more lets through every triangle that test can accept
** (a larger pad only costs time). */
#define SUPPORT_BOX_PAD 1e-7
/* support_triangle: squared distance (ellipsoid space) within which another
** triangle's closest point is the same contact (a stair's nose shared by
** tread and riser). Pinned by test_tolerances: stair_nose (0: a nose the
** two round 1 ulp apart is two contacts, the riser's reported; 1e-11: a
** tread 1.3e-7 off the nose is taken for the same contact). Only
** distances the box pad lets through (1e-7 per axis) can be told apart. */
#define SUPPORT_SAME_D2 1e-14
/* clip_to_planes: a clipped move counts as going into a plane only past this
** fraction of its length (rounding of a move that lies in the plane).
** Pinned from above by test_tolerances: grazing_wall (1e-9: a move into a
** wall by 1e-10 of its length is kept, meets the wall again and again and
** gets nowhere). The 0 mutant lives: with two planes, a single-plane clip
** that rounding puts into the other lies in both, so the crease of the two
** gives the same move; only (anti)parallel planes, which make no crease,
** or three planes through one line could tell, and no scene reaches them
** with the rounding needed. */
#define CLIP_REL_EPS 1e-12
/* clip_to_planes: two planes whose normals' cross product is shorter than
** this are parallel and make no crease. Pinned from above by
** test_tolerances: wedge (1e-6: a floor and a ceiling closing by 1e-7 make
** no crease and the mover stops instead of sliding along it). Same-facing
** planes this close are one plane already (add_plane, SAME_PLANE_EPS), so
** it matters only for nearly opposite ones. The 0 mutant lives: it differs
** only for exactly opposite normals (the cross product exactly 0, a NaN
** crease) in a pass whose single-plane clips all fail; a move clipped to
** one face never heads into an exactly opposite one, so that needs a third
** plane and the two met with exactly opposite normals, which no scene
** found reaches. */
#define CREASE_MIN_SIN 1e-9
/* add_plane: a plane whose normal is within this of one already held
** (1 - cos) is the same plane met again. Pinned from above by
** test_tolerances: wall_bend (1e-6: a wall turning 1e-3 toward the mover
** is taken for the wall before it, and the mover stops at the bend). The 0
** mutant lives: a plane held twice changes no clip (the single-plane tests
** pass or fail alike and the pair makes no crease) and only takes one of
** the MAX_PLANES slots; filling them needs a pass to meet the same plane
** again eight times, which a move clipped to it (running parallel to it)
** does not do. */
#define SAME_PLANE_EPS 1e-9
/* depenetration: overlap below 1 - STUCK_EPS squared e-space distance is
** stuck; resting contact, a skin away or touching after rounding, is not.
** Pinned by test_tolerances: resting_overlap (0: a floor 1e-12 inside is
** stuck and pushed away; 1e-6: a floor 1e-7 inside is not) and
** touching_intervals (0). */
#define STUCK_EPS 1e-9
/* free_distance: blocked intervals that touch within this (e-space units)
** are merged, so rounding between two triangles' intervals leaves no free
** gap of zero width. Pinned by test_tolerances: touching_intervals (0: a
** floor and a ceiling exactly the mover's height apart leave a slot it is
** pushed into; 1e-9: a slot 1e-10 taller than the mover is no room). */
#define INTERVAL_EPS 1e-12
/* depenetrate: a closest-point offset shorter than this (squared) has no
** direction to push along (the centre lies on the triangle). Pinned by
** test_tolerances: centre_on_triangle (0: a centre 1e-12 off a plate's
** edge is pushed sideways along the offset; 1e-15: a centre 1e-8 off it is
** no longer pushed out the shortest way, sideways). */
#define AWAY_MIN_D2 1e-18
/* inside_faces: a triangle met by the segment from the centre to its foot
** on another triangle before this share of its length is between them (the
** foot's own triangle's neighbours meet it at its end) */
#define INSIDE_EPS 1e-9
/* depenetration: a centre this share of the coordinates' size from a
** triangle's plane is on it (plane_rounding, on_plane), where rounding
** decides the side and a ray from it may start either side of 0.
** Pinned by the on-plane case of movement_spec (a centre on a box's face
** rounded 1e-17 to either side; 1e-15 off it is off the plane). */
#define ON_PLANE_EPS (64 * DBL_EPSILON)
/* depenetrate: a last safe place nearer than this (squared, e-space) is
** where the mover still is: something moved into it, and the safe place
** says nothing of which side it came from. Pinned by the door and lift
** specs of spec/movers_meet_spec.lua ("overlapping movers"): with 0, a
** mover a door was moved onto stays inside the door. */
#define SAFE_MOVED_D2 1e-18
/* The least skin the slide works with, a share of the mover's smallest
** radius: with a skin of exactly 0 a mover slides on at distance 1 (e-space)
** from what it touches, where rounding makes the shared edge of a flat
** wall's two triangles a contact at t = 0 along the move, again at every
** pass, and a long slide along a crease stalled short of the wall ahead (11
** of 80,000 random corners at 1,000-50,000 radii a move; found by an
** independent tester). Pinned by spec/movement_spec.lua ("a skin of 0"):
** 1e-12 still stalls there, 1e-9 of the radius does not (0 of 80,000). */
#define SKIN_MIN_REL 1e-9

/* }================================================================== */

typedef struct Slide {
  cs_Mover *m;
  const cs_ESpace *es;    /* the set's, copied with its triangles for the loops */
  cs_TriES *tris;
  size_t ntris;
  const cs_Body *const *bodies;  /* of the triangles (cs_TriES.body) */
  cs_ContactBuf *contacts;       /* the call's contacts so far */
  const cs_Alloc *alloc;         /* of contacts */
  const cs_Vec3 *last_safe;      /* the set's (NULL: none in this world) */
  const cs_Vec3 *side_ref;       /* the set's */
  int motion;                    /* the set's, and since */
  unsigned since;
  const cs_Body *carrier;        /* the set's ground body, and how it moved */
  cs_Vec3 carry_es;              /* (ellipsoid space, set by carry_pass; 0 without) */
  cs_Vec3 pos;            /* the centre, ellipsoid space */
  cs_Vec3 up;             /* world up, unit */
  double skin;            /* world units */
  double feet;            /* height of the lowest point at the call's start */
  int touched;            /* a TOUCH response ended the pass */
  int walled;             /* a walk-like pass met a wall (see slide_normal) */
  int in_solid;           /* left stuck with its centre in a solid: no pass moves it */
  int sweep_flags;        /* CS_SWEEP_*: CLEAR_START once the mover is known clear */
  double reach_skins;     /* how many skins past a move's end its sweep looks */
  double reach;           /* world units around the start the triangles cover */
  double push_reach;      /* the set's (cs_SlideSet) */
  cs_Status status;       /* the first failure (contact buffer growth) */
  cs_SensorScratch *path; /* the centre's path for the sensors, or NULL */
  const cs_EllipsoidES *ells;     /* other movers (index ntris + k in a hit) */
  const cs_Mover *const *ell_movers;
  const unsigned char *ell_resp;
  size_t nells;
  const cs_Mover *hidden;         /* a mover passed through (the carrier) */
  int probe;              /* cs_slide_push_out: a push only, no jump back */
} Slide;

/* What a pass met. */
enum { PASS_HIT = 1 };

/* Appends the centre to the path the sensors follow (issue 16): called
** after every move of it, so the path is the one the centre took, slides,
** steps, gravity and snap included. */
static void path_add(Slide *s) {
  cs_SensorScratch *p = s->path;
  if (!p) return;
  if (p->npath == p->cappath &&
      cs_grow(&p->alloc, (void **)&p->path, &p->cappath, p->npath + 1, sizeof(cs_Vec3)) != CS_OK) {
    if (s->status == CS_OK) s->status = CS_ENOMEM;
    return;
  }
  p->path[p->npath++] = s->pos;
}

/* The path's length in points (0 without sensors), and a cut back to n. */
static size_t path_mark(const Slide *s) { return s->path ? s->path->npath : 0; }
static void path_cut(Slide *s, size_t n) { if (s->path) s->path->npath = n; }

/* Where a try began (the centre, the contacts and the path so far), to go
** back to when the try is not kept. */
typedef struct Mark { cs_Vec3 pos; size_t ncontacts, npath; } Mark;
static Mark mark(const Slide *s) {
  Mark k;
  k.pos = s->pos;
  k.ncontacts = s->contacts->count;
  k.npath = path_mark(s);
  return k;
}
static void rewind_to(Slide *s, const Mark *k) {
  s->pos = k->pos;
  s->contacts->count = k->ncontacts;
  path_cut(s, k->npath);
}

/* {==================================================================
** Small helpers
** ===================================================================*/

/* The skin measured along the e-space unit normal n: a world gap g is
** g |E^-T n| in ellipsoid space (planes map by the inverse transpose). */
static double skin_es(const Slide *s, cs_Vec3 n) {
  return s->skin * v3_len(v3_mul(n, s->es->inv_r));
}

/* How far past the end of a move of e-space length vlen a sweep looks, as a
** fraction of it: a skin (two in the gravity pass). A move that ends nearer
** a surface than the skin stops the skin short of it, so movers keep their
** gap rather than ending at exact touch, where rounding decides which side
** they are on; and a mover resting on its ground meets it every call. */
static double sweep_reach(const Slide *s, double vlen) {
  cs_Vec3 ir = s->es->inv_r;
  double k = ir.x > ir.y ? ir.x : ir.y;
  k = k > ir.z ? k : ir.z;
  return 1.0 + s->reach_skins * s->skin * k / vlen;
}

/* The sweep of one step of a pass: the earliest contact along vel within
** the reach, and the travel (e-space length) that stops the skin short of
** it, measured along its normal so a glancing hit leaves no bigger gap.
** Returns the triangle hit, or -1 when the whole move is free. */
static long sweep_step(const Slide *s, cs_Vec3 vel, double vlen, cs_SweepHit *h,
                       double *travel) {
  double cosang, tmax = sweep_reach(s, vlen);
  long i = cs_sweep_triangles(s->pos, vel, s->tris, s->ntris, tmax, s->sweep_flags, h);
  size_t k;
  for (k = 0; k < s->nells; k++) {       /* other movers: an earlier hit wins */
    cs_SweepHit eh;
    if (s->ell_movers[k] == s->hidden) continue;
    if (cs_sweep_ellipsoid(s->pos, vel, &s->ells[k], i >= 0 ? h->t : tmax,
                           CS_SWEEP_DEEPENING_ONLY, &eh) && (i < 0 || eh.t < h->t)) {
      *h = eh;
      i = (long)(s->ntris + k);
    }
  }
  if (i < 0) return -1;
  *travel = h->t * vlen;
  cosang = -v3_dot(vel, h->normal) / vlen;
  if (cosang > GLANCING_COS) *travel -= skin_es(s, h->normal) / cosang;
  if (*travel >= vlen) return -1;        /* ends at least a skin away */
  if (*travel < 0) *travel = 0;
  return i;
}

static double world_len(const Slide *s, cs_Vec3 v_es) {
  return v3_len(cs_espace_vec_from(s->es, v_es));
}

/* The world displacement h * up in ellipsoid space. */
static cs_Vec3 up_es(const Slide *s, double h) {
  return cs_espace_vec_to(s->es, v3_scale(s->up, h));
}

static double height_of(const Slide *s, cs_Vec3 v_es) {
  return v3_dot(cs_espace_vec_from(s->es, v_es), s->up);
}

static int is_below(const Slide *s, const cs_Contact *c) {
  return v3_dot(c->normal, s->up) > UP_EPS;
}

/* Walkable: the triangle's own normal within slope_limit of up (API.md). */
static int is_walkable(const Slide *s, const cs_Contact *c) {
  return v3_dot(c->tri_normal, s->up) >= s->m->cos_slope - WALKABLE_EPS;
}

/* }================================================================== */

/* {==================================================================
** Contacts
** ===================================================================*/

/* At an edge or a vertex several triangles touch at once (a stair's tread
** and riser share its nose); the contact is reported on the one that
** supports best (normal nearest up), so the ground state does not depend
** on the order triangles were gathered in. */
static size_t support_triangle(const Slide *s, size_t hit_tri, const cs_SweepHit *h,
                               cs_Vec3 centre) {
  size_t i, best = hit_tri;
  double best_up;
  if (h->feature == CS_FEATURE_FACE || hit_tri >= s->ntris) return hit_tri;
  best_up = -2;
  for (i = 0; i < s->ntris; i++) {
    const cs_TriES *t = &s->tris[i];
    cs_Vec3 q, n;
    double up;
    if (t->response == CS_RESPONSE_CROSS ||
        h->point.x < t->lo.x - SUPPORT_BOX_PAD || h->point.x > t->hi.x + SUPPORT_BOX_PAD ||
        h->point.y < t->lo.y - SUPPORT_BOX_PAD || h->point.y > t->hi.y + SUPPORT_BOX_PAD ||
        h->point.z < t->lo.z - SUPPORT_BOX_PAD || h->point.z > t->hi.z + SUPPORT_BOX_PAD)
      continue;                          /* the contact is not on it */
    q = cs_closest_on_triangle(centre, t->a, t->b, t->c, NULL);
    if (v3_len2(v3_sub(q, h->point)) > SUPPORT_SAME_D2) continue;
    n = cs_espace_normal_from(s->es, t->n);
    if (v3_dot(n, cs_espace_normal_from(s->es, h->normal)) < 0) n = v3_neg(n);
    up = v3_dot(n, s->up);
    if (up > best_up) { best_up = up; best = i; }
  }
  return best;
}

/* A hit's response and friction: a triangle's (from the filter and the
** friction table), or another mover's (slide, frictionless). */
static int hit_response(const Slide *s, size_t ti) {
  if (ti < s->ntris) return s->tris[ti].response;
  return s->ell_resp ? s->ell_resp[ti - s->ntris] : CS_RESPONSE_SLIDE;
}
static double hit_friction(const Slide *s, size_t ti) {
  return ti < s->ntris ? s->tris[ti].friction : 0.0;
}

/* Records a contact (world space) and returns it, or NULL on failure. */
static cs_Contact *record(Slide *s, size_t ti, const cs_SweepHit *h, int pass) {
  cs_ContactBuf *cb = s->contacts;
  const cs_TriES *t;
  cs_Contact *c;
  if (cb->count == cb->cap) {
    cs_Status st = cs_grow(s->alloc, (void **)&cb->data, &cb->cap, cb->count + 1,
                           sizeof(cs_Contact));
    if (st != CS_OK) { s->status = st; return NULL; }
  }
  c = &cb->data[cb->count++];
  c->point = cs_espace_from(s->es, h->point);
  c->normal = cs_espace_normal_from(s->es, h->normal);
  c->pass = pass;
  if (ti >= s->ntris) {                  /* another mover: its surface's normal */
    c->tri_normal = c->normal;
    c->body = NULL;
    c->triangle = 0;
    c->tag = 0;
    c->mover = s->ell_movers[ti - s->ntris];
    return c;
  }
  t = &s->tris[ti];
  c->mover = NULL;
  c->tri_normal = cs_espace_normal_from(s->es, t->n);
  if (v3_dot(c->tri_normal, c->normal) < 0) c->tri_normal = v3_neg(c->tri_normal);
  c->body = s->bodies[t->body];
  c->triangle = t->tri;
  c->tag = t->tag;
  c->pass = pass;
  return c;
}

/* }================================================================== */

/* {==================================================================
** Sliding
** ===================================================================*/

/* Removes from v what goes into the planes (Quake's PM_SlideMove): first a
** single plane that leaves v clear of all others, else the crease of two.
** Returns 0 when the planes box the move in. */
static int clip_to_planes(const cs_Vec3 *pl, int n, cs_Vec3 v, cs_Vec3 *out) {
  int i, j, k;
  for (i = 0; i < n; i++) {
    cs_Vec3 c = v;
    double d = v3_dot(c, pl[i]);
    if (d < 0) c = v3_madd(c, pl[i], -d);
    for (j = 0; j < n; j++)
      if (j != i && v3_dot(c, pl[j]) < -CLIP_REL_EPS * v3_len(c)) break;
    if (j == n) { *out = c; return 1; }
  }
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      cs_Vec3 dir = v3_cross(pl[i], pl[j]), c;
      double l = v3_len(dir);
      if (l < CREASE_MIN_SIN) continue;  /* parallel planes make no crease */
      dir = v3_scale(dir, 1.0 / l);
      c = v3_scale(dir, v3_dot(v, dir));
      for (k = 0; k < n; k++)
        if (k != i && k != j && v3_dot(c, pl[k]) < -CLIP_REL_EPS * v3_len(c)) break;
      if (k == n) { *out = c; return 1; }
    }
  return 0;
}

/* Adds a plane unless a nearly equal one is there. */
static int add_plane(cs_Vec3 *pl, int n, cs_Vec3 p) {
  int i;
  for (i = 0; i < n; i++)
    if (v3_dot(pl[i], p) > 1 - SAME_PLANE_EPS) return n;
  if (n < MAX_PLANES) pl[n++] = p;
  return n;
}

/* The world-space plane to slide on: the contact's tangent plane. With
** block_steep, a walk treats as a wall (the normal loses its up part) what
** it may not climb: a contact normal steeper than the slope limit, and,
** with a step height, an edge or corner higher than it above the feet (a
** round bottom would otherwise slide up ledges taller than the step). */
static cs_Vec3 slide_normal(Slide *s, const cs_SweepHit *h, const cs_Contact *c, int pass) {
  double u = v3_dot(c->normal, s->up);
  int steep, ledge;
  if ((pass != CS_PASS_WALK && pass != CS_PASS_STEP) || !s->m->block_steep || u <= UP_EPS)
    return c->normal;
  steep = u < s->m->cos_slope - WALKABLE_EPS;
  ledge = s->m->step_height > 0 && h->feature != CS_FEATURE_FACE &&
          v3_dot(c->point, s->up) - s->feet > s->m->step_height + s->skin;
  if (steep || ledge) {
    cs_Vec3 wall = v3_madd(c->normal, s->up, -u);
    if (v3_len2(wall) > 0) { s->walled = 1; return v3_normalize(wall); }
  }
  return c->normal;
}

/* The shortest slide a pass goes on with after a contact (Fauerby 2003,
** 4.2: a remainder shorter than veryCloseDistance is dropped): a skin, or
** SLIDE_REST_REL of the pass's move when that is less. With a skin alone a
** slide of under a skin a call was dropped, so that at 144 Hz and above a
** character stopped at a frictionless wall it walked along at 60 degrees,
** and on ramps and steep faces with friction (found by an independent
** tester: 0.013 m/s for 0.5 along a wall, 0 for 0.83 m down a 60 degree
** face); at 1e-3 the slides dropped cost at most 0.1% of the move. */
#define SLIDE_REST_REL 1e-3
static double slide_rest_min(const Slide *s, double move_len) {
  double r = SLIDE_REST_REL * move_len;
  return r < s->skin ? r : s->skin;
}

/* rounded_into: how far (a fraction of the move) a move may go into or out
** of a held plane met again at t = 0 and still be rounding; pinned by
** test_regressions (skin0_tilted_wall) and invariants_spec (the grooves).
** MAX_ROUNDED_RETRIES: how many such retries a pass makes besides its
** max_iterations sweeps. */
#define ROUNDED_INTO_REL 1e-12
#define MAX_ROUNDED_RETRIES 8

/* In a crease sharper than a right angle, leaning off one held plane leans
** into the other, and the pass spent its sweeps going from one to the
** other at t = 0 (an independent tester: a sphere at skin 0 in a V-groove
** with walls over 45 degrees lost its move at maxIterations 5; leaning off
** each in turn still failed below 13 degrees). *vel, of length vl, leans
** along the sum of the held planes' normals it runs along (within 1e-9 of
** its length), out of the crease, until its part along each is at least
** ROUNDED_INTO_REL of vl. Planes facing each other (a sum of almost no
** length, or at a right angle to one of them) are left as they are. */
static void lean_off_held(const cs_Vec3 *planes, int np, const Slide *s, cs_Vec3 *vel, double vl) {
  cs_Vec3 ns[MAX_PLANES], sum = v3(0, 0, 0);
  double lean = 0, sl;
  int j, k = 0;
  for (j = 0; j < np; j++) {
    cs_Vec3 n = cs_espace_normal_to(s->es, planes[j]);
    double d = v3_dot(*vel, n);
    if (d < ROUNDED_INTO_REL * vl && d > -1e-9 * vl) { ns[k++] = n; sum = v3_add(sum, n); }
  }
  sl = v3_len(sum);
  if (k == 0 || !(sl > 1e-6)) return;
  sum = v3_scale(sum, 1.0 / sl);
  for (j = 0; j < k; j++) {
    double c = v3_dot(sum, ns[j]), need;
    if (!(c > 1e-3)) return;
    need = (ROUNDED_INTO_REL * vl - v3_dot(*vel, ns[j])) / c;
    if (need > lean) lean = need;
  }
  *vel = v3_madd(*vel, sum, lean);
}

/* A remainder clipped to a plane in world space comes back from the map
** into e-space up to 1e-17 into it: touching it (skin 0), the sweep meets
** it again at t = 0, at every iteration, and the slide along it was lost
** (an independent tester: 2-12% of slides along tilted walls with a skin
** of 0). When h is such a hit (a plane the pass holds, planes[0..np), met
** again at t = 0 with a move into or out of it of at most ROUNDED_INTO_REL
** of its length), *vel loses that part and leans off the held planes
** (lean_off_held); returns 1. A plane not yet held is met as any other (a
** crease 0.54 degrees off the floor is another plane: a needle slid under
** it when the kernel let such moves run along every plane). */
static int rounded_into(const cs_Vec3 *planes, int np, const cs_SweepHit *h, const Slide *s,
                        cs_Vec3 *vel) {
  cs_Vec3 n;
  double vl, into;
  int j;
  if (h->t > 0 || np == 0) return 0;
  vl = v3_len(*vel);
  into = v3_dot(*vel, h->normal);
  if (into > ROUNDED_INTO_REL * vl) return 0;   /* (its sign: the kernel's own normal's) */
  n = cs_espace_normal_from(s->es, h->normal);
  for (j = 0; j < np && v3_dot(planes[j], n) <= 1 - SAME_PLANE_EPS; j++) {}
  if (j == np) return 0;
  /* Deeper into it than rounding, along the held plane: an edge or vertex
  ** in the plane (of a coplanar neighbour; rounding tilts a graze's normal by
  ** up to sqrt(eps)) or a bend too slight to be another plane. The clip to
  ** the held plane left the move as it was, so each sweep met it again at
  ** t = 0 (an independent tester: at skin 0, 1.1% of slides along a box's
  ** face stopped on the diagonal between its two triangles). */
  if (into < -ROUNDED_INTO_REL * vl &&
      !(fabs(v3_dot(*vel, cs_espace_normal_to(s->es, planes[j]))) <= ROUNDED_INTO_REL * vl))
    return 0;
  *vel = v3_madd(*vel, h->normal, ROUNDED_INTO_REL * vl - into);
  lean_off_held(planes, np, s, vel, vl);
  return 1;
}

/* Moves s->pos by vel, sliding (Fauerby 2003, 4.2): sweep, stop the skin
** short of the contact (measured along its normal, so a glancing hit does
** not leave a bigger gap), project what remains of the move onto the
** sliding plane, repeat; at most max_iterations sweeps. */
static int slide_pass(Slide *s, cs_Vec3 vel, int pass) {
  cs_Vec3 planes[MAX_PLANES], dest = v3_add(s->pos, vel);
  cs_Vec3 orig = cs_espace_vec_from(s->es, vel);
  double rest_min = slide_rest_min(s, v3_len(orig));
  int it, np = 0, result = 0, retries = 0;
  for (it = 0; it < s->m->max_iterations; it++) {
    cs_SweepHit h;
    cs_Contact *c;
    cs_Vec3 rem;
    double vlen = v3_len(vel), travel;
    long i;
    size_t ti;
    if (vlen == 0 || (it > 0 && world_len(s, vel) < rest_min)) break;
    i = sweep_step(s, vel, vlen, &h, &travel);
    if (i < 0) { s->pos = dest; path_add(s); break; }
    if (travel == 0 && retries < MAX_ROUNDED_RETRIES && rounded_into(planes, np, &h, s, &vel)) {
      dest = v3_add(s->pos, vel);        /* the same plane again, by rounding: */
      retries++;                         /* a retry, not one of the sweeps */
      it--;
      continue;
    }
    result |= PASS_HIT;
    ti = support_triangle(s, (size_t)i, &h, v3_madd(s->pos, vel, h.t));
    s->pos = v3_madd(s->pos, vel, travel / vlen);
    path_add(s);
    if (!(c = record(s, ti, &h, pass))) break;
    if (hit_response(s, ti) == CS_RESPONSE_TOUCH) { s->touched = 1; break; }
    if (pass == CS_PASS_GRAVITY && is_below(s, c) && is_walkable(s, c))
      break;                        /* walkable ground holds (Fauerby 2003, 4.3) */
    /* The projection is orthogonal in world space, not in ellipsoid space as
    ** in the paper: the slide is then the same for every shape (an ellipsoid
    ** slides down a slope as fast as a sphere), and stays in the tangent
    ** plane, which the map preserves. */
    np = add_plane(planes, np, slide_normal(s, &h, c, pass));
    if (!clip_to_planes(planes, np, cs_espace_vec_from(s->es, v3_sub(dest, s->pos)), &rem))
      break;
    rem = v3_scale(rem, 1.0 - hit_friction(s, ti));
    if (v3_dot(rem, orig) <= 0) break;  /* never turn against the move (Quake) */
    vel = cs_espace_vec_to(s->es, rem);
    dest = v3_add(s->pos, vel);
  }
  return result;
}

/* A straight move without sliding; returns the contact or NULL. */
static cs_Contact *move_straight(Slide *s, cs_Vec3 vel, int pass, int move) {
  cs_SweepHit h;
  double vlen = v3_len(vel), travel;
  long i;
  size_t ti;
  if (vlen == 0) return NULL;
  i = sweep_step(s, vel, vlen, &h, &travel);
  if (i < 0) {
    if (move) { s->pos = v3_add(s->pos, vel); path_add(s); }
    return NULL;
  }
  ti = support_triangle(s, (size_t)i, &h, v3_madd(s->pos, vel, h.t));
  if (move) { s->pos = v3_madd(s->pos, vel, travel / vlen); path_add(s); }
  return record(s, ti, &h, pass);
}

/* }================================================================== */

/* {==================================================================
** Depenetration (stuck recovery)
** ===================================================================*/

/* Overlap below this squared e-space distance is stuck (STUCK_EPS). */
#define STUCK_D2 (1.0 - STUCK_EPS)
#define STUCK_DIST (1.0 - 0.5 * STUCK_EPS)   /* its square root, to first order */

/* Does the unit sphere at p overlap t? The plane distance rules out most
** triangles before the closest point is computed. A one-sided triangle is
** met from its front only, a centre on its plane counting as in front (so
** a mover passing up through a jump-through floor is not stuck in it until
** its centre is past the plane, then goes out on top). *away: p - closest. */
static int overlaps(const cs_TriES *t, cs_Vec3 p, cs_Vec3 *away) {
  double pd = v3_dot(t->n, p) + t->d;
  if (t->response == CS_RESPONSE_CROSS || pd * pd >= STUCK_D2 || (t->one_sided && pd < 0)) return 0;
  *away = v3_sub(p, cs_closest_on_triangle(p, t->a, t->b, t->c, NULL));
  return v3_len2(*away) < STUCK_D2;
}

/* Does the unit sphere at p overlap the k-th other mover? *away: from its
** surface's nearest point outward (its normal there). */
static int overlaps_mover(const Slide *s, size_t k, cs_Vec3 p, cs_Vec3 *away) {
  if (s->ell_movers[k] == s->hidden) return 0;
  return cs_ellipsoid_distance(&s->ells[k], p, NULL, away) < STUCK_DIST;
}

static int overlaps_any(const Slide *s, cs_Vec3 p) {
  size_t i;
  cs_Vec3 away;
  for (i = 0; i < s->ntris; i++)
    if (overlaps(&s->tris[i], p, &away)) return 1;
  for (i = 0; i < s->nells; i++)
    if (overlaps_mover(s, i, p, &away)) return 1;
  return 0;
}

/* The least s >= 0 at which pos + s u overlaps nothing, or -1 past reach.
** Each triangle blocks one interval of s (the distance from a point moving
** on a line to a convex set is convex), found by a sweep out and one back,
** from both sides of a one-sided triangle as overlaps sees it.
** The push may pass through the other movers the mover overlaps now, not
** into one it does not: -1 when such a one lies before the free place. */
static double free_distance(const Slide *s, cs_Vec3 u, double reach) {
  cs_Vec3 far = v3_madd(s->pos, u, reach), out = v3_scale(u, reach), back = v3_neg(out);
  cs_Vec3 away;
  double cur = 0, blocked = HUGE_VAL;
  int moved = 1;
  size_t i;
  /* repeated relaxation over the intervals: no sort or buffer needed */
  while (moved) {
    moved = 0;
    for (i = 0; i < s->ntris; i++) {
      const cs_TriES *t = &s->tris[i];
      cs_SweepHit h;
      double lo, hi;
      /* (a floor the mover rests on, within rounding, does not bar a push
      ** along it: 1e-16 into it sent the push of a mover out of a wall
      ** up a slope instead, 0.1 m off: found by an independent tester) */
      if (t->response == CS_RESPONSE_CROSS || cs_sweep_rests_on(t, s->pos, out)) continue;
      if (!cs_sweep_triangle(s->pos, out, t, 1.0, CS_SWEEP_BOTH_SIDES, &h)) continue;
      lo = h.t * reach;
      hi = cs_sweep_triangle(far, back, t, 1.0, CS_SWEEP_BOTH_SIDES, &h) ? (1.0 - h.t) * reach : reach;
      if (lo <= cur + INTERVAL_EPS && hi > cur) {
        cur = hi;
        moved = 1;
        if (cur >= reach) return -1;
      }
    }
    for (i = 0; i < s->nells; i++) {     /* other movers: one interval each too */
      const cs_EllipsoidES *e = &s->ells[i];
      cs_SweepHit h;
      double lo, hi;
      if (s->ell_movers[i] == s->hidden) continue;
      if (!cs_sweep_ellipsoid(s->pos, out, e, 1.0, 0, &h)) continue;
      lo = h.t * reach;
      if (!overlaps_mover(s, i, s->pos, &away)) {   /* not one to pass */
        if (lo < blocked) blocked = lo;
        continue;
      }
      hi = cs_sweep_ellipsoid(far, back, e, 1.0, 0, &h) ? (1.0 - h.t) * reach : reach;
      if (lo <= cur + INTERVAL_EPS && hi > cur) {
        cur = hi;
        moved = 1;
        if (cur >= reach) return -1;
      }
    }
  }
  return blocked < cur ? -1 : cur;
}

/* The rounding of the centre's distances to t (ON_PLANE_EPS of the
** coordinates: the vertex's and the centre's in e-space, and the call's
** start in the world, mapped: a triangle placed at 1e5 carries that
** rounding into its e-space vertices). */
static double plane_rounding(const Slide *s, const cs_TriES *t) {
  const cs_ESpace *es = s->es;
  return ON_PLANE_EPS * (v3_maxabs(t->a) + v3_maxabs(s->pos) + v3_maxabs(es->c0) * v3_maxabs(es->inv_r));
}

/* Is the centre, at distance d0 from t's plane, on it within rounding? */
static int on_plane(const Slide *s, const cs_TriES *t, double d0) {
  return fabs(d0) <= plane_rounding(s, t);
}

/* For a point p on t's plane (the centre: on_plane): is its foot on the
** triangle (its nearest point as near as the rounding; a multiple of d0
** was not: with d0 rounded to 0, a foot 3e-16 off counted as off the
** triangle, and the push into the box was let through: found by an
** independent tester)? */
static int foot_on(const Slide *s, const cs_TriES *t, cs_Vec3 p) {
  cs_Vec3 c = cs_closest_on_triangle(p, t->a, t->b, t->c, NULL);
  double r = 4 * plane_rounding(s, t);
  return v3_len2(v3_sub(p, c)) <= r * r;
}

/* Does the centre's path along u for len, which meets t's plane (at d0
** from it, un = n.u), meet t, its edges within rounding included? (A push
** along a room's wall meets the floor at their shared edge; the ray test
** missed it by rounding there, and the mover left the room through its
** floor: found by an independent tester.) *at: where. */
static int meets_triangle(const Slide *s, const cs_TriES *t, cs_Vec3 u, double d0, double un,
                          double len, double *at) {
  if (cs_ray_triangle(s->pos, u, t->a, t->b, t->c, len, at)) return 1;
  *at = -d0 / un;
  return *at >= 0 && *at <= len && foot_on(s, t, v3_madd(s->pos, u, *at));
}

/* Was body b changed (b->changed) after the world's version v? (Versions
** wrap: after means within half the range.) */
static int changed_since(const cs_Body *b, unsigned v) { return b->changed - v - 1u < UINT_MAX / 2; }

/* Does the centre's path from pos along u, for len, cross a triangle the
** wrong way? A push out of an overlap must not take the mover through a
** surface into a closed solid (past a floor slab's top face, down into
** the slab or out below it; up out of a room through its ceiling).
**   - safe (e-space; NULL: none): the last safe place (s->side_ref), when
**     no body moved since the mover was clear there, it was not teleported
**     since, and it has moved since (a carry): a triangle may be crossed
**     only toward the side of its plane that place is on, never away from
**     it (a centre on the plane counts as on that side); for the triangles
**     of the ground body that carried the mover, that place carried along
**     (s->carry_es). (Across a teleport a plane's side misleads: the place
**     beside a block is above its underside's plane.)
**   - Without one (a new mover, a teleported one, one that something moved
**     into, one whose world's bodies moved): never from a triangle's front
**     to its back, a centre on the plane counting as in front. From the
**     back to the front is the way out of a solid (a mover sunk into the
**     ground, a door moved onto it) and stays open: so a room must face its
**     triangles inward, as API.md's front faces say.
** changed_only: only the triangles of bodies changed since the mover's last
** safe place count (the jump back there; cs_Body.changed: placed elsewhere,
** vertices edited, added, enabled or disabled, given other layers). */
static int crosses_wrong_way(const Slide *s, cs_Vec3 u, double len, const cs_Vec3 *safe,
                             int changed_only) {
  double at;
  size_t i;
  for (i = 0; i < s->ntris; i++) {
    const cs_TriES *t = &s->tris[i];
    double un = v3_dot(t->n, u), d0 = v3_dot(t->n, s->pos) + t->d, ds;
    if (t->response == CS_RESPONSE_CROSS || un == 0 ||
        (changed_only && !changed_since(s->bodies[t->body], s->m->safe_version)))
      continue;
    /* a centre on the plane (within rounding) leaves it by the side u
    ** takes: it crosses where its foot is on the triangle (the ray's start
    ** rounds either side of 0, and one rounded behind was pushed on into
    ** a box whose face it sat on: found by an independent tester, two
    ** blocks closing on a mover at the line where they meet) */
    if (on_plane(s, t, d0) ? !foot_on(s, t, s->pos)
        : d0 * un > 0 || fabs(d0) > fabs(un) * len || !meets_triangle(s, t, u, d0, un, len, &at))
      continue;
    if (safe && !t->one_sided) {
      cs_Vec3 p = s->carrier && s->bodies[t->body] == s->carrier ? v3_add(*safe, s->carry_es) : *safe;
      ds = v3_dot(t->n, p) + t->d;
    } else {              /* a one-sided triangle is never crossed against its front */
      ds = 1.0;
    }
    /* away from the reference's side (a centre on the plane counts as on it) */
    if ((ds > 0 && un < 0) || (ds < 0 && un > 0)) return 1;
  }
  return 0;
}

/* The directions depenetrate tries besides the contacts' own, around up,
** every 15 degrees: level (at right angles to it, in world space), rising
** 20 degrees and rising 45, so that a mover caught between two things (a
** floor and a mover on it, a floor and a ceiling, a wall and a mover beside
** it) can leave sideways, or up a little and sideways, or over. With them
** every 45 degrees a mover pushed into a wall beside another mover stayed
** stuck for good although a push 15 degrees off was free (an independent
** tester's random walls: 59 of 2,306 stayed stuck, 32 of them with such a
** push free within a radius); with the rising ones every 30 degrees only,
** 4 of 4,800 that the 45-degree set freed stayed stuck. The grid starts
** half a step off the overlaps' own way out across up (the sum of the unit
** ways out of the planes and movers overlapped: depenetrate's anchor),
** which is tried too, level and rising, so that it turns with the scene;
** on the world's x where those ways cancel. LEVEL_CANDIDATES of them at
** most. */
#define LEVEL_CANDIDATES 76
/* level_candidates: an anchor whose part across up is under this share of
** it gives the grid no way (the overlaps' ways out cancel, or point along
** up), and the world's axes do. */
#define ANCHOR_MIN_REL 1e-6

static int level_candidates(const Slide *s, cs_Vec3 *cand, int nc, cs_Vec3 anchor) {
  static const double rise[2] = { 0.36397023426620234, 1.0 };   /* tan 20, 45 deg */
  cs_Vec3 up = s->up, e1, e2;
  double off = 0.0;                     /* the grid's first way, in steps off e1 */
  int k;
  /* the grid's way 0: the overlaps' own way out across up, so that it turns
  ** with the scene (fixed to the world's x, a scene turned by 10 degrees
  ** about up left a mover stuck that the same scene unturned freed, 42 of
  ** 2,000 corner spawns: found by an independent tester); the world's x
  ** where the overlaps cancel */
  e1 = v3_madd(anchor, up, -v3_dot(anchor, up));
  if (!(v3_len2(e1) > ANCHOR_MIN_REL * ANCHOR_MIN_REL * v3_len2(anchor))) {
    e1 = fabs(up.x) < 0.6 ? v3(1, 0, 0) : v3(0, 1, 0);
    e1 = v3_normalize(v3_madd(e1, up, -v3_dot(e1, up)));
  } else {
    /* and that way itself (out of a corner: between its walls, which
    ** neither wall's normal nor a grid 15 degrees apart may hit; the same
    ** tester's corners of two walls at 53 degrees) */
    cand[nc++] = v3_normalize(cs_espace_vec_to(s->es, anchor));
    e1 = v3_normalize(e1);
    for (k = 0; k < 3; k++)          /* level, rising 20 and 45 degrees */
      cand[nc++] = v3_normalize(cs_espace_vec_to(s->es, v3_madd(e1, up, k ? rise[k - 1] : 0)));
    off = 0.5;                       /* (and the grid between them) */
  }
  e2 = v3_cross(up, e1);
  for (k = 0; k < 24; k++) {
    double a = (k + off) * (3.14159265358979323846 / 12);
    cs_Vec3 h = v3_add(v3_scale(e1, cos(a)), v3_scale(e2, sin(a)));
    cand[nc++] = v3_normalize(cs_espace_vec_to(s->es, h));
    cand[nc++] = v3_normalize(cs_espace_vec_to(s->es, v3_madd(h, up, rise[0])));
    cand[nc++] = v3_normalize(cs_espace_vec_to(s->es, v3_madd(h, up, rise[1])));
  }
  return nc;
}

enum { CLEAR = 0, FREED = 1, STILL_STUCK = 2 };

/* The faces a push out must take the centre in front of: the triangles of
** closed meshes (cs_TriES.solid) the mover overlaps from behind over their
** face (the centre's foot on the triangle), with no other triangle between
** the centre and that foot. (An open mesh bounds no solid: behind a single
** wall, a door panel or an upper floor's quad is open space, and a mover
** put there stays on the side its centre is on, as a teleport is taken.)
** The centre is then in the solid they bound, as a body moved onto the
** mover by more than its radius leaves it (or a mesh edit raising a floor
** past a rider's centre); a push deeper in ends clear of every surface yet
** inside the solid, where later calls see free space and the mover stays
** for good (found by an independent tester: a block moved 0.6 a call into
** a sphere of radius 0.5 swallowed it in about half the cases, and a
** rider fell through a slab whose top was raised past its centre). The
** way out is to the front of one of them, as crosses_wrong_way's rules
** say (leaves_solid). A foot on an edge counts when the centre is behind the
** edge's pseudo-normal (the sum of the normals of the body's solid
** triangles that hold that edge, Baerentzen and Aanaes 2005): a centre under
** the crease of a box's top, raised past it by an edit, has its foot on the
** crease on both top triangles, and counted neither, so it was pushed down
** into the box (found by an independent tester). Returns their count (at
** most MAX_INSIDE). */
#define MAX_INSIDE 8

/* Are a and b the same point (the same doubles)? */
CS_INLINE int same_point(cs_Vec3 a, cs_Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* Is the centre behind the pseudo-normal of t's edge k (feature 1..3: ab,
** bc, ca) at foot: t's normal and those of the body's other solid triangles
** that hold both its ends (the same doubles: one body, one map)? The test
** holds only where that edge is the body's nearest feature: a centre below
** a box 1e-9 tall, near its side, had its foot on the side's edge, and the
** bottom face, nearer, said it is outside (found by an independent tester:
** the push went out the side, twice as far). */
static int behind_edge(const Slide *s, const cs_TriES *t, int k, cs_Vec3 foot) {
  cs_Vec3 v[3], p, q, pn = t->n;
  double d2 = v3_len2(v3_sub(s->pos, foot));
  size_t j;
  int n = 0;
  v[0] = t->a; v[1] = t->b; v[2] = t->c;
  p = v[k - 1];
  q = v[k % 3];
  for (j = 0; j < s->ntris; j++) {
    const cs_TriES *o = &s->tris[j];
    int hp, hq;
    if (o == t || !o->solid || o->body != t->body || o->response == CS_RESPONSE_CROSS) continue;
    /* a nearer feature decides: one of the edge's own triangles too (a
    ** centre 0.01 outside a crate's side, below its top edge, has its foot
    ** on the top face on that edge, and the side triangle holding the edge
    ** is nearer; counted behind the edge, the mover was held stuck in free
    ** space: found by an independent tester) */
    if (v3_len2(v3_sub(s->pos, cs_closest_on_triangle(s->pos, o->a, o->b, o->c, NULL))) <
        d2 * (1 - INSIDE_EPS))
      return 0;
    hp = same_point(o->a, p) || same_point(o->b, p) || same_point(o->c, p);
    hq = same_point(o->a, q) || same_point(o->b, q) || same_point(o->c, q);
    if (hp && hq) { pn = v3_add(pn, o->n); n++; }
  }
  return n > 0 && v3_dot(v3_sub(s->pos, foot), pn) < 0;
}

static int inside_faces(const Slide *s, const cs_TriES **out) {
  int n = 0;
  size_t i, j;
  for (i = 0; i < s->ntris && n < MAX_INSIDE; i++) {
    const cs_TriES *t = &s->tris[i];
    cs_Vec3 away, foot;
    double pd = v3_dot(t->n, s->pos) + t->d, at, len;
    int feature, between = 0;
    /* (a centre on the plane counts as in front: on_plane) */
    if (!t->solid || !(pd < 0) || on_plane(s, t, pd) || !overlaps(t, s->pos, &away)) continue;
    foot = cs_closest_on_triangle(s->pos, t->a, t->b, t->c, &feature);
    if (feature > 3 || (feature != 0 && !behind_edge(s, t, feature, foot))) continue;
    /* (a triangle of the same body, met short of the foot by more than
    ** rounding: a face that another box shares, at the foot, is not
    ** between; it was, by rounding, for a centre 1e-9 inside one of the
    ** two, which was pushed on deeper in; nor is another body's, which
    ** may overlap this one: a crate poking into a floor slab hid the
    ** slab's top from a centre inside the slab, which was pushed down into
    ** it; found by independent testers) */
    len = v3_len(v3_sub(foot, s->pos));
    for (j = 0; j < s->ntris && !between; j++) {
      const cs_TriES *o = &s->tris[j];
      between = j != i && o->body == t->body && o->response != CS_RESPONSE_CROSS &&
                cs_ray_triangle(s->pos, v3_sub(foot, s->pos), o->a, o->b, o->c, 1.0, &at) &&
                (1.0 - at) * len > fmax(INSIDE_EPS * len, 4 * plane_rounding(s, o));
    }
    if (!between) out[n++] = t;
  }
  return n;
}

/* Does the push from the centre along u for len take it out of the solid
** the faces (inside_faces) bound: does it end in front of one of them (as
** past a convex solid's face; a mover in a block on a floor overlaps the
** block's bottom from behind too, and leaves by its side), or pass a
** solid's triangle from behind to its front on the way (out through a face
** it did not overlap: the top of a crate it fills)? True without faces. */
static int leaves_solid(const Slide *s, cs_Vec3 u, double len, const cs_TriES *const *faces,
                        int n) {
  cs_Vec3 p = v3_madd(s->pos, u, len);
  double at;
  size_t i;
  int k;
  if (n == 0) return 1;
  for (k = 0; k < n; k++)
    if (v3_dot(faces[k]->n, p) + faces[k]->d > 0) return 1;
  for (i = 0; i < s->ntris; i++) {
    const cs_TriES *t = &s->tris[i];
    if (t->solid && t->response != CS_RESPONSE_CROSS && v3_dot(t->n, u) > 0 &&
        cs_ray_triangle(s->pos, u, t->a, t->b, t->c, len, &at))
      return 1;
  }
  return 0;
}

/* How far past the free place along u (a unit e-space direction) a push
** goes to keep the skin: skin_es, which measures the skin along u taken as
** a plane's normal, but never more than a skin of world travel. u is often
** no normal (a level or rising candidate, a world direction mapped): for a
** flat ellipsoid, whose skin was 30 times its least radius, skin_es along
** such a u came to 41 world units, past the gathered triangles, and the
** mover left a closed room through its far wall (found by an independent
** tester). */
static double skin_along(const Slide *s, cs_Vec3 u) {
  double w = world_len(s, u), e = skin_es(s, u);
  return w > 0 && s->skin / w < e ? s->skin / w : e;
}

#define PUSH_CAP_REL 1e-9

/* Does the unit sphere at p (e-space) overlap a triangle of the body? */
static int overlaps_body(const Slide *s, cs_Vec3 p, uint32_t body) {
  size_t i;
  for (i = 0; i < s->ntris; i++) {
    const cs_TriES *t = &s->tris[i];
    if (t->body == body &&
        v3_len2(v3_sub(p, cs_closest_on_triangle(p, t->a, t->b, t->c, NULL))) < STUCK_D2)
      return 1;
  }
  return 0;
}

/* How a body placed since the mover's last call moved the point where the
** centre is (motion_of): the way (world space, and a unit e-space
** direction) and the body. */
typedef struct Motion { cs_Vec3 w, u; uint32_t body; } Motion;

/* The way t's body moved the point where the centre is, when its last
** placement that moved it came after the mover's last call and it was in
** the world then (cs_Body.moved_version, added_version, prevA, prevT): it
** came onto the mover. Pushed out the shortest way, a mover that a wall was
** placed into past the wall's middle came out behind the wall (found by an
** independent tester: a 0.5 m wall at 20 m/s and 30 Hz against a character
** of radius 0.4). A body placed several times since the world's last move
** is judged from where it was then (cs_World.last_call): its last move
** alone, back a little against the others, took the mover out of the
** wall's far side (another tester: 987 of 2,000 walls placed 2-4 times
** near their last place). */
static int motion_of(const Slide *s, const cs_TriES *t, Motion *mo) {
  const cs_Body *b = s->bodies[t->body];
  cs_Mat3 pinv;
  cs_Vec3 c, was, v, before;
  if (!s->motion || (int)(b->moved_version - s->since) <= 0 ||
      (int)(b->added_version - s->since) > 0 || !m3_inverse(&b->prevA, &pinv))
    return 0;
  c = cs_espace_from(s->es, s->pos);
  /* and only when the body came onto the mover: the centre, where it was
  ** against the body then (where the body's placement now puts it), lay
  ** clear of the body's triangles (a wall placed past a mover, then back a
  ** little after another mover's call, took that little step back for its
  ** way, and pushed the mover out behind it: found by an independent
  ** tester) */
  before = v3_add(m3_apply(&b->A, m3_apply(&pinv, v3_sub(c, b->prevT))), b->T);
  if (overlaps_body(s, cs_espace_to(s->es, before), t->body)) return 0;
  was = v3_add(m3_apply(&b->prevA, m3_apply(&b->Ainv, v3_sub(c, b->T))), b->prevT);
  mo->w = v3_sub(c, was);
  v = cs_espace_vec_to(s->es, mo->w);
  if (!(v3_len2(v) > 0 && v3_len2(v) < HUGE_VAL)) return 0;
  mo->u = v3_normalize(v);
  mo->body = t->body;
  return 1;
}

/* Is the body one whose solid the centre is in (the bodies of inside)? */
static int holds_centre(uint32_t body, const cs_TriES *const *inside, int ninside) {
  int k;
  for (k = 0; k < ninside; k++)
    if (inside[k]->body == body) return 1;
  return 0;
}

/* May no push pass through t? With mo (a body that came onto the mover,
** motion_of), none but mo's body's: a push on with a body's motion may
** leave that body, not go through anything else (a block placed onto a
** mover against a wall quad pushed it through the wall: found by an
** independent tester). And for a mover whose last call was in this world
** (s->motion), no two-sided triangle of a body unchanged since: such a
** surface did not come to the mover, and a push through it takes the mover
** where its moves never could (a crusher left in place, or one that had
** already met the mover, pushed it through the back of a wall quad at the
** next call: the next tester, 323 of 1,000 crushed movers). Through them
** all the same: out of a solid the centre is in (inside: its way out, which
** a mover held there until room opened had for good otherwise), from a
** centre on the plane (rounding says which side; a mover rising through a
** jump-through floor, its centre ending on the plane, was sent back
** below), and a one-sided triangle, which moves pass from behind too (both
** found by the tester after). */
static int barred(const Slide *s, const cs_TriES *t, const Motion *mo,
                  const cs_TriES *const *inside, int ninside) {
  if (mo && t->body != mo->body) return 1;
  return s->motion && !t->one_sided && (int)(s->bodies[t->body]->changed - s->since) <= 0 &&
         !on_plane(s, t, v3_dot(t->n, s->pos) + t->d) && !holds_centre(t->body, inside, ninside);
}

/* Does the centre's way from s->pos along u for len (e-space) pass through
** a triangle no push may pass through (barred)? */
static int crosses_barred(const Slide *s, cs_Vec3 u, double len, const Motion *mo,
                          const cs_TriES *const *inside, int ninside) {
  double at;
  size_t i;
  if (!mo && !s->motion) return 0;
  for (i = 0; i < s->ntris; i++) {
    const cs_TriES *t = &s->tris[i];
    if (t->response != CS_RESPONSE_CROSS && barred(s, t, mo, inside, ninside) &&
        cs_ray_triangle(s->pos, u, t->a, t->b, t->c, len, &at))
      return 1;
  }
  return 0;
}

/* The shortest straight push (in world units) out of everything along one
** of the candidate directions cand[0..nc) (cand[0] up, which standing
** movers prefer, so that recovery never creeps downhill), free within the
** reach and crossing no surface the wrong way for safe (crosses_wrong_way);
** moves the mover there, a skin beyond when that is free too. Returns 1
** when it found one. No push passes through a triangle barred to it
** (barred). With mo (a body that came onto the mover, motion_of): when the
** shortest goes against the body's way, the shortest with it, if there is
** one: out of the body's side ahead, not its far side. */
static int push_out(Slide *s, const cs_Vec3 *cand, int nc, int standing, const cs_Vec3 *safe,
                    const cs_TriES *const *inside, int ninside, const Motion *mo) {
  cs_Vec3 best_u = v3(0, 0, 0), with_u = v3(0, 0, 0), p;
  double best = HUGE_VAL, best_d = 0, up_cost = HUGE_VAL, up_d = 0;
  double with = HUGE_VAL, with_d = 0;
  int k;
  for (k = 0; k < nc; k++) {
    /* at most 4 radii, and never past the gathered triangles; nor farther
    ** than the shortest push found so far, which a longer one cannot beat
    ** (PUSH_CAP_REL over it for rounding: the same push wins), unless it
    ** goes with mo. Every candidate went the whole way: a mover of radius
    ** 50 put 0.3 into a floor of 80,000 small triangles took 4.4 s to push
    ** out (found by an independent tester). Farther out of a larger mover
    ** the start is in (push_reach: cs_world.c). */
    double wl = world_len(s, cand[k]);
    int ahead = mo && v3_dot(cs_espace_vec_from(s->es, cand[k]), mo->w) > 0;
    double cap = fmin(fmin(s->reach / wl, fmax(4.0, s->push_reach / wl)),
                      ahead ? HUGE_VAL : best / wl * (1 + PUSH_CAP_REL));
    double d = free_distance(s, cand[k], cap), cost;
    if (d < 0 || crosses_wrong_way(s, cand[k], d + skin_along(s, cand[k]), safe, 0) ||
        !leaves_solid(s, cand[k], d, inside, ninside) ||
        crosses_barred(s, cand[k], d + skin_along(s, cand[k]), mo, inside, ninside))
      continue;
    cost = world_len(s, v3_scale(cand[k], d));
    if (k == 0) { up_cost = cost; up_d = d; }
    if (cost < best) { best = cost; best_d = d; best_u = cand[k]; }
    if (ahead && cost < with) {
      with = cost;
      with_d = d;
      with_u = cand[k];
    }
  }
  if (standing && up_cost < HUGE_VAL && up_cost <= best / s->m->cos_slope + s->skin) {
    best = up_cost;
    best_d = up_d;
    best_u = cand[0];
  }
  if (mo && with < HUGE_VAL && !(v3_dot(cs_espace_vec_from(s->es, best_u), mo->w) > 0)) {
    best_d = with_d;
    best_u = with_u;
  }
  if (best == HUGE_VAL) return 0;
  p = v3_madd(s->pos, best_u, best_d + skin_along(s, best_u));   /* a skin beyond, else at it */
  if (!overlaps_any(s, p)) { s->pos = p; return 1; }
  p = v3_madd(s->pos, best_u, best_d);
  if (!overlaps_any(s, p)) { s->pos = p; return 1; }
  return 0;
}

/* Appends the unit direction u to cand[0..nc) unless one there is the same
** direction up to rounding (CAND_SAME); returns the new count. The triangles
** of a flat floor gave one normal each, all the same: a mover sunk into a
** floor of many small triangles tried the same push once per triangle
** (found by an independent tester). */
#define CAND_SAME 1e-12
static int add_candidate(cs_Vec3 *cand, int nc, cs_Vec3 u) {
  int k;
  for (k = 0; k < nc; k++)
    if (v3_dot(cand[k], u) >= 1 - CAND_SAME) return nc;
  cand[nc] = u;
  return nc + 1;
}

/* depenetrate's anchor (level_candidates): the sum of the unit ways out of
** the first ANCHOR_PLANES distinct planes (and movers) the mover overlaps. */
#define ANCHOR_PLANES 8

/* Adds the unit way u to planes[0..n) and *anchor unless the planes are
** full or hold it already (add_candidate); returns the new count. */
static int add_way_out(cs_Vec3 *planes, int n, cs_Vec3 u, cs_Vec3 *anchor) {
  int k;
  if (n == ANCHOR_PLANES || (k = add_candidate(planes, n, u)) == n) return n;
  *anchor = v3_add(*anchor, u);
  return k;
}

/* Pushes the mover out of what it overlaps (push_out) along candidate
** directions: up, each overlapping triangle's normal both ways and away
** from its closest point, out of each overlapping mover, and the
** level_candidates, by the rules of crosses_wrong_way. Failing that, the
** last safe place.
** Returns CLEAR (it overlapped nothing), FREED or STILL_STUCK. */
static int depenetrate(Slide *s, int standing) {
  cs_Vec3 cand[MAX_CANDIDATES + 1], safe_es;   /* (+ 1: the motion's way) */
  cs_Vec3 anchor = v3(0, 0, 0);   /* the overlaps' ways out (e-space): their
                                  ** planes', the other movers' */
  cs_Vec3 planes[ANCHOR_PLANES];
  int nplanes = 0;
  const cs_Vec3 *safe = NULL;
  const cs_TriES *inside[MAX_INSIDE];
  int nc = 0, ninside, moved = 0;
  size_t i;
  Motion mo;
  cand[nc++] = v3_normalize(up_es(s, 1));
  for (i = 0; i < s->ntris && nc + 3 <= MAX_CANDIDATES - LEVEL_CANDIDATES - 1; i++) {
    const cs_TriES *t = &s->tris[i];
    cs_Vec3 away;
    if (!overlaps(t, s->pos, &away)) continue;
    if (!moved) moved = motion_of(s, t, &mo);
    nc = add_candidate(cand, nc, t->n);
    nc = add_candidate(cand, nc, v3_neg(t->n));
    if (v3_len2(away) > AWAY_MIN_D2) nc = add_candidate(cand, nc, v3_normalize(away));
    /* (each plane once, by its unit normal toward the centre: not the way
    ** from the closest point, which a floor quad's other triangle has on
    ** their diagonal, and tilted the way of a mover crushed between a lift
    ** and a ceiling off both, an independent tester; nor by depth, which
    ** turned the way out of a corner off its bisector) */
    nplanes = add_way_out(planes, nplanes, v3_dot(t->n, s->pos) + t->d < 0 ? v3_neg(t->n) : t->n, &anchor);
  }
  for (i = 0; i < s->nells && nc + 1 <= MAX_CANDIDATES - LEVEL_CANDIDATES; i++) {
    cs_Vec3 out;
    if (!overlaps_mover(s, i, s->pos, &out)) continue;
    cand[nc++] = out;                    /* out of the other mover */
    nplanes = add_way_out(planes, nplanes, v3_normalize(out), &anchor);
  }
  if (nc == 1) return CLEAR;              /* nothing overlaps */
  nc = level_candidates(s, cand, nc, cs_espace_vec_from(s->es, anchor));
  if (s->side_ref) {
    safe_es = cs_espace_to(s->es, *s->side_ref);
    if (v3_len2(v3_sub(safe_es, s->pos)) > SAFE_MOVED_D2) safe = &safe_es;
  }
  ninside = inside_faces(s, inside);
  if (moved) cand[nc++] = mo.u;
  if (push_out(s, cand, nc, standing, safe, inside, ninside, moved ? &mo : NULL)) return FREED;
  /* the safe place is one of this world's only (issue 10): the world hands
  ** it down only then. The jump there keeps the pushes' rule without a
  ** reference for the triangles of bodies changed since (cs_Body.changed:
  ** moved, added, enabled...): such a body may have left the place on the far
  ** side of a wall (a crushed mover carried along by a room that slid went
  ** back through the room's wall: found by an independent tester). The
  ** others' triangles are crossed the way the mover came (up through a
  ** jump-through platform, against its front: the next tester; the first
  ** form let any edit of the world, a far body moved, forbid that) */
  if (s->last_safe && !s->probe && v3_len(v3_sub(*s->last_safe, s->m->pos)) <= s->reach) {
    cs_Vec3 p = cs_espace_to(s->es, *s->last_safe), jump = v3_sub(p, s->pos);
    double len = v3_len(jump);
    if (!overlaps_any(s, p) && leaves_solid(s, jump, 1.0, inside, ninside) &&
        (len == 0 || !crosses_wrong_way(s, v3_scale(jump, 1 / len), len, NULL, 1))) {
      s->pos = p;
      return FREED;
    }
  }
  s->in_solid = ninside > 0;
  return STILL_STUCK;
}

/* }================================================================== */

/* {==================================================================
** The passes of one call
** ===================================================================*/

/* Does the mover at s->pos rest on contact c below it: are its feet no
** higher than c's point (up to the skin it keeps, twice)? A step's down
** move that meets a ledge's edge side-on (the contact normal a hair above
** level) stops where it began, the skin taken off along that normal, and
** would leave the mover perched in the air above the edge. */
static int rests_on(const Slide *s, const cs_Contact *c) {
  double feet = s->feet + height_of(s, v3_sub(s->pos, cs_espace_to(s->es, s->m->pos)));
  return feet <= v3_dot(c->point, s->up) + 2 * s->skin;
}

/* Is there walkable ground within reach of a short probe down from p
** (two skins: a mover resting on ground keeps about one from it)? Changes
** nothing: the probe's contact is dropped. */
static int ground_below(Slide *s, cs_Vec3 p) {
  Mark k = mark(s);
  cs_Contact *c;
  int found;
  s->pos = p;
  c = move_straight(s, up_es(s, -2 * s->skin), CS_PASS_STEP, 0);
  found = c && is_below(s, c) && is_walkable(s, c);
  rewind_to(s, &k);
  return found;
}

/* The friction of the triangle a contact is on (0 for another mover's). */
static double contact_friction(const Slide *s, const cs_Contact *c) {
  size_t i;
  if (!c->body) return 0.0;
  for (i = 0; i < s->ntris; i++)
    if (s->tris[i].tri == c->triangle && s->bodies[s->tris[i].body] == c->body)
      return s->tris[i].friction;
  return 0.0;
}

/* Did the walk since contact first meet something a step try is for: a
** contact steeper than walkable by its own normal (a wall, a riser), one
** off a triangle's face (an edge or a vertex, such as a stair's nose,
** whose normal is not its triangle's), or a walkable face without
** friction (a ramp, which the try climbs keeping the walk's horizontal
** speed, as a character's walkSpeed promises)? A walk that met only
** walkable faces with friction is left to the slide, whose friction holds
** (world:setFriction: 1 stops on contact): a step try there lifted the
** mover over it (found by an independent tester; another found that
** without the try frictionless ramps were climbed at cos^2 of the speed). */
#define FACE_COS (1.0 - 1e-6)
static int met_ledge(const Slide *s, size_t first) {
  size_t i;
  for (i = first; i < s->contacts->count; i++) {
    const cs_Contact *c = &s->contacts->data[i];
    if (v3_dot(c->normal, s->up) < s->m->cos_slope - WALKABLE_EPS ||
        v3_dot(c->normal, c->tri_normal) < FACE_COS || !(contact_friction(s, c) > 0))
      return 1;
  }
  return 0;
}

/* How much farther than the plain walk a step try must get to be kept:
** half a skin, or STEP_GAIN_REL of the walk's horizontal length when that
** is less. A step gains little over a slide up a frictionless ramp (walk
** sin^2 of its slope) and no more than the walk past a ledge: with half a
** skin alone a walk of under a skin a call never stepped up a ledge, and
** ramps were climbed at cos^2 of the speed at high frame rates (240 Hz:
** 3.53 m/s for 4 on 20 degrees), both found by an independent tester; at
** 1e-3 a ramp of under 1.8 degrees is climbed at most 0.1% slower. */
#define STEP_GAIN_REL 1e-3
static double step_gain(const Slide *s, cs_Vec3 walk, cs_Vec3 dir_w) {
  double g = STEP_GAIN_REL * v3_dot(cs_espace_vec_from(s->es, walk), dir_w);
  return g < 0.5 * s->skin ? g : 0.5 * s->skin;
}

/* Is c's triangle in the plane of the ground the mover stands on at start
** (e-space): the last call's ground (within a skin of that plane), met by
** the face there, under the mover where it is now (the point met then
** within two skins of the mover's lowest point toward the plane now): a
** ramp it walks up? Not so for a mover at the foot of a ledge whose top is
** a ramp, even when its last ground was that ramp's edge, nor one placed
** there since (found by independent testers: both stepped onto the ramp,
** 0.44 above their feet with a step of 0.3). */
static int stood_on_plane(const Slide *s, cs_Vec3 start, const cs_Contact *c) {
  const cs_Mover *m = s->m;
  cs_Vec3 ground, n, low;
  if (!cs_mover_grounded(m)) return 0;
  /* where that point is now, and that plane: its platform's carry took the
  ** point along, and its turn the plane (a mover not added to the world is
  ** carried at its call; a ramp turned about up: other testers) */
  ground = v3_add(m->ground_point, cs_espace_vec_from(s->es, s->carry_es));
  n = s->carrier && s->carrier == c->body && v3_len2(m->ground_normal_body) > 0
        ? v3_normalize(m3_apply_t(&s->carrier->Ainv, m->ground_normal_body)) : m->ground_normal;
  if (!(v3_dot(n, c->tri_normal) > 1 - SAME_PLANE_EPS) ||
      !(fabs(v3_dot(v3_sub(ground, c->point), c->tri_normal)) <= s->skin))
    return 0;
  low = cs_espace_from(s->es, v3_sub(start, cs_espace_normal_to(s->es, c->tri_normal)));
  return v3_len(v3_sub(low, ground)) <= 2 * s->skin;
}

/* The mover's extent along the world unit vector n: its support |E^T n|
** (|diag(r) R^T n|). */
CS_INLINE double support_along(const cs_ESpace *es, cs_Vec3 n) {
  return v3_len(v3_mul(es->oriented ? m3_apply_t(&es->R, n) : n, es->r));
}

/* The highest point of the mover at start (e-space), world height along up. */
static double top_of(const Slide *s, cs_Vec3 start) {
  return v3_dot(cs_espace_from(s->es, start), s->up) + support_along(s->es, s->up);
}

/* The lowest point met by the contacts from first on that lies above
** height top and over the centre (its normal faces down: UP_EPS), HUGE_VAL
** for none: a lintel the raised walk ran into, which the mover at its start
** height passes under. (A side wall met at the raised centre's height is
** none: taken for a lintel, it had a mover walking along it creep up a
** riser's edge a few millimetres a frame, found by an independent tester.) */
static double lowest_above(const Slide *s, size_t first, double top) {
  double low = HUGE_VAL;
  size_t i;
  for (i = first; i < s->contacts->count; i++) {
    const cs_Contact *c = &s->contacts->data[i];
    double h = v3_dot(c->point, s->up);
    if (h > top && h < low && v3_dot(c->normal, s->up) < -UP_EPS) low = h;
  }
  return low;
}

/* How far (world units) the point at (e-space) is from start along dir_w:
** where a walk from start got to. */
static double gone_along(const Slide *s, cs_Vec3 start, cs_Vec3 at, cs_Vec3 dir_w) {
  return v3_dot(cs_espace_vec_from(s->es, v3_sub(at, start)), dir_w);
}

/* How a step try ended (step_try). */
enum { STEP_KEPT, STEP_FAILED, STEP_TOO_FAR };

/* One step try from start (the plain walk's end is plain): up, the walk,
** down. Kept when it lands on walkable ground no higher than the step
** height above the feet (a round bottom can perch on a taller ledge's
** edge), gets farther, and either climbed or met no wall on the way: a
** raised walk that ends against a wall and comes down where it started
** would creep over thin walls frame by frame (a narrower slice of the
** ellipsoid meets the wall's top). STEP_TOO_FAR: not kept because it came
** down on walkable ground too high or not under it, as a raised walk
** longer than a stair's tread does on the next step's nose; a shorter
** walk may land on the tread. A try with a share of the walk (a half, a
** quarter) gets farther when it beats that share of the plain walk: a
** plain walk that slid along a riser at 45 degrees got as far as any
** half-walk step could, and the mover stayed at the stairs for good at
** 20 fps (found by an independent tester). That holds only for a try that
** ends higher than the plain walk (by a skin and a half): a half-walk try up a ramp,
** which the plain walk climbed too, was kept at half the walk where the
** slide went cos^2 of it (another tester). */
static int step_try(Slide *s, cs_Vec3 start, cs_Vec3 walk, double share, cs_Vec3 dir_w,
                    const Mark *plain, double rise, double *overhead) {
  double raised, far_plain, far_step;
  int lands, low, climbed;
  size_t first;
  cs_Contact *down;
  s->pos = start;
  move_straight(s, up_es(s, rise), CS_PASS_STEP, 1);
  raised = height_of(s, v3_sub(s->pos, start));
  s->walled = 0;
  first = s->contacts->count;
  slide_pass(s, walk, CS_PASS_STEP);
  *overhead = lowest_above(s, first, top_of(s, start));
  down = move_straight(s, up_es(s, -(raised + 2 * s->skin)), CS_PASS_STEP, 1);
  far_plain = gone_along(s, start, plain->pos, dir_w);
  far_step = gone_along(s, start, s->pos, dir_w);
  if (s->touched || !down || !is_below(s, down) || !is_walkable(s, down) || s->status != CS_OK)
    return STEP_FAILED;
  lands = rests_on(s, down);
  /* How high it came down: by the point met (a round bottom perches on a
  ** taller ledge's edge, or on the start of a ramp on top of a ledge: found
  ** by an independent tester), but on the face of the plane it stood on by
  ** the centre's rise. The point met on a slope's face lies above the feet
  ** by the bottom's curve (r (1 - cos a) for a sphere): a walk rising 0.24
  ** up a 35 degree ramp counted as 0.33, over a step of 0.3, and the call
  ** ended after the half-walk try (another tester: a frictionless ramp was
  ** climbed at half the walk, slower than the plain slide's cos^2). */
  if (v3_dot(down->normal, down->tri_normal) >= FACE_COS && stood_on_plane(s, start, down))
    low = height_of(s, v3_sub(s->pos, start)) <= s->m->step_height + s->skin;
  else
    low = v3_dot(down->point, s->up) - s->feet <= s->m->step_height + s->skin;
  if (!lands || !low) return STEP_TOO_FAR;
  /* (higher by more than a skin and a half: a try that came back down to the
  ** floor the plain walk rests on lands a skin over the floor, a skin over a
  ** plain walk touching it, and rounding decided the tie: kept at half the
  ** walk, it ended 0.015 behind the plain walk by the scene's scale or
  ** place; found by an independent tester) */
  climbed = height_of(s, v3_sub(s->pos, plain->pos)) > 1.5 * s->skin;
  if (!climbed) share = 1;
  if (far_step > far_plain * share + step_gain(s, walk, dir_w) && (!s->walled || climbed))
    return STEP_KEPT;
  return STEP_FAILED;
}

/* After a step try (its result got) whose raised walk ran into something
** the mover passes under at its start height, lowest at `overhead` (a
** lintel over the step, a low doorway), and may have slid down its edge
** onto the step's nose: once more, raised only as far as leaves its top
** two skins under that, kept when that try is and gets farther than the
** first, which is made again otherwise (found by an independent tester:
** the walk stopped on the step's edge under a lintel, though the step and
** the room over it were within stepHeight). Returns the try kept, and in
** *rise the raise of the tries after it. */
static int step_lower(Slide *s, cs_Vec3 start, cs_Vec3 walk, double share, cs_Vec3 dir_w,
                      const Mark *plain, int got, double overhead, double *rise) {
  double lower = overhead - top_of(s, start) - 2 * s->skin;
  double far = gone_along(s, start, s->pos, dir_w);
  int first = got;
  if (!(lower > 0 && lower < *rise)) return got;
  rewind_to(s, plain);
  s->touched = 0;
  got = step_try(s, start, walk, share, dir_w, plain, lower, &overhead);
  if (got == STEP_KEPT &&
      (first != STEP_KEPT || gone_along(s, start, s->pos, dir_w) > far + step_gain(s, walk, dir_w))) {
    *rise = lower;
    return got;
  }
  rewind_to(s, plain);
  s->touched = 0;
  return step_try(s, start, walk, share, dir_w, plain, *rise, &overhead);
}

/* Step tries after the first whose raised walk went too far (STEP_TOO_FAR),
** each with half the walk of the one before: at 0.35 m a call, a 0.4 x 0.9
** ellipsoid's raised walk over a stair of 0.2 m risers and 0.25 m treads
** came down on the second step's nose every time, and the mover stayed at
** the first riser for good (found by an independent tester). */
#define STEP_SHORTER_TRIES 2

/* The walk, and with step_height a second try over a ledge: up, the same
** walk, down (Quake's PM_StepSlideMove); see step_try. It is made for a
** mover on ground, when the walk met a ledge (met_ledge): its last call ended
** on ground (grounded), or the probe finds it under the start (a mover
** placed on a floor, or moved without gravity, which has no ground state
** of its own). */
static void walk_pass(Slide *s, cs_Vec3 walk, int grounded) {
  cs_ContactBuf *cb = s->contacts;
  cs_Vec3 start = s->pos, dir_w;
  size_t first = cb->count, path_start = path_mark(s);
  Mark plain;                  /* the try's path goes after the plain one's */
  double rise = s->m->step_height, overhead;
  int r = slide_pass(s, walk, CS_PASS_WALK), k, got, lowered = 0;
  if (!(s->m->step_height > 0) || !(r & PASS_HIT) || s->touched || !met_ledge(s, first)) return;
  if (!grounded && !ground_below(s, start)) return;
  plain = mark(s);
  dir_w = cs_espace_vec_from(s->es, walk);
  dir_w = v3_normalize(v3_madd(dir_w, s->up, -v3_dot(dir_w, s->up)));
  for (k = 0; k <= STEP_SHORTER_TRIES; k++, walk = v3_scale(walk, 0.5)) {
    got = step_try(s, start, walk, ldexp(1.0, -k), dir_w, &plain, rise, &overhead);
    if (!lowered && overhead < HUGE_VAL) {
      lowered = 1;
      got = step_lower(s, start, walk, ldexp(1.0, -k), dir_w, &plain, got, overhead, &rise);
    }
    if (got == STEP_KEPT) {
      size_t n = cb->count - plain.ncontacts;   /* keep the step's contacts only */
      memmove(cb->data + first, cb->data + plain.ncontacts, n * sizeof(cs_Contact));
      cb->count = first + n;
      if (s->path) {                      /* and the step's path only */
        size_t np = s->path->npath - plain.npath;
        memmove(s->path->path + path_start, s->path->path + plain.npath, np * sizeof(cs_Vec3));
        path_cut(s, path_start + np);
      }
      return;
    }
    rewind_to(s, &plain);
    s->touched = 0;
    if (got != STEP_TOO_FAR) return;
  }
}

/* Does the mover end at contact c (within two skins)? The snap's move down
** grazing an edge beside it (a floor's end, its centre just past it: the
** hit's normal level within a few thousandths) stops where it began, the
** skin taken along that normal, and had kept a contact 0.9 below as ground
** (found by an independent tester: a character in mid-air past a floor's
** end jumped from there). */
static int ends_at(const Slide *s, const cs_Contact *c) {
  cs_Vec3 d = v3_sub(s->pos, cs_espace_to(s->es, c->point));
  double len = v3_len(d);
  return len > 0 && len <= 1 + 2 * skin_es(s, v3_scale(d, 1 / len)) + 1e-9;
}

/* Does the mover stand, where the call has taken it, on walkable ground
** below that the call met? (Ground it met and left is none: a walk off a
** ledge from exactly touching its top met the top at t = 0, and the snap
** was skipped in mid-air; found by an independent tester.) */
static int has_ground_contact(const Slide *s) {
  size_t i;
  for (i = 0; i < s->contacts->count; i++) {
    const cs_Contact *c = &s->contacts->data[i];
    if (is_below(s, c) && is_walkable(s, c) && ends_at(s, c)) return 1;
  }
  return 0;
}

/* How far (along up) the mover hung, where its walk began, above its rest
** on the plane of contact c, when the ground it stood on lay on that plane
** (its point within two skins of it, both carried): it stood on the plane's
** edge, a crest from flat ground or a rise down onto a walkable slope, its
** centre above the slope's plane (found by an independent tester: a run over a 40
** degree crest at 20 Hz, 0.42 m a frame, left the ground for 28 frames).
** 0 otherwise. */
static double edge_hover(const Slide *s, const cs_Contact *c) {
  const cs_Mover *m = s->m;
  cs_Vec3 n = c->tri_normal, carry = cs_espace_vec_from(s->es, s->carry_es);
  cs_Vec3 ground = v3_add(m->ground_point, carry), start = v3_add(m->pos, carry);
  double nu = v3_dot(n, s->up), gap;
  if (!(nu > 0) || fabs(v3_dot(n, v3_sub(ground, c->point))) > 2 * s->skin) return 0;
  gap = v3_dot(n, v3_sub(start, c->point)) - support_along(s->es, n);
  return gap > 0 ? gap / nu : 0;
}

/* Snapping after the walk: down to walkable ground below, the mover
** following; without such ground nothing changes. The ground may lie
** snapDistance (and the skin) below, and farther by the descent along the
** walk of the ground the mover stood on or of the one found, so that a
** walkable slope is kept at any frame rate (cs_mover.c, the snap's reach).
** left: the ground it stood on is still its ground (a live body or mover at
** the call's start): after a teleport or the ground's removal its last
** slope is no longer under it (found by an independent tester: a mover
** placed by setPosition before a tall ledge, off a ramp, stepped down the
** ledge by the ramp's slope). */
static void snap_to_ground(Slide *s, cs_Vec3 walk, int left) {
  const cs_Mover *m = s->m;
  Mark k = mark(s);
  cs_Contact *c = move_straight(s, up_es(s, -(cs_mover_snap_reach(m, walk) + s->skin)), CS_PASS_SNAP, 1);
  if (c && is_below(s, c) && is_walkable(s, c) && ends_at(s, c)) {
    double allow = m->snap_distance + s->skin +
                   fmax(cs_mover_slope_drop(m, c->tri_normal, walk),
                        left ? cs_mover_slope_drop(m, m->ground_normal, walk) : 0.0) +
                   (left ? edge_hover(s, c) : 0.0);
    if (height_of(s, v3_sub(k.pos, s->pos)) <= allow * (1 + 1e-12)) return;
  }
  rewind_to(s, &k);
}

/* The ground state from the call's contacts (API.md): walkable ground below
** the centre is ON; else steep ground below; else something below that does
** not face up (UNSUPPORTED); else AIR. */
static void classify_ground(Slide *s) {
  cs_Mover *m = s->m;
  const cs_Contact *best = NULL;
  int state = CS_GROUND_AIR;
  size_t i;
  for (i = 0; i < s->contacts->count; i++) {
    const cs_Contact *c = &s->contacts->data[i];
    double u = v3_dot(c->tri_normal, s->up);
    int st;
    if (!is_below(s, c)) continue;
    st = is_walkable(s, c) ? CS_GROUND_ON : u > UP_EPS ? CS_GROUND_STEEP : CS_GROUND_UNSUPPORTED;
    /* the flattest walkable contact, the last of equals: the one where the
    ** call ends (the first, a walk's at the call's start, left the ground
    ** point a walk behind the mover: found by an independent tester) */
    if (st == CS_GROUND_ON && (state != CS_GROUND_ON || u >= v3_dot(best->tri_normal, s->up))) {
      state = st;
      best = c;
    } else if (state != CS_GROUND_ON && (state == CS_GROUND_AIR || st == CS_GROUND_STEEP)) {
      if (state != CS_GROUND_STEEP || !best) best = c;
      state = st;
    }
  }
  m->ground = (cs_GroundState)state;
  m->placed_anew = 0;
  m->has_ground = state == CS_GROUND_ON || state == CS_GROUND_STEEP;
  m->ground_body = NULL;
  m->ground_mover = NULL;
  if (m->has_ground) {
    m->ground_normal = best->tri_normal;
    m->ground_point = best->point;
    m->ground_body = best->body;
    m->ground_generation = best->body ? best->body->generation : 0;
    m->ground_mover = best->mover;
    m->ground_mover_id = best->mover ? best->mover->id : 0;
    if (best->mover) m->ground_mover_travel = best->mover->travel;
    m->ground_tag = best->tag;
  }
}

/* Marks the carrier's triangles CROSS for the carry pass, or gives them
** back the filter's answer (cs_TriES.filter_response). */
static void hide_body(Slide *s, const cs_Body *b, int hide) {
  size_t i;
  for (i = 0; i < s->ntris; i++) {
    cs_TriES *t = &s->tris[i];
    if (s->bodies[t->body] != b) continue;
    t->response = hide ? (uint8_t)CS_RESPONSE_CROSS : t->filter_response;
  }
}

/* Hides the carrier (set->carrier's triangles, or set->carrier_mover) from
** the sweeps, or shows it again. */
static void hide_ground(Slide *s, const cs_SlideSet *set, int hide) {
  if (set->carrier) hide_body(s, set->carrier, hide);
  else s->hidden = hide ? set->carrier_mover : NULL;
}

/* Does the unit sphere at p overlap the carrier (set->carrier's triangles
** or set->carrier_mover)? */
static int overlaps_carrier(const Slide *s, const cs_SlideSet *set, cs_Vec3 p) {
  cs_Vec3 away;
  size_t i;
  for (i = 0; set->carrier && i < s->ntris; i++)
    if (s->bodies[s->tris[i].body] == set->carrier && overlaps(&s->tris[i], p, &away)) return 1;
  for (i = 0; set->carrier_mover && i < s->nells; i++)
    if (s->ell_movers[i] == set->carrier_mover && overlaps_mover(s, i, p, &away)) return 1;
  return 0;
}

/* The carry pass: the rider moves by how its ground moved, sliding along
** what it meets, with its ground passed through (it has already moved,
** and may have moved into the rider, as a lift does). A slide may then
** turn the rider into its ground (carried under an overhang, it slides
** down its edge into the platform, whose inside leads out below): when it
** ends overlapping the ground, though where the ground took it (start +
** vel, its old place on the ground) does not, the pass is made again
** straight, without sliding, stopping at what it meets; and when that
** too stops inside the ground while the rider's place before the carry is
** clear of it (a platform placed far in one step, the way there blocked),
** the rider is not carried. So too when its old place on the ground
** overlapped the ground already (movers spawned in one another, one of
** them the other's ground): the carry, free or sliding, took it deep into
** the carrier, which its place before the carry was clear of (found by an
** independent tester). (A lift that rose into its rider, crushing it
** against a ceiling, keeps the carry: the rider stays on top.) */
static void carry_pass(Slide *s, const cs_SlideSet *set) {
  cs_Vec3 start = s->pos, vel = s->carry_es = cs_espace_vec_to(s->es, set->carry);
  Mark k = mark(s);
  hide_ground(s, set, 1);
  slide_pass(s, vel, CS_PASS_CARRY);
  hide_ground(s, set, 0);
  if (!overlaps_carrier(s, set, s->pos)) return;
  if (v3_len2(v3_sub(s->pos, v3_add(start, vel))) > 0 &&
      !overlaps_carrier(s, set, v3_add(start, vel))) {
    rewind_to(s, &k);
    hide_ground(s, set, 1);
    move_straight(s, vel, CS_PASS_CARRY, 1);
    hide_ground(s, set, 0);
    if (!overlaps_carrier(s, set, s->pos)) return;
  }
  if (overlaps_carrier(s, set, start)) return;
  rewind_to(s, &k);                     /* stopped inside it: not carried */
}

/* The sensors' events along the call's path (cs_sensor.c), into the set's
** scratch, with room made in the mover for them: nothing after this can
** fail. */
static cs_Status track_sensors(Slide *s, const cs_SlideSet *set) {
  cs_SensorScratch *p = s->path;
  size_t i;
  cs_Status st;
  if (!p) return cs_mover_reserve_sensors(s->m, 0, 0);
  for (i = 0; i < p->npath; i++) p->path[i] = cs_espace_from(s->es, p->path[i]);
  st = cs_sensors_track(set->sensors, set->nsensors, set->world, s->m, p);
  if (st != CS_OK) return st;
  return cs_mover_reserve_sensors(s->m, p->nevents, p->ninside + s->m->ninside);
}

/* commit_sensors keeps at most this many sensors of other worlds that the
** mover is inside of (the latest: those of a world since closed stay until
** pushed out). */
#define OTHER_INSIDE_MAX 64

/* The mover takes the events and inside-states track_sensors found, for
** this call's world; what it is inside of in other worlds stays (a call in
** a world of props between two in the level made the level's zone give an
** enter at every frame and no exit: found by an independent tester). */
static void commit_sensors(Slide *s, uint64_t world) {
  cs_Mover *m = s->m;
  cs_SensorScratch *p = s->path;
  size_t i, kept = 0, n = p ? p->ninside : 0;
  m->nsevents = p ? p->nevents : 0;
  if (m->nsevents) memcpy(m->sevents, p->events, m->nsevents * sizeof *p->events);
  for (i = 0; i < m->ninside; i++)
    if (m->inside[i].world != world) m->inside[kept++] = m->inside[i];
  if (kept > OTHER_INSIDE_MAX) {
    memmove(m->inside, m->inside + (kept - OTHER_INSIDE_MAX), OTHER_INSIDE_MAX * sizeof *m->inside);
    kept = OTHER_INSIDE_MAX;
  }
  if (n) memcpy(m->inside + kept, p->inside, n * sizeof *p->inside);
  m->ninside = kept + n;
}

/* The mover's skin, at least SKIN_MIN_REL of its smallest radius. */
static double slide_skin(const cs_Mover *m) {
  double skin = cs_mover_skin(m), least = SKIN_MIN_REL * cs_mover_min_radius(m);
  return skin > least ? skin : least;
}

/* The slide of m on the set, at the call's start (cs_slide_move). The
** mover is written only by cs_slide_move, at its end. */
CS_INLINE void slide_init(Slide *s, cs_Mover *m, const cs_SlideSet *set) {
  const cs_ESpace *es = set->es;
  memset(s, 0, sizeof *s);
  s->m = m;
  s->es = es;
  s->tris = set->tris;
  s->ntris = set->ntris;
  s->bodies = set->bodies;
  s->last_safe = set->last_safe;
  s->side_ref = set->side_ref;
  s->motion = set->motion;
  s->since = set->since;
  s->carrier = set->carrier;
  s->pos = cs_espace_to(es, m->pos);   /* the origin, unless es comes from a cache */
  s->reach_skins = 1;
  s->reach = set->reach;
  s->push_reach = set->push_reach;
  s->up = m->up;
  s->skin = slide_skin(m);
  s->feet = v3_dot(m->pos, m->up) - support_along(es, m->up);   /* (its support along -up) */
  s->ells = set->ells;
  s->ell_movers = set->ell_movers;
  s->ell_resp = set->ell_resp;
  s->nells = set->nells;
}

int cs_slide_push_out(cs_Mover *m, const cs_SlideSet *set, cs_Vec3 *push) {
  Slide s;
  slide_init(&s, m, set);
  s.probe = 1;
  /* (the carry pass comes first in a call: the carrier's triangles are
  ** judged from the safe place carried along, as there) */
  if (v3_len2(set->carry) > 0 && (set->carrier || set->carrier_mover))
    s.carry_es = cs_espace_vec_to(set->es, set->carry);
  *push = v3(0, 0, 0);
  if (depenetrate(&s, cs_mover_grounded(m)) != FREED) return 0;
  *push = v3_sub(cs_espace_from(set->es, s.pos), m->pos);
  return cs_isfinite3(*push) && v3_len2(*push) > 0;
}

cs_Status cs_slide_move(cs_Mover *m, const cs_SlideSet *set, int *ends_clear) {
  Slide s;
  const cs_ESpace *es = set->es;
  int grounded = cs_mover_grounded(m), stuck = CLEAR, jumping;
  cs_Status st;
  cs_Vec3 end;
  size_t i;
  slide_init(&s, m, set);
  s.contacts = set->contacts;
  s.alloc = set->alloc;
  s.contacts->count = 0;
  *ends_clear = 0;
  if (set->sensors && set->path) {
    s.path = set->path;
    s.path->npath = 0;
    path_add(&s);
  }
  jumping = set->gravity && v3_dot(*set->gravity, m->up) > 0;
  s.sweep_flags = CS_SWEEP_DEEPENING_ONLY | (set->known_clear ? CS_SWEEP_CLEAR_START : 0);
  if (v3_len2(set->carry) > 0 && (set->carrier || set->carrier_mover))
    carry_pass(&s, set);                  /* ride the platform or mover first */
  /* other movers move between calls: a start known clear of the triangles
  ** may still overlap one of them */
  if (!set->known_clear || (s.nells && overlaps_any(&s, s.pos))) {
    stuck = depenetrate(&s, grounded);
    if (stuck == FREED) path_add(&s);
    if (stuck != STILL_STUCK) s.sweep_flags |= CS_SWEEP_CLEAR_START;
  }
  /* A mover left stuck with its centre in a solid stays where it is (API.md,
  ** wasStuck): the sweeps only keep a move from deepening the overlap of
  ** each triangle, and a move down from behind a lift's top face leaves
  ** that face, so gravity took the mover into the lift a step a call until
  ** it was clear inside it (found by an independent tester: a lift rising
  ** under a mover against a ceiling) */
  if (!s.in_solid) {
    walk_pass(&s, cs_espace_vec_to(es, set->walk), grounded);
    /* A "touch" ends the pass it is met in, not the call: the gravity pass
    ** still runs and decides the ground state, and the snap follows unless
    ** that pass touched (a touch wall skipped both: a mover standing on a
    ** floor read "air", one in mid-air against the wall hung there, and a
    ** character could not jump: found by an independent tester) */
    if (set->gravity) {
      s.touched = 0;
      s.reach_skins = 2;
      slide_pass(&s, cs_espace_vec_to(es, *set->gravity), CS_PASS_GRAVITY);
      s.reach_skins = 1;
    }
    if (m->snap_distance > 0 && grounded && !jumping && !s.touched && !has_ground_contact(&s))
      snap_to_ground(&s, set->walk, set->carrier != NULL || set->carrier_mover != NULL);
  }
  /* A move passes a one-sided triangle from behind (the papers' test), so
  ** it may end with its centre in front and the ellipsoid in it: pushed out
  ** now, so that the call ends clear, as the others do (depenetrate finds
  ** whether it overlaps anything: CLEAR when not). */
  if (set->nonesided && stuck != STILL_STUCK) {
    int out = depenetrate(&s, grounded);
    if (out == FREED) path_add(&s);
    if (out != CLEAR) stuck = out;
  }
  if (s.status != CS_OK) return s.status;
  /* a result that left the range of doubles changes nothing (CS_ERANGE):
  ** the world's checks keep calls far from it, this is the last guard */
  end = cs_espace_from(es, s.pos);
  if (!cs_isfinite3(end)) return CS_ERANGE;
  for (i = 0; i < s.contacts->count; i++)
    if (!cs_isfinite3(s.contacts->data[i].point) || !cs_isfinite3(s.contacts->data[i].normal))
      return CS_ERANGE;
  if ((st = track_sensors(&s, set)) != CS_OK) return st;
  if ((st = cs_mover_set_contacts(m, s.contacts->data, s.contacts->count)) != CS_OK) return st;
  commit_sensors(&s, set->world);
  m->pos = end;
  m->was_stuck = stuck != CLEAR;
  classify_ground(&s);
  /* the rider follows the point it stands on (API.md, body:setVelocity):
  ** a platform scaled or tilted under it moves that point, not its centre
  ** as the body's own point (found by an independent tester: a slab scaled
  ** about its top lifted its rider off into the air) */
  if (m->ground_body) {
    m->ground_anchor = m3_apply(&m->ground_body->Ainv, v3_sub(m->ground_point, m->ground_body->T));
    m->ground_placed = m->ground_body->placed;
    /* (for the step try only: stood_on_plane) */
    m->ground_normal_body = m->step_height > 0 ? m3_apply_t(&m->ground_body->A, m->ground_normal) : v3(0, 0, 0);
  }
  /* a call that started clear ends clear: no pass deepens an overlap */
  if (stuck != STILL_STUCK || !overlaps_any(&s, s.pos)) {
    *ends_clear = 1;
    m->last_safe = m->pos;
    m->has_safe = 1;
  }
  return CS_OK;
}

/* }================================================================== */
