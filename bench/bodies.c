/*
** bodies.c: "worlds that move", in C through the public header only.
**  1. memory: one 10k-triangle mesh added 1000 times (a counting allocator
**     gives the exact bytes of the mesh and of each body);
**  2. frames: 10,000 bodies (one shared 12-triangle box mesh) placed by
**     setTransform every frame, the world's tree over bodies brought up to
**     date, then 256 movers walking among them with gravity: ms per frame
**     of each part;
**  3. queries: each query kind on the last frame's world, queries/s.
**
** usage: bodies [--bodies N] [--frames F] [--movers M] [--queries Q]
** The last line is machine-readable: "RESULT key=value ...".
*/
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collideslide.h"
#include "../spec/c/by_value.h"

#define PI 3.14159265358979323846
#define SPACING 4.0             /* metres between bodies on the grid */
#define WARMUP 10               /* frames run before the measured ones */

/* {==================================================================
** Clocks, a counting allocator, random numbers
** ===================================================================*/

/* Process CPU time, the clock Lua's os.clock() reads (bodies.lua). */
static double now_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct Count { long long bytes; } Count;

/* realloc/free that keeps the bytes currently held in ud (a Count). */
static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  Count *c = (Count *)ud;
  if (ptr != NULL) c->bytes -= (long long)osize;
  if (nsize == 0) { free(ptr); return NULL; }
  ptr = realloc(ptr, nsize);
  if (ptr != NULL) c->bytes += (long long)nsize;
  else if (osize > 0) c->bytes += (long long)osize;   /* the old block is still held */
  return ptr;
}

