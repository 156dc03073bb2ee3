/* ground_impl.h: private to the grounder's files (ground*.c) and the
 * simplifier (datalog/simplify/), which rewrites a ground game in place: the
 * grounder's state, and the helpers they share.  Not part of the interface. */
#ifndef DATALOG_GDL_GROUND_IMPL_H
#define DATALOG_GDL_GROUND_IMPL_H

#include "datalog/ground/ground.h"

#include <stddef.h>
#include <stdint.h>

#include <Judy.h>

#include "datalog/base/clock.h"
#include "datalog/eval/eval.h"
#include "index/relation.h"

typedef struct vec32 {
  int32_t *a;
  size_t n, cap;
} vec32;

struct dl_ground {
  const dl_program *game;
  const dl_reduction *red;
  const dl_ground_options *opt;
  dl_diag *diag;
  dl_terms *terms;
  dl_eval *statics;           /* the game's model with no true/does: exact for static predicates */
  uint8_t *dynamic;           /* per predicate: depends on true or does */
  uint8_t *pred_role;         /* per predicate: dl_atom_role of its atoms */
  ix_relation **demand;       /* per predicate: the instances its users ask for; NULL: all */
  uint32_t *atom_of_term;     /* per term id: its atom id, 0: none (terms are dense) */
  uint32_t n_term_slots;
  uint64_t *rule_slots;       /* open addressing: hash >> 32 << 32 | rule index + 1, to make each rule once */
  uint32_t rule_mask;
  uint32_t rule_set_n;        /* the rules in rule_slots (gr_add_rule_once's; gr_add_rule's are not) */
  uint32_t n_aux;             /* auxiliary predicates made */
  dl_tid *atom_term;          /* per atom id (0 unused) */
  uint8_t *atom_role;
  uint8_t *atom_aux;          /* per atom: an auxiliary atom of a factor */
  uint32_t n_atoms, cap_atoms;
  vec32 lits;                 /* per rule: head, n, body[n] */
  size_t *rule_at;
  uint32_t *rule_origin;
  uint32_t n_rules, cap_rules;
  dl_ground_rule_stats *rstats;
  dl_ground_stats stats;
  uint64_t instances;
  /* Steps of the join over the frozen relations (G+'s and the statics'),
   * kept during instantiation for the rules that join the same pattern
   * (ground_join.c): JudyHS of the pattern's key -> index + 1 in kept. */
  Pvoid_t kept_keys;
  ix_relation **kept;
  uint32_t n_kept, cap_kept;
  uint64_t kept_tuples;       /* tuples of the steps kept */
  /* Relations' tuples by an argument of a compound column, for the steps
   * (ground_subterm.c): JudyHS of the key -> index + 1 in subterms. */
  Pvoid_t subterm_keys;
  struct gr_subterm **subterms;
  uint32_t n_subterms, cap_subterms;
  uint64_t subterm_tuples;
  int failed;                 /* out of memory, limit or cancel (reported) */
  int kept_counted;           /* rstats[].kept done (after pruning, before simplification) */
};

/* A rule as the join sees it: a rule of the game, or a piece of one that
 * ground_split.c made by variable elimination.  A piece shares the rule's
 * variable numbers; predicates from the game's n_preds on are pieces'. */
typedef struct gr_rule {
  const dl_rule *r;
  const uint32_t *lit_pred;   /* per body literal: its predicate, DL_NO_PRED for (in)equality */
  uint32_t head_pred;
  uint32_t origin;            /* the game's rule it comes from */
  int use_demand;             /* heads only where the head predicate's demand asks */
} gr_rule;

/* Frees the steps kept by the joins (gr_instantiate) and the subterm
 * indexes; g stays usable. */
void gr_free_steps(dl_ground *g);

/* The pieces of one split rule: per piece predicate (base + i), the heads
 * made so far (its kept instances) and whether it depends on true/does. */
typedef struct gr_pieces {
  uint32_t base, n;
  ix_relation **rel;
  uint8_t *dynamic;
} gr_pieces;

/* Per body literal of a rule (and one more row for the head's demand):
 * estimated tuples (< 0: none, not a positive literal with variables) and,
 * per variable, its distinct values there. */
