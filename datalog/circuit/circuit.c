/* circuit.c: a ground game compiled into a circuit of counter gates with
 * differential propagation (see circuit.h). This file evaluates the circuit:
 * propagation, states, moves, playouts; datalog/compile/ builds it. */
#include "datalog/circuit/circuit_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------
 * Keyed moves */

/* Slot i of role r's keys that hold, ungated (gated 0) or gated. */
static inline uint32_t *key_slot(const dl_circuit *c, uint32_t r, int gated, uint32_t i)
{
  return gated ? c->key_list + c->role_key_start[r + 1] - 1 - i : c->key_list + c->role_key_start[r] + i;
}

/* Key k's moves: key_moves from key_start[k], this many. */
static inline uint32_t key_size(const dl_circuit *c, uint32_t k) { return c->key_start[k + 1] - c->key_start[k]; }

/* Key k's gate turned true (up) or false: k put in its role's keys that
 * hold, or taken out (the last one moved to its place). */
static __attribute__((noinline)) void key_flips(dl_circuit *c, uint32_t k, uint32_t up)
{
  uint32_t r = c->key_role[k], gated = c->key_gated[k], size = key_size(c, k);
  uint32_t *cnt = gated ? &c->key_cntg[r] : &c->key_cnt[r], *moves = gated ? &c->key_ng[r] : &c->key_n[r];
  if (up) {
    c->key_pos[k] = *cnt;
    *key_slot(c, r, (int)gated, (*cnt)++) = k;
    *moves += size;
  } else {
    uint32_t p = c->key_pos[k], last = *key_slot(c, r, (int)gated, --*cnt);
    *key_slot(c, r, (int)gated, p) = last;
    c->key_pos[last] = p;
    *moves -= size;
  }
}

uint32_t cc_keyed_at(const dl_circuit *c, uint32_t r, uint32_t k, int gated)
{
  assert(k < (gated ? c->key_ng[r] : c->key_n[r]));
  for (uint32_t i = 0;; i++) {
    uint32_t key = *key_slot(c, r, gated, i), size = key_size(c, key);
    if (k < size) return c->key_moves[c->key_start[key] + k];
    k -= size;
  }
}

/* The moves of role r's keys that hold, ungated or gated, appended to
 * out[n ..]; the new length. */
static uint32_t append_keyed(const dl_circuit *c, uint32_t r, int gated, uint32_t *out, uint32_t n)
{
  for (uint32_t i = 0, keys = gated ? c->key_cntg[r] : c->key_cnt[r]; i < keys; i++) {
    uint32_t key = *key_slot(c, r, gated, i), size = key_size(c, key);
    memcpy(out + n, c->key_moves + c->key_start[key], size * sizeof *out);
    n += size;
  }
  return n;
}

/* Role r's listed moves into out, in cc_legal_at's order; how many. */
static uint32_t list_candidates(const dl_circuit *c, uint32_t r, int open, uint32_t *out)
{
  uint32_t n = append_keyed(c, r, 0, out, 0);
  memcpy(out + n, c->legal_list + c->role_start[r], c->legal_n[r] * sizeof *out);
  n += c->legal_n[r];
  if (!open) return n;
  for (uint32_t k = 0; k < c->legal_ng[r]; k++) out[n++] = c->legal_list[c->role_start[r + 1] - 1 - k];
  return append_keyed(c, r, 1, out, n);
}

/* ---------------------------------------------------------------------
 * Propagation */

