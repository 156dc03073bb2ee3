/* ground_join.c: phase (3) of grounding (see ground.c): one rule's
 * instances, by a backtracking join over the kept relations.
 *
 * gr_instantiate plans the join (greedy_order, most selective step first),
 * splits the body into factors (parts that share only head variables with
 * the rest, made auxiliary atoms), decides distinct, static and
 * non-derivable literals at each complete binding, and hands a rule whose
 * estimated join is large to gr_split (ground_split.c).  Memos keep each
 * literal's recent answers, and the block factor is enumerated once per
 * value of its head variables (enter_block); an exclusion's part is run as
 * that block factor (ground_exclude.c). */
#include "datalog/ground/ground_join.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/eval/eval.h"
#include "index/relation.h"

/* ---- terms of a rule under a binding ---------------------------------------------------------- */

/* The term p under bind (every variable of p bound); made when new. */
static dl_tid make_term(dl_terms *terms, const ast_term *p, const dl_tid *bind)
{
  if (p->kind == AST_VAR) return bind[p->value];
  if (p->kind == AST_SYM) return dl_terms_constant(terms, p->value);
  dl_tid small[16], *args = p->n <= 16 ? small : malloc(p->n * sizeof *args);
  if (!args) return DL_NO_TERM;
  dl_tid t = DL_NO_TERM;
  uint32_t i = 0;
  for (; i < p->n && (args[i] = make_term(terms, p->args[i], bind)) != DL_NO_TERM; i++) {}
  if (i == p->n) t = dl_terms_make(terms, p->value, p->n, args);
  if (args != small) free(args);
  return t;
}

/* The term p under bind when it exists in the store, else DL_NO_TERM. */
static dl_tid find_term(const dl_terms *terms, const ast_term *p, const dl_tid *bind)
{
  if (p->kind == AST_VAR) return bind[p->value];
  if (p->kind == AST_SYM) return dl_terms_find(terms, p->value, 0, NULL);
  dl_tid small[16], *args = p->n <= 16 ? small : malloc(p->n * sizeof *args);
  if (!args) return DL_NO_TERM;
  dl_tid t = DL_NO_TERM;
  uint32_t i = 0;
  for (; i < p->n && (args[i] = find_term(terms, p->args[i], bind)) != DL_NO_TERM; i++) {}
  if (i == p->n) t = dl_terms_find(terms, p->value, p->n, args);
  if (args != small) free(args);
  return t;
}

/* ---- the join ------------------------------------------------------------------------------ */


static uint32_t atom_arity(const ast_term *a) { return ast_atom_arity(a); }

static int match(join *j, const ast_term *p, dl_tid t)
{
  if (p->kind == AST_VAR) {
    if (j->bind[p->value] == DL_NO_TERM) {
      j->bind[p->value] = t;
      j->trail[j->n_trail++] = p->value;
      return 1;
    }
    return j->bind[p->value] == t;
  }
  const dl_terms *terms = j->g->terms;
  if (dl_terms_functor(terms, t) != p->value) return 0;
  if (p->kind == AST_SYM) return dl_terms_arity(terms, t) == 0;
  if (dl_terms_arity(terms, t) != p->n) return 0;
  const dl_tid *args = dl_terms_args(terms, t);
  for (uint32_t i = 0; i < p->n; i++)
    if (!match(j, p->args[i], args[i])) return 0;
  return 1;
}

static void undo(join *j, uint32_t mark)
{
  while (j->n_trail > mark) j->bind[j->trail[--j->n_trail]] = DL_NO_TERM;
}

static int no_vars(const ast_term *p)
{
  if (p->kind == AST_VAR) return 0;
  for (uint32_t i = 0; p->kind == AST_FUN && i < p->n; i++)
    if (!no_vars(p->args[i])) return 0;
  return 1;
}

static void collect_vars(const ast_term *p, uint8_t *seen, uint32_t *vars, uint32_t *n)
{
  if (p->kind == AST_VAR && !seen[p->value]) seen[p->value] = 1, vars[(*n)++] = p->value;
  for (uint32_t i = 0; p->kind == AST_FUN && i < p->n; i++) collect_vars(p->args[i], seen, vars, n);
}

/* ---- steps kept for other rules ---------------------------------------------------------------- */

/* A step is kept when it has at most STEP_KEEP_MAX tuples, while the kept
 * ones have STEP_KEEP_BUDGET in all: speedChess's 181 steps have 108
 * patterns (does(?p, move(?q, ?x1, ?y1, ?x2, ?y2)) in 11 rules), othello's
 * 89 have 38. */
enum { STEP_KEEP_MAX = 1 << 16, STEP_KEY_MAX = 256 };
#define STEP_KEEP_BUDGET (1u << 18)

/* Appends the key of term p (variables by their place in vars[0..nv)) to
 * key[*n..); 0 when it does not fit in STEP_KEY_MAX words. */
static int key_of(const ast_term *p, const uint32_t *vars, uint32_t nv, uint32_t *key, uint32_t *n)
{
  if (*n + 3 > STEP_KEY_MAX) return 0;
  if (p->kind == AST_VAR) {
    uint32_t v = 0;
    while (v < nv && vars[v] != p->value) v++;
    key[(*n)++] = 0x80000000u | v;
    return 1;
  }
  key[(*n)++] = p->kind;
  key[(*n)++] = p->value;
  if (p->kind == AST_SYM) return 1;
  key[(*n)++] = p->n;
  for (uint32_t i = 0; i < p->n; i++)
    if (!key_of(p->args[i], vars, nv, key, n)) return 0;
  return 1;
}

/* The key of step st of atom a over src: the relation and the pattern, its
 * variables numbered in their order in st->vars.  0 when too long. */
static uint32_t step_key(const step *st, const ast_term *a, const ix_relation *src, uint32_t *key)
{
  uintptr_t at = (uintptr_t)src;
  uint32_t n = 0;
  key[n++] = (uint32_t)at;
  key[n++] = (uint32_t)((uint64_t)at >> 32);
  return key_of(a, st->vars, st->nv, key, &n) ? n : 0;
}

/* The kept step of key[0..n), or NULL. */
static ix_relation *kept_step(const dl_ground *g, const uint32_t *key, uint32_t n)
{
  PPvoid_t v = JudyHSGet(g->kept_keys, (void *)key, n * sizeof *key);
  return v ? g->kept[(uintptr_t)*v - 1] : NULL;
}

