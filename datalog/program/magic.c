/* magic.c: the magic-set rewriting (see magic.h).  A worklist of adorned
 * predicates: each one popped rewrites the rules of its predicate, which
 * may push the adornments its body asks for; then the predicates wanted in
 * full are copied.  The result is checked for safety (a failure is a bug
 * of the rewriting, reported) and stratified; when stratification fails
 * the negated literals of the original rules that made the negative edges
 * of the cycle found go to their next step, and the rewriting runs again. */
#include "datalog/program/magic.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/program/check.h"

struct dl_magic {
  ast_program *ast;
  dl_program *prog;
  dl_magic_stats stats;
};

typedef struct adorned {
  uint32_t pred;     /* of the original program */
  uint64_t mask;     /* bit i: argument i bound */
  dl_sym name;       /* of p@α (p's own name when mask is 0) */
  dl_sym magic;      /* of magic@p@α; DL_NO_SYM when mask is 0 */
} adorned;

typedef struct rewriter {
  const dl_program *p;
  dl_terms *terms;
  ast_program *out;
  uint8_t *step;         /* per rule of p: the negation step of its negated literals, 1..3 */
  uint32_t *origin;      /* per rule of out: the rule of p it comes from */
  uint32_t cap_origin;
  uint8_t cap;           /* the highest step this phase raises to */
  uint8_t *is_input;     /* per predicate of p */
  uint32_t *first_rule;  /* per predicate of p: its first rule, or UINT32_MAX */
  uint32_t *next_rule;   /* per rule: the next rule of its head's predicate */
  adorned *ad;
  uint32_t n_ad, cap_ad;
  dl_sym *full;          /* per predicate of p: full@p, DL_NO_SYM while not wanted */
  uint32_t *full_queue;
  uint32_t n_full;
  uint8_t *bound;        /* per variable of the rule being rewritten */
  uint32_t n_magic;
  int failed;            /* memory ran out */
} rewriter;

/* ---- names and terms ------------------------------------------------------------ */

/* The symbol "prefix name suffix" (prefix and suffix may be empty). */
static dl_sym make_name(rewriter *w, const char *prefix, uint32_t pred, const char *suffix)
{
  size_t len;
  const char *name = dl_terms_name(w->terms, w->p->preds[pred].name, &len);
  size_t lp = strlen(prefix), ls = strlen(suffix);
  char *s = malloc(lp + len + ls + 1);
  if (!s) {
    w->failed = 1;
    return DL_NO_SYM;
  }
  memcpy(s, prefix, lp);
  memcpy(s + lp, name, len);
  memcpy(s + lp + len, suffix, ls);
  dl_sym sym = dl_terms_symbol(w->terms, s, lp + len + ls);
  free(s);
  if (sym == DL_NO_SYM) w->failed = 1;
  return sym;
}

/* An atom named sym with args[0..n) (the ast terms are shared). */
static ast_term *make_atom(rewriter *w, dl_sym sym, ast_term **args, uint32_t n, uint32_t off)
{
  ast_term *a = dl_arena_alloc(w->out->arena, sizeof *a);
  ast_term **copy = n ? dl_arena_alloc(w->out->arena, n * sizeof *copy) : NULL;
  if (!a || (n && !copy)) {
    w->failed = 1;
    return NULL;
  }
  if (n) memcpy(copy, args, n * sizeof *copy);
  a->kind = n ? AST_FUN : AST_SYM;
  a->off = off;
  a->value = sym;
  a->n = n;
  a->args = copy;
  return a;
}

/* Atom a renamed sym. */
static ast_term *rename_atom(rewriter *w, const ast_term *a, dl_sym sym)
{
  return make_atom(w, sym, a->args, ast_atom_arity(a), a->off);
}

/* Atom sym with the arguments of a that mask selects. */
static ast_term *select_atom(rewriter *w, const ast_term *a, uint64_t mask, dl_sym sym)
{
  uint32_t n = 0, arity = ast_atom_arity(a);
  ast_term *args[arity ? arity : 1];
  for (uint32_t i = 0; i < arity; i++)
    if (mask >> i & 1) args[n++] = a->args[i];
  return make_atom(w, sym, args, n, a->off);
}

/* ---- bindings --------------------------------------------------------------------- */

