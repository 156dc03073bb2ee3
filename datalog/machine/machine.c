/* machine.c: the questions of machine.h with the contract checked and its
 * errors worded once, over whichever backend the machine has; random
 * playouts through the questions for a backend without fast ones. */
#include "datalog/machine/machine.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/clock.h"
#include "datalog/base/rng.h"

void dl_machine_destroy(dl_machine *m)
{
  if (!m) return;
  dl_machine_forget_text(m);
  m->ops->destroy(m);
}

const char *dl_machine_backend(const dl_machine *m)
{
  assert(m);
  return m->ops->name;
}

dl_mstatus dl_machine_initial(dl_machine *m, dl_mstate **s)
{
  assert(m && s);
  return m->ops->initial(m, s);
}

dl_mstate *dl_mstate_alloc(const dl_machine *m, uint32_t n, uint32_t bytes)
{
  assert(m);
  dl_mstate *s = calloc(1, sizeof *s + (bytes ? bytes : 1));
  if (!s) return NULL;
  s->machine = m;
  s->n = n;
  s->bytes = bytes;
  return s;
}

dl_mstate *dl_mstate_copy(const dl_mstate *s)
{
  assert(s);
  dl_mstate *c = malloc(sizeof *c + (s->bytes ? s->bytes : 1));
  if (c) memcpy(c, s, sizeof *c + s->bytes);
  return c;
}

int dl_mstate_equal(const dl_mstate *a, const dl_mstate *b)
{
  assert(a && b && a->machine == b->machine);
  return a->bytes == b->bytes && (a->bytes == 0 || memcmp(a->data, b->data, a->bytes) == 0);
}

dl_mstatus dl_machine_terminal(dl_machine *m, const dl_mstate *s, int *terminal)
{
  assert(m && s && terminal);
  return m->ops->terminal(m, s, terminal);
}

/* The name of role r as the game writes it, into b (empty before). */
static const char *role_text(const dl_machine *m, uint32_t r, dl_buf *b)
{
  dl_output_term(b, m->terms, m->roles[r], m->format);
  return b->data && !b->failed ? b->data : "?";
}

/* Reports that role r breaks the contract: "role 'R' " then what the
 * format says (printf); returns GAME. */
static dl_mstatus role_error(dl_machine *m, uint32_t r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static dl_mstatus role_error(dl_machine *m, uint32_t r, const char *fmt, ...)
{
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  dl_buf b = { 0 };
  dl_diag_report(m->diag, DL_ERROR, NULL, 0, "role '%s' %s", role_text(m, r, &b), what);
  dl_buf_free(&b);
  return DL_M_GAME;
}

dl_mstatus dl_machine_legal(dl_machine *m, const dl_mstate *s, uint32_t role, dl_ids *moves)
{
  assert(m && s && moves && role < m->n_roles);
  dl_mstatus st = m->ops->legal(m, s, role, moves);
  if (st != DL_M_OK || moves->n > 0) return st;
  int terminal;
  if ((st = m->ops->terminal(m, s, &terminal)) != DL_M_OK || terminal) return st;
  return role_error(m, role, "has no legal move in a state that is not terminal");
}

dl_mstatus dl_machine_goal_found(dl_machine *m, const dl_mstate *s, uint32_t role, dl_goal_found *g)
{
  assert(m && s && g && role < m->n_roles);
  return m->ops->goal(m, s, role, g);
}

/* Words why goal g of role in s breaks the contract; returns GAME. */
static dl_mstatus goal_error(dl_machine *m, const dl_mstate *s, uint32_t role, dl_goal_found g)
{
  int terminal = 0;
  if (m->ops->terminal(m, s, &terminal) != DL_M_OK) return DL_M_GAME;
  const char *kind = terminal ? "terminal" : "non-terminal";
  if (g.count == 0) return role_error(m, role, "has no goal value in this %s state", kind);
  if (g.count > 1) return role_error(m, role, "has %u goal values in this %s state", g.count, kind);
  if (g.value < 0) return role_error(m, role, "has a goal value that is not a number");
  return role_error(m, role, "has the goal value %d, not a number in 0..100", (int)g.value);
}

dl_mstatus dl_machine_goal(dl_machine *m, const dl_mstate *s, uint32_t role, int *value)
{
  assert(m && s && value && role < m->n_roles);
  dl_goal_found g;
  dl_mstatus st = m->ops->goal(m, s, role, &g);
  if (st != DL_M_OK) return st;
  if (g.count != 1 || g.value < 0 || g.value > 100) return goal_error(m, s, role, g);
  *value = g.value;
  return DL_M_OK;
}

/* Whether move is in the sorted list l. */
static int ids_contain(const dl_ids *l, uint32_t move)
{
  uint32_t lo = 0, hi = l->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (l->ids[mid] < move) lo = mid + 1;
    else hi = mid;
  }
  return lo < l->n && l->ids[lo] == move;
}

