/* arena.h: bump allocation per phase; everything is freed at once. */
#ifndef GDLOG_ARENA_H
#define GDLOG_ARENA_H

#include <stddef.h>

typedef struct dl_arena dl_arena;

/* Creates an empty arena; NULL when out of memory. */
dl_arena *dl_arena_create(void);

/* Frees the arena and all memory allocated from it; NULL is allowed. */
void dl_arena_destroy(dl_arena *a);

/* Returns size bytes aligned for any type, zeroed; NULL when out of memory. */
void *dl_arena_alloc(dl_arena *a, size_t size);

/* A point in the arena's allocations, to go back to. */
typedef struct dl_arena_mark {
  void *chunk;
  size_t used;
} dl_arena_mark;

/* The arena's current point. */
dl_arena_mark dl_arena_get_mark(const dl_arena *a);

/* Frees everything allocated since mark m was taken (what a parse kept
 * of a clause it did not keep).  m comes from this arena, and nothing
 * allocated before it has been released since. */
void dl_arena_release(dl_arena *a, dl_arena_mark m);

/* Bytes allocated from the system so far. */
size_t dl_arena_bytes(const dl_arena *a);

#endif
