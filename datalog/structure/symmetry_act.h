/* symmetry_act.h: the symmetries of a game (symmetry.h) acting on its
 * ground fluents, actions and roles: each generator as a permutation of
 * them, the group they make there (its order is the game's symmetry
 * group's), and canonical states, the least image of a state under the
 * group, for transposition tables.
 *
 * The universe is given by the caller (the domains of true[1], does[2] and
 * role[1]: a superset of what play reaches is fine, as a symmetry of the
 * rules maps each of those domains onto itself).  A generator that fixes
 * every point of it acts on rules the game as played never reads; it is
 * kept in symmetry.h's list but is the identity here.
 *
 * States are bitsets over the fluents: bit i set when fluent i (the
 * caller's order) holds; dl_symmetry_act_words 64-bit words. */
#ifndef GDLOG_SYMMETRY_ACT_H
#define GDLOG_SYMMETRY_ACT_H

#include <stdint.h>

#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/base/terms.h"
#include "datalog/gdl/domains.h"
#include "datalog/structure/symmetry.h"

/* The parts of the universe, in this order. */
typedef enum dl_act_part { DL_ACT_FLUENT, DL_ACT_ACTION, DL_ACT_ROLE, DL_ACT_PARTS } dl_act_part;

typedef struct dl_symmetry_act dl_symmetry_act;

/* The action of s's generators on the universe: part k holds the n[k]
 * distinct ground terms terms_of[k] (fluents, actions, roles).  The group
 * is enumerated up to max_elements.  Returns the action, or NULL after
 * reporting to diag: out of memory, or a generator mapping a point out of
 * the universe (a bug: the universe or the rule graph is wrong).  s and
 * terms must outlive it. */
dl_symmetry_act *dl_symmetry_act_create(dl_symmetry *s, dl_terms *terms, const dl_tid *const terms_of[DL_ACT_PARTS],
                                        const uint32_t n[DL_ACT_PARTS], uint64_t max_elements, dl_diag *diag);

/* dl_symmetry_act_create over the domains d of game p: the fluents of
 * true[1], the actions of does[2], the roles of role[1], each at most
 * max_points: fluents or actions are left out (none) when more, and then
 * the group acts on the rest only.  NULL after reporting. */
dl_symmetry_act *dl_symmetry_act_of_game(dl_symmetry *s, const dl_program *p, const dl_domains *d,
                                         uint64_t max_points, uint64_t max_elements, dl_diag *diag);

/* Frees a; NULL is allowed. */
void dl_symmetry_act_destroy(dl_symmetry_act *a);

/* The number of points in part k. */
uint32_t dl_symmetry_act_size(const dl_symmetry_act *a, dl_act_part k);

/* 1 when generator i moves no point of the universe. */
int dl_symmetry_act_trivial(const dl_symmetry_act *a, uint32_t i);

/* The order of the group on the universe (exact when *exact, else at
 * least this). */
uint64_t dl_symmetry_act_order(const dl_symmetry_act *a, int *exact);

/* The index of term t in part k, or UINT32_MAX. */
uint32_t dl_symmetry_act_index(const dl_symmetry_act *a, dl_act_part k, dl_tid t);

/* The term of index i in part k. */
dl_tid dl_symmetry_act_term(const dl_symmetry_act *a, dl_act_part k, uint32_t i);

/* The image of term t of part k under group element e (0 <= e < the
 * order), or DL_NO_TERM when t is not in the universe. */
dl_tid dl_symmetry_act_map(const dl_symmetry_act *a, uint64_t e, dl_act_part k, dl_tid t);

/* The 64-bit words of a state's bitset. */
uint32_t dl_symmetry_act_words(const dl_symmetry_act *a);

/* The image of state in (a bitset) under group element e, into out. */
void dl_symmetry_act_image(const dl_symmetry_act *a, uint64_t e, const uint64_t *in, uint64_t *out);

/* The canonical state of in: its least image under the group (by words,
 * the last word most significant), into out (which may not be in). */
void dl_symmetry_act_canonical(const dl_symmetry_act *a, const uint64_t *in, uint64_t *out);

/* A 64-bit hash of a state's bitset. */
uint64_t dl_symmetry_act_hash(const dl_symmetry_act *a, const uint64_t *bits);

/* Appends generator i's permutation of fluents, actions and roles, one
 * cycle per line ("  (cell 1 1 x) <-> (cell 3 1 x)"), written in fmt. */
void dl_symmetry_act_write(const dl_symmetry_act *a, uint32_t i, int fmt, dl_buf *out);

#endif
