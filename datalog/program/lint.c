/* lint.c: literals that never hold (see lint.h). */
#include "datalog/program/lint.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_WARNINGS = 20, MAX_SOURCES = 8 };

/* The shape of a term is its functor and arity.  A constant's shape is
 * its symbol (programs of many facts have as many constants, which then
 * cost nothing here); the shapes of the other terms are numbered from
 * n_symbols on, in the order they are seen. */
typedef struct shape {
  dl_sym sym;
  uint32_t arity;
  uint32_t pos;          /* arity > 0: its first argument position */
} shape;

typedef struct lint {
  const dl_program *p;
  dl_diag *diag;
  Pvoid_t shape_of;      /* JudyL: arity << 32 | symbol -> shape + 1 (functions) */
  uint32_t n_symbols;    /* symbols when the lint began: the shapes of constants */
  shape *shapes;         /* per function shape from n_symbols on */
  uint32_t n_shapes, cap_shapes;
  uint32_t *pred_pos;    /* per predicate: its first argument position */
  uint32_t n_pos, words;
  uint32_t *owner;       /* per position: predicate, or n_preds + shape */
  uint32_t *index;       /* per position: argument number from 0 */
  uint64_t *set;         /* per position: words words of shape bits */
  uint8_t *top;          /* per position: anything can be there */
  uint64_t *given_set;   /* set and top as mark_given leaves them */
  uint8_t *given_top;
  uint8_t *defined;      /* per predicate: some rule or fact has it as head */
  uint64_t *var_set;     /* per variable of the rule at hand */
  uint8_t *var_state;    /* per variable: 0 unconstrained, 1 constrained by var_set */
  uint32_t cap_vars;
  uint32_t truth, does;  /* predicates, or DL_NO_PRED */
  int state_given, moves_given;  /* init/next/base, legal/input defined */
  Pvoid_t reported[MAX_SOURCES];  /* Judy1 of offsets, per source of seen_src */
  const dl_source *seen_src[MAX_SOURCES];
  uint32_t *lit_base;    /* per rule: index of its first body literal in ignored */
  uint8_t *ignored;      /* per body literal: never holds in the first pass */
  uint32_t kept;         /* a literal not ignored though marked, or UINT32_MAX */
  uint32_t n_warnings;
} lint;

static uint32_t pred_named(const dl_program *p, const char *name)
{
  dl_sym s = dl_terms_symbol(p->terms, name, strlen(name));
  return s == DL_NO_SYM ? DL_NO_PRED : dl_program_pred(p, s);
}

/* ---- shapes and positions -------------------------------------------------------- */

static Word_t shape_key(dl_sym sym, uint32_t arity) { return (Word_t)((uint64_t)arity << 32 | sym); }

static int is_constant_shape(const lint *l, dl_sym sym, uint32_t arity) { return arity == 0 && sym < l->n_symbols; }

/* The function shape s (not a constant's). */
static const shape *function_shape(const lint *l, uint32_t s)
{
  assert(s >= l->n_symbols && s - l->n_symbols < l->n_shapes);
  return &l->shapes[s - l->n_symbols];
}

/* The position of argument i of terms of function shape s. */
static uint32_t arg_pos(const lint *l, uint32_t s, uint32_t i) { return function_shape(l, s)->pos + i; }

/* The shape of constant or function term t, added when new; UINT32_MAX when
 * out of memory. */
static uint32_t add_shape(lint *l, dl_sym sym, uint32_t arity)
{
  if (is_constant_shape(l, sym, arity)) return sym;
  PWord_t v = (PWord_t)JudyLIns(&l->shape_of, shape_key(sym, arity), PJE0);
  if (v == PJERR) return UINT32_MAX;
  if (*v) return (uint32_t)*v - 1;
  if (l->n_shapes == l->cap_shapes) {
    uint32_t cap = l->cap_shapes ? 2 * l->cap_shapes : 256;
    shape *q = realloc(l->shapes, cap * sizeof *q);
    if (!q) return UINT32_MAX;
    l->shapes = q;
    l->cap_shapes = cap;
  }
  l->shapes[l->n_shapes++] = (shape){ sym, arity, 0 };
  *v = l->n_symbols + l->n_shapes;
  return (uint32_t)*v - 1;
}

