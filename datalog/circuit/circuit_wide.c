/* circuit_wide.c: random playouts 64 at a time on an eager circuit, one bit
 * per playout (a lane) in every gate's 64-bit word (see circuit.h,
 * dl_circuit_wide_playouts).  Every step evaluates every gate once for the
 * 64 states: the gates that do not read a move, then (the joint moves
 * chosen) those that do, and the goal-only gates when a lane reached a
 * terminal state.  Within each of these parts the gates go by level, and
 * within a level by shape (AND or OR, numbers of positive and of negated
 * inputs), so that a run of gates of one shape is one tight loop.  A cyclic
 * block is iterated from all false to its least fixpoint (its wires are
 * positive).  An OR of many moves' does inputs gets the lanes of the moves
 * set pushed into one pseudo input (push_moves). */
#include "datalog/circuit/circuit_wide_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------
 * Evaluation */

static inline uint64_t wire(const uint64_t *v, uint32_t x) { return v[x >> 1] ^ (0 - (uint64_t)(x & 1)); }

/* The lanes where at least need of the n inputs hold (counted bit-sliced:
 * count[j] holds where j of those seen so far hold). */
static uint64_t at_least(uint64_t *count, uint32_t need, const uint64_t *v, const uint32_t *in, uint32_t n)
{
  count[0] = ~(uint64_t)0;
  for (uint32_t j = 1; j <= need; j++) count[j] = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x = wire(v, in[i]);
    for (uint32_t j = need; j >= 1; j--) count[j] |= count[j - 1] & x;
  }
  return count[need];
}

/* Evaluates the gate record r (no block); returns its length. */
static inline uint32_t eval_record(cc_wide *w, const uint32_t *r)
{
  uint64_t *v = w->v, acc;
  uint32_t op = r[0] >> 28, g = r[0] & GATE_MASK, np = r[1], nn = r[2];
  const uint32_t *in = r + 3;
  if (op == OP_AND) {
    acc = ~(uint64_t)0;
    for (uint32_t i = 0; i < np; i++) acc &= v[in[i]];
    for (uint32_t i = np; i < np + nn; i++) acc &= ~v[in[i]];
  } else if (op == OP_OR) {
    acc = 0;
    for (uint32_t i = 0; i < np; i++) acc |= v[in[i]];
    for (uint32_t i = np; i < np + nn; i++) acc |= ~v[in[i]];
  } else {
    v[g] = at_least(w->count, nn, v, in, np);  /* np: inputs, nn: the true ones needed */
    return 3 + np;
  }
  v[g] = acc;
  return 3 + np + nn;
}

/* A block's least fixpoint: its members from all false, evaluated in turn
 * until none changes (monotone: the wires inside are positive). */
static void eval_block(cc_wide *w, const uint32_t *r)
{
  const uint32_t *m = r + 2, *end = m + r[1];
  for (const uint32_t *q = m; q < end; q += record_len(q)) w->v[q[0] & GATE_MASK] = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (const uint32_t *q = m; q < end;) {
      uint32_t g = q[0] & GATE_MASK;
      uint64_t before = w->v[g];
      q += eval_record(w, q);
      changed |= before != w->v[g];
    }
  }
}

/* A run of k ANDs of np positive and nn negated inputs at q; its length. */
static uint32_t and_run(uint64_t *v, const uint32_t *q, uint32_t k, uint32_t np, uint32_t nn)
{
  uint32_t len = k * (1 + np + nn);
  const uint32_t *end = q + len;
  if (np == 1 && nn == 1)
    for (; q < end; q += 3) v[q[0]] = v[q[1]] & ~v[q[2]];
  else if (np == 1 && nn == 2)
    for (; q < end; q += 4) v[q[0]] = v[q[1]] & ~(v[q[2]] | v[q[3]]);
  else if (np == 1 && nn == 3)
    for (; q < end; q += 5) v[q[0]] = v[q[1]] & ~(v[q[2]] | v[q[3]] | v[q[4]]);
  else if (np == 2 && nn == 0)
    for (; q < end; q += 3) v[q[0]] = v[q[1]] & v[q[2]];
  else
    for (; q < end; q += 1 + np + nn) {
      uint64_t all = ~(uint64_t)0, any = 0;
      for (uint32_t i = 1; i <= np; i++) all &= v[q[i]];
      for (uint32_t i = np + 1; i <= np + nn; i++) any |= v[q[i]];
      v[q[0]] = all & ~any;
    }
  return len;
}

