/*
** cs_lua_mesh.c: meshes from Lua (cs.newMesh, mesh methods): vertex and
** index arrays in their table forms, vertex edits. See cs_lua.c for the
** binding's lifetimes and conventions.
*/
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cs_lua.h"

/* {==================================================================
** Meshes
** ===================================================================*/

MeshUD *check_mesh(lua_State *L, int arg) {
  MeshUD *m = (MeshUD *)check_type(L, arg, MESH_T);
  if (m->closed || m->mesh == NULL) argfail(L, arg, "attempt to use a closed/collected Mesh");
  return m;
}

/* A world no longer uses the mesh for one body: free it if it was the last
** use of a mesh Lua has already closed or collected. */
void mesh_release(MeshUD *m) {
  if (--m->users <= 0) {
    m->users = 0;
    if (m->closed && m->mesh != NULL) { cs_mesh_free(m->mesh); m->mesh = NULL; }
  }
}

/* Coordinate comp (0..2) of vertex v (1-based), read as x with Lua type ty:
** a finite number, else the error (a nil in a flat array is a hole: its
** reader raises it first). */
static void check_coordinate(lua_State *L, int arg, int ty, double x, size_t v, int comp) {
  char b[NUMBUF], c[NUMBUF];
  if (ty != LUA_TNUMBER)
    argfail(L, arg, "vertex %s: %s must be a number, got %s", fmtnum(b, (double)v), XYZ[comp],
            lua_typename(L, ty));
  if (!isfinite(x))
    argfail(L, arg, "vertex %s: %s is %s", fmtnum(b, (double)v), XYZ[comp], fmtnum(c, x));
  if (fabs(x) > CS_MAX_COORD)
    argfail(L, arg, "vertex %s: %s is out of range (|%s| > 1e30), got %s", fmtnum(b, (double)v),
            XYZ[comp], XYZ[comp], fmtnum(c, x));
}

/* The hint for a table with a vertices field given as the vertex array. */
#define NAMED_MESH "the table has a field 'vertices': give the arrays themselves " \
  "(t.vertices, t.indices); a builder makes its mesh with builder:mesh()"

/* A nested vertex or triangle with a 4th element: refused, as the rest was
** dropped without a word (a quad {1, 2, 3, 4} made one triangle; found by
** an independent tester). */
static void extra_element(lua_State *L, int arg, const char *what, size_t i) {
  char b[NUMBUF];
  if (what[0] == 't')
    argfail(L, arg, "triangle %s has more than 3 indices (a quad {a, b, c, d} is two triangles, "
            "{a, b, c} and {a, c, d})", fmtnum(b, (double)i));
  argfail(L, arg, "vertex %s has more than 3 coordinates, expected {x, y, z}", fmtnum(b, (double)i));
}

