/* fuzz_step.c: what `gdlog step` reads, on fuzzed text: a state
 * (dl_machine_parse_state) and a joint move (dl_machine_parse_joint) of an
 * embedded game (games.h), on the rules and on the circuit.  The first
 * byte chooses: bits 0-1 the game, bit 2 whether the texts are read as
 * KIF (else infix).  The rest is the state's text, then a NUL byte, then
 * the joint move's text (no NUL: no joint move).  Checked: a state read
 * is written and read back to the same state; when both backends read the
 * state and the joint move, their next states are the same text.  Else
 * abort(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/game.h"
#include "tests/fuzz/games.h"

enum { MAX_ROLES = 8 };

typedef struct side {
  dl_game game;
  dl_stop stop;
  dl_diag *diag;
  dl_mstate *s, *next;
} side;

static void fail(const char *what, const char *a, const char *b)
{
  fprintf(stderr, "fuzz_step: %s\n%s\n---\n%s\n", what, a ? a : "(null)", b ? b : "(null)");
  abort();
}

/* The state text of s must read back, on m, to s. */
static void round_trip(dl_machine *m, const dl_mstate *s, int kif, dl_diag *diag)
{
  char *text = NULL;
  dl_mstate *again = NULL;
  if (dl_machine_state_text(m, s, kif ? DL_FMT_KIF : DL_FMT_INFIX, &text) != DL_M_OK) return;
  dl_mstatus st = dl_machine_parse_state(m, "<again>", text, strlen(text), kif, &again);
  if (st == DL_M_OK && !dl_mstate_equal(s, again)) fail("a state read back is another state", text, "");
  if (st != DL_M_OK && st != DL_M_LIMIT && st != DL_M_NOMEM) fail("a state written does not read back", text, "");
  fuzz_render(diag);
  dl_machine_forget_text(m);
  free(again);
  free(text);
}

/* Reads the state and the joint move on side x (a machine of backend b);
 * x->next: the next state when both read. */
static void run(side *x, const fuzz_embedded *e, dl_backend b, int kif, const char *state, size_t slen,
                const char *joint, size_t jlen)
{
  dl_game_options o;
  fuzz_game_options(&o, b, DL_CIRCUIT_AUTO, &x->stop);
  o.one_question = 1;
  x->diag = dl_diag_create();
  fuzz_stop_rearm(&x->stop);
  if (!x->diag || !fuzz_game_build(&x->game, e->text, e->len, -1, &o, DL_STAGE_MACHINE, x->diag)) return;
  dl_machine *m = x->game.machine;
  m->stop = &x->stop;
  uint32_t moves[MAX_ROLES];
  fuzz_stop_rearm(&x->stop);
  dl_mstatus st = dl_machine_parse_state(m, "<state>", state, slen, kif, &x->s);
  fuzz_render(x->diag);  /* before the text its messages point into goes */
  if (st == DL_M_OK) round_trip(m, x->s, kif, x->diag);
  if (joint && m->n_roles <= MAX_ROLES &&
      dl_machine_parse_joint(m, x->s, "<does>", joint, jlen, kif, moves) == DL_M_OK && x->s)
    dl_machine_next_unchecked(m, x->s, moves, &x->next);
  fuzz_render(x->diag);
}

/* The next states of both sides, when both have one, must be the same
 * text. */
static void compare(side *x)
{
  if (!x[0].next || !x[1].next) return;
  char *a = NULL, *b = NULL;
  if (dl_machine_state_text(x[0].game.machine, x[0].next, DL_FMT_KIF, &a) == DL_M_OK &&
      dl_machine_state_text(x[1].game.machine, x[1].next, DL_FMT_KIF, &b) == DL_M_OK && strcmp(a, b))
    fail("the rules and the circuit step to different states", a, b);
  free(a);
  free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) return 0;
  const fuzz_embedded *e = &fuzz_games[(data[0] & 3) % FUZZ_N_GAMES];
  int kif = (data[0] & 4) != 0;
  const char *state = (const char *)data + 1, *nul = memchr(state, 0, size - 1), *joint = nul ? nul + 1 : NULL;
  size_t slen = nul ? (size_t)(nul - state) : size - 1, jlen = nul ? size - 1 - slen - 1 : 0;
  side x[2];
  memset(x, 0, sizeof x);
  fuzz_input_begin();
  run(&x[0], e, DL_BACKEND_RULES, kif, state, slen, joint, jlen);
  run(&x[1], e, DL_BACKEND_CIRCUIT, kif, state, slen, joint, jlen);
  compare(x);
  for (int i = 0; i < 2; i++) {
    free(x[i].s);
    free(x[i].next);
    if (x[i].diag) fuzz_render(x[i].diag);
    dl_game_free(&x[i].game);
    dl_diag_destroy(x[i].diag);
  }
  return 0;
}
