/*
** cs_internal.h: the structs and internal functions shared by the core's
** files. Nothing here is part of the public API (collideslide.h is).
** A call runs downward: world (gathers through the tree, maps into
** ellipsoid space) -> slide -> sweep. See DESIGN notes in README.md.
*/
#ifndef CS_INTERNAL_H
#define CS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "collideslide.h"
#include "cs_math.h"

#ifdef CS_DEBUG
#include <assert.h>
#define CS_ASSERT(c) assert(c)
#else
#define CS_ASSERT(c) ((void)0)
#endif

/* Most triangles a mesh may hold: indices are 32-bit inside. */
#define CS_MAX_TRIANGLES 0x3fffffffu
#define CS_MAX_VERTICES  0xfffffffeu

/* {==================================================================
** Allocation: every byte goes through the caller's cs_Alloc.
** ===================================================================*/

void *cs_malloc(const cs_Alloc *a, size_t size);
/* n * size bytes, or NULL on overflow or failure */
void *cs_malloc_array(const cs_Alloc *a, size_t n, size_t size);
void *cs_realloc(const cs_Alloc *a, void *p, size_t osize, size_t nsize);
void cs_free(const cs_Alloc *a, void *p, size_t size);
/* Grows *data (element size esize, *cap elements) to hold at least need. */
cs_Status cs_grow(const cs_Alloc *a, void **data, size_t *cap, size_t need, size_t esize);

/* A growable array of 32-bit indices. */
typedef struct cs_U32Buf { uint32_t *data; size_t count, cap; } cs_U32Buf;
CS_INLINE cs_Status cs_u32buf_push(const cs_Alloc *a, cs_U32Buf *b, uint32_t v) {
  if (b->count == b->cap) {
    cs_Status s = cs_grow(a, (void **)&b->data, &b->cap, b->count + 1, sizeof(uint32_t));
    if (s != CS_OK) return s;
  }
  b->data[b->count++] = v;
  return CS_OK;
}
void cs_u32buf_free(const cs_Alloc *a, cs_U32Buf *b);

/* }================================================================== */

/* {==================================================================
** The bounding volume tree (cs_bvh.c): the only file that knows the node
** layout. Nodes hold float bounds rounded outward, so they are conservative
** for the double-precision triangles they hold.
** ===================================================================*/

typedef struct cs_BvhNode {
  float lo[3], hi[3];
  uint32_t index;   /* leaf: first entry in prims; inner: right child (left is this + 1) */
  uint32_t count;   /* leaf: number of prims (> 0); inner: 0 */
} cs_BvhNode;       /* 32 bytes */

typedef struct cs_Bvh {
  cs_BvhNode *nodes;
  uint32_t *prims;      /* triangle indices in leaf order (skipped ones left out) */
  uint32_t node_count, prim_count;
} cs_Bvh;

/* Builds over the triangles whose skip[t] is 0 (skip may be NULL), binned SAH.
** verts: 3 doubles a vertex; tris: 3 vertex indices a triangle. Returns
** CS_ENOMEM (also when the final shrink fails) or CS_ETOOBIG (more than
** CS_MAX_TRIANGLES kept); on failure *bvh is left empty. */
cs_Status cs_bvh_build(cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                       const uint32_t *tris, const uint8_t *skip, uint32_t ntris);
void cs_bvh_free(cs_Bvh *bvh, const cs_Alloc *a);
size_t cs_bvh_memory(const cs_Bvh *bvh);
/* Recomputes every node's bounds after vertices moved (same topology). */
void cs_bvh_refit(cs_Bvh *bvh, const double *verts, const uint32_t *tris);
/* Appends to out the triangles whose own bounds meet the box [lo, hi]. */
cs_Status cs_bvh_query_box(const cs_Bvh *bvh, const cs_Alloc *a, const double *verts,
                           const uint32_t *tris, cs_Vec3 lo, cs_Vec3 hi, cs_U32Buf *out);