static void run_hook(dl_circuit *c, uint32_t h, uint32_t up)
{
  uint32_t i = h & 0x0fffffffu;
  switch ((h >> 28) & 7) {
  case HOOK_LEGAL: {
    uint32_t r = c->move_role[i], *list = c->legal_list + c->role_start[r];
    if (c->move_gated[i]) {
      uint32_t *end = c->legal_list + c->role_start[r + 1] - 1;  /* gated moves go down from here */
      if (up) {
        c->legal_pos[i] = c->legal_ng[r];
        end[-(ptrdiff_t)c->legal_ng[r]++] = i;
      } else {
        uint32_t p = c->legal_pos[i], last = end[-(ptrdiff_t)--c->legal_ng[r]];
        end[-(ptrdiff_t)p] = last;
        c->legal_pos[last] = p;
      }
    } else if (up) {
      c->legal_pos[i] = c->legal_n[r];
      list[c->legal_n[r]++] = i;
    } else {
      uint32_t p = c->legal_pos[i], last = list[--c->legal_n[r]];
      list[p] = last;
      c->legal_pos[last] = p;
    }
    break;
  }
  case HOOK_NEXT:
    c->next_bits[i >> 6] ^= (uint64_t)1 << (i & 63);
    break;
  case HOOK_GOAL: {
    uint32_t r = c->goal_role[i];
    c->goal_count[r] += up ? 1 : -1;
    c->goal_sum[r] += up ? c->goal_value[i] : -c->goal_value[i];
    break;
  }
  case HOOK_KEY:
    key_flips(c, i, up);
    break;
  default:
    c->terminal_count += up ? 1 : -1;
    break;
  }
}

static inline void queue_gate(dl_circuit *c, uint32_t g)
{
  c->queue[g >> 6] |= (uint64_t)1 << (g & 63);
  c->queue_sum[g >> 12] |= (uint64_t)1 << ((g >> 6) & 63);
}

void cc_queue(dl_circuit *c, uint32_t g)
{
  uint32_t b = cc_block_of(c->net, g);
  queue_gate(c, b ? c->block_members[c->block_start[b - 1]] : g);
}

static void pass_gate(dl_circuit *c, uint32_t g);

/* Adds dd to the counter of gate t (not in a block), queueing it when its
 * value flips (passing it on at once when it has no other input: its
 * value is final). */
static inline void feed_gate(dl_circuit *c, uint32_t t, uint32_t dd)
{
  uint32_t *net = c->net, before = net[t], after = before + dd;
  net[t] = after;
  if ((before ^ after) & TOP) {
    if (net[t + NET_OUTS] & 2) {
      pass_gate(c, t);
      return;
    }
    c->queue[t >> 6] |= (uint64_t)1 << (t & 63);
    c->queue_sum[t >> 12] |= (uint64_t)1 << ((t >> 6) & 63);
  }
}

/* The index of group k's member that holds, its only one (grp_true[k] is
 * 1), found once after it was lost. */
static uint32_t true_member(dl_circuit *c, uint32_t k)
{
  if (c->grp_one[k] != NONE) return c->grp_one[k];
  for (uint32_t s = c->grp_start[k]; s < c->grp_start[k + 1]; s++) {
    uint32_t f = c->grp_fluent[s];
    if (c->cur[f >> 6] >> (f & 63) & 1) return c->grp_one[k] = s - c->grp_start[k];
  }
  assert(0);
  return 0;
}

/* Passes dd through demux record d to the selected ANDs of its group's
 * members that hold (each entry: AND << 1 | its wire's sign). */
static void feed_demux(dl_circuit *c, uint32_t d, uint32_t dd)
{
  uint32_t *net = c->net, k = net[d + 1], n = c->grp_true[k], a;
  if (n == 1) {
    if ((a = net[d + 4 + true_member(c, k)]) != NONE) feed_gate(c, a >> 1, (a & 1) ? 0u - dd : dd);
    return;
  }
  for (uint32_t s = c->grp_start[k]; n && s < c->grp_start[k + 1]; s++) {
    uint32_t f = c->grp_fluent[s];
    if ((a = net[d + 4 + s - c->grp_start[k]]) != NONE && (c->cur[f >> 6] >> (f & 63) & 1))
      feed_gate(c, a >> 1, (a & 1) ? 0u - dd : dd);
  }
}

