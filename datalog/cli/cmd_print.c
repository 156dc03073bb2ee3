/* cmd_print.c: gdlog print: the program again, after checking it, in
 * infix, KIF or gringo's syntax. */
#include "datalog/base/clock.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/stats.h"
#include "datalog/write/output.h"

static const cli_option print_options[] = {
  { .name = "--format", .value = "F",
    .one_of = CLI_ONE_OF({ "infix", DL_FMT_INFIX }, { "kif", DL_FMT_KIF }, { "asp", DL_FMT_ASP }),
    .help = "output syntax: infix (default), kif, or asp (gringo's)" },
  CLI_OPT_INIT,
  CLI_OPT_STATE,
  CLI_OPT_DOES,
  CLI_OPT_SYNTAX,
  CLI_OPT_STATS,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static int run_print(cli_ctx *c)
{
  cli_stats st = { 0 };
  dl_loaded *l = cli_load(c, c->args[0]);
  st.kib_load = cli_peak_kib();
  int ok = 0;
  if (l) {
    double t0 = dl_clock_now();
    FILE *out = cli_open_output(c);
    dl_format format = (dl_format)cli_choice(c, "--format", DL_FMT_INFIX);
    ok = out && cli_close_output(c, out, dl_output_program(out, l->prog, format));
    st.t_output = dl_clock_now() - t0;
  }
  cli_stats_finish(c, NULL, &st);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_print = {
  .name = "print",
  .summary = "print the program again after checking it (infix, kif, asp)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Reads and checks the program and prints it again, flat (after normalisation),\n"
           "in infix, KIF, or gringo's syntax (names mangled to be valid ASP; see\n"
           "datalog/cli/README.md).  FILE may be - for standard input.",
  .options = print_options,
  .run = run_print,
};
