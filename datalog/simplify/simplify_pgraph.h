/* simplify_pgraph.h: the predicate graph of a ground game, for the
 * simplifier's shared-bodies pass (simplify.c): atoms grouped into
 * predicates (functor, arity and role), and which predicate's rules read
 * which, through any number of rules.
 *
 * Sharing must make no predicate depend on itself: GDL wants a ground game
 * stratified by predicates, not only by atoms (checkers-mustjump has legal :-
 * not hasjump, and hasjump reading legal atoms would close a cycle). */
#ifndef GDLOG_SIMPLIFY_PGRAPH_H
#define GDLOG_SIMPLIFY_PGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include <Judy.h>

#include "datalog/ground/ground_impl.h"

enum { SP_PGRAPH_REACH_MAX = 4096 };

typedef struct sp_pgraph {
  Pvoid_t ids;     /* JudyL: functor, arity and role of an atom -> predicate + 1 */
  Pvoid_t edges;   /* Judy1: p << 32 | q, a rule of p reads q; */
  uint64_t *adj;   /*   or, up to SP_PGRAPH_REACH_MAX predicates, a bit set of w words per p */
  uint32_t *pred;  /* per atom */
  uint32_t n;      /* predicates */
  uint8_t *seen;   /* per predicate, for sp_pgraph_reaches() */
  uint32_t *stack;
  /* What a predicate reaches, once asked (a bit set of w words per predicate;
   * NULL for graphs of over SP_PGRAPH_REACH_MAX predicates): speedChess asks 7,528
   * times, each a search of the graph before. */
  uint64_t *reach;
  uint32_t w;
  uint32_t *known, n_known;  /* the predicates whose set is made */
  uint8_t *is_known;
} sp_pgraph;

/* Builds the graph of rules i < n with alive[i], each at lits + at[i] (head,
 * length, body) over g's atoms.  1, or 0 when out of memory; pg must be
 * freed with sp_pgraph_free either way. */
int sp_pgraph_build(const dl_ground *g, const int32_t *lits, const size_t *at, const uint8_t *alive, uint32_t n,
                    sp_pgraph *pg);

void sp_pgraph_free(sp_pgraph *pg);

/* Whether predicate p reads predicate q through one rule or more (p, q <
 * pg->n).  Graphs of up to SP_PGRAPH_REACH_MAX predicates remember what p reaches. */
int sp_pgraph_reaches(sp_pgraph *pg, uint32_t p, uint32_t q);

/* Adds the edge p -> q (a rule of p now reads q); 0 when out of memory. */
int sp_pgraph_add_read(sp_pgraph *pg, uint32_t p, uint32_t q);

#endif