/* Keeps rel under key[0..n) when it is small enough and the budget allows:
 * 1 kept (g owns it now), 0 not, -1 out of memory. */
static int keep_step(dl_ground *g, const uint32_t *key, uint32_t n, ix_relation *rel)
{
  uint64_t size = ix_relation_size(rel);
  if (size > STEP_KEEP_MAX || g->kept_tuples + size > STEP_KEEP_BUDGET) return 0;
  if (g->n_kept == g->cap_kept) {
    uint32_t cap = g->cap_kept ? 2 * g->cap_kept : 64;
    ix_relation **s = realloc(g->kept, cap * sizeof *s);
    if (!s) return -1;
    g->kept = s;
    g->cap_kept = cap;
  }
  PPvoid_t v = JudyHSIns(&g->kept_keys, (void *)key, n * sizeof *key, PJE0);
  if (v == PPJERR) return -1;
  g->kept[g->n_kept++] = rel;
  *v = (void *)(uintptr_t)g->n_kept;
  g->kept_tuples += size;
  return 1;
}

void gr_free_steps(dl_ground *g)
{
  assert(g);
  for (uint32_t i = 0; i < g->n_kept; i++) ix_relation_destroy(g->kept[i]);
  free(g->kept);
  JudyHSFreeArray(&g->kept_keys, PJE0);
  gr_subterm_forget(g, NULL);
  g->kept = NULL;
  g->n_kept = g->cap_kept = 0;
  g->kept_tuples = 0;
}

/* Matches the unbound columns of tuple t (those not in mask) with atom a's
 * arguments, and stages the values of st's variables when they fit; 0 when
 * out of memory. */
static int stage_match(join *j, step *st, const ast_term *a, uint64_t mask, const ix_val *t)
{
  ix_val row[IX_MAX_ARITY];
  int fits = 1;
  for (uint32_t k = 0; fits && k < atom_arity(a); k++)
    if (!(mask >> k & 1)) fits = match(j, a->args[k], t[k]);
  for (uint32_t c = 0; fits && c < st->nv; c++) row[c] = j->bind[st->vars[c]];
  undo(j, 0);
  return !fits || ix_relation_stage(st->rel, row, NULL);
}

/* Tells st's empty relation that a variable that is an argument of atom a
 * gets no more values than src's column there has (ix_relation_expect). */
static void expect_step_values(step *st, const ast_term *a, const ix_relation *src)
{
  uint64_t values[IX_MAX_ARITY] = { 0 };
  for (uint32_t k = 0; k < atom_arity(a); k++)
    for (uint32_t c = 0; a->args[k]->kind == AST_VAR && c < st->nv; c++)
      if (st->vars[c] == a->args[k]->value) values[c] = ix_relation_column_values(src, k);
  ix_relation_expect(st->rel, values);
}

/* The tuples of src that may match atom a, by a ground argument inside one
 * of its compound arguments (not in mask): see gr_subterm_rows.  0 when
 * there is none, or src is to be scanned. */
static int rows_by_subterm(join *j, const ast_term *a, ix_relation *src, uint64_t mask, const ix_val **rows,
                           uint64_t *n)
{
  for (uint32_t k = 0; k < atom_arity(a); k++) {
    const ast_term *p = a->args[k];
    if (mask >> k & 1 || p->kind != AST_FUN) continue;
    for (uint32_t i = 0; i < p->n; i++) {
      if (!no_vars(p->args[i])) continue;
      dl_tid v = find_term(j->g->terms, p->args[i], j->bind);
      if (v == DL_NO_TERM) {  /* no tuple holds a term that was never made */
        *n = 0;
        return 1;
      }
      return gr_subterm_rows(j->g, src, k, p->value, p->n, i, v, rows, n);
    }
  }
  return 0;
}

/* 1 when the nv variables of atom a are its arguments, in their order. */
static int all_vars(const ast_term *a, uint32_t nv)
{
  uint32_t k = 0;
  while (k < atom_arity(a) && a->args[k]->kind == AST_VAR) k++;
  return k == atom_arity(a) && nv == k;
}

/* Makes the step of atom a over relation src: scans the tuples whose ground
 * columns have the atom's values (an index lookup), matches the others.  A
 * ground atom makes no step: j->empty tells whether it is missing. */
static int make_step(join *j, const ast_term *a, ix_relation *src, int frozen, int lit)
{
  uint32_t n = atom_arity(a);
  uint8_t *seen = calloc(j->r->n_vars + 1, 1);
  step *st = &j->steps[j->n_steps];
  *st = (step){ NULL, malloc((j->r->n_vars + 1) * sizeof *st->vars), 0, 0, 0, -1, lit, 0 };
  if (!seen || !st->vars) { free(seen); free(st->vars); return 0; }
  for (uint32_t k = 0; k < n; k++) collect_vars(a->args[k], seen, st->vars, &st->nv);
  free(seen);
  ix_val key[IX_MAX_ARITY], tuple[IX_MAX_ARITY];
  uint64_t mask = 0;
  uint32_t n_bound = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (!no_vars(a->args[k])) continue;
    if ((key[k] = find_term(j->g->terms, a->args[k], j->bind)) == DL_NO_TERM) j->empty = 1;
    mask |= (uint64_t)1 << k;
    n_bound++;
  }
  if (st->nv == 0) {
    free(st->vars);
    if (!j->empty && !ix_relation_contains(src, key)) j->empty = 1;
    return 1;
  }
  j->n_steps++;
  if (frozen && all_vars(a, st->nv)) {  /* distinct variables: the step is src itself */
    st->rel = src;
    st->kept = 1;
    return 1;
  }
  uint32_t pattern[STEP_KEY_MAX], n_key = frozen && !j->empty ? step_key(st, a, src, pattern) : 0;
  if (n_key && (st->rel = kept_step(j->g, pattern, n_key))) {
    st->kept = 1;
    return 1;
  }
  if (st->nv > IX_MAX_ARITY || !(st->rel = ix_relation_create(st->nv))) return 0;
  if (j->empty) return 1;
  if (n_bound == 0) expect_step_values(st, a, src);
  const ix_val *rows;
  uint64_t n_rows;
  /* G+'s relations do not change, nor a head's demand while its rules are made (a piece's relation does) */
  if ((frozen || lit < 0) && rows_by_subterm(j, a, src, mask, &rows, &n_rows)) {
    for (uint64_t i = 0; i < n_rows; i++) {
      const ix_val *t = rows + i * n;
      int bound = 1;
      for (uint32_t k = 0; bound && k < n; k++) bound = !(mask >> k & 1) || t[k] == key[k];
      if (bound && !stage_match(j, st, a, mask, t)) return 0;
    }
  } else {
    int idx;
    if (!ix_relation_index(src, mask, &idx)) return 0;
    ix_iter it;
    ix_iter_begin(&it, src, idx, n_bound, key);
    while (ix_iter_next(&it, tuple))
      if (!stage_match(j, st, a, mask, tuple)) return 0;
  }
  if (!ix_relation_flush(st->rel, NULL)) return 0;
  int kept = n_key ? keep_step(j->g, pattern, n_key, st->rel) : 0;
  st->kept = kept > 0;
  return kept >= 0;
}