static uint32_t shape_of_sym(const lint *l, dl_sym sym, uint32_t arity)
{
  if (is_constant_shape(l, sym, arity)) return sym;
  PWord_t v = (PWord_t)JudyLGet(l->shape_of, shape_key(sym, arity), PJE0);
  return v && v != PJERR ? (uint32_t)*v - 1 : UINT32_MAX;
}

static uint32_t shape_of(const lint *l, const ast_term *t) { return shape_of_sym(l, t->value, ast_atom_arity(t)); }

/* The words of a set of term ids: a bitmap over the terms (programs of many
 * facts name each term many times). */
static size_t term_set_words(const lint *l) { return dl_terms_count(l->p->terms) / 64 + 1; }

/* A set of term ids, empty; NULL when out of memory. */
static uint64_t *new_term_set(const lint *l) { return calloc(term_set_words(l), sizeof(uint64_t)); }

/* Adds t to set; returns whether it was not there. */
static int first_time(uint64_t *set, dl_tid t)
{
  uint64_t bit = (uint64_t)1 << (t & 63), was = set[t >> 6] & bit;
  set[t >> 6] |= bit;
  return !was;
}

/* Adds the shapes of ground term t (an id) and of its subterms; the shape
 * of t, or UINT32_MAX when out of memory. */
static uint32_t add_term_shapes(lint *l, dl_tid t)
{
  const dl_terms *terms = l->p->terms;
  uint32_t n = dl_terms_arity(terms, t), s = add_shape(l, dl_terms_functor(terms, t), n);
  for (uint32_t i = 0; s != UINT32_MAX && i < n; i++)
    if (add_term_shapes(l, dl_terms_args(terms, t)[i]) == UINT32_MAX) return UINT32_MAX;
  return s;
}

/* Adds the shapes of t and of its subterms. */
static int add_shapes(lint *l, const ast_term *t)
{
  if (t->kind == AST_VAR) return 1;
  if (add_shape(l, t->value, ast_atom_arity(t)) == UINT32_MAX) return 0;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (!add_shapes(l, t->args[i])) return 0;
  return 1;
}

static int add_atom_shapes(lint *l, const ast_term *atom)
{
  for (uint32_t i = 0; atom->kind == AST_FUN && i < atom->n; i++)
    if (!add_shapes(l, atom->args[i])) return 0;
  return 1;
}

static int collect_shapes(lint *l)
{
  const ast_program *ast = l->p->ast;
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    const dl_rule *rule = &ast->rules[r];
    if (!add_atom_shapes(l, rule->head)) return 0;
    for (uint32_t k = 0; k < rule->n_body; k++) {
      const dl_literal *lit = &rule->body[k];
      if ((lit->kind == DL_POS || lit->kind == DL_NEG) && !add_atom_shapes(l, lit->atom)) return 0;
    }
  }
  uint64_t *seen = new_term_set(l);
  int ok = 1;
  for (uint32_t i = 0; ok && seen && i < ast->n_inputs; i++) {
    const ast_input *in = &ast->inputs[i];
    for (uint64_t k = 0; ok && in->in_program && k < in->n * in->arity; k++)
      ok = !first_time(seen, in->tuples[k]) || add_term_shapes(l, in->tuples[k]) != UINT32_MAX;
  }
  free(seen);
  return ok && seen;
}

/* Numbers the positions: the predicates' arguments, then the function
 * symbols'; allocates the sets. */
