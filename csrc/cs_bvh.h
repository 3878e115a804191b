/*
** cs_bvh.h: the bounding volume tree over one mesh's triangles (cs_bvh.c),
** the only file that knows the node layout. Nodes hold float bounds rounded
** outward, so they are conservative for the double-precision triangles they
** hold. It sees vertex and index arrays, never a mesh: cs_mesh.c calls it,
** it calls nothing above cs_alloc.
*/
#ifndef CS_BVH_H
#define CS_BVH_H

#include "cs_alloc.h"

typedef struct cs_BvhNode {
  float lo[3], hi[3];
  uint32_t index;   /* leaf: first entry in prims; inner: right child (left is this + 1) */
  uint32_t count;   /* leaf: number of prims (> 0); inner: 0 */
} cs_BvhNode;       /* 32 bytes */

typedef struct cs_Bvh {
  cs_BvhNode *nodes;
  uint32_t *prims;      /* triangle indices in leaf order (skipped ones left out) */
  uint32_t node_count, prim_count;
  /* made by the first cs_bvh_refit_some, for the edits that follow: */
  uint32_t *parent;     /* of each node (UINT32_MAX at the root) */
  uint32_t *leaf_of;    /* of each triangle (UINT32_MAX when skipped) */
  uint32_t leaf_of_count;
} cs_Bvh;

/* Above this many triangles the tree's top is linear (Morton order), each
** range of at most this many below it built by the binned SAH. Here for
** the tests, which build on both sides of it. */
#define CS_BVH_LINEAR_MAX 512

/* Builds over the triangles whose skip[t] is 0 (skip may be NULL): the
** binned SAH, under a linear top above CS_BVH_LINEAR_MAX triangles.
** verts: 3 doubles a vertex; tris: 3 vertex indices a triangle. Returns
** CS_ENOMEM (also when the final shrink fails) or CS_ETOOBIG (more than
** CS_MAX_TRIANGLES kept); on failure *bvh is left empty. */
cs_Status cs_bvh_build(cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                       const uint32_t *tris, const uint8_t *skip, uint32_t ntris);
void cs_bvh_free(cs_Bvh *bvh, const cs_Alloc *a);
size_t cs_bvh_memory(const cs_Bvh *bvh);
/* Recomputes every node's bounds after vertices moved (same topology). */
void cs_bvh_refit(cs_Bvh *bvh, const double *verts, const uint32_t *tris);
/* The same for the leaves holding the n triangles ids[] and the nodes above
** them alone: a few edited vertices of a large mesh (ntris: the mesh's
** triangle count). The first call makes the maps from triangles to leaves
** and from nodes to parents (4 bytes a triangle and a node, kept with the
** tree); CS_ENOMEM when it cannot, and nothing is refitted. */
cs_Status cs_bvh_refit_some(cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                            const uint32_t *tris, uint32_t ntris, const uint32_t *ids, size_t n);
/* Appends to out the triangles whose own bounds meet the box [lo, hi]. */
cs_Status cs_bvh_query_box(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                           const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_U32Buf *out);
/* The same a part at a time: each call appends the triangles of the next
** leaves until out holds max or more (a leaf's worth past it at most);
** the cursor, set up by cs_bvh_cursor_start, holds where the walk stands,
** and its sp is 0 once the walk is done. */
#define CS_BVH_STACK 64       /* build and walks: more than the deepest leaf */
typedef struct cs_BvhCursor { uint32_t stack[CS_BVH_STACK + 1]; int sp; } cs_BvhCursor;
CS_INLINE void cs_bvh_cursor_start(cs_BvhCursor *c) { c->sp = -1; }
CS_INLINE int cs_bvh_cursor_done(const cs_BvhCursor *c) { return c->sp == 0; }
cs_Status cs_bvh_query_box_some(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                                const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_BvhCursor *c,
                                size_t max, cs_U32Buf *out);
/* The same, keeping only the triangles whose bounds, grown by pad[k] along
** each axis k, the segment o + s d (s in [0, 1]) meets: a sweep's gather. */
cs_Status cs_bvh_query_segment(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                               const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 o,
                               cs_Vec3 d, cs_Vec3 pad, cs_U32Buf *out);
/* The ray and closest walks widen their box tests by a few ulps, so their
** callbacks may be handed near misses: they must test the triangle exactly.
**
** Visits the triangles of the leaves the segment o + s d, s in [0, *tmax],
** passes through, nearer boxes first, each box grown by pad on every side
** (the rounding of a segment mapped into the tree's space). fn may lower
** *tmax (closest hit) and returns 0 to stop the walk. */
typedef int (*cs_BvhRayFn)(void *ud, uint32_t tri, double *tmax);
void cs_bvh_raycast(const cs_Bvh *bvh, cs_Vec3 o, cs_Vec3 d, double tmax, double pad,
                    cs_BvhRayFn fn, void *ud);
/* Visits the triangles of the leaves within sqrt(*max_d2) of p, nearer boxes
** first; fn may lower *max_d2 and returns 0 to stop. */
typedef int (*cs_BvhPointFn)(void *ud, uint32_t tri, double *max_d2);
void cs_bvh_closest(const cs_Bvh *bvh, cs_Vec3 p, double max_d2, cs_BvhPointFn fn, void *ud);
/* Bounds of the whole tree (of all non-skipped triangles). Returns 0 if empty. */
int cs_bvh_bounds(const cs_Bvh *bvh, cs_Vec3 *lo, cs_Vec3 *hi);

#endif
