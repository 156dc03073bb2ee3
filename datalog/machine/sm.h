/* sm.h: a minimal game state machine over a GDL program, ground or not,
 * behind the rules backend (backend_rules.c).  It answers the questions of
 * ggp-base's StateMachine: the roles, the initial state, the legal moves of
 * a role, terminal, the goal value of a role and the next state for a joint
 * move.  Every answer is read from a model of the program computed by the
 * evaluator (eval.h) with the state's fluents seeded as true(t) facts (and,
 * for the next state, the joint move as does(r,a) facts): correct for any
 * game, not fast (the circuit, datalog/circuit/, is the fast backend for
 * games that ground).  One model is computed per state for legal, goal and
 * terminal, and kept while the same state is asked about; one per state and
 * joint move for next.  No program is rebuilt per state: one evaluator is
 * restarted (see sm.c).
 *
 * A state is an array of fluent terms (the t of true(t)); the machine
 * returns states sorted by term id, without duplicates, and accepts them in
 * any order.  Moves and roles are term ids of the game's term store; print
 * them with dl_sm_term_text.
 *
 * Errors follow ggp-base's contract and are reported to the diag, never
 * replaced by a default: a role without a legal move in a non-terminal
 * state, a goal asked of a role that has no goal value or several in the
 * state, a goal value that is not a number in 0..100, a joint move with a
 * move that is not legal, and evaluation failures (limits, memory). */
#ifndef GDLOG_SM_H
#define GDLOG_SM_H

#include <stdint.h>

#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/base/ids.h"
#include "datalog/base/terms.h"
#include "datalog/eval/eval.h"
#include "datalog/program/program.h"
#include "datalog/base/text.h"

typedef struct dl_sm dl_sm;


/* Figures since the machine was created. */
typedef struct dl_sm_stats {
  uint64_t models;       /* models computed (the initial one included) */
  double seconds;        /* wall-clock time spent computing them */
  double cpu_seconds;    /* processor time of the process spent computing them */
} dl_sm_stats;

/* Whether the machine evaluates the game's rules as they are, or their
 * magic-set rewriting (datalog/program/magic.h) for role, init, legal,
 * next, goal and terminal: demand-driven, it computes only what those
 * need, so that games with an infinite or huge full model play.
 * laikLee_hex builds lists of cells without a bound (isList, append_el),
 * but line/1 needs only the lists of the paths that connection/6 walks
 * through stones of one colour; sudoku's exactlyFirst/10 over every
 * combination of marks has 3.5e9 instances in its domain and does not
 * depend on the state, but goodRow, goodColumn and goodSquare ask it only
 * about the nine marks of a row, column or square, all arguments bound.
 * AUTO
 * rewrites when the domain analysis (datalog/gdl/domains.h) gives some
 * predicate an infinite domain; when the largest domain is finite but has
 * more than DL_SM_DEMAND_ATOMS instances, it rewrites unless a walk of a
 * few joint moves from the initial state (each role's first legal move,
 * evaluated as the machine does, restarting one evaluator) takes the rules
 * as they are at most twice as many derivations as the rewriting
 * (deterministic: counts, not time); else it evaluates the rules as they
 * are. */
typedef enum dl_sm_demand {
  DL_SM_DEMAND_AUTO = 0,
  DL_SM_DEMAND_OFF,
  DL_SM_DEMAND_ON
} dl_sm_demand;

#define DL_SM_DEMAND_ATOMS 1e7

/* Creates the state machine of game, a checked program (the program, its
 * ast and its term store must outlive the machine; the term store grows as
 * models make new terms).  Computes the model with no state to find the
 * roles and the initial state.  NULL after reporting to diag: no role, a
 * GDL keyword with the wrong arity, an evaluation failure, out of memory.
 * Evaluations run without limits (see dl_sm_create_limited). */
dl_sm *dl_sm_create(const dl_program *game, dl_diag *diag);

/* Like dl_sm_create, with the atom limit and cancel flag of opt for every
 * evaluation, the first one (in dl_sm_create) included.  Both choose the
 * evaluation with DL_SM_DEMAND_AUTO (see dl_sm_create_demand). */
dl_sm *dl_sm_create_limited(const dl_program *game, const dl_eval_options *opt, dl_diag *diag);

/* Like dl_sm_create_limited, evaluating the rules as `demand` says (the
 * keywords' arities are checked on game itself).  NULL after reporting, as
 * dl_sm_create; also when the rewriting fails (out of memory). */
dl_sm *dl_sm_create_demand(const dl_program *game, const dl_eval_options *opt, dl_sm_demand demand, dl_diag *diag);

/* Whether sm evaluates the magic-set rewriting of the game (see
 * dl_sm_demand). */
int dl_sm_uses_demand(const dl_sm *sm);

/* Frees the machine; NULL is allowed. */
void dl_sm_destroy(dl_sm *sm);

/* The atom limit and cancel flag of the evaluations from now on. */
void dl_sm_set_limits(dl_sm *sm, const dl_eval_options *opt);

/* The roles in the order of the game's role facts, *n of them; roles that
 * rules derive (not GDL) follow, by term id. */
const dl_tid *dl_sm_roles(const dl_sm *sm, uint32_t *n);

/* The initial state (the init(t) atoms of the model), *n fluents sorted. */
const dl_tid *dl_sm_initial(const dl_sm *sm, uint32_t *n);

/* Whether state[0..n) is terminal, in *terminal.  1, or 0 after reporting
 * an evaluation failure. */
int dl_sm_terminal(dl_sm *sm, const dl_tid *state, uint32_t n, int *terminal);

/* The legal moves of role index `role` (< the number of roles) in
 * state[0..n), sorted by term id, into *moves (replacing its contents).
 * 1, or 0 after reporting: the role has no legal move and the state is not
 * terminal (in a terminal state an empty list is returned), or an
 * evaluation failure. */
int dl_sm_legal(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, dl_ids *moves);

/* The legal moves of role index `role` in state[0..n), as the model has
 * them (none in a state that is not terminal is no error here), sorted by
 * term id, into *moves.  1, or 0 after reporting an evaluation failure. */
int dl_sm_legal_moves(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, dl_ids *moves);

/* The goal value of role index `role` in state[0..n), in *value.  1, or 0
 * after reporting: the role has no goal value or several, or one that is
 * not a number in 0..100, or an evaluation failure. */
int dl_sm_goal(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, int *value);

/* The goal value terms of role index `role` in state[0..n), as the model
 * has them (none, one or several; no contract checked), sorted by term id,
 * into *values.  1, or 0 after reporting an evaluation failure. */
int dl_sm_goal_values(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, dl_ids *values);

/* The next state of state[0..n) when role i plays joint[i] (one move per
 * role, in the order of dl_sm_roles), sorted, into *next (replacing its
 * contents; it must not alias state).  1, or 0 after reporting: a move of
 * the joint move is not legal in the state, or an evaluation failure. */
int dl_sm_next(dl_sm *sm, const dl_tid *state, uint32_t n, const dl_tid *joint, dl_ids *next);

/* The game's term store, where states, moves and roles live. */
const dl_terms *dl_sm_terms(const dl_sm *sm);

/* Appends term t (a role, move, fluent or value) to out in fmt. */
void dl_sm_term_text(const dl_sm *sm, dl_tid t, dl_format fmt, dl_buf *out);

/* Figures since the machine was created. */
dl_sm_stats dl_sm_get_stats(const dl_sm *sm);

#endif
