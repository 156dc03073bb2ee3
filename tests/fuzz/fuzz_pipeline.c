/* fuzz_pipeline.c: the whole pipeline on arbitrary bytes: parse, normalise,
 * check, stratify, evaluate under a small atom limit, and print the model
 * and the program.  With the rule true(X) :- init(X) added, as --init does,
 * a game's initial state is evaluated too. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datalog/base/diag.h"
#include "datalog/eval/eval.h"
#include "datalog/program/load.h"
#include "datalog/write/output.h"
#include "tests/fuzz/fuzz.h"

enum { FUZZ_MAX_ATOMS = 5000 };

/* A join may run long without deriving atoms; a wall-clock timer cancels
 * the evaluation as --timeout does.  A POSIX timer with SIGVTALRM, because
 * libFuzzer owns SIGALRM and the CPU clock crawls on a loaded machine. */
static volatile sig_atomic_t g_cancel;

static void on_alarm(int sig)
{
  g_cancel = sig;
}

static void arm(long msec)
{
  static timer_t timer;
  static int have_timer;
  if (!have_timer) {
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGVTALRM;
    struct sigaction sa;  /* not signal(): strict POSIX gives it SA_RESETHAND */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGVTALRM, &sa, NULL);
    have_timer = timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0;
    if (!have_timer) return;
  }
  struct itimerspec it;
  memset(&it, 0, sizeof it);
  it.it_value.tv_sec = msec / 1000;
  it.it_value.tv_nsec = msec % 1000 * 1000000L;
  g_cancel = 0;
  timer_settime(timer, 0, &it, NULL);
}

static FILE *sink(void)
{
  static FILE *f;
  if (!f) f = fopen("/dev/null", "w");
  return f;
}

static void evaluate(const dl_loaded *l, dl_diag *diag)
{
  dl_stop stop = { &g_cancel, NULL, 0 };
  dl_eval_options eo = { FUZZ_MAX_ATOMS, &stop };
  dl_eval *e = dl_eval_create(l->prog, &eo, diag);
  arm(2000);
  int ok = e && dl_eval_run(e);
  arm(0);
  if (ok && sink()) {
    dl_output_model(sink(), l->prog, e, DL_FMT_INFIX, NULL);
    dl_output_model(sink(), l->prog, e, DL_FMT_KIF, NULL);
  }
  dl_eval_destroy(e);
  if (sink()) dl_output_program(sink(), l->prog, DL_FMT_ASP);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  dl_diag *diag = dl_diag_create();
  if (!diag) return 0;
  int init = size > 0 && data[0] == '(';
  dl_load_options o = { "fuzz", NULL, NULL, init ? "true(X) :- init(X)." : NULL, -1 };
  dl_loaded *l = dl_load_memory(&o, (const char *)data, size, diag);
  if (l && l->prog) evaluate(l, diag);
  for (size_t i = 0; i < dl_diag_count(diag); i++) free(dl_diag_render(dl_diag_message(diag, i)));
  dl_load_destroy(l);
  dl_diag_destroy(diag);
  return 0;
}
