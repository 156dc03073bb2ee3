/* terms.c: hash-consed symbols and terms (see terms.h).  Both tables are open
 * addressing over dense ids with linear probing.  A slot holds id + 1 and
 * the high half of the hash, which places it, so most mismatches and every
 * rehash cost no look at the name or the term itself.  Programs of many
 * facts look up numbers and constants most: a number's symbol is kept in an
 * array by its value, and a constant's term in an array by its symbol,
 * instead of in the tables; fact files find a number's constant in one more
 * array by its value, one look-up instead of two. */
#include "datalog/base/terms.h"
#include <assert.h>

#include <Judy.h>

#include <stdlib.h>
#include <string.h>

#include "datalog/base/grow.h"

typedef struct table {
  uint64_t *slots;  /* hash >> 32 << 32 | id + 1, 0 for empty */
  uint32_t mask;    /* capacity - 1, capacity a power of two */
} table;

/* A term's functor, arity and the offset of its arguments in args. */
typedef struct term_rec {
  dl_sym functor;
  uint32_t arity;
  uint64_t arg_off;
} term_rec;

struct dl_terms {
  char *names;        /* symbol bytes, each name NUL-terminated */
  size_t names_len, names_cap;
  uint32_t *name_off; /* per symbol: offset into names (its length: to the next one's, less its NUL) */
  dl_tid *constant;   /* per symbol: its constant's term + 1, 0 until made */
  dl_sym *number;     /* per natural number v < n_numbers: the symbol + 1 of */
  uint32_t n_numbers; /*   its decimal name, 0 until interned */
  dl_tid *number_term; /* per natural number v < n_number_terms: its constant */
  uint32_t n_number_terms; /*   + 1, 0 until dl_terms_constant_named made it */
  uint32_t n_syms, syms_cap;
  table sym_table;
  uint32_t n_hashed_syms;  /* symbols in sym_table: not the numbers */

  term_rec *rec;      /* per term: functor, arity and where its arguments are, together (one cache line) */
  uint16_t *depth;    /* per term: 1 for a constant, else 1 + deepest argument */
  int too_deep;       /* a term was refused for its depth */
  uint32_t n_terms, terms_cap;
  dl_tid *args;
  uint64_t args_len, args_cap;
  table term_table;
  uint32_t n_hashed_terms; /* terms in term_table: not the constants */

  Pvoid_t indexed;    /* JudyL: f << 8 | n -> 1 when terms of f/n are indexed by argument */
  Pvoid_t by_arg;     /* JudyL: arg_key(f, n, j, v) -> term_list * */
  Pvoid_t combos;     /* JudyL: f << 8 | n -> mask_set *: argument combinations indexed */
  Pvoid_t by_args;    /* JudyL: args_key(f, n, mask, values) -> term_list * */
  Pvoid_t watched;    /* Judy1 of symbols: their new terms count (dl_terms_watch) */
  uint64_t n_watched, watch_limit;
  int over_limit;
};

/* The argument combinations (bit j: argument j) indexed for a functor. */
typedef struct mask_set {
  uint32_t n;
  uint64_t masks[];
} mask_set;

/* A growable list of term ids. */
typedef struct term_list {
  uint32_t n, cap;
  dl_tid ids[];
} term_list;

static uint64_t mix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  return mix(h);
}

static uint64_t hash_term(dl_sym f, uint32_t n, const dl_tid *args)
{
  uint64_t h = mix(((uint64_t)f << 32) | n);
  for (uint32_t i = 0; i < n; i++) h = mix(h ^ (args[i] + 0x9e3779b97f4a7c15ULL * (i + 1)));
  return h;
}

static int table_init(table *tb, uint32_t cap)
{
  tb->slots = calloc(cap, sizeof *tb->slots);
  tb->mask = cap - 1;
  return tb->slots != NULL;
}

dl_terms *dl_terms_create(void)
{
  dl_terms *t = calloc(1, sizeof(dl_terms));
  if (!t) return NULL;
  if (!table_init(&t->sym_table, 1024) || !table_init(&t->term_table, 1024)) {
    dl_terms_destroy(t);
    return NULL;
  }
  return t;
}

/* Frees the pointers a JudyL holds, and the array. */
static void free_values(Pvoid_t *array)
{
  Word_t k = 0;
  for (PWord_t v = (PWord_t)JudyLFirst(*array, &k, PJE0); v && v != PJERR; v = (PWord_t)JudyLNext(*array, &k, PJE0))
    free((void *)*v);
  JudyLFreeArray(array, PJE0);
}

