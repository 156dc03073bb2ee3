/* opts.c: the one option parser of the command line, driven by the
 * commands' tables (cli.h), and the help texts made from them. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"
#include "datalog/machine/pipeline.h"

enum { HELP_COLUMN = 22 };  /* where the help text of an option starts */

_Static_assert(DL_DEFAULT_MAX_ATOMS == 100000000, "the help of --max-atoms spells the default");

/* The options every command takes; a command's table may redefine one
 * (its own help text, e.g. reduce's --max-atoms). */
static const cli_option common_options[] = {
  { .name = "--max-atoms", .value = "N",
    .help = "stop with an error beyond N atoms (default 100000000;\n0: none)" },
  { .name = "--max-memory", .value = "MIB",
    .help = "stop with an error beyond MIB MiB of memory (default:\n"
            "3/4 of physical memory; 0: none); a suffix G means GiB" },
  { .name = "--timeout", .value = "SEC", .help = "stop with an error after SEC seconds (default: none)" },
  { .name = "--no-warnings", .excludes = "--warnings-as-errors", .help = "do not print warnings" },
  { .name = "--warnings-as-errors", .excludes = "--no-warnings",
    .help = "stop with exit status 1 at any warning" },
  { .name = "--help", .help = "show this help (also -h)" },
  CLI_OPT_END
};

static const cli_option *find_in(const cli_option *table, const char *name, size_t len)
{
  for (const cli_option *o = table; o->name; o++)
    if (strlen(o->name) == len && memcmp(o->name, name, len) == 0) return o;
  return NULL;
}

/* Option name[0..len) of command cmd: its own, else a common one. */
static const cli_option *find_option(const cli_command *cmd, const char *name, size_t len)
{
  const cli_option *o = find_in(cmd->options, name, len);
  return o ? o : find_in(common_options, name, len);
}

int cli_has(const cli_ctx *c, const char *name)
{
  return find_option(c->cmd, name, strlen(name)) != NULL;
}

const char *cli_value_at(const cli_ctx *c, const char *name, int i)
{
  const cli_option *o = find_option(c->cmd, name, strlen(name));
  assert(o && "an option of the command's table (cli_has tells)");
  for (int k = 0; k < c->n_given; k++)
    if (c->given[k].opt == o && i-- == 0) return c->given[k].value;
  return NULL;
}

const char *cli_value(const cli_ctx *c, const char *name) { return cli_value_at(c, name, 0); }

int cli_given(const cli_ctx *c, const char *name)
{
  const cli_option *o = find_option(c->cmd, name, strlen(name));
  assert(o && "an option of the command's table (cli_has tells)");
  for (int k = 0; k < c->n_given; k++)
    if (c->given[k].opt == o) return 1;
  return 0;
}

/* What word v stands for among the values of o into *value; 0 when it is
 * none of them. */
static int word_value(const cli_option *o, const char *v, int *value)
{
  const cli_enum *e = o->one_of;
  while (e->name && strcmp(e->name, v) != 0) e++;
  if (e->name) *value = e->value;
  return e->name != NULL;
}

/* The words o takes, "a|b|c", into out[0..cap) (cut short when longer). */
static void list_words(const cli_option *o, char *out, size_t cap)
{
  size_t n = 0;
  out[0] = 0;
  for (const cli_enum *e = o->one_of; e && e->name && n < cap; e++)
    n += (size_t)snprintf(out + n, cap - n, "%s%s", e == o->one_of ? "" : "|", e->name);
}

int cli_choice_at(const cli_ctx *c, const char *name, int i, int dflt)
{
  const cli_option *o = find_option(c->cmd, name, strlen(name));
  assert(o && o->one_of);
  const char *v = cli_value_at(c, name, i);
  int value;
  return v && word_value(o, v, &value) ? value : dflt;
}

int cli_choice(const cli_ctx *c, const char *name, int dflt) { return cli_choice_at(c, name, 0, dflt); }

/* ---- counts and the numbers of the common options ---- */

/* The number that the n decimal digits at s spell into *v; 0 when it is
 * above UINT64_MAX. */
static int digits_value(const char *s, size_t n, uint64_t *v)
{
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned d = (unsigned)(s[i] - '0');
    if (x > (UINT64_MAX - d) / 10) return 0;
    x = x * 10 + d;
  }
  *v = x;
  return 1;
}

int cli_parse_count(const char *s, uint64_t *n)
{
  assert(s && n);
  size_t k = strspn(s, "0123456789");
  if (k == 0 || s[k]) {
    errno = EINVAL;
    return 0;
  }
  if (!digits_value(s, k, n)) {
    errno = ERANGE;
    return 0;
  }
  return 1;
}

