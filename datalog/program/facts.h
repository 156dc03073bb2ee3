/* facts.h: input relations, given apart from the rules: read from data
 * files, the way Datalog users keep their data (a directory with one file
 * NAME.facts per relation, one tuple per line, its columns separated by
 * tabs, as Souffle's .input reads them; each column is a constant, its name
 * the column's bytes as they are), or the ground facts of the program text,
 * taken as they are parsed (dl_facts_take).  The tuples become term ids at
 * once and never pass through the rule machinery: a million facts cost
 * what a million tuples cost. */
#ifndef GDLOG_FACTS_H
#define GDLOG_FACTS_H

#include <stdint.h>

#include "datalog/base/diag.h"
#include <Judy.h>

#include "datalog/base/terms.h"
#include "datalog/read/ast.h"

#define DL_FACTS_ANY_ARITY UINT32_MAX

/* The tuples of one file, or of one predicate's facts in the program. */
typedef struct dl_facts_file {
  dl_sym pred;              /* NAME */
  uint32_t arity;           /* columns; DL_FACTS_ANY_ARITY when the file has no rows */
  uint64_t n;               /* rows */
  dl_tid *tuples;           /* n * arity term ids, row after row */
  uint64_t used, cap;       /* term ids in tuples, and room */
  const dl_source *src;     /* a file's first row (owned), or the program text */
  uint32_t off;             /* where the first fact is in src */
  uint8_t in_program;       /* facts of the program text */
} dl_facts_file;

typedef struct dl_facts {
  dl_facts_file *files;     /* the program's facts by first appearance, then */
  uint32_t n, cap;          /*   the data files in byte order of their names */
  Pvoid_t of_pred;          /* JudyL: predicate -> index + 1 of its program facts */
  dl_sym last_pred;         /* the predicate of the last fact taken, */
  Word_t last;              /*   its index + 1 (0: none yet) */
} dl_facts;

/* An empty set of files; NULL when out of memory. */
dl_facts *dl_facts_create(void);

/* Reads every NAME.facts file of directory dir into new files of fs, interning
 * the constants in terms.  Returns 1; 0 after reporting to diag a directory
 * that cannot be read, a file that is not text, a row whose number of
 * columns differs from the first row's, or an empty column (with the file,
 * line and column).  A directory without .facts files gets a warning.  The
 * messages point into fs's texts: free fs only when they are read.  fs,
 * dir, terms and diag are not NULL. */
int dl_facts_read(dl_facts *fs, const char *dir, dl_terms *terms, dl_diag *diag);

/* Whether the program's ground facts of pred with this arity (> 0) can be
 * taken: 1, unless pred's facts taken so far have another arity (0: the
 * fact stays a clause, so that the program's build reports the clash).
 * fs is not NULL. */
int dl_facts_takes(dl_facts *fs, dl_sym pred, uint32_t arity);

/* Takes the ground fact pred(args[0..arity)) of the program text src at
 * off, which dl_facts_takes accepted, into the tuples of pred: 1, or 0 when
 * out of memory.  fs, args and src are not NULL. */
int dl_facts_take(dl_facts *fs, dl_sym pred, uint32_t arity, const dl_tid *args, const dl_source *src, uint32_t off);

/* Hands the tuples of file i to the caller (to free), leaving the file
 * with no rows; NULL when it has none.  fs is not NULL, i < fs->n. */
dl_tid *dl_facts_hand_over(dl_facts *fs, uint32_t i);

/* Frees the tuples of every file (once they are in the relations); the
 * files stay, with no rows, and so do the texts that messages show.  fs is
 * not NULL. */
void dl_facts_drop_tuples(dl_facts *fs);

/* Frees the files; NULL is allowed. */
void dl_facts_destroy(dl_facts *f);

#endif
