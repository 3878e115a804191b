/*
** cs_broad.h: the broad phase (cs_broad.c): the tree over body bounds that
** a world holds, so that a call meets only the bodies near it however many
** the world holds. It owns the tree and the count of the meshes in use; the
** world hands it the body array and calls down into it, and walks are
** iterators (no callbacks), so nothing here calls back up.
*/
#ifndef CS_BROAD_H
#define CS_BROAD_H

#include "cs_body.h"
#include "cs_thread.h"

/* A mesh the bodies use, with the version its tree was built at. */
typedef struct cs_MeshRef { cs_Mesh *mesh; unsigned version; long count; } cs_MeshRef;

typedef struct cs_BroadNode {
  cs_Vec3 lo, hi;
  uint32_t index;         /* leaf: first in items; inner: right child (left is next) */
  uint32_t count;         /* leaf: bodies; inner: 0 */
} cs_BroadNode;

typedef struct cs_Broad {
  cs_Alloc alloc;
  cs_BroadNode *nodes;
  uint32_t *parents;      /* of each node (CS_BROAD_NONE at the root) */
  size_t nnodes, capnodes, capparents;
  cs_Body **items;        /* every body, enabled or not (the walks skip those
                          ** that are not): enabling one changes no box */
  size_t nitems, capitems;
  int dirty;              /* bodies moved since it was fitted: refit */
  int rebuild;            /* bodies added or removed: rebuild */
  int ok;                 /* it is usable (not after an allocation failure) */
  int walks;              /* walks under way (a callback's nested query, or
                          ** queries on other threads): cs_atomic_* only */
  int refits;             /* refits since the last rebuild */
  size_t moved_since;     /* bodies refitted since the last rebuild */
  cs_Body **moved;        /* the bodies moved since the last fit, to refit
                          ** along their paths to the root alone */
  size_t nmoved, capmoved;
  int refit_all;          /* more moved than the list holds: refit it all */
  cs_MeshRef *meshes;     /* distinct meshes in use, each watched
                          ** (cs_mesh_watch, slot: its place here) */
  size_t nmeshes, capmeshes;
  cs_EditFlag *edits;     /* set by the meshes: one of them was edited
                          ** (made at the first mesh's use) */
  size_t work;            /* nodes, bodies and meshes the updates looked at
                          ** so far (the C tests read its growth: what an
                          ** update cost) */
} cs_Broad;

#define CS_BROAD_NONE 0xffffffffu

void cs_broad_init(cs_Broad *bp, const cs_Alloc *a);
void cs_broad_free(cs_Broad *bp);
/* Counts a body's use of a mesh (delta +1 or -1); the first use watches
** the mesh's edits, the last lets go (the mesh must outlive its uses). */
cs_Status cs_broad_mesh_ref(cs_Broad *bp, cs_Mesh *mesh, int delta);
/* Body b moved: the next update refits the nodes above it (a body not in
** the tree yet waits for the rebuild its adding asked). */
void cs_broad_moved(cs_Broad *bp, cs_Body *b);
/* Bodies were added or removed: the next update rebuilds. */
CS_INLINE void cs_broad_changed(cs_Broad *bp) { bp->rebuild = 1; }
/* Is a refit or rebuild still to do (cs_broad_update), of the tree or of a
** mesh in use whose vertices were edited? */
int cs_broad_pending(const cs_Broad *bp);
/* While a walk is under way (the tree cannot be refitted): is a mesh in use
** edited? Then the tree is marked not current, so that the walks begun
** from now on visit the bodies one by one, refreshing their bounds. */
int cs_broad_note_edits(cs_Broad *bp);
/* Brings the tree up to date with the bodies[n] (refitting edited meshes
** and the bodies' bounds); not while a walk is under way. Returns how many
** meshes in use were found edited (the world's version moves by that). */
unsigned cs_broad_update(cs_Broad *bp, cs_Body *const *bodies, size_t n);

/* A walk over the enabled bodies whose layers meet mask and whose bounds
** meet the box [lo, hi], one body per cs_broad_walk_next, NULL at the end.
** Walks nest (a query's callback may run another query): the tree is not
** updated while one is under way, and a nested walk over a tree that is
** not current visits the bodies one by one. */
#define CS_BROAD_STACK 128
typedef struct cs_BroadWalk {
  cs_Vec3 lo, hi;
  unsigned mask;
  cs_Body *const *all;    /* one by one: every body */
  size_t i, end;          /* the bodies left in the current leaf (or of all) */
  int one_by_one, counted;
  size_t top;
  uint32_t stack[CS_BROAD_STACK];
} cs_BroadWalk;
void cs_broad_walk_begin(cs_Broad *bp, cs_BroadWalk *it, cs_Body *const *bodies, size_t n,
                         cs_Vec3 lo, cs_Vec3 hi, unsigned mask);
/* The same walk for calls on several threads at once (a batch), after
** cs_broad_update: it writes nothing shared (no walk count; nothing may
** update the tree while the batch runs). End it with cs_broad_walk_end. */
void cs_broad_walk_shared(const cs_Broad *bp, cs_BroadWalk *it, cs_Body *const *bodies,
                          size_t n, cs_Vec3 lo, cs_Vec3 hi, unsigned mask);
cs_Body *cs_broad_walk_next(cs_Broad *bp, cs_BroadWalk *it);
void cs_broad_walk_end(cs_Broad *bp, cs_BroadWalk *it);
/* A walk over the enabled bodies of mask nearest a point first (a
** closest-point query): depth first, the nearer child before the farther,
** skipping every box farther than the max_d2 each step is given (the
** square of the best distance found so far; the tests are widened by
** CS_BROAD_NEAR_SLACK for rounding). Over a tree that is not current it
** visits every body. Ends with cs_broad_near_end. */
#define CS_BROAD_NEAR_SLACK 1e-6
typedef struct cs_BroadNear {
  cs_Vec3 p;
  unsigned mask;
  cs_Body *const *all;
  size_t i, end;
  int one_by_one, counted;
  size_t top;
  struct { uint32_t node; double d2; } stack[CS_BROAD_STACK];
} cs_BroadNear;
void cs_broad_near_begin(cs_Broad *bp, cs_BroadNear *it, cs_Body *const *bodies, size_t n,
                         cs_Vec3 p, unsigned mask);
cs_Body *cs_broad_near_next(cs_Broad *bp, cs_BroadNear *it, double max_d2);
void cs_broad_near_end(cs_Broad *bp, cs_BroadNear *it);

#endif
