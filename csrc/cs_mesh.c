/*
** cs_mesh.c: meshes. Checks the input, copies it, flags degenerate triangles
** (they never collide, and are counted), and builds the tree. Vertex edits
** mark the mesh for a refit, done before its next use.
*/
#include <stdlib.h>
#include <string.h>

#include "cs_check.h"
#include "cs_mesh.h"
#include "cs_thread.h"

static void remove_watch(cs_Mesh *m, size_t k);
static void drop_orphans(cs_Mesh *m);

/* A triangle is degenerate when its area is zero relative to its size:
** |(b-a) x (c-a)| <= 1e-12 (|b-a|^2 + |c-a|^2). Rounding of an exactly
** collinear triple stays below that; a real sliver (1000 m by 1e-6 m) does
** not. Non-finite products (coordinates near DBL_MAX) count as degenerate. */
static int triangle_degenerate(cs_Vec3 a, cs_Vec3 b, cs_Vec3 c) {
  cs_Vec3 e1 = v3_sub(b, a), e2 = v3_sub(c, a);
  double cross2 = v3_len2(v3_cross(e1, e2));
  double size2 = v3_len2(e1) + v3_len2(e2);
  if (!isfinite(cross2) || !isfinite(size2)) return 1;
  return cross2 <= 1e-24 * size2 * size2;
}

/* Recomputes the degenerate flags and their count; returns the count. */
static uint32_t mesh_flag_degenerates(cs_Mesh *m) {
  uint32_t t, n = 0;
  for (t = 0; t < m->ntris; t++) {
    const uint32_t *i = m->tris + 3 * (size_t)t;
    int deg = i[0] == i[1] || i[1] == i[2] || i[0] == i[2] ||
              triangle_degenerate(cs_mesh_vert(m, i[0]), cs_mesh_vert(m, i[1]),
                                  cs_mesh_vert(m, i[2]));
    m->flags[t] = deg ? CS_TRI_DEGENERATE : 0;
    n += (uint32_t)deg;
  }
  return n;
}

/* Bounds of every vertex. */
static void mesh_compute_bounds(cs_Mesh *m) {
  uint32_t i;
  m->lo = v3(HUGE_VAL, HUGE_VAL, HUGE_VAL);
  m->hi = v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
  for (i = 0; i < m->nverts; i++) {
    cs_Vec3 p = cs_mesh_vert(m, i);
    m->lo = v3_min(m->lo, p);
    m->hi = v3_max(m->hi, p);
  }
}

/* Checks sizes, indices and vertices; *bad is the offending position. */
static cs_Status mesh_check(const cs_MeshDesc *d, size_t ntris, size_t *bad) {
  size_t i;
  *bad = (size_t)-1;                            /* no vertex or index at fault */
  if (!d->vertices || d->vertex_count == 0 || ntris == 0) return CS_EINVAL;
  if (d->vertex_count > CS_MAX_VERTICES || ntris > CS_MAX_TRIANGLES) return CS_ETOOBIG;
  if (!d->indices && d->vertex_count % 3 != 0) return CS_EINVAL;
  for (i = 0; i < 3 * d->vertex_count; i++)   /* finite, within CS_MAX_COORD */
    if (!(fabs(d->vertices[i]) <= CS_MAX_COORD)) { *bad = i / 3; return CS_EINVAL; }
  if (d->indices)
    for (i = 0; i < 3 * ntris; i++)
      if (d->indices[i] >= d->vertex_count) { *bad = i; return CS_ERANGE; }
  if (d->backfaces != CS_BACKFACES_COLLIDE && d->backfaces != CS_BACKFACES_IGNORE)
    return CS_EINVAL;
  return CS_OK;
}

/* {==================================================================
** Closedness
** ===================================================================*/

/* One directed edge, keyed by its vertices in increasing order. */
typedef struct Edge { uint32_t lo, hi; int dir; } Edge;

static int edge_cmp(const void *pa, const void *pb) {
  const Edge *a = (const Edge *)pa, *b = (const Edge *)pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  return 0;
}

