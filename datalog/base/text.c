/* text.c: ground terms as text in the syntaxes gdlog reads back (see
 * text.h). */
#include "datalog/base/text.h"
#include "datalog/base/text_impl.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------------- */

/* [A-Za-z0-9_]: a character of an identifier after its first. */
static int is_word_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

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
  if (n == 3 && memcmp(z, "not", 3) == 0) return 0;    /* a keyword of ASP */
  for (size_t i = 1; i < n; i++)
    if (!is_word_char(z[i])) return 0;
  return 1;
}

static int is_word(const char *z, size_t n, const char *word)
{
  return strlen(word) == n && memcmp(z, word, n) == 0;
}

/* True when z[0..n) reads back as itself unquoted in infix: [a-z0-9]
 * [A-Za-z0-9_]*, and, as a functor (where a literal may start), not the
 * keyword not or distinct. */
static int is_infix_symbol(const char *z, size_t n, int is_functor)
{
  if (n == 0 || !((z[0] >= 'a' && z[0] <= 'z') || (z[0] >= '0' && z[0] <= '9'))) return 0;
  for (size_t i = 1; i < n; i++)
    if (!is_word_char(z[i])) return 0;
  return !is_functor || !(is_word(z, n, "not") || is_word(z, n, "distinct"));
}

/* True when z[0..n) reads back as itself unquoted in KIF: KIF's symbol
 * characters, no upper case (KIF lower-cases), not starting with the quote
 * |, and, as a functor, neither a keyword nor holding what the reader takes
 * for infix at the top level (',' '&' ':-'). */
static int is_kif_char(char c)
{
  static const char punct[] = "_-+.*/<>=!$%&^~:'@#|[]{},\\`";
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c != 0 && strchr(punct, c));
}

int dl_text_is_kif_symbol(const char *z, size_t n, int is_functor)
{
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++)  /* a bar or a comma would make a state's text read as another syntax */
    if (!is_kif_char(z[i]) || z[i] == '|' || z[i] == ',') return 0;
  if (!is_functor) return 1;
  static const char keywords[][9] = { "not", "or", "and", "distinct", "<=" };
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (is_word(z, n, keywords[i])) return 0;
  for (size_t i = 0; i < n; i++)
    if (z[i] == ',' || z[i] == '&' || (z[i] == ':' && i + 1 < n && z[i + 1] == '-')) return 0;
  return 1;
}

/* Appends z[0..n) between quotes q, escaping q and backslash. */
static void add_quoted(dl_buf *b, const char *z, size_t n, char q)
{
  dl_buf_add(b, &q, 1);
  for (size_t i = 0; i < n; i++) {
    if (z[i] == q || z[i] == '\\') dl_buf_add(b, "\\", 1);
    dl_buf_add(b, z + i, 1);
  }
  dl_buf_add(b, &q, 1);
}

/* True when a text starting with KIF name z[0..n) would read as another
 * syntax (dl_parse_guess_syntax): a name starting with ' (infix) or #
 * (gringo's), or whose leading letters, digits and underscores are followed
 * by '.', '&', ':-' or '<=' (`ckne.`, `a.b`: an infix fact or rule). */
static int kif_name_sniffs_other(const char *z, size_t n)
{
  if (z[0] == '\'' || z[0] == '#') return 1;
  size_t i = 0;
  while (i < n && is_word_char(z[i])) i++;
  if (i == 0 || i == n) return 0;
  char c = z[i], d = i + 1 < n ? z[i + 1] : 0;
  return c == '.' || c == '&' || (c == ':' && d == '-') || (c == '<' && d == '=');
}

/* Appends a name so that it reads back as itself: in infix quoted 'like
 * this' and in KIF |like this| unless it is a plain symbol there; in ASP
 * mangled unless it is a safe identifier (or, for a constant, a small
 * integer). */
void dl_text_add_name(dl_buf *b, const dl_terms *terms, dl_sym s, dl_format fmt, int is_functor)
{
  size_t n;
  const char *z = dl_terms_name(terms, s, &n);
  if (fmt == DL_FMT_INFIX || fmt == DL_FMT_KIF) {
    /* A KIF name that would make a text starting with it read as another
     * syntax is quoted too: a state is written one fluent a line, and its
     * first line may be that name. */
    int plain = fmt == DL_FMT_INFIX ? is_infix_symbol(z, n, is_functor)
                                    : dl_text_is_kif_symbol(z, n, is_functor) && !kif_name_sniffs_other(z, n);
    if (plain) dl_buf_add(b, z, n);
    else add_quoted(b, z, n, fmt == DL_FMT_INFIX ? '\'' : '|');
    return;
  }
  if (is_asp_identifier(z, n) || (!is_functor && is_asp_integer(z, n))) {
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
    dl_text_add_name(b, terms, dl_terms_functor(terms, t), fmt, 0);
    return;
  }
  const dl_tid *args = dl_terms_args(terms, t);
  if (fmt == DL_FMT_KIF) dl_buf_add(b, "(", 1);
  dl_text_add_name(b, terms, dl_terms_functor(terms, t), fmt, 1);
  if (fmt != DL_FMT_KIF) dl_buf_add(b, "(", 1);
  for (uint32_t i = 0; i < n; i++) {
    if (i) dl_buf_add(b, fmt == DL_FMT_KIF ? " " : ",", 1);
    else if (fmt == DL_FMT_KIF) dl_buf_add(b, " ", 1);
    dl_output_term(b, terms, args[i], fmt);
  }
  dl_buf_add(b, ")", 1);
}

