/* output.c: terms, models and programs as text (see output.h). */
#include "datalog/write/output.h"

#include "datalog/base/sort.h"
#include "datalog/base/text_impl.h"
#include "index/sort.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- model -------------------------------------------------------------------- */

enum { COPY_SLACK = 16 };  /* bytes copy_short may read and write past its end */
enum { FLUSH_AT = 1 << 16 };  /* a model's atoms are written in pieces this size, which stay in cache */
enum { GROUPS_FROM = 1 << 16 };  /* tuples from which a relation may be written group by group */

/* Copies n bytes in 16-byte pieces: src and dst must have COPY_SLACK bytes
 * of room past n.  Faster than memcpy for the short texts of atoms. */
static inline void copy_short(char *dst, const char *src, size_t n)
{
  for (size_t i = 0; i < n; i += COPY_SLACK) memcpy(dst + i, src + i, COPY_SLACK);
}

/* Printed forms of all terms (all made, so that they stay where they are),
 * and each term's rank in their byte order. */
typedef struct term_texts {
  dl_term_texts *made;
  uint32_t *rank;    /* per term */
} term_texts;

/* Term t's text; its length in *len. */
static const char *text_of(const term_texts *tt, dl_tid t, size_t *len)
{
  *len = tt->made->len[t];
  return tt->made->text.data + tt->made->off[t];
}

/* Compares two term ids by their printed texts, bytes as unsigned (as
 * strcmp does); ctx is the term_texts. */
static int by_text(const void *a, const void *b, void *ctx)
{
  size_t na, nb;
  const char *x = text_of(ctx, *(const uint32_t *)a, &na), *y = text_of(ctx, *(const uint32_t *)b, &nb);
  int c = memcmp(x, y, na < nb ? na : nb);
  return c ? c : (na > nb) - (na < nb);
}


/* Tuples of one relation and the ranks of terms, for by_ranks. */
typedef struct rank_order {
  const uint32_t *rank;
  uint32_t arity;
} rank_order;

/* Compares two tuples (pointed to by row pointers) by the ranks of their
 * terms; ctx is a rank_order. */
static int by_ranks(const void *a, const void *b, void *ctx)
{
  const rank_order *ro = ctx;
  const dl_tid *x = *(const dl_tid *const *)a, *y = *(const dl_tid *const *)b;
  for (uint32_t c = 0; c < ro->arity; c++)
    if (ro->rank[x[c]] != ro->rank[y[c]]) return ro->rank[x[c]] < ro->rank[y[c]] ? -1 : 1;
  return 0;
}

/* The first 8 bytes of term t's text, big-endian (zeros past its end),
 * which order most texts without a look at the rest. */
static uint64_t prefix_of(const term_texts *tt, dl_tid t)
{
  size_t len;
  const unsigned char *z = (const unsigned char *)text_of(tt, t, &len);
  uint64_t k = 0;
  for (size_t i = 0; i < 8; i++) k = k << 8 | (i < len ? z[i] : 0);
  return k;
}

/* The terms' texts, and the bits of a key of rank_by_text that hold its term. */
typedef struct key_texts {
  const term_texts *tt;
  uint64_t id_mask;
} key_texts;

/* Compares two keys of rank_by_text by the texts of their terms; ctx is a key_texts. */
static int by_key_text(const void *a, const void *b, void *ctx)
{
  const key_texts *kt = ctx;
  uint32_t x = (uint32_t)(*(const uint64_t *)a & kt->id_mask), y = (uint32_t)(*(const uint64_t *)b & kt->id_mask);
  return by_text(&x, &y, (void *)kt->tt);
}

/* Sets tt->rank of the n_used terms marked in used (a bitmap over the n
 * term ids) to their places in the byte order of their texts.  Each term
 * is keyed by its id in the low bits and as much of its text's start as
 * fits above, so that the keys sort in place with no other memory; then
 * each run of keys with equal text starts is sorted by the whole texts.
 * 0 when out of memory. */
static int rank_by_text(term_texts *tt, const uint64_t *used, uint32_t n, uint32_t n_used)
{
  uint32_t id_bits = 1;
  while (id_bits < 32 && ((uint64_t)1 << id_bits) < n) id_bits++;
  uint64_t *keys = malloc(((size_t)n_used + 1) * sizeof *keys);
  tt->rank = malloc(((size_t)n + 1) * sizeof *tt->rank);
  if (!keys || !tt->rank) {
    free(keys);
    return 0;
  }
  for (uint32_t t = 0, i = 0; t < n; t++)
    if (used[t >> 6] >> (t & 63) & 1) keys[i++] = prefix_of(tt, t) >> id_bits << id_bits | t;
  ix_radix_sort_in_place(keys, n_used, 64);
  key_texts kt = { tt, ((uint64_t)1 << id_bits) - 1 };
  for (uint32_t i = 0, j; i < n_used; i = j) {
    for (j = i + 1; j < n_used && keys[j] >> id_bits == keys[i] >> id_bits; j++) {}
    if (j - i > 1) dl_sort(keys + i, j - i, sizeof *keys, by_key_text, &kt);
  }
  for (uint32_t i = 0; i < n_used; i++) tt->rank[keys[i] & kt.id_mask] = i;
  free(keys);
  return 1;
}

