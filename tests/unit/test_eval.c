/* test_eval.c: relations given to the evaluator in advance (dl_eval_give,
 * eval.c), seeded at once and released after a run.  A given relation replaces the rules of its predicate: the
 * model reads its tuples, not what the rules would derive, the evaluator
 * adds nothing to it, and destroying the evaluator leaves it to its owner.
 * And joins that end in a test of a whole tuple (which the evaluator may
 * answer from a bitmap, see plan.h), against the same joins run naively. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/eval/eval.h"
#include "datalog/program/load.h"

/* Loads the infix program text; NULL on errors. */
static dl_loaded *load_text(const char *text, dl_diag *diag)
{
  dl_load_options lo = { .file = "<test>", .syntax = -1 };
  dl_loaded *l = dl_load_memory(&lo, text, strlen(text), diag);
  if (l && l->prog) return l;
  dl_load_destroy(l);
  return NULL;
}

static uint32_t pred_of(const dl_program *p, const char *name)
{
  return dl_program_pred(p, dl_terms_symbol(p->terms, name, strlen(name)));
}

static dl_tid constant(const dl_program *p, const char *name)
{
  return dl_terms_constant(p->terms, dl_terms_symbol(p->terms, name, strlen(name)));
}

/* q's rules would give q(a) and q(b); the given q holds q(b) and q(c). */
static void test_given(void)
{
  dl_diag *diag = dl_diag_create();
  dl_loaded *l = load_text("q(a). q(X) :- r(X). r(b).\n"
                           "p(X) :- q(X) & ~s(X).\n"
                           "s(b).\n", diag);
  CHECK(l != NULL, "given: loaded");
  if (!l) {
    dl_diag_destroy(diag);
    return;
  }
  const dl_program *prog = l->prog;
  uint32_t q = pred_of(prog, "q"), p = pred_of(prog, "p");
  ix_relation *given = ix_relation_create(1);
  dl_tid b = constant(prog, "b"), c = constant(prog, "c"), a = constant(prog, "a");
  ix_relation_insert(given, &b, NULL);
  ix_relation_insert(given, &c, NULL);
  dl_eval_options eo = { 0, NULL };
  dl_eval *e = dl_eval_create(prog, &eo, diag);
  CHECK(e != NULL, "given: created");
  CHECK(e && dl_eval_give(e, q, given), "given: given");
  CHECK(e && dl_eval_run(e), "given: run");
  const ix_relation *pr = e ? dl_eval_relation(e, p) : NULL;
  CHECK(e && dl_eval_relation(e, q) == given, "given: q is the given relation");
  CHECK(ix_relation_size(given) == 2 && !ix_relation_contains(given, &a), "given: q's rules did not run");
  CHECK(pr && ix_relation_size(pr) == 1 && ix_relation_contains(pr, &c),
        "given: p(c) from the given q(c), p(b) blocked by s(b)");
  CHECK(e && dl_eval_release(e, q), "given: released");
  CHECK(e && dl_eval_relation(e, q) != given && ix_relation_size(dl_eval_relation(e, q)) == 0 && dl_eval_size(e, q) == 2,
        "given: released, q reads empty and keeps its size");
  dl_eval_destroy(e);
  CHECK(ix_relation_size(given) == 2, "given: the relation outlives the evaluator (and its release)");
  ix_relation_destroy(given);
  dl_load_destroy(l);
  dl_diag_destroy(diag);
}

enum { CHAIN = 300 };  /* nodes of the seeded chain */

/* A chain's edges seeded at once from one buffer (dl_eval_seed_all, as
 * data files are), some twice; its closure; then the edges released: their
 * relation reads empty, their size and the closure stay. */
