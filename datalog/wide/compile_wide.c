/* compile_wide.c: the bit-parallel program of an eager circuit (see
 * datalog/wide/circuit_wide.c, which runs it) from the compiler's dense
 * gates (compile_layout.c): the gates' records, the pushed moves, and the
 * records laid out as runs by level and shape. */
#include "datalog/compile/compile_impl.h"

#include "datalog/base/sort.h"
#include "datalog/wide/circuit_wide_impl.h"

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
 * negated inputs, see add_edge in compile.c). */
static int64_t gate_need(const dl_circuit *c, uint32_t g, const uint32_t *ins, uint32_t n)
{
  int64_t negs = 0;
  for (uint32_t i = 0; i < n; i++) negs += ins[i] & 1;
  return (int64_t)TOP + negs - (int64_t)c->counter[g];
}

/* ---------------------------------------------------------------------
 * Pushed moves.  An OR that reads many moves' does inputs (speedChess's
 * affected(X, Y) reads the 240 moves from or to a square, a next cell the
 * 120 moves to it) would load them all at every step, when a step sets at
 * most 64 per role.  Such an OR reads them through one pseudo input
 * instead, and a step ORs the lanes of each move it sets into that move's
 * pseudo inputs (push_moves). */

enum { PUSH_MIN = 4 };  /* positive does inputs an OR needs to get a pseudo input */

typedef struct pushes {
  uint8_t *is_move;   /* per gate: a move's does input */
  uint32_t *pseudo;   /* per gate: its pseudo input, or NONE */
  uint32_t *first, *next_move;  /* per gate, per move: the moves whose does input it is */
} pushes;

static void free_pushes(pushes *p) { free(p->is_move), free(p->pseudo), free(p->first), free(p->next_move); }

/* Gate g's pseudo input, if it is an OR of PUSH_MIN does inputs or more:
 * n_gates + 1 + its number among them. */
static uint32_t pseudo_of(const dl_circuit *c, cc_wide *w, const pushes *p, uint32_t g, const uint32_t *in,
                          uint32_t n)
{
  uint32_t k = 0;
  if (c->kind[g] == KIND_INPUT || gate_need(c, g, in, n) != 1) return NONE;
  for (uint32_t i = 0; i < n; i++) k += !(in[i] & 1) && p->is_move[in[i] >> 1];
  return k >= PUSH_MIN ? c->n_gates + 1 + w->n_push++ : NONE;
}

/* For every move m whose does input gate g reads positively: counts one
 * more push for m (fill 0), or files g's pseudo input in m's list (fill 1,
 * advancing push_start[m]). */
static void each_push(cc_wide *w, const pushes *p, uint32_t g, const uint32_t *in, uint32_t n, int fill)
{
  for (uint32_t i = 0; i < n; i++) {
    if ((in[i] & 1) || !p->is_move[in[i] >> 1]) continue;
    for (uint32_t m = p->first[in[i] >> 1]; m != NONE; m = p->next_move[m])
      if (fill) w->push_to[w->push_start[m]++] = p->pseudo[g];
      else w->push_start[m + 1]++;
  }
}

/* The pseudo inputs (p->pseudo, w->n_push) and each move's list of them
 * (w->push_start, w->push_to); 0 when out of memory. */
