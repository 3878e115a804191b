/*
** scenes.h: small meshes the C tests build (scenes.c).
*/
#ifndef CS_SCENES_H
#define CS_SCENES_H

#include "collideslide.h"

/* The box [lo, hi]: 8 shared vertices, 12 triangles facing out (a closed
** mesh, so a sensor too). NULL when the mesh cannot be made. */
cs_Mesh *scene_box(const cs_Alloc *a, cs_Vec3 lo, cs_Vec3 hi);

#endif
