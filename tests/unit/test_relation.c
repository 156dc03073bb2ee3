/* test_relation.c: the Judy-indexed relation against a plain hash set, on
 * random tuples: sizes, membership, full scans and every lookup pattern,
 * across widening rebuilds and multi-chunk keys; and a few million dense and
 * sparse keys read back (libJudy has lost keys under some compilers).
 * Lookups run on the sorted mirrors of the indexes (see relation.c), with
 * keys added since they were made, and on Judy when a mirror is stale;
 * through ix_iter and, where the keys are one sorted run, ix_relation_run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "index/relation.h"
#include "index/sort.h"
#include "index/tupleset.h"

/* The calls under test, with their out-of-memory status checked. */
static int set_insert(ix_tupleset *s, const uint32_t *tuple)
{
  int is_new = -1;
  CHECK(ix_tupleset_insert(s, tuple, &is_new), "tupleset insert: out of memory");
  return is_new;
}

static int rel_insert(ix_relation *r, const uint32_t *tuple)
{
  int is_new = -1;
  CHECK(ix_relation_insert(r, tuple, &is_new), "relation insert: out of memory");
  return is_new;
}

static int rel_index(ix_relation *r, uint64_t mask)
{
  int index = -1;
  CHECK(ix_relation_index(r, mask, &index), "index: out of memory");
  return index;
}

static uint64_t rel_flush(ix_relation *r)
{
  uint64_t n = 0;
  CHECK(ix_relation_flush(r, &n), "flush: out of memory");
  return n;
}

static uint64_t rel_flush_to(ix_relation *r, ix_tupleset *added)
{
  uint64_t n = 0;
  CHECK(ix_relation_flush_to(r, added, &n), "flush: out of memory");
  return n;
}

static uint64_t rng = 88172645463325252ULL;
static uint32_t next_rand(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)rng;
}

/* Counts the tuples of `truth` matching tuple q on the columns of mask. */
static uint64_t count_matching(const ix_tupleset *truth, uint32_t arity, uint64_t mask, const uint32_t *q)
{
  uint64_t n = 0;
  for (uint64_t t = 0; t < truth->n; t++) {
    const uint32_t *x = ix_tupleset_get(truth, t);
    int ok = 1;
    for (uint32_t c = 0; c < arity && ok; c++)
      if (mask >> c & 1) ok = x[c] == q[c];
    n += ok;
  }
  return n;
}

/* Number of distinct combinations of the columns of proj among the tuples
 * of `truth` that match q on the columns of mask. */
static uint64_t count_distinct(const ix_tupleset *truth, uint32_t arity, uint64_t mask, uint64_t proj,
                               const uint32_t *q)
{
  ix_tupleset seen;
  ix_tupleset_init(&seen, arity);
  uint32_t key[IX_MAX_ARITY];
  for (uint64_t t = 0; t < truth->n; t++) {
    const uint32_t *x = ix_tupleset_get(truth, t);
    int ok = 1;
    for (uint32_t c = 0; c < arity && ok; c++)
      if (mask >> c & 1) ok = x[c] == q[c];
    for (uint32_t c = 0; c < arity; c++) key[c] = proj >> c & 1 ? x[c] : 0;
    if (ok) set_insert(&seen, key);
  }
  uint64_t n = seen.n;
  ix_tupleset_free(&seen);
  return n;
}

/* Distinct iteration over the columns of proj, with those of mask bound:
 * each combination once, each written tuple a real one. */
static void check_distinct(ix_relation *r, const ix_tupleset *truth, uint32_t arity, uint64_t mask, uint64_t proj,
                           const uint32_t *q)
{
  int index = -1;
  CHECK(ix_relation_index_ordered(r, mask, proj, &index), "ordered index");
  uint32_t key[IX_MAX_ARITY], tuple[IX_MAX_ARITY];
  for (uint32_t c = 0; c < arity; c++) key[c] = q[c];
  ix_tupleset seen;
  ix_tupleset_init(&seen, arity);
  ix_iter it;
  ix_iter_begin_distinct(&it, r, index, (uint32_t)__builtin_popcountll(mask),
                         (uint32_t)__builtin_popcountll(proj), key);
  uint64_t n = 0;
  while (ix_iter_next(&it, tuple)) {
    n++;
    CHECK(ix_tupleset_contains(truth, tuple), "distinct scan yields a tuple not inserted");
    for (uint32_t c = 0; c < arity; c++) key[c] = proj >> c & 1 ? tuple[c] : 0;
    CHECK(set_insert(&seen, key) == 1, "distinct scan repeats a combination (mask %llx proj %llx)",
          (unsigned long long)mask, (unsigned long long)proj);
  }
  uint64_t want = count_distinct(truth, arity, mask, proj, q);
  CHECK(n == want, "distinct count %llu want %llu (arity %u mask %llx proj %llx)", (unsigned long long)n,
        (unsigned long long)want, arity, (unsigned long long)mask, (unsigned long long)proj);
  ix_tupleset_free(&seen);
}

/* Scans index `index` of r (ordered for mask) with the columns of mask
 * bound to those of q: the tuples of `truth` that match, each once. */
