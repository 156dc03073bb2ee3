/* machine.h: the state machine interface of gdlog.  It answers what
 * ggp-base's StateMachine answers (roles, initial state, legal moves, next
 * state, terminal, goal values), runs random playouts, and reads and
 * writes states and moves as text, over one table of functions
 * (dl_machine_ops) with one backend behind it:
 *   - rules (backend_rules.c): the evaluator over the game's rules, one
 *     model per state: any game;
 *   - circuit (backend_circuit.c): the ground game compiled into a circuit:
 *     fast, for games that ground.
 * A new backend is one new file that fills a dl_machine_ops; no caller
 * branches on which backend it has.  pipeline.h builds a machine from a
 * game.
 *
 * This layer checks the contract once for every backend, and words its
 * errors once (reported to the machine's diagnostics object): a role
 * without a legal move in a state that is not terminal, a role with no
 * goal value or several or one outside 0..100, a joint move with a move
 * that is not legal.  Backends only compute.
 *
 * States are dl_mstate values the machine makes (free them with free()):
 * sorted fluent ids for the rules, a bitset for the circuit.  Moves are
 * uint32_t ids the machine hands out; a move id stays valid as long as its
 * machine and names one action of one role. */
#ifndef GDLOG_MACHINE_H
#define GDLOG_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/base/ids.h"
#include "datalog/base/rng.h"
#include "datalog/base/stop.h"
#include "datalog/base/terms.h"
#include "datalog/base/text.h"

/* How a question ended; the values of gdlog_status (gdlog.h). */
typedef enum dl_mstatus {
  DL_M_OK = 0,
  DL_M_INPUT,    /* bad text, or a name the game does not have */
  DL_M_ILLEGAL,  /* a move that is not legal where it is played */
  DL_M_GAME,     /* the game breaks the contract */
  DL_M_LIMIT,    /* a limit was reached, or the computation was stopped */
  DL_M_NOMEM     /* out of memory */
} dl_mstatus;

typedef struct dl_machine dl_machine;

/* A state: n elements of data, bytes long (equal states have equal bytes). */
typedef struct dl_mstate {
  const dl_machine *machine;  /* the machine that made it */
  uint32_t n;        /* fluent ids (rules) or 64-bit words (circuit) */
  uint32_t bytes;    /* of data */
  uint64_t data[];
} dl_mstate;

/* What one role's goal atoms say in one state, unchecked. */
typedef struct dl_goal_found {
  uint32_t count;    /* goal values the role has: 0, 1 or more */
  int32_t value;     /* with count 1: the value, -1 when it is not a number */
  int64_t sum;       /* the sum of the values (to compare sets of several), -1: one is no number */
} dl_goal_found;

/* Playouts that run at once in the circuit's bit-parallel program (its
 * DL_WIDE_LANES). */
#define DL_M_LANES_WIDE 256u

/* Random playouts to run: every role plays a uniformly random legal move
 * until a terminal state. */
typedef struct dl_playout_options {
  uint64_t n;             /* playouts (at most) */
  uint64_t seed;          /* the same seed, the same playouts */
  uint32_t max_depth;     /* a playout longer than this many joint moves is an error */
  int32_t goal_default;   /* a role with no goal value at the end scores this; -1: an error */
  uint32_t lanes;         /* 0: the backend's fastest, 1: one at a time, DL_M_LANES_WIDE: bit-parallel */
  double time_limit;      /* seconds after which no playout starts; 0: none */
} dl_playout_options;

/* What the playouts gave. */
typedef struct dl_playout_totals {
  uint64_t playouts;      /* finished */
  uint64_t states;        /* visited, the start of each playout included */
  uint64_t defaulted;     /* playouts in which a role scored goal_default */
  uint32_t min_depth, max_depth;
  double *goal_sum;       /* per role: the caller's array, added to */
  uint32_t lanes;         /* what ran: 1 or DL_M_LANES_WIDE */
  double seconds, cpu_seconds;
} dl_playout_totals;

/* A backend.  Every function returns DL_M_OK or reports to m->diag and
 * returns the failure; none checks the contract (this layer does). */
