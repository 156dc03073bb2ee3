/* eval.c: semi-naive bottom-up evaluation over Judy-indexed relations (see
 * eval.h).  Each rule version is planned by plan.c and run by run.c;
 * here the components run in order, a recursive one in rounds.
 * Restarting, which keeps what an input does not reach, is restart.c. */
#include "datalog/eval/eval_impl.h"
#include "datalog/base/clock.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/eval/plan.h"
#include "datalog/eval/subsume.h"
#include "index/tupleset.h"

enum { SEED_BATCH = 1 << 18 };  /* tuples seeded at once into a relation that holds some already: inputs
                                 * are large and come sorted by nothing, so smaller batches keep the peak
                                 * low (an empty relation takes them all at once, in their own memory:
                                 * ix_relation_stage_all, ix_relation_bulk) */

/* ---- components ---------------------------------------------------------------- */


/* Does column `col` of b hold only values that column c of h has seen? */
static int values_seen(const ix_relation *b, uint32_t col, const ix_relation *h, uint32_t c)
{
  for (uint32_t code = 0; code < ix_relation_column_values(b, col); code++)
    if (!ix_relation_column_has(h, c, ix_relation_column_value(b, col, code))) return 0;
  return 1;
}

/* Can argument c of rule r's head only take values that column c of the
 * head relation h has seen?  So for a constant it has seen, and for a
 * variable that is an argument of a positive body atom whose column has
 * seen no value h's has not. */
static int head_arg_seen(const dl_eval *e, uint32_t r, const ix_relation *h, uint32_t c)
{
  const dl_rule *rule = &e->prog->ast->rules[r];
  const ast_term *t = rule->head->args[c];
  if (t->kind == AST_SYM) {
    dl_tid id = dl_terms_find(e->terms, t->value, 0, NULL);
    return id != DL_NO_TERM && ix_relation_column_has(h, c, id);
  }
  if (t->kind != AST_VAR) return 0;
  for (uint32_t k = 0; k < rule->n_body; k++) {
    const ast_term *atom = rule->body[k].atom;
    if (rule->body[k].kind != DL_POS) continue;
    for (uint32_t j = 0; j < ast_atom_arity(atom); j++)
      if (atom->args[j]->kind == AST_VAR && atom->args[j]->value == t->value &&
          values_seen(e->rel[e->prog->lit_pred[r][k]], j, h, c))
        return 1;
  }
  return 0;
}

/* Can rule r add nothing to its head relation?  So when the relation holds
 * every combination of the values its columns have seen (a product, as the
 * 8.4 M threatened_with_capture atoms of chess's G+ are) and the rule can
 * only give each column values it has seen. */
static int adds_nothing(const dl_eval *e, uint32_t r)
{
  const ix_relation *h = e->rel[e->prog->head_pred[r]];
  if (!ix_relation_saturated(h)) return 0;
  for (uint32_t c = 0; c < ix_relation_arity(h); c++)
    if (!head_arg_seen(e, r, h, c)) return 0;
  return 1;
}

/* Which rules a call of run_rule runs: all, or (a non-recursive component
 * runs two passes) those whose plan has no witness search, then those whose
 * plan has one.  A plan with a witness search first asks whether its head is
 * known, which pays off most once the other rules have added theirs. */
enum { PASS_ALL, PASS_PLAIN, PASS_SEARCHES };

/* The plan of rule r's version delta_at.  In a recursive component's
 * rounds (delta_at >= 0), the version's last plan while what its order was
 * chosen for has not changed much (pl_plan_inputs): planning every version
 * every round costs more than a tenth of alexChess's G+.  Else a new plan,
 * built into *local for the first round and other components, but kept
 * for a non-recursive component's second pass (hold_plans).  NULL when out
 * of memory. */
