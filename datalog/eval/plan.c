/* plan.c: choosing the order of a rule's body and compiling it (see plan.h). */
#include "datalog/eval/plan.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- plan storage ------------------------------------------------------------ */

static int plan_reserve(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
  if (need <= *cap) return 1;
  uint32_t c = *cap ? *cap * 2 : 32;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * elem);
  if (!q) return 0;
  *p = q;
  *cap = c;
  return 1;
}

static uint32_t new_kids(pl_plan *pl, uint32_t n)
{
  if (!plan_reserve((void **)&pl->kids, &pl->cap_kids, pl->n_kids + n + 1, sizeof(uint32_t))) return PL_NONE;
  uint32_t at = pl->n_kids;
  pl->n_kids += n;
  return at;
}

static uint32_t new_pat(pl_plan *pl, uint8_t kind, uint32_t value)
{
  if (!plan_reserve((void **)&pl->pats, &pl->cap_pats, pl->n_pats + 1, sizeof(pl_pat))) return PL_NONE;
  pl_pat p = { kind, value, 0, 0 };
  pl->pats[pl->n_pats] = p;
  return pl->n_pats++;
}

static pl_step *new_step(pl_plan *pl, uint8_t kind)
{
  if (!plan_reserve((void **)&pl->steps, &pl->cap_steps, pl->n_steps + 1, sizeof(pl_step))) return NULL;
  pl_step *s = &pl->steps[pl->n_steps++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  return s;
}

void pl_plan_free(pl_plan *pl)
{
  free(pl->steps);
  free(pl->pats);
  free(pl->kids);
  memset(pl, 0, sizeof *pl);
}

/* ---- terms and variables -------------------------------------------------------- */

static const ast_term *atom_arg(const ast_term *a, uint32_t i) { return a->args[i]; }

static int all_bound(const ast_term *t, const uint8_t *bound)
{
  if (t->kind == AST_VAR) return bound[t->value];
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (!all_bound(t->args[i], bound)) return 0;
  return 1;
}

/* Does t hold a variable that is neither bound nor in the head? */
static int has_existential(const ast_term *t, const uint8_t *bound, const uint8_t *in_head)
{
  if (t->kind == AST_VAR) return !bound[t->value] && !in_head[t->value];
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (has_existential(t->args[i], bound, in_head)) return 1;
  return 0;
}

/* The columns of atom a that hold an unbound variable not in the head. */
static uint64_t existential_columns(const ast_term *a, const uint8_t *bound, const uint8_t *in_head)
{
  uint64_t m = 0;
  for (uint32_t i = 0; i < ast_atom_arity(a); i++)
    if (has_existential(atom_arg(a, i), bound, in_head)) m |= (uint64_t)1 << i;
  return m;
}

/* The columns of atom a, outside skip, that are not known yet. */
static uint64_t unknown_columns(const ast_term *a, const uint8_t *bound, uint64_t skip)
{
  uint64_t m = 0;
  for (uint32_t i = 0; i < ast_atom_arity(a); i++)
    if (!(skip >> i & 1) && !all_bound(atom_arg(a, i), bound)) m |= (uint64_t)1 << i;
  return m;
}

static int lit_bound(const dl_literal *l, const uint8_t *bound)
{
  if (l->kind == DL_NEG) return all_bound(l->atom, bound);
  if (l->kind == DL_POS) return 0;
  return all_bound(l->a, bound) && all_bound(l->b, bound);
}

/* The position of an argument of compound term t that is known before a
 * scan (ground, or its variables bound), through which the term store can
 * enumerate the candidates for t; -1 when there is none. */
static int probe_position(const ast_term *t, const uint8_t *bound)
{
  if (t->kind != AST_FUN || !dl_terms_arg_indexable(t->value, t->n, 0)) return -1;
  for (uint32_t j = 0; j < t->n; j++)
    if (all_bound(t->args[j], bound)) return (int)j;
  return -1;
}

/* The share of the arguments of compound t that are known: a partly known
 * compound narrows its column's values about by that power. */
static double known_share(const ast_term *t, const uint8_t *bound)
{
  uint32_t known = 0;
  for (uint32_t j = 0; j < t->n; j++) known += all_bound(t->args[j], bound);
  return (double)known / t->n;
}

/* ---- estimates -------------------------------------------------------------------- */

/* Expected matches of a positive atom given what is bound: the relation's
 * size divided by the distinct values of each known column (skip: columns
 * left out of the scan). */
static double estimate(const pl_context *c, const ast_term *a, uint32_t pred, uint8_t source, const uint8_t *bound,
                       uint64_t skip)
{
  double size = source == SRC_DELTA ? (double)c->delta[pred].n : (double)ix_relation_size(c->rel[pred]);
  for (uint32_t i = 0; i < ast_atom_arity(a); i++) {
    const ast_term *t = atom_arg(a, i);
    double v = ix_relation_column_values(c->rel[pred], i);
    if (skip >> i & 1 || v < 1) continue;
    if (all_bound(t, bound)) size /= v;
    else if (source != SRC_DELTA && probe_position(t, bound) >= 0) size /= pow(v, known_share(t, bound));
  }
  return size;
}

/* Expected distinct combinations of the unknown columns of a projection. */
static double estimate_projection(const pl_context *c, const ast_term *a, uint32_t pred, const uint8_t *bound,
                                  uint64_t skip)
{
  double matches = estimate(c, a, pred, SRC_FULL, bound, skip), combos = 1;
  uint64_t unknown = unknown_columns(a, bound, skip);
  for (uint32_t i = 0; i < ast_atom_arity(a); i++)
    if (unknown >> i & 1) combos *= ix_relation_column_values(c->rel[pred], i);
  return combos < matches ? combos : matches;
}

/* The source of body atom k in version `delta_at` (-1: all full). */
static uint8_t source_of(const pl_context *c, const uint32_t *preds, uint32_t k, int delta_at)
{
  if (delta_at < 0 || !c->in_scc[preds[k]]) return SRC_FULL;
  if ((int)k == delta_at) return SRC_DELTA;
  return (int)k < delta_at ? SRC_OLD : SRC_FULL;
}

/* ---- choosing an order ---------------------------------------------------------------- */

/* One step of an order: a body literal; for a scan, its source and the
 * columns left out (a projection when not 0). */
typedef struct pick {
  uint32_t lit;
  uint8_t source;
  uint64_t skip;
} pick;

/* The state of an order being chosen, and its estimated cost: the partial
 * bindings each step produces, summed.  After the cut (every head variable
 * bound) a step costs one probe per candidate, as one witness is enough. */
typedef struct chooser {
  const pl_context *c;
  const dl_rule *rule;
  const uint32_t *preds;
  int delta_at;
  uint8_t *bound, *in_head, *placed, *projected;
  pick *picks;
  uint32_t n_picks;
  double rows, cost;
  int cut;
} chooser;

static void take(chooser *ch, uint32_t lit, uint8_t source, uint64_t skip, double est)
{
  pick p = { lit, source, skip };
  ch->picks[ch->n_picks++] = p;
  const dl_literal *l = &ch->rule->body[lit];
  if (l->kind != DL_POS) {
    ch->placed[lit] = 1;
    return;
  }
  if (skip) ch->projected[lit] = 1;
  else ch->placed[lit] = 1;
  for (uint32_t i = 0; i < ast_atom_arity(l->atom); i++)
    if (!(skip >> i & 1)) ast_mark_vars(atom_arg(l->atom, i), ch->bound);
  if (!ch->cut) ch->rows *= est;
  ch->cost += ch->rows;
  ch->cut = ch->cut || all_bound(ch->rule->head, ch->bound);
}

/* Places every test whose variables are bound. */
static void take_tests(chooser *ch)
{
  for (uint32_t k = 0; k < ch->rule->n_body; k++)
    if (!ch->placed[k] && lit_bound(&ch->rule->body[k], ch->bound)) take(ch, k, SRC_FULL, 0, 1);
}

/* Heads first: the cheapest scan that binds head variables only, as a
 * projection when the atom also holds existential variables.  0 when none. */
static int take_projection(chooser *ch)
{
  int best = -1;
  double best_est = 0;
  uint64_t best_skip = 0;
  for (uint32_t k = 0; k < ch->rule->n_body; k++) {
    const dl_literal *l = &ch->rule->body[k];
    if (ch->placed[k] || ch->projected[k] || l->kind != DL_POS) continue;
    uint64_t skip = existential_columns(l->atom, ch->bound, ch->in_head);
    uint8_t source = source_of(ch->c, ch->preds, k, ch->delta_at);
    double est;
    if (!skip) est = estimate(ch->c, l->atom, ch->preds[k], source, ch->bound, 0);
    else if (unknown_columns(l->atom, ch->bound, skip)) est = estimate_projection(ch->c, l->atom, ch->preds[k], ch->bound, skip);
    else continue;
    /* binding the existential columns too costs little when they add few
     * tuples (opponent(P,O) in chess), and spares a lookup per candidate */
    double full = estimate(ch->c, l->atom, ch->preds[k], SRC_FULL, ch->bound, 0);
    if (skip && full <= 1.5 * est && source != SRC_OLD) {
      skip = 0;
      est = full;
    }
    if (best < 0 || est < best_est) { best = (int)k; best_est = est; best_skip = skip; }
  }
  if (best < 0) return 0;
  uint8_t source = source_of(ch->c, ch->preds, (uint32_t)best, ch->delta_at);
  /* a projection only filters candidates; the old tuples are told apart later */
  take(ch, (uint32_t)best, best_skip && source == SRC_OLD ? SRC_FULL : source, best_skip, best_est);
  return 1;
}

/* Adds 1 to uses[v] for each occurrence of variable v in t. */
static void count_vars(const ast_term *t, uint32_t *uses)
{
  if (t->kind == AST_VAR) uses[t->value]++;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) count_vars(t->args[i], uses);
}

