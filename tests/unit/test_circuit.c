/* test_circuit.c: the circuit of small games: legal moves, next states,
 * goals and terminal, recursion through a cycle that loses its support
 * (a cyclic block must not keep itself true), and the errors of the state
 * machine contract (no legal move, no goal value); each with the lazy gates
 * of DL_CIRCUIT_LAZY too, and the two modes against each other on every
 * state of random playouts. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/circuit/circuit.h"
#include "datalog/wide/circuit_wide_impl.h"
#include "datalog/compile/compile.h"
#include "datalog/ground/ground.h"
#include "datalog/machine/pipeline.h"
#include "tests/fuzz/games.h"
#include "datalog/write/output.h"

typedef struct game {
  dl_diag *diag;
  dl_game built;          /* the pipeline's, up to the ground game */
  const dl_ground *g;
  dl_circuit *c;
} game;

static void game_free(game *x)
{
  dl_circuit_destroy(x->c);
  dl_game_free(&x->built);
  dl_diag_destroy(x->diag);
}

/* The mode the tests compile with (main runs them in each). */
static dl_circuit_mode mode = DL_CIRCUIT_EAGER;

/* Loads the game file at path up to its circuit. */
static int game_load(game *x, const char *path)
{
  memset(x, 0, sizeof *x);
  x->diag = dl_diag_create();
  dl_load_options lo = { .file = path, .syntax = -1 };
  dl_game_options o;
  dl_game_options_init(&o);
  o.max_atoms = o.max_instances = 0;
  if (x->diag && dl_game_load(&x->built, &lo, NULL, 0, x->diag) &&
      dl_game_build(&x->built, NULL, &o, DL_STAGE_GROUND, x->diag))
    x->g = x->built.ground;
  x->c = x->g ? dl_circuit_create_mode(x->g, mode, x->diag) : NULL;
  for (size_t i = 0; i < dl_diag_count(x->diag); i++) {
    char *m = dl_diag_render(dl_diag_message(x->diag, i));
    if (m) fputs(m, stdout);
    free(m);
  }
  return x->c != NULL;
}

/* Loads the infix program text (through a temporary file) up to its circuit. */
static int game_make(game *x, const char *text)
{
  char path[32];
  if (!check_temp_file(text, path)) {
    memset(x, 0, sizeof *x);
    return 0;
  }
  int ok = game_load(x, path);
  remove(path);
  return ok;
}

/* game_make checked as `what`; on failure frees x and returns 0. */
static int game_open(game *x, const char *text, const char *what)
{
  CHECK(game_make(x, text), "%s", what);
  if (x->c) return 1;
  game_free(x);
  return 0;
}

static int same_term(const dl_circuit *c, dl_tid t, const char *text)
{
  dl_buf b = { 0 };
  dl_output_term(&b, dl_circuit_terms(c), t, DL_FMT_INFIX);
  int same = b.data && strcmp(b.data, text) == 0;
  dl_buf_free(&b);
  return same;
}

static uint32_t move_named(const dl_circuit *c, const char *text)
{
  for (uint32_t m = 0; m < dl_circuit_move_count(c); m++)
    if (same_term(c, dl_circuit_move_term(c, m), text)) return m;
  return UINT32_MAX;
}

static uint32_t role_move(const dl_circuit *c, uint32_t r, const char *text)
{
  for (uint32_t m = 0; m < dl_circuit_move_count(c); m++)
    if (dl_circuit_move_role(c, m) == r && same_term(c, dl_circuit_move_term(c, m), text)) return m;
  return UINT32_MAX;
}

static int holds(const dl_circuit *c, const uint64_t *s, const char *fluent)
{
  for (uint32_t f = 0; f < dl_circuit_fluent_count(c); f++)
    if (same_term(c, dl_circuit_fluent_term(c, f), fluent)) return (int)(s[f >> 6] >> (f & 63) & 1);
  return -1;
}

static int32_t goal0(const dl_circuit *c)
{
  int32_t v;
  return dl_circuit_goal(c, 0, &v) ? v : -1000 + v;
}

static const char cycle_game[] =
  "role(p).\n"
  "init(start(a)). init(edge(a,b)). init(edge(b,a)). init(edge(b,d)).\n"
  "legal(p,unstart) :- true(start(a)).\n"
  "legal(p,cut) :- true(edge(b,d)).\n"
  "legal(p,wait).\n"
  "next(start(a)) :- true(start(a)) & ~does(p,unstart).\n"
  "next(edge(X,Y)) :- true(edge(X,Y)) & ~cutting(X,Y).\n"
  "cutting(b,d) :- does(p,cut).\n"
  "reach(X) :- true(start(X)).\n"
  "reach(Y) :- reach(X) & true(edge(X,Y)).\n"
  "goal(p,100) :- reach(d).\n"
  "goal(p,50) :- reach(b) & ~reach(d).\n"
  "goal(p,0) :- ~reach(b).\n"
  "terminal :- ~reach(a).\n";

static void test_cycle(void)
{
  game x;
  if (!game_open(&x, cycle_game, "cycle game compiles")) return;
  dl_circuit *c = x.c;
  dl_circuit_stats st = dl_circuit_get_stats(c);
  CHECK(st.cyclic_blocks >= 1, "cycle game has a cyclic block");
  uint32_t w = dl_circuit_state_words(c), cut = move_named(c, "cut"), unstart = move_named(c, "unstart");
  uint64_t *s0 = calloc(w, 8), *s1 = calloc(w, 8), *s2 = calloc(w, 8);
  const uint32_t *moves;
  dl_circuit_initial(c, s0);
  CHECK(holds(c, s0, "start(a)") == 1, "initial state holds start(a)");
  CHECK(dl_circuit_legal(c, 0, &moves) == 3, "initial: 3 legal moves");
  CHECK(goal0(c) == 100 && !dl_circuit_terminal(c), "initial: goal 100, not terminal");
  CHECK(dl_circuit_next(c, &cut, s1) && holds(c, s1, "edge(b,d)") == 0 && holds(c, s1, "edge(a,b)") == 1,
        "next of cut");
  CHECK(dl_circuit_set_state(c, s1), "after cut: set");
  CHECK(goal0(c) == 50 && !dl_circuit_terminal(c), "after cut: goal 50 (a, b reached through the cycle)");
  CHECK(dl_circuit_legal(c, 0, &moves) == 2, "after cut: 2 legal moves");
  CHECK(dl_circuit_next(c, &unstart, s2) && holds(c, s2, "start(a)") == 0, "next of unstart");
  CHECK(dl_circuit_set_state(c, s2), "after unstart: set");
  CHECK(goal0(c) == 0 && dl_circuit_terminal(c), "after unstart: the cycle a-b holds no more: goal 0, terminal");
  CHECK(dl_circuit_set_state(c, s0) && goal0(c) == 100 && !dl_circuit_terminal(c), "back to the initial state");
  CHECK(dl_circuit_legal(c, 0, &moves) == 3, "initial again: 3 legal moves");
  dl_rng rng;
  dl_rng_seed(&rng, 7);
  int32_t goals[1];
  int all_ok = 1;
  for (int i = 0; i < 200; i++) {
    dl_playout p = dl_circuit_playout(c, s0, &rng, 100000, NULL, goals);
    all_ok &= p.status == DL_PLAYOUT_OK && p.depth >= 1 && goals[0] == 0;
  }
  CHECK(all_ok, "200 playouts end with unstart: goal 0");
  free(s0), free(s1), free(s2);
  game_free(&x);
}

