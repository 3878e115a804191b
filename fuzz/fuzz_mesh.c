/*
** fuzz_mesh.c: libFuzzer harness for the mesh builder (cs_mesh_new) and
** what uses a mesh: the tree, a body with a transform, the queries and a
** few moves, on arbitrary vertex and index arrays (NaN, inf, huge and tiny
** numbers, duplicate and collinear points, indices out of range), with an
** allocator that checks every size it is given and may fail on any request.
**
** Input: byte 0 flags (1: backfaces ignored, 2: no index array, 4: tags,
** 8: a rotated and scaled body), byte 1 the allocation request that fails
** (0: none), byte 2 the vertex count (% 64), byte 3 the triangle count
** (% 64), then 2 bytes a coordinate (a class byte: magnitude or a special
** value, and an int8), 1 byte an index (% (vertices + 2)), 1 byte a tag.
**
** Checked (abort on failure): the status is the one the input calls for
** (EINVAL for no vertices or triangles, a vertex count not a multiple of
** 3 without indices, or a non-finite vertex, with its number in
** bad_index; ERANGE for an index out of range, with its position; ENOMEM
** only when the allocator failed); a built mesh reports its counts,
** degenerate triangles <= triangles, bounds that hold every vertex; query
** results are finite with t in [0, 1]; after everything is freed no byte is
** left (and ASan finds no leak or bad access).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"
#include "by_value.h"
#include "fuzz_alloc.h"
#include "invariants.h"

#define FM_MAXV 64

static const double fm_mag[15] = {
  0, 1e-300, 1e-12, 1e-9, 1e-3, 0.1, 1, 10, 1e3, 1e5, 1e6, 1e9, 1e154, 1e300, 4.9e-324
};

static double fm_coord(uint8_t cls, uint8_t v) {
  if ((cls & 15) == 15) {
    switch (v & 7) {
      case 0: return NAN;
      case 1: return INFINITY;
      case 2: return -INFINITY;
      case 3: return 1.7976931348623157e308;
      case 4: return -1.7976931348623157e308;
      case 5: return 2.2250738585072014e-308;
      case 6: return -0.0;
      default: return 0.5;
    }
  }
  return (double)(int8_t)v * fm_mag[cls & 15] * (1 + (cls >> 4) / 16.0);
}

static void fm_fail(const char *what, long a, long b) {
  fprintf(stderr, "fuzz_mesh: %s (%ld, %ld)\n", what, a, b);
  abort();
}

static int fm_finite3(cs_Vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static void fm_check_hit(int r, const cs_Hit *h, const char *what) {
  if (r < 0 && r != -(int)CS_ENOMEM) fm_fail(what, r, 0);
  if (r == 1 && !(h->t >= 0 && h->t <= 1)) fm_fail(what, (long)(h->t * 1e6), 1);
  if (r == 1 && !fm_finite3(h->point)) fm_fail(what, 0, 2);
}

static int fm_tri_cb(void *ud, const cs_Body *b, unsigned t) { (void)ud; (void)b; (void)t; return 1; }
static int fm_ov_cb(void *ud, const cs_Body *b, unsigned t, double depth, const cs_Vec3 *np) {
  cs_Vec3 n = *np;
  (void)ud; (void)b; (void)t;
  if (!isfinite(depth) || !fm_finite3(n)) fm_fail("overlap: non-finite depth or normal", 0, 0);
  return 1;
}

/* Uses the mesh: a world, a body, the queries, moves and vertex edits. Any
** step may fail for memory (the allocator is the same). */
static void fm_use(const cs_Alloc *al, cs_Mesh *mesh, const uint8_t *data, size_t size, int transform) {
  cs_World *w;
  cs_Body *b;
  cs_Mover *m;
  cs_Hit h;
  cs_Vec3 lo, hi, g = {0, -0.3, 0};
  double r = 0.5;
  int k;
  if (cs_world_new(al, &w) != CS_OK) return;
  if (cs_world_add(w, mesh, &b) != CS_OK) { cs_world_free(w); return; }
  if (transform && size >= 8) {
    double q[4];
    cs_Vec3 s, t;
    q[0] = (int8_t)data[0]; q[1] = (int8_t)data[1]; q[2] = (int8_t)data[2]; q[3] = (int8_t)data[3] + 0.5;
    s.x = ((int8_t)data[4] | 1) / 16.0; s.y = ((int8_t)data[5] | 1) / 16.0; s.z = ((int8_t)data[6] | 1) / 16.0;
    t.x = (int8_t)data[7]; t.y = 0; t.z = -t.x;
    cs_body_set_transform(b, &t, q, &s);
  }
  cs_body_bounds(b, &lo, &hi);
  if (cs_mover_new(al, &m) == CS_OK) {
    cs_mover_set_radius(m, &(cs_Vec3){r, 2 * r, r});
    for (k = 0; k < 4; k++) {
      cs_Vec3 walk = {(k & 1) ? 3.0 : -1.0, 0.25 * k, (k & 2) ? 2.0 : -0.5}, p;
      cs_Status st = cs_world_collide_and_slide(w, m, &walk, k & 1 ? &g : NULL);
      if (st != CS_OK && st != CS_ENOMEM) fm_fail("collide_and_slide status", st, k);
      p = csv_mover_position(m);
      if (!fm_finite3(p)) fm_fail("collide_and_slide: non-finite position", k, 0);
    }
    fm_check_hit(cs_world_sweep(w, m, &(cs_Vec3){0, -10, 0}, &h), &h, "sweep");
    cs_mover_free(m);
  }
  fm_check_hit(cs_world_raycast(w, &(cs_Vec3){-5, 5, -5}, &(cs_Vec3){10, -10, 10}, ~0u, &h), &h, "raycast");
  fm_check_hit(cs_world_sweep_ellipsoid(w, &(cs_Vec3){0, 3, 0}, &(cs_Vec3){1, 0.5, 2}, NULL,
                                        &(cs_Vec3){1, -6, 1}, ~0u, &h), &h, "sweep_ellipsoid");
  k = cs_world_closest_point(w, &(cs_Vec3){0.25, 0.5, 0.75}, 1e3, ~0u, &h);
  if (k < 0 && k != -(int)CS_ENOMEM) fm_fail("closest_point", k, 0);
  if (k == 1 && (!fm_finite3(h.point) || !(h.t >= 0))) fm_fail("closest_point result", 0, 0);
  (void)cs_world_query_box(w, &(cs_Vec3){-2, -2, -2}, &(cs_Vec3){2, 2, 2}, ~0u, fm_tri_cb, NULL);
  (void)cs_world_overlap_ellipsoid(w, &(cs_Vec3){0, 0, 0}, &(cs_Vec3){1, 1, 1}, NULL, ~0u, fm_ov_cb, NULL);
  /* vertex edits, then the same queries on the refitted tree */
  if (cs_mesh_vertex_count(mesh) > 0) {
    cs_mesh_set_vertex(mesh, size % cs_mesh_vertex_count(mesh), &(cs_Vec3){1, 2, 3});
    fm_check_hit(cs_world_raycast(w, &(cs_Vec3){0, 5, 0}, &(cs_Vec3){1, -10, 2}, ~0u, &h), &h,
                 "raycast after an edit");
    cs_mesh_refit(mesh);
  }
  cs_world_remove(w, b);
  cs_world_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fa_State fa;
  cs_Alloc al;
  cs_MeshDesc d;
  cs_Mesh *mesh = NULL;
  double verts[3 * FM_MAXV];
  unsigned idx[3 * 64];
  int tags[64];
  size_t nv, nt, i, pos = 4, bad = (size_t)-1, ntris;
  long expect_bad = -1;
  cs_Status st, expect = CS_OK;
  int flags;
  if (size < 4) return 0;
  flags = data[0];
  nv = data[2] % FM_MAXV;
  nt = data[3] % 64;
  al = fa_alloc(&fa, data[1] ? (long)data[1] - 1 : -1);
  for (i = 0; i < 3 * nv; i++, pos += 2)
    verts[i] = pos + 1 < size ? fm_coord(data[pos], data[pos + 1]) : (double)(i % 7);
  for (i = 0; i < 3 * nt; i++, pos++) idx[i] = pos < size ? data[pos] % (unsigned)(nv + 2) : 0;
  for (i = 0; i < nt; i++, pos++) tags[i] = pos < size ? (int8_t)data[pos] : 0;
  memset(&d, 0, sizeof d);
  d.vertices = verts;
  d.vertex_count = nv;
  d.indices = (flags & 2) ? NULL : idx;
  d.triangle_count = nt;
  d.tags = (flags & 4) ? tags : NULL;
  d.backfaces = (flags & 1) ? CS_BACKFACES_IGNORE : CS_BACKFACES_COLLIDE;
  ntris = d.indices ? nt : nv / 3;
  /* the expected status, in the order the API documents */
  if (nv == 0 || ntris == 0 || (!d.indices && nv % 3 != 0)) {
    expect = CS_EINVAL;
  } else {
    for (i = 0; i < 3 * nv && expect == CS_OK; i++)
      if (!isfinite(verts[i])) { expect = CS_EINVAL; expect_bad = (long)(i / 3); }
    if (expect == CS_OK && d.indices)
      for (i = 0; i < 3 * nt && expect == CS_OK; i++)
        if (idx[i] >= nv) { expect = CS_ERANGE; expect_bad = (long)i; }
  }
  st = cs_mesh_new(&al, &d, &mesh, &bad);
  if (st == CS_ENOMEM) {
    if (fa.fail_at < 0 || fa.requests <= fa.fail_at) fm_fail("ENOMEM without a failed allocation", 0, 0);
    if (expect != CS_OK) fm_fail("ENOMEM for an input that is not valid", expect, 0);
  } else if (st != expect) {
    fm_fail("unexpected status", st, expect);
  } else if (expect_bad >= 0 && (long)bad != expect_bad) {
    fm_fail("bad_index", (long)bad, expect_bad);
  }
  if (st != CS_OK && mesh) fm_fail("a failed build returned a mesh", st, 0);
  if (st == CS_OK) {
    cs_Vec3 lo, hi;
    unsigned tri[3];
    if (cs_mesh_triangle_count(mesh) != ntris) fm_fail("triangle count", (long)cs_mesh_triangle_count(mesh), (long)ntris);
    if (cs_mesh_vertex_count(mesh) != nv) fm_fail("vertex count", (long)cs_mesh_vertex_count(mesh), (long)nv);
    if (cs_mesh_degenerate_count(mesh) > ntris) fm_fail("degenerate count", (long)cs_mesh_degenerate_count(mesh), (long)ntris);
    if (cs_mesh_memory(mesh) == 0) fm_fail("memory", 0, 0);
    cs_mesh_bounds(mesh, &lo, &hi);
    for (i = 0; i < ntris; i++) {
      int k;
      cs_mesh_triangle(mesh, i, tri);
      for (k = 0; k < 3; k++)
        if (tri[k] >= nv) fm_fail("triangle index out of range", (long)i, tri[k]);
      if (cs_mesh_tag(mesh, i) != (d.tags ? tags[i] : 0)) fm_fail("tag", (long)i, cs_mesh_tag(mesh, i));
    }
    /* the bounds hold every vertex of a non-degenerate triangle */
    for (i = 0; i < ntris; i++) {
      double v[3][3];
      int k;
      cs_mesh_triangle(mesh, i, tri);
      for (k = 0; k < 3; k++) {
        cs_Vec3 p = csv_mesh_vertex(mesh, tri[k]);
        v[k][0] = p.x; v[k][1] = p.y; v[k][2] = p.z;
      }
      if (inv_triangle_degenerate(v[0], v[1], v[2])) continue;
      for (k = 0; k < 3; k++)
        if (v[k][0] < lo.x || v[k][1] < lo.y || v[k][2] < lo.z || v[k][0] > hi.x || v[k][1] > hi.y ||
            v[k][2] > hi.z)
          fm_fail("a vertex outside the bounds", (long)i, k);
    }
    fm_use(&al, mesh, data + 4, size - 4, flags & 8);
    cs_mesh_free(mesh);
  }
  if (fa.live != 0) fm_fail("bytes left allocated", (long)fa.live, 0);
  return 0;
}
