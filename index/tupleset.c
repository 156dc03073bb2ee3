/* tupleset.c: open-addressing hash set of tuples (see tupleset.h). */
#include "index/tupleset.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Two values per multiply; the high bits, which the products mix from all
 * the low ones, are folded down at the end. */
static uint64_t hash_tuple(const uint32_t *t, uint32_t n)
{
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  uint32_t i = 0;
  for (; i + 1 < n; i += 2) h = (h ^ (t[i] | (uint64_t)t[i + 1] << 32)) * 0xff51afd7ed558ccdULL;
  if (i < n) h = (h ^ t[i]) * 0xff51afd7ed558ccdULL;
  h ^= h >> 32;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 29);
}

void ix_tupleset_init(ix_tupleset *s, uint32_t arity)
{
  memset(s, 0, sizeof *s);
  s->arity = arity;
}

void ix_tupleset_free(ix_tupleset *s)
{
  free(s->data);
  free(s->slots);
  ix_tupleset_init(s, s->arity);
}

void ix_tupleset_clear(ix_tupleset *s)
{
  if (s->slots && s->mask + 1 > 8 * s->n + 64) {
    free(s->slots);  /* much larger than its last use: let it grow again */
    s->slots = NULL;
    s->mask = 0;
  } else if (s->slots && s->n) {
    memset(s->slots, 0, (s->mask + 1) * sizeof *s->slots);
  }
  s->n = 0;
}

/* A slot holds the tuple's number + 1 in its low 32 bits and the high half
 * of its hash above them, so that most probes that miss compare no tuple. */
#define SLOT_INDEX(v) ((v) & 0xffffffffu)
#define SLOT_TAG(h) ((h) >> 32 << 32)

static int same_tuple(const uint32_t *a, const uint32_t *b, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

/* The slot of t (hash h): its entry, or the empty slot where it would go. */
static uint64_t *find_slot(const ix_tupleset *s, const uint32_t *t, uint64_t h)
{
  uint64_t i = h & s->mask, tag = SLOT_TAG(h);
  for (uint64_t v; (v = s->slots[i]) != 0; i = (i + 1) & s->mask)
    if (SLOT_TAG(v) == tag && same_tuple(s->data + (SLOT_INDEX(v) - 1) * s->arity, t, s->arity)) break;
  return &s->slots[i];
}

/* Copies a tuple; short ones inline (a memcpy of unknown length is a call). */
static inline void copy_tuple(uint32_t *to, const uint32_t *t, uint32_t n)
{
  if (n > 8) {
    memcpy(to, t, n * sizeof *t);
    return;
  }
  uint32_t i = 0;
  for (; i + 2 <= n; i += 2) memcpy(to + i, t + i, 2 * sizeof *t);
  if (i < n) to[i] = t[i];
}

static int grow_slots(ix_tupleset *s)
{
  if (s->n >= 0xffffffffu) return 0;  /* numbers + 1 must fit a slot's low half */
  uint64_t cap = s->slots ? (s->mask + 1) * 2 : 64;
  uint64_t *q = calloc(cap, sizeof *q);
  if (!q) return 0;
  free(s->slots);
  s->slots = q;
  s->mask = cap - 1;
  for (uint64_t k = 0; k < s->n; k++) {
    uint64_t h = hash_tuple(s->data + k * s->arity, s->arity);
    *find_slot(s, s->data + k * s->arity, h) = SLOT_TAG(h) | (k + 1);
  }
  return 1;
}

/* Makes room for `need` tuples in all, doubling; 0 when out of memory. */
static int grow_data_to(ix_tupleset *s, uint64_t need)
{
  if (need <= s->cap) return 1;
  uint64_t cap = s->cap ? s->cap * 2 : 32;
  while (cap < need) cap *= 2;
  uint32_t *q = realloc(s->data, cap * (s->arity ? s->arity : 1) * sizeof *q);
  if (!q) return 0;
  s->data = q;
  s->cap = cap;
  return 1;
}

static int grow_data(ix_tupleset *s) { return grow_data_to(s, s->n + 1); }

/* Drops the hash slots of a set now used as a plain list: pushes do not
 * keep them, and ix_tupleset_clear need not wipe them. */
static void drop_slots(ix_tupleset *s)
{
  free(s->slots);
  s->slots = NULL;
  s->mask = 0;
}

int ix_tupleset_reserve(ix_tupleset *s, uint64_t n)
{
  if (s->slots) drop_slots(s);
  return grow_data_to(s, s->n + n);
}

int ix_tupleset_push(ix_tupleset *s, const uint32_t *t)
{
  assert(t || s->arity == 0);
  if (s->slots) drop_slots(s);
  if (!grow_data(s)) return 0;
  copy_tuple(s->data + s->n * s->arity, t, s->arity);
  s->n++;
  return 1;
}

int ix_tupleset_insert(ix_tupleset *s, const uint32_t *t, int *is_new)
{
  assert(t || s->arity == 0);
  if (!s->slots || (s->n + 1) * 2 > s->mask + 1) {
    if (!grow_slots(s)) return 0;
  }
  uint64_t h = hash_tuple(t, s->arity);
  uint64_t *slot = find_slot(s, t, h);
  if (*slot) {
    if (is_new) *is_new = 0;
    return 1;
  }
  if (s->n + 1 >= 0xffffffffu || !grow_data(s)) return 0;
  copy_tuple(s->data + s->n * s->arity, t, s->arity);
  *slot = SLOT_TAG(h) | ++s->n;
  if (is_new) *is_new = 1;
  return 1;
}

int ix_tupleset_contains(const ix_tupleset *s, const uint32_t *t)
{
  return s->slots && *find_slot(s, t, hash_tuple(t, s->arity)) != 0;
}

int ix_tupleset_find(const ix_tupleset *s, const uint32_t *t, uint64_t *at)
{
  assert((t || s->arity == 0) && at);
  uint64_t k = s->slots ? SLOT_INDEX(*find_slot(s, t, hash_tuple(t, s->arity))) : 0;
  if (k) *at = k - 1;
  return k != 0;
}
