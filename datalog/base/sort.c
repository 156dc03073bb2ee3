/* sort.c: introsort with a context (see sort.h): quicksort on the median of
 * three, insertion sort for short runs, heapsort once the recursion is
 * deeper than 2 log2 n, so the worst case stays O(n log n). */
#include "datalog/base/sort.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct sorter {
  char *base;
  size_t size;
  dl_compare cmp;
  void *ctx;
} sorter;

enum { SHORT_RUN = 12 };

static char *at(const sorter *s, size_t i) { return s->base + i * s->size; }

static int less(const sorter *s, size_t i, size_t j) { return s->cmp(at(s, i), at(s, j), s->ctx) < 0; }

/* Swaps two elements of a fixed size: memcpy of a constant size compiles to moves. */
#define SWAP_FIXED(n) \
  do { \
    char t[n]; \
    memcpy(t, a, n); \
    memcpy(a, b, n); \
    memcpy(b, t, n); \
  } while (0)

static void swap(const sorter *s, size_t i, size_t j)
{
  char tmp[DL_SORT_MAX_SIZE], *a = at(s, i), *b = at(s, j);
  if (i == j) return;
  switch (s->size) {
  case 4: SWAP_FIXED(4); return;
  case 8: SWAP_FIXED(8); return;
  case 12: SWAP_FIXED(12); return;
  case 16: SWAP_FIXED(16); return;
  default:
    memcpy(tmp, a, s->size);
    memcpy(a, b, s->size);
    memcpy(b, tmp, s->size);
  }
}

static void insertion_sort(const sorter *s, size_t lo, size_t hi)
{
  for (size_t i = lo + 1; i < hi; i++)
    for (size_t j = i; j > lo && less(s, j, j - 1); j--) swap(s, j, j - 1);
}

/* Restores the heap property below node i of the heap base[lo..lo+n). */
static void sift_down(const sorter *s, size_t lo, size_t i, size_t n)
{
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) return;
    if (child + 1 < n && less(s, lo + child, lo + child + 1)) child++;
    if (!less(s, lo + i, lo + child)) return;
    swap(s, lo + i, lo + child);
    i = child;
  }
}

static void heap_sort(const sorter *s, size_t lo, size_t hi)
{
  size_t n = hi - lo;
  for (size_t i = n / 2; i-- > 0;) sift_down(s, lo, i, n);
  for (size_t end = n; end-- > 1;) {
    swap(s, lo, lo + end);
    sift_down(s, lo, 0, end);
  }
}

/* Puts the median of lo, mid and hi-1 at lo, and partitions base[lo..hi)
 * around it; returns the pivot's final place. */
static size_t partition(const sorter *s, size_t lo, size_t hi)
{
  size_t mid = lo + (hi - lo) / 2, last = hi - 1;
  if (less(s, mid, lo)) swap(s, mid, lo);
  if (less(s, last, mid)) swap(s, last, mid);
  if (less(s, mid, lo)) swap(s, mid, lo);
  swap(s, lo, mid);
  size_t i = lo + 1, j = last;
  for (;;) {
    while (i <= j && less(s, i, lo)) i++;
    while (i <= j && less(s, lo, j)) j--;
    if (i >= j) break;
    swap(s, i++, j--);
  }
  swap(s, lo, j);
  return j;
}

static void intro_sort(const sorter *s, size_t lo, size_t hi, unsigned depth)
{
  while (hi - lo > SHORT_RUN) {
    if (depth-- == 0) {
      heap_sort(s, lo, hi);
      return;
    }
    size_t p = partition(s, lo, hi);
    /* recurse into the smaller side, loop on the larger: stack stays O(log n) */
    if (p - lo < hi - p - 1) {
      intro_sort(s, lo, p, depth);
      lo = p + 1;
    } else {
      intro_sort(s, p + 1, hi, depth);
      hi = p;
    }
  }
  insertion_sort(s, lo, hi);
}

void dl_sort(void *base, size_t n, size_t size, dl_compare cmp, void *ctx)
{
  assert(size > 0 && size <= DL_SORT_MAX_SIZE);
  assert(cmp != NULL && (base != NULL || n == 0));
  if (n < 2) return;
  sorter s = { base, size, cmp, ctx };
  unsigned depth = 0;
  for (size_t m = n; m > 1; m >>= 1) depth += 2;
  intro_sort(&s, 0, n, depth);
}

static uint64_t key_at(const char *e, size_t key_offset)
{
  uint64_t k;
  memcpy(&k, e + key_offset, sizeof k);
  return k;
}

int dl_sort_by_key64(void *base, size_t n, size_t size, size_t key_offset)
{
  assert((base || n == 0) && key_offset + sizeof(uint64_t) <= size);
  if (n < 2) return 1;
  char *scratch = malloc(n * size), *src = base, *dst = scratch;
  if (!scratch) return 0;
  size_t count[256];
  for (unsigned shift = 0; shift < 64; shift += 8) {
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) count[key_at(src + i * size, key_offset) >> shift & 255]++;
    if (count[key_at(src, key_offset) >> shift & 255] == n) continue;  /* one bucket: the pass moves nothing */
    for (size_t b = 0, sum = 0; b < 256; b++) {
      size_t c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++) {
      const char *e = src + i * size;
      memcpy(dst + count[key_at(e, key_offset) >> shift & 255]++ * size, e, size);
    }
    char *t = src;
    src = dst;
    dst = t;
  }
  if (src != base) memcpy(base, src, n * size);
  free(scratch);
  return 1;
}
