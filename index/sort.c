/* sort.c: LSD radix sort, MSD radix sort in place (see sort.h), insertion
 * sort for a few keys. */
#include "index/sort.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DIGIT_BITS = 11, MAX_PASSES = (64 + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS };

/* Counts, in one read of a, how often each digit occurs at each pass:
 * count[pass][d], digits of width bits. */
static void histograms(const uint64_t *a, uint64_t n, uint32_t passes, uint32_t width, uint64_t *count)
{
  uint64_t mask = ((uint64_t)1 << width) - 1;
  for (uint64_t i = 0; i < n; i++)
    for (uint32_t p = 0; p < passes; p++) count[((size_t)p << width) + ((a[i] >> (p * width)) & mask)]++;
}

/* Moves src[0..n) into dst by the digit at shift, given its counts; returns 0
 * (and moves nothing) when every key has the same digit there. */
static int scatter(const uint64_t *src, uint64_t *dst, uint64_t n, uint32_t shift, uint32_t width,
                   uint64_t *count)
{
  uint64_t mask = ((uint64_t)1 << width) - 1, sum = 0;
  for (uint64_t d = 0; d <= mask; d++) {
    if (count[d] == n) return 0;
    uint64_t c = count[d];
    count[d] = sum;
    sum += c;
  }
  for (uint64_t i = 0; i < n; i++) dst[count[(src[i] >> shift) & mask]++] = src[i];
  return 1;
}

/* Below this many keys, an insertion sort is cheaper than clearing the counts. */
enum { SMALL_SORT = 32 };

static void insertion_sort(uint64_t *a, uint64_t n)
{
  for (uint64_t i = 1; i < n; i++) {
    uint64_t x = a[i], j = i;
    for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
    a[j] = x;
  }
}

/* Are a[0..n) in order?  Staged keys often are (a delta joined in its
 * order); the check stops at the first key out of order. */
static int in_order(const uint64_t *a, uint64_t n)
{
  for (uint64_t i = 1; i < n; i++)
    if (a[i] < a[i - 1]) return 0;
  return 1;
}

int ix_radix_sort(uint64_t *a, uint64_t n, uint32_t bits)
{
  assert((a || n == 0) && bits <= 64);
  if (n < 2 || bits == 0 || in_order(a, n)) return 1;
  if (n <= SMALL_SORT) {
    insertion_sort(a, n);
    return 1;
  }
  uint32_t passes = (bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
  uint32_t width = (bits + passes - 1) / passes;
  uint64_t *tmp = malloc(n * sizeof *tmp);
  uint64_t *count = calloc((size_t)passes << width, sizeof *count);
  if (!tmp || !count) {
    free(tmp);
    free(count);
    return 0;
  }
  histograms(a, n, passes, width, count);
  uint64_t *src = a, *dst = tmp;
  for (uint32_t p = 0; p < passes; p++) {
    if (!scatter(src, dst, n, p * width, width, count + ((size_t)p << width))) continue;
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, n * sizeof *a);
  free(tmp);
  free(count);
  return 1;
}

enum { FLAG_BITS = 8, FLAG_BUCKETS = 1 << FLAG_BITS };

/* Sorts a[0..n), whose keys agree above bit `top`, by bits [0, top). */
static void flag_sort(uint64_t *a, uint64_t n, uint32_t top)
{
  if (n <= SMALL_SORT || top == 0) {
    if (top) insertion_sort(a, n);
    return;
  }
  uint32_t width = top < FLAG_BITS ? top : FLAG_BITS, shift = top - width;
  uint64_t mask = ((uint64_t)1 << width) - 1, next[FLAG_BUCKETS], end[FLAG_BUCKETS] = { 0 };
  for (uint64_t i = 0; i < n; i++) end[(a[i] >> shift) & mask]++;
  for (uint64_t d = 0, sum = 0; d <= mask; d++) {
    next[d] = sum;
    end[d] = sum += end[d];
  }
  for (uint64_t d = 0; d <= mask; d++)
    while (next[d] < end[d]) {  /* carries each key of the wrong bucket to its own, in a cycle back to d */
      uint64_t x = a[next[d]], k = (x >> shift) & mask;
      while (k != d) {
        uint64_t y = a[next[k]];
        a[next[k]++] = x;
        x = y;
        k = (x >> shift) & mask;
      }
      a[next[d]++] = x;
    }
  for (uint64_t d = 0, from = 0; d <= mask; from = end[d++]) flag_sort(a + from, end[d] - from, shift);
}

void ix_radix_sort_in_place(uint64_t *a, uint64_t n, uint32_t bits)
{
  assert((a || n == 0) && bits <= 64);
  if (!in_order(a, n)) flag_sort(a, n, bits);
}
