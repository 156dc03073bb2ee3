/* compile_layout.c: the circuit's wires laid out per gate, its cyclic
 * blocks found, and its first settling (see compile_impl.h). */
#include "datalog/compile/compile_impl.h"

#include <assert.h>

/* Lays the edges out as a list of outputs per gate. */
static int layout_edges(build *b)
{
  dl_circuit *c = b->c;
  c->n_edges = b->n_edges;
  c->out_start = calloc((size_t)c->n_gates + 1, sizeof *c->out_start);
  c->outs = malloc(((size_t)b->n_edges + 1) * sizeof *c->outs);
  if (!c->out_start || !c->outs) return cc_oom(b);
  for (uint32_t e = 0; e < b->n_edges; e++) c->out_start[b->src[e] + 1]++;
  for (uint32_t g = 0; g < c->n_gates; g++) c->out_start[g + 1] += c->out_start[g];
  uint32_t *fill = malloc(((size_t)c->n_gates + 1) * sizeof *fill);
  if (!fill) return cc_oom(b);
  memcpy(fill, c->out_start, c->n_gates * sizeof *fill);
  for (uint32_t e = 0; e < b->n_edges; e++) c->outs[fill[b->src[e]]++] = b->dst[e];
  free(fill);
  return 1;
}

/* Tarjan's strongly connected components, iteratively; a component with a
 * cycle becomes a block.  Blocks are numbered in the order Tarjan finds
 * them (sinks first). */
typedef struct tarjan {
  uint32_t *index, *low, *pos, *tstack, *cstack;
  uint8_t *on;
  uint32_t next_index, tn, cn;
} tarjan;

static int self_loop(const dl_circuit *c, uint32_t v)
{
  for (uint32_t i = c->out_start[v]; i < c->out_start[v + 1]; i++)
    if (c->outs[i] >> 1 == v) return 1;
  return 0;
}

static void close_component(dl_circuit *c, tarjan *t, uint32_t v)
{
  uint32_t start = t->tn;
  do start--;
  while (t->tstack[start] != v);
  uint32_t size = t->tn - start;
  if (size > 1 || self_loop(c, v)) {
    c->n_blocks++;
    for (uint32_t k = start; k < t->tn; k++) c->block[t->tstack[k]] = c->n_blocks;
  }
  for (uint32_t k = start; k < t->tn; k++) t->on[t->tstack[k]] = 0;
  t->tn = start;
}

static void strong_components(dl_circuit *c, tarjan *t)
{
  for (uint32_t s = 0; s < c->n_gates; s++) {
    if (t->index[s] != NONE) continue;
    t->cstack[t->cn++] = s;
    t->index[s] = t->low[s] = t->next_index++;
    t->tstack[t->tn++] = s;
    t->on[s] = 1;
    while (t->cn) {
      uint32_t v = t->cstack[t->cn - 1];
      if (t->pos[v] < c->out_start[v + 1]) {
        uint32_t w = c->outs[t->pos[v]++] >> 1;
        if (t->index[w] == NONE) {
          t->index[w] = t->low[w] = t->next_index++;
          t->tstack[t->tn++] = w;
          t->on[w] = 1;
          t->cstack[t->cn++] = w;
        } else if (t->on[w] && t->index[w] < t->low[v]) t->low[v] = t->index[w];
        continue;
      }
      t->cn--;
      if (t->cn && t->low[v] < t->low[t->cstack[t->cn - 1]]) t->low[t->cstack[t->cn - 1]] = t->low[v];
      if (t->low[v] == t->index[v]) close_component(c, t, v);
    }
  }
}

static int find_blocks(build *b)
{
  dl_circuit *c = b->c;
  size_t n = (size_t)c->n_gates + 1;
  tarjan t = { malloc(n * 4), malloc(n * 4), malloc(n * 4), malloc(n * 4), malloc(n * 4), calloc(n, 1), 0, 0, 0 };
  c->block = calloc(n, sizeof *c->block);
  int ok = t.index && t.low && t.pos && t.tstack && t.cstack && t.on && c->block;
  if (ok) {
    memset(t.index, 0xff, n * 4);
    memcpy(t.pos, c->out_start, n * 4);
    strong_components(c, &t);
  }
  free(t.index), free(t.low), free(t.pos), free(t.tstack), free(t.cstack), free(t.on);
  return ok ? 1 : cc_oom(b);
}

/* The gates that depend on a move: reachable from a does input. */
static uint8_t *move_cone(const dl_circuit *c)
{
  uint8_t *cone = calloc((size_t)c->n_gates + 1, 1);
  uint32_t *todo = malloc(((size_t)c->n_gates + 1) * sizeof *todo), n = 0;
  if (!cone || !todo) {
    free(cone), free(todo);
    return NULL;
  }
  for (uint32_t m = 0; m < c->n_moves; m++) {
    uint32_t g = c->move_gate[m];
    if (g != NONE && !cone[g]) cone[g] = 1, todo[n++] = g;
  }
  while (n) {
    uint32_t g = todo[--n];
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++) {
      uint32_t t = c->outs[i] >> 1;
      if (!cone[t]) cone[t] = 1, todo[n++] = t;
    }
  }
  free(todo);
  return cone;
}

