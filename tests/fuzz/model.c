/* model.c: evaluate and print a loaded program (see model.h). */
#include "tests/fuzz/model.h"

#include <assert.h>
#include <stdio.h>

#include "datalog/eval/eval.h"
#include "datalog/write/output.h"
#include "tests/fuzz/alarm.h"

enum { FUZZ_MAX_ATOMS = 5000 };

static FILE *sink(void)
{
  static FILE *f;
  if (!f) f = fopen("/dev/null", "w");
  return f;
}

/* Hands the input relations' rows (the program's facts taken, data
 * files) to e, as `gdlog model` does; 0 when out of memory. */
static int seed_facts(dl_loaded *l, dl_eval *e)
{
  if (!dl_eval_seed_inputs(e, l->facts)) return 0;
  dl_load_drop_facts(l);
  return 1;
}

void fuzz_model(dl_loaded *l, dl_diag *diag)
{
  assert(l && l->prog && diag);
  dl_stop stop = { &fuzz_cancel, NULL, 0 };
  dl_eval_options eo = { FUZZ_MAX_ATOMS, &stop };
  dl_eval *e = dl_eval_create(l->prog, &eo, diag);
  fuzz_alarm(2000);  /* a join may run long without deriving atoms */
  int ok = e && seed_facts(l, e) && dl_eval_run(e);
  fuzz_alarm(0);
  if (ok && sink()) {
    dl_output_model(sink(), l->prog, e, DL_FMT_INFIX, NULL);
    dl_output_model(sink(), l->prog, e, DL_FMT_KIF, NULL);
  }
  dl_eval_destroy(e);
  if (sink()) dl_output_program(sink(), l->prog, DL_FMT_ASP);
}