static void free_arg_index(dl_terms *t)
{
  free_values(&t->by_arg);
  free_values(&t->by_args);
  free_values(&t->combos);
  JudyLFreeArray(&t->indexed, PJE0);
}

void dl_terms_destroy(dl_terms *t)
{
  if (!t) return;
  free_arg_index(t);
  dl_grow_free(t->names);
  dl_grow_free(t->name_off);
  dl_grow_free(t->constant);
  dl_grow_free(t->number);
  dl_grow_free(t->number_term);
  free(t->sym_table.slots);
  dl_grow_free(t->rec);
  dl_grow_free(t->depth);
  dl_grow_free(t->args);
  free(t->term_table.slots);
  Judy1FreeArray(&t->watched, PJE0);
  free(t);
}

/* ---- symbols ------------------------------------------------------------ */

/* The length of symbol s's name. */
static uint32_t name_length(const dl_terms *t, dl_sym s)
{
  size_t end = s + 1 < t->n_syms ? t->name_off[s + 1] : t->names_len;
  return (uint32_t)(end - t->name_off[s] - 1);
}

static int sym_equal(const dl_terms *t, dl_sym s, const char *z, size_t n)
{
  return name_length(t, s) == n && memcmp(t->names + t->name_off[s], z, n) == 0;
}

/* The slot of name z[0..n), whose hash is h: holding it, or empty. */
static uint64_t *sym_slot(const dl_terms *t, uint64_t h, const char *z, size_t n)
{
  uint64_t tag = h >> 32 << 32;
  uint32_t mask = t->sym_table.mask;
  for (uint32_t i = (uint32_t)(h >> 32) & mask;; i = (i + 1) & mask) {
    uint64_t *s = &t->sym_table.slots[i];
    if (!*s || ((*s >> 32 << 32) == tag && sym_equal(t, (uint32_t)*s - 1, z, n))) return s;
  }
}

/* Doubles a table: each slot moves by the hash it keeps. */
static int table_grow(table *tb)
{
  uint32_t old_cap = tb->mask + 1, mask = 2 * old_cap - 1;
  uint64_t *old = tb->slots, *slots = calloc((size_t)mask + 1, sizeof *slots);
  if (!slots) return 0;
  for (uint32_t k = 0; k < old_cap; k++) {
    if (!old[k]) continue;
    uint32_t i = (uint32_t)(old[k] >> 32) & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = old[k];
  }
  free(old);
  tb->slots = slots;
  tb->mask = mask;
  return 1;
}

static int syms_reserve(dl_terms *t)
{
  if (t->n_syms < t->syms_cap) return 1;
  uint32_t c = t->syms_cap ? t->syms_cap * 2 : 256;
  uint32_t *o = dl_grow_to(t->name_off, (size_t)c * sizeof *o);
  if (o) t->name_off = o;
  dl_tid *k = dl_grow_to(t->constant, (size_t)c * sizeof *k);
  if (k) t->constant = k;
  if (!o || !k) return 0;
  t->syms_cap = c;
  return 1;
}

static int names_reserve(dl_terms *t, size_t more)
{
  if (t->names_len + more <= t->names_cap) return 1;
  size_t c = t->names_cap ? t->names_cap : 4096;
  while (c < t->names_len + more) c *= 2;
  char *q = dl_grow_to(t->names, c);
  if (!q) return 0;
  t->names = q;
  t->names_cap = c;
  return 1;
}

enum { MAX_NUMBER = 1 << 24 };  /* numbers kept in t->number: below this */

/* The value of z[0..n) when it is a natural number in decimal without
 * leading zeros below MAX_NUMBER, else -1. */
static int64_t number_value(const char *z, size_t n)
{
  if (n == 0 || n > 8 || (z[0] == '0' && n > 1)) return -1;
  int64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (z[i] < '0' || z[i] > '9') return -1;
    v = v * 10 + (z[i] - '0');
  }
  return v < MAX_NUMBER ? v : -1;
}

/* Sets (*at)[v] to x, first growing the array *at of *n entries (zeros
 * past its old end) to cover v; 0 when out of memory. */
static int set_by_value(uint32_t **at, uint32_t *n, uint32_t v, uint32_t x)
{
  if (v >= *n) {
    uint32_t c = *n ? *n : 1024;
    while (c <= v) c *= 2;
    uint32_t *q = dl_grow_to(*at, (size_t)c * sizeof *q);
    if (!q) return 0;
    memset(q + *n, 0, (size_t)(c - *n) * sizeof *q);
    *at = q;
    *n = c;
  }
  (*at)[v] = x;
  return 1;
}

