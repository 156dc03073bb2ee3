/* main.c: the gdlog command line.  The only place that prints or exits. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "datalog/program/check.h"
#include "datalog/base/diag.h"
#include "datalog/eval/eval.h"
#include "datalog/cli/gdl_cmd.h"
#include "datalog/cli/guard.h"
#include "datalog/read/load.h"
#include "lexer.h"
#include "datalog/write/output.h"
#include "datalog/program/program.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
  "usage: gdlog COMMAND [OPTIONS] FILE\n"
  "\n"
  "Reads a GDL game or a Datalog program (prefix KIF or the book's infix syntax)\n"
  "and computes with it.  FILE may be - for standard input.\n"
  "\n"
  "commands:\n"
  "  model    print the minimal model, one atom per line, sorted\n"
  "  print    print the program again after checking it\n"
  "  check    check the program (syntax, safety, arities, GDL rules, stratification)\n"
  "  domains  the domain of every argument position (gdlog domains --help)\n"
  "  reduce   the G+ reduction of a game (gdlog reduce --help)\n"
  "\n"
  "options:\n"
  "  --format F       output syntax: infix (default) or kif; print also takes asp\n"
  "  --syntax S       input syntax: kif or infix (default: by extension, else sniffed)\n"
  "  --init           add true(T) for every derived init(T): the initial state\n"
  "  --state FILE     add the facts of FILE as the current state (true(T) or bare T)\n"
  "  --does FILE      add the does(R,A) facts of FILE as the players' moves\n"
  "  --max-atoms N    stop with an error beyond N atoms (default 100000000; 0: none)\n"
  "  --max-memory MIB stop with an error beyond MIB MiB of memory (default: 3/4 of\n"
  "                   physical memory; 0: none); a suffix G means GiB\n"
  "  --timeout SEC    stop with an error after SEC seconds (default: none)\n"
  "  --stats          print strata, atoms per relation, time and memory on stderr\n"
  "  -o FILE          write the output to FILE (replaced only when all went well)\n"
  "  -h, --help       show this help\n"
  "  --version        show the version\n"
  "\n"
  "exit status: 0 success, 1 bad input or a limit reached, 2 wrong usage\n";

typedef struct options {
  const char *command;
  const char *file;
  const char *state_file;
  const char *does_file;
  const char *output;
  dl_format format;
  int syntax;            /* -1: guess; else lx_syntax */
  int init;
  int stats;
  uint64_t max_atoms;
  uint64_t max_memory;   /* MiB; 0: no limit */
  double timeout;        /* seconds; 0: no limit */
} options;

/* ---- argument parsing -------------------------------------------------------- */

static int usage_error(const char *fmt, const char *arg)
{
  fprintf(stderr, "gdlog: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'gdlog --help'.\n");
  return EXIT_USAGE;
}

static int parse_format(const char *s, dl_format *f)
{
  if (strcmp(s, "infix") == 0) *f = DL_FMT_INFIX;
  else if (strcmp(s, "kif") == 0) *f = DL_FMT_KIF;
  else if (strcmp(s, "asp") == 0) *f = DL_FMT_ASP;
  else return 0;
  return 1;
}

static int parse_count(const char *s, uint64_t *n)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-') return 0;
  *n = v;
  return 1;
}

/* A size in MiB, or in GiB with a suffix G. */
static int parse_mib(const char *s, uint64_t *n)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || s[0] == '-') return 0;
  if ((*end == 'G' || *end == 'g') && v < (1ULL << 40)) { v <<= 10; end++; }
  else if (*end == 'M' || *end == 'm') end++;
  *n = v;
  return *end == 0;
}

static int parse_seconds(const char *s, double *t)
{
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= 0 && v <= 1e8)) return 0;
  *t = v;
  return 1;
}

