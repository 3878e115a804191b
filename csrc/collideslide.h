/*
** collideslide.h: ellipsoids that collide and slide through triangle worlds
** (Fauerby 2003, "Improved Collision detection and Response"; Rouwe 2003;
** Nettle 2000), in C99, with no dependency but libm. This header is the
** manual of the C API; the Lua module (collideslide.core) and the LuaJIT
** FFI binding (collideslide.ffi) are two thin layers over it.
**
** A SHORT EXAMPLE: a sphere of radius 0.5 dropped onto a floor.
**
**   cs_Alloc a = cs_default_alloc();
**   double v[] = {-10,0,-10, -10,0,10, 10,0,10, 10,0,-10};
**   unsigned ix[] = {0,1,2, 0,2,3};             (counter-clockwise from above)
**   cs_MeshDesc d = {v, 4, ix, 2, NULL, CS_BACKFACES_COLLIDE};
**   cs_Mesh *floor; cs_World *w; cs_Body *b; cs_Mover *m;
**   cs_Vec3 walk = {0.1, 0, 0}, gravity = {0, -0.2, 0}, p = {0, 3, 0};
**   cs_mesh_new(&a, &d, &floor, NULL);          (check every cs_Status)
**   cs_world_new(&a, &w);
**   cs_world_add(w, floor, &b);
**   cs_mover_new(&a, &m);                       (radius 0.5 by default)
**   cs_mover_set_position(m, &p);
**   for (int i = 0; i < 60; i++)                (one call per frame)
**     if (cs_world_collide_and_slide(w, m, &walk, &gravity) != CS_OK)
**       puts(cs_world_error(w)->message);       (e.g. "vx is NaN")
**   cs_mover_get_position(m, &p);               (p.y is 0.5 + the skin)
**   cs_mover_free(m); cs_world_free(w); cs_mesh_free(floor);
**
** Build: `make lib` makes build/libcollideslide.a (and `make ffi-lib` the
** shared build/libcollideslide.so); link it with libm and the threads:
**   cc -std=c99 -Icsrc app.c build/libcollideslide.a -lm -lpthread
** (mingw-w64: no -lpthread, Win32 threads).
**
** CONVENTIONS (the same as the Lua API's, docs/API.md):
**  - y is up by default (cs_mover_set_up changes it); units are the
**    caller's (metres in the docs); angles are degrees.
**  - A triangle's front face is the side its normal points to,
**    normal = normalize((b - a) x (c - a)).
**  - Moves take displacements (this frame's), not velocities.
**  - Indices are 0-based (the Lua bindings add 1). Messages number vertices
**    and triangles from 1, as the Lua API does.
**  - Vectors go in and out through pointers (const cs_Vec3 *in,
**    cs_Vec3 *out): LuaJIT's FFI compiles such calls, not struct-by-value
**    ones.
**
** ERRORS: nothing here prints, aborts or jumps out. A function that can fail
** returns a cs_Status (or, for the queries that return a count or a found
** flag, a negative number: -(cs_Status)); a call that fails changes nothing.
** Every number is checked once, here: NaN and infinities are CS_EINVAL,
** numbers past CS_MAX_COORD (or a move that would overflow) CS_ERANGE, each
** with a message in the object's cs_Error (cs_world_error, cs_mover_error,
** cs_mesh_error) naming the argument and the problem, in the words the Lua
** bindings show. Pointers are not NULL but where a comment says NULL is
** taken (a NULL object is the caller's bug, as in libc); the one exception
** checked is a NULL walk of cs_world_collide_and_slide, whose gravity may
** be NULL.
**
** PRECISION: positions and vertices are doubles; every call works relative
** to the mover's centre, so a mover 1e5 from the origin sweeps as well as
** one at the origin. Contract (spec/sweep_spec.lua, spec/c/stress.c): after
** any call a mover with the default skin keeps clear of every triangle; a
** stopped mover ends between 0 and its skin from what stopped it; at 1e5
** from the origin results agree with the same scene at the origin within
** 1e-4 of the move. Measured: the least ellipsoid-space distance after a
** step is 1 - 2.3e-10 at 1e5, 1 - 3.7e-7 at 1e8 (README, "Where precision
** ends"). Coordinates, moves, translations, scales and radii are held to
** CS_MAX_COORD (1e30), and a move to 1e30 radii of its mover, so that no
** call overflows; a mover keeps clear of surfaces only while the
** coordinates a call works with (its start and end, its move, the
** vertices of the triangles it meets) stay under about 1e10 of its
** smallest radius for a turned mover, 1e13 for one not turned: past that
** their rounding can pass its skin (a 0.5 sphere falling from 5e15 onto
** y = 0 can end with its centre on the floor, CS_OK; README, "Where
** precision ends").
**
** OWNERSHIP: every object is created through a cs_Alloc the caller gives and
** freed with its *_free function; the library holds no global state but an
** atomic counter of world ids. A mesh must outlive the bodies that use it
** (the Lua bindings guarantee this), with one exception: a world whose
** meshes were freed may still be freed, and nothing else (as a Lua state's
** close frees them in no set order). A world may be used by one thread at a
** time; worlds are independent, but a mesh they share is not: an edited mesh
** (cs_mesh_set_vertex) is refit by the first call that uses it, so refit it
** (cs_mesh_refit, or cs_world_prepare on each world in turn) before worlds
** that share it run on different threads. The contacts of a mover (cs_mover_contact)
** are valid until its next call that moves it. The body pointers a mover
** reports (contacts, ground) point into the world of its last call and
** dangle once that world is freed; the mover itself never reads them again
** then: a mover may outlive any world it moved in and move on in another
** (worlds have ids that are never reused, so a new world at a freed one's
** address is not taken for it). Likewise the other movers it reports
** (cs_Contact.mover, cs_mover_ground_mover) dangle once those are freed:
** the mover never reads them (it finds its ground mover by an id that is
** never reused), but the caller must not either.
*/
#ifndef COLLIDESLIDE_H
#define COLLIDESLIDE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CS_VERSION "0.1.0"

