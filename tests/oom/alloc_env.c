/* alloc_env.c: the failing allocator of alloc.h, armed from the
 * environment when the program starts, for a command line built with it
 * (gdlog_oom):
 *   GDLOG_OOM_FAIL_AT=N       allocation N fails (counted from the start)
 *   GDLOG_OOM_EVERY_AFTER=1   and every one after it
 *   GDLOG_OOM_SITES=FILE      at exit, writes to FILE the number of the
 *                             first allocation of each site reached, one
 *                             per line, then `total N`
 *   GDLOG_OOM_LIVE=FILE       at exit, writes to FILE the number of blocks
 *                             still allocated (a leak check: a failing run
 *                             must leave no more than a run without one)
 * tests/oom/cli.sh drives it. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/oom/alloc.h"

static const char *sites_file, *live_file;

__attribute__((constructor)) static void arm_from_environment(void)
{
  const char *at = getenv("GDLOG_OOM_FAIL_AT");
  sites_file = getenv("GDLOG_OOM_SITES");
  live_file = getenv("GDLOG_OOM_LIVE");
  if (sites_file) oom_record(1);
  oom_arm(at ? atol(at) : 0, getenv("GDLOG_OOM_EVERY_AFTER") != NULL);
}

/* Whether site s is among the sites of allocations 1..i-1. */
static int seen_before(long i, uintptr_t s)
{
  for (long k = 1; k < i; k++)
    if (oom_site(k) == s) return 1;
  return 0;
}

__attribute__((destructor)) static void write_live(void)
{
  FILE *f = live_file ? fopen(live_file, "w") : NULL;
  if (!f) return;
  long live = oom_live() - 1;  /* this FILE */
  fprintf(f, "%ld\n", live);
  fclose(f);
}

__attribute__((destructor)) static void write_sites(void)
{
  if (!sites_file) return;
  long total = oom_count();
  oom_record(0);
  oom_disarm();
  FILE *f = fopen(sites_file, "w");
  if (!f) return;
  for (long i = 1; i <= total; i++)
    if (!seen_before(i, oom_site(i))) fprintf(f, "%ld %s\n", i, oom_site_name(oom_site(i)));
  fprintf(f, "total %ld\n", total);
  fclose(f);
}
