/* relation.c: tuples as packed column codes in Judy arrays (see relation.h). */
#include "index/relation.h"
#include "index/relation_impl.h"

#include "index/sort.h"
#include "datalog/base/grow.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The primary index turns into a bitmap over its key range once it holds at
 * least DENSE_MIN_TUPLES keys and at least one key per DENSE_SPARSITY bits
 * of the range, for key widths up to DENSE_MAX_BITS (a 32 MiB bitmap). */
enum { DENSE_MAX_BITS = 28, DENSE_MIN_TUPLES = 256, DENSE_SPARSITY = 64 };

/* A column expects at most this many values (ix_relation_expect):
 * wider would only spread the keys of a relation that may stay small. */
#define EXPECT_MAX ((uint64_t)1 << 20)

/* Keys a sorted mirror holds at most: its places in first_at are 32 bits. */
#define MAX_FLAT ((uint64_t)UINT32_MAX)

/* Inserts of this many tuples or more into a Judy index go in key order. */
enum { SORTED_INSERT_MIN = 256 };

/* ---- column dictionaries ----------------------------------------------------- */

/* Returns the code of id, adding one when absent; NO_CODE when out of memory. */
static uint32_t code_add(colmap *m, ix_val id)
{
  uint32_t p = id >> PAGE_BITS;
  if (p >= m->n_pages) {
    uint32_t n = m->n_pages ? m->n_pages : 16;
    while (n <= p) n *= 2;
    uint32_t **q = realloc(m->pages, n * sizeof *q);
    if (!q) return NO_CODE;
    memset(q + m->n_pages, 0, (n - m->n_pages) * sizeof *q);
    m->pages = q;
    m->n_pages = n;
  }
  if (!m->pages[p] && !(m->pages[p] = calloc(PAGE, sizeof(uint32_t)))) return NO_CODE;
  uint32_t *slot = &m->pages[p][id & (PAGE - 1)];
  if (*slot) return *slot - 1;
  if (m->n_codes == m->cap) {
    uint32_t cap = m->cap ? m->cap * 2 : 16;
    ix_val *q = dl_grow_to(m->id_of, cap * sizeof *q);  /* no old copy left resident */
    if (!q) return NO_CODE;
    m->id_of = q;
    m->cap = cap;
  }
  m->id_of[m->n_codes] = id;
  *slot = ++m->n_codes;
  return m->n_codes - 1;
}

/* The fewest bits that hold n codes. */
static uint8_t bits_for(uint64_t n) { return (uint8_t)(64 - __builtin_clzll(n > 1 ? n - 1 : 1)); }

static void colmap_free(colmap *m)
{
  for (uint32_t p = 0; p < m->n_pages; p++) free(m->pages[p]);
  free(m->pages);
  dl_grow_free(m->id_of);
}

/* ---- index layout ------------------------------------------------------------ */

/* Lays out the positions of ix into chunks from the current column widths. */
static void layout(ix_index *ix, const ix_relation *r)
{
  uint32_t chunk = 0, used = 0, n = r->arity;
  for (uint32_t p = 0; p < n; p++) {
    uint32_t w = r->cols[ix->order[p]].bits;
    if (used + w > 64) {
      ix->chunk_end[chunk++] = (uint8_t)p;
      used = 0;
    }
    ix->chunk_of[p] = (uint8_t)chunk;
    used += w;
  }
  ix->chunk_end[chunk] = (uint8_t)n;
  ix->n_chunks = (uint8_t)(n ? chunk + 1 : 0);
  /* shifts: the first position of a chunk is the most significant */
  for (uint32_t p = n; p-- > 0;) {
    int last = p + 1 == n || ix->chunk_of[p + 1] != ix->chunk_of[p];
    ix->shift[p] = last ? 0 : (uint8_t)(ix->shift[p + 1] + r->cols[ix->order[p + 1]].bits);
  }
  for (uint32_t l = 0; l < ix->n_chunks; l++) ix->full[l] = 0;
  for (uint32_t p = 0; p < n; p++) {
    ix->code_mask[p] = (uint32_t)low_mask(r->cols[ix->order[p]].bits);
    ix->full[ix->chunk_of[p]] |= (Word_t)ix->code_mask[p] << ix->shift[p];
  }
}

/* ---- dense keys -------------------------------------------------------------- */

/* ---- sorted mirrors of one-chunk indexes ---------------------------------------
 * Walking Judy costs a descent per key (Judy1Next), a sorted array a step.
 * A one-chunk index a lookup asks for (ix_relation_index) gets its keys as a
 * sorted array, flat (unless it is a bitmap, which iterates fast already);
 * keys added later go to `recent`, which the next request sorts, and merges
 * into flat once it holds an eighth as many keys.
 * Iterations walk both arrays.  A mirror that would cost too much memory
 * (recent outgrowing flat between two requests) is dropped, and rebuilt at
 * a later request; a mirror-only index (index_insert_all) has no Judy to
 * rebuild it from, and keeps it. */

/* Forgets the mirror (the keys of a mirror-only index with it: only an
 * index about to be emptied or refilled drops such a mirror). */
static void drop_mirror(ix_index *ix)
{
  ix->mirror_only = 0;
  free(ix->flat);
  free(ix->first_at);
  free(ix->recent);
  ix->flat = ix->recent = NULL;
  ix->first_at = NULL;
  ix->n_flat = ix->n_recent = ix->cap_recent = ix->n_sorted = 0;
}

/* Appends key to the recent keys of ix, which grow up to `most` keys; 0
 * when they would grow beyond, or out of memory. */
static int recent_push(ix_index *ix, Word_t key, uint64_t most)
{
  if (ix->n_recent == ix->cap_recent) {
    uint64_t cap = ix->cap_recent ? 2 * ix->cap_recent : 64;
    Word_t *q = cap <= most ? realloc(ix->recent, cap * sizeof *q) : NULL;
    if (!q) return 0;
    ix->recent = q;
    ix->cap_recent = cap;
  }
  if (ix->n_sorted == ix->n_recent && (ix->n_recent == 0 || ix->recent[ix->n_recent - 1] < key)) ix->n_sorted++;
  ix->recent[ix->n_recent++] = key;
  return 1;
}

/* Key `key` was added to ix: its mirror, if any, takes it in, or is
 * dropped when it grew too big (recent beyond flat) or out of memory. */
