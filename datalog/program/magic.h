/* magic.h: the magic-set rewriting of a program for a set of queries,
 * so that the evaluator computes only what the queries need:
 * the demand-driven evaluation of the state machine's rules backend
 * (datalog/machine/sm.h) for games whose full model is infinite or huge.
 *
 * The queries are predicates asked with every argument free (GDL's legal,
 * next, goal, terminal, role, init).  Bindings flow from the rules' bodies
 * into the predicates they call: a predicate p called with its bound
 * arguments in positions α (its adornment, "bf": first bound, second free)
 * becomes p@α, computed by p's rules guarded by a magic predicate
 * magic@p@α of the bound arguments, which the callers seed.  In a body the
 * sideways passing of bindings is: the head's bound arguments, then every
 * positive literal of an input predicate (one that no rule with a body
 * defines: facts, true, does), then the other positive literals from left
 * to right.  The adornment with every argument free keeps the predicate's
 * name and has no magic predicate, so the queries are found by their
 * names; input predicates keep their names and their facts.
 *
 * Negation: a negated literal ~q(t) (every variable bound, the program
 * being safe) is asked with all its arguments bound, at one of three steps
 * chosen per rule of p:
 *   1. q@b..b seeded by the magic of the head and every positive literal
 *      of the body;
 *   2. q@β seeded by the magic of the head and the input literals only
 *      (β: the arguments those bind; β empty: q itself);
 *   3. q computed in full by its original rules, renamed full@q (these use
 *      no magic predicate, so no cycle can go through them).
 * Every rule starts at step 1; while the result is not stratified, the
 * rules whose negated literals make the negative edges of the cycle found
 * go one step up, to 2 at most; if that is not enough, every rule starts
 * again at 2 and goes up to 3 (3 everywhere always stratifies).
 * The generated names hold '@', which no GDL name holds.
 *
 * The rewritten program shares the term store (it adds the new names) and
 * the ast terms of p (p's ast must outlive it). */
#ifndef GDLOG_MAGIC_H
#define GDLOG_MAGIC_H

#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/program/program.h"

typedef struct dl_magic dl_magic;

/* Figures of a rewriting. */
typedef struct dl_magic_stats {
  uint32_t adorned;      /* adorned predicates (the all-free ones included) */
  uint32_t magic;        /* magic predicates */
  uint32_t full;         /* predicates computed in full (negation, step 3) */
  uint32_t rules;        /* rules of the rewritten program */
  uint32_t negation;     /* the highest step (1..3) a rule took for its negated literals */
} dl_magic_stats;

/* Rewrites program p (checked and stratified) for the queries
 * queries[0..n) (predicates of p, asked all free).  Returns the rewriting,
 * or NULL after reporting to diag (out of memory, or no stratified
 * rewriting: not expected, as step 3 always stratifies).  p, its ast and
 * its term store must outlive the result; the term store gets the new
 * names. */
dl_magic *dl_magic_create(const dl_program *p, const uint32_t *queries, uint32_t n, dl_diag *diag);

/* Frees the rewriting and its program; NULL is allowed. */
void dl_magic_destroy(dl_magic *m);

/* The rewritten program, checked and stratified, ready for dl_eval_create:
 * a query predicate has its name there, and the same relation as in p on
 * any set of seeded input facts. */
const dl_program *dl_magic_program(const dl_magic *m);

/* Figures of the rewriting. */
dl_magic_stats dl_magic_get_stats(const dl_magic *m);

#endif
