/* output.c: terms, models and programs as text (see output.h). */
#include "datalog/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffer ------------------------------------------------------------------ */

void dl_buf_free(dl_buf *b)
{
  free(b->data);
  memset(b, 0, sizeof *b);
}

void dl_buf_add(dl_buf *b, const char *s, size_t n)
{
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char *q = realloc(b->data, cap);
    if (!q) { b->failed = 1; return; }
    b->data = q;
    b->cap = cap;
  }
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
  uint32_t *rank;    /* per term */
} term_texts;

static const char *g_text;     /* for the qsort comparator */
static const size_t *g_off;

static int by_text(const void *a, const void *b)
{
  return strcmp(g_text + g_off[*(const uint32_t *)a], g_text + g_off[*(const uint32_t *)b]);
}

static int texts_build(term_texts *tt, const dl_terms *terms, dl_format fmt)
{
  uint32_t n = dl_terms_count(terms);
  tt->off = malloc(((size_t)n + 1) * sizeof *tt->off);
  tt->rank = malloc(((size_t)n + 1) * sizeof *tt->rank);
  uint32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
  if (!tt->off || !tt->rank || !ids) { free(ids); return 0; }
  for (uint32_t t = 0; t < n; t++) {
    tt->off[t] = tt->text.len;
    dl_output_term(&tt->text, terms, t, fmt);
    dl_buf_add(&tt->text, "", 1);
    ids[t] = t;
  }
  if (tt->text.failed) { free(ids); return 0; }
  g_text = tt->text.data;
  g_off = tt->off;
  qsort(ids, n, sizeof *ids, by_text);
  for (uint32_t i = 0; i < n; i++) tt->rank[ids[i]] = i;
  free(ids);
  return 1;
}

static void texts_free(term_texts *tt)
{
  dl_buf_free(&tt->text);
  free(tt->off);
  free(tt->rank);
}

/* Sorting a relation: each column's values get a local rank (their order
 * among the column's values), packed into one 64-bit key when they fit. */
typedef struct sorter {
  uint32_t arity;
  const uint32_t *rank;  /* global term ranks */
  uint32_t *rows;        /* tuples, arity each */
} sorter;

static const sorter *g_sorter;

static int by_ranks(const void *a, const void *b)
{
  const uint32_t *x = g_sorter->rows + (size_t)*(const uint64_t *)a * g_sorter->arity;
  const uint32_t *y = g_sorter->rows + (size_t)*(const uint64_t *)b * g_sorter->arity;
  for (uint32_t c = 0; c < g_sorter->arity; c++) {
    uint32_t rx = g_sorter->rank[x[c]], ry = g_sorter->rank[y[c]];
    if (rx != ry) return rx < ry ? -1 : 1;
  }
  return 0;
}

static int by_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int by_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Writes atom `name(args)` for one tuple. */
static void add_atom(dl_buf *b, const char *name, size_t n, const uint32_t *tuple, uint32_t arity,
                     const term_texts *tt, dl_format fmt)
{
  if (arity && fmt == DL_FMT_KIF) dl_buf_add(b, "(", 1);
  dl_buf_add(b, name, n);
  for (uint32_t c = 0; c < arity; c++) {
    dl_buf_add(b, c == 0 ? (fmt == DL_FMT_KIF ? " " : "(") : (fmt == DL_FMT_KIF ? " " : ","), 1);
    dl_buf_addz(b, tt->text.data + tt->off[tuple[c]]);
  }
  if (arity) dl_buf_add(b, ")", 1);
  dl_buf_add(b, "\n", 1);
}

static int flush(FILE *out, dl_buf *b)
{
  if (b->failed) return 0;
  int ok = b->len == 0 || fwrite(b->data, 1, b->len, out) == b->len;
  b->len = 0;
  return ok;
}

enum { ROW_BITS = 24 };

/* Puts in keys[i] the row number i, and above it the tuple's columns as
 * local ranks (each value's place among its column's values).  Returns 1
 * when they fit 64 bits; 0 leaves only the row numbers. */
