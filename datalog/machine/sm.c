/* sm.c: the minimal state machine (see sm.h).  Each question is answered
 * from a model of the game: the state seeded as true facts (dl_eval_seed),
 * and for the next state the joint move as does facts, run to the end.
 * One evaluator is kept across states: for another state it is restarted
 * (dl_eval_restart), which keeps the relations that depend on neither true
 * nor does, the indexes and the plans, and recomputes the rest; for a joint
 * move in the same state only what depends on does is recomputed.  The
 * model of the last state asked about is kept.  With demand (dl_sm_demand)
 * the program evaluated is the magic-set rewriting of the game for the
 * keywords (magic.h): the same relations for the keywords, found by name in
 * the rewritten program. */
#include "datalog/machine/sm.h"
#include "datalog/base/clock.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/sort.h"
#include "datalog/gdl/domains.h"
#include "datalog/program/magic.h"

/* The GDL keyword predicates the machine reads or seeds. */
enum { K_ROLE, K_INIT, K_TRUE, K_DOES, K_LEGAL, K_NEXT, K_GOAL, K_TERMINAL, N_KEYWORDS };

static const struct {
  const char *name;
  uint32_t arity;
} keywords[N_KEYWORDS] = {
  { "role", 1 }, { "init", 1 }, { "true", 1 }, { "does", 2 },
  { "legal", 2 }, { "next", 1 }, { "goal", 2 }, { "terminal", 0 },
};

struct dl_sm {
  const dl_program *prog;     /* evaluated: the game, or magic's program */
  dl_magic *magic;            /* the rewriting of the game, or NULL */
  dl_terms *terms;
  dl_diag *diag;
  dl_eval_options opt;
  uint32_t pred[N_KEYWORDS];  /* DL_NO_PRED when the program has none */
  dl_ids roles;           /* in the order of the role facts */
  dl_ids initial;
  dl_eval *model;             /* kept across states: the model of state `modelled` */
                              /*   (and a joint move when with_moves), or NULL */
  dl_ids modelled;        /* sorted, without duplicates */
  int with_moves;             /* model has does facts seeded */
  int moves_matter;           /* legal, goal or terminal depend on does (not GDL): */
                              /*   then a model with moves does not answer them */
  dl_ids key;             /* scratch: the state asked about, sorted */
  dl_sm_stats stats;
};

/* ---- lists of term ids ------------------------------------------------------- */

static int compare_tid(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  dl_tid x = *(const dl_tid *)a, y = *(const dl_tid *)b;
  return (x > y) - (x < y);
}

/* Sorts l and drops duplicates. */
static void list_canonical(dl_ids *l)
{
  dl_sort(l->ids, l->n, sizeof *l->ids, compare_tid, NULL);
  uint32_t k = 0;
  for (uint32_t i = 0; i < l->n; i++)
    if (k == 0 || l->ids[k - 1] != l->ids[i]) l->ids[k++] = l->ids[i];
  l->n = k;
}

static int list_has(const dl_ids *l, dl_tid t)
{
  for (uint32_t i = 0; i < l->n; i++)
    if (l->ids[i] == t) return 1;
  return 0;
}

/* ---- models -------------------------------------------------------------------- */

static void report_memory(dl_sm *sm)
{
  dl_diag_fail(sm->diag, DL_CAUSE_NOMEM, "out of memory in the state machine");
}

static void drop_model(dl_sm *sm)
{
  dl_eval_destroy(sm->model);
  sm->model = NULL;
  sm->with_moves = 0;
}

/* Readies sm->model for new seeds: a new evaluator when there is none; else
 * restarted for a new state, or (same_state) for a new joint move only. */