/* Marks in used (a bitmap over term ids) the terms that the relations to
 * be written (not skipped) hold. */
static void mark_used(const dl_program *p, const dl_eval *e, const uint8_t *skip, uint64_t *used)
{
  for (uint32_t pr = 0; pr < p->n_preds; pr++) {
    if (skip && skip[pr]) continue;
    const ix_relation *r = dl_eval_relation(e, pr);
    for (uint32_t c = 0; ix_relation_size(r) && c < ix_relation_arity(r); c++)
      for (uint32_t k = 0, n = ix_relation_column_values(r, c); k < n; k++) {
        ix_val t = ix_relation_column_value(r, c, k);
        used[t >> 6] |= (uint64_t)1 << (t & 63);
      }
  }
}

/* Makes the texts of the terms the written relations hold (and of their
 * arguments), and ranks those terms by text. */
static int texts_build(term_texts *tt, const dl_program *p, const dl_eval *e, const uint8_t *skip, dl_format fmt)
{
  uint32_t n = dl_terms_count(p->terms), n_used = 0;
  uint64_t *used = calloc((size_t)n / 64 + 1, sizeof *used);
  tt->made = dl_term_texts_create(p->terms, fmt);
  int ok = used && tt->made;
  if (ok) mark_used(p, e, skip, used);
  for (uint32_t t = 0; ok && t < n; t++)
    if (used[t >> 6] >> (t & 63) & 1) {
      ok = dl_term_texts_make(tt->made, t);
      n_used++;
    }
  static const char pad[COPY_SLACK];
  if (ok) dl_buf_add(&tt->made->text, pad, sizeof pad);  /* room for copy_short's overreads */
  ok = ok && !tt->made->text.failed && rank_by_text(tt, used, n, n_used);
  free(used);
  return ok;
}

static void texts_free(term_texts *tt)
{
  dl_term_texts_destroy(tt->made);
  free(tt->rank);
}

/* Appends `name(args)` (or `(name args)`) and a newline for one tuple. */
static void add_atom(dl_buf *b, const char *name, size_t n, const dl_tid *tuple, uint32_t arity,
                     const term_texts *tt, dl_format fmt)
{
  size_t need = n + 3 + arity;
  for (uint32_t c = 0; c < arity; c++) need += tt->made->len[tuple[c]];
  if (!dl_buf_reserve(b, need)) return;
  char *w = b->data + b->len;
  int kif = fmt == DL_FMT_KIF;
  if (arity && kif) *w++ = '(';
  memcpy(w, name, n);
  w += n;
  for (uint32_t c = 0; c < arity; c++) {
    *w++ = kif ? ' ' : c == 0 ? '(' : ',';
    size_t len;
    const char *z = text_of(tt, tuple[c], &len);
    memcpy(w, z, len);
    w += len;
  }
  if (arity) *w++ = ')';
  *w++ = '\n';
  b->len = (size_t)(w - b->data);
}

static int flush(const dl_sink *out, dl_buf *b)
{
  if (b->failed) return 0;
  int ok = b->len == 0 || out->write(out->ctx, b->data, b->len);
  b->len = 0;
  return ok;
}

/* The values of one column in output order: a code's place among the
 * column's values, and the text of the term at each place. */
typedef struct column_order {
  uint64_t *key_of_code;  /* per code: its place, shifted to its bits in a packed key */
  const char **text_at;   /* per place: the term's text */
  uint32_t *len_at;       /* per place: its length */
  uint32_t bits;          /* bits for a place */
  uint32_t shift;         /* where the place sits in a packed key (0 when bits is 0) */
  uint64_t mask;          /* (1 << bits) - 1 */
  uint32_t max_len;       /* longest text among the column's values */
} column_order;

