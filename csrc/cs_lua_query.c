/*
** cs_lua_query.c: the calls from Lua: world:collideAndSlide with its filter,
** sweeps, raycasts, closestPoint and the callback queries; the World's
** method table and the module's functions.
*/
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cs_lua.h"

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
/* Runs the Lua filter on what is pushed (the function, the mover, the body
** or other mover, the tag); returns its cs_Response, or -1 after parking the
** error. */
static int filter_call(CallCtx *c) {
  lua_State *L = c->L;
  int r = -1;
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

static int filter_trampoline(void *ud, const cs_Body *body, int tag) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  lua_pushvalue(L, c->fn);
  lua_pushvalue(L, c->self);
  push_body(L, c->bodies, body);
  lua_pushinteger(L, tag);
  return filter_call(c);
}

/* The same filter, asked about another mover (added to the world): its
** handle where the body goes, tag 0. */
static int mover_filter_trampoline(void *ud, const cs_Mover *other) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  lua_pushvalue(L, c->fn);
  lua_pushvalue(L, c->self);
  csL_rawgetp(L, c->bodies, cs_mover_get_userdata(other));
  lua_pushinteger(L, 0);
  return filter_call(c);
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
  cs_Vec3 walk = to_vec3(L, 3, VXYZ), grav = {0, 0, 0};
  int hasg = !lua_isnoneornil(L, 6) || !lua_isnoneornil(L, 7) || !lua_isnoneornil(L, 8);
  CallCtx c;
  cs_Status s;
  cs_Vec3 p;
  if (hasg) grav = to_vec3(L, 6, GXYZ);
  check_not_moving(L, w, "collideAndSlide");
  if (m->busy) luaL_error(L, "collideAndSlide: the mover is busy (called from inside its own filter)");
  lua_settop(L, 8);
  csL_getuservalue(L, 2);                             /* 9: mover's user value */
  lua_rawgeti(L, 9, MUV_FILTER);                      /* 10: filter */
  ctx_init(L, &c, 1, 10, 2);                          /* 11: bodies, 12: error */
  if (!lua_isnil(L, 10)) {
    cs_mover_set_filter(m->mover, filter_trampoline, &c);
    cs_mover_set_mover_filter(m->mover, mover_filter_trampoline, &c);
  }
  w->busy++;
  w->moving = 1;
  m->busy = 1;
  s = cs_world_collide_and_slide(w->world, m->mover, &walk, hasg ? &grav : NULL);
  w->busy--;
  w->moving = 0;
  m->busy = 0;
  cs_mover_set_filter(m->mover, NULL, NULL);
  cs_mover_set_mover_filter(m->mover, NULL, NULL);
  if ((s == CS_EINVAL || s == CS_ERANGE) && c.failed == 0)
    return core_fail(L, cs_world_error(w->world), 2, NULL, "collideAndSlide");
  if (s != CS_OK) return ctx_raise(L, &c, "collideAndSlide", s);
  store_handles(L, m, c.bodies, 9);
  cs_mover_get_position(m->mover, &p);
  return push_vec3(L, p);
}

/* t, px, py, pz, nx, ny, nz, triangle, body, tag; or nil. found < 0 is a
** failed call: -(cs_Status). */
static int push_hit(lua_State *L, int world, int found, const cs_Hit *h, const char *fname,
                    int base) {
  if (found == -(int)CS_EINVAL || found == -(int)CS_ERANGE)
    return core_fail(L, cs_world_error(((WorldUD *)lua_touserdata(L, world))->world), base, NULL, fname);
  if (found < 0) return ctx_raise(L, NULL, fname, (cs_Status)-found);
  if (!found) { lua_pushnil(L); return 1; }
  lua_pushnumber(L, h->t);
  push_vec3(L, h->point);
  push_vec3(L, h->normal);
  lua_pushinteger(L, (lua_Integer)h->triangle + 1);
  csL_getuservalue(L, world);
  push_hit_other(L, lua_gettop(L), h);
  lua_replace(L, -2);
  lua_pushinteger(L, h->tag);
  return 10;
}

