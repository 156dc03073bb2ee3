/* cmd_rulegraph.c: gdlog rulegraph: the rule graph of a game (Definition
 * 14.2 of the book; datalog/structure/rulegraph.h). */
#include "datalog/cli/cli.h"
#include "datalog/structure/rulegraph.h"

enum { RG_DOT, RG_TEXT, RG_DIMACS };

static const cli_option rulegraph_options[] = {
  { .name = "--format", .value = "F", .one_of = CLI_ONE_OF({ "dot", RG_DOT }, { "text", RG_TEXT }, { "dimacs", RG_DIMACS }),
    .help = "dot (default: Graphviz), text (a line per vertex, then per\n"
            "edge) or dimacs (what `bliss -directed` reads)" },
  { .name = "--typed", .help = "the graph gdlog symmetry searches: constants told apart by\n"
                               "the positions they stand in, predicates given by facts\n"
                               "copied per use (datalog/structure/rulegraph.h)" },
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static int run_rulegraph(cli_ctx *c)
{
  dl_loaded *l = cli_load(c, c->args[0]);
  dl_rgraph_options o = { .untyped = !cli_given(c, "--typed") };
  dl_rgraph *g = l && l->prog ? dl_rgraph_build(l->prog, &o, c->diag) : NULL;
  dl_buf b = { 0 };
  int format = cli_choice(c, "--format", RG_DOT);
  if (g && format == RG_TEXT) dl_rgraph_write_text(g, &b);
  else if (g && format == RG_DIMACS) dl_rgraph_write_dimacs(g, &b);
  else if (g) dl_rgraph_write_dot(g, &b);
  int ok = g && cli_write_output(c, &b);
  dl_buf_free(&b);
  dl_rgraph_destroy(g);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_rulegraph = {
  .name = "rulegraph",
  .summary = "the rule graph of a game (chapter 14.6)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Writes the rule graph of a GDL game (Definition 14.2 of the book): a vertex per\n"
           "occurrence of a connective, predicate, function and variable, argument\n"
           "vertices p[i] shared by the occurrences of each symbol p, a vertex per symbol\n"
           "and per variable of a rule, coloured by type; GDL keywords and goal values\n"
           "get colours of their own.  Isomorphic rule graphs are the same game renamed;\n"
           "automorphisms are its symmetries (gdlog symmetry, which searches the graph of\n"
           "--typed).",
  .options = rulegraph_options,
  .run = run_rulegraph,
};
