/* text.h: ground terms of a term store as text, in the syntaxes gdlog
 * reads back: the book's infix, KIF, and gringo's ASP (names mangled where
 * they are not valid ASP).  Below every module that prints a term. */
#ifndef GDLOG_TEXT_H
#define GDLOG_TEXT_H

#include "datalog/base/buf.h"
#include "datalog/base/terms.h"

typedef enum dl_format {
  DL_FMT_INFIX,  /* legal(white,mark(1,1)) */
  DL_FMT_KIF,    /* (legal white (mark 1 1)) */
  DL_FMT_ASP     /* gringo's syntax, names mangled to be valid ASP (datalog/cli/README.md) */
} dl_format;

/* Appends ground term t in format fmt. */
void dl_output_term(dl_buf *b, const dl_terms *terms, dl_tid t, dl_format fmt);

/* The texts of the terms of one term store in one format, each made once,
 * from its arguments' texts: for writing many terms that share parts. */
typedef struct dl_term_texts dl_term_texts;

/* A cache for the terms that terms holds now (those made later are not
 * covered); NULL when out of memory.  terms must outlive it. */
dl_term_texts *dl_term_texts_create(const dl_terms *terms, dl_format fmt);

/* Frees tt and its texts (NULL: nothing). */
void dl_term_texts_destroy(dl_term_texts *tt);

/* Term t's text (what dl_output_term writes), its length in *len; valid
 * until a call on tt makes a new text (calls for terms whose texts were
 * made already move nothing).  NULL when out of memory.  t must be one of
 * the terms tt covers. */
const char *dl_term_texts_get(dl_term_texts *tt, dl_tid t, size_t *len);

#endif