static int plan_pushes(const dl_circuit *c, cc_wide *w, const uint32_t *in_start, const uint32_t *ins, pushes *p)
{
  p->is_move = calloc((size_t)c->n_gates + 1, 1);
  p->pseudo = malloc(((size_t)c->n_gates + 1) * sizeof *p->pseudo);
  p->first = malloc(((size_t)c->n_gates + 1) * sizeof *p->first);
  p->next_move = malloc(((size_t)c->n_moves + 1) * sizeof *p->next_move);
  w->push_start = calloc((size_t)c->n_moves + 2, sizeof *w->push_start);
  if (!p->is_move || !p->pseudo || !p->first || !p->next_move || !w->push_start) return 0;
  memset(p->first, 0xff, ((size_t)c->n_gates + 1) * sizeof *p->first);
  for (uint32_t m = c->n_moves; m-- > 0;) {
    uint32_t g = c->move_gate[m];
    if (g == NONE) continue;
    p->is_move[g] = 1, p->next_move[m] = p->first[g], p->first[g] = m;
  }
  for (uint32_t g = 0; g < c->n_gates; g++) {
    p->pseudo[g] = pseudo_of(c, w, p, g, ins + in_start[g], in_start[g + 1] - in_start[g]);
    if (p->pseudo[g] != NONE) each_push(w, p, g, ins + in_start[g], in_start[g + 1] - in_start[g], 0);
  }
  for (uint32_t m = 0; m < c->n_moves; m++) w->push_start[m + 1] += w->push_start[m];
  w->push_to = malloc(((size_t)w->push_start[c->n_moves] + 1) * sizeof *w->push_to);
  w->pushed = malloc(((size_t)w->n_push + 1) * sizeof *w->pushed);
  if (!w->push_to || !w->pushed) return 0;
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (p->pseudo[g] != NONE) each_push(w, p, g, ins + in_start[g], in_start[g + 1] - in_start[g], 1);
  for (uint32_t m = c->n_moves; m > 0; m--) w->push_start[m] = w->push_start[m - 1];  /* filling moved them */
  w->push_start[0] = 0;
  return 1;
}

/* Appends gate g's record at code[*len] (the code has room); a gate whose
 * value never changes gets none and its word is set once.  An OR with a
 * pseudo input reads it in place of its positive does inputs. */
static void emit_gate(const dl_circuit *c, cc_wide *w, const pushes *p, uint32_t g, const uint32_t *in_start,
                      const uint32_t *ins, uint32_t *len)
{
  const uint32_t *in = ins + in_start[g];
  uint32_t n = in_start[g + 1] - in_start[g];
  int64_t need = gate_need(c, g, in, n);
  if (need <= 0 || need > n) {
    memset(&w->v[g], need <= 0 ? 0xff : 0, sizeof *w->v);
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
  uint32_t np = 0, pushed = p->pseudo[g] != NONE;
  for (uint32_t i = 0; i < n; i++) np += !(in[i] & 1) && !(pushed && p->is_move[in[i] >> 1]);
  r[-1] = np + pushed, r[0] = 0;
  uint32_t *pos = r + 1, *neg = pos + np + pushed;
  if (pushed) *pos++ = p->pseudo[g];
  for (uint32_t i = 0; i < n; i++)
    if (in[i] & 1) *neg++ = in[i] >> 1, r[0]++;
    else if (!(pushed && p->is_move[in[i] >> 1])) *pos++ = in[i] >> 1;
  *len = (uint32_t)(neg - w->code);
}

/* The records of every gate but the inputs, blocks as one record each,
 * and the offsets of the move part and the goal part (dense cone_start and
 * goal_start). */
static void emit_code(const dl_circuit *c, cc_wide *w, const pushes *p, const uint32_t *in_start,
                      const uint32_t *ins)
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
      emit_gate(c, w, p, g, in_start, ins, &len);
      g++;
      continue;
    }
    uint32_t head = len, e = g;
    while (e < c->n_gates && c->block[e] == c->block[g]) e++;
    len += 2;
    for (uint32_t x = g; x < e; x++) emit_gate(c, w, p, x, in_start, ins, &len);
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
  uint32_t n = 0, *lvl = calloc((size_t)w->n_gates + 1 + w->n_push, sizeof *lvl);
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
 * then those of the items in their order; n_gates and the pseudo inputs
 * after it keep theirs. */
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
  for (uint32_t g = w->n_gates; g <= w->n_gates + w->n_push; g++) new_of[g] = g;
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

