/*
** cs_thread.c: the pool of cs_thread.h. Each run hands the workers a new
** generation number under the lock; a worker runs the function once per
** generation and counts itself done; the caller waits for k - 1 dones. Both
** waits spin a little before they sleep (a batch's waves, and a game's
** frames, come back to back).
*/
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L   /* pthreads and sysconf under -std=c99 */
#endif
#include <string.h>

#include "cs_thread.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
typedef HANDLE Thread;
typedef CRITICAL_SECTION Mutex;
typedef CONDITION_VARIABLE Cond;
#define mutex_init(m)     (InitializeCriticalSection(m), 0)
#define mutex_free(m)     DeleteCriticalSection(m)
#define mutex_lock(m)     EnterCriticalSection(m)
#define mutex_unlock(m)   LeaveCriticalSection(m)
#define cond_init(c)      (InitializeConditionVariable(c), 0)
#define cond_free(c)      ((void)(c))
#define cond_wait(c, m)   SleepConditionVariableCS((c), (m), INFINITE)
#define cond_wake_all(c)  WakeAllConditionVariable(c)
#else
#include <pthread.h>
#include <unistd.h>
typedef pthread_t Thread;
typedef pthread_mutex_t Mutex;
typedef pthread_cond_t Cond;
#define mutex_init(m)     pthread_mutex_init((m), NULL)
#define mutex_free(m)     pthread_mutex_destroy(m)
#define mutex_lock(m)     pthread_mutex_lock(m)
#define mutex_unlock(m)   pthread_mutex_unlock(m)
#define cond_init(c)      pthread_cond_init((c), NULL)
#define cond_free(c)      pthread_cond_destroy(c)
#define cond_wait(c, m)   pthread_cond_wait((c), (m))
#define cond_wake_all(c)  pthread_cond_broadcast(c)
#endif

#if defined(_MSC_VER)
size_t cs_atomic_take(size_t *c, size_t n) {
#if defined(_WIN64)
  return (size_t)InterlockedExchangeAdd64((volatile LONG64 *)c, (LONG64)n);
#else
  return (size_t)InterlockedExchangeAdd((volatile LONG *)c, (LONG)n);
#endif
}
int cs_atomic_get(int *flag) { return (int)InterlockedCompareExchange((volatile LONG *)flag, 0, 0); }
int cs_atomic_add(int *count, int d) { return (int)InterlockedExchangeAdd((volatile LONG *)count, d) + d; }
void cs_atomic_set(int *flag, int v) { InterlockedExchange((volatile LONG *)flag, v); }
#else   /* GCC, Clang, MinGW */
size_t cs_atomic_take(size_t *c, size_t n) { return __atomic_fetch_add(c, n, __ATOMIC_SEQ_CST); }
int cs_atomic_get(int *flag) { return __atomic_load_n(flag, __ATOMIC_SEQ_CST); }
void cs_atomic_set(int *flag, int v) { __atomic_store_n(flag, v, __ATOMIC_SEQ_CST); }
int cs_atomic_add(int *count, int d) { return __atomic_add_fetch(count, d, __ATOMIC_SEQ_CST); }
#endif

/* A pause in a spin-wait (it tells the core a spin is under way). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define cpu_relax() __builtin_ia32_pause()
#elif defined(_MSC_VER)
#define cpu_relax() YieldProcessor()
#else
#define cpu_relax() ((void)0)
#endif

/* How long a thread spins for the next run, or for the others to finish,
** before it sleeps: a batch's waves come back to back, and waking a
** sleeping thread costs tens of microseconds. */
#define SPINS 4000

typedef struct Worker { cs_Pool *pool; int index; Thread thread; } Worker;

struct cs_Pool {
  cs_Alloc alloc;
  int k;                  /* threads in all, the caller's included */
  int spins;              /* SPINS, or 0 when k exceeds the processors: a
                          ** spinning thread then holds the core another
                          ** needs */
  int started;            /* workers running */
  Mutex lock;
  Cond wake, done;        /* workers wait on wake, the caller on done */
  /* written under lock, read by spinners too: cs_atomic_* only */
  int generation;         /* of the current run (it wraps) */
  int alert;              /* bumped by cs_pool_alert: sleepers start spinning */
  int ndone;              /* workers finished with it */
  int quit;
  cs_PoolFn fn;
  void *ud;
  Worker *workers;        /* k - 1 */
};

