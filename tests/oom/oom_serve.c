/* oom_serve.c: out-of-memory fault injection over `gdlog serve`'s request
 * loop (datalog/serve/serve.h), in this process.
 *
 *   oom_serve [--every-after] GAME REQUESTS
 *   oom_serve [--every-after] --at N SCENARIO GAME REQUESTS
 *                           (one run, in this process, its replies and the
 *                           expected ones printed: for a debugger)
 *
 * For each scenario (the game on the rules, on the rules with demand, and
 * on the circuit), a run builds GAME through the pipeline, starts a
 * session and answers the requests of the file REQUESTS (one a line, as
 * `gdlog serve` reads them) into memory.  The allocations fail one by one
 * as inject.h says.  Each run must:
 *   - fail to build with an error whose cause is memory, or
 *   - answer as the run without failures did up to a reply that says
 *     "out of memory" (the request that met the failure; those after it
 *     may differ: a state it did not make is not there), or stop early
 *     when writing a reply found no memory, having said so;
 *   - never crash, and free every block it allocated. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/machine/pipeline.h"
#include "datalog/serve/serve.h"
#include "tests/oom/alloc.h"
#include "tests/oom/inject.h"
#include "tests/unit/check.h"

typedef struct scenario {
  const char *name;
  dl_backend backend;
  dl_sm_demand demand;
} scenario;

static const scenario scenarios[] = {
  { "rules", DL_BACKEND_RULES, DL_SM_DEMAND_OFF },
  { "rules+demand", DL_BACKEND_RULES, DL_SM_DEMAND_ON },
  { "circuit", DL_BACKEND_CIRCUIT, DL_SM_DEMAND_AUTO },
};

/* A scenario on one game and its requests, and the replies of the run
 * without failures (NULL until it ran). */
typedef struct serve_run {
  const scenario *sc;
  const char *game, *requests;
  size_t game_len, requests_len;
  char *expected;
} serve_run;

/* What a session did: its replies, whether the build and the loop went
 * through, and the last error reported. */
typedef struct session {
  char *replies;
  size_t len;
  int built, started, ran;
  dl_cause cause;
  char error[200];
} session;

static void keep_last_error(session *o, const dl_diag *diag)
{
  o->cause = dl_diag_last_cause(diag);
  size_t n = dl_diag_count(diag);
  const char *text = n ? dl_diag_message(diag, n - 1)->text : "";
  snprintf(o->error, sizeof o->error, "%s", text ? text : "");
}

/* Serves x's requests on a session of x's game; o->replies is the
 * caller's to free. */
static void serve(const serve_run *x, session *o)
{
  memset(o, 0, sizeof *o);
  dl_diag *diag = dl_diag_create();
  dl_game g = { 0 };
  dl_game_options opt;
  dl_game_options_init(&opt);
  opt.backend = x->sc->backend, opt.demand = x->sc->demand;
  dl_load_options lo = { .file = "game.kif", .syntax = -1 };
  FILE *in = fmemopen((void *)x->requests, x->requests_len, "r");
  FILE *out = open_memstream(&o->replies, &o->len);
  o->built = diag && in && out && dl_game_load(&g, &lo, x->game, x->game_len, diag) &&
             dl_game_build(&g, NULL, &opt, DL_STAGE_MACHINE, diag);
  dl_serve_options so = { .fmt = DL_FMT_KIF, .seed = 1, .max_depth = 10000, .max_states = 3 };
  dl_serve *s = o->built ? dl_serve_create(g.machine, g.kif, &so, diag) : NULL;
  o->started = s != NULL;
  o->ran = s && dl_serve_run(s, in, out);
  if (diag) keep_last_error(o, diag);
  dl_serve_destroy(s);
  if (in) fclose(in);
  if (out) fclose(out);
  dl_game_free(&g);
  dl_diag_destroy(diag);
}

/* The first line where a and b differ (a line of neither when one is a
 * prefix of the other); its start in a into *at. */
static size_t first_difference(const char *a, const char *b, const char **at)
{
  size_t line = 1;
  const char *start = a;
  for (; *a && *a == *b; a++, b++)
    if (*a == '\n') line++, start = a + 1;
  *at = start;
  return line;
}

