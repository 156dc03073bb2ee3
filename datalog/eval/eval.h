/* eval.h: the semi-naive evaluator.  Components of the dependency graph are
 * evaluated in order.  A component without recursion is one pass over its
 * rules.  A recursive one runs in rounds: a rule with k body atoms of the
 * component becomes k versions, version i reading the last round's delta at
 * atom i, the relation without that delta at atoms before i, and the whole
 * relation after i, so no rule instance is derived twice.  Each version is
 * planned from the current relation sizes (plan.h), and planned again in a
 * later round only once they changed by a factor of about sqrt(2)
 * (pl_plan_inputs).  Heads of a component that nothing reads while it
 * runs, and those of linear recursion, are staged and inserted in sorted
 * batches. */
#ifndef GDLOG_EVAL_H
#define GDLOG_EVAL_H

#include <signal.h>
#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/stop.h"
#include "datalog/program/facts.h"
#include "datalog/program/program.h"
#include "datalog/eval/subsume.h"
#include "index/relation.h"

typedef struct dl_eval_options {
  uint64_t max_atoms;                 /* stop beyond this many atoms; 0: no limit */
  const dl_stop *stop;                /* when to stop early (base/stop.h); may be NULL */
} dl_eval_options;

typedef struct dl_eval_stats {
  uint64_t atoms;          /* atoms in the model */
  uint64_t derivations;    /* rule instances fired, duplicates included */
  uint64_t in_products;    /* of those, heads staged as products (plan.h's product tail) */
  uint32_t rounds;         /* semi-naive rounds over all components */
  uint32_t subsumed;       /* rules not run: another rule subsumes them (subsume.h) */
  double seconds;          /* time of dl_eval_run */
} dl_eval_stats;

/* Figures of one rule over a run, all its versions together. */
typedef struct dl_eval_rule_stats {
  uint64_t derivations;    /* rule instances fired, duplicates included */
  double seconds;          /* time spent running its plans */
  uint32_t runs;           /* versions run (one per delta atom per round) */
  uint32_t heads_first;    /* of those, runs planned heads first (see plan.h) */
  uint32_t saturated;      /* of those, runs skipped: the head relation had all */
                           /*   combinations of the values the rule can give it */
  uint64_t in_products;    /* derivations staged as products (plan.h's product tail) */
  uint32_t subsumed_by;    /* never run when not DL_NOT_SUBSUMED: this rule */
                           /*   subsumes it (subsume.h) */
} dl_eval_rule_stats;

typedef struct dl_eval dl_eval;

/* Creates an evaluator for program p with empty relations; NULL after
 * reporting, when out of memory or when a predicate has more than
 * IX_MAX_ARITY arguments. */
dl_eval *dl_eval_create(const dl_program *p, const dl_eval_options *opt, dl_diag *diag);

/* Frees the evaluator and its relations; NULL is allowed. */
void dl_eval_destroy(dl_eval *e);

/* Adds tuple[0..arity of pred) to the relation of predicate pred before the
 * run, as a fact: seeds an input predicate that no rule derives (GDL's true
 * and does: the state machine of datalog/machine/sm.h seeds a state and a joint
 * move this way instead of adding facts to the program).  Seeding a
 * predicate that rules derive is allowed too: the tuple is one more fact.
 * Requires pred < the program's number of predicates and dl_eval_run not
 * yet called on e.  Returns 1 (also when the tuple was there already), 0
 * when out of memory (reported to the evaluator's diag). */
int dl_eval_seed(dl_eval *e, uint32_t pred, const dl_tid *tuple);

/* Seeds n tuples at once, as dl_eval_seed does one: tuples holds them row
 * after row (n times the arity of pred term ids), in any order, duplicates
 * allowed.  The rows are sorted and inserted in one pass, which costs far
 * less than n calls of dl_eval_seed.  tuples (from malloc, or NULL when n
 * is 0) is taken over: an empty relation turns it into its keys in place,
 * else it is freed once its rows are staged and before the relation is
 * built from them, so that the two are not held at once.  Same
 * requirements and result. */
