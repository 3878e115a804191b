/*
** stress.c: the long-run invariants of collide-and-slide, through the public
** C API only. Random worlds (sealed rooms, stairs, creases, spikes of thin
** triangles, tessellated bumpy floors, the bench arena and terrain when
** their OBJ files are there), hundreds of movers with radii 0.05 to 5 and
** axis ratios up to 1:10, random steps (ordinary, huge: 100x the radius,
** tiny: 1e-9, zero, axis-aligned) with random gravity. After every step:
**   nan      no NaN or inf in the position, the contacts or the ground normal
**   status   the call returned CS_OK
**   overlap  the ellipsoid overlaps no triangle: its ellipsoid-space distance
**            to each (exact, long double, invariants.c) is >= 1 - 1e-9
**   escaped  a mover stays in its sealed room (and out of the others)
**   overreach  a call that did not start stuck moves the centre no farther
**            per axis than the gather's margin (cs_world.c), so it never
**            meets a triangle the gather left out
** Usage: stress [--steps N] [--seed S] [--offset X] [--movers M]
**               [--per-mover K] [--huge P] [--scenes DIR] [--world W]
**               [--auto-skin] [--quiet]
** --huge P: the share of steps 100x the radius long (default 0.005; they
** gather whole worlds, so they set the run time).
** --offset translates the whole scene and every mover by (X, 0, X).
** --auto-skin gives every mover the default skin (otherwise a quarter get
** 0, 1e-9 r or a random one).
** --world W runs only world W (each world has its own generator, so a
** violation reproduces alone). Exits 1 on any violation.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collideslide.h"
#include "by_value.h"
#include "invariants.h"
#include "sweep_reference.h"

#define PI 3.14159265358979323846
#define MAX_PARTS 64
#define MAX_ROOMS 16

/* {==================================================================
** Options and helpers
** ===================================================================*/

typedef struct Opts {
  long long steps;
  unsigned long long seed;
  double offset;
  int movers, per_mover;
  double huge;            /* fraction of steps 100x the radius long */
  int auto_skin;          /* every mover keeps the default skin */
  const char *scenes;
  long world_only;
  int quiet;
} Opts;

/* Process CPU time: the machines this runs on are shared and noisy. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double urand(ref_Rng *r) { return ref_rng_uniform(r); }
static double rrange(ref_Rng *r, double lo, double hi) { return ref_rng_range(r, lo, hi); }
static double logrand(ref_Rng *r, double lo, double hi) { return exp(rrange(r, log(lo), log(hi))); }
static int irand(ref_Rng *r, int n) { int k = (int)(urand(r) * n); return k < n ? k : n - 1; }

static void rand_unit(ref_Rng *r, double u[3]) {
  double l2;
  do {
    u[0] = rrange(r, -1, 1); u[1] = rrange(r, -1, 1); u[2] = rrange(r, -1, 1);
    l2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  } while (l2 < 1e-4 || l2 > 1);
  l2 = sqrt(l2);
  u[0] /= l2; u[1] /= l2; u[2] /= l2;
}

static void rand_quat(ref_Rng *r, double q[4]) {
  double l;
  do {
    q[0] = rrange(r, -1, 1); q[1] = rrange(r, -1, 1); q[2] = rrange(r, -1, 1); q[3] = rrange(r, -1, 1);
    l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  } while (l < 0.1 || l > 1);
  q[0] /= l; q[1] /= l; q[2] /= l; q[3] /= l;
}

/* Row-major rotation of a unit quaternion. */
static void quat_matrix(const double q[4], double R[3][3]) {
  double x = q[0], y = q[1], z = q[2], w = q[3];
  R[0][0] = 1 - 2 * (y * y + z * z); R[0][1] = 2 * (x * y - z * w); R[0][2] = 2 * (x * z + y * w);
  R[1][0] = 2 * (x * y + z * w); R[1][1] = 1 - 2 * (x * x + z * z); R[1][2] = 2 * (y * z - x * w);
  R[2][0] = 2 * (x * z - y * w); R[2][1] = 2 * (y * z + x * w); R[2][2] = 1 - 2 * (x * x + y * y);
}

static cs_Vec3 vec(double x, double y, double z) { cs_Vec3 v; v.x = x; v.y = y; v.z = z; return v; }
static double vlen(cs_Vec3 v) { return sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
static int finite3(cs_Vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* }================================================================== */

/* {==================================================================
** Geometry builder (local coordinates; the scene offset comes later)
** ===================================================================*/

typedef struct Geo {
  double *v;
  size_t nv, capv;
  unsigned *idx;
  size_t nt, capt;
} Geo;

static void die(const char *msg) {
  fprintf(stderr, "stress: %s\n", msg);
  exit(2);
}

static unsigned geo_vert(Geo *g, double x, double y, double z) {
  if (g->nv == g->capv) {
    g->capv = g->capv ? 2 * g->capv : 256;
    g->v = realloc(g->v, g->capv * 3 * sizeof(double));
    if (!g->v) die("out of memory");
  }
  g->v[3 * g->nv] = x; g->v[3 * g->nv + 1] = y; g->v[3 * g->nv + 2] = z;
  return (unsigned)g->nv++;
}

static void geo_tri(Geo *g, unsigned a, unsigned b, unsigned c) {
  if (g->nt == g->capt) {
    g->capt = g->capt ? 2 * g->capt : 256;
    g->idx = realloc(g->idx, g->capt * 3 * sizeof(unsigned));
    if (!g->idx) die("out of memory");
  }
  g->idx[3 * g->nt] = a; g->idx[3 * g->nt + 1] = b; g->idx[3 * g->nt + 2] = c;
  g->nt++;
}

static void geo_free(Geo *g) { free(g->v); free(g->idx); memset(g, 0, sizeof *g); }

/* A frame: x_world = o + R x_local (R row-major). */
typedef struct Frame { double o[3], R[3][3]; } Frame;

static void frame_identity(Frame *f, double x, double y, double z) {
  int i, j;
  f->o[0] = x; f->o[1] = y; f->o[2] = z;
  for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) f->R[i][j] = i == j;
}

static void frame_yaw(Frame *f, double x, double y, double z, double yaw) {
  frame_identity(f, x, y, z);
  f->R[0][0] = cos(yaw); f->R[0][2] = sin(yaw);
  f->R[2][0] = -sin(yaw); f->R[2][2] = cos(yaw);
}

static void frame_apply(const Frame *f, const double p[3], double out[3]) {
  int i;
  for (i = 0; i < 3; i++) out[i] = f->o[i] + f->R[i][0] * p[0] + f->R[i][1] * p[1] + f->R[i][2] * p[2];
}

static unsigned geo_fvert(Geo *g, const Frame *f, double x, double y, double z) {
  double p[3], w[3];
  p[0] = x; p[1] = y; p[2] = z;
  frame_apply(f, p, w);
  return geo_vert(g, w[0], w[1], w[2]);
}

