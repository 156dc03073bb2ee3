/* api.c: the public API of gdlog.h over two backends: the state machine of
 * the rules (datalog/machine/sm.h: any game, one model per state) and the
 * circuit of the ground game (datalog/circuit/circuit.h: fast, needs a ground
 * game within a budget).  AUTO tries the circuit and falls back on the
 * rules.
 *
 * States: rules, a sorted array of fluent term ids; circuit, a bitset of
 * the circuit's fluents.  Moves: rules, the term id of the action (the
 * same for every role); circuit, the circuit's move index (one role's).
 *
 * Errors: each call notes how many messages the diagnostics object holds
 * when it starts (call_begin); a failing call renders the new ones into the
 * game's error text and hands each to the callback (call_fail).  The
 * object keeps at most DL_DIAG_MAX_KEPT messages, so when it is nearly
 * full a call first renews it (renew_diag; the rules' machine, which keeps
 * its diag, is made again over the same term store, so ids stay valid). */
#include "datalog/gdlog.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/sort.h"
#include "datalog/circuit/circuit.h"
#include "datalog/gdl/domains.h"
#include "datalog/ground/ground.h"
#include "datalog/gdl/reduce.h"
#include "datalog/machine/sm.h"
#include "datalog/program/load.h"
#include "datalog/read/parse.h"
#include "datalog/write/output.h"

/* Rule instances AUTO grounds at most before it falls back on the rules. */
enum { AUTO_MAX_INSTANCES = 2000000 };

/* A fluent of the circuit and its index, sorted by term: to read states. */
typedef struct fluent_entry {
  dl_tid term;
  uint32_t index;
} fluent_entry;

struct gdlog_game {
  gdlog_options opt;
  dl_stop stop;              /* opt.cancel, for the library */
  dl_format format;          /* of the texts the game returns */
  dl_diag *diag;             /* the loader's, the machine's, the circuit's */
  dl_loaded *loaded;
  gdlog_backend backend;     /* RULES or CIRCUIT */
  dl_sm *sm;                 /* RULES */
  dl_domains *domains;       /* CIRCUIT: what the circuit was built from */
  dl_ground *ground;
  dl_circuit *circuit;
  fluent_entry *fluents;     /* CIRCUIT: sorted by term */
  uint32_t words;            /* CIRCUIT: 64-bit words of a state */
  int n_roles;
  dl_tid *role_terms;
  char **role_names;         /* in the output syntax */
  dl_sm_list *legal;         /* per role: the list gdlog_legal returned last */
  dl_buf text;               /* what gdlog_move_text returned last */
  dl_buf error;              /* what gdlog_error returns */
  size_t mark;               /* messages of diag before the current call */
};

struct gdlog_state {
  const gdlog_game *game;
  uint32_t n;                /* RULES: fluents; CIRCUIT: words */
  uint32_t bytes;            /* of data */
  uint64_t data[];           /* RULES: dl_tid ids, sorted, no duplicates; CIRCUIT: the bitset */
};

static const dl_tid *state_ids(const gdlog_state *s) { return (const dl_tid *)(const void *)s->data; }

void gdlog_options_init(gdlog_options *o)
{
  assert(o);
  memset(o, 0, sizeof *o);
  o->max_atoms = 100000000ULL;
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

/* The rules' machine of g's game with g's options, reporting to d; NULL
 * after reporting. */
static dl_sm *rules_machine(gdlog_game *g, dl_diag *d)
{
  static const dl_sm_demand demand[] = { DL_SM_DEMAND_AUTO, DL_SM_DEMAND_OFF, DL_SM_DEMAND_ON };
  dl_eval_options eo = { g->opt.max_atoms, &g->stop };
  return dl_sm_create_demand(g->loaded->prog, &eo, demand[g->opt.demand], d);
}

/* Gives g a fresh diagnostics object when its own is nearly full; the old
 * messages go (their text was rendered when their call failed).  When
 * memory is short the old object stays. */
static void renew_diag(gdlog_game *g)
{
  if (dl_diag_count(g->diag) + 10 < DL_DIAG_MAX_KEPT) return;
  dl_diag *d = dl_diag_create();
  dl_sm *sm = d && g->sm ? rules_machine(g, d) : NULL;
  if (!d || (g->sm && !sm)) {
    dl_diag_destroy(d);
    return;
  }
  if (sm) {
    dl_sm_destroy(g->sm);
    g->sm = sm;
  }
  dl_diag_destroy(g->diag);
  g->diag = d;
}

/* Starts a call: the diagnostics object has room, the error text is empty. */
static void call_begin(gdlog_game *g)
{
  renew_diag(g);
  g->mark = dl_diag_count(g->diag);
  g->error.len = 0;
  if (g->error.data) g->error.data[0] = 0;
}

/* Renders the messages of the current call into g->error, gives each to
 * the callback, and returns st. */
static gdlog_status call_fail(gdlog_game *g, gdlog_status st)
{
  if (dl_diag_count(g->diag) == g->mark) dl_diag_report(g->diag, DL_ERROR, NULL, 0, "%s", gdlog_status_name(st));
  for (size_t i = g->mark; i < dl_diag_count(g->diag); i++) {
    char *z = dl_diag_render(dl_diag_message(g->diag, i));
    if (!z) continue;
    dl_buf_addz(&g->error, z);
    if (g->opt.on_error) g->opt.on_error(g->opt.error_ctx, z);
    free(z);
  }
  g->mark = dl_diag_count(g->diag);
  return st;
}

/* The status of a failure the libraries reported since the call began:
 * LIMIT or NOMEM by their messages, else `otherwise`. */
static gdlog_status failure_kind(const gdlog_game *g, gdlog_status otherwise)
{
  for (size_t i = g->mark; i < dl_diag_count(g->diag); i++) {
    const char *z = dl_diag_message(g->diag, i)->text;
    if (strstr(z, "out of memory")) return GDLOG_ERR_NOMEM;
    if (strstr(z, "beyond") || strstr(z, "deeper than") || strcmp(z, "interrupted") == 0) return GDLOG_ERR_LIMIT;
  }
  return otherwise;
}

static gdlog_status nomem(gdlog_game *g)
{
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "out of memory");
  return call_fail(g, GDLOG_ERR_NOMEM);
}

