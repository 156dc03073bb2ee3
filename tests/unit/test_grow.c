/* test_grow.c: arrays that grow large keep their bytes through every
 * change of room: within a malloc block, from a block to a mapping and
 * back, and from mapping to mapping, growing and shrinking. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "datalog/base/grow.h"

/* Fills a[0..n) with a pattern of seed. */
static void fill(uint32_t *a, size_t n, uint32_t seed)
{
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i * 2654435761u ^ seed;
}

/* Whether a[0..n) holds fill's pattern of seed. */
static int holds(const uint32_t *a, size_t n, uint32_t seed)
{
  for (size_t i = 0; i < n; i++)
    if (a[i] != ((uint32_t)i * 2654435761u ^ seed)) return 0;
  return 1;
}

static void through_sizes(void)
{
  /* entries of 4 bytes: small, past DL_GROW_MAPPED, much larger, back down */
  static const size_t sizes[] = { 1, 100, 4096, DL_GROW_MAPPED / 4 - 8, DL_GROW_MAPPED / 4, 3 * DL_GROW_MAPPED,
                                  (size_t)40 << 20, 5 * DL_GROW_MAPPED, DL_GROW_MAPPED / 4 - 4, 10, 2 * DL_GROW_MAPPED };
  enum { N = sizeof sizes / sizeof *sizes };
  uint32_t *a = NULL;
  size_t had = 0;
  for (int k = 0; k < N; k++) {
    uint32_t *q = dl_grow_to(a, sizes[k] * sizeof *q);
    if (!CHECK(q != NULL, "room for %zu entries", sizes[k])) break;
    size_t kept = had < sizes[k] ? had : sizes[k];
    CHECK(holds(q, kept, (uint32_t)k), "%zu entries kept going from %zu to %zu", kept, had, sizes[k]);
    fill(q, sizes[k], (uint32_t)k + 1);
    a = q;
    had = sizes[k];
  }
  dl_grow_free(a);
  dl_grow_free(NULL);
}

/* Many arrays at once, grown in turns as the term store grows its own. */
static void in_turns(void)
{
  enum { ARRAYS = 4, STEPS = 12 };
  uint32_t *a[ARRAYS] = { NULL };
  size_t n = 256;
  for (int s = 0; s < STEPS; s++, n *= 2)
    for (int i = 0; i < ARRAYS; i++) {
      uint32_t *q = dl_grow_to(a[i], n * sizeof *q);
      if (!CHECK(q != NULL, "array %d: room for %zu entries", i, n)) continue;
      CHECK(s == 0 || holds(q, n / 2, (uint32_t)(i * 100 + s)), "array %d keeps %zu entries", i, n / 2);
      fill(q, n, (uint32_t)(i * 100 + s + 1));
      a[i] = q;
    }
  for (int i = 0; i < ARRAYS; i++) dl_grow_free(a[i]);
}

int main(void)
{
  through_sizes();
  in_turns();
  return check_exit();
}