/* Quad p0 p1 p2 p3, counter-clockwise seen from the front, split n x n
** (as make_scenes.py does). */
static void geo_quad(Geo *g, const Frame *f, const double p0[3], const double p1[3],
                     const double p2[3], const double p3[3], int n) {
  unsigned base = (unsigned)g->nv;
  int i, j, k;
  for (j = 0; j <= n; j++)
    for (i = 0; i <= n; i++) {
      double u = (double)i / n, v = (double)j / n, a[3], b[3], p[3];
      for (k = 0; k < 3; k++) {
        a[k] = p0[k] + (p1[k] - p0[k]) * u;
        b[k] = p3[k] + (p2[k] - p3[k]) * u;
        p[k] = a[k] + (b[k] - a[k]) * v;
      }
      geo_fvert(g, f, p[0], p[1], p[2]);
    }
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) {
      unsigned a = base + (unsigned)(j * (n + 1) + i), b = a + 1, c = a + (unsigned)n + 1, d = c + 1;
      geo_tri(g, a, b, d);
      geo_tri(g, a, d, c);
    }
}

/* A box [lo, hi] in frame f; inward: normals point in (a room), else out. */
static void geo_box(Geo *g, const Frame *f, const double lo[3], const double hi[3], int n, int inward) {
  double x0 = lo[0], y0 = lo[1], z0 = lo[2], x1 = hi[0], y1 = hi[1], z1 = hi[2];
  double P[8][3];
  static const int faces[6][4] = {
    {2, 6, 7, 3},   /* top: (x0,y1,z0) (x0,y1,z1) (x1,y1,z1) (x1,y1,z0) */
    {0, 1, 5, 4},   /* bottom */
    {4, 5, 7, 6},   /* +z */
    {1, 0, 2, 3},   /* -z */
    {5, 1, 3, 7},   /* +x */
    {0, 4, 6, 2}    /* -x */
  };
  int i, k;
  for (i = 0; i < 8; i++) {
    P[i][0] = i & 1 ? x1 : x0;
    P[i][1] = i & 2 ? y1 : y0;
    P[i][2] = i & 4 ? z1 : z0;
  }
  for (k = 0; k < 6; k++) {
    const int *q = faces[k];
    if (inward) geo_quad(g, f, P[q[3]], P[q[2]], P[q[1]], P[q[0]], n);
    else geo_quad(g, f, P[q[0]], P[q[1]], P[q[2]], P[q[3]], n);
  }
}

/* }================================================================== */

/* {==================================================================
** Scenes: meshes placed in a world, the same triangles in the checker's
** soup, and the sealed rooms
** ===================================================================*/

/* A sealed room: a box in a frame (centre test in the frame's coordinates);
** olo, ohi: its outer box (the walls' thickness included). */
typedef struct Room { Frame f; double lo[3], hi[3], olo[3], ohi[3]; } Room;

typedef struct Scene {
  cs_Alloc alloc;
  cs_World *w;
  cs_Mesh *meshes[MAX_PARTS];
  int nmeshes;
  inv_Soup soup;
  Room rooms[MAX_ROOMS];  /* rooms[0] is the hall around everything */
  int nrooms;
  double offset;
  long tris;
} Scene;

/* Adds g as a mesh and a body or two (instances). The offset is either
** baked into the vertices or the body's translation, at random. */
static void scene_add(Scene *sc, ref_Rng *rng, const Geo *g, int backfaces) {
  cs_MeshDesc d;
  cs_Mesh *mesh;
  cs_Body *body;
  double *verts, T[3];
  int bake = urand(rng) < 0.5;
  size_t i, t;
  if (g->nt == 0) return;
  if (sc->nmeshes == MAX_PARTS) die("too many parts");
  verts = malloc(g->nv * 3 * sizeof(double));
  if (!verts) die("out of memory");
  for (i = 0; i < g->nv; i++) {
    verts[3 * i] = g->v[3 * i] + (bake ? sc->offset : 0);
    verts[3 * i + 1] = g->v[3 * i + 1];
    verts[3 * i + 2] = g->v[3 * i + 2] + (bake ? sc->offset : 0);
  }
  memset(&d, 0, sizeof d);
  d.vertices = verts;
  d.vertex_count = g->nv;
  d.indices = g->idx;
  d.triangle_count = g->nt;
  d.backfaces = backfaces;
  if (cs_mesh_new(&sc->alloc, &d, &mesh, NULL) != CS_OK) die("cs_mesh_new failed");
  sc->meshes[sc->nmeshes++] = mesh;
  if (cs_world_add(sc->w, mesh, &body) != CS_OK) die("cs_world_add failed");
  T[0] = bake ? 0 : sc->offset; T[1] = 0; T[2] = bake ? 0 : sc->offset;
  if (!bake) {
    double q[4] = {0, 0, 0, 1};
    cs_body_set_transform(body, (cs_Vec3[1]){vec(T[0], T[1], T[2])}, q, (cs_Vec3[1]){vec(1, 1, 1)});
  }
  /* the checker's copy: world vertex = mesh vertex + T, as the body places it */
  for (t = 0; t < g->nt; t++) {
    double p[3][3];
    int k, j;
    for (k = 0; k < 3; k++)
      for (j = 0; j < 3; j++) p[k][j] = verts[3 * g->idx[3 * t + k] + j] + T[j];
    if (!inv_soup_add(&sc->soup, p[0], p[1], p[2],
                      inv_triangle_degenerate(verts + 3 * g->idx[3 * t], verts + 3 * g->idx[3 * t + 1],
                                              verts + 3 * g->idx[3 * t + 2])))
      die("out of memory");
  }
  sc->tris += (long)g->nt;
  free(verts);
}

static void add_room(Scene *sc, const Frame *f, const double lo[3], const double hi[3]) {
  Room *r;
  if (sc->nrooms == MAX_ROOMS) die("too many rooms");
  r = &sc->rooms[sc->nrooms++];
  r->f = *f;
  memcpy(r->lo, lo, sizeof r->lo);
  memcpy(r->hi, hi, sizeof r->hi);
  memcpy(r->olo, lo, sizeof r->olo);
  memcpy(r->ohi, hi, sizeof r->ohi);
}

/* Is the (world, offset included) point p strictly inside room r (outer:
** its outer box)? */
static int in_box(const Scene *sc, const Room *r, cs_Vec3 p, int outer) {
  double d[3], l[3];
  const double *lo = outer ? r->olo : r->lo, *hi = outer ? r->ohi : r->hi;
  int i;
  d[0] = p.x - sc->offset - r->f.o[0];
  d[1] = p.y - r->f.o[1];
  d[2] = p.z - sc->offset - r->f.o[2];
  for (i = 0; i < 3; i++) {
    l[i] = r->f.R[0][i] * d[0] + r->f.R[1][i] * d[1] + r->f.R[2][i] * d[2];
    if (!(l[i] > lo[i] && l[i] < hi[i])) return 0;
  }
  return 1;
}

