/*
** cs_lua_world.c: worlds, bodies and sensors from Lua: cs.newWorld, add,
** remove, transforms, friction, layers, the body and sensor handles.
*/
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cs_lua.h"

/* {==================================================================
** Worlds and bodies
** ===================================================================*/

WorldUD *check_world(lua_State *L, int arg) {
  WorldUD *w = (WorldUD *)check_type(L, arg, WORLD_T);
  if (w->world == NULL) argfail(L, arg, "attempt to use a closed/collected World");
  return w;
}

/* Adding or removing bodies from inside one of the world's own filters or
** query callbacks would change the body list the core is walking: refused. */
void check_idle(lua_State *L, WorldUD *w, const char *fname) {
  if (w->busy > 0)
    luaL_error(L, "%s: the world is busy (called from inside a filter or a query "
               "callback of the same world)", fname);
}

/* Moves and sweeps use the world's scratch, which a collideAndSlide in
** progress (its filter running) holds: refused. Queries are re-entrant. */
void check_not_moving(lua_State *L, WorldUD *w, const char *fname) {
  if (w->moving)
    luaL_error(L, "%s: the world is busy (called from inside a filter of the same world)", fname);
}

/* Queries, and moves with a filter, nested in callbacks (a callback that
** runs the query again, in its world or another), each level a few C
** frames: LuaJIT has no limit on C calls, and some 3,000 levels overflowed
** the C stack (a segfault: found by an independent tester), where 5.1 and
** 5.4 stop at about 200 ("C stack overflow"). Refused below that, counted
** over all the state's worlds (counted per world, 26 worlds nested in
** turn overflowed it again: the next tester), in the same words on every
** Lua and in the FFI binding. */
void check_nesting(lua_State *L, WorldUD *w, const char *fname) {
  if (*w->depth >= MAX_NESTING)
    luaL_error(L, "%s: queries and moves nested too deeply in callbacks (%d levels)", fname,
               MAX_NESTING);
}

