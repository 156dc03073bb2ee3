/* test_load.c: places in a large program file (datalog/program/load.h).
 * dl_load_position reads a mapped text a chunk at a time and releases each
 * chunk behind it; it must give lx_position's line and column everywhere,
 * a CR LF line end across a chunk's end included, and the text must read
 * the same afterwards (its pages come back from the file). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/base/diag.h"
#include "datalog/program/load.h"
#include "lexer.h"

enum { TEXT_LEN = 3 * DL_LOAD_RELEASE_EVERY + 12345 };

/* A text of lines of every length up to 99, ending in LF, CR LF or CR,
 * with a CR LF across the end of the first two chunks. */
static char *make_text(void)
{
  char *t = malloc(TEXT_LEN + 1);
  if (!t) return NULL;
  static const char *const ends[] = { "\n", "\r\n", "\r" };
  uint32_t n = 0, line = 0;
  while (n < TEXT_LEN) {
    for (uint32_t i = 0; i < line % 100 && n < TEXT_LEN; i++) t[n++] = (char)('a' + i % 26);
    for (const char *e = ends[line % 3]; *e && n < TEXT_LEN; e++) t[n++] = *e;
    line++;
  }
  for (uint32_t k = 1; k <= 2; k++) {
    t[k * DL_LOAD_RELEASE_EVERY - 1] = '\r';
    t[k * DL_LOAD_RELEASE_EVERY] = '\n';
  }
  t[TEXT_LEN] = 0;
  return t;
}

static void positions_agree(void)
{
  char *text = make_text(), path[32];
  if (!CHECK(text && check_temp_file(text, path), "temporary file")) return;
  dl_diag *d = dl_diag_create();
  dl_source *src = dl_load_source(path, d);
  if (CHECK(src && src->len == TEXT_LEN, "loaded")) {
    const uint32_t offs[] = { 0, 1, DL_LOAD_RELEASE_EVERY - 1, DL_LOAD_RELEASE_EVERY, DL_LOAD_RELEASE_EVERY + 1,
                              2 * DL_LOAD_RELEASE_EVERY, 2 * DL_LOAD_RELEASE_EVERY + 1, 3 * DL_LOAD_RELEASE_EVERY + 7,
                              TEXT_LEN };
    for (size_t i = 0; i < sizeof offs / sizeof *offs; i++) {
      unsigned want_line, want_col, line, col;
      lx_position(text, offs[i], &want_line, &want_col);
      dl_load_position(src, offs[i], &line, &col);
      CHECK(line == want_line && col == want_col, "offset %u: %u:%u, want %u:%u", offs[i], line, col, want_line,
            want_col);
    }
    CHECK(memcmp(src->text, text, TEXT_LEN) == 0, "the text reads the same after its release");
  }
  dl_load_free_source(src);
  dl_diag_destroy(d);
  unlink(path);
  free(text);
}

int main(void)
{
  positions_agree();
  return check_exit();
}