const char *gdlog_error(const gdlog_game *g)
{
  assert(g);
  return g->error.data && !g->error.failed ? g->error.data : "";
}

/* Appends the text of term t in g's output syntax to b. */
static void term_text(const gdlog_game *g, dl_tid t, dl_buf *b)
{
  dl_output_term(b, g->loaded->terms, t, g->format);
}

/* The text of t in b (which must be empty), "?" when out of memory. */
static const char *text_in(const gdlog_game *g, dl_tid t, dl_buf *b)
{
  term_text(g, t, b);
  return b->data && !b->failed ? b->data : "?";
}

/* ---- opening ------------------------------------------------------------------- */

static dl_format format_of(gdlog_syntax s, const dl_loaded *l)
{
  if (s == GDLOG_SYNTAX_KIF) return DL_FMT_KIF;
  if (s == GDLOG_SYNTAX_INFIX) return DL_FMT_INFIX;
  const dl_source *src = l->n_sources ? l->sources[0] : NULL;
  return src && dl_parse_guess_syntax(src->name, src->text, src->len) == LX_KIF ? DL_FMT_KIF : DL_FMT_INFIX;
}

static int syntax_of(gdlog_syntax s)
{
  return s == GDLOG_SYNTAX_KIF ? (int)LX_KIF : s == GDLOG_SYNTAX_INFIX ? (int)LX_INFIX : -1;
}

/* The role terms, names and legal lists; 0 when out of memory. */
static int make_roles(gdlog_game *g)
{
  uint32_t n = g->circuit ? dl_circuit_role_count(g->circuit) : 0;
  const dl_tid *roles = g->sm ? dl_sm_roles(g->sm, &n) : NULL;
  g->n_roles = (int)n;
  g->role_terms = calloc(n, sizeof *g->role_terms);
  g->role_names = calloc(n, sizeof *g->role_names);
  g->legal = calloc(n, sizeof *g->legal);
  if (!g->role_terms || !g->role_names || !g->legal) return 0;
  for (uint32_t r = 0; r < n; r++) {
    g->role_terms[r] = roles ? roles[r] : dl_circuit_role_term(g->circuit, r);
    dl_buf b = { 0 };
    term_text(g, g->role_terms[r], &b);
    if (b.failed || !b.data) {
      dl_buf_free(&b);
      return 0;
    }
    g->role_names[r] = b.data;
  }
  return 1;
}

static int compare_fluent(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  dl_tid x = ((const fluent_entry *)a)->term, y = ((const fluent_entry *)b)->term;
  return (x > y) - (x < y);
}

/* The circuit's fluents sorted by term; 0 when out of memory. */
static int make_fluent_index(gdlog_game *g)
{
  uint32_t n = dl_circuit_fluent_count(g->circuit);
  g->fluents = malloc((n ? n : 1) * sizeof *g->fluents);
  if (!g->fluents) return 0;
  for (uint32_t f = 0; f < n; f++) g->fluents[f] = (fluent_entry){ dl_circuit_fluent_term(g->circuit, f), f };
  dl_sort(g->fluents, n, sizeof *g->fluents, compare_fluent, NULL);
  g->words = dl_circuit_state_words(g->circuit);
  return 1;
}

/* Grounds the game and compiles its circuit, within the limits (AUTO: at
 * most AUTO_MAX_INSTANCES rule instances).  1, or 0 after reporting. */
static int build_circuit(gdlog_game *g)
{
  const dl_program *p = g->loaded->prog;
  g->domains = dl_domains_build(p, g->diag);
  dl_reduce_options ro = { .mode = DL_REDUCE_LFP, .max_atoms = g->opt.max_atoms, .stop = &g->stop };
  dl_reduction *red = g->domains ? dl_reduce(p, g->domains, &ro, g->diag) : NULL;
  uint64_t budget = g->opt.backend == GDLOG_BACKEND_AUTO ? AUTO_MAX_INSTANCES : g->opt.max_atoms;
  dl_ground_options go = { .demand = 1, .max_instances = budget, .stop = &g->stop };
  g->ground = red ? dl_ground_build(p, red, &go, g->diag) : NULL;
  dl_reduction_destroy(red);
  g->circuit = g->ground ? dl_circuit_create(g->ground, g->diag) : NULL;
  if (g->circuit) return 1;
  dl_ground_destroy(g->ground);
  dl_domains_destroy(g->domains);
  g->ground = NULL;
  g->domains = NULL;
  return 0;
}

/* The rules' machine; 1, or 0 after reporting. */
static int build_rules(gdlog_game *g)
{
  g->sm = rules_machine(g, g->diag);
  return g->sm != NULL;
}

/* The rest of opening once loaded: the backend and the roles. */
static gdlog_status open_backend(gdlog_game *g)
{
  if (!g->loaded) return nomem(g);
  if (!g->loaded->prog) return call_fail(g, failure_kind(g, GDLOG_ERR_INPUT));
  g->format = format_of(g->opt.output ? g->opt.output : g->opt.syntax, g->loaded);
  if ((unsigned)g->opt.demand > GDLOG_DEMAND_ON) {
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "gdlog_options.demand is %d, not a gdlog_demand", (int)g->opt.demand);
    return call_fail(g, GDLOG_ERR_INPUT);
  }
  int ok = 0;
  if (g->opt.backend != GDLOG_BACKEND_RULES) {
    ok = build_circuit(g);
    /* AUTO: the rules answer when grounding fails or is too large; the
     * messages of the attempt are dropped */
    if (!ok && g->opt.backend == GDLOG_BACKEND_AUTO && failure_kind(g, GDLOG_ERR_INPUT) != GDLOG_ERR_NOMEM)
      g->mark = dl_diag_count(g->diag);
    else if (!ok) return call_fail(g, failure_kind(g, GDLOG_ERR_INPUT));
  }
  if (!ok && !build_rules(g)) return call_fail(g, failure_kind(g, GDLOG_ERR_INPUT));
  g->backend = g->circuit ? GDLOG_BACKEND_CIRCUIT : GDLOG_BACKEND_RULES;
  if (!make_roles(g) || (g->circuit && !make_fluent_index(g))) return nomem(g);
  return GDLOG_OK;
}

