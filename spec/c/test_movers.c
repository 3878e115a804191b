/*
** test_movers.c: movers that meet (issue 14). Hand scenes with exact
** answers, then a crowd in a walled yard: after every step no two added
** movers overlap (sphere distances, and for turned ellipsoids a check that
** samples one surface against the other's quadric, written apart from the
** kernel) and none is inside the geometry. Prints "N passed, M failed".
** test_movers [n [frames [arena.obj]]] sets the crowd's size (default 150
** movers, 200 frames; the 1,000 x 600 runs in make stress-movers)
** and, given the bench arena, runs a crowd of n in it too (make
** stress-movers-arena), with each mover's distance to the arena's triangles
** checked exactly (spec/c/invariants.c) after every step.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"
#include "invariants.h"
#include "by_value.h"
#include "scenes.h"

static int passed, failed;
static cs_Alloc A;

static void check(int ok, const char *name, const char *detail) {
  if (ok) passed++;
  else { failed++; printf("FAIL %s: %s\n", name, detail); }
}

static cs_Vec3 V(double x, double y, double z) { cs_Vec3 v; v.x = x; v.y = y; v.z = z; return v; }

static cs_Mover *sphere(cs_World *w, double r, cs_Vec3 at) {
  cs_Mover *m = NULL;
  cs_mover_new(&A, &m);
  cs_mover_set_radius(m, (cs_Vec3[1]){V(r, r, r)});
  cs_mover_set_position(m, &at);
  if (w) cs_world_add_mover(w, m);
  return m;
}

static double dist(cs_Vec3 a, cs_Vec3 b) {
  return sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

/* The box [lo, hi] (scenes.h). */
static cs_Mesh *box(cs_Vec3 lo, cs_Vec3 hi) { return scene_box(&A, lo, hi); }

/* {==================================================================
** Hand scenes
** ===================================================================*/

/*   A o-->        <--o B      two spheres of radius 0.5 at x = -2 and 2,
**                              each walking 3 toward the other in turn:
** A stops a gap of 0 .. 2 skins short of B, then B stops short of A. */
static void head_on(void) {
  cs_World *w = NULL;
  cs_Mover *a, *b;
  double gap, skin;
  cs_world_new(&A, &w);
  a = sphere(w, 0.5, V(-2, 0, 0));
  b = sphere(w, 0.5, V(2, 0, 0));
  skin = cs_mover_get(a, CS_SKIN);
  cs_world_collide_and_slide(w, a, (cs_Vec3[1]){V(3, 0, 0)}, NULL);
  gap = dist(csv_mover_position(a), csv_mover_position(b)) - 1;
  check(gap >= 0 && gap <= 2 * skin, "head-on", "A not stopped a skin short of B");
  check(cs_mover_contact_count(a) == 1 && cs_mover_contact(a, 0)->mover == b &&
        cs_mover_contact(a, 0)->body == NULL && fabs(cs_mover_contact(a, 0)->normal.x + 1) < 1e-9,
        "head-on", "the contact does not name B");
  cs_world_collide_and_slide(w, b, (cs_Vec3[1]){V(-3, 0, 0)}, NULL);
  gap = dist(csv_mover_position(a), csv_mover_position(b)) - 1;
  check(gap >= 0 && gap <= 2 * skin, "head-on", "B not stopped a skin short of A");
  /* a mover not added is solid to nobody, but meets the added ones */
  cs_world_remove_mover(w, b);
  cs_world_collide_and_slide(w, a, (cs_Vec3[1]){V(3, 0, 0)}, NULL);
  check(fabs(csv_mover_position(a).x - (csv_mover_position(b).x + 3 - 1 - gap)) < 1 &&
        cs_mover_contact_count(a) == 0, "removed", "a removed mover still blocks");
  check(cs_world_add_mover(w, a) == CS_EINVAL &&
        strcmp(cs_world_error(w)->message, "the mover is in a world already (remove it there first)") == 0,
        "add twice", cs_world_error(w)->message);
  check(cs_world_remove_mover(w, b) == CS_EINVAL &&
        strcmp(cs_world_error(w)->message, "the mover is not in this world") == 0 &&
        cs_world_error(w)->arg == 1, "remove absent", cs_world_error(w)->message);
  cs_world_free(w);
  check(cs_mover_added_to(a) == NULL, "world freed", "the mover still thinks it is added");
  cs_mover_free(a);
  cs_mover_free(b);
}

