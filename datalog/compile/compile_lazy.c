/* compile_lazy.c: the records of the lazy part of a circuit (see
 * datalog/circuit/circuit.h, DL_CIRCUIT_LAZY): the gates that only legal
 * moves, goals and terminal need, evaluated on demand for the current state
 * (datalog/circuit/circuit_lazy.c) instead of kept up to date at every
 * change.
 *
 * Chess shows why.  Its legality test asks, for every move, whether the
 * king would stand attacked after it: a few million gates, most of which
 * flip when any piece moves.  Kept up to date, they cost 2 ms a state.
 * Asked for, only the moves of the pieces on the board are tested, and a
 * test reads only the rays through the king's square: the AND of a rule
 * stops at its first false input, the OR of an atom at its first true one.
 *
 * A lazy gate reads its inputs in order: eager gates first (their value is
 * settled), then lazy gates by the size of what they read.  Its value is
 * kept until the state changes (an epoch stamp per gate).  The legal moves
 * of a role are tested only when a fluent they need holds: each lazy move
 * is filed under one fluent its every rule requires (the one the fewest
 * other moves require), or under none. */
#include "datalog/compile/compile_impl.h"

#include <assert.h>

#define COST_MAX 0x7fffffffu

/* Input code of gate s for a lazy gate (see dl_circuit.lz_in). */
static uint32_t input_code(uint32_t s, uint32_t g0, const uint32_t *off, uint32_t neg)
{
  return s >= g0 ? (s - g0) << 2 | 2 | neg : off[s] << 2 | neg;
}

/* The input code w (dense) in a record (see dl_circuit.lz). */
static uint32_t record_code(const dl_circuit *c, uint32_t w, const uint32_t *rec, const uint32_t *gate_key)
{
  if (w & 2) return rec[w >> 2] << 3 | (w & 3);
  uint32_t key = gate_key[w >> 2];
  return key < c->n_fluents ? key << 3 | 4 | (w & 1) : (w >> 2) << 3 | (w & 1);
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* The inputs of every lazy gate (lz_start, lz_in, lz_need); 1, or 0 when
 * out of memory. */
static int lazy_inputs(dl_circuit *c, const uint32_t *off, uint32_t g0)
{
  uint32_t n = c->n_lazy;
  c->lz_start = calloc((size_t)n + 2, sizeof *c->lz_start);
  c->lz_need = malloc(((size_t)n + 1) * sizeof *c->lz_need);
  if (!c->lz_start || !c->lz_need) return 0;
  for (uint32_t s = 0; s < c->n_gates; s++)
    for (uint32_t i = c->out_start[s]; i < c->out_start[s + 1]; i++)
      if (c->outs[i] >> 2 >= g0) c->lz_start[(c->outs[i] >> 2) - g0 + 1]++;
  for (uint32_t x = 0; x < n; x++) c->lz_start[x + 1] += c->lz_start[x];
  c->lz_in = malloc(((size_t)c->lz_start[n] + 1) * sizeof *c->lz_in);
  uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!c->lz_in || !fill) {
    free(fill);
    return 0;
  }
  memcpy(fill, c->lz_start, (size_t)n * sizeof *fill);
  for (uint32_t x = 0; x < n; x++) c->lz_need[x] = TOP - c->counter[g0 + x];
  for (uint32_t s = 0; s < c->n_gates; s++)
    for (uint32_t i = c->out_start[s]; i < c->out_start[s + 1]; i++) {
      uint32_t t = c->outs[i] >> 2, neg = (c->outs[i] >> 1) & 1;
      if (t < g0) continue;
      c->lz_in[fill[t - g0]++] = input_code(s, g0, off, neg);
      c->lz_need[t - g0] += neg;  /* the compiler counted a negated wire as true */
    }
  free(fill);
  return 1;
}

/* Orders each lazy gate's inputs: eager ones first, then lazy ones by the
 * number of gates they read (their cost, into cost[x]), and sets the depth
 * of the evaluation stack.  Lazy gates are in topological order. */
