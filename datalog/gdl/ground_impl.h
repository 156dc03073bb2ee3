/* ground_impl.h: private to ground.c, ground_prune.c and ground_simplify.c: the grounder's
 * state, and the helpers both files use.  Not part of the interface. */
#ifndef DATALOG_GDL_GROUND_IMPL_H
#define DATALOG_GDL_GROUND_IMPL_H

#include "datalog/gdl/ground.h"

#include <stddef.h>
#include <stdint.h>

#include <Judy.h>

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
  Pvoid_t atom_of_term;       /* JudyL: term -> atom id */
  Pvoid_t rule_set;           /* JudyHS: the rules made so far, to make each once */
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
  int failed;                 /* out of memory, limit or cancel (reported) */
  int kept_counted;           /* rstats[].kept done (before simplification) */
};

/* ground.c */
double gr_now(void);
int gr_push32(vec32 *v, int32_t x);
int gr_oom(dl_ground *g);
int gr_is_input(dl_atom_role r);
int gr_is_goal_role(dl_atom_role r);
int gr_normalize_body(int32_t *body, uint32_t *n);

/* ground_prune.c */
int32_t *gr_rule_lits(const dl_ground *g, uint32_t i);
int gr_prune(dl_ground *g);
int gr_count_figures(dl_ground *g);
int gr_compact(dl_ground *g, const uint8_t *alive);

/* ground_simplify.c */
uint64_t gr_components(const dl_ground *g);
int gr_simplify(dl_ground *g);

#endif
