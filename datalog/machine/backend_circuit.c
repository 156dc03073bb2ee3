/* backend_circuit.c: the machine of a compiled circuit (circuit.h).  A
 * state is the circuit's bitset of fluents; a move is the circuit's move
 * index (one role's).  The circuit holds one current state: each question
 * first positions it on the state asked about (cheap when it is already
 * there: differential).  Playouts run in the circuit, 256 at a time when it
 * has the bit-parallel program. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/clock.h"
#include "datalog/base/sort.h"
#include "datalog/circuit/circuit.h"
#include "datalog/machine/machine.h"

/* A fluent and its index, sorted by term: to read states. */
typedef struct fluent_entry {
  dl_tid term;
  uint32_t index;
} fluent_entry;

typedef struct circuit_machine {
  dl_machine m;
  dl_circuit *c;
  dl_tid *roles;
  fluent_entry *fluents;     /* sorted by term */
  uint32_t n_fluents, words;
} circuit_machine;

static circuit_machine *cm_of(dl_machine *m) { return (circuit_machine *)m; }
static const circuit_machine *ccm_of(const dl_machine *m) { return (const circuit_machine *)m; }

static void cm_destroy(dl_machine *m)
{
  circuit_machine *cm = cm_of(m);
  dl_circuit_destroy(cm->c);
  free(cm->roles);
  free(cm->fluents);
  free(cm);
}

/* A state of cm, all fluents false; NULL when out of memory. */
static dl_mstate *blank_state(const circuit_machine *cm)
{
  return dl_mstate_alloc(&cm->m, cm->words, cm->words * (uint32_t)sizeof(uint64_t));
}

/* Positions the circuit on s. */
static dl_mstatus cm_on(circuit_machine *cm, const dl_mstate *s)
{
  assert(s->n == cm->words);
  return dl_circuit_set_state(cm->c, s->data) ? DL_M_OK : dl_machine_nomem(&cm->m);
}

static dl_mstatus cm_initial(dl_machine *m, dl_mstate **s)
{
  circuit_machine *cm = cm_of(m);
  if (!(*s = blank_state(cm))) return dl_machine_nomem(m);
  dl_circuit_initial(cm->c, (*s)->data);
  return DL_M_OK;
}

static dl_mstatus cm_terminal(dl_machine *m, const dl_mstate *s, int *terminal)
{
  circuit_machine *cm = cm_of(m);
  dl_mstatus st = cm_on(cm, s);
  if (st == DL_M_OK) *terminal = dl_circuit_terminal(cm->c);
  return st;
}

static int compare_u32(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static dl_mstatus cm_legal(dl_machine *m, const dl_mstate *s, uint32_t role, dl_ids *out)
{
  circuit_machine *cm = cm_of(m);
  dl_mstatus st = cm_on(cm, s);
  if (st != DL_M_OK) return st;
  const uint32_t *moves;
  uint32_t n = dl_circuit_legal(cm->c, role, &moves);
  if (!dl_ids_reserve(out, n)) return dl_machine_nomem(m);
  if (n) memcpy(out->ids, moves, n * sizeof *moves);
  out->n = n;
  dl_sort(out->ids, n, sizeof *out->ids, compare_u32, NULL);
  return DL_M_OK;
}

/* dl_circuit_goal's answer as a number of goal values. */
static uint32_t goal_count(int ok, int32_t v)
{
  return ok ? 1 : v == 0 ? 0 : (uint32_t)-v;
}

static dl_mstatus cm_goal(dl_machine *m, const dl_mstate *s, uint32_t role, dl_goal_found *g)
{
  circuit_machine *cm = cm_of(m);
  dl_mstatus st = cm_on(cm, s);
  if (st != DL_M_OK) return st;
  int32_t count, sum;
  dl_circuit_goal_atoms(cm->c, role, &count, &sum);
  *g = (dl_goal_found){ (uint32_t)count, count == 1 ? sum : -1, sum };
  return DL_M_OK;
}

static dl_mstatus cm_next(dl_machine *m, const dl_mstate *s, const uint32_t *joint, dl_mstate **next)
{
  circuit_machine *cm = cm_of(m);
  dl_mstatus st = cm_on(cm, s);
  if (st != DL_M_OK) return st;
  if (!(*next = blank_state(cm))) return dl_machine_nomem(m);
  if (dl_circuit_next(cm->c, joint, (*next)->data)) return DL_M_OK;
  free(*next);
  *next = NULL;
  return dl_machine_nomem(m);
}

static dl_tid cm_move_term(const dl_machine *m, uint32_t move) { return dl_circuit_move_term(ccm_of(m)->c, move); }

static int cm_move_valid(const dl_machine *m, uint32_t move) { return move < dl_circuit_move_count(ccm_of(m)->c); }

static uint32_t cm_move_of(const dl_machine *m, uint32_t role, dl_tid action)
{
  const dl_circuit *c = ccm_of(m)->c;
  uint32_t n = dl_circuit_move_count(c);
  for (uint32_t i = 0; i < n; i++)
    if (dl_circuit_move_role(c, i) == role && dl_circuit_move_term(c, i) == action) return i;
  return DL_NO_MOVE;
}

/* The circuit's index of fluent t, or UINT32_MAX. */
static uint32_t fluent_index(const circuit_machine *cm, dl_tid t)
{
  uint32_t lo = 0, hi = cm->n_fluents;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (cm->fluents[mid].term < t) lo = mid + 1;
    else hi = mid;
  }
  return lo < cm->n_fluents && cm->fluents[lo].term == t ? cm->fluents[lo].index : UINT32_MAX;
}