/* Two roles taking turns (the other role's noop), a cell kept unless a
 * move touches it (the "any move but" gates of breakthrough): the joint
 * move flips both roles' moves at once, and setting a state leaves the
 * gates that depend on a move to the next joint move. */
/* Role a's moves m(P,X) are filed under free(X), the rarer of the fluents
 * they need; at the start five are legal, and m(1,1), a candidate there,
 * is not (blocked). */
static const char pieces_game[] =
  "role(a). role(b).\n"
  "pc(1). pc(2). cell(1). cell(2). cell(3). cell(4).\n"
  "init(turn(a)). init(p(1)). init(p(2)). init(free(1)). init(free(2)). init(free(3)). init(blocked(1,1)).\n"
  "legal(a,m(P,X)) :- true(turn(a)) & true(p(P)) & cell(X) & true(free(X)) & ~true(blocked(P,X)).\n"
  "legal(a,noop) :- true(turn(b)).\n"
  "legal(b,noop).\n"
  "next(turn(b)) :- true(turn(a)).\n"
  "next(turn(a)) :- true(turn(b)).\n"
  "next(free(4)) :- does(a,m(P,X)).\n"
  "next(done) :- does(a,m(P,X)).\n"
  "terminal :- true(done).\n"
  "goal(a,100). goal(b,0).\n";

static const char turn_game[] =
  "role(a). role(b).\n"
  "idx(1). idx(2). idx(3).\n"
  "init(turn(a)). init(c(2)).\n"
  "legal(a,noop) :- true(turn(b)).\n"
  "legal(b,noop) :- true(turn(a)).\n"
  "legal(a,m(X)) :- true(turn(a)) & idx(X).\n"
  "legal(b,m(X)) :- true(turn(b)) & idx(X).\n"
  "next(turn(a)) :- true(turn(b)).\n"
  "next(turn(b)) :- true(turn(a)).\n"
  "next(c(X)) :- does(R,m(X)).\n"
  "next(c(X)) :- true(c(X)) & does(R,m(Y)) & distinct(X,Y).\n"
  "terminal :- true(c(1)) & true(c(3)).\n"
  "goal(a,50). goal(b,50).\n";

static void test_turns(void)
{
  game x;
  if (!game_open(&x, turn_game, "turn game compiles")) return;
  dl_circuit *c = x.c;
  uint32_t w = dl_circuit_state_words(c), joint[2];
  uint64_t *s0 = calloc(w, 8), *s1 = calloc(w, 8), *s2 = calloc(w, 8), *t = calloc(w, 8);
  const uint32_t *moves;
  dl_circuit_initial(c, s0);
  joint[0] = role_move(c, 0, "m(1)"), joint[1] = role_move(c, 1, "noop");
  CHECK(dl_circuit_next(c, joint, s1) && holds(c, s1, "c(1)") == 1 && holds(c, s1, "c(2)") == 1 &&
            holds(c, s1, "turn(b)") == 1,
        "a moves to 1");
  CHECK(dl_circuit_set_state(c, s1) && dl_circuit_legal(c, 1, &moves) == 3 && dl_circuit_legal(c, 0, &moves) == 1,
        "set after a's move");
  joint[0] = role_move(c, 0, "noop"), joint[1] = role_move(c, 1, "m(3)");
  CHECK(dl_circuit_next(c, joint, s2) && holds(c, s2, "c(3)") == 1 && holds(c, s2, "c(1)") == 1 &&
            holds(c, s2, "turn(a)") == 1,
        "b moves to 3: terminal next");
  CHECK(dl_circuit_set_state(c, s2) && dl_circuit_terminal(c), "set after b's move: terminal");
  /* states set one after the other without a move, then a move: the next
   * state is that of the last state */
  CHECK(dl_circuit_set_state(c, s0) && dl_circuit_set_state(c, s1) && dl_circuit_set_state(c, s0), "set s0, s1, s0");
  joint[0] = role_move(c, 0, "m(3)"), joint[1] = role_move(c, 1, "noop");
  CHECK(dl_circuit_next(c, joint, t) && holds(c, t, "c(3)") == 1 && holds(c, t, "c(2)") == 1 &&
            holds(c, t, "c(1)") == 0,
        "a moves to 3 from s0");
  CHECK(dl_circuit_set_state(c, s1) && dl_circuit_next(c, joint, t) && holds(c, t, "c(1)") == 1 &&
            holds(c, t, "c(3)") == 1,
        "the same joint move again, after s1");
  free(s0), free(s1), free(s2), free(t);
  game_free(&x);
}

static void test_errors(void)
{
  game x;
  dl_rng rng;
  dl_rng_seed(&rng, 1);
  int32_t goals[2];
  uint64_t s[4] = { 0 };
  if (game_make(&x, "role(p). init(s). legal(p,go) :- true(t). terminal :- true(u). goal(p,1).\n")) {
    dl_circuit_initial(x.c, s);
    dl_playout p = dl_circuit_playout(x.c, s, &rng, 100, NULL, goals);
    CHECK(p.status == DL_PLAYOUT_NO_LEGAL && p.role == 0 && p.depth == 0, "no legal move is an error");
  } else CHECK(0, "no-legal game compiles");
  game_free(&x);
  if (game_make(&x, "role(p). role(q). init(s). legal(p,go). legal(q,go). next(t) :- does(p,go).\n"
                    "terminal :- true(t). goal(p,10). goal(q,20) :- true(s).\n")) {
    dl_circuit_initial(x.c, s);
    dl_playout p = dl_circuit_playout(x.c, s, &rng, 100, NULL, goals);
    CHECK(p.status == DL_PLAYOUT_BAD_GOAL && p.role == 1 && p.depth == 1,
          "a role without a goal value at the end is an error");
  } else CHECK(0, "no-goal game compiles");
  game_free(&x);
  if (game_make(&x, "role(p). init(s). legal(p,go). next(s) :- true(s). goal(p,1).\n")) {
    dl_circuit_initial(x.c, s);
    dl_playout p = dl_circuit_playout(x.c, s, &rng, 50, NULL, goals);
    CHECK(p.status == DL_PLAYOUT_TOO_DEEP && p.depth == 50, "no terminal state within the depth is reported");
  } else CHECK(0, "endless game compiles");
  game_free(&x);
}

/* Two kings on a line of five cells: a king steps to a free cell that the
 * other king does not touch, and a king that cannot move loses (chess's
 * check test and stalemate, in small: legal moves read a negated derived
 * predicate, terminal and goals read whether a role has a legal move). */
