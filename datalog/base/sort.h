/* sort.h: sorting with a context.  C's qsort hands its comparator no
 * context, which pushes callers to keep it in a global; a library that two
 * threads may use at once must not.  Not stable. */
#ifndef GDLOG_BASE_SORT_H
#define GDLOG_BASE_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Compares the elements at a and b: negative, zero or positive as a sorts
 * before, with or after b.  ctx is dl_sort's. */
typedef int (*dl_compare)(const void *a, const void *b, void *ctx);

/* Sorts base[0..n) of elements of size bytes (at most DL_SORT_MAX_SIZE) by
 * cmp, in place, in O(n log n) without allocating. */
void dl_sort(void *base, size_t n, size_t size, dl_compare cmp, void *ctx);

enum { DL_SORT_MAX_SIZE = 256 };

/* Sorts a[0..n) ascending, in place: by insertion when n is small (a ground
 * rule's body, most often already sorted), else as dl_sort does. */
void dl_sort_int32(int32_t *a, size_t n);

/* Sorts base[0..n) of elements of size bytes by the uint64_t each holds at
 * byte key_offset, stably (elements with equal keys keep their order), by
 * radix in O(n) passes over a scratch copy.  Returns 1, or 0 when the
 * scratch could not be allocated (base is then unchanged). */
int dl_sort_by_key64(void *base, size_t n, size_t size, size_t key_offset);

#endif
