/*
** walkers_bullet.cpp: the "walkers" workload (../shared/bench/README.md)
** run by Bullet's btKinematicCharacterController (Debian's libbullet-dev)
** on a btBvhTriangleMeshShape, alternated with ours in one process
** (peer_main.h). Bullet has no ellipsoid: a sphere of radius 0.5 and a
** capsule of radius 0.4 and total height 1.8, step height 0.35, its
** default max slope (45 degrees). Bullet's controller applies its own
** gravity (9.81, set on the controller), so the workload's vy is its.
**
** Per frame: the world's bounds and pairs are updated (updateAabbs,
** calculateOverlappingPairs: what stepSimulation would do for 1024 ghosts,
** without its rigid-body solver and narrowphase, which the controllers do
** not use), then each controller's updateAction (preStep + playerStep).
*/
#include <btBulletDynamicsCommon.h>
#include <BulletCollision/CollisionDispatch/btGhostObject.h>
#include <BulletDynamics/Character/btKinematicCharacterController.h>

#include "peer_main.h"

struct BulletPeer : Peer {
  btDefaultCollisionConfiguration cfg;
  btCollisionDispatcher disp;
  btDbvtBroadphase broad;
  btGhostPairCallback ghost_cb;
  btCollisionWorld world;
  std::vector<btScalar> verts;
  std::vector<int> idx;
  btTriangleIndexVertexArray *array = nullptr;
  btBvhTriangleMeshShape *mesh = nullptr;
  btCollisionObject terrain;
  btSphereShape sphere;
  btCapsuleShape capsule;
  size_t ntris = 0;

  BulletPeer() : disp(&cfg), world(&disp, &broad, &cfg), sphere(0.5), capsule(0.4, 1.0) {
    broad.getOverlappingPairCache()->setInternalGhostPairCallback(&ghost_cb);
  }
  ~BulletPeer() override {
    world.removeCollisionObject(&terrain);
    delete mesh;
    delete array;
  }
  const char *name() const override { return "bullet"; }
  std::vector<std::string> shapes() const override {
    return {"sphere 0.5", "capsule 0.4/1.8"};
  }

  double build(PeerScene *ps) override {
    size_t nv, nt;
    const double *v = peer_vertices(ps, &nv);
    const unsigned *f = peer_indices(ps, &nt);
    double t0 = peer_wall();
    verts.assign(v, v + 3 * nv);                 /* btScalar: float in Debian's build */
    idx.assign(f, f + 3 * nt);
    array = new btTriangleIndexVertexArray((int)nt, idx.data(), 3 * sizeof(int), (int)nv,
                                           verts.data(), 3 * sizeof(btScalar));
    mesh = new btBvhTriangleMeshShape(array, true, true);   /* quantized bounds */
    double t = peer_wall() - t0;
    ntris = nt;
    terrain.setCollisionShape(mesh);
    terrain.setCollisionFlags(btCollisionObject::CF_STATIC_OBJECT);
    world.addCollisionObject(&terrain, btBroadphaseProxy::StaticFilter,
                             btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter);
    return t;
  }

  double bytes_per_tri() const override {
    size_t nodes = (size_t)mesh->getOptimizedBvh()->getQuantizedNodeArray().size();
    return (double)(verts.size() * sizeof(btScalar) + idx.size() * sizeof(int) +
                    nodes * sizeof(btQuantizedBvhNode)) / (double)ntris;
  }

  double run(PeerScene *ps, int shape, int frames, int *fell, double *travel) override {
    btConvexShape *conv = shape == 0 ? (btConvexShape *)&sphere : (btConvexShape *)&capsule;
    std::vector<btPairCachingGhostObject *> ghosts(PEER_MOVERS);
    std::vector<btKinematicCharacterController *> ctrl(PEER_MOVERS);
    for (int i = 0; i < PEER_MOVERS; i++) {     /* fresh characters every run */
      double p[3];
      btTransform tr;
      peer_spawn(ps, i, p);
      tr.setIdentity();
      tr.setOrigin(btVector3((btScalar)p[0], (btScalar)p[1], (btScalar)p[2]));
      ghosts[i] = new btPairCachingGhostObject();
      ghosts[i]->setWorldTransform(tr);
      ghosts[i]->setCollisionShape(conv);
      ghosts[i]->setCollisionFlags(btCollisionObject::CF_CHARACTER_OBJECT);
      world.addCollisionObject(ghosts[i], btBroadphaseProxy::CharacterFilter,
                               btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter);
      ctrl[i] = new btKinematicCharacterController(ghosts[i], conv, 0.35, btVector3(0, 1, 0));
      ctrl[i]->setGravity(btVector3(0, (btScalar)-PEER_GRAVITY, 0));
    }
    world.updateAabbs();
    world.getBroadphase()->calculateOverlappingPairs(world.getDispatcher());
    double c0 = peer_cpu();
    for (int f = 0; f < frames; f++) {
      if (f % PEER_SEGMENT_FRAMES == 0)
        for (int i = 0; i < PEER_MOVERS; i++) {
          double wx, wz;
          peer_walk(i, f / PEER_SEGMENT_FRAMES, PEER_DT, &wx, &wz);
          ctrl[i]->setWalkDirection(btVector3((btScalar)wx, 0, (btScalar)wz));
        }
      world.updateAabbs();
      world.getBroadphase()->calculateOverlappingPairs(world.getDispatcher());
      for (int i = 0; i < PEER_MOVERS; i++) ctrl[i]->updateAction(&world, (btScalar)PEER_DT);
    }
    double t = peer_cpu() - c0;
    *fell = 0;
    *travel = 0;
    for (int i = 0; i < PEER_MOVERS; i++) {
      btVector3 o = ghosts[i]->getWorldTransform().getOrigin();
      double p[3] = {o.x(), o.y(), o.z()};
      *fell += peer_fell(ps, p);
      *travel += peer_travel(ps, i, p) / PEER_MOVERS;
      world.removeCollisionObject(ghosts[i]);
      delete ctrl[i];
      delete ghosts[i];
    }
    return t;
  }
};

int main(int argc, char **argv) {
  BulletPeer peer;
  return peer_main(argc, argv, peer);
}
