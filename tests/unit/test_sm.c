/* test_sm.c: the minimal state machine (datalog/machine/sm.h) on tic-tac-toe
 * (the file given as argument, tests/games/ticTacToe.kif): roles in file
 * order, the initial state, legal moves, a win for xplayer, a draw, an
 * illegal joint move, a role without legal moves, and goals asked where
 * the game has none or several (ggp-base's contract: errors, no defaults). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/machine/sm.h"
#include "datalog/program/load.h"

/* The printed form of t (static buffer: one use at a time). */
static const char *text(const dl_sm *sm, dl_tid t)
{
  static char out[256];
  dl_buf b = { 0 };
  dl_sm_term_text(sm, t, DL_FMT_INFIX, &b);
  snprintf(out, sizeof out, "%s", b.data ? b.data : "?");
  dl_buf_free(&b);
  return out;
}

/* The term of ids[0..n) printed as s, or DL_NO_TERM. */
static dl_tid find(const dl_sm *sm, const dl_tid *ids, uint32_t n, const char *s)
{
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(text(sm, ids[i]), s) == 0) return ids[i];
  return DL_NO_TERM;
}

/* Whether the last message of diag holds s. */
static int last_says(const dl_diag *d, const char *s)
{
  size_t n = dl_diag_count(d);
  return n > 0 && strstr(dl_diag_message(d, n - 1)->text, s) != NULL;
}

/* Plays the moves "x1 y1 x2 y2 ..." alternately from the initial state
 * (xplayer first; the other role plays noop) into *state.  1 when every
 * step was accepted. */
static int play(dl_sm *sm, const char *cells, dl_ids *state)
{
  uint32_t n_init;
  const dl_tid *init = dl_sm_initial(sm, &n_init);
  state->n = 0;
  for (uint32_t i = 0; i < n_init; i++) {
    if (state->n == state->cap) {
      state->cap = state->cap ? 2 * state->cap : 16;
      state->ids = realloc(state->ids, state->cap * sizeof *state->ids);
    }
    state->ids[state->n++] = init[i];
  }
  dl_ids moves[2] = { { 0 }, { 0 } }, next = { 0 };
  int ok = 1;
  for (int turn = 0; ok && cells[0] && cells[1]; turn++, cells += 2 + (cells[2] == ' ')) {
    char mark[32];
    snprintf(mark, sizeof mark, "mark(%c,%c)", cells[0], cells[1]);
    dl_tid joint[2];
    for (uint32_t r = 0; ok && r < 2; r++) {
      ok = dl_sm_legal(sm, state->ids, state->n, r, &moves[r]);
      joint[r] = find(sm, moves[r].ids, moves[r].n, (int)r == turn % 2 ? mark : "noop");
      ok = ok && joint[r] != DL_NO_TERM;
    }
    ok = ok && dl_sm_next(sm, state->ids, state->n, joint, &next);
    dl_ids tmp = *state;
    *state = next;
    next = tmp;
  }
  dl_ids_free(&moves[0]);
  dl_ids_free(&moves[1]);
  dl_ids_free(&next);
  return ok;
}

static void test_initial(dl_sm *sm, dl_diag *d)
{
  uint32_t n_roles, n_init;
  const dl_tid *roles = dl_sm_roles(sm, &n_roles);
  CHECK(n_roles == 2, "two roles, got %u", n_roles);
  CHECK(n_roles == 2 && strcmp(text(sm, roles[0]), "xplayer") == 0, "xplayer first, as in the file");
  CHECK(n_roles == 2 && strcmp(text(sm, roles[1]), "oplayer") == 0, "oplayer second");
  const dl_tid *init = dl_sm_initial(sm, &n_init);
  CHECK(n_init == 10, "ten initial fluents, got %u", n_init);
  CHECK(find(sm, init, n_init, "cell(2,3,b)") != DL_NO_TERM, "cell(2,3,b) is initial");
  CHECK(find(sm, init, n_init, "control(xplayer)") != DL_NO_TERM, "control(xplayer) is initial");
  for (uint32_t i = 1; i < n_init; i++) CHECK(init[i - 1] < init[i], "the initial state is sorted");

  int terminal = -1;
  CHECK(dl_sm_terminal(sm, init, n_init, &terminal) && terminal == 0, "the initial state is not terminal");
  dl_ids moves = { 0 };
  CHECK(dl_sm_legal(sm, init, n_init, 0, &moves) && moves.n == 9, "xplayer has 9 moves, got %u", moves.n);
  CHECK(find(sm, moves.ids, moves.n, "mark(3,1)") != DL_NO_TERM, "mark(3,1) is legal for xplayer");
  CHECK(dl_sm_legal(sm, init, n_init, 1, &moves) && moves.n == 1 && strcmp(text(sm, moves.ids[0]), "noop") == 0,
        "oplayer has only noop");
  dl_sm_stats before = dl_sm_get_stats(sm);
  dl_tid reversed[16];
  for (uint32_t i = 0; i < n_init; i++) reversed[i] = init[n_init - 1 - i];
  CHECK(dl_sm_legal(sm, reversed, n_init, 0, &moves) && moves.n == 9, "a state in any order is the same state");
  CHECK(dl_sm_get_stats(sm).models == before.models, "the model of the state asked about is kept");

  int value = -1;
  size_t errors = dl_diag_errors(d);
  CHECK(!dl_sm_goal(sm, init, n_init, 0, &value), "no goal value in the initial state is an error");
  CHECK(dl_diag_errors(d) == errors + 1 && last_says(d, "has no goal value in this non-terminal state"),
        "and it is reported");
  dl_ids values = { 0 };
  CHECK(dl_sm_goal_values(sm, init, n_init, 0, &values) && values.n == 0, "goal_values gives none, no error");
  dl_ids_free(&values);
  dl_ids_free(&moves);
}

