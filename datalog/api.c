/* api.c: the public API of gdlog.h over the pipeline (machine/pipeline.h),
 * which builds the game and chooses its backend, and the state machine
 * interface (machine/machine.h), which answers.  This file only checks the
 * arguments, keeps the texts it hands out, and turns the messages of a
 * failed call into the game's error text and callbacks.
 *
 * A gdlog_state is a dl_mstate of the game's machine; a gdlog_move is the
 * machine's move id.
 *
 * Errors: each call notes how many messages the diagnostics object holds
 * when it starts (call_begin); a failing call renders the new ones into the
 * game's error text and hands each to the callbacks (call_fail).  The
 * object keeps at most DL_DIAG_MAX_KEPT messages: a call that finds it
 * nearly full empties it first (the old messages were rendered when their
 * call failed). */
#include "datalog/gdlog.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/machine/machine.h"
#include "datalog/machine/pipeline.h"
#include "datalog/structure/game_symmetry.h"
#include "lexer.h"

_Static_assert((int)GDLOG_ERR_NOMEM == (int)DL_M_NOMEM && (int)GDLOG_ERR_GAME == (int)DL_M_GAME,
               "gdlog_status and dl_mstatus have the same values");
_Static_assert((int)GDLOG_BACKEND_CIRCUIT == (int)DL_BACKEND_CIRCUIT, "gdlog_backend and dl_backend agree");
_Static_assert((int)GDLOG_DEMAND_OFF == (int)DL_SM_DEMAND_OFF && (int)GDLOG_DEMAND_ON == (int)DL_SM_DEMAND_ON,
               "gdlog_demand and dl_sm_demand agree");

struct gdlog_game {
  gdlog_options opt;
  atomic_int interrupted;    /* set by gdlog_interrupt */
  dl_stop stop;              /* opt.cancel and interrupted, for the library */
  dl_diag *diag;
  dl_game game;              /* the pipeline's: loaded program, ground game, machine */
  dl_machine *m;             /* game.machine once opened */
  dl_format format;          /* of the texts the game returns */
  char **role_names;         /* in the output syntax */
  dl_ids *legal;             /* per role: the list gdlog_legal returned last */
  dl_buf text;               /* what gdlog_move_text returned last */
  dl_buf error;              /* what gdlog_error returns */
  size_t mark;               /* messages of diag before the current call */
  dl_game_symmetry sym;      /* gdlog_symmetries: the group, once found */
  int sym_found;
};

static const dl_mstate *mstate(const gdlog_state *s) { return (const dl_mstate *)(const void *)s; }
static gdlog_state *gstate(dl_mstate *s) { return (gdlog_state *)(void *)s; }

void gdlog_options_init_size(gdlog_options *o, size_t size)
{
  assert(o && size >= offsetof(gdlog_options, demand) + sizeof o->demand);
  gdlog_options d;
  memset(&d, 0, sizeof d);
  d.size = size;
  d.max_atoms = DL_DEFAULT_MAX_ATOMS;
  d.auto_seconds = DL_AUTO_SECONDS;
  memcpy(o, &d, size < sizeof d ? size : sizeof d);
}

/* The caller's options o (NULL: defaults) as this library's struct: the
 * fields an older caller does not have keep their defaults. */
static void options_of(const gdlog_options *o, gdlog_options *out)
{
  gdlog_options_init(out);
  if (!o) return;
  size_t n = o->size && o->size < sizeof *out ? o->size : sizeof *out;
  memcpy(out, o, n);
  out->size = sizeof *out;
}

const char *gdlog_version(void)
{
  return GDLOG_VERSION;
}

const char *gdlog_status_name(gdlog_status s)
{
  switch (s) {
  case GDLOG_OK: return "ok";
  case GDLOG_ERR_INPUT: return "bad input";
  case GDLOG_ERR_ILLEGAL: return "illegal move";
  case GDLOG_ERR_GAME: return "game breaks the contract";
  case GDLOG_ERR_LIMIT: return "limit reached";
  case GDLOG_ERR_NOMEM: return "out of memory";
  }
  return "unknown status";
}

/* ---- errors ------------------------------------------------------------------- */

