/* parse.h: recursive-descent parsers for GDL in prefix KIF and in the book's
 * infix syntax, building the syntax tree of ast.h.
 *
 *   KIF    clause  -> sentence | '(' '<=' sentence literal* ')'
 *          literal -> sentence | '(' 'not' literal ')' | '(' 'distinct' term term ')'
 *                   | '(' 'or' literal+ ')' | '(' 'and' literal* ')'
 *          term    -> symbol | ?var | '(' symbol term* ')'
 *   infix  clause  -> atom [ ':-' literal { ('&'|',') literal } ] ( '.' | newline )
 *          literal -> atom | ('~'|'not') literal | 'distinct' '(' term ',' term ')'
 */
#ifndef GDLOG_PARSE_H
#define GDLOG_PARSE_H

#include "datalog/read/ast.h"
#include "datalog/base/diag.h"
#include "datalog/base/terms.h"
#include "lexer.h"

/* Limits on one input, far above any real game (the corpus needs at most 103
 * literals and 45 variables per rule), so that no later stage runs out of
 * stack or time on a hostile file. */
enum {
  DL_MAX_NESTING = 1000,     /* nesting of terms and literals */
  DL_MAX_LITERALS = 1000,    /* literals in one clause, nested ones included */
  DL_MAX_VARIABLES = 10000   /* distinct variables in one clause */
};

/* Parses src and appends its clauses to prog, interning names in terms (KIF
 * names lower-cased).  Returns 1 on success; 0 after reporting the first
 * syntax error to diag. */
int dl_parse(ast_program *prog, dl_terms *terms, const dl_source *src,
             lx_syntax syntax, dl_diag *diag);

/* Picks the syntax of a file: by the extension of name (.kif .gdl .lisp are
 * KIF; .dl .pl .lp .pro are infix), else by the first token of text. */
lx_syntax dl_parse_guess_syntax(const char *name, const char *text, uint32_t len);

#endif
