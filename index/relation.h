/* relation.h: a relation (a set of tuples of term ids) indexed with Judy.
 *
 * Each column keeps a dictionary from term id to a dense column code, so
 * the codes of a tuple pack into few bits.  A column's width grows with its
 * codes (every index is then laid out again), or is set in advance for the
 * values expected (ix_relation_expect).  An index is one lexicographic
 * column order: its key is the codes of the tuple in that order, cut into
 * chunks of at most 64 bits.  A one-chunk key is a single Judy1 set; longer
 * keys are nested JudyL arrays ending in a Judy1.  A lookup with the first k
 * columns of the order bound is one contiguous key range.  The identity
 * order is the primary index and also the duplicate check.  Indexes for
 * other lookups are built on demand and then kept up to date.
 *
 * A dense relation (at least 256 tuples, filling at least 1/64 of its key
 * range when each column is as narrow as its codes and the values expected
 * allow, keys of at most 28 bits) keeps its primary index as a plain bitmap
 * over the key range instead:
 * the duplicate check is then one memory access instead of a descent of the
 * Judy tree (Judy1 uses such bitmaps only at its leaves).
 *
 * An index with one-chunk keys that lookups ask for also keeps its keys as
 * a sorted array (a mirror, see relation.c), for fast iteration.  A
 * secondary index built over a relation of 256 tuples or more keeps its
 * keys there only (mirror-only): Judy never gets them. */
#ifndef GDLOG_RELATION_H
#define GDLOG_RELATION_H

#include <stddef.h>
#include <stdint.h>

#include <Judy.h>

#include "index/tupleset.h"

typedef uint32_t ix_val;
typedef struct ix_relation ix_relation;

enum { IX_MAX_ARITY = 64 };

/* Creates an empty relation of the given arity (at most IX_MAX_ARITY). */
ix_relation *ix_relation_create(uint32_t arity);

/* Tells the empty relation r that each column c will hold about values[c]
 * distinct values (0: no idea).  A hint: more are still taken, and it is
 * ignored when the keys would not fit 64 bits.  The keys get room for them
 * now, so that the indexes need not be rebuilt each time a column's codes
 * outgrow their width, and a bitmap (see above) is sized for them.  A
 * hint above 2^20 counts as 2^20. */
void ix_relation_expect(ix_relation *r, const uint64_t *values);

/* Frees the relation and its indexes; NULL is allowed. */
void ix_relation_destroy(ix_relation *r);

uint32_t ix_relation_arity(const ix_relation *r);

/* Number of distinct values in column col. */
uint32_t ix_relation_column_values(const ix_relation *r, uint32_t col);

/* The term id of the code-th distinct value of column col. */
ix_val ix_relation_column_value(const ix_relation *r, uint32_t col, uint32_t code);

/* Returns 1 when column col has seen the value id (its dictionary never
 * forgets a value, so this may hold of a value no tuple has any more). */
int ix_relation_column_has(const ix_relation *r, uint32_t col, ix_val id);

/* The code of value id in column col (below ix_relation_column_values),
 * or IX_NO_CODE when the column has not seen it. */
#define IX_NO_CODE UINT32_MAX
uint32_t ix_relation_column_code(const ix_relation *r, uint32_t col, ix_val id);

/* Returns 1 when r holds every combination of the values its columns have
 * seen (ix_relation_column_values): then a tuple of seen values is in r. */
int ix_relation_saturated(const ix_relation *r);

/* Returns 1 when r would be saturated if each staged tuple were new. */
int ix_relation_may_saturate(const ix_relation *r);

/* Number of tuples. */
uint64_t ix_relation_size(const ix_relation *r);

/* Adds tuple[0..arity).  Returns 1, with *is_new (when not NULL) 1 when
 * the tuple is new and 0 when it was there; 0 when out of memory. */
int ix_relation_insert(ix_relation *r, const ix_val *tuple, int *is_new);

/* Stages tuple[0..arity) for insertion at the next ix_relation_flush, which
 * inserts a batch in key order (much faster in Judy than scattered inserts).
 * For a relation nothing reads until the flush.  A dense relation (see
 * above) takes the tuple in at once: when it is new it goes to `added` now
 * (if not NULL), and the flush only counts it.  Pass the same `added` to
 * ix_relation_flush_to.  0 when out of memory. */
int ix_relation_stage(ix_relation *r, const ix_val *tuple, ix_tupleset *added);

/* One factor of a product of tuples (ix_relation_stage_product): n tuples
 * of `width` ids, whose position j gives column column[j] of the relation
 * (IX_NO_COLUMN: none). */
#define IX_NO_COLUMN UINT32_MAX
typedef struct ix_factor {
  const ix_val *tuples;
  uint64_t n;
  uint32_t width;
  const uint32_t *column;
} ix_factor;

/* Stages the tuples that take base[c] in every column c no factor gives and,
 * from each factor, one of its tuples in the columns it gives: the product
 * of the factors, as many ix_relation_stage calls (same `added`), but on a
 * dense relation whose dictionaries know every value with one key
 * addition per tuple.  Each column is given by the base or one factor.
 * Returns 1, with the number of tuples of the product in *n_tuples (when
 * not NULL); 0 when out of memory. */