/* n lane words, all zero, aligned for the sweep's loads; NULL when out of
 * memory. */
static lane_word *aligned_words(size_t n)
{
  lane_word *x = aligned_alloc(_Alignof(lane_word), n * sizeof *x);
  if (x) memset(x, 0, n * sizeof *x);
  return x;
}

/* Renumbers the gates in the arrays that name them, and their words. */
static void remap_wide(const dl_circuit *c, cc_wide *w, const uint32_t *new_of, lane_word *v)
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
  uint32_t *new_of = malloc(((size_t)w->n_gates + 1 + w->n_push) * sizeof *new_of);
  uint32_t *code = malloc(((size_t)w->seg[2] + 3 * (size_t)n + 1) * sizeof *code);
  lane_word *v = aligned_words((size_t)w->n_gates + 1);
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
  w->code = malloc(code * sizeof *w->code);
  w->fluent_gate = malloc(((size_t)c->n_fluents + 1) * sizeof *w->fluent_gate);
  w->next_gate = malloc(((size_t)c->n_fluents + 1) * sizeof *w->next_gate);
  w->state = aligned_words((size_t)c->n_fluents + 1);
  w->legal_gate = malloc(((size_t)c->n_moves + 1) * sizeof *w->legal_gate);
  w->move_input = malloc(((size_t)c->n_moves + 1) * sizeof *w->move_input);
  w->legal = aligned_words((size_t)c->n_moves + 1);
  w->copied = calloc((size_t)c->n_roles + 1, sizeof *w->copied);
  w->terminal_gate = malloc(((size_t)n_hooks + 1) * sizeof *w->terminal_gate);
  w->goal_gate = malloc(((size_t)n_hooks + 1) * sizeof *w->goal_gate);
  w->goal_role = malloc(((size_t)n_hooks + 1) * sizeof *w->goal_role);
  w->goal_value = malloc(((size_t)n_hooks + 1) * sizeof *w->goal_value);
  w->joint = malloc(lanes_roles * sizeof *w->joint);
  w->goals = malloc(lanes_roles * sizeof *w->goals);
  w->goal_n = malloc(lanes_roles * sizeof *w->goal_n);
  w->set_inputs = malloc(lanes_roles * sizeof *w->set_inputs);
  w->set_move = malloc(lanes_roles * sizeof *w->set_move);
  w->role_gate = malloc(((size_t)c->n_roles + 1) * sizeof *w->role_gate);
  w->ungated = malloc(((size_t)c->n_moves + 1) * sizeof *w->ungated);
  w->ungated_start = malloc(((size_t)c->n_roles + 1) * sizeof *w->ungated_start);
  w->draws = calloc((size_t)c->n_roles + 1, sizeof *w->draws);
  w->hits = calloc((size_t)c->n_roles + 1, sizeof *w->hits);
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (c->role_start[r + 1] - c->role_start[r] > w->max_role_moves)
      w->max_role_moves = c->role_start[r + 1] - c->role_start[r];
  w->lane_moves = malloc(((size_t)w->max_role_moves * BANK_LANES + 1) * sizeof *w->lane_moves);
  if (!w->code || !w->fluent_gate || !w->next_gate || !w->state || !w->legal_gate || !w->legal || !w->copied ||
      !w->move_input || !w->terminal_gate || !w->goal_gate || !w->goal_role || !w->goal_value || !w->joint ||
      !w->goals || !w->goal_n || !w->set_inputs || !w->set_move || !w->role_gate || !w->lane_moves || !w->ungated ||
      !w->ungated_start || !w->draws || !w->hits)
    return 0;
  w->bytes = sizeof *w + (size_t)c->n_fluents * (8 + sizeof(lane_word)) +
             (size_t)c->n_moves * (12 + sizeof(lane_word)) + (size_t)n_hooks * 16 + lanes_roles * 20 +
             (size_t)w->max_role_moves * BANK_LANES * 4;
  return 1;
}

