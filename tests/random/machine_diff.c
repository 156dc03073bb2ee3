/* machine_diff.c: one game played on every backend of the state machine,
 * answers compared at every state.
 *
 *   machine_diff [--playouts N] [--seed S] [--wide N] [--dump DIR] GAME.kif
 *
 * The configurations, each built through the pipeline (pipeline.h) from
 * the game's text: the rules (demand as the pipeline chooses, forced off,
 * forced on), the circuit (eager, lazy), and the ground game that the
 * library's ground writer (ground_write.h) gives in KIF, read back and
 * played by the rules and by a circuit of it as written, and the game
 * written for other players (players.h, `gdlog ground --for-players`)
 * with the default budget and with the least one (which writes most rules
 * as written, unfolded and collapsed), read back and played by the rules.
 * N random
 * playouts (default 10) walk one path on all of them: the moves are drawn
 * by this program's generator (seed S, default 1) among the first
 * configuration's legal moves, and played by name on the others.  At every
 * state: the roles (once), the state's fluents (sorted text), terminal,
 * each role's goal atoms (unchecked: count and value), and outside
 * terminal states each role's legal moves (sorted text).  Then 20 of the
 * backends' own playouts (dl_machine_playouts, one lane) with seed S on
 * each configuration: none may fail, and the rules configurations that
 * evaluate alike (demand-driven or not), which number their moves alike,
 * must give the same figures.  Then N wide
 * playouts (--wide, default 128; 0: none) of the eager circuit run 64 at a
 * time in bit lanes, each replayed on the rules: the same legal moves
 * counted, the lanes' moves legal there, the same end and goals.
 * --dump DIR writes a few of the states met and the joint moves played
 * there into DIR (N.state, N.does), for a check of the models elsewhere.
 *
 * Prints one line of figures, and at the first disagreement the game, the
 * path, the state and what each configuration said.  Exit status: 0 all
 * agree (also when every configuration rejects the game with the same
 * first error: then a line "rejected: ..."), 1 a disagreement, an error
 * of one configuration only or a walk without end, 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/buf.h"
#include "datalog/base/rng.h"
#include "datalog/compile/compile.h"  /* a circuit of its own, for the wide playouts */
#include "datalog/machine/machine.h"
#include "datalog/machine/pipeline.h"
#include "datalog/write/ground_write.h"
#include "datalog/write/players.h"

enum { MAX_CONFIGS = 10, MAX_DEPTH = 400, EAGER = 3 };

/* One way to build and play the game. */
typedef struct config {
  const char *name;
  dl_backend backend;
  dl_sm_demand demand;
  dl_circuit_mode mode;
  int from;          /* built from the game (FROM_GAME) or a text of it gdlog wrote */
  int growth;        /* FROM_PLAYERS: the output's budget (--max-growth) */
  int group;         /* configurations of one group list their legal moves in one order: the same fast playouts */
  dl_diag *diag;
  dl_game game;
  dl_machine *m;     /* game.machine once built */
  dl_mstate *s;      /* the state of the walk */
  char *answer;      /* the last answer, as text */
} config;

typedef struct differ {
  const char *file;
  char *text;            /* the game */
  size_t len;
  dl_buf ground;         /* the ground game in KIF */
  dl_buf players[2];     /* the game for players in KIF, with the budgets of the FROM_PLAYERS configurations */
  config c[MAX_CONFIGS];
  int n;
  dl_buf path;           /* the joint moves of this playout so far */
  dl_rng rng;
  uint64_t states, playouts, wide;
  const char *dump;      /* --dump DIR: where sampled states go (NULL: none) */
  dl_rng dump_rng;       /* draws the samples, apart from the moves' draws */
  uint32_t dumped;
  int walking;           /* in a walk (else building, or the fast or wide playouts) */
} differ;

enum { FROM_GAME, FROM_GROUND, FROM_PLAYERS };