static int ready_model(dl_sm *sm, int same_state)
{
  if (!sm->model) {
    size_t errors = dl_diag_errors(sm->diag);
    sm->model = dl_eval_create(sm->prog, &sm->opt, sm->diag);
    if (!sm->model && dl_diag_errors(sm->diag) == errors) report_memory(sm);
    return sm->model != NULL;
  }
  uint32_t inputs[2], n = 0;
  if (!same_state && sm->pred[K_TRUE] != DL_NO_PRED) inputs[n++] = sm->pred[K_TRUE];
  if (sm->pred[K_DOES] != DL_NO_PRED) inputs[n++] = sm->pred[K_DOES];
  if (dl_eval_restart(sm->model, inputs, n)) return 1;
  drop_model(sm);
  return 0;
}

/* Whether a keyword the state's questions read was recomputed by the last
 * restart of the model. */
static int keywords_recomputed(const dl_sm *sm)
{
  static const int read[] = { K_LEGAL, K_GOAL, K_TERMINAL };
  for (size_t i = 0; i < sizeof read / sizeof *read; i++)
    if (sm->pred[read[i]] != DL_NO_PRED && dl_eval_recomputed(sm->model, sm->pred[read[i]])) return 1;
  return 0;
}

/* Seeds e with true(t) for each t of state[0..n) (none when state is
 * NULL) and, when joint is not NULL, does(role i, joint[i]) for each role.
 * 1, or 0 when out of memory. */
static int seed(const dl_sm *sm, dl_eval *e, const dl_tid *state, uint32_t n, const dl_tid *joint)
{
  int ok = 1;
  for (uint32_t i = 0; ok && state && i < n && sm->pred[K_TRUE] != DL_NO_PRED; i++)
    ok = dl_eval_seed(e, sm->pred[K_TRUE], &state[i]);
  for (uint32_t r = 0; ok && joint && r < sm->roles.n && sm->pred[K_DOES] != DL_NO_PRED; r++) {
    dl_tid tuple[2] = { sm->roles.ids[r], joint[r] };
    ok = dl_eval_seed(e, sm->pred[K_DOES], tuple);
  }
  return ok;
}

/* Makes sm->model the model of the game with true(t) for each t of
 * state[0..n) and, when joint is not NULL, does(role i, joint[i]) for each
 * role.  same_state: the model holds state already (only the moves
 * change).  1, or 0 after reporting (then there is no model). */
static int compute_model(dl_sm *sm, const dl_tid *state, uint32_t n, const dl_tid *joint, int same_state)
{
  double t0 = dl_clock_now(), c0 = dl_clock_cpu();
  int fresh = sm->model == NULL;
  if (!ready_model(sm, same_state && !fresh)) return 0;
  dl_eval *e = sm->model;
  int ok = seed(sm, e, fresh || !same_state ? state : NULL, n, joint) && dl_eval_run(e);
  sm->stats.models++;
  sm->stats.seconds += dl_clock_now() - t0;
  sm->stats.cpu_seconds += dl_clock_cpu() - c0;
  if (!ok) {
    drop_model(sm);
    return 0;
  }
  sm->with_moves = joint != NULL && sm->pred[K_DOES] != DL_NO_PRED;
  if (sm->with_moves && !fresh) sm->moves_matter = keywords_recomputed(sm);
  else if (sm->with_moves) sm->moves_matter = 1;
  return 1;
}

/* The model of state[0..n) (with no moves, or with moves that legal, goal
 * and terminal do not read): the kept one when it is the same state.  NULL
 * after reporting. */
static dl_eval *state_model(dl_sm *sm, const dl_tid *state, uint32_t n)
{
  assert(state || n == 0);
  sm->key.n = 0;
  for (uint32_t i = 0; i < n; i++)
    if (!dl_ids_push(&sm->key, state[i])) {
      report_memory(sm);
      return NULL;
    }
  list_canonical(&sm->key);
  int same = sm->model && sm->key.n == sm->modelled.n &&
             (sm->key.n == 0 || memcmp(sm->key.ids, sm->modelled.ids, sm->key.n * sizeof *sm->key.ids) == 0);
  if (same && (!sm->with_moves || !sm->moves_matter)) return sm->model;
  if (same) return compute_model(sm, sm->modelled.ids, sm->modelled.n, NULL, 1) ? sm->model : NULL;
  if (!compute_model(sm, sm->key.ids, sm->key.n, NULL, 0)) return NULL;
  dl_ids tmp = sm->modelled;
  sm->modelled = sm->key;
  sm->key = tmp;
  return sm->model;
}

