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

static int by_int(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

enum { INSERTION_MAX = 16 };

void dl_sort_int32(int32_t *a, size_t n)
{
  assert(a != NULL || n == 0);
  if (n > INSERTION_MAX) {
    dl_sort(a, n, sizeof *a, by_int, NULL);
    return;
  }
  for (size_t i = 1; i < n; i++) {
    int32_t x = a[i];
    size_t j = i;
    for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
    a[j] = x;
  }
}

static uint64_t key_at(const char *e, size_t key_offset)
{
  uint64_t k;
  memcpy(&k, e + key_offset, sizeof k);
  return k;
}

/* ---- stable sort by a 64-bit key ------------------------------------------------------------- */

typedef struct keyed {
  size_t size, key_offset;
} keyed;

static uint64_t key_of(const keyed *k, const char *base, size_t i) { return key_at(base + i * k->size, k->key_offset); }

/* Stable insertion sort of base[0..n) by key: short buckets. */
static void insert_by_key(const keyed *k, char *base, size_t n)
{
  char tmp[DL_SORT_MAX_SIZE];
  for (size_t i = 1; i < n; i++) {
    uint64_t key = key_of(k, base, i);
    size_t j = i;
    while (j > 0 && key_of(k, base, j - 1) > key) j--;
    if (j == i) continue;
    memcpy(tmp, base + i * k->size, k->size);
    memmove(base + (j + 1) * k->size, base + j * k->size, (i - j) * k->size);
    memcpy(base + j * k->size, tmp, k->size);
  }
}

/* One stable counting pass on the key's bits [shift, shift + bits): moves
 * src[0..n) to their buckets in dst.  next[] holds each bucket's start and
 * ends holding its end.  Inlined with a constant size, the copies compile
 * to moves. */
static inline void scatter(const char *src, char *dst, size_t n, size_t size, size_t key_offset, unsigned shift,
                           uint64_t mask, size_t *next)
{
  for (size_t i = 0; i < n; i++) {
    const char *e = src + i * size;
    memcpy(dst + next[key_at(e, key_offset) >> shift & mask]++ * size, e, size);
  }
}

static void scatter_any(const keyed *k, const char *src, char *dst, size_t n, unsigned shift, uint64_t mask,
                        size_t *next)
{
  switch (k->size) {
  case 8: scatter(src, dst, n, 8, k->key_offset, shift, mask, next); return;
  case 16: scatter(src, dst, n, 16, k->key_offset, shift, mask, next); return;
  case 24: scatter(src, dst, n, 24, k->key_offset, shift, mask, next); return;
  default: scatter(src, dst, n, k->size, k->key_offset, shift, mask, next);
  }
}

/* Turns counts into starts; returns 1 when one bucket holds all n. */
static int starts_of(size_t *count, size_t buckets, size_t n)
{
  for (size_t b = 0, sum = 0; b < buckets; b++) {
    size_t c = count[b];
    if (c == n) return 1;
    count[b] = sum;
    sum += c;
  }
  return 0;
}

/* LSD radix sort of a[0..n) on the key's bits below top, a byte a pass,
 * with b[0..n) as scratch; the result is in a. */
static void sort_low_bits(const keyed *k, char *a, char *b, size_t n, unsigned top)
{
  char *src = a, *dst = b;
  for (unsigned shift = 0; shift < top; shift += 8) {
    size_t count[256] = { 0 };
    for (size_t i = 0; i < n; i++) count[key_of(k, src, i) >> shift & 255]++;
    if (starts_of(count, 256, n)) continue;  /* one bucket: the pass moves nothing */
    scatter_any(k, src, dst, n, shift, 255, count);
    char *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, n * k->size);
}

enum { SHORT_BUCKET = 32 };

/* MSD on the top bits of those that vary (about n/4 buckets, so that they
 * are short), then each bucket on its own: by insertion when short, else by
 * LSD radix on the bits below.  Equal keys keep their order at every step.
 * Bits above the highest that varies are the same in every key: keys whose
 * top byte is constant (ground_prune.c's rule keys) would otherwise all
 * fall into one bucket. */
int dl_sort_by_key64(void *base, size_t n, size_t size, size_t key_offset)
{
  assert((base || n == 0) && key_offset + sizeof(uint64_t) <= size && size <= DL_SORT_MAX_SIZE);
  keyed k = { size, key_offset };
  if (n <= SHORT_BUCKET) return insert_by_key(&k, base, n), 1;
  uint64_t varies = 0, first = key_of(&k, base, 0);
  for (size_t i = 1; i < n; i++) varies |= key_of(&k, base, i) ^ first;
  if (!varies) return 1;
  unsigned top = 64 - (unsigned)__builtin_clzll(varies), bits = 8;
  while (bits < 16 && ((size_t)4 << bits) < n) bits++;
  if (bits > top) bits = top;
  unsigned shift = top - bits;
  size_t buckets = (size_t)1 << bits;
  char *scratch = malloc(n * size);
  size_t *start = malloc((buckets + 1) * sizeof *start), *next = malloc(buckets * sizeof *next);
  if (!scratch || !start || !next) return free(scratch), free(start), free(next), 0;
  memset(next, 0, buckets * sizeof *next);
  for (size_t i = 0; i < n; i++) next[key_of(&k, base, i) >> shift & (buckets - 1)]++;
  starts_of(next, buckets, n + 1);  /* n + 1: never one bucket, every start is set */
  memcpy(start, next, buckets * sizeof *start);
  start[buckets] = n;
  scatter_any(&k, base, scratch, n, shift, buckets - 1, next);
  for (size_t b = 0; b < buckets; b++) {
    size_t lo = start[b], m = start[b + 1] - lo;
    if (m <= SHORT_BUCKET) insert_by_key(&k, scratch + lo * size, m);
    else sort_low_bits(&k, scratch + lo * size, (char *)base + lo * size, m, shift);
  }
  memcpy(base, scratch, n * size);
  free(scratch);
  free(start);
  free(next);
  return 1;
}