/* Whether a gate that settles legal moves, a goal or terminal depends on a
 * move: then the state's propagation cannot stop before the move cone. */
static int hooks_in_cone(const dl_circuit *c, const uint8_t *cone)
{
  for (uint32_t g = 0; g < c->n_gates; g++) {
    uint32_t kind = (c->hook[g] >> 28) & 7;
    if (cone[g] == 1 && kind != 0 && kind != HOOK_NEXT) return 1;
  }
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (c->role_gate[r] != NONE && cone[c->role_gate[r]] == 1) return 1;
  return 0;
}

/* Keeps eager (ok 0) the gates that read moves only (an "any of these
 * moves" gate; chess's "a piece moves from this square"): kept up to
 * date, a move changes a few of them; asked for, one reads every move.
 * Sinks stay lazy all the same: cut off its head, a sink kept eager would
 * set and clear its fluent's next bit by itself, against the head's other
 * rules.  tmp: room for a number per gate.  1, or 0 when out of memory. */
static int keep_move_only(const dl_circuit *c, const uint8_t *sinks, const uint32_t *in_start, uint32_t *tmp,
                          uint8_t *ok)
{
  uint32_t *todo = malloc(((size_t)c->n_gates + 1) * sizeof *todo), nt = 0;
  if (!todo) return 0;
  for (uint32_t g = 0; g < c->n_gates; g++) tmp[g] = in_start[g + 1] - in_start[g];
  for (uint32_t m = 0; m < c->n_moves; m++)
    if (c->move_gate[m] != NONE) todo[nt++] = c->move_gate[m];
  while (nt) {
    uint32_t g = todo[--nt];
    ok[g] = ok[g] && sinks[g];
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++)
      if (!--tmp[c->outs[i] >> 1]) todo[nt++] = c->outs[i] >> 1;
  }
  free(todo);
  return 1;
}

/* The circuit's wires by their target: the sources of gate g's inputs at
 * src[start[g] .. start[g + 1]). */
typedef struct in_edges {
  uint32_t *start, *src;
} in_edges;

static void in_edges_free(in_edges *ie)
{
  free(ie->start), free(ie->src);
  ie->start = ie->src = NULL;
}

/* Fills *ie from c's outputs (out_start, outs); 1, or 0 when out of memory
 * (*ie then empty). */
static int in_edges_make(const dl_circuit *c, in_edges *ie)
{
  size_t n = (size_t)c->n_gates + 1;
  uint32_t *fill = malloc(n * 4);
  ie->start = calloc(n + 1, 4);
  ie->src = malloc(((size_t)c->n_edges + 1) * 4);
  if (!fill || !ie->start || !ie->src) {
    free(fill);
    in_edges_free(ie);
    return 0;
  }
  for (uint32_t i = 0; i < c->out_start[c->n_gates]; i++) ie->start[(c->outs[i] >> 1) + 1]++;
  for (uint32_t g = 0; g < c->n_gates; g++) ie->start[g + 1] += ie->start[g];
  memcpy(fill, ie->start, n * 4);
  for (uint32_t g = 0; g < c->n_gates; g++)
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++) ie->src[fill[c->outs[i] >> 1]++] = g;
  free(fill);
  return 1;
}

/* The gates that only goals need: outside the move cone and any cyclic
 * block, no input, no hook but a goal's, not a role's turn gate, and every
 * output one of them (Sancho's "goal-only" part of the net); with lazy,
 * those that only goals, legal moves and terminal need; with sinks (not
 * NULL) too, the next rules cut off their heads (cut_next_rules) and what
 * only they need, in the move cone or not, but for the gates that read
 * moves only.  ie: c's wires by target (in_edges_make, after any cut).
 * Marked 2 in cls, or 3 in the move cone (1: the move cone, 0: the rest);
 * returns their number, or NONE when out of memory. */