static inline void mirror_add(ix_index *ix, Word_t key)
{
  if (ix->flat && !recent_push(ix, key, ix->n_flat + 64)) drop_mirror(ix);
}

/* Gives Judy the keys of a mirror-only index, which is then an index like
 * the others; 0 when out of memory. */
static int judy_now(ix_index *ix)
{
  if (!ix->root && ix->n_recent == 0) {  /* the sorted keys at once */
    if (Judy1SetArray(&ix->root, (Word_t)ix->n_flat, ix->flat, PJE0) == JERR) return 0;
    ix->mirror_only = 0;
    return 1;
  }
  for (uint64_t i = 0; i < ix->n_flat; i++)
    if (Judy1Set(&ix->root, ix->flat[i], PJE0) == JERR) return 0;
  for (uint64_t i = 0; i < ix->n_recent; i++)
    if (Judy1Set(&ix->root, ix->recent[i], PJE0) == JERR) return 0;
  ix->mirror_only = 0;
  return 1;
}

/* Gives Judy the keys of a primary index filled at once (fill_empty),
 * before it takes another: membership of new keys is tested in Judy.  0
 * when out of memory. */
static int primary_in_judy(ix_relation *r)
{
  return !r->indexes[0]->mirror_only || judy_now(r->indexes[0]);
}

static int cmp_key(const void *a, const void *b)
{
  Word_t x = *(const Word_t *)a, y = *(const Word_t *)b;
  return (x > y) - (x < y);
}

void ix_index_sort_recent(const ix_index *ix)
{
  assert(ix->mirror_only);
  ix_index *w = (ix_index *)ix;  /* the same keys, in order */
  qsort(w->recent, w->n_recent, sizeof *w->recent, cmp_key);
  w->n_sorted = w->n_recent;
}

/* Adds a tuple (as column codes) to one index: 1 new, 0 present, -1 no memory. */
static int index_insert(ix_index *ix, const uint32_t *codes)
{
  if (ix->mirror_only) return recent_push(ix, chunk_key(ix, 0, codes), UINT64_MAX) ? 1 : -1;
  if (ix->dense) {
    Word_t key = chunk_key(ix, 0, codes);
    int rc = dense_set(ix->dense, key);
    if (rc == 1) mirror_add(ix, key);
    return rc;
  }
  PPvoid_t slot = &ix->root;
  for (uint32_t c = 0; c + 1 < ix->n_chunks; c++) {
    PWord_t v = (PWord_t)JudyLIns(slot, chunk_key(ix, c, codes), PJE0);
    if (v == PJERR) return -1;
    slot = (PPvoid_t)v;
  }
  Word_t key = chunk_key(ix, ix->n_chunks - 1, codes);
  int rc = Judy1Set(slot, key, PJE0);
  if (rc == 1 && ix->n_chunks == 1) mirror_add(ix, key);
  return rc == JERR ? -1 : rc;
}

