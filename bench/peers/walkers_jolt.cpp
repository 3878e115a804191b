/*
** walkers_jolt.cpp: the "walkers" workload (../shared/bench/README.md) run
** by Jolt Physics' CharacterVirtual on a static MeshShape, alternated with
** ours in one process (peer_main.h). Jolt has no ellipsoid: a sphere of
** radius 0.5 and a capsule of radius 0.4 and total height 1.8 (cylinder
** half height 0.5). Jolt's own defaults otherwise (max slope 50 degrees
** unless set: set to 45 here like ours and Bullet's; predictive contact
** distance 0.1, padding 0.02), supporting volume the lower half of the shape.
**
** The workload's vertical speed is ours (README): each frame vy -= 9.81 dt,
** the velocity (walk / dt, vy, walk / dt) is set, CharacterVirtual::Update
** runs, and vy = 0 when its ground state is OnGround. Characters do not
** collide with each other (ours do not either).
**
** Jolt is not packaged in Debian and none of its code is in this
** repository: `make bench-peers JOLT_DIR=/path/to/JoltPhysics` builds this
** file against the user's own build of it (see the Makefile).
*/
#include <Jolt/Jolt.h>

#include <Jolt/Core/Factory.h>
#include <Jolt/Core/TempAllocator.h>
#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Character/CharacterVirtual.h>
#include <Jolt/Physics/Collision/Shape/CapsuleShape.h>
#include <Jolt/Physics/Collision/Shape/MeshShape.h>
#include <Jolt/Physics/Collision/Shape/SphereShape.h>
#include <Jolt/Physics/PhysicsSystem.h>
#include <Jolt/RegisterTypes.h>

#include <memory>

#include "peer_main.h"

using namespace JPH;

namespace {

enum : ObjectLayer { LAYER_STATIC = 0, LAYER_MOVING = 1, NUM_LAYERS = 2 };

class BPLayers final : public BroadPhaseLayerInterface {
 public:
  uint GetNumBroadPhaseLayers() const override { return 2; }
  BroadPhaseLayer GetBroadPhaseLayer(ObjectLayer l) const override { return BroadPhaseLayer((uint8)l); }
#if defined(JPH_EXTERNAL_PROFILE) || defined(JPH_PROFILE_ENABLED)
  const char *GetBroadPhaseLayerName(BroadPhaseLayer l) const override {
    return (BroadPhaseLayer::Type)l == 0 ? "static" : "moving";
  }
#endif
};

class ObjVsBP final : public ObjectVsBroadPhaseLayerFilter {
 public:
  bool ShouldCollide(ObjectLayer o, BroadPhaseLayer b) const override {
    return o == LAYER_MOVING && (BroadPhaseLayer::Type)b == LAYER_STATIC;
  }
};

class ObjPairs final : public ObjectLayerPairFilter {
 public:
  bool ShouldCollide(ObjectLayer a, ObjectLayer b) const override {
    return (a == LAYER_MOVING) != (b == LAYER_MOVING);
  }
};

}  // namespace

struct JoltPeer : Peer {
  BPLayers bpl;
  ObjVsBP ovb;
  ObjPairs pairs;
  std::unique_ptr<PhysicsSystem> system;
  std::unique_ptr<TempAllocatorImpl> temp;
  RefConst<Shape> mesh, sphere, capsule;
  size_t ntris = 0;

  JoltPeer() {
    RegisterDefaultAllocator();
    Factory::sInstance = new Factory();
    RegisterTypes();
    temp.reset(new TempAllocatorImpl(32 * 1024 * 1024));
    system.reset(new PhysicsSystem());
    system->Init(16, 0, 1024, 1024, bpl, ovb, pairs);
    sphere = new SphereShape(0.5f);
    capsule = new CapsuleShape(0.5f, 0.4f);
  }
  ~JoltPeer() override {
    system.reset();
    UnregisterTypes();
    delete Factory::sInstance;
    Factory::sInstance = nullptr;
  }
  const char *name() const override { return "jolt"; }
  std::vector<std::string> shapes() const override {
    return {"sphere 0.5", "capsule 0.4/1.8"};
  }

