/* reduce.c: the G+ reduction (see reduce.h).  G+ is built as a new rule set
 * that shares the game's syntax trees: each rule is copied with its negative
 * literals left out, and marked trusted because G+ breaks GDL's keyword
 * rules on purpose (true and does get rules). */
#include "datalog/gdl/reduce.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datalog/read/normalize.h"
#include "datalog/read/parse.h"

struct dl_reduction {
  const dl_program *game;
  dl_terms *terms;
  dl_source extra;        /* the text of the rules gdlog adds */
  ast_program *ast;       /* G+ of the last run */
  dl_program *prog;
  dl_eval *eval;
  ix_relation **empty;    /* per game predicate missing from G+: an empty relation */
  uint64_t *counts;       /* per run, per game predicate */
  uint32_t n_runs;
  double seconds;
};

static const char lfp_rules[] =
  "true(X) :- init(X).\n"
  "true(X) :- next(X).\n"
  "does(R,A) :- legal(R,A).\n";

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- building G+ ------------------------------------------------------------- */

/* Appends the game's rules without their negative literals. */
static int add_positive_rules(ast_program *ast, const dl_program *game)
{
  for (uint32_t i = 0; i < game->ast->n_rules; i++) {
    dl_rule r = game->ast->rules[i];
    dl_literal *body = dl_arena_alloc(ast->arena, (r.n_body + 1) * sizeof *body);
    if (!body) return 0;
    uint32_t n = 0;
    for (uint32_t k = 0; k < r.n_body; k++)
      if (r.body[k].kind != DL_NEG) body[n++] = r.body[k];
    r.body = body;
    r.n_body = n;
    r.trusted = 1;
    if (!ast_program_add_rule(ast, &r)) return 0;
  }
  return 1;
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
  r->eval = NULL;
  r->prog = NULL;
  r->ast = NULL;
}

static dl_sym sym(const dl_reduction *r, const char *z) { return dl_terms_symbol(r->terms, z, strlen(z)); }

/* A list of true facts (n = 1) or does facts (n = 2). */
typedef struct facts { dl_tid *a; size_t n; } facts;

/* Builds G+ (with the facts T and D, or the LFP rules) and evaluates it. */
static int run(dl_reduction *r, const facts *t, const facts *dz, const dl_reduce_options *o, dl_diag *diag)
{
  double t0 = now();
  drop_run(r);
  if (!(r->ast = ast_program_create()) || !add_positive_rules(r->ast, r->game)) return 0;
  if (!t && !add_lfp_rules(r, diag)) return 0;
  for (size_t i = 0; t && i < t->n; i++)
    if (!add_fact(r, sym(r, "true"), 1, &t->a[i])) return 0;
  for (size_t i = 0; dz && i < dz->n; i++)
    if (!add_fact(r, sym(r, "does"), 2, &dz->a[2 * i])) return 0;
  if (!(r->prog = dl_program_build(r->ast, r->terms, diag))) return 0;
  if (o->build_only) return 1;
  dl_eval_options eo = { o->max_atoms, o->cancel };
  if (!(r->eval = dl_eval_create(r->prog, &eo, diag)) || !dl_eval_run(r->eval)) return 0;
  r->seconds += now() - t0;
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
  if (!ok) dl_diag_report(diag, DL_ERROR, NULL, 0, "the domain of does has %zu x %zu instances, more than the limit %llu",
                          a.n, b.n, (unsigned long long)limit);
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

static int make_empty(dl_reduction *r)
{
  r->empty = calloc(r->game->n_preds + 1, sizeof *r->empty);
  if (!r->empty) return 0;
  for (uint32_t i = 0; i < r->game->n_preds; i++)
    if (gplus_pred(r, i) == DL_NO_PRED && !(r->empty[i] = ix_relation_create(r->game->preds[i].arity))) return 0;
  return 1;
}

dl_reduction *dl_reduce(const dl_program *game, const dl_domains *d, const dl_reduce_options *o,
                        dl_diag *diag)
{
  assert(game && d && o && diag);
  dl_reduction *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->game = game;
  r->terms = game->terms;
  r->extra = (dl_source){ "<gdlog>", lfp_rules, (uint32_t)strlen(lfp_rules) };
  size_t errors = dl_diag_errors(diag);
  int ok;
  if (o->build_only) ok = run(r, NULL, NULL, o, diag);
  else if (o->mode == DL_REDUCE_DOMAINS) ok = reduce_from_domains(r, d, o, diag) && make_empty(r);
  else ok = run(r, NULL, NULL, o, diag) && record_counts(r) && make_empty(r);
  for (size_t i = 0; !ok && i < dl_domains_cycle_count(d); i++)
    dl_diag_report(diag, DL_NOTE, NULL, 0, "the domains are infinite: recursive function symbol %s",
                   dl_domains_cycle(d, i));
  if (!ok) {
    if (dl_diag_errors(diag) == errors) dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory in the G+ reduction");
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
  free(r->counts);
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
  assert(pred < r->game->n_preds);
  uint32_t g = gplus_pred(r, pred);
  return g == DL_NO_PRED ? r->empty[pred] : dl_eval_relation(r->eval, g);
}

const dl_program *dl_reduction_program(const dl_reduction *r) { return r->prog; }

const dl_eval *dl_reduction_eval(const dl_reduction *r) { return r->eval; }

uint64_t dl_reduction_atoms(const dl_reduction *r) { return r->eval ? dl_eval_get_stats(r->eval).atoms : 0; }

double dl_reduction_seconds(const dl_reduction *r) { return r->seconds; }