/* The state's nesting count (check_nesting), in the registry. */
static char DEPTH_KEY;
static int *state_depth(lua_State *L) {
  int *d;
  csL_rawgetp(L, LUA_REGISTRYINDEX, &DEPTH_KEY);
  d = (int *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (d) return d;
  d = (int *)lua_newuserdata(L, sizeof(int));
  *d = 0;
  csL_rawsetp(L, LUA_REGISTRYINDEX, &DEPTH_KEY);
  return d;
}

static BodyUD *check_body(lua_State *L, int arg) {
  BodyUD *b = (BodyUD *)check_type(L, arg, BODY_T);
  if (b->w->world == NULL) argfail(L, arg, "attempt to use a body of a closed/collected World");
  if (b->body == NULL) argfail(L, arg, "body was removed from its world");
  return b;
}

/* Pushes the handle of body (nil for NULL) from the bodies table at t.
** Allocates nothing: safe inside core callbacks. */
void push_body(lua_State *L, int t, const cs_Body *body) {
  if (body == NULL) lua_pushnil(L);
  else csL_rawgetp(L, t, cs_body_get_userdata(body));
}

/* Pushes what a query hit: its body's handle, or the added mover's. */
void push_hit_other(lua_State *L, int t, const cs_Hit *h) {
  if (h->mover != NULL) csL_rawgetp(L, t, cs_mover_get_userdata(h->mover));
  else push_body(L, t, h->body);
}

/* Pushes what a contact met: its body's handle, or the other mover's
** (added movers are in the same table, keyed by their MoverUD). */
void push_other(lua_State *L, int t, const cs_Contact *c) {
  if (c->mover != NULL) csL_rawgetp(L, t, cs_mover_get_userdata(c->mover));
  else push_body(L, t, c->body);
}

/* A transform as body:setTransform takes it: n is 3, 7, 10 or 16. */
typedef struct Xform { int n; double v[16]; } Xform;

static const char *const TRS_NAMES[10] = {"x", "y", "z", "qx", "qy", "qz", "qw", "sx", "sy", "sz"};

static void check_xform(lua_State *L, int first, Xform *x) {
  int n = lua_gettop(L) - first + 1, i, ty;
  char b[NUMBUF], c[NUMBUF];
  x->n = 0;
  if (n == 1 && lua_istable(L, first)) {
    size_t len = csL_len(L, first);
    check_array_end(L, first, first, len, "transform table");
    if (len != 3 && len != 7 && len != 10 && len != 16) {
      hole_fail(L, first, first, len, "transform table");
      argfail(L, first, "transform table has %s numbers, expected 3, 7, 10 or 16%s",
              fmtnum(b, (double)len), named_hint(L, first));
    }
    n = (int)len;
    for (i = 0; i < n; i++) {
      ty = elem_num(L, first, (size_t)i + 1, &x->v[i]);
      if (ty == LUA_TNIL) hole_fail(L, first, first, len, "transform table");
      if (ty != LUA_TNUMBER)
        argfail(L, first, "transform element %d must be a number, got %s", i + 1, lua_typename(L, ty));
      if (!isfinite(x->v[i]))
        argfail(L, first, "transform element %d is %s", i + 1, fmtnum(b, x->v[i]));
    }
  } else if (n == 3 || n == 7 || n == 10 || n == 16) {
    for (i = 0; i < n; i++) {
      if (n == 16) snprintf(c, sizeof c, "m[%d]", i + 1);
      x->v[i] = to_num(L, first + i, n == 16 ? c : TRS_NAMES[i]);
    }
  } else {
    argfail(L, first, "transform: expected 3, 7, 10 or 16 numbers or a table of them, got %d values", n);
  }
  x->n = n;
  /* the values (finite, in range, a usable quaternion, nonzero scales, an
  ** affine invertible matrix): the core's checks, cs_body_set_transform and
  ** cs_body_set_matrix (xform_fail raises them) */
}

/* The core's error for a transform check_xform took (a translation or
** scale past CS_MAX_COORD): the core counts the numbers as the positional
** forms do (the 16-number form too), so the argument is first - 1 + arg,
** or first itself for the table form. */
static int xform_fail(lua_State *L, cs_World *world, int first, int tableform);

static cs_Status apply_xform(cs_Body *body, const Xform *x) {
  cs_Vec3 t, s;
  double q[4] = {0, 0, 0, 1};
  if (x->n == 16) return cs_body_set_matrix(body, x->v);
  t.x = x->v[0]; t.y = x->v[1]; t.z = x->v[2];
  s.x = s.y = s.z = 1;
  if (x->n >= 7) { q[0] = x->v[3]; q[1] = x->v[4]; q[2] = x->v[5]; q[3] = x->v[6]; }
  if (x->n == 10) { s.x = x->v[7]; s.y = x->v[8]; s.z = x->v[9]; }
  return cs_body_set_transform(body, &t, q, &s);
}

/* The world handles by their core worlds (a table with weak values in the
** registry), so that what knows only a core world (an added mover's, at its
** close) finds the handle and asks whether it is busy. */
static const char WORLDS_KEY = 'w';

static void push_worlds(lua_State *L) {
  csL_rawgetp(L, LUA_REGISTRYINDEX, &WORLDS_KEY);
  if (lua_istable(L, -1)) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_newtable(L);                      /* its metatable: weak values */
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  csL_rawsetp(L, LUA_REGISTRYINDEX, &WORLDS_KEY);
}

WorldUD *world_of(lua_State *L, const cs_World *cw) {
  WorldUD *w;
  push_worlds(L);
  csL_rawgetp(L, -1, cw);
  w = (WorldUD *)lua_touserdata(L, -1);
  lua_pop(L, 2);
  return w != NULL && w->world == cw ? w : NULL;
}

/* cs.newWorld takes no arguments: one given was dropped without a word (a
** level's mesh gave an empty world, {threads = 2} one thread: found by an
** independent tester). The first non-nil one is refused, with the fix for
** the likely ones. */
static void check_no_args(lua_State *L) {
  int i, top = lua_gettop(L);
  const char *t, *fix = "";
  for (i = 1; i <= top && lua_isnil(L, i); i++) {}
  if (i > top) return;
  if (i == 1) check_not_module(L, 1, "newWorld");
  t = tname(L, i);
  if (strcmp(t, MESH_MT) == 0) fix = ": add meshes with world:add(mesh)";
  else if (strcmp(t, "collideslide.Builder") == 0) fix = ": add its mesh with world:add(builder:mesh())";
  else if (lua_type(L, i) == LUA_TTABLE) {
    lua_pushliteral(L, "threads");
    lua_rawget(L, i);
    if (!lua_isnil(L, -1)) fix = ": a world has no options; world:setThreads(k) sets its threads";
  }
  argfail(L, i, "no arguments expected, got %s%s", t, fix);
}

/* cs.newWorld() -> world */
int cs_newWorld(lua_State *L) {
  cs_Alloc a = lua_alloc(L);
  cs_Status s;
  WorldUD *w;
  check_no_args(L);
  w = (WorldUD *)new_object(L, WORLD_T);
  w->world = NULL; w->busy = 0; w->moving = 0; w->buf = NULL; w->bufsize = 0;
  w->depth = state_depth(L);
  lua_newtable(L);                      /* lightuserdata(BodyUD *) -> handle */
  csL_setuservalue(L, -2);
  push_worlds(L);                       /* (before the core world: may raise) */
  s = cs_world_new(&a, &w->world);
  if (s != CS_OK) { w->world = NULL; return status_error(L, "newWorld", s); }
  lua_pushvalue(L, -2);
  csL_rawsetp(L, -2, w->world);         /* (on a memory error, __gc frees the world) */
  lua_pop(L, 1);
  return 1;
}

/* Serves __gc and __close; safe to call twice. Frees the core world, marks
** its handles dead and releases their meshes. Handles and meshes are still
** valid memory here even when collected in the same cycle: objects being
** finalized, and all they reach, are freed in the next cycle only. */
int world_close(lua_State *L) {
  WorldUD *w = (WorldUD *)check_type(L, 1, WORLD_T);
  if (w->world == NULL) return 0;
  if (w->busy > 0) return luaL_error(L, "cannot close a World while a filter or query callback of it runs");
  cs_world_free(w->world);              /* ends its threads */
  w->world = NULL;
  if (w->buf != NULL) {
    void *ud;
    lua_Alloc f = lua_getallocf(L, &ud);
    f(ud, w->buf, w->bufsize, 0);
    w->buf = NULL;
    w->bufsize = 0;
  }
  csL_getuservalue(L, 1);
  if (!lua_istable(L, -1)) return 0;
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    if (test_type(L, -1, MOVER_T) != NULL) {
      /* an added mover: the core world forgets it as it is freed */
    } else if (test_type(L, -1, SENSOR_T) != NULL) {
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

int world___tostring(lua_State *L) {
  WorldUD *w = (WorldUD *)check_type(L, 1, WORLD_T);
  if (w->world == NULL) lua_pushfstring(L, WORLD_MT " (closed): %p", (void *)w);
  else lua_pushfstring(L, WORLD_MT " (%d bodies): %p", (int)cs_world_body_count(w->world), (void *)w);
  return 1;
}

/* world:add(mesh [, transform...]) -> body */
int world_add(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MeshUD *m = check_mesh(L, 2);
  Xform x;
  BodyUD *b;
  cs_Body *body = NULL;
  cs_Status s;
  int tableform;
  x.n = 0;
  if (lua_gettop(L) >= 3 && !(lua_gettop(L) == 3 && lua_isnil(L, 3))) check_xform(L, 3, &x);
  tableform = lua_istable(L, 3);
  check_idle(L, w, "add");
  lua_settop(L, 2);
  b = (BodyUD *)new_object(L, BODY_T);                        /* 3 */
  b->w = w; b->m = m; b->body = NULL;
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
    if (s == CS_EINVAL || s == CS_ERANGE) return xform_fail(L, w->world, 3, tableform);
    return status_error(L, "add", s);
  }
  b->body = body;
  m->users++;
  lua_settop(L, 3);
  return 1;
}

/* world:remove(body): the handle is dead afterwards. */
int world_remove(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  BodyUD *b = (BodyUD *)check_type(L, 2, BODY_T);
  check_one(L, 2, "body", "remove");
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

int world_bodyCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_world_body_count(check_world(L, 1)->world));
  return 1;
}

static int check_tag(lua_State *L, int arg) {
  double d = 0;
  char b[NUMBUF];
  int r = to_intval(L, arg, &d);
  if (r == 0) argfail(L, arg, "tag must be an integer, got %s", arg_tname(L, arg));
  if (r < 0 || d < -2147483648.0 || d > 2147483647.0)
    argfail(L, arg, "tag must be a 32-bit integer, got %s", fmtnum(b, d));
  return (int)d;
}

/* world:setFriction(tag, coefficient in [0, 1]) */
int world_setFriction(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  int tag = check_tag(L, 2);
  double c = to_num(L, 3, "coefficient");
  if (cs_world_set_friction(w->world, tag, c) != CS_OK)
    core_fail(L, cs_world_error(w->world), 1, NULL, "setFriction");
  return 0;
}

int world_getFriction(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  lua_pushnumber(L, cs_world_get_friction(w->world, check_tag(L, 2)));
  return 1;
}

static int xform_fail(lua_State *L, cs_World *world, int first, int tableform) {
  const cs_Error *e = cs_world_error(world);
  if (tableform) return argfail(L, first, "%s", e->message);
  return core_fail(L, e, first - 1, NULL, "setTransform");
}

/* body:setTransform(...): see check_xform for the forms. */
static int body_setTransform(lua_State *L) {
  BodyUD *b = check_body(L, 1);
  Xform x;
  if (lua_gettop(L) < 2) argfail(L, 2, "transform: expected 3, 7, 10 or 16 numbers or a table of them, got none");
  check_xform(L, 2, &x);
  if (apply_xform(b->body, &x) != CS_OK) xform_fail(L, b->w->world, 2, lua_istable(L, 2));
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
  cs_Vec3 v = to_vec3(L, 2, VXYZ);
  if (cs_body_set_velocity(b->body, &v) != CS_OK)
    core_fail(L, cs_world_error(b->w->world), 1, NULL, "setVelocity");
  return 0;
}

static int body_getVelocity(lua_State *L) {
  cs_Vec3 v;
  cs_body_get_velocity(check_body(L, 1)->body, &v);
  return push_vec3(L, v);
}

/* A trailing nil is "no value" (arg_tname), as API.md's Conventions say and
** the other checks word it: setEnabled(nil) said "got nil" (found by an
** independent tester). */
static int body_setEnabled(lua_State *L) {
  BodyUD *b = check_body(L, 1);
  if (lua_type(L, 2) != LUA_TBOOLEAN) argfail(L, 2, "enabled must be a boolean, got %s", arg_tname(L, 2));
  if (cs_body_set_enabled(b->body, lua_toboolean(L, 2)) != CS_OK)
    core_fail(L, cs_world_error(b->w->world), 1, NULL, "setEnabled");
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
  push_vec3(L, lo);
  push_vec3(L, hi);
  return 6;
}

static int body_isRemoved(lua_State *L) {
  BodyUD *b = (BodyUD *)check_type(L, 1, BODY_T);
  lua_pushboolean(L, b->body == NULL);
  return 1;
}

/* {==================================================================
** The fields of bodies and sensors (placed meshes): layers, a 32-bit mask,
** and userdata, any Lua value kept in the handle's user value (readable
** and writable after a removal). Anything else is a method (upvalue 1).
** ===================================================================*/

typedef struct PlacedKind {
  const csl_Type *type;
  const char *name;                         /* "Body" or "Sensor" */
  unsigned (*layers)(lua_State *L);         /* of the live handle at 1 */
  void (*set_layers)(lua_State *L, unsigned mask);
} PlacedKind;

static int placed_index(lua_State *L, const PlacedKind *kind) {
  const char *k;
  lua_pushvalue(L, 2);             /* a method first: the call checks self */
  lua_rawget(L, lua_upvalueindex(1));                /* methods */
  if (!lua_isnil(L, -1) || lua_type(L, 2) != LUA_TSTRING) return 1;
  check_type(L, 1, kind->type);
  if ((k = name_at(L, 2)) == NULL) return 1;          /* nil (a NUL byte) */
  if (strcmp(k, "layers") == 0) {
    csL_pushuint(L, kind->layers(L));
  } else if (strcmp(k, "userdata") == 0) {
    csL_getuservalue(L, 1);
    lua_rawgeti(L, -1, BUV_USERDATA);
  }
  return 1;
}

static int placed_newindex(lua_State *L, const PlacedKind *kind) {
  const char *k = name_at(L, 2);
  check_type(L, 1, kind->type);
  if (k != NULL && strcmp(k, "layers") == 0) {
    kind->set_layers(L, check_mask(L, 3, 3, "__newindex", "layers"));
  } else if (k != NULL && strcmp(k, "userdata") == 0) {
    csL_getuservalue(L, 1);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, BUV_USERDATA);
  } else if (k != NULL) {
    fail_at(L, 2, "__newindex", "unknown %s field '%s' (fields: layers, userdata)", kind->name, k);
  } else {
    fail_at(L, 2, "__newindex", "unknown %s field (a %s key)", kind->name, key_kind(L, 2));
  }
  return 0;
}

