/*
** peer.h: what the peer drivers (walkers_bullet.cpp, walkers_jolt.cpp) take
** from our side: the scene as bench/walkers.c loads it, our own run of the
** "walkers" workload (../shared/bench/README.md), and the workload's
** definitions (spawn points, walk directions, the fell-through test), so that
** both sides of a comparison run the same thing in the same process.
** Implemented in peer_ours.c (C, over bench/walkers.c).
*/
#ifndef PEER_H
#define PEER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PEER_MOVERS 1024
#define PEER_DT (1.0 / 60.0)
#define PEER_GRAVITY 9.81
#define PEER_SEGMENT_FRAMES 60

typedef struct PeerScene PeerScene;

/* Loads and builds the OBJ scene (dies with a message on failure). The
** parsed arrays stay until peer_drop_obj, for the peer to build from. */
PeerScene *peer_load(const char *path);
const char *peer_name(const PeerScene *ps);
int peer_is_arena(const PeerScene *ps);
double peer_parse_s(const PeerScene *ps);
double peer_build_s(const PeerScene *ps);
double peer_bytes_per_tri(const PeerScene *ps);
/* The parsed OBJ: 3 doubles a vertex, 3 0-based indices a triangle. */
const double *peer_vertices(const PeerScene *ps, size_t *nv);
const unsigned *peer_indices(const PeerScene *ps, size_t *nt);
void peer_drop_obj(PeerScene *ps);
void peer_free(PeerScene *ps);

/* The README's spawn point of mover i, and its walk displacement in
** segment k (6 m/s * dt in x and z). */
void peer_spawn(const PeerScene *ps, int i, double p[3]);
void peer_walk(int i, int k, double dt, double *wx, double *wz);
/* Does the centre p count as fallen through (README)? */
int peer_fell(const PeerScene *ps, const double p[3]);

/* One run of ours from the spawn points: frames frames of PEER_MOVERS
** movers, exactly bench/walkers.c's loop. Returns the CPU seconds of the
** frames; *fell: movers that fell through; *travel: their mean horizontal
** distance from the spawn point at the end (a peer whose characters stick
** would show it). */
double peer_run_ours(PeerScene *ps, int frames, int *fell, double *travel);
/* The horizontal distance of p from mover i's spawn point. */
double peer_travel(const PeerScene *ps, int i, const double p[3]);

/* Process CPU seconds (CLOCK_PROCESS_CPUTIME_ID) and wall seconds. */
double peer_cpu(void);
double peer_wall(void);
/* Peak resident memory so far, MB (VmHWM). */
double peer_peak_rss_mb(void);

#ifdef __cplusplus
}
#endif

#endif
