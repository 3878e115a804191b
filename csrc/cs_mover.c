/*
** cs_mover.c: movers (ellipsoids): their shape, tunables, and the results of
** their last call (contacts, ground state).
*/
#include <string.h>

#include "cs_check.h"
#include "cs_mover.h"

static void set_orientation(cs_Mover *m, const double q[4]);

cs_Status cs_mover_new(const cs_Alloc *alloc, cs_Mover **out) {
  static const double identity[4] = {0, 0, 0, 1};
  cs_Mover *m = cs_malloc(alloc, sizeof *m);
  *out = NULL;
  if (!m) return CS_ENOMEM;
  memset(m, 0, sizeof *m);
  m->alloc = *alloc;
  m->radius = v3(0.5, 0.5, 0.5);
  m->up = v3(0, 1, 0);
  set_orientation(m, identity);
  m->max_iterations = 5;
  m->skin = -1.0;
  cs_mover_set(m, CS_SLOPE_LIMIT, 45.0);
  m->collides_with = ~0u;
  m->layers = 1;
  m->id = cs_new_id();
  m->ground = CS_GROUND_AIR;
  *out = m;
  return CS_OK;
}

void cs_mover_free(cs_Mover *m) {
  if (!m) return;
  if (m->set) cs_moverset_remove(m->set, m);
  cs_free(&m->alloc, m->contacts, m->capcontacts * sizeof(cs_Contact));
  cs_free(&m->alloc, m->cache.tris, m->cache.captris * sizeof(cs_TriES));
  cs_free(&m->alloc, m->cache.bodies, m->cache.capbodies * sizeof(cs_Body *));
  cs_free(&m->alloc, m->sevents, m->capsevents * sizeof(cs_SensorEvent));
  cs_free(&m->alloc, m->inside, m->capinside * sizeof(cs_SensorRef));
  cs_free(&m->alloc, m, sizeof *m);
}

const cs_Error *cs_mover_error(const cs_Mover *m) { return &m->err; }

/* A mover in a batch under way may be moving on another thread, and one
** added to a world whose batch is under way is read by the batch's moves
** (issue 15): their setters refuse, on every thread count alike, so that
** the batch stays the loop's bits (a filter that set another listed
** mover's collides_with sent it through a floor on 2 threads only). */
static cs_Status refuse_in_batch(cs_Mover *m) {
  if (m->in_batch)
    return cs_fail(&m->err, CS_EBUSY, 0,
                   "the mover is in a batch under way (collideAndSlideMany): set it after the call");
  return cs_fail(&m->err, CS_EBUSY, 0, "the mover is added to a world whose batch is under way "
                 "(collideAndSlideMany): set it after the call");
}

/* A setter of the mover's place, shape or settings: refused in a batch
** (refuse_in_batch), and during the mover's own move (from its filter), as
** the Lua bindings refuse it: the move went on with the old shape and ended
** with the new one, a radius grown to 2 left 1.48 in the floor (found by an
** independent tester of the C API). */
static cs_Status refuse_busy(cs_Mover *m) {
  if (cs_mover_batch_locked(m)) return refuse_in_batch(m);
  if (m->moving)
    return cs_fail(&m->err, CS_EBUSY, 0, "the mover is busy (its move is under way: called from a filter)");
  return CS_OK;
}

cs_Status cs_mover_set_skin_auto(cs_Mover *m) {
  if (refuse_busy(m) != CS_OK) return CS_EBUSY;
  m->skin = -1.0;
  return CS_OK;
}

static const char *const RXYZ[3] = {"rx", "ry", "rz"};
static const char *const QXYZW[4] = {"qx", "qy", "qz", "qw"};

/* The mover's start is no longer known clear of what it met: its place,
** shape or mask changed. */
static void unclean(cs_Mover *m) { m->clean = 0; }