static int order_column(const ix_relation *r, uint32_t c, const term_texts *tt, column_order *co)
{
  uint32_t n = ix_relation_column_values(r, c);
  uint64_t *pairs = malloc(((size_t)n + 1) * sizeof *pairs);
  co->key_of_code = malloc(((size_t)n + 1) * sizeof(uint64_t));
  if (!pairs || !co->key_of_code) {
    free(pairs);
    return 0;
  }
  for (uint32_t k = 0; k < n; k++) pairs[k] = (uint64_t)tt->rank[ix_relation_column_value(r, c, k)] << 32 | k;
  ix_radix_sort_in_place(pairs, n, 64);
  for (uint32_t i = 0; i < n; i++) co->key_of_code[(uint32_t)pairs[i]] = i;
  free(pairs);  /* before the texts' places are made: only one of the two at a time */
  co->text_at = malloc(((size_t)n + 1) * sizeof *co->text_at);
  co->len_at = malloc(((size_t)n + 1) * sizeof *co->len_at);
  if (!co->text_at || !co->len_at) return 0;
  co->max_len = 0;
  for (uint32_t code = 0; code < n; code++) {
    uint64_t place = co->key_of_code[code];
    size_t len;
    co->text_at[place] = text_of(tt, ix_relation_column_value(r, c, code), &len);
    co->len_at[place] = (uint32_t)len;
    if (len > co->max_len) co->max_len = (uint32_t)len;
  }
  for (co->bits = 0; ((uint64_t)1 << co->bits) < n; co->bits++) {}
  co->mask = co->bits ? ((uint64_t)1 << co->bits) - 1 : 0;
  return 1;
}

/* Lays the columns' places out in a packed key, the first column in the
 * highest bits, so that keys order like the tuples; returns the key's bits
 * (when more than 64, the keys are not usable). */
static uint32_t layout_keys(column_order *co, uint32_t arity, const ix_relation *r)
{
  uint32_t bits = 0;
  for (uint32_t c = arity; c-- > 0;) {
    co[c].shift = co[c].bits ? bits : 0;
    bits += co[c].bits;
  }
  for (uint32_t c = 0; bits <= 64 && c < arity; c++)
    for (uint32_t k = 0, n = ix_relation_column_values(r, c); k < n; k++) co[c].key_of_code[k] <<= co[c].shift;
  return bits;
}

/* The packed key of a tuple given as column codes. */
static uint64_t pack_key(const column_order *co, uint32_t arity, const uint32_t *codes)
{
  uint64_t k = 0;
  for (uint32_t c = 0; c < arity; c++) k |= co[c].key_of_code[codes[c]];
  return k;
}

/* Writes the atoms of one relation from its packed keys, given in increasing
 * order.  It keeps the previous atom's line: consecutive keys mostly differ
 * in their last columns, and only the columns from the first that differs
 * are rendered again. */
typedef struct atom_writer {
  const dl_sink *out;
  dl_buf *b;
  const column_order *co;
  uint32_t arity;
  int started;                     /* an atom has been written */
  int ok;                          /* 0 once a write failed */
  uint64_t prev;                   /* the previous key */
  size_t max_line;                 /* bytes of the longest line */
  char *line;                      /* the previous line up to its last column */
  size_t start[IX_MAX_ARITY];      /* where each column (its separator) starts in a line */
  char sep[IX_MAX_ARITY];          /* the separator before each column */
  uint8_t col_of_bit[64];          /* the column a key bit belongs to */
  char *tail;                      /* per place of the last column: its separator, text, ")\n", */
  uint32_t *tail_len;              /*   their length, */
  size_t tail_stride;              /*   one every tail_stride bytes (NULL: put_column instead) */
} atom_writer;

enum {
  TAILS_MAX = 1 << 20,  /* bytes of the last column's tails at most */
  TAIL_USES = 16        /* atoms per tail at least, on average */
};

/* Renders the tail of every place of the last column (see atom_writer),
 * for a relation of `size` tuples, when they fit TAILS_MAX and are used
 * often enough to pay; 0 when out of memory. */
static int writer_tails(atom_writer *aw, uint32_t n_places, uint64_t size)
{
  const column_order *co = &aw->co[aw->arity - 1];
  size_t stride = ((size_t)co->max_len + 3 + COPY_SLACK - 1) / COPY_SLACK * COPY_SLACK;
  if ((uint64_t)n_places * stride > TAILS_MAX || (uint64_t)n_places * TAIL_USES > size) return 1;
  aw->tail = malloc((size_t)n_places * stride + COPY_SLACK);
  aw->tail_len = malloc(((size_t)n_places + 1) * sizeof *aw->tail_len);
  if (!aw->tail || !aw->tail_len) return 0;
  for (uint32_t place = 0; place < n_places; place++) {
    char *w = aw->tail + place * stride;
    w[0] = aw->sep[aw->arity - 1];
    memcpy(w + 1, co->text_at[place], co->len_at[place]);
    w[1 + co->len_at[place]] = ')';
    w[2 + co->len_at[place]] = '\n';
    aw->tail_len[place] = co->len_at[place] + 3;
  }
  aw->tail_stride = stride;
  return 1;
}

