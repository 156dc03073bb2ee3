/* circuit_layout.c: the circuit's wires laid out per gate, its cyclic
 * blocks found, and its first settling (see circuit_build.h). */
#include "datalog/gdl/circuit_build.h"

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

static int block_lists(build *b)
{
  dl_circuit *c = b->c;
  c->block_start = calloc((size_t)c->n_blocks + 1, sizeof *c->block_start);
  c->dirty = calloc((size_t)c->n_blocks + 1, 1);
  c->dirty_list = malloc(((size_t)c->n_blocks + 1) * sizeof *c->dirty_list);
  c->val = calloc((size_t)c->n_gates + 1, 1);
  if (!c->block_start || !c->dirty || !c->dirty_list || !c->val) return cc_oom(b);
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
  uint32_t *fill = malloc(((size_t)c->n_blocks + 1) * sizeof *fill);
  if (!c->block_members || !c->work || !fill) {
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
  c->cap = (size_t)c->n_gates + c->n_edges + 64;
  c->stack = malloc(c->cap * sizeof *c->stack);
  if (!c->stack) return cc_oom(b);
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (!c->block[g] && (c->counter[g] & TOP)) cc_flip(c, g, 1);
  for (uint32_t k = 0; k < c->n_blocks; k++) cc_mark_dirty(c, k);
  if (!cc_propagate(c) || !dl_circuit_set_state(c, c->init)) return cc_oom(b);
  return 1;
}

void cc_count_stats(dl_circuit *c)
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
  size_t g = c->n_gates, w = c->words ? c->words : 1;
  s->bytes = sizeof *c + g * (4 + 4 + 4 + 1 + 4 + 4 + 1) + (size_t)c->n_edges * 4 + c->cap * 4 +
             (size_t)c->n_fluents * 8 + w * 32 + (size_t)c->n_moves * 20 + s->cyclic_gates * 8;
}

int cc_layout(build *b) { return layout_edges(b) && find_blocks(b) && block_lists(b); }
