/* api_oracles.c: the oracle cases of tests/oracles/NAME.oracle (the format of
 * tests/run_oracles.sh; ORACLES.md) played through the public API
 * (datalog/gdlog.h) on one backend.
 *
 *   api_oracles rules|circuit|auto SHARED_GAMES_DIR CASE.oracle...
 *
 * Directives run: game, xfail, init, state, roles, legal, nlegal, goal,
 * terminal, does, step, stateis.  holds, absent (atoms of the model) and
 * check (the checker) are not questions of the API: they are counted as
 * skipped.  Prints `FAIL CASE.oracle:LINE: directive` and why for each
 * failed check and `xfail ...` for each failure the case expects (counted
 * apart), then "N xfail, N skipped", then "N passed, N failed"; exit
 * status 1 when a check failed, 77 when SHARED_GAMES_DIR does not exist. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "datalog/gdlog.h"

typedef struct oracle_case {
  const char *name;       /* the .oracle file */
  const char *dir;        /* its directory, for state files */
  const char *shared;
  gdlog_backend backend;
  gdlog_game *game;
  gdlog_state *state;     /* NULL: broken (init or step failed) */
  char *does[64];         /* per role: the move text of the next step */
  char *xfail;            /* reason, or NULL */
  int line_no;            /* of the directive at hand */
  int xfailed, skipped;   /* checks that failed as the case expects, directives not run */
} oracle_case;

/* The check of the directive at hand (its text in line): counted by
 * check.h, but a failure in a case marked xfail only here. */
static void verdict(oracle_case *c, int ok, const char *line, const char *detail)
{
  if (ok) {
    check_pass();
    return;
  }
  if (c->xfail) {
    c->xfailed++;
    printf("xfail %s:%d: %s\n", c->name, c->line_no, line);
    return;
  }
  check_fail(c->name, c->line_no, "%s%s%s", line, detail && *detail ? "\n  " : "", detail ? detail : "");
}

/* text without blanks, in place */
static char *squeeze(char *s)
{
  char *w = s;
  for (char *r = s; *r; r++)
    if (*r != ' ' && *r != '\t' && *r != '\r' && *r != '\n') *w++ = *r;
  *w = 0;
  return s;
}

static int compare_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the words of list (blank separated) are, as a set, the legal
 * moves of role r. */
static int legal_is(oracle_case *c, int r, char *list, char *why, size_t cap)
{
  const gdlog_move *moves;
  int n;
  if (gdlog_legal(c->game, c->state, r, &moves, &n) != GDLOG_OK) {
    snprintf(why, cap, "%s", gdlog_error(c->game));
    return 0;
  }
  char *got[1024], *want[1024];
  int nw = 0;
  for (char *t = strtok(list, " \t"); t && nw < 1024; t = strtok(NULL, " \t")) want[nw++] = t;
  if (n > 1024) n = 1024;
  for (int i = 0; i < n; i++) got[i] = squeeze(strdup(gdlog_move_text(c->game, moves[i])));
  qsort(got, (size_t)n, sizeof *got, compare_str);
  qsort(want, (size_t)nw, sizeof *want, compare_str);
  int same = n == nw;
  for (int i = 0; same && i < n; i++) same = strcmp(got[i], want[i]) == 0;
  size_t k = (size_t)snprintf(why, cap, "got:");
  for (int i = 0; i < n && k < cap; i++) k += (size_t)snprintf(why + k, cap - k, " %s", got[i]);
  for (int i = 0; i < n; i++) free(got[i]);
  return same;
}

static int role_of(oracle_case *c, const char *name)
{
  int r = -1;
  return gdlog_role_index(c->game, name, &r) == GDLOG_OK ? r : -1;
}

