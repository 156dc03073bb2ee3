/* circuit.c: a ground game compiled into a circuit of counter gates with
 * differential propagation (see circuit.h). This file evaluates the circuit:
 * propagation, states, moves, playouts; circuit_compile.c builds it. */
#include "datalog/gdl/circuit_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------
 * Propagation */

static int grow_stack(dl_circuit *c)
{
  size_t cap = c->cap * 2 + 64;
  uint32_t *s = realloc(c->stack, cap * sizeof *s);
  if (!s) {
    c->failed = 1;
    return 0;
  }
  c->stack = s;
  c->cap = cap;
  return 1;
}

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
  default:
    c->terminal_count += up ? 1 : -1;
    break;
  }
}

/* Gate g has just flipped to value v: its keyword hook runs now (flips of a
 * gate come here in the order they happen), its outputs later. */
void cc_flip(dl_circuit *c, uint32_t g, uint32_t v)
{
  uint32_t h = c->hook[g];
  if (h & ~HAS_OUTPUTS) run_hook(c, h, v);
  if (!(h & HAS_OUTPUTS)) return;
  if (c->sp == c->cap && !grow_stack(c)) return;
  c->stack[c->sp++] = g << 1 | v;
}

void cc_mark_dirty(dl_circuit *c, uint32_t b)
{
  if (c->dirty[b]) return;
  c->dirty[b] = 1;
  c->dirty_list[c->n_dirty++] = b;
}

/* Adds d (+1 or -1; -d on a negated wire) to the counters of g's outputs
 * outside block `own` (0: none), queueing the outputs that flip. */
static inline void feed_outputs(dl_circuit *c, uint32_t g, uint32_t d, uint32_t own)
{
  uint32_t *counter = c->counter;
  const uint32_t *outs = c->outs;
  for (uint32_t i = c->out_start[g], end = c->out_start[g + 1]; i < end; i++) {
    uint32_t o = outs[i], t = o >> 2, dd = (o & 2) ? 0u - d : d;
    if (o & 1) {
      if (c->block[t] == own) continue;
      counter[t] += dd;
      cc_mark_dirty(c, c->block[t] - 1);
      continue;
    }
    uint32_t before = counter[t], after = before + dd;
    counter[t] = after;
    if ((before ^ after) & TOP) cc_flip(c, t, after >> 31);
  }
}

static void drain(dl_circuit *c)
{
  while (c->sp) {
    uint32_t e = c->stack[--c->sp];
    feed_outputs(c, e >> 1, (e & 1) ? 1u : UINT32_MAX, 0);
  }
}

/* Recomputes block b (members' least fixpoint from their inputs outside
 * it) and passes the members that changed on. */
static void recompute_block(dl_circuit *c, uint32_t b)
{
  const uint32_t *m = c->block_members + c->block_start[b];
  uint32_t n = c->block_start[b + 1] - c->block_start[b], own = b + 1, wn = 0;
  uint32_t *counter = c->counter;
  for (uint32_t k = 0; k < n; k++) {
    if (!(c->val[m[k]] & 1)) continue;
    for (uint32_t i = c->out_start[m[k]]; i < c->out_start[m[k] + 1]; i++)
      if ((c->outs[i] & 1) && c->block[c->outs[i] >> 2] == own) counter[c->outs[i] >> 2]--;
  }
  for (uint32_t k = 0; k < n; k++) {
    c->val[m[k]] = (uint8_t)((c->val[m[k]] & 1) << 1);
    if (counter[m[k]] & TOP) {
      c->val[m[k]] |= 1;
      c->work[wn++] = m[k];
    }
  }
  while (wn) {
    uint32_t x = c->work[--wn];
    for (uint32_t i = c->out_start[x]; i < c->out_start[x + 1]; i++) {
      uint32_t t = c->outs[i] >> 2;
      if (!(c->outs[i] & 1) || c->block[t] != own) continue;
      counter[t]++;
      if (!(c->val[t] & 1) && (counter[t] & TOP)) {
        c->val[t] |= 1;
        c->work[wn++] = t;
      }
    }
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t x = m[k], nv = c->val[x] & 1u, ov = (uint32_t)c->val[x] >> 1;
    c->val[x] = (uint8_t)nv;
    if (nv == ov) continue;
    if (c->hook[x] & ~HAS_OUTPUTS) run_hook(c, c->hook[x], nv);
    feed_outputs(c, x, nv ? 1u : UINT32_MAX, own);
  }
}

int cc_propagate(dl_circuit *c)
{
  for (;;) {
    drain(c);
    if (c->failed) return 0;
    if (!c->n_dirty) return 1;
    uint32_t best = 0;
    for (uint32_t k = 1; k < c->n_dirty; k++)
      if (c->dirty_list[k] > c->dirty_list[best]) best = k;
    uint32_t b = c->dirty_list[best];
    c->dirty_list[best] = c->dirty_list[--c->n_dirty];
    c->dirty[b] = 0;
    recompute_block(c, b);
  }
}

static void set_input(dl_circuit *c, uint32_t g, uint32_t v)
{
  c->counter[g] = v ? TOP : TOP - 1;
  cc_flip(c, g, v);
}

/* ---------------------------------------------------------------------
 * State machine */