static int in_room(const Scene *sc, const Room *r, cs_Vec3 p) { return in_box(sc, r, p, 0); }

/* }================================================================== */

/* {==================================================================
** World generators
** ===================================================================*/

enum { W_ROOMS, W_STAIRS, W_CREASES, W_SPIKES, W_BUMPY, W_MIXED, W_OBJ, W_KINDS };
static const char *const world_names[W_KINDS] = {
  "rooms", "stairs", "creases", "spikes", "bumpy", "mixed", "bench-obj"
};

/* The hall: a sealed box around everything, facing in, tessellated. */
static void gen_hall(Scene *sc, ref_Rng *rng, double half, double y0, double y1) {
  Geo g = {0};
  Frame f;
  double lo[3], hi[3];
  lo[0] = -half; lo[1] = y0; lo[2] = -half;
  hi[0] = half; hi[1] = y1; hi[2] = half;
  frame_identity(&f, 0, 0, 0);
  geo_box(&g, &f, lo, hi, 1 + irand(rng, 6), 1);
  /* inward normals: a one-sided hall is solid from inside */
  scene_add(sc, rng, &g, urand(rng) < 0.5 ? CS_BACKFACES_IGNORE : CS_BACKFACES_COLLIDE);
  add_room(sc, &f, lo, hi);
  geo_free(&g);
}

static void rand_spot(ref_Rng *rng, double half, double p[3], double ylo, double yhi) {
  p[0] = rrange(rng, -half * 0.8, half * 0.8);
  p[1] = rrange(rng, ylo, yhi);
  p[2] = rrange(rng, -half * 0.8, half * 0.8);
}

/* Small sealed rooms, some tilted, some tessellated, some one-sided, all
** inside the hall (half size half, from hall_y0 to hall_y1). */
static void gen_rooms(Scene *sc, ref_Rng *rng, double half, double hall_y0, double hall_y1,
                      int count) {
  int k;
  for (k = 0; k < count && sc->nrooms < MAX_ROOMS; k++) {
    Geo g = {0};
    Frame f;
    double lo[3], hi[3], p[3], room_max;
    int i;
    rand_spot(rng, half * 0.7, p, -5, 10);
    if (urand(rng) < 0.5) {
      frame_yaw(&f, p[0], p[1], p[2], rrange(rng, 0, 2 * PI));
    } else {                      /* any rotation */
      double q[4];
      rand_quat(rng, q);
      frame_identity(&f, p[0], p[1], p[2]);
      quat_matrix(q, f.R);
    }
    /* The room (and its outer shell, up to 0.5 thicker) stays inside the
    ** hall, whose one-sided walls must never be met from behind: any
    ** rotation of a box of half size h reaches sqrt(3) h. */
    room_max = fmin(fmin(half - fabs(p[0]), half - fabs(p[2])), fmin(p[1] - hall_y0, hall_y1 - p[1]));
    room_max = fmin(8, room_max / sqrt(3.0) - 0.5);
    if (room_max < 0.7) continue;
    for (i = 0; i < 3; i++) {
      double h = logrand(rng, 0.6, room_max);
      lo[i] = -h;
      hi[i] = h;
    }
    geo_box(&g, &f, lo, hi, 1 + irand(rng, 4), 1);
    if (urand(rng) < 0.4) {
      /* one-sided walls are solid from their front only: an inner box facing
      ** in and an outer one facing out, a wall's thickness apart, so no
      ** mover ever meets a back face */
      Geo outer = {0};
      double th = logrand(rng, 0.01, 0.5), olo[3], ohi[3];
      for (i = 0; i < 3; i++) { olo[i] = lo[i] - th; ohi[i] = hi[i] + th; }
      geo_box(&outer, &f, olo, ohi, 1 + irand(rng, 4), 0);
      scene_add(sc, rng, &g, CS_BACKFACES_IGNORE);
      scene_add(sc, rng, &outer, CS_BACKFACES_IGNORE);
      add_room(sc, &f, lo, hi);
      memcpy(sc->rooms[sc->nrooms - 1].olo, olo, sizeof olo);
      memcpy(sc->rooms[sc->nrooms - 1].ohi, ohi, sizeof ohi);
      geo_free(&outer);
    } else {
      scene_add(sc, rng, &g, CS_BACKFACES_COLLIDE);
      add_room(sc, &f, lo, hi);
    }
    geo_free(&g);
  }
}

/* Staircases: as solid boxes (as the arena builds them) or as one zigzag
** surface of treads and risers; any rise, run and direction. */
static void gen_stairs(Scene *sc, ref_Rng *rng, double half, int count) {
  int k, s;
  for (k = 0; k < count; k++) {
    Geo g = {0};
    Frame f;
    double p[3], rise = logrand(rng, 0.02, 1.0), run = logrand(rng, 0.05, 1.0);
    double width = rrange(rng, 1, 8);
    int n = 3 + irand(rng, 20), solid = urand(rng) < 0.5;
    rand_spot(rng, half * 0.6, p, -2, 2);
    frame_yaw(&f, p[0], p[1], p[2], urand(rng) < 0.5 ? irand(rng, 4) * PI / 2 : rrange(rng, 0, 2 * PI));
    for (s = 0; s < n; s++) {
      if (solid) {
        double lo[3], hi[3];
        lo[0] = 0; lo[1] = 0; lo[2] = s * run;
        hi[0] = width; hi[1] = rise * (s + 1); hi[2] = (s + 1) * run;
        geo_box(&g, &f, lo, hi, 1, 0);
      } else {
        /* riser facing -z, then tread facing +y */
        double a[3], b[3], c[3], d[3];
        a[0] = 0; a[1] = rise * s; a[2] = run * s;
        b[0] = 0; b[1] = rise * (s + 1); b[2] = run * s;
        c[0] = width; c[1] = rise * (s + 1); c[2] = run * s;
        d[0] = width; d[1] = rise * s; d[2] = run * s;
        geo_quad(&g, &f, a, b, c, d, 1);
        a[1] = b[1]; d[1] = c[1];
        b[2] = run * (s + 1); c[2] = run * (s + 1);
        geo_quad(&g, &f, a, b, c, d, 1);
      }
    }
    scene_add(sc, rng, &g, CS_BACKFACES_COLLIDE);
    geo_free(&g);
  }
}

