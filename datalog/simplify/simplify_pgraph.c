/* simplify_pgraph.c: the predicate graph of a ground game (see simplify_pgraph.h). */
#include "datalog/simplify/simplify_pgraph.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void sp_pgraph_free(sp_pgraph *pg)
{
  assert(pg);
  Word_t bytes;
  JLFA(bytes, pg->ids);
  J1FA(bytes, pg->edges);
  free(pg->pred);
  free(pg->seen);
  free(pg->stack);
  free(pg->adj);
  free(pg->reach);
  free(pg->known);
  free(pg->is_known);
  (void)bytes;
}

static uint64_t pred_key(const dl_ground *g, uint32_t a)
{
  dl_tid t = g->atom_term[a];
  return (uint64_t)dl_terms_functor(g->terms, t) << 32 | (uint64_t)dl_terms_arity(g->terms, t) << 8 | g->atom_role[a];
}

static int add_edge(sp_pgraph *pg, uint32_t p, uint32_t q)
{
  if (pg->adj) {
    pg->adj[(size_t)p * pg->w + (q >> 6)] |= (uint64_t)1 << (q & 63);
    return 1;
  }
  int rc;
  J1S(rc, pg->edges, (Word_t)p << 32 | q);
  return rc != JERR;
}

int sp_pgraph_build(const dl_ground *g, const int32_t *lits, const size_t *at, const uint8_t *alive, uint32_t n,
                    sp_pgraph *pg)
{
  assert(g && pg && (n == 0 || (lits && at && alive)));
  memset(pg, 0, sizeof *pg);
  pg->pred = malloc((g->n_atoms + 1) * sizeof *pg->pred);
  if (!pg->pred) return 0;
  /* per functor symbol, the last predicate met: most functors have one */
  uint32_t n_syms = dl_terms_symbol_count(g->terms);
  uint64_t *sym_key = malloc((n_syms + 1) * sizeof *sym_key);
  uint32_t *sym_pred = malloc((n_syms + 1) * sizeof *sym_pred);
  int ok = sym_key && sym_pred;
  if (ok) memset(sym_key, 0xff, (n_syms + 1) * sizeof *sym_key);
  for (uint32_t a = 1; ok && a <= g->n_atoms; a++) {
    uint64_t key = pred_key(g, a);
    dl_sym f = (dl_sym)(key >> 32);
    if (sym_key[f] == key) {
      pg->pred[a] = sym_pred[f];
      continue;
    }
    Word_t *v;
    JLI(v, pg->ids, (Word_t)key);
    if (v == PJERR) ok = 0;
    else if (!*v) *v = ++pg->n;
    pg->pred[a] = sym_pred[f] = ok ? (uint32_t)*v - 1 : 0;
    sym_key[f] = key;
  }
  free(sym_key);
  free(sym_pred);
  if (!ok) return 0;
  pg->seen = calloc(pg->n + 1, 1);
  pg->stack = malloc((pg->n + 1) * sizeof *pg->stack);
  if (!pg->seen || !pg->stack) return 0;
  if (pg->n <= SP_PGRAPH_REACH_MAX) {
    pg->w = (pg->n + 63) / 64;
    pg->reach = malloc(((size_t)pg->n * pg->w + 1) * sizeof *pg->reach);
    pg->known = malloc((pg->n + 1) * sizeof *pg->known);
    pg->is_known = calloc(pg->n + 1, 1);
    pg->adj = calloc((size_t)pg->n * pg->w + 1, sizeof *pg->adj);
    if (!pg->reach || !pg->known || !pg->is_known || !pg->adj) return 0;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (!alive[i]) continue;
    const int32_t *x = lits + at[i];
    for (int32_t k = 0; k < x[1]; k++)
      if (!add_edge(pg, pg->pred[x[0]], pg->pred[x[2 + k] < 0 ? -x[2 + k] : x[2 + k]])) return 0;
  }
  return 1;
}

static void visit(sp_pgraph *pg, uint32_t v, uint32_t q, uint32_t *sn, int *found)
{
  if (v == q) *found = 1;
  if (!pg->seen[v]) pg->seen[v] = 1, pg->stack[(*sn)++] = v;
}

/* Searches the graph from p, through one rule or more: stops at q (1), or
 * at the end (0); the predicates met are marked in seen[]. */
static int search(sp_pgraph *pg, uint32_t p, uint32_t q)
{
  memset(pg->seen, 0, pg->n + 1);
  uint32_t sn = 0;
  pg->stack[sn++] = p;
  int found = 0;
  while (sn && !found) {
    uint32_t u = pg->stack[--sn];
    if (pg->adj) {
      for (uint32_t k = 0; k < pg->w; k++)
        for (uint64_t b = pg->adj[(size_t)u * pg->w + k]; b; b &= b - 1)
          visit(pg, k * 64 + (uint32_t)__builtin_ctzll(b), q, &sn, &found);
      continue;
    }
    Word_t e = (Word_t)u << 32;
    for (int rc = Judy1First(pg->edges, &e, PJE0); rc == 1 && e >> 32 == u; rc = Judy1Next(pg->edges, &e, PJE0))
      visit(pg, (uint32_t)e, q, &sn, &found);
  }
  return found;
}

static uint64_t *reach_set(sp_pgraph *pg, uint32_t p) { return pg->reach + (size_t)p * pg->w; }

/* Makes p's reach set when it is not made yet (pg->reach not NULL). */
static void know(sp_pgraph *pg, uint32_t p)
{
  if (pg->is_known[p]) return;
  search(pg, p, UINT32_MAX);
  uint64_t *r = reach_set(pg, p);
  memset(r, 0, pg->w * sizeof *r);
  for (uint32_t v = 0; v < pg->n; v++)
    if (pg->seen[v]) r[v >> 6] |= (uint64_t)1 << (v & 63);
  pg->is_known[p] = 1;
  pg->known[pg->n_known++] = p;
}

int sp_pgraph_reaches(sp_pgraph *pg, uint32_t p, uint32_t q)
{
  assert(pg && p < pg->n && q < pg->n);
  if (!pg->reach) return search(pg, p, q);
  know(pg, p);
  return reach_set(pg, p)[q >> 6] >> (q & 63) & 1;
}

/* The reach sets made get what q reaches: those of p and of the predicates
 * that reach p. */
int sp_pgraph_add_read(sp_pgraph *pg, uint32_t p, uint32_t q)
{
  assert(pg && p < pg->n && q < pg->n);
  if (!add_edge(pg, p, q)) return 0;
  if (!pg->reach) return 1;
  know(pg, q);
  const uint64_t *rq = reach_set(pg, q);
  for (uint32_t i = 0; i < pg->n_known; i++) {
    uint32_t u = pg->known[i];
    uint64_t *ru = reach_set(pg, u);
    if (u != p && !(ru[p >> 6] >> (p & 63) & 1)) continue;
    for (uint32_t k = 0; k < pg->w; k++) ru[k] |= rq[k];
    ru[q >> 6] |= (uint64_t)1 << (q & 63);
  }
  return 1;
}
