/* buf.c: the growable byte buffer (see buf.h). */
#include "datalog/base/buf.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dl_buf_free(dl_buf *b)
{
  free(b->data);
  memset(b, 0, sizeof *b);
}

/* Makes room for n more bytes and a NUL; 0 when out of memory. */
int dl_buf_reserve(dl_buf *b, size_t n)
{
  assert(b && (b->cap == 0 || b->len < b->cap));
  if (b->failed) return 0;
  if (b->len + n + 1 <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + n + 1) cap *= 2;
  char *q = realloc(b->data, cap);
  if (!q) {
    b->failed = 1;
    return 0;
  }
  b->data = q;
  b->cap = cap;
  return 1;
}

void dl_buf_add(dl_buf *b, const char *s, size_t n)
{
  assert(s || n == 0);
  if (!dl_buf_reserve(b, n)) return;
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void dl_buf_addz(dl_buf *b, const char *s)
{
  assert(s);
  dl_buf_add(b, s, strlen(s));
}


void dl_buf_addf(dl_buf *b, const char *fmt, ...)
{
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  dl_buf_addz(b, text);
}
