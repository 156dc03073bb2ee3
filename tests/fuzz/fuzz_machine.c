/* fuzz_machine.c: bytes -> a game -> a machine on every backend: the rules
 * always, and the circuit, eager and lazy, when the game grounds within
 * the small limits (game.h); for a game in KIF that grounds, also the rules
 * of the game written for other players (datalog/write/players.h, with a
 * budget of 1 or 8 drawn from the input), which must be written and read
 * back.  A short playout, its moves drawn from a
 * seed made of the input, is played on all of them at once, and at each
 * state they must agree: the roles, terminal, each role's legal moves (as
 * texts), goal atoms and the state itself (as text); every move is read
 * by each machine from its text.  A disagreement is a bug: abort().  A
 * limit or the time budget on any of them ends the playout quietly.
 * Then each machine's own random playouts from the initial state (the
 * eager circuit's 256 lanes among them): they may end in a fault of the
 * game or a limit, but their figures must add up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/rng.h"
#include "datalog/write/players.h"
#include "lexer.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/game.h"

enum { N_MACHINES = 4, PLAYERS = 3, MAX_DEPTH = 12, MAX_ROLES = 64, PLAYOUT_DEPTH = 64 };

static const char *const names[N_MACHINES] = { "rules", "circuit eager", "circuit lazy", "players KIF, rules" };

typedef struct side {
  dl_game game;
  dl_machine *m;    /* NULL: this backend did not build */
  dl_mstate *s;     /* the current state */
  dl_stop stop;
  dl_diag *diag;
} side;

static void disagree(const char *what, int a, int b, const char *ta, const char *tb)
{
  fprintf(stderr, "fuzz_machine: %s: %s says\n%s\n%s says\n%s\n", what, names[a], ta ? ta : "(null)", names[b],
          tb ? tb : "(null)");
  abort();
}

