/* text_impl.h: the inside of text.c, for the writers of whole models
 * (datalog/write/output.c), which read the made texts in place. */
#ifndef GDLOG_TEXT_IMPL_H
#define GDLOG_TEXT_IMPL_H

#include "datalog/base/text.h"

struct dl_term_texts {
  const dl_terms *terms;
  dl_format fmt;
  uint32_t n;    /* terms covered */
  dl_buf text;   /* every text made so far */
  size_t *off;   /* per term: where its text starts in text, SIZE_MAX before it is made */
  uint32_t *len; /* per term: its length */
  dl_buf names;  /* the names of functors, each written once */
  uint32_t n_syms;
  size_t *name_off;  /* per symbol: where its name as a functor starts in names, SIZE_MAX: not yet;
                        made at the first compound term (a constant's text is its term's) */
  uint32_t *name_len;
};

/* Makes the text of t (and of its arguments first) in tt; 0 when out of
 * memory.  t must be one of the terms tt covers. */
int dl_term_texts_make(dl_term_texts *tt, dl_tid t);

/* Appends the name of symbol s so that it reads back as itself in fmt (as
 * a functor when is_functor, else as a constant). */
void dl_text_add_name(dl_buf *b, const dl_terms *terms, dl_sym s, dl_format fmt, int is_functor);

/* Whether z[0..n) reads back as itself unquoted in KIF. */
int dl_text_is_kif_symbol(const char *z, size_t n, int is_functor);

#endif