static const char kings_game[] =
  "role(w). role(b).\n"
  "init(at(w,1)). init(at(b,5)). init(control(w)). init(step(0)).\n"
  "adj(1,2). adj(2,3). adj(3,4). adj(4,5). adj(2,1). adj(3,2). adj(4,3). adj(5,4).\n"
  "succ(0,1). succ(1,2). succ(2,3). succ(3,4). succ(4,5). succ(5,6).\n"
  "opp(w,b). opp(b,w).\n"
  "attacked(R,X) :- opp(R,S) & true(at(S,Y)) & adj(Y,X).\n"
  "occupied(X) :- true(at(R,X)).\n"
  "legal(R,go(X)) :- true(control(R)) & true(at(R,Y)) & adj(Y,X) & ~attacked(R,X) & ~occupied(X).\n"
  "legal(R,noop) :- opp(R,S) & true(control(S)).\n"
  "can_move(R) :- legal(R,go(X)).\n"
  "stuck(R) :- true(control(R)) & ~can_move(R).\n"
  "next(at(R,X)) :- does(R,go(X)).\n"
  "next(at(R,X)) :- true(at(R,X)) & does(R,noop).\n"
  "next(control(S)) :- true(control(R)) & opp(R,S).\n"
  "next(step(N)) :- true(step(M)) & succ(M,N).\n"
  "terminal :- stuck(R).\n"
  "terminal :- true(step(6)).\n"
  "goal(R,0) :- stuck(R).\n"
  "goal(R,100) :- opp(R,S) & stuck(S).\n"
  "goal(R,50) :- role(R) & ~stuck(w) & ~stuck(b).\n";

static void set_fluents(const dl_circuit *c, uint64_t *s, const char *const *fluents, int n)
{
  memset(s, 0, dl_circuit_state_words(c) * 8);
  for (uint32_t f = 0; f < dl_circuit_fluent_count(c); f++)
    for (int i = 0; i < n; i++)
      if (same_term(c, dl_circuit_fluent_term(c, f), fluents[i])) s[f >> 6] |= (uint64_t)1 << (f & 63);
}

static void test_kings(void)
{
  game x;
  if (!game_open(&x, kings_game, "kings game compiles")) return;
  dl_circuit *c = x.c;
  CHECK((dl_circuit_get_stats(c).lazy_gates > 0) == (mode == DL_CIRCUIT_LAZY), "lazy gates only in lazy mode");
  uint32_t w = dl_circuit_state_words(c), joint[2];
  uint64_t *s0 = calloc(w, 8), *s1 = calloc(w, 8);
  const uint32_t *moves;
  dl_circuit_initial(c, s0);
  CHECK(dl_circuit_set_state(c, s0) && dl_circuit_legal(c, 0, &moves) == 1 && moves[0] == role_move(c, 0, "go(2)"),
        "initial: w's one move is go(2)");
  CHECK(dl_circuit_legal(c, 1, &moves) == 1 && moves[0] == role_move(c, 1, "noop"), "initial: b's one move is noop");
  CHECK(!dl_circuit_terminal(c), "initial: not terminal");
  joint[0] = role_move(c, 0, "go(2)"), joint[1] = role_move(c, 1, "noop");
  CHECK(dl_circuit_next(c, joint, s1) && holds(c, s1, "at(w,2)") == 1 && holds(c, s1, "at(w,1)") == 0 &&
            holds(c, s1, "control(b)") == 1,
        "w to 2");
  CHECK(dl_circuit_set_state(c, s1) && dl_circuit_legal(c, 1, &moves) == 1 && moves[0] == role_move(c, 1, "go(4)"),
        "after w to 2: b's one move is go(4)");
  const char *const stuck[] = { "at(w,1)", "at(b,3)", "control(w)", "step(0)" };
  set_fluents(c, s1, stuck, 4);
  int32_t v0 = -1, v1 = -1;
  CHECK(dl_circuit_set_state(c, s1) && dl_circuit_legal(c, 0, &moves) == 0 && dl_circuit_terminal(c),
        "w at 1, b at 3: w is stuck, terminal");
  CHECK(dl_circuit_goal(c, 0, &v0) && v0 == 0 && dl_circuit_goal(c, 1, &v1) && v1 == 100, "w at 1, b at 3: w 0, b 100");
  CHECK(dl_circuit_set_state(c, s0) && !dl_circuit_terminal(c) && dl_circuit_goal(c, 0, &v0) && v0 == 50,
        "back to the initial state: not terminal, goals 50");
  free(s0), free(s1);
  game_free(&x);
}

/* The steps game of tests/fuzz/games.c: a step counter (one of step(0) ..
 * step(6) holds) read with a bit by every next seen(K,I), and with the
 * negation of lit(I) (the bit one state late) by every gap(K,I): an eager
 * circuit feeds a bit's or a lit's flips to the ANDs of the step that
 * holds only (selected ANDs).  And a move read with a bit by every next
 * hit(I,J): the move feeds the ANDs of the bits that hold only (watched
 * ANDs). */
static const char *steps_game(void) { return fuzz_games[FUZZ_GAME_STEPS].text; }

/* Whether exactly the fluents listed in `want` (separated by spaces) hold
 * in t. */
static int holds_exactly(const dl_circuit *c, const uint64_t *t, const char *want)
{
  uint32_t listed = 0, held = 0;
  char name[64];
  for (const char *p = want; *p;) {
    size_t n = strcspn(p, " ");
    if (n && n < sizeof name) {
      memcpy(name, p, n), name[n] = 0;
      if (holds(c, t, name) != 1) return 0;
      listed++;
    }
    p += n + (p[n] == ' ');
  }
  for (uint32_t f = 0; f < dl_circuit_fluent_count(c); f++) held += (uint32_t)(t[f >> 6] >> (f & 63) & 1);
  return held == listed;
}

