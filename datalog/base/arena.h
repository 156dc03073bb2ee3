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

/* Bytes allocated from the system so far. */
size_t dl_arena_bytes(const dl_arena *a);

#endif