/* Does atom a only multiply the bindings: each of its unknown variables
 * occurs nowhere else in the rest of the body, and no bound variable is
 * read here for the last time (uses: occurrences in the unplaced literals,
 * a's own included)?  Such an atom, like coordinate(X) in chess, goes last:
 * before it, repeated bindings of variables that died can still be skipped
 * (see mark_live). */
static int only_multiplies(const ast_term *a, const uint8_t *bound, const uint8_t *in_head, const uint32_t *uses)
{
  if (a->kind != AST_FUN) return 0;
  for (uint32_t i = 0; i < a->n; i++)
    if (a->args[i]->kind == AST_FUN) return 0;
  for (uint32_t i = 0; i < a->n; i++) {
    const ast_term *t = a->args[i];
    if (t->kind != AST_VAR) continue;
    uint32_t own = 0;
    for (uint32_t j = 0; j < a->n; j++) own += a->args[j]->kind == AST_VAR && a->args[j]->value == t->value;
    int elsewhere = uses[t->value] > own;
    if (bound[t->value] ? !elsewhere && !in_head[t->value] : elsewhere) return 0;
  }
  return 1;
}

/* The cheapest full scan of an atom not placed yet, atoms that only
 * multiply the bindings last.  0 when none. */
static int take_scan(chooser *ch)
{
  const dl_rule *rule = ch->rule;
  uint32_t uses[rule->n_vars + 1];
  memset(uses, 0, sizeof uses);
  for (uint32_t k = 0; k < rule->n_body; k++) {
    const dl_literal *l = &rule->body[k];
    if (ch->placed[k]) continue;
    if (l->kind == DL_POS || l->kind == DL_NEG) count_vars(l->atom, uses);
    else count_vars(l->a, uses), count_vars(l->b, uses);
  }
  int best = -1, best_last = 0;
  double best_est = 0;
  for (uint32_t k = 0; k < rule->n_body; k++) {
    const dl_literal *l = &rule->body[k];
    if (ch->placed[k] || l->kind != DL_POS) continue;
    double est = estimate(ch->c, l->atom, ch->preds[k], source_of(ch->c, ch->preds, k, ch->delta_at), ch->bound, 0);
    int last = est >= 1 && only_multiplies(l->atom, ch->bound, ch->in_head, uses);
    if (best < 0 || last < best_last || (last == best_last && est < best_est)) {
      best = (int)k;
      best_est = est;
      best_last = last;
    }
  }
  if (best < 0) return 0;
  take(ch, (uint32_t)best, source_of(ch->c, ch->preds, (uint32_t)best, ch->delta_at), 0, best_est);
  return 1;
}

