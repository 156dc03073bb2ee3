/* gamecheck.c: growth, moves and legal moves of a game (see gamecheck.h). */
#include "datalog/gdl/gamecheck.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/gdl/domains.h"
#include "lexer.h"

static uint32_t pred_named(const dl_program *p, const char *name, uint32_t arity)
{
  dl_sym s = dl_terms_symbol(p->terms, name, strlen(name));
  uint32_t q = s == DL_NO_SYM ? DL_NO_PRED : dl_program_pred(p, s);
  return q != DL_NO_PRED && p->preds[q].arity == arity ? q : DL_NO_PRED;
}

static const char *name(const dl_program *p, dl_sym s) { return dl_terms_name(p->terms, s, NULL); }

/* ---- growth ----------------------------------------------------------------------- */

/* Watches the function symbols named in cycle text z ("list -> list[2] ->
 * list"): the words without '['.  Returns 0 when out of memory. */
static int watch_cycle(const dl_program *p, const char *z, Pvoid_t *cyclic)
{
  while (*z) {
    const char *end = strstr(z, " -> ");
    size_t len = end ? (size_t)(end - z) : strlen(z);
    if (!memchr(z, '[', len)) {
      dl_sym s = dl_terms_symbol(p->terms, z, len);
      if (s == DL_NO_SYM || Judy1Set(cyclic, s, PJE0) == JERR) return 0;
    }
    z += len + (end ? 4 : 0);
  }
  return 1;
}

static int has_var(const ast_term *t)
{
  if (t->kind == AST_VAR) return 1;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (has_var(t->args[i])) return 1;
  return 0;
}

/* A subterm of t built of a cyclic symbol (any symbol when cyclic is
 * NULL) around a variable, or NULL. */
static const ast_term *growing_term(const ast_term *t, Pvoid_t cyclic)
{
  if (t->kind != AST_FUN) return NULL;
  if ((!cyclic || Judy1Test(cyclic, t->value, PJE0)) && has_var(t)) return t;
  for (uint32_t i = 0; i < t->n; i++) {
    const ast_term *g = growing_term(t->args[i], cyclic);
    if (g) return g;
  }
  return NULL;
}

/* The first rule of a recursive component whose head grows, in *rule, with
 * the growing term; NULL when there is none. */
static const ast_term *growing_rule(const dl_program *p, Pvoid_t cyclic, uint32_t *rule)
{
  const st_strata *st = p->strata;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    if (!st->recursive[st->scc_of[p->head_node[r]]]) continue;
    const ast_term *h = p->ast->rules[r].head;
    for (uint32_t i = 0; h->kind == AST_FUN && i < h->n; i++) {
      const ast_term *g = growing_term(h->args[i], cyclic);
      if (g) { *rule = r; return g; }
    }
  }
  return NULL;
}

/* The cycle of d that starts with symbol s, or the first one. */
static const char *cycle_of(const dl_program *p, const dl_domains *d, dl_sym s)
{
  const char *z = name(p, s);
  size_t len = strlen(z);
  for (size_t i = 0; i < dl_domains_cycle_count(d); i++) {
    const char *c = dl_domains_cycle(d, i);
    if (strncmp(c, z, len) == 0 && strncmp(c + len, " -> ", 4) == 0) return c;
  }
  return dl_domains_cycle(d, 0);
}

static int watch_all(const dl_program *p, Pvoid_t cyclic, uint64_t max_terms)
{
  Word_t s = 0;
  for (int rc = Judy1First(cyclic, &s, PJE0); rc == 1; rc = Judy1Next(cyclic, &s, PJE0))
    if (!dl_terms_watch(p->terms, (dl_sym)s)) return 0;
  dl_terms_set_watch_limit(p->terms, max_terms);
  return 1;
}

int dl_check_growth(const dl_program *p, uint64_t max_terms, dl_diag *diag)
{
  assert(p && p->strata && diag);
  uint32_t r = 0;
  if (!growing_rule(p, NULL, &r)) return 1;  /* no recursive rule builds terms: no need for the domains */
  dl_domains *d = dl_domains_build(p, diag);
  if (!d) return 0;
  Pvoid_t cyclic = NULL;
  int ok = 1;
  for (size_t i = 0; ok && i < dl_domains_cycle_count(d); i++) ok = watch_cycle(p, dl_domains_cycle(d, i), &cyclic);
  const ast_term *g = ok && cyclic ? growing_rule(p, cyclic, &r) : NULL;
  if (g) {
    const dl_rule *rule = &p->ast->rules[r];
    ok = watch_all(p, cyclic, max_terms);
    char limit[96] = "there is no limit (--max-terms 0)";
    if (max_terms) snprintf(limit, sizeof limit, "gdlog stops after %llu new terms of such symbols",
                            (unsigned long long)max_terms);
    dl_diag_report(diag, DL_WARNING, rule->src, g->off,
                   "the model may grow without end: this recursive rule builds '%s' terms, and '%s' is a "
                   "recursive function symbol (%s); %s", name(p, g->value), name(p, g->value),
                   cycle_of(p, d, g->value), limit);
  }
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while looking for growing terms");
  Judy1FreeArray(&cyclic, PJE0);
  dl_domains_destroy(d);
  return ok;
}

/* ---- moves ------------------------------------------------------------------------ */