/* Same shape as lua_Alloc: nsize == 0 frees, returns NULL on failure. */
typedef void *(*cs_AllocFn)(void *ud, void *ptr, size_t osize, size_t nsize);
typedef struct cs_Alloc { cs_AllocFn fn; void *ud; } cs_Alloc;

typedef struct cs_Vec3 { double x, y, z; } cs_Vec3;

typedef enum cs_Status {
  CS_OK = 0,
  CS_ENOMEM,      /* the allocator failed; nothing was changed */
  CS_EINVAL,      /* a bad argument: NaN, infinite, out of its range (cs_Error says which) */
  CS_ERANGE,      /* an index out of range (cs_mesh_new: *bad_index names it), or a
                  ** number past CS_MAX_COORD, or a move that would overflow */
  CS_ETOOBIG,     /* a size that would overflow the internal 32-bit indices */
  CS_EBUSY,       /* the world is in a move (a filter called back into it) */
  CS_EABORT       /* a callback asked to stop with an error */
} cs_Status;

const char *cs_status_string(cs_Status s);

/* The largest coordinate, translation, move, radius and displacement (world
** units) the calls take: past it they return CS_ERANGE and change nothing,
** so that no sum, square or map into a mover's ellipsoid space inside a
** call can overflow a double. Moves are also held to 1e30 radii of the
** mover (its smallest radius). */
#define CS_MAX_COORD 1e30
/* The smallest radius (of movers and of the queries' ellipsoids): below it
** a call's fixed slack (1e-9) would pass 1e30 radii, and the map into
** ellipsoid space would lose the geometry. CS_EINVAL, "rx is too small". */
#define CS_MIN_RADIUS 1e-20
/* The smallest scale of a body's or sensor's transform (each scale's
** magnitude; a matrix's smallest singular value, bounded below by
** 1 / |A^-1|_F): below it the placed triangles' normals and distances
** underflow (at 1e-170, overlap queries reported infinite depths and NaN
** normals). CS_EINVAL, "scale sx is too small". */
#define CS_MIN_SCALE 1e-20

/* What the last failed call on an object said (cs_world_error,
** cs_mover_error, cs_mesh_error): the status, the argument at fault and a
** message naming it and the problem, e.g. "vy is NaN" or "rx must be > 0,
** got 0". arg counts the call's number arguments after its objects from 1,
** each vector as its 3 components (x, y, z) and a quaternion as 4
** (qx, qy, qz, qw), in the order the declaration lists them; 0: none in
** particular. The Lua bindings turn it into "bad argument #n to 'name'
** (message)". A successful call may leave the previous error in place. A
** message fits in 159 bytes, a batch's "mover i: " before it included.
** A call the allocator fails says CS_ENOMEM here too, and leaves its
** objects as they were: retried with memory, it gives the bits a run that
** never failed gives (no failure is absorbed into different results).
** Two failures are worked around instead, with the same bits, and the call
** succeeds: the world's tree over its bodies (its calls then visit every
** body until a later update can build it) and the threads of a batch (it
** runs on those that started, or on the calling thread alone). */
typedef struct cs_Error {
  cs_Status status;
  int arg;
  char message[160];
} cs_Error;

/* An allocator on top of realloc/free, for C users. */
cs_Alloc cs_default_alloc(void);

/* {==================================================================
** Meshes: immutable triangles (but for vertex edits) with a tree.
** ===================================================================*/

typedef struct cs_Mesh cs_Mesh;

enum { CS_BACKFACES_COLLIDE = 0, CS_BACKFACES_IGNORE = 1 };

typedef struct cs_MeshDesc {
  const double *vertices;       /* 3 * vertex_count numbers */
  size_t vertex_count;
  const unsigned *indices;      /* 3 * triangle_count, 0-based; NULL: 0-1-2, 3-4-5, ... */
  size_t triangle_count;        /* with indices == NULL: not read, the mesh has
                                ** vertex_count / 3 triangles */
  const int *tags;              /* one per triangle, or NULL (all 0) */
  int backfaces;                /* CS_BACKFACES_* */
} cs_MeshDesc;