  double build(PeerScene *ps) override {
    size_t nv, nt;
    const double *v = peer_vertices(ps, &nv);
    const unsigned *f = peer_indices(ps, &nt);
    double t0 = peer_wall();
    VertexList verts;
    IndexedTriangleList tris;
    verts.reserve(nv);
    tris.reserve(nt);
    for (size_t i = 0; i < nv; i++)
      verts.push_back(Float3((float)v[3 * i], (float)v[3 * i + 1], (float)v[3 * i + 2]));
    for (size_t i = 0; i < nt; i++)
      tris.push_back(IndexedTriangle(f[3 * i], f[3 * i + 1], f[3 * i + 2], 0));
    MeshShapeSettings settings(std::move(verts), std::move(tris));
    Shape::ShapeResult r = settings.Create();
    if (r.HasError()) {
      std::fprintf(stderr, "walkers_jolt: MeshShape: %s\n", r.GetError().c_str());
      std::exit(1);
    }
    mesh = r.Get();
    double t = peer_wall() - t0;
    ntris = nt;
    BodyInterface &bi = system->GetBodyInterface();
    bi.CreateAndAddBody(BodyCreationSettings(mesh, RVec3::sZero(), Quat::sIdentity(),
                                             EMotionType::Static, LAYER_STATIC),
                        EActivation::DontActivate);
    system->OptimizeBroadPhase();
    return t;
  }

  double bytes_per_tri() const override {
    return (double)mesh->GetStats().mSizeBytes / (double)ntris;
  }

  double run(PeerScene *ps, int shape, int frames, int *fell, double *travel) override {
    Ref<CharacterVirtualSettings> cs = new CharacterVirtualSettings();
    float radius = shape == 0 ? 0.5f : 0.4f, half = shape == 0 ? 0.5f : 0.9f;
    cs->mShape = shape == 0 ? sphere : capsule;
    cs->mMaxSlopeAngle = DegreesToRadians(45.0f);
    cs->mSupportingVolume = Plane(Vec3::sAxisY(), -(half - radius));  /* the lower cap */
    std::vector<Ref<CharacterVirtual>> ch(PEER_MOVERS);
    std::vector<double> vy(PEER_MOVERS, 0.0), wx(PEER_MOVERS), wz(PEER_MOVERS);
    for (int i = 0; i < PEER_MOVERS; i++) {      /* fresh characters every run */
      double p[3];
      peer_spawn(ps, i, p);
      ch[i] = new CharacterVirtual(cs, RVec3((Real)p[0], (Real)p[1], (Real)p[2]),
                                   Quat::sIdentity(), system.get());
    }
    DefaultBroadPhaseLayerFilter bpf(ovb, LAYER_MOVING);
    DefaultObjectLayerFilter olf(pairs, LAYER_MOVING);
    BodyFilter bf;
    ShapeFilter sf;
    const Vec3 gravity(0, (float)-PEER_GRAVITY, 0);
    const float dt = (float)PEER_DT;
    double c0 = peer_cpu();
    for (int f = 0; f < frames; f++) {
      if (f % PEER_SEGMENT_FRAMES == 0)
        for (int i = 0; i < PEER_MOVERS; i++)
          peer_walk(i, f / PEER_SEGMENT_FRAMES, PEER_DT, &wx[i], &wz[i]);
      for (int i = 0; i < PEER_MOVERS; i++) {
        vy[i] -= PEER_GRAVITY * PEER_DT;
        ch[i]->SetLinearVelocity(Vec3((float)(wx[i] / PEER_DT), (float)vy[i],
                                      (float)(wz[i] / PEER_DT)));
        ch[i]->Update(dt, gravity, bpf, olf, bf, sf, *temp);
        if (ch[i]->GetGroundState() == CharacterBase::EGroundState::OnGround) vy[i] = 0.0;
      }
    }
    double t = peer_cpu() - c0;
    *fell = 0;
    *travel = 0;
    for (int i = 0; i < PEER_MOVERS; i++) {
      RVec3 o = ch[i]->GetPosition();
      double p[3] = {(double)o.GetX(), (double)o.GetY(), (double)o.GetZ()};
      *fell += peer_fell(ps, p);
      *travel += peer_travel(ps, i, p) / PEER_MOVERS;
    }
    return t;
  }
};

int main(int argc, char **argv) {
  JoltPeer peer;
  return peer_main(argc, argv, peer);
}
