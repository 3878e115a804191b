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
#include "cs_thread.h"

typedef struct cs_FrictionEntry { int tag; double coefficient; } cs_FrictionEntry;
/* A filter answer cached for one call, per (gathered body, tag). */
typedef struct cs_FilterEntry { int tag; int response; } cs_FilterEntry;

/* What one call writes besides its mover: the gathered triangles and their
** bodies, the filter's answers, the contacts, the other movers near it,
** the sensor path, its error. The world has one for the single calls; a
** batch gives each thread its own, so calls on different threads share
** nothing they write (issue 15). */
struct cs_CallScratch {
  cs_Alloc alloc;           /* the world's */
  cs_Error *err;            /* where the call's error goes: the world's for
                            ** its own scratch, else own_err */
  cs_Error own_err;
  cs_TriES *tris;
  size_t ntris, captris;
  size_t nonesided;       /* nonzero when some are one-sided (a bound on
                          ** their count) */
  cs_U32Buf ids;
  const cs_Body **gbodies;  /* the bodies a gather met, indexed by cs_TriES.body */
  size_t ngbodies, capgbodies;
  cs_FilterEntry *filters;  /* the filter's answers during one gather */
  size_t nfilters, capfilters;
  cs_ContactBuf contacts;   /* a move's contacts, copied to the mover at its end */
  cs_Mover **near;          /* the added movers near a call, in slot order */
  size_t capnear;
  cs_EllipsoidES *ells;     /* a call's other movers, in its ellipsoid space */
  const cs_Mover **ell_movers;
  unsigned char *ell_resp;  /* the mover filter's answer for each (cs_Response) */
  size_t capells, capellm, capellr;
  cs_SensorScratch sensor;
  /* a push out that takes the mover's riders along (cs_world.c,
  ** take_riders): the riders, a scratch of its own for their ways' sweeps
  ** (this one holds the call's set), and, in a batch, the riders moved, which
  ** the batch files between its waves */
  cs_Mover **riders;
  size_t nriders, capriders;
  cs_Vec3 *undo;            /* each rider's place and ground_mover_travel
                            ** before the push (2 a rider): a call that then
                            ** fails puts them back */
  size_t capundo;
  int riders_moved;         /* this call's push took the riders along */
  struct cs_CallScratch *aux;
  cs_Mover **pushed;
  size_t npushed, cappushed;
  int shared;               /* a batch runs: the world is only read (prepared) */
  int busy;                 /* a call of the contract works in it (a filter's
                            ** call on the same thread must not: CS_EBUSY) */
};

/* A body's placement elsewhere: the version it made and the box of its
** bounds before and after it. */
#define CS_CHANGE_LOG 256
typedef struct cs_ChangeEntry {
  uint64_t stamp;
  cs_Vec3 lo, hi;
} cs_ChangeEntry;

struct cs_World {
  cs_Alloc alloc;
  uint64_t id;            /* unique in the process, never reused (cs_world_new) */
  cs_Body **bodies;
  size_t nbodies, capbodies;
  size_t nonesided;       /* bodies whose mesh is one-sided (backfaces ignored) */
  cs_Body **free_bodies;  /* removed bodies, reused by later adds */
  size_t nfree, capfree;
  cs_FrictionEntry *friction;
  size_t nfriction, capfriction;
  int busy;               /* a move is under way (filters may not re-enter) */
  int batching;           /* a batch is under way: edits are refused (CS_EBUSY) */
  unsigned version;       /* bumped by every change to bodies, their meshes
                          ** or the friction table */
  unsigned last_call;     /* the version at the last move's start (not a
                          ** job system's: cs_world_prepare sets it for
                          ** those): a body placed again before the next
                          ** keeps the placement it had then (prevA, prevT) */
  /* Where the changes since a stamp were (cs_world.c, unchanged_since).
  ** stamp counts the changes that may move a triangle, in 64 bits (the
  ** version's 32 wrap: a mover idle for 2^31 changes was read as unchanged
  ** by the first form; found by an independent tester). A body placed
  ** elsewhere logs the boxes it left and took; every other change (an add,
  ** a remove, layers, enabled, friction, mesh edits) may touch anything
  ** from wide_stamp on; floor_stamp: the oldest the ring still answers for.
  ** A mover's cache and its known clear start then outlive a door moved
  ** far away (every mover gathered anew each frame a body moved anywhere:
  ** found by an independent tester). */
  uint64_t stamp, wide_stamp, floor_stamp, nlog;
  cs_ChangeEntry log[CS_CHANGE_LOG];
  const cs_Body *log_body;  /* whose placement the newest entry logs (log_change) */
  /* the last added body, while nothing else changed since (the version is
  ** undo_version): its removal (a binding's, when the placement it was
  ** given is refused) puts the version and the broad phase's flags back as
  ** they were before the add, so that the world is as it was
  ** (cs_world_remove) */
  cs_Body *undo_body;
  unsigned undo_version, undo_old_version;
  uint64_t undo_stamp, undo_wide, undo_nlog, undo_floor;
  const cs_Body *undo_log_body;
  cs_ChangeEntry undo_slot;
  int undo_rebuild, undo_dirty;
  cs_CallScratch scratch;   /* the single calls' (cs_world_collide_and_slide) */
  cs_Broad broad;           /* the tree over body bounds */
  cs_Error err;             /* of the last failed call (cs_world_error) */
  cs_MoverSet movers;       /* added movers, solid to each other (issue 14) */
  cs_Sensor **sensors;      /* (cs_sensor.h) */
  size_t nsensors, capsensors;
  /* batches (cs_batch.c): the threads and a scratch for each */
  int nthreads;             /* cs_world_set_threads, 1 by default */
  cs_Pool *pool;            /* nthreads - 1 threads, started by the first batch */
  cs_CallScratch *tscratch; /* ntscratch of them, one per thread */
  int ntscratch;
  void *bmem;               /* a batch's arrays, kept from call to call */
  size_t capbmem;           /* (bytes) */
  cs_Mover **carry;         /* the movers a placed body takes along (carry_riders) */
  size_t capcarry;
  cs_Mover **stackers;      /* the movers standing on movers, for that call */
  size_t nstackers, capstackers;
};