/* Builds a mesh. On CS_ERANGE/CS_EINVAL, *bad_index (if given) is the bad
** index's position in desc->indices (CS_ERANGE) or the bad vertex (CS_EINVAL:
** a coordinate not finite or past CS_MAX_COORD, here CS_EINVAL), both
** 0-based; (size_t)-1 for the other CS_EINVAL: no vertices or no triangles
** (vertices NULL, a count of 0; indices NULL with vertex_count not a
** multiple of 3), or backfaces not a CS_BACKFACES_* value. CS_ETOOBIG past
** 2^32 - 2 vertices or 2^30 - 1 triangles. Degenerate triangles (zero area,
** repeated vertices) are kept but never collide. There is no mesh to hold
** a message when it fails: the status and *bad_index are the whole report
** (cs_status_string words the status; the Lua bindings' messages are made
** from the same two). */
cs_Status cs_mesh_new(const cs_Alloc *alloc, const cs_MeshDesc *desc,
                      cs_Mesh **out, size_t *bad_index);
void cs_mesh_free(cs_Mesh *mesh);
const cs_Error *cs_mesh_error(const cs_Mesh *mesh);

size_t cs_mesh_triangle_count(const cs_Mesh *mesh);
size_t cs_mesh_vertex_count(const cs_Mesh *mesh);
size_t cs_mesh_degenerate_count(cs_Mesh *mesh);   /* refits first if edited */
size_t cs_mesh_memory(const cs_Mesh *mesh);     /* bytes the mesh holds, tree included */
int cs_mesh_backfaces(const cs_Mesh *mesh);
void cs_mesh_bounds(cs_Mesh *mesh, cs_Vec3 *lo, cs_Vec3 *hi);  /* likewise */
/* Vertex i, triangle t's vertex indices and its tag (0-based; out of
** range: zeros). */
void cs_mesh_vertex(const cs_Mesh *mesh, size_t i, cs_Vec3 *out);
void cs_mesh_triangle(const cs_Mesh *mesh, size_t t, unsigned idx[3]);
int cs_mesh_tag(const cs_Mesh *mesh, size_t t);
/* Vertex edits. set_vertices refits the tree at once; set_vertex marks the
** mesh, and the refit happens before its next use (or call cs_mesh_refit).
** Coordinates are held to CS_MAX_COORD, and once the mesh is placed (a body
** or sensor transform) to what every placement made so far allows: within
** 2 CS_MAX_COORD placed (CS_ERANGE, "x is out of range for the mesh's
** placements"; the limit stays after the body's removal). Placing a mesh
** writes that limit into it: place a mesh that worlds share from one
** thread at a time. CS_EBUSY while a world that places the mesh (a body
** or sensor) runs cs_world_collide_and_slide_many: a filter's edit would
** reach the batch's other movers by the thread count. */
cs_Status cs_mesh_set_vertex(cs_Mesh *mesh, size_t i, const cs_Vec3 *p);
cs_Status cs_mesh_set_vertices(cs_Mesh *mesh, const double *xyz);  /* 3 * vertex_count */
void cs_mesh_refit(cs_Mesh *mesh);

/* }================================================================== */

/* {==================================================================
** Worlds and bodies
** ===================================================================*/

typedef struct cs_World cs_World;
typedef struct cs_Body cs_Body;

cs_Status cs_world_new(const cs_Alloc *alloc, cs_World **out);
void cs_world_free(cs_World *world);
/* The error of the last failed call on the world, its bodies or its queries. */
const cs_Error *cs_world_error(const cs_World *world);

/* A placed instance of a mesh, at the identity transform. Removing it
** right after its add, with nothing changed between (its placement was
** refused: how the bindings add with a transform), leaves the world as it
** was before the add, down to the last bit of the next move. */
cs_Status cs_world_add(cs_World *world, cs_Mesh *mesh, cs_Body **out);
/* Inside one of the world's filters nothing is removed, and cs_world_error
** says CS_EBUSY (cs_world_remove_sensor too). Query callbacks must not
** remove (see the queries, cs_HitFn): nothing refuses it there. */
void cs_world_remove(cs_World *world, cs_Body *body);
size_t cs_world_body_count(const cs_World *world);
/* Per-tag friction in [0, 1]: 0 slides freely (default), 1 stops on contact. */
cs_Status cs_world_set_friction(cs_World *world, int tag, double coefficient);
double cs_world_get_friction(const cs_World *world, int tag);

/* A body point p lands at T + R(q) * (S * p); a NULL t, q or s is no
** translation, turn or scale. q need not be normalised
** (it is normalised here; it must not be zero, and its squared length must
** lie in [DBL_MIN, DBL_MAX]: "quaternion length out of range"). Scale components must be
** in [CS_MIN_SCALE, CS_MAX_COORD] in magnitude (negative mirrors), and the
** corners of the mesh's bounds, placed, within 2 CS_MAX_COORD (CS_ERANGE: a
** mesh within CS_MAX_COORD turned any way stays inside; a later edit of
** the mesh is not checked against the bodies that place it). The added
** movers standing on the body (cs_world_add_mover), and those standing on them, go along when the body was moved without a turn
** or a scale, none of them is in a move, and the way is clear for all of
** them (swept, half a skin to spare, near no sensor they meet); their next
** call does not carry them again. Else (and always inside a move of this
** world) their calls carry them. Movers not added are carried by their next
** call. */
cs_Status cs_body_set_transform(cs_Body *body, const cs_Vec3 *t, const double q[4],
                                const cs_Vec3 *s);
