/* gdl_cmd.c: the domains and reduce commands.  Parses their options, loads
 * the game, runs the analysis (domains.h, reduce.h) and prints. */
#include "datalog/cli/gdl_cmd.h"
#include "datalog/cli/guard.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datalog/base/diag.h"
#include "datalog/gdl/domains.h"
#include "datalog/read/load.h"
#include "datalog/write/output.h"
#include "datalog/gdl/reduce.h"
#include "lexer.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* The atom limit of reduce when the domains are infinite and --max-atoms is
 * not given: G+ then may have no finite model, and this stops it soon. */
#define INFINITE_DOMAIN_ATOMS 1000000ULL

static const char domains_help[] =
  "usage: gdlog domains [--dot] [--syntax S] [-o FILE] FILE\n"
  "\n"
  "Prints the domain of every argument position of a GDL game, computed from its\n"
  "domain graph (Definition 14.1 of the book), one row per predicate and function\n"
  "symbol:  cell  {1,2,3} x {1,2,3} x {b,o,x}\n"
  "Recursive function symbols make domains infinite; the cycles are reported.\n"
  "\n"
  "  --dot        write the domain graph in Graphviz DOT instead\n"
  "  --syntax S   input syntax: kif or infix (default: by extension, else sniffed)\n"
  "  -o FILE      write the output to FILE\n"
  "  -h, --help   show this help\n";

static const char reduce_help[] =
  "usage: gdlog reduce [--from init|domains] [--print] [--format text|json]\n"
  "                    [--syntax S] [--max-atoms N] [-o FILE] FILE\n"
  "\n"
  "The G+ reduction of a GDL game (section 14.3 of the book): G+ is the game\n"
  "without its negative conditions; the instances derivable from G+ are kept,\n"
  "true(t) only where init(t) or next(t) is derivable, does(r,a) only where\n"
  "legal(r,a) is, until nothing changes.  Prints per predicate the instances\n"
  "its domain allows and those kept after each run of G+.\n"
  "\n"
  "  --from init     (default) least fixpoint upward from init: one run of G+ with\n"
  "                  true(X) :- init(X). true(X) :- next(X). does(R,A) :- legal(R,A).\n"
  "  --from domains  the book's iteration, downward from the domain sets\n"
  "  --print         list the surviving instances too\n"
  "  --print-format F  their syntax: infix (default) or kif\n"
  "  --program F     print G+ of the LFP mode as a program in F (infix, kif, asp;\n"
  "                  asp is for gringo) instead of evaluating it\n"
  "  --format F      text (default) or json\n"
  "  --syntax S      input syntax: kif or infix\n"
  "  --max-atoms N   stop with an error beyond N atoms per run (default 100000000;\n"
  "                  1000000 when recursive function symbols make domains infinite)\n"
  "  -o FILE         write the output to FILE\n"
  "  -h, --help      show this help\n";

typedef struct cmd_options {
  const char *file, *output;
  int syntax;             /* -1: guess */
  int dot, print, json;
  int program;            /* --program: 1 + dl_format */
  dl_format print_format; /* --print-format */
  int max_given;          /* --max-atoms was given */
  dl_reduce_mode mode;
  uint64_t max_atoms;
} cmd_options;

static volatile sig_atomic_t g_cancel;

static void on_signal(int sig) { g_cancel = sig; }

static int usage(const char *cmd, const char *what, const char *arg)
{
  fprintf(stderr, "gdlog %s: %s%s%s\nTry 'gdlog %s --help'.\n", cmd, what, arg ? " " : "", arg ? arg : "", cmd);
  return EXIT_USAGE;
}

/* Parses one option with a value at argv[*i]; returns -1 when fine, else the exit status. */
static int value_option(const char *cmd, char **argv, int *i, cmd_options *o)
{
  const char *a = argv[*i], *v = argv[++*i];
  char *end;
  if (strcmp(a, "-o") == 0) o->output = v;
  else if (strcmp(a, "--syntax") == 0 && strcmp(v, "kif") == 0) o->syntax = LX_KIF;
  else if (strcmp(a, "--syntax") == 0 && strcmp(v, "infix") == 0) o->syntax = LX_INFIX;
  else if (strcmp(a, "--from") == 0 && strcmp(v, "domains") == 0) o->mode = DL_REDUCE_DOMAINS;
  else if (strcmp(a, "--from") == 0 && strcmp(v, "init") == 0) o->mode = DL_REDUCE_LFP;
  else if (strcmp(a, "--program") == 0 && strcmp(v, "infix") == 0) o->program = 1 + DL_FMT_INFIX;
  else if (strcmp(a, "--program") == 0 && strcmp(v, "kif") == 0) o->program = 1 + DL_FMT_KIF;
  else if (strcmp(a, "--program") == 0 && strcmp(v, "asp") == 0) o->program = 1 + DL_FMT_ASP;
  else if (strcmp(a, "--print-format") == 0 && strcmp(v, "kif") == 0) o->print_format = DL_FMT_KIF;
  else if (strcmp(a, "--print-format") == 0 && strcmp(v, "infix") == 0) o->print_format = DL_FMT_INFIX;
  else if (strcmp(a, "--format") == 0 && (strcmp(v, "json") == 0 || strcmp(v, "text") == 0)) o->json = v[0] == 'j';
  else if (strcmp(a, "--max-atoms") == 0 && v[0] >= '0' && v[0] <= '9') {
    errno = 0;
    o->max_atoms = strtoull(v, &end, 10);
    o->max_given = 1;
    if (errno || *end) return usage(cmd, "--max-atoms needs a number, not", v);
  } else return usage(cmd, a, v);
  return -1;
}

