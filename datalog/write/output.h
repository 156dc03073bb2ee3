/* output.h: writing terms, models and programs as text.  The caller owns the
 * stream; these functions only format. */
#ifndef GDLOG_OUTPUT_H
#define GDLOG_OUTPUT_H

#include <stdio.h>

#include "datalog/base/buf.h"
#include "datalog/eval/eval.h"
#include "datalog/program/program.h"

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

/* Where output goes: write(ctx, data, n) takes n bytes and returns 1, or
 * 0 when it failed. */
typedef struct dl_sink {
  int (*write)(void *ctx, const char *data, size_t n);
  void *ctx;
} dl_sink;

/* Writes every atom of the model of e, one per line, predicates in byte
 * order of their names and each predicate's atoms sorted argument by
 * argument (terms in byte order of their printed form).  Predicates whose
 * entry in skip is non-zero are left out (skip may be NULL).  Returns 1, or 0
 * when out of memory or a write failed. */
int dl_output_model(FILE *out, const dl_program *p, const dl_eval *e, dl_format fmt,
                    const uint8_t *skip);

/* dl_output_model into a sink, in pieces of at most about 1 MiB that each
 * end with a whole line. */
int dl_output_model_to(const dl_sink *out, const dl_program *p, const dl_eval *e, dl_format fmt,
                       const uint8_t *skip);

/* Writes the rules of p (flat, after normalisation) in fmt.  Returns 1, or 0
 * when out of memory or a write failed. */
int dl_output_program(FILE *out, const dl_program *p, dl_format fmt);

#endif