static void test_selected(void)
{
  game x;
  if (!game_open(&x, steps_game(), "steps game compiles")) return;
  dl_circuit *c = x.c;
  dl_circuit_stats st = dl_circuit_get_stats(c);
  int eager = mode == DL_CIRCUIT_EAGER;
  CHECK(eager ? st.one_hot_groups == 1 && st.selected_ands == 56 && st.watched_ands == 20
              : st.selected_ands == 0 && st.watched_ands == 0,
        "%s: %u one-hot groups, %u selected ANDs, %u watched", eager ? "eager" : "lazy", st.one_hot_groups,
        st.selected_ands, st.watched_ands);
  /* states a user may set: several steps at once, then one, none, one */
  static const struct {
    const char *state[3];
    int n;
    const char *next;  /* after flip(1) */
  } cases[] = {
    { { "step(1)", "step(3)", "bit(2)" }, 3,
      "bit(1) bit(2) lit(2) step(2) step(4) seen(1,2) seen(3,2) gap(1,1) gap(1,2) gap(1,3) gap(1,4) gap(3,1) "
      "gap(3,2) gap(3,3) gap(3,4) hit(1,2)" },
    { { "step(3)", "bit(4)" }, 2,
      "bit(1) bit(4) lit(4) step(4) seen(3,4) gap(3,1) gap(3,2) gap(3,3) gap(3,4) hit(1,4)" },
    { { "bit(4)" }, 1, "bit(1) bit(4) lit(4) hit(1,4)" },
    { { "step(2)", "step(5)", "step(0)" }, 3,
      "bit(1) step(1) step(3) step(6) gap(0,1) gap(0,2) gap(0,3) gap(0,4) gap(2,1) gap(2,2) gap(2,3) gap(2,4) "
      "gap(5,1) gap(5,2) gap(5,3) gap(5,4)" },
    { { "step(5)", "bit(1)" }, 2, "lit(1) step(6) seen(5,1) gap(5,1) gap(5,2) gap(5,3) gap(5,4) hit(1,1)" },
    { { "step(2)", "lit(3)", "bit(3)" }, 3,
      "bit(1) bit(3) lit(3) step(3) seen(2,3) gap(2,1) gap(2,2) gap(2,4) hit(1,3)" },
  };
  uint32_t w = dl_circuit_state_words(c), joint[1] = { role_move(c, 0, "flip(1)") };
  uint64_t *s = calloc(w + 1, 8), *t = calloc(w + 1, 8);
  for (size_t i = 0; s && t && i < sizeof cases / sizeof cases[0]; i++) {
    set_fluents(c, s, cases[i].state, cases[i].n);
    CHECK(dl_circuit_set_state(c, s) && dl_circuit_next(c, joint, t) && holds_exactly(c, t, cases[i].next),
          "state %zu, flip(1): exactly %s", i, cases[i].next);
  }
  free(s), free(t);
  game_free(&x);
}

/* Next rules that read the move and the state, and are no frame (they do
 * not read their own fluent): lazy, they are evaluated when the move is
 * made, and what only they read (far) is lazy too. */
static const char sink_game[] =
  "role(w). role(b).\n"
  "init(at(1)). cell(1). cell(2). cell(3).\n"
  "legal(w,go(X)) :- cell(X).\n"
  "legal(b,noop).\n"
  "far(X) :- true(at(Y)) & cell(X) & distinct(X,Y).\n"
  "next(at(X)) :- does(w,go(X)).\n"
  "next(moved) :- does(w,go(X)) & far(X).\n"
  "next(stay) :- does(w,go(X)) & true(at(X)).\n"
  "terminal :- true(stay).\n"
  "goal(w,100). goal(b,0).\n";

/* Chess's shapes on a line of six cells: the piece's moves are legal
 * where no marked, occupied cell is near (an OR of ANDs, each guarded by
 * its mark); next's "the cell a piece left is empty, and marked" reads
 * moves only (two ORs of moves: filed under each move of the first),
 * beside the cell's and the mark's frame rules. */
static const char shapes_game[] =
  "role(w). role(b).\n"
  "cell(1). cell(2). cell(3). cell(4). cell(5). cell(6).\n"
  "near(1,2). near(2,3). near(3,4). near(4,5). near(5,6).\n"
  "near(X,Y) :- near(Y,X).\n"
  "succ(0,1). succ(1,2). succ(2,3). succ(3,4). succ(4,5). succ(5,6). succ(6,7). succ(7,8).\n"
  "init(piece(1)). init(piece(4)). init(empty(2)). init(empty(3)). init(empty(5)). init(empty(6)).\n"
  "init(mark(3)). init(mark(6)). init(step(0)).\n"
  "legal(w,move(X,Y)) :- true(piece(X)) & true(empty(Y)) & near(X,Y) & ~threatened(Y).\n"
  "legal(w,noop). legal(b,noop).\n"
  "threatened(Y) :- true(mark(Z)) & near(Z,Y) & ~true(empty(Z)).\n"
  "moved_from(X) :- does(w,move(X,Y)).\n"
  "arrived(Y) :- does(w,move(X,Y)).\n"
  "w_moved :- does(w,move(X,Y)).\n"
  "next(empty(X)) :- moved_from(X) & w_moved.\n"
  "next(empty(X)) :- true(empty(X)) & ~arrived(X).\n"
  "next(piece(Y)) :- arrived(Y) & w_moved.\n"
  "next(piece(X)) :- true(piece(X)) & ~moved_from(X).\n"
  "next(mark(X)) :- true(mark(X)).\n"
  "next(mark(X)) :- moved_from(X) & w_moved.\n"
  "next(step(N)) :- true(step(M)) & succ(M,N).\n"
  "terminal :- true(step(8)).\n"
  "goal(w,100) :- true(piece(6)). goal(w,0) :- ~true(piece(6)). goal(b,0).\n";

static void test_sinks(void)
{
  game x;
  if (!game_open(&x, sink_game, "sink game compiles")) return;
  dl_circuit *c = x.c;
  CHECK((dl_circuit_get_stats(c).lazy_next_rules > 0) == (mode == DL_CIRCUIT_LAZY),
        "lazy next rules only in lazy mode");
  uint32_t w = dl_circuit_state_words(c), joint[2] = { role_move(c, 0, "go(1)"), role_move(c, 1, "noop") };
  uint64_t *s0 = calloc(w, 8), *s1 = calloc(w, 8);
  dl_circuit_initial(c, s0);
  CHECK(dl_circuit_set_state(c, s0) && dl_circuit_next(c, joint, s1) && holds(c, s1, "stay") == 1 &&
            holds(c, s1, "moved") == 0 && holds(c, s1, "at(1)") == 1,
        "go(1) from 1: stay");
  joint[0] = role_move(c, 0, "go(2)");  /* another move, the same state */
  CHECK(dl_circuit_next(c, joint, s1) && holds(c, s1, "stay") == 0 && holds(c, s1, "moved") == 1 &&
            holds(c, s1, "at(2)") == 1,
        "then go(2) from 1: moved");
  CHECK(dl_circuit_set_state(c, s1) && dl_circuit_next(c, joint, s0) && holds(c, s0, "stay") == 1 &&
            holds(c, s0, "moved") == 0,
        "go(2) from 2: stay");
  free(s0), free(s1);
  game_free(&x);
}

/* can_move: an OR of 20 legal moves of w, evaluated lazy through the
 * moves filed under the fluents of the state (an "any legal" gate). */
static const char any_game[] =
  "role(w). role(b).\n"
  "cell(1). cell(2). cell(3). cell(4). cell(5). cell(6). cell(7). cell(8). cell(9). cell(10).\n"
  "cell(11). cell(12). cell(13). cell(14). cell(15). cell(16). cell(17). cell(18). cell(19). cell(20).\n"
  "init(free(X)) :- cell(X). init(blocked(5)).\n"
  "legal(w,take(X)) :- true(free(X)) & ~true(blocked(X)).\n"
  "legal(b,noop).\n"
  "can_move :- legal(w,take(X)).\n"
  "next(free(X)) :- true(free(X)) & does(w,take(Y)) & distinct(X,Y).\n"
  "next(blocked(X)) :- true(blocked(X)).\n"
  "terminal :- ~can_move.\n"
  "goal(w,100). goal(b,0).\n";