/* Passes dd through watch record w to the ANDs listed in it. */
static void feed_watch(dl_circuit *c, uint32_t w, uint32_t dd)
{
  uint32_t *net = c->net;
  for (uint32_t i = 0, n = net[w + 1]; i < n; i++) {
    uint32_t r = net[w + 4 + i];
    feed_gate(c, net[r + 1], (net[r + 2] & 1) ? 0u - dd : dd);
  }
}

/* The watcher of select record r turned true (dd 1) or false: its AND
 * listed in its x's watch record and set from x's value, or taken out and
 * cleared. */
static void watcher_flips(dl_circuit *c, uint32_t r, uint32_t dd)
{
  uint32_t *net = c->net, a = net[r + 1], x = net[r + 2], w = net[r + 4], now = TOP - 1;
  if (dd == 1) {
    net[r + 5] = net[w + 1];
    net[w + 4 + net[w + 1]++] = r;
    now += (net[(x >> 1) + NET_INFO] >> 31) ^ (x & 1);
  } else {
    uint32_t p = net[r + 5], last = net[w + 4 + --net[w + 1]];
    net[w + 4 + p] = last;
    net[last + 5] = p;
    net[r + 5] = NONE;
  }
  if ((now ^ net[a]) & TOP) queue_gate(c, a);
  net[a] = now;
}

/* Passes dd on along a wire into a cyclic block's member or a record
 * (demux, watch, select).  Out of the propagation's loop, which meets such
 * wires seldom. */
static __attribute__((noinline)) void feed_special(dl_circuit *c, uint32_t t, uint32_t dd)
{
  switch (c->net[t + 3]) {
  case DEMUX: feed_demux(c, t, dd); return;
  case WATCH: feed_watch(c, t, dd); return;
  case SELECT: watcher_flips(c, t, dd); return;
  default:
    c->net[t] += dd;
    cc_queue(c, t);
  }
}

/* Adds d (+1 or -1; -d on a negated wire) to the counters of g's live
 * outputs outside block `own` (0: none), queueing those whose value flips. */
static inline void feed_outputs(dl_circuit *c, uint32_t g, uint32_t d, uint32_t own)
{
  uint32_t *net = c->net;
  for (uint32_t i = cc_first_out(net, g), end = i + (net[g + NET_OUTS] >> 2); i < end; i++) {
    uint32_t o = net[i], t = o >> 2, dd = (o & 2) ? 0u - d : d;
    if (o & 1) {
      if (net[t + 3] != own) feed_special(c, t, dd);
      continue;
    }
    feed_gate(c, t, dd);
  }
}

/* Passes gate g's value on when it differs from what its outputs saw.
 * Inlined into the propagation's loop, whose every turn runs it. */
static inline __attribute__((always_inline)) void pass_on(dl_circuit *c, uint32_t g)
{
  uint32_t *net = c->net, info = net[g + NET_INFO];
  if (!((net[g] ^ info) & TOP)) return;
  info ^= TOP;
  net[g + NET_INFO] = info;
  if (info & ~TOP) run_hook(c, info & ~TOP, info >> 31);
  feed_outputs(c, g, (info & TOP) ? 1u : UINT32_MAX, 0);
}

static void pass_gate(dl_circuit *c, uint32_t g) { pass_on(c, g); }

/* Recomputes block b (members' least fixpoint from their inputs outside
 * it) and passes the members that changed on.  The wires inside a block
 * are positive. */
