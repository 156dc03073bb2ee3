/* cmd_ground.c: the ground command.  Loads the game, computes its domains
 * and G+ reduction, grounds it (datalog/gdl/ground.h) and writes the ground
 * game (datalog/write/ground_write.h) to stdout or -o FILE; --stats goes to
 * stderr. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "datalog/base/diag.h"
#include "datalog/cli/guard.h"
#include "datalog/gdl/domains.h"
#include "datalog/gdl/ground.h"
#include "datalog/gdl/reduce.h"
#include "datalog/read/load.h"
#include "datalog/write/ground_write.h"
#include "lexer.h"

int dl_cmd_ground(int argc, char **argv);

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

static const char ground_help[] =
  "usage: gdlog ground [--format kif|infix|asp|numeric] [--stats] [--stats-format text|json]\n"
  "                    [--no-prune] [--no-demand] [--from init|domains] [--syntax S]\n"
  "                    [--max-instances N] [-o FILE] FILE\n"
  "\n"
  "Grounds a GDL game (section 14.4 of the book): instantiates every rule over the\n"
  "instances the G+ reduction keeps, decides distinct and the static predicates,\n"
  "and keeps only what legal, next, goal and terminal need (role, init, base and\n"
  "input stay as facts; base and input come from G+ when the game has none).\n"
  "\n"
  "  --format F       kif (default), infix, asp (gringo) or numeric (an atom table\n"
  "                   with roles, then rules as integers; see datalog/gdl/README.md)\n"
  "  --stats          per rule: candidates, instances, kept, seconds; phases; size\n"
  "                   (rules, atoms, literals, propnet components), on stderr\n"
  "  --stats-format F text (default) or json\n"
  "  --no-prune       keep every instance made\n"
  "  --no-demand      instantiate supporting predicates fully, not on demand\n"
  "  --from M         the G+ reduction: init (default, least fixpoint) or domains\n"
  "  --syntax S       input syntax: kif or infix (default: by extension, else sniffed)\n"
  "  --max-instances N  stop with an error beyond N rule instances (default 200000000)\n"
  "  -o FILE          write the ground game to FILE\n"
  "  -h, --help       show this help\n";

typedef struct ground_cli {
  const char *file, *output;
  int syntax, stats, json, no_prune, no_demand;
  dl_ground_format format;
  dl_reduce_mode mode;
  uint64_t max_instances;
} ground_cli;

static volatile sig_atomic_t g_cancel;

static void on_signal(int sig) { g_cancel = sig; }

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage(const char *what, const char *arg)
{
  fprintf(stderr, "gdlog ground: %s%s%s\nTry 'gdlog ground --help'.\n", what, arg ? " " : "", arg ? arg : "");
  return EXIT_USAGE;
}

static int value_option(const char *a, const char *v, ground_cli *o)
{
  char *end;
  if (strcmp(a, "-o") == 0) o->output = v;
  else if (strcmp(a, "--format") == 0 && strcmp(v, "kif") == 0) o->format = DL_GROUND_KIF;
  else if (strcmp(a, "--format") == 0 && strcmp(v, "infix") == 0) o->format = DL_GROUND_INFIX;
  else if (strcmp(a, "--format") == 0 && strcmp(v, "asp") == 0) o->format = DL_GROUND_ASP;
  else if (strcmp(a, "--format") == 0 && strcmp(v, "numeric") == 0) o->format = DL_GROUND_NUMERIC;
  else if (strcmp(a, "--stats-format") == 0 && (strcmp(v, "json") == 0 || strcmp(v, "text") == 0)) {
    o->json = v[0] == 'j';
    o->stats = 1;
  } else if (strcmp(a, "--syntax") == 0 && strcmp(v, "kif") == 0) o->syntax = LX_KIF;
  else if (strcmp(a, "--syntax") == 0 && strcmp(v, "infix") == 0) o->syntax = LX_INFIX;
  else if (strcmp(a, "--from") == 0 && strcmp(v, "init") == 0) o->mode = DL_REDUCE_LFP;
  else if (strcmp(a, "--from") == 0 && strcmp(v, "domains") == 0) o->mode = DL_REDUCE_DOMAINS;
  else if (strcmp(a, "--max-instances") == 0 && v[0] >= '0' && v[0] <= '9') {
    errno = 0;
    o->max_instances = strtoull(v, &end, 10);
    if (errno || *end) return usage("--max-instances needs a number, not", v);
  } else return usage(a, v);
  return -1;
}

/* Returns -1 when the options are fine, else the exit status. */
static int parse_options(int argc, char **argv, ground_cli *o)
{
  static const char *const valued[] = { "-o", "--format", "--stats-format", "--syntax", "--from", "--max-instances" };
  memset(o, 0, sizeof *o);
  o->syntax = -1;
  o->max_instances = 200000000ULL;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    int takes = 0;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) takes |= strcmp(a, valued[k]) == 0;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { fputs(ground_help, stdout); return EXIT_OK; }
    if (strcmp(a, "--stats") == 0) o->stats = 1;
    else if (strcmp(a, "--no-prune") == 0) o->no_prune = 1;
    else if (strcmp(a, "--no-demand") == 0) o->no_demand = 1;
    else if (takes) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      int rc = value_option(a, argv[++i], o);
      if (rc >= 0) return rc;
    } else if (a[0] == '-' && a[1]) return usage("unknown option", a);
    else if (!o->file) o->file = a;
    else return usage("unexpected argument", a);
  }
  if (!o->file) return usage("no input file given", NULL);
  return -1;
}