/* 1 when step st joins a literal of factor c. */
static int in_factor(const join *j, const step *st, int32_t c)
{
  return c >= 0 && st->lit >= 0 && j->comp[st->lit] == c;
}

/* The block factor: the first factor with steps whose head variables the
 * other steps bind.  Its steps can then come last, and run once per value
 * of those variables (enter_block).  -1: none (or out of memory). */
static int32_t plan_block(const join *j)
{
  uint8_t *bound = malloc(j->r->n_vars + 1);
  int32_t block = -1;
  for (uint32_t c = 0; bound && block < 0 && c < j->n_factors; c++) {
    memset(bound, 0, j->r->n_vars + 1);
    uint32_t inside = 0, i = 0;
    for (uint32_t s = 0; s < j->n_steps; s++) {
      const step *st = &j->steps[s];
      if (in_factor(j, st, (int32_t)c)) inside++;
      else for (uint32_t k = 0; k < st->nv; k++) bound[st->vars[k]] = 1;
    }
    const factor *f = &j->factors[c];
    while (i < f->n_iface && bound[f->iface[i]]) i++;
    if (inside && i == f->n_iface) block = (int32_t)c;
  }
  free(bound);
  return block;
}

/* The rows step st yields per binding of the variables in bound[]. */
static double step_rows(const step *st, const uint8_t *bound)
{
  double rows = (double)ix_relation_size(st->rel);
  for (uint32_t k = 0; k < st->nv; k++)
    if (bound[st->vars[k]]) {
      uint32_t v = ix_relation_column_values(st->rel, k);
      rows /= v ? v : 1;
    }
  return rows;
}

static int all_bound(const step *st, const uint8_t *bound)
{
  for (uint32_t k = 0; k < st->nv; k++)
    if (!bound[st->vars[k]]) return 0;
  return 1;
}

/* Orders the steps greedily into order[]: next the one with the fewest
 * estimated rows given the variables bound before it (all bound: a
 * lookup, first), the steps of factor block (when >= 0) after all others.
 * Returns the estimated candidates; bound[] is scratch. */
static double greedy_order(const join *j, int32_t block, uint32_t *order, uint8_t *bound)
{
  uint32_t n = j->n_steps, n_main = 0;
  memset(bound, 0, j->r->n_vars + 1);
  for (uint32_t s = 0; s < n; s++) order[s] = s, n_main += !in_factor(j, &j->steps[s], block);
  double estimate = 1;
  for (uint32_t s = 0; s < n; s++) {
    uint32_t best = UINT32_MAX;
    double best_est = 0;
    for (uint32_t c = s; c < n; c++) {
      const step *st = &j->steps[order[c]];
      if (s < n_main && in_factor(j, st, block)) continue;
      double est = all_bound(st, bound) ? -1 : step_rows(st, bound);
      if (best == UINT32_MAX || est < best_est) best = c, best_est = est;
    }
    uint32_t t = order[s];
    order[s] = order[best];
    order[best] = t;
    const step *st = &j->steps[order[s]];
    estimate *= step_rows(st, bound);
    for (uint32_t k = 0; k < st->nv; k++) bound[st->vars[k]] = 1;
  }
  return estimate;
}

/* Orders the steps (greedy_order) and readies their indexes.  The estimate,
 * which decides splitting, is the order's without a block factor. */
static int plan(join *j)
{
  uint32_t n = j->n_steps;
  uint8_t *bound = malloc(j->r->n_vars + 1);
  uint32_t *order = malloc((n + 1) * sizeof *order);
  step *steps = malloc((n + 1) * sizeof *steps);
  int ok = bound && order && steps;
  if (ok) {
    j->estimate = greedy_order(j, -1, order, bound);
    j->block_comp = plan_block(j);
    if (j->block_comp >= 0) greedy_order(j, j->block_comp, order, bound);
    for (uint32_t s = 0; s < n; s++) steps[s] = j->steps[order[s]];
    memcpy(j->steps, steps, n * sizeof *steps);
    memset(bound, 0, j->r->n_vars + 1);
  }
  for (uint32_t s = 0; ok && s < n; s++) {
    step *st = &j->steps[s];
    st->mask = 0;
    st->n_bound = 0;
    for (uint32_t k = 0; k < st->nv; k++)
      if (bound[st->vars[k]]) st->mask |= (uint64_t)1 << k, st->n_bound++;
    if (in_factor(j, st, j->block_comp) && j->block_from == UINT32_MAX) j->block_from = s;
    ok = st->n_bound == st->nv || ix_relation_index(st->rel, st->mask, &st->index);
    for (uint32_t k = 0; k < st->nv; k++) bound[st->vars[k]] = 1;
  }
  free(bound);
  free(order);
  free(steps);
  return ok;
}

/* Grounds the arguments of atom a into j->args. */
static int ground_args(join *j, const ast_term *a)
{
  for (uint32_t k = 0; k < atom_arity(a); k++)
    if ((j->args[k] = make_term(j->g->terms, a->args[k], j->bind)) == DL_NO_TERM) return 0;
  return 1;
}

/* Asks for atom a (of dynamic predicate q) when q is instantiated on demand. */
static int add_demand(join *j, uint32_t q)
{
  ix_relation *d = j->g->demand[q];
  int is_new;
  return !d || ix_relation_insert(d, j->args, &is_new);
}

/* Decides literal k of the rule under the binding: 1 with *lit the ground
 * literal (0 when it disappears), or 0 when it is false.  -1: out of memory. */
