/*
** cs_lua.c: the Lua binding of collideslide, module `collideslide.core`.
** The only file that includes lua.h. It checks every argument (type, finite,
** range) before it builds anything, keeps the Lua-side lifetimes, and calls
** the C API of collideslide.h. Lua-facing functions are <type>_<luaName>.
**
** Lifetimes (no crash whatever order the collector takes):
**  - Mesh: its userdata owns the cs_Mesh. `users` counts the bodies of live
**    worlds that use it; the core mesh is freed only when the userdata is
**    closed/collected AND users is 0, so the binding never lets a world see a
**    freed mesh, even when finalizers resurrect objects.
**  - World: its user value is the table lightuserdata(BodyUD *) -> handle of
**    its live bodies. A handle's user value holds its world and its mesh, so
**    a world keeps its meshes alive through its handles.
**  - Body: one handle per cs_Body (world:add creates it; contacts, sweeps and
**    callbacks return the same object). No __gc: it never touches the core.
**    world:remove and the world's close mark it dead (body == NULL).
**  - Mover: owns its cs_Mover; its user value holds the filter, the handles
**    of the last call's contacts (resolved right after the call, while the
**    bodies are known to be alive) and the ground body's handle.
** Arrays (vertices, indices, tags, transforms) are read raw (lua_rawgeti, no
** __index) and must have no holes.
*/
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "collideslide.h"
#include "cs_compat.h"

#if defined(_WIN32)
#define CS_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define CS_EXPORT __attribute__((visibility("default")))
#else
#define CS_EXPORT
#endif

CS_EXPORT int luaopen_collideslide_core(lua_State *L);

#define MESH_MT   "collideslide.Mesh"
#define WORLD_MT  "collideslide.World"
#define BODY_MT   "collideslide.Body"
#define MOVER_MT  "collideslide.Mover"
#define SENSOR_MT "collideslide.Sensor"

#define MAX_ITERATIONS_CAP 1000     /* mover.maxIterations upper bound */
#define STACK_EXTRA 16              /* slots a callback needs (11 at most) */

enum { BUV_WORLD = 1, BUV_MESH, BUV_USERDATA };       /* body handle user value */
enum { MUV_FILTER = 1, MUV_CONTACTS, MUV_GROUND, MUV_EVENTS, MUV_GMOVER };  /* mover user value */

typedef struct MeshUD {
  cs_Mesh *mesh;        /* NULL once freed */
  long users;           /* bodies of live worlds that use it */
  int closed;           /* closed or collected: no more use from Lua */
} MeshUD;

typedef struct WorldUD {
  cs_World *world;      /* NULL once closed */
  int busy;             /* > 0 while a filter or a query callback may run */
  int moving;           /* inside collideAndSlide (its filter may run) */
} WorldUD;

typedef struct BodyUD {
  WorldUD *w;           /* alive as long as the handle (its user value) */
  MeshUD *m;            /* likewise */
  cs_Body *body;        /* NULL once removed or its world closed */
} BodyUD;

/* A sensor handle: like a body's (its user value holds its world, its mesh
** and its userdata at BUV_*), and kept in the same world table. */
typedef struct SensorUD {
  WorldUD *w;
  MeshUD *m;
  cs_Sensor *sensor;    /* NULL once removed or its world closed */
} SensorUD;

typedef struct MoverUD {
  cs_Mover *mover;      /* NULL once closed */
  int busy;             /* inside its own collideAndSlide (a filter runs) */
  size_t nhandles;      /* contact handles stored by the last call */
  size_t nevents;       /* sensor event handles stored by the last call */
} MoverUD;

static const char *const XYZ[3] = {"x", "y", "z"};
static const char *const DXYZ[3] = {"dx", "dy", "dz"};
static const char *const OXYZ[3] = {"ox", "oy", "oz"};
static const char *const PXYZ[3] = {"px", "py", "pz"};
static const char *const RXYZ[3] = {"rx", "ry", "rz"};
static const char *const VXYZ[3] = {"vx", "vy", "vz"};
static const char *const GXYZ[3] = {"gx", "gy", "gz"};
static const char *const MINXYZ[3] = {"minx", "miny", "minz"};
static const char *const MAXXYZ[3] = {"maxx", "maxy", "maxz"};
static const char *const QXYZW[4] = {"qx", "qy", "qz", "qw"};

/* {==================================================================
** Errors and argument checks
** ===================================================================*/

/* Raises "bad argument #arg to 'fname' (message)": through luaL_argerror
** (which knows the function's name and method calls) when fname is NULL,
** spelled out otherwise (metamethods, whose names differ among versions). */
static int vfail(lua_State *L, int arg, const char *fname, const char *fmt, va_list ap) {
  const char *msg = lua_pushvfstring(L, fmt, ap);
  if (fname == NULL) return luaL_argerror(L, arg, msg);
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fname, msg);
}

static int argfail(lua_State *L, int arg, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(L, arg, NULL, fmt, ap);
  va_end(ap);
  return 0;
}

static int fail_at(lua_State *L, int arg, const char *fname, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(L, arg, fname, fmt, ap);
  va_end(ap);
  return 0;
}

#define NUMBUF 32

/* A number as the messages show it: NaN, inf, -inf, or %.14g. */
static const char *fmtnum(char *buf, double d) {
  if (d != d) return "NaN";
  if (isinf(d)) return d > 0 ? "inf" : "-inf";
  snprintf(buf, NUMBUF, "%.14g", d);
  return buf;
}

/* The type of the value at i, as __name (our types) or the basic type. */
static const char *tname(lua_State *L, int i) {
  if (luaL_getmetafield(L, i, "__name") != 0) {   /* LUA_TNIL is 0 */
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1);                                /* anchored in the metatable */
    if (s != NULL) return s;
  }
  return luaL_typename(L, i);
}

/* A finite number at arg (numbers only, no string coercion). */
static double check_num(lua_State *L, int arg, const char *name) {
  double x;
  char b[NUMBUF];
  if (lua_type(L, arg) != LUA_TNUMBER)
    argfail(L, arg, "%s must be a number, got %s", name, tname(L, arg));
  x = (double)lua_tonumber(L, arg);
  if (!isfinite(x)) argfail(L, arg, "%s is %s", name, fmtnum(b, x));
  return x;
}

static cs_Vec3 check_vec3(lua_State *L, int arg, const char *const names[3]) {
  cs_Vec3 v;
  v.x = check_num(L, arg, names[0]);
  v.y = check_num(L, arg + 1, names[1]);
  v.z = check_num(L, arg + 2, names[2]);
  return v;
}

/* A radius component: finite, > 0, and with a finite inverse. */
static double check_radius(lua_State *L, int arg, const char *name) {
  double r = check_num(L, arg, name);
  char b[NUMBUF];
  if (!(r > 0)) argfail(L, arg, "%s must be > 0, got %s", name, fmtnum(b, r));
  if (!isfinite(1.0 / r)) argfail(L, arg, "%s is too small (%s)", name, fmtnum(b, r));
  return r;
}

/* 1 and *out when the value at i is a number with an integer value, 0 when
** it is no number, -1 when it is a number without one (2.5, NaN, inf). */
static int to_intval(lua_State *L, int i, double *out) {
  double d;
#if LUA_VERSION_NUM >= 503
  if (lua_isinteger(L, i)) { *out = (double)lua_tointeger(L, i); return 1; }
#endif
  if (lua_type(L, i) != LUA_TNUMBER) return 0;
  d = (double)lua_tonumber(L, i);
  *out = d;
  return (isfinite(d) && d == floor(d)) ? 1 : -1;
}

/* A 1-based index at arg in 1..n; returns it 0-based. */
static size_t check_index(lua_State *L, int arg, const char *what, size_t n) {
  double d = 0;
  char b[NUMBUF], c[NUMBUF];
  int r = to_intval(L, arg, &d);
  if (r == 0) argfail(L, arg, "%s index must be an integer, got %s", what, tname(L, arg));
  if (r < 0) argfail(L, arg, "%s index must be an integer, got %s", what, fmtnum(b, d));
  if (d < 1 || d > (double)n) {
    if (n == 0) argfail(L, arg, "%s %s out of range (there are none)", what, fmtnum(b, d));
    argfail(L, arg, "%s %s out of range 1..%s", what, fmtnum(b, d), fmtnum(c, (double)n));
  }
  return (size_t)d - 1;
}

/* A 32-bit mask from the value at i: integers in [-2^31, 2^32 - 1]
** (negative ones as two's complement, so ~0 and -1 are all bits). Returns 1,
** or 0 / -1 / -2 for no number / not an integer / out of range. */
static int to_mask(lua_State *L, int i, unsigned *out) {
  double d = 0;
  int r = to_intval(L, i, &d);
  if (r <= 0) return r;
  if (d < -2147483648.0 || d > 4294967295.0) return -2;
  *out = d < 0 ? (unsigned)(d + 4294967296.0) : (unsigned)d;
  return 1;
}

/* The mask at i; errors go to argument arg of fname (NULL: this function). */
static unsigned check_mask(lua_State *L, int i, int arg, const char *fname, const char *what) {
  unsigned m = 0;
  char b[NUMBUF];
  int r = to_mask(L, i, &m);
  if (r == 0) fail_at(L, arg, fname, "%s must be an integer bitmask, got %s", what, tname(L, i));
  if (r < 0) fail_at(L, arg, fname, "%s must be a 32-bit integer bitmask, got %s", what,
                     fmtnum(b, (double)lua_tonumber(L, i)));
  return m;
}

static unsigned opt_mask(lua_State *L, int arg, unsigned dflt) {
  return lua_isnoneornil(L, arg) ? dflt : check_mask(L, arg, arg, NULL, "mask");
}

/* Quaternion q (checked finite): rejects zero and lengths whose square
** underflows or overflows (the core normalises it). arg: first component. */
static void check_quat(lua_State *L, int arg, const double q[4]) {
  double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
    argfail(L, arg, "quaternion is zero");
  if (!(n2 >= DBL_MIN) || !isfinite(n2))
    argfail(L, arg, "quaternion length out of range");
}

static void check_up(lua_State *L, int arg, cs_Vec3 u) {
  double n2 = u.x * u.x + u.y * u.y + u.z * u.z;
  if (u.x == 0 && u.y == 0 && u.z == 0) argfail(L, arg, "up vector is zero");
  if (!(n2 >= DBL_MIN) || !isfinite(n2)) argfail(L, arg, "up vector length out of range");
}

/* t[i] (raw) as a number: returns LUA_TNUMBER and *out, or the type found. */
static int elem_num(lua_State *L, int t, size_t i, double *out) {
  int ty;
  lua_rawgeti(L, t, (int)i);
  ty = lua_type(L, -1);
  if (ty == LUA_TNUMBER) *out = (double)lua_tonumber(L, -1);
  lua_pop(L, 1);
  return ty;
}

