/*
** scenes.c: small meshes the C tests build (see scenes.h).
*/
#include <string.h>

#include "scenes.h"

cs_Mesh *scene_box(const cs_Alloc *a, cs_Vec3 lo, cs_Vec3 hi) {
  static const unsigned idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                   3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5};
  double v[24];
  cs_MeshDesc d;
  cs_Mesh *m = NULL;
  int i;
  /* vertex i: x from bit pattern 1, 2, 5, 6; y from 2, 3, 6, 7; z from
  ** i >= 4, which turns every triangle of idx outward (y and z the other
  ** way round turned them all in, against this file's promise: found when a
  ** C test needed a solid lift, round 28) */
  for (i = 0; i < 8; i++) {
    v[3 * i + 0] = (i == 1 || i == 2 || i == 5 || i == 6) ? hi.x : lo.x;
    v[3 * i + 1] = (i == 2 || i == 3 || i == 6 || i == 7) ? hi.y : lo.y;
    v[3 * i + 2] = (i >= 4) ? hi.z : lo.z;
  }
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = 8; d.indices = idx; d.triangle_count = 12;
  return cs_mesh_new(a, &d, &m, NULL) == CS_OK ? m : NULL;
}
