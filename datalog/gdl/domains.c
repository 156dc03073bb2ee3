/* domains.c: the domain graph and the domains (see domains.h).
 *
 * Vertices are numbered: symbols (a name with an arity, fn) and positions
 * (pos; symbol f owns positions f.pos .. f.pos + arity - 1).  A domain is a
 * bitset over symbols.  Edges between positions are propagated with a work
 * list until nothing changes; every step only adds bits, so it ends. */
#include "datalog/gdl/domains.h"

#include "index/relation.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/arena.h"
#include "datalog/base/sort.h"

typedef struct fnode {
  dl_sym sym;
  uint32_t arity;
  uint32_t pos;        /* its first position */
  uint8_t is_term;     /* occurs as a constant or function term */
  uint8_t is_pred;     /* occurs as an atom */
  uint8_t has_head;    /* is the head of a rule */
  uint8_t infinite;    /* has infinitely many instances */
  double count;        /* instances as a term; < 0 before computed */
} fnode;

typedef struct shape shape;

typedef struct sub {   /* f(args) written out in a head */
  uint32_t fn;
  shape **args;
} sub;

struct shape {         /* a domain refined by head occurrences */
  uint64_t *bits;      /* values over their symbol-wide domains */
  sub *subs;
  uint32_t n_subs, cap_subs;
};

typedef struct edge { uint32_t from, to; } edge;

struct dl_domains {
  const dl_program *p;
  dl_terms *terms;
  dl_arena *arena;       /* shapes */
  fnode *fn;
  uint32_t n_fn, cap_fn;
  Pvoid_t fn_of;         /* JudyL: sym << 16 | arity -> fn + 1 */
  uint32_t n_pos;
  uint32_t *pos_fn;      /* per position: its symbol */
  uint32_t words;        /* 64-bit words per bitset */
  uint64_t *dom;         /* per position: its domain */
  edge *pe, *ve;         /* position -> position; value -> position */
  uint32_t n_pe, cap_pe, n_ve, cap_ve;
  Pvoid_t seen_edges;    /* Judy1: kind << 63 | from << 32 | to */
  shape ***pshape;       /* per symbol that is a predicate: arity shapes */
  char **cycles;
  size_t n_cycles;
  int has_base, has_input;
  double extra_true, extra_does;  /* instances init/next (legal) add to base (input) */
  int failed;            /* out of memory */
};

enum { MAX_CYCLES = 20 };

/* ---- vertices ------------------------------------------------------------ */

static uint32_t fn_find(const dl_domains *d, dl_sym s, uint32_t arity)
{
  Word_t *v;
  JLG(v, d->fn_of, ((Word_t)s << 16) | arity);
  return v ? (uint32_t)*v - 1 : UINT32_MAX;
}

static uint32_t fn_add(dl_domains *d, dl_sym s, uint32_t arity)
{
  uint32_t f = fn_find(d, s, arity);
  if (f != UINT32_MAX) return f;
  if (d->n_fn == d->cap_fn) {
    uint32_t cap = d->cap_fn ? 2 * d->cap_fn : 64;
    fnode *q = realloc(d->fn, cap * sizeof *q);
    if (!q) { d->failed = 1; return UINT32_MAX; }
    d->fn = q;
    d->cap_fn = cap;
  }
  Word_t *v;
  JLI(v, d->fn_of, ((Word_t)s << 16) | arity);
  if (v == PJERR) { d->failed = 1; return UINT32_MAX; }
  f = d->n_fn++;
  *v = f + 1;
  d->fn[f] = (fnode){ s, arity, d->n_pos, 0, 0, 0, 0, -1.0 };
  d->n_pos += arity;
  return f;
}

static uint32_t fn_of_term(dl_domains *d, const ast_term *t)
{
  return fn_add(d, t->value, t->kind == AST_FUN ? t->n : 0);
}

static void add_term_nodes(dl_domains *d, const ast_term *t, int is_atom)
{
  if (t->kind == AST_VAR) return;
  uint32_t f = fn_of_term(d, t);
  if (f == UINT32_MAX) return;
  if (is_atom) d->fn[f].is_pred = 1;
  else d->fn[f].is_term = 1;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) add_term_nodes(d, t->args[i], 0);
}

static void add_rule_nodes(dl_domains *d, const dl_rule *r)
{
  add_term_nodes(d, r->head, 1);
  uint32_t h = fn_of_term(d, r->head);
  if (h != UINT32_MAX) d->fn[h].has_head = 1;
  for (uint32_t k = 0; k < r->n_body; k++) {
    const dl_literal *l = &r->body[k];
    if (l->kind == DL_POS || l->kind == DL_NEG) add_term_nodes(d, l->atom, 1);
    else { add_term_nodes(d, l->a, 0); add_term_nodes(d, l->b, 0); }
  }
}

/* The symbol named z with the given arity, or UINT32_MAX. */
static uint32_t fn_named(const dl_domains *d, const char *z, uint32_t arity)
{
  dl_sym s = dl_terms_symbol(d->terms, z, strlen(z));
  return s == DL_NO_SYM ? UINT32_MAX : fn_find(d, s, arity);
}

