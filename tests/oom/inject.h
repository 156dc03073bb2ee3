/* inject.h: the driver of out-of-memory fault injection (alloc.h) over a
 * scenario the caller runs.  One run without failures counts the
 * allocations and records their sites; then, in a child process per run,
 * allocation number N fails, for the first allocation of every site
 * reached (and every stride-th allocation too, when asked), once or (with
 * after) with every allocation from N on.  A run must end as the scenario
 * judges right, never crash, and leave no block allocated. */
#ifndef GDLOG_TESTS_OOM_INJECT_H
#define GDLOG_TESTS_OOM_INJECT_H

/* What a run found: the child's exit status. */
enum { OOM_RUN_OK = 0, OOM_RUN_STATUS = 10, OOM_RUN_SILENT = 11, OOM_RUN_LEAK = 12, OOM_RUN_WRONG = 13 };

/* Runs the scenario of ctx once and judges it: armed is 0 for the runs
 * without failures (which must succeed in full), 1 when an allocation may
 * fail.  Returns OOM_RUN_OK, or a finding (STATUS: a status other than
 * out of memory; SILENT: out of memory not said; WRONG: another wrong
 * result) after printing why on one indented line.  Must free all it
 * allocates before it returns. */
typedef int (*oom_run_fn)(void *ctx, int armed);

/* Every failure point of run on ctx, for scenario `what`: prints a line of
 * figures and one `FAIL ...` line per finding (the allocation's number
 * and site, for addr2line); returns the number of findings (a run that fails without
 * failures counts as one). */
int oom_inject(const char *what, oom_run_fn run, void *ctx, int after, long stride);

/* One run with allocation n failing (and every one after it when after),
 * in this process (for a debugger); returns the run's judgement. */
int oom_run_at(oom_run_fn run, void *ctx, long n, int after);

#endif
