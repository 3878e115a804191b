/*
** cs_broad.c: the world's top-level tree over body bounds (cs_broad.h), so that a call
** meets only the bodies near it however many the world holds. Kept up to
** date lazily, before the first query that needs it: rebuilt (median splits,
** O(n log n)) after bodies were added or removed, and once the refits have
** moved as many bodies as it holds; refitted along the paths of the bodies
** that moved (O(log n) each), and whole after a mesh's edit. Disabled
** bodies stay in it (the walks skip them), so enabling one costs nothing.
*/
#include <string.h>

#include "cs_broad.h"

#define LEAF_SIZE 4
#define REBUILD_EVERY 64  /* refits before a rebuild restores the tree's quality */

/* {==================================================================
** Meshes in use, to notice their vertex edits
** ===================================================================*/

void cs_broad_init(cs_Broad *bp, const cs_Alloc *a) {
  memset(bp, 0, sizeof *bp);
  bp->alloc = *a;
}

void cs_broad_free(cs_Broad *bp) {
  /* the meshes are not touched (one may be freed already: a Lua state's
  ** close frees in no set order); they drop the orphaned flag */
  if (bp->edits) {
    bp->edits->orphan = 1;
    cs_edit_flag_drop(bp->edits);
  }
  cs_free(&bp->alloc, bp->nodes, bp->capnodes * sizeof(cs_BroadNode));
  cs_free(&bp->alloc, bp->parents, bp->capparents * sizeof(uint32_t));
  cs_free(&bp->alloc, bp->items, bp->capitems * sizeof(cs_Body *));
  cs_free(&bp->alloc, bp->moved, bp->capmoved * sizeof(cs_Body *));
  cs_free(&bp->alloc, bp->meshes, bp->capmeshes * sizeof(cs_MeshRef));
}

/* The mesh's place in bp->meshes is kept in its watcher (found among the
** few worlds that place the mesh), so that adding a body of a world of
** many meshes does not search them all. */
cs_Status cs_broad_mesh_ref(cs_Broad *bp, cs_Mesh *mesh, int delta) {
  cs_MeshWatch *watch;
  cs_MeshRef *r;
  size_t i;
  if (!bp->edits) {
    if (delta < 0) return CS_OK;
    if (!(bp->edits = cs_edit_flag_new(&bp->alloc))) return CS_ENOMEM;
  }
  watch = cs_mesh_watcher(mesh, bp->edits);
  if (!watch) {
    cs_Status s;
    if (delta < 0) return CS_OK;
    if ((s = cs_grow(&bp->alloc, (void **)&bp->meshes, &bp->capmeshes, bp->nmeshes + 1,
                     sizeof(cs_MeshRef))) != CS_OK ||
        (s = cs_mesh_watch(mesh, bp->edits, bp->nmeshes)) != CS_OK)
      return s;
    i = bp->nmeshes++;
    bp->meshes[i].mesh = mesh;
    bp->meshes[i].version = mesh->version;
    bp->meshes[i].count = 0;
  } else {
    i = watch->slot;
  }
  r = &bp->meshes[i];
  r->count += delta;
  if (r->count <= 0) {
    cs_mesh_unwatch(mesh, bp->edits);
    *r = bp->meshes[--bp->nmeshes];
    if (i < bp->nmeshes) cs_mesh_watcher(r->mesh, bp->edits)->slot = i;
  }
  return CS_OK;
}

/* Was the mesh of r edited since the tree last saw it? */
CS_INLINE int mesh_edited(const cs_MeshRef *r) {
  return r->mesh->dirty || r->mesh->version != r->version;
}

/* Was a mesh in use edited since the tree last saw it? Its watcher's flag
** says so, without asking each mesh (a world of 30,000 props, each of its
** own mesh, asked them all at every call: found by an independent tester). */
CS_INLINE int any_mesh_edited(const cs_Broad *bp) { return bp->edits && bp->edits->edited; }

int cs_broad_pending(const cs_Broad *bp) {
  /* an edit after cs_world_prepare left the tree and the mesh as they were:
  ** the calls of the contract went on with the old vertices (found by an
  ** independent tester: a mover fell through a floor raised past it) */
  return bp->dirty || bp->rebuild || any_mesh_edited(bp);
}