static pl_plan *get_plan(dl_eval *e, uint32_t r, int delta_at, pl_plan *local)
{
  pl_context c = { e->prog, e->terms, e->rel, e->delta, e->in_scc };
  uint32_t v = e->version_at[r] + (uint32_t)delta_at + 1;
  if (delta_at < 0 && !e->keep_plans) {
    if (!e->hold_plans) return pl_plan_build(&c, r, delta_at, local) ? local : NULL;
    /* the relations it reads are below the component: the plan stays valid */
    if (!e->plan_ok[v]) e->plan_ok[v] = (uint8_t)pl_plan_build(&c, r, delta_at, &e->plans[v]);
    return e->plan_ok[v] ? &e->plans[v] : NULL;
  }
  /* a rule without variables is a list of lookups: its plan stays */
  int ground = e->keep_plans && e->prog->ast->rules[r].n_vars == 0;
  uint64_t inputs = ground ? 0 : pl_plan_inputs(&c, r, delta_at);
  int kept = e->plan_ok[v] && (ground || e->plan_inputs[v] == inputs);
  if (!kept) {
    /* new inputs: the order chosen may still be the plan's (a failed
     * build leaves a part of one: it goes) */
    if (!e->plan_ok[v]) pl_plan_free(&e->plans[v]);
    int built = pl_plan_rebuild(&c, r, delta_at, &e->plans[v]);
    e->plan_ok[v] = built != 0;
    e->plan_inputs[v] = inputs;
    if (built != 2) return built ? &e->plans[v] : NULL;
  }
  /* after a restart the relations it reads may be new ones */
  if (!e->keep_plans) pl_plan_ready(&c, &e->plans[v]);
  else if (!pl_plan_reindex(&c, &e->plans[v])) return NULL;
  return &e->plans[v];
}

/* Frees the plans get_plan kept for rule r. */
static void drop_plans(dl_eval *e, uint32_t r)
{
  for (uint32_t v = e->version_at[r]; v < e->version_at[r + 1]; v++) {
    pl_plan_free(&e->plans[v]);
    e->plan_ok[v] = 0;
  }
}

/* Runs fact r (no body, no variables) without a plan: programs of many
 * facts spend their time here. */
static int run_fact(dl_eval *e, uint32_t r, int mode)
{
  const ast_term *head = e->prog->ast->rules[r].head;
  uint32_t pred = e->prog->head_pred[r], n = ast_atom_arity(head);
  dl_tid tuple[IX_MAX_ARITY];
  for (uint32_t i = 0; i < n; i++)
    if ((tuple[i] = ast_ground_term(e->terms, head->args[i])) == DL_NO_TERM) {
      dl_eval_fail_term(e, pred);
      return 0;
    }
  e->rule_stats[r].runs++;
  e->rule_stats[r].derivations++;
  dl_eval_emit(e, pred, mode, tuple);
  return !e->failed;
}

static int run_rule(dl_eval *e, uint32_t r, int delta_at, int mode, int pass)
{
  const dl_rule *rule = &e->prog->ast->rules[r];
  if (rule->n_body == 0 && rule->n_vars == 0) return pass == PASS_SEARCHES || run_fact(e, r, mode);
  double t0 = e->keep_plans ? 0 : dl_clock_now();
  uint64_t d0 = e->stats.derivations, p0 = e->stats.in_products;
  dl_eval_rule_stats *rs = &e->rule_stats[r];
  pl_plan local = { 0 }, *pl = get_plan(e, r, delta_at, &local);
  if (!pl) {
    pl_plan_free(&local);
    dl_eval_fail_memory(e);
    return 0;
  }
  if (pass != PASS_ALL && (pass == PASS_SEARCHES) != (pl->cut < pl->n_steps)) {
    pl_plan_free(&local);
    return 1;
  }
  rs->runs++;
  if (mode == EMIT_DIRECT && ix_relation_staged(e->rel[pl->head_pred]) && ix_relation_may_saturate(e->rel[pl->head_pred]))
    dl_eval_flush_staged(e, pl->head_pred, mode);
  if (adds_nothing(e, r)) {
    rs->saturated++;
    pl_plan_free(&local);
    return !e->failed;
  }
  /* a plan with a witness search first asks whether its head is known */
  if (mode == EMIT_DIRECT && pl->cut < pl->n_steps) dl_eval_flush_staged(e, pl->head_pred, mode);
  int ok = dl_eval_run_plan(e, pl, mode);
  if (mode == EMIT_LINEAR && !e->failed) dl_eval_flush_staged(e, e->prog->head_pred[r], mode);
  rs->derivations += e->stats.derivations - d0;
  rs->in_products += e->stats.in_products - p0;
  if (!e->keep_plans) rs->seconds += dl_clock_now() - t0;
  rs->heads_first += pl->heads_first;
  pl_plan_free(&local);
  return ok && !e->failed;
}

