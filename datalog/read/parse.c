/* parse.c: KIF and infix parsers (see parse.h).  Each parse function begins
 * with its grammar rule.  Functions return NULL after reporting an error; the
 * first error ends the parse. */
#include "datalog/read/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  dl_sym kw_rule, kw_not, kw_or, kw_and, kw_distinct;
} parser;

/* ---- helpers -------------------------------------------------------------- */

static void *fail(parser *ps, uint32_t off, const char *fmt, const char *arg)
{
  dl_diag_report(ps->diag, DL_ERROR, ps->src, off, fmt, arg);
  return NULL;
}

static void *out_of_memory(parser *ps)
{
  dl_diag_report(ps->diag, DL_ERROR, NULL, 0, "out of memory while parsing %s", ps->src->name);
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
  default:
    if (c >= 0x80) snprintf(what, sizeof what, "byte 0x%02X (only ASCII is allowed outside comments)", c);
    else if (c < 32 || c == 127) snprintf(what, sizeof what, "control character 0x%02X", c);
    else snprintf(what, sizeof what, "character '%c'", c);
    if (looks_binary(ps->src)) return fail(ps, t.off, "unexpected %s: this looks like a binary file, not GDL text", what);
    return fail(ps, t.off, "unexpected %s", what);
  }
}

static int is_bad(lx_kind k) { return k >= LX_BAD_BYTE; }