/* A closed, consistently oriented surface uses every edge as often in one
** direction as in the other: then the winding number is an integer off the
** surface and changes by one across a face, so a path's crossings change it
** one at a time. Sorts the 3n directed edges and sums each edge's
** directions. On CS_EINVAL, *bad[0..1] are the open edge's vertices and
** *uses the triangles on it. */
cs_Status cs_mesh_check_closed(const cs_Mesh *m, const cs_Alloc *a, uint32_t bad[2],
                               int *uses) {
  size_t n = 3 * (size_t)m->ntris, i, j;
  Edge *e;
  cs_Status s = CS_OK;
  if (m->ntris == 0) { bad[0] = bad[1] = 0; *uses = 0; return CS_EINVAL; }
  if (!(e = (Edge *)cs_malloc_array(a, n, sizeof *e))) return CS_ENOMEM;
  for (i = 0; i < m->ntris; i++)
    for (j = 0; j < 3; j++) {
      uint32_t p = m->tris[3 * i + j], q = m->tris[3 * i + (j + 1) % 3];
      Edge *x = &e[3 * i + j];
      x->lo = p < q ? p : q;
      x->hi = p < q ? q : p;
      x->dir = p < q ? 1 : -1;
    }
  qsort(e, n, sizeof *e, edge_cmp);
  for (i = 0; i < n; i = j) {
    int sum = 0, count = 0;
    for (j = i; j < n && e[j].lo == e[i].lo && e[j].hi == e[i].hi; j++) {
      sum += e[j].dir;
      count++;
    }
    if (sum != 0 && e[i].lo != e[i].hi) {
      bad[0] = e[i].lo;
      bad[1] = e[i].hi;
      *uses = count;
      s = CS_EINVAL;
      break;
    }
  }
  cs_free(a, e, n * sizeof *e);
  return s;
}

/* }================================================================== */

/* Copies tags, leaving m->tags NULL when every tag is 0. */
static cs_Status mesh_copy_tags(cs_Mesh *m, const int *tags) {
  uint32_t t;
  int any = 0;
  if (!tags) return CS_OK;
  for (t = 0; t < m->ntris && !any; t++) any = tags[t] != 0;
  if (!any) return CS_OK;
  m->tags = cs_malloc_array(&m->alloc, m->ntris, sizeof(int32_t));
  if (!m->tags) return CS_ENOMEM;
  for (t = 0; t < m->ntris; t++) m->tags[t] = (int32_t)tags[t];
  return CS_OK;
}

cs_Status cs_mesh_new(const cs_Alloc *alloc, const cs_MeshDesc *desc,
                      cs_Mesh **out, size_t *bad_index) {
  size_t dummy, ntris = desc->indices ? desc->triangle_count : desc->vertex_count / 3;
  cs_Status s;
  cs_Mesh *m;
  size_t i;
  if (!bad_index) bad_index = &dummy;
  *out = NULL;
  s = mesh_check(desc, ntris, bad_index);
  if (s != CS_OK) return s;
  m = cs_malloc(alloc, sizeof *m);
  if (!m) return CS_ENOMEM;
  memset(m, 0, sizeof *m);
  m->alloc = *alloc;
  m->nverts = (uint32_t)desc->vertex_count;
  m->ntris = (uint32_t)ntris;
  m->backfaces = desc->backfaces;
  m->max_extent = CS_MAX_COORD;
  m->verts = cs_malloc_array(alloc, 3 * (size_t)m->nverts, sizeof(double));
  m->tris = cs_malloc_array(alloc, 3 * ntris, sizeof(uint32_t));
  m->flags = cs_malloc_array(alloc, ntris, 1);
  if (!m->verts || !m->tris || !m->flags) { cs_mesh_free(m); return CS_ENOMEM; }
  memcpy(m->verts, desc->vertices, 3 * (size_t)m->nverts * sizeof(double));
  for (i = 0; i < 3 * ntris; i++)
    m->tris[i] = desc->indices ? (uint32_t)desc->indices[i] : (uint32_t)i;
  if ((s = mesh_copy_tags(m, desc->tags)) != CS_OK) { cs_mesh_free(m); return s; }
  m->ndegenerate = mesh_flag_degenerates(m);
  mesh_compute_bounds(m);
  /* The tree holds every triangle; degenerate ones are skipped where they
  ** are gathered, so a vertex edit that fixes one needs only a refit. */
  s = cs_bvh_build(&m->bvh, alloc, m->verts, m->tris, NULL, m->ntris);
  if (s != CS_OK) { cs_mesh_free(m); return s; }
  if (m->ntris <= CS_CLOSED_CHECK_MAX) {
    uint32_t bad[2];
    int uses;
    s = cs_mesh_check_closed(m, alloc, bad, &uses);
    if (s == CS_ENOMEM) { cs_mesh_free(m); return s; }
    m->closed = s == CS_OK;
  }
  *out = m;
  return CS_OK;
}