/* Reports that move of role is not legal in the state (at src/off). */
static void report_illegal(dl_machine *m, uint32_t role, uint32_t move, const dl_source *src, uint32_t off)
{
  dl_buf a = { 0 }, r = { 0 };
  if (m->ops->move_valid(m, move)) dl_output_term(&a, m->terms, m->ops->move_term(m, move), m->format);
  dl_diag_report(m->diag, DL_ERROR, src, off, "illegal move: '%s' is not a legal move of role '%s' in this state",
                 a.data && !a.failed ? a.data : "?", role_text(m, role, &r));
  dl_buf_free(&a);
  dl_buf_free(&r);
}

dl_mstatus dl_machine_check_joint(dl_machine *m, const dl_mstate *s, const uint32_t *joint, const dl_source *src,
                                  const uint32_t *offs)
{
  assert(m && s && joint && (!src || offs));
  int terminal = 0;
  dl_mstatus st = m->ops->terminal(m, s, &terminal);
  if (st == DL_M_OK && terminal) {
    dl_diag_report(m->diag, DL_ERROR, src, src ? offs[0] : 0, "illegal move: the state is terminal");
    return DL_M_ILLEGAL;
  }
  dl_ids moves = { 0 };
  for (uint32_t r = 0; st == DL_M_OK && r < m->n_roles; r++) {
    st = dl_machine_legal(m, s, r, &moves);
    if (st == DL_M_OK && !ids_contain(&moves, joint[r])) {
      report_illegal(m, r, joint[r], src, src ? offs[r] : 0);
      st = DL_M_ILLEGAL;
    }
  }
  dl_ids_free(&moves);
  return st;
}

dl_mstatus dl_machine_next_unchecked(dl_machine *m, const dl_mstate *s, const uint32_t *joint, dl_mstate **next)
{
  assert(m && s && joint && next);
  return m->ops->next(m, s, joint, next);
}

dl_mstatus dl_machine_next(dl_machine *m, const dl_mstate *s, const uint32_t *joint, dl_mstate **next)
{
  assert(m && s && joint && next);
  *next = NULL;
  dl_mstatus st = dl_machine_check_joint(m, s, joint, NULL, NULL);
  return st == DL_M_OK ? m->ops->next(m, s, joint, next) : st;
}

void dl_machine_describe(const dl_machine *m, int json, dl_buf *out)
{
  assert(m && out);
  if (m->ops->describe) m->ops->describe(m, json, out);
}

/* ---- playouts through the questions ---- */

dl_mstatus dl_machine_playout_fault(dl_machine *m, uint64_t index, dl_playout_fault f, uint32_t role, uint32_t depth)
{
  assert(m && (f == DL_FAULT_DEEP || role < m->n_roles));
  if (f == DL_FAULT_DEEP) {
    dl_diag_report(m->diag, DL_ERROR, NULL, 0, "playout %llu: no terminal state within %u joint moves",
                   (unsigned long long)index, depth);
    return DL_M_LIMIT;
  }
  static const char *const what[] = { "has no legal move", "has no goal value", "has several goal values",
                                      "has a goal value that is not a number in 0..100" };
  dl_buf b = { 0 };
  dl_diag_report(m->diag, DL_ERROR, NULL, 0, "playout %llu: role '%s' %s after %u joint move%s%s",
                 (unsigned long long)index, role_text(m, role, &b), what[f], depth, depth == 1 ? "" : "s",
                 f == DL_FAULT_NO_GOAL ? " (--goal-default V scores such a role V)" : "");
  dl_buf_free(&b);
  return DL_M_GAME;
}