static int order_inputs(dl_circuit *c, uint32_t *cost)
{
  uint32_t n = c->n_lazy, longest = 0;
  uint32_t *depth = calloc((size_t)n + 1, sizeof *depth);
  uint64_t *keys = NULL;
  size_t cap = 0;
  int ok = depth != NULL;
  for (uint32_t x = 0; ok && x < n; x++) {
    uint32_t a = c->lz_start[x], e = c->lz_start[x + 1];
    uint64_t sum = 1;
    if (e - a > cap) {
      cap = (e - a) * 2;
      uint64_t *k = realloc(keys, cap * sizeof *k);
      if (!k) ok = 0;
      else keys = k;
    }
    for (uint32_t i = a; ok && i < e; i++) {
      uint32_t in = c->lz_in[i], key = 0;
      if (in & 2) {
        assert(in >> 2 < x);
        key = cost[in >> 2];
        if (depth[in >> 2] + 1 > depth[x]) depth[x] = depth[in >> 2] + 1;
      }
      sum += key;
      keys[i - a] = (uint64_t)key << 32 | in;
    }
    if (!ok) break;
    cost[x] = sum > COST_MAX ? COST_MAX : (uint32_t)sum;
    if (depth[x] > longest) longest = depth[x];
    if (e - a > 1) qsort(keys, e - a, sizeof *keys, cmp_u64);
    for (uint32_t i = a; i < e; i++) c->lz_in[i] = (uint32_t)keys[i - a];
  }
  free(depth), free(keys);
  /* room for a test inside each "any legal" gate's (lazy_value_at) */
  c->lz_stack = ok ? malloc(((size_t)longest + 2) * 3 * (LZ_ANY_MAX + 1) * sizeof *c->lz_stack) : NULL;
  c->epoch = 1;
  return c->lz_stack != NULL;
}

/* The lazy gates with a hook: legal moves (move_lazy), goals, terminal,
 * next rules (sk_list, not yet filed). */
static int lazy_hooks(dl_circuit *c, uint32_t g0)
{
  c->move_lazy = malloc(((size_t)c->n_moves + 1) * sizeof *c->move_lazy);
  c->lz_goal = malloc(((size_t)c->n_lazy + 1) * 2 * sizeof *c->lz_goal);
  c->lz_terminal = malloc(((size_t)c->n_lazy + 1) * sizeof *c->lz_terminal);
  c->sk_list = malloc(((size_t)c->n_lazy + 1) * SK_WORDS * sizeof *c->sk_list);
  if (!c->move_lazy || !c->lz_goal || !c->lz_terminal || !c->sk_list) return 0;
  memset(c->move_lazy, 0xff, ((size_t)c->n_moves + 1) * sizeof *c->move_lazy);
  for (uint32_t x = 0; x < c->n_lazy; x++) {
    uint32_t h = c->hook[g0 + x] & ~HAS_OUTPUTS, i = h & 0x0fffffffu;
    switch ((h >> 28) & 7) {
    case HOOK_LEGAL:
      c->move_lazy[i] = x;
      c->n_lazy_moves++;
      break;
    case HOOK_GOAL:
      c->lz_goal[2 * c->n_lz_goal] = x;
      c->lz_goal[2 * c->n_lz_goal++ + 1] = i;
      break;
    case HOOK_TERMINAL:
      c->lz_terminal[c->n_lz_terminal++] = x;
      break;
    case HOOK_NEXT:
      c->sk_list[SK_WORDS * c->n_sinks + SK_GATE] = x;
      c->sk_list[SK_WORDS * c->n_sinks++ + SK_FLUENT] = i;
      break;
    default:
      assert(h == 0);
      break;
    }
  }
  return 1;
}

/* The fluents each lazy gate needs (an AND: those of its positive inputs;
 * an OR: those all its inputs need; other thresholds: none). */
static req *needed_fluents(const dl_circuit *c, const uint32_t *gate_key)
{
  req *q = malloc(((size_t)c->n_lazy + 1) * sizeof *q);
  if (!q) return NULL;
  for (uint32_t x = 0; x < c->n_lazy; x++) {
    uint32_t a = c->lz_start[x], e = c->lz_start[x + 1], need = c->lz_need[x];
    memset(&q[x], 0xff, sizeof q[x]);
    if (need == 0 || (need > 1 && need < e - a)) continue;
    for (uint32_t i = a; i < e; i++) {
      uint32_t in = c->lz_in[i];
      req one;
      memset(&one, 0xff, sizeof one);
      if ((in & 3) == 2) one = q[in >> 2];
      else if (!(in & 3)) one.f[0] = gate_key[in >> 2];
      req_fold(&q[x], &one, need > 1, i == a);
    }
  }
  return q;
}

/* Lists each role's lazy moves that are not gated, bucket by bucket (see
 * dl_circuit.ungated); 1, or 0 when out of memory. */
