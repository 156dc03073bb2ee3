/* test_magic.c: the rules backend's demand-driven evaluation (the magic-set
 * rewriting of datalog/program/magic.h inside datalog/machine/sm.h).
 *
 *   test_magic agree GAME N SEED   N random playouts of GAME: in every state
 *                                  the machine over the rewriting answers
 *                                  terminal, legal (each role), goal values
 *                                  (each role) and next like the machine
 *                                  over the game's rules
 *   test_magic play GAME N SEED    N random playouts with the rewriting
 *                                  (forced); prints playouts/s and memory
 *   test_magic auto GAME 0 0       prints whether DL_SM_DEMAND_AUTO chooses
 *                                  the rewriting
 *   test_magic rewrite GAME 0 0    prints the figures of the rewriting for
 *                                  the GDL keywords (dl_magic_get_stats)
 *
 * MAX_STATES (default 10000) cuts each playout after that many states.
 * All print `N passed, N failed` and exit non-zero on a failure; a GAME
 * path that does not exist skips (exit 77: the corpus is optional). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "datalog/base/clock.h"
#include "datalog/gdl/domains.h"
#include "datalog/machine/sm.h"
#include "datalog/program/magic.h"
#include "datalog/program/load.h"

static uint32_t max_states = 10000;  /* per playout */

/* A xorshift generator: the test's own, seeded from the command line. */
static uint32_t next_random(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)(*s >> 16);
}

static int same_list(const dl_ids *a, const dl_ids *b)
{
  return a->n == b->n && (a->n == 0 || memcmp(a->ids, b->ids, a->n * sizeof *a->ids) == 0);
}

static void copy_list(dl_ids *to, const dl_tid *ids, uint32_t n)
{
  if (to->cap < n) {
    to->cap = n;
    to->ids = realloc(to->ids, n * sizeof *to->ids);
  }
  if (n) memcpy(to->ids, ids, n * sizeof *ids);
  to->n = n;
}

static void print_errors(const dl_diag *d)
{
  for (size_t i = 0; i < dl_diag_count(d); i++) fprintf(stderr, "  %s\n", dl_diag_message(d, i)->text);
}

/* One random playout on a (and b, when not NULL, compared with a at every
 * state); the number of states, 0 on a failure. */
static uint32_t playout(dl_sm *a, dl_sm *b, uint64_t *rng, const dl_diag *d)
{
  uint32_t n_roles, n_init;
  dl_sm_roles(a, &n_roles);
  const dl_tid *init = dl_sm_initial(a, &n_init);
  dl_ids state = { 0 }, next = { 0 }, la = { 0 }, lb = { 0 };
  copy_list(&state, init, n_init);
  dl_tid joint[n_roles ? n_roles : 1];
  uint32_t states = 0;
  int ok = 1;
  for (;;) {
    states++;
    int ta = 0, tb = 0;
    ok = dl_sm_terminal(a, state.ids, state.n, &ta) && (!b || dl_sm_terminal(b, state.ids, state.n, &tb));
    CHECK(ok, "terminal answers");
    if (!ok) break;
    if (b) CHECK(ta == tb, "terminal %d vs %d in state %u", ta, tb, states);
    for (uint32_t r = 0; b && r < n_roles; r++) {
      ok = dl_sm_goal_values(a, state.ids, state.n, r, &la) && dl_sm_goal_values(b, state.ids, state.n, r, &lb);
      CHECK(ok && same_list(&la, &lb), "goal values of role %u in state %u: %u vs %u", r, states, la.n, lb.n);
    }
    for (uint32_t r = 0; ta && r < n_roles; r++) {
      int v;
      CHECK(dl_sm_goal(a, state.ids, state.n, r, &v), "a goal value for role %u at the end", r);
    }
    if (ta || states >= max_states) break;
    for (uint32_t r = 0; ok && r < n_roles; r++) {
      ok = dl_sm_legal(a, state.ids, state.n, r, &la) && (!b || dl_sm_legal(b, state.ids, state.n, r, &lb));
      CHECK(ok, "legal answers");
      if (ok && b) CHECK(same_list(&la, &lb), "legal moves of role %u in state %u: %u vs %u", r, states, la.n, lb.n);
      if (ok) joint[r] = la.ids[next_random(rng) % la.n];
    }
    if (!ok) break;
    ok = dl_sm_next(a, state.ids, state.n, joint, &next);
    CHECK(ok, "next answers");
    if (ok && b) {
      ok = dl_sm_next(b, state.ids, state.n, joint, &lb);
      CHECK(ok && same_list(&next, &lb), "next state after state %u", states);
    }
    if (!ok) break;
    dl_ids t = state;
    state = next;
    next = t;
  }
  if (!ok) print_errors(d);
  dl_ids_free(&state);
  dl_ids_free(&next);
  dl_ids_free(&la);
  dl_ids_free(&lb);
  return ok ? states : 0;
}

