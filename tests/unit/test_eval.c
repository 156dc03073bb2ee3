/* test_eval.c: relations given to the evaluator in advance (dl_eval_give,
 * eval.c).  A given relation replaces the rules of its predicate: the
 * model reads its tuples, not what the rules would derive, the evaluator
 * adds nothing to it, and destroying the evaluator leaves it to its owner. */
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
  dl_eval_destroy(e);
  CHECK(ix_relation_size(given) == 2, "given: the relation outlives the evaluator");
  ix_relation_destroy(given);
  dl_load_destroy(l);
  dl_diag_destroy(diag);
}

int main(void)
{
  test_given();
  return check_exit();
}
