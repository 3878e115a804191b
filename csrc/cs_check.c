/*
** cs_check.c: the argument checks of the public C functions (cs_check.h).
*/
#include <float.h>
#include <stdarg.h>
#include <stdio.h>

#include "cs_check.h"

const char *const cs_names_xyz[3] = {"x", "y", "z"};

cs_Status cs_fail(cs_Error *e, cs_Status s, int arg, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
  e->status = s;
  e->arg = arg;
  return s;
}

const char *cs_fmtnum(char buf[CS_NUMBUF], double d) {
  if (d != d) return "NaN";
  if (isinf(d)) return d > 0 ? "inf" : "-inf";
  snprintf(buf, CS_NUMBUF, "%.14g", d);
  return buf;
}

cs_Status cs_check_finite(cs_Error *e, int arg, const char *name, double x) {
  char b[CS_NUMBUF];
  if (!isfinite(x)) return cs_fail(e, CS_EINVAL, arg, "%s is %s", name, cs_fmtnum(b, x));
  return CS_OK;
}

cs_Status cs_check_coord(cs_Error *e, int arg, const char *name, double x) {
  char b[CS_NUMBUF];
  if (!isfinite(x)) return cs_fail(e, CS_EINVAL, arg, "%s is %s", name, cs_fmtnum(b, x));
  if (fabs(x) > CS_MAX_COORD)
    return cs_fail(e, CS_ERANGE, arg, "%s is out of range (|%s| > 1e30), got %s", name, name,
                   cs_fmtnum(b, x));
  return CS_OK;
}

cs_Status cs_check_vec_slow(cs_Error *e, int arg, const char *const names[3], const cs_Vec3 *v) {
  cs_Status s;
  if ((s = cs_check_coord(e, arg, names[0], v->x)) != CS_OK) return s;
  if ((s = cs_check_coord(e, arg + 1, names[1], v->y)) != CS_OK) return s;
  return cs_check_coord(e, arg + 2, names[2], v->z);
}

cs_Status cs_check_radius(cs_Error *e, int arg, const char *name, double r) {
  char b[CS_NUMBUF];
  if (!isfinite(r)) return cs_fail(e, CS_EINVAL, arg, "%s is %s", name, cs_fmtnum(b, r));
  if (!(r > 0)) return cs_fail(e, CS_EINVAL, arg, "%s must be > 0, got %s", name, cs_fmtnum(b, r));
  if (r < CS_MIN_RADIUS)
    return cs_fail(e, CS_EINVAL, arg, "%s is too small (< 1e-20), got %s", name, cs_fmtnum(b, r));
  if (r > CS_MAX_COORD)
    return cs_fail(e, CS_ERANGE, arg, "%s is out of range (|%s| > 1e30), got %s", name, name,
                   cs_fmtnum(b, r));
  return CS_OK;
}

cs_Status cs_check_radii(cs_Error *e, int arg, const char *const names[3], const cs_Vec3 *r) {
  cs_Status s;
  if ((s = cs_check_radius(e, arg, names[0], r->x)) != CS_OK) return s;
  if ((s = cs_check_radius(e, arg + 1, names[1], r->y)) != CS_OK) return s;
  return cs_check_radius(e, arg + 2, names[2], r->z);
}

cs_Status cs_check_ellipsoid(cs_Error *e, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4]) {
  static const char *const rxyz[3] = {"rx", "ry", "rz"}, *const qxyzw[4] = {"qx", "qy", "qz", "qw"};
  cs_Status s;
  if ((s = cs_check_vec(e, 1, cs_names_xyz, p)) != CS_OK || (s = cs_check_radii(e, 4, rxyz, r)) != CS_OK)
    return s;
  return q ? cs_check_quat(e, 7, qxyzw, q) : CS_OK;
}

cs_Status cs_check_quat(cs_Error *e, int arg, const char *const names[4], const double q[4]) {
  double n2;
  int i;
  cs_Status s;
  for (i = 0; i < 4; i++)
    if ((s = cs_check_finite(e, arg + i, names[i], q[i])) != CS_OK) return s;
  if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
    return cs_fail(e, CS_EINVAL, arg, "quaternion is zero");
  n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (!(n2 >= DBL_MIN) || !isfinite(n2))
    return cs_fail(e, CS_EINVAL, arg, "quaternion length out of range");
  return CS_OK;
}

cs_Status cs_check_dir(cs_Error *e, int arg, const char *const names[3], const cs_Vec3 *v,
                       const char *what) {
  double n2;
  cs_Status s;
  if ((s = cs_check_finite(e, arg, names[0], v->x)) != CS_OK ||
      (s = cs_check_finite(e, arg + 1, names[1], v->y)) != CS_OK ||
      (s = cs_check_finite(e, arg + 2, names[2], v->z)) != CS_OK)
    return s;
  if (v->x == 0 && v->y == 0 && v->z == 0) return cs_fail(e, CS_EINVAL, arg, "%s is zero", what);
  n2 = v->x * v->x + v->y * v->y + v->z * v->z;
  if (!(n2 >= DBL_MIN) || !isfinite(n2))
    return cs_fail(e, CS_EINVAL, arg, "%s length out of range", what);
  return CS_OK;
}
