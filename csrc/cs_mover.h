/*
** cs_mover.h: a mover's layout (cs_mover.c): its shape, tunables, the
** results of its last call, and what it remembers between calls (the gather
** cache, the clean start). The mover is data below the world and the slide:
** cs_mover.c calls nothing but the allocator.
*/
#ifndef CS_MOVER_H
#define CS_MOVER_H

#include "cs_alloc.h"
#include "cs_sweep.h"

/* cs_Mover.carrying: why carry_riders (cs_world.c) takes it along. */
enum { CARRY_NONE, CARRY_RIDES, CARRY_PUSHED };

/* A mover's gathered triangles kept between calls (cs_world.c): in
** ellipsoid space relative to c0, for a box a little larger than one call
** needs, reused while the world is unchanged and the calls' boxes stay in it. */
typedef struct cs_GatherCache {
  uint64_t world;         /* the id of the world it was gathered in; 0: empty */
  uint64_t stamp;         /* that world's change stamp then (cs_World.stamp) */
  unsigned mask;
  cs_Vec3 c0, radius, lo, hi;
  double q[4];
  cs_TriES *tris;
  size_t ntris, captris;
  size_t nonesided;       /* nonzero when some are one-sided (a bound on
                          ** their count) */
  const cs_Body **bodies;
  size_t nbodies, capbodies;
} cs_GatherCache;

/* A sensor a mover is inside of, by id, and its world's id: the pointer is
** never read unless the id is found among its world's live sensors. A
** mover keeps those of every world it was moved in (ids are never reused),
** so that a call in one world leaves what it is inside of in another. */
typedef struct cs_SensorRef { const cs_Sensor *sensor; uint64_t id, world; } cs_SensorRef;

/* The movers added to a world (cs_world_add_mover): kept by the mover
** module, so that a mover freed while added can leave it, and the world,
** freed, can tell its movers. */
typedef struct cs_MoverSet {
  cs_Mover **items;
  size_t count, cap;
  cs_World *world;        /* the owner, as an identity only (never called) */
  cs_Alloc alloc;         /* the world's */
  /* A hash grid over the movers' centres, for the movers near a call: a
  ** mover is in the one cell its centre is in, and a query widens its box
  ** by the largest half extent of any mover. Built on a query's need,
  ** rebuilt when the movers outgrow it, kept as movers move. */
  cs_Mover **heads;       /* buckets: the first mover of each, or NULL */
  size_t nbuckets;        /* a power of 2; 0: not built */
  double cell;            /* the cells' width */
  double max_half;        /* no mover's half extent is larger */
  int frozen;             /* a batch runs: queries only read (no rebuild) */
  int batching;           /* the world's batch is under way: the movers added
                          ** are read by its moves (cs_mover.c refuses edits) */
} cs_MoverSet;

cs_Status cs_moverset_add(cs_MoverSet *set, const cs_Alloc *a, cs_Mover *m);
void cs_moverset_remove(cs_MoverSet *set, cs_Mover *m);
/* Every mover forgets the set; then its memory is freed. */
void cs_moverset_free(cs_MoverSet *set, const cs_Alloc *a);
/* Builds the grid now if a query would (cs_world_prepare). */
void cs_moverset_prepare(cs_MoverSet *set);
/* Does the set have the grid it wants (none below a few dozen movers)? */
int cs_moverset_ready(const cs_MoverSet *set);
/* The mover moved or changed shape: its cell and the set's largest extent. */
void cs_moverset_moved(cs_MoverSet *set, cs_Mover *m);
/* Calls fn for every mover of the set whose bounds may meet the box [lo,
** hi] (a superset: fn tests exactly); stops when fn returns 0. */
typedef int (*cs_MoverFn)(void *ud, cs_Mover *m);
void cs_moverset_near(cs_MoverSet *set, cs_Vec3 lo, cs_Vec3 hi, cs_MoverFn fn, void *ud);
/* The world half extents of the mover's ellipsoid: |row i of R diag(r)|. */
cs_Vec3 cs_mover_half_extents(const cs_Mover *m);