/* The state of file (relative to the case's directory) into *s; 1 or 0. */
static int load_state(oracle_case *c, const char *file, gdlog_state **s, char *why, size_t cap)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", c->dir, file);
  size_t len;
  char *text = check_read_file(path, &len);
  if (!text) {
    snprintf(why, cap, "cannot read %.1000s", path);
    return 0;
  }
  int ok = gdlog_parse_state(c->game, path, text, len, s) == GDLOG_OK;
  if (!ok) snprintf(why, cap, "%s", gdlog_error(c->game));
  free(text);
  return ok;
}

/* The next state for the does directives so far; 1, or 0 (state broken). */
static int step(oracle_case *c, char *why, size_t cap)
{
  int roles = gdlog_role_count(c->game);
  char text[8192];
  size_t k = 0;
  for (int r = 0; r < roles && r < 64; r++) {
    k += (size_t)snprintf(text + k, sizeof text - k, "does(%s,%s).\n", gdlog_role_name(c->game, r),
                          c->does[r] ? c->does[r] : "missing");
    free(c->does[r]);
    c->does[r] = NULL;
    if (k >= sizeof text) k = sizeof text - 1;
  }
  gdlog_move joint[64];
  gdlog_state *next;
  if (gdlog_parse_joint(c->game, c->state, "<does>", text, k, joint) != GDLOG_OK ||
      gdlog_next(c->game, c->state, joint, &next) != GDLOG_OK) {
    snprintf(why, cap, "%s", gdlog_error(c->game));
    return 0;
  }
  gdlog_state_free(c->state);
  c->state = next;
  return 1;
}

/* Runs one directive line (its words in w[0..n)). */
static void directive(oracle_case *c, char *line, char **w, int n)
{
  char why[4096] = "";
  const char *d = w[0];
  if (strcmp(d, "game") == 0) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->shared, w[1]);
    gdlog_options o;
    gdlog_options_init(&o);
    o.backend = c->backend;
    o.output = GDLOG_SYNTAX_INFIX;
    if (gdlog_open_file(path, &o, &c->game) != GDLOG_OK) {
      verdict(c, 0, line, c->game ? gdlog_error(c->game) : "no memory");
      gdlog_close(c->game);
      c->game = NULL;
    }
    return;
  }
  if (strcmp(d, "xfail") == 0) return;
  if (strcmp(d, "holds") == 0 || strcmp(d, "absent") == 0 || strcmp(d, "check") == 0) {
    c->skipped++;
    return;
  }
  if (!c->game) {
    verdict(c, 0, line, "no game");
    return;
  }
  if (strcmp(d, "init") == 0 || strcmp(d, "state") == 0) {
    gdlog_state_free(c->state);
    c->state = NULL;
    int ok = d[0] == 'i' ? gdlog_initial(c->game, &c->state) == GDLOG_OK : n > 1 && load_state(c, w[1], &c->state, why, sizeof why);
    if (!ok) verdict(c, 0, line, why);
    return;
  }
  if (strcmp(d, "roles") == 0) {
    int ok = gdlog_role_count(c->game) == n - 1;
    for (int r = 0; ok && r < n - 1; r++) ok = strcmp(gdlog_role_name(c->game, r), w[r + 1]) == 0;
    verdict(c, ok, line, "");
    return;
  }
  if (strcmp(d, "does") == 0 && n == 3) {
    int r = role_of(c, w[1]);
    if (r >= 0 && r < 64) c->does[r] = strdup(w[2]);
    else verdict(c, 0, line, "unknown role");
    return;
  }
  if (!c->state) {
    verdict(c, 0, line, "no state (an earlier step failed)");
    return;
  }
  int r = n > 1 ? role_of(c, w[1]) : -1;
  if (strcmp(d, "step") == 0) {
    verdict(c, step(c, why, sizeof why), line, why);
  } else if (strcmp(d, "terminal") == 0 && n == 2) {
    int t = -1;
    int ok = gdlog_is_terminal(c->game, c->state, &t) == GDLOG_OK && t == (strcmp(w[1], "yes") == 0);
    verdict(c, ok, line, gdlog_error(c->game));
  } else if (strcmp(d, "legal") == 0 && r >= 0) {
    char list[8192] = "";
    for (int i = 2; i < n; i++) strcat(strcat(list, " "), w[i]);
    verdict(c, legal_is(c, r, list, why, sizeof why), line, why);
  } else if (strcmp(d, "nlegal") == 0 && r >= 0 && n == 3) {
    const gdlog_move *moves;
    int k = -1;
    int ok = gdlog_legal(c->game, c->state, r, &moves, &k) == GDLOG_OK && k == atoi(w[2]);
    snprintf(why, sizeof why, "got %d %s", k, gdlog_error(c->game));
    verdict(c, ok, line, why);
  } else if (strcmp(d, "goal") == 0 && r >= 0 && n == 3) {
    int v = -1;
    gdlog_status st = gdlog_goal(c->game, c->state, r, &v);
    int ok = strcmp(w[2], "none") == 0 ? st == GDLOG_ERR_GAME && strstr(gdlog_error(c->game), "no goal value")
                                       : st == GDLOG_OK && v == atoi(w[2]);
    snprintf(why, sizeof why, "got %s %d %s", gdlog_status_name(st), v, gdlog_error(c->game));
    verdict(c, ok, line, why);
  } else if (strcmp(d, "stateis") == 0 && n == 2) {
    gdlog_state *want = NULL;
    int ok = load_state(c, w[1], &want, why, sizeof why) && gdlog_state_equal(want, c->state);
    char *text = NULL;
    if (!ok && !why[0] && gdlog_state_text(c->game, c->state, &text) == GDLOG_OK) snprintf(why, sizeof why, "got:\n%s", text);
    free(text);
    gdlog_state_free(want);
    verdict(c, ok, line, why);
  } else {
    verdict(c, 0, line, "unknown directive or role");
  }
}

