/* ground_subterm.c: the tuples of a relation by one argument of a compound
 * column (see ground_impl.h), for the join's steps (ground_join.c).
 *
 * A step whose pattern has a constant inside a compound argument, such as
 * speedChess's head (legal ?p (move wk ?x1 ?y1 ?x2 ?y2)) over the 3,832
 * moves its users ask for, would scan every tuple to match a few: 18 of its
 * rules scanned 69,000 moves for 1,240.  An index from the value of that
 * argument to the tuples that have it is made at the first such step, and
 * serves the steps of the same relation, column, functor and argument. */
#include "datalog/ground/ground_impl.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/sort.h"

/* Relations smaller than this are scanned: the index would not pay. */
enum { SUBTERM_MIN_TUPLES = 512 };

/* Tuples held by all subterm indexes at most. */
#define SUBTERM_BUDGET (1u << 21)

/* The key of an index: the relation, column, functor, arity, argument. */
enum { SUBTERM_KEY = 6 };

struct gr_subterm {
  uint32_t key[SUBTERM_KEY];
  const ix_relation *src;
  uint64_t size;              /* src's size when made: the index is stale once it grew */
  Pvoid_t runs;               /* JudyL: argument value -> first row << 32 | rows */
  ix_val *rows;               /* the tuples, by argument value */
};

static void subterm_free(gr_subterm *s)
{
  Word_t freed;
  JLFA(freed, s->runs);
  (void)freed;
  free(s->rows);
  free(s);
}

void gr_subterm_forget(dl_ground *g, const ix_relation *src)
{
  assert(g);
  uint32_t of_src = 0;
  for (uint32_t i = 0; src && i < g->n_subterms; i++) of_src += g->subterms[i]->src == src;
  if (src && !of_src) return;  /* most demand relations had none */
  JudyHSFreeArray(&g->subterm_keys, PJE0);
  uint32_t m = 0;
  g->subterm_tuples = 0;
  for (uint32_t i = 0; i < g->n_subterms; i++) {
    gr_subterm *s = g->subterms[i];
    if (!src || s->src == src) {
      subterm_free(s);
      continue;
    }
    PPvoid_t v = JudyHSIns(&g->subterm_keys, s->key, sizeof s->key, PJE0);
    if (v == PPJERR) {  /* out of memory: this one goes too */
      subterm_free(s);
      continue;
    }
    g->subterms[m++] = s;
    *v = (void *)(uintptr_t)m;
    g->subterm_tuples += s->size;
  }
  g->n_subterms = m;
  if (!src) {
    free(g->subterms);
    g->subterms = NULL;
    g->cap_subterms = 0;
  }
}

/* A tuple of src with the value of its argument, to sort them. */
typedef struct keyed_row { uint64_t value; uint64_t at; } keyed_row;

/* The argument `arg` of column col's term in tuple t when that term is
 * f(n_args arguments), else DL_NO_TERM. */
static dl_tid arg_of(const dl_terms *terms, const ix_val *t, uint32_t col, dl_sym f, uint32_t n_args, uint32_t arg)
{
  dl_tid x = t[col];
  if (dl_terms_functor(terms, x) != f || dl_terms_arity(terms, x) != n_args) return DL_NO_TERM;
  return dl_terms_args(terms, x)[arg];
}

/* Makes the index of src (see gr_subterm_rows); NULL when out of memory. */
static gr_subterm *subterm_make(dl_ground *g, ix_relation *src, uint32_t col, dl_sym f, uint32_t n_args, uint32_t arg)
{
  uint32_t arity = ix_relation_arity(src);
  uint64_t size = ix_relation_size(src), n = 0;
  gr_subterm *s = calloc(1, sizeof *s);
  ix_val *all = malloc((size * arity + 1) * sizeof *all);
  keyed_row *order = malloc((size + 1) * sizeof *order);
  int idx, ok = s && all && order && ix_relation_index(src, 0, &idx);
  ix_val key[IX_MAX_ARITY] = { 0 };
  ix_iter it;
  if (ok) ix_iter_begin(&it, src, idx, 0, key);
  while (ok && n < size && ix_iter_next(&it, all + n * arity)) {
    dl_tid v = arg_of(g->terms, all + n * arity, col, f, n_args, arg);
    if (v != DL_NO_TERM) order[n].value = v, order[n].at = n, n++;
  }
  ok = ok && dl_sort_by_key64(order, n, sizeof *order, offsetof(keyed_row, value));
  if (ok) ok = (s->rows = malloc((n * arity + 1) * sizeof *s->rows)) != NULL;
  for (uint64_t i = 0; ok && i < n; i++) {
    memcpy(s->rows + i * arity, all + order[i].at * arity, arity * sizeof *all);
    if (i && order[i].value == order[i - 1].value) continue;
    uint64_t e = i;
    while (e < n && order[e].value == order[i].value) e++;
    PWord_t pv = (PWord_t)JudyLIns(&s->runs, (Word_t)order[i].value, PJE0);
    if (pv == PJERR) ok = 0;
    else *pv = (Word_t)(i << 32 | (e - i));
  }
  free(all);
  free(order);
  if (!ok) {
    if (s) subterm_free(s);
    return NULL;
  }
  s->src = src;
  s->size = size;
  return s;
}

/* Keeps s under key[0..SUBTERM_KEY); 0 when out of memory (s is freed). */
static int subterm_keep(dl_ground *g, const uint32_t *key, gr_subterm *s)
{
  memcpy(s->key, key, sizeof s->key);
  if (g->n_subterms == g->cap_subterms) {
    uint32_t cap = g->cap_subterms ? 2 * g->cap_subterms : 16;
    gr_subterm **a = realloc(g->subterms, cap * sizeof *a);
    if (!a) return subterm_free(s), 0;
    g->subterms = a;
    g->cap_subterms = cap;
  }
  PPvoid_t v = JudyHSIns(&g->subterm_keys, s->key, sizeof s->key, PJE0);
  if (v == PPJERR) return subterm_free(s), 0;
  g->subterms[g->n_subterms++] = s;
  *v = (void *)(uintptr_t)g->n_subterms;
  g->subterm_tuples += s->size;
  return 1;
}

int gr_subterm_rows(dl_ground *g, ix_relation *src, uint32_t col, dl_sym f, uint32_t n_args, uint32_t arg,
                    dl_tid v, const ix_val **rows, uint64_t *n)
{
  assert(g && src && rows && n && col < ix_relation_arity(src) && arg < n_args);
  uint64_t size = ix_relation_size(src);
  uintptr_t at = (uintptr_t)src;
  uint32_t key[SUBTERM_KEY] = { (uint32_t)at, (uint32_t)((uint64_t)at >> 32), col, f, n_args, arg };
  PPvoid_t slot = JudyHSGet(g->subterm_keys, key, sizeof key);
  gr_subterm *s = slot ? g->subterms[(uintptr_t)*slot - 1] : NULL;
  if (s && s->size != size) return 0;  /* src grew: scan it */
  if (!s) {
    if (size < SUBTERM_MIN_TUPLES || g->subterm_tuples + size > SUBTERM_BUDGET) return 0;
    if (!(s = subterm_make(g, src, col, f, n_args, arg)) || !subterm_keep(g, key, s)) return 0;
  }
  PWord_t pv = (PWord_t)JudyLGet(s->runs, (Word_t)v, PJE0);
  Word_t run = pv && pv != PJERR ? *pv : 0;
  *rows = s->rows + (run >> 32) * ix_relation_arity(src);
  *n = run & 0xffffffffu;
  return 1;
}