/* n numbers from the table at t (stack index) into out, for table-valued
** fields such as position = {x, y, z}. Errors name the field and element. */
static void table_nums(lua_State *L, int arg, int t, const char *field,
                       const char *const names[], int n, double *out) {
  int i, ty;
  char b[NUMBUF];
  for (i = 0; i < n; i++) {
    ty = elem_num(L, t, (size_t)i + 1, &out[i]);
    if (ty != LUA_TNUMBER)
      argfail(L, arg, "%s: %s must be a number, got %s", field, names[i], lua_typename(L, ty));
    if (!isfinite(out[i])) argfail(L, arg, "%s: %s is %s", field, names[i], fmtnum(b, out[i]));
  }
}

/* Rejects integer keys past n, the border csL_len found: a hole before them. */
static void check_array_end(lua_State *L, int arg, int t, size_t n, const char *what) {
  char b[NUMBUF], c[NUMBUF];
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    if (lua_type(L, -2) == LUA_TNUMBER) {
      double k = (double)lua_tonumber(L, -2);
      if (k > (double)n && k == floor(k))
        argfail(L, arg, "%s has a hole at %s (element %s is set)", what,
                fmtnum(b, (double)n + 1), fmtnum(c, k));
    }
    lua_pop(L, 1);
  }
}

static void *check_type(lua_State *L, int arg, const char *mt) {
  void *p = csL_testudata(L, arg, mt);
  if (p == NULL) argfail(L, arg, "%s expected, got %s", mt, tname(L, arg));
  return p;
}

static cs_Alloc lua_alloc(lua_State *L) {
  cs_Alloc a;
  a.fn = lua_getallocf(L, &a.ud);     /* lua_Alloc has cs_AllocFn's shape */
  return a;
}

static int status_error(lua_State *L, const char *fname, cs_Status s) {
  return luaL_error(L, "%s: %s", fname, cs_status_string(s));
}

/* }================================================================== */

/* {==================================================================
** Meshes
** ===================================================================*/

static MeshUD *check_mesh(lua_State *L, int arg) {
  MeshUD *m = (MeshUD *)check_type(L, arg, MESH_MT);
  if (m->closed || m->mesh == NULL) argfail(L, arg, "attempt to use a closed/collected Mesh");
  return m;
}

/* A world no longer uses the mesh for one body: free it if it was the last
** use of a mesh Lua has already closed or collected. */
static void mesh_release(MeshUD *m) {
  if (--m->users <= 0) {
    m->users = 0;
    if (m->closed && m->mesh != NULL) { cs_mesh_free(m->mesh); m->mesh = NULL; }
  }
}

static int vertex_fail(lua_State *L, int arg, size_t v, int comp, int ty, size_t elem) {
  char b[NUMBUF], c[NUMBUF];
  if (ty == LUA_TNIL && elem > 0)
    return argfail(L, arg, "vertex %s: %s is nil (a hole at element %s)", fmtnum(b, (double)v),
                   XYZ[comp], fmtnum(c, (double)elem));
  return argfail(L, arg, "vertex %s: %s must be a number, got %s", fmtnum(b, (double)v),
                 XYZ[comp], lua_typename(L, ty));
}

/* Coordinate comp (0..2) of vertex v (1-based), read as x with Lua type ty:
** a finite number, else the error (elem: its position in a flat array, 0 in
** the table form). */
static void check_coordinate(lua_State *L, int arg, int ty, double x, size_t v, int comp,
                             size_t elem) {
  char b[NUMBUF], c[NUMBUF];
  if (ty != LUA_TNUMBER) vertex_fail(L, arg, v, comp, ty, elem);
  if (!isfinite(x))
    argfail(L, arg, "vertex %s: %s is %s", fmtnum(b, (double)v), XYZ[comp], fmtnum(c, x));
}

/* Reads the vertices at arg (flat {x1, y1, z1, ...} or {{x, y, z}, ...},
** told apart by the type of the first element) into a scratch userdata it
** pushes: the collector frees it, so a raise leaks nothing. */
static double *read_vertices(lua_State *L, int arg, size_t *count) {
  size_t len, n, i;
  int first, k, ty;
  double *v;
  char b[NUMBUF];
  luaL_checktype(L, arg, LUA_TTABLE);
  len = csL_len(L, arg);
  if (len == 0) argfail(L, arg, "empty mesh (no vertices)");
  lua_rawgeti(L, arg, 1);
  first = lua_type(L, -1);
  lua_pop(L, 1);
  if (first == LUA_TNIL) argfail(L, arg, "vertex 1 is nil (a hole at element 1)");
  if (first != LUA_TNUMBER && first != LUA_TTABLE)
    argfail(L, arg, "vertex 1 must be a number (flat array) or a table {x, y, z}, got %s",
            lua_typename(L, first));
  check_array_end(L, arg, arg, len, "vertex array");
  if (first == LUA_TNUMBER && len % 3 != 0)
    argfail(L, arg, "flat vertex array has %s numbers, not a multiple of 3", fmtnum(b, (double)len));
  n = first == LUA_TNUMBER ? len / 3 : len;
  if (n > 0xfffffffeu) argfail(L, arg, "too many vertices");
  v = (double *)lua_newuserdata(L, n * 3 * sizeof(double));
  if (first == LUA_TNUMBER) {
    for (i = 0; i < 3 * n; i++) {
      ty = elem_num(L, arg, i + 1, &v[i]);
      check_coordinate(L, arg, ty, v[i], i / 3 + 1, (int)(i % 3), i + 1);
    }
  } else {
    for (i = 0; i < n; i++) {
      lua_rawgeti(L, arg, (int)i + 1);
      ty = lua_type(L, -1);
      if (ty == LUA_TNIL) argfail(L, arg, "vertex %s is nil (a hole)", fmtnum(b, (double)i + 1));
      if (ty != LUA_TTABLE)
        argfail(L, arg, "vertex %s must be a table {x, y, z}, got %s", fmtnum(b, (double)i + 1),
                lua_typename(L, ty));
      for (k = 0; k < 3; k++) {
        ty = elem_num(L, lua_gettop(L), (size_t)k + 1, &v[3 * i + k]);
        check_coordinate(L, arg, ty, v[3 * i + k], i + 1, k, 0);
      }
      lua_pop(L, 1);
    }
  }
  *count = n;
  return v;
}

/* One index of triangle tri (1-based): an integer in 1..nverts, 0-based. */
static unsigned index_value(lua_State *L, int arg, int t, size_t elem, size_t tri, size_t nverts) {
  double d = 0;
  char b[NUMBUF], c[NUMBUF], e[NUMBUF];
  int ty = elem_num(L, t, elem, &d);
  if (ty == LUA_TNIL)
    argfail(L, arg, "triangle %s: index is nil (a hole)", fmtnum(b, (double)tri));
  if (ty != LUA_TNUMBER)
    argfail(L, arg, "triangle %s: index must be an integer, got %s", fmtnum(b, (double)tri),
            lua_typename(L, ty));
  if (!isfinite(d) || d != floor(d))
    argfail(L, arg, "triangle %s: index %s is not an integer", fmtnum(b, (double)tri), fmtnum(c, d));
  if (d < 1 || d > (double)nverts)
    argfail(L, arg, "triangle %s: index %s out of range 1..%s", fmtnum(b, (double)tri),
            fmtnum(c, d), fmtnum(e, (double)nverts));
  return (unsigned)d - 1;
}