/* ---------------------------------------------------------------------
 * Moves filed under a fluent they need (see find_candidates in
 * circuit_wide.c), as the lazy circuit files its moves. */

/* What each gate before the move cone needs (see req): a fluent's input
 * its fluent; an AND what its positive inputs need; an OR without negated
 * inputs what all its inputs need; any other gate nothing.  NULL when out
 * of memory. */
static req *gate_needs(const dl_circuit *c, const uint32_t *in_start, const uint32_t *ins)
{
  uint32_t n = c->cone_start;
  req *q = malloc(((size_t)n + 1) * sizeof *q);
  if (!q) return NULL;
  memset(q, 0xff, ((size_t)n + 1) * sizeof *q);
  for (uint32_t f = 0; f < c->n_fluents; f++)
    if (c->fluent_gate[f] < n) q[c->fluent_gate[f]].f[0] = f;
  for (uint32_t g = 0; g < n; g++) {
    const uint32_t *in = ins + in_start[g];
    uint32_t k = in_start[g + 1] - in_start[g];
    int64_t need = c->kind[g] == KIND_INPUT || c->block[g] ? 0 : gate_need(c, g, in, k);
    if (need <= 0 || need > k || (need > 1 && need < k)) continue;
    for (uint32_t i = 0; i < k; i++) {
      req one;
      memset(&one, 0xff, sizeof one);
      if (!(in[i] & 1) && (in[i] >> 1) < g) one = q[in[i] >> 1];
      req_fold(&q[g], &one, need > 1, i == 0);
    }
  }
  return q;
}

/* The files of the moves keyed role * (n_fluents + 1) + fluent (n_fluents:
 * none), start[key] .. start[key + 1] of w->file_move: the non-empty ones,
 * role by role; 0 when out of memory. */
static int make_files(const dl_circuit *c, cc_wide *w, const uint32_t *start)
{
  uint32_t nf = c->n_fluents + 1, n = 0;
  for (uint32_t k = 0; k < c->n_roles * nf; k++) n += start[k + 1] > start[k];
  w->file_start = malloc(((size_t)c->n_roles + 1) * sizeof *w->file_start);
  w->role_filed = calloc((size_t)c->n_roles + 1, 1);
  w->file_fluent = malloc(((size_t)n + 1) * sizeof *w->file_fluent);
  w->file_first = malloc(((size_t)n + 1) * sizeof *w->file_first);
  if (!w->file_start || !w->role_filed || !w->file_fluent || !w->file_first) return 0;
  uint32_t j = 0;
  for (uint32_t r = 0; r < c->n_roles; r++) {
    w->file_start[r] = j;
    for (uint32_t f = 0; f < nf; f++)
      if (start[r * nf + f + 1] > start[r * nf + f]) {
        w->file_fluent[j] = f < c->n_fluents ? f : NONE;
        w->file_first[j++] = start[r * nf + f];
      }
    uint32_t files = j - w->file_start[r], moves = c->role_start[r + 1] - c->role_start[r];
    w->role_filed[r] = files && moves >= FILE_MIN_MOVES && moves >= FILE_MOVES * files;
    if (files > w->max_files) w->max_files = files;
  }
  w->file_start[c->n_roles] = j;
  w->file_first[j] = start[c->n_roles * nf];
  size_t lane_words = (size_t)LANE_FILE_WORDS(w->max_files) * BANK_LANES;
  w->lane_files = malloc((lane_words + 1) * sizeof *w->lane_files);
  w->bytes += ((size_t)c->n_moves + 2 * n + c->n_roles + lane_words) * 4;
  return w->lane_files != NULL;
}

/* Files each move that has a legal atom under the fluent, of those its
 * legal atom needs, that the fewest moves of its role need (the moves of
 * a piece on its square), or under none; 0 when out of memory. */