static void recompute_block(dl_circuit *c, uint32_t b)
{
  const uint32_t *m = c->block_members + c->block_start[b];
  uint32_t n = c->block_start[b + 1] - c->block_start[b], own = b + 1, wn = 0, *net = c->net;
  for (uint32_t k = 0; k < n; k++) {
    c->old[k] = (uint8_t)(net[m[k] + NET_INFO] >> 31);
    if (!c->old[k]) continue;
    for (uint32_t i = cc_first_out(net, m[k]), end = i + (net[m[k] + NET_OUTS] >> 2); i < end; i++)
      if ((net[i] & 1) && net[(net[i] >> 2) + 3] == own) net[net[i] >> 2]--;
  }
  for (uint32_t k = 0; k < n; k++) {
    net[m[k] + NET_INFO] = (net[m[k] + NET_INFO] & ~TOP) | (net[m[k]] & TOP);
    if (net[m[k]] & TOP) c->work[wn++] = m[k];
  }
  while (wn) {
    uint32_t x = c->work[--wn];
    for (uint32_t i = cc_first_out(net, x), end = i + (net[x + NET_OUTS] >> 2); i < end; i++) {
      uint32_t t = net[i] >> 2;
      if (!(net[i] & 1) || net[t + 3] != own) continue;
      net[t]++;
      if (!(net[t + NET_INFO] & TOP) && (net[t] & TOP)) {
        net[t + NET_INFO] |= TOP;
        c->work[wn++] = t;
      }
    }
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t x = m[k], info = net[x + NET_INFO], nv = info >> 31;
    if (nv == c->old[k]) continue;
    if (info & ~TOP) run_hook(c, info & ~TOP, nv);
    feed_outputs(c, x, nv ? 1u : UINT32_MAX, own);
  }
}

void cc_propagate(dl_circuit *c, uint32_t limit)
{
  uint64_t *queue = c->queue, *sum = c->queue_sum;
  for (uint32_t s = 0; s < c->sum_words; s++)
    while (sum[s]) {
      uint32_t w = s << 6 | (uint32_t)__builtin_ctzll(sum[s]);
      while (queue[w]) {
        uint32_t g = w << 6 | (uint32_t)__builtin_ctzll(queue[w]);
        if (g >= limit) return;
        queue[w] &= queue[w] - 1;
        if (c->net[g + NET_OUTS] & 1) recompute_block(c, c->net[g + 3] - 1);
        else pass_on(c, g);
      }
      sum[s] &= ~((uint64_t)1 << (w & 63));
    }
}

static void set_input(dl_circuit *c, uint32_t g, uint32_t v)
{
  c->net[g] = v ? TOP : TOP - 1;
  queue_gate(c, g);
}

/* ---------------------------------------------------------------------
 * State machine */

enum { REDRAW_TRIES = 8 };  /* draws with replacement after a check failed, before the copy */

/* Whether move m's checks hold (a move without any: 1). */
static inline int check_holds(const dl_circuit *c, uint32_t m)
{
  for (uint32_t i = c->check_start[m]; i < c->check_start[m + 1]; i++) {
    uint32_t k = c->check_lit[i];
    if (!((c->net[(k >> 1) + NET_INFO] >> 31 ^ k) & 1)) return 0;
  }
  return 1;
}

/* Whether move m is an input of the any-legal gate of bit `bit` of
 * move_al and its checks hold. */
static inline int feeds_any_legal(const dl_circuit *c, uint32_t m, uint32_t bit)
{
  return (c->move_al[m] & bit) && check_holds(c, m);
}

/* Whether one of role r's listed moves (gated or not) with bit `bit` of
 * move_al has its checks holding: the value of that bit's any-legal gate. */
static int any_legal_holds(const dl_circuit *c, uint32_t r, uint32_t bit)
{
  const uint32_t *list = c->legal_list + c->role_start[r], *end = c->legal_list + c->role_start[r + 1];
  for (uint32_t k = 0; k < c->legal_n[r]; k++)
    if (feeds_any_legal(c, list[k], bit)) return 1;
  for (uint32_t k = 1; k <= c->legal_ng[r]; k++)
    if (feeds_any_legal(c, end[-(ptrdiff_t)k], bit)) return 1;
  for (int gated = 0; gated < 2; gated++)
    for (uint32_t i = 0, keys = gated ? c->key_cntg[r] : c->key_cnt[r]; i < keys; i++) {
      uint32_t key = *key_slot(c, r, gated, i);
      for (uint32_t j = c->key_start[key]; j < c->key_start[key + 1]; j++)
        if (feeds_any_legal(c, c->key_moves[j], bit)) return 1;
    }
  return 0;
}

