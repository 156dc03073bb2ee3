/* ground.c: goal-directed grounding (see ground.h).
 *
 * Phases: (1) which predicates are static, and their model (one run of the
 * evaluator on the game, where true and does have no facts); (2) static
 * keyword atoms, and base/input from G+ when missing, as facts; (3) the
 * rules of the dynamic predicates, predicate by predicate, users before the
 * predicates they use (with demand), each rule by a backtracking join over
 * the kept relations (ground_join.c); (4) pruning to a fixpoint; (5) identical rules once,
 * atoms renumbered densely.  Phases (4) and (5), and the figures, are in
 * ground_prune.c; the store of atoms and rules is ground_store.c; the state
 * the files share is in ground_impl.h.  Simplification is the pipeline's
 * next stage (datalog/simplify/simplify.h). */
#include "datalog/ground/ground_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/eval/eval.h"
#include "index/relation.h"

static const char *const role_names[DL_ATOM_ROLES] = { "fluent", "move", "legal", "next", "goal", "terminal",
                                                       "init", "role", "base", "input", "other" };

const char *dl_atom_role_name(dl_atom_role role)
{
  return role < DL_ATOM_ROLES ? role_names[role] : "other";
}

/* ---- predicates ------------------------------------------------------------------------------ */

static dl_atom_role role_of_name(const char *z, size_t n)
{
  static const struct { const char *name; dl_atom_role role; } k[] = {
    { "true", DL_ATOM_FLUENT }, { "does", DL_ATOM_MOVE }, { "legal", DL_ATOM_LEGAL }, { "next", DL_ATOM_NEXT },
    { "goal", DL_ATOM_GOAL }, { "terminal", DL_ATOM_TERMINAL }, { "init", DL_ATOM_INIT }, { "role", DL_ATOM_ROLE },
    { "base", DL_ATOM_BASE }, { "input", DL_ATOM_INPUT } };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strlen(k[i].name) == n && memcmp(k[i].name, z, n) == 0) return k[i].role;
  return DL_ATOM_OTHER;
}

/* GDL's arities of the keywords; a predicate of another arity is "other". */
static int keyword_arity_ok(dl_atom_role role, uint32_t arity)
{
  static const uint32_t ar[DL_ATOM_ROLES] = { 1, 2, 2, 1, 2, 0, 1, 1, 1, 2, 0 };
  return role == DL_ATOM_OTHER || ar[role] == arity;
}

int gr_is_input(dl_atom_role r) { return r == DL_ATOM_FLUENT || r == DL_ATOM_MOVE; }

/* Roles whose atoms the game needs: everything else exists only for them. */
int gr_is_goal_role(dl_atom_role r)
{
  return r != DL_ATOM_OTHER && !gr_is_input(r);
}

/* Marks in flag[] each predicate with a rule that reads a marked one (or,
 * when by_negation, that has a negative literal), until nothing changes. */
static void mark_readers(const dl_program *p, uint8_t *flag, int by_negation)
{
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t r = 0; r < p->ast->n_rules; r++) {
      uint32_t h = p->head_pred[r];
      for (uint32_t k = 0; !flag[h] && k < p->ast->rules[r].n_body; k++) {
        uint32_t q = p->lit_pred[r][k];
        if ((by_negation && p->ast->rules[r].body[k].kind == DL_NEG) || (q != DL_NO_PRED && flag[q]))
          flag[h] = 1, changed = 1;
      }
    }
  }
}

/* Per predicate, 1 when G+ may hold more of its atoms than the game's model
 * of its static predicates: G+ leaves out negative literals, and nothing
 * else, so a static predicate has the same atoms in both unless its rules,
 * or those of a predicate it reads, have one.  NULL when out of memory. */
static uint8_t *relaxed_in_gplus(const dl_program *p)
{
  uint8_t *relaxed = calloc(p->n_preds + 1, 1);
  if (relaxed) mark_readers(p, relaxed, 1);
  return relaxed;
}

