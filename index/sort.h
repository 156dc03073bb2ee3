/* sort.h: radix sort of 64-bit keys, for packed tuples. */
#ifndef GDLOG_SORT_H
#define GDLOG_SORT_H

#include <stdint.h>

/* Sorts a[0..n) by their low `bits` bits (higher bits must be zero), least
 * significant byte first.  Returns 0 when out of memory (a is unchanged). */
int ix_radix_sort(uint64_t *a, uint64_t n, uint32_t bits);

/* Sorts a[0..n) as ix_radix_sort does, in place: most significant digit
 * first, each key swapped into its bucket (American flag sort).  It needs
 * no scratch copy of a, for inputs whose copy would cost too much memory. */
void ix_radix_sort_in_place(uint64_t *a, uint64_t n, uint32_t bits);

#endif