/* A game with options o and a diagnostics object; NULL when out of memory. */
static gdlog_game *game_create(const gdlog_options *o)
{
  gdlog_game *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  if (o) g->opt = *o;
  else gdlog_options_init(&g->opt);
  g->stop.cancel = g->opt.cancel;
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
  g->loaded = dl_load(&lo, g->diag);
  return open_backend(g);
}

gdlog_status gdlog_open_buffer(const char *name, const char *text, size_t len, const gdlog_options *o,
                               gdlog_game **game)
{
  assert((text || len == 0) && game);
  gdlog_game *g = *game = game_create(o);
  if (!g) return GDLOG_ERR_NOMEM;
  dl_load_options lo = { .file = name ? name : "<buffer>", .syntax = syntax_of(g->opt.syntax) };
  g->loaded = dl_load_memory(&lo, text ? text : "", len, g->diag);
  return open_backend(g);
}

void gdlog_close(gdlog_game *g)
{
  if (!g) return;
  for (int r = 0; r < g->n_roles; r++) {
    if (g->role_names) free(g->role_names[r]);
    if (g->legal) dl_sm_list_free(&g->legal[r]);
  }
  free(g->role_terms);
  free(g->role_names);
  free(g->legal);
  free(g->fluents);
  dl_sm_destroy(g->sm);
  dl_circuit_destroy(g->circuit);
  dl_ground_destroy(g->ground);
  dl_domains_destroy(g->domains);
  dl_load_destroy(g->loaded);
  dl_diag_destroy(g->diag);
  dl_buf_free(&g->text);
  dl_buf_free(&g->error);
  free(g);
}

#ifndef NDEBUG
/* Whether g is ready for questions (opened without error); read only by
 * assert (clang warns of an unused function in a release build). */
static int ready(const gdlog_game *g)
{
  return g && (g->sm || g->circuit) && g->role_names;
}
#endif

gdlog_backend gdlog_backend_of(const gdlog_game *g)
{
  assert(ready(g));
  return g->backend;
}

int gdlog_uses_demand(const gdlog_game *g)
{
  assert(ready(g));
  return g->sm && dl_sm_uses_demand(g->sm);
}

/* ---- roles --------------------------------------------------------------------------- */

int gdlog_role_count(const gdlog_game *g)
{
  assert(ready(g));
  return g->n_roles;
}

const char *gdlog_role_name(const gdlog_game *g, int r)
{
  assert(ready(g) && r >= 0 && r < g->n_roles);
  return g->role_names[r];
}

/* ---- states ---------------------------------------------------------------------------- */

/* A state of g of n elements (ids or words) copied from data (may be
 * NULL: zeros); NULL when out of memory. */
static gdlog_state *state_make(const gdlog_game *g, const void *data, uint32_t n)
{
  size_t bytes = (size_t)n * (g->circuit ? sizeof(uint64_t) : sizeof(dl_tid));
  gdlog_state *s = malloc(sizeof *s + (bytes ? bytes : 1));
  if (!s) return NULL;
  s->game = g;
  s->n = n;
  s->bytes = (uint32_t)bytes;
  if (!bytes) return s;
  if (data) memcpy(s->data, data, bytes);
  else memset(s->data, 0, bytes);
  return s;
}

gdlog_status gdlog_initial(gdlog_game *g, gdlog_state **s)
{
  assert(ready(g) && s);
  call_begin(g);
  if (g->circuit) {
    *s = state_make(g, NULL, g->words);
    if (*s) dl_circuit_initial(g->circuit, (*s)->data);
  } else {
    uint32_t n;
    const dl_tid *ids = dl_sm_initial(g->sm, &n);
    *s = state_make(g, ids, n);
  }
  return *s ? GDLOG_OK : nomem(g);
}

void gdlog_state_free(gdlog_state *s)
{
  free(s);
}

gdlog_status gdlog_state_copy(const gdlog_state *s, gdlog_state **copy)
{
  assert(s && copy);
  *copy = state_make(s->game, s->data, s->n);
  return *copy ? GDLOG_OK : GDLOG_ERR_NOMEM;
}

int gdlog_state_equal(const gdlog_state *a, const gdlog_state *b)
{
  assert(a && b && a->game == b->game);
  return a->bytes == b->bytes && (a->bytes == 0 || memcmp(a->data, b->data, a->bytes) == 0);
}

/* ---- the two backends -------------------------------------------------------------------- */

/* Positions the circuit on s: GDLOG_OK, or NOMEM (reported). */
static gdlog_status circuit_on(gdlog_game *g, const gdlog_state *s)
{
  if (dl_circuit_set_state(g->circuit, s->data)) return GDLOG_OK;
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "out of memory in the circuit");
  return GDLOG_ERR_NOMEM;
}

/* Whether s is terminal; reports failures. */
static gdlog_status backend_terminal(gdlog_game *g, const gdlog_state *s, int *terminal)
{
  if (g->sm)
    return dl_sm_terminal(g->sm, state_ids(s), s->n, terminal) ? GDLOG_OK : failure_kind(g, GDLOG_ERR_LIMIT);
  gdlog_status st = circuit_on(g, s);
  if (st == GDLOG_OK) *terminal = dl_circuit_terminal(g->circuit);
  return st;
}

static int compare_u32(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The legal moves of role r in s, sorted, into *out; reports failures (a
 * role without a legal move in a state that is not terminal: GAME). */
static gdlog_status backend_legal(gdlog_game *g, const gdlog_state *s, int r, dl_sm_list *out)
{
  int terminal;
  gdlog_status st = backend_terminal(g, s, &terminal);
  if (st != GDLOG_OK) return st;
  /* the rules' model is kept: a failure now is the contract's, or memory */
  if (g->sm) return dl_sm_legal(g->sm, state_ids(s), s->n, (uint32_t)r, out) ? GDLOG_OK : failure_kind(g, GDLOG_ERR_GAME);
  const uint32_t *moves;
  uint32_t n = dl_circuit_legal(g->circuit, (uint32_t)r, &moves);
  if (n > out->cap) {
    dl_tid *ids = realloc(out->ids, n * sizeof *ids);
    if (!ids) {
      dl_diag_report(g->diag, DL_ERROR, NULL, 0, "out of memory");
      return GDLOG_ERR_NOMEM;
    }
    out->ids = ids;
    out->cap = n;
  }
  if (n) memcpy(out->ids, moves, n * sizeof *moves);
  out->n = n;
  dl_sort(out->ids, n, sizeof *out->ids, compare_u32, NULL);
  if (n > 0 || terminal) return GDLOG_OK;
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "role '%s' has no legal move in a state that is not terminal",
                 g->role_names[r]);
  return GDLOG_ERR_GAME;
}