static dl_mstatus cm_state_of(dl_machine *m, dl_tid *fluents, uint32_t n, dl_mstate **s, uint32_t *unknown)
{
  circuit_machine *cm = cm_of(m);
  if (!(*s = blank_state(cm))) return dl_machine_nomem(m);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t f = fluent_index(cm, fluents[i]);
    if (f == UINT32_MAX) {
      free(*s);
      *s = NULL;
      *unknown = i;
      return DL_M_INPUT;
    }
    (*s)->data[f / 64] |= (uint64_t)1 << (f % 64);
  }
  return DL_M_OK;
}

static uint32_t cm_fluent_bit(const dl_machine *m, dl_tid fluent) { return fluent_index(ccm_of(m), fluent); }

static dl_mstatus cm_fluents(const dl_machine *m, const dl_mstate *s, dl_ids *out)
{
  const circuit_machine *cm = ccm_of(m);
  out->n = 0;
  if (!dl_ids_reserve(out, cm->n_fluents)) return dl_machine_nomem(m);
  for (uint32_t f = 0; f < cm->n_fluents; f++)
    if (s->data[f / 64] >> (f % 64) & 1) out->ids[out->n++] = dl_circuit_fluent_term(cm->c, f);
  return DL_M_OK;
}

/* ---- playouts ---- */

/* A run of playouts: what they need, and what they gave. */
typedef struct run {
  circuit_machine *cm;
  const dl_playout_options *o;
  dl_playout_totals *t;
  int32_t *goals;          /* room for a goal per role */
  int32_t *goal_n;         /* room for a number of goal values per role */
  dl_goal_found *found;    /* room for a role's goal atoms per role */
  double t0;
  uint64_t ended;          /* playouts ended, errors included */
  dl_mstatus st;
} run;

/* Whether the run is to stop before its next playout: the time limit or
 * the machine's stop. */
static int run_over(const run *r)
{
  return (r->o->time_limit > 0 && dl_clock_now() - r->t0 >= r->o->time_limit) || dl_stop_requested(r->cm->m.stop);
}

/* Reports how playout `index` ended before its end (out of memory, too
 * deep, a role without a legal move); returns its status. */
static dl_mstatus playout_failed(run *r, dl_playout p, uint64_t index)
{
  dl_machine *m = &r->cm->m;
  if (p.status == DL_PLAYOUT_NO_MEMORY) return dl_machine_nomem(m);
  if (p.status == DL_PLAYOUT_TOO_DEEP) return dl_machine_playout_fault(m, index, DL_FAULT_DEEP, 0, p.depth);
  return dl_machine_playout_fault(m, index, DL_FAULT_NO_LEGAL, p.role, p.depth);
}

/* Ends playout `index` that finished as p; goals and goal_n per role as
 * dl_wide_result has them (goal_n NULL: one value each).  1 when the run
 * goes on. */
static int end_playout(run *r, dl_playout p, uint64_t index, const int32_t *goals, const int32_t *goal_n)
{
  if (p.status != DL_PLAYOUT_OK && p.status != DL_PLAYOUT_BAD_GOAL) {
    r->st = playout_failed(r, p, index);
    return 0;
  }
  for (uint32_t q = 0; q < r->cm->m.n_roles; q++) {
    uint32_t n = goal_n ? (uint32_t)goal_n[q] : 1;
    r->found[q] = (dl_goal_found){ n, n == 1 ? goals[q] : -1, 0 };
  }
  r->st = dl_machine_playout_end(&r->cm->m, r->o, index, p.depth, r->found, r->goals, r->t);
  return r->st == DL_M_OK;
}