/* Brings the broad phase (and the world's version) up to date with moves
** of bodies and edits of their meshes; not during a walk. */
void cs_world_sync(cs_World *w);
/* A walk over the enabled bodies (mask permitting) whose bounds meet the
** box [lo, hi]: cs_world_walk_begin, then cs_broad_walk_next(&w->broad, it)
** until NULL, then cs_broad_walk_end(&w->broad, it). */
void cs_world_walk_begin(cs_World *w, cs_BroadWalk *it, cs_Vec3 lo, cs_Vec3 hi, unsigned mask);
/* The same for a walk of the bodies nearest p first (cs_broad_near_next,
** cs_broad_near_end). */
void cs_world_near_begin(cs_World *w, cs_BroadNear *it, cs_Vec3 p, unsigned mask);
/* Gathers into sc->tris every triangle of every body (mask permitting) whose
** bounds meet the world box [lo, hi], mapped into es. With a filter, calls
** it once per (body, tag). Returns CS_EABORT when the filter aborts. */
cs_Status cs_world_gather(cs_World *w, cs_CallScratch *sc, const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi,
                          unsigned mask, cs_FilterFn filter, void *filter_ud);

/* The call's scratch: set up, freed (the struct itself is the caller's). */
void cs_scratch_init(cs_CallScratch *sc, const cs_Alloc *a, cs_Error *err);
void cs_scratch_release(cs_CallScratch *sc);
/* Fails a call with CS_EBUSY for a scratch another call works in (sc->busy). */
cs_Status cs_scratch_busy(cs_CallScratch *sc);

/* How a call starts: what carries the mover (the ground body's or mover's
** motion), and its reach before depenetration (world units). */
typedef struct cs_MoveStart {
  const cs_Body *ground;
  const cs_Mover *ground_mover;
  cs_Vec3 carry;
  double margin;
} cs_MoveStart;

/* CS_EBUSY (in e) when a batch under way moves or reads m: it is listed in
** one, or added to a world running one (the public moves' first check;
** inline: every call makes it). */
cs_Status cs_world_batch_refusal(cs_Error *e, const cs_Mover *m);
CS_INLINE cs_Status cs_world_check_batch_free(cs_Error *e, const cs_Mover *m) {
  return cs_mover_batch_locked(m) ? cs_world_batch_refusal(e, m) : CS_OK;
}
/* The checks of a move's arguments: the walk and gravity finite, the reach
** in range; on success, how the call starts. */
cs_Status cs_world_check_move(const cs_World *w, cs_Error *e, const cs_Mover *m,
                              const cs_Vec3 *walk, const cs_Vec3 *gravity, cs_MoveStart *st);
/* A collideAndSlide in the scratch sc, from st (NULL: checked and found
** here; else what cs_world_check_move found, still true). With sc->shared
** (a batch), the world was prepared and is only read: the mover's moved
** state is not filed in the movers' grid (the batch does it, in list
** order, between its waves). */
cs_Status cs_world_move(cs_World *w, cs_CallScratch *sc, cs_Mover *m, const cs_Vec3 *walk,
                        const cs_Vec3 *gravity, const cs_MoveStart *st);
/* The sensors' bounds brought up to date (all when mask is ~0u); returns
** whether any meets mask. */
int cs_world_prepare_sensors(cs_World *w, unsigned mask);
/* cs_world_prepare's work, during a call too (the batch's first step). */
void cs_world_refit(cs_World *w);
/* Is a refit pending that cs_world_prepare does (the _in calls refuse)? */
int cs_world_pending(const cs_World *w);
/* Files a moved mover: its grid cell, and the riders hint of its ground body. */
void cs_world_file_mover(cs_World *w, cs_Mover *m);
/* Files the riders that the calls in scratch sc pushed along (a batch's,
** between its waves: cs_world.c, take_riders). */
void cs_world_file_pushed(cs_World *w, cs_CallScratch *sc);

#endif
