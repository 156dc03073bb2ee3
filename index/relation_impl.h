/* relation_impl.h: the layout of relations and their indexes, private to
 * index/ (relation.c builds and changes them, iter.c walks them). */
#ifndef GDLOG_RELATION_IMPL_H
#define GDLOG_RELATION_IMPL_H

#include "index/relation.h"

enum { PAGE_BITS = 8, PAGE = 1 << PAGE_BITS, MAX_INDEXES = 256 };
#define NO_CODE UINT32_MAX

/* A column's dictionary: term id -> code (paged array), code -> term id. */
typedef struct colmap {
  uint32_t **pages;   /* page p maps ids [p*PAGE, (p+1)*PAGE); entry = code + 1 */
  uint32_t n_pages;
  ix_val *id_of;      /* code -> term id (datalog/base/grow.h) */
  uint32_t n_codes, cap;
  uint8_t bits;       /* width of the column's codes in index keys */
  uint8_t min_bits;   /* never narrower: room for the values expected (ix_relation_expect_values) */
} colmap;

/* One lexicographic column order, its keys cut into chunks of <= 64 bits. */
typedef struct ix_index {
  uint64_t mask;                      /* the bound columns it was built for */
  uint8_t order[IX_MAX_ARITY];        /* position -> column */
  uint8_t chunk_of[IX_MAX_ARITY];     /* position -> chunk */
  uint8_t shift[IX_MAX_ARITY];        /* position -> shift inside its chunk key */
  uint32_t code_mask[IX_MAX_ARITY];   /* position -> the low bits its code takes */
  uint8_t chunk_end[IX_MAX_ARITY];    /* chunk -> one past its last position */
  uint8_t n_chunks;
  Word_t full[IX_MAX_ARITY];          /* chunk -> the bits of all its positions */
  Pvoid_t root;                       /* the keys in Judy, */
  uint64_t *dense;                    /*   or as a bitmap over the key range (one chunk) */
  uint8_t dense_bits;                 /*   of that many bits */
  Word_t *flat;                       /* one chunk, asked for by a lookup: its keys in */
  uint64_t n_flat;                    /*   order (see mirror), */
  uint32_t *first_at;                 /*   and per code of the first column where they start */
  uint32_t n_first;                   /*   (for its first n_first codes); */
  Word_t *recent;                     /*   and the keys added since, the first n_sorted */
  uint64_t n_recent, cap_recent, n_sorted;  /* of them in order; */
  int mirror_only;                    /* the keys are in the mirror only, never in Judy (see index_insert_all) */
} ix_index;

/* A growing array of keys. */
typedef struct keybuf {
  uint64_t *at;
  uint64_t n, cap;
} keybuf;

struct ix_relation {
  uint32_t arity;
  uint64_t size;
  uint32_t *staged;       /* codes of tuples waiting for ix_relation_flush */
  uint64_t n_staged, cap_staged;
  keybuf keys;            /* or their primary keys, while that is one chunk */
  keybuf fresh;           /* keys a relation took in as it turned dense, to report */
  uint64_t n_taken;       /* tuples a dense relation took in at staging, reported then */
  colmap *cols;
  ix_index **indexes;     /* [0] the primary one, then those asked for */
  int n_indexes, cap_indexes;
  int bulk;               /* the next flush fills it at once (ix_relation_bulk) */
};

static inline Word_t low_mask(uint32_t bits) { return bits >= 64 ? ~(Word_t)0 : ((Word_t)1 << bits) - 1; }

static inline uint32_t code_get(const colmap *m, ix_val id)
{
  uint32_t p = id >> PAGE_BITS;
  if (p >= m->n_pages || !m->pages[p]) return NO_CODE;
  return m->pages[p][id & (PAGE - 1)] - 1;
}

