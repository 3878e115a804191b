/*
** walkers.c: the standard "walkers" benchmark (../shared/bench/README.md) in C,
** through the public header only: loads an OBJ scene, builds the mesh, runs
** 1024 ellipsoids for 600 frames with collide and slide, and reports
** mover-steps per second, build time, memory and movers that fell through.
**
** usage: walkers SCENE.obj [--runs N] [--frames F] [--movers M] [--sweeps] [--added]
** (--added: every mover added to the world, solid to the others: issue 14)
**                          [--kind terrain|arena] [--sweep-rounds R] [--warmup W]
** --warmup W: frames 0..W-1 run untimed (and outside run_frames, for
** callgrind), frames W..F-1 are measured.
** The last lines of the output are machine-readable: "RESULT key=value ...".
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "collideslide.h"
#include "../spec/c/by_value.h"

#define WALK_SPEED 6.0          /* m/s (README: walk displacement) */
#define GRAVITY 9.81            /* m/s^2 */
#define SEGMENT_FRAMES 60       /* frames per walk direction */
#define ARENA_HALF 64.0         /* the arena's walls stand at |x|, |z| = 64 */
#define PI 3.14159265358979323846

/* {==================================================================
** Clocks and small helpers
** ===================================================================*/

static double now_wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Process CPU time: the clock Lua's os.clock() reads, so that the Lua/C ratio
** compares like with like. */
static double now_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Peak resident memory in kB: VmHWM of /proc/self/status. getrusage's
** ru_maxrss is the fallback only: Linux keeps it across exec, so under a
** driver (python3 bench/run.py) it reports the driver's own peak when that
** is larger (15 MB for terrain_33, where VmHWM says 4 MB). */
static long peak_rss_kb(void) {
  struct rusage ru;
  char line[256];
  long kb = -1;
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "VmHWM:", 6) == 0) { kb = strtol(line + 6, NULL, 10); break; }
    fclose(f);
  }
  if (kb >= 0) return kb;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;      /* kilobytes on Linux */
}

