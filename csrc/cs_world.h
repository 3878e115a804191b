/*
** cs_world.h: a world's layout (cs_world.c): its bodies, friction table,
** broad phase (cs_broad.h) and the scratch its calls reuse. The world is the
** top of the core's call graph for a move: it gathers (through the broad
** phase and each body's tree), resolves, and calls down into the slide.
** The queries (cs_query.c) sit beside it and walk its bodies.
*/
#ifndef CS_WORLD_H
#define CS_WORLD_H

#include "cs_broad.h"
#include "cs_espace.h"
#include "cs_slide.h"
#include "cs_sensor.h"
#include "cs_ellipsoid.h"

typedef struct cs_FrictionEntry { int tag; double coefficient; } cs_FrictionEntry;
/* A filter answer cached for one call, per (gathered body, tag). */
typedef struct cs_FilterEntry { int tag; int response; } cs_FilterEntry;

struct cs_World {
  cs_Alloc alloc;
  uint64_t id;            /* unique in the process, never reused (cs_world_new) */
  cs_Body **bodies;
  size_t nbodies, capbodies;
  cs_Body **free_bodies;  /* removed bodies, reused by later adds */
  size_t nfree, capfree;
  cs_FrictionEntry *friction;
  size_t nfriction, capfriction;
  int busy;               /* a move is under way (filters may not re-enter) */
  unsigned version;       /* bumped by every change to bodies, their meshes
                          ** or the friction table */
  /* scratch reused by every call */
  cs_TriES *tris;
  size_t ntris, captris;
  cs_U32Buf ids;
  const cs_Body **gbodies;  /* the bodies a gather met, indexed by cs_TriES.body */
  size_t ngbodies, capgbodies;
  cs_FilterEntry *filters;  /* the filter's answers during one gather */
  size_t nfilters, capfilters;
  cs_ContactBuf contacts;   /* a move's contacts, copied to the mover at its end */
  cs_Broad broad;           /* the tree over body bounds */
  cs_Error err;             /* of the last failed call (cs_world_error) */
  cs_MoverSet movers;       /* added movers, solid to each other (issue 14) */
  cs_EllipsoidES *ells;     /* a call's other movers, in its ellipsoid space */
  const cs_Mover **ell_movers;
  size_t capells, capellm;
  cs_Sensor **sensors;      /* (cs_sensor.h) */
  size_t nsensors, capsensors;
  cs_SensorScratch sensor_scratch;
};

/* Brings the broad phase (and the world's version) up to date with moves
** of bodies and edits of their meshes; not during a walk. */
void cs_world_sync(cs_World *w);
/* A walk over the enabled bodies (mask permitting) whose bounds meet the
** box [lo, hi]: cs_world_walk_begin, then cs_broad_walk_next(&w->broad, it)
** until NULL, then cs_broad_walk_end(&w->broad, it). */
void cs_world_walk_begin(cs_World *w, cs_BroadWalk *it, cs_Vec3 lo, cs_Vec3 hi, unsigned mask);
/* The bounds of every enabled body; returns 0 when there is none. */
int cs_world_bounds(cs_World *w, cs_Vec3 *lo, cs_Vec3 *hi);

/* Gathers into w->tris every triangle of every body (mask permitting) whose
** bounds meet the world box [lo, hi], mapped into es. With a filter, calls
** it once per (body, tag). Returns CS_EABORT when the filter aborts. */
cs_Status cs_world_gather(cs_World *w, const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi,
                          unsigned mask, cs_FilterFn filter, void *filter_ud);

#endif