void cs_mesh_free(cs_Mesh *m) {
  cs_Alloc a;
  if (!m) return;
  a = m->alloc;
  cs_bvh_free(&m->bvh, &a);
  cs_free(&a, m->verts, 3 * (size_t)m->nverts * sizeof(double));
  cs_free(&a, m->tris, 3 * (size_t)m->ntris * sizeof(uint32_t));
  while (m->nwatch > 0) remove_watch(m, m->nwatch - 1);
  cs_free(&a, m->watch, m->capwatch * sizeof(cs_MeshWatch));
  cs_free(&a, m->edits, m->capedits * sizeof(uint32_t));
  cs_free(&a, m->touched, m->captouched * sizeof(uint32_t));
  if (m->vt_start) {
    cs_free(&a, m->vt_start, ((size_t)m->nverts + 1) * sizeof(uint32_t));
    cs_free(&a, m->vt_tris, 3 * (size_t)m->ntris * sizeof(uint32_t));
  }
  cs_free(&a, m->tags, (size_t)m->ntris * sizeof(int32_t));
  cs_free(&a, m->flags, m->ntris);
  cs_free(&a, m, sizeof *m);
}

size_t cs_mesh_triangle_count(const cs_Mesh *m) { return m->ntris; }
size_t cs_mesh_vertex_count(const cs_Mesh *m) { return m->nverts; }
size_t cs_mesh_degenerate_count(cs_Mesh *m) {
  cs_mesh_ensure_fit(m);
  return m->ndegenerate;
}
int cs_mesh_backfaces(const cs_Mesh *m) { return m->backfaces; }

size_t cs_mesh_memory(const cs_Mesh *m) {
  return sizeof *m + 3 * (size_t)m->nverts * sizeof(double)
       + (size_t)m->ntris * (3 * sizeof(uint32_t) + 1 + (m->tags ? sizeof(int32_t) : 0))
       + cs_bvh_memory(&m->bvh)
       + (m->vt_start ? ((size_t)m->nverts + 1 + 3 * (size_t)m->ntris) * sizeof(uint32_t) : 0)
       + (m->capedits + m->captouched) * sizeof(uint32_t);   /* (not the worlds watching it) */
}

void cs_mesh_bounds(cs_Mesh *m, cs_Vec3 *lo, cs_Vec3 *hi) {
  cs_mesh_ensure_fit(m);
  *lo = m->lo;
  *hi = m->hi;
}

const cs_Error *cs_mesh_error(const cs_Mesh *m) { return &m->err; }

void cs_mesh_vertex(const cs_Mesh *m, size_t i, cs_Vec3 *out) {
  *out = i < m->nverts ? cs_mesh_vert(m, (uint32_t)i) : v3(0, 0, 0);
}

/* (out of range, as cs_mesh_vertex: zeros; found by an independent tester) */
void cs_mesh_triangle(const cs_Mesh *m, size_t t, unsigned idx[3]) {
  int k;
  for (k = 0; k < 3; k++) idx[k] = t < m->ntris ? m->tris[3 * t + (size_t)k] : 0;
}

int cs_mesh_tag(const cs_Mesh *m, size_t t) { return m->tags && t < m->ntris ? m->tags[t] : 0; }

double cs_mesh_extent(cs_Mesh *m) {
  double e = 0;
  int k;
  cs_mesh_ensure_fit(m);
  for (k = 0; k < 3; k++) {
    e = fmax(e, fabs(v3_get(m->lo, k)));
    e = fmax(e, fabs(v3_get(m->hi, k)));
  }
  return e;
}

