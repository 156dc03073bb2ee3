/* circuit_wide.c: random playouts 64 at a time on an eager circuit, one bit
 * per playout (a lane) in every gate's 64-bit word (see circuit.h,
 * dl_circuit_wide_playouts).  Every step evaluates every gate once for the
 * 64 states: the gates that do not read a move, then (the joint moves
 * chosen) those that do, and the goal-only gates when a lane reached a
 * terminal state.  Within each of these parts the gates go by level, and
 * within a level by shape (AND or OR, numbers of positive and of negated
 * inputs), so that a run of gates of one shape is one tight loop.  A cyclic
 * block is iterated from all false to its least fixpoint (its wires are
 * positive). */
#include "datalog/gdl/circuit_build.h"

#include "datalog/base/sort.h"

#include <assert.h>

enum { LANES = 64 };

/* A gate's record: op << 28 | its number (below 2^28, see alloc_gates),
 * then for OP_AND and OP_OR its numbers of positive and of negated inputs
 * and those inputs' gates, the positive ones first; for OP_THR its number
 * of inputs, the true inputs it needs and its inputs (gate << 1 |
 * negated).  The code is a sequence of runs (see lay_out):
 * - OP_AND or OP_OR << 28 | k, np, nn, then k gates of that shape, each
 *   as its number and its np + nn inputs;
 * - OP_THR << 28 | k, then k OP_THR records;
 * - OP_BLOCK << 28, the length of its members' records, then those. */
enum { OP_AND, OP_OR, OP_THR, OP_BLOCK };
#define GATE_MASK 0x0fffffffu

struct cc_wide {
  uint32_t n_gates, n_roles, n_fluents;
  uint64_t *v;             /* per gate: its value in each lane; v[n_gates] stays 0 */
  uint32_t *code;
  uint32_t seg[3];         /* code offsets where the move part and the goal part start; the end */
  uint32_t max_need;
  uint64_t *count;         /* room for max_need + 1 words (at-least counting) */
  uint32_t *fluent_gate;   /* per fluent: its input gate, or n_gates */
  uint32_t *next_gate;     /* per fluent: the gate of its next atom, or n_gates */
  uint32_t *legal_gate;    /* per move: the gate of its legal atom, or n_gates */
  uint32_t *move_input;    /* per move: its does input gate, or n_gates */
  uint8_t *move_gated;
  uint32_t *role_start;    /* moves of role r: role_start[r] .. role_start[r + 1] */
  uint32_t *role_gate;     /* per role: its gated moves' literal's gate, or NONE */
  uint8_t *role_gate_neg;
  uint32_t n_terminal, *terminal_gate;
  uint32_t n_goals, *goal_gate, *goal_role;
  int32_t *goal_value;
  uint64_t *state;         /* per fluent: its value in each lane */
  uint32_t depth[LANES], n_legal[LANES], pick[LANES];
  uint32_t *joint;         /* per lane: a move per role */
  int32_t *goals, *goal_n; /* per lane and role: value, number of true goal atoms */
  uint32_t *set_inputs, n_set;  /* the does inputs set now */
  uint32_t *cand_move;     /* a role's moves legal in some lane, and those lanes */
  uint64_t *cand_lanes;
  size_t bytes;
};

/* ---------------------------------------------------------------------
 * Building: from the compiler's dense gates (circuit_layout.c) */

/* Inputs per gate (gate << 1 | negated) into *in_start / *ins. */
static int input_lists(const dl_circuit *c, uint32_t **in_start, uint32_t **ins)
{
  *in_start = calloc((size_t)c->n_gates + 2, sizeof **in_start);
  *ins = malloc(((size_t)c->n_edges + 1) * sizeof **ins);
  uint32_t *fill = malloc(((size_t)c->n_gates + 1) * sizeof *fill);
  if (!*in_start || !*ins || !fill) {
    free(fill);
    return 0;
  }
  for (uint32_t e = 0; e < c->n_edges; e++) (*in_start)[(c->outs[e] >> 2) + 1]++;
  for (uint32_t g = 0; g < c->n_gates; g++) (*in_start)[g + 1] += (*in_start)[g];
  memcpy(fill, *in_start, (size_t)c->n_gates * sizeof *fill);
  for (uint32_t g = 0; g < c->n_gates; g++)
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++)
      (*ins)[fill[c->outs[i] >> 2]++] = g << 1 | ((c->outs[i] >> 1) & 1);
  free(fill);
  return 1;
}