static void test_any_legal(void)
{
  game x;
  if (!game_open(&x, any_game, "any game compiles")) return;
  dl_circuit *c = x.c;
  uint64_t *s = calloc(dl_circuit_state_words(c), 8);
  dl_circuit_initial(c, s);
  CHECK(dl_circuit_set_state(c, s) && !dl_circuit_terminal(c), "every cell free: not terminal");
  const char *const one[] = { "free(17)", "blocked(5)" }, *const blocked[] = { "free(5)", "blocked(5)" };
  set_fluents(c, s, one, 2);
  CHECK(dl_circuit_set_state(c, s) && !dl_circuit_terminal(c), "one free cell: not terminal");
  set_fluents(c, s, blocked, 2);
  CHECK(dl_circuit_set_state(c, s) && dl_circuit_terminal(c), "a free cell, blocked: terminal");
  set_fluents(c, s, NULL, 0);
  CHECK(dl_circuit_set_state(c, s) && dl_circuit_terminal(c), "no free cell: terminal");
  free(s);
  game_free(&x);
}

/* One move among six, two of them illegal, each ending the game with its
 * own goal value.  Lazy, the six moves are candidates filed under their
 * cells, and a playout draws among them until one is legal: the four legal
 * ones must still come about equally often, and the others never. */
static const char pick_game[] =
  "role(p).\n"
  "cell(1). cell(2). cell(3). cell(4). cell(5). cell(6).\n"
  "init(at(X)) :- cell(X). init(blocked(2)). init(blocked(5)).\n"
  "legal(p,go(X)) :- true(at(X)) & ~true(blocked(X)).\n"
  "next(went(X)) :- does(p,go(X)).\n"
  "terminal :- true(went(X)).\n"
  "goal(p,X) :- true(went(X)).\n";

static void test_uniform_pick(void)
{
  game x;
  if (!game_open(&x, pick_game, "pick game compiles")) return;
  uint64_t *s = calloc(dl_circuit_state_words(x.c), 8);
  uint32_t seen[7] = { 0 };
  int ok = s != NULL;
  dl_rng rng;
  dl_rng_seed(&rng, 3);
  if (ok) dl_circuit_initial(x.c, s);
  for (int i = 0; ok && i < 4000; i++) {
    int32_t goal;
    dl_playout p = dl_circuit_playout(x.c, s, &rng, 10, NULL, &goal);
    ok = p.status == DL_PLAYOUT_OK && p.depth == 1 && goal >= 1 && goal <= 6;
    if (ok) seen[goal]++;
  }
  CHECK(ok, "pick: 4000 playouts of one move");
  CHECK(seen[2] == 0 && seen[5] == 0, "pick: the illegal moves are never made");
  int even = 1;
  for (int k = 1; k <= 6; k++)
    if (k != 2 && k != 5) even &= seen[k] >= 900 && seen[k] <= 1100;  /* 1000 each; 3 sigma is 82 */
  CHECK(even, "pick: each legal move about a quarter of the time");
  free(s);
  game_free(&x);
}

/* Checked moves (eager): blocked(X) feeds b's 16 moves and w's take(X),
 * so take(X) reads it when drawn instead; can_move, an OR of the take
 * moves, is an any-legal gate that terminal reads.  A state whose free
 * cells are all blocked has no take move and is terminal. */
static const char checked_any_game[] =
  "role(w). role(b).\n"
  "cell(1). cell(2). cell(3). cell(4).\n"
  "z(1). z(2). z(3). z(4). z(5). z(6). z(7). z(8). z(9). z(10). z(11). z(12). z(13). z(14). z(15). z(16).\n"
  "init(free(X)) :- cell(X).\n"
  "legal(w,take(X)) :- true(free(X)) & ~true(blocked(X)).\n"
  "legal(w,wait).\n"
  "legal(b,look(X,Z)) :- true(blocked(X)) & z(Z).\n"
  "legal(b,noop).\n"
  "can_move :- legal(w,take(X)).\n"
  "next(free(X)) :- true(free(X)) & does(w,take(Y)) & distinct(X,Y).\n"
  "next(blocked(X)) :- does(w,take(Y)) & cell(X) & distinct(X,Y).\n"
  "terminal :- ~can_move.\n"
  "goal(w,100). goal(b,0).\n";

static void test_checked_moves(void)
{
  game x;
  if (!game_open(&x, checked_any_game, "checked any game compiles")) return;
  dl_circuit *c = x.c;
  uint64_t *s = calloc(dl_circuit_state_words(c), 8);
  const uint32_t *moves;
  if (mode == DL_CIRCUIT_EAGER)
    CHECK(dl_circuit_get_stats(c).checked_moves >= 3, "checked any: take(1) and take(3) checked");
  const char *const open_cells[] = { "free(1)", "free(3)", "blocked(2)" },
                    *const shut_cells[] = { "free(1)", "free(3)", "blocked(1)", "blocked(3)" };
  set_fluents(c, s, open_cells, 3);
  CHECK(dl_circuit_set_state(c, s) && !dl_circuit_terminal(c) && dl_circuit_legal(c, 0, &moves) == 3,
        "checked any: two free cells, neither blocked: two take moves and wait, not terminal");
  set_fluents(c, s, shut_cells, 4);
  CHECK(dl_circuit_set_state(c, s) && dl_circuit_terminal(c) && dl_circuit_legal(c, 0, &moves) == 1,
        "checked any: two free cells, both blocked: wait only, terminal");
  set_fluents(c, s, open_cells, 3);
  CHECK(dl_circuit_set_state(c, s) && !dl_circuit_terminal(c) && dl_circuit_legal(c, 0, &moves) == 3,
        "checked any: open again: three legal moves");
  free(s);
  game_free(&x);
}

/* pick_game with checked moves (eager): blocked(X) feeds q's 16 moves too,
 * so p's moves read it when drawn; with 2 and 5 blocked the draw finds
 * checks that fail and must draw again, still uniformly. */
static const char checked_pick_game[] =
  "role(p). role(q).\n"
  "cell(1). cell(2). cell(3). cell(4). cell(5). cell(6).\n"
  "z(1). z(2). z(3). z(4). z(5). z(6). z(7). z(8). z(9). z(10). z(11). z(12). z(13). z(14). z(15). z(16).\n"
  "init(at(X)) :- cell(X). init(blocked(2)). init(blocked(5)).\n"
  "legal(p,go(X)) :- true(at(X)) & ~true(blocked(X)).\n"
  "legal(q,look(X,Z)) :- true(blocked(X)) & true(at(X)) & z(Z).\n"
  "legal(q,noop).\n"
  "next(went(X)) :- does(p,go(X)).\n"
  "terminal :- true(went(X)).\n"
  "goal(p,X) :- true(went(X)). goal(q,0).\n";