static int wide_done(void *ctx, const dl_wide_result *res)
{
  run *r = ctx;
  uint64_t index = r->ended++;
  if (!end_playout(r, res->p, index, res->goals, res->goal_n)) return 0;
  return (index & 63) != 63 || !run_over(r);
}

/* The playouts DL_WIDE_LANES at a time. */
_Static_assert(DL_WIDE_LANES == DL_M_LANES_WIDE, "the machine's bit-parallel lanes are the circuit's");
static void run_wide(run *r, const dl_mstate *start, dl_rng *rng)
{
  if (!dl_circuit_wide_playouts(r->cm->c, start->data, rng, r->o->n, r->o->max_depth, 0, r->cm->m.stop, wide_done, r))
    r->st = dl_machine_nomem(&r->cm->m);
}

/* Every role's goals in the circuit's current state, into r->goals and
 * r->goal_n (a playout stopped at the first role without one value). */
static void read_goals(run *r)
{
  for (uint32_t q = 0; q < r->cm->m.n_roles; q++) {
    int ok = dl_circuit_goal(r->cm->c, q, &r->goals[q]);
    r->goal_n[q] = (int32_t)goal_count(ok, r->goals[q]);
  }
}

/* The playouts one at a time. */
static void run_narrow(run *r, const dl_mstate *start, dl_rng *rng)
{
  for (uint64_t i = 0; i < r->o->n; i++) {
    if ((i & 15) == 0 && run_over(r)) break;
    dl_playout p = dl_circuit_playout(r->cm->c, start->data, rng, r->o->max_depth, r->cm->m.stop, r->goals);
    if (p.status == DL_PLAYOUT_STOPPED) break;  /* dl_machine_playouts reports the stop */
    if (p.status == DL_PLAYOUT_BAD_GOAL) read_goals(r);
    if (!end_playout(r, p, i, r->goals, p.status == DL_PLAYOUT_BAD_GOAL ? r->goal_n : NULL)) break;
  }
}

static dl_mstatus cm_playouts(dl_machine *m, const dl_mstate *start, const dl_playout_options *o, dl_playout_totals *t)
{
  circuit_machine *cm = cm_of(m);
  run r = { cm, o, t, calloc(m->n_roles + 1, sizeof *r.goals), calloc(m->n_roles + 1, sizeof *r.goal_n),
            calloc(m->n_roles + 1, sizeof *r.found), dl_clock_now(), 0, DL_M_OK };
  if (!r.goals || !r.goal_n || !r.found) {
    free(r.goals), free(r.goal_n), free(r.found);
    return dl_machine_nomem(m);
  }
  int wide = o->lanes != 1 && dl_circuit_has_wide(cm->c);
  if (o->lanes == DL_M_LANES_WIDE && !wide) {
    free(r.goals), free(r.goal_n), free(r.found);
    dl_diag_report(m->diag, DL_ERROR, NULL, 0, "%u lanes need an eager circuit whose legal moves, goals and terminal "
                   "read no move: %s", DL_M_LANES_WIDE, dl_circuit_get_stats(cm->c).lazy_gates ?
                   "this one is lazy (--circuit eager makes it eager)" : "here they read a move");
    return DL_M_INPUT;
  }
  dl_rng rng;
  dl_rng_seed(&rng, o->seed);
  t->lanes = wide ? DL_M_LANES_WIDE : 1;
  if (wide) run_wide(&r, start, &rng);
  else run_narrow(&r, start, &rng);
  free(r.goals), free(r.goal_n), free(r.found);
  return r.st;
}

/* ---- figures ---- */