/* The ray and closest walks widen their box tests by a few ulps, so their
** callbacks may be handed near misses: they must test the triangle exactly.
**
** Visits the triangles of the leaves the segment o + s d, s in [0, *tmax],
** passes through, nearer boxes first. fn may lower *tmax (closest hit) and
** returns 0 to stop the walk. */
typedef int (*cs_BvhRayFn)(void *ud, uint32_t tri, double *tmax);
void cs_bvh_raycast(const cs_Bvh *bvh, cs_Vec3 o, cs_Vec3 d, double tmax,
                    cs_BvhRayFn fn, void *ud);
/* Visits the triangles of the leaves within sqrt(*max_d2) of p, nearer boxes
** first; fn may lower *max_d2 and returns 0 to stop. */
typedef int (*cs_BvhPointFn)(void *ud, uint32_t tri, double *max_d2);
void cs_bvh_closest(const cs_Bvh *bvh, cs_Vec3 p, double max_d2, cs_BvhPointFn fn, void *ud);
/* Bounds of the whole tree (of all non-skipped triangles). Returns 0 if empty. */
int cs_bvh_bounds(const cs_Bvh *bvh, cs_Vec3 *lo, cs_Vec3 *hi);

/* }================================================================== */

/* {==================================================================
** Meshes (cs_mesh.c)
** ===================================================================*/

enum { CS_TRI_DEGENERATE = 1 };

struct cs_Mesh {
  cs_Alloc alloc;
  double *verts;          /* 3 * nverts */
  uint32_t *tris;         /* 3 * ntris, 0-based */
  int32_t *tags;          /* ntris, or NULL when every tag is 0 */
  uint8_t *flags;         /* ntris: CS_TRI_* */
  uint32_t nverts, ntris, ndegenerate;
  int backfaces;          /* CS_BACKFACES_* */
  cs_Bvh bvh;
  cs_Vec3 lo, hi;         /* bounds of every vertex */
  unsigned version;       /* bumped by every vertex edit + refit */
  int dirty;              /* vertices edited since the last refit */
};

/* Refits the mesh if vertices were edited since its last refit. */
CS_INLINE void cs_mesh_ensure_fit(cs_Mesh *m) {
  if (m->dirty) cs_mesh_refit(m);
}

CS_INLINE cs_Vec3 cs_mesh_vert(const cs_Mesh *m, uint32_t i) {
  const double *p = m->verts + 3 * (size_t)i;
  return v3(p[0], p[1], p[2]);
}

/* }================================================================== */

/* {==================================================================
** Geometry primitives (cs_geom.c), all in double precision.
** ===================================================================*/

/* The point of triangle abc nearest to p (Ericson, Real-Time Collision
** Detection, 5.1.5, for the vertex regions; the face/edge choice uses a
** normal built from the two shortest edges, which stays right on slivers). *feature: 0 face, 1..3 edge ab, bc, ca, 4..6 vertex a, b, c
** (may be NULL). */
cs_Vec3 cs_closest_on_triangle(cs_Vec3 p, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c, int *feature);
/* Segment o + s d, s in [0, tmax], against triangle abc, both sides. Returns 1
** and *s on a hit. */
int cs_ray_triangle(cs_Vec3 o, cs_Vec3 d, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c,
                    double tmax, double *s);
/* Exact triangle / box overlap by the separating axis theorem
** (Akenine-Moller 2001). */
int cs_triangle_box_overlap(cs_Vec3 lo, cs_Vec3 hi, cs_Vec3 a, cs_Vec3 b, cs_Vec3 c);

/* }================================================================== */

/* {==================================================================
** The sweep kernel (cs_sweep.c): a unit sphere against one triangle in
** ellipsoid space. Pure: no allocation, no globals.
** ===================================================================*/

