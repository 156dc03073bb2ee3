/* test_sort.c: dl_sort against qsort on random, sorted, reversed and
 * few-valued arrays, with a context that counts comparisons; and
 * dl_sort_by_key64 against a stable order (key, then original place) on
 * records with 12-byte payloads, keys random over all 64 bits or few. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/base/sort.h"

static int by_value(const void *a, const void *b, void *ctx)
{
  ++*(uint64_t *)ctx;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int plain(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static void sorts_as_qsort(const char *what, uint32_t *a, size_t n)
{
  uint32_t *want = malloc((n + 1) * sizeof *want);
  memcpy(want, a, n * sizeof *a);
  qsort(want, n, sizeof *want, plain);
  uint64_t compares = 0;
  dl_sort(a, n, sizeof *a, by_value, &compares);
  int ok = memcmp(a, want, n * sizeof *a) == 0;
  ok = ok && (n < 2 || compares > 0);
  CHECK(ok, "%s (n=%zu)", what, n);
  free(want);
}

typedef struct record { uint32_t place; uint64_t key; uint32_t pad; } record;

static int by_key_then_place(const void *a, const void *b)
{
  const record *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->place > y->place) - (x->place < y->place);
}

static uint64_t random64(void) { return (uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^ (uint64_t)rand(); }

/* Keys random (modulo modulus when not 0), with the bits of high set. */
static void sorts_by_key64(const char *what, size_t n, uint64_t modulus, uint64_t high)
{
  record *a = malloc((n + 1) * sizeof *a), *want = malloc((n + 1) * sizeof *want);
  for (size_t i = 0; i < n; i++) a[i] = (record){ (uint32_t)i, (modulus ? random64() % modulus : random64()) | high, 7 };
  memcpy(want, a, n * sizeof *a);
  qsort(want, n, sizeof *want, by_key_then_place);
  int ok = dl_sort_by_key64(a, n, sizeof *a, offsetof(record, key));
  for (size_t i = 0; ok && i < n; i++) ok = a[i].place == want[i].place && a[i].key == want[i].key;
  CHECK(ok, "key64 %s (n=%zu)", what, n);
  free(a);
  free(want);
}

int main(void)
{
  srand(7);
  size_t sizes[] = { 0, 1, 2, 3, 13, 100, 1000, 100000 };
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    size_t n = sizes[k];
    uint32_t *a = malloc((n + 1) * sizeof *a);
    for (size_t i = 0; i < n; i++) a[i] = (uint32_t)rand();
    sorts_as_qsort("random", a, n);
    sorts_as_qsort("sorted", a, n);
    for (size_t i = 0; i < n / 2; i++) { uint32_t t = a[i]; a[i] = a[n - 1 - i]; a[n - 1 - i] = t; }
    sorts_as_qsort("reversed", a, n);
    for (size_t i = 0; i < n; i++) a[i] = (uint32_t)rand() % 3;
    sorts_as_qsort("three values", a, n);
    free(a);
  }
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    sorts_by_key64("random", sizes[k], 0, 0);
    sorts_by_key64("five keys, stable", sizes[k], 5, 0);
    sorts_by_key64("one key", sizes[k], 1, 0);
    sorts_by_key64("the top byte the same in all", sizes[k], (uint64_t)1 << 40, (uint64_t)0xab << 56);
  }
  return check_exit();
}