static int decide(join *j, uint32_t k, int32_t *lit)
{
  dl_ground *g = j->g;
  const dl_literal *l = &j->r->body[k];
  *lit = 0;
  if (l->kind == DL_DISTINCT || l->kind == DL_EQUAL) {
    dl_tid a = make_term(g->terms, l->a, j->bind), b = make_term(g->terms, l->b, j->bind);
    if (a == DL_NO_TERM || b == DL_NO_TERM) return -1;
    return (a == b) == (l->kind == DL_EQUAL);
  }
  uint32_t q = j->gr->lit_pred[k];
  int dynamic = gr_pred_dynamic(g, j->pc, q);
  assert(dynamic || l->kind != DL_POS);  /* those are in_join: decide_lits skips them */
  if (!ground_args(j, l->atom)) return -1;
  if (q >= g->game->n_preds) {  /* a piece's atom: always positive */
    dl_tid t = gr_atom_term(g, ast_atom_pred(l->atom), atom_arity(l->atom), j->args);
    int32_t a = t == DL_NO_TERM ? 0 : gr_atom_id(g, t, DL_ATOM_OTHER);
    if (!a) return -1;
    *lit = a;
    return 1;
  }
  if (!dynamic) return !ix_relation_contains(dl_eval_relation(g->statics, q), j->args);
  if (l->kind == DL_NEG && !ix_relation_contains(dl_reduction_relation(g->red, q), j->args)) return 1;
  dl_tid t = gr_atom_term(g, ast_atom_pred(l->atom), atom_arity(l->atom), j->args);
  int32_t a = t == DL_NO_TERM ? 0 : gr_atom_id(g, t, g->pred_role[q]);
  if (!a || !add_demand(j, q)) return -1;
  *lit = l->kind == DL_NEG ? -a : a;
  return 1;
}

/* The slot of memo m for the current values of its variables. */
static uint32_t memo_slot(const join *j, const memo *m)
{
  uint64_t h = 0;
  for (uint32_t v = 0; v < m->nv; v++) h = (h ^ j->bind[m->vars[v]]) * 0x9e3779b97f4a7c15ULL;
  return (uint32_t)(h >> 40) & m->mask;
}

/* 1 when slot s of memo m holds the answer for the current values. */
static int memo_holds(const join *j, const memo *m, uint32_t s)
{
  if (!m->state[s]) return 0;
  const dl_tid *vals = m->vals + (size_t)s * m->nv;
  for (uint32_t v = 0; v < m->nv; v++)
    if (j->bind[m->vars[v]] != vals[v]) return 0;
  return 1;
}

/* memo_holds, counted during the trial, at whose end memo m may be given
 * up (m->off: its callers then make no look-up). */
static int memo_hit(const join *j, memo *m, uint32_t s)
{
  int hit = memo_holds(j, m, s);
  if (m->asked < MEMO_TRIAL) {
    m->hits += (uint32_t)hit;
    if (++m->asked == MEMO_TRIAL) m->off = m->hits * MEMO_HITS_MIN < MEMO_TRIAL;
  }
  return hit;
}

/* Remembers holds and lit in slot s for the current values. */
static void memo_store(const join *j, memo *m, uint32_t s, int holds, int32_t lit)
{
  dl_tid *vals = m->vals + (size_t)s * m->nv;
  for (uint32_t v = 0; v < m->nv; v++) vals[v] = j->bind[m->vars[v]];
  m->state[s] = (uint8_t)(1 + holds);
  m->lit[s] = lit;
}

/* decide, or its answer for the same values of the literal's variables
 * (decide depends on nothing else during a join; add_demand again would
 * add nothing). */
static int decide_memo(join *j, uint32_t k, int32_t *lit)
{
  memo *m = &j->memos[k];
  if (m->off) return decide(j, k, lit);
  uint32_t s = memo_slot(j, m);
  if (memo_hit(j, m, s)) {
    *lit = m->lit[s];
    return m->state[s] - 1;
  }
  int holds = decide(j, k, lit);
  if (holds >= 0) memo_store(j, m, s, holds, *lit);
  return holds;
}

/* Readies memo m for the variables of terms t[0..n) (NULL entries skipped). */
static int memo_init(memo *m, uint32_t slots, uint32_t n_vars, uint8_t *seen, const ast_term *const *t, uint32_t n)
{
  memset(seen, 0, n_vars + 1);
  m->vars = malloc((n_vars + 1) * sizeof *m->vars);
  if (!m->vars) return 0;
  for (uint32_t i = 0; i < n; i++)
    if (t[i]) collect_vars(t[i], seen, m->vars, &m->nv);
  if (!m->nv) slots = 1;
  m->mask = slots - 1;
  m->vals = malloc(((size_t)slots * m->nv + 1) * sizeof *m->vals);
  m->state = calloc(slots, 1);
  m->lit = malloc(slots * sizeof *m->lit);
  return m->vals && m->state && m->lit;
}

static void memo_free(memo *m)
{
  free(m->vars);
  free(m->vals);
  free(m->state);
  free(m->lit);
}

/* Marks the positive static literals: the join decides them (in_join). */
static void mark_in_join(join *j)
{
  for (uint32_t k = 0; k < j->r->n_body; k++)
    j->in_join[k] = j->r->body[k].kind == DL_POS && !gr_pred_dynamic(j->g, j->pc, j->gr->lit_pred[k]);
}

/* Makes the memos of the body literals but those in_join (marked before),
 * and of the head, sized for the join's estimate (planned before). */
static int make_memos(join *j)
{
  const dl_rule *r = j->r;
  uint8_t *seen = calloc(r->n_vars + 1, 1);
  if (!seen || !(j->memos = calloc(r->n_body + 1, sizeof *j->memos))) return free(seen), 0;
  int ok = 1;
  uint32_t slots = MEMO_MIN;
  while (slots < MEMO_MAX && slots < j->estimate) slots *= 2;
  for (uint32_t k = 0; ok && k < r->n_body; k++) {
    const dl_literal *l = &r->body[k];
    const ast_term *t[3] = { l->atom, l->a, l->b };
    ok = j->in_join[k] || memo_init(&j->memos[k], slots, r->n_vars, seen, t, 3);
  }
  ok = ok && memo_init(&j->head_memo, slots, r->n_vars, seen, (const ast_term *const[]){ r->head }, 1);
  free(seen);
  return ok;
}

static void free_memos(join *j)
{
  for (uint32_t k = 0; j->memos && k < j->r->n_body; k++) memo_free(&j->memos[k]);
  free(j->memos);
  memo_free(&j->head_memo);
}

