/*
** cs_lua_mover.c: movers from Lua: cs.newMover, the fields (settings), the
** setters, the last call's contacts, ground and sensor events.
*/
#include <ctype.h>
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cs_lua.h"

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

/* The name of list (NULL-terminated) that differs from k only in case, or NULL. */
static const char *same_but_case(const char *k, const char *const *list) {
  for (; *list; list++) {
    const char *a = k, *f = *list;
    while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*f)) { a++; f++; }
    if (*a == '\0' && *f == '\0') return *list;
  }
  return NULL;
}

/* newMover's keys in the order it checks their values (alphabetical, as the
** FFI binding's: in next()'s order the first bad one reported changed from
** run to run on Lua 5.4; found by an independent tester). */
static const char *const settings_sorted[] = {
  "blockSteepSlopes", "collidesWith", "filter", "layers", "maxIterations", "orientation",
  "position", "radius", "skin", "slopeLimit", "snapDistance", "stepHeight", "up", NULL
};

/* newMover's shape keys, which are no fields: each is set by its setter. */
static const char *const shape_keys[] = {"radius", "position", "up", "orientation", NULL};
static const char *const shape_setters[] = {"setRadius(rx, ry, rz)", "setPosition(x, y, z)",
                                            "setUp(x, y, z)", "setOrientation(qx, qy, qz, qw)"};

/* The character's own settings, which a plain mover does not take (a
** newcomer's cs.newMover{walkSpeed = 4}: found by an independent tester). */
static const char *const character_keys[] = {"walkSpeed", "runSpeed", "jumpSpeed", "airControl",
                                             "gravity", "pushDrag", NULL};

/* For an unknown field k: the field whose name differs from k only in case
** (a typo such as stepheight), as "' (did you mean '...'?)" to follow k's
** closing quote in a message, else "'". The shape keys count too, and a
** character's setting names cs.newCharacter. */
static const char *field_hint(const char *k, char *buf, size_t n) {
  const char *f = same_but_case(k, mover_fields);
  if (f == NULL) f = same_but_case(k, shape_keys);
  if (f == NULL && (f = same_but_case(k, character_keys)) != NULL) {
    snprintf(buf, n, "' (%s is a character's setting: cs.newCharacter takes it)", f);
    return buf;
  }
  if (f == NULL) return "'";
  snprintf(buf, n, "' (did you mean '%s'?)", f);
  return buf;
}

/* For a field k assigned (m.k = v): a shape key names its setter (an
** independent tester's m.position = {...} was told "did you mean
** 'position'?"); else field_hint. */
static const char *newindex_hint(const char *k, char *buf, size_t n) {
  const char *f = same_but_case(k, shape_keys);
  int i;
  if (f == NULL) return field_hint(k, buf, n);
  for (i = 0; shape_keys[i] != f; i++) {}
  snprintf(buf, n, "' (set it with mover:%s)", shape_setters[i]);
  return buf;
}

MoverUD *check_mover(lua_State *L, int arg) {
  MoverUD *m = (MoverUD *)check_type(L, arg, MOVER_T);
  if (m->mover == NULL) argfail(L, arg, "attempt to use a closed/collected Mover");
  return m;
}

/* A mover that is moving (its filter runs) cannot be changed. */
static MoverUD *check_mover_idle(lua_State *L, int arg, const char *fname) {
  MoverUD *m = check_mover(L, arg);
  if (m->busy) luaL_error(L, "%s: the mover is busy (its move is under way: called from a filter)", fname);
  return m;
}