static int cmp_text(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What side x answers about its state, as one text; NULL when a limit
 * stopped it.  *status: the first status that is not OK. */
static char *describe(side *x, int kif)
{
  dl_machine *m = x->m;
  dl_buf b = { 0 };
  dl_ids moves = { 0 };
  int terminal = 0;
  fuzz_stop_rearm(&x->stop);
  dl_mstatus st = dl_machine_terminal(m, x->s, &terminal);
  dl_buf_addf(&b, "terminal %d %d\n", (int)st, terminal);
  for (uint32_t r = 0; r < m->n_roles && st != DL_M_LIMIT && st != DL_M_NOMEM; r++) {
    dl_goal_found g = { 0 };
    st = dl_machine_legal(m, x->s, r, &moves);
    dl_buf_addf(&b, "legal %u %d:", r, (int)st);
    char **texts = calloc(moves.n + 1, sizeof *texts);
    for (uint32_t i = 0; st == DL_M_OK && texts && i < moves.n; i++) {
      dl_buf t = { 0 };
      dl_machine_term_text(m, m->ops->move_term(m, moves.ids[i]), kif ? DL_FMT_KIF : DL_FMT_INFIX, &t);
      texts[i] = t.data;
    }
    if (st == DL_M_OK && texts) qsort(texts, moves.n, sizeof *texts, cmp_text);
    for (uint32_t i = 0; texts && i < moves.n; i++) {
      if (st == DL_M_OK) dl_buf_addf(&b, " %s", texts[i] ? texts[i] : "?");
      free(texts[i]);
    }
    free(texts);
    dl_mstatus gs = dl_machine_goal_found(m, x->s, r, &g);
    dl_buf_addf(&b, "\ngoal %u %d %u %d %lld\n", r, (int)gs, g.count, g.value, (long long)g.sum);
    if (gs == DL_M_LIMIT || gs == DL_M_NOMEM) st = gs;
  }
  char *text = NULL;
  if (st != DL_M_LIMIT && st != DL_M_NOMEM) st = dl_machine_state_text(m, x->s, DL_FMT_KIF, &text);
  if (text) dl_buf_addz(&b, text);
  free(text);
  dl_ids_free(&moves);
  dl_diag_clear(x->diag);
  if (st == DL_M_LIMIT || st == DL_M_NOMEM || b.failed) {
    dl_buf_free(&b);
    return NULL;
  }
  return b.data ? b.data : calloc(1, 1);
}

/* Writes the game of data[0..size) for other players with budget growth
 * into *text (as `gdlog ground --for-players` does).  1 when written; 0
 * when a limit stopped it (a failure of another kind is a bug: abort()). */
static int players_text(side *x, const uint8_t *data, size_t size, int growth, dl_buf *text)
{
  dl_game_options o;
  fuzz_game_options(&o, DL_BACKEND_AUTO, DL_CIRCUIT_AUTO, &x->stop);
  o.ground.no_simplify = 1;
  dl_game g = { 0 };
  dl_players_options po = { .max_growth = growth, .game_bytes = size, .max_atoms = FUZZ_GAME_ATOMS,
                            .stop = &x->stop };
  dl_players_plan *pl = NULL;
  dl_sink sink = { fuzz_buf_write, text };
  dl_ground_options so = o.ground;
  so.no_simplify = 0;
  fuzz_stop_rearm(&x->stop);
  int ok = fuzz_game_build(&g, (const char *)data, size, LX_KIF, &o, DL_STAGE_GROUND, x->diag) &&
           (pl = dl_players_plan_create(g.loaded->prog, g.ground, &po, x->diag)) &&
           dl_players_write_all(&sink, pl, g.ground, &so, "fuzz", x->diag);
  if (!ok && !text->failed && !fuzz_limited(x->diag) && !fuzz_input_over()) {
    fprintf(stderr, "fuzz_machine: the game for players is not written\n");
    abort();
  }
  fuzz_render(x->diag);  /* the messages point into g's sources */
  dl_players_plan_destroy(pl);
  dl_game_free(&g);
  return ok && !text->failed;
}

/* Builds side i of the input (PLAYERS: of the game written for players
 * with budget growth); 1 when its machine is there. */
static int build(side *x, int i, const uint8_t *data, size_t size, int growth)
{
  dl_game_options o;
  fuzz_game_options(&o, i == 0 || i == PLAYERS ? DL_BACKEND_RULES : DL_BACKEND_CIRCUIT,
                    i == 2 ? DL_CIRCUIT_LAZY : DL_CIRCUIT_EAGER, &x->stop);
  x->diag = dl_diag_create();
  dl_buf text = { 0 };
  int from = x->diag && (i != PLAYERS || players_text(x, data, size, growth, &text));
  if (i == PLAYERS && from) data = (const uint8_t *)text.data, size = text.len;
  fuzz_stop_rearm(&x->stop);
  int built = from && fuzz_game_build(&x->game, (const char *)data, size, -1, &o, DL_STAGE_MACHINE, x->diag);
  if (i == PLAYERS && from && !built && !fuzz_limited(x->diag) && !fuzz_input_over()) {
    fprintf(stderr, "fuzz_machine: the game for players does not read back:\n%.*s\n", (int)text.len, text.data);
    abort();
  }
  if (built) {
    x->m = x->game.machine;
    x->m->stop = &x->stop;
    fuzz_stop_rearm(&x->stop);
    if (dl_machine_initial(x->m, &x->s) != DL_M_OK) x->m = NULL;
  }
  if (x->diag) fuzz_render(x->diag);
  dl_buf_free(&text);
  return x->m != NULL;
}

/* The roles of every machine must be the same texts in the same order. */
static void compare_roles(side *x, int n)
{
  for (int i = 1; i < n; i++) {
    if (!x[i].m) continue;
    if (x[i].m->n_roles != x[0].m->n_roles) disagree("the number of roles", 0, i, "", "");
    for (uint32_t r = 0; r < x[0].m->n_roles; r++) {
      dl_buf a = { 0 }, b = { 0 };
      dl_machine_term_text(x[0].m, x[0].m->roles[r], DL_FMT_KIF, &a);
      dl_machine_term_text(x[i].m, x[i].m->roles[r], DL_FMT_KIF, &b);
      if (a.data && b.data && strcmp(a.data, b.data)) disagree("a role", 0, i, a.data, b.data);
      dl_buf_free(&a);
      dl_buf_free(&b);
    }
  }
}

/* Draws a joint move on the rules machine and plays it on every machine;
 * 0 when the playout ends (terminal, a fault, a limit). */
static int step(side *x, int n, dl_rng *rng, int kif)
{
  dl_machine *m0 = x[0].m;
  uint32_t roles = m0->n_roles, joint[MAX_ROLES];
  char *texts[MAX_ROLES] = { 0 };
  dl_ids moves = { 0 };
  int terminal = 1, ok = dl_machine_terminal(m0, x[0].s, &terminal) == DL_M_OK && !terminal;
  for (uint32_t r = 0; ok && r < roles; r++) {
    ok = dl_machine_legal(m0, x[0].s, r, &moves) == DL_M_OK && moves.n > 0;
    dl_buf t = { 0 };
    if (ok) dl_machine_term_text(m0, m0->ops->move_term(m0, moves.ids[dl_rng_below(rng, moves.n)]),
                                 kif ? DL_FMT_KIF : DL_FMT_INFIX, &t);
    texts[r] = t.data;
    ok = ok && t.data;
  }
  for (int i = 0; ok && i < n; i++) {
    if (!x[i].m) continue;
    for (uint32_t r = 0; r < roles; r++) {
      dl_mstatus st = dl_machine_parse_move(x[i].m, r, texts[r], strlen(texts[r]), kif, &joint[r]);
      if (st != DL_M_OK) disagree("a legal move does not read back", 0, i, texts[r], "");
    }
    dl_mstate *next = NULL;
    fuzz_stop_rearm(&x[i].stop);
    dl_mstatus st = dl_machine_next(x[i].m, x[i].s, joint, &next);
    if (st == DL_M_LIMIT || st == DL_M_NOMEM) ok = 0;
    else if (st != DL_M_OK) disagree("a legal joint move is refused", 0, i, texts[0], "");
    else free(x[i].s), x[i].s = next;
    dl_diag_clear(x[i].diag);
  }
  for (uint32_t r = 0; r < roles; r++) free(texts[r]);
  dl_ids_free(&moves);
  return ok;
}

/* Compares every machine's view of its state with the rules'; 0 when a
 * limit stopped one. */
static int compare(side *x, int n, int kif)
{
  char *base = describe(&x[0], kif);
  int ok = base != NULL;
  for (int i = 1; ok && i < n; i++) {
    if (!x[i].m) continue;
    char *other = describe(&x[i], kif);
    if (other && strcmp(base, other)) disagree("the state", 0, i, base, other);
    ok = other != NULL;
    free(other);
  }
  free(base);
  return ok;
}

/* Side i's random playouts from its initial state: 130 on the eager
 * circuit (256 lanes where it has them), 3 on the others.  A status other
 * than OK, a fault of the game, a limit or no memory, or figures that do
 * not add up, abort(). */
static void playouts(side *x, int i, uint64_t seed)
{
  dl_machine *m = x->m;
  dl_mstate *start = NULL;
  fuzz_stop_rearm(&x->stop);
  if (dl_machine_initial(m, &start) != DL_M_OK) {
    dl_diag_clear(x->diag);
    return;
  }
  double *sum = calloc(m->n_roles + 1, sizeof *sum);
  dl_playout_options o = { i == 1 ? 130 : 3, seed, PLAYOUT_DEPTH, i == 2 ? 0 : -1, 0, 0 };
  dl_playout_totals t = { .goal_sum = sum };
  fuzz_stop_rearm(&x->stop);
  dl_mstatus st = sum ? dl_machine_playouts(m, start, &o, &t) : DL_M_NOMEM;
  if (st == DL_M_INPUT || st == DL_M_ILLEGAL) disagree("playouts fail", i, i, "", "");
  if (st == DL_M_OK && (t.playouts != o.n || t.max_depth > PLAYOUT_DEPTH || t.min_depth > t.max_depth ||
                        t.states < t.playouts || (t.lanes != 1 && t.lanes != DL_M_LANES_WIDE)))
    disagree("playout figures", i, i, "", "");
  for (uint32_t r = 0; st == DL_M_OK && r < m->n_roles; r++)
    if (sum[r] < 0 || sum[r] > 100.0 * (double)t.playouts) disagree("a goal sum", i, i, "", "");
  free(sum);
  free(start);
  dl_diag_clear(x->diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  side x[N_MACHINES];
  memset(x, 0, sizeof x);
  uint64_t seed = 1469598103934665603ULL;
  for (size_t i = 0; i < size; i++) seed = (seed ^ data[i]) * 1099511628211ULL;
  dl_rng rng;
  dl_rng_seed(&rng, seed);
  fuzz_input_begin();
  if (build(&x[0], 0, data, size, 0) && x[0].m->n_roles <= MAX_ROLES) {
    int kif = x[0].game.kif, growth = seed & 1 ? 1 : 8;
    for (int i = 1; i < N_MACHINES; i++)
      if (i != PLAYERS || (kif && x[1].m)) build(&x[i], i, data, size, growth);  /* it grounds */
    compare_roles(x, N_MACHINES);
    for (int depth = 0; depth < MAX_DEPTH && !fuzz_input_over() && compare(x, N_MACHINES, kif) &&
                        step(x, N_MACHINES, &rng, kif);
         depth++) {
    }
    for (int i = 0; i < N_MACHINES && !fuzz_input_over(); i++)
      if (x[i].m) playouts(&x[i], i, seed);
  }
  for (int i = 0; i < N_MACHINES; i++) {
    free(x[i].s);
    if (x[i].diag) fuzz_render(x[i].diag);
    dl_game_free(&x[i].game);
    dl_diag_destroy(x[i].diag);
  }
  return 0;
}
