/* circuit.h: a ground game (ground.h) compiled into a circuit, the fast
 * backend of the state machine (datalog/machine/backend_circuit.c;
 * chapters 9-10 of the book: propositional nets): the circuit's runtime.
 * The compiler that makes one is datalog/compile/compile.h.
 *
 * Gates: one input gate per true(t) and does(r,a) atom; per derived atom an
 * OR of its rules (or, when it has one rule of two or more literals, that
 * rule's AND); per rule of two or more literals an AND.  A negative
 * literal is a negated wire (it counts as true while its source is false).
 * An atom with a fact is constant true.  Every gate holds a 32-bit counter
 * of its true inputs offset so that its value is the top bit (AND of k:
 * 2^31 - k; OR: 2^31 - 1), so a gate is evaluated by one add (ggplib's
 * scheme).
 *
 * Evaluation is differential: the circuit holds one current state and joint
 * move; setting another state or move flips only the inputs that differ and
 * propagates only the gates whose value flips, in a topological order of
 * the gates (queued in a bitmap), so a gate passes on at most one change
 * per propagation; setting a state stops before the gates that depend on a
 * move, which the next joint move settles.  Legal moves (a list per
 * role), the next state (a bitset) and terminal are updated as their gates
 * flip, so reading them costs nothing; the gates that only goals need (a
 * piece count) are laid out last and evaluated when a goal is asked.  Positive recursion in the
 * ground game (a cyclic strongly connected component of gates) is evaluated
 * as a block: when one of its inputs changes, its least fixpoint is computed
 * again from its inputs outside the block, blocks in topological order.
 * Recursion through negation in the ground game is rejected.
 *
 * With DL_CIRCUIT_LAZY (see dl_circuit_mode) the gates that only legal
 * moves, goals and terminal need are not kept up to date: they are
 * evaluated when asked, for the current state (circuit_lazy.c).
 * datalog/circuit/DESIGN.md tells which gates go lazy, how legal moves are
 * filed, when AUTO chooses lazy, and how the bit-parallel playouts below
 * lay out their gates, with the figures behind each choice.
 *
 * After compiling nothing allocates: states are caller buffers of
 * dl_circuit_state_words 64-bit words (bit f of word f/64 is fluent f), move
 * lists are owned by the circuit. */
#ifndef GDLOG_CIRCUIT_H
#define GDLOG_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/rng.h"
#include "datalog/base/stop.h"
#include "datalog/base/terms.h"
#include "datalog/ground/ground.h"

#define DL_CIRCUIT_NO_MOVE UINT32_MAX

typedef struct dl_circuit dl_circuit;

typedef struct dl_circuit_stats {
  uint32_t gates, edges;       /* gates (inputs included) and wires */
  uint32_t and_gates, or_gates, inputs;
  uint32_t negated;            /* wires that negate their source */
  uint32_t cyclic_blocks;      /* strongly connected components with a cycle */
  uint32_t cyclic_gates;       /* gates in them */
  uint32_t fluents, moves, roles, state_words;
  uint32_t lazy_gates, lazy_wires; /* evaluated on demand (DL_CIRCUIT_LAZY) */
  uint32_t lazy_next_rules;    /* of them, rules of next atoms (evaluated when a move is made) */
  uint32_t checked_moves;      /* legal moves that read inputs when drawn, not through wires (eager) */
  uint32_t keyed_moves;        /* of them, listed under a gate that many need, with no wires in (eager) */
  uint32_t move_keys;          /* such gates */
  uint32_t one_hot_groups;     /* groups of fluents of which one holds at most, as a step counter's (eager) */
  uint32_t selected_ands;      /* ANDs of a member and one gate, fed only while the member holds (eager) */
  uint32_t watched_ands;       /* ANDs of a move's gate and a state's, fed by the first only while the second holds (eager) */
  size_t bytes;                /* memory of the circuit */
  size_t bytes_wide;           /* of it, the bit-parallel program's (0: none) */
} dl_circuit_stats;

/* How the gates that only legal moves, goals and terminal need are
 * evaluated: EAGER keeps them up to date with the rest (differentially,
 * the goal-only ones when a goal is asked); LAZY computes them when asked,
 * for the current state only, stopping an AND at its first false input
 * and an OR at its first true one (chess: millions of check tests flip
 * at every move, and a state asks for a few dozen), and the next rules
 * that are no frame too, once a joint move is set; AUTO chooses.  (The
 * order is that of gdlog's --circuit choices.) */
typedef enum dl_circuit_mode { DL_CIRCUIT_AUTO, DL_CIRCUIT_EAGER, DL_CIRCUIT_LAZY } dl_circuit_mode;


/* Frees the circuit; NULL is allowed. */
void dl_circuit_destroy(dl_circuit *c);

dl_circuit_stats dl_circuit_get_stats(const dl_circuit *c);

/* The term store of the terms below (the ground game's). */
const dl_terms *dl_circuit_terms(const dl_circuit *c);

/* Roles, in the order of the game's role facts; r < count. */
uint32_t dl_circuit_role_count(const dl_circuit *c);
dl_tid dl_circuit_role_term(const dl_circuit *c, uint32_t r);

/* Fluents: the terms t of the game's true(t), next(t) and init(t) atoms;
 * f < count. */
uint32_t dl_circuit_fluent_count(const dl_circuit *c);
dl_tid dl_circuit_fluent_term(const dl_circuit *c, uint32_t f);

/* 64-bit words of a state. */
uint32_t dl_circuit_state_words(const dl_circuit *c);

/* Moves: one per legal(r,a) atom; m < count.  Its role index and action a. */
uint32_t dl_circuit_move_count(const dl_circuit *c);
uint32_t dl_circuit_move_role(const dl_circuit *c, uint32_t m);
dl_tid dl_circuit_move_term(const dl_circuit *c, uint32_t m);

