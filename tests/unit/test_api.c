/* test_api.c: the public API (datalog/gdlog.h) on tic-tac-toe (the file
 * given as argument, tests/games/ticTacToe.kif), on each backend the build
 * has: roles, a win for xplayer, a draw, illegal joint moves (ILLEGAL with
 * a clear message, INPUT for a joint move that is not one move per role),
 * states as text and back, games that break the contract (a role without
 * legal moves, goals missing or several: GAME) or do not load, and the
 * symmetries (canonical states, images of states and joint moves). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/gdlog.h"

static gdlog_backend backend;  /* the backend of the current round */

static gdlog_status open_text(const char *text, gdlog_game **g);

static gdlog_game *open_ttt(const char *path, gdlog_syntax output)
{
  gdlog_options o;
  gdlog_options_init(&o);
  o.backend = backend;
  o.output = output;
  gdlog_game *g;
  gdlog_status st = gdlog_open_file(path, &o, &g);
  CHECK(st == GDLOG_OK, "open %s: %s %s", path, gdlog_status_name(st), g ? gdlog_error(g) : "");
  if (st != GDLOG_OK) {
    gdlog_close(g);
    return NULL;
  }
  CHECK(gdlog_backend_of(g) == backend || backend == GDLOG_BACKEND_AUTO, "backend %d, asked %d",
        gdlog_backend_of(g), backend);
  return g;
}

/* Steps s by the joint move written as does facts; the status. */
static gdlog_status step(gdlog_game *g, gdlog_state **s, const char *does)
{
  gdlog_move joint[2];
  gdlog_status st = gdlog_parse_joint(g, *s, "<test>", does, strlen(does), joint);
  if (st != GDLOG_OK) return st;
  gdlog_state *next;
  st = gdlog_next(g, *s, joint, &next);
  if (st != GDLOG_OK) return st;
  gdlog_state_free(*s);
  *s = next;
  return GDLOG_OK;
}

/* Plays marks "11 21 12 ..." alternately from the initial state, xplayer
 * first, the other role playing noop; the state, or NULL. */
static gdlog_state *play(gdlog_game *g, const char *cells)
{
  gdlog_state *s;
  if (gdlog_initial(g, &s) != GDLOG_OK) return NULL;
  for (int turn = 0; cells[0]; turn++, cells += cells[2] ? 3 : 2) {
    char does[128];
    const char *mover = turn % 2 ? "oplayer" : "xplayer", *other = turn % 2 ? "xplayer" : "oplayer";
    snprintf(does, sizeof does, "(does %s (mark %c %c)) (does %s noop)", mover, cells[0], cells[1], other);
    gdlog_status st = step(g, &s, does);
    CHECK(st == GDLOG_OK, "step %s: %s", does, gdlog_error(g));
    if (st != GDLOG_OK) {
      gdlog_state_free(s);
      return NULL;
    }
  }
  return s;
}

static void check_goals(gdlog_game *g, const gdlog_state *s, int x, int o, const char *what)
{
  int terminal = -1, vx = -1, vo = -1;
  CHECK(gdlog_is_terminal(g, s, &terminal) == GDLOG_OK && terminal == 1, "%s: terminal %d", what, terminal);
  CHECK(gdlog_goal(g, s, 0, &vx) == GDLOG_OK && vx == x, "%s: xplayer %d, expected %d", what, vx, x);
  CHECK(gdlog_goal(g, s, 1, &vo) == GDLOG_OK && vo == o, "%s: oplayer %d, expected %d", what, vo, o);
}