/* Replaces *out with column `col` of the tuples of keyword k's relation
 * whose column 0 is `first` (any tuple when first is DL_NO_TERM), sorted.
 * 0 when out of memory. */
static int collect(const dl_sm *sm, const dl_eval *e, int k, dl_tid first, uint32_t col, dl_ids *out)
{
  out->n = 0;
  if (sm->pred[k] == DL_NO_PRED) return 1;
  const ix_relation *r = dl_eval_relation(e, sm->pred[k]);
  ix_iter it;
  ix_val tuple[2];
  ix_iter_begin(&it, r, 0, 0, NULL);
  while (ix_iter_next(&it, tuple))
    if ((first == DL_NO_TERM || tuple[0] == first) && !dl_ids_push(out, tuple[col])) return 0;
  list_canonical(out);
  return 1;
}

static int is_terminal(const dl_sm *sm, const dl_eval *e)
{
  return sm->pred[K_TERMINAL] != DL_NO_PRED && ix_relation_size(dl_eval_relation(e, sm->pred[K_TERMINAL])) > 0;
}

/* ---- messages -------------------------------------------------------------------- */

/* Prints t into *b (which must be empty) and returns the text. */
static const char *text_of(const dl_sm *sm, dl_tid t, dl_buf *b)
{
  dl_output_term(b, sm->terms, t, DL_FMT_INFIX);
  return b->data && !b->failed ? b->data : "?";
}

/* ---- creating ---------------------------------------------------------------------- */

/* The term of a ground ast term, when the store has it; else DL_NO_TERM. */
static dl_tid find_ground(const dl_terms *terms, const ast_term *t)
{
  if (t->kind == AST_VAR) return DL_NO_TERM;
  if (t->kind == AST_SYM) return dl_terms_find(terms, t->value, 0, NULL);
  dl_tid args[t->n ? t->n : 1];
  for (uint32_t i = 0; i < t->n; i++)
    if ((args[i] = find_ground(terms, t->args[i])) == DL_NO_TERM) return DL_NO_TERM;
  return dl_terms_find(terms, t->value, t->n, args);
}

/* Finds the keyword predicates of sm->prog and checks their arities. */
static int find_keywords(dl_sm *sm)
{
  int ok = 1;
  for (int k = 0; k < N_KEYWORDS; k++) {
    dl_sym s = dl_terms_symbol(sm->terms, keywords[k].name, strlen(keywords[k].name));
    if (s == DL_NO_SYM) {
      report_memory(sm);
      return 0;
    }
    uint32_t p = dl_program_pred(sm->prog, s);
    sm->pred[k] = p;
    if (p == DL_NO_PRED || sm->prog->preds[p].arity == keywords[k].arity) continue;
    dl_diag_report(sm->diag, DL_ERROR, sm->prog->preds[p].src, sm->prog->preds[p].off,
                   "'%s' has %u arguments here; GDL's %s has %u", keywords[k].name, sm->prog->preds[p].arity,
                   keywords[k].name, keywords[k].arity);
    ok = 0;
  }
  return ok;
}

/* What the domain analysis of game says of its size: 2 when a predicate
 * has an infinite domain, 1 when one has more than DL_SM_DEMAND_ATOMS
 * instances, else 0 (its cycle messages are not kept).  -1 when out of
 * memory. */
