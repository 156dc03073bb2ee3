/* test_api_edges.c: the edges of the public API (datalog/gdlog.h) on
 * tic-tac-toe (the file given as argument), on both backends: indexes out
 * of range are GDLOG_ERR_INPUT (in a build without assertions: with them,
 * the precondition is asserted and these calls are not made), names read
 * as the game's own (a bare symbol with '-', KIF's case folding), the
 * version macros, the sized options struct, structured diagnostics, and
 * gdlog_interrupt from another thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datalog/gdlog.h"
#include "check.h"

static gdlog_game *open_game(const char *path, gdlog_backend backend)
{
  gdlog_options o;
  gdlog_options_init(&o);
  o.backend = backend;
  gdlog_game *g = NULL;
  gdlog_status st = gdlog_open_file(path, &o, &g);
  CHECK(st == GDLOG_OK, "open %s: %s", path, g ? gdlog_error(g) : "no memory");
  if (st == GDLOG_OK) return g;
  gdlog_close(g);
  return NULL;
}

/* Indexes out of range: INPUT, a message, no crash. */
static void test_ranges(gdlog_game *g)
{
#ifdef NDEBUG
  gdlog_state *s = NULL;
  CHECK(gdlog_initial(g, &s) == GDLOG_OK, "initial");
  const gdlog_move *moves = NULL;
  int n = -1, value = -1;
  CHECK(gdlog_legal(g, s, 5, &moves, &n) == GDLOG_ERR_INPUT && strstr(gdlog_error(g), "role 5 is out of range"),
        "legal of role 5: %s", gdlog_error(g));
  CHECK(gdlog_legal(g, s, -1, &moves, &n) == GDLOG_ERR_INPUT && n == 0, "legal of role -1");
  CHECK(gdlog_goal(g, s, 9, &value) == GDLOG_ERR_INPUT, "goal of role 9");
  CHECK(gdlog_role_name(g, 7) == NULL && gdlog_role_name(g, -1) == NULL, "name of role 7");
  CHECK(gdlog_move_text(g, 4000000000u) == NULL && strstr(gdlog_error(g), "out of range"), "text of move 4e9: %s",
        gdlog_error(g));
  gdlog_move m = 0;
  CHECK(gdlog_parse_move(g, 2, "noop", &m) == GDLOG_ERR_INPUT, "parse a move of role 2");
  gdlog_move joint[2] = { 4000000000u, 4000000000u };
  gdlog_state *next = NULL;
  CHECK(gdlog_next(g, s, joint, &next) == GDLOG_ERR_INPUT && next == NULL, "next with moves out of range");
  gdlog_state_free(s);
#else
  (void)g;
  printf("skip: range checks are assertions in this build\n");
#endif
}

/* A bare symbol and case are read as the game's names are. */
static void test_names(gdlog_game *g)
{
  int r = -1;
  CHECK(gdlog_role_index(g, "OPLAYER", &r) == GDLOG_OK && r == 1, "OPLAYER: %s", gdlog_error(g));
  CHECK(gdlog_role_index(g, "xPlayer", &r) == GDLOG_OK && r == 0, "xPlayer: %s", gdlog_error(g));
  gdlog_move m;
  CHECK(gdlog_parse_move(g, 1, "NOOP", &m) == GDLOG_OK && strcmp(gdlog_move_text(g, m), "noop") == 0, "NOOP: %s",
        gdlog_error(g));
  CHECK(gdlog_parse_move(g, 0, "(Mark 1 2)", &m) == GDLOG_OK && strcmp(gdlog_move_text(g, m), "(mark 1 2)") == 0,
        "(Mark 1 2): %s", gdlog_error(g));
  const char *dashed = "(role the-player) (init s) (legal the-player straight-line) "
                       "(<= (next t) (does the-player straight-line)) (<= terminal (true t)) (goal the-player 100)";
  gdlog_game *d = NULL;
  CHECK(gdlog_open_buffer("dash.kif", dashed, strlen(dashed), NULL, &d) == GDLOG_OK, "open dash.kif");
  if (d && gdlog_role_count(d) == 1) {
    CHECK(gdlog_role_index(d, "the-player", &r) == GDLOG_OK && r == 0, "the-player: %s", gdlog_error(d));
    CHECK(gdlog_parse_move(d, 0, "straight-line", &m) == GDLOG_OK, "straight-line: %s", gdlog_error(d));
  }
  gdlog_close(d);
}