/* Sets the any-legal gates from the listed moves, in order, passing each
 * change on before the next gate is read. */
static void settle_any_legal(dl_circuit *c)
{
  for (uint32_t k = 0; k < c->n_al; k++) {
    uint32_t g = c->al_gate[k], v = (uint32_t)any_legal_holds(c, c->al_role[k], 1u << k);
    if (v == c->net[g + NET_INFO] >> 31) continue;
    set_input(c, g, v);
    cc_propagate(c, c->cone_start);
  }
}

/* Fluent f of a one-hot group turned v: its selected ANDs set from their
 * gates' values (v), or cleared; the group's count of true members kept. */
static void select_member(dl_circuit *c, uint32_t f, uint32_t v)
{
  uint32_t k = c->fluent_grp[f], slot = c->fluent_slot[f], *net = c->net;
  if (v) {
    c->grp_true[k]++;
    c->grp_one[k] = slot - c->grp_start[k];
  } else {
    c->grp_true[k]--;
    if (c->grp_one[k] == slot - c->grp_start[k]) c->grp_one[k] = NONE;
  }
  for (uint32_t i = c->sel_start[slot]; i < c->sel_start[slot + 1]; i++) {
    uint32_t a = c->sel_and[i], x = c->sel_x[i];
    uint32_t now = TOP - 1 + (v & ((net[(x >> 1) + NET_INFO] >> 31) ^ (x & 1)));
    if ((now ^ net[a]) & TOP) queue_gate(c, a);
    net[a] = now;
  }
}

/* The members of one-hot groups that differ between the current state
 * and state, selected or not (before the state is taken). */
static void select_members(dl_circuit *c, const uint64_t *state)
{
  for (uint32_t w = 0; w < c->words; w++)
    for (uint64_t diff = (c->cur[w] ^ state[w]) & c->grp_mask[w]; diff; diff &= diff - 1) {
      uint32_t bit = (uint32_t)__builtin_ctzll(diff);
      select_member(c, w * 64 + bit, (uint32_t)(state[w] >> bit) & 1);
    }
}

int dl_circuit_set_state(dl_circuit *c, const uint64_t *state)
{
  assert(c && state);
  if (c->n_groups) select_members(c, state);
  for (uint32_t w = 0; w < c->words; w++) {
    uint64_t diff = c->cur[w] ^ state[w];
    while (diff) {
      uint32_t bit = (uint32_t)__builtin_ctzll(diff), g = c->fluent_gate[w * 64 + bit];
      if (g != NONE) set_input(c, g, (uint32_t)(state[w] >> bit) & 1);
      diff &= diff - 1;
    }
    c->cur[w] = state[w];
  }
  cc_propagate(c, c->cone_start);
  if (c->n_al) settle_any_legal(c);
  if (c->lazy) cc_lazy_new_state(c);
  return 1;
}

const uint64_t *dl_circuit_state(const dl_circuit *c) { return c->cur; }

/* Whether role r's gated moves count now. */
static inline int gate_open(const dl_circuit *c, uint32_t r)
{
  uint32_t g = c->role_gate[r];
  if (g == NONE) return 0;
  return (int)((c->net[g + NET_INFO] >> 31) ^ c->role_gate_neg[r]);
}

/* Role r's legal moves with lazy ones: the eager ones, then the lazy ones,
 * into legal_out (made once per state). */
static uint32_t legal_with_lazy(dl_circuit *c, uint32_t r, const uint32_t **moves)
{
  uint32_t *out = c->legal_out + c->role_start[r];
  *moves = out;
  if (c->legal_epoch[r] == c->epoch) return c->legal_count[r];
  int open = gate_open(c, r);
  uint32_t n0 = c->legal_n[r], ng = c->legal_ng[r] && open ? c->legal_ng[r] : 0;
  memcpy(out, c->legal_list + c->role_start[r], n0 * sizeof *out);
  memcpy(out + n0, c->legal_list + c->role_start[r + 1] - ng, ng * sizeof *out);
  c->legal_count[r] = cc_lazy_moves(c, r, open, out, n0 + ng);
  c->legal_epoch[r] = c->epoch;
  return c->legal_count[r];
}

