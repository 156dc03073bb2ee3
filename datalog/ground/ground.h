/* ground.h: goal-directed grounding of a GDL game (section 14.4 of the
 * book).  Every rule is instantiated over the instance sets the G+
 * reduction keeps (reduce.h): an instance exists only where each positive
 * body atom is a kept instance, found by a join over the kept relations (an
 * index lookup per atom, atoms ordered by estimated size), never a cross
 * product of domains.  The phases (datalog/ground/DESIGN.md gives each
 * one's reasons and figures):
 *
 *  1. Statics (ground.c).  A predicate is static when it depends on
 *     neither true nor does.  The game is evaluated once, true and does
 *     without facts, with full stratified negation: for static predicates
 *     that is their real model.  Their literals are decided and disappear
 *     (or the instance is dropped); only the keyword ones (role, init, base,
 *     input, and legal, next, goal, terminal when static) stay, as facts.
 *     When the game has no base (input) predicate, base(t) (input(r,a))
 *     facts are made from the true (does) instances of G+.
 *  2. Instantiation (ground.c, ground_join.c), predicate by predicate.
 *     With demand (opt.demand), users come first, and a supporting
 *     predicate is instantiated only for the atoms its users' kept
 *     instances contain; a predicate in a cycle is instantiated fully.
 *     distinct and equality are decided; a negative literal whose atom G+
 *     does not keep disappears.  Factoring (unless opt.no_factor) gives a
 *     body part that shares only head variables with the rest an auxiliary
 *     atom aux_N; splitting (ground_split.c, unless opt.no_split) breaks a
 *     rule whose join is large into pieces by variable elimination; an
 *     exclusion (unless opt.no_exclude or opt.no_factor) makes a rule that
 *     asks for "some binding of a part but the head's", such as chess's
 *     threat from another square than the captured one, once per binding
 *     of the part's head variables (DESIGN.md, "Exclusions").
 *  3. Pruning (ground_prune.c, unless opt.no_prune), one round, which
 *     reaches the fixpoint: an atom that no rule left can derive (true and
 *     does atoms are inputs) is false, so rules using it positively go and
 *     negative literals of it disappear; then only the rules whose heads the
 *     keyword atoms (legal, next, goal, terminal) need, transitively, stay.
 *     Auxiliary atoms with one rule are inlined, identical rules kept once,
 *     atoms renumbered densely.
 *  4. Simplification is the next stage of the pipeline, not the
 *     grounder's (datalog/simplify/simplify.h; off with opt.no_simplify,
 *     and above 4 million rules): in rounds, unfoldings and foldings that
 *     make the propnet smaller; keyword atoms keep their identity and hold
 *     in exactly the same states and joint moves.
 *
 * The ground game: atoms have dense ids 1..n (an id, negated, is a negated
 * literal); each atom is a term pred(args) of the game's term store, with
 * the role it plays for a propnet builder (dl_atom_role).  A rule is a head
 * atom and a body of literals; a fact has an empty body.  Supporting atoms
 * (role other) include the auxiliary ones: aux_N of factors and split
 * pieces, simp_N of the simplifier's factoring. */
#ifndef GDLOG_GROUND_H
#define GDLOG_GROUND_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/stop.h"
#include "datalog/base/terms.h"
#include "datalog/gdl/reduce.h"
#include "datalog/program/program.h"

/* What an atom is to a propnet builder. */
typedef enum dl_atom_role {
  DL_ATOM_FLUENT,    /* true(t) */
  DL_ATOM_MOVE,      /* does(r,a) */
  DL_ATOM_LEGAL,
  DL_ATOM_NEXT,
  DL_ATOM_GOAL,
  DL_ATOM_TERMINAL,
  DL_ATOM_INIT,
  DL_ATOM_ROLE,
  DL_ATOM_BASE,
  DL_ATOM_INPUT,
  DL_ATOM_OTHER,
  DL_ATOM_ROLES
} dl_atom_role;

/* The name of a role: "fluent", "move", ..., "other". */
const char *dl_atom_role_name(dl_atom_role role);

/* Where grounding is, for a progress line. */
typedef struct dl_ground_progress {
  const char *phase;      /* "statics", "instantiate", "prune" or "simplify" */
  uint32_t rules_done;    /* instantiate: the game's rules done so far */
  uint32_t rules_total;   /* instantiate: the game's rules */
  uint64_t instances;     /* ground rules made so far */
} dl_ground_progress;