static void check_scan(ix_relation *r, const ix_tupleset *truth, uint32_t arity, int index, uint64_t mask,
                       const uint32_t *q)
{
  uint32_t key[IX_MAX_ARITY], tuple[IX_MAX_ARITY], n_key = 0;
  for (uint32_t c = 0; c < arity; c++)
    if (mask >> c & 1) key[c] = q[c], n_key++;
  ix_iter it;
  ix_iter_begin(&it, r, index, n_key, key);
  uint64_t n = 0;
  while (ix_iter_next(&it, tuple)) {
    n++;
    CHECK(ix_tupleset_contains(truth, tuple), "scan yields a tuple not inserted");
    for (uint32_t c = 0; c < arity; c++)
      if (mask >> c & 1) CHECK(tuple[c] == q[c], "scan ignores a bound column (arity %u mask %llx col %u index %d)", arity, (unsigned long long)mask, c, index);
  }
  CHECK(n == count_matching(truth, arity, mask, q), "scan count %llu want %llu (arity %u mask %llx)",
        (unsigned long long)n, (unsigned long long)count_matching(truth, arity, mask, q), arity,
        (unsigned long long)mask);
  ix_run run;
  if (!ix_relation_run(r, index, n_key, key, &run)) return;
  for (uint64_t i = 0; i < run.n; i++) {
    ix_run_tuple(&run, i, tuple);
    CHECK(ix_tupleset_contains(truth, tuple), "run yields a tuple not inserted");
    for (uint32_t c = 0; c < arity; c++)
      if (mask >> c & 1) CHECK(tuple[c] == q[c], "run ignores a bound column (arity %u mask %llx)", arity, (unsigned long long)mask);
  }
  CHECK(run.n == n, "run count %llu want %llu (arity %u mask %llx)", (unsigned long long)run.n, (unsigned long long)n,
        arity, (unsigned long long)mask);
}

/* Inserts n random tuples into r and truth; `grow` widens the range of
 * values as i goes, so that new values appear late. */
static void insert_random(ix_relation *r, ix_tupleset *truth, uint32_t arity, uint32_t n, uint32_t range)
{
  uint32_t tuple[IX_MAX_ARITY];
  for (uint32_t i = 0; i < n; i++) {
    uint32_t grow = 1 + (uint32_t)((uint64_t)range * (i + 1) / n);  /* values appear late */
    for (uint32_t c = 0; c < arity; c++) tuple[c] = (next_rand() % grow) * 7919 % 1000003;
    int expect = set_insert(truth, tuple);
    int got = rel_insert(r, tuple);
    CHECK(got == expect, "insert arity %u: got %d want %d", arity, got, expect);
  }
}

/* A dense relation's bitmap view holds exactly the truth's tuples, and it
 * has the tuples that a bitmap needs: at least 256 (DENSE_MIN_TUPLES of
 * relation.c), and one per 64 bits of its range (DENSE_SPARSITY).  Returns
 * whether the relation is dense. */
static int check_dense_view(const ix_relation *r, const ix_tupleset *truth, uint32_t arity)
{
  ix_dense_view v;
  if (!ix_relation_dense_view(r, &v)) return 0;
  CHECK(truth->n >= 256 && v.n_words <= truth->n, "dense view of %llu words for %llu tuples",
        (unsigned long long)v.n_words, (unsigned long long)truth->n);
  uint64_t n = 0, found = 0;
  uint32_t tuple[IX_MAX_ARITY];
  for (uint64_t i = 0; i < v.n_words; i++)
    for (uint64_t x = v.bits[i]; x; x &= x - 1, n++) {
      uint64_t at = i << 6 | (uint64_t)__builtin_ctzll(x);
      for (uint32_t c = 0; c < arity; c++) tuple[c] = ix_relation_column_value(r, c, (uint32_t)(at >> v.shift[c] & v.mask[c]));
      found += ix_tupleset_contains(truth, tuple);
    }
  CHECK(n == truth->n && found == n, "dense view: %llu bits, %llu of them tuples, want %llu", (unsigned long long)n,
        (unsigned long long)found, (unsigned long long)truth->n);
  return 1;
}

/* Random tuples of values below range against a hash set, the relation
 * told first (when expect is not 0) that each column holds expect values. */
static void expected_relation(uint32_t arity, uint32_t n_tuples, uint32_t range, uint64_t expect)
{
  ix_relation *r = ix_relation_create(arity);
  uint64_t values[IX_MAX_ARITY];
  for (uint32_t c = 0; c < arity; c++) values[c] = expect;
  if (expect) ix_relation_expect(r, values);
  ix_tupleset truth;
  ix_tupleset_init(&truth, arity);
  uint32_t none[IX_MAX_ARITY] = { 0 };
  insert_random(r, &truth, arity, n_tuples, range);
  CHECK(ix_relation_size(r) == truth.n, "size %llu want %llu", (unsigned long long)ix_relation_size(r),
        (unsigned long long)truth.n);
  for (uint64_t t = 0; t < truth.n; t++) CHECK(ix_relation_contains(r, ix_tupleset_get(&truth, t)), "contains");
  int dense = check_dense_view(r, &truth, arity);
  int want = n_tuples >= 30000 && range <= 300;  /* the two dense cases of main must be */
  CHECK(dense || !want, "dense view of arity %u, range %u: %d", arity, range, dense);
  for (int trial = 0; trial < 40; trial++) {
    /* the second half reads mirrors with keys added since they were made */
    if (trial == 20) insert_random(r, &truth, arity, n_tuples / 16, range);
    uint64_t mask = arity ? (uint64_t)next_rand() % ((uint64_t)1 << (arity < 20 ? arity : 20)) : 0;
    int index = rel_index(r, mask);
    CHECK(index >= 0, "index");
    const uint32_t *q = truth.n ? ix_tupleset_get(&truth, next_rand() % truth.n) : none;
    check_scan(r, &truth, arity, index, mask, q);
    uint64_t proj = arity ? (uint64_t)next_rand() % ((uint64_t)1 << (arity < 20 ? arity : 20)) & ~mask : 0;
    if (truth.n < 50000) check_distinct(r, &truth, arity, mask, proj, q);
  }
  ix_tupleset_free(&truth);
  ix_relation_destroy(r);
}

