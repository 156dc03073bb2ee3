/* fuzz_serve.c: the `gdlog serve` loop (datalog/serve/serve.h) in-process on
 * arbitrary request bytes.  The first byte chooses the session: bits 0-1
 * the game (games.h; 3 is tic-tac-toe again), bit 2 the backend (rules or
 * circuit), bit 3 the replies' syntax (KIF or infix), bits 4-5 how many
 * states are kept (no limit, 1, 2 or 3: eviction), bit 6 the depth of a
 * `random` playout (10000 or 3), bit 7 the circuit's mode (eager or lazy).
 * The other bytes are the requests.  Every reply must be one line that
 * starts with `ok` or `error `, printable (escaped), and there must be no
 * more replies than requests: else abort().  With FUZZ_SERVE_ECHO set in
 * the environment, the replies are copied to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/serve/serve.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/game.h"
#include "tests/fuzz/games.h"

static void bad_reply(const char *why, const char *out, size_t n)
{
  fprintf(stderr, "fuzz_serve: %s in the replies:\n%.*s\n", why, (int)(n > 4000 ? 4000 : n), out);
  abort();
}

/* The replies out[0..n) to requests[0..len) must be lines of `ok...` or
 * `error ...`, without control bytes, no more than the requests. */
static void check_replies(const char *out, size_t n, const uint8_t *requests, size_t len)
{
  size_t lines = 0, asked = 0;
  for (size_t i = 0; i < len; i++) asked += requests[i] == '\n';
  if (len && requests[len - 1] != '\n') asked++;
  for (size_t i = 0; i < n;) {
    const char *line = out + i, *end = memchr(line, '\n', n - i);
    if (!end) bad_reply("a reply without its newline", out, n);
    size_t k = (size_t)(end - line);
    if (!(k >= 2 && !memcmp(line, "ok", 2) && (k == 2 || line[2] == ' ')) && !(k >= 6 && !memcmp(line, "error ", 6)))
      bad_reply("a reply that is neither ok nor error", out, n);
    for (size_t j = 0; j < k; j++)
      if ((unsigned char)line[j] < 0x20 || line[j] == 0x7f) bad_reply("a control byte", out, n);
    lines++;
    i += k + 1;
  }
  if (lines > asked) bad_reply("more replies than requests", out, n);
}

/* Runs the session the options byte o chooses on requests[0..len). */
static void session(uint8_t o, const uint8_t *requests, size_t len)
{
  static const uint64_t kept[4] = { 0, 1, 2, 3 };
  const fuzz_embedded *e = &fuzz_games[(o & 3) % FUZZ_N_GAMES];
  dl_stop stop = { 0 };
  dl_game_options go;
  fuzz_game_options(&go, o & 4 ? DL_BACKEND_CIRCUIT : DL_BACKEND_RULES, o & 128 ? DL_CIRCUIT_LAZY : DL_CIRCUIT_EAGER,
                    &stop);
  dl_diag *diag = dl_diag_create();
  dl_game g = { 0 };
  fuzz_stop_rearm(&stop);
  if (diag && fuzz_game_build(&g, e->text, e->len, -1, &go, DL_STAGE_MACHINE, diag)) {
    dl_serve_options so = { .fmt = o & 8 ? DL_FMT_INFIX : DL_FMT_KIF, .seed = 1, .max_depth = o & 64 ? 3 : 10000,
                            .max_states = kept[(o >> 4) & 3] };
    g.machine->stop = &stop;
    fuzz_stop_input(&stop);  /* the whole session: the input's budget */
    dl_serve *s = dl_serve_create(g.machine, g.kif, &so, diag);
    char *out = NULL;
    size_t n = 0;
    FILE *in = len ? fmemopen((void *)requests, len, "r") : NULL;
    FILE *to = open_memstream(&out, &n);
    if (s && in && to) {
      dl_serve_run(s, in, to);
      fflush(to);
      if (getenv("FUZZ_SERVE_ECHO")) fwrite(out, 1, n, stderr);  /* to see what a seed does */
      check_replies(out, n, requests, len);
    }
    if (in) fclose(in);
    if (to) fclose(to);
    free(out);
    dl_serve_destroy(s);
  }
  if (diag) fuzz_render(diag);
  dl_game_free(&g);
  dl_diag_destroy(diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_input_begin();
  if (size) session(data[0], data + 1, size - 1);
  return 0;
}