cs_Status cs_mover_set_position(cs_Mover *m, const cs_Vec3 *p) {
  cs_Status s = cs_check_vec(&m->err, 1, cs_names_xyz, p);
  if (s != CS_OK) return s;
  if (refuse_busy(m) != CS_OK) return CS_EBUSY;
  /* put back where it is (an engine writing its positions back each frame):
  ** nothing changes, so that the next call does what it would have done */
  if (memcmp(p, &m->pos, sizeof *p) == 0) return CS_OK;
  m->pos = *p;
  if (m->set) cs_moverset_moved(m->set, m);
  m->has_safe = 0;        /* a teleport: the old safe place means nothing, */
  m->ground_body = NULL;  /* nor does the platform it stood on, */
  m->carried = 0;         /* nor its taking it along, */
  m->placed_anew = 1;     /* nor the ground it stood on */
  unclean(m);
  return CS_OK;
}
void cs_mover_get_position(const cs_Mover *m, cs_Vec3 *out) { *out = m->pos; }

cs_Status cs_mover_set_radius(cs_Mover *m, const cs_Vec3 *r) {
  cs_Status s = cs_check_radii(&m->err, 1, RXYZ, r);
  if (s != CS_OK) return s;
  if (refuse_busy(m) != CS_OK) return CS_EBUSY;
  m->radius = *r;
  unclean(m);
  if (m->set) cs_moverset_moved(m->set, m);
  return CS_OK;
}
void cs_mover_get_radius(const cs_Mover *m, cs_Vec3 *out) { *out = m->radius; }

static void set_orientation(cs_Mover *m, const double q[4]) {
  double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  int i;
  for (i = 0; i < 4; i++) m->q[i] = l > 0 ? q[i] / l : (i == 3);
  m->rot = m3_from_quat(m->q);
  unclean(m);
  m->oriented = !(m->q[0] == 0 && m->q[1] == 0 && m->q[2] == 0);
  if (m->set) cs_moverset_moved(m->set, m);
}

cs_Status cs_mover_set_orientation(cs_Mover *m, const double q[4]) {
  cs_Status s = cs_check_quat(&m->err, 1, QXYZW, q);
  if (s != CS_OK) return s;
  if (refuse_busy(m) != CS_OK) return CS_EBUSY;
  set_orientation(m, q);
  return CS_OK;
}

void cs_mover_get_orientation(const cs_Mover *m, double q[4]) {
  memcpy(q, m->q, sizeof m->q);
}

cs_Status cs_mover_set_up(cs_Mover *m, const cs_Vec3 *up) {
  cs_Status s = cs_check_dir(&m->err, 1, cs_names_xyz, up, "up vector");
  if (s != CS_OK) return s;
  if (refuse_busy(m) != CS_OK) return CS_EBUSY;
  m->up = v3_normalize(*up);
  return CS_OK;
}
void cs_mover_get_up(const cs_Mover *m, cs_Vec3 *out) { *out = m->up; }

/* {== The snap's reach ==}
** A walk across up of length h down a plane of slope a descends h tan a: at
** 30 calls a second a character running 7 m/s down a 43-degree ramp went
** 0.22 down a call, past a snapDistance of 0.2, and flew off the ramp; at
** 60 it kept it (found by an independent tester). So the snap reaches
** farther by the descent of the steepest walkable slope (its tangent held to
** that of 75 degrees, so that a slopeLimit near 90 does not probe far), and
** takes ground found below within snapDistance and the descent of the
** ground's plane along the walk (the ground's it leaves or the one it
** finds: cs_slide.c): flat ground, as below a ledge from a flat floor,
** keeps the reach of snapDistance alone. */
#define SNAP_TAN_MAX 3.7320508075688772      /* tan(75 degrees) */

static cs_Vec3 across_up(const cs_Mover *m, cs_Vec3 walk) {
  return v3_sub(walk, v3_scale(m->up, v3_dot(walk, m->up)));
}

double cs_mover_walkable_tan(const cs_Mover *m) {
  double c = m->cos_slope, t = c > 0 ? sqrt(1 - c * c) / c : SNAP_TAN_MAX;
  return t < SNAP_TAN_MAX ? t : SNAP_TAN_MAX;
}