/* V creases at any angle, inside corners of three planes, and narrow slots
** between parallel walls. */
static void gen_creases(Scene *sc, ref_Rng *rng, double half, int count) {
  int k;
  for (k = 0; k < count; k++) {
    Geo g = {0};
    Frame f;
    double p[3], L = rrange(rng, 2, 10), W = rrange(rng, 2, 10);
    int kind = irand(rng, 3), n = 1 + irand(rng, 4);
    rand_spot(rng, half * 0.6, p, -3, 5);
    if (urand(rng) < 0.7) frame_yaw(&f, p[0], p[1], p[2], rrange(rng, 0, 2 * PI));
    else { double q[4]; rand_quat(rng, q); frame_identity(&f, p[0], p[1], p[2]); quat_matrix(q, f.R); }
    if (kind == 0) {                /* V: two planes at an opening angle */
      double ang = rrange(rng, 0.05, PI - 0.05) / 2, dx = W * sin(ang), dy = W * cos(ang);
      double a[3] = {0, 0, 0}, b[3] = {0, 0, 0}, c[3] = {0, 0, 0}, d[3] = {0, 0, 0};
      /* left wall: from the crease line (x = 0, y = 0) up to (-dx, dy) */
      a[0] = 0; a[2] = 0; b[0] = 0; b[2] = L; c[0] = -dx; c[1] = dy; c[2] = L; d[0] = -dx; d[1] = dy;
      geo_quad(&g, &f, d, c, b, a, n);
      a[0] = 0; b[0] = dx; b[1] = dy; b[2] = 0; c[0] = dx; c[1] = dy; c[2] = L; d[0] = 0; d[1] = 0; d[2] = L;
      geo_quad(&g, &f, d, c, b, a, n);
    } else if (kind == 1) {         /* inside corner */
      double o[3] = {0, 0, 0}, x[3] = {0, 0, 0}, y[3] = {0, 0, 0}, z[3] = {0, 0, 0}, xy[3], yz[3], xz[3];
      x[0] = W; y[1] = W; z[2] = W;
      xy[0] = W; xy[1] = W; xy[2] = 0;
      yz[0] = 0; yz[1] = W; yz[2] = W;
      xz[0] = W; xz[1] = 0; xz[2] = W;
      geo_quad(&g, &f, o, z, xz, x, n);   /* floor, normal +y */
      geo_quad(&g, &f, o, x, xy, y, n);   /* wall z = 0, normal +z */
      geo_quad(&g, &f, o, y, yz, z, n);   /* wall x = 0, normal +x */
    } else {                        /* a slot: two walls gap apart */
      double gap = logrand(rng, 0.05, 3), a[3], b[3], c[3], d[3];
      int s;
      for (s = 0; s < 2; s++) {
        double x = s ? gap : 0;
        a[0] = x; a[1] = 0; a[2] = 0;
        b[0] = x; b[1] = W; b[2] = 0;
        c[0] = x; c[1] = W; c[2] = L;
        d[0] = x; d[1] = 0; d[2] = L;
        if (s) geo_quad(&g, &f, a, b, c, d, n);
        else geo_quad(&g, &f, d, c, b, a, n);
      }
    }
    scene_add(sc, rng, &g, CS_BACKFACES_COLLIDE);
    geo_free(&g);
  }
}

/* Spikes: fans of needles (thin triangles 1e-4 to 1e-2 wide) from a point,
** and grass (thin upright triangles) on the floor. */
static void gen_spikes(Scene *sc, ref_Rng *rng, double half, int count) {
  int k, s;
  for (k = 0; k < count; k++) {
    Geo g = {0};
    Frame f;
    double p[3];
    int n = 5 + irand(rng, 40), grass = urand(rng) < 0.3;
    rand_spot(rng, half * 0.7, p, -2, 6);
    frame_identity(&f, p[0], p[1], p[2]);
    for (s = 0; s < n; s++) {
      double dir[3], perp[3], tmp[3], len = rrange(rng, 0.3, 5), w = logrand(rng, 1e-4, 1e-2), l;
      double base[3] = {0, 0, 0};
      unsigned a, b, c;
      int i;
      if (grass) {
        base[0] = rrange(rng, -3, 3); base[2] = rrange(rng, -3, 3);
        dir[0] = rrange(rng, -0.3, 0.3); dir[1] = 1; dir[2] = rrange(rng, -0.3, 0.3);
        l = sqrt(dir[0] * dir[0] + 1 + dir[2] * dir[2]);
        for (i = 0; i < 3; i++) dir[i] /= l;
      } else {
        rand_unit(rng, dir);
      }
      rand_unit(rng, tmp);
      perp[0] = dir[1] * tmp[2] - dir[2] * tmp[1];
      perp[1] = dir[2] * tmp[0] - dir[0] * tmp[2];
      perp[2] = dir[0] * tmp[1] - dir[1] * tmp[0];
      l = sqrt(perp[0] * perp[0] + perp[1] * perp[1] + perp[2] * perp[2]);
      if (l < 1e-3) continue;
      for (i = 0; i < 3; i++) perp[i] /= l;
      a = geo_fvert(&g, &f, base[0] + perp[0] * w, base[1] + perp[1] * w, base[2] + perp[2] * w);
      b = geo_fvert(&g, &f, base[0] - perp[0] * w, base[1] - perp[1] * w, base[2] - perp[2] * w);
      c = geo_fvert(&g, &f, base[0] + dir[0] * len, base[1] + dir[1] * len, base[2] + dir[2] * len);
      geo_tri(&g, a, b, c);
    }
    scene_add(sc, rng, &g, CS_BACKFACES_COLLIDE);
    geo_free(&g);
  }
}

/* A tessellated bumpy floor: a heightfield of sines and noise, cells 0.05
** to 1, diagonals either way. */
static void gen_bumpy(Scene *sc, ref_Rng *rng, double half, int count) {
  int k;
  for (k = 0; k < count; k++) {
    Geo g = {0};
    double cell = logrand(rng, 0.05, 1.0), amp = logrand(rng, 0.01, 2), fr = logrand(rng, 0.2, 5);
    double noise = urand(rng) < 0.5 ? amp * rrange(rng, 0, 0.5) : 0, size, x0, z0, y0;
    int n, i, j, flip = irand(rng, 3);
    size = rrange(rng, 3, half);
    n = (int)(size / cell);
    if (n > 120) { n = 120; cell = size / n; }
    if (n < 2) n = 2;
    x0 = rrange(rng, -half * 0.9, half * 0.9 - n * cell);
    z0 = rrange(rng, -half * 0.9, half * 0.9 - n * cell);
    y0 = rrange(rng, -3, 1);
    for (j = 0; j <= n; j++)
      for (i = 0; i <= n; i++) {
        double x = x0 + i * cell, z = z0 + j * cell;
        double y = y0 + amp * sin(x * fr) * cos(z * fr * 0.7) + noise * rrange(rng, -1, 1);
        geo_vert(&g, x, y, z);
      }
    for (j = 0; j < n; j++)
      for (i = 0; i < n; i++) {
        unsigned a = (unsigned)(j * (n + 1) + i), b = a + 1, c = a + (unsigned)n + 1, d = c + 1;
        int diag = flip == 2 ? (i + j) & 1 : flip;
        if (diag) { geo_tri(&g, a, c, b); geo_tri(&g, b, c, d); }
        else { geo_tri(&g, a, c, d); geo_tri(&g, a, d, b); }
      }
    scene_add(sc, rng, &g, CS_BACKFACES_COLLIDE);   /* open: reachable from below */
    geo_free(&g);
  }
}