static void cm_describe(const dl_machine *m, int json, dl_buf *b)
{
  dl_circuit_stats s = dl_circuit_get_stats(ccm_of(m)->c);
  if (json) {
    dl_buf_addf(b, "\"bytes_per_state\": %u, \"circuit_bytes\": %zu, \"gates\": %u, \"and\": %u, \"or\": %u, "
                "\"inputs\": %u, \"wires\": %u, \"negated_wires\": %u,\n", s.state_words * 8, s.bytes, s.gates,
                s.and_gates, s.or_gates, s.inputs, s.edges, s.negated);
    dl_buf_addf(b, "\"cyclic_blocks\": %u, \"cyclic_gates\": %u, \"fluents\": %u, \"moves\": %u, \"lazy_gates\": %u, "
                "\"lazy_wires\": %u, \"lazy_next_rules\": %u, \"checked_moves\": %u, \"one_hot_groups\": %u, "
                "\"keyed_moves\": %u, \"move_keys\": %u, \"selected_ands\": %u, \"watched_ands\": %u,\n", s.cyclic_blocks,
                s.cyclic_gates, s.fluents, s.moves, s.lazy_gates, s.lazy_wires, s.lazy_next_rules, s.checked_moves,
                s.one_hot_groups, s.keyed_moves, s.move_keys, s.selected_ands, s.watched_ands);
    return;
  }
  dl_buf_addf(b, "circuit    %u gates (%u and, %u or, %u inputs), %u wires (%u negated), %u cyclic blocks of %u gates,"
              " %zu bytes\n", s.gates, s.and_gates, s.or_gates, s.inputs, s.edges, s.negated, s.cyclic_blocks,
              s.cyclic_gates, s.bytes);
  if (s.lazy_gates)
    dl_buf_addf(b, "lazy       %u gates, %u wires: evaluated when asked, not kept up to date; %u next rules\n",
                s.lazy_gates, s.lazy_wires, s.lazy_next_rules);
  dl_buf_addf(b, "state      %u fluents in %u words: %u bytes per state; %u moves", s.fluents, s.state_words,
              s.state_words * 8, s.moves);
  if (s.checked_moves) dl_buf_addf(b, ", %u of them checked when drawn", s.checked_moves);
  if (s.keyed_moves) dl_buf_addf(b, " (%u listed under %u keys)", s.keyed_moves, s.move_keys);
  dl_buf_addf(b, "\n");
  if (s.selected_ands || s.watched_ands)
    dl_buf_addf(b, "selected   %u ANDs fed only while their fluent holds, of %u one-hot groups; %u ANDs of a move's gate"
                " fed only while their state's input holds\n", s.selected_ands, s.one_hot_groups, s.watched_ands);
}

static const dl_machine_ops circuit_ops = {
  .name = "circuit",
  .destroy = cm_destroy,
  .initial = cm_initial,
  .terminal = cm_terminal,
  .legal = cm_legal,
  .goal = cm_goal,
  .next = cm_next,
  .move_term = cm_move_term,
  .move_valid = cm_move_valid,
  .move_of = cm_move_of,
  .state_of = cm_state_of,
  .fluents = cm_fluents,
  .fluent_bit = cm_fluent_bit,
  .playouts = cm_playouts,
  .describe = cm_describe,
};

static int compare_fluent(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  dl_tid x = ((const fluent_entry *)a)->term, y = ((const fluent_entry *)b)->term;
  return (x > y) - (x < y);
}

/* The roles and the fluents sorted by term; 0 when out of memory. */
static int index_circuit(circuit_machine *cm)
{
  uint32_t roles = dl_circuit_role_count(cm->c);
  cm->n_fluents = dl_circuit_fluent_count(cm->c);
  cm->words = dl_circuit_state_words(cm->c);
  cm->roles = malloc((roles ? roles : 1) * sizeof *cm->roles);
  cm->fluents = malloc((cm->n_fluents ? cm->n_fluents : 1) * sizeof *cm->fluents);
  if (!cm->roles || !cm->fluents) return 0;
  for (uint32_t r = 0; r < roles; r++) cm->roles[r] = dl_circuit_role_term(cm->c, r);
  for (uint32_t f = 0; f < cm->n_fluents; f++) cm->fluents[f] = (fluent_entry){ dl_circuit_fluent_term(cm->c, f), f };
  dl_sort(cm->fluents, cm->n_fluents, sizeof *cm->fluents, compare_fluent, NULL);
  cm->m.n_roles = roles;
  cm->m.roles = cm->roles;
  return 1;
}

dl_machine *dl_machine_circuit(dl_circuit *c, dl_terms *terms, dl_diag *diag)
{
  assert(c && diag && terms == dl_circuit_terms(c));
  circuit_machine *cm = calloc(1, sizeof *cm);
  if (!cm) return NULL;
  cm->m = (dl_machine){ .ops = &circuit_ops, .diag = diag, .terms = terms };
  cm->c = c;
  if (index_circuit(cm)) return &cm->m;
  cm->c = NULL;
  cm_destroy(&cm->m);
  return NULL;
}