/* Reads the vertices at arg (flat {x1, y1, z1, ...} or {{x, y, z}, ...},
** told apart by the type of the first element) into a scratch userdata it
** pushes: the collector frees it, so a raise leaks nothing. */
static double *read_vertices(lua_State *L, int arg, size_t *count) {
  size_t len, n, i;
  int first, k, ty;
  double *v;
  char b[NUMBUF];
  check_table(L, arg);
  len = csL_len(L, arg);
  check_array_end(L, arg, arg, len, "vertex array");   /* (a hole before the first) */
  if (len == 0) {
    lua_pushliteral(L, "vertices");      /* a builder, or {vertices = ..., indices = ...} */
    lua_rawget(L, arg);
    if (!lua_isnil(L, -1)) argfail(L, arg, "empty mesh (no vertices): %s", NAMED_MESH);
    argfail(L, arg, "empty mesh (no vertices)");
  }
  lua_rawgeti(L, arg, 1);
  first = lua_type(L, -1);
  lua_pop(L, 1);
  if (first == LUA_TNIL) hole_fail(L, arg, arg, len, "vertex array");
  if (first != LUA_TNUMBER && first != LUA_TTABLE)
    argfail(L, arg, "vertex 1 must be a number (flat array) or a table {x, y, z}, got %s",
            lua_typename(L, first));
  if (first == LUA_TNUMBER && len % 3 != 0) {
    hole_fail(L, arg, arg, len, "vertex array");
    argfail(L, arg, "flat vertex array has %s numbers, not a multiple of 3", fmtnum(b, (double)len));
  }
  n = first == LUA_TNUMBER ? len / 3 : len;
  if (n > 0xfffffffeu) argfail(L, arg, "too many vertices");
  v = (double *)lua_newuserdata(L, n * 3 * sizeof(double));
  if (first == LUA_TNUMBER) {
    for (i = 0; i < 3 * n; i++) {
      ty = elem_num(L, arg, i + 1, &v[i]);
      if (ty == LUA_TNIL) hole_fail(L, arg, arg, len, "vertex array");
      check_coordinate(L, arg, ty, v[i], i / 3 + 1, (int)(i % 3));
    }
  } else {
    for (i = 0; i < n; i++) {
      lua_rawgeti(L, arg, (int)i + 1);
      ty = lua_type(L, -1);
      if (ty == LUA_TNIL) hole_fail(L, arg, arg, len, "vertex array");
      if (ty != LUA_TTABLE)
        argfail(L, arg, "vertex %s must be a table {x, y, z}, got %s", fmtnum(b, (double)i + 1),
                lua_typename(L, ty));
      for (k = 0; k < 3; k++) {
        ty = elem_num(L, lua_gettop(L), (size_t)k + 1, &v[3 * i + k]);
        check_coordinate(L, arg, ty, v[3 * i + k], i + 1, k);
      }
      if (csL_rawgeti_type(L, -1, 4) != LUA_TNIL) extra_element(L, arg, "vertex", i + 1);
      lua_pop(L, 2);
    }
  }
  *count = n;
  return v;
}

/* One index of triangle tri (1-based): an integer in 1..nverts, 0-based.
** flat: the length of the flat array at t (a nil there is a hole in it), 0
** for a triangle's own table. */
static unsigned index_value(lua_State *L, int arg, int t, size_t elem, size_t tri, size_t nverts,
                            size_t flat) {
  double d = 0;
  char b[NUMBUF], c[NUMBUF], e[NUMBUF];
  int ty = elem_num(L, t, elem, &d);
  if (ty == LUA_TNIL && flat) hole_fail(L, arg, t, flat, "index array");
  if (ty == LUA_TNIL)
    argfail(L, arg, "triangle %s: index is nil (a hole)", fmtnum(b, (double)tri));
  if (ty != LUA_TNUMBER)
    argfail(L, arg, "triangle %s: index must be an integer, got %s", fmtnum(b, (double)tri),
            lua_typename(L, ty));
  if (!isfinite(d) || d != floor(d))
    argfail(L, arg, "triangle %s: index %s is not an integer", fmtnum(b, (double)tri), fmtnum(c, d));
  /* an index 0: 0-based indices, named (found by an independent tester) */
  if (d < 1 || d > (double)nverts)
    argfail(L, arg, "triangle %s: index %s out of range 1..%s%s", fmtnum(b, (double)tri),
            fmtnum(c, d), fmtnum(e, (double)nverts), d == 0 ? " (indices are 1-based)" : "");
  return (unsigned)d - 1;
}

