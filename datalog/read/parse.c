/* parse.c: KIF and infix parsers (see parse.h).  Each parse function begins
 * with its grammar rule.  Functions return NULL after reporting an error; the
 * first error ends the parse. */
#include "datalog/read/parse.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAST_MAX_ARITY = 32 };

/* The names of a fact pred(c1, ..., cn). */
typedef struct fact_text {
  uint32_t off[FAST_MAX_ARITY + 1], len[FAST_MAX_ARITY + 1];  /* [0]: pred */
  int64_t key[FAST_MAX_ARITY + 1];                             /* dl_terms_name_key, [1..n) */
  uint32_t n;                                                  /* names, pred included */
  uint32_t end;                                                /* after the '.' */
} fact_text;

typedef struct parser {
  lx_lexer lx;
  lx_token tok;             /* current token */
  ast_program *prog;
  dl_terms *terms;
  const dl_source *src;
  dl_diag *diag;
  unsigned depth;           /* nesting of terms and literals */
  unsigned parens;          /* open parentheses (infix: newlines inside are blanks) */
  uint32_t n_lits;          /* literals of the current clause */
  /* variables of the current clause, keyed by the symbol of their name */
  uint32_t stamp;           /* clause number + 1 */
  uint32_t *var_stamp, *var_index, var_cap;
  dl_sym *vars;
  uint32_t n_vars, vars_cap;
  /* a stack of nodes under construction, shared by nested calls */
  void **stack;
  uint32_t n_stack, stack_cap;
  char *lower;              /* buffer for lower-casing KIF names */
  size_t lower_cap;
  dl_tid *args;             /* the term ids of a fact's arguments */
  uint32_t args_cap;
  uint32_t taken_off, taken_len, taken_arity;  /* the last fact fast_fact took: its */
  dl_sym taken_pred;                           /*   predicate's name in the text, arity, symbol */
  fact_text ahead;          /* the fact after the last one fast_fact took, */
  uint32_t ahead_at;        /*   scanned at this offset (UINT32_MAX: none) */
  dl_sym kw_rule, kw_not, kw_or, kw_and, kw_distinct;
  dl_arena_mark clause_start;  /* the arena before the current clause */
} parser;

/* ---- helpers -------------------------------------------------------------- */

static void *fail(parser *ps, uint32_t off, const char *fmt, const char *arg)
{
  dl_diag_report(ps->diag, DL_ERROR, ps->src, off, fmt, arg);
  return NULL;
}

static void *out_of_memory(parser *ps)
{
  dl_diag_fail(ps->diag, DL_CAUSE_NOMEM, "out of memory while parsing %s", ps->src->name);
  return NULL;
}

static void advance(parser *ps)
{
  do {
    ps->tok = lx_next(&ps->lx);
  } while (ps->tok.kind == LX_NEWLINE && ps->parens > 0);
}

/* True when the first KiB of the text has many bytes no text file has. */
static int looks_binary(const dl_source *src)
{
  uint32_t n = src->len < 1024 ? src->len : 1024, odd = 0;
  for (uint32_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)src->text[i];
    odd += (c < 32 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 127;
  }
  return odd * 10 > n;
}

/* Reports a lexical error token; returns NULL. */
static void *bad_token(parser *ps)
{
  const lx_token t = ps->tok;
  const unsigned char c = (unsigned char)ps->src->text[t.off];
  char what[64];
  switch (t.kind) {
  case LX_BAD_NUL:
    if (looks_binary(ps->src)) return fail(ps, t.off, "%s", "NUL byte: this looks like a binary file, not GDL text");
    return fail(ps, t.off, "%s", "NUL byte in the input: this is not a text file");
  case LX_BAD_VAR:
    return fail(ps, t.off, "%s", "'?' must be followed by a variable name");
  case LX_BAD_COMMENT:
    return fail(ps, t.off, "%s", "unterminated block comment");
  case LX_BAD_QUOTE:
    return fail(ps, t.off, "%s", "unterminated quoted symbol: the closing quote must be on the same line");
  default:
    if (c >= 0x80) snprintf(what, sizeof what, "byte 0x%02X (only ASCII is allowed outside comments)", c);
    else if (c < 32 || c == 127) snprintf(what, sizeof what, "control character 0x%02X", c);
    else snprintf(what, sizeof what, "character '%c'", c);
    if (looks_binary(ps->src)) return fail(ps, t.off, "unexpected %s: this looks like a binary file, not GDL text", what);
    if (ps->lx.syntax != LX_KIF && c == ';')
      return fail(ps, t.off, "unexpected %s: ';' starts a comment in KIF, not in infix (try --syntax kif)", what);
    if (ps->lx.syntax == LX_INFIX && c == '#')
      return fail(ps, t.off, "unexpected %s: '#' starts a directive of gringo's syntax (try --syntax asp)", what);
    return fail(ps, t.off, "unexpected %s", what);
  }
}

static int is_bad(lx_kind k) { return k >= LX_BAD_BYTE; }

/* Reports that something else was expected here; returns NULL. */
static void *expected(parser *ps, const char *what)
{
  if (is_bad(ps->tok.kind)) return bad_token(ps);
  char buf[200];
  if (ps->tok.kind == LX_SYMBOL || ps->tok.kind == LX_QSYMBOL || ps->tok.kind == LX_VARIABLE ||
      ps->tok.kind == LX_DIRECTIVE) {
    int n = ps->tok.len > 40 ? 40 : (int)ps->tok.len;
    snprintf(buf, sizeof buf, "expected %s, found %s '%.*s%s'", what, lx_kind_name(ps->tok.kind),
             n, ps->src->text + ps->tok.off, ps->tok.len > 40 ? "..." : "");
  } else {
    snprintf(buf, sizeof buf, "expected %s, found %s", what, lx_kind_name(ps->tok.kind));
  }
  return fail(ps, ps->tok.off, "%s", buf);
}

