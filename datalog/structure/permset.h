/* permset.h: a set of permutations of m points (open addressing on their
 * hash), and the group that generators make, enumerated into one. */
#ifndef GDLOG_PERMSET_H
#define GDLOG_PERMSET_H

#include <stdint.h>

typedef struct dl_permset {
  uint32_t m;
  uint32_t *elems;       /* n permutations of m points, in the order added */
  uint64_t n, cap;
  uint64_t *slots;       /* index + 1, 0: empty; 2 * cap of them */
} dl_permset;

/* Makes ps an empty set for at least cap permutations of m points (cap
 * lowered so that they take at most 256 MB).  1, or 0 when out of memory. */
int dl_permset_init(dl_permset *ps, uint32_t m, uint64_t cap);

/* Frees what ps holds; a zeroed ps is allowed. */
void dl_permset_free(dl_permset *ps);

/* Adds p when new: 1 added, 0 there already, -1 the set is full. */
int dl_permset_add(dl_permset *ps, const uint32_t *p);

/* Enumerates the group of gens[0..count) (rows of m points; p maps point
 * j to p[j]) into ps, an empty set: the identity first, then breadth
 * first.  1 when the whole group fit, 0 when ps filled up; -1 when out of
 * memory. */
int dl_permset_close(dl_permset *ps, const uint32_t *gens, uint32_t count);

#endif
