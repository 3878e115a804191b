/*
** cs_lua_query.c: the calls from Lua: world:collideAndSlide with its filter,
** sweeps, raycasts, closestPoint and the callback queries; the World's
** method table and the module's functions.
*/
#include <float.h>
#include <limits.h>
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
  int list;             /* 0, or the stack index of a table where fn and self
                        ** are keys instead (collideAndSlideMany's filters) */
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
  c->list = 0;
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
    if (lua_type(L, c->err) == LUA_TSTRING) {      /* whole, NUL bytes too, as the FFI's */
      luaL_where(L, 1);
      lua_pushfstring(L, "%s: the filter returned \"", fname);
      lua_pushvalue(L, c->err);
      lua_pushliteral(L, "\" (expected \"slide\", \"touch\" or \"cross\")");
      lua_concat(L, 4);
      return lua_error(L);
    }
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
  if (name_at(L, -1) != NULL) {
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

/* Pushes the filter and its mover. */
static void push_filter(CallCtx *c) {
  lua_State *L = c->L;
  if (c->list) {
    lua_rawgeti(L, c->list, c->fn);
    lua_rawgeti(L, c->list, c->self);
  } else {
    lua_pushvalue(L, c->fn);
    lua_pushvalue(L, c->self);
  }
}

static int filter_trampoline(void *ud, const cs_Body *body, int tag) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  push_filter(c);
  push_body(L, c->bodies, body);
  lua_pushinteger(L, tag);
  return filter_call(c);
}

/* The same filter, asked about another mover (added to the world): its
** handle where the body goes, tag 0. */
static int mover_filter_trampoline(void *ud, const cs_Mover *other) {
  CallCtx *c = (CallCtx *)ud;
  lua_State *L = c->L;
  push_filter(c);
  csL_rawgetp(L, c->bodies, cs_mover_get_userdata(other));
  lua_pushinteger(L, 0);
  return filter_call(c);
}

/* The handle-table key of what a contact met. */
static const void *other_key(const cs_Contact *c) {
  return c->mover != NULL ? cs_mover_get_userdata(c->mover) : cs_body_get_userdata(c->body);
}

/* The ground body (NULL: none) of the last call. */
static const cs_Body *ground_body(const cs_Mover *mv) {
  cs_Vec3 nrm;
  const cs_Body *gb = NULL;
  int tag;
  return cs_mover_ground(mv, &nrm, &gb, &tag) ? gb : NULL;
}

/* Do the last call's results name what the stored handles name (keys, in
** MoverUD)? Then storing them again would change nothing. Keeps the new
** keys either way. */
static int handles_current(MoverUD *m) {
  const cs_Mover *mv = m->mover;
  size_t i, n = cs_mover_contact_count(mv);
  const cs_Body *gb = ground_body(mv);
  const cs_Mover *gm = cs_mover_ground_mover(mv);
  const void *k;
  int same = m->distinct && m->nevents == 0 && cs_mover_sensor_event_count(mv) == 0;
  if (n > MOVER_KEYS) { m->nkeys = MOVER_KEYS + 1; m->distinct = 0; return 0; }
  for (i = 0; i < n; i++) {         /* each contact's key among the stored ones */
    k = other_key(cs_mover_contact(mv, i));
    same = same && dkey_slot(m, k, m->nhandles) < m->nhandles;
    m->keys[i] = k;
  }
  k = gb ? cs_body_get_userdata(gb) : NULL;
  same = same && m->keys[MOVER_KEYS] == k;
  m->keys[MOVER_KEYS] = k;
  k = gm ? cs_mover_get_userdata(gm) : NULL;
  same = same && m->keys[MOVER_KEYS + 1] == k;
  m->keys[MOVER_KEYS + 1] = k;
  m->nkeys = n;
  return same;
}

/* Stores the handles of the last call's contacts and ground body in the
** mover's user value (at uv), while their bodies are known to be alive. */
static void store_handles(lua_State *L, MoverUD *m, int bodies, int uv) {
  size_t i, stored = 0, n = cs_mover_contact_count(m->mover);
  const cs_Body *gb = ground_body(m->mover);
  lua_rawgeti(L, uv, MUV_CONTACTS);
  m->distinct = n <= MOVER_KEYS;      /* then handles_current has set keys */
  for (i = 0; i < n; i++) {           /* the distinct ones, or one a contact */
    if (m->distinct) {
      if (dkey_slot(m, m->keys[i], stored) < stored) continue;
      m->dkeys[stored] = m->keys[i];
    }
    push_other(L, bodies, cs_mover_contact(m->mover, i));
    lua_rawseti(L, -2, (int)++stored);
  }
  for (i = stored; i < m->nhandles; i++) {
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)i + 1);
  }
  m->nhandles = stored;
  lua_pop(L, 1);
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

