/* build.c: dl_program_build (see program.h).  The steps run one way: the
 * table (program.c), the checks that need it (check.h), the strata
 * (program.c), then the warnings (lint.h); check and lint read the table,
 * program.c calls neither. */
#include <assert.h>

#include "datalog/program/check.h"
#include "datalog/program/lint.h"
#include "datalog/program/program.h"

dl_program *dl_program_build(ast_program *ast, dl_terms *terms, dl_diag *diag)
{
  assert(ast && terms && diag);
  size_t errors = dl_diag_errors(diag);
  dl_program *p = dl_program_create(ast, terms, diag);
  if (!p) return NULL;
  st_cycle cycle = { 0 };
  int ok = dl_check_safety(p, diag) == 0 && dl_program_stratify(p, &cycle, diag);
  if (!ok && cycle.n) dl_check_report_cycle(p, &cycle, diag);
  st_cycle_free(&cycle);
  ok = ok && dl_check_gdl(p, diag) == 0;
  if (ok && !dl_lint_program(p, diag)) ok = 0;
  if (ok) return p;
  if (dl_diag_errors(diag) == errors)
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while checking the program");
  dl_program_destroy(p);
  return NULL;
}
