/*
** cs_alloc.c: the one allocation path (the caller's cs_Alloc), overflow-checked
** array sizes, growable buffers, and the status strings.
*/
#include <stdint.h>
#include <stdlib.h>

#include "cs_alloc.h"

void *cs_malloc(const cs_Alloc *a, size_t size) {
  if (size == 0) size = 1;
  return a->fn(a->ud, NULL, 0, size);
}

void *cs_malloc_array(const cs_Alloc *a, size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / size) return NULL;
  return cs_malloc(a, n * size);
}

void *cs_realloc(const cs_Alloc *a, void *p, size_t osize, size_t nsize) {
  if (nsize == 0) nsize = 1;
  return a->fn(a->ud, p, p ? osize : 0, nsize);
}

void cs_free(const cs_Alloc *a, void *p, size_t size) {
  if (p) a->fn(a->ud, p, size, 0);
}

/* Doubles the capacity until it holds need; on failure *data is untouched. */
cs_Status cs_grow(const cs_Alloc *a, void **data, size_t *cap, size_t need, size_t esize) {
  size_t ncap = *cap ? *cap : 16;
  void *p;
  if (need <= *cap) return CS_OK;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2) return CS_ETOOBIG;
    ncap *= 2;
  }
  if (ncap > SIZE_MAX / esize) return CS_ETOOBIG;
  p = cs_realloc(a, *data, *cap * esize, ncap * esize);
  if (!p) return CS_ENOMEM;
  *data = p;
  *cap = ncap;
  return CS_OK;
}

void cs_shrink(const cs_Alloc *a, void **data, size_t *cap, size_t used, size_t esize) {
  size_t ncap = 2 * used > 16 ? 2 * used : 16;
  void *p;
  if (*cap <= 4 * used || *cap * esize <= 65536 || ncap >= *cap) return;
  p = cs_realloc(a, *data, *cap * esize, ncap * esize);
  if (!p) return;
  *data = p;
  *cap = ncap;
}

void cs_u32buf_free(const cs_Alloc *a, cs_U32Buf *b) {
  cs_free(a, b->data, b->cap * sizeof(uint32_t));
  b->data = NULL;
  b->count = b->cap = 0;
}

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud; (void)osize;
  if (nsize == 0) { free(ptr); return NULL; }
  return realloc(ptr, nsize);
}

cs_Alloc cs_default_alloc(void) {
  cs_Alloc a;
  a.fn = default_alloc;
  a.ud = NULL;
  return a;
}

const char *cs_status_string(cs_Status s) {
  switch (s) {
    case CS_OK: return "ok";
    case CS_ENOMEM: return "not enough memory";
    case CS_EINVAL: return "invalid argument";
    case CS_ERANGE: return "index out of range";
    case CS_ETOOBIG: return "too big";
    case CS_EBUSY: return "world is busy (called from inside a move)";
    case CS_EABORT: return "aborted by a callback";
  }
  return "unknown status";
}

/* The next id. Ids start at 1 (0 means "none") and are never reused, so a
** mover can tell a freed world (or sensor, or mover) from a new one that
** got its address (issue 10). Atomic where the compiler offers it, since
** worlds may be created on several threads (one Lua state each). */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif
static uint64_t next_id;

uint64_t cs_new_id(void) {
#if defined(__GNUC__) || defined(__clang__)
  return __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
#elif defined(_MSC_VER)
  return (uint64_t)_InterlockedIncrement64((volatile __int64 *)&next_id);
#else
  return ++next_id;  /* C99 without atomics: create objects on one thread */
#endif
}