static uint32_t goal_only(const dl_circuit *c, const in_edges *ie, uint8_t *cls, int lazy, const uint8_t *sinks)
{
  size_t n = (size_t)c->n_gates + 1;
  uint32_t *pending = malloc(n * 4), *todo = malloc(n * 4), nt = 0, count = 0;
  uint8_t *ok = malloc(n);
  if (!pending || !todo || !ok) {
    free(pending), free(todo), free(ok);
    return NONE;
  }
  for (uint32_t g = 0; g < c->n_gates; g++) {
    uint32_t kind = (c->hook[g] >> 28) & 7;
    pending[g] = c->out_start[g + 1] - c->out_start[g];
    ok[g] = (sinks || !cls[g]) && !c->block[g] && c->kind[g] != KIND_INPUT &&
            (kind == 0 || kind == HOOK_GOAL || (lazy && (kind == HOOK_LEGAL || kind == HOOK_TERMINAL)) ||
             (sinks && sinks[g]));
  }
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (c->role_gate[r] != NONE) ok[c->role_gate[r]] = 0;
  if (sinks && !keep_move_only(c, sinks, ie->start, todo, ok)) {
    free(pending), free(todo), free(ok);
    return NONE;
  }
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (ok[g] && !pending[g]) todo[nt++] = g;
  while (nt) {
    uint32_t t = todo[--nt];
    cls[t] = (uint8_t)(2 + cls[t]);
    count++;
    for (uint32_t i = ie->start[t]; i < ie->start[t + 1]; i++)
      if (!--pending[ie->src[i]] && ok[ie->src[i]]) todo[nt++] = ie->src[i];
  }
  free(pending), free(todo), free(ok);
  return count;
}

/* Wires into the gates marked lazy (2 or 3) in cls. */
static uint64_t wires_into(const dl_circuit *c, const uint8_t *cls)
{
  uint64_t n = 0;
  for (uint32_t g = 0; g < c->n_gates; g++)
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++) n += cls[c->outs[i] >> 1] >= 2;
  return n;
}

/* DL_CIRCUIT_AUTO: lazy when the gates that only legal moves (and goals
 * and terminal) need, beyond the goal-only ones, have LAZY_WIRES wires or
 * more per move.  A legality test that big is a search (chess: is the king
 * attacked after this move, 2,900 wires per move); kept up to date for
 * every move it costs more than asking it for the few moves of the pieces
 * on the board.  The other games of perf/play.sh have 5 to 70 and are
 * faster eager (2x to 4x).  1, 0, or -1 when out of memory. */
enum { LAZY_WIRES = 500 };

static int prefer_lazy(const dl_circuit *c, const in_edges *ie, const uint8_t *cls)
{
  uint8_t *tmp = malloc((size_t)c->n_gates + 1);
  uint64_t w[2] = { 0, 0 };
  if (!tmp) return -1;
  for (int lazy = 0; lazy < 2; lazy++) {
    memcpy(tmp, cls, (size_t)c->n_gates + 1);
    if (goal_only(c, ie, tmp, lazy, NULL) == NONE) {
      free(tmp);
      return -1;
    }
    w[lazy] = wires_into(c, tmp);
  }
  free(tmp);
  return w[1] - w[0] >= (uint64_t)LAZY_WIRES * (c->n_moves ? c->n_moves : 1);
}

/* Kahn's order of the components (a block, or one gate; component id: the
 * gate's, n_gates + block for a block): the gates outside the move cone,
 * then the move cone's, then the lazy (or goal-only) ones outside it and
 * those in it (cls: 0, 1, 2, 3). */
enum { CLASSES = 4 };

typedef struct order {
  uint32_t *indeg, *bstart, *bmem, *fifo, *perm;
  uint8_t *cone;
  uint32_t tail[CLASSES], placed;
} order;

static uint32_t comp_of(const dl_circuit *c, uint32_t g) { return c->block[g] ? c->n_gates + c->block[g] - 1 : g; }

/* The first gate of component x. */
static uint32_t comp_key(const dl_circuit *c, const order *o, uint32_t x)
{
  return x < c->n_gates ? x : o->bmem[o->bstart[x - c->n_gates]];
}

/* Ready components: a min-heap on their first gate per class, so the
 * order keeps the compiler's where it can.  (A gate's inputs are of its
 * class or a lower one, and never of class 1 for class 2: taking the
 * classes in turn keeps the order topological.) */
static void push(const dl_circuit *c, order *o, uint32_t q, uint32_t x)
{
  uint32_t *h = o->fifo + q * ((size_t)c->n_gates + c->n_blocks), i = o->tail[q]++, kx = comp_key(c, o, x);
  while (i > 0 && comp_key(c, o, h[(i - 1) / 2]) > kx) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = x;
}

static uint32_t pop(const dl_circuit *c, order *o, uint32_t q)
{
  uint32_t *h = o->fifo + q * ((size_t)c->n_gates + c->n_blocks), top = h[0], n = --o->tail[q], last = h[n];
  uint32_t i = 0, kl = comp_key(c, o, last);
  for (;;) {
    uint32_t k = 2 * i + 1;
    if (k >= n) break;
    if (k + 1 < n && comp_key(c, o, h[k + 1]) < comp_key(c, o, h[k])) k++;
    if (comp_key(c, o, h[k]) >= kl) break;
    h[i] = h[k];
    i = k;
  }
  h[i] = last;
  return top;
}

