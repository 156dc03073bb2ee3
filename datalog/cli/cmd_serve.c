/* cmd_serve.c: gdlog serve: a game behind a line protocol on standard input
 * and output, for players written in another language.  One request per
 * line, one reply per line: `ok ...` or `error MESSAGE`; the server hands
 * out state ids (evicting the least recently used beyond --max-states) and
 * answers roles, init, legal, next, terminal, goals and the rest over them
 * (the protocol is in the README, "Using gdlog from another language", and
 * in `gdlog serve --help`).
 *
 * Built on the state machine interface (datalog/machine/machine.h) of the
 * game the pipeline builds, as every command; a request's errors are the
 * messages the machine reports, answered as the reply (not printed).  A
 * bad request never ends the session: it gets an error reply.  End of input
 * or `quit` ends it with status 0.
 *
 * The loop over the requests is serve.c's (serve.h): this file builds the
 * game, starts the session on standard input and output, and says why
 * when the game does not load. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"
#include "datalog/serve/serve.h"
#include "datalog/structure/game_symmetry.h"
#include "lexer.h"

static const cli_option serve_options[] = {
  CLI_OPT_BACKEND,
  CLI_OPT_DEMAND,
  CLI_OPT_CIRCUIT,
  { .name = "--format", .value = "F", .one_of = CLI_ONE_OF({ "kif", DL_FMT_KIF }, { "infix", DL_FMT_INFIX }),
    .help = "syntax of the roles, moves and fluents of the replies, and\n"
            "of the quotes that split requests (default kif)" },
  { .name = "--seed", .value = "S", .help = "seed of the random playouts of `random` and `playouts`\n"
            "(default 1)" },
  { .name = "--max-depth", .value = "N",
    .help = "a `random` playout longer than N joint moves is an error\n"
            "reply (default 10000)" },
  { .name = "--max-states", .value = "N",
    .help = "keep at most N states: a new one evicts the least recently\n"
            "used (default 1000000; 0: no limit)" },
  { .name = "--symmetry",
    .help = "find the game's symmetries first (gdlog symmetry), each\n"
            "checked on up to 20 random playouts, for the requests\n"
            "symmetries, canonical and image" },
  CLI_OPT_SYNTAX,
  CLI_OPT_END
};
/* The first error reported to diag; NULL when none. */
static const dl_message *first_error(const dl_diag *diag)
{
  for (size_t i = 0; i < dl_diag_count(diag); i++)
    if (dl_diag_message(diag, i)->severity == DL_ERROR) return dl_diag_message(diag, i);
  return NULL;
}

/* Replies why the session cannot start, the first error reported (its
 * place in front), for a client that reads the reason where it reads
 * replies; the errors go to standard error as well. */
static void reply_no_game(cli_ctx *c)
{
  const dl_message *m = first_error(c->diag);
  const char *stop = dl_guard_stop_message();
  char place[256] = "", msg[1024];
  if (m && m->src) {
    unsigned line, col;
    lx_position(m->src->text, m->off, &line, &col);
    snprintf(place, sizeof place, "%.200s:%u:%u: ", m->src->name, line, col);
  }
  if (stop) snprintf(msg, sizeof msg, "the game does not load: %.300s", stop);
  else snprintf(msg, sizeof msg, "the game does not load: %s%.300s", place, m    ? m->text
                                                        : !cli_ok(c) ? "warnings are errors (--warnings-as-errors)"
                                                                     : "out of memory");
  dl_serve_reply_error(stdout, msg);
}

/* With --symmetry, the game's symmetries into *sym, checked, for o; 1, or
 * 0 after reporting. */
static int find_symmetries(cli_ctx *c, dl_game *g, dl_game_symmetry *sym, dl_serve_options *o)
{
  if (!cli_given(c, "--symmetry")) return 1;
  dl_symmetry_check_options check = { .playouts = 20, .seed = 1, .seconds = 1 };
  if (!dl_game_symmetry_find(sym, g->loaded->prog, g->domains, c->diag) ||
      !dl_game_symmetry_check(sym, g->machine, &check) || !dl_game_symmetry_bind(sym, g->machine))
    return 0;
  o->symmetry = sym;
  return 1;
}

/* Builds the game of FILE with the options (and its symmetries into *sym)
 * and a session on its machine into *s; 0 after an error reply (the errors
 * are printed by the framework). */