static const config configs[] = {
  { "rules", DL_BACKEND_RULES, DL_SM_DEMAND_AUTO, DL_CIRCUIT_AUTO, FROM_GAME, 0, 1, NULL, { 0 }, NULL, NULL, NULL },
  { "rules demand off", DL_BACKEND_RULES, DL_SM_DEMAND_OFF, DL_CIRCUIT_AUTO, FROM_GAME, 0, 1, NULL, { 0 }, NULL, NULL, NULL },
  { "rules demand on", DL_BACKEND_RULES, DL_SM_DEMAND_ON, DL_CIRCUIT_AUTO, FROM_GAME, 0, 1, NULL, { 0 }, NULL, NULL, NULL },
  { "circuit eager", DL_BACKEND_CIRCUIT, DL_SM_DEMAND_AUTO, DL_CIRCUIT_EAGER, FROM_GAME, 0, 2, NULL, { 0 }, NULL, NULL, NULL },
  { "circuit lazy", DL_BACKEND_CIRCUIT, DL_SM_DEMAND_AUTO, DL_CIRCUIT_LAZY, FROM_GAME, 0, 3, NULL, { 0 }, NULL, NULL, NULL },
  { "ground KIF, rules", DL_BACKEND_RULES, DL_SM_DEMAND_AUTO, DL_CIRCUIT_AUTO, FROM_GROUND, 0, 4, NULL, { 0 }, NULL, NULL, NULL },
  { "ground KIF, circuit", DL_BACKEND_CIRCUIT, DL_SM_DEMAND_AUTO, DL_CIRCUIT_AUTO, FROM_GROUND, 0, 5, NULL, { 0 }, NULL, NULL, NULL },
  { "players KIF, rules", DL_BACKEND_RULES, DL_SM_DEMAND_AUTO, DL_CIRCUIT_AUTO, FROM_PLAYERS, 8, 7, NULL, { 0 }, NULL, NULL, NULL },
  { "players KIF at growth 1, rules", DL_BACKEND_RULES, DL_SM_DEMAND_AUTO, DL_CIRCUIT_AUTO, FROM_PLAYERS, 1, 8, NULL, { 0 }, NULL, NULL, NULL },
};

/* ---- text ---- */

/* A malloc'd copy of the buffer's text ("out of memory" when it failed). */
static char *buf_text(dl_buf *b)
{
  const char *t = b->failed ? "out of memory" : b->data ? b->data : "";
  size_t n = b->failed ? strlen(t) : b->len;
  char *s = malloc(n + 1);
  if (s) memcpy(s, t, n), s[n] = 0;
  dl_buf_free(b);
  return s;
}

/* A malloc'd copy of s (C11 has no strdup); NULL when out of memory. */
static char *dup_text(const char *s)
{
  size_t n = strlen(s) + 1;
  char *t = malloc(n);
  return t ? memcpy(t, s, n) : NULL;
}