struct cs_Mover {
  cs_Alloc alloc;
  cs_Vec3 pos, radius, up;
  double q[4];            /* orientation, unit quaternion */
  int oriented;           /* q is not the identity */
  cs_Mat3 rot;            /* R(q) */
  int max_iterations;
  double skin;            /* < 0: auto, 1% of the smallest radius */
  double slope_limit;     /* degrees */
  double cos_slope;       /* cos(slope_limit) */
  int block_steep;
  double step_height, snap_distance;
  unsigned collides_with;
  cs_FilterFn filter;
  void *filter_ud;
  cs_MoverFilterFn mover_filter;
  void *mover_filter_ud;
  int marked_filtered;    /* a binding's filter, handed over per call
                          ** (cs_mover_mark_filtered) */
  /* results of the last call */
  cs_Contact *contacts;
  size_t ncontacts, capcontacts;
  cs_GroundState ground;
  int has_ground;
  cs_Vec3 ground_normal;
  /* What the mover remembers of the world of its last call, whose id is
  ** `world`: the ground body, the contacts' bodies, the last safe place,
  ** the clean start below and the cache. Each is used only by a call in the
  ** world with that id; ids are never reused, so a freed world's memory is
  ** never read, even when a new world gets its address (issue 10). */
  uint64_t world;
  const cs_Body *ground_body;
  unsigned ground_generation;  /* of ground_body when it was met */
  cs_Vec3 ground_anchor;  /* the point stood on, in ground_body's space at the call's end */
  unsigned ground_placed; /* ground_body's `placed` then */
  cs_Vec3 ground_normal_body;  /* ground_normal in that space (as a normal: A^T n);
                               ** 0 after a call without a step height */
  cs_Vec3 ground_point;   /* that point in the world, then (or where a carry put it) */
  int ground_tag;
  int was_stuck;
  cs_Vec3 last_safe;      /* where the last call ended outside geometry */
  int has_safe;           /* a teleport clears it */
  unsigned safe_version;  /* of world `world` when last_safe was set */
  unsigned call_version;  /* of world `world` at the end of its last call */
  /* The last call ended overlapping nothing in the world `world` at its
  ** change stamp clean_stamp; until the mover or that world changes, the next
  ** call need not look for overlaps. */
  int clean;
  uint64_t clean_stamp;   /* the world's change stamp then (cs_World.stamp) */
  cs_GatherCache cache;
  cs_Error err;           /* of the last failed setter (cs_mover_error) */
  /* movers that meet (issue 14) */
  uint64_t id;            /* unique in the process, never reused */
  unsigned layers;        /* what other movers' collides_with must meet */
  cs_MoverSet *set;       /* the world it was added to, or NULL */
  size_t set_slot;
  cs_Mover *grid_next;    /* the next mover in its grid bucket */
  size_t grid_bucket;
  double grid_cell[3];    /* the cell it is filed in (integers, as doubles) */
  cs_Vec3 seen_pos;       /* its position when the set last filed it: what
                          ** other movers' calls see of it (cs_world.c) */
  cs_Vec3 last_move;      /* the displacement of its last call */
  cs_Vec3 travel;         /* the sum of its calls' displacements (carries
                          ** riders: by how much it grew since they looked) */
  void *userdata;
  uint64_t batch_stamp;   /* the batch it was last listed in (cs_batch.c) */
  int in_batch;           /* that batch is under way: setters refuse (CS_EBUSY) */
  size_t batch_index;     /* its index in that batch's list */
  const cs_Mover *ground_mover;   /* the ground is this mover (when has_ground;
                                  ** only its walkable top carries: ground ON) */
  uint64_t ground_mover_id;
  cs_Vec3 ground_mover_travel;    /* that mover's travel when the call ended */
  /* its ground body's setTransform took it along since its last call
  ** (cs_world.c, carry_riders): that call carries it by the anchor only,
  ** never by the body's velocity again */
  int carried;
  int placed_anew;        /* teleported since its last call: that call's
                          ** ground is not under it (cs_mover_grounded) */
  int carrying;           /* set only while carry_riders sweeps its riders:
                          ** CARRY_RIDES, or CARRY_PUSHED (in their way) */
  int moving;             /* a move of it is under way (cs_world.c, move) */
  int pushed;             /* the push out of the mover it rides took it along
                          ** since its last call (cs_world.c, take_riders) */
  /* the sensors of the last call: its events, and those it ended inside of */
  cs_SensorEvent *sevents;
  size_t nsevents, capsevents;
  cs_SensorRef *inside;
  size_t ninside, capinside;
};

/* Does a batch under way move or read m: is it listed in one, or added to a
** world running one? (Its setters refuse then, cs_mover.c, and so do the
** world's moves of it, cs_world_check_batch_free.) */
CS_INLINE int cs_mover_batch_locked(const cs_Mover *m) {
  return m->in_batch || (m->set && m->set->batching);
}
/* Does the mover start its call standing on walkable ground: did its last
** call end so, and was it not put elsewhere since? A teleported mover does
** not snap, step or ride from the ground it left (it snapped down to a
** floor 0.15 below where a new mover fell: found by independent testers). */
CS_INLINE int cs_mover_grounded(const cs_Mover *m) {
  return m->ground == CS_GROUND_ON && !m->placed_anew;
}
/* The smallest of the mover's radii. */
CS_INLINE double cs_mover_min_radius(const cs_Mover *m) {
  double r = m->radius.x < m->radius.y ? m->radius.x : m->radius.y;
  return r < m->radius.z ? r : m->radius.z;
}
/* The skin in world units: the set value, or 1% of the smallest radius. */
double cs_mover_skin(const cs_Mover *m);
/* The snap (cs_slide.c, snap_to_ground) after a call's walk: how far below
** it reaches (0 without snapDistance; with the height a mover may hang on a
** crest's edge), and how far down the ground found may lie: snapDistance
** and the descent of a plane of normal n along the walk. See cs_mover.c. */
double cs_mover_snap_reach(const cs_Mover *m, cs_Vec3 walk);
/* The tangent of slopeLimit, held to that of 75 degrees (the snap's). */
double cs_mover_walkable_tan(const cs_Mover *m);
double cs_mover_slope_drop(const cs_Mover *m, cs_Vec3 n, cs_Vec3 walk);
/* Makes room for n sensor events and k inside-states (so that a call's
** commit cannot fail after it). */
cs_Status cs_mover_reserve_sensors(cs_Mover *m, size_t n, size_t k);
/* Replaces the mover's contacts with n others (all or nothing). */
cs_Status cs_mover_set_contacts(cs_Mover *m, const cs_Contact *c, size_t n);

#endif