/* Reads the indices at arg (flat {a1, b1, c1, ...} or {{a, b, c}, ...}),
** 1-based in Lua, into a scratch userdata of 0-based ones it pushes. */
static unsigned *read_indices(lua_State *L, int arg, size_t nverts, size_t *ntris) {
  size_t len, n, i;
  int first, k, ty;
  unsigned *ix;
  char b[NUMBUF];
  luaL_checktype(L, arg, LUA_TTABLE);
  len = csL_len(L, arg);
  if (len == 0) argfail(L, arg, "empty mesh (no triangles)");
  lua_rawgeti(L, arg, 1);
  first = lua_type(L, -1);
  lua_pop(L, 1);
  if (first != LUA_TNUMBER && first != LUA_TTABLE)
    argfail(L, arg, "triangle 1: index must be an integer (flat array) or a table {a, b, c}, got %s",
            lua_typename(L, first));
  check_array_end(L, arg, arg, len, "index array");
  if (first == LUA_TNUMBER && len % 3 != 0)
    argfail(L, arg, "index count %s is not a multiple of 3", fmtnum(b, (double)len));
  n = first == LUA_TNUMBER ? len / 3 : len;
  if (n > 0x3fffffffu) argfail(L, arg, "too many triangles");
  ix = (unsigned *)lua_newuserdata(L, n * 3 * sizeof(unsigned));
  if (first == LUA_TNUMBER) {
    for (i = 0; i < 3 * n; i++) ix[i] = index_value(L, arg, arg, i + 1, i / 3 + 1, nverts);
  } else {
    for (i = 0; i < n; i++) {
      lua_rawgeti(L, arg, (int)i + 1);
      ty = lua_type(L, -1);
      if (ty != LUA_TTABLE)
        argfail(L, arg, "triangle %s must be a table {a, b, c}, got %s", fmtnum(b, (double)i + 1),
                lua_typename(L, ty));
      for (k = 0; k < 3; k++)
        ix[3 * i + k] = index_value(L, arg, lua_gettop(L), (size_t)k + 1, i + 1, nverts);
      lua_pop(L, 1);
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
  if (len != ntris)
    argfail(L, arg, "options.tags has %s entries, expected %s (one per triangle)",
            fmtnum(b, (double)len), fmtnum(c, (double)ntris));
  tags = (int *)lua_newuserdata(L, (ntris ? ntris : 1) * sizeof(int));
  for (i = 0; i < ntris; i++) {
    ty = elem_num(L, t, i + 1, &d);
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
static int read_options(lua_State *L, int arg, int *backfaces) {
  int tags = 0;
  *backfaces = CS_BACKFACES_COLLIDE;
  if (lua_isnoneornil(L, arg)) return 0;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    if (k == NULL) argfail(L, arg, "unknown option (a %s key)", luaL_typename(L, -2));
    if (strcmp(k, "tags") != 0 && strcmp(k, "backfaces") != 0)
      argfail(L, arg, "unknown option '%s' (options are tags, backfaces)", k);
    lua_pop(L, 1);
  }
  lua_pushliteral(L, "backfaces");
  lua_rawget(L, arg);
  if (!lua_isnil(L, -1)) {
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
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
static int cs_newMesh(lua_State *L) {
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
  m = (MeshUD *)lua_newuserdata(L, sizeof(MeshUD));
  m->mesh = NULL; m->users = 0; m->closed = 0;
  csL_setmetatable(L, MESH_MT);
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
  MeshUD *m = (MeshUD *)check_type(L, 1, MESH_MT);
  if (!m->closed) {
    m->closed = 1;
    if (m->users <= 0 && m->mesh != NULL) { cs_mesh_free(m->mesh); m->mesh = NULL; }
  }
  return 0;
}

static int mesh___tostring(lua_State *L) {
  MeshUD *m = (MeshUD *)check_type(L, 1, MESH_MT);
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
  lua_pushnumber(L, lo.x); lua_pushnumber(L, lo.y); lua_pushnumber(L, lo.z);
  lua_pushnumber(L, hi.x); lua_pushnumber(L, hi.y); lua_pushnumber(L, hi.z);
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
  cs_Vec3 p = cs_mesh_vertex(m, check_index(L, 2, "vertex", cs_mesh_vertex_count(m)));
  lua_pushnumber(L, p.x); lua_pushnumber(L, p.y); lua_pushnumber(L, p.z);
  return 3;
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
  cs_Vec3 p = check_vec3(L, 3, XYZ);
  cs_mesh_set_vertex(m, i, p);   /* the core refits before the mesh's next use */
  return 0;
}

/* mesh:setVertices(vertices): every vertex, in newMesh's forms. */
static int mesh_setVertices(lua_State *L) {
  cs_Mesh *m = check_mesh(L, 1)->mesh;
  size_t n = 0;
  double *v;
  char b[NUMBUF], c[NUMBUF];
  lua_settop(L, 2);
  v = read_vertices(L, 2, &n);
  if (n != cs_mesh_vertex_count(m))
    argfail(L, 2, "expected %s vertices (the mesh's vertexCount), got %s",
            fmtnum(b, (double)cs_mesh_vertex_count(m)), fmtnum(c, (double)n));
  cs_mesh_set_vertices(m, v);
  return 0;
}

/* }================================================================== */

/* {==================================================================
** Worlds and bodies
** ===================================================================*/

static WorldUD *check_world(lua_State *L, int arg) {
  WorldUD *w = (WorldUD *)check_type(L, arg, WORLD_MT);
  if (w->world == NULL) argfail(L, arg, "attempt to use a closed/collected World");
  return w;
}

/* Adding or removing bodies from inside one of the world's own filters or
** query callbacks would change the body list the core is walking: refused. */
static void check_idle(lua_State *L, WorldUD *w, const char *fname) {
  if (w->busy > 0)
    luaL_error(L, "%s: the world is busy (called from inside a filter or a query "
               "callback of the same world)", fname);
}

/* Moves and sweeps use the world's scratch, which a collideAndSlide in
** progress (its filter running) holds: refused. Queries are re-entrant. */
static void check_not_moving(lua_State *L, WorldUD *w, const char *fname) {
  if (w->moving)
    luaL_error(L, "%s: the world is busy (called from inside a filter of the same world)", fname);
}

static BodyUD *check_body(lua_State *L, int arg) {
  BodyUD *b = (BodyUD *)check_type(L, arg, BODY_MT);
  if (b->w->world == NULL) argfail(L, arg, "attempt to use a body of a closed/collected World");
  if (b->body == NULL) argfail(L, arg, "body was removed from its world");
  return b;
}

/* Pushes the handle of body (nil for NULL) from the bodies table at t.
** Allocates nothing: safe inside core callbacks. */
static void push_body(lua_State *L, int t, const cs_Body *body) {
  if (body == NULL) lua_pushnil(L);
  else csL_rawgetp(L, t, cs_body_get_userdata(body));
}

/* Pushes what a contact met: its body's handle, or the other mover's
** (added movers are in the same table, keyed by their MoverUD). */
static void push_other(lua_State *L, int t, const cs_Contact *c) {
  if (c->mover != NULL) csL_rawgetp(L, t, cs_mover_get_userdata(c->mover));
  else push_body(L, t, c->body);
}

/* A transform as body:setTransform takes it: n is 3, 7, 10 or 16. */
typedef struct Xform { int n; double v[16]; } Xform;

static const char *const TRS_NAMES[10] = {"x", "y", "z", "qx", "qy", "qz", "qw", "sx", "sy", "sz"};

static void check_xform(lua_State *L, int first, Xform *x) {
  int n = lua_gettop(L) - first + 1, i, ty, table = 0;
  char b[NUMBUF], c[NUMBUF];
  x->n = 0;
  if (n == 1 && lua_istable(L, first)) {
    size_t len = csL_len(L, first);
    table = 1;
    if (len != 3 && len != 7 && len != 10 && len != 16)
      argfail(L, first, "transform table has %s numbers, expected 3, 7, 10 or 16",
              fmtnum(b, (double)len));
    n = (int)len;
    for (i = 0; i < n; i++) {
      ty = elem_num(L, first, (size_t)i + 1, &x->v[i]);
      if (ty != LUA_TNUMBER)
        argfail(L, first, "transform element %d must be a number, got %s", i + 1, lua_typename(L, ty));
      if (!isfinite(x->v[i]))
        argfail(L, first, "transform element %d is %s", i + 1, fmtnum(b, x->v[i]));
    }
  } else if (n == 3 || n == 7 || n == 10 || n == 16) {
    for (i = 0; i < n; i++) {
      if (n == 16) snprintf(c, sizeof c, "m[%d]", i + 1);
      x->v[i] = check_num(L, first + i, n == 16 ? c : TRS_NAMES[i]);
    }
  } else {
    argfail(L, first, "transform: expected 3, 7, 10 or 16 numbers or a table of 16, got %d values", n);
  }
  x->n = n;
  if (n == 7 || n == 10) check_quat(L, table ? first : first + 3, x->v + 3);
  if (n == 10) {
    for (i = 7; i < 10; i++)
      if (x->v[i] == 0 || !isfinite(1.0 / x->v[i]))
        argfail(L, table ? first : first + i, "scale %s must be nonzero, got %s", TRS_NAMES[i],
                fmtnum(b, x->v[i]));
  }
  if (n == 16) {
    const double *m = x->v;
    double det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
               + m[8] * (m[1] * m[6] - m[5] * m[2]);
    if (fabs(m[3]) > 1e-9 || fabs(m[7]) > 1e-9 || fabs(m[11]) > 1e-9 || fabs(m[15] - 1) > 1e-9)
      argfail(L, first, "matrix is not affine (its last row must be 0, 0, 0, 1)");
    if (det == 0 || !isfinite(det) || !isfinite(1.0 / det))
      argfail(L, first, "matrix is not invertible (determinant %s)", fmtnum(b, det));
    /* the inverse (cofactors / det, as the core computes it) must be finite */
    {
      double id = 1.0 / det, cof[9];
      cof[0] = m[5] * m[10] - m[9] * m[6]; cof[1] = m[8] * m[6] - m[4] * m[10];
      cof[2] = m[4] * m[9] - m[8] * m[5]; cof[3] = m[9] * m[2] - m[1] * m[10];
      cof[4] = m[0] * m[10] - m[8] * m[2]; cof[5] = m[8] * m[1] - m[0] * m[9];
      cof[6] = m[1] * m[6] - m[5] * m[2]; cof[7] = m[4] * m[2] - m[0] * m[6];
      cof[8] = m[0] * m[5] - m[4] * m[1];
      for (i = 0; i < 9; i++)
        if (!isfinite(cof[i] * id))
          argfail(L, first, "matrix is not invertible (its inverse overflows)");
    }
  }
}

static cs_Status apply_xform(cs_Body *body, const Xform *x) {
  cs_Vec3 t, s;
  double q[4] = {0, 0, 0, 1};
  if (x->n == 16) return cs_body_set_matrix(body, x->v);
  t.x = x->v[0]; t.y = x->v[1]; t.z = x->v[2];
  s.x = s.y = s.z = 1;
  if (x->n >= 7) { q[0] = x->v[3]; q[1] = x->v[4]; q[2] = x->v[5]; q[3] = x->v[6]; }
  if (x->n == 10) { s.x = x->v[7]; s.y = x->v[8]; s.z = x->v[9]; }
  cs_body_set_transform(body, t, q, s);
  return CS_OK;
}

/* cs.newWorld() -> world */
static int cs_newWorld(lua_State *L) {
  cs_Alloc a = lua_alloc(L);
  cs_Status s;
  WorldUD *w = (WorldUD *)csL_newudata(L, sizeof(WorldUD));
  w->world = NULL; w->busy = 0; w->moving = 0;
  csL_setmetatable(L, WORLD_MT);
  lua_newtable(L);                      /* lightuserdata(BodyUD *) -> handle */
  csL_setuservalue(L, -2);
  s = cs_world_new(&a, &w->world);
  if (s != CS_OK) { w->world = NULL; return status_error(L, "newWorld", s); }
  return 1;
}

/* Serves __gc and __close; safe to call twice. Frees the core world, marks
** its handles dead and releases their meshes. Handles and meshes are still
** valid memory here even when collected in the same cycle: objects being
** finalized, and all they reach, are freed in the next cycle only. */
static int world_close(lua_State *L) {
  WorldUD *w = (WorldUD *)check_type(L, 1, WORLD_MT);
  if (w->world == NULL) return 0;
  if (w->busy > 0) return luaL_error(L, "cannot close a World while a filter or query callback of it runs");
  cs_world_free(w->world);
  w->world = NULL;
  csL_getuservalue(L, 1);
  if (!lua_istable(L, -1)) return 0;
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    if (csL_testudata(L, -1, MOVER_MT) != NULL) {
      /* an added mover: the core world forgets it as it is freed */
    } else if (csL_testudata(L, -1, SENSOR_MT) != NULL) {
      SensorUD *sn = (SensorUD *)lua_touserdata(L, -1);
      if (sn->sensor != NULL) { sn->sensor = NULL; mesh_release(sn->m); }
    } else {
      BodyUD *b = (BodyUD *)lua_touserdata(L, -1);
      if (b != NULL && b->body != NULL) { b->body = NULL; mesh_release(b->m); }
    }
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, -4);                  /* clearing a visited field is allowed */
  }
  return 0;
}

static int world___tostring(lua_State *L) {
  WorldUD *w = (WorldUD *)check_type(L, 1, WORLD_MT);
  if (w->world == NULL) lua_pushfstring(L, WORLD_MT " (closed): %p", (void *)w);
  else lua_pushfstring(L, WORLD_MT " (%d bodies): %p", (int)cs_world_body_count(w->world), (void *)w);
  return 1;
}

/* world:add(mesh [, transform...]) -> body */
static int world_add(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MeshUD *m = check_mesh(L, 2);
  Xform x;
  BodyUD *b;
  cs_Body *body = NULL;
  cs_Status s;
  x.n = 0;
  if (lua_gettop(L) >= 3 && !(lua_gettop(L) == 3 && lua_isnil(L, 3))) check_xform(L, 3, &x);
  check_idle(L, w, "add");
  lua_settop(L, 2);
  b = (BodyUD *)csL_newudata(L, sizeof(BodyUD));              /* 3 */
  b->w = w; b->m = m; b->body = NULL;
  csL_setmetatable(L, BODY_MT);
  lua_createtable(L, 3, 0);
  lua_pushvalue(L, 1); lua_rawseti(L, -2, BUV_WORLD);
  lua_pushvalue(L, 2); lua_rawseti(L, -2, BUV_MESH);
  csL_setuservalue(L, 3);
  csL_getuservalue(L, 1);                                     /* 4: bodies */
  lua_pushvalue(L, 3);
  csL_rawsetp(L, 4, b);                /* the last step that may raise */
  s = cs_world_add(w->world, m->mesh, &body);
  if (s == CS_OK) {
    cs_body_set_userdata(body, b);
    if (x.n != 0) s = apply_xform(body, &x);
    if (s != CS_OK) cs_world_remove(w->world, body);
  }
  if (s != CS_OK) {
    lua_pushnil(L);
    csL_rawsetp(L, 4, b);              /* setting a field to nil never raises */
    if (s == CS_EINVAL) return argfail(L, 3, "matrix is not invertible");
    return status_error(L, "add", s);
  }
  b->body = body;
  m->users++;
  lua_settop(L, 3);
  return 1;
}

/* world:remove(body): the handle is dead afterwards. */
static int world_remove(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  BodyUD *b = (BodyUD *)check_type(L, 2, BODY_MT);
  if (b->w != w) argfail(L, 2, "body belongs to another world");
  if (b->body == NULL) argfail(L, 2, "body was removed from its world");
  check_idle(L, w, "remove");
  cs_world_remove(w->world, b->body);
  b->body = NULL;
  csL_getuservalue(L, 1);
  lua_pushnil(L);
  csL_rawsetp(L, -2, b);
  mesh_release(b->m);
  return 0;
}

static int world_bodyCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_world_body_count(check_world(L, 1)->world));
  return 1;
}

static int check_tag(lua_State *L, int arg) {
  double d = 0;
  char b[NUMBUF];
  int r = to_intval(L, arg, &d);
  if (r == 0) argfail(L, arg, "tag must be an integer, got %s", tname(L, arg));
  if (r < 0 || d < -2147483648.0 || d > 2147483647.0)
    argfail(L, arg, "tag must be a 32-bit integer, got %s", fmtnum(b, d));
  return (int)d;
}

/* world:setFriction(tag, coefficient in [0, 1]) */
static int world_setFriction(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  int tag = check_tag(L, 2);
  double c = check_num(L, 3, "coefficient");
  char b[NUMBUF];
  cs_Status s;
  if (c < 0 || c > 1) argfail(L, 3, "coefficient must be in [0, 1], got %s", fmtnum(b, c));
  s = cs_world_set_friction(w->world, tag, c);
  if (s != CS_OK) return status_error(L, "setFriction", s);
  return 0;
}

static int world_getFriction(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  lua_pushnumber(L, cs_world_get_friction(w->world, check_tag(L, 2)));
  return 1;
}

/* body:setTransform(...): see check_xform for the forms. */
static int body_setTransform(lua_State *L) {
  BodyUD *b = check_body(L, 1);
  Xform x;
  if (lua_gettop(L) < 2) argfail(L, 2, "transform: expected 3, 7, 10 or 16 numbers or a table of 16, got none");
  check_xform(L, 2, &x);
  if (apply_xform(b->body, &x) != CS_OK) argfail(L, 2, "matrix is not invertible");
  return 0;
}

/* body:getTransform() -> 16 numbers, a column-major 4x4 matrix */
static int body_getTransform(lua_State *L) {
  double m[16];
  int i;
  cs_body_get_matrix(check_body(L, 1)->body, m);
  luaL_checkstack(L, 16, NULL);
  for (i = 0; i < 16; i++) lua_pushnumber(L, m[i]);
  return 16;
}

static int body_setVelocity(lua_State *L) {
  BodyUD *b = check_body(L, 1);
  cs_body_set_velocity(b->body, check_vec3(L, 2, VXYZ));
  return 0;
}

static int body_getVelocity(lua_State *L) {
  cs_Vec3 v = cs_body_get_velocity(check_body(L, 1)->body);
  lua_pushnumber(L, v.x); lua_pushnumber(L, v.y); lua_pushnumber(L, v.z);
  return 3;
}

static int body_setEnabled(lua_State *L) {
  BodyUD *b = check_body(L, 1);
  if (lua_type(L, 2) != LUA_TBOOLEAN) argfail(L, 2, "enabled must be a boolean, got %s", tname(L, 2));
  cs_body_set_enabled(b->body, lua_toboolean(L, 2));
  return 0;
}

static int body_isEnabled(lua_State *L) {
  lua_pushboolean(L, cs_body_get_enabled(check_body(L, 1)->body));
  return 1;
}

static int body_getMesh(lua_State *L) {
  check_body(L, 1);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, BUV_MESH);
  return 1;
}