static void die(const char *what, const char *detail) {
  fprintf(stderr, "walkers: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(1);
}

static void check(cs_Status s, const char *what) {
  if (s != CS_OK) die(what, cs_status_string(s));
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* }================================================================== */

/* {==================================================================
** A small OBJ reader: "v x y z" and "f a b c ..." (fanned: a b c, a c d,
** ...), with i/t/n forms and negative indices; other lines are skipped.
** ===================================================================*/

typedef struct Obj {
  double *v; size_t nv, capv;        /* 3 numbers a vertex */
  unsigned *f; size_t nf, capf;      /* 3 indices a triangle, 0-based */
} Obj;

static void *grow(void *p, size_t *cap, size_t need, size_t esize) {
  size_t c = *cap ? *cap : 1024;
  while (c < need) c *= 2;
  if (c == *cap) return p;
  p = realloc(p, c * esize);
  if (!p) die("out of memory", NULL);
  *cap = c;
  return p;
}

static const double POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
  1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Parses a decimal number at *ps. Clinger's fast path: a mantissa below
** 2^53 scaled by an exact power of ten <= 1e22 is one correctly rounded
** operation, so the result equals strtod's; anything else goes to strtod. */
static double parse_number(const char **ps, int *ok) {
  const char *s = *ps, *start = *ps;
  uint64_t m = 0;
  int digits = 0, scale = 0, neg = 0, any = 0;
  if (*s == '-' || *s == '+') neg = (*s++ == '-');
  while (*s == '0') { s++; any = 1; }               /* leading zeros don't count */
  for (; *s >= '0' && *s <= '9'; s++, any = 1)
    if (digits < 19) { m = m * 10 + (uint64_t)(*s - '0'); digits++; } else scale++;
  if (*s == '.') {
    s++;
    if (digits == 0) while (*s == '0') { s++; scale--; any = 1; }
    for (; *s >= '0' && *s <= '9'; s++, any = 1)
      if (digits < 19) { m = m * 10 + (uint64_t)(*s - '0'); digits++; scale--; }
  }
  if (!any) { *ok = 0; return 0; }
  if (*s == 'e' || *s == 'E' || m >= ((uint64_t)1 << 53) || scale < -22 || scale > 22) {
    char *end;
    double x = strtod(start, &end);                  /* the rare slow path */
    *ok = end != start && isfinite(x);
    *ps = end;
    return x;
  }
  *ps = s;
  *ok = 1;
  {
    double x = (double)m;
    x = scale < 0 ? x / POW10[-scale] : x * POW10[scale];
    return neg ? -x : x;
  }
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Reads path into o. Dies with the file and line on a malformed line. */
static void obj_load(const char *path, Obj *o) {
  FILE *fp = fopen(path, "rb");
  char *text, *end;
  const char *s;
  long size;
  size_t line = 0;
  char msg[256];
  if (!fp) die(path, strerror(errno));
  if (fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0)
    die(path, "cannot seek");
  text = malloc((size_t)size + 1);
  if (!text) die("out of memory", NULL);
  if (fread(text, 1, (size_t)size, fp) != (size_t)size) die(path, "short read");
  fclose(fp);
  text[size] = '\0';
  end = text + size;
  memset(o, 0, sizeof *o);
  for (s = text; s < end; ) {
    line++;
    while (is_blank(*s)) s++;
    if (s[0] == 'v' && (s[1] == ' ' || s[1] == '\t')) {
      int k, ok;
      s += 2;
      o->v = grow(o->v, &o->capv, o->nv * 3 + 3, sizeof(double));
      for (k = 0; k < 3; k++) {
        while (is_blank(*s)) s++;
        o->v[o->nv * 3 + k] = parse_number(&s, &ok);
        if (!ok) { snprintf(msg, sizeof msg, "line %zu: bad vertex", line); die(path, msg); }
      }
      o->nv++;
    } else if (s[0] == 'f' && (s[1] == ' ' || s[1] == '\t')) {
      long idx[3];
      int n = 0;
      s += 2;
      for (;;) {
        long i;
        int neg = 0;
        while (is_blank(*s)) s++;
        if (*s == '\n' || *s == '\0') break;
        if (*s == '-') { neg = 1; s++; }
        if (*s < '0' || *s > '9') {
          snprintf(msg, sizeof msg, "line %zu: bad face", line); die(path, msg);
        }
        for (i = 0; *s >= '0' && *s <= '9'; s++) i = i * 10 + (*s - '0');
        while (*s && !is_blank(*s) && *s != '\n') s++;       /* /t/n */
        i = neg ? (long)o->nv - i : i - 1;                    /* 0-based */
        if (i < 0 || i >= (long)o->nv) {
          snprintf(msg, sizeof msg, "line %zu: face index out of range", line); die(path, msg);
        }
        if (n < 2) { idx[n++] = i; continue; }
        idx[2] = i;                                           /* fan: first, prev, cur */
        o->f = grow(o->f, &o->capf, o->nf * 3 + 3, sizeof(unsigned));
        o->f[o->nf * 3 + 0] = (unsigned)idx[0];
        o->f[o->nf * 3 + 1] = (unsigned)idx[1];
        o->f[o->nf * 3 + 2] = (unsigned)idx[2];
        o->nf++;
        idx[1] = idx[2];
      }
    }
    while (s < end && *s != '\n') s++;                        /* anything else: skipped */
    s++;
  }
  free(text);
}

static void obj_free(Obj *o) {
  free(o->v);
  free(o->f);
  memset(o, 0, sizeof *o);
}

/* }================================================================== */

/* {==================================================================
** The workload
** ===================================================================*/

enum { KIND_TERRAIN, KIND_ARENA };

typedef struct Scene {
  cs_World *world;
  cs_Mesh *mesh;
  int kind;
  cs_Vec3 lo, hi;               /* the mesh's bounds */
} Scene;

typedef struct Walkers {
  int n;
  cs_Mover **m;
  cs_Vec3 *spawn;
  double *vy;                   /* vertical speed, m/s */
  double *wx, *wz;              /* this segment's walk displacement */
} Walkers;

/* The mesh's own surface height under (x, z): the first triangle a ray
** straight down from above the whole mesh meets. Returns 0 when it misses. */
static int surface_height(const Scene *sc, double x, double z, double *y) {
  cs_Hit hit;
  double top = sc->hi.y + 10.0, len = sc->hi.y - sc->lo.y + 20.0;
  /* mask 1: the level (added movers are on layer 2, see --added) */
  if (cs_world_raycast(sc->world, &(cs_Vec3){x, top, z}, &(cs_Vec3){0, -len, 0}, 1u, &hit) != 1)
    return 0;
  *y = hit.point.y;
  return 1;
}

/* The README's spawn point of mover i. */
static cs_Vec3 spawn_point(const Scene *sc, int i) {
  cs_Vec3 p;
  if (sc->kind == KIND_ARENA) {
    p.x = -54.0 + 3.5 * (i % 32);
    p.z = -54.0 + 3.5 * (i / 32);
    p.y = 7.0;
  } else {
    double s;
    p.x = -186.0 + 12.0 * (i % 32);
    p.z = -186.0 + 12.0 * (i / 32);
    if (!surface_height(sc, p.x, p.z, &s)) die("no surface under a spawn point", NULL);
    p.y = s + 1.5;
  }
  return p;
}

/* h = ((i * 73856093) XOR (k * 19349663)) AND 0xFFFFFFFF, in unsigned 32-bit
** arithmetic (the low 32 bits of each product are all the AND keeps). */
static uint32_t walk_hash(uint32_t i, uint32_t k) {
  return (i * 73856093u) ^ (k * 19349663u);
}

/* Walk displacement of mover i in segment k; the same expression order as
** walkers.lua, so that both compute the same doubles. */
static void walk_dir(int i, int k, double dt, double *wx, double *wz) {
  double angle = (double)walk_hash((uint32_t)i, (uint32_t)k) / 4294967296.0 * (2.0 * PI);
  *wx = WALK_SPEED * dt * cos(angle);
  *wz = WALK_SPEED * dt * sin(angle);
}

static void walkers_init(Walkers *w, const Scene *sc, int n) {
  const cs_Alloc a = cs_default_alloc();
  int i;
  w->n = n;
  w->m = calloc((size_t)n, sizeof *w->m);
  w->spawn = calloc((size_t)n, sizeof *w->spawn);
  w->vy = calloc((size_t)n, sizeof *w->vy);
  w->wx = calloc((size_t)n, sizeof *w->wx);
  w->wz = calloc((size_t)n, sizeof *w->wz);
  if (!w->m || !w->spawn || !w->vy || !w->wx || !w->wz) die("out of memory", NULL);
  for (i = 0; i < n; i++) {
    check(cs_mover_new(&a, &w->m[i]), "cs_mover_new");
    cs_mover_set_radius(w->m[i], &(cs_Vec3){0.4, 0.9, 0.4});
    w->spawn[i] = spawn_point(sc, i);
  }
}

/* Back to the start: spawn positions, vy = 0. */
static void walkers_reset(Walkers *w) {
  int i;
  for (i = 0; i < w->n; i++) {
    cs_mover_set_position(w->m[i], &w->spawn[i]);
    w->vy[i] = 0.0;
  }
}

static void walkers_free(Walkers *w) {
  int i;
  for (i = 0; i < w->n; i++) cs_mover_free(w->m[i]);
  free(w->m); free(w->spawn); free(w->vy); free(w->wx); free(w->wz);
}

/* Runs frames [f0, f1): every mover, one collideAndSlide each. */
__attribute__((noinline)) static void step_frames(cs_World *world, Walkers *w, int f0, int f1,
                                                  double dt) {
  int f, i;
  for (f = f0; f < f1; f++) {
    if (f % SEGMENT_FRAMES == 0 || f == f0)
      for (i = 0; i < w->n; i++) walk_dir(i, f / SEGMENT_FRAMES, dt, &w->wx[i], &w->wz[i]);
    for (i = 0; i < w->n; i++) {
      cs_Vec3 g;
      cs_Status s;
      w->vy[i] = w->vy[i] - GRAVITY * dt;
      g = (cs_Vec3){0, w->vy[i] * dt, 0};
      s = cs_world_collide_and_slide(world, w->m[i], &(cs_Vec3){w->wx[i], 0, w->wz[i]}, &g);
      if (s != CS_OK) die("cs_world_collide_and_slide", cs_status_string(s));
      if (cs_mover_ground_state(w->m[i]) == CS_GROUND_ON) w->vy[i] = 0.0;
    }
  }
}

/* The measured frames; returns the number of mover-steps. Not static and
** not inlined, so that callgrind can collect just them
** (--toggle-collect=run_frames); the warm-up frames call step_frames
** directly. The count is computed after the call so that it stays a call,
** not a jump (callgrind then counted the warm-up too). */
__attribute__((noinline)) long run_frames(cs_World *world, Walkers *w, int f0, int f1, double dt);
__attribute__((noinline)) long run_frames(cs_World *world, Walkers *w, int f0, int f1, double dt) {
  step_frames(world, w, f0, f1, dt);
  return (long)w->n * (f1 - f0);
}

/* Movers that ended inside or below the geometry (README): terrain, centre
** below the surface under it (by a ray from far above, so a mover sunk under
** the surface is seen); arena, y < 0 or outside the walls. */
static int fell_through(const Scene *sc, const Walkers *w) {
  int i, fell = 0;
  for (i = 0; i < w->n; i++) {
    cs_Vec3 p = csv_mover_position(w->m[i]);
    if (sc->kind == KIND_ARENA) {
      if (p.y < 0 || fabs(p.x) > ARENA_HALF || fabs(p.z) > ARENA_HALF) fell++;
    } else {
      double s;
      if (!surface_height(sc, p.x, p.z, &s) || p.y < s) fell++;   /* off the map counts */
    }
  }
  return fell;
}

/* }================================================================== */

/* {==================================================================
** The single-sweep benchmark: a 0.5 sphere at each walker's start swept
** down to the ground (2 m on terrain, from 1.5 m above it; 8 m in the arena,
** from y = 7) and 1 m sideways along its first walk direction, alternately.
** ===================================================================*/

static void bench_sweeps(const Scene *sc, const Walkers *w, int rounds, int runs,
                         double *median, double *lo, double *hi, double *hit_fraction) {
  const cs_Alloc a = cs_default_alloc();
  cs_Mover *m;
  cs_Vec3 *dirs = malloc(2 * (size_t)w->n * sizeof *dirs);
  double *rates = malloc((size_t)runs * sizeof *rates);
  long hits = 0, total = 0;
  int run, r, i, j;
  if (!dirs || !rates) die("out of memory", NULL);
  check(cs_mover_new(&a, &m), "cs_mover_new");             /* radius 0.5 by default */
  for (i = 0; i < w->n; i++) {
    double wx, wz;
    walk_dir(i, 0, 1.0 / WALK_SPEED, &wx, &wz);            /* unit length */
    dirs[2 * i] = (cs_Vec3){0, sc->kind == KIND_ARENA ? -8.0 : -2.0, 0};
    dirs[2 * i + 1] = (cs_Vec3){wx, 0, wz};
  }
  for (run = 0; run < runs; run++) {
    double t0 = now_cpu(), t;
    hits = total = 0;
    for (r = 0; r < rounds; r++)
      for (i = 0; i < w->n; i++) {
        cs_mover_set_position(m, &w->spawn[i]);
        for (j = 0; j < 2; j++) {
          cs_Hit hit;
          int k = cs_world_sweep(sc->world, m, &dirs[2 * i + j], &hit);
          if (k < 0) die("cs_world_sweep", cs_status_string((cs_Status)-k));
          hits += k;
          total++;
        }
      }
    t = now_cpu() - t0;
    rates[run] = (double)total / t;
  }
  qsort(rates, (size_t)runs, sizeof *rates, cmp_double);
  *median = rates[runs / 2];
  *lo = rates[0];
  *hi = rates[runs - 1];
  *hit_fraction = (double)hits / (double)total;
  cs_mover_free(m);
  free(dirs);
  free(rates);
}

/* }================================================================== */

#ifndef WALKERS_NO_MAIN   /* bench/peers/peer_ours.c reuses the above without main */

static void usage(void) {
  fprintf(stderr, "usage: walkers SCENE.obj [--runs N] [--frames F] [--movers M] [--sweeps] [--added]\n"
                  "                         [--kind terrain|arena] [--sweep-rounds R]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *path = NULL, *base;
  int runs = 5, frames = 600, movers = 1024, sweeps = 0, sweep_rounds = 200, kind = -1;
  int warmup = 0, added = 0;
  int i, run, fell = 0;
  double dt = 1.0 / 60.0;
  double t0, t_parse, t_build, *rates, *walls, sum = 0;
  Obj o;
  Scene sc;
  Walkers w;
  cs_MeshDesc desc;
  cs_Body *body;
  size_t bad = 0;
  const cs_Alloc a = cs_default_alloc();

  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--movers") && i + 1 < argc) movers = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--sweep-rounds") && i + 1 < argc) sweep_rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--sweeps")) sweeps = 1;
    else if (!strcmp(argv[i], "--added")) added = 1;
    else if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
      i++;
      if (!strcmp(argv[i], "terrain")) kind = KIND_TERRAIN;
      else if (!strcmp(argv[i], "arena")) kind = KIND_ARENA;
      else usage();
    } else if (argv[i][0] != '-' && !path) path = argv[i];
    else usage();
  }
  if (!path || runs < 1 || warmup < 0 || frames <= warmup || movers < 1 || movers > 1024 || sweep_rounds < 1) usage();
  base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (kind < 0) kind = strncmp(base, "arena", 5) == 0 ? KIND_ARENA : KIND_TERRAIN;

  /* Load (read + parse) and build, timed apart. */
  t0 = now_wall();
  obj_load(path, &o);
  t_parse = now_wall() - t0;
  memset(&desc, 0, sizeof desc);
  desc.vertices = o.v;
  desc.vertex_count = o.nv;
  desc.indices = o.f;
  desc.triangle_count = o.nf;
  desc.backfaces = CS_BACKFACES_COLLIDE;
  t0 = now_wall();
  {
    cs_Status s = cs_mesh_new(&a, &desc, &sc.mesh, &bad);
    if (s != CS_OK) die("cs_mesh_new", cs_status_string(s));
  }
  t_build = now_wall() - t0;
  obj_free(&o);
  check(cs_world_new(&a, &sc.world), "cs_world_new");
  check(cs_world_add(sc.world, sc.mesh, &body), "cs_world_add");
  cs_mesh_bounds(sc.mesh, &sc.lo, &sc.hi);
  sc.kind = kind;

  walkers_init(&w, &sc, movers);
  if (added)                      /* on layer 2, so the level's rays (mask 1) miss them */
    for (i = 0; i < movers; i++) {
      check(cs_mover_set(w.m[i], CS_LAYERS, 2), "cs_mover_set");
      check(cs_world_add_mover(sc.world, w.m[i]), "cs_world_add_mover");
    }
  rates = malloc((size_t)runs * sizeof *rates);
  walls = malloc((size_t)runs * sizeof *walls);
  if (!rates || !walls) die("out of memory", NULL);
  for (run = 0; run < runs; run++) {
    double c0, w0, steps;
    walkers_reset(&w);
    step_frames(sc.world, &w, 0, warmup, dt);
    c0 = now_cpu();
    w0 = now_wall();
    steps = (double)run_frames(sc.world, &w, warmup, frames, dt);
    walls[run] = steps / (now_wall() - w0);
    rates[run] = steps / (now_cpu() - c0);
    fell = fell_through(&sc, &w);               /* every run is the same; the last one counts */
    if (fell) fprintf(stderr, "walkers: run %d: %d movers fell through\n", run + 1, fell);
  }
  /* A checksum of the end positions: walkers.lua must print the same. */
  for (i = 0; i < movers; i++) {
    cs_Vec3 p = csv_mover_position(w.m[i]);
    sum += p.x + p.y + p.z;
  }
  qsort(rates, (size_t)runs, sizeof *rates, cmp_double);
  qsort(walls, (size_t)runs, sizeof *walls, cmp_double);

  printf("scene %s: %zu triangles (%zu degenerate), %zu vertices\n", base,
         cs_mesh_triangle_count(sc.mesh), cs_mesh_degenerate_count(sc.mesh),
         cs_mesh_vertex_count(sc.mesh));
  printf("  load (read+parse) %.3f s, build %.3f s, mesh %.1f bytes/triangle, peak RSS %.1f MB\n",
         t_parse, t_build, (double)cs_mesh_memory(sc.mesh) / (double)cs_mesh_triangle_count(sc.mesh),
         peak_rss_kb() / 1024.0);
  if (warmup) printf("  (frames 0..%d not measured)\n", warmup - 1);
  printf("  walkers %d x %d frames, %d runs: %.0f mover-steps/s (median; min %.0f, max %.0f; "
         "wall-clock median %.0f)\n", movers, frames, runs, rates[runs / 2], rates[0],
         rates[runs - 1], walls[runs / 2]);
  printf("  fell through: %d; checksum %.17g\n", fell, sum);
  printf("RESULT impl=c scene=%s triangles=%zu movers=%d frames=%d warmup=%d runs=%d steps_per_s=%.0f "
         "min=%.0f max=%.0f wall_steps_per_s=%.0f load_s=%.4f build_s=%.4f mesh_bytes=%zu "
         "bytes_per_tri=%.2f peak_rss_kb=%ld fell=%d checksum=%.17g\n",
         base, cs_mesh_triangle_count(sc.mesh), movers, frames, warmup, runs, rates[runs / 2], rates[0],
         rates[runs - 1], walls[runs / 2], t_parse, t_build, cs_mesh_memory(sc.mesh),
         (double)cs_mesh_memory(sc.mesh) / (double)cs_mesh_triangle_count(sc.mesh),
         peak_rss_kb(), fell, sum);
  if (sweeps) {
    double med, mn, mx, hf;
    bench_sweeps(&sc, &w, sweep_rounds, runs, &med, &mn, &mx, &hf);
    printf("  sweeps: %.0f sweeps/s (median; min %.0f, max %.0f), %.0f%% hit\n",
           med, mn, mx, 100 * hf);
    printf("RESULT impl=c-sweep scene=%s sweeps_per_s=%.0f min=%.0f max=%.0f hit_fraction=%.3f\n",
           base, med, mn, mx, hf);
  }
  walkers_free(&w);
  free(rates);
  free(walls);
  cs_world_free(sc.world);
  cs_mesh_free(sc.mesh);
  return fell ? 3 : 0;
}

#endif