static void random_relation(uint32_t arity, uint32_t n_tuples, uint32_t range)
{
  expected_relation(arity, n_tuples, range, 0);
}

/* Indexes asked for once, then read in every state of their mirrors while
 * tuples keep coming: stale (keys added since the last request, walked in
 * Judy), with sorted recent keys, and folded. */
static void mirror_states(uint32_t arity, uint32_t range)
{
  ix_relation *r = ix_relation_create(arity);
  ix_tupleset truth;
  ix_tupleset_init(&truth, arity);
  insert_random(r, &truth, arity, 500, range);
  int index[4];
  uint64_t masks[4] = { 0, 1, 2, 5 };
  for (int i = 0; i < 4; i++) CHECK((index[i] = rel_index(r, masks[i] & ((1u << arity) - 1))) >= 0, "index");
  for (int batch = 0; batch < 40; batch++) {
    insert_random(r, &truth, arity, batch % 3 == 0 ? 1 : 7 * (uint32_t)batch, range);
    for (int pass = 0; pass < 2; pass++) {  /* stale, then asked for again */
      for (int i = 0; i < 4; i++) {
        uint64_t mask = masks[i] & ((1u << arity) - 1);
        if (pass) CHECK(rel_index(r, mask) == index[i], "same index");
        check_scan(r, &truth, arity, index[i], mask, ix_tupleset_get(&truth, next_rand() % truth.n));
        if (pass) check_distinct(r, &truth, arity, 0, mask, ix_tupleset_get(&truth, 0));
      }
    }
  }
  ix_tupleset_free(&truth);
  ix_relation_destroy(r);
}

/* Staged tuples, flushed in batches, against a hash set; with a secondary
 * index built before the flushes so that flushing must keep it current. */
static void staged_relation(uint32_t arity, uint32_t n_tuples, uint32_t range)
{
  ix_relation *r = ix_relation_create(arity);
  ix_tupleset truth;
  ix_tupleset_init(&truth, arity);
  int secondary = rel_index(r, arity > 1 ? 2 : 0);
  uint32_t tuple[IX_MAX_ARITY];
  int64_t added = 0;
  for (uint32_t i = 0; i < n_tuples; i++) {
    for (uint32_t c = 0; c < arity; c++) tuple[c] = next_rand() % (1 + range * (i + 1) / n_tuples);
    set_insert(&truth, tuple);
    CHECK(ix_relation_stage(r, tuple, NULL), "stage");
    if (i % 1000 == 999) {
      added += rel_flush(r);
      CHECK(rel_index(r, arity > 1 ? 2 : 0) == secondary, "same index");
    }
  }
  added += rel_flush(r);
  CHECK(added == (int64_t)truth.n, "flushes added %lld, want %llu", (long long)added, (unsigned long long)truth.n);
  CHECK(ix_relation_size(r) == truth.n, "staged size");
  for (uint64_t t = 0; t < truth.n; t++) CHECK(ix_relation_contains(r, ix_tupleset_get(&truth, t)), "staged contains");
  ix_iter it;
  ix_iter_begin(&it, r, secondary, 0, NULL);
  uint64_t n = 0;
  while (ix_iter_next(&it, tuple)) n += ix_tupleset_contains(&truth, tuple);
  CHECK(n == truth.n, "secondary index holds %llu of %llu", (unsigned long long)n, (unsigned long long)truth.n);
  ix_tupleset_free(&truth);
  ix_relation_destroy(r);
}

/* Staged tuples flushed at once into an empty relation with no other index,
 * duplicates included; the new tuples reported (at staging once the
 * relation is dense, else by ix_relation_flush_to) are exactly the
 * distinct ones; with `bulk`, the relation is told so first
 * (ix_relation_bulk). */
static void staged_into_empty(uint32_t arity, uint32_t n_tuples, uint32_t range, int bulk)
{
  ix_relation *r = ix_relation_create(arity);
  if (bulk) ix_relation_bulk(r);
  ix_tupleset truth, reported;
  ix_tupleset_init(&truth, arity);
  ix_tupleset_init(&reported, arity);
  uint32_t tuple[IX_MAX_ARITY];
  for (uint32_t i = 0; i < n_tuples; i++) {
    for (uint32_t c = 0; c < arity; c++) tuple[c] = next_rand() % range;
    set_insert(&truth, tuple);
    CHECK(ix_relation_stage(r, tuple, &reported), "stage");
  }
  int64_t added = rel_flush_to(r, &reported);
  CHECK(added == (int64_t)truth.n && reported.n == truth.n, "flush into empty: added %lld, reported %llu, want %llu",
        (long long)added, (unsigned long long)reported.n, (unsigned long long)truth.n);
  for (uint64_t t = 0; t < reported.n; t++) CHECK(ix_tupleset_contains(&truth, ix_tupleset_get(&reported, t)), "reported");
  for (uint64_t t = 0; t < truth.n; t++) CHECK(ix_relation_contains(r, ix_tupleset_get(&truth, t)), "contains after fill");
  CHECK(ix_relation_size(r) == truth.n, "size after fill");
  ix_tupleset_free(&truth);
  ix_tupleset_free(&reported);
  ix_relation_destroy(r);
}

