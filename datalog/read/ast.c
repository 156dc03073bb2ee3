/* ast.c: program containers (see ast.h). */
#include "datalog/read/ast.h"

#include <assert.h>
#include <stdlib.h>

ast_program *ast_program_create(void)
{
  ast_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->arena = dl_arena_create();
  if (!p->arena) {
    free(p);
    return NULL;
  }
  return p;
}

void ast_program_destroy(ast_program *p)
{
  if (!p) return;
  dl_arena_destroy(p->arena);
  free(p->clauses);
  free(p->rules);
  free(p->inputs);
  free(p);
}

int ast_program_add_clause(ast_program *p, ast_clause *c)
{
  if (p->n_clauses == p->cap_clauses) {
    uint32_t cap = p->cap_clauses ? p->cap_clauses * 2 : 256;
    ast_clause **q = realloc(p->clauses, cap * sizeof *q);
    if (!q) return 0;
    p->clauses = q;
    p->cap_clauses = cap;
  }
  p->clauses[p->n_clauses++] = c;
  return 1;
}

int ast_rules_push(dl_rule **rules, uint32_t *n, uint32_t *cap, const dl_rule *r)
{
  if (*n == *cap) {
    uint32_t c = *cap ? *cap * 2 : 64;
    dl_rule *q = realloc(*rules, c * sizeof *q);
    if (!q) return 0;
    *rules = q;
    *cap = c;
  }
  (*rules)[(*n)++] = *r;
  return 1;
}

int ast_program_add_rule(ast_program *p, const dl_rule *r)
{
  return ast_rules_push(&p->rules, &p->n_rules, &p->cap_rules, r);
}

int ast_program_add_input(ast_program *p, ast_input in)
{
  assert(p);
  ast_input *q = realloc(p->inputs, (p->n_inputs + 1) * sizeof *q);
  if (!q) return 0;
  p->inputs = q;
  p->inputs[p->n_inputs++] = in;
  return 1;
}

dl_tid ast_ground_term(dl_terms *terms, const ast_term *t)
{
  assert(terms && t && t->kind != AST_VAR);
  if (t->kind == AST_SYM) return dl_terms_constant(terms, t->value);
  dl_tid args[t->n];
  for (uint32_t i = 0; i < t->n; i++)
    if ((args[i] = ast_ground_term(terms, t->args[i])) == DL_NO_TERM) return DL_NO_TERM;
  return dl_terms_make(terms, t->value, t->n, args);
}

void ast_mark_vars(const ast_term *t, uint8_t *mark)
{
  assert(t && mark);
  if (t->kind == AST_VAR) mark[t->value] = 1;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) ast_mark_vars(t->args[i], mark);
}

void ast_literal_mark_vars(const dl_literal *l, uint8_t *mark)
{
  assert(l && mark);
  if (l->atom) ast_mark_vars(l->atom, mark);
  if (l->a) ast_mark_vars(l->a, mark);
  if (l->b) ast_mark_vars(l->b, mark);
}