/* Places component x's gates, and queues the components that become ready. */
static void place(dl_circuit *c, order *o, uint32_t x)
{
  uint32_t one = x, *m = &one, n = 1;
  if (x >= c->n_gates) {
    m = o->bmem + o->bstart[x - c->n_gates];
    n = o->bstart[x - c->n_gates + 1] - o->bstart[x - c->n_gates];
  }
  for (uint32_t k = 0; k < n; k++) o->perm[m[k]] = o->placed++;
  for (uint32_t k = 0; k < n; k++)
    for (uint32_t i = c->out_start[m[k]]; i < c->out_start[m[k] + 1]; i++) {
      uint32_t y = comp_of(c, c->outs[i] >> 1);
      if (y == x || --o->indeg[y]) continue;
      push(c, o, o->cone[c->outs[i] >> 1], y);
    }
}

static void kahn(dl_circuit *c, order *o)
{
  uint32_t nc = c->n_gates + c->n_blocks;
  for (uint32_t g = 0; g < c->n_gates; g++)
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++)
      if (comp_of(c, g) != comp_of(c, c->outs[i] >> 1)) o->indeg[comp_of(c, c->outs[i] >> 1)]++;
  for (uint32_t x = 0; x < nc; x++) {
    if (x < c->n_gates ? c->block[x] != 0 : o->bstart[x - c->n_gates + 1] == o->bstart[x - c->n_gates]) continue;
    if (o->indeg[x]) continue;
    push(c, o, o->cone[comp_key(c, o, x)], x);
  }
  for (uint32_t q = 0; q < CLASSES;)
    if (o->tail[q]) place(c, o, pop(c, o, q));
    else q++;
}

/* Renumbers the gates in order (perm: old number -> new). */
static int renumber(build *b, const uint32_t *perm)
{
  dl_circuit *c = b->c;
  size_t n = (size_t)c->n_gates + 1;
  uint32_t *counter = malloc(n * 4), *atom = malloc(n * 4), *hook = malloc(n * 4), *block = calloc(n, 4);
  uint32_t *bnum = malloc(((size_t)c->n_blocks + 1) * 4), nb = 0;
  uint8_t *kind = malloc(n);
  if (!counter || !atom || !hook || !block || !bnum || !kind) {
    free(counter), free(atom), free(hook), free(block), free(bnum), free(kind);
    return cc_oom(b);
  }
  memset(bnum, 0xff, ((size_t)c->n_blocks + 1) * 4);
  for (uint32_t g = 0; g < c->n_gates; g++) {
    uint32_t p = perm[g];
    counter[p] = c->counter[g], atom[p] = c->gate_atom[g], hook[p] = c->hook[g], kind[p] = c->kind[g];
  }
  uint32_t *inv = malloc(n * 4);
  if (!inv) {
    free(counter), free(atom), free(hook), free(block), free(bnum), free(kind);
    return cc_oom(b);
  }
  for (uint32_t g = 0; g < c->n_gates; g++) inv[perm[g]] = g;
  for (uint32_t p = 0; p < c->n_gates; p++) {
    uint32_t k = c->block[inv[p]];
    if (!k) continue;
    if (bnum[k - 1] == NONE) bnum[k - 1] = nb++;
    block[p] = bnum[k - 1] + 1;
  }
  free(inv), free(bnum);
  free(c->counter), free(c->gate_atom), free(c->hook), free(c->block), free(c->kind);
  c->counter = counter, c->gate_atom = atom, c->hook = hook, c->block = block, c->kind = kind;
  for (uint32_t f = 0; f < c->n_fluents; f++)
    if (c->fluent_gate[f] != NONE) c->fluent_gate[f] = perm[c->fluent_gate[f]];
  for (uint32_t m = 0; m < c->n_moves; m++)
    if (c->move_gate[m] != NONE) c->move_gate[m] = perm[c->move_gate[m]];
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (c->role_gate[r] != NONE) c->role_gate[r] = perm[c->role_gate[r]];
  for (uint32_t a = 1; a <= b->n_atoms; a++) b->atom_gate[a] = perm[b->atom_gate[a]];
  for (uint32_t e = 0; e < b->n_edges; e++) {
    b->src[e] = perm[b->src[e]];
    b->dst[e] = perm[b->dst[e] >> 1] << 1 | (b->dst[e] & 1);
  }
  free(c->out_start), free(c->outs);
  c->out_start = NULL, c->outs = NULL;
  return layout_edges(b);
}

/* Whether gate g tells whose turn it is (dl_circuit.role_gate). */
static int is_role_gate(const dl_circuit *c, uint32_t g)
{
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (c->role_gate[r] == g) return 1;
  return 0;
}