/* ---- edges ----------------------------------------------------------------- */

static void edge_add(dl_domains *d, int value, uint32_t from, uint32_t to)
{
  int fresh;
  J1S(fresh, d->seen_edges, ((Word_t)value << 63) | ((Word_t)from << 32) | to);
  if (fresh == JERR) { d->failed = 1; return; }
  if (!fresh) return;
  edge **a = value ? &d->ve : &d->pe;
  uint32_t *n = value ? &d->n_ve : &d->n_pe, *cap = value ? &d->cap_ve : &d->cap_pe;
  if (*n == *cap) {
    uint32_t c = *cap ? 2 * *cap : 256;
    edge *q = realloc(*a, c * sizeof *q);
    if (!q) { d->failed = 1; return; }
    *a = q;
    *cap = c;
  }
  (*a)[(*n)++] = (edge){ from, to };
}

/* Calls back for every position of a positive body literal of r where
 * variable v occurs: adds an edge to `to`, or ORs its domain into bits. */
static void var_walk(dl_domains *d, const ast_term *t, uint32_t v, uint32_t to, uint64_t *bits)
{
  if (t->kind != AST_FUN) return;
  uint32_t f = fn_of_term(d, t);
  for (uint32_t i = 0; i < t->n; i++) {
    const ast_term *a = t->args[i];
    if (a->kind == AST_VAR && a->value == v) {
      uint32_t q = d->fn[f].pos + i;
      if (bits) for (uint32_t w = 0; w < d->words; w++) bits[w] |= d->dom[(size_t)q * d->words + w];
      else edge_add(d, 0, q, to);
    }
    var_walk(d, a, v, to, bits);
  }
}

static void var_body(dl_domains *d, const dl_rule *r, uint32_t v, uint32_t to, uint64_t *bits)
{
  for (uint32_t k = 0; k < r->n_body; k++)
    if (r->body[k].kind == DL_POS) var_walk(d, r->body[k].atom, v, to, bits);
}

/* Edges into the positions of head expression t (an atom or a function). */
static void head_edges(dl_domains *d, const dl_rule *r, const ast_term *t)
{
  if (t->kind != AST_FUN) return;
  uint32_t f = fn_of_term(d, t);
  for (uint32_t i = 0; i < t->n; i++) {
    const ast_term *a = t->args[i];
    uint32_t to = d->fn[f].pos + i;
    if (a->kind == AST_VAR) var_body(d, r, a->value, to, NULL);
    else edge_add(d, 1, fn_of_term(d, a), to);
    head_edges(d, r, a);
  }
}

/* The edge from position i of a to position i of b, when both exist. */
static void keyword_edge(dl_domains *d, uint32_t a, uint32_t b, uint32_t i)
{
  if (a != UINT32_MAX && b != UINT32_MAX) edge_add(d, 0, d->fn[a].pos + i, d->fn[b].pos + i);
}

static void keyword_edges(dl_domains *d)
{
  uint32_t base = fn_named(d, "base", 1), input = fn_named(d, "input", 2);
  uint32_t truth = fn_named(d, "true", 1), does = fn_named(d, "does", 2);
  d->has_base = base != UINT32_MAX && d->fn[base].has_head;
  d->has_input = input != UINT32_MAX && d->fn[input].has_head;
  /* Definition 14.1 has only the base and input edges; the init, next and
   * legal edges keep the domains sound for games whose base or input misses
   * something (3pffa.kif), and add nothing when base and input are complete. */
  if (d->has_base) keyword_edge(d, base, truth, 0);
  keyword_edge(d, fn_named(d, "init", 1), truth, 0);
  keyword_edge(d, fn_named(d, "next", 1), truth, 0);
  for (uint32_t i = 0; i < 2; i++) {
    if (d->has_input) keyword_edge(d, input, does, i);
    keyword_edge(d, fn_named(d, "legal", 2), does, i);
  }
}

/* ---- propagation ------------------------------------------------------------ */

static int propagate(dl_domains *d)
{
  uint32_t *start = calloc((size_t)d->n_pos + 1, sizeof *start);
  uint32_t *to = malloc(((size_t)d->n_pe + 1) * sizeof *to);
  uint32_t *queue = malloc(((size_t)d->n_pos + 1) * sizeof *queue);
  uint8_t *queued = calloc((size_t)d->n_pos + 1, 1);
  int ok = start && to && queue && queued;
  for (uint32_t e = 0; ok && e < d->n_pe; e++) start[d->pe[e].from + 1]++;
  for (uint32_t p = 0; ok && p < d->n_pos; p++) start[p + 1] += start[p];
  for (uint32_t e = 0; ok && e < d->n_pe; e++) to[start[d->pe[e].from]++] = d->pe[e].to;
  for (uint32_t p = d->n_pos; ok && p > 0; p--) start[p] = start[p - 1];
  if (ok) start[0] = 0;
  uint32_t head = 0, n = 0;  /* circular queue of at most n_pos entries */
  for (uint32_t p = 0; ok && p < d->n_pos; p++) { queue[n++] = p; queued[p] = 1; }
  while (ok && n > 0) {
    uint32_t p = queue[head];
    head = (head + 1) % d->n_pos;
    n--;
    queued[p] = 0;
    const uint64_t *src = d->dom + (size_t)p * d->words;
    for (uint32_t e = start[p]; e < start[p + 1]; e++) {
      uint64_t *dst = d->dom + (size_t)to[e] * d->words, changed = 0;
      for (uint32_t w = 0; w < d->words; w++) { changed |= src[w] & ~dst[w]; dst[w] |= src[w]; }
      if (!changed || queued[to[e]]) continue;
      queue[(head + n++) % d->n_pos] = to[e];
      queued[to[e]] = 1;
    }
  }
  free(start); free(to); free(queue); free(queued);
  return ok;
}

