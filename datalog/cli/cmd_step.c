/* cmd_step.c: gdlog step: one step of a game on its state machine
 * (datalog/machine/machine.h): the state of --state (or the initial one
 * with --init) and the joint move of --does give the next state, written as
 * a state file that --state reads back.  A joint move that is not exactly
 * one legal move per role is refused with a located error.  One step asks
 * about one state: the auto backend takes the rules, without grounding. */
#include <stdlib.h>
#include <string.h>

#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"

static const cli_option step_options[] = {
  { .name = "--init", .excludes = "--state", .help = "step from the initial state (not with --state)" },
  { .name = "--state", .value = "FILE", .excludes = "--init",
    .help = "step from the state of FILE: one fluent per line, t or\n"
            "true(t) (what step writes)" },
  { .name = "--does", .value = "FILE",
    .help = "the joint move: does(R,A) facts, exactly one legal move\n"
            "per role (needed)" },
  { .name = "--format", .value = "F", .one_of = CLI_ONE_OF({ "kif", DL_FMT_KIF }, { "infix", DL_FMT_INFIX }),
    .help = "syntax of the state written (default: the game's)" },
  CLI_OPT_BACKEND,
  CLI_OPT_DEMAND,
  CLI_OPT_CIRCUIT,
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

/* The state of --state or --init into *s; 1, or 0 after reporting.  The
 * file's text stays with the machine (its messages point into it). */
static int read_state(cli_ctx *c, dl_game *g, dl_mstate **s)
{
  const char *path = cli_value(c, "--state");
  if (!path) return dl_machine_initial(g->machine, s) == DL_M_OK;
  dl_source *src = dl_load_source(path, c->diag);
  int ok = src && dl_machine_parse_state(g->machine, src->name, src->text, src->len, g->kif, s) == DL_M_OK;
  cli_report(c);
  dl_load_free_source(src);
  return ok;
}

/* The joint move of --does, legal in s, into joint; 1, or 0 after
 * reporting. */
static int read_joint(cli_ctx *c, dl_game *g, const dl_mstate *s, uint32_t *joint)
{
  dl_source *src = dl_load_source(cli_value(c, "--does"), c->diag);
  int ok = src && dl_machine_parse_joint(g->machine, s, src->name, src->text, src->len, g->kif, joint) == DL_M_OK;
  cli_report(c);
  dl_load_free_source(src);
  return ok;
}

/* The next state of the game g from the options, as text into *text. */
static int step(cli_ctx *c, dl_game *g, char **text)
{
  dl_machine *m = g->machine;
  dl_mstate *s = NULL, *next = NULL;
  uint32_t *joint = malloc((m->n_roles + 1) * sizeof *joint);
  int ok = joint && read_state(c, g, &s) && read_joint(c, g, s, joint) &&
           dl_machine_next_unchecked(m, s, joint, &next) == DL_M_OK;
  dl_format fmt = (dl_format)cli_choice(c, "--format", g->kif ? DL_FMT_KIF : DL_FMT_INFIX);
  ok = ok && dl_machine_state_text(m, next, fmt, text) == DL_M_OK;
  if (!joint) dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
  free(joint);
  free(s);
  free(next);
  return ok;
}

static int run_step(cli_ctx *c)
{
  if (!cli_given(c, "--does")) return cli_usage(c, "--does FILE is needed: the joint move to make");
  if (!cli_given(c, "--state") && !cli_given(c, "--init"))
    return cli_usage(c, "--state FILE or --init is needed: the state to step from");
  dl_game g = { 0 };
  char *text = NULL;
  int ok = cli_build_machine(c, c->args[0], 1, &g);
  if (ok) g.machine->stop = dl_guard_stop();
  dl_guard_soft(1);
  ok = ok && step(c, &g, &text);
  dl_guard_soft(0);
  if (ok) {
    dl_buf b = { text, strlen(text), strlen(text) + 1, 0 };
    ok = cli_write_output(c, &b);
  }
  free(text);
  cli_report(c);
  dl_game_free(&g);
  return ok ? CLI_OK : CLI_INPUT;
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
           "error at its place in the --does file (exit status 1).  One step asks\n"
           "about one state, so the auto backend evaluates the rules (no grounding).",
  .options = step_options,
  .run = run_step,
};
