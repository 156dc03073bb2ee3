/* normalize.h: turns the clauses of a program into flat rules.  Negation is
 * pushed down to atoms and distinct (De Morgan; safe because negated
 * variables are bound elsewhere), and 'or' / 'and' are multiplied out into
 * disjunctive normal form, one rule per disjunct, as GDL's semantics reads
 * them. */
#ifndef GDLOG_NORMALIZE_H
#define GDLOG_NORMALIZE_H

#include "datalog/read/ast.h"
#include "datalog/base/diag.h"

enum { DL_MAX_DISJUNCTS = 10000 };  /* rules one clause may expand to */

/* Appends to prog->rules the flat rules of clauses [first, prog->n_clauses).
 * Returns 1 on success, 0 after reporting an error to diag. */
int dl_normalize(ast_program *prog, uint32_t first, dl_diag *diag);

#endif
