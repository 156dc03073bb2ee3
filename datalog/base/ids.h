/* ids.h: a growable array of 32-bit ids (term ids, move ids): states,
 * legal moves, goal values.  The struct is the caller's: zero-initialise
 * it, grow it through these helpers, free it with dl_ids_free. */
#ifndef GDLOG_IDS_H
#define GDLOG_IDS_H

#include <stdint.h>

typedef struct dl_ids {
  uint32_t *ids;
  uint32_t n, cap;
} dl_ids;

/* Frees l's array and empties l; NULL is allowed. */
void dl_ids_free(dl_ids *l);

/* Makes room for n ids in l (its ids kept); 1, or 0 when out of memory. */
int dl_ids_reserve(dl_ids *l, uint32_t n);

/* Appends id to l; 1, or 0 when out of memory (l is unchanged). */
int dl_ids_push(dl_ids *l, uint32_t id);

#endif