static int make_positions(lint *l)
{
  const dl_program *p = l->p;
  l->pred_pos = malloc((p->n_preds + 1) * sizeof *l->pred_pos);
  if (!l->pred_pos) return 0;
  uint32_t n = 0;
  for (uint32_t q = 0; q < p->n_preds; q++) l->pred_pos[q] = n, n += p->preds[q].arity;
  for (uint32_t s = 0; s < l->n_shapes; s++) l->shapes[s].pos = n, n += l->shapes[s].arity;
  l->n_pos = n;
  l->words = (uint32_t)(((uint64_t)l->n_symbols + l->n_shapes + 63) / 64 + 1);
  l->owner = malloc((n + 1) * sizeof *l->owner);
  l->index = malloc((n + 1) * sizeof *l->index);
  l->set = calloc((size_t)(n + 1) * l->words, sizeof *l->set);
  l->top = calloc(n + 1, 1);
  if (!l->owner || !l->index || !l->set || !l->top) return 0;
  for (uint32_t q = 0; q < p->n_preds; q++)
    for (uint32_t i = 0; i < p->preds[q].arity; i++) l->owner[l->pred_pos[q] + i] = q, l->index[l->pred_pos[q] + i] = i;
  for (uint32_t s = 0; s < l->n_shapes; s++)
    for (uint32_t i = 0; i < l->shapes[s].arity; i++)
      l->owner[l->shapes[s].pos + i] = p->n_preds + s, l->index[l->shapes[s].pos + i] = i;
  return 1;
}

static uint64_t *pos_set(const lint *l, uint32_t pos) { return l->set + (size_t)pos * l->words; }

static int has_shape(const lint *l, uint32_t pos, uint32_t s)
{
  return (int)((pos_set(l, pos)[s >> 6] >> (s & 63)) & 1);
}

/* ---- the fixpoint ---------------------------------------------------------------- */

/* Narrows the variables of t, which sits at position pos of a positive
 * body literal. */
static void narrow(lint *l, const ast_term *t, uint32_t pos)
{
  if (t->kind == AST_VAR) {
    if (l->top[pos]) return;
    uint64_t *v = l->var_set + (size_t)t->value * l->words;
    const uint64_t *s = pos_set(l, pos);
    if (!l->var_state[t->value]) memcpy(v, s, l->words * sizeof *v);
    else for (uint32_t w = 0; w < l->words; w++) v[w] &= s[w];
    l->var_state[t->value] = 1;
    return;
  }
  if (t->kind != AST_FUN) return;
  uint32_t s = shape_of(l, t);
  for (uint32_t i = 0; i < t->n; i++) narrow(l, t->args[i], arg_pos(l, s, i));
}

static int set_top(lint *l, uint32_t pos)
{
  if (l->top[pos]) return 0;
  l->top[pos] = 1;
  return 1;
}

static int add_bits(lint *l, uint32_t pos, const uint64_t *bits)
{
  uint64_t *s = pos_set(l, pos), changed = 0;
  for (uint32_t w = 0; w < l->words; w++) changed |= bits[w] & ~s[w], s[w] |= bits[w];
  return changed != 0;
}

/* Adds what head term t gives position pos; returns whether a set grew. */
static int give(lint *l, const ast_term *t, uint32_t pos)
{
  if (t->kind == AST_VAR) {
    if (!l->var_state[t->value]) return set_top(l, pos);
    return !l->top[pos] && add_bits(l, pos, l->var_set + (size_t)t->value * l->words);
  }
  uint32_t s = shape_of(l, t);
  int changed = 0;
  if (!l->top[pos] && !has_shape(l, pos, s)) {
    pos_set(l, pos)[s >> 6] |= (uint64_t)1 << (s & 63);
    changed = 1;
  }
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) changed |= give(l, t->args[i], arg_pos(l, s, i));
  return changed;
}

/* Adds ground term t (an id) at position pos, as give does a head term. */
static void give_term(lint *l, dl_tid t, uint32_t pos)
{
  const dl_terms *terms = l->p->terms;
  uint32_t n = dl_terms_arity(terms, t), s = shape_of_sym(l, dl_terms_functor(terms, t), n);
  if (!l->top[pos]) pos_set(l, pos)[s >> 6] |= (uint64_t)1 << (s & 63);
  for (uint32_t i = 0; i < n; i++) give_term(l, dl_terms_args(terms, t)[i], arg_pos(l, s, i));
}

/* Gives the positions of input i's predicate what its tuples hold: the
 * program's facts exactly, each term once per column, a data file
 * anything.  0 when out of memory. */
