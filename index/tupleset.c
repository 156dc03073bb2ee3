/* tupleset.c: open-addressing hash set of tuples (see tupleset.h). */
#include "index/tupleset.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_tuple(const uint32_t *t, uint32_t n)
{
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  for (uint32_t i = 0; i < n; i++) {
    h ^= t[i];
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
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

static uint64_t *find_slot(const ix_tupleset *s, const uint32_t *t)
{
  uint64_t i = hash_tuple(t, s->arity) & s->mask;
  size_t bytes = s->arity * sizeof(uint32_t);
  while (s->slots[i] && memcmp(s->data + (s->slots[i] - 1) * s->arity, t, bytes) != 0)
    i = (i + 1) & s->mask;
  return &s->slots[i];
}

static int grow_slots(ix_tupleset *s)
{
  uint64_t cap = s->slots ? (s->mask + 1) * 2 : 64;
  uint64_t *q = calloc(cap, sizeof *q);
  if (!q) return 0;
  free(s->slots);
  s->slots = q;
  s->mask = cap - 1;
  for (uint64_t k = 0; k < s->n; k++) *find_slot(s, s->data + k * s->arity) = k + 1;
  return 1;
}

static int grow_data(ix_tupleset *s)
{
  if (s->n < s->cap) return 1;
  uint64_t cap = s->cap ? s->cap * 2 : 32;
  uint32_t *q = realloc(s->data, cap * (s->arity ? s->arity : 1) * sizeof *q);
  if (!q) return 0;
  s->data = q;
  s->cap = cap;
  return 1;
}

int ix_tupleset_push(ix_tupleset *s, const uint32_t *t)
{
  if (!grow_data(s)) return 0;
  memcpy(s->data + s->n * s->arity, t, s->arity * sizeof *t);
  s->n++;
  return 1;
}

int ix_tupleset_insert(ix_tupleset *s, const uint32_t *t)
{
  if (!s->slots || (s->n + 1) * 2 > s->mask + 1) {
    if (!grow_slots(s)) return -1;
  }
  uint64_t *slot = find_slot(s, t);
  if (*slot) return 0;
  if (!grow_data(s)) return -1;
  memcpy(s->data + s->n * s->arity, t, s->arity * sizeof *t);
  *slot = ++s->n;
  return 1;
}

int ix_tupleset_contains(const ix_tupleset *s, const uint32_t *t)
{
  return s->slots && *find_slot(s, t) != 0;
}

int64_t ix_tupleset_find(const ix_tupleset *s, const uint32_t *t)
{
  return s->slots ? (int64_t)*find_slot(s, t) - 1 : -1;
}