/* With the descent, the most a mover resting on a crest's edge can hang
** above its rest on the steepest walkable slope beyond (cs_slide.c,
** edge_hover): its support along up times sqrt(1 + tan^2) - 1, bounded by
** its largest radius. The gather's margin (cs_world.c) counts all of it. */
double cs_mover_snap_reach(const cs_Mover *m, cs_Vec3 walk) {
  double t, r;
  if (!(m->snap_distance > 0)) return 0.0;
  t = cs_mover_walkable_tan(m);
  r = fmax(fmax(m->radius.x, m->radius.y), m->radius.z);
  return m->snap_distance + t * v3_len(across_up(m, walk)) + r * (sqrt(1 + t * t) - 1);
}

double cs_mover_slope_drop(const cs_Mover *m, cs_Vec3 n, cs_Vec3 walk) {
  cs_Vec3 h = across_up(m, walk);
  double nu = v3_dot(n, m->up), nh = v3_dot(n, h), cap = SNAP_TAN_MAX * v3_len(h);
  if (!(nh > 0) || !(nu > 0)) return 0.0;
  return nh < cap * nu ? nh / nu : cap;
}

/* The skin in world units: the set value, or 1% of the smallest radius. */
double cs_mover_skin(const cs_Mover *m) {
  return m->skin >= 0 ? m->skin : 0.01 * cs_mover_min_radius(m);
}

static const char *const SETTING_NAMES[] = {
  "maxIterations", "skin", "slopeLimit", "blockSteepSlopes", "stepHeight", "snapDistance",
  "collidesWith", "layers"
};

/* The setting's checks (collideslide.h, cs_Setting); the error names the
** setting as the Lua API does. */
static cs_Status check_setting(cs_Error *e, cs_Setting s, double v) {
  const char *name;
  char b[CS_NUMBUF];
  if ((unsigned)s > (unsigned)CS_LAYERS) return cs_fail(e, CS_EINVAL, 1, "unknown setting");
  name = SETTING_NAMES[s];
  switch (s) {
    case CS_MAX_ITERATIONS:
      if (!isfinite(v) || v != floor(v))
        return cs_fail(e, CS_EINVAL, 1, "%s must be an integer, got %s", name, cs_fmtnum(b, v));
      if (v < 1 || v > CS_MAX_ITERATIONS_CAP)
        return cs_fail(e, CS_EINVAL, 1, "%s must be in 1..%d, got %s", name,
                       CS_MAX_ITERATIONS_CAP, cs_fmtnum(b, v));
      return CS_OK;
    case CS_BLOCK_STEEP_SLOPES:
      if (v != 0 && v != 1) return cs_fail(e, CS_EINVAL, 1, "%s must be 0 or 1, got %s", name, cs_fmtnum(b, v));
      return CS_OK;
    case CS_COLLIDES_WITH: case CS_LAYERS:
      if (!isfinite(v) || v != floor(v) || v < 0 || v > 4294967295.0)
        return cs_fail(e, CS_EINVAL, 1, "%s must be a 32-bit integer bitmask, got %s", name, cs_fmtnum(b, v));
      return CS_OK;
    default: break;
  }
  if (!isfinite(v)) return cs_fail(e, CS_EINVAL, 1, "%s is %s", name, cs_fmtnum(b, v));
  if (s == CS_SLOPE_LIMIT) {
    if (v < 0 || v > 90)
      return cs_fail(e, CS_EINVAL, 1, "%s must be in [0, 90] degrees, got %s", name, cs_fmtnum(b, v));
    return CS_OK;
  }
  if (v < 0) return cs_fail(e, CS_EINVAL, 1, "%s must be >= 0, got %s", name, cs_fmtnum(b, v));
  if (v > CS_MAX_COORD)
    return cs_fail(e, CS_ERANGE, 1, "%s is out of range (|%s| > 1e30), got %s", name, name, cs_fmtnum(b, v));
  return CS_OK;
}

