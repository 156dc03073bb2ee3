/* buf.h: a growable byte buffer.  An allocation that fails sets `failed`
 * and every later add is ignored, so a writer checks once at the end. */
#ifndef GDLOG_BUF_H
#define GDLOG_BUF_H

#include <stddef.h>

typedef struct dl_buf {
  char *data;
  size_t len, cap;
  int failed;      /* set when an allocation failed */
} dl_buf;

/* Frees the buffer's bytes and empties it; the struct itself is the caller's. */
void dl_buf_free(dl_buf *b);

/* Makes room for n more bytes and a NUL; 0 when out of memory (then failed is set). */
int dl_buf_reserve(dl_buf *b, size_t n);

/* Appends s[0..n), keeping data NUL-terminated. */
void dl_buf_add(dl_buf *b, const char *s, size_t n);

/* Appends the NUL-terminated string s. */
void dl_buf_addz(dl_buf *b, const char *s);

/* Appends printf-style text (at most 511 bytes of it). */
void dl_buf_addf(dl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