/* A size in MiB, or in GiB with a suffix G. */
static int parse_mib(const char *s, uint64_t *n)
{
  size_t k = strspn(s, "0123456789");
  uint64_t v;
  if (k == 0 || !digits_value(s, k, &v)) return 0;
  const char *unit = s + k;
  if ((*unit == 'G' || *unit == 'g') && v < (1ULL << 40)) v <<= 10, unit++;
  else if (*unit == 'M' || *unit == 'm') unit++;
  *n = v;
  return *unit == 0;
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

/* Option name's value v as a count in min..max into *n; 0 after a usage
 * error. */
static int count_value(const cli_ctx *c, const char *name, const char *v, uint64_t min, uint64_t max, uint64_t *n)
{
  uint64_t x = 0;
  int parsed = cli_parse_count(v, &x);
  if (!parsed && errno != ERANGE) return !cli_usage(c, "%s needs a number, not '%s'", name, v);
  if (parsed && x >= min && x <= max) {
    *n = x;
    return 1;
  }
  unsigned long long lo = min, hi = max;
  if (min == 0) return !cli_usage(c, "%s needs a number up to %llu, not '%s'", name, hi, v);
  if (parsed && x < min && max == UINT64_MAX)
    return !cli_usage(c, "%s needs a number of at least %llu, not '%s'", name, lo, v);
  return !cli_usage(c, "%s needs a number from %llu to %llu, not '%s'", name, lo, hi, v);
}

int cli_count_range(const cli_ctx *c, const char *name, uint64_t dflt, uint64_t min, uint64_t max, uint64_t *n)
{
  assert(min <= max);
  const char *v = cli_value(c, name);
  *n = dflt;
  return !v || count_value(c, name, v, min, max, n);
}

int cli_count(const cli_ctx *c, const char *name, uint64_t dflt, uint64_t *n)
{
  return cli_count_range(c, name, dflt, 0, UINT64_MAX, n);
}

int cli_goal_value(const cli_ctx *c, const char *name, int32_t *v)
{
  const char *s = cli_value(c, name);
  uint64_t x = 0;
  *v = -1;
  if (s && (!cli_parse_count(s, &x) || x > 100)) return !cli_usage(c, "%s needs a goal value from 0 to 100", name);
  if (s) *v = (int32_t)x;
  return 1;
}

/* Converts the common options' values; returns 1, or 0 after a usage error. */
static int common_values(cli_ctx *c)
{
  const char *v;
  c->max_memory = dl_guard_default_memory();
  if (!cli_count(c, "--max-atoms", DL_DEFAULT_MAX_ATOMS, &c->max_atoms)) return 0;
  c->max_atoms_given = cli_given(c, "--max-atoms");
  if ((v = cli_value(c, "--max-memory")) && !parse_mib(v, &c->max_memory))
    return !cli_usage(c, "--max-memory needs a size in MiB, not '%s'", v);
  if ((v = cli_value(c, "--timeout")) && !parse_seconds(v, &c->timeout))
    return !cli_usage(c, "--timeout needs a number of seconds, not '%s'", v);
  c->no_warnings = cli_given(c, "--no-warnings");
  c->warnings_as_errors = cli_given(c, "--warnings-as-errors");
  return 1;
}

/* ---- parsing ---- */

/* 1 when some command of all (or gdlog itself) has an option name[0..len). */
static int other_command_has(const cli_command *const *all, const char *name, size_t len)
{
  if (len == 9 && memcmp(name, "--version", 9) == 0) return 1;
  for (int i = 0; all[i]; i++)
    if (find_in(all[i]->options, name, len)) return 1;
  return 0;
}

/* The checks between options: excludes and needs.  1, or 0 after a usage error. */
static int check_relations(const cli_ctx *c)
{
  for (int k = 0; k < c->n_given; k++) {
    const cli_option *o = c->given[k].opt;
    if (o->excludes && cli_has(c, o->excludes) && cli_given(c, o->excludes))
      return !cli_usage(c, "%s cannot be given with %s", o->name, o->excludes);
    if (o->needs && !(cli_has(c, o->needs) && cli_given(c, o->needs)))
      return !cli_usage(c, "%s needs %s", o->name, o->needs);
  }
  return 1;
}

/* Records option argv[*i] (with its value, from "=value" or the next
 * argument).  Returns -1 when fine, else the exit status. */
static int take_option(cli_ctx *c, const cli_command *const *all, int argc, char **argv, int *i)
{
  const char *a = argv[*i];
  const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
  size_t len = eq ? (size_t)(eq - a) : strlen(a);
  if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
    cli_help(stdout, c->cmd, all);
    return CLI_OK;
  }
  const cli_option *o = find_option(c->cmd, a, len);
  if (!o && other_command_has(all, a, len))
    return cli_usage(c, "option '%.*s' does not apply to %s", (int)len, a, c->cmd->name);
  if (!o) return cli_usage(c, "unknown option '%.*s'", (int)len, a);
  if (!o->value && eq) return cli_usage(c, "option '%s' takes no value", o->name);
  const char *value = eq ? eq + 1 : NULL;
  if (o->value && !eq) {
    if (*i + 1 >= argc) return cli_usage(c, "option '%s' needs a value", o->name);
    value = argv[++*i];
  }
  int meaning;
  if (o->one_of && !word_value(o, value, &meaning)) {
    char words[256];
    list_words(o, words, sizeof words);
    return cli_usage(c, "unknown value '%s' for %s (one of: %s)", value, o->name, words);
  }
  if (o->value && !o->repeatable && cli_given(c, o->name))
    return cli_usage(c, "option '%s' given twice", o->name);
  c->given[c->n_given].opt = o;
  c->given[c->n_given++].value = value;
  return -1;
}