static int list_ungated(dl_circuit *c)
{
  uint32_t nf = c->n_fluents + 1, n = 0;
  for (uint32_t m = 0; m < c->n_moves; m++) n += c->move_lazy[m] != NONE && !c->move_gated[m];
  c->ungated_start = malloc(((size_t)c->n_roles + 1) * sizeof *c->ungated_start);
  c->ungated = malloc(((size_t)n + 1) * 2 * sizeof *c->ungated);
  if (!c->ungated_start || !c->ungated) return 0;
  n = 0;
  for (uint32_t r = 0; r < c->n_roles; r++) {
    c->ungated_start[r] = n;
    for (uint32_t f = 0; f < nf; f++)
      for (uint32_t k = c->lzm_start[r * nf + f]; k < c->lzm_start[r * nf + f + 1]; k++)
        if (!c->move_gated[c->lzm_moves[k]]) c->ungated[2 * n] = c->lzm_moves[k], c->ungated[2 * n + 1] = f, n++;
  }
  c->ungated_start[c->n_roles] = n;
  return 1;
}

/* Files each lazy move under the fluent of its needed ones that the fewest
 * moves of its role need (n_fluents: under none). */
static int file_moves(dl_circuit *c, const req *q)
{
  uint32_t nf = c->n_fluents + 1, nb = c->n_roles * nf;
  uint32_t *count = calloc((size_t)nb + 1, sizeof *count), *bucket = malloc(((size_t)c->n_moves + 1) * 4);
  c->lzm_start = calloc((size_t)nb + 2, sizeof *c->lzm_start);
  c->lzm_moves = malloc(((size_t)c->n_lazy_moves + 1) * sizeof *c->lzm_moves);
  c->lz_cand = malloc(((size_t)c->n_lazy_moves + 1) * sizeof *c->lz_cand);
  if (!count || !bucket || !c->lzm_start || !c->lzm_moves || !c->lz_cand) {
    free(count), free(bucket);
    return 0;
  }
  for (uint32_t m = 0; m < c->n_moves; m++)
    if (c->move_lazy[m] != NONE) count_needed(&q[c->move_lazy[m]], c->n_fluents, count + c->move_role[m] * nf);
  for (uint32_t m = 0; m < c->n_moves; m++) {
    if (c->move_lazy[m] == NONE) continue;
    uint32_t base = c->move_role[m] * nf, best = rarest_needed(&q[c->move_lazy[m]], c->n_fluents, count + base);
    bucket[m] = base + best;
    c->lzm_start[base + best + 1]++;
  }
  for (uint32_t k = 0; k < nb; k++) c->lzm_start[k + 1] += c->lzm_start[k];
  memcpy(count, c->lzm_start, (size_t)nb * sizeof *count);
  for (uint32_t m = 0; m < c->n_moves; m++)
    if (c->move_lazy[m] != NONE) c->lzm_moves[count[bucket[m]]++] = m;
  free(count), free(bucket);
  return list_ungated(c);
}

/* Files each next rule (sink) under the key of its needed ones that the
 * fewest rules need (n_fluents + n_moves: under none), the cheapest first
 * in a key (cost: what order_inputs measured): once one rule has made its
 * fluent true, the others are not asked.  Each gets a guard (sink_guard). */
typedef struct sink_entry {
  uint64_t order;  /* key << 32 | cost */
  uint32_t x, f, guard;
} sink_entry;

static int cmp_sink(const void *a, const void *b)
{
  const sink_entry *p = a, *q = b;
  if (p->order != q->order) return p->order < q->order ? -1 : 1;
  return (p->x > q->x) - (p->x < q->x);
}

/* The eager gates that are ORs of moves only (chess's "a piece moves from
 * this square"), with the moves that feed each: moves[start[g] ..
 * start[g + 1]), empty for the other gates below g0. */
typedef struct move_ors {
  uint32_t *start, *moves;
} move_ors;

/* What the filing of the next rules and the packing of the records read
 * besides the circuit. */
typedef struct lazy_ctx {
  const req *q;              /* per lazy gate: the fluents and moves it needs */
  const uint32_t *cost;      /* per lazy gate: the gates it reads (order_inputs) */
  const uint32_t *gate_key;  /* per eager offset: its fluent's or move's key (input_keys) */
  const uint32_t *off;       /* per eager gate: its offset */
  uint32_t g0, cone_off;     /* the first lazy gate; the offset where the move cone starts */
  move_ors mo;               /* file_sinks's */
  uint8_t *is_any;           /* pack_records's: per lazy gate, an "any legal" one */
} lazy_ctx;

/* The code of the first positive eager input of lazy gate x, an AND, in
 * the move cone (when cone) or anywhere, whose key is not skip; NONE when
 * x is no AND or has none. */