/* body:getBounds() -> minx, miny, minz, maxx, maxy, maxz (world space) */
static int body_getBounds(lua_State *L) {
  cs_Vec3 lo, hi;
  cs_body_bounds(check_body(L, 1)->body, &lo, &hi);
  lua_pushnumber(L, lo.x); lua_pushnumber(L, lo.y); lua_pushnumber(L, lo.z);
  lua_pushnumber(L, hi.x); lua_pushnumber(L, hi.y); lua_pushnumber(L, hi.z);
  return 6;
}

static int body_isRemoved(lua_State *L) {
  BodyUD *b = (BodyUD *)check_type(L, 1, BODY_MT);
  lua_pushboolean(L, b->body == NULL);
  return 1;
}

/* Fields: layers (a bitmask, default 1) and userdata (any Lua value). The
** userdata stays readable and writable after the body's removal. */
static int body___index(lua_State *L) {
  const char *k;
  check_type(L, 1, BODY_MT);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));                /* methods */
  if (!lua_isnil(L, -1) || lua_type(L, 2) != LUA_TSTRING) return 1;
  k = lua_tostring(L, 2);
  if (strcmp(k, "layers") == 0) {
    csL_pushuint(L, cs_body_get_layers(check_body(L, 1)->body));
  } else if (strcmp(k, "userdata") == 0) {
    csL_getuservalue(L, 1);
    lua_rawgeti(L, -1, BUV_USERDATA);
  }
  return 1;
}

static int body___newindex(lua_State *L) {
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  check_type(L, 1, BODY_MT);
  if (k != NULL && strcmp(k, "layers") == 0) {
    unsigned mask = check_mask(L, 3, 3, "__newindex", "layers");
    cs_body_set_layers(check_body(L, 1)->body, mask);
  } else if (k != NULL && strcmp(k, "userdata") == 0) {
    csL_getuservalue(L, 1);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, BUV_USERDATA);
  } else if (k != NULL) {
    fail_at(L, 2, "__newindex", "unknown Body field '%s' (fields: layers, userdata)", k);
  } else {
    fail_at(L, 2, "__newindex", "unknown Body field (a %s key)", luaL_typename(L, 2));
  }
  return 0;
}

static int body___tostring(lua_State *L) {
  BodyUD *b = (BodyUD *)check_type(L, 1, BODY_MT);
  if (b->body == NULL) lua_pushfstring(L, BODY_MT " (removed): %p", (void *)b);
  else lua_pushfstring(L, BODY_MT " (mesh of %d triangles): %p",
                       (int)cs_mesh_triangle_count(cs_body_mesh(b->body)), (void *)b);
  return 1;
}

/* }================================================================== */

/* {==================================================================
** Movers
** ===================================================================*/

enum { MF_MAXIT, MF_SKIN, MF_SLOPE, MF_BLOCK, MF_STEP, MF_SNAP, MF_MASK, MF_LAYERS, MF_FILTER,
       MF_N };

static const char *const mover_fields[MF_N + 1] = {
  "maxIterations", "skin", "slopeLimit", "blockSteepSlopes", "stepHeight",
  "snapDistance", "collidesWith", "layers", "filter", NULL
};

static const cs_Setting mover_settings[MF_FILTER] = {
  CS_MAX_ITERATIONS, CS_SKIN, CS_SLOPE_LIMIT, CS_BLOCK_STEEP_SLOPES, CS_STEP_HEIGHT,
  CS_SNAP_DISTANCE, CS_COLLIDES_WITH, CS_LAYERS
};

static int mover_field(const char *k) {
  int i;
  for (i = 0; i < MF_N; i++)
    if (strcmp(mover_fields[i], k) == 0) return i;
  return -1;
}

static MoverUD *check_mover(lua_State *L, int arg) {
  MoverUD *m = (MoverUD *)csL_testudata(L, arg, MOVER_MT);
  if (m == NULL) {    /* a character (the Lua layer's) holds its mover: name the fix */
    const char *t = tname(L, arg);
    argfail(L, arg, "%s expected, got %s%s", MOVER_MT, t,
            strcmp(t, "collideslide.Character") == 0 ? " (pass character.mover)" : "");
  }
  if (m->mover == NULL) argfail(L, arg, "attempt to use a closed/collected Mover");
  return m;
}

/* A mover that is moving (its filter runs) cannot be changed. */
static MoverUD *check_mover_idle(lua_State *L, int arg, const char *fname) {
  MoverUD *m = check_mover(L, arg);
  if (m->busy) luaL_error(L, "%s: the mover is busy (called from inside its own filter)", fname);
  return m;
}

/* The value at vi for field f, checked; the number cs_mover_set takes (the
** filter is only checked). Errors go to argument arg of fname (NULL: the
** running function). */
static double check_field(lua_State *L, int f, int vi, int arg, const char *fname) {
  const char *name = mover_fields[f];
  double d = 0;
  char b[NUMBUF];
  int r;
  switch (f) {
    case MF_MAXIT:
      r = to_intval(L, vi, &d);
      if (r == 0) fail_at(L, arg, fname, "%s must be an integer, got %s", name, tname(L, vi));
      if (r < 0) fail_at(L, arg, fname, "%s must be an integer, got %s", name, fmtnum(b, d));
      if (d < 1 || d > MAX_ITERATIONS_CAP)
        fail_at(L, arg, fname, "%s must be in 1..%d, got %s", name, MAX_ITERATIONS_CAP, fmtnum(b, d));
      return d;
    case MF_BLOCK:
      if (lua_type(L, vi) != LUA_TBOOLEAN)
        fail_at(L, arg, fname, "%s must be a boolean, got %s", name, tname(L, vi));
      return lua_toboolean(L, vi) ? 1 : 0;
    case MF_MASK: case MF_LAYERS:
      return (double)check_mask(L, vi, arg, fname, name);
    case MF_FILTER:
      if (!lua_isnil(L, vi) && lua_type(L, vi) != LUA_TFUNCTION)
        fail_at(L, arg, fname, "%s must be a function or nil, got %s", name, tname(L, vi));
      return 0;
    default: break;
  }
  if (f == MF_SKIN && lua_isnil(L, vi)) return -1;       /* back to auto */
  if (lua_type(L, vi) != LUA_TNUMBER)
    fail_at(L, arg, fname, "%s must be a number, got %s", name, tname(L, vi));
  d = (double)lua_tonumber(L, vi);
  if (!isfinite(d)) fail_at(L, arg, fname, "%s is %s", name, fmtnum(b, d));
  if (f == MF_SLOPE) {
    if (d < 0 || d > 90) fail_at(L, arg, fname, "%s must be in [0, 90] degrees, got %s", name, fmtnum(b, d));
  } else if (d < 0) {
    fail_at(L, arg, fname, "%s must be >= 0, got %s", name, fmtnum(b, d));
  }
  return d;
}

static void push_field(lua_State *L, MoverUD *m, int self, int f) {
  double d;
  cs_Vec3 r;
  if (f == MF_FILTER) {
    csL_getuservalue(L, self);
    lua_rawgeti(L, -1, MUV_FILTER);
    return;
  }
  d = cs_mover_get(m->mover, mover_settings[f]);
  switch (f) {
    case MF_MAXIT: lua_pushinteger(L, (lua_Integer)d); break;
    case MF_BLOCK: lua_pushboolean(L, d != 0); break;
    case MF_MASK: case MF_LAYERS: csL_pushuint(L, (unsigned)d); break;
    case MF_SKIN:
      if (d < 0) {                      /* auto: 1% of the smallest radius */
        r = cs_mover_get_radius(m->mover);
        d = 0.01 * (r.x < r.y ? (r.x < r.z ? r.x : r.z) : (r.y < r.z ? r.y : r.z));
      }
      lua_pushnumber(L, d);
      break;
    default: lua_pushnumber(L, d); break;
  }
}