static int writer_init(atom_writer *aw, const dl_sink *out, dl_buf *b, const char *name, size_t n, uint32_t arity,
                       const column_order *co, dl_format fmt)
{
  int kif = fmt == DL_FMT_KIF;
  memset(aw, 0, sizeof *aw);
  aw->max_line = n + 3;
  for (uint32_t c = 0; c < arity; c++) {
    aw->max_line += 1 + (size_t)co[c].max_len;
    aw->sep[c] = kif ? ' ' : c == 0 ? '(' : ',';
    for (uint32_t h = co[c].shift; h < co[c].shift + co[c].bits; h++) aw->col_of_bit[h] = (uint8_t)c;
  }
  aw->line = calloc(aw->max_line + COPY_SLACK, 1);
  if (!aw->line) return 0;
  if (arity && kif) aw->line[aw->start[0]++] = '(';
  memcpy(aw->line + aw->start[0], name, n);
  aw->start[0] += n;
  aw->out = out;
  aw->b = b;
  aw->co = co;
  aw->arity = arity;
  aw->ok = 1;
  return 1;
}

static void writer_free(atom_writer *aw)
{
  free(aw->line);
  free(aw->tail);
  free(aw->tail_len);
}

/* Appends column c of key k at w (its separator and text); returns the end. */
static inline char *put_column(const atom_writer *aw, char *w, uint32_t c, uint64_t k)
{
  const column_order *co = &aw->co[c];
  uint64_t place = (k >> co->shift) & co->mask;
  *w++ = aw->sep[c];
  copy_short(w, co->text_at[place], co->len_at[place]);
  return w + co->len_at[place];
}

/* Renders columns c..arity-2 of key k into the line.  The last column is
 * written straight to the output, so that the line, copied for every atom,
 * changes seldom. */
static void render_prefix(atom_writer *aw, uint32_t c, uint64_t k)
{
  char *w = aw->line + aw->start[c];
  for (; c + 1 < aw->arity; c++) {
    w = put_column(aw, w, c, k);
    aw->start[c + 1] = (size_t)(w - aw->line);
  }
}

static inline void emit_key(atom_writer *aw, uint64_t k)
{
  uint32_t c = 0, last = aw->arity ? aw->arity - 1 : 0;
  if (aw->started) {
    uint64_t diff = k ^ aw->prev;
    c = diff ? aw->col_of_bit[63 - __builtin_clzll(diff)] : last;
  }
  aw->started = 1;
  aw->prev = k;
  if (c < last) render_prefix(aw, c, k);
  dl_buf *b = aw->b;
  if (b->cap - b->len < aw->max_line + COPY_SLACK + 1 && !dl_buf_reserve(b, aw->max_line + COPY_SLACK)) {
    aw->ok = 0;
    return;
  }
  char *w = b->data + b->len;
  copy_short(w, aw->line, aw->start[last]);
  w += aw->start[last];
  if (aw->tail) {
    uint64_t place = (k >> aw->co[last].shift) & aw->co[last].mask;
    copy_short(w, aw->tail + place * aw->tail_stride, aw->tail_len[place]);
    w += aw->tail_len[place];
  } else {
    if (aw->arity) {
      w = put_column(aw, w, last, k);
      *w++ = ')';
    }
    *w++ = '\n';
  }
  b->len = (size_t)(w - b->data);
  if (b->len > FLUSH_AT) aw->ok = flush(aw->out, b);
}

/* Sorts the keys by setting bits in a bitmap of every possible key, then
 * walks it: for dense relations (the keys of a set are distinct). */
static int emit_by_bitmap(atom_writer *aw, const ix_relation *r, uint32_t bits)
{
  uint64_t n_words = (((uint64_t)1 << bits) + 63) / 64;
  uint64_t *set = calloc(n_words, sizeof *set);
  if (!set) return 0;
  uint32_t codes[IX_MAX_ARITY];
  ix_dense_view v;
  if (ix_relation_dense_view(r, &v)) {
    for (uint64_t i = 0; i < v.n_words; i++)
      for (uint64_t x = v.bits[i]; x; x &= x - 1) {
        uint64_t at = i << 6 | (uint64_t)__builtin_ctzll(x), k = 0;
        for (uint32_t c = 0; c < aw->arity; c++) k |= aw->co[c].key_of_code[at >> v.shift[c] & v.mask[c]];
        set[k >> 6] |= (uint64_t)1 << (k & 63);
      }
  } else {
    ix_iter it;
    ix_iter_begin(&it, r, 0, 0, NULL);
    while (ix_iter_next_codes(&it, codes)) {
      uint64_t k = pack_key(aw->co, aw->arity, codes);
      set[k >> 6] |= (uint64_t)1 << (k & 63);
    }
  }
  for (uint64_t i = 0; aw->ok && i < n_words; i++)
    for (uint64_t x = set[i]; x && aw->ok; x &= x - 1) emit_key(aw, i << 6 | (uint64_t)__builtin_ctzll(x));
  free(set);
  return aw->ok;
}

