/* games.c: the tiny games the request harnesses (fuzz_serve, fuzz_step,
 * fuzz_api) embed, so that their inputs are requests, not games. */
#include "tests/fuzz/games.h"

/* tests/games/ticTacToe.kif, comments stripped and blanks squeezed. */
static const char ttt[] =
  " (role xplayer) (role oplayer) (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 1 3 b)) (init "
  "(cell 2 1 b)) (init (cell 2 2 b)) (init (cell 2 3 b)) (init (cell 3 1 b)) (init (cell 3 2 b)) (init "
  "(cell 3 3 b)) (init (control xplayer)) (<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true "
  "(cell ?m ?n b))) (<= (next (cell ?m ?n o)) (does oplayer (mark ?m ?n)) (true (cell ?m ?n b))) (<= "
  "(next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b)) (<= (next (cell ?m ?n b)) (does ?w "
  "(mark ?j ?k)) (true (cell ?m ?n b)) (or (distinct ?m ?j) (distinct ?n ?k))) (<= (next (control "
  "xplayer)) (true (control oplayer))) (<= (next (control oplayer)) (true (control xplayer))) (<= (row "
  "?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (true (cell ?m 3 ?x))) (<= (column ?n ?x) (true "
  "(cell 1 ?n ?x)) (true (cell 2 ?n ?x)) (true (cell 3 ?n ?x))) (<= (diagonal ?x) (true (cell 1 1 ?x)) "
  "(true (cell 2 2 ?x)) (true (cell 3 3 ?x))) (<= (diagonal ?x) (true (cell 1 3 ?x)) (true (cell 2 2 "
  "?x)) (true (cell 3 1 ?x))) (<= (line ?x) (row ?m ?x)) (<= (line ?x) (column ?m ?x)) (<= (line ?x) "
  "(diagonal ?x)) (<= open (true (cell ?m ?n b))) (<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) "
  "(true (control ?w))) (<= (legal xplayer noop) (true (control oplayer))) (<= (legal oplayer noop) "
  "(true (control xplayer))) (<= (goal xplayer 100) (line x)) (<= (goal xplayer 50) (not (line x)) "
  "(not (line o)) (not open)) (<= (goal xplayer 0) (line o)) (<= (goal oplayer 100) (line o)) (<= "
  "(goal oplayer 50) (not (line x)) (not (line o)) (not open)) (<= (goal oplayer 0) (line x)) (<= "
  "terminal (line x)) (<= terminal (line o)) (<= terminal (not open))"  ;

/* switches.kif of the shared games: three roles, one step to the end. */
static const char switches[] =
  " (role red) (role white) (role blue) (init off) (init red) (init dim) (init start) (trans off a on) "
  "(trans on a on) (trans on b off) (trans off b off) (trans red c green) (trans green c green) (trans "
  "green d red) (trans red d red) (trans dim e bright) (trans bright e bright) (trans bright f dim) "
  "(trans dim f dim) (trans2 start end) (legal red a) (legal red b) (legal white c) (legal white d) "
  "(legal blue e) (legal blue f) (<= (goal red 100) (true on)) (<= (goal red 0) (true off)) (<= (goal "
  "white 100) (true green)) (<= (goal white 0) (true red)) (<= (goal blue 100) (true bright)) (<= "
  "(goal blue 0) (true dim)) (<= terminal (true end)) (<= (next ?q) (trans2 ?p ?q) (true ?p)) (<= "
  "(next ?q) (trans ?p ?a ?q) (does ?player ?a) (true ?p)) "  ;

/* A nim of three in infix, with a quoted role name. */
static const char nim[] =
  "role(white). role('black one').\n"
  "init(heap(3)). init(turn(white)).\n"
  "succ(0,1). succ(1,2). succ(2,3).\n"
  "legal(R, take(1)) :- true(turn(R)), true(heap(N)), succ(M, N).\n"
  "legal(R, take(2)) :- true(turn(R)), true(heap(N)), succ(M, N), succ(K, M).\n"
  "legal(R, noop) :- role(R), ~true(turn(R)).\n"
  "next(heap(M)) :- does(R, take(1)), true(heap(N)), succ(M, N).\n"
  "next(heap(K)) :- does(R, take(2)), true(heap(N)), succ(M, N), succ(K, M).\n"
  "next(turn('black one')) :- true(turn(white)).\n"
  "next(turn(white)) :- true(turn('black one')).\n"
  "terminal :- true(heap(0)).\n"
  "goal(R, 0) :- true(turn(R)).\n"
  "goal(R, 100) :- role(R), ~true(turn(R)).\n"
  ;

/* A step counter read with a bit by every next seen(K,I) and with a
 * negated lit(I) by every gap(K,I): the circuit's selected ANDs, whose
 * feeds depend on which steps a state (any state a request sets) holds. */
static const char steps[] =
  "role(p). init(step(0)). init(bit(1)). init(lit(2)).\n"
  "succ(0,1). succ(1,2). succ(2,3). succ(3,4). succ(4,5). succ(5,6). idx(1). idx(2). idx(3). idx(4).\n"
  "legal(p,flip(I)) :- idx(I).\n"
  "next(bit(I)) :- true(bit(I)) & ~does(p,flip(I)).\n"
  "next(bit(I)) :- idx(I) & ~true(bit(I)) & does(p,flip(I)).\n"
  "next(lit(I)) :- true(bit(I)).\n"
  "next(step(N)) :- true(step(M)) & succ(M,N).\n"
  "next(seen(K,I)) :- true(step(K)) & true(bit(I)).\n"
  "next(gap(K,I)) :- true(step(K)) & idx(I) & ~true(lit(I)).\n"
  "next(hit(I,J)) :- does(p,flip(I)) & true(bit(J)).\n"
  "terminal :- true(step(6)).\n"
  "win :- true(seen(K,I)) & true(gap(K,J)). win :- true(hit(I,J)) & true(lit(J)).\n"
  "goal(p,100) :- win. goal(p,0) :- ~win.\n";

const fuzz_embedded fuzz_games[FUZZ_N_GAMES] = {
  { "ttt.kif", ttt, sizeof ttt - 1 },
  { "switches.kif", switches, sizeof switches - 1 },
  { "nim.dl", nim, sizeof nim - 1 },
  { "steps.dl", steps, sizeof steps - 1 },
};
