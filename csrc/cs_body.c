/*
** cs_body.c: a body's world bounds, from its mesh's box and its transform.
*/
#include "cs_body.h"

/* World bounds of the body: its mesh's box, its 8 corners placed. */
void cs_body_update_bounds(cs_Body *b) {
  cs_Mesh *m = b->mesh;
  int i;
  cs_mesh_ensure_fit(m);
  b->lo = v3(HUGE_VAL, HUGE_VAL, HUGE_VAL);
  b->hi = v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
  for (i = 0; i < 8; i++) {
    cs_Vec3 p = v3(i & 1 ? m->hi.x : m->lo.x, i & 2 ? m->hi.y : m->lo.y, i & 4 ? m->hi.z : m->lo.z);
    p = cs_body_to_world(b, p);
    b->lo = v3_min(b->lo, p);
    b->hi = v3_max(b->hi, p);
  }
  b->mesh_version = m->version;
}