/* Sorts the keys with a radix sort: for sparse relations. */
static int emit_by_sort(atom_writer *aw, const ix_relation *r, uint32_t bits)
{
  uint64_t size = ix_relation_size(r);
  uint64_t *keys = malloc((size ? size : 1) * sizeof *keys);
  if (!keys) return 0;
  uint32_t codes[IX_MAX_ARITY];
  ix_iter it;
  ix_iter_begin(&it, r, 0, 0, NULL);
  uint64_t n = 0;
  while (n < size && ix_iter_next_codes(&it, codes)) keys[n++] = pack_key(aw->co, aw->arity, codes);
  int ok = ix_radix_sort(keys, n, bits);
  for (uint64_t i = 0; ok && aw->ok && i < n; i++) emit_key(aw, keys[i]);
  free(keys);
  return ok && aw->ok;
}

/* Sorts the keys group by group, a group being the tuples of one value of
 * the first column, taken in its order with a lookup in the primary index
 * (its order starts with the first column): for large relations whose
 * first column has few values per tuple, as transitive closures do.  It
 * needs memory for the largest group only, where emit_by_sort needs twice
 * the relation's keys. */
static int emit_by_groups(atom_writer *aw, const ix_relation *r)
{
  const column_order *first = &aw->co[0];
  uint32_t n_first = ix_relation_column_values(r, 0);
  uint32_t *code_at = malloc(((size_t)n_first + 1) * sizeof *code_at);
  uint64_t cap = 1024, *keys = malloc(cap * sizeof *keys), low = ((uint64_t)1 << first->shift) - 1;
  int ok = code_at && keys;
  for (uint32_t code = 0; ok && code < n_first; code++) code_at[first->key_of_code[code] >> first->shift] = code;
  uint32_t codes[IX_MAX_ARITY];
  ix_val key[IX_MAX_ARITY] = { 0 };
  for (uint32_t place = 0; ok && aw->ok && place < n_first; place++) {
    key[0] = ix_relation_column_value(r, 0, code_at[place]);
    ix_iter it;
    ix_iter_begin(&it, r, 0, 1, key);
    uint64_t n = 0;
    while (ok && ix_iter_next_codes(&it, codes)) {
      if (n == cap) {
        uint64_t *q = realloc(keys, 2 * cap * sizeof *q);
        ok = q != NULL;
        if (ok) keys = q, cap *= 2;
      }
      if (ok) keys[n++] = pack_key(aw->co, aw->arity, codes) & low;
    }
    ok = ok && ix_radix_sort(keys, n, first->shift);
    for (uint64_t i = 0; ok && aw->ok && i < n; i++) emit_key(aw, keys[i] | (uint64_t)place << first->shift);
  }
  free(code_at);
  free(keys);
  return ok && aw->ok;
}

/* Writes a relation whose places pack into 64 bits: one key per tuple,
 * sorted (with a bitmap, a radix sort, or group by group), decoded back
 * into text. */
static int write_packed(const dl_sink *out, dl_buf *b, const char *name, size_t n, const ix_relation *r,
                        const column_order *co, uint32_t bits, dl_format fmt)
{
  atom_writer aw;
  uint32_t arity = ix_relation_arity(r);
  if (!writer_init(&aw, out, b, name, n, arity, co, fmt) ||
      (arity && !writer_tails(&aw, ix_relation_column_values(r, arity - 1), ix_relation_size(r)))) {
    writer_free(&aw);
    return 0;
  }
  uint64_t size = ix_relation_size(r);
  /* the bitmap costs 2^bits / 8 bytes and 2^bits / 64 word reads: at most
   * 16 bytes and 2 reads a tuple (the radix sort needs 16 bytes a tuple) */
  int dense = bits <= 16 || (bits <= 40 && ((uint64_t)1 << bits) <= 128 * size);
  /* groups: a lookup per value of the first column, worth it when a group
   * holds a few tuples at least and the relation is large */
  int groups = ix_relation_arity(r) >= 2 && size >= GROUPS_FROM && size >= 4 * (uint64_t)ix_relation_column_values(r, 0);
  int ok = size == 0 || (dense ? emit_by_bitmap(&aw, r, bits)
                               : groups ? emit_by_groups(&aw, r) : emit_by_sort(&aw, r, bits));
  writer_free(&aw);
  return ok;
}

