/* cmd_reduce.c: gdlog reduce: the G+ reduction of a game (section 14.3 of
 * the book; datalog/gdl/reduce.h): per predicate the instances its domain
 * allows and those kept after each run of G+, the instances themselves
 * (--print), or G+ as a program (--program). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/json.h"
#include "datalog/base/sort.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"
#include "datalog/gdl/domains.h"
#include "datalog/gdl/reduce.h"
#include "datalog/machine/pipeline.h"
#include "datalog/write/output.h"

/* The atom limit when the domains are infinite and --max-atoms is not
 * given: G+ then may have no finite model, and this stops it soon. */
#define INFINITE_DOMAIN_ATOMS 1000000ULL

_Static_assert(DL_DEFAULT_MAX_ATOMS == 100000000, "the help of --max-atoms spells the default");

static const cli_option reduce_options[] = {
  { .name = "--from", .value = "M", .one_of = CLI_ONE_OF({ "init", DL_REDUCE_LFP }, { "domains", DL_REDUCE_DOMAINS }),
    .help = "init (default): the least fixpoint upward from init, one\n"
            "run of G+ with true(X) :- init(X). true(X) :- next(X).\n"
            "does(R,A) :- legal(R,A).\n"
            "domains: the book's iteration, downward from the domain\n"
            "sets" },
  { .name = "--print", .help = "list the surviving instances too" },
  { .name = "--print-format", .value = "F", .needs = "--print",
    .one_of = CLI_ONE_OF({ "infix", DL_FMT_INFIX }, { "kif", DL_FMT_KIF }),
    .help = "their syntax (with --print): infix (default) or kif" },
  { .name = "--show", .value = "PRED[/N],...", .repeatable = 1, .needs = "--print",
    .help = "with --print, list only the instances of these predicates,\n"
            "as gringo's #show (may be given more than once)" },
  { .name = "--program", .value = "F", .excludes = "--print",
    .one_of = CLI_ONE_OF({ "infix", DL_FMT_INFIX }, { "kif", DL_FMT_KIF }, { "asp", DL_FMT_ASP }),
    .help = "print G+ of --from init as a program in F (infix, kif,\n"
            "asp; asp is for gringo) instead of evaluating it (not with\n"
            "--from domains, --print or --format)" },
  { .name = "--format", .value = "F", .one_of = CLI_TEXT_OR_JSON, .help = "text (default) or json" },
  CLI_OPT_SYNTAX,
  { .name = "--max-atoms", .value = "N",
    .help = "stop with an error beyond N atoms per run (default\n"
            "100000000; 1000000 when recursive function symbols make\n"
            "domains infinite; 0: none)" },
  CLI_OPT_OUTPUT,
  CLI_OPT_END
};

static int pred_cmp(const void *x, const void *y, void *ctx)
{
  const dl_program *p = ctx;
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  int c = strcmp(dl_program_pred_name(p, a), dl_program_pred_name(p, b));
  return c ? c : (p->preds[a].arity > p->preds[b].arity) - (p->preds[a].arity < p->preds[b].arity);
}

/* The game's predicates in byte order of their names; NULL when out of memory. */
static uint32_t *sorted_preds(const dl_program *p)
{
  uint32_t *a = malloc((p->n_preds + 1) * sizeof *a);
  for (uint32_t i = 0; a && i < p->n_preds; i++) a[i] = i;
  if (a) dl_sort(a, p->n_preds, sizeof *a, pred_cmp, (void *)p);
  return a;
}

static void add_count(dl_buf *b, double c, int width, int json)
{
  if (isinf(c)) dl_buf_addf(b, "%*s", width, json ? "null" : "inf");
  else dl_buf_addf(b, "%*.0f", width, c);
}

static const char *mode_text(dl_reduce_mode m)
{
  return m == DL_REDUCE_DOMAINS ? "downward from the domain sets (the book's iteration)"
                                : "least fixpoint upward from init";
}