/* Starts a call: the diagnostics object has room, the error text is empty. */
static void call_begin(gdlog_game *g)
{
  if (dl_diag_count(g->diag) + 10 >= DL_DIAG_MAX_KEPT) dl_diag_clear(g->diag);
  g->mark = dl_diag_count(g->diag);
  g->error.len = 0;
  g->error.failed = 0;
  if (g->error.data) g->error.data[0] = 0;
}

/* Hands message m, rendered as z, to the diagnostic callback. */
static void give_diagnostic(const gdlog_game *g, const dl_message *m, const char *z)
{
  gdlog_diagnostic d = { (gdlog_severity)m->severity, m->src ? m->src->name : NULL, 0, 0, m->text, z };
  if (m->src) {
    unsigned line, col;
    lx_position(m->src->text, m->off, &line, &col);
    d.line = (int)line, d.column = (int)col;
  }
  g->opt.on_diagnostic(g->opt.diagnostic_ctx, &d);
}

/* Renders the messages since the mark into g->error (errors: when
 * `errors`) and hands each to the callbacks; moves the mark past them. */
static void pass_messages(gdlog_game *g, int errors)
{
  for (size_t i = g->mark; i < dl_diag_count(g->diag); i++) {
    const dl_message *m = dl_diag_message(g->diag, i);
    char *z = dl_diag_render(m);
    if (!z) {
      g->error.failed |= errors;  /* gdlog_error says memory ran out */
      continue;
    }
    if (errors) dl_buf_addz(&g->error, z);
    if (errors && g->opt.on_error) g->opt.on_error(g->opt.error_ctx, z);
    if (g->opt.on_diagnostic) give_diagnostic(g, m, z);
    free(z);
  }
  g->mark = dl_diag_count(g->diag);
}

/* Ends a failed call with status st: its messages become the error text. */
static gdlog_status call_fail(gdlog_game *g, gdlog_status st)
{
  if (dl_diag_count(g->diag) == g->mark) dl_diag_report(g->diag, DL_ERROR, NULL, 0, "%s", gdlog_status_name(st));
  pass_messages(g, 1);
  return st;
}

/* Ends a call with the status st of the machine. */
static gdlog_status call_end(gdlog_game *g, dl_mstatus st)
{
  return st == DL_M_OK ? GDLOG_OK : call_fail(g, (gdlog_status)st);
}

static gdlog_status nomem(gdlog_game *g)
{
  dl_diag_fail(g->diag, DL_CAUSE_NOMEM, "out of memory");
  return call_fail(g, GDLOG_ERR_NOMEM);
}

/* Reports an argument out of range; returns INPUT. */
static gdlog_status bad_index(gdlog_game *g, const char *what, long long value)
{
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "%s %lld is out of range", what, value);
  return call_fail(g, GDLOG_ERR_INPUT);
}

const char *gdlog_error(const gdlog_game *g)
{
  assert(g);
  if (g->error.failed) return "gdlog: error: out of memory (the text of the error could not be kept)\n";
  return g->error.data ? g->error.data : "";
}

/* ---- opening ------------------------------------------------------------------- */

static int syntax_of(gdlog_syntax s)
{
  return s == GDLOG_SYNTAX_KIF ? (int)LX_KIF : s == GDLOG_SYNTAX_INFIX ? (int)LX_INFIX : -1;
}

/* The role names in the output syntax and the legal lists; 0 when out of
 * memory. */
static int make_roles(gdlog_game *g)
{
  uint32_t n = g->m->n_roles;
  g->role_names = calloc(n + 1, sizeof *g->role_names);
  g->legal = calloc(n + 1, sizeof *g->legal);
  if (!g->role_names || !g->legal) return 0;
  for (uint32_t r = 0; r < n; r++) {
    dl_buf b = { 0 };
    dl_machine_term_text(g->m, g->m->roles[r], g->format, &b);
    if (b.failed || !b.data) {
      dl_buf_free(&b);
      return 0;
    }
    g->role_names[r] = b.data;
  }
  return 1;
}

