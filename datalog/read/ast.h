/* ast.h: the syntax tree of a GDL program, as read (parse.h) and as
 * normalised into flat rules (normalize.h).  Nodes live in the program's
 * arena; names are symbols of the term store. */
#ifndef GDLOG_AST_H
#define GDLOG_AST_H

#include <stdint.h>

#include "datalog/base/arena.h"
#include "datalog/base/diag.h"
#include "datalog/base/terms.h"

typedef enum ast_term_kind {
  AST_VAR,  /* value: index of the variable in its clause */
  AST_SYM,  /* value: symbol (a constant, or a 0-ary atom) */
  AST_FUN   /* value: function or predicate symbol; args[0..n) */
} ast_term_kind;

typedef struct ast_term {
  uint8_t kind;             /* ast_term_kind */
  uint32_t off;             /* byte offset in the source */
  uint32_t value;           /* see ast_term_kind */
  uint32_t n;               /* number of arguments (AST_FUN) */
  struct ast_term **args;
} ast_term;

typedef enum ast_lit_kind {
  AST_ATOM,      /* atom */
  AST_NOT,       /* subs[0] negated */
  AST_DISTINCT,  /* atom->args[0] != atom->args[1] */
  AST_OR,        /* subs[0..n) */
  AST_AND        /* subs[0..n) */
} ast_lit_kind;

typedef struct ast_lit {
  uint8_t kind;             /* ast_lit_kind */
  uint32_t off;
  ast_term *atom;           /* AST_ATOM, AST_DISTINCT */
  uint32_t n;               /* AST_NOT: 1; AST_OR, AST_AND: count */
  struct ast_lit **subs;
} ast_lit;

typedef struct ast_clause {
  ast_term *head;
  ast_lit **body;
  uint32_t n_body;
  uint32_t n_vars;
  dl_sym *var_names;        /* per variable: its name, for messages */
  const dl_source *src;
  uint32_t off;             /* where the clause starts */
  uint8_t trusted;          /* added by gdlog (--init, --state, --does): no GDL keyword checks */
} ast_clause;

/* A flat body literal after normalisation: no or/and, negation only on atoms. */
typedef enum dl_lit_kind {
  DL_POS,       /* atom */
  DL_NEG,       /* not atom */
  DL_DISTINCT,  /* a != b */
  DL_EQUAL      /* a == b, from (not (distinct a b)) */
} dl_lit_kind;

typedef struct dl_literal {
  uint8_t kind;             /* dl_lit_kind */
  uint32_t off;
  ast_term *atom;           /* DL_POS, DL_NEG */
  ast_term *a, *b;          /* DL_DISTINCT, DL_EQUAL */
} dl_literal;

typedef struct dl_rule {
  ast_term *head;
  dl_literal *body;
  uint32_t n_body;
  uint32_t n_vars;
  dl_sym *var_names;
  const dl_source *src;
  uint32_t off;
  uint8_t trusted;          /* as in ast_clause */
} dl_rule;

/* A relation whose tuples are given apart from the rules: from data files,
 * or ground facts of the program taken out of it as they were parsed (see
 * ast_take_fact).  It is defined, though no rule has it as head. */
#define AST_ANY_ARITY UINT32_MAX

typedef struct ast_input {
  dl_sym pred;
  uint32_t arity;           /* AST_ANY_ARITY: no tuples, so any */
  const dl_source *src;     /* where the tuples are, for messages: */
  uint32_t off;             /*   the first of them */
  uint8_t in_program;       /* facts of the program text, not a data file */
  const dl_tid *tuples;     /* n * arity term ids, row after row; valid while */
  uint64_t n;               /*   the program is built (lint reads them) */
} ast_input;

/* Whether the ground facts of pred with this arity (> 0) are taken away
 * from the program as it is parsed: 1 taken (ast_take_fact follows), 0 they
 * stay clauses.  Asked before the fact's arguments become term ids. */
typedef int (*ast_takes_fact)(void *ctx, dl_sym pred, uint32_t arity);

/* Takes the ground fact pred(args[0..arity)), args term ids, found in src
 * at off, that ast_takes_fact accepted: 1 taken, 0 out of memory. */
typedef int (*ast_take_fact)(void *ctx, dl_sym pred, uint32_t arity, const dl_tid *args, const dl_source *src,
                             uint32_t off);

/* A program: the clauses as read, the rules they normalise to, and the
 * relations given from outside. */
typedef struct ast_program {
  dl_arena *arena;          /* owns every node */
  ast_clause **clauses;
  uint32_t n_clauses, cap_clauses;
  dl_rule *rules;
  uint32_t n_rules, cap_rules;
  ast_input *inputs;
  uint32_t n_inputs;
  ast_takes_fact takes_fact;  /* NULL: every fact is a clause */
  ast_take_fact take_fact;
  void *take_ctx;
} ast_program;

/* Creates an empty program; NULL when out of memory. */
ast_program *ast_program_create(void);

/* Frees the program and all its nodes; NULL is allowed. */
void ast_program_destroy(ast_program *p);

/* Appends a clause; 0 when out of memory. */
int ast_program_add_clause(ast_program *p, ast_clause *c);

/* Appends a flat rule (copied); 0 when out of memory. */
int ast_program_add_rule(ast_program *p, const dl_rule *r);

/* Appends r (copied) to the array *rules of *n rules with room for *cap,
 * growing it; 0 when out of memory (the array is then unchanged). */
int ast_rules_push(dl_rule **rules, uint32_t *n, uint32_t *cap, const dl_rule *r);

/* Appends an input relation; 0 when out of memory. */
int ast_program_add_input(ast_program *p, ast_input in);

/* The predicate symbol of an atom (AST_SYM or AST_FUN term). */
static inline dl_sym ast_atom_pred(const ast_term *a) { return a->value; }

/* The arity of an atom: 0 for AST_SYM. */
static inline uint32_t ast_atom_arity(const ast_term *a) { return a->kind == AST_FUN ? a->n : 0; }

/* The id of ground term t (no variable in it), made when new; DL_NO_TERM
 * when it cannot be (out of memory, too deep, a watched symbol's limit:
 * see terms.h). */
dl_tid ast_ground_term(dl_terms *terms, const ast_term *t);

/* Sets mark[v] to 1 for every variable v of term t (mark has room for its
 * clause's variables). */
void ast_mark_vars(const ast_term *t, uint8_t *mark);

/* Sets mark[v] to 1 for every variable v of body literal l. */
void ast_literal_mark_vars(const dl_literal *l, uint8_t *mark);

#endif
