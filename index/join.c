/* join.c: a semi-naive round's join of a delta with one lookup, staged
 * into the head in one loop (ix_relation_stage_join, see relation.h).
 * Each head is keyed from codes: the delta tuple's values through the
 * head's dictionaries, the run tuple's codes through the looked-up
 * relation's values and the head's dictionaries.  A bitmap head sets the
 * keys' bits 64 at a time and builds a head's ids only when it is new;
 * a head in Judy stages the keys, sorted in at the flush.  A value the
 * head has no code for yet goes through ix_relation_stage, and the loop
 * then reads the head's layout anew (its columns may have widened). */
#include "index/relation.h"
#include "index/relation_impl.h"

#include <assert.h>
#include <string.h>

/* A head column taken from the delta tuple or from the run tuple. */
typedef struct join_col {
  uint32_t from;          /* the delta column, or the run key's shift */
  uint32_t mask;          /* the run key's code mask (run columns) */
  const ix_val *id_of;    /* the run relation's ids of its codes (run columns) */
  uint32_t to;            /* the head column */
  const colmap *head;     /* its dictionary */
  uint32_t shift;         /* where its code goes in the head's key */
} join_col;

/* The head's layout as the loop reads it. */
typedef struct join_layout {
  join_col delta[IX_MAX_ARITY], run[IX_MAX_ARITY];
  uint32_t n_delta, n_run;
  Word_t base_key;        /* the codes of the constant columns */
  int base_ok;            /* every constant has a code */
  uint64_t *bits;         /* a bitmap head's bits, or NULL: keys staged (Judy) */
  int ok;                 /* h takes keys (read_layout) */
} join_layout;

/* Reads h's current layout into *l; l->ok and the result 0 when h cannot
 * take keys: neither a bitmap with no other index nor Judy keys of one
 * chunk. */
static int read_layout(const ix_relation *h, const ix_join *j, join_layout *l)
{
  const ix_index *ix = h->indexes[0];
  int bitmap = ix->dense && !ix->flat && h->n_indexes == 1;
  l->ok = h->arity > 0 && (bitmap || (!ix->dense && ix->n_chunks == 1));
  if (!l->ok) return 0;
  const ix_relation *r = j->run_rel;
  const ix_index *rix = r->indexes[j->index];
  uint8_t given[IX_MAX_ARITY] = { 0 };
  l->n_run = l->n_delta = 0;
  for (uint32_t p = 0; p < r->arity; p++) {
    uint32_t c = rix->order[p], to = j->run_to_head[c];
    if (to == IX_NO_COLUMN) continue;
    given[to] = 1;
    l->run[l->n_run++] = (join_col){ rix->shift[p], rix->code_mask[p], r->cols[c].id_of, to, &h->cols[to],
                                     ix_key_shift(ix, h->arity, to) };
  }
  l->base_key = 0;
  l->base_ok = 1;
  for (uint32_t c = 0; c < h->arity; c++) {
    if (given[c]) continue;
    uint32_t shift = ix_key_shift(ix, h->arity, c);
    if (j->head_from[c] != IX_NO_COLUMN) {
      l->delta[l->n_delta++] = (join_col){ j->head_from[c], 0, NULL, c, &h->cols[c], shift };
      continue;
    }
    uint32_t code = code_get(&h->cols[c], j->base[c]);
    l->base_ok &= code != NO_CODE;
    l->base_key |= (Word_t)(code == NO_CODE ? 0 : code) << shift;
  }
  l->bits = bitmap ? ix->dense : NULL;
  return 1;
}

/* The id that run column c takes in run key k. */
static inline ix_val run_id(const join_col *c, Word_t k) { return c->id_of[(uint32_t)(k >> c->from) & c->mask]; }

/* The head of delta tuple t and run key k, as ids. */
static inline void head_ids(const ix_relation *h, const ix_join *j, const join_layout *l, const ix_val *t, Word_t k,
                            ix_val *head)
{
  if (l->n_delta + l->n_run < h->arity) memcpy(head, j->base, h->arity * sizeof *head);
  for (uint32_t i = 0; i < l->n_delta; i++) head[l->delta[i].to] = t[l->delta[i].from];
  for (uint32_t i = 0; i < l->n_run; i++) head[l->run[i].to] = run_id(&l->run[i], k);
}