/* The term of factored component c's auxiliary atom under the binding;
 * DL_NO_TERM when out of memory. */
static dl_tid factor_term(join *j, uint32_t c)
{
  const factor *f = &j->factors[c];
  for (uint32_t i = 0; i < f->n_iface; i++) j->args[i] = j->bind[f->iface[i]];
  return gr_atom_term(j->g, f->sym, f->n_iface, j->args);
}

/* The auxiliary atom that is term t (see factor_term), with its rule
 * aux :- body[0..n), added unless it was (once) or added (!once: it cannot
 * have been); the atom's id, 0 when out of memory. */
int32_t gr_add_factor_rule(join *j, dl_tid t, int32_t *body, uint32_t n, int once)
{
  dl_ground *g = j->g;
  int32_t a = t == DL_NO_TERM ? 0 : gr_atom_id(g, t, DL_ATOM_OTHER);
  if (a) g->atom_aux[a] = 1;
  uint32_t origin = j->gr->origin;
  return a && (once ? gr_add_rule_once(g, a, body, n, origin) : gr_add_rule(g, a, body, n, origin)) ? a : 0;
}

/* The auxiliary atom of factored component c under the binding, with its
 * rule aux :- body[0..n); the atom's id, 0 when out of memory. */
static int32_t add_factor(join *j, uint32_t c, int32_t *body, uint32_t n)
{
  return gr_add_factor_rule(j, factor_term(j, c), body, n, 1);
}

/* The head atom of a binding (remembered while the head's variables keep
 * their values); 0 when out of memory.  A piece's head is recorded among
 * its kept instances, and is -1 for a static piece, which makes no rule. */
static int32_t head_atom(join *j, uint32_t h)
{
  dl_ground *g = j->g;
  const ast_term *a = j->r->head;
  memo *m = &j->head_memo;
  int piece = h >= g->game->n_preds, memo_on = !piece && !m->off;
  uint32_t s = memo_on ? memo_slot(j, m) : 0;
  if (memo_on && memo_hit(j, m, s)) return m->lit[s];
  if (!ground_args(j, a)) return 0;
  if (piece) {
    int is_new;
    if (!ix_relation_insert(j->pc->rel[h - g->game->n_preds], j->args, &is_new)) return 0;
    if (!j->pc->dynamic[h - g->game->n_preds]) return -1;
  }
  dl_tid t = gr_atom_term(g, ast_atom_pred(a), atom_arity(a), j->args);
  int32_t head = t == DL_NO_TERM ? 0 : gr_atom_id(g, t, piece ? DL_ATOM_OTHER : g->pred_role[h]);
  if (head && piece) g->atom_aux[head] = 1;
  if (head && memo_on) memo_store(j, m, s, 1, head);
  return head;
}

/* Makes the rule of an instance with body j->body[0..n) (none for a static
 * piece).  0 when out of memory. */
static int make_head(join *j, uint32_t h, uint32_t n)
{
  int32_t head = head_atom(j, h);
  if (head <= 0) return head < 0;
  dl_ground *g = j->g;
  return j->distinct ? gr_add_rule(g, head, j->body, n, j->gr->origin) : gr_add_rule_once(g, head, j->body, n, j->gr->origin);
}

/* 1 unless the caller asks to stop (then reported); asked every 1,024
 * calls, as reading a deadline reads the clock. */
static int go_on(join *j)
{
  if ((++j->polls & 1023) || !j->g->opt->stop) return 1;
  int why = dl_stop_requested(j->g->opt->stop);
  if (!why) return 1;
  dl_diag_fail(j->g->diag, DL_CAUSE_STOP, "%s", dl_stop_message(why));
  return !(j->g->failed = 1);
}

enum { NO_COMP = -2 };  /* no literal's component */

/* Decides the body literals that are in component c (in_c) or are not
 * (!in_c; c = NO_COMP: all): 1 when they all hold, 0 when one is false, -1
 * when out of memory. */
static int decide_lits(join *j, int32_t c, int in_c)
{
  for (uint32_t k = 0; k < j->r->n_body; k++) {
    if ((j->comp[k] == c) != in_c) continue;
    if (j->in_join[k]) {  /* decide would say so, without the memo's look-up */
      j->lits[k] = 0;
      continue;
    }
    int holds = decide_memo(j, k, &j->lits[k]);
    if (holds <= 0) return holds;
  }
  return 1;
}

/* The decided literals of factor c into j->cbody; returns their number. */
static uint32_t factor_body(join *j, int32_t c)
{
  uint32_t m = 0;
  for (uint32_t k = 0; k < j->r->n_body; k++)
    if (j->comp[k] == c && j->lits[k]) j->cbody[m++] = j->lits[k];
  return m;
}

/* Makes the instance of the decided literals (its factors' rules, then its
 * rule), which stands for count instances.  When the rule has a block
 * factor, the literals block[0..n_block) stand for it.  0 on failure
 * (reported). */
int gr_make_instance(join *j, const int32_t *block, uint32_t n_block, uint64_t count)
{
  dl_ground *g = j->g;
  uint32_t n = 0;
  for (uint32_t k = 0; k < j->r->n_body; k++)
    if (j->comp[k] < 0 && j->lits[k]) j->body[n++] = j->lits[k];
  for (uint32_t c = 0; c < j->n_factors; c++) {
    if ((int32_t)c == j->block_comp) {
      for (uint32_t i = 0; i < n_block; i++) j->body[n++] = block[i];
      continue;
    }
    uint32_t m = factor_body(j, (int32_t)c);
    if (m == 0) continue;
    if (!gr_normalize_body(j->cbody, &m)) return 1;
    int32_t a = add_factor(j, c, j->cbody, m);
    if (!a) return gr_oom(g);
    j->body[n++] = a;
  }
  if (!gr_normalize_body(j->body, &n)) return 1;
  if (!make_head(j, j->gr->head_pred, n)) return gr_oom(g);
  j->instances += count;
  if (g->opt->max_instances && (g->instances += count) > g->opt->max_instances) {
    dl_diag_fail(g->diag, DL_CAUSE_LIMIT, "more than %llu rule instances",
                 (unsigned long long)g->opt->max_instances);
    return !(g->failed = 1);
  }
  return 1;
}

/* A complete binding: decides the literals that can be decided and makes
 * the instance.  Returns 0 on failure (reported). */
