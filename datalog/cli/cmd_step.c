/* cmd_step.c: gdlog step: one step of a game through the public API
 * (datalog/gdlog.h): the state of --state (or the initial one with --init)
 * and the joint move of --does give the next state, written as a state file
 * that --state reads back.  A joint move that is not exactly one legal
 * move per role is refused with a located error. */
#include <stdlib.h>
#include <string.h>

#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"
#include "datalog/gdlog.h"

static const cli_option step_options[] = {
  { .name = "--init", .excludes = "--state", .help = "step from the initial state (not with --state)" },
  { .name = "--state", .value = "FILE", .excludes = "--init",
    .help = "step from the state of FILE: one fluent per line, t or\n"
            "true(t) (what step writes)" },
  { .name = "--does", .value = "FILE",
    .help = "the joint move: does(R,A) facts, exactly one legal move\n"
            "per role (needed)" },
  { .name = "--format", .value = "F",
    .one_of = CLI_ONE_OF({ "kif", GDLOG_SYNTAX_KIF }, { "infix", GDLOG_SYNTAX_INFIX }),
    .help = "syntax of the state written (default: the game's)" },
  { .name = "--backend", .value = "B",
    .one_of = CLI_ONE_OF({ "auto", GDLOG_BACKEND_AUTO }, { "rules", GDLOG_BACKEND_RULES },
                         { "circuit", GDLOG_BACKEND_CIRCUIT }),
    .help = "how the game is reasoned about (default auto)" },
  { .name = "--syntax", .value = "S",
    .one_of = CLI_ONE_OF({ "kif", GDLOG_SYNTAX_KIF }, { "infix", GDLOG_SYNTAX_INFIX }),
    .help = "input syntax: kif or infix (default: by the content of\n"
            "FILE, else its extension)" },
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

/* Prints the errors of g's last failed call; CLI_INPUT. */
static int step_failed(gdlog_game *g)
{
  if (g) fputs(gdlog_error(g), stderr);
  else fputs("gdlog: error: out of memory\n", stderr);
  return CLI_INPUT;
}

/* The state of --state or --init into *s; CLI_OK or CLI_INPUT. */
static int read_state(cli_ctx *c, gdlog_game *g, gdlog_state **s)
{
  const char *path = cli_value(c, "--state");
  if (!path) return gdlog_initial(g, s) == GDLOG_OK ? CLI_OK : step_failed(g);
  dl_source *src = dl_load_source(path, c->diag);
  if (!src) return CLI_INPUT;
  int rc = gdlog_parse_state(g, src->name, src->text, src->len, s) == GDLOG_OK ? CLI_OK : step_failed(g);
  dl_load_free_source(src);
  return rc;
}

/* The joint move of --does, legal in s, into joint; CLI_OK or CLI_INPUT. */
static int read_joint(cli_ctx *c, gdlog_game *g, const gdlog_state *s, gdlog_move *joint)
{
  dl_source *src = dl_load_source(cli_value(c, "--does"), c->diag);
  if (!src) return CLI_INPUT;
  int rc = gdlog_parse_joint(g, s, src->name, src->text, src->len, joint) == GDLOG_OK ? CLI_OK : step_failed(g);
  dl_load_free_source(src);
  return rc;
}

/* Loads the game of FILE with the options; NULL, or a game to close. */
static gdlog_game *open_game(cli_ctx *c)
{
  gdlog_options o;
  gdlog_options_init(&o);
  o.syntax = (gdlog_syntax)cli_choice(c, "--syntax", GDLOG_SYNTAX_AUTO);
  o.output = (gdlog_syntax)cli_choice(c, "--format", GDLOG_SYNTAX_AUTO);
  o.backend = (gdlog_backend)cli_choice(c, "--backend", GDLOG_BACKEND_AUTO);
  o.max_atoms = c->max_atoms;
  o.cancel = dl_guard_cancel_flag();
  gdlog_game *g;
  if (gdlog_open_file(c->args[0], &o, &g) == GDLOG_OK) return g;
  step_failed(g);
  gdlog_close(g);
  return NULL;
}

static int run_step(cli_ctx *c)
{
  if (!cli_given(c, "--does")) return cli_usage(c, "--does FILE is needed: the joint move to make");
  if (!cli_given(c, "--state") && !cli_given(c, "--init"))
    return cli_usage(c, "--state FILE or --init is needed: the state to step from");
  dl_guard_soft(1);
  gdlog_game *g = open_game(c);
  gdlog_state *s = NULL, *next = NULL;
  gdlog_move *joint = g ? malloc((size_t)gdlog_role_count(g) * sizeof *joint) : NULL;
  int rc = !g ? CLI_INPUT : !joint ? step_failed(NULL) : read_state(c, g, &s);
  if (rc == CLI_OK) rc = read_joint(c, g, s, joint);
  if (rc == CLI_OK && gdlog_next(g, s, joint, &next) != GDLOG_OK) rc = step_failed(g);
  char *text = NULL;
  if (rc == CLI_OK && gdlog_state_text(g, next, &text) != GDLOG_OK) rc = step_failed(g);
  dl_guard_soft(0);
  if (rc == CLI_OK) {
    dl_buf b = { text, strlen(text), strlen(text) + 1, 0 };
    rc = cli_write_output(c, &b) ? CLI_OK : CLI_INPUT;
  }
  free(text);
  free(joint);
  gdlog_state_free(s);
  gdlog_state_free(next);
  gdlog_close(g);
  return rc;
}

const cli_command cli_cmd_step = {
  .name = "step",
  .summary = "the next state of a state for a joint move",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Plays one joint move of the game FILE: from the state of --state FILE (or\n"
           "the initial state with --init), with the does(R,A) facts of --does FILE,\n"
           "writes the next state, one fluent per line, as --state reads it back.  The\n"
           "joint move must hold exactly one legal move per role; anything else is an\n"
           "error at its place in the --does file (exit status 1).",
  .options = step_options,
  .run = run_step,
};
