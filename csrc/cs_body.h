/*
** cs_body.h: a body's layout: a placed instance of a mesh (cs_mesh.h) in a
** world. The world (cs_world.c) adds, removes and places bodies; cs_body.c
** keeps a body's world bounds current with its mesh, and calls nothing but
** the mesh's refit.
*/
#ifndef CS_BODY_H
#define CS_BODY_H

#include "cs_mesh.h"

enum { CS_XFORM_TRANSLATE = 0, CS_XFORM_GENERAL = 1 };

struct cs_Body {
  cs_World *world;        /* its world, as an identity only (never called) */
  cs_Mesh *mesh;
  size_t slot;            /* index in world->bodies */
  cs_Mat3 A, Ainv;        /* linear part (R S) and its inverse */
  cs_Vec3 T;              /* translation */
  int xform;              /* CS_XFORM_* */
  double sigma_min;       /* lower bound of A's smallest singular value */
  cs_Vec3 vel;
  unsigned layers;
  int enabled;
  void *userdata;
  cs_Vec3 lo, hi;         /* world bounds */
  unsigned mesh_version;  /* of the mesh when lo/hi were computed */
  unsigned changed;       /* the world's version when it was last moved
                          ** (placed elsewhere, its mesh's vertices edited),
                          ** added, enabled or given other layers (a stuck
                          ** mover's jump back to its last safe place,
                          ** cs_slide.c) */
  unsigned changed_mesh;  /* the mesh's version `changed` counts */
  cs_Mat3 prevA;          /* its placement before it was first moved after */
  cs_Vec3 prevT;          /* the world's last move (cs_World.last_call) */
  unsigned moved_version; /* the world's version at that move (a mover's push
                          ** out of it follows the way it moved: cs_slide.c,
                          ** motion_of) */
  unsigned added_version; /* the world's version when it was added */
  unsigned placed;        /* bumped whenever it is placed elsewhere: a rider
                          ** whose ground it is sees it unmoved since its
                          ** last call (cs_Mover.ground_placed) */
  unsigned generation;    /* bumped when removed (and when reused) */
  int alive;              /* in its world (removed bodies are kept for reuse) */
  int riders;             /* an added mover stood on it at its last call (a hint) */
  uint32_t broad_leaf;    /* its leaf in the world's tree (cs_broad.c), when in it */
  int broad_queued;       /* in the tree's list of bodies to refit */
};

/* Where the body's placement puts p, a point of its mesh's space: A p + T. */
CS_INLINE cs_Vec3 cs_body_to_world(const cs_Body *b, cs_Vec3 p) {
  return v3_add(m3_apply(&b->A, p), b->T);
}

/* Recomputes the body's world bounds from its mesh's (refitting the mesh
** first if it was edited). */
void cs_body_update_bounds(cs_Body *b);
/* Was the body's mesh edited since its bounds were computed? */
CS_INLINE int cs_body_stale(const cs_Body *b) {
  return b->mesh->dirty || b->mesh_version != b->mesh->version;
}
/* Brings a body's bounds up to date with its mesh's vertex edits. */
CS_INLINE void cs_body_refresh(cs_Body *b) {
  if (cs_body_stale(b)) cs_body_update_bounds(b);
}

#endif