cs_Status cs_mover_set(cs_Mover *m, cs_Setting s, double v) {
  cs_Status st = check_setting(&m->err, s, v);
  if (st != CS_OK) return st;
  if (refuse_busy(m) != CS_OK) return CS_EBUSY;
  switch (s) {
    case CS_MAX_ITERATIONS: m->max_iterations = (int)v; break;
    case CS_SKIN: m->skin = v; break;
    case CS_SLOPE_LIMIT:
      m->slope_limit = v;
      m->cos_slope = cos(v * (3.14159265358979323846 / 180.0));
      break;
    case CS_BLOCK_STEEP_SLOPES: m->block_steep = v != 0; break;
    case CS_STEP_HEIGHT: m->step_height = v; break;
    case CS_SNAP_DISTANCE: m->snap_distance = v; break;
    case CS_COLLIDES_WITH: m->collides_with = (unsigned)v; unclean(m); break;
    case CS_LAYERS: m->layers = (unsigned)v; break;
  }
  return CS_OK;
}

double cs_mover_get(const cs_Mover *m, cs_Setting s) {
  switch (s) {
    case CS_MAX_ITERATIONS: return m->max_iterations;
    case CS_SKIN: return cs_mover_skin(m);
    case CS_SLOPE_LIMIT: return m->slope_limit;
    case CS_BLOCK_STEEP_SLOPES: return m->block_steep;
    case CS_STEP_HEIGHT: return m->step_height;
    case CS_SNAP_DISTANCE: return m->snap_distance;
    case CS_COLLIDES_WITH: return m->collides_with;
    case CS_LAYERS: return m->layers;
  }
  return 0;
}

cs_Status cs_mover_set_filter(cs_Mover *m, cs_FilterFn fn, void *ud) {
  if (cs_mover_batch_locked(m)) return refuse_in_batch(m);
  /* the clean end of a call with a filter left out what it crossed: a
  ** mover it let into a floor stayed there once the filter was gone, as
  ** the next call skipped the overlap search (found by an independent
  ** tester) */
  if (fn != m->filter || ud != m->filter_ud) unclean(m);
  m->filter = fn;
  m->filter_ud = ud;
  return CS_OK;
}

cs_Status cs_mover_set_mover_filter(cs_Mover *m, cs_MoverFilterFn fn, void *ud) {
  if (cs_mover_batch_locked(m)) return refuse_in_batch(m);
  m->mover_filter = fn;
  m->mover_filter_ud = ud;
  return CS_OK;
}

void cs_mover_mark_filtered(cs_Mover *m, int filtered) { m->marked_filtered = filtered != 0; }

size_t cs_mover_contact_count(const cs_Mover *m) { return m->ncontacts; }
const cs_Contact *cs_mover_contact(const cs_Mover *m, size_t i) {
  return i < m->ncontacts ? &m->contacts[i] : NULL;
}
cs_GroundState cs_mover_ground_state(const cs_Mover *m) { return m->ground; }
int cs_mover_was_stuck(const cs_Mover *m) { return m->was_stuck; }

int cs_mover_ground(const cs_Mover *m, cs_Vec3 *normal, const cs_Body **body, int *tag) {
  if (!m->has_ground) return 0;
  if (normal) *normal = m->ground_normal;
  if (body) *body = m->ground_body;
  if (tag) *tag = m->ground_tag;
  return 1;
}

size_t cs_mover_sensor_event_count(const cs_Mover *m) { return m->nsevents; }
const cs_SensorEvent *cs_mover_sensor_event(const cs_Mover *m, size_t i) {
  return i < m->nsevents ? &m->sevents[i] : NULL;
}

/* Makes room for n sensor events and k inside-states (so that the call's
** commit cannot fail after it). */
cs_Status cs_mover_reserve_sensors(cs_Mover *m, size_t n, size_t k) {
  cs_Status s;
  if (n > m->capsevents &&
      (s = cs_grow(&m->alloc, (void **)&m->sevents, &m->capsevents, n,
                   sizeof(cs_SensorEvent))) != CS_OK)
    return s;
  if (k > m->capinside &&
      (s = cs_grow(&m->alloc, (void **)&m->inside, &m->capinside, k,
                   sizeof(cs_SensorRef))) != CS_OK)
    return s;
  return CS_OK;
}

