/*
** cs_internal.h: every internal header at once, for the C tests and the
** fuzzers that reach inside the core. The core's own files include only
** the headers of what they use (see docs/DESIGN.md, "Files"):
**   cs_alloc.h   allocation, buffers, limits
**   cs_geom.h    closest point, ray and box tests
**   cs_bvh.h     a mesh's triangle tree
**   cs_mesh.h    the mesh layout
**   cs_body.h    the body layout and its bounds
**   cs_broad.h   the tree over body bounds
**   cs_sweep.h   the swept unit sphere against a triangle
**   cs_espace.h  the ellipsoid-space map
**   cs_mover.h   the mover layout
**   cs_slide.h   the response on a gathered set
**   cs_world.h   the world layout, the gather
**   cs_sensor.h  sensor volumes: closedness, inside, path crossings
**   cs_ellipsoid.h  another mover's ellipsoid: distance, sweep
*/
#ifndef CS_INTERNAL_H
#define CS_INTERNAL_H

#include "cs_alloc.h"
#include "cs_geom.h"
#include "cs_bvh.h"
#include "cs_mesh.h"
#include "cs_body.h"
#include "cs_broad.h"
#include "cs_sweep.h"
#include "cs_espace.h"
#include "cs_mover.h"
#include "cs_slide.h"
#include "cs_world.h"
#include "cs_sensor.h"
#include "cs_ellipsoid.h"

#endif