/* A new symbol named z[0..n), in no table yet; DL_NO_SYM when out of memory. */
static dl_sym new_symbol(dl_terms *t, const char *z, size_t n)
{
  if (!syms_reserve(t) || !names_reserve(t, n + 1) || t->names_len + n + 1 > UINT32_MAX)
    return DL_NO_SYM;
  dl_sym s = t->n_syms++;
  t->name_off[s] = (uint32_t)t->names_len;
  t->constant[s] = 0;
  memcpy(t->names + t->names_len, z, n);
  t->names[t->names_len + n] = 0;
  t->names_len += n + 1;
  return s;
}

/* Interns z[0..n) through the hash table. */
static dl_sym symbol_by_hash(dl_terms *t, const char *z, size_t n)
{
  uint64_t h = hash_bytes(z, n), *slot = sym_slot(t, h, z, n);
  if (*slot) return (dl_sym)*slot - 1;
  dl_sym s = new_symbol(t, z, n);
  if (s == DL_NO_SYM) return DL_NO_SYM;
  *slot = h >> 32 << 32 | (s + 1);
  if (++t->n_hashed_syms * 2 > t->sym_table.mask && !table_grow(&t->sym_table)) return DL_NO_SYM;
  return s;
}

/* Interns z[0..n), whose number_value is v. */
static dl_sym symbol_of_value(dl_terms *t, const char *z, size_t n, int64_t v)
{
  if (v < 0) return symbol_by_hash(t, z, n);
  if (v < t->n_numbers && t->number[v]) return t->number[v] - 1;
  dl_sym s = new_symbol(t, z, n);
  return s == DL_NO_SYM || set_by_value(&t->number, &t->n_numbers, (uint32_t)v, s + 1) ? s : DL_NO_SYM;
}

/* Numbers, common in games and in data, are found without hashing: they
 * are in t->number only. */
dl_sym dl_terms_symbol(dl_terms *t, const char *z, size_t n)
{
  if (n >= UINT32_MAX / 2) return DL_NO_SYM;
  return symbol_of_value(t, z, n, number_value(z, n));
}

const char *dl_terms_name(const dl_terms *t, dl_sym s, size_t *len)
{
  assert(s < t->n_syms);
  if (len) *len = name_length(t, s);
  return t->names + t->name_off[s];
}

uint32_t dl_terms_symbol_count(const dl_terms *t) { return t->n_syms; }

/* ---- terms -------------------------------------------------------------- */

static int term_equal(const dl_terms *t, dl_tid id, dl_sym f, uint32_t n, const dl_tid *args)
{
  const term_rec *r = &t->rec[id];
  if (r->functor != f || r->arity != n) return 0;
  if (n == 0) return 1;  /* a constant: t->args may still be NULL, and NULL + 0 is undefined */
  const dl_tid *a = t->args + r->arg_off;
  for (uint32_t i = 0; i < n; i++)
    if (a[i] != args[i]) return 0;
  return 1;
}

/* The slot of term f(args[0..n)), whose hash is h: holding it, or empty. */
static uint64_t *term_slot(const dl_terms *t, uint64_t h, dl_sym f, uint32_t n, const dl_tid *args)
{
  uint64_t tag = h >> 32 << 32;
  uint32_t mask = t->term_table.mask;
  for (uint32_t i = (uint32_t)(h >> 32) & mask;; i = (i + 1) & mask) {
    uint64_t *s = &t->term_table.slots[i];
    if (!*s || ((*s >> 32 << 32) == tag && term_equal(t, (uint32_t)*s - 1, f, n, args))) return s;
  }
}

static int terms_reserve(dl_terms *t, uint32_t n_args)
{
  if (t->n_terms + 1 > t->terms_cap) {
    uint32_t c = t->terms_cap ? t->terms_cap * 2 : 1024;
    term_rec *r = dl_grow_to(t->rec, (size_t)c * sizeof *r);
    if (r) t->rec = r;
    uint16_t *d = dl_grow_to(t->depth, (size_t)c * sizeof *d);
    if (d) t->depth = d;
    if (!r || !d) return 0;
    t->terms_cap = c;
  }
  if (t->args_len + n_args > t->args_cap) {
    uint64_t c = t->args_cap ? t->args_cap : 4096;
    while (c < t->args_len + n_args) c *= 2;
    dl_tid *q = dl_grow_to(t->args, c * sizeof *q);
    if (!q) return 0;
    t->args = q;
    t->args_cap = c;
  }
  return 1;
}

