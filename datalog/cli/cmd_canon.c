/* cmd_canon.c: gdlog canon: a hash of a game that every renaming of its
 * symbols and variables and every order of its rules and literals keep
 * (datalog/cli/structural.h). */
#include "datalog/cli/structural.h"

static const cli_option canon_options[] = {
  { .name = "--no-declarations",
    .help = "leave base and input rules out of the comparison: they\n"
            "declare fluents and moves, and many versions of a game\n"
            "differ only there" },
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static int run_canon(cli_ctx *c)
{
  dl_loaded *l = cli_load(c, c->args[0]);
  uint64_t hash;
  uint32_t vertices, edges;
  int ok = l && l->prog && cli_canon_hash(c, l->prog, &hash, &vertices, &edges);
  dl_buf b = { 0 };
  if (ok)
    dl_buf_addf(&b, "%016llx  %s (rule graph of %u vertices and %u edges)\n", (unsigned long long)hash, c->args[0],
                vertices, edges);
  ok = ok && cli_write_output(c, &b);
  dl_buf_free(&b);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_canon = {
  .name = "canon",
  .summary = "a hash of a game that renaming keeps (chapter 14.7)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Prints a 64-bit hash of the canonical form of a GDL game's rule graph (the\n"
           "book's, Definition 14.2, through bliss): games that differ only in the names\n"
           "of symbols and variables and in the order of rules and literals get the same\n"
           "hash.  gdlog equiv --structural compares two games so, and prints the\n"
           "renaming.",
  .options = canon_options,
  .run = run_canon,
};
