/* permset.c: sets of permutations and their closure (see permset.h). */
#include "datalog/structure/permset.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The smallest power of two at least n. */
static uint64_t power_of_two(uint64_t n)
{
  uint64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

int dl_permset_init(dl_permset *ps, uint32_t m, uint64_t cap)
{
  assert(ps && cap > 0);
  uint64_t most = ((uint64_t)1 << 26) / (m ? m : 1);
  if (cap > most) cap = most ? most : 1;
  *ps = (dl_permset){ .m = m, .cap = power_of_two(cap) };
  ps->elems = malloc((size_t)(ps->cap * m + 1) * sizeof *ps->elems);
  ps->slots = calloc(2 * ps->cap, sizeof *ps->slots);
  if (ps->elems && ps->slots) return 1;
  dl_permset_free(ps);
  return 0;
}

void dl_permset_free(dl_permset *ps)
{
  free(ps->elems);
  free(ps->slots);
  *ps = (dl_permset){ 0 };
}

static uint64_t perm_hash(const uint32_t *p, uint32_t m)
{
  uint64_t h = 1469598103934665603ull;
  for (uint32_t i = 0; i < m; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

int dl_permset_add(dl_permset *ps, const uint32_t *p)
{
  uint64_t mask = 2 * ps->cap - 1, i = perm_hash(p, ps->m) & mask;
  for (; ps->slots[i]; i = (i + 1) & mask)
    if (!memcmp(ps->elems + (ps->slots[i] - 1) * ps->m, p, ps->m * sizeof *p)) return 0;
  if (ps->n == ps->cap) return -1;
  memcpy(ps->elems + ps->n * ps->m, p, ps->m * sizeof *p);
  ps->slots[i] = ++ps->n;
  return 1;
}

int dl_permset_close(dl_permset *ps, const uint32_t *gens, uint32_t count)
{
  assert(ps && ps->n == 0 && (gens || count == 0));
  uint32_t m = ps->m, *tmp = malloc(((size_t)m + 1) * sizeof *tmp);
  if (!tmp) return -1;
  for (uint32_t j = 0; j < m; j++) tmp[j] = j;
  int whole = dl_permset_add(ps, tmp) >= 0;
  for (uint64_t e = 0; e < ps->n && whole; e++)
    for (uint32_t i = 0; i < count && whole; i++) {
      const uint32_t *p = ps->elems + e * m, *q = gens + (size_t)i * m;
      for (uint32_t j = 0; j < m; j++) tmp[j] = q[p[j]];
      whole = dl_permset_add(ps, tmp) >= 0;
    }
  free(tmp);
  return whole;
}