/* The first error of d as an answer ("error: ..."), d emptied. */
static char *error_text(dl_diag *d)
{
  dl_buf b = { 0 };
  dl_buf_addz(&b, "error: ");
  for (size_t i = 0; i < dl_diag_count(d); i++)
    if (dl_diag_message(d, i)->severity == DL_ERROR) {
      dl_buf_addz(&b, dl_diag_message(d, i)->text);
      break;
    }
  dl_diag_clear(d);
  return buf_text(&b);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The moves of role r legal in c's state, as KIF texts sorted and joined
 * by " | "; an error as error_text. */
static char *legal_text(config *c, uint32_t r)
{
  dl_ids moves = { 0 };
  if (dl_machine_legal(c->m, c->s, r, &moves) != DL_M_OK) return dl_ids_free(&moves), error_text(c->diag);
  char **texts = calloc(moves.n + 1, sizeof *texts);
  dl_buf b = { 0 };
  for (uint32_t i = 0; texts && i < moves.n; i++) {
    dl_buf t = { 0 };
    dl_machine_term_text(c->m, c->m->ops->move_term(c->m, moves.ids[i]), DL_FMT_KIF, &t);
    texts[i] = buf_text(&t);
  }
  if (texts) qsort(texts, moves.n, sizeof *texts, cmp_str);
  for (uint32_t i = 0; texts && i < moves.n; i++) dl_buf_addf(&b, "%s%s", i ? " | " : "", texts[i] ? texts[i] : "?");
  for (uint32_t i = 0; texts && i < moves.n; i++) free(texts[i]);
  free(texts);
  dl_ids_free(&moves);
  return buf_text(&b);
}

static char *goal_text(config *c, uint32_t r)
{
  dl_goal_found g;
  if (dl_machine_goal_found(c->m, c->s, r, &g) != DL_M_OK) return error_text(c->diag);
  dl_buf b = { 0 };
  if (g.count == 1) dl_buf_addf(&b, "%d", (int)g.value);
  else dl_buf_addf(&b, "%u values, sum %lld", (unsigned)g.count, (long long)g.sum);
  return buf_text(&b);
}

static char *terminal_text(config *c)
{
  int t;
  if (dl_machine_terminal(c->m, c->s, &t) != DL_M_OK) return error_text(c->diag);
  dl_buf b = { 0 };
  dl_buf_addz(&b, t ? "terminal" : "not terminal");
  return buf_text(&b);
}

static char *state_text(config *c)
{
  char *t = NULL;
  if (dl_machine_state_text(c->m, c->s, DL_FMT_KIF, &t) != DL_M_OK) return free(t), error_text(c->diag);
  return t;
}

static char *roles_text(config *c)
{
  dl_buf b = { 0 };
  for (uint32_t r = 0; r < c->m->n_roles; r++) {
    if (r) dl_buf_addz(&b, " ");
    dl_machine_term_text(c->m, c->m->roles[r], DL_FMT_KIF, &b);
  }
  return buf_text(&b);
}

/* ---- comparing ---- */

/* Prints the disagreement about `what`: the game, the path, the state (as
 * the first configuration has it) and each configuration's answer. */
static void report(differ *d, const char *what)
{
  printf("DISAGREE on %s in %s", what, d->file);
  if (d->walking) printf(" (walk %llu)", (unsigned long long)d->playouts + 1);
  printf("\n");
  printf("-- game:\n%s", d->text);
  if (d->walking)
    printf("-- path (joint moves from the initial state, roles in order):\n%.*s", (int)d->path.len,
           d->path.len ? d->path.data : "");
  if (d->walking && !d->path.len) printf("(none: the initial state)\n");
  char *s = d->c[0].s ? state_text(&d->c[0]) : NULL;
  printf("-- state (%s):\n%s%s", d->c[0].name, s ? s : "?\n", s && *s && s[strlen(s) - 1] != '\n' ? "\n" : "");
  free(s);
  printf("-- answers:\n");
  for (int i = 0; i < d->n; i++) printf("  %-20s %s\n", d->c[i].name, d->c[i].answer ? d->c[i].answer : "?");
}

/* Whether every configuration's answer equals the first's; reports
 * otherwise, and when the first answer is an error (the games played are
 * valid).  Frees the answers. */
static int agree(differ *d, const char *what)
{
  int same = 1;
  for (int i = 0; i < d->n; i++) same &= d->c[i].answer && strcmp(d->c[i].answer, d->c[0].answer) == 0;
  int ok = same && strncmp(d->c[0].answer, "error: ", 7) != 0;
  if (!ok) report(d, what);
  for (int i = 0; i < d->n; i++) free(d->c[i].answer), d->c[i].answer = NULL;
  return ok;
}

/* Asks every configuration one question about its state. */
typedef char *(*question)(config *c, uint32_t r);
static int ask(differ *d, question q, uint32_t r, const char *what)
{
  for (int i = 0; i < d->n; i++) d->c[i].answer = q(&d->c[i], r);
  return agree(d, what);
}

static char *q_state(config *c, uint32_t r) { return (void)r, state_text(c); }
static char *q_terminal(config *c, uint32_t r) { return (void)r, terminal_text(c); }
static char *q_roles(config *c, uint32_t r) { return (void)r, roles_text(c); }

/* ---- building ---- */

static int sink_buf(void *ctx, const char *data, size_t n)
{
  dl_buf_add(ctx, data, n);
  return !((dl_buf *)ctx)->failed;
}

/* Builds configuration c from text[0..len) named name.  1, or 0 with its
 * first error in c->answer. */
static int build(config *c, const char *name, const char *text, size_t len)
{
  dl_load_options lo = { .file = name, .syntax = -1 };
  dl_game_options o;
  dl_game_options_init(&o);
  o.backend = c->backend, o.demand = c->demand, o.circuit_mode = c->mode, o.as_written = c->from == FROM_GROUND;
  c->diag = dl_diag_create();
  int ok = c->diag && dl_game_load(&c->game, &lo, text, len, c->diag) &&
           dl_game_build(&c->game, NULL, &o, DL_STAGE_MACHINE, c->diag);
  c->m = ok ? c->game.machine : NULL;
  if (!ok) c->answer = c->diag ? error_text(c->diag) : NULL;
  return ok;
}

/* Writes the game of d for other players with budget growth into out
 * (players.h, as `gdlog ground --for-players` does, from the ground game
 * made without simplification).  1, or 0 with the first error in *why. */
static int write_players(differ *d, int growth, dl_buf *out, char **why)
{
  dl_load_options lo = { .file = d->file, .syntax = -1 };
  dl_game_options o;
  dl_game_options_init(&o);
  o.ground.no_simplify = 1;
  dl_diag *diag = dl_diag_create();
  dl_game g = { 0 };
  dl_players_options po = { .max_growth = growth, .game_bytes = d->len };
  dl_players_plan *pl = NULL;
  int ok = diag && dl_game_load(&g, &lo, d->text, d->len, diag) && dl_game_build(&g, NULL, &o, DL_STAGE_GROUND, diag) &&
           (pl = dl_players_plan_create(g.loaded->prog, g.ground, &po, diag));
  dl_sink sink = { sink_buf, out };
  dl_ground_options so = o.ground;
  so.no_simplify = 0;
  ok = ok && dl_players_write_all(&sink, pl, g.ground, &so, d->file, diag);
  if (!ok) *why = diag ? error_text(diag) : NULL;
  dl_players_plan_destroy(pl);
  dl_game_free(&g);
  dl_diag_destroy(diag);
  return ok;
}

/* The text configuration c is built from (its name in *name), written
 * once; NULL with c->answer set when it could not be. */
static const dl_buf *config_text(differ *d, config *c, const char **name)
{
  static const char ground_name[] = "ground.kif", players_name[] = "players.kif";
  if (c->from == FROM_GROUND) {
    *name = ground_name;
    if (!d->c[EAGER].m) {
      c->answer = d->c[EAGER].answer ? dup_text(d->c[EAGER].answer) : NULL;
      return NULL;
    }
    dl_sink sink = { sink_buf, &d->ground };
    if (!d->ground.len && !dl_ground_write(&sink, d->c[EAGER].game.ground, DL_GROUND_KIF)) {
      c->answer = dup_text("out of memory");
      return NULL;
    }
    return &d->ground;
  }
  *name = players_name;
  dl_buf *b = &d->players[c->growth > 1];
  return b->len || write_players(d, c->growth, b, &c->answer) ? b : NULL;
}

/* Builds every configuration; those of a text gdlog wrote from it.  1
 * when all built; else prints what failed, and *rejected says whether all
 * failed with the same first error. */
static int build_all(differ *d, int *rejected)
{
  int built = 0;
  d->n = (int)(sizeof configs / sizeof configs[0]);
  for (int i = 0; i < d->n; i++) {
    d->c[i] = configs[i];
    if (d->c[i].from == FROM_GAME) {
      built += build(&d->c[i], d->file, d->text, d->len);
      continue;
    }
    const char *name;
    const dl_buf *text = config_text(d, &d->c[i], &name);
    built += text && build(&d->c[i], name, text->data, text->len);
  }
  if (built == d->n) return 1;
  *rejected = 1;
  for (int i = 0; i < d->n; i++)
    *rejected &= !d->c[i].m && d->c[i].answer && d->c[0].answer && strcmp(d->c[i].answer, d->c[0].answer) == 0;
  if (*rejected) printf("rejected: %s: %s\n", d->file, d->c[0].answer);
  else report(d, "building the game");
  return 0;
}

static void free_all(differ *d)
{
  for (int i = 0; i < d->n; i++) {
    free(d->c[i].s), free(d->c[i].answer);
    dl_game_free(&d->c[i].game);
    dl_diag_destroy(d->c[i].diag);
  }
  dl_buf_free(&d->ground);
  dl_buf_free(&d->players[0]);
  dl_buf_free(&d->players[1]);
  dl_buf_free(&d->path);
  free(d->text);
}

/* ---- walking ---- */

/* Sets every configuration on its initial state. */
static int start(differ *d)
{
  d->path.len = 0;
  for (int i = 0; i < d->n; i++) {
    free(d->c[i].s), d->c[i].s = NULL;
    if (dl_machine_initial(d->c[i].m, &d->c[i].s) != DL_M_OK) d->c[i].answer = error_text(d->c[i].diag);
  }
  for (int i = 0; i < d->n; i++)
    if (!d->c[i].s) {
      for (int k = 0; k < d->n; k++)
        if (!d->c[k].answer) d->c[k].answer = dup_text(d->c[k].s ? "an initial state" : "?");
      return agree(d, "the initial state"), 0;
    }
  return ask(d, q_state, 0, "the initial state");
}

/* Draws a move among the legal moves of one role as the first
 * configuration wrote them (" | " between moves); returns its text. */
static char *draw(differ *d, const char *legal)
{
  uint32_t n = 1;
  for (const char *p = legal; (p = strstr(p, " | ")); p += 3) n++;
  uint32_t k = dl_rng_below(&d->rng, n);
  const char *p = legal;
  for (uint32_t i = 0; i < k; i++) p = strstr(p, " | ") + 3;
  const char *e = strstr(p, " | ");
  size_t len = e ? (size_t)(e - p) : strlen(p);
  char *m = malloc(len + 1);
  if (m) memcpy(m, p, len), m[len] = 0;
  return m;
}

/* Plays the joint move moves[0..n_roles) (texts) on every configuration. */
static int play(differ *d, char **moves)
{
  uint32_t roles = d->c[0].m->n_roles, joint[64];
  for (int i = 0; i < d->n; i++) {
    config *c = &d->c[i];
    dl_mstatus st = DL_M_OK;
    for (uint32_t r = 0; st == DL_M_OK && r < roles && r < 64; r++)
      st = dl_machine_parse_move(c->m, r, moves[r], strlen(moves[r]), 1, &joint[r]);
    dl_mstate *next = NULL;
    if (st == DL_M_OK) st = dl_machine_next(c->m, c->s, joint, &next);
    if (st != DL_M_OK) c->answer = error_text(c->diag);
    else free(c->s), c->s = next;
  }
  for (int i = 0; i < d->n; i++)
    if (d->c[i].answer) {
      for (int k = 0; k < d->n; k++)
        if (!d->c[k].answer) d->c[k].answer = dup_text("played");
      return agree(d, "playing the joint move"), 0;
    }
  return ask(d, q_state, 0, "the next state");
}

/* Compares the answers in the current state; *terminal says whether it is
 * terminal.  Outside terminal states draws the joint move into moves. */
static int compare_state(differ *d, int *terminal, char **moves)
{
  uint32_t roles = d->c[0].m->n_roles;
  char what[64];
  if (!ask(d, q_terminal, 0, "terminal")) return 0;
  char *t = terminal_text(&d->c[0]);
  *terminal = t && strcmp(t, "terminal") == 0;
  free(t);
  for (uint32_t r = 0; r < roles; r++) {
    snprintf(what, sizeof what, "the goal of role %u", r);
    if (!ask(d, goal_text, r, what)) return 0;
  }
  for (uint32_t r = 0; !*terminal && r < roles; r++) {
    snprintf(what, sizeof what, "the legal moves of role %u", r);
    for (int i = 0; i < d->n; i++) d->c[i].answer = legal_text(&d->c[i], r);
    char *legal = dup_text(d->c[0].answer);
    int ok = agree(d, what);
    moves[r] = ok && legal ? draw(d, legal) : NULL;
    free(legal);
    if (!moves[r]) return 0;
  }
  return 1;
}

/* Writes the state of the first configuration and the joint move
 * moves[0..n_roles) as DIR/N.state ((true F) per line) and DIR/N.does
 * ((does R A) per line), N counting from 1, for about one state in
 * DUMP_ONE_IN, at most DUMP_MAX of a game.  1, or 0 when a write failed. */
enum { DUMP_ONE_IN = 6, DUMP_MAX = 4 };
static int dump(differ *d, char **moves)
{
  if (!d->dump || d->dumped >= DUMP_MAX || dl_rng_below(&d->dump_rng, DUMP_ONE_IN)) return 1;
  config *c = &d->c[0];
  char *s = state_text(c), path[4096];
  d->dumped++;
  snprintf(path, sizeof path, "%s/%u.state", d->dump, d->dumped);
  FILE *f = fopen(path, "w");
  for (char *line = s, *e; f && line && *line; line = e ? e + 1 : NULL) {
    e = strchr(line, '\n');
    fprintf(f, "(true %.*s)\n", e ? (int)(e - line) : (int)strlen(line), line);
  }
  int ok = s && f && fclose(f) == 0;
  free(s);
  snprintf(path, sizeof path, "%s/%u.does", d->dump, d->dumped);
  f = ok ? fopen(path, "w") : NULL;
  for (uint32_t r = 0; f && r < c->m->n_roles; r++) {
    dl_buf b = { 0 };
    dl_machine_term_text(c->m, c->m->roles[r], DL_FMT_KIF, &b);
    fprintf(f, "(does %.*s %s)\n", (int)b.len, b.data ? b.data : "", moves[r]);
    dl_buf_free(&b);
  }
  ok = ok && f && fclose(f) == 0;
  if (!ok) printf("cannot write %s\n", path);
  return ok;
}

/* One random playout on every configuration. */
static int walk(differ *d)
{
  uint32_t roles = d->c[0].m->n_roles;
  char *moves[64] = { 0 };
  d->walking = 1;
  if (roles > 64 || !start(d)) return 0;
  for (uint32_t depth = 0; depth <= MAX_DEPTH; depth++) {
    int terminal = 0, ok = compare_state(d, &terminal, moves);
    d->states += ok;
    if (ok && terminal) return d->walking = 0, 1;
    for (uint32_t r = 0; ok && r < roles; r++) dl_buf_addf(&d->path, "%s%s", r ? " " : "", moves[r]);
    if (ok) dl_buf_addz(&d->path, "\n");
    ok = ok && dump(d, moves);
    ok = ok && play(d, moves);
    for (uint32_t r = 0; r < roles; r++) free(moves[r]), moves[r] = NULL;
    if (!ok) return 0;
  }
  printf("no terminal state within %d joint moves in %s\n", MAX_DEPTH, d->file);
  return 0;
}

/* ---- fast playouts ---- */

/* The figures of n playouts of c by dl_machine_playouts, one at a time. */
static char *playouts_text(config *c, uint32_t seed)
{
  dl_mstate *s = NULL;
  double goals[64] = { 0 };
  dl_playout_options o = { 20, seed, MAX_DEPTH, -1, 1, 0 };
  dl_playout_totals t = { 0 };
  t.goal_sum = goals;
  if (c->m->n_roles > 64 || dl_machine_initial(c->m, &s) != DL_M_OK || dl_machine_playouts(c->m, s, &o, &t) != DL_M_OK)
    return free(s), error_text(c->diag);
  free(s);
  dl_buf b = { 0 };
  dl_buf_addf(&b, "%llu playouts, %llu states, depth %u..%u, goals", (unsigned long long)t.playouts,
              (unsigned long long)t.states, t.min_depth, t.max_depth);
  for (uint32_t r = 0; r < c->m->n_roles; r++) dl_buf_addf(&b, " %.0f", goals[r]);
  return buf_text(&b);
}

/* The backends' own playouts (dl_machine_playouts, one lane), run with one
 * seed on every configuration: alike within a group, where moves are
 * numbered alike, and without error everywhere. */
static int fast_playouts(differ *d, uint32_t seed)
{
  for (int i = 0; i < d->n; i++) {
    d->c[i].answer = playouts_text(&d->c[i], seed);
    /* the rewriting makes its terms in another order: other move ids */
    if (d->c[i].group == 1 && dl_machine_uses_demand(d->c[i].m)) d->c[i].group = 6;
  }
  int ok = 1;
  for (int i = 0; ok && i < d->n; i++)
    for (int k = 0; ok && k < i; k++)
      ok = strncmp(d->c[i].answer, "error: ", 7) != 0 &&
           (d->c[k].group != d->c[i].group || strcmp(d->c[k].answer, d->c[i].answer) == 0);
  if (!ok) report(d, "the backends' own playouts (groups: 1 rules, 6 rules on demand, 2 eager, 3 lazy, 4 ground rules, 5 ground circuit, 7 and 8 players rules)");
  for (int i = 0; i < d->n; i++) free(d->c[i].answer), d->c[i].answer = NULL;
  return ok;
}

/* ---- wide playouts replayed on the rules ---- */

typedef struct replay {
  differ *d;
  dl_circuit *c;
  const dl_machine *eager;   /* whose terms the circuit's moves are */
  char why[256];
} replay;

/* The rules' answer for the end of a replayed playout, against the lanes'. */
static int replay_end(replay *x, config *c, const dl_wide_result *res)
{
  int t = 0;
  if (dl_machine_terminal(c->m, c->s, &t) != DL_M_OK) return snprintf(x->why, sizeof x->why, "terminal: error"), 0;
  if (res->p.status == DL_PLAYOUT_NO_LEGAL) {
    dl_ids moves = { 0 };
    dl_mstatus st = dl_machine_legal(c->m, c->s, res->p.role, &moves);
    dl_diag_clear(c->diag);
    dl_ids_free(&moves);
    if (t || st == DL_M_OK) return snprintf(x->why, sizeof x->why, "lanes: no legal move of role %u", res->p.role), 0;
    return 1;
  }
  if (res->p.status != DL_PLAYOUT_OK && res->p.status != DL_PLAYOUT_BAD_GOAL)
    return snprintf(x->why, sizeof x->why, "lanes ended with status %d", (int)res->p.status), 0;
  if (!t) return snprintf(x->why, sizeof x->why, "lanes ended, the rules say not terminal"), 0;
  for (uint32_t r = 0; r < c->m->n_roles; r++) {
    dl_goal_found g;
    if (dl_machine_goal_found(c->m, c->s, r, &g) != DL_M_OK) return snprintf(x->why, sizeof x->why, "goal: error"), 0;
    int same = g.count == (uint32_t)res->goal_n[r] && (g.count != 1 || g.value == res->goals[r]);
    if (!same)
      return snprintf(x->why, sizeof x->why, "role %u: lanes %d goal atoms (value %d), rules %u (value %d)", r,
                      (int)res->goal_n[r], (int)res->goals[r], (unsigned)g.count, (int)g.value), 0;
  }
  return 1;
}

/* Plays step i of the lanes' playout on the rules, checked. */
static int replay_step(replay *x, config *c, const dl_wide_result *res, uint32_t i, uint32_t *joint)
{
  uint32_t roles = c->m->n_roles;
  int t = 1;
  if (dl_machine_terminal(c->m, c->s, &t) != DL_M_OK || t)
    return snprintf(x->why, sizeof x->why, "step %u: the rules say terminal", i), 0;
  for (uint32_t r = 0; r < roles; r++) {
    dl_ids moves = { 0 };
    dl_buf b = { 0 };
    dl_machine_term_text(x->eager, dl_circuit_move_term(x->c, res->moves[(size_t)i * roles + r]), DL_FMT_KIF, &b);
    dl_buf_add(&b, "", 1);
    dl_mstatus st = b.failed ? DL_M_NOMEM : dl_machine_legal(c->m, c->s, r, &moves);
    if (st == DL_M_OK) st = dl_machine_parse_move(c->m, r, b.data, b.len - 1, 1, &joint[r]);
    int found = 0;
    for (uint32_t k = 0; st == DL_M_OK && k < moves.n; k++) found |= moves.ids[k] == joint[r];
    int same = st == DL_M_OK && found && moves.n == res->legal[(size_t)i * roles + r];
    if (!same)
      snprintf(x->why, sizeof x->why, "step %u, role %u: lanes played %s among %u legal moves, the rules have %u%s", i,
               r, b.data ? b.data : "?", res->legal[(size_t)i * roles + r], moves.n, found ? "" : " without it");
    dl_buf_free(&b);
    dl_ids_free(&moves);
    dl_diag_clear(c->diag);
    if (!same) return 0;
  }
  dl_mstate *next = NULL;
  if (dl_machine_next(c->m, c->s, joint, &next) != DL_M_OK) return snprintf(x->why, sizeof x->why, "next: error"), 0;
  free(c->s), c->s = next;
  return 1;
}

/* Replays one playout of the lanes on the rules (configuration 0). */
static int replay_done(void *ctx, const dl_wide_result *res)
{
  replay *x = ctx;
  config *c = &x->d->c[0];
  uint32_t joint[64];
  free(c->s), c->s = NULL;
  if (c->m->n_roles > 64 || dl_machine_initial(c->m, &c->s) != DL_M_OK)
    return snprintf(x->why, sizeof x->why, "initial: error"), 0;
  for (uint32_t i = 0; i < res->p.depth; i++)
    if (!replay_step(x, c, res, i, joint)) return 0;
  if (!replay_end(x, c, res)) return 0;
  x->d->wide++;
  x->d->states += res->p.depth + 1;
  return 1;
}

/* n playouts of the eager circuit's lanes, each replayed on the rules. */
static int wide(differ *d, uint64_t seed, uint64_t n)
{
  config *e = &d->c[EAGER];
  replay x = { d, dl_circuit_create_mode(e->game.ground, DL_CIRCUIT_EAGER, e->diag), e->m, "" };
  if (!x.c || !dl_circuit_has_wide(x.c) || !n) return dl_circuit_destroy(x.c), 1;
  uint32_t words = dl_circuit_state_words(x.c);
  uint64_t *s = calloc(words + 1, sizeof *s);
  dl_rng rng;
  dl_rng_seed(&rng, seed);
  if (s) dl_circuit_initial(x.c, s);
  int ran = s && dl_circuit_wide_playouts(x.c, s, &rng, n, MAX_DEPTH, MAX_DEPTH + 1, NULL, replay_done, &x);
  int ok = ran && !x.why[0] && d->wide == n;
  if (!ok) {
    printf("DISAGREE on a wide playout (lanes of the eager circuit replayed on the rules) in %s: %s\n-- game:\n%s",
           d->file, x.why[0] ? x.why : ran ? "not every playout ended" : "no run", d->text);
  }
  free(s);
  dl_circuit_destroy(x.c);
  return ok;
}

/* ---- main ---- */

static char *read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  dl_buf b = { 0 };
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) dl_buf_add(&b, chunk, n);
  fclose(f);
  dl_buf_add(&b, "", 1);
  if (b.failed) return dl_buf_free(&b), NULL;
  *len = b.len - 1;
  return b.data;
}