/* world:collideAndSlide(mover, vx, vy, vz [, gx, gy, gz]) -> x, y, z, onGround */
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
  if (m->busy) luaL_error(L, "collideAndSlide: the mover is busy (its move is under way: called from a filter)");
  if (m->filtered) check_nesting(L, w, "collideAndSlide");
  lua_settop(L, 8);
  c.failed = CTX_OK;
  if (m->filtered) {      /* (without a filter, the stack below waits for the handles) */
    csL_getuservalue(L, 2);                           /* 9: mover's user value */
    lua_rawgeti(L, 9, MUV_FILTER);                    /* 10: filter */
    ctx_init(L, &c, 1, 10, 2);                        /* 11: bodies, 12: error */
    if (cs_mover_set_filter(m->mover, filter_trampoline, &c) != CS_OK)   /* a batch's mover */
      return luaL_error(L, "collideAndSlide: %s", cs_mover_error(m->mover)->message);
    cs_mover_set_mover_filter(m->mover, mover_filter_trampoline, &c);
  }
  w->busy++;
  ++*w->depth;
  w->moving = 1;
  m->busy = 1;
  s = cs_world_collide_and_slide(w->world, m->mover, &walk, hasg ? &grav : NULL);
  w->busy--;
  --*w->depth;
  w->moving = 0;
  m->busy = 0;
  cs_mover_set_filter(m->mover, NULL, NULL);
  cs_mover_set_mover_filter(m->mover, NULL, NULL);
  /* the checks' errors (CS_EBUSY: a mover another world's batch moves or
  ** reads; this world's own busy states are refused above) */
  if ((s == CS_EINVAL || s == CS_ERANGE || s == CS_EBUSY) && c.failed == 0)
    return core_fail(L, cs_world_error(w->world), 2, NULL, "collideAndSlide");
  if (s != CS_OK) return ctx_raise(L, m->filtered ? &c : NULL, "collideAndSlide", s);
  if (!handles_current(m)) {
    if (!m->filtered) {
      csL_getuservalue(L, 2);                         /* 9: mover's user value */
      csL_getuservalue(L, 1);                         /* 10: bodies */
      c.bodies = 10;
    }
    store_handles(L, m, c.bodies, 9);
  }
  cs_mover_get_position(m->mover, &p);
  push_vec3(L, p);
  lua_pushboolean(L, cs_mover_ground_state(m->mover) == CS_GROUND_ON);   /* mover:isOnGround() */
  return 4;
}

/* {==================================================================
** Crowds: world:collideAndSlideMany and the world's threads (issue 15).
** The arrays the core takes live in the world's buffer (grown, kept for the
** next call, freed with the world), so that a call allocates nothing per
** mover. Movers with a Lua filter get a context each; the core runs them on
** this thread, in list order, while its threads move the others.
** ===================================================================*/

/* What one listed mover takes in the buffer: its move (6 numbers), its new
** centre (3), a filter context, its core pointer, its moved flag. */
#define CROWD_PER_MOVER (9 * sizeof(double) + sizeof(CallCtx) + sizeof(cs_Mover *) + 1)

typedef struct Crowd {
  double *moves, *out;
  CallCtx *ctx;
  cs_Mover **list;
  unsigned char *moved;
} Crowd;

static void crowd_arrays(lua_State *L, WorldUD *w, size_t n, Crowd *a) {
  char *p;
  if (n > (size_t)(INT_MAX / 6) || n > ((size_t)-1) / CROWD_PER_MOVER)
    luaL_error(L, "collideAndSlideMany: too many movers (%d at most)", INT_MAX / 6);
  if (n * CROWD_PER_MOVER > w->bufsize) {
    void *ud;
    lua_Alloc f = lua_getallocf(L, &ud);
    void *nb = f(ud, w->buf, w->bufsize, n * CROWD_PER_MOVER);
    if (nb == NULL) luaL_error(L, "collideAndSlideMany: %s", cs_status_string(CS_ENOMEM));
    w->buf = nb;
    w->bufsize = n * CROWD_PER_MOVER;
  }
  p = (char *)w->buf;
  a->moves = (double *)p;    p += 6 * n * sizeof(double);
  a->out = (double *)p;      p += 3 * n * sizeof(double);
  a->ctx = (CallCtx *)p;     p += n * sizeof(CallCtx);
  a->list = (cs_Mover **)p;  p += n * sizeof(cs_Mover *);
  a->moved = (unsigned char *)p;
}