/* Asks for the goal values of both roles in a terminal state. */
static void check_goals(dl_sm *sm, const dl_ids *s, int x, int o, const char *what)
{
  int terminal = 0, gx = -1, go = -1;
  CHECK(dl_sm_terminal(sm, s->ids, s->n, &terminal) && terminal, "%s: terminal", what);
  CHECK(dl_sm_goal(sm, s->ids, s->n, 0, &gx) && gx == x, "%s: xplayer gets %d, got %d", what, x, gx);
  CHECK(dl_sm_goal(sm, s->ids, s->n, 1, &go) && go == o, "%s: oplayer gets %d, got %d", what, o, go);
}

static void test_games(dl_sm *sm)
{
  dl_ids s = { 0 };
  int terminal = -1;
  CHECK(play(sm, "11 21 12 22", &s), "four moves are played");
  CHECK(dl_sm_terminal(sm, s.ids, s.n, &terminal) && !terminal, "not over after four moves");
  CHECK(find(sm, s.ids, s.n, "cell(2,2,o)") != DL_NO_TERM, "o is at 2,2");
  CHECK(find(sm, s.ids, s.n, "control(xplayer)") != DL_NO_TERM, "xplayer to move");
  CHECK(s.n == 10, "a state of ten fluents, got %u", s.n);

  CHECK(play(sm, "11 21 12 22 13", &s), "a win for xplayer is played");
  check_goals(sm, &s, 100, 0, "row 1 of x");
  CHECK(play(sm, "11 12 13 22 21 31 32 23 33", &s), "a draw is played");
  check_goals(sm, &s, 50, 50, "the draw");
  CHECK(play(sm, "11 21 12 31 22 13 33", &s), "a win for x on the diagonal is played");
  check_goals(sm, &s, 100, 0, "the diagonal");
  dl_ids_free(&s);
}

static void test_errors(dl_sm *sm, dl_diag *d)
{
  uint32_t n_init;
  const dl_tid *init = dl_sm_initial(sm, &n_init);
  dl_ids x = { 0 }, o = { 0 }, next = { 0 };
  CHECK(dl_sm_legal(sm, init, n_init, 0, &x) && dl_sm_legal(sm, init, n_init, 1, &o), "legal moves");
  dl_tid joint[2] = { find(sm, x.ids, x.n, "mark(1,1)"), find(sm, o.ids, o.n, "noop") };
  CHECK(dl_sm_next(sm, init, n_init, joint, &next) && next.n == 10, "mark(1,1), noop is a move");

  /* oplayer may not mark when xplayer has control */
  dl_tid wrong[2] = { joint[0], joint[0] };
  size_t errors = dl_diag_errors(d);
  CHECK(!dl_sm_next(sm, init, n_init, wrong, &next), "an illegal joint move is refused");
  CHECK(dl_diag_errors(d) == errors + 1 &&
        last_says(d, "illegal joint move: 'mark(1,1)' is not a legal move of role 'oplayer'"),
        "and reported: %s", dl_diag_count(d) ? dl_diag_message(d, dl_diag_count(d) - 1)->text : "");

  /* marking a cell that is taken */
  CHECK(dl_sm_next(sm, init, n_init, joint, &next), "next again");
  dl_ids x2 = { 0 }, o2 = { 0 }, next2 = { 0 };
  CHECK(dl_sm_legal(sm, next.ids, next.n, 0, &x2) && dl_sm_legal(sm, next.ids, next.n, 1, &o2),
        "legal after mark(1,1)");
  CHECK(find(sm, o2.ids, o2.n, "mark(1,1)") == DL_NO_TERM && o2.n == 8, "oplayer has 8 cells left");
  dl_tid again[2] = { find(sm, x2.ids, x2.n, "noop"), joint[0] };
  CHECK(!dl_sm_next(sm, next.ids, next.n, again, &next2) && last_says(d, "not a legal move of role 'oplayer'"),
        "marking a taken cell is refused");

  /* a state where nobody has control: no legal move, not terminal */
  dl_tid blank = find(sm, init, n_init, "cell(1,1,b)");
  errors = dl_diag_errors(d);
  CHECK(!dl_sm_legal(sm, &blank, 1, 0, &x) && dl_diag_errors(d) == errors + 1 &&
        last_says(d, "role 'xplayer' has no legal move in a state that is not terminal"),
        "a role without a legal move in a non-terminal state is an error");
  /* the empty state is terminal (no open cell): no legal move is fine there */
  int terminal = 0;
  CHECK(dl_sm_terminal(sm, NULL, 0, &terminal) && terminal, "the empty state is terminal");
  CHECK(dl_sm_legal(sm, NULL, 0, 0, &x) && x.n == 0, "no legal move in a terminal state is no error");
  int value = -1;
  CHECK(dl_sm_goal(sm, NULL, 0, 0, &value) && value == 50, "the empty board is a draw");
  dl_ids_free(&x);
  dl_ids_free(&o);
  dl_ids_free(&x2);
  dl_ids_free(&o2);
  dl_ids_free(&next);
  dl_ids_free(&next2);
}