/* The true inputs gate g needs (its counter starts at 2^31 - need + its
 * negated inputs, see add_edge in circuit_compile.c). */
static int64_t gate_need(const dl_circuit *c, uint32_t g, const uint32_t *ins, uint32_t n)
{
  int64_t negs = 0;
  for (uint32_t i = 0; i < n; i++) negs += ins[i] & 1;
  return (int64_t)TOP + negs - (int64_t)c->counter[g];
}

/* Appends gate g's record at code[*len] (the code has room); a gate whose
 * value never changes gets none and its word is set once. */
static void emit_gate(const dl_circuit *c, cc_wide *w, uint32_t g, const uint32_t *in_start, const uint32_t *ins,
                      uint32_t *len)
{
  const uint32_t *in = ins + in_start[g];
  uint32_t n = in_start[g + 1] - in_start[g];
  int64_t need = gate_need(c, g, in, n);
  if (need <= 0 || need > n) {
    w->v[g] = need <= 0 ? ~(uint64_t)0 : 0;
    return;
  }
  uint32_t op = need == 1 ? OP_OR : need == n ? OP_AND : OP_THR, *r = w->code + *len;
  *r++ = (uint32_t)op << 28 | g;
  *r++ = n;
  if (op == OP_THR) {
    *r++ = (uint32_t)need;
    if (need > w->max_need) w->max_need = (uint32_t)need;
    memcpy(r, in, n * sizeof *r);
    *len = (uint32_t)(r + n - w->code);
    return;
  }
  uint32_t np = 0;
  for (uint32_t i = 0; i < n; i++) np += !(in[i] & 1);
  r[-1] = np, r[0] = n - np;
  uint32_t *pos = r + 1, *neg = pos + np;
  for (uint32_t i = 0; i < n; i++) *((in[i] & 1) ? neg++ : pos++) = in[i] >> 1;
  *len = (uint32_t)(neg - w->code);
}

/* The length of the gate record r (no block). */
static inline uint32_t record_len(const uint32_t *r) { return 3 + r[1] + ((r[0] >> 28) == OP_THR ? 0 : r[2]); }

/* The records of every gate but the inputs, blocks as one record each,
 * and the offsets of the move part and the goal part (dense cone_start and
 * goal_start). */
static void emit_code(const dl_circuit *c, cc_wide *w, const uint32_t *in_start, const uint32_t *ins)
{
  uint32_t len = 0;
  w->seg[0] = w->seg[1] = NONE;
  for (uint32_t g = 0; g < c->n_gates;) {
    if (g >= c->cone_start && w->seg[0] == NONE) w->seg[0] = len;
    if (g >= c->goal_start && w->seg[1] == NONE) w->seg[1] = len;
    if (c->kind[g] == KIND_INPUT) {
      g++;
      continue;
    }
    if (!c->block[g]) {
      emit_gate(c, w, g, in_start, ins, &len);
      g++;
      continue;
    }
    uint32_t head = len, e = g;
    while (e < c->n_gates && c->block[e] == c->block[g]) e++;
    len += 2;
    for (uint32_t x = g; x < e; x++) emit_gate(c, w, x, in_start, ins, &len);
    w->code[head] = (uint32_t)OP_BLOCK << 28;
    w->code[head + 1] = len - head - 2;
    g = e;
  }
  if (w->seg[0] == NONE) w->seg[0] = len;
  if (w->seg[1] == NONE) w->seg[1] = len;
  w->seg[2] = len;
}

/* The hooks' gates: legal moves, next atoms, terminal, goals. */
static void read_hooks(const dl_circuit *c, cc_wide *w)
{
  for (uint32_t g = 0; g < c->n_gates; g++) {
    uint32_t h = c->hook[g] & ~HAS_OUTPUTS, i = h & 0x0fffffffu;
    switch ((h >> 28) & 7) {
    case HOOK_LEGAL: w->legal_gate[i] = g; break;
    case HOOK_NEXT: w->next_gate[i] = g; break;
    case HOOK_GOAL:
      w->goal_gate[w->n_goals] = g;
      w->goal_role[w->n_goals] = c->goal_role[i];
      w->goal_value[w->n_goals++] = c->goal_value[i];
      break;
    case HOOK_TERMINAL: w->terminal_gate[w->n_terminal++] = g; break;
    default: break;
    }
  }
}