static void mover_shape(cs_Mover *m, cs_Vec3 *p, cs_Vec3 *r, double q[4]) {
  cs_mover_get_position(m, p);
  cs_mover_get_radius(m, r);
  cs_mover_get_orientation(m, q);
}

/* world:sweep(mover, dx, dy, dz [, mask]): the mover's collidesWith, or
** mask when given. */
static int world_sweep(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover(L, 2);
  cs_Vec3 d = to_vec3(L, 3, DXYZ), p, r;
  double q[4];
  cs_Hit h;
  int found;
  check_not_moving(L, w, "sweep");
  if (lua_isnoneornil(L, 6)) {
    found = cs_world_sweep(w->world, m->mover, &d, &h);
    return push_hit(L, 1, found, &h, "sweep", 2);
  } else {
    unsigned mask = check_mask(L, 6, 6, NULL, "mask");
    mover_shape(m->mover, &p, &r, q);
    found = cs_world_sweep_ellipsoid(w->world, &p, &r, q, &d, mask, &h);
    return push_hit(L, 1, found, &h, "sweep", 2 - 10);   /* d is its 11th number */
  }
}

/* world:sweepEllipsoid(px, py, pz, rx, ry, rz, dx, dy, dz [, mask]) */
static int world_sweepEllipsoid(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 p = to_vec3(L, 2, PXYZ), r, d;
  unsigned mask;
  cs_Hit h;
  int found;
  r = to_vec3(L, 5, RXYZ);
  d = to_vec3(L, 8, DXYZ);
  mask = opt_mask(L, 11, ~0u);
  check_not_moving(L, w, "sweepEllipsoid");
  found = cs_world_sweep_ellipsoid(w->world, &p, &r, NULL, &d, mask, &h);
  /* the core counts p, r, q (4), d: d.x is its 11th number, Lua's 8th */
  if (found < 0 && cs_world_error(w->world)->arg >= 11)
    return push_hit(L, 1, found, &h, "sweepEllipsoid", 1 - 4);
  return push_hit(L, 1, found, &h, "sweepEllipsoid", 1);
}

/* world:raycast(ox, oy, oz, dx, dy, dz [, mask]) */
static int world_raycast(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 o = to_vec3(L, 2, OXYZ), d = to_vec3(L, 5, DXYZ);
  unsigned mask = opt_mask(L, 8, ~0u);
  cs_Hit h;
  int found;
  check_not_moving(L, w, "raycast");
  found = cs_world_raycast(w->world, &o, &d, mask, &h);
  return push_hit(L, 1, found, &h, "raycast", 1);
}

/* world:closestPoint(x, y, z [, maxDistance [, mask]])
**   -> px, py, pz, distance, triangle, body, nx, ny, nz, tag; or nil */
static int world_closestPoint(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 p = to_vec3(L, 2, XYZ);
  double maxd = HUGE_VAL;
  unsigned mask = opt_mask(L, 6, ~0u);
  cs_Hit h;
  int found;
  if (!lua_isnoneornil(L, 5)) maxd = to_num(L, 5, "maxDistance");
  check_not_moving(L, w, "closestPoint");
  found = cs_world_closest_point(w->world, &p, maxd, mask, &h);
  if (found < 0) return push_hit(L, 1, found, &h, "closestPoint", 1);
  if (!found) { lua_pushnil(L); return 1; }
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
                            const cs_Vec3 *n) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  if (lua_isnil(L, c->fn)) return 1;
  lua_pushvalue(L, c->fn);
  push_body(L, c->bodies, body);
  lua_pushinteger(L, (lua_Integer)triangle + 1);
  lua_pushnumber(L, depth);
  push_vec3(L, *n);
  lua_pushinteger(L, cs_mesh_tag(cs_body_mesh(body), triangle));
  return ctx_call(c, 7);
}

