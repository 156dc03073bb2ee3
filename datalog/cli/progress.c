/* progress.c: the progress line of long runs (progress.h). */
#include "datalog/base/clock.h"
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
  p->start = dl_clock_now();
  p->tty = isatty(STDERR_FILENO);
  const char *after = getenv("GDLOG_PROGRESS_AFTER");
  p->after = after && *after ? strtod(after, NULL) : 1;
}

void cli_progress_say(cli_progress *p, const char *phase, const char *detail)
{
  assert(p && phase);
  if (p->off) return;
  double now = dl_clock_now();
  int new_phase = strcmp(p->phase, phase) != 0;
  if (now - p->start < p->after || (p->tty ? now - p->last < 0.25 && !new_phase : !new_phase)) return;
  snprintf(p->phase, sizeof p->phase, "%s", phase);
  p->last = now;
  fprintf(stderr, "%sgdlog %s: %.1f s, %s%s%s%s%s", p->tty ? "\r\033[K" : "", p->command, now - p->start, phase,
          detail ? " (" : "", detail ? detail : "", detail ? ")" : "", p->tty ? "" : "\n");
  fflush(stderr);
  p->shown = p->tty;
}

void cli_progress_ground(void *ctx, const dl_ground_progress *g)
{
  assert(ctx && g);
  char detail[96];
  if (g->rules_total)
    snprintf(detail, sizeof detail, "rule %u of %u, %llu ground rules", g->rules_done, g->rules_total,
             (unsigned long long)g->instances);
  else
    snprintf(detail, sizeof detail, "%llu ground rules", (unsigned long long)g->instances);
  cli_progress_say(ctx, g->phase, detail);
}

void cli_progress_end(cli_progress *p)
{
  assert(p);
  if (p->shown) fputs("\r\033[K", stderr);
  p->shown = 0;
}