/* The codes ix_run_mark_codes marks for the last column of a run of the
 * primary index (key[0] bound) are those of its tuples' values there: each
 * tuple's code is marked, and as many codes as the run has tuples (a
 * tuple's other columns are key[0] and, for arity 2, this one). */
static void check_marked_codes(const ix_relation *r, const ix_run *run, const uint32_t *key, uint32_t arity)
{
  if (arity != 2) return;
  uint32_t last = arity - 1, n_codes = ix_relation_column_values(r, last);
  uint64_t *bits = calloc(n_codes / 64 + 1, sizeof *bits), marked = 0;
  if (!bits) return;
  ix_run_mark_codes(run, last, bits);
  for (uint32_t w = 0; w <= n_codes / 64; w++) marked += (uint64_t)__builtin_popcountll(bits[w]);
  uint32_t tuple[IX_MAX_ARITY];
  for (uint64_t i = 0; i < run->n; i++) {
    ix_run_tuple(run, i, tuple);
    uint32_t code = ix_relation_column_code(r, last, tuple[last]);
    CHECK(code < n_codes && (bits[code >> 6] >> (code & 63) & 1), "marked code of a run's tuple");
  }
  CHECK(marked == run->n && ix_relation_column_code(r, 0, key[0]) != IX_NO_CODE, "run of %llu tuples marks %llu codes",
        (unsigned long long)run->n, (unsigned long long)marked);
  free(bits);
}

/* Lookups of r's primary index with its first column bound to each of
 * its values, by ix_iter and by ix_relation_run: together they yield each
 * of truth's tuples once. */
static void check_first_column_lookups(ix_relation *r, const ix_tupleset *truth, uint32_t arity)
{
  int primary = rel_index(r, 1);
  uint64_t total = 0;
  uint32_t key[IX_MAX_ARITY] = { 0 }, tuple[IX_MAX_ARITY];
  for (uint32_t k = 0, n = ix_relation_column_values(r, 0); k < n; k++) {
    key[0] = ix_relation_column_value(r, 0, k);
    ix_iter it;
    ix_iter_begin(&it, r, primary, 1, key);
    uint64_t found = 0;
    while (ix_iter_next(&it, tuple)) {
      found++;
      CHECK(tuple[0] == key[0] && ix_tupleset_contains(truth, tuple), "lookup of arity %u yields a wrong tuple", arity);
    }
    ix_run run;
    if (ix_relation_run(r, primary, 1, key, &run)) {
      CHECK(run.n == found, "run of %llu, iteration of %llu", (unsigned long long)run.n, (unsigned long long)found);
      check_marked_codes(r, &run, key, arity);
    }
    total += found;
  }
  CHECK(total == truth->n, "lookups yield %llu tuples, want %llu", (unsigned long long)total, (unsigned long long)truth->n);
  int found_index;
  CHECK(ix_relation_index_find(r, 1, &found_index) && found_index == primary, "index_find: the primary index");
}

/* After growth, r holds the tuples of truth, found by membership and by
 * lookups; then both are freed. */
static void check_grown(ix_relation *r, ix_tupleset *truth, uint32_t arity)
{
  CHECK(ix_relation_size(r) == truth->n, "grown: size %llu want %llu", (unsigned long long)ix_relation_size(r),
        (unsigned long long)truth->n);
  for (uint64_t t = 0; t < truth->n; t++) CHECK(ix_relation_contains(r, ix_tupleset_get(truth, t)), "contains after growth");
  check_first_column_lookups(r, truth, arity);
  ix_tupleset_free(truth);
  ix_relation_destroy(r);
}

/* A sparse relation told a bulk input, filled by one flush into its empty
 * Judy array (its sorted keys kept as the lookup mirror), looked up by its
 * first column, then grown by single inserts and staged ones and looked up
 * again. */
static void filled_then_grown(uint32_t arity, uint32_t n_tuples, uint32_t range)
{
  ix_relation *r = ix_relation_create(arity);
  ix_tupleset truth;
  ix_tupleset_init(&truth, arity);
  uint32_t tuple[IX_MAX_ARITY];
  ix_relation_bulk(r);
  for (uint32_t i = 0; i < n_tuples; i++) {
    for (uint32_t c = 0; c < arity; c++) tuple[c] = next_rand() % range;
    set_insert(&truth, tuple);
    CHECK(ix_relation_stage(r, tuple, NULL), "stage");
  }
  CHECK(rel_flush(r) == truth.n && ix_relation_size(r) == truth.n, "fill: size %llu want %llu",
        (unsigned long long)ix_relation_size(r), (unsigned long long)truth.n);
  check_first_column_lookups(r, &truth, arity);
  insert_random(r, &truth, arity, n_tuples / 20, range);
  for (uint32_t i = 0; i < n_tuples / 20; i++) {
    for (uint32_t c = 0; c < arity; c++) tuple[c] = next_rand() % (range + 50);
    set_insert(&truth, tuple);
    CHECK(ix_relation_stage(r, tuple, NULL), "stage");
  }
  rel_flush(r);
  check_grown(r, &truth, arity);
}