int ix_relation_stage_product(ix_relation *r, const ix_val *base, const ix_factor *factors, uint32_t n_factors,
                              ix_tupleset *added, uint64_t *n_tuples);

/* Stages the n tuples tuples[0..n * arity) as n ix_relation_stage calls
 * would (`added` NULL), and takes over their buffer (malloc'd: r frees
 * it, or keeps it): when r has nothing staged and its keys are one word,
 * the tuples turn into their keys in place, so that a large input is not
 * copied.  Arity at least 1.  0 when out of memory. */
int ix_relation_stage_all(ix_relation *r, ix_val *tuples, uint64_t n);

/* Number of tuples staged. */
uint64_t ix_relation_staged(const ix_relation *r);

/* Tells r that its next flush brings a large input that lookups will read:
 * if r is then still empty and not a bitmap, its sorted keys become its
 * lookup mirror (8 bytes a tuple), which the first lookup would otherwise
 * make by walking Judy, and its only copy of them until the next insert.
 * Stage the whole input before that flush. */
void ix_relation_bulk(ix_relation *r);

/* Inserts the staged tuples.  Returns 1, with how many were new in *n_new
 * (when not NULL); 0 when out of memory. */
int ix_relation_flush(ix_relation *r, uint64_t *n_new);

/* Like ix_relation_flush, and appends each new tuple to `added` (in key
 * order, without hashing: see ix_tupleset_push; NULL: none). */
int ix_relation_flush_to(ix_relation *r, ix_tupleset *added, uint64_t *n_new);

/* Returns 1 when tuple[0..arity) is in the relation. */
int ix_relation_contains(const ix_relation *r, const ix_val *tuple);

/* Sets *index to the number of an index whose order starts with exactly the
 * columns in bound_mask (bit i for column i), building it when needed, and
 * returns 1; 0 when out of memory or when the relation has 256 indexes
 * already.  Index numbers stay valid for the relation's lifetime.  A one-chunk index also gets (or
 * updates) a sorted array of its keys, which iterates several times faster
 * than Judy; iterations begun before the next insertion use it. */
int ix_relation_index(ix_relation *r, uint64_t bound_mask, int *index);

/* Sets *index to the number of an index r has already whose order starts
 * with exactly the columns in bound_mask, and returns 1; 0 when r has none
 * (nothing is built). */
int ix_relation_index_find(const ix_relation *r, uint64_t bound_mask, int *index);

/* Readies index `index` (a number ix_relation_index gave) for lookups as
 * ix_relation_index does: its sorted array of keys is brought up to date. */
void ix_relation_index_ready(ix_relation *r, int index);

/* Like ix_relation_index, for a projection: the index's order starts with
 * the columns of bound_mask, then those of distinct_mask, so that
 * ix_iter_begin_distinct can skip from one distinct combination of them to
 * the next.  The two masks must not overlap. */
int ix_relation_index_ordered(ix_relation *r, uint64_t bound_mask, uint64_t distinct_mask, int *index);

/* Bytes held by the relation's indexes and dictionaries (walks every index). */
size_t ix_relation_bytes(const ix_relation *r);

/* Iterates over the tuples that have given values in the bound columns. */
typedef struct ix_iter {
  const ix_relation *rel;
  const void *ix;            /* the index walked */
  int level;                 /* current chunk level, -1 before the first tuple */
  int n_levels;
  int done;
  int skip_level;            /* distinct iteration: the level to step after a tuple, */
  Word_t skip_low;           /*   with these low key bits set first; -2: no skipping, */
                             /*   -1: stop after the first tuple */
  Word_t key[IX_MAX_ARITY];  /* per level: current key */
  Word_t lo[IX_MAX_ARITY];   /* per level: key range */
  Word_t hi[IX_MAX_ARITY];
  Pvoid_t node[IX_MAX_ARITY];/* per level: the Judy array walked */
  const Word_t *flat;        /* a mirrored index's sorted keys, or NULL; */
  uint64_t n_flat, pos;      /*   their number, the current one, */
  const uint32_t *first_at;  /*   where each of its first n_first codes of the first column starts; */
  uint32_t n_first;
  const Word_t *recent;      /*   and the sorted keys added since, their number, the current one, */
  uint64_t n_recent, rpos;
  int from_recent;           /*   whether the current key is one of them */
  uint32_t first_shift, n_bound;
} ix_iter;

/* The tuples that have given values in the bound columns, when they are one
 * run of an index's sorted mirror (see ix_relation_index_ready). */
typedef struct ix_run {
  const ix_relation *rel;
  const void *ix;            /* the index whose keys these are */
  const Word_t *keys;
  uint64_t n;
} ix_run;

/* Finds the run of index `index` of r for the first n_bound columns of the
 * index's order bound to key[column] (as in ix_iter_begin).  Returns 0 when
 * the index's keys are not all in one sorted array (no mirror, or keys
 * added since it was sorted): then iterate with ix_iter.  Valid until r
 * changes. */
