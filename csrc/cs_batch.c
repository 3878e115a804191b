/*
** cs_batch.c: many movers in one call, on the world's threads (issue 15).
**
** The batch must give the bits of a loop over the list. A move reads the
** world (prepared first, then only read), its own mover, and the added
** movers inside its reach box (the box its centre may reach, grown by its
** extents: everything it may read or come to occupy). So two moves can
** run at once when neither can see the other: their reach boxes are apart,
** or neither mover is added to the world. A move that can see an earlier
** one in the list waits for it:
**   - the pairs whose boxes meet (one of them added), by sweep and prune;
**   - a rider and the mover it stands on (it reads that mover's last move);
**   - movers with filters, chained in list order (they run on the calling
**     thread, whose Lua state their callbacks may use, before the wave's
**     others), and every mover after one in the list no earlier than it,
**     so that a filter's error stops the later ones as the loop would.
** Each mover's level is one more than the highest level it waits for;
** the levels run one after another (waves), the movers of a wave on every
** thread. Between waves the calling thread files the moved movers in the
** movers' grid, in list order; a wave's calls only read the grid and find
** their near movers in slot order (cs_world.c), so nothing depends on
** which thread ran what, or when.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_check.h"
#include "cs_world.h"

/* What the batch knows of one listed mover. */
typedef struct Entry {
  cs_MoveStart start;     /* as checked; still true unless restart */
  int restart;            /* it stands on a mover listed before it: its
                          ** carry is known only when that one has moved */
  cs_Vec3 lo, hi;         /* its reach box */
  double disp;            /* no displacement of the call is longer */
  size_t level;
  int added;              /* added to this world: others may meet it */
  int filtered;           /* has a filter: runs on the calling thread */
  int done;               /* moved (written by the thread that ran it) */
} Entry;

/* A thread's share of a wave: order[first + next .. first + end), which it
** takes a chunk at a time, and others take from when theirs is done. Each
** thread starts on the same share in every frame, so a mover tends to run
** on the same core frame after frame and find its gathered triangles still
** in that core's cache. A cache line of its own: its owner takes from it
** often. */
typedef struct Share { size_t next, end; char pad[64 - 2 * sizeof(size_t)]; } Share;

/* The lowest failed index a thread saw, with its error. */
typedef struct Failure { size_t index; cs_Status status; cs_Error err; } Failure;

typedef struct Batch {
  cs_World *w;
  cs_Mover *const *movers;
  const double *moves;
  int stride;
  size_t n;
  Entry *e;
  size_t *order;          /* the movers by level, then index */
  size_t *start;          /* n + 1: where each level starts in order */
  /* the wave under way: order[first .. first+count), the calling thread's
  ** (filtered) ones among them too; none past limit is started */
  size_t first, count, next, limit, chunk;
  Failure fail[CS_MAX_THREADS];
  Share share[CS_MAX_THREADS];
} Batch;

/* {==================================================================
** Threads
** ===================================================================*/

cs_Status cs_world_set_threads(cs_World *w, int k) {
  char b[CS_NUMBUF];
  if (w->busy) return cs_fail_status(&w->err, CS_EBUSY);
  if (k < 1 || k > CS_MAX_THREADS)
    return cs_fail(&w->err, CS_EINVAL, 1, "threads must be in 1..%d, got %s", CS_MAX_THREADS,
                   cs_fmtnum(b, (double)k));
  if (k != w->nthreads) {
    cs_pool_free(w->pool);
    w->pool = NULL;
    w->nthreads = k;
  }
  return cs_ok(&w->err);
}

int cs_world_get_threads(const cs_World *w) { return w->nthreads; }

/* A scratch for each thread and the pool (started at the first batch). */
static cs_Status start_threads(cs_World *w) {
  int k = w->nthreads, i;
  cs_Status s;
  if (w->ntscratch < k) {
    cs_CallScratch *t = (cs_CallScratch *)cs_realloc(&w->alloc, w->tscratch,
        (size_t)w->ntscratch * sizeof *t, (size_t)k * sizeof *t);
    if (!t) return CS_ENOMEM;
    w->tscratch = t;
    for (i = 0; i < w->ntscratch; i++) t[i].err = &t[i].own_err;   /* (they moved) */
    for (; w->ntscratch < k; w->ntscratch++) cs_scratch_init(&t[w->ntscratch], &w->alloc, NULL);
  }
  if (k > 1 && !w->pool && (s = cs_pool_new(&w->alloc, k, &w->pool)) != CS_OK) return s;
  return CS_OK;
}