/* Chooses an order for the version of rule r with the delta at delta_at,
 * heads first or not, into picks[] (room for 2 * n_body + 1).  Returns the
 * number of picks and sets *cost. */
static uint32_t choose_order(const pl_context *c, uint32_t r, int delta_at, int heads_first, pick *picks,
                             double *cost)
{
  const dl_rule *rule = &c->prog->ast->rules[r];
  uint8_t bound[rule->n_vars + 1], in_head[rule->n_vars + 1], placed[rule->n_body + 1], projected[rule->n_body + 1];
  memset(bound, 0, sizeof bound);
  memset(in_head, 0, sizeof in_head);
  memset(placed, 0, sizeof placed);
  memset(projected, 0, sizeof projected);
  ast_mark_vars(rule->head, in_head);
  chooser ch = { c, rule, c->prog->lit_pred[r], delta_at, bound, in_head, placed, projected, picks, 0, 1, 0, 0 };
  ch.cut = all_bound(rule->head, bound);
  if (delta_at >= 0)
    take(&ch, (uint32_t)delta_at, SRC_DELTA, 0, (double)c->delta[ch.preds[delta_at]].n);
  for (;;) {
    take_tests(&ch);
    if (heads_first && !ch.cut && take_projection(&ch)) continue;
    if (!take_scan(&ch)) break;
  }
  *cost = ch.cost;
  return ch.n_picks;
}

/* Does rule r have a body variable outside the head in a positive atom? */
static int has_existentials(const dl_rule *rule)
{
  uint8_t in_head[rule->n_vars + 1], in_body[rule->n_vars + 1];
  memset(in_head, 0, sizeof in_head);
  memset(in_body, 0, sizeof in_body);
  ast_mark_vars(rule->head, in_head);
  for (uint32_t k = 0; k < rule->n_body; k++)
    if (rule->body[k].kind == DL_POS) ast_mark_vars(rule->body[k].atom, in_body);
  for (uint32_t v = 0; v < rule->n_vars; v++)
    if (in_body[v] && !in_head[v]) return 1;
  return 0;
}

/* ---- compiling --------------------------------------------------------------------- */

/* Compiles term t.  Variables in bound[] read their slot; others are bound
 * here (first occurrence) and marked.  Ground terms become constants. */
static uint32_t compile_term(pl_plan *pl, dl_terms *terms, const ast_term *t, uint8_t *bound)
{
  if (t->kind == AST_SYM) {
    dl_tid c = dl_terms_constant(terms, t->value);
    return c == DL_NO_TERM ? PL_NONE : new_pat(pl, P_CONST, c);
  }
  if (t->kind == AST_VAR) {
    uint8_t kind = bound[t->value] ? P_READ : P_BIND;
    bound[t->value] = 1;
    return new_pat(pl, kind, t->value);
  }
  uint32_t kids = new_kids(pl, t->n), ground = 1;
  if (kids == PL_NONE) return PL_NONE;
  for (uint32_t i = 0; i < t->n; i++) {
    uint32_t k = compile_term(pl, terms, t->args[i], bound);
    if (k == PL_NONE) return PL_NONE;
    pl->kids[kids + i] = k;
    ground &= pl->pats[k].kind == P_CONST;
  }
  if (ground) {
    dl_tid args[t->n];
    for (uint32_t i = 0; i < t->n; i++) args[i] = pl->pats[pl->kids[kids + i]].value;
    dl_tid id = dl_terms_make(terms, t->value, t->n, args);
    return id == DL_NO_TERM ? PL_NONE : new_pat(pl, P_CONST, id);
  }
  uint32_t p = new_pat(pl, P_FUN, t->value);
  if (p == PL_NONE) return PL_NONE;
  pl->pats[p].n = t->n;
  pl->pats[p].first = kids;
  return p;
}

