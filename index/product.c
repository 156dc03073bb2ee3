/* product.c: staging the tuples of a product of factors at once
 * (ix_relation_stage_product, see relation.h): keyed from the factors'
 * codes when the primary index is one chunk, else tuple by tuple; and the
 * product of a base and a run of another relation (ix_relation_stage_run),
 * keyed from the run's keys in place. */
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
    *key |= (Word_t)code << ix_key_shift(ix, r->arity, c);
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
    for (uint64_t t = 0; t < n_last; t++) added += (uint64_t)dense_set(bits, prefix | last_keys[t]);
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

/* ---- a base and a run -------------------------------------------------------- */

enum { RUN_CHUNK = 64 };  /* run tuples read into ids for one product at most */

/* A column of a run read into the head: where its code sits in the run's
 * keys, the run relation's ids of its codes, and the head column it gives
 * (its dictionary, and where its code goes in the head's key). */
typedef struct run_col {
  uint32_t shift, mask;
  const ix_val *id_of;
  uint32_t to;
  const colmap *head;
  uint32_t head_shift;
} run_col;

/* Can h take a tuple with one key addition and nothing else to keep (a
 * bitmap, no other index, no mirror)? */
static int takes_keys(const ix_relation *h)
{
  const ix_index *ix = h->indexes[0];
  return h->arity > 0 && ix->dense && !ix->flat && h->n_indexes == 1;
}

/* Stages into h, which takes_keys, the heads of run tuples i.. (see
 * ix_relation_stage_run) from their keys, while their values have codes in
 * h; returns the first tuple that has a value without one (run->n: none),
 * and 0 in *ok when out of memory. */
static uint64_t stage_run_keys(ix_relation *h, const ix_val *base, const ix_run *run, const uint32_t *to_head,
                               ix_tupleset *added, uint64_t i, int *ok)
{
  const ix_index *ix = h->indexes[0], *rix = (const ix_index *)run->ix;
  const ix_relation *r = run->rel;
  run_col cols[IX_MAX_ARITY];
  uint8_t given[IX_MAX_ARITY] = { 0 };
  uint32_t n_cols = 0;
  for (uint32_t p = 0; p < r->arity; p++) {
    uint32_t c = rix->order[p], to = to_head[c];
    if (to == IX_NO_COLUMN) continue;
    given[to] = 1;
    cols[n_cols++] = (run_col){ rix->shift[p], rix->code_mask[p], r->cols[c].id_of, to, &h->cols[to],
                                ix_key_shift(ix, h->arity, to) };
  }
  Word_t base_key = 0;
  for (uint32_t c = 0; c < h->arity; c++) {
    uint32_t code = given[c] ? 0 : code_get(&h->cols[c], base[c]);
    if (code == NO_CODE) return i;
    base_key |= (Word_t)code << ix_key_shift(ix, h->arity, c);
  }
  uint64_t *bits = ix->dense;
  ix_val ids[IX_MAX_ARITY];
  for (; i < run->n; i++) {
    Word_t k = run->keys[i], key = base_key;
    for (uint32_t j = 0; j < n_cols; j++) {
      uint32_t code = code_get(cols[j].head, ids[j] = cols[j].id_of[(uint32_t)(k >> cols[j].shift) & cols[j].mask]);
      if (code == NO_CODE) return i;
      key |= (Word_t)code << cols[j].head_shift;
    }
    if (!dense_set(bits, key)) continue;
    h->size++;
    h->n_taken++;
    if (!added) continue;
    ix_val tuple[IX_MAX_ARITY];
    memcpy(tuple, base, h->arity * sizeof *tuple);
    for (uint32_t j = 0; j < n_cols; j++) tuple[cols[j].to] = ids[j];
    if (!ix_tupleset_push(added, tuple)) return *ok = 0, i;
  }
  return i;
}

/* Stages the head of run tuple i as ix_relation_stage does. */
static int stage_run_tuple(ix_relation *h, const ix_val *base, const ix_run *run, const uint32_t *to_head,
                           ix_tupleset *added, uint64_t i)
{
  ix_val tuple[IX_MAX_ARITY];
  ix_run_tuple(run, i, tuple);
  ix_factor one = { tuple, 1, run->rel->arity, to_head };
  const uint64_t first = 0;
  return stage_combination(h, base, &one, 1, &first, added);
}

/* Stages the heads of a run, RUN_CHUNK tuples at a time, as products of one
 * factor (their ids). */
static int stage_run_chunks(ix_relation *h, const ix_val *base, const ix_run *run, const uint32_t *to_head,
                            ix_tupleset *added)
{
  uint32_t m = run->rel->arity;
  ix_val ids[RUN_CHUNK * m];
  for (uint64_t t = 0; t < run->n;) {
    uint64_t k = 0;
    for (; k < RUN_CHUNK && t < run->n; k++, t++) ix_run_tuple(run, t, ids + k * m);
    ix_factor chunk = { ids, k, m, to_head };
    if (!ix_relation_stage_product(h, base, &chunk, 1, added, NULL)) return 0;
  }
  return 1;
}

int ix_relation_stage_run(ix_relation *h, const ix_val *base, const ix_run *run, const uint32_t *to_head,
                          ix_tupleset *added)
{
  assert(h && base && run && to_head && h->arity > 0 && h != run->rel && (!added || added->arity == h->arity));
  if (!takes_keys(h)) return stage_run_chunks(h, base, run, to_head, added);
  int ok = 1;
  for (uint64_t i = 0; ok && i < run->n;) {
    if (takes_keys(h) && (i = stage_run_keys(h, base, run, to_head, added, i, &ok)) == run->n) break;
    ok = ok && stage_run_tuple(h, base, run, to_head, added, i++);  /* a new value: its code made, h maybe relaid */
  }
  return ok;
}
