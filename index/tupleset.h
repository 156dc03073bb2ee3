/* tupleset.h: a short-lived set of fixed-arity tuples in insertion order,
 * for the deltas of semi-naive rounds: an open-addressing hash set over a
 * flat array, which suits sets that live for one round better than Judy. */
#ifndef GDLOG_TUPLESET_H
#define GDLOG_TUPLESET_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ix_tupleset {
  uint32_t arity;
  uint32_t *data;     /* tuples, arity values each, in insertion order */
  uint64_t n, cap;    /* tuples stored, tuples room */
  uint64_t *slots;    /* tuple number + 1, 0 for empty */
  uint64_t mask;
} ix_tupleset;

/* Makes an empty set for tuples of `arity` values. */
void ix_tupleset_init(ix_tupleset *s, uint32_t arity);

/* Frees the storage of the set. */
void ix_tupleset_free(ix_tupleset *s);

/* Empties the set, keeping its storage. */
void ix_tupleset_clear(ix_tupleset *s);

/* Adds a tuple.  Returns 1, with *is_new (when not NULL) 1 when the tuple
 * is new and 0 when it was there; 0 when out of memory. */
int ix_tupleset_insert(ix_tupleset *s, const uint32_t *tuple, int *is_new);

/* Appends a tuple without hashing it: for a set used as a plain list, on
 * which insert and contains are then not used (its hash slots, if any, are
 * dropped).  0 when out of memory. */
int ix_tupleset_push(ix_tupleset *s, const uint32_t *tuple);

/* Makes room for n more tuples appended to a set used as a plain list
 * (see ix_tupleset_push), which ix_tupleset_append then writes; 0 when out
 * of memory. */
int ix_tupleset_reserve(ix_tupleset *s, uint64_t n);

/* The slot of the next tuple of a plain list that has room for it (see
 * ix_tupleset_reserve), counted as added: the caller writes its values. */
static inline uint32_t *ix_tupleset_append(ix_tupleset *s)
{
  assert(s->n < s->cap);
  return s->data + s->n++ * s->arity;
}

/* Returns 1 when the tuple is in the set. */
int ix_tupleset_contains(const ix_tupleset *s, const uint32_t *tuple);

/* Returns 1 when the tuple is in a hashed set, with its insertion number in
 * *at (0 for the first one inserted); 0 when it is not there. */
int ix_tupleset_find(const ix_tupleset *s, const uint32_t *tuple, uint64_t *at);

/* The i-th tuple added, i < s->n. */
static inline const uint32_t *ix_tupleset_get(const ix_tupleset *s, uint64_t i)
{
  assert(i < s->n);
  return s->data + i * s->arity;
}

#endif
