/* replay.c: runs a harness on saved inputs without libFuzzer, as SQLite's
 * fuzzcheck does: every FILE argument, and every file in a DIR argument.
 * A crash, a sanitizer report or a leak is the failure; prints
 * `N passed, N failed` (failed counts unreadable files). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

/* Reads a whole file; NULL when it cannot. */
static uint8_t *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0, got;
  uint8_t *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n < cap) continue;
    uint8_t *q = realloc(buf, cap *= 2);
    if (!q) { free(buf); buf = NULL; }
    buf = q;
  }
  fclose(f);
  *len = n;
  return buf;
}

static int run_file(const char *path)
{
  size_t len;
  uint8_t *buf = slurp(path, &len);
  if (!buf) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    return 0;
  }
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 1;
}

/* Runs every regular file of dir in name order; counts into *ok and *bad. */
static void run_dir(const char *dir, int *ok, int *bad)
{
  struct dirent **names;
  int n = scandir(dir, &names, NULL, alphasort);
  if (n < 0) { (*bad)++; fprintf(stderr, "replay: cannot list %s\n", dir); return; }
  for (int i = 0; i < n; i++) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
    if (names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      if (run_file(path)) (*ok)++; else (*bad)++;
    }
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv)
{
  int ok = 0, bad = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) run_dir(argv[i], &ok, &bad);
    else if (run_file(argv[i])) ok++;
    else bad++;
  }
  printf("%d passed, %d failed\n", ok, bad);
  return bad ? 1 : 0;
}
