/* players.h: a game written for other players' propnet builders
 * (`gdlog ground --for-players`): the same game as KIF GDL, each rule of it
 * ground where its ground instances are small and as written where they
 * would explode, so that a player's own instantiation is spared the work
 * gdlog has done (G+, the statics, goal-directed pruning) without reading
 * a text hundreds of times the game's.
 *
 * What is written, from a game grounded without simplification:
 *  - role, init, base and input (and static legal, goal, terminal) as
 *    facts, or as the game's rules for them where those are shorter; base
 *    and input from G+ when the game has none, unless they alone would
 *    exceed the budget;
 *  - each rule of a dynamic predicate that legal, next, goal or terminal
 *    need: its ground instances (over G+, statics decided, pruned), or the
 *    rule as written.  The rules written as they are form a downward
 *    closed set: a predicate such a rule reads has all of its rules
 *    written as they are too, because grounding made only the instances
 *    its ground users ask for;
 *  - the static predicates those rules read, as facts of their model;
 *  - a predicate written as written that recurses through itself alone,
 *    unfolded along the arguments its recursion changes (unfold.h) as far
 *    as the budget allows: the rules that read it are then written as
 *    written too, and ground rules are written as written to make room
 *    when that lets one more predicate be unfolded;
 *  - of the rules written as written and unfolded, those of a predicate
 *    that only renames others collapsed into the rules that read it, as
 *    far as the budget allows (collapse.h);
 *  - nothing else: static rules are evaluated, and rules no keyword needs
 *    are left out.
 * Which rules stay as written: while the output is estimated above its
 * budget (max_growth times the bytes of the game's rules), the part whose
 * ground text exceeds its text as written by the most goes as written (a
 * rule, with the rules it reads; a static keyword predicate's rules), or
 * out (base and input made from G+).  Static relations are written as
 * facts where those are at most max_growth times their rules' text, else
 * as their rules.  When every rule can be ground, the ground game is
 * simplified and written whole (dl_players_write_all). */
#ifndef GDLOG_PLAYERS_H
#define GDLOG_PLAYERS_H

#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/stop.h"
#include "datalog/ground/ground.h"
#include "datalog/program/program.h"
#include "datalog/write/output.h"

typedef struct dl_players_options {
  double max_growth;      /* budget: this many times the game's bytes (> 0) */
  uint64_t game_bytes;    /* the game's text, as read; 0: its rules as gdlog writes them */
  uint64_t max_atoms;     /* of the statics' model, when one is needed (0: none) */
  const dl_stop *stop;    /* may be NULL */
} dl_players_options;

typedef struct dl_players_plan dl_players_plan;

/* Plans the output for game (a checked program) and g, its ground game as
 * dl_ground_build made it without simplification (prune on).  game and g
 * must outlive the plan.  Returns the plan, or NULL after reporting to diag
 * (out of memory). */
dl_players_plan *dl_players_plan_create(const dl_program *game, const dl_ground *g, const dl_players_options *opt,
                                        dl_diag *diag);

/* Frees the plan; NULL is allowed. */
void dl_players_plan_destroy(dl_players_plan *pl);

/* Writes the output: comment lines that say what it is and what was done
 * (naming the game's file `source`), then the game as planned (the ground
 * rules, the static facts, the rules as written), or, when every rule is
 * written ground, g simplified with `simplify` (dl_simplify_ground) and
 * written whole (dl_ground_write).  g is the plan's ground game, given
 * again because simplifying changes it.
 * Returns 1; 0 after reporting to diag, or when a write to out failed or
 * memory ran out while writing (as dl_ground_write, not reported: the
 * sink's owner says which). */
int dl_players_write_all(const dl_sink *out, dl_players_plan *pl, dl_ground *g, const dl_ground_options *simplify,
                         const char *source, dl_diag *diag);

#endif