/* Writes any relation: rows of term ids sorted with a comparator. */
static int write_rows(const dl_sink *out, dl_buf *b, const char *name, size_t n, const ix_relation *r,
                      const term_texts *tt, dl_format fmt)
{
  uint32_t arity = ix_relation_arity(r);
  uint64_t size = ix_relation_size(r);
  dl_tid *rows = malloc((size ? size : 1) * (arity ? arity : 1) * sizeof *rows);
  dl_tid **order = malloc((size ? size : 1) * sizeof *order);
  int ok = rows && order;
  ix_iter it;
  ix_iter_begin(&it, r, 0, 0, NULL);
  for (uint64_t i = 0; ok && i < size && ix_iter_next(&it, rows + i * arity); i++) order[i] = rows + i * arity;
  rank_order ro = { tt->rank, arity };
  if (ok) dl_sort(order, size, sizeof *order, by_ranks, &ro);
  for (uint64_t i = 0; ok && i < size; i++) {
    add_atom(b, name, n, order[i], arity, tt, fmt);
    if (b->len > (1 << 20)) ok = flush(out, b);
  }
  free(rows);
  free(order);
  return ok;
}

static int write_relation(const dl_sink *out, dl_buf *b, const char *name, size_t n, const ix_relation *r,
                          const term_texts *tt, dl_format fmt)
{
  uint32_t arity = ix_relation_arity(r);
  column_order co[IX_MAX_ARITY];
  memset(co, 0, sizeof co);
  int ok = 1;
  for (uint32_t c = 0; ok && c < arity; c++) ok = order_column(r, c, tt, &co[c]);
  uint32_t bits = ok ? layout_keys(co, arity, r) : 0;
  if (ok) ok = bits <= 64 ? write_packed(out, b, name, n, r, co, bits, fmt)
                          : write_rows(out, b, name, n, r, tt, fmt);
  for (uint32_t c = 0; c < arity; c++) {
    free(co[c].key_of_code);
    free(co[c].text_at);
    free(co[c].len_at);
  }
  return ok && flush(out, b);
}

/* Compares two predicates by name; ctx is the program. */
static int by_pred_name(const void *a, const void *b, void *ctx)
{
  const dl_program *p = ctx;
  return strcmp(dl_program_pred_name(p, *(const uint32_t *)a), dl_program_pred_name(p, *(const uint32_t *)b));
}

static int file_write(void *f, const char *data, size_t n) { return fwrite(data, 1, n, f) == n; }

int dl_output_model(FILE *out, const dl_program *p, const dl_eval *e, dl_format fmt, const uint8_t *skip)
{
  dl_sink sink = { file_write, out };
  return dl_output_model_to(&sink, p, e, fmt, skip);
}

int dl_output_model_to(const dl_sink *out, const dl_program *p, const dl_eval *e, dl_format fmt,
                       const uint8_t *skip)
{
  term_texts tt = { 0 };
  uint32_t *order = malloc(((size_t)p->n_preds + 1) * sizeof *order);
  int ok = order && texts_build(&tt, p, e, skip, fmt);
  for (uint32_t i = 0; ok && i < p->n_preds; i++) order[i] = i;
  if (ok) dl_sort(order, p->n_preds, sizeof *order, by_pred_name, (void *)p);
  dl_buf name = { 0 }, b = { 0 };
  for (uint32_t i = 0; ok && i < p->n_preds; i++) {
    uint32_t pr = order[i];
    if (skip && skip[pr]) continue;
    name.len = 0;
    dl_text_add_name(&name, p->terms, p->preds[pr].name, fmt, 1);
    ok = !name.failed && write_relation(out, &b, name.data, name.len, dl_eval_relation(e, pr), &tt, fmt);
  }
  dl_buf_free(&name);
  dl_buf_free(&b);
  texts_free(&tt);
  free(order);
  return ok;
}

/* ---- program -------------------------------------------------------------------- */

/* One rule being written, with the printed name of each variable. */
typedef struct rule_writer {
  const dl_program *p;
  const dl_rule *r;
  dl_format fmt;
  dl_buf names;      /* the names, each NUL-terminated */
  size_t *name_at;   /* per variable: where its name starts in names */
  size_t cap;        /* entries of name_at */
} rule_writer;

static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static int is_ident_char(char c)
{
  return (c >= 'a' && c <= 'z') || is_upper(c) || (c >= '0' && c <= '9') || c == '_';
}

