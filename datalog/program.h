/* program.h: a checked program.  It numbers the predicates, resolves every
 * atom of every rule to its predicate, runs the program checks (check.h)
 * and orders the predicates into strata (strata/strata.h). */
#ifndef GDLOG_PROGRAM_H
#define GDLOG_PROGRAM_H

#include <Judy.h>

#include "datalog/ast.h"
#include "datalog/diag.h"
#include "datalog/terms.h"
#include "strata/strata.h"

#define DL_NO_PRED UINT32_MAX

typedef struct dl_pred {
  dl_sym name;
  uint32_t arity;
  const dl_source *src;  /* its first occurrence */
  uint32_t off;
} dl_pred;

typedef struct dl_program {
  dl_terms *terms;        /* not owned */
  ast_program *ast;       /* not owned: rules are ast->rules */
  dl_pred *preds;
  uint32_t n_preds, cap_preds;
  Pvoid_t pred_of_sym;    /* JudyL: symbol -> predicate + 1 */
  uint32_t *head_pred;    /* per rule */
  uint32_t **lit_pred;    /* per rule, per body literal (DL_NO_PRED for distinct) */
  st_strata *strata;
} dl_program;

/* Builds and checks the program of ast's rules.  Returns the program, or NULL
 * after reporting errors (arity clashes, unsafe variables, GDL keyword
 * misuse, recursion through negation) to diag. */
dl_program *dl_program_build(ast_program *ast, dl_terms *terms, dl_diag *diag);

/* Frees the program (not the ast or terms); NULL is allowed. */
void dl_program_destroy(dl_program *p);

/* The predicate named sym, or DL_NO_PRED. */
uint32_t dl_program_pred(const dl_program *p, dl_sym sym);

/* The name of predicate i. */
const char *dl_program_pred_name(const dl_program *p, uint32_t i);

#endif