/* A relation filled at once from one buffer of tuples (duplicates
 * included), as the evaluator seeds data files: its keys made in the
 * buffer, its sorted keys the primary index's only copy.  Membership, of
 * tuples in it and of others, and lookups by the first column; then
 * inserts, duplicates among them, which hand the keys to Judy. */
static void filled_at_once(uint32_t arity, uint32_t n_tuples, uint32_t range)
{
  ix_relation *r = ix_relation_create(arity);
  ix_tupleset truth;
  ix_tupleset_init(&truth, arity);
  uint32_t *all = n_tuples ? malloc((size_t)n_tuples * arity * sizeof *all) : NULL, tuple[IX_MAX_ARITY];
  CHECK(all != NULL || n_tuples == 0, "out of memory");
  for (uint32_t i = 0; i < n_tuples; i++) {
    for (uint32_t c = 0; c < arity; c++) all[(size_t)i * arity + c] = (next_rand() % range) * 7919 % 1000003;
    set_insert(&truth, all + (size_t)i * arity);
  }
  ix_relation_bulk(r);
  CHECK(ix_relation_stage_all(r, all, n_tuples), "stage all: out of memory");
  CHECK(rel_flush(r) == truth.n && ix_relation_size(r) == truth.n, "filled at once (arity %u): size %llu want %llu",
        arity, (unsigned long long)ix_relation_size(r), (unsigned long long)truth.n);
  for (uint64_t t = 0; t < truth.n; t++) CHECK(ix_relation_contains(r, ix_tupleset_get(&truth, t)), "contains after fill");
  for (uint32_t i = 0; i < 5000; i++) {
    for (uint32_t c = 0; c < arity; c++) tuple[c] = (next_rand() % (range + 100)) * 7919 % 1000003;
    CHECK(ix_relation_contains(r, tuple) == ix_tupleset_contains(&truth, tuple), "membership of a tuple (arity %u)", arity);
  }
  check_first_column_lookups(r, &truth, arity);
  for (uint64_t t = 0; t < 100 && t < truth.n; t++) {
    memcpy(tuple, ix_tupleset_get(&truth, t * 7 % truth.n), arity * sizeof *tuple);
    CHECK(rel_insert(r, tuple) == 0, "a tuple filled at once, inserted again, is not new");
  }
  insert_random(r, &truth, arity, n_tuples / 10, range + 100);
  check_grown(r, &truth, arity);
}

/* A dense relation (a 64 x 64 product) whose second column then grows by
 * 70,000 values: it widens as a bitmap, then gets too sparse for one and
 * goes back to Judy.  Inserted or staged (flushed every 5,000, the new
 * tuples reported); a secondary index built early must stay complete. */
static void dense_then_sparse(int staged)
{
  ix_relation *r = ix_relation_create(2);
  ix_tupleset truth, reported;
  ix_tupleset_init(&truth, 2);
  ix_tupleset_init(&reported, 2);
  int secondary = -1;
  int64_t added = 0;
  for (uint32_t i = 0; i < 64 * 64 + 70000; i++) {
    uint32_t tuple[2] = { i < 4096 ? i / 64 : 0, i < 4096 ? i % 64 : 100000 + i };
    set_insert(&truth, tuple);
    if (staged) CHECK(ix_relation_stage(r, tuple, &reported), "stage");
    else CHECK(rel_insert(r, tuple) == 1, "insert");
    if (staged && (i + 1) % 5000 == 0) added += rel_flush_to(r, &reported);
    if (i == 4096) secondary = rel_index(r, 2);
  }
  added += rel_flush_to(r, &reported);
  if (staged) CHECK(added == (int64_t)truth.n && reported.n == truth.n, "dense then sparse: added %lld, reported %llu",
                    (long long)added, (unsigned long long)reported.n);
  CHECK(ix_relation_size(r) == truth.n, "dense then sparse: size %llu", (unsigned long long)ix_relation_size(r));
  for (uint64_t t = 0; t < truth.n; t++) CHECK(ix_relation_contains(r, ix_tupleset_get(&truth, t)), "dense then sparse: contains");
  uint32_t key[2] = { 0, 0 }, tuple[2];
  uint64_t n = 0;
  ix_iter it;
  ix_iter_begin(&it, r, rel_index(r, 1), 1, key);
  while (ix_iter_next(&it, tuple)) n += tuple[0] == 0;
  CHECK(n == 64 + 70000, "dense then sparse: %llu tuples with first column 0", (unsigned long long)n);
  n = 0;
  ix_iter_begin(&it, r, secondary, 0, key);
  while (ix_iter_next(&it, tuple)) n++;
  CHECK(n == truth.n, "dense then sparse: secondary index holds %llu", (unsigned long long)n);
  ix_tupleset_free(&truth);
  ix_tupleset_free(&reported);
  ix_relation_destroy(r);
}

/* After staging and flushing into r: the flushes added truth's tuples, r
 * holds them, and those reported (all of them when `report`) were staged. */
