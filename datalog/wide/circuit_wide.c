/* circuit_wide.c: random playouts DL_WIDE_LANES at a time on an eager
 * circuit, one bit per playout (a lane) in every gate's word (see
 * circuit.h, dl_circuit_wide_playouts).  Every step evaluates every gate
 * once for all the lanes' states: the gates that do not read a move, then
 * (the joint moves chosen) those that do, and the goal-only gates when a
 * lane reached a terminal state (wide_sweep_body.h).  The moves are chosen
 * bank by bank, 64 lanes at a time, so that a lane set is one 64-bit word
 * there.  An OR of many moves' does inputs gets the lanes of the moves set
 * pushed into one pseudo input (push_moves). */
#include "datalog/wide/circuit_wide_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------
 * Playouts */

/* One call's lanes: which run, which start next, their history. */
typedef struct lanes {
  cc_wide *w;
  const uint64_t *start;
  dl_rng *rng;
  uint64_t left;                /* playouts not started yet */
  uint64_t active[BANKS];       /* lanes in a playout */
  uint32_t max_depth, history;
  uint32_t *moves, *legal;      /* with a history: per lane, history steps of n_roles each */
  dl_wide_fn done;
  void *ctx;
  int stop;
} lanes;

/* Whether any lane of the BANKS banks x holds. */
static inline int any_lane(const uint64_t *x)
{
  uint64_t any = 0;
  for (uint32_t b = 0; b < BANKS; b++) any |= x[b];
  return any != 0;
}

/* The lane of bit `bit` of bank b. */
static inline uint32_t lane_of(uint32_t b, uint64_t bits) { return b * BANK_LANES + (uint32_t)__builtin_ctzll(bits); }

static void report(lanes *L, uint32_t lane, dl_playout p, const int32_t *goals, const int32_t *goal_n)
{
  cc_wide *w = L->w;
  size_t at = (size_t)lane * L->history * w->n_roles;
  dl_wide_result r = { p, goals, goal_n, L->moves ? L->moves + at : NULL, L->legal ? L->legal + at : NULL, lane };
  L->active[lane / BANK_LANES] &= ~((uint64_t)1 << lane % BANK_LANES);
  if (!L->stop && !L->done(L->ctx, &r)) L->stop = 1;
}

/* Starts playouts from start on the lanes that are not active (as many as
 * are left). */
static void start_lanes(lanes *L)
{
  cc_wide *w = L->w;
  uint64_t fresh[BANKS] = { 0 };
  for (uint32_t b = 0; b < BANKS; b++)
    for (uint64_t free = ~L->active[b]; free && L->left; free &= free - 1, L->left--) {
      fresh[b] |= free & (0 - free);
      w->depth[lane_of(b, free)] = 0;
    }
  if (!any_lane(fresh)) return;
  for (uint32_t f = 0; f < w->n_fluents; f++) {
    uint64_t on = 0 - ((L->start[f >> 6] >> (f & 63)) & 1);
    for (uint32_t b = 0; b < BANKS; b++) w->state[f].bank[b] = (w->state[f].bank[b] & ~fresh[b]) | (on & fresh[b]);
  }
  for (uint32_t b = 0; b < BANKS; b++) L->active[b] |= fresh[b];
}

/* The lanes of bank b where one of the n gates holds. */
static uint64_t any_of(const cc_wide *w, const uint32_t *gates, uint32_t n, uint32_t b)
{
  uint64_t x = 0;
  for (uint32_t i = 0; i < n; i++) x |= w->v[gates[i]].bank[b];
  return x;
}

/* Reports the terminal lanes of bank b, term, with their goals (the
 * goal-only gates are evaluated). */
