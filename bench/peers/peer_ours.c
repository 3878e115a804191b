/*
** peer_ours.c: our side of the peer comparisons (peer.h), built from
** bench/walkers.c itself (its OBJ reader, spawn points, walk directions and
** frame loop), so that `make bench-peers` runs ours exactly as `make bench`.
*/
#define WALKERS_NO_MAIN
#include "../walkers.c"

#include "peer.h"

struct PeerScene {
  Scene sc;
  Walkers w;
  Obj obj;
  char name[128];
  double parse_s, build_s;
};

PeerScene *peer_load(const char *path) {
  const cs_Alloc a = cs_default_alloc();
  PeerScene *ps = calloc(1, sizeof *ps);
  const char *base = strrchr(path, '/');
  cs_MeshDesc desc;
  cs_Body *body;
  size_t bad = 0;
  double t0;
  if (!ps) die("out of memory", NULL);
  base = base ? base + 1 : path;
  snprintf(ps->name, sizeof ps->name, "%.*s", (int)strcspn(base, "."), base);
  t0 = now_wall();
  obj_load(path, &ps->obj);
  ps->parse_s = now_wall() - t0;
  memset(&desc, 0, sizeof desc);
  desc.vertices = ps->obj.v;
  desc.vertex_count = ps->obj.nv;
  desc.indices = ps->obj.f;
  desc.triangle_count = ps->obj.nf;
  desc.backfaces = CS_BACKFACES_COLLIDE;
  t0 = now_wall();
  check(cs_mesh_new(&a, &desc, &ps->sc.mesh, &bad), "cs_mesh_new");
  ps->build_s = now_wall() - t0;
  check(cs_world_new(&a, &ps->sc.world), "cs_world_new");
  check(cs_world_add(ps->sc.world, ps->sc.mesh, &body), "cs_world_add");
  cs_mesh_bounds(ps->sc.mesh, &ps->sc.lo, &ps->sc.hi);
  ps->sc.kind = strncmp(base, "arena", 5) == 0 ? KIND_ARENA : KIND_TERRAIN;
  walkers_init(&ps->w, &ps->sc, PEER_MOVERS);
  return ps;
}

const char *peer_name(const PeerScene *ps) { return ps->name; }
int peer_is_arena(const PeerScene *ps) { return ps->sc.kind == KIND_ARENA; }
double peer_parse_s(const PeerScene *ps) { return ps->parse_s; }
double peer_build_s(const PeerScene *ps) { return ps->build_s; }

double peer_bytes_per_tri(const PeerScene *ps) {
  return (double)cs_mesh_memory(ps->sc.mesh) / (double)cs_mesh_triangle_count(ps->sc.mesh);
}

const double *peer_vertices(const PeerScene *ps, size_t *nv) {
  *nv = ps->obj.nv;
  return ps->obj.v;
}

const unsigned *peer_indices(const PeerScene *ps, size_t *nt) {
  *nt = ps->obj.nf;
  return ps->obj.f;
}

void peer_drop_obj(PeerScene *ps) { obj_free(&ps->obj); }

void peer_free(PeerScene *ps) {
  walkers_free(&ps->w);
  cs_world_free(ps->sc.world);
  cs_mesh_free(ps->sc.mesh);
  obj_free(&ps->obj);
  free(ps);
}

void peer_spawn(const PeerScene *ps, int i, double p[3]) {
  cs_Vec3 v = ps->w.spawn[i];
  p[0] = v.x; p[1] = v.y; p[2] = v.z;
}

void peer_walk(int i, int k, double dt, double *wx, double *wz) { walk_dir(i, k, dt, wx, wz); }

int peer_fell(const PeerScene *ps, const double p[3]) {
  if (ps->sc.kind == KIND_ARENA)
    return p[1] < 0 || fabs(p[0]) > ARENA_HALF || fabs(p[2]) > ARENA_HALF;
  {
    double s;
    return !surface_height(&ps->sc, p[0], p[2], &s) || p[1] < s;
  }
}

double peer_travel(const PeerScene *ps, int i, const double p[3]) {
  cs_Vec3 s = ps->w.spawn[i];
  return hypot(p[0] - s.x, p[2] - s.z);
}

double peer_run_ours(PeerScene *ps, int frames, int *fell, double *travel) {
  double c0, t;
  int i;
  walkers_reset(&ps->w);
  c0 = now_cpu();
  run_frames(ps->sc.world, &ps->w, 0, frames, PEER_DT);
  t = now_cpu() - c0;
  *fell = fell_through(&ps->sc, &ps->w);
  *travel = 0;
  for (i = 0; i < ps->w.n; i++) {
    cs_Vec3 p;
    double q[3];
    cs_mover_get_position(ps->w.m[i], &p);
    q[0] = p.x; q[1] = p.y; q[2] = p.z;
    *travel += peer_travel(ps, i, q) / ps->w.n;
  }
  return t;
}

double peer_cpu(void) { return now_cpu(); }
double peer_wall(void) { return now_wall(); }
double peer_peak_rss_mb(void) { return peak_rss_kb() / 1024.0; }
