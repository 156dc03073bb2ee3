/* reduce.c: the G+ reduction (see reduce.h).  G+ is built as a new rule set
 * that shares the game's syntax trees: each rule is copied with its negative
 * literals left out, and marked trusted because G+ breaks GDL's keyword
 * rules on purpose (true and does get rules).
 *
 * A rule whose body falls into parts that share no variable, as hex's
 *   next(connected(K,M,N)) :- transfer(E) & true(connected(E,M,N)) & true(step(K))
 * derives the product of its parts' projections onto the head.  Evaluated
 * as it stands, each new step K joins transfer and connected again: 544,401
 * derivations for 6,642 atoms.  So each part with a variable outside the
 * head becomes an auxiliary predicate of its head variables (hidden: not a
 * game predicate), here aux(M,N) :- transfer(E) & true(connected(E,M,N)),
 * and the rule reads aux(M,N) & true(step(K)).  The game predicates' sets
 * stay the same: the rule's instances are the same product.  A rule with
 * no parts apart may have parts joined only by head variables, as a frame
 * rule (see parts_to_factor): the same is done for those. */
#include "datalog/gdl/reduce.h"
#include "datalog/base/clock.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/read/normalize.h"
#include "datalog/read/parse.h"

struct dl_reduction {
  const dl_program *game;
  const dl_domains *domains;
  dl_terms *terms;
  dl_source extra;        /* the text of the rules gdlog adds */
  ast_program *ast;       /* G+ of the last run */
  dl_program *prog;
  dl_eval *eval;
  dl_sym *aux;            /* the auxiliary predicates of the last run (gplus_N) */
  uint32_t n_aux, cap_aux;
  uint8_t *aux_pred;      /* per predicate of prog: 1 for an auxiliary one */
  ix_relation **empty;    /* per game predicate missing from G+: an empty relation */
  uint32_t *gplus;        /* per game predicate: its predicate in prog, or DL_NO_PRED */
  uint64_t *counts;       /* per run, per game predicate */
  uint32_t n_runs;
  double seconds;
};

static const char lfp_rules[] =
  "true(X) :- init(X).\n"
  "true(X) :- next(X).\n"
  "does(R,A) :- legal(R,A).\n";


/* ---- independent parts of a body --------------------------------------------- */

static uint32_t find_root(uint32_t *parent, uint32_t k)
{
  while (parent[k] != k) k = parent[k] = parent[parent[k]];
  return k;
}

/* The parts of a rule's body: literals joined by shared variables. */
typedef struct parts {
  uint32_t *root;        /* per literal, a literal of its part (the same for all) */
  uint8_t *in_head;      /* per variable: it occurs in the head */
  uint8_t *mark;         /* per variable: scratch */
} parts;

/* Fills p->root for rule r: union-find over shared variables, those of the
 * head left out when heads_apart. */
static void find_parts(const dl_rule *r, parts *p, uint32_t *first, int heads_apart)
{
  for (uint32_t v = 0; v < r->n_vars; v++) first[v] = UINT32_MAX;
  for (uint32_t k = 0; k < r->n_body; k++) {
    p->root[k] = k;
    memset(p->mark, 0, r->n_vars + 1);
    ast_literal_mark_vars(&r->body[k], p->mark);
    for (uint32_t v = 0; v < r->n_vars; v++) {
      if (!p->mark[v] || (heads_apart && p->in_head[v])) continue;
      if (first[v] == UINT32_MAX) first[v] = k;
      else p->root[find_root(p->root, k)] = find_root(p->root, first[v]);
    }
  }
  for (uint32_t k = 0; k < r->n_body; k++) p->root[k] = find_root(p->root, k);
}

/* Whether part `root` of rule r has a variable outside the head; p->mark
 * then holds the part's variables.  Its own rule is safe: each of its
 * variables occurs in a positive atom of the rule, which shares it, so is
 * in the part. */