static void reduce_text(const cli_ctx *c, dl_reduce_mode mode, const dl_program *p, const dl_domains *d,
                        const dl_reduction *r, const uint32_t *order, dl_buf *b)
{
  uint32_t runs = dl_reduction_iterations(r);
  dl_buf_addf(b, "%% gdlog reduce %s: %s, %u run%s of G+\n", c->args[0], mode_text(mode), runs, runs == 1 ? "" : "s");
  if (!dl_domains_has_base(d)) dl_buf_addz(b, "% no base rules: the domain of true comes from init and next\n");
  if (!dl_domains_has_input(d)) dl_buf_addz(b, "% no input rules: the domain of does comes from legal\n");
  dl_buf_addf(b, "%% %-32s %14s", "predicate", "domain");
  for (uint32_t k = 0; k < runs; k++) {
    char col[24];
    snprintf(col, sizeof col, "run %u", k + 1);
    dl_buf_addf(b, " %14s", col);
  }
  dl_buf_addz(b, "\n");
  for (uint32_t i = 0; i < p->n_preds; i++) {
    uint32_t q = order[i];
    char name[300];
    snprintf(name, sizeof name, "%s/%u", dl_program_pred_name(p, q), p->preds[q].arity);
    dl_buf_addf(b, "%% %-32s ", name);
    add_count(b, dl_domains_pred_count(d, q), 14, 0);
    for (uint32_t k = 0; k < runs; k++) dl_buf_addf(b, " %14llu", (unsigned long long)dl_reduction_count(r, k, q));
    dl_buf_addz(b, "\n");
  }
  dl_buf_addf(b, "%% atoms of the last run %llu\n", (unsigned long long)dl_reduction_atoms(r));
  dl_buf_addf(b, "%% time of G+ %.3f s\n", dl_reduction_seconds(r));
}

