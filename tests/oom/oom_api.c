/* oom_api.c: out-of-memory fault injection over the public API.
 *
 *   oom_api [--every-after] [--stride N] GAME...
 *   oom_api --at N SCENARIO GAME    (one run, in this process: for a debugger)
 *
 * For each game and each scenario (open the game on the rules, on the
 * circuit, and on the rules with demand; then ask the initial state, its
 * legal moves, a next state, goals, terminal, the state as text and read
 * back, a move read from text, and a few playouts), the allocations fail
 * one by one as inject.h says (--stride: every N-th allocation too;
 * --every-after: every allocation from the failing one on).  Each run
 * must:
 *   - end in GDLOG_ERR_NOMEM from the call that met the failure (or go
 *     on, when the failure was of something the library can do without),
 *     never another status and never a crash;
 *   - say "out of memory" in gdlog_error when a game handle exists;
 *   - free every block it allocated once the game is closed.
 * Prints a line per finding (the allocation's number and site, for
 * addr2line -f -e oom_api 0xSITE), a line per scenario, and `N passed,
 * N failed`; exit 1 on any finding. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/gdlog.h"
#include "tests/oom/alloc.h"
#include "tests/oom/inject.h"
#include "tests/unit/check.h"

typedef struct scenario {
  const char *name;
  gdlog_backend backend;
  gdlog_demand demand;
} scenario;

static const scenario scenarios[] = {
  { "rules", GDLOG_BACKEND_RULES, GDLOG_DEMAND_OFF },
  { "rules+demand", GDLOG_BACKEND_RULES, GDLOG_DEMAND_ON },
  { "circuit", GDLOG_BACKEND_CIRCUIT, GDLOG_DEMAND_AUTO },
};

/* The outcome of one run. */
typedef struct outcome {
  gdlog_status status;    /* the first status other than OK, or OK */
  const char *call;       /* the call that returned it */
  int said_nomem;         /* gdlog_error said "out of memory" (when a handle existed) */
  char error[160];        /* the start of gdlog_error's first line */
} outcome;

/* Keeps the start of g's error text in o. */
static void keep_error(outcome *o, const gdlog_game *g)
{
  const char *e = g ? gdlog_error(g) : "";
  o->said_nomem = !g || strstr(e, "out of memory") != NULL;
  snprintf(o->error, sizeof o->error, "%.*s", (int)strcspn(e, "\n"), e);
}

/* Records st from call into *o when it is the first failure; 1 while OK. */
static int step(outcome *o, gdlog_game *g, const char *call, gdlog_status st)
{
  if (st == GDLOG_OK) return 1;
  if (o->status == GDLOG_OK) {
    o->status = st, o->call = call;
    keep_error(o, g);
  }
  return 0;
}

/* The questions of a player in the initial state of g. */
static void play(outcome *o, gdlog_game *g)
{
  gdlog_state *s = NULL, *next = NULL, *back = NULL;
  char *text = NULL;
  int roles = gdlog_role_count(g), terminal, value;
  gdlog_move joint[8] = { 0 }, parsed;
  if (!step(o, g, "gdlog_initial", gdlog_initial(g, &s))) goto out;
  if (!step(o, g, "gdlog_is_terminal", gdlog_is_terminal(g, s, &terminal))) goto out;
  for (int r = 0; r < roles && r < 8; r++) {
    const gdlog_move *moves;
    int n;
    if (!step(o, g, "gdlog_legal", gdlog_legal(g, s, r, &moves, &n))) goto out;
    joint[r] = moves[n - 1];
    if (!gdlog_move_text(g, joint[r])) {
      step(o, g, "gdlog_move_text", GDLOG_ERR_NOMEM);
      goto out;
    }
    if (!step(o, g, "gdlog_parse_move", gdlog_parse_move(g, r, gdlog_move_text(g, joint[r]), &parsed))) goto out;
  }
  if (!step(o, g, "gdlog_next", gdlog_next(g, s, joint, &next))) goto out;
  for (int r = 0; r < roles; r++) {
    gdlog_status st = gdlog_goal(g, next, r, &value);  /* GAME: a state without goal values, as the game says */
    if (st != GDLOG_ERR_GAME && !step(o, g, "gdlog_goal", st)) goto out;
  }
  if (!step(o, g, "gdlog_state_text", gdlog_state_text(g, next, &text))) goto out;
  if (!step(o, g, "gdlog_parse_state", gdlog_parse_state(g, "<state>", text, strlen(text), &back))) goto out;
  double mean[8], depth;
  step(o, g, "gdlog_playouts", gdlog_playouts(g, back, 3, 1, mean, &depth));
out:
  free(text);
  gdlog_state_free(s);
  gdlog_state_free(next);
  gdlog_state_free(back);
}