static void bind_vars(rewriter *w, const ast_term *t)
{
  if (t->kind == AST_VAR) w->bound[t->value] = 1;
  else if (t->kind == AST_FUN)
    for (uint32_t i = 0; i < t->n; i++) bind_vars(w, t->args[i]);
}

static int all_bound(const uint8_t *bound, const ast_term *t)
{
  if (t->kind == AST_VAR) return bound[t->value];
  if (t->kind == AST_FUN)
    for (uint32_t i = 0; i < t->n; i++)
      if (!all_bound(bound, t->args[i])) return 0;
  return 1;
}

/* The arguments of atom a whose variables are all bound (bound: per
 * variable). */
static uint64_t adornment(const uint8_t *bound, const ast_term *a)
{
  uint64_t mask = 0;
  for (uint32_t i = 0; i < ast_atom_arity(a); i++)
    if (all_bound(bound, a->args[i])) mask |= (uint64_t)1 << i;
  return mask;
}

/* ---- adorned predicates --------------------------------------------------------------- */

/* The adorned predicate (pred, mask), pushed when new; UINT32_MAX when out
 * of memory. */
static uint32_t adorn(rewriter *w, uint32_t pred, uint64_t mask)
{
  for (uint32_t i = 0; i < w->n_ad; i++)
    if (w->ad[i].pred == pred && w->ad[i].mask == mask) return i;
  if (w->n_ad == w->cap_ad) {
    uint32_t cap = w->cap_ad ? 2 * w->cap_ad : 64;
    adorned *ad = realloc(w->ad, cap * sizeof *ad);
    if (!ad) {
      w->failed = 1;
      return UINT32_MAX;
    }
    w->ad = ad;
    w->cap_ad = cap;
  }
  adorned a = { pred, mask, w->p->preds[pred].name, DL_NO_SYM };
  if (mask) {
    uint32_t arity = w->p->preds[pred].arity;
    assert(arity <= 64);
    char suffix[64 + 2];
    suffix[0] = '@';
    for (uint32_t i = 0; i < arity; i++) suffix[1 + i] = (mask >> i & 1) ? 'b' : 'f';
    suffix[1 + arity] = '\0';
    a.name = make_name(w, "", pred, suffix);
    a.magic = make_name(w, "magic@", pred, suffix);
    w->n_magic++;
  }
  if (w->failed) return UINT32_MAX;
  w->ad[w->n_ad] = a;
  return w->n_ad++;
}

/* full@pred, queued when new. */
static dl_sym want_full(rewriter *w, uint32_t pred)
{
  if (w->full[pred] == DL_NO_SYM) {
    w->full[pred] = make_name(w, "full@", pred, "");
    w->full_queue[w->n_full++] = pred;
  }
  return w->full[pred];
}

/* ---- rules ------------------------------------------------------------------------------ */

static void add_rule(rewriter *w, const dl_rule *r, ast_term *head, const dl_literal *body, uint32_t n)
{
  if (w->failed || !head) return;
  dl_literal *copy = n ? dl_arena_alloc(w->out->arena, n * sizeof *copy) : NULL;
  if (n && !copy) {
    w->failed = 1;
    return;
  }
  if (n) memcpy(copy, body, n * sizeof *copy);
  if (w->out->n_rules == w->cap_origin) {
    uint32_t cap = w->cap_origin ? 2 * w->cap_origin : 256;
    uint32_t *o = realloc(w->origin, cap * sizeof *o);
    if (!o) {
      w->failed = 1;
      return;
    }
    w->origin = o;
    w->cap_origin = cap;
  }
  w->origin[w->out->n_rules] = (uint32_t)(r - w->p->ast->rules);
  dl_rule nr = *r;
  nr.head = head;
  nr.body = copy;
  nr.n_body = n;
  if (!ast_program_add_rule(w->out, &nr)) w->failed = 1;
}

/* The magic rule of the call of atom a (as adorned predicate ai) in rule r:
 * magic@q@β(bound args) :- the positive literals of body[0..n). */
static void add_magic_rule(rewriter *w, const dl_rule *r, const ast_term *a, uint32_t ai, const dl_literal *body,
                           uint32_t n)
{
  dl_literal pos[n ? n : 1];
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (body[i].kind == DL_POS) pos[k++] = body[i];
  add_rule(w, r, select_atom(w, a, w->ad[ai].mask, w->ad[ai].magic), pos, k);
}

