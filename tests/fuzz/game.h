/* game.h: what the game harnesses share: a game built from fuzzed bytes
 * through the one pipeline (datalog/machine/pipeline.h) under small limits
 * and a wall-clock budget, and small helpers over its machine. */
#ifndef GDLOG_FUZZ_GAME_H
#define GDLOG_FUZZ_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/base/stop.h"
#include "datalog/machine/pipeline.h"
#include "datalog/write/output.h"

/* The limits every game harness builds under: small, so that an input runs
 * in well under libFuzzer's timeout on a loaded machine. */
enum { FUZZ_GAME_ATOMS = 20000, FUZZ_GAME_INSTANCES = 20000 };
#define FUZZ_GAME_SECONDS 1.0
/* ... and every input within this many (on a loaded machine, where the
 * fuzzer gets a fraction of a core, libFuzzer's -timeout=10 stays far). */
#define FUZZ_INPUT_SECONDS 3.0

/* Starts the budget of one input: FUZZ_INPUT_SECONDS from now. */
void fuzz_input_begin(void);

/* Whether the budget of the input is spent. */
int fuzz_input_over(void);

/* Sets stop's deadline FUZZ_GAME_SECONDS from now, or at the end of the
 * input's budget when that comes first (before each long computation). */
void fuzz_stop_rearm(dl_stop *stop);

/* Sets stop's deadline at the end of the input's budget. */
void fuzz_stop_input(dl_stop *stop);

/* Options for a game built under the small limits with stop. */
void fuzz_game_options(dl_game_options *o, dl_backend backend, dl_circuit_mode mode, const dl_stop *stop);

/* Loads text[0..len) (syntax: an lx_syntax, or -1 to sniff) into g and
 * builds it up to `to` with o.  1 when it got there, else 0 (g holds what
 * was built: free it with dl_game_free after fuzz_render). */
int fuzz_game_build(dl_game *g, const char *text, size_t len, int syntax, const dl_game_options *o, dl_stage to,
                    dl_diag *diag);

/* Renders every message of diag (as a command would print them) and
 * clears it. */
void fuzz_render(dl_diag *diag);

/* Whether diag holds a message saying a limit or the stop was reached, or
 * memory ran out: a failure that is not the input's fault. */
int fuzz_limited(const dl_diag *diag);

/* A dl_sink write function that appends to the dl_buf ctx; 0 when out of
 * memory. */
int fuzz_buf_write(void *ctx, const char *data, size_t n);

#endif