int ix_relation_run(const ix_relation *r, int index, uint32_t n_bound, const ix_val *key, ix_run *run);

/* Writes the i-th tuple of a run (i < run->n) as term ids. */
void ix_run_tuple(const ix_run *run, uint64_t i, ix_val *tuple);

/* Stages the tuples that take base[c] in every column c that no column of
 * run gives, and the run tuple's column j in column to_head[j]
 * (IX_NO_COLUMN: none): a product of base and the run's tuples, as
 * ix_relation_stage calls (same `added`) would.  A dense relation with no
 * other index takes each tuple with one key addition, from the run's keys
 * in place; another relation takes them as products of one factor, 64
 * tuples at a time.  h must not be the run's relation.  0 when out of
 * memory. */
int ix_relation_stage_run(ix_relation *h, const ix_val *base, const ix_run *run, const uint32_t *to_head,
                          ix_tupleset *added);

/* A join of a delta's tuples with the run of an index each, whose tuples
 * give heads (ix_relation_stage_join). */
typedef struct ix_join {
  const ix_relation *run_rel;   /* the relation looked up (not the head) */
  int index;                    /* its index, whose first column alone is bound, */
  uint32_t key_from;            /*   to this column of the delta tuple */
  const uint32_t *run_to_head;  /* per run_rel column: the head column it gives, or IX_NO_COLUMN */
  const uint32_t *head_from;    /* per head column no run column gives: the delta column it
                                   takes, or IX_NO_COLUMN for base's value */
  const ix_val *base;           /* per head column: its value when it comes from neither */
} ix_join;

/* Stages into h, for each tuple t of delta[*at, to), the heads of the
 * tuples of j's run for t, as ix_relation_stage calls (same `added`) would,
 * and adds their number to *n_derived; it stops early after the tuple with
 * which that number grew by `budget` or more.  It takes them by key, in
 * one loop, while h is a bitmap with no other index (see
 * ix_relation_stage_run) or keeps its primary keys in Judy in one chunk
 * (they are staged).  Returns 1 with *at the first tuple not staged (`to`,
 * or before it when stopped early); 0 when h cannot take keys or the index
 * has no sorted run (ix_relation_run returns 0): *at is then the first
 * tuple not staged, for the caller to stage its own way; -1 when out of
 * memory. */
int ix_relation_stage_join(ix_relation *h, const ix_join *j, const ix_tupleset *delta, uint64_t *at, uint64_t to,
                           uint64_t budget, ix_tupleset *added, uint64_t *n_derived);

/* Sets bit c of bits for the code c, in column col, of each tuple of a
 * run; bits has room for every code of the column. */
void ix_run_mark_codes(const ix_run *run, uint32_t col, uint64_t *bits);

/* 1 when, in r, the columns of mask a determine column b (not in a): no
 * two tuples agree on a and differ on b.  0 also when out of memory, which
 * sets *ok to 0.  May add an index to r. */
int ix_relation_determines(ix_relation *r, uint64_t a, uint32_t b, int *ok);

/* Starts an iteration over index `index` of r, for tuples whose first
 * n_bound columns in the index's order (the bound columns of the lookup it
 * was asked for) have the values key[column] (key has one entry per column;
 * only the bound ones are read).
 * Tuples must not be added to r until the iteration ends.  Keys a
 * mirror-only index took since the last ix_relation_index or
 * ix_relation_index_ready are sorted here (in place, their order only):
 * threads that iterate one relation at once ask for the index first. */
void ix_iter_begin(ix_iter *it, const ix_relation *r, int index, uint32_t n_bound, const ix_val *key);

/* Like ix_iter_begin, but visits one tuple per distinct combination of the
 * first n_bound + n_distinct columns of the index's order (an index from
 * ix_relation_index_ordered): the other columns of each tuple written are
 * those of an arbitrary witness.  With n_bound + n_distinct == 0 it visits
 * at most one tuple (an existence test). */
void ix_iter_begin_distinct(ix_iter *it, const ix_relation *r, int index, uint32_t n_bound, uint32_t n_distinct,
                            const ix_val *key);

/* Writes the next tuple to tuple[0..arity) and returns 1; 0 at the end. */
int ix_iter_next(ix_iter *it, ix_val *tuple);

/* Like ix_iter_next, but writes each column's code: its value is
 * ix_relation_column_value(r, column, code). */
int ix_iter_next_codes(ix_iter *it, uint32_t *codes);

/* A dense relation's tuples as its bitmap: bit k is set for the tuple whose
 * column codes pack into k, column c's code being (k >> shift[c]) & mask[c]. */
typedef struct ix_dense_view {
  const uint64_t *bits;
  uint64_t n_words;
  uint32_t shift[IX_MAX_ARITY];
  uint32_t mask[IX_MAX_ARITY];
} ix_dense_view;

/* Whether r is dense (its primary index a bitmap, see above, with no
 * tuples staged); then fills *v, valid until r changes.  Reading the
 * bitmap word by word is the fastest walk over every tuple. */
int ix_relation_dense_view(const ix_relation *r, ix_dense_view *v);

#endif
