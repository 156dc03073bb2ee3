/* inject.c: see inject.h. */
#define _GNU_SOURCE
#include "tests/oom/inject.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/oom/alloc.h"

/* Runs ctx with allocation n failing (and every one after it when after)
 * in a child; the finding, or OOM_RUN_OK. */
static int run_failing(oom_run_fn run, void *ctx, long n, int after)
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    long live0 = oom_live();
    oom_arm(n, after);
    int found = run(ctx, 1);
    oom_disarm();
    long leak = oom_live() - live0;
    if (found == OOM_RUN_OK && leak) {
      printf("    %ld blocks leaked\n", leak);
      found = OOM_RUN_LEAK;
    }
    fflush(stdout);
    _exit(found);
  }
  int ws;
  if (pid < 0 || waitpid(pid, &ws, 0) < 0) return -1;
  if (WIFSIGNALED(ws)) return 128 + WTERMSIG(ws);
  return WEXITSTATUS(ws);
}

/* The allocations to fail: the first of each site, and every stride-th. */
static long *failure_points(long total, long stride, long *n, long *sites)
{
  long *points = calloc((size_t)total + 1, sizeof *points);
  uintptr_t *seen = calloc((size_t)total + 1, sizeof *seen);
  long n_seen = 0;
  *n = 0;
  for (long i = 1; points && seen && i <= total; i++) {
    uintptr_t s = oom_site(i);
    int is_new = 1;
    for (long k = 0; k < n_seen && is_new; k++) is_new = seen[k] != s;
    if (is_new) seen[n_seen++] = s;
    if (is_new || (stride && i % stride == 0)) points[(*n)++] = i;
  }
  *sites = n_seen;
  free(seen);
  return points;
}

static const char *finding_name(int code)
{
  switch (code) {
  case OOM_RUN_STATUS: return "a status other than out of memory";
  case OOM_RUN_SILENT: return "out of memory not said";
  case OOM_RUN_LEAK: return "a leak";
  case OOM_RUN_WRONG: return "a wrong result";
  default: return code >= 128 ? "a crash" : "the child failed";
  }
}

int oom_inject(const char *what, oom_run_fn run, void *ctx, int after, long stride)
{
  run(ctx, 0);     /* the C library's lazy allocations happen here, not below */
  oom_record(1);  /* first: it loads what backtrace needs */
  long live0 = oom_live();
  oom_arm(0, 0);
  int found = run(ctx, 0);
  long total = oom_count();
  oom_record(0);
  if (found != OOM_RUN_OK) {
    printf("FAIL %s: fails without fault injection\n", what);
    return 1;
  }
  int findings = oom_live() != live0;
  if (findings) printf("FAIL %s: %ld blocks leaked without fault injection\n", what, oom_live() - live0);
  long n, sites;
  long *points = failure_points(total, stride, &n, &sites);
  for (long k = 0; points && k < n; k++) {
    int code = run_failing(run, ctx, points[k], after);
    if (code == OOM_RUN_OK) continue;
    printf("FAIL %s: allocation %ld of %ld (site %s, 0x%lx)%s: %s\n", what, points[k], total,
           oom_site_name(oom_site(points[k])), (unsigned long)oom_site(points[k]), after ? " and every one after" : "",
           finding_name(code));
    findings++;
  }
  printf("%s: %ld allocations from %ld sites; %ld runs with a failure%s, %d findings\n", what, total, sites, n,
         after ? " (and every allocation after it)" : "", findings);
  free(points);
  return findings;
}

int oom_run_at(oom_run_fn run, void *ctx, long n, int after)
{
  oom_arm(n, after);
  int found = run(ctx, 1);
  oom_disarm();
  return found;
}
