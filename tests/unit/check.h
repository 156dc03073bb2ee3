/* check.h: the checks shared by the C unit tests of tests/unit/.
 *
 *   CHECK(cond, fmt, ...)   one check: when cond is false, counts a failure
 *                           and prints `FAIL file:line: message` on stdout
 *                           (fmt and its arguments are evaluated only then).
 *                           Its value is 1 when cond holds, else 0, so
 *                           `if (!CHECK(l != NULL, "loaded")) return;`.
 *   check_exit()            prints the runner's last line, `N passed, N
 *                           failed`, and returns the exit status, 1 after a
 *                           failure, else 0: `return check_exit();`.
 *   check_read_file(p, &n)  a whole file, NUL-terminated, or NULL.
 *   check_temp_file(t, p)   text t into a new temporary file named in p.
 *
 * A runner whose checks come from data (api_oracles reads .oracle files)
 * calls check_pass() and check_fail() itself, with the data's file and line.
 *
 * The counters are this header's statics: a test is one source file, and
 * counts its own checks.  They are plain ints, so a test checks from one
 * thread at a time (test_threads checks while the other threads wait in
 * pthread_join or make no checks). */
#ifndef GDLOG_TESTS_CHECK_H
#define GDLOG_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int check_count;     /* checks made */
static int check_failures;  /* of which failed */

/* Counts a check that held; returns 1. */
static inline int check_pass(void)
{
  check_count++;
  return 1;
}

/* Counts a failed check and prints `FAIL file:line: ` and the message;
 * returns 0.  Flushed at once, so that a crash later does not lose it. */
static inline int check_fail(const char *file, int line, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
static inline int check_fail(const char *file, int line, const char *fmt, ...)
{
  va_list ap;
  check_count++;
  check_failures++;
  printf("FAIL %s:%d: ", file, line);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
  return 0;
}

#define CHECK(cond, ...) ((cond) ? check_pass() : check_fail(__FILE__, __LINE__, __VA_ARGS__))

/* Prints `N passed, N failed` (the last line a runner prints, which ctest's
 * logs are read for) and returns the exit status. */
static inline int check_exit(void)
{
  printf("%d passed, %d failed\n", check_count - check_failures, check_failures);
  fflush(stdout);
  return check_failures != 0;
}

/* The whole file at path, NUL-terminated (malloc'd), its length in *len;
 * NULL when it cannot be read. */
static inline char *check_read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0, got;
  char *z = malloc(cap);
  while (z && (got = fread(z + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      char *bigger = realloc(z, cap *= 2);
      if (!bigger) free(z);
      z = bigger;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (z && bad) {
    free(z);
    z = NULL;
  }
  if (z) z[n] = 0;
  *len = z ? n : 0;
  return z;
}

/* Writes text into a new file /tmp/gdlog_test_XXXXXX (mkstemp), its name
 * into path; 1, or 0 when it cannot.  The caller removes the file. */
static inline int check_temp_file(const char *text, char path[32])
{
  snprintf(path, 32, "/tmp/gdlog_test_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    remove(path);
    return 0;
  }
  int ok = fputs(text, f) >= 0;
  ok = fclose(f) == 0 && ok;
  if (!ok) remove(path);
  return ok;
}

#endif