/* The value at vi for field f, checked; the number cs_mover_set takes (the
** filter is only checked). Errors go to argument arg of fname (NULL: the
** running function). */
static double check_field(lua_State *L, int f, int vi, int arg, const char *fname) {
  const char *name = mover_fields[f];
  switch (f) {
    case MF_MAXIT:      /* the core checks the value: an integer in 1..1000 */
      if (lua_type(L, vi) != LUA_TNUMBER)
        fail_at(L, arg, fname, "%s must be an integer, got %s", name, tname(L, vi));
      return (double)lua_tonumber(L, vi);
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
  if (f == MF_SKIN && lua_isnil(L, vi)) return 0;   /* back to auto: set_field */
  if (lua_type(L, vi) != LUA_TNUMBER)
    fail_at(L, arg, fname, "%s must be a number, got %s", name, tname(L, vi));
  return (double)lua_tonumber(L, vi);   /* the core checks the value (cs_mover_set) */
}

static void push_field(lua_State *L, MoverUD *m, int self, int f) {
  double d;
  if (f == MF_FILTER) {
    csL_getuservalue(L, self);
    lua_rawgeti(L, -1, MUV_FILTER);
    return;
  }
  d = cs_mover_get(m->mover, mover_settings[f]);     /* (an auto skin: the one in use) */
  switch (f) {
    case MF_MAXIT: lua_pushinteger(L, (lua_Integer)d); break;
    case MF_BLOCK: lua_pushboolean(L, d != 0); break;
    case MF_MASK: case MF_LAYERS: csL_pushuint(L, (unsigned)d); break;
    default: lua_pushnumber(L, d); break;
  }
}

/* A field's value (check_field) into the core, which checks it; a nil skin
** (isnil) goes back to auto. */
static cs_Status set_field(MoverUD *m, int f, double d, int isnil) {
  if (f == MF_SKIN && isnil) return cs_mover_set_skin_auto(m->mover);
  return cs_mover_set(m->mover, mover_settings[f], d);
}

static int field_fail(lua_State *L, MoverUD *m, const char *prefix) {
  return argfail(L, 1, "%s%s", prefix, cs_mover_error(m->mover)->message);
}

/* A key newMover takes: a shape key or a field. */
static int is_setting(const char *k) {
  return strcmp(k, "radius") == 0 || strcmp(k, "position") == 0 || strcmp(k, "up") == 0 ||
         strcmp(k, "orientation") == 0 || mover_field(k) >= 0;
}

/* cs.newMover{radius = r | {rx, ry, rz}, position = {x, y, z},
**   orientation = {qx, qy, qz, qw}, up = {x, y, z}, <any field>} -> mover */
int cs_newMover(lua_State *L) {
  double vals[MF_N], q[4] = {0, 0, 0, 1}, r[3] = {0.5, 0.5, 0.5}, p[3] = {0, 0, 0}, up[3] = {0, 1, 0};
  int have[MF_N], hq = 0, hr = 0, hp = 0, hu = 0, f;
  const char *bad = NULL;
  cs_Alloc a = lua_alloc(L);
  cs_Status s;
  MoverUD *m;
  cs_Vec3 v;
  char b[NUMBUF];
  memset(have, 0, sizeof have);
  memset(vals, 0, sizeof vals);
  lua_settop(L, 1);
  if (lua_isnil(L, 1)) { lua_pop(L, 1); lua_newtable(L); }
  check_table(L, 1);
  check_not_module(L, 1, "newMover");
  switch (least_unknown(L, 1, is_setting, &bad)) {    /* (whatever order next() takes) */
  case 2: argfail(L, 1, "unknown Mover field (a %s key)", bad); break;
  case 1: {
    char hint[96];
    argfail(L, 1, "unknown Mover field '%s%s", bad, field_hint(bad, hint, sizeof hint));
    break;
  }
  }
  for (f = 0; settings_sorted[f] != NULL; f++) {
    const char *k = settings_sorted[f];
    int vi;
    lua_pushstring(L, k);
    lua_rawget(L, 1);
    vi = lua_gettop(L);
    if (lua_isnil(L, vi)) { lua_pop(L, 1); continue; }
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
    } else if (strcmp(k, "position") == 0 || strcmp(k, "up") == 0) {
      int isup = k[0] == 'u';
      if (!lua_istable(L, vi)) argfail(L, 1, "%s must be a table {x, y, z}, got %s", k, tname(L, vi));
      table_nums(L, 1, vi, k, XYZ, 3, isup ? up : p);
      if (isup) hu = 1;
      else hp = 1;
    } else if (strcmp(k, "orientation") == 0) {
      if (!lua_istable(L, vi))
        argfail(L, 1, "orientation must be a table {qx, qy, qz, qw}, got %s", tname(L, vi));
      table_nums(L, 1, vi, "orientation", QXYZW, 4, q);
      hq = 1;
    } else {                                  /* a field (least_unknown found no other) */
      int fi = mover_field(k);
      vals[fi] = check_field(L, fi, vi, 1, NULL);
      have[fi] = 1;
    }
    lua_pop(L, 1);
  }
  m = (MoverUD *)new_object(L, MOVER_T);                /* 2 */
  m->mover = NULL; m->busy = 0; m->nhandles = 0; m->nevents = 0;
  m->nkeys = MOVER_KEYS + 1;          /* no keys kept yet */
  m->distinct = 0;
  m->filtered = 0;
  lua_createtable(L, 5, 0);
  lua_newtable(L);
  lua_rawseti(L, -2, MUV_CONTACTS);
  lua_newtable(L);
  lua_rawseti(L, -2, MUV_EVENTS);
  if (have[MF_FILTER]) {
    lua_pushliteral(L, "filter");
    lua_rawget(L, 1);
    m->filtered = !lua_isnil(L, -1);
    lua_rawseti(L, -2, MUV_FILTER);
  }
  csL_setuservalue(L, 2);
  s = cs_mover_new(&a, &m->mover);
  if (s != CS_OK) { m->mover = NULL; return status_error(L, "newMover", s); }
  cs_mover_set_userdata(m->mover, m);
  cs_mover_mark_filtered(m->mover, m->filtered);
  /* the core's checks (a value past CS_MAX_COORD): the field and its message */
  if (hr) { v.x = r[0]; v.y = r[1]; v.z = r[2];
    if (cs_mover_set_radius(m->mover, &v) != CS_OK) return field_fail(L, m, "radius: "); }
  if (hp) { v.x = p[0]; v.y = p[1]; v.z = p[2];
    if (cs_mover_set_position(m->mover, &v) != CS_OK) return field_fail(L, m, "position: "); }
  if (hu) { v.x = up[0]; v.y = up[1]; v.z = up[2];
    if (cs_mover_set_up(m->mover, &v) != CS_OK) return field_fail(L, m, "up: "); }
  if (hq && cs_mover_set_orientation(m->mover, q) != CS_OK) return field_fail(L, m, "orientation: ");
  for (f = 0; f < MF_FILTER; f++)
    if (have[f] && set_field(m, f, vals[f], have[f] == 2) != CS_OK) return field_fail(L, m, "");
  return 1;
}

