/* strata.h: the predicate dependency graph, its strongly connected components
 * and the strata of stratified negation.
 *
 * Nodes are predicates 0..n-1; an edge from -> to says that a rule for `to`
 * uses `from` in its body, negatively or not.  Components come out in an order
 * in which every component follows all components it depends on, so
 * evaluating them in that order is correct.  A negative edge inside a
 * component makes the program unstratified; st_stratify then returns a cycle
 * through it. */
#ifndef GDLOG_STRATA_H
#define GDLOG_STRATA_H

#include <stdint.h>

typedef struct st_graph st_graph;

typedef struct st_edge {
  uint32_t from, to;
  uint32_t label;    /* caller's tag, e.g. the rule that made the edge */
  uint8_t negative;
} st_edge;

typedef struct st_strata {
  uint32_t n_nodes;
  uint32_t n_sccs;
  uint32_t *scc_of;     /* per node: its component */
  uint32_t *members;    /* nodes grouped by component, components in evaluation order */
  uint32_t *scc_start;  /* component c has members[scc_start[c] .. scc_start[c+1]) */
  uint32_t *stratum;    /* per component: negations below it on the longest path */
  uint8_t *recursive;   /* per component: 1 when some edge stays inside it */
} st_strata;

/* A cycle through negation: edges[i].to == edges[i+1].from, and the last edge
 * leads back to the first one's source.  At least one edge is negative. */
typedef struct st_cycle {
  st_edge *edges;
  uint32_t n;
} st_cycle;

/* Creates a graph with n nodes and no edges; NULL when out of memory. */
st_graph *st_graph_create(uint32_t n);

/* Frees the graph; NULL is allowed. */
void st_graph_destroy(st_graph *g);

/* Adds an edge; returns 0 when out of memory. */
int st_graph_add_edge(st_graph *g, uint32_t from, uint32_t to, int negative, uint32_t label);

/* Computes components and strata.  Returns 1 with either *out set (free
 * with st_strata_destroy), or *out NULL and *cycle filled (free with
 * st_cycle_free) when a cycle goes through negation; 0 when out of memory
 * (then *out is NULL and *cycle empty). */
int st_strata_build(const st_graph *g, st_strata **out, st_cycle *cycle);

/* The old convention of st_strata_build, kept until its last caller
 * (datalog/program/program.c) moves: 1 with *out, 0 with *cycle, -1 when
 * out of memory.  New code calls st_strata_build. */
int st_stratify(const st_graph *g, st_strata **out, st_cycle *cycle);

/* Frees strata; NULL is allowed. */
void st_strata_destroy(st_strata *s);

/* Frees the edges of a cycle. */
void st_cycle_free(st_cycle *c);

#endif