/* The pipeline's options from the game's. */
static dl_game_options pipeline_options(const gdlog_game *g)
{
  dl_game_options o;
  dl_game_options_init(&o);
  o.backend = (dl_backend)g->opt.backend;
  o.demand = (dl_sm_demand)g->opt.demand;
  o.max_atoms = g->opt.max_atoms;
  if (g->opt.max_instances) o.max_instances = g->opt.max_instances;
  o.auto_seconds = g->opt.auto_seconds;
  o.stop = &g->stop;
  return o;
}

/* Checks the options' enumerations; 1, or 0 after reporting. */
static int options_valid(gdlog_game *g)
{
  const gdlog_options *o = &g->opt;
  const char *bad = (unsigned)o->backend > GDLOG_BACKEND_CIRCUIT ? "backend"
                    : (unsigned)o->demand > GDLOG_DEMAND_ON      ? "demand"
                    : (unsigned)o->syntax > GDLOG_SYNTAX_INFIX   ? "syntax"
                    : (unsigned)o->output > GDLOG_SYNTAX_INFIX   ? "output"
                                                                 : NULL;
  if (bad) dl_diag_report(g->diag, DL_ERROR, NULL, 0, "gdlog_options.%s holds a value it does not name", bad);
  return bad == NULL;
}

/* The status of a build that failed, by the cause of its last error:
 * NOMEM, LIMIT (a limit, a stop) or INPUT. */
static gdlog_status build_failure(const gdlog_game *g)
{
  switch (dl_diag_last_cause(g->diag)) {
  case DL_CAUSE_NOMEM: return GDLOG_ERR_NOMEM;
  case DL_CAUSE_LIMIT:
  case DL_CAUSE_STOP: return GDLOG_ERR_LIMIT;
  default: return GDLOG_ERR_INPUT;
  }
}

/* The rest of opening once loaded: the machine and the roles. */
static gdlog_status open_game(gdlog_game *g, int loaded)
{
  if (!loaded) return call_fail(g, dl_diag_errors(g->diag) ? build_failure(g) : GDLOG_ERR_NOMEM);
  pass_messages(g, 0);  /* warnings and notes of loading reach the diagnostic callback */
  if (!options_valid(g)) return call_fail(g, GDLOG_ERR_INPUT);
  dl_game_options po = pipeline_options(g);
  if (!dl_game_build(&g->game, NULL, &po, DL_STAGE_MACHINE, g->diag)) return call_fail(g, build_failure(g));
  g->m = g->game.machine;
  gdlog_syntax out = g->opt.output ? g->opt.output : g->opt.syntax;
  int kif = out == GDLOG_SYNTAX_KIF || (out == GDLOG_SYNTAX_AUTO && g->game.kif);
  g->format = kif ? DL_FMT_KIF : DL_FMT_INFIX;
  g->m->format = g->format;
  if (!make_roles(g)) return nomem(g);
  pass_messages(g, 0);  /* AUTO's note, when the rules answer */
  return GDLOG_OK;
}

/* A game with options o and a diagnostics object; NULL when out of memory. */
static gdlog_game *game_create(const gdlog_options *o)
{
  gdlog_game *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  options_of(o, &g->opt);
  atomic_init(&g->interrupted, 0);
  g->stop = (dl_stop){ g->opt.cancel, &g->interrupted, 0 };
  g->diag = dl_diag_create();
  if (!g->diag) {
    free(g);
    return NULL;
  }
  return g;
}

gdlog_status gdlog_open_file(const char *path, const gdlog_options *o, gdlog_game **game)
{
  assert(path && game);
  gdlog_game *g = *game = game_create(o);
  if (!g) return GDLOG_ERR_NOMEM;
  dl_load_options lo = { .file = path, .syntax = syntax_of(g->opt.syntax) };
  return open_game(g, dl_game_load(&g->game, &lo, NULL, 0, g->diag));
}

gdlog_status gdlog_open_buffer(const char *name, const char *text, size_t len, const gdlog_options *o,
                               gdlog_game **game)
{
  assert((text || len == 0) && game);
  gdlog_game *g = *game = game_create(o);
  if (!g) return GDLOG_ERR_NOMEM;
  dl_load_options lo = { .file = name ? name : "<buffer>", .syntax = syntax_of(g->opt.syntax) };
  return open_game(g, dl_game_load(&g->game, &lo, text ? text : "", len, g->diag));
}

