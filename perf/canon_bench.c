/* canon_bench.c: how long a canonical state takes (the least image of a
 * state under the game's symmetry group, datalog/structure/).
 *
 *   canon_bench GAME [STATES [ROUNDS]]
 *
 * Builds GAME's machine (the pipeline's default backend) and its symmetry
 * group, collects STATES (default 10000) states from seeded random
 * playouts, then times, over ROUNDS (default 20) passes over them:
 *   - core: dl_symmetry_act_canonical on the state's bitset over the
 *     group's fluents (what a player's own search would call);
 *   - state: dl_game_symmetry_state(DL_CANONICAL), from a machine state to
 *     a machine state through the fluents' terms (read out, mapped, and a
 *     new state made);
 *   - bound: the same after dl_game_symmetry_bind, bit by bit where the
 *     machine's states are bitsets (the circuit's): what gdlog_canonical
 *     and serve do.
 * Prints the group's order, the fluents, and ns per call for each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/clock.h"
#include "datalog/base/rng.h"
#include "datalog/machine/pipeline.h"
#include "datalog/structure/game_symmetry.h"

/* Random playouts from the initial state until n states are collected. */
static dl_mstate **collect(dl_machine *m, uint32_t n)
{
  dl_mstate **states = calloc(n, sizeof *states);
  uint32_t *joint = calloc(m->n_roles + 1, sizeof *joint), k = 0;
  dl_ids moves = { 0 };
  dl_rng rng;
  dl_rng_seed(&rng, 1);
  while (states && joint && k < n) {
    dl_mstate *s = NULL;
    int terminal = 0;
    if (dl_machine_initial(m, &s) != DL_M_OK) break;
    while (k < n && dl_machine_terminal(m, s, &terminal) == DL_M_OK && !terminal) {
      for (uint32_t r = 0; r < m->n_roles; r++) {
        moves.n = 0;
        if (dl_machine_legal(m, s, r, &moves) != DL_M_OK || !moves.n) return NULL;
        joint[r] = moves.ids[dl_rng_below(&rng, moves.n)];
      }
      states[k++] = s;
      if (dl_machine_next(m, states[k - 1], joint, &s) != DL_M_OK) return NULL;
    }
    free(s);
  }
  free(joint);
  dl_ids_free(&moves);
  return k == n ? states : NULL;
}

/* Seconds per round of canonical machine states of states[0..n). */
static double time_states(const dl_game_symmetry *gs, dl_machine *m, dl_mstate **states, uint32_t n, uint32_t rounds,
                          uint64_t *sum)
{
  double t0 = dl_clock_now();
  for (uint32_t r = 0; r < rounds; r++)
    for (uint32_t i = 0; i < n; i++) {
      dl_mstate *c = NULL;
      if (dl_game_symmetry_state(gs, m, states[i], DL_CANONICAL, &c, NULL) != DL_M_OK) return -1;
      *sum += c->data[0];
      free(c);
    }
  return dl_clock_now() - t0;
}

static int bench(dl_game *g, dl_game_symmetry *gs, uint32_t n, uint32_t rounds)
{
  dl_machine *m = g->machine;
  const dl_symmetry_act *a = gs->act;
  uint32_t words = dl_symmetry_act_words(a);
  dl_mstate **states = collect(m, n);
  uint64_t *bits = calloc((size_t)n * words + 1, sizeof *bits), *out = calloc(words + 1, sizeof *out), sum = 0;
  if (!states || !bits || !out) return fprintf(stderr, "canon_bench: could not collect %u states\n", n), 0;
  dl_ids scratch = { 0 };
  for (uint32_t i = 0; i < n; i++)
    if (dl_game_symmetry_bits(a, m, states[i], &scratch, bits + (size_t)i * words) != DL_M_OK) return 0;
  dl_ids_free(&scratch);
  double t0 = dl_clock_now();
  for (uint32_t r = 0; r < rounds; r++)
    for (uint32_t i = 0; i < n; i++) {
      dl_symmetry_act_canonical(a, bits + (size_t)i * words, out);
      sum += out[0];
    }
  double core = dl_clock_now() - t0;
  double full = time_states(gs, m, states, n, rounds, &sum);
  double bound = dl_game_symmetry_bind(gs, m) ? time_states(gs, m, states, n, rounds, &sum) : -1;
  if (full < 0 || bound < 0) return 0;
  int exact;
  double calls = (double)n * rounds;
  printf("order %llu, %u fluents (%u words), %u states x %u rounds (checksum %llu)\n",
         (unsigned long long)dl_symmetry_act_order(a, &exact), dl_symmetry_act_size(a, DL_ACT_FLUENT), words, n,
         rounds, (unsigned long long)sum);
  printf("core   %.1f ns per canonical bitset\n", 1e9 * core / calls);
  printf("state  %.1f ns per canonical machine state (%s backend), through the fluents' terms\n", 1e9 * full / calls,
         dl_machine_backend(m));
  printf("bound  %.1f ns per canonical machine state, bit by bit (dl_game_symmetry_bind; the API's and serve's)\n",
         1e9 * bound / calls);
  for (uint32_t i = 0; i < n; i++) free(states[i]);
  free(states), free(bits), free(out);
  return 1;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: canon_bench GAME [STATES [ROUNDS]]\n");
    return 2;
  }
  uint32_t n = argc > 2 ? (uint32_t)atoi(argv[2]) : 10000, rounds = argc > 3 ? (uint32_t)atoi(argv[3]) : 20;
  dl_diag *diag = dl_diag_create();
  dl_game g = { 0 };
  dl_game_options o;
  dl_game_options_init(&o);
  dl_load_options lo = { .file = argv[1], .syntax = -1 };
  dl_game_symmetry gs = { 0 };
  int ok = diag && n > 0 && rounds > 0 && dl_game_load(&g, &lo, NULL, 0, diag) &&
           dl_game_build(&g, NULL, &o, DL_STAGE_MACHINE, diag) &&
           dl_game_symmetry_find(&gs, g.loaded->prog, g.domains, diag) && bench(&g, &gs, n, rounds);
  if (!ok) fprintf(stderr, "canon_bench: %s failed\n", argv[1]);
  dl_game_symmetry_free(&gs);
  dl_game_free(&g);
  dl_diag_destroy(diag);
  return ok ? 0 : 1;
}