/* A run of k ORs of np positive and nn negated inputs at q; its length. */
static uint32_t or_run(uint64_t *v, const uint32_t *q, uint32_t k, uint32_t np, uint32_t nn)
{
  uint32_t len = k * (1 + np + nn);
  const uint32_t *end = q + len;
  if (np == 2 && nn == 0)
    for (; q < end; q += 3) v[q[0]] = v[q[1]] | v[q[2]];
  else if (np == 3 && nn == 0)
    for (; q < end; q += 4) v[q[0]] = v[q[1]] | v[q[2]] | v[q[3]];
  else if (np == 4 && nn == 0)
    for (; q < end; q += 5) v[q[0]] = v[q[1]] | v[q[2]] | v[q[3]] | v[q[4]];
  else
    for (; q < end; q += 1 + np + nn) {
      uint64_t any = 0, all = ~(uint64_t)0;
      for (uint32_t i = 1; i <= np; i++) any |= v[q[i]];
      for (uint32_t i = np + 1; i <= np + nn; i++) all &= v[q[i]];
      v[q[0]] = any | ~all;
    }
  return len;
}

/* Evaluates the runs of code[from..to). */
static void sweep(cc_wide *w, uint32_t from, uint32_t to)
{
  const uint32_t *code = w->code;
  for (uint32_t p = from; p < to;) {
    const uint32_t *r = code + p;
    uint32_t k = r[0] & GATE_MASK;
    switch (r[0] >> 28) {
    case OP_AND: p += 3 + and_run(w->v, r + 3, k, r[1], r[2]); break;
    case OP_OR: p += 3 + or_run(w->v, r + 3, k, r[1], r[2]); break;
    case OP_THR:
      for (p++; k--;) p += eval_record(w, code + p);
      break;
    default:
      eval_block(w, r);
      p += 2 + r[1];
      break;
    }
  }
}

/* ---------------------------------------------------------------------
 * Playouts */

/* One call's lanes: which run, which start next, their history. */
typedef struct lanes {
  cc_wide *w;
  const uint64_t *start;
  dl_rng *rng;
  uint64_t left;            /* playouts not started yet */
  uint64_t active;          /* lanes in a playout */
  uint32_t max_depth, history;
  uint32_t *moves, *legal;  /* with a history: per lane, history steps of n_roles each */
  dl_wide_fn done;
  void *ctx;
  int stop;
} lanes;

static void report(lanes *L, uint32_t lane, dl_playout p, const int32_t *goals, const int32_t *goal_n)
{
  cc_wide *w = L->w;
  size_t at = (size_t)lane * L->history * w->n_roles;
  dl_wide_result r = { p, goals, goal_n, L->moves ? L->moves + at : NULL, L->legal ? L->legal + at : NULL, lane };
  L->active &= ~((uint64_t)1 << lane);
  if (!L->stop && !L->done(L->ctx, &r)) L->stop = 1;
}

/* Starts playouts from start on the lanes of free (as many as are left). */
static void start_lanes(lanes *L, uint64_t free)
{
  cc_wide *w = L->w;
  uint64_t fresh = 0;
  for (; free && L->left; free &= free - 1, L->left--) {
    uint32_t lane = (uint32_t)__builtin_ctzll(free);
    fresh |= (uint64_t)1 << lane;
    w->depth[lane] = 0;
  }
  if (!fresh) return;
  for (uint32_t f = 0; f < w->n_fluents; f++)
    w->state[f] = (w->state[f] & ~fresh) | ((0 - ((L->start[f >> 6] >> (f & 63)) & 1)) & fresh);
  L->active |= fresh;
}

static uint64_t word_of(const cc_wide *w, const uint32_t *gates, uint32_t n)
{
  uint64_t x = 0;
  for (uint32_t i = 0; i < n; i++) x |= w->v[gates[i]];
  return x;
}