/* ---- argument index ------------------------------------------------------ */

int dl_terms_arg_indexable(dl_sym f, uint32_t n, uint32_t j)
{
  return f < (1u << 20) && n < 256 && j < n;
}

static Word_t arg_key(dl_sym f, uint32_t n, uint32_t j, dl_tid v)
{
  return (Word_t)f << 44 | (Word_t)n << 36 | (Word_t)j << 28 | v;
}

/* Appends id to the list at key in the JudyL *lists. */
static int list_add(Pvoid_t *lists, Word_t key, dl_tid id)
{
  PWord_t v = (PWord_t)JudyLIns(lists, key, PJE0);
  if (v == PJERR) return 0;
  term_list *l = (term_list *)*v;
  if (!l || l->n == l->cap) {
    uint32_t cap = l ? l->cap * 2 : 4;
    term_list *q = realloc(l, sizeof *q + cap * sizeof(dl_tid));
    if (!q) return 0;
    if (!l) q->n = 0;
    q->cap = cap;
    *v = (Word_t)q;
    l = q;
  }
  l->ids[l->n++] = id;
  return 1;
}

/* Adds term id to the lists of each of its arguments. */
static int index_term(dl_terms *t, dl_tid id)
{
  dl_sym f = t->rec[id].functor;
  uint32_t n = t->rec[id].arity;
  const dl_tid *args = t->args + t->rec[id].arg_off;
  for (uint32_t j = 0; j < n; j++)
    if (!list_add(&t->by_arg, arg_key(f, n, j, args[j]), id)) return 0;
  return 1;
}

/* The key of the terms of f/n whose arguments at the bits of mask are
 * vals[] (one per bit, in order): a hash, so two combinations may share it. */
static Word_t args_key(dl_sym f, uint32_t n, uint64_t mask, const dl_tid *vals)
{
  uint64_t h = mix(((uint64_t)f << 32 | n) ^ mask * 0x9e3779b97f4a7c15ULL);
  for (uint32_t i = 0; mask; mask &= mask - 1, i++)
    h = mix(h ^ (vals[i] + 0x9e3779b97f4a7c15ULL * (uint64_t)(__builtin_ctzll(mask) + 1)));
  return h;
}

/* Adds term id to the list of its arguments at the bits of mask. */
static int index_combo(dl_terms *t, dl_tid id, uint64_t mask)
{
  const dl_tid *args = t->args + t->rec[id].arg_off;
  dl_tid vals[64];
  uint32_t k = 0;
  for (uint64_t m = mask; m; m &= m - 1) vals[k++] = args[__builtin_ctzll(m)];
  return list_add(&t->by_args, args_key(t->rec[id].functor, t->rec[id].arity, mask, vals), id);
}

/* Adds term id to the lists of the combinations indexed for its functor. */
static int index_combos(dl_terms *t, dl_tid id)
{
  PWord_t v = (PWord_t)JudyLGet(t->combos, (Word_t)t->rec[id].functor << 8 | t->rec[id].arity, PJE0);
  const mask_set *set = v && v != PJERR ? (const mask_set *)*v : NULL;
  for (uint32_t i = 0; set && i < set->n; i++)
    if (!index_combo(t, id, set->masks[i])) return 0;
  return 1;
}

/* Makes sure the terms of f/n are indexed by their arguments at the bits of
 * mask, indexing the existing ones the first time; 0 when out of memory. */
static int want_combo(dl_terms *t, dl_sym f, uint32_t n, uint64_t mask)
{
  PWord_t v = (PWord_t)JudyLIns(&t->combos, (Word_t)f << 8 | n, PJE0);
  if (v == PJERR) return 0;
  mask_set *set = (mask_set *)*v;
  for (uint32_t i = 0; set && i < set->n; i++)
    if (set->masks[i] == mask) return 1;
  uint32_t count = set ? set->n : 0;
  mask_set *q = realloc(set, sizeof *q + (count + 1) * sizeof(uint64_t));
  if (!q) return 0;
  q->n = count + 1;
  q->masks[count] = mask;
  *v = (Word_t)q;
  for (dl_tid id = 0; id < t->n_terms; id++)
    if (t->rec[id].functor == f && t->rec[id].arity == n && !index_combo(t, id, mask)) return 0;
  return 1;
}