/* Returns -1 when the options are fine, else the exit status. */
static int parse_args(int argc, char **argv, options *o)
{
  memset(o, 0, sizeof *o);
  o->syntax = -1;
  o->max_atoms = 100000000ULL;
  o->max_memory = dl_guard_default_memory();
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = strcmp(a, "--format") == 0 || strcmp(a, "--syntax") == 0 || strcmp(a, "--state") == 0 ||
                strcmp(a, "--does") == 0 || strcmp(a, "--max-atoms") == 0 || strcmp(a, "-o") == 0 ||
                strcmp(a, "--max-memory") == 0 || strcmp(a, "--timeout") == 0;
    if (takes && !next) return usage_error("option %s needs a value", a);
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return EXIT_OK;
    } else if (strcmp(a, "--version") == 0) {
      printf("gdlog %s\n", GDLOG_VERSION);
      return EXIT_OK;
    } else if (strcmp(a, "--format") == 0) {
      if (!parse_format(next, &o->format)) return usage_error("unknown format '%s' (infix, kif, asp)", next);
      i++;
    } else if (strcmp(a, "--syntax") == 0) {
      if (strcmp(next, "kif") == 0) o->syntax = LX_KIF;
      else if (strcmp(next, "infix") == 0) o->syntax = LX_INFIX;
      else return usage_error("unknown syntax '%s' (kif, infix)", next);
      i++;
    } else if (strcmp(a, "--state") == 0) {
      o->state_file = argv[++i];
    } else if (strcmp(a, "--does") == 0) {
      o->does_file = argv[++i];
    } else if (strcmp(a, "--max-atoms") == 0) {
      if (!parse_count(next, &o->max_atoms)) return usage_error("--max-atoms needs a number, not '%s'", next);
      i++;
    } else if (strcmp(a, "--max-memory") == 0) {
      if (!parse_mib(next, &o->max_memory)) return usage_error("--max-memory needs a size in MiB, not '%s'", next);
      i++;
    } else if (strcmp(a, "--timeout") == 0) {
      if (!parse_seconds(next, &o->timeout)) return usage_error("--timeout needs a number of seconds, not '%s'", next);
      i++;
    } else if (strcmp(a, "-o") == 0) {
      o->output = argv[++i];
    } else if (strcmp(a, "--init") == 0) {
      o->init = 1;
    } else if (strcmp(a, "--stats") == 0) {
      o->stats = 1;
    } else if (a[0] == '-' && a[1] != 0) {
      return usage_error("unknown option '%s'", a);
    } else if (!o->command) {
      o->command = a;
    } else if (!o->file) {
      o->file = a;
    } else {
      return usage_error("unexpected argument '%s'", a);
    }
  }
  if (!o->command) return usage_error("%s", "no command given (model, print, check)");
  if (strcmp(o->command, "model") && strcmp(o->command, "print") && strcmp(o->command, "check"))
    return usage_error("unknown command '%s' (model, print, check)", o->command);
  if (!o->file) return usage_error("%s", "no input file given");
  if (strcmp(o->command, "model") == 0 && o->format == DL_FMT_ASP)
    return usage_error("%s", "model prints infix or kif, not asp");
  return -1;
}

typedef struct session {
  options opt;
  dl_diag *diag;
  dl_loaded *loaded;
  dl_eval *eval;
  double t_eval, t_output;
  long kib_load, kib_eval, kib_output;  /* peak memory at the end of each phase */
} session;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int load(session *s)
{
  dl_load_options lo = { s->opt.file, s->opt.state_file, s->opt.does_file,
                         s->opt.init ? "true(X) :- init(X)." : NULL, s->opt.syntax };
  s->loaded = dl_load(&lo, s->diag);
  return s->loaded && s->loaded->prog;
}