static outcome run(const scenario *sc, const char *text, size_t len)
{
  outcome o = { GDLOG_OK, NULL, 1, "" };
  gdlog_options opt;
  gdlog_options_init(&opt);
  opt.backend = sc->backend, opt.demand = sc->demand;
  gdlog_game *g = NULL;
  if (step(&o, NULL, "gdlog_open_buffer", gdlog_open_buffer("game.kif", text, len, &opt, &g))) play(&o, g);
  else keep_error(&o, g);
  gdlog_close(g);
  return o;
}

/* A scenario on one game. */
typedef struct api_run {
  const scenario *sc;
  const char *text;
  size_t len;
} api_run;

/* oom_run_fn: runs the scenario and judges its outcome. */
static int judge(void *ctx, int armed)
{
  const api_run *x = ctx;
  outcome o = run(x->sc, x->text, x->len);
  if (o.status != GDLOG_OK && (!armed || o.status != GDLOG_ERR_NOMEM)) {
    printf("    %s returned %s: %s\n", o.call, gdlog_status_name(o.status), o.error);
    return OOM_RUN_STATUS;
  }
  if (o.status == GDLOG_ERR_NOMEM && !o.said_nomem) {
    printf("    %s: %s\n", o.call, o.error);
    return OOM_RUN_SILENT;
  }
  return OOM_RUN_OK;
}

/* --at N SCENARIO GAME: one run with allocation N failing, in this process. */
static int run_at(long n, const char *name, const char *path)
{
  size_t len;
  char *text = check_read_file(path, &len);
  for (size_t s = 0; text && s < sizeof scenarios / sizeof *scenarios; s++) {
    if (strcmp(scenarios[s].name, name) != 0) continue;
    api_run x = { &scenarios[s], text, len };
    int found = oom_run_at(judge, &x, n, 0);
    printf("%s\n", found == OOM_RUN_OK ? "as it should" : "a finding");
    free(text);
    return 0;
  }
  fprintf(stderr, "oom_api: no game %s or no scenario %s\n", path, name);
  free(text);
  return 2;
}

int main(int argc, char **argv)
{
  if (argc == 5 && strcmp(argv[1], "--at") == 0) return run_at(atol(argv[2]), argv[3], argv[4]);
  int after = 0, first = 1;
  long stride = 0;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (strcmp(argv[first], "--every-after") == 0) after = 1;
    else if (strcmp(argv[first], "--stride") == 0 && first + 1 < argc) stride = atol(argv[++first]);
    else break;
  }
  if (first == argc) {
    fprintf(stderr, "usage: %s [--every-after] [--stride N] GAME...\n", argv[0]);
    return 2;
  }
  for (int a = first; a < argc; a++) {
    size_t len;
    char *text = check_read_file(argv[a], &len);
    if (!CHECK(text != NULL, "cannot read %s", argv[a])) continue;
    for (size_t s = 0; s < sizeof scenarios / sizeof *scenarios; s++) {
      api_run x = { &scenarios[s], text, len };
      char what[512];
      snprintf(what, sizeof what, "%s %s", argv[a], scenarios[s].name);
      CHECK(oom_inject(what, judge, &x, after, stride) == 0, "%s: findings (above)", what);
    }
    free(text);
  }
  return check_exit();
}