/* cs.newMover{radius = r | {rx, ry, rz}, position = {x, y, z},
**   orientation = {qx, qy, qz, qw}, up = {x, y, z}, <any field>} -> mover */
static int cs_newMover(lua_State *L) {
  double vals[MF_N], q[4] = {0, 0, 0, 1}, r[3] = {0.5, 0.5, 0.5}, p[3] = {0, 0, 0}, up[3] = {0, 1, 0};
  int have[MF_N], hq = 0, hr = 0, hp = 0, hu = 0, f;
  cs_Alloc a = lua_alloc(L);
  cs_Status s;
  MoverUD *m;
  cs_Vec3 v;
  char b[NUMBUF];
  memset(have, 0, sizeof have);
  memset(vals, 0, sizeof vals);
  lua_settop(L, 1);
  if (lua_isnil(L, 1)) { lua_pop(L, 1); lua_newtable(L); }
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    int vi = lua_gettop(L);
    if (k == NULL) argfail(L, 1, "unknown Mover field (a %s key)", luaL_typename(L, -2));
    if (strcmp(k, "radius") == 0) {
      hr = 1;
      if (lua_type(L, vi) == LUA_TNUMBER) {
        r[0] = r[1] = r[2] = (double)lua_tonumber(L, vi);
        if (!isfinite(r[0])) argfail(L, 1, "radius is %s", fmtnum(b, r[0]));
      } else if (lua_istable(L, vi)) {
        table_nums(L, 1, vi, "radius", RXYZ, 3, r);
      } else {
        argfail(L, 1, "radius must be a number or a table {rx, ry, rz}, got %s", tname(L, vi));
      }
      for (f = 0; f < 3; f++)
        if (!(r[f] > 0) || !isfinite(1.0 / r[f]))
          argfail(L, 1, "radius: %s must be > 0, got %s", RXYZ[f], fmtnum(b, r[f]));
    } else if (strcmp(k, "position") == 0 || strcmp(k, "up") == 0) {
      int isup = k[0] == 'u';
      if (!lua_istable(L, vi)) argfail(L, 1, "%s must be a table {x, y, z}, got %s", k, tname(L, vi));
      table_nums(L, 1, vi, k, XYZ, 3, isup ? up : p);
      if (isup) { v.x = up[0]; v.y = up[1]; v.z = up[2]; check_up(L, 1, v); hu = 1; }
      else hp = 1;
    } else if (strcmp(k, "orientation") == 0) {
      if (!lua_istable(L, vi))
        argfail(L, 1, "orientation must be a table {qx, qy, qz, qw}, got %s", tname(L, vi));
      table_nums(L, 1, vi, "orientation", QXYZW, 4, q);
      check_quat(L, 1, q);
      hq = 1;
    } else if ((f = mover_field(k)) >= 0) {
      vals[f] = check_field(L, f, vi, 1, NULL);
      have[f] = 1;
    } else {
      argfail(L, 1, "unknown Mover field '%s'", k);
    }
    lua_pop(L, 1);
  }
  m = (MoverUD *)csL_newudata(L, sizeof(MoverUD));      /* 2 */
  m->mover = NULL; m->busy = 0; m->nhandles = 0; m->nevents = 0;
  csL_setmetatable(L, MOVER_MT);
  lua_createtable(L, 5, 0);
  lua_newtable(L);
  lua_rawseti(L, -2, MUV_CONTACTS);
  lua_newtable(L);
  lua_rawseti(L, -2, MUV_EVENTS);
  if (have[MF_FILTER]) {
    lua_pushliteral(L, "filter");
    lua_rawget(L, 1);
    lua_rawseti(L, -2, MUV_FILTER);
  }
  csL_setuservalue(L, 2);
  s = cs_mover_new(&a, &m->mover);
  if (s != CS_OK) { m->mover = NULL; return status_error(L, "newMover", s); }
  cs_mover_set_userdata(m->mover, m);
  if (hr) { v.x = r[0]; v.y = r[1]; v.z = r[2]; cs_mover_set_radius(m->mover, v); }
  if (hp) { v.x = p[0]; v.y = p[1]; v.z = p[2]; cs_mover_set_position(m->mover, v); }
  if (hu) { v.x = up[0]; v.y = up[1]; v.z = up[2]; cs_mover_set_up(m->mover, v); }
  if (hq) cs_mover_set_orientation(m->mover, q);
  for (f = 0; f < MF_FILTER; f++)
    if (have[f]) cs_mover_set(m->mover, mover_settings[f], vals[f]);
  return 1;
}

/* Serves __gc and __close; safe to call twice. */
static int mover_close(lua_State *L) {
  MoverUD *m = (MoverUD *)check_type(L, 1, MOVER_MT);
  if (m->mover == NULL) return 0;
  if (m->busy) return luaL_error(L, "cannot close a Mover inside its own filter");
  cs_mover_free(m->mover);
  m->mover = NULL;
  return 0;
}

static int mover___tostring(lua_State *L) {
  MoverUD *m = (MoverUD *)check_type(L, 1, MOVER_MT);
  char b[3][NUMBUF];
  cs_Vec3 p;
  if (m->mover == NULL) { lua_pushfstring(L, MOVER_MT " (closed): %p", (void *)m); return 1; }
  p = cs_mover_get_position(m->mover);
  lua_pushfstring(L, MOVER_MT " (%s, %s, %s): %p", fmtnum(b[0], p.x), fmtnum(b[1], p.y),
                  fmtnum(b[2], p.z), (void *)m);
  return 1;
}

static int mover___index(lua_State *L) {
  MoverUD *m;
  int f;
  check_type(L, 1, MOVER_MT);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));                /* methods */
  if (!lua_isnil(L, -1) || lua_type(L, 2) != LUA_TSTRING) return 1;
  if ((f = mover_field(lua_tostring(L, 2))) < 0) return 1;   /* nil */
  m = check_mover(L, 1);
  push_field(L, m, 1, f);
  return 1;
}

static int mover___newindex(lua_State *L) {
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  int f = k != NULL ? mover_field(k) : -1;
  double d;
  MoverUD *m = check_mover(L, 1);
  if (f < 0) {
    if (k != NULL) fail_at(L, 2, "__newindex", "unknown Mover field '%s'", k);
    fail_at(L, 2, "__newindex", "unknown Mover field (a %s key)", luaL_typename(L, 2));
  }
  d = check_field(L, f, 3, 3, "__newindex");
  if (m->busy) luaL_error(L, "__newindex: the mover is busy (called from inside its own filter)");
  if (f == MF_FILTER) {
    csL_getuservalue(L, 1);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, MUV_FILTER);
  } else {
    cs_mover_set(m->mover, mover_settings[f], d);
  }
  return 0;
}

static int push_vec3(lua_State *L, cs_Vec3 v) {
  lua_pushnumber(L, v.x); lua_pushnumber(L, v.y); lua_pushnumber(L, v.z);
  return 3;
}

static int mover_getPosition(lua_State *L) {
  return push_vec3(L, cs_mover_get_position(check_mover(L, 1)->mover));
}

static int mover_setPosition(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  cs_Vec3 p = check_vec3(L, 2, XYZ);
  check_mover_idle(L, 1, "setPosition");
  cs_mover_set_position(m->mover, p);
  return 0;
}

static int mover_getRadius(lua_State *L) {
  return push_vec3(L, cs_mover_get_radius(check_mover(L, 1)->mover));
}

/* mover:setRadius(r) (a sphere) or mover:setRadius(rx, ry, rz) */
static int mover_setRadius(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  cs_Vec3 r;
  r.x = check_radius(L, 2, "rx");
  if (lua_isnoneornil(L, 3) && lua_isnoneornil(L, 4)) r.y = r.z = r.x;
  else { r.y = check_radius(L, 3, "ry"); r.z = check_radius(L, 4, "rz"); }
  check_mover_idle(L, 1, "setRadius");
  cs_mover_set_radius(m->mover, r);
  return 0;
}

static int mover_setOrientation(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  double q[4];
  int i;
  for (i = 0; i < 4; i++) q[i] = check_num(L, 2 + i, QXYZW[i]);
  check_quat(L, 2, q);
  check_mover_idle(L, 1, "setOrientation");
  cs_mover_set_orientation(m->mover, q);
  return 0;
}

static int mover_getOrientation(lua_State *L) {
  double q[4];
  cs_mover_get_orientation(check_mover(L, 1)->mover, q);
  lua_pushnumber(L, q[0]); lua_pushnumber(L, q[1]); lua_pushnumber(L, q[2]); lua_pushnumber(L, q[3]);
  return 4;
}

static int mover_setUp(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  cs_Vec3 u = check_vec3(L, 2, XYZ);
  check_up(L, 2, u);
  check_mover_idle(L, 1, "setUp");
  cs_mover_set_up(m->mover, u);
  return 0;
}

static int mover_getUp(lua_State *L) {
  return push_vec3(L, cs_mover_get_up(check_mover(L, 1)->mover));
}

static int mover_contactCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_mover_contact_count(check_mover(L, 1)->mover));
  return 1;
}

/* mover:getContact(i) -> px, py, pz, nx, ny, nz, triangle, body, tag */
static int mover_getContact(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  size_t i = check_index(L, 2, "contact", cs_mover_contact_count(m->mover));
  const cs_Contact *c = cs_mover_contact(m->mover, i);
  push_vec3(L, c->point);
  push_vec3(L, c->normal);
  lua_pushinteger(L, (lua_Integer)c->triangle + 1);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, MUV_CONTACTS);
  lua_rawgeti(L, -1, (int)i + 1);
  lua_replace(L, -3);
  lua_pop(L, 1);
  lua_pushinteger(L, c->tag);
  return 9;
}

static int mover_isOnGround(lua_State *L) {
  lua_pushboolean(L, cs_mover_ground_state(check_mover(L, 1)->mover) == CS_GROUND_ON);
  return 1;
}

static int mover_getGroundState(lua_State *L) {
  static const char *const names[] = {"air", "ground", "steep", "unsupported"};
  cs_GroundState g = cs_mover_ground_state(check_mover(L, 1)->mover);
  lua_pushstring(L, (unsigned)g < 4 ? names[g] : "air");
  return 1;
}

/* mover:getGroundNormal() -> nx, ny, nz, or nil without ground */
static int mover_getGroundNormal(lua_State *L) {
  cs_Vec3 n;
  const cs_Body *body;
  int tag;
  if (!cs_mover_ground(check_mover(L, 1)->mover, &n, &body, &tag)) { lua_pushnil(L); return 1; }
  return push_vec3(L, n);
}

