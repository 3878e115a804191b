/*
** bench/movers.c: the cost of movers that meet (issue 14). Three runs, each
** a frame loop of collideAndSlide on a flat floor (a 400 x 400 m box):
**   apart   N movers (default 10,000) on a grid 4 m apart, walking in small
**           circles: with none added, then all added (they never meet);
**   dense   1,024 movers in a 40 x 40 m square, all added and walking to
**           random goals (they meet all the time).
** Prints ms per frame and mover-steps/s of each (CPU time, the median of the
** runs). bench/movers [--movers N] [--frames F] [--runs R]
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collideslide.h"
#include "../spec/c/by_value.h"

static cs_Alloc A;

static double now(void) { return (double)clock() / CLOCKS_PER_SEC; }

static cs_Mesh *floor_box(double half) {
  static const unsigned idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                   3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5};
  double v[24];
  cs_MeshDesc d;
  cs_Mesh *m = NULL;
  int i;
  for (i = 0; i < 8; i++) {
    v[3 * i + 0] = (i == 1 || i == 2 || i == 5 || i == 6) ? half : -half;
    v[3 * i + 1] = (i >= 4) ? 0 : -1;
    v[3 * i + 2] = (i == 2 || i == 3 || i == 6 || i == 7) ? half : -half;
  }
  memset(&d, 0, sizeof d);
  d.vertices = v; d.vertex_count = 8; d.indices = idx; d.triangle_count = 12;
  cs_mesh_new(&A, &d, &m, NULL);
  return m;
}

static unsigned long long rs = 88172645463325252ull;
static double rnd(void) {
  rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
  return (double)(rs >> 11) / 9007199254740992.0;
}

/* n movers apart (4 m grid), walking circles of 0.5 m; added or not.
** Returns CPU seconds per frame. */
static double run_apart(int n, int frames, int added) {
  cs_World *w = NULL;
  cs_Mesh *fl = floor_box(220);
  cs_Body *b;
  cs_Mover **m = (cs_Mover **)calloc((size_t)n, sizeof *m);
  int side = (int)ceil(sqrt((double)n)), i, f;
  double t0, t;
  cs_Vec3 g = {0, -0.05, 0};
  cs_world_new(&A, &w);
  cs_world_add(w, fl, &b);
  for (i = 0; i < n; i++) {
    cs_Vec3 p;
    cs_mover_new(&A, &m[i]);
    p.x = -200 + 4.0 * (i % side); p.y = 0.51; p.z = -200 + 4.0 * (i / side);
    cs_mover_set_position(m[i], &p);
    if (added) cs_world_add_mover(w, m[i]);
  }
  for (i = 0; i < n; i++) cs_world_collide_and_slide(w, m[i], &(cs_Vec3){0, 0, 0}, &g);
  t0 = now();
  for (f = 0; f < frames; f++)
    for (i = 0; i < n; i++) {
      double a = 0.2 * f + i;
      cs_Vec3 v;
      v.x = 0.05 * cos(a); v.y = 0; v.z = 0.05 * sin(a);
      cs_world_collide_and_slide(w, m[i], &v, &g);
    }
  t = (now() - t0) / frames;
  cs_world_free(w);
  for (i = 0; i < n; i++) cs_mover_free(m[i]);
  cs_mesh_free(fl);
  free(m);
  return t;
}

/* 1,024 added movers of radius 0.4 in a 40 x 40 m square walking to random
** goals. Returns CPU seconds per frame. */
static double run_dense(int frames) {
  enum { N = 1024 };
  cs_World *w = NULL;
  cs_Mesh *fl = floor_box(30);
  cs_Body *b;
  cs_Mover *m[N];
  cs_Vec3 goal[N], g = {0, -0.05, 0};
  int i, f;
  double t0, t;
  cs_world_new(&A, &w);
  cs_world_add(w, fl, &b);
  for (i = 0; i < N; i++) {
    cs_Vec3 p;
    cs_mover_new(&A, &m[i]);
    cs_mover_set_radius(m[i], &(cs_Vec3){0.4, 0.4, 0.4});
    p.x = -20 + 1.25 * (i % 32); p.y = 0.41; p.z = -20 + 1.25 * (i / 32);
    cs_mover_set_position(m[i], &p);
    cs_world_add_mover(w, m[i]);
    goal[i].x = rnd() * 40 - 20; goal[i].y = 0; goal[i].z = rnd() * 40 - 20;
  }
  t0 = now();
  for (f = 0; f < frames; f++)
    for (i = 0; i < N; i++) {
      cs_Vec3 p = csv_mover_position(m[i]), v;
      double dx = goal[i].x - p.x, dz = goal[i].z - p.z, l = sqrt(dx * dx + dz * dz);
      if (l < 0.5) { goal[i].x = rnd() * 40 - 20; goal[i].z = rnd() * 40 - 20; l = 1; }
      v.x = dx / l * 0.08; v.y = 0; v.z = dz / l * 0.08;
      cs_world_collide_and_slide(w, m[i], &v, &g);
    }
  t = (now() - t0) / frames;
  cs_world_free(w);
  for (i = 0; i < N; i++) cs_mover_free(m[i]);
  cs_mesh_free(fl);
  return t;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int n = 10000, frames = 30, runs = 3, r, i;
  double t[3][16];
  A = cs_default_alloc();
  for (i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--movers") == 0) n = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--frames") == 0) frames = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--runs") == 0) runs = atoi(argv[i + 1]);
  }
  if (runs > 16) runs = 16;
  for (r = 0; r < runs; r++) {            /* interleaved, run after run */
    t[0][r] = run_apart(n, frames, 0);
    t[1][r] = run_apart(n, frames, 1);
    t[2][r] = run_dense(frames);
  }
  for (i = 0; i < 3; i++) qsort(t[i], (size_t)runs, sizeof(double), cmp);
  printf("movers apart, none added: %d movers, %.2f ms/frame (%.0f mover-steps/s)\n", n,
         1e3 * t[0][runs / 2], n / t[0][runs / 2]);
  printf("movers apart, all added:  %d movers, %.2f ms/frame (%.0f mover-steps/s), %.2fx\n", n,
         1e3 * t[1][runs / 2], n / t[1][runs / 2], t[1][runs / 2] / t[0][runs / 2]);
  printf("dense crowd: 1024 movers in 40 x 40 m, all added: %.2f ms/frame (%.0f mover-steps/s)\n",
         1e3 * t[2][runs / 2], 1024 / t[2][runs / 2]);
  printf("(CPU time, median of %d runs of %d frames, interleaved)\n", runs, frames);
  return 0;
}
