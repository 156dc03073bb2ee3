/* circuit_impl.h: private to the runtime (circuit.c: propagation, states,
 * playouts; circuit_lazy.c, circuit_wide.c) and the compiler that fills it
 * (datalog/compile/compile_impl.h). */
#ifndef DATALOG_GDL_CIRCUIT_IMPL_H
#define DATALOG_GDL_CIRCUIT_IMPL_H

#include "datalog/circuit/circuit.h"

#define NONE UINT32_MAX
#define TOP 0x80000000u

typedef struct cc_wide cc_wide;

enum { HOOK_LEGAL = 1, HOOK_NEXT = 2, HOOK_GOAL = 3, HOOK_TERMINAL = 4, HOOK_KEY = 5 };
enum { KIND_INPUT, KIND_CONST, KIND_AND, KIND_OR };
#define HAS_OUTPUTS 0x80000000u
#define DEMUX 0xffffffffu   /* net[d + 3] of a demux record (no block's number) */
#define WATCH 0xfffffffeu   /* ... of a watch record */
#define SELECT 0xfffffffdu  /* ... of a select record */

/* A gate of the evaluated circuit is the offset g of its record in net:
 *   net[g + NET_COUNTER]  threshold offset + true inputs; value = top bit
 *   net[g + NET_INFO]     keyword hook (0, or kind << 28 | index) | the
 *                         value its outputs have seen << 31
 *   net[g + NET_OUTS]     its number of live outputs << 2 | it has one
 *                         input (outside a block) << 1 | in a cyclic block
 *   (in a block: net[g + 3] its block number + 1)
 *   then its outputs: target << 2 | negated << 1 | target in a block, the
 *   live ones first; a gate before goal_start that feeds goal-only gates
 *   (a feeder) has those outputs after its live ones, fed only when a goal
 *   is asked and its value differs from what they last saw (the goal-only
 *   gates of othello's piece count read every cell: fed at every change,
 *   they took most of a playout).
 * Records follow a topological order of the cyclic blocks and other gates
 * (a gate's inputs come before it, but in its own block): first the gates
 * that do not depend on a move, then from cone_start those that do, then
 * from goal_start those that only goals need (evaluated when a goal is
 * asked: their queued gates wait till then). */
enum { NET_COUNTER, NET_INFO, NET_OUTS };
enum { LZ_MEMO, LZ_N, LZ_NEED, LZ_IN };
enum { CHECK_FANOUT = 2 };  /* outputs of a gate that a legal move may read as a check instead */
enum { AL_MAX = 8 };         /* any-legal gates, at most */
enum { LZ_ANY_MAX = 8, LZ_ANY_MIN = 16 };  /* "any legal" gates: at most, and their fewest inputs */
#define LZ_ANY 0x80000000u
#define LZ_GUARDED 4u  /* on a lazy gate's input code: its guard follows */
enum { SK_GATE, SK_FLUENT, SK_GUARD, SK_WORDS };  /* a lazy next rule's words in sk_list */

static inline uint32_t cc_first_out(const uint32_t *net, uint32_t g) { return g + 3 + (net[g + NET_OUTS] & 1); }
static inline uint32_t cc_block_of(const uint32_t *net, uint32_t g)
{
  return (net[g + NET_OUTS] & 1) ? net[g + 3] : 0;
}

