/* random_player.c: a tiny random-playout player built against the installed
 * library (gdlog.h only, linked through pkg-config).
 *
 *   random_player GAME [PLAYOUTS] [SEED] [auto|rules|circuit]
 *
 * Plays PLAYOUTS (default 3) uniformly random playouts from the initial
 * state and prints, per playout, its length, the moves of the first role
 * and every role's goal; then the mean time per playout; then every role's
 * mean goal over 1000 playouts in one call (gdlog_playouts). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <gdlog.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long long rng_state;

static unsigned random_below(unsigned n)
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)((rng_state >> 33) % n);
}

static int fail(gdlog_game *g, gdlog_status st)
{
  fprintf(stderr, "random_player: %s\n%s", gdlog_status_name(st), g ? gdlog_error(g) : "");
  gdlog_close(g);
  return 1;
}

/* One playout from the initial state; prints it.  GDLOG_OK or the error. */
static gdlog_status playout(gdlog_game *g, int index)
{
  int roles = gdlog_role_count(g), terminal = 0, depth = 0;
  gdlog_move *joint = malloc((size_t)roles * sizeof *joint);
  gdlog_state *s = NULL;
  gdlog_status st = joint ? gdlog_initial(g, &s) : GDLOG_ERR_NOMEM;
  printf("playout %d:", index);
  while (st == GDLOG_OK && (st = gdlog_is_terminal(g, s, &terminal)) == GDLOG_OK && !terminal) {
    for (int r = 0; st == GDLOG_OK && r < roles; r++) {
      const gdlog_move *moves;
      int n;
      st = gdlog_legal(g, s, r, &moves, &n);
      if (st == GDLOG_OK) joint[r] = moves[random_below((unsigned)n)];
    }
    if (st != GDLOG_OK) break;
    printf(" %s", gdlog_move_text(g, joint[depth % roles]));
    gdlog_state *next;
    st = gdlog_next(g, s, joint, &next);
    gdlog_state_free(s);
    s = st == GDLOG_OK ? next : NULL;
    depth++;
  }
  if (st == GDLOG_OK) printf("\n  %d joint moves; goals", depth);
  for (int r = 0; st == GDLOG_OK && r < roles; r++) {
    int value;
    st = gdlog_goal(g, s, r, &value);
    if (st == GDLOG_OK) printf(" %s=%d", gdlog_role_name(g, r), value);
  }
  printf("\n");
  gdlog_state_free(s);
  free(joint);
  return st;
}

int main(int argc, char **argv)
{
  if (argc < 2 || argc > 5) {
    fprintf(stderr, "usage: random_player GAME [PLAYOUTS] [SEED] [auto|rules|circuit]\n");
    return 2;
  }
  int playouts = argc > 2 ? atoi(argv[2]) : 3;
  rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
  gdlog_options o;
  gdlog_options_init(&o);
  if (argc > 4) o.backend = argv[4][0] == 'r' ? GDLOG_BACKEND_RULES : argv[4][0] == 'c' ? GDLOG_BACKEND_CIRCUIT : GDLOG_BACKEND_AUTO;
  gdlog_game *g;
  gdlog_status st = gdlog_open_file(argv[1], &o, &g);
  if (st != GDLOG_OK) return fail(g, st);
  printf("gdlog %s, %d roles:", gdlog_version(), gdlog_role_count(g));
  fprintf(stderr, "backend: %s\n", gdlog_backend_of(g) == GDLOG_BACKEND_CIRCUIT ? "circuit" : "rules");
  for (int r = 0; r < gdlog_role_count(g); r++) printf(" %s", gdlog_role_name(g, r));
  printf("\n");
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < playouts; i++)
    if ((st = playout(g, i)) != GDLOG_OK) return fail(g, st);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  fprintf(stderr, "%d playouts in %.3f s: %.2f ms per playout\n", playouts, sec, playouts ? 1e3 * sec / playouts : 0.0);
  gdlog_state *s = NULL;
  double *mean = calloc((size_t)gdlog_role_count(g) + 1, sizeof *mean);  /* a mean goal per role */
  st = mean ? gdlog_initial(g, &s) : GDLOG_ERR_NOMEM;
  if (st == GDLOG_OK) st = gdlog_playouts(g, s, 1000, rng_state, mean, NULL);
  gdlog_state_free(s);
  if (st != GDLOG_OK) {
    free(mean);
    return fail(g, st);
  }
  printf("mean of 1000 playouts:");
  for (int r = 0; r < gdlog_role_count(g); r++) printf(" %s=%.2f", gdlog_role_name(g, r), mean[r]);
  printf("\n");
  free(mean);
  gdlog_close(g);
  return 0;
}