typedef struct dl_ground_options {
  int no_prune;                   /* keep every instance (no pruning) */
  int demand;                     /* instantiate supporting rules on demand only */
  int no_factor;                  /* no auxiliary atoms for independent body parts */
  int no_split;                   /* never split a rule by variable elimination */
  int no_exclude;                 /* no exclusions: "some U of a part other than the head's C" */
  int no_simplify;                /* no simplification after pruning (datalog/simplify/) */
  uint64_t max_instances;         /* stop beyond this many rule instances; 0: no limit */
  const dl_stop *stop;            /* when to stop early (base/stop.h); may be NULL */
  /* When not NULL, called at the start of each phase and after each rule
   * instantiated, with progress_ctx; the library itself never prints. */
  void (*progress)(void *ctx, const dl_ground_progress *p);
  void *progress_ctx;
} dl_ground_options;

/* Figures of one rule of the game. */
typedef struct dl_ground_rule_stats {
  uint64_t candidates;    /* bindings of its positive body atoms over the kept sets */
  uint64_t instances;     /* of those, instances made: distinct, static literals hold */
  uint64_t kept;          /* of those, instances left after pruning (duplicates once) */
  double seconds;         /* time of its instantiation */
} dl_ground_rule_stats;

typedef struct dl_ground_stats {
  double statics_seconds;      /* evaluating the static predicates */
  double instantiate_seconds;
  double prune_seconds;
  uint32_t prune_rounds;
  double simplify_seconds;
  uint32_t simplify_rounds;
  uint64_t simplify_before;    /* components before simplification */
  uint64_t rules, facts, atoms, literals;
  uint64_t components;         /* as ggp-base counts a propnet: atoms + rules with
                                * two or more body literals + atoms with two or more
                                * rules + atoms used negatively + next atoms; role,
                                * init, base and input facts are not counted */
  size_t bytes;                /* memory of the ground game */
} dl_ground_stats;

typedef struct dl_ground dl_ground;

/* Grounds game (a checked program) over reduction red (made from game with
 * DL_REDUCE_LFP or DL_REDUCE_DOMAINS): statics, instantiation and pruning
 * (phases 1 to 3), then the figures.  Returns the ground game, or NULL
 * after reporting to diag (limit, cancel, out of memory).  game, its ast,
 * and red must outlive the call; the terms must outlive the result (atoms
 * are terms of game->terms, which grounding extends). */
dl_ground *dl_ground_build(const dl_program *game, const dl_reduction *red, const dl_ground_options *opt,
                           dl_diag *diag);

/* Frees the ground game; NULL is allowed. */
void dl_ground_destroy(dl_ground *g);

/* The term store its atoms live in. */
const dl_terms *dl_ground_terms(const dl_ground *g);

/* Number of atoms: their ids are 1 .. count. */
uint32_t dl_ground_atom_count(const dl_ground *g);

/* Atom id (1 <= id <= count) as a term pred(args) (a constant when 0-ary). */
dl_tid dl_ground_atom_term(const dl_ground *g, uint32_t id);

dl_atom_role dl_ground_atom_role(const dl_ground *g, uint32_t id);

/* Whether predicate pred of the game (< its n_preds) depends on true or
 * does, and the role its atoms play (DL_ATOM_OTHER for a keyword name of
 * the wrong arity), as grounding classified them. */
int dl_ground_pred_dynamic(const dl_ground *g, uint32_t pred);
dl_atom_role dl_ground_pred_role(const dl_ground *g, uint32_t pred);

/* Number of rules, facts included. */
uint32_t dl_ground_rule_count(const dl_ground *g);

/* Rule i (i < count): its head atom id; its body literals (+id, or -id for
 * a negated atom) in *body, their number in *n. */
int32_t dl_ground_rule(const dl_ground *g, uint32_t i, const int32_t **body, uint32_t *n);

/* The game rule rule i is an instance of, or UINT32_MAX for facts gdlog
 * added (base, input from G+; static keyword atoms). */
uint32_t dl_ground_rule_origin(const dl_ground *g, uint32_t i);

/* Figures of game rule r (an index of game->ast->rules). */
dl_ground_rule_stats dl_ground_get_rule_stats(const dl_ground *g, uint32_t r);

dl_ground_stats dl_ground_get_stats(const dl_ground *g);

#endif