void gdlog_close(gdlog_game *g)
{
  if (!g) return;
  for (uint32_t r = 0; g->m && r < g->m->n_roles; r++) {
    if (g->role_names) free(g->role_names[r]);
    if (g->legal) dl_ids_free(&g->legal[r]);
  }
  free(g->role_names);
  free(g->legal);
  dl_game_symmetry_free(&g->sym);
  dl_game_free(&g->game);
  dl_diag_destroy(g->diag);
  dl_buf_free(&g->text);
  dl_buf_free(&g->error);
  free(g);
}

void gdlog_interrupt(gdlog_game *g)
{
  assert(g);
  atomic_store(&g->interrupted, 1);
}

void gdlog_resume(gdlog_game *g)
{
  assert(g);
  atomic_store(&g->interrupted, 0);
}

#ifndef NDEBUG
/* Whether g is ready for questions (opened without error); read only by
 * assert (clang warns of an unused function in a release build). */
static int ready(const gdlog_game *g)
{
  return g && g->m && g->role_names;
}
#endif

/* Whether s is a state of g's machine (asserted, and answered; reported
 * when not). */
static int state_of_game(gdlog_game *g, const gdlog_state *s)
{
  assert(s && mstate(s)->machine == g->m);
  if (s && mstate(s)->machine == g->m) return 1;
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "the state is not one of this game");
  return 0;
}

gdlog_backend gdlog_backend_of(const gdlog_game *g)
{
  assert(ready(g));
  return (gdlog_backend)g->game.backend;
}

int gdlog_uses_demand(const gdlog_game *g)
{
  assert(ready(g));
  return dl_machine_uses_demand(g->m);
}

/* ---- roles --------------------------------------------------------------------------- */

int gdlog_role_count(const gdlog_game *g)
{
  assert(ready(g));
  return (int)g->m->n_roles;
}

/* Whether r is a role index of g (asserted, and answered). */
static int role_valid(const gdlog_game *g, int r)
{
  assert(r >= 0 && (uint32_t)r < g->m->n_roles);
  return r >= 0 && (uint32_t)r < g->m->n_roles;
}

const char *gdlog_role_name(const gdlog_game *g, int r)
{
  assert(ready(g));
  return role_valid(g, r) ? g->role_names[r] : NULL;
}

gdlog_status gdlog_role_index(gdlog_game *g, const char *text, int *r)
{
  assert(ready(g) && text && r);
  call_begin(g);
  uint32_t role;
  dl_mstatus st = dl_machine_parse_role(g->m, text, strlen(text), g->game.kif, &role);
  if (st == DL_M_OK) *r = (int)role;
  return call_end(g, st);
}

/* ---- states ---------------------------------------------------------------------------- */

gdlog_status gdlog_initial(gdlog_game *g, gdlog_state **s)
{
  assert(ready(g) && s);
  call_begin(g);
  dl_mstate *m = NULL;
  dl_mstatus st = dl_machine_initial(g->m, &m);
  *s = gstate(m);
  return call_end(g, st);
}

void gdlog_state_free(gdlog_state *s)
{
  free(s);
}

gdlog_status gdlog_state_copy(const gdlog_state *s, gdlog_state **copy)
{
  assert(s && copy);
  *copy = gstate(dl_mstate_copy(mstate(s)));
  return *copy ? GDLOG_OK : GDLOG_ERR_NOMEM;
}

int gdlog_state_equal(const gdlog_state *a, const gdlog_state *b)
{
  assert(a && b);
  return dl_mstate_equal(mstate(a), mstate(b));
}

/* ---- questions ---------------------------------------------------------------------------- */

gdlog_status gdlog_is_terminal(gdlog_game *g, const gdlog_state *s, int *terminal)
{
  assert(ready(g) && terminal);
  call_begin(g);
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  return call_end(g, dl_machine_terminal(g->m, mstate(s), terminal));
}