/* The value on top, listed at i (0-based), is no live mover (m: a closed one). */
static int crowd_bad_mover(lua_State *L, size_t i, const MoverUD *m) {
  const char *t;
  if (m != NULL) return argfail(L, 2, "mover %d: attempt to use a closed/collected Mover", (int)i + 1);
  t = tname(L, -1);
  return argfail(L, 2, "mover %d: " MOVER_MT " expected, got %s%s", (int)i + 1, t, type_hint(MOVER_MT, t));
}

/* Is the value on top a table or one of the module's objects (a table in
** the FFI binding)? Either in moves is a guess at a list per mover, named by
** its type: a mesh there said "moves has 7 numbers" here and "is a table"
** in the FFI binding (found by an independent tester). */
static int table_or_ours(lua_State *L) {
  size_t t;
  if (lua_type(L, -1) == LUA_TTABLE) return 1;
  for (t = 0; t < sizeof csl_types / sizeof csl_types[0]; t++)
    if (test_type(L, -1, &csl_types[t]) != NULL) return 1;
  return 0;
}

/* The name of moves[k + 1] (0-based k): "vz", "gx", ... */
static const char *move_name(size_t k, int stride) {
  int c = (int)(k % (size_t)stride);
  return c < 3 ? VXYZ[c] : GXYZ[c - 3];
}

/* Raises what stopped a batch that had begun: the filter's error (what it
** raised, prefixed, when it is a string; any other value as it is), its bad
** result, or the core's failure; with which movers moved. */
static int crowd_raise(lua_State *L, const Crowd *a, size_t nf, size_t n, size_t at, int err) {
  size_t k;
  char summary[256];
  const CallCtx *c;
  for (k = 0; k < nf && a->ctx[k].failed != CTX_RAISED && a->ctx[k].failed != CTX_BADRESULT; k++) {}
  c = k < nf ? &a->ctx[k] : NULL;                    /* the filter that stopped it, if one did */
  /* (lua_type: lua_isstring is true for a number too, which came as a
  ** string in the message where collideAndSlide raises it as it is: found
  ** by an independent tester) */
  if (c && c->failed == CTX_RAISED && lua_type(L, err) != LUA_TSTRING) {
    lua_pushvalue(L, err);
    return lua_error(L);
  }
  luaL_where(L, 1);                     /* the caller's position, as luaL_error and the FFI give */
  if (c && c->failed == CTX_RAISED) {     /* the error whole, NUL bytes too */
    lua_pushfstring(L, "collideAndSlideMany: the filter of mover %d raised an error: ", c->self);
    lua_pushvalue(L, err);
    lua_pushliteral(L, "; ");
    lua_concat(L, 3);
  }
  else if (c && lua_type(L, err) == LUA_TSTRING) {   /* whole, NUL bytes too */
    lua_pushfstring(L, "collideAndSlideMany: the filter of mover %d returned \"", c->self);
    lua_pushvalue(L, err);
    lua_pushliteral(L, "\" (expected \"slide\", \"touch\" or \"cross\"); ");
    lua_concat(L, 3);
  }
  else if (c)
    lua_pushfstring(L, "collideAndSlideMany: the filter of mover %d returned %s (expected "
                    "\"slide\", \"touch\" or \"cross\"); ", c->self, tname(L, err));
  else lua_pushfstring(L, "collideAndSlideMany: %s; ", cs_world_error(
      ((WorldUD *)lua_touserdata(L, 1))->world)->message);
  lua_pushstring(L, cs_batch_summary(summary, sizeof summary, a->moved, n, at));
  lua_concat(L, 3);
  return lua_error(L);
}

/* A check of the core that failed before any mover moved: the mover listed
** twice (argument movers), a move's number (argument moves, with its place),
** or the mover's settings with its move ("collideAndSlideMany: mover i: ..."). */
static int crowd_check_fail(lua_State *L, WorldUD *w, const Crowd *a, size_t at, int stride) {
  const cs_Error *e = cs_world_error(w->world);
  size_t i;
  for (i = 0; i < at; i++)
    if (a->list[i] == a->list[at]) return argfail(L, 2, "%s", e->message);
  if (e->arg > 0)
    return argfail(L, 3, "%s (moves[%d])", e->message, (int)(at * (size_t)stride) + e->arg);
  return luaL_error(L, "collideAndSlideMany: %s", e->message);
}