static int part_factorable(const dl_rule *r, const parts *p, uint32_t root)
{
  memset(p->mark, 0, r->n_vars + 1);
  for (uint32_t k = 0; k < r->n_body; k++)
    if (p->root[k] == root) ast_literal_mark_vars(&r->body[k], p->mark);
  for (uint32_t v = 0; v < r->n_vars; v++)
    if (p->mark[v] && !p->in_head[v]) return 1;
  return 0;
}

/* A fresh name for an auxiliary predicate, kept in r->aux: gplus_N, with
 * underscores in front while the game has a predicate of that name. */
static dl_sym aux_symbol(dl_reduction *r)
{
  if (r->n_aux == r->cap_aux) {
    uint32_t cap = r->cap_aux ? 2 * r->cap_aux : 16;
    dl_sym *a = realloc(r->aux, cap * sizeof *a);
    if (!a) return DL_NO_SYM;
    r->aux = a;
    r->cap_aux = cap;
  }
  dl_sym s = dl_program_fresh_symbol(r->game, "gplus", r->n_aux);
  if (s != DL_NO_SYM) r->aux[r->n_aux++] = s;
  return s;
}

/* The atom sym(V...) over the part's variables in p->mark that are in the
 * head, at offset off. */
static ast_term *aux_atom(dl_arena *a, dl_sym sym, const dl_rule *r, const parts *p, uint32_t off)
{
  uint32_t n = 0;
  for (uint32_t v = 0; v < r->n_vars; v++) n += p->mark[v] && p->in_head[v];
  ast_term *x = dl_arena_alloc(a, sizeof *x);
  ast_term **args = n ? dl_arena_alloc(a, n * sizeof *args) : NULL;
  if (!x || (n && !args)) return NULL;
  *x = (ast_term){ n ? AST_FUN : AST_SYM, off, sym, n, args };
  n = 0;
  for (uint32_t v = 0; v < r->n_vars; v++) {
    if (!p->mark[v] || !p->in_head[v]) continue;
    if (!(args[n] = dl_arena_alloc(a, sizeof *args[n]))) return NULL;
    *args[n++] = (ast_term){ AST_VAR, off, v, 0, NULL };
  }
  return x;
}

/* Whether body literal k of rule is the first positive atom of its part,
 * one with variables. */
static int first_atom_of_part(const dl_rule *rule, const uint32_t *root, uint32_t k)
{
  uint8_t mark[rule->n_vars + 1];
  memset(mark, 0, rule->n_vars + 1);
  if (rule->body[k].kind != DL_POS) return 0;
  ast_mark_vars(rule->body[k].atom, mark);
  if (!memchr(mark, 1, rule->n_vars)) return 0;
  for (uint32_t i = 0; i < k; i++)
    if (root[i] == root[k] && rule->body[i].kind == DL_POS) return 0;
  return 1;
}

/* Makes the auxiliary predicate of part `root` of rule: its atom into
 * *atom, its rule (the part's literals) added to ast.  p->mark holds the
 * part's variables (part_factorable). */
static int factor_part(dl_reduction *red, ast_program *ast, const dl_rule *rule, const parts *p, uint32_t root,
                       ast_term **atom)
{
  dl_sym sym = aux_symbol(red);
  dl_rule aux = *rule;
  aux.head = *atom = sym == DL_NO_SYM ? NULL : aux_atom(ast->arena, sym, rule, p, rule->body[root].off);
  aux.body = dl_arena_alloc(ast->arena, rule->n_body * sizeof *aux.body);
  if (!aux.head || !aux.body) return 0;
  aux.n_body = 0;
  for (uint32_t k = 0; k < rule->n_body; k++)
    if (p->root[k] == root) aux.body[aux.n_body++] = rule->body[k];
  return ast_program_add_rule(ast, &aux);
}

/* Whether every variable of part `root` of rule r that is in the head also
 * occurs in a positive atom of the part: its own rule is then safe. */
