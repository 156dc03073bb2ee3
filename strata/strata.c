/* strata.c: Tarjan's components (iterative, so that long chains of
 * predicates cannot overflow the stack), then strata by longest path. */
#include "strata/strata.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct st_graph {
  uint32_t n;
  st_edge *edges;
  uint32_t n_edges, cap;
};

st_graph *st_graph_create(uint32_t n)
{
  st_graph *g = calloc(1, sizeof *g);
  if (g) g->n = n;
  return g;
}

void st_graph_destroy(st_graph *g)
{
  if (!g) return;
  free(g->edges);
  free(g);
}

int st_graph_add_edge(st_graph *g, uint32_t from, uint32_t to, int negative, uint32_t label)
{
  assert(g && from < g->n && to < g->n);
  if (g->n_edges == g->cap) {
    uint32_t cap = g->cap ? g->cap * 2 : 64;
    st_edge *q = realloc(g->edges, cap * sizeof *q);
    if (!q) return 0;
    g->edges = q;
    g->cap = cap;
  }
  st_edge e = { from, to, label, (uint8_t)(negative != 0) };
  g->edges[g->n_edges++] = e;
  return 1;
}

void st_strata_destroy(st_strata *s)
{
  if (!s) return;
  free(s->scc_of);
  free(s->members);
  free(s->scc_start);
  free(s->stratum);
  free(s->recursive);
  free(s);
}

void st_cycle_free(st_cycle *c)
{
  free(c->edges);
  c->edges = NULL;
  c->n = 0;
}

/* Out-edges in compressed form: edges of node v are adj[start[v] .. start[v+1]). */
typedef struct csr {
  uint32_t *start;
  uint32_t *adj;   /* edge indices */
} csr;

static int csr_build(const st_graph *g, csr *c)
{
  c->start = calloc((size_t)g->n + 1, sizeof(uint32_t));
  c->adj = malloc(((size_t)g->n_edges + 1) * sizeof(uint32_t));
  if (!c->start || !c->adj) return 0;
  for (uint32_t e = 0; e < g->n_edges; e++) c->start[g->edges[e].from + 1]++;
  for (uint32_t v = 0; v < g->n; v++) c->start[v + 1] += c->start[v];
  uint32_t *fill = malloc(((size_t)g->n + 1) * sizeof(uint32_t));
  if (!fill) return 0;
  memcpy(fill, c->start, ((size_t)g->n + 1) * sizeof(uint32_t));
  for (uint32_t e = 0; e < g->n_edges; e++) c->adj[fill[g->edges[e].from]++] = e;
  free(fill);
  return 1;
}

static void csr_free(csr *c)
{
  free(c->start);
  free(c->adj);
}

/* Tarjan's algorithm; fills s->scc_of with components numbered in the order
 * they complete (dependents before their dependencies). */
typedef struct tarjan {
  const st_graph *g;
  const csr *c;
  uint32_t *index, *low, *stack, *call, *next_edge;
  uint8_t *on_stack;
  uint32_t n_stack, n_call, counter, n_sccs;
  uint32_t *scc_of;
} tarjan;

static void tarjan_visit(tarjan *t, uint32_t root)
{
  const uint32_t NONE = UINT32_MAX;
  t->call[t->n_call++] = root;
  t->index[root] = t->low[root] = t->counter++;
  t->next_edge[root] = t->c->start[root];
  t->stack[t->n_stack++] = root;
  t->on_stack[root] = 1;
  while (t->n_call) {
    uint32_t v = t->call[t->n_call - 1];
    if (t->next_edge[v] < t->c->start[v + 1]) {
      uint32_t w = t->g->edges[t->c->adj[t->next_edge[v]++]].to;
      if (t->index[w] == NONE) {
        t->index[w] = t->low[w] = t->counter++;
        t->next_edge[w] = t->c->start[w];
        t->stack[t->n_stack++] = w;
        t->on_stack[w] = 1;
        t->call[t->n_call++] = w;
      } else if (t->on_stack[w] && t->index[w] < t->low[v]) {
        t->low[v] = t->index[w];
      }
      continue;
    }
    t->n_call--;
    if (t->n_call) {
      uint32_t parent = t->call[t->n_call - 1];
      if (t->low[v] < t->low[parent]) t->low[parent] = t->low[v];
    }
    if (t->low[v] == t->index[v]) {
      uint32_t w;
      do {
        w = t->stack[--t->n_stack];
        t->on_stack[w] = 0;
        t->scc_of[w] = t->n_sccs;
      } while (w != v);
      t->n_sccs++;
    }
  }
}

static int components(const st_graph *g, const csr *c, uint32_t *scc_of, uint32_t *n_sccs)
{
  size_t n = g->n ? g->n : 1;
  tarjan t = { g, c, malloc(n * 4), malloc(n * 4), malloc(n * 4), malloc(n * 4), malloc(n * 4),
               calloc(n, 1), 0, 0, 0, 0, scc_of };
  int ok = t.index && t.low && t.stack && t.call && t.next_edge && t.on_stack;
  if (ok) {
    memset(t.index, 0xff, n * 4);
    for (uint32_t v = 0; v < g->n; v++)
      if (t.index[v] == UINT32_MAX) tarjan_visit(&t, v);
    *n_sccs = t.n_sccs;
  }
  free(t.index); free(t.low); free(t.stack); free(t.call); free(t.next_edge); free(t.on_stack);
  return ok;
}