/* ---------------------------------------------------------------------
 * Laying out: emit_code's records (topological, gate by gate) sorted, in
 * each part, by level (one more than the highest input's in the same part)
 * and then by shape, grouped into runs, and the gates renumbered in that
 * order so that a sweep writes their words in sequence. */

typedef struct item {
  uint32_t part, level, shape, at;  /* sort key; at: offset in emit_code's code */
} item;

enum { SHAPE_BLOCK = 0xffffffffu };

static int cmp_item(const void *a, const void *b, void *ctx)
{
  const item *x = a, *y = b;
  (void)ctx;
  if (x->part != y->part) return x->part < y->part ? -1 : 1;
  if (x->level != y->level) return x->level < y->level ? -1 : 1;
  if (x->shape != y->shape) return x->shape < y->shape ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* A record's shape: records of one shape may share a run. */
static uint32_t shape_of(const uint32_t *r)
{
  uint32_t op = r[0] >> 28;
  if (op == OP_THR) return (uint32_t)OP_THR << 28;
  return op << 28 | (r[1] < 0x3fff ? r[1] : 0x3fff) << 14 | (r[2] < 0x3fff ? r[2] : 0x3fff);
}

/* The highest level among record r's inputs. */
static uint32_t input_level(const uint32_t *r, const uint32_t *lvl)
{
  uint32_t thr = (r[0] >> 28) == OP_THR, n = thr ? r[1] : r[1] + r[2], top = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t x = thr ? r[3 + i] >> 1 : r[3 + i];
    if (lvl[x] > top) top = lvl[x];
  }
  return top;
}

/* Item it's level (at least base, the first level of its part), set as its
 * gates' in lvl. */
static void level_item(const uint32_t *code, item *it, uint32_t base, uint32_t *lvl)
{
  const uint32_t *r = code + it->at;
  if (it->shape != SHAPE_BLOCK) {
    uint32_t l = input_level(r, lvl) + 1;
    it->level = lvl[r[0] & GATE_MASK] = l > base ? l : base;
    return;
  }
  const uint32_t *m = r + 2, *end = m + r[1];
  uint32_t l = base;
  for (const uint32_t *q = m; q < end; q += record_len(q)) {  /* members' own levels are still 0 */
    uint32_t x = input_level(q, lvl) + 1;
    if (x > l) l = x;
  }
  for (const uint32_t *q = m; q < end; q += record_len(q)) lvl[q[0] & GATE_MASK] = l;
  it->level = l;
}

/* The items of the code, levelled; their number, or NONE when out of memory. */
static uint32_t collect_items(const cc_wide *w, item **out)
{
  uint32_t n = 0, *lvl = calloc((size_t)w->n_gates + 1, sizeof *lvl);
  item *it = malloc(((size_t)w->seg[2] / 3 + 1) * sizeof *it);  /* a record is 3 words or more */
  if (!lvl || !it) {
    free(lvl), free(it);
    return NONE;
  }
  uint32_t part = 0, base = 1, top = 0;
  for (uint32_t p = 0; p < w->seg[2]; n++) {
    while (part < 2 && p >= w->seg[part]) part++, base = top + 1;
    int block = (w->code[p] >> 28) == OP_BLOCK;
    it[n] = (item){ part, 0, block ? SHAPE_BLOCK : shape_of(w->code + p), p };
    level_item(w->code, it + n, base, lvl);
    if (it[n].level > top) top = it[n].level;
    p += block ? 2 + w->code[p + 1] : record_len(w->code + p);
  }
  free(lvl);
  *out = it;
  return n;
}

/* New gate numbers: the gates with no record (inputs, constants) first,
 * then those of the items in their order; new_of[n_gates] = n_gates. */
static void renumber(const cc_wide *w, const item *it, uint32_t n, uint32_t *new_of)
{
  uint32_t next = 0;
  for (uint32_t g = 0; g <= w->n_gates; g++) new_of[g] = NONE;
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t *r = w->code + it[k].at;
    if (it[k].shape != SHAPE_BLOCK) {
      new_of[r[0] & GATE_MASK] = 0;
      continue;
    }
    for (const uint32_t *q = r + 2, *end = q + r[1]; q < end; q += record_len(q)) new_of[q[0] & GATE_MASK] = 0;
  }
  for (uint32_t g = 0; g < w->n_gates; g++)
    if (new_of[g] == NONE) new_of[g] = next++;
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t *r = w->code + it[k].at;
    if (it[k].shape != SHAPE_BLOCK) new_of[r[0] & GATE_MASK] = next++;
    else
      for (const uint32_t *q = r + 2, *end = q + r[1]; q < end; q += record_len(q)) new_of[q[0] & GATE_MASK] = next++;
  }
  new_of[w->n_gates] = w->n_gates;
}