/* Makes this round's new tuples the delta, moving them into the relations
 * unless they are there already.  Returns 1 with their number in *total; 0
 * when out of memory. */
static int merge(dl_eval *e, const uint32_t *preds, uint32_t n_preds, int inserted, uint64_t *total)
{
  *total = 0;
  for (uint32_t i = 0; i < n_preds; i++) {
    uint32_t p = preds[i];
    ix_tupleset tmp = e->delta[p];
    e->delta[p] = e->fresh[p];
    e->fresh[p] = tmp;
    ix_tupleset_clear(&e->fresh[p]);
    for (uint64_t t = 0; !inserted && t < e->delta[p].n; t++)
      if (!ix_relation_insert(e->rel[p], ix_tupleset_get(&e->delta[p], t), NULL)) return 0;
    *total += e->delta[p].n;
  }
  return 1;
}

/* Number of positive body atoms of rule r whose predicate is in the component. */
static uint32_t recursive_atoms(const dl_eval *e, uint32_t r)
{
  const dl_rule *rule = &e->prog->ast->rules[r];
  uint32_t n = 0;
  for (uint32_t k = 0; k < rule->n_body; k++)
    n += rule->body[k].kind == DL_POS && e->in_scc[e->prog->lit_pred[r][k]];
  return n;
}

/* The semi-naive rounds of a recursive component after its first, until
 * nothing is new (linear: see run_recursive). */
static int rounds(dl_eval *e, uint32_t c, const uint32_t *preds, uint32_t n_preds, int linear)
{
  int mode = EMIT_FRESH;
  for (;;) {
    e->stats.rounds++;
    uint64_t n;
    int ok = merge(e, preds, n_preds, mode == EMIT_LINEAR, &n);
    mode = linear ? EMIT_LINEAR : EMIT_FRESH;
    if (!ok) { dl_eval_fail_memory(e); return 0; }
    if (n == 0) return 1;
    for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++) {
      uint32_t r = e->rule_order[i];
      const dl_rule *rule = &e->prog->ast->rules[r];
      for (uint32_t k = 0; k < rule->n_body; k++) {
        uint32_t p = e->prog->lit_pred[r][k];
        if (rule->body[k].kind != DL_POS || !e->in_scc[p] || e->delta[p].n == 0) continue;
        if (!run_rule(e, r, (int)k, mode, PASS_ALL)) return 0;
      }
    }
  }
}

/* Runs a recursive component in semi-naive rounds.  When every rule has at
 * most one recursive atom (linear recursion), each version reads only the
 * delta of the component's relations, so new tuples can go straight into the
 * relations and the next delta needs no hashing. */
static int run_recursive(dl_eval *e, uint32_t c, const uint32_t *preds, uint32_t n_preds)
{
  int linear = 1;
  for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++)
    linear &= recursive_atoms(e, e->rule_order[i]) <= 1;
  /* the first round reads whole relations, so its tuples wait in fresh sets */
  for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++)
    if (!run_rule(e, e->rule_order[i], -1, EMIT_FRESH, PASS_ALL)) return 0;
  int ok = rounds(e, c, preds, n_preds, linear);
  for (uint32_t i = e->rule_start[c]; !e->keep_plans && i < e->rule_start[c + 1]; i++) drop_plans(e, e->rule_order[i]);
  return ok;
}

