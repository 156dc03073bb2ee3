/* cmd_explore.c: gdlog explore: the reachable states of a game, counted,
 * and their classes under its symmetry group (datalog/structure/explore.h). */
#include "datalog/cli/cli.h"
#include "datalog/structure/game_symmetry.h"
#include "datalog/structure/explore.h"

static const cli_option explore_options[] = {
  { .name = "--max-states", .value = "N", .help = "stop after N states (default 1000000)" },
  { .name = "--no-symmetry", .help = "count states only, not their classes" },
  { .name = "--playouts", .value = "N",
    .help = "check each symmetry along N random playouts first\n"
            "(default 20; see gdlog symmetry)" },
  CLI_OPT_BACKEND,
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static void write_totals(cli_ctx *c, const dl_game_symmetry *grp, const dl_explore_totals *t, dl_buf *b)
{
  dl_buf_addf(b, "%% gdlog explore %s: breadth first from the initial state\n", c->args[0]);
  dl_buf_addf(b, "states     %llu%s, %llu terminal, depth %u\n", (unsigned long long)t->states,
              t->complete ? " (all reachable)" : " (stopped at --max-states)", (unsigned long long)t->terminal,
              t->depth);
  if (!grp->act) return;
  int exact;
  uint64_t order = dl_symmetry_act_order(grp->act, &exact);
  dl_buf_addf(b, "classes    %llu under the symmetry group of order %s%llu\n", (unsigned long long)t->classes,
              exact ? "" : "at least ", (unsigned long long)order);
}

static int run_explore(cli_ctx *c)
{
  uint64_t max_states;
  dl_symmetry_check_options o = { .seed = 1, .seconds = 1 };
  if (!cli_count_range(c, "--max-states", 1000000, 1, UINT64_MAX, &max_states) ||
      !cli_count_range(c, "--playouts", 20, 0, UINT32_MAX, &o.playouts))
    return CLI_USAGE;
  dl_game game = { 0 };
  dl_game_symmetry grp = { 0 };
  int ok = cli_build_machine(c, c->args[0], 0, &game);
  if (ok && !cli_given(c, "--no-symmetry"))
    ok = dl_game_symmetry_find(&grp, game.loaded->prog, game.domains, c->diag) &&
         (!o.playouts || dl_game_symmetry_check(&grp, game.machine, &o));
  dl_explore_totals t;
  ok = ok && dl_explore(game.machine, grp.act, max_states, &t) == DL_M_OK;
  dl_buf b = { 0 };
  if (ok) write_totals(c, &grp, &t, &b);
  ok = ok && cli_write_output(c, &b);
  dl_buf_free(&b);
  dl_game_symmetry_free(&grp);
  dl_game_free(&game);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_explore = {
  .name = "explore",
  .summary = "count the reachable states, and their classes under the game's symmetries",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Walks the states of a GDL game breadth first from the initial state over every\n"
           "joint move, and counts them (the terminal ones too) and the classes they fall\n"
           "into under the symmetry group that gdlog symmetry finds: two states are in one\n"
           "class when a symmetry maps one onto the other.",
  .options = explore_options,
  .run = run_explore,
};