/*      o A (0.5)       dropped onto B, which sits still; A lands on B's top
**     ( B )  (1.0)     (ground, its ground mover B); B walks 1 along x:
**                      A's next call carries it along. */
static void standing_on(void) {
  cs_World *w = NULL;
  cs_Mover *a, *b;
  cs_Vec3 g = V(0, -0.3, 0), p;
  int i;
  cs_world_new(&A, &w);
  b = sphere(w, 1.0, V(0, 0, 0));
  a = sphere(w, 0.5, V(0, 2, 0));
  for (i = 0; i < 5; i++) cs_world_collide_and_slide(w, a, (cs_Vec3[1]){V(0, 0, 0)}, &g);
  p = csv_mover_position(a);
  check(cs_mover_ground_state(a) == CS_GROUND_ON && cs_mover_ground_mover(a) == b,
        "standing on a mover", "not on B");
  check(p.y >= 1.5 && p.y <= 1.5 + 2 * cs_mover_get(a, CS_SKIN) && fabs(p.x) < 1e-12,
        "standing on a mover", "not resting a skin above B's top");
  cs_world_collide_and_slide(w, b, (cs_Vec3[1]){V(1, 0, 0)}, NULL);
  cs_world_collide_and_slide(w, a, (cs_Vec3[1]){V(0, 0, 0)}, &g);
  p = csv_mover_position(a);
  check(fabs(p.x - 1) < 1e-9 && cs_mover_ground_mover(a) == b, "carried", "not carried by B");
  cs_world_free(w);
  cs_mover_free(a);
  cs_mover_free(b);
}

/*   o B   (falling, just over A)   a lift under A rises 0.1: A goes up, and
**   o A                            B in its way is pushed up by the same 0.1;
** ====== lift                     not when B is marked as having a filter
**                                  (cs_mover_mark_filtered: a binding's,
** handed over per call), which the placement cannot ask: then none goes. */
static void lift_pushes(void) {
  int marked;
  for (marked = 0; marked < 2; marked++) {
    cs_World *w = NULL;
    cs_Mesh *mesh = box(V(-3, -1, -3), V(3, 0, 3));
    cs_Body *lift = NULL;
    cs_Mover *a, *b;
    cs_Vec3 g = V(0, -0.01, 0), up = V(0, 0.1, 0), pa, pb;
    cs_world_new(&A, &w);
    cs_world_add(w, mesh, &lift);
    a = sphere(w, 0.4, V(0, 0.4, 0));
    b = sphere(w, 0.4, V(0.3, 1.21, 0));           /* 0.0246 over A */
    cs_world_collide_and_slide(w, a, (cs_Vec3[1]){V(0, 0, 0)}, &g);
    cs_mover_mark_filtered(b, marked);
    pa = csv_mover_position(a);
    pb = csv_mover_position(b);
    cs_body_set_transform(lift, &up, NULL, NULL);
    if (!marked)
      check(fabs(csv_mover_position(a).y - pa.y - 0.1) < 1e-12 &&
            fabs(csv_mover_position(b).y - pb.y - 0.1) < 1e-12, "lift pushes", "A or B not taken up");
    else
      check(csv_mover_position(a).y == pa.y && csv_mover_position(b).y == pb.y, "lift pushes",
            "a mover marked as filtered was pushed");
    cs_world_free(w);
    cs_mesh_free(mesh);
    cs_mover_free(a);
    cs_mover_free(b);
  }
}