/* Adds a scan of atom a (predicate pred) reading `source`, leaving out the
 * columns of skip.  Columns whose terms are known go into the index key.
 * One column with a compound pattern that is only partly known, like
 * cell(X,Y,P) with X bound, is enumerated from the term store (by all its
 * known arguments) and then also looked up by key.  With skip, the scan visits one tuple per distinct value
 * of the other columns. */
static int add_scan(const pl_context *c, pl_plan *pl, const ast_term *a, uint32_t pred, uint8_t source,
                    uint64_t skip, uint8_t *bound)
{
  uint32_t n = ast_atom_arity(a);
  uint64_t mask = 0, distinct = 0;
  int enum_col = -1;
  for (uint32_t i = 0; i < n && source != SRC_DELTA; i++) {
    if (skip >> i & 1) continue;
    if (all_bound(atom_arg(a, i), bound)) mask |= (uint64_t)1 << i;
    else if (enum_col < 0 && probe_position(atom_arg(a, i), bound) >= 0) enum_col = (int)i;
  }
  uint32_t key = new_kids(pl, n), cols = new_kids(pl, n);
  pl_step *s = new_step(pl, S_SCAN);
  if (!s || key == PL_NONE || cols == PL_NONE) return 0;
  size_t at = (size_t)(s - pl->steps);
  s->source = source;
  s->project = skip != 0;
  s->pred = pred;
  s->key = key;
  s->cols = cols;
  s->enum_col = s->enum_pat = PL_NONE;
  uint64_t known = mask;  /* the columns bound before the step */
  if (enum_col >= 0) {
    /* the known arguments (before compiling binds), those below 64 when
     * there are such: the term store indexes a combination of those */
    const ast_term *t = atom_arg(a, (uint32_t)enum_col);
    uint32_t n_args = 0, first = (uint32_t)probe_position(t, bound);
    for (uint32_t j = 0; j < t->n && j < 64; j++) n_args += all_bound(t->args[j], bound);
    uint32_t args = new_kids(pl, n_args ? n_args : 1);
    if (args == PL_NONE) return 0;
    pl->kids[args] = first;
    for (uint32_t j = 0, k = 0; j < t->n && j < 64; j++)
      if (all_bound(t->args[j], bound)) pl->kids[args + k++] = j;
    n_args = n_args ? n_args : 1;
    uint32_t p = compile_term(pl, c->terms, t, bound);
    if (p == PL_NONE) return 0;
    pl->steps[at].enum_col = (uint32_t)enum_col;
    pl->steps[at].enum_pat = p;
    pl->steps[at].enum_args = args;
    pl->steps[at].n_enum_args = n_args;
    pl->kids[key + (uint32_t)enum_col] = pl->kids[cols + (uint32_t)enum_col] = PL_NONE;
    mask |= (uint64_t)1 << enum_col;
  }
  for (uint32_t i = 0; i < n; i++) {
    if ((int)i == enum_col) continue;
    if (skip >> i & 1) {
      pl->kids[key + i] = pl->kids[cols + i] = PL_NONE;
      continue;
    }
    uint32_t p = compile_term(pl, c->terms, atom_arg(a, i), bound);
    if (p == PL_NONE) return 0;
    int in_key = known >> i & 1;
    pl->kids[key + i] = in_key ? p : PL_NONE;
    pl->kids[cols + i] = in_key ? PL_NONE : p;
    pl->steps[at].n_key += (uint32_t)in_key;
    if (!in_key) distinct |= (uint64_t)1 << i;
  }
  pl->steps[at].n_key += enum_col >= 0;
  pl->steps[at].n_distinct = (uint32_t)__builtin_popcountll(distinct);
  pl->steps[at].index = 0;
  pl->steps[at].mask = mask;
  pl->steps[at].distinct = skip ? distinct : 0;
  if (source == SRC_DELTA) return 1;
  return skip ? ix_relation_index_ordered(c->rel[pred], mask, distinct, &pl->steps[at].index)
              : ix_relation_index(c->rel[pred], mask, &pl->steps[at].index);
}

static int add_test(const pl_context *c, pl_plan *pl, const dl_literal *l, uint32_t pred, uint8_t *bound)
{
  pl_step *s = new_step(pl, l->kind == DL_NEG ? S_NEG : l->kind == DL_DISTINCT ? S_DISTINCT : S_EQUAL);
  if (!s) return 0;
  size_t at = (size_t)(s - pl->steps);
  if (l->kind != DL_NEG) {
    uint32_t a = compile_term(pl, c->terms, l->a, bound), b = compile_term(pl, c->terms, l->b, bound);
    pl->steps[at].a = a;
    pl->steps[at].b = b;
    return a != PL_NONE && b != PL_NONE;
  }
  uint32_t n = ast_atom_arity(l->atom), cols = new_kids(pl, n);
  if (cols == PL_NONE) return 0;
  pl->steps[at].pred = pred;
  pl->steps[at].cols = cols;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t p = compile_term(pl, c->terms, atom_arg(l->atom, i), bound);  /* may move pl->kids */
    if (p == PL_NONE) return 0;
    pl->kids[cols + i] = p;
  }
  return 1;
}