/* Returns -1 when the options are fine, else the exit status. */
/* valued lists the command's options, " --opt " each; flags are --dot and --print. */
static int parse_options(int argc, char **argv, const char *help, const char *valued, cmd_options *o)
{
  const char *cmd = argv[1];
  memset(o, 0, sizeof *o);
  o->syntax = -1;
  o->max_atoms = 100000000ULL;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    char key[32];
    snprintf(key, sizeof key, " %s ", a);
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { fputs(help, stdout); return EXIT_OK; }
    if (strcmp(a, "--dot") == 0 && strstr(valued, " --dot ")) o->dot = 1;
    else if (strcmp(a, "--print") == 0 && strstr(valued, " --print ")) o->print = 1;
    else if (a[0] == '-' && a[1] && strstr(valued, key)) {
      if (i + 1 >= argc) return usage(cmd, "option needs a value:", a);
      int rc = value_option(cmd, argv, &i, o);
      if (rc >= 0) return rc;
    } else if (a[0] == '-' && a[1]) return usage(cmd, "unknown option", a);
    else if (!o->file) o->file = a;
    else return usage(cmd, "unexpected argument", a);
  }
  if (!o->file) return usage(cmd, "no input file given", NULL);
  return -1;
}

/* ---- loading and printing --------------------------------------------------------------------- */

static void print_diagnostics(const dl_diag *d)
{
  for (size_t i = 0; i < dl_diag_count(d); i++) {
    char *text = dl_diag_render(dl_diag_message(d, i));
    if (text) fputs(text, stderr);
    free(text);
  }
}

/* The stream for the command's output: stdout, or a temporary file beside
 * -o's path that close_output puts in place.  NULL after reporting. */
static FILE *open_output(const cmd_options *o, dl_diag *diag)
{
  FILE *f = dl_guard_open_output(o->output);
  if (!f) dl_diag_report(diag, DL_ERROR, NULL, 0, "cannot write %s: %s", o->output, strerror(errno));
  return f;
}

/* Finishes the output opened by open_output; ok: all of it was made and
 * written (else a write failed, or memory ran out: reported). */
static int close_output(const cmd_options *o, FILE *f, int ok, dl_diag *diag)
{
  int write_failed = ferror(f);
  if (!ok && !write_failed) dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory");
  int placed = dl_guard_close_output(f, ok);
  if (!o->output) return placed;
  if (ok ? !placed : write_failed)
    dl_diag_report(diag, DL_ERROR, NULL, 0, "cannot write %s: %s", o->output, strerror(errno));
  return placed && ok;
}

static int write_buf(FILE *f, const dl_buf *b) { return b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len; }