struct dl_circuit {
  const dl_ground *g;
  const dl_terms *terms;
  uint32_t n_gates, n_edges;
  /* While compiling (dense gate numbers, freed after): */
  uint32_t *counter;     /* threshold offset + true inputs */
  uint32_t *out_start;   /* n_gates + 1 */
  uint32_t *outs;        /* target << 1 | negated (then << 1 | target in a block) */
  uint32_t *hook;        /* HAS_OUTPUTS | keyword hook */
  uint32_t *block;       /* per gate: 0, or block number + 1 */
  uint8_t *kind;
  uint32_t *gate_atom;   /* the atom a gate stands for, 0 for a rule's AND */
  /* The circuit (gates are offsets in net from here on) */
  uint32_t *net, net_words, cone_start, goal_start;
  /* Feeders, in order: the gate, its outputs to goal-only gates (after its
   * live ones), the value those saw. */
  uint32_t n_feeders;
  uint32_t *feeder_gate, *feeder_outs;
  uint8_t *feeder_seen;
  /* Gates to look at: bit g of queue[g / 64] (a gate whose counter's value
   * flipped, a block one of whose inputs changed: its first member), bit w
   * of queue_sum[w / 64] when queue[w] is not 0.  Propagation takes them in
   * order, so each gate passes a change on at most once. */
  uint64_t *queue, *queue_sum;
  uint32_t queue_words, sum_words;
  /* cyclic blocks, in order: members block_members[block_start[b] ..
   * block_start[b + 1]), consecutive records */
  uint32_t n_blocks;
  uint32_t *block_start, *block_members;
  uint32_t *work;        /* worklist of a block's fixpoint */
  uint8_t *old;          /* a block's members' values before its fixpoint */
  /* roles, fluents, moves, goals */
  uint32_t n_roles;
  dl_tid *role_term;
  uint32_t n_fluents, words;
  dl_tid *fluent_term;
  uint32_t *fluent_gate;
  uint64_t *init, *cur, *next_bits, *scratch;
  uint32_t n_moves;
  uint32_t *move_role, *move_gate, *role_start;
  dl_tid *move_term;
  uint32_t *legal_list, *legal_n, *legal_pos;
  /* Gated moves: legal(r,m) whose every rule has role r's literal L hold
   * L & rest; the gate of m is rest's, and the moves count while L holds.
   * Per role: L's gate (NONE: none), negated or not, gated moves holding
   * (kept from the end of the role's part of legal_list). */
  uint32_t *role_gate, *legal_ng;
  uint8_t *role_gate_neg, *move_gated;
  uint32_t *legal_out;   /* legal moves when both kinds hold */
  /* Checked moves (eager circuits): legal(r,m) holds while m is listed and
   * its checks hold: check_lit[check_start[m] .. check_start[m + 1]), each
   * gate << 1 | negated, read when drawn or listed rather than wired into
   * m's gate.  Per role: whether it has checked moves. */
  uint32_t *check_start, *check_lit;
  uint8_t *role_checked;
  /* Any-legal gates (eager circuits): an OR of legal moves of one role
   * (checkers' has_legal_move) has no wires in; it is set like an input
   * from its role's listed moves whose checks hold, once a state has
   * propagated.  Per move, bit k of move_al when it is an input of gate
   * k. */
  uint32_t n_al, al_gate[AL_MAX], al_role[AL_MAX];
  uint8_t *move_al;
  /* Keyed moves (eager circuits): checked moves listed under a key, a gate
   * that many of them need (amazons' queen on a square: some 870 moves),
   * with no wires in.  The key's hook (HOOK_KEY) puts key k in its role's
   * list of keys that hold when it turns true and out when it turns false,
   * one hook for all its moves where each would take a feed, a pass and a
   * hook of its own; the draw reads their other inputs as checks.  Moves
   * of key k: key_moves[key_start[k] .. key_start[k + 1]).  A role's keys
   * that hold lie in its part of key_list (from role_key_start[r]): the
   * ungated ones (key_cnt[r]) from the front, the gated ones (key_cntg[r],
   * counted while the role's gate is open) from the end; key_pos is a
   * key's place there.  key_n[r] and key_ng[r] count their moves. */
  uint32_t n_keys;
  uint32_t *key_start, *key_moves, *key_role, *key_pos, *key_list, *role_key_start;
  uint32_t *key_n, *key_ng, *key_cnt, *key_cntg;
  uint8_t *key_gated;
  /* Selected ANDs (eager circuits): fluents of a one-hot group (at most
   * one of them holds in every reachable state, as a step counter's) and
   * ANDs of a member with one other gate x.  Such an AND has no wires in:
   * while its member is false it stays false, whatever x does, and x
   * passes its flips through a demux record to the ANDs of the members
   * that hold only.  A member turning true sets its ANDs from x's value,
   * turning false clears them.  Members of group k: grp_fluent[grp_start[k]
   * .. grp_start[k + 1]); per fluent its group (or NONE) and its slot
   * (grp_start[k] + its index); per slot its ANDs and their x (offset << 1
   * | negated) at sel_and/sel_x[sel_start[slot] .. sel_start[slot + 1]);
   * per group its true members and, when one holds, which (NONE: look).
   * A demux record d lies after net_words: net[d + 1] its group, net[d +
   * 3] DEMUX, net[d + 4 + k] the AND of member k << 1 | its wire from x
   * negated (or NONE); x lists it as an output into a block (d << 2 | 1). */
  /* Watched ANDs (eager circuits): an AND of a gate x in the move cone
   * and a positive wire from a gate s outside it has no wires in either.
   * s passes its flips to the AND's select record r (net[r + 1] the AND,
   * net[r + 2] x's offset << 1 | its wire negated, net[r + 3] SELECT,
   * net[r + 4] x's watch record, net[r + 5] the AND's place in it or
   * NONE), which lists the AND in x's watch record w while s holds (net[w
   * + 1] how many, net[w + 3] WATCH, net[w + 4 ..] their select records)
   * and sets it from x's value; x passes its flips to the ANDs listed. */
  uint32_t n_groups;
  uint64_t *grp_mask;  /* per state word: its fluents in a group */
  uint32_t *grp_start, *grp_fluent, *fluent_grp, *fluent_slot, *grp_true, *grp_one;
  uint32_t *sel_start, *sel_and, *sel_x;
  uint32_t *cur_move, *joint;
  uint32_t *goal_role;
  int32_t *goal_value;
  int32_t *goal_count, *goal_sum;
  int32_t terminal_count;
  /* The lazy gates (circuit_lazy.c evaluates them, the compiler's
   * compile_lazy.c makes them; none in DL_CIRCUIT_EAGER): records in
   * lz, no record in net, in topological order.  A gate is the offset r of
   * its record:
   *   lz[r + LZ_MEMO]  its value in the current state: stamp << 1 | value
   *   lz[r + LZ_N]     the words of its inputs
   *   lz[r + LZ_NEED]  the true inputs it needs
   *   then its inputs: a lazy gate's offset << 3 | 2, fluent f << 3 | 4,
   *   or an eager gate's offset in net << 3, each | 1 when negated; eager
   *   ones and fluents first, then lazy ones by the gates they read.  In
   *   an OR, a lazy input that needs an eager input or a fluent true is
   *   guarded (| LZ_GUARDED) and followed by that one's code: while it is
   *   false the input is false, and its record is not read (chess's "the
   *   king is on this square and not attacked there": 64 inputs, one guard
   *   true).
   * Records lie in the order a test reads them (record_order in
   * compile_lazy.c), those of the move cone last.
   * The stamp is epoch (the state's number) for the gates before
   * lz_cone0, mepoch (the number of the last cc_lazy_next) for those
   * from it on, which are in the move cone (they read a move).  While
   * compiling, lazy gates are dense numbers x with their inputs in
   * lz_in[lz_start[x] .. lz_start[x + 1]) (a lazy one x << 2 | 2, an
   * eager one offset << 2, | 1 when negated) and lz_need[x]. */
  int lazy;                         /* built with DL_CIRCUIT_LAZY */
  uint32_t n_lazy, epoch, lz_cone0, mepoch, lz_words;
  uint32_t *lz, *lz_stack;
  /* "Any of these legal moves" gates (an OR of lazy legal moves of one
   * role, as chess's has_legal_move): record offset and role; per move,
   * bit k of any_in when it is an input of gate k.  Their record's
   * LZ_NEED is LZ_ANY | k: they are evaluated through the role's filed
   * moves instead of input by input. */
  uint32_t n_any, any_gate[LZ_ANY_MAX], any_role[LZ_ANY_MAX];
  uint8_t *any_in;
  uint32_t *lz_start, *lz_in, *lz_need;
  /* Per role r, its lazy moves that are not gated (that count while its
   * gate is closed), in the order of their buckets, each with the fluent
   * it is filed under (n_fluents: none): pairs (move, fluent) at
   * ungated[2 * (ungated_start[r] .. ungated_start[r + 1])). */
  uint32_t *ungated_start, *ungated;
  uint32_t n_lazy_moves;
  uint32_t *move_lazy;              /* per move: its legal gate's lazy number, or NONE */
  uint32_t *lzm_start, *lzm_moves;  /* lazy moves per role r and fluent f (bucket r * (n_fluents + 1) + f;
                                     * f = n_fluents: needing none) */
  uint32_t *lz_cand;                /* room for a role's lazy moves (cc_lazy_random_move) */
  uint32_t *legal_epoch, *legal_count;  /* a role's legal moves in legal_out, made at that epoch */
  /* The fluents of the state that key something, listed at epoch
   * true_epoch: list k (k < n_roles) those under which role k has lazy
   * moves filed, list n_roles those with lazy next rules, at
   * true_list[k * (n_fluents + 1) ..], n_true[k] of them; true_key[f *
   * (n_roles + 1) + k] is 1 when fluent f belongs in list k. */
  uint32_t *true_list, *n_true, true_epoch;
  uint8_t *true_key;
  /* Lazy next rules (sinks): entries of SK_WORDS words (lazy gate, the
   * fluent it makes true, a guard: the code of an eager input or fluent it
   * needs, or NONE) filed by a key their truth needs: fluent f, n_fluents +
   * move m, or n_fluents + n_moves (none):
   * sk_list[SK_WORDS * (sk_start[k] .. sk_start[k + 1])).  A rule that
   * needs one of several moves has an entry under each; n_sinks counts
   * entries. */
  uint32_t n_sinks;
  uint32_t *sk_start, *sk_list;
  uint32_t n_lz_goal, n_lz_terminal;
  uint32_t *lz_goal;                /* pairs: lazy gate, goal index */
  uint32_t *lz_terminal;
  cc_wide *wide;          /* the bit-parallel program (circuit_wide.c runs it), or NULL */
  dl_circuit_stats stats;
};

