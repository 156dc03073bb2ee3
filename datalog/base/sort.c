/* sort.c: introsort with a context (see sort.h): quicksort on the median of
 * three, insertion sort for short runs, heapsort once the recursion is
 * deeper than 2 log2 n, so the worst case stays O(n log n). */
#include "datalog/base/sort.h"

#include <assert.h>
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

static void swap(const sorter *s, size_t i, size_t j)
{
  char tmp[DL_SORT_MAX_SIZE];
  if (i == j) return;
  memcpy(tmp, at(s, i), s->size);
  memcpy(at(s, i), at(s, j), s->size);
  memcpy(at(s, j), tmp, s->size);
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