typedef struct dl_machine_ops {
  const char *name;                                             /* "rules", "circuit" */
  void (*destroy)(dl_machine *m);
  dl_mstatus (*initial)(dl_machine *m, dl_mstate **s);
  dl_mstatus (*terminal)(dl_machine *m, const dl_mstate *s, int *terminal);
  dl_mstatus (*legal)(dl_machine *m, const dl_mstate *s, uint32_t role, dl_ids *moves);  /* sorted */
  dl_mstatus (*goal)(dl_machine *m, const dl_mstate *s, uint32_t role, dl_goal_found *g);
  dl_mstatus (*next)(dl_machine *m, const dl_mstate *s, const uint32_t *joint, dl_mstate **next);
  dl_tid (*move_term)(const dl_machine *m, uint32_t move);      /* the action of a valid move */
  int (*move_valid)(const dl_machine *m, uint32_t move);
  uint32_t (*move_of)(const dl_machine *m, uint32_t role, dl_tid action);  /* DL_NO_MOVE: never a move */
  /* The state holding fluents[0..n) (any order, duplicates allowed); with
   * DL_M_INPUT, *unknown is the index of a fluent the backend cannot hold. */
  dl_mstatus (*state_of)(dl_machine *m, dl_tid *fluents, uint32_t n, dl_mstate **s, uint32_t *unknown);
  dl_mstatus (*fluents)(const dl_machine *m, const dl_mstate *s, dl_ids *out);
  /* Where a state is a bitset of fluents: fluent's bit, or UINT32_MAX
   * for one no state holds.  NULL: states are no bitsets. */
  uint32_t (*fluent_bit)(const dl_machine *m, dl_tid fluent);
  /* Fast playouts (NULL: this layer plays them through the questions). */
  dl_mstatus (*playouts)(dl_machine *m, const dl_mstate *start, const dl_playout_options *o, dl_playout_totals *t);
  /* The backend's figures as lines of text (json: as members of a JSON
   * object, each `"name": value` ended by ",\n"). */
  void (*describe)(const dl_machine *m, int json, dl_buf *out);
} dl_machine_ops;

#define DL_NO_MOVE UINT32_MAX

/* The part of every backend's machine that this layer reads; a backend's
 * own struct starts with it. */
struct dl_machine {
  const dl_machine_ops *ops;
  dl_diag *diag;            /* where questions report */
  dl_terms *terms;          /* the game's: roles, moves and fluents live here, texts are read into it */
  dl_format format;         /* the syntax of terms in messages (the game's) */
  uint32_t n_roles;
  const dl_tid *roles;      /* in the order of the game's role facts */
  const dl_stop *stop;      /* polled by playouts; may be NULL */
  dl_source *text;          /* the last text read (machine_text.c), kept while messages point into it */
};

/* ---- the backends (one file each) ---- */

/* The machine over sm, the rules' state machine of the game whose term
 * store is terms (backend_rules.c); it takes sm.  NULL when out of memory
 * (sm is then still the caller's). */
typedef struct dl_sm dl_sm;
dl_machine *dl_machine_rules(dl_sm *sm, dl_terms *terms, dl_diag *diag);

/* Whether m evaluates the game's rules demand-driven (magic sets). */
int dl_machine_uses_demand(const dl_machine *m);

/* The machine over c, the circuit of the ground game of the game whose
 * term store is terms (backend_circuit.c); it takes c.  NULL when out of
 * memory (c is then still the caller's). */
typedef struct dl_circuit dl_circuit;
dl_machine *dl_machine_circuit(dl_circuit *c, dl_terms *terms, dl_diag *diag);

/* ---- questions, the contract checked ---- */

/* Frees m and what it owns (the sm or circuit it was made of); NULL is
 * allowed. */
void dl_machine_destroy(dl_machine *m);

/* The backend's name: "rules" or "circuit". */
const char *dl_machine_backend(const dl_machine *m);

/* The initial state into *s. */
dl_mstatus dl_machine_initial(dl_machine *m, dl_mstate **s);

/* A new state of m, its n elements and bytes bytes zeroed; NULL when out
 * of memory (not reported).  For backends. */
dl_mstate *dl_mstate_alloc(const dl_machine *m, uint32_t n, uint32_t bytes);