static long peak_kib(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* Prints where a rule is, as file:line:col. */
static void print_rule_place(const dl_rule *rule)
{
  unsigned line = 0, col = 0;
  if (rule->src) lx_position(rule->src->text, rule->off, &line, &col);
  fprintf(stderr, "%s:%u:%u", rule->src ? rule->src->name : "?", line, col);
}

enum { TOP_RULES = 8 };

/* Prints the rules with a body that took the most time (facts and rules
 * not run as subsumed are left out), with their place and figures. */
static void print_rule_stats(const session *s)
{
  const ast_program *ast = s->loaded->prog->ast;
  uint32_t top[TOP_RULES], n = 0;
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    dl_eval_rule_stats rs = dl_eval_get_rule_stats(s->eval, r);
    if (ast->rules[r].n_body == 0 || rs.subsumed_by != DL_NOT_SUBSUMED) continue;
    double t = rs.seconds;
    uint32_t i = n < TOP_RULES ? n++ : TOP_RULES;
    while (i > 0 && dl_eval_get_rule_stats(s->eval, top[i - 1]).seconds < t) {
      if (i < TOP_RULES) top[i] = top[i - 1];
      i--;
    }
    if (i < TOP_RULES) top[i] = r;
  }
  fprintf(stderr, "costliest rules (seconds, derivations, of them staged as products, versions run, "
                  "of them planned heads first, skipped as saturated):\n");
  for (uint32_t i = 0; i < n; i++) {
    dl_eval_rule_stats rs = dl_eval_get_rule_stats(s->eval, top[i]);
    fprintf(stderr, "  ");
    print_rule_place(&ast->rules[top[i]]);
    fprintf(stderr, "  %.3f s  %llu  %llu  %u  %u  %u\n", rs.seconds, (unsigned long long)rs.derivations,
            (unsigned long long)rs.in_products, rs.runs, rs.heads_first, rs.saturated);
  }
}

/* Prints the rules the evaluator left out because another subsumes them,
 * each with a rule that subsumes it. */
static void print_subsumed(const session *s, uint32_t n)
{
  const ast_program *ast = s->loaded->prog->ast;
  fprintf(stderr, "rules not run, as another rule subsumes them: %u\n", n);
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    uint32_t by = dl_eval_get_rule_stats(s->eval, r).subsumed_by;
    if (by == DL_NOT_SUBSUMED) continue;
    fprintf(stderr, "  ");
    print_rule_place(&ast->rules[r]);
    fprintf(stderr, " by ");
    print_rule_place(&ast->rules[by]);
    fprintf(stderr, "\n");
  }
}

static void print_stats(const session *s)
{
  const dl_program *p = s->loaded->prog;
  const st_strata *st = p->strata;
  uint32_t strata = 0, recursive = 0;
  for (uint32_t c = 0; c < st->n_sccs; c++) {
    if (st->stratum[c] + 1 > strata) strata = st->stratum[c] + 1;
    recursive += st->recursive[c];
  }
  fprintf(stderr, "predicates %u, rules %u, components %u (%u recursive), strata %u\n", p->n_preds,
          p->ast->n_rules, st->n_sccs, recursive, strata);
  if (s->eval) {
    dl_eval_stats es = dl_eval_get_stats(s->eval);
    fprintf(stderr, "atoms %llu, derivations %llu (%llu staged as products), rounds %u, terms %u\n",
            (unsigned long long)es.atoms, (unsigned long long)es.derivations, (unsigned long long)es.in_products,
            es.rounds, dl_terms_count(s->loaded->terms));
    uint8_t *shown = calloc(p->n_preds + 1, 1);
    for (uint32_t c = 0; shown && c < st->n_sccs; c++) {
      uint32_t n;
      const uint32_t *preds = dl_program_component_preds(p, c, &n);
      for (uint32_t i = 0; i < n; i++) {
        uint32_t pr = preds[i];
        if (shown[pr]++) continue;
        fprintf(stderr, "  stratum %u  %-32s %10llu atoms\n", st->stratum[c], dl_program_pred_name(p, pr),
                (unsigned long long)ix_relation_size(dl_eval_relation(s->eval, pr)));
      }
    }
    free(shown);
    if (es.subsumed) print_subsumed(s, es.subsumed);
    print_rule_stats(s);
  }
  fprintf(stderr, "time: parse %.3f s, check %.3f s, evaluate %.3f s, output %.3f s\n",
          s->loaded->parse_seconds, s->loaded->check_seconds, s->t_eval, s->t_output);
  fprintf(stderr, "peak memory: after loading %.1f MiB, after evaluating %.1f MiB, after output %.1f MiB\n",
          s->kib_load / 1024.0, (s->kib_eval ? s->kib_eval : s->kib_load) / 1024.0, peak_kib() / 1024.0);
}