static int part_safe(const dl_rule *r, const parts *p, uint32_t root)
{
  uint8_t bound[r->n_vars + 1];
  memset(bound, 0, r->n_vars + 1);
  for (uint32_t k = 0; k < r->n_body; k++)
    if (p->root[k] == root && r->body[k].kind == DL_POS) ast_mark_vars(r->body[k].atom, bound);
  memset(p->mark, 0, r->n_vars + 1);
  for (uint32_t k = 0; k < r->n_body; k++)
    if (p->root[k] == root) ast_literal_mark_vars(&r->body[k], p->mark);
  for (uint32_t v = 0; v < r->n_vars; v++)
    if (p->mark[v] && !bound[v]) return 0;
  return 1;
}

/* Which parts to factor, by the parts of the body joined by any shared
 * variable (see the top of the file): two or more with a positive atom.
 * Else by the parts joined by variables outside the head, as a frame rule
 *   next(cell(X,Y,P)) :- true(cell(X,Y,P)) & does(R,move(X1,Y1,X2,Y2))
 *                        & different(X,Y,X1,Y1) & different(X,Y,X2,Y2)
 * is: two or more parts with a dynamic literal (dyn[k], of a predicate
 * that depends on true or does).  Each part then with a variable outside
 * the head, and safe on its own, is factored: here aux(X,Y) :- does(..)
 * & different(..) & different(..), derived once per cell, not once per
 * cell and piece.  Returns 1 with root[] filled and want[root] set for the
 * parts to factor, 0 when there are none. */
static int parts_to_factor(const dl_rule *rule, parts *p, uint32_t *first, const uint8_t *dyn, uint8_t *want)
{
  uint32_t nb = rule->n_body, with_atom = 0, with_dyn = 0;
  memset(want, 0, nb);
  find_parts(rule, p, first, 0);
  for (uint32_t k = 0; k < nb; k++) with_atom += first_atom_of_part(rule, p->root, k);
  int heads_apart = with_atom < 2;
  if (heads_apart) {
    find_parts(rule, p, first, 1);
    uint8_t part_dyn[nb];
    memset(part_dyn, 0, nb);
    for (uint32_t k = 0; k < nb; k++) part_dyn[p->root[k]] |= dyn[k];
    for (uint32_t k = 0; k < nb; k++) with_dyn += p->root[k] == k && part_dyn[k];
    if (with_dyn < 2) return 0;
    for (uint32_t k = 0; k < nb; k++) want[k] = p->root[k] == k && part_dyn[k];
  } else {
    for (uint32_t k = 0; k < nb; k++) want[k] = p->root[k] == k;
  }
  int any = 0;
  for (uint32_t k = 0; k < nb; k++) {
    want[k] = want[k] && part_factorable(rule, p, k) && (!heads_apart || part_safe(rule, p, k));
    any |= want[k];
  }
  return any;
}

/* Factors the parts of rule (its body is its own copy) that
 * parts_to_factor picks: each such part's literals give way to its
 * auxiliary atom, where its first literal stood.  dyn[k]: body literal k
 * is dynamic. */
static int factor_parts(dl_reduction *red, ast_program *ast, dl_rule *rule, const uint8_t *dyn)
{
  uint32_t nb = rule->n_body, nv = rule->n_vars;
  if (nb < 2 || nv == 0) return 1;
  uint32_t root[nb], first[nv];
  uint8_t in_head[nv + 1], mark[nv + 1], want[nb];
  parts p = { root, in_head, mark };
  memset(in_head, 0, nv + 1);
  ast_mark_vars(rule->head, in_head);
  if (!parts_to_factor(rule, &p, first, dyn, want)) return 1;
  ast_term *atom[nb];
  for (uint32_t k = 0; k < nb; k++) {
    atom[k] = NULL;
    if (!want[k]) continue;
    part_factorable(rule, &p, k);  /* p.mark: the part's variables */
    if (!factor_part(red, ast, rule, &p, k, &atom[k])) return 0;
  }
  uint32_t kept = 0;
  uint8_t placed[nb];
  memset(placed, 0, nb);
  for (uint32_t k = 0; k < nb; k++) {
    uint32_t r = root[k];
    if (!atom[r]) rule->body[kept++] = rule->body[k];
    else if (!placed[r]) {
      placed[r] = 1;
      rule->body[kept++] = (dl_literal){ DL_POS, rule->body[k].off, atom[r], NULL, NULL };
    }
  }
  rule->n_body = kept;
  return 1;
}