static int write_output(const cmd_options *o, const dl_buf *b, dl_diag *diag)
{
  if (b->failed) { dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory"); return 0; }
  FILE *f = open_output(o, diag);
  return f && close_output(o, f, write_buf(f, b), diag);
}

static dl_loaded *load_game(const cmd_options *o, dl_diag *diag)
{
  dl_load_options lo = { o->file, NULL, NULL, NULL, o->syntax };
  return dl_load(&lo, diag);
}

/* ---- domains ----------------------------------------------------------------------------------- */

static int run_domains(const cmd_options *o, dl_diag *diag)
{
  dl_loaded *l = load_game(o, diag);
  dl_domains *d = l && l->prog ? dl_domains_build(l->prog, diag) : NULL;
  dl_buf b = { 0 };
  if (d && o->dot) dl_domains_write_dot(d, &b);
  else if (d) dl_domains_write_table(d, &b);
  int ok = d && write_output(o, &b, diag);
  print_diagnostics(diag);  /* before the sources they point into are freed */
  dl_buf_free(&b);
  dl_domains_destroy(d);
  dl_load_destroy(l);
  return ok;
}

int dl_cmd_domains(int argc, char **argv)
{
  cmd_options o;
  int rc = parse_options(argc, argv, domains_help, " --dot --syntax -o ", &o);
  if (rc >= 0) return rc;
  dl_diag *diag = dl_diag_create();
  if (!diag) { fputs("gdlog: out of memory\n", stderr); return EXIT_INPUT; }
  int ok = run_domains(&o, diag);
  dl_diag_destroy(diag);
  return ok ? EXIT_OK : EXIT_INPUT;
}

/* ---- reduce ------------------------------------------------------------------------------------ */

static const dl_program *g_sort_prog;  /* qsort has no context argument */

static int pred_cmp(const void *x, const void *y)
{
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  int c = strcmp(dl_program_pred_name(g_sort_prog, a), dl_program_pred_name(g_sort_prog, b));
  return c ? c : (g_sort_prog->preds[a].arity > g_sort_prog->preds[b].arity) - (g_sort_prog->preds[a].arity < g_sort_prog->preds[b].arity);
}

/* The game's predicates in byte order of their names; NULL when out of memory. */
static uint32_t *sorted_preds(const dl_program *p)
{
  uint32_t *a = malloc((p->n_preds + 1) * sizeof *a);
  for (uint32_t i = 0; a && i < p->n_preds; i++) a[i] = i;
  g_sort_prog = p;
  if (a) qsort(a, p->n_preds, sizeof *a, pred_cmp);
  return a;
}

static void add_fmt(dl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_fmt(dl_buf *b, const char *fmt, ...)
{
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  dl_buf_addz(b, text);
}

static void add_count(dl_buf *b, double c, int width, int json)
{
  if (isinf(c)) add_fmt(b, "%*s", width, json ? "null" : "inf");
  else add_fmt(b, "%*.0f", width, c);
}

static void json_string(dl_buf *b, const char *z, size_t n)
{
  dl_buf_add(b, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)z[i];
    if (c == '"' || c == '\\') { dl_buf_add(b, "\\", 1); dl_buf_add(b, &z[i], 1); }
    else if (c < 0x20) add_fmt(b, "\\u%04x", c);
    else dl_buf_add(b, &z[i], 1);
  }
  dl_buf_add(b, "\"", 1);
}

static const char *mode_text(dl_reduce_mode m)
{
  return m == DL_REDUCE_DOMAINS ? "downward from the domain sets (the book's iteration)"
                                : "least fixpoint upward from init";
}

static void reduce_text(const cmd_options *o, const dl_program *p, const dl_domains *d,
                        const dl_reduction *r, const uint32_t *order, dl_buf *b)
{
  uint32_t runs = dl_reduction_iterations(r);
  add_fmt(b, "%% gdlog reduce %s: %s, %u run%s of G+\n", o->file, mode_text(o->mode), runs, runs == 1 ? "" : "s");
  if (!dl_domains_has_base(d)) dl_buf_addz(b, "% no base rules: the domain of true comes from init and next\n");
  if (!dl_domains_has_input(d)) dl_buf_addz(b, "% no input rules: the domain of does comes from legal\n");
  add_fmt(b, "%% %-32s %14s", "predicate", "domain");
  for (uint32_t k = 0; k < runs; k++) {
    char col[24];
    snprintf(col, sizeof col, "run %u", k + 1);
    add_fmt(b, " %14s", col);
  }
  dl_buf_addz(b, "\n");
  for (uint32_t i = 0; i < p->n_preds; i++) {
    uint32_t q = order[i];
    char name[300];
    snprintf(name, sizeof name, "%s/%u", dl_program_pred_name(p, q), p->preds[q].arity);
    add_fmt(b, "%% %-32s ", name);
    add_count(b, dl_domains_pred_count(d, q), 14, 0);
    for (uint32_t k = 0; k < runs; k++) add_fmt(b, " %14llu", (unsigned long long)dl_reduction_count(r, k, q));
    dl_buf_addz(b, "\n");
  }
  add_fmt(b, "%% atoms of the last run %llu\n", (unsigned long long)dl_reduction_atoms(r));
  add_fmt(b, "%% time of G+ %.3f s\n", dl_reduction_seconds(r));
}

static void reduce_json(const cmd_options *o, const dl_program *p, const dl_domains *d,
                        const dl_reduction *r, const uint32_t *order, dl_buf *b)
{
  uint32_t runs = dl_reduction_iterations(r);
  dl_buf_addz(b, "{\"file\": ");
  json_string(b, o->file, strlen(o->file));
  add_fmt(b, ", \"mode\": \"%s\", \"runs\": %u, \"atoms\": %llu, \"seconds\": %.3f,\n",
          o->mode == DL_REDUCE_DOMAINS ? "domains" : "init", runs,
          (unsigned long long)dl_reduction_atoms(r), dl_reduction_seconds(r));
  add_fmt(b, " \"base\": %s, \"input\": %s,\n \"predicates\": [", dl_domains_has_base(d) ? "true" : "false",
          dl_domains_has_input(d) ? "true" : "false");
  for (uint32_t i = 0; i < p->n_preds; i++) {
    uint32_t q = order[i];
    const char *name = dl_program_pred_name(p, q);
    dl_buf_addz(b, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
    json_string(b, name, strlen(name));
    add_fmt(b, ", \"arity\": %u, \"domain\": ", p->preds[q].arity);
    add_count(b, dl_domains_pred_count(d, q), 0, 1);
    dl_buf_addz(b, ", \"counts\": [");
    for (uint32_t k = 0; k < runs; k++) add_fmt(b, "%s%llu", k ? ", " : "", (unsigned long long)dl_reduction_count(r, k, q));
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
    json_string(&j->b, data + i, n);
  }
  int ok = !j->b.failed && write_buf(j->f, &j->b);
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
static int write_instances(FILE *f, const dl_reduction *r, int json, dl_format fmt)
{
  const dl_program *p = dl_reduction_program(r);
  if (!json) return dl_output_model(f, p, dl_reduction_eval(r), fmt, NULL);
  json_lines j = { f, 0, { 0 } };
  dl_sink sink = { json_lines_write, &j };
  int ok = dl_output_model_to(&sink, p, dl_reduction_eval(r), fmt, NULL);
  return json_lines_end(&j) && ok;
}

/* Writes G+ as a program (--program). */
static int write_program(const cmd_options *o, const dl_reduction *r, dl_diag *diag)
{
  FILE *f = open_output(o, diag);
  return f && close_output(o, f, dl_output_program(f, dl_reduction_program(r), (dl_format)(o->program - 1)), diag);
}

/* Writes the report in b, then (--print) the instances straight from the
 * relations: chess's 11 M are 446 MB of text. */
static int write_reduction(const cmd_options *o, const dl_reduction *r, const dl_buf *b, dl_diag *diag)
{
  FILE *f = open_output(o, diag);
  if (!f) return 0;
  int ok = write_buf(f, b) && (!o->print || write_instances(f, r, o->json, o->print_format));
  if (ok && o->json) ok = fputs("}\n", f) >= 0;
  return close_output(o, f, ok, diag);
}

static int run_reduce(const cmd_options *o, dl_diag *diag)
{
  dl_loaded *l = load_game(o, diag);
  dl_domains *d = l && l->prog ? dl_domains_build(l->prog, diag) : NULL;
  uint64_t limit = o->max_given || !d || !dl_domains_cycle_count(d) ? o->max_atoms : INFINITE_DOMAIN_ATOMS;
  dl_reduce_options ro = { o->mode, limit, &g_cancel, o->program != 0 };
  dl_reduction *r = d ? dl_reduce(l->prog, d, &ro, diag) : NULL;
  if (r && o->program) {
    int done = write_program(o, r, diag);
    print_diagnostics(diag);
    dl_reduction_destroy(r);
    dl_domains_destroy(d);
    dl_load_destroy(l);
    return done;
  }
  uint32_t *order = r ? sorted_preds(l->prog) : NULL;
  dl_buf b = { 0 };
  if (order && o->json) reduce_json(o, l->prog, d, r, order, &b);
  else if (order) reduce_text(o, l->prog, d, r, order, &b);
  int ok = order && !b.failed;
  if (r && !ok) dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory");
  if (ok) ok = write_reduction(o, r, &b, diag);
  print_diagnostics(diag);  /* before the sources they point into are freed */
  dl_buf_free(&b);
  free(order);
  dl_reduction_destroy(r);
  dl_domains_destroy(d);
  dl_load_destroy(l);
  return ok;
}

int dl_cmd_reduce(int argc, char **argv)
{
  cmd_options o;
  int rc = parse_options(argc, argv, reduce_help, " --from --print --print-format --program --format --syntax --max-atoms -o ", &o);
  if (rc >= 0) return rc;
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  dl_diag *diag = dl_diag_create();
  if (!diag) { fputs("gdlog: out of memory\n", stderr); return EXIT_INPUT; }
  int ok = run_reduce(&o, diag);
  dl_diag_destroy(diag);
  int sig = g_cancel;
  if (sig) return 128 + sig;
  return ok ? EXIT_OK : EXIT_INPUT;
}