int dl_circuit_set_state(dl_circuit *c, const uint64_t *state)
{
  assert(c && state);
  if (c->failed) return 0;
  for (uint32_t w = 0; w < c->words; w++) {
    uint64_t diff = c->cur[w] ^ state[w];
    while (diff) {
      uint32_t bit = (uint32_t)__builtin_ctzll(diff), g = c->fluent_gate[w * 64 + bit];
      if (g != NONE) set_input(c, g, (uint32_t)(state[w] >> bit) & 1);
      diff &= diff - 1;
    }
    c->cur[w] = state[w];
  }
  return cc_propagate(c);
}

const uint64_t *dl_circuit_state(const dl_circuit *c) { return c->cur; }

/* Whether role r's gated moves count now. */
static inline int gate_open(const dl_circuit *c, uint32_t r)
{
  uint32_t g = c->role_gate[r];
  if (g == NONE) return 0;
  uint32_t v = c->block[g] ? c->val[g] : c->counter[g] >> 31;
  return (int)(v ^ c->role_gate_neg[r]);
}

uint32_t dl_circuit_legal(dl_circuit *c, uint32_t r, const uint32_t **moves)
{
  assert(c && r < c->n_roles && moves);
  uint32_t n0 = c->legal_n[r], ng = c->legal_ng[r] && gate_open(c, r) ? c->legal_ng[r] : 0;
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

int dl_circuit_terminal(const dl_circuit *c) { return c->terminal_count > 0; }

int dl_circuit_goal(const dl_circuit *c, uint32_t r, int32_t *value)
{
  assert(c && r < c->n_roles && value);
  if (c->goal_count[r] != 1) {
    *value = -c->goal_count[r];
    return 0;
  }
  *value = c->goal_sum[r];
  return 1;
}

static int set_moves(dl_circuit *c, const uint32_t *joint)
{
  for (uint32_t r = 0; r < c->n_roles; r++) {
    uint32_t m = joint[r], old = c->cur_move[r];
    assert(m < c->n_moves && c->move_role[m] == r);
    if (m == old) continue;
    if (old != NONE && c->move_gate[old] != NONE) set_input(c, c->move_gate[old], 0);
    if (m != NONE && c->move_gate[m] != NONE) set_input(c, c->move_gate[m], 1);
    c->cur_move[r] = m;
  }
  return cc_propagate(c);
}

int dl_circuit_next(dl_circuit *c, const uint32_t *joint, uint64_t *next)
{
  assert(c && joint && next);
  if (c->failed || !set_moves(c, joint)) return 0;
  memcpy(next, c->next_bits, c->words * sizeof *next);
  return 1;
}

void dl_circuit_initial(const dl_circuit *c, uint64_t *state)
{
  assert(c && state);
  memcpy(state, c->init, c->words * sizeof *state);
}

void dl_rng_seed(dl_rng *rng, uint64_t seed) { rng->s = seed; }

uint64_t dl_rng_next(dl_rng *rng)
{
  uint64_t z = (rng->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint32_t dl_rng_below(dl_rng *rng, uint32_t n)
{
  assert(n >= 1);
  return (uint32_t)(((dl_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

dl_playout dl_circuit_playout(dl_circuit *c, const uint64_t *start, dl_rng *rng, uint32_t max_depth,
                              int32_t *goals)
{
  assert(c && start && rng && goals);
  dl_playout p = { DL_PLAYOUT_OK, 0, 0 };
  if (!dl_circuit_set_state(c, start)) {
    p.status = DL_PLAYOUT_NO_MEMORY;
    return p;
  }
  while (c->terminal_count <= 0) {
    if (p.depth >= max_depth) {
      p.status = DL_PLAYOUT_TOO_DEEP;
      return p;
    }
    for (uint32_t r = 0; r < c->n_roles; r++) {
      uint32_t n0 = c->legal_n[r], n = n0 + (c->legal_ng[r] && gate_open(c, r) ? c->legal_ng[r] : 0);
      if (!n) {
        p.status = DL_PLAYOUT_NO_LEGAL;
        p.role = r;
        return p;
      }
      uint32_t k = n == 1 ? 0 : dl_rng_below(rng, n);
      c->joint[r] = k < n0 ? c->legal_list[c->role_start[r] + k] : c->legal_list[c->role_start[r + 1] - 1 - (k - n0)];
    }
    if (!set_moves(c, c->joint)) break;
    memcpy(c->scratch, c->next_bits, c->words * sizeof *c->scratch);
    if (!dl_circuit_set_state(c, c->scratch)) break;
    p.depth++;
  }
  if (c->failed) {
    p.status = DL_PLAYOUT_NO_MEMORY;
    return p;
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
  void *p[] = { c->counter, c->out_start, c->outs, c->hook, c->kind, c->gate_atom, c->block, c->block_start,
                c->block_members, c->val, c->dirty, c->dirty_list, c->work, c->stack, c->role_term,
                c->fluent_term, c->fluent_gate, c->init, c->cur, c->next_bits, c->scratch, c->move_role,
                c->move_gate, c->role_start, c->move_term, c->legal_list, c->legal_n, c->legal_pos,
                c->role_gate, c->legal_ng, c->role_gate_neg, c->move_gated, c->legal_out,
                c->cur_move, c->joint, c->goal_role, c->goal_value, c->goal_count, c->goal_sum };
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
  free(c);
}