static int bit_has(const uint64_t *bits, uint32_t i) { return (int)((bits[i >> 6] >> (i & 63)) & 1); }

static const uint64_t *pos_dom(const dl_domains *d, uint32_t pos) { return d->dom + (size_t)pos * d->words; }

/* ---- infinite domains ----------------------------------------------------------- */

typedef struct dfs {
  uint8_t *color;      /* 0 new, 1 on the stack, 2 done */
  uint32_t *stack_fn, *stack_pos;
  uint32_t depth;
} dfs;

static void record_cycle(dl_domains *d, const dfs *s, uint32_t g)
{
  if (d->n_cycles >= MAX_CYCLES) return;
  dl_buf b = { 0 };
  uint32_t i = s->depth;
  while (i > 0 && s->stack_fn[i - 1] != g) i--;
  for (i = i ? i - 1 : 0; i < s->depth; i++) {
    const fnode *f = &d->fn[s->stack_fn[i]];
    char at[32];
    snprintf(at, sizeof at, "[%u] -> ", s->stack_pos[i] - f->pos + 1);
    d->fn[s->stack_fn[i]].infinite = 1;
    dl_buf_addz(&b, dl_terms_name(d->terms, f->sym, NULL));
    dl_buf_add(&b, " -> ", 4);
    dl_buf_addz(&b, dl_terms_name(d->terms, f->sym, NULL));
    dl_buf_addz(&b, at);
  }
  dl_buf_addz(&b, dl_terms_name(d->terms, d->fn[g].sym, NULL));
  char **q = b.failed ? NULL : realloc(d->cycles, (d->n_cycles + 1) * sizeof *q);
  if (!q) { d->failed = 1; dl_buf_free(&b); return; }
  d->cycles = q;
  d->cycles[d->n_cycles++] = b.data;
}

/* Depth-first search over f -> g when g is in the domain of a position of f. */
static void dfs_visit(dl_domains *d, dfs *s, uint32_t f)
{
  s->color[f] = 1;
  for (uint32_t i = 0; i < d->fn[f].arity; i++) {
    const uint64_t *bits = pos_dom(d, d->fn[f].pos + i);
    s->stack_fn[s->depth] = f;
    s->stack_pos[s->depth] = d->fn[f].pos + i;
    s->depth++;
    for (uint32_t g = 0; g < d->n_fn; g++) {
      if (!bit_has(bits, g) || d->fn[g].arity == 0) continue;
      if (s->color[g] == 1) { d->fn[g].infinite = 1; record_cycle(d, s, g); }
      else if (s->color[g] == 0) dfs_visit(d, s, g);
    }
    s->depth--;
  }
  s->color[f] = 2;
}

static int find_infinite(dl_domains *d)
{
  dfs s = { calloc(d->n_fn + 1, 1), malloc(((size_t)d->n_pos + 1) * sizeof(uint32_t)),
            malloc(((size_t)d->n_pos + 1) * sizeof(uint32_t)), 0 };
  int ok = s.color && s.stack_fn && s.stack_pos;
  for (uint32_t f = 0; ok && f < d->n_fn; f++)
    if (s.color[f] == 0 && d->fn[f].arity > 0) dfs_visit(d, &s, f);
  free(s.color); free(s.stack_fn); free(s.stack_pos);
  for (int changed = 1; ok && changed;) {
    changed = 0;
    for (uint32_t f = 0; f < d->n_fn; f++)
      for (uint32_t i = 0; !d->fn[f].infinite && i < d->fn[f].arity; i++)
        for (uint32_t g = 0; g < d->n_fn; g++)
          if (bit_has(pos_dom(d, d->fn[f].pos + i), g) && d->fn[g].infinite) { d->fn[f].infinite = 1; changed = 1; break; }
  }
  return ok;
}

/* ---- counts ---------------------------------------------------------------------- */

static double count_bits(dl_domains *d, const uint64_t *bits);

static double count_fn(dl_domains *d, uint32_t f)
{
  fnode *n = &d->fn[f];
  if (n->infinite) return INFINITY;
  if (n->count >= 0) return n->count;
  double c = 1;
  for (uint32_t i = 0; i < n->arity; i++) c *= count_bits(d, pos_dom(d, d->fn[f].pos + i));
  d->fn[f].count = c;
  return c;
}

