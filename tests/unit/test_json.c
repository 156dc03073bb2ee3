/* test_json.c: dl_json_string on chosen inputs (quotes, backslashes, every
 * control character, UTF-8 of each length, every kind of ill-formed
 * sequence, NUL bytes) against their exact JSON; and on random bytes, that
 * the output is a valid JSON string (RFC 8259) whose decoded text is the
 * input with each byte outside a well-formed UTF-8 sequence replaced by
 * U+FFFD, checked with a decoder written apart from json.c's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/base/json.h"
#include "datalog/base/rng.h"

static void check_exact(const char *what, const char *in, size_t n, const char *want)
{
  dl_buf b = { 0 };
  dl_json_string(&b, in, n);
  int ok = !b.failed && b.len == strlen(want) && memcmp(b.data, want, b.len) == 0;
  CHECK(ok, "%s: got %.*s, want %s", what, (int)b.len, b.data ? b.data : "", want);
  dl_buf_free(&b);
}

/* The code point of the well-formed UTF-8 sequence at s[0..n) into *cp;
 * its length, or 0 when ill-formed.  Decodes first, then rejects overlong
 * forms, surrogates and code points above U+10FFFF by value. */
static size_t decode_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
  static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
  size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (len == 0 || len > n) return 0;
  uint32_t v = len == 1 ? s[0] : s[0] & (0x7F >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    v = v << 6 | (s[i] & 0x3F);
  }
  if (v < least[len] || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) return 0;
  *cp = v;
  return len;
}

static void put_utf8(dl_buf *b, uint32_t cp)
{
  unsigned char z[4];
  size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  if (n == 1) z[0] = (unsigned char)cp;
  else {
    for (size_t i = n - 1; i > 0; i--, cp >>= 6) z[i] = (unsigned char)(0x80 | (cp & 0x3F));
    z[0] = (unsigned char)((0xF00 >> n) | cp);
  }
  dl_buf_add(b, (const char *)z, n);
}

/* Decodes the JSON string j[0..n) (quotes included) into out; 0 when it is
 * not a valid JSON string: a raw control character, quote or backslash
 * inside, an unknown escape, a surrogate escape, ill-formed UTF-8. */
static int decode_json(const char *j, size_t n, dl_buf *out)
{
  const unsigned char *s = (const unsigned char *)j;
  if (n < 2 || s[0] != '"' || s[n - 1] != '"') return 0;
  for (size_t i = 1; i + 1 < n;) {
    uint32_t cp;
    size_t len = decode_utf8(s + i, n - 1 - i, &cp);
    if (len == 0 || cp < 0x20 || cp == '"') return 0;
    if (cp != '\\') {
      put_utf8(out, cp);
      i += len;
      continue;
    }
    if (i + 2 >= n) return 0;
    const char *p = strchr("\"\\/bfnrt", s[i + 1]);
    if (p && *p) {
      put_utf8(out, (uint32_t)"\"\\/\b\f\n\r\t"[p - "\"\\/bfnrt"]);
      i += 2;
      continue;
    }
    unsigned v;
    if (s[i + 1] != 'u' || i + 6 >= n || sscanf(j + i + 2, "%4x", &v) != 1 || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    put_utf8(out, v);
    i += 6;
  }
  return !out->failed;
}

/* The input with each byte outside a well-formed sequence replaced by U+FFFD. */
static void expected_text(const unsigned char *s, size_t n, dl_buf *out)
{
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t len = decode_utf8(s + i, n - i, &cp);
    put_utf8(out, len ? cp : 0xFFFD);
    i += len ? len : 1;
  }
}

/* Whether the JSON of in[0..n) is valid and decodes to its text. */
static int reads_back(const unsigned char *in, size_t n)
{
  dl_buf j = { 0 }, got = { 0 }, want = { 0 };
  dl_json_string(&j, (const char *)in, n);
  int ok = decode_json(j.data, j.len, &got);
  expected_text(in, n, &want);
  ok = ok && got.len == want.len && memcmp(got.data ? got.data : "", want.data ? want.data : "", got.len) == 0;
  if (!ok) printf("  JSON that does not read back: %.*s\n", (int)j.len, j.data);
  dl_buf_free(&j);
  dl_buf_free(&got);
  dl_buf_free(&want);
  return ok;
}

/* Random byte strings, biased towards the bytes UTF-8 cares about. */
static void check_random(int rounds)
{
  static const unsigned char pick[] = { 0x00, 0x01, 0x08, 0x0b, 0x1f, '"', '\\', 'a', 0x7f, 0x80, 0x8f, 0x90,
                                        0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4,
                                        0xf5, 0xff };
  dl_rng rng;
  dl_rng_seed(&rng, 1);
  int bad = 0;
  for (int r = 0; r < rounds && bad < 3; r++) {
    unsigned char in[24];
    size_t n = dl_rng_below(&rng, sizeof in);
    for (size_t i = 0; i < n; i++) {
      uint64_t x = dl_rng_next(&rng);
      in[i] = x & 1 ? pick[(x >> 1) % sizeof pick] : (unsigned char)(x >> 8);
    }
    bad += !reads_back(in, n);
  }
  CHECK(bad == 0, "random byte strings whose JSON does not read back as their text");
}

#define EXACT(what, in, want) check_exact(what, in, sizeof in - 1, want)

int main(void)
{
  EXACT("empty", "", "\"\"");
  EXACT("plain ASCII", "legal(white,mark(1,1))", "\"legal(white,mark(1,1))\"");
  EXACT("quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"");
  EXACT("short escapes", "\b\t\n\f\r", "\"\\b\\t\\n\\f\\r\"");
  EXACT("other control characters", "\x01\x0b\x1f", "\"\\u0001\\u000b\\u001f\"");
  EXACT("NUL inside", "a\0b", "\"a\\u0000b\"");
  EXACT("DEL is copied", "\x7f", "\"\x7f\"");
  EXACT("two-, three- and four-byte UTF-8 copied", "\xc3\xbc\xe2\x82\xac\xf0\x9f\x98\x80",
        "\"\xc3\xbc\xe2\x82\xac\xf0\x9f\x98\x80\"");
  EXACT("largest code point copied", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");
  EXACT("stray continuation byte", "a\x80z", "\"a\\ufffdz\"");
  EXACT("Latin-1 byte", "caf\xe9", "\"caf\\ufffd\"");
  EXACT("overlong two-byte form", "\xc0\xaf", "\"\\ufffd\\ufffd\"");
  EXACT("overlong three-byte form", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");
  EXACT("surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
  EXACT("above U+10FFFF", "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  EXACT("sequence cut short at the end", "\xe2\x82", "\"\\ufffd\\ufffd\"");
  EXACT("sequence cut short by ASCII", "\xe2\x82x", "\"\\ufffd\\ufffdx\"");
  EXACT("byte 0xff", "\xff", "\"\\ufffd\"");
  dl_buf b = { 0 };
  dl_json_stringz(&b, "|a\"b|");
  CHECK(!b.failed && strcmp(b.data, "\"|a\\\"b|\"") == 0, "dl_json_stringz: got %s", b.data);
  dl_buf_free(&b);
  check_random(20000);
  return check_exit();
}