/* Drops the argument indexes, which memory did not suffice to keep
 * complete (a later call builds what it needs again); NULL with *count
 * DL_TERMS_NOMEM. */
static const dl_tid *index_failed(dl_terms *t, uint32_t *count)
{
  free_arg_index(t);
  *count = DL_TERMS_NOMEM;
  return NULL;
}

const dl_tid *dl_terms_with_args(dl_terms *t, dl_sym f, uint32_t n, uint64_t mask, const dl_tid *vals,
                                 uint32_t *count)
{
  assert(count && (mask == 0 || vals));
  *count = 0;
  if (mask == 0 || n >= 256 || (n < 64 && mask >> n)) return NULL;
  if (!want_combo(t, f, n, mask)) return index_failed(t, count);
  PWord_t l = (PWord_t)JudyLGet(t->by_args, args_key(f, n, mask, vals), PJE0);
  if (!l || l == PJERR) return NULL;
  *count = ((term_list *)*l)->n;
  return ((term_list *)*l)->ids;
}

const dl_tid *dl_terms_with_arg(dl_terms *t, dl_sym f, uint32_t n, uint32_t j, dl_tid v, uint32_t *count)
{
  *count = 0;
  if (!dl_terms_arg_indexable(f, n, j)) return NULL;
  PWord_t mark = (PWord_t)JudyLIns(&t->indexed, (Word_t)f << 8 | n, PJE0);
  if (mark == PJERR) return index_failed(t, count);
  if (!*mark) {
    *mark = 1;
    for (dl_tid id = 0; id < t->n_terms; id++)
      if (t->rec[id].functor == f && t->rec[id].arity == n && !index_term(t, id)) return index_failed(t, count);
  }
  PWord_t l = (PWord_t)JudyLGet(t->by_arg, arg_key(f, n, j, v), PJE0);
  if (!l || l == PJERR) return NULL;
  *count = ((term_list *)*l)->n;
  return ((term_list *)*l)->ids;
}

/* Constants are in t->constant only; other terms in the term table. */
dl_tid dl_terms_make(dl_terms *t, dl_sym f, uint32_t n, const dl_tid *args)
{
  assert(f < t->n_syms && (n == 0 || args));
  if (n == 0 && t->constant[f]) return t->constant[f] - 1;
  uint64_t h = n ? hash_term(f, n, args) : 0, *slot = n ? term_slot(t, h, f, n, args) : NULL;
  if (slot && *slot) return (dl_tid)*slot - 1;
  uint32_t depth = 1;
  for (uint32_t i = 0; i < n; i++) {
    assert(args[i] < t->n_terms);
    if (t->depth[args[i]] + 1u > depth) depth = t->depth[args[i]] + 1u;
  }
  if (depth > DL_MAX_TERM_DEPTH) {
    t->too_deep = 1;
    return DL_NO_TERM;
  }
  if (n && t->watched && Judy1Test(t->watched, f, PJE0) && t->watch_limit && t->n_watched++ >= t->watch_limit) {
    t->over_limit = 1;
    return DL_NO_TERM;
  }
  if (t->n_terms >= DL_MAX_TERMS || !terms_reserve(t, n)) return DL_NO_TERM;
  dl_tid id = t->n_terms++;
  t->depth[id] = (uint16_t)depth;
  t->rec[id].functor = f;
  t->rec[id].arity = n;
  t->rec[id].arg_off = t->args_len;
  if (n) memcpy(t->args + t->args_len, args, n * sizeof(dl_tid));
  t->args_len += n;
  if (n == 0) {
    t->constant[f] = id + 1;
    return id;
  }
  *slot = h >> 32 << 32 | (id + 1);
  if (++t->n_hashed_terms * 2 > t->term_table.mask && !table_grow(&t->term_table)) return DL_NO_TERM;
  int by_arg = n && t->indexed && JudyLGet(t->indexed, (Word_t)f << 8 | n, PJE0);
  int whole = (!by_arg || index_term(t, id)) && (!n || !t->combos || index_combos(t, id));
  if (!whole) free_arg_index(t);  /* the term is made; its indexes are built again when asked */
  return id;
}

dl_tid dl_terms_find(const dl_terms *t, dl_sym f, uint32_t n, const dl_tid *args)
{
  if (n == 0) return f < t->n_syms ? t->constant[f] - 1 : DL_NO_TERM;
  const uint64_t *slot = term_slot(t, hash_term(f, n, args), f, n, args);
  return *slot ? (dl_tid)*slot - 1 : DL_NO_TERM;
}

