/* test_diag.c: the diagnostics object (datalog/base/diag.h): errors keep
 * their cause through dl_diag_append, the last cause is known even when
 * the message itself was not kept, and warnings and notes never change it. */
#include <string.h>

#include "check.h"
#include "datalog/base/diag.h"

static void test_last_cause(void)
{
  dl_diag *d = dl_diag_create();
  CHECK(dl_diag_last_cause(d) == DL_CAUSE_INPUT, "an empty diag has no cause");
  dl_diag_fail(d, DL_CAUSE_NOMEM, "out of memory in %s", "a test");
  CHECK(dl_diag_last_cause(d) == DL_CAUSE_NOMEM, "after an out-of-memory error");
  CHECK(strcmp(dl_diag_message(d, 0)->text, "out of memory in a test") == 0, "text: %s",
        dl_diag_message(d, 0)->text);
  dl_diag_report(d, DL_WARNING, NULL, 0, "a warning");
  dl_diag_report(d, DL_NOTE, NULL, 0, "a note");
  CHECK(dl_diag_last_cause(d) == DL_CAUSE_NOMEM, "warnings and notes leave the cause");
  dl_diag_report(d, DL_ERROR, NULL, 0, "bad input");
  CHECK(dl_diag_last_cause(d) == DL_CAUSE_INPUT, "a later input error is the last cause");
  dl_diag_clear(d);
  CHECK(dl_diag_last_cause(d) == DL_CAUSE_INPUT, "cleared");
  dl_diag_destroy(d);
}

static void test_append_keeps_causes(void)
{
  dl_diag *a = dl_diag_create(), *b = dl_diag_create();
  dl_diag_fail(a, DL_CAUSE_LIMIT, "more than %d rule instances", 5);
  dl_diag_fail(a, DL_CAUSE_STOP, "interrupted");
  dl_diag_append(b, a);
  CHECK(dl_diag_count(b) == 2 && dl_diag_message(b, 0)->cause == DL_CAUSE_LIMIT &&
        dl_diag_message(b, 1)->cause == DL_CAUSE_STOP, "causes appended");
  CHECK(dl_diag_last_cause(b) == DL_CAUSE_STOP, "last cause appended");
  dl_diag_destroy(a);
  dl_diag_destroy(b);
}

/* Past DL_DIAG_MAX_KEPT errors messages are only counted, and their cause
 * still counts: an allocator that fails late must not read as bad input. */
static void test_cause_of_dropped_error(void)
{
  dl_diag *a = dl_diag_create(), *b = dl_diag_create();
  for (int i = 0; i < DL_DIAG_MAX_KEPT; i++) dl_diag_report(a, DL_ERROR, NULL, 0, "error %d", i);
  dl_diag_fail(a, DL_CAUSE_NOMEM, "out of memory");
  CHECK(dl_diag_errors(a) == DL_DIAG_MAX_KEPT + 1 && dl_diag_count(a) == DL_DIAG_MAX_KEPT, "the last is dropped");
  CHECK(dl_diag_last_cause(a) == DL_CAUSE_NOMEM, "dropped, yet its cause is known");
  dl_diag_append(b, a);
  CHECK(dl_diag_last_cause(b) == DL_CAUSE_NOMEM, "and appended");
  dl_diag_destroy(a);
  dl_diag_destroy(b);
}

int main(void)
{
  test_last_cause();
  test_append_keeps_causes();
  test_cause_of_dropped_error();
  return check_exit();
}