static int pack_ranks(const ix_relation *r, const term_texts *tt, const uint32_t *rows,
                      uint64_t *keys, uint32_t *scratch)
{
  uint32_t arity = ix_relation_arity(r), shift = ROW_BITS;
  uint64_t size = ix_relation_size(r);
  for (uint64_t i = 0; i < size; i++) keys[i] = i;
  if (size >= (1u << ROW_BITS)) return 0;
  for (uint32_t c = arity; c-- > 0;) {
    uint32_t nv = ix_relation_column_values(r, c), bits = 0;
    while (((uint64_t)1 << bits) < nv) bits++;
    if (shift + bits > 64) goto no_fit;
    uint32_t *ranks = malloc(((size_t)nv + 1) * sizeof *ranks);
    if (!ranks) goto no_fit;
    for (uint32_t k = 0; k < nv; k++) ranks[k] = tt->rank[ix_relation_column_value(r, c, k)];
    qsort(ranks, nv, sizeof *ranks, by_u32);
    for (uint32_t k = 0; k < nv; k++) scratch[ranks[k]] = k;  /* global rank -> local rank */
    free(ranks);
    for (uint64_t i = 0; i < size; i++) keys[i] |= (uint64_t)scratch[tt->rank[rows[i * arity + c]]] << shift;
    shift += bits;
  }
  return 1;
no_fit:
  for (uint64_t i = 0; i < size; i++) keys[i] = i;
  return 0;
}

static int write_relation(FILE *out, const char *name, size_t n, const ix_relation *r,
                          const term_texts *tt, dl_format fmt, uint32_t *scratch)
{
  uint32_t arity = ix_relation_arity(r);
  uint64_t size = ix_relation_size(r);
  sorter so = { arity, tt->rank, malloc((size ? size : 1) * (arity ? arity : 1) * sizeof(uint32_t)) };
  uint64_t *keys = malloc((size ? size : 1) * sizeof *keys);
  int ok = so.rows && keys;
  ix_iter it;
  ix_iter_begin(&it, r, 0, 0, NULL);
  for (uint64_t i = 0; ok && ix_iter_next(&it, so.rows + i * arity); i++) {}
  if (ok && arity > 0) {
    if (pack_ranks(r, tt, so.rows, keys, scratch)) {
      qsort(keys, size, sizeof *keys, by_u64);
      for (uint64_t i = 0; i < size; i++) keys[i] &= (1u << ROW_BITS) - 1;
    } else {
      g_sorter = &so;
      qsort(keys, size, sizeof *keys, by_ranks);
    }
  }
  dl_buf b = { 0 };
  for (uint64_t i = 0; ok && i < size; i++) {
    add_atom(&b, name, n, so.rows + keys[i] * arity, arity, tt, fmt);
    if (b.len > (1 << 20)) ok = flush(out, &b);
  }
  if (ok) ok = flush(out, &b);
  dl_buf_free(&b);
  free(so.rows);
  free(keys);
  return ok;
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
  uint32_t *scratch = malloc(((size_t)dl_terms_count(p->terms) + 1) * sizeof *scratch);
  int ok = order && scratch && texts_build(&tt, p->terms, fmt);
  for (uint32_t i = 0; i < p->n_preds; i++) order[i] = i;
  g_prog = p;
  if (ok) qsort(order, p->n_preds, sizeof *order, by_pred_name);
  dl_buf name = { 0 };
  for (uint32_t i = 0; ok && i < p->n_preds; i++) {
    uint32_t pr = order[i];
    if (skip && skip[pr]) continue;
    name.len = 0;
    add_name(&name, p->terms, p->preds[pr].name, fmt, 1);
    ok = !name.failed && write_relation(out, name.data, name.len, dl_eval_relation(e, pr), &tt, fmt, scratch);
  }
  dl_buf_free(&name);
  texts_free(&tt);
  free(order);
  free(scratch);
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