/* The key of chunk `chunk` of index ix for a tuple given as column codes. */
static inline Word_t chunk_key(const ix_index *ix, uint32_t chunk, const uint32_t *codes)
{
  Word_t k = 0;
  uint32_t start = chunk ? ix->chunk_end[chunk - 1] : 0;
  for (uint32_t p = start; p < ix->chunk_end[chunk]; p++)
    k |= (Word_t)codes[ix->order[p]] << ix->shift[p];
  return k;
}

/* Where column col's code sits in a key of index ix (one chunk). */
static inline uint32_t ix_key_shift(const ix_index *ix, uint32_t arity, uint32_t col)
{
  uint32_t p = 0;
  while (p + 1 < arity && ix->order[p] != col) p++;
  return ix->shift[p];
}

/* The codes of a key of the one-chunk index ix. */
static inline void key_codes(const ix_relation *r, const ix_index *ix, Word_t key, uint32_t *codes)
{
  for (uint32_t p = 0; p < r->arity; p++)
    codes[ix->order[p]] = (uint32_t)(key >> ix->shift[p]) & ix->code_mask[p];
}

static inline int dense_test(const uint64_t *bits, Word_t key) { return (int)(bits[key >> 6] >> (key & 63) & 1); }

/* Sets a key's bit: 1 when it was clear. */
static inline int dense_set(uint64_t *bits, Word_t key)
{
  uint64_t *w = &bits[key >> 6], bit = (uint64_t)1 << (key & 63);
  if (*w & bit) return 0;
  *w |= bit;
  return 1;
}

/* The first key in [k, hi] whose bit is set, into *k; 0 when none. */
static inline int dense_first(const uint64_t *bits, Word_t *k, Word_t hi)
{
  Word_t w = *k >> 6, last = hi >> 6;
  uint64_t word = bits[w] & (~(uint64_t)0 << (*k & 63));
  while (!word) {
    if (++w > last) return 0;
    word = bits[w];
  }
  Word_t found = w << 6 | (Word_t)__builtin_ctzll(word);
  if (found > hi) return 0;
  *k = found;
  return 1;
}

/* Moves *k to the first key >= *k (next: > *k) of a one-chunk index; 0 when none. */
int ix_key_seek(const ix_index *ix, Word_t *k, int next);

/* Stages a key of r's one-chunk primary index as ix_relation_stage does;
 * *relaid is set when the relation turned dense (its layout may change).
 * 0 when out of memory. */
int ix_stage_key(ix_relation *r, Word_t key, int *relaid);

/* Stages a tuple of a dense relation by inserting it now (a bitmap needs
 * no sorted batch): its primary key, its codes (read only when r has other
 * indexes) and its ids (read only for `added`, which gets it now when new).
 * 0 when out of memory. */
int ix_insert_dense(ix_relation *r, Word_t key, const uint32_t *codes, const ix_val *tuple, ix_tupleset *added);

/* Words in a bitmap of 2^bits keys. */
static inline size_t ix_dense_words(uint32_t bits) { return bits < 6 ? 1 : (size_t)1 << (bits - 6); }

/* The primary index's layout, kept before a column widens to move its
 * keys to the new one (rekey.c: keys of one chunk). */
typedef struct ix_key_layout {
  uint8_t shift[IX_MAX_ARITY], bits[IX_MAX_ARITY];
} ix_key_layout;

/* Saves r's primary layout into *l. */
void ix_save_layout(const ix_relation *r, ix_key_layout *l);

/* Rewrites keys[0..n), laid out as `old`, in r's current primary layout
 * (the order of the columns is the same, only their widths grew). */
void ix_rekey(const ix_relation *r, const ix_key_layout *old, Word_t *keys, uint64_t n);

/* Sets in r's bitmap, empty and laid out anew, the keys of `bitmap` (2^bits
 * keys, laid out as `old`). */
void ix_move_bits(ix_relation *r, const uint64_t *bitmap, uint32_t bits, const ix_key_layout *old);

/* Sorts the recent keys of a mirror-only index that were added since the
 * last lookup request (ix_relation_index), so that an iteration can read
 * them: their order is a cache, not the index's content. */
void ix_index_sort_recent(const ix_index *ix);

#endif