static int domain_size(const dl_program *game)
{
  dl_diag *scratch = dl_diag_create();
  dl_domains *d = scratch ? dl_domains_build(game, scratch) : NULL;
  int size = d ? 0 : -1;
  for (uint32_t p = 0; d && size < 2 && p < game->n_preds; p++) {
    double n = dl_domains_pred_count(d, p);
    if (!(n <= 1e300)) size = 2;
    else if (n > DL_SM_DEMAND_ATOMS) size = 1;
  }
  dl_domains_destroy(d);
  dl_diag_destroy(scratch);
  return size;
}

/* One model of the trial: e restarted (unless fresh) for new true atoms
 * (state not NULL) or for a new joint move only, then seeded with state
 * and joint (either may be NULL) and run.  Adds its derivations to *cost
 * and raises *atoms to its size.  1, or 0 when it fails. */
static int trial_run(dl_sm *sm, dl_eval *e, int fresh, const dl_ids *state, const dl_tid *joint, uint64_t *cost,
                     uint64_t *atoms)
{
  uint32_t inputs[2], n = 0;
  if (state && sm->pred[K_TRUE] != DL_NO_PRED) inputs[n++] = sm->pred[K_TRUE];
  if (sm->pred[K_DOES] != DL_NO_PRED) inputs[n++] = sm->pred[K_DOES];
  const dl_tid *ids = state ? state->ids : NULL;
  int ok = (fresh || dl_eval_restart(e, inputs, n)) && seed(sm, e, ids, state ? state->n : 0, joint) && dl_eval_run(e);
  if (!ok) return 0;
  dl_eval_stats st = dl_eval_get_stats(e);
  *cost += st.derivations;
  if (st.atoms > *atoms) *atoms = st.atoms;
  return 1;
}

enum { TRIAL_MOVES = 4 };

/* The derivations of a walk under sm->prog (its keywords in sm->pred), as
 * the machine computes it: one evaluator, restarted for each state and
 * each joint move (what does not depend on them is kept); from the
 * initial state, up to TRIAL_MOVES joint moves of each role's first legal
 * move, each model within max_atoms atoms (0: none).  The largest model's
 * atoms in *atoms.  UINT64_MAX when a model fails (its messages are not
 * kept) or memory runs out.  The initial state alone misjudges checkers:
 * its model takes the rewriting 2,051 derivations and the rules as they
 * are 6,040, most of them the board's geometry, which a restart keeps. */
static uint64_t trial_cost(dl_sm *sm, uint64_t max_atoms, uint64_t *atoms)
{
  dl_diag *scratch = dl_diag_create();
  dl_eval_options opt = { max_atoms, sm->opt.stop };
  dl_eval *e = scratch ? dl_eval_create(sm->prog, &opt, scratch) : NULL;
  dl_ids state = { 0 }, moves = { 0 };
  dl_tid *joint = malloc((sm->roles.n + 1) * sizeof *joint);
  uint64_t cost = 0;
  int ok = e && joint;
  *atoms = 0;
  for (uint32_t i = 0; ok && i < sm->initial.n; i++) ok = dl_ids_push(&state, sm->initial.ids[i]);
  for (int k = 0; ok && k < TRIAL_MOVES; k++) {
    int more = (ok = trial_run(sm, e, k == 0, &state, NULL, &cost, atoms)) && !is_terminal(sm, e);
    for (uint32_t r = 0; more && r < sm->roles.n; r++) {
      more = (ok = collect(sm, e, K_LEGAL, sm->roles.ids[r], 1, &moves)) && moves.n > 0;
      if (more) joint[r] = moves.ids[0];
    }
    if (!more) break;
    ok = trial_run(sm, e, 0, NULL, joint, &cost, atoms) && collect(sm, e, K_NEXT, DL_NO_TERM, 0, &state);
  }
  dl_eval_destroy(e);
  dl_ids_free(&state);
  dl_ids_free(&moves);
  free(joint);
  dl_diag_destroy(scratch);
  return ok ? cost : UINT64_MAX;
}

