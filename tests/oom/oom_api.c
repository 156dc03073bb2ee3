/* oom_api.c: out-of-memory fault injection over the public API.
 *
 *   oom_api [--every-after] [--stride N] GAME...
 *   oom_api --at N SCENARIO GAME    (one run, in this process: for a debugger)
 *
 * For each game and each scenario (open the game on the rules, on the
 * circuit, and on the rules with demand; then ask the initial state, its
 * legal moves, a next state, goals, terminal, the state as text and read
 * back, a move read from text, and a few playouts), one run without
 * failures counts the allocations and records their sites (alloc.h).
 * Then, in a child process per run, allocation number N fails, for the
 * first allocation of every site reached (and, with --stride, every N-th
 * allocation too); with --every-after every allocation from N on fails.
 * Each such run must:
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
#include <sys/wait.h>
#include <unistd.h>

#include "datalog/gdlog.h"
#include "tests/oom/alloc.h"
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

/* What a child reports to its parent through its exit status. */
enum { RUN_OK = 0, RUN_STATUS = 10, RUN_SILENT = 11, RUN_LEAK = 12 };

/* Runs sc with allocation n failing (and every one after it when after)
 * in a child; the finding, or RUN_OK. */
static int run_failing(const scenario *sc, const char *text, size_t len, long n, int after)
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    long live0 = oom_live();
    oom_arm(n, after);
    outcome o = run(sc, text, len);
    oom_disarm();
    long leak = oom_live() - live0;
    if (o.status != GDLOG_OK && o.status != GDLOG_ERR_NOMEM) {
      printf("    %s returned %s: %s\n", o.call, gdlog_status_name(o.status), o.error);
      fflush(stdout);
      _exit(RUN_STATUS);
    }
    if (o.status == GDLOG_ERR_NOMEM && !o.said_nomem) {
      printf("    %s: %s\n", o.call, o.error);
      fflush(stdout);
      _exit(RUN_SILENT);
    }
    if (leak) {
      printf("    %ld blocks leaked\n", leak);
      fflush(stdout);
      _exit(RUN_LEAK);
    }
    _exit(RUN_OK);
  }
  int ws;
  if (pid < 0 || waitpid(pid, &ws, 0) < 0) return -1;
  if (WIFSIGNALED(ws)) return 128 + WTERMSIG(ws);
  return WEXITSTATUS(ws);
}

/* The allocations to fail: the first of each site, and every stride-th. */
static long *failure_points(long total, long stride, long *n, long *sites)
{
  long *points = calloc((size_t)total + 1, sizeof *points);
  uintptr_t *seen = calloc((size_t)total + 1, sizeof *seen);
  long n_seen = 0;
  *n = 0;
  for (long i = 1; points && seen && i <= total; i++) {
    uintptr_t s = oom_site(i);
    int is_new = 1;
    for (long k = 0; k < n_seen && is_new; k++) is_new = seen[k] != s;
    if (is_new) seen[n_seen++] = s;
    if (is_new || (stride && i % stride == 0)) points[(*n)++] = i;
  }
  *sites = n_seen;
  free(seen);
  return points;
}

static const char *finding_name(int code)
{
  switch (code) {
  case RUN_STATUS: return "a status other than NOMEM";
  case RUN_SILENT: return "NOMEM without 'out of memory' in gdlog_error";
  case RUN_LEAK: return "a leak";
  default: return code >= 128 ? "a crash" : "the child failed";
  }
}

/* Every failure point of sc on the game; the number of findings. */
static int inject(const scenario *sc, const char *game, const char *text, size_t len, int after, long stride)
{
  run(sc, text, len);  /* the C library's lazy allocations happen here, not below */
  oom_record(1);  /* first: it loads what backtrace needs */
  long live0 = oom_live();
  oom_arm(0, 0);
  outcome o = run(sc, text, len);
  long total = oom_count();
  oom_record(0);
  if (!CHECK(o.status == GDLOG_OK, "%s %s: fails without fault injection: %s in %s", game, sc->name,
             gdlog_status_name(o.status), o.call ? o.call : "?"))
    return 1;
  CHECK(oom_live() == live0, "%s %s: %ld blocks leaked without fault injection", game, sc->name, oom_live() - live0);
  long n, sites;
  long *points = failure_points(total, stride, &n, &sites);
  int findings = 0;
  for (long k = 0; points && k < n; k++) {
    int code = run_failing(sc, text, len, points[k], after);
    if (!CHECK(code == RUN_OK, "%s %s: allocation %ld of %ld (site %s, 0x%lx)%s: %s", game, sc->name, points[k], total,
               oom_site_name(oom_site(points[k])), (unsigned long)oom_site(points[k]),
               after ? " and every one after" : "", finding_name(code)))
      findings++;
  }
  printf("%s %s: %ld allocations from %ld sites; %ld runs with a failure%s, %d findings\n", game, sc->name, total,
         sites, n, after ? " (and every allocation after it)" : "", findings);
  free(points);
  return findings;
}

/* --at N SCENARIO GAME: one run with allocation N failing, in this process. */
static int run_at(long n, const char *name, const char *path)
{
  size_t len;
  char *text = check_read_file(path, &len);
  for (size_t s = 0; text && s < sizeof scenarios / sizeof *scenarios; s++) {
    if (strcmp(scenarios[s].name, name) != 0) continue;
    oom_arm(n, 0);
    outcome o = run(&scenarios[s], text, len);
    oom_disarm();
    printf("%s: %s\n", o.call ? o.call : "all calls", o.status ? o.error : "ok");
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
    for (size_t s = 0; s < sizeof scenarios / sizeof *scenarios; s++)
      inject(&scenarios[s], argv[a], text, len, after, stride);
    free(text);
  }
  return check_exit();
}
