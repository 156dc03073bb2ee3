/* symmetry.c: automorphisms of the rule graph through bliss (see
 * symmetry.h). */
#include "datalog/structure/symmetry.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>
#include <bliss/bliss_C.h>

#include "datalog/structure/permset.h"

struct dl_symmetry {
  const dl_rgraph *g;
  uint32_t n;            /* the rule graph's vertices */
  uint32_t *full;        /* while finding: count permutations of the n vertices */
  uint32_t count, cap;
  uint32_t m;            /* the points: symbol and argument vertices some generator moves */
  uint32_t *points;      /* point -> vertex */
  uint32_t *index;       /* vertex -> point, UINT32_MAX when no generator moves it */
  uint32_t *gens;        /* count permutations of the m points */
  dl_permset group;      /* its elements, once enumerated */
  int group_exact;
  long double graph_order;
  int failed;
};

/* 1 when vertex v is a symbol or an argument position. */
static int is_symbolic(const dl_rgraph *g, uint32_t v)
{
  uint8_t kind = dl_rgraph_vertex(g, v)->kind;
  return kind == DL_RG_SYMBOL || kind == DL_RG_ARG;
}

/* Called by bliss with each generator of the graph's group: keeps those
 * that move a symbol or an argument position. */
static void keep_generator(void *ctx, unsigned int n, const unsigned int *aut)
{
  dl_symmetry *s = ctx;
  uint32_t v = 0;
  while (v < s->n && (aut[v] == v || !is_symbolic(s->g, v))) v++;
  if (v == s->n || s->failed) return;
  (void)n;
  if (s->count == s->cap) {
    uint32_t cap = s->cap ? 2 * s->cap : 8;
    uint32_t *full = realloc(s->full, (size_t)cap * s->n * sizeof *full);
    if (!full) {
      s->failed = 1;
      return;
    }
    s->full = full, s->cap = cap;
  }
  uint32_t *p = s->full + (size_t)s->count++ * s->n;
  for (v = 0; v < s->n; v++) p[v] = aut[v];
}

/* Marks in both[] the colour pairs (a, b) with edges both ways, or a == b:
 * their edges need a direction of their own. */
static uint8_t *two_way_colours(const dl_rgraph *g, uint32_t colours)
{
  uint8_t *seen = calloc((size_t)colours * colours, 1);
  if (!seen) return NULL;
  for (uint32_t i = 0, m = dl_rgraph_edge_count(g), u, v; i < m; i++) {
    dl_rgraph_edge(g, i, &u, &v);
    seen[(size_t)dl_rgraph_vertex(g, u)->colour * colours + dl_rgraph_vertex(g, v)->colour] = 1;
  }
  return seen;
}

static int needs_direction(const dl_rgraph *g, const uint8_t *seen, uint32_t colours, uint32_t u, uint32_t v)
{
  uint32_t a = dl_rgraph_vertex(g, u)->colour, b = dl_rgraph_vertex(g, v)->colour;
  return a == b || seen[(size_t)b * colours + a];
}

/* The rule graph as an undirected bliss graph (see symmetry.h); NULL when
 * out of memory. */
static BlissGraph *bliss_graph(const dl_rgraph *g)
{
  uint32_t colours = dl_rgraph_colour_count(g), tail = colours, head = colours + 1;
  uint8_t *seen = two_way_colours(g, colours);
  BlissGraph *b = seen ? bliss_new(0) : NULL;
  if (!b) {
    free(seen);
    return NULL;
  }
  for (uint32_t v = 0, n = dl_rgraph_vertex_count(g); v < n; v++) bliss_add_vertex(b, dl_rgraph_vertex(g, v)->colour);
  for (uint32_t i = 0, m = dl_rgraph_edge_count(g), u, v; i < m; i++) {
    dl_rgraph_edge(g, i, &u, &v);
    if (!needs_direction(g, seen, colours, u, v)) {
      bliss_add_edge(b, u, v);
      continue;
    }
    unsigned a = bliss_add_vertex(b, tail), h = bliss_add_vertex(b, head);
    bliss_add_edge(b, u, a);
    bliss_add_edge(b, a, h);
    bliss_add_edge(b, h, v);
  }
  free(seen);
  return b;
}