static void test_roles_and_initial(const char *path)
{
  gdlog_game *g = open_ttt(path, GDLOG_SYNTAX_AUTO);
  if (!g) return;
  CHECK(gdlog_role_count(g) == 2, "roles %d", gdlog_role_count(g));
  CHECK(strcmp(gdlog_role_name(g, 0), "xplayer") == 0 && strcmp(gdlog_role_name(g, 1), "oplayer") == 0,
        "roles %s %s", gdlog_role_name(g, 0), gdlog_role_name(g, 1));
  int r = -1;
  CHECK(gdlog_role_index(g, "oplayer", &r) == GDLOG_OK && r == 1, "role_index oplayer: %d", r);
  CHECK(gdlog_role_index(g, "nobody", &r) == GDLOG_ERR_INPUT && strstr(gdlog_error(g), "no role 'nobody'"),
        "role_index nobody: %s", gdlog_error(g));
  gdlog_state *s;
  CHECK(gdlog_initial(g, &s) == GDLOG_OK, "initial");
  const gdlog_move *moves;
  int n = -1, terminal = -1;
  CHECK(gdlog_is_terminal(g, s, &terminal) == GDLOG_OK && terminal == 0, "initial terminal %d", terminal);
  CHECK(gdlog_legal(g, s, 0, &moves, &n) == GDLOG_OK && n == 9, "xplayer has %d moves", n);
  CHECK(gdlog_legal(g, s, 1, &moves, &n) == GDLOG_OK && n == 1 && strcmp(gdlog_move_text(g, moves[0]), "noop") == 0,
        "oplayer: %d moves", n);
  /* a move by index, no text: the fast path of a playout */
  gdlog_move joint[2];
  CHECK(gdlog_legal(g, s, 0, &moves, &n) == GDLOG_OK, "legal");
  joint[0] = moves[4];
  CHECK(gdlog_legal(g, s, 1, &moves, &n) == GDLOG_OK, "legal");
  joint[1] = moves[0];
  gdlog_state *next = NULL;
  CHECK(gdlog_next(g, s, joint, &next) == GDLOG_OK, "next: %s", gdlog_error(g));
  CHECK(next && !gdlog_state_equal(s, next), "next differs");
  gdlog_state_free(next);
  gdlog_state_free(s);
  gdlog_close(g);
}

static void test_win_and_draw(const char *path)
{
  gdlog_game *g = open_ttt(path, GDLOG_SYNTAX_AUTO);
  if (!g) return;
  gdlog_state *s = play(g, "11 21 12 22 13");
  if (s) check_goals(g, s, 100, 0, "win");
  const gdlog_move *moves;
  int n = -1;
  CHECK(s && gdlog_legal(g, s, 0, &moves, &n) == GDLOG_OK, "legal in a terminal state: %s", gdlog_error(g));
  gdlog_state_free(s);
  s = play(g, "11 12 13 22 21 23 32 31 33");
  if (s) check_goals(g, s, 50, 50, "draw");
  gdlog_state_free(s);
  s = play(g, "11 12");
  int terminal = -1, v = -1;
  CHECK(s && gdlog_is_terminal(g, s, &terminal) == GDLOG_OK && terminal == 0, "mid-game terminal %d", terminal);
  /* tic-tac-toe has no goal value while the board is open: an error, no default */
  CHECK(s && gdlog_goal(g, s, 0, &v) == GDLOG_ERR_GAME &&
            strstr(gdlog_error(g), "role 'xplayer' has no goal value in this non-terminal state"),
        "mid-game goal: %s", gdlog_error(g));
  gdlog_state_free(s);
  gdlog_close(g);
}

/* Random playouts: exact from a won state and a state one mark from a
 * draw; from the initial state xplayer (who moves first) wins more often
 * than oplayer, and the mean depth of random tic-tac-toe is about 7.6. */