/* A Wavefront OBJ (v and f lines; polygons as fans; a/b/c forms). */
static int load_obj(const char *path, Geo *g) {
  FILE *fp = fopen(path, "r");
  char line[4096];
  if (!fp) return 0;
  while (fgets(line, sizeof line, fp)) {
    if (line[0] == 'v' && line[1] == ' ') {
      double x, y, z;
      if (sscanf(line + 2, "%lf %lf %lf", &x, &y, &z) == 3) geo_vert(g, x, y, z);
    } else if (line[0] == 'f' && line[1] == ' ') {
      long idx[64];
      int n = 0, i;
      char *p = line + 2, *end;
      while (n < 64) {
        long v = strtol(p, &end, 10);
        if (end == p) break;
        idx[n++] = v < 0 ? (long)g->nv + v : v - 1;
        p = end;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') p++;
      }
      for (i = 2; i < n; i++) geo_tri(g, (unsigned)idx[0], (unsigned)idx[i - 1], (unsigned)idx[i]);
    }
  }
  fclose(fp);
  return g->nt > 0;
}

static int obj_count(const Opts *o) {
  char path[4096];
  FILE *fp;
  int n = 0;
  if (!o->scenes) return 0;
  snprintf(path, sizeof path, "%s/arena.obj", o->scenes);
  if ((fp = fopen(path, "r"))) { fclose(fp); n |= 1; }
  snprintf(path, sizeof path, "%s/terrain_33.obj", o->scenes);
  if ((fp = fopen(path, "r"))) { fclose(fp); n |= 2; }
  return n;
}

/* Builds world number index (kind, size and contents from rng). Returns
** the hall's half size. */
static double gen_world(Scene *sc, ref_Rng *rng, int kind, const Opts *o, long index) {
  double half = rrange(rng, 12, 40);
  if (kind == W_OBJ) {
    int have = obj_count(o), which = (have == 3) ? (int)(index / W_KINDS) % 2 : have == 2;
    char path[4096];
    Geo g = {0};
    snprintf(path, sizeof path, "%s/%s", o->scenes, which ? "terrain_33.obj" : "arena.obj");
    if (!load_obj(path, &g)) die("cannot read a bench scene");
    scene_add(sc, rng, &g, CS_BACKFACES_COLLIDE);
    geo_free(&g);
    half = which ? 260 : 68;
    gen_hall(sc, rng, half, which ? -30 : -5, which ? 40 : 20);
    return half;
  }
  gen_hall(sc, rng, half, -8, 20);
  switch (kind) {
    case W_ROOMS: gen_rooms(sc, rng, half, -8, 20, 3 + irand(rng, 8)); gen_spikes(sc, rng, half, 2); break;
    case W_STAIRS: gen_stairs(sc, rng, half, 3 + irand(rng, 6)); break;
    case W_CREASES: gen_creases(sc, rng, half, 4 + irand(rng, 10)); break;
    case W_SPIKES: gen_spikes(sc, rng, half, 4 + irand(rng, 10)); gen_bumpy(sc, rng, half, 1); break;
    case W_BUMPY: gen_bumpy(sc, rng, half, 1 + irand(rng, 3)); break;
    default:
      gen_rooms(sc, rng, half, -8, 20, 2 + irand(rng, 3));
      gen_stairs(sc, rng, half, 1 + irand(rng, 3));
      gen_creases(sc, rng, half, 2 + irand(rng, 4));
      gen_spikes(sc, rng, half, 2 + irand(rng, 4));
      gen_bumpy(sc, rng, half, 1 + irand(rng, 2));
      break;
  }
  return half;
}

/* }================================================================== */

/* {==================================================================
** Movers
** ===================================================================*/

typedef struct Mover {
  cs_Mover *m;
  int room;               /* the sealed room it lives in */
  double r[3], q[4];
  int oriented;
  /* the current step */
  cs_Vec3 before, walk, grav;
  int has_g;
  double margin;
  cs_Status status;
} Mover;

/* Radii in [0.05, 5] with ratios up to 1:10: spheres, upright characters,
** and any three. */
static void rand_radii(ref_Rng *rng, double r[3]) {
  double u = urand(rng), mn, mx;
  if (u < 0.3) {
    r[0] = r[1] = r[2] = logrand(rng, 0.05, 5);
  } else if (u < 0.6) {
    r[0] = r[2] = logrand(rng, 0.05, 2.5);
    r[1] = r[0] * rrange(rng, 1, 3);
  } else {
    do {
      r[0] = logrand(rng, 0.05, 5); r[1] = logrand(rng, 0.05, 5); r[2] = logrand(rng, 0.05, 5);
      mn = fmin(r[0], fmin(r[1], r[2]));
      mx = fmax(r[0], fmax(r[1], r[2]));
    } while (mx > 10 * mn);
  }
}

static void mover_ellipsoid(const Mover *mv, cs_Vec3 p, inv_Ellipsoid *e) {
  double c[3];
  c[0] = p.x; c[1] = p.y; c[2] = p.z;
  inv_ellipsoid_init(e, c, mv->r, mv->oriented ? mv->q : NULL);
}

/* Puts the mover at a random free place in its room (a margin of 5% of
** its size from every triangle). Returns 0 when none was found. */
static int place_mover(Scene *sc, ref_Rng *rng, Mover *mv) {
  const Room *rm = &sc->rooms[mv->room];
  int tries, shrink;
  for (shrink = 0; shrink < 8; shrink++) {
    double h[3];
    inv_Ellipsoid e;
    double zero[3] = {0, 0, 0};
    inv_ellipsoid_init(&e, zero, mv->r, mv->oriented ? mv->q : NULL);
    inv_ellipsoid_extents(&e, h);
    for (tries = 0; tries < 40; tries++) {
      double l[3], w[3];
      cs_Vec3 p;
      long tri;
      int i, ok = 1;
      for (i = 0; i < 3; i++) {
        double m = fmax(h[0], fmax(h[1], h[2])) * 1.1;
        if (rm->hi[i] - rm->lo[i] <= 2 * m) { ok = 0; break; }
        l[i] = rrange(rng, rm->lo[i] + m, rm->hi[i] - m);
      }
      if (!ok) break;
      frame_apply(&rm->f, l, w);
      p = vec(w[0] + sc->offset, w[1], w[2] + sc->offset);
      if (!in_room(sc, rm, p)) continue;
      for (i = 1; i < sc->nrooms; i++)
        if (i != mv->room && in_box(sc, &sc->rooms[i], p, 1)) break;
      if (i < sc->nrooms) continue;
      mover_ellipsoid(mv, p, &e);
      if (inv_soup_min_distance(&sc->soup, &e, &tri) < 1.05) continue;
      cs_mover_set_position(mv->m, &p);
      return 1;
    }
    for (tries = 0; tries < 3; tries++) mv->r[tries] *= 0.6;
    cs_mover_set_radius(mv->m, (cs_Vec3[1]){vec(mv->r[0], mv->r[1], mv->r[2])});
  }
  return 0;
}

