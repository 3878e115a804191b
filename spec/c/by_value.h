/*
** by_value.h: the getters of collideslide.h that write through a pointer,
** as expressions, for the C tests, fuzzers and benchmarks (the header's
** calls take and give vectors through pointers so that LuaJIT's FFI compiles
** them; a C caller may find the value form handier in asserts).
*/
#ifndef CS_BY_VALUE_H
#define CS_BY_VALUE_H

#include "collideslide.h"

static inline cs_Vec3 csv_mover_position(const cs_Mover *m) { cs_Vec3 v; cs_mover_get_position(m, &v); return v; }
static inline cs_Vec3 csv_mover_radius(const cs_Mover *m) { cs_Vec3 v; cs_mover_get_radius(m, &v); return v; }
static inline cs_Vec3 csv_mover_up(const cs_Mover *m) { cs_Vec3 v; cs_mover_get_up(m, &v); return v; }
static inline cs_Vec3 csv_body_velocity(const cs_Body *b) { cs_Vec3 v; cs_body_get_velocity(b, &v); return v; }
static inline cs_Vec3 csv_mesh_vertex(const cs_Mesh *m, size_t i) { cs_Vec3 v; cs_mesh_vertex(m, i, &v); return v; }

#endif