/* Reports that something else was expected here; returns NULL. */
static void *expected(parser *ps, const char *what)
{
  if (is_bad(ps->tok.kind)) return bad_token(ps);
  char buf[200];
  if (ps->tok.kind == LX_SYMBOL || ps->tok.kind == LX_VARIABLE) {
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

/* Interns the current token's text, lower-cased in KIF. */
static dl_sym intern_token(parser *ps)
{
  const char *z = ps->src->text + ps->tok.off;
  size_t n = ps->tok.len;
  if (ps->lx.syntax == LX_INFIX) return dl_terms_symbol(ps->terms, z, n);
  if (n > ps->lower_cap) {
    char *q = realloc(ps->lower, n);
    if (!q) return DL_NO_SYM;
    ps->lower = q;
    ps->lower_cap = n;
  }
  for (size_t i = 0; i < n; i++) ps->lower[i] = (char)tolower((unsigned char)z[i]);
  return dl_terms_symbol(ps->terms, ps->lower, n);
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

/* Finishes a clause: copies its variable names and stores it. */
static int end_clause(parser *ps, ast_term *head, uint32_t mark, uint32_t off)
{
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
  if (ps->tok.kind != LX_SYMBOL) {
    if (ps->tok.kind == LX_EOF) return fail(ps, open_off, "%s", "unbalanced '(': it is never closed");
    return expected(ps, "a function or relation name after '('");
  }
  ast_term *t = new_term(ps, AST_FUN, open_off, intern_token(ps));
  if (!t || t->value == DL_NO_SYM) return out_of_memory(ps);
  advance(ps);
  t->args = (ast_term **)until_close(ps, open_off, &t->n, kif_term_item);
  if (!t->args) return NULL;
  if (t->n == 0) t->kind = AST_SYM;
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
    t = new_term(ps, AST_SYM, off, intern_token(ps));
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
    dl_sym s = ps->tok.kind == LX_SYMBOL ? intern_token(ps) : DL_NO_SYM;
    if (s != DL_NO_SYM && s == ps->kw_not) l = kif_connective(ps, AST_NOT, off);
    else if (s != DL_NO_SYM && s == ps->kw_or) l = kif_connective(ps, AST_OR, off);
    else if (s != DL_NO_SYM && s == ps->kw_and) l = kif_connective(ps, AST_AND, off);
    else if (s != DL_NO_SYM && s == ps->kw_distinct) l = kif_distinct(ps, off);
    else if ((l = new_lit(ps, AST_ATOM, off)) && !(l->atom = kif_compound(ps, off))) l = NULL;
  } else if (ps->tok.kind == LX_SYMBOL) {
    l = new_lit(ps, AST_ATOM, off);
    if (l && !(l->atom = kif_term(ps))) l = NULL;
  } else {
    return no_literal(ps, off);
  }
  ps->depth--;
  return l;
}

/* Checks that a parsed sentence can be a head: an atom, not a keyword. */
static ast_term *check_head(parser *ps, ast_term *h)
{
  if (!h) return NULL;
  dl_sym s = h->value;
  if (h->kind == AST_VAR) return fail(ps, h->off, "%s", "a variable cannot be the head of a rule");
  if (s == ps->kw_not || s == ps->kw_or || s == ps->kw_and || s == ps->kw_distinct || s == ps->kw_rule) {
    size_t n;
    const char *z = dl_terms_name(ps->terms, s, &n);
    return fail(ps, h->off, "'%s' cannot be the head of a rule", z);
  }
  return h;
}

/* kif_clause -> sentence | '(' '<=' sentence literal* ')' */
static int kif_clause(parser *ps)
{
  uint32_t off = ps->tok.off;
  begin_clause(ps);
  ps->depth = 0;
  if (ps->tok.kind == LX_RPAREN) return !!fail(ps, off, "%s", "unbalanced ')'");
  if (ps->tok.kind == LX_VARIABLE) return !!fail(ps, off, "%s", "a variable cannot stand as a sentence");
  if (ps->tok.kind == LX_SYMBOL) {
    ast_term *h = check_head(ps, kif_term(ps));
    return h && end_clause(ps, h, ps->n_stack, off);
  }
  if (ps->tok.kind != LX_LPAREN) return !!expected(ps, "'(' or a symbol");
  advance(ps);
  dl_sym s = ps->tok.kind == LX_SYMBOL ? intern_token(ps) : DL_NO_SYM;
  if (s == DL_NO_SYM || s != ps->kw_rule) {
    ast_term *h = check_head(ps, kif_compound(ps, off));
    return h && end_clause(ps, h, ps->n_stack, off);
  }
  advance(ps);
  if (ps->tok.kind == LX_RPAREN) return !!fail(ps, off, "%s", "a rule needs a head: (<= head literal...)");
  if (ps->tok.kind == LX_EOF) return !!fail(ps, off, "%s", "unbalanced '(': it is never closed");
  if (ps->tok.kind == LX_LPAREN || ps->tok.kind == LX_SYMBOL) {
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
  } else if (ps->tok.kind == LX_SYMBOL) {
    t = new_term(ps, AST_SYM, off, intern_token(ps));
    advance(ps);
    if (t && ps->tok.kind == LX_LPAREN) t = infix_args(ps, t);
  } else {
    return expected(ps, "a term");
  }
  ps->depth--;
  return t;
}

/* infix_literal -> ('~' | 'not') literal | 'distinct' '(' t ',' t ')' | atom */
static ast_lit *infix_literal(parser *ps)
{
  if (!enter(ps)) return NULL;
  uint32_t off = ps->tok.off;
  ast_lit *l;
  dl_sym s = ps->tok.kind == LX_SYMBOL ? intern_token(ps) : DL_NO_SYM;
  if (ps->tok.kind == LX_NOT || (s != DL_NO_SYM && s == ps->kw_not)) {
    advance(ps);
    l = new_lit(ps, AST_NOT, off);
    if (!l) return NULL;
    l->n = 1;
    l->subs = dl_arena_alloc(ps->prog->arena, sizeof *l->subs);
    if (!l->subs || !(l->subs[0] = infix_literal(ps))) return NULL;
  } else if (ps->tok.kind == LX_SYMBOL) {
    l = new_lit(ps, s == ps->kw_distinct ? AST_DISTINCT : AST_ATOM, off);
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

static int at_clause_end(parser *ps)
{
  if (ps->tok.kind == LX_DOT) {
    advance(ps);
    return 1;
  }
  if (ps->tok.kind == LX_EOF) return 1;
  if (ps->tok.kind != LX_NEWLINE) return 0;
  skip_newlines(ps);
  return ps->tok.kind != LX_AND && ps->tok.kind != LX_IF;
}

/* infix_clause -> atom [ ':-' literal { ('&'|',') literal } ] ( '.' | newline | eof ) */
static int infix_clause(parser *ps)
{
  uint32_t off = ps->tok.off;
  begin_clause(ps);
  ps->depth = 0;
  ps->parens = 0;
  if (ps->tok.kind == LX_VARIABLE) return !!fail(ps, off, "%s", "a variable cannot stand as a sentence");
  if (ps->tok.kind != LX_SYMBOL) return !!expected(ps, "the head of a clause");
  ast_term *h = check_head(ps, infix_term(ps));
  if (!h) return 0;
  uint32_t mark = ps->n_stack;
  if (at_clause_end(ps)) return end_clause(ps, h, mark, off);
  if (ps->tok.kind != LX_IF) return !!expected(ps, "':-', '.' or the end of the line");
  for (;;) {
    advance(ps);
    skip_newlines(ps);
    ast_lit *l = infix_literal(ps);
    if (!l || !push(ps, l)) return 0;
    if (at_clause_end(ps)) break;
    if (ps->tok.kind != LX_AND) return !!expected(ps, "'&', '.' or the end of the line");
  }
  return end_clause(ps, h, mark, off);
}

/* ---- entry points ------------------------------------------------------ */

static int parse_all(parser *ps)
{
  advance(ps);
  for (;;) {
    if (ps->lx.syntax == LX_INFIX) skip_newlines(ps);
    if (ps->tok.kind == LX_EOF) return 1;
    if (is_bad(ps->tok.kind)) return !!bad_token(ps);
    uint32_t before = ps->n_stack;
    if (!(ps->lx.syntax == LX_KIF ? kif_clause(ps) : infix_clause(ps))) return 0;
    if (ps->n_stack != before) return 0;
  }
}

int dl_parse(ast_program *prog, dl_terms *terms, const dl_source *src,
             lx_syntax syntax, dl_diag *diag)
{
  parser ps;
  memset(&ps, 0, sizeof ps);
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
  int ok = parse_all(&ps);
  if (!ok && dl_diag_errors(diag) == errors) out_of_memory(&ps);
  free(ps.var_stamp);
  free(ps.var_index);
  free(ps.vars);
  free(ps.stack);
  free(ps.lower);
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

lx_syntax dl_parse_guess_syntax(const char *name, const char *text, uint32_t len)
{
  static const char *kif[] = { ".kif", ".gdl", ".lisp" };
  static const char *infix[] = { ".dl", ".pl", ".lp", ".pro" };
  for (size_t i = 0; name && i < sizeof kif / sizeof *kif; i++)
    if (has_suffix(name, kif[i])) return LX_KIF;
  for (size_t i = 0; name && i < sizeof infix / sizeof *infix; i++)
    if (has_suffix(name, infix[i])) return LX_INFIX;
  for (uint32_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (isspace(c)) continue;
    if (c == '%' || (c == '/' && i + 1 < len && text[i + 1] == '/')) {
      while (i < len && text[i] != '\n') i++;
      continue;
    }
    return (c == '(' || c == ';') ? LX_KIF : LX_INFIX;
  }
  return LX_KIF;
}
