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

#include "datalog/program.h"

/* Marks in dropped[r] (one byte per rule of p, set to 0 or 1) the rules
 * that a rule kept subsumes; of rules that subsume each other, the first is
 * kept.  Facts are never marked, and a pair whose check takes too many
 * steps counts as not subsumed.  Returns the number of rules marked. */
uint32_t dl_subsumed_rules(const dl_program *p, uint8_t *dropped);

#endif