/* A general affine map: m is 4x4 column-major (m[12..14] the translation);
** its 3x3 part must be invertible, its elements within CS_MAX_COORD, and it
** must shrink no direction below CS_MIN_SCALE (less 1e-7 of it for rounding,
** or for a condition number c over 1e5 the rounding of its inverse, about
** 2.2e-16 c; CS_EINVAL, CS_ERANGE), the
** placed mesh as above. Messages number its elements from 1, as Lua does
** ("m[14] is NaN" for m[13]). */
cs_Status cs_body_set_matrix(cs_Body *body, const double m[16]);
void cs_body_get_matrix(const cs_Body *body, double m[16]);
/* The displacement the body makes during the next step (moving platforms). */
cs_Status cs_body_set_velocity(cs_Body *body, const cs_Vec3 *v);
void cs_body_get_velocity(const cs_Body *body, cs_Vec3 *out);
/* Layers and enabled: CS_EBUSY during a batch (see
** cs_world_collide_and_slide_many), else CS_OK. */
cs_Status cs_body_set_layers(cs_Body *body, unsigned layers);
unsigned cs_body_get_layers(const cs_Body *body);
cs_Status cs_body_set_enabled(cs_Body *body, int enabled);
int cs_body_get_enabled(const cs_Body *body);
cs_Mesh *cs_body_mesh(const cs_Body *body);
void cs_body_bounds(cs_Body *body, cs_Vec3 *lo, cs_Vec3 *hi);
/* An opaque pointer for the caller (the Lua binding keeps its handle here). */
void cs_body_set_userdata(cs_Body *body, void *ud);
void *cs_body_get_userdata(const cs_Body *body);

/* }================================================================== */

/* {==================================================================
** Movers (ellipsoids)
** ===================================================================*/

typedef enum cs_GroundState {
  CS_GROUND_AIR = 0,       /* touched nothing below */
  CS_GROUND_ON,            /* walkable ground below (within slope_limit of up) */
  CS_GROUND_STEEP,         /* ground below, steeper than slope_limit */
  CS_GROUND_UNSUPPORTED    /* touching something below, not standing on it */
} cs_GroundState;

typedef enum cs_Response {
  CS_RESPONSE_SLIDE = 0,   /* the normal response */
  CS_RESPONSE_TOUCH,       /* stop at the contact, no slide: ends the pass it
                           ** is met in (the gravity pass still runs) */
  CS_RESPONSE_CROSS        /* pass through */
} cs_Response;

/* Called once per (body, tag) a call meets. Return a cs_Response, or -1 to
** abort the call with CS_EABORT (the mover is left as it was). */
typedef int (*cs_FilterFn)(void *ud, const cs_Body *body, int tag);

/* One contact of a call. */
typedef struct cs_Mover cs_Mover;

/* Called once per added mover a call meets (issue 14): return a cs_Response
** for that mover, or -1 to abort the call (CS_EABORT, the mover left as it
** was). Without one, every mover whose layers meet collides_with slides. */
typedef int (*cs_MoverFilterFn)(void *ud, const cs_Mover *other);

/* One surface a call met: a triangle of a body, or another mover (then body
** is NULL, triangle and tag 0, and tri_normal is the other's surface normal
** at the point). */
typedef struct cs_Contact {
  cs_Vec3 point;          /* on the triangle (or the other mover), world space */
  cs_Vec3 normal;         /* unit, world space, from the point toward the centre */
  cs_Vec3 tri_normal;     /* the triangle's own unit normal facing the mover */
  const cs_Body *body;    /* NULL for another mover */
  unsigned triangle;      /* 0-based index in the body's mesh */
  int tag;
  int pass;               /* CS_PASS_* that met it */
  const cs_Mover *mover;  /* the other mover, or NULL for a triangle */
} cs_Contact;

enum { CS_PASS_WALK = 0, CS_PASS_GRAVITY, CS_PASS_CARRY, CS_PASS_STEP,
       CS_PASS_SNAP, CS_PASS_DEPENETRATE };

/* Defaults: radius (0.5, 0.5, 0.5) at the origin, up (0, 1, 0),
** max_iterations 5, skin auto (1% of the smallest radius), slope_limit 45
** degrees, step_height 0, snap_distance 0, block_steep_slopes 0,
** collides_with all bits, no filter. */
cs_Status cs_mover_new(const cs_Alloc *alloc, cs_Mover **out);
void cs_mover_free(cs_Mover *mover);
/* The error of the last failed setter on the mover (the calls that move it
** report in their world's error). */
const cs_Error *cs_mover_error(const cs_Mover *mover);

/* A teleport: the next call does not snap, step or ride from the ground of
** the last call (whose ground state and contacts the getters still give). The position it has, bit for bit, changes
** nothing: an engine may write its positions back every frame. */
cs_Status cs_mover_set_position(cs_Mover *m, const cs_Vec3 *p);
void cs_mover_get_position(const cs_Mover *m, cs_Vec3 *out);
/* Radii must be finite, in [CS_MIN_RADIUS, CS_MAX_COORD]. */
cs_Status cs_mover_set_radius(cs_Mover *m, const cs_Vec3 *r);
void cs_mover_get_radius(const cs_Mover *m, cs_Vec3 *out);
/* Unit quaternion (normalised here; must not be zero, and its squared
** length must lie in [DBL_MIN, DBL_MAX], as the up vector's: CS_EINVAL,
** "quaternion length out of range"). */
cs_Status cs_mover_set_orientation(cs_Mover *m, const double q[4]);
void cs_mover_get_orientation(const cs_Mover *m, double q[4]);
/* Up must be nonzero and its squared length a finite double no smaller
** than DBL_MIN (CS_EINVAL, "up vector length out of range"); it is
** normalised. */
cs_Status cs_mover_set_up(cs_Mover *m, const cs_Vec3 *up);
void cs_mover_get_up(const cs_Mover *m, cs_Vec3 *out);