static uint32_t and_eager_input(const dl_circuit *c, const lazy_ctx *lc, uint32_t x, int cone, uint32_t skip)
{
  uint32_t a = c->lz_start[x], e = c->lz_start[x + 1];
  for (uint32_t j = a; c->lz_need[x] == e - a && j < e; j++) {  /* an AND: each input is needed */
    uint32_t w = c->lz_in[j];
    if (!(w & 3) && (!cone || w >> 2 >= lc->cone_off) && (skip == NONE || lc->gate_key[w >> 2] != skip))
      return record_code(c, w, NULL, lc->gate_key);
  }
  return NONE;
}

/* The guard of sink x filed under key: the code of a positive eager input
 * or fluent of x (an AND) other than the key's, one in the move cone
 * first; NONE when none.  Filed under a fluent that holds, a sink is
 * asked only when its guard holds too: chess's discovered checks are
 * filed under the square of the piece that gives them and guarded by the
 * king's square, and of the 660 a state asked without guards, 0.06 held. */
static uint32_t sink_guard(const dl_circuit *c, const lazy_ctx *lc, uint32_t x, uint32_t key)
{
  uint32_t guard = and_eager_input(c, lc, x, 1, key);
  return guard != NONE ? guard : and_eager_input(c, lc, x, 0, key);
}

/* The eager gate (below g0) that wire i feeds positively, or NONE. */
static uint32_t positive_target(const dl_circuit *c, uint32_t g0, uint32_t i)
{
  return c->outs[i] >> 2 < g0 && !(c->outs[i] >> 1 & 1) ? c->outs[i] >> 2 : NONE;
}

static int find_move_ors(const dl_circuit *c, uint32_t g0, move_ors *mo)
{
  uint32_t *in = calloc((size_t)g0 + 1, sizeof *in), *fed = calloc((size_t)g0 + 1, sizeof *fed);
  mo->start = calloc((size_t)g0 + 2, sizeof *mo->start);
  if (!in || !fed || !mo->start) {
    free(in), free(fed);
    return 0;
  }
  for (uint32_t s = 0; s < c->n_gates; s++)
    for (uint32_t i = c->out_start[s]; i < c->out_start[s + 1]; i++)
      if (c->outs[i] >> 2 < g0) in[c->outs[i] >> 2]++;
  for (uint32_t m = 0; m < c->n_moves; m++)
    for (uint32_t g = c->move_gate[m], i = g == NONE ? 0 : c->out_start[g]; g != NONE && i < c->out_start[g + 1]; i++)
      if (positive_target(c, g0, i) != NONE) fed[positive_target(c, g0, i)]++;
  for (uint32_t t = 0; t < g0; t++)
    mo->start[t + 1] = mo->start[t] + (c->kind[t] == KIND_OR && in[t] && fed[t] == in[t] ? in[t] : 0);
  mo->moves = malloc(((size_t)mo->start[g0] + 1) * sizeof *mo->moves);
  if (mo->moves) memcpy(in, mo->start, (size_t)g0 * sizeof *in);  /* in: where each gate's next move goes */
  for (uint32_t m = 0; mo->moves && m < c->n_moves; m++)
    for (uint32_t g = c->move_gate[m], i = g == NONE ? 0 : c->out_start[g]; g != NONE && i < c->out_start[g + 1]; i++) {
      uint32_t t = positive_target(c, g0, i);
      if (t != NONE && mo->start[t + 1] > mo->start[t]) mo->moves[in[t]++] = m;
    }
  free(in), free(fed);
  return mo->moves != NULL;
}

/* The eager gate at offset w among the first g0 (off: offsets by gate). */
static uint32_t gate_at(const uint32_t *off, uint32_t g0, uint32_t w)
{
  uint32_t lo = 0, hi = g0;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (off[mid] <= w) lo = mid;
    else hi = mid;
  }
  assert(off[lo] == w);
  return lo;
}

/* An OR of moves only among sink x's positive eager inputs (an AND's), or
 * NONE: the sink can hold only after one of its moves. */
static uint32_t sink_move_or(const dl_circuit *c, const lazy_ctx *lc, uint32_t x)
{
  uint32_t a = c->lz_start[x], e = c->lz_start[x + 1];
  if (c->lz_need[x] != e - a) return NONE;
  for (uint32_t j = a; j < e; j++) {
    uint32_t w = c->lz_in[j], g = w & 3 ? NONE : gate_at(lc->off, lc->g0, w >> 2);
    if (g != NONE && lc->mo.start[g + 1] > lc->mo.start[g]) return g;
  }
  return NONE;
}

/* Appends the entries of sink s (of sk_list) to e[*n ..]: one under its
 * key, or, when it is filed under none but through g, an OR of moves only
 * among its inputs (chess's "a piece moves from this square, which is
 * empty next"), one under each of those moves: a joint move asks its few,
 * not all 600. */