static int run_component(dl_eval *e, uint32_t c)
{
  const st_strata *s = e->prog->strata;
  uint32_t n_preds;
  const uint32_t *preds = dl_program_component_preds(e->prog, c, &n_preds);
  for (uint32_t i = 0; i < n_preds; i++) e->in_scc[preds[i]] = 1;
  int ok = 1;
  if (s->recursive[c]) {
    ok = run_recursive(e, c, preds, n_preds);
  } else {
    /* A rule may read a predicate it adds to (through another node, as in
     * p(a) :- p(b)); then new tuples wait until the component is done, as
     * a relation must not change under an iteration. */
    int reads_own = 0;
    for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++)
      reads_own |= recursive_atoms(e, e->rule_order[i]) > 0;
    e->stats.rounds++;
    e->hold_plans = !reads_own;
    for (int pass = reads_own ? PASS_ALL : PASS_PLAIN; ok && pass <= (reads_own ? PASS_ALL : PASS_SEARCHES); pass++)
      for (uint32_t i = e->rule_start[c]; ok && i < e->rule_start[c + 1]; i++)
        ok = run_rule(e, e->rule_order[i], -1, reads_own ? EMIT_FRESH : EMIT_DIRECT, pass);
    e->hold_plans = 0;
    for (uint32_t i = e->rule_start[c]; !reads_own && !e->keep_plans && i < e->rule_start[c + 1]; i++)
      drop_plans(e, e->rule_order[i]);
    /* staged tuples wait until the component is done: one sorted insert */
    for (uint32_t i = 0; ok && !reads_own && i < n_preds; i++) {
      dl_eval_flush_staged(e, preds[i], EMIT_DIRECT);
      ok = !e->failed;
    }
    uint64_t merged;
    if (ok && reads_own && !merge(e, preds, n_preds, 0, &merged)) {
      dl_eval_fail_memory(e);
      ok = 0;
    }
  }
  for (uint32_t i = 0; i < n_preds; i++) {
    uint32_t p = preds[i];
    e->in_scc[p] = 0;
    ix_tupleset_free(&e->delta[p]);
    ix_tupleset_free(&e->fresh[p]);
  }
  return ok;
}

/* ---- public --------------------------------------------------------------------- */

/* Groups the rules to run by the component of their head, leaving out the
 * rules another rule subsumes (subsume.h). */
static int group_rules(dl_eval *e)
{
  const st_strata *s = e->prog->strata;
  const ast_program *ast = e->prog->ast;
  uint32_t *by = malloc((ast->n_rules + 1) * sizeof *by);
  e->rule_start = calloc(s->n_sccs + 2, sizeof *e->rule_start);
  e->rule_order = malloc((ast->n_rules + 1) * sizeof *e->rule_order);
  if (!by || !e->rule_start || !e->rule_order) {
    free(by);
    return 0;
  }
  if (!dl_subsumed_rules(e->prog, by, &e->stats.subsumed)) {
    free(by);
    return 0;
  }
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    e->rule_stats[r].subsumed_by = by[r];
    e->rule_start[s->scc_of[e->prog->head_node[r]] + 2] += by[r] == DL_NOT_SUBSUMED;
  }
  for (uint32_t c = 0; c < s->n_sccs; c++) e->rule_start[c + 2] += e->rule_start[c + 1];
  for (uint32_t r = 0; r < ast->n_rules; r++)
    if (by[r] == DL_NOT_SUBSUMED) e->rule_order[e->rule_start[s->scc_of[e->prog->head_node[r]] + 1]++] = r;
  free(by);
  return 1;
}

