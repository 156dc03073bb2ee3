/* cmd_model.c: gdlog model: the minimal model of a program, or of a game
 * in a state, one atom per line, sorted. */
#include <stdlib.h>

#include "datalog/base/clock.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"
#include "datalog/cli/stats.h"
#include "datalog/eval/eval.h"
#include "datalog/gdl/gamecheck.h"
#include "datalog/write/output.h"

static const cli_option model_options[] = {
  { .name = "--format", .value = "F", .one_of = CLI_ONE_OF({ "infix", DL_FMT_INFIX }, { "kif", DL_FMT_KIF }),
     .help = "output syntax: infix (default) or kif" },
  { .name = "--show", .value = "PRED[/N],...", .repeatable = 1,
    .help = "print only these predicates, as gringo's #show (may be\n"
            "given more than once; a name the program lacks is a\n"
            "warning)" },
  { .name = "--max-terms", .value = "N",
    .help = "when the model may grow without end through a recursive\n"
            "function symbol, stop after N new terms of it (default\n"
            "1000000; 0: none)" },
  { .name = "--facts", .value = "DIR",
    .help = "read input relations from DIR: a file NAME.facts per\n"
            "relation NAME, one tuple per line, its columns (constants)\n"
            "separated by tabs" },
  CLI_OPT_INIT,
  CLI_OPT_STATE,
  CLI_OPT_DOES,
  CLI_OPT_SYNTAX,
  CLI_OPT_STATS,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

/* Seeds the input relations read from --facts files and the program's
 * facts, whose rows then go: the relations hold them. */
static int seed_facts(dl_loaded *l, dl_eval *e)
{
  if (!dl_eval_seed_inputs(e, l->facts)) return 0;
  dl_load_drop_facts(l);
  return 1;
}

/* Evaluates l's program into *e (to free), with the limits and soft
 * signals; warns first when the model may grow without end, and after it
 * about the moves and the legal moves of the state. */
static int evaluate(cli_ctx *c, dl_loaded *l, uint64_t max_terms, dl_eval **e, cli_stats *st)
{
  const dl_program *p = l->prog;
  dl_eval_options eo = { c->max_atoms, dl_guard_stop() };
  if (!dl_check_growth(p, max_terms, c->diag)) return 0;
  double t0 = dl_clock_now();
  dl_guard_soft(1);
  *e = dl_eval_create(p, &eo, c->diag);
  int ok = *e && seed_facts(l, *e) && dl_eval_run(*e);
  dl_guard_soft(0);
  if (!ok || dl_guard_signal()) return 0;
  st->t_eval = dl_clock_now() - t0;
  st->kib_eval = cli_peak_kib();
  if (cli_given(c, "--does") && !dl_check_moves(p, *e, c->diag)) return 0;
  if ((cli_given(c, "--init") || cli_given(c, "--state")) && !dl_check_legal_moves(p, *e, c->diag)) return 0;
  return cli_ok(c);
}

/* Writes the model, or the relations --show names: the others are
 * released first, so that their memory serves the output's. */
static int write_model(cli_ctx *c, const dl_program *p, dl_eval *e, cli_stats *st)
{
  dl_format fmt = (dl_format)cli_choice(c, "--format", DL_FMT_INFIX);
  uint8_t *skip;
  if (!cli_show_skip(c, p, &skip)) return 0;
  int ok = 1;
  for (uint32_t pr = 0; skip && ok && pr < p->n_preds; pr++) ok = !skip[pr] || dl_eval_release(e, pr);
  double t0 = dl_clock_now();
  FILE *out = ok ? cli_open_output(c) : NULL;
  ok = out && cli_close_output(c, out, dl_output_model(out, p, e, fmt, skip));
  st->t_output = dl_clock_now() - t0;
  free(skip);
  return ok;
}

static int run_model(cli_ctx *c)
{
  uint64_t max_terms;
  if (!cli_show_valid(c) || !cli_count(c, "--max-terms", DL_DEFAULT_MAX_TERMS, &max_terms)) return CLI_USAGE;
  cli_stats st = { 0 };
  dl_eval *e = NULL;
  dl_loaded *l = cli_load(c, c->args[0]);
  st.kib_load = cli_peak_kib();
  int ok = l && cli_show_check(c, l->prog) && evaluate(c, l, max_terms, &e, &st) && write_model(c, l->prog, e, &st);
  cli_stats_finish(c, e, &st);
  dl_eval_destroy(e);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_model = {
  .name = "model",
  .summary = "print the minimal model, one atom per line, sorted",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Computes the minimal model of a program, or of a game in a state given by\n"
           "--init or --state (and --does), and prints it one atom per line: predicates\n"
           "in byte order of their names, each one's atoms sorted argument by argument.\n"
           "FILE may be - for standard input.",
  .options = model_options,
  .run = run_model,
};