/* For a game whose domains are huge but finite: whether the rules as they
 * are (game) derive at most twice as much as the rewriting over a short
 * walk (trial_cost); then the machine goes back to them.  0 when out of
 * memory (reported). */
static int maybe_plain(dl_sm *sm, const dl_program *game)
{
  uint64_t atoms, cost = trial_cost(sm, 0, &atoms);
  if (cost == UINT64_MAX) return 1;
  uint64_t limit = 16 * atoms > 100000 ? 16 * atoms : 100000, plain_atoms;
  const dl_program *rewritten = sm->prog;
  sm->prog = game;
  uint64_t plain = find_keywords(sm) ? trial_cost(sm, limit, &plain_atoms) : UINT64_MAX;
  if (plain == UINT64_MAX || plain > 2 * cost) {
    sm->prog = rewritten;
    return find_keywords(sm);
  }
  drop_model(sm);  /* the rewriting's, before the rewriting goes */
  dl_magic_destroy(sm->magic);
  sm->magic = NULL;
  return 1;
}

/* Evaluates the magic-set rewriting of the game for the keywords it has
 * (found in sm->pred) instead of the game.  1, or 0 after reporting. */
static int use_demand(dl_sm *sm)
{
  uint32_t queries[N_KEYWORDS], n = 0;
  for (int k = 0; k < N_KEYWORDS; k++)
    if (k != K_TRUE && k != K_DOES && sm->pred[k] != DL_NO_PRED) queries[n++] = sm->pred[k];
  sm->magic = dl_magic_create(sm->prog, queries, n, sm->diag);
  if (!sm->magic) return 0;
  sm->prog = dl_magic_program(sm->magic);
  return find_keywords(sm);
}

/* The roles of model e: first those of role facts in the program's order,
 * then any other, by term id. */
static int find_roles(dl_sm *sm, const dl_eval *e)
{
  dl_ids all = { 0 };
  if (!collect(sm, e, K_ROLE, DL_NO_TERM, 0, &all)) return 0;
  const ast_program *ast = sm->prog->ast;
  int ok = 1;
  for (uint32_t r = 0; ok && r < ast->n_rules; r++) {
    if (sm->prog->head_pred[r] != sm->pred[K_ROLE] || ast->rules[r].n_body != 0) continue;
    dl_tid t = find_ground(sm->terms, ast->rules[r].head->args[0]);
    if (t != DL_NO_TERM && list_has(&all, t) && !list_has(&sm->roles, t)) ok = dl_ids_push(&sm->roles, t);
  }
  for (uint32_t i = 0; ok && i < all.n; i++)
    if (!list_has(&sm->roles, all.ids[i])) ok = dl_ids_push(&sm->roles, all.ids[i]);
  dl_ids_free(&all);
  return ok;
}

dl_sm *dl_sm_create(const dl_program *game, dl_diag *diag)
{
  dl_eval_options none = { 0, NULL };
  return dl_sm_create_limited(game, &none, diag);
}

dl_sm *dl_sm_create_limited(const dl_program *game, const dl_eval_options *opt, dl_diag *diag)
{
  return dl_sm_create_demand(game, opt, DL_SM_DEMAND_AUTO, diag);
}

dl_sm *dl_sm_create_demand(const dl_program *game, const dl_eval_options *opt, dl_sm_demand demand, dl_diag *diag)
{
  assert(game && opt && diag);
  dl_sm *sm = calloc(1, sizeof *sm);
  if (!sm) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in the state machine");
    return NULL;
  }
  sm->prog = game;
  sm->terms = game->terms;
  sm->diag = diag;
  sm->opt = *opt;
  int size = demand == DL_SM_DEMAND_AUTO ? domain_size(game) : 0;
  int demanded = demand == DL_SM_DEMAND_ON || size > 0;
  if (size < 0) report_memory(sm);
  if (size < 0 || !find_keywords(sm) || (demanded && !use_demand(sm))) {
    dl_sm_destroy(sm);
    return NULL;
  }
  /* the model of the empty state, kept (sm->modelled is empty) */
  int ok = compute_model(sm, NULL, 0, NULL, 0);
  if (ok && !(find_roles(sm, sm->model) && collect(sm, sm->model, K_INIT, DL_NO_TERM, 0, &sm->initial))) {
    report_memory(sm);
    ok = 0;
  }
  if (ok && sm->roles.n == 0) {
    dl_diag_report(diag, DL_ERROR, NULL, 0, "the game has no role: a GDL game needs role facts");
    ok = 0;
  }
  if (ok && size == 1) ok = maybe_plain(sm, game);
  if (!ok) {
    dl_sm_destroy(sm);
    return NULL;
  }
  return sm;
}