static int leaf(join *j)
{
  j->candidates++;
  if (!go_on(j)) return 0;
  int holds = decide_lits(j, NO_COMP, 0);
  if (holds < 0) return gr_oom(j->g);
  return !holds || gr_make_instance(j, NULL, 0, 1);
}

/* A complete binding in a first enumeration of the block factor: the
 * factor's instance (its rule), recorded in j->cur. */
static int leaf_factor(join *j)
{
  j->candidates++;
  if (!go_on(j)) return 0;
  int holds = decide_lits(j, j->block_comp, 1);
  if (holds <= 0) return holds == 0 || gr_oom(j->g);
  uint32_t m = factor_body(j, j->block_comp);
  if (m && !gr_normalize_body(j->cbody, &m)) return 1;
  if (j->excl) return gr_add_element(j, m);
  int32_t a = m ? gr_add_factor_rule(j, j->block_term, j->cbody, m, !j->block_distinct) : -1;
  if (!a) return gr_oom(j->g);
  if (a < 0 || !j->cur.atom) j->cur.atom = a;  /* an instance of no literal: the factor holds */
  j->cur.made++;
  return 1;
}

static int descend(join *j, uint32_t s);

/* Remembers rec for the block factor's atom term t. */
static int push_rec(join *j, block_rec rec, dl_tid t)
{
  if (j->n_recs == j->cap_recs) {
    uint32_t cap = j->cap_recs ? 2 * j->cap_recs : 64;
    block_rec *r = realloc(j->recs, cap * sizeof *r);
    if (!r) return 0;
    j->recs = r;
    j->cap_recs = cap;
  }
  PWord_t pv = (PWord_t)JudyLIns(&j->block_seen, (Word_t)t, PJE0);
  if (pv == PJERR) return 0;
  j->recs[j->n_recs++] = rec;
  *pv = j->n_recs;
  return 1;
}

/* Step s, the block factor's first.  The factor shares only its head
 * variables with the rest of the body, and the steps before s bind them:
 * its instances for their values are made by the first enumeration for
 * those values, and recalled afterwards.  Then the rule's instance, with
 * the factor's atom: breakthrough's frame rule enumerates its moves once
 * per cell, not once per cell and piece. */
static int enter_block(join *j, uint32_t s)
{
  dl_ground *g = j->g;
  dl_tid t = factor_term(j, (uint32_t)j->block_comp);
  if (t == DL_NO_TERM) return gr_oom(g);
  if (!go_on(j)) return 0;
  PWord_t pv = (PWord_t)JudyLGet(j->block_seen, (Word_t)t, PJE0);
  block_rec rec;
  if (pv) {
    rec = j->recs[*pv - 1];
    j->candidates += rec.candidates;
  } else {
    uint64_t before = j->candidates;
    j->cur = (block_rec){ 0 };
    j->block_term = t;
    j->in_block = 1;
    int ok = descend(j, s);
    j->in_block = 0;
    rec = j->cur;
    rec.candidates = j->candidates - before;
    if (!ok) return 0;
    if ((j->excl && !gr_close_exclusion(j, &rec)) || !push_rec(j, rec, t)) return gr_oom(g);
  }
  if (!rec.atom) return 1;
  int holds = decide_lits(j, j->block_comp, 0);
  if (holds < 0) return gr_oom(g);
  if (!holds) return 1;
  return j->excl ? gr_make_exclusion(j, &rec) : gr_make_instance(j, &rec.atom, rec.atom > 0, rec.made);
}

/* Binds the variables of steps s.. in every way the relations allow. */
static int descend(join *j, uint32_t s)
{
  if (s == j->n_steps) return j->in_block ? leaf_factor(j) : leaf(j);
  if (s == j->block_from && !j->in_block) return enter_block(j, s);
  const step *st = &j->steps[s];
  ix_val key[IX_MAX_ARITY], tuple[IX_MAX_ARITY];
  for (uint32_t k = 0; k < st->nv; k++) key[k] = j->bind[st->vars[k]];
  if (st->n_bound == st->nv) return ix_relation_contains(st->rel, key) ? descend(j, s + 1) : 1;
  ix_iter it;
  ix_iter_begin(&it, st->rel, st->index, st->n_bound, key);
  int ok = 1;
  while (ok && ix_iter_next(&it, tuple)) {
    for (uint32_t k = 0; k < st->nv; k++)
      if (!(st->mask >> k & 1)) j->bind[st->vars[k]] = tuple[k];
    ok = descend(j, s + 1);
  }
  for (uint32_t k = 0; k < st->nv; k++)
    if (!(st->mask >> k & 1)) j->bind[st->vars[k]] = DL_NO_TERM;
  return ok;
}

static uint32_t find_root(uint32_t *parent, uint32_t k)
{
  while (parent[k] != k) k = parent[k] = parent[parent[k]];
  return k;
}

/* A fresh predicate name for an auxiliary atom (a factor or a piece). */
dl_sym gr_aux_symbol(dl_ground *g) { return dl_program_fresh_symbol(g->game, "aux", g->n_aux++); }

/* Marks known[v] for the variables of the static literals of component
 * root that the known ones determine, through the static relations'
 * functional dependencies, until nothing changes. */
static int close_known(const join *j, uint32_t *parent, uint32_t root, uint8_t *known)
{
  const dl_rule *r = j->r;
  int ok = 1;
  for (int changed = 1; ok && changed;) {
    changed = 0;
    for (uint32_t k = 0; ok && k < r->n_body; k++) {
      uint32_t q = j->gr->lit_pred[k];
      if (find_root(parent, k) != root || r->body[k].kind != DL_POS || q >= j->g->game->n_preds ||
          j->g->dynamic[q])
        continue;
      const ast_term *atom = r->body[k].atom;
      uint32_t n = atom_arity(atom);
      uint64_t a = 0;
      for (uint32_t c = 0; c < n; c++) {
        const ast_term *x = atom->args[c];
        if (no_vars(x) || (x->kind == AST_VAR && known[x->value])) a |= (uint64_t)1 << c;
      }
      ix_relation *rel = (ix_relation *)dl_eval_relation(j->g->statics, q);
      for (uint32_t c = 0; ok && c < n; c++) {
        const ast_term *x = atom->args[c];
        if (x->kind != AST_VAR || known[x->value] || !ix_relation_determines(rel, a, c, &ok)) continue;
        known[x->value] = 1;
        a |= (uint64_t)1 << c;
        changed = 1;
      }
    }
  }
  return ok;
}