/* DL_CIRCUIT_LAZY: the rules of next atoms to evaluate when a move is
 * made (sinks), for the fluents of the state and the moves they need
 * (datalog/circuit/circuit_lazy.c), instead of keeping them up to date:
 * what only they read leaves the propagation.  Chess's check rules read,
 * for every square a piece moves from, whether a rook's or a bishop's ray
 * to the king crosses it: kept up to date, those rays were a third of a
 * playout.  A sink is an AND outside any block with no hook, not a role's
 * turn gate, its only wire to the OR of a next atom, or a next atom's own
 * AND without outputs; frame rules (they read their own fluent) stay: a
 * state changes few fluents, so propagation meets few of them, while asked
 * for, every fluent of every state asks its frame.  Cuts a sink's wire to
 * its head (the head's hook goes on the sink) and returns the sinks marked
 * 1, or NULL when out of memory. */
static uint8_t *cut_next_rules(build *b)
{
  dl_circuit *c = b->c;
  uint8_t *sink = calloc((size_t)c->n_gates + 1, 1);
  uint32_t *head = malloc(((size_t)c->n_gates + 1) * sizeof *head);  /* the next fluent of a candidate */
  if (!sink || !head) {
    free(sink), free(head);
    return NULL;
  }
  memset(head, 0xff, ((size_t)c->n_gates + 1) * sizeof *head);
  for (uint32_t g = 0; g < c->n_gates; g++) {
    uint32_t outs = c->out_start[g + 1] - c->out_start[g], t = outs == 1 ? c->outs[c->out_start[g]] >> 1 : NONE;
    if (c->kind[g] != KIND_AND || c->block[g] || is_role_gate(c, g)) continue;
    if (!outs && (c->hook[g] >> 28 & 7) == HOOK_NEXT) head[g] = c->hook[g] & 0x0fffffffu;
    else if (t != NONE && !(c->outs[c->out_start[g]] & 1) && c->gate_atom[g] == 0 && !c->hook[g] &&
             c->kind[t] == KIND_OR && !c->block[t] && (c->hook[t] >> 28 & 7) == HOOK_NEXT)
      head[g] = c->hook[t] & 0x0fffffffu;
  }
  for (uint32_t g = 0; g < c->n_gates; g++) sink[g] = head[g] != NONE;
  for (uint32_t e = 0; e < b->n_edges; e++) {  /* a frame rule reads its own fluent */
    uint32_t t = b->dst[e] >> 1;
    if (head[t] != NONE && !(b->dst[e] & 1) && c->fluent_gate[head[t]] == b->src[e]) sink[t] = 0;
  }
  uint32_t kept = 0;
  for (uint32_t e = 0; e < b->n_edges; e++) {
    uint32_t s = b->src[e];
    if (sink[s] && (c->hook[s] >> 28 & 7) != HOOK_NEXT) c->hook[s] = (uint32_t)HOOK_NEXT << 28 | head[s];
    else b->src[kept] = s, b->dst[kept++] = b->dst[e];
  }
  b->n_edges = kept;
  free(head);
  free(c->out_start), free(c->outs);
  c->out_start = NULL, c->outs = NULL;
  if (layout_edges(b)) return sink;
  free(sink);
  return NULL;
}

/* Numbers the gates in a topological order of their components (see
 * dl_circuit), a block's members consecutive, the move cone after the
 * rest, the lazy (or goal-only) gates last, those in the move cone from
 * lz_cone0; sets cone_start and goal_start. */