/* Random tunables: mostly the defaults, sometimes the edges of their ranges. */
static void rand_tunables(ref_Rng *rng, Mover *mv, int auto_skin) {
  cs_Mover *m = mv->m;
  double u = urand(rng), rmin = fmin(mv->r[0], fmin(mv->r[1], mv->r[2]));
  cs_mover_set(m, CS_MAX_ITERATIONS, u < 0.7 ? 5 : 1 + irand(rng, 12));
  u = urand(rng);
  if (auto_skin) u = 0;
  cs_mover_set(m, CS_SKIN, u < 0.75 ? -1 : u < 0.85 ? 0 : u < 0.92 ? 1e-9 * rmin : rmin * rrange(rng, 0, 0.2));
  cs_mover_set(m, CS_SLOPE_LIMIT, urand(rng) < 0.7 ? 45 : rrange(rng, 0, 90));
  cs_mover_set(m, CS_BLOCK_STEEP_SLOPES, urand(rng) < 0.3);
  cs_mover_set(m, CS_STEP_HEIGHT, urand(rng) < 0.6 ? 0 : mv->r[1] * rrange(rng, 0, 0.8));
  cs_mover_set(m, CS_SNAP_DISTANCE, urand(rng) < 0.6 ? 0 : mv->r[1] * rrange(rng, 0, 0.8));
  if (urand(rng) < 0.1) {
    double up[3];
    rand_unit(rng, up);
    cs_mover_set_up(m, (cs_Vec3[1]){vec(up[0], up[1], up[2])});
  } else {
    cs_mover_set_up(m, (cs_Vec3[1]){vec(0, 1, 0)});
  }
}

/* }================================================================== */

/* {==================================================================
** The run
** ===================================================================*/

enum { V_NAN, V_STATUS, V_OVERLAP, V_ESCAPED, V_OVERREACH, V_KINDS };
static const char *const violation_names[V_KINDS] = {
  "nan", "status", "overlap", "escaped", "overreach"
};

typedef struct Totals {
  long long steps, violations[V_KINDS], stuck, contacts, unplaced, respawned, rounding;
  long long steps_by_kind[W_KINDS], huge, tiny;
  long worlds;
  double min_dist, max_depth_world, rounding_depth, slide_time, check_time, slide_time_by_kind[W_KINDS];
  long shown;
} Totals;

/* The snap's reach below (API.md, mover.snapDistance): snapDistance and,
** with one, the walk's length across up times tan(slopeLimit), at most
** tan 75 degrees, and the largest radius times 1 / cos of that angle - 1
** (the height it may hang on a crest's edge). */
static double snap_reach(const cs_Mover *m, cs_Vec3 walk) {
  double snap = cs_mover_get(m, CS_SNAP_DISTANCE), a = cs_mover_get(m, CS_SLOPE_LIMIT), t, wu;
  cs_Vec3 up, h, r;
  if (!(snap > 0)) return 0;
  cs_mover_get_up(m, &up);
  cs_mover_get_radius(m, &r);
  wu = walk.x * up.x + walk.y * up.y + walk.z * up.z;
  h.x = walk.x - wu * up.x; h.y = walk.y - wu * up.y; h.z = walk.z - wu * up.z;
  t = tan((a < 75 ? a : 75) * (3.14159265358979323846 / 180));
  return snap + t * vlen(h) + fmax(fmax(r.x, r.y), r.z) * (sqrt(1 + t * t) - 1);
}

/* The gather's margin of cs_world_collide_and_slide (cs_world.c): how far
** any pass may move the centre. */
static double gather_margin(const cs_Mover *m, cs_Vec3 walk, const cs_Vec3 *g) {
  return vlen(walk) + (g ? vlen(*g) : 0) + 2 * cs_mover_get(m, CS_STEP_HEIGHT)
       + snap_reach(m, walk) + 4 * cs_mover_get(m, CS_SKIN) + 1e-9;
}

static void report(Totals *tot, int kind, const char *what, long world, int mi, long long step,
                   const Mover *mv, cs_Vec3 before, cs_Vec3 after, cs_Vec3 walk,
                   const cs_Vec3 *g, double value) {
  tot->violations[kind]++;
  if (tot->violations[kind] > 8) return;   /* the first 8 of each kind */
  tot->shown++;
  printf("VIOLATION %s: world %ld mover %d step %lld: %s %.17g\n", violation_names[kind], world, mi,
         step, what, value);
  printf("  radius (%.17g, %.17g, %.17g)%s q (%.17g, %.17g, %.17g, %.17g)\n", mv->r[0], mv->r[1],
         mv->r[2], mv->oriented ? " oriented" : "", mv->q[0], mv->q[1], mv->q[2], mv->q[3]);
  printf("  from (%.17g, %.17g, %.17g) to (%.17g, %.17g, %.17g)\n", before.x, before.y, before.z,
         after.x, after.y, after.z);
  printf("  walk (%.17g, %.17g, %.17g)", walk.x, walk.y, walk.z);
  if (g) printf(" gravity (%.17g, %.17g, %.17g)", g->x, g->y, g->z);
  printf(" skin %.17g iters %g step %g snap %g slope %g block %g stuck %d\n",
         cs_mover_get(mv->m, CS_SKIN), cs_mover_get(mv->m, CS_MAX_ITERATIONS),
         cs_mover_get(mv->m, CS_STEP_HEIGHT), cs_mover_get(mv->m, CS_SNAP_DISTANCE),
         cs_mover_get(mv->m, CS_SLOPE_LIMIT), cs_mover_get(mv->m, CS_BLOCK_STEEP_SLOPES),
         cs_mover_was_stuck(mv->m));
}

/* 4 ulps of the centre's largest coordinate, in ellipsoid space: what the
** position's storage can resolve (0 at the origin; 2.3e-9 at 1e6 for a
** radius of 0.2). */
static double rounding_slack(const Mover *mv, cs_Vec3 p) {
  double big = fmax(fabs(p.x), fmax(fabs(p.y), fabs(p.z)));
  double rmin = fmin(mv->r[0], fmin(mv->r[1], mv->r[2]));
  return 4 * (nextafter(big, HUGE_VAL) - big) / rmin;
}