static void sink_entries(const dl_circuit *c, const lazy_ctx *lc, const uint32_t *count, uint32_t s, uint32_t g,
                         sink_entry *e, uint32_t *n)
{
  const uint32_t *sk = c->sk_list + SK_WORDS * s;
  uint32_t none = c->n_fluents + c->n_moves, x = sk[SK_GATE], f = sk[SK_FLUENT];
  uint32_t key = rarest_needed(&lc->q[x], none, count);
  if (g == NONE) {
    uint32_t guard = sink_guard(c, lc, x, key);
    e[(*n)++] = (sink_entry){ (uint64_t)key << 32 | lc->cost[x], x, f, guard };
    return;
  }
  for (uint32_t i = lc->mo.start[g]; i < lc->mo.start[g + 1]; i++)
    e[(*n)++] = (sink_entry){ (uint64_t)(c->n_fluents + lc->mo.moves[i]) << 32 | lc->cost[x], x, f, NONE };
}

/* A sink is filed under the moves of an OR of at most MOVE_OR_MAX moves,
 * while the entries stay within ENTRIES_PER_SINK a sink (and a margin):
 * the filing multiplies them. */
enum { MOVE_OR_MAX = 256, ENTRIES_PER_SINK = 8, ENTRIES_MARGIN = 65536 };

/* The OR of moves each sink is filed through (see sink_entries), or NONE:
 * via[s].  Returns the entries they make. */
static size_t sinks_via_moves(const dl_circuit *c, const lazy_ctx *lc, uint32_t *via)
{
  size_t entries = c->n_sinks, budget = ENTRIES_PER_SINK * (size_t)c->n_sinks + ENTRIES_MARGIN;
  for (uint32_t s = 0; s < c->n_sinks; s++) {
    uint32_t x = c->sk_list[SK_WORDS * s + SK_GATE], g = NONE;
    if (lc->q[x].f[0] == NONE) g = sink_move_or(c, lc, x);  /* filed under none */
    size_t k = g == NONE ? 0 : lc->mo.start[g + 1] - lc->mo.start[g];
    if (k > MOVE_OR_MAX || entries + k > budget) g = NONE, k = 0;
    via[s] = g;
    entries += k ? k - 1 : 0;
  }
  return entries;
}

static int file_sinks(dl_circuit *c, lazy_ctx *lc)
{
  uint32_t nk = c->n_fluents + c->n_moves + 1, none = nk - 1, n = c->n_sinks, n_entries = 0;
  uint32_t *count = calloc((size_t)nk + 1, sizeof *count), *via = malloc(((size_t)n + 1) * sizeof *via);
  if (!count || !via || !find_move_ors(c, lc->g0, &lc->mo)) {
    free(count), free(via);
    return 0;
  }
  for (uint32_t s = 0; s < n; s++) count_needed(&lc->q[c->sk_list[SK_WORDS * s + SK_GATE]], none, count);
  sink_entry *e = malloc((sinks_via_moves(c, lc, via) + 1) * sizeof *e);
  c->sk_start = calloc((size_t)nk + 2, sizeof *c->sk_start);
  if (!e || !c->sk_start) {
    free(count), free(via), free(e);
    return 0;
  }
  for (uint32_t s = 0; s < n; s++) sink_entries(c, lc, count, s, via[s], e, &n_entries);
  free(count), free(via);
  uint32_t *sk = realloc(c->sk_list, ((size_t)n_entries + 1) * SK_WORDS * sizeof *sk);
  if (!sk) {
    free(e);
    return 0;
  }
  c->sk_list = sk;
  c->stats.lazy_next_rules = n;
  c->n_sinks = n_entries;
  qsort(e, n_entries, sizeof *e, cmp_sink);
  for (uint32_t k = 0; k < n_entries; k++) {
    c->sk_start[(e[k].order >> 32) + 1]++;
    uint32_t *entry = sk + SK_WORDS * k;
    entry[SK_GATE] = e[k].x, entry[SK_FLUENT] = e[k].f, entry[SK_GUARD] = e[k].guard;
  }
  for (uint32_t k = 0; k < nk; k++) c->sk_start[k + 1] += c->sk_start[k];
  free(e);
  return 1;
}

/* The key of each eager gate that is a fluent's or a move's input, by
 * offset (NONE for the others). */