static dl_literal literal_of(uint8_t kind, ast_term *atom, uint32_t off)
{
  dl_literal l = { 0 };
  l.kind = kind;
  l.atom = atom;
  l.off = off;
  return l;
}

static int is_input_literal(const rewriter *w, uint32_t r, uint32_t i)
{
  uint32_t q = w->p->lit_pred[r][i];
  return q != DL_NO_PRED && w->is_input[q];
}

/* Rewrites negated literal body[i] of rule r (not an input) into out[*k]
 * for the step of rule r; n_input: the literals of out that step 2 seeds
 * from (the head's magic and the inputs); in_bound: the variables those
 * bind. */
static void rewrite_negation(rewriter *w, uint32_t r, uint32_t i, dl_literal *out, uint32_t *k, uint32_t n_input,
                             const uint8_t *in_bound)
{
  const dl_rule *rule = &w->p->ast->rules[r];
  const ast_term *a = rule->body[i].atom;
  uint32_t q = w->p->lit_pred[r][i];
  dl_sym name;
  if (w->step[r] == 3) {
    name = want_full(w, q);
  } else {
    uint64_t mask = adornment(w->step[r] == 1 ? w->bound : in_bound, a);
    uint32_t seeds = w->step[r] == 1 ? *k : n_input;
    uint32_t ai = adorn(w, q, mask);
    if (ai == UINT32_MAX) return;
    if (mask) add_magic_rule(w, rule, a, ai, out, seeds);
    name = w->ad[ai].name;
  }
  out[(*k)++] = literal_of(DL_NEG, rename_atom(w, a, name), rule->body[i].off);
}

/* Rewrites rule r for adorned predicate ai. */
static void rewrite_rule(rewriter *w, uint32_t ai, uint32_t r)
{
  const dl_rule *rule = &w->p->ast->rules[r];
  adorned ad = w->ad[ai];
  memset(w->bound, 0, rule->n_vars);
  dl_literal out[rule->n_body + 1];
  uint32_t k = 0;
  const ast_term *head = rule->head;
  if (ad.mask) {
    for (uint32_t i = 0; i < ast_atom_arity(head); i++)
      if (ad.mask >> i & 1) bind_vars(w, head->args[i]);
    out[k++] = literal_of(DL_POS, select_atom(w, head, ad.mask, ad.magic), head->off);
  }
  for (uint32_t i = 0; i < rule->n_body; i++)
    if (rule->body[i].kind == DL_POS && is_input_literal(w, r, i)) {
      out[k++] = rule->body[i];
      bind_vars(w, rule->body[i].atom);
    }
  uint32_t n_input = k;
  uint8_t in_bound[rule->n_vars ? rule->n_vars : 1];
  memcpy(in_bound, w->bound, rule->n_vars);
  for (uint32_t i = 0; i < rule->n_body && !w->failed; i++) {
    const dl_literal *l = &rule->body[i];
    if (l->kind != DL_POS || is_input_literal(w, r, i)) continue;
    uint32_t q = w->p->lit_pred[r][i];
    uint32_t qi = adorn(w, q, adornment(w->bound, l->atom));
    if (qi == UINT32_MAX) return;
    if (w->ad[qi].mask) add_magic_rule(w, rule, l->atom, qi, out, k);
    out[k++] = literal_of(DL_POS, rename_atom(w, l->atom, w->ad[qi].name), l->off);
    bind_vars(w, l->atom);
  }
  for (uint32_t i = 0; i < rule->n_body && !w->failed; i++) {
    const dl_literal *l = &rule->body[i];
    if (l->kind == DL_DISTINCT || l->kind == DL_EQUAL || (l->kind == DL_NEG && is_input_literal(w, r, i)))
      out[k++] = *l;
    else if (l->kind == DL_NEG)
      rewrite_negation(w, r, i, out, &k, n_input, in_bound);
  }
  add_rule(w, rule, rename_atom(w, head, ad.name), out, k);
}

/* Copies rule r as a rule of full@ its head, its non-input literals
 * renamed full@ too. */
static void copy_full(rewriter *w, uint32_t r)
{
  const dl_rule *rule = &w->p->ast->rules[r];
  dl_literal out[rule->n_body ? rule->n_body : 1];
  for (uint32_t i = 0; i < rule->n_body && !w->failed; i++) {
    out[i] = rule->body[i];
    uint32_t q = w->p->lit_pred[r][i];
    if ((out[i].kind == DL_POS || out[i].kind == DL_NEG) && !w->is_input[q])
      out[i].atom = rename_atom(w, out[i].atom, want_full(w, q));
  }
  add_rule(w, rule, rename_atom(w, rule->head, want_full(w, w->p->head_pred[r])), out, rule->n_body);
}

/* ---- the whole program ------------------------------------------------------------------ */

static int prepare(rewriter *w)
{
  const dl_program *p = w->p;
  uint32_t n_rules = p->ast->n_rules;
  w->is_input = calloc(p->n_preds + 1, 1);
  w->first_rule = malloc((p->n_preds + 1) * sizeof *w->first_rule);
  w->next_rule = malloc((n_rules + 1) * sizeof *w->next_rule);
  w->full = malloc((p->n_preds + 1) * sizeof *w->full);
  w->full_queue = malloc((p->n_preds + 1) * sizeof *w->full_queue);
  uint32_t max_vars = 1;
  for (uint32_t r = 0; r < n_rules; r++)
    if (p->ast->rules[r].n_vars > max_vars) max_vars = p->ast->rules[r].n_vars;
  w->bound = malloc(max_vars);
  if (!w->is_input || !w->first_rule || !w->next_rule || !w->full || !w->full_queue || !w->bound) return 0;
  for (uint32_t q = 0; q < p->n_preds; q++) {
    w->is_input[q] = 1;
    w->first_rule[q] = UINT32_MAX;
    w->full[q] = DL_NO_SYM;
  }
  for (uint32_t r = n_rules; r-- > 0;) {
    uint32_t h = p->head_pred[r];
    w->next_rule[r] = w->first_rule[h];
    w->first_rule[h] = r;
    if (p->ast->rules[r].n_body > 0) w->is_input[h] = 0;
  }
  return 1;
}

static void release(rewriter *w)
{
  free(w->is_input);
  free(w->first_rule);
  free(w->next_rule);
  free(w->full);
  free(w->full_queue);
  free(w->bound);
  free(w->origin);
  free(w->ad);
}

/* Fills w->out for the queries at the steps of w->step; 0 when memory ran out. */
static int rewrite(rewriter *w, const uint32_t *queries, uint32_t n)
{
  const dl_program *p = w->p;
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    if (w->is_input[p->head_pred[r]]) {
      const dl_rule *rule = &p->ast->rules[r];
      add_rule(w, rule, rule->head, rule->body, rule->n_body);
    }
  for (uint32_t i = 0; i < n; i++)
    if (!w->is_input[queries[i]]) adorn(w, queries[i], 0);
  for (uint32_t ai = 0; ai < w->n_ad && !w->failed; ai++)
    for (uint32_t r = w->first_rule[w->ad[ai].pred]; r != UINT32_MAX && !w->failed; r = w->next_rule[r])
      rewrite_rule(w, ai, r);
  for (uint32_t i = 0; i < w->n_full && !w->failed; i++)
    for (uint32_t r = w->first_rule[w->full_queue[i]]; r != UINT32_MAX && !w->failed; r = w->next_rule[r])
      copy_full(w, r);
  return !w->failed;
}

/* Raises the step of the rules of p whose rewritten rules made the
 * negative edges of cycle c, up to w->cap; 0 when none could go higher. */
static int raise_steps(rewriter *w, const st_cycle *c)
{
  int raised = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    if (!c->edges[i].negative) continue;
    uint32_t r = w->origin[c->edges[i].label];
    if (w->step[r] < w->cap) {
      w->step[r]++;
      raised = 1;
    }
  }
  return raised;
}

/* The program of w->out, stratified; NULL when it is not (*cycle 1 when
 * some step was raised for the next attempt, -1 when none could be) or
 * after reporting to scratch. */