/* A copy of s; NULL when out of memory (not reported). */
dl_mstate *dl_mstate_copy(const dl_mstate *s);

/* Whether a and b hold the same fluents (states of one machine). */
int dl_mstate_equal(const dl_mstate *a, const dl_mstate *b);

/* Whether s is terminal, into *terminal. */
dl_mstatus dl_machine_terminal(dl_machine *m, const dl_mstate *s, int *terminal);

/* The legal moves of role (< n_roles) in s, sorted, into *moves.  GAME
 * when the role has none in a state that is not terminal (in a terminal
 * state the list may be empty). */
dl_mstatus dl_machine_legal(dl_machine *m, const dl_mstate *s, uint32_t role, dl_ids *moves);

/* The goal value 0..100 of role (< n_roles) in s into *value.  GAME when
 * it has none, several, or one that is not a number 0..100. */
dl_mstatus dl_machine_goal(dl_machine *m, const dl_mstate *s, uint32_t role, int *value);

/* The goal atoms of role in s as they are, unchecked (for tools that
 * print them). */
dl_mstatus dl_machine_goal_found(dl_machine *m, const dl_mstate *s, uint32_t role, dl_goal_found *g);

/* Whether every move of joint (one per role, in role order) is legal in
 * s: OK, or ILLEGAL after reporting the first that is not (at src and
 * offs[r] when src is not NULL; a terminal state has no legal move). */
dl_mstatus dl_machine_check_joint(dl_machine *m, const dl_mstate *s, const uint32_t *joint, const dl_source *src,
                                  const uint32_t *offs);

/* The next state of s for joint into *next, after dl_machine_check_joint. */
dl_mstatus dl_machine_next(dl_machine *m, const dl_mstate *s, const uint32_t *joint, dl_mstate **next);

/* The next state of s for joint, which must be legal (already checked:
 * no check here). */
dl_mstatus dl_machine_next_unchecked(dl_machine *m, const dl_mstate *s, const uint32_t *joint, dl_mstate **next);

/* The fluents of s, as term ids, appended to out (sorted for the rules,
 * in the circuit's order for the circuit).  OK or NOMEM. */
dl_mstatus dl_machine_fluents(dl_machine *m, const dl_mstate *s, dl_ids *out);

/* Where the backend's states are bitsets of fluents (the circuit's: the
 * state holds fluent f when bit f % 64 of data[f / 64] is set), the bit of
 * fluent, or UINT32_MAX when no state holds it; 0 when they are not (the
 * rules'), with *bit untouched.  For callers that map whole states
 * (symmetries), without listing their fluents by term. */
int dl_machine_fluent_bit(const dl_machine *m, dl_tid fluent, uint32_t *bit);

/* The state holding fluents[0..n) (any order; the array may be reordered)
 * into *s.  INPUT, unreported, when the machine cannot hold one of them (a
 * fluent no state reached from init holds): then *unknown is its index. */
dl_mstatus dl_machine_state_of(dl_machine *m, dl_tid *fluents, uint32_t n, dl_mstate **s, uint32_t *unknown);

/* The action of move (a valid move id) as a term. */
dl_tid dl_machine_move_term(const dl_machine *m, uint32_t move);

/* The move of role whose action is the term action, or DL_NO_MOVE when
 * role can never make it. */
uint32_t dl_machine_move_of(const dl_machine *m, uint32_t role, dl_tid action);

/* Runs o->n random playouts from start (fewer when o->time_limit passes or
 * m->stop asks), adding into *t (goal_sum: n_roles doubles).  GAME when a
 * playout meets a role without a legal move, or ends where a role has no
 * goal value (without goal_default) or several; LIMIT when one passes
 * max_depth or the stop was asked; NOMEM. */
dl_mstatus dl_machine_playouts(dl_machine *m, const dl_mstate *start, const dl_playout_options *o,
                               dl_playout_totals *t);

/* Reports that memory ran out (cause NOMEM) and returns DL_M_NOMEM: what
 * a backend returns when an allocation of its own fails. */
dl_mstatus dl_machine_nomem(const dl_machine *m);