static int give_input(lint *l, uint32_t i)
{
  const ast_input *in = &l->p->ast->inputs[i];
  uint32_t q = l->p->input_pred[i], arity = l->p->preds[q].arity;
  for (uint32_t c = 0; !in->in_program && c < arity; c++) l->top[l->pred_pos[q] + c] = 1;
  uint64_t *seen = in->in_program && in->n ? new_term_set(l) : NULL;
  for (uint32_t c = 0; seen && c < arity; c++) {
    if (c) memset(seen, 0, term_set_words(l) * sizeof *seen);
    for (uint64_t k = c; k < in->n * arity; k += arity)
      if (first_time(seen, in->tuples[k])) give_term(l, in->tuples[k], l->pred_pos[q] + c);
  }
  free(seen);
  return seen || !in->in_program || !in->n;
}

static int var_empty(const lint *l, uint32_t v)
{
  const uint64_t *s = l->var_set + (size_t)v * l->words;
  for (uint32_t w = 0; w < l->words; w++)
    if (s[w]) return 0;
  return 1;
}

static int reserve_vars(lint *l, uint32_t n)
{
  if (n <= l->cap_vars) return 1;
  free(l->var_set);
  free(l->var_state);
  l->var_set = malloc((size_t)n * l->words * sizeof *l->var_set);
  l->var_state = malloc(n);
  l->cap_vars = l->var_set && l->var_state ? n : 0;
  return l->cap_vars != 0;
}

/* One pass of rule r; returns -1 when out of memory, else whether a set grew. */
static int apply_rule(lint *l, uint32_t r)
{
  const dl_rule *rule = &l->p->ast->rules[r];
  if (!reserve_vars(l, rule->n_vars + 1)) return -1;
  memset(l->var_state, 0, rule->n_vars + 1);
  for (uint32_t k = 0; k < rule->n_body; k++) {
    const dl_literal *lit = &rule->body[k];
    uint32_t at = l->lit_base[r] + k;
    if (lit->kind != DL_POS || (l->ignored[at] && at != l->kept)) continue;
    uint32_t q = l->p->lit_pred[r][k];
    for (uint32_t i = 0; i < ast_atom_arity(lit->atom); i++) narrow(l, lit->atom->args[i], l->pred_pos[q] + i);
  }
  for (uint32_t v = 0; v < rule->n_vars; v++)
    if (l->var_state[v] && var_empty(l, v)) return 0;  /* the rule never fires */
  int changed = 0;
  uint32_t h = l->p->head_pred[r];
  for (uint32_t i = 0; i < ast_atom_arity(rule->head); i++) changed |= give(l, rule->head->args[i], l->pred_pos[h] + i);
  return changed;
}

/* Position `to` gets everything of position `from` (GDL's true and does). */
static int flow(lint *l, uint32_t from, uint32_t to)
{
  if (l->top[from]) return set_top(l, to);
  return !l->top[to] && add_bits(l, to, pos_set(l, from));
}

/* Argument i of predicate `to` gets argument i of predicate `from`. */
static int flow_pred(lint *l, uint32_t from, uint32_t to, uint32_t i)
{
  if (from == DL_NO_PRED || to == DL_NO_PRED) return 0;
  if (l->p->preds[from].arity <= i || l->p->preds[to].arity <= i) return 0;
  return flow(l, l->pred_pos[from] + i, l->pred_pos[to] + i);
}

static int game_edges(lint *l)
{
  static const char *const state[] = { "init", "next", "base" }, *const moves[] = { "legal", "input" };
  int changed = 0;
  for (int k = 0; l->state_given && k < 3; k++) changed |= flow_pred(l, pred_named(l->p, state[k]), l->truth, 0);
  for (int k = 0; l->moves_given && k < 2; k++)
    for (uint32_t i = 0; i < 2; i++) changed |= flow_pred(l, pred_named(l->p, moves[k]), l->does, i);
  return changed;
}

static int is_defined(const lint *l, uint32_t q) { return q != DL_NO_PRED && l->defined[q]; }

/* Which predicates have rules; which of true and does are inputs (top).
 * 0 when out of memory. */
