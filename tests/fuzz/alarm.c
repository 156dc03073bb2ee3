/* alarm.c: the harnesses' cancel timer (see alarm.h). */
#include "tests/fuzz/alarm.h"

#include <string.h>
#include <time.h>

volatile sig_atomic_t fuzz_cancel;

static void on_alarm(int sig)
{
  fuzz_cancel = sig;
}

/* Makes the timer once; 0 when there is none. */
static int make_timer(timer_t *timer)
{
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGVTALRM;
  struct sigaction sa;  /* not signal(): strict POSIX gives it SA_RESETHAND */
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGVTALRM, &sa, NULL);
  return timer_create(CLOCK_MONOTONIC, &ev, timer) == 0;
}

void fuzz_alarm(long msec)
{
  static timer_t timer;
  static int have_timer = -1;
  if (have_timer < 0) have_timer = make_timer(&timer);
  fuzz_cancel = 0;
  if (!have_timer) return;
  struct itimerspec it;
  memset(&it, 0, sizeof it);
  it.it_value.tv_sec = msec / 1000;
  it.it_value.tv_nsec = msec % 1000 * 1000000L;
  timer_settime(timer, 0, &it, NULL);
}