/* The part of the head's key that delta tuple t gives; 0 when a value has
 * no code. */
static int delta_key(const join_layout *l, const ix_val *t, Word_t *key)
{
  Word_t k = l->base_key;
  for (uint32_t i = 0; i < l->n_delta; i++) {
    uint32_t code = code_get(l->delta[i].head, t[l->delta[i].from]);
    if (code == NO_CODE) return 0;
    k |= (Word_t)code << l->delta[i].shift;
  }
  *key = k;
  return l->base_ok;
}

/* The head's key for run key k on top of the delta's part; 0 when a value
 * has no code. */
static inline int run_key(const join_layout *l, Word_t k, Word_t *key)
{
  for (uint32_t i = 0; i < l->n_run; i++) {
    const join_col *c = &l->run[i];
    uint32_t code = code_get(c->head, run_id(c, k));
    if (code == NO_CODE) return 0;
    *key |= (Word_t)code << c->shift;
  }
  return 1;
}

enum { BATCH = 64 };  /* heads keyed before their bits are set: their loads overlap */

/* Heads keyed, waiting for their bits. */
typedef struct join_batch {
  Word_t key[BATCH], run_key[BATCH];
  const ix_val *t[BATCH];
  uint32_t n;
} join_batch;

/* Sets the bits of the batch's heads, appending the new ones to added;
 * 0 when out of memory. */
static int flush_batch(ix_relation *h, const ix_join *j, const join_layout *l, join_batch *b, ix_tupleset *added)
{
  if (added && added->cap - added->n < b->n && !ix_tupleset_reserve(added, b->n)) return 0;
  uint64_t taken = 0;
  int pair = l->n_delta == 1 && l->n_run == 1 && h->arity == 2;
  for (uint32_t i = 0; i < b->n; i++) {
    if (!dense_set(l->bits, b->key[i])) continue;
    taken++;
    if (!added) continue;
    ix_val *head = ix_tupleset_append(added);
    if (!pair) {
      head_ids(h, j, l, b->t[i], b->run_key[i], head);
      continue;
    }
    head[l->delta[0].to] = b->t[i][l->delta[0].from];
    head[l->run[0].to] = run_id(&l->run[0], b->run_key[i]);
  }
  h->size += taken;
  h->n_taken += taken;
  b->n = 0;
  return 1;
}

/* Takes the head keyed `key` (delta tuple t, run key k): into the batch
 * for a bitmap, else staged at once (ix_stage_key: sorted into Judy and
 * reported at the flush).  *relaid is set when staging changed h's layout
 * (it turned dense: read it anew).  0 when out of memory. */
static int take_key(ix_relation *h, const ix_join *j, const join_layout *l, join_batch *b, const ix_val *t,
                    Word_t k, Word_t key, ix_tupleset *added, int *relaid)
{
  if (!l->bits) return ix_stage_key(h, key, relaid);
  b->key[b->n] = key;
  b->run_key[b->n] = k;
  b->t[b->n] = t;
  return ++b->n < BATCH || flush_batch(h, j, l, b, added);
}

/* Stages the heads of delta tuple t with run keys keys[0..n) by key
 * (take_key) while h takes keys and every value has a code, else through
 * ix_relation_stage (the batch flushed first); the layout is read anew
 * whenever h may have changed.  0 when out of memory. */
static int stage_keys(ix_relation *h, const ix_join *j, join_layout *l, join_batch *b, const ix_val *t,
                      const Word_t *keys, uint64_t n, ix_tupleset *added)
{
  Word_t base = 0;
  int by_key = l->ok && delta_key(l, t, &base);
  for (uint64_t i = 0; i < n; i++) {
    Word_t key = base;
    if (by_key && run_key(l, keys[i], &key)) {
      int changed = 0;
      if (!take_key(h, j, l, b, t, keys[i], key, added, &changed)) return 0;
      if (changed) by_key = read_layout(h, j, l) && delta_key(l, t, &base);
      continue;
    }
    ix_val head[IX_MAX_ARITY];
    head_ids(h, j, l, t, keys[i], head);
    if (!flush_batch(h, j, l, b, added) || !ix_relation_stage(h, head, added)) return 0;
    by_key = read_layout(h, j, l) && delta_key(l, t, &base);
  }
  return 1;
}