/* }================================================================== */

/* {==================================================================
** Checks: every argument before any mover moves
** ===================================================================*/

static cs_Status batch_fail(cs_World *w, size_t i, size_t *failed, cs_Status s, const char *msg) {
  if (failed) *failed = i;
  return cs_fail(&w->err, s, 0, "mover %lu: %s", (unsigned long)(i + 1), msg);
}

/* mover i's walk and gravity */
static void move_of(const Batch *B, size_t i, cs_Vec3 *walk, cs_Vec3 *grav) {
  const double *mv = B->moves + i * (size_t)B->stride;
  *walk = v3(mv[0], mv[1], mv[2]);
  if (B->stride == 6) *grav = v3(mv[3], mv[4], mv[5]);
}

/* The lowest failed index so far (B->n: none). */
static size_t first_failure(const Batch *B, int *worker) {
  size_t best = B->n;
  int t;
  for (t = 0; t < B->w->nthreads; t++)
    if (B->fail[t].index < best) { best = B->fail[t].index; *worker = t; }
  return best;
}

/* The list itself: no NULL and no mover twice. Stamps the movers; returns
** the index of the first bad entry (n: none) with its message in msg. */
static size_t check_list(Batch *B, uint64_t stamp, char msg[64]) {
  size_t i;
  for (i = 0; i < B->n; i++) {
    cs_Mover *m = B->movers[i];
    if (!m) { strcpy(msg, "is NULL"); return i; }
    if (m->batch_stamp == stamp) {
      sprintf(msg, "is listed twice (also as mover %lu)", (unsigned long)(m->batch_index + 1));
      return i;
    }
    m->batch_stamp = stamp;
    m->batch_index = i;
  }
  return B->n;
}

/* Mover i's move: its checks and how it starts (what cs_world_check_move
** finds), and the displacement that bounds it (before a mover below it,
** which reach_boxes adds). A failure goes to the thread's record. */
static void check_one(Batch *B, int worker, size_t i) {
  cs_Mover *m = B->movers[i];
  Entry *e = &B->e[i];
  cs_Vec3 walk, grav;
  cs_Error err;
  double diameter;
  move_of(B, i, &walk, &grav);
  if (cs_world_check_batch_free(&err, m) != CS_OK ||   /* (another world's batch) */
      cs_world_check_move(B->w, &err, m, &walk, B->stride == 6 ? &grav : NULL, &e->start) != CS_OK) {
    if (i < B->fail[worker].index) {
      B->fail[worker].index = i;
      B->fail[worker].status = err.status;
      B->fail[worker].err = err;
    }
    return;
  }
  /* the centre goes no farther than the reach of its passes plus a
  ** diameter of push out of an overlap (the reach grows by that much when
  ** the start is not known clear): twice both bounds it */
  diameter = 2 * fmax(fmax(m->radius.x, m->radius.y), m->radius.z);
  e->disp = 2 * (e->start.margin + diameter);
  e->level = 0;
  e->done = 0;
  e->added = m->set == &B->w->movers;
  e->filtered = m->filter != NULL || m->mover_filter != NULL;
}

/* check_one for movers first .. count-1 (B->first, B->count), a chunk at
** a time, on every thread of the pool. */
static void check_range(void *ud, int worker) {
  Batch *B = (Batch *)ud;
  size_t k;
  while ((k = cs_atomic_take(&B->next, B->chunk)) < B->count) {
    size_t j, end = k + B->chunk < B->count ? k + B->chunk : B->count;
    for (j = k; j < end; j++) check_one(B, worker, j);
  }
}

