/* parse.h: recursive-descent parsers for GDL in prefix KIF and in the book's
 * infix syntax, building the syntax tree of ast.h.
 *
 *   KIF    clause  -> sentence | '(' '<=' sentence literal* ')'
 *          literal -> sentence | '(' 'not' literal ')' | '(' 'distinct' term term ')'
 *                   | '(' 'or' literal+ ')' | '(' 'and' literal* ')'
 *          term    -> symbol | ?var | '(' symbol term* ')'
 *   infix  clause  -> atom [ ':-' literal { ('&'|',') literal } ] ( '.' | newline )
 *          literal -> atom | ('~'|'not') literal | 'distinct' '(' term ',' term ')'
 *          term    -> Variable | symbol [ '(' term { ',' term } ')' ]
 *   ASP    (gdlog's own `print` and `ground --format asp`): infix, but a
 *          literal may also be term '!=' term or term '=' term, 'distinct'
 *          is no keyword, names x_HEX are decoded (x_2b2b is ++), and a
 *          statement may be '#external' atom '.' of a ground true or does
 *          atom, which is checked and dropped: those atoms are the inputs
 *          of a game already (--state and --does give them).
 *
 * A symbol may be quoted, |aB| in KIF and 'east-speed' in infix: inside the
 * quotes \ stands for \ and \| (') for the quote; quoted symbols keep
 * their case, are never keywords and hold any printable ASCII.  gdlog's
 * printers quote exactly the symbols that would not read back otherwise.
 *
 * Comments: ';' to the line end in KIF; '%', '//', ';' (so that a KIF-style
 * header does not stop an infix file) and block comments in infix.
 *
 * An infix clause ends at '.' or at a line end; the next line continues it
 * only when it starts with '&', ',' or ':-'.  An indented line after a rule
 * ended by a line end draws a warning.
 *
 * When the program takes its ground facts (ast_program's takes_fact), an
 * infix fact of bare constants on one line, name(c1, ..., cn). with blanks
 * between tokens, is read straight from its bytes, without tokens or syntax
 * tree: large fact files are mostly that.  Any other form, and any fact the
 * program does not take, goes through the parser, which reports what is
 * wrong with it. */
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

/* Picks the syntax of a file.  The content decides whenever it tells: the
 * first token (after blanks and comments of either syntax) is '(' in KIF,
 * a directive '#name' in gringo's syntax (LX_ASP), and a quote or a name
 * followed by '(', '.', ':-', '<=', '&' or ',' in infix, or in gringo's
 * syntax when name ends in .lp (the two start alike).  Otherwise (a bare
 * name, ')', no token) the extension of name decides (.kif .gdl .lisp KIF;
 * .dl .pl .pro infix; .lp gringo's, as gdlog's ASP output), else a name
 * first means infix. */
lx_syntax dl_parse_guess_syntax(const char *name, const char *text, uint32_t len);

#endif
