/* structural.h: whether two games are the same up to renaming (section
 * 14.7 of the book), for gdlog equiv --structural and gdlog canon: their
 * rule graphs (the book's, untyped) compared through canonical forms. */
#ifndef GDLOG_CLI_STRUCTURAL_H
#define GDLOG_CLI_STRUCTURAL_H

#include "datalog/base/buf.h"
#include "datalog/cli/cli.h"

/* The canonical hash of program p's rule graph into *hash; also its size
 * when vertices and edges are not NULL.  Without base and input rules
 * when the command was given --no-declarations.  1, or 0 after
 * reporting. */
int cli_canon_hash(cli_ctx *c, const dl_program *p, uint64_t *hash, uint32_t *vertices, uint32_t *edges);

/* Compares games a and b (without base and input rules when the command
 * was given --no-declarations).  Returns 1 when their rule graphs are
 * isomorphic: then `map` holds the renaming, a line "  x -> y" per symbol
 * whose name changes, and `renamed` the text of a's rules in KIF with
 * a's names replaced by b's (to play beside b).  Returns 0 when they are
 * not (`map` then says so, with both hashes), -1 after reporting an error
 * (out of memory, or a renaming that gives one name two names). */
int cli_structural_compare(cli_ctx *c, const dl_program *a, const dl_program *b, dl_buf *map, dl_buf *renamed);

#endif