/* 1 when the head's variables determine every variable of component root
 * (so factoring it would make one auxiliary rule per binding of the head:
 * pure overhead); -1 when out of memory. */
static int determined_by_head(const join *j, uint32_t *parent, uint32_t root, const uint8_t *head)
{
  uint32_t nv = j->r->n_vars;
  uint8_t *known = malloc(nv + 1), *mark = calloc(nv + 1, 1);
  int ok = known && mark;
  if (ok) memcpy(known, head, nv + 1);
  ok = ok && close_known(j, parent, root, known);
  for (uint32_t k = 0; ok && k < j->r->n_body; k++)
    if (find_root(parent, k) == root) ast_literal_mark_vars(&j->r->body[k], mark);
  int all = 1;
  for (uint32_t v = 0; ok && v < nv; v++) all &= !mark[v] || known[v];
  free(known);
  free(mark);
  return ok ? all : -1;
}

/* Splits the body into components joined by variables outside the head
 * (static and distinct literals included, they link variables too).  When
 * two or more components have dynamic literals, each one of them that has
 * a variable outside the head becomes a factor: its instances then are
 * made once per binding of its head variables, not once per binding of the
 * whole body. */
static int plan_factors(join *j)
{
  const dl_rule *r = j->r;
  dl_ground *g = j->g;
  uint32_t nb = r->n_body, nv = r->n_vars;
  uint8_t *head = calloc(nv + 1, 1), *mark = calloc(nv + 1, 1);
  uint32_t *parent = malloc((nb + 1) * sizeof *parent), *first = malloc((nv + 1) * sizeof *first);
  uint8_t *local = calloc(nb + 1, 1), *dyn = calloc(nb + 1, 1);
  int ok = head && mark && parent && first && local && dyn;
  if (ok) ast_mark_vars(r->head, head);
  for (uint32_t v = 0; ok && v < nv; v++) first[v] = UINT32_MAX;
  for (uint32_t k = 0; ok && k < nb; k++) {
    parent[k] = k;
    j->comp[k] = -1;
    dyn[k] = gr_pred_dynamic(g, j->pc, j->gr->lit_pred[k]);
    memset(mark, 0, nv + 1);
    ast_literal_mark_vars(&r->body[k], mark);
    for (uint32_t v = 0; v < nv; v++) {
      if (!mark[v] || head[v]) continue;
      if (first[v] == UINT32_MAX) first[v] = k;
      else parent[find_root(parent, k)] = find_root(parent, first[v]);
    }
  }
  uint32_t with_dyn = 0;
  for (uint32_t k = 0; ok && k < nb; k++) {
    uint32_t root = find_root(parent, k);
    memset(mark, 0, nv + 1);
    ast_literal_mark_vars(&r->body[k], mark);
    for (uint32_t v = 0; v < nv; v++) local[root] |= mark[v] && !head[v];
    if (dyn[k]) dyn[root] = 2;  /* 2: the component has a dynamic literal */
  }
  for (uint32_t k = 0; ok && k < nb; k++) with_dyn += find_root(parent, k) == k && dyn[k] == 2;
  for (uint32_t k = 0; ok && !g->opt->no_factor && with_dyn >= 2 && k < nb; k++) {
    if (find_root(parent, k) != k || dyn[k] != 2 || !local[k]) continue;
    int determined = determined_by_head(j, parent, k, head);
    if (determined) {
      ok = determined > 0;
      continue;
    }
    factor *f = &j->factors[j->n_factors];
    f->iface = malloc((nv + 1) * sizeof *f->iface);
    f->n_iface = 0;
    if (!f->iface || (f->sym = gr_aux_symbol(g)) == DL_NO_SYM) { ok = 0; break; }
    memset(mark, 0, nv + 1);
    for (uint32_t i = 0; i < nb; i++)
      if (find_root(parent, i) == k) ast_literal_mark_vars(&r->body[i], mark), j->comp[i] = (int32_t)j->n_factors;
    for (uint32_t v = 0; v < nv; v++)
      if (mark[v] && head[v]) f->iface[f->n_iface++] = v;
    j->n_factors++;
  }
  free(head);
  free(mark);
  free(parent);
  free(first);
  free(local);
  free(dyn);
  return ok;
}

/* Marks the variables of the positive dynamic literals of component c
 * (-1: those of no factor): literals that stay in the body as atoms, so
 * that two bindings that differ on one of them make two bodies. */
static void mark_kept_vars(const join *j, int32_t c, uint8_t *mark)
{
  const dl_rule *r = j->r;
  for (uint32_t k = 0; k < r->n_body; k++)
    if (j->comp[k] == c && r->body[k].kind == DL_POS && gr_pred_dynamic(j->g, j->pc, j->gr->lit_pred[k]))
      ast_literal_mark_vars(&r->body[k], mark);
}

/* 1 when two bindings of the rule never make the same ground rule, so its
 * instances need no look-up in the rule set: each variable is in the head
 * or in a positive dynamic literal that stays in the body (not factored). */
static int instances_distinct(const join *j)
{
  const dl_rule *r = j->r;
  uint8_t *mark = calloc(r->n_vars + 1, 1);
  if (!mark) return 0;
  ast_mark_vars(r->head, mark);
  mark_kept_vars(j, -1, mark);
  for (uint32_t k = 0; j->excl && k < r->n_body; k++)  /* an exclusion's part and disequality: atoms of K */
    if (j->comp[k] == 0 || k == j->excl_lit) ast_literal_mark_vars(&r->body[k], mark);
  uint32_t v = 0;
  while (v < r->n_vars && mark[v]) v++;
  free(mark);
  return v == r->n_vars;
}

/* 1 when a first enumeration of the block factor (one value of its head
 * variables) never makes the same rule twice, so that its rules need no
 * look-up in the rule set: each other variable of the factor's literals is
 * in a positive dynamic one of them, which stays in the body (breakthrough's
 * frame rule: one rule per move, 19,224 in all). */
static int block_distinct(const join *j)
{
  const dl_rule *r = j->r;
  uint8_t *known = calloc(r->n_vars + 1, 1), *used = calloc(r->n_vars + 1, 1);
  int all = known && used;
  const factor *f = &j->factors[j->block_comp];
  for (uint32_t i = 0; all && i < f->n_iface; i++) known[f->iface[i]] = 1;
  if (all) mark_kept_vars(j, j->block_comp, known);
  for (uint32_t k = 0; all && k < r->n_body; k++)
    if (j->comp[k] == j->block_comp) ast_literal_mark_vars(&r->body[k], used);
  for (uint32_t v = 0; all && v < r->n_vars; v++) all = !used[v] || known[v];
  free(known);
  free(used);
  return all;
}