/* Moves the batch's movers back to idle and takes their filters away. */
static void crowd_done(WorldUD *w, const Crowd *a, size_t n, size_t nf) {
  size_t i;
  w->busy--;
  --*w->depth;
  w->moving = 0;
  for (i = 0; i < n; i++) {
    MoverUD *m = (MoverUD *)cs_mover_get_userdata(a->list[i]);
    m->busy = 0;
    if (nf > 0 && m->filtered) {
      cs_mover_set_filter(a->list[i], NULL, NULL);
      cs_mover_set_mover_filter(a->list[i], NULL, NULL);
    }
  }
}

/* The stack of world:collideAndSlideMany past its arguments. */
enum { MANY_BODIES = 6, MANY_ERR, MANY_LIST };

/* world:collideAndSlideMany(movers, moves [, out [, grounded]]) -> out */
static int world_collideAndSlideMany(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  size_t n, len, i, k, nf = 0, failed = 0;
  int stride, src;
  char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF];
  Crowd a;
  cs_Status s;
  check_table(L, 2);
  check_table(L, 3);
  if (!lua_isnoneornil(L, 4) && !lua_istable(L, 4))
    argfail(L, 4, "out must be a table or nil, got %s", tname(L, 4));
  if (!lua_isnoneornil(L, 5) && !lua_istable(L, 5))
    argfail(L, 5, "grounded must be a table or nil, got %s", tname(L, 5));
  lua_settop(L, 5);
  n = csL_len(L, 2);
  len = csL_len(L, 3);
  /* holes: # finds another border on LuaJIT than on 5.4 (a moves list with a
  ** hole at 4 was taken as walk only there: found by an independent tester) */
  check_array_tail(L, 2, 2, n, "movers");
  check_array_tail(L, 3, 3, len, "moves");
  check_not_moving(L, w, "collideAndSlideMany");
  crowd_arrays(L, w, n, &a);
  luaL_checkstack(L, STACK_EXTRA + 8, "collideAndSlideMany");
  for (i = 0; i < n; i++) {
    MoverUD *m;
    lua_rawgeti(L, 2, (int)i + 1);
    if (lua_isnil(L, -1)) hole_fail(L, 2, 2, n, "movers");   /* (the same error on every Lua) */
    if ((m = (MoverUD *)test_type(L, -1, MOVER_T)) == NULL) crowd_bad_mover(L, i, NULL);
    if (m->mover == NULL) crowd_bad_mover(L, i, m);
    if (m->busy)
      luaL_error(L, "collideAndSlideMany: mover %d is busy (its move is under way: called from a filter)", (int)i + 1);
    a.list[i] = m->mover;
    nf += (size_t)m->filtered;
    lua_pop(L, 1);
  }
  /* after the movers' holes, which # may count or not (a hole before the
  ** count had every Lua blame the moves for its mover count), and the
  ** moves' own (looked for on this error's path only) */
  stride = len == 6 * n ? 6 : len == 3 * n ? 3 : 0;
  for (k = 0; stride == 0 && k < len; k++)
    if (csL_rawgeti_type(L, 3, (int)k + 1) == LUA_TNIL) hole_fail(L, 3, 3, len, "moves");
    else lua_pop(L, 1);
  /* a list of each mover's numbers (a first guess: found by an independent
  ** tester, "moves has 2 numbers" counted the tables as numbers) */
  for (k = 0; stride == 0 && k < len; k++)
    if (csL_rawgeti_type(L, 3, (int)k + 1) != LUA_TNUMBER && table_or_ours(L))
      argfail(L, 3, "moves is one flat list of numbers, 6 a mover (walk and gravity) or 3 (walk "
              "only), {vx1, vy1, vz1, gx1, gy1, gz1, vx2, ...}; moves[%d] is a %s", (int)k + 1,
              tname(L, -1));
    else lua_pop(L, 1);
  if (stride == 0 && n == 0)   /* ("expected 0 or 0 for 0 movers": an independent tester) */
    argfail(L, 3, "moves has %s numbers for an empty list of movers", fmtnum(b1, (double)len));
  if (stride == 0)
    argfail(L, 3, "moves has %s numbers, expected %s (walk and gravity of each mover) or %s "
            "(walk only) for %s mover%s", fmtnum(b1, (double)len), fmtnum(b2, 6.0 * (double)n),
            fmtnum(b3, 3.0 * (double)n), fmtnum(b4, (double)n), n == 1 ? "" : "s");
  for (k = 0; k < len; k += (size_t)stride) {   /* a mover's numbers at once */
    int j, top = lua_gettop(L);
    for (j = 0; j < stride; j++)
      if (csL_rawgeti_type(L, 3, (int)k + j + 1) != LUA_TNUMBER &&
          (!lua_isnil(L, -1) || !hole_fail(L, 3, 3, len, "moves")))
        argfail(L, 3, "mover %d: %s must be a number, got %s (moves[%d])", (int)(k / (size_t)stride) + 1,
                move_name(k + (size_t)j, stride), tname(L, -1), (int)k + j + 1);
    for (j = 0; j < stride; j++) a.moves[k + (size_t)j] = (double)lua_tonumber(L, top + j + 1);
    lua_settop(L, top);
  }
  if (nf > 0) check_nesting(L, w, "collideAndSlideMany");
  csL_getuservalue(L, 1);                             /* MANY_BODIES */
  lua_pushnil(L);                                     /* MANY_ERR: a filter's error */
  src = 2;
  if (nf > 0) {   /* MANY_LIST: the movers and their filters, as they are now */
    /* one table a world, reused and emptied after the call: a new one each
    ** call made garbage every frame of a crowd with a filter (found by an
    ** independent tester; a filter cannot run a batch of the same world) */
    lua_pushliteral(L, "many");
    lua_rawget(L, MANY_BODIES);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_createtable(L, (int)(n + nf), 0);
      lua_pushliteral(L, "many");
      lua_pushvalue(L, -2);
      lua_rawset(L, MANY_BODIES);
    }
    for (i = 0, k = 0; i < n; i++) {
      lua_rawgeti(L, 2, (int)i + 1);
      if (((MoverUD *)cs_mover_get_userdata(a.list[i]))->filtered) {
        csL_getuservalue(L, -1);
        lua_rawgeti(L, -1, MUV_FILTER);
        lua_rawseti(L, MANY_LIST, (int)(n + ++k));
        lua_pop(L, 1);
      }
      lua_rawseti(L, MANY_LIST, (int)i + 1);
    }
    src = MANY_LIST;
    for (i = 0, k = 0; i < n; i++) {
      CallCtx *c;
      if (!((MoverUD *)cs_mover_get_userdata(a.list[i]))->filtered) continue;
      c = &a.ctx[k++];
      c->L = L; c->bodies = MANY_BODIES; c->err = MANY_ERR; c->failed = CTX_OK;
      c->list = MANY_LIST; c->fn = (int)(n + k); c->self = (int)i + 1;
      cs_mover_set_filter(a.list[i], filter_trampoline, c);
      cs_mover_set_mover_filter(a.list[i], mover_filter_trampoline, c);
    }
  }
  for (i = 0; i < n; i++) ((MoverUD *)cs_mover_get_userdata(a.list[i]))->busy = 1;
  if (n > 0) memset(a.moved, 0, n);     /* (a.moved is NULL before any batch) */
  w->busy++;
  ++*w->depth;
  w->moving = 1;
  s = cs_world_collide_and_slide_many(w->world, a.list, n, a.moves, stride, a.out, a.moved, &failed);
  crowd_done(w, &a, n, nf);
  for (i = 0; i < n; i++) {              /* the moved movers' contacts, ground, events */
    if (!a.moved[i] || handles_current((MoverUD *)cs_mover_get_userdata(a.list[i]))) continue;
    lua_rawgeti(L, src, (int)i + 1);
    csL_getuservalue(L, -1);
    store_handles(L, (MoverUD *)cs_mover_get_userdata(a.list[i]), MANY_BODIES, lua_gettop(L));
    lua_pop(L, 2);
  }
  for (k = 0; src == MANY_LIST && k < n + nf; k++) {   /* emptied: it holds no mover */
    lua_pushnil(L);
    lua_rawseti(L, MANY_LIST, (int)k + 1);
  }
  if (s != CS_OK) {
    int began = 0;
    for (i = 0; i < n && !began; i++) began = a.moved[i];
    for (k = 0; k < nf && !began; k++) began = a.ctx[k].failed != CTX_OK;
    /* (CS_EBUSY from the checks: a mover another world's batch moves or reads) */
    if (!began && (s == CS_EINVAL || s == CS_ERANGE || (s == CS_EBUSY && failed < n)))
      return crowd_check_fail(L, w, &a, failed, stride);
    if (!began) return ctx_raise(L, NULL, "collideAndSlideMany", s);
  }
  if (lua_isnil(L, 4)) {
    lua_createtable(L, (int)(3 * n), 0);
    lua_replace(L, 4);
  }
  if (s == CS_OK || failed < n) {        /* every centre and ground, moved or not */
    for (k = 0; k < 3 * n; k++) {
      lua_pushnumber(L, a.out[k]);
      lua_rawseti(L, 4, (int)k + 1);
    }
    for (i = 0; i < n && !lua_isnil(L, 5); i++) {
      lua_pushboolean(L, cs_mover_ground_state(a.list[i]) == CS_GROUND_ON);
      lua_rawseti(L, 5, (int)i + 1);
    }
  }
  if (s != CS_OK) return crowd_raise(L, &a, nf, n, failed, MANY_ERR);
  lua_settop(L, 4);
  return 1;
}