/* Role r's listed moves whose checks hold, into legal_out. */
static uint32_t legal_checked(dl_circuit *c, uint32_t r, int open, const uint32_t **moves)
{
  uint32_t *out = c->legal_out + c->role_start[r], k = 0;
  for (uint32_t i = 0, n = list_candidates(c, r, open, out); i < n; i++) {
    uint32_t m = out[i];
    out[k] = m;
    k += (uint32_t)check_holds(c, m);
  }
  *moves = out;
  return k;
}

uint32_t dl_circuit_legal(dl_circuit *c, uint32_t r, const uint32_t **moves)
{
  assert(c && r < c->n_roles && moves);
  if (c->lazy) return legal_with_lazy(c, r, moves);
  int open = gate_open(c, r);
  if (c->role_checked[r]) return legal_checked(c, r, open, moves);
  assert(!c->key_n[r] && !c->key_ng[r]);  /* keyed moves are checked */
  uint32_t n0 = c->legal_n[r], ng = open ? c->legal_ng[r] : 0;
  const uint32_t *base = c->legal_list + c->role_start[r], *gated = c->legal_list + c->role_start[r + 1] - ng;
  if (!ng || !n0) {
    *moves = ng ? gated : base;
    return n0 + ng;
  }
  uint32_t *out = c->legal_out + c->role_start[r];
  memcpy(out, base, n0 * sizeof *out);
  memcpy(out + n0, gated, ng * sizeof *out);
  *moves = out;
  return n0 + ng;
}

int dl_circuit_terminal(const dl_circuit *c)
{
  assert(c);
  /* Lazy gates keep their values per state: logically const, as
   * dl_circuit_goal. */
  return c->terminal_count > 0 || (c->lazy && cc_lazy_terminal((dl_circuit *)c));
}

/* Brings the goal-only gates up to date (they wait for a goal to be
 * asked). */
static void settle_goals(dl_circuit *c)
{
  uint32_t *net = c->net;
  cc_propagate(c, c->goal_start);
  for (uint32_t k = 0; k < c->n_feeders; k++) {
    uint32_t g = c->feeder_gate[k], v = net[g + NET_INFO] >> 31;
    if (v == c->feeder_seen[k]) continue;
    c->feeder_seen[k] = (uint8_t)v;
    uint32_t d = v ? 1u : UINT32_MAX, i = cc_first_out(net, g) + (net[g + NET_OUTS] >> 2);
    for (uint32_t end = i + c->feeder_outs[k]; i < end; i++) feed_gate(c, net[i] >> 2, (net[i] & 2) ? 0u - d : d);
  }
  cc_propagate(c, c->net_words);
}

void dl_circuit_goal_atoms(const dl_circuit *c, uint32_t r, int32_t *count, int32_t *sum)
{
  assert(c && r < c->n_roles && count && sum);
  /* Evaluating the goal-only gates late changes no value the contract
   * shows: logically const.  Every circuit is allocated by
   * dl_circuit_create, never defined const, so writing through it is
   * defined. */
  settle_goals((dl_circuit *)c);
  *count = c->goal_count[r], *sum = c->goal_sum[r];
  if (c->lazy) cc_lazy_goals((dl_circuit *)c, r, count, sum);
}

int dl_circuit_goal(const dl_circuit *c, uint32_t r, int32_t *value)
{
  assert(c && r < c->n_roles && value);
  int32_t count, sum;
  dl_circuit_goal_atoms(c, r, &count, &sum);
  if (count != 1) {
    *value = -count;
    return 0;
  }
  *value = sum;
  return 1;
}

