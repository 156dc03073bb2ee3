/* symmetry.c: automorphisms of the rule graph through bliss (see
 * symmetry.h). */
#include "datalog/structure/symmetry.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/ids.h"
#include "datalog/base/sort.h"
#include "datalog/structure/bliss.h"
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

/* The rule graph as bliss takes it: colours and edges copied into x. */
typedef struct bliss_input {
  dl_ids colour, edges;
  dl_bliss_graph graph;
} bliss_input;

static void bliss_input_free(bliss_input *x)
{
  dl_ids_free(&x->colour);
  dl_ids_free(&x->edges);
}

/* Fills *x (zeroed) from g; 0 when out of memory. */
static int bliss_input_of(const dl_rgraph *g, bliss_input *x)
{
  uint32_t n = dl_rgraph_vertex_count(g), m = dl_rgraph_edge_count(g);
  if (!dl_ids_reserve(&x->colour, n + 1) || !dl_ids_reserve(&x->edges, 2 * m + 1)) return 0;
  for (uint32_t v = 0; v < n; v++) x->colour.ids[v] = dl_rgraph_vertex(g, v)->colour;
  for (uint32_t i = 0; i < m; i++) dl_rgraph_edge(g, i, &x->edges.ids[2 * i], &x->edges.ids[2 * i + 1]);
  x->colour.n = n, x->edges.n = 2 * m;
  x->graph = (dl_bliss_graph){ n, m, x->colour.ids, x->edges.ids };
  return 1;
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
  bliss_input x = { 0 };
  int ok = s && bliss_input_of(g, &x);
  if (ok) s->g = g, s->n = dl_rgraph_vertex_count(g);
  long double graph_order;  /* variable renamings included: not the game's */
  ok = ok && dl_bliss_automorphisms(&x.graph, keep_generator, s, &graph_order);
  bliss_input_free(&x);
  if (!ok) {
    dl_symmetry_destroy(s);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory finding symmetries");
    return NULL;
  }
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

/* ---- canonical forms ---- */

struct dl_canon {
  uint32_t n;            /* vertices */
  uint32_t *place;       /* per vertex: its canonical number */
  uint32_t *at;          /* per canonical number: the vertex */
  uint32_t *colour;      /* per canonical number: the colour */
  uint64_t *edges;       /* canonical edges (from << 32 | to), sorted */
  uint32_t n_edges;
  uint64_t hash;
};

static int compare_u64(const void *x, const void *y, void *ctx)
{
  (void)ctx;
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

static uint64_t mix(uint64_t h, uint64_t x)
{
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xbf58476d1ce4e5b9ull;
}

/* The canonical form of x from bliss's labelling lab. */
static int fill_canon(dl_canon *c, const bliss_input *x, const unsigned *lab)
{
  c->n = x->colour.n, c->n_edges = x->edges.n / 2;
  c->place = malloc(((size_t)c->n + 1) * sizeof *c->place);
  c->at = malloc(((size_t)c->n + 1) * sizeof *c->at);
  c->colour = malloc(((size_t)c->n + 1) * sizeof *c->colour);
  c->edges = malloc(((size_t)c->n_edges + 1) * sizeof *c->edges);
  if (!c->place || !c->at || !c->colour || !c->edges) return 0;
  for (uint32_t v = 0; v < c->n; v++) c->place[v] = lab[v], c->at[lab[v]] = v, c->colour[lab[v]] = x->colour.ids[v];
  for (uint32_t i = 0; i < c->n_edges; i++) {
    c->edges[i] = (uint64_t)lab[x->edges.ids[2 * i]] << 32 | lab[x->edges.ids[2 * i + 1]];
  }
  dl_sort(c->edges, c->n_edges, sizeof *c->edges, compare_u64, NULL);
  uint64_t h = mix(c->n, c->n_edges);
  for (uint32_t i = 0; i < c->n; i++) h = mix(h, c->colour[i]);
  for (uint32_t i = 0; i < c->n_edges; i++) h = mix(h, c->edges[i]);
  c->hash = h ^ (h >> 29);
  return 1;
}

dl_canon *dl_canon_build(const dl_rgraph *g, dl_diag *diag)
{
  assert(g && diag);
  dl_canon *c = calloc(1, sizeof *c);
  bliss_input x = { 0 };
  unsigned *lab = c && bliss_input_of(g, &x) ? malloc(((size_t)x.colour.n + 1) * sizeof *lab) : NULL;
  int ok = lab && dl_bliss_canonical(&x.graph, lab) && fill_canon(c, &x, lab);
  free(lab);
  bliss_input_free(&x);
  if (ok) return c;
  dl_canon_destroy(c);
  dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory finding a canonical form");
  return NULL;
}

void dl_canon_destroy(dl_canon *c)
{
  if (!c) return;
  free(c->place), free(c->at), free(c->colour), free(c->edges);
  free(c);
}

uint64_t dl_canon_hash(const dl_canon *c) { return c->hash; }

int dl_canon_equal(const dl_canon *a, const dl_canon *b)
{
  return a->n == b->n && a->n_edges == b->n_edges && !memcmp(a->colour, b->colour, a->n * sizeof *a->colour) &&
         !memcmp(a->edges, b->edges, a->n_edges * sizeof *a->edges);
}

uint32_t dl_canon_place(const dl_canon *c, uint32_t v)
{
  assert(v < c->n);
  return c->place[v];
}

uint32_t dl_canon_vertex(const dl_canon *c, uint32_t i)
{
  assert(i < c->n);
  return c->at[i];
}
