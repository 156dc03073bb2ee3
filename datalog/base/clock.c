/* clock.c: see clock.h. */
#include "datalog/base/clock.h"

#include <time.h>

static double seconds_of(clockid_t clock)
{
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double dl_clock_now(void) { return seconds_of(CLOCK_MONOTONIC); }

double dl_clock_cpu(void) { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }
