/* serve.h: the request loop of `gdlog serve` (cmd_serve.c) on a machine
 * already built, from a FILE* to a FILE*: one request a line in, one reply
 * a line out (`ok ...` or `error MESSAGE`, escaped to printable UTF-8).
 * The protocol is in datalog/cli/cmd_serve.c's help.  Apart from the
 * command, the fuzz harness tests/fuzz/fuzz_serve.c runs it in-process.
 * It writes only the replies, to the stream it is given; its caller's
 * signal handling comes in through two hooks of the options. */
#ifndef GDLOG_SERVE_H
#define GDLOG_SERVE_H

#include <stdint.h>
#include <stdio.h>

#include "datalog/base/diag.h"
#include "datalog/machine/machine.h"

typedef struct dl_serve_options {
  dl_format fmt;          /* of the replies' terms, and of the quotes that split requests */
  uint64_t seed;          /* of the random playouts of `random` and `playouts` */
  uint64_t max_depth;     /* a `random` playout longer than this is an error reply */
  uint64_t max_states;    /* states kept; beyond, the least recently used is evicted (0: no limit) */
  void (*soft)(int on);   /* may be NULL: called with 1 before a request, 0 after it (a signal meanwhile */
                          /*   should only be noted, so that the request ends cleanly) */
  int (*signaled)(void);  /* may be NULL: polled after each reply; non-zero ends the loop */
  const struct dl_game_symmetry *symmetry;  /* the game's symmetries, found and checked, for the requests
                                               symmetries, canonical and image; may be NULL */
} dl_serve_options;

typedef struct dl_serve dl_serve;

/* A session on machine m (whose game is KIF when kif; m->format becomes
 * o->fmt).  The machine reports each request's errors to diag, which the
 * session clears before every request: its messages are the reply.
 * NULL when out of memory (nothing reported). */
dl_serve *dl_serve_create(dl_machine *m, int kif, const dl_serve_options *o, dl_diag *diag);

/* Answers the requests of in on out (flushed after every reply) until the
 * end of in, quit, a signal (o->signaled) or a write that fails.
 * Returns 1, or 0 after reporting to diag that in or out failed. */
int dl_serve_run(dl_serve *s, FILE *in, FILE *out);

/* Frees s and its states; NULL is allowed.  The machine stays. */
void dl_serve_destroy(dl_serve *s);

/* Writes `error TEXT` (escaped as replies are) and its newline to out, and
 * flushes: the one reply of a session that cannot start. */
void dl_serve_reply_error(FILE *out, const char *text);

#endif
