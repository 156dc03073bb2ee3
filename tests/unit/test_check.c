/* test_check.c: check.h itself, so that a failed check cannot go unseen.
 * Run as `test_check planted`, it makes one check that holds and one that
 * fails.  Run without arguments, it runs itself so and checks what that
 * printed: `FAIL file:line: message` for the failed check, the failed
 * check's value 0, the last line `1 passed, 1 failed`, and exit status 1.
 * It also checks that a check that holds does not evaluate its message. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"

static int evaluated;  /* message arguments evaluated */

static int touch(void)
{
  return ++evaluated;
}

/* The planted failure: its line is PLANTED_LINE. */
enum { PLANTED_LINE = __LINE__ + 3 };
static int planted_failure(void)
{
  return CHECK(1 + 1 == 3, "planted %d", 42);
}

/* One check that holds, and the planted failure with its value. */
static int planted(void)
{
  CHECK(1 + 1 == 2, "holds");
  printf("value %d\n", planted_failure());
  return check_exit();
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "planted") == 0) return planted();
  CHECK(1, "held %d", touch());
  CHECK(evaluated == 0, "a check that holds evaluated its message %d times", evaluated);

  char cmd[4096], out[4096] = "";
  snprintf(cmd, sizeof cmd, "'%s' planted", argv[0]);
  FILE *p = popen(cmd, "r");
  size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
  out[n] = 0;
  int status = p ? pclose(p) : -1;
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "planted: exit status 1, got status %d", status);

  char want[512];
  snprintf(want, sizeof want, "FAIL %s:%d: planted 42\nvalue 0\n1 passed, 1 failed\n", __FILE__, PLANTED_LINE);
  CHECK(strcmp(out, want) == 0, "planted: printed\n%s\nnot\n%s", out, want);
  return check_exit();
}