int dl_eval_seed_all(dl_eval *e, uint32_t pred, dl_tid *tuples, uint64_t n);

/* Seeds the program's input relations from facts (file i holds input i's
 * rows, as the loader makes them; NULL: none), taking their rows over
 * (dl_facts_hand_over): the files stay, with no rows.  An input that no
 * rule uses is left out.  Same requirements as dl_eval_seed_all; 1, or 0
 * when out of memory. */
int dl_eval_seed_inputs(dl_eval *e, dl_facts *facts);

/* Tells the relation of predicate pred how many distinct values each of
 * its columns will hold, about (values[c]; 0: no idea): see
 * ix_relation_expect.  Nothing when pred was seeded already.  Requires
 * dl_eval_run not yet called on e, and pred not given (dl_eval_give). */
void dl_eval_expect(dl_eval *e, uint32_t pred, const uint64_t *values);

/* Makes r the relation of predicate pred, known in advance: r is borrowed
 * (it must outlive e, and e never frees it nor adds to it, though it may
 * index it: ix_relation_index is a cache), and the rules of pred are not
 * run.  Every predicate of pred's component (see strata.h) must be given
 * too.  Requires r of pred's arity, and dl_eval_run not yet called on e;
 * e cannot be restarted afterwards (dl_eval_restart).  Returns 1; 0 when
 * out of memory (reported to the evaluator's diag). */
int dl_eval_give(dl_eval *e, uint32_t pred, ix_relation *r);

/* Computes the minimal model.  Returns 1 on success; 0 after reporting an
 * error (limit reached, cancelled, out of memory) to diag. */
int dl_eval_run(dl_eval *e);

/* Readies e, after a successful dl_eval_run, for another run in which the
 * input predicates inputs[0..n) (GDL's true and does for the state machine
 * of datalog/machine/sm.h) are seeded anew.  The relations of the predicates
 * that depend on an input (the inputs included, and any predicate that
 * shares a component with one) are emptied; the others are kept with their
 * indexes, and so are the plans of the rules: dl_eval_seed may then seed
 * the emptied predicates, and dl_eval_run computes only the components of
 * the emptied predicates, planning a rule version again only when the
 * sizes its plan was chosen for changed (pl_plan_inputs).  The model is
 * the one a new evaluator gives with the same seeds.  Figures start again
 * from zero; from the first restart on, the time of each rule is not
 * measured (dl_eval_rule_stats.seconds stays 0: reading the clock twice
 * per rule costs more than running the rules of a ground game).  Returns 1; 0 when out of memory (reported; then e may only
 * be destroyed). */
int dl_eval_restart(dl_eval *e, const uint32_t *inputs, uint32_t n);

/* Whether predicate pred depends on an input of the last dl_eval_restart
 * (so its relation was emptied); 1 for every predicate before a restart. */
int dl_eval_recomputed(const dl_eval *e, uint32_t pred);

/* Sets the atom limit and cancel flag of the next runs. */
void dl_eval_set_options(dl_eval *e, const dl_eval_options *opt);

/* The relation of predicate pred (complete after dl_eval_run). */
const ix_relation *dl_eval_relation(const dl_eval *e, uint32_t pred);

/* Drops the tuples and indexes of predicate pred after a run, to free
 * their memory when the caller reads only other relations from here on
 * (the model command writes only the relations it shows):
 * dl_eval_relation then gives an empty relation, dl_eval_size still the
 * number of tuples.  e may not run or restart again.  0 when out of
 * memory (reported; the relation then stays). */
int dl_eval_release(dl_eval *e, uint32_t pred);

/* The number of tuples of predicate pred after the last run, also when its
 * relation was released. */
uint64_t dl_eval_size(const dl_eval *e, uint32_t pred);

/* Figures of the last run. */
dl_eval_stats dl_eval_get_stats(const dl_eval *e);

/* Figures of rule r (a rule of the program's ast) over the last run. */
dl_eval_rule_stats dl_eval_get_rule_stats(const dl_eval *e, uint32_t r);

#endif