/* A program loaded from text; its machine in *sm (NULL when refused). */
static dl_loaded *load_text(const char *name, const char *text, dl_diag *d, dl_sm **sm)
{
  dl_load_options o = { .file = name, .syntax = -1 };
  dl_loaded *l = dl_load_memory(&o, text, strlen(text), d);
  *sm = l && l->prog ? dl_sm_create(l->prog, d) : NULL;
  return l;
}

/* Broken games: goals several or out of range, no role. */
static void test_broken(void)
{
  dl_diag *d = dl_diag_create();
  dl_sm *sm;
  dl_loaded *l = load_text("two.kif",
                           "(role a) (role b) (init p) (legal a go) (legal b go) (<= terminal (true p))"
                           "(goal a 100) (goal a 0) (goal b 200)",
                           d, &sm);
  CHECK(sm != NULL, "a game with bad goals still has a machine");
  uint32_t n_init;
  const dl_tid *init = sm ? dl_sm_initial(sm, &n_init) : NULL;
  int value = -1;
  CHECK(sm && !dl_sm_goal(sm, init, n_init, 0, &value) &&
        last_says(d, "role 'a' has 2 goal values in this terminal state ('100', '0')"),
        "several goal values are an error: %s", dl_diag_count(d) ? dl_diag_message(d, dl_diag_count(d) - 1)->text : "");
  CHECK(sm && !dl_sm_goal(sm, init, n_init, 1, &value) &&
        last_says(d, "the goal value of role 'b' is '200', not a number in 0..100"),
        "a goal value beyond 100 is an error");
  dl_sm_destroy(sm);
  dl_load_destroy(l);

  size_t errors = dl_diag_errors(d);
  l = load_text("norole.kif", "(init p) (<= terminal (true p))", d, &sm);
  CHECK(sm == NULL && dl_diag_errors(d) == errors + 1 && last_says(d, "no role"), "a game without roles");
  dl_load_destroy(l);

  /* an infinite initial model stops at the limit given at creation */
  dl_load_options o = { .file = "infinite.kif", .syntax = -1 };
  const char *inf = "(role a) (init (n 0)) (<= (init (n (s ?x)))  (init (n ?x)))";
  l = dl_load_memory(&o, inf, strlen(inf), d);
  dl_eval_options limit = { 100, NULL };
  errors = dl_diag_errors(d);
  sm = l && l->prog ? dl_sm_create_limited(l->prog, &limit, d) : NULL;
  CHECK(l && l->prog && sm == NULL && dl_diag_errors(d) > errors && last_says(d, "beyond 100 atoms"),
        "the limit holds for the first model: %s", dl_diag_count(d) ? dl_diag_message(d, dl_diag_count(d) - 1)->text : "");
  dl_load_destroy(l);

  /* roles in file order, not by name or term id */
  l = load_text("order.kif", "(role zed) (role alpha) (role mid) (init p)", d, &sm);
  uint32_t n_roles = 0;
  const dl_tid *roles = sm ? dl_sm_roles(sm, &n_roles) : NULL;
  CHECK(n_roles == 3 && strcmp(text(sm, roles[0]), "zed") == 0 && strcmp(text(sm, roles[2]), "mid") == 0,
        "roles keep the order of the file");
  dl_sm_destroy(sm);
  dl_load_destroy(l);
  dl_diag_destroy(d);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_sm ticTacToe.kif\n");
    return 2;
  }
  dl_diag *d = dl_diag_create();
  dl_load_options o = { .file = argv[1], .syntax = -1 };
  dl_loaded *l = dl_load(&o, d);
  dl_sm *sm = l && l->prog ? dl_sm_create(l->prog, d) : NULL;
  CHECK(sm != NULL, "tic-tac-toe gets a machine");
  if (sm) {
    test_initial(sm, d);
    test_games(sm);
    test_errors(sm, d);
    dl_sm_stats st = dl_sm_get_stats(sm);
    printf("%llu models in %.3f s\n", (unsigned long long)st.models, st.seconds);
  }
  dl_sm_destroy(sm);
  dl_load_destroy(l);
  dl_diag_destroy(d);
  test_broken();
  return check_exit();
}