/* One random step's displacements. */
static void rand_move(ref_Rng *rng, const Mover *mv, double huge, cs_Vec3 *walk, cs_Vec3 *grav,
                      int *has_g, Totals *tot) {
  double u = urand(rng), d[3], rmin = fmin(mv->r[0], fmin(mv->r[1], mv->r[2]));
  double rmax = fmax(mv->r[0], fmax(mv->r[1], mv->r[2])), len;
  cs_Vec3 up = csv_mover_up(mv->m);
  rand_unit(rng, d);
  if (u < 0.55) {                       /* ordinary: mostly horizontal */
    d[1] *= 0.3;
    len = rmin * logrand(rng, 1e-3, 3);
  } else if (u < 0.55 + huge) {         /* huge: 100x the radius */
    len = 100 * rmax;
    tot->huge++;
  } else if (u < 0.75 + huge) {         /* tiny */
    len = urand(rng) < 0.5 ? 1e-9 : 1e-9 * rmin;
    tot->tiny++;
  } else if (u < 0.8 + huge) {
    len = 0;
  } else if (u < 0.9 + huge) {          /* a few radii */
    len = rmax * rrange(rng, 1, 5);
  } else {                              /* along an axis, exactly */
    int a = irand(rng, 3);
    d[0] = d[1] = d[2] = 0;
    d[a] = urand(rng) < 0.5 ? -1 : 1;
    len = rmin * logrand(rng, 1e-3, 20);
  }
  *walk = vec(d[0] * len, d[1] * len, d[2] * len);
  u = urand(rng);
  *has_g = 1;
  if (u < 0.35) {
    *has_g = 0;
  } else if (u < 0.8) {                 /* down */
    double g = mv->r[1] * logrand(rng, 1e-3, 0.5);
    *grav = vec(-up.x * g, -up.y * g, -up.z * g);
  } else if (u < 0.85) {
    *grav = vec(-up.x * 1e-9, -up.y * 1e-9, -up.z * 1e-9);
  } else if (u < 0.9) {
    *grav = vec(0, 0, 0);
  } else {                              /* any way, a jump included */
    rand_unit(rng, d);
    len = rmax * logrand(rng, 1e-3, 20);
    *grav = vec(d[0] * len, d[1] * len, d[2] * len);
  }
}