static void test_checked_pick(void)
{
  game x;
  if (!game_open(&x, checked_pick_game, "checked pick game compiles")) return;
  if (mode == DL_CIRCUIT_EAGER) CHECK(dl_circuit_get_stats(x.c).checked_moves >= 6, "checked pick: p's moves checked");
  uint64_t *s = calloc(dl_circuit_state_words(x.c), 8);
  uint32_t seen[7] = { 0 };
  int32_t goals[2];
  int ok = s != NULL;
  dl_rng rng;
  dl_rng_seed(&rng, 5);
  if (ok) dl_circuit_initial(x.c, s);
  for (int i = 0; ok && i < 4000; i++) {
    dl_playout p = dl_circuit_playout(x.c, s, &rng, 10, NULL, goals);
    ok = p.status == DL_PLAYOUT_OK && p.depth == 1 && goals[0] >= 1 && goals[0] <= 6;
    if (ok) seen[goals[0]]++;
  }
  CHECK(ok, "checked pick: 4000 playouts of one move");
  CHECK(seen[2] == 0 && seen[5] == 0, "checked pick: the blocked moves are never made");
  int even = 1;
  for (int k = 1; k <= 6; k++)
    if (k != 2 && k != 5) even &= seen[k] >= 900 && seen[k] <= 1100;  /* 1000 each; 3 sigma is 82 */
  CHECK(even, "checked pick: each legal move about a quarter of the time");
  free(s);
  game_free(&x);
}

/* Keyed moves (eager): w's 8 moves go(X,Z) from a cell X need at(X), so
 * they are listed under at(X) as a key and read ~blocked(Z) when drawn;
 * b blocks and frees the targets.  In the gated game w moves on its turns
 * only (its keys count while control(w) holds); in the other, both move
 * at every step. */
#define KEYED_BOARD                                                                                        \
  "role(w). role(b).\n"                                                                                    \
  "cell(1). cell(2). cell(3). cell(4).\n"                                                                  \
  "z(1). z(2). z(3). z(4). z(5). z(6). z(7). z(8).\n"                                                      \
  "dest(1,1). dest(2,2). dest(3,3). dest(4,4). dest(5,1). dest(6,2). dest(7,3). dest(8,4).\n"              \
  "succ(0,1). succ(1,2). succ(2,3). succ(3,4). succ(4,5). succ(5,6). succ(6,7). succ(7,8). succ(8,9).\n"  \
  "succ(9,10).\n"                                                                                          \
  "init(at(1)). init(at(3)). init(t(0)).\n"                                                                \
  "legal(b,block(Z)) :- z(Z) & ~true(blocked(Z)).\n"                                                       \
  "legal(b,free(Z)) :- true(blocked(Z)).\n"                                                                \
  "moved(X) :- does(w,go(X,Z)).\n"                                                                         \
  "next(at(Y)) :- does(w,go(X,Z)) & dest(Z,Y).\n"                                                          \
  "next(at(X)) :- true(at(X)) & ~moved(X).\n"                                                              \
  "next(blocked(Z)) :- does(b,block(Z)).\n"                                                                \
  "next(blocked(Z)) :- true(blocked(Z)) & ~does(b,free(Z)).\n"                                             \
  "next(t(N1)) :- true(t(N)) & succ(N,N1).\n"                                                              \
  "terminal :- true(t(10)).\n"                                                                             \
  "goal(w,100). goal(b,50).\n"
static const char keyed_game[] = KEYED_BOARD
  "legal(w,go(X,Z)) :- true(at(X)) & z(Z) & ~true(blocked(Z)).\n"
  "legal(w,wait).\n";
static const char keyed_gated_game[] = KEYED_BOARD
  "init(control(w)).\n"
  "legal(w,go(X,Z)) :- true(control(w)) & true(at(X)) & z(Z) & ~true(blocked(Z)).\n"
  "legal(w,wait) :- true(control(w)).\n"
  "legal(w,noop) :- true(control(b)).\n"
  "next(control(b)) :- true(control(w)).\n"
  "next(control(w)) :- true(control(b)).\n";

/* In game src (eager), with at(1), at(3), blocked(2) and blocked(5): w
 * has 12 moves go(X,Z) and wait (or, gated, on its turn), listed and drawn
 * each about equally often, never a blocked one. */
static void keyed_pick(const char *src, const char *what)
{
  game x;
  if (!game_open(&x, src, what)) return;
  dl_circuit *c = x.c;
  CHECK(dl_circuit_get_stats(c).keyed_moves >= 16, "%s: w's moves keyed (%u)", what,
        dl_circuit_get_stats(c).keyed_moves);
  uint64_t *s = calloc(dl_circuit_state_words(c), 8);
  uint32_t n_moves = dl_circuit_move_count(c), *seen = calloc(n_moves + 1, sizeof *seen), m;
  const char *const fluents[] = { "at(1)", "at(3)", "blocked(2)", "blocked(5)", "t(0)", "control(w)" };
  const uint32_t *moves;
  int ok = s && seen;
  if (ok) set_fluents(c, s, fluents, 6);
  ok = ok && dl_circuit_set_state(c, s) && dl_circuit_legal(c, 0, &moves) == 13;
  CHECK(ok, "%s: w has 13 legal moves", what);
  dl_rng rng;
  dl_rng_seed(&rng, 7);
  for (int i = 0; ok && i < 13000; i++) {
    ok = cc_random_move(c, 0, &rng, &m) && m < n_moves;
    if (ok) seen[m]++;
  }
  int even = ok;
  for (uint32_t k = 0; ok && k < n_moves; k++) {
    int legal = 0;
    for (uint32_t j = 0; j < 13; j++) legal |= moves[j] == k;
    if (dl_circuit_move_role(c, k) == 0) even &= legal ? seen[k] >= 880 && seen[k] <= 1120 : seen[k] == 0;  /* 3 sigma: 93 */
  }
  CHECK(even, "%s: each legal move about a 13th of the draws, no other", what);
  free(s), free(seen);
  game_free(&x);
}

