/*
** binding_cost.c: what a crowd's move costs without geometry, from C (issue
** 15): 1024 movers in a world with no body, one cs_world_collide_and_slide_many
** per frame, and the same as a loop of cs_world_collide_and_slide. The core's
** share of bench/binding_cost.lua's figures: their difference is the Lua
** binding's own cost per mover (reading the moves, checking the movers,
** writing the centres and the ground states).
**
** usage: binding_cost [FRAMES]    (CPU time, ns per mover)
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "collideslide.h"

#define N 1024

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void check(cs_Status s, const char *what) {
  if (s != CS_OK) { fprintf(stderr, "binding_cost: %s: %s\n", what, cs_status_string(s)); exit(1); }
}

int main(int argc, char **argv) {
  int frames = argc > 1 ? atoi(argv[1]) : 2000, f, i;
  const cs_Alloc a = cs_default_alloc();
  static cs_Mover *m[N];
  static double moves[6 * N], out[3 * N];
  static unsigned char moved[N];
  size_t failed;
  double t0, batch, loop;
  cs_World *w;
  if (frames < 1) { fprintf(stderr, "usage: binding_cost [FRAMES]\n"); return 2; }
  check(cs_world_new(&a, &w), "cs_world_new");
  for (i = 0; i < N; i++) {               /* as bench/binding_cost.lua places them */
    cs_Vec3 p = {3.0 * (i + 1), 0, 0}, r = {0.4, 0.9, 0.4};
    check(cs_mover_new(&a, &m[i]), "cs_mover_new");
    check(cs_mover_set_radius(m[i], &r), "cs_mover_set_radius");
    check(cs_mover_set_position(m[i], &p), "cs_mover_set_position");
    moves[6 * i] = 0.1;
    moves[6 * i + 4] = -0.001;
  }
  for (f = 0; f < frames / 10 + 1; f++)   /* warm: the batch's memory, the caches */
    check(cs_world_collide_and_slide_many(w, m, N, moves, 6, out, moved, &failed), "the batch");
  t0 = now();
  for (f = 0; f < frames; f++)
    check(cs_world_collide_and_slide_many(w, m, N, moves, 6, out, moved, &failed), "the batch");
  batch = (now() - t0) / ((double)frames * N) * 1e9;
  t0 = now();
  for (f = 0; f < frames; f++)
    for (i = 0; i < N; i++) {
      cs_Vec3 walk = {0.1, 0, 0}, grav = {0, -0.001, 0};
      check(cs_world_collide_and_slide(w, m[i], &walk, &grav), "the loop");
    }
  loop = (now() - t0) / ((double)frames * N) * 1e9;
  printf("binding_cost, C: %d movers, no geometry: batch %.1f ns per mover, loop %.1f ns per mover\n",
         N, batch, loop);
  for (i = 0; i < N; i++) cs_mover_free(m[i]);
  cs_world_free(w);
  return 0;
}
