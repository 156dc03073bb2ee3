/* cmd_ground.c: gdlog ground: goal-directed grounding of a game (section
 * 14.4 of the book; datalog/ground/ground.h).  Computes the domains and the G+
 * reduction, grounds, and writes the ground game (datalog/write/
 * ground_write.h) to the output; --stats goes to stderr after the
 * diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "datalog/base/clock.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/progress.h"
#include "datalog/cli/stats.h"
#include "datalog/cli/guard.h"
#include "datalog/gdl/domains.h"
#include "datalog/ground/ground.h"
#include "datalog/gdl/reduce.h"
#include "datalog/machine/pipeline.h"
#include "datalog/write/ground_write.h"
#include "datalog/write/players.h"

_Static_assert(DL_DEFAULT_MAX_INSTANCES == 200000000, "the help of --max-instances spells the default");

static const cli_option ground_options[] = {
  { .name = "--format", .value = "F",
    .one_of = CLI_ONE_OF({ "kif", DL_GROUND_KIF }, { "infix", DL_GROUND_INFIX }, { "asp", DL_GROUND_ASP },
                         { "numeric", DL_GROUND_NUMERIC }),
    .help = "kif (default), infix, asp (gringo; true and does atoms\n"
            "declared #external) or numeric (an atom table with roles,\n"
            "then rules as integers; datalog/write/ground_write.h)" },
  { .name = "--stats", .help = "per rule: candidates (bindings of its positive body\n"
                               "atoms), instances (distinct ones made of them), rules\n"
                               "(ground rules left after pruning, auxiliary ones\n"
                               "included), seconds; the phases; the size (rules, atoms,\n"
                               "literals, propnet components), on stderr" },
  { .name = "--stats-format", .value = "F", .one_of = CLI_TEXT_OR_JSON, .needs = "--stats",
    .help = "text (default) or json" },
  { .name = "--no-prune", .help = "keep every instance made" },
  { .name = "--no-demand", .help = "instantiate supporting predicates fully, not on demand" },
  { .name = "--no-factor", .help = "no auxiliary atoms for body parts that share only head\n"
                                   "variables with the rest" },
  { .name = "--no-split", .help = "never split a rule with a large join into pieces by\n"
                                  "variable elimination" },
  { .name = "--no-exclude", .help = "instantiate a rule that asks for some binding of a body\n"
                                    "part other than the head's, such as another square than\n"
                                    "the captured one, once per binding, not through an\n"
                                    "exclusion (datalog/ground/DESIGN.md)" },
  { .name = "--no-simplify", .help = "write the pruned ground game as it is: no constants\n"
                                     "folded, aliases, inlining or factoring (datalog/simplify/DESIGN.md)" },
  { .name = "--for-players", .excludes = "--format",
    .help = "write KIF for other players' propnet builders: each rule\n"
            "of the game ground where its instances are small, as\n"
            "written where they would make the text too large (see\n"
            "--max-growth); statics evaluated into facts, rules\n"
            "that legal, next, goal and terminal do not need left\n"
            "out, predicates that recurse along static arguments\n"
            "unfolded into one per value (datalog/write/players.h)" },
  { .name = "--max-growth", .value = "N", .needs = "--for-players",
    .help = "with --for-players: write rules as they are until the\n"
            "output is at most N times the game's rules as KIF\n"
            "(default 8)" },
  { .name = "--from", .value = "M", .one_of = CLI_ONE_OF({ "init", DL_REDUCE_LFP }, { "domains", DL_REDUCE_DOMAINS }),
    .help = "the G+ reduction: init (default, least fixpoint) or domains" },
  { .name = "--max-instances", .value = "N",
    .help = "stop with an error beyond N rule instances (default\n"
            "200000000; 0: none)" },
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static size_t peak_bytes(void)
{
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? (size_t)ru.ru_maxrss * 1024 : 0;
}

static int file_write(void *f, const char *data, size_t n) { return fwrite(data, 1, n, f) == n; }

static int write_ground(cli_ctx *c, const dl_ground *g)
{
  FILE *f = cli_open_output(c);
  if (!f) return 0;
  dl_sink sink = { file_write, f };
  dl_ground_format format = (dl_ground_format)cli_choice(c, "--format", DL_GROUND_KIF);
  return cli_close_output(c, f, dl_ground_write(&sink, g, format));
}

/* The game for players (--for-players): planned from the ground game made
 * without simplification; simplified and written whole when every rule is
 * ground. */
