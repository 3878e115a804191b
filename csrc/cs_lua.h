/*
** cs_lua.h: what the files of the Lua binding share (csrc/cs_lua*.c): the
** userdata layouts, the metatable names, the argument helpers of cs_lua.c,
** and each object file's luaL_Reg arrays, which luaopen_collideslide_core
** (cs_lua.c) turns into metatables. The files, top down (make callgraph):
**   cs_lua_query.c  world:collideAndSlide, the sweeps, raycasts and queries,
**                   the callbacks; the module's functions and the World's
**                   method table
**   cs_lua_world.c  worlds, bodies, sensors, transforms
**   cs_lua_mover.c  movers: fields, setters, contacts, sensor events
**   cs_lua_mesh.c   meshes: vertex arrays, edits
**   cs_lua.c        argument helpers and errors; the module's opening
** Shared functions are prefixed csl_ (the macros below) so that the
** module's exported symbols name nothing generic.
*/
#ifndef CS_LUA_H
#define CS_LUA_H
#include <math.h>
#include <stddef.h>
#include <stdint.h>

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

/* The types: each one's name (its metatable's, in the registry under it),
** its userdata's size and its tag, a constant with which each of its
** userdata starts, and which test_type reads: a script cannot write a
** userdata's memory, nor swap a metatable without the debug library, and
** neither would change what the memory says. A constant, not an address:
** two copies of the module in one state (the registry's metatables are
** shared by name) take each other's objects. */
typedef struct csl_Type { const char *name; size_t size; uint64_t tag; } csl_Type;
extern const csl_Type csl_types[5];
#define MESH_T   (&csl_types[0])
#define WORLD_T  (&csl_types[1])
#define BODY_T   (&csl_types[2])
#define MOVER_T  (&csl_types[3])
#define SENSOR_T (&csl_types[4])

#define STACK_EXTRA 16              /* slots a callback needs (11 at most) */
#define MAX_NESTING 150             /* calls that call back, nested in a Lua state (check_nesting) */

enum { BUV_WORLD = 1, BUV_MESH, BUV_USERDATA };       /* body handle user value */
enum { MUV_FILTER = 1, MUV_CONTACTS, MUV_GROUND, MUV_EVENTS, MUV_GMOVER };  /* mover user value */

typedef struct MeshUD {
  uint64_t tag;         /* MESH_T->tag: new_object writes it, test_type reads it */
  cs_Mesh *mesh;        /* NULL once freed */
  long users;           /* bodies of live worlds that use it */
  int closed;           /* closed or collected: no more use from Lua */
} MeshUD;

typedef struct WorldUD {
  uint64_t tag;         /* WORLD_T->tag */
  cs_World *world;      /* NULL once closed */
  int busy;             /* > 0 while a filter or a query callback may run */
  int moving;           /* inside collideAndSlide (its filter may run) */
  int *depth;           /* the Lua state's calls that call back, nested, in
                        ** all its worlds (check_nesting; the registry's) */
  void *buf;            /* collideAndSlideMany's arrays (Lua's allocator; freed at close) */
  size_t bufsize;
} WorldUD;

typedef struct BodyUD {
  uint64_t tag;         /* BODY_T->tag */
  WorldUD *w;           /* alive as long as the handle (its user value) */
  MeshUD *m;            /* likewise */
  cs_Body *body;        /* NULL once removed or its world closed */
} BodyUD;

/* A sensor handle: like a body's (its user value holds its world, its mesh
** and its userdata at BUV_*), and kept in the same world table. */
typedef struct SensorUD {
  uint64_t tag;         /* SENSOR_T->tag */
  WorldUD *w;
  MeshUD *m;
  cs_Sensor *sensor;    /* NULL once removed or its world closed */
} SensorUD;

