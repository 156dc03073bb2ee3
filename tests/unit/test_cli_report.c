/* test_cli_report.c: the command line's diagnostics printer (datalog/cli/
 * report.c) with warnings, which no library code reports yet: what
 * --no-warnings hides (a warning and its notes, never an error), and when
 * --warnings-as-errors fails a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "datalog/cli/cli.h"

/* Runs cli_report and cli_report_end on c with stderr in a file; returns
 * what they printed (malloc'd). */
static char *printed(cli_ctx *c)
{
  FILE *tmp = tmpfile();
  int saved = dup(STDERR_FILENO);
  fflush(stderr);
  dup2(fileno(tmp), STDERR_FILENO);
  cli_report(c);
  cli_report_end(c);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  long n = ftell(tmp);
  char *text = calloc((size_t)n + 1, 1);
  rewind(tmp);
  if (fread(text, 1, (size_t)n, tmp) != (size_t)n) text[0] = 0;
  fclose(tmp);
  return text;
}

/* A diag with a warning and its note, then an error and its note. */
static void fill(cli_ctx *c)
{
  c->diag = dl_diag_create();
  dl_diag_report(c->diag, DL_WARNING, NULL, 0, "w1");
  dl_diag_report(c->diag, DL_NOTE, NULL, 0, "n1");
  dl_diag_report(c->diag, DL_ERROR, NULL, 0, "e1");
  dl_diag_report(c->diag, DL_NOTE, NULL, 0, "n2");
}

int main(void)
{
  cli_ctx c;
  memset(&c, 0, sizeof c);
  fill(&c);
  char *all = printed(&c);
  CHECK(strcmp(all, "gdlog: warning: w1\ngdlog: note: n1\ngdlog: error: e1\ngdlog: note: n2\n") == 0,
        "all messages printed by default");
  CHECK(cli_warnings(&c) == 1 && cli_ok(&c), "a warning is counted");
  free(all);
  dl_diag_destroy(c.diag);

  memset(&c, 0, sizeof c);
  c.no_warnings = 1;
  fill(&c);
  char *quiet = printed(&c);
  CHECK(strcmp(quiet, "gdlog: error: e1\ngdlog: note: n2\n") == 0,
        "--no-warnings hides the warning and its note, not the error and its note");
  free(quiet);
  dl_diag_destroy(c.diag);

  memset(&c, 0, sizeof c);
  c.warnings_as_errors = 1;
  c.diag = dl_diag_create();
  dl_diag_report(c.diag, DL_NOTE, NULL, 0, "n0");
  CHECK(cli_ok(&c), "no warning: the run is fine under --warnings-as-errors");
  CHECK(cli_warn(&c, "w%d", 2) == 0 && !cli_ok(&c), "cli_warn tells the command to stop");
  char *strict = printed(&c);
  CHECK(strcmp(strict, "gdlog: note: n0\ngdlog: warning: w2\n"
                       "gdlog: error: warnings are errors (--warnings-as-errors)\n") == 0,
        "--warnings-as-errors says why the run fails, once");
  char *again = printed(&c);
  CHECK(again[0] == 0, "printing again prints nothing new");
  free(strict);
  free(again);
  dl_diag_destroy(c.diag);

  return check_exit();
}