/* The tunables, their units, ranges and defaults. cs_mover_set checks the
** value against the range (CS_EINVAL, or CS_ERANGE past CS_MAX_COORD, with
** cs_mover_error naming the setting as the Lua API does: "skin must be
** >= 0, got -1") and changes nothing on an error. */
#define CS_MAX_ITERATIONS_CAP 1000
typedef enum cs_Setting {
  /* Sweeps per pass (walk, gravity, ...), an integer in 1..1000, default 5:
  ** each sweep after the first slides along one more surface. */
  CS_MAX_ITERATIONS,
  /* The gap (world units, >= 0) a mover keeps from what stops it, measured
  ** along the contact normal (Fauerby 2003's veryCloseDistance). Default
  ** auto: 1% of the smallest radius (cs_mover_set_skin_auto). The slide
  ** keeps at least 1e-9 of the smallest radius (with exactly 0, rounding
  ** could stall a slide along a flat wall). */
  CS_SKIN,
  /* The steepest walkable ground, degrees in [0, 90] between the
  ** triangle's normal and up, default 45. */
  CS_SLOPE_LIMIT,
  /* 1: a walk treats ground steeper than the slope limit (and ledges higher
  ** than the step height) as a wall; 0 (default): slides up it, as the
  ** papers do. */
  CS_BLOCK_STEEP_SLOPES,
  /* How high (world units, >= 0) a walk steps up onto a ledge, default 0;
  ** a mover steps when its last call ended on walkable ground or such
  ** ground lies within two skins under it. */
  CS_STEP_HEIGHT,
  /* How far down (world units, >= 0) a grounded mover follows the ground
  ** it walks off (stairs down, slopes), default 0. */
  CS_SNAP_DISTANCE,
  /* The bodies' layers the mover collides with, an integer bitmask in
  ** 0..2^32-1, default all bits. */
  CS_COLLIDES_WITH,
  /* What other movers meet of this one (movers that meet, issue 14): an
  ** integer bitmask in 0..2^32-1, default 1; another mover collides with it
  ** when its collides_with meets these layers. */
  CS_LAYERS
} cs_Setting;
cs_Status cs_mover_set(cs_Mover *m, cs_Setting s, double value);
/* The value; CS_SKIN gives the skin in use (auto resolved). */
double cs_mover_get(const cs_Mover *m, cs_Setting s);
/* Back to the automatic skin (1% of the smallest radius). */
cs_Status cs_mover_set_skin_auto(cs_Mover *m);
cs_Status cs_mover_set_filter(cs_Mover *m, cs_FilterFn fn, void *ud);
/* The filter for other movers (NULL: none); ud as for cs_mover_set_filter.
** Every mover setter returns CS_EBUSY while a batch that lists the mover,
** or that runs in the world the mover is added to, is under way (see
** cs_world_collide_and_slide_many); the setters of its place, shape and
** settings (position, radius, orientation, up, cs_mover_set, automatic
** skin) also during the mover's own move, from its filter ("the mover is
** busy (its move is under way: called from a filter)"); else CS_OK (or its
** checks' status). */
cs_Status cs_mover_set_mover_filter(cs_Mover *m, cs_MoverFilterFn fn, void *ud);
/* Says whether the mover has a filter that its binding hands to the core
** only for the length of each call (the Lua bindings do), so that the core
** knows of it between calls: a placement that takes added movers along
** (cs_body_set_transform) pushes no mover in their way when either of the
** two has a filter, set here or by the two calls above, which it cannot ask
** (0: none, the default). */
void cs_mover_mark_filtered(cs_Mover *m, int filtered);

/* Results of the last call. */
size_t cs_mover_contact_count(const cs_Mover *m);
const cs_Contact *cs_mover_contact(const cs_Mover *m, size_t i);
cs_GroundState cs_mover_ground_state(const cs_Mover *m);
/* The ground contact: normal of the ground triangle, its body and tag. Returns
** 0 when there is none. */
int cs_mover_ground(const cs_Mover *m, cs_Vec3 *normal, const cs_Body **body, int *tag);
/* The mover the last call stood on (its ground is another mover), or NULL. */
const cs_Mover *cs_mover_ground_mover(const cs_Mover *m);
int cs_mover_was_stuck(const cs_Mover *m);

/* }================================================================== */

/* {==================================================================
** Movers that meet: a mover added to a world is solid to the world's other
** movers whose collides_with meets its layers (issue 14).
** ===================================================================*/

/* Adds the mover to the world's movers. CS_EINVAL when it is in a world
** already (this one or another); CS_EBUSY inside a filter, and while a
** batch (of any world) lists the mover, as for removing it. A mover freed
** while added leaves its world first; a world freed forgets its movers. */
cs_Status cs_world_add_mover(cs_World *world, cs_Mover *m);
/* CS_EINVAL when the mover is not in this world. Both name the problem in
** cs_world_error. */
cs_Status cs_world_remove_mover(cs_World *world, cs_Mover *m);
size_t cs_world_mover_count(const cs_World *world);
/* The world the mover was added to, or NULL. */
cs_World *cs_mover_added_to(const cs_Mover *m);
/* A pointer of the caller's, kept with the mover (the Lua binding's handle). */
void cs_mover_set_userdata(cs_Mover *m, void *ud);
void *cs_mover_get_userdata(const cs_Mover *m);

