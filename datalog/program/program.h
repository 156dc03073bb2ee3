/* program.h: a checked program.  It numbers the predicates, resolves every
 * atom of every rule to its predicate and orders the rules into strata
 * (strata/strata.h).  dl_program_build (build.c) does all of it and runs
 * the checks over the table: the errors of check.h and the warnings of
 * lint.h.  program.c itself knows nothing of the checks.
 *
 * Stratification works on nodes finer than predicates: the rules of a
 * predicate are grouped by the constants in their heads, so that
 * `goal(R,0) :- role(R) & ~goal(R,100)`, common in real games, depends on
 * the node goal(*,100) and not on itself.  A body literal depends on each
 * node of its predicate whose head constants it can match.  Facts share one
 * node per predicate. */
#ifndef GDLOG_PROGRAM_H
#define GDLOG_PROGRAM_H

#include <Judy.h>

#include "datalog/read/ast.h"
#include "datalog/base/diag.h"
#include "datalog/base/terms.h"
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
  uint32_t *input_pred;   /* per input relation (ast->inputs): DL_NO_PRED when no rule uses it */
  uint32_t n_nodes;
  uint32_t *node_pred;    /* per node: its predicate */
  uint32_t *head_node;    /* per rule: the node of its head */
  st_strata *strata;      /* components of nodes, in evaluation order */
  uint32_t *comp_start;   /* component c has predicates comp_preds[comp_start[c] .. comp_start[c+1]) */
  uint32_t *comp_preds;
} dl_program;

/* Builds and checks the program of ast's rules (build.c).  Returns the
 * program, or NULL after reporting errors (arity clashes, unsafe variables,
 * GDL keyword misuse, recursion through negation) to diag.  The input
 * relations (ast->inputs) are defined though no rule has them as head; one
 * whose arity differs from the program's use of its predicate is an error,
 * one whose predicate the program never uses gets a warning and is left
 * out (DL_NO_PRED in input_pred).  A program
 * without errors may get warnings (lint.h: literals that never hold, GDL
 * games with missing or undeclared parts).  ast, terms and diag are not
 * NULL. */
dl_program *dl_program_build(ast_program *ast, dl_terms *terms, dl_diag *diag);

/* The first step of dl_program_build: the predicate table, every atom
 * resolved.  Returns NULL after reporting an arity clash (or running out of
 * memory) to diag.  ast, terms and diag are not NULL. */
dl_program *dl_program_create(ast_program *ast, dl_terms *terms, dl_diag *diag);

/* The last step of dl_program_build: groups the rules into nodes and orders
 * them into strata.  Returns 1; 0 when the node graph has a cycle through
 * negation (then *cycle holds it, for check.h's dl_check_report_cycle, and
 * the caller frees it with st_cycle_free) or after reporting that memory ran
 * out.  p comes from dl_program_create and is not stratified yet; cycle is
 * zeroed. */
int dl_program_stratify(dl_program *p, st_cycle *cycle, dl_diag *diag);

/* Frees the program (not the ast or terms); NULL is allowed. */
void dl_program_destroy(dl_program *p);

/* The predicate named sym, or DL_NO_PRED.  p is not NULL. */
uint32_t dl_program_pred(const dl_program *p, dl_sym sym);

/* A symbol for a new predicate: PREFIX_N (prefix and n), with underscores
 * in front while p has a predicate of that name; DL_NO_SYM when out of
 * memory.  Interned in p->terms. */
dl_sym dl_program_fresh_symbol(const dl_program *p, const char *prefix, uint32_t n);

/* The distinct predicates of the nodes of component c; their count in *n.
 * p is stratified, c < p->strata->n_sccs, n is not NULL. */
const uint32_t *dl_program_component_preds(const dl_program *p, uint32_t c, uint32_t *n);

/* The name of predicate i; i < p->n_preds. */
const char *dl_program_pred_name(const dl_program *p, uint32_t i);

#endif