static void test_seed_release(void)
{
  dl_diag *diag = dl_diag_create();
  dl_loaded *l = load_text("tc(X,Y) :- e(X,Y).\ntc(X,Z) :- e(X,Y) & tc(Y,Z).\n", diag);
  CHECK(l != NULL, "seed: loaded");
  if (!l) {
    dl_diag_destroy(diag);
    return;
  }
  const dl_program *prog = l->prog;
  uint32_t ep = pred_of(prog, "e"), tc = pred_of(prog, "tc"), n = CHAIN - 1 + 10;
  dl_tid *edges = malloc(2 * (size_t)n * sizeof *edges);
  char name[16];
  for (uint32_t i = 0; edges && i < n; i++) {
    uint32_t from = i < CHAIN - 1 ? i : (i - (CHAIN - 1)) * 13;  /* the last 10: edges seeded already */
    snprintf(name, sizeof name, "n%u", from);
    edges[2 * i] = constant(prog, name);
    snprintf(name, sizeof name, "n%u", from + 1);
    edges[2 * i + 1] = constant(prog, name);
  }
  dl_eval_options eo = { 0, NULL };
  dl_eval *e = edges ? dl_eval_create(prog, &eo, diag) : NULL;
  CHECK(e && dl_eval_seed_all(e, ep, edges, n) && dl_eval_run(e), "seed: seeded and run");
  uint64_t closure = (uint64_t)CHAIN * (CHAIN - 1) / 2;
  CHECK(e && dl_eval_size(e, ep) == CHAIN - 1 && dl_eval_size(e, tc) == closure, "seed: %u edges, closure of %llu",
        CHAIN - 1, (unsigned long long)closure);
  CHECK(e && dl_eval_release(e, ep), "seed: released");
  CHECK(e && ix_relation_size(dl_eval_relation(e, ep)) == 0 && dl_eval_size(e, ep) == CHAIN - 1 &&
            ix_relation_size(dl_eval_relation(e, tc)) == closure,
        "seed: the edges released, the closure kept");
  dl_eval_destroy(e);
  dl_load_destroy(l);
  dl_diag_destroy(diag);
}

enum { FN = 40 };  /* nodes of the filter test's graphs */

/* The name of node i, into buf. */
static const char *node_name(char *buf, int i)
{
  snprintf(buf, 16, "n%d", i);
  return buf;
}

/* Does relation `name` of e hold exactly the pairs of want? */
static int same_pairs(dl_eval *e, const dl_program *prog, const char *name, uint8_t want[FN][FN])
{
  const ix_relation *r = dl_eval_relation(e, pred_of(prog, name));
  uint64_t n = 0;
  char a[16], b[16];
  for (int x = 0; x < FN; x++)
    for (int y = 0; y < FN; y++) {
      dl_tid t[2] = { constant(prog, node_name(a, x)), constant(prog, node_name(b, y)) };
      if (want[x][y] && !ix_relation_contains(r, t)) return 0;
      n += want[x][y];
    }
  return r && ix_relation_size(r) == n;
}

/* The number of triples of nodes with e(X,Y), e(Y,Z) and e(X,Z), or with
 * e(Z,X) in place of the last when rotated. */
static uint64_t count_closed(uint8_t e[FN][FN], int rotated)
{
  uint64_t n = 0;
  for (int x = 0; x < FN; x++)
    for (int y = 0; y < FN; y++)
      for (int z = 0; z < FN; z++) n += e[x][y] && e[y][z] && (rotated ? e[z][x] : e[x][z]);
  return n;
}

/* The least fixpoint of v(X,Z) :- f(X,Z).  v(Y,Z) :- v(X,Y) & e(Y,Z) &
 * v(X,Z). */
static void naive_v(uint8_t e[FN][FN], uint8_t f[FN][FN], uint8_t v[FN][FN])
{
  memcpy(v, f, FN * FN);
  for (int grew = 1; grew;) {
    grew = 0;
    for (int x = 0; x < FN; x++)
      for (int y = 0; y < FN; y++)
        for (int z = 0; z < FN; z++)
          if (v[x][y] && e[y][z] && v[x][z] && !v[y][z]) v[y][z] = grew = 1;
  }
}