/* world:setThreads(k): k in 1..64 */
static int world_setThreads(lua_State *L) {
  WorldUD *w = check_world(L, 1);
  double d = 0;
  char b[NUMBUF];
  int r = to_intval(L, 2, &d);
  if (r == 0) argfail(L, 2, "threads must be an integer, got %s", arg_tname(L, 2));
  if (r < 0) argfail(L, 2, "threads must be an integer, got %s", fmtnum(b, d));
  if (d < 1 || d > CS_MAX_THREADS) argfail(L, 2, "threads must be in 1..%d, got %s", CS_MAX_THREADS, fmtnum(b, d));
  check_not_moving(L, w, "setThreads");
  if (cs_world_set_threads(w->world, (int)d) != CS_OK) return ctx_raise(L, NULL, "setThreads", CS_EBUSY);
  return 0;
}

static int world_getThreads(lua_State *L) {
  lua_pushinteger(L, cs_world_get_threads(check_world(L, 1)->world));
  return 1;
}

/* cs.cpuCount() -> the number of processors online. cs:cpuCount() is
** refused as the other module functions' colon is (it gave the count: found
** by an independent tester). */
static int cs_cpuCount(lua_State *L) {
  check_not_module(L, 1, "cpuCount");
  lua_pushinteger(L, cs_cpu_count());
  return 1;
}