/* The number 0..100 that constant t names, or -1. */
static int goal_number(const dl_terms *terms, dl_tid t)
{
  if (dl_terms_arity(terms, t) != 0) return -1;
  size_t len;
  const char *z = dl_terms_name(terms, dl_terms_functor(terms, t), &len);
  if (len == 0 || len > 3) return -1;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (z[i] < '0' || z[i] > '9') return -1;
    v = 10 * v + (z[i] - '0');
  }
  return v <= 100 ? v : -1;
}

static gdlog_status rules_goal(gdlog_game *g, const gdlog_state *s, int r, int *value)
{
  dl_sm_list values = { 0 };
  if (!dl_sm_goal_values(g->sm, state_ids(s), s->n, (uint32_t)r, &values)) {
    dl_sm_list_free(&values);
    return failure_kind(g, GDLOG_ERR_LIMIT);
  }
  int v = values.n == 1 ? goal_number(g->loaded->terms, values.ids[0]) : -1;
  dl_sm_list_free(&values);
  if (v >= 0) {
    *value = v;
    return GDLOG_OK;
  }
  int ignored; /* the machine words the contract's error */
  return dl_sm_goal(g->sm, state_ids(s), s->n, (uint32_t)r, &ignored) ? GDLOG_ERR_GAME
                                                                        : failure_kind(g, GDLOG_ERR_GAME);
}

static gdlog_status circuit_goal(gdlog_game *g, const gdlog_state *s, int r, int *value)
{
  gdlog_status st = circuit_on(g, s);
  if (st != GDLOG_OK) return st;
  int32_t v;
  const char *kind = dl_circuit_terminal(g->circuit) ? "terminal" : "non-terminal";
  if (dl_circuit_goal(g->circuit, (uint32_t)r, &v) && v >= 0 && v <= 100) {
    *value = v;
    return GDLOG_OK;
  }
  if (v == 0)
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "role '%s' has no goal value in this %s state", g->role_names[r], kind);
  else if (v < 0)
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "role '%s' has %d goal values in this %s state", g->role_names[r], -v,
                   kind);
  else
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "the goal value of role '%s' is %d, not a number in 0..100",
                   g->role_names[r], v);
  return GDLOG_ERR_GAME;
}

/* The next state of s for joint (legal: checked before) into *next. */
static gdlog_status backend_next(gdlog_game *g, const gdlog_state *s, const gdlog_move *joint, gdlog_state **next)
{
  if (g->circuit) {
    gdlog_status st = circuit_on(g, s);
    if (st != GDLOG_OK) return st;
    *next = state_make(g, NULL, g->words);
    if (!*next) return GDLOG_ERR_NOMEM;
    if (dl_circuit_next(g->circuit, joint, (*next)->data)) return GDLOG_OK;
    gdlog_state_free(*next);
    *next = NULL;
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "out of memory in the circuit");
    return GDLOG_ERR_NOMEM;
  }
  dl_sm_list out = { 0 };
  if (!dl_sm_next(g->sm, state_ids(s), s->n, joint, &out)) {
    dl_sm_list_free(&out);
    return failure_kind(g, GDLOG_ERR_LIMIT);
  }
  *next = state_make(g, out.ids, out.n);
  dl_sm_list_free(&out);
  return *next ? GDLOG_OK : GDLOG_ERR_NOMEM;
}

/* The action term of move m. */
static dl_tid move_term(const gdlog_game *g, gdlog_move m)
{
  return g->circuit ? dl_circuit_move_term(g->circuit, m) : m;
}

/* Whether m is a move id of g. */
static int move_valid(const gdlog_game *g, gdlog_move m)
{
  return g->circuit ? m < dl_circuit_move_count(g->circuit) : m < dl_terms_count(g->loaded->terms);
}

/* ---- questions ---------------------------------------------------------------------------- */

gdlog_status gdlog_is_terminal(gdlog_game *g, const gdlog_state *s, int *terminal)
{
  assert(ready(g) && s && s->game == g && terminal);
  call_begin(g);
  gdlog_status st = backend_terminal(g, s, terminal);
  return st == GDLOG_OK ? st : call_fail(g, st);
}

gdlog_status gdlog_legal(gdlog_game *g, const gdlog_state *s, int r, const gdlog_move **moves, int *n)
{
  assert(ready(g) && s && s->game == g && r >= 0 && r < g->n_roles && moves && n);
  call_begin(g);
  *moves = NULL;
  *n = 0;
  gdlog_status st = backend_legal(g, s, r, &g->legal[r]);
  if (st != GDLOG_OK) return call_fail(g, st);
  *moves = g->legal[r].ids;
  *n = (int)g->legal[r].n;
  return GDLOG_OK;
}

gdlog_status gdlog_goal(gdlog_game *g, const gdlog_state *s, int r, int *value)
{
  assert(ready(g) && s && s->game == g && r >= 0 && r < g->n_roles && value);
  call_begin(g);
  gdlog_status st = g->sm ? rules_goal(g, s, r, value) : circuit_goal(g, s, r, value);
  return st == GDLOG_OK ? st : call_fail(g, st);
}

/* Whether move m is in the sorted list l. */
static int list_contains(const dl_sm_list *l, uint32_t m)
{
  uint32_t lo = 0, hi = l->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (l->ids[mid] < m) lo = mid + 1;
    else hi = mid;
  }
  return lo < l->n && l->ids[lo] == m;
}

/* Reports that move m of role r is not legal; src/off place it (src may
 * be NULL). */
