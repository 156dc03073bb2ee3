/* gamecheck.h: checks of a GDL game around its evaluation, as warnings:
 * before it, whether the model can grow without end through a recursive
 * function symbol (and a limit on that growth); after it, whether the
 * moves given (--does) fit the roles and the legal moves of the state, and
 * whether every role has a legal move in the state evaluated.
 *
 * The command line calls them: dl_check_growth before dl_eval_run of any
 * model; dl_check_moves after evaluating one with does facts (--does);
 * dl_check_legal_moves after evaluating one with a state (--init or
 * --state).  The static checks of the rules are in program/lint.h. */
#ifndef GDLOG_GAMECHECK_H
#define GDLOG_GAMECHECK_H

#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/eval/eval.h"
#include "datalog/program/program.h"

/* The default of dl_check_growth's max_terms (--max-terms). */
#define DL_DEFAULT_MAX_TERMS 1000000u

/* Looks for a rule of a recursive component whose head builds a term of a
 * recursive function symbol (one that reaches its own arguments in the
 * domain graph, gdl/domains.h) from variables: then the model may grow
 * without end.  Warns at the first such rule, naming the cycle, and limits
 * the new terms of the recursive symbols to max_terms (0: no limit; see
 * dl_terms_watch), so that the evaluation stops with an error naming
 * --max-terms instead of filling the memory.  Without such a rule it does
 * nothing (models of games whose cycles go through next and true are
 * finite).  Returns 1; 0 when memory ran out (reported).  p is a built
 * program, diag is not NULL; call it before dl_eval_run. */
int dl_check_growth(const dl_program *p, uint64_t max_terms, dl_diag *diag);

/* Warns about the does facts of the trusted rules (the moves of --does), at
 * each fact: a role that is not a role of the game (no role(r) in the
 * model), a second move for a role, a move that is not legal (no legal(r,a)
 * in the model); and at the role's fact, a role without a move.  Programs
 * without role get no warning.  Returns 1; 0 when memory ran out
 * (reported).  e has run (dl_eval_run succeeded) over p; diag is not NULL. */
int dl_check_moves(const dl_program *p, const dl_eval *e, dl_diag *diag);

/* Warns, at its role fact, about each role without a legal move in the
 * model, unless terminal holds in it.  Programs without role or legal (not
 * games but fragments, like the book's examples) get no warning.  Returns 1; 0 when memory ran out (reported).  e has run over p;
 * diag is not NULL. */
int dl_check_legal_moves(const dl_program *p, const dl_eval *e, dl_diag *diag);

#endif