static int mark_given(lint *l)
{
  const dl_program *p = l->p;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) l->defined[p->head_pred[r]] = 1;
  for (uint32_t i = 0; i < p->ast->n_inputs; i++) {
    if (p->input_pred[i] == DL_NO_PRED) continue;
    l->defined[p->input_pred[i]] = 1;
    if (!give_input(l, i)) return 0;
  }
  l->truth = pred_named(p, "true");
  l->does = pred_named(p, "does");
  l->state_given = is_defined(l, pred_named(p, "init")) || is_defined(l, pred_named(p, "next")) ||
                   is_defined(l, pred_named(p, "base"));
  l->moves_given = is_defined(l, pred_named(p, "legal")) || is_defined(l, pred_named(p, "input"));
  uint32_t inputs[2] = { l->state_given ? DL_NO_PRED : l->truth, l->moves_given ? DL_NO_PRED : l->does };
  for (int k = 0; k < 2; k++)
    for (uint32_t i = 0; inputs[k] != DL_NO_PRED && i < p->preds[inputs[k]].arity; i++)
      l->top[l->pred_pos[inputs[k]] + i] = 1;
  return 1;
}

static int is_fact(const dl_rule *rule) { return rule->n_body == 0 && rule->n_vars == 0; }

/* Applies the rules until no set grows; a fact gives the same in every
 * pass, so only the first pass applies the facts. */
static int fixpoint(lint *l)
{
  int changed, first = 1;
  do {
    changed = game_edges(l);
    for (uint32_t r = 0; r < l->p->ast->n_rules; r++) {
      if (!first && is_fact(&l->p->ast->rules[r])) continue;
      int c = apply_rule(l, r);
      if (c < 0) return 0;
      changed |= c;
    }
    first = 0;
  } while (changed);
  return 1;
}

/* ---- warnings -------------------------------------------------------------------- */

/* Whether a warning was given at src/off already (or can be given no more). */
static int seen_before(lint *l, const dl_source *src, uint32_t off)
{
  int i = 0;
  while (i < MAX_SOURCES && l->seen_src[i] && l->seen_src[i] != src) i++;
  if (i == MAX_SOURCES) return 0;
  l->seen_src[i] = src;
  return Judy1Set(&l->reported[i], off, PJE0) != 1;
}

/* Whether diag holds a warning at src/off already (dl_lint_game's, which
 * says more: "not a role"). */
static int warned_there(const lint *l, const dl_source *src, uint32_t off)
{
  for (size_t i = 0; i < dl_diag_count(l->diag); i++) {
    const dl_message *m = dl_diag_message(l->diag, i);
    if (m->severity == DL_WARNING && m->src == src && m->off == off) return 1;
  }
  return 0;
}

static int may_warn(lint *l, const dl_rule *rule, uint32_t off)
{
  if (seen_before(l, rule->src, off) || warned_there(l, rule->src, off)) return 0;
  if (l->n_warnings++ < MAX_WARNINGS) return 1;
  if (l->n_warnings == MAX_WARNINGS + 1)
    dl_diag_report(l->diag, DL_NOTE, rule->src, off, "more literals that never hold are not shown");
  return 0;
}

static const char *name(const lint *l, dl_sym s) { return dl_terms_name(l->p->terms, s, NULL); }

/* A term (or subterm) of a body atom that puts a symbol where none can be,
 * with its position in *pos; NULL when there is none. */
static const ast_term *misplaced(const lint *l, const ast_term *t, uint32_t *pos)
{
  if (t->kind == AST_VAR || l->top[*pos]) return NULL;
  uint32_t s = shape_of(l, t);
  if (!has_shape(l, *pos, s)) return t;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) {
    uint32_t at = arg_pos(l, s, i);
    const ast_term *x = misplaced(l, t->args[i], &at);
    if (x) { *pos = at; return x; }
  }
  return NULL;
}

static const char *consequence(const dl_literal *lit)
{
  return lit->kind == DL_NEG ? "so this negation always holds" : "so this literal never holds";
}

