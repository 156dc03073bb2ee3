/* ground_exclude.c: exclusions, part of phase (3) of grounding (see
 * ground_join.c, which runs them as its block factor).
 *
 * gr_plan_exclusion recognises the rule and its part X; during the join,
 * gr_add_element makes X's element atoms, gr_close_exclusion their "some"
 * and "two" chains once per value of K, and gr_make_exclusion the rule's
 * instances for each binding of the rest. */
#include "datalog/ground/ground_join.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/eval/eval.h"
#include "index/relation.h"

/* ---- exclusions ------------------------------------------------------------------------------ */

/* An exclusion is a rule that asks for some binding of a body part X other
 * than one the head names:
 *
 *     h(K, C) :- X(K, U) & U != C & rest(K, C)
 *
 * where the variables U are X's and the disequality's only, and C are head
 * variables that X does not have.  Chess's `threatened_with_capture` asks
 * for a piece threatening the king's square from another square than the
 * captured one, (cx, cy): instantiated per binding, that is one rule per
 * capture, king square and threatening square, 13.9 million of its 19.2.
 * An exclusion makes, once per value of K, one element atom per value of U
 * (the bindings of X that have it), and two atoms over them: "some element
 * holds" and "two do" (prefix chains, three rules an element); then per
 * binding of the rest, h :- two, and h :- some & not element(C).  The
 * disequality is `distinct(U, C)` or a static predicate that holds exactly
 * the pairs of its C and U tuples that differ, such as chess's
 * `different_cells`. */

/* Forgets a static disequality's C and U tuples. */
static void drop_tuples(join *j)
{
  ix_relation_destroy(j->excl_cs);
  ix_relation_destroy(j->excl_us);
  j->excl_cs = j->excl_us = NULL;
}

/* 1 when static literal k's relation holds exactly the pairs of its C tuples
 * and its U tuples that differ (then j->excl_cs and excl_us hold those
 * tuples); 0 when not; -1 when out of memory.  c and u give the columns. */
static int static_disequality(join *j, uint32_t k, const uint32_t *c, const uint32_t *u, uint32_t m)
{
  ix_relation *rel = (ix_relation *)dl_eval_relation(j->g->statics, j->gr->lit_pred[k]);
  ix_relation *cs = j->excl_cs = ix_relation_create(m), *us = j->excl_us = ix_relation_create(m);
  int idx, is_new, diagonal = 0;
  if (!cs || !us || !ix_relation_index(rel, 0, &idx)) return -1;
  ix_val key[IX_MAX_ARITY], t[IX_MAX_ARITY], ct[EXCL_MAX], ut[EXCL_MAX];
  ix_iter it;
  ix_iter_begin(&it, rel, idx, 0, key);
  while (!diagonal && ix_iter_next(&it, t)) {
    diagonal = 1;
    for (uint32_t i = 0; i < m; i++) ct[i] = t[c[i]], ut[i] = t[u[i]], diagonal &= ct[i] == ut[i];
    if (!ix_relation_insert(cs, ct, &is_new) || !ix_relation_insert(us, ut, &is_new)) return -1;
  }
  uint64_t both = 0;  /* U tuples that are C tuples too: the diagonal left out */
  if (!ix_relation_index(us, 0, &idx)) return -1;
  ix_iter_begin(&it, us, idx, 0, key);
  while (ix_iter_next(&it, ut)) both += ix_relation_contains(cs, ut);
  return !diagonal && ix_relation_size(rel) == ix_relation_size(cs) * ix_relation_size(us) - both;
}

/* 1 when literal k is a disequality of head variables C and other ones U
 * (into j->excl_c, excl_u, excl_m); 0 when not; -1 when out of memory. */
static int disequality(join *j, uint32_t k, const uint8_t *head)
{
  const dl_literal *l = &j->r->body[k];
  if (l->kind == DL_DISTINCT) {
    if (l->a->kind != AST_VAR || l->b->kind != AST_VAR || head[l->a->value] == head[l->b->value]) return 0;
    j->excl_m = 1;
    j->excl_c[0] = head[l->a->value] ? l->a->value : l->b->value;
    j->excl_u[0] = head[l->a->value] ? l->b->value : l->a->value;
    return 1;
  }
  uint32_t q = j->gr->lit_pred[k], n = l->kind == DL_POS ? ast_atom_arity(l->atom) : 0;
  if (!n || n % 2 || n > 2 * EXCL_MAX || q >= j->g->game->n_preds || j->g->dynamic[q]) return 0;
  uint32_t c[EXCL_MAX], u[EXCL_MAX], nc = 0, nu = 0;
  for (uint32_t i = 0; i < n; i++) {
    const ast_term *x = l->atom->args[i];
    if (x->kind != AST_VAR) return 0;
    for (uint32_t i2 = 0; i2 < i; i2++)
      if (l->atom->args[i2]->value == x->value) return 0;
    if (head[x->value] ? nc == n / 2 : nu == n / 2) return 0;
    if (head[x->value]) j->excl_c[nc] = x->value, c[nc++] = i;
    else j->excl_u[nu] = x->value, u[nu++] = i;
  }
  j->excl_m = n / 2;
  int is = static_disequality(j, k, c, u, j->excl_m);
  if (is <= 0) drop_tuples(j);
  return is;
}