static int file_moves(const dl_circuit *c, cc_wide *w, const uint32_t *in_start, const uint32_t *ins)
{
  uint32_t nf = c->n_fluents + 1, nb = c->n_roles * nf;
  req *q = gate_needs(c, in_start, ins);
  uint32_t *count = calloc((size_t)nb + 1, sizeof *count), *key = malloc(((size_t)c->n_moves + 1) * sizeof *key);
  uint32_t *start = calloc((size_t)nb + 2, sizeof *start);
  w->file_move = malloc(((size_t)c->n_moves + 1) * sizeof *w->file_move);
  int ok = q && count && key && start && w->file_move;
  for (uint32_t r = 0; ok && r < c->n_roles; r++)
    for (uint32_t m = c->role_start[r]; m < c->role_start[r + 1]; m++)
      if (w->legal_gate[m] < c->cone_start) count_needed(&q[w->legal_gate[m]], c->n_fluents, count + r * nf);
  for (uint32_t r = 0; ok && r < c->n_roles; r++)
    for (uint32_t m = c->role_start[r]; m < c->role_start[r + 1]; m++) {
      uint32_t g = w->legal_gate[m];
      key[m] = g == c->n_gates ? NONE : r * nf + (g < c->cone_start ? rarest_needed(&q[g], c->n_fluents, count + r * nf)
                                                                     : c->n_fluents);
      if (key[m] != NONE) start[key[m] + 1]++;
    }
  for (uint32_t k = 0; ok && k < nb; k++) start[k + 1] += start[k];
  if (ok) memcpy(count, start, (size_t)nb * sizeof *count);
  for (uint32_t m = 0; ok && m < c->n_moves; m++)
    if (key[m] != NONE) w->file_move[count[key[m]]++] = m;
  ok = ok && make_files(c, w, start);
  free(q), free(count), free(key), free(start);
  return ok;
}

/* Each role's moves that no turn literal gates (see choose_moves in
 * circuit_wide.c). */
static void list_ungated(const dl_circuit *c, cc_wide *w)
{
  uint32_t k = 0;
  for (uint32_t r = 0; r < c->n_roles; r++) {
    w->ungated_start[r] = k;
    for (uint32_t m = c->role_start[r]; m < c->role_start[r + 1]; m++)
      if (!c->move_gated[m]) w->ungated[k++] = m;
  }
  w->ungated_start[c->n_roles] = k;
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
  pushes p = { 0 };
  int ok = w && alloc_wide(c, w, n_hooks) && input_lists(c, &in_start, &ins) && plan_pushes(c, w, in_start, ins, &p) &&
           (w->v = aligned_words((size_t)c->n_gates + 1 + w->n_push)) != NULL;
  if (ok) {
    w->n_gates = c->n_gates, w->n_roles = c->n_roles, w->n_fluents = c->n_fluents;
    w->move_gated = c->move_gated, w->role_start = c->role_start, w->role_gate_neg = c->role_gate_neg;
    memcpy(w->role_gate, c->role_gate, c->n_roles * sizeof *w->role_gate);  /* dense numbers */
    map_inputs(c, w);
    list_ungated(c, w);
    emit_code(c, w, &p, in_start, ins);
    read_hooks(c, w);
    w->bytes += ((size_t)w->n_gates + 1 + w->n_push) * sizeof(lane_word) +
                ((size_t)w->push_start[c->n_moves] + w->n_push) * 4;
    ok = file_moves(c, w, in_start, ins) && lay_out(c, w) &&
         (w->count = aligned_words((size_t)w->max_need + 2)) != NULL;
    w->sweep = cc_wide_pick_sweep();
  }
  free(in_start), free(ins), free_pushes(&p);
  if (!ok) {
    c->wide = w;
    cc_wide_free(c);
    return cc_oom(b);
  }
  c->wide = w;
  c->stats.bytes_wide = w->bytes;
  return 1;
}