/* Checks the list and every move before any mover moves (the checks of
** the moves on the pool's threads when it has some: they only read), then
** marks the riders of movers listed before them (restart: their start is
** known only once their carrier has moved). Fails on the first bad mover
** in list order. */
static cs_Status check_all(Batch *B, uint64_t stamp, size_t *failed) {
  cs_World *w = B->w;
  size_t i, bad;
  char msg[64];
  int t, worker = 0;
  bad = check_list(B, stamp, msg);
  B->first = 0;
  B->count = bad;
  B->next = 0;
  B->chunk = 32;
  if (w->pool && bad >= 256) cs_pool_run(w->pool, check_range, B);
  else check_range(B, 0);
  i = first_failure(B, &worker);
  if (i < bad) {
    cs_Status s = batch_fail(w, i, failed, B->fail[worker].status, B->fail[worker].err.message);
    w->err.arg = B->fail[worker].err.arg;
    return s;
  }
  for (t = 0; t < CS_MAX_THREADS; t++) B->fail[t].index = B->n;   /* for the moves */
  if (bad < B->n) return batch_fail(w, bad, failed, CS_EINVAL, msg);
  for (i = 0; i < B->n; i++) {
    const cs_Mover *g = B->e[i].start.ground_mover;
    B->e[i].restart = g && g->batch_stamp == stamp && g->batch_index < i;
  }
  return CS_OK;
}

/* Each entry's reach box (lo, hi): its mover's box grown by the longest
** displacement of its call, plus its carrier's when it rides a mover listed
** before it (in list order, so the carrier's is complete). Only a batch
** with added movers needs them (meeting_pairs): a serial pass saved
** otherwise. */
static void reach_boxes(Batch *B) {
  size_t i;
  for (i = 0; i < B->n; i++) {
    Entry *e = &B->e[i];
    cs_Vec3 h = cs_mover_half_extents(B->movers[i]);
    if (e->restart) e->disp += B->e[e->start.ground_mover->batch_index].disp;
    h = v3_add(h, v3(e->disp, e->disp, e->disp));
    e->lo = v3_sub(B->movers[i]->pos, h);
    e->hi = v3_add(B->movers[i]->pos, h);
  }
}

/* }================================================================== */

/* {==================================================================
** The order: who waits for whom, and the waves
** ===================================================================*/

typedef struct Pair { size_t a, b; } Pair;    /* b waits for a (a < b) */
typedef struct Key { double x; size_t i; } Key;

typedef struct Pairs { Pair *p; size_t n, cap; const cs_Alloc *alloc; } Pairs;

static int push_pair(Pairs *P, size_t i, size_t j) {
  if (P->n == P->cap &&
      cs_grow(P->alloc, (void **)&P->p, &P->cap, P->n + 1, sizeof(Pair)) != CS_OK)
    return 0;
  P->p[P->n].a = i < j ? i : j;
  P->p[P->n].b = i < j ? j : i;
  P->n++;
  return 1;
}