/* Random graphs e and f; their facts appended to text. */
static void random_graphs(uint8_t e[FN][FN], uint8_t f[FN][FN], char *text, size_t cap)
{
  uint64_t seed = 12345;
  char a[16], b[16];
  for (int x = 0; x < FN; x++)
    for (int y = 0; y < FN; y++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      e[x][y] = (seed >> 33) % 100 < 15;
      f[x][y] = (seed >> 41) % 100 < 5;
      size_t at = strlen(text);
      if (e[x][y]) at += (size_t)snprintf(text + at, cap - at, "e(%s,%s).\n", node_name(a, x), node_name(b, y));
      if (f[x][y]) snprintf(text + at, cap - at, "f(%s,%s).\n", node_name(a, x), node_name(b, y));
    }
}

/* Triangles in two orientations, and a recursive relation whose rule ends
 * in a test (after a scan of its delta, or of its old tuples), against the
 * naive answers. */
static void test_filters(void)
{
  static uint8_t e[FN][FN], f[FN][FN], v[FN][FN];
  static char text[FN * FN * 32 + 256];
  strcpy(text, "tri(X,Y,Z) :- e(X,Y) & e(Y,Z) & e(X,Z).\n"
               "rot(X,Y,Z) :- e(X,Y) & e(Y,Z) & e(Z,X).\n"
               "v(X,Z) :- f(X,Z).\n"
               "v(Y,Z) :- v(X,Y) & e(Y,Z) & v(X,Z).\n");
  random_graphs(e, f, text, sizeof text);
  naive_v(e, f, v);
  dl_diag *diag = dl_diag_create();
  dl_loaded *l = load_text(text, diag);
  CHECK(l != NULL, "filters: loaded");
  dl_eval_options eo = { 0, NULL };
  dl_eval *ev = l ? dl_eval_create(l->prog, &eo, diag) : NULL;
  CHECK(ev && dl_eval_run(ev), "filters: run");
  if (ev) {
    const dl_program *prog = l->prog;
    uint64_t tri = ix_relation_size(dl_eval_relation(ev, pred_of(prog, "tri")));
    uint64_t rot = ix_relation_size(dl_eval_relation(ev, pred_of(prog, "rot")));
    CHECK(tri == count_closed(e, 0) && tri > 0, "filters: triangles e(X,Y) e(Y,Z) e(X,Z): %llu", (unsigned long long)tri);
    CHECK(rot == count_closed(e, 1) && rot > 0, "filters: cycles e(X,Y) e(Y,Z) e(Z,X): %llu", (unsigned long long)rot);
    CHECK(same_pairs(ev, prog, "v", v), "filters: v closed under v(X,Y) e(Y,Z) v(X,Z)");
  }
  dl_eval_destroy(ev);
  dl_load_destroy(l);
  dl_diag_destroy(diag);
}

enum { PV = 60, PO = 12 };  /* variables and objects of the points-to test */

/* Andersen's points-to by naive iteration: pt(V,O) :- new(V,O).
 * pt(V,O) :- assign(V,W) & pt(W,O).  pt(V,O) :- load(V,W) & pt(W,B) &
 * hpt(B,O).  hpt(B,O) :- store(V,W) & pt(V,B) & pt(W,O). */
static void naive_points(uint8_t a[PV][PV], uint8_t ld[PV][PV], uint8_t st[PV][PV], uint8_t pt[PV][PO],
                         uint8_t hpt[PO][PO])
{
  for (int grew = 1; grew;) {
    grew = 0;
    for (int v = 0; v < PV; v++)
      for (int w = 0; w < PV; w++)
        for (int o = 0; o < PO; o++) {
          int to = (a[v][w] && pt[w][o]);
          for (int b = 0; b < PO && !to; b++) to = ld[v][w] && pt[w][b] && hpt[b][o];
          if (to && !pt[v][o]) pt[v][o] = grew = 1;
          for (int b = 0; b < PO; b++)
            if (st[v][w] && pt[v][b] && pt[w][o] && !hpt[b][o]) hpt[b][o] = grew = 1;
        }
  }
}