/* A triangle mapped into the mover's ellipsoid space for one call. */
typedef struct cs_TriES {
  cs_Vec3 a, b, c;        /* vertices, ellipsoid space relative to the call's start */
  cs_Vec3 n;              /* unit front normal, ellipsoid space */
  double d;               /* plane: dot(n, x) + d = 0 */
  cs_Vec3 lo, hi;         /* bounds of a, b, c (cs_sweep_triangles' first test) */
  /* the kernel's distance bound (cs_sweep.c), filled when first needed by
  ** cs_sweep_triangles (edge_ready), which cs_tri_bounds clears: */
  cs_Vec3 edge_n[3];      /* unit outward normals in the plane of ab, bc, ca */
  double edge_d[3];       /* max over the vertices v of dot(edge_n[k], v) */
  double off;             /* the vertices' largest |dot(n, v) + d| (rounding) */
  double size;            /* |a| (1-norm) + the sum of hi - lo: its coordinates' size */
  uint32_t tri;           /* index in its mesh */
  uint32_t body;          /* index into the call's gathered bodies */
  int32_t tag;
  uint8_t one_sided;      /* backfaces ignored: only hit from the front */
  uint8_t response;       /* cs_Response from the filter (SLIDE without one) */
  uint8_t edge_ready;     /* edge_n, edge_d, off and size are set */
  uint8_t pad[1];
} cs_TriES;

enum { CS_FEATURE_FACE = 0, CS_FEATURE_EDGE = 1, CS_FEATURE_VERTEX = 2,
       CS_FEATURE_OVERLAP = 3 };

typedef struct cs_SweepHit {
  double t;               /* fraction of vel at first contact */
  cs_Vec3 point;          /* contact point on the triangle (ellipsoid space) */
  cs_Vec3 normal;         /* unit, from the point toward the centre at t */
  int feature;            /* CS_FEATURE_* */
} cs_SweepHit;

/* Flags of cs_sweep_triangle */
enum {
  /* At an overlap at t = 0, report it only when vel deepens it (the slide
  ** loop's mode: a mover may always leave what it already touches). */
  CS_SWEEP_DEEPENING_ONLY = 1,
  /* The caller knows the sphere overlaps nothing at base (the slide, after
  ** a clean start): the overlap test is skipped. */
  CS_SWEEP_CLEAR_START = 2,
  /* cs_sweep_triangles: the triangles are swept once (a query): no bound
  ** before the kernel, whose data would not pay (results are the same) */
  CS_SWEEP_ONCE = 4
};

/* Sets tri->lo/hi from its vertices and marks its distance-bound data
** unset (cs_sweep_triangles fills it when first needed); every cs_TriES
** handed to the sweep must have been through it after its vertices, normal
** and plane were set. */
void cs_tri_bounds(cs_TriES *tri);

/* The unit sphere centred at base, moving by vel, against tri (Fauerby 2003,
** section 3). Returns 1 and fills *hit when it touches tri at some
** t in [0, tmax]; an overlap at the start is t = 0 (feature OVERLAP). */
int cs_sweep_triangle(cs_Vec3 base, cs_Vec3 vel, const cs_TriES *tri, double tmax,
                      int flags, cs_SweepHit *hit);
/* Loops cs_sweep_triangle over n triangles (those with response CROSS are
** skipped, and those that a cheap bound shows out of reach); returns the
** index of the earliest hit, or -1. Fills the triangles' distance-bound
** data where it is not yet set (the only change it makes to them). */
long cs_sweep_triangles(cs_Vec3 base, cs_Vec3 vel, cs_TriES *tris, size_t n,
                        double tmax, int flags, cs_SweepHit *hit);

/* }================================================================== */

/* {==================================================================
** Movers, bodies and worlds (cs_mover.c, cs_world.c)
** ===================================================================*/