/* Finds a path from `from` to `to` inside component scc by breadth-first
 * search; appends its edges to cyc.  Returns 0 when out of memory. */
static int path_in_scc(const st_graph *g, const csr *c, const uint32_t *scc_of,
                       uint32_t from, uint32_t to, st_cycle *cyc)
{
  uint32_t *via = malloc(((size_t)g->n + 1) * 4), *queue = malloc(((size_t)g->n + 1) * 4);
  if (!via || !queue) { free(via); free(queue); return 0; }
  memset(via, 0xff, (size_t)g->n * 4);
  uint32_t head = 0, tail = 0;
  queue[tail++] = from;
  while (head < tail && via[to] == UINT32_MAX) {
    uint32_t v = queue[head++];
    for (uint32_t k = c->start[v]; k < c->start[v + 1]; k++) {
      const st_edge *e = &g->edges[c->adj[k]];
      if (scc_of[e->to] != scc_of[from] || via[e->to] != UINT32_MAX) continue;
      via[e->to] = c->adj[k];
      queue[tail++] = e->to;
    }
  }
  uint32_t n = 0;
  if (via[to] != UINT32_MAX)
    for (uint32_t v = to; v != from; v = g->edges[via[v]].from) n++;
  st_edge *q = realloc(cyc->edges, (size_t)(cyc->n + n + 1) * sizeof *q);
  if (!q) { free(via); free(queue); return 0; }
  cyc->edges = q;
  uint32_t v = to;
  for (uint32_t i = n; i-- > 0; ) {
    cyc->edges[cyc->n + i] = g->edges[via[v]];
    v = g->edges[via[v]].from;
  }
  cyc->n += n;
  free(via);
  free(queue);
  return 1;
}

/* The cycle made of negative edge e and a path back from e.to to e.from. */
static int negative_cycle(const st_graph *g, const csr *c, const uint32_t *scc_of,
                          const st_edge *e, st_cycle *cyc)
{
  cyc->edges = malloc(sizeof(st_edge));
  if (!cyc->edges) return 0;
  cyc->edges[0] = *e;
  cyc->n = 1;
  if (e->from == e->to) return 1;
  return path_in_scc(g, c, scc_of, e->to, e->from, cyc);
}

static int fill_strata(const st_graph *g, const csr *c, st_strata *s)
{
  uint32_t n = g->n, k = s->n_sccs;
  s->members = malloc(((size_t)n + 1) * 4);
  s->scc_start = calloc((size_t)k + 1, 4);
  s->stratum = calloc((size_t)k + 1, 4);
  s->recursive = calloc((size_t)k + 1, 1);
  if (!s->members || !s->scc_start || !s->stratum || !s->recursive) return 0;
  /* Tarjan numbered dependents first; evaluation order is the reverse. */
  for (uint32_t v = 0; v < n; v++) s->scc_of[v] = k - 1 - s->scc_of[v];
  for (uint32_t v = 0; v < n; v++) s->scc_start[s->scc_of[v] + 1]++;
  for (uint32_t i = 0; i < k; i++) s->scc_start[i + 1] += s->scc_start[i];
  uint32_t *fill = malloc(((size_t)k + 1) * 4);
  if (!fill) return 0;
  memcpy(fill, s->scc_start, ((size_t)k + 1) * 4);
  for (uint32_t v = 0; v < n; v++) s->members[fill[s->scc_of[v]]++] = v;
  free(fill);
  /* Longest path in negations: in evaluation order every edge into a
   * component comes from one already done. */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v = s->members[i], a = s->scc_of[v];
    for (uint32_t j = c->start[v]; j < c->start[v + 1]; j++) {
      const st_edge *e = &g->edges[c->adj[j]];
      uint32_t b = s->scc_of[e->to];
      if (a == b) { s->recursive[a] = 1; continue; }
      if (s->stratum[a] + e->negative > s->stratum[b]) s->stratum[b] = s->stratum[a] + e->negative;
    }
  }
  return 1;
}

int st_strata_build(const st_graph *g, st_strata **out, st_cycle *cycle)
{
  assert(g && out && cycle);
  *out = NULL;
  cycle->edges = NULL;
  cycle->n = 0;
  csr c = { 0 };
  st_strata *s = calloc(1, sizeof *s);
  int result = 0;
  if (!s || !csr_build(g, &c)) goto done;
  s->n_nodes = g->n;
  s->scc_of = malloc(((size_t)g->n + 1) * 4);
  if (!s->scc_of || !components(g, &c, s->scc_of, &s->n_sccs)) goto done;
  for (uint32_t e = 0; e < g->n_edges; e++) {
    const st_edge *ed = &g->edges[e];
    if (ed->negative && s->scc_of[ed->from] == s->scc_of[ed->to]) {
      result = negative_cycle(g, &c, s->scc_of, ed, cycle);
      goto done;
    }
  }
  if (!fill_strata(g, &c, s)) goto done;
  *out = s;
  s = NULL;
  result = 1;
done:
  csr_free(&c);
  st_strata_destroy(s);
  if (!result) st_cycle_free(cycle);
  return result;
}

int st_stratify(const st_graph *g, st_strata **out, st_cycle *cycle)
{
  if (!st_strata_build(g, out, cycle)) return -1;
  return *out ? 1 : 0;
}