/* A call whose push out of a lift takes the mover on it along, and then
** fails (its k-th allocation), leaves that mover where it was (found by an
** independent tester, round 28: the rider stayed pushed). The lift rises
** 0.1 with a small turn, so its placement takes neither along. */
static long fa_count, fa_fail = -1;
static void *failing_alloc(void *ud, void *p, size_t os, size_t ns) {
  (void)ud; (void)os;
  if (ns == 0) { free(p); return NULL; }
  if (++fa_count == fa_fail) return NULL;
  return realloc(p, ns);
}

static void push_out_undone(void) {
  cs_Alloc F = {failing_alloc, NULL};
  long k;
  int hits = 0, moved = 0, pushed = 0;
  for (k = 1; k <= 200; k++) {
    cs_World *w = NULL;
    cs_Mesh *floor_mesh = scene_box(&F, V(-20, -1, -20), V(20, 0, 20));
    cs_Mesh *lift_mesh = scene_box(&F, V(-1, 0, -1), V(1, 0.5, 1));
    cs_Body *fl = NULL, *lift = NULL;
    cs_Mover *m[2] = {NULL, NULL};
    cs_Vec3 r = V(0.5, 0.5, 0.5), p[2] = {V(0.02, 1.001, 0), V(-0.01, 2.003, 0.01)};
    cs_Vec3 walk = V(0.001, 0, 0), g = V(0, -0.02, 0), t = V(0, 0.1, 0), before, top;
    double q[4] = {0, sin(0.01), 0, cos(0.01)};
    cs_Status s;
    int i;
    fa_fail = -1;
    cs_world_new(&F, &w);
    cs_world_add(w, floor_mesh, &fl);
    cs_world_add(w, lift_mesh, &lift);
    for (i = 0; i < 2; i++) {
      cs_mover_new(&F, &m[i]);
      cs_mover_set_radius(m[i], &r);
      cs_mover_set_position(m[i], &p[i]);
      cs_world_add_mover(w, m[i]);
    }
    cs_body_set_transform(lift, &t, q, NULL);
    cs_world_collide_and_slide(w, m[1], &walk, &g);
    before = csv_mover_position(m[1]);
    fa_count = 0;
    fa_fail = k;
    s = cs_world_collide_and_slide(w, m[0], &walk, &g);
    fa_fail = -1;
    top = csv_mover_position(m[1]);
    if (s != CS_OK) {
      hits++;
      moved += memcmp(&top, &before, sizeof top) != 0;
    } else pushed += top.y > before.y + 0.05;
    cs_world_free(w);
    cs_mover_free(m[0]);
    cs_mover_free(m[1]);
    cs_mesh_free(floor_mesh);
    cs_mesh_free(lift_mesh);
  }
  printf("push out undone: %d calls ran out of memory, %d left the other mover moved, %d pushed it\n",
         hits, moved, pushed);
  check(hits > 0 && moved == 0 && pushed > 0, "push out undone",
        "a failed call left the mover on it moved (or no call failed, or none pushed)");
}

/* Layers: B on layer 2, A colliding with 1 only: A walks through B. */
static void layers(void) {
  cs_World *w = NULL;
  cs_Mover *a, *b;
  cs_world_new(&A, &w);
  a = sphere(w, 0.5, V(-2, 0, 0));
  b = sphere(w, 0.5, V(0, 0, 0));
  cs_mover_set(b, CS_LAYERS, 2);
  cs_mover_set(a, CS_COLLIDES_WITH, 1);
  cs_world_collide_and_slide(w, a, (cs_Vec3[1]){V(4, 0, 0)}, NULL);
  check(fabs(csv_mover_position(a).x - 2) < 1e-12, "layers", "blocked by a mover on another layer");
  cs_world_free(w);
  cs_mover_free(a);
  cs_mover_free(b);
}

