/* facts.h: relations read from data files, the way Datalog users keep their
 * data: a directory with one file NAME.facts per relation, one tuple per
 * line, its columns separated by tabs (as Souffle's .input reads them).
 * Each column is a constant, its name the column's bytes as they are.  The
 * tuples become term ids at once and never pass through the rule machinery:
 * a million rows cost what a million tuples cost. */
#ifndef GDLOG_FACTS_H
#define GDLOG_FACTS_H

#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/terms.h"

#define DL_FACTS_ANY_ARITY UINT32_MAX

/* The tuples of one file. */
typedef struct dl_facts_file {
  dl_sym pred;              /* NAME */
  uint32_t arity;           /* columns; DL_FACTS_ANY_ARITY when the file has no rows */
  uint64_t n;               /* rows */
  dl_tid *tuples;           /* n * arity term ids, row after row */
  dl_source *src;           /* the file's text, for messages */
} dl_facts_file;

typedef struct dl_facts {
  dl_facts_file *files;     /* in byte order of their names */
  uint32_t n;
} dl_facts;

/* An empty set of files; NULL when out of memory. */
dl_facts *dl_facts_create(void);

/* Reads every NAME.facts file of directory dir into fs (empty), interning
 * the constants in terms.  Returns 1; 0 after reporting to diag a directory
 * that cannot be read, a file that is not text, a row whose number of
 * columns differs from the first row's, or an empty column (with the file,
 * line and column).  A directory without .facts files gets a warning.  The
 * messages point into fs's texts: free fs only when they are read.  fs,
 * dir, terms and diag are not NULL. */
int dl_facts_read(dl_facts *fs, const char *dir, dl_terms *terms, dl_diag *diag);

/* Frees the files; NULL is allowed. */
void dl_facts_destroy(dl_facts *f);

#endif
