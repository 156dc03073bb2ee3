/* determines.c: functional dependencies between the columns of a
 * relation (ix_relation_determines), which grounding asks of the static
 * relations: does a binding of some columns fix another one? */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "index/relation.h"

/* The bits of the codes of column c of r. */
static unsigned code_bits(const ix_relation *r, uint32_t c)
{
  uint32_t n = ix_relation_column_values(r, c);
  return n <= 1 ? 0 : 32 - (unsigned)__builtin_clz(n - 1);
}

/* ix_relation_determines by a projection index (when a's codes do not pack in 64 bits). */
static int determines_by_index(ix_relation *r, uint64_t a, uint32_t b, int *ok)
{
  int idx;
  if (!ix_relation_index_ordered(r, a, (uint64_t)1 << b, &idx)) return *ok = 0;
  uint32_t n_a = (uint32_t)__builtin_popcountll(a);
  ix_val key[IX_MAX_ARITY] = { 0 }, prev[IX_MAX_ARITY], t[IX_MAX_ARITY];
  ix_iter it;
  ix_iter_begin_distinct(&it, r, idx, 0, n_a + 1, key);
  for (int first = 1; ix_iter_next(&it, t); first = 0) {
    int same = !first;
    for (uint32_t c = 0; same && c < IX_MAX_ARITY; c++)
      if (a >> c & 1) same = prev[c] == t[c];
    if (same) return 0;  /* one combination of a, two values of b */
    memcpy(prev, t, sizeof prev);
  }
  return 1;
}

/* One scan, the codes of a packed into a key of an open-addressing table
 * (building an index for it cost breakthrough 5% of its grounding); it
 * stops at the first two tuples that disagree. */
int ix_relation_determines(ix_relation *r, uint64_t a, uint32_t b, int *ok)
{
  assert(r && ok && b < ix_relation_arity(r) && !(a >> b & 1));
  uint32_t n = ix_relation_arity(r);
  unsigned bits = 0, width[IX_MAX_ARITY];
  for (uint32_t c = 0; c < n; c++) bits += width[c] = a >> c & 1 ? code_bits(r, c) : 0;
  uint64_t size = ix_relation_size(r);
  if (bits > 64 || size > UINT32_MAX / 4) return determines_by_index(r, a, b, ok);
  uint32_t cap = 16;
  while (cap < 2 * size) cap *= 2;
  uint64_t *keys = malloc(cap * sizeof *keys);
  uint32_t *vals = calloc(cap, sizeof *vals);  /* code of b + 1; 0: empty */
  int idx, holds = 1;
  if (!keys || !vals || !ix_relation_index(r, 0, &idx)) holds = *ok = 0;
  uint32_t codes[IX_MAX_ARITY];
  ix_val key[IX_MAX_ARITY] = { 0 };
  ix_iter it;
  if (holds) ix_iter_begin(&it, r, idx, 0, key);
  while (holds && ix_iter_next_codes(&it, codes)) {
    uint64_t k = 0;
    for (uint32_t c = 0; c < n; c++)
      if (a >> c & 1) k = (k << width[c]) | codes[c];
    uint32_t h = (uint32_t)((k * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
    while (vals[h] && keys[h] != k) h = (h + 1) & (cap - 1);
    if (!vals[h]) keys[h] = k, vals[h] = codes[b] + 1;
    else holds = vals[h] == codes[b] + 1;
  }
  free(keys);
  free(vals);
  return holds;
}