static int order_gates(build *b)
{
  dl_circuit *c = b->c;
  size_t nc = (size_t)c->n_gates + c->n_blocks + 1;
  order o = { calloc(nc, 4), calloc((size_t)c->n_blocks + 2, 4), malloc(((size_t)c->n_gates + 1) * 4),
              malloc(CLASSES * nc * 4), malloc(((size_t)c->n_gates + 1) * 4), move_cone(c), { 0 }, 0 };
  in_edges ie = { NULL, NULL };
  int ok = o.indeg && o.bstart && o.bmem && o.fifo && o.perm && o.cone;
  if (ok && b->mode == DL_CIRCUIT_AUTO) {
    int lazy = in_edges_make(c, &ie) ? prefer_lazy(c, &ie, o.cone) : -1;
    ok = lazy >= 0;
    b->mode = lazy > 0 ? DL_CIRCUIT_LAZY : DL_CIRCUIT_EAGER;
  }
  int lazy = b->mode == DL_CIRCUIT_LAZY;
  uint8_t *sink = ok && lazy ? cut_next_rules(b) : NULL;
  ok = ok && (!lazy || sink);
  if (ok && (lazy || !ie.start)) {  /* none yet, or the cut changed the wires */
    in_edges_free(&ie);
    ok = in_edges_make(c, &ie);
  }
  uint32_t n_goal = ok ? goal_only(c, &ie, o.cone, lazy, sink) : NONE;
  in_edges_free(&ie);
  for (uint32_t g = 0; sink && n_goal != NONE && g < c->n_gates; g++)
    assert(!sink[g] || o.cone[g] >= 2);  /* cut off its head, a sink must be lazy */
  free(sink);
  ok = ok && n_goal != NONE;
  if (ok) {
    /* members of block k at bmem[bstart[k] .. bstart[k + 1]) */
    for (uint32_t g = 0; g < c->n_gates; g++)
      if (c->block[g]) o.bstart[c->block[g] + 1]++;
    for (uint32_t k = 0; k < c->n_blocks; k++) o.bstart[k + 2] += o.bstart[k + 1];
    for (uint32_t g = 0; g < c->n_gates; g++)
      if (c->block[g]) o.bmem[o.bstart[c->block[g]]++] = g;
    kahn(c, &o);
    assert(o.placed == c->n_gates);
    uint32_t in_cone = 0, lazy_in_cone = 0;
    for (uint32_t g = 0; g < c->n_gates; g++) in_cone += o.cone[g] == 1, lazy_in_cone += o.cone[g] == 3;
    c->goal_start = c->n_gates - n_goal;
    c->lz_cone0 = c->n_gates - lazy_in_cone;
    b->hooks_in_cone = hooks_in_cone(c, o.cone);
    c->cone_start = b->hooks_in_cone ? c->goal_start : c->goal_start - in_cone;
  }
  ok = ok && renumber(b, o.perm);
  free(o.indeg), free(o.bstart), free(o.bmem), free(o.fifo), free(o.perm), free(o.cone);
  return ok ? 1 : cc_oom(b);
}

static int block_lists(build *b)
{
  dl_circuit *c = b->c;
  c->block_start = calloc((size_t)c->n_blocks + 1, sizeof *c->block_start);
  if (!c->block_start) return cc_oom(b);
  uint32_t members = 0;
  for (uint32_t g = 0; g < c->n_gates; g++) {
    if (!c->block[g]) continue;
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++)
      if ((c->outs[i] & 1) && c->block[c->outs[i] >> 1] == c->block[g]) {
        cc_report_atom(b, c->gate_atom[g], "recursion through negation in the ground game, at the negation of");
        return 0;
      }
    c->block_start[c->block[g]]++;
    members++;
  }
  for (uint32_t k = 0; k < c->n_blocks; k++) c->block_start[k + 1] += c->block_start[k];
  c->block_members = malloc(((size_t)members + 1) * sizeof *c->block_members);
  c->work = malloc(((size_t)members + 1) * sizeof *c->work);
  c->old = malloc((size_t)members + 1);
  uint32_t *fill = malloc(((size_t)c->n_blocks + 1) * sizeof *fill);
  if (!c->block_members || !c->work || !c->old || !fill) {
    free(fill);
    return cc_oom(b);
  }
  memcpy(fill, c->block_start, ((size_t)c->n_blocks + 1) * sizeof *fill);
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (c->block[g]) c->block_members[fill[c->block[g] - 1]++] = g;
  free(fill);
  for (uint32_t e = 0; e < c->n_edges; e++) c->outs[e] = c->outs[e] << 1 | (c->block[c->outs[e] >> 1] != 0);
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (c->out_start[g + 1] > c->out_start[g]) c->hook[g] |= HAS_OUTPUTS;
  c->stats.cyclic_blocks = c->n_blocks;
  c->stats.cyclic_gates = members;
  return 1;
}

/* Brings every gate to its value with all inputs false (constants and NOTs
 * true), then sets the initial state. */
int cc_settle(build *b)
{
  dl_circuit *c = b->c;
  for (uint32_t g = 0, k = 0; g < c->net_words;) {
    if ((c->net[g + NET_OUTS] & 1) || (c->net[g] & TOP)) cc_queue(c, g);
    uint32_t next = cc_first_out(c->net, g) + (c->net[g + NET_OUTS] >> 2);
    if (k < c->n_feeders && c->feeder_gate[k] == g) next += c->feeder_outs[k++];
    g = next;
  }
  cc_propagate(c, c->net_words);
  dl_circuit_set_state(c, c->init);
  return 1;
}

static void count_stats(dl_circuit *c)
{
  dl_circuit_stats *s = &c->stats;
  s->gates = c->n_gates;
  s->edges = c->n_edges;
  for (uint32_t g = 0; g < c->n_gates; g++) {
    s->and_gates += c->kind[g] == KIND_AND;
    s->or_gates += c->kind[g] == KIND_OR;
    s->inputs += c->kind[g] == KIND_INPUT;
  }
  for (uint32_t e = 0; e < c->n_edges; e++) s->negated += (c->outs[e] >> 1) & 1;
  s->fluents = c->n_fluents;
  s->moves = c->n_moves;
  s->roles = c->n_roles;
  s->state_words = c->words;
}

