/*
** cs_lua.c: the Lua binding of collideslide, module `collideslide.core`:
** its argument helpers and errors, and its opening (the metatables of the
** types the other cs_lua_*.c files define; see cs_lua.h).
** The cs_lua*.c files are the only ones that include lua.h. They convert
** Lua values (types, tables, indices, masks), keep the Lua-side lifetimes,
** and call the C API of collideslide.h, which checks the values and words
** the errors (core_fail raises them as "bad argument #n"). Lua-facing
** functions are <type>_<luaName>.
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
#include <ctype.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cs_lua.h"

const char *const XYZ[3] = {"x", "y", "z"};
const char *const DXYZ[3] = {"dx", "dy", "dz"};
const char *const OXYZ[3] = {"ox", "oy", "oz"};
const char *const PXYZ[3] = {"px", "py", "pz"};
const char *const RXYZ[3] = {"rx", "ry", "rz"};
const char *const VXYZ[3] = {"vx", "vy", "vz"};
const char *const GXYZ[3] = {"gx", "gy", "gz"};
const char *const MINXYZ[3] = {"minx", "miny", "minz"};
const char *const MAXXYZ[3] = {"maxx", "maxy", "maxz"};
const char *const QXYZW[4] = {"qx", "qy", "qz", "qw"};

/* {==================================================================
** Errors and argument checks
** ===================================================================*/

/* The running C function's own name, for a call Lua has no name for
** (through pcall, or a table's field read into a local): found by its
** address among the module's functions and the types' methods and
** metamethods. NULL when it is none of them. */
static const char *own_name(lua_State *L, lua_Debug *ar) {
  static const luaL_Reg index_fns[] = {{"__index", body___index}, {"__index", mover___index},
    {"__index", sensor___index}, {NULL, NULL}};   /* closures over the methods */
  static const luaL_Reg *const lists[] = {module_funcs, mesh_methods, world_methods,
    body_methods, mover_methods, sensor_methods, mesh_meta, world_meta, body_meta,
    mover_meta, sensor_meta, index_fns, NULL};
  const luaL_Reg *const *l;
  const luaL_Reg *r;
  lua_CFunction f;
  if (!lua_getinfo(L, "f", ar)) return NULL;
  f = lua_tocfunction(L, -1);
  lua_pop(L, 1);
  for (l = lists; f != NULL && *l != NULL; l++)
    for (r = *l; r->name != NULL; r++)
      if (r->func == f) return r->name;
  return NULL;
}

/* The running function's name for messages (ar from lua_getstack(L, 0)):
** its own name first (own_name: pcall(mesh.getVertex, mesh, 0), a local
** alias and mesh[k](mesh, 0) all name getVertex, as the FFI binding does),
** else the one Lua found, else NULL. */
static const char *call_name(lua_State *L, lua_Debug *ar) {
  const char *name = own_name(L, ar);
  if (name == NULL && ar->name != NULL && strcmp(ar->name, "?") != 0) name = ar->name;
  return name;
}

/* Raises "bad argument #arg to 'fname' (message)". fname NULL: the running
** function's name as luaL_argerror finds it (self not counted in a method
** call, "calling 'f' on bad self" for self), else call_name's, a
** metamethod as "__index" on every Lua. */
static int vfail(lua_State *L, int arg, const char *fname, const char *fmt, va_list ap) {
  const char *msg = lua_pushvfstring(L, fmt, ap);
  lua_Debug ar;
  if (fname == NULL && lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar)) {
    const char *what = ar.namewhat ? ar.namewhat : "";
    if (strcmp(what, "method") == 0) {
      arg--;
      if (arg == 0) return luaL_error(L, "calling '%s' on bad self (%s)", ar.name, msg);
    }
    if (strcmp(what, "metamethod") == 0 && ar.name != NULL && strncmp(ar.name, "__", 2) != 0)
      fname = lua_pushfstring(L, "__%s", ar.name);
    else
      fname = call_name(L, &ar);
  }
  if (fname == NULL) return luaL_argerror(L, arg, msg);
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fname, msg);
}

