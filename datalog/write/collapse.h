/* collapse.h: predicates that only rename others, collapsed into the rules
 * that read them, for other players' propnet builders.
 *
 * A builder in the style of ggp-base's OptimizingPropNetFactory makes a
 * proposition for every sentence of every predicate, so each layer of
 * rules that only copies sentences from one predicate to another costs it
 * as much as the sentences it holds.  Amazons' (queenmoveignoring ...) has
 * two rules, one reading (rookmoveignoring ...) and one reading
 * (bishopmoveignoring ...), which have rules that read one path predicate
 * each: three layers of the same sentences.  Collapsed, queenmoveignoring's
 * rules read the path predicates themselves.
 *
 * A copy rule has one body literal, a positive atom.  A predicate p is
 * collapsed when the caller's open(ctx, p) allows it (all of p's rules and
 * readers are in the list: no keyword, no facts, nothing written elsewhere
 * defines or reads it), every rule of p is a copy rule that does not read
 * p, no rule reads p negated or twice, and p has one rule or is read once,
 * so that only a rule that reads p is ever multiplied, by p's rules: the
 * text grows by the reader's other literals that many times, which must
 * fit in the room the caller gives.  Each reader h :- l1, p(u), l2 is then
 * replaced, for each rule p(s) :- b of p whose head unifies with p(u), by
 * (h :- l1, b, l2)m, m their most general unifier; p's rules go.  This is
 * unfolding (Tamaki and Sato): every other predicate keeps its model, and
 * the game stays the same.  Repeated while a predicate qualifies.  Amazons'
 * legal rule, the one reader of queenmoveignoring, becomes one rule per
 * path predicate, and the builder makes no queenmoveignoring sentences. */
#ifndef GDLOG_COLLAPSE_H
#define GDLOG_COLLAPSE_H

#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/program/program.h"
#include "datalog/read/ast.h"

typedef struct dl_collapse dl_collapse;

/* Whether predicate pred may be collapsed (see above). */
typedef int (*dl_collapse_open_fn)(void *ctx, dl_sym pred);

/* Collapses the predicates of rules[0..n), rules of game or with game's
 * symbols, that qualify, while their KIF text grows by at most room bytes
 * in all.  The result's rules share terms with rules[]; game and rules
 * must outlive it.  Returns it, or NULL after reporting to diag (out of
 * memory).  rules is not NULL unless n is 0; game, open and diag are not
 * NULL. */
dl_collapse *dl_collapse_create(const dl_program *game, const dl_rule *rules, uint32_t n, int64_t room,
                                dl_collapse_open_fn open, void *ctx, dl_diag *diag);

/* Frees the result; NULL is allowed. */
void dl_collapse_destroy(dl_collapse *c);

/* The rules after collapsing, *n of them. */
const dl_rule *dl_collapse_rules(const dl_collapse *c, uint32_t *n);

/* The number of predicates collapsed. */
uint32_t dl_collapse_pred_count(const dl_collapse *c);

#endif
