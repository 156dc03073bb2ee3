/* rulegraph.h: the rule graph of a GDL game (Definition 14.2 of the book,
 * section 14.6), the coloured directed graph whose isomorphisms are
 * renamings of a game and whose automorphisms are its symmetries
 * (symmetry.h).
 *
 * Built from the game's rules as normalised (one rule per disjunct,
 * negation on atoms), variables renamed apart per rule:
 *   1. a vertex per occurrence of a connective (a rule's ":-", not,
 *      distinct, =), of a predicate, of a function or constant and of a
 *      variable; edges from each to its arguments;
 *   2. for every symbol p of arity n that is no GDL keyword, argument
 *      vertices p[1] .. p[n], with an edge from p[i] to the i-th argument
 *      of every occurrence of p.  The book draws p[i] per occurrence; one
 *      per symbol, shared by its occurrences (Schiffel's argument-index
 *      vertices), is what makes a permutation of p's arguments (a board's
 *      transposition) one automorphism.  A rule's ":-" and a binary keyword
 *      order their arguments with an edge from the first to the second: the
 *      head to each body literal, does(R,A) from R to A.  distinct and =
 *      are symmetric and get no such edge;
 *   3. a vertex per symbol that is no keyword and per variable of a rule,
 *      with edges to its occurrences and to its argument vertices;
 *   4. colours: one per connective, one per keyword (role, init, true,
 *      does, next, legal, goal, terminal, base, input), one per kind of
 *      the rest (predicate, function, variable occurrence, argument,
 *      variable, symbol), and one per goal value: goal values are numbers,
 *      so no symmetry may exchange them.
 *
 * Types (beyond the book, as its section 14.2 suggests): a constant is a
 * different symbol in each class of argument positions that it occurs in.
 * Positions fall into classes by the variables they share in a rule (the
 * argument of true, init, next and base is one position; so are the role
 * arguments of role, does, legal, goal and input, and the move of does,
 * legal and input); a constant in position p is the constant of p's class.
 * A predicate given by ground facts only (succ, index) is typed per use:
 * each body occurrence has positions of its own, and the graph holds one
 * copy of the predicate, with its facts, per tuple of classes it is used
 * at.  So when rows and columns share the numerals 1..8 and the relation
 * succ, 3 of the rows and 3 of the columns are different symbols, and a
 * mirror of the columns alone is an automorphism.  The typed game is the
 * game with constants renamed apart, so its automorphisms are symmetries
 * of the game: a constant's class in a ground term follows from its
 * position (dl_rgraph_constant_vertex). */
#ifndef GDLOG_RULEGRAPH_H
#define GDLOG_RULEGRAPH_H

#include <stdint.h>

#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/program/program.h"

typedef enum dl_rg_kind {
  DL_RG_RULE,      /* a rule's ":-" (a fact has one too) */
  DL_RG_NOT,
  DL_RG_DISTINCT,
  DL_RG_EQUAL,     /* (not (distinct a b)) */
  DL_RG_KEYWORD,   /* an occurrence of a keyword predicate */
  DL_RG_PRED,      /* an occurrence of another predicate */
  DL_RG_FUN,       /* an occurrence of a function or constant */
  DL_RG_VAR,       /* an occurrence of a variable */
  DL_RG_ARG,       /* p[i] */
  DL_RG_VARIABLE,  /* a variable of a rule */
  DL_RG_SYMBOL,    /* a symbol that is no keyword (a constant: of one class) */
  DL_RG_KINDS
} dl_rg_kind;

/* The number of GDL keywords that have a colour each. */
#define DL_RG_KEYWORDS 10

typedef struct dl_rg_vertex {
  uint8_t kind;      /* dl_rg_kind */
  uint32_t colour;   /* the kinds but KEYWORD as dl_rg_kind, then the keywords, then the goal
                        values in the order of their numbers (so that two games' colours compare) */
  dl_sym sym;        /* KEYWORD, PRED, FUN, ARG, SYMBOL: the symbol; VAR, VARIABLE: the variable's name */
  uint32_t n;        /* KEYWORD, PRED, FUN, SYMBOL: the arity; ARG: the position, from 1; RULE, VAR, VARIABLE: the rule */
  uint32_t pos;      /* SYMBOL: its first argument's position, or a constant's class (see above) */
  uint32_t copy;     /* SYMBOL and ARG of a fact predicate's copy: the copy's number among its
                        predicate's, from 1; else 0 */
} dl_rg_vertex;

