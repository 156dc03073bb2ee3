/* cmd_domains.c: gdlog domains: the domain of every argument position of a
 * game, from its domain graph (datalog/gdl/domains.h). */
#include "datalog/cli/cli.h"

static const cli_option domains_options[] = {
  { .name = "--dot", .help = "write the domain graph in Graphviz DOT instead" },
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static int run_domains(cli_ctx *c)
{
  dl_loaded *l = cli_load(c, c->args[0]);
  dl_game_options o;
  dl_game_options_init(&o);
  dl_game g = { 0 };
  const dl_domains *d = l && dl_game_build(&g, l, &o, DL_STAGE_DOMAINS, c->diag) ? g.domains : NULL;
  dl_buf b = { 0 };
  if (d && cli_given(c, "--dot")) dl_domains_write_dot(d, &b);
  else if (d) dl_domains_write_table(d, &b);
  int ok = d && cli_write_output(c, &b);
  dl_buf_free(&b);
  dl_game_free(&g);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_domains = {
  .name = "domains",
  .summary = "the domain of every argument position (chapter 14.2)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Prints the domain of every argument position of a GDL game, computed from its\n"
           "domain graph (Definition 14.1 of the book), one row per predicate and function\n"
           "symbol:  cell  {1,2,3} x {1,2,3} x {b,o,x}\n"
           "Recursive function symbols make domains infinite; the cycles are reported.",
  .options = domains_options,
  .run = run_domains,
};