static uint32_t *input_keys(const dl_circuit *c, const uint32_t *off, uint32_t g0)
{
  uint32_t *key = malloc(((size_t)off[g0] + 1) * sizeof *key);
  if (!key) return NULL;
  memset(key, 0xff, ((size_t)off[g0] + 1) * sizeof *key);
  for (uint32_t m = 0; m < c->n_moves; m++) {
    assert(c->move_gate[m] == NONE || c->move_gate[m] < g0);  /* inputs are never lazy */
    if (c->move_gate[m] != NONE) key[off[c->move_gate[m]]] = c->n_fluents + m;
  }
  for (uint32_t f = 0; f < c->n_fluents; f++)
    if (c->fluent_gate[f] != NONE) key[off[c->fluent_gate[f]]] = f;
  return key;
}

/* The role whose lazy legal moves are every input of lazy gate x, an OR
 * of LZ_ANY_MIN inputs or more (move: per lazy gate, the move whose legal
 * gate it is, or NONE); NONE when it is not such a gate. */
static uint32_t any_legal_role(const dl_circuit *c, uint32_t x, const uint32_t *move)
{
  uint32_t a = c->lz_start[x], e = c->lz_start[x + 1], r = NONE;
  if (c->lz_need[x] != 1 || e - a < LZ_ANY_MIN) return NONE;
  for (uint32_t i = a; i < e; i++) {
    uint32_t w = c->lz_in[i], m = (w & 3) == 2 ? move[w >> 2] : NONE;
    if (m == NONE || (r != NONE && c->move_role[m] != r)) return NONE;
    r = c->move_role[m];
  }
  return r;
}

/* Finds the "any legal" gates (see dl_circuit.any_gate; dense numbers
 * until pack_records); 1, or 0 when out of memory. */
static int find_any_legal(dl_circuit *c)
{
  uint32_t *move = malloc(((size_t)c->n_lazy + 1) * sizeof *move);
  c->any_in = calloc((size_t)c->n_moves + 1, 1);
  if (!move || !c->any_in) {
    free(move);
    return 0;
  }
  memset(move, 0xff, ((size_t)c->n_lazy + 1) * sizeof *move);
  for (uint32_t m = 0; m < c->n_moves; m++)
    if (c->move_lazy[m] != NONE) move[c->move_lazy[m]] = m;
  for (uint32_t x = 0; x < c->n_lazy && c->n_any < LZ_ANY_MAX; x++) {
    uint32_t r = any_legal_role(c, x, move);
    if (r == NONE) continue;
    for (uint32_t i = c->lz_start[x]; i < c->lz_start[x + 1]; i++)
      c->any_in[move[c->lz_in[i] >> 2]] |= (uint8_t)(1u << c->n_any);
    c->any_gate[c->n_any] = x;
    c->any_role[c->n_any++] = r;
  }
  free(move);
  return 1;
}

/* Places lazy gate `root` and, depth first, the lazy gates it reads (in
 * the order it reads them) not yet placed: order[*k ..].  st: room for two
 * numbers per lazy gate. */
static void place_reads(const dl_circuit *c, uint32_t root, uint8_t *placed, uint32_t *order, uint32_t *k,
                        uint32_t *st)
{
  if (placed[root]) return;
  uint32_t sp = 0;
  placed[root] = 1, order[(*k)++] = root;
  st[sp++] = root, st[sp++] = c->lz_start[root];
  while (sp) {
    uint32_t x = st[sp - 2], i = st[sp - 1], e = c->lz_start[x + 1];
    while (i < e && !((c->lz_in[i] & 2) && !placed[c->lz_in[i] >> 2])) i++;
    if (i == e) {
      sp -= 2;
      continue;
    }
    uint32_t y = c->lz_in[i] >> 2;
    st[sp - 1] = i + 1;
    placed[y] = 1, order[(*k)++] = y;
    st[sp++] = y, st[sp++] = c->lz_start[y];
  }
}

/* The order of the lazy records: what one test reads lies together, so a
 * test reads a few runs of memory instead of a cache line per gate (chess's
 * lazy gates take 100 MB).  Depth first from the legal moves in the order
 * of their buckets, then from the next rules, goals and terminal; then the
 * gates of the move cone after the others (the stamps tell them apart by
 * lz_cone0).  NULL when out of memory. */
