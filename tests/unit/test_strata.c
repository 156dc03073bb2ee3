/* test_strata.c: components come out dependencies first, strata count the
 * negations on the longest path, and a cycle through negation is returned as
 * a closed chain of edges that contains a negative one. */
#include <stdio.h>

#include "check.h"
#include "strata/strata.h"

/* 0 -> 1 -> 2 -> 1 (recursion), 2 -not-> 3, 0 -not-> 3: strata 0, 0, 0, 1 */
static void ordered(void)
{
  st_graph *g = st_graph_create(4);
  st_graph_add_edge(g, 0, 1, 0, 0);
  st_graph_add_edge(g, 1, 2, 0, 1);
  st_graph_add_edge(g, 2, 1, 0, 2);
  st_graph_add_edge(g, 2, 3, 1, 3);
  st_graph_add_edge(g, 0, 3, 1, 4);
  st_strata *s;
  st_cycle c;
  CHECK(st_strata_build(g, &s, &c) && s, "stratified");
  CHECK(s->n_sccs == 3, "three components, got %u", s->n_sccs);
  CHECK(s->scc_of[1] == s->scc_of[2], "1 and 2 share a component");
  CHECK(s->scc_of[0] < s->scc_of[1] && s->scc_of[1] < s->scc_of[3], "dependencies come first");
  CHECK(s->recursive[s->scc_of[1]] && !s->recursive[s->scc_of[0]], "recursion is marked");
  CHECK(s->stratum[s->scc_of[3]] == 1 && s->stratum[s->scc_of[0]] == 0, "negation raises the stratum");
  st_strata_destroy(s);
  st_graph_destroy(g);
}

/* 0 -> 1 -> 2 -not-> 0: the cycle has all three edges, one negative */
static void negative_cycle(void)
{
  st_graph *g = st_graph_create(3);
  st_graph_add_edge(g, 0, 1, 0, 10);
  st_graph_add_edge(g, 1, 2, 0, 11);
  st_graph_add_edge(g, 2, 0, 1, 12);
  st_strata *s;
  st_cycle c;
  CHECK(st_strata_build(g, &s, &c) && s == NULL && c.n > 0, "rejected");
  int closed = c.n == 3, negative = 0;
  for (uint32_t i = 0; i < c.n; i++) {
    negative |= c.edges[i].negative;
    closed &= c.edges[i].to == c.edges[(i + 1) % c.n].from;
  }
  CHECK(closed && negative, "a closed chain of %u edges through the negation", c.n);
  st_cycle_free(&c);
  st_graph_destroy(g);
}

/* a chain of 200,000 nodes: the iterative Tarjan does not overflow the stack */
static void long_chain(void)
{
  const uint32_t n = 200000;
  st_graph *g = st_graph_create(n);
  for (uint32_t v = 0; v + 1 < n; v++) st_graph_add_edge(g, v, v + 1, (v % 1000) == 0, v);
  st_strata *s;
  st_cycle c;
  CHECK(st_strata_build(g, &s, &c) && s && s->n_sccs == n, "a long chain is stratified");
  CHECK(s->stratum[s->scc_of[n - 1]] == 200, "its last node is in stratum 200, got %u", s->stratum[s->scc_of[n - 1]]);
  st_strata_destroy(s);
  st_graph_destroy(g);
}

int main(void)
{
  ordered();
  negative_cycle();
  long_chain();
  return check_exit();
}