static void check_staged(const ix_relation *r, const char *what, int64_t added, const ix_tupleset *truth,
                         const ix_tupleset *reported, int report)
{
  CHECK(added == (int64_t)truth->n && reported->n == (report ? truth->n : 0), "%s: added %lld, reported %llu, want %llu",
        what, (long long)added, (unsigned long long)reported->n, (unsigned long long)truth->n);
  CHECK(ix_relation_size(r) == truth->n, "%s: size %llu", what, (unsigned long long)ix_relation_size(r));
  for (uint64_t t = 0; t < truth->n; t++) CHECK(ix_relation_contains(r, ix_tupleset_get(truth, t)), "%s: contains", what);
  for (uint64_t t = 0; t < reported->n; t++)
    CHECK(ix_tupleset_contains(truth, ix_tupleset_get(reported, t)), "%s: reported a tuple not staged", what);
}

/* ix_relation_stage_product against each combination put in a hash set:
 * random bases and factors (one to three, each giving one column from the
 * first position of its pairs; the second gives none), on a relation that
 * turns dense on the way and later widens (new values).  With `report`, a
 * secondary index and the new tuples reported through the flushes; without,
 * neither (a bitmap's products then set their bits directly). */
static void staged_products(int report)
{
  enum { ARITY = 4 };
  ix_relation *r = ix_relation_create(ARITY);
  ix_tupleset truth, reported;
  ix_tupleset_init(&truth, ARITY);
  ix_tupleset_init(&reported, ARITY);
  ix_tupleset *to = report ? &reported : NULL;
  int secondary = report ? rel_index(r, 1 << 3) : 0;
  int64_t added = 0;
  for (int round = 0; round < 400; round++) {
    uint32_t range = round < 250 ? 16 : 24, cols[ARITY] = { 0, 1, 2, 3 }, n_factors = 1 + next_rand() % 3;
    for (uint32_t i = ARITY - 1; i > 0; i--) {
      uint32_t j = next_rand() % (i + 1), t = cols[i];
      cols[i] = cols[j], cols[j] = t;
    }
    uint32_t base[ARITY], pairs[3][2 * 12], column[3][2];
    ix_factor factors[3];
    for (uint32_t c = 0; c < ARITY; c++) base[c] = next_rand() % range;
    for (uint32_t k = 0; k < n_factors; k++) {
      column[k][0] = cols[k];
      column[k][1] = IX_NO_COLUMN;
      factors[k] = (ix_factor){ pairs[k], 1 + next_rand() % 12, 2, column[k] };
      for (uint64_t t = 0; t < 2 * factors[k].n; t++) pairs[k][t] = next_rand() % range;
    }
    uint64_t at[3] = { 0, 0, 0 }, n = 0;
    for (;;) {
      uint32_t tuple[ARITY];
      memcpy(tuple, base, sizeof tuple);
      for (uint32_t k = 0; k < n_factors; k++) tuple[cols[k]] = pairs[k][2 * at[k]];
      set_insert(&truth, tuple);
      n++;
      uint32_t k = n_factors;
      while (k > 0 && ++at[k - 1] == factors[k - 1].n) at[--k] = 0;
      if (k == 0) break;
    }
    uint64_t got = 0;
    CHECK(ix_relation_stage_product(r, base, factors, n_factors, to, &got), "product: out of memory");
    CHECK(got == n, "product of %llu staged %llu", (unsigned long long)n, (unsigned long long)got);
    if (round % 50 == 49) added += rel_flush_to(r, to);
  }
  added += rel_flush_to(r, to);
  check_staged(r, "products", added, &truth, &reported, report);
  uint32_t tuple[ARITY];
  uint64_t n = 0;
  ix_iter it;
  ix_iter_begin(&it, r, secondary, 0, NULL);
  while (ix_iter_next(&it, tuple)) n += ix_tupleset_contains(&truth, tuple);
  CHECK(n == truth.n, "products: secondary index holds %llu of %llu", (unsigned long long)n, (unsigned long long)truth.n);
  ix_tupleset_free(&truth);
  ix_tupleset_free(&reported);
  ix_relation_destroy(r);
}

/* ix_relation_stage_run against each head put in a hash set: a source
 * relation of triples looked up by its second column (a secondary index,
 * sorted), each run's tuples giving two head columns (the run's first and
 * third, in either order)
 * over a random base, into a head of arity 4 that turns dense on the way
 * and later meets new values (codes made, the bitmap widened).  With
 * `report`, the new tuples are reported; runs of every length. */
static void staged_runs(int report)
{
  enum { ARITY = 4 };
  ix_relation *src = ix_relation_create(3), *h = ix_relation_create(ARITY);
  for (uint32_t i = 0; i < 3000; i++) {
    uint32_t t[3] = { next_rand() % 40, next_rand() % 24, next_rand() % 24 };
    rel_insert(src, t);
  }
  int by_second = rel_index(src, 2);
  ix_relation_index_ready(src, by_second);
  ix_tupleset truth, reported;
  ix_tupleset_init(&truth, ARITY);
  ix_tupleset_init(&reported, ARITY);
  ix_tupleset *to = report ? &reported : NULL;
  int64_t added = 0;
  for (int round = 0; round < 300; round++) {
    uint32_t range = round < 200 ? 16 : 24, key[3] = { 0, next_rand() % 24, 0 }, base[ARITY];
    for (uint32_t c = 0; c < ARITY; c++) base[c] = next_rand() % range;
    uint32_t swap = next_rand() % 2, to_head[3] = { swap ? 3 : 1, IX_NO_COLUMN, swap ? 1 : 3 };
    ix_run run;
    if (!CHECK(ix_relation_run(src, by_second, 1, key, &run), "a run of the source")) break;
    for (uint64_t i = 0; i < run.n; i++) {
      uint32_t t[3], head[ARITY];
      ix_run_tuple(&run, i, t);
      memcpy(head, base, sizeof head);
      head[to_head[0]] = t[0];
      head[to_head[2]] = t[2];
      set_insert(&truth, head);
    }
    CHECK(ix_relation_stage_run(h, base, &run, to_head, to), "stage run: out of memory");
    if (round % 50 == 49) added += rel_flush_to(h, to);
  }
  added += rel_flush_to(h, to);
  check_staged(h, "runs", added, &truth, &reported, report);
  ix_tupleset_free(&truth);
  ix_tupleset_free(&reported);
  ix_relation_destroy(src);
  ix_relation_destroy(h);
}