dl_eval *dl_eval_create(const dl_program *p, const dl_eval_options *opt, dl_diag *diag)
{
  assert(p && opt && diag);
  dl_eval *e = calloc(1, sizeof *e);
  if (!e) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory during evaluation");
    return NULL;
  }
  e->prog = p;
  e->terms = p->terms;
  e->diag = diag;
  e->opt = *opt;
  uint32_t n = p->n_preds + 1;
  e->rel = calloc(n, sizeof *e->rel);
  e->delta = calloc(n, sizeof *e->delta);
  e->fresh = calloc(n, sizeof *e->fresh);
  e->in_scc = calloc(n, 1);
  e->rule_stats = calloc(p->ast->n_rules + 1, sizeof *e->rule_stats);
  e->version_at = malloc((p->ast->n_rules + 1) * sizeof *e->version_at);
  uint32_t n_versions = 0;
  for (uint32_t r = 0; e->version_at && r <= p->ast->n_rules; r++) {
    e->version_at[r] = n_versions;
    n_versions += r < p->ast->n_rules ? p->ast->rules[r].n_body + 1 : 0;
  }
  e->plans = calloc(n_versions + 1, sizeof *e->plans);
  e->plan_inputs = calloc(n_versions + 1, sizeof *e->plan_inputs);
  e->plan_ok = calloc(n_versions + 1, 1);
  int ok = e->rel && e->delta && e->fresh && e->in_scc && e->rule_stats && e->version_at && e->plans &&
           e->plan_inputs && e->plan_ok && group_rules(e);
  int too_wide = 0;
  for (uint32_t i = 0; ok && i < p->n_preds; i++) {
    if (p->preds[i].arity > IX_MAX_ARITY) {
      dl_diag_report(diag, DL_ERROR, p->preds[i].src, p->preds[i].off,
                     "'%s' has %u arguments; gdlog supports at most %d", dl_program_pred_name(p, i),
                     p->preds[i].arity, IX_MAX_ARITY);
      ok = 0, too_wide = 1;
      break;
    }
    e->rel[i] = ix_relation_create(p->preds[i].arity);
    ix_tupleset_init(&e->delta[i], p->preds[i].arity);
    ix_tupleset_init(&e->fresh[i], p->preds[i].arity);
    ok = e->rel[i] != NULL;
  }
  if (!ok) {
    if (!too_wide) dl_eval_fail_memory(e);
    dl_eval_destroy(e);
    return NULL;
  }
  return e;
}

void dl_eval_destroy(dl_eval *e)
{
  if (!e) return;
  for (uint32_t i = 0; e->rel && i < e->prog->n_preds; i++) {
    if (!e->given || !e->given[i]) ix_relation_destroy(e->rel[i]);
    if (e->delta) ix_tupleset_free(&e->delta[i]);
    if (e->fresh) ix_tupleset_free(&e->fresh[i]);
  }
  free(e->rel);
  free(e->given);
  free(e->delta);
  free(e->fresh);
  free(e->in_scc);
  free(e->rule_stats);
  for (uint32_t r = 0; e->plans && e->plan_ok && e->version_at && r < e->prog->ast->n_rules; r++) drop_plans(e, r);
  free(e->version_at);
  free(e->plans);
  free(e->plan_inputs);
  free(e->plan_ok);
  free(e->rule_start);
  free(e->rule_order);
  free(e->rerun);
  free(e->dirty);
  free(e->all_start);
  free(e->all_order);
  free(e->recent);
  free(e->released);
  free(e->recent_pred);
  free(e);
}

int dl_eval_seed(dl_eval *e, uint32_t pred, const dl_tid *tuple)
{
  assert(e && tuple && pred < e->prog->n_preds);
  assert(e->stats.rounds == 0 && e->stats.derivations == 0);  /* not run yet */
  assert(!e->rerun || e->dirty[pred]);                        /* emptied by the restart */
  assert(!e->given || !e->given[pred]);
  if (ix_relation_insert(e->rel[pred], tuple, NULL)) return 1;
  dl_eval_fail_memory(e);
  return 0;
}

enum { EXPECT_FROM = 1 << 12 };  /* seeded tuples from which an empty relation's columns are sized first */

