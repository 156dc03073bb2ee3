/* simplify.h: simplification of a pruned ground game, the stage of the
 * pipeline after grounding (datalog/ground/ground.h).  In rounds, unfoldings
 * and foldings of the stratified ground program make the propnet smaller
 * (fewer components, as dl_ground_stats counts them); keyword atoms keep
 * their identity and hold in exactly the same states and joint moves.  The
 * steps, and when the rounds stop, are at the top of simplify.c; their
 * reasons and figures are in datalog/simplify/DESIGN.md. */
#ifndef GDLOG_SIMPLIFY_H
#define GDLOG_SIMPLIFY_H

#include "datalog/base/diag.h"
#include "datalog/ground/ground.h"

/* Ground games above this many rules are not simplified: the first round
 * alone costs about as much as grounding them (chess: 40 s of 157). */
#define DL_SIMPLIFY_MAX_RULES 4000000u

/* Simplifies g (as dl_ground_build made it, with the same opt) in place,
 * unless opt->no_simplify or g has over DL_SIMPLIFY_MAX_RULES rules; then
 * tells opt->progress (phase "simplify"), and g's figures (dl_ground_stats:
 * rules, facts, atoms, literals, components, bytes, and the simplify ones)
 * are those of the simplified game.  Returns 1, or 0 after reporting to
 * diag (out of memory), when g must only be destroyed.  The terms of g's
 * game are extended (new atoms simp_N). */
int dl_simplify_ground(dl_ground *g, const dl_ground_options *opt, dl_diag *diag);

#endif