static int classify_predicates(dl_ground *g)
{
  const dl_program *p = g->game;
  g->dynamic = calloc(p->n_preds + 1, 1);
  g->pred_role = calloc(p->n_preds + 1, 1);
  g->demand = calloc(p->n_preds + 1, sizeof *g->demand);
  if (!g->dynamic || !g->pred_role || !g->demand) return gr_oom(g);
  for (uint32_t i = 0; i < p->n_preds; i++) {
    size_t n;
    const char *z = dl_terms_name(g->terms, p->preds[i].name, &n);
    dl_atom_role r = role_of_name(z, n);
    g->pred_role[i] = (uint8_t)(keyword_arity_ok(r, p->preds[i].arity) ? r : DL_ATOM_OTHER);
    g->dynamic[i] = gr_is_input(g->pred_role[i]);
  }
  mark_readers(p, g->dynamic, 0);
  return 1;
}

/* The model of the static predicates.  G+ has it already for most: those
 * are given to the evaluator, and so are the dynamic ones (that no static
 * rule reads), so that it runs only the rules of the others. */
static int eval_statics(dl_ground *g)
{
  double t0 = dl_clock_now();
  dl_eval_options eo = { 0, g->opt->stop };
  const dl_program *p = g->game;
  g->statics = dl_eval_create(p, &eo, g->diag);
  uint8_t *relaxed = g->statics ? relaxed_in_gplus(p) : NULL;
  int ok = relaxed || (g->statics && gr_oom(g));
  for (uint32_t i = 0; ok && i < p->n_preds; i++)
    if (g->dynamic[i] || !relaxed[i]) ok = dl_eval_give(g->statics, i, (ix_relation *)dl_reduction_relation(g->red, i));
  free(relaxed);
  if (!ok || !dl_eval_run(g->statics)) { g->failed = 1; return 0; }
  g->stats.statics_seconds = dl_clock_now() - t0;
  return 1;
}

/* ---- keyword facts -------------------------------------------------------------------------- */

/* Adds a fact pred(t) for each tuple t of relation r. */
static int add_facts(dl_ground *g, dl_sym pred, uint8_t role, const ix_relation *r)
{
  uint32_t n = ix_relation_arity(r);
  ix_val tuple[IX_MAX_ARITY], key[IX_MAX_ARITY] = { 0 };
  int idx;
  if (!ix_relation_index((ix_relation *)r, 0, &idx)) return gr_oom(g); /* an index is a cache: building it changes no tuple */
  ix_iter it;
  ix_iter_begin(&it, r, idx, 0, key);
  while (ix_iter_next(&it, tuple)) {
    dl_tid t = gr_atom_term(g, pred, n, tuple);
    int32_t a = t == DL_NO_TERM ? 0 : gr_atom_id(g, t, role);
    if (!a || !gr_add_rule(g, a, NULL, 0, UINT32_MAX)) return gr_oom(g);
  }
  return 1;
}

static uint32_t find_pred(const dl_ground *g, const char *name, uint32_t arity)
{
  uint32_t p = dl_program_pred(g->game, dl_terms_symbol(g->terms, name, strlen(name)));
  return p != DL_NO_PRED && g->game->preds[p].arity == arity ? p : DL_NO_PRED;
}

/* Static keyword atoms as facts; base and input from G+ when the game has none. */
static int add_keyword_facts(dl_ground *g)
{
  const dl_program *p = g->game;
  for (uint32_t i = 0; i < p->n_preds; i++)
    if (!g->dynamic[i] && gr_is_goal_role(g->pred_role[i]) &&
        !add_facts(g, p->preds[i].name, g->pred_role[i], dl_eval_relation(g->statics, i)))
      return 0;
  static const struct { const char *name, *from; uint32_t arity; dl_atom_role role; } gen[] = {
    { "base", "true", 1, DL_ATOM_BASE }, { "input", "does", 2, DL_ATOM_INPUT } };
  for (int k = 0; k < 2; k++) {
    uint32_t from = find_pred(g, gen[k].from, gen[k].arity);
    if (find_pred(g, gen[k].name, gen[k].arity) != DL_NO_PRED || from == DL_NO_PRED) continue;
    dl_sym s = dl_terms_symbol(g->terms, gen[k].name, strlen(gen[k].name));
    if (s == DL_NO_SYM || !add_facts(g, s, (uint8_t)gen[k].role, dl_reduction_relation(g->red, from))) return gr_oom(g);
  }
  return 1;
}