/* }================================================================== */

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
  cs_Vec3 d = to_vec3(L, 3, DXYZ);
  cs_Hit h;
  int found;
  check_not_moving(L, w, "sweep");
  if (lua_isnoneornil(L, 6)) found = cs_world_sweep(w->world, m->mover, &d, &h);
  else found = cs_world_sweep_mask(w->world, m->mover, &d, check_mask(L, 6, 6, NULL, "mask"), &h);
  return push_hit(L, 1, found, &h, "sweep", 2);
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

/* The start of a callback query (query_done ends it): the callback at fn
** and the mask after it (dflt when absent) checked, refused inside a move,
** the stack cut after the mask, the call's context, the world busy.
** Returns the mask. */
static unsigned query_begin(lua_State *L, WorldUD *w, CallCtx *c, int fn, unsigned dflt,
                            const char *fname) {
  unsigned mask;
  check_callback(L, fn);
  mask = opt_mask(L, fn + 1, dflt);
  check_not_moving(L, w, fname);
  check_nesting(L, w, fname);
  lua_settop(L, fn + 1);
  ctx_init(L, c, 1, fn, 0);
  w->busy++;
  ++*w->depth;
  return mask;
}

static int query_done(lua_State *L, WorldUD *w, const CallCtx *c, long count, const char *fname,
                      int base) {
  w->busy--;
  --*w->depth;
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
  mask = query_begin(L, w, &c, 8, ~0u, "queryBox");
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
  mask = query_begin(L, w, &c, 8, ~0u, "overlapEllipsoid");
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
  mask = query_begin(L, w, &c, 3, (unsigned)cs_mover_get(m->mover, CS_COLLIDES_WITH), "overlap");
  mover_shape(m->mover, &p, &r, q);
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
  mask = query_begin(L, w, &c, 8, ~0u, "raycastAll");
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
  {"collideAndSlideMany", world_collideAndSlideMany},
  {"setThreads", world_setThreads}, {"getThreads", world_getThreads},
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
  {"cpuCount", cs_cpuCount},
  {NULL, NULL}
};