static void set_moves(dl_circuit *c, const uint32_t *joint)
{
  for (uint32_t r = 0; r < c->n_roles; r++) {
    uint32_t m = joint[r], old = c->cur_move[r];
    assert(m < c->n_moves && c->move_role[m] == r);
    if (m == old) continue;
    if (old != NONE && c->move_gate[old] != NONE) set_input(c, c->move_gate[old], 0);
    if (m != NONE && c->move_gate[m] != NONE) set_input(c, c->move_gate[m], 1);
    c->cur_move[r] = m;
  }
  cc_propagate(c, c->goal_start);
}

/* The next state for joint move joint into next. */
static void next_state(dl_circuit *c, const uint32_t *joint, uint64_t *next)
{
  set_moves(c, joint);
  memcpy(next, c->next_bits, c->words * sizeof *next);
  if (c->lazy) cc_lazy_next(c, joint, next);
}

int dl_circuit_next(dl_circuit *c, const uint32_t *joint, uint64_t *next)
{
  assert(c && joint && next);
  next_state(c, joint, next);
  return 1;
}

void dl_circuit_initial(const dl_circuit *c, uint64_t *state)
{
  assert(c && state);
  memcpy(state, c->init, c->words * sizeof *state);
}

/* Draws again among role r's n listed moves, the k-th of which failed its
 * checks: first up to REDRAW_TRIES times with replacement (cheap where many
 * hold), then without replacement through a copy of the list, until a
 * move's checks hold.  Either way that move is uniform among those whose
 * checks hold.  0 when none holds. */
static int redraw_checked(dl_circuit *c, uint32_t r, int open, uint32_t n, uint32_t k, dl_rng *rng, uint32_t *m)
{
  for (int tries = 0; n > 1 && tries < REDRAW_TRIES; tries++) {
    *m = cc_legal_at(c, r, dl_rng_below(rng, n));
    if (check_holds(c, *m)) return 1;
  }
  uint32_t *cand = c->legal_out + c->role_start[r];
  list_candidates(c, r, open, cand);
  cand[k] = cand[--n];
  while (n) {
    k = n == 1 ? 0 : dl_rng_below(rng, n);
    if (check_holds(c, cand[k])) {
      *m = cand[k];
      return 1;
    }
    cand[k] = cand[--n];
  }
  return 0;
}

/* A uniformly random legal move of role r in the current state into *m;
 * 0 when r has none.  Eager: read off the role's lists, no copy unless a
 * checked move's check fails. */
static inline int random_move(dl_circuit *c, uint32_t r, dl_rng *rng, uint32_t *m)
{
  assert(c && r < c->n_roles && rng && m);
  int open = gate_open(c, r);
  uint32_t n = cc_listed_count(c, r, open);
  if (c->lazy) return cc_lazy_random_move(c, r, open, n, rng, m);
  if (!n) return 0;
  uint32_t k = n == 1 ? 0 : dl_rng_below(rng, n);
  *m = cc_legal_at(c, r, k);
  return !c->role_checked[r] || check_holds(c, *m) || redraw_checked(c, r, open, n, k, rng, m);
}

int cc_random_move(dl_circuit *c, uint32_t r, dl_rng *rng, uint32_t *m) { return random_move(c, r, rng, m); }

/* Draws every role's random move into c->joint; the first role without a
 * legal move, or NONE. */
static uint32_t draw_joint(dl_circuit *c, dl_rng *rng)
{
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (!random_move(c, r, rng, &c->joint[r])) return r;
  return NONE;
}

