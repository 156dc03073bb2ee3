/* alarm.h: the wall-clock cancel timer of the harnesses that hand a cancel
 * flag to gdlog (fuzz_pipeline, fuzz_api), as a player's clock or
 * --timeout would: a POSIX timer with SIGVTALRM, because libFuzzer owns
 * SIGALRM and the CPU clock crawls on a loaded machine. */
#ifndef GDLOG_FUZZ_ALARM_H
#define GDLOG_FUZZ_ALARM_H

#include <signal.h>

/* The flag the timer sets (to the signal's number) when it fires. */
extern volatile sig_atomic_t fuzz_cancel;

/* Clears fuzz_cancel and sets the timer to fire in msec milliseconds (0:
 * disarms it).  Without a timer (timer_create failed) the flag stays 0. */
void fuzz_alarm(long msec);

#endif