/* Coordinate x of an edit, past the mesh's placements' limit (max_extent:
** a body that scales the mesh up would place it past 2e30, where a floor
** of 1e30 scaled by 1e27 let a mover of radius 1e-20 fall through it).
** vertex: 1-based, 0 when arg names the coordinate itself. */
static cs_Status check_placed_coord(cs_Mesh *m, int arg, size_t vertex, const char *name, double x) {
  char b[CS_NUMBUF], c[CS_NUMBUF], d[CS_NUMBUF];
  if (fabs(x) <= m->max_extent) return CS_OK;
  if (vertex)
    return cs_fail(&m->err, CS_ERANGE, arg, "vertex %s: %s is out of range for the mesh's "
                   "placements (|%s| > %s, as a body or sensor scales it), got %s",
                   cs_fmtnum(d, (double)vertex), name, name, cs_fmtnum(b, m->max_extent),
                   cs_fmtnum(c, x));
  return cs_fail(&m->err, CS_ERANGE, arg, "%s is out of range for the mesh's placements "
                 "(|%s| > %s, as a body or sensor scales it), got %s", name, name,
                 cs_fmtnum(b, m->max_extent), cs_fmtnum(c, x));
}

/* {==================================================================
** Edits of a few vertices: their triangles refitted alone
** ===================================================================*/

/* Past this many edited vertices (and a share of the mesh) between two
** refits, a whole refit is cheaper than the edited triangles' paths. */
#define EDITS_MAX(m) (64 + (size_t)(m)->ntris / 256)

/* Does a vertex moving from a to b along one axis leave the bounds [lo, hi]
** it lay on, inward (so that they may shrink)? */
CS_INLINE int leaves_bound(double a, double b, double lo, double hi) {
  return (a == lo && b > a) || (a == hi && b < a);
}

/* Notes vertex i moving to p: its bounds grow to p at once; a vertex that
** leaves them inward has them made again at the refit (a pass over the
** vertices: the one cost of an edit that follows the mesh's size). */
static void note_edit(cs_Mesh *m, uint32_t i, cs_Vec3 p) {
  cs_Vec3 old = cs_mesh_vert(m, i);
  if (!m->bounds_stale &&
      (leaves_bound(old.x, p.x, m->lo.x, m->hi.x) || leaves_bound(old.y, p.y, m->lo.y, m->hi.y) ||
       leaves_bound(old.z, p.z, m->lo.z, m->hi.z)))
    m->bounds_stale = 1;
  m->lo = v3_min(m->lo, p);
  m->hi = v3_max(m->hi, p);
  if (m->edit_all) return;
  if (m->nedits >= EDITS_MAX(m) ||
      cs_grow(&m->alloc, (void **)&m->edits, &m->capedits, m->nedits + 1, sizeof(uint32_t)) != CS_OK)
    m->edit_all = 1;
  else
    m->edits[m->nedits++] = i;
}

/* Each vertex's triangles (a counting sort of the index list). */
static cs_Status make_adjacency(cs_Mesh *m) {
  size_t n3 = 3 * (size_t)m->ntris, i;
  m->vt_start = cs_malloc_array(&m->alloc, (size_t)m->nverts + 1, sizeof(uint32_t));
  m->vt_tris = cs_malloc_array(&m->alloc, n3, sizeof(uint32_t));
  if (!m->vt_start || !m->vt_tris) {
    cs_free(&m->alloc, m->vt_start, ((size_t)m->nverts + 1) * sizeof(uint32_t));
    cs_free(&m->alloc, m->vt_tris, n3 * sizeof(uint32_t));
    m->vt_start = m->vt_tris = NULL;
    return CS_ENOMEM;
  }
  memset(m->vt_start, 0, ((size_t)m->nverts + 1) * sizeof(uint32_t));
  for (i = 0; i < n3; i++) m->vt_start[m->tris[i] + 1]++;
  for (i = 0; i < m->nverts; i++) m->vt_start[i + 1] += m->vt_start[i];
  for (i = 0; i < n3; i++) m->vt_tris[m->vt_start[m->tris[i]]++] = (uint32_t)(i / 3);
  for (i = m->nverts; i > 0; i--) m->vt_start[i] = m->vt_start[i - 1];   /* back to the starts */
  m->vt_start[0] = 0;
  return CS_OK;
}