/* Reports the terminal lanes of term with their goals. */
static void end_terminal(lanes *L, uint64_t term)
{
  cc_wide *w = L->w;
  uint32_t nr = w->n_roles;
  sweep(w, w->seg[1], w->seg[2]);
  for (uint64_t t = term; t; t &= t - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(t);
    memset(w->goal_n + (size_t)lane * nr, 0, nr * sizeof *w->goal_n);
  }
  for (uint32_t k = 0; k < w->n_goals; k++)
    for (uint64_t x = w->v[w->goal_gate[k]] & term; x; x &= x - 1) {
      size_t at = (size_t)__builtin_ctzll(x) * nr + w->goal_role[k];
      w->goal_n[at]++;
      w->goals[at] = w->goal_value[k];
    }
  for (uint64_t t = term; t; t &= t - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(t);
    int32_t *goals = w->goals + (size_t)lane * nr, *n = w->goal_n + (size_t)lane * nr;
    dl_playout p = { DL_PLAYOUT_OK, 0, w->depth[lane] };
    for (uint32_t r = nr; r-- > 0;)
      if (n[r] != 1) {
        goals[r] = n[r] ? -n[r] : 0;
        p.status = DL_PLAYOUT_BAD_GOAL;
        p.role = r;
      }
    report(L, lane, p, goals, n);
  }
}

enum {
  DRAW_MAX = 64,         /* draws of a lane's move at most before its legal moves are listed */
  DRAW_TRIAL = 1 << 10,  /* draws of a role before judging them (draws_pay) */
  DRAW_KEEP = 1 << 20    /* draws counted at most: then the counts are halved */
};

/* The lanes of `moving` where move m of role r is legal (open: the
 * lanes where r's gated moves count). */
static inline uint64_t legal_lanes(const cc_wide *w, uint32_t m, uint64_t open, uint64_t moving)
{
  uint64_t x = w->v[w->legal_gate[m]] & moving;
  return w->move_gated[m] ? x & open : x;
}

/* Adds to the list of each lane of `which` the moves legal there among
 * moves[0..n) (first .. first + n when moves is NULL). */
static void list_legal(cc_wide *w, const uint32_t *moves, uint32_t first, uint32_t n, uint64_t open, uint64_t which)
{
  uint32_t stride = w->max_role_moves, *list = w->lane_moves;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t m = moves ? moves[k] : first + k;
    for (uint64_t x = legal_lanes(w, m, open, which); x; x &= x - 1) {
      uint32_t lane = (uint32_t)__builtin_ctzll(x);
      list[(size_t)lane * stride + w->n_legal[lane]++] = m;
    }
  }
}

/* Draws for each lane of `which` (where role r's turn literal is true) a
 * move among all the role's moves until one is legal there: a uniform
 * choice among the legal ones.  A lane draws up to eight times as often
 * as a hit has taken so far (one lane in about e^8 misses, so that the
 * pass over the moves for the lanes that missed is rare), at most DRAW_MAX
 * times.  Returns the lanes where every draw missed. */
static uint64_t draw_moves(lanes *L, uint32_t r, uint64_t open, uint64_t which)
{
  cc_wide *w = L->w;
  uint32_t first = w->role_start[r], n = w->role_start[r + 1] - first, nr = w->n_roles;
  uint64_t missed = 0, tries = 0, d = w->draws[r], h = w->hits[r];
  uint32_t cap = h == 0 || d >= (uint64_t)DRAW_MAX * h ? DRAW_MAX : (uint32_t)(8 * d / h + 1);
  dl_rng rng = *L->rng;  /* in a register: the loop's stores could alias it */
  for (uint64_t x = which; x; x &= x - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(x), t = 0, m = first;
    uint64_t bit = (uint64_t)1 << lane;
    while (t < cap && !legal_lanes(w, m = first + dl_rng_below(&rng, n), open, bit)) t++;
    if (t < cap) w->joint[(size_t)lane * nr + r] = m, tries += t + 1, h++;
    else missed |= bit, tries += t;
  }
  *L->rng = rng;
  w->draws[r] = d + tries;
  w->hits[r] = h;
  if (w->draws[r] >= DRAW_KEEP) w->draws[r] /= 2, w->hits[r] /= 2;  /* the rate of late steps counts most */
  return missed;
}

/* Do draws pay for role r, from the hit rate h of its draws so far?  A
 * lane's draws cost 1/h a hit; a hit spares the lane's list, h * n entries
 * of the role's n moves, an entry costing about half a draw.  So draws pay while h * h * n >= 2 (speedChess: 3,833 moves
 * a role, about 30 legal, does not).  Judged after DRAW_TRIAL draws. */