static void reduce_json(const cli_ctx *c, dl_reduce_mode mode, const dl_program *p, const dl_domains *d,
                        const dl_reduction *r, const uint32_t *order, dl_buf *b)
{
  uint32_t runs = dl_reduction_iterations(r);
  dl_buf_addz(b, "{\"file\": ");
  dl_json_stringz(b, c->args[0]);
  dl_buf_addf(b, ", \"mode\": \"%s\", \"runs\": %u, \"atoms\": %llu, \"seconds\": %.3f,\n",
          mode == DL_REDUCE_DOMAINS ? "domains" : "init", runs,
          (unsigned long long)dl_reduction_atoms(r), dl_reduction_seconds(r));
  dl_buf_addf(b, " \"base\": %s, \"input\": %s,\n \"predicates\": [", dl_domains_has_base(d) ? "true" : "false",
          dl_domains_has_input(d) ? "true" : "false");
  for (uint32_t i = 0; i < p->n_preds; i++) {
    uint32_t q = order[i];
    const char *name = dl_program_pred_name(p, q);
    dl_buf_addz(b, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
    dl_json_stringz(b, name);
    dl_buf_addf(b, ", \"arity\": %u, \"domain\": ", p->preds[q].arity);
    add_count(b, dl_domains_pred_count(d, q), 0, 1);
    dl_buf_addz(b, ", \"counts\": [");
    for (uint32_t k = 0; k < runs; k++) dl_buf_addf(b, "%s%llu", k ? ", " : "", (unsigned long long)dl_reduction_count(r, k, q));
    dl_buf_addz(b, "]}");
  }
  dl_buf_addz(b, "]");
}

/* A sink that writes the lines it is given as the strings of a JSON list:
 * ",\n "instances": [\n  "l1",\n  "l2"]" (closed by json_lines_end). */
typedef struct json_lines {
  FILE *f;
  uint64_t n;       /* lines written */
  dl_buf b;         /* their JSON, until written */
} json_lines;

static int json_lines_write(void *ctx, const char *data, size_t len)
{
  json_lines *j = ctx;
  for (size_t i = 0, n = 0; i < len; i += n + 1, n = 0) {
    while (i + n < len && data[i + n] != '\n') n++;
    dl_buf_addz(&j->b, j->n++ ? ",\n  " : ",\n \"instances\": [\n  ");
    dl_json_string(&j->b, data + i, n);
  }
  int ok = !j->b.failed && (j->b.len == 0 || fwrite(j->b.data, 1, j->b.len, j->f) == j->b.len);
  j->b.len = 0;
  return ok;
}

static int json_lines_end(json_lines *j)
{
  const char *end = j->n ? "]" : ",\n \"instances\": []";
  int ok = fputs(end, j->f) >= 0;
  dl_buf_free(&j->b);
  return ok;
}

/* Writes the surviving instances, sorted, one per line or (json) as the
 * strings of a JSON list, as the evaluator's writer makes them. */
static int write_instances(FILE *f, const dl_reduction *r, int json, dl_format fmt, const uint8_t *skip)
{
  const dl_program *p = dl_reduction_program(r);
  if (!json) return dl_output_model(f, p, dl_reduction_eval(r), fmt, skip);
  json_lines j = { f, 0, { 0 } };
  dl_sink sink = { json_lines_write, &j };
  int ok = dl_output_model_to(&sink, p, dl_reduction_eval(r), fmt, skip);
  return json_lines_end(&j) && ok;
}

/* Writes G+ as a program (--program). */
static int write_program(cli_ctx *c, const dl_reduction *r)
{
  FILE *f = cli_open_output(c);
  dl_format format = (dl_format)cli_choice(c, "--program", DL_FMT_INFIX);
  return f && cli_close_output(c, f, dl_output_program(f, dl_reduction_program(r), format));
}

/* The predicates of G+ that --print leaves out (*skip: 1 to leave out):
 * those --show does not name, and the auxiliary ones. */
static int reduction_skip(cli_ctx *c, const dl_reduction *r, uint8_t **skip)
{
  const dl_program *p = dl_reduction_program(r);
  if (!cli_show_skip(c, p, skip)) return 0;
  if (!*skip && !(*skip = calloc(p->n_preds + 1, 1))) {
    dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  for (uint32_t q = 0; q < p->n_preds; q++) (*skip)[q] |= (uint8_t)dl_reduction_auxiliary(r, q);
  return 1;
}

/* Writes the report in b, then (--print) the instances straight from the
 * relations: chess's 11 M are 446 MB of text. */
static int write_reduction(cli_ctx *c, const dl_reduction *r, const dl_buf *b)
{
  int json = cli_choice(c, "--format", CLI_REPORT_TEXT) == CLI_REPORT_JSON;
  dl_format fmt = (dl_format)cli_choice(c, "--print-format", DL_FMT_INFIX);
  uint8_t *skip;
  if (!reduction_skip(c, r, &skip)) return 0;
  FILE *f = cli_open_output(c);
  int ok = f && (b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len) &&
           (!cli_given(c, "--print") || write_instances(f, r, json, fmt, skip));
  if (ok && json) ok = fputs("}\n", f) >= 0;
  free(skip);
  return f && cli_close_output(c, f, ok);
}

/* Writes the counts per predicate, and the instances. */
static int write_report(cli_ctx *c, dl_reduce_mode mode, const dl_program *game, const dl_domains *d,
                        const dl_reduction *r)
{
  uint32_t *order = sorted_preds(game);
  dl_buf b = { 0 };
  int json = cli_choice(c, "--format", CLI_REPORT_TEXT) == CLI_REPORT_JSON;
  if (order && json) reduce_json(c, mode, game, d, r, order, &b);
  else if (order) reduce_text(c, mode, game, d, r, order, &b);
  int ok = order && !b.failed;
  if (!ok) dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
  ok = ok && write_reduction(c, r, &b);
  dl_buf_free(&b);
  free(order);
  return ok;
}

/* The options that hold only in one mode; CLI_OK, or CLI_USAGE after a usage error. */
static int check_mode(const cli_ctx *c, dl_reduce_mode mode)
{
  if (cli_given(c, "--program") && mode == DL_REDUCE_DOMAINS)
    return cli_usage(c, "--program does not apply with --from domains (it prints G+ of --from init)");
  if (cli_given(c, "--program") && cli_given(c, "--format"))
    return cli_usage(c, "--format does not apply with --program (it sets the syntax of the report)");
  return cli_show_valid(c) ? CLI_OK : CLI_USAGE;
}

static int run_reduce(cli_ctx *c)
{
  dl_reduce_mode mode = (dl_reduce_mode)cli_choice(c, "--from", DL_REDUCE_LFP);
  int rc = check_mode(c, mode);
  if (rc != CLI_OK) return rc;
  dl_loaded *l = cli_load(c, c->args[0]);
  dl_game_options o;
  dl_game_options_init(&o);
  o.reduce_mode = (int)mode, o.reduce_build_only = cli_given(c, "--program"), o.stop = dl_guard_stop();
  dl_game g = { 0 };
  int ok = l && cli_show_check(c, l->prog) && dl_game_build(&g, l, &o, DL_STAGE_DOMAINS, c->diag);
  o.max_atoms = c->max_atoms_given || !ok || !dl_domains_cycle_count(g.domains) ? c->max_atoms : INFINITE_DOMAIN_ATOMS;
  dl_guard_soft(1);
  ok = ok && dl_game_build(&g, NULL, &o, DL_STAGE_REDUCE, c->diag);
  dl_guard_soft(0);
  ok = ok && !dl_guard_signal();
  if (ok && cli_given(c, "--program")) ok = write_program(c, g.reduction);
  else if (ok) ok = write_report(c, mode, l->prog, g.domains, g.reduction);
  dl_game_free(&g);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_reduce = {
  .name = "reduce",
  .summary = "the G+ reduction of a game (chapter 14.3)",
  .synopsis = "FILE",
  .min_args = 1,
  .max_args = 1,
  .about = "The G+ reduction of a GDL game (section 14.3 of the book): G+ is the game\n"
           "without its negative conditions; the instances derivable from G+ are kept,\n"
           "true(t) only where init(t) or next(t) is derivable, does(r,a) only where\n"
           "legal(r,a) is, until nothing changes.  Prints per predicate the instances\n"
           "its domain allows and those kept after each run of G+.",
  .options = reduce_options,
  .run = run_reduce,
};