static int usage(void)
{
  fprintf(stderr, "usage: machine_diff [--playouts N] [--seed S] [--wide N] [--dump DIR] GAME.kif\n");
  return 2;
}

int main(int argc, char **argv)
{
  uint64_t playouts = 10, seed = 1, wide_n = 128;
  differ d = { 0 };
  int i = 1;
  for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
    uint64_t v = strtoull(argv[i + 1], NULL, 10);
    if (strcmp(argv[i], "--playouts") == 0) playouts = v;
    else if (strcmp(argv[i], "--seed") == 0) seed = v;
    else if (strcmp(argv[i], "--wide") == 0) wide_n = v;
    else if (strcmp(argv[i], "--dump") == 0) d.dump = argv[i + 1];
    else return usage();
  }
  if (i + 1 != argc) return usage();
  d.file = argv[i];
  d.text = read_file(d.file, &d.len);
  if (!d.text) return fprintf(stderr, "machine_diff: cannot read %s\n", d.file), 1;
  dl_rng_seed(&d.rng, seed);
  dl_rng_seed(&d.dump_rng, ~seed);
  int rejected = 0, ok = build_all(&d, &rejected);
  ok = ok && ask(&d, q_roles, 0, "the roles");
  for (uint64_t p = 0; ok && p < playouts; p++, d.playouts++) ok = walk(&d);
  ok = ok && fast_playouts(&d, (uint32_t)seed);
  ok = ok && wide(&d, seed, wide_n);
  if (ok)
    printf("%s: %d configurations agree: %llu playouts, %llu wide playouts replayed, %llu states\n", d.file, d.n,
           (unsigned long long)d.playouts, (unsigned long long)d.wide, (unsigned long long)d.states);
  free_all(&d);
  return ok || rejected ? 0 : 1;
}