/* }================================================================== */

/* {==================================================================
** Sensors: closed volumes that never block a mover; a mover records each
** crossing of its centre into or out of one along the path of its call.
** ===================================================================*/

typedef struct cs_Sensor cs_Sensor;

/* One crossing, in the order they happened along the call's path. */
typedef struct cs_SensorEvent {
  const cs_Sensor *sensor;  /* valid while the sensor is in its world */
  int enter;                /* 1: the centre went in, 0: it came out */
  double t;                 /* where, as a fraction of the path's length, in [0, 1] */
} cs_SensorEvent;

/* A sensor on mesh, at the identity transform, layers 1. The mesh must be
** closed: every edge used as often in one direction as in the other (shared
** vertices, consistent winding). Returns CS_EINVAL for a mesh that is not,
** with bad_edge[0..1] (if given) the vertices of an open edge and *uses the
** triangles on it; CS_EBUSY inside a filter. The mesh must outlive it. */
cs_Status cs_world_add_sensor(cs_World *world, cs_Mesh *mesh, cs_Sensor **out,
                              unsigned bad_edge[2], int *uses);
/* Frees the sensor (movers forget it; events naming it must not be read). */
void cs_world_remove_sensor(cs_World *world, cs_Sensor *sensor);
size_t cs_world_sensor_count(const cs_World *world);
/* Placement, as for bodies (cs_body_set_transform, cs_body_set_matrix; errors
** in the world's cs_Error). */
cs_Status cs_sensor_set_transform(cs_Sensor *s, const cs_Vec3 *t, const double q[4],
                                  const cs_Vec3 *scale);
cs_Status cs_sensor_set_matrix(cs_Sensor *s, const double m[16]);
void cs_sensor_get_matrix(const cs_Sensor *s, double m[16]);
cs_Status cs_sensor_set_layers(cs_Sensor *s, unsigned layers);   /* CS_EBUSY in a batch */
unsigned cs_sensor_get_layers(const cs_Sensor *s);
void cs_sensor_set_userdata(cs_Sensor *s, void *ud);
void *cs_sensor_get_userdata(const cs_Sensor *s);
cs_Mesh *cs_sensor_mesh(const cs_Sensor *s);
/* Is p inside (the mesh's winding number around p is not 0)? 1 or 0, or
** -(cs_Status) for a bad p. */
int cs_sensor_contains(cs_Sensor *s, const cs_Vec3 *p);

/* The crossings of the mover's last call, for sensors whose layers meet its
** collides_with; a call that starts inside a sensor the mover was not known
** to be in gives an enter at t = 0. Valid until its next call. */
size_t cs_mover_sensor_event_count(const cs_Mover *m);
const cs_SensorEvent *cs_mover_sensor_event(const cs_Mover *m, size_t i);
/* Was the centre inside s at the end of the mover's last call in s's world?
** (Calls in other worlds keep it; 0 when s's layers do not meet the
** mover's.) */
int cs_mover_is_inside(const cs_Mover *m, const cs_Sensor *s);

/* }================================================================== */

/* {==================================================================
** The calls
** ===================================================================*/

/* One hit of a sweep or a ray. */
typedef struct cs_Hit {
  double t;               /* fraction of the displacement, in [0, 1] */
  cs_Vec3 point;          /* on the triangle (or the mover), world space */
  cs_Vec3 normal;         /* unit, world space (see each call) */
  const cs_Body *body;    /* NULL for an added mover */
  unsigned triangle;      /* 0-based in the body's mesh */
  int tag;
  const cs_Mover *mover;  /* the added mover hit (raycast, raycast_all, the
                          ** sweeps; layers & mask), or NULL for a triangle */
} cs_Hit;

/* Moves the mover by walk (not NULL: {0, 0, 0} for none, else CS_EINVAL),
** sliding; then, when gravity is not NULL, a second pass with it. Updates
** the mover (position, contacts, ground state). On an error the mover is
** left as it was. */
cs_Status cs_world_collide_and_slide(cs_World *w, cs_Mover *m, const cs_Vec3 *walk,
                                     const cs_Vec3 *gravity);

/* First contact of the mover swept along d (the mover does not move). Returns
** 1 and fills *hit, 0 when the sweep is free, or -(cs_Status) on failure
** (not enough memory; CS_EBUSY from inside a filter). hit->normal is the ellipsoid's
** tangent-plane normal at the contact, from the point toward the centre.
** An overlap at the start is a hit at t = 0. Honours collides_with, not the
** filter. */
int cs_world_sweep(cs_World *w, const cs_Mover *m, const cs_Vec3 *d, cs_Hit *hit);
/* The same, meeting what mask names instead of the mover's collides_with
** (the mover itself is never met either way). */
int cs_world_sweep_mask(cs_World *w, const cs_Mover *m, const cs_Vec3 *d, unsigned mask,
                        cs_Hit *hit);

