/*
** sweep_reference.h: a slow, independent reference for the swept unit sphere
** against one triangle (conservative advancement on the exact distance, in
** long double), and a generator of sweep cases with known answers.
*/
#ifndef SWEEP_REFERENCE_H
#define SWEEP_REFERENCE_H

/* The unit sphere centred at base + t vel, t in [0, 1], against triangle abc.
** Returns 1 with the first contact's *t_out and point_out (on the triangle),
** 0 when it never touches. An overlap at t = 0 (distance < 1) gives t = 0 and
** the nearest point. one_sided: a triangle is skipped entirely when
** dot(vel, (b - a) x (c - a)) >= 0 (the papers' backface test). */
int ref_sweep_sphere_triangle(const double base[3], const double vel[3],
                              const double a[3], const double b[3], const double c[3],
                              int one_sided, double *t_out, double point_out[3]);

/* The nearest point of triangle abc to p, in long double, by projection onto
** the plane when inside, else the nearest of the three edges (a method
** unrelated to Ericson's). Returns the distance. */
long double ref_closest_on_triangle(const long double p[3], const long double a[3],
                                    const long double b[3], const long double c[3],
                                    long double out[3]);

/* A small deterministic generator (splitmix64); no globals. */
typedef struct ref_Rng { unsigned long long s; } ref_Rng;
void ref_rng_seed(ref_Rng *r, unsigned long long seed);
double ref_rng_uniform(ref_Rng *r);                 /* [0, 1) */
double ref_rng_range(ref_Rng *r, double lo, double hi);

enum {
  REF_FACE = 0,     /* first contact inside a face */
  REF_EDGE,         /* on an edge */
  REF_VERTEX,       /* at a vertex */
  REF_MISS_AWAY,    /* moving away from a nearby triangle */
  REF_MISS_SHORT,   /* heading for a contact the displacement does not reach (t > 1) */
  REF_GRAZE_MISS,   /* passing 1e-3 beside the triangle */
  REF_GRAZE_HIT,    /* passing 1e-3 inside: a shallow hit */
  REF_SLIVER,       /* a contact on a sliver (a vertex 1e-7 from its opposite edge) */
  REF_THIN,         /* a contact on a long thin triangle (100 by 0.01) */
  REF_OVERLAP,      /* already overlapping at t = 0 */
  REF_PARALLEL,     /* motion parallel to the plane, meeting an edge */
  REF_PARALLEL_MISS,/* motion parallel to the plane, above it by more than 1 */
  REF_KIND_COUNT
};

/* Does triangle v[0..2] keep a point inside the box [lo - g, hi + g]? By
** clipping the triangle against the box's six planes (a brute force for
** cs_triangle_box_overlap, apart from its separating axes). */
int ref_triangle_box_overlap(const long double lo[3], const long double hi[3],
                             const long double v[3][3], long double g);

/* One generated case. When expect_hit is 1, expect_t and expect_point are the
** first contact by construction (a point q of the triangle and a direction m
** in q's normal cone put the centre at q + m at time expect_t while the
** distance, a convex function of time, is decreasing there). */
typedef struct ref_Case {
  int kind;
  double base[3], vel[3];
  double a[3], b[3], c[3];
  int one_sided;
  int expect_hit;
  double expect_t;
  double expect_point[3];
} ref_Case;

/* Fills *out with a random case of the kind (REF_*); one_sided is drawn at
** random and expect_hit accounts for it. */
void ref_case_make(ref_Rng *rng, int kind, ref_Case *out);
const char *ref_case_kind_name(int kind);

#endif