/* How a playout broke the contract, or went too deep. */
typedef enum dl_playout_fault {
  DL_FAULT_NO_LEGAL,     /* a role without a legal move in a state that is not terminal */
  DL_FAULT_NO_GOAL,      /* a role without a goal value at the end */
  DL_FAULT_GOALS,        /* a role with several goal values at the end */
  DL_FAULT_GOAL_RANGE,   /* a goal value that is not a number in 0..100 */
  DL_FAULT_DEEP          /* no terminal state within max_depth joint moves */
} dl_playout_fault;

/* Reports fault f of role in playout `index` after depth joint moves, in
 * the one wording of every backend; returns GAME (LIMIT for DEEP). */
dl_mstatus dl_machine_playout_fault(dl_machine *m, uint64_t index, dl_playout_fault f, uint32_t role, uint32_t depth);

/* Ends playout `index`, terminal after depth joint moves, whose roles'
 * goal atoms are found[0..n_roles): a role without a goal value scores
 * o->goal_default (when >= 0), every role must then have one value in
 * 0..100, and the playout is counted into t.  goals: room for n_roles
 * values.  OK, or the fault reported (GAME).  For backends' playouts. */
dl_mstatus dl_machine_playout_end(dl_machine *m, const dl_playout_options *o, uint64_t index, uint32_t depth,
                                  const dl_goal_found *found, int32_t *goals, dl_playout_totals *t);

/* Appends the backend's figures (see dl_machine_ops.describe). */
void dl_machine_describe(const dl_machine *m, int json, dl_buf *out);

/* ---- text (machine_text.c) ---- */

/* Frees the last text read (the messages about it must be printed). */
void dl_machine_forget_text(dl_machine *m);

/* Appends term t (a role, action or fluent) in fmt. */
void dl_machine_term_text(const dl_machine *m, dl_tid t, dl_format fmt, dl_buf *out);

/* The index of the role named text[0..len) (KIF or infix, read as the
 * game's own names are: kif says whether the game was KIF) into *role.
 * INPUT after reporting when the game has no such role. */
dl_mstatus dl_machine_parse_role(dl_machine *m, const char *text, size_t len, int kif, uint32_t *role);

/* The move of role written in text[0..len) into *move.  INPUT when it does
 * not read as one ground term; ILLEGAL when the backend knows it is never
 * a legal move of role. */
dl_mstatus dl_machine_parse_move(dl_machine *m, uint32_t role, const char *text, size_t len, int kif,
                                 uint32_t *move);

/* The joint move written in text[0..len) as does(R,A) facts (one per role,
 * any order) into joint[0..n_roles); name names the text in messages.
 * With s not NULL, every move must be legal in s. */
dl_mstatus dl_machine_parse_joint(dl_machine *m, const dl_mstate *s, const char *name, const char *text, size_t len,
                                  int kif, uint32_t *joint);

/* The state whose fluents are written in text[0..len) (a ground term or
 * true(term) fact each) into *s. */
dl_mstatus dl_machine_parse_state(dl_machine *m, const char *name, const char *text, size_t len, int kif,
                                  dl_mstate **s);

/* The fluents of s as text in fmt, one per line, sorted as text, without
 * true(...), into *text (malloc'd). */
dl_mstatus dl_machine_state_text(dl_machine *m, const dl_mstate *s, dl_format fmt, char **text);

/* Plays random playout `index` from the initial state, its moves drawn
 * with rng, appending to out each state and what holds there, in KIF (the
 * text of `gdlog play --trace`): "; state N", the true, legal and goal
 * atoms ("; goal values of R: N" for a role without exactly one), terminal,
 * the does atoms of the joint move played.  It ends in a terminal state,
 * whose goals must be what dl_machine_playout_end asks (o->goal_default
 * counts), or is cut after o->max_depth joint moves.  OK; GAME when the
 * game broke the contract (a role without a legal move, a goal fault:
 * reported as dl_machine_playouts reports it, the text traced up to it);
 * LIMIT, NOMEM. */
dl_mstatus dl_machine_trace_playout(dl_machine *m, const dl_playout_options *o, uint64_t index, dl_rng *rng,
                                    dl_buf *out);

#endif