dl_mstatus dl_machine_playout_end(dl_machine *m, const dl_playout_options *o, uint64_t index, uint32_t depth,
                                  const dl_goal_found *found, int32_t *goals, dl_playout_totals *t)
{
  assert(m && o && found && goals && t);
  int defaulted = 0;
  for (uint32_t r = 0; r < m->n_roles; r++) {
    dl_goal_found g = found[r];
    if (g.count == 0 && o->goal_default >= 0) g = (dl_goal_found){ 1, o->goal_default, o->goal_default }, defaulted = 1;
    if (g.count != 1) return dl_machine_playout_fault(m, index, g.count ? DL_FAULT_GOALS : DL_FAULT_NO_GOAL, r, depth);
    if (g.value < 0 || g.value > 100) return dl_machine_playout_fault(m, index, DL_FAULT_GOAL_RANGE, r, depth);
    goals[r] = g.value;
  }
  t->playouts++;
  t->states += depth + 1;
  t->defaulted += defaulted;
  if (depth < t->min_depth) t->min_depth = depth;
  if (depth > t->max_depth) t->max_depth = depth;
  for (uint32_t r = 0; r < m->n_roles; r++) t->goal_sum[r] += goals[r];
  return DL_M_OK;
}

/* One playout's room: a joint move, the legal moves, the roles' goals. */
typedef struct playout_room {
  uint32_t *joint;
  dl_ids moves;
  dl_goal_found *found;
  int32_t *goals;
} playout_room;

/* The goal atoms of every role in s into room->found. */
static dl_mstatus read_goals(dl_machine *m, const dl_mstate *s, playout_room *room)
{
  dl_mstatus st = DL_M_OK;
  for (uint32_t r = 0; st == DL_M_OK && r < m->n_roles; r++) st = m->ops->goal(m, s, r, &room->found[r]);
  return st;
}

/* A random legal move of every role in s into room->joint. */
static dl_mstatus random_joint(dl_machine *m, const dl_mstate *s, dl_rng *rng, playout_room *room, uint64_t index,
                               uint32_t depth)
{
  for (uint32_t r = 0; r < m->n_roles; r++) {
    dl_mstatus st = m->ops->legal(m, s, r, &room->moves);
    if (st != DL_M_OK) return st;
    if (room->moves.n == 0) return dl_machine_playout_fault(m, index, DL_FAULT_NO_LEGAL, r, depth);
    room->joint[r] = room->moves.ids[dl_rng_below(rng, room->moves.n)];
  }
  return DL_M_OK;
}

/* One random playout from start, counted into t. */
static dl_mstatus one_playout(dl_machine *m, const dl_mstate *start, const dl_playout_options *o, dl_rng *rng,
                              playout_room *room, dl_playout_totals *t)
{
  dl_mstate *cur = dl_mstate_copy(start), *next = NULL;
  dl_mstatus st = cur ? DL_M_OK : dl_machine_nomem(m);
  uint32_t depth = 0;
  int terminal = 0;
  while (st == DL_M_OK && (st = m->ops->terminal(m, cur, &terminal)) == DL_M_OK && !terminal) {
    if (depth >= o->max_depth) {
      st = dl_machine_playout_fault(m, t->playouts, DL_FAULT_DEEP, 0, depth);
      break;
    }
    if ((st = random_joint(m, cur, rng, room, t->playouts, depth)) == DL_M_OK)
      st = m->ops->next(m, cur, room->joint, &next);
    free(cur);
    cur = next, next = NULL;
    depth++;
  }
  if (st == DL_M_OK) st = read_goals(m, cur, room);
  free(cur);
  return st == DL_M_OK ? dl_machine_playout_end(m, o, t->playouts, depth, room->found, room->goals, t) : st;
}

