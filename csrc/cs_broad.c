/*
** cs_broad.c: the world's top-level tree over body bounds, so that a call
** meets only the bodies near it however many the world holds. Kept up to
** date lazily, before the first query that needs it: rebuilt (median splits,
** O(n log n)) after bodies were added, removed or enabled, and every
** REBUILD_EVERY refits; refitted (O(n)) after bodies moved or their meshes
** were edited.
*/
#include <string.h>

#include "cs_internal.h"

#define LEAF_SIZE 4
#define STACK_SIZE 128
#define REBUILD_EVERY 64  /* refits before a rebuild restores the tree's quality */

/* {==================================================================
** Meshes in use, to notice their vertex edits
** ===================================================================*/

cs_Status cs_broad_mesh_ref(cs_World *w, cs_Mesh *mesh, int delta) {
  size_t i;
  for (i = 0; i < w->nmeshes; i++)
    if (w->meshes[i].mesh == mesh) break;
  if (i == w->nmeshes) {
    cs_Status s;
    if (delta < 0) return CS_OK;
    s = cs_grow(&w->alloc, (void **)&w->meshes, &w->capmeshes, w->nmeshes + 1,
                sizeof(cs_MeshRef));
    if (s != CS_OK) return s;
    w->meshes[i].mesh = mesh;
    w->meshes[i].version = mesh->version;
    w->meshes[i].count = 0;
    w->nmeshes++;
  }
  w->meshes[i].count += delta;
  if (w->meshes[i].count <= 0) w->meshes[i] = w->meshes[--w->nmeshes];
  return CS_OK;
}

