/* cmd_play.c: gdlog play: random playouts of a game on its state machine
 * (datalog/machine/machine.h), on the backend the pipeline chooses (the
 * circuit where the game grounds, else the rules) or the one asked for;
 * reports their speed, depth and goals, or (--trace) prints every state,
 * legal move, joint move and goal of the playouts as KIF, to be checked
 * against gdlog model (tests/circuit/agree.py). */
#include <stdlib.h>
#include <string.h>

#include "datalog/base/json.h"
#include "datalog/base/rng.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"

/* How many playouts run at a time (--lanes): the values of
 * dl_playout_options.lanes. */
enum { LANES_AUTO = 0, LANES_1 = 1, LANES_WIDE = DL_M_LANES_WIDE };

static const cli_option play_options[] = {
  { .name = "--random", .value = "N", .help = "run N random playouts (default 1000; with --time, at most N)" },
  { .name = "--time", .value = "SEC", .help = "run random playouts for SEC seconds" },
  { .name = "--seed", .value = "S", .help = "seed of the random generator (default 1)" },
  { .name = "--max-depth", .value = "N",
    .help = "a playout longer than N joint moves is an error (default\n"
            "1000000)" },
  { .name = "--goal-default", .value = "V",
    .help = "a role with no goal value in a terminal state scores V\n"
            "(0..100) instead of being an error, on either backend; the\n"
            "playouts where that happened are counted in the report\n"
            "(chess.kif has no goal at its move limit).  Several goal\n"
            "values stay an error" },
  { .name = "--trace", .excludes = "--format",
    .help = "print each state of each playout (true, legal, goal,\n"
            "terminal, does atoms; comments for the rest: all KIF)\n"
            "instead of the figures; --max-depth cuts a playout, and\n"
            "one that breaks the game's contract (a role without a\n"
            "legal move or a goal value) is printed up to the fault,\n"
            "then reported as an error" },
  { .name = "--format", .value = "F", .one_of = CLI_TEXT_OR_JSON, .help = "text (default) or json" },
  CLI_OPT_BACKEND,
  CLI_OPT_CIRCUIT,
  CLI_OPT_DEMAND,
  { .name = "--lanes", .value = "L", .one_of = CLI_ONE_OF({ "auto", LANES_AUTO }, { "256", LANES_WIDE }, { "1", LANES_1 }),
    .excludes = "--trace",
    .help = "on the circuit: playouts run 256 at a time, one bit each\n"
            "in every gate's word (256: bit-parallel); one at a time,\n"
            "only the gates that change evaluated (1: differential); or\n"
            "256 where the circuit allows it (auto)" },
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

/* The options that hold only with one backend; CLI_OK or CLI_USAGE. */
static int check_backend(cli_ctx *c)
{
  dl_backend b = (dl_backend)cli_choice(c, "--backend", DL_BACKEND_AUTO);
  if (cli_given(c, "--demand") && b == DL_BACKEND_CIRCUIT) return cli_usage(c, "--demand needs the rules backend");
  if (cli_given(c, "--circuit") && b == DL_BACKEND_RULES) return cli_usage(c, "--circuit needs the circuit backend");
  if (cli_given(c, "--lanes") && b == DL_BACKEND_RULES) return cli_usage(c, "--lanes needs the circuit backend");
  return CLI_OK;
}

/* The options into o; CLI_OK or CLI_USAGE. */
static int read_options(cli_ctx *c, dl_playout_options *o)
{
  uint64_t depth;
  if (!cli_count_range(c, "--random", 1000, 1, UINT64_MAX, &o->n) || !cli_count(c, "--seed", 1, &o->seed) ||
      !cli_count_range(c, "--max-depth", 1000000, 0, UINT32_MAX, &depth))
    return CLI_USAGE;
  o->max_depth = (uint32_t)depth;
  if (!cli_goal_value(c, "--goal-default", &o->goal_default)) return CLI_USAGE;
  o->lanes = (uint32_t)cli_choice(c, "--lanes", LANES_AUTO);
  const char *t = cli_value(c, "--time");
  if (t) {
    char *end;
    o->time_limit = strtod(t, &end);
    if (*end || !(o->time_limit > 0)) return cli_usage(c, "--time needs a positive number of seconds");
    if (!cli_given(c, "--random")) o->n = UINT64_MAX;
  }
  return check_backend(c);
}

/* ---- the report ---- */

static double per(double n, double seconds) { return n / (seconds > 0 ? seconds : 1e-9); }

static void report_json(cli_ctx *c, const dl_game *g, const dl_playout_options *o, const dl_playout_totals *t,
                        dl_buf *b)
{
  const dl_machine *m = g->machine;
  double n = t->playouts ? (double)t->playouts : 1;
  dl_buf_addz(b, "{\"file\": ");
  dl_json_stringz(b, c->args[0]);
  dl_buf_addf(b, ", \"backend\": \"%s\", \"lanes\": %u, \"seed\": %llu, \"playouts\": %llu, \"states\": %llu,\n",
              dl_machine_backend(m), t->lanes, (unsigned long long)o->seed, (unsigned long long)t->playouts,
              (unsigned long long)t->states);
  dl_buf_addf(b, "\"seconds\": %.6f, \"cpu_seconds\": %.6f, \"playouts_per_second\": %.1f, "
              "\"playouts_per_cpu_second\": %.1f, \"states_per_second\": %.1f,\n", t->seconds, t->cpu_seconds,
              per((double)t->playouts, t->seconds), per((double)t->playouts, t->cpu_seconds),
              per((double)t->states, t->seconds));
  dl_buf_addf(b, "\"mean_depth\": %.3f, \"min_depth\": %u, \"max_depth\": %u, \"load_seconds\": %.6f, "
              "\"ground_seconds\": %.6f, \"compile_seconds\": %.6f,\n", (double)(t->states - t->playouts) / n,
              t->min_depth, t->max_depth, g->loaded->parse_seconds + g->loaded->check_seconds, g->ground_seconds,
              g->compile_seconds);
  dl_machine_describe(m, 1, b);
  dl_buf_addz(b, "\"goals\": {");
  for (uint32_t q = 0; q < m->n_roles; q++) {
    dl_buf name = { 0 };
    dl_machine_term_text(m, m->roles[q], DL_FMT_INFIX, &name);
    dl_buf_addz(b, q ? ", " : "");
    dl_json_string(b, name.data ? name.data : "", name.len);
    dl_buf_addf(b, ": %.4f", t->goal_sum[q] / n);
    dl_buf_free(&name);
  }
  dl_buf_addz(b, "}");
  if (o->goal_default >= 0)
    dl_buf_addf(b, ", \"goal_default\": %d, \"goal_defaulted\": %llu", o->goal_default,
                (unsigned long long)t->defaulted);
  dl_buf_addz(b, "}\n");
}

static void report_text(cli_ctx *c, const dl_game *g, const dl_playout_options *o, const dl_playout_totals *t,
                        dl_buf *b)
{
  const dl_machine *m = g->machine;
  double n = t->playouts ? (double)t->playouts : 1;
  dl_buf_addf(b, "%% gdlog play %s: random playouts on the %s, seed %llu\n", c->args[0], dl_machine_backend(m),
              (unsigned long long)o->seed);
  dl_buf_addf(b, "build      load %.4f s, ground %.4f s (domains, reduce, ground), compile %.4f s\n",
              g->loaded->parse_seconds + g->loaded->check_seconds, g->ground_seconds, g->compile_seconds);
  dl_machine_describe(m, 0, b);
  dl_buf_addf(b, "lanes      %u playout%s at a time\n", t->lanes, t->lanes > 1 ? "s" : "");
  dl_buf_addf(b, "playouts   %llu in %.3f s: %.1f playouts/s, %.1f states/s\n", (unsigned long long)t->playouts,
              t->seconds, per((double)t->playouts, t->seconds), per((double)t->states, t->seconds));
  dl_buf_addf(b, "cpu        %.3f s of process time: %.1f playouts/s, %.1f states/s\n", t->cpu_seconds,
              per((double)t->playouts, t->cpu_seconds), per((double)t->states, t->cpu_seconds));
  dl_buf_addf(b, "depth      mean %.2f, min %u, max %u\n", (double)(t->states - t->playouts) / n, t->min_depth,
              t->max_depth);
  for (uint32_t q = 0; q < m->n_roles; q++) {
    dl_buf_addz(b, "goal       ");
    dl_machine_term_text(m, m->roles[q], DL_FMT_INFIX, b);
    dl_buf_addf(b, " mean %.2f\n", t->goal_sum[q] / n);
  }
  if (o->goal_default >= 0)
    dl_buf_addf(b, "goal       none in %llu of %llu playouts, scored %d (--goal-default)\n",
                (unsigned long long)t->defaulted, (unsigned long long)t->playouts, o->goal_default);
}

/* Runs the playouts from the initial state and writes the report; 1, or 0
 * after reporting. */
static int run_playouts(cli_ctx *c, dl_game *g, const dl_playout_options *o)
{
  dl_machine *m = g->machine;
  dl_mstate *start = NULL;
  double *sum = calloc(m->n_roles + 1, sizeof *sum);
  dl_playout_totals t = { .goal_sum = sum };
  int ok = sum && dl_machine_initial(m, &start) == DL_M_OK;
  if (!ok) dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
  m->stop = dl_guard_stop();
  ok = ok && dl_machine_playouts(m, start, o, &t) == DL_M_OK && !dl_guard_signal();
  dl_buf b = { 0 };
  if (ok && cli_choice(c, "--format", CLI_REPORT_TEXT) == CLI_REPORT_JSON) report_json(c, g, o, &t, &b);
  else if (ok) report_text(c, g, o, &t, &b);
  ok = ok && cli_write_output(c, &b);
  dl_buf_free(&b);
  free(sum);
  free(start);
  return ok;
}

/* ---- --trace ---- */

/* Traces o->n playouts (dl_machine_trace_playout); each one's text is
 * written as it ends, the one where the game broke its contract too (up to
 * the fault, reported).  After a limit or out of memory the output is not
 * put in place, as every command does. */
static int run_trace(cli_ctx *c, dl_machine *m, const dl_playout_options *o)
{
  dl_rng rng;
  dl_rng_seed(&rng, o->seed);
  FILE *f = cli_open_output(c);
  int traced = f != NULL, written = traced;
  dl_buf b = { 0 };
  for (uint64_t i = 0; traced && written && i < o->n && !dl_guard_signal(); i++) {
    dl_buf_addf(&b, "; playout %llu\n", (unsigned long long)i);
    dl_mstatus st = dl_machine_trace_playout(m, o, i, &rng, &b);
    traced = st == DL_M_OK;
    written = (traced || st == DL_M_GAME) && !b.failed && (!b.len || fwrite(b.data, 1, b.len, f) == b.len);
    b.len = 0;
  }
  dl_buf_free(&b);
  return f && cli_close_output(c, f, written) && traced;
}

static int run_play(cli_ctx *c)
{
  dl_playout_options o = { 0 };
  int rc = read_options(c, &o);
  if (rc != CLI_OK) return rc;
  dl_game g = { 0 };
  int ok = cli_build_machine(c, c->args[0], 0, &g);
  if (ok && cli_given(c, "--trace")) ok = run_trace(c, g.machine, &o);
  else if (ok) ok = run_playouts(c, &g, &o);
  cli_report(c);  /* before the game its messages point into goes */
  dl_game_free(&g);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_play = {
  .name = "play",
  .summary = "random playouts of a game (playouts per second)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Runs random playouts of a GDL game from its initial state: every role\n"
           "picks a legal move uniformly at random until a terminal state.  By\n"
           "default (--backend auto) the game is grounded (as gdlog ground) and the\n"
           "ground game compiled into a circuit (gates with counters, evaluated\n"
           "differentially, 256 playouts at a time where it allows: --lanes) when it\n"
           "grounds within a budget of instances and time; else, and with --backend\n"
           "rules, the playouts run on the evaluator over the rules (slower, for any\n"
           "game: laikLee_hex, sudoku; --demand chooses demand-driven evaluation).\n"
           "Prints playouts and states per second, the depth and mean goal per role,\n"
           "the build time and the backend's figures.  A role without a legal move,\n"
           "or without exactly one goal value at the end, is an error.",
  .options = play_options,
  .run = run_play,
};
