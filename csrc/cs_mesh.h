/*
** cs_mesh.h: the mesh's layout (cs_mesh.c). A mesh owns its vertices,
** triangles and tree (cs_bvh.h); vertex edits mark it dirty and it refits
** before its next use.
*/
#ifndef CS_MESH_H
#define CS_MESH_H

#include "cs_bvh.h"

enum { CS_TRI_DEGENERATE = 1 };

/* A world's flag of mesh edits (cs_broad.c), set by every vertex edit and
** refit of the meshes it places, so that a world notices an edit without
** asking each of its meshes at every call. It is shared: the world and
** each mesh watching for it hold a reference, and it is freed with the
** last, so that whichever of them is freed first (a world or a mesh at a
** Lua state's close, whose finalizers run in no set order) the other never
** reads freed memory. A world gone leaves it an orphan, which its meshes
** drop at their next edit or watch. */
typedef struct cs_EditFlag {
  int edited;
  int refs;
  int orphan;             /* its world is gone */
  cs_Alloc alloc;
} cs_EditFlag;
/* A new flag (refs 1, its world's), or NULL. */
cs_EditFlag *cs_edit_flag_new(const cs_Alloc *a);
/* Lets go of one reference; the last frees it. */
void cs_edit_flag_drop(cs_EditFlag *f);

/* A world watching the mesh: its flag, and the watcher's own slot (where
** it keeps the mesh). */
typedef struct cs_MeshWatch { cs_EditFlag *flag; size_t slot; } cs_MeshWatch;

struct cs_Mesh {
  cs_Alloc alloc;
  double *verts;          /* 3 * nverts */
  uint32_t *tris;         /* 3 * ntris, 0-based */
  int32_t *tags;          /* ntris, or NULL when every tag is 0 */
  uint8_t *flags;         /* ntris: CS_TRI_* */
  uint32_t nverts, ntris, ndegenerate;
  int backfaces;          /* CS_BACKFACES_* */
  int closed;             /* known closed (cs_mesh_check_closed at creation,
                          ** up to CS_CLOSED_CHECK_MAX triangles): a solid,
                          ** whose inside depenetration never pushes into */
  cs_Bvh bvh;
  cs_Vec3 lo, hi;         /* bounds of every vertex */
  double max_extent;      /* the largest |coordinate| a vertex edit may give:
                          ** the least any placement of the mesh has allowed
                          ** (cs_mesh_limit_extent; kept after its removal) */
  unsigned version;       /* bumped by every vertex edit + refit */
  int dirty;              /* vertices edited since the last refit */
  int batches;            /* placements of it in worlds whose batch is under
                          ** way (cs_batch.c, cs_atomic_*): its edits are
                          ** refused then (a filter's edit would reach the
                          ** batch's other movers by the thread count) */
  cs_Error err;           /* of the last failed call (cs_mesh_error) */
  cs_MeshWatch *watch;    /* one per world placing it (a few) */
  size_t nwatch, capwatch;
  /* The vertices edited since the last refit, so that a few edits of a
  ** large mesh refit only their triangles (all: too many, refit it all). */
  uint32_t *edits;
  size_t nedits, capedits;
  int edit_all;
  int bounds_stale;       /* an edit moved a vertex that lay on lo or hi */
  uint32_t *vt_start;     /* the triangles of vertex v: vt_tris[vt_start[v] .. */
  uint32_t *vt_tris;      /* vt_start[v + 1]), made at the first such refit */
  uint32_t *touched;      /* scratch: the triangles of the edited vertices */
  size_t captouched;
};

/* Adds a watcher (flag, referenced, and its slot); CS_ENOMEM. */
cs_Status cs_mesh_watch(cs_Mesh *m, cs_EditFlag *flag, size_t slot);
/* The watcher of flag, or NULL. */
cs_MeshWatch *cs_mesh_watcher(cs_Mesh *m, const cs_EditFlag *flag);
/* Removes the watcher of flag and lets go of it (none: nothing). */
void cs_mesh_unwatch(cs_Mesh *m, const cs_EditFlag *flag);

/* Is the mesh closed (every edge used as often in one direction as in the
** other)? CS_EINVAL with bad[0..1] an open edge's vertices and *uses the
** triangles on it; CS_ENOMEM. */
cs_Status cs_mesh_check_closed(const cs_Mesh *m, const cs_Alloc *a, uint32_t bad[2], int *uses);

/* Meshes up to this many triangles learn at creation whether they are
** closed (cs_Mesh.closed): sorting the edges of a larger one would cost
** more than building its tree. */
#define CS_CLOSED_CHECK_MAX 65536

/* Refits the mesh if vertices were edited since its last refit
** (cs_mesh_refit, collideslide.h, implemented in cs_mesh.c). */
CS_INLINE void cs_mesh_ensure_fit(cs_Mesh *m) {
  if (m->dirty) cs_mesh_refit(m);
}

/* A body or sensor places the mesh so that it stays in range only while
** no |coordinate| exceeds limit: later vertex edits are held to it. */
CS_INLINE void cs_mesh_limit_extent(cs_Mesh *m, double limit) {
  if (limit < m->max_extent) m->max_extent = limit;
}

/* The mesh's largest |coordinate| (refitting it first if it was edited). */
double cs_mesh_extent(cs_Mesh *m);

CS_INLINE cs_Vec3 cs_mesh_vert(const cs_Mesh *m, uint32_t i) {
  const double *p = m->verts + 3 * (size_t)i;
  return v3(p[0], p[1], p[2]);
}

#endif