/* The number of values of the smallest width, a multiple of 4 bits, that
 * holds n values.  Relations start with 4-bit columns and widen them 2 bits
 * at a time, so these are widths a relation could grow to; and Judy's
 * memory per key depends much on where a column's bits start in the bytes
 * of a key (4 to 17 bytes a key for the same 1.5 M random pairs of 375,000
 * values at 20 and at 19 bits a column): columns that start on a nibble
 * cost the least (reach's 1 M edges of 250,000 values at 20 bits, not 18:
 * peak 55.5 -> 49.5 MiB, the same time). */
static uint64_t nibble_width(uint64_t n)
{
  uint32_t bits = 0;
  while (((uint64_t)1 << bits) < n) bits += 4;
  return (uint64_t)1 << bits;
}

/* Sizes the columns of pred's relation, when it is empty and n is large,
 * for the number of distinct terms in each column of tuples: its keys then
 * have their final width from the first insert, where growing codes would
 * re-lay out every key inserted so far at each doubling.  Skipped when out
 * of memory. */
static void expect_columns(dl_eval *e, uint32_t pred, const dl_tid *tuples, uint64_t n, uint32_t arity)
{
  ix_relation *r = e->rel[pred];
  if (n < EXPECT_FROM || ix_relation_size(r) != 0 || ix_relation_staged(r) != 0) return;
  uint32_t n_terms = dl_terms_count(e->prog->terms);
  size_t n_words = (size_t)n_terms / 64 + 1;
  uint64_t *seen = malloc(n_words * sizeof *seen), values[IX_MAX_ARITY];
  int ok = seen != NULL;
  for (uint32_t c = 0; ok && c < arity; c++) {
    memset(seen, 0, n_words * sizeof *seen);
    values[c] = 0;
    for (uint64_t i = 0; ok && i < n; i++) {
      dl_tid t = tuples[i * arity + c];
      if (!(ok = t < n_terms)) break;
      values[c] += !(seen[t >> 6] >> (t & 63) & 1);
      seen[t >> 6] |= (uint64_t)1 << (t & 63);
    }
  }
  free(seen);
  for (uint32_t c = 0; ok && c < arity; c++) values[c] = nibble_width(values[c]);
  if (ok) ix_relation_expect(r, values);
}

int dl_eval_seed_all(dl_eval *e, uint32_t pred, dl_tid *tuples, uint64_t n)
{
  assert(e && (tuples || n == 0) && pred < e->prog->n_preds);
  assert(e->stats.rounds == 0 && e->stats.derivations == 0);  /* not run yet */
  assert(!e->rerun || e->dirty[pred]);
  assert(!e->given || !e->given[pred]);
  uint32_t arity = e->prog->preds[pred].arity;
  if (arity == 0) {
    int ok = n == 0 || dl_eval_seed(e, pred, tuples);
    free(tuples);
    return ok;
  }
  expect_columns(e, pred, tuples, n, arity);
  ix_relation *r = e->rel[pred];
  if (ix_relation_size(r) == 0 && ix_relation_staged(r) == 0) {  /* all at once, in the tuples' own memory */
    ix_relation_bulk(r);
    if (!ix_relation_stage_all(r, tuples, n)) dl_eval_fail_memory(e);
    if (!e->failed) dl_eval_flush_staged(e, pred, EMIT_DIRECT);
    return !e->failed;
  }
  for (uint64_t i = 0; i < n && !e->failed; i++) {
    if (!ix_relation_stage(r, tuples + i * arity, NULL)) dl_eval_fail_memory(e);
    else if (ix_relation_staged(r) >= SEED_BATCH) dl_eval_flush_staged(e, pred, EMIT_DIRECT);
  }
  free(tuples);
  if (!e->failed) dl_eval_flush_staged(e, pred, EMIT_DIRECT);
  return !e->failed;
}

int dl_eval_seed_inputs(dl_eval *e, dl_facts *facts)
{
  assert(e);
  for (uint32_t i = 0; facts && i < facts->n; i++) {
    uint32_t pred = e->prog->input_pred[i];
    uint64_t n = facts->files[i].n;
    if (pred != DL_NO_PRED && !dl_eval_seed_all(e, pred, dl_facts_hand_over(facts, i), n)) return 0;
  }
  return 1;
}

