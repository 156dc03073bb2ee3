/* iter.c: iteration over a relation's indexes (see ix_iter and ix_run in
 * relation.h): Judy tries, bitmaps and sorted mirrors. */
#include "index/relation.h"
#include "index/relation_impl.h"

#include <assert.h>

/* ---- iteration ---------------------------------------------------------------- */

void ix_iter_begin(ix_iter *it, const ix_relation *r, int index, uint32_t n_bound, const ix_val *key)
{
  assert(index >= 0 && index < r->n_indexes && n_bound <= r->arity && (key || n_bound == 0));
  const ix_index *ix = r->indexes[index];
  it->rel = r;
  it->ix = ix;
  it->level = -1;
  it->n_levels = ix->n_chunks;
  it->done = 0;
  it->skip_level = -2;
  /* the mirror when it holds every key, its recent ones sorted */
  if (ix->mirror_only && ix->n_sorted < ix->n_recent) ix_index_sort_recent(ix);
  int mirrored = ix->flat && ix->n_sorted == ix->n_recent && ix->n_flat + ix->n_recent == r->size;
  assert(mirrored || !ix->mirror_only);
  it->flat = mirrored ? ix->flat : NULL;
  it->n_flat = ix->n_flat;
  it->first_at = ix->first_at;
  it->n_first = ix->n_first;
  it->recent = ix->recent;
  it->n_recent = ix->n_recent;
  it->first_shift = ix->shift[0];
  it->n_bound = n_bound;
  if (r->arity == 0) {
    it->done = r->size == 0;
    return;
  }
  /* free positions span their whole width; bound positions fix their bits */
  for (uint32_t l = 0; l < ix->n_chunks; l++) {
    it->lo[l] = 0;
    it->hi[l] = ix->full[l];
  }
  for (uint32_t p = 0; p < n_bound; p++) {
    uint32_t l = ix->chunk_of[p], col = ix->order[p];
    uint32_t code = code_get(&r->cols[col], key[col]);
    if (code == NO_CODE) {
      it->done = 1;
      return;
    }
    it->lo[l] |= (Word_t)code << ix->shift[p];
    it->hi[l] &= ~(low_mask(r->cols[col].bits) << ix->shift[p]) | (Word_t)code << ix->shift[p];
  }
}

void ix_iter_begin_distinct(ix_iter *it, const ix_relation *r, int index, uint32_t n_bound, uint32_t n_distinct,
                            const ix_val *key)
{
  assert(n_bound + n_distinct <= r->arity);
  ix_iter_begin(it, r, index, n_bound, key);
  uint32_t prefix = n_bound + n_distinct;
  if (prefix >= r->arity) return;
  if (prefix == 0) {
    it->skip_level = -1;
    return;
  }
  const ix_index *ix = r->indexes[index];
  it->skip_level = ix->chunk_of[prefix - 1];
  it->skip_low = low_mask(ix->shift[prefix - 1]);
}

/* Moves level l to the first key >= it->key[l] (next: > it->key[l]) within
 * the level's range, and below an inner level to its child; 1 when found. */
static int move(ix_iter *it, int l, int next)
{
  Word_t k = it->key[l];
  if (next && k >= it->hi[l]) return 0;
  const ix_index *ix = it->ix;
  if (ix->dense) {
    if (!ix_key_seek(ix, &k, next) || k > it->hi[l]) return 0;
  } else if (l + 1 == ix->n_chunks) {
    int rc = next ? Judy1Next(it->node[l], &k, PJE0) : Judy1First(it->node[l], &k, PJE0);
    if (rc != 1 || k > it->hi[l]) return 0;
  } else {
    PWord_t v = (PWord_t)(next ? JudyLNext(it->node[l], &k, PJE0) : JudyLFirst(it->node[l], &k, PJE0));
    if (!v || v == PJERR || k > it->hi[l]) return 0;
    it->node[l + 1] = (Pvoid_t)*v;
  }
  it->key[l] = k;
  return 1;
}

static int seek(ix_iter *it, int l) { return move(it, l, 0); }
static int step(ix_iter *it, int l) { return move(it, l, 1); }

/* The code at position p of the iterator's keys. */
static inline uint32_t code_at(const ix_iter *it, const ix_index *ix, uint32_t p)
{
  return (uint32_t)(it->key[ix->chunk_of[p]] >> ix->shift[p]) & ix->code_mask[p];
}

