/* json.c: JSON strings (see json.h). */
#include "datalog/base/json.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* The length of the well-formed UTF-8 sequence at s[0..n) (n > 0): 1 to 4,
 * or 0 when s[0] starts none (Unicode, Table 3-7). */
static size_t utf8_length(const unsigned char *s, size_t n)
{
  unsigned c = s[0];
  size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (len == 0 || len > n) return 0;
  unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;  /* the second byte's range: no overlong */
  unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;  /* form, surrogate or code point > U+10FFFF */
  for (size_t i = 1; i < len; i++, lo = 0x80, hi = 0xBF)
    if (s[i] < lo || s[i] > hi) return 0;
  return len;
}

/* Appends the escape of control character c. */
static void add_control(dl_buf *b, unsigned char c)
{
  static const char short_form[] = "btn\0fr";  /* 0x08 to 0x0d; \v has none */
  char z[8];
  if (c >= 0x08 && c <= 0x0d && short_form[c - 0x08]) {
    z[0] = '\\';
    z[1] = short_form[c - 0x08];
    dl_buf_add(b, z, 2);
    return;
  }
  snprintf(z, sizeof z, "\\u%04x", c);
  dl_buf_add(b, z, 6);
}

void dl_json_string(dl_buf *b, const char *z, size_t n)
{
  assert(b && (z || n == 0));
  const unsigned char *s = (const unsigned char *)z;
  dl_buf_add(b, "\"", 1);
  size_t i = 0;
  while (i < n) {
    size_t len = utf8_length(s + i, n - i);
    if (len == 0) dl_buf_addz(b, "\\ufffd");
    else if (s[i] == '"' || s[i] == '\\') dl_buf_add(b, s[i] == '"' ? "\\\"" : "\\\\", 2);
    else if (s[i] < 0x20) add_control(b, s[i]);
    else dl_buf_add(b, z + i, len);
    i += len ? len : 1;
  }
  dl_buf_add(b, "\"", 1);
}

void dl_json_stringz(dl_buf *b, const char *z)
{
  assert(b && z);
  dl_json_string(b, z, strlen(z));
}