/* ---- building G+ ------------------------------------------------------------- */

/* Per predicate of game: 1 when it is true or does, or depends on them.
 * NULL when out of memory. */
static uint8_t *dynamic_preds(const dl_program *game)
{
  uint8_t *dyn = calloc(game->n_preds + 1, 1);
  if (!dyn) return NULL;
  dl_sym t = dl_terms_symbol(game->terms, "true", 4), d = dl_terms_symbol(game->terms, "does", 4);
  for (uint32_t i = 0; i < game->n_preds; i++)
    dyn[i] = (game->preds[i].name == t && game->preds[i].arity == 1) ||
             (game->preds[i].name == d && game->preds[i].arity == 2);
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t r = 0; r < game->ast->n_rules; r++) {
      uint32_t h = game->head_pred[r];
      for (uint32_t k = 0; !dyn[h] && k < game->ast->rules[r].n_body; k++) {
        uint32_t q = game->lit_pred[r][k];
        if (q != DL_NO_PRED && dyn[q]) dyn[h] = 1, changed = 1;
      }
    }
  }
  return dyn;
}

/* Appends the game's rules without their negative literals, each with its
 * parts factored (factor: 0 to leave them; see factor_parts). */
static int add_positive_rules(dl_reduction *red, ast_program *ast, const dl_program *game, int factor)
{
  uint8_t *dyn_pred = factor ? dynamic_preds(game) : NULL;
  if (factor && !dyn_pred) return 0;
  int ok = 1;
  for (uint32_t i = 0; ok && i < game->ast->n_rules; i++) {
    dl_rule r = game->ast->rules[i];
    dl_literal *body = dl_arena_alloc(ast->arena, (r.n_body + 1) * sizeof *body);
    uint8_t dyn[r.n_body + 1];
    if (!(ok = body != NULL)) break;
    uint32_t n = 0;
    for (uint32_t k = 0; k < r.n_body; k++) {
      if (r.body[k].kind == DL_NEG) continue;
      uint32_t q = game->lit_pred[i][k];
      dyn[n] = factor && q != DL_NO_PRED && dyn_pred[q];
      body[n++] = r.body[k];
    }
    r.body = body;
    r.n_body = n;
    r.trusted = 1;
    ok = (!factor || factor_parts(red, ast, &r, dyn)) && ast_program_add_rule(ast, &r);
  }
  free(dyn_pred);
  return ok;
}

/* The syntax tree of ground term t. */
static ast_term *term_ast(dl_arena *a, const dl_terms *terms, dl_tid t)
{
  uint32_t n = dl_terms_arity(terms, t);
  ast_term *x = dl_arena_alloc(a, sizeof *x);
  ast_term **args = n ? dl_arena_alloc(a, n * sizeof *args) : NULL;
  if (!x || (n && !args)) return NULL;
  *x = (ast_term){ n ? AST_FUN : AST_SYM, 0, dl_terms_functor(terms, t), n, args };
  const dl_tid *sub = dl_terms_args(terms, t);
  for (uint32_t i = 0; i < n; i++)
    if (!(args[i] = term_ast(a, terms, sub[i]))) return NULL;
  return x;
}

/* Appends the fact pred(args[0..n)). */
static int add_fact(dl_reduction *r, dl_sym pred, uint32_t n, const dl_tid *args)
{
  dl_arena *a = r->ast->arena;
  ast_term *h = dl_arena_alloc(a, sizeof *h);
  ast_term **v = dl_arena_alloc(a, (n + 1) * sizeof *v);
  if (!h || !v) return 0;
  *h = (ast_term){ AST_FUN, 0, pred, n, v };
  for (uint32_t i = 0; i < n; i++)
    if (!(v[i] = term_ast(a, r->terms, args[i]))) return 0;
  dl_rule rule = { h, NULL, 0, 0, NULL, &r->extra, 0, 1 };
  return ast_program_add_rule(r->ast, &rule);
}

