/* bliss.h: the two calls gdlog makes of bliss, the graph automorphism
 * library, on a directed graph with coloured vertices.  bliss is C++ and
 * reports running out of memory by throwing; these wrappers (bliss.cc)
 * catch that and return 0, so that C callers see a status. */
#ifndef GDLOG_BLISS_H
#define GDLOG_BLISS_H

#ifdef __cplusplus
extern "C" {
#endif

/* A directed graph: vertices 0 .. n - 1 of colours colour[0..n), edges
 * edges[2i] -> edges[2i + 1] for i < m. */
typedef struct dl_bliss_graph {
  unsigned n, m;
  const unsigned *colour;
  const unsigned *edges;
} dl_bliss_graph;

/* Called with each generator of the automorphism group found: aut[v] is
 * the image of vertex v (valid during the call only). */
typedef void (*dl_bliss_hook)(void *ctx, unsigned n, const unsigned *aut);

/* Calls hook with generators of g's automorphism group; *order gets the
 * group's order (bliss's approximation).  1, or 0 when out of memory. */
int dl_bliss_automorphisms(const dl_bliss_graph *g, dl_bliss_hook hook, void *ctx, long double *order);

/* A canonical labelling of g into lab[0..n): lab[v] is v's number in the
 * canonical form.  1, or 0 when out of memory. */
int dl_bliss_canonical(const dl_bliss_graph *g, unsigned *lab);

#ifdef __cplusplus
}
#endif

#endif