/* Compiles the order picks[0..n) and the head of rule r into pl. */
static int compile_order(const pl_context *c, uint32_t r, const pick *picks, uint32_t n, pl_plan *pl)
{
  const dl_rule *rule = &c->prog->ast->rules[r];
  const uint32_t *preds = c->prog->lit_pred[r];
  uint8_t bound[rule->n_vars + 1];
  memset(bound, 0, sizeof bound);
  pl->n_vars = rule->n_vars;
  pl->head_pred = c->prog->head_pred[r];
  pl->cut = all_bound(rule->head, bound) ? 0 : UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    const dl_literal *l = &rule->body[picks[i].lit];
    int ok = l->kind == DL_POS ? add_scan(c, pl, l->atom, preds[picks[i].lit], picks[i].source, picks[i].skip, bound)
                               : add_test(c, pl, l, preds[picks[i].lit], bound);
    if (!ok) return 0;
    if (pl->cut == UINT32_MAX && all_bound(rule->head, bound)) pl->cut = pl->n_steps;
  }
  uint32_t arity = ast_atom_arity(rule->head);
  if ((pl->head = new_kids(pl, arity)) == PL_NONE) return 0;
  for (uint32_t i = 0; i < arity; i++) {
    uint32_t p = compile_term(pl, c->terms, atom_arg(rule->head, i), bound);  /* may move pl->kids */
    if (p == PL_NONE) return 0;
    pl->kids[pl->head + i] = p;
  }
  return 1;
}

/* ---- live variables ---------------------------------------------------------------- */

/* Sets flags[slot] for every variable of pattern p; with only_bind, only for
 * the variables p binds. */
static void pattern_vars(const pl_plan *pl, uint32_t p, uint8_t *flags, int only_bind)
{
  if (p == PL_NONE) return;
  const pl_pat *pt = &pl->pats[p];
  if (pt->kind == P_BIND || (pt->kind == P_READ && !only_bind)) flags[pt->value] = 1;
  for (uint32_t i = 0; pt->kind == P_FUN && i < pt->n; i++) pattern_vars(pl, pl->kids[pt->first + i], flags, only_bind);
}

/* Sets flags for the variables of step s (only_bind: those it binds). */
static void step_vars(const pl_plan *pl, const pl_step *s, uint32_t arity, uint8_t *flags, int only_bind)
{
  if (s->kind == S_DISTINCT || s->kind == S_EQUAL) {
    if (!only_bind) {
      pattern_vars(pl, s->a, flags, 0);
      pattern_vars(pl, s->b, flags, 0);
    }
    return;
  }
  for (uint32_t i = 0; i < arity; i++) {
    pattern_vars(pl, pl->kids[s->cols + i], flags, only_bind);
    if (s->kind == S_SCAN && !only_bind) pattern_vars(pl, pl->kids[s->key + i], flags, 0);
  }
  if (s->kind == S_SCAN) pattern_vars(pl, s->enum_pat, flags, only_bind);
}

static uint32_t step_arity(const pl_context *c, const pl_step *s)
{
  return s->kind == S_DISTINCT || s->kind == S_EQUAL ? 0 : ix_relation_arity(c->rel[s->pred]);
}

/* The variables bound by steps 0..si that no step after si reads (live:
 * the variables read after si); their number. */
static uint32_t dead_after(const pl_context *c, const pl_plan *pl, uint32_t si, const uint8_t *live, uint8_t *bound)
{
  memset(bound, 0, pl->n_vars + 1);
  for (uint32_t k = 0; k <= si; k++) step_vars(pl, &pl->steps[k], step_arity(c, &pl->steps[k]), bound, 1);
  uint32_t n = 0;
  for (uint32_t v = 0; v < pl->n_vars; v++) n += bound[v] && !live[v];
  return n;
}

/* Gives scan si the list of the variables in both bound and wanted (none
 * when that is empty); memo as in pl_step.  0 when out of memory. */
static int set_live(pl_plan *pl, uint32_t si, const uint8_t *bound, const uint8_t *wanted, uint8_t memo)
{
  uint32_t n_live = 0;
  for (uint32_t v = 0; v < pl->n_vars; v++) n_live += bound[v] && wanted[v];
  if (!n_live) return 1;
  uint32_t at = new_kids(pl, n_live);
  if (at == PL_NONE) return 0;
  for (uint32_t v = 0, k = 0; v < pl->n_vars; v++)
    if (bound[v] && wanted[v]) pl->kids[at + k++] = v;
  pl->steps[si].n_live = n_live;
  pl->steps[si].live = at;
  pl->steps[si].memo = memo;
  return 1;
}

/* Scan si leaves a variable dead that was not dead before it (bound here or
 * read for the last time)?  Then it gets the list of the variables bound so
 * far that are read later. */