/* Propagation (circuit.c), used by the compiler to settle the circuit. */
/* Queues gate g to be looked at (a block member: its block). */
void cc_queue(dl_circuit *c, uint32_t g);
/* Passes on the changes of the queued gates below limit, in order. */
void cc_propagate(dl_circuit *c, uint32_t limit);

/* A uniformly random legal move of role r in c's current state into *m
 * (as a playout draws it: no list copied); 0 when r has none. */
int cc_random_move(dl_circuit *c, uint32_t r, dl_rng *rng, uint32_t *m);

/* Frees c's bit-parallel program (circuit_wide.c). */
void cc_wide_free(dl_circuit *c);

/* Role r's listed moves, in the order cc_legal_at numbers them: the moves
 * of its ungated keys that hold (key_n[r]), its ungated listed ones
 * (legal_n[r], from the front of its part of legal_list), and when its gate
 * is open its gated listed ones (legal_ng[r], from the end) and the moves
 * of its gated keys that hold (key_ng[r]). */
static inline uint32_t cc_listed_count(const dl_circuit *c, uint32_t r, int open)
{
  return c->key_n[r] + c->legal_n[r] + (open ? c->legal_ng[r] + c->key_ng[r] : 0);
}

/* Role r's keyed move k among the moves of its ungated keys that hold
 * (gated 0) or its gated ones (1); k < key_n[r] (key_ng[r]). */
