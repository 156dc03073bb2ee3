/* cmd_check.c: gdlog check: reads, checks and stratifies a program; prints
 * only what is wrong. */
#include "datalog/cli/cli.h"
#include "datalog/cli/stats.h"

static const cli_option check_options[] = {
  CLI_OPT_INIT,
  CLI_OPT_STATE,
  CLI_OPT_DOES,
  CLI_OPT_SYNTAX,
  CLI_OPT_STATS,
  CLI_OPT_END
};

static int run_check(cli_ctx *c)
{
  cli_stats st = { 0 };
  int ok = cli_load(c, c->args[0]) != NULL;
  st.kib_load = cli_peak_kib();
  cli_stats_finish(c, NULL, &st);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_check = {
  .name = "check",
  .summary = "check syntax, safety, arities, GDL rules and stratification",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Reads, checks and stratifies the program: syntax, safe variables, consistent\n"
           "arities, GDL's rules for true, does, init and legal, stratified negation.\n"
           "Prints nothing and exits 0 when the program is fine.  FILE may be - for\n"
           "standard input.",
  .options = check_options,
  .run = run_check,
};