int cli_parse(cli_ctx *c, const cli_command *cmd, const cli_command *const *all, int argc, char **argv)
{
  c->cmd = cmd;
  c->given = calloc((size_t)argc + 1, sizeof *c->given);
  const char **args = calloc((size_t)argc + 1, sizeof *args);
  c->args = args;
  if (!c->given || !args) {
    fputs("gdlog: out of memory\n", stderr);
    return CLI_INPUT;
  }
  int only_args = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!only_args && strcmp(a, "--") == 0) only_args = 1;
    else if (only_args || a[0] != '-' || a[1] == 0) args[c->n_args++] = a;
    else {
      int rc = take_option(c, all, argc, argv, &i);
      if (rc >= 0) return rc;
    }
  }
  if (c->n_args < cmd->min_args) return cli_usage(c, "no input file given");
  if (c->n_args > cmd->max_args) return cli_usage(c, "unexpected argument '%s'", args[cmd->max_args]);
  if (!check_relations(c) || !common_values(c)) return CLI_USAGE;
  return -1;
}

/* ---- help ---- */

static void print_text(FILE *f, const char *text, int indent)
{
  for (const char *p = text; *p; p++) {
    fputc(*p, f);
    if (*p == '\n') fprintf(f, "%*s", indent, "");
  }
  fputc('\n', f);
}

static void print_options(FILE *f, const cli_option *table, const cli_command *cmd)
{
  for (const cli_option *o = table; o->name; o++) {
    if (table == common_options && find_in(cmd->options, o->name, strlen(o->name))) continue;
    int n = fprintf(f, "  %s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
    if (n >= HELP_COLUMN) fprintf(f, "\n%*s", HELP_COLUMN, "");
    else fprintf(f, "%*s", HELP_COLUMN - n, "");
    print_text(f, o->help, HELP_COLUMN);
  }
}

static void print_commands(FILE *f, const cli_command *const *all)
{
  fputs("usage: gdlog COMMAND [OPTIONS] FILE\n"
        "       gdlog COMMAND --help\n"
        "       gdlog --version\n"
        "\n"
        "Reads a GDL game or a Datalog program (prefix KIF or the book's infix syntax)\n"
        "and computes with it.  FILE may be - for standard input.\n"
        "\n"
        "commands:\n", f);
  int width = 0;
  for (int i = 0; all[i]; i++)
    if ((int)strlen(all[i]->name) > width) width = (int)strlen(all[i]->name);
  for (int i = 0; all[i]; i++) fprintf(f, "  %-*s  %s\n", width, all[i]->name, all[i]->summary);
  fputs("\n"
        "'gdlog COMMAND --help' lists the options of a command.  Every command takes\n"
        "--max-atoms N, --max-memory MIB, --timeout SEC, --no-warnings and\n"
        "--warnings-as-errors; an option may be written --opt VALUE or --opt=VALUE.\n"
        "\n"
        "exit status: 0 success, 1 bad input or a limit reached, 2 wrong usage,\n"
        "130 or 143 when stopped by SIGINT or SIGTERM\n", f);
}

void cli_help(FILE *f, const cli_command *cmd, const cli_command *const *all)
{
  if (!cmd) {
    print_commands(f, all);
    return;
  }
  fprintf(f, "usage: gdlog %s [OPTIONS] %s\n\n", cmd->name, cmd->synopsis);
  print_text(f, cmd->about, 0);
  if (cmd->options[0].name) {
    fputs("\noptions:\n", f);
    print_options(f, cmd->options, cmd);
  }
  fputs("\ncommon options:\n", f);
  print_options(f, common_options, cmd);
}