/* True when z[0..n) is a variable name of infix: [A-Z_][A-Za-z0-9_]*. */
static int is_infix_variable(const char *z, size_t n)
{
  if (n == 0 || !(is_upper(z[0]) || z[0] == '_')) return 0;
  for (size_t i = 1; i < n; i++)
    if (!is_ident_char(z[i])) return 0;
  return 1;
}

/* True when z[0..n) can follow '?' as a KIF variable (once lower-cased). */
static int is_kif_variable(const char *z, size_t n)
{
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++)
    if (!is_upper(z[i]) && (!dl_text_is_kif_symbol(z + i, 1, 0) || z[i] == '|')) return 0;
  return 1;
}

/* True when name is already taken by one of the first v variables. */
static int name_taken(const rule_writer *w, uint32_t v, const char *name)
{
  for (uint32_t u = 0; u < v; u++)
    if (strcmp(w->names.data + w->name_at[u], name) == 0) return 1;
  return 0;
}

/* Names the variables of w->r so that the rule reads back with the same
 * variables: the source name when it is valid in the format and no other
 * variable has it (KIF lower-cases names; an infix _ occurs once and stays
 * _ in infix only), else V<n> (KIF ?v<n>), with '_' appended until unique. */
static int name_variables(rule_writer *w)
{
  const dl_rule *r = w->r;
  if (r->n_vars > w->cap) {
    size_t *q = realloc(w->name_at, r->n_vars * sizeof *q);
    if (!q) return 0;
    w->name_at = q;
    w->cap = r->n_vars;
  }
  w->names.len = 0;
  char tmp[40];
  for (uint32_t v = 0; v < r->n_vars; v++) {
    size_t n, at = w->names.len;
    const char *z = dl_terms_name(w->p->terms, r->var_names[v], &n);
    if (w->fmt == DL_FMT_KIF && n && z[0] == '?') z++, n--;
    int anonymous = n == 1 && z[0] == '_';
    int keep = w->fmt == DL_FMT_INFIX ? is_infix_variable(z, n)
             : w->fmt == DL_FMT_KIF ? !anonymous && n < 64 && is_kif_variable(z, n) : 0;
    if (keep) {
      for (size_t i = 0; i < n; i++) {
        char c = w->fmt == DL_FMT_KIF && is_upper(z[i]) ? (char)(z[i] - 'A' + 'a') : z[i];
        dl_buf_add(&w->names, &c, 1);
      }
      dl_buf_add(&w->names, "", 1);
    }
    if (w->names.failed) return 0;
    if (!keep || (!(w->fmt == DL_FMT_INFIX && anonymous) && name_taken(w, v, w->names.data + at))) {
      w->names.len = at;
      snprintf(tmp, sizeof tmp, w->fmt == DL_FMT_KIF ? "v%u" : "V%u", v);
      dl_buf_addz(&w->names, tmp);
      while (!w->names.failed && name_taken(w, v, w->names.data + at)) dl_buf_add(&w->names, "_", 1);
      dl_buf_add(&w->names, "", 1);
    }
    if (w->names.failed) return 0;
    w->name_at[v] = at;
  }
  return 1;
}

static void add_var(dl_buf *b, const rule_writer *w, uint32_t v)
{
  if (w->fmt == DL_FMT_KIF) dl_buf_add(b, "?", 1);
  dl_buf_addz(b, w->names.data + w->name_at[v]);
}

static void add_ast_term(dl_buf *b, const rule_writer *w, const ast_term *t)
{
  dl_format fmt = w->fmt;
  if (t->kind == AST_VAR) {
    add_var(b, w, t->value);
    return;
  }
  if (t->kind == AST_SYM) {
    dl_text_add_name(b, w->p->terms, t->value, fmt, 0);
    return;
  }
  if (fmt == DL_FMT_KIF) dl_buf_add(b, "(", 1);
  dl_text_add_name(b, w->p->terms, t->value, fmt, 1);
  dl_buf_add(b, fmt == DL_FMT_KIF ? " " : "(", 1);
  for (uint32_t i = 0; i < t->n; i++) {
    if (i) dl_buf_add(b, fmt == DL_FMT_KIF ? " " : ",", 1);
    add_ast_term(b, w, t->args[i]);
  }
  dl_buf_add(b, ")", 1);
}

/* An atom in a rule: in ASP and infix the predicate name is a functor. */
static void add_ast_atom(dl_buf *b, const rule_writer *w, const ast_term *a)
{
  if (a->kind == AST_SYM) dl_text_add_name(b, w->p->terms, a->value, w->fmt, 1);
  else add_ast_term(b, w, a);
}

