/* fuzz_facts.c: the fast paths that read facts, on arbitrary bytes: a
 * program whose ground facts become input relations as it is parsed (as
 * `gdlog model` reads programs), and a data file of tab-separated rows
 * beside it (--facts).  The input is the program text, then, after its
 * first NUL byte if it has one, the rows of e.facts; without a NUL there
 * is no data file.  The program is then evaluated and printed as in
 * fuzz_pipeline, and every message is rendered. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datalog/base/diag.h"
#include "datalog/program/load.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/model.h"

static char data_dir[] = "/tmp/gdlog-fuzz-facts-XXXXXX";
static char data_file[sizeof data_dir + 16];

static void remove_data_dir(void)
{
  unlink(data_file);
  rmdir(data_dir);
}

/* Writes rows[0..len) as the directory's e.facts; the directory, made at
 * the first call, is removed at exit.  0 when it cannot be written. */
static int write_rows(const uint8_t *rows, size_t len)
{
  if (!data_file[0]) {
    if (!mkdtemp(data_dir)) return 0;
    snprintf(data_file, sizeof data_file, "%s/e.facts", data_dir);
    atexit(remove_data_dir);
  }
  FILE *f = fopen(data_file, "wb");
  if (!f) return 0;
  int ok = fwrite(rows, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const uint8_t *nul = memchr(data, 0, size);
  size_t program_len = nul ? (size_t)(nul - data) : size;
  if (nul && !write_rows(nul + 1, size - program_len - 1)) return 0;
  dl_diag *diag = dl_diag_create();
  if (!diag) return 0;
  dl_load_options o = { .file = "fuzz", .syntax = -1, .take_facts = 1, .facts_dir = nul ? data_dir : NULL };
  dl_loaded *l = dl_load_memory(&o, (const char *)data, program_len, diag);
  if (l && l->prog) fuzz_model(l, diag);
  for (size_t i = 0; i < dl_diag_count(diag); i++) free(dl_diag_render(dl_diag_message(diag, i)));
  dl_load_destroy(l);
  dl_diag_destroy(diag);
  return 0;
}