static void run_world(const Opts *o, long index, long long budget, Totals *tot) {
  Scene sc;
  ref_Rng rng;
  Mover *mv;
  int kind, nm, i, have_obj = obj_count(o);
  long long s, per;
  double t1;
  memset(&sc, 0, sizeof sc);
  sc.alloc = cs_default_alloc();
  sc.offset = o->offset;
  inv_soup_init(&sc.soup);
  ref_rng_seed(&rng, o->seed * 0x9E3779B97F4A7C15ULL + (unsigned long long)index * 0xD1B54A32D192ED03ULL);
  kind = (int)(index % W_KINDS);
  if (kind == W_OBJ && !have_obj) kind = W_MIXED;
  if (cs_world_new(&sc.alloc, &sc.w) != CS_OK) die("cs_world_new failed");
  gen_world(&sc, &rng, kind, o, index);
  if (!inv_soup_build(&sc.soup, 0)) die("out of memory");
  nm = o->movers;
  mv = calloc((size_t)nm, sizeof *mv);
  if (!mv) die("out of memory");
  for (i = 0; i < nm; i++) {
    Mover *m = &mv[i];
    if (cs_mover_new(&sc.alloc, &m->m) != CS_OK) die("cs_mover_new failed");
    rand_radii(&rng, m->r);
    /* a third live in the small rooms, when there are any */
    m->room = sc.nrooms > 1 && urand(&rng) < 0.35 ? 1 + irand(&rng, sc.nrooms - 1) : 0;
    m->oriented = urand(&rng) < 0.2;
    m->q[0] = m->q[1] = m->q[2] = 0; m->q[3] = 1;
    if (m->oriented) {
      rand_quat(&rng, m->q);
      cs_mover_set_orientation(m->m, m->q);
    }
    cs_mover_set_radius(m->m, (cs_Vec3[1]){vec(m->r[0], m->r[1], m->r[2])});
    rand_tunables(&rng, m, o->auto_skin);
    if (!place_mover(&sc, &rng, m)) { tot->unplaced++; cs_mover_free(m->m); m->m = NULL; }
  }
  per = o->per_mover;
  if ((long long)nm * per > budget) per = budget / nm + 1;
  /* rounds: every mover steps (timed together), then every mover is checked */
  for (s = 0; s < per; s++) {
    double t0 = now();
    for (i = 0; i < nm; i++) {
      Mover *m = &mv[i];
      if (!m->m) continue;
      if (urand(&rng) < 0.002) rand_tunables(&rng, m, o->auto_skin);
      rand_move(&rng, m, o->huge, &m->walk, &m->grav, &m->has_g, tot);
      m->before = csv_mover_position(m->m);
      m->margin = gather_margin(m->m, m->walk, m->has_g ? &m->grav : NULL);
      m->status = cs_world_collide_and_slide(sc.w, m->m, &m->walk, m->has_g ? &m->grav : NULL);
    }
    t1 = now();
    tot->slide_time += t1 - t0;
    tot->slide_time_by_kind[kind] += t1 - t0;
    for (i = 0; i < nm; i++) {
      Mover *m = &mv[i];
      cs_Vec3 before = m->before, after, walk = m->walk;
      const cs_Vec3 *g = m->has_g ? &m->grav : NULL;
      int bad = 0, stuck;
      size_t c, nc;
      double dist, margin = m->margin;
      inv_Ellipsoid e;
      long tri;
      if (!m->m) continue;
      tot->steps++;
      tot->steps_by_kind[kind]++;
      after = csv_mover_position(m->m);
      stuck = cs_mover_was_stuck(m->m);
      tot->stuck += stuck;
      if (m->status != CS_OK) {
        report(tot, V_STATUS, cs_status_string(m->status), index, i, s, m, before, after, walk, g,
               (double)m->status);
        bad = 1;
      }
      nc = cs_mover_contact_count(m->m);
      tot->contacts += (long long)nc;
      {
        int finite = finite3(after);
        cs_Vec3 gn;
        for (c = 0; c < nc && finite; c++) {
          const cs_Contact *ct = cs_mover_contact(m->m, c);
          finite = finite3(ct->point) && finite3(ct->normal) && finite3(ct->tri_normal);
        }
        if (finite && cs_mover_ground(m->m, &gn, NULL, NULL)) finite = finite3(gn);
        if (!finite) {
          report(tot, V_NAN, "non-finite result", index, i, s, m, before, after, walk, g, 0);
          bad = 1;
        }
      }
      if (!bad) {
        mover_ellipsoid(m, after, &e);
        dist = inv_soup_min_distance(&sc.soup, &e, &tri);
        if (dist < tot->min_dist) tot->min_dist = dist;
        /* beyond 1e-9, an overlap within a few ulps of the centre's
        ** coordinates (in ellipsoid space) is what storing positions as
        ** doubles allows far from the origin: counted, not a violation */
        if (dist < 1 - INV_OVERLAP_TOL && dist >= 1 - INV_OVERLAP_TOL - rounding_slack(m, after)) {
          tot->rounding++;
          if (1 - dist > tot->rounding_depth) tot->rounding_depth = 1 - dist;
        } else if (dist < 1 - INV_OVERLAP_TOL) {
          double depth = 1 - dist, rmin = fmin(m->r[0], fmin(m->r[1], m->r[2]));
          if (depth * rmin > tot->max_depth_world) tot->max_depth_world = depth * rmin;
          report(tot, V_OVERLAP, "ellipsoid-space distance", index, i, s, m, before, after, walk, g,
                 dist);
          if (tot->violations[V_OVERLAP] <= 8 && tri >= 0) {
            const double *v = sc.soup.v + 9 * tri;
            printf("  triangle %ld: (%.17g, %.17g, %.17g) (%.17g, %.17g, %.17g) (%.17g, %.17g, %.17g)\n",
                   tri, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
          }
          bad = 1;
        }
        if (!in_room(&sc, &sc.rooms[m->room], after)) {
          report(tot, V_ESCAPED, "left its sealed room", index, i, s, m, before, after, walk, g,
                 (double)m->room);
          bad = 1;
        } else {
          int r;
          for (r = 1; r < sc.nrooms; r++)
            if (r != m->room && in_room(&sc, &sc.rooms[r], after)) {
              report(tot, V_ESCAPED, "entered another sealed room", index, i, s, m, before, after,
                     walk, g, (double)r);
              bad = 1;
              break;
            }
        }
        if (!stuck && (fabs(after.x - before.x) > margin * (1 + 1e-12) + 1e-15 * fabs(before.x) ||
                       fabs(after.y - before.y) > margin * (1 + 1e-12) + 1e-15 * fabs(before.y) ||
                       fabs(after.z - before.z) > margin * (1 + 1e-12) + 1e-15 * fabs(before.z))) {
          report(tot, V_OVERREACH, "moved farther than the gather margin", index, i, s, m, before,
                 after, walk, g, margin);
          bad = 1;
        }
      }
      if (bad) {                        /* carry on from a fresh place */
        tot->respawned++;
        cs_mover_set_position(m->m, &before);
        if (!place_mover(&sc, &rng, m)) { cs_mover_free(m->m); m->m = NULL; }
      }
    }
    tot->check_time += now() - t1;
  }
  for (i = 0; i < nm; i++) cs_mover_free(mv[i].m);
  free(mv);
  cs_world_free(sc.w);
  for (i = 0; i < sc.nmeshes; i++) cs_mesh_free(sc.meshes[i]);
  inv_soup_free(&sc.soup);
  tot->worlds++;
  if (!o->quiet)
    printf("world %ld (%s, %ld triangles, %d rooms): %lld steps so far\n", index,
           world_names[kind], sc.tris, sc.nrooms, tot->steps);
}

static void usage(void) {
  fprintf(stderr, "usage: stress [--steps N] [--seed S] [--offset X] [--movers M] [--per-mover K]\n"
                  "              [--huge P] [--scenes DIR] [--world W] [--auto-skin] [--quiet]\n");
  exit(2);
}

int main(int argc, char **argv) {
  Opts o;
  Totals tot;
  double t0, elapsed;
  long long total = 0;
  long w;
  int i, k;
  memset(&o, 0, sizeof o);
  o.steps = 1000000;
  o.seed = 1;
  o.movers = 200;
  o.per_mover = 250;
  o.world_only = -1;
  o.huge = 0.005;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--quiet")) { o.quiet = 1; continue; }
    if (!strcmp(a, "--auto-skin")) { o.auto_skin = 1; continue; }
    if (i + 1 >= argc) usage();
    if (!strcmp(a, "--steps")) o.steps = (long long)strtod(argv[++i], NULL);
    else if (!strcmp(a, "--seed")) o.seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(a, "--offset")) o.offset = strtod(argv[++i], NULL);
    else if (!strcmp(a, "--movers")) o.movers = atoi(argv[++i]);
    else if (!strcmp(a, "--per-mover")) o.per_mover = atoi(argv[++i]);
    else if (!strcmp(a, "--scenes")) o.scenes = argv[++i];
    else if (!strcmp(a, "--world")) o.world_only = atol(argv[++i]);
    else if (!strcmp(a, "--huge")) o.huge = strtod(argv[++i], NULL);
    else usage();
  }
  if (o.movers < 1 || o.per_mover < 1 || o.steps < 1) usage();
  memset(&tot, 0, sizeof tot);
  tot.min_dist = HUGE_VAL;
  printf("stress: seed %llu, %lld steps, offset %g, %d movers a world, %d steps each, %g huge%s%s\n",
         o.seed, o.steps, o.offset, o.movers, o.per_mover, o.huge,
         obj_count(&o) ? ", bench scenes from " : "",
         obj_count(&o) ? o.scenes : "");
  t0 = now();
  if (o.world_only >= 0) {
    run_world(&o, o.world_only, (long long)o.movers * o.per_mover, &tot);
  } else {
    for (w = 0; tot.steps < o.steps; w++) {
      run_world(&o, w, o.steps - tot.steps, &tot);
      if (tot.steps == 0 && w > 100) die("no mover could be placed");
    }
  }
  elapsed = now() - t0;
  for (k = 0; k < V_KINDS; k++) total += tot.violations[k];
  printf("steps by world (us a step in collide_and_slide):");
  for (k = 0; k < W_KINDS; k++)
    if (tot.steps_by_kind[k])
      printf(" %s %lld (%.1f)", world_names[k], tot.steps_by_kind[k],
             1e6 * tot.slide_time_by_kind[k] / (double)tot.steps_by_kind[k]);
  printf("\n%lld mover-steps in %ld worlds, %.1f s CPU (%.1f s in collide_and_slide: %.2f us a "
         "step; %.1f s in the overlap check)\n", tot.steps, tot.worlds, elapsed, tot.slide_time,
         1e6 * tot.slide_time / (double)tot.steps, tot.check_time);
  printf("huge steps %lld, tiny steps %lld, contacts %lld, stuck calls %lld, unplaced movers %lld, "
         "respawned %lld\n", tot.huge, tot.tiny, tot.contacts, tot.stuck, tot.unplaced, tot.respawned);
  printf("least ellipsoid-space distance to a triangle after a step: %.17g\n", tot.min_dist);
  printf("overlaps past 1e-9 but within 4 ulps of the position (not violations): %lld, deepest %.3g\n",
         tot.rounding, tot.rounding_depth);
  printf("violations:");
  for (k = 0; k < V_KINDS; k++) printf(" %s %lld", violation_names[k], tot.violations[k]);
  printf("\nseed %llu offset %g: %s\n", o.seed, o.offset, total ? "FAILED" : "ok");
  return total ? 1 : 0;
}

/* }================================================================== */
