/* subsume.c: θ-subsumption between the rules of one head predicate (see
 * subsume.h), by a backtracking search for θ with a step budget. */
#include "datalog/eval/subsume.h"

#include <assert.h>
#include <stdlib.h>

enum {
  PAIR_STEPS = 1 << 12,     /* steps (literal comparisons, term matches) one pair may take */
  TOTAL_STEPS = 1 << 22     /* and all pairs together: then the rest count as not subsumed */
};

typedef struct search {
  const dl_program *p;
  uint32_t s, r;            /* does rule s subsume rule r? */
  const ast_term **theta;   /* per variable of s: its image, a term of r (NULL: unbound) */
  uint32_t *trail;          /* variables bound, in order */
  uint32_t n_trail;
  uint64_t steps, budget;
} search;

/* Are two terms of rule r the same term? */
static int same_term(const ast_term *a, const ast_term *b)
{
  if (a->kind != b->kind || a->value != b->value || a->n != b->n) return 0;
  for (uint32_t i = 0; i < a->n; i++)
    if (!same_term(a->args[i], b->args[i])) return 0;
  return 1;
}

/* Extends θ so that term t of s maps to term u of r; 0 when it cannot (θ
 * may then hold bindings the caller undoes). */
static int match_term(search *x, const ast_term *t, const ast_term *u)
{
  if (++x->steps > x->budget) return 0;
  if (t->kind == AST_VAR) {
    if (x->theta[t->value]) return same_term(x->theta[t->value], u);
    x->theta[t->value] = u;
    x->trail[x->n_trail++] = t->value;
    return 1;
  }
  if (t->kind != u->kind || t->value != u->value || t->n != u->n) return 0;
  for (uint32_t i = 0; i < t->n; i++)
    if (!match_term(x, t->args[i], u->args[i])) return 0;
  return 1;
}

static void undo(search *x, uint32_t mark)
{
  while (x->n_trail > mark) x->theta[x->trail[--x->n_trail]] = NULL;
}

/* Could literal a of s map to literal b of r (same kind and predicate)? */
static int same_kind(const search *x, uint32_t a, uint32_t b)
{
  const dl_literal *la = &x->p->ast->rules[x->s].body[a], *lb = &x->p->ast->rules[x->r].body[b];
  return la->kind == lb->kind && x->p->lit_pred[x->s][a] == x->p->lit_pred[x->r][b];
}

/* Maps literal a of s onto literal b of r, in one orientation for distinct
 * and equality (flip swaps the sides of r's). */
static int match_literal(search *x, uint32_t a, uint32_t b, int flip)
{
  const dl_literal *la = &x->p->ast->rules[x->s].body[a], *lb = &x->p->ast->rules[x->r].body[b];
  if (la->kind == DL_POS || la->kind == DL_NEG) return match_term(x, la->atom, lb->atom);
  return match_term(x, la->a, flip ? lb->b : lb->a) && match_term(x, la->b, flip ? lb->a : lb->b);
}

/* Can θ be extended so that the literals a.. of s are literals of r? */
static int match_body(search *x, uint32_t a)
{
  const dl_rule *s = &x->p->ast->rules[x->s], *r = &x->p->ast->rules[x->r];
  if (a == s->n_body) return 1;
  int sides = s->body[a].kind == DL_DISTINCT || s->body[a].kind == DL_EQUAL ? 2 : 1;
  for (uint32_t b = 0; b < r->n_body && x->steps <= x->budget; b++) {
    if (!same_kind(x, a, b)) continue;
    for (int flip = 0; flip < sides; flip++) {
      uint32_t mark = x->n_trail;
      if (match_literal(x, a, b, flip) && match_body(x, a + 1)) return 1;
      undo(x, mark);
    }
  }
  return 0;
}

/* Has every literal of s a literal of r of the same kind and predicate?
 * Each comparison counts as a step of the budget. */