void dl_sm_destroy(dl_sm *sm)
{
  if (!sm) return;
  dl_eval_destroy(sm->model);
  dl_magic_destroy(sm->magic);
  dl_ids_free(&sm->roles);
  dl_ids_free(&sm->initial);
  dl_ids_free(&sm->modelled);
  dl_ids_free(&sm->key);
  free(sm);
}

int dl_sm_uses_demand(const dl_sm *sm)
{
  assert(sm);
  return sm->magic != NULL;
}

void dl_sm_set_limits(dl_sm *sm, const dl_eval_options *opt)
{
  assert(sm && opt);
  sm->opt = *opt;
  if (sm->model) dl_eval_set_options(sm->model, opt);
}

/* ---- questions ----------------------------------------------------------------------- */

const dl_tid *dl_sm_roles(const dl_sm *sm, uint32_t *n)
{
  assert(sm && n);
  *n = sm->roles.n;
  return sm->roles.ids;
}

const dl_tid *dl_sm_initial(const dl_sm *sm, uint32_t *n)
{
  assert(sm && n);
  *n = sm->initial.n;
  return sm->initial.ids;
}

int dl_sm_terminal(dl_sm *sm, const dl_tid *state, uint32_t n, int *terminal)
{
  assert(sm && terminal);
  const dl_eval *e = state_model(sm, state, n);
  if (!e) return 0;
  *terminal = is_terminal(sm, e);
  return 1;
}

int dl_sm_legal_moves(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, dl_ids *moves)
{
  assert(sm && moves && role < sm->roles.n);
  const dl_eval *e = state_model(sm, state, n);
  if (!e) return 0;
  if (collect(sm, e, K_LEGAL, sm->roles.ids[role], 1, moves)) return 1;
  report_memory(sm);
  return 0;
}

int dl_sm_legal(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, dl_ids *moves)
{
  assert(sm && moves && role < sm->roles.n);
  if (!dl_sm_legal_moves(sm, state, n, role, moves)) return 0;
  const dl_eval *e = state_model(sm, state, n);
  if (moves->n == 0 && !is_terminal(sm, e)) {
    dl_buf r = { 0 };
    dl_diag_report(sm->diag, DL_ERROR, NULL, 0, "role '%s' has no legal move in a state that is not terminal",
                   text_of(sm, sm->roles.ids[role], &r));
    dl_buf_free(&r);
    return 0;
  }
  return 1;
}

int dl_sm_goal_values(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, dl_ids *values)
{
  assert(sm && values && role < sm->roles.n);
  const dl_eval *e = state_model(sm, state, n);
  if (!e) return 0;
  if (!collect(sm, e, K_GOAL, sm->roles.ids[role], 1, values)) {
    report_memory(sm);
    return 0;
  }
  return 1;
}

/* The number 0..100 that constant t names, or -1. */
static int goal_number(const dl_terms *terms, dl_tid t)
{
  if (dl_terms_arity(terms, t) != 0) return -1;
  size_t len;
  const char *s = dl_terms_name(terms, dl_terms_functor(terms, t), &len);
  if (len == 0 || len > 3) return -1;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = 10 * v + (s[i] - '0');
  }
  return v <= 100 ? v : -1;
}