/* Serves __gc and __close; safe to call twice. */
static int mover_close(lua_State *L) {
  MoverUD *m = (MoverUD *)check_type(L, 1, MOVER_T);
  if (m->mover == NULL) return 0;
  if (m->busy) return luaL_error(L, "cannot close a Mover while its move is under way (from a filter)");
  if (cs_mover_added_to(m->mover) != NULL) {      /* the world's moves and queries may hold it */
    WorldUD *w = world_of(L, cs_mover_added_to(m->mover));
    if (w != NULL && w->busy > 0)
      return luaL_error(L, "cannot close a Mover added to a world while a filter or query callback "
                        "of that world runs (world:removeMover is refused there too)");
  }
  cs_mover_free(m->mover);
  m->mover = NULL;
  return 0;
}

static int mover___tostring(lua_State *L) {
  MoverUD *m = (MoverUD *)check_type(L, 1, MOVER_T);
  char b[3][NUMBUF];
  cs_Vec3 p;
  if (m->mover == NULL) { lua_pushfstring(L, MOVER_MT " (closed): %p", (void *)m); return 1; }
  cs_mover_get_position(m->mover, &p);
  lua_pushfstring(L, MOVER_MT " (%s, %s, %s): %p", fmtnum(b[0], p.x), fmtnum(b[1], p.y),
                  fmtnum(b[2], p.z), (void *)m);
  return 1;
}

int mover___index(lua_State *L) {
  MoverUD *m;
  int f;
  lua_pushvalue(L, 2);             /* a method first: the call checks self */
  lua_rawget(L, lua_upvalueindex(1));                /* methods */
  if (!lua_isnil(L, -1) || lua_type(L, 2) != LUA_TSTRING) return 1;
  if (name_at(L, 2) == NULL || (f = mover_field(lua_tostring(L, 2))) < 0) return 1;   /* nil */
  m = check_mover(L, 1);
  push_field(L, m, 1, f);
  return 1;
}

static int mover___newindex(lua_State *L) {
  const char *k = name_at(L, 2);
  int f = k != NULL ? mover_field(k) : -1;
  double d;
  MoverUD *m = check_mover(L, 1);
  if (f < 0) {
    char hint[96];
    if (k != NULL) fail_at(L, 2, "__newindex", "unknown Mover field '%s%s", k, newindex_hint(k, hint, sizeof hint));
    fail_at(L, 2, "__newindex", "unknown Mover field (a %s key)", key_kind(L, 2));
  }
  d = check_field(L, f, 3, 3, "__newindex");
  if (m->busy) luaL_error(L, "__newindex: the mover is busy (its move is under way: called from a filter)");
  if (f == MF_FILTER) {
    csL_getuservalue(L, 1);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, MUV_FILTER);
    m->filtered = !lua_isnil(L, 3);
    cs_mover_mark_filtered(m->mover, m->filtered);
  } else if (set_field(m, f, d, lua_isnil(L, 3)) != CS_OK) {
    fail_at(L, 3, "__newindex", "%s", cs_mover_error(m->mover)->message);
  }
  return 0;
}


static int mover_getPosition(lua_State *L) {
  cs_Vec3 p;
  cs_mover_get_position(check_mover(L, 1)->mover, &p);
  return push_vec3(L, p);
}

static int mover_setPosition(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  cs_Vec3 p = to_vec3(L, 2, XYZ);
  check_mover_idle(L, 1, "setPosition");
  if (cs_mover_set_position(m->mover, &p) != CS_OK)
    core_fail(L, cs_mover_error(m->mover), 1, NULL, "setPosition");
  return 0;
}