static void test_version(void)
{
  char want[64];
  snprintf(want, sizeof want, "%d.%d.%d", GDLOG_VERSION_MAJOR, GDLOG_VERSION_MINOR, GDLOG_VERSION_PATCH);
  CHECK(strcmp(gdlog_version(), want) == 0, "version %s, macros %s", gdlog_version(), want);
}

/* The options of a program compiled against an older, shorter struct:
 * the fields it does not have keep their defaults. */
static void test_options_size(const char *path)
{
  gdlog_options *o = malloc(sizeof *o);
  memset(o, 0xab, sizeof *o);
  size_t old = offsetof(gdlog_options, on_diagnostic);
  gdlog_options_init_size(o, old);
  CHECK(o->size == old && o->backend == GDLOG_BACKEND_AUTO && o->max_atoms == 100000000ULL, "init of an old size");
  CHECK(((unsigned char *)o)[old] == 0xab, "nothing written past the caller's size");
  o->backend = GDLOG_BACKEND_RULES;
  gdlog_game *g = NULL;
  CHECK(gdlog_open_file(path, o, &g) == GDLOG_OK && gdlog_backend_of(g) == GDLOG_BACKEND_RULES,
        "open with an old options struct: %s", g ? gdlog_error(g) : "");
  gdlog_close(g);
  free(o);
}

typedef struct seen {
  int n, errors, line, column;
  char file[64], message[128];
} seen;

static void on_diagnostic(void *ctx, const gdlog_diagnostic *d)
{
  seen *s = ctx;
  if (s->n++ || d->severity != GDLOG_SEVERITY_ERROR) return;
  s->errors++;
  s->line = d->line, s->column = d->column;
  snprintf(s->file, sizeof s->file, "%s", d->file ? d->file : "");
  snprintf(s->message, sizeof s->message, "%s", d->message);
}

static void test_diagnostics(void)
{
  seen s = { 0 };
  gdlog_options o;
  gdlog_options_init(&o);
  o.on_diagnostic = on_diagnostic;
  o.diagnostic_ctx = &s;
  const char *text = "role(a).\np(X) :- q(.\n";
  gdlog_game *g = NULL;
  CHECK(gdlog_open_buffer("broken.dl", text, strlen(text), &o, &g) == GDLOG_ERR_INPUT, "a syntax error");
  CHECK(s.errors == 1 && strcmp(s.file, "broken.dl") == 0 && s.line == 2 && s.column > 0 && !strstr(s.message, "broken"),
        "diagnostic %s:%d:%d: %s", s.file, s.line, s.column, s.message);
  gdlog_close(g);
}

typedef struct clock_thread {
  gdlog_game *g;
  double after;
} clock_thread;

static void *interrupt_later(void *arg)
{
  clock_thread *c = arg;
  struct timespec ts = { 0, (long)(c->after * 1e9) };
  nanosleep(&ts, NULL);
  gdlog_interrupt(c->g);
  return NULL;
}

/* A long call stops soon after another thread interrupts it. */
static void test_interrupt(gdlog_game *g)
{
  gdlog_state *s = NULL;
  double mean[2];
  CHECK(gdlog_initial(g, &s) == GDLOG_OK, "initial");
  clock_thread c = { g, 0.05 };
  pthread_t t;
  pthread_create(&t, NULL, interrupt_later, &c);
  gdlog_status st = gdlog_playouts(g, s, UINT64_MAX, 1, mean, NULL);
  pthread_join(t, NULL);
  CHECK(st == GDLOG_ERR_LIMIT && strstr(gdlog_error(g), "interrupted"), "interrupted playouts: %s %s",
        gdlog_status_name(st), gdlog_error(g));
  gdlog_resume(g);
  CHECK(gdlog_playouts(g, s, 10, 1, mean, NULL) == GDLOG_OK, "resumed: %s", gdlog_error(g));
  gdlog_state_free(s);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s ticTacToe.kif\n", argv[0]);
    return 2;
  }
  const gdlog_backend backends[] = { GDLOG_BACKEND_RULES, GDLOG_BACKEND_CIRCUIT };
  for (int b = 0; b < 2; b++) {
    gdlog_game *g = open_game(argv[1], backends[b]);
    if (!g) continue;
    test_ranges(g);
    test_names(g);
    test_interrupt(g);
    gdlog_close(g);
  }
  test_version();
  test_options_size(argv[1]);
  test_diagnostics();
  return check_exit();
}