static int mover_getGroundTag(lua_State *L) {
  cs_Vec3 n;
  const cs_Body *body;
  int tag;
  if (!cs_mover_ground(check_mover(L, 1)->mover, &n, &body, &tag)) lua_pushnil(L);
  else lua_pushinteger(L, tag);
  return 1;
}

static int mover_getGroundBody(lua_State *L) {
  check_mover(L, 1);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, MUV_GROUND);
  return 1;
}

static int mover_wasStuck(lua_State *L) {
  lua_pushboolean(L, cs_mover_was_stuck(check_mover(L, 1)->mover));
  return 1;
}

/* }================================================================== */

/* {==================================================================
** The calls and the queries. A Lua callback runs under lua_pcall from the
** core's C callback; an error is parked in a stack slot, the C callback
** stops the core, and the error is raised again once the core returned.
** The stack is grown before the core runs, so the C callbacks allocate
** nothing outside lua_pcall and never raise through the core.
** ===================================================================*/

enum { CTX_OK = 0, CTX_RAISED, CTX_BADRESULT };

typedef struct CallCtx {
  lua_State *L;
  int bodies;           /* stack index of the world's bodies table */
  int fn;               /* stack index of the Lua function (nil: none) */
  int self;             /* stack index of the mover (filters) */
  int err;              /* stack index of the slot for an error */
  int failed;           /* CTX_* */
} CallCtx;

/* Pushes the bodies table, the function at fn and an error slot. */
static void ctx_init(lua_State *L, CallCtx *c, int world, int fn, int self) {
  luaL_checkstack(L, STACK_EXTRA + 4, "collideslide callback");
  c->L = L;
  csL_getuservalue(L, world);
  c->bodies = lua_gettop(L);
  c->fn = fn;
  c->self = self;
  lua_pushnil(L);
  c->err = lua_gettop(L);
  c->failed = CTX_OK;
}

/* Calls the function (pushed, with nargs arguments); 0 when the callback
** asks to stop (returns false) or failed. */
static int ctx_call(CallCtx *c, int nargs) {
  lua_State *L = c->L;
  int go;
  if (lua_pcall(L, nargs, 1, 0) != 0) {
    lua_replace(L, c->err);
    c->failed = CTX_RAISED;
    return 0;
  }
  go = !(lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1));
  lua_pop(L, 1);
  return go;
}

static int ctx_raise(lua_State *L, const CallCtx *c, const char *fname, cs_Status s) {
  if (c != NULL && c->failed == CTX_RAISED) {
    lua_pushvalue(L, c->err);
    return lua_error(L);
  }
  if (c != NULL && c->failed == CTX_BADRESULT) {
    if (lua_type(L, c->err) == LUA_TSTRING)
      return luaL_error(L, "%s: the filter returned \"%s\" (expected \"slide\", \"touch\" or \"cross\")",
                        fname, lua_tostring(L, c->err));
    return luaL_error(L, "%s: the filter returned %s (expected \"slide\", \"touch\" or \"cross\")",
                      fname, tname(L, c->err));
  }
  if (s == CS_EBUSY)
    return luaL_error(L, "%s: the world is busy (called from inside a filter of the same world)", fname);
  if (s == CS_EABORT)
    return luaL_error(L, "%s: aborted by a callback", fname);
  return status_error(L, fname, s);
}

/* The mover's filter: filter(mover, body, tag) -> "slide" | "touch" | "cross". */
static int filter_trampoline(void *ud, const cs_Body *body, int tag) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  int r = -1;
  lua_pushvalue(L, c->fn);
  lua_pushvalue(L, c->self);
  push_body(L, c->bodies, body);
  lua_pushinteger(L, tag);
  if (lua_pcall(L, 3, 1, 0) != 0) {
    lua_replace(L, c->err);
    c->failed = CTX_RAISED;
    return -1;
  }
  if (lua_type(L, -1) == LUA_TSTRING) {
    const char *s = lua_tostring(L, -1);
    if (strcmp(s, "slide") == 0) r = CS_RESPONSE_SLIDE;
    else if (strcmp(s, "touch") == 0) r = CS_RESPONSE_TOUCH;
    else if (strcmp(s, "cross") == 0) r = CS_RESPONSE_CROSS;
  }
  if (r < 0) {
    lua_replace(L, c->err);
    c->failed = CTX_BADRESULT;
    return -1;
  }
  lua_pop(L, 1);
  return r;
}

/* Stores the handles of the last call's contacts and ground body in the
** mover's user value (at uv), while their bodies are known to be alive. */
static void store_handles(lua_State *L, MoverUD *m, int bodies, int uv) {
  size_t i, n = cs_mover_contact_count(m->mover);
  cs_Vec3 nrm;
  const cs_Body *gb = NULL;
  int tag;
  lua_rawgeti(L, uv, MUV_CONTACTS);
  for (i = 0; i < n; i++) {
    push_other(L, bodies, cs_mover_contact(m->mover, i));
    lua_rawseti(L, -2, (int)i + 1);
  }
  for (i = n; i < m->nhandles; i++) {
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)i + 1);
  }
  m->nhandles = n;
  lua_pop(L, 1);
  if (!cs_mover_ground(m->mover, &nrm, &gb, &tag)) gb = NULL;
  push_body(L, bodies, gb);
  lua_rawseti(L, uv, MUV_GROUND);
  if (cs_mover_ground_mover(m->mover) != NULL)
    csL_rawgetp(L, bodies, cs_mover_get_userdata(cs_mover_ground_mover(m->mover)));
  else lua_pushnil(L);
  lua_rawseti(L, uv, MUV_GMOVER);
  n = cs_mover_sensor_event_count(m->mover);
  lua_rawgeti(L, uv, MUV_EVENTS);
  for (i = 0; i < n; i++) {
    csL_rawgetp(L, bodies, cs_sensor_get_userdata(cs_mover_sensor_event(m->mover, i)->sensor));
    lua_rawseti(L, -2, (int)i + 1);
  }
  for (i = n; i < m->nevents; i++) {
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)i + 1);
  }
  m->nevents = n;
  lua_pop(L, 1);
}

/* world:collideAndSlide(mover, vx, vy, vz [, gx, gy, gz]) -> x, y, z */
static int world_collideAndSlide(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover(L, 2);
  cs_Vec3 walk = check_vec3(L, 3, VXYZ), grav = {0, 0, 0};
  int hasg = !lua_isnoneornil(L, 6) || !lua_isnoneornil(L, 7) || !lua_isnoneornil(L, 8);
  CallCtx c;
  cs_Status s;
  if (hasg) grav = check_vec3(L, 6, GXYZ);
  check_not_moving(L, w, "collideAndSlide");
  if (m->busy) luaL_error(L, "collideAndSlide: the mover is busy (called from inside its own filter)");
  lua_settop(L, 8);
  csL_getuservalue(L, 2);                             /* 9: mover's user value */
  lua_rawgeti(L, 9, MUV_FILTER);                      /* 10: filter */
  ctx_init(L, &c, 1, 10, 2);                          /* 11: bodies, 12: error */
  if (!lua_isnil(L, 10)) cs_mover_set_filter(m->mover, filter_trampoline, &c);
  w->busy++;
  w->moving = 1;
  m->busy = 1;
  s = cs_world_collide_and_slide(w->world, m->mover, walk, hasg ? &grav : NULL);
  w->busy--;
  w->moving = 0;
  m->busy = 0;
  cs_mover_set_filter(m->mover, NULL, NULL);
  if (s != CS_OK) return ctx_raise(L, &c, "collideAndSlide", s);
  store_handles(L, m, c.bodies, 9);
  return push_vec3(L, cs_mover_get_position(m->mover));
}

/* t, px, py, pz, nx, ny, nz, triangle, body, tag; or nil. found < 0 is a
** failed call: -(cs_Status). */
static int push_hit(lua_State *L, int world, int found, const cs_Hit *h, const char *fname) {
  if (found < 0) return ctx_raise(L, NULL, fname, (cs_Status)-found);
  if (!found) { lua_pushnil(L); return 1; }
  lua_pushnumber(L, h->t);
  push_vec3(L, h->point);
  push_vec3(L, h->normal);
  lua_pushinteger(L, (lua_Integer)h->triangle + 1);
  csL_getuservalue(L, world);
  push_body(L, lua_gettop(L), h->body);
  lua_replace(L, -2);
  lua_pushinteger(L, h->tag);
  return 10;
}

static void mover_shape(cs_Mover *m, cs_Vec3 *p, cs_Vec3 *r, double q[4]) {
  *p = cs_mover_get_position(m);
  *r = cs_mover_get_radius(m);
  cs_mover_get_orientation(m, q);
}

/* world:sweep(mover, dx, dy, dz [, mask]): the mover's collidesWith, or
** mask when given. */
static int world_sweep(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover(L, 2);
  cs_Vec3 d = check_vec3(L, 3, DXYZ), p, r;
  double q[4];
  cs_Hit h;
  int found;
  check_not_moving(L, w, "sweep");
  if (lua_isnoneornil(L, 6)) {
    found = cs_world_sweep(w->world, m->mover, d, &h);
  } else {
    unsigned mask = check_mask(L, 6, 6, NULL, "mask");
    mover_shape(m->mover, &p, &r, q);
    found = cs_world_sweep_ellipsoid(w->world, p, r, q, d, mask, &h);
  }
  return push_hit(L, 1, found, &h, "sweep");
}

/* world:sweepEllipsoid(px, py, pz, rx, ry, rz, dx, dy, dz [, mask]) */
static int world_sweepEllipsoid(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 p = check_vec3(L, 2, PXYZ), r, d;
  unsigned mask;
  cs_Hit h;
  int found;
  r.x = check_radius(L, 5, "rx"); r.y = check_radius(L, 6, "ry"); r.z = check_radius(L, 7, "rz");
  d = check_vec3(L, 8, DXYZ);
  mask = opt_mask(L, 11, ~0u);
  check_not_moving(L, w, "sweepEllipsoid");
  found = cs_world_sweep_ellipsoid(w->world, p, r, NULL, d, mask, &h);
  return push_hit(L, 1, found, &h, "sweepEllipsoid");
}

/* world:raycast(ox, oy, oz, dx, dy, dz [, mask]) */
static int world_raycast(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 o = check_vec3(L, 2, OXYZ), d = check_vec3(L, 5, DXYZ);
  unsigned mask = opt_mask(L, 8, ~0u);
  cs_Hit h;
  int found;
  check_not_moving(L, w, "raycast");
  found = cs_world_raycast(w->world, o, d, mask, &h);
  return push_hit(L, 1, found, &h, "raycast");
}

/* world:closestPoint(x, y, z [, maxDistance [, mask]])
**   -> px, py, pz, distance, triangle, body, nx, ny, nz, tag; or nil */
static int world_closestPoint(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 p = check_vec3(L, 2, XYZ);
  double maxd = HUGE_VAL;
  unsigned mask = opt_mask(L, 6, ~0u);
  char b[NUMBUF];
  cs_Hit h;
  if (!lua_isnoneornil(L, 5)) {
    if (lua_type(L, 5) != LUA_TNUMBER) argfail(L, 5, "maxDistance must be a number, got %s", tname(L, 5));
    maxd = (double)lua_tonumber(L, 5);
    if (maxd != maxd) argfail(L, 5, "maxDistance is NaN");
    if (maxd < 0) argfail(L, 5, "maxDistance must be >= 0, got %s", fmtnum(b, maxd));
  }
  check_not_moving(L, w, "closestPoint");
  if (!cs_world_closest_point(w->world, p, maxd, mask, &h)) { lua_pushnil(L); return 1; }
  push_vec3(L, h.point);
  lua_pushnumber(L, h.t);
  lua_pushinteger(L, (lua_Integer)h.triangle + 1);
  csL_getuservalue(L, 1);
  push_body(L, lua_gettop(L), h.body);
  lua_replace(L, -2);
  push_vec3(L, h.normal);
  lua_pushinteger(L, h.tag);
  return 10;
}

