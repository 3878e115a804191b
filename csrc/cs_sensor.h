/*
** cs_sensor.h: sensor volumes (cs_sensor.c): a sensor's layout, and the
** geometry the world and the slide use: is a mesh closed, is a point
** inside, and where a path crosses. The world keeps the sensors
** (cs_world.c); the slide records the path and asks for its crossings.
*/
#ifndef CS_SENSOR_H
#define CS_SENSOR_H

#include "cs_body.h"
#include "cs_mover.h"

struct cs_Sensor {
  cs_World *world;        /* its world, as an identity only (never called) */
  uint64_t world_id;      /* that world's id */
  cs_Body place;          /* its mesh and transform; place.world is NULL, so
                          ** it is in no body list or tree */
  uint64_t id;            /* unique in the process, never reused */
  size_t slot;            /* index in world->sensors */
  unsigned layers;
  void *userdata;
};

/* A call's sensor work space (the world's, reused by every call). */
typedef struct cs_SensorScratch {
  cs_Alloc alloc;
  cs_Vec3 *path;          /* the centre's path, ellipsoid space while recorded */
  double *len;            /* the path's length up to each point, world units */
  size_t npath, cappath, caplen;
  double *hits;           /* one segment's crossing parameters */
  size_t caphits;
  cs_U32Buf ids;          /* the triangles near one segment */
  double *spans;          /* its stretches in triangles' planes, [lo, hi] pairs */
  size_t capspans;
  cs_SensorEvent *events;
  size_t nevents, capevents;
  cs_SensorRef *inside;   /* the sensors the centre ends inside of */
  size_t ninside, capinside;
} cs_SensorScratch;

/* Is p (world space) inside the placed mesh? Its bounds must be current. */
int cs_sensor_contains_point(const cs_Sensor *s, cs_Vec3 p);
cs_Status cs_sensor_push_event(cs_SensorScratch *sc, const cs_Sensor *s, int enter, double t);
/* Walks one sensor along the world-space polyline path[0..n) (len[i]: the
** length up to point i) from the state *inside; appends its events. */
cs_Status cs_sensor_track(const cs_Sensor *sensor, const cs_Vec3 *path, const double *len,
                          size_t n, int *inside, cs_SensorScratch *sc);
/* Events and inside-states of the sensors[0..n) whose layers meet the
** mover's collides_with along the world-space path sc->path[0..npath), from
** what the mover remembers of them (when its last call was in the world
** with id `world`): into sc->events (in path order) and sc->inside. The
** sensors' bounds must be current (cs_body_refresh on their place). */
cs_Status cs_sensors_track(cs_Sensor *const *sensors, size_t n, uint64_t world,
                           const cs_Mover *m, cs_SensorScratch *sc);
/* Does m remember being inside some sensor of the world with this id? */
int cs_mover_inside_world(const cs_Mover *m, uint64_t world);

#endif