static void warn_misplaced(lint *l, const dl_rule *rule, const dl_literal *lit, const ast_term *t, uint32_t pos)
{
  if (!may_warn(l, rule, t->off)) return;
  char what[160];
  if (t->kind == AST_FUN) snprintf(what, sizeof what, "'%s/%u'", name(l, t->value), t->n);
  else snprintf(what, sizeof what, "'%s'", name(l, t->value));
  uint32_t o = l->owner[pos], i = l->index[pos] + 1;
  const dl_program *p = l->p;
  if (o >= p->n_preds) {
    const shape *f = &l->shapes[o - p->n_preds];
    dl_diag_report(l->diag, DL_WARNING, rule->src, t->off,
                   "%s is never argument %u of '%s/%u': no rule or fact builds such a term, %s", what, i,
                   name(l, f->sym), f->arity, consequence(lit));
  } else if (o == l->truth) {
    dl_diag_report(l->diag, DL_WARNING, rule->src, t->off,
                   "%s is never in the state: no init, next or base rule gives it, %s", what, consequence(lit));
  } else if (o == l->does) {
    dl_diag_report(l->diag, DL_WARNING, rule->src, t->off,
                   "%s is never argument %u of a move: no legal or input rule gives it, %s", what, i,
                   consequence(lit));
  } else {
    dl_diag_report(l->diag, DL_WARNING, rule->src, t->off,
                   "%s is never argument %u of '%s': no rule or fact gives it, %s", what, i,
                   dl_program_pred_name(p, o), consequence(lit));
  }
}

/* Whether no rule or fact gives predicate q (true and does are given by
 * the game or are inputs). */
static int never_defined(const lint *l, uint32_t q)
{
  return !l->defined[q] && q != l->truth && q != l->does;
}

/* Whether literal k of rule r never holds: its predicate is defined nowhere,
 * or an argument puts a symbol where none can be (that one in *bad, at *pos). */
static int never_holds(const lint *l, uint32_t r, uint32_t k, const ast_term **bad, uint32_t *pos)
{
  const dl_literal *lit = &l->p->ast->rules[r].body[k];
  uint32_t q = l->p->lit_pred[r][k];
  *bad = NULL;
  if (never_defined(l, q)) return 1;
  for (uint32_t i = 0; i < ast_atom_arity(lit->atom); i++) {
    *pos = l->pred_pos[q] + i;
    if ((*bad = misplaced(l, lit->atom->args[i], pos))) return 1;
  }
  return 0;
}

static int is_atom(const dl_literal *lit) { return lit->kind == DL_POS || lit->kind == DL_NEG; }

/* Marks the literals that never hold, so that the second pass leaves them
 * out: what only they keep from holding is not reported again. */
static void mark_ignored(lint *l)
{
  const ast_program *ast = l->p->ast;
  for (uint32_t r = 0; r < ast->n_rules; r++)
    for (uint32_t k = 0; k < ast->rules[r].n_body; k++) {
      const ast_term *bad;
      uint32_t pos;
      l->ignored[l->lit_base[r] + k] = is_atom(&ast->rules[r].body[k]) && never_holds(l, r, k, &bad, &pos);
    }
}

static void report(lint *l, uint32_t r, uint32_t k, const ast_term *bad, uint32_t pos)
{
  const dl_rule *rule = &l->p->ast->rules[r];
  const dl_literal *lit = &rule->body[k];
  if (bad) warn_misplaced(l, rule, lit, bad, pos);
  else if (may_warn(l, rule, lit->atom->off))
    dl_diag_report(l->diag, DL_WARNING, rule->src, lit->atom->off,
                   "'%s' is never defined: no rule or fact has it as head, %s",
                   dl_program_pred_name(l->p, l->p->lit_pred[r][k]), consequence(lit));
}

/* The sets as mark_given left them, kept by keep_given. */
static void clear_sets(lint *l)
{
  memcpy(l->set, l->given_set, (size_t)(l->n_pos + 1) * l->words * sizeof *l->set);
  memcpy(l->top, l->given_top, l->n_pos + 1);
}

/* Keeps the sets mark_given made, for clear_sets: the inputs' tuples are
 * given once. */