/* Tells opt->progress, when there is one, that grounding is at phase. */
static void report_progress(const dl_ground *g, const char *phase, uint32_t done, uint32_t total)
{
  if (!g->opt->progress) return;
  dl_ground_progress p = { phase, done, total, g->n_rules };
  g->opt->progress(g->opt->progress_ctx, &p);
}

static int instantiate_rule(dl_ground *g, uint32_t ri)
{
  const dl_program *p = g->game;
  gr_rule gr = { &p->ast->rules[ri], p->lit_pred[ri], p->head_pred[ri], ri, 1 };
  return gr_instantiate(g, &gr, NULL);
}

/* Instantiates the rules of the dynamic predicates, users first: a
 * predicate whose users are all done is instantiated on demand (when
 * opt.demand); when none is ready (cycles), one is instantiated fully. */
/* The empty demand relation of predicate q: a subset of G+'s, so its
 * columns get no more values than G+'s have (ix_relation_expect). */
static int make_demand(dl_ground *g, uint32_t q)
{
  const ix_relation *kept = dl_reduction_relation(g->red, q);
  uint32_t arity = g->game->preds[q].arity;
  uint64_t values[IX_MAX_ARITY];
  for (uint32_t c = 0; c < arity; c++) values[c] = ix_relation_column_values(kept, c);
  if (!(g->demand[q] = ix_relation_create(arity))) return 0;
  ix_relation_expect(g->demand[q], values);
  return 1;
}

static int instantiate(dl_ground *g)
{
  double t0 = dl_clock_now();
  const dl_program *p = g->game;
  uint32_t n = p->n_preds;
  uint32_t *users = calloc(n + 1, sizeof *users);
  uint8_t *selfrec = calloc(n + 1, 1), *done = calloc(n + 1, 1);
  uint32_t rules_done = 0;
  int ok = users && selfrec && done;
  report_progress(g, "instantiate", 0, p->ast->n_rules);
  for (uint32_t r = 0; ok && r < p->ast->n_rules; r++) {
    uint32_t h = p->head_pred[r];
    for (uint32_t k = 0; g->dynamic[h] && k < p->ast->rules[r].n_body; k++) {
      uint32_t q = p->lit_pred[r][k];
      if (q == DL_NO_PRED || !g->dynamic[q] || gr_is_input(g->pred_role[q])) continue;
      if (q == h) selfrec[h] = 1;
      else users[q]++;
    }
  }
  for (uint32_t q = 0; ok && g->opt->demand && q < n; q++)
    if (g->dynamic[q] && g->pred_role[q] == DL_ATOM_OTHER && !selfrec[q] && p->preds[q].arity > 0)
      ok = make_demand(g, q);
  if (!ok) gr_oom(g);
  for (;;) {
    uint32_t next = DL_NO_PRED, stuck = DL_NO_PRED;
    for (uint32_t q = 0; ok && q < n && next == DL_NO_PRED; q++) {
      if (!g->dynamic[q] || gr_is_input(g->pred_role[q]) || done[q]) continue;
      if (users[q] == 0) next = q;
      else if (stuck == DL_NO_PRED) stuck = q;
    }
    if (next == DL_NO_PRED && stuck == DL_NO_PRED) break;
    if (next == DL_NO_PRED) {  /* a cycle: all of it */
      next = stuck;
      gr_subterm_forget(g, g->demand[next]);
      ix_relation_destroy(g->demand[next]);
      g->demand[next] = NULL;
    }
    for (uint32_t r = 0; ok && r < p->ast->n_rules; r++)
      if (p->head_pred[r] == next) {
        ok = instantiate_rule(g, r);
        report_progress(g, "instantiate", ++rules_done, p->ast->n_rules);
      }
    if (!ok) break;
    done[next] = 1;
    gr_subterm_forget(g, g->demand[next]);
    ix_relation_destroy(g->demand[next]);
    g->demand[next] = NULL;
    for (uint32_t r = 0; r < p->ast->n_rules; r++) {
      if (p->head_pred[r] != next) continue;
      for (uint32_t k = 0; k < p->ast->rules[r].n_body; k++) {
        uint32_t q = p->lit_pred[r][k];
        if (q != DL_NO_PRED && q != next && g->dynamic[q] && !gr_is_input(g->pred_role[q])) users[q]--;
      }
    }
  }
  free(users);
  free(selfrec);
  free(done);
  gr_free_steps(g);
  g->stats.instantiate_seconds = dl_clock_now() - t0;
  return ok;
}

