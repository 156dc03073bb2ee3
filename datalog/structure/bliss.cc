// bliss.cc: bliss's Digraph behind a C interface (see bliss.h).  The only
// C++ in gdlog: bliss throws std::bad_alloc when memory runs out, and an
// exception must not cross into C.
#include "datalog/structure/bliss.h"

#include <bliss/graph.hh>

#include <new>

namespace {

bliss::Digraph *make_graph(const dl_bliss_graph *g)
{
  bliss::Digraph *d = new bliss::Digraph(0);
  // Component recursion: bliss 0.73 leaks its partition's component data
  // (Partition::cr_init) after a search that used it; off, as LeakSanitizer
  // demands.  It speeds up graphs of several components, which rule graphs
  // seldom are (their keywords join them).
  d->set_component_recursion(false);
  for (unsigned v = 0; v < g->n; v++) d->add_vertex(g->colour[v]);
  for (unsigned i = 0; i < g->m; i++) d->add_edge(g->edges[2 * i], g->edges[2 * i + 1]);
  return d;
}

}  // namespace

extern "C" int dl_bliss_automorphisms(const dl_bliss_graph *g, dl_bliss_hook hook, void *ctx, long double *order)
{
  bliss::Digraph *d = nullptr;
  try {
    d = make_graph(g);
    bliss::Stats stats;
    d->find_automorphisms(stats, hook, ctx);
    *order = stats.get_group_size_approx();
    delete d;
    return 1;
  } catch (const std::bad_alloc &) {
    delete d;
    return 0;
  }
}

extern "C" int dl_bliss_canonical(const dl_bliss_graph *g, unsigned *lab)
{
  bliss::Digraph *d = nullptr;
  try {
    d = make_graph(g);
    bliss::Stats stats;
    const unsigned *canonical = d->canonical_form(stats, nullptr, nullptr);
    for (unsigned v = 0; v < g->n; v++) lab[v] = canonical[v];
    delete d;
    return 1;
  } catch (const std::bad_alloc &) {
    delete d;
    return 0;
  }
}