/* Reads the indices at arg (flat {a1, b1, c1, ...} or {{a, b, c}, ...}),
** 1-based in Lua, into a scratch userdata of 0-based ones it pushes. */
static unsigned *read_indices(lua_State *L, int arg, size_t nverts, size_t *ntris) {
  size_t len, n, i;
  int first, k, ty;
  unsigned *ix;
  char b[NUMBUF];
  check_table(L, arg);
  len = csL_len(L, arg);
  check_array_end(L, arg, arg, len, "index array");    /* (a hole before the first) */
  if (len == 0) argfail(L, arg, "empty mesh (no triangles)");
  lua_rawgeti(L, arg, 1);
  first = lua_type(L, -1);
  lua_pop(L, 1);
  if (first == LUA_TNIL) hole_fail(L, arg, arg, len, "index array");
  if (first != LUA_TNUMBER && first != LUA_TTABLE)
    argfail(L, arg, "triangle 1: index must be an integer (flat array) or a table {a, b, c}, got %s",
            lua_typename(L, first));
  if (first == LUA_TNUMBER && len % 3 != 0) {
    hole_fail(L, arg, arg, len, "index array");
    argfail(L, arg, "index count %s is not a multiple of 3", fmtnum(b, (double)len));
  }
  n = first == LUA_TNUMBER ? len / 3 : len;
  if (n > 0x3fffffffu) argfail(L, arg, "too many triangles");
  ix = (unsigned *)lua_newuserdata(L, n * 3 * sizeof(unsigned));
  if (first == LUA_TNUMBER) {
    for (i = 0; i < 3 * n; i++) ix[i] = index_value(L, arg, arg, i + 1, i / 3 + 1, nverts, len);
  } else {
    for (i = 0; i < n; i++) {
      lua_rawgeti(L, arg, (int)i + 1);
      ty = lua_type(L, -1);
      if (ty == LUA_TNIL) hole_fail(L, arg, arg, len, "index array");
      if (ty != LUA_TTABLE)
        argfail(L, arg, "triangle %s must be a table {a, b, c}, got %s", fmtnum(b, (double)i + 1),
                lua_typename(L, ty));
      for (k = 0; k < 3; k++)
        ix[3 * i + k] = index_value(L, arg, lua_gettop(L), (size_t)k + 1, i + 1, nverts, 0);
      if (csL_rawgeti_type(L, -1, 4) != LUA_TNIL) extra_element(L, arg, "triangle", i + 1);
      lua_pop(L, 2);
    }
  }
  *ntris = n;
  return ix;
}

/* options.tags (the table at t): one integer (32-bit) per triangle. */
static int *read_tags(lua_State *L, int arg, int t, size_t ntris) {
  size_t len = csL_len(L, t), i;
  int *tags, ty;
  double d = 0;
  char b[NUMBUF], c[NUMBUF];
  check_array_end(L, arg, t, len, "options.tags");
  if (len != ntris) {
    hole_fail(L, arg, t, len, "options.tags");
    argfail(L, arg, "options.tags has %s entries, expected %s (one per triangle)",
            fmtnum(b, (double)len), fmtnum(c, (double)ntris));
  }
  tags = (int *)lua_newuserdata(L, (ntris ? ntris : 1) * sizeof(int));
  for (i = 0; i < ntris; i++) {
    ty = elem_num(L, t, i + 1, &d);
    if (ty == LUA_TNIL) hole_fail(L, arg, t, len, "options.tags");
    if (ty != LUA_TNUMBER)
      argfail(L, arg, "options.tags: tag %s must be an integer, got %s", fmtnum(b, (double)i + 1),
              lua_typename(L, ty));
    if (!isfinite(d) || d != floor(d) || d < -2147483648.0 || d > 2147483647.0)
      argfail(L, arg, "options.tags: tag %s must be a 32-bit integer, got %s",
              fmtnum(b, (double)i + 1), fmtnum(c, d));
    tags[i] = (int)d;
  }
  return tags;
}

/* options at arg: {tags = {...}, backfaces = "collide" | "ignore"}, read
** raw; unknown keys are errors. Returns the stack index of tags, or 0. */
static int is_option(const char *k) { return strcmp(k, "tags") == 0 || strcmp(k, "backfaces") == 0; }

