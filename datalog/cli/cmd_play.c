/* cmd_play.c: gdlog play: random playouts of a game on its circuit
 * (datalog/circuit/circuit.h, issue 13): grounds the game (ground.h), compiles
 * the circuit, runs playouts and reports their speed, depth and goals; or
 * (--trace) prints every state, legal move, joint move and goal of the
 * playouts, to be checked against gdlog model (tests/circuit/agree.py). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datalog/base/json.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/progress.h"
#include "datalog/cli/stats.h"
#include "datalog/cli/guard.h"
#include "datalog/circuit/circuit.h"
#include "datalog/gdl/domains.h"
#include "datalog/ground/ground.h"
#include "datalog/gdl/reduce.h"
#include "datalog/gdlog.h"
#include "datalog/machine/pipeline.h"
#include "datalog/write/output.h"

/* What plays the playouts (--backend), and how many at a time (--lanes). */
typedef enum play_backend { PLAY_CIRCUIT, PLAY_RULES } play_backend;
typedef enum play_lanes { LANES_AUTO, LANES_64, LANES_1 } play_lanes;

static const cli_option play_options[] = {
  { .name = "--random", .value = "N", .help = "run N random playouts (default 1000; with --time, at most N)" },
  { .name = "--time", .value = "SEC", .help = "run random playouts for SEC seconds" },
  { .name = "--seed", .value = "S", .help = "seed of the random generator (default 1)" },
  { .name = "--max-depth", .value = "N",
    .help = "a playout longer than N joint moves is an error (default\n"
            "1000000)" },
  { .name = "--goal-default", .value = "V",
    .help = "a role with no goal value in a terminal state scores V\n"
            "(0..100) instead of being an error; the playouts where that\n"
            "happened are counted in the report (chess.kif has no goal\n"
            "at its move limit).  Several goal values stay an error" },
  { .name = "--trace", .excludes = "--format",
    .help = "print each state of each playout (true, legal, goal,\n"
            "terminal, does atoms; comments for the rest: all KIF)\n"
            "instead of the figures" },
  { .name = "--format", .value = "F", .one_of = CLI_TEXT_OR_JSON, .help = "text (default) or json" },
  { .name = "--backend", .value = "B", .one_of = CLI_ONE_OF({ "circuit", PLAY_CIRCUIT }, { "rules", PLAY_RULES }),
    .excludes = "--trace",
    .help = "circuit (default: the ground game compiled) or rules\n"
            "(the evaluator over the rules, demand-driven where that\n"
            "pays; for games that do not ground)" },
  { .name = "--circuit", .value = "M",
    .one_of = CLI_ONE_OF({ "auto", DL_CIRCUIT_AUTO }, { "eager", DL_CIRCUIT_EAGER }, { "lazy", DL_CIRCUIT_LAZY }),
    .help = "how the circuit evaluates the gates that only legal moves,\n"
            "goals, terminal and next rules other than frames need: kept\n"
            "up to date at every change (eager), computed when asked for\n"
            "the current state and move only (lazy: chess's check tests),\n"
            "or as gdlog chooses (auto)" },
  { .name = "--demand", .value = "D",
    .one_of = CLI_ONE_OF({ "auto", GDLOG_DEMAND_AUTO }, { "on", GDLOG_DEMAND_ON }, { "off", GDLOG_DEMAND_OFF }),
    .help = "with --backend rules: evaluate the rules demand-driven\n"
            "(their magic-set rewriting: only what legal, next, goal\n"
            "and terminal need; on), as they are (off), or as gdlog\n"
            "chooses (auto, the default: demand-driven when the full\n"
            "model is infinite or huge)" },
  { .name = "--lanes", .value = "L", .one_of = CLI_ONE_OF({ "auto", LANES_AUTO }, { "64", LANES_64 }, { "1", LANES_1 }),
    .excludes = "--trace",
    .help = "playouts run 64 at a time, one bit each in every gate's\n"
            "word, every gate evaluated once per step (64: bit-parallel);\n"
            "one at a time, only the gates that change evaluated (1:\n"
            "differential); or 64 where the circuit allows it (auto:\n"
            "every eager circuit whose legal moves read no move)" },
  CLI_OPT_SYNTAX,
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

typedef struct play_run {
  uint64_t n, seed, max_depth;
  double time_limit;       /* 0: none */
  double ground_s, compile_s, run_s, cpu_s;  /* run_s wall clock, cpu_s process time */
  uint64_t playouts, states;
  uint32_t min_depth, max_seen;
  double *goal_sum;        /* per role */
  int32_t goal_default;    /* with --goal-default (else -1): the goal of a role that has none */
  uint64_t defaulted;      /* playouts where a role had no goal and scored goal_default */
  uint32_t lanes;          /* 64: bit-parallel playouts, 1: one at a time */
} play_run;

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The options that hold only with one backend; CLI_OK or CLI_USAGE. */
static int check_backend(cli_ctx *c, const play_run *r)
{
  int rules = cli_choice(c, "--backend", PLAY_CIRCUIT) == PLAY_RULES;
  if (r->goal_default >= 0 && rules) return cli_usage(c, "--goal-default needs the circuit backend");
  if (cli_given(c, "--demand") && !rules) return cli_usage(c, "--demand needs --backend rules");
  if (cli_given(c, "--circuit") && rules) return cli_usage(c, "--circuit needs the circuit backend");
  if (cli_given(c, "--lanes") && rules) return cli_usage(c, "--lanes needs the circuit backend");
  if (cli_choice(c, "--syntax", -1) == LX_ASP && rules)
    return cli_usage(c, "--syntax asp needs the circuit backend (the rules backend reads kif and infix)");
  return CLI_OK;
}

/* The options into r; CLI_OK or CLI_USAGE. */
static int read_options(cli_ctx *c, play_run *r)
{
  if (!cli_count_range(c, "--random", 1000, 1, UINT64_MAX, &r->n) || !cli_count(c, "--seed", 1, &r->seed) ||
      !cli_count_range(c, "--max-depth", 1000000, 0, UINT32_MAX, &r->max_depth))
    return CLI_USAGE;
  const char *g = cli_value(c, "--goal-default");
  uint64_t v = 0;
  if (g && (!cli_parse_count(g, &v) || v > 100)) return cli_usage(c, "--goal-default needs a goal value from 0 to 100");
  r->goal_default = g ? (int32_t)v : -1;
  const char *t = cli_value(c, "--time");
  if (t) {
    char *end;
    r->time_limit = strtod(t, &end);
    if (*end || !(r->time_limit > 0)) return cli_usage(c, "--time needs a positive number of seconds");
    if (!cli_given(c, "--random")) r->n = UINT64_MAX;
  }
  return check_backend(c, r);
}

/* Loads and grounds the game; NULL after reporting. */
static dl_ground *build_ground(cli_ctx *c, dl_domains **d)
{
  cli_progress progress;
  cli_progress_begin(&progress, "play");
  dl_loaded *l = cli_load(c, c->args[0]);
  *d = l ? dl_domains_build(l->prog, c->diag) : NULL;
  dl_reduce_options ro = { DL_REDUCE_LFP, c->max_atoms, dl_guard_stop(), 0 };
  dl_guard_soft(1);
  cli_progress_say(&progress, "reduce (G+)", NULL);
  dl_reduction *red = *d ? dl_reduce(l->prog, *d, &ro, c->diag) : NULL;
  dl_ground_options go = { .demand = 1, .max_instances = DL_DEFAULT_MAX_INSTANCES, .stop = dl_guard_stop(),
                           .progress = cli_progress_ground, .progress_ctx = &progress };
  dl_ground *g = red ? dl_ground_build(l->prog, red, &go, c->diag) : NULL;
  dl_guard_soft(0);
  dl_reduction_destroy(red);
  cli_progress_end(&progress);
  return g;
}

static void report_playout(cli_ctx *c, const dl_circuit *k, dl_playout p, uint64_t index)
{
  static const char *const what[] = { "", "has no legal move", "has no goal value or several", "", "" };
  dl_buf name = { 0 };
  if (p.status == DL_PLAYOUT_NO_LEGAL || p.status == DL_PLAYOUT_BAD_GOAL) {
    dl_output_term(&name, dl_circuit_terms(k), dl_circuit_role_term(k, p.role), DL_FMT_INFIX);
    dl_diag_report(c->diag, DL_ERROR, NULL, 0, "playout %llu: role %s %s after %u joint moves",
                   (unsigned long long)index, name.data ? name.data : "?", what[p.status], p.depth);
  } else if (p.status == DL_PLAYOUT_TOO_DEEP)
    dl_diag_report(c->diag, DL_ERROR, NULL, 0, "playout %llu: no terminal state within %u joint moves (--max-depth)",
                   (unsigned long long)index, p.depth);
  else dl_diag_report(c->diag, DL_ERROR, NULL, 0, "out of memory in playout %llu", (unsigned long long)index);
  dl_buf_free(&name);
}

/* After a playout that ended with a role without exactly one goal value:
 * with --goal-default, fills goals when no role has several values and
 * counts the playout as defaulted.  1 when the playout counts. */
static int default_goals(const play_run *r, dl_circuit *k, int32_t *goals, dl_playout *p)
{
  if (r->goal_default < 0) return 0;
  for (uint32_t q = 0; q < dl_circuit_role_count(k); q++)
    if (!dl_circuit_goal(k, q, &goals[q])) {
      if (goals[q] < 0) {  /* several values */
        p->role = q;
        return 0;
      }
      goals[q] = r->goal_default;
    }
  return 1;
}

/* Counts a finished playout. */
static void count_playout(play_run *r, uint32_t depth, const int32_t *goals, uint32_t roles)
{
  r->playouts++;
  r->states += depth + 1;
  if (depth < r->min_depth) r->min_depth = depth;
  if (depth > r->max_seen) r->max_seen = depth;
  for (uint32_t q = 0; q < roles; q++) r->goal_sum[q] += goals[q];
}

/* ---- --lanes 64: bit-parallel playouts ---- */

typedef struct wide_ctx {
  cli_ctx *c;
  dl_circuit *k;
  play_run *r;
  double t0;
  uint64_t ended;          /* playouts reported, errors included */
  int failed;
  int32_t *goals;          /* room for a goal per role (--goal-default) */
} wide_ctx;

/* With --goal-default, a role without a goal value scores it (into
 * goals); 1 when the playout counts (no role has several). */
static int default_wide_goals(const play_run *r, const dl_wide_result *res, uint32_t roles, int32_t *goals,
                              dl_playout *p)
{
  if (r->goal_default < 0) return 0;
  for (uint32_t q = 0; q < roles; q++) {
    if (res->goal_n[q] > 1) {
      p->role = q;
      return 0;
    }
    goals[q] = res->goal_n[q] ? res->goals[q] : r->goal_default;
  }
  return 1;
}

static int wide_done(void *ctx, const dl_wide_result *res)
{
  wide_ctx *w = ctx;
  play_run *r = w->r;
  uint32_t roles = dl_circuit_role_count(w->k);
  dl_playout p = res->p;
  uint64_t index = w->ended++;
  if (p.status == DL_PLAYOUT_BAD_GOAL && default_wide_goals(r, res, roles, w->goals, &p)) {
    r->defaulted++;
    count_playout(r, p.depth, w->goals, roles);
    return 1;
  }
  if (p.status != DL_PLAYOUT_OK) {
    report_playout(w->c, w->k, p, index);
    w->failed = 1;
    return 0;
  }
  count_playout(r, p.depth, res->goals, roles);
  if ((index & 63) == 63 && ((r->time_limit > 0 && cli_now() - w->t0 >= r->time_limit) || dl_guard_signal()))
    return 0;
  return 1;
}

/* Runs the playouts 64 at a time; 0 after reporting an error.  goals:
 * room for a goal per role. */
static int run_wide(cli_ctx *c, dl_circuit *k, play_run *r, const uint64_t *start, int32_t *goals)
{
  dl_rng rng;
  dl_rng_seed(&rng, r->seed);
  wide_ctx w = { c, k, r, cli_now(), 0, 0, goals };
  double c0 = cpu_now();
  int ok = dl_circuit_wide_playouts(k, start, &rng, r->n, (uint32_t)r->max_depth, 0, wide_done, &w);
  r->run_s = cli_now() - w.t0;
  r->cpu_s = cpu_now() - c0;
  if (!ok) dl_diag_report(c->diag, DL_ERROR, NULL, 0, "out of memory");
  return ok && !w.failed && !dl_guard_signal();
}

/* Runs the playouts; 0 after reporting an error. */
static int run_playouts(cli_ctx *c, dl_circuit *k, play_run *r)
{
  uint32_t roles = dl_circuit_role_count(k), words = dl_circuit_state_words(k);
  uint64_t *start = calloc(words ? words : 1, sizeof *start);
  int32_t *goals = calloc(roles, sizeof *goals);
  if (!start || !goals) {
    free(start), free(goals);
    dl_diag_report(c->diag, DL_ERROR, NULL, 0, "out of memory");
    return 0;
  }
  dl_circuit_initial(k, start);
  r->min_depth = UINT32_MAX;
  if (r->lanes == 64) {
    int wide_ok = run_wide(c, k, r, start, goals);
    free(start), free(goals);
    return wide_ok;
  }
  dl_rng rng;
  dl_rng_seed(&rng, r->seed);
  int ok = 1;
  double t0 = cli_now(), c0 = cpu_now();
  for (uint64_t i = 0; i < r->n && ok; i++) {
    if ((i & 15) == 0 && ((r->time_limit > 0 && cli_now() - t0 >= r->time_limit) || dl_guard_signal())) break;
    dl_playout p = dl_circuit_playout(k, start, &rng, (uint32_t)r->max_depth, goals);
    if (p.status == DL_PLAYOUT_BAD_GOAL && default_goals(r, k, goals, &p)) {
      p.status = DL_PLAYOUT_OK;
      r->defaulted++;
    }
    if (p.status != DL_PLAYOUT_OK) {
      report_playout(c, k, p, i);
      ok = 0;
      break;
    }
    count_playout(r, p.depth, goals, roles);
  }
  r->run_s = cli_now() - t0;
  r->cpu_s = cpu_now() - c0;
  free(start);
  free(goals);
  return ok && !dl_guard_signal();
}

static void json_term(dl_buf *b, const dl_terms *t, dl_tid x)
{
  dl_buf s = { 0 };
  dl_output_term(&s, t, x, DL_FMT_INFIX);
  if (s.failed) b->failed = 1;
  dl_json_string(b, s.data, s.len);
  dl_buf_free(&s);
}

static void report_json(cli_ctx *c, const dl_circuit *k, const play_run *r, dl_buf *b)
{
  dl_circuit_stats s = dl_circuit_get_stats(k);
  double n = r->playouts ? (double)r->playouts : 1;
  dl_buf_addz(b, "{\"file\": ");
  dl_json_stringz(b, c->args[0]);
  dl_buf_addf(b, ", \"lanes\": %u, \"seed\": %llu, \"playouts\": %llu, \"states\": %llu, \"seconds\": %.6f,"
             " \"cpu_seconds\": %.6f, \"playouts_per_cpu_second\": %.1f,\n",
          r->lanes, (unsigned long long)r->seed, (unsigned long long)r->playouts, (unsigned long long)r->states,
          r->run_s, r->cpu_s, r->playouts / (r->cpu_s > 0 ? r->cpu_s : 1e-9));
  dl_buf_addf(b, " \"playouts_per_second\": %.1f, \"states_per_second\": %.1f, \"mean_depth\": %.3f,"
             " \"min_depth\": %u, \"max_depth\": %u,\n",
          r->playouts / (r->run_s > 0 ? r->run_s : 1e-9), r->states / (r->run_s > 0 ? r->run_s : 1e-9),
          (double)(r->states - r->playouts) / n, r->playouts ? r->min_depth : 0, r->max_seen);
  dl_buf_addf(b, " \"ground_seconds\": %.6f, \"compile_seconds\": %.6f, \"bytes_per_state\": %u,"
             " \"circuit_bytes\": %zu,\n",
          r->ground_s, r->compile_s, s.state_words * 8, s.bytes);
  dl_buf_addf(b, " \"gates\": %u, \"and\": %u, \"or\": %u, \"inputs\": %u, \"wires\": %u, \"negated_wires\": %u,"
             " \"cyclic_blocks\": %u, \"cyclic_gates\": %u, \"fluents\": %u, \"moves\": %u,"
             " \"lazy_gates\": %u, \"lazy_wires\": %u, \"lazy_next_rules\": %u,\n \"goals\": {",
          s.gates, s.and_gates, s.or_gates, s.inputs, s.edges, s.negated, s.cyclic_blocks, s.cyclic_gates,
          s.fluents, s.moves, s.lazy_gates, s.lazy_wires, s.lazy_next_rules);
  for (uint32_t q = 0; q < s.roles; q++) {
    if (q) dl_buf_addz(b, ", ");
    json_term(b, dl_circuit_terms(k), dl_circuit_role_term(k, q));
    dl_buf_addf(b, ": %.4f", r->goal_sum[q] / n);
  }
  dl_buf_addz(b, "}");
  if (r->goal_default >= 0)
    dl_buf_addf(b, ", \"goal_default\": %d, \"goal_defaulted\": %llu", r->goal_default,
                (unsigned long long)r->defaulted);
  dl_buf_addz(b, "}\n");
}

static void report_text(cli_ctx *c, const dl_circuit *k, const play_run *r, dl_buf *b)
{
  dl_circuit_stats s = dl_circuit_get_stats(k);
  double n = r->playouts ? (double)r->playouts : 1, t = r->run_s > 0 ? r->run_s : 1e-9;
  dl_buf_addf(b, "%% gdlog play %s: random playouts, seed %llu\n", c->args[0], (unsigned long long)r->seed);
  dl_buf_addf(b, "build      ground %.4f s (load, domains, reduce, ground), compile %.4f s\n", r->ground_s,
          r->compile_s);
  dl_buf_addf(b, "circuit    %u gates (%u and, %u or, %u inputs), %u wires (%u negated), %u cyclic blocks of %u gates,"
             " %zu bytes\n",
          s.gates, s.and_gates, s.or_gates, s.inputs, s.edges, s.negated, s.cyclic_blocks, s.cyclic_gates,
          s.bytes);
  if (s.lazy_gates)
    dl_buf_addf(b, "lazy       %u gates, %u wires: evaluated when asked, not kept up to date; %u next rules\n",
                s.lazy_gates, s.lazy_wires, s.lazy_next_rules);
  dl_buf_addf(b, "state      %u fluents in %u words: %u bytes per state; %u moves\n", s.fluents, s.state_words,
          s.state_words * 8, s.moves);
  if (r->lanes == 64)
    dl_buf_addf(b, "lanes      64 playouts at a time, bit-parallel (%zu bytes of the circuit)\n", s.bytes_wide);
  else dl_buf_addz(b, "lanes      1 playout at a time, differential\n");
  dl_buf_addf(b, "playouts   %llu in %.3f s: %.0f playouts/s, %.0f states/s\n", (unsigned long long)r->playouts,
          r->run_s, r->playouts / t, r->states / t);
  dl_buf_addf(b, "cpu        %.3f s of process time: %.0f playouts/s, %.0f states/s\n", r->cpu_s,
          r->playouts / (r->cpu_s > 0 ? r->cpu_s : 1e-9), r->states / (r->cpu_s > 0 ? r->cpu_s : 1e-9));
  dl_buf_addf(b, "depth      mean %.2f, min %u, max %u\n", (double)(r->states - r->playouts) / n,
          r->playouts ? r->min_depth : 0, r->max_seen);
  for (uint32_t q = 0; q < s.roles; q++) {
    dl_buf_addz(b, "goal       ");
    dl_output_term(b, dl_circuit_terms(k), dl_circuit_role_term(k, q), DL_FMT_INFIX);
    dl_buf_addf(b, " mean %.2f\n", r->goal_sum[q] / n);
  }
  if (r->goal_default >= 0)
    dl_buf_addf(b, "goal       none in %llu of %llu playouts, scored %d (--goal-default)\n",
                (unsigned long long)r->defaulted, (unsigned long long)r->playouts, r->goal_default);
}

/* ---- --trace ---- */

static void trace_atom(dl_buf *b, const dl_terms *t, const char *pred, const dl_tid *args, int n)
{
  dl_buf_addf(b, "(%s", pred);
  for (int i = 0; i < n; i++) {
    dl_buf_addz(b, " ");
    dl_output_term(b, t, args[i], DL_FMT_KIF);
  }
  dl_buf_addz(b, ")\n");
}

/* Prints the current state of k and what holds in it, in KIF: the atoms,
 * and comments for the rest (the state's number, a role's number of goal
 * values when it has not exactly one). */
static void trace_state(dl_buf *b, dl_circuit *k, uint64_t step)
{
  const dl_terms *t = dl_circuit_terms(k);
  const uint64_t *s = dl_circuit_state(k);
  dl_buf_addf(b, "; state %llu\n", (unsigned long long)step);
  for (uint32_t f = 0; f < dl_circuit_fluent_count(k); f++)
    if (s[f >> 6] >> (f & 63) & 1) {
      dl_tid x = dl_circuit_fluent_term(k, f);
      trace_atom(b, t, "true", &x, 1);
    }
  for (uint32_t q = 0; q < dl_circuit_role_count(k); q++) {
    const uint32_t *moves;
    uint32_t n = dl_circuit_legal(k, q, &moves);
    for (uint32_t i = 0; i < n; i++) {
      dl_tid x[2] = { dl_circuit_role_term(k, q), dl_circuit_move_term(k, moves[i]) };
      trace_atom(b, t, "legal", x, 2);
    }
    int32_t v;
    if (dl_circuit_goal(k, q, &v)) {
      dl_buf_addz(b, "(goal ");
      dl_output_term(b, t, dl_circuit_role_term(k, q), DL_FMT_KIF);
      dl_buf_addf(b, " %d)\n", v);
    } else {  /* none or several: a comment, as the atoms would not tell the role's count */
      dl_buf_addz(b, "; goal values of ");
      dl_output_term(b, t, dl_circuit_role_term(k, q), DL_FMT_KIF);
      dl_buf_addf(b, ": %d\n", -v);
    }
  }
  if (dl_circuit_terminal(k)) dl_buf_addz(b, "terminal\n");
}

/* One traced playout from the initial state; 0 when the circuit failed. */
static int trace_playout(dl_buf *b, dl_circuit *k, dl_rng *rng, uint64_t *state, uint32_t *joint, uint64_t max_depth)
{
  const dl_terms *t = dl_circuit_terms(k);
  dl_circuit_initial(k, state);
  if (!dl_circuit_set_state(k, state)) return 0;
  for (uint64_t step = 0;; step++) {
    trace_state(b, k, step);
    if (dl_circuit_terminal(k) || step >= max_depth) return 1;
    for (uint32_t q = 0; q < dl_circuit_role_count(k); q++) {
      const uint32_t *moves;
      uint32_t n = dl_circuit_legal(k, q, &moves);
      if (!n) return 1;  /* the checker sees no legal move of q */
      joint[q] = moves[dl_rng_below(rng, n)];
      dl_tid x[2] = { dl_circuit_role_term(k, q), dl_circuit_move_term(k, joint[q]) };
      trace_atom(b, t, "does", x, 2);
    }
    if (!dl_circuit_next(k, joint, state) || !dl_circuit_set_state(k, state)) return 0;
  }
}

static int run_trace(cli_ctx *c, dl_circuit *k, const play_run *r)
{
  uint32_t words = dl_circuit_state_words(k);
  uint64_t *state = calloc(words ? words : 1, sizeof *state);
  uint32_t *joint = calloc(dl_circuit_role_count(k), sizeof *joint);
  dl_rng rng;
  dl_rng_seed(&rng, r->seed);
  FILE *f = cli_open_output(c);
  int ok = state && joint && f;
  dl_buf b = { 0 };
  for (uint64_t i = 0; ok && i < r->n && !dl_guard_signal(); i++) {
    dl_buf_addf(&b, "; playout %llu\n", (unsigned long long)i);
    ok = trace_playout(&b, k, &rng, state, joint, r->max_depth) && !b.failed;
    if (ok && b.len) ok = fwrite(b.data, 1, b.len, f) == b.len;
    b.len = 0;
  }
  dl_buf_free(&b);
  free(state);
  free(joint);
  return f && cli_close_output(c, f, ok);
}

/* ---- --backend rules: the playouts through the public API ---- */

/* One random playout from the initial state on game g; adds its goals to
 * r.  GDLOG_OK, or the status of the question that failed. */
static gdlog_status rules_playout(gdlog_game *g, dl_rng *rng, play_run *r, gdlog_move *joint)
{
  gdlog_state *s = NULL, *n = NULL;
  gdlog_status st = gdlog_initial(g, &s);
  int roles = gdlog_role_count(g), terminal = 0;
  uint32_t depth = 0;
  while (st == GDLOG_OK && (st = gdlog_is_terminal(g, s, &terminal)) == GDLOG_OK && !terminal) {
    if (depth >= r->max_depth) {
      st = GDLOG_ERR_LIMIT;
      break;
    }
    for (int q = 0; st == GDLOG_OK && q < roles; q++) {
      const gdlog_move *moves;
      int k = 0;
      st = gdlog_legal(g, s, q, &moves, &k);
      if (st == GDLOG_OK) joint[q] = moves[dl_rng_below(rng, (uint32_t)k)];
    }
    if (st == GDLOG_OK) st = gdlog_next(g, s, joint, &n);
    gdlog_state_free(s);
    s = n;
    n = NULL;
    depth++;
  }
  for (int q = 0; st == GDLOG_OK && q < roles; q++) {
    int v;
    if ((st = gdlog_goal(g, s, q, &v)) == GDLOG_OK) r->goal_sum[q] += v;
  }
  gdlog_state_free(s);
  if (st != GDLOG_OK) return st;
  r->playouts++;
  r->states += depth + 1;
  if (depth < r->min_depth) r->min_depth = depth;
  if (depth > r->max_seen) r->max_seen = depth;
  return GDLOG_OK;
}

static void report_rules(cli_ctx *c, const play_run *r, gdlog_game *g, dl_buf *b)
{
  double n = r->playouts ? (double)r->playouts : 1, t = r->run_s > 0 ? r->run_s : 1e-9,
         cpu = r->cpu_s > 0 ? r->cpu_s : 1e-9, depth = (double)(r->states - r->playouts) / n;
  int json = cli_choice(c, "--format", CLI_REPORT_TEXT) == CLI_REPORT_JSON;
  if (json)
    dl_buf_addf(b, "{\"backend\": \"rules\", \"seed\": %llu, \"playouts\": %llu, \"states\": %llu, \"seconds\": %.6f,"
                " \"cpu_seconds\": %.6f, \"playouts_per_second\": %.1f, \"playouts_per_cpu_second\": %.1f,"
                " \"states_per_second\": %.1f, \"mean_depth\": %.3f, \"load_seconds\": %.6f, \"demand\": %s,"
                " \"goals\": {",
                (unsigned long long)r->seed, (unsigned long long)r->playouts, (unsigned long long)r->states, r->run_s,
                r->cpu_s, r->playouts / t, r->playouts / cpu, r->states / t, depth, r->ground_s,
                gdlog_uses_demand(g) ? "true" : "false");
  else {
    dl_buf_addf(b, "%% gdlog play %s: random playouts on the rules, seed %llu\n", c->args[0],
                (unsigned long long)r->seed);
    dl_buf_addf(b, "build      load %.4f s\n", r->ground_s);
    dl_buf_addf(b, "rules      %s\n", gdlog_uses_demand(g) ? "demand-driven (magic-set rewriting)" : "as they are");
    dl_buf_addf(b, "playouts   %llu in %.3f s: %.1f playouts/s, %.1f states/s\n", (unsigned long long)r->playouts,
                r->run_s, r->playouts / t, r->states / t);
    dl_buf_addf(b, "cpu        %.3f s of process time: %.1f playouts/s\n", r->cpu_s, r->playouts / cpu);
    dl_buf_addf(b, "depth      mean %.2f, min %u, max %u\n", depth, r->playouts ? r->min_depth : 0, r->max_seen);
  }
  for (int q = 0; q < gdlog_role_count(g); q++) {
    if (json) {
      dl_buf_addz(b, q ? ", " : "");
      dl_json_stringz(b, gdlog_role_name(g, q));
      dl_buf_addf(b, ": %.4f", r->goal_sum[q] / n);
    } else dl_buf_addf(b, "goal       %s mean %.2f\n", gdlog_role_name(g, q), r->goal_sum[q] / n);
  }
  if (json) dl_buf_addz(b, "}}\n");
}

static void rules_error(void *ctx, const char *text)
{
  cli_ctx *c = ctx;
  dl_diag_report(c->diag, DL_ERROR, NULL, 0, "%s", text);
}

/* The public API's name of --syntax (asp: refused by check_backend). */
static gdlog_syntax rules_syntax(const cli_ctx *c)
{
  int s = cli_choice(c, "--syntax", -1);
  return s == LX_KIF ? GDLOG_SYNTAX_KIF : s == LX_INFIX ? GDLOG_SYNTAX_INFIX : GDLOG_SYNTAX_AUTO;
}

/* gdlog play --backend rules. */
static int run_play_rules(cli_ctx *c, play_run *r)
{
  gdlog_options o;
  gdlog_options_init(&o);
  o.backend = GDLOG_BACKEND_RULES;
  o.demand = (gdlog_demand)cli_choice(c, "--demand", GDLOG_DEMAND_AUTO);
  o.max_atoms = c->max_atoms;
  o.cancel = dl_guard_cancel_flag();
  o.syntax = rules_syntax(c);
  o.on_error = rules_error;
  o.error_ctx = c;
  gdlog_game *g = NULL;
  double t0 = cli_now();
  int ok = gdlog_open_file(c->args[0], &o, &g) == GDLOG_OK;
  r->ground_s = cli_now() - t0;
  int roles = ok ? gdlog_role_count(g) : 0;
  gdlog_move *joint = calloc((size_t)roles + 1, sizeof *joint);
  r->goal_sum = calloc((size_t)roles + 1, sizeof *r->goal_sum);
  if (ok && (!joint || !r->goal_sum)) ok = 0, dl_diag_report(c->diag, DL_ERROR, NULL, 0, "out of memory");
  dl_rng rng;
  dl_rng_seed(&rng, r->seed);
  r->min_depth = UINT32_MAX;
  double w0 = cli_now(), c0 = cpu_now();
  for (uint64_t i = 0; ok && i < r->n; i++) {
    if ((r->time_limit > 0 && cli_now() - w0 >= r->time_limit) || dl_guard_signal()) break;
    gdlog_status st = rules_playout(g, &rng, r, joint);
    if (st == GDLOG_ERR_LIMIT && !dl_guard_signal())
      dl_diag_report(c->diag, DL_ERROR, NULL, 0, "playout %llu: no terminal state within %llu joint moves (--max-depth)",
                     (unsigned long long)i, (unsigned long long)r->max_depth);
    ok = st == GDLOG_OK;
  }
  r->run_s = cli_now() - w0;
  r->cpu_s = cpu_now() - c0;
  dl_buf b = { 0 };
  if (ok && !dl_guard_signal()) report_rules(c, r, g, &b);
  ok = ok && !dl_guard_signal() && cli_write_output(c, &b);
  dl_buf_free(&b);
  free(joint);
  free(r->goal_sum);
  gdlog_close(g);
  return ok ? CLI_OK : CLI_INPUT;
}

static int run_play(cli_ctx *c)
{
  play_run r;
  memset(&r, 0, sizeof r);
  int rc = read_options(c, &r);
  if (rc != CLI_OK) return rc;
  if (cli_choice(c, "--backend", PLAY_CIRCUIT) == PLAY_RULES) return run_play_rules(c, &r);
  double t0 = cli_now();
  dl_domains *d = NULL;
  dl_ground *g = build_ground(c, &d);
  double t1 = cli_now();
  dl_circuit_mode mode = (dl_circuit_mode)cli_choice(c, "--circuit", DL_CIRCUIT_AUTO);
  dl_circuit *k = g ? dl_circuit_create_mode(g, mode, c->diag) : NULL;
  r.ground_s = t1 - t0;
  r.compile_s = cli_now() - t1;
  int ok = k != NULL, lanes = cli_choice(c, "--lanes", LANES_AUTO);
  r.lanes = k && dl_circuit_has_wide(k) && lanes != LANES_1 ? 64 : 1;
  if (ok && lanes == LANES_64 && r.lanes != 64) {
    dl_diag_report(c->diag, DL_ERROR, NULL, 0, "--lanes 64 needs an eager circuit whose legal moves, goals and "
                   "terminal read no move: %s", dl_circuit_get_stats(k).lazy_gates ?
                   "this one is lazy (--circuit eager makes it eager)" : "here they read a move");
    ok = 0;
  }
  if (ok && cli_given(c, "--trace")) ok = run_trace(c, k, &r);
  else if (ok) {
    r.goal_sum = calloc(dl_circuit_role_count(k), sizeof *r.goal_sum);
    ok = r.goal_sum && run_playouts(c, k, &r);
    if (!r.goal_sum) dl_diag_report(c->diag, DL_ERROR, NULL, 0, "out of memory");
    dl_buf b = { 0 };
    if (ok && cli_choice(c, "--format", CLI_REPORT_TEXT) == CLI_REPORT_JSON) report_json(c, k, &r, &b);
    else if (ok) report_text(c, k, &r, &b);
    ok = ok && cli_write_output(c, &b);
    dl_buf_free(&b);
    free(r.goal_sum);
  }
  dl_circuit_destroy(k);
  dl_ground_destroy(g);
  dl_domains_destroy(d);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_play = {
  .name = "play",
  .summary = "random playouts of a game compiled into a circuit (playouts per second)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "Grounds a GDL game (as gdlog ground), compiles the ground game into a\n"
           "circuit (gates with counters, evaluated differentially: only what changes\n"
           "between states), and runs random playouts from the initial state: every\n"
           "role picks a legal move uniformly at random until a terminal state.\n"
           "Where the circuit allows it, 64 playouts run at a time, one bit each in\n"
           "every gate's 64-bit word (--lanes).\n"
           "Prints playouts and states per second, the depth and mean goal per role,\n"
           "the build time (ground, compile) and the bytes per state.  A role without\n"
           "a legal move, or without exactly one goal value at the end, is an error.\n"
           "With --backend rules the playouts run on the evaluator over the rules\n"
           "instead (through the public API, gdlog.h): slower, but for any game,\n"
           "also those that do not ground (laikLee_hex, sudoku); --demand chooses\n"
           "whether the rules are evaluated demand-driven (magic sets) or as they are.",
  .options = play_options,
  .run = run_play,
};