int main(int argc, char **argv)
{
  if (argc == 6) max_states = (uint32_t)strtoul(argv[5], NULL, 10);
  if ((argc != 5 && argc != 6) || (strcmp(argv[1], "agree") != 0 && strcmp(argv[1], "play") != 0 && strcmp(argv[1], "auto") != 0 &&
                                   strcmp(argv[1], "rewrite") != 0)) {
    fprintf(stderr, "usage: test_magic agree|play|auto|rewrite GAME PLAYOUTS SEED [MAX_STATES]\n");
    return 2;
  }
  if (access(argv[2], R_OK) != 0) {
    printf("skip: no %s\n", argv[2]);
    return 77;
  }
  int agree = strcmp(argv[1], "agree") == 0;
  long n = strtol(argv[3], NULL, 10);
  uint64_t rng = strtoull(argv[4], NULL, 10) * 2654435761u + 1;
  dl_diag *d = dl_diag_create();
  dl_load_options o = { .file = argv[2], .syntax = -1 };
  dl_loaded *l = dl_load(&o, d);
  dl_eval_options eo = { 0, NULL };
  if (strcmp(argv[1], "rewrite") == 0) {
    static const char *const names[] = { "role", "init", "legal", "next", "goal", "terminal" };
    uint32_t queries[6], nq = 0;
    for (int k = 0; l && l->prog && k < 6; k++) {
      dl_sym s = dl_terms_symbol(l->prog->terms, names[k], strlen(names[k]));
      uint32_t p = dl_program_pred(l->prog, s);
      if (p != DL_NO_PRED) queries[nq++] = p;
    }
    dl_magic *m = l && l->prog ? dl_magic_create(l->prog, queries, nq, d) : NULL;
    CHECK(m != NULL, "the rewriting of %s", argv[2]);
    if (m) {
      dl_magic_stats st = dl_magic_get_stats(m);
      printf("negation step %u: %u adorned, %u magic, %u in full, %u rules\n", st.negation, st.adorned, st.magic,
             st.full, st.rules);
    } else {
      print_errors(d);
    }
    dl_magic_destroy(m);
    dl_load_destroy(l);
    dl_diag_destroy(d);
    return check_exit();
  }
  if (strcmp(argv[1], "auto") == 0) {
    dl_sm *sm = l && l->prog ? dl_sm_create_demand(l->prog, &eo, DL_SM_DEMAND_AUTO, d) : NULL;
    CHECK(sm != NULL, "the machine of %s", argv[2]);
    dl_domains *dom = sm ? dl_domains_build(l->prog, d) : NULL;
    uint32_t big = 0;
    for (uint32_t p = 1; dom && p < l->prog->n_preds; p++)
      if (!(dl_domains_pred_count(dom, p) <= dl_domains_pred_count(dom, big))) big = p;
    if (sm && dom)
      printf("demand %s (largest domain: %s, %g instances)\n", dl_sm_uses_demand(sm) ? "on" : "off",
             dl_program_pred_name(l->prog, big), dl_domains_pred_count(dom, big));
    else print_errors(d);
    dl_domains_destroy(dom);
    dl_sm_destroy(sm);
    dl_load_destroy(l);
    dl_diag_destroy(d);
    return check_exit();
  }
  double t0 = dl_clock_now();
  dl_sm *on = l && l->prog ? dl_sm_create_demand(l->prog, &eo, DL_SM_DEMAND_ON, d) : NULL;
  double t_create = dl_clock_now() - t0;
  dl_sm *off = agree && on ? dl_sm_create_demand(l->prog, &eo, DL_SM_DEMAND_OFF, d) : NULL;
  CHECK(on && (!agree || off), "the machines of %s", argv[2]);
  if (on && agree && off) {
    uint32_t na, nb, ia, ib;
    const dl_tid *ra = dl_sm_roles(off, &na), *rb = dl_sm_roles(on, &nb);
    const dl_tid *xa = dl_sm_initial(off, &ia), *xb = dl_sm_initial(on, &ib);
    CHECK(na == nb && memcmp(ra, rb, na * sizeof *ra) == 0, "same roles");
    CHECK(ia == ib && memcmp(xa, xb, ia * sizeof *xa) == 0, "same initial state");
    CHECK(dl_sm_uses_demand(on) && !dl_sm_uses_demand(off), "demand as asked");
    uint64_t states = 0;
    for (long i = 0; i < n && check_failures == 0; i++) states += playout(off, on, &rng, d);
    dl_sm_stats so = dl_sm_get_stats(off), sn = dl_sm_get_stats(on);
    printf("%ld playouts, %llu states agree; models: rules %.3f s (processor %.3f s), rewriting %.3f s "
           "(processor %.3f s)\n",
           n, (unsigned long long)states, so.seconds, so.cpu_seconds, sn.seconds, sn.cpu_seconds);
  } else if (on) {
    uint64_t states = 0;
    t0 = dl_clock_now();
    for (long i = 0; i < n && check_failures == 0; i++) states += playout(on, NULL, &rng, d);
    double t = dl_clock_now() - t0;
    dl_sm_stats st = dl_sm_get_stats(on);
    printf("%llu models, %.3f s of processor time: %.1f states per processor second\n",
           (unsigned long long)st.models, st.cpu_seconds, (double)states / st.cpu_seconds);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%ld playouts, %llu states in %.3f s: %.3f playouts/s, %.1f states/s; rewriting %.3f s; "
           "peak memory %ld MiB\n",
           n, (unsigned long long)states, t, (double)n / t, (double)states / t, t_create, ru.ru_maxrss / 1024);
  } else {
    print_errors(d);
  }
  dl_sm_destroy(on);
  dl_sm_destroy(off);
  dl_load_destroy(l);
  dl_diag_destroy(d);
  return check_exit();
}