/* The refit of the edited vertices' triangles: their degenerate flags and
** tree paths (the bounds: note_edit). CS_ENOMEM: nothing done. */
static cs_Status refit_edited(cs_Mesh *m) {
  size_t k, n = 0;
  if (!m->vt_start && make_adjacency(m) != CS_OK) return CS_ENOMEM;
  for (k = 0; k < m->nedits; k++) {
    uint32_t v = m->edits[k], j;
    for (j = m->vt_start[v]; j < m->vt_start[v + 1]; j++) {
      if (cs_grow(&m->alloc, (void **)&m->touched, &m->captouched, n + 1, sizeof(uint32_t)) != CS_OK)
        return CS_ENOMEM;
      m->touched[n++] = m->vt_tris[j];
    }
  }
  if (cs_bvh_refit_some(&m->bvh, &m->alloc, m->verts, m->tris, m->ntris, m->touched, n) != CS_OK)
    return CS_ENOMEM;
  for (k = 0; k < n; k++) {
    uint32_t t = m->touched[k];
    const uint32_t *i = m->tris + 3 * (size_t)t;
    int deg = i[0] == i[1] || i[1] == i[2] || i[0] == i[2] ||
              triangle_degenerate(cs_mesh_vert(m, i[0]), cs_mesh_vert(m, i[1]),
                                  cs_mesh_vert(m, i[2]));
    m->ndegenerate += (uint32_t)deg - (uint32_t)(m->flags[t] & CS_TRI_DEGENERATE);
    m->flags[t] = deg ? CS_TRI_DEGENERATE : 0;
  }
  return CS_OK;
}

/* }================================================================== */

/* After an edit or a refit: a new version, and the worlds told. */
static void mesh_changed(cs_Mesh *m) {
  size_t i;
  m->version++;
  drop_orphans(m);
  for (i = 0; i < m->nwatch; i++) m->watch[i].flag->edited = 1;
}

/* CS_EBUSY while a world placing m runs a batch (cs_Mesh.batches). */
static cs_Status check_not_batched(cs_Mesh *m) {
  if (cs_atomic_get(&m->batches) == 0) return CS_OK;
  return cs_fail(&m->err, CS_EBUSY, 0, "the mesh is placed in a world whose batch is under way "
                 "(collideAndSlideMany): edit it after the call");
}

cs_Status cs_mesh_set_vertex(cs_Mesh *m, size_t i, const cs_Vec3 *p) {
  double *v;
  cs_Status s;
  if ((s = check_not_batched(m)) != CS_OK) return s;
  if (i >= m->nverts) return cs_fail(&m->err, CS_ERANGE, 1, "vertex index out of range");
  /* within CS_MAX_COORD, as cs_mesh_new takes them (past it, trees of float
  ** bounds and the calls' maps would lose the triangle), and within what
  ** the mesh's placements allow */
  if ((s = cs_check_coord(&m->err, 2, "x", p->x)) != CS_OK ||
      (s = cs_check_coord(&m->err, 3, "y", p->y)) != CS_OK ||
      (s = cs_check_coord(&m->err, 4, "z", p->z)) != CS_OK ||
      (s = check_placed_coord(m, 2, 0, "x", p->x)) != CS_OK ||
      (s = check_placed_coord(m, 3, 0, "y", p->y)) != CS_OK ||
      (s = check_placed_coord(m, 4, 0, "z", p->z)) != CS_OK)
    return s;
  v = m->verts + 3 * i;
  note_edit(m, (uint32_t)i, *p);
  v[0] = p->x; v[1] = p->y; v[2] = p->z;
  m->dirty = 1;
  mesh_changed(m);
  return CS_OK;
}

