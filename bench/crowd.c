/*
** crowd.c: the walkers through the batch call (issue 15), in one process
** so that the configurations share the machine's noise: run after run, in
** turn, the loop (one cs_world_collide_and_slide per mover), the batch on
** 1 thread, and the batch on 2 .. K threads. Each configuration gets movers
** of its own, reset to the same start, and must end with the loop's
** checksum, bit for bit. Times are wall-clock (threads share the work; CPU
** time would add theirs up).
**
** usage: crowd SCENE.obj [--movers N] [--frames F] [--warmup W] [--runs R]
**                        [--threads K]
** Up to 1,024 movers spawn at the standard walkers' points; more spawn on a
** square grid over the middle of the terrain (the 10,000-mover figure).
** Prints, per configuration, the median mover-steps/s and ms per frame,
** the ratios, and the serial fraction f that Amdahl's law fits to the
** 2-thread speed-up S2 (f = 2/S2 - 1), with the speed-ups it predicts for
** 4, 8 and 16 cores: 1 / (f + (1 - f)/k).
*/
#define WALKERS_NO_MAIN
#include "walkers.c"

#define MAXCONF 10

/* Spawn points: the standard ones, or for a large crowd a square grid over
** the terrain's middle 360 x 360 m. */
static void crowd_spawn(const Scene *sc, Walkers *w) {
  int i, side = (int)ceil(sqrt((double)w->n));
  if (w->n <= 1024) return;
  for (i = 0; i < w->n; i++) {
    double s;
    cs_Vec3 p;
    p.x = -180.0 + 360.0 * ((i % side) + 0.5) / side;
    p.z = -180.0 + 360.0 * ((i / side) + 0.5) / side;
    if (!surface_height(sc, p.x, p.z, &s)) die("no surface under a spawn point", NULL);
    p.y = s + 1.5;
    w->spawn[i] = p;
  }
}

/* Frames [f0, f1) through the batch: the moves of all movers, one call,
** then each mover's vertical speed from its ground state (as step_frames
** does after each mover's call). */
__attribute__((noinline)) static void batch_frames(cs_World *world, Walkers *w, double *moves, int f0, int f1, double dt) {
  int f, i;
  for (f = f0; f < f1; f++) {
    size_t failed;
    cs_Status s;
    if (f % SEGMENT_FRAMES == 0 || f == f0)
      for (i = 0; i < w->n; i++) walk_dir(i, f / SEGMENT_FRAMES, dt, &w->wx[i], &w->wz[i]);
    for (i = 0; i < w->n; i++) {
      w->vy[i] = w->vy[i] - GRAVITY * dt;
      moves[6 * i] = w->wx[i];
      moves[6 * i + 1] = 0;
      moves[6 * i + 2] = w->wz[i];
      moves[6 * i + 3] = 0;
      moves[6 * i + 4] = w->vy[i] * dt;
      moves[6 * i + 5] = 0;
    }
    s = cs_world_collide_and_slide_many(world, w->m, (size_t)w->n, moves, 6, NULL, NULL, &failed);
    if (s != CS_OK) die("cs_world_collide_and_slide_many", cs_world_error(world)->message);
    for (i = 0; i < w->n; i++)
      if (cs_mover_ground_state(w->m[i]) == CS_GROUND_ON) w->vy[i] = 0.0;
  }
}