int argfail(lua_State *L, int arg, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(L, arg, NULL, fmt, ap);
  va_end(ap);
  return 0;
}

/* A module function called with a colon (cs:newMover{...}) is given the
** module as its first argument: a table whose newWorld is this module's
** (the Lua layer's table copies it). Named, with the fix (found by an
** independent tester: the error was "unknown Mover field '_VERSION'"). */
void check_not_module(lua_State *L, int arg, const char *fname) {
  int is;
  if (lua_type(L, arg) != LUA_TTABLE) return;
  lua_pushliteral(L, "newWorld");
  lua_rawget(L, arg);
  is = lua_tocfunction(L, -1) == cs_newWorld;
  lua_pop(L, 1);
  if (is) argfail(L, arg, "got the collideslide module: call it with a dot, cs.%s(...)", fname);
}

/* A call that takes one object (what: "mover") at last refuses a non-nil
** argument after it, the first one: world:addMover(a, b) added a alone
** (found by an independent tester). */
void check_one(lua_State *L, int last, const char *what, const char *fname) {
  int i, top = lua_gettop(L);
  for (i = last + 1; i <= top; i++)
    if (!lua_isnil(L, i)) argfail(L, i, "one %s expected: call %s once per %s", what, fname, what);
}

int fail_at(lua_State *L, int arg, const char *fname, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(L, arg, fname, fmt, ap);
  va_end(ap);
  return 0;
}

/* A table at arg, as luaL_checktype would ask for it, in argfail's words:
** it names the function under pcall too (luaL_checktype's said '?', or
** 'collideslide.core.newMesh' on Lua 5.4). */
void check_table(lua_State *L, int arg) {
  if (!lua_istable(L, arg)) argfail(L, arg, "table expected, got %s", arg_tname(L, arg));
}

/* A number as the messages show it: NaN, inf, -inf, or %.14g. */
const char *fmtnum(char *buf, double d) {
  if (d != d) return "NaN";
  if (isinf(d)) return d > 0 ? "inf" : "-inf";
  snprintf(buf, NUMBUF, "%.14g", d);
  return buf;
}

/* The string at i, or NULL when it is no string or holds a NUL byte: names
** and answers are compared with strcmp, which took "slide\0junk" for
** "slide" and "skin\0junk" for skin (found by an independent tester; the
** FFI binding compares whole strings). */
const char *name_at(lua_State *L, int i) {
  size_t n;
  const char *s;
  if (lua_type(L, i) != LUA_TSTRING) return NULL;
  s = lua_tolstring(L, i, &n);
  return strlen(s) == n ? s : NULL;
}

/* What an unknown key at i is called when it is no name: its type, or
** "NUL-holding string" (check.keyKind's words, for the FFI binding's). */
const char *key_kind(lua_State *L, int i) {
  return lua_type(L, i) == LUA_TSTRING && name_at(L, i) == NULL ? "NUL-holding string"
                                                                 : luaL_typename(L, i);
}

/* The type of the value at i, as __name (our types) or the basic type. */
const char *tname(lua_State *L, int i) {
  if (luaL_getmetafield(L, i, "__name") != 0) {   /* LUA_TNIL is 0 */
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1);                                /* anchored in the metatable */
    if (s != NULL) return s;
  }
  return luaL_typename(L, i);
}

/* The type of argument arg as the messages name it: "no value" when it and
** every argument after it are nil, else tname. The FFI binding's methods
** cannot tell a trailing nil from an argument not given (both reach a Lua
** function as nil), so both bindings word the two alike. */
const char *arg_tname(lua_State *L, int arg) {
  int i, top = lua_gettop(L);
  for (i = arg; i <= top; i++)
    if (!lua_isnil(L, i)) return tname(L, arg);
  return "no value";
}

