/* program.c: predicate table, arity checks, strata (see program.h).  The
 * checks of check.h and lint.h run over the finished table: build.c calls
 * them, so this file depends on nothing of theirs. */
#include "datalog/program/program.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

uint32_t dl_program_pred(const dl_program *p, dl_sym sym)
{
  assert(p);
  PWord_t v = (PWord_t)JudyLGet(p->pred_of_sym, sym, PJE0);
  return v && v != PJERR ? (uint32_t)*v - 1 : DL_NO_PRED;
}

const char *dl_program_pred_name(const dl_program *p, uint32_t i)
{
  assert(p && i < p->n_preds);
  return dl_terms_name(p->terms, p->preds[i].name, NULL);
}

/* The predicate of atom a, added when new.  An arity other than the one seen
 * first is reported; returns DL_NO_PRED then, or when out of memory. */
static uint32_t resolve(dl_program *p, const ast_term *a, const dl_source *src, dl_diag *diag)
{
  uint32_t i = dl_program_pred(p, a->value);
  if (i != DL_NO_PRED) {
    const dl_pred *d = &p->preds[i];
    if (d->arity == ast_atom_arity(a)) return i;
    unsigned line, col;
    lx_position(d->src->text, d->off, &line, &col);
    dl_diag_report(diag, DL_ERROR, src, a->off,
                   "'%s' is used with %u argument%s here, but with %u at %s:%u:%u",
                   dl_program_pred_name(p, i), ast_atom_arity(a), ast_atom_arity(a) == 1 ? "" : "s",
                   d->arity, d->src->name, line, col);
    return DL_NO_PRED;
  }
  if (p->n_preds == p->cap_preds) {
    uint32_t cap = p->cap_preds ? p->cap_preds * 2 : 64;
    dl_pred *q = realloc(p->preds, cap * sizeof *q);
    if (!q) return DL_NO_PRED;
    p->preds = q;
    p->cap_preds = cap;
  }
  PWord_t v = (PWord_t)JudyLIns(&p->pred_of_sym, a->value, PJE0);
  if (v == PJERR) return DL_NO_PRED;
  dl_pred d = { a->value, ast_atom_arity(a), src, a->off };
  p->preds[p->n_preds] = d;
  *v = ++p->n_preds;
  return p->n_preds - 1;
}

/* Resolves the atoms of every rule; returns the number of arity errors. */
static size_t resolve_all(dl_program *p, dl_diag *diag)
{
  size_t errors = 0;
  const ast_program *ast = p->ast;
  p->head_pred = malloc((ast->n_rules + 1) * sizeof *p->head_pred);
  p->lit_pred = calloc(ast->n_rules + 1, sizeof *p->lit_pred);
  if (!p->head_pred || !p->lit_pred) return 1;
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    const dl_rule *rule = &ast->rules[r];
    p->head_pred[r] = resolve(p, rule->head, rule->src, diag);
    errors += p->head_pred[r] == DL_NO_PRED;
    p->lit_pred[r] = dl_arena_alloc(ast->arena, (rule->n_body + 1) * sizeof(uint32_t));
    if (!p->lit_pred[r]) return errors + 1;
    for (uint32_t k = 0; k < rule->n_body; k++) {
      const dl_literal *l = &rule->body[k];
      int atom = l->kind == DL_POS || l->kind == DL_NEG;
      p->lit_pred[r][k] = atom ? resolve(p, l->atom, rule->src, diag) : DL_NO_PRED;
      errors += atom && p->lit_pred[r][k] == DL_NO_PRED;
    }
  }
  return errors;
}

/* Resolves the program's facts taken as input relations, before the rules:
 * as their clauses would be, at their first fact (most programs list their
 * facts first, so a clash is reported where it was before they were taken).
 * Returns the number of arity errors. */
static size_t resolve_program_facts(dl_program *p, dl_diag *diag)
{
  const ast_program *ast = p->ast;
  size_t errors = 0;
  for (uint32_t i = 0; i < ast->n_inputs; i++) {
    const ast_input *in = &ast->inputs[i];
    if (!in->in_program) continue;
    ast_term atom = { AST_FUN, in->off, in->pred, in->arity, NULL };
    p->input_pred[i] = resolve(p, &atom, in->src, diag);
    errors += p->input_pred[i] == DL_NO_PRED;
  }
  return errors;
}

/* Resolves the input relations of data files, after the rules; returns the
 * number of arity errors. */
static size_t resolve_inputs(dl_program *p, dl_diag *diag)
{
  const ast_program *ast = p->ast;
  size_t errors = 0;
  for (uint32_t i = 0; i < ast->n_inputs; i++) {
    const ast_input *in = &ast->inputs[i];
    if (in->in_program) continue;
    uint32_t q = p->input_pred[i] = dl_program_pred(p, in->pred);
    const char *name = dl_terms_name(p->terms, in->pred, NULL);
    if (q == DL_NO_PRED) {
      dl_diag_report(diag, DL_WARNING, in->src, 0, "no rule uses '%s': its tuples are not read", name);
      continue;
    }
    const dl_pred *d = &p->preds[q];
    if (in->arity == AST_ANY_ARITY || in->arity == d->arity) continue;
    unsigned line, col;
    lx_position(d->src->text, d->off, &line, &col);
    dl_diag_report(diag, DL_ERROR, in->src, 0, "'%s' has %u column%s here, but %u argument%s at %s:%u:%u", name,
                   in->arity, in->arity == 1 ? "" : "s", d->arity, d->arity == 1 ? "" : "s", d->src->name, line, col);
    errors++;
  }
  return errors;
}

/* ---- nodes: rules grouped by predicate and head constants ------------------------ */

enum { MAX_NODES_PER_PRED = 32 };
#define WILD DL_NO_SYM
#define NO_RULE UINT32_MAX

/* The constant at head argument i of rule r, or WILD. */
static dl_sym head_constant(const dl_rule *r, uint32_t i)
{
  const ast_term *a = r->head->kind == AST_FUN ? r->head->args[i] : NULL;
  return a && a->kind == AST_SYM ? a->value : WILD;
}

static int same_head_constants(const dl_rule *a, const dl_rule *b, uint32_t arity)
{
  for (uint32_t i = 0; i < arity; i++)
    if (head_constant(a, i) != head_constant(b, i)) return 0;
  return 1;
}

typedef struct node_table {
  uint32_t *rep;        /* per node: the rule whose head constants it stands for, NO_RULE: none */
  uint32_t *of_pred;    /* per predicate: MAX_NODES_PER_PRED + 1 node slots */
  uint32_t *count;      /* per predicate: nodes */
  uint32_t *wild;       /* per predicate: its node without constants, or NO_RULE */
} node_table;

static uint32_t add_node(dl_program *p, node_table *t, uint32_t pred, uint32_t rep)
{
  uint32_t n = p->n_nodes++;
  p->node_pred[n] = pred;
  t->rep[n] = rep;
  t->of_pred[pred * (MAX_NODES_PER_PRED + 1) + t->count[pred]++] = n;
  return n;
}

/* The node of rule r's head. */
static uint32_t node_of_rule(dl_program *p, node_table *t, uint32_t r)
{
  const dl_rule *rule = &p->ast->rules[r];
  uint32_t q = p->head_pred[r], arity = p->preds[q].arity;
  int has_constants = 0;
  for (uint32_t i = 0; i < arity; i++) has_constants |= head_constant(rule, i) != WILD;
  if (rule->n_body > 0 && has_constants) {
    for (uint32_t k = 0; k < t->count[q]; k++) {
      uint32_t n = t->of_pred[q * (MAX_NODES_PER_PRED + 1) + k];
      if (t->rep[n] != NO_RULE && same_head_constants(&p->ast->rules[t->rep[n]], rule, arity)) return n;
    }
    if (t->count[q] < MAX_NODES_PER_PRED) return add_node(p, t, q, r);
  }
  if (t->wild[q] == NO_RULE) t->wild[q] = add_node(p, t, q, NO_RULE);
  return t->wild[q];
}

/* Can atom a match the heads of node n? */
static int literal_matches(const dl_program *p, const node_table *t, const ast_term *a, uint32_t n)
{
  if (t->rep[n] == NO_RULE) return 1;
  const dl_rule *rep = &p->ast->rules[t->rep[n]];
  for (uint32_t i = 0; i < ast_atom_arity(a); i++) {
    dl_sym c = head_constant(rep, i);
    const ast_term *x = a->args[i];
    if (c != WILD && (x->kind == AST_FUN || (x->kind == AST_SYM && x->value != c))) return 0;
  }
  return 1;
}

static int add_edges(dl_program *p, const node_table *t, st_graph *g)
{
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    const dl_rule *rule = &p->ast->rules[r];
    for (uint32_t k = 0; k < rule->n_body; k++) {
      uint32_t q = p->lit_pred[r][k];
      if (q == DL_NO_PRED) continue;
      for (uint32_t j = 0; j < t->count[q]; j++) {
        uint32_t n = t->of_pred[q * (MAX_NODES_PER_PRED + 1) + j];
        if (literal_matches(p, t, rule->body[k].atom, n) &&
            !st_graph_add_edge(g, n, p->head_node[r], rule->body[k].kind == DL_NEG, r))
          return 0;
      }
    }
  }
  return 1;
}

/* Lists the distinct predicates of each component. */
static int component_preds(dl_program *p)
{
  const st_strata *s = p->strata;
  p->comp_start = calloc(s->n_sccs + 1, sizeof *p->comp_start);
  p->comp_preds = malloc((p->n_nodes + 1) * sizeof *p->comp_preds);
  uint32_t *seen = malloc((p->n_preds + 1) * sizeof *seen);
  if (!p->comp_start || !p->comp_preds || !seen) { free(seen); return 0; }
  memset(seen, 0xff, (p->n_preds + 1) * sizeof *seen);
  uint32_t n = 0;
  for (uint32_t c = 0; c < s->n_sccs; c++) {
    p->comp_start[c] = n;
    for (uint32_t i = s->scc_start[c]; i < s->scc_start[c + 1]; i++) {
      uint32_t q = p->node_pred[s->members[i]];
      if (seen[q] != c) p->comp_preds[n++] = q;
      seen[q] = c;
    }
  }
  p->comp_start[s->n_sccs] = n;
  free(seen);
  return 1;
}

const uint32_t *dl_program_component_preds(const dl_program *p, uint32_t c, uint32_t *n)
{
  assert(p && p->strata && c < p->strata->n_sccs && n);
  *n = p->comp_start[c + 1] - p->comp_start[c];
  return p->comp_preds + p->comp_start[c];
}

int dl_program_stratify(dl_program *p, st_cycle *cycle, dl_diag *diag)
{
  assert(p && p->head_pred && !p->strata && cycle && diag);
  uint32_t n_rules = p->ast->n_rules;
  node_table t = { malloc((n_rules + 1) * sizeof(uint32_t)),
                   malloc(((size_t)p->n_preds + 1) * (MAX_NODES_PER_PRED + 1) * sizeof(uint32_t)),
                   calloc(p->n_preds + 1, sizeof(uint32_t)), malloc((p->n_preds + 1) * sizeof(uint32_t)) };
  p->node_pred = malloc((n_rules + 1) * sizeof *p->node_pred);
  p->head_node = malloc((n_rules + 1) * sizeof *p->head_node);
  int ok = t.rep && t.of_pred && t.count && t.wild && p->node_pred && p->head_node;
  if (ok) memset(t.wild, 0xff, (p->n_preds + 1) * sizeof(uint32_t));
  for (uint32_t r = 0; ok && r < n_rules; r++) p->head_node[r] = node_of_rule(p, &t, r);
  st_graph *g = ok ? st_graph_create(p->n_nodes) : NULL;
  ok = g && add_edges(p, &t, g);
  ok = ok && st_strata_build(g, &p->strata, cycle);
  if (ok && p->strata && !component_preds(p)) ok = 0;
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while stratifying");
  st_graph_destroy(g);
  free(t.rep);
  free(t.of_pred);
  free(t.count);
  free(t.wild);
  return ok && p->strata;
}

dl_program *dl_program_create(ast_program *ast, dl_terms *terms, dl_diag *diag)
{
  assert(ast && terms && diag);
  dl_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->terms = terms;
  p->ast = ast;
  size_t errors = dl_diag_errors(diag);
  p->input_pred = malloc((ast->n_inputs + 1) * sizeof *p->input_pred);
  size_t bad = !p->input_pred;
  if (bad == 0) bad = resolve_program_facts(p, diag) + resolve_all(p, diag);
  if (bad == 0) bad = resolve_inputs(p, diag);
  if (bad == 0) return p;
  if (dl_diag_errors(diag) == errors)
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while checking the program");
  dl_program_destroy(p);
  return NULL;
}

void dl_program_destroy(dl_program *p)
{
  if (!p) return;
  free(p->preds);
  JudyLFreeArray(&p->pred_of_sym, PJE0);
  free(p->head_pred);
  free(p->lit_pred);
  free(p->input_pred);
  free(p->node_pred);
  free(p->head_node);
  free(p->comp_start);
  free(p->comp_preds);
  st_strata_destroy(p->strata);
  free(p);
}

dl_sym dl_program_fresh_symbol(const dl_program *p, const char *prefix, uint32_t n)
{
  assert(p && prefix);
  char name[64];
  int len = snprintf(name, sizeof name, "%s_%u", prefix, n);
  dl_sym s = dl_terms_symbol(p->terms, name, (size_t)len);
  while (s != DL_NO_SYM && dl_program_pred(p, s) != DL_NO_PRED && len + 1 < (int)sizeof name) {
    memmove(name + 1, name, (size_t)len + 1);
    name[0] = '_';
    s = dl_terms_symbol(p->terms, name, (size_t)++len);
  }
  return s;
}