static int open_game(cli_ctx *c, dl_game *g, dl_game_symmetry *sym, dl_serve_options *o, dl_serve **s)
{
  if (cli_build_machine(c, c->args[0], 0, g) && find_symmetries(c, g, sym, o)) {
    g->machine->stop = dl_guard_stop();
    if ((*s = dl_serve_create(g->machine, g->kif, o, c->diag))) {
      cli_report(c);  /* the warnings of loading; then the requests' messages are replies */
      cli_report_drop(c);
      return 1;
    }
    dl_diag_report(c->diag, DL_ERROR, NULL, 0, "out of memory");
  }
  reply_no_game(c);
  return 0;
}

static int run_serve(cli_ctx *c)
{
  dl_serve_options o = { .soft = dl_guard_soft, .signaled = dl_guard_signal };
  if (!cli_count(c, "--seed", 1, &o.seed) || !cli_count(c, "--max-depth", 10000, &o.max_depth) ||
      !cli_count(c, "--max-states", 1000000, &o.max_states))
    return CLI_USAGE;
  if (strcmp(c->args[0], "-") == 0)
    return cli_usage(c, "FILE cannot be '-': standard input carries the requests");
  o.fmt = (dl_format)cli_choice(c, "--format", DL_FMT_KIF);
  signal(SIGPIPE, SIG_IGN);  /* a player that went away: a write error, not a silent death */
  dl_game g = { 0 };
  dl_game_symmetry sym = { 0 };
  dl_serve *s = NULL;
  int rc = CLI_INPUT;
  if (open_game(c, &g, &sym, &o, &s)) {
    rc = dl_serve_run(s, stdin, stdout) ? CLI_OK : CLI_INPUT;
  }
  cli_report(c);  /* before the game its messages point into goes */
  dl_serve_destroy(s);
  dl_game_symmetry_free(&sym);
  dl_game_free(&g);
  return rc;
}

const cli_command cli_cmd_serve = {
  .name = "serve",
  .summary = "a line protocol on stdin/stdout for players in other languages",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Loads the game FILE and answers requests, one a line on standard input,\n"
           "with one reply a line on standard output (flushed): `ok ...`, or\n"
           "`error MESSAGE` for a bad request (the session goes on).  End of input or\n"
           "quit ends it with status 0.  Fields are separated by blanks; a term with\n"
           "blanks is one field when its parentheses balance: (mark 1 2).  States\n"
           "are ids the server hands out (1, 2, ...; never reused); beyond\n"
           "--max-states, the least recently used one (named in no request for the\n"
           "longest time) is evicted, and naming it is an error that says so.\n"
           "  roles                 ok ROLE...        (the order of joint moves)\n"
           "  init                  ok ID             (a new id for the initial state)\n"
           "  legal ID ROLE         ok MOVE...        (at least one; a role without\n"
           "                                           legal moves is an error)\n"
           "  next ID MOVE...       ok ID             (one move per role, in role order)\n"
           "  nextstate ID MOVE...  ok ID FLUENT...   (next and state in one)\n"
           "  terminal ID           ok true|false\n"
           "  goal ID ROLE          ok VALUE\n"
           "  goals ID              ok VALUE...       (in role order)\n"
           "  state ID              ok FLUENT...\n"
           "  load FLUENT...        ok ID             (the state of these fluents)\n"
           "  random ID             ok VALUE...       (goals at the end of a random playout)\n"
           "  playouts ID N         ok MEAN...        (mean goals over N random playouts)\n"
           "  drop ID...            ok                (frees the states)\n"
           "  symmetries            ok ORDER          (with --symmetry: the group's elements,\n"
           "                                           0 the identity)\n"
           "  canonical ID          ok ID HASH        (the least image of the state, and a\n"
           "                                           64-bit hash shared by symmetric states)\n"
           "  image ID E            ok ID HASH        (the image under element E)\n"
           "  help                  ok REQUEST...\n"
           "  quit                  ok                (and ends)\n"
           "Bytes of a reply that are not printable UTF-8 are written \\xHH.  A game\n"
           "that does not load gets one reply, `error the game does not load: ...`,\n"
           "its errors on standard error and exit status 1.  FILE cannot be -.",
  .options = serve_options,
  .run = run_serve,
};