/* A number at arg, of any value: the core checks the values (cs_check.c). */
double to_num(lua_State *L, int arg, const char *name) {
  if (lua_type(L, arg) != LUA_TNUMBER)
    argfail(L, arg, "%s must be a number, got %s", name, arg_tname(L, arg));
  return (double)lua_tonumber(L, arg);
}

cs_Vec3 to_vec3(lua_State *L, int arg, const char *const names[3]) {
  cs_Vec3 v;
  v.x = to_num(L, arg, names[0]);
  v.y = to_num(L, arg + 1, names[1]);
  v.z = to_num(L, arg + 2, names[2]);
  return v;
}

/* Raises the core's error e: as argument base + e->arg (the core counts
** its numbers from 1, see collideslide.h), with prefix before the message
** when given; "fname: message" when it names no argument. */
int core_fail(lua_State *L, const cs_Error *e, int base, const char *prefix,
                     const char *fname) {
  if (e->arg == 0) return luaL_error(L, "%s: %s", fname, e->message);
  if (prefix) return argfail(L, base + e->arg, "%s%s", prefix, e->message);
  return argfail(L, base + e->arg, "%s", e->message);
}

/* 1 and *out when the value at i is a number with an integer value, 0 when
** it is no number, -1 when it is a number without one (2.5, NaN, inf). */
int to_intval(lua_State *L, int i, double *out) {
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
size_t check_index(lua_State *L, int arg, const char *what, size_t n) {
  double d = 0;
  char b[NUMBUF], c[NUMBUF];
  int r = to_intval(L, arg, &d);
  if (r == 0) argfail(L, arg, "%s index must be an integer, got %s", what, arg_tname(L, arg));
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
unsigned check_mask(lua_State *L, int i, int arg, const char *fname, const char *what) {
  unsigned m = 0;
  char b[NUMBUF];
  int r = to_mask(L, i, &m);
  if (r == 0) fail_at(L, arg, fname, "%s must be an integer bitmask, got %s", what, tname(L, i));
  if (r < 0) fail_at(L, arg, fname, "%s must be a 32-bit integer bitmask, got %s", what,
                     fmtnum(b, (double)lua_tonumber(L, i)));
  return m;
}

unsigned opt_mask(lua_State *L, int arg, unsigned dflt) {
  return lua_isnoneornil(L, arg) ? dflt : check_mask(L, arg, arg, NULL, "mask");
}

/* t[i] (raw) as a number: returns LUA_TNUMBER and *out, or the type found. */
int elem_num(lua_State *L, int t, size_t i, double *out) {
  int ty;
  lua_rawgeti(L, t, (int)i);
  ty = lua_type(L, -1);
  if (ty == LUA_TNUMBER) *out = (double)lua_tonumber(L, -1);
  lua_pop(L, 1);
  return ty;
}

/* " (an array ...)" when the table at t has a string key (a script wrote
** {x = 1, y = 2, z = 3} where an array {1, 2, 3} goes), else "": the end of
** the message that found element 1 missing (found by a first-hour user). */
const char *named_hint(lua_State *L, int t) {
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    int named = lua_type(L, -2) == LUA_TSTRING;
    lua_pop(L, 1);
    if (named) {
      lua_pop(L, 1);
      return " (an array such as {1, 2, 3}, not named fields)";
    }
  }
  return "";
}

/* n numbers from the table at t (stack index) into out, for table-valued
** fields such as position = {x, y, z}. Errors name the field and element. */
void table_nums(lua_State *L, int arg, int t, const char *field,
                       const char *const names[], int n, double *out) {
  int i, ty;
  for (i = 0; i < n; i++) {
    ty = elem_num(L, t, (size_t)i + 1, &out[i]);
    if (ty != LUA_TNUMBER)
      argfail(L, arg, "%s: %s must be a number, got %s%s", field, names[i], lua_typename(L, ty),
              ty == LUA_TNIL ? named_hint(L, t) : "");
    /* the values: the core's checks (the caller prefixes its message) */
  }
}

/* The table at t's least unknown key (known(k) false), in the same order
** whatever order next() finds them in (it differs between Lua versions, and
** between runs on 5.4): a key that is no string first (by its type's name),
** then the least string. Leaves the key's description in *out (a type name,
** or the string, which the table keeps alive) and returns 1 for a string, 2
** for a key of another type, 0 when every key is known. */
int least_unknown(lua_State *L, int t, int (*known)(const char *k), const char **out) {
  int r = 0;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    if (name_at(L, -2) == NULL) {          /* no string, or one holding a NUL byte */
      const char *ty = key_kind(L, -2);
      if (r != 2 || strcmp(ty, *out) < 0) *out = ty;
      r = 2;
    } else if (r != 2) {
      const char *k = lua_tostring(L, -2);
      if (!known(k) && (r == 0 || strcmp(k, *out) < 0)) { *out = k; r = 1; }
    }
    lua_pop(L, 1);
  }
  return r;
}