/* The points-to analysis of perf/datalog on a small random program (its
 * rules run from deltas of pt and of hpt, scans followed by look-ups of
 * values most of which are missing), against the naive answer. */
static void test_points(void)
{
  static uint8_t a[PV][PV], ld[PV][PV], st[PV][PV], pt[PV][PO], hpt[PO][PO];
  static char text[PV * PV * 64 + 512];
  strcpy(text, "pt(V,O) :- new(V,O).\npt(V,O) :- assign(V,W) & pt(W,O).\n"
               "pt(V,O) :- load(V,W) & pt(W,B) & hpt(B,O).\nhpt(B,O) :- store(V,W) & pt(V,B) & pt(W,O).\n");
  uint64_t seed = 777;
  for (int v = 0; v < PV; v++)
    for (int w = 0; w < PV; w++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      uint32_t x = (uint32_t)(seed >> 33);
      a[v][w] = x % 1000 < 25, ld[v][w] = x / 1000 % 1000 < 8, st[v][w] = x / 1000000 % 1000 < 8;
      size_t at = strlen(text);
      if (a[v][w]) at += (size_t)snprintf(text + at, sizeof text - at, "assign(v%d,v%d).\n", v, w);
      if (ld[v][w]) at += (size_t)snprintf(text + at, sizeof text - at, "load(v%d,v%d).\n", v, w);
      if (st[v][w]) snprintf(text + at, sizeof text - at, "store(v%d,v%d).\n", v, w);
    }
  for (int o = 0; o < PO; o++) {
    int v = (o * 37 + 11) % PV;
    pt[v][o] = 1;
    snprintf(text + strlen(text), sizeof text - strlen(text), "new(v%d,o%d).\n", v, o);
  }
  naive_points(a, ld, st, pt, hpt);
  dl_diag *diag = dl_diag_create();
  dl_loaded *l = load_text(text, diag);
  dl_eval_options eo = { 0, NULL };
  dl_eval *ev = l ? dl_eval_create(l->prog, &eo, diag) : NULL;
  CHECK(ev && dl_eval_run(ev), "points: run");
  if (ev) {
    const dl_program *prog = l->prog;
    const ix_relation *rpt = dl_eval_relation(ev, pred_of(prog, "pt")), *rhpt = dl_eval_relation(ev, pred_of(prog, "hpt"));
    uint64_t n_pt = 0, n_hpt = 0, missing = 0;
    char x[16], y[16];
    for (int v = 0; v < PV; v++)
      for (int o = 0; o < PO; o++) {
        snprintf(x, sizeof x, "v%d", v), snprintf(y, sizeof y, "o%d", o);
        dl_tid t[2] = { constant(prog, x), constant(prog, y) };
        n_pt += pt[v][o], missing += pt[v][o] && !ix_relation_contains(rpt, t);
      }
    for (int b = 0; b < PO; b++)
      for (int o = 0; o < PO; o++) {
        snprintf(x, sizeof x, "o%d", b), snprintf(y, sizeof y, "o%d", o);
        dl_tid t[2] = { constant(prog, x), constant(prog, y) };
        n_hpt += hpt[b][o], missing += hpt[b][o] && !ix_relation_contains(rhpt, t);
      }
    CHECK(missing == 0 && ix_relation_size(rpt) == n_pt && ix_relation_size(rhpt) == n_hpt && n_hpt > 0,
          "points: pt %llu of %llu, hpt %llu of %llu, %llu missing", (unsigned long long)ix_relation_size(rpt),
          (unsigned long long)n_pt, (unsigned long long)ix_relation_size(rhpt), (unsigned long long)n_hpt,
          (unsigned long long)missing);
  }
  dl_eval_destroy(ev);
  dl_load_destroy(l);
  dl_diag_destroy(diag);
}

int main(void)
{
  test_given();
  test_seed_release();
  test_filters();
  test_points();
  return check_exit();
}
