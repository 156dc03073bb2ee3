/* check.c: safety and GDL keyword checks, cycle reports (see check.h). */
#include "datalog/program/check.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- safety --------------------------------------------------------------- */

/* Reports the variables of t that are not bound (once per variable). */
static size_t report_unbound(const dl_program *p, const dl_rule *r, const ast_term *t,
                             uint8_t *bound, const char *where, dl_diag *diag)
{
  if (t->kind == AST_VAR && !bound[t->value]) {
    bound[t->value] = 1;  /* report each variable once */
    dl_diag_report(diag, DL_ERROR, r->src, t->off,
                   "variable %s %s does not occur in a positive literal of the body",
                   dl_terms_name(p->terms, r->var_names[t->value], NULL), where);
    return 1;
  }
  size_t n = 0;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    n += report_unbound(p, r, t->args[i], bound, where, diag);
  return n;
}

static size_t check_rule_safety(const dl_program *p, const dl_rule *r, uint8_t *bound, dl_diag *diag)
{
  memset(bound, 0, r->n_vars + 1);
  for (uint32_t k = 0; k < r->n_body; k++)
    if (r->body[k].kind == DL_POS) ast_mark_vars(r->body[k].atom, bound);
  size_t n = report_unbound(p, r, r->head, bound, "in the head", diag);
  for (uint32_t k = 0; k < r->n_body; k++) {
    const dl_literal *l = &r->body[k];
    if (l->kind == DL_NEG) n += report_unbound(p, r, l->atom, bound, "under 'not'", diag);
    if (l->kind == DL_DISTINCT || l->kind == DL_EQUAL) {
      n += report_unbound(p, r, l->a, bound, "in 'distinct'", diag);
      n += report_unbound(p, r, l->b, bound, "in 'distinct'", diag);
    }
  }
  return n;
}

size_t dl_check_safety(const dl_program *p, dl_diag *diag)
{
  assert(p && p->lit_pred && diag);
  size_t errors = 0, cap = 0;
  uint8_t *bound = NULL;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    const dl_rule *rule = &p->ast->rules[r];
    if (rule->n_vars + 1 > cap) {
      cap = rule->n_vars + 1;
      uint8_t *q = realloc(bound, cap);
      if (!q) { free(bound); return errors + 1; }
      bound = q;
    }
    errors += check_rule_safety(p, rule, bound, diag);
  }
  free(bound);
  return errors;
}

/* ---- GDL keywords ---------------------------------------------------------- */

typedef struct keywords {
  uint32_t role, init, next, legal, goal, terminal, truth, does;  /* predicates */
} keywords;

static uint32_t keyword(const dl_program *p, const char *name)
{
  dl_sym s = dl_terms_symbol(p->terms, name, strlen(name));
  return s == DL_NO_SYM ? DL_NO_PRED : dl_program_pred(p, s);
}

static uint8_t own_bits(const keywords *kw, uint32_t q)
{
  return (uint8_t)((q == kw->truth ? 1 : 0) | (q == kw->does ? 2 : 0));
}

/* dep[q] bit 1: q depends on true; bit 2: on does.  Bits flow from body to
 * head predicates through a worklist; each predicate is queued at most
 * once per bit it gains. */
static uint8_t *dependencies(const dl_program *p, const keywords *kw)
{
  const ast_program *ast = p->ast;
  uint32_t n = p->n_preds, n_uses = 0;
  uint32_t *start = calloc(n + 2, sizeof *start);
  for (uint32_t r = 0; start && r < ast->n_rules; r++)
    for (uint32_t k = 0; k < ast->rules[r].n_body; k++)
      if (p->lit_pred[r][k] != DL_NO_PRED) start[p->lit_pred[r][k] + 2]++, n_uses++;
  uint32_t *users = malloc((n_uses + 1) * sizeof *users), *queue = malloc((3 * (size_t)n + 3) * sizeof *queue);
  uint8_t *dep = calloc(n + 1, 1);
  if (!start || !users || !queue || !dep) { free(start); free(users); free(queue); free(dep); return NULL; }
  for (uint32_t q = 0; q < n; q++) start[q + 2] += start[q + 1];
  for (uint32_t r = 0; r < ast->n_rules; r++)
    for (uint32_t k = 0; k < ast->rules[r].n_body; k++)
      if (p->lit_pred[r][k] != DL_NO_PRED) users[start[p->lit_pred[r][k] + 1]++] = r;
  uint32_t head = 0, tail = 0;
  for (uint32_t q = 0; q < n; q++)
    if (own_bits(kw, q)) queue[tail++] = q;
  while (head < tail) {
    uint32_t q = queue[head++];
    uint8_t out = dep[q] | own_bits(kw, q);
    for (uint32_t i = start[q]; i < start[q + 1]; i++) {
      uint32_t h = p->head_pred[users[i]];
      if ((dep[h] | out) == dep[h]) continue;
      dep[h] |= out;
      queue[tail++] = h;  /* at most twice per predicate: it has two bits to gain */
    }
  }
  free(start);
  free(users);
  free(queue);
  return dep;
}