static int mark_step_live(const pl_context *c, pl_plan *pl, uint32_t si, const uint8_t *live, const uint8_t *live_before)
{
  uint8_t bound[pl->n_vars + 1];
  uint32_t dead_before = si ? dead_after(c, pl, si - 1, live_before, bound) : 0;
  if (dead_after(c, pl, si, live, bound) == dead_before) return 1;
  return set_live(pl, si, bound, live, 0);
}

/* Scan si is past the cut: it gets the list of the variables bound so far
 * that later steps read (read: the variables of the steps after si). */
static int mark_step_memo(const pl_context *c, pl_plan *pl, uint32_t si, const uint8_t *read)
{
  uint8_t bound[pl->n_vars + 1];
  dead_after(c, pl, si, read, bound);
  return set_live(pl, si, bound, read, 1);
}

/* Marks the scans that bind a variable no later step reads with the
 * variables that are read later (see plan.h).  The last step is left out:
 * the head's insertion drops repeats anyway. */
static int mark_live(const pl_context *c, pl_plan *pl)
{
  uint32_t n = pl->n_vars + 1;
  uint8_t live[n], before[n], read[n];
  memset(live, 0, n);
  memset(read, 0, n);
  for (uint32_t i = 0; i < ix_relation_arity(c->rel[pl->head_pred]); i++) pattern_vars(pl, pl->kids[pl->head + i], live, 0);
  for (uint32_t si = pl->n_steps; si-- > 0;) {
    memcpy(before, live, n);
    step_vars(pl, &pl->steps[si], step_arity(c, &pl->steps[si]), before, 0);
    int scan = pl->steps[si].kind == S_SCAN && si + 1 < pl->n_steps;
    if (scan && si >= pl->cut && !mark_step_memo(c, pl, si, read)) return 0;
    if (scan && si < pl->cut && !mark_step_live(c, pl, si, live, before)) return 0;
    step_vars(pl, &pl->steps[si], step_arity(c, &pl->steps[si]), read, 0);
    memcpy(live, before, n);
  }
  return 1;
}

/* Does pattern p read a variable bound before (anywhere inside)?  *filters
 * is set when it can reject a term (a compound pattern). */
static int reads_bound(const pl_plan *pl, uint32_t p, int *filters)
{
  if (p == PL_NONE) return 0;
  const pl_pat *pt = &pl->pats[p];
  if (pt->kind == P_READ) return 1;
  if (pt->kind != P_FUN) return 0;
  *filters = 1;
  for (uint32_t i = 0; i < pt->n; i++)
    if (reads_bound(pl, pl->kids[pt->first + i], filters)) return 1;
  return 0;
}

/* Marks the scans whose matching tuples are the same on every visit and
 * fewer than the relation's (patterns that reject tuples, or a projection):
 * see pl_step.invariant. */
static void mark_invariant(const pl_context *c, pl_plan *pl)
{
  for (uint32_t si = 1; si < pl->n_steps; si++) {
    pl_step *s = &pl->steps[si];
    if (s->kind != S_SCAN || s->source == SRC_DELTA || s->n_key || s->enum_col != PL_NONE) continue;
    int filters = 0, reads = 0;
    for (uint32_t i = 0; i < ix_relation_arity(c->rel[s->pred]); i++) reads |= reads_bound(pl, pl->kids[s->cols + i], &filters);
    s->invariant = (filters || s->project) && !reads;
  }
}

/* The one column of whole-tuple scan t whose key reads a variable that step
 * prev binds, when it is that variable alone and the others read none of
 * them: PL_NONE otherwise (see pl_step.filter). */
static uint32_t filter_column(const pl_context *c, const pl_plan *pl, const pl_step *prev, const pl_step *t)
{
  uint32_t arity = ix_relation_arity(c->rel[t->pred]), col = PL_NONE;
  uint8_t binds[pl->n_vars + 1];
  memset(binds, 0, sizeof binds);
  step_vars(pl, prev, step_arity(c, prev), binds, 1);
  for (uint32_t i = 0; i < arity; i++) {
    uint32_t p = pl->kids[t->key + i];
    uint8_t reads[pl->n_vars + 1];
    memset(reads, 0, sizeof reads);
    pattern_vars(pl, p, reads, 0);
    int reads_new = 0;
    for (uint32_t v = 0; v <= pl->n_vars; v++) reads_new |= reads[v] && binds[v];
    if (!reads_new) continue;
    if (col != PL_NONE || pl->pats[p].kind != P_READ) return PL_NONE;
    col = i;
  }
  return col;
}

/* Does t's relation have an index for its filter (see pl_step.filter)?
 * One is not built for it: the test can look tuples up without. */
static int find_filter_index(const pl_context *c, pl_step *t)
{
  return ix_relation_index_find(c->rel[t->pred], t->mask & ~((uint64_t)1 << t->filter_col), &t->filter_index);
}

/* Marks the whole-tuple tests that can read a bitmap (see pl_step.filter),
 * where their relation has the index. */
static void mark_filters(const pl_context *c, pl_plan *pl)
{
  for (uint32_t si = 1; si < pl->n_steps; si++) {
    pl_step *t = &pl->steps[si];
    uint32_t arity = ix_relation_arity(c->rel[t->pred]);
    if (t->kind != S_SCAN || t->source != SRC_FULL || t->project || t->enum_col != PL_NONE || t->n_key != arity ||
        arity < 2 || t->n_live || t->memo || pl->steps[si - 1].kind != S_SCAN)
      continue;
    t->filter_col = filter_column(c, pl, &pl->steps[si - 1], t);
    t->filter = t->filter_col != PL_NONE && find_filter_index(c, t);
  }
}

