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

dl_arena_mark dl_arena_get_mark(const dl_arena *a)
{
  assert(a);
  return (dl_arena_mark){ a->head, a->head ? a->head->used : 0 };
}

/* The chunks taken since the mark go but the oldest of them, which stays
 * as the current one, emptied: releasing after every clause would else
 * free and allocate a chunk each time one fills. */
void dl_arena_release(dl_arena *a, dl_arena_mark m)
{
  assert(a);
  while (a->head && a->head != m.chunk && a->head->next != m.chunk) {
    chunk *c = a->head;
    a->head = c->next;
    a->bytes -= c->cap;
    free(c);
  }
  if (!a->head) return;
  if (a->head != m.chunk) {
    a->head->used = 0;
    return;
  }
  assert(m.used <= a->head->used);
  a->head->used = m.used;
}

size_t dl_arena_bytes(const dl_arena *a) { return a->bytes; }