static size_t check_heads(const dl_program *p, const keywords *kw, dl_diag *diag)
{
  size_t n = 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    const dl_rule *rule = &p->ast->rules[r];
    uint32_t h = p->head_pred[r];
    if (rule->trusted) continue;
    if (h == kw->truth || h == kw->does) {
      dl_diag_report(diag, DL_ERROR, rule->src, rule->head->off,
                     "'%s' cannot be the head of a rule: in GDL it is given by the %s",
                     dl_program_pred_name(p, h), h == kw->truth ? "current state" : "players' moves");
      n++;
    } else if (h == kw->role && rule->n_body > 0) {
      dl_diag_report(diag, DL_ERROR, rule->src, rule->head->off,
                     "'role' is given by facts only in GDL: the roles are fixed before the game starts");
      n++;
    }
  }
  return n;
}

/* ---- the recursion restriction ------------------------------------------------ */

/* Marks in vars[] the variables of t. */
static void mark_vars(const ast_term *t, uint8_t *vars)
{
  if (t->kind == AST_VAR) vars[t->value] = 1;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) mark_vars(t->args[i], vars);
}

/* The first variable of t not marked in vars, or NULL. */
static const ast_term *unmarked_var(const ast_term *t, const uint8_t *vars)
{
  if (t->kind == AST_VAR) return vars[t->value] ? NULL : t;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) {
    const ast_term *v = unmarked_var(t->args[i], vars);
    if (v) return v;
  }
  return NULL;
}

/* Marks in in_cycle[] the predicates with a node in the component of
 * rule r's head; 0 when that component is not recursive. */
static int mark_cycle(const dl_program *p, uint32_t r, uint8_t *in_cycle)
{
  const st_strata *s = p->strata;
  uint32_t c = s->scc_of[p->head_node[r]];
  memset(in_cycle, 0, p->n_preds + 1);
  if (!s->recursive[c]) return 0;
  for (uint32_t i = s->scc_start[c]; i < s->scc_start[c + 1]; i++) in_cycle[p->node_pred[s->members[i]]] = 1;
  return 1;
}

/* GDL's recursion restriction on rule r: a variable of a body literal in
 * a cycle with the head occurs in the head or in a positive literal
 * outside the cycle (what keeps a game's model finite).  Reports the
 * first variable that breaks it; returns 1 then. */
static size_t check_recursive_rule(const dl_program *p, uint32_t r, uint8_t *in_cycle, uint8_t *vars, dl_diag *diag)
{
  const dl_rule *rule = &p->ast->rules[r];
  if (rule->trusted || !mark_cycle(p, r, in_cycle)) return 0;
  memset(vars, 0, rule->n_vars + 1);
  mark_vars(rule->head, vars);
  for (uint32_t k = 0; k < rule->n_body; k++)
    if (rule->body[k].kind == DL_POS && !in_cycle[p->lit_pred[r][k]]) mark_vars(rule->body[k].atom, vars);
  for (uint32_t k = 0; k < rule->n_body; k++) {
    if (rule->body[k].kind != DL_POS || !in_cycle[p->lit_pred[r][k]]) continue;
    const ast_term *v = unmarked_var(rule->body[k].atom, vars);
    if (!v) continue;
    const char *pred = dl_program_pred_name(p, p->lit_pred[r][k]);
    dl_diag_report(diag, DL_ERROR, rule->src, v->off,
                   "'%s' breaks GDL's recursion restriction: '%s' is recursive with the head '%s', so each of its "
                   "variables must occur in the head or in a positive literal outside the recursion",
                   dl_terms_name(p->terms, rule->var_names[v->value], NULL), pred,
                   dl_program_pred_name(p, p->head_pred[r]));
    return 1;
  }
  return 0;
}

