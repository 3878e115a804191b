/*
** cs_thread.h: the one place that knows about threads (cs_thread.c): a
** pool of k - 1 threads that, with the calling thread, run one function k
** times at once; and an atomic counter to share work out. POSIX threads,
** or Win32 threads under _WIN32. Nothing else in the core starts, waits
** for or locks anything.
*/
#ifndef CS_THREAD_H
#define CS_THREAD_H

#include "cs_alloc.h"

typedef struct cs_Pool cs_Pool;

/* A pool of k - 1 threads (2 <= k <= CS_MAX_THREADS), idle until run. */
cs_Status cs_pool_new(const cs_Alloc *a, int k, cs_Pool **out);
/* Ends the threads (waits for them) and frees the pool. */
void cs_pool_free(cs_Pool *p);
/* Runs fn(ud, i) for i = 0 .. k-1 at once, i = 0 on the calling thread;
** returns when every one has returned. Not re-entrant. */
typedef void (*cs_PoolFn)(void *ud, int worker);
void cs_pool_run(cs_Pool *p, cs_PoolFn fn, void *ud);
/* A run is coming soon: sleeping threads wake and spin for it, so that
** their wake-up overlaps the caller's work before the run. */
void cs_pool_alert(cs_Pool *p);

/* Indices shared out among threads: returns *c, then adds n (atomic). */
size_t cs_atomic_take(size_t *c, size_t n);
/* A flag or count threads read and change (atomic, sequentially
** consistent); cs_atomic_add returns the new value. */
int cs_atomic_get(int *flag);
void cs_atomic_set(int *flag, int v);
int cs_atomic_add(int *count, int d);

/* cs_cpu_count (collideslide.h) is here too. */

#endif
