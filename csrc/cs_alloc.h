/*
** cs_alloc.h: the one allocation path (the caller's cs_Alloc), growable
** buffers, the size limits and the debug assertion. The bottom of the core:
** it includes only the public header, and every other file may use it.
*/
#ifndef CS_ALLOC_H
#define CS_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "collideslide.h"
#include "cs_math.h"

#ifdef CS_DEBUG
#include <assert.h>
#define CS_ASSERT(c) assert(c)
#else
#define CS_ASSERT(c) ((void)0)
#endif

/* Most triangles a mesh may hold: indices are 32-bit inside. */
#define CS_MAX_TRIANGLES 0x3fffffffu
#define CS_MAX_VERTICES  0xfffffffeu

void *cs_malloc(const cs_Alloc *a, size_t size);
/* n * size bytes, or NULL on overflow or failure */
void *cs_malloc_array(const cs_Alloc *a, size_t n, size_t size);
void *cs_realloc(const cs_Alloc *a, void *p, size_t osize, size_t nsize);
void cs_free(const cs_Alloc *a, void *p, size_t size);
/* Grows *data (element size esize, *cap elements) to hold at least need. */
cs_Status cs_grow(const cs_Alloc *a, void **data, size_t *cap, size_t need, size_t esize);
/* Gives back most of a buffer of which `used` elements are in use, when it
** holds more than 4 times that and more than 64 KB (what one long call grew
** it to); keeps it as it is when the allocator cannot shrink it. */
void cs_shrink(const cs_Alloc *a, void **data, size_t *cap, size_t used, size_t esize);

/* A growable array of 32-bit indices. */
typedef struct cs_U32Buf { uint32_t *data; size_t count, cap; } cs_U32Buf;
CS_INLINE cs_Status cs_u32buf_push(const cs_Alloc *a, cs_U32Buf *b, uint32_t v) {
  if (b->count == b->cap) {
    cs_Status s = cs_grow(a, (void **)&b->data, &b->cap, b->count + 1, sizeof(uint32_t));
    if (s != CS_OK) return s;
  }
  b->data[b->count++] = v;
  return CS_OK;
}
void cs_u32buf_free(const cs_Alloc *a, cs_U32Buf *b);

/* A new process-wide id (worlds, sensors, movers): never 0, never reused. */
uint64_t cs_new_id(void);

#endif
