/* plan.h: compiles one version of a rule into a plan for the evaluator
 * (eval.c runs it).  A plan is a list of steps over a frame of variable
 * slots: scan a body atom (by an index of its relation, or over a delta),
 * test a negation, test distinct or equality; then the head.
 *
 * The order of the steps is chosen greedily from relation sizes: the delta
 * first, then always the atom with the fewest expected matches; tests as
 * soon as their variables are bound.  A rule with existential variables
 * (body variables not in the head) gets a second candidate order, "heads
 * first": atoms are first scanned as projections onto their head variables
 * (one tuple per distinct combination, by a skip-scan of an index ordered
 * for it), which enumerates candidate heads; then the whole body is joined
 * again for each candidate, and one witness is enough.  Each candidate
 * order gets an estimated cost and the cheaper one is kept: heads first
 * wins when the existential variables would repeat each head many times,
 * as in chess's threatened_with_capture, and loses on sparse joins such as
 * h(X,Z) :- e(X,Y), e(Y,Z).
 *
 * A scan that binds a variable no later step reads (as u,v in chess's
 * threatened_with_capture, once different_cells(cx,cy,u,v) is matched) is
 * marked with the variables that are read later: the evaluator skips a
 * combination of their values it has seen before in the same run.  Past
 * the cut, where the rest of the body only looks for a witness, the outcome
 * of that search depends only on the variables it reads, so the evaluator
 * remembers it per combination: in amazons' G+, does(P,play(X1,Y1,...)) is
 * searched once per cell (X1,Y1), not once per state atom and cell.
 *
 * A test of a whole tuple right after the scan that binds one of its
 * columns, the others bound before that scan (tri(X,Y,Z) :- e(X,Y) &
 * e(Y,Z) & e(X,Z): e(X,Z) for each Z of e(Y,Z)), is marked as a filter:
 * the evaluator tests a bitmap of the values that column takes in the
 * tuples with the others' values, made once for as long as those stay.
 *
 * A scan whose next step looks up a value it binds skips, before anything
 * else, the tuples whose value the next relation's column has never held
 * (in points-to's pt(V,O) :- load(V,W) & pt(W,B) & hpt(B,O), run from a
 * delta of hpt, most W that pt(W,B) gives have no load).
 *
 * When the last scan binds only variables that are whole head arguments
 * (tc(X,Z) :- tc(X,Y) & e(Y,Z): Z, by Y), each tuple it finds is a head,
 * emitted without matching it (pl_plan.direct).
 *
 * The last scans of a plan may only bind variables that are whole head
 * arguments (chess's (coordinate ?ignorex) (coordinate ?ignorey)): the
 * heads of such a product tail are all the combinations of their tuples,
 * and the evaluator stages them at once (ix_relation_stage_product). */
#ifndef GDLOG_PLAN_H
#define GDLOG_PLAN_H

#include <stdint.h>

#include "datalog/program/program.h"
#include "datalog/base/terms.h"
#include "index/relation.h"
#include "index/tupleset.h"

enum pl_pat_kind {
  P_CONST,  /* value: term id */
  P_BIND,   /* value: slot, bound by this match */
  P_READ,   /* value: slot, bound before (read, or compared when matching) */
  P_FUN     /* value: function symbol; n children from kids[first] */
};

typedef struct pl_pat {
  uint8_t kind;
  uint32_t value;
  uint32_t n, first;  /* P_FUN: children are pats[kids[first .. first+n)] */
} pl_pat;

enum pl_step_kind { S_SCAN, S_NEG, S_DISTINCT, S_EQUAL };
enum pl_source { SRC_FULL, SRC_DELTA, SRC_OLD };

#define PL_NONE UINT32_MAX

