/* cmd_symmetry.c: gdlog symmetry: the symmetries of a game that its rule
 * graph proves (section 14.7 of the book; datalog/structure/symmetry.h),
 * each checked on random playouts (symmetry_check.h), and the group they
 * make on the ground fluents, actions and roles (symmetry_act.h). */
#include "datalog/cli/cli.h"
#include "datalog/structure/game_symmetry.h"

static const cli_option symmetry_options[] = {
  { .name = "--playouts", .value = "N",
    .help = "check each symmetry along N random playouts (default 20):\n"
            "its image of every state reached agrees on terminal,\n"
            "goals, legal moves and next states" },
  { .name = "--check-seconds", .value = "S",
    .help = "stop checking after S seconds (default 5, shared by the\n"
            "generators; each gets one playout at least)" },
  { .name = "--seed", .value = "S", .help = "seed of the playouts (default 1)" },
  { .name = "--no-check", .excludes = "--playouts", .help = "print the symmetries without checking them" },
  { .name = "--ground", .help = "print each generator's permutation of the ground\n"
                                "fluents, actions and roles too" },
  CLI_OPT_BACKEND,
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static void write_generator(cli_ctx *c, const dl_game_symmetry *grp, uint64_t playouts, dl_format fmt, uint32_t i,
                            dl_buf *b)
{
  dl_buf_addf(b, "generator %u: ", i + 1);
  dl_symmetry_write(grp->symmetry, i, b);
  dl_buf_addz(b, "\n");
  if (dl_symmetry_act_size(grp->act, DL_ACT_FLUENT) && dl_symmetry_act_trivial(grp->act, i))
    dl_buf_addf(b, "  fixes every fluent%s and role: a symmetry of rules that play does not reach\n",
                dl_symmetry_act_size(grp->act, DL_ACT_ACTION) ? ", action" : "");
  const dl_symmetry_check_totals *t = &grp->checks[i];
  if (playouts)
    dl_buf_addf(b, "  moves %llu of the %llu states checked on %llu playout%s\n", (unsigned long long)t->moved,
                (unsigned long long)t->states, (unsigned long long)t->playouts, t->playouts == 1 ? "" : "s");
  if (cli_given(c, "--ground")) dl_symmetry_act_write(grp->act, i, fmt, b);
}

static void write_report(cli_ctx *c, dl_game_symmetry *grp, uint64_t playouts, dl_format fmt, dl_buf *b)
{
  int exact;
  uint32_t fluents = dl_symmetry_act_size(grp->act, DL_ACT_FLUENT);
  uint64_t order = fluents ? dl_symmetry_act_order(grp->act, &exact)
                           : dl_symmetry_group(grp->symmetry, 1u << 20, &exact);  /* on the symbols */
  uint32_t count = dl_symmetry_count(grp->symmetry), actions = dl_symmetry_act_size(grp->act, DL_ACT_ACTION);
  uint32_t roles = dl_symmetry_act_size(grp->act, DL_ACT_ROLE);
  dl_buf_addf(b, "%% gdlog symmetry %s: rule graph of %u vertices and %u edges\n", c->args[0],
              dl_rgraph_vertex_count(grp->graph), dl_rgraph_edge_count(grp->graph));
  dl_buf_addf(b, "%% time automorphisms %.3f s\n", grp->seconds);
  dl_buf_addf(b, "order %s%llu on ", exact ? "" : "at least ", (unsigned long long)order);
  if (fluents) dl_buf_addf(b, "%u fluents, ", fluents);
  else dl_buf_addz(b, "the symbols (too many fluents in true's domain to list), ");
  if (actions) dl_buf_addf(b, "%u actions", actions);
  else dl_buf_addz(b, "the actions (too many in does' domain to list)");
  dl_buf_addf(b, " and %u role%s; %u generator%s", roles, roles == 1 ? "" : "s", count, count == 1 ? "" : "s");
  if (playouts && count) dl_buf_addf(b, ", each checked on random playouts");
  dl_buf_addz(b, "\n");
  for (uint32_t i = 0; i < count; i++) write_generator(c, grp, playouts, fmt, i, b);
}

static int run_symmetry(cli_ctx *c)
{
  dl_symmetry_check_options o = { .max_depth = 0 };
  uint64_t seconds;
  if (!cli_count_range(c, "--playouts", 20, 1, UINT32_MAX, &o.playouts) || !cli_count(c, "--seed", 1, &o.seed) ||
      !cli_count_range(c, "--check-seconds", 5, 1, 86400, &seconds))
    return CLI_USAGE;
  if (cli_given(c, "--no-check")) o.playouts = 0;
  dl_game game = { 0 };
  dl_buf b = { 0 };
  dl_game_symmetry grp = { 0 };
  int ok = cli_build_to(c, c->args[0], 0, DL_STAGE_DOMAINS, &game) &&
           dl_game_symmetry_find(&grp, game.loaded->prog, game.domains, c->diag);
  uint32_t count = ok ? dl_symmetry_count(grp.symmetry) : 0;
  o.seconds = count ? (double)seconds / count : 0;
  if (ok && o.playouts && count)  /* a machine only when there is something to check */
    ok = cli_build_to(c, NULL, 0, DL_STAGE_MACHINE, &game) && dl_game_symmetry_check(&grp, game.machine, &o);
  if (ok) write_report(c, &grp, o.playouts, game.kif ? DL_FMT_KIF : DL_FMT_INFIX, &b);
  ok = ok && cli_write_output(c, &b);
  dl_buf_free(&b);
  dl_game_symmetry_free(&grp);
  dl_game_free(&game);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_symmetry = {
  .name = "symmetry",
  .summary = "the symmetries of a game that its rule graph proves (chapter 14.7)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Finds the automorphisms of a GDL game's rule graph (gdlog rulegraph) with bliss,\n"
           "and prints the group they make: its order on the ground fluents, actions and\n"
           "roles, and each generator as the cycles of the symbols it exchanges (1 <-> 3;\n"
           "1@cell[2], the constant 1 where it stands for a column) and of the argument\n"
           "positions it moves (cell[1] <-> cell[2]).  Each generator is checked on the\n"
           "game as played first (--playouts); one that fails is an error, a bug of\n"
           "gdlog's, never a result.",
  .options = symmetry_options,
  .run = run_symmetry,
};