static double count_bits(dl_domains *d, const uint64_t *bits)
{
  double c = 0;
  for (uint32_t f = 0; f < d->n_fn; f++)
    if (bit_has(bits, f)) c += count_fn(d, f);
  return c;
}

static double count_shape(dl_domains *d, const shape *s)
{
  double c = count_bits(d, s->bits);
  for (uint32_t k = 0; k < s->n_subs; k++) {
    if (bit_has(s->bits, s->subs[k].fn)) continue;
    double m = 1;
    for (uint32_t i = 0; i < d->fn[s->subs[k].fn].arity; i++) m *= count_shape(d, s->subs[k].args[i]);
    c += m;
  }
  return c;
}

/* ---- shapes: domains refined by head occurrences ------------------------------------ */

static shape *shape_new(dl_domains *d)
{
  shape *s = dl_arena_alloc(d->arena, sizeof *s);
  if (s) s->bits = dl_arena_alloc(d->arena, d->words * sizeof(uint64_t));
  if (!s || !s->bits) { d->failed = 1; return NULL; }
  return s;
}

/* The written-out f(...) of s, created empty when absent. */
static sub *shape_sub(dl_domains *d, shape *s, uint32_t f)
{
  for (uint32_t k = 0; k < s->n_subs; k++)
    if (s->subs[k].fn == f) return &s->subs[k];
  if (s->n_subs == s->cap_subs) {
    uint32_t cap = s->cap_subs ? 2 * s->cap_subs : 4;
    sub *q = dl_arena_alloc(d->arena, cap * sizeof *q);
    if (!q) { d->failed = 1; return NULL; }
    if (s->n_subs) memcpy(q, s->subs, s->n_subs * sizeof *q);
    s->subs = q;
    s->cap_subs = cap;
  }
  sub *u = &s->subs[s->n_subs];
  u->fn = f;
  u->args = dl_arena_alloc(d->arena, (d->fn[f].arity + 1) * sizeof *u->args);
  for (uint32_t i = 0; u->args && i < d->fn[f].arity; i++)
    if (!(u->args[i] = shape_new(d))) return NULL;
  if (!u->args) { d->failed = 1; return NULL; }
  s->n_subs++;
  return u;
}

static void shape_add_term(dl_domains *d, shape *s, const dl_rule *r, const ast_term *t)
{
  if (!s) return;
  if (t->kind == AST_VAR) { var_body(d, r, t->value, 0, s->bits); return; }
  uint32_t f = fn_of_term(d, t);
  if (t->kind == AST_SYM) { s->bits[f >> 6] |= (uint64_t)1 << (f & 63); return; }
  sub *u = shape_sub(d, s, f);
  for (uint32_t i = 0; u && i < t->n; i++) shape_add_term(d, u->args[i], r, t->args[i]);
}

static void shape_merge(dl_domains *d, shape *dst, const shape *src)
{
  if (!dst || !src) return;
  for (uint32_t w = 0; w < d->words; w++) dst->bits[w] |= src->bits[w];
  for (uint32_t k = 0; k < src->n_subs; k++) {
    sub *u = shape_sub(d, dst, src->subs[k].fn);
    for (uint32_t i = 0; u && i < d->fn[u->fn].arity; i++) shape_merge(d, u->args[i], src->subs[k].args[i]);
  }
}

static int make_shapes(dl_domains *d)
{
  d->pshape = calloc(d->n_fn + 1, sizeof *d->pshape);
  if (!d->pshape) return 0;
  for (uint32_t f = 0; f < d->n_fn; f++) {
    if (!d->fn[f].is_pred) continue;
    d->pshape[f] = dl_arena_alloc(d->arena, (d->fn[f].arity + 1) * sizeof(shape *));
    if (!d->pshape[f]) return 0;
    for (uint32_t i = 0; i < d->fn[f].arity; i++) d->pshape[f][i] = shape_new(d);
  }
  const ast_program *ast = d->p->ast;
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    const ast_term *h = ast->rules[r].head;
    uint32_t f = fn_of_term(d, h);
    for (uint32_t i = 0; h->kind == AST_FUN && i < h->n; i++)
      shape_add_term(d, d->pshape[f][i], &ast->rules[r], h->args[i]);
  }
  return !d->failed;
}

/* Merges the refined domains of predicate `from` into those of `to`.  Either
 * may be a function symbol and no predicate (true(q) only as an argument,
 * as in p(true(q))): it has no shapes then, and there is nothing to merge. */
static void merge_pred(dl_domains *d, uint32_t to, const char *from, uint32_t arity)
{
  uint32_t s = fn_named(d, from, arity);
  for (uint32_t i = 0; to != UINT32_MAX && s != UINT32_MAX && d->pshape[to] && d->pshape[s] && i < arity; i++)
    shape_merge(d, d->pshape[to][i], d->pshape[s][i]);
}

static double pred_row_count(dl_domains *d, uint32_t f);