static void add_literal(dl_buf *b, const rule_writer *w, const dl_literal *l)
{
  dl_format fmt = w->fmt;
  int kif = fmt == DL_FMT_KIF;
  switch (l->kind) {
  case DL_POS:
    add_ast_atom(b, w, l->atom);
    break;
  case DL_NEG:
    dl_buf_addz(b, kif ? "(not " : fmt == DL_FMT_ASP ? "not " : "~");
    add_ast_atom(b, w, l->atom);
    if (kif) dl_buf_add(b, ")", 1);
    break;
  case DL_DISTINCT:
  case DL_EQUAL:
    if (fmt == DL_FMT_ASP) {
      add_ast_term(b, w, l->a);
      dl_buf_addz(b, l->kind == DL_DISTINCT ? " != " : " = ");
      add_ast_term(b, w, l->b);
      break;
    }
    if (l->kind == DL_EQUAL) dl_buf_addz(b, kif ? "(not " : "~");
    dl_buf_addz(b, kif ? "(distinct " : "distinct(");
    add_ast_term(b, w, l->a);
    dl_buf_addz(b, kif ? " " : ",");
    add_ast_term(b, w, l->b);
    dl_buf_add(b, ")", 1);
    if (l->kind == DL_EQUAL && kif) dl_buf_add(b, ")", 1);
    break;
  }
}

static int add_rule(dl_buf *b, rule_writer *w, const dl_rule *r)
{
  w->r = r;
  if (!name_variables(w)) return 0;
  int kif = w->fmt == DL_FMT_KIF;
  if (kif && r->n_body) dl_buf_addz(b, "(<= ");
  add_ast_atom(b, w, r->head);
  for (uint32_t k = 0; k < r->n_body; k++) {
    dl_buf_addz(b, kif ? "\n    " : k == 0 ? " :- " : w->fmt == DL_FMT_ASP ? ", " : " & ");
    add_literal(b, w, &r->body[k]);
  }
  if (kif) dl_buf_addz(b, r->n_body ? ")\n" : "\n");
  else dl_buf_addz(b, ".\n");
  return 1;
}

/* Writes rules[0..n) with keep[r] set (keep may be NULL: all). */
static int write_rules(const dl_sink *out, const dl_program *p, dl_format fmt, const dl_rule *rules, uint32_t n,
                       const uint8_t *keep)
{
  dl_buf b = { 0 };
  rule_writer w = { p, NULL, fmt, { 0 }, NULL, 0 };
  int ok = 1;
  for (uint32_t r = 0; ok && r < n; r++) {
    if (keep && !keep[r]) continue;
    ok = add_rule(&b, &w, &rules[r]);
    if (ok && b.len > (1 << 20)) ok = flush(out, &b);
  }
  if (ok) ok = flush(out, &b);
  dl_buf_free(&b);
  dl_buf_free(&w.names);
  free(w.name_at);
  return ok;
}

int dl_output_rules_to(const dl_sink *out, const dl_program *p, dl_format fmt, const uint8_t *keep)
{
  return write_rules(out, p, fmt, p->ast->rules, p->ast->n_rules, keep);
}

int dl_output_rule_list_to(const dl_sink *out, const dl_program *p, dl_format fmt, const dl_rule *rules, uint32_t n)
{
  assert(out && p && (rules || n == 0));
  return write_rules(out, p, fmt, rules, n, NULL);
}

static int count_bytes(void *ctx, const char *data, size_t n)
{
  (void)data;
  *(uint64_t *)ctx += n;
  return 1;
}

int dl_output_rule_list_bytes(const dl_program *p, dl_format fmt, const dl_rule *rules, uint32_t n, uint64_t *bytes)
{
  assert(p && (rules || n == 0) && bytes);
  *bytes = 0;
  dl_sink counter = { count_bytes, bytes };
  return write_rules(&counter, p, fmt, rules, n, NULL);
}

int dl_output_rule_sizes(const dl_program *p, dl_format fmt, uint64_t *bytes)
{
  assert(bytes);
  dl_buf b = { 0 };
  rule_writer w = { p, NULL, fmt, { 0 }, NULL, 0 };
  int ok = 1;
  for (uint32_t r = 0; ok && r < p->ast->n_rules; r++) {
    b.len = 0;
    ok = add_rule(&b, &w, &p->ast->rules[r]) && !b.failed;
    bytes[r] = b.len;
  }
  dl_buf_free(&b);
  dl_buf_free(&w.names);
  free(w.name_at);
  return ok;
}

int dl_output_program(FILE *f, const dl_program *p, dl_format fmt)
{
  dl_sink sink = { file_write, f };
  return dl_output_rules_to(&sink, p, fmt, NULL);
}