/* Marks in_x[] the body literals (but disequality kd) that are linked to
 * the variables U by variables outside the head: the part X. */
static void mark_part(const join *j, uint32_t kd, const uint8_t *head, uint8_t *in_x, uint8_t *vars,
                      uint8_t *mark)
{
  const dl_rule *r = j->r;
  for (uint32_t i = 0; i < j->excl_m; i++) vars[j->excl_u[i]] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t k = 0; k < r->n_body; k++) {
      if (k == kd || in_x[k]) continue;
      memset(mark, 0, r->n_vars + 1);
      ast_literal_mark_vars(&r->body[k], mark);
      int linked = 0;
      for (uint32_t v = 0; v < r->n_vars; v++) linked |= mark[v] && !head[v] && vars[v];
      if (!linked) continue;
      in_x[k] = changed = 1;
      for (uint32_t v = 0; v < r->n_vars; v++) vars[v] |= mark[v] && !head[v];
    }
  }
}

/* 1 when variable v is in a positive literal of part in_x[]. */
static int in_positive(const join *j, uint32_t v, const uint8_t *in_x, uint8_t *mark)
{
  for (uint32_t k = 0; k < j->r->n_body; k++) {
    if (j->r->body[k].kind != DL_POS || !in_x[k]) continue;
    memset(mark, 0, j->r->n_vars + 1);
    ast_literal_mark_vars(&j->r->body[k], mark);
    if (mark[v]) return 1;
  }
  return 0;
}

/* 1 when part in_x[] can be the exclusion's X: it has a positive dynamic
 * literal, no variable C, each variable U in a positive literal.  Its head
 * variables K are marked in head_in_x[].  (The head's demand, which
 * values_of_c asks for, binds C and K before X: X runs last, once per value
 * of K.) */
static int part_fits(const join *j, const uint8_t *head, const uint8_t *in_x, uint8_t *head_in_x, uint8_t *mark)
{
  const dl_rule *r = j->r;
  int dynamic = 0;
  memset(head_in_x, 0, r->n_vars + 1);
  for (uint32_t k = 0; k < r->n_body; k++) {
    if (!in_x[k]) continue;
    memset(mark, 0, r->n_vars + 1);
    ast_literal_mark_vars(&r->body[k], mark);
    for (uint32_t v = 0; v < r->n_vars; v++) head_in_x[v] |= mark[v] && head[v];
    dynamic |= r->body[k].kind == DL_POS && gr_pred_dynamic(j->g, j->pc, j->gr->lit_pred[k]);
  }
  for (uint32_t i = 0; i < j->excl_m; i++)
    if (head_in_x[j->excl_c[i]] || !in_positive(j, j->excl_u[i], in_x, mark)) return 0;
  uint32_t n_k = 0;
  for (uint32_t v = 0; v < r->n_vars; v++) n_k += head_in_x[v];
  return dynamic && n_k + j->excl_m <= IX_MAX_ARITY;
}

/* Makes part in_x[] factor 0, the exclusion's X, over its head variables. */
static int make_part_factor(join *j, const uint8_t *in_x, const uint8_t *head_in_x)
{
  factor *f = &j->factors[0];
  if (!(f->iface = malloc((j->r->n_vars + 1) * sizeof *f->iface))) return 0;
  for (uint32_t v = 0; v < j->r->n_vars; v++)
    if (head_in_x[v]) f->iface[f->n_iface++] = v;
  for (uint32_t k = 0; k < j->r->n_body; k++) j->comp[k] = in_x[k] ? 0 : -1;
  j->n_factors = 1;
  for (int i = 0; i < 3; i++)
    if ((j->excl_sym[i] = gr_aux_symbol(j->g)) == DL_NO_SYM) return 0;
  return (f->sym = gr_aux_symbol(j->g)) != DL_NO_SYM;
}

/* An exclusion pays when C has many values per value of K: it makes
 * three rules per element and value of K, and two per binding of the rest,
 * where the rule made one per element and binding.  Chess's
 * `threatened_with_capture` asks for 38 captured squares per king square,
 * side and square moved from; its `opponent(?o, ?p)`, a disequality of two
 * roles, would save nothing. */
