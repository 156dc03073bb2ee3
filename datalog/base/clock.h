/* clock.h: the one clock of gdlog: wall-clock (monotonic) and process
 * time in seconds, for figures, progress and deadlines. */
#ifndef GDLOG_CLOCK_H
#define GDLOG_CLOCK_H

/* Seconds on the monotonic clock (from an arbitrary start). */
double dl_clock_now(void);

/* Seconds of processor time the process has used. */
double dl_clock_cpu(void);

#endif