/* The heads of delta tuple t joined with the run of src's index for its
 * second column (see staged_joins), into the hash set truth; their number. */
static uint64_t join_truth(const ix_relation *src, int index, const uint32_t *t, uint32_t arity, uint32_t swap,
                       uint32_t constant, ix_tupleset *truth)
{
  uint32_t key[3] = { 0, t[1], 0 };
  ix_run run;
  if (!CHECK(ix_relation_run(src, index, 1, key, &run), "a run of the source")) return 0;
  for (uint64_t i = 0; i < run.n; i++) {
    uint32_t u[3];
    ix_run_tuple(&run, i, u);
    uint32_t pair[2] = { t[0], swap ? u[2] : u[0] }, quad[4] = { t[0], swap ? u[2] : u[0], constant, swap ? u[0] : u[2] };
    set_insert(truth, arity == 2 ? pair : quad);
  }
  return run.n;
}

/* ix_relation_stage_join against each head put in a hash set: deltas of
 * random triples, each looked up in a source of triples by its second
 * column.  A head of arity 4 takes the delta's first column, the run's
 * first and third (in either order) and a constant; one of arity 2 the
 * delta's first column and the run's first or third.  The head's keys go
 * into Judy, then it turns dense on the way, and later meets new values
 * (codes made, the bitmap widened in the middle of a join).  With
 * `report`, the new tuples are reported. */
static void staged_joins(uint32_t arity, int report)
{
  ix_relation *src = ix_relation_create(3), *h = ix_relation_create(arity);
  /* pairs: fewer tuples per run over more values, so that few heads repeat */
  uint32_t n_src = arity == 2 ? 300 : 3000, wide = arity == 2 ? 200 : 12, n_delta = arity == 2 ? 20 : 40;
  for (uint32_t i = 0; i < n_src; i++) {
    uint32_t t[3] = { next_rand() % 40, next_rand() % 30, next_rand() % 24 };
    rel_insert(src, t);
  }
  int by_second = rel_index(src, 2);
  ix_relation_index_ready(src, by_second);
  ix_tupleset truth, reported, delta;
  ix_tupleset_init(&truth, arity);
  ix_tupleset_init(&reported, arity);
  ix_tupleset_init(&delta, 3);
  ix_tupleset *to = report ? &reported : NULL;
  int64_t added = 0;
  uint64_t keyed = 0;
  /* pairs: the head starts with fewer tuples than make a bitmap and a code
   * for each value of the first rounds, so that the join stages keys into
   * Judy until the bitmap comes, in the middle of a run */
  for (uint32_t v = 0; arity == 2 && v < wide; v++) {
    uint32_t pair[2] = { v, v % 40 };
    added += rel_insert(h, pair);
    set_insert(&truth, pair);
    if (report) CHECK(ix_tupleset_push(&reported, pair), "reported: out of memory");
  }
  for (int round = 0; round < 120; round++) {
    uint32_t range = round < 80 ? wide : wide + wide * 2 / 3, swap = next_rand() % 2, constant = next_rand() % range;
    uint32_t run_to_head[3] = { swap ? 3 : 1, IX_NO_COLUMN, swap ? 1 : 3 };
    if (arity == 2) run_to_head[swap ? 0 : 2] = IX_NO_COLUMN;
    uint32_t head_from[4] = { 0, IX_NO_COLUMN, IX_NO_COLUMN, IX_NO_COLUMN }, base[4] = { 0, 0, constant, 0 };
    ix_join j = { src, by_second, 1, run_to_head, head_from, base };
    ix_tupleset_clear(&delta);
    uint64_t derivations = 0, at = 0, derived = 0;
    for (uint32_t i = 0, n = next_rand() % n_delta; i < n; i++) {
      uint32_t t[3] = { next_rand() % range, next_rand() % 32, next_rand() % 40 };
      CHECK(ix_tupleset_push(&delta, t), "delta: out of memory");
      derivations += join_truth(src, by_second, t, arity, swap, constant, &truth);
    }
    int rc = 1;
    while (rc == 1 && at < delta.n) rc = ix_relation_stage_join(h, &j, &delta, &at, delta.n, 64, to, &derived);
    CHECK(rc >= 0, "stage join: out of memory");
    keyed += at;
    for (; at < delta.n; at++) {  /* what the join did not take: staged the caller's way */
      ix_tupleset mine;
      ix_tupleset_init(&mine, arity);
      derived += join_truth(src, by_second, ix_tupleset_get(&delta, at), arity, swap, constant, &mine);
      for (uint64_t i = 0; i < mine.n; i++) CHECK(ix_relation_stage(h, ix_tupleset_get(&mine, i), to), "stage");
      ix_tupleset_free(&mine);
    }
    CHECK(derived == derivations, "joins: %llu derivations counted, %llu made", (unsigned long long)derived,
          (unsigned long long)derivations);
    if (round % 10 == 9) added += rel_flush_to(h, to);
  }
  added += rel_flush_to(h, to);
  CHECK(keyed > 0, "joins: the head never took keys");
  check_staged(h, "joins", added, &truth, &reported, report);
  ix_tupleset_free(&truth);
  ix_tupleset_free(&reported);
  ix_tupleset_free(&delta);
  ix_relation_destroy(src);
  ix_relation_destroy(h);
}