static int push(parser *ps, void *node)
{
  if (ps->n_stack == ps->stack_cap) {
    uint32_t cap = ps->stack_cap ? ps->stack_cap * 2 : 64;
    void **q = realloc(ps->stack, cap * sizeof *q);
    if (!q) return 0;
    ps->stack = q;
    ps->stack_cap = cap;
  }
  ps->stack[ps->n_stack++] = node;
  return 1;
}

/* Moves the nodes pushed since mark into a new arena array. */
static void **pop_since(parser *ps, uint32_t mark)
{
  uint32_t n = ps->n_stack - mark;
  void **a = dl_arena_alloc(ps->prog->arena, (n ? n : 1) * sizeof *a);
  if (!a) return NULL;
  if (n) memcpy(a, ps->stack + mark, n * sizeof *a);
  ps->n_stack = mark;
  return a;
}

/* Makes ps->lower hold at least n bytes; 0 when out of memory. */
static int scratch(parser *ps, size_t n)
{
  if (n <= ps->lower_cap) return 1;
  char *q = realloc(ps->lower, n);
  if (!q) return 0;
  ps->lower = q;
  ps->lower_cap = n;
  return 1;
}

static int hex_digit(char c)
{
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* True when z[0..n) is a name that gdlog's ASP output mangled: x_ and hex. */
static int is_mangled(const char *z, size_t n)
{
  return n >= 2 && z[0] == 'x' && z[1] == '_';
}

/* Decodes the mangled ASP name z[0..n) into ps->lower; its length, or -1
 * when it is not x_ followed by pairs of lower-case hex digits of printable
 * ASCII bytes. */
static long unmangle(parser *ps, const char *z, size_t n)
{
  if (n < 4 || n % 2 || !scratch(ps, n)) return -1;
  long k = 0;
  for (size_t i = 2; i < n; i += 2) {
    int hi = hex_digit(z[i]), lo = hex_digit(z[i + 1]);
    if (hi < 0 || lo < 0 || hi * 16 + lo < 0x20 || hi * 16 + lo > 0x7e) return -1;
    ps->lower[k++] = (char)(hi * 16 + lo);
  }
  return k;
}

/* Interns the current symbol token's name: lower-cased in KIF, unquoted
 * when quoted, decoded when a mangled ASP name (the caller has checked it
 * with check_symbol). */
static dl_sym intern_token(parser *ps)
{
  const char *z = ps->src->text + ps->tok.off;
  size_t n = ps->tok.len;
  if (ps->tok.kind == LX_QSYMBOL) {
    if (!scratch(ps, n)) return DL_NO_SYM;
    return dl_terms_symbol(ps->terms, ps->lower, lx_unquote(z, n, ps->lower));
  }
  if (ps->lx.syntax == LX_ASP && ps->tok.kind == LX_SYMBOL && is_mangled(z, n)) {
    long k = unmangle(ps, z, n);
    return k < 0 ? DL_NO_SYM : dl_terms_symbol(ps->terms, ps->lower, (size_t)k);
  }
  if (ps->lx.syntax != LX_KIF) return dl_terms_symbol(ps->terms, z, n);
  if (!scratch(ps, n)) return DL_NO_SYM;
  for (size_t i = 0; i < n; i++) ps->lower[i] = (char)tolower((unsigned char)z[i]);
  return dl_terms_symbol(ps->terms, ps->lower, n);
}

/* True when the current token is a name: a symbol or a quoted symbol. */
static int at_name(const parser *ps)
{
  return ps->tok.kind == LX_SYMBOL || ps->tok.kind == LX_QSYMBOL;
}

/* Checks the name token before it is interned: a quoted symbol must not be
 * empty, and an ASP name starting x_ must decode.  0 after reporting. */
static int check_symbol(parser *ps)
{
  const char *z = ps->src->text + ps->tok.off;
  if (ps->tok.kind == LX_QSYMBOL && ps->tok.len == 2) return !!fail(ps, ps->tok.off, "%s", "empty quoted symbol");
  if (ps->lx.syntax == LX_ASP && ps->tok.kind == LX_SYMBOL && is_mangled(z, ps->tok.len) &&
      unmangle(ps, z, ps->tok.len) < 0)
    return !!fail(ps, ps->tok.off, "%s",
                  "a name starting with x_ must be x_ and the lower-case hex of printable ASCII bytes "
                  "(gdlog's ASP mangling)");
  return 1;
}

/* The keyword the current token spells (its symbol), or DL_NO_SYM when it is
 * no bare symbol: quoted and mangled names are never keywords. */
static dl_sym keyword(parser *ps)
{
  if (ps->tok.kind != LX_SYMBOL) return DL_NO_SYM;
  if (ps->lx.syntax == LX_ASP && is_mangled(ps->src->text + ps->tok.off, ps->tok.len)) return DL_NO_SYM;
  return intern_token(ps);
}

static ast_term *new_term(parser *ps, ast_term_kind kind, uint32_t off, uint32_t value)
{
  ast_term *t = dl_arena_alloc(ps->prog->arena, sizeof *t);
  if (!t) return out_of_memory(ps);
  t->kind = (uint8_t)kind;
  t->off = off;
  t->value = value;
  return t;
}

/* A new AST_SYM term of the current name token (not yet advanced over). */
static ast_term *name_term(parser *ps, uint32_t off)
{
  if (!check_symbol(ps)) return NULL;
  dl_sym s = intern_token(ps);
  if (s == DL_NO_SYM) return out_of_memory(ps);
  return new_term(ps, AST_SYM, off, s);
}

static ast_lit *new_lit(parser *ps, ast_lit_kind kind, uint32_t off)
{
  if (++ps->n_lits > DL_MAX_LITERALS)
    return fail(ps, off, "more than %s literals in one rule (gdlog's limit)", "1000");
  ast_lit *l = dl_arena_alloc(ps->prog->arena, sizeof *l);
  if (!l) return out_of_memory(ps);
  l->kind = (uint8_t)kind;
  l->off = off;
  return l;
}

static int enter(parser *ps)
{
  if (++ps->depth <= DL_MAX_NESTING) return 1;
  fail(ps, ps->tok.off, "nesting deeper than %s levels", "1000");
  return 0;
}

/* ---- variables ------------------------------------------------------------ */

static void begin_clause(parser *ps)
{
  ps->clause_start = dl_arena_get_mark(ps->prog->arena);
  ps->stamp++;
  ps->n_vars = 0;
  ps->n_lits = 0;
}

/* The index of the variable named by the current token in this clause. */
static int variable_index(parser *ps, uint32_t *index)
{
  const char *z = ps->src->text + ps->tok.off;
  dl_sym s = intern_token(ps);
  if (s == DL_NO_SYM) return !!out_of_memory(ps);
  int anonymous = ps->lx.syntax == LX_INFIX && ps->tok.len == 1 && z[0] == '_';
  if (s >= ps->var_cap) {
    uint32_t cap = ps->var_cap ? ps->var_cap : 256;
    while (cap <= s) cap *= 2;
    uint32_t *st = realloc(ps->var_stamp, cap * sizeof *st);
    if (st) ps->var_stamp = st;
    uint32_t *ix = realloc(ps->var_index, cap * sizeof *ix);
    if (ix) ps->var_index = ix;
    if (!st || !ix) return !!out_of_memory(ps);
    memset(ps->var_stamp + ps->var_cap, 0, (cap - ps->var_cap) * sizeof *st);
    ps->var_cap = cap;
  }
  if (!anonymous && ps->var_stamp[s] == ps->stamp) {
    *index = ps->var_index[s];
    return 1;
  }
  if (ps->n_vars == DL_MAX_VARIABLES) {
    fail(ps, ps->tok.off, "more than %s variables in one rule (gdlog's limit)", "10000");
    return 0;
  }
  if (ps->n_vars == ps->vars_cap) {
    uint32_t cap = ps->vars_cap ? ps->vars_cap * 2 : 16;
    dl_sym *q = realloc(ps->vars, cap * sizeof *q);
    if (!q) return !!out_of_memory(ps);
    ps->vars = q;
    ps->vars_cap = cap;
  }
  ps->var_stamp[s] = ps->stamp;
  ps->var_index[s] = ps->n_vars;
  ps->vars[ps->n_vars] = s;
  *index = ps->n_vars++;
  return 1;
}

/* Makes ps->args hold at least n term ids; 0 when out of memory. */
static int reserve_args(parser *ps, uint32_t n)
{
  if (n <= ps->args_cap) return 1;
  dl_tid *q = realloc(ps->args, n * sizeof *q);
  if (!q) return 0;
  ps->args = q;
  ps->args_cap = n;
  return 1;
}

/* Gives the ground fact head (AST_FUN) to the program's take_fact; 0 when
 * out of memory. */
static int take_fact(parser *ps, const ast_term *head, uint32_t off)
{
  if (!reserve_args(ps, head->n)) return 0;
  for (uint32_t i = 0; i < head->n; i++)
    if ((ps->args[i] = ast_ground_term(ps->terms, head->args[i])) == DL_NO_TERM) return 0;
  return ps->prog->take_fact(ps->prog->take_ctx, head->value, head->n, ps->args, ps->src, off);
}

/* Finishes a clause: copies its variable names and stores it, or gives a
 * ground fact to the program's take_fact. */
static int end_clause(parser *ps, ast_term *head, uint32_t mark, uint32_t off)
{
  ast_program *prog = ps->prog;
  if (prog->takes_fact && ps->n_stack == mark && ps->n_vars == 0 && head->kind == AST_FUN &&
      prog->takes_fact(prog->take_ctx, head->value, head->n)) {
    if (!take_fact(ps, head, off)) return !!out_of_memory(ps);
    dl_arena_release(prog->arena, ps->clause_start);
    return 1;
  }
  ast_clause *c = dl_arena_alloc(ps->prog->arena, sizeof *c);
  if (!c) return 0;
  c->head = head;
  c->n_body = ps->n_stack - mark;
  c->body = (ast_lit **)pop_since(ps, mark);
  c->n_vars = ps->n_vars;
  c->var_names = dl_arena_alloc(ps->prog->arena, (ps->n_vars + 1) * sizeof(dl_sym));
  if (!c->body || !c->var_names) return 0;
  if (ps->n_vars) memcpy(c->var_names, ps->vars, ps->n_vars * sizeof(dl_sym));
  c->src = ps->src;
  c->off = off;
  return ast_program_add_clause(ps->prog, c);
}

/* ---- KIF ------------------------------------------------------------------- */

static ast_term *kif_term(parser *ps);

static void *kif_term_item(parser *ps) { return kif_term(ps); }

/* Reads items up to the ')' that closes the '(' at open_off, into a new
 * arena array; their count through *n.  NULL after reporting an error. */
static void **until_close(parser *ps, uint32_t open_off, uint32_t *n, void *(*item)(parser *))
{
  uint32_t mark = ps->n_stack;
  while (ps->tok.kind != LX_RPAREN) {
    if (ps->tok.kind == LX_EOF) return fail(ps, open_off, "%s", "unbalanced '(': it is never closed");
    void *x = item(ps);
    if (!x || !push(ps, x)) return NULL;
  }
  advance(ps);
  *n = ps->n_stack - mark;
  void **all = pop_since(ps, mark);
  return all ? all : out_of_memory(ps);
}

/* kif_compound -> symbol term* ')'      (the '(' is already read) */
static ast_term *kif_compound(parser *ps, uint32_t open_off)
{
  if (!at_name(ps)) {
    if (ps->tok.kind == LX_EOF) return fail(ps, open_off, "%s", "unbalanced '(': it is never closed");
    return expected(ps, "a function or relation name after '('");
  }
  ast_term *t = name_term(ps, open_off);
  if (!t) return NULL;
  advance(ps);
  t->args = (ast_term **)until_close(ps, open_off, &t->n, kif_term_item);
  if (!t->args) return NULL;
  t->kind = t->n ? AST_FUN : AST_SYM;
  return t;
}

/* kif_term -> symbol | ?var | '(' symbol term* ')' */
static ast_term *kif_term(parser *ps)
{
  if (!enter(ps)) return NULL;
  ast_term *t = NULL;
  uint32_t off = ps->tok.off, index;
  switch (ps->tok.kind) {
  case LX_SYMBOL:
  case LX_QSYMBOL:
    t = name_term(ps, off);
    if (!t) return NULL;
    advance(ps);
    break;
  case LX_VARIABLE:
    if (!variable_index(ps, &index)) return NULL;
    t = new_term(ps, AST_VAR, off, index);
    advance(ps);
    break;
  case LX_LPAREN:
    advance(ps);
    t = kif_compound(ps, off);
    break;
  case LX_RPAREN:
    return fail(ps, off, "%s", "unbalanced ')'");
  default:
    return expected(ps, "a term");
  }
  ps->depth--;
  return t;
}

static ast_lit *kif_literal(parser *ps);

/* Reports why no literal starts at the current token (both syntaxes). */
static ast_lit *no_literal(parser *ps, uint32_t off)
{
  if (ps->tok.kind == LX_VARIABLE) return fail(ps, off, "%s", "a variable cannot stand as a literal");
  return expected(ps, "a literal");
}

static void *kif_literal_item(parser *ps) { return kif_literal(ps); }

/* Reads literals up to ')'; their count through *n. */
static ast_lit **kif_literals_until_close(parser *ps, uint32_t open_off, uint32_t *n)
{
  return (ast_lit **)until_close(ps, open_off, n, kif_literal_item);
}

/* kif_connective -> ('not' literal | 'or' literal+ | 'and' literal*) ')' */
static ast_lit *kif_connective(parser *ps, ast_lit_kind kind, uint32_t open_off)
{
  ast_lit *l = new_lit(ps, kind, open_off);
  if (!l) return NULL;
  advance(ps);
  l->subs = kif_literals_until_close(ps, open_off, &l->n);
  if (!l->subs) return NULL;
  if (kind == AST_NOT && l->n != 1)
    return fail(ps, open_off, "'not' takes exactly one literal, found %s",
                l->n == 0 ? "none" : "several");
  if (kind == AST_OR && l->n == 0) return fail(ps, open_off, "%s", "'or' needs at least one literal");
  return l;
}

/* kif_distinct -> 'distinct' term term ')' */
static ast_lit *kif_distinct(parser *ps, uint32_t open_off)
{
  ast_lit *l = new_lit(ps, AST_DISTINCT, open_off);
  if (!l) return NULL;
  l->atom = kif_compound(ps, open_off);
  if (!l->atom) return NULL;
  if (ast_atom_arity(l->atom) != 2)
    return fail(ps, open_off, "'distinct' takes exactly two arguments, found %s",
                ast_atom_arity(l->atom) < 2 ? "fewer" : "more");
  return l;
}

/* kif_literal -> sentence | '(' ('not'|'or'|'and'|'distinct') ... ')' */
static ast_lit *kif_literal(parser *ps)
{
  if (!enter(ps)) return NULL;
  uint32_t off = ps->tok.off;
  ast_lit *l;
  if (ps->tok.kind == LX_LPAREN) {
    advance(ps);
    dl_sym s = keyword(ps);
    if (s != DL_NO_SYM && s == ps->kw_not) l = kif_connective(ps, AST_NOT, off);
    else if (s != DL_NO_SYM && s == ps->kw_or) l = kif_connective(ps, AST_OR, off);
    else if (s != DL_NO_SYM && s == ps->kw_and) l = kif_connective(ps, AST_AND, off);
    else if (s != DL_NO_SYM && s == ps->kw_distinct) l = kif_distinct(ps, off);
    else if ((l = new_lit(ps, AST_ATOM, off)) && !(l->atom = kif_compound(ps, off))) l = NULL;
  } else if (at_name(ps)) {
    l = new_lit(ps, AST_ATOM, off);
    if (l && !(l->atom = kif_term(ps))) l = NULL;
  } else {
    return no_literal(ps, off);
  }
  ps->depth--;
  return l;
}

/* Checks that a parsed sentence can be a head: an atom, not a keyword. */
/* Whether symbol s is a keyword that no head may have. */
static int is_connective(const parser *ps, dl_sym s)
{
  return s == ps->kw_not || s == ps->kw_or || s == ps->kw_and || s == ps->kw_distinct || s == ps->kw_rule;
}

static ast_term *check_head(parser *ps, ast_term *h)
{
  if (!h) return NULL;
  dl_sym s = h->value;
  if (h->kind == AST_VAR) return fail(ps, h->off, "%s", "a variable cannot be the head of a rule");
  if (is_connective(ps, s)) {
    size_t n;
    const char *z = dl_terms_name(ps->terms, s, &n);
    return fail(ps, h->off, "'%s' cannot be the head of a rule", z);
  }
  return h;
}

/* Reports infix syntax met at the top level of a KIF text: a symbol
 * directly followed by '(' (name(), or one holding ':-', '&' or ','.
 * Returns 1 after reporting, 0 when the token looks like KIF. */
static int kif_infix_met(parser *ps)
{
  const char *z = ps->src->text + ps->tok.off;
  uint32_t n = ps->tok.len;
  if (ps->tok.kind != LX_SYMBOL) return 0;
  const char *what = NULL;
  if (z[n] == '(') what = "a name directly followed by '('";
  for (uint32_t i = 0; !what && i < n; i++) {
    if (z[i] == ':' && i + 1 < n && z[i + 1] == '-') what = "':-'";
    else if (z[i] == '&') what = "'&'";
    else if (z[i] == ',') what = "','";
  }
  if (!what) return 0;
  fail(ps, ps->tok.off, "%s at the top level of KIF: this looks like the infix syntax (try --syntax infix)", what);
  return 1;
}

/* kif_clause -> sentence | '(' '<=' sentence literal* ')' */
static int kif_clause(parser *ps)
{
  uint32_t off = ps->tok.off;
  begin_clause(ps);
  ps->depth = 0;
  if (ps->tok.kind == LX_RPAREN) return !!fail(ps, off, "%s", "unbalanced ')'");
  if (ps->tok.kind == LX_VARIABLE) return !!fail(ps, off, "%s", "a variable cannot stand as a sentence");
  if (kif_infix_met(ps)) return 0;
  if (at_name(ps)) {
    ast_term *h = check_head(ps, kif_term(ps));
    return h && end_clause(ps, h, ps->n_stack, off);
  }
  if (ps->tok.kind != LX_LPAREN) return !!expected(ps, "'(' or a symbol");
  advance(ps);
  dl_sym s = keyword(ps);
  if (s == DL_NO_SYM || s != ps->kw_rule) {
    ast_term *h = check_head(ps, kif_compound(ps, off));
    return h && end_clause(ps, h, ps->n_stack, off);
  }
  advance(ps);
  if (ps->tok.kind == LX_RPAREN) return !!fail(ps, off, "%s", "a rule needs a head: (<= head literal...)");
  if (ps->tok.kind == LX_EOF) return !!fail(ps, off, "%s", "unbalanced '(': it is never closed");
  if (ps->tok.kind == LX_LPAREN || at_name(ps)) {
    ast_term *h;
    if (ps->tok.kind == LX_LPAREN) {
      uint32_t hoff = ps->tok.off;
      advance(ps);
      h = kif_compound(ps, hoff);
    } else {
      h = kif_term(ps);
    }
    if (!check_head(ps, h)) return 0;
    uint32_t n;
    uint32_t mark = ps->n_stack;
    ast_lit **body = kif_literals_until_close(ps, off, &n);
    if (!body) return 0;
    for (uint32_t i = 0; i < n; i++)
      if (!push(ps, body[i])) return 0;
    return end_clause(ps, h, mark, off);
  }
  return !!expected(ps, "the head of the rule");
}

/* ---- infix ----------------------------------------------------------------- */

static ast_term *infix_term(parser *ps);

static int is_comma(const parser *ps)
{
  return ps->tok.kind == LX_AND && ps->src->text[ps->tok.off] == ',';
}

/* infix_args -> '(' term { ',' term } ')'     into t->args */
static ast_term *infix_args(parser *ps, ast_term *t)
{
  uint32_t open_off = ps->tok.off;
  ps->parens++;
  advance(ps);
  uint32_t mark = ps->n_stack;
  while (ps->tok.kind != LX_RPAREN) {
    if (ps->tok.kind == LX_EOF) return fail(ps, open_off, "%s", "unbalanced '(': it is never closed");
    if (ps->n_stack > mark) {
      if (!is_comma(ps)) return expected(ps, "',' or ')'");
      advance(ps);
    }
    ast_term *a = infix_term(ps);
    if (!a || !push(ps, a)) return NULL;
  }
  ps->parens--;
  advance(ps);
  t->n = ps->n_stack - mark;
  t->args = (ast_term **)pop_since(ps, mark);
  if (!t->args) return out_of_memory(ps);
  t->kind = t->n ? AST_FUN : AST_SYM;
  return t;
}

/* infix_term -> Variable | symbol [ '(' term { ',' term } ')' ] */
static ast_term *infix_term(parser *ps)
{
  if (!enter(ps)) return NULL;
  uint32_t off = ps->tok.off, index;
  ast_term *t;
  if (ps->tok.kind == LX_VARIABLE) {
    if (!variable_index(ps, &index)) return NULL;
    t = new_term(ps, AST_VAR, off, index);
    advance(ps);
  } else if (at_name(ps)) {
    t = name_term(ps, off);
    if (!t) return NULL;
    advance(ps);
    if (ps->tok.kind == LX_LPAREN) t = infix_args(ps, t);
  } else {
    return expected(ps, "a term");
  }
  ps->depth--;
  return t;
}

/* asp_comparison -> term ('!=' | '=') term     (ASP only; the first term is
 * read) as distinct(a,b), or not distinct(a,b) for '='. */
static ast_lit *asp_comparison(parser *ps, ast_term *a, uint32_t off)
{
  int equal = ps->tok.kind == LX_EQ;
  advance(ps);
  ast_term *b = infix_term(ps);
  if (!b) return NULL;
  ast_term *d = new_term(ps, AST_FUN, off, ps->kw_distinct);
  if (!d) return NULL;
  d->n = 2;
  d->args = dl_arena_alloc(ps->prog->arena, 2 * sizeof *d->args);
  if (!d->args) return out_of_memory(ps);
  d->args[0] = a;
  d->args[1] = b;
  ast_lit *l = new_lit(ps, AST_DISTINCT, off);
  if (!l) return NULL;
  l->atom = d;
  if (!equal) return l;
  ast_lit *n = new_lit(ps, AST_NOT, off);
  if (!n) return NULL;
  n->n = 1;
  n->subs = dl_arena_alloc(ps->prog->arena, sizeof *n->subs);
  if (!n->subs) return out_of_memory(ps);
  n->subs[0] = l;
  return n;
}

/* infix_literal -> ('~' | 'not') literal | 'distinct' '(' t ',' t ')' | atom
 *                | term ('!=' | '=') term     (the last in ASP only) */
static ast_lit *infix_literal(parser *ps)
{
  if (!enter(ps)) return NULL;
  uint32_t off = ps->tok.off;
  ast_lit *l;
  dl_sym s = keyword(ps);
  if (ps->lx.syntax == LX_ASP && (at_name(ps) || ps->tok.kind == LX_VARIABLE) && s != ps->kw_not) {
    ast_term *t = infix_term(ps);
    if (!t) return NULL;
    if (ps->tok.kind == LX_NEQ || ps->tok.kind == LX_EQ) {
      l = asp_comparison(ps, t, off);
    } else if (t->kind == AST_VAR) {
      return fail(ps, off, "%s", "a variable cannot stand as a literal");
    } else if ((l = new_lit(ps, AST_ATOM, off))) {
      l->atom = t;
    }
    if (!l) return NULL;
  } else if (ps->tok.kind == LX_NOT || (s != DL_NO_SYM && s == ps->kw_not)) {
    advance(ps);
    l = new_lit(ps, AST_NOT, off);
    if (!l) return NULL;
    l->n = 1;
    l->subs = dl_arena_alloc(ps->prog->arena, sizeof *l->subs);
    if (!l->subs || !(l->subs[0] = infix_literal(ps))) return NULL;
  } else if (at_name(ps)) {
    l = new_lit(ps, s != DL_NO_SYM && s == ps->kw_distinct ? AST_DISTINCT : AST_ATOM, off);
    if (!l || !(l->atom = infix_term(ps))) return NULL;
    if (l->kind == AST_DISTINCT && ast_atom_arity(l->atom) != 2)
      return fail(ps, off, "'distinct' takes exactly two arguments, found %s",
                  ast_atom_arity(l->atom) < 2 ? "fewer" : "more");
  } else {
    return no_literal(ps, off);
  }
  ps->depth--;
  return l;
}

/* After a newline a clause goes on only if the next line starts with & , or :-. */
static void skip_newlines(parser *ps)
{
  while (ps->tok.kind == LX_NEWLINE) advance(ps);
}

/* True when the current token starts a line that begins with a blank. */
static int indented(const parser *ps)
{
  uint32_t i = ps->tok.off;
  while (i > 0 && ps->src->text[i - 1] != '\n' && ps->src->text[i - 1] != '\r') i--;
  return i < ps->tok.off && (ps->src->text[i] == ' ' || ps->src->text[i] == '\t');
}

/* True at the end of a clause: '.', the end of the text, or a line end not
 * followed by a line that starts with '&', ',' or ':-'.  A rule that ends
 * at a line end before an indented line draws a warning: the indentation
 * suggests a continuation that the line does not make. */
static int at_clause_end(parser *ps, int is_rule)
{
  if (ps->tok.kind == LX_DOT) {
    advance(ps);
    return 1;
  }
  if (ps->tok.kind == LX_EOF) return 1;
  if (ps->tok.kind != LX_NEWLINE) return 0;
  skip_newlines(ps);
  if (ps->tok.kind == LX_AND || ps->tok.kind == LX_IF) return 0;
  if (is_rule && ps->tok.kind != LX_EOF && indented(ps))
    dl_diag_report(ps->diag, DL_WARNING, ps->src, ps->tok.off, "%s",
                   "this indented line starts a new clause, as the rule above ends at its line end: "
                   "a continuation line must start with '&', ',' or ':-' (end clauses with '.' to silence this)");
  return 1;
}

/* ---- facts of constants, read fast ---------------------------------------- */

static int is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
static int is_name_char(char c) { return is_name_start(c) || (c >= 'A' && c <= 'Z') || c == '_'; }

/* The end of the bare name at z[i] (i when there is none), as the infix
 * lexer reads an LX_SYMBOL. */
static uint32_t name_end(const char *z, uint32_t i)
{
  if (!is_name_start(z[i])) return i;
  while (is_name_char(z[++i])) {
  }
  return i;
}

static uint32_t skip_blanks(const char *z, uint32_t i)
{
  while (z[i] == ' ' || z[i] == '\t') i++;
  return i;
}

/* Reads name '(' name { ',' name } ')' '.' at z[i], blanks between tokens
 * (not line ends), into *ft; 0 when the text there is not of that form. */
static int scan_fact(const char *z, uint32_t i, fact_text *ft)
{
  ft->n = 0;
  for (;;) {
    uint32_t e = name_end(z, i);
    if (e == i || ft->n > FAST_MAX_ARITY) return 0;
    ft->off[ft->n] = i;
    ft->len[ft->n] = e - i;
    if (ft->n > 0) ft->key[ft->n] = dl_terms_name_key(z + i, e - i);
    ft->n++;
    i = skip_blanks(z, e);
    char want = ft->n == 1 ? '(' : ',';
    if (z[i] == want) {
      i = skip_blanks(z, i + 1);
      continue;
    }
    if (ft->n == 1 || z[i] != ')') return 0;
    i = skip_blanks(z, i + 1);
    if (z[i] != '.') return 0;
    ft->end = i + 1;
    return 1;
  }
}

/* Scans the fact that follows the text's offset end, across blanks and
 * line ends, into ps->ahead, and has the term store fetch its constants'
 * entries into the cache while the parser goes there: in a large fact file
 * those look-ups miss the cache, and so each overlaps with other work. */
static void look_ahead(parser *ps, uint32_t end)
{
  const char *z = ps->src->text;
  while (z[end] == ' ' || z[end] == '\t' || z[end] == '\n' || z[end] == '\r') end++;
  ps->ahead_at = scan_fact(z, end, &ps->ahead) ? end : UINT32_MAX;
  for (uint32_t k = 1; ps->ahead_at != UINT32_MAX && k < ps->ahead.n; k++)
    dl_terms_prefetch_constant(ps->terms, ps->ahead.key[k]);
}

/* Whether the fact in *ft has the predicate and arity of the last fact
 * that fast_fact took, which the program takes still (the parser keeps the
 * facts of a predicate with one arity as facts, and the taker answers for
 * a predicate and arity alike every time). */
static int same_taken_pred(const parser *ps, const fact_text *ft)
{
  const char *z = ps->src->text;
  return ps->taken_len == ft->len[0] && ps->taken_arity == ft->n - 1 &&
         memcmp(z + ps->taken_off, z + ft->off[0], ft->len[0]) == 0;
}

/* fast_fact -> name '(' name { ',' name } ')' '.'
 * A ground fact of constants, the form of large fact files, read from the
 * bytes and taken without tokens or syntax tree, with the symbols and term
 * ids made in the order the full parser makes them.  Returns 1 when taken
 * (the next token is read), 0 when the clause is not of that form or not
 * taken (nothing is made but the predicate's symbol: the full parser reads
 * it, and reports what is wrong), -1 when out of memory. */
static int fast_fact(parser *ps)
{
  const char *z = ps->src->text;
  fact_text scanned;  /* when the fact was not scanned ahead */
  const fact_text *ft = &ps->ahead;
  if (ps->ahead_at != ps->tok.off) {
    if (!scan_fact(z, ps->tok.off, &scanned)) return 0;
    ft = &scanned;
  }
  for (uint32_t i = 0; ps->lx.syntax == LX_ASP && i < ft->n; i++)
    if (is_mangled(z + ft->off[i], ft->len[i])) return 0;
  uint32_t arity = ft->n - 1;
  dl_sym pred = ps->taken_pred;
  if (!same_taken_pred(ps, ft)) {  /* facts come in runs of one predicate */
    pred = dl_terms_symbol(ps->terms, z + ft->off[0], ft->len[0]);
    if (pred == DL_NO_SYM) return -1;
    if (is_connective(ps, pred) || !ps->prog->takes_fact(ps->prog->take_ctx, pred, arity)) return 0;
    ps->taken_off = ft->off[0];
    ps->taken_len = ft->len[0];
    ps->taken_arity = arity;
    ps->taken_pred = pred;
  }
  dl_tid args[FAST_MAX_ARITY];
  for (uint32_t i = 0; i < arity; i++)
    if ((args[i] = dl_terms_constant_named(ps->terms, z + ft->off[i + 1], ft->len[i + 1], ft->key[i + 1])) ==
        DL_NO_TERM)
      return -1;
  if (!ps->prog->take_fact(ps->prog->take_ctx, pred, arity, args, ps->src, ps->tok.off)) return -1;
  uint32_t end = ft->end;
  look_ahead(ps, end);  /* overwrites ps->ahead, which ft may point to */
  if (ps->ahead_at == UINT32_MAX) {
    ps->lx.cur = end;
    advance(ps);
  } else {  /* only blanks and line ends before it: the lexer would give its name next */
    ps->tok = (lx_token){LX_SYMBOL, ps->ahead_at, ps->ahead.len[0]};
    ps->lx.cur = ps->ahead_at + ps->ahead.len[0];
  }
  return 1;
}

/* infix_clause -> atom [ ':-' literal { ('&'|',') literal } ] ( '.' | newline | eof ) */
static int infix_clause(parser *ps)
{
  uint32_t off = ps->tok.off;
  begin_clause(ps);
  ps->depth = 0;
  ps->parens = 0;
  int fast = ps->prog->takes_fact && ps->tok.kind == LX_SYMBOL ? fast_fact(ps) : 0;
  if (fast) return fast > 0 || out_of_memory(ps);
  if (ps->tok.kind == LX_VARIABLE) return !!fail(ps, off, "%s", "a variable cannot stand as a sentence");
  if (ps->tok.kind == LX_LPAREN)
    return !!fail(ps, off, "%s", "expected the head of a clause, found '(': this looks like KIF (try --syntax kif)");
  if (!at_name(ps)) return !!expected(ps, "the head of a clause");
  ast_term *h = check_head(ps, infix_term(ps));
  if (!h) return 0;
  uint32_t mark = ps->n_stack;
  if (at_clause_end(ps, 0)) return end_clause(ps, h, mark, off);
  if (ps->tok.kind != LX_IF) return !!expected(ps, "':-', '.' or the end of the line");
  for (;;) {
    advance(ps);
    skip_newlines(ps);
    ast_lit *l = infix_literal(ps);
    if (!l || !push(ps, l)) return 0;
    if (at_clause_end(ps, 1)) break;
    if (ps->tok.kind != LX_AND) return !!expected(ps, "'&', '.' or the end of the line");
  }
  return end_clause(ps, h, mark, off);
}

/* ---- ASP directives ----------------------------------------------------- */

/* True when the current token spells the directive name z. */
static int is_directive(const parser *ps, const char *z)
{
  return ps->tok.kind == LX_DIRECTIVE && ps->tok.len == strlen(z) &&
         memcmp(ps->src->text + ps->tok.off, z, ps->tok.len) == 0;
}

/* asp_external -> '#external' atom ( '.' | newline | eof )     (ASP only)
 * gdlog's ground games in gringo's syntax declare their true and does
 * atoms external, so that gringo leaves them free.  To gdlog they are the
 * inputs already (--state and --does give them), so the declaration adds
 * nothing: it is checked (a ground true or does atom) and dropped. */
static int asp_external(parser *ps)
{
  uint32_t off = ps->tok.off;
  char what[200];
  if (!is_directive(ps, "#external")) {
    int n = ps->tok.len > 40 ? 40 : (int)ps->tok.len;
    snprintf(what, sizeof what, "unknown directive '%.*s': gdlog reads only #external, the one its ASP output writes",
             n, ps->src->text + off);
    return !!fail(ps, off, "%s", what);
  }
  begin_clause(ps);
  ps->depth = 0;
  ps->parens = 0;
  advance(ps);
  if (!at_name(ps)) return !!expected(ps, "an atom after #external");
  uint32_t atom_off = ps->tok.off;
  ast_term *a = infix_term(ps);
  if (!a) return 0;
  if (a->value != dl_terms_symbol(ps->terms, "true", 4) && a->value != dl_terms_symbol(ps->terms, "does", 4))
    return !!fail(ps, atom_off, "%s", "#external declares a true or does atom: the inputs of a game");
  if (ps->n_vars) return !!fail(ps, atom_off, "%s", "the atom of an #external must be ground");
  if (!at_clause_end(ps, 0)) return !!expected(ps, "'.' or the end of the line");
  return 1;
}

/* ---- entry points ------------------------------------------------------ */

/* Reads the next statement: a clause, or (ASP) a directive. */
static int statement(parser *ps)
{
  if (ps->lx.syntax == LX_KIF) return kif_clause(ps);
  if (ps->tok.kind == LX_DIRECTIVE) return asp_external(ps);
  return infix_clause(ps);
}

static int parse_all(parser *ps)
{
  advance(ps);
  for (;;) {
    if (ps->lx.syntax != LX_KIF) skip_newlines(ps);
    if (ps->tok.kind == LX_EOF) return 1;
    if (is_bad(ps->tok.kind)) return !!bad_token(ps);
    uint32_t before = ps->n_stack;
    if (!statement(ps)) return 0;
    if (ps->n_stack != before) return 0;
  }
}

int dl_parse(ast_program *prog, dl_terms *terms, const dl_source *src,
             lx_syntax syntax, dl_diag *diag)
{
  parser ps;
  memset(&ps, 0, sizeof ps);
  ps.ahead_at = UINT32_MAX;
  ps.prog = prog;
  ps.terms = terms;
  ps.src = src;
  ps.diag = diag;
  ps.kw_rule = dl_terms_symbol(terms, "<=", 2);
  ps.kw_not = dl_terms_symbol(terms, "not", 3);
  ps.kw_or = dl_terms_symbol(terms, "or", 2);
  ps.kw_and = dl_terms_symbol(terms, "and", 3);
  ps.kw_distinct = dl_terms_symbol(terms, "distinct", 8);
  lx_init(&ps.lx, src->text, src->len, syntax);
  size_t errors = dl_diag_errors(diag);
  int ok = ps.kw_rule != DL_NO_SYM && ps.kw_not != DL_NO_SYM && ps.kw_or != DL_NO_SYM && ps.kw_and != DL_NO_SYM &&
           ps.kw_distinct != DL_NO_SYM && parse_all(&ps);
  if (!ok && dl_diag_errors(diag) == errors) out_of_memory(&ps);
  free(ps.var_stamp);
  free(ps.var_index);
  free(ps.vars);
  free(ps.stack);
  free(ps.lower);
  free(ps.args);
  return ok;
}

static int has_suffix(const char *name, const char *suffix)
{
  size_t n = strlen(name), m = strlen(suffix);
  if (n < m) return 0;
  for (size_t i = 0; i < m; i++)
    if (tolower((unsigned char)name[n - m + i]) != suffix[i]) return 0;
  return 1;
}

/* The offset of the first byte of text[0..len) that is neither blank nor in a
 * comment of either syntax (; % // and block comments); len when none is. */
static uint32_t first_token(const char *text, uint32_t len)
{
  uint32_t i = 0;
  while (i < len) {
    unsigned char c = (unsigned char)text[i];
    if (isspace(c)) {
      i++;
    } else if (c == ';' || c == '%' || (c == '/' && i + 1 < len && text[i + 1] == '/')) {
      while (i < len && text[i] != '\n' && text[i] != '\r') i++;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
      for (i += 2; i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'); i++) {}
      i += 2;
    } else {
      return i;
    }
  }
  return len;
}

static int is_id_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* What the first token at text[i] (i < len) says: LX_KIF for '(', LX_ASP
 * for a directive '#name', LX_INFIX for a quote ' or a name followed by
 * '(', '.', ':-', '<=', '&' or ','; -1 when it does not tell (a bare name,
 * ')', '?x'). */
static int syntax_of_content(const char *text, uint32_t len, uint32_t i)
{
  if (text[i] == '(') return LX_KIF;
  if (text[i] == '#' && i + 1 < len && text[i + 1] >= 'a' && text[i + 1] <= 'z') return LX_ASP;
  if (text[i] == '\'') return LX_INFIX;
  if (!is_id_char(text[i])) return -1;
  while (i < len && is_id_char(text[i])) i++;
  if (i < len && text[i] == '(') return LX_INFIX;
  while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
  if (i >= len) return -1;
  char c = text[i], d = i + 1 < len ? text[i + 1] : 0;
  if (c == '.' || c == '&' || c == ',' || (c == ':' && d == '-') || (c == '<' && d == '=')) return LX_INFIX;
  return -1;
}

/* The syntax the extension of name stands for; -1 for none. */
static int syntax_of_name(const char *name)
{
  static const struct { char suffix[6]; lx_syntax syntax; } ext[] = {  /* no pointers: read-only data */
    { ".kif", LX_KIF }, { ".gdl", LX_KIF }, { ".lisp", LX_KIF },
    { ".dl", LX_INFIX }, { ".pl", LX_INFIX }, { ".pro", LX_INFIX }, { ".lp", LX_ASP },
  };
  for (size_t i = 0; name && i < sizeof ext / sizeof *ext; i++)
    if (has_suffix(name, ext[i].suffix)) return (int)ext[i].syntax;
  return -1;
}

lx_syntax dl_parse_guess_syntax(const char *name, const char *text, uint32_t len)
{
  assert(text || len == 0);
  uint32_t first = first_token(text, len);
  int by_content = first < len ? syntax_of_content(text, len, first) : -1;
  int by_name = syntax_of_name(name);
  /* infix and gringo's syntax start alike: a name that says ASP decides between them */
  if (by_content == LX_INFIX && by_name == LX_ASP) return LX_ASP;
  if (by_content >= 0) return (lx_syntax)by_content;
  if (by_name >= 0) return (lx_syntax)by_name;
  return first < len && is_id_char(text[first]) ? LX_INFIX : LX_KIF;
}
