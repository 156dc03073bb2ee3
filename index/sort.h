/* sort.h: radix sort of 64-bit keys, for packed tuples. */
#ifndef GDLOG_SORT_H
#define GDLOG_SORT_H

#include <stdint.h>

/* Sorts a[0..n) by their low `bits` bits (higher bits must be zero), least
 * significant byte first.  Returns 0 when out of memory (a is unchanged). */
int ix_radix_sort(uint64_t *a, uint64_t n, uint32_t bits);

#endif