cs_Status cs_mover_set_contacts(cs_Mover *m, const cs_Contact *c, size_t n) {
  if (n > m->capcontacts) {
    cs_Status s = cs_grow(&m->alloc, (void **)&m->contacts, &m->capcontacts, n,
                          sizeof(cs_Contact));
    if (s != CS_OK) return s;
  }
  if (n) memcpy(m->contacts, c, n * sizeof *c);
  m->ncontacts = n;
  return CS_OK;
}

const cs_Mover *cs_mover_ground_mover(const cs_Mover *m) {
  return m->has_ground ? m->ground_mover : NULL;
}

cs_World *cs_mover_added_to(const cs_Mover *m) { return m->set ? m->set->world : NULL; }
void cs_mover_set_userdata(cs_Mover *m, void *ud) { m->userdata = ud; }
void *cs_mover_get_userdata(const cs_Mover *m) { return m->userdata; }

/* {==================================================================
** The movers of a world
** ===================================================================*/

cs_Vec3 cs_mover_half_extents(const cs_Mover *m) {
  cs_Vec3 h;
  int i, j;
  if (!m->oriented) return m->radius;
  for (i = 0; i < 3; i++) {
    double s = 0;
    for (j = 0; j < 3; j++) {
      double e = m->rot.m[i][j] * v3_get(m->radius, j);
      s += e * e;
    }
    if (i == 0) h.x = sqrt(s); else if (i == 1) h.y = sqrt(s); else h.z = sqrt(s);
  }
  return h;
}

/* {==================================================================
** The grid over a set's movers
** ===================================================================*/

/* The bucket of cell (x, y, z): a mix of the three integers. */
static size_t cell_bucket(const cs_MoverSet *set, const double c[3]) {
  uint64_t h = (uint64_t)(int64_t)c[0] * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(int64_t)c[1] * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
  h ^= (uint64_t)(int64_t)c[2] * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
  return (size_t)(h ^ (h >> 29)) & (set->nbuckets - 1);
}

/* Cell coordinates of p, clamped so that far positions stay integers. */
static void cell_of(const cs_MoverSet *set, cs_Vec3 p, double c[3]) {
  int k;
  for (k = 0; k < 3; k++) {
    double x = floor(v3_get(p, k) / set->cell);
    c[k] = x < -1e15 ? -1e15 : x > 1e15 ? 1e15 : x;
  }
}

static void grid_insert(cs_MoverSet *set, cs_Mover *m) {
  size_t b;
  cell_of(set, m->seen_pos, m->grid_cell);
  b = cell_bucket(set, m->grid_cell);
  m->grid_bucket = b;
  m->grid_next = set->heads[b];
  set->heads[b] = m;
}

static void grid_unlink(cs_MoverSet *set, cs_Mover *m) {
  cs_Mover **p = &set->heads[m->grid_bucket];
  while (*p && *p != m) p = &(*p)->grid_next;
  if (*p) *p = m->grid_next;
}

static void grid_drop(cs_MoverSet *set) {
  cs_free(&set->alloc, set->heads, set->nbuckets * sizeof(cs_Mover *));
  set->heads = NULL;
  set->nbuckets = 0;
}

/* (Re)builds the grid: cells twice the largest extent, two buckets a mover.
** On allocation failure it stays unbuilt (queries scan the list). */
static void grid_build(cs_MoverSet *set) {
  size_t i, n = 16;
  double half = 0;
  grid_drop(set);
  for (i = 0; i < set->count; i++) {
    cs_Vec3 h = cs_mover_half_extents(set->items[i]);
    half = fmax(half, fmax(h.x, fmax(h.y, h.z)));
  }
  while (n < 2 * set->count) n *= 2;
  set->heads = (cs_Mover **)cs_malloc_array(&set->alloc, n, sizeof(cs_Mover *));
  if (!set->heads) return;
  memset(set->heads, 0, n * sizeof(cs_Mover *));
  set->nbuckets = n;
  set->max_half = half;
  set->cell = half > 0 ? 8 * half : 1;
  for (i = 0; i < set->count; i++) grid_insert(set, set->items[i]);
}