/* ---- the interface -------------------------------------------------------------------------- */

dl_ground *dl_ground_build(const dl_program *game, const dl_reduction *red, const dl_ground_options *opt,
                           dl_diag *diag)
{
  dl_ground *g = calloc(1, sizeof *g);
  if (!g) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in grounding");
    return NULL;
  }
  g->game = game;
  g->red = red;
  g->opt = opt;
  g->diag = diag;
  g->terms = game->terms;
  g->rstats = calloc(game->ast->n_rules + 1, sizeof *g->rstats);
  int ok = g->rstats ? classify_predicates(g) : gr_oom(g);
  report_progress(g, "statics", 0, 0);
  ok = ok && eval_statics(g) && add_keyword_facts(g) && instantiate(g);
  report_progress(g, "prune", 0, 0);
  ok = ok && gr_prune(g) && gr_count_figures(g);
  dl_eval_destroy(g->statics);
  g->statics = NULL;
  for (uint32_t q = 0; g->demand && q < game->n_preds; q++) ix_relation_destroy(g->demand[q]);
  free(g->demand);
  g->demand = NULL;
  g->opt = NULL;
  g->diag = NULL;
  if (!ok) {
    dl_ground_destroy(g);
    return NULL;
  }
  return g;
}

void dl_ground_destroy(dl_ground *g)
{
  if (!g) return;
  gr_free_steps(g);
  dl_eval_destroy(g->statics);
  for (uint32_t q = 0; g->demand && q < g->game->n_preds; q++) ix_relation_destroy(g->demand[q]);
  free(g->demand);
  free(g->dynamic);
  free(g->pred_role);
  free(g->atom_of_term);
  free(g->rule_slots);
  free(g->atom_term);
  free(g->atom_role);
  free(g->atom_aux);
  free(g->lits.a);
  free(g->rule_at);
  free(g->rule_origin);
  free(g->rstats);
  free(g);
}

const dl_terms *dl_ground_terms(const dl_ground *g) { return g->terms; }

uint32_t dl_ground_atom_count(const dl_ground *g) { return g->n_atoms; }

dl_tid dl_ground_atom_term(const dl_ground *g, uint32_t id)
{
  assert(id >= 1 && id <= g->n_atoms);
  return g->atom_term[id];
}

dl_atom_role dl_ground_atom_role(const dl_ground *g, uint32_t id)
{
  assert(id >= 1 && id <= g->n_atoms);
  return (dl_atom_role)g->atom_role[id];
}

int dl_ground_pred_dynamic(const dl_ground *g, uint32_t pred)
{
  assert(pred < g->game->n_preds);
  return g->dynamic[pred];
}

dl_atom_role dl_ground_pred_role(const dl_ground *g, uint32_t pred)
{
  assert(pred < g->game->n_preds);
  return (dl_atom_role)g->pred_role[pred];
}

uint32_t dl_ground_rule_count(const dl_ground *g) { return g->n_rules; }

int32_t dl_ground_rule(const dl_ground *g, uint32_t i, const int32_t **body, uint32_t *n)
{
  assert(i < g->n_rules);
  const int32_t *x = gr_rule_lits(g, i);
  *body = x + 2;
  *n = (uint32_t)x[1];
  return x[0];
}

uint32_t dl_ground_rule_origin(const dl_ground *g, uint32_t i)
{
  assert(i < g->n_rules);
  return g->rule_origin[i];
}

dl_ground_rule_stats dl_ground_get_rule_stats(const dl_ground *g, uint32_t r)
{
  assert(r < g->game->ast->n_rules);
  return g->rstats[r];
}

dl_ground_stats dl_ground_get_stats(const dl_ground *g) { return g->stats; }