static int draws_pay(const cc_wide *w, uint32_t r)
{
  uint64_t d = w->draws[r], h = w->hits[r], n = w->role_start[r + 1] - w->role_start[r];
  return d < DRAW_TRIAL || h * h * n >= 2 * d * d;
}

/* Records in the history how many moves role r has in each lane of
 * `which` whose move was drawn (the listed ones know it). */
static void count_drawn(lanes *L, uint32_t r, uint64_t open, uint64_t which)
{
  cc_wide *w = L->w;
  uint32_t n[LANES] = { 0 };
  for (uint32_t m = w->role_start[r]; m < w->role_start[r + 1]; m++)
    for (uint64_t x = legal_lanes(w, m, open, which); x; x &= x - 1) n[__builtin_ctzll(x)]++;
  for (uint64_t x = which; x; x &= x - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(x);
    if (w->depth[lane] < L->history) L->legal[((size_t)lane * L->history + w->depth[lane]) * w->n_roles + r] = n[lane];
  }
}

/* Chooses role r's move uniformly in each lane of *moving; a lane where r
 * has none is reported and leaves *moving.  Where r's turn literal is true
 * (its gated moves count), the move is drawn among all of r's moves until
 * one is legal, which costs a few draws where many are (breakthrough: a
 * role's 155 moves, about 25 legal); else, and where the draws missed, one
 * pass over the moves lists each lane's legal ones and a lane takes one of
 * its list at random.  A lane whose role waits has only ungated moves (one
 * noop among a hundred moves, often): its list is made from those. */
static void choose_moves(lanes *L, uint32_t r, uint64_t *moving)
{
  cc_wide *w = L->w;
  uint32_t first = w->role_start[r], g = w->role_gate[r], stride = w->max_role_moves;
  uint64_t open = g == NONE ? 0 : w->v[g] ^ (0 - (uint64_t)w->role_gate_neg[r]), none = 0;
  uint64_t turn = *moving & open, waiting = *moving & ~open;
  uint64_t drawn = w->role_start[r + 1] > first && draws_pay(w, r) ? turn : 0;
  uint64_t listed = (turn & ~drawn) | draw_moves(L, r, open, drawn);  /* turn lanes without a draw that hit */
  drawn &= ~listed;
  memset(w->n_legal, 0, sizeof w->n_legal);
  const uint32_t *ungated = w->ungated + w->ungated_start[r];
  list_legal(w, ungated, 0, w->ungated_start[r + 1] - w->ungated_start[r], open, waiting);
  list_legal(w, NULL, first, w->role_start[r + 1] - first, open, listed);
  for (uint64_t x = waiting | listed; x; x &= x - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(x), n = w->n_legal[lane];
    const uint32_t *list = w->lane_moves + (size_t)lane * stride;
    if (!n) none |= (uint64_t)1 << lane;
    else w->joint[(size_t)lane * w->n_roles + r] = list[n == 1 ? 0 : dl_rng_below(L->rng, n)];
    if (L->legal && w->depth[lane] < L->history)
      L->legal[((size_t)lane * L->history + w->depth[lane]) * w->n_roles + r] = n;
  }
  if (L->legal) count_drawn(L, r, open, drawn);
  *moving &= ~none;
  for (; none; none &= none - 1) {
    dl_playout p = { DL_PLAYOUT_NO_LEGAL, r, w->depth[(uint32_t)__builtin_ctzll(none)] };
    report(L, (uint32_t)__builtin_ctzll(none), p, NULL, NULL);
  }
}

/* Sets the does inputs of the moving lanes' joint moves (clearing the
 * last step's) and records them in the history. */
static void set_moves(lanes *L, uint64_t moving)
{
  cc_wide *w = L->w;
  uint32_t nr = w->n_roles;
  for (uint32_t k = 0; k < w->n_set; k++) w->v[w->set_inputs[k]] = 0;
  w->n_set = 0;
  for (uint64_t x = moving; x; x &= x - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(x);
    const uint32_t *joint = w->joint + (size_t)lane * nr;
    for (uint32_t r = 0; r < nr; r++) {
      uint32_t g = w->move_input[joint[r]];
      if (g == w->n_gates) continue;
      if (!w->v[g]) w->set_move[w->n_set] = joint[r], w->set_inputs[w->n_set++] = g;
      w->v[g] |= (uint64_t)1 << lane;
    }
    if (L->moves && w->depth[lane] < L->history)
      memcpy(L->moves + ((size_t)lane * L->history + w->depth[lane]) * nr, joint, nr * sizeof *joint);
  }
}

