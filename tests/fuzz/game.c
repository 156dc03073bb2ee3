/* game.c: see game.h. */
#include "tests/fuzz/game.h"

#include <stdlib.h>
#include <string.h>

#include "datalog/base/clock.h"

static double g_input_deadline;

void fuzz_input_begin(void)
{
  g_input_deadline = dl_clock_now() + FUZZ_INPUT_SECONDS;
}

int fuzz_input_over(void)
{
  return g_input_deadline > 0 && dl_clock_now() >= g_input_deadline;
}

void fuzz_stop_rearm(dl_stop *stop)
{
  double d = dl_clock_now() + FUZZ_GAME_SECONDS;
  stop->deadline = g_input_deadline > 0 && g_input_deadline < d ? g_input_deadline : d;
}

void fuzz_stop_input(dl_stop *stop)
{
  stop->deadline = g_input_deadline;
}

void fuzz_game_options(dl_game_options *o, dl_backend backend, dl_circuit_mode mode, const dl_stop *stop)
{
  dl_game_options_init(o);
  o->backend = backend;
  o->circuit_mode = mode;
  o->max_atoms = FUZZ_GAME_ATOMS;
  o->max_instances = FUZZ_GAME_INSTANCES;
  o->auto_max_atoms = FUZZ_GAME_ATOMS;
  o->auto_max_instances = FUZZ_GAME_INSTANCES;
  o->auto_seconds = FUZZ_GAME_SECONDS;
  o->stop = stop;
}

int fuzz_game_build(dl_game *g, const char *text, size_t len, int syntax, const dl_game_options *o, dl_stage to,
                    dl_diag *diag)
{
  dl_load_options lo = { .file = "fuzz", .syntax = syntax };
  if (!dl_game_load(g, &lo, text ? text : "", len, diag)) return 0;
  return dl_game_build(g, NULL, o, to, diag);
}

void fuzz_render(dl_diag *diag)
{
  for (size_t i = 0; i < dl_diag_count(diag); i++) free(dl_diag_render(dl_diag_message(diag, i)));
  dl_diag_clear(diag);
}

int fuzz_limited(const dl_diag *diag)
{
  static const char *const words[] = { "limit", "time budget", "interrupted", "out of memory", "too ", "deep",
                                       "exceed", "more than", "maximum" };
  for (size_t i = 0; i < dl_diag_count(diag); i++) {
    const dl_message *m = dl_diag_message(diag, i);
    for (size_t w = 0; w < sizeof words / sizeof *words; w++)
      if (strstr(m->text, words[w])) return 1;
  }
  return 0;
}

int fuzz_buf_write(void *ctx, const char *data, size_t n)
{
  dl_buf *b = ctx;
  dl_buf_add(b, data, n);
  return !b->failed;
}