/* Writes record r renumbered at *o: whole (with_head) or as a run member. */
static uint32_t *put_record(const uint32_t *r, const uint32_t *new_of, uint32_t *o, int with_head)
{
  uint32_t op = r[0] >> 28, thr = op == OP_THR, n = thr ? r[1] : r[1] + r[2];
  if (with_head || thr) {
    *o++ = op << 28 | new_of[r[0] & GATE_MASK];
    *o++ = r[1], *o++ = r[2];
  } else *o++ = new_of[r[0] & GATE_MASK];
  for (uint32_t i = 0; i < n; i++) *o++ = thr ? new_of[r[3 + i] >> 1] << 1 | (r[3 + i] & 1) : new_of[r[3 + i]];
  return o;
}

/* The runs of the sorted items into out; sets seg[]. */
static uint32_t *put_runs(cc_wide *w, const item *it, uint32_t n, const uint32_t *new_of, uint32_t *out)
{
  uint32_t *o = out, *run = NULL, part = 0;
  w->seg[0] = w->seg[1] = NONE;
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t *r = w->code + it[k].at;
    for (; part < it[k].part; part++) w->seg[part] = (uint32_t)(o - out), run = NULL;
    if (it[k].shape == SHAPE_BLOCK) {
      uint32_t *head = o;
      o += 2;
      for (const uint32_t *q = r + 2, *end = q + r[1]; q < end; q += record_len(q)) o = put_record(q, new_of, o, 1);
      head[0] = (uint32_t)OP_BLOCK << 28, head[1] = (uint32_t)(o - head - 2);
      run = NULL;
      continue;
    }
    uint32_t thr = (r[0] >> 28) == OP_THR;
    if (!run || (run[0] >> 28) != (r[0] >> 28) || (!thr && (run[1] != r[1] || run[2] != r[2]))) {
      run = o;
      *o++ = r[0] & ~GATE_MASK;
      if (!thr) *o++ = r[1], *o++ = r[2];
    }
    run[0]++;
    o = put_record(r, new_of, o, 0);
  }
  for (; part < 2; part++) w->seg[part] = (uint32_t)(o - out);
  w->seg[2] = (uint32_t)(o - out);
  return o;
}

static void remap_all(uint32_t *x, size_t n, const uint32_t *new_of)
{
  for (size_t i = 0; i < n; i++)
    if (x[i] != NONE) x[i] = new_of[x[i]];
}

/* Renumbers the gates in the arrays that name them, and their words. */
static void remap_wide(const dl_circuit *c, cc_wide *w, const uint32_t *new_of, uint64_t *v)
{
  for (uint32_t g = 0; g <= w->n_gates; g++) v[new_of[g]] = w->v[g];
  memcpy(w->v, v, ((size_t)w->n_gates + 1) * sizeof *v);
  remap_all(w->fluent_gate, c->n_fluents, new_of);
  remap_all(w->next_gate, c->n_fluents, new_of);
  remap_all(w->legal_gate, c->n_moves, new_of);
  remap_all(w->move_input, c->n_moves, new_of);
  remap_all(w->terminal_gate, w->n_terminal, new_of);
  remap_all(w->goal_gate, w->n_goals, new_of);
  remap_all(w->role_gate, c->n_roles, new_of);
}

/* emit_code's records laid out as runs (their bytes added to w->bytes);
 * 0 when out of memory. */
static int lay_out(const dl_circuit *c, cc_wide *w)
{
  item *it = NULL;
  uint32_t n = collect_items(w, &it);
  if (n == NONE) return 0;
  uint32_t *new_of = malloc(((size_t)w->n_gates + 1) * sizeof *new_of);
  uint32_t *code = malloc(((size_t)w->seg[2] + 3 * (size_t)n + 1) * sizeof *code);
  uint64_t *v = malloc(((size_t)w->n_gates + 1) * sizeof *v);
  int ok = new_of && code && v;
  if (ok) {
    dl_sort(it, n, sizeof *it, cmp_item, NULL);
    renumber(w, it, n, new_of);
    size_t len = (size_t)(put_runs(w, it, n, new_of, code) - code);
    remap_wide(c, w, new_of, v);
    free(w->code);
    uint32_t *fit = realloc(code, (len + 1) * sizeof *code);  /* shrinks it */
    w->code = fit ? fit : code, code = NULL;
    w->bytes += len * 4;
  }
  free(it), free(new_of), free(code), free(v);
  return ok;
}

