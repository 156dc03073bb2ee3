/* backend_rules.c: the machine of a game's rules, over the state machine of
 * sm.h (one model of the rules per state, evaluated as they are or
 * demand-driven).  A state is its sorted fluent term ids; a move is the
 * term id of its action (the same id for every role). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/sort.h"
#include "datalog/machine/machine.h"
#include "datalog/machine/sm.h"

typedef struct rules_machine {
  dl_machine m;
  dl_sm *sm;
} rules_machine;

static rules_machine *rm_of(dl_machine *m) { return (rules_machine *)m; }

static void rm_destroy(dl_machine *m)
{
  dl_sm_destroy(rm_of(m)->sm);
  free(m);
}

/* The status of a failure sm reported (its last error): NOMEM or LIMIT
 * (limits, a stop; every other failure of sm is the contract's, which
 * this backend does not ask it to check). */
static dl_mstatus failure(const dl_machine *m)
{
  return dl_diag_last_cause(m->diag) == DL_CAUSE_NOMEM ? DL_M_NOMEM : DL_M_LIMIT;
}

/* A state of m of the n ids of data; NULL when out of memory. */
static dl_mstate *state_make(const dl_machine *m, const dl_tid *ids, uint32_t n)
{
  dl_mstate *s = dl_mstate_alloc(m, n, n * (uint32_t)sizeof *ids);
  if (s && n) memcpy(s->data, ids, n * sizeof *ids);
  return s;
}

static const dl_tid *ids_of(const dl_mstate *s) { return (const dl_tid *)(const void *)s->data; }

static dl_mstatus rm_initial(dl_machine *m, dl_mstate **s)
{
  uint32_t n;
  const dl_tid *ids = dl_sm_initial(rm_of(m)->sm, &n);
  *s = state_make(m, ids, n);
  return *s ? DL_M_OK : dl_machine_nomem(m);
}

static dl_mstatus rm_terminal(dl_machine *m, const dl_mstate *s, int *terminal)
{
  return dl_sm_terminal(rm_of(m)->sm, ids_of(s), s->n, terminal) ? DL_M_OK : failure(m);
}

static dl_mstatus rm_legal(dl_machine *m, const dl_mstate *s, uint32_t role, dl_ids *out)
{
  return dl_sm_legal_moves(rm_of(m)->sm, ids_of(s), s->n, role, out) ? DL_M_OK : failure(m);
}

/* The number (at most 9 digits) that constant t names, or -1. */
static int32_t goal_number(const dl_terms *terms, dl_tid t)
{
  if (dl_terms_arity(terms, t) != 0) return -1;
  size_t len;
  const char *z = dl_terms_name(terms, dl_terms_functor(terms, t), &len);
  if (len == 0 || len > 9) return -1;
  int32_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (z[i] < '0' || z[i] > '9') return -1;
    v = 10 * v + (z[i] - '0');
  }
  return v;
}

static dl_mstatus rm_goal(dl_machine *m, const dl_mstate *s, uint32_t role, dl_goal_found *g)
{
  dl_ids values = { 0 };
  int ok = dl_sm_goal_values(rm_of(m)->sm, ids_of(s), s->n, role, &values);
  if (ok) *g = (dl_goal_found){ values.n, values.n == 1 ? goal_number(m->terms, values.ids[0]) : -1, 0 };
  for (uint32_t i = 0; ok && i < values.n && g->sum >= 0; i++) {
    int32_t v = goal_number(m->terms, values.ids[i]);
    g->sum = v < 0 ? -1 : g->sum + v;
  }
  dl_ids_free(&values);
  return ok ? DL_M_OK : failure(m);
}

static dl_mstatus rm_next(dl_machine *m, const dl_mstate *s, const uint32_t *joint, dl_mstate **next)
{
  dl_ids out = { 0 };
  int ok = dl_sm_next(rm_of(m)->sm, ids_of(s), s->n, joint, &out);
  *next = ok ? state_make(m, out.ids, out.n) : NULL;
  dl_ids_free(&out);
  return !ok ? failure(m) : *next ? DL_M_OK : dl_machine_nomem(m);
}

static dl_tid rm_move_term(const dl_machine *m, uint32_t move)
{
  (void)m;
  return move;
}

static int rm_move_valid(const dl_machine *m, uint32_t move) { return move < dl_terms_count(m->terms); }

static uint32_t rm_move_of(const dl_machine *m, uint32_t role, dl_tid action)
{
  (void)m, (void)role;
  return action;
}

static int compare_tid(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  dl_tid x = *(const dl_tid *)a, y = *(const dl_tid *)b;
  return (x > y) - (x < y);
}

static dl_mstatus rm_state_of(dl_machine *m, dl_tid *fluents, uint32_t n, dl_mstate **s, uint32_t *unknown)
{
  (void)m, (void)unknown;
  dl_sort(fluents, n, sizeof *fluents, compare_tid, NULL);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (k == 0 || fluents[k - 1] != fluents[i]) fluents[k++] = fluents[i];
  *s = state_make(m, fluents, k);
  return *s ? DL_M_OK : dl_machine_nomem(m);
}

static dl_mstatus rm_fluents(const dl_machine *m, const dl_mstate *s, dl_ids *out)
{
  (void)m;
  if (!dl_ids_reserve(out, s->n)) return dl_machine_nomem(m);
  if (s->n) memcpy(out->ids, ids_of(s), s->n * sizeof *out->ids);
  out->n = s->n;
  return DL_M_OK;
}

static void rm_describe(const dl_machine *m, int json, dl_buf *b)
{
  const dl_sm *sm = ((const rules_machine *)m)->sm;
  int demand = dl_sm_uses_demand(sm);
  if (json) dl_buf_addf(b, "\"demand\": %s,\n", demand ? "true" : "false");
  else dl_buf_addf(b, "rules      %s\n", demand ? "demand-driven (magic-set rewriting)" : "as they are");
}

static const dl_machine_ops rules_ops = {
  .name = "rules",
  .destroy = rm_destroy,
  .initial = rm_initial,
  .terminal = rm_terminal,
  .legal = rm_legal,
  .goal = rm_goal,
  .next = rm_next,
  .move_term = rm_move_term,
  .move_valid = rm_move_valid,
  .move_of = rm_move_of,
  .state_of = rm_state_of,
  .fluents = rm_fluents,
  .playouts = NULL,
  .describe = rm_describe,
};

dl_machine *dl_machine_rules(dl_sm *sm, dl_terms *terms, dl_diag *diag)
{
  assert(sm && diag && terms == dl_sm_terms(sm));
  rules_machine *rm = calloc(1, sizeof *rm);
  if (!rm) return NULL;
  uint32_t n;
  const dl_tid *roles = dl_sm_roles(sm, &n);
  rm->m = (dl_machine){ .ops = &rules_ops, .diag = diag, .terms = terms, .n_roles = n, .roles = roles };
  rm->sm = sm;
  return &rm->m;
}

int dl_machine_uses_demand(const dl_machine *m)
{
  assert(m);
  return m->ops == &rules_ops && dl_sm_uses_demand(((const rules_machine *)m)->sm);
}