int cs_broad_note_edits(cs_Broad *bp) {
  if (!any_mesh_edited(bp)) return 0;
  bp->dirty = 1;
  return 1;
}

/* How many meshes in use were edited since the tree was built? Refits them
** (which sets the flag again: cleared after). */
static unsigned meshes_edited(cs_Broad *bp) {
  size_t i;
  unsigned edited = 0;
  if (!any_mesh_edited(bp)) return 0;
  for (i = 0; i < bp->nmeshes; i++) {
    cs_MeshRef *r = &bp->meshes[i];
    if (mesh_edited(r)) {
      cs_mesh_ensure_fit(r->mesh);
      r->version = r->mesh->version;
      edited++;
    }
  }
  bp->work += bp->nmeshes;
  bp->edits->edited = 0;
  return edited;
}

/* }================================================================== */

/* {==================================================================
** Build
** ===================================================================*/

static cs_Vec3 centre_of(const cs_Body *b) { return v3_scale(v3_add(b->lo, b->hi), 0.5); }

/* Moves the k-th smallest (by centre on axis) of items[0..n) to place k,
** smaller ones before it (Hoare's selection): average O(n). */
static void select_kth(cs_Body **items, size_t n, size_t k, int axis) {
  size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    double pivot = v3_get(centre_of(items[(lo + hi) / 2]), axis);
    size_t i = lo, j = hi;
    while (i <= j) {
      while (v3_get(centre_of(items[i]), axis) < pivot) i++;
      while (v3_get(centre_of(items[j]), axis) > pivot) j--;
      if (i <= j) {
        cs_Body *t = items[i]; items[i] = items[j]; items[j] = t;
        i++;
        if (j == 0) break;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
}

static void node_bounds(cs_BroadNode *node, cs_Body **items, size_t n) {
  size_t i;
  node->lo = v3(HUGE_VAL, HUGE_VAL, HUGE_VAL);
  node->hi = v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
  for (i = 0; i < n; i++) {
    node->lo = v3_min(node->lo, items[i]->lo);
    node->hi = v3_max(node->hi, items[i]->hi);
  }
}

/* Builds the subtree over items[first, first + n) at node index `at`
** (whose parent is `parent`); returns the next free node index. Depth is
** log2(n): recursion is fine. */
static size_t build(cs_Broad *bp, size_t at, uint32_t parent, size_t first, size_t n) {
  cs_BroadNode *node = &bp->nodes[at];
  cs_Body **items = bp->items + first;
  size_t i;
  node_bounds(node, items, n);
  bp->parents[at] = parent;
  if (n <= LEAF_SIZE) {
    node->index = (uint32_t)first;
    node->count = (uint32_t)n;
    for (i = 0; i < n; i++) items[i]->broad_leaf = (uint32_t)at;
    return at + 1;
  } else {
    cs_Vec3 clo = v3(HUGE_VAL, HUGE_VAL, HUGE_VAL), chi = v3_neg(clo), ext;
    size_t half = n / 2, next;
    int axis;
    for (i = 0; i < n; i++) {
      clo = v3_min(clo, centre_of(items[i]));
      chi = v3_max(chi, centre_of(items[i]));
    }
    ext = v3_sub(chi, clo);
    axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : ext.y >= ext.z ? 1 : 2;
    select_kth(items, n, half, axis);
    next = build(bp, at + 1, (uint32_t)at, first, half);
    bp->nodes[at].index = (uint32_t)next;   /* right child */
    bp->nodes[at].count = 0;
    return build(bp, next, (uint32_t)at, first + half, n - half);
  }
}

/* Room for n nodes and their parents. */
static int grow_nodes(cs_Broad *bp, size_t n) {
  return cs_grow(&bp->alloc, (void **)&bp->nodes, &bp->capnodes, n, sizeof(cs_BroadNode)) == CS_OK &&
         cs_grow(&bp->alloc, (void **)&bp->parents, &bp->capparents, n, sizeof(uint32_t)) == CS_OK;
}

CS_INLINE int same_box(cs_Vec3 lo, cs_Vec3 hi, const cs_BroadNode *n) {
  return lo.x == n->lo.x && lo.y == n->lo.y && lo.z == n->lo.z &&
         hi.x == n->hi.x && hi.y == n->hi.y && hi.z == n->hi.z;
}

/* A node's bounds: its bodies' (a leaf) or its children's union. */
static void fit_node(cs_Broad *bp, cs_BroadNode *node) {
  if (node->count > 0) {
    node_bounds(node, bp->items + node->index, node->count);
  } else {
    const cs_BroadNode *l = node + 1, *r = &bp->nodes[node->index];
    node->lo = v3_min(l->lo, r->lo);
    node->hi = v3_max(l->hi, r->hi);
  }
}

/* Every node's bounds from the bodies' current bounds; children come after
** their parent, so one backward pass sees them first. */
static void refit(cs_Broad *bp) {
  size_t i = bp->nnodes;
  while (i-- > 0) fit_node(bp, &bp->nodes[i]);
  bp->work += bp->nnodes;
}

/* The bounds of the nodes above a moved body's leaf, from it up to the
** first node they leave as it was (its ancestors' then hold too). */
static void refit_path(cs_Broad *bp, uint32_t id) {
  while (id != CS_BROAD_NONE) {
    cs_BroadNode *node = &bp->nodes[id];
    cs_Vec3 lo = node->lo, hi = node->hi;
    fit_node(bp, node);
    bp->work++;
    if (same_box(lo, hi, node)) return;
    id = bp->parents[id];
  }
}

/* Is b in the tree (in the leaf it was built into)? */
static int in_tree(const cs_Broad *bp, const cs_Body *b) {
  const cs_BroadNode *leaf;
  uint32_t i;
  if (b->broad_leaf >= bp->nnodes) return 0;
  leaf = &bp->nodes[b->broad_leaf];
  for (i = 0; i < leaf->count; i++)
    if (bp->items[leaf->index + i] == b) return 1;
  return 0;
}

/* A moved body's path is refitted alone, so that one door placed a frame
** in a world of 100,000 bodies costs its path, not the world (it cost a
** refit of every node, and a rebuild every 64 frames: found by an
** independent tester). Past a quarter of the bodies, a whole refit. */
void cs_broad_moved(cs_Broad *bp, cs_Body *b) {
  bp->dirty = 1;
  if (bp->rebuild || bp->refit_all || b->broad_queued || !bp->ok || !in_tree(bp, b)) return;
  if (bp->nmoved >= bp->nitems / 4 + 16 ||
      cs_grow(&bp->alloc, (void **)&bp->moved, &bp->capmoved, bp->nmoved + 1,
              sizeof(cs_Body *)) != CS_OK) {
    bp->refit_all = 1;
    return;
  }
  bp->moved[bp->nmoved++] = b;
  b->broad_queued = 1;
}

/* Empties the list of moved bodies. */
static void forget_moved(cs_Broad *bp) {
  size_t i;
  for (i = 0; i < bp->nmoved; i++) bp->moved[i]->broad_queued = 0;
  bp->nmoved = 0;
  bp->refit_all = 0;
}

/* The refit of what moved: the moved bodies' paths, or every node after
** a mesh's edit (its bodies' bounds all changed) or too many moves. */
static void refit_moved(cs_Broad *bp, cs_Body *const *bodies, size_t nbodies, int all) {
  size_t i;
  if (all) {
    for (i = 0; i < nbodies; i++) cs_body_refresh(bodies[i]);
    refit(bp);
    bp->work += nbodies;
    bp->moved_since += bp->nitems;
  } else {
    for (i = 0; i < bp->nmoved; i++) {
      cs_body_refresh(bp->moved[i]);
      refit_path(bp, bp->moved[i]->broad_leaf);
    }
    bp->moved_since += bp->nmoved;
  }
  forget_moved(bp);
  bp->refits++;
  bp->dirty = 0;
}

/* Builds the tree anew over every body; on allocation failure the walks
** fall back to visiting every body (ok = 0). */
static void rebuild(cs_Broad *bp, cs_Body *const *bodies, size_t nbodies) {
  size_t i;
  forget_moved(bp);
  bp->dirty = bp->rebuild = 0;
  bp->refits = 0;
  bp->moved_since = 0;
  bp->ok = 0;
  bp->nnodes = bp->nitems = 0;
  for (i = 0; i < nbodies; i++) cs_body_refresh(bodies[i]);
  bp->work += nbodies;
  if (cs_grow(&bp->alloc, (void **)&bp->items, &bp->capitems, nbodies + 1,
              sizeof(cs_Body *)) != CS_OK ||
      !grow_nodes(bp, 2 * nbodies + 1)) {
    bp->rebuild = 1;   /* try again next time */
    return;
  }
  for (i = 0; i < nbodies; i++) bp->items[i] = bodies[i];
  bp->nitems = nbodies;
  if (nbodies > 0) bp->nnodes = build(bp, 0, CS_BROAD_NONE, 0, nbodies);
  bp->work += bp->nnodes;
  bp->ok = 1;
}

/* Brings the tree up to date; writes nothing when nothing changed (the
** queries of the job-system contract call it on several threads at once:
** TSan saw the work count reset there). The world calls it only when no
** walk is under way: a callback's nested query then visits the bodies one
** by one.
** A rebuild restores the tree's quality after REBUILD_EVERY refits that
** moved as many bodies as it holds (every body moving every frame: each
** 64 frames; one door of many: rarely). */
unsigned cs_broad_update(cs_Broad *bp, cs_Body *const *bodies, size_t nbodies) {
  unsigned edited;
  CS_ASSERT(cs_atomic_get(&bp->walks) == 0);
  edited = meshes_edited(bp);
  if (edited) bp->dirty = bp->refit_all = 1;
  if (!bp->dirty && !bp->rebuild) return edited;
  if (bp->ok && !bp->rebuild &&
      (bp->refits < REBUILD_EVERY || bp->moved_since < bp->nitems))
    refit_moved(bp, bodies, nbodies, bp->refit_all);
  else
    rebuild(bp, bodies, nbodies);
  return edited;
}

/* }================================================================== */

/* {==================================================================
** Query
** ===================================================================*/

void cs_broad_walk_shared(const cs_Broad *bp, cs_BroadWalk *it, cs_Body *const *bodies,
                          size_t n, cs_Vec3 lo, cs_Vec3 hi, unsigned mask) {
  it->lo = lo;
  it->hi = hi;
  it->mask = mask;
  it->all = bodies;
  it->top = 0;
  it->counted = 0;
  it->one_by_one = !bp->ok || bp->dirty || bp->rebuild;
  it->i = 0;
  it->end = it->one_by_one ? n : 0;
  if (!it->one_by_one && bp->nnodes) it->stack[it->top++] = 0;
}

void cs_broad_walk_begin(cs_Broad *bp, cs_BroadWalk *it, cs_Body *const *bodies, size_t n,
                         cs_Vec3 lo, cs_Vec3 hi, unsigned mask) {
  cs_broad_walk_shared(bp, it, bodies, n, lo, hi, mask);
  if (it->top) {          /* a tree walk: counted, so nothing updates the tree under it */
    cs_atomic_add(&bp->walks, 1);   /* atomic: queries may run on several threads */
    it->counted = 1;
  }
}

cs_Body *cs_broad_walk_next(cs_Broad *bp, cs_BroadWalk *it) {
  if (it->one_by_one) {
    while (it->i < it->end) {
      cs_Body *b = it->all[it->i++];
      cs_body_refresh(b);
      if (b->enabled && (b->layers & it->mask) && v3_boxes_meet(b->lo, b->hi, it->lo, it->hi))
        return b;
    }
    return NULL;
  }
  for (;;) {
    const cs_BroadNode *node;
    while (it->i < it->end) {
      cs_Body *b = bp->items[it->i++];
      if (b->enabled && (b->layers & it->mask) && v3_boxes_meet(b->lo, b->hi, it->lo, it->hi))
        return b;
    }
    if (it->top == 0) return NULL;
    node = &bp->nodes[it->stack[--it->top]];
    if (!v3_boxes_meet(node->lo, node->hi, it->lo, it->hi)) continue;
    if (node->count == 0) {
      /* depth is log2(bodies) + 1, far below the stack's size */
      it->stack[it->top++] = node->index;
      it->stack[it->top++] = (uint32_t)(node - bp->nodes) + 1;
      continue;
    }
    it->i = node->index;
    it->end = (size_t)node->index + node->count;
  }
}

/* A tree walk under way is counted, so that nothing updates the tree under
** it (atomic: queries may run on several threads); its end uncounts it. */
static void walk_uncount(cs_Broad *bp, int *counted) {
  if (*counted) cs_atomic_add(&bp->walks, -1);
  *counted = 0;
}

void cs_broad_walk_end(cs_Broad *bp, cs_BroadWalk *it) { walk_uncount(bp, &it->counted); }

/* The squared distance from p to the box [lo, hi] (0 inside), shrunk by
** CS_BROAD_NEAR_SLACK: never above the true one. */
static double near_d2(cs_Vec3 p, cs_Vec3 lo, cs_Vec3 hi) {
  cs_Vec3 g = v3_max(v3_max(v3_sub(lo, p), v3_sub(p, hi)), v3(0, 0, 0));
  return v3_len2(g) * (1 - CS_BROAD_NEAR_SLACK);
}

/* closestPoint far from everything searched boxes growing 4 times at a
** time and visited every body in the last (5.5 ms 5 km above 100,000
** bodies: found by an independent tester); nearest first, the boxes past
** the best distance found are never opened. */
void cs_broad_near_begin(cs_Broad *bp, cs_BroadNear *it, cs_Body *const *bodies, size_t n,
                         cs_Vec3 p, unsigned mask) {
  it->p = p;
  it->mask = mask;
  it->all = bodies;
  it->top = 0;
  it->counted = 0;
  it->one_by_one = !bp->ok || bp->dirty || bp->rebuild;
  it->i = 0;
  it->end = it->one_by_one ? n : 0;
  if (!it->one_by_one && bp->nnodes) {
    it->stack[0].node = 0;
    it->stack[0].d2 = near_d2(p, bp->nodes[0].lo, bp->nodes[0].hi);
    it->top = 1;
    cs_atomic_add(&bp->walks, 1);   /* (as cs_broad_walk_begin) */
    it->counted = 1;
  }
}

cs_Body *cs_broad_near_next(cs_Broad *bp, cs_BroadNear *it, double max_d2) {
  if (it->one_by_one) {
    while (it->i < it->end) {
      cs_Body *b = it->all[it->i++];
      cs_body_refresh(b);
      if (b->enabled && (b->layers & it->mask) && near_d2(it->p, b->lo, b->hi) <= max_d2) return b;
    }
    return NULL;
  }
  for (;;) {
    const cs_BroadNode *node;
    uint32_t id;
    while (it->i < it->end) {
      cs_Body *b = bp->items[it->i++];
      if (b->enabled && (b->layers & it->mask) && near_d2(it->p, b->lo, b->hi) <= max_d2) return b;
    }
    do {
      if (it->top == 0) return NULL;
      --it->top;
    } while (it->stack[it->top].d2 > max_d2);
    id = it->stack[it->top].node;
    node = &bp->nodes[id];
    if (node->count == 0) {   /* the farther child below the nearer on the stack */
      uint32_t l = id + 1, r = node->index;
      double dl = near_d2(it->p, bp->nodes[l].lo, bp->nodes[l].hi);
      double dr = near_d2(it->p, bp->nodes[r].lo, bp->nodes[r].hi);
      int near_left = dl <= dr;
      it->stack[it->top].node = near_left ? r : l;
      it->stack[it->top].d2 = near_left ? dr : dl;
      it->stack[it->top + 1].node = near_left ? l : r;
      it->stack[it->top + 1].d2 = near_left ? dl : dr;
      it->top += 2;
      continue;
    }
    it->i = node->index;
    it->end = (size_t)node->index + node->count;
  }
}

void cs_broad_near_end(cs_Broad *bp, cs_BroadNear *it) { walk_uncount(bp, &it->counted); }

/* }================================================================== */