/* ---- term texts, each made once ---------------------------------------------- */


dl_term_texts *dl_term_texts_create(const dl_terms *terms, dl_format fmt)
{
  assert(terms);
  dl_term_texts *tt = calloc(1, sizeof *tt);
  if (!tt) return NULL;
  tt->terms = terms;
  tt->fmt = fmt;
  tt->n = dl_terms_count(terms);
  tt->off = malloc(((size_t)tt->n + 1) * sizeof *tt->off);
  tt->len = malloc(((size_t)tt->n + 1) * sizeof *tt->len);
  tt->n_syms = dl_terms_symbol_count(terms);
  if (!tt->off || !tt->len) {
    dl_term_texts_destroy(tt);
    return NULL;
  }
  memset(tt->off, 0xff, ((size_t)tt->n + 1) * sizeof *tt->off);
  return tt;
}

void dl_term_texts_destroy(dl_term_texts *tt)
{
  if (!tt) return;
  dl_buf_free(&tt->text);
  dl_buf_free(&tt->names);
  free(tt->off);
  free(tt->len);
  free(tt->name_off);
  free(tt->name_len);
  free(tt);
}

/* The name of symbol f as written in tt's format as a functor, made once;
 * NULL when out of memory. */
static const char *functor_name(dl_term_texts *tt, dl_sym f, size_t *len)
{
  assert(f < tt->n_syms);
  if (!tt->name_off) {
    size_t *off = malloc(((size_t)tt->n_syms + 1) * sizeof *off);
    uint32_t *n = malloc(((size_t)tt->n_syms + 1) * sizeof *n);
    if (!off || !n) {  /* neither is kept: a later call tries again */
      free(off);
      free(n);
      return NULL;
    }
    memset(off, 0xff, ((size_t)tt->n_syms + 1) * sizeof *off);
    tt->name_off = off;
    tt->name_len = n;
  }
  if (tt->name_off[f] == SIZE_MAX) {
    size_t start = tt->names.len;
    dl_text_add_name(&tt->names, tt->terms, f, tt->fmt, 1);
    if (tt->names.failed) return NULL;
    tt->name_off[f] = start;
    tt->name_len[f] = (uint32_t)(tt->names.len - start);
  }
  *len = tt->name_len[f];
  return tt->names.data + tt->name_off[f];
}

/* Makes the text of constant t, its symbol's name; 0 when out of memory. */
static int make_constant(dl_term_texts *tt, dl_tid t)
{
  size_t start = tt->text.len;
  dl_text_add_name(&tt->text, tt->terms, dl_terms_functor(tt->terms, t), tt->fmt, 0);
  if (tt->text.failed || tt->text.len - start > UINT32_MAX) return 0;
  tt->off[t] = start;
  tt->len[t] = (uint32_t)(tt->text.len - start);
  return 1;
}

/* Makes the text of t from its functor's name and its arguments' texts
 * (made first); 0 when out of memory. */
int dl_term_texts_make(dl_term_texts *tt, dl_tid t)
{
  if (tt->off[t] != SIZE_MAX) return 1;
  uint32_t n = dl_terms_arity(tt->terms, t);
  if (n == 0) return make_constant(tt, t);
  const dl_tid *args = dl_terms_args(tt->terms, t);
  size_t need = 2 + n;
  for (uint32_t i = 0; i < n; i++) {
    if (!dl_term_texts_make(tt, args[i])) return 0;
    need += tt->len[args[i]];
  }
  size_t name_len;
  const char *name = functor_name(tt, dl_terms_functor(tt->terms, t), &name_len);
  if (!name || need + name_len > UINT32_MAX || !dl_buf_reserve(&tt->text, need + name_len)) return 0;
  int kif = tt->fmt == DL_FMT_KIF;
  char *w = tt->text.data + tt->text.len;
  if (kif) *w++ = '(';
  memcpy(w, name, name_len);
  w += name_len;
  for (uint32_t i = 0; i < n; i++) {
    *w++ = kif ? ' ' : i == 0 ? '(' : ',';
    memcpy(w, tt->text.data + tt->off[args[i]], tt->len[args[i]]);
    w += tt->len[args[i]];
  }
  *w++ = ')';
  tt->off[t] = tt->text.len;
  tt->len[t] = (uint32_t)((size_t)(w - tt->text.data) - tt->text.len);
  tt->text.len += tt->len[t];
  return 1;
}

const char *dl_term_texts_get(dl_term_texts *tt, dl_tid t, size_t *len)
{
  assert(tt && len && t < tt->n);
  if (tt->off[t] == SIZE_MAX && !dl_term_texts_make(tt, t)) return NULL;  /* most are made: no call */
  *len = tt->len[t];
  return tt->text.data + tt->off[t];
}