gdlog_status gdlog_legal(gdlog_game *g, const gdlog_state *s, int r, const gdlog_move **moves, int *n)
{
  assert(ready(g) && moves && n);
  call_begin(g);
  *moves = NULL;
  *n = 0;
  if (!role_valid(g, r)) return bad_index(g, "role", r);
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  dl_mstatus st = dl_machine_legal(g->m, mstate(s), (uint32_t)r, &g->legal[r]);
  if (st != DL_M_OK) return call_end(g, st);
  *moves = g->legal[r].ids;
  *n = (int)g->legal[r].n;
  return GDLOG_OK;
}

gdlog_status gdlog_goal(gdlog_game *g, const gdlog_state *s, int r, int *value)
{
  assert(ready(g) && value);
  call_begin(g);
  if (!role_valid(g, r)) return bad_index(g, "role", r);
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  return call_end(g, dl_machine_goal(g->m, mstate(s), (uint32_t)r, value));
}

/* Whether every move of joint is a move id of g; reports the first that
 * is not. */
static int joint_valid(gdlog_game *g, const gdlog_move *joint)
{
  for (uint32_t r = 0; r < g->m->n_roles; r++)
    if (!g->m->ops->move_valid(g->m, joint[r])) {
      dl_diag_report(g->diag, DL_ERROR, NULL, 0, "move %u of role %u is out of range", joint[r], r);
      return 0;
    }
  return 1;
}

gdlog_status gdlog_next(gdlog_game *g, const gdlog_state *s, const gdlog_move *joint, gdlog_state **next)
{
  assert(ready(g) && joint && next);
  call_begin(g);
  *next = NULL;
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  if (!joint_valid(g, joint)) return call_fail(g, GDLOG_ERR_INPUT);
  dl_mstate *m = NULL;
  dl_mstatus st = dl_machine_next(g->m, mstate(s), joint, &m);
  *next = gstate(m);
  return call_end(g, st);
}

gdlog_status gdlog_playouts(gdlog_game *g, const gdlog_state *s, uint64_t n, uint64_t seed, double *mean_goal,
                            double *mean_depth)
{
  assert(ready(g) && mean_goal);
  call_begin(g);
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  double *sum = calloc(g->m->n_roles + 1, sizeof *sum);
  if (!sum) return nomem(g);
  dl_playout_options o = { .n = n, .seed = seed, .max_depth = GDLOG_PLAYOUT_MAX_DEPTH, .goal_default = -1 };
  dl_playout_totals t = { .goal_sum = sum };
  g->m->stop = &g->stop;
  dl_mstatus st = dl_machine_playouts(g->m, mstate(s), &o, &t);
  double done = t.playouts ? (double)t.playouts : 1;
  for (uint32_t r = 0; st == DL_M_OK && r < g->m->n_roles; r++) mean_goal[r] = sum[r] / done;
  if (st == DL_M_OK && mean_depth) *mean_depth = (double)(t.states - t.playouts) / done;
  free(sum);
  return call_end(g, st);
}

/* ---- text --------------------------------------------------------------------------- */

const char *gdlog_move_text(gdlog_game *g, gdlog_move m)
{
  assert(ready(g) && g->m->ops->move_valid(g->m, m));
  call_begin(g);
  if (!g->m->ops->move_valid(g->m, m)) {
    bad_index(g, "move", m);
    return NULL;
  }
  g->text.len = 0;
  g->text.failed = 0;
  dl_machine_term_text(g->m, g->m->ops->move_term(g->m, m), g->format, &g->text);
  if (g->text.data && !g->text.failed) return g->text.data;
  nomem(g);
  return NULL;
}

gdlog_status gdlog_parse_move(gdlog_game *g, int r, const char *text, gdlog_move *m)
{
  assert(ready(g) && text && m);
  call_begin(g);
  if (!role_valid(g, r)) return bad_index(g, "role", r);
  return call_end(g, dl_machine_parse_move(g->m, (uint32_t)r, text, strlen(text), g->game.kif, m));
}