static int read_options(lua_State *L, int arg, int *backfaces) {
  int tags = 0;
  const char *k = NULL;
  *backfaces = CS_BACKFACES_COLLIDE;
  if (lua_isnoneornil(L, arg)) return 0;
  check_table(L, arg);
  switch (least_unknown(L, arg, is_option, &k)) {
  case 2: argfail(L, arg, "unknown option (a %s key)", k); break;
  case 1: argfail(L, arg, "unknown option '%s' (options are tags, backfaces)", k); break;
  }
  lua_pushliteral(L, "backfaces");
  lua_rawget(L, arg);
  if (!lua_isnil(L, -1)) {
    const char *s = name_at(L, -1);
    if (s == NULL && lua_type(L, -1) == LUA_TSTRING)
      argfail(L, arg, "options.backfaces must be \"collide\" or \"ignore\", got a string with a NUL byte");
    if (s != NULL && strcmp(s, "collide") == 0) *backfaces = CS_BACKFACES_COLLIDE;
    else if (s != NULL && strcmp(s, "ignore") == 0) *backfaces = CS_BACKFACES_IGNORE;
    else if (s != NULL) argfail(L, arg, "options.backfaces must be \"collide\" or \"ignore\", got \"%s\"", s);
    else argfail(L, arg, "options.backfaces must be \"collide\" or \"ignore\", got %s",
                 luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  lua_pushliteral(L, "tags");
  lua_rawget(L, arg);
  if (lua_isnil(L, -1)) lua_pop(L, 1);
  else if (!lua_istable(L, -1))
    argfail(L, arg, "options.tags must be a table, got %s", luaL_typename(L, -1));
  else tags = lua_gettop(L);
  return tags;
}

static int mesh_failed(lua_State *L, const char *fname, cs_Status s, size_t bad) {
  char b[NUMBUF];
  if (s == CS_ERANGE)
    return luaL_error(L, "%s: triangle %s: index out of range", fname, fmtnum(b, (double)(bad / 3 + 1)));
  if (s == CS_EINVAL)
    return luaL_error(L, "%s: invalid input at %s", fname, fmtnum(b, (double)bad + 1));
  return status_error(L, fname, s);
}

/* cs.newMesh(vertices [, indices [, options]]) -> mesh */
int cs_newMesh(lua_State *L) {
  size_t nv = 0, nt = 0, bad = 0;
  double *v;
  unsigned *ix = NULL;
  int *tags = NULL;
  int bf, tagsi;
  char b[NUMBUF];
  cs_MeshDesc d;
  cs_Alloc a;
  cs_Status s;
  MeshUD *m;
  if (lua_isnone(L, 1)) check_table(L, 1);   /* "got no value": settop pads it */
  check_not_module(L, 1, "newMesh");
  lua_settop(L, 3);
  v = read_vertices(L, 1, &nv);
  if (lua_isnil(L, 2)) {
    if (nv % 3 != 0)
      argfail(L, 1, "vertex count %s is not a multiple of 3 (no indices given)", fmtnum(b, (double)nv));
    nt = nv / 3;
  } else {
    ix = read_indices(L, 2, nv, &nt);
  }
  tagsi = read_options(L, 3, &bf);
  if (tagsi != 0) tags = read_tags(L, 3, tagsi, nt);
  m = (MeshUD *)new_object(L, MESH_T);
  m->mesh = NULL; m->users = 0; m->closed = 0;
  d.vertices = v; d.vertex_count = nv;
  d.indices = ix; d.triangle_count = nt;
  d.tags = tags; d.backfaces = bf;
  a = lua_alloc(L);
  s = cs_mesh_new(&a, &d, &m->mesh, &bad);
  if (s != CS_OK) { m->mesh = NULL; return mesh_failed(L, "newMesh", s, bad); }
  return 1;
}

/* Serves __gc and __close; safe to call twice. The core mesh waits for the
** last world using it (mesh_release). */
static int mesh_close(lua_State *L) {
  MeshUD *m = (MeshUD *)check_type(L, 1, MESH_T);
  if (!m->closed) {
    m->closed = 1;
    if (m->users <= 0 && m->mesh != NULL) { cs_mesh_free(m->mesh); m->mesh = NULL; }
  }
  return 0;
}

static int mesh___tostring(lua_State *L) {
  MeshUD *m = (MeshUD *)check_type(L, 1, MESH_T);
  if (m->closed || m->mesh == NULL) lua_pushfstring(L, MESH_MT " (closed): %p", (void *)m);
  else lua_pushfstring(L, MESH_MT " (%d triangles): %p", (int)cs_mesh_triangle_count(m->mesh), (void *)m);
  return 1;
}

static int mesh_triangleCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_mesh_triangle_count(check_mesh(L, 1)->mesh));
  return 1;
}

static int mesh_vertexCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_mesh_vertex_count(check_mesh(L, 1)->mesh));
  return 1;
}

static int mesh_degenerateCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_mesh_degenerate_count(check_mesh(L, 1)->mesh));
  return 1;
}

static int mesh_memory(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_mesh_memory(check_mesh(L, 1)->mesh));
  return 1;
}