#ifndef NDEBUG
/* 1 when p maps every edge of g to an edge and keeps colours: bliss's
 * answer checked on the directed graph (a debugging aid). */
static int is_automorphism(const dl_rgraph *g, const uint32_t *p)
{
  Pvoid_t edges = NULL;
  int rc, ok = 1;
  for (uint32_t i = 0, m = dl_rgraph_edge_count(g), u, v; i < m; i++) {
    dl_rgraph_edge(g, i, &u, &v);
    J1S(rc, edges, (Word_t)u << 32 | v);
  }
  for (uint32_t i = 0, m = dl_rgraph_edge_count(g), u, v; ok && i < m; i++) {
    dl_rgraph_edge(g, i, &u, &v);
    J1T(rc, edges, (Word_t)p[u] << 32 | p[v]);
    ok = rc && dl_rgraph_vertex(g, u)->colour == dl_rgraph_vertex(g, p[u])->colour;
  }
  Word_t bytes;
  J1FA(bytes, edges);
  (void)bytes, (void)rc;
  return ok;
}
#endif

/* The points some generator moves (symbol and argument vertices), and
 * the generators restricted to them; then the full permutations go.  0
 * when out of memory. */
static int restrict_generators(dl_symmetry *s)
{
  s->points = malloc(((size_t)s->n + 1) * sizeof *s->points);
  s->index = malloc(((size_t)s->n + 1) * sizeof *s->index);
  if (!s->points || !s->index) return 0;
  for (uint32_t v = 0; v < s->n; v++) {
    int moved = 0;
    for (uint32_t i = 0; i < s->count && !moved; i++) moved = s->full[(size_t)i * s->n + v] != v;
    s->index[v] = moved && is_symbolic(s->g, v) ? s->m : UINT32_MAX;
    if (s->index[v] != UINT32_MAX) s->points[s->m++] = v;
  }
  if (!(s->gens = malloc(((size_t)s->count * s->m + 1) * sizeof *s->gens))) return 0;
  for (uint32_t i = 0; i < s->count; i++)
    for (uint32_t j = 0; j < s->m; j++) s->gens[(size_t)i * s->m + j] = s->index[s->full[(size_t)i * s->n + s->points[j]]];
  free(s->full);
  s->full = NULL;
  return 1;
}

dl_symmetry *dl_symmetry_find(const dl_rgraph *g, dl_diag *diag)
{
  assert(g && diag);
  dl_symmetry *s = calloc(1, sizeof *s);
  BlissGraph *b = s ? bliss_graph(g) : NULL;
  if (!b) {
    free(s);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory finding symmetries");
    return NULL;
  }
  s->g = g, s->n = dl_rgraph_vertex_count(g);
  BlissStats stats;
  bliss_find_automorphisms(b, keep_generator, s, &stats);
  bliss_release(b);
  s->graph_order = stats.group_size_approx;
  for (uint32_t i = 0; !s->failed && i < s->count; i++) assert(is_automorphism(g, s->full + (size_t)i * s->n));
  if (s->failed || !restrict_generators(s)) {
    dl_symmetry_destroy(s);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory finding symmetries");
    return NULL;
  }
  return s;
}

void dl_symmetry_destroy(dl_symmetry *s)
{
  if (!s) return;
  free(s->full), free(s->points), free(s->index), free(s->gens);
  dl_permset_free(&s->group);
  free(s);
}

const dl_rgraph *dl_symmetry_graph(const dl_symmetry *s) { return s->g; }

uint32_t dl_symmetry_count(const dl_symmetry *s) { return s->count; }

long double dl_symmetry_graph_order(const dl_symmetry *s) { return s->graph_order; }

/* Permutation i of set (a row of m points). */
static const uint32_t *row(const dl_symmetry *s, dl_sym_set set, uint64_t i)
{
  assert(set == DL_SYM_GENERATOR ? i < s->count : i < s->group.n);
  return (set == DL_SYM_GENERATOR ? s->gens : s->group.elems) + i * s->m;
}

/* The image of vertex v under permutation p of the points. */
static uint32_t image(const dl_symmetry *s, const uint32_t *p, uint32_t v)
{
  uint32_t j = s->index[v];
  return j == UINT32_MAX ? v : s->points[p[j]];
}