static void worker_loop(Worker *wk) {
  cs_Pool *p = wk->pool;
  int seen = 0, alerted = 0, i;
  for (;;) {
    cs_PoolFn fn;
    void *ud;
    for (i = 0; i < p->spins && cs_atomic_get(&p->generation) == seen && !cs_atomic_get(&p->quit); i++) {
      int a = cs_atomic_get(&p->alert);
      if (a != alerted) { alerted = a; i = 0; }   /* a run is coming: spin on */
      cpu_relax();
    }
    mutex_lock(&p->lock);
    while (!cs_atomic_get(&p->quit) && cs_atomic_get(&p->generation) == seen &&
           cs_atomic_get(&p->alert) == alerted)
      cond_wait(&p->wake, &p->lock);
    if (cs_atomic_get(&p->quit)) { mutex_unlock(&p->lock); return; }
    if (cs_atomic_get(&p->generation) == seen) {   /* alerted: spin again */
      alerted = cs_atomic_get(&p->alert);
      mutex_unlock(&p->lock);
      continue;
    }
    alerted = cs_atomic_get(&p->alert);
    seen = cs_atomic_get(&p->generation);
    fn = p->fn;
    ud = p->ud;
    mutex_unlock(&p->lock);
    fn(ud, wk->index);
    if (cs_atomic_add(&p->ndone, 1) == p->k - 1) {   /* the last one wakes the caller */
      mutex_lock(&p->lock);
      cond_wake_all(&p->done);
      mutex_unlock(&p->lock);
    }
  }
}

#if defined(_WIN32)
static DWORD WINAPI worker_main(LPVOID arg) { worker_loop((Worker *)arg); return 0; }
static int thread_start(Worker *wk) {
  wk->thread = CreateThread(NULL, 0, worker_main, wk, 0, NULL);
  return wk->thread != NULL;
}
static void thread_join(Worker *wk) {
  WaitForSingleObject(wk->thread, INFINITE);
  CloseHandle(wk->thread);
}
#else
static void *worker_main(void *arg) { worker_loop((Worker *)arg); return NULL; }
static int thread_start(Worker *wk) { return pthread_create(&wk->thread, NULL, worker_main, wk) == 0; }
static void thread_join(Worker *wk) { pthread_join(wk->thread, NULL); }
#endif

/* Ends the started workers. */
static void stop_workers(cs_Pool *p) {
  int i;
  mutex_lock(&p->lock);
  cs_atomic_set(&p->quit, 1);
  cond_wake_all(&p->wake);
  mutex_unlock(&p->lock);
  for (i = 0; i < p->started; i++) thread_join(&p->workers[i]);
  p->started = 0;
}

cs_Status cs_pool_new(const cs_Alloc *a, int k, cs_Pool **out) {
  cs_Pool *p;
  int i;
  *out = NULL;
  if (k < 2 || k > CS_MAX_THREADS) return CS_EINVAL;
  if (!(p = (cs_Pool *)cs_malloc(a, sizeof *p))) return CS_ENOMEM;
  memset(p, 0, sizeof *p);
  p->alloc = *a;
  p->k = k;
  p->spins = k <= cs_cpu_count() ? SPINS : 0;
  if (!(p->workers = (Worker *)cs_malloc_array(a, (size_t)k - 1, sizeof(Worker)))) {
    cs_free(a, p, sizeof *p);
    return CS_ENOMEM;
  }
  if (mutex_init(&p->lock) != 0 || cond_init(&p->wake) != 0 || cond_init(&p->done) != 0) {
    cs_free(a, p->workers, ((size_t)k - 1) * sizeof(Worker));
    cs_free(a, p, sizeof *p);
    return CS_ENOMEM;
  }
  for (i = 0; i < k - 1; i++) {
    p->workers[i].pool = p;
    p->workers[i].index = i + 1;
    if (!thread_start(&p->workers[i])) {
      cs_pool_free(p);
      return CS_ENOMEM;
    }
    p->started++;
  }
  *out = p;
  return CS_OK;
}

void cs_pool_free(cs_Pool *p) {
  cs_Alloc a;
  if (!p) return;
  stop_workers(p);
  mutex_free(&p->lock);
  cond_free(&p->wake);
  cond_free(&p->done);
  a = p->alloc;
  cs_free(&a, p->workers, ((size_t)p->k - 1) * sizeof(Worker));
  cs_free(&a, p, sizeof *p);
}

void cs_pool_alert(cs_Pool *p) {
  mutex_lock(&p->lock);
  cs_atomic_add(&p->alert, 1);
  cond_wake_all(&p->wake);
  mutex_unlock(&p->lock);
}

void cs_pool_run(cs_Pool *p, cs_PoolFn fn, void *ud) {
  int i;
  mutex_lock(&p->lock);
  p->fn = fn;
  p->ud = ud;
  cs_atomic_set(&p->ndone, 0);
  cs_atomic_add(&p->generation, 1);
  cond_wake_all(&p->wake);
  mutex_unlock(&p->lock);
  fn(ud, 0);
  for (i = 0; i < p->spins && cs_atomic_get(&p->ndone) < p->k - 1; i++) cpu_relax();
  mutex_lock(&p->lock);
  while (cs_atomic_get(&p->ndone) < p->k - 1) cond_wait(&p->done, &p->lock);
  mutex_unlock(&p->lock);
}


int cs_cpu_count(void) {
#if defined(_WIN32)
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return si.dwNumberOfProcessors > 0 ? (int)si.dwNumberOfProcessors : 1;
#elif defined(_SC_NPROCESSORS_ONLN)
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)(n > 4096 ? 4096 : n) : 1;
#else
  return 1;
#endif
}
