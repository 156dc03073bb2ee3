/* test_reduce.c: the G+ reduction's independent body parts (reduce.c).  A
 * rule whose body falls into parts that share no variable gets an
 * auxiliary predicate per part with a variable outside the head (and so
 * does a frame rule's part joined to the rest by head variables only); the game's
 * predicates keep the same instances, the auxiliary ones stay hidden, their
 * names avoid the game's, and the derivations drop from the product of the
 * parts to their sum. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/machine/pipeline.h"

typedef struct game {
  dl_diag *diag;
  dl_game built;             /* to stage REDUCE */
  const dl_loaded *l;        /* built's */
  const dl_reduction *r;     /* built's */
} game;

static void game_free(game *x)
{
  dl_game_free(&x->built);
  dl_diag_destroy(x->diag);
}

/* Loads the infix program text (through a temporary file) and reduces it. */
static int game_reduce(game *x, const char *text)
{
  memset(x, 0, sizeof *x);
  char path[32];
  if (!check_temp_file(text, path)) return 0;
  x->diag = dl_diag_create();
  dl_load_options lo = { .file = path, .syntax = -1 };
  dl_game_options o;
  dl_game_options_init(&o);
  o.max_atoms = 0;
  if (dl_game_load(&x->built, &lo, NULL, 0, x->diag) && dl_game_build(&x->built, NULL, &o, DL_STAGE_REDUCE, x->diag))
    x->r = x->built.reduction;
  x->l = x->built.loaded;
  remove(path);
  for (size_t i = 0; i < dl_diag_count(x->diag); i++) {
    char *m = dl_diag_render(dl_diag_message(x->diag, i));
    if (m) fputs(m, stdout);
    free(m);
  }
  return x->r != NULL;
}

/* Instances of the game's predicate `name` that G+ keeps. */
static uint64_t kept(const game *x, const char *name)
{
  const dl_program *p = x->l->prog;
  uint32_t q = dl_program_pred(p, dl_terms_symbol(p->terms, name, strlen(name)));
  return q == DL_NO_PRED ? UINT64_MAX : ix_relation_size(dl_reduction_relation(x->r, q));
}

/* The auxiliary predicates of G+, their names joined by spaces into out. */
static uint32_t auxiliaries(const game *x, char *out, size_t size)
{
  const dl_program *g = dl_reduction_program(x->r);
  uint32_t n = 0;
  out[0] = 0;
  for (uint32_t q = 0; q < g->n_preds; q++) {
    if (!dl_reduction_auxiliary(x->r, q)) continue;
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%s", n++ ? " " : "", dl_program_pred_name(g, q));
  }
  return n;
}

/* Two parts with variables outside the head (succ(M,E), gplus_0(G)) and
 * one without (true(s(K))); the game's own gplus_0 makes the first
 * auxiliary name _gplus_0. */
static void test_parts(void)
{
  game x;
  int ok = game_reduce(&x, "role(p). init(s(1)). succ(1,2). succ(2,3). gplus_0(a). gplus_0(b).\n"
                           "legal(p,go).\n"
                           "next(s(Y)) :- true(s(X)) & succ(X,Y).\n"
                           "next(w(K,M)) :- true(s(K)) & succ(M,E) & gplus_0(G).\n"
                           "terminal :- true(s(3)). goal(p,100).\n");
  CHECK(ok, "parts: reduced");
  if (ok) {
    char names[256];
    CHECK(auxiliaries(&x, names, sizeof names) == 2, "parts: two auxiliary predicates");
    CHECK(strcmp(names, "_gplus_0 gplus_1") == 0, "parts: their names avoid the game's gplus_0");
    CHECK(kept(&x, "next") == 8, "parts: next keeps s(2), s(3) and w(1..3, 1..2)");
    CHECK(kept(&x, "true") == 9, "parts: true keeps 9");
    CHECK(dl_reduction_atoms(x.r) == 27, "parts: atoms leave the auxiliary ones out");
  }
  game_free(&x);
}

/* hex's connected rule: each new step K would join transfer and connected
 * again (20 steps x 20 x 10 derivations); with the part made a predicate,
 * its 200 derivations are made once and each step reads its 10 atoms. */
static void test_hex_like(void)
{
  char text[4096];
  size_t n = (size_t)snprintf(text, sizeof text, "role(p). init(step(0)). legal(p,go).\n");
  for (int k = 0; k < 20; k++)
    n += (size_t)snprintf(text + n, sizeof text - n, "succ(%d,%d). init(connected(%d,c%d)). init(owner(%d)).\n", k,
                          k + 1, k, k % 10, k);
  snprintf(text + n, sizeof text - n,
           "next(step(Y)) :- true(step(X)) & succ(X,Y).\n"
           "transfer(E) :- true(owner(E)).\n"
           "next(connected(K,M)) :- transfer(E) & true(connected(E,M)) & true(step(K)).\n"
           "terminal :- true(step(20)). goal(p,100).\n");
  game x;
  int ok = game_reduce(&x, text);
  CHECK(ok, "hex-like: reduced");
  if (ok) {
    CHECK(kept(&x, "next") == 20 + 21 * 10, "hex-like: next keeps 20 steps and 21 x 10 connected");
    uint64_t d = dl_eval_get_stats(dl_reduction_eval(x.r)).derivations;
    printf("   derivations %llu\n", (unsigned long long)d);
    CHECK(d < 1500, "hex-like: derivations about the sum of the parts, not their product");
  }
  game_free(&x);
}

/* A frame rule: no part of its body is apart, but without its head's
 * variables (X, P) true(cell(X,P)) is apart from does(p,move(Y)) &
 * diff(X,Y); the second gets its predicate, so the moves are joined once
 * per cell, not once per cell and piece, and the sets stay the same. */
static void test_frame_like(void)
{
  char text[8192];
  size_t n = (size_t)snprintf(text, sizeof text, "role(p).\n");
  for (int x = 0; x < 10; x++) {
    n += (size_t)snprintf(text + n, sizeof text - n, "square(c%d).\n", x);
    for (int y = 0; y < 10; y++)
      if (x != y) n += (size_t)snprintf(text + n, sizeof text - n, "diff(c%d,c%d).\n", x, y);
    for (int k = 0; k < 5; k++) n += (size_t)snprintf(text + n, sizeof text - n, "init(cell(c%d,%d)).\n", x, k);
  }
  snprintf(text + n, sizeof text - n,
           "legal(p,move(Y)) :- square(Y).\n"
           "next(cell(X,P)) :- true(cell(X,P)) & does(p,move(Y)) & diff(X,Y).\n"
           "terminal :- true(cell(c0,4)). goal(p,100).\n");
  game x;
  int ok = game_reduce(&x, text);
  CHECK(ok, "frame-like: reduced");
  if (ok) {
    char names[256];
    CHECK(auxiliaries(&x, names, sizeof names) == 1, "frame-like: one auxiliary predicate, for the moves");
    CHECK(kept(&x, "next") == 50, "frame-like: next keeps the 50 cells");
    CHECK(kept(&x, "true") == 50, "frame-like: true keeps the 50 cells");
  }
  game_free(&x);
}

int main(void)
{
  test_parts();
  test_frame_like();
  test_hex_like();
  return check_exit();
}
