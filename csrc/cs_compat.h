/*
** cs_compat.h: Lua 5.1 / 5.2 / 5.3 / 5.4 and LuaJIT 2.1 compatibility for
** cs_lua.c (its only user). Every shim has our own csL_ name and never
** redefines a luaL_* or lua_* name: LuaJIT declares luaL_setfuncs,
** luaL_testudata, ... although its LUA_VERSION_NUM is 501, so a static
** luaL_setfuncs would clash with it (lua-cjson issue #51).
*/
#ifndef CS_COMPAT_H
#define CS_COMPAT_H

#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#if defined(__GNUC__)
#define CS_UNUSED __attribute__((unused))
#else
#define CS_UNUSED
#endif

/* {==================================================================
** Raw length, absolute indices, userdata with one user value
** ===================================================================*/

#if LUA_VERSION_NUM >= 502
#define csL_len(L, i)           ((size_t)lua_rawlen(L, (i)))
#define csL_absindex(L, i)      lua_absindex(L, (i))
#else
#define csL_len(L, i)           ((size_t)lua_objlen(L, (i)))
#define csL_absindex(L, i) \
  (((i) > 0 || (i) <= LUA_REGISTRYINDEX) ? (i) : lua_gettop(L) + (i) + 1)
#endif

/* The user value is always a table here (5.1 fenvs must be tables). */
#if LUA_VERSION_NUM >= 504
#define csL_newudata(L, sz)     lua_newuserdatauv(L, (sz), 1)
#define csL_getuservalue(L, i)  ((void)lua_getiuservalue(L, (i), 1))
#define csL_setuservalue(L, i)  ((void)lua_setiuservalue(L, (i), 1))
#elif LUA_VERSION_NUM >= 502
#define csL_newudata(L, sz)     lua_newuserdata(L, (sz))
#define csL_getuservalue(L, i)  ((void)lua_getuservalue(L, (i)))
#define csL_setuservalue(L, i)  lua_setuservalue(L, (i))
#else
#define csL_newudata(L, sz)     lua_newuserdata(L, (sz))
#define csL_getuservalue(L, i)  lua_getfenv(L, (i))
#define csL_setuservalue(L, i)  ((void)lua_setfenv(L, (i)))
#endif

/* }================================================================== */

/* {==================================================================
** Functions every version has under another name (or not at all)
** ===================================================================*/

/* Registers l into the table below the nup upvalues on the top, each
** function a closure over those upvalues; pops the upvalues. */
static CS_UNUSED void csL_setfuncs(lua_State *L, const luaL_Reg *l, int nup) {
  int i;
  luaL_checkstack(L, nup + 1, "too many upvalues");
  for (; l->name != NULL; l++) {
    for (i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushcclosure(L, l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}

/* A new table holding the functions of l (no upvalues). */
static CS_UNUSED void csL_newlib(lua_State *L, const luaL_Reg *l) {
  int n = 0;
  while (l[n].name != NULL) n++;
  lua_createtable(L, 0, n);
  csL_setfuncs(L, l, 0);
}

static CS_UNUSED void csL_setmetatable(lua_State *L, const char *tname) {
  lua_getfield(L, LUA_REGISTRYINDEX, tname);
  lua_setmetatable(L, -2);
}

/* t[p] with p a light userdata, raw (lua_rawgetp of 5.2+). Allocates
** nothing, so it is safe where no error may be raised. */
static CS_UNUSED void csL_rawgetp(lua_State *L, int t, const void *p) {
#if LUA_VERSION_NUM >= 502
  lua_rawgetp(L, t, p);
#else
  t = csL_absindex(L, t);
  lua_pushlightuserdata(L, (void *)(size_t)p);   /* through size_t: -Wcast-qual */
  lua_rawget(L, t);
#endif
}

/* t[p] = the value on the top (popped); p a light userdata, raw. */
static CS_UNUSED void csL_rawsetp(lua_State *L, int t, const void *p) {
  t = csL_absindex(L, t);
  lua_pushlightuserdata(L, (void *)(size_t)p);
  lua_insert(L, -2);
  lua_rawset(L, t);
}

/* t[i], raw, pushed; returns its type (lua_rawgeti's own result in 5.3+,
** where the lua_type that would follow costs as much as a third of it). */
static CS_UNUSED int csL_rawgeti_type(lua_State *L, int t, int i) {
#if LUA_VERSION_NUM >= 503
  return lua_rawgeti(L, t, i);
#else
  lua_rawgeti(L, t, i);
  return lua_type(L, -1);
#endif
}

/* Pushes an unsigned 32-bit value (a bitmask) exactly on every version,
** also where lua_Integer is 32 bits wide. */
static CS_UNUSED void csL_pushuint(lua_State *L, unsigned v) {
#if LUA_VERSION_NUM >= 503
  lua_pushinteger(L, (lua_Integer)v);
#else
  lua_pushnumber(L, (lua_Number)v);
#endif
}

/* }================================================================== */

#endif