/* The same for any ellipsoid: centre p, radii r, orientation q (NULL: none). */
int cs_world_sweep_ellipsoid(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                             const cs_Vec3 *d, unsigned mask, cs_Hit *hit);

/* First triangle on the segment o .. o + d. Returns 1 and fills *hit, 0
** when the segment is free, or -(cs_Status) on a bad argument (o: numbers
** 1-3 "ox".."oz", d: 4-6 "dx".."dz"). hit->normal is the triangle's normal
** facing the ray's origin. Backface-ignoring meshes are hit only from the
** front. */
int cs_world_raycast(cs_World *w, const cs_Vec3 *o, const cs_Vec3 *d, unsigned mask, cs_Hit *hit);

/* Every hit on the segment, nearest first. fn returns 0 to stop. Returns the
** number of hits reported, or -(cs_Status): -1 is CS_ENOMEM. A NULL fn (here
** and in the other queries that call back) only counts. */
typedef int (*cs_HitFn)(void *ud, const cs_Hit *hit);
long cs_world_raycast_all(cs_World *w, const cs_Vec3 *o, const cs_Vec3 *d, unsigned mask,
                          cs_HitFn fn, void *ud);

/* The nearest point on any triangle within max_distance (>= 0, HUGE_VAL: no
** limit) of p. Returns 1 and fills hit (hit->t is the distance, hit->normal
** from the point toward p or the triangle normal when p is on it), 0 when
** none is that close, -(cs_Status) on a bad argument. */
int cs_world_closest_point(cs_World *w, const cs_Vec3 *p, double max_distance,
                           unsigned mask, cs_Hit *hit);

/* Query callbacks (cs_HitFn, cs_TriFn, cs_OverlapFn) must not add, remove,
** move or enable bodies of the world they are called from, nor edit its
** meshes; they may run other queries. Counts include the call that stopped.
** The queries that call back report as they go: one that fails (-1, not
** enough memory) may have called fn for some triangles before it did, which
** the caller then drops.
**
** Triangles that meet the box exactly. fn returns 0 to stop. Returns the
** count reported, or -1 on allocation failure. */
typedef int (*cs_TriFn)(void *ud, const cs_Body *body, unsigned triangle);
long cs_world_query_box(cs_World *w, const cs_Vec3 *lo, const cs_Vec3 *hi, unsigned mask,
                        cs_TriFn fn, void *ud);

/* Triangles the ellipsoid intersects, with the depth (world units, along the
** normal) and the unit direction that pushes the ellipsoid out (world space). */
typedef int (*cs_OverlapFn)(void *ud, const cs_Body *body, unsigned triangle,
                            double depth, const cs_Vec3 *normal);
long cs_world_overlap_ellipsoid(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                                unsigned mask, cs_OverlapFn fn, void *ud);
/* The added movers (layers meeting mask, not `self`, which may be NULL) the
** ellipsoid intersects, with the depth and push-out direction as above
** (issue 14). Returns the number given to fn (the one that stopped
** included), -1 (CS_ENOMEM) on allocation failure, or -(cs_Status) when
** p, r or q fail cs_world_overlap_ellipsoid's checks (the same words). */
typedef int (*cs_MoverOverlapFn)(void *ud, const cs_Mover *other, double depth,
                                 const cs_Vec3 *normal);
long cs_world_overlap_movers(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                             unsigned mask, const cs_Mover *self, cs_MoverOverlapFn fn, void *ud);
/* Both: the triangles (tri_fn), then, unless tri_fn stopped, the added
** movers (mover_fn, leaving out self); the count of both, or -1 as above
** (cs_world_overlap_ellipsoid's negative status when its arguments fail). */
long cs_world_overlap(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                      unsigned mask, const cs_Mover *self, cs_OverlapFn tri_fn,
                      cs_MoverOverlapFn mover_fn, void *ud);

/* }================================================================== */

/* {==================================================================
** Crowds: many movers in one call, on the world's threads (issue 15)
** ===================================================================*/

/* The most threads a world runs (cs_world_set_threads). */
#define CS_MAX_THREADS 64

/* How many threads a batch uses: k in 1..CS_MAX_THREADS, default 1. With
** k = 1 no thread is ever started; with k > 1 the world starts k - 1
** threads at its first batch (the calling thread is the k-th) and ends them
** when k changes or the world is freed. CS_EINVAL for k out of range, or
** CS_EBUSY during a call on the world. */
cs_Status cs_world_set_threads(cs_World *w, int k);
int cs_world_get_threads(const cs_World *w);
/* The number of processors online (1 when it cannot be told). */
int cs_cpu_count(void);