/* true and does take the refined domains of their sources (see keyword_edges). */
static void keyword_shapes(dl_domains *d)
{
  uint32_t truth = fn_named(d, "true", 1), does = fn_named(d, "does", 2);
  merge_pred(d, truth, "base", 1);
  merge_pred(d, does, "input", 2);
  uint32_t base = fn_named(d, "base", 1), input = fn_named(d, "input", 2);
  double n_base = d->has_base && truth != UINT32_MAX ? pred_row_count(d, truth) : 0;
  double n_input = d->has_input && does != UINT32_MAX ? pred_row_count(d, does) : 0;
  merge_pred(d, truth, "init", 1);
  merge_pred(d, truth, "next", 1);
  merge_pred(d, does, "legal", 2);
  /* a game may have base or input facts and no true or does at all */
  if (d->has_base && truth != UINT32_MAX && pred_row_count(d, truth) > n_base)
    d->extra_true = pred_row_count(d, truth) - n_base;
  if (d->has_input && does != UINT32_MAX && pred_row_count(d, does) > n_input)
    d->extra_does = pred_row_count(d, does) - n_input;
  (void)base;
  (void)input;
}

/* ---- building ---------------------------------------------------------------------- */

static int build(dl_domains *d)
{
  const ast_program *ast = d->p->ast;
  for (uint32_t r = 0; r < ast->n_rules; r++) add_rule_nodes(d, &ast->rules[r]);
  if (d->failed) return 0;
  d->words = (d->n_fn + 63) / 64 + 1;
  d->dom = calloc((size_t)d->n_pos * d->words + 1, sizeof *d->dom);
  d->pos_fn = malloc(((size_t)d->n_pos + 1) * sizeof *d->pos_fn);
  if (!d->dom || !d->pos_fn) return 0;
  for (uint32_t f = 0; f < d->n_fn; f++)
    for (uint32_t i = 0; i < d->fn[f].arity; i++) d->pos_fn[d->fn[f].pos + i] = f;
  for (uint32_t r = 0; r < ast->n_rules; r++) head_edges(d, &ast->rules[r], ast->rules[r].head);
  keyword_edges(d);
  if (d->failed) return 0;
  for (uint32_t e = 0; e < d->n_ve; e++) {
    uint32_t f = d->ve[e].from;
    d->dom[(size_t)d->ve[e].to * d->words + (f >> 6)] |= (uint64_t)1 << (f & 63);
  }
  if (!propagate(d) || !find_infinite(d) || !make_shapes(d)) return 0;
  keyword_shapes(d);
  return !d->failed;
}

dl_domains *dl_domains_build(const dl_program *p, dl_diag *diag)
{
  assert(p && diag);
  dl_domains *d = calloc(1, sizeof *d);
  if (d) {
    d->p = p;
    d->terms = p->terms;
    d->arena = dl_arena_create();
  }
  if (!d || !d->arena || !build(d)) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while computing the domains");
    dl_domains_destroy(d);
    return NULL;
  }
  return d;
}

void dl_domains_destroy(dl_domains *d)
{
  if (!d) return;
  Word_t bytes;
  JLFA(bytes, d->fn_of);
  J1FA(bytes, d->seen_edges);
  (void)bytes;
  for (size_t i = 0; i < d->n_cycles; i++) free(d->cycles[i]);
  free(d->cycles);
  free(d->fn);
  free(d->pos_fn);
  free(d->dom);
  free(d->pe);
  free(d->ve);
  free(d->pshape);
  dl_arena_destroy(d->arena);
  free(d);
}

int dl_domains_has_base(const dl_domains *d) { return d->has_base; }

int dl_domains_has_input(const dl_domains *d) { return d->has_input; }

size_t dl_domains_cycle_count(const dl_domains *d) { return d->n_cycles; }

const char *dl_domains_cycle(const dl_domains *d, size_t i)
{
  assert(i < d->n_cycles);
  return d->cycles[i];
}

/* The symbol of predicate pred of the program, or UINT32_MAX. */
static uint32_t pred_fn(const dl_domains *d, uint32_t pred)
{
  return fn_find(d, d->p->preds[pred].name, d->p->preds[pred].arity);
}

/* Instances of predicate symbol f over its refined domains. */
static double pred_row_count(dl_domains *d, uint32_t f)
{
  double c = d->fn[f].arity == 0 ? d->fn[f].has_head : 1;
  if (!d->pshape[f]) return 0;  /* a functor that is no predicate: true/does only inside bodies */
  for (uint32_t i = 0; i < d->fn[f].arity; i++) c *= count_shape(d, d->pshape[f][i]);
  return c;
}

double dl_domains_pred_count(const dl_domains *d, uint32_t pred)
{
  assert(pred < d->p->n_preds);
  uint32_t f = pred_fn(d, pred);
  if (f == UINT32_MAX || !d->pshape[f]) return 0;
  return pred_row_count((dl_domains *)d, f);  /* counts are memoised */
}