/* The grid pays from a few dozen movers; rebuilt when it is too small or
** its cells are too fine for the largest mover. */
void cs_moverset_prepare(cs_MoverSet *set) {
  if (!cs_moverset_ready(set)) grid_build(set);
}

int cs_moverset_ready(const cs_MoverSet *set) {
  return !(set->count > 32 && (!set->nbuckets || set->count > set->nbuckets ||
                               set->max_half > set->cell));
}

void cs_moverset_moved(cs_MoverSet *set, cs_Mover *m) {
  cs_Vec3 h;
  double c[3];
  m->seen_pos = m->pos;
  if (!set->nbuckets) return;
  h = cs_mover_half_extents(m);
  set->max_half = fmax(set->max_half, fmax(h.x, fmax(h.y, h.z)));
  cell_of(set, m->seen_pos, c);
  if (c[0] != m->grid_cell[0] || c[1] != m->grid_cell[1] || c[2] != m->grid_cell[2]) {
    grid_unlink(set, m);
    grid_insert(set, m);
  }
}

void cs_moverset_near(cs_MoverSet *set, cs_Vec3 lo, cs_Vec3 hi, cs_MoverFn fn, void *ud) {
  double a[3], b[3], c[3], cells;
  size_t i;
  if (set->count == 0) return;
  if (!set->frozen) cs_moverset_prepare(set);
  if (set->nbuckets) {
    lo = v3_sub(lo, v3(set->max_half, set->max_half, set->max_half));
    hi = v3_add(hi, v3(set->max_half, set->max_half, set->max_half));
    cell_of(set, lo, a);
    cell_of(set, hi, b);
    cells = (b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1);
    if (cells <= (double)set->count) {
      for (c[0] = a[0]; c[0] <= b[0]; c[0]++)
        for (c[1] = a[1]; c[1] <= b[1]; c[1]++)
          for (c[2] = a[2]; c[2] <= b[2]; c[2]++) {
            cs_Mover *m;
            for (m = set->heads[cell_bucket(set, c)]; m; m = m->grid_next)
              if (m->grid_cell[0] == c[0] && m->grid_cell[1] == c[1] && m->grid_cell[2] == c[2] &&
                  !fn(ud, m))
                return;
          }
      return;
    }
  }
  for (i = 0; i < set->count; i++)         /* few movers, or a box over most cells */
    if (!fn(ud, set->items[i])) return;
}

/* }================================================================== */

cs_Status cs_moverset_add(cs_MoverSet *set, const cs_Alloc *a, cs_Mover *m) {
  if (set->count == set->cap) {
    cs_Status s = cs_grow(a, (void **)&set->items, &set->cap, set->count + 1, sizeof(cs_Mover *));
    if (s != CS_OK) return s;
  }
  m->set = set;
  m->seen_pos = m->pos;
  m->set_slot = set->count;
  set->items[set->count++] = m;
  if (set->nbuckets) {
    if (set->count > set->nbuckets) grid_drop(set);   /* rebuilt on the next query */
    else {
      cs_Vec3 h = cs_mover_half_extents(m);
      set->max_half = fmax(set->max_half, fmax(h.x, fmax(h.y, h.z)));
      grid_insert(set, m);
    }
  }
  return CS_OK;
}

void cs_moverset_remove(cs_MoverSet *set, cs_Mover *m) {
  size_t slot = m->set_slot;
  if (m->set != set || slot >= set->count || set->items[slot] != m) return;
  if (set->nbuckets) grid_unlink(set, m);
  set->items[slot] = set->items[--set->count];
  set->items[slot]->set_slot = slot;
  m->set = NULL;
}

void cs_moverset_free(cs_MoverSet *set, const cs_Alloc *a) {
  size_t i;
  for (i = 0; i < set->count; i++) set->items[i]->set = NULL;
  cs_free(a, set->items, set->cap * sizeof(cs_Mover *));
  grid_drop(set);
  set->items = NULL;
  set->count = set->cap = 0;
}

/* }================================================================== */
