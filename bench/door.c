/*
** door.c: a packed crowd through the batch call (issue 15). 200 added
** movers (spheres of radius 0.5, 1.1 m apart) walk at a 1.5 m door in a
** wall: they meet each other, so the batch runs them in many small waves
** (movers that can meet keep list order). Alternates, round after round,
** the batch on 1 thread and on 2 (and on cs_cpu_count() when more), each
** from the same start; prints the median ms per frame of each and checks
** that every run ends on the same bits (a checksum of the centres).
**
** usage: door [--rounds R] [--frames F]
*/
#define WALKERS_NO_MAIN
#include "walkers.c"

#define NDOOR 200

static cs_Mesh *door_mesh(void) {
  /* the floor, then the wall on both sides of the door (x in [0, 0.5]) */
  static const double box[3][6] = {{-20, -1, -20, 20, 0, 20}, {0, 0, -20, 0.5, 3, -0.75},
                                   {0, 0, 0.75, 0.5, 3, 20}};
  static const int q[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                               {2, 3, 7}, {2, 7, 6}, {1, 2, 6}, {1, 6, 5}, {0, 4, 7}, {0, 7, 3}};
  double v[3 * 8 * 3];
  unsigned idx[3 * 12 * 3];
  const cs_Alloc a = cs_default_alloc();
  cs_MeshDesc desc;
  cs_Mesh *m;
  int b, k;
  for (b = 0; b < 3; b++) {
    const double *x = box[b];
    for (k = 0; k < 8; k++) {                 /* corners: bit 0 x, bit 1 z, bit 2 y */
      double *p = &v[3 * (8 * b + k)];
      p[0] = (k == 1 || k == 2 || k == 5 || k == 6) ? x[3] : x[0];
      p[1] = k >= 4 ? x[4] : x[1];
      p[2] = (k == 2 || k == 3 || k == 6 || k == 7) ? x[5] : x[2];
    }
    for (k = 0; k < 12; k++) {
      idx[3 * (12 * b + k)] = (unsigned)(8 * b + q[k][0]);
      idx[3 * (12 * b + k) + 1] = (unsigned)(8 * b + q[k][1]);
      idx[3 * (12 * b + k) + 2] = (unsigned)(8 * b + q[k][2]);
    }
  }
  memset(&desc, 0, sizeof desc);
  desc.vertices = v;
  desc.vertex_count = 24;
  desc.indices = idx;
  desc.triangle_count = 36;
  desc.backfaces = CS_BACKFACES_COLLIDE;
  check(cs_mesh_new(&a, &desc, &m, NULL), "cs_mesh_new");
  return m;
}

/* One run: a fresh world and crowd, F frames of the batch on k threads.
** Returns ms per frame; *sum gets the checksum of the centres. */
static double door_run(cs_Mesh *mesh, int k, int frames, double *sum) {
  const cs_Alloc a = cs_default_alloc();
  cs_World *w;
  cs_Body *body;
  cs_Mover *m[NDOOR];
  double moves[6 * NDOOR], t0, t;
  size_t failed;
  int i, f;
  unsigned seed = 12345;
  check(cs_world_new(&a, &w), "cs_world_new");
  check(cs_world_add(w, mesh, &body), "cs_world_add");
  check(cs_world_set_threads(w, k), "cs_world_set_threads");
  for (i = 0; i < NDOOR; i++) {
    cs_Vec3 p, r = {0.5, 0.5, 0.5};
    seed = seed * 1103515245u + 12345u;
    p.x = -1.2 - (i / 10) * 1.1 - 0.05 * (double)(seed >> 16) / 65536.0;
    p.y = 0.505;
    p.z = -5 + (i % 10) * 1.1;
    check(cs_mover_new(&a, &m[i]), "cs_mover_new");
    cs_mover_set_radius(m[i], &r);
    cs_mover_set_position(m[i], &p);
    check(cs_world_add_mover(w, m[i]), "cs_world_add_mover");
  }
  t0 = now_wall();
  for (f = 0; f < frames; f++) {
    for (i = 0; i < NDOOR; i++) {             /* at the door, then through it */
      cs_Vec3 p = csv_mover_position(m[i]);
      double tx = 0.25 - p.x, tz = -p.z, l;
      if (p.x > 0.25) { tx = 5; tz = 0; }
      l = sqrt(tx * tx + tz * tz);
      if (l < 1e-9) l = 1;
      moves[6 * i] = 4.0 / 60 * tx / l;
      moves[6 * i + 1] = 0;
      moves[6 * i + 2] = 4.0 / 60 * tz / l;
      moves[6 * i + 3] = 0;
      moves[6 * i + 4] = -0.01;
      moves[6 * i + 5] = 0;
    }
    if (cs_world_collide_and_slide_many(w, m, NDOOR, moves, 6, NULL, NULL, &failed) != CS_OK)
      die("cs_world_collide_and_slide_many", cs_world_error(w)->message);
  }
  t = (now_wall() - t0) * 1e3 / frames;
  *sum = 0;
  for (i = 0; i < NDOOR; i++) {
    cs_Vec3 p = csv_mover_position(m[i]);
    *sum += p.x + p.y + p.z;
  }
  for (i = 0; i < NDOOR; i++) cs_mover_free(m[i]);
  cs_world_free(w);
  return t;
}

int main(int argc, char **argv) {
  int rounds = 5, frames = 200, i, r, c, nconf;
  int ks[3];
  double ms[3][64], sum0 = 0, sum;
  cs_Mesh *mesh;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
    else { fprintf(stderr, "usage: door [--rounds R] [--frames F]\n"); return 2; }
  }
  if (rounds < 1 || rounds > 64 || frames < 1) die("bad --rounds or --frames", NULL);
  ks[0] = 1; ks[1] = 2; ks[2] = cs_cpu_count();
  nconf = ks[2] > 2 ? 3 : 2;
  mesh = door_mesh();
  for (r = 0; r < rounds; r++)
    for (c = 0; c < nconf; c++) {
      ms[c][r] = door_run(mesh, ks[c], frames, &sum);
      if (r == 0 && c == 0) sum0 = sum;
      else if (sum != sum0) die("a run ended off the first run's bits", NULL);
    }
  printf("door: %d added movers packed at a door, %d frames, %d rounds, wall clock\n", NDOOR, frames, rounds);
  for (c = 0; c < nconf; c++) {
    qsort(ms[c], (size_t)rounds, sizeof(double), cmp_double);
    printf("  batch, %d thread%s  %.3f ms/frame (median; min %.3f, max %.3f)\n", ks[c],
           ks[c] > 1 ? "s" : " ", ms[c][rounds / 2], ms[c][0], ms[c][rounds - 1]);
  }
  printf("  checksum %.17g (every run)\n", sum0);
  printf("RESULT impl=door movers=%d one=%.4f two=%.4f\n", NDOOR, ms[0][rounds / 2], ms[1][rounds / 2]);
  cs_mesh_free(mesh);
  return 0;
}