/* The feeders (see dl_circuit): gates before goal_start with outputs to
 * goal-only gates, in order, their dense numbers (pack_net renames them);
 * 1, or 0 when out of memory. */
static int count_feeders(dl_circuit *c)
{
  uint32_t n = 0;
  for (int fill = 0; fill < 2; fill++) {
    if (fill) {
      c->feeder_gate = malloc(((size_t)n + 1) * sizeof *c->feeder_gate);
      c->feeder_outs = malloc(((size_t)n + 1) * sizeof *c->feeder_outs);
      c->feeder_seen = calloc((size_t)n + 1, 1);  /* every source starts false */
      if (!c->feeder_gate || !c->feeder_outs || !c->feeder_seen) return 0;
      c->n_feeders = n;
      n = 0;
    }
    for (uint32_t g = 0; g < c->goal_start; g++) {
      uint32_t m = 0;
      for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++) m += c->outs[i] >> 2 >= c->goal_start;
      if (!m) continue;
      if (fill) c->feeder_gate[n] = g, c->feeder_outs[n] = m;
      n++;
    }
  }
  return 1;
}

/* Gives every gate its record's offset in off[0..n_gates] (off[n_gates]:
 * the gates' words; a lazy circuit's gates from goal_start have no record
 * and no outputs into them).  Returns 0 after reporting when the records
 * and the selections' records laid out after them pass 2^29 words. */
static int record_offsets(build *b, uint32_t *off, uint64_t records)
{
  dl_circuit *c = b->c;
  int lazy = b->mode == DL_CIRCUIT_LAZY;
  uint64_t words = 0;
  for (uint32_t g = 0; g < c->n_gates; g++) {
    off[g] = (uint32_t)words;
    if (lazy && g >= c->goal_start) continue;
    words += 3 + (c->block[g] != 0) + (c->out_start[g + 1] - c->out_start[g]);
    words += cc_special_outputs(c, &b->sel, g, NULL);
    for (uint32_t i = c->out_start[g]; lazy && i < c->out_start[g + 1]; i++) words -= c->outs[i] >> 2 >= c->goal_start;
    if (words + records >= (1u << 29)) {
      dl_diag_fail(b->diag, DL_CAUSE_LIMIT, "the ground game is too large for a circuit");
      return 0;
    }
  }
  off[c->n_gates] = (uint32_t)words;
  return 1;
}

/* Allocates the net (the gates' words, then `records` more) and the
 * propagation queue over it.  Returns 0 when out of memory (not reported). */
static int alloc_net(dl_circuit *c, uint32_t gate_words, uint64_t records)
{
  c->net_words = gate_words;
  c->net = malloc((gate_words + records + 1) * sizeof *c->net);
  c->queue_words = (c->net_words + 63) / 64;
  c->sum_words = (c->queue_words + 63) / 64;
  c->queue = calloc((size_t)c->queue_words + 1, 8);
  c->queue_sum = calloc((size_t)c->sum_words + 1, 8);
  return c->net && c->queue && c->queue_sum;
}

/* Writes gate g's record at c->net + off[g]: counter, info, its live
 * outputs (renamed to offsets) and the selections' outputs, then, unless
 * lazy, a feeder's outputs to goal-only gates. */
static void write_record(build *b, const uint32_t *off, const uint32_t *fanin, uint32_t g)
{
  dl_circuit *c = b->c;
  int lazy = b->mode == DL_CIRCUIT_LAZY;
  uint32_t *r = c->net + off[g], q = c->block[g] ? 4 : 3, live = 0;
  r[NET_COUNTER] = c->counter[g];
  r[NET_INFO] = c->hook[g] & ~HAS_OUTPUTS;
  for (int goal = 0; goal < 2 - lazy; goal++) {
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++)
      if ((g < c->goal_start && c->outs[i] >> 2 >= c->goal_start) == goal) {
        r[q++] = off[c->outs[i] >> 2] << 2 | (c->outs[i] & 3);
        live += !goal;
      }
    if (!goal) {
      uint32_t n = cc_special_outputs(c, &b->sel, g, r + q);
      q += n, live += n;
    }
  }
  r[NET_OUTS] = live << 2 | (uint32_t)(fanin[g] == 1 && !c->block[g]) << 1 | (c->block[g] != 0);
  if (c->block[g]) r[3] = c->block[g];
}

