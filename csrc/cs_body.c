/*
** cs_body.c: a body's world bounds, from its mesh's box and its transform.
*/
#include "cs_body.h"

void cs_placed_bounds(cs_Mesh *m, const cs_Mat3 *A, cs_Vec3 t, cs_Vec3 *lo, cs_Vec3 *hi) {
  int i;
  cs_mesh_ensure_fit(m);
  *lo = v3(HUGE_VAL, HUGE_VAL, HUGE_VAL);
  *hi = v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
  for (i = 0; i < 8; i++) {
    cs_Vec3 p = v3(i & 1 ? m->hi.x : m->lo.x, i & 2 ? m->hi.y : m->lo.y, i & 4 ? m->hi.z : m->lo.z);
    p = v3_add(m3_apply(A, p), t);
    *lo = v3_min(*lo, p);
    *hi = v3_max(*hi, p);
  }
}

/* World bounds of the body: its mesh's box, placed. */
void cs_body_update_bounds(cs_Body *b) {
  cs_placed_bounds(b->mesh, &b->A, b->T, &b->lo, &b->hi);
  b->mesh_version = b->mesh->version;
}