/* Messages number the vertices from 1, as the Lua API does. */
cs_Status cs_mesh_set_vertices(cs_Mesh *m, const double *xyz) {
  size_t i;
  if (check_not_batched(m) != CS_OK) return CS_EBUSY;
  for (i = 0; i < 3 * (size_t)m->nverts; i++) {
    char b[CS_NUMBUF], c[CS_NUMBUF];
    if (!isfinite(xyz[i]))
      return cs_fail(&m->err, CS_EINVAL, 1, "vertex %s: %s is %s", cs_fmtnum(b, (double)(i / 3 + 1)),
                     cs_names_xyz[i % 3], cs_fmtnum(c, xyz[i]));
    if (fabs(xyz[i]) > CS_MAX_COORD)
      return cs_fail(&m->err, CS_ERANGE, 1, "vertex %s: %s is out of range (|%s| > 1e30), got %s",
                     cs_fmtnum(b, (double)(i / 3 + 1)), cs_names_xyz[i % 3], cs_names_xyz[i % 3],
                     cs_fmtnum(c, xyz[i]));
    if (check_placed_coord(m, 1, i / 3 + 1, cs_names_xyz[i % 3], xyz[i]) != CS_OK)
      return CS_ERANGE;
  }
  memcpy(m->verts, xyz, 3 * (size_t)m->nverts * sizeof(double));
  m->edit_all = 1;
  cs_mesh_refit(m);
  return CS_OK;
}

/* After vertex edits: degenerate flags, bounds and the tree's boxes; those
** of the edited vertices' triangles alone when they are few. */
void cs_mesh_refit(cs_Mesh *m) {
  if (m->edit_all || m->nedits == 0 || refit_edited(m) != CS_OK) {
    m->ndegenerate = mesh_flag_degenerates(m);
    mesh_compute_bounds(m);
    cs_bvh_refit(&m->bvh, m->verts, m->tris);
  } else if (m->bounds_stale) {
    mesh_compute_bounds(m);
  }
  m->nedits = 0;
  m->edit_all = m->bounds_stale = 0;
  m->dirty = 0;
  mesh_changed(m);
}

/* {==================================================================
** Watchers: the worlds placing the mesh, told of its edits
** ===================================================================*/

cs_EditFlag *cs_edit_flag_new(const cs_Alloc *a) {
  cs_EditFlag *f = (cs_EditFlag *)cs_malloc(a, sizeof *f);
  if (!f) return NULL;
  f->edited = 0;
  f->refs = 1;
  f->orphan = 0;
  f->alloc = *a;
  return f;
}

void cs_edit_flag_drop(cs_EditFlag *f) {
  if (--f->refs == 0) {
    cs_Alloc a = f->alloc;
    cs_free(&a, f, sizeof *f);
  }
}

/* Removes watcher k (its flag let go of). */
static void remove_watch(cs_Mesh *m, size_t k) {
  cs_edit_flag_drop(m->watch[k].flag);
  m->watch[k] = m->watch[--m->nwatch];
}

/* Drops the watchers whose world is gone. */
static void drop_orphans(cs_Mesh *m) {
  size_t k = 0;
  while (k < m->nwatch) {
    if (m->watch[k].flag->orphan) remove_watch(m, k);
    else k++;
  }
}

cs_Status cs_mesh_watch(cs_Mesh *m, cs_EditFlag *flag, size_t slot) {
  cs_Status s;
  drop_orphans(m);
  s = cs_grow(&m->alloc, (void **)&m->watch, &m->capwatch, m->nwatch + 1, sizeof(cs_MeshWatch));
  if (s != CS_OK) return s;
  m->watch[m->nwatch].flag = flag;
  m->watch[m->nwatch].slot = slot;
  m->nwatch++;
  flag->refs++;
  return CS_OK;
}

cs_MeshWatch *cs_mesh_watcher(cs_Mesh *m, const cs_EditFlag *flag) {
  size_t i;
  for (i = 0; i < m->nwatch; i++)
    if (m->watch[i].flag == flag) return &m->watch[i];
  return NULL;
}

void cs_mesh_unwatch(cs_Mesh *m, const cs_EditFlag *flag) {
  cs_MeshWatch *w = cs_mesh_watcher(m, flag);
  if (w) remove_watch(m, (size_t)(w - m->watch));
}

/* }================================================================== */