double dl_domains_arg_count(const dl_domains *d, uint32_t pred, uint32_t arg)
{
  assert(pred < d->p->n_preds && arg < d->p->preds[pred].arity);
  uint32_t f = pred_fn(d, pred);
  if (f == UINT32_MAX || !d->pshape[f] || arg >= d->fn[f].arity) return 0;
  return count_shape((dl_domains *)d, d->pshape[f][arg]);  /* counts are memoised */
}

/* ---- enumeration --------------------------------------------------------------------- */

typedef struct tids { dl_tid *a; size_t n, cap; int failed; } tids;

static void tids_push(tids *v, dl_tid t)
{
  if (v->failed) return;
  if (v->n == v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 16;
    dl_tid *q = realloc(v->a, cap * sizeof *q);
    if (!q) { v->failed = 1; return; }
    v->a = q;
    v->cap = cap;
  }
  v->a[v->n++] = t;
}

/* Appends f(x1..xn) for every choice of xi in lists[i]. */
static void product(dl_domains *d, uint32_t f, tids *lists, tids *out)
{
  uint32_t n = d->fn[f].arity;
  size_t idx[IX_MAX_ARITY] = { 0 };
  dl_tid args[IX_MAX_ARITY];
  for (uint32_t i = 0; i < n; i++)
    if (lists[i].n == 0) return;
  for (;;) {
    for (uint32_t i = 0; i < n; i++) args[i] = lists[i].a[idx[i]];
    dl_tid t = dl_terms_make(d->terms, d->fn[f].sym, n, args);
    if (t == DL_NO_TERM) { out->failed = 1; return; }
    tids_push(out, t);
    uint32_t i = n;
    while (i > 0 && ++idx[i - 1] == lists[i - 1].n) idx[--i] = 0;
    if (i == 0) return;
  }
}

static void enum_bits(dl_domains *d, const uint64_t *bits, tids *out);

static void enum_fn(dl_domains *d, uint32_t f, tids *out)
{
  if (d->fn[f].arity == 0) {
    dl_tid c = dl_terms_constant(d->terms, d->fn[f].sym);
    if (c == DL_NO_TERM) out->failed = 1;
    else tids_push(out, c);
    return;
  }
  if (d->fn[f].arity > IX_MAX_ARITY) { out->failed = 1; return; }
  tids lists[IX_MAX_ARITY];
  memset(lists, 0, sizeof lists);
  for (uint32_t i = 0; i < d->fn[f].arity; i++) enum_bits(d, pos_dom(d, d->fn[f].pos + i), &lists[i]);
  product(d, f, lists, out);
  for (uint32_t i = 0; i < d->fn[f].arity; i++) { out->failed |= lists[i].failed; free(lists[i].a); }
}

static void enum_bits(dl_domains *d, const uint64_t *bits, tids *out)
{
  for (uint32_t f = 0; f < d->n_fn && !out->failed; f++)
    if (bit_has(bits, f)) enum_fn(d, f, out);
}

static void enum_shape(dl_domains *d, const shape *s, tids *out)
{
  enum_bits(d, s->bits, out);
  for (uint32_t k = 0; k < s->n_subs && !out->failed; k++) {
    uint32_t f = s->subs[k].fn;
    if (bit_has(s->bits, f) || d->fn[f].arity > IX_MAX_ARITY) continue;
    tids lists[IX_MAX_ARITY];
    memset(lists, 0, sizeof lists);
    for (uint32_t i = 0; i < d->fn[f].arity; i++) enum_shape(d, s->subs[k].args[i], &lists[i]);
    product(d, f, lists, out);
    for (uint32_t i = 0; i < d->fn[f].arity; i++) { out->failed |= lists[i].failed; free(lists[i].a); }
  }
}

int dl_domains_enumerate(const dl_domains *d, uint32_t pred, uint32_t arg, uint64_t limit,
                         dl_tid **out, size_t *n, dl_diag *diag)
{
  assert(pred < d->p->n_preds && arg < d->p->preds[pred].arity && out && n && diag);
  dl_domains *m = (dl_domains *)d;  /* interns new terms; counts are memoised */
  *out = NULL;
  *n = 0;
  uint32_t f = pred_fn(d, pred);
  if (f == UINT32_MAX || !d->pshape[f] || arg >= d->fn[f].arity) return 1;
  const shape *s = d->pshape[f][arg];
  double c = count_shape(m, s);
  const char *name = dl_terms_name(d->terms, d->fn[f].sym, NULL);
  if (isinf(c)) {
    dl_diag_report(diag, DL_ERROR, NULL, 0, "the domain of %s[%u] is infinite (recursive function symbols)", name, arg + 1);
    return 0;
  }
  if (c > (double)limit) {
    dl_diag_fail(diag, DL_CAUSE_LIMIT, "the domain of %s[%u] has %.0f instances, more than the limit %llu",
                 name, arg + 1, c, (unsigned long long)limit);
    return 0;
  }
  tids v = { 0 };
  enum_shape(m, s, &v);
  if (v.failed) {
    free(v.a);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while listing the domain of %s[%u]", name, arg + 1);
    return 0;
  }
  *out = v.a;
  *n = v.n;
  return 1;
}

/* ---- the table ----------------------------------------------------------------------- */