static int key_cmp(const void *x, const void *y) {
  const Key *a = (const Key *)x, *b = (const Key *)y;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* The pairs of movers whose reach boxes meet, one of them added: sweep
** and prune along x. At most cap pairs (0 past it: the caller runs the
** batch in list order). */
static int meeting_pairs(const Batch *B, Pairs *P, size_t cap) {
  size_t a, b, n = B->n;
  Key *k = (Key *)cs_malloc_array(&B->w->alloc, n, sizeof *k);
  int ok = 1;
  if (!k) return 0;
  for (a = 0; a < n; a++) { k[a].x = B->e[a].lo.x; k[a].i = a; }
  qsort(k, n, sizeof *k, key_cmp);
  for (a = 0; ok && a < n; a++) {
    const Entry *ea = &B->e[k[a].i];
    for (b = a + 1; ok && b < n && k[b].x <= ea->hi.x; b++) {
      const Entry *eb = &B->e[k[b].i];
      if (!(ea->added || eb->added) || !v3_boxes_meet(ea->lo, ea->hi, eb->lo, eb->hi)) continue;
      ok = P->n < cap && push_pair(P, k[a].i, k[b].i);
    }
  }
  cs_free(&B->w->alloc, k, n * sizeof *k);
  return ok;
}

/* Each mover's level: 0, or one more than the highest it waits for; none
** lower than a filtered mover's listed before it, so that a filter's error
** stops every later mover on any number of threads, as it stops the loop
** (run_filtered): a mover after it in a wave before its own had moved
** already, with 2 threads and not with 1 (found by an independent tester);
** and a filtered mover's above every mover's listed before it, so that its
** filter reads them moved, as in the loop (it runs first in its wave, and
** read an earlier mover of that wave unmoved on 2 threads: the next
** tester). */
static int levels(Batch *B, const Pairs *P) {
  size_t i, n = B->n, floor_level = 0, top = 0;
  size_t *start = (size_t *)cs_malloc_array(&B->w->alloc, n + 1, sizeof(size_t));
  size_t *from;
  if (!start) return 0;
  if (!(from = (size_t *)cs_malloc_array(&B->w->alloc, P->n + 1, sizeof(size_t)))) {
    cs_free(&B->w->alloc, start, (n + 1) * sizeof(size_t));
    return 0;
  }
  memset(start, 0, (n + 1) * sizeof(size_t));
  for (i = 0; i < P->n; i++) start[P->p[i].b + 1]++;       /* the pairs by b */
  for (i = 0; i < n; i++) start[i + 1] += start[i];
  for (i = 0; i < P->n; i++) from[start[P->p[i].b]++] = P->p[i].a;
  for (i = n; i > 0; i--) start[i] = start[i - 1];
  start[0] = 0;
  for (i = 0; i < n; i++) {
    size_t k;
    for (k = start[i]; k < start[i + 1]; k++)
      if (B->e[from[k]].level + 1 > B->e[i].level) B->e[i].level = B->e[from[k]].level + 1;
    /* never before a filtered mover listed earlier (run_filtered) */
    if (B->e[i].level < floor_level) B->e[i].level = floor_level;
    if (B->e[i].filtered) {
      if (i > 0 && B->e[i].level < top + 1) B->e[i].level = top + 1;
      floor_level = B->e[i].level;
    }
    if (B->e[i].level > top) top = B->e[i].level;
  }
  cs_free(&B->w->alloc, from, (P->n + 1) * sizeof(size_t));
  cs_free(&B->w->alloc, start, (n + 1) * sizeof(size_t));
  return 1;
}

/* Levels for the batch; 0 when it must run in list order instead (too
** many meeting pairs, or no memory for them). */
static int plan(Batch *B) {
  Pairs P;
  size_t i, nadded = 0, prev = (size_t)-1;
  int ok = 1, late_filter = 0;
  P.p = NULL; P.n = P.cap = 0; P.alloc = &B->w->alloc;
  for (i = 0; i < B->n; i++) nadded += B->e[i].added;
  if (nadded) {
    reach_boxes(B);
    ok = meeting_pairs(B, &P, 32 * B->n + 1024);
  }
  for (i = 0; ok && i < B->n; i++) {
    const cs_Mover *g;
    if (B->e[i].filtered) {
      if (prev != (size_t)-1) ok = push_pair(&P, prev, i);
      prev = i;
      late_filter |= i > 0;
    }
    g = B->e[i].start.ground_mover;           /* as the checks found it */
    if (ok && g && g->batch_stamp == B->movers[i]->batch_stamp)
      ok = push_pair(&P, g->batch_index, i);
  }
  if (ok && (P.n > 0 || late_filter)) ok = levels(B, &P);   /* none: every level is 0 */
  cs_free(&B->w->alloc, P.p, P.cap * sizeof(Pair));
  return ok;
}

/* order: the movers by level, then index (a counting sort). Returns the
** number of levels. */
static size_t sort_by_level(Batch *B, size_t *count) {
  size_t i, nl = 0;
  for (i = 0; i < B->n; i++) if (B->e[i].level + 1 > nl) nl = B->e[i].level + 1;
  memset(count, 0, (nl + 1) * sizeof(size_t));
  for (i = 0; i < B->n; i++) count[B->e[i].level + 1]++;
  for (i = 0; i < nl; i++) count[i + 1] += count[i];
  for (i = 0; i < B->n; i++) B->order[count[B->e[i].level]++] = i;
  for (i = nl; i > 0; i--) count[i] = count[i - 1];
  count[0] = 0;
  return nl;
}

/* }================================================================== */

/* {==================================================================
** Running
** ===================================================================*/

/* How mover i's call starts: as checked, unless that changed since: it
** rides a mover listed before it, or a push out took it along (cs_world.c,
** take_riders: its carry's rounding then is the loop's). NULL: found anew. */
static const cs_MoveStart *start_of(const Batch *B, size_t i) {
  return B->e[i].restart || B->movers[i]->pushed ? NULL : &B->e[i].start;
}

static void run_one(Batch *B, int worker, size_t i) {
  cs_World *w = B->w;
  cs_CallScratch *sc = &w->tscratch[worker];
  cs_Vec3 walk, grav;
  cs_Status s;
  move_of(B, i, &walk, &grav);
  s = cs_world_move(w, sc, B->movers[i], &walk, B->stride == 6 ? &grav : NULL, start_of(B, i));
  if (s == CS_OK) B->e[i].done = 1;   /* the entry's line, not a shared byte array */
  else if (i < B->fail[worker].index) {
    B->fail[worker].index = i;
    B->fail[worker].status = s;
    B->fail[worker].err = *sc->err;
  }
}

/* The movers of share sh not filtered, a chunk at a time: the counter's
** cache line moves between threads once per chunk, not once per mover. */
static void run_share(Batch *B, int worker, Share *sh) {
  size_t k;
  while ((k = cs_atomic_take(&sh->next, B->chunk)) < sh->end) {
    size_t j, end = k + B->chunk < sh->end ? k + B->chunk : sh->end;
    for (j = k; j < end; j++) {
      size_t i = B->order[B->first + j];
      if (!B->e[i].filtered && i <= B->limit) run_one(B, worker, i);
    }
  }
}

/* One wave on one thread: each thread takes its own share, then what is
** left of the others'. */
static void run_wave(void *ud, int worker) {
  Batch *B = (Batch *)ud;
  int nt = B->w->nthreads, t;
  for (t = 0; t < nt; t++) run_share(B, worker, &B->share[(worker + t) % nt]);
}

/* The wave's filtered movers (the plan puts one in a wave at most), on the
** calling thread before the others start, so that one whose filter fails
** leaves every mover listed after it where it was (no later one runs: the
** limit), as the loop does. */
static void run_filtered(Batch *B) {
  size_t j;
  int t;
  for (j = B->first; j < B->first + B->count; j++) {
    size_t i = B->order[j];
    if (B->e[i].filtered && i <= B->limit) run_one(B, 0, i);
  }
  B->limit = first_failure(B, &t);
}

/* A wave of fewer movers runs on the calling thread alone: handing it to
** the threads costs more than it saves (all of them must check in before the
** next wave, and a thread the system has put to sleep takes tens of
** microseconds to wake, against about 2 a step). A crowd packed at a door
** runs as many small waves: 200 movers there ran 20 times slower on 2
** threads than on 1 (found by an independent tester). */
#ifndef WAVE_MIN
#define WAVE_MIN 16
#endif

/* The waves, one after another; between them the moved are filed. */
static void run_waves(Batch *B, const size_t *start, size_t nlevels) {
  cs_World *w = B->w;
  size_t L, k;
  int t;
  for (L = 0; L < nlevels; L++) {
    B->first = start[L];
    B->count = start[L + 1] - start[L];
    for (t = 0; t < w->nthreads; t++) {
      B->share[t].next = B->count * (size_t)t / (size_t)w->nthreads;
      B->share[t].end = B->count * (size_t)(t + 1) / (size_t)w->nthreads;
    }
    /* chunks: about 16 per thread, so that the last ones even the threads out */
    B->chunk = B->count / (16 * (size_t)w->nthreads);
    if (B->chunk < 1) B->chunk = 1;
    if (B->chunk > 8) B->chunk = 8;
    run_filtered(B);
    if (w->pool && B->count >= WAVE_MIN) cs_pool_run(w->pool, run_wave, B);
    else run_wave(B, 0);
    for (k = B->first; k < B->first + B->count; k++)
      if (B->e[B->order[k]].done) cs_world_file_mover(w, B->movers[B->order[k]]);
    /* and the riders their pushes out took along (in no list order: the
    ** grid's order does not show, sort_near) */
    for (t = 0; t < w->nthreads; t++) cs_world_file_pushed(w, &w->tscratch[t]);
    B->limit = first_failure(B, &t);
  }
}

/* The batch in list order on the calling thread: the loop itself. */
static void run_in_order(Batch *B) {
  cs_World *w = B->w;
  size_t i;
  for (i = 0; i < B->n; i++) {
    cs_Vec3 walk, grav;
    cs_Status s;
    cs_world_sync(w);
    move_of(B, i, &walk, &grav);
    s = cs_world_move(w, &w->scratch, B->movers[i], &walk, B->stride == 6 ? &grav : NULL,
                      start_of(B, i));
    if (s != CS_OK) {
      B->fail[0].index = i;
      B->fail[0].status = s;
      B->fail[0].err = w->err;
      return;
    }
    B->e[i].done = 1;
  }
}

/* }================================================================== */

/* The entries, the order and the levels' starts, in the world's batch
** memory (kept from call to call: a crowd's frames allocate nothing). */
static int batch_arrays(Batch *B) {
  cs_World *w = B->w;
  size_t n = B->n, bytes;
  if (n > ((size_t)-1 / 4) / (sizeof(Entry) + 2 * sizeof(size_t))) return 0;
  bytes = n * sizeof(Entry) + (2 * n + 1) * sizeof(size_t);
  if (cs_grow(&w->alloc, &w->bmem, &w->capbmem, bytes, 1) != CS_OK) return 0;
  B->e = (Entry *)w->bmem;                      /* Entry's size is a multiple of 8 */
  B->order = (size_t *)(void *)(B->e + n);
  B->start = B->order + n;
  return 1;
}

/* Runs the checked batch: in waves on the threads, or in list order. */
static cs_Status run(Batch *B) {
  cs_World *w = B->w;
  size_t nl;
  int t, shared = w->nthreads > 1 && B->n > 1 && start_threads(w) == CS_OK;
  if (!shared || !plan(B)) {
    run_in_order(B);
    return CS_OK;
  }
  nl = sort_by_level(B, B->start);
  cs_world_refit(w);
  w->movers.frozen = 1;
  for (t = 0; t < w->nthreads; t++) w->tscratch[t].shared = 1;
  run_waves(B, B->start, nl);
  for (t = 0; t < w->nthreads; t++) w->tscratch[t].shared = 0;
  w->movers.frozen = 0;
  return CS_OK;
}

/* Adds d to the batch count of the mesh of every body and sensor of w: their
** edits are refused while it is not 0 (a filter runs on the calling thread
** while the world's threads read the meshes). */
static void hold_meshes(cs_World *w, int d) {
  size_t i;
  for (i = 0; i < w->nbodies; i++) cs_atomic_add(&w->bodies[i]->mesh->batches, d);
  for (i = 0; i < w->nsensors; i++) cs_atomic_add(&w->sensors[i]->place.mesh->batches, d);
}

cs_Status cs_world_collide_and_slide_many(cs_World *w, cs_Mover *const *movers, size_t n,
                                          const double *moves, int stride, double *out,
                                          unsigned char *moved, size_t *failed) {
  Batch B;
  size_t i;
  int t;
  cs_Status s;
  if (failed) *failed = n;
  if (w->busy) return cs_fail_status(&w->err, CS_EBUSY);
  if (stride != 3 && stride != 6)
    return cs_fail(&w->err, CS_EINVAL, 0, "the stride must be 3 or 6, got %d", stride);
  if (n == 0) return cs_ok(&w->err);
  if (!movers || !moves) return cs_fail(&w->err, CS_EINVAL, 0, "the movers and moves must not be NULL");
  if (moved) memset(moved, 0, n);               /* until a mover has moved */
  memset(&B, 0, sizeof B);
  B.w = w; B.movers = movers; B.moves = moves; B.stride = stride; B.n = n; B.limit = n;
  for (t = 0; t < CS_MAX_THREADS; t++) B.fail[t].index = n;
  if (w->nthreads > 1 && n > 1 && start_threads(w) == CS_OK && w->pool)
    cs_pool_alert(w->pool);                     /* its threads wake while the list is read */
  if (!batch_arrays(&B))                        /* before any move: the first did not */
    return batch_fail(w, 0, failed, CS_ENOMEM, cs_status_string(CS_ENOMEM));
  if ((s = check_all(&B, cs_new_id(), failed)) != CS_OK) return s;
  for (i = 0; i < n; i++) movers[i]->in_batch = 1;
  w->busy = w->batching = w->movers.batching = 1;
  w->last_call = w->version;
  hold_meshes(w, 1);
  run(&B);
  hold_meshes(w, -1);
  w->busy = w->batching = w->movers.batching = 0;
  for (i = 0; i < n; i++) {
    movers[i]->in_batch = 0;
    if (out) { out[3 * i] = movers[i]->pos.x; out[3 * i + 1] = movers[i]->pos.y; out[3 * i + 2] = movers[i]->pos.z; }
    if (moved) moved[i] = (unsigned char)B.e[i].done;
  }
  t = 0;
  if ((i = first_failure(&B, &t)) < n) {
    s = batch_fail(w, i, failed, B.fail[t].status, B.fail[t].err.message);
    w->err.arg = 0;
  } else s = cs_ok(&w->err);
  return s;
}

/* Appends printf-style to buf (size bytes, *len used), cut at its end. */
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...) {
  va_list ap;
  int k;
  if (*len + 1 >= size) return;
  va_start(ap, fmt);
  k = vsnprintf(buf + *len, size - *len, fmt, ap);
  va_end(ap);
  if (k > 0) *len = *len + (size_t)k < size ? *len + (size_t)k : size - 1;
}