void dl_eval_expect(dl_eval *e, uint32_t pred, const uint64_t *values)
{
  assert(e && values && pred < e->prog->n_preds && (!e->given || !e->given[pred]));
  assert(e->stats.rounds == 0 && e->stats.derivations == 0 && !e->rerun);  /* not run yet */
  if (ix_relation_size(e->rel[pred]) == 0) ix_relation_expect(e->rel[pred], values);
}

int dl_eval_give(dl_eval *e, uint32_t pred, ix_relation *r)
{
  assert(e && r && pred < e->prog->n_preds && ix_relation_arity(r) == e->prog->preds[pred].arity);
  assert(e->stats.rounds == 0 && e->stats.derivations == 0 && !e->rerun);  /* not run yet */
  if (!e->given && !(e->given = calloc(e->prog->n_preds + 1, 1))) {
    dl_eval_fail_memory(e);
    return 0;
  }
  if (!e->given[pred]) ix_relation_destroy(e->rel[pred]);
  e->rel[pred] = r;
  e->given[pred] = 1;
  return 1;
}

/* Whether the predicates of component c are given (dl_eval_give): all of
 * them, or none (a precondition of dl_eval_give). */
static int component_given(const dl_eval *e, uint32_t c)
{
  if (!e->given) return 0;
  uint32_t n_preds, given = 0;
  const uint32_t *preds = dl_program_component_preds(e->prog, c, &n_preds);
  for (uint32_t i = 0; i < n_preds; i++) given += e->given[preds[i]];
  assert(given == 0 || given == n_preds);
  return given > 0;
}

int dl_eval_run(dl_eval *e)
{
  assert(e && !e->released);
  double t0 = dl_clock_now();
  const st_strata *s = e->prog->strata;
  int ok = 1;
  for (uint32_t c = 0; ok && c < s->n_sccs; c++)
    if ((!e->rerun || e->rerun[c]) && !component_given(e, c)) ok = run_component(e, c);
  e->stats.atoms = 0;
  for (uint32_t p = 0; p < e->prog->n_preds; p++) e->stats.atoms += ix_relation_size(e->rel[p]);
  e->stats.seconds = dl_clock_now() - t0;
  return ok;
}

void dl_eval_set_options(dl_eval *e, const dl_eval_options *opt)
{
  assert(e && opt);
  e->opt = *opt;
}

const ix_relation *dl_eval_relation(const dl_eval *e, uint32_t pred)
{
  assert(pred < e->prog->n_preds);
  return e->rel[pred];
}

int dl_eval_release(dl_eval *e, uint32_t pred)
{
  assert(e && pred < e->prog->n_preds && !e->failed);
  uint32_t n = e->prog->n_preds;
  if (!e->released && (e->released = malloc(n * sizeof *e->released)))
    for (uint32_t p = 0; p < n; p++) e->released[p] = ix_relation_size(e->rel[p]);
  ix_relation *empty = e->released ? ix_relation_create(e->prog->preds[pred].arity) : NULL;
  if (!empty) {
    dl_eval_fail_memory(e);
    return 0;
  }
  if (!e->given || !e->given[pred]) ix_relation_destroy(e->rel[pred]);
  else e->given[pred] = 0;  /* the borrowed relation stays its owner's; the empty one is e's */
  e->rel[pred] = empty;
  return 1;
}

uint64_t dl_eval_size(const dl_eval *e, uint32_t pred)
{
  assert(e && pred < e->prog->n_preds);
  return e->released ? e->released[pred] : ix_relation_size(e->rel[pred]);
}

dl_eval_stats dl_eval_get_stats(const dl_eval *e) { return e->stats; }

dl_eval_rule_stats dl_eval_get_rule_stats(const dl_eval *e, uint32_t r)
{
  assert(r < e->prog->ast->n_rules);
  return e->rule_stats[r];
}
