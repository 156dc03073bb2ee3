/* reduce.h: the G+ reduction of a game (section 14.3 of the book, steps 2-5
 * iterated to a fixpoint).  G+ is the game with its negative literals
 * deleted.  distinct and equality (from not distinct) are kept: they do
 * not depend on the state, so an instance they reject is rejected in every
 * state; keeping them is sound and tighter (blocksworld loses
 * legal(robot,stack(X,X))).  Every derivation is one run of the semi-naive
 * evaluator over G+ as a positive program.
 *
 * Two modes:
 *  - DL_REDUCE_LFP (default): the least fixpoint upward from init, one run
 *    of G+ plus  true(X) :- init(X).  true(X) :- next(X).
 *    does(R,A) :- legal(R,A).  Sound: by induction every reachable state
 *    is inside it.
 *  - DL_REDUCE_DOMAINS: the book's iteration downward from the domain sets:
 *    T, D = the true and does instances of the domains; repeat { run G+ with
 *    the facts T and D; T = T ∩ (init ∪ next); D = D ∩ legal } until T and D
 *    stay the same.  Fails when a domain is infinite.
 * The least fixpoint is contained in the book's fixpoint
 * (tests/domains/corpus.sh checks it on every corpus game where the book's
 * iteration ends).
 *
 * Before G+ is evaluated, a body that falls into parts sharing no variable,
 * or whose dynamic parts share only head variables (a frame rule), gets an
 * auxiliary predicate gplus_N per such part (see reduce.c): the instances
 * are the same, each derived once per part instead of once per product.
 * They are hidden from every output, and build_only (gdlog reduce
 * --program) gives G+ without them.
 *
 * The result keeps the last run: for every predicate of the game, the set of
 * its instances that survive, as an ix_relation of term ids.  Grounding
 * instantiates rules over these sets. */
#ifndef GDLOG_REDUCE_H
#define GDLOG_REDUCE_H

#include <signal.h>
#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/stop.h"
#include "datalog/gdl/domains.h"
#include "datalog/eval/eval.h"
#include "datalog/program/program.h"
#include "index/relation.h"

typedef enum dl_reduce_mode {
  DL_REDUCE_LFP,      /* least fixpoint upward from init */
  DL_REDUCE_DOMAINS   /* the book: downward from the domain graph's sets */
} dl_reduce_mode;

typedef struct dl_reduce_options {
  dl_reduce_mode mode;
  uint64_t max_atoms;                 /* per run, and per listed domain; 0: no limit */
  const dl_stop *stop;                /* when to stop early (base/stop.h); may be NULL */
  int build_only;                     /* only build G+ of the LFP mode, do not evaluate it */
} dl_reduce_options;

typedef struct dl_reduction dl_reduction;

/* Reduces game (a checked program) with domains d built from it.  Returns
 * the result, or NULL after reporting to diag (infinite domain in the
 * domains mode, limits, cancel, out of memory).  game, its ast and terms
 * must outlive the result. */
dl_reduction *dl_reduce(const dl_program *game, const dl_domains *d, const dl_reduce_options *opt,
                        dl_diag *diag);

/* Frees the result; NULL is allowed. */
void dl_reduction_destroy(dl_reduction *r);

/* Number of runs of G+ (1 in the LFP mode). */
uint32_t dl_reduction_iterations(const dl_reduction *r);

/* Instances of game predicate pred derived in run it (0-based). */
uint64_t dl_reduction_count(const dl_reduction *r, uint32_t it, uint32_t pred);

/* The surviving instances of game predicate pred; an empty relation when
 * G+ has no such predicate.  Valid until the result is freed. */
const ix_relation *dl_reduction_relation(const dl_reduction *r, uint32_t pred);

/* The program G+ of the last run and its evaluator (for printing; the
 * evaluator is NULL with build_only). */
const dl_program *dl_reduction_program(const dl_reduction *r);
const dl_eval *dl_reduction_eval(const dl_reduction *r);

/* Whether predicate q of dl_reduction_program is an auxiliary one (a
 * part of a rule's body that shares no variable with the rest, made a
 * predicate of its own: see reduce.c), not one of the game's. */
int dl_reduction_auxiliary(const dl_reduction *r, uint32_t q);

/* Atoms of the last run (of the game's predicates), and seconds of all
 * runs. */
uint64_t dl_reduction_atoms(const dl_reduction *r);
double dl_reduction_seconds(const dl_reduction *r);

#endif