static void test_keyed(void)
{
  if (mode != DL_CIRCUIT_EAGER) return;
  keyed_pick(keyed_game, "keyed");
  keyed_pick(keyed_gated_game, "keyed, gated");
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Role r's legal moves in c, sorted, into out; their number. */
static uint32_t sorted_legal(dl_circuit *c, uint32_t r, uint32_t *out)
{
  const uint32_t *moves;
  uint32_t n = dl_circuit_legal(c, r, &moves);
  memcpy(out, moves, n * sizeof *out);
  qsort(out, n, sizeof *out, cmp_u32);
  return n;
}

/* The same ground game compiled eager and lazy, stepped together through
 * random playouts: the same legal moves, terminal, goals and next state in
 * every state.  Returns the states compared, 0 at the first difference. */
static uint32_t modes_agree(const dl_ground *g, uint64_t seed, int playouts)
{
  dl_diag *diag = dl_diag_create();
  dl_circuit *e = dl_circuit_create_mode(g, DL_CIRCUIT_EAGER, diag);
  dl_circuit *l = dl_circuit_create_mode(g, DL_CIRCUIT_LAZY, diag);
  uint32_t w = e && l ? dl_circuit_state_words(e) : 0, n = e ? dl_circuit_move_count(e) : 0;
  uint32_t roles = e ? dl_circuit_role_count(e) : 0;
  uint64_t *s = calloc(w + 1, 8), *t = calloc(w + 1, 8), *u = calloc(w + 1, 8);
  uint32_t *a = calloc(n + 1, 4), *b = calloc(n + 1, 4), *joint = calloc(roles + 1, 4), states = 0;
  int ok = e && l && s && t && u && a && b && joint;
  dl_rng rng;
  dl_rng_seed(&rng, seed);
  for (int p = 0; ok && p < playouts; p++) {
    dl_circuit_initial(e, s);
    for (int depth = 0; ok && depth < 1000; depth++, states++) {
      dl_circuit_set_state(e, s), dl_circuit_set_state(l, s);
      ok = dl_circuit_terminal(e) == dl_circuit_terminal(l);
      for (uint32_t r = 0; ok && r < roles; r++) {
        int32_t ve, vl;
        int ge = dl_circuit_goal(e, r, &ve), gl = dl_circuit_goal(l, r, &vl);
        uint32_t na = sorted_legal(e, r, a), nb = sorted_legal(l, r, b);
        ok = ge == gl && ve == vl && na == nb && memcmp(a, b, na * sizeof *a) == 0;
        if (ok && na) joint[r] = a[dl_rng_below(&rng, na)];
        else if (ok && !dl_circuit_terminal(e)) ok = 0;  /* no legal move: the game is not valid */
      }
      if (!ok || dl_circuit_terminal(e)) break;
      dl_circuit_next(e, joint, t), dl_circuit_next(l, joint, u);
      ok = memcmp(t, u, w * 8) == 0;
      memcpy(s, t, w * 8);
    }
  }
  free(s), free(t), free(u), free(a), free(b), free(joint);
  dl_circuit_destroy(e), dl_circuit_destroy(l), dl_diag_destroy(diag);
  return ok ? states : 0;
}

static void test_modes_agree(void)
{
  const char *const games[] = { kings_game, turn_game, cycle_game, sink_game, any_game, checked_any_game,
                                checked_pick_game, steps_game(), keyed_game, keyed_gated_game, shapes_game };
  for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
    game x;
    if (!game_make(&x, games[i])) {
      CHECK(0, "game for the modes compiles");
      game_free(&x);
      continue;
    }
    uint32_t states = modes_agree(x.g, 11 + i, 60);
    CHECK(states >= 60, "eager and lazy agree on game %zu (%u states)", i, states);
    game_free(&x);
  }
}

/* ---- bit-parallel playouts, each replayed on the differential circuit ---- */

typedef struct replay {
  dl_circuit *c;
  uint32_t max_depth, checked, states, n_stat[DL_PLAYOUT_NO_MEMORY + 1];
  uint32_t first[8];       /* how often the first joint move's role 0 move was each of moves 0..7 */
  uint64_t *s, *t;
  char why[160];
} replay;

static int replay_fail(replay *x, const char *what, uint32_t step)
{
  snprintf(x->why, sizeof x->why, "playout %u, step %u: %s", x->checked, step, what);
  return 0;
}

/* Whether the end of the replayed playout (the circuit on its last state)
 * is what the lanes said. */
static int replay_end(replay *x, const dl_wide_result *res)
{
  dl_circuit *c = x->c;
  uint32_t roles = dl_circuit_role_count(c), d = res->p.depth;
  const uint32_t *moves;
  switch (res->p.status) {
  case DL_PLAYOUT_OK:
  case DL_PLAYOUT_BAD_GOAL: {
    if (!dl_circuit_terminal(c)) return replay_fail(x, "ended, not terminal", d);
    int bad = 0;
    for (uint32_t r = 0; r < roles; r++) {
      int32_t v;
      int one = dl_circuit_goal(c, r, &v);
      if (one != (res->goal_n[r] == 1) || v != res->goals[r]) return replay_fail(x, "another goal", d);
      bad |= !one;
    }
    return bad == (res->p.status == DL_PLAYOUT_BAD_GOAL) ? 1 : replay_fail(x, "goal status", d);
  }
  case DL_PLAYOUT_NO_LEGAL:
    if (dl_circuit_terminal(c) || dl_circuit_legal(c, res->p.role, &moves)) return replay_fail(x, "no legal", d);
    return 1;
  case DL_PLAYOUT_TOO_DEEP:
    return !dl_circuit_terminal(c) && d == x->max_depth ? 1 : replay_fail(x, "too deep", d);
  default: return replay_fail(x, "status", d);
  }
}

/* Replays a playout of the lanes on the circuit from the initial state:
 * at every step the same terminal flag, the same number of legal moves per
 * role, the move chosen among them; then the same end. */
static int replay_done(void *ctx, const dl_wide_result *res)
{
  replay *x = ctx;
  dl_circuit *c = x->c;
  uint32_t roles = dl_circuit_role_count(c);
  dl_circuit_initial(c, x->s);
  for (uint32_t i = 0; i < res->p.depth; i++) {
    dl_circuit_set_state(c, x->s);
    if (dl_circuit_terminal(c)) return replay_fail(x, "terminal on the way", i);
    for (uint32_t r = 0; r < roles; r++) {
      const uint32_t *moves;
      uint32_t n = dl_circuit_legal(c, r, &moves), m = res->moves[i * roles + r], found = 0;
      for (uint32_t k = 0; k < n; k++) found |= moves[k] == m;
      if (n != res->legal[i * roles + r] || !found) return replay_fail(x, "other legal moves", i);
    }
    dl_circuit_next(c, res->moves + (size_t)i * roles, x->t);
    memcpy(x->s, x->t, dl_circuit_state_words(c) * sizeof *x->s);
  }
  dl_circuit_set_state(c, x->s);
  if (!replay_end(x, res)) return 0;
  x->checked++;
  x->states += res->p.depth + 1;
  if (res->p.depth && res->moves[0] < 8) x->first[res->moves[0]]++;
  x->n_stat[res->p.status]++;
  return 1;
}

/* n bit-parallel playouts of c, each replayed; NULL when all agree, else
 * why not (in x->why). */
static const char *wide_agrees(replay *x, dl_circuit *c, uint64_t seed, uint32_t n, uint32_t max_depth)
{
  uint32_t w = dl_circuit_state_words(c) + 1;
  memset(x, 0, sizeof *x);
  x->c = c, x->max_depth = max_depth;
  x->s = calloc(w, 8), x->t = calloc(w, 8);
  uint64_t *start = calloc(w, 8);
  dl_rng rng;
  dl_rng_seed(&rng, seed);
  if (start) dl_circuit_initial(c, start);
  int ran = x->s && x->t && start && dl_circuit_has_wide(c) &&
            dl_circuit_wide_playouts(c, start, &rng, n, max_depth, max_depth + 1, NULL, replay_done, x);
  free(x->s), free(x->t), free(start);
  if (!ran && !x->why[0]) snprintf(x->why, sizeof x->why, "no run");
  if (ran && x->checked != n && !x->why[0]) snprintf(x->why, sizeof x->why, "%u of %u ended", x->checked, n);
  return x->why[0] ? x->why : NULL;
}

/* Has every role that has files draw through them (the compiler does so
 * only for roles with many moves, see FILE_MIN_MOVES). */
static void file_all_roles(dl_circuit *c)
{
  cc_wide *w = c->wide;
  for (uint32_t r = 0; r < w->n_roles; r++) w->role_filed[r] = w->file_start[r + 1] > w->file_start[r];
}