gdlog_status gdlog_parse_joint(gdlog_game *g, const gdlog_state *s, const char *name, const char *text, size_t len,
                               gdlog_move *joint)
{
  assert(ready(g) && (text || len == 0) && joint);
  call_begin(g);
  if (s && !state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  return call_end(g, dl_machine_parse_joint(g->m, s ? mstate(s) : NULL, name, text ? text : "", len, g->game.kif,
                                            joint));
}

gdlog_status gdlog_parse_state(gdlog_game *g, const char *name, const char *text, size_t len, gdlog_state **s)
{
  assert(ready(g) && (text || len == 0) && s);
  call_begin(g);
  dl_mstate *m = NULL;
  dl_mstatus st = dl_machine_parse_state(g->m, name, text ? text : "", len, g->game.kif, &m);
  *s = gstate(m);
  return call_end(g, st);
}

gdlog_status gdlog_state_text(gdlog_game *g, const gdlog_state *s, char **text)
{
  assert(ready(g) && text);
  call_begin(g);
  *text = NULL;
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  return call_end(g, dl_machine_state_text(g->m, mstate(s), g->format, text));
}

/* ---- symmetries ------------------------------------------------------------------------ */

/* Random playouts that check each symmetry before it is used (at most;
 * no new one after a second, the first always). */
#define SYMMETRY_CHECK_PLAYOUTS 20

gdlog_status gdlog_symmetries(gdlog_game *g, int *order)
{
  assert(ready(g) && order);
  call_begin(g);
  *order = 1;
  if (!g->sym_found) {
    dl_game_symmetry_free(&g->sym);
    dl_symmetry_check_options o = { .playouts = SYMMETRY_CHECK_PLAYOUTS, .seed = 1, .seconds = 1 };
    if (!dl_game_symmetry_find(&g->sym, g->game.loaded->prog, g->game.domains, g->diag) ||
        !dl_game_symmetry_check(&g->sym, g->m, &o) || !dl_game_symmetry_bind(&g->sym, g->m)) {
      dl_game_symmetry_free(&g->sym);
      return call_fail(g, build_failure(g));
    }
    g->sym_found = 1;
  }
  int exact;
  *order = (int)dl_symmetry_act_order(g->sym.act, &exact);
  return GDLOG_OK;
}

/* Whether e is an element of g's group (found already); reported when not. */
static int element_valid(gdlog_game *g, int e)
{
  int exact;
  return g->sym_found && e >= 0 && (uint64_t)e < dl_symmetry_act_order(g->sym.act, &exact);
}

gdlog_status gdlog_symmetry_state(gdlog_game *g, int e, const gdlog_state *s, gdlog_state **image)
{
  assert(ready(g) && image);
  call_begin(g);
  *image = NULL;
  if (!element_valid(g, e)) return bad_index(g, "symmetry", e);
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  dl_mstate *m = NULL;
  dl_mstatus st = dl_game_symmetry_state(&g->sym, g->m, mstate(s), (uint64_t)e, &m, NULL);
  *image = gstate(m);
  return call_end(g, st);
}

gdlog_status gdlog_canonical(gdlog_game *g, const gdlog_state *s, gdlog_state **canonical, uint64_t *hash)
{
  assert(ready(g) && canonical);
  call_begin(g);
  *canonical = NULL;
  if (!g->sym_found) {
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "call gdlog_symmetries first");
    return call_fail(g, GDLOG_ERR_INPUT);
  }
  if (!state_of_game(g, s)) return call_fail(g, GDLOG_ERR_INPUT);
  dl_mstate *m = NULL;
  dl_mstatus st = dl_game_symmetry_state(&g->sym, g->m, mstate(s), DL_CANONICAL, &m, hash);
  *canonical = gstate(m);
  return call_end(g, st);
}

gdlog_status gdlog_symmetry_joint(gdlog_game *g, int e, const gdlog_move *joint, gdlog_move *image)
{
  assert(ready(g) && joint && image);
  call_begin(g);
  if (!element_valid(g, e)) return bad_index(g, "symmetry", e);
  if (!joint_valid(g, joint)) return call_fail(g, GDLOG_ERR_INPUT);
  return call_end(g, dl_game_symmetry_joint(&g->sym, g->m, (uint64_t)e, joint, image));
}