/* Parses the added rules of the LFP mode into r->ast. */
static int add_lfp_rules(dl_reduction *r, dl_diag *diag)
{
  uint32_t first = r->ast->n_clauses;
  if (!dl_parse(r->ast, r->terms, &r->extra, LX_INFIX, diag)) return 0;
  for (uint32_t i = first; i < r->ast->n_clauses; i++) r->ast->clauses[i]->trusted = 1;
  return dl_normalize(r->ast, first, diag);
}

static void drop_run(dl_reduction *r)
{
  dl_eval_destroy(r->eval);
  dl_program_destroy(r->prog);
  ast_program_destroy(r->ast);
  free(r->aux_pred);
  r->eval = NULL;
  r->prog = NULL;
  r->ast = NULL;
  r->aux_pred = NULL;
}

/* Fills r->aux_pred for the program just built. */
static int mark_aux_preds(dl_reduction *r)
{
  if (!(r->aux_pred = calloc(r->prog->n_preds + 1, 1))) return 0;
  for (uint32_t i = 0; i < r->n_aux; i++) {
    uint32_t q = dl_program_pred(r->prog, r->aux[i]);
    if (q != DL_NO_PRED) r->aux_pred[q] = 1;
  }
  return 1;
}

static dl_sym sym(const dl_reduction *r, const char *z) { return dl_terms_symbol(r->terms, z, strlen(z)); }

/* A list of true facts (n = 1) or does facts (n = 2). */
typedef struct facts { dl_tid *a; size_t n; } facts;

/* Builds G+ (with the facts T and D, or the LFP rules) and evaluates it. */
/* Tells each relation of a game predicate how many values its columns'
 * domains have: G+ fills them up to about that, round after round, and
 * their keys then need not be laid out again each time the values outgrow
 * them (othello's piece counts, 65 values each, grow one per round). */
static void expect_domains(dl_reduction *r)
{
  uint64_t values[IX_MAX_ARITY];
  for (uint32_t q = 0; q < r->prog->n_preds; q++) {
    const dl_pred *gp = &r->prog->preds[q];
    uint32_t p = dl_program_pred(r->game, gp->name);
    if (p == DL_NO_PRED || r->game->preds[p].arity != gp->arity || gp->arity == 0) continue;
    for (uint32_t c = 0; c < gp->arity; c++) {
      double n = dl_domains_arg_count(r->domains, p, c);
      values[c] = n >= 1 && n < 1e18 ? (uint64_t)n : 0;
    }
    dl_eval_expect(r->eval, q, values);
  }
}

static int run(dl_reduction *r, const facts *t, const facts *dz, const dl_reduce_options *o, dl_diag *diag)
{
  double t0 = dl_clock_now();
  drop_run(r);
  r->n_aux = 0;
  if (!(r->ast = ast_program_create()) || !add_positive_rules(r, r->ast, r->game, !o->build_only)) return 0;
  if (!t && !add_lfp_rules(r, diag)) return 0;
  for (size_t i = 0; t && i < t->n; i++)
    if (!add_fact(r, sym(r, "true"), 1, &t->a[i])) return 0;
  for (size_t i = 0; dz && i < dz->n; i++)
    if (!add_fact(r, sym(r, "does"), 2, &dz->a[2 * i])) return 0;
  if (!(r->prog = dl_program_build(r->ast, r->terms, diag)) || !mark_aux_preds(r)) return 0;
  if (o->build_only) return 1;
  dl_eval_options eo = { o->max_atoms, o->stop };
  if (!(r->eval = dl_eval_create(r->prog, &eo, diag))) return 0;
  expect_domains(r);
  if (!dl_eval_run(r->eval)) return 0;
  r->seconds += dl_clock_now() - t0;
  return 1;
}

/* ---- counts and lookups --------------------------------------------------------- */

/* The G+ predicate of game predicate pred, or DL_NO_PRED. */
static uint32_t gplus_pred(const dl_reduction *r, uint32_t pred)
{
  const dl_pred *g = &r->game->preds[pred];
  uint32_t q = dl_program_pred(r->prog, g->name);
  return q != DL_NO_PRED && r->prog->preds[q].arity == g->arity ? q : DL_NO_PRED;
}

