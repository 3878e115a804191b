/*
** lua_states.c: the Lua module from C. (1) Two Lua states in one process use
** it independently: interleaved, each gets what it gets alone (no global
** state). (2) A state whose allocator fails at the n-th allocation, for
** every n, while it builds a mesh and moves: a clean error, a usable state
** afterwards, and no byte leaked when it closes.
** Build: see the Makefile's test-states target (links Lua and the module).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

int luaopen_collideslide_core(lua_State *L);

static int passed, failed;

static void check(int ok, const char *what) {
  if (ok) passed++;
  else { failed++; printf("FAILED: %s\n", what); }
}

/* An allocator that counts live bytes and fails from the fail_at-th call
** that asks for more memory (fail_at < 0: never). */
typedef struct Counter { long live, calls, fail_at; } Counter;

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  Counter *c = (Counter *)ud;
  size_t old = ptr ? osize : 0;
  void *p;
  if (nsize == 0) {
    free(ptr);
    c->live -= (long)old;
    return NULL;
  }
  if (nsize > old && c->fail_at >= 0 && c->calls++ >= c->fail_at) return NULL;
  p = realloc(ptr, nsize);
  if (p) c->live += (long)nsize - (long)old;
  return p;
}

static lua_State *new_state(Counter *c) {
  lua_State *L = lua_newstate(counting_alloc, c);
  luaL_openlibs(L);
#if LUA_VERSION_NUM >= 502
  luaL_requiref(L, "collideslide.core", luaopen_collideslide_core, 0);
  lua_setglobal(L, "cs");
#else
  lua_pushcfunction(L, luaopen_collideslide_core);
  lua_call(L, 0, 1);
  lua_setglobal(L, "cs");
#endif
  return L;
}

static int run(lua_State *L, const char *code) {
  if (luaL_dostring(L, code) != 0) {
    printf("lua error: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return 0;
  }
  return 1;
}

/* A 20 x 20 floor of 800 triangles and a wall, as globals V, I. */
static const char *SCENE =
  "V, I = {}, {}\n"
  "for i = 0, 20 do for j = 0, 20 do\n"
  "  V[#V+1] = i; V[#V+1] = 0.1 * math.sin(i + j); V[#V+1] = j end end\n"
  "for i = 0, 19 do for j = 0, 19 do local a = i * 21 + j + 1\n"
  "  I[#I+1] = a; I[#I+1] = a + 1; I[#I+1] = a + 22\n"
  "  I[#I+1] = a; I[#I+1] = a + 22; I[#I+1] = a + 21 end end\n";

/* Builds a world and moves a mover `steps` times; leaves its position in X,Y,Z. */
static const char *SETUP =
  "W = cs.newWorld(); W:add(cs.newMesh(V, I))\n"
  "M = cs.newMover{ radius = R, position = { 3, 2, 3 } }\n";
static const char *STEP =
  "for k = 1, 10 do X, Y, Z = W:collideAndSlide(M, DX, 0, DZ, 0, -0.05, 0) end\n";

static double global_number(lua_State *L, const char *name) {
  double v;
  lua_getglobal(L, name);
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

/* (1) two states, interleaved, against each alone */
static void test_two_states(void) {
  Counter ca = {0, 0, -1}, cb = {0, 0, -1};
  double alone[2][3], together[2][3];
  int pass, k;
  for (pass = 0; pass < 2; pass++) {          /* each alone */
    lua_State *L = new_state(&ca);
    run(L, SCENE);
    run(L, pass == 0 ? "R = {0.4, 0.9, 0.4}; DX, DZ = 0.11, 0.07" : "R = 0.5; DX, DZ = -0.05, 0.13");
    run(L, SETUP);
    for (k = 0; k < 20; k++) run(L, STEP);
    alone[pass][0] = global_number(L, "X");
    alone[pass][1] = global_number(L, "Y");
    alone[pass][2] = global_number(L, "Z");
    lua_close(L);
  }
  {
    lua_State *A = new_state(&ca), *B = new_state(&cb);
    run(A, SCENE); run(B, SCENE);
    run(A, "R = {0.4, 0.9, 0.4}; DX, DZ = 0.11, 0.07");
    run(B, "R = 0.5; DX, DZ = -0.05, 0.13");
    run(A, SETUP); run(B, SETUP);
    for (k = 0; k < 20; k++) { run(A, STEP); run(B, STEP); }
    together[0][0] = global_number(A, "X"); together[0][1] = global_number(A, "Y");
    together[0][2] = global_number(A, "Z");
    lua_close(A);                               /* B goes on without A */
    together[1][0] = global_number(B, "X"); together[1][1] = global_number(B, "Y");
    together[1][2] = global_number(B, "Z");
    check(run(B, "local w = cs.newWorld(); w:add(cs.newMesh(V, I)); return true"),
          "state B works after A closed");
    lua_close(B);
  }
  check(memcmp(alone, together, sizeof alone) == 0, "interleaved states match each alone");
  check(ca.live == 0 && cb.live == 0, "both states return every byte");
}

/* (2) out of memory at every allocation in turn */
static void test_out_of_memory(void) {
  Counter c = {0, 0, -1};
  lua_State *L = new_state(&c);
  long n;
  int completed = 0, clean_errors = 0, bad = 0;
  run(L, SCENE);
  run(L, "R = {0.4, 0.9, 0.4}; DX, DZ = 0.1, 0.1");
  /* the work, compiled before any allocation may fail */
  luaL_loadstring(L, "W = cs.newWorld(); W:add(cs.newMesh(V, I, { tags = T }))\n"
                     "M = cs.newMover{ radius = R, position = { 3, 2, 3 } }\n"
                     "W:collideAndSlide(M, 1, 0, 1, 0, -0.1, 0)\n"
                     "return W:sweep(M, 0, -2, 0)");
  lua_setglobal(L, "WORK");
  run(L, "T = {}; for t = 1, #I / 3 do T[t] = t % 3 end");
  for (n = 0; n < 100000 && !completed; n++) {
    int status;
    lua_getglobal(L, "WORK");
    c.calls = 0;
    c.fail_at = n;
    status = lua_pcall(L, 0, 0, 0);
    c.fail_at = -1;
    if (status == 0) {
      completed = 1;
    } else {
      const char *msg = lua_tostring(L, -1);
      if (msg && (strstr(msg, "memory") || status == LUA_ERRMEM)) clean_errors++;
      else { bad++; printf("unexpected error at allocation %ld: %s\n", n, msg ? msg : "?"); }
      lua_pop(L, 1);
    }
    lua_gc(L, LUA_GCCOLLECT, 0);
    /* the state and the module still work */
    if (!run(L, "local w = cs.newWorld(); w:add(cs.newMesh({0,0,0, 1,0,0, 0,0,1}))\n"
                "local m = cs.newMover{ radius = 0.5, position = {0.2, 1, 0.2} }\n"
                "assert(w:sweep(m, 0, -1, 0))")) bad++;
  }
  printf("out of memory: %ld allocation points tried, %d clean errors, completed %d\n",
         n, clean_errors, completed);
  check(completed, "the work completes once memory suffices");
  check(clean_errors > 0, "failures raise 'not enough memory'");
  check(bad == 0, "no other error, and the state stays usable");
  lua_close(L);
  check(c.live == 0, "no byte leaked");
  if (c.live != 0) printf("  %ld bytes still live\n", c.live);
}

int main(void) {
  test_two_states();
  test_out_of_memory();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