/* ---- the group, enumerated ---- */

uint64_t dl_symmetry_group(dl_symmetry *s, uint64_t limit, int *exact)
{
  assert(s && exact && limit > 0);
  if (!s->group.elems && dl_permset_init(&s->group, s->m, limit)) {
    int whole = dl_permset_close(&s->group, s->gens, s->count);
    if (whole < 0) dl_permset_free(&s->group);
    s->group_exact = whole == 1;
  }
  *exact = s->group_exact;
  return s->group.n;
}

/* ---- permutations applied and written ---- */

static dl_tid apply_row(const dl_symmetry *s, const uint32_t *p, dl_terms *terms, dl_tid t, uint32_t pos)
{
  dl_sym f = dl_terms_functor(terms, t);
  uint32_t n = dl_terms_arity(terms, t);
  if (n == 0) {
    uint32_t v = dl_rgraph_constant_vertex(s->g, f, pos);
    return v == UINT32_MAX || image(s, p, v) == v ? t : dl_terms_constant(terms, dl_rgraph_vertex(s->g, image(s, p, v))->sym);
  }
  uint32_t v = dl_rgraph_symbol_vertex(s->g, f, n);
  if (v == UINT32_MAX) return t;
  dl_tid small[8], *args = n <= 8 ? small : malloc(n * sizeof *args);
  if (!args) return DL_NO_TERM;
  uint32_t w = image(s, p, v);
  int ok = 1;
  for (uint32_t j = 0; j < n && ok; j++) {
    dl_tid a = apply_row(s, p, terms, dl_terms_args(terms, t)[j], dl_rgraph_arg_position(s->g, v, j));
    args[image(s, p, v + 1 + j) - w - 1] = a;
    ok = a != DL_NO_TERM;
  }
  dl_tid result = ok ? dl_terms_make(terms, dl_rgraph_vertex(s->g, w)->sym, n, args) : DL_NO_TERM;
  if (args != small) free(args);
  return result;
}

dl_tid dl_symmetry_apply(const dl_symmetry *s, dl_sym_set set, uint64_t i, dl_terms *terms, dl_tid t, uint32_t pos)
{
  assert(s && terms);
  return apply_row(s, row(s, set, i), terms, t, pos);
}

/* Appends the cycle of v under p ("a <-> b", "a -> b -> c -> a"),
 * marking its vertices done. */
static void write_cycle(const dl_symmetry *s, const uint32_t *p, uint32_t v, uint8_t *done, dl_buf *out)
{
  uint32_t length = 0;
  for (uint32_t w = v; !length || w != v; w = image(s, p, w)) length++;
  uint32_t w = v;
  for (uint32_t k = 0; k < length; k++, w = image(s, p, w)) {
    if (k) dl_buf_addz(out, length == 2 ? " <-> " : " -> ");
    dl_rgraph_write_label(s->g, w, out);
    done[w] = 1;
  }
  if (length == 2) return;
  dl_buf_addz(out, " -> ");
  dl_rgraph_write_label(s->g, v, out);
}

/* 1 when argument vertex v goes where its symbol's image puts it anyway. */
static int follows_symbol(const dl_symmetry *s, const uint32_t *p, uint32_t v)
{
  uint32_t pos = dl_rgraph_vertex(s->g, v)->n, sym = v - pos;
  return image(s, p, v) == image(s, p, sym) + pos;
}

void dl_symmetry_write(const dl_symmetry *s, uint32_t i, dl_buf *out)
{
  const uint32_t *p = row(s, DL_SYM_GENERATOR, i);
  uint8_t *done = calloc(s->n + 1, 1);
  if (!done) {
    out->failed = 1;
    return;
  }
  int first = 1;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t j = 0; j < s->m; j++) {
      uint32_t v = s->points[j];
      uint8_t kind = dl_rgraph_vertex(s->g, v)->kind;
      if (done[v] || image(s, p, v) == v || kind != (pass ? DL_RG_ARG : DL_RG_SYMBOL)) continue;
      if (pass && follows_symbol(s, p, v)) continue;
      if (!first) dl_buf_addz(out, ", ");
      write_cycle(s, p, v, done, out);
      first = 0;
    }
  free(done);
}