const char *cs_batch_summary(char *buf, size_t size, const unsigned char *moved, size_t n,
                             size_t failed) {
  size_t i, j, count = 0, runs = 0, first[2] = {0, 0}, last[2] = {0, 0}, rest, len = 0;
  int r;
  if (size == 0) return buf;
  buf[0] = '\0';
  for (i = 0; i < n; i = j) {                /* the runs of moved movers, 1-based */
    for (; i < n && !moved[i]; i++) {}
    if (i == n) break;
    for (j = i; j < n && moved[j]; j++) {}
    if (runs < 2) { first[runs] = i + 1; last[runs] = j; }
    runs++;
    count += j - i;
  }
  if (count == 0) put(buf, size, &len, "no mover moved");
  else {
    put(buf, size, &len, count == 1 ? "mover " : "movers ");
    for (r = 0; r < 2 && (size_t)r < runs; r++) {
      if (r == 1) put(buf, size, &len, runs > 2 ? ", " : " and ");
      if (first[r] == last[r]) put(buf, size, &len, "%lu", (unsigned long)first[r]);
      else put(buf, size, &len, "%lu-%lu", (unsigned long)first[r], (unsigned long)last[r]);
    }
    if (runs > 2) {
      rest = count - (last[0] - first[0] + 1) - (last[1] - first[1] + 1);
      put(buf, size, &len, " and %lu other%s", (unsigned long)rest, rest == 1 ? "" : "s");
    }
    put(buf, size, &len, " moved");
  }
  rest = count + 1 < n ? n - count - 1 : 0;  /* not moved, besides the failed one */
  /* %lu, not %zu: the msvcrt of the Windows build knows no z */
  if (rest == 0) put(buf, size, &len, ", mover %lu did not", (unsigned long)failed + 1);
  else put(buf, size, &len, ", mover %lu and %lu other%s did not", (unsigned long)failed + 1,
           (unsigned long)rest, rest == 1 ? "" : "s");
  return buf;
}

