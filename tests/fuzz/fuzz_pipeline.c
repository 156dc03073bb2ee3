/* fuzz_pipeline.c: the whole pipeline on arbitrary bytes: parse, normalise,
 * check, stratify, evaluate under a small atom limit, and print the model
 * and the program.  With the rule true(X) :- init(X) added, as --init does,
 * a game's initial state is evaluated too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/diag.h"
#include "datalog/eval/eval.h"
#include "datalog/program/load.h"
#include "datalog/write/output.h"
#include "tests/fuzz/alarm.h"
#include "tests/fuzz/fuzz.h"

enum { FUZZ_MAX_ATOMS = 5000 };

static FILE *sink(void)
{
  static FILE *f;
  if (!f) f = fopen("/dev/null", "w");
  return f;
}

static void evaluate(const dl_loaded *l, dl_diag *diag)
{
  dl_stop stop = { &fuzz_cancel, NULL, 0 };
  dl_eval_options eo = { FUZZ_MAX_ATOMS, &stop };
  dl_eval *e = dl_eval_create(l->prog, &eo, diag);
  fuzz_alarm(2000);  /* a join may run long without deriving atoms */
  int ok = e && dl_eval_run(e);
  fuzz_alarm(0);
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
  dl_load_options o = { .file = "fuzz", .extra_rules = init ? "true(X) :- init(X)." : NULL, .syntax = -1 };
  dl_loaded *l = dl_load_memory(&o, (const char *)data, size, diag);
  if (l && l->prog) evaluate(l, diag);
  for (size_t i = 0; i < dl_diag_count(diag); i++) free(dl_diag_render(dl_diag_message(diag, i)));
  dl_load_destroy(l);
  dl_diag_destroy(diag);
  return 0;
}