typedef struct MoverUD {
  uint64_t tag;         /* MOVER_T->tag */
  cs_Mover *mover;      /* NULL once closed */
  int busy;             /* inside its own collideAndSlide or a batch (a filter runs) */
  int filtered;         /* has a Lua filter (MUV_FILTER not nil) */
  size_t nhandles;      /* contact handles stored (MUV_CONTACTS[1..nhandles]) */
  size_t nevents;       /* sensor event handles stored by the last call */
  /* The keys (handle-table keys: BodyUD or MoverUD pointers) of what the
  ** last call met: each contact's other (keys[i], i < nkeys), the ground
  ** body (keys[MOVER_KEYS]), the ground mover (keys[MOVER_KEYS + 1]).
  ** With at most MOVER_KEYS contacts the stored contact handles are the
  ** distinct ones, MUV_CONTACTS[j] the handle of dkeys[j - 1], and contact
  ** i's is the one of its key (distinct set); a call that meets no key
  ** outside them, the same ground and no sensor events then or now stores
  ** nothing (each stored handle keeps its key's memory from being
  ** another's). nkeys > MOVER_KEYS: no keys, the handles by contact. */
#define MOVER_KEYS 6
  const void *keys[MOVER_KEYS + 2];
  size_t nkeys;
  const void *dkeys[MOVER_KEYS];
  int distinct;         /* MUV_CONTACTS holds dkeys' handles (else one a contact) */
} MoverUD;

/* The place of key k among m->dkeys[0 .. n), or n. Here, so that each
** call of a move (cs_lua_query.c) inlines it. */
static CS_UNUSED size_t dkey_slot(const MoverUD *m, const void *k, size_t n) {
  size_t j;
  for (j = 0; j < n && m->dkeys[j] != k; j++) {}
  return j;
}

#define NUMBUF 32

#define argfail csl_argfail
#define body___index csl_body___index
#define check_array_end csl_check_array_end
#define check_table csl_check_table
#define hole_fail csl_hole_fail
#define key_kind csl_key_kind
#define name_at csl_name_at
#define least_unknown csl_least_unknown
#define check_index csl_check_index
#define check_mask csl_check_mask
#define check_mesh csl_check_mesh
#define check_mover csl_check_mover
#define check_not_moving csl_check_not_moving
#define check_nesting csl_check_nesting
#define check_one csl_check_one
#define check_sensor csl_check_sensor
#define check_type csl_check_type
#define check_world csl_check_world
#define core_fail csl_core_fail
#define cs_newMesh csl_cs_newMesh
#define cs_newMover csl_cs_newMover
#define cs_newWorld csl_cs_newWorld
#define elem_num csl_elem_num
#define fail_at csl_fail_at
#define fmtnum csl_fmtnum
#define lua_alloc csl_lua_alloc
#define mesh_release csl_mesh_release
#define mover___index csl_mover___index
#define type_hint csl_type_hint
#define new_object csl_new_object
#define opt_mask csl_opt_mask
#define push_body csl_push_body
#define push_other csl_push_other
#define push_hit_other csl_push_hit_other
#define test_type csl_test_type
#define world_addMover csl_world_addMover
#define world_removeMover csl_world_removeMover
#define world_moverCount csl_world_moverCount
#define check_idle csl_check_idle
#define world_of csl_world_of
#define push_vec3 csl_push_vec3
#define sensor___index csl_sensor___index
#define status_error csl_status_error
#define table_nums csl_table_nums
#define check_array_tail csl_check_array_tail
#define named_hint csl_named_hint
#define tname csl_tname
#define arg_tname csl_arg_tname
#define to_intval csl_to_intval
#define to_num csl_to_num
#define to_vec3 csl_to_vec3
#define world___tostring csl_world___tostring
#define world_add csl_world_add
#define world_addSensor csl_world_addSensor
#define world_bodyCount csl_world_bodyCount
#define world_close csl_world_close
#define world_getFriction csl_world_getFriction
#define world_remove csl_world_remove
#define world_removeSensor csl_world_removeSensor
#define world_sensorCount csl_world_sensorCount
#define world_setFriction csl_world_setFriction
#define XYZ csl_XYZ
#define DXYZ csl_DXYZ
#define OXYZ csl_OXYZ
#define PXYZ csl_PXYZ
#define RXYZ csl_RXYZ
#define VXYZ csl_VXYZ
#define GXYZ csl_GXYZ
#define MINXYZ csl_MINXYZ
#define MAXXYZ csl_MAXXYZ
#define QXYZW csl_QXYZW

/* Component names as the messages use them (cs_lua.c). */
extern const char *const XYZ[3];
extern const char *const DXYZ[3];
extern const char *const OXYZ[3];
extern const char *const PXYZ[3];
extern const char *const RXYZ[3];
extern const char *const VXYZ[3];
extern const char *const GXYZ[3];
extern const char *const MINXYZ[3];
extern const char *const MAXXYZ[3];
extern const char *const QXYZW[4];