/* Marks the scans whose next step looks up a value they bind (see
 * pl_step.peek): the first key column of the next scan or test that reads
 * a variable the scan binds as a whole column. */
static void mark_peeks(const pl_context *c, pl_plan *pl)
{
  for (uint32_t si = 0; si + 1 < pl->n_steps; si++) {
    pl_step *s = &pl->steps[si];
    const pl_step *t = &pl->steps[si + 1];
    if (s->kind != S_SCAN || t->kind != S_SCAN || t->source == SRC_DELTA) continue;
    uint32_t arity = ix_relation_arity(c->rel[s->pred]), next_arity = ix_relation_arity(c->rel[t->pred]);
    for (uint32_t i = 0; !s->peek && i < next_arity; i++) {
      uint32_t kp = pl->kids[t->key + i];
      if ((int)i == (int)t->enum_col || kp == PL_NONE || pl->pats[kp].kind != P_READ) continue;
      for (uint32_t j = 0; !s->peek && j < arity; j++) {
        uint32_t cp = pl->kids[s->cols + j];
        if (cp == PL_NONE || pl->pats[cp].kind != P_BIND || pl->pats[cp].value != pl->pats[kp].value) continue;
        s->peek = 1;
        s->peek_from = j;
        s->peek_col = i;
      }
    }
  }
}

/* ---- product tail ------------------------------------------------------------------ */

/* The head column whose whole argument is variable v: PL_NONE when v is no
 * head argument, PL_NONE - 1 when it occurs twice or inside a term. */
static uint32_t head_column_of(const pl_plan *pl, uint32_t arity, uint32_t v)
{
  uint32_t col = PL_NONE;
  for (uint32_t i = 0; i < arity; i++) {
    const pl_pat *pt = &pl->pats[pl->kids[pl->head + i]];
    uint8_t in[pl->n_vars + 1];
    memset(in, 0, sizeof in);
    pattern_vars(pl, pl->kids[pl->head + i], in, 0);
    if (!in[v]) continue;
    if (col != PL_NONE || pt->kind == P_FUN) return PL_NONE - 1;
    col = i;
  }
  return col;
}

/* Does scan si bind only variables that are whole head arguments, each
 * once?  Then its columns' head columns go to kids[to_head].  Its key
 * columns (n_key may be nonzero) give none.  0 when out of memory too. */
static int gives_head_columns(const pl_context *c, pl_plan *pl, uint32_t si)
{
  const pl_step *s = &pl->steps[si];
  if (s->kind != S_SCAN || s->source != SRC_FULL || s->project || s->enum_col != PL_NONE || s->n_live || s->memo ||
      s->filter)
    return 0;
  uint32_t arity = ix_relation_arity(c->rel[s->pred]), head_arity = ix_relation_arity(c->rel[pl->head_pred]);
  uint32_t at = new_kids(pl, arity);
  if (at == PL_NONE) return 0;
  for (uint32_t i = 0; i < arity; i++) {
    uint32_t p = pl->kids[pl->steps[si].cols + i];
    if (p != PL_NONE && pl->pats[p].kind != P_BIND) return 0;
    uint32_t col = p == PL_NONE ? PL_NONE : head_column_of(pl, head_arity, pl->pats[p].value);
    if (col == PL_NONE - 1) return 0;
    pl->kids[at + i] = col;
  }
  pl->steps[si].to_head = at;
  return 1;
}

/* Can scan si be part of the product tail (see pl_plan.tail)? */
static int tail_step(const pl_context *c, pl_plan *pl, uint32_t si)
{
  return pl->steps[si].n_key == 0 && gives_head_columns(c, pl, si);
}

/* Finds the product tail (see pl_plan.tail): only past the cut's end, where
 * no witness search runs. */
static void mark_tail(const pl_context *c, pl_plan *pl)
{
  pl->tail = pl->n_steps;
  if (pl->cut < pl->n_steps || ix_relation_arity(c->rel[pl->head_pred]) == 0) return;
  while (pl->tail > 0 && pl->n_steps - pl->tail < IX_MAX_ARITY && tail_step(c, pl, pl->tail - 1)) pl->tail--;
}

/* Marks whether the last scan's tuples give heads directly (see
 * pl_plan.direct). */
static void mark_direct(const pl_context *c, pl_plan *pl)
{
  uint32_t last = pl->n_steps - 1;
  pl->direct = pl->n_steps > 0 && pl->cut == pl->n_steps && ix_relation_arity(c->rel[pl->head_pred]) > 0 &&
               (pl->tail <= last || gives_head_columns(c, pl, last));
}

/* x rounded to a power of sqrt(2), as a small number (0 for 0). */
static uint64_t size_class(uint64_t x)
{
  if (x < 2) return x;
  uint32_t b = 63 - (uint32_t)__builtin_clzll(x);
  return 2 * (uint64_t)b + (x >> (b - 1) & 1) + 1;
}

