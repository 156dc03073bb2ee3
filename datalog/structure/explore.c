/* explore.c: breadth-first walk of the reachable states (see explore.h).
 * Seen states and seen classes are JudyHS sets keyed by bytes: a state's
 * data, a class's canonical bitset. */
#include "datalog/structure/explore.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/structure/game_symmetry.h"

typedef struct walker {
  dl_machine *m;
  const dl_symmetry_act *act;
  Pvoid_t seen, classes;     /* JudyHS */
  dl_mstate **queue;
  uint64_t n, cap;
  uint64_t *bits, *canonical;
  dl_ids fluents;
  uint32_t *joint, *count;   /* per role: the move ids and how many */
  dl_ids *legal;             /* per role */
} walker;

static dl_mstatus nomem(walker *w) { return dl_machine_nomem(w->m); }

/* Adds s's class to the classes seen. */
static dl_mstatus add_class(walker *w, const dl_mstate *s, dl_explore_totals *t)
{
  uint32_t words = dl_symmetry_act_words(w->act);
  dl_mstatus st = dl_game_symmetry_bits(w->act, w->m, s, &w->fluents, w->bits);
  if (st != DL_M_OK) return st;
  dl_symmetry_act_canonical(w->act, w->bits, w->canonical);
  Word_t *slot;
  JHSI(slot, w->classes, w->canonical, words * sizeof *w->canonical);
  if (slot == PJERR) return nomem(w);
  t->classes += !*slot;
  *slot = 1;
  return DL_M_OK;
}

/* Takes s when new (then queued and counted), else frees it. */
static dl_mstatus visit(walker *w, dl_mstate *s, dl_explore_totals *t)
{
  Word_t *slot;
  JHSI(slot, w->seen, s->data, s->bytes);
  if (slot == PJERR) {
    free(s);
    return nomem(w);
  }
  if (*slot) {
    free(s);
    return DL_M_OK;
  }
  *slot = 1;
  if (w->n == w->cap) {
    uint64_t cap = w->cap ? 2 * w->cap : 1024;
    dl_mstate **q = realloc(w->queue, cap * sizeof *q);
    if (!q) {
      free(s);
      return nomem(w);
    }
    w->queue = q, w->cap = cap;
  }
  w->queue[w->n++] = s;
  t->states++;
  if (!w->act) t->classes++;
  return w->act ? add_class(w, s, t) : DL_M_OK;
}

/* Every joint move in s, the next states visited, while room is left. */
static dl_mstatus expand(walker *w, const dl_mstate *s, uint64_t max_states, dl_explore_totals *t)
{
  uint32_t roles = w->m->n_roles;
  dl_mstatus st = DL_M_OK;
  for (uint32_t r = 0; r < roles && st == DL_M_OK; r++) {
    w->legal[r].n = 0;
    st = dl_machine_legal(w->m, s, r, &w->legal[r]);
    w->count[r] = 0;
  }
  while (st == DL_M_OK && t->states < max_states) {
    for (uint32_t r = 0; r < roles; r++) w->joint[r] = w->legal[r].ids[w->count[r]];
    dl_mstate *next = NULL;
    if ((st = dl_machine_next(w->m, s, w->joint, &next)) == DL_M_OK) st = visit(w, next, t);
    uint32_t r = 0;  /* the next joint move: count up like an odometer */
    while (r < roles && ++w->count[r] == w->legal[r].n) w->count[r++] = 0;
    if (r == roles) break;
  }
  if (st == DL_M_OK && t->states >= max_states) t->complete = 0;
  return st;
}

static dl_mstatus walk(walker *w, uint64_t max_states, dl_explore_totals *t)
{
  dl_mstate *s0 = NULL;
  dl_mstatus st = dl_machine_initial(w->m, &s0);
  if (st == DL_M_OK) st = visit(w, s0, t);
  t->complete = 1;
  for (uint64_t level_end = w->n, i = 0; st == DL_M_OK && i < w->n; i++) {
    if (i == level_end) t->depth++, level_end = w->n;
    int terminal;
    if ((st = dl_machine_terminal(w->m, w->queue[i], &terminal)) != DL_M_OK) break;
    t->terminal += terminal != 0;
    if (!terminal && t->complete) st = expand(w, w->queue[i], max_states, t);
  }
  return st;
}

dl_mstatus dl_explore(dl_machine *m, const dl_symmetry_act *act, uint64_t max_states, dl_explore_totals *t)
{
  assert(m && t && max_states > 0);
  *t = (dl_explore_totals){ 0 };
  if (act && !dl_symmetry_act_size(act, DL_ACT_FLUENT)) {
    dl_diag_report(m->diag, DL_ERROR, NULL, 0,
                   "the game has too many fluents in the domain of true to class states (--no-symmetry counts them)");
    return DL_M_LIMIT;
  }
  walker w = { .m = m, .act = act };
  uint32_t roles = m->n_roles ? m->n_roles : 1, words = act ? dl_symmetry_act_words(act) + 1 : 1;
  w.joint = malloc(roles * sizeof *w.joint);
  w.count = malloc(roles * sizeof *w.count);
  w.legal = calloc(roles, sizeof *w.legal);
  w.bits = malloc(words * sizeof *w.bits);
  w.canonical = malloc(words * sizeof *w.canonical);
  dl_mstatus st = w.joint && w.count && w.legal && w.bits && w.canonical ? walk(&w, max_states, t) : nomem(&w);
  for (uint64_t i = 0; i < w.n; i++) free(w.queue[i]);
  for (uint32_t r = 0; r < roles; r++) dl_ids_free(&w.legal[r]);
  Word_t bytes;
  JHSFA(bytes, w.seen);
  JHSFA(bytes, w.classes);
  (void)bytes;
  free(w.queue), free(w.joint), free(w.count), free(w.legal), free(w.bits), free(w.canonical);
  dl_ids_free(&w.fluents);
  return st;
}