static void report_illegal(gdlog_game *g, int r, gdlog_move m, const dl_source *src, uint32_t off)
{
  dl_buf b = { 0 };
  const char *text = move_valid(g, m) ? text_in(g, move_term(g, m), &b) : "?";
  dl_diag_report(g->diag, DL_ERROR, src, off, "illegal move: '%s' is not a legal move of role '%s' in this state", text,
                 g->role_names[r]);
  dl_buf_free(&b);
}

/* Checks that joint[r] is legal for role r in s, for every role; reports
 * the first that is not (at src and offs[r] when src is not NULL). */
static gdlog_status check_joint(gdlog_game *g, const gdlog_state *s, const gdlog_move *joint, const dl_source *src,
                                const uint32_t *offs)
{
  dl_sm_list moves = { 0 };
  int terminal = 0;
  gdlog_status st = backend_terminal(g, s, &terminal);
  for (int r = 0; st == GDLOG_OK && !terminal && r < g->n_roles; r++) {
    st = backend_legal(g, s, r, &moves);
    if (st == GDLOG_OK && !list_contains(&moves, joint[r])) {
      report_illegal(g, r, joint[r], src, src ? offs[r] : 0);
      st = GDLOG_ERR_ILLEGAL;
    }
  }
  if (st == GDLOG_OK && terminal) {
    dl_diag_report(g->diag, DL_ERROR, src, src ? offs[0] : 0, "illegal move: the state is terminal");
    st = GDLOG_ERR_ILLEGAL;
  }
  dl_sm_list_free(&moves);
  return st;
}

gdlog_status gdlog_next(gdlog_game *g, const gdlog_state *s, const gdlog_move *joint, gdlog_state **next)
{
  assert(ready(g) && s && s->game == g && joint && next);
  call_begin(g);
  *next = NULL;
  gdlog_status st = check_joint(g, s, joint, NULL, NULL);
  if (st == GDLOG_OK) st = backend_next(g, s, joint, next);
  if (st == GDLOG_ERR_NOMEM && dl_diag_count(g->diag) == g->mark) return nomem(g);
  return st == GDLOG_OK ? st : call_fail(g, st);
}

/* ---- playouts ---------------------------------------------------------------------- */

/* Reports that memory ran out (call_fail renders it). */
static gdlog_status oom(gdlog_game *g)
{
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "out of memory");
  return GDLOG_ERR_NOMEM;
}

typedef struct playout_sums {
  gdlog_game *g;
  double *goal;            /* per role: the sum of the goals */
  uint64_t depth, done;
  gdlog_status st;
  int32_t *goals;          /* room for a playout's goal per role */
  gdlog_move *joint;       /* room for a joint move */
} playout_sums;

static int cancelled(const gdlog_game *g) { return g->opt.cancel && *g->opt.cancel; }

/* Reports how playout p ended when it broke the contract (or went too
 * deep); returns its status. */
static gdlog_status playout_failed(gdlog_game *g, dl_playout p, const int32_t *goals)
{
  if (p.status == DL_PLAYOUT_TOO_DEEP) {
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "no terminal state within %d joint moves", GDLOG_PLAYOUT_MAX_DEPTH);
    return GDLOG_ERR_LIMIT;
  }
  if (p.status == DL_PLAYOUT_NO_MEMORY) return oom(g);
  if (p.status == DL_PLAYOUT_NO_LEGAL)
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "role '%s' has no legal move after %u joint moves of a playout",
                   g->role_names[p.role], p.depth);
  else
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "role '%s' has %s goal value in 0..100 at the end of a playout",
                   g->role_names[p.role], goals && goals[p.role] < 0 ? "more than one" : "no");
  return GDLOG_ERR_GAME;
}

/* Adds a playout's goals and depth; GAME (reported) for a goal outside 0..100. */
static gdlog_status add_playout(playout_sums *x, dl_playout p, const int32_t *goals)
{
  for (int r = 0; r < x->g->n_roles; r++)
    if (goals[r] < 0 || goals[r] > 100) {
      p.status = DL_PLAYOUT_BAD_GOAL, p.role = (uint32_t)r;
      return playout_failed(x->g, p, NULL);
    }
  for (int r = 0; r < x->g->n_roles; r++) x->goal[r] += goals[r];
  x->depth += p.depth;
  x->done++;
  return GDLOG_OK;
}

static int add_wide(void *ctx, const dl_wide_result *res)
{
  playout_sums *x = ctx;
  x->st = res->p.status == DL_PLAYOUT_OK ? add_playout(x, res->p, res->goals)
                                         : playout_failed(x->g, res->p, res->goals);
  return x->st == GDLOG_OK && !cancelled(x->g);
}

static gdlog_status circuit_playouts(playout_sums *x, const gdlog_state *s, uint64_t n, dl_rng *rng)
{
  dl_circuit *c = x->g->circuit;
  if (dl_circuit_has_wide(c))
    return dl_circuit_wide_playouts(c, s->data, rng, n, GDLOG_PLAYOUT_MAX_DEPTH, 0, add_wide, x) ? x->st
                                                                                                 : oom(x->g);
  for (uint64_t i = 0; i < n && x->st == GDLOG_OK && !cancelled(x->g); i++) {
    dl_playout p = dl_circuit_playout(c, s->data, rng, GDLOG_PLAYOUT_MAX_DEPTH, x->goals);
    x->st = p.status == DL_PLAYOUT_OK ? add_playout(x, p, x->goals) : playout_failed(x->g, p, x->goals);
  }
  return x->st;
}