/*   A (a 1 x 0.25 x 0.25 cigar along x) walks along x into B (a disc of
**   radii 0.25, 1, 1, turned a quarter about y, so its thin axis is z):
**   in x, A's tip meets B's rim: A's centre stops 1 + 1 = 2 short of B's
**   centre, to within the skin. */
static void shapes(void) {
  cs_World *w = NULL;
  cs_Mover *a = NULL, *b = NULL;
  double q[4] = {0, 0.70710678118654752, 0, 0.70710678118654752};
  double gap;
  cs_world_new(&A, &w);
  cs_mover_new(&A, &a);
  cs_mover_new(&A, &b);
  cs_mover_set_radius(a, (cs_Vec3[1]){V(1, 0.25, 0.25)});
  cs_mover_set_radius(b, (cs_Vec3[1]){V(0.25, 1, 1)});
  cs_mover_set_orientation(b, q);
  cs_mover_set_position(a, (cs_Vec3[1]){V(-5, 0, 0)});
  cs_mover_set_position(b, (cs_Vec3[1]){V(0, 0, 0)});
  cs_world_add_mover(w, a);
  cs_world_add_mover(w, b);
  cs_world_collide_and_slide(w, a, (cs_Vec3[1]){V(10, 0, 0)}, NULL);
  gap = -csv_mover_position(a).x - 2;
  check(gap >= 0 && gap <= 2 * cs_mover_get(a, CS_SKIN), "shapes", "the cigar did not stop at the disc's rim");
  cs_world_free(w);
  cs_mover_free(a);
  cs_mover_free(b);
}

/* }================================================================== */

/* {==================================================================
** A crowd in a yard
** ===================================================================*/

static unsigned long long rs = 0x2545F4914F6CDD1Dull;
static double rnd(void) {
  rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
  return (double)(rs >> 11) / 9007199254740992.0;
}

/* Do the two movers overlap (more than tol)? Spheres exactly; otherwise
** points sampled on a's surface tested against b's quadric, in b's frame
** (independent of the kernel; finds overlaps deeper than the sampling's
** spacing, about 1e-2 radii). */
static int movers_overlap(const cs_Mover *a, const cs_Mover *b, double tol) {
  cs_Vec3 ra = csv_mover_radius(a), rb = csv_mover_radius(b);
  cs_Vec3 pa = csv_mover_position(a), pb = csv_mover_position(b);
  double qa[4], qb[4];
  int i, j;
  cs_mover_get_orientation(a, qa);
  cs_mover_get_orientation(b, qb);
  if (ra.x == ra.y && ra.y == ra.z && rb.x == rb.y && rb.y == rb.z)
    return dist(pa, pb) < ra.x + rb.x - tol;
  if (dist(pa, pb) > fmax(ra.x, fmax(ra.y, ra.z)) + fmax(rb.x, fmax(rb.y, rb.z))) return 0;
  for (i = 0; i < 60; i++)
    for (j = 0; j < 120; j++) {
      double th = 3.14159265358979 * (i + 0.5) / 60, ph = 2 * 3.14159265358979 * j / 120;
      double u[3], p[3], d[3], x[3], R[3][3], s = 0;
      int k, l;
      u[0] = sin(th) * cos(ph) * ra.x; u[1] = sin(th) * sin(ph) * ra.y; u[2] = cos(th) * ra.z;
      /* rotate by qa: p = pa + R(qa) u */
      {
        double X = qa[0], Y = qa[1], Z = qa[2], W = qa[3];
        R[0][0] = 1 - 2 * (Y * Y + Z * Z); R[0][1] = 2 * (X * Y - Z * W); R[0][2] = 2 * (X * Z + Y * W);
        R[1][0] = 2 * (X * Y + Z * W); R[1][1] = 1 - 2 * (X * X + Z * Z); R[1][2] = 2 * (Y * Z - X * W);
        R[2][0] = 2 * (X * Z - Y * W); R[2][1] = 2 * (Y * Z + X * W); R[2][2] = 1 - 2 * (X * X + Y * Y);
      }
      for (k = 0; k < 3; k++) {
        p[k] = (k == 0 ? pa.x : k == 1 ? pa.y : pa.z);
        for (l = 0; l < 3; l++) p[k] += R[k][l] * u[l];
      }
      d[0] = p[0] - pb.x; d[1] = p[1] - pb.y; d[2] = p[2] - pb.z;
      {
        double X = qb[0], Y = qb[1], Z = qb[2], W = qb[3];
        R[0][0] = 1 - 2 * (Y * Y + Z * Z); R[0][1] = 2 * (X * Y - Z * W); R[0][2] = 2 * (X * Z + Y * W);
        R[1][0] = 2 * (X * Y + Z * W); R[1][1] = 1 - 2 * (X * X + Z * Z); R[1][2] = 2 * (Y * Z - X * W);
        R[2][0] = 2 * (X * Z - Y * W); R[2][1] = 2 * (Y * Z + X * W); R[2][2] = 1 - 2 * (X * X + Y * Y);
      }
      for (k = 0; k < 3; k++) {            /* x = R(qb)^T d / rb */
        x[k] = 0;
        for (l = 0; l < 3; l++) x[k] += R[l][k] * d[l];
      }
      x[0] /= rb.x; x[1] /= rb.y; x[2] /= rb.z;
      for (k = 0; k < 3; k++) s += x[k] * x[k];
      if (s < (1 - tol) * (1 - tol)) return 1;
    }
  return 0;
}