/* 3000 bit-parallel playouts of game text (through the files with
 * filed): role 0's first move is each of its n legal ones about equally
 * often. */
static void check_first_moves(const char *text, int filed, uint32_t n)
{
  game x;
  replay rp;
  if (!game_open(&x, text, "game for the first moves compiles")) return;
  if (filed) file_all_roles(x.c);
  const char *why = wide_agrees(&rp, x.c, 9, 3000, 1000);
  uint32_t lo = UINT32_MAX, hi = 0, seen = 0, mean = 3000 / n;
  for (uint32_t m = 0; m < 8; m++)
    if (rp.first[m]) seen++, lo = rp.first[m] < lo ? rp.first[m] : lo, hi = rp.first[m] > hi ? rp.first[m] : hi;
  CHECK(!why && seen == n && lo > mean - mean / 6 && hi < mean + mean / 6,
        "3000 playouts: the %u first moves drawn %u to %u times%s%s", n, lo, hi, why ? ": " : "", why ? why : "");
  game_free(&x);
}

static void test_wide(void)
{
  const char *const games[] = { kings_game, turn_game, cycle_game, sink_game, any_game, checked_any_game,
                                checked_pick_game, steps_game(), keyed_game, keyed_gated_game };
  for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
    game x;
    replay rp;
    if (!game_open(&x, games[i], "game for the lanes compiles")) continue;
    const char *why = wide_agrees(&rp, x.c, 5 + i, 300, 1000);
    CHECK(!why && rp.states > 300, "game %zu: 300 bit-parallel playouts replayed (%u states)%s%s", i, rp.states,
          why ? ": " : "", why ? why : "");
    /* the sweep for any processor (this one may have taken AVX2's) plays the same playouts */
    uint32_t states = rp.states;
    x.c->wide->sweep = cc_wide_sweep_generic;
    why = wide_agrees(&rp, x.c, 5 + i, 300, 1000);
    CHECK(!why && rp.states == states, "game %zu: the generic sweep replayed too (%u states, %u before)%s%s", i,
          rp.states, states, why ? ": " : "", why ? why : "");
    file_all_roles(x.c);
    why = wide_agrees(&rp, x.c, 5 + i, 300, 1000);
    CHECK(!why, "game %zu: drawn among the moves of the fluents that hold too%s%s", i, why ? ": " : "", why ? why : "");
    game_free(&x);
  }
  /* the draws are uniform: role a's three first moves of the turn game,
   * and its five of the pieces game drawn among the moves of the fluents
   * that hold */
  check_first_moves(turn_game, 0, 3);
  check_first_moves(pieces_game, 1, 5);
  game x;
  replay rp;
  static const struct {
    const char *text;
    dl_playout_status status;
    uint32_t depth;
  } ends[] = {
    { "role(p). init(s). legal(p,go) :- true(t). terminal :- true(u). goal(p,1).\n", DL_PLAYOUT_NO_LEGAL, 0 },
    { "role(p). role(q). init(s). legal(p,go). legal(q,go). next(t) :- does(p,go).\n"
      "terminal :- true(t). goal(p,10). goal(q,20) :- true(s).\n", DL_PLAYOUT_BAD_GOAL, 1 },
    { "role(p). init(s). legal(p,go). next(s) :- true(s). goal(p,1).\n", DL_PLAYOUT_TOO_DEEP, 50 },
  };
  for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
    if (!game_open(&x, ends[i].text, "game with a bad end compiles")) continue;
    const char *why = wide_agrees(&rp, x.c, 3, 70, 50);
    CHECK(!why && rp.n_stat[ends[i].status] == 70 && rp.states == 70 * (ends[i].depth + 1),
          "bad end %zu: 70 playouts end as status %d after %u moves%s%s", i, (int)ends[i].status, ends[i].depth,
          why ? ": " : "", why ? why : "");
    game_free(&x);
  }
}

static int count_ended(void *ctx, const dl_wide_result *res)
{
  (void)res;
  ++*(uint32_t *)ctx;
  return 1;
}

/* A game that never ends, played to a depth of a million joint moves with
 * the stop already asked: one playout ends STOPPED after DL_PLAYOUT_POLL
 * moves, and the lanes (eager) stop after as many steps, none ended. */
static void test_stop(void)
{
  game x;
  if (!game_open(&x, "role(p). init(s). legal(p,go). next(s) :- true(s). goal(p,1).\n", "endless game compiles"))
    return;
  volatile sig_atomic_t cancel = 1;
  dl_stop stop = { &cancel, NULL, 0 };
  uint64_t s[4] = { 0 };
  int32_t goal;
  dl_rng rng;
  dl_rng_seed(&rng, 1);
  dl_circuit_initial(x.c, s);
  dl_playout p = dl_circuit_playout(x.c, s, &rng, 1000000, &stop, &goal);
  CHECK(p.status == DL_PLAYOUT_STOPPED && p.depth == DL_PLAYOUT_POLL - 1, "a playout polls its stop: status %d at %u",
        (int)p.status, p.depth);
  uint32_t ended = 0;
  if (dl_circuit_has_wide(x.c))  /* eager */
    CHECK(dl_circuit_wide_playouts(x.c, s, &rng, 200, 1000000, 0, &stop, count_ended, &ended) && ended == 0,
          "the lanes poll their stop: %u playouts ended", ended);
  game_free(&x);
}

/* test_circuit --wide FILE...: bit-parallel playouts of each game replayed
 * on its differential circuit.  Exit 77 (skip) when no file exists. */
static int corpus_wide(int argc, char **argv)
{
  int found = 0;
  for (int i = 2; i < argc; i++) {
    FILE *f = fopen(argv[i], "r");
    if (!f) continue;
    fclose(f);
    found++;
    game x;
    replay rp;
    if (!game_load(&x, argv[i])) {
      CHECK(0, "%s does not load", argv[i]);
      game_free(&x);
      continue;
    }
    const char *why = dl_circuit_has_wide(x.c) ? wide_agrees(&rp, x.c, 1, 400, 400) : NULL;
    printf("%s: %s\n", argv[i], dl_circuit_has_wide(x.c) ? "400 playouts replayed" : "no lanes");
    CHECK(!why, "%s: %s", argv[i], why);
    game_free(&x);
  }
  if (!found) {
    printf("skip: none of the games exists (no corpus)\n");
    return 77;
  }
  return check_exit();
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "--wide") == 0) return corpus_wide(argc, argv);
  for (int lazy = 0; lazy < 2; lazy++) {
    mode = lazy ? DL_CIRCUIT_LAZY : DL_CIRCUIT_EAGER;
    printf("-- %s\n", lazy ? "lazy" : "eager");
    test_cycle();
    test_turns();
    test_errors();
    test_stop();
    test_kings();
    test_sinks();
    test_any_legal();
    test_uniform_pick();
    test_checked_moves();
    test_checked_pick();
    test_selected();
    test_keyed();
  }
  test_modes_agree();
  mode = DL_CIRCUIT_EAGER;
  test_wide();
  return check_exit();
}
