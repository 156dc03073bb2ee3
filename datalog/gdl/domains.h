/* domains.h: the domain graph of a GDL game (Definition 14.1 of the book)
 * and the domain of every argument position.
 *
 * The graph has a vertex per constant, per function or predicate symbol
 * (a name with an arity) and per argument position p[i]; edges f -> p[i] for
 * a constant or function f in argument i of p in a rule head (at any depth);
 * q[j] -> p[i] when a variable is shared by head position p[i] and a
 * position q[j] of a positive body literal (safety puts every variable in
 * one, so negative literals and distinct add nothing); and the keyword edges
 * base[1] -> true[1], input[1] -> does[1], input[2] -> does[2].
 *
 * Deviation from the book: init[1] -> true[1], next[1] -> true[1] and
 * legal[i] -> does[i] are added always.  They add nothing when base and
 * input are complete; when they are not (3pffa.kif: base allows
 * capture(r,0..9), next makes capture(r,10)), Definition 14.1 alone makes
 * the reduction unsound.  The table then says "note: base is incomplete"
 * (input: likewise); a game without base (input) rules, as chess.kif, gets
 * true (does) from these edges only, and the table says so too.
 *
 * The domain of a position is the set of constants and function symbols that
 * reach it; a function symbol stands for all its instances over the domains
 * of its own positions (one vertex per symbol, as in the definition).  A
 * predicate's row is refined by its head occurrences: init(cell(1,1,b))
 * gives init[1] the value cell({1}x{1}x{b}), not cell over the whole of
 * cell[1..3] (this is how the book's Table 14.2 prints init); still sound,
 * as every variable ranges over the domains of the definition.  The counts
 * (dl_domains_pred_count, and so gdlog reduce) use the refined rows.
 *
 * A function symbol that reaches one of its own positions (cons -> cons[2]
 * -> cons, through other symbols or not) makes every domain holding it
 * infinite.  Cycles are found by a depth-first search over the function
 * symbols and reported as notes; the rows holding them are marked
 * (infinite) and print cons(...) where they would recurse; no computation
 * here follows a cycle. */
#ifndef GDLOG_DOMAINS_H
#define GDLOG_DOMAINS_H

#include <stddef.h>
#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/buf.h"
#include "datalog/program/program.h"
#include "datalog/base/terms.h"

typedef struct dl_domains dl_domains;

/* Builds the domain graph of p's rules and the domains; NULL when out of
 * memory (reported).  p and its terms must outlive the result. */
dl_domains *dl_domains_build(const dl_program *p, dl_diag *diag);

/* Frees the domains; NULL is allowed. */
void dl_domains_destroy(dl_domains *d);

/* 1 when true[1] gets its domain from base[1]; 0 when from init and next. */
int dl_domains_has_base(const dl_domains *d);

/* 1 when does gets its domain from input; 0 when from legal. */
int dl_domains_has_input(const dl_domains *d);

/* Number of instances of predicate pred (numbered as in p) that its domain
 * allows; INFINITY when the domain is infinite.  Exact below 2^53. */
double dl_domains_pred_count(const dl_domains *d, uint32_t pred);

/* Number of instances of argument arg of predicate pred that its domain
 * allows; INFINITY when the domain is infinite, 0 when pred has none. */
double dl_domains_arg_count(const dl_domains *d, uint32_t pred, uint32_t arg);

/* Number of cycles through recursive function symbols found. */
size_t dl_domains_cycle_count(const dl_domains *d);

/* The i-th cycle, as text: "cons -> cons[2] -> cons". */
const char *dl_domains_cycle(const dl_domains *d, size_t i);

/* Appends the instances of argument arg of predicate pred to *out (a
 * malloc'd array, *n entries, the caller frees).  Returns 1; 0 after
 * reporting to diag when the domain is infinite or has more than limit
 * instances, or memory ran out. */
int dl_domains_enumerate(const dl_domains *d, uint32_t pred, uint32_t arg, uint64_t limit,
                         dl_tid **out, size_t *n, dl_diag *diag);

/* Appends the domain table: one row per predicate and function symbol with
 * arguments, in order of first appearance ("cell  {1,2,3} x {1,2,3} x
 * {b,o,x}"), then notes on where true/does come from and on cycles. */
void dl_domains_write_table(const dl_domains *d, dl_buf *out);

/* Appends the domain graph as Graphviz DOT. */
void dl_domains_write_dot(const dl_domains *d, dl_buf *out);

#endif