static int run_command(session *s)
{
  const options *o = &s->opt;
  s->kib_load = peak_kib();
  if (strcmp(o->command, "check") == 0) return 1;
  if (strcmp(o->command, "model") == 0) {
    dl_eval_options eo = { o->max_atoms, dl_guard_cancel_flag() };
    double t0 = now();
    dl_guard_soft(1);
    s->eval = dl_eval_create(s->loaded->prog, &eo, s->diag);
    int ok = s->eval && dl_eval_run(s->eval);
    dl_guard_soft(0);
    if (!ok || dl_guard_signal()) return 0;
    s->t_eval = now() - t0;
    s->kib_eval = peak_kib();
  }
  double t0 = now();
  FILE *out = dl_guard_open_output(o->output);  /* stdout, or a temporary file beside it */
  if (!out) {
    dl_diag_report(s->diag, DL_ERROR, NULL, 0, "cannot write %s: %s", o->output, strerror(errno));
    return 0;
  }
  const dl_program *prog = s->loaded->prog;
  int ok = s->eval ? dl_output_model(out, prog, s->eval, o->format, NULL) : dl_output_program(out, prog, o->format);
  int err = errno;
  ok = dl_guard_close_output(out, ok);
  if (!ok && errno == 0) errno = err;
  if (!ok) dl_diag_report(s->diag, DL_ERROR, NULL, 0, "cannot write the output%s%s: %s", o->output ? " to " : "",
                          o->output ? o->output : "", strerror(errno ? errno : EIO));
  s->t_output = now() - t0;
  return ok;
}

/* The evaluator's own note of a stop that guard.c explains better. */
static int is_stop_note(const dl_message *m)
{
  return dl_guard_signal() && !m->src && strcmp(m->text, "interrupted") == 0;
}

static int mentions_memory(const dl_diag *d)
{
  for (size_t i = 0; i < dl_diag_count(d); i++) {
    const char *z = dl_diag_message(d, i)->text;
    if (strstr(z, "out of memory") || strstr(z, "Cannot allocate memory")) return 1;
  }
  return 0;
}

static void print_diagnostics(const dl_diag *d)
{
  for (size_t i = 0; i < dl_diag_count(d); i++) {
    if (is_stop_note(dl_diag_message(d, i))) continue;
    char *text = dl_diag_render(dl_diag_message(d, i));
    if (text) fputs(text, stderr);
    free(text);
  }
  size_t shown = 0;
  for (size_t i = 0; i < dl_diag_count(d); i++) shown += dl_diag_message(d, i)->severity == DL_ERROR;
  if (dl_diag_errors(d) > shown)
    fprintf(stderr, "gdlog: %zu more errors not shown\n", dl_diag_errors(d) - shown);
  if (dl_guard_memory() && mentions_memory(d))
    fprintf(stderr, "gdlog: note: memory is limited to %llu MiB; raise the limit with --max-memory MIB (0: none)\n",
            (unsigned long long)dl_guard_memory());
  if (dl_guard_stop_message()) fputs(dl_guard_stop_message(), stderr);
}

static void session_free(session *s)
{
  dl_eval_destroy(s->eval);
  dl_load_destroy(s->loaded);
  dl_diag_destroy(s->diag);
}

int dl_cmd_ground(int argc, char **argv); /* cmd_ground.c */

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "ground") == 0) return dl_cmd_ground(argc, argv);
  if (argc > 1 && strcmp(argv[1], "domains") == 0) return dl_cmd_domains(argc, argv);
  if (argc > 1 && strcmp(argv[1], "reduce") == 0) return dl_cmd_reduce(argc, argv);
  session s;
  memset(&s, 0, sizeof s);
  int rc = parse_args(argc, argv, &s.opt);
  if (rc >= 0) return rc;
  dl_guard_install();
  dl_guard_set_memory(s.opt.max_memory);
  dl_guard_set_timeout(s.opt.timeout);
  s.diag = dl_diag_create();
  int ok = s.diag && load(&s) && run_command(&s);
  if (!s.diag) fputs("gdlog: out of memory\n", stderr);
  else print_diagnostics(s.diag);
  if (s.opt.stats && s.loaded && s.loaded->prog) print_stats(&s);
  int sig = dl_guard_signal();
  session_free(&s);
  if (sig) return sig == SIGALRM ? EXIT_INPUT : 128 + sig;
  return ok ? EXIT_OK : EXIT_INPUT;
}
