/* progress.h: the progress line of long runs, on stderr.  Nothing is shown
 * during a run's first second.  After it, on a terminal one line is
 * rewritten in place (at most 4 times a second) and cleared at the end;
 * elsewhere (a log) one line is written per new phase.  The environment
 * variable GDLOG_PROGRESS_AFTER sets another delay in seconds (tests use 0). */
#ifndef GDLOG_CLI_PROGRESS_H
#define GDLOG_CLI_PROGRESS_H

#include "datalog/ground/ground.h"

typedef struct cli_progress {
  const char *command;  /* "ground" */
  double start, last;   /* when the run began, when the line was last written */
  double after;         /* seconds before the first line: 1, or $GDLOG_PROGRESS_AFTER */
  int tty;              /* stderr is a terminal */
  int shown;            /* a line is on the terminal */
  int off;              /* no line at all (set by the caller) */
  char phase[32];       /* the phase of the last line */
} cli_progress;

/* Starts the clock of p for a run of command (a static string). */
void cli_progress_begin(cli_progress *p, const char *command);

/* Says that the run is at phase (at most 31 bytes), with detail (may be
 * NULL), when the rules above let it. */
void cli_progress_say(cli_progress *p, const char *phase, const char *detail);

/* A dl_ground_options.progress for grounding: ctx is a cli_progress. */
void cli_progress_ground(void *ctx, const dl_ground_progress *g);

/* Clears the terminal's line, if one is shown. */
void cli_progress_end(cli_progress *p);

#endif
