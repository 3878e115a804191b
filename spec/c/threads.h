/*
** threads.h: the few thread calls the C tests make themselves (test_batch.c:
** threads of our own, as an engine's job system, and "is this the calling
** thread"): POSIX threads, or Win32 threads under _WIN32, like the core's
** cs_thread.c, so that the tests need no winpthreads on Windows either.
** Header only; every function is used by each includer or marked unused.
*/
#ifndef CS_TEST_THREADS_H
#define CS_TEST_THREADS_H

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
typedef DWORD tt_Id;
#else
#include <pthread.h>
typedef pthread_t tt_Id;
#endif

#if defined(__GNUC__)
#define TT_UNUSED __attribute__((unused))
#else
#define TT_UNUSED
#endif

/* A thread running fn(arg); the struct stays where it is until joined. */
typedef struct tt_Thread {
  void (*fn)(void *arg);
  void *arg;
#if defined(_WIN32)
  HANDLE handle;
#else
  pthread_t thread;
#endif
} tt_Thread;

#if defined(_WIN32)
static DWORD WINAPI tt_trampoline(LPVOID t) {
  ((tt_Thread *)t)->fn(((tt_Thread *)t)->arg);
  return 0;
}
/* 0 when started. */
static TT_UNUSED int tt_start(tt_Thread *t, void (*fn)(void *), void *arg) {
  t->fn = fn; t->arg = arg;
  t->handle = CreateThread(NULL, 0, tt_trampoline, t, 0, NULL);
  return t->handle != NULL ? 0 : -1;
}
static TT_UNUSED void tt_join(tt_Thread *t) {
  WaitForSingleObject(t->handle, INFINITE);
  CloseHandle(t->handle);
}
static TT_UNUSED tt_Id tt_self(void) { return GetCurrentThreadId(); }
static TT_UNUSED int tt_same(tt_Id a, tt_Id b) { return a == b; }
#else
static void *tt_trampoline(void *t) {
  ((tt_Thread *)t)->fn(((tt_Thread *)t)->arg);
  return NULL;
}
static TT_UNUSED int tt_start(tt_Thread *t, void (*fn)(void *), void *arg) {
  t->fn = fn; t->arg = arg;
  return pthread_create(&t->thread, NULL, tt_trampoline, t) == 0 ? 0 : -1;
}
static TT_UNUSED void tt_join(tt_Thread *t) { pthread_join(t->thread, NULL); }
static TT_UNUSED tt_Id tt_self(void) { return pthread_self(); }
static TT_UNUSED int tt_same(tt_Id a, tt_Id b) { return pthread_equal(a, b); }
#endif

#endif