/* }================================================================== */

static unsigned body_layers(lua_State *L) { return cs_body_get_layers(check_body(L, 1)->body); }
static void body_set_layers(lua_State *L, unsigned mask) {
  BodyUD *b = check_body(L, 1);
  if (cs_body_set_layers(b->body, mask) != CS_OK)
    core_fail(L, cs_world_error(b->w->world), 2, NULL, "__newindex");
}
static const PlacedKind BODY_KIND = {BODY_T, "Body", body_layers, body_set_layers};

int body___index(lua_State *L) { return placed_index(L, &BODY_KIND); }
static int body___newindex(lua_State *L) { return placed_newindex(L, &BODY_KIND); }

static int body___tostring(lua_State *L) {
  BodyUD *b = (BodyUD *)check_type(L, 1, BODY_T);
  if (b->body == NULL) lua_pushfstring(L, BODY_MT " (removed): %p", (void *)b);
  else lua_pushfstring(L, BODY_MT " (mesh of %d triangles): %p",
                       (int)cs_mesh_triangle_count(cs_body_mesh(b->body)), (void *)b);
  return 1;
}

/* }================================================================== */


/* {==================================================================
** Sensors: closed volumes whose crossings movers record (issue 16)
** ===================================================================*/

SensorUD *check_sensor(lua_State *L, int arg) {
  SensorUD *sn = (SensorUD *)check_type(L, arg, SENSOR_T);
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
  return cs_sensor_set_transform(sn, &t, q, &sc);
}

