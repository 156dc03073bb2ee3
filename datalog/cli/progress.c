/* progress.c: the progress line of long runs (progress.h). */
#include "datalog/cli/progress.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datalog/cli/stats.h"

void cli_progress_begin(cli_progress *p, const char *command)
{
  assert(p && command);
  memset(p, 0, sizeof *p);
  p->command = command;
  p->start = cli_now();
  p->tty = isatty(STDERR_FILENO);
  const char *after = getenv("GDLOG_PROGRESS_AFTER");
  p->after = after && *after ? strtod(after, NULL) : 1;
}

void cli_progress_say(cli_progress *p, const char *phase, const char *detail)
{
  assert(p && phase);
  if (p->off) return;
  double now = cli_now();
  int new_phase = strcmp(p->phase, phase) != 0;
  if (now - p->start < p->after || (p->tty ? now - p->last < 0.25 && !new_phase : !new_phase)) return;
  snprintf(p->phase, sizeof p->phase, "%s", phase);
  p->last = now;
  fprintf(stderr, "%sgdlog %s: %.1f s, %s%s%s%s%s", p->tty ? "\r\033[K" : "", p->command, now - p->start, phase,
          detail ? " (" : "", detail ? detail : "", detail ? ")" : "", p->tty ? "" : "\n");
  fflush(stderr);
  p->shown = p->tty;
}

void cli_progress_end(cli_progress *p)
{
  assert(p);
  if (p->shown) fputs("\r\033[K", stderr);
  p->shown = 0;
}
