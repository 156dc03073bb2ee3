/* check.h: the program checks that need predicates resolved: safety of
 * variables, and GDL's rules for its keywords (true and does are never
 * defined by rules; init does not depend on true or does; legal, goal and
 * terminal do not depend on does). */
#ifndef GDLOG_CHECK_H
#define GDLOG_CHECK_H

#include "datalog/base/diag.h"
#include "datalog/program/program.h"

/* Reports every unsafe variable: one in the head, under not or in distinct
 * that no positive body literal binds.  Returns the number of errors (one
 * more when memory ran out).  p comes from dl_program_create; diag is not
 * NULL. */
size_t dl_check_safety(const dl_program *p, dl_diag *diag);

/* Reports misuse of GDL's keywords (true or does as a head, role given by
 * a rule, init, legal, goal or terminal depending on what they must not)
 * and, in a game (a program with role), rules that break GDL's recursion
 * restriction.  Returns the number of errors (one more when memory ran
 * out).  p is stratified (dl_program_stratify); diag is not NULL. */
size_t dl_check_gdl(const dl_program *p, dl_diag *diag);

/* Reports a cycle through negation found by the stratifier
 * (dl_program_stratify): the cycle as `p -> ~q -> r -> p`, and the rules
 * that make its edges.  c has at least one edge; diag is not NULL. */
void dl_check_report_cycle(const dl_program *p, const st_cycle *c, dl_diag *diag);

#endif
