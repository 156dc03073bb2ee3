/* guard.h: the command line's protection of the process: memory and time
 * limits, SIGINT/SIGTERM, and output files replaced atomically.  Not library
 * code: its signal handlers write to stderr and exit.
 *
 * Signals have two modes.  While soft (during evaluation) a signal only sets
 * the cancel flag, which the evaluator polls, so the run ends through the
 * normal path.  Otherwise, or at a second signal, the handler removes the
 * temporary output file and exits at once: 130 for SIGINT, 143 for SIGTERM,
 * 1 when the time limit (SIGALRM) was reached. */
#ifndef GDLOG_GUARD_H
#define GDLOG_GUARD_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "datalog/base/stop.h"

/* Installs the handlers of SIGINT, SIGTERM, SIGALRM, SIGSEGV and SIGBUS. */
void dl_guard_install(void);

/* The default memory limit in MiB: three quarters of physical memory. */
uint64_t dl_guard_default_memory(void);

/* Limits the address space to mib MiB (0: no limit); never raises the
 * limit the process already has.  Also tunes glibc's malloc for a process
 * that grounds (see guard.c), within that limit.  Returns 0 when it could
 * not apply the limit. */
int dl_guard_set_memory(uint64_t mib);

/* The memory limit in force in MiB, 0 when none. */
uint64_t dl_guard_memory(void);

/* Stops the run after seconds of wall-clock time (0: no limit). */
void dl_guard_set_timeout(double seconds);

/* The flag the signal handlers set. */
volatile sig_atomic_t *dl_guard_cancel_flag(void);

/* The stop to hand to the library (dl_eval_options.stop and the like):
 * the flag the signal handlers set. */
const dl_stop *dl_guard_stop(void);

/* The signal that asked the run to stop, 0 when none did. */
int dl_guard_signal(void);

/* The message for the stop that was asked for (a line for stderr), NULL
 * when none was. */
const char *dl_guard_stop_message(void);

/* Soft mode on or off (see above). */
void dl_guard_soft(int on);

/* Opens a temporary file beside path for output (stdout when path is
 * NULL); NULL with errno set. */
FILE *dl_guard_open_output(const char *path);

/* Closes f; when ok, renames it to the path it was opened for, else removes
 * it.  Returns 1 when the file is in place (for stdout: flushes it, and
 * returns 1 when that and ok hold). */
int dl_guard_close_output(FILE *f, int ok);

#endif
