/* fuzz_pipeline.c: the whole pipeline on arbitrary bytes: parse, normalise,
 * check, stratify, evaluate under a small atom limit, and print the model
 * and the program.  With the rule true(X) :- init(X) added, as --init does,
 * a game's initial state is evaluated too. */
#include <stdlib.h>

#include "datalog/base/diag.h"
#include "datalog/program/load.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  dl_diag *diag = dl_diag_create();
  if (!diag) return 0;
  int init = size > 0 && data[0] == '(';
  dl_load_options o = { .file = "fuzz", .extra_rules = init ? "true(X) :- init(X)." : NULL, .syntax = -1 };
  dl_loaded *l = dl_load_memory(&o, (const char *)data, size, diag);
  if (l && l->prog) fuzz_model(l, diag);
  for (size_t i = 0; i < dl_diag_count(diag); i++) free(dl_diag_render(dl_diag_message(diag, i)));
  dl_load_destroy(l);
  dl_diag_destroy(diag);
  return 0;
}
