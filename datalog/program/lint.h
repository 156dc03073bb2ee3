/* lint.h: warnings about rules that are probably not what their author
 * meant.  They look only at the rules the user wrote (not the trusted ones
 * gdlog adds for --init, --state and --does, nor G+'s copies), so a program
 * of trusted rules only gets none.
 *
 * Literals that never hold.  Each argument position of a predicate and of
 * a function symbol (name and arity, as in the domain graph of gdl/
 * domains.h) gets the set of constants and function symbols that can occur
 * there, as a least fixpoint over the rules: a head argument gives its own
 * symbol, a head variable the intersection of the sets of the positions it
 * occupies in the positive body.  This over-approximates every model, so a
 * body literal with a symbol outside its position's set can never hold.
 * Warned about: a body atom (positive or under not) whose predicate no rule
 * or fact defines, and one whose arguments put a symbol where none can be.
 * A literal is reported only if it still never holds when every other
 * literal that never holds is assumed to hold (left out of the fixpoint):
 * one typo gets one warning, not one more per literal that only it starves
 * (a legal rule that never fires leaves does without that move, and so on).
 *
 * GDL: `true` and `does` are never defined by rules.  When some rule or
 * fact defines init, next or base, the program is a game and true's
 * argument gets what init, next and base give; otherwise true is an input
 * (--state) and is left alone.  Likewise does gets what legal and input
 * give when one of them is defined, and is an input otherwise.
 *
 * Games (programs with role facts) also get: goal values that are not
 * integers 0..100, legal, does and goal for a constant that is not a role,
 * and a missing terminal rule in a game with legal rules. */
#ifndef GDLOG_LINT_H
#define GDLOG_LINT_H

#include "datalog/base/diag.h"
#include "datalog/program/program.h"

/* Reports the warnings above to diag (at most a few dozen, then a note).
 * Returns 1; 0 when memory ran out (not reported).  p is built without
 * errors (resolved and stratified); diag is not NULL. */
int dl_lint_program(const dl_program *p, dl_diag *diag);

/* The game warnings alone (called by dl_lint_program): returns 1; 0 when
 * memory ran out.  Same preconditions. */
int dl_lint_game(const dl_program *p, dl_diag *diag);

#endif