static const ix_relation *named_relation(const dl_reduction *r, const char *name, uint32_t arity)
{
  uint32_t q = dl_program_pred(r->prog, sym(r, name));
  return q != DL_NO_PRED && r->prog->preds[q].arity == arity ? dl_eval_relation(r->eval, q) : NULL;
}

static int record_counts(dl_reduction *r)
{
  uint32_t n = r->game->n_preds;
  uint64_t *q = realloc(r->counts, ((size_t)r->n_runs + 1) * (n + 1) * sizeof *q);
  if (!q) return 0;
  r->counts = q;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t g = gplus_pred(r, i);
    q[(size_t)r->n_runs * n + i] = g == DL_NO_PRED ? 0 : ix_relation_size(dl_eval_relation(r->eval, g));
  }
  r->n_runs++;
  return 1;
}

/* ---- the domains mode ---------------------------------------------------------------- */

/* Lists argument arg of game predicate `name`; empty when the game lacks it. */
static int list_domain(const dl_reduction *r, const dl_domains *d, const char *name, uint32_t arity,
                       uint32_t arg, uint64_t limit, facts *out, dl_diag *diag)
{
  out->a = NULL;
  out->n = 0;
  uint32_t p = dl_program_pred(r->game, sym(r, name));
  if (p == DL_NO_PRED || r->game->preds[p].arity != arity) return 1;
  return dl_domains_enumerate(d, p, arg, limit, &out->a, &out->n, diag);
}

/* D = the pairs of does[1] x does[2]. */
static int does_domain(const dl_reduction *r, const dl_domains *d, uint64_t limit, facts *out, dl_diag *diag)
{
  facts a, b;
  out->a = NULL;
  out->n = 0;
  if (!list_domain(r, d, "does", 2, 0, limit, &a, diag)) return 0;
  if (!list_domain(r, d, "does", 2, 1, limit, &b, diag)) { free(a.a); return 0; }
  int ok = (uint64_t)a.n * b.n <= limit;
  if (!ok)
    dl_diag_fail(diag, DL_CAUSE_LIMIT, "the domain of does has %zu x %zu instances, more than the limit %llu", a.n,
                   b.n, (unsigned long long)limit);
  out->a = ok ? malloc((a.n * b.n + 1) * 2 * sizeof(dl_tid)) : NULL;
  for (size_t i = 0; out->a && i < a.n; i++)
    for (size_t j = 0; j < b.n; j++, out->n++) {
      out->a[2 * out->n] = a.a[i];
      out->a[2 * out->n + 1] = b.a[j];
    }
  free(a.a);
  free(b.a);
  return out->a != NULL;
}

/* Keeps the facts (of arity n) found in one of the relations x, y; returns
 * 1 when some fact was dropped. */
static int keep_derived(facts *f, uint32_t n, const ix_relation *x, const ix_relation *y)
{
  size_t kept = 0;
  for (size_t i = 0; i < f->n; i++) {
    const dl_tid *t = &f->a[n * i];
    if (!(x && ix_relation_contains(x, t)) && !(y && ix_relation_contains(y, t))) continue;
    memmove(&f->a[n * kept], t, n * sizeof *t);
    kept++;
  }
  int dropped = kept < f->n;
  f->n = kept;
  return dropped;
}

static int reduce_from_domains(dl_reduction *r, const dl_domains *d, const dl_reduce_options *o, dl_diag *diag)
{
  uint64_t limit = o->max_atoms ? o->max_atoms : UINT64_MAX;
  facts t = { 0 }, dz = { 0 };
  int ok = list_domain(r, d, "true", 1, 0, limit, &t, diag) && does_domain(r, d, limit, &dz, diag);
  for (int changed = 1; ok && changed;) {
    ok = run(r, &t, &dz, o, diag) && record_counts(r);
    if (!ok) break;
    changed = keep_derived(&t, 1, named_relation(r, "init", 1), named_relation(r, "next", 1));
    changed |= keep_derived(&dz, 2, named_relation(r, "legal", 2), NULL);
  }
  free(t.a);
  free(dz.a);
  return ok;
}

