/* stop.h: when a long computation (an evaluation, a grounding, playouts)
 * stops before it is done: a flag a signal handler sets, a flag another
 * thread sets (C11 atomics: gdlog_interrupt), and a deadline on the
 * clock of clock.h.  The computations poll dl_stop_requested every few
 * thousand steps. */
#ifndef GDLOG_STOP_H
#define GDLOG_STOP_H

#include <signal.h>
#include <stdatomic.h>

typedef struct dl_stop {
  volatile sig_atomic_t *cancel;  /* set by a signal handler; may be NULL */
  const atomic_int *interrupt;    /* set by another thread; may be NULL */
  double deadline;                /* dl_clock_now() at which to stop; 0: none */
} dl_stop;

/* Why s asks to stop: 0 (go on), DL_STOP_CANCEL (a flag) or
 * DL_STOP_DEADLINE.  s may be NULL (never stops). */
enum { DL_STOP_NONE = 0, DL_STOP_CANCEL, DL_STOP_DEADLINE };
int dl_stop_requested(const dl_stop *s);

/* The message a computation reports when it stops for reason why
 * ("interrupted", "time budget exhausted"). */
const char *dl_stop_message(int why);

#endif
