/* eval_impl.h: the evaluator's state, private to datalog/eval/ (eval.c
 * runs it, run.c runs one plan, restart.c readies it for another run). */
#ifndef GDLOG_EVAL_IMPL_H
#define GDLOG_EVAL_IMPL_H

#include "datalog/eval/eval.h"
#include "datalog/eval/plan.h"
#include "index/tupleset.h"

struct dl_eval {
  const dl_program *prog;
  dl_terms *terms;
  dl_diag *diag;
  dl_eval_options opt;
  ix_relation **rel;        /* per predicate */
  uint8_t *given;           /* per predicate: rel is borrowed (dl_eval_give); NULL: none is */
  ix_tupleset *delta;       /* per predicate: last round's new tuples */
  ix_tupleset *fresh;       /* per predicate: this round's new tuples */
  uint8_t *in_scc;          /* per predicate: member of the component being run */
  uint32_t *rule_start, *rule_order;  /* rules grouped by head component */
  uint64_t atoms;
  uint32_t polls;           /* steps since the cancel flag was read */
  int failed;
  dl_eval_stats stats;
  dl_eval_rule_stats *rule_stats;  /* per rule */
  uint32_t *version_at;     /* per rule: where its versions' plans start in plans[] */
  pl_plan *plans;           /* per rule version (delta at -1, 0, 1, ...): its last */
  uint64_t *plan_inputs;    /*   plan in a recursive component's rounds, and what */
  uint8_t *plan_ok;         /*   it was chosen for (see get_plan) */
  int keep_plans;           /* restarted (dl_eval_restart): plans are kept across runs */
  int hold_plans;           /* a component's two passes: the first pass's plans serve the second */
  uint8_t *rerun;           /* per component: run in the next run (NULL: all) */
  uint8_t *dirty;           /* per predicate: emptied by the last restart */
  uint32_t *all_start, *all_order;  /* every rule (subsumed too) by head component */
  uint64_t *recent;         /* heads of two columns emitted lately, by hash (both columns */
  uint32_t *recent_pred;    /*   packed), and the predicate + 1 of each (see emitted_lately) */
  uint64_t *released;       /* per predicate: its size when dl_eval_release dropped a
                               relation (NULL until one is); e runs no more */
};

/* Where a rule's new tuples go. */
enum emit_mode {
  EMIT_DIRECT,   /* into the relation: nothing reads it while its component runs */
  EMIT_FRESH,    /* into this round's fresh set: the relation is read this round */
  EMIT_LINEAR    /* staged for the relation, and the new ones into the fresh list
                    when the rule is done: only deltas are read */
};

/* Reports to e's diag that memory ran out, and marks e failed. */
void dl_eval_fail_memory(dl_eval *e);

/* Reports that a head term of pred could not be made (too deep, over the
 * term limit, or out of memory), and marks e failed. */
void dl_eval_fail_term(dl_eval *e, uint32_t pred);

/* Runs plan pl, its heads going where mode (an emit_mode) says; 0 when
 * cancelled or failed. */
int dl_eval_run_plan(dl_eval *e, const pl_plan *pl, int mode);

/* Empties the cache of heads emitted lately: relations are about to lose
 * tuples. */
void dl_eval_forget_recent(dl_eval *e);

/* Adds tuple to pred's relation the way mode says; counts it. */
void dl_eval_emit(dl_eval *e, uint32_t pred, int mode, const dl_tid *tuple);

/* Inserts the tuples staged for pred and counts the new ones; in linear
 * recursion (EMIT_LINEAR) they also go to the fresh list. */
void dl_eval_flush_staged(dl_eval *e, uint32_t pred, int mode);

#endif