static int elem_is_nil(lua_State *L, int t, size_t i) {
  int ty;
  lua_rawgeti(L, t, (int)i);
  ty = lua_type(L, -1);
  lua_pop(L, 1);
  return ty == LUA_TNIL;
}

/* Raises "<what> has a hole at k (element j is set)" for the table at t (an
** absolute index), k its first nil, j its first set integer key past k, in
** the same words whichever border # found (len): Lua 5.4 finds 3 in
** {1, nil, 3}, LuaJIT 1. Returns 0 when the table has no hole. */
int hole_fail(lua_State *L, int arg, int t, size_t len, const char *what) {
  size_t k = 1, next;
  double j = HUGE_VAL;
  char b[NUMBUF], c[NUMBUF];
  while (k <= len && !elem_is_nil(L, t, k)) k++;
  if (k <= len) {                       /* t[len] is set, as a border's is */
    for (next = k + 1; next < len && elem_is_nil(L, t, next); next++) {}
    j = (double)next;
  } else {                              /* 1..len are set: the least key past len */
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
      if (lua_type(L, -2) == LUA_TNUMBER) {
        double key = (double)lua_tonumber(L, -2);
        if (key > (double)len && key == floor(key) && key < j) j = key;
      }
      lua_pop(L, 1);
    }
    if (j == HUGE_VAL) return 0;
  }
  return argfail(L, arg, "%s has a hole at %s (element %s is set)", what, fmtnum(b, (double)k),
                 fmtnum(c, j));
}

/* Raises hole_fail's error when the table at t has an integer key past n,
** the border csL_len found; the keys are walked from the table's start, or
** from n's own place (lua_next resumes there) when from_n. */
static void keys_past(lua_State *L, int arg, int t, size_t n, const char *what, int from_n) {
  if (from_n && n > 0) lua_pushinteger(L, (lua_Integer)n);
  else lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    if (lua_type(L, -2) == LUA_TNUMBER) {
      double k = (double)lua_tonumber(L, -2);
      if (k > (double)n && k == floor(k)) {
        lua_pop(L, 2);
        hole_fail(L, arg, t, n, what);
        return;
      }
    }
    lua_pop(L, 1);
  }
}

/* Rejects integer keys past n, the border csL_len found: a hole (hole_fail
** names the first one). */
void check_array_end(lua_State *L, int arg, int t, size_t n, const char *what) {
  keys_past(L, arg, t, n, what, 0);
}

/* check_array_end for the hot lists (collideAndSlideMany's): the keys that
** follow n in the table's order, from n's own place, not the whole table.
** That is every key past n when 1..n sit in the array part, as in lists
** built by t[#t + 1] = v or a constructor; a list built into the hash part
** is checked from n's node on. A whole scan cost 300 ns a mover on Lua 5.4,
** more than the rest of the binding. */
void check_array_tail(lua_State *L, int arg, int t, size_t n, const char *what) {
  keys_past(L, arg, t, n, what, 1);
}