/* The pseudo inputs of the moves set now (see plan_pushes). */
static void push_moves(cc_wide *w)
{
  uint64_t *v = w->v;
  for (uint32_t k = 0; k < w->n_pushed; k++) v[w->pushed[k]] = 0;
  w->n_pushed = 0;
  for (uint32_t k = 0; k < w->n_set; k++) {
    uint32_t m = w->set_move[k];
    uint64_t x = v[w->set_inputs[k]];
    for (uint32_t i = w->push_start[m]; i < w->push_start[m + 1]; i++) {
      uint32_t q = w->push_to[i];
      if (!v[q]) w->pushed[w->n_pushed++] = q;
      v[q] |= x;
    }
  }
}

/* One step of every active lane: its state evaluated; a terminal one or
 * one too deep reported; the others' joint moves chosen and made. */
static void step(lanes *L)
{
  cc_wide *w = L->w;
  for (uint32_t f = 0; f < w->n_fluents; f++) w->v[w->fluent_gate[f]] = w->state[f];
  w->v[w->n_gates] = 0;
  sweep(w, 0, w->seg[0]);
  uint64_t term = word_of(w, w->terminal_gate, w->n_terminal) & L->active, moving = L->active & ~term;
  if (term) end_terminal(L, term);
  for (uint64_t x = moving; x; x &= x - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(x);
    if (w->depth[lane] < L->max_depth) continue;
    moving &= ~((uint64_t)1 << lane);
    report(L, lane, (dl_playout){ DL_PLAYOUT_TOO_DEEP, 0, w->depth[lane] }, NULL, NULL);
  }
  for (uint32_t r = 0; r < w->n_roles && moving; r++) choose_moves(L, r, &moving);
  set_moves(L, moving);
  push_moves(w);
  sweep(w, w->seg[0], w->seg[1]);
  for (uint32_t f = 0; f < w->n_fluents; f++) w->state[f] = w->v[w->next_gate[f]] & moving;
  for (uint64_t x = moving; x; x &= x - 1) w->depth[__builtin_ctzll(x)]++;
  start_lanes(L, ~L->active);
}

static void free_wide(cc_wide *w)
{
  if (!w) return;
  void *p[] = { w->v, w->code, w->count, w->fluent_gate, w->next_gate, w->legal_gate, w->move_input,
                w->terminal_gate, w->goal_gate, w->goal_role, w->goal_value, w->state, w->joint, w->goals,
                w->goal_n, w->set_inputs, w->set_move, w->role_gate, w->lane_moves, w->ungated, w->ungated_start,
                w->draws, w->hits,
                w->push_start, w->push_to, w->pushed };
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
  free(w);
}

void cc_wide_free(dl_circuit *c)
{
  free_wide(c->wide);
  c->wide = NULL;
}

int dl_circuit_has_wide(const dl_circuit *c) { return c->wide != NULL; }

int dl_circuit_wide_playouts(dl_circuit *c, const uint64_t *start, dl_rng *rng, uint64_t n, uint32_t max_depth,
                             uint32_t history, const dl_stop *stop, dl_wide_fn done, void *ctx)
{
  assert(c && c->wide && start && rng && done);
  cc_wide *w = c->wide;
  lanes L = { w, start, rng, n, 0, max_depth, history, NULL, NULL, done, ctx, 0 };
  if (history) {
    size_t cells = (size_t)LANES * history * (w->n_roles ? w->n_roles : 1);
    L.moves = malloc(cells * sizeof *L.moves);
    L.legal = malloc(cells * sizeof *L.legal);
    if (!L.moves || !L.legal) {
      free(L.moves), free(L.legal);
      return 0;
    }
  }
  memset(w->state, 0, (size_t)w->n_fluents * sizeof *w->state);
  memset(w->draws, 0, (size_t)w->n_roles * sizeof *w->draws);  /* each call judges its draws afresh */
  memset(w->hits, 0, (size_t)w->n_roles * sizeof *w->hits);
  start_lanes(&L, ~(uint64_t)0);
  for (uint32_t steps = 1; L.active && !L.stop; steps++) {
    step(&L);
    if (steps % DL_PLAYOUT_POLL == 0 && dl_stop_requested(stop)) L.stop = 1;
  }
  free(L.moves), free(L.legal);
  return 1;
}