static uint32_t *record_order(const dl_circuit *c)
{
  uint32_t n = c->n_lazy, k = 0, nb = c->n_roles * (c->n_fluents + 1);
  uint8_t *placed = calloc((size_t)n + 1, 1);
  uint32_t *order = malloc(((size_t)n + 1) * sizeof *order), *st = malloc(((size_t)n + 1) * 2 * sizeof *st);
  uint32_t *out = malloc(((size_t)n + 1) * sizeof *out);
  if (placed && order && st && out) {
    for (uint32_t i = 0; i < c->lzm_start[nb]; i++)
      place_reads(c, c->move_lazy[c->lzm_moves[i]], placed, order, &k, st);
    for (uint32_t i = 0; i < c->n_sinks; i++) place_reads(c, c->sk_list[SK_WORDS * i], placed, order, &k, st);
    for (uint32_t i = 0; i < c->n_lz_goal; i++) place_reads(c, c->lz_goal[2 * i], placed, order, &k, st);
    for (uint32_t i = 0; i < c->n_lz_terminal; i++) place_reads(c, c->lz_terminal[i], placed, order, &k, st);
    for (uint32_t x = 0; x < n; x++) place_reads(c, x, placed, order, &k, st);
    assert(k == n);
    k = 0;
    for (int cone = 0; cone < 2; cone++)
      for (uint32_t i = 0; i < n; i++)
        if ((order[i] >= c->lz_cone0) == cone) out[k++] = order[i];
  }
  free(placed), free(order), free(st);
  if (k != n) {
    free(out);
    return NULL;
  }
  return out;
}

/* The guard of input i of lazy gate x (see dl_circuit.lz), as an input
 * code, when x is an OR and the input a lazy gate: a positive eager input
 * of that gate in the move cone when it is an AND (chess's "a piece moved
 * from this square", true for one square of 64), else a fluent it needs;
 * NONE when none. */
static uint32_t input_guard(const dl_circuit *c, const lazy_ctx *lc, uint32_t x, uint32_t i)
{
  uint32_t in = c->lz_in[i], y = in >> 2;
  if (c->lz_need[x] != 1 || lc->is_any[x] || (in & 3) != 2) return NONE;
  uint32_t guard = and_eager_input(c, lc, y, 1, NONE);
  for (int k = 0; guard == NONE && k < REQ && lc->q[y].f[k] != NONE; k++)
    if (lc->q[y].f[k] < c->n_fluents) guard = lc->q[y].f[k] << 3 | 4;
  return guard;
}

/* The words of lazy gate x's record. */
static uint32_t record_words(const dl_circuit *c, const lazy_ctx *lc, uint32_t x)
{
  uint32_t words = LZ_IN;
  for (uint32_t i = c->lz_start[x]; i < c->lz_start[x + 1]; i++) words += 1 + (input_guard(c, lc, x, i) != NONE);
  return words;
}

/* Packs the lazy gates into their records (dl_circuit.lz): a test reads a
 * gate's value, its count and its first inputs in one place, and a
 * fluent's value off the state.  Renames the gates by their offsets; frees
 * the dense lists.  1, 0 when out of memory, -1 when too large. */
static int pack_records(dl_circuit *c, lazy_ctx *lc)
{
  uint32_t n = c->n_lazy, *rec = malloc(((size_t)n + 1) * sizeof *rec), *order = record_order(c), cone0 = NONE;
  uint8_t *is_any = lc->is_any = calloc((size_t)n + 1, 1);
  uint64_t words = 0;
  if (!rec || !order || !is_any) {
    free(rec), free(order), free(is_any);
    return 0;
  }
  for (uint32_t k = 0; k < c->n_any; k++) is_any[c->any_gate[k]] = 1;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t x = order[k];
    if (x >= c->lz_cone0 && cone0 == NONE) cone0 = (uint32_t)words;
    rec[x] = (uint32_t)words, words += record_words(c, lc, x);
  }
  free(order);
  if (words >= (1u << 29)) {
    free(rec), free(is_any);
    return -1;
  }
  c->lz_words = (uint32_t)words;
  c->lz = malloc((words + 1) * sizeof *c->lz);
  if (!c->lz) {
    free(rec), free(is_any);
    return 0;
  }
  for (uint32_t x = 0; x < n; x++) {
    uint32_t *r = c->lz + rec[x], a = c->lz_start[x], e = c->lz_start[x + 1], w = LZ_IN;
    r[LZ_MEMO] = 0, r[LZ_NEED] = c->lz_need[x];
    for (uint32_t i = a; i < e; i++) {
      uint32_t guard = input_guard(c, lc, x, i);
      r[w++] = record_code(c, c->lz_in[i], rec, lc->gate_key) | (guard != NONE ? LZ_GUARDED : 0);
      if (guard != NONE) r[w++] = guard;
    }
    r[LZ_N] = w - LZ_IN;
  }
  free(is_any);
  lc->is_any = NULL;
  c->lz_cone0 = cone0 == NONE ? (uint32_t)words : cone0;
  for (uint32_t m = 0; m < c->n_moves; m++)
    if (c->move_lazy[m] != NONE) c->move_lazy[m] = rec[c->move_lazy[m]];
  for (uint32_t k = 0; k < c->n_lz_goal; k++) c->lz_goal[2 * k] = rec[c->lz_goal[2 * k]];
  for (uint32_t k = 0; k < c->n_lz_terminal; k++) c->lz_terminal[k] = rec[c->lz_terminal[k]];
  for (uint32_t k = 0; k < c->n_sinks; k++) c->sk_list[SK_WORDS * k] = rec[c->sk_list[SK_WORDS * k]];
  for (uint32_t k = 0; k < c->n_any; k++) {
    c->any_gate[k] = rec[c->any_gate[k]];
    c->lz[c->any_gate[k] + LZ_NEED] = LZ_ANY | k;
  }
  free(rec);
  free(c->lz_start), free(c->lz_in), free(c->lz_need);
  c->lz_start = c->lz_in = c->lz_need = NULL;
  return 1;
}