/* Is the head's layout one column from the delta tuple and one from each
 * run tuple (the others constants with codes), as closures and
 * reachability have?  join_pairs stages those without loops over columns. */
static int is_pair(const join_layout *l) { return l->ok && l->n_delta == 1 && l->n_run == 1 && l->base_ok; }

/* Stages the heads of delta tuples from *at on, for a layout is_pair, into
 * the batch, counting them into *n_derived, up to `to` or until
 * *n_derived reaches limit: then returns 2.  Returns 1 at the first tuple
 * with a value that has no code or whose staging changed h's layout (*at
 * left there, *done its run tuples already staged, for stage_keys); 0 when
 * out of memory. */
static int join_pairs(ix_relation *h, const ix_join *j, join_layout *l, join_batch *b, const ix_tupleset *delta,
                      uint64_t *at, uint64_t to, ix_tupleset *added, uint64_t *n_derived, uint64_t *done,
                      uint64_t limit)
{
  const ix_index *rix = j->run_rel->indexes[j->index];
  const colmap *key_col = &j->run_rel->cols[rix->order[0]];
  const join_col *d = &l->delta[0], *r = &l->run[0];
  for (; *at < to && *n_derived < limit; ++*at) {
    const ix_val *t = ix_tupleset_get(delta, *at);
    uint32_t code = code_get(key_col, t[j->key_from]);
    if (code >= rix->n_first) continue;  /* no tuple (NO_CODE is above every count) */
    const Word_t *keys = rix->flat + rix->first_at[code];
    uint64_t n = rix->flat + rix->first_at[code + 1] - keys;
    *n_derived += n;
    *done = 0;
    if (n && (code = code_get(d->head, t[d->from])) == NO_CODE) return 1;
    Word_t base = l->base_key | (Word_t)code << d->shift;
    for (; *done < n; ++*done) {
      Word_t k = keys[*done];
      int changed = 0;
      if ((code = code_get(r->head, run_id(r, k))) == NO_CODE) return 1;
      if (!take_key(h, j, l, b, t, k, base | (Word_t)code << r->shift, added, &changed)) return 0;
      if (changed) return read_layout(h, j, l), ++*done, 1;  /* the rest of the run as stage_keys stages it */
    }
  }
  return 2;
}

int ix_relation_stage_join(ix_relation *h, const ix_join *j, const ix_tupleset *delta, uint64_t *at, uint64_t to,
                           uint64_t budget, ix_tupleset *added, uint64_t *n_derived)
{
  assert(h && j && delta && at && *at <= to && to <= delta->n && budget > 0 && n_derived);
  const ix_relation *r = j->run_rel;
  assert(r != h && j->index >= 0 && j->index < r->n_indexes && j->key_from < delta->arity);
  assert(!added || added->arity == h->arity);
  const ix_index *rix = r->indexes[j->index];
  join_layout l;
  join_batch b;
  b.n = 0;
  if (!rix->flat || rix->n_recent || !read_layout(h, j, &l)) return 0;
  const colmap *key_col = &r->cols[rix->order[0]];
  uint64_t limit = *n_derived + budget;
  while (*at < to && *n_derived < limit) {
    uint64_t done = 0;  /* run tuples of tuple *at that join_pairs staged (and counted) */
    int counted = is_pair(&l);
    int rc = counted ? join_pairs(h, j, &l, &b, delta, at, to, added, n_derived, &done, limit) : 1;
    if (rc == 0) return -1;
    if (rc == 2) break;
    const ix_val *t = ix_tupleset_get(delta, (*at)++);
    uint32_t code = code_get(key_col, t[j->key_from]);
    if (code >= rix->n_first) continue;  /* no tuple (NO_CODE is above every count) */
    uint64_t from = rix->first_at[code], n = rix->first_at[code + 1] - from;
    *n_derived += counted ? 0 : n;
    if (n > done && !stage_keys(h, j, &l, &b, t, rix->flat + from + done, n - done, added)) return -1;
    if (!l.ok) return 0;  /* h stopped taking keys; the batch was flushed when it changed */
  }
  return flush_batch(h, j, &l, &b, added) ? 1 : -1;
}