static int alloc_wide(const dl_circuit *c, cc_wide *w, uint32_t n_hooks)
{
  size_t lanes_roles = (size_t)LANES * (c->n_roles ? c->n_roles : 1);
  size_t code = 5 * (size_t)c->n_gates + c->n_edges + 1;  /* records (3 + inputs) and block heads (2) */
  w->v = calloc((size_t)c->n_gates + 1, sizeof *w->v);
  w->code = malloc(code * sizeof *w->code);
  w->fluent_gate = malloc(((size_t)c->n_fluents + 1) * sizeof *w->fluent_gate);
  w->next_gate = malloc(((size_t)c->n_fluents + 1) * sizeof *w->next_gate);
  w->state = calloc((size_t)c->n_fluents + 1, sizeof *w->state);
  w->legal_gate = malloc(((size_t)c->n_moves + 1) * sizeof *w->legal_gate);
  w->move_input = malloc(((size_t)c->n_moves + 1) * sizeof *w->move_input);
  w->terminal_gate = malloc(((size_t)n_hooks + 1) * sizeof *w->terminal_gate);
  w->goal_gate = malloc(((size_t)n_hooks + 1) * sizeof *w->goal_gate);
  w->goal_role = malloc(((size_t)n_hooks + 1) * sizeof *w->goal_role);
  w->goal_value = malloc(((size_t)n_hooks + 1) * sizeof *w->goal_value);
  w->joint = malloc(lanes_roles * sizeof *w->joint);
  w->goals = malloc(lanes_roles * sizeof *w->goals);
  w->goal_n = malloc(lanes_roles * sizeof *w->goal_n);
  w->set_inputs = malloc(lanes_roles * sizeof *w->set_inputs);
  w->role_gate = malloc(((size_t)c->n_roles + 1) * sizeof *w->role_gate);
  w->cand_move = malloc(((size_t)c->n_moves + 1) * sizeof *w->cand_move);
  w->cand_lanes = malloc(((size_t)c->n_moves + 1) * sizeof *w->cand_lanes);
  if (!w->v || !w->code || !w->fluent_gate || !w->next_gate || !w->state || !w->legal_gate || !w->move_input ||
      !w->terminal_gate || !w->goal_gate || !w->goal_role || !w->goal_value || !w->joint || !w->goals ||
      !w->goal_n || !w->set_inputs || !w->role_gate || !w->cand_move || !w->cand_lanes)
    return 0;
  w->bytes = sizeof *w + ((size_t)c->n_gates + 1 + c->n_fluents) * 8 + (size_t)c->n_fluents * 8 +
             (size_t)c->n_moves * 20 + (size_t)n_hooks * 16 + lanes_roles * 16;
  return 1;
}

static void free_wide(cc_wide *w)
{
  if (!w) return;
  void *p[] = { w->v, w->code, w->count, w->fluent_gate, w->next_gate, w->legal_gate, w->move_input,
                w->terminal_gate, w->goal_gate, w->goal_role, w->goal_value, w->state, w->joint, w->goals,
                w->goal_n, w->set_inputs, w->role_gate, w->cand_move, w->cand_lanes };
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
  free(w);
}

void cc_wide_free(dl_circuit *c)
{
  free_wide(c->wide);
  c->wide = NULL;
}

/* The dense gate numbers of fluents and moves, n_gates for none. */
static void map_inputs(const dl_circuit *c, cc_wide *w)
{
  for (uint32_t f = 0; f < c->n_fluents; f++) {
    w->fluent_gate[f] = c->fluent_gate[f] == NONE ? c->n_gates : c->fluent_gate[f];
    w->next_gate[f] = c->n_gates;
  }
  for (uint32_t m = 0; m < c->n_moves; m++) {
    w->move_input[m] = c->move_gate[m] == NONE ? c->n_gates : c->move_gate[m];
    w->legal_gate[m] = c->n_gates;
  }
}