/* GDL's recursion restriction on every rule; the number of rules that
 * break it (or 1 after reporting running out of memory). */
static size_t check_recursion(const dl_program *p, dl_diag *diag)
{
  uint32_t most_vars = 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    if (p->ast->rules[r].n_vars > most_vars) most_vars = p->ast->rules[r].n_vars;
  uint8_t *in_cycle = malloc(p->n_preds + 1), *vars = malloc(most_vars + 1);
  size_t n = 0;
  for (uint32_t r = 0; in_cycle && vars && r < p->ast->n_rules; r++) n += check_recursive_rule(p, r, in_cycle, vars, diag);
  if (!in_cycle || !vars) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while checking the program"), n = 1;
  free(in_cycle);
  free(vars);
  return n;
}

size_t dl_check_gdl(const dl_program *p, dl_diag *diag)
{
  assert(p && p->lit_pred && diag);
  keywords kw = { keyword(p, "role"), keyword(p, "init"), keyword(p, "next"), keyword(p, "legal"),
                  keyword(p, "goal"), keyword(p, "terminal"), keyword(p, "true"), keyword(p, "does") };
  /* the recursion restriction is GDL's: plain Datalog may recur freely */
  size_t n = check_heads(p, &kw, diag) + (kw.role != DL_NO_PRED ? check_recursion(p, diag) : 0);
  uint8_t *dep = dependencies(p, &kw);
  if (!dep) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while checking the program");
    return n + 1;
  }
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    const dl_rule *rule = &p->ast->rules[r];
    uint32_t h = p->head_pred[r];
    int is_init = h == kw.init, is_view = h == kw.legal || h == kw.goal || h == kw.terminal;
    if (rule->trusted || (!is_init && !is_view)) continue;
    for (uint32_t k = 0; k < rule->n_body; k++) {
      uint32_t b = p->lit_pred[r][k];
      if (b == DL_NO_PRED) continue;
      uint8_t d = dep[b] | (b == kw.truth ? 1 : 0) | (b == kw.does ? 2 : 0);
      if (is_init ? d == 0 : !(d & 2)) continue;
      dl_diag_report(diag, DL_ERROR, rule->src, rule->body[k].off,
                     "'%s' must not depend on %s in GDL, but this literal does",
                     dl_program_pred_name(p, h), is_init ? "'true' or 'does'" : "'does'");
      n++;
      break;
    }
  }
  free(dep);
  return n;
}

/* ---- cycles through negation ------------------------------------------------ */

/* The body literal of rule r that makes edge e. */
static const dl_literal *edge_literal(const dl_program *p, const st_edge *e)
{
  const dl_rule *rule = &p->ast->rules[e->label];
  for (uint32_t k = 0; k < rule->n_body; k++)
    if (p->lit_pred[e->label][k] == p->node_pred[e->from] && (rule->body[k].kind == DL_NEG) == e->negative)
      return &rule->body[k];
  return NULL;
}

void dl_check_report_cycle(const dl_program *p, const st_cycle *c, dl_diag *diag)
{
  assert(p && c && c->n > 0 && diag);
  char text[900];
  size_t n = 0;
  const st_edge *first = &c->edges[0];
  n += (size_t)snprintf(text, sizeof text, "%s", dl_program_pred_name(p, p->node_pred[first->to]));
  for (uint32_t i = 0; i < c->n && n < sizeof text - 100; i++) {
    const st_edge *e = i == 0 ? first : &c->edges[c->n - i];
    n += (size_t)snprintf(text + n, sizeof text - n, " -> %s%s", e->negative ? "~" : "",
                          dl_program_pred_name(p, p->node_pred[e->from]));
  }
  const dl_literal *l = edge_literal(p, first);
  const dl_rule *rule = &p->ast->rules[first->label];
  dl_diag_report(diag, DL_ERROR, rule->src, l ? l->off : rule->off,
                 "recursion through negation: %s", text);
  for (uint32_t i = 1; i < c->n; i++) {
    const st_edge *e = &c->edges[c->n - i];
    const dl_rule *ri = &p->ast->rules[e->label];
    const dl_literal *li = edge_literal(p, e);
    dl_diag_report(diag, DL_NOTE, ri->src, li ? li->off : ri->off, "'%s' uses %s'%s' here",
                   dl_program_pred_name(p, p->node_pred[e->to]), e->negative ? "not " : "",
                   dl_program_pred_name(p, p->node_pred[e->from]));
  }
}
