/* rekey.c: moving the keys of a relation's primary index to a new layout
 * once a column outgrew its width (see relation_impl.h): staged keys one by
 * one, a bitmap's in blocks. */
#include "index/relation.h"
#include "index/relation_impl.h"

#include <assert.h>
#include <string.h>

void ix_save_layout(const ix_relation *r, ix_key_layout *l)
{
  assert(r && l);
  const ix_index *ix = r->indexes[0];
  for (uint32_t p = 0; p < r->arity; p++) {
    l->shift[p] = ix->shift[p];
    l->bits[p] = r->cols[ix->order[p]].bits;
  }
}

/* One key laid out as `old`, in the current layout of the primary index
 * (one chunk before and after; the order of the columns is the same). */
static Word_t rekey_one(const ix_relation *r, const ix_key_layout *old, Word_t key)
{
  const ix_index *ix = r->indexes[0];
  Word_t out = 0;
  for (uint32_t p = 0; p < r->arity; p++) out |= (key >> old->shift[p] & low_mask(old->bits[p])) << ix->shift[p];
  return out;
}

void ix_rekey(const ix_relation *r, const ix_key_layout *old, Word_t *keys, uint64_t n)
{
  assert(r && old && (keys || n == 0));
  for (uint64_t i = 0; i < n; i++) keys[i] = rekey_one(r, old, keys[i]);
}

/* The key bits of the lowest positions of the primary index whose width is
 * the same as in `old`: a key keeps them when it moves to the new layout. */
static uint32_t unchanged_low_bits(const ix_relation *r, const ix_key_layout *old)
{
  const ix_index *ix = r->indexes[0];
  uint32_t low = 0;
  for (uint32_t p = r->arity; p-- > 0 && old->bits[p] == r->cols[ix->order[p]].bits;) low += old->bits[p];
  return low;
}

static int any_set(const uint64_t *w, size_t n)
{
  uint64_t any = 0;
  for (size_t i = 0; i < n; i++) any |= w[i];
  return any != 0;
}

/* See relation_impl.h.  The keys that differ only in the unchanged low bits
 * move together, as a block of 2^low bits that lands where its first key
 * goes: whole words from 64 keys up, else the block's part of a word. */
void ix_move_bits(ix_relation *r, const uint64_t *bitmap, uint32_t bits, const ix_key_layout *old)
{
  assert(r && bitmap && old && r->indexes[0]->dense);
  uint64_t *dense = r->indexes[0]->dense;
  uint32_t low = unchanged_low_bits(r, old);
  size_t n_words = ix_dense_words(bits);
  if (low >= 6) {
    size_t block = (size_t)1 << (low - 6);
    for (size_t w = 0; w < n_words; w += block)
      if (any_set(bitmap + w, block))
        memcpy(dense + (rekey_one(r, old, (Word_t)w << 6) >> 6), bitmap + w, block * sizeof *dense);
    return;
  }
  uint32_t width = 1u << low;
  uint64_t mask = low_mask(width);
  for (size_t w = 0; w < n_words; w++)
    for (uint64_t b = bitmap[w]; b;) {
      uint32_t at = (uint32_t)__builtin_ctzll(b) & ~(width - 1);
      Word_t to = rekey_one(r, old, (Word_t)w << 6 | at);
      dense[to >> 6] |= (b >> at & mask) << (to & 63);
      b &= ~(mask << at);
    }
}
