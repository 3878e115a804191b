/*
** fuzz_alloc.h: a checking allocator for the harnesses (header only, static).
** Every block carries its size in a header; a free or realloc whose osize
** is not the block's size aborts (cs_Alloc promises lua_Alloc's contract,
** where osize is exact), and it can fail on the nth request, to drive the
** CS_ENOMEM paths. fa_live() is the bytes not yet freed.
*/
#ifndef FUZZ_ALLOC_H
#define FUZZ_ALLOC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"

typedef struct fa_State {
  long fail_at;           /* the request number that fails (-1: none) */
  long requests;
  size_t live;
} fa_State;

#define FA_HEADER 16

static void *fa_fn(void *ud, void *ptr, size_t osize, size_t nsize) {
  fa_State *st = (fa_State *)ud;
  unsigned char *p = ptr ? (unsigned char *)ptr - FA_HEADER : NULL;
  if (p) {
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != osize) {
      fprintf(stderr, "fuzz alloc: osize %zu for a block of %zu bytes\n", osize, had);
      abort();
    }
  }
  if (nsize == 0) {
    if (p) st->live -= osize;
    free(p);
    return NULL;
  }
  if (st->requests++ == st->fail_at) return NULL;
  p = realloc(p, nsize + FA_HEADER);
  if (!p) return NULL;
  memcpy(p, &nsize, sizeof nsize);
  st->live += nsize - (ptr ? osize : 0);
  return p + FA_HEADER;
}

static cs_Alloc fa_alloc(fa_State *st, long fail_at) {
  cs_Alloc a;
  st->fail_at = fail_at;
  st->requests = 0;
  st->live = 0;
  a.fn = fa_fn;
  a.ud = st;
  return a;
}

#endif
