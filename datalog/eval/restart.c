/* restart.c: dl_eval_restart and dl_eval_recomputed (see eval.h): another
 * run in which some inputs are seeded anew, keeping the relations and plans
 * that they do not reach. */
#include "datalog/eval/eval_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Groups every rule, subsumed ones too, by the component of its head into
 * all_start/all_order (once). */
static int group_all_rules(dl_eval *e)
{
  if (e->all_order) return 1;
  const st_strata *s = e->prog->strata;
  uint32_t n_rules = e->prog->ast->n_rules;
  e->all_start = calloc(s->n_sccs + 2, sizeof *e->all_start);
  e->all_order = malloc((n_rules + 1) * sizeof *e->all_order);
  if (!e->all_start || !e->all_order) return 0;
  for (uint32_t r = 0; r < n_rules; r++) e->all_start[s->scc_of[e->prog->head_node[r]] + 2]++;
  for (uint32_t c = 0; c < s->n_sccs; c++) e->all_start[c + 2] += e->all_start[c + 1];
  for (uint32_t r = 0; r < n_rules; r++) e->all_order[e->all_start[s->scc_of[e->prog->head_node[r]] + 1]++] = r;
  return 1;
}

/* Marks component c to run again and its predicates dirty; 1 when it was
 * not marked yet. */
static int mark_component(dl_eval *e, uint32_t c)
{
  if (e->rerun[c]) return 0;
  e->rerun[c] = 1;
  uint32_t n_preds;
  const uint32_t *preds = dl_program_component_preds(e->prog, c, &n_preds);
  for (uint32_t i = 0; i < n_preds; i++) e->dirty[preds[i]] = 1;
  return 1;
}

/* Does a rule of component c read a dirty predicate? */
static int reads_dirty(const dl_eval *e, uint32_t c)
{
  for (uint32_t i = e->all_start[c]; i < e->all_start[c + 1]; i++) {
    uint32_t r = e->all_order[i];
    for (uint32_t k = 0; k < e->prog->ast->rules[r].n_body; k++) {
      uint32_t p = e->prog->lit_pred[r][k];
      if (p != DL_NO_PRED && e->dirty[p]) return 1;
    }
  }
  return 0;
}

/* The components to run again, in e->rerun, and the predicates to empty, in
 * e->dirty: those of the inputs and of every component that reads a dirty
 * predicate, or that has a node of one (a predicate's relation is shared by
 * the components of its nodes), until nothing changes. */
static void find_dirty(dl_eval *e, const uint32_t *inputs, uint32_t n)
{
  const dl_program *p = e->prog;
  const st_strata *s = p->strata;
  memset(e->rerun, 0, s->n_sccs + 1);
  memset(e->dirty, 0, p->n_preds + 1);
  for (uint32_t i = 0; i < n; i++) e->dirty[inputs[i]] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t node = 0; node < p->n_nodes; node++)
      if (e->dirty[p->node_pred[node]]) changed |= mark_component(e, s->scc_of[node]);
    for (uint32_t c = 0; c < s->n_sccs; c++)
      if (!e->rerun[c] && reads_dirty(e, c)) changed |= mark_component(e, c);
  }
}

int dl_eval_restart(dl_eval *e, const uint32_t *inputs, uint32_t n)
{
  assert(e && (inputs || n == 0) && !e->failed && !e->given && !e->released);
  const dl_program *p = e->prog;
  for (uint32_t i = 0; i < n; i++) assert(inputs[i] < p->n_preds);
  if (!e->rerun) {
    e->rerun = calloc(p->strata->n_sccs + 1, 1);
    e->dirty = calloc(p->n_preds + 1, 1);
  }
  if (!e->rerun || !e->dirty || !group_all_rules(e)) {
    dl_eval_fail_memory(e);
    return 0;
  }
  find_dirty(e, inputs, n);
  dl_eval_forget_recent(e);
  e->keep_plans = 1;
  e->atoms = 0;
  for (uint32_t i = 0; i < p->n_preds; i++) {
    if (e->dirty[i]) {
      ix_relation_destroy(e->rel[i]);
      if (!(e->rel[i] = ix_relation_create(p->preds[i].arity))) {
        dl_eval_fail_memory(e);
        return 0;
      }
    }
    e->atoms += ix_relation_size(e->rel[i]);
  }
  uint32_t subsumed = e->stats.subsumed;
  memset(&e->stats, 0, sizeof e->stats);
  e->stats.subsumed = subsumed;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    uint32_t by = e->rule_stats[r].subsumed_by;
    memset(&e->rule_stats[r], 0, sizeof e->rule_stats[r]);
    e->rule_stats[r].subsumed_by = by;
  }
  return 1;
}

int dl_eval_recomputed(const dl_eval *e, uint32_t pred)
{
  assert(e && pred < e->prog->n_preds);
  return !e->rerun || e->dirty[pred];
}