static void end_terminal(lanes *L, uint32_t b, uint64_t term)
{
  cc_wide *w = L->w;
  uint32_t nr = w->n_roles;
  for (uint64_t t = term; t; t &= t - 1) memset(w->goal_n + (size_t)lane_of(b, t) * nr, 0, nr * sizeof *w->goal_n);
  for (uint32_t k = 0; k < w->n_goals; k++)
    for (uint64_t x = w->v[w->goal_gate[k]].bank[b] & term; x; x &= x - 1) {
      size_t at = (size_t)lane_of(b, x) * nr + w->goal_role[k];
      w->goal_n[at]++;
      w->goals[at] = w->goal_value[k];
    }
  for (uint64_t t = term; t; t &= t - 1) {
    uint32_t lane = lane_of(b, t);
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

/* Where a role's moves are chosen: bank b, and in it the lanes where the
 * role's gated moves count (open: its turn literal holds). */
typedef struct bank_view {
  uint32_t b;
  uint64_t open;
} bank_view;

/* The lanes of `moving` in the bank where move m, whose legal atom's word
 * is x, is legal. */
static inline uint64_t legal_in(const cc_wide *w, bank_view k, const lane_word *x, uint32_t m, uint64_t moving)
{
  uint64_t y = x->bank[k.b] & moving;
  return w->move_gated[m] ? y & k.open : y;
}

static inline uint64_t legal_lanes(const cc_wide *w, bank_view k, uint32_t m, uint64_t moving)
{
  return legal_in(w, k, &w->v[w->legal_gate[m]], m, moving);
}

/* Adds move m to the list of each lane of x. */
static inline void list_move(cc_wide *w, uint32_t m, uint64_t x)
{
  for (uint32_t stride = w->max_role_moves; x; x &= x - 1) {
    uint32_t bit = (uint32_t)__builtin_ctzll(x);
    w->lane_moves[(size_t)bit * stride + w->n_legal[bit]++] = m;
  }
}

/* Adds to the list of each lane of `which` the moves legal there among
 * moves[0..n). */
static void list_legal(cc_wide *w, bank_view k, const uint32_t *moves, uint32_t n, uint64_t which)
{
  for (uint32_t i = 0; i < n; i++) list_move(w, moves[i], legal_lanes(w, k, moves[i], which));
}

/* Adds to the list of each lane of `which` the moves of role r legal
 * there.  The role's legal words are first copied into w->legal in move
 * order, once a step, so that the pass reads them in sequence: on
 * speedChess the gates' words (900 KB) do not fit the second-level cache,
 * and looking them up where they lie stalled the pass.  (Copying every
 * move's word at every step, whether its role lists or not, took most of
 * amazons' time.) */
static void list_role(cc_wide *w, bank_view k, uint32_t r, uint64_t which)
{
  uint32_t first = w->role_start[r], end = w->role_start[r + 1];
  if (w->copied[r] != w->steps) {
    for (uint32_t m = first; m < end; m++) w->legal[m] = w->v[w->legal_gate[m]];
    w->copied[r] = w->steps;
  }
  for (uint32_t m = first; m < end; m++) list_move(w, m, legal_in(w, k, &w->legal[m], m, which));
}

/* Lists for each lane of `which` the files of role r whose fluent holds
 * there (lane_files), and counts their moves, the lane's candidates
 * (n_cands): every move that can be legal there is one. */
static void find_candidates(cc_wide *w, uint32_t b, uint32_t r, uint64_t which)
{
  /* in locals: the stores into lane_files could alias w's fields */
  uint32_t *restrict files = w->lane_files, *restrict n_files = w->n_files, *restrict n_cands = w->n_cands;
  const uint32_t *fluent = w->file_fluent, *first = w->file_first;
  size_t stride = LANE_FILE_WORDS(w->max_files);
  for (uint64_t x = which; x; x &= x - 1) n_files[__builtin_ctzll(x)] = n_cands[__builtin_ctzll(x)] = 0;
  for (uint32_t j = w->file_start[r], end = w->file_start[r + 1]; j < end; j++) {
    uint32_t f = fluent[j], at = first[j], size = first[j + 1] - at;
    for (uint64_t x = f == NONE ? which : which & w->state[f].bank[b]; x; x &= x - 1) {
      uint32_t bit = (uint32_t)__builtin_ctzll(x), *e = files + bit * stride + 2 * n_files[bit]++;
      e[0] = at, e[1] = n_cands[bit];
      n_cands[bit] += size;
    }
  }
  for (uint64_t x = which; x; x &= x - 1) {
    uint32_t bit = (uint32_t)__builtin_ctzll(x);
    files[bit * stride + 2 * n_files[bit] + 1] = UINT32_MAX;
  }
}

/* Candidate t (below n_cands) of the lane of bit `bit`: a scan of the
 * lane's counts alone, then one load. */
static uint32_t candidate(const cc_wide *w, uint32_t bit, uint32_t t)
{
  const uint32_t *e = w->lane_files + (size_t)bit * LANE_FILE_WORDS(w->max_files);
  while (e[3] <= t) e += 2;
  return w->file_move[e[0] + t - e[1]];
}

/* Draws for each lane of `which` (where role r's turn literal is true) a
 * move among its candidates (find_candidates; all of the role's moves
 * where they are not filed) until one is legal there: a uniform choice
 * among the legal ones, as every legal move is a candidate once
 * (speedChess: the moves of the pieces on their squares, about 160 of
 * 3,833).  A lane draws up to eight times as often as a hit has taken so
 * far (one lane in about e^8 misses, so that the pass over the moves for
 * the lanes that missed is rare), at most DRAW_MAX times.  Returns the
 * lanes where every draw missed. */
static uint64_t draw_moves(lanes *L, bank_view k, uint32_t r, uint64_t which)
{
  cc_wide *w = L->w;
  uint64_t missed = 0, tries = 0, d = w->draws[r], h = w->hits[r];
  uint32_t cap = h == 0 || d >= (uint64_t)DRAW_MAX * h ? DRAW_MAX : (uint32_t)(8 * d / h + 1);
  dl_rng rng = *L->rng;  /* in a register: the loop's stores could alias it */
  uint32_t first = w->role_start[r], filed = w->role_filed[r];
  if (filed) find_candidates(w, k.b, r, which);
  for (uint64_t x = which; x; x &= x - 1) {
    uint32_t lane = lane_of(k.b, x), t = 0, m = 0, bit_no = (uint32_t)__builtin_ctzll(x);
    uint32_t n = filed ? w->n_cands[bit_no] : w->role_start[r + 1] - first;
    uint64_t bit = x & (0 - x);
    if (!n) {  /* no move can be legal there: the list says so */
      missed |= bit;
      continue;
    }
    while (t < cap) {
      uint32_t i = dl_rng_below(&rng, n);
      if (legal_lanes(w, k, m = filed ? candidate(w, bit_no, i) : first + i, bit)) break;
      t++;
    }
    if (t < cap) w->joint[(size_t)lane * w->n_roles + r] = m, tries += t + 1, h++;
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
 * of the role's n moves, an entry costing about half a draw.  So draws pay
 * while h * h * n >= 2 (checkers: 640 moves a role, about 5 legal, does
 * not).  Judged after DRAW_TRIAL draws. */
static int draws_pay(const cc_wide *w, uint32_t r)
{
  uint64_t d = w->draws[r], h = w->hits[r], n = w->role_start[r + 1] - w->role_start[r];
  return d < DRAW_TRIAL || h * h * n >= 2 * d * d;
}

/* Records in the history that role r has n legal moves in lane `lane`
 * at its depth. */
static void record_legal(lanes *L, uint32_t lane, uint32_t r, uint32_t n)
{
  if (L->legal && L->w->depth[lane] < L->history)
    L->legal[((size_t)lane * L->history + L->w->depth[lane]) * L->w->n_roles + r] = n;
}

/* Records in the history how many moves role r has in each lane of
 * `which` whose move was drawn (the listed ones know it). */
static void count_drawn(lanes *L, bank_view k, uint32_t r, uint64_t which)
{
  cc_wide *w = L->w;
  uint32_t n[BANK_LANES] = { 0 };
  for (uint32_t m = w->role_start[r]; m < w->role_start[r + 1]; m++)
    for (uint64_t x = legal_lanes(w, k, m, which); x; x &= x - 1) n[__builtin_ctzll(x)]++;
  for (uint64_t x = which; x; x &= x - 1) record_legal(L, lane_of(k.b, x), r, n[__builtin_ctzll(x)]);
}

/* Chooses role r's move uniformly in each lane of *moving, in bank b; a
 * lane where r has none is reported and leaves *moving.  Where r's turn
 * literal is true (its gated moves count), the move is drawn among r's
 * moves (or its candidates, draw_moves) until one is legal, which costs a
 * few draws where many are (breakthrough: a role's 155 moves, about 25
 * legal) and while draws_pay says so; else, and where the
 * draws missed, one pass over the moves lists each lane's legal ones and a
 * lane takes one of its list at random.  A lane whose role waits has only
 * ungated moves (one noop among a hundred moves, often): its list is made
 * from those. */
static void choose_moves(lanes *L, uint32_t b, uint32_t r, uint64_t *moving)
{
  cc_wide *w = L->w;
  uint32_t first = w->role_start[r], g = w->role_gate[r], stride = w->max_role_moves;
  bank_view k = { b, g == NONE ? 0 : w->v[g].bank[b] ^ (0 - (uint64_t)w->role_gate_neg[r]) };
  uint64_t turn = *moving & k.open, waiting = *moving & ~k.open, none = 0;
  uint64_t drawn = w->role_start[r + 1] > first && draws_pay(w, r) ? turn : 0;
  uint64_t listed = (turn & ~drawn) | draw_moves(L, k, r, drawn);  /* turn lanes without a draw that hit */
  drawn &= ~listed;
  memset(w->n_legal, 0, sizeof w->n_legal);
  const uint32_t *ungated = w->ungated + w->ungated_start[r];
  list_legal(w, k, ungated, w->ungated_start[r + 1] - w->ungated_start[r], waiting);
  if (listed) list_role(w, k, r, listed);
  for (uint64_t x = waiting | listed; x; x &= x - 1) {
    uint32_t bit = (uint32_t)__builtin_ctzll(x), lane = lane_of(b, x), n = w->n_legal[bit];
    const uint32_t *list = w->lane_moves + (size_t)bit * stride;
    if (!n) none |= (uint64_t)1 << bit;
    else w->joint[(size_t)lane * w->n_roles + r] = list[n == 1 ? 0 : dl_rng_below(L->rng, n)];
    record_legal(L, lane, r, n);
  }
  if (L->legal) count_drawn(L, k, r, drawn);
  *moving &= ~none;
  for (; none; none &= none - 1) {
    uint32_t lane = lane_of(b, none);
    report(L, lane, (dl_playout){ DL_PLAYOUT_NO_LEGAL, r, w->depth[lane] }, NULL, NULL);
  }
}

/* Sets the does inputs of the moving lanes' joint moves (clearing the
 * last step's) and records them in the history. */
static void set_moves(lanes *L, const uint64_t *moving)
{
  cc_wide *w = L->w;
  uint32_t nr = w->n_roles;
  for (uint32_t k = 0; k < w->n_set; k++) memset(&w->v[w->set_inputs[k]], 0, sizeof(lane_word));
  w->n_set = 0;
  for (uint32_t b = 0; b < BANKS; b++)
    for (uint64_t x = moving[b]; x; x &= x - 1) {
      uint32_t lane = lane_of(b, x);
      const uint32_t *joint = w->joint + (size_t)lane * nr;
      for (uint32_t r = 0; r < nr; r++) {
        uint32_t g = w->move_input[joint[r]];
        if (g == w->n_gates) continue;
        if (!any_lane(w->v[g].bank)) w->set_move[w->n_set] = joint[r], w->set_inputs[w->n_set++] = g;
        w->v[g].bank[b] |= x & (0 - x);
      }
      if (L->moves && w->depth[lane] < L->history)
        memcpy(L->moves + ((size_t)lane * L->history + w->depth[lane]) * nr, joint, nr * sizeof *joint);
    }
}

/* The pseudo inputs of the moves set now (see plan_pushes). */
static void push_moves(cc_wide *w)
{
  lane_word *v = w->v;
  for (uint32_t k = 0; k < w->n_pushed; k++) memset(&v[w->pushed[k]], 0, sizeof *v);
  w->n_pushed = 0;
  for (uint32_t k = 0; k < w->n_set; k++) {
    uint32_t m = w->set_move[k];
    const lane_word *x = &v[w->set_inputs[k]];
    for (uint32_t i = w->push_start[m]; i < w->push_start[m + 1]; i++) {
      uint32_t q = w->push_to[i];
      if (!any_lane(v[q].bank)) w->pushed[w->n_pushed++] = q;
      for (uint32_t b = 0; b < BANKS; b++) v[q].bank[b] |= x->bank[b];
    }
  }
}

/* Reports the lanes among *moving of bank b that are too deep, and takes
 * them out. */
static void end_too_deep(lanes *L, uint32_t b, uint64_t *moving)
{
  for (uint64_t x = *moving; x; x &= x - 1) {
    uint32_t lane = lane_of(b, x);
    if (L->w->depth[lane] < L->max_depth) continue;
    *moving &= ~(x & (0 - x));
    report(L, lane, (dl_playout){ DL_PLAYOUT_TOO_DEEP, 0, L->w->depth[lane] }, NULL, NULL);
  }
}

/* One step of every active lane: its state evaluated; a terminal one or
 * one too deep reported; the others' joint moves chosen and made. */
static void step(lanes *L)
{
  cc_wide *w = L->w;
  uint64_t term[BANKS], moving[BANKS];
  for (uint32_t f = 0; f < w->n_fluents; f++) w->v[w->fluent_gate[f]] = w->state[f];
  memset(&w->v[w->n_gates], 0, sizeof *w->v);
  w->sweep(w->code, 0, w->seg[0], w->v, w->count);
  w->steps++;
  for (uint32_t b = 0; b < BANKS; b++) {
    term[b] = any_of(w, w->terminal_gate, w->n_terminal, b) & L->active[b];
    moving[b] = L->active[b] & ~term[b];
  }
  if (any_lane(term)) w->sweep(w->code, w->seg[1], w->seg[2], w->v, w->count);
  for (uint32_t b = 0; b < BANKS; b++) {
    if (term[b]) end_terminal(L, b, term[b]);
    end_too_deep(L, b, &moving[b]);
    for (uint32_t r = 0; r < w->n_roles && moving[b]; r++) choose_moves(L, b, r, &moving[b]);
  }
  set_moves(L, moving);
  push_moves(w);
  w->sweep(w->code, w->seg[0], w->seg[1], w->v, w->count);
  for (uint32_t f = 0; f < w->n_fluents; f++)
    for (uint32_t b = 0; b < BANKS; b++) w->state[f].bank[b] = w->v[w->next_gate[f]].bank[b] & moving[b];
  for (uint32_t b = 0; b < BANKS; b++)
    for (uint64_t x = moving[b]; x; x &= x - 1) w->depth[lane_of(b, x)]++;
  start_lanes(L);
}

static void free_wide(cc_wide *w)
{
  if (!w) return;
  void *p[] = { w->v, w->code, w->count, w->fluent_gate, w->next_gate, w->legal_gate, w->legal, w->copied,
                w->move_input, w->terminal_gate, w->goal_gate, w->goal_role, w->goal_value, w->state, w->joint,
                w->goals, w->goal_n, w->set_inputs, w->set_move, w->role_gate, w->lane_moves, w->ungated,
                w->ungated_start, w->draws, w->hits, w->file_start, w->role_filed, w->file_fluent, w->file_first,
                w->file_move, w->lane_files, w->push_start, w->push_to, w->pushed };
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
  lanes L = { w, start, rng, n, { 0 }, max_depth, history, NULL, NULL, done, ctx, 0 };
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
  start_lanes(&L);
  for (uint32_t steps = 1; any_lane(L.active) && !L.stop; steps++) {
    step(&L);
    if (steps % DL_PLAYOUT_POLL == 0 && dl_stop_requested(stop)) L.stop = 1;
  }
  free(L.moves), free(L.legal);
  return 1;
}