/* The lists of the state's fluents that key a role's lazy moves or the
 * next rules (dl_circuit.true_list), and which fluents belong in which;
 * 1, or 0 when out of memory. */
static int key_fluents(dl_circuit *c)
{
  size_t nk = (size_t)c->n_roles + 1, nf = (size_t)c->n_fluents + 1;
  c->true_list = malloc(nk * nf * sizeof *c->true_list);
  c->n_true = calloc(nk, sizeof *c->n_true);
  c->true_key = calloc(nk * nf, 1);
  if (!c->true_list || !c->n_true || !c->true_key) return 0;
  for (uint32_t f = 0; f < c->n_fluents; f++) {
    uint8_t *key = c->true_key + f * nk;
    for (uint32_t r = 0; r < c->n_roles; r++) key[r] = c->lzm_start[r * nf + f + 1] > c->lzm_start[r * nf + f];
    key[c->n_roles] = c->sk_start[f + 1] > c->sk_start[f];
  }
  return 1;
}

int cc_lazy_build(build *b, const uint32_t *off, uint32_t g0)
{
  dl_circuit *c = b->c;
  c->lazy = 1;
  c->n_lazy = c->n_gates - g0;
  c->lz_cone0 -= g0;
  c->mepoch = 1;
  uint32_t *gate_key = input_keys(c, off, g0), *cost = malloc(((size_t)c->n_lazy + 1) * sizeof *cost);
  req *q = NULL;
  int ok = gate_key && cost && lazy_inputs(c, off, g0) && order_inputs(c, cost) && lazy_hooks(c, g0);
  lazy_ctx lc = { NULL, cost, gate_key, off, g0, off[c->cone_start], { NULL, NULL }, NULL };
  if (ok) {
    lc.q = q = needed_fluents(c, gate_key);
    ok = q && file_moves(c, q) && file_sinks(c, &lc) && find_any_legal(c);
  }
  free(lc.mo.start), free(lc.mo.moves);
  ok = ok && (c->legal_epoch = calloc(c->n_roles + 1, sizeof *c->legal_epoch)) != NULL;
  ok = ok && (c->legal_count = calloc(c->n_roles + 1, sizeof *c->legal_count)) != NULL;
  ok = ok && key_fluents(c);
  if (ok) {
    c->stats.lazy_gates = c->n_lazy;
    c->stats.lazy_wires = c->lz_start[c->n_lazy];
  }
  int packed = ok ? pack_records(c, &lc) : 0;
  free(gate_key), free(cost), free(q);
  if (packed < 0) dl_diag_fail(b->diag, DL_CAUSE_LIMIT, "the ground game is too large for a circuit");
  return packed > 0 ? 1 : packed < 0 ? 0 : cc_oom(b);
}

/* The lazy moves a state tests are those filed under its fluents or under
 * none: in chess's initial state 255 of 7,622 (the moves of the pieces on
 * their squares).  snakeAssemblit's initial state tests 62 of its 66, each
 * a search over the board, and it plays 842 playouts per processor second
 * lazy against about 45,000 eager (64 lanes at a time); mummymaze1p (5 of 5) and
 * urmAdd (324 of 324) are slower lazy too, one playout at a time. */
enum { LAZY_TESTED = 50 };

int cc_lazy_pays(const dl_circuit *c)
{
  assert(c && c->lazy);
  uint64_t tested = 0;
  for (uint32_t r = 0; r < c->n_roles; r++) {
    uint32_t base = r * (c->n_fluents + 1);
    tested += c->lzm_start[base + c->n_fluents + 1] - c->lzm_start[base + c->n_fluents];
    for (uint32_t f = 0; f < c->n_fluents; f++)
      if (c->cur[f >> 6] >> (f & 63) & 1) tested += c->lzm_start[base + f + 1] - c->lzm_start[base + f];
  }
  return tested * 100 <= (uint64_t)LAZY_TESTED * c->n_lazy_moves;
}