static void test_playouts(const char *path)
{
  gdlog_game *g = open_ttt(path, GDLOG_SYNTAX_AUTO);
  if (!g) return;
  double mean[2] = { -1, -1 }, depth = -1;
  gdlog_state *s = play(g, "11 21 12 22 13");
  gdlog_status st = s ? gdlog_playouts(g, s, 10, 1, mean, &depth) : GDLOG_ERR_GAME;
  CHECK(st == GDLOG_OK && mean[0] == 100 && mean[1] == 0 && depth == 0, "playouts from a win: %s %g %g %g",
        gdlog_error(g), mean[0], mean[1], depth);
  gdlog_state_free(s);
  s = play(g, "11 12 13 22 21 23 32 31");  /* xplayer's last mark at 3 3 draws */
  st = s ? gdlog_playouts(g, s, 100, 2, mean, &depth) : GDLOG_ERR_GAME;
  CHECK(st == GDLOG_OK && mean[0] == 50 && mean[1] == 50 && depth == 1, "playouts to a draw: %s %g %g %g",
        gdlog_error(g), mean[0], mean[1], depth);
  gdlog_state_free(s);
  double again[2] = { -1, -1 };
  st = gdlog_initial(g, &s);
  st = st == GDLOG_OK ? gdlog_playouts(g, s, 3000, 7, mean, &depth) : st;
  CHECK(st == GDLOG_OK && mean[0] > 55 && mean[0] < 75 && mean[0] + mean[1] > 99.9 && mean[0] + mean[1] < 100.1 &&
            depth > 7.2 && depth < 8.0, "3000 playouts from the initial state: %s %g %g %g", gdlog_error(g), mean[0],
        mean[1], depth);
  st = st == GDLOG_OK ? gdlog_playouts(g, s, 3000, 7, again, NULL) : st;
  CHECK(st == GDLOG_OK && again[0] == mean[0] && again[1] == mean[1], "the same seed, the same playouts");
  gdlog_state_free(s);
  gdlog_close(g);
  const char *stuck = "role(a). init(s). legal(a, go) :- true(s). next(t) :- true(s). terminal :- true(u).\n"
                      "goal(a, 50).\n";
  st = open_text(stuck, &g);
  if (st == GDLOG_OK && gdlog_initial(g, &s) == GDLOG_OK) {
    st = gdlog_playouts(g, s, 5, 1, mean, NULL);
    CHECK(st == GDLOG_ERR_GAME && strstr(gdlog_error(g), "role 'a' has no legal move"), "stuck playout: %s %s",
          gdlog_status_name(st), gdlog_error(g));
    gdlog_state_free(s);
  } else CHECK(0, "open the stuck game: %s", g ? gdlog_error(g) : "");
  gdlog_close(g);
}

static int callback_calls;
static void on_error(void *ctx, const char *text)
{
  (void)ctx;
  (void)text;
  callback_calls++;
}