/* A mover's gathered triangles kept between calls (cs_world.c): in
** ellipsoid space relative to c0, for a box a little larger than one call
** needs, reused while the world is unchanged and the calls' boxes stay in it. */
typedef struct cs_GatherCache {
  const cs_World *world;  /* NULL: empty */
  unsigned version;       /* of world */
  unsigned mask;
  cs_Vec3 c0, radius, lo, hi;
  double q[4];
  cs_TriES *tris;
  size_t ntris, captris;
  const cs_Body **bodies;
  size_t nbodies, capbodies;
} cs_GatherCache;

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
  /* results of the last call */
  cs_Contact *contacts;
  size_t ncontacts, capcontacts;
  cs_GroundState ground;
  int has_ground;
  cs_Vec3 ground_normal;
  const cs_Body *ground_body;
  unsigned ground_generation;  /* of ground_body when it was met */
  cs_Vec3 ground_anchor;  /* the centre in ground_body's space at the call's end */
  int ground_tag;
  int was_stuck;
  cs_Vec3 last_safe;      /* where the last call ended outside geometry */
  int has_safe;
  /* The last call ended overlapping nothing in clean_world at its version
  ** clean_version; until the mover or that world changes, the next call
  ** need not look for overlaps. */
  const cs_World *clean_world;
  unsigned clean_version;
  cs_GatherCache cache;
};

double cs_mover_skin(const cs_Mover *m);

enum { CS_XFORM_TRANSLATE = 0, CS_XFORM_GENERAL = 1 };

struct cs_Body {
  cs_World *world;
  cs_Mesh *mesh;
  size_t slot;            /* index in world->bodies */
  cs_Mat3 A, Ainv;        /* linear part (R S) and its inverse */
  cs_Vec3 T;              /* translation */
  int xform;              /* CS_XFORM_* */
  double sigma_min;       /* lower bound of A's smallest singular value */
  cs_Vec3 vel;
  unsigned layers;
  int enabled;
  void *userdata;
  cs_Vec3 lo, hi;         /* world bounds */
  unsigned mesh_version;  /* of the mesh when lo/hi were computed */
  unsigned generation;    /* bumped when removed (and when reused) */
  int alive;              /* in its world (removed bodies are kept for reuse) */
};

typedef struct cs_FrictionEntry { int tag; double coefficient; } cs_FrictionEntry;
/* A mesh the world's bodies use, with the version its tree was built at. */
typedef struct cs_MeshRef { cs_Mesh *mesh; unsigned version; long count; } cs_MeshRef;
/* A node of the world's tree over body bounds (cs_broad.c). */
typedef struct cs_BroadNode {
  cs_Vec3 lo, hi;
  uint32_t index;         /* leaf: first in bitems; inner: right child (left is next) */
  uint32_t count;         /* leaf: bodies; inner: 0 */
} cs_BroadNode;
/* A filter answer cached for one call, per (gathered body, tag). */
typedef struct cs_FilterEntry { int tag; int response; } cs_FilterEntry;

struct cs_World {
  cs_Alloc alloc;
  cs_Body **bodies;
  size_t nbodies, capbodies;
  cs_Body **free_bodies;  /* removed bodies, reused by later adds */
  size_t nfree, capfree;
  cs_FrictionEntry *friction;
  size_t nfriction, capfriction;
  int busy;               /* a move is under way (filters may not re-enter) */
  unsigned version;       /* bumped by every change to bodies or their meshes */
  /* scratch reused by every call */
  cs_TriES *tris;
  size_t ntris, captris;
  cs_U32Buf ids;
  const cs_Body **gbodies;  /* the bodies a gather met, indexed by cs_TriES.body */
  size_t ngbodies, capgbodies;
  cs_FilterEntry *filters;  /* the filter's answers during one gather */
  size_t nfilters, capfilters;
  cs_Contact *contacts;     /* a move's contacts, copied to the mover at its end */
  size_t ncontacts, capcontacts;
  /* the top-level tree (cs_broad.c) */
  cs_BroadNode *bnodes;
  size_t nbnodes, capbnodes;
  cs_Body **bitems;
  size_t capbitems;
  int broad_dirty;        /* bodies moved since it was fitted: refit */
  int broad_rebuild;      /* bodies added, removed or enabled: rebuild */
  int broad_ok;           /* it is usable (not after an allocation failure) */
  int broad_walks;        /* walks under way (a callback's nested query) */
  int broad_refits;       /* refits since the last rebuild */
  cs_MeshRef *meshes;     /* distinct meshes in use */
  size_t nmeshes, capmeshes;
};