/* Renames every gate the circuit's tables name by its record's offset. */
static void rename_gates(build *b, const uint32_t *off)
{
  dl_circuit *c = b->c;
  for (uint32_t f = 0; f < c->n_fluents; f++)
    if (c->fluent_gate[f] != NONE) c->fluent_gate[f] = off[c->fluent_gate[f]];
  for (uint32_t m = 0; m < c->n_moves; m++)
    if (c->move_gate[m] != NONE) c->move_gate[m] = off[c->move_gate[m]];
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (c->role_gate[r] != NONE) c->role_gate[r] = off[c->role_gate[r]];
  for (uint32_t k = 0; k < c->check_start[c->n_moves]; k++)
    c->check_lit[k] = off[c->check_lit[k] >> 1] << 1 | (c->check_lit[k] & 1);
  for (uint32_t k = 0; k < c->n_al; k++) c->al_gate[k] = off[c->al_gate[k]];
  for (uint32_t k = 0; k < c->block_start[c->n_blocks]; k++) c->block_members[k] = off[c->block_members[k]];
  if (b->survey)
    for (uint32_t r = 0; r < b->survey->rows; r++) b->survey->offset[r] = off[b->survey->offset[r]];
  c->cone_start = off[c->cone_start];
  c->goal_start = off[c->goal_start];
}

/* Frees the compiler's arrays per dense gate number, which the net
 * replaces. */
static void free_dense(dl_circuit *c)
{
  void *dense[] = { c->counter, c->out_start, c->outs, c->hook, c->block, c->kind, c->gate_atom };
  for (size_t i = 0; i < sizeof dense / sizeof dense[0]; i++) free(dense[i]);
  c->counter = c->out_start = c->outs = c->hook = c->block = c->gate_atom = NULL;
  c->kind = NULL;
}

/* Adds the packed circuit's arrays to stats.bytes. */
static void count_bytes(dl_circuit *c, int lazy)
{
  size_t w = c->words ? c->words : 1;
  c->stats.bytes += sizeof *c + (size_t)c->net_words * 4 + (size_t)(c->queue_words + c->sum_words) * 8 +
                    (size_t)c->n_fluents * 12 + w * 32 + (size_t)c->n_moves * 29 + (size_t)c->stats.cyclic_gates * 9 +
                    (size_t)c->n_feeders * 9 + c->stats.bytes_wide + (size_t)c->n_moves * 5 + c->n_roles +
                    (size_t)c->check_start[c->n_moves] * 4 +
                    ((size_t)c->n_fluents * 2 + (size_t)c->n_groups * 3 + c->stats.selected_ands * 3) * 4;
  if (lazy)
    c->stats.bytes += ((size_t)c->lz_words + (size_t)c->n_moves * 2 +                   /* lz, move_lazy, lz_cand */
                       (size_t)c->n_roles * (c->n_fluents + 1) + c->n_lazy_moves +        /* lzm_start, lzm_moves */
                       c->n_roles + 2 * (size_t)c->ungated_start[c->n_roles] +             /* ungated */
                       (size_t)(c->n_roles + 1) * (c->n_fluents + 2) +                     /* true_list, n_true */
                       (size_t)c->n_fluents + c->n_moves + SK_WORDS * (size_t)c->n_sinks) * 4 + /* sk_start, sk_list */
                    c->n_moves + (size_t)(c->n_roles + 1) * (c->n_fluents + 1);            /* any_in, true_key */
}

/* Packs the gates into their records (see circuit_impl.h), renames every
 * gate by its record's offset and frees the compiler's arrays. */
static int pack_net(build *b)
{
  dl_circuit *c = b->c;
  int lazy = b->mode == DL_CIRCUIT_LAZY;  /* the gates from goal_start have no record */
  if ((!lazy && !b->hooks_in_cone && !cc_wide_build(b)) || !cc_take_checks(b) || !cc_take_selections(b)) return 0;
  uint64_t records = cc_selection_words(&b->sel);  /* laid out after the gates */
  uint32_t *off = malloc(((size_t)c->n_gates + 1) * sizeof *off);
  uint32_t *fanin = calloc((size_t)c->n_gates + 1, sizeof *fanin);
  int ok = off && fanin ? record_offsets(b, off, records) : cc_oom(b);
  if (ok && (!alloc_net(c, off[c->n_gates], records) || (!lazy && !count_feeders(c)))) ok = cc_oom(b);
  if (ok) {
    for (uint32_t e = 0; e < c->n_edges; e++) fanin[c->outs[e] >> 2]++;
    for (uint32_t g = 0, k = 0; g < (lazy ? c->goal_start : c->n_gates); g++) {
      write_record(b, off, fanin, g);
      if (k < c->n_feeders && c->feeder_gate[k] == g) c->feeder_gate[k++] = off[g];
    }
    ok = !lazy || cc_lazy_build(b, off, c->goal_start);
  }
  if (ok) {
    cc_place_selections(c, &b->sel, off);
    c->stats.bytes += records * 4;
    rename_gates(b, off);
    free_dense(c);
    count_bytes(c, lazy);
  }
  free(off);
  free(fanin);
  return ok;
}

int cc_layout(build *b)
{
  if (!layout_edges(b) || !find_blocks(b) || !order_gates(b) || !block_lists(b)) return 0;
  count_stats(b->c);
  return pack_net(b);
}