/* One playout on the rules from s. */
static gdlog_status rules_playout(playout_sums *x, const gdlog_state *s, dl_rng *rng)
{
  gdlog_game *g = x->g;
  gdlog_move *joint = x->joint;
  gdlog_state *cur = NULL, *next = NULL;
  gdlog_status st = gdlog_state_copy(s, &cur) == GDLOG_OK ? GDLOG_OK : oom(g);
  dl_playout p = { DL_PLAYOUT_OK, 0, 0 };
  int terminal = 0;
  while (st == GDLOG_OK && (st = backend_terminal(g, cur, &terminal)) == GDLOG_OK && !terminal) {
    if (p.depth >= GDLOG_PLAYOUT_MAX_DEPTH) {
      p.status = DL_PLAYOUT_TOO_DEEP;
      st = playout_failed(g, p, NULL);
      break;
    }
    for (int r = 0; st == GDLOG_OK && r < g->n_roles; r++)
      if ((st = backend_legal(g, cur, r, &g->legal[r])) == GDLOG_OK)
        joint[r] = g->legal[r].ids[dl_rng_below(rng, g->legal[r].n)];
    if (st == GDLOG_OK) st = backend_next(g, cur, joint, &next);
    gdlog_state_free(cur);
    cur = next, next = NULL;
    p.depth++;
  }
  for (int r = 0; st == GDLOG_OK && r < g->n_roles; r++) {
    int v;
    if ((st = rules_goal(g, cur, r, &v)) == GDLOG_OK) x->goals[r] = v;
  }
  gdlog_state_free(cur);
  return st == GDLOG_OK ? add_playout(x, p, x->goals) : st;
}

gdlog_status gdlog_playouts(gdlog_game *g, const gdlog_state *s, uint64_t n, uint64_t seed, double *mean_goal,
                            double *mean_depth)
{
  assert(ready(g) && s && s->game == g && mean_goal);
  call_begin(g);
  size_t roles = (size_t)g->n_roles + 1;
  playout_sums x = { g, calloc(roles, sizeof *x.goal), 0, 0, GDLOG_OK, calloc(roles, sizeof *x.goals),
                     calloc(roles, sizeof *x.joint) };
  dl_rng rng;
  dl_rng_seed(&rng, seed);
  gdlog_status st = x.goal && x.goals && x.joint ? GDLOG_OK : oom(g);
  if (st == GDLOG_OK && g->circuit) st = circuit_playouts(&x, s, n, &rng);
  for (uint64_t i = 0; st == GDLOG_OK && !g->circuit && i < n; i++) st = rules_playout(&x, s, &rng);
  if (st == GDLOG_OK && cancelled(g)) {
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "cancelled");
    st = GDLOG_ERR_LIMIT;
  }
  double done = x.done ? (double)x.done : 1;
  for (int r = 0; st == GDLOG_OK && r < g->n_roles; r++) mean_goal[r] = x.goal[r] / done;
  if (st == GDLOG_OK && mean_depth) *mean_depth = (double)x.depth / done;
  free(x.goal), free(x.goals), free(x.joint);
  return st == GDLOG_OK ? st : call_fail(g, st);
}

/* ---- text --------------------------------------------------------------------------- */

const char *gdlog_move_text(gdlog_game *g, gdlog_move m)
{
  assert(ready(g) && move_valid(g, m));
  g->text.len = 0;
  term_text(g, move_term(g, m), &g->text);
  return g->text.data && !g->text.failed ? g->text.data : "";
}

/* A text being parsed: its source and the clauses read from it. */
typedef struct parsed {
  dl_source src;
  ast_program *ast;
} parsed;

/* Parses text[0..len) (syntax sniffed) into p, interning names in the
 * game's store; 0 after reporting.  Free p with parsed_free after the call
 * failed (messages point into p->src). */
static int parse_text(gdlog_game *g, const char *name, const char *text, size_t len, parsed *p)
{
  memset(p, 0, sizeof *p);
  char *copy = len < UINT32_MAX ? malloc(len + 1) : NULL;
  p->ast = ast_program_create();
  if (!copy || !p->ast) {
    free(copy);
    dl_diag_report(g->diag, DL_ERROR, NULL, 0, "out of memory");
    return 0;
  }
  if (len) memcpy(copy, text, len);
  copy[len] = 0;
  p->src = (dl_source){ name, copy, (uint32_t)len };
  lx_syntax syn = dl_parse_guess_syntax(name, copy, (uint32_t)len);
  return dl_parse(p->ast, g->loaded->terms, &p->src, syn, g->diag);
}

static void parsed_free(parsed *p)
{
  ast_program_destroy(p->ast);
  free((char *)p->src.text);
}

/* The term of ground ast term t, interned; DL_NO_TERM after reporting (a
 * variable, out of memory). */
static dl_tid term_of(gdlog_game *g, const parsed *p, const ast_term *t)
{
  if (t->kind == AST_VAR) {
    dl_diag_report(g->diag, DL_ERROR, &p->src, t->off, "a variable where a ground term is expected");
    return DL_NO_TERM;
  }
  dl_terms *terms = g->loaded->terms;
  if (t->kind == AST_SYM) return dl_terms_constant(terms, t->value);
  dl_tid args[t->n ? t->n : 1];
  for (uint32_t i = 0; i < t->n; i++)
    if ((args[i] = term_of(g, p, t->args[i])) == DL_NO_TERM) return DL_NO_TERM;
  dl_tid id = dl_terms_make(terms, t->value, t->n, args);
  if (id == DL_NO_TERM) dl_diag_report(g->diag, DL_ERROR, &p->src, t->off, "term too deep, or out of memory");
  return id;
}

/* Whether clause c is a fact (no body, no variable); reports it when not. */
static int is_fact(gdlog_game *g, const parsed *p, const ast_clause *c, const char *what)
{
  if (c->n_body == 0 && c->n_vars == 0) return 1;
  dl_diag_report(g->diag, DL_ERROR, &p->src, c->off, "%s holds ground terms only, not rules or variables", what);
  return 0;
}

/* Whether atom a is name(...) with arity args. */
static int is_atom(const gdlog_game *g, const ast_term *a, const char *name, uint32_t arity)
{
  size_t len;
  const char *z = dl_terms_name(g->loaded->terms, a->value, &len);
  return a->kind != AST_VAR && ast_atom_arity(a) == arity && len == strlen(name) && memcmp(z, name, len) == 0;
}

/* The move of role r whose action is term t into *m: the term itself
 * (rules) or the circuit's move; ILLEGAL after reporting (at src/off) when
 * the circuit has no such move. */