static void test_illegal(const char *path)
{
  gdlog_options o;
  gdlog_options_init(&o);
  o.backend = backend;
  o.output = GDLOG_SYNTAX_INFIX;
  o.on_error = on_error;
  gdlog_game *g;
  if (gdlog_open_file(path, &o, &g) != GDLOG_OK) {
    CHECK(0, "open: %s", gdlog_error(g));
    gdlog_close(g);
    return;
  }
  gdlog_state *s = play(g, "22");
  if (!s) {
    gdlog_close(g);
    return;
  }
  gdlog_state *before;
  CHECK(gdlog_state_copy(s, &before) == GDLOG_OK, "copy");
  /* a taken cell: illegal, with the move and the role named */
  gdlog_status st = step(g, &s, "does(xplayer, noop). does(oplayer, mark(2,2)).");
  CHECK(st == GDLOG_ERR_ILLEGAL, "taken cell: %s", gdlog_status_name(st));
  CHECK(strstr(gdlog_error(g), "<test>:1:") &&
            strstr(gdlog_error(g), "illegal move: 'mark(2,2)' is not a legal move of role 'oplayer' in this state"),
        "message: %s", gdlog_error(g));
  CHECK(callback_calls == 1, "callback called %d times", callback_calls);
  /* not its turn */
  st = step(g, &s, "does(xplayer, mark(1,1)). does(oplayer, noop).");
  CHECK(st == GDLOG_ERR_ILLEGAL && strstr(gdlog_error(g), "'mark(1,1)' is not a legal move of role 'xplayer'"),
        "not x's turn: %s %s", gdlog_status_name(st), gdlog_error(g));
  /* the same through move ids, without text: gdlog_next checks too */
  gdlog_move joint[2];
  CHECK(gdlog_parse_move(g, 0, "mark(1,1)", &joint[0]) == GDLOG_OK && gdlog_parse_move(g, 1, "(mark 1 1)", &joint[1]) == GDLOG_OK,
        "parse_move: %s", gdlog_error(g));
  gdlog_state *next = NULL;
  st = gdlog_next(g, s, joint, &next);
  CHECK(st == GDLOG_ERR_ILLEGAL && next == NULL && strstr(gdlog_error(g), "is not a legal move of role 'xplayer'"),
        "next with an illegal move: %s %s", gdlog_status_name(st), gdlog_error(g));
  /* not one move per role: INPUT, located */
  st = step(g, &s, "does(oplayer, mark(1,1))");
  CHECK(st == GDLOG_ERR_INPUT && strstr(gdlog_error(g), "role 'xplayer' has no move in this joint move"),
        "missing role: %s", gdlog_error(g));
  st = step(g, &s, "does(oplayer, mark(1,1))\ndoes(oplayer, mark(1,2))\ndoes(xplayer, noop)");
  CHECK(st == GDLOG_ERR_INPUT && strstr(gdlog_error(g), "<test>:2:1: error: role 'oplayer' has two moves"),
        "two moves: %s", gdlog_error(g));
  st = step(g, &s, "does(oplayer, mark(1,1)). does(zplayer, noop). does(xplayer, noop).");
  CHECK(st == GDLOG_ERR_INPUT && strstr(gdlog_error(g), "no such role"), "unknown role: %s", gdlog_error(g));
  st = step(g, &s, "does(oplayer, mark(1,1)). does(xplayer, M).");
  CHECK(st == GDLOG_ERR_INPUT, "variable: %s", gdlog_error(g));
  st = step(g, &s, "does(oplayer, mark(1,1)");
  CHECK(st == GDLOG_ERR_INPUT && strstr(gdlog_error(g), "<test>:1:"), "syntax: %s", gdlog_error(g));
  CHECK(gdlog_state_equal(s, before), "a refused joint move leaves the state alone");
  /* a legal one still goes through, and gdlog_error is empty after success */
  CHECK(step(g, &s, "does(oplayer, mark(1,1)). does(xplayer, noop).") == GDLOG_OK, "legal after errors: %s",
        gdlog_error(g));
  CHECK(gdlog_parse_move(g, 0, "noop", &joint[0]) == GDLOG_OK && gdlog_error(g)[0] == 0, "error text after success");
  /* many errors: the game keeps working and keeps its messages */
  for (int i = 0; i < 80; i++) {
    st = step(g, &s, "does(xplayer, mark(1,1)). does(oplayer, noop).");
    if (st != GDLOG_ERR_ILLEGAL || !strstr(gdlog_error(g), "'mark(1,1)' is not a legal move of role 'xplayer'")) break;
  }
  CHECK(st == GDLOG_ERR_ILLEGAL && strstr(gdlog_error(g), "'mark(1,1)' is not a legal move"),
        "after many errors: %s", gdlog_error(g));
  gdlog_state_free(before);
  gdlog_state_free(s);
  gdlog_close(g);
}

static void test_state_text(const char *path)
{
  for (int out = 0; out < 2; out++) {
    gdlog_game *g = open_ttt(path, out ? GDLOG_SYNTAX_INFIX : GDLOG_SYNTAX_KIF);
    if (!g) return;
    gdlog_state *s = play(g, "11 22 31"), *back = NULL;
    char *text = NULL;
    CHECK(s && gdlog_state_text(g, s, &text) == GDLOG_OK, "state_text");
    if (text) {
      const char *want = out ? "cell(1,1,x)\n" : "(cell 1 1 x)\n";
      CHECK(strncmp(text, want, strlen(want)) == 0 && strstr(text, out ? "control(oplayer)\n" : "(control oplayer)\n"),
            "state text:\n%s", text);
      CHECK(gdlog_parse_state(g, "s.txt", text, strlen(text), &back) == GDLOG_OK, "parse back: %s", gdlog_error(g));
      CHECK(back && gdlog_state_equal(s, back), "round trip");
    }
    gdlog_state_free(back);
    back = NULL;
    /* true(...) facts, in any order, duplicates and the other syntax too */
    const char *facts = "true(control(oplayer)). cell(1,1,x). cell(1,1,x).";
    CHECK(gdlog_parse_state(g, NULL, facts, strlen(facts), &back) == GDLOG_OK, "true facts: %s", gdlog_error(g));
    char *t2 = NULL;
    CHECK(back && gdlog_state_text(g, back, &t2) == GDLOG_OK &&
              strcmp(t2, out ? "cell(1,1,x)\ncontrol(oplayer)\n" : "(cell 1 1 x)\n(control oplayer)\n") == 0,
          "state text: %s", t2 ? t2 : "(null)");
    free(t2);
    gdlog_state_free(back);
    back = NULL;
    facts = "cell(1,1,x).\ncell(?x,1,o).";
    CHECK(gdlog_parse_state(g, "bad.txt", facts, strlen(facts), &back) == GDLOG_ERR_INPUT &&
              strstr(gdlog_error(g), "bad.txt:2:1: error:") && back == NULL,
          "rule in a state: %s", gdlog_error(g));
    free(text);
    gdlog_state_free(s);
    gdlog_close(g);
  }
}