/* The id of ground term t, or DL_NO_TERM when the store does not hold it. */
static dl_tid term_id(const dl_terms *terms, const ast_term *t)
{
  if (t->kind == AST_VAR) return DL_NO_TERM;
  if (t->kind == AST_SYM) return dl_terms_find(terms, t->value, 0, NULL);
  dl_tid args[t->n + 1];
  for (uint32_t i = 0; i < t->n; i++)
    if ((args[i] = term_id(terms, t->args[i])) == DL_NO_TERM) return DL_NO_TERM;
  return dl_terms_find(terms, t->value, t->n, args);
}

/* The user's fact role(r): where to warn about role r; NULL when absent. */
static const dl_rule *role_fact(const dl_program *p, uint32_t role, dl_tid r)
{
  for (uint32_t i = 0; i < p->ast->n_rules; i++) {
    const dl_rule *rule = &p->ast->rules[i];
    if (p->head_pred[i] == role && !rule->trusted && rule->n_body == 0 &&
        term_id(p->terms, rule->head->args[0]) == r)
      return rule;
  }
  return NULL;
}

static void warn_at_role(const dl_program *p, uint32_t role, dl_tid r, dl_diag *diag, const char *what)
{
  const dl_rule *rule = role_fact(p, role, r);
  dl_diag_report(diag, DL_WARNING, rule ? rule->src : NULL, rule ? rule->head->off : 0, "'%s' %s",
                 name(p, dl_terms_functor(p->terms, r)), what);
}

typedef struct moves {
  const dl_program *p;
  const ix_relation *roles, *legal;
  Pvoid_t first;   /* JudyL: role -> rule + 1 of its first does fact */
  dl_diag *diag;
} moves;

/* Where rule r is, as file:line:col. */
static void line_of(const dl_rule *rule, char *out, size_t cap)
{
  unsigned line = 0, col = 0;
  if (rule->src) lx_position(rule->src->text, rule->off, &line, &col);
  snprintf(out, cap, "%s:%u:%u", rule->src ? rule->src->name : "?", line, col);
}

/* Checks the does fact rule i; 0 when out of memory. */
static int check_move(moves *m, uint32_t i)
{
  const dl_program *p = m->p;
  const dl_rule *rule = &p->ast->rules[i];
  const ast_term *ra = rule->head->args[0], *aa = rule->head->args[1];
  dl_tid r = term_id(p->terms, ra), a = term_id(p->terms, aa);
  if (r == DL_NO_TERM || a == DL_NO_TERM) return 1;  /* not in the model: cannot be a role */
  if (!m->roles || !ix_relation_contains(m->roles, &r)) {
    dl_diag_report(m->diag, DL_WARNING, rule->src, ra->off, "'%s' is not a role of this game",
                   name(p, dl_terms_functor(p->terms, r)));
    return 1;
  }
  PWord_t v = (PWord_t)JudyLIns(&m->first, r, PJE0);
  if (v == PJERR) return 0;
  if (*v) {
    char at[300];
    line_of(&p->ast->rules[*v - 1], at, sizeof at);
    dl_diag_report(m->diag, DL_WARNING, rule->src, rule->head->off, "a second move for '%s' (its first is at %s)",
                   name(p, dl_terms_functor(p->terms, r)), at);
    return 1;
  }
  *v = i + 1;
  ix_val pair[2] = { r, a };
  if (!m->legal || !ix_relation_contains(m->legal, pair))
    dl_diag_report(m->diag, DL_WARNING, rule->src, aa->off, "this move is not legal for '%s' in this state",
                   name(p, dl_terms_functor(p->terms, r)));
  return 1;
}

int dl_check_moves(const dl_program *p, const dl_eval *e, dl_diag *diag)
{
  assert(p && e && diag);
  uint32_t role = pred_named(p, "role", 1), legal = pred_named(p, "legal", 2), does = pred_named(p, "does", 2);
  if (role == DL_NO_PRED || does == DL_NO_PRED) return 1;
  moves m = { p, dl_eval_relation(e, role), legal == DL_NO_PRED ? NULL : dl_eval_relation(e, legal), NULL, diag };
  int ok = 1;
  for (uint32_t i = 0; ok && i < p->ast->n_rules; i++)
    if (p->head_pred[i] == does && p->ast->rules[i].n_body == 0) ok = check_move(&m, i);
  ix_iter it;
  ix_val r;
  ix_iter_begin(&it, m.roles, 0, 0, NULL);
  while (ok && ix_iter_next(&it, &r))
    if (!JudyLGet(m.first, r, PJE0)) warn_at_role(p, role, r, diag, "has no move (no does fact for it)");
  JudyLFreeArray(&m.first, PJE0);
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while checking the moves");
  return ok;
}

int dl_check_legal_moves(const dl_program *p, const dl_eval *e, dl_diag *diag)
{
  assert(p && e && diag);
  uint32_t role = pred_named(p, "role", 1), legal = pred_named(p, "legal", 2), terminal = pred_named(p, "terminal", 0);
  if (role == DL_NO_PRED || legal == DL_NO_PRED) return 1;  /* a fragment, not a game */
  if (terminal != DL_NO_PRED && ix_relation_size(dl_eval_relation(e, terminal)) > 0) return 1;
  const ix_relation *legal_rel = dl_eval_relation(e, legal);
  ix_iter it;
  ix_val r;
  ix_iter_begin(&it, dl_eval_relation(e, role), 0, 0, NULL);
  while (ix_iter_next(&it, &r))
    if (!ix_relation_column_has(legal_rel, 0, r))
      warn_at_role(p, role, r, diag, "has no legal move in this state (and it is not terminal)");
  return 1;
}