/* The same callback for an added mover the ellipsoid overlaps: the mover
** where the body goes, triangle 1, tag 0. */
static int mover_overlap_callback(void *ud, const cs_Mover *other, double depth,
                                  const cs_Vec3 *n) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  if (lua_isnil(L, c->fn)) return 1;
  lua_pushvalue(L, c->fn);
  csL_rawgetp(L, c->bodies, cs_mover_get_userdata(other));
  lua_pushinteger(L, 1);
  lua_pushnumber(L, depth);
  push_vec3(L, *n);
  lua_pushinteger(L, 0);
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
  push_hit_other(L, c->bodies, h);
  lua_pushinteger(L, h->tag);
  return ctx_call(c, 10);
}

static int query_done(lua_State *L, WorldUD *w, const CallCtx *c, long count, const char *fname,
                      int base) {
  w->busy--;
  if (c->failed != CTX_OK) return ctx_raise(L, c, fname, CS_EABORT);
  if (count == -(long)CS_EINVAL || count == -(long)CS_ERANGE)
    return core_fail(L, cs_world_error(w->world), base, NULL, fname);
  if (count < 0) return status_error(L, fname, CS_ENOMEM);
  lua_pushinteger(L, (lua_Integer)count);
  return 1;
}

/* world:queryBox(minx, miny, minz, maxx, maxy, maxz, fn [, mask]) -> count */
static int world_queryBox(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 lo = to_vec3(L, 2, MINXYZ), hi = to_vec3(L, 5, MAXXYZ);
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
  n = cs_world_query_box(w->world, &lo, &hi, mask, tri_callback, &c);
  return query_done(L, w, &c, n, "queryBox", 1);
}

/* world:overlapEllipsoid(px, py, pz, rx, ry, rz, fn [, mask]) -> count */
static int world_overlapEllipsoid(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 p = to_vec3(L, 2, PXYZ), r = to_vec3(L, 5, RXYZ);
  unsigned mask;
  CallCtx c;
  long n;
  check_callback(L, 8);
  mask = opt_mask(L, 9, ~0u);
  check_not_moving(L, w, "overlapEllipsoid");
  lua_settop(L, 9);
  ctx_init(L, &c, 1, 8, 0);
  w->busy++;
  n = cs_world_overlap(w->world, &p, &r, NULL, mask, NULL, overlap_callback,
                       mover_overlap_callback, &c);
  return query_done(L, w, &c, n, "overlapEllipsoid", 1);
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
  n = cs_world_overlap(w->world, &p, &r, q, mask, m->mover, overlap_callback,
                       mover_overlap_callback, &c);
  return query_done(L, w, &c, n, "overlap", 1);
}

/* world:raycastAll(ox, oy, oz, dx, dy, dz, fn [, mask]) -> count */
static int world_raycastAll(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  cs_Vec3 o = to_vec3(L, 2, OXYZ), d = to_vec3(L, 5, DXYZ);
  unsigned mask;
  CallCtx c;
  long n;
  check_callback(L, 8);
  mask = opt_mask(L, 9, ~0u);
  check_not_moving(L, w, "raycastAll");
  lua_settop(L, 9);
  ctx_init(L, &c, 1, 8, 0);
  w->busy++;
  n = cs_world_raycast_all(w->world, &o, &d, mask, hit_callback, &c);
  return query_done(L, w, &c, n, "raycastAll", 1);
}

/* }================================================================== */


const luaL_Reg world_meta[] = {
  {"__gc", world_close}, {"__close", world_close}, {"__tostring", world___tostring},
  {NULL, NULL}
};

const luaL_Reg world_methods[] = {
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

const luaL_Reg module_funcs[] = {
  {"newMesh", cs_newMesh}, {"newWorld", cs_newWorld}, {"newMover", cs_newMover},
  {NULL, NULL}
};