/* mesh:bounds() -> minx, miny, minz, maxx, maxy, maxz */
static int mesh_bounds(lua_State *L) {
  cs_Vec3 lo, hi;
  cs_mesh_bounds(check_mesh(L, 1)->mesh, &lo, &hi);
  push_vec3(L, lo);
  push_vec3(L, hi);
  return 6;
}

static int mesh_getBackfaces(lua_State *L) {
  int bf = cs_mesh_backfaces(check_mesh(L, 1)->mesh);
  lua_pushstring(L, bf == CS_BACKFACES_IGNORE ? "ignore" : "collide");
  return 1;
}

/* mesh:getVertex(i) -> x, y, z */
static int mesh_getVertex(lua_State *L) {
  cs_Mesh *m = check_mesh(L, 1)->mesh;
  cs_Vec3 p;
  cs_mesh_vertex(m, check_index(L, 2, "vertex", cs_mesh_vertex_count(m)), &p);
  return push_vec3(L, p);
}

/* mesh:getTriangle(i) -> a, b, c (1-based vertex indices) */
static int mesh_getTriangle(lua_State *L) {
  cs_Mesh *m = check_mesh(L, 1)->mesh;
  unsigned idx[3];
  cs_mesh_triangle(m, check_index(L, 2, "triangle", cs_mesh_triangle_count(m)), idx);
  lua_pushinteger(L, (lua_Integer)idx[0] + 1);
  lua_pushinteger(L, (lua_Integer)idx[1] + 1);
  lua_pushinteger(L, (lua_Integer)idx[2] + 1);
  return 3;
}

static int mesh_getTag(lua_State *L) {
  cs_Mesh *m = check_mesh(L, 1)->mesh;
  lua_pushinteger(L, cs_mesh_tag(m, check_index(L, 2, "triangle", cs_mesh_triangle_count(m))));
  return 1;
}

/* mesh:setVertex(i, x, y, z), then a refit of the tree. */
static int mesh_setVertex(lua_State *L) {
  cs_Mesh *m = check_mesh(L, 1)->mesh;
  size_t i = check_index(L, 2, "vertex", cs_mesh_vertex_count(m));
  cs_Vec3 p = to_vec3(L, 3, XYZ);
  /* the core refits before the mesh's next use */
  if (cs_mesh_set_vertex(m, i, &p) != CS_OK) core_fail(L, cs_mesh_error(m), 1, NULL, "setVertex");
  return 0;
}

/* mesh:setVertices(vertices): every vertex, in newMesh's forms. */
static int mesh_setVertices(lua_State *L) {
  cs_Mesh *m = check_mesh(L, 1)->mesh;
  size_t n = 0;
  double *v = NULL;
  char b[NUMBUF], c[NUMBUF];
  if (lua_isnone(L, 2)) check_table(L, 2);
  lua_settop(L, 2);
  if (lua_type(L, 2) == LUA_TTABLE && csL_len(L, 2) == 0)   /* no vertices: the count's error,
                                                           ** not newMesh's "empty mesh" */
    check_array_end(L, 2, 2, 0, "vertex array");
  else
    v = read_vertices(L, 2, &n);
  if (n != cs_mesh_vertex_count(m))
    argfail(L, 2, "expected %s vertices (the mesh's vertexCount), got %s",
            fmtnum(b, (double)cs_mesh_vertex_count(m)), fmtnum(c, (double)n));
  if (cs_mesh_set_vertices(m, v) != CS_OK) core_fail(L, cs_mesh_error(m), 1, NULL, "setVertices");
  return 0;
}

/* }================================================================== */


const luaL_Reg mesh_meta[] = {
  {"__gc", mesh_close}, {"__close", mesh_close}, {"__tostring", mesh___tostring},
  {NULL, NULL}
};

const luaL_Reg mesh_methods[] = {
  {"triangleCount", mesh_triangleCount}, {"vertexCount", mesh_vertexCount},
  {"degenerateCount", mesh_degenerateCount}, {"bounds", mesh_bounds},
  {"memory", mesh_memory}, {"getBackfaces", mesh_getBackfaces},
  {"getVertex", mesh_getVertex}, {"getTriangle", mesh_getTriangle}, {"getTag", mesh_getTag},
  {"setVertex", mesh_setVertex}, {"setVertices", mesh_setVertices},
  {NULL, NULL}
};
