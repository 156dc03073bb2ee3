/* product.c: staging the tuples of a product of factors at once
 * (ix_relation_stage_product, see relation.h): keyed from the factors'
 * codes when the primary index is one chunk, else tuple by tuple. */
#include "index/relation.h"
#include "index/relation_impl.h"

#include <assert.h>
#include <string.h>

enum { PRODUCT_MAX_TUPLES = 1024 };  /* factor tuples a product keys at most (else tuple by tuple) */

/* Next combination of factor tuples (an odometer over at[]); 0 after the last. */
static int next_combination(uint64_t *at, const ix_factor *factors, uint32_t n_factors)
{
  for (uint32_t i = n_factors; i-- > 0;) {
    if (++at[i] < factors[i].n) return 1;
    at[i] = 0;
  }
  return 0;
}

/* Writes the ids of factor tuple t into the columns the factor gives. */
static void put_factor(const ix_factor *f, uint64_t t, ix_val *tuple)
{
  for (uint32_t j = 0; j < f->width; j++)
    if (f->column[j] != IX_NO_COLUMN) tuple[f->column[j]] = f->tuples[t * f->width + j];
}

/* The ids of product tuple `at`, into tuple. */
static void combination(const ix_relation *r, const ix_val *base, const ix_factor *factors, uint32_t n_factors,
                        const uint64_t *at, ix_val *tuple)
{
  memcpy(tuple, base, r->arity * sizeof *tuple);
  for (uint32_t i = 0; i < n_factors; i++) put_factor(&factors[i], at[i], tuple);
}

/* Stages product tuple `at` with ix_relation_stage; 0 when out of memory. */
static int stage_combination(ix_relation *r, const ix_val *base, const ix_factor *factors, uint32_t n_factors,
                             const uint64_t *at, ix_tupleset *added)
{
  ix_val tuple[IX_MAX_ARITY];
  combination(r, base, factors, n_factors, at, tuple);
  return ix_relation_stage(r, tuple, added);
}

/* The part of a one-chunk key that factor tuple t gives; 0 when a value has
 * no code yet. */
static int factor_key(const ix_relation *r, const ix_factor *f, uint64_t t, Word_t *key)
{
  const ix_index *ix = r->indexes[0];
  *key = 0;
  for (uint32_t j = 0; j < f->width; j++) {
    uint32_t c = f->column[j];
    if (c == IX_NO_COLUMN) continue;
    uint32_t code = code_get(&r->cols[c], f->tuples[t * f->width + j]);
    if (code == NO_CODE) return 0;
    uint32_t p = 0;
    while (ix->order[p] != c) p++;
    *key |= (Word_t)code << ix->shift[p];
  }
  return 1;
}

/* Keys the base (into *base_key) and the factors' tuples (into keys, per
 * factor from first[i]) for a one-chunk primary index; 0 when a value has
 * no code yet or there are too many factor tuples. */
static int product_keys(const ix_relation *r, const ix_val *base, const ix_factor *factors, uint32_t n_factors,
                        Word_t *base_key, Word_t *keys, uint64_t *first)
{
  if (r->arity == 0 || r->indexes[0]->n_chunks != 1) return 0;
  uint32_t codes[IX_MAX_ARITY];
  uint8_t given[IX_MAX_ARITY] = { 0 };
  for (uint32_t i = 0; i < n_factors; i++)
    for (uint32_t j = 0; j < factors[i].width; j++)
      if (factors[i].column[j] != IX_NO_COLUMN) given[factors[i].column[j]] = 1;
  for (uint32_t c = 0; c < r->arity; c++)
    if ((codes[c] = given[c] ? 0 : code_get(&r->cols[c], base[c])) == NO_CODE) return 0;
  *base_key = chunk_key(r->indexes[0], 0, codes);
  uint64_t n = 0;
  for (uint32_t i = 0; i < n_factors; i++) {
    first[i] = n;
    if (factors[i].n > PRODUCT_MAX_TUPLES - n) return 0;
    for (uint64_t t = 0; t < factors[i].n; t++)
      if (!factor_key(r, &factors[i], t, &keys[n++])) return 0;
  }
  return 1;
}

/* Adds product tuple `at` of key `key` to a dense relation (a bit test
 * when it is there); 0 when out of memory. */
static int add_dense_key(ix_relation *r, Word_t key, const ix_val *base, const ix_factor *factors, uint32_t n_factors,
                         const uint64_t *at, ix_tupleset *added)
{
  if (dense_test(r->indexes[0]->dense, key)) return 1;
  uint32_t codes[IX_MAX_ARITY];
  ix_val tuple[IX_MAX_ARITY];
  if (r->n_indexes > 1) key_codes(r, r->indexes[0], key, codes);
  if (added) combination(r, base, factors, n_factors, at, tuple);
  return ix_insert_dense(r, key, codes, tuple, added);
}

/* Sets the bits of a product's keys in a dense relation with no other
 * index, no mirror and nothing to report to: the last factor's keys in a
 * loop of their own under each combination of the others. */
static void set_product_bits(ix_relation *r, Word_t base_key, const Word_t *keys, const uint64_t *first,
                             const ix_factor *factors, uint32_t n_factors)
{
  uint64_t *bits = r->indexes[0]->dense, at[IX_MAX_ARITY] = { 0 }, added = 0;
  uint32_t last = n_factors - 1;
  const Word_t *last_keys = keys + first[last];
  uint64_t n_last = factors[last].n;
  do {
    Word_t prefix = base_key;
    for (uint32_t i = 0; i < last; i++) prefix |= keys[first[i] + at[i]];
    for (uint64_t t = 0; t < n_last; t++) {
      Word_t key = prefix | last_keys[t];
      uint64_t *w = &bits[key >> 6], bit = (uint64_t)1 << (key & 63);
      added += !(*w & bit);
      *w |= bit;
    }
  } while (next_combination(at, factors, last));
  r->size += added;
  r->n_taken += added;
}

int ix_relation_stage_product(ix_relation *r, const ix_val *base, const ix_factor *factors, uint32_t n_factors,
                              ix_tupleset *added, uint64_t *n_tuples)
{
  assert(r && base && (factors || n_factors == 0));
  assert(!added || added->arity == r->arity);
  if (n_tuples) *n_tuples = 0;
  for (uint32_t i = 0; i < n_factors; i++)
    if (factors[i].n == 0) return 1;
  Word_t base_key = 0, keys[PRODUCT_MAX_TUPLES];
  uint64_t first[IX_MAX_ARITY], at[IX_MAX_ARITY] = { 0 };
  int by_key = product_keys(r, base, factors, n_factors, &base_key, keys, first), relaid = 0;
  const ix_index *ix = r->indexes[0];
  if (by_key && n_factors > 0 && ix->dense && !ix->flat && r->n_indexes == 1 && !added) {
    set_product_bits(r, base_key, keys, first, factors, n_factors);
    for (uint32_t i = 0; n_tuples && i < n_factors; i++) *n_tuples = (i ? *n_tuples : 1) * factors[i].n;
    return 1;
  }
  uint64_t n = 0;
  do {
    Word_t key = base_key;
    for (uint32_t i = 0; by_key && i < n_factors; i++) key |= keys[first[i] + at[i]];
    int ok = !by_key || relaid ? stage_combination(r, base, factors, n_factors, at, added)
             : r->indexes[0]->dense ? add_dense_key(r, key, base, factors, n_factors, at, added)
                                    : ix_stage_key(r, key, &relaid);
    if (!ok) return 0;
    n++;
  } while (next_combination(at, factors, n_factors));
  if (n_tuples) *n_tuples = n;
  return 1;
}
