/* symmetry.h: the symmetries of a GDL game that its rule graph proves
 * (section 14.7 of the book): automorphisms of the rule graph
 * (rulegraph.h), found by bliss (bliss.h: its directed graphs), seen as
 * permutations of the game's symbols and of their argument positions.
 *
 * A graph automorphism that fixes every symbol and argument vertex only
 * renames variables or reorders a rule's literals: it is no symmetry of the
 * game, and is dropped.  The rest act on symbols; each generator kept is
 * such an action, and the group they generate (enumerated on demand, up to
 * a limit) is the game's group that the rules prove.  Whether each
 * generator is a symmetry of the game as played is for the caller to check
 * (symmetry_check.h): a failure is a bug.
 *
 * Generators and group elements are numbered permutations of the symbol
 * and argument vertices that some generator moves; dl_symmetry_apply maps
 * ground terms with either. */
#ifndef GDLOG_SYMMETRY_H
#define GDLOG_SYMMETRY_H

#include <stdint.h>

#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/base/terms.h"
#include "datalog/structure/rulegraph.h"

typedef struct dl_symmetry dl_symmetry;

/* Which numbering a permutation is from. */
typedef enum dl_sym_set { DL_SYM_GENERATOR, DL_SYM_ELEMENT } dl_sym_set;

/* The symmetries of g (which must outlive the result).  Returns them, or
 * NULL after reporting to diag (out of memory). */
dl_symmetry *dl_symmetry_find(const dl_rgraph *g, dl_diag *diag);

/* Frees s; NULL is allowed. */
void dl_symmetry_destroy(dl_symmetry *s);

/* The rule graph the symmetries were found in. */
const dl_rgraph *dl_symmetry_graph(const dl_symmetry *s);

/* The generators, numbered 0 .. count - 1. */
uint32_t dl_symmetry_count(const dl_symmetry *s);

/* Enumerates the group the generators make (once; later calls return the
 * same): its elements are numbered 0 .. result - 1, the identity first.
 * *exact is 1 when the group has at most limit elements, else 0 and only
 * limit of them are numbered.  0 when out of memory. */
uint64_t dl_symmetry_group(dl_symmetry *s, uint64_t limit, int *exact);

/* The image of ground term t in argument position pos of the rule graph
 * (dl_rgraph_keyword_position for a fluent, role or move) under generator
 * or group element i: symbols mapped (a constant as the constant of pos's
 * class), arguments moved to their new positions.  Symbols no generator
 * moves stay.  DL_NO_TERM when out of memory. */
dl_tid dl_symmetry_apply(const dl_symmetry *s, dl_sym_set set, uint64_t i, dl_terms *terms, dl_tid t, uint32_t pos);

/* Appends generator i as text: the cycles of the symbols it moves
 * ("1 <-> 3", "a -> b -> c -> a"), then of the argument positions that do
 * not just follow their symbol ("cell[1] <-> cell[2]"), separated by
 * ", ". */
void dl_symmetry_write(const dl_symmetry *s, uint32_t i, dl_buf *out);

/* ---- canonical forms: isomorphism of rule graphs ---- */

/* The canonical form of a rule graph (bliss's canonical labelling): two
 * graphs are isomorphic when their forms are
 * equal, and then vertex v of one and dl_canon_vertex(other,
 * dl_canon_place(one, v)) of the other correspond. */
typedef struct dl_canon dl_canon;

/* The canonical form of g, or NULL after reporting to diag (out of
 * memory). */
dl_canon *dl_canon_build(const dl_rgraph *g, dl_diag *diag);

/* Frees c; NULL is allowed. */
void dl_canon_destroy(dl_canon *c);

/* A 64-bit hash of the form: equal for isomorphic graphs. */
uint64_t dl_canon_hash(const dl_canon *c);

/* 1 when the graphs of a and b are isomorphic. */
int dl_canon_equal(const dl_canon *a, const dl_canon *b);

/* The canonical number of vertex v, and the vertex of canonical number i. */
uint32_t dl_canon_place(const dl_canon *c, uint32_t v);
uint32_t dl_canon_vertex(const dl_canon *c, uint32_t i);

#endif