static int mover_getRadius(lua_State *L) {
  cs_Vec3 r;
  cs_mover_get_radius(check_mover(L, 1)->mover, &r);
  return push_vec3(L, r);
}

/* mover:setRadius(r) (a sphere) or mover:setRadius(rx, ry, rz) */
static int mover_setRadius(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  cs_Vec3 r;
  int sphere = lua_isnoneornil(L, 3) && lua_isnoneornil(L, 4);
  r.x = to_num(L, 2, "rx");
  if (sphere) r.y = r.z = r.x;
  else { r.y = to_num(L, 3, "ry"); r.z = to_num(L, 4, "rz"); }
  check_mover_idle(L, 1, "setRadius");
  if (cs_mover_set_radius(m->mover, &r) != CS_OK) {
    const cs_Error *e = cs_mover_error(m->mover);
    if (sphere && e->arg > 0) argfail(L, 2, "%s", e->message);   /* the one number, as rx */
    core_fail(L, e, 1, NULL, "setRadius");
  }
  return 0;
}

static int mover_setOrientation(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  double q[4];
  int i;
  for (i = 0; i < 4; i++) q[i] = to_num(L, 2 + i, QXYZW[i]);
  check_mover_idle(L, 1, "setOrientation");
  if (cs_mover_set_orientation(m->mover, q) != CS_OK)
    core_fail(L, cs_mover_error(m->mover), 1, NULL, "setOrientation");
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
  cs_Vec3 u = to_vec3(L, 2, XYZ);
  check_mover_idle(L, 1, "setUp");
  if (cs_mover_set_up(m->mover, &u) != CS_OK) core_fail(L, cs_mover_error(m->mover), 1, NULL, "setUp");
  return 0;
}

static int mover_getUp(lua_State *L) {
  cs_Vec3 u;
  cs_mover_get_up(check_mover(L, 1)->mover, &u);
  return push_vec3(L, u);
}

static int mover_contactCount(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)cs_mover_contact_count(check_mover(L, 1)->mover));
  return 1;
}

/* Where contact i's handle is in MUV_CONTACTS (0-based): the place of its
** key among the distinct ones (nhandles, none: nil), or i (see MoverUD). */
static size_t contact_slot(const MoverUD *m, size_t i) {
  if (!m->distinct || i >= m->nkeys) return i;
  return dkey_slot(m, m->keys[i], m->nhandles);
}

/* The passes' names, in CS_PASS_* order (cs_Contact.pass). */
static const char *const pass_names[] = {"walk", "gravity", "carry", "step", "snap", "depenetrate"};

/* mover:getContact(i) -> px, py, pz, nx, ny, nz, triangle, body, tag, pass */
static int mover_getContact(lua_State *L) {
  MoverUD *m = check_mover(L, 1);
  size_t i = check_index(L, 2, "contact", cs_mover_contact_count(m->mover));
  const cs_Contact *c = cs_mover_contact(m->mover, i);
  push_vec3(L, c->point);
  push_vec3(L, c->normal);
  lua_pushinteger(L, (lua_Integer)c->triangle + 1);
  csL_getuservalue(L, 1);
  lua_rawgeti(L, -1, MUV_CONTACTS);
  lua_rawgeti(L, -1, (int)contact_slot(m, i) + 1);
  lua_replace(L, -3);
  lua_pop(L, 1);
  lua_pushinteger(L, c->tag);
  lua_pushstring(L, c->pass >= 0 && c->pass < (int)(sizeof pass_names / sizeof *pass_names)
                      ? pass_names[c->pass] : "walk");
  return 10;
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


/* Sensor events and states of the last call (issue 16). */
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

/* {==================================================================
** Movers that meet (issue 14): added movers are solid to each other. The
** world's handle table keeps each added mover's handle (keyed by its
** MoverUD), so contacts can name it and it stays alive while added.
** ===================================================================*/

/* world:addMover(mover) */
int world_addMover(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover_idle(L, 2, "addMover");
  cs_Status s;
  check_one(L, 2, "mover", "addMover");
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
int world_removeMover(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  MoverUD *m = check_mover_idle(L, 2, "removeMover");
  check_one(L, 2, "mover", "removeMover");
  check_idle(L, w, "removeMover");
  if (cs_mover_added_to(m->mover) != w->world) argfail(L, 2, "the mover is not in this world");
  cs_world_remove_mover(w->world, m->mover);
  csL_getuservalue(L, 1);
  lua_pushnil(L);
  csL_rawsetp(L, -2, m);
  return 0;
}

int world_moverCount(lua_State *L) {
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

const luaL_Reg mover_meta[] = {
  {"__gc", mover_close}, {"__close", mover_close}, {"__tostring", mover___tostring},
  {"__newindex", mover___newindex},
  {NULL, NULL}
};

const luaL_Reg mover_methods[] = {
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