static dl_program *build(rewriter *w, dl_diag *scratch, int *cycle)
{
  *cycle = 0;
  dl_program *prog = dl_program_create(w->out, w->terms, scratch);
  if (!prog) return NULL;
  st_cycle c = { 0 };
  int ok = dl_check_safety(prog, scratch) == 0 && dl_program_stratify(prog, &c, scratch);
  *cycle = !ok && c.n > 0 ? (raise_steps(w, &c) ? 1 : -1) : 0;
  st_cycle_free(&c);
  if (ok) return prog;
  dl_program_destroy(prog);
  return NULL;
}

/* One rewriting at the negation steps step[] (per rule of p) into *m; 1,
 * or 0 with *cycle 1 when not stratified and step[] was raised (up to cap)
 * for the next attempt, -1 when not stratified and it could not be, or 0
 * after reporting. */
static int attempt(const dl_program *p, const uint32_t *queries, uint32_t n, uint8_t *step, uint8_t cap, dl_magic *m,
                   int *cycle, dl_diag *diag)
{
  rewriter w = { 0 };
  *cycle = 0;  /* a failure other than a cycle ends the attempts */
  w.p = p;
  w.terms = p->terms;
  w.step = step;
  w.cap = cap;
  w.out = ast_program_create();
  int ok = w.out && prepare(&w) && rewrite(&w, queries, n);
  dl_diag *scratch = ok ? dl_diag_create() : NULL;
  dl_program *prog = scratch ? build(&w, scratch, cycle) : NULL;
  if (!prog && scratch && !*cycle && dl_diag_errors(scratch) > 0 && dl_diag_last_cause(scratch) != DL_CAUSE_NOMEM)
    dl_diag_report(diag, DL_ERROR, NULL, 0, "the magic-set rewriting made a wrong program: %s",
                   dl_diag_message(scratch, 0)->text);
  else if (!prog && !*cycle)
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in the magic-set rewriting");
  dl_diag_destroy(scratch);
  if (prog) {
    m->ast = w.out;
    m->prog = prog;
    uint32_t highest = 1;
    for (uint32_t r = 0; r < p->ast->n_rules; r++)
      if (step[r] > highest) highest = step[r];
    m->stats = (dl_magic_stats){ w.n_ad, w.n_magic, w.n_full, w.out->n_rules, highest };
  } else {
    ast_program_destroy(w.out);
  }
  release(&w);
  return prog != NULL;
}

dl_magic *dl_magic_create(const dl_program *p, const uint32_t *queries, uint32_t n, dl_diag *diag)
{
  assert(p && p->strata && (queries || n == 0) && diag);
  for (uint32_t i = 0; i < n; i++) assert(queries[i] < p->n_preds);
  for (uint32_t q = 0; q < p->n_preds; q++)
    if (p->preds[q].arity > 64) {
      dl_diag_report(diag, DL_ERROR, p->preds[q].src, p->preds[q].off,
                     "'%s' has %u arguments: the magic-set rewriting takes at most 64", dl_program_pred_name(p, q),
                     p->preds[q].arity);
      return NULL;
    }
  dl_magic *m = calloc(1, sizeof *m);
  if (!m) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in the magic-set rewriting");
    return NULL;
  }
  /* two phases: every rule from step 1, raised to 2 at most; then every
   * rule from step 2, raised to 3 (3 everywhere always stratifies) */
  uint8_t *step = malloc(p->ast->n_rules + 1);
  int cycle = -1;
  if (!step) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in the magic-set rewriting");
  for (uint8_t phase = 1; step && phase <= 2 && cycle == -1; phase++) {
    memset(step, phase, p->ast->n_rules + 1);
    cycle = 1;
    while (cycle == 1)
      if (attempt(p, queries, n, step, (uint8_t)(phase + 1), m, &cycle, diag)) {
        free(step);
        return m;
      }
  }
  if (step && cycle == -1)
    dl_diag_report(diag, DL_ERROR, NULL, 0, "the magic-set rewriting is not stratified, even computing negated "
                                            "predicates in full");
  free(step);
  free(m);
  return NULL;
}

void dl_magic_destroy(dl_magic *m)
{
  if (!m) return;
  dl_program_destroy(m->prog);
  ast_program_destroy(m->ast);
  free(m);
}

const dl_program *dl_magic_program(const dl_magic *m)
{
  assert(m);
  return m->prog;
}

dl_magic_stats dl_magic_get_stats(const dl_magic *m)
{
  assert(m);
  return m->stats;
}