/* The tags: arbitrary constants, distinct, and unlike any small number or
** address. */
const csl_Type csl_types[5] = {{MESH_MT, sizeof(MeshUD), UINT64_C(0xc5a1e5d3f00d0001)},
  {WORLD_MT, sizeof(WorldUD), UINT64_C(0xc5a1e5d3f00d0002)}, {BODY_MT, sizeof(BodyUD), UINT64_C(0xc5a1e5d3f00d0003)},
  {MOVER_MT, sizeof(MoverUD), UINT64_C(0xc5a1e5d3f00d0004)}, {SENSOR_MT, sizeof(SensorUD), UINT64_C(0xc5a1e5d3f00d0005)}};

/* The userdata at arg if it is of type t, else NULL: a full userdata of
** t's size whose first field is t's tag (cs_lua.h). Three reads of the
** stack, no push: a method call's check costs a few dozen instructions. */
void *test_type(lua_State *L, int arg, const csl_Type *t) {
  void *p;
  if (lua_type(L, arg) != LUA_TUSERDATA || csL_len(L, arg) != t->size) return NULL;
  p = lua_touserdata(L, arg);
  return *(const uint64_t *)p == t->tag ? p : NULL;
}

/* A new userdata of type t, pushed: t's size, t's tag in its first field
** (so that test_type takes it), t's metatable and a user value. Every
** object of the module is made here; the caller sets its other fields
** before anything can raise an error. */
void *new_object(lua_State *L, const csl_Type *t) {
  uint64_t *p = (uint64_t *)csL_newudata(L, t->size);
  *p = t->tag;
  csL_setmetatable(L, t->name);
  return p;
}

/* A method given something else than its object as argument 1 was called
** with a dot for a colon (m.getPosition()): the message names the fix, as
** the Lua layer's do ("call it with a colon, mover:getPosition(...)"). */
void *check_type(lua_State *L, int arg, const csl_Type *t) {
  void *p = test_type(L, arg, t);
  lua_Debug ar;
  if (p != NULL) return p;
  if (arg == 1 && !type_hint(t->name, arg_tname(L, arg))[0] && lua_getstack(L, 0, &ar)
      && lua_getinfo(L, "n", &ar)) {
    const char *name = call_name(L, &ar);   /* (pcall(m.getPosition, 5) gives Lua no name) */
    const char *dot = strrchr(t->name, '.');
    char obj[32];
    size_t i;
    for (i = 0; dot && dot[i + 1] && i + 1 < sizeof obj; i++)   /* "collideslide.Mover" -> "mover" */
      obj[i] = (char)(i == 0 ? tolower((unsigned char)dot[1]) : dot[i + 1]);
    obj[i] = '\0';
    if (name != NULL && name[0] != '_')
      argfail(L, arg, "%s expected, got %s: call it with a colon, %s:%s(...)", t->name,
              arg_tname(L, arg), obj, name);
  }
  argfail(L, arg, "%s expected, got %s%s", t->name, arg_tname(L, arg),
          type_hint(t->name, arg_tname(L, arg)));
  return NULL;
}

/* What to add to "<want> expected, got <got>": when the names are the same,
** an object of the FFI binding (collideslide.ffi) given to the C module, or
** one of another copy of the module; for a mover, a character (the Lua
** layer's, which holds its mover); for a mesh, a builder or the arrays of
** cs.box (the fix for each; found by independent testers). */
const char *type_hint(const char *want, const char *got) {
  if (strcmp(want, MOVER_MT) == 0 && strcmp(got, "collideslide.Character") == 0)
    return " (pass character.mover)";
  if (strcmp(want, got) == 0)
    return " from the other binding (the C module's objects and collideslide.ffi's do not mix)";
  if (strcmp(want, MESH_MT) == 0 && strcmp(got, "collideslide.Builder") == 0)
    return " (a builder makes its mesh with builder:mesh())";
  if (strcmp(want, MESH_MT) == 0 && strcmp(got, "table") == 0)
    return " (arrays, as cs.box gives, make a mesh with cs.newMesh(vertices, indices))";
  return "";
}