static void crowd(int n, int frames, int turned) {
  cs_World *w = NULL;
  cs_Mesh *yard[5];
  cs_Body *bd;
  cs_Mover **m = (cs_Mover **)calloc((size_t)n, sizeof *m);
  cs_Vec3 *goal = (cs_Vec3 *)calloc((size_t)n, sizeof *goal);
  double half = sqrt((double)n) * 0.9 + 2;
  int i, j, f, overlaps = 0, inside = 0, steps = 0, met = 0;
  cs_world_new(&A, &w);
  yard[0] = box(V(-half - 1, -1, -half - 1), V(half + 1, 0, half + 1));      /* the floor */
  yard[1] = box(V(-half - 1, 0, -half - 1), V(-half, 3, half + 1));         /* four walls */
  yard[2] = box(V(half, 0, -half - 1), V(half + 1, 3, half + 1));
  yard[3] = box(V(-half, 0, -half - 1), V(half, 3, -half));
  yard[4] = box(V(-half, 0, half), V(half, 3, half + 1));
  for (i = 0; i < 5; i++) cs_world_add(w, yard[i], &bd);
  for (i = 0; i < n; i++) {               /* on a grid, so none starts overlapping */
    int side = (int)ceil(sqrt((double)n));
    double r = 0.3 + 0.2 * rnd(), x = -half + 1 + (i % side) * (2 * half - 2) / side;
    double z = -half + 1 + (i / side) * (2 * half - 2) / side;
    cs_mover_new(&A, &m[i]);
    if (turned && i % 2) {
      double q[4] = {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, 1};
      cs_mover_set_radius(m[i], (cs_Vec3[1]){V(r, 0.6 * r, 0.8 * r)});
      cs_mover_set_orientation(m[i], q);
    } else {
      cs_mover_set_radius(m[i], (cs_Vec3[1]){V(r, r, r)});
    }
    cs_mover_set_position(m[i], (cs_Vec3[1]){V(x, r + 0.01, z)});
    cs_mover_set(m[i], CS_STEP_HEIGHT, 0.2);
    cs_world_add_mover(w, m[i]);
    goal[i] = V(rnd() * 2 * half - half, 0, rnd() * 2 * half - half);
  }
  for (f = 0; f < frames; f++)
    for (i = 0; i < n; i++) {
      cs_Vec3 p = csv_mover_position(m[i]), g = V(0, -0.05, 0);
      double dx = goal[i].x - p.x, dz = goal[i].z - p.z, l = sqrt(dx * dx + dz * dz);
      size_t c;
      if (l < 1 || rnd() < 0.005) goal[i] = V(rnd() * 2 * half - half, 0, rnd() * 2 * half - half);
      l = l > 1e-9 ? l : 1;
      cs_world_collide_and_slide(w, m[i], (cs_Vec3[1]){V(dx / l * 0.1, 0, dz / l * 0.1)}, &g);
      steps++;
      for (c = 0; c < cs_mover_contact_count(m[i]); c++)
        if (cs_mover_contact(m[i], c)->mover) { met++; break; }
      p = csv_mover_position(m[i]);
      if (p.y < 0.1 || fabs(p.x) > half || fabs(p.z) > half) inside++;   /* in the floor or walls */
      for (j = 0; j < n; j++)
        if (j != i && movers_overlap(m[i], m[j], 1e-6)) overlaps++;
    }
  printf("crowd of %d%s: %d steps, %d meeting another mover; %d overlapping pairs, %d in geometry\n",
         n, turned ? " (half turned ellipsoids)" : "", steps, met, overlaps, inside);
  check(overlaps == 0 && inside == 0 && met > steps / 50, "crowd", "movers overlap or left the yard");
  cs_world_free(w);
  for (i = 0; i < n; i++) cs_mover_free(m[i]);
  for (i = 0; i < 5; i++) cs_mesh_free(yard[i]);
  free(m);
  free(goal);
}