/* {==================================================================
** The contract for job systems of one's own
** ===================================================================*/

cs_Status cs_call_scratch_new(cs_World *w, cs_CallScratch **out) {
  cs_CallScratch *sc = (cs_CallScratch *)cs_malloc(&w->alloc, sizeof *sc);
  *out = NULL;
  if (!sc) return cs_fail_status(&w->err, CS_ENOMEM);   /* (said nowhere: a tester) */
  cs_scratch_init(sc, &w->alloc, NULL);
  sc->shared = 1;
  *out = sc;
  return CS_OK;
}

void cs_call_scratch_free(cs_World *w, cs_CallScratch *sc) {
  if (!sc) return;
  cs_scratch_release(sc);
  cs_free(&w->alloc, sc, sizeof *sc);
}

const cs_Error *cs_call_scratch_error(const cs_CallScratch *sc) { return sc->err; }

cs_Status cs_world_collide_and_slide_in(cs_World *w, cs_CallScratch *sc, cs_Mover *m,
                                        const cs_Vec3 *walk, const cs_Vec3 *gravity) {
  cs_Status s;
  if (m->set)
    return cs_fail(sc->err, CS_EINVAL, 0,
                   "the mover is added to a world: move it with the world's own calls");
  /* the movers' grid too: after a cs_world_prepare that could not build it
  ** the calls of the contract would build it at the same time */
  if (cs_world_pending(w))
    return cs_fail(sc->err, CS_EINVAL, 0, "the world has changes pending: call cs_world_prepare first");
  if (sc->busy) return cs_scratch_busy(sc);
  if ((s = cs_world_check_batch_free(sc->err, m)) != CS_OK) return s;
  sc->busy = 1;
  s = cs_world_move(w, sc, m, walk, gravity, NULL);
  sc->busy = 0;
  return s;
}