int argfail(lua_State *L, int arg, const char *fmt, ...);
void check_table(lua_State *L, int arg);
void check_not_module(lua_State *L, int arg, const char *fname);
void check_one(lua_State *L, int last, const char *what, const char *fname);
int body___index(lua_State *L);
void check_array_end(lua_State *L, int arg, int t, size_t n, const char *what);
void check_array_tail(lua_State *L, int arg, int t, size_t n, const char *what);
int hole_fail(lua_State *L, int arg, int t, size_t len, const char *what);
const char *key_kind(lua_State *L, int i);
const char *name_at(lua_State *L, int i);
int least_unknown(lua_State *L, int t, int (*known)(const char *k), const char **out);
size_t check_index(lua_State *L, int arg, const char *what, size_t n);
unsigned check_mask(lua_State *L, int i, int arg, const char *fname, const char *what);
MeshUD *check_mesh(lua_State *L, int arg);
MoverUD *check_mover(lua_State *L, int arg);
const char *type_hint(const char *want, const char *got);
void check_not_moving(lua_State *L, WorldUD *w, const char *fname);
void check_nesting(lua_State *L, WorldUD *w, const char *fname);
SensorUD *check_sensor(lua_State *L, int arg);
void *check_type(lua_State *L, int arg, const csl_Type *t);
void *new_object(lua_State *L, const csl_Type *t);
void *test_type(lua_State *L, int arg, const csl_Type *t);
WorldUD *check_world(lua_State *L, int arg);
int core_fail(lua_State *L, const cs_Error *e, int base, const char *prefix, const char *fname);
int cs_newMesh(lua_State *L);
int cs_newMover(lua_State *L);
int cs_newWorld(lua_State *L);
int elem_num(lua_State *L, int t, size_t i, double *out);
int fail_at(lua_State *L, int arg, const char *fname, const char *fmt, ...);
const char *fmtnum(char *buf, double d);
cs_Alloc lua_alloc(lua_State *L);
void mesh_release(MeshUD *m);
int mover___index(lua_State *L);
unsigned opt_mask(lua_State *L, int arg, unsigned dflt);
void push_body(lua_State *L, int t, const cs_Body *body);
void push_other(lua_State *L, int t, const cs_Contact *c);
void push_hit_other(lua_State *L, int t, const cs_Hit *h);
int world_addMover(lua_State *L);
int world_removeMover(lua_State *L);
int world_moverCount(lua_State *L);
void check_idle(lua_State *L, WorldUD *w, const char *fname);
WorldUD *world_of(lua_State *L, const cs_World *cw);
int push_vec3(lua_State *L, cs_Vec3 v);
int sensor___index(lua_State *L);
int status_error(lua_State *L, const char *fname, cs_Status s);
void table_nums(lua_State *L, int arg, int t, const char *field, const char *const names[], int n, double *out);
const char *named_hint(lua_State *L, int t);
const char *tname(lua_State *L, int i);
const char *arg_tname(lua_State *L, int arg);
int to_intval(lua_State *L, int i, double *out);
double to_num(lua_State *L, int arg, const char *name);
cs_Vec3 to_vec3(lua_State *L, int arg, const char *const names[3]);
int world___tostring(lua_State *L);
int world_add(lua_State *L);
int world_addSensor(lua_State *L);
int world_bodyCount(lua_State *L);
int world_close(lua_State *L);
int world_getFriction(lua_State *L);
int world_remove(lua_State *L);
int world_removeSensor(lua_State *L);
int world_sensorCount(lua_State *L);
int world_setFriction(lua_State *L);

/* The luaL_Reg arrays of each type (the World's in cs_lua_query.c, with the
** calls; the module's functions there too). */
extern const luaL_Reg mesh_meta[];
extern const luaL_Reg mesh_methods[];
extern const luaL_Reg body_meta[];
extern const luaL_Reg body_methods[];
extern const luaL_Reg sensor_meta[];
extern const luaL_Reg sensor_methods[];
extern const luaL_Reg mover_meta[];
extern const luaL_Reg mover_methods[];
extern const luaL_Reg world_meta[];
extern const luaL_Reg world_methods[];
extern const luaL_Reg module_funcs[];

#endif
