/* subsume.h: rules that another rule makes redundant.  Rule s subsumes rule
 * r when some substitution θ of s's variables makes s's head r's head and
 * every literal of s's body a literal of r's body: whenever r's body holds,
 * s's body under θ holds too, so r derives nothing s does not.  Dropping r
 * leaves the minimal model as it is, with or without negation (the two rules
 * share a head predicate, so a stratum).  Deleting the negative literals of
 * a game, as G+ does, leaves many such rules (alexChess's legal2 family). */
#ifndef GDLOG_SUBSUME_H
#define GDLOG_SUBSUME_H

#include <stdint.h>

#include "datalog/program/program.h"

#define DL_NOT_SUBSUMED UINT32_MAX

/* Sets by[r], for each rule r of p, to a rule that subsumes r and is kept,
 * or DL_NOT_SUBSUMED for the rules kept; of rules that subsume each other,
 * the first is kept.  Facts are always kept, and a pair whose check takes
 * too many steps counts as not subsumed.  Returns 1 with the number of
 * rules left out in *n_out; 0 when out of memory (then none is left out). */
int dl_subsumed_rules(const dl_program *p, uint32_t *by, uint32_t *n_out);

#endif