/* world:addSensor(mesh [, transform...]) -> sensor */
int world_addSensor(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MeshUD *m = check_mesh(L, 2);
  Xform x;
  SensorUD *sn;
  cs_Sensor *sensor = NULL;
  unsigned bad[2] = {0, 0};
  int uses = 0, xfail = 0, tableform;
  cs_Status s;
  x.n = 0;
  if (lua_gettop(L) >= 3 && !(lua_gettop(L) == 3 && lua_isnil(L, 3))) check_xform(L, 3, &x);
  tableform = lua_istable(L, 3);
  check_idle(L, w, "addSensor");
  lua_settop(L, 2);
  sn = (SensorUD *)new_object(L, SENSOR_T);                  /* 3 */
  sn->w = w; sn->m = m; sn->sensor = NULL;
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
    if (s != CS_OK) { cs_world_remove_sensor(w->world, sensor); xfail = 1; }
  }
  if (s != CS_OK) {
    lua_pushnil(L);
    csL_rawsetp(L, 4, sn);             /* setting a field to nil never raises */
    if (xfail) return xform_fail(L, w->world, 3, tableform);   /* the core's words */
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
int world_removeSensor(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  SensorUD *sn = (SensorUD *)check_type(L, 2, SENSOR_T);
  check_one(L, 2, "sensor", "removeSensor");
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

int world_sensorCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_world_sensor_count(check_world(L, 1)->world));
  return 1;
}