uint32_t cc_keyed_at(const dl_circuit *c, uint32_t r, uint32_t k, int gated);

/* Role r's listed move k (k < cc_listed_count). */
static inline uint32_t cc_legal_at(const dl_circuit *c, uint32_t r, uint32_t k)
{
  uint32_t kn = c->key_n[r], n0 = c->legal_n[r];
  if (k - kn < n0) return c->legal_list[c->role_start[r] + (k - kn)];
  if (k < kn) return cc_keyed_at(c, r, k, 0);
  k -= kn + n0;
  if (k < c->legal_ng[r]) return c->legal_list[c->role_start[r + 1] - 1 - k];
  return cc_keyed_at(c, r, k - c->legal_ng[r], 1);
}

/* Lazy gates (circuit_lazy.c). */
/* Forgets the lazy values: the state changed. */
void cc_lazy_new_state(dl_circuit *c);
/* Whether a lazy terminal gate holds. */
int cc_lazy_terminal(dl_circuit *c);
/* Adds role r's true lazy goal atoms to *count and their values to *sum. */
void cc_lazy_goals(dl_circuit *c, uint32_t r, int32_t *count, int32_t *sum);
/* Appends to out[n ..] role r's lazy moves that are legal (gated ones only
 * when open); returns the new length.  out has room after n for all of
 * the role's lazy moves (its candidates are listed there first). */
uint32_t cc_lazy_moves(dl_circuit *c, uint32_t r, int open, uint32_t *out, uint32_t n);
/* One of role r's legal moves into *m, drawn uniformly among the n_eager
 * legal eager moves (cc_legal_at(c, r, k) for k < n_eager) and its legal lazy moves
 * (gated ones only when open); 0 when it has none. */
int cc_lazy_random_move(dl_circuit *c, uint32_t r, int open, uint32_t n_eager, dl_rng *rng, uint32_t *m);
/* Adds to next the fluents that the lazy next rules make true for joint
 * move joint, the circuit's current one (set and propagated). */
void cc_lazy_next(dl_circuit *c, const uint32_t *joint, uint64_t *next);

#endif
