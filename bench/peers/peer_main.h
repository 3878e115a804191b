/*
** peer_main.h: the driver loop every peer driver shares (C++): for each
** shape the peer offers, R rounds of [ours, peer] runs alternated in one
** process, each a full run of the walkers workload from the spawn points;
** prints steps/s of each run, the ratio per round and the medians.
**
** A driver defines a Peer with name(), shapes (labels), build(scene) and
** run(scene, shape, frames, &fell) returning the CPU seconds of the frames,
** and calls peer_main(argc, argv, peer).
*/
#ifndef PEER_MAIN_H
#define PEER_MAIN_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "peer.h"

struct Peer {
  virtual ~Peer() {}
  virtual const char *name() const = 0;
  /* labels of the shapes it runs, e.g. "sphere 0.5" */
  virtual std::vector<std::string> shapes() const = 0;
  /* builds its mesh from the scene's parsed OBJ; returns seconds */
  virtual double build(PeerScene *ps) = 0;
  virtual double bytes_per_tri() const = 0;
  /* one run of `frames` frames from the spawn points: CPU seconds; *fell
  ** and *travel as peer_run_ours gives them */
  virtual double run(PeerScene *ps, int shape, int frames, int *fell, double *travel) = 0;
};

static double peer_median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static int peer_main(int argc, char **argv, Peer &peer) {
  const char *path = NULL;
  int rounds = 3, frames = 600, i;
  PeerScene *ps;
  double peer_build;
  for (i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::atoi(argv[++i]);
    else if (argv[i][0] != '-' && !path) path = argv[i];
    else path = NULL, i = argc;
  }
  if (!path || rounds < 1 || frames < 1) {
    std::fprintf(stderr, "usage: %s SCENE.obj [--rounds R] [--frames F]\n", argv[0]);
    return 2;
  }
  ps = peer_load(path);
  peer_build = peer.build(ps);
  peer_drop_obj(ps);
  std::printf("scene %s: build ours %.3f s (%.1f bytes/tri), %s %.3f s (%.1f bytes/tri); "
              "%d movers x %d frames, %d rounds of [ours, %s]\n",
              peer_name(ps), peer_build_s(ps), peer_bytes_per_tri(ps), peer.name(), peer_build,
              peer.bytes_per_tri(), PEER_MOVERS, frames, rounds, peer.name());
  std::printf("RESULT impl=%s-build scene=%s ours_build_s=%.4f peer_build_s=%.4f "
              "ours_bytes_per_tri=%.2f peer_bytes_per_tri=%.2f\n", peer.name(), peer_name(ps),
              peer_build_s(ps), peer_build, peer_bytes_per_tri(ps), peer.bytes_per_tri());
  std::vector<std::string> shapes = peer.shapes();
  for (size_t s = 0; s < shapes.size(); s++) {
    std::vector<double> ours, theirs, ratio;
    int fell_ours = 0, fell_peer = 0;
    double trav_ours = 0, trav_peer = 0;
    for (int r = 0; r < rounds; r++) {
      double steps = (double)PEER_MOVERS * frames;
      double a = steps / peer_run_ours(ps, frames, &fell_ours, &trav_ours);
      double b = steps / peer.run(ps, (int)s, frames, &fell_peer, &trav_peer);
      ours.push_back(a);
      theirs.push_back(b);
      ratio.push_back(a / b);
      std::printf("  round %d: ours %.0f steps/s (fell %d, travel %.1f m), %s %s %.0f steps/s "
                  "(fell %d, travel %.1f m): ours/%s %.2f\n", r + 1, a, fell_ours, trav_ours,
                  peer.name(), shapes[s].c_str(), b, fell_peer, trav_peer, peer.name(), a / b);
      std::fflush(stdout);
    }
    std::printf("  median: ours %.0f, %s %s %.0f steps/s, ours/%s %.2f (per round: %.2f-%.2f)\n",
                peer_median(ours), peer.name(), shapes[s].c_str(), peer_median(theirs),
                peer.name(), peer_median(ratio), *std::min_element(ratio.begin(), ratio.end()),
                *std::max_element(ratio.begin(), ratio.end()));
    std::printf("RESULT impl=%s scene=%s shape=%s ours_steps_per_s=%.0f peer_steps_per_s=%.0f "
                "ratio=%.3f ratio_min=%.3f ratio_max=%.3f fell_ours=%d fell_peer=%d travel_ours=%.2f travel_peer=%.2f\n",
                peer.name(), peer_name(ps), shapes[s].substr(0, shapes[s].find(' ')).c_str(),
                peer_median(ours), peer_median(theirs), peer_median(ratio),
                *std::min_element(ratio.begin(), ratio.end()),
                *std::max_element(ratio.begin(), ratio.end()), fell_ours, fell_peer, trav_ours,
                trav_peer);
  }
  std::printf("  peak RSS %.0f MB\n", peer_peak_rss_mb());
  peer_free(ps);
  return 0;
}

#endif
