/*
** cs_check.h: argument checks of the public C functions (cs_check.c). Each
** check names the argument and the problem in the caller's cs_Error (the
** object's, see collideslide.h) and returns its status, so every binding
** and every C engine gets the same checks and the same words.
*/
#ifndef CS_CHECK_H
#define CS_CHECK_H

#include "cs_alloc.h"

/* Records s, arg and the formatted message in e; returns s. */
cs_Status cs_fail(cs_Error *e, cs_Status s, int arg, const char *fmt, ...);
/* cs_fail with no argument at fault and the status's own words
** (cs_status_string: "not enough memory", ...). */
CS_INLINE cs_Status cs_fail_status(cs_Error *e, cs_Status s) {
  return cs_fail(e, s, 0, "%s", cs_status_string(s));
}
CS_INLINE cs_Status cs_ok(cs_Error *e) { e->status = CS_OK; e->arg = 0; e->message[0] = '\0'; return CS_OK; }

/* A number as the messages show it: NaN, inf, -inf, or %.14g. */
#define CS_NUMBUF 32
const char *cs_fmtnum(char buf[CS_NUMBUF], double d);

/* x finite ("name is NaN"). */
cs_Status cs_check_finite(cs_Error *e, int arg, const char *name, double x);
/* x finite and |x| <= CS_MAX_COORD ("name is out of range ..."). */
cs_Status cs_check_coord(cs_Error *e, int arg, const char *name, double x);
/* The three components of v, arg naming the first, by cs_check_coord; the
** common case (all in range, NaN fails every comparison) inline. */
cs_Status cs_check_vec_slow(cs_Error *e, int arg, const char *const names[3], const cs_Vec3 *v);
CS_INLINE cs_Status cs_check_vec(cs_Error *e, int arg, const char *const names[3], const cs_Vec3 *v) {
  if (fabs(v->x) <= CS_MAX_COORD && fabs(v->y) <= CS_MAX_COORD && fabs(v->z) <= CS_MAX_COORD)
    return CS_OK;
  return cs_check_vec_slow(e, arg, names, v);
}
/* A radius component: finite, in [CS_MIN_RADIUS, CS_MAX_COORD]. */
cs_Status cs_check_radius(cs_Error *e, int arg, const char *name, double r);
cs_Status cs_check_radii(cs_Error *e, int arg, const char *const names[3], const cs_Vec3 *r);
/* A quaternion (finite components, not zero, a length whose square is a
** normal double); arg names its first component. */
cs_Status cs_check_quat(cs_Error *e, int arg, const char *const names[4], const double q[4]);
/* An ellipsoid as the queries take it: its centre p (arguments 1-3), radii r
** (4-6) and orientation q (7-10; NULL: none). */
cs_Status cs_check_ellipsoid(cs_Error *e, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4]);
/* A direction: finite, not zero, a length whose square is a normal double. */
cs_Status cs_check_dir(cs_Error *e, int arg, const char *const names[3], const cs_Vec3 *v,
                       const char *what);

extern const char *const cs_names_xyz[3];

#endif
