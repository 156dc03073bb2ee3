/* program.c: predicate table, arity checks, strata (see program.h). */
#include "datalog/program.h"

#include <stdio.h>
#include <stdlib.h>

#include "datalog/check.h"
#include "lexer.h"

uint32_t dl_program_pred(const dl_program *p, dl_sym sym)
{
  PWord_t v = (PWord_t)JudyLGet(p->pred_of_sym, sym, PJE0);
  return v && v != PJERR ? (uint32_t)*v - 1 : DL_NO_PRED;
}

const char *dl_program_pred_name(const dl_program *p, uint32_t i)
{
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

/* Builds the dependency graph and stratifies it; 0 after reporting a cycle. */
static int stratify(dl_program *p, dl_diag *diag)
{
  st_graph *g = st_graph_create(p->n_preds);
  int ok = g != NULL;
  for (uint32_t r = 0; ok && r < p->ast->n_rules; r++) {
    const dl_rule *rule = &p->ast->rules[r];
    for (uint32_t k = 0; ok && k < rule->n_body; k++) {
      if (p->lit_pred[r][k] == DL_NO_PRED) continue;
      ok = st_graph_add_edge(g, p->lit_pred[r][k], p->head_pred[r],
                             rule->body[k].kind == DL_NEG, r);
    }
  }
  st_cycle cycle = { 0 };
  int rc = ok ? st_stratify(g, &p->strata, &cycle) : -1;
  if (rc == 0) dl_check_report_cycle(p, &cycle, diag);
  if (rc < 0) dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory while stratifying");
  st_cycle_free(&cycle);
  st_graph_destroy(g);
  return rc == 1;
}

dl_program *dl_program_build(ast_program *ast, dl_terms *terms, dl_diag *diag)
{
  dl_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->terms = terms;
  p->ast = ast;
  size_t errors = resolve_all(p, diag);
  if (errors == 0) errors += dl_check_safety(p, diag);
  if (errors == 0 && stratify(p, diag) && dl_check_gdl(p, diag) == 0) return p;
  if (dl_diag_errors(diag) == 0)
    dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory while checking the program");
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
  st_strata_destroy(p->strata);
  free(p);
}