static int write_for_players(cli_ctx *c, dl_game *g, const dl_game_options *o, uint64_t growth)
{
  dl_players_options po = { .max_growth = (double)growth, .max_atoms = o->max_atoms, .stop = o->stop };
  po.game_bytes = g->loaded->n_sources ? g->loaded->sources[0]->len : 0;
  dl_players_plan *pl = dl_players_plan_create(g->loaded->prog, g->ground, &po, c->diag);
  FILE *f = pl ? cli_open_output(c) : NULL;
  if (!f) {
    dl_players_plan_destroy(pl);
    return 0;
  }
  dl_sink sink = { file_write, f };
  dl_ground_options so = o->ground;
  so.no_simplify = cli_given(c, "--no-simplify"), so.stop = o->stop;
  int ok = dl_players_write_all(&sink, pl, g->ground, &so, c->args[0], c->diag);
  dl_players_plan_destroy(pl);
  return cli_close_output(c, f, ok);
}

static void print_stats(cli_ctx *c, const dl_ground *g, const dl_program *game, dl_ground_phases *ph)
{
  dl_buf b = { 0 };
  ph->peak_bytes = peak_bytes();
  dl_ground_write_stats(&b, g, game, ph, cli_choice(c, "--stats-format", CLI_REPORT_TEXT) == CLI_REPORT_JSON);
  cli_report_end(c);
  if (!b.failed && b.len) fwrite(b.data, 1, b.len, stderr);
  dl_buf_free(&b);
}

/* The pipeline's options from the command's. */
static dl_game_options ground_game_options(cli_ctx *c, uint64_t limit, cli_progress *progress)
{
  dl_game_options o;
  dl_game_options_init(&o);
  o.reduce_mode = cli_choice(c, "--from", DL_REDUCE_LFP);
  o.ground_all = cli_given(c, "--no-demand");
  o.ground = (dl_ground_options){ .no_prune = cli_given(c, "--no-prune"), .no_factor = cli_given(c, "--no-factor"),
                                  .no_split = cli_given(c, "--no-split"),
                                  .no_exclude = cli_given(c, "--no-exclude"), .no_simplify = cli_given(c, "--no-simplify") };
  o.max_atoms = c->max_atoms;
  o.max_instances = limit;
  o.stop = dl_guard_stop();
  o.progress = cli_game_progress;
  o.progress_ctx = progress;
  return o;
}

static int run_ground(cli_ctx *c)
{
  uint64_t limit;
  uint64_t growth;
  if (!cli_count(c, "--max-instances", DL_DEFAULT_MAX_INSTANCES, &limit) ||
      !cli_count_range(c, "--max-growth", 8, 1, 1000000, &growth))
    return CLI_USAGE;
  int players = cli_given(c, "--for-players");
  cli_progress progress;
  cli_progress_begin(&progress, "ground");
  progress.off = cli_choice(c, "--stats-format", CLI_REPORT_TEXT) == CLI_REPORT_JSON;  /* stderr is for the JSON */
  double t0 = dl_clock_now();
  dl_loaded *l = cli_load(c, c->args[0]);
  dl_game_options o = ground_game_options(c, limit, &progress);
  o.ground.no_simplify |= players;  /* the plan needs each instance's rule; simplified later if all is ground */
  dl_game g = { 0 };
  dl_guard_soft(1);
  int ok = l && dl_game_build(&g, l, &o, DL_STAGE_GROUND, c->diag);
  dl_guard_soft(0);
  dl_ground_phases ph = { l ? l->parse_seconds + l->check_seconds : dl_clock_now() - t0, g.domains_seconds,
                          g.reduce_seconds, 0 };
  if (isatty(STDOUT_FILENO)) cli_progress_end(&progress);  /* the ground game goes to the same screen */
  else if (ok) cli_progress_say(&progress, "write", NULL);
  ok = ok && !dl_guard_signal() && (players ? write_for_players(c, &g, &o, growth) : write_ground(c, g.ground));
  cli_progress_end(&progress);
  if (g.ground && cli_given(c, "--stats")) {
    cli_report(c);
    print_stats(c, g.ground, l->prog, &ph);
  }
  dl_game_free(&g);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_ground = {
  .name = "ground",
  .summary = "ground a game: its rule instances over G+, goal-directed (chapter 14.4)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Grounds a GDL game (section 14.4 of the book): instantiates every rule over\n"
           "the instances the G+ reduction keeps (a join, never a product of domains),\n"
           "decides distinct and the static predicates, splits rules with large joins\n"
           "into pieces (variable elimination), instantiates supporting\n"
           "predicates only where their users ask (demand), and keeps only what legal,\n"
           "next, goal and terminal need (role, init, base and input stay as facts;\n"
           "base and input come from G+ when the game has none).  A run longer than a\n"
           "second shows its phase on stderr: one line rewritten on a terminal, a line\n"
           "per phase elsewhere (none with --stats-format json).",
  .options = ground_options,
  .run = run_ground,
};
