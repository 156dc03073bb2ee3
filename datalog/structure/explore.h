/* explore.h: the reachable states of a game, breadth first from the
 * initial state over every joint move, counted; with a symmetry group
 * (symmetry_act.h), counted in classes too: two states are in one class
 * when the group maps one onto the other (their canonical states agree).
 * The walk stops after max_states states. */
#ifndef GDLOG_EXPLORE_H
#define GDLOG_EXPLORE_H

#include <stdint.h>

#include "datalog/machine/machine.h"
#include "datalog/structure/symmetry_act.h"

typedef struct dl_explore_totals {
  uint64_t states;      /* distinct states reached */
  uint64_t classes;     /* their classes under the group (states when there is none) */
  uint64_t terminal;    /* terminal states among them */
  uint32_t depth;       /* the deepest level reached */
  int complete;         /* 1 when every reachable state was counted */
} dl_explore_totals;

/* Walks the states of m from its initial state, at most max_states of
 * them; act may be NULL (no group).  Returns DL_M_OK with *t filled, or the
 * machine's failure (reported to m->diag); a fluent the group does not
 * know is an error (DL_M_GAME), and a group that lists no fluents a limit
 * (DL_M_LIMIT). */
dl_mstatus dl_explore(dl_machine *m, const dl_symmetry_act *act, uint64_t max_states, dl_explore_totals *t);

#endif