static gdlog_status move_of(gdlog_game *g, int r, dl_tid t, const dl_source *src, uint32_t off, gdlog_move *m)
{
  if (!g->circuit) {
    *m = t;
    return GDLOG_OK;
  }
  uint32_t n = dl_circuit_move_count(g->circuit);
  for (uint32_t i = 0; i < n; i++)
    if (dl_circuit_move_role(g->circuit, i) == (uint32_t)r && dl_circuit_move_term(g->circuit, i) == t) {
      *m = i;
      return GDLOG_OK;
    }
  dl_buf b = { 0 };
  dl_diag_report(g->diag, DL_ERROR, src, off, "illegal move: '%s' is never a legal move of role '%s' in this game",
                 text_in(g, t, &b), g->role_names[r]);
  dl_buf_free(&b);
  return GDLOG_ERR_ILLEGAL;
}

gdlog_status gdlog_parse_move(gdlog_game *g, int r, const char *text, gdlog_move *m)
{
  assert(ready(g) && r >= 0 && r < g->n_roles && text && m);
  call_begin(g);
  parsed p;
  gdlog_status st = GDLOG_ERR_INPUT;
  if (parse_text(g, "<move>", text, strlen(text), &p)) {
    if (p.ast->n_clauses != 1)
      dl_diag_report(g->diag, DL_ERROR, &p.src, 0, "a move is one ground term; this text holds %u", p.ast->n_clauses);
    else if (is_fact(g, &p, p.ast->clauses[0], "a move")) {
      dl_tid t = term_of(g, &p, p.ast->clauses[0]->head);
      if (t != DL_NO_TERM) st = move_of(g, r, t, &p.src, 0, m);
    }
  }
  if (st != GDLOG_OK) st = call_fail(g, failure_kind(g, st));
  parsed_free(&p);
  return st;
}

/* The term written in text, into *t; INPUT after reporting. */
static gdlog_status parse_term(gdlog_game *g, const char *text, dl_tid *t)
{
  parsed p;
  gdlog_status st = GDLOG_ERR_INPUT;
  if (parse_text(g, "<role>", text, strlen(text), &p)) {
    if (p.ast->n_clauses != 1)
      dl_diag_report(g->diag, DL_ERROR, &p.src, 0, "a role is one ground term; this text holds %u", p.ast->n_clauses);
    else if (is_fact(g, &p, p.ast->clauses[0], "a role") && (*t = term_of(g, &p, p.ast->clauses[0]->head)) != DL_NO_TERM)
      st = GDLOG_OK;
  }
  if (st != GDLOG_OK) call_fail(g, failure_kind(g, st));
  parsed_free(&p);
  return st;
}

gdlog_status gdlog_role_index(gdlog_game *g, const char *text, int *r)
{
  assert(ready(g) && text && r);
  call_begin(g);
  dl_tid t;
  gdlog_status st = parse_term(g, text, &t);
  if (st != GDLOG_OK) return st;
  for (int i = 0; i < g->n_roles; i++)
    if (g->role_terms[i] == t) {
      *r = i;
      return GDLOG_OK;
    }
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "the game has no role '%s'", text);
  return call_fail(g, GDLOG_ERR_INPUT);
}

/* The role index of does-fact c into joint (its place into offs); reports
 * an unknown role or a role's second move. */
static gdlog_status joint_add(gdlog_game *g, const parsed *p, const ast_clause *c, gdlog_move *joint, uint32_t *offs)
{
  if (!is_atom(g, c->head, "does", 2)) {
    dl_diag_report(g->diag, DL_ERROR, &p->src, c->off, "a joint move is does(ROLE,MOVE) facts only");
    return GDLOG_ERR_INPUT;
  }
  const ast_term *a = c->head->args[1];
  dl_tid role = term_of(g, p, c->head->args[0]), move = term_of(g, p, a);
  if (role == DL_NO_TERM || move == DL_NO_TERM) return GDLOG_ERR_INPUT;
  for (int r = 0; r < g->n_roles; r++) {
    if (g->role_terms[r] != role) continue;
    if (offs[r] != UINT32_MAX) {
      dl_diag_report(g->diag, DL_ERROR, &p->src, c->off, "role '%s' has two moves in this joint move", g->role_names[r]);
      return GDLOG_ERR_INPUT;
    }
    offs[r] = a->off;
    return move_of(g, r, move, &p->src, a->off, &joint[r]);
  }
  dl_diag_report(g->diag, DL_ERROR, &p->src, c->head->args[0]->off, "the game has no such role");
  return GDLOG_ERR_INPUT;
}

/* Reads the does facts of p into joint; INPUT or ILLEGAL after reporting. */
static gdlog_status joint_read(gdlog_game *g, const parsed *p, gdlog_move *joint, uint32_t *offs)
{
  for (int r = 0; r < g->n_roles; r++) offs[r] = UINT32_MAX;
  for (uint32_t i = 0; i < p->ast->n_clauses; i++) {
    const ast_clause *c = p->ast->clauses[i];
    if (!is_fact(g, p, c, "a joint move")) return GDLOG_ERR_INPUT;
    gdlog_status st = joint_add(g, p, c, joint, offs);
    if (st != GDLOG_OK) return st;
  }
  for (int r = 0; r < g->n_roles; r++)
    if (offs[r] == UINT32_MAX) {
      dl_diag_report(g->diag, DL_ERROR, &p->src, 0, "role '%s' has no move in this joint move", g->role_names[r]);
      return GDLOG_ERR_INPUT;
    }
  return GDLOG_OK;
}

gdlog_status gdlog_parse_joint(gdlog_game *g, const gdlog_state *s, const char *name, const char *text, size_t len,
                               gdlog_move *joint)
{
  assert(ready(g) && (!s || s->game == g) && (text || len == 0) && joint);
  call_begin(g);
  uint32_t *offs = malloc((size_t)g->n_roles * sizeof *offs);
  if (!offs) return nomem(g);
  parsed p;
  gdlog_status st = GDLOG_ERR_INPUT;
  if (parse_text(g, name ? name : "<moves>", text ? text : "", len, &p)) {
    st = joint_read(g, &p, joint, offs);
    if (st == GDLOG_OK && s) st = check_joint(g, s, joint, &p.src, offs);
  }
  if (st != GDLOG_OK) st = call_fail(g, failure_kind(g, st));
  parsed_free(&p);
  free(offs);
  return st;
}