int gr_pred_dynamic(const dl_ground *g, const gr_pieces *pc, uint32_t q)
{
  if (q == DL_NO_PRED) return 0;
  if (q < g->game->n_preds) return g->dynamic[q];
  assert(pc && q - pc->base < pc->n);
  return pc->dynamic[q - pc->base];
}

/* The relation a positive literal of predicate q is joined with. */
static ix_relation *literal_relation(const join *j, uint32_t q)
{
  const dl_ground *g = j->g;
  if (q >= g->game->n_preds) return j->pc->rel[q - j->pc->base];
  /* indexes are caches: ix_relation_index adds one without changing a tuple */
  return (ix_relation *)(g->dynamic[q] ? dl_reduction_relation(g->red, q) : dl_eval_relation(g->statics, q));
}

/* The statistics of the steps, per body literal, for gr_split. */
static int literal_stats(const join *j, gr_lit_stats *st)
{
  uint32_t nb = j->r->n_body, nv = j->r->n_vars;
  st->size = malloc((nb + 1) * sizeof *st->size);
  st->dv = calloc((size_t)(nb + 1) * (nv + 1), sizeof *st->dv);
  if (!st->size || !st->dv) return 0;
  for (uint32_t k = 0; k <= nb; k++) st->size[k] = -1;
  for (uint32_t s = 0; s < j->n_steps; s++) {
    const step *p = &j->steps[s];
    uint32_t row = p->lit < 0 ? nb : (uint32_t)p->lit;
    st->size[row] = (double)ix_relation_size(p->rel);
    for (uint32_t c = 0; c < p->nv; c++) st->dv[row * nv + p->vars[c]] = ix_relation_column_values(p->rel, c);
  }
  return 1;
}

/* Rules whose join is estimated above this many candidates are split when
 * that is estimated to save enough (ground_split.c). */
#define SPLIT_MIN_CANDIDATES 20000.0

/* Offers rule gr to gr_split: 1 split and done, 0 failure, -1 declined. */
static int try_split(join *j)
{
  const dl_ground *g = j->g;
  if (j->pc || j->excl || g->opt->no_split || j->empty || j->estimate < SPLIT_MIN_CANDIDATES || j->r->n_vars > 64) return -1;
  gr_lit_stats st = { NULL, NULL };
  int done = literal_stats(j, &st) ? gr_split(j->g, j->gr, &st, j->estimate) : gr_oom(j->g);
  free(st.size);
  free(st.dv);
  return done;
}

int gr_instantiate(dl_ground *g, const gr_rule *gr, gr_pieces *pc)
{
  double t0 = dl_clock_now();
  const dl_rule *r = gr->r;
  uint32_t h = gr->head_pred;
  join j;
  memset(&j, 0, sizeof j);
  j.g = g;
  j.gr = gr;
  j.pc = pc;
  j.r = r;
  j.block_comp = -1;
  j.block_from = UINT32_MAX;
  j.steps = calloc(r->n_body + 1, sizeof *j.steps);
  j.bind = malloc((r->n_vars + 1) * sizeof *j.bind);
  j.trail = malloc((r->n_vars + 1) * sizeof *j.trail);
  j.body = malloc((r->n_body + 1) * sizeof *j.body);
  j.args = malloc(IX_MAX_ARITY * sizeof *j.args);
  j.lits = calloc(r->n_body + 1, sizeof *j.lits);
  j.in_join = calloc(r->n_body + 1, 1);
  j.comp = malloc((r->n_body + 1) * sizeof *j.comp);
  j.cbody = malloc((r->n_body + 1) * sizeof *j.cbody);
  j.factors = calloc(r->n_body + 1, sizeof *j.factors);
  int ok = j.steps && j.bind && j.trail && j.body && j.args && j.lits && j.in_join && j.comp && j.cbody && j.factors;
  int excl = ok ? gr_plan_exclusion(&j) : 0;
  ok = ok && excl >= 0 && (excl || plan_factors(&j));
  j.distinct = ok && instances_distinct(&j);
  if (ok) mark_in_join(&j);
  if (ok && excl) j.in_join[j.excl_lit] = 1;  /* left out: the exclusion decides it */
  for (uint32_t v = 0; ok && v < r->n_vars; v++) j.bind[v] = DL_NO_TERM;
  for (uint32_t k = 0; ok && k < r->n_body; k++)
    if (r->body[k].kind == DL_POS && !(excl && k == j.excl_lit)) {
      uint32_t q = gr->lit_pred[k];  /* G+'s and the statics' relations do not change now; pieces' do */
      ok = make_step(&j, r->body[k].atom, literal_relation(&j, q), q < g->game->n_preds, (int)k);
    }
  if (ok && gr->use_demand && g->demand[h]) ok = make_step(&j, r->head, g->demand[h], 0, -1);
  ok = ok && plan(&j);
  assert(!ok || !excl || j.block_comp == 0);  /* the head's demand binds K (values_of_c) */
  j.block_distinct = ok && j.block_comp >= 0 && block_distinct(&j);
  if (!ok) gr_oom(g);
  int split = ok ? try_split(&j) : -1;
  if (split >= 0) ok = split;
  else ok = ok && (j.empty || ((make_memos(&j) || gr_oom(g)) && descend(&j, 0)));
  dl_ground_rule_stats *rs = &g->rstats[gr->origin];
  rs->candidates += j.candidates;
  rs->instances += j.instances;
  if (!pc) rs->seconds += dl_clock_now() - t0;
  for (uint32_t s = 0; s < j.n_steps; s++) {
    if (!j.steps[s].kept) ix_relation_destroy(j.steps[s].rel);
    free(j.steps[s].vars);
  }
  for (uint32_t c = 0; j.factors && c <= r->n_body; c++) free(j.factors[c].iface);
  free(j.factors);
  free_memos(&j);
  JudyLFreeArray(&j.block_seen, PJE0);
  gr_free_exclusion(&j);
  free(j.recs);
  free(j.lits);
  free(j.in_join);
  free(j.comp);
  free(j.cbody);
  free(j.steps);
  free(j.bind);
  free(j.trail);
  free(j.body);
  free(j.args);
  return ok;
}