static void die(const char *what, const char *detail) {
  fprintf(stderr, "bodies: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(1);
}

static void check(cs_Status s, const char *what) {
  if (s != CS_OK) die(what, cs_status_string(s));
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* Uniform in [lo, hi) (xorshift64*). */
static double rnd(double lo, double hi) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return lo + (hi - lo) * (double)((rng_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* }================================================================== */

/* {==================================================================
** Meshes: a box, a floor grid
** ===================================================================*/

/* A closed box [-h, h]^3, front faces outward (12 triangles). */
static cs_Mesh *box_mesh(const cs_Alloc *a, double h) {
  static const unsigned idx[36] = {0, 4, 6, 0, 6, 2,  1, 3, 7, 1, 7, 5,  0, 1, 5, 0, 5, 4,
                                   2, 6, 7, 2, 7, 3,  0, 2, 3, 0, 3, 1,  4, 5, 7, 4, 7, 6};
  double v[24];
  cs_MeshDesc d;
  cs_Mesh *m;
  int k;
  for (k = 0; k < 8; k++) {
    v[3 * k] = k & 1 ? h : -h;
    v[3 * k + 1] = k & 2 ? h : -h;
    v[3 * k + 2] = k & 4 ? h : -h;
  }
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = 8; d.indices = idx; d.triangle_count = 12;
  check(cs_mesh_new(a, &d, &m, NULL), "cs_mesh_new (box)");
  return m;
}

/* A square floor at y = 0, side `size`, n x n cells of two triangles. */
static cs_Mesh *floor_mesh(const cs_Alloc *a, double size, int n) {
  size_t nv = (size_t)(n + 1) * (size_t)(n + 1), nt = 2 * (size_t)n * (size_t)n, t = 0;
  double *v = malloc(3 * nv * sizeof *v);
  unsigned *idx = malloc(3 * nt * sizeof *idx);
  cs_MeshDesc d;
  cs_Mesh *m;
  int i, j;
  if (!v || !idx) die("out of memory", NULL);
  for (j = 0; j <= n; j++)
    for (i = 0; i <= n; i++) {
      size_t k = (size_t)j * (size_t)(n + 1) + (size_t)i;
      v[3 * k] = -size / 2 + size * i / n;
      v[3 * k + 1] = 0;
      v[3 * k + 2] = -size / 2 + size * j / n;
    }
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) {
      unsigned a0 = (unsigned)(j * (n + 1) + i), b0 = a0 + 1;
      unsigned d0 = a0 + (unsigned)(n + 1), c0 = d0 + 1;
      unsigned q[6] = {a0, d0, c0, a0, c0, b0};       /* counter-clockwise from above */
      memcpy(idx + 3 * t, q, sizeof q);
      t += 2;
    }
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = nv; d.indices = idx; d.triangle_count = nt;
  check(cs_mesh_new(a, &d, &m, NULL), "cs_mesh_new (floor)");
  free(v);
  free(idx);
  return m;
}

/* }================================================================== */

/* {==================================================================
** 1. Memory of instances
** ===================================================================*/

static void bench_memory(int instances, double *mesh_bytes, double *body_bytes, size_t *tris) {
  Count c = {0};
  cs_Alloc a;
  cs_Mesh *m;
  cs_World *w;
  cs_Body *b;
  cs_Hit hit;
  long long before;
  int i;
  a.fn = count_alloc; a.ud = &c;
  m = floor_mesh(&a, 100, 71);                       /* 2 * 71^2 = 10082 triangles */
  *tris = cs_mesh_triangle_count(m);
  *mesh_bytes = (double)c.bytes;
  check(cs_world_new(&a, &w), "cs_world_new");
  check(cs_world_add(w, m, &b), "cs_world_add");
  cs_world_raycast(w, &(cs_Vec3){0, 1, 0}, &(cs_Vec3){0, -2, 0}, ~0u, &hit);
  before = c.bytes;
  for (i = 0; i < instances; i++) {
    double q[4] = {0, sin(0.1 * i), 0, cos(0.1 * i)};
    check(cs_world_add(w, m, &b), "cs_world_add");
    cs_body_set_transform(b, &(cs_Vec3){(i % 40) * 120.0, 0, (i / 40) * 120.0}, q, &(cs_Vec3){1, 1, 1});
  }
  cs_world_raycast(w, &(cs_Vec3){0, 1, 0}, &(cs_Vec3){0, -2, 0}, ~0u, &hit);   /* tree over bodies */
  *body_bytes = (double)(c.bytes - before) / instances;
  if ((size_t)*mesh_bytes < cs_mesh_memory(m)) die("mesh:memory() above the bytes allocated", NULL);
  cs_world_free(w);
  cs_mesh_free(m);
  if (c.bytes != 0) die("memory not returned", NULL);
}

/* }================================================================== */

/* {==================================================================
** 2. Moving bodies and walking movers
** ===================================================================*/

typedef struct Scene {
  cs_World *world;
  cs_Mesh *box, *ground;
  cs_Body **bodies;
  double *base;                 /* x, z of each body's grid place, and its phase */
  int nbodies, side;
  cs_Mover **movers;
  double *vy, *wx, *wz;
  int nmovers;
} Scene;

/* Body i in frame f: circling 0.6 m around its grid place and turning about y. */
static void place_body(Scene *s, int i, int f) {
  double a = 0.03 * f + s->base[3 * i + 2];
  double q[4] = {0, sin(a / 2), 0, cos(a / 2)};
  cs_body_set_transform(s->bodies[i],
                        &(cs_Vec3){s->base[3 * i] + 0.6 * cos(a), 0.5, s->base[3 * i + 1] + 0.6 * sin(a)},
                        q, &(cs_Vec3){1, 1, 1});
}

static void scene_init(Scene *s, const cs_Alloc *a, int nbodies, int nmovers) {
  cs_Body *g;
  int i;
  memset(s, 0, sizeof *s);
  s->nbodies = nbodies;
  s->side = (int)ceil(sqrt((double)nbodies));
  check(cs_world_new(a, &s->world), "cs_world_new");
  s->ground = floor_mesh(a, s->side * SPACING + 40, 8);
  check(cs_world_add(s->world, s->ground, &g), "cs_world_add");
  s->box = box_mesh(a, 0.5);
  s->bodies = malloc((size_t)nbodies * sizeof *s->bodies);
  s->base = malloc(3 * (size_t)nbodies * sizeof *s->base);
  if (!s->bodies || !s->base) die("out of memory", NULL);
  for (i = 0; i < nbodies; i++) {
    check(cs_world_add(s->world, s->box, &s->bodies[i]), "cs_world_add");
    s->base[3 * i] = (i % s->side - s->side / 2) * SPACING;
    s->base[3 * i + 1] = (i / s->side - s->side / 2) * SPACING;
    s->base[3 * i + 2] = rnd(0, 2 * PI);
    place_body(s, i, 0);
  }
  /* movers on a square grid between the bodies, around the middle */
  s->nmovers = nmovers;
  s->movers = malloc((size_t)nmovers * sizeof *s->movers);
  s->vy = calloc((size_t)nmovers, sizeof *s->vy);
  s->wx = calloc((size_t)nmovers, sizeof *s->wx);
  s->wz = calloc((size_t)nmovers, sizeof *s->wz);
  if (!s->movers || !s->vy || !s->wx || !s->wz) die("out of memory", NULL);
  {
    int mside = (int)ceil(sqrt((double)nmovers));
    for (i = 0; i < nmovers; i++) {
      check(cs_mover_new(a, &s->movers[i]), "cs_mover_new");
      cs_mover_set_radius(s->movers[i], &(cs_Vec3){0.4, 0.9, 0.4});
      cs_mover_set_position(s->movers[i], &(cs_Vec3){(i % mside - mside / 2) * SPACING + SPACING / 2, 0.91,
                                                    (i / mside - mside / 2) * SPACING + SPACING / 2});
    }
  }
}

static void scene_free(Scene *s) {
  int i;
  for (i = 0; i < s->nmovers; i++) cs_mover_free(s->movers[i]);
  cs_world_free(s->world);
  cs_mesh_free(s->box);
  cs_mesh_free(s->ground);
  free(s->bodies); free(s->base); free(s->movers); free(s->vy); free(s->wx); free(s->wz);
}

typedef struct FrameTimes { double xf, tree, moves; } FrameTimes;

/* One frame: transforms, the tree (one short raycast brings it up to
** date), then every mover walks (a new direction every 60 frames, 3 m/s)
** with gravity. */
static void frame(Scene *s, int f, FrameTimes *ft) {
  const double dt = 1.0 / 60;
  double t0, t1, t2, t3;
  cs_Hit hit;
  int i;
  t0 = now_cpu();
  for (i = 0; i < s->nbodies; i++) place_body(s, i, f);
  t1 = now_cpu();
  cs_world_raycast(s->world, &(cs_Vec3){0, 50, 0}, &(cs_Vec3){0, -0.1, 0}, ~0u, &hit);
  t2 = now_cpu();
  for (i = 0; i < s->nmovers; i++) {
    cs_Vec3 g;
    if (f % 60 == 0) {
      double a = rnd(0, 2 * PI);
      s->wx[i] = 3.0 * dt * cos(a);
      s->wz[i] = 3.0 * dt * sin(a);
    }
    s->vy[i] -= 9.81 * dt;
    g = (cs_Vec3){0, s->vy[i] * dt, 0};
    check(cs_world_collide_and_slide(s->world, s->movers[i], &(cs_Vec3){s->wx[i], 0, s->wz[i]}, &g),
          "cs_world_collide_and_slide");
    if (cs_mover_ground_state(s->movers[i]) == CS_GROUND_ON) s->vy[i] = 0;
  }
  t3 = now_cpu();
  ft->xf = t1 - t0;
  ft->tree = t2 - t1;
  ft->moves = t3 - t2;
}

/* }================================================================== */

/* {==================================================================
** 3. Queries
** ===================================================================*/

static int count_hit(void *ud, const cs_Hit *h) { (void)h; ++*(long *)ud; return 1; }
static int count_tri(void *ud, const cs_Body *b, unsigned t) { (void)b; (void)t; ++*(long *)ud; return 1; }
static int count_overlap(void *ud, const cs_Body *b, unsigned t, double d, cs_Vec3 n) {
  (void)b; (void)t; (void)d; (void)n; ++*(long *)ud; return 1;
}

enum { Q_RAYCAST, Q_RAYCAST_ALL, Q_SWEEP, Q_SWEEP_ORIENTED, Q_CLOSEST, Q_CLOSEST_FAR,
       Q_BOX, Q_OVERLAP, Q_N };
static const char *const QNAMES[Q_N] = {
  "raycast", "raycastAll", "sweepEllipsoid", "sweep (oriented)", "closestPoint (max 3)",
  "closestPoint (no max)", "queryBox", "overlapEllipsoid"
};
static const char *const QKEYS[Q_N] = {
  "raycast", "raycast_all", "sweep", "sweep_oriented", "closest", "closest_far", "box", "overlap"
};

/* Runs n queries of kind k at random places of the bodies' area; returns
** queries/s and the mean number of results in *per. */
static double bench_query(Scene *s, int k, int n, double *per) {
  double half = s->side * SPACING / 2, t0, t;
  long results = 0;
  int i;
  cs_Hit h;
  rng_state = 12345 + (uint64_t)k;
  t0 = now_cpu();
  for (i = 0; i < n; i++) {
    cs_Vec3 p = {rnd(-half, half), rnd(0.1, 2.5), rnd(-half, half)};
    double a = rnd(0, 2 * PI);
    cs_Vec3 d = {10 * cos(a), rnd(-1, 1), 10 * sin(a)};   /* 10 m, about level */
    switch (k) {
      case Q_RAYCAST: results += cs_world_raycast(s->world, &p, &d, ~0u, &h); break;
      case Q_RAYCAST_ALL: cs_world_raycast_all(s->world, &p, &d, ~0u, count_hit, &results); break;
      case Q_SWEEP: {
        cs_Vec3 d5 = {d.x / 2, d.y / 2, d.z / 2};
        results += cs_world_sweep_ellipsoid(s->world, &p, &(cs_Vec3){0.4, 0.9, 0.4}, NULL, &d5, ~0u, &h) == 1;
        break;
      }
      case Q_SWEEP_ORIENTED: {
        cs_Vec3 d5 = {d.x / 2, d.y / 2, d.z / 2};
        double q[4] = {0.3, 0.1, -0.2, 0.92};
        results += cs_world_sweep_ellipsoid(s->world, &p, &(cs_Vec3){0.4, 0.9, 0.4}, q, &d5, ~0u, &h) == 1;
        break;
      }
      case Q_CLOSEST: results += cs_world_closest_point(s->world, &p, 3.0, ~0u, &h); break;
      case Q_CLOSEST_FAR:
        p.y += 20;   /* 20 m up: the nearest body is not next to the point */
        results += cs_world_closest_point(s->world, &p, HUGE_VAL, ~0u, &h);
        break;
      case Q_BOX:
        cs_world_query_box(s->world, &(cs_Vec3){p.x - 1, p.y - 1, p.z - 1},
                           &(cs_Vec3){p.x + 1, p.y + 1, p.z + 1}, ~0u, count_tri, &results);
        break;
      case Q_OVERLAP:
        cs_world_overlap_ellipsoid(s->world, &p, &(cs_Vec3){1, 1, 1}, NULL, ~0u, count_overlap, &results);
        break;
    }
  }
  t = now_cpu() - t0;
  *per = (double)results / n;
  return n / t;
}

/* }================================================================== */

static int int_arg(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) die("missing value after", argv[*i]);
  return atoi(argv[++*i]);
}

int main(int argc, char **argv) {
  int nbodies = 10000, frames = 120, nmovers = 256, nqueries = 100000, instances = 1000, i, k;
  double mesh_bytes, body_bytes, qps[Q_N], per;
  size_t tris;
  FrameTimes sum = {0, 0, 0}, ft;
  cs_Alloc a = cs_default_alloc();
  Scene s;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--bodies") == 0) nbodies = int_arg(argc, argv, &i);
    else if (strcmp(argv[i], "--frames") == 0) frames = int_arg(argc, argv, &i);
    else if (strcmp(argv[i], "--movers") == 0) nmovers = int_arg(argc, argv, &i);
    else if (strcmp(argv[i], "--queries") == 0) nqueries = int_arg(argc, argv, &i);
    else die("unknown option", argv[i]);
  }
  if (nbodies < 1 || frames < 1 || nmovers < 0 || nqueries < 1) die("bad option value", NULL);

  bench_memory(instances, &mesh_bytes, &body_bytes, &tris);
  printf("bodies.c (collideslide %s)\n", CS_VERSION);
  printf("memory: a %zu-triangle mesh holds %.0f bytes; each of %d instances adds %.0f bytes\n",
         tris, mesh_bytes, instances, body_bytes);

  scene_init(&s, &a, nbodies, nmovers);
  for (i = 1; i <= WARMUP; i++) frame(&s, i, &ft);
  for (i = WARMUP + 1; i <= WARMUP + frames; i++) {
    frame(&s, i, &ft);
    sum.xf += ft.xf; sum.tree += ft.tree; sum.moves += ft.moves;
  }
  printf("frames: %d bodies (a shared %zu-triangle box) moved by setTransform every frame, "
         "%d movers walking; mean of %d frames (CPU time):\n",
         nbodies, cs_mesh_triangle_count(s.box), nmovers, frames);
  printf("  setTransform x %d      %8.3f ms/frame (%.0f ns per body)\n", nbodies,
         1e3 * sum.xf / frames, 1e9 * sum.xf / frames / nbodies);
  printf("  tree over bodies update %8.3f ms/frame\n", 1e3 * sum.tree / frames);
  printf("  collideAndSlide x %-5d %8.3f ms/frame (%.1f us per mover)\n", nmovers,
         1e3 * sum.moves / frames, nmovers ? 1e6 * sum.moves / frames / nmovers : 0.0);
  printf("  total                   %8.3f ms/frame\n", 1e3 * (sum.xf + sum.tree + sum.moves) / frames);
  {
    int fell = 0;
    for (i = 0; i < nmovers; i++) if (csv_mover_position(s.movers[i]).y < 0.85) fell++;
    printf("  movers below the floor: %d\n", fell);
  }
  printf("queries on the last frame's world, %d each (10 m rays, 5 m sweeps, 2 m boxes, r = 1 overlaps):\n", nqueries);
  for (k = 0; k < Q_N; k++) {
    /* an unbounded closestPoint visits every body's bounds: fewer of them */
    int n = k == Q_CLOSEST_FAR ? (nqueries + 19) / 20 : nqueries;
    qps[k] = bench_query(&s, k, n, &per);
    printf("  %-22s %12.0f queries/s   (%.2f results per query)\n", QNAMES[k], qps[k], per);
  }
  printf("RESULT bodies=%d movers=%d frames=%d xf_ms=%.4f tree_ms=%.4f moves_ms=%.4f "
         "mesh_bytes=%.0f body_bytes=%.0f", nbodies, nmovers, frames, 1e3 * sum.xf / frames,
         1e3 * sum.tree / frames, 1e3 * sum.moves / frames, mesh_bytes, body_bytes);
  for (k = 0; k < Q_N; k++) printf(" %s_qps=%.0f", QKEYS[k], qps[k]);
  printf("\n");
  scene_free(&s);
  return 0;
}