/* The allocator of the core's objects: the C library's, not the state's.
** A batch on threads (world:setThreads) grows movers' and scratch memory on
** its threads, and a state's allocator need not be thread-safe (LuaJIT's
** own is not); the C library's is. */
cs_Alloc lua_alloc(lua_State *L) {
  (void)L;
  return cs_default_alloc();
}

int status_error(lua_State *L, const char *fname, cs_Status s) {
  return luaL_error(L, "%s: %s", fname, cs_status_string(s));
}

int push_vec3(lua_State *L, cs_Vec3 v) {
  lua_pushnumber(L, v.x); lua_pushnumber(L, v.y); lua_pushnumber(L, v.z);
  return 3;
}

/* }================================================================== */


/* {==================================================================
** Metatables and the module
** ===================================================================*/

/* __newindex of a type without fields (upvalue 1: its name), in the FFI
** binding's words: "attempt to set field 'k' of a collideslide.Mesh (it has
** no fields)", k as tostring shows it, at the caller's line. */
static int no_fields(lua_State *L) {
#if LUA_VERSION_NUM >= 502
  const char *k = luaL_tolstring(L, 2, NULL);      /* tostring's own */
#else
  const char *k;                                    /* (5.1, LuaJIT: no luaL_tolstring) */
  lua_getfield(L, LUA_GLOBALSINDEX, "tostring");
  lua_pushvalue(L, 2);
  lua_call(L, 1, 1);
  k = lua_tostring(L, -1);
#endif
  if (lua_type(L, 2) == LUA_TSTRING && name_at(L, 2) == NULL)
    return luaL_error(L, "attempt to set field (a NUL-holding string key) of a %s (it has no fields)",
                      lua_tostring(L, lua_upvalueindex(1)));
  return luaL_error(L, "attempt to set field '%s' of a %s (it has no fields)", k,
                    lua_tostring(L, lua_upvalueindex(1)));
}

/* A metatable named name: meta's metamethods, __name, and __index either
** the methods table or index_fn closed over it (types with fields; the others
** refuse every field: no_fields). */
static void new_type(lua_State *L, const csl_Type *t, const luaL_Reg *meta,
                     const luaL_Reg *methods, lua_CFunction index_fn) {
  luaL_newmetatable(L, t->name);
  csL_setfuncs(L, meta, 0);
  lua_pushstring(L, t->name);
  lua_setfield(L, -2, "__name");        /* 5.4 sets it; the others don't */
  if (index_fn == NULL) {
    lua_pushstring(L, t->name);
    lua_pushcclosure(L, no_fields, 1);
    lua_setfield(L, -2, "__newindex");
  }
  csL_newlib(L, methods);
  if (index_fn != NULL) lua_pushcclosure(L, index_fn, 1);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

CS_EXPORT int luaopen_collideslide_core(lua_State *L) {
  new_type(L, MESH_T, mesh_meta, mesh_methods, NULL);
  new_type(L, WORLD_T, world_meta, world_methods, NULL);
  new_type(L, BODY_T, body_meta, body_methods, body___index);
  new_type(L, MOVER_T, mover_meta, mover_methods, mover___index);
  new_type(L, SENSOR_T, sensor_meta, sensor_methods, sensor___index);
  csL_newlib(L, module_funcs);
  lua_pushliteral(L, CS_VERSION);
  lua_setfield(L, -2, "_VERSION");
  return 1;
}

/* }================================================================== */