/* Is key among the sorted flat[lo, hi)? */
static int flat_has(const Word_t *flat, uint64_t lo, uint64_t hi, Word_t key)
{
  uint64_t end = hi;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (flat[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < end && flat[lo] == key;
}

static int index_contains(const ix_index *ix, const uint32_t *codes)
{
  if (ix->mirror_only) {  /* a primary index filled at once (fill_empty), never added to since */
    assert(ix->n_recent == 0);
    Word_t key = chunk_key(ix, 0, codes);
    uint32_t first = (uint32_t)(key >> ix->shift[0]);
    return first < ix->n_first && flat_has(ix->flat, ix->first_at[first], ix->first_at[first + 1], key);
  }
  if (ix->dense) return dense_test(ix->dense, chunk_key(ix, 0, codes));
  Pvoid_t node = ix->root;
  for (uint32_t c = 0; c + 1 < ix->n_chunks; c++) {
    PWord_t v = (PWord_t)JudyLGet(node, chunk_key(ix, c, codes), PJE0);
    if (!v || v == PJERR) return 0;
    node = (Pvoid_t)*v;
  }
  return Judy1Test(node, chunk_key(ix, ix->n_chunks - 1, codes), PJE0) == 1;
}

static void trie_free(Pvoid_t node, uint32_t levels_left)
{
  if (levels_left <= 1) {
    Judy1FreeArray(&node, PJE0);
    return;
  }
  Word_t k = 0;
  for (PWord_t v = (PWord_t)JudyLFirst(node, &k, PJE0); v && v != PJERR;
       v = (PWord_t)JudyLNext(node, &k, PJE0))
    trie_free((Pvoid_t)*v, levels_left - 1);
  JudyLFreeArray(&node, PJE0);
}

/* Moves *k to the first key >= *k (next: > *k) of a one-chunk index (see relation_impl.h). */
int ix_key_seek(const ix_index *ix, Word_t *k, int next)
{
  assert(!ix->mirror_only);  /* asked of bitmaps, and of Judy to build a mirror */
  if (!ix->dense) return (next ? Judy1Next(ix->root, k, PJE0) : Judy1First(ix->root, k, PJE0)) == 1;
  Word_t max = low_mask(ix->dense_bits);
  if (next && *k >= max) return 0;
  *k += (Word_t)next;
  return dense_first(ix->dense, k, max);
}

/* Empties an index (Judy arrays or bitmap), keeping its layout. */
static void index_clear(ix_index *ix, uint32_t arity)
{
  drop_mirror(ix);
  if (arity) trie_free(ix->root, ix->n_chunks);
  ix->root = NULL;
  free(ix->dense);
  ix->dense = NULL;
}

static size_t trie_bytes(Pvoid_t node, uint32_t levels_left)
{
  if (levels_left <= 1) return Judy1MemUsed(node);
  size_t n = JudyLMemUsed(node);
  Word_t k = 0;
  for (PWord_t v = (PWord_t)JudyLFirst(node, &k, PJE0); v && v != PJERR;
       v = (PWord_t)JudyLNext(node, &k, PJE0))
    n += trie_bytes((Pvoid_t)*v, levels_left - 1);
  return n;
}

/* ---- relation ------------------------------------------------------------------ */

/* An empty index whose order is the columns of mask, then those of
 * distinct, then the others, each group in column order. */
static ix_index *index_new(const ix_relation *r, uint64_t mask, uint64_t distinct)
{
  ix_index *ix = calloc(1, sizeof *ix);
  if (!ix) return NULL;
  ix->mask = mask;
  uint32_t p = 0;
  for (uint32_t c = 0; c < r->arity; c++)
    if (mask >> c & 1) ix->order[p++] = (uint8_t)c;
  for (uint32_t c = 0; c < r->arity; c++)
    if (distinct >> c & 1) ix->order[p++] = (uint8_t)c;
  for (uint32_t c = 0; c < r->arity; c++)
    if (!((mask | distinct) >> c & 1)) ix->order[p++] = (uint8_t)c;
  layout(ix, r);
  return ix;
}

ix_relation *ix_relation_create(uint32_t arity)
{
  if (arity > IX_MAX_ARITY) return NULL;
  ix_relation *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->arity = arity;
  r->cols = calloc(arity ? arity : 1, sizeof *r->cols);
  for (uint32_t c = 0; r->cols && c < arity; c++) r->cols[c].bits = 4;
  r->cap_indexes = 4;
  r->indexes = malloc((size_t)r->cap_indexes * sizeof *r->indexes);
  if (!r->cols || !r->indexes || !(r->indexes[0] = index_new(r, 0, 0))) {
    ix_relation_destroy(r);
    return NULL;
  }
  r->n_indexes = 1;
  return r;
}

void ix_relation_expect(ix_relation *r, const uint64_t *values)
{
  assert(r && values && r->size == 0 && r->keys.n == 0 && r->fresh.n == 0 && !r->indexes[0]->dense);
  uint8_t want[IX_MAX_ARITY];
  uint32_t total = 0;
  for (uint32_t c = 0; c < r->arity; c++) {
    want[c] = values[c] ? bits_for(values[c] < EXPECT_MAX ? values[c] : EXPECT_MAX) : 0;
    total += want[c] > r->cols[c].bits ? want[c] : r->cols[c].bits;
  }
  if (total > 64) return;
  for (uint32_t c = 0; c < r->arity; c++) {
    colmap *m = &r->cols[c];
    m->min_bits = want[c];
    if (m->bits < want[c]) m->bits = want[c];
  }
  for (int i = 0; i < r->n_indexes; i++) layout(r->indexes[i], r);
}

static uint32_t tuple_bits(const ix_relation *r);

/* Fills at[0..first_codes] from ix->flat: per code of the first column,
 * where its keys start (for the column's first_codes codes so far: flat
 * cannot hold a later one). */
static void fill_first_codes(const ix_index *ix, uint32_t *at, uint32_t first_codes)
{
  uint64_t n = 0;
  for (uint32_t code = 0; code <= first_codes; code++) {
    while (n < ix->n_flat && (ix->flat[n] >> ix->shift[0]) < code) n++;
    at[code] = (uint32_t)n;
  }
}

/* Sets ix->first_at from ix->flat (fill_first_codes); 0 when out of memory,
 * or when flat is too long for its 32-bit places (then it is not kept). */
static int index_first_codes(const ix_relation *r, ix_index *ix)
{
  uint32_t first_codes = r->cols[ix->order[0]].n_codes;
  uint32_t *at = ix->n_flat <= MAX_FLAT ? realloc(ix->first_at, ((size_t)first_codes + 1) * sizeof *at) : NULL;
  if (!at) return 0;
  ix->first_at = at;
  ix->n_first = first_codes;
  fill_first_codes(ix, at, first_codes);
  return 1;
}

/* Builds the mirror of a one-chunk index from its keys; 0 when out of memory. */
static int mirror_build(const ix_relation *r, ix_index *ix)
{
  if (!(ix->flat = malloc(r->size * sizeof *ix->flat))) return 0;
  Word_t k = 0;
  uint64_t n = 0;
  for (int found = ix_key_seek(ix, &k, 0); found && n < r->size; found = ix_key_seek(ix, &k, 1)) ix->flat[n++] = k;
  ix->n_flat = n;
  return index_first_codes(r, ix);
}

/* Inserts tuples all[0..n) (codes, arity per tuple) into index ix.  A
 * one-chunk Judy index takes their keys sorted, and when it was empty and
 * takes all of the relation's tuples, the sorted keys become its mirror: no
 * walk of Judy (mirror_build) makes it again.  Othello's G+ re-inserts
 * 115,000 tuples so when column widths grow.  A secondary index (`later`)
 * built so is mirror-only: Judy never gets its keys.  Lookups read the
 * mirror; new keys go to recent, which is never dropped, and an iteration
 * sorts it when no lookup request did (ix_index_sort_recent).  Primary
 * indexes test membership, in Judy: mirror-only only while nothing is
 * added to them (fill_empty).  0 when out of memory. */
static int index_insert_all(const ix_relation *r, ix_index *ix, const uint32_t *all, uint64_t n, int later)
{
  if (ix->dense || ix->n_chunks != 1 || n < SORTED_INSERT_MIN) {
    for (uint64_t t = 0; t < n; t++)
      if (index_insert(ix, all + t * r->arity) < 0) return 0;
    return 1;
  }
  int empty = !ix->root && !ix->flat;
  Word_t *keys = malloc(n * sizeof *keys);
  if (!keys) return 0;
  for (uint64_t t = 0; t < n; t++) keys[t] = chunk_key(ix, 0, all + t * r->arity);
  int ok = ix_radix_sort((uint64_t *)keys, n, tuple_bits(r));
  later = later && ok && empty && n == r->size;
  uint64_t m = 0;
  for (uint64_t i = 0; ok && i < n; i++) {
    if (i && keys[i] == keys[i - 1]) continue;
    if (!later) {
      int rc = Judy1Set(&ix->root, keys[i], PJE0);
      if (rc == JERR) ok = 0;
      else if (rc == 1) mirror_add(ix, keys[i]);
    }
    keys[m++] = keys[i];
  }
  if (ok && empty && m == r->size) {
    ix->flat = keys;
    ix->n_flat = m;
    ix->mirror_only = later;
    if (index_first_codes(r, ix)) return 1;
    if (later && !judy_now(ix)) return 0;  /* Judy needs the keys the mirror takes away */
    drop_mirror(ix);  /* a lookup builds it again */
    return 1;
  }
  assert(!ok || !later || m == r->size);  /* the keys of distinct tuples, every column in them */
  free(keys);
  return ok;
}

/* Merges the (sorted) recent keys of a mirror into flat; 0 when out of
 * memory, the mirror unchanged. */
static int mirror_fold(const ix_relation *r, ix_index *ix)
{
  uint64_t n = ix->n_flat + ix->n_recent, i = 0, j = 0, k = 0;
  uint32_t first_codes = r->cols[ix->order[0]].n_codes;
  Word_t *merged = n <= MAX_FLAT ? malloc(n * sizeof *merged) : NULL;
  uint32_t *at = malloc(((size_t)first_codes + 1) * sizeof *at);
  if (!merged || !at) {
    free(merged);
    free(at);
    return 0;
  }
  while (i < ix->n_flat && j < ix->n_recent) merged[k++] = ix->flat[i] < ix->recent[j] ? ix->flat[i++] : ix->recent[j++];
  while (i < ix->n_flat) merged[k++] = ix->flat[i++];
  while (j < ix->n_recent) merged[k++] = ix->recent[j++];
  free(ix->flat);
  free(ix->first_at);
  ix->flat = merged;
  ix->n_flat = n;
  ix->n_recent = ix->n_sorted = 0;
  ix->first_at = at;
  ix->n_first = first_codes;
  fill_first_codes(ix, at, first_codes);
  return 1;
}

/* Readies the mirror of a one-chunk index for lookups: builds it, or sorts
 * its recent keys and folds them in when they are many.  An index that
 * cannot have one (out of memory) is walked in Judy; a bitmap needs none.
 * A mirror-only index keeps its mirror, folded or not. */
static void mirror(const ix_relation *r, ix_index *ix)
{
  if (ix->n_chunks != 1 || ix->dense || r->size == 0) return;
  int ok = 1;
  if (!ix->flat) ok = mirror_build(r, ix);
  else if (ix->n_sorted < ix->n_recent && ix_radix_sort(ix->recent, ix->n_recent, tuple_bits(r)))
    ix->n_sorted = ix->n_recent;
  if (ok && ix->n_recent && ix->n_sorted == ix->n_recent && ix->n_recent * 8 > ix->n_flat) ok = mirror_fold(r, ix);
  if (!ok && !ix->mirror_only) drop_mirror(ix);
}

void ix_relation_destroy(ix_relation *r)
{
  if (!r) return;
  for (int i = 0; i < r->n_indexes; i++) {
    index_clear(r->indexes[i], r->arity);
    free(r->indexes[i]);
  }
  free(r->indexes);
  for (uint32_t c = 0; r->cols && c < r->arity; c++) colmap_free(&r->cols[c]);
  free(r->cols);
  free(r->staged);
  free(r->keys.at);
  free(r->fresh.at);
  free(r);
}

uint32_t ix_relation_arity(const ix_relation *r) { return r->arity; }
uint64_t ix_relation_size(const ix_relation *r) { return r->size; }
uint32_t ix_relation_column_values(const ix_relation *r, uint32_t col)
{
  assert(col < r->arity);
  return r->cols[col].n_codes;
}

ix_val ix_relation_column_value(const ix_relation *r, uint32_t col, uint32_t code)
{
  assert(col < r->arity && code < r->cols[col].n_codes);
  return r->cols[col].id_of[code];
}

int ix_relation_column_has(const ix_relation *r, uint32_t col, ix_val id)
{
  assert(col < r->arity);
  return code_get(&r->cols[col], id) != NO_CODE;
}

uint32_t ix_relation_column_code(const ix_relation *r, uint32_t col, ix_val id)
{
  assert(col < r->arity);
  return code_get(&r->cols[col], id);
}

/* Does r hold at least `size` tuples of the product of its dictionaries? */
static int fills_product(const ix_relation *r, uint64_t size)
{
  if (r->arity == 0) return size != 0;
  uint64_t product = 1;
  for (uint32_t c = 0; c < r->arity; c++) {
    product *= r->cols[c].n_codes;
    if (product > size) return 0;
  }
  return size != 0;
}

int ix_relation_saturated(const ix_relation *r) { return fills_product(r, r->size); }

int ix_relation_may_saturate(const ix_relation *r) { return fills_product(r, r->size + ix_relation_staged(r)); }

/* The codes of every tuple, arity per tuple, walking the primary index; 0 when out of memory. */
static int collect_codes(const ix_relation *r, uint32_t **out)
{
  uint32_t *all = malloc((r->size ? r->size : 1) * r->arity * sizeof *all);
  if (!all) return 0;
  ix_iter it;
  ix_iter_begin(&it, r, 0, 0, NULL);
  for (uint64_t i = 0; i < r->size && ix_iter_next_codes(&it, all + i * r->arity); i++) {}
  *out = all;
  return 1;
}

/* The width of a tuple's key: the sum of the column widths. */
static uint32_t tuple_bits(const ix_relation *r)
{
  uint32_t bits = 0;
  for (uint32_t c = 0; c < r->arity; c++) bits += r->cols[c].bits;
  return bits;
}

/* Should a primary index with keys of `bits` bits, holding n tuples, be a bitmap? */
static int wants_dense(uint32_t bits, uint64_t n)
{
  return bits <= DENSE_MAX_BITS && n >= DENSE_MIN_TUPLES && ((uint64_t)1 << bits) <= (uint64_t)DENSE_SPARSITY * n;
}

/* Gives the empty primary index a bitmap for the current key width; 0 when out of memory. */
static int make_dense(ix_relation *r)
{
  ix_index *ix = r->indexes[0];
  uint32_t bits = tuple_bits(r);
  if (!(ix->dense = calloc(ix_dense_words(bits), sizeof *ix->dense))) return 0;
  ix->dense_bits = (uint8_t)bits;
  return 1;
}

/* Lays out every index for the current column widths and inserts the
 * tuples all[0..size) (codes, arity per tuple) again; the primary index
 * becomes a bitmap when it is dense enough for `expect` tuples.  0 when out
 * of memory. */
static int reindex(ix_relation *r, const uint32_t *all, uint64_t expect)
{
  int ok = 1;
  for (int i = 0; ok && i < r->n_indexes; i++) {
    ix_index *ix = r->indexes[i];
    index_clear(ix, r->arity);
    layout(ix, r);
    if (i == 0 && wants_dense(tuple_bits(r), expect)) ok = make_dense(r);
    ok = ok && index_insert_all(r, ix, all, r->size, i > 0);
  }
  return ok;
}

/* Inserts every tuple of the primary index into the other indexes, after
 * their layout changed; 0 when out of memory. */
static int reindex_others(ix_relation *r)
{
  for (int i = 1; i < r->n_indexes; i++) {
    index_clear(r->indexes[i], r->arity);
    layout(r->indexes[i], r);
  }
  if (r->n_indexes == 1) return 1;
  uint32_t *all = NULL;
  int ok = collect_codes(r, &all);
  for (int i = 1; ok && i < r->n_indexes; i++) ok = index_insert_all(r, r->indexes[i], all, r->size, 1);
  free(all);
  return ok;
}

/* Gives column c the width bits[c] and rebuilds every index for the new
 * widths, the primary one as a bitmap when it is dense enough for `expect`
 * tuples; staged and fresh keys follow (they stay one chunk: encode
 * unkeys staged keys when the widths would not fit one).  A
 * bitmap that stays one moves its bits, without a copy of the tuples.
 * 0 when out of memory. */
static int relayout(ix_relation *r, const uint8_t *bits, uint64_t expect)
{
  ix_index *ix = r->indexes[0];
  uint32_t total = 0;
  for (uint32_t c = 0; c < r->arity; c++) total += bits[c];
  int move = ix->dense && wants_dense(total, expect);
  uint32_t *all = NULL;
  if (!move && !collect_codes(r, &all)) return 0;
  ix_key_layout old;
  ix_save_layout(r, &old);
  for (int i = 0; i < r->n_indexes; i++) drop_mirror(r->indexes[i]);  /* its keys change */
  for (uint32_t c = 0; c < r->arity; c++) r->cols[c].bits = bits[c];
  int ok;
  if (move) {
    uint64_t *bitmap = ix->dense;
    uint32_t bitmap_bits = ix->dense_bits;
    ix->dense = NULL;
    layout(ix, r);
    ok = make_dense(r);
    if (ok) ix_move_bits(r, bitmap, bitmap_bits, &old);
    free(bitmap);
    ok = ok && reindex_others(r);
  } else {
    ok = reindex(r, all, expect);
    free(all);
  }
  ix_rekey(r, &old, r->keys.at, r->keys.n);
  ix_rekey(r, &old, r->fresh.at, r->fresh.n);
  return ok;
}

/* The widths rebuild gives the columns into bits[]; their sum.  A bitmap
 * doubles per bit: its columns grow by one bit, Judy keys' by two. */
static uint32_t grown_widths(const ix_relation *r, uint8_t *bits)
{
  uint8_t grow = r->indexes[0]->dense ? 1 : 2;
  uint32_t total = 0;
  for (uint32_t c = 0; c < r->arity; c++) {
    const colmap *m = &r->cols[c];
    for (bits[c] = m->bits; bits[c] < 32 && ((uint64_t)1 << bits[c]) < (uint64_t)m->n_codes;) bits[c] += grow;
    total += bits[c];
  }
  return total;
}

/* Widens the columns whose codes outgrew their bits and rebuilds every
 * index. */
static int rebuild(ix_relation *r)
{
  uint8_t bits[IX_MAX_ARITY];
  grown_widths(r, bits);
  return relayout(r, bits, r->size);
}

/* The fewest bits that hold the codes of column m, and those expected. */
static uint8_t narrowest(const colmap *m)
{
  uint8_t b = bits_for(m->n_codes);
  return b > m->min_bits ? b : m->min_bits;
}

/* Turns the primary index into a bitmap when it would be dense enough with
 * n tuples and its columns as narrow as their codes allow: the columns are
 * narrowed and every index rebuilt.  Stays with Judy when the bitmap cannot
 * be allocated.  0 when out of memory. */
static int densify(ix_relation *r, uint64_t n)
{
  if (r->indexes[0]->dense) return 1;
  uint8_t bits[IX_MAX_ARITY];
  uint32_t total = 0;
  for (uint32_t c = 0; c < r->arity; c++) total += bits[c] = narrowest(&r->cols[c]);
  return !wants_dense(total, n) || relayout(r, bits, n);
}

static int unkey_staged(ix_relation *r);

/* The codes of tuple, added to the column dictionaries; the indexes are
 * rebuilt when a column outgrows its width.  0 when out of memory. */
static int encode(ix_relation *r, const ix_val *tuple, uint32_t *codes)
{
  int widen = 0;
  for (uint32_t c = 0; c < r->arity; c++) {
    colmap *m = &r->cols[c];
    codes[c] = code_get(m, tuple[c]);
    if (codes[c] != NO_CODE) continue;
    codes[c] = code_add(m, tuple[c]);
    if (codes[c] == NO_CODE) return 0;
    if (m->bits < 32 && (codes[c] >> m->bits) != 0) widen = 1;
  }
  if (!widen) return 1;
  /* staged keys follow a layout of one chunk (relayout), else become codes */
  uint8_t bits[IX_MAX_ARITY];
  return (grown_widths(r, bits) <= 64 || unkey_staged(r)) && rebuild(r);
}

/* Adds a tuple given as codes: 1 new, 0 present, -1 out of memory. */
static int insert_codes(ix_relation *r, const uint32_t *codes)
{
  int rc = index_insert(r->indexes[0], codes);
  if (rc != 1) return rc;
  for (int i = 1; i < r->n_indexes; i++)
    if (index_insert(r->indexes[i], codes) < 0) return -1;
  r->size++;
  return 1;
}

int ix_relation_insert(ix_relation *r, const ix_val *tuple, int *is_new)
{
  assert(r && (tuple || r->arity == 0));
  int rc;
  if (!primary_in_judy(r)) return 0;
  if (r->arity == 0) {
    rc = r->size == 0;
    r->size = 1;
  } else {
    uint32_t codes[IX_MAX_ARITY];
    if (!encode(r, tuple, codes)) return 0;
    if ((r->size & (DENSE_MIN_TUPLES - 1)) == 0 && !densify(r, r->size + 1)) return 0;
    rc = insert_codes(r, codes);
    if (rc < 0) return 0;
  }
  if (is_new) *is_new = rc;
  return 1;
}

/* Appends the codes of a tuple to the staged ones; 0 when out of memory. */
static int push_codes(ix_relation *r, const uint32_t *codes)
{
  if (r->n_staged == r->cap_staged) {
    uint64_t cap = r->cap_staged ? r->cap_staged * 2 : 1024;
    uint32_t *q = realloc(r->staged, cap * r->arity * sizeof *q);
    if (!q) return 0;
    r->staged = q;
    r->cap_staged = cap;
  }
  memcpy(r->staged + r->n_staged++ * r->arity, codes, r->arity * sizeof *codes);
  return 1;
}

/* Room for n keys in b; 0 when out of memory. */
static int keybuf_reserve(keybuf *b, uint64_t n)
{
  if (n <= b->cap) return 1;
  uint64_t cap = b->cap ? b->cap : 1024;
  while (cap < n) cap *= 2;
  uint64_t *q = realloc(b->at, cap * sizeof *q);
  if (!q) return 0;
  b->at = q;
  b->cap = cap;
  return 1;
}

static int keybuf_push(keybuf *b, uint64_t key)
{
  if (!keybuf_reserve(b, b->n + 1)) return 0;
  b->at[b->n++] = key;
  return 1;
}

/* Turns the staged keys back into staged codes, before the key layout
 * changes; 0 when out of memory. */
static int unkey_staged(ix_relation *r)
{
  uint32_t codes[IX_MAX_ARITY];
  for (uint64_t i = 0; i < r->keys.n; i++) {
    key_codes(r, r->indexes[0], r->keys.at[i], codes);
    if (!push_codes(r, codes)) return 0;
  }
  r->keys.n = 0;
  return 1;
}

/* Puts the tuple of primary key `key` (its codes: codes) into a dense
 * relation's bitmap and its other indexes: 1 when new, 0 when there
 * already, -1 when out of memory. */
static int dense_add(ix_relation *r, Word_t key, const uint32_t *codes)
{
  if (!dense_set(r->indexes[0]->dense, key)) return 0;
  mirror_add(r->indexes[0], key);
  r->size++;
  for (int i = 1; i < r->n_indexes; i++)
    if (index_insert(r->indexes[i], codes) < 0) return -1;
  return 1;
}

/* See relation_impl.h.  The flush counts the tuple; it was reported now. */
int ix_insert_dense(ix_relation *r, Word_t key, const uint32_t *codes, const ix_val *tuple, ix_tupleset *added)
{
  int rc = dense_add(r, key, codes);
  if (rc <= 0) return rc == 0;
  r->n_taken++;
  return !added || ix_tupleset_push(added, tuple);
}

/* Once the staged tuples would make the relation dense, turns it into a
 * bitmap and takes them in, their keys kept for the next flush to report
 * (they were staged for it); 0 when out of memory. */
static int absorb_staged(ix_relation *r)
{
  if (!densify(r, r->size + r->keys.n + r->n_staged)) return 0;
  if (!r->indexes[0]->dense) return 1;
  uint32_t codes[IX_MAX_ARITY];
  for (uint64_t i = 0; i < r->keys.n + r->n_staged; i++) {
    const uint32_t *c = codes;
    if (i < r->keys.n) key_codes(r, r->indexes[0], r->keys.at[i], codes);
    else c = r->staged + (i - r->keys.n) * r->arity;
    Word_t key = chunk_key(r->indexes[0], 0, c);
    int rc = dense_add(r, key, c);
    if (rc < 0 || (rc > 0 && !keybuf_push(&r->fresh, key))) return 0;
  }
  r->keys.n = 0;
  r->n_staged = 0;
  return 1;
}

int ix_relation_stage(ix_relation *r, const ix_val *tuple, ix_tupleset *added)
{
  assert(r && (tuple || r->arity == 0) && (!added || added->arity == r->arity));
  if (r->arity == 0) return ix_relation_insert(r, tuple, NULL);
  uint32_t codes[IX_MAX_ARITY];
  if (!encode(r, tuple, codes)) return 0;
  if (r->indexes[0]->dense) return ix_insert_dense(r, chunk_key(r->indexes[0], 0, codes), codes, tuple, added);
  int ok = r->indexes[0]->n_chunks != 1 ? push_codes(r, codes) : keybuf_push(&r->keys, chunk_key(r->indexes[0], 0, codes));
  uint64_t n = r->n_staged + r->keys.n;
  return ok && (n < DENSE_MIN_TUPLES || (n & (n - 1)) || absorb_staged(r));
}

/* Turns the codes of n tuples, codes[0..n * arity) (malloc'd), into their
 * keys of the one-chunk primary index in place, 8 bytes a key: the buffer
 * grows for one column, and shrinks to them for more.  The keys, or NULL
 * when out of memory (codes is then freed).  Bytes are moved by memcpy:
 * a key overwrites codes that were read before it. */
static uint64_t *keys_in_place(const ix_relation *r, uint32_t *codes, uint64_t n)
{
  const ix_index *ix = r->indexes[0];
  size_t width = (size_t)r->arity * sizeof *codes;
  unsigned char *at = r->arity == 1 ? realloc(codes, (n ? n : 1) * sizeof(uint64_t)) : (unsigned char *)codes;
  if (!at) {
    free(codes);
    return NULL;
  }
  uint32_t tuple[IX_MAX_ARITY];
  for (uint64_t j = 0, k; j < n; j++) {
    /* one column: backwards, as key i covers codes 2i and 2i + 1, read before;
     * more: forwards, as key i ends where tuple i + 1 starts, or before */
    uint64_t i = r->arity == 1 ? n - 1 - j : j;
    memcpy(tuple, at + i * width, width);
    k = chunk_key(ix, 0, tuple);
    memcpy(at + i * sizeof k, &k, sizeof k);
  }
  unsigned char *fit = r->arity > 2 && n ? realloc(at, n * sizeof(uint64_t)) : NULL;
  return (uint64_t *)(fit ? fit : at);
}

/* Stages tuples already encoded, one by one. */
static int stage_codes(ix_relation *r, const uint32_t *codes, uint64_t n)
{
  int ok = 1;
  for (uint64_t i = 0; ok && i < n; i++) {
    const uint32_t *c = codes + i * r->arity;
    ok = r->indexes[0]->dense ? ix_insert_dense(r, chunk_key(r->indexes[0], 0, c), c, NULL, NULL) : push_codes(r, c);
  }
  return ok;
}

/* Fetches into the cache the codes' entries of a tuple that encode reads
 * soon: over many tuples, those reads are cache misses, which then overlap. */
static void prefetch_codes(const ix_relation *r, const ix_val *tuple)
{
  for (uint32_t c = 0; c < r->arity; c++) {
    const colmap *m = &r->cols[c];
    uint32_t p = tuple[c] >> PAGE_BITS;
    if (p < m->n_pages && m->pages[p]) __builtin_prefetch(&m->pages[p][tuple[c] & (PAGE - 1)]);
  }
}

enum { PREFETCH_AHEAD = 16 };  /* tuples: a few cache misses' time of work */

int ix_relation_stage_all(ix_relation *r, ix_val *tuples, uint64_t n)
{
  assert(r && (tuples || n == 0) && r->arity > 0);
  int ok = 1;
  if (n == 0 || r->keys.n || r->n_staged || r->indexes[0]->dense) {
    for (uint64_t i = 0; ok && i < n; i++) ok = ix_relation_stage(r, tuples + i * r->arity, NULL);
    free(tuples);
    return ok;
  }
  ix_val tuple[IX_MAX_ARITY];
  for (uint64_t i = 0; ok && i < n; i++) {  /* each tuple's codes in its place */
    if (i + PREFETCH_AHEAD < n) prefetch_codes(r, tuples + (i + PREFETCH_AHEAD) * r->arity);
    memcpy(tuple, tuples + i * r->arity, r->arity * sizeof *tuple);
    ok = encode(r, tuple, tuples + i * r->arity);
  }
  ok = ok && densify(r, r->size + n);
  if (!ok || r->indexes[0]->dense || r->indexes[0]->n_chunks != 1) {
    ok = ok && stage_codes(r, tuples, n);
    free(tuples);
    return ok;
  }
  uint64_t *keys = keys_in_place(r, tuples, n);
  if (!keys) return 0;
  free(r->keys.at);
  r->keys = (keybuf){ keys, n, n };
  return 1;
}

/* See relation_impl.h. */
int ix_stage_key(ix_relation *r, Word_t key, int *relaid)
{
  if (!keybuf_push(&r->keys, key)) return 0;
  uint64_t n = r->n_staged + r->keys.n;
  if (n < DENSE_MIN_TUPLES || (n & (n - 1))) return 1;
  *relaid = 1;
  return absorb_staged(r);
}

uint64_t ix_relation_staged(const ix_relation *r) { return r->n_staged + r->keys.n + r->fresh.n + r->n_taken; }

/* Appends the tuple of the given codes, as term ids, to `added` (may be
 * NULL); 0 when out of memory. */
static int report_new(const ix_relation *r, const uint32_t *codes, ix_tupleset *added)
{
  if (!added) return 1;
  ix_val tuple[IX_MAX_ARITY];
  for (uint32_t c = 0; c < r->arity; c++) tuple[c] = r->cols[c].id_of[codes[c]];
  return ix_tupleset_push(added, tuple);
}

/* Reports the tuples a dense relation took in when it turned dense (see absorb_staged). */
static int report_fresh(const ix_relation *r, ix_tupleset *added)
{
  uint32_t codes[IX_MAX_ARITY];
  for (uint64_t i = 0; added && i < r->fresh.n; i++) {
    key_codes(r, r->indexes[0], r->fresh.at[i], codes);
    if (!report_new(r, codes, added)) return 0;
  }
  return 1;
}

void ix_relation_bulk(ix_relation *r)
{
  assert(r);
  r->bulk = 1;
}

/* A key new to the primary index (one chunk): its tuple goes into the other
 * indexes and to `added` (may be NULL); 0 when out of memory. */
static int follow_new_key(ix_relation *r, Word_t key, ix_tupleset *added)
{
  if (r->n_indexes == 1 && !added) return 1;
  uint32_t codes[IX_MAX_ARITY];
  key_codes(r, r->indexes[0], key, codes);
  for (int k = 1; k < r->n_indexes; k++)
    if (index_insert(r->indexes[k], codes) < 0) return 0;
  return report_new(r, codes, added);
}

/* Fills the empty primary index from the sorted keys r->keys.at[0..n) at
 * once: the keys, duplicates removed, become its mirror (as in
 * index_insert_all), which lookups read, and its only copy of them while
 * nothing is added: membership is a binary search there, and Judy (3 to 4
 * bytes a key beside the mirror's 8) gets the keys from the mirror at the
 * first insert (primary_in_judy), if one comes.  Adds the number of tuples
 * to *n_new; 0 when out of memory. */
static int fill_empty(ix_relation *r, uint64_t n, ix_tupleset *added, uint64_t *n_new)
{
  ix_index *ix = r->indexes[0];
  uint64_t *keys = r->keys.at, m = 0;
  for (uint64_t i = 0; i < n; i++)
    if (m == 0 || keys[i] != keys[m - 1]) keys[m++] = keys[i];
  for (uint64_t i = 0; i < m; i++)
    if (!follow_new_key(r, keys[i], added)) return 0;
  r->size += m;
  *n_new += m;
  uint64_t *fit = realloc(keys, (m ? m : 1) * sizeof *keys);
  ix->flat = fit ? fit : keys;
  ix->n_flat = m;
  memset(&r->keys, 0, sizeof r->keys);
  ix->mirror_only = 1;
  if (index_first_codes(r, ix)) return 1;
  if (!judy_now(ix)) return 0;
  drop_mirror(ix);  /* a lookup builds it again */
  return 1;
}

/* Inserts the staged tuples when the primary key is one chunk: sorted, so
 * that consecutive inserts walk the same paths of the Judy tree, or all at
 * once into an empty Judy array when the relation was told a bulk input
 * (ix_relation_bulk).  Adds the number of new tuples to *n_new; 0 when out
 * of memory. */
static int flush_sorted(ix_relation *r, ix_tupleset *added, uint64_t *n_new, int bulk)
{
  ix_index *ix = r->indexes[0];
  if (!keybuf_reserve(&r->keys, r->keys.n + r->n_staged)) return 0;
  uint64_t *keys = r->keys.at, n = r->keys.n;
  for (uint64_t i = 0; i < r->n_staged; i++) keys[n++] = chunk_key(ix, 0, r->staged + i * r->arity);
  if (bulk && !ix->dense && !ix->root && !ix->flat && n >= SORTED_INSERT_MIN) {
    ix_radix_sort_in_place(keys, n, tuple_bits(r));  /* a large input: no scratch copy of its keys */
    return fill_empty(r, n, added, n_new);
  }
  if (!ix_radix_sort(keys, n, tuple_bits(r))) return 0;
  for (uint64_t i = 0; i < n; i++) {
    if (i && keys[i] == keys[i - 1]) continue;
    int rc = ix->dense ? dense_set(ix->dense, keys[i]) : Judy1Set(&ix->root, keys[i], PJE0);
    if (rc == JERR) return 0;
    if (rc == 0) continue;
    mirror_add(ix, keys[i]);
    r->size++;
    ++*n_new;
    if (!follow_new_key(r, keys[i], added)) return 0;
  }
  return 1;
}

/* Inserts the staged codes one by one (keys of several chunks); adds the
 * number of new tuples to *n_new; 0 when out of memory. */
static int flush_codes(ix_relation *r, ix_tupleset *added, uint64_t *n_new)
{
  for (uint64_t i = 0; i < r->n_staged; i++) {
    const uint32_t *codes = r->staged + i * r->arity;
    int rc = insert_codes(r, codes);
    if (rc < 0 || (rc == 1 && !report_new(r, codes, added))) return 0;
    *n_new += (uint64_t)rc;
  }
  return 1;
}

int ix_relation_flush_to(ix_relation *r, ix_tupleset *added, uint64_t *n_new)
{
  assert(r && (!added || added->arity == r->arity));
  uint64_t n = 0;
  if (n_new) *n_new = 0;
  if (r->keys.n + r->n_staged > 0 && !primary_in_judy(r)) return 0;
  if (!densify(r, r->size + r->keys.n + r->n_staged) || !report_fresh(r, added)) return 0;
  n = r->fresh.n + r->n_taken;
  r->fresh.n = 0;
  r->n_taken = 0;
  int bulk = r->bulk;
  r->bulk = 0;
  int ok = r->indexes[0]->n_chunks == 1 && r->keys.n + r->n_staged > 0 ? flush_sorted(r, added, &n, bulk)
                                                                       : flush_codes(r, added, &n);
  r->n_staged = 0;
  r->keys.n = 0;
  if (ok && n_new) *n_new = n;
  return ok;
}

int ix_relation_flush(ix_relation *r, uint64_t *n_new) { return ix_relation_flush_to(r, NULL, n_new); }

int ix_relation_contains(const ix_relation *r, const ix_val *tuple)
{
  assert(tuple || r->arity == 0);
  if (r->arity == 0) return r->size != 0;
  uint32_t codes[IX_MAX_ARITY];
  for (uint32_t c = 0; c < r->arity; c++) {
    codes[c] = code_get(&r->cols[c], tuple[c]);
    if (codes[c] == NO_CODE) return 0;
  }
  return index_contains(r->indexes[0], codes);
}

/* Does the order of ix start with the columns of mask, then those of distinct? */
static int serves(const ix_index *ix, uint64_t mask, uint64_t distinct, uint32_t arity)
{
  uint32_t k = (uint32_t)__builtin_popcountll(mask), d = (uint32_t)__builtin_popcountll(distinct);
  for (uint32_t p = 0; p < k + d && p < arity; p++)
    if (!((p < k ? mask : distinct) >> ix->order[p] & 1)) return 0;
  return 1;
}

int ix_relation_index(ix_relation *r, uint64_t mask, int *index) { return ix_relation_index_ordered(r, mask, 0, index); }

void ix_relation_index_ready(ix_relation *r, int index)
{
  assert(index >= 0 && index < r->n_indexes);
  mirror(r, r->indexes[index]);
}

int ix_relation_index_find(const ix_relation *r, uint64_t mask, int *index)
{
  assert(r && index);
  for (int i = 0; i < r->n_indexes; i++)
    if (serves(r->indexes[i], mask, 0, r->arity)) {
      *index = i;
      return 1;
    }
  return 0;
}

int ix_relation_index_ordered(ix_relation *r, uint64_t mask, uint64_t distinct, int *index)
{
  assert(r && index && (mask & distinct) == 0);
  assert(r->arity >= 64 || ((mask | distinct) >> r->arity) == 0);
  for (int i = 0; i < r->n_indexes; i++)
    if (serves(r->indexes[i], mask, distinct, r->arity)) {
      mirror(r, r->indexes[i]);
      *index = i;
      return 1;
    }
  if (r->n_indexes == MAX_INDEXES) return 0;
  if (r->n_indexes == r->cap_indexes) {
    ix_index **q = realloc(r->indexes, 2 * (size_t)r->cap_indexes * sizeof *q);
    if (!q) return 0;
    r->indexes = q;
    r->cap_indexes *= 2;
  }
  ix_index *ix = index_new(r, mask, distinct);
  uint32_t *all = NULL;
  if (!ix || !collect_codes(r, &all)) {
    free(ix);
    return 0;
  }
  int ok = index_insert_all(r, ix, all, r->size, 1);
  free(all);
  r->indexes[r->n_indexes] = ix;  /* kept even when incomplete: destroy frees it */
  if (ok) mirror(r, ix);
  *index = r->n_indexes++;
  return ok;
}

size_t ix_relation_bytes(const ix_relation *r)
{
  size_t n = sizeof *r + (size_t)r->cap_indexes * sizeof *r->indexes + (size_t)r->n_indexes * sizeof(ix_index);
  for (int i = 0; i < r->n_indexes; i++) {
    const ix_index *ix = r->indexes[i];
    if (r->arity) n += trie_bytes(ix->root, ix->n_chunks);
    if (ix->flat) n += (ix->n_flat + ix->cap_recent + ix->n_first + 1) * sizeof(uint64_t);
  }
  if (r->indexes[0]->dense) n += ix_dense_words(r->indexes[0]->dense_bits) * sizeof(uint64_t);
  for (uint32_t c = 0; c < r->arity; c++) {
    const colmap *m = &r->cols[c];
    n += (size_t)m->cap * sizeof(ix_val) + (size_t)m->n_pages * sizeof(uint32_t *);
    for (uint32_t p = 0; p < m->n_pages; p++)
      if (m->pages[p]) n += PAGE * sizeof(uint32_t);
  }
  return n;
}
