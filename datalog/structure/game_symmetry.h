/* game_symmetry.h: the symmetry group of a game, all steps at once: the
 * rule graph (rulegraph.h), its automorphisms (symmetry.h), each generator
 * checked on random playouts of the game's machine (symmetry_check.h), and
 * the group they make on the ground fluents, actions and roles
 * (symmetry_act.h).  What gdlog symmetry, gdlog explore and the API's
 * gdlog_symmetries use.  The check is a step of its own: a game without
 * symmetries needs no machine. */
#ifndef GDLOG_GAME_SYMMETRY_H
#define GDLOG_GAME_SYMMETRY_H

#include "datalog/gdl/domains.h"
#include "datalog/machine/machine.h"
#include "datalog/structure/symmetry.h"
#include "datalog/structure/symmetry_act.h"
#include "datalog/structure/symmetry_check.h"

typedef struct dl_game_symmetry {
  dl_domains *own_domains;           /* when none were given */
  dl_rgraph *graph;
  dl_symmetry *symmetry;
  dl_symmetry_act *act;
  dl_symmetry_check_totals *checks;  /* per generator (zero without checks) */
  double seconds;                    /* of the automorphism search */
  /* Bound to a machine whose states are bitsets (dl_game_symmetry_bind):
   * per fluent of act its bit in those states, per bit (below n_bits) its
   * fluent of act (UINT32_MAX: none), and room for two bitsets of act. */
  const dl_machine *bound;
  uint32_t *bit_of, *fluent_of, n_bits;
  uint64_t *in, *image;
} dl_game_symmetry;

/* Finds the group of game p into *gs (zeroed): d its domains (NULL: built
 * here).  Returns 1; 0 after reporting to diag.  Free *gs with
 * dl_game_symmetry_free either way. */
int dl_game_symmetry_find(dl_game_symmetry *gs, const dl_program *p, const dl_domains *d, dl_diag *diag);

/* Checks every generator of gs (found) on m, the game's machine, with o,
 * into gs->checks.  Returns 1 when all hold; 0 after reporting the first
 * failure to m->diag (an error: a bug), or the machine's failure. */
int dl_game_symmetry_check(dl_game_symmetry *gs, dl_machine *m, const dl_symmetry_check_options *o);

/* Lets dl_game_symmetry_state map m's states bit by bit, when they are
 * bitsets of fluents (the circuit's), rather than through their fluents'
 * terms: a canonical state of a 64-cell board then takes well under 1 µs.
 * Nothing to do for other machines.  gs then is no longer to be used by
 * two threads at once.  Returns 1, or 0 when out of memory (reported to
 * m->diag). */
int dl_game_symmetry_bind(dl_game_symmetry *gs, dl_machine *m);

/* The fluents of state s of m as a bitset over the fluents of a (bit i:
 * fluent i of a), into bits (dl_symmetry_act_words of them); scratch is
 * the caller's room for the fluent list (kept between calls, freed by the
 * caller).  GAME (reported to m->diag) when s holds a fluent a does not
 * list; the machine's failure. */
dl_mstatus dl_game_symmetry_bits(const dl_symmetry_act *a, dl_machine *m, const dl_mstate *s, dl_ids *scratch,
                                 uint64_t *bits);

/* The element of the group that stands for "the canonical state". */
#define DL_CANONICAL UINT64_MAX

/* The image of state s of m under group element e (DL_CANONICAL: the
 * canonical state, the least image) into *out (a new state), and the hash
 * of that image into *hash when hash is not NULL.  GAME (reported to
 * m->diag) when s holds a fluent outside the group's universe or the
 * image one that m cannot hold; LIMIT when the group lists no fluents
 * (too many in the domain of true); NOMEM. */
dl_mstatus dl_game_symmetry_state(const dl_game_symmetry *gs, dl_machine *m, const dl_mstate *s, uint64_t e,
                                  dl_mstate **out, uint64_t *hash);

/* The image of joint move joint[0..roles) of m under element e into
 * image[0..roles): role r's move becomes the move of r's image.  LIMIT
 * when the group holds no actions (too many to list); GAME when an image
 * is no move of m.  Reported to m->diag. */
dl_mstatus dl_game_symmetry_joint(const dl_game_symmetry *gs, dl_machine *m, uint64_t e, const uint32_t *joint,
                                  uint32_t *image);

/* Frees what gs holds and zeroes it. */
void dl_game_symmetry_free(dl_game_symmetry *gs);

#endif