int cc_wide_build(build *b)
{
  dl_circuit *c = b->c;
  uint32_t *in_start = NULL, *ins = NULL, n_hooks = 0;
  for (uint32_t g = 0; g < c->n_gates; g++) n_hooks += (c->hook[g] & ~HAS_OUTPUTS) != 0;
  cc_wide *w = calloc(1, sizeof *w);
  int ok = w && alloc_wide(c, w, n_hooks) && input_lists(c, &in_start, &ins);
  if (ok) {
    w->n_gates = c->n_gates, w->n_roles = c->n_roles, w->n_fluents = c->n_fluents;
    w->move_gated = c->move_gated, w->role_start = c->role_start, w->role_gate_neg = c->role_gate_neg;
    memcpy(w->role_gate, c->role_gate, c->n_roles * sizeof *w->role_gate);  /* dense numbers */
    map_inputs(c, w);
    emit_code(c, w, in_start, ins);
    read_hooks(c, w);
    ok = lay_out(c, w) && (w->count = malloc(((size_t)w->max_need + 2) * sizeof *w->count)) != NULL;
  }
  free(in_start), free(ins);
  if (!ok) {
    free_wide(w);
    return cc_oom(b);
  }
  c->wide = w;
  c->stats.bytes_wide = w->bytes;
  return 1;
}

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

/* The lanes of `moving` where move m of role r is legal (open: the
 * lanes where r's gated moves count). */
static inline uint64_t legal_lanes(const cc_wide *w, uint32_t m, uint64_t open, uint64_t moving)
{
  uint64_t x = w->v[w->legal_gate[m]] & moving;
  return w->move_gated[m] ? x & open : x;
}

/* Chooses role r's move uniformly in each lane of *moving; a lane where r
 * has none is reported and leaves *moving. */
static void choose_moves(lanes *L, uint32_t r, uint64_t *moving)
{
  cc_wide *w = L->w;
  uint32_t first = w->role_start[r], last = w->role_start[r + 1], g = w->role_gate[r];
  uint64_t open = g == NONE ? 0 : w->v[g] ^ (0 - (uint64_t)w->role_gate_neg[r]), none = 0;
  uint32_t nc = 0;
  memset(w->n_legal, 0, sizeof w->n_legal);
  for (uint32_t m = first; m < last; m++) {
    uint64_t x = legal_lanes(w, m, open, *moving);
    if (!x) continue;
    w->cand_move[nc] = m, w->cand_lanes[nc++] = x;
    for (; x; x &= x - 1) w->n_legal[__builtin_ctzll(x)]++;
  }
  for (uint64_t x = *moving; x; x &= x - 1) {
    uint32_t lane = (uint32_t)__builtin_ctzll(x), n = w->n_legal[lane];
    if (!n) none |= (uint64_t)1 << lane;
    else w->pick[lane] = n == 1 ? 0 : dl_rng_below(L->rng, n);
    if (L->legal && w->depth[lane] < L->history)
      L->legal[((size_t)lane * L->history + w->depth[lane]) * w->n_roles + r] = n;
  }
  for (uint32_t k = 0; k < nc; k++)
    for (uint64_t x = w->cand_lanes[k]; x; x &= x - 1) {
      uint32_t lane = (uint32_t)__builtin_ctzll(x);
      if (w->pick[lane]-- == 0) w->joint[(size_t)lane * w->n_roles + r] = w->cand_move[k];
    }
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
      if (!w->v[g]) w->set_inputs[w->n_set++] = g;
      w->v[g] |= (uint64_t)1 << lane;
    }
    if (L->moves && w->depth[lane] < L->history)
      memcpy(L->moves + ((size_t)lane * L->history + w->depth[lane]) * nr, joint, nr * sizeof *joint);
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
  sweep(w, w->seg[0], w->seg[1]);
  for (uint32_t f = 0; f < w->n_fluents; f++) w->state[f] = w->v[w->next_gate[f]] & moving;
  for (uint64_t x = moving; x; x &= x - 1) w->depth[__builtin_ctzll(x)]++;
  start_lanes(L, ~L->active);
}

int dl_circuit_has_wide(const dl_circuit *c) { return c->wide != NULL; }

int dl_circuit_wide_playouts(dl_circuit *c, const uint64_t *start, dl_rng *rng, uint64_t n, uint32_t max_depth,
                             uint32_t history, dl_wide_fn done, void *ctx)
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
  start_lanes(&L, ~(uint64_t)0);
  while (L.active && !L.stop) step(&L);
  free(L.moves), free(L.legal);
  return 1;
}
