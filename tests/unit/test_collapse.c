/* test_collapse.c: predicates that only rename others, collapsed into
 * their readers (collapse.c).  A reader's literal unifies with each rule
 * of the predicate (function terms, repeated variables, and no rule where
 * they do not unify or only an infinite term would); a reader read once is
 * copied per rule when the room allows; a predicate read negated or twice
 * by a rule, or whose rules and readers are both several, or that reads
 * itself, or that the caller keeps, stays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/base/buf.h"
#include "datalog/machine/pipeline.h"
#include "datalog/write/collapse.h"
#include "datalog/write/output.h"

static int add_text(void *ctx, const char *data, size_t n) { return dl_buf_add(ctx, data, n), 1; }

/* Open for every predicate but the one named by ctx (may be NULL). */
static int open_but(void *ctx, dl_sym pred)
{
  (void)pred;
  return ctx == NULL || *(const dl_sym *)ctx != pred;
}

/* The rules of the KIF program text, collapsed but for the predicate
 * named keep (may be NULL) with room bytes to grow, as infix text
 * (malloc'd), or NULL after printing why. */
static char *collapsed(const char *text, const char *keep, int64_t room, uint32_t *n_preds)
{
  dl_diag *diag = dl_diag_create();
  dl_game g;
  memset(&g, 0, sizeof g);
  dl_load_options lo = { .file = "t.kif", .syntax = -1 };
  char *out = NULL;
  if (dl_game_load(&g, &lo, text, strlen(text), diag)) {
    const dl_program *p = g.loaded->prog;
    dl_sym kept = keep ? dl_terms_symbol(p->terms, keep, strlen(keep)) : DL_NO_SYM;
    dl_collapse *c = dl_collapse_create(p, p->ast->rules, p->ast->n_rules, room, open_but, keep ? &kept : NULL, diag);
    dl_buf b = { 0 };
    uint32_t n = 0;
    const dl_rule *rules = c ? dl_collapse_rules(c, &n) : NULL;
    dl_sink sink = { add_text, &b };
    if (c && dl_output_rule_list_to(&sink, p, DL_FMT_INFIX, rules, n)) {
      out = b.data ? b.data : strdup("");
      *n_preds = dl_collapse_pred_count(c);
    } else {
      dl_buf_free(&b);
    }
    dl_collapse_destroy(c);
  }
  for (size_t i = 0; !out && i < dl_diag_count(diag); i++) {
    char *m = dl_diag_render(dl_diag_message(diag, i));
    if (m) fputs(m, stdout);
    free(m);
  }
  dl_game_free(&g);
  dl_diag_destroy(diag);
  return out;
}

static void expect(const char *text, const char *keep, int64_t room, const char *want, uint32_t want_preds,
                   const char *what)
{
  uint32_t n = UINT32_MAX;
  char *got = collapsed(text, keep, room, &n);
  CHECK(got && strcmp(got, want) == 0, "%s: got\n%s\nwant\n%s", what, got ? got : "(nothing)", want);
  CHECK(n == want_preds, "%s: %u predicates collapsed, want %u", what, n, want_preds);
  free(got);
}

int main(void)
{
  const char *chain = "(<= (h ?a) (p (f b) ?a))\n"
                      "(<= (p (f ?x) ?y) (q ?x ?y))\n"
                      "(<= (q ?u ?v) (r ?u ?v) (s ?v))\n";
  expect(chain, NULL, 0, "h(V0) :- q(b,V0).\nq(V0,V1) :- r(V0,V1) & s(V1).\n", 1, "function term");
  expect(chain, "p", 0, "h(V0) :- p(f(b),V0).\np(f(V0),V1) :- q(V0,V1).\nq(V0,V1) :- r(V0,V1) & s(V1).\n", 0,
         "kept by the caller");
  expect("(<= (h ?a) (p c ?a))\n(<= (p (f ?x) ?y) (q ?x ?y))\n(<= (q ?u ?v) (r ?u ?v) (s ?v))\n", NULL, 0,
         "q(V0,V1) :- r(V0,V1) & s(V1).\n", 1, "no unifier: the reader goes");
  expect("(<= (h ?z) (p ?z ?z))\n(<= (p (f ?x) ?x) (q ?x ?x))\n(<= (q ?u ?v) (r ?u ?v) (s ?v))\n", NULL, 0,
         "q(V0,V1) :- r(V0,V1) & s(V1).\n", 1, "only an infinite term unifies");
  expect("(<= (h ?a ?b) (p ?a ?b))\n(<= (p ?x ?x) (q ?x))\n(<= (p ?x 1) (q ?x))\n(<= (q ?u) (r ?u) (s ?u))\n", NULL, 0,
         "h(V1,V1) :- q(V1).\nh(V0,1) :- q(V0).\nq(V0) :- r(V0) & s(V0).\n", 1, "a copy rule reads it: no growth");

  const char *longer = "(<= (h ?a) (t ?a) (p ?a) (distinct ?a 3))\n(<= (p ?x) (q ?x))\n(<= (p 2) (r 2))\n";
  expect(longer, NULL, 1000, "h(V0) :- t(V0) & q(V0) & distinct(V0,3).\nh(2) :- t(2) & r(2) & distinct(2,3).\n", 1,
         "a longer rule reads it once: copied per rule");
  expect(longer, NULL, 0,
         "h(V0) :- t(V0) & p(V0) & distinct(V0,3).\np(V0) :- q(V0).\np(2) :- r(2).\n", 0, "no room to copy it");
  expect("(<= (h ?a) (t ?a) (p ?a))\n(<= (g ?a) (p ?a) (t ?a))\n(<= (p ?x) (q ?x))\n", NULL, 0,
         "h(V0) :- t(V0) & q(V0).\ng(V0) :- q(V0) & t(V0).\n", 1, "one rule, longer readers: no growth");

  const char *stays[] = {
    "(<= (h ?a) (p ?a))\n(<= (g ?a) (r ?a) (not (p ?a)))\n(<= (p ?x) (q ?x))\n",          /* read negated */
    "(<= (h ?a) (p ?a) (p 1))\n(<= (p ?x) (q ?x))\n",                                        /* read twice */
    "(<= (h ?a) (p ?a))\n(<= (g ?a) (p ?a))\n(<= (p ?x) (q ?x))\n(<= (p ?x) (r ?x))\n",  /* would multiply */
    "(<= (h ?a) (p ?a))\n(<= (p ?x) (q ?x) (r ?x))\n",                                    /* no copy rule */
    "(<= (h ?a) (p ?a))\n(<= (p ?x) (p ?x))\n(<= (p 1) (q 1))\n",                          /* reads itself */
  };
  for (size_t i = 0; i < sizeof stays / sizeof *stays; i++) {
    uint32_t n = UINT32_MAX;
    char *got = collapsed(stays[i], NULL, 1000, &n);
    CHECK(got && n == 0, "case %zu stays: %u collapsed\n%s", i, n, got ? got : "(nothing)");
    free(got);
  }
  return check_exit();
}
