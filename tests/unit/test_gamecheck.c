/* test_gamecheck.c: the checks of gdl/gamecheck.h through the library, as
 * the command line calls them: dl_check_growth before evaluating,
 * dl_check_moves and dl_check_legal_moves after.  Counts the warnings and
 * looks for the words that matter in them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/base/diag.h"
#include "datalog/eval/eval.h"
#include "datalog/gdl/gamecheck.h"
#include "datalog/program/load.h"

static const dl_diag *last; /* the diag of the run at hand, shown when a check fails */

static void show_last(void) {
  for (size_t i = 0; last && i < dl_diag_count(last); i++) {
    char *z = dl_diag_render(dl_diag_message(last, i));
    printf("    %s", z ? z : "?\n");
    free(z);
  }
}

/* CHECK, and on failure the messages of the run at hand. */
#define EXPECT(cond, ...)                                                                                              \
  do {                                                                                                                 \
    if (!CHECK(cond, __VA_ARGS__)) show_last();                                                                        \
  } while (0)

/* Number of messages of severity sev whose text holds word (NULL: any). */
static size_t count(const dl_diag *d, dl_severity sev, const char *word)
{
  size_t n = 0;
  for (size_t i = 0; i < dl_diag_count(d); i++) {
    const dl_message *m = dl_diag_message(d, i);
    n += m->severity == sev && (!word || strstr(m->text, word));
  }
  return n;
}

static const char game[] =
  "(role x) (role o)\n"
  "(init (cell 1 b)) (init (cell 2 b)) (init (control x))\n"
  "(<= (legal ?p (mark ?c)) (true (control ?p)) (true (cell ?c b)))\n"
  "(<= (legal o noop) (true (control x)))\n"
  "(<= (legal x noop) (true (control o)))\n"
  "(<= (next (cell ?c ?p)) (does ?p (mark ?c)))\n"
  "(<= (next (control o)) (true (control x)))\n"
  "(<= (next (control x)) (true (control o)))\n"
  "(<= terminal (true (cell 1 x)))\n"
  "(goal x 100) (goal o 0)\n";

typedef struct run {
  dl_diag *diag;
  dl_loaded *loaded;
  dl_eval *eval;
  int ok;
} run;

/* Loads text (with the optional files and rules), checks growth with
 * max_terms, evaluates. */
static run evaluate(const char *name, const char *text, const char *state, const char *does, const char *extra,
                    uint64_t max_terms)
{
  run r = { dl_diag_create(), NULL, NULL, 0 };
  dl_load_options o = { .file = name, .state_file = state, .does_file = does, .extra_rules = extra, .syntax = -1 };
  r.loaded = dl_load_memory(&o, text, strlen(text), r.diag);
  const dl_program *p = r.loaded ? r.loaded->prog : NULL;
  dl_eval_options eo = { 0, NULL };
  if (p && dl_check_growth(p, max_terms, r.diag)) r.eval = dl_eval_create(p, &eo, r.diag);
  r.ok = r.eval && dl_eval_run(r.eval);
  last = r.diag;
  return r;
}

static void run_free(run *r)
{
  dl_eval_destroy(r->eval);
  dl_load_destroy(r->loaded);
  dl_diag_destroy(r->diag);
}

static void test_growth(void)
{
  run r = evaluate("pairs.dl", "t(a). t(b). t(p(X,Y)) :- t(X) & t(Y).", NULL, NULL, NULL, 1000);
  EXPECT(count(r.diag, DL_WARNING, "p -> p[1] -> p") == 1, "growth: warned, naming the cycle");
  EXPECT(!r.ok && count(r.diag, DL_ERROR, "--max-terms") == 1, "growth: stopped, naming --max-terms");
  run_free(&r);
  r = evaluate("pairs.dl", "t(a). t(b). t(p(X,Y)) :- t(X) & t(Y) & small(X) & small(Y). small(a). small(b).", NULL, NULL, NULL, 1000);
  EXPECT(r.ok && count(r.diag, DL_WARNING, NULL) == 1, "growth: a finite model is warned about but computed");
  run_free(&r);
  r = evaluate("g.kif", game, NULL, NULL, "true(X) :- init(X).", 1000);
  EXPECT(r.ok && count(r.diag, DL_WARNING, NULL) == 0, "growth: a game without recursive symbols: no warning");
  run_free(&r);
}

static void test_legal_moves(void)
{
  run r = evaluate("g.kif", game, NULL, NULL, "true(X) :- init(X).", 0);
  EXPECT(r.ok && dl_check_legal_moves(r.loaded->prog, r.eval, r.diag) && count(r.diag, DL_WARNING, NULL) == 0,
         "legal moves: every role has one in the initial state");
  run_free(&r);
  char state[32];
  CHECK(check_temp_file("(cell 1 b) (cell 2 b)\n", state), "a state file written");
  r = evaluate("g.kif", game, state, NULL, NULL, 0);
  EXPECT(r.ok && dl_check_legal_moves(r.loaded->prog, r.eval, r.diag) &&
             count(r.diag, DL_WARNING, "no legal move") == 2,
         "legal moves: without control nobody moves");
  run_free(&r);
  remove(state);
  CHECK(check_temp_file("(cell 1 x) (cell 2 b)\n", state), "a state file written");
  r = evaluate("g.kif", game, state, NULL, NULL, 0);
  EXPECT(r.ok && dl_check_legal_moves(r.loaded->prog, r.eval, r.diag) && count(r.diag, DL_WARNING, NULL) == 0,
         "legal moves: a terminal state needs none");
  run_free(&r);
  remove(state);
}

static void test_moves(void)
{
  char does[32];
  CHECK(check_temp_file("(does x (mark 1)) (does x (mark 2)) (does z noop)\n", does), "a does file written");
  run r = evaluate("g.kif", game, NULL, does, "true(X) :- init(X).", 0);
  EXPECT(r.ok && dl_check_moves(r.loaded->prog, r.eval, r.diag), "moves: checked");
  EXPECT(count(r.diag, DL_WARNING, "second move") == 1, "moves: a second move for x");
  EXPECT(count(r.diag, DL_WARNING, "not a role") == 1, "moves: z is not a role");
  EXPECT(count(r.diag, DL_WARNING, "has no move") == 1, "moves: o has no move");
  run_free(&r);
  remove(does);
  CHECK(check_temp_file("(does x (mark 7)) (does o noop)\n", does), "a does file written");
  r = evaluate("g.kif", game, NULL, does, "true(X) :- init(X).", 0);
  EXPECT(r.ok && dl_check_moves(r.loaded->prog, r.eval, r.diag) && count(r.diag, DL_WARNING, "not legal") == 1 &&
             count(r.diag, DL_WARNING, NULL) == 1,
         "moves: mark 7 is not legal, noop is");
  run_free(&r);
  remove(does);
}

int main(void)
{
  test_growth();
  test_legal_moves();
  test_moves();
  return check_exit();
}
