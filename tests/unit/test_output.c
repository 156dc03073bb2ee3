/* test_output.c: term texts made once (dl_term_texts) are the texts that
 * dl_output_term writes, in every format, for names that need quoting or
 * mangling, nested terms and terms asked for before their arguments. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "datalog/write/output.h"

static dl_tid constant(dl_terms *t, const char *name)
{
  return dl_terms_constant(t, dl_terms_symbol(t, name, strlen(name)));
}

static dl_tid make(dl_terms *t, const char *f, uint32_t n, const dl_tid *args)
{
  return dl_terms_make(t, dl_terms_symbol(t, f, strlen(f)), n, args);
}

/* A store whose terms cover plain, quoted and mangled names, keywords and
 * nesting; the last term made is the deepest. */
static void fill(dl_terms *t)
{
  const char *names[] = { "a", "1", "007", "wk", "Upper", "two words", "not", "distinct", "x_y", "|bar", "a,b",
                          "p:-q", "-", "ü" };
  dl_tid c[sizeof names / sizeof *names];
  uint32_t n = sizeof names / sizeof *names;
  for (uint32_t i = 0; i < n; i++) c[i] = constant(t, names[i]);
  dl_tid cell = make(t, "cell", 3, c), odd = make(t, "not", 2, c + 6), mix = make(t, "Two Words", 2, c + 4);
  dl_tid pair[2] = { cell, odd }, top = make(t, "true", 1, &cell), deep = make(t, "f", 2, pair);
  dl_tid three[3] = { deep, mix, top };
  make(t, "g", 3, three);
}

static void same_texts(const dl_terms *t, dl_format fmt, int backwards)
{
  dl_term_texts *tt = dl_term_texts_create(t, fmt);
  CHECK(tt != NULL, "created");
  if (!tt) return;
  uint32_t n = dl_terms_count(t);
  for (uint32_t pass = 0; pass < 2; pass++)
    for (uint32_t k = 0; k < n; k++) {
      dl_tid x = backwards ? n - 1 - k : k;
      dl_buf want = { 0 };
      dl_output_term(&want, t, x, fmt);
      size_t len = 0;
      const char *got = dl_term_texts_get(tt, x, &len);
      CHECK(got && len == want.len && memcmp(got, want.data, len) == 0, "format %d term %u pass %u: '%.*s' want '%s'",
            (int)fmt, x, pass, got ? (int)len : 0, got ? got : "", want.data);
      dl_buf_free(&want);
    }
  dl_term_texts_destroy(tt);
}

int main(void)
{
  dl_terms *t = dl_terms_create();
  fill(t);
  dl_format formats[] = { DL_FMT_INFIX, DL_FMT_KIF, DL_FMT_ASP };
  for (int f = 0; f < 3; f++) {
    same_texts(t, formats[f], 0);
    same_texts(t, formats[f], 1);
  }
  dl_terms_destroy(t);
  return check_exit();
}