/* Judges the replies of a run where an allocation may have failed. */
static int judge_replies(const serve_run *x, const session *o)
{
  const char *at;
  size_t line = first_difference(o->replies, x->expected, &at);
  const char *end = strchr(at, '\n');
  int said = end && memmem(at, (size_t)(end - at), "out of memory", 13) != NULL;
  if (!strcmp(o->replies, x->expected) || said) return OOM_RUN_OK;
  if (!*at && !o->ran && o->cause == DL_CAUSE_NOMEM) return OOM_RUN_OK;  /* stopped, and said why */
  printf("    reply %zu: %.*s (%s)\n", line, end ? (int)(end - at) : (int)strlen(at), *at ? at : "(none)",
         o->ran ? "the session went on" : o->error);
  return OOM_RUN_SILENT;
}

/* oom_run_fn: serves the requests and judges the replies. */
static int judge(void *ctx, int armed)
{
  serve_run *x = ctx;
  session o;
  serve(x, &o);
  int found = OOM_RUN_OK;
  if (!armed) {
    if (!o.ran) printf("    the session failed: %s\n", o.error), found = OOM_RUN_STATUS;
    else if (!x->expected) x->expected = strdup(o.replies);
    else if (strcmp(x->expected, o.replies)) printf("    other replies\n"), found = OOM_RUN_WRONG;
  } else if (!o.built && o.cause != DL_CAUSE_NOMEM && o.error[0]) {
    printf("    the game did not build: %s\n", o.error);
    found = OOM_RUN_STATUS;
  } else if (o.started && o.replies) {
    found = judge_replies(x, &o);
  }
  free(o.replies);
  return found;
}

static int read_scenario(serve_run *x, const scenario *sc, const char *game, const char *requests)
{
  memset(x, 0, sizeof *x);
  x->sc = sc;
  x->game = check_read_file(game, &x->game_len);
  x->requests = check_read_file(requests, &x->requests_len);
  return CHECK(x->game && x->requests, "cannot read %s or %s", game, requests);
}

static void free_scenario(serve_run *x)
{
  free((char *)x->game), free((char *)x->requests), free(x->expected);
}

/* --at N SCENARIO: one run with allocation n failing, its replies shown. */
static int run_at(serve_run *x, long n, int after)
{
  judge(x, 0);  /* the replies to compare with */
  session o;
  oom_arm(n, after);
  serve(x, &o);
  oom_disarm();
  printf("%s---\n%s", o.replies ? o.replies : "(no replies)\n", x->expected);
  int found = o.started && o.replies ? judge_replies(x, &o) : OOM_RUN_OK;
  printf("%s\n", found == OOM_RUN_OK ? "as it should" : "a finding");
  free(o.replies);
  return found == OOM_RUN_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
  int after = 0, a = 1;
  long at = 0;
  const char *only = NULL;
  for (; a < argc && argv[a][0] == '-'; a++) {
    if (!strcmp(argv[a], "--every-after")) after = 1;
    else if (!strcmp(argv[a], "--at") && a + 2 < argc) at = atol(argv[++a]), only = argv[++a];
    else break;
  }
  if (argc - a != 2) {
    fprintf(stderr, "usage: %s [--every-after] [--at N SCENARIO] GAME REQUESTS\n", argv[0]);
    return 2;
  }
  int rc = 0;
  for (size_t s = 0; s < sizeof scenarios / sizeof *scenarios; s++) {
    if (only && strcmp(scenarios[s].name, only)) continue;
    serve_run x;
    if (!read_scenario(&x, &scenarios[s], argv[a], argv[a + 1])) continue;
    if (only) {
      rc = run_at(&x, at, after);
    } else {
      char what[512];
      snprintf(what, sizeof what, "%s %s", argv[a], scenarios[s].name);
      CHECK(oom_inject(what, judge, &x, after, 0) == 0, "%s: findings (above)", what);
    }
    free_scenario(&x);
  }
  return only ? rc : check_exit();
}