dl_playout dl_circuit_playout(dl_circuit *c, const uint64_t *start, dl_rng *rng, uint32_t max_depth,
                              const dl_stop *stop, int32_t *goals)
{
  assert(c && start && rng && goals);
  dl_playout p = { DL_PLAYOUT_OK, 0, 0 };
  dl_circuit_set_state(c, start);
  for (;;) {
    /* Lazy, the draw comes first: its legal moves answer the terminal
     * test's "has a legal move" (chess's mate and stalemate), which would
     * otherwise test moves of its own. */
    uint32_t stuck = c->lazy ? draw_joint(c, rng) : NONE;
    if (dl_circuit_terminal(c)) break;
    if (p.depth >= max_depth) {
      p.status = DL_PLAYOUT_TOO_DEEP;
      return p;
    }
    if (p.depth % DL_PLAYOUT_POLL == DL_PLAYOUT_POLL - 1 && dl_stop_requested(stop)) {
      p.status = DL_PLAYOUT_STOPPED;
      return p;
    }
    if (!c->lazy) stuck = draw_joint(c, rng);
    if (stuck != NONE) {
      p.status = DL_PLAYOUT_NO_LEGAL;
      p.role = stuck;
      return p;
    }
    next_state(c, c->joint, c->scratch);
    dl_circuit_set_state(c, c->scratch);
    p.depth++;
  }
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (!dl_circuit_goal(c, r, &goals[r])) {
      p.status = DL_PLAYOUT_BAD_GOAL;
      p.role = r;
      return p;
    }
  return p;
}

/* ---------------------------------------------------------------------
 * Accessors */

dl_circuit_stats dl_circuit_get_stats(const dl_circuit *c) { return c->stats; }
const dl_terms *dl_circuit_terms(const dl_circuit *c) { return c->terms; }
uint32_t dl_circuit_role_count(const dl_circuit *c) { return c->n_roles; }

dl_tid dl_circuit_role_term(const dl_circuit *c, uint32_t r)
{
  assert(r < c->n_roles);
  return c->role_term[r];
}

uint32_t dl_circuit_fluent_count(const dl_circuit *c) { return c->n_fluents; }

dl_tid dl_circuit_fluent_term(const dl_circuit *c, uint32_t f)
{
  assert(f < c->n_fluents);
  return c->fluent_term[f];
}

uint32_t dl_circuit_state_words(const dl_circuit *c) { return c->words; }
uint32_t dl_circuit_move_count(const dl_circuit *c) { return c->n_moves; }

uint32_t dl_circuit_move_role(const dl_circuit *c, uint32_t m)
{
  assert(m < c->n_moves);
  return c->move_role[m];
}

dl_tid dl_circuit_move_term(const dl_circuit *c, uint32_t m)
{
  assert(m < c->n_moves);
  return c->move_term[m];
}

void dl_circuit_destroy(dl_circuit *c)
{
  if (!c) return;
  cc_wide_free(c);
  void *p[] = { c->counter, c->out_start, c->outs, c->hook, c->kind, c->gate_atom, c->block, c->block_start,
                c->block_members, c->net, c->old, c->queue, c->queue_sum, c->work, c->role_term,
                c->fluent_term, c->fluent_gate, c->init, c->cur, c->next_bits, c->scratch, c->move_role,
                c->move_gate, c->role_start, c->move_term, c->legal_list, c->legal_n, c->legal_pos,
                c->role_gate, c->legal_ng, c->role_gate_neg, c->move_gated, c->legal_out, c->check_start,
                c->check_lit, c->role_checked, c->move_al,
                c->cur_move, c->joint, c->goal_role, c->goal_value, c->goal_count, c->goal_sum,
                c->feeder_gate, c->feeder_outs, c->feeder_seen, c->lz_start, c->lz_in, c->lz_need,
                c->lz, c->lz_stack, c->any_in, c->true_list, c->n_true, c->true_key, c->ungated_start, c->ungated, c->move_lazy, c->lzm_start,
                c->lzm_moves, c->lz_cand, c->legal_epoch, c->legal_count, c->lz_goal, c->lz_terminal, c->sk_start,
                c->sk_list, c->grp_start, c->grp_fluent, c->fluent_grp, c->fluent_slot, c->grp_true, c->grp_one,
                c->sel_start, c->sel_and, c->sel_x, c->grp_mask, c->key_start, c->key_moves, c->key_role,
                c->key_pos, c->key_list, c->role_key_start, c->key_n, c->key_ng, c->key_cnt, c->key_cntg,
                c->key_gated };
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
  free(c);
}