/* Reports that role index `role` has not exactly one goal value in 0..100
 * among values, in a state terminal or not. */
static void report_goal(dl_sm *sm, uint32_t role, const dl_ids *values, int terminal)
{
  dl_buf r = { 0 }, v = { 0 }, w = { 0 };
  const char *name = text_of(sm, sm->roles.ids[role], &r);
  const char *kind = terminal ? "terminal" : "non-terminal";
  if (values->n == 0)
    dl_diag_report(sm->diag, DL_ERROR, NULL, 0, "role '%s' has no goal value in this %s state", name, kind);
  else if (values->n > 1)
    dl_diag_report(sm->diag, DL_ERROR, NULL, 0, "role '%s' has %u goal values in this %s state ('%s', '%s'%s)",
                   name, values->n, kind, text_of(sm, values->ids[0], &v), text_of(sm, values->ids[1], &w),
                   values->n > 2 ? ", ..." : "");
  else
    dl_diag_report(sm->diag, DL_ERROR, NULL, 0, "the goal value of role '%s' is '%s', not a number in 0..100",
                   name, text_of(sm, values->ids[0], &v));
  dl_buf_free(&r);
  dl_buf_free(&v);
  dl_buf_free(&w);
}

int dl_sm_goal(dl_sm *sm, const dl_tid *state, uint32_t n, uint32_t role, int *value)
{
  assert(sm && value && role < sm->roles.n);
  dl_ids values = { 0 };
  if (!dl_sm_goal_values(sm, state, n, role, &values)) return 0;
  int v = values.n == 1 ? goal_number(sm->terms, values.ids[0]) : -1;
  if (v < 0) report_goal(sm, role, &values, is_terminal(sm, sm->model));
  else *value = v;
  dl_ids_free(&values);
  return v >= 0;
}

/* Whether role index r may play move in the state of model e; reports it
 * when not. */
static int check_legal(dl_sm *sm, const dl_eval *e, uint32_t r, dl_tid move)
{
  ix_val tuple[2] = { sm->roles.ids[r], move };
  if (sm->pred[K_LEGAL] != DL_NO_PRED && ix_relation_contains(dl_eval_relation(e, sm->pred[K_LEGAL]), tuple))
    return 1;
  dl_buf m = { 0 }, rb = { 0 };
  dl_diag_report(sm->diag, DL_ERROR, NULL, 0, "illegal joint move: '%s' is not a legal move of role '%s' in this %s",
                 text_of(sm, move, &m), text_of(sm, sm->roles.ids[r], &rb),
                 is_terminal(sm, e) ? "terminal state" : "state");
  dl_buf_free(&m);
  dl_buf_free(&rb);
  return 0;
}

int dl_sm_next(dl_sm *sm, const dl_tid *state, uint32_t n, const dl_tid *joint, dl_ids *next)
{
  assert(sm && joint && next && (next->ids != state || next->ids == NULL));
  const dl_eval *e = state_model(sm, state, n);
  if (!e) return 0;
  for (uint32_t r = 0; r < sm->roles.n; r++)
    if (!check_legal(sm, e, r, joint[r])) return 0;
  /* the kept model's state, with the joint move */
  if (!compute_model(sm, sm->modelled.ids, sm->modelled.n, joint, 1)) return 0;
  int ok = collect(sm, sm->model, K_NEXT, DL_NO_TERM, 0, next);
  if (!ok) report_memory(sm);
  return ok;
}

const dl_terms *dl_sm_terms(const dl_sm *sm)
{
  assert(sm);
  return sm->terms;
}

void dl_sm_term_text(const dl_sm *sm, dl_tid t, dl_format fmt, dl_buf *out)
{
  assert(sm && out && t < dl_terms_count(sm->terms));
  dl_output_term(out, sm->terms, t, fmt);
}

dl_sm_stats dl_sm_get_stats(const dl_sm *sm)
{
  assert(sm);
  return sm->stats;
}