static int keep_given(lint *l)
{
  size_t n_set = (size_t)(l->n_pos + 1) * l->words;
  l->given_set = malloc(n_set * sizeof *l->given_set);
  l->given_top = malloc(l->n_pos + 1);
  if (!l->given_set || !l->given_top) return 0;
  memcpy(l->given_set, l->set, n_set * sizeof *l->set);
  memcpy(l->given_top, l->top, l->n_pos + 1);
  return 1;
}

enum { MAX_RECHECKS = 64 };

/* Reports the literals of the user's rules that never hold even when every
 * other literal that never holds in the first pass is assumed to hold (left
 * out of the fixpoint): a typo then gets one warning, not one more per
 * literal that only it starves.  Each literal gets its own fixpoint; past
 * MAX_RECHECKS of them, one fixpoint with all of them left out serves the
 * rest (a literal whose rule only it starves is then missed).  Returns 0
 * when memory ran out. */
static int check_literals(lint *l)
{
  const ast_program *ast = l->p->ast;
  uint32_t rechecks = 0;
  int shared_done = 0;
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    const dl_rule *rule = &ast->rules[r];
    for (uint32_t k = 0; !rule->trusted && k < rule->n_body; k++) {
      const ast_term *bad;
      uint32_t pos, at = l->lit_base[r] + k;
      if (!l->ignored[at]) continue;
      if (!never_defined(l, l->p->lit_pred[r][k]) && (rechecks < MAX_RECHECKS || !shared_done)) {
        l->kept = rechecks++ < MAX_RECHECKS ? at : UINT32_MAX;
        shared_done = l->kept == UINT32_MAX;
        clear_sets(l);
        if (!fixpoint(l)) return 0;
      }
      if (never_holds(l, r, k, &bad, &pos)) report(l, r, k, bad, pos);
    }
  }
  return 1;
}

static int has_user_rules(const dl_program *p)
{
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    if (!p->ast->rules[r].trusted) return 1;
  return 0;
}

static void lint_free(lint *l)
{
  JudyLFreeArray(&l->shape_of, PJE0);
  free(l->given_set);
  free(l->given_top);
  for (int i = 0; i < MAX_SOURCES; i++) Judy1FreeArray(&l->reported[i], PJE0);
  free(l->shapes);
  free(l->pred_pos);
  free(l->owner);
  free(l->index);
  free(l->set);
  free(l->top);
  free(l->defined);
  free(l->var_set);
  free(l->var_state);
  free(l->lit_base);
  free(l->ignored);
}

/* Numbers the body literals of all rules, none ignored. */
static int number_literals(lint *l)
{
  const ast_program *ast = l->p->ast;
  l->lit_base = malloc((ast->n_rules + 1) * sizeof *l->lit_base);
  if (!l->lit_base) return 0;
  uint32_t n = 0;
  for (uint32_t r = 0; r < ast->n_rules; r++) l->lit_base[r] = n, n += ast->rules[r].n_body;
  l->ignored = calloc(n + 1, 1);
  return l->ignored != NULL;
}

/* The first pass finds the literals that never hold; check_literals sorts
 * out those that only others starve. */
static int lint_literals(const dl_program *p, dl_diag *diag)
{
  lint l;
  memset(&l, 0, sizeof l);
  l.p = p;
  l.diag = diag;
  l.kept = UINT32_MAX;
  l.defined = calloc(p->n_preds + 1, 1);
  l.n_symbols = dl_terms_symbol_count(p->terms);
  int ok = l.defined && number_literals(&l) && collect_shapes(&l) && make_positions(&l);
  ok = ok && mark_given(&l);
  ok = ok && keep_given(&l);
  ok = ok && fixpoint(&l);
  if (ok) mark_ignored(&l);
  ok = ok && check_literals(&l);
  lint_free(&l);
  return ok;
}

int dl_lint_program(const dl_program *p, dl_diag *diag)
{
  assert(p && p->strata && diag);
  if (!has_user_rules(p)) return 1;
  return dl_lint_game(p, diag) && lint_literals(p, diag);
}