/* dl_machine_playouts for a backend without fast ones. */
static dl_mstatus slow_playouts(dl_machine *m, const dl_mstate *start, const dl_playout_options *o,
                                dl_playout_totals *t)
{
  playout_room room = { calloc(m->n_roles + 1, sizeof *room.joint), { 0 },
                        calloc(m->n_roles + 1, sizeof *room.found), calloc(m->n_roles + 1, sizeof *room.goals) };
  dl_mstatus st = room.joint && room.found && room.goals ? DL_M_OK : dl_machine_nomem(m);
  dl_rng rng;
  dl_rng_seed(&rng, o->seed);
  double t0 = dl_clock_now();
  t->lanes = 1;
  for (uint64_t i = 0; st == DL_M_OK && i < o->n; i++) {
    if (o->time_limit > 0 && dl_clock_now() - t0 >= o->time_limit) break;
    if (dl_stop_requested(m->stop)) break;
    st = one_playout(m, start, o, &rng, &room, t);
  }
  free(room.joint);
  free(room.found);
  free(room.goals);
  dl_ids_free(&room.moves);
  return st;
}

dl_mstatus dl_machine_nomem(const dl_machine *m)
{
  assert(m);
  dl_diag_fail(m->diag, DL_CAUSE_NOMEM, "out of memory");
  return DL_M_NOMEM;
}

dl_mstatus dl_machine_playouts(dl_machine *m, const dl_mstate *start, const dl_playout_options *o,
                               dl_playout_totals *t)
{
  assert(m && start && o && t && t->goal_sum);
  if (o->lanes == DL_M_LANES_WIDE && !m->ops->playouts) {
    dl_diag_report(m->diag, DL_ERROR, NULL, 0, "%u lanes need the circuit; this game is evaluated by the %s", DL_M_LANES_WIDE,
                   m->ops->name);
    return DL_M_INPUT;
  }
  if (t->playouts == 0) t->min_depth = UINT32_MAX;
  double w0 = dl_clock_now(), c0 = dl_clock_cpu();
  dl_mstatus st = m->ops->playouts ? m->ops->playouts(m, start, o, t) : slow_playouts(m, start, o, t);
  t->seconds += dl_clock_now() - w0;
  t->cpu_seconds += dl_clock_cpu() - c0;
  if (t->playouts == 0) t->min_depth = 0;
  int why = st == DL_M_OK ? dl_stop_requested(m->stop) : 0;
  if (why) {
    dl_diag_fail(m->diag, DL_CAUSE_STOP, "%s", dl_stop_message(why));
    st = DL_M_LIMIT;
  }
  return st;
}

dl_mstatus dl_machine_fluents(dl_machine *m, const dl_mstate *s, dl_ids *out)
{
  assert(m && s && out);
  return m->ops->fluents(m, s, out);
}

int dl_machine_fluent_bit(const dl_machine *m, dl_tid fluent, uint32_t *bit)
{
  assert(m && bit);
  if (!m->ops->fluent_bit) return 0;
  *bit = m->ops->fluent_bit(m, fluent);
  return 1;
}

dl_mstatus dl_machine_state_of(dl_machine *m, dl_tid *fluents, uint32_t n, dl_mstate **s, uint32_t *unknown)
{
  assert(m && (fluents || n == 0) && s && unknown);
  return m->ops->state_of(m, fluents, n, s, unknown);
}

dl_tid dl_machine_move_term(const dl_machine *m, uint32_t move)
{
  assert(m && m->ops->move_valid(m, move));
  return m->ops->move_term(m, move);
}

uint32_t dl_machine_move_of(const dl_machine *m, uint32_t role, dl_tid action)
{
  assert(m && role < m->n_roles);
  return m->ops->move_of(m, role, action);
}
