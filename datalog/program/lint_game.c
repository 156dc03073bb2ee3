/* lint_game.c: the warnings about GDL games (see lint.h): goal values,
 * roles that are not declared, a missing terminal rule. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/program/lint.h"

enum { MAX_WARNINGS = 20, MAX_ROLES_SHOWN = 8 };

typedef struct game {
  const dl_program *p;
  dl_diag *diag;
  uint32_t role, legal, does, goal, terminal;  /* predicates, or DL_NO_PRED */
  dl_sym *roles;           /* the constants of the role facts */
  uint32_t n_roles;
  int roles_known;         /* every role rule is a fact role(constant) */
  const dl_rule *first_role;  /* the first role fact the user wrote */
  Pvoid_t reported;        /* Judy1 of the ast terms warned about */
  uint32_t n_warnings;
} game;

static uint32_t pred_named(const dl_program *p, const char *name)
{
  dl_sym s = dl_terms_symbol(p->terms, name, strlen(name));
  return s == DL_NO_SYM ? DL_NO_PRED : dl_program_pred(p, s);
}

static const char *name(const game *g, dl_sym s) { return dl_terms_name(g->p->terms, s, NULL); }

/* Whether to warn about term t (once per term: `or` copies rules). */
static int may_warn(game *g, const dl_rule *rule, const ast_term *t)
{
  if (Judy1Set(&g->reported, (Word_t)t, PJE0) != 1) return 0;
  if (g->n_warnings++ < MAX_WARNINGS) return 1;
  if (g->n_warnings == MAX_WARNINGS + 1)
    dl_diag_report(g->diag, DL_NOTE, rule->src, t->off, "more warnings about this game are not shown");
  return 0;
}

/* Collects the roles; 0 when out of memory. */
static int collect_roles(game *g)
{
  const ast_program *ast = g->p->ast;
  g->roles = malloc((ast->n_rules + 1) * sizeof *g->roles);
  if (!g->roles) return 0;
  g->roles_known = 1;
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    const dl_rule *rule = &ast->rules[r];
    if (g->p->head_pred[r] != g->role) continue;
    const ast_term *a = ast_atom_arity(rule->head) == 1 ? rule->head->args[0] : NULL;
    if (!a || a->kind != AST_SYM || rule->n_body) { g->roles_known = 0; continue; }
    g->roles[g->n_roles++] = a->value;
    if (!g->first_role && !rule->trusted) g->first_role = rule;
  }
  return 1;
}

static int is_role(const game *g, dl_sym s)
{
  for (uint32_t i = 0; i < g->n_roles; i++)
    if (g->roles[i] == s) return 1;
  return 0;
}

/* Warns when atom a (of legal, does or goal) names a constant that is not a role. */
static void check_role_arg(game *g, const dl_rule *rule, const ast_term *a)
{
  const ast_term *x = ast_atom_arity(a) ? a->args[0] : NULL;
  if (!g->roles_known || !x || x->kind != AST_SYM || is_role(g, x->value) || !may_warn(g, rule, x)) return;
  char list[400];
  size_t n = 0;
  list[0] = 0;
  for (uint32_t i = 0; i < g->n_roles && i < MAX_ROLES_SHOWN && n < sizeof list - 100; i++)
    n += (size_t)snprintf(list + n, sizeof list - n, "%s'%s'", i ? ", " : "", name(g, g->roles[i]));
  if (g->n_roles > MAX_ROLES_SHOWN) snprintf(list + n, sizeof list - n, ", ...");
  dl_diag_report(g->diag, DL_WARNING, rule->src, x->off, "'%s' is not a role of this game (its roles: %s)",
                 name(g, x->value), list);
}

/* Whether symbol s is an integer from 0 to 100. */
static int is_score(const game *g, dl_sym s)
{
  size_t len;
  const char *z = dl_terms_name(g->p->terms, s, &len);
  if (len == 0 || len > 3) return 0;
  for (size_t i = 0; i < len; i++)
    if (z[i] < '0' || z[i] > '9') return 0;
  return atoi(z) <= 100;
}

static void check_goal_value(game *g, const dl_rule *rule)
{
  const ast_term *v = ast_atom_arity(rule->head) == 2 ? rule->head->args[1] : NULL;
  if (!v || v->kind == AST_VAR || (v->kind == AST_SYM && is_score(g, v->value)) || !may_warn(g, rule, v)) return;
  dl_diag_report(g->diag, DL_WARNING, rule->src, v->off, "goal value '%s%s' is not an integer from 0 to 100",
                 name(g, v->value), v->kind == AST_FUN ? "(...)" : "");
}

static void check_rules(game *g)
{
  const dl_program *p = g->p;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    const dl_rule *rule = &p->ast->rules[r];
    if (rule->trusted) continue;
    uint32_t h = p->head_pred[r];
    if (h == g->goal) check_goal_value(g, rule);
    if (h == g->legal || h == g->goal) check_role_arg(g, rule, rule->head);
    for (uint32_t k = 0; k < rule->n_body; k++) {
      uint32_t q = p->lit_pred[r][k];
      if (q != DL_NO_PRED && (q == g->legal || q == g->does || q == g->goal))
        check_role_arg(g, rule, rule->body[k].atom);
    }
  }
}

static int has_rule(const dl_program *p, uint32_t pred)
{
  for (uint32_t r = 0; pred != DL_NO_PRED && r < p->ast->n_rules; r++)
    if (p->head_pred[r] == pred) return 1;
  return 0;
}

int dl_lint_game(const dl_program *p, dl_diag *diag)
{
  assert(p && p->strata && diag);
  game g;
  memset(&g, 0, sizeof g);
  g.p = p;
  g.diag = diag;
  g.role = pred_named(p, "role");
  g.legal = pred_named(p, "legal");
  g.does = pred_named(p, "does");
  g.goal = pred_named(p, "goal");
  g.terminal = pred_named(p, "terminal");
  if (g.role == DL_NO_PRED) return 1;
  if (!collect_roles(&g)) return 0;
  if (g.first_role) {  /* a game: the user wrote its roles */
    check_rules(&g);
    if (has_rule(p, g.legal) && !has_rule(p, g.terminal))  /* a playable game, not a fragment */
      dl_diag_report(diag, DL_WARNING, g.first_role->src, g.first_role->off,
                     "this game has no rule for 'terminal': no state ends it");
  }
  Judy1FreeArray(&g.reported, PJE0);
  free(g.roles);
  return 1;
}
