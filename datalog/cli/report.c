/* report.c: the one printer of diagnostics and usage errors of the
 * command line (cli.h).  Every command prints through it, so that
 * --no-warnings and --warnings-as-errors mean the same everywhere. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"

int cli_usage(const cli_ctx *c, const char *fmt, ...)
{
  const char *cmd = c && c->cmd ? c->cmd->name : NULL;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "gdlog%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'gdlog%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
  va_end(ap);
  return CLI_USAGE;
}

int cli_warn(cli_ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  dl_diag_vreport(c->diag, DL_WARNING, NULL, 0, fmt, ap);
  va_end(ap);
  return !c->warnings_as_errors;
}

size_t cli_warnings(const cli_ctx *c) { return c->diag ? dl_diag_warnings(c->diag) : 0; }

int cli_ok(const cli_ctx *c) { return !c->warnings_as_errors || cli_warnings(c) == 0; }

/* The evaluator's own note of a stop that guard.c explains better. */
static int is_stop_note(const dl_message *m)
{
  return dl_guard_signal() && !m->src && strcmp(m->text, "interrupted") == 0;
}

/* Whether message m is printed; a note goes with the warning or error
 * before it. */
static int shown(cli_ctx *c, const dl_message *m)
{
  if (m->severity == DL_WARNING) c->hiding = c->no_warnings;
  else if (m->severity == DL_ERROR) c->hiding = 0;
  return !c->hiding && !is_stop_note(m);
}

void cli_report_drop(cli_ctx *c)
{
  dl_diag_clear(c->diag);
  c->printed = 0;
  c->hiding = 0;
}

void cli_report(cli_ctx *c)
{
  if (!c->diag) return;
  for (; c->printed < dl_diag_count(c->diag); c->printed++) {
    const dl_message *m = dl_diag_message(c->diag, c->printed);
    if (!shown(c, m)) continue;
    char *text = dl_diag_render(m);
    if (text) fputs(text, stderr);
    else fputs("gdlog: out of memory\n", stderr);
    free(text);
  }
}


void cli_report_end(cli_ctx *c)
{
  if (!c->diag || c->ended) return;
  c->ended = 1;
  size_t errors = 0, warnings = 0;
  for (size_t i = 0; i < dl_diag_count(c->diag); i++) {
    errors += dl_diag_message(c->diag, i)->severity == DL_ERROR;
    warnings += dl_diag_message(c->diag, i)->severity == DL_WARNING;
  }
  if (dl_diag_errors(c->diag) > errors)
    fprintf(stderr, "gdlog: %zu more errors not shown\n", dl_diag_errors(c->diag) - errors);
  if (!c->no_warnings && dl_diag_warnings(c->diag) > warnings)
    fprintf(stderr, "gdlog: %zu more warnings not shown\n", dl_diag_warnings(c->diag) - warnings);
  if (dl_guard_memory() && dl_diag_last_cause(c->diag) == DL_CAUSE_NOMEM)
    fprintf(stderr, "gdlog: note: memory is limited to %llu MiB; raise the limit with --max-memory MIB (0: none)\n",
            (unsigned long long)dl_guard_memory());
  if (dl_guard_stop_message()) fputs(dl_guard_stop_message(), stderr);
  if (!cli_ok(c)) fputs("gdlog: error: warnings are errors (--warnings-as-errors)\n", stderr);
}