enum { EXCL_MIN_VALUES = 8 };

/* The values C has per value of the other head variables, estimated as
 * the demanded heads over the values of the head's columns without C; 0
 * without the head's demand (a keyword's rule: what a frame rule's
 * `distinct` separates is not known before its join). */
static double values_of_c(const join *j, uint8_t *mark)
{
  const dl_rule *r = j->r;
  ix_relation *demand = j->gr->use_demand ? j->g->demand[j->gr->head_pred] : NULL;
  double values = 1;
  if (!demand) return 0;
  for (uint32_t c = 0; c < ast_atom_arity(r->head); c++) {
    memset(mark, 0, r->n_vars + 1);
    ast_mark_vars(r->head->args[c], mark);
    int has_c = 0;
    for (uint32_t i = 0; i < j->excl_m; i++) has_c |= mark[j->excl_c[i]];
    if (!has_c) values *= ix_relation_column_values(demand, c);
  }
  return (double)ix_relation_size(demand) / values;
}

/* Tries disequality k as the exclusion's: the values of C per value of the
 * rest (values_of_c) when it fits, 0 when not, -1 when out of memory.  On a fit,
 * plan (when set) makes its part factor 0.  s[] holds four scratch arrays
 * of n_vars + 1 bytes, in_x one of n_body + 1. */
static double try_exclusion(join *j, uint32_t k, uint8_t *const s[4], uint8_t *in_x, int plan)
{
  const dl_rule *r = j->r;
  uint8_t *head = s[0], *vars = s[1], *mark = s[2], *hx = s[3];
  int is = disequality(j, k, head);
  if (is <= 0) return is;
  memset(in_x, 0, r->n_body + 1);
  memset(vars, 0, r->n_vars + 1);
  mark_part(j, k, head, in_x, vars, mark);
  double values = part_fits(j, head, in_x, hx, mark) ? values_of_c(j, mark) : 0;
  if (values && plan) return make_part_factor(j, in_x, hx) ? values : -1;
  drop_tuples(j);
  return values;
}

/* Plans the rule as an exclusion (see above) on the disequality that fits
 * with the most values of C, at least EXCL_MIN_VALUES: 1 planned, 0 not
 * (the rule is planned as usual), -1 out of memory.  Split pieces are not. */
int gr_plan_exclusion(join *j)
{
  const dl_rule *r = j->r;
  if (j->pc || j->g->opt->no_factor || j->g->opt->no_exclude) return 0;
  uint32_t nv = r->n_vars, best = UINT32_MAX;
  uint8_t *s[4] = { calloc(nv + 1, 1), malloc(nv + 1), malloc(nv + 1), malloc(nv + 1) };
  uint8_t *in_x = malloc(r->n_body + 1);
  int planned = s[0] && s[1] && s[2] && s[3] && in_x ? 0 : -1;
  if (!planned) ast_mark_vars(r->head, s[0]);
  double most = EXCL_MIN_VALUES - 1;
  for (uint32_t k = 0; !planned && k < r->n_body; k++) {
    double values = try_exclusion(j, k, s, in_x, 0);
    if (values < 0) planned = -1;
    else if (values > most) most = values, best = k;
  }
  double values = !planned && best != UINT32_MAX ? try_exclusion(j, best, s, in_x, 1) : 0;
  if (values) planned = values > 0 ? 1 : -1;
  if (planned > 0) j->excl = 1, j->excl_lit = best;
  for (int i = 0; i < 4; i++) free(s[i]);
  free(in_x);
  return planned;
}

/* ---- the part's elements, once per value of K ----------------------------------------------- */

/* The key of m values v[0..m) (EXCL_MAX = 2 fit in a word). */
static Word_t excl_key(const ix_val *v, uint32_t m)
{
  return m == 1 ? (Word_t)v[0] : (Word_t)v[0] << 32 | v[1];
}

/* The auxiliary atom sym(K), or sym(K, U) for U's key when key is not
 * NULL, with rule atom :- body[0..n), added unless it was (once) or added
 * (!once: it cannot have been); 0 when out of memory. */
static int32_t excl_atom(join *j, dl_sym sym, const Word_t *key, int32_t *body, uint32_t n, int once)
{
  const factor *f = &j->factors[0];
  uint32_t n_args = 0;
  for (; n_args < f->n_iface; n_args++) j->args[n_args] = j->bind[f->iface[n_args]];
  if (key && j->excl_m == 2) j->args[n_args++] = (dl_tid)(*key >> 32);
  if (key) j->args[n_args++] = (dl_tid)*key;
  gr_normalize_body(body, &n);
  return gr_add_factor_rule(j, gr_atom_term(j->g, sym, n_args, j->args), body, n, once);
}

