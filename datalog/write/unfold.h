/* unfold.h: recursive predicates unfolded along the arguments that change
 * in their recursion, for other players' propnet builders.
 *
 * A builder in the style of ggp-base's OptimizingPropNetFactory makes a
 * proposition for every sentence of a recursive predicate's domain, the
 * product of each argument's values: othello's piece count,
 * (piececount ?x ?y ?black ?red), recurses from square (x, y) to the next
 * one and gets 8 x 8 x 65 x 65 sentences, 1.3 M components of the 1.3 M
 * the factory makes for the game.  Unfolded, each square has a predicate of
 * its own, (piececount_1_2 ?black ?red) reads (piececount_1_3 ...), no
 * predicate is recursive, and the builder makes each one's sentences from
 * the ones it reads: the instances that occur.
 *
 * A predicate p is unfolded when all of these hold: it is dynamic and no
 * keyword; its rules are written as written and no rule written ground
 * reads it; it recurses through itself alone; some set K of its argument
 * positions holds constants in every atom of the ground game, and its
 * ground instances, taken apart by their values at K, depend on each other
 * without a cycle and none on itself (of such sets, the one with the fewest
 * values is taken); and each rule that reads or defines p has the
 * variables at K in its head or in positive literals of dynamic predicates,
 * so that each of its ground instances tells their values.  Each such rule
 * is then written once per tuple of values its ground instances give those
 * variables, with the values in place: p's atoms become (p<S>k1<S>k2
 * args...) for a separator S that no symbol of the game contains ("__",
 * else "_0_", ...), and literals of static predicates and distinct whose
 * variables all got values are left out (they held in the instance).  A
 * negated literal of p whose values no atom of the ground game has always
 * holds and is left out.  Rules of p's readers' instances and p's own are
 * as in the ground game: the unfolded game is the same game. */
#ifndef GDLOG_UNFOLD_H
#define GDLOG_UNFOLD_H

#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/ground/ground.h"
#include "datalog/program/program.h"
#include "datalog/write/output.h"

typedef struct dl_unfold dl_unfold;

/* Finds what to unfold in game, whose rules with as_written[r] set are
 * written as written (rule_bytes[r] bytes of KIF each) and the rest (their
 * instances) ground; ground_reads[q] is set for the predicates that a rule
 * written ground reads.  g is game's ground game as dl_ground_build made it
 * without simplification.  Of each predicate, the positions K unfolded are
 * the set of its constant positions (10 at most tried) whose unfolded
 * predicates depend on each other without a cycle, none reading itself, in
 * the ground game's instances, with the fewest of them.  While the unfolded
 * rules exceed the rules they replace by more than room bytes, the
 * predicate unfolded into the most is not unfolded.  game, g and the arrays
 * must outlive the result.  Interns the new predicates' names in game's
 * term store.  Returns the plan (maybe with nothing to unfold), or NULL
 * after reporting to diag (out of memory). */
dl_unfold *dl_unfold_create(const dl_program *game, const dl_ground *g, const uint8_t *as_written,
                            const uint8_t *ground_reads, const uint64_t *rule_bytes, double room, dl_diag *diag);

/* Frees the plan; NULL is allowed. */
void dl_unfold_destroy(dl_unfold *u);

/* The number of predicates unfolded. */
uint32_t dl_unfold_pred_count(const dl_unfold *u);

/* Whether rule r of the game is written unfolded (instead of as written). */
int dl_unfold_replaces(const dl_unfold *u, uint32_t r);

/* The bytes of the unfolded rules as KIF. */
uint64_t dl_unfold_bytes(const dl_unfold *u);

/* The number of predicates that could be unfolded but were not, for room,
 * and the room that would have let one more be unfolded. */
uint32_t dl_unfold_over_budget(const dl_unfold *u);
double dl_unfold_room_wanted(const dl_unfold *u);

/* The unfolded rules, *n of them; they live as long as u. */
const dl_rule *dl_unfold_rules(const dl_unfold *u, uint32_t *n);

#endif
