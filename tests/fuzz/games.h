/* games.h: tiny games embedded in the request harnesses: tic-tac-toe and a
 * three-role game in KIF, a nim in infix (with a quoted role name), a step
 * counter whose ANDs the circuit selects, in infix. */
#ifndef GDLOG_FUZZ_GAMES_H
#define GDLOG_FUZZ_GAMES_H

#include <stddef.h>

enum { FUZZ_N_GAMES = 4, FUZZ_GAME_STEPS = 3 };  /* the steps game: test_circuit plays it too */

typedef struct fuzz_embedded {
  const char *name;  /* with the extension that tells its syntax */
  const char *text;
  size_t len;
} fuzz_embedded;

extern const fuzz_embedded fuzz_games[FUZZ_N_GAMES];

#endif
