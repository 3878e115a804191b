/*
** fuzz_alloc.h: a checking allocator for the harnesses (header only, static).
** Every block carries its size in a header; a free or realloc whose osize
** is not the block's size aborts (cs_Alloc promises lua_Alloc's contract,
** where osize is exact), and it can fail on the nth request, to drive the
** CS_ENOMEM paths. fa_live() is the bytes not yet freed.
**
** With reuse on (fa_alloc_reusing), a freed block is kept, and the next
** request of the same size gets the most recently freed one back: the
** address reuse that the plain build's malloc does by chance, made certain
** in every build (ASan and valgrind never reuse a block at once, so alone
** they hide a stale pointer that a new object's address makes look valid;
** issue 10). fa_drain frees the kept blocks.
*/
#ifndef FUZZ_ALLOC_H
#define FUZZ_ALLOC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collideslide.h"

#define FA_KEEP 64

typedef struct fa_State {
  long fail_at;           /* the request number that fails (-1: none) */
  long requests;
  size_t live;
  int reuse;              /* keep freed blocks and hand them back (LIFO) */
  int nkept;
  unsigned char *kept[FA_KEEP];
} fa_State;

#define FA_HEADER 16

/* The most recently kept block of nsize bytes, taken off the stack, or NULL. */
static unsigned char *fa_take(fa_State *st, size_t nsize) {
  int i;
  for (i = st->nkept - 1; i >= 0; i--) {
    size_t had;
    memcpy(&had, st->kept[i], sizeof had);
    if (had == nsize) {
      unsigned char *p = st->kept[i];
      memmove(st->kept + i, st->kept + i + 1, (size_t)(st->nkept - i - 1) * sizeof *st->kept);
      st->nkept--;
      return p;
    }
  }
  return NULL;
}

static void fa_drain(fa_State *st) {
  while (st->nkept > 0) free(st->kept[--st->nkept]);
}

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
    if (p && st->reuse) {
      if (st->nkept == FA_KEEP) {           /* full: the oldest goes */
        free(st->kept[0]);
        memmove(st->kept, st->kept + 1, (FA_KEEP - 1) * sizeof *st->kept);
        st->nkept--;
      }
      st->kept[st->nkept++] = p;
    } else {
      free(p);
    }
    return NULL;
  }
  if (st->requests++ == st->fail_at) return NULL;
  if (!p && st->reuse && (p = fa_take(st, nsize)) != NULL) {
    st->live += nsize;
    return p + FA_HEADER;
  }
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
  st->reuse = 0;
  st->nkept = 0;
  a.fn = fa_fn;
  a.ud = st;
  return a;
}

/* The same, with freed blocks handed back (see the top). */
static cs_Alloc fa_alloc_reusing(fa_State *st) {
  cs_Alloc a = fa_alloc(st, -1);
  st->reuse = 1;
  return a;
}

#endif