static int kinds_present(search *x)
{
  const dl_rule *s = &x->p->ast->rules[x->s], *r = &x->p->ast->rules[x->r];
  for (uint32_t a = 0; a < s->n_body; a++) {
    uint32_t b = 0;
    while (b < r->n_body && ++x->steps <= x->budget && !same_kind(x, a, b)) b++;
    if (b == r->n_body || x->steps > x->budget) return 0;
  }
  return 1;
}

/* Does rule s subsume rule r?  No, when the search takes more than
 * PAIR_STEPS steps (or more than *total, from which it takes its steps). */
static int subsumes(search *x, uint32_t s, uint32_t r, uint64_t *total)
{
  x->s = s;
  x->r = r;
  x->steps = 1;  /* a pair costs a step even when its predicates differ */
  x->budget = *total < PAIR_STEPS ? *total : PAIR_STEPS;
  int found = kinds_present(x) && match_term(x, x->p->ast->rules[s].head, x->p->ast->rules[r].head) &&
              match_body(x, 0);
  undo(x, 0);
  *total -= x->steps < *total ? x->steps : *total;
  return found;
}

/* A rule kept in rule r's group (the rules of its head predicate,
 * group[0..n)) that subsumes r, or DL_NOT_SUBSUMED. */
static uint32_t subsumer(search *x, uint32_t r, const uint32_t *group, uint32_t n, const uint32_t *by,
                         uint64_t *total)
{
  for (uint32_t i = 0; i < n && *total; i++) {
    uint32_t s = group[i];
    if (s != r && by[s] == DL_NOT_SUBSUMED && x->p->ast->rules[s].n_body && subsumes(x, s, r, total)) return s;
  }
  return DL_NOT_SUBSUMED;
}

/* The rules grouped by head predicate: group p is by_pred[start[p] .. start[p + 1]). */
static void group_by_head(const dl_program *p, uint32_t *start, uint32_t *by_pred)
{
  for (uint32_t i = 0; i <= p->n_preds + 1; i++) start[i] = 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) start[p->head_pred[r] + 2]++;
  for (uint32_t i = 2; i <= p->n_preds + 1; i++) start[i] += start[i - 1];
  for (uint32_t r = 0; r < p->ast->n_rules; r++) by_pred[start[p->head_pred[r] + 1]++] = r;
}

int dl_subsumed_rules(const dl_program *p, uint32_t *by, uint32_t *n_out)
{
  assert(p && by && n_out);
  uint32_t n = p->ast->n_rules, max_vars = 1, marked = 0;
  for (uint32_t r = 0; r < n; r++) {
    by[r] = DL_NOT_SUBSUMED;
    if (p->ast->rules[r].n_vars > max_vars) max_vars = p->ast->rules[r].n_vars;
  }
  search x = { .p = p, .theta = calloc(max_vars, sizeof *x.theta), .trail = malloc(max_vars * sizeof *x.trail) };
  uint32_t *start = malloc((p->n_preds + 2) * sizeof *start), *by_pred = malloc((n + 1) * sizeof *by_pred);
  uint64_t total = TOTAL_STEPS;
  int ready = x.theta && x.trail && start && by_pred;  /* else (out of memory) none is marked */
  if (ready) group_by_head(p, start, by_pred);
  /* from the last rule back, so that of equivalent rules the first is kept */
  for (uint32_t r = n; ready && r-- > 0;) {
    uint32_t h = p->head_pred[r];
    if (p->ast->rules[r].n_body == 0) continue;
    by[r] = subsumer(&x, r, by_pred + start[h], start[h + 1] - start[h], by, &total);
    marked += by[r] != DL_NOT_SUBSUMED;
  }
  /* a subsumer left out later is subsumed by a rule kept (subsumption is
   * transitive, and each link was made before its target was left out) */
  for (uint32_t r = 0; r < n; r++)
    while (by[r] != DL_NOT_SUBSUMED && by[by[r]] != DL_NOT_SUBSUMED) by[r] = by[by[r]];
  free(x.theta);
  free(x.trail);
  free(start);
  free(by_pred);
  *n_out = marked;
  return ready;
}