/* A callback, or nil or nothing (the query only counts). */
static void check_callback(lua_State *L, int arg) {
  if (lua_gettop(L) < arg) lua_settop(L, arg);   /* left out: the same as nil */
  if (!lua_isnil(L, arg) && lua_type(L, arg) != LUA_TFUNCTION)
    argfail(L, arg, "callback must be a function, got %s", tname(L, arg));
}

/* fn(body, triangle, tag) */
static int tri_callback(void *ud, const cs_Body *body, unsigned triangle) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  if (lua_isnil(L, c->fn)) return 1;
  lua_pushvalue(L, c->fn);
  push_body(L, c->bodies, body);
  lua_pushinteger(L, (lua_Integer)triangle + 1);
  lua_pushinteger(L, cs_mesh_tag(cs_body_mesh(body), triangle));
  return ctx_call(c, 3);
}

/* fn(body, triangle, depth, nx, ny, nz, tag) */
static int overlap_callback(void *ud, const cs_Body *body, unsigned triangle, double depth,
                            cs_Vec3 n) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  if (lua_isnil(L, c->fn)) return 1;
  lua_pushvalue(L, c->fn);
  push_body(L, c->bodies, body);
  lua_pushinteger(L, (lua_Integer)triangle + 1);
  lua_pushnumber(L, depth);
  push_vec3(L, n);
  lua_pushinteger(L, cs_mesh_tag(cs_body_mesh(body), triangle));
  return ctx_call(c, 7);
}

/* fn(t, px, py, pz, nx, ny, nz, triangle, body, tag) */
static int hit_callback(void *ud, const cs_Hit *h) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  if (lua_isnil(L, c->fn)) return 1;
  lua_pushvalue(L, c->fn);
  lua_pushnumber(L, h->t);
  push_vec3(L, h->point);
  push_vec3(L, h->normal);
  lua_pushinteger(L, (lua_Integer)h->triangle + 1);
  push_body(L, c->bodies, h->body);
  lua_pushinteger(L, h->tag);
  return ctx_call(c, 10);
}

static int query_done(lua_State *L, WorldUD *w, const CallCtx *c, long count, const char *fname) {
  w->busy--;
  if (c->failed != CTX_OK) return ctx_raise(L, c, fname, CS_EABORT);
  if (count < 0) return status_error(L, fname, CS_ENOMEM);
  lua_pushinteger(L, (lua_Integer)count);
  return 1;
}

/* world:queryBox(minx, miny, minz, maxx, maxy, maxz, fn [, mask]) -> count */
static int world_queryBox(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 lo = check_vec3(L, 2, MINXYZ), hi = check_vec3(L, 5, MAXXYZ);
  unsigned mask;
  CallCtx c;
  long n;
  if (lo.x > hi.x) argfail(L, 5, "maxx is less than minx");
  if (lo.y > hi.y) argfail(L, 6, "maxy is less than miny");
  if (lo.z > hi.z) argfail(L, 7, "maxz is less than minz");
  check_callback(L, 8);
  mask = opt_mask(L, 9, ~0u);
  check_not_moving(L, w, "queryBox");
  lua_settop(L, 9);
  ctx_init(L, &c, 1, 8, 0);
  w->busy++;
  n = cs_world_query_box(w->world, lo, hi, mask, tri_callback, &c);
  return query_done(L, w, &c, n, "queryBox");
}

/* world:overlapEllipsoid(px, py, pz, rx, ry, rz, fn [, mask]) -> count */
static int world_overlapEllipsoid(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 p = check_vec3(L, 2, PXYZ), r;
  unsigned mask;
  CallCtx c;
  long n;
  r.x = check_radius(L, 5, "rx"); r.y = check_radius(L, 6, "ry"); r.z = check_radius(L, 7, "rz");
  check_callback(L, 8);
  mask = opt_mask(L, 9, ~0u);
  check_not_moving(L, w, "overlapEllipsoid");
  lua_settop(L, 9);
  ctx_init(L, &c, 1, 8, 0);
  w->busy++;
  n = cs_world_overlap_ellipsoid(w->world, p, r, NULL, mask, overlap_callback, &c);
  return query_done(L, w, &c, n, "overlapEllipsoid");
}

/* world:overlap(mover, fn [, mask]) -> count; mask defaults to the mover's
** collidesWith. */
static int world_overlap(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover(L, 2);
  cs_Vec3 p, r;
  double q[4];
  unsigned mask;
  CallCtx c;
  long n;
  check_callback(L, 3);
  mask = opt_mask(L, 4, (unsigned)cs_mover_get(m->mover, CS_COLLIDES_WITH));
  check_not_moving(L, w, "overlap");
  mover_shape(m->mover, &p, &r, q);
  lua_settop(L, 4);
  ctx_init(L, &c, 1, 3, 0);
  w->busy++;
  n = cs_world_overlap_ellipsoid(w->world, p, r, q, mask, overlap_callback, &c);
  return query_done(L, w, &c, n, "overlap");
}

/* world:raycastAll(ox, oy, oz, dx, dy, dz, fn [, mask]) -> count */
static int world_raycastAll(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 o = check_vec3(L, 2, OXYZ), d = check_vec3(L, 5, DXYZ);
  unsigned mask;
  CallCtx c;
  long n;
  check_callback(L, 8);
  mask = opt_mask(L, 9, ~0u);
  check_not_moving(L, w, "raycastAll");
  lua_settop(L, 9);
  ctx_init(L, &c, 1, 8, 0);
  w->busy++;
  n = cs_world_raycast_all(w->world, o, d, mask, hit_callback, &c);
  return query_done(L, w, &c, n, "raycastAll");
}

/* }================================================================== */

/* {==================================================================
** Sensors: closed volumes whose crossings movers record (issue 16)
** ===================================================================*/

static SensorUD *check_sensor(lua_State *L, int arg) {
  SensorUD *sn = (SensorUD *)check_type(L, arg, SENSOR_MT);
  if (sn->w->world == NULL) argfail(L, arg, "attempt to use a sensor of a closed/collected World");
  if (sn->sensor == NULL) argfail(L, arg, "sensor was removed from its world");
  return sn;
}

static cs_Status apply_sensor_xform(cs_Sensor *sn, const Xform *x) {
  cs_Vec3 t, sc;
  double q[4] = {0, 0, 0, 1};
  if (x->n == 16) return cs_sensor_set_matrix(sn, x->v);
  t.x = x->v[0]; t.y = x->v[1]; t.z = x->v[2];
  sc.x = sc.y = sc.z = 1;
  if (x->n >= 7) { q[0] = x->v[3]; q[1] = x->v[4]; q[2] = x->v[5]; q[3] = x->v[6]; }
  if (x->n == 10) { sc.x = x->v[7]; sc.y = x->v[8]; sc.z = x->v[9]; }
  cs_sensor_set_transform(sn, t, q, sc);
  return CS_OK;
}

/* world:addSensor(mesh [, transform...]) -> sensor */
static int world_addSensor(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MeshUD *m = check_mesh(L, 2);
  Xform x;
  SensorUD *sn;
  cs_Sensor *sensor = NULL;
  unsigned bad[2] = {0, 0};
  int uses = 0;
  cs_Status s;
  x.n = 0;
  if (lua_gettop(L) >= 3 && !(lua_gettop(L) == 3 && lua_isnil(L, 3))) check_xform(L, 3, &x);
  check_idle(L, w, "addSensor");
  lua_settop(L, 2);
  sn = (SensorUD *)csL_newudata(L, sizeof(SensorUD));        /* 3 */
  sn->w = w; sn->m = m; sn->sensor = NULL;
  csL_setmetatable(L, SENSOR_MT);
  lua_createtable(L, 3, 0);
  lua_pushvalue(L, 1); lua_rawseti(L, -2, BUV_WORLD);
  lua_pushvalue(L, 2); lua_rawseti(L, -2, BUV_MESH);
  csL_setuservalue(L, 3);
  csL_getuservalue(L, 1);                                     /* 4: handles */
  lua_pushvalue(L, 3);
  csL_rawsetp(L, 4, sn);               /* the last step that may raise */
  s = cs_world_add_sensor(w->world, m->mesh, &sensor, bad, &uses);
  if (s == CS_OK) {
    cs_sensor_set_userdata(sensor, sn);
    if (x.n != 0) s = apply_sensor_xform(sensor, &x);
    if (s != CS_OK) { cs_world_remove_sensor(w->world, sensor); s = CS_ERANGE; }
  }
  if (s != CS_OK) {
    lua_pushnil(L);
    csL_rawsetp(L, 4, sn);             /* setting a field to nil never raises */
    if (s == CS_ERANGE) return argfail(L, 3, "matrix is not invertible");
    if (s == CS_EINVAL && uses == 0) return argfail(L, 2, "mesh has no triangles (a sensor needs a closed mesh)");
    if (s == CS_EINVAL)
      return argfail(L, 2, "mesh is not closed: the edge from vertex %d to vertex %d has %d triangle%s "
                     "on it, not a pair wound opposite ways (a sensor needs a closed mesh with "
                     "shared vertices and one winding)", (int)bad[0] + 1, (int)bad[1] + 1, uses,
                     uses == 1 ? "" : "s");
    return status_error(L, "addSensor", s);
  }
  sn->sensor = sensor;
  m->users++;
  lua_settop(L, 3);
  return 1;
}

/* world:removeSensor(sensor): the handle is dead afterwards. */
static int world_removeSensor(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  SensorUD *sn = (SensorUD *)check_type(L, 2, SENSOR_MT);
  if (sn->w != w) argfail(L, 2, "sensor belongs to another world");
  if (sn->sensor == NULL) argfail(L, 2, "sensor was removed from its world");
  check_idle(L, w, "removeSensor");
  cs_world_remove_sensor(w->world, sn->sensor);
  sn->sensor = NULL;
  csL_getuservalue(L, 1);
  lua_pushnil(L);
  csL_rawsetp(L, -2, sn);
  mesh_release(sn->m);
  return 0;
}

static int world_sensorCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_world_sensor_count(check_world(L, 1)->world));
  return 1;
}

/* sensor:setTransform(...): the forms of body:setTransform. */
static int sensor_setTransform(lua_State *L) {
  SensorUD *sn = check_sensor(L, 1);
  Xform x;
  if (lua_gettop(L) < 2) argfail(L, 2, "transform: expected 3, 7, 10 or 16 numbers or a table of 16, got none");
  check_xform(L, 2, &x);
  if (apply_sensor_xform(sn->sensor, &x) != CS_OK) argfail(L, 2, "matrix is not invertible");
  return 0;
}