typedef struct printer {
  const dl_domains *d;
  dl_buf *b;
  uint8_t *open;        /* per symbol: being printed (a cycle when met again) */
} printer;

static int is_number(const char *z)
{
  if (!*z) return 0;
  for (; *z; z++)
    if (*z < '0' || *z > '9') return 0;
  return 1;
}

/* Numbers first, by value; then names in byte order. */
static int name_cmp(const char *a, const char *b)
{
  int na = is_number(a), nb = is_number(b);
  if (na != nb) return nb - na;
  if (na && strlen(a) != strlen(b)) return strlen(a) < strlen(b) ? -1 : 1;
  return strcmp(a, b);
}

/* Orders function nodes (uint32_t numbers) by name, then arity; ctx is the dl_domains. */
static int fn_cmp(const void *x, const void *y, void *ctx)
{
  const dl_domains *d = ctx;
  const fnode *a = &d->fn[*(const uint32_t *)x], *b = &d->fn[*(const uint32_t *)y];
  int c = name_cmp(dl_terms_name(d->terms, a->sym, NULL), dl_terms_name(d->terms, b->sym, NULL));
  return c ? c : (a->arity > b->arity) - (a->arity < b->arity);
}

static void print_shape(printer *pr, const shape *s);
static void print_bits(printer *pr, const uint64_t *bits);

/* Prints f over the domains of its positions, or over args when given. */
static void print_fn(printer *pr, uint32_t f, shape *const *args)
{
  const dl_domains *d = pr->d;
  dl_buf_addz(pr->b, dl_terms_name(d->terms, d->fn[f].sym, NULL));
  if (d->fn[f].arity == 0) return;
  if (!args && pr->open[f]) { dl_buf_addz(pr->b, "(...)"); return; }
  pr->open[f] = 1;
  dl_buf_add(pr->b, "(", 1);
  for (uint32_t i = 0; i < d->fn[f].arity; i++) {
    if (i) dl_buf_add(pr->b, " x ", 3);
    if (args) print_shape(pr, args[i]);
    else print_bits(pr, pos_dom(d, d->fn[f].pos + i));
  }
  dl_buf_add(pr->b, ")", 1);
  pr->open[f] = 0;
}

/* Prints the set of elems[0..n): values, or (when args[k]) written-out f(...). */
static void print_set(printer *pr, uint32_t *elems, shape *const **args, uint32_t n)
{
  int compound = 0;
  for (uint32_t k = 0; k < n; k++) compound |= pr->d->fn[elems[k]].arity > 0;
  dl_buf_add(pr->b, "{", 1);
  for (uint32_t k = 0; k < n; k++) {
    if (k) dl_buf_addz(pr->b, compound ? ", " : ",");
    print_fn(pr, elems[k], args ? args[k] : NULL);
  }
  dl_buf_add(pr->b, "}", 1);
}

static void print_bits(printer *pr, const uint64_t *bits)
{
  const dl_domains *d = pr->d;
  uint32_t n = 0, *elems = malloc((d->n_fn + 1) * sizeof *elems);
  if (!elems) { pr->b->failed = 1; return; }
  for (uint32_t f = 0; f < d->n_fn; f++)
    if (bit_has(bits, f)) elems[n++] = f;
  dl_sort(elems, n, sizeof *elems, fn_cmp, (void *)d);
  print_set(pr, elems, NULL, n);
  free(elems);
}

typedef struct elem { uint32_t fn; shape *const *args; } elem;

static int elem_cmp(const void *x, const void *y, void *ctx)
{
  return fn_cmp(&((const elem *)x)->fn, &((const elem *)y)->fn, ctx);
}

static void print_shape(printer *pr, const shape *s)
{
  const dl_domains *d = pr->d;
  elem *e = malloc((d->n_fn + s->n_subs + 1) * sizeof *e);
  uint32_t *elems = malloc((d->n_fn + s->n_subs + 1) * sizeof *elems);
  shape *const **args = malloc((d->n_fn + s->n_subs + 1) * sizeof *args);
  if (!e || !elems || !args) { free(e); free(elems); free(args); pr->b->failed = 1; return; }
  uint32_t n = 0;
  for (uint32_t f = 0; f < d->n_fn; f++)
    if (bit_has(s->bits, f)) e[n++] = (elem){ f, NULL };
  for (uint32_t k = 0; k < s->n_subs; k++)
    if (!bit_has(s->bits, s->subs[k].fn)) e[n++] = (elem){ s->subs[k].fn, s->subs[k].args };
  dl_sort(e, n, sizeof *e, elem_cmp, (void *)d);
  for (uint32_t k = 0; k < n; k++) { elems[k] = e[k].fn; args[k] = e[k].args; }
  print_set(pr, elems, args, n);
  free(e); free(elems); free(args);
}

/* 1 when another symbol has the same name (then rows say name/arity). */
static int name_shared(const dl_domains *d, uint32_t f)
{
  for (uint32_t g = 0; g < d->n_fn; g++)
    if (g != f && d->fn[g].sym == d->fn[f].sym) return 1;
  return 0;
}