int dl_terms_too_deep(const dl_terms *t) { return t->too_deep; }

int dl_terms_watch(dl_terms *t, dl_sym f) { return Judy1Set(&t->watched, f, PJE0) != JERR; }

void dl_terms_set_watch_limit(dl_terms *t, uint64_t limit)
{
  t->watch_limit = limit;
  t->n_watched = 0;
  t->over_limit = 0;
}

uint64_t dl_terms_watch_limit(const dl_terms *t) { return t->watch_limit; }

int dl_terms_over_limit(const dl_terms *t) { return t->over_limit; }

dl_tid dl_terms_constant(dl_terms *t, dl_sym f) { return dl_terms_make(t, f, 0, NULL); }

/* The room kept for n entries when the arrays are fitted: a sixteenth
 * more, so that the few symbols and terms made after a program is read do
 * not double it. */
static uint64_t fitted(uint64_t n) { return n + n / 16 + 256; }

/* p (from dl_grow_to) cut to bytes bytes, or p as it was when it cannot
 * be: either way it has room for them. */
static void *cut(void *p, size_t bytes)
{
  void *q = p ? dl_grow_to(p, bytes) : NULL;
  return q ? q : p;
}

/* Cuts the symbols' and terms' arrays to about what they hold: their room
 * doubles as they grow, so up to half of it is unused once a program of
 * many constants is read, and the relations built next can have it. */
static void fit(dl_terms *t)
{
  uint64_t n = fitted(t->n_syms);
  if (n < t->syms_cap) {
    t->name_off = cut(t->name_off, (size_t)n * sizeof *t->name_off);
    t->constant = cut(t->constant, (size_t)n * sizeof *t->constant);
    t->syms_cap = (uint32_t)n;
  }
  if ((n = fitted(t->n_terms)) < t->terms_cap) {
    t->rec = cut(t->rec, (size_t)n * sizeof *t->rec);
    t->depth = cut(t->depth, (size_t)n * sizeof *t->depth);
    t->terms_cap = (uint32_t)n;
  }
  if ((n = fitted(t->names_len)) < t->names_cap) {
    t->names = cut(t->names, (size_t)n);
    t->names_cap = (size_t)n;
  }
  if ((n = fitted(t->args_len)) < t->args_cap) {
    t->args = cut(t->args, (size_t)n * sizeof *t->args);
    t->args_cap = n;
  }
}

void dl_terms_done_reading(dl_terms *t)
{
  dl_grow_free(t->number_term);
  t->number_term = NULL;
  t->n_number_terms = 0;
  fit(t);
}

int64_t dl_terms_name_key(const char *z, size_t n) { return number_value(z, n); }

void dl_terms_prefetch_constant(const dl_terms *t, int64_t key)
{
  if (key >= 0 && key < t->n_number_terms) __builtin_prefetch(&t->number_term[key]);
}

dl_tid dl_terms_constant_named(dl_terms *t, const char *z, size_t n, int64_t key)
{
  assert(key == number_value(z, n));
  if (n >= UINT32_MAX / 2) return DL_NO_TERM;
  if (key >= 0 && key < t->n_number_terms && t->number_term[key]) return t->number_term[key] - 1;
  dl_sym s = symbol_of_value(t, z, n, key);
  dl_tid id = s == DL_NO_SYM ? DL_NO_TERM : dl_terms_constant(t, s);
  if (id != DL_NO_TERM && key >= 0 && !set_by_value(&t->number_term, &t->n_number_terms, (uint32_t)key, id + 1))
    return DL_NO_TERM;
  return id;
}

uint32_t dl_terms_count(const dl_terms *t) { return t->n_terms; }
dl_sym dl_terms_functor(const dl_terms *t, dl_tid id) { assert(id < t->n_terms); return t->rec[id].functor; }
uint32_t dl_terms_arity(const dl_terms *t, dl_tid id) { assert(id < t->n_terms); return t->rec[id].arity; }
const dl_tid *dl_terms_args(const dl_terms *t, dl_tid id) { assert(id < t->n_terms); return t->args + t->rec[id].arg_off; }

size_t dl_terms_bytes(const dl_terms *t)
{
  return t->names_cap + ((size_t)t->n_numbers + t->n_number_terms) * 4 + (size_t)t->syms_cap * 8 +
         ((size_t)t->sym_table.mask + 1) * 8 + (size_t)t->terms_cap * 18 + t->args_cap * 4 +
         ((size_t)t->term_table.mask + 1) * 8;
}