/* An internal status: a visitor asks to stop early (not an error). */
#define CS_STOP ((cs_Status)100)

/* Visits every enabled body whose layers meet mask and whose bounds meet
** the box [lo, hi]; stops at the first status fn returns that is not CS_OK
** (CS_STOP stops without error). */
typedef cs_Status (*cs_BodyFn)(void *ud, cs_Body *body);
cs_Status cs_world_bodies_in_box(cs_World *w, cs_Vec3 lo, cs_Vec3 hi, unsigned mask,
                                 cs_BodyFn fn, void *ud);
/* Brings the top-level tree (and the world's version) up to date with
** edits of its meshes. */
void cs_world_sync(cs_World *w);
/* The bounds of every enabled body; returns 0 when there is none. */
int cs_world_bounds(cs_World *w, cs_Vec3 *lo, cs_Vec3 *hi);
/* Counts a body's use of a mesh (delta +1 or -1). */
cs_Status cs_broad_mesh_ref(cs_World *w, cs_Mesh *mesh, int delta);
void cs_broad_free(cs_World *w);

/* Maps world space into a mover's ellipsoid space for one call:
** x_e = Einv (x - c0), with E = R(q) diag(r). */
typedef struct cs_ESpace {
  cs_Vec3 c0;             /* the centre at the call's start */
  cs_Vec3 r, inv_r;       /* radii and their inverses */
  cs_Mat3 R;              /* the orientation, used only when oriented */
  int oriented;
} cs_ESpace;

void cs_espace_init(cs_ESpace *es, cs_Vec3 c0, cs_Vec3 r, const cs_Mat3 *rot, int oriented);
cs_Vec3 cs_espace_to(const cs_ESpace *es, cs_Vec3 world_point);
cs_Vec3 cs_espace_from(const cs_ESpace *es, cs_Vec3 es_point);
cs_Vec3 cs_espace_vec_to(const cs_ESpace *es, cs_Vec3 world_vec);
cs_Vec3 cs_espace_vec_from(const cs_ESpace *es, cs_Vec3 es_vec);
/* A normal from ellipsoid space to world space (inverse transpose), unit. */
cs_Vec3 cs_espace_normal_from(const cs_ESpace *es, cs_Vec3 es_normal);
/* World-space half extents of the ellipsoid's bounding box. */
cs_Vec3 cs_espace_half_extents(const cs_ESpace *es);
/* Brings a body's bounds up to date with its mesh's vertex edits. */
void cs_body_refresh(cs_Body *b);

/* Gathers into w->tris every triangle of every body (mask permitting) whose
** bounds meet the world box [lo, hi], mapped into es. With a filter, calls
** it once per (body, tag). Returns CS_EABORT when the filter aborts. */
cs_Status cs_world_gather(cs_World *w, const cs_ESpace *es, cs_Vec3 lo, cs_Vec3 hi,
                          unsigned mask, cs_FilterFn filter, void *filter_ud);

/* The response (cs_slide.c): one whole collideAndSlide on the gathered
** triangles. Fills the mover's contacts and ground state and sets its
** position. */
/* tris[ntris] are the gathered triangles in es (bodies[] their bodies);
** they hold everything within `reach` (world units) of the mover's start.
** known_clear: the mover overlapped nothing at the end of its last call and
** nothing changed since. */
cs_Status cs_slide_move(cs_World *w, cs_Mover *m, const cs_ESpace *es,
                        cs_TriES *tris, size_t ntris, const cs_Body *const *bodies,
                        double reach, int known_clear,
                        cs_Vec3 walk, const cs_Vec3 *gravity, cs_Vec3 carry,
                        const cs_Body *carrier);

/* Replaces the mover's contacts with n others (all or nothing). */
cs_Status cs_mover_set_contacts(cs_Mover *m, const cs_Contact *c, size_t n);

/* }================================================================== */

#endif