typedef struct gr_lit_stats {
  double *size;               /* [n_body + 1] */
  double *dv;                 /* [(n_body + 1) * n_vars] */
} gr_lit_stats;

/* ground_store.c */
/* Appends x to v; 0 when out of memory (not reported). */
int gr_push32(vec32 *v, int32_t x);
/* Reports running out of memory once and marks g failed; returns 0. */
int gr_oom(dl_ground *g);
/* Room for one more atom in the atom arrays; 0 when out of memory (not reported). */
int gr_reserve_atom(dl_ground *g);
/* The id of the atom that is term t (with the given role when it is new);
 * 0 when out of memory (reported). */
int32_t gr_atom_id(dl_ground *g, dl_tid t, uint8_t role);
/* The atom pred(args[0..n)) as a term; DL_NO_TERM when the store refuses it. */
dl_tid gr_atom_term(dl_ground *g, dl_sym pred, uint32_t n, const dl_tid *args);
/* Appends rule head :- body[0..n) made by source rule origin (UINT32_MAX:
 * none); 1, or 0 when out of memory (reported). */
int gr_add_rule(dl_ground *g, int32_t head, const int32_t *body, uint32_t n, uint32_t origin);
/* gr_add_rule, unless the same rule (body normalized) was added before. */
int gr_add_rule_once(dl_ground *g, int32_t head, const int32_t *body, uint32_t n, uint32_t origin);
/* Sorts a body, keeps each literal once; 0 when it holds a and ~a. */
int gr_normalize_body(int32_t *body, uint32_t *n);

/* ground.c */
int gr_is_input(dl_atom_role r);
int gr_is_goal_role(dl_atom_role r);

/* ground_join.c */
int gr_pred_dynamic(const dl_ground *g, const gr_pieces *pc, uint32_t q);
dl_sym gr_aux_symbol(dl_ground *g);
/* Instantiates one rule or piece; pieces (pc) are never split again. */
int gr_instantiate(dl_ground *g, const gr_rule *gr, gr_pieces *pc);

/* ground_subterm.c */
typedef struct gr_subterm gr_subterm;
/* The tuples of src (frozen while it is used so: its size is checked)
 * whose column col is a term f(n_args arguments) with argument arg equal
 * to v, in *rows (ix_relation_arity(src) values each, valid until
 * gr_subterm_forget) and *n.  1 when found so (*n may be 0); 0 when src is to be
 * scanned instead: small, grown, over the budget, or out of memory. */
int gr_subterm_rows(dl_ground *g, ix_relation *src, uint32_t col, dl_sym f, uint32_t n_args, uint32_t arg,
                    dl_tid v, const ix_val **rows, uint64_t *n);
/* Frees the indexes of src (all of them when src is NULL): call it
 * before src goes. */
void gr_subterm_forget(dl_ground *g, const ix_relation *src);

/* ground_split.c */
/* Splits rule gr, whose join is estimated at `estimate` candidates, into
 * pieces by variable elimination and instantiates them: 1 done, 0 failure
 * (reported), -1 declined (no split is estimated to save enough). */
int gr_split(dl_ground *g, const gr_rule *gr, const gr_lit_stats *st, double estimate);

/* Rule i's literals: head, body size n, body[n] (inline: every pass reads them). */
static inline int32_t *gr_rule_lits(const dl_ground *g, uint32_t i) { return &g->lits.a[g->rule_at[i]]; }

/* ground_prune.c */
int gr_prune(dl_ground *g);
/* The ground game's propnet components (ground.h) into *count; 0 when out
 * of memory. */
int gr_components(const dl_ground *g, uint64_t *count);
/* The same for the n rules lits + at[i] (head, n, body) over g's atoms, of
 * which only those the rules use count. */
int gr_components_of(const dl_ground *g, const int32_t *lits, const size_t *at, uint32_t n, uint64_t *count);
/* The figures of g's rules and atoms into g->stats (rules, facts, atoms,
 * literals, components, bytes), anew each time; the kept instances per
 * game rule the first time only.  0 when out of memory (reported). */
int gr_count_figures(dl_ground *g);
/* Keeps the rules i with alive[i], each different one once, sorted by head;
 * atoms renumbered 1.. in their old order, those no rule has left out.  0
 * when out of memory (reported). */
int gr_compact(dl_ground *g, const uint8_t *alive);

#endif