static int by_value(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Both radix sorts against qsort, on keys of `bits` bits (many equal ones
 * when bits is small). */
static void radix_sorts(uint64_t n, uint32_t bits)
{
  uint64_t *want = malloc((n + 1) * sizeof *want), *lsd = malloc((n + 1) * sizeof *lsd),
           *msd = malloc((n + 1) * sizeof *msd);
  CHECK(want && lsd && msd, "out of memory");
  uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
  for (uint64_t i = 0; i < n; i++) want[i] = lsd[i] = msd[i] = ((uint64_t)next_rand() << 32 | next_rand()) & mask;
  qsort(want, n, sizeof *want, by_value);
  CHECK(ix_radix_sort(lsd, n, bits), "radix sort: out of memory");
  ix_radix_sort_in_place(msd, n, bits);
  CHECK(memcmp(want, lsd, n * sizeof *want) == 0, "radix sort of %llu keys of %u bits", (unsigned long long)n, bits);
  CHECK(memcmp(want, msd, n * sizeof *want) == 0, "radix sort in place of %llu keys of %u bits", (unsigned long long)n, bits);
  free(want);
  free(lsd);
  free(msd);
}

static void judy_readback(void)
{
  Pvoid_t dense = NULL, sparse = NULL;
  const Word_t n = 3000000;
  for (Word_t i = 0; i < n; i++) {
    Judy1Set(&dense, i, PJE0);
    Judy1Set(&sparse, i * 0x9E3779B97F4A7C15ULL, PJE0);
  }
  Word_t missing = 0;
  for (Word_t i = 0; i < n; i++)
    missing += !Judy1Test(dense, i, PJE0) + !Judy1Test(sparse, i * 0x9E3779B97F4A7C15ULL, PJE0);
  CHECK(missing == 0, "libJudy lost %lu keys", (unsigned long)missing);
  CHECK(Judy1Count(dense, 0, -1, PJE0) == n, "dense count");
  Judy1FreeArray(&dense, PJE0);
  Judy1FreeArray(&sparse, PJE0);
}

int main(void)
{
  for (uint32_t arity = 0; arity <= 12; arity++)
    for (uint32_t range = 2; range <= 4096; range *= 8) random_relation(arity, 3000, range);
  random_relation(3, 200000, 100000);  /* wide codes: several chunks */
  random_relation(20, 2000, 70000);
  for (uint32_t arity = 1; arity <= 9; arity += 4) staged_relation(arity, 20000, 300);
  staged_relation(3, 50000, 200000);  /* keys beyond one chunk: flushed unsorted */
  for (uint32_t arity = 1; arity <= 7; arity += 3) staged_into_empty(arity, 100000, 12, arity == 4);
  staged_into_empty(2, 100000, 5000, 0);
  staged_into_empty(2, 100000, 5000, 1);  /* sparse: Judy filled at once */
  staged_into_empty(2, 300000, 4000000, 1);  /* dictionaries past DL_GROW_MAPPED bytes */
  filled_then_grown(2, 100000, 3000);
  filled_then_grown(3, 60000, 500);
  filled_at_once(1, 30000, 20000);
  filled_at_once(2, 60000, 3000);
  filled_at_once(3, 30000, 500);
  filled_at_once(2, 20000, 8);  /* dense: a bitmap, not keys in place */
  filled_at_once(2, 0, 8);      /* nothing: no buffer (NULL) */
  /* dense relations: the primary index becomes a bitmap (narrow columns),
   * then new values widen it while it holds tuples */
  random_relation(2, 30000, 300);
  random_relation(4, 40000, 14);
  staged_relation(2, 60000, 260);
  staged_relation(3, 60000, 40);
  mirror_states(1, 300);
  mirror_states(3, 20);
  mirror_states(3, 3000);  /* codes widen: the mirrors are rebuilt */
  mirror_states(2, 90);    /* dense */
  dense_then_sparse(0);
  dense_then_sparse(1);
  staged_products(1);
  staged_products(0);
  staged_runs(1);
  staged_runs(0);
  staged_joins(4, 1);
  staged_joins(4, 0);
  staged_joins(2, 1);
  staged_joins(2, 0);
  judy_readback();
  for (uint64_t n = 0; n <= 20000; n = n * 7 + 1)
    for (uint32_t bits = 1; bits <= 64; bits += 9) radix_sorts(n, bits);
  radix_sorts(60000, 64);
  /* columns told their number of values: right, too many, too few, and
   * more than 64 bits in all (ignored) */
  expected_relation(4, 40000, 14, 14);
  expected_relation(3, 20000, 40, 5000);
  expected_relation(2, 3000, 300, 5);
  expected_relation(5, 3000, 4096, (uint64_t)1 << 40);
  return check_exit();
}