static double checksum(const Walkers *w) {
  double sum = 0;
  int i;
  for (i = 0; i < w->n; i++) {
    cs_Vec3 p = csv_mover_position(w->m[i]);
    sum += p.x + p.y + p.z;
  }
  return sum;
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int movers = 1024, frames = 240, warmup = 60, runs = 5, maxthreads = 2;
  int i, run, c, nconf;
  double dt = 1.0 / 60.0, rate[MAXCONF][64], sum[MAXCONF];
  Obj o;
  Scene sc;
  cs_MeshDesc desc;
  cs_Body *body;
  size_t bad = 0;
  double *moves;
  const cs_Alloc a = cs_default_alloc();
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--movers") && i + 1 < argc) movers = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) maxthreads = atoi(argv[++i]);
    else if (argv[i][0] != '-' && !path) path = argv[i];
  }
  if (!path || movers < 1 || runs < 1 || runs > 64 || frames <= warmup || warmup < 0 ||
      maxthreads < 1 || maxthreads > MAXCONF - 2) {
    fprintf(stderr, "usage: crowd SCENE.obj [--movers N] [--frames F] [--warmup W] [--runs R] [--threads K]\n");
    return 2;
  }
  obj_load(path, &o);
  memset(&desc, 0, sizeof desc);
  desc.vertices = o.v;
  desc.vertex_count = o.nv;
  desc.indices = o.f;
  desc.triangle_count = o.nf;
  desc.backfaces = CS_BACKFACES_COLLIDE;
  check(cs_mesh_new(&a, &desc, &sc.mesh, &bad), "cs_mesh_new");
  obj_free(&o);
  check(cs_world_new(&a, &sc.world), "cs_world_new");
  check(cs_world_add(sc.world, sc.mesh, &body), "cs_world_add");
  cs_mesh_bounds(sc.mesh, &sc.lo, &sc.hi);
  sc.kind = KIND_TERRAIN;
  if (!(moves = malloc(6 * sizeof(double) * (size_t)movers))) die("out of memory", NULL);
  nconf = 1 + maxthreads;           /* 0: the loop; c >= 1: the batch on c threads */
  for (run = 0; run < runs; run++)
    for (c = 0; c < nconf; c++) {
      Walkers w;
      double w0;
      walkers_init(&w, &sc, movers > 1024 ? 1024 : movers);
      if (movers > 1024) {          /* walkers_init makes at most the standard 1,024 */
        walkers_free(&w);
        memset(&w, 0, sizeof w);
        w.n = movers;
        w.m = calloc((size_t)movers, sizeof *w.m);
        w.spawn = calloc((size_t)movers, sizeof *w.spawn);
        w.vy = calloc((size_t)movers, sizeof *w.vy);
        w.wx = calloc((size_t)movers, sizeof *w.wx);
        w.wz = calloc((size_t)movers, sizeof *w.wz);
        if (!w.m || !w.spawn || !w.vy || !w.wx || !w.wz) die("out of memory", NULL);
        for (i = 0; i < movers; i++) {
          check(cs_mover_new(&a, &w.m[i]), "cs_mover_new");
          cs_mover_set_radius(w.m[i], &(cs_Vec3){0.4, 0.9, 0.4});
        }
      }
      crowd_spawn(&sc, &w);
      walkers_reset(&w);
      check(cs_world_set_threads(sc.world, c == 0 ? 1 : c), "cs_world_set_threads");
      if (c == 0) step_frames(sc.world, &w, 0, warmup, dt);
      else batch_frames(sc.world, &w, moves, 0, warmup, dt);
      w0 = now_wall();
      if (c == 0) step_frames(sc.world, &w, warmup, frames, dt);
      else batch_frames(sc.world, &w, moves, warmup, frames, dt);
      rate[c][run] = (double)movers * (frames - warmup) / (now_wall() - w0);
      sum[c] = checksum(&w);
      walkers_free(&w);
    }
  printf("crowd: %d movers x %d frames (%d measured), %d runs, wall-clock, on %s\n", movers, frames,
         frames - warmup, runs, path);
  for (c = 0; c < nconf; c++) {
    double med;
    qsort(rate[c], (size_t)runs, sizeof(double), cmp_double);
    med = rate[c][runs / 2];
    printf("  %-16s %10.0f mover-steps/s  %8.3f ms/frame  (min %.0f, max %.0f)  checksum %.17g%s\n",
           c == 0 ? "loop" : c == 1 ? "batch, 1 thread" : "batch, threads", med,
           1000.0 * movers / med, rate[c][0], rate[c][runs - 1], sum[c],
           sum[c] == sum[0] ? "" : "  DIFFERS FROM THE LOOP");
    if (c >= 2) printf("    (%d threads)\n", c);
  }
  printf("  batch 1 thread / loop: %.3f\n", rate[1][runs / 2] / rate[0][runs / 2]);
  if (nconf > 2) {
    double s2 = rate[2][runs / 2] / rate[1][runs / 2], f = 2.0 / s2 - 1.0;
    int k;
    printf("  2 threads / 1 thread: %.2fx; Amdahl's serial fraction f = 2/S2 - 1 = %.3f\n", s2, f);
    if (f < 0) f = 0;
    for (k = 4; k <= 16; k *= 2) printf("    model, %2d cores: %.1fx\n", k, 1.0 / (f + (1.0 - f) / k));
  }
  printf("RESULT impl=crowd movers=%d loop=%.0f batch1=%.0f", movers, rate[0][runs / 2], rate[1][runs / 2]);
  for (c = 2; c < nconf; c++) printf(" batch%d=%.0f", c, rate[c][runs / 2]);
  printf(" same=%d\n", sum[1] == sum[0] && (nconf < 3 || sum[2] == sum[0]));
  for (c = 1; c < nconf; c++) if (sum[c] != sum[0]) return 1;
  free(moves);
  return 0;
}
