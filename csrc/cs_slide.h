/*
** cs_slide.h: the response (cs_slide.c): one whole collideAndSlide of a
** mover on one gathered set of triangles. The world gathers and resolves
** (bodies, filter answers, friction) and hands the set down; the slide
** works on the set and the mover alone and never calls the world.
*/
#ifndef CS_SLIDE_H
#define CS_SLIDE_H

#include "cs_espace.h"
#include "cs_mover.h"
#include "cs_sensor.h"
#include "cs_ellipsoid.h"

/* A growable array of contacts (the world's scratch for one move). */
typedef struct cs_ContactBuf { cs_Contact *data; size_t count, cap; } cs_ContactBuf;

/* Everything one call works on. */
typedef struct cs_SlideSet {
  /* what the world gathered: the triangles in es (the mover's ellipsoid
  ** space at es->c0), each with its body (bodies[tri.body]), response and
  ** friction resolved; they hold everything within reach (world units) of
  ** the mover's position, which is where the call starts */
  const cs_ESpace *es;
  cs_TriES *tris;         /* the carry pass hides the carrier's for a while */
  size_t ntris;
  const cs_Body *const *bodies;
  double reach;
  double push_reach;      /* world units a push out of the movers the start
                          ** overlaps may go, when more than 4 radii (0:
                          ** none; within reach) */
  int known_clear;        /* the mover overlapped nothing at the end of its
                          ** last call and nothing changed since */
  size_t nonesided;       /* nonzero when some of tris are one-sided
                          ** (backfaces ignored): a move may pass into
                          ** those from behind */
  /* the moves, world space */
  cs_Vec3 walk;
  const cs_Vec3 *gravity; /* NULL: no gravity pass */
  cs_Vec3 carry;          /* how the ground body moved its rider */
  const cs_Body *carrier; /* that body, or NULL */
  const cs_Vec3 *last_safe;  /* where the mover last ended clear in this
                          ** world (NULL: nowhere, or teleported since):
                          ** depenetration's last resort */
  const cs_Vec3 *side_ref;  /* that place while no body of the world moved
                          ** since (NULL: none): the side the mover came
                          ** from (depenetration) */
  int motion;             /* the mover's last call was in this world, and it
                          ** was not teleported since: a body placed since
                          ** (cs_Body.moved_version after `since`) pushes it
                          ** out of its solid the way it moved */
  unsigned since;
  /* scratch for the call's contacts, grown with alloc */
  cs_ContactBuf *contacts;
  const cs_Alloc *alloc;
  /* the sensors whose crossings the call records (issue 16): NULL, or the
  ** world's, their bounds current, with the world's id and scratch for the
  ** centre's path */
  cs_Sensor *const *sensors;
  size_t nsensors;
  uint64_t world;
  cs_SensorScratch *path;
  /* the other movers near the call (issue 14): ellipsoids in es, each with
  ** its mover; the one carrying the mover (its ground) is passed through
  ** during the carry pass */
  const cs_EllipsoidES *ells;
  const cs_Mover *const *ell_movers;
  const unsigned char *ell_resp;  /* each one's cs_Response (the mover filter's) */
  size_t nells;
  const cs_Mover *carrier_mover;
} cs_SlideSet;

/* Moves the mover through the set: its position, contacts, ground state,
** last safe place. Returns 1 in *ends_clear when it ends overlapping
** nothing of the set (0 on a failure, when the mover is left as it was). */
cs_Status cs_slide_move(cs_Mover *m, const cs_SlideSet *set, int *ends_clear);

/* The push out of an overlap that cs_slide_move would make first, at the
** call's start (depenetrate; the carry pass left out), in world units,
** into *push: 1 when it frees the mover so, else 0 (*push 0: it overlaps
** nothing, or no straight push frees it; the jump back to its last safe
** place is no push). Writes nothing but *push (not the mover): the world asks it with some
** movers left out of the set (cs_world.c, the riders a push takes along). */
int cs_slide_push_out(cs_Mover *m, const cs_SlideSet *set, cs_Vec3 *push);

#endif