/* Has any mesh in use been edited since the tree was built? */
static int meshes_edited(cs_World *w) {
  size_t i;
  int edited = 0;
  for (i = 0; i < w->nmeshes; i++) {
    cs_MeshRef *r = &w->meshes[i];
    if (r->mesh->dirty || r->mesh->version != r->version) {
      cs_mesh_ensure_fit(r->mesh);
      r->version = r->mesh->version;
      edited = 1;
      w->version++;
    }
  }
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

/* Builds the subtree over items[first, first + n) at node index `at`;
** returns the next free node index. Depth is log2(n): recursion is fine. */
static size_t build(cs_World *w, size_t at, size_t first, size_t n) {
  cs_BroadNode *node = &w->bnodes[at];
  cs_Body **items = w->bitems + first;
  node_bounds(node, items, n);
  if (n <= LEAF_SIZE) {
    node->index = (uint32_t)first;
    node->count = (uint32_t)n;
    return at + 1;
  } else {
    cs_Vec3 clo = v3(HUGE_VAL, HUGE_VAL, HUGE_VAL), chi = v3_neg(clo), ext;
    size_t i, half = n / 2, next;
    int axis;
    for (i = 0; i < n; i++) {
      clo = v3_min(clo, centre_of(items[i]));
      chi = v3_max(chi, centre_of(items[i]));
    }
    ext = v3_sub(chi, clo);
    axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : ext.y >= ext.z ? 1 : 2;
    select_kth(items, n, half, axis);
    next = build(w, at + 1, first, half);
    w->bnodes[at].index = (uint32_t)next;   /* right child */
    w->bnodes[at].count = 0;
    return build(w, next, first + half, n - half);
  }
}

/* Node bounds from the bodies' current bounds; children come after their
** parent, so one backward pass sees them first. */
static void refit(cs_World *w) {
  size_t i = w->nbnodes;
  while (i-- > 0) {
    cs_BroadNode *node = &w->bnodes[i];
    if (node->count > 0) {
      node_bounds(node, w->bitems + node->index, node->count);
    } else {
      const cs_BroadNode *l = node + 1, *r = &w->bnodes[node->index];
      node->lo = v3_min(l->lo, r->lo);
      node->hi = v3_max(l->hi, r->hi);
    }
  }
}

/* Brings the tree up to date; on allocation failure the world falls back
** to visiting every body (broad_ok = 0). Never while a walk is under way:
** a callback's nested query then visits the bodies one by one instead. */
static void broad_update(cs_World *w) {
  size_t i, n = 0;
  if (meshes_edited(w)) w->broad_dirty = 1;
  if (!w->broad_dirty && !w->broad_rebuild) return;
  for (i = 0; i < w->nbodies; i++) cs_body_refresh(w->bodies[i]);
  if (w->broad_ok && !w->broad_rebuild && w->broad_refits < REBUILD_EVERY) {
    refit(w);
    w->broad_refits++;
    w->broad_dirty = 0;
    return;
  }
  w->broad_dirty = w->broad_rebuild = 0;
  w->broad_refits = 0;
  w->broad_ok = 0;
  w->nbnodes = 0;
  if (cs_grow(&w->alloc, (void **)&w->bitems, &w->capbitems, w->nbodies + 1,
              sizeof(cs_Body *)) != CS_OK ||
      cs_grow(&w->alloc, (void **)&w->bnodes, &w->capbnodes, 2 * w->nbodies + 1,
              sizeof(cs_BroadNode)) != CS_OK) {
    w->broad_rebuild = 1;   /* try again next time */
    return;
  }
  for (i = 0; i < w->nbodies; i++)
    if (w->bodies[i]->enabled) w->bitems[n++] = w->bodies[i];
  if (n > 0) w->nbnodes = build(w, 0, 0, n);
  w->broad_ok = 1;
}

/* }================================================================== */

/* {==================================================================
** Query
** ===================================================================*/

static int overlap(cs_Vec3 alo, cs_Vec3 ahi, cs_Vec3 blo, cs_Vec3 bhi) {
  return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y &&
         alo.z <= bhi.z && blo.z <= ahi.z;
}

cs_Status cs_world_bodies_in_box(cs_World *w, cs_Vec3 lo, cs_Vec3 hi, unsigned mask,
                                 cs_BodyFn fn, void *ud) {
  uint32_t stack[STACK_SIZE];
  size_t i, top = 0;
  cs_Status s = CS_OK;
  if (w->broad_walks == 0) broad_update(w);
  if (!w->broad_ok || w->broad_dirty || w->broad_rebuild) {   /* every body */
    for (i = 0; i < w->nbodies; i++) {
      cs_Body *b = w->bodies[i];
      cs_body_refresh(b);
      if (!b->enabled || !(b->layers & mask) || !overlap(b->lo, b->hi, lo, hi)) continue;
      if ((s = fn(ud, b)) != CS_OK) return s == CS_STOP ? CS_OK : s;
    }
    return CS_OK;
  }
  if (w->nbnodes == 0) return CS_OK;
  w->broad_walks++;
  stack[top++] = 0;
  while (top > 0 && s == CS_OK) {
    const cs_BroadNode *node = &w->bnodes[stack[--top]];
    if (!overlap(node->lo, node->hi, lo, hi)) continue;
    if (node->count == 0) {
      /* depth is log2(bodies) + 1, far below the stack's size */
      stack[top++] = node->index;
      stack[top++] = (uint32_t)(node - w->bnodes) + 1;
      continue;
    }
    for (i = node->index; i < node->index + node->count && s == CS_OK; i++) {
      cs_Body *b = w->bitems[i];
      if (!(b->layers & mask) || !overlap(b->lo, b->hi, lo, hi)) continue;
      s = fn(ud, b);
    }
  }
  w->broad_walks--;
  return s == CS_STOP ? CS_OK : s;
}

void cs_world_sync(cs_World *w) {
  if (w->broad_walks == 0) broad_update(w);
}

int cs_world_bounds(cs_World *w, cs_Vec3 *lo, cs_Vec3 *hi) {
  size_t i;
  int any = 0;
  if (w->broad_walks == 0) broad_update(w);
  if (w->broad_ok && !w->broad_dirty && !w->broad_rebuild) {
    if (w->nbnodes == 0) return 0;
    *lo = w->bnodes[0].lo;
    *hi = w->bnodes[0].hi;
    return 1;
  }
  for (i = 0; i < w->nbodies; i++) {
    cs_Body *b = w->bodies[i];
    if (!b->enabled) continue;
    cs_body_refresh(b);
    *lo = any ? v3_min(*lo, b->lo) : b->lo;
    *hi = any ? v3_max(*hi, b->hi) : b->hi;
    any = 1;
  }
  return any;
}

void cs_broad_free(cs_World *w) {
  cs_free(&w->alloc, w->bnodes, w->capbnodes * sizeof(cs_BroadNode));
  cs_free(&w->alloc, w->bitems, w->capbitems * sizeof(cs_Body *));
  cs_free(&w->alloc, w->meshes, w->capmeshes * sizeof(cs_MeshRef));
}

/* }================================================================== */