static void row_label(const dl_domains *d, uint32_t f, char *label, size_t cap)
{
  const char *z = dl_terms_name(d->terms, d->fn[f].sym, NULL);
  if (name_shared(d, f)) snprintf(label, cap, "%s/%u", z, d->fn[f].arity);
  else snprintf(label, cap, "%s", z);
}

static void write_row(printer *pr, uint32_t f, int width)
{
  const dl_domains *d = pr->d;
  char label[256];
  row_label(d, f, label, sizeof label);
  dl_buf_addz(pr->b, label);
  for (int k = (int)strlen(label); k < width + 2; k++) dl_buf_add(pr->b, " ", 1);
  int infinite = d->fn[f].infinite;
  for (uint32_t i = 0; i < d->fn[f].arity; i++) {
    if (i) dl_buf_add(pr->b, " x ", 3);
    if (d->pshape[f]) print_shape(pr, d->pshape[f][i]);
    else print_bits(pr, pos_dom(d, d->fn[f].pos + i));
  }
  if (d->pshape[f]) infinite = isinf(pred_row_count((dl_domains *)d, f));
  dl_buf_addz(pr->b, infinite ? "   (infinite)\n" : "\n");
}

static void write_notes(const dl_domains *d, dl_buf *out)
{
  char text[200];
  if (fn_named(d, "true", 1) != UINT32_MAX && !d->has_base)
    dl_buf_addz(out, "note: no base rules: true[1] takes its domain from init[1] and next[1]\n");
  if (fn_named(d, "does", 2) != UINT32_MAX && !d->has_input)
    dl_buf_addz(out, "note: no input rules: does[1], does[2] take their domains from legal[1], legal[2]\n");
  if (d->extra_true > 0) {
    snprintf(text, sizeof text, "note: base is incomplete: init and next add %.0f instances to the domain of true\n", d->extra_true);
    dl_buf_addz(out, text);
  }
  if (d->extra_does > 0) {
    snprintf(text, sizeof text, "note: input is incomplete: legal adds %.0f instances to the domain of does\n", d->extra_does);
    dl_buf_addz(out, text);
  }
  for (size_t i = 0; i < d->n_cycles; i++) {
    dl_buf_addz(out, "note: infinite domains: recursive function symbol: ");
    dl_buf_addz(out, d->cycles[i]);
    dl_buf_addz(out, "\n");
  }
  if (d->n_cycles == MAX_CYCLES) dl_buf_addz(out, "note: more cycles not shown\n");
}

void dl_domains_write_table(const dl_domains *d, dl_buf *out)
{
  printer pr = { d, out, calloc(d->n_fn + 1, 1) };
  if (!pr.open) { out->failed = 1; return; }
  int width = 0;
  char label[256];
  for (uint32_t f = 0; f < d->n_fn; f++) {
    row_label(d, f, label, sizeof label);
    if (d->fn[f].arity > 0 && (int)strlen(label) > width) width = (int)strlen(label);
  }
  for (uint32_t f = 0; f < d->n_fn; f++)
    if (d->fn[f].arity > 0) write_row(&pr, f, width);
  free(pr.open);
  write_notes(d, out);
}

/* ---- DOT ----------------------------------------------------------------------------- */

static void dot_name(dl_buf *out, const char *z, int pos)
{
  dl_buf_add(out, "\"", 1);
  for (; *z; z++) {
    if (*z == '"' || *z == '\\') dl_buf_add(out, "\\", 1);
    dl_buf_add(out, z, 1);
  }
  if (pos) {
    char at[16];
    snprintf(at, sizeof at, "[%d]", pos);
    dl_buf_addz(out, at);
  }
  dl_buf_add(out, "\"", 1);
}

void dl_domains_write_dot(const dl_domains *d, dl_buf *out)
{
  char id[48];
  dl_buf_addz(out, "digraph domains {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
  for (uint32_t f = 0; f < d->n_fn; f++) {
    const char *z = dl_terms_name(d->terms, d->fn[f].sym, NULL);
    if (d->fn[f].is_term) {
      snprintf(id, sizeof id, "  v%u [shape=box, label=", f);
      dl_buf_addz(out, id);
      dot_name(out, z, 0);
      dl_buf_addz(out, "];\n");
    }
    for (uint32_t i = 0; i < d->fn[f].arity; i++) {
      snprintf(id, sizeof id, "  p%u [shape=ellipse, label=", d->fn[f].pos + i);
      dl_buf_addz(out, id);
      dot_name(out, z, (int)i + 1);
      dl_buf_addz(out, "];\n");
    }
  }
  for (uint32_t e = 0; e < d->n_ve; e++) {
    snprintf(id, sizeof id, "  v%u -> p%u;\n", d->ve[e].from, d->ve[e].to);
    dl_buf_addz(out, id);
  }
  for (uint32_t e = 0; e < d->n_pe; e++) {
    snprintf(id, sizeof id, "  p%u -> p%u;\n", d->pe[e].from, d->pe[e].to);
    dl_buf_addz(out, id);
  }
  dl_buf_addz(out, "}\n");
}