static uint64_t mix_in(uint64_t h, uint64_t v)
{
  h = (h ^ v) * 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

uint64_t pl_plan_inputs(const pl_context *c, uint32_t r, int delta_at)
{
  assert(r < c->prog->ast->n_rules && delta_at >= -1 && delta_at < (int)c->prog->ast->rules[r].n_body);
  const dl_rule *rule = &c->prog->ast->rules[r];
  const uint32_t *preds = c->prog->lit_pred[r];
  uint64_t h = mix_in(r, (uint64_t)(delta_at + 1));
  for (uint32_t k = 0; k < rule->n_body; k++) {
    if (rule->body[k].kind != DL_POS) continue;
    const ix_relation *rel = c->rel[preds[k]];
    h = mix_in(h, size_class(ix_relation_size(rel)));
    for (uint32_t i = 0; i < ix_relation_arity(rel); i++) h = mix_in(h, size_class(ix_relation_column_values(rel, i)));
  }
  return h;
}

void pl_plan_ready(const pl_context *c, const pl_plan *pl)
{
  for (uint32_t si = 0; si < pl->n_steps; si++) {
    const pl_step *s = &pl->steps[si];
    if (s->kind != S_SCAN || s->source == SRC_DELTA) continue;
    ix_relation_index_ready(c->rel[s->pred], s->index);
    if (s->filter) ix_relation_index_ready(c->rel[s->pred], s->filter_index);
  }
}

int pl_plan_reindex(const pl_context *c, pl_plan *pl)
{
  for (uint32_t si = 0; si < pl->n_steps; si++) {
    pl_step *s = &pl->steps[si];
    if (s->kind != S_SCAN || s->source == SRC_DELTA) continue;
    if (!ix_relation_index_ordered(c->rel[s->pred], s->mask, s->distinct, &s->index)) return 0;
    if (s->filter) s->filter = find_filter_index(c, s);
  }
  return 1;
}

/* The order chosen for rule r's version delta_at: picks[0] (plain) or
 * picks[1] (heads first), each of 2 * n_body + 1 slots, as pl's
 * heads_first says (its cost set too); its length. */
static uint32_t choose(const pl_context *c, uint32_t r, int delta_at, pick *picks[2], pl_plan *pl)
{
  const dl_rule *rule = &c->prog->ast->rules[r];
  double cost_plain, cost_heads = 0;
  uint32_t n_plain = choose_order(c, r, delta_at, 0, picks[0], &cost_plain), n_heads = 0;
  if (has_existentials(rule)) n_heads = choose_order(c, r, delta_at, 1, picks[1], &cost_heads);
  /* heads first must promise a clear gain: the plain order is the safer bet */
  pl->heads_first = n_heads && 2 * cost_heads < cost_plain;
  pl->cost = pl->heads_first ? cost_heads : cost_plain;
  return pl->heads_first ? n_heads : n_plain;
}

/* The two arrays of picks choose fills (NULL when out of memory). */
static pick *new_picks(const pl_context *c, uint32_t r, pick *picks[2])
{
  size_t n = 2 * (size_t)c->prog->ast->rules[r].n_body + 1;
  picks[0] = malloc(2 * n * sizeof *picks[0]);
  picks[1] = picks[0] ? picks[0] + n : NULL;
  return picks[0];
}

/* A hash of an order (see pl_plan.order). */
static uint64_t order_hash(const pick *picks, uint32_t n, int heads_first)
{
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)heads_first;
  for (uint32_t i = 0; i < n; i++)
    h = mix_in(mix_in(h, (uint64_t)picks[i].lit << 8 | picks[i].source), picks[i].skip);
  return h;
}

/* Compiles the order picks[0..n) of rule r into the empty plan pl. */
static int compile(const pl_context *c, uint32_t r, const pick *picks, uint32_t n, pl_plan *pl)
{
  pl->order = order_hash(picks, n, pl->heads_first);
  int ok = compile_order(c, r, picks, n, pl) && mark_live(c, pl);
  if (ok) mark_invariant(c, pl);
  if (ok) mark_filters(c, pl);
  if (ok) mark_peeks(c, pl);
  if (ok) mark_tail(c, pl);
  if (ok) mark_direct(c, pl);
  return ok;
}

int pl_plan_build(const pl_context *c, uint32_t r, int delta_at, pl_plan *pl)
{
  assert(r < c->prog->ast->n_rules && delta_at >= -1 && delta_at < (int)c->prog->ast->rules[r].n_body);
  assert(pl->n_steps == 0 && pl->n_pats == 0 && pl->n_kids == 0);
  return pl_plan_rebuild(c, r, delta_at, pl) != 0;  /* an empty plan is always compiled */
}

int pl_plan_rebuild(const pl_context *c, uint32_t r, int delta_at, pl_plan *pl)
{
  assert(r < c->prog->ast->n_rules && delta_at >= -1 && delta_at < (int)c->prog->ast->rules[r].n_body);
  pick *picks[2];
  if (!new_picks(c, r, picks)) return 0;
  pl_plan chosen = { 0 };
  uint32_t n = choose(c, r, delta_at, picks, &chosen);
  int ok = 2;
  if (pl->n_steps && order_hash(picks[chosen.heads_first], n, chosen.heads_first) == pl->order) {
    pl->cost = chosen.cost;
  } else {
    pl_plan_free(pl);
    pl->heads_first = chosen.heads_first;
    pl->cost = chosen.cost;
    ok = compile(c, r, picks[chosen.heads_first], n, pl);
  }
  free(picks[0]);
  return ok;
}