/* sensor:getTransform() -> 16 numbers, a column-major 4x4 matrix */
static int sensor_getTransform(lua_State *L) {
  double m[16];
  int i;
  cs_sensor_get_matrix(check_sensor(L, 1)->sensor, m);
  luaL_checkstack(L, 16, NULL);
  for (i = 0; i < 16; i++) lua_pushnumber(L, m[i]);
  return 16;
}

/* sensor:contains(x, y, z) -> boolean */
static int sensor_contains(lua_State *L) {
  SensorUD *sn = check_sensor(L, 1);
  lua_pushboolean(L, cs_sensor_contains(sn->sensor, check_vec3(L, 2, XYZ)));
  return 1;
}

static int sensor_getMesh(lua_State *L) {
  check_sensor(L, 1);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, BUV_MESH);
  return 1;
}

static int sensor_isRemoved(lua_State *L) {
  SensorUD *sn = (SensorUD *)check_type(L, 1, SENSOR_MT);
  lua_pushboolean(L, sn->sensor == NULL || sn->w->world == NULL);
  return 1;
}

/* Fields: layers (a bitmask, default 1) and userdata (any Lua value). */
static int sensor___index(lua_State *L) {
  const char *k;
  check_type(L, 1, SENSOR_MT);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));                /* methods */
  if (!lua_isnil(L, -1) || lua_type(L, 2) != LUA_TSTRING) return 1;
  k = lua_tostring(L, 2);
  if (strcmp(k, "layers") == 0) {
    csL_pushuint(L, cs_sensor_get_layers(check_sensor(L, 1)->sensor));
  } else if (strcmp(k, "userdata") == 0) {
    csL_getuservalue(L, 1);
    lua_rawgeti(L, -1, BUV_USERDATA);
  }
  return 1;
}

static int sensor___newindex(lua_State *L) {
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  check_type(L, 1, SENSOR_MT);
  if (k != NULL && strcmp(k, "layers") == 0) {
    unsigned mask = check_mask(L, 3, 3, "__newindex", "layers");
    cs_sensor_set_layers(check_sensor(L, 1)->sensor, mask);
  } else if (k != NULL && strcmp(k, "userdata") == 0) {
    csL_getuservalue(L, 1);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, BUV_USERDATA);
  } else if (k != NULL) {
    fail_at(L, 2, "__newindex", "unknown Sensor field '%s' (fields: layers, userdata)", k);
  } else {
    fail_at(L, 2, "__newindex", "unknown Sensor field (a %s key)", luaL_typename(L, 2));
  }
  return 0;
}

static int sensor___tostring(lua_State *L) {
  SensorUD *sn = (SensorUD *)check_type(L, 1, SENSOR_MT);
  if (sn->sensor == NULL || sn->w->world == NULL)
    lua_pushfstring(L, SENSOR_MT " (removed): %p", (void *)sn);
  else lua_pushfstring(L, SENSOR_MT " (mesh of %d triangles): %p",
                       (int)cs_mesh_triangle_count(cs_sensor_mesh(sn->sensor)), (void *)sn);
  return 1;
}

/* {==================================================================
** Movers that meet (issue 14): added movers are solid to each other. The
** world's handle table keeps each added mover's handle (keyed by its
** MoverUD), so contacts can name it and it stays alive while added.
** ===================================================================*/

/* world:addMover(mover) */
static int world_addMover(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover_idle(L, 2, "addMover");
  cs_Status s;
  check_idle(L, w, "addMover");
  if (cs_mover_added_to(m->mover) != NULL)
    argfail(L, 2, "the mover is in a world already (world:removeMover it there first)");
  csL_getuservalue(L, 1);
  lua_pushvalue(L, 2);
  csL_rawsetp(L, -2, m);               /* the last step that may raise */
  s = cs_world_add_mover(w->world, m->mover);
  if (s != CS_OK) {
    lua_pushnil(L);
    csL_rawsetp(L, -2, m);
    return status_error(L, "addMover", s);
  }
  return 0;
}

/* world:removeMover(mover) */
static int world_removeMover(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover_idle(L, 2, "removeMover");
  check_idle(L, w, "removeMover");
  if (cs_mover_added_to(m->mover) != w->world) argfail(L, 2, "the mover is not in this world");
  cs_world_remove_mover(w->world, m->mover);
  csL_getuservalue(L, 1);
  lua_pushnil(L);
  csL_rawsetp(L, -2, m);
  return 0;
}

static int world_moverCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_world_mover_count(check_world(L, 1)->world));
  return 1;
}

/* mover:getGroundMover() -> the mover the last call stood on, or nil */
static int mover_getGroundMover(lua_State *L) {
  check_mover(L, 1);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, MUV_GMOVER);
  return 1;
}

/* }================================================================== */

static int mover_sensorEventCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_mover_sensor_event_count(check_mover(L, 1)->mover));
  return 1;
}

/* mover:getSensorEvent(i) -> sensor, "enter" | "exit", t */
static int mover_getSensorEvent(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  size_t i = check_index(L, 2, "sensor event", cs_mover_sensor_event_count(m->mover));
  const cs_SensorEvent *e = cs_mover_sensor_event(m->mover, i);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, MUV_EVENTS);
  lua_rawgeti(L, -1, (int)i + 1);
  lua_pushstring(L, e->enter ? "enter" : "exit");
  lua_pushnumber(L, e->t);
  return 3;
}

/* mover:isInside(sensor) -> boolean, as the mover's last call ended */
static int mover_isInside(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  SensorUD *sn = check_sensor(L, 2);
  lua_pushboolean(L, cs_mover_is_inside(m->mover, sn->sensor));
  return 1;
}

/* }================================================================== */

/* {==================================================================
** Metatables and the module
** ===================================================================*/

static const luaL_Reg mesh_meta[] = {
  {"__gc", mesh_close}, {"__close", mesh_close}, {"__tostring", mesh___tostring},
  {NULL, NULL}
};
static const luaL_Reg mesh_methods[] = {
  {"triangleCount", mesh_triangleCount}, {"vertexCount", mesh_vertexCount},
  {"degenerateCount", mesh_degenerateCount}, {"bounds", mesh_bounds},
  {"memory", mesh_memory}, {"getBackfaces", mesh_getBackfaces},
  {"getVertex", mesh_getVertex}, {"getTriangle", mesh_getTriangle}, {"getTag", mesh_getTag},
  {"setVertex", mesh_setVertex}, {"setVertices", mesh_setVertices},
  {NULL, NULL}
};

static const luaL_Reg world_meta[] = {
  {"__gc", world_close}, {"__close", world_close}, {"__tostring", world___tostring},
  {NULL, NULL}
};
static const luaL_Reg world_methods[] = {
  {"add", world_add}, {"remove", world_remove}, {"bodyCount", world_bodyCount},
  {"setFriction", world_setFriction}, {"getFriction", world_getFriction},
  {"collideAndSlide", world_collideAndSlide}, {"sweep", world_sweep},
  {"raycast", world_raycast}, {"sweepEllipsoid", world_sweepEllipsoid},
  {"closestPoint", world_closestPoint}, {"queryBox", world_queryBox},
  {"overlapEllipsoid", world_overlapEllipsoid}, {"overlap", world_overlap},
  {"raycastAll", world_raycastAll},
  {"addSensor", world_addSensor}, {"removeSensor", world_removeSensor},
  {"addMover", world_addMover}, {"removeMover", world_removeMover}, {"moverCount", world_moverCount},
  {"sensorCount", world_sensorCount},
  {NULL, NULL}
};

static const luaL_Reg body_meta[] = {
  {"__newindex", body___newindex}, {"__tostring", body___tostring},
  {NULL, NULL}
};
static const luaL_Reg body_methods[] = {
  {"setTransform", body_setTransform}, {"getTransform", body_getTransform},
  {"setVelocity", body_setVelocity}, {"getVelocity", body_getVelocity},
  {"setEnabled", body_setEnabled}, {"isEnabled", body_isEnabled},
  {"getMesh", body_getMesh}, {"getBounds", body_getBounds}, {"isRemoved", body_isRemoved},
  {NULL, NULL}
};

static const luaL_Reg mover_meta[] = {
  {"__gc", mover_close}, {"__close", mover_close}, {"__tostring", mover___tostring},
  {"__newindex", mover___newindex},
  {NULL, NULL}
};
static const luaL_Reg mover_methods[] = {
  {"getPosition", mover_getPosition}, {"setPosition", mover_setPosition},
  {"getRadius", mover_getRadius}, {"setRadius", mover_setRadius},
  {"setOrientation", mover_setOrientation}, {"getOrientation", mover_getOrientation},
  {"setUp", mover_setUp}, {"getUp", mover_getUp},
  {"contactCount", mover_contactCount}, {"getContact", mover_getContact},
  {"isOnGround", mover_isOnGround}, {"getGroundNormal", mover_getGroundNormal},
  {"getGroundState", mover_getGroundState}, {"getGroundBody", mover_getGroundBody},
  {"getGroundTag", mover_getGroundTag}, {"wasStuck", mover_wasStuck},
  {"sensorEventCount", mover_sensorEventCount}, {"getSensorEvent", mover_getSensorEvent},
  {"isInside", mover_isInside}, {"getGroundMover", mover_getGroundMover},
  {NULL, NULL}
};

static const luaL_Reg sensor_meta[] = {
  {"__newindex", sensor___newindex}, {"__tostring", sensor___tostring},
  {NULL, NULL}
};
static const luaL_Reg sensor_methods[] = {
  {"setTransform", sensor_setTransform}, {"getTransform", sensor_getTransform},
  {"contains", sensor_contains}, {"getMesh", sensor_getMesh}, {"isRemoved", sensor_isRemoved},
  {NULL, NULL}
};

static const luaL_Reg module_funcs[] = {
  {"newMesh", cs_newMesh}, {"newWorld", cs_newWorld}, {"newMover", cs_newMover},
  {NULL, NULL}
};

/* A metatable named name: meta's metamethods, __name, and __index either
** the methods table or index_fn closed over it (types with fields). */
static void new_type(lua_State *L, const char *name, const luaL_Reg *meta,
                     const luaL_Reg *methods, lua_CFunction index_fn) {
  luaL_newmetatable(L, name);
  csL_setfuncs(L, meta, 0);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name");        /* 5.4 sets it; the others don't */
  csL_newlib(L, methods);
  if (index_fn != NULL) lua_pushcclosure(L, index_fn, 1);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

CS_EXPORT int luaopen_collideslide_core(lua_State *L) {
  new_type(L, MESH_MT, mesh_meta, mesh_methods, NULL);
  new_type(L, WORLD_MT, world_meta, world_methods, NULL);
  new_type(L, BODY_MT, body_meta, body_methods, body___index);
  new_type(L, MOVER_MT, mover_meta, mover_methods, mover___index);
  new_type(L, SENSOR_MT, sensor_meta, sensor_methods, sensor___index);
  csL_newlib(L, module_funcs);
  lua_pushliteral(L, CS_VERSION);
  lua_setfield(L, -2, "_VERSION");
  return 1;
}

/* }================================================================== */