/* A binding of the exclusion's part X with body cbody[0..m): a rule of the
 * element atom of its values of U (none outside the disequality's U
 * tuples).  0 when out of memory (reported). */
int gr_add_element(join *j, uint32_t m)
{
  assert(m > 0);  /* X has a positive dynamic literal, an atom */
  ix_val u[EXCL_MAX];
  for (uint32_t i = 0; i < j->excl_m; i++) u[i] = j->bind[j->excl_u[i]];
  if (j->excl_us && !ix_relation_contains(j->excl_us, u)) return 1;
  Word_t key = excl_key(u, j->excl_m);
  int32_t a = excl_atom(j, j->excl_sym[0], &key, j->cbody, m, 1);
  PWord_t pv = a ? (PWord_t)JudyLIns(&j->excl_elems, key, PJE0) : NULL;
  if (!pv || pv == PJERR) return gr_oom(j->g);
  *pv = (Word_t)a;
  j->cur.made++;
  return 1;
}

/* Appends element atom a of U's key to the pool; 0 when out of memory. */
static int pool_push(join *j, Word_t key, int32_t a)
{
  if (j->n_pool == j->cap_pool) {
    uint32_t cap = j->cap_pool ? 2 * j->cap_pool : 256;
    Word_t *k = realloc(j->pool_key, cap * sizeof *k);
    if (k) j->pool_key = k;
    int32_t *at = realloc(j->pool_atom, cap * sizeof *at);
    if (at) j->pool_atom = at;
    if (!k || !at) return 0;
    j->cap_pool = cap;
  }
  j->pool_key[j->n_pool] = key;
  j->pool_atom[j->n_pool++] = a;
  return 1;
}

/* Ends the first enumeration of X for one value of K: its elements, in
 * the order of U's keys, go to the pool, and prefix chains make rec->atom
 * (some element holds; 0: there is none) and rec->two (two do; 0: there are
 * fewer): prefix_i :- prefix_i-1, prefix_i :- element_i, two :- prefix_i-1 &
 * element_i.  0 when out of memory. */
int gr_close_exclusion(join *j, block_rec *rec)
{
  int32_t prefix = 0, two = 0;
  Word_t key = 0;
  rec->off = j->n_pool;
  for (PWord_t pv = (PWord_t)JudyLFirst(j->excl_elems, &key, PJE0); pv;
       pv = (PWord_t)JudyLNext(j->excl_elems, &key, PJE0)) {
    int32_t e = (int32_t)*pv, both[2] = { prefix, e };
    if (!pool_push(j, key, e)) return 0;
    if (prefix) {
      two = excl_atom(j, j->excl_sym[2], NULL, both, 2, 0);  /* a value of K is closed once */
      int32_t p = two ? excl_atom(j, j->excl_sym[1], &key, &prefix, 1, 0) : 0;
      if (!p || !excl_atom(j, j->excl_sym[1], &key, &e, 1, 0)) return 0;
      e = p;
    }
    prefix = e;
  }
  JudyLFreeArray(&j->excl_elems, PJE0);
  rec->atom = prefix;
  rec->two = two;
  rec->n = j->n_pool - rec->off;
  return 1;
}

/* The element atom of rec whose U is key, 0 when none. */
static int32_t find_element(const join *j, const block_rec *rec, Word_t key)
{
  uint32_t lo = rec->off, hi = rec->off + rec->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (j->pool_key[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < rec->off + rec->n && j->pool_key[lo] == key ? j->pool_atom[lo] : 0;
}

/* The instances of one binding of the rest with X's record rec: h :- rest
 * & two, and h :- rest & some & not element(C), or h :- rest & some when C
 * is no element's U.  None when C is outside the disequality's C tuples.
 * 0 on failure (reported). */
int gr_make_exclusion(join *j, const block_rec *rec)
{
  ix_val c[EXCL_MAX];
  for (uint32_t i = 0; i < j->excl_m; i++) c[i] = j->bind[j->excl_c[i]];
  if (j->excl_cs && !ix_relation_contains(j->excl_cs, c)) return 1;
  int32_t e = find_element(j, rec, excl_key(c, j->excl_m)), some_not_c[2] = { rec->atom, -e };
  if (e && rec->two && !gr_make_instance(j, &rec->two, 1, 1)) return 0;
  return gr_make_instance(j, some_not_c, e ? 2 : 1, 1);
}

void gr_free_exclusion(join *j)
{
  JudyLFreeArray(&j->excl_elems, PJE0);
  drop_tuples(j);
  free(j->pool_key);
  free(j->pool_atom);
}
