/* terms.h: the term store.  Symbols (names) and ground terms are hash-consed
 * into dense integer ids once; everything after parsing works on ids only.
 * Equal terms have equal ids, so equality is an integer compare.  A constant
 * is a term of arity 0. */
#ifndef GDLOG_TERMS_H
#define GDLOG_TERMS_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t dl_sym;  /* interned name */
typedef uint32_t dl_tid;  /* interned ground term */

#define DL_NO_TERM UINT32_MAX
#define DL_NO_SYM UINT32_MAX

typedef struct dl_terms dl_terms;

/* Creates an empty store; NULL when out of memory. */
dl_terms *dl_terms_create(void);

/* Frees the store; NULL is allowed. */
void dl_terms_destroy(dl_terms *t);

/* Interns the name s[0..n); DL_NO_SYM when out of memory. */
dl_sym dl_terms_symbol(dl_terms *t, const char *s, size_t n);

/* The name of a symbol and its length. */
const char *dl_terms_name(const dl_terms *t, dl_sym s, size_t *len);

/* Number of symbols interned. */
uint32_t dl_terms_symbol_count(const dl_terms *t);

/* Terms nest at most this deep; deeper ones are refused (an infinite model
 * built with function terms stops here, and printing stays shallow). */
#define DL_MAX_TERM_DEPTH 1000

/* Interns the term f(args[0..n)); DL_NO_TERM when out of memory or when it
 * would nest deeper than DL_MAX_TERM_DEPTH (then dl_terms_too_deep says so). */
dl_tid dl_terms_make(dl_terms *t, dl_sym f, uint32_t n, const dl_tid *args);

/* Whether a term was refused for nesting deeper than DL_MAX_TERM_DEPTH. */
int dl_terms_too_deep(const dl_terms *t);

/* Finds f(args[0..n)) without creating it; DL_NO_TERM when absent. */
dl_tid dl_terms_find(const dl_terms *t, dl_sym f, uint32_t n, const dl_tid *args);

/* Interns the constant named by symbol f. */
dl_tid dl_terms_constant(dl_terms *t, dl_sym f);

/* The key by which the two calls below find the constant named z[0..n):
 * computed once per name and passed to both.  Depends on the text only. */
int64_t dl_terms_name_key(const char *z, size_t n);

/* Interns the constant named z[0..n) and its symbol, as dl_terms_constant
 * of dl_terms_symbol would (the same ids, made in the same order), but a
 * number's constant seen before is found in one look-up, not two: the path
 * of large fact files.  key is dl_terms_name_key(z, n).  DL_NO_TERM when
 * out of memory. */
dl_tid dl_terms_constant_named(dl_terms *t, const char *z, size_t n, int64_t key);

/* Frees what only dl_terms_constant_named needs (the constants by number),
 * and cuts the room of the symbols and terms to about what they hold: for
 * when a program's facts are read.  Later calls make both again. */
void dl_terms_done_reading(dl_terms *t);

/* A hint that dl_terms_constant_named of the name whose key this is comes
 * soon: a number's entry is fetched into the cache meanwhile.  Changes
 * nothing. */
void dl_terms_prefetch_constant(const dl_terms *t, int64_t key);

/* Number of terms interned: ids are 0 .. count-1. */
uint32_t dl_terms_count(const dl_terms *t);

/* The function symbol, arity and arguments of term id. */
dl_sym dl_terms_functor(const dl_terms *t, dl_tid id);
uint32_t dl_terms_arity(const dl_terms *t, dl_tid id);
const dl_tid *dl_terms_args(const dl_terms *t, dl_tid id);

/* Terms of functor f and arity n whose argument j is v, to enumerate the
 * candidates for a pattern like cell(X,Y,P) with X bound.  The first call
 * for f/n indexes the existing terms of f/n; later ones are kept up to date.
 * Returns the list (valid until the next dl_terms_make) and its length in
 * *count; NULL with *count 0 when there are none, NULL with *count
 * DL_TERMS_NOMEM when memory ran out (the index is dropped then, and built
 * again at the next call). */
#define DL_TERMS_NOMEM UINT32_MAX
const dl_tid *dl_terms_with_arg(dl_terms *t, dl_sym f, uint32_t n, uint32_t j, dl_tid v, uint32_t *count);

/* Terms of functor f and arity n whose argument j is vals[i] for each bit j
 * of mask, the i-th one set (bits below n and 64), to enumerate the
 * candidates for a pattern like move(P,X1,Y1,X2,Y2) with P,X1,Y1 bound.  The
 * list holds all of them, and may hold other terms of f/n (its key is a
 * hash): callers still compare the arguments.  The first call for f/n and
 * mask indexes the existing terms; later ones are kept up to date.  Valid
 * until the next dl_terms_make; NULL with *count 0 when there are none, or
 * DL_TERMS_NOMEM as dl_terms_with_arg. */
const dl_tid *dl_terms_with_args(dl_terms *t, dl_sym f, uint32_t n, uint64_t mask, const dl_tid *vals,
                                 uint32_t *count);

/* Whether dl_terms_with_arg can index functor f with arity n at argument j. */
int dl_terms_arg_indexable(dl_sym f, uint32_t n, uint32_t j);

/* The most terms a store holds (ids fit 28 bits, for dl_terms_with_arg). */
#define DL_MAX_TERMS (1u << 28)

/* Growth limit (see gdl/gamecheck.h, dl_check_growth): terms whose
 * function symbol is watched count, and once `limit` of them were made
 * after the limit was set, dl_terms_make refuses new ones (DL_NO_TERM, and
 * dl_terms_over_limit says so).  Nothing is watched by default.  Watches
 * symbol f with any arity; returns 0 when out of memory. */
int dl_terms_watch(dl_terms *t, dl_sym f);

/* Sets the number of new terms of watched symbols allowed (0: no limit). */
void dl_terms_set_watch_limit(dl_terms *t, uint64_t limit);

/* The limit set, and whether a term was refused for it. */
uint64_t dl_terms_watch_limit(const dl_terms *t);
int dl_terms_over_limit(const dl_terms *t);

/* Bytes of memory the store holds. */
size_t dl_terms_bytes(const dl_terms *t);

#endif