/* Opens an infix game text; the status, and the game in *g. */
static gdlog_status open_text(const char *text, gdlog_game **g)
{
  gdlog_options o;
  gdlog_options_init(&o);
  o.backend = backend;
  return gdlog_open_buffer("broken.dl", text, strlen(text), &o, g);
}

static void test_broken_games(void)
{
  /* b has no legal move; a's goal is missing, b has two */
  const char *text = "role(a). role(b). init(s).\nlegal(a, go).\nnext(s) :- true(s).\n"
                     "goal(b, 0). goal(b, 100).\n";
  gdlog_game *g;
  gdlog_status st = open_text(text, &g);
  CHECK(st == GDLOG_OK, "open broken: %s", g ? gdlog_error(g) : "");
  gdlog_state *s = NULL;
  if (st == GDLOG_OK && gdlog_initial(g, &s) == GDLOG_OK) {
    const gdlog_move *moves;
    int n = -1, v = -1;
    CHECK(gdlog_legal(g, s, 0, &moves, &n) == GDLOG_OK && n == 1, "a's moves: %d", n);
    st = gdlog_legal(g, s, 1, &moves, &n);
    CHECK(st == GDLOG_ERR_GAME && strstr(gdlog_error(g), "role 'b' has no legal move"), "b: %s %s",
          gdlog_status_name(st), gdlog_error(g));
    st = gdlog_goal(g, s, 0, &v);
    CHECK(st == GDLOG_ERR_GAME && strstr(gdlog_error(g), "role 'a' has no goal value"), "a's goal: %s",
          gdlog_error(g));
    st = gdlog_goal(g, s, 1, &v);
    CHECK(st == GDLOG_ERR_GAME && strstr(gdlog_error(g), "role 'b' has 2 goal values"), "b's goal: %s",
          gdlog_error(g));
    gdlog_move joint[2];
    CHECK(gdlog_parse_move(g, 0, "go", &joint[0]) == GDLOG_OK, "parse go: %s", gdlog_error(g));
    joint[1] = joint[0];  /* b has no move at all: any id will do */
    gdlog_state *next = NULL;
    st = gdlog_next(g, s, joint, &next);
    CHECK(st == GDLOG_ERR_GAME && next == NULL, "next where b has no legal move: %s", gdlog_status_name(st));
  }
  gdlog_state_free(s);
  gdlog_close(g);

  st = open_text("role(a).\np(X) :- q(.\n", &g);
  CHECK(st == GDLOG_ERR_INPUT && g && strstr(gdlog_error(g), "broken.dl:2:"), "syntax error: %s",
        g ? gdlog_error(g) : "");
  gdlog_close(g);
  st = open_text("p(a).\n", &g);
  CHECK(st == GDLOG_ERR_INPUT && g && strstr(gdlog_error(g), "no role"), "no role: %s", g ? gdlog_error(g) : "");
  gdlog_close(g);
  gdlog_options o;
  gdlog_options_init(&o);
  o.backend = backend;
  st = gdlog_open_file("/nonexistent/game.kif", &o, &g);
  CHECK(st == GDLOG_ERR_INPUT && g && strstr(gdlog_error(g), "cannot open /nonexistent/game.kif"), "missing file: %s",
        g ? gdlog_error(g) : "");
  gdlog_close(g);
  /* the atom limit (legal needs the infinite n: the rules backend's
   * demand-driven evaluation skips what no keyword needs) */
  o.max_atoms = 100;
  const char *big = "role(a). init(s). n(z). n(s(X)) :- n(X). legal(a,X) :- n(X).";
  st = gdlog_open_buffer("big.dl", big, strlen(big), &o, &g);
  CHECK(st == GDLOG_ERR_LIMIT, "limit: %s %s", gdlog_status_name(st), g ? gdlog_error(g) : "");
  gdlog_close(g);
}

