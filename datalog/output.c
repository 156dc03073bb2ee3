/* output.c: terms, models and programs as text (see output.h). */
#include "datalog/output.h"

#include "index/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffer ------------------------------------------------------------------ */

void dl_buf_free(dl_buf *b)
{
  free(b->data);
  memset(b, 0, sizeof *b);
}

/* Makes room for n more bytes and a NUL; 0 when out of memory. */
static int buf_reserve(dl_buf *b, size_t n)
{
  if (b->failed) return 0;
  if (b->len + n + 1 <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + n + 1) cap *= 2;
  char *q = realloc(b->data, cap);
  if (!q) {
    b->failed = 1;
    return 0;
  }
  b->data = q;
  b->cap = cap;
  return 1;
}

void dl_buf_add(dl_buf *b, const char *s, size_t n)
{
  if (!buf_reserve(b, n)) return;
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void dl_buf_addz(dl_buf *b, const char *s) { dl_buf_add(b, s, strlen(s)); }

/* ---- names ------------------------------------------------------------------- */

static int is_asp_integer(const char *z, size_t n)
{
  if (n == 0 || n > 9) return 0;
  if (z[0] == '0') return n == 1;
  for (size_t i = 0; i < n; i++)
    if (z[i] < '0' || z[i] > '9') return 0;
  return 1;
}

static int is_asp_identifier(const char *z, size_t n)
{
  if (n == 0 || z[0] < 'a' || z[0] > 'z') return 0;
  if (n >= 2 && z[0] == 'x' && z[1] == '_') return 0;  /* reserved for mangled names */
  for (size_t i = 1; i < n; i++) {
    char c = z[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
  }
  return 1;
}

/* Appends a name; in ASP mangled unless it is a safe identifier (or, for a
 * constant, a small integer). */
static void add_name(dl_buf *b, const dl_terms *terms, dl_sym s, dl_format fmt, int is_functor)
{
  size_t n;
  const char *z = dl_terms_name(terms, s, &n);
  if (fmt != DL_FMT_ASP || is_asp_identifier(z, n) || (!is_functor && is_asp_integer(z, n))) {
    dl_buf_add(b, z, n);
    return;
  }
  static const char hex[] = "0123456789abcdef";
  dl_buf_add(b, "x_", 2);
  for (size_t i = 0; i < n; i++) {
    char h[2] = { hex[(unsigned char)z[i] >> 4], hex[(unsigned char)z[i] & 15] };
    dl_buf_add(b, h, 2);
  }
}

void dl_output_term(dl_buf *b, const dl_terms *terms, dl_tid t, dl_format fmt)
{
  uint32_t n = dl_terms_arity(terms, t);
  if (n == 0) {
    add_name(b, terms, dl_terms_functor(terms, t), fmt, 0);
    return;
  }
  const dl_tid *args = dl_terms_args(terms, t);
  if (fmt == DL_FMT_KIF) dl_buf_add(b, "(", 1);
  add_name(b, terms, dl_terms_functor(terms, t), fmt, 1);
  if (fmt != DL_FMT_KIF) dl_buf_add(b, "(", 1);
  for (uint32_t i = 0; i < n; i++) {
    if (i) dl_buf_add(b, fmt == DL_FMT_KIF ? " " : ",", 1);
    else if (fmt == DL_FMT_KIF) dl_buf_add(b, " ", 1);
    dl_output_term(b, terms, args[i], fmt);
  }
  dl_buf_add(b, ")", 1);
}

/* ---- model -------------------------------------------------------------------- */

/* Printed forms of all terms, and each term's rank in their byte order. */
typedef struct term_texts {
  dl_buf text;
  size_t *off;       /* per term: start of its text (NUL-terminated) */
  uint32_t *len;     /* per term: length of its text */
  uint32_t *rank;    /* per term */
} term_texts;

static const char *g_text;     /* for the qsort comparators below */
static const size_t *g_off;
static const uint32_t *g_rank;
static uint32_t g_arity;

static int by_text(const void *a, const void *b)
{
  return strcmp(g_text + g_off[*(const uint32_t *)a], g_text + g_off[*(const uint32_t *)b]);
}

static int by_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Compares two tuples (pointed to by row pointers) by the ranks of their terms. */
static int by_ranks(const void *a, const void *b)
{
  const dl_tid *x = *(const dl_tid *const *)a, *y = *(const dl_tid *const *)b;
  for (uint32_t c = 0; c < g_arity; c++)
    if (g_rank[x[c]] != g_rank[y[c]]) return g_rank[x[c]] < g_rank[y[c]] ? -1 : 1;
  return 0;
}

static int texts_build(term_texts *tt, const dl_terms *terms, dl_format fmt)
{
  uint32_t n = dl_terms_count(terms);
  tt->off = malloc(((size_t)n + 1) * sizeof *tt->off);
  tt->len = malloc(((size_t)n + 1) * sizeof *tt->len);
  tt->rank = malloc(((size_t)n + 1) * sizeof *tt->rank);
  uint32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
  int ok = tt->off && tt->len && tt->rank && ids;
  for (uint32_t t = 0; ok && t < n; t++) {
    tt->off[t] = tt->text.len;
    dl_output_term(&tt->text, terms, t, fmt);
    tt->len[t] = (uint32_t)(tt->text.len - tt->off[t]);
    dl_buf_add(&tt->text, "", 1);
    ids[t] = t;
  }
  ok = ok && !tt->text.failed;
  if (ok) {
    g_text = tt->text.data;
    g_off = tt->off;
    qsort(ids, n, sizeof *ids, by_text);
    for (uint32_t i = 0; i < n; i++) tt->rank[ids[i]] = i;
  }
  free(ids);
  return ok;
}

static void texts_free(term_texts *tt)
{
  dl_buf_free(&tt->text);
  free(tt->off);
  free(tt->len);
  free(tt->rank);
}

/* Appends `name(args)` (or `(name args)`) and a newline for one tuple. */
static void add_atom(dl_buf *b, const char *name, size_t n, const dl_tid *tuple, uint32_t arity,
                     const term_texts *tt, dl_format fmt)
{
  size_t need = n + 3 + arity;
  for (uint32_t c = 0; c < arity; c++) need += tt->len[tuple[c]];
  if (!buf_reserve(b, need)) return;
  char *w = b->data + b->len;
  int kif = fmt == DL_FMT_KIF;
  if (arity && kif) *w++ = '(';
  memcpy(w, name, n);
  w += n;
  for (uint32_t c = 0; c < arity; c++) {
    *w++ = kif ? ' ' : c == 0 ? '(' : ',';
    memcpy(w, tt->text.data + tt->off[tuple[c]], tt->len[tuple[c]]);
    w += tt->len[tuple[c]];
  }
  if (arity) *w++ = ')';
  *w++ = '\n';
  b->len = (size_t)(w - b->data);
}

static int flush(FILE *out, dl_buf *b)
{
  if (b->failed) return 0;
  int ok = b->len == 0 || fwrite(b->data, 1, b->len, out) == b->len;
  b->len = 0;
  return ok;
}

/* The values of one column in output order: a code's place among the
 * column's values, and the term at each place. */
typedef struct column_order {
  uint32_t *place_of_code;
  dl_tid *term_at;
  uint32_t bits;   /* bits for a place */
} column_order;

static int order_column(const ix_relation *r, uint32_t c, const term_texts *tt, column_order *co)
{
  uint32_t n = ix_relation_column_values(r, c);
  uint64_t *pairs = malloc(((size_t)n + 1) * sizeof *pairs);
  co->place_of_code = malloc(((size_t)n + 1) * sizeof(uint32_t));
  co->term_at = malloc(((size_t)n + 1) * sizeof(dl_tid));
  if (!pairs || !co->place_of_code || !co->term_at) { free(pairs); return 0; }
  for (uint32_t k = 0; k < n; k++) pairs[k] = (uint64_t)tt->rank[ix_relation_column_value(r, c, k)] << 32 | k;
  qsort(pairs, n, sizeof *pairs, by_u64);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t code = (uint32_t)pairs[i];
    co->place_of_code[code] = i;
    co->term_at[i] = ix_relation_column_value(r, c, code);
  }
  free(pairs);
  for (co->bits = 0; ((uint64_t)1 << co->bits) < n; co->bits++) {}
  return 1;
}

/* Writes a relation whose places pack into 64 bits: one key per tuple,
 * radix-sorted, decoded back into terms. */
static int write_packed(FILE *out, dl_buf *b, const char *name, size_t n, const ix_relation *r,
                        const column_order *co, uint32_t bits, const term_texts *tt, dl_format fmt)
{
  uint32_t arity = ix_relation_arity(r);
  uint64_t size = ix_relation_size(r);
  uint64_t *keys = malloc((size ? size : 1) * sizeof *keys);
  if (!keys) return 0;
  uint32_t codes[IX_MAX_ARITY];
  dl_tid tuple[IX_MAX_ARITY];
  ix_iter it;
  ix_iter_begin(&it, r, 0, 0, NULL);
  for (uint64_t i = 0; i < size && ix_iter_next_codes(&it, codes); i++) {
    uint64_t k = 0;
    for (uint32_t c = 0; c < arity; c++) k = k << co[c].bits | co[c].place_of_code[codes[c]];
    keys[i] = k;
  }
  int ok = ix_radix_sort(keys, size, bits);
  for (uint64_t i = 0; ok && i < size; i++) {
    uint64_t k = keys[i];
    for (uint32_t c = arity; c-- > 0;) {
      tuple[c] = co[c].term_at[k & (((uint64_t)1 << co[c].bits) - 1)];
      k = co[c].bits >= 64 ? 0 : k >> co[c].bits;
    }
    add_atom(b, name, n, tuple, arity, tt, fmt);
    if (b->len > (1 << 20)) ok = flush(out, b);
  }
  free(keys);
  return ok;
}

/* Writes any relation: rows of term ids sorted with a comparator. */
static int write_rows(FILE *out, dl_buf *b, const char *name, size_t n, const ix_relation *r,
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
  g_rank = tt->rank;
  g_arity = arity;
  if (ok) qsort(order, size, sizeof *order, by_ranks);
  for (uint64_t i = 0; ok && i < size; i++) {
    add_atom(b, name, n, order[i], arity, tt, fmt);
    if (b->len > (1 << 20)) ok = flush(out, b);
  }
  free(rows);
  free(order);
  return ok;
}

static int write_relation(FILE *out, dl_buf *b, const char *name, size_t n, const ix_relation *r,
                          const term_texts *tt, dl_format fmt)
{
  uint32_t arity = ix_relation_arity(r), bits = 0;
  column_order co[IX_MAX_ARITY];
  memset(co, 0, sizeof co);
  int ok = 1;
  for (uint32_t c = 0; ok && c < arity; c++) {
    ok = order_column(r, c, tt, &co[c]);
    bits += co[c].bits;
  }
  if (ok) ok = bits <= 64 ? write_packed(out, b, name, n, r, co, bits, tt, fmt)
                          : write_rows(out, b, name, n, r, tt, fmt);
  for (uint32_t c = 0; c < arity; c++) {
    free(co[c].place_of_code);
    free(co[c].term_at);
  }
  return ok && flush(out, b);
}

static const dl_program *g_prog;

static int by_pred_name(const void *a, const void *b)
{
  return strcmp(dl_program_pred_name(g_prog, *(const uint32_t *)a),
                dl_program_pred_name(g_prog, *(const uint32_t *)b));
}

int dl_output_model(FILE *out, const dl_program *p, const dl_eval *e, dl_format fmt, const uint8_t *skip)
{
  term_texts tt = { 0 };
  uint32_t *order = malloc(((size_t)p->n_preds + 1) * sizeof *order);
  int ok = order && texts_build(&tt, p->terms, fmt);
  for (uint32_t i = 0; ok && i < p->n_preds; i++) order[i] = i;
  g_prog = p;
  if (ok) qsort(order, p->n_preds, sizeof *order, by_pred_name);
  dl_buf name = { 0 }, b = { 0 };
  for (uint32_t i = 0; ok && i < p->n_preds; i++) {
    uint32_t pr = order[i];
    if (skip && skip[pr]) continue;
    name.len = 0;
    add_name(&name, p->terms, p->preds[pr].name, fmt, 1);
    ok = !name.failed && write_relation(out, &b, name.data, name.len, dl_eval_relation(e, pr), &tt, fmt);
  }
  dl_buf_free(&name);
  dl_buf_free(&b);
  texts_free(&tt);
  free(order);
  return ok;
}

/* ---- program -------------------------------------------------------------------- */

static void add_var(dl_buf *b, const dl_program *p, const dl_rule *r, uint32_t v, dl_format fmt)
{
  char tmp[32];
  if (fmt == DL_FMT_ASP) {
    snprintf(tmp, sizeof tmp, "V%u", v);
    dl_buf_addz(b, tmp);
    return;
  }
  size_t n;
  const char *z = dl_terms_name(p->terms, r->var_names[v], &n);
  if (fmt == DL_FMT_KIF && z[0] != '?') dl_buf_add(b, "?", 1);
  if (fmt == DL_FMT_INFIX && z[0] == '?') {
    snprintf(tmp, sizeof tmp, "V%u", v);
    dl_buf_addz(b, tmp);
    return;
  }
  dl_buf_add(b, z, n);
}

static void add_ast_term(dl_buf *b, const dl_program *p, const dl_rule *r, const ast_term *t, dl_format fmt)
{
  if (t->kind == AST_VAR) {
    add_var(b, p, r, t->value, fmt);
    return;
  }
  if (t->kind == AST_SYM) {
    add_name(b, p->terms, t->value, fmt, 0);
    return;
  }
  if (fmt == DL_FMT_KIF) dl_buf_add(b, "(", 1);
  add_name(b, p->terms, t->value, fmt, 1);
  dl_buf_add(b, fmt == DL_FMT_KIF ? " " : "(", 1);
  for (uint32_t i = 0; i < t->n; i++) {
    if (i) dl_buf_add(b, fmt == DL_FMT_KIF ? " " : ",", 1);
    add_ast_term(b, p, r, t->args[i], fmt);
  }
  dl_buf_add(b, ")", 1);
}

/* An atom in a rule: in ASP and infix the predicate name is a functor. */
static void add_ast_atom(dl_buf *b, const dl_program *p, const dl_rule *r, const ast_term *a, dl_format fmt)
{
  if (a->kind == AST_SYM) add_name(b, p->terms, a->value, fmt, 1);
  else add_ast_term(b, p, r, a, fmt);
}

static void add_literal(dl_buf *b, const dl_program *p, const dl_rule *r, const dl_literal *l, dl_format fmt)
{
  int kif = fmt == DL_FMT_KIF;
  switch (l->kind) {
  case DL_POS:
    add_ast_atom(b, p, r, l->atom, fmt);
    break;
  case DL_NEG:
    dl_buf_addz(b, kif ? "(not " : fmt == DL_FMT_ASP ? "not " : "~");
    add_ast_atom(b, p, r, l->atom, fmt);
    if (kif) dl_buf_add(b, ")", 1);
    break;
  case DL_DISTINCT:
  case DL_EQUAL:
    if (fmt == DL_FMT_ASP) {
      add_ast_term(b, p, r, l->a, fmt);
      dl_buf_addz(b, l->kind == DL_DISTINCT ? " != " : " = ");
      add_ast_term(b, p, r, l->b, fmt);
      break;
    }
    if (l->kind == DL_EQUAL) dl_buf_addz(b, kif ? "(not " : "~");
    dl_buf_addz(b, kif ? "(distinct " : "distinct(");
    add_ast_term(b, p, r, l->a, fmt);
    dl_buf_addz(b, kif ? " " : ",");
    add_ast_term(b, p, r, l->b, fmt);
    dl_buf_add(b, ")", 1);
    if (l->kind == DL_EQUAL && kif) dl_buf_add(b, ")", 1);
    break;
  }
}

static void add_rule(dl_buf *b, const dl_program *p, const dl_rule *r, dl_format fmt)
{
  int kif = fmt == DL_FMT_KIF;
  if (kif && r->n_body) dl_buf_addz(b, "(<= ");
  add_ast_atom(b, p, r, r->head, fmt);
  for (uint32_t k = 0; k < r->n_body; k++) {
    dl_buf_addz(b, kif ? "\n    " : k == 0 ? " :- " : fmt == DL_FMT_ASP ? ", " : " & ");
    add_literal(b, p, r, &r->body[k], fmt);
  }
  if (kif) dl_buf_addz(b, r->n_body ? ")\n" : "\n");
  else dl_buf_addz(b, ".\n");
}

int dl_output_program(FILE *out, const dl_program *p, dl_format fmt)
{
  dl_buf b = { 0 };
  int ok = 1;
  for (uint32_t r = 0; ok && r < p->ast->n_rules; r++) {
    add_rule(&b, p, &p->ast->rules[r], fmt);
    if (b.len > (1 << 20)) ok = flush(out, &b);
  }
  if (ok) ok = flush(out, &b);
  dl_buf_free(&b);
  return ok;
}