typedef struct pl_step {
  uint8_t kind;
  uint8_t source;       /* S_SCAN: which tuples of the relation (an pl_source) */
  uint8_t project;      /* S_SCAN: one tuple per distinct value of the key and matched columns */
  uint32_t pred;
  int index;            /* S_SCAN over FULL/OLD: the index used, */
  uint64_t mask;        /*   asked for by these bound columns and, */
  uint64_t distinct;    /*   in a projection, these distinct ones (pl_plan_reindex) */
  uint32_t n_key;       /* S_SCAN: number of bound columns */
  uint32_t n_distinct;  /* S_SCAN with project: number of matched columns */
  uint32_t key;         /* S_SCAN: per column a build pattern (bound) or PL_NONE, at kids[key] */
  uint32_t cols;        /* S_SCAN: per column a match pattern or PL_NONE, at kids[cols];
                           S_NEG: per column a build pattern */
  uint32_t a, b;        /* S_DISTINCT, S_EQUAL: the two patterns */
  uint32_t enum_col;    /* S_SCAN: a column whose compound pattern has a known argument, */
  uint32_t enum_pat;    /*   enumerated from the term store's argument index, */
  uint32_t n_enum_args; /*   by its n_enum_args known arguments (positions at */
  uint32_t enum_args;   /*   kids[enum_args], ascending, below 64 when there are
                           several); enum_col is PL_NONE when none */
  uint32_t n_live;      /* S_SCAN that binds a variable no later step reads: the */
  uint32_t live;        /*   n_live slots read later, at kids[live]; the rest of the
                           plan depends on their values only, so a repeated
                           combination can be skipped (0: no such step) */
  uint8_t invariant;    /* S_SCAN after the first step whose matches do not depend on
                           earlier steps (no key, no bound variable read) but are
                           fewer than the relation's tuples (patterns that reject
                           tuples, or a projection): collected once per run */
  uint8_t memo;         /* S_SCAN past the cut: live holds the slots the rest of the
                           witness search reads (head variables only read by the
                           head left out), and the search's outcome for them is
                           remembered */
  uint32_t to_head;     /* S_SCAN in the product tail, or the last of a direct plan: per
                           column the head column its variable gives, at kids[to_head]
                           (PL_NONE: none) */
  uint8_t filter;       /* S_SCAN of a full relation that tests one whole tuple, right after
                           a scan that binds the variable of column filter_col only: while
                           the other columns keep their values, the test reads a bitmap of
                           the codes that column takes with them, made from the run of
                           index filter_index (ordered with filter_col last; one the
                           relation has already) */
  uint32_t filter_col;
  int filter_index;
  uint8_t peek;         /* S_SCAN followed by a scan or test that looks up its column peek_col
                           with the value this step binds from column peek_from: a tuple
                           whose value that column has never held is skipped at once */
  uint32_t peek_from, peek_col;
} pl_step;

typedef struct pl_plan {
  pl_step *steps;
  uint32_t n_steps, cap_steps;
  pl_pat *pats;
  uint32_t n_pats, cap_pats;
  uint32_t *kids;       /* pattern lists */
  uint32_t n_kids, cap_kids;
  uint32_t head;        /* head patterns at kids[head] */
  uint32_t head_pred;
  uint32_t n_vars;
  uint32_t cut;         /* steps from here on bind no head variable: one witness is enough */
  uint32_t tail;        /* the product tail starts here (n_steps: none): scans that only
                           bind fresh variables, each a whole head argument, so that
                           the heads are the product of their tuples */
  uint8_t direct;       /* the last step scans for heads only: each of its tuples, past any key,
                           gives head columns (its to_head) and nothing else, and no
                           witness search follows; the evaluator emits it at once */
  uint8_t heads_first;  /* the order chosen enumerates candidate heads first */
  double cost;          /* the estimated cost of the order chosen */
  uint64_t order;       /* a hash of that order (pl_plan_rebuild) */
} pl_plan;

/* What the planner reads: the program, the term store, and per predicate
 * its relation, its delta of the last round and whether it belongs to the
 * component being evaluated. */
typedef struct pl_context {
  const dl_program *prog;
  dl_terms *terms;
  ix_relation **rel;
  const ix_tupleset *delta;
  const uint8_t *in_scc;
} pl_context;

/* Plans rule r with the delta at body literal delta_at (-1: every atom reads
 * its whole relation) into the empty plan pl, building the relation indexes
 * it needs.  Returns 0 when out of memory (pl must still be freed). */
int pl_plan_build(const pl_context *c, uint32_t r, int delta_at, pl_plan *pl);

/* Plans rule r's version delta_at again into pl, a plan of that version
 * (or an empty one): when the order chosen now is the one pl has, pl stays
 * as it is (its indexes not readied: see pl_plan_ready) and 2 is returned;
 * else pl is freed and built as pl_plan_build does.  Returns 0 when out of
 * memory (pl must still be freed).  Any plan of a version computes the
 * same, so keeping one is never wrong, at worst slower. */
int pl_plan_rebuild(const pl_context *c, uint32_t r, int delta_at, pl_plan *pl);

/* A summary of what pl_plan_build reads to choose the order of rule r's
 * version delta_at: the sizes of its relations and of their columns'
 * values, each rounded to a power of sqrt(2).  A plan stays valid for its
 * version while sizes change; when the summary does not change, a new one
 * would most likely be the same.  The delta's size is left out: the delta
 * is scanned first whatever its size, and it changes every round (leaving
 * it out halved the plans built in checkers' G+, 2,234 -> 1,177). */
uint64_t pl_plan_inputs(const pl_context *c, uint32_t r, int delta_at);

/* Readies the indexes a plan built before reads (ix_relation_index_ready),
 * to run it again. */
void pl_plan_ready(const pl_context *c, const pl_plan *pl);

/* Like pl_plan_ready, for relations that may have been replaced since the
 * plan was built (dl_eval_restart): finds or builds in each relation an
 * index for each scan's columns and updates the scan's index number.
 * Returns 0 when out of memory. */
int pl_plan_reindex(const pl_context *c, pl_plan *pl);

/* Frees the plan's storage and empties it. */
void pl_plan_free(pl_plan *pl);

#endif