/* The canonical hash of the state after playing cells, or 0. */
static uint64_t canonical_hash(gdlog_game *g, const char *cells)
{
  gdlog_state *s = play(g, cells), *c = NULL;
  uint64_t hash = 0;
  gdlog_status st = s ? gdlog_canonical(g, s, &c, &hash) : GDLOG_ERR_INPUT;
  CHECK(st == GDLOG_OK, "canonical after %s: %s %s", cells, gdlog_status_name(st), gdlog_error(g));
  gdlog_state_free(c);
  gdlog_state_free(s);
  return hash;
}

/* Every element e commutes with next: next(e(s), e(m)) = e(next(s, m)). */
static void check_commutes(gdlog_game *g, int order)
{
  gdlog_state *s = play(g, "22");
  gdlog_move joint[2], image[2];
  gdlog_status st = gdlog_parse_joint(g, s, "<test>", "(does oplayer (mark 1 2)) (does xplayer noop)",
                                      strlen("(does oplayer (mark 1 2)) (does xplayer noop)"), joint);
  CHECK(st == GDLOG_OK, "joint: %s", gdlog_error(g));
  gdlog_state *next = NULL;
  if (st == GDLOG_OK) st = gdlog_next(g, s, joint, &next);
  for (int e = 0; st == GDLOG_OK && e < order; e++) {
    gdlog_state *es = NULL, *enext = NULL, *via = NULL;
    st = gdlog_symmetry_state(g, e, s, &es);
    if (st == GDLOG_OK) st = gdlog_symmetry_state(g, e, next, &enext);
    if (st == GDLOG_OK) st = gdlog_symmetry_joint(g, e, joint, image);
    if (st == GDLOG_OK) st = gdlog_next(g, es, image, &via);
    CHECK(st == GDLOG_OK && gdlog_state_equal(via, enext), "element %d does not commute with next: %s", e,
          gdlog_error(g));
    gdlog_state_free(es), gdlog_state_free(enext), gdlog_state_free(via);
  }
  gdlog_state_free(next);
  gdlog_state_free(s);
}

/* The symmetries: the 8 of the square, canonical states shared by
 * symmetric positions only, images that commute with next, elements out
 * of range refused. */
static void test_symmetries(const char *path)
{
  gdlog_game *g = open_ttt(path, GDLOG_SYNTAX_KIF);
  if (!g) return;
  int order = 0;
  gdlog_status st = gdlog_symmetries(g, &order);
  CHECK(st == GDLOG_OK && order == 8, "symmetries: %s, order %d %s", gdlog_status_name(st), order, gdlog_error(g));
  uint64_t corner = canonical_hash(g, "11");
  CHECK(corner == canonical_hash(g, "13") && corner == canonical_hash(g, "33") && corner == canonical_hash(g, "31"),
        "the corners' canonical states differ");
  CHECK(corner != canonical_hash(g, "22") && corner != canonical_hash(g, "12"), "a corner is canonical with another cell");
  CHECK(canonical_hash(g, "11 12") == canonical_hash(g, "33 23"), "the mirrored positions' canonical states differ");
  check_commutes(g, order);
  gdlog_state *s = play(g, "11"), *image = NULL;
  CHECK(gdlog_symmetry_state(g, order, s, &image) == GDLOG_ERR_INPUT && !image, "element %d accepted", order);
  gdlog_state_free(s);
  gdlog_close(g);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_api ticTacToe.kif\n");
    return 2;
  }
  gdlog_backend backends[] = { GDLOG_BACKEND_RULES, GDLOG_BACKEND_CIRCUIT, GDLOG_BACKEND_AUTO };
  for (size_t i = 0; i < sizeof backends / sizeof *backends; i++) {
    backend = backends[i];
    callback_calls = 0;
    test_roles_and_initial(argv[1]);
    test_win_and_draw(argv[1]);
    test_illegal(argv[1]);
    test_state_text(argv[1]);
    test_broken_games();
    test_playouts(argv[1]);
    test_symmetries(argv[1]);
  }
  return check_exit();
}
