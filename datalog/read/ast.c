/* ast.c: program containers (see ast.h). */
#include "datalog/read/ast.h"

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

int ast_program_add_rule(ast_program *p, const dl_rule *r)
{
  if (p->n_rules == p->cap_rules) {
    uint32_t cap = p->cap_rules ? p->cap_rules * 2 : 256;
    dl_rule *q = realloc(p->rules, cap * sizeof *q);
    if (!q) return 0;
    p->rules = q;
    p->cap_rules = cap;
  }
  p->rules[p->n_rules++] = *r;
  return 1;
}
