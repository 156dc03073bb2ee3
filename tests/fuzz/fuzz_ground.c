/* fuzz_ground.c: bytes -> a game -> its ground game under small limits
 * (FUZZ_GAME_INSTANCES, FUZZ_GAME_ATOMS, a wall-clock budget through the
 * options' stop), written in every format of datalog/write/ground_write.h
 * and, up to 5000 rules, read back: the KIF, infix and ASP texts must
 * load again as their syntax, and one of them (chosen by the input's last byte), when small,
 * must ground again to a game whose keyword atoms (true, does, legal,
 * next, goal, terminal, init, role, base, input) are all atoms of the
 * first.  Not as many: grounding a ground game again may prove more atoms
 * unreachable (moves never legal) and adds auxiliary atoms when it
 * simplifies further.  The numeric text must count as many atoms and rules
 * as the game has; the figures (text and JSON) are written too.  A text
 * gdlog wrote that it cannot read back, or that grounds to a keyword atom
 * the first game did not have, is a bug: abort(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/write/ground_write.h"
#include "lexer.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/game.h"

/* Ground games this small are read back (loading 20,000 rules three times
 * takes seconds under ASan), and this small grounded again from their
 * text (one format per input, chosen by its last byte: grounding is the
 * costly part). */
enum { READ_BACK_MAX_RULES = 5000, REGROUND_MAX_RULES = 1000 };

static void fail(const char *what, dl_diag *diag)
{
  fprintf(stderr, "fuzz_ground: %s\n", what);
  for (size_t i = 0; diag && i < dl_diag_count(diag); i++) {
    char *m = dl_diag_render(dl_diag_message(diag, i));
    if (m) fputs(m, stderr);
    free(m);
  }
  abort();
}

static int cmp_text(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* g written in fmt into *b; 0 when out of memory. */
static int write_ground(const dl_ground *g, dl_ground_format fmt, dl_buf *b)
{
  dl_sink sink = { fuzz_buf_write, b };
  b->len = 0;
  return dl_ground_write(&sink, g, fmt);
}

/* The keyword atoms of ground game g as sorted texts (KIF) into *out,
 * their number into *n; 0 when out of memory. */
static int keyword_atoms(const dl_ground *g, dl_buf *text, char ***out, uint32_t *n)
{
  text->len = 0;
  dl_sink sink = { fuzz_buf_write, text };
  if (!dl_ground_write(&sink, g, DL_GROUND_NUMERIC) || !text->data) return 0;
  uint32_t count = dl_ground_atom_count(g);
  char **v = calloc((size_t)count + 1, sizeof *v);
  if (!v) return 0;
  *n = 0;
  char *p = strstr(text->data, "\natoms ");
  p = p ? strchr(p + 1, '\n') : NULL;
  for (uint32_t i = 0; p && i < count; i++) {
    char *line = p + 1, *end = strchr(line, '\n');
    if (!end) break;
    *end = 0;
    p = end;
    char *role = strchr(line, ' '), *atom = role ? strchr(role + 1, ' ') : NULL;
    if (atom && strncmp(role + 1, "other ", 6)) v[(*n)++] = atom + 1;
  }
  qsort(v, *n, sizeof *v, cmp_text);
  *out = v;
  return 1;
}

/* Every keyword atom of again (the ground game grounded again from its
 * text) must be one of first's. */
static void compare_keywords(const dl_ground *first, const dl_ground *again)
{
  dl_buf t1 = { 0 }, t2 = { 0 };
  char **k1 = NULL, **k2 = NULL;
  uint32_t n1 = 0, n2 = 0;
  if (keyword_atoms(first, &t1, &k1, &n1) && keyword_atoms(again, &t2, &k2, &n2))
    for (uint32_t i = 0; i < n2; i++)
      if (!bsearch(&k2[i], k1, n1, sizeof *k1, cmp_text)) {
        fprintf(stderr, "fuzz_ground: the ground game grounded again has the atom %s, the first has not\n", k2[i]);
        abort();
      }
  free(k1);
  free(k2);
  dl_buf_free(&t1);
  dl_buf_free(&t2);
}

/* The text b of g's ground game in syntax must load and, when reground is
 * set and g is small, ground again to a game of no other keyword atoms. */
static void read_back(const dl_game *g, const dl_buf *b, int syntax, int reground, dl_stop *stop)
{
  dl_diag *diag = dl_diag_create();
  dl_game again = { 0 };
  dl_game_options o;
  fuzz_game_options(&o, DL_BACKEND_AUTO, DL_CIRCUIT_AUTO, stop);
  uint32_t rules = dl_ground_rule_count(g->ground);
  dl_stage to = reground && rules <= REGROUND_MAX_RULES ? DL_STAGE_GROUND : DL_STAGE_LOAD;
  fuzz_stop_rearm(stop);
  if (diag && !fuzz_game_build(&again, b->data, b->len, syntax, &o, to, diag) && !fuzz_limited(diag) &&
      !fuzz_input_over())
    fail(syntax == LX_KIF ? "the KIF ground game does not read back"
         : syntax == LX_INFIX ? "the infix ground game does not read back" : "the ASP ground game does not read back",
         diag);
  if (again.ground) compare_keywords(g->ground, again.ground);
  if (diag) fuzz_render(diag);
  dl_game_free(&again);
  dl_diag_destroy(diag);
}

/* The numeric text must count g's atoms and rules. */
static void check_numeric(const dl_game *g, const dl_buf *b)
{
  unsigned atoms = 0, rules = 0;
  if (!b->data || sscanf(b->data, "gdlog-ground 1 atoms %u", &atoms) != 1) fail("numeric: no header", NULL);
  const char *r = strstr(b->data, "\nrules ");
  if (!r || sscanf(r, " rules %u", &rules) != 1) fail("numeric: no rules line", NULL);
  if (atoms != dl_ground_atom_count(g->ground) || rules != dl_ground_rule_count(g->ground))
    fail("numeric: the counts are not the game's", NULL);
}

static void write_all(const dl_game *g, unsigned pick, dl_stop *stop)
{
  static const struct { dl_ground_format fmt; int syntax; } formats[] = {
    { DL_GROUND_KIF, LX_KIF }, { DL_GROUND_INFIX, LX_INFIX }, { DL_GROUND_ASP, LX_ASP }, { DL_GROUND_NUMERIC, -1 }
  };
  dl_buf b = { 0 };
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
    if (!write_ground(g->ground, formats[i].fmt, &b)) break;  /* out of memory */
    if (formats[i].syntax < 0) check_numeric(g, &b);
    else if (dl_ground_rule_count(g->ground) <= READ_BACK_MAX_RULES)
      read_back(g, &b, formats[i].syntax, pick % 3 == i, stop);
  }
  dl_ground_phases ph = { 0 };
  for (int json = 0; json < 2; json++) {
    b.len = 0;
    dl_ground_write_stats(&b, g->ground, g->loaded->prog, &ph, json);
  }
  dl_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  dl_diag *diag = dl_diag_create();
  if (!diag) return 0;
  dl_stop stop = { 0 };
  dl_game_options o;
  fuzz_game_options(&o, DL_BACKEND_AUTO, DL_CIRCUIT_AUTO, &stop);
  dl_game g = { 0 };
  fuzz_input_begin();
  fuzz_stop_rearm(&stop);
  if (fuzz_game_build(&g, (const char *)data, size, -1, &o, DL_STAGE_GROUND, diag))
    write_all(&g, size ? data[size - 1] : 0, &stop);
  fuzz_render(diag);
  dl_game_free(&g);
  dl_diag_destroy(diag);
  return 0;
}