static void print_diagnostics(const dl_diag *d)
{
  for (size_t i = 0; i < dl_diag_count(d); i++) {
    char *text = dl_diag_render(dl_diag_message(d, i));
    if (text) fputs(text, stderr);
    free(text);
  }
}

static int file_write(void *f, const char *data, size_t n) { return fwrite(data, 1, n, f) == n; }

static size_t peak_bytes(void)
{
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? (size_t)ru.ru_maxrss * 1024 : 0;
}

static int write_ground(const ground_cli *o, const dl_ground *g, dl_diag *diag)
{
  FILE *f = dl_guard_open_output(o->output);
  if (!f) {
    dl_diag_report(diag, DL_ERROR, NULL, 0, "cannot write %s: %s", o->output, strerror(errno));
    return 0;
  }
  dl_sink sink = { file_write, f };
  int ok = dl_ground_write(&sink, g, o->format);
  int write_failed = ferror(f);
  if (!ok && !write_failed) dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory");
  int placed = dl_guard_close_output(f, ok);
  if (o->output && (ok ? !placed : write_failed))
    dl_diag_report(diag, DL_ERROR, NULL, 0, "cannot write %s: %s", o->output, strerror(errno));
  return ok && placed;
}

static int run_ground(const ground_cli *o, dl_diag *diag)
{
  dl_ground_phases ph = { 0, 0, 0, 0 };
  double t0 = now();
  dl_load_options lo = { o->file, NULL, NULL, NULL, o->syntax };
  dl_loaded *l = dl_load(&lo, diag);
  double t1 = now();
  ph.parse = t1 - t0;
  dl_domains *d = l && l->prog ? dl_domains_build(l->prog, diag) : NULL;
  double t2 = now();
  ph.domains = t2 - t1;
  dl_reduce_options ro = { o->mode, 0, &g_cancel, 0 };
  dl_reduction *r = d ? dl_reduce(l->prog, d, &ro, diag) : NULL;
  ph.reduce = now() - t2;
  dl_ground_options go = { o->no_prune, !o->no_demand, o->max_instances, &g_cancel };
  dl_ground *g = r ? dl_ground_build(l->prog, r, &go, diag) : NULL;
  dl_reduction_destroy(r);
  r = NULL;
  int ok = g && write_ground(o, g, diag);
  if (g && o->stats) {
    dl_buf b = { 0 };
    ph.peak_bytes = peak_bytes();
    dl_ground_write_stats(&b, g, l->prog, &ph, o->json);
    if (!b.failed && b.len) fwrite(b.data, 1, b.len, stderr);
    dl_buf_free(&b);
  }
  print_diagnostics(diag);  /* before the sources they point into are freed */
  dl_ground_destroy(g);
  dl_domains_destroy(d);
  dl_load_destroy(l);
  return ok;
}

int dl_cmd_ground(int argc, char **argv)
{
  ground_cli o;
  int rc = parse_options(argc, argv, &o);
  if (rc >= 0) return rc;
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  dl_diag *diag = dl_diag_create();
  if (!diag) { fputs("gdlog: out of memory\n", stderr); return EXIT_INPUT; }
  int ok = run_ground(&o, diag);
  dl_diag_destroy(diag);
  int sig = g_cancel;
  if (sig) return 128 + sig;
  return ok ? EXIT_OK : EXIT_INPUT;
}
