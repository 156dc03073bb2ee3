/* symmetry_check.h: each symmetry found in the rules (symmetry.h) checked
 * on the game as played.  A generator g is a symmetry of the game when,
 * for every state s reached and joint move m,
 *   g(s) is a state the machine holds, terminal(g(s)) = terminal(s),
 *   goal(g(r), g(s)) = goal(r, s) for every role r,
 *   legal(g(r), g(s)) = g(legal(r, s)), and
 *   next(g(s), g(m)) = g(next(s, m)),
 * where g(m) gives role g(r) the move g(m_r).  The check follows seeded
 * random playouts from the initial state and compares at every state on
 * the way.  The rule graph proves these, so a failure is a bug in the
 * rule graph or the machine, never a property of the game. */
#ifndef GDLOG_SYMMETRY_CHECK_H
#define GDLOG_SYMMETRY_CHECK_H

#include <stdint.h>

#include "datalog/machine/machine.h"
#include "datalog/structure/symmetry.h"

typedef struct dl_symmetry_check_options {
  uint64_t playouts;     /* per generator, at most */
  uint64_t seed;
  uint32_t max_depth;    /* joint moves per playout at most (0: 10000) */
  double seconds;        /* per generator: after this long the check stops, within a playout
                            too; the first state is always checked (0: no limit) */
} dl_symmetry_check_options;

/* What a check saw. */
typedef struct dl_symmetry_check_totals {
  uint64_t playouts;      /* begun (the last may have been cut by the time limit) */
  uint64_t states;        /* compared with their images */
  uint64_t moved;         /* of them, those the generator does not map to themselves */
} dl_symmetry_check_totals;

/* Checks generator i of s on machine m (the machine of the game whose
 * rule graph s was found in; its terms are the game's), adding to *t.
 * Returns 1 when every comparison held, 0 after reporting the first that
 * did not to m->diag (as an error that names the generator, the playout
 * and the depth), -1 when the machine failed (its error reported: out of
 * memory, a limit, a game that breaks the contract). */
int dl_symmetry_check(const dl_symmetry *s, uint32_t i, dl_machine *m, const dl_symmetry_check_options *o,
                      dl_symmetry_check_totals *t);

#endif