/* sensor:setTransform(...): the forms of body:setTransform. */
static int sensor_setTransform(lua_State *L) {
  SensorUD *sn = check_sensor(L, 1);
  Xform x;
  if (lua_gettop(L) < 2) argfail(L, 2, "transform: expected 3, 7, 10 or 16 numbers or a table of them, got none");
  check_xform(L, 2, &x);
  if (apply_sensor_xform(sn->sensor, &x) != CS_OK) xform_fail(L, sn->w->world, 2, lua_istable(L, 2));
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
  cs_Vec3 p = to_vec3(L, 2, XYZ);
  int in = cs_sensor_contains(sn->sensor, &p);
  if (in < 0) core_fail(L, cs_world_error(sn->w->world), 1, NULL, "contains");
  lua_pushboolean(L, in);
  return 1;
}

static int sensor_getMesh(lua_State *L) {
  check_sensor(L, 1);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, BUV_MESH);
  return 1;
}

static int sensor_isRemoved(lua_State *L) {
  SensorUD *sn = (SensorUD *)check_type(L, 1, SENSOR_T);
  lua_pushboolean(L, sn->sensor == NULL || sn->w->world == NULL);
  return 1;
}

static unsigned sensor_layers(lua_State *L) { return cs_sensor_get_layers(check_sensor(L, 1)->sensor); }
static void sensor_set_layers(lua_State *L, unsigned mask) {
  SensorUD *sn = check_sensor(L, 1);
  if (cs_sensor_set_layers(sn->sensor, mask) != CS_OK)
    core_fail(L, cs_world_error(sn->w->world), 2, NULL, "__newindex");
}
static const PlacedKind SENSOR_KIND = {SENSOR_T, "Sensor", sensor_layers, sensor_set_layers};