/* ---- states as text ------------------------------------------------------------------- */

static int compare_tid(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  dl_tid x = *(const dl_tid *)a, y = *(const dl_tid *)b;
  return (x > y) - (x < y);
}

/* The fluent of state-file clause c: t for a fact true(t) or t. */
static dl_tid fluent_of(gdlog_game *g, const parsed *p, const ast_clause *c)
{
  if (!is_fact(g, p, c, "a state")) return DL_NO_TERM;
  const ast_term *t = is_atom(g, c->head, "true", 1) ? c->head->args[0] : c->head;
  return term_of(g, p, t);
}

/* The circuit's index of fluent t, or UINT32_MAX. */
static uint32_t fluent_index(const gdlog_game *g, dl_tid t)
{
  uint32_t lo = 0, hi = dl_circuit_fluent_count(g->circuit);
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (g->fluents[mid].term < t) lo = mid + 1;
    else hi = mid;
  }
  return lo < dl_circuit_fluent_count(g->circuit) && g->fluents[lo].term == t ? g->fluents[lo].index : UINT32_MAX;
}

/* The state of fluents ids[0..n) (from the clauses of p, for messages)
 * into *s; INPUT after reporting a fluent the circuit does not have. */
static gdlog_status state_of(gdlog_game *g, const parsed *p, dl_tid *ids, uint32_t n, gdlog_state **s)
{
  if (!g->circuit) {
    dl_sort(ids, n, sizeof *ids, compare_tid, NULL);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
      if (k == 0 || ids[k - 1] != ids[i]) ids[k++] = ids[i];
    *s = state_make(g, ids, k);
    return *s ? GDLOG_OK : GDLOG_ERR_NOMEM;
  }
  *s = state_make(g, NULL, g->words);
  if (!*s) return GDLOG_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t f = fluent_index(g, ids[i]);
    if (f == UINT32_MAX) {
      dl_buf b = { 0 };
      dl_diag_report(g->diag, DL_ERROR, &p->src, p->ast->clauses[i]->off,
                     "'%s' is not a fluent of the ground game (no state reached from init holds it)", text_in(g, ids[i], &b));
      dl_buf_free(&b);
      gdlog_state_free(*s);
      *s = NULL;
      return GDLOG_ERR_INPUT;
    }
    (*s)->data[f / 64] |= (uint64_t)1 << (f % 64);
  }
  return GDLOG_OK;
}

gdlog_status gdlog_parse_state(gdlog_game *g, const char *name, const char *text, size_t len, gdlog_state **s)
{
  assert(ready(g) && (text || len == 0) && s);
  call_begin(g);
  *s = NULL;
  parsed p;
  gdlog_status st = GDLOG_ERR_INPUT;
  if (parse_text(g, name ? name : "<state>", text ? text : "", len, &p)) {
    uint32_t n = p.ast->n_clauses, k = 0;
    dl_tid *ids = malloc((n ? n : 1) * sizeof *ids);
    st = ids ? GDLOG_OK : GDLOG_ERR_NOMEM;
    for (; st == GDLOG_OK && k < n; k++)
      if ((ids[k] = fluent_of(g, &p, p.ast->clauses[k])) == DL_NO_TERM) st = GDLOG_ERR_INPUT;
    if (st == GDLOG_OK) st = state_of(g, &p, ids, n, s);
    free(ids);
  }
  if (st == GDLOG_ERR_NOMEM) dl_diag_report(g->diag, DL_ERROR, NULL, 0, "out of memory");
  if (st != GDLOG_OK) st = call_fail(g, failure_kind(g, st));
  parsed_free(&p);
  return st;
}

/* Compares two fluents by their text (a context-free sort of texts). */
static int compare_text(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The fluent terms of s into *ids (malloc'd), their number into *n; 0
 * when out of memory. */
static int state_fluents(const gdlog_game *g, const gdlog_state *s, dl_tid **ids, uint32_t *n)
{
  uint32_t count = 0, cap = g->circuit ? dl_circuit_fluent_count(g->circuit) : s->n;
  *ids = malloc((cap ? cap : 1) * sizeof **ids);
  if (!*ids) return 0;
  if (!g->circuit) memcpy(*ids, state_ids(s), s->n * sizeof **ids), count = s->n;
  for (uint32_t f = 0; g->circuit && f < cap; f++)
    if (s->data[f / 64] >> (f % 64) & 1) (*ids)[count++] = dl_circuit_fluent_term(g->circuit, f);
  *n = count;
  return 1;
}

/* The lines of fluents ids[0..n), sorted, into *text; 0 when out of memory. */
static int fluents_text(const gdlog_game *g, const dl_tid *ids, uint32_t n, char **text)
{
  char **lines = calloc(n ? n : 1, sizeof *lines);
  if (!lines) return 0;
  dl_buf all = { 0 };
  int ok = 1;
  for (uint32_t i = 0; i < n && ok; i++) {
    dl_buf b = { 0 };
    term_text(g, ids[i], &b);
    lines[i] = b.data;
    ok = b.data && !b.failed;
  }
  if (ok) dl_sort(lines, n, sizeof *lines, compare_text, NULL);
  for (uint32_t i = 0; ok && i < n; i++) {
    dl_buf_addz(&all, lines[i]);
    dl_buf_add(&all, "\n", 1);
  }
  for (uint32_t i = 0; i < n; i++) free(lines[i]);
  free(lines);
  if (ok && !all.data) ok = dl_buf_reserve(&all, 1) && (all.data[0] = 0, 1);
  if (!ok || all.failed) {
    dl_buf_free(&all);
    return 0;
  }
  *text = all.data;
  return 1;
}

gdlog_status gdlog_state_text(gdlog_game *g, const gdlog_state *s, char **text)
{
  assert(ready(g) && s && s->game == g && text);
  call_begin(g);
  *text = NULL;
  dl_tid *ids;
  uint32_t n;
  if (!state_fluents(g, s, &ids, &n)) return nomem(g);
  int ok = fluents_text(g, ids, n, text);
  free(ids);
  return ok ? GDLOG_OK : nomem(g);
}
