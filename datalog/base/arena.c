/* arena.c: chunked bump allocator (see arena.h). */
#include "datalog/base/arena.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
  struct chunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
} chunk;

struct dl_arena {
  chunk *head;
  size_t bytes;
};

dl_arena *dl_arena_create(void) { return calloc(1, sizeof(dl_arena)); }

void dl_arena_destroy(dl_arena *a)
{
  if (!a) return;
  for (chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void *dl_arena_alloc(dl_arena *a, size_t size)
{
  assert(a);
  size = (size + 15) & ~(size_t)15;
  chunk *c = a->head;
  if (!c || c->cap - c->used < size) {
    size_t cap = size > 65536 ? size : 65536;
    c = malloc(sizeof(chunk) + cap);
    if (!c) return NULL;
    c->next = a->head;
    c->used = 0;
    c->cap = cap;
    a->head = c;
    a->bytes += cap;
  }
  void *p = c->data + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

size_t dl_arena_bytes(const dl_arena *a) { return a->bytes; }