/* A crowd of n in the bench arena (an OBJ of triangles): spheres of radii
** 0.3 to 0.6 dropped on a grid from y = 7, walking to random goals. After
** every step: no two overlap (centre distance against the radii sum), and
** none is inside the arena's geometry: once a mover has been clear of it,
** its exact ellipsoid-space distance to the nearest triangle stays at least
** 1 - 1e-9 (a spawn inside a pillar is pushed out first). */
static void arena_crowd(int n, int frames, const char *path) {
  FILE *fp = fopen(path, "r");
  char line[4096];
  double *v = NULL;
  unsigned *ix = NULL;
  size_t nv = 0, capv = 0, nt = 0, capt = 0, k;
  cs_MeshDesc d;
  cs_Mesh *mesh = NULL;
  cs_World *w = NULL;
  cs_Body *bd;
  inv_Soup soup;
  cs_Mover **m = (cs_Mover **)calloc((size_t)n, sizeof *m);
  cs_Vec3 *goal = (cs_Vec3 *)calloc((size_t)n, sizeof *goal);
  int *clear = (int *)calloc((size_t)n, sizeof *clear);
  double *rad = (double *)calloc((size_t)n, sizeof *rad);
  int i, j, f, overlaps = 0, inside = 0, met = 0;
  long steps = 0, checked = 0;
  if (!fp) { printf("arena crowd: cannot read %s\n", path); failed++; return; }
  while (fgets(line, sizeof line, fp)) {     /* v x y z, f a b c (triangles, 1-based) */
    if (line[0] == 'v' && line[1] == ' ') {
      if (nv + 3 > capv) { capv = capv ? 2 * capv : 3072; v = (double *)realloc(v, capv * sizeof *v); }
      if (sscanf(line + 2, "%lf %lf %lf", &v[nv], &v[nv + 1], &v[nv + 2]) == 3) nv += 3;
    } else if (line[0] == 'f' && line[1] == ' ') {
      long a, b, c;
      if (sscanf(line + 2, "%ld %ld %ld", &a, &b, &c) != 3) continue;
      if (nt + 3 > capt) { capt = capt ? 2 * capt : 3072; ix = (unsigned *)realloc(ix, capt * sizeof *ix); }
      ix[nt++] = (unsigned)(a - 1); ix[nt++] = (unsigned)(b - 1); ix[nt++] = (unsigned)(c - 1);
    }
  }
  fclose(fp);
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = nv / 3; d.indices = ix; d.triangle_count = nt / 3;
  cs_mesh_new(&A, &d, &mesh, NULL);
  cs_world_new(&A, &w);
  cs_world_add(w, mesh, &bd);
  inv_soup_init(&soup);
  for (k = 0; k < nt; k += 3) {
    const double *a = v + 3 * ix[k], *b = v + 3 * ix[k + 1], *c = v + 3 * ix[k + 2];
    inv_soup_add(&soup, a, b, c, inv_triangle_degenerate(a, b, c));
  }
  inv_soup_build(&soup, 0);
  for (i = 0; i < n; i++) {
    int side = (int)ceil(sqrt((double)n));
    rad[i] = 0.3 + 0.3 * rnd();
    cs_mover_new(&A, &m[i]);
    cs_mover_set_radius(m[i], &(cs_Vec3){rad[i], rad[i], rad[i]});
    cs_mover_set_position(m[i], &(cs_Vec3){-54 + 108.0 * (i % side) / side, 7,
                                           -54 + 108.0 * (i / side) / side});
    cs_mover_set(m[i], CS_STEP_HEIGHT, 0.3);
    cs_mover_set(m[i], CS_SNAP_DISTANCE, 0.2);
    cs_world_add_mover(w, m[i]);
    goal[i] = V(rnd() * 100 - 50, 0, rnd() * 100 - 50);
  }
  for (f = 0; f < frames; f++)
    for (i = 0; i < n; i++) {
      cs_Vec3 p = csv_mover_position(m[i]), g = V(0, -0.1, 0);
      double dx = goal[i].x - p.x, dz = goal[i].z - p.z, l = sqrt(dx * dx + dz * dz), gap, c[3], r[3];
      inv_Ellipsoid e;
      long tri;
      size_t q;
      if (l < 1 || rnd() < 0.003) goal[i] = V(rnd() * 100 - 50, 0, rnd() * 100 - 50);
      l = l > 1e-9 ? l : 1;
      cs_world_collide_and_slide(w, m[i], &(cs_Vec3){dx / l * 0.1, 0, dz / l * 0.1}, &g);
      steps++;
      for (q = 0; q < cs_mover_contact_count(m[i]); q++)
        if (cs_mover_contact(m[i], q)->mover) { met++; break; }
      p = csv_mover_position(m[i]);
      c[0] = p.x; c[1] = p.y; c[2] = p.z;
      r[0] = r[1] = r[2] = rad[i];
      inv_ellipsoid_init(&e, c, r, NULL);
      gap = inv_soup_min_distance(&soup, &e, &tri);
      if (gap >= 1) clear[i] = 1;
      else if (clear[i]) { checked++; if (gap < 1 - 1e-9) inside++; }
      for (j = 0; j < n; j++)
        if (j != i && dist(p, csv_mover_position(m[j])) < rad[i] + rad[j] - 1e-9) overlaps++;
    }
  printf("arena crowd of %d: %ld steps, %d meeting another mover; %d overlapping pairs, "
         "%d steps inside the arena's geometry\n", n, steps, met, overlaps, inside);
  (void)checked;
  check(overlaps == 0 && inside == 0 && met > 0, "arena crowd", "movers overlap or entered geometry");
  cs_world_free(w);
  for (i = 0; i < n; i++) cs_mover_free(m[i]);
  cs_mesh_free(mesh);
  inv_soup_free(&soup);
  free(v); free(ix); free(m); free(goal); free(clear); free(rad);
}

/* }================================================================== */

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 150, frames = argc > 2 ? atoi(argv[2]) : 200;
  A = cs_default_alloc();
  head_on();
  standing_on();
  lift_pushes();
  push_out_undone();
  layers();
  shapes();
  crowd(n, frames, 0);
  crowd(n / 3 > 10 ? n / 3 : 10, frames / 2 > 10 ? frames / 2 : 10, 1);
  if (argc > 3) arena_crowd(n, frames, argv[3]);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