/* Writes the initial state (the init facts) into state[0 .. words). */
void dl_circuit_initial(const dl_circuit *c, uint64_t *state);

/* Makes state the current state.  Returns 1 (propagation allocates
 * nothing and cannot fail; the status is kept for callers). */
int dl_circuit_set_state(dl_circuit *c, const uint64_t *state);

/* The current state (valid until the next set_state). */
const uint64_t *dl_circuit_state(const dl_circuit *c);

/* Legal moves of role r in the current state: their number, and the moves
 * in *moves (owned by the circuit, valid until the next set_state; in no
 * particular order). */
uint32_t dl_circuit_legal(dl_circuit *c, uint32_t r, const uint32_t **moves);

/* Whether the current state is terminal. */
int dl_circuit_terminal(const dl_circuit *c);

/* The goal value of role r in the current state into *value (first
 * bringing the gates only goals need up to date: c is logically const).
 * Returns 1, or
 * 0 when r has no goal value or several (then *value is the number of true
 * goal atoms, negated: 0 or -2, -3, ...). */
int dl_circuit_goal(const dl_circuit *c, uint32_t r, int32_t *value);

/* The number of true goal atoms of role r in the current state into
 * *count, and the sum of their values into *sum. */
void dl_circuit_goal_atoms(const dl_circuit *c, uint32_t r, int32_t *count, int32_t *sum);

/* Sets the joint move (joint[r] is a move of role r, one for every role)
 * and writes the next state of the current state into next[0 .. words).
 * The moves need not be legal (the caller checks).  (The circuit relies on
 * one move per role: "does some move of r but these few" is compiled as
 * "does none of these few".)  Returns 1 (as set_state). */
int dl_circuit_next(dl_circuit *c, const uint32_t *joint, uint64_t *next);

typedef enum dl_playout_status {
  DL_PLAYOUT_OK,
  DL_PLAYOUT_NO_LEGAL,    /* role `role` has no legal move in a non-terminal state */
  DL_PLAYOUT_BAD_GOAL,    /* role `role` has no goal value or several in the terminal state */
  DL_PLAYOUT_TOO_DEEP,    /* no terminal state within max_depth moves */
  DL_PLAYOUT_STOPPED,     /* the stop asked before the end */
  DL_PLAYOUT_NO_MEMORY
} dl_playout_status;

typedef struct dl_playout {
  dl_playout_status status;
  uint32_t role;          /* the role of NO_LEGAL, BAD_GOAL */
  uint32_t depth;         /* joint moves made */
} dl_playout;

/* Plays uniformly random joint moves from start until a terminal state
 * (at most max_depth joint moves) and writes the goal of each role into
 * goals[0 .. roles).  Polls stop (may be NULL) every DL_PLAYOUT_POLL joint
 * moves and ends STOPPED when it asks.  Allocates nothing.  Returns the
 * outcome; on an error the circuit is left on the state where it
 * happened. */
dl_playout dl_circuit_playout(dl_circuit *c, const uint64_t *start, dl_rng *rng, uint32_t max_depth,
                              const dl_stop *stop, int32_t *goals);

/* How many joint moves (steps of the lanes) a playout makes between two
 * looks at its stop: a few microseconds of work on a small circuit, a few
 * milliseconds on a large one. */
#define DL_PLAYOUT_POLL 1024u

/* Bit-parallel playouts (circuit_wide.c).  An eager circuit whose legal
 * moves, goals and terminal read no move also holds its gates as a
 * program over words of DL_WIDE_LANES bits, one bit per playout (a lane):
 * that many random playouts run in lockstep, and a step evaluates every
 * gate once for all their states (the goal-only gates when a lane ends),
 * with AVX2 where the processor has it.  It is the same game and the same
 * uniform choice as dl_circuit_playout, with another order of the random
 * draws.  It leaves the circuit's current state alone. */
#define DL_WIDE_LANES 256u

/* How one playout ended.  goals and goal_n (BAD_GOAL or OK; else NULL):
 * per role its number of true goal atoms, and its goal value when that is
 * 1 (else 0 when none, minus the number when several: as
 * dl_circuit_goal).  With a history: its
 * first min(depth, history) joint moves (n_roles moves each) and each
 * role's number of legal moves in those states. */
typedef struct dl_wide_result {
  dl_playout p;           /* OK, NO_LEGAL, BAD_GOAL (role: the first without one goal value), TOO_DEEP */
  const int32_t *goals, *goal_n;
  const uint32_t *moves, *legal;
  uint32_t lane;
} dl_wide_result;

/* Called as each playout ends; the result is valid during the call.
 * Returns 0 to stop the run. */
typedef int (*dl_wide_fn)(void *ctx, const dl_wide_result *r);

/* Whether c has the bit-parallel program. */
int dl_circuit_has_wide(const dl_circuit *c);

/* Runs n random playouts from start, DL_WIDE_LANES at a time, and calls done for each
 * as it ends (in the order they end), until all are done, done returns 0,
 * or stop (may be NULL, polled every DL_PLAYOUT_POLL steps) asks (the
 * playouts under way are then dropped).  A playout longer than
 * max_depth joint moves ends as TOO_DEEP.  history: how many joint moves
 * of each playout to keep for done (0: none; then nothing is allocated).
 * Requires dl_circuit_has_wide(c).  Returns 1, or 0 when out of memory. */
int dl_circuit_wide_playouts(dl_circuit *c, const uint64_t *start, dl_rng *rng, uint64_t n, uint32_t max_depth,
                             uint32_t history, const dl_stop *stop, dl_wide_fn done, void *ctx);

#endif
