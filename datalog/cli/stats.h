/* stats.h: --stats of model, print and check: strata, atoms per relation,
 * the costliest rules, time and peak memory per phase, on stderr. */
#ifndef GDLOG_CLI_STATS_H
#define GDLOG_CLI_STATS_H

#include "datalog/base/clock.h"
#include "datalog/eval/eval.h"
#include "datalog/program/load.h"

/* The times and memory of the phases after loading. */
typedef struct cli_stats {
  double t_eval, t_output;  /* seconds */
  long kib_load, kib_eval;  /* peak memory at the end of each phase; 0: not run */
} cli_stats;


/* The peak memory of the process so far, in KiB. */
long cli_peak_kib(void);

/* Prints the statistics of program l->prog (non-NULL) and, when e is not
 * NULL, of its evaluation. */
void cli_print_stats(const dl_loaded *l, const dl_eval *e, const cli_stats *s);

struct cli_ctx;
/* The end of model, print and check under --stats: when it was given and the
 * first file loaded, the diagnostics so far, then the statistics (of e too
 * when it is not NULL).  Nothing otherwise. */
void cli_stats_finish(struct cli_ctx *c, const dl_eval *e, const cli_stats *s);

#endif