int sensor___index(lua_State *L) { return placed_index(L, &SENSOR_KIND); }
static int sensor___newindex(lua_State *L) { return placed_newindex(L, &SENSOR_KIND); }

static int sensor___tostring(lua_State *L) {
  SensorUD *sn = (SensorUD *)check_type(L, 1, SENSOR_T);
  if (sn->sensor == NULL || sn->w->world == NULL)
    lua_pushfstring(L, SENSOR_MT " (removed): %p", (void *)sn);
  else lua_pushfstring(L, SENSOR_MT " (mesh of %d triangles): %p",
                       (int)cs_mesh_triangle_count(cs_sensor_mesh(sn->sensor)), (void *)sn);
  return 1;
}




/* }================================================================== */


const luaL_Reg body_meta[] = {
  {"__newindex", body___newindex}, {"__tostring", body___tostring},
  {NULL, NULL}
};

const luaL_Reg body_methods[] = {
  {"setTransform", body_setTransform}, {"getTransform", body_getTransform},
  {"setVelocity", body_setVelocity}, {"getVelocity", body_getVelocity},
  {"setEnabled", body_setEnabled}, {"isEnabled", body_isEnabled},
  {"getMesh", body_getMesh}, {"getBounds", body_getBounds}, {"isRemoved", body_isRemoved},
  {NULL, NULL}
};

const luaL_Reg sensor_meta[] = {
  {"__newindex", sensor___newindex}, {"__tostring", sensor___tostring},
  {NULL, NULL}
};

const luaL_Reg sensor_methods[] = {
  {"setTransform", sensor_setTransform}, {"getTransform", sensor_getTransform},
  {"contains", sensor_contains}, {"getMesh", sensor_getMesh}, {"isRemoved", sensor_isRemoved},
  {NULL, NULL}
};