/* The positions of the keywords' arguments (dl_rgraph_keyword_position). */
typedef enum dl_rg_keyword_position {
  DL_RG_POS_FLUENT,  /* true[1], init[1], next[1], base[1] */
  DL_RG_POS_ROLE,    /* role[1], does[1], legal[1], goal[1], input[1] */
  DL_RG_POS_MOVE,    /* does[2], legal[2], input[2] */
  DL_RG_POS_VALUE,   /* goal[2] */
  DL_RG_POS_KEYWORDS
} dl_rg_keyword_position;

typedef struct dl_rgraph dl_rgraph;

typedef struct dl_rgraph_options {
  int untyped;   /* the book's graph: a constant is one symbol wherever it stands, fact
                    predicates are not copied (for renamings, whose map is on symbols) */
  int no_declarations;  /* leave out the rules of base and input, which declare the
                           fluents and moves but do not change the game played, and
                           those of the predicates that only they read */
} dl_rgraph_options;

/* Builds the rule graph of game p (a checked program whose facts are
 * rules, not input relations); o may be NULL (typed).  Returns the graph,
 * or NULL after reporting to diag (out of memory).  p's terms must outlive
 * it. */
dl_rgraph *dl_rgraph_build(const dl_program *p, const dl_rgraph_options *o, dl_diag *diag);

/* Frees g; NULL is allowed. */
void dl_rgraph_destroy(dl_rgraph *g);

/* Its vertices, numbered 0 .. count - 1. */
uint32_t dl_rgraph_vertex_count(const dl_rgraph *g);
const dl_rg_vertex *dl_rgraph_vertex(const dl_rgraph *g, uint32_t v);

/* Its edges, numbered 0 .. count - 1: edge i leads from *from to *to. */
uint32_t dl_rgraph_edge_count(const dl_rgraph *g);
void dl_rgraph_edge(const dl_rgraph *g, uint32_t i, uint32_t *from, uint32_t *to);

/* The vertex of the function or predicate symbol sym of arity n > 0 (its
 * argument vertices follow it: p[i] is that vertex + i), or UINT32_MAX
 * when the graph has none. */
uint32_t dl_rgraph_symbol_vertex(const dl_rgraph *g, dl_sym sym, uint32_t n);

/* The vertex of constant sym in argument position pos, or UINT32_MAX. */
uint32_t dl_rgraph_constant_vertex(const dl_rgraph *g, dl_sym sym, uint32_t pos);

/* The position of argument i (from 0) of the symbol of vertex v (a
 * SYMBOL vertex with arguments). */
uint32_t dl_rgraph_arg_position(const dl_rgraph *g, uint32_t v, uint32_t i);

/* The position of a keyword's argument. */
uint32_t dl_rgraph_keyword_position(const dl_rgraph *g, dl_rg_keyword_position k);

/* A vertex's label ("cell", "cell[2]", ":-", "?x"; a constant that has
 * several classes gets its class's first position: "1@cell[2]"; a fact
 * predicate with several copies the copy's number: "succ#2[1]"),
 * appended to out. */
void dl_rgraph_write_label(const dl_rgraph *g, uint32_t v, dl_buf *out);

/* Appends the graph as Graphviz DOT: shapes by kind, colours as fill. */
void dl_rgraph_write_dot(const dl_rgraph *g, dl_buf *out);

/* Appends the graph as text: a line per vertex (number, kind, colour,
 * label), then a line per edge ("3 -> 7"). */
void dl_rgraph_write_text(const dl_rgraph *g, dl_buf *out);

/* Appends the graph in the DIMACS format bliss reads (`bliss -directed`):
 * "p edge N M", "n V COLOUR" per vertex, "e FROM TO" per edge, vertices
 * numbered from 1: to time other automorphism tools on the same graphs. */
void dl_rgraph_write_dimacs(const dl_rgraph *g, dl_buf *out);

#endif