/* Does every refit that is pending: the broad phase after bodies moved or
** meshes were edited, the bounds of bodies and sensors, the movers' grid.
**
** THE CONTRACT FOR A JOB SYSTEM OF ONE'S OWN. After cs_world_prepare, and
** while nothing edits the world (no add, remove, transform, velocity,
** friction, mesh edit, sensor change, mover add or remove, setter on an
** added mover), these may run at the same time from any threads, each on
** its own cs_CallScratch: cs_world_collide_and_slide_in
** for movers that are not added to any world, each mover on one thread at
** a time (added movers read each other: move those with the batch below,
** which keeps the loop's order among them), and cs_world_sweep_in; and
** these queries, which need no scratch: cs_world_raycast, _raycast_all,
** _closest_point, _query_box, _overlap_ellipsoid, _overlap and
** _overlap_movers (their callbacks run on the calling thread). A query's
** bad argument is reported in the world's error, which another thread's
** failure may overwrite: rely on the returned status.
** cs_world_collide_and_slide, cs_world_sweep and _sweep_ellipsoid use the world's own scratch: one
** thread at a time, not while the calls above run. The batch keeps this
** contract itself. The allocator given to cs_world_new (and to the movers)
** must be thread-safe when threads run (the default one is).
** Returns CS_OK; CS_ENOMEM when a refit could not allocate (the world is
** then not prepared: run none of the calls above at the same time), CS_EBUSY
** inside a filter of the world. */
cs_Status cs_world_prepare(cs_World *w);

/* The scratch one call works in (gathered triangles, contacts, ...): one
** per thread of one's own. Made with the world's allocator; free it before
** the world. */
typedef struct cs_CallScratch cs_CallScratch;
cs_Status cs_call_scratch_new(cs_World *w, cs_CallScratch **out);
void cs_call_scratch_free(cs_World *w, cs_CallScratch *sc);
/* cs_world_collide_and_slide in the scratch sc, under the contract above;
** its error goes to cs_call_scratch_error(sc). CS_EINVAL for a mover added
** to a world, or a world with refits pending (bodies placed, added or
** removed, or meshes of bodies or sensors edited since cs_world_prepare, or
** the movers' grid outgrown by the added movers' changes: call it again;
** added movers moved or resized within their grid are seen as they are);
** CS_EBUSY for a scratch a call on this thread works in (from a filter: give
** the filter's calls a scratch of their own). Its filters may call only what
** the contract lets run beside it: the
** calls that refuse with CS_EBUSY "inside a filter of the world" or "during
** a call on the world" (the world's own moves, its batch, cs_world_prepare,
** cs_world_set_threads, the edits) know only of the world's own calls and
** its batch, not of these, which run beside each other. */
cs_Status cs_world_collide_and_slide_in(cs_World *w, cs_CallScratch *sc, cs_Mover *m,
                                        const cs_Vec3 *walk, const cs_Vec3 *gravity);
/* cs_world_sweep in the scratch sc, under the same contract: the same
** CS_EINVAL for a world with refits pending (the movers' grid among them), and
** CS_EBUSY. A mover added to a world may be swept: a sweep only reads it. */
int cs_world_sweep_in(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, const cs_Vec3 *d,
                      cs_Hit *hit);
const cs_Error *cs_call_scratch_error(const cs_CallScratch *sc);

/* Moves movers[0..n-1], each by its walk and then its gravity:
** moves[i * stride + 0..2] is mover i's walk, and when stride is 6,
** moves[i * stride + 3..5] its gravity (stride 3: no gravity pass).
** out (NULL or 3n doubles) receives the new centres; moved (NULL or n
** bytes) says which movers moved (1) and which were left as they were (0).
**
** The result is bit-identical to calling cs_world_collide_and_slide on
** each mover in list order, whatever the thread count: movers whose moves
** cannot meet (their reach boxes are apart) run in parallel, movers that
** can meet (added movers, solid to each other) keep list order. A mover
** with a filter (cs_mover_set_filter or _mover_filter) runs on the calling
** thread, and those movers run in list order among themselves.
**
** Every argument is checked before any mover moves: a bad move, a NULL or
** repeated mover gives CS_EINVAL or CS_ERANGE, *failed (when not NULL) the
** index of the first bad mover, and nothing moves. A failure during the
** batch (a filter that aborts, memory) stops it: every mover listed before
** the failed one has moved, the failed one is left as it was; after a
** filter's abort no later one has moved, whatever the thread count, as in
** the loop; after a failed allocation on a thread, later ones either moved
** or were left as they were (moved says which); *failed is
** its index (0 when the batch could not start: its arrays failed to
** allocate, and nothing moved). *failed is n when no mover failed: on
** success, and when the call as a whole was refused (CS_EBUSY, a stride
** not 3 or 6, NULL movers or moves), when nothing moved either. The message (cs_world_error) names the mover
** as "mover i" (1-based). CS_EBUSY during another call on the world.
**
** While the batch runs (its filters may call back), edits are refused with
** CS_EBUSY: body transforms, velocities, layers and enabled, friction,
** sensor transforms and layers, and every setter of the listed movers and of the movers added to the
** world (position, radius, orientation, up, settings, filters: the batch's
** moves read them, on other threads too), and vertex edits of the meshes
** the world's bodies and sensors place (cs_mesh_set_vertex, _vertices). */
cs_Status cs_world_collide_and_slide_many(cs_World *w, cs_Mover *const *movers, size_t n,
                                          const double *moves, int stride, double *out,
                                          unsigned char *moved, size_t *failed);
/* After a batch that failed once it had begun: which movers moved (moved,
** n) and which did not, the failed one (index failed, 0-based) named first,
** as both Lua bindings word it: "movers 1-140 and 150-300 moved, mover 141
** and 8 others did not". Writes at most size bytes into buf, NUL included
** (256 hold any summary); returns buf. */
const char *cs_batch_summary(char *buf, size_t size, const unsigned char *moved, size_t n,
                             size_t failed);

#ifdef __cplusplus
}
#endif

#endif