/* ---- the result ---------------------------------------------------------------------------- */

/* Per game predicate, its predicate in G+ (looked up by name once, not at
 * each dl_reduction_relation: grounding asks for every literal it decides),
 * or an empty relation when G+ lacks it. */
static int map_predicates(dl_reduction *r)
{
  r->empty = calloc(r->game->n_preds + 1, sizeof *r->empty);
  r->gplus = malloc((r->game->n_preds + 1) * sizeof *r->gplus);
  if (!r->empty || !r->gplus) return 0;
  for (uint32_t i = 0; i < r->game->n_preds; i++)
    if ((r->gplus[i] = gplus_pred(r, i)) == DL_NO_PRED && !(r->empty[i] = ix_relation_create(r->game->preds[i].arity)))
      return 0;
  return 1;
}

dl_reduction *dl_reduce(const dl_program *game, const dl_domains *d, const dl_reduce_options *o,
                        dl_diag *diag)
{
  assert(game && d && o && diag);
  dl_reduction *r = calloc(1, sizeof *r);
  if (!r) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in the G+ reduction");
    return NULL;
  }
  r->game = game;
  r->domains = d;
  r->terms = game->terms;
  r->extra = (dl_source){ "<gdlog>", lfp_rules, (uint32_t)strlen(lfp_rules) };
  size_t errors = dl_diag_errors(diag);
  int ok;
  if (o->build_only) ok = run(r, NULL, NULL, o, diag);
  else if (o->mode == DL_REDUCE_DOMAINS) ok = reduce_from_domains(r, d, o, diag) && map_predicates(r);
  else ok = run(r, NULL, NULL, o, diag) && record_counts(r) && map_predicates(r);
  for (size_t i = 0; !ok && i < dl_domains_cycle_count(d); i++)
    dl_diag_report(diag, DL_NOTE, NULL, 0, "the domains are infinite: recursive function symbol %s",
                   dl_domains_cycle(d, i));
  if (!ok) {
    if (dl_diag_errors(diag) == errors) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in the G+ reduction");
    dl_reduction_destroy(r);
    return NULL;
  }
  return r;
}

void dl_reduction_destroy(dl_reduction *r)
{
  if (!r) return;
  drop_run(r);
  for (uint32_t i = 0; r->empty && i < r->game->n_preds; i++) ix_relation_destroy(r->empty[i]);
  free(r->empty);
  free(r->gplus);
  free(r->counts);
  free(r->aux);
  free(r);
}

uint32_t dl_reduction_iterations(const dl_reduction *r) { return r->n_runs; }

uint64_t dl_reduction_count(const dl_reduction *r, uint32_t it, uint32_t pred)
{
  assert(it < r->n_runs && pred < r->game->n_preds && r->counts);
  return r->counts[(size_t)it * r->game->n_preds + pred];
}

const ix_relation *dl_reduction_relation(const dl_reduction *r, uint32_t pred)
{
  assert(pred < r->game->n_preds && r->gplus);
  uint32_t g = r->gplus[pred];
  return g == DL_NO_PRED ? r->empty[pred] : dl_eval_relation(r->eval, g);
}

const dl_program *dl_reduction_program(const dl_reduction *r) { return r->prog; }

const dl_eval *dl_reduction_eval(const dl_reduction *r) { return r->eval; }

int dl_reduction_auxiliary(const dl_reduction *r, uint32_t q)
{
  assert(r->prog && q < r->prog->n_preds);
  return r->aux_pred[q];
}

uint64_t dl_reduction_atoms(const dl_reduction *r)
{
  if (!r->eval) return 0;
  uint64_t n = dl_eval_get_stats(r->eval).atoms;
  for (uint32_t q = 0; q < r->prog->n_preds; q++)
    if (r->aux_pred[q]) n -= ix_relation_size(dl_eval_relation(r->eval, q));
  return n;
}

double dl_reduction_seconds(const dl_reduction *r) { return r->seconds; }