static void run_case(oracle_case *c)
{
  FILE *f = fopen(c->name, "r");
  if (!f) {
    verdict(c, 0, "open", "cannot read the case");
    return;
  }
  char buf[8192];
  while (fgets(buf, sizeof buf, f)) /* xfail holds for the whole case */
    if (strncmp(buf, "xfail ", 6) == 0 && !c->xfail) c->xfail = strdup(buf);
  rewind(f);
  while (fgets(buf, sizeof buf, f)) {
    c->line_no++;
    buf[strcspn(buf, "\r\n")] = 0;
    if (buf[0] == '#' || buf[0] == 0) continue;
    char line[8192], *w[512];
    snprintf(line, sizeof line, "%s", buf);
    int n = 0;
    for (char *t = strtok(buf, " \t"); t && n < 512; t = strtok(NULL, " \t")) w[n++] = t;
    if (n) directive(c, line, w, n);
  }
  fclose(f);
  gdlog_state_free(c->state);
  gdlog_close(c->game);
  for (int r = 0; r < 64; r++) free(c->does[r]);
  free(c->xfail);
}

int main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: api_oracles rules|circuit|auto SHARED_GAMES_DIR CASE.oracle...\n");
    return 2;
  }
  struct stat st;
  if (stat(argv[2], &st) != 0) {
    printf("skip: %s not found\n", argv[2]);
    return 77;
  }
  gdlog_backend b = argv[1][0] == 'r' ? GDLOG_BACKEND_RULES : argv[1][0] == 'c' ? GDLOG_BACKEND_CIRCUIT : GDLOG_BACKEND_AUTO;
  int xfailed = 0, skipped = 0;
  for (int i = 3; i < argc; i++) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", argv[i]);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else strcpy(dir, ".");
    oracle_case c = { .name = argv[i], .dir = dir, .shared = argv[2], .backend = b };
    run_case(&c);
    xfailed += c.xfailed, skipped += c.skipped;
  }
  printf("%d xfail, %d skipped (not API questions)\n", xfailed, skipped);
  return check_exit();
}