/* Writes the tuple at the iterator's keys as term ids. */
static void decode_ids(const ix_iter *it, ix_val *tuple)
{
  const ix_index *ix = it->ix;
  const ix_relation *r = it->rel;
  for (uint32_t p = 0; p < r->arity; p++) tuple[ix->order[p]] = r->cols[ix->order[p]].id_of[code_at(it, ix, p)];
}

/* Writes the tuple at the iterator's keys as column codes. */
static void decode_codes(const ix_iter *it, uint32_t *codes)
{
  const ix_index *ix = it->ix;
  for (uint32_t p = 0; p < it->rel->arity; p++) codes[ix->order[p]] = code_at(it, ix, p);
}

/* The first position in flat[from, n) whose key is >= key; galloping from
 * `from`, for targets that are often near. */
static uint64_t gallop(const Word_t *flat, uint64_t from, uint64_t n, Word_t key)
{
  uint64_t step = 1, lo = from, hi = from;
  while (hi < n && flat[hi] < key) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (flat[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The first position in flat[lo, hi) whose key is >= key: a binary search
 * without branches to mispredict. */
static uint64_t lower_bound(const Word_t *flat, uint64_t lo, uint64_t hi, Word_t key)
{
  if (lo >= hi) return lo;
  const Word_t *base = flat + lo;
  uint64_t n = hi - lo;
  while (n > 1) {
    uint64_t half = n / 2;
    base = base[half] < key ? base + half : base;
    n -= half;
  }
  return (uint64_t)(base - flat) + (*base < key);
}

/* Where the keys of the iteration's range start in flat: the first
 * column's code narrows the search to its keys. */
static uint64_t flat_start(const ix_iter *it)
{
  if (it->n_bound == 0) return lower_bound(it->flat, 0, it->n_flat, it->lo[0]);
  uint64_t code = it->lo[0] >> it->first_shift;
  if (code >= it->n_first) return it->n_flat;  /* a code newer than flat */
  uint64_t lo = it->first_at[code], hi = it->first_at[code + 1];
  return it->n_bound == 1 ? lo : lower_bound(it->flat, lo, hi, it->lo[0]);
}

int ix_relation_run(const ix_relation *r, int index, uint32_t n_bound, const ix_val *key, ix_run *run)
{
  assert(index >= 0 && index < r->n_indexes && n_bound <= r->arity && (key || n_bound == 0) && run);
  const ix_index *ix = r->indexes[index];
  if (!ix->flat || ix->n_recent || r->arity == 0) return 0;
  run->rel = r;
  run->ix = ix;
  run->keys = ix->flat;
  run->n = 0;
  Word_t lo = 0;
  for (uint32_t p = 0; p < n_bound; p++) {
    uint32_t code = code_get(&r->cols[ix->order[p]], key[ix->order[p]]);
    if (code == NO_CODE) return 1;
    lo |= (Word_t)code << ix->shift[p];
  }
  uint64_t from = 0, to = ix->n_flat;
  if (n_bound > 0) {
    uint64_t code = lo >> ix->shift[0];
    if (code >= ix->n_first) return 1;  /* a code newer than flat */
    from = ix->first_at[code];
    to = ix->first_at[code + 1];
  }
  if (n_bound > 1) {
    Word_t hi = lo | low_mask(ix->shift[n_bound - 1]);
    from = lower_bound(ix->flat, from, to, lo);
    to = hi == ~(Word_t)0 ? to : lower_bound(ix->flat, from, to, hi + 1);
  }
  run->keys = ix->flat + from;
  run->n = to - from;
  return 1;
}

void ix_run_tuple(const ix_run *run, uint64_t i, ix_val *tuple)
{
  assert(i < run->n);
  const ix_index *ix = run->ix;
  const ix_relation *r = run->rel;
  Word_t k = run->keys[i];
  for (uint32_t p = 0; p < r->arity; p++) {
    const colmap *m = &r->cols[ix->order[p]];
    tuple[ix->order[p]] = m->id_of[(uint32_t)(k >> ix->shift[p]) & ix->code_mask[p]];
  }
}

void ix_run_mark_codes(const ix_run *run, uint32_t col, uint64_t *bits)
{
  const ix_index *ix = run->ix;
  assert(col < run->rel->arity && bits);
  uint32_t p = 0;
  while (ix->order[p] != col) p++;
  uint32_t shift = ix->shift[p], mask = ix->code_mask[p];
  for (uint64_t i = 0; i < run->n; i++) {
    uint32_t code = (uint32_t)(run->keys[i] >> shift) & mask;
    bits[code >> 6] |= (uint64_t)1 << (code & 63);
  }
}

/* advance() over a mirrored index (one chunk): the merge of its flat and
 * recent keys, which are disjoint. */
static int advance_flat(ix_iter *it)
{
  if (it->level < 0) {
    it->level = 0;
    it->pos = flat_start(it);
    it->rpos = lower_bound(it->recent, 0, it->n_recent, it->lo[0]);
  } else if (it->skip_level == -2) {
    if (it->from_recent) it->rpos++;
    else it->pos++;
  } else if (it->skip_level == -1 || (it->key[0] | it->skip_low) >= it->hi[0]) {
    it->done = 1;
    return 0;
  } else {
    Word_t next = (it->key[0] | it->skip_low) + 1;
    it->pos = gallop(it->flat, it->pos, it->n_flat, next);
    it->rpos = gallop(it->recent, it->rpos, it->n_recent, next);
  }
  int in_flat = it->pos < it->n_flat, in_recent = it->rpos < it->n_recent;
  it->from_recent = in_recent && (!in_flat || it->recent[it->rpos] < it->flat[it->pos]);
  Word_t key = it->from_recent ? it->recent[it->rpos] : in_flat ? it->flat[it->pos] : 0;
  if ((!in_flat && !in_recent) || key > it->hi[0]) {
    it->done = 1;
    return 0;
  }
  it->key[0] = key;
  return 1;
}

/* advance() over a bitmap (one chunk), without distinct skipping. */
static int advance_dense(ix_iter *it, const uint64_t *bits)
{
  Word_t k = it->lo[0];
  if (it->level >= 0) {
    if (it->key[0] >= it->hi[0]) {
      it->done = 1;
      return 0;
    }
    k = it->key[0] + 1;
  }
  if (!dense_first(bits, &k, it->hi[0])) {
    it->done = 1;
    return 0;
  }
  it->level = 0;
  it->key[0] = k;
  return 1;
}

/* Moves to the next key combination; 1 when there is one. */
static int advance(ix_iter *it)
{
  if (it->done) return 0;
  if (it->flat && it->rel->arity) return advance_flat(it);
  const ix_index *ix = it->ix;
  if (ix->dense && it->skip_level == -2) return advance_dense(it, ix->dense);
  if (it->rel->arity == 0) {
    it->done = 1;
    return 1;
  }
  int l = it->level;
  int found;
  if (l < 0) {
    l = 0;
    it->node[0] = ((const ix_index *)it->ix)->root;
    it->key[0] = it->lo[0];
    found = seek(it, 0);
  } else if (it->skip_level == -2) {
    found = step(it, l);
  } else if (it->skip_level == -1) {
    it->done = 1;
    return 0;
  } else {
    /* past every key that shares the current distinct prefix */
    l = it->skip_level;
    it->key[l] |= it->skip_low;
    found = step(it, l);
  }
  for (;;) {
    if (!found) {
      if (--l < 0) {
        it->done = 1;
        return 0;
      }
      found = step(it, l);
      continue;
    }
    if (l + 1 == it->n_levels) break;
    l++;
    it->key[l] = it->lo[l];
    found = seek(it, l);
  }
  it->level = l;
  return 1;
}

int ix_iter_next(ix_iter *it, ix_val *tuple)
{
  if (!advance(it)) return 0;
  decode_ids(it, tuple);
  return 1;
}

int ix_iter_next_codes(ix_iter *it, uint32_t *codes)
{
  if (!advance(it)) return 0;
  decode_codes(it, codes);
  return 1;
}

int ix_relation_dense_view(const ix_relation *r, ix_dense_view *v)
{
  const ix_index *ix = r->n_indexes ? r->indexes[0] : NULL;
  if (!ix || !ix->dense || ix_relation_staged(r)) return 0;
  v->bits = ix->dense;
  v->n_words = ix->dense_bits < 6 ? 1 : (uint64_t)1 << (ix->dense_bits - 6);
  for (uint32_t p = 0; p < r->arity; p++) {
    v->shift[ix->order[p]] = ix->shift[p];
    v->mask[ix->order[p]] = ix->code_mask[p];
  }
  return 1;
}
