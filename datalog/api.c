/* api.c: the public API of gdlog.h over the state machine of the rules
 * (datalog/gdl/sm.h).  A game owns what it loaded, a diagnostics object
 * and the machine; a state is a sorted array of fluent term ids; a move is
 * the term id of its action.
 *
 * Errors: each call notes how many messages the diagnostics object holds
 * when it starts (call_begin); a failing call renders the new ones into the
 * game's error text and hands each to the callback (call_fail).  The
 * object keeps at most DL_DIAG_MAX_KEPT messages, so when it is nearly
 * full a call first renews it (renew_diag): the machine is made again on a
 * fresh one, over the same term store, so move and fluent ids stay valid. */
#include "datalog/gdlog.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/sort.h"
#include "datalog/gdl/sm.h"
#include "datalog/read/load.h"
#include "datalog/read/parse.h"
#include "datalog/write/output.h"

struct gdlog_game {
  gdlog_options opt;
  dl_format format;          /* of the texts the game returns */
  dl_diag *diag;             /* the machine's and the loader's */
  dl_loaded *loaded;
  dl_sm *sm;
  gdlog_backend backend;     /* RULES */
  int n_roles;
  char **role_names;         /* in the output syntax */
  dl_sm_list *legal;         /* per role: the list gdlog_legal returned last */
  dl_buf text;               /* what gdlog_move_text returned last */
  dl_buf error;              /* what gdlog_error returns */
  size_t mark;               /* messages of diag before the current call */
};

struct gdlog_state {
  const gdlog_game *game;
  uint32_t n;                /* fluents */
  dl_tid ids[];              /* sorted, without duplicates */
};

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

static int renew_diag(gdlog_game *g);

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
  size_t n = dl_diag_count(g->diag);
  if (n == g->mark) dl_diag_report(g->diag, DL_ERROR, NULL, 0, "%s", gdlog_status_name(st));
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

/* The status of a failure the machine or the evaluator reported since the
 * call began: LIMIT or NOMEM by their messages, else `otherwise`. */
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

/* Makes the machine again on a fresh diagnostics object when the current
 * one is nearly full; the old messages are gone (their text was rendered
 * when their call failed).  1, or 0 when out of memory (the old ones are
 * kept then). */
static int renew_diag(gdlog_game *g)
{
  if (dl_diag_count(g->diag) + 10 < DL_DIAG_MAX_KEPT) return 1;
  dl_diag *d = dl_diag_create();
  dl_sm *sm = d ? dl_sm_create(g->loaded->prog, d) : NULL;
  if (!sm) {
    dl_diag_destroy(d);
    return 0;
  }
  dl_eval_options eo = { g->opt.max_atoms, g->opt.cancel };
  dl_sm_set_limits(sm, &eo);
  dl_sm_destroy(g->sm);
  dl_diag_destroy(g->diag);
  g->sm = sm;
  g->diag = d;
  return 1;
}

const char *gdlog_error(const gdlog_game *g)
{
  assert(g);
  return g->error.data && !g->error.failed ? g->error.data : "";
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

/* The role names and legal lists; 0 when out of memory. */
static int make_roles(gdlog_game *g)
{
  uint32_t n;
  const dl_tid *roles = dl_sm_roles(g->sm, &n);
  g->n_roles = (int)n;
  g->role_names = calloc(n, sizeof *g->role_names);
  g->legal = calloc(n, sizeof *g->legal);
  if (!g->role_names || !g->legal) return 0;
  for (uint32_t r = 0; r < n; r++) {
    dl_buf b = { 0 };
    dl_sm_term_text(g->sm, roles[r], g->format, &b);
    if (b.failed || !b.data) {
      dl_buf_free(&b);
      return 0;
    }
    g->role_names[r] = b.data;
  }
  return 1;
}

/* The rest of opening once loaded: the machine and the roles. */
static gdlog_status open_machine(gdlog_game *g)
{
  if (!g->loaded) return nomem(g);
  if (!g->loaded->prog) return call_fail(g, failure_kind(g, GDLOG_ERR_INPUT));
  g->format = format_of(g->opt.output ? g->opt.output : g->opt.syntax, g->loaded);
  g->sm = dl_sm_create(g->loaded->prog, g->diag);
  if (!g->sm) return call_fail(g, failure_kind(g, GDLOG_ERR_INPUT));
  dl_eval_options eo = { g->opt.max_atoms, g->opt.cancel };
  dl_sm_set_limits(g->sm, &eo);
  g->backend = GDLOG_BACKEND_RULES;
  if (!make_roles(g)) return nomem(g);
  return GDLOG_OK;
}

/* A game with options o and a diagnostics object; NULL when out of memory. */
static gdlog_game *game_create(const gdlog_options *o)
{
  gdlog_game *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  if (o) g->opt = *o;
  else gdlog_options_init(&g->opt);
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
  return open_machine(g);
}

gdlog_status gdlog_open_buffer(const char *name, const char *text, size_t len, const gdlog_options *o,
                               gdlog_game **game)
{
  assert((text || len == 0) && game);
  gdlog_game *g = *game = game_create(o);
  if (!g) return GDLOG_ERR_NOMEM;
  dl_load_options lo = { .file = name ? name : "<buffer>", .syntax = syntax_of(g->opt.syntax) };
  g->loaded = dl_load_memory(&lo, text ? text : "", len, g->diag);
  return open_machine(g);
}

void gdlog_close(gdlog_game *g)
{
  if (!g) return;
  for (int r = 0; r < g->n_roles; r++) {
    if (g->role_names) free(g->role_names[r]);
    if (g->legal) dl_sm_list_free(&g->legal[r]);
  }
  free(g->role_names);
  free(g->legal);
  dl_sm_destroy(g->sm);
  dl_load_destroy(g->loaded);
  dl_diag_destroy(g->diag);
  dl_buf_free(&g->text);
  dl_buf_free(&g->error);
  free(g);
}

gdlog_backend gdlog_backend_of(const gdlog_game *g)
{
  assert(g && g->sm);
  return g->backend;
}

/* ---- roles --------------------------------------------------------------------------- */

int gdlog_role_count(const gdlog_game *g)
{
  assert(g && g->sm);
  return g->n_roles;
}

const char *gdlog_role_name(const gdlog_game *g, int r)
{
  assert(g && g->sm && r >= 0 && r < g->n_roles);
  return g->role_names[r];
}

/* ---- states ---------------------------------------------------------------------------- */

/* A state of g holding ids[0..n) (sorted, no duplicates); NULL when out
 * of memory. */
static gdlog_state *state_make(const gdlog_game *g, const dl_tid *ids, uint32_t n)
{
  gdlog_state *s = malloc(sizeof *s + (n ? n : 1) * sizeof *ids);
  if (!s) return NULL;
  s->game = g;
  s->n = n;
  if (n) memcpy(s->ids, ids, n * sizeof *ids);
  return s;
}

gdlog_status gdlog_initial(gdlog_game *g, gdlog_state **s)
{
  assert(g && g->sm && s);
  call_begin(g);
  uint32_t n;
  const dl_tid *ids = dl_sm_initial(g->sm, &n);
  *s = state_make(g, ids, n);
  return *s ? GDLOG_OK : nomem(g);
}

void gdlog_state_free(gdlog_state *s)
{
  free(s);
}

gdlog_status gdlog_state_copy(const gdlog_state *s, gdlog_state **copy)
{
  assert(s && copy);
  *copy = state_make(s->game, s->ids, s->n);
  return *copy ? GDLOG_OK : GDLOG_ERR_NOMEM;
}

int gdlog_state_equal(const gdlog_state *a, const gdlog_state *b)
{
  assert(a && b && a->game == b->game);
  return a->n == b->n && (a->n == 0 || memcmp(a->ids, b->ids, a->n * sizeof *a->ids) == 0);
}

gdlog_status gdlog_is_terminal(gdlog_game *g, const gdlog_state *s, int *terminal)
{
  assert(g && g->sm && s && s->game == g && terminal);
  call_begin(g);
  if (!dl_sm_terminal(g->sm, s->ids, s->n, terminal)) return call_fail(g, failure_kind(g, GDLOG_ERR_LIMIT));
  return GDLOG_OK;
}

gdlog_status gdlog_legal(gdlog_game *g, const gdlog_state *s, int r, const gdlog_move **moves, int *n)
{
  assert(g && g->sm && s && s->game == g && r >= 0 && r < g->n_roles && moves && n);
  call_begin(g);
  int terminal;
  *moves = NULL;
  *n = 0;
  if (!dl_sm_terminal(g->sm, s->ids, s->n, &terminal)) return call_fail(g, failure_kind(g, GDLOG_ERR_LIMIT));
  /* the model is kept: a failure now is the contract's, or memory */
  if (!dl_sm_legal(g->sm, s->ids, s->n, (uint32_t)r, &g->legal[r]))
    return call_fail(g, failure_kind(g, GDLOG_ERR_GAME));
  *moves = g->legal[r].ids;
  *n = (int)g->legal[r].n;
  return GDLOG_OK;
}

/* Whether move m is in the sorted list l. */
static int list_contains(const dl_sm_list *l, dl_tid m)
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
  if (m < dl_terms_count(dl_sm_terms(g->sm))) dl_sm_term_text(g->sm, m, g->format, &b);
  dl_diag_report(g->diag, DL_ERROR, src, off, "illegal move: '%s' is not a legal move of role '%s' in this state",
                 b.data && !b.failed ? b.data : "?", g->role_names[r]);
  dl_buf_free(&b);
}

/* Checks that joint[r] is legal for role r in s, for every role; reports
 * the first that is not (at src and offs[r] when src is not NULL). */
static gdlog_status check_joint(gdlog_game *g, const gdlog_state *s, const gdlog_move *joint, const dl_source *src,
                                const uint32_t *offs)
{
  dl_sm_list moves = { 0 };
  gdlog_status st = GDLOG_OK;
  int terminal = 0;
  if (!dl_sm_terminal(g->sm, s->ids, s->n, &terminal)) st = failure_kind(g, GDLOG_ERR_LIMIT);
  for (int r = 0; st == GDLOG_OK && r < g->n_roles; r++) {
    if (terminal) break;
    if (!dl_sm_legal(g->sm, s->ids, s->n, (uint32_t)r, &moves)) st = failure_kind(g, GDLOG_ERR_GAME);
    else if (!list_contains(&moves, joint[r])) {
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
  assert(g && g->sm && s && s->game == g && joint && next);
  call_begin(g);
  *next = NULL;
  gdlog_status st = check_joint(g, s, joint, NULL, NULL);
  if (st != GDLOG_OK) return call_fail(g, st);
  dl_sm_list out = { 0 };
  if (!dl_sm_next(g->sm, s->ids, s->n, joint, &out)) {
    dl_sm_list_free(&out);
    return call_fail(g, failure_kind(g, GDLOG_ERR_LIMIT));
  }
  *next = state_make(g, out.ids, out.n);
  dl_sm_list_free(&out);
  return *next ? GDLOG_OK : nomem(g);
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

gdlog_status gdlog_goal(gdlog_game *g, const gdlog_state *s, int r, int *value)
{
  assert(g && g->sm && s && s->game == g && r >= 0 && r < g->n_roles && value);
  call_begin(g);
  dl_sm_list values = { 0 };
  if (!dl_sm_goal_values(g->sm, s->ids, s->n, (uint32_t)r, &values)) {
    dl_sm_list_free(&values);
    return call_fail(g, failure_kind(g, GDLOG_ERR_LIMIT));
  }
  int v = values.n == 1 ? goal_number(dl_sm_terms(g->sm), values.ids[0]) : -1;
  dl_sm_list_free(&values);
  if (v >= 0) {
    *value = v;
    return GDLOG_OK;
  }
  /* the machine words the contract's error */
  int ignored;
  if (!dl_sm_goal(g->sm, s->ids, s->n, (uint32_t)r, &ignored)) return call_fail(g, failure_kind(g, GDLOG_ERR_GAME));
  return call_fail(g, GDLOG_ERR_GAME);
}

/* ---- text --------------------------------------------------------------------------- */

const char *gdlog_move_text(gdlog_game *g, gdlog_move m)
{
  assert(g && g->sm && m < dl_terms_count(dl_sm_terms(g->sm)));
  g->text.len = 0;
  dl_sm_term_text(g->sm, m, g->format, &g->text);
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
  char *copy = malloc(len + 1);
  p->ast = ast_program_create();
  if (!copy || !p->ast || len >= UINT32_MAX) {
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

gdlog_status gdlog_parse_move(gdlog_game *g, int r, const char *text, gdlog_move *m)
{
  assert(g && g->sm && r >= 0 && r < g->n_roles && text && m);
  (void)r; /* the rules' move ids are action terms, the same for every role */
  call_begin(g);
  parsed p;
  gdlog_status st = GDLOG_ERR_INPUT;
  if (parse_text(g, "<move>", text, strlen(text), &p)) {
    if (p.ast->n_clauses != 1)
      dl_diag_report(g->diag, DL_ERROR, &p.src, 0, "a move is one ground term; this text holds %u",
                     p.ast->n_clauses);
    else if (is_fact(g, &p, p.ast->clauses[0], "a move")) {
      dl_tid t = term_of(g, &p, p.ast->clauses[0]->head);
      if (t != DL_NO_TERM) {
        *m = t;
        st = GDLOG_OK;
      }
    }
  }
  if (st != GDLOG_OK) st = call_fail(g, failure_kind(g, st));
  parsed_free(&p);
  return st;
}

gdlog_status gdlog_role_index(gdlog_game *g, const char *text, int *r)
{
  assert(g && g->sm && text && r);
  gdlog_move t;
  gdlog_status st = gdlog_parse_move(g, 0, text, &t);
  if (st != GDLOG_OK) return st;
  uint32_t n;
  const dl_tid *roles = dl_sm_roles(g->sm, &n);
  for (uint32_t i = 0; i < n; i++)
    if (roles[i] == t) {
      *r = (int)i;
      return GDLOG_OK;
    }
  dl_diag_report(g->diag, DL_ERROR, NULL, 0, "the game has no role '%s'", text);
  return call_fail(g, GDLOG_ERR_INPUT);
}

/* The role index of does-fact c into joint (its place into offs); reports
 * an unknown role or a role's second move. */
static int joint_add(gdlog_game *g, const parsed *p, const ast_clause *c, gdlog_move *joint, uint32_t *offs)
{
  if (!is_atom(g, c->head, "does", 2)) {
    dl_diag_report(g->diag, DL_ERROR, &p->src, c->off, "a joint move is does(ROLE,MOVE) facts only");
    return 0;
  }
  dl_tid role = term_of(g, p, c->head->args[0]), move = term_of(g, p, c->head->args[1]);
  if (role == DL_NO_TERM || move == DL_NO_TERM) return 0;
  uint32_t n;
  const dl_tid *roles = dl_sm_roles(g->sm, &n);
  for (uint32_t r = 0; r < n; r++) {
    if (roles[r] != role) continue;
    if (offs[r] != UINT32_MAX) {
      dl_diag_report(g->diag, DL_ERROR, &p->src, c->off, "role '%s' has two moves in this joint move",
                     g->role_names[r]);
      return 0;
    }
    joint[r] = move;
    offs[r] = c->head->args[1]->off;
    return 1;
  }
  dl_diag_report(g->diag, DL_ERROR, &p->src, c->head->args[0]->off, "the game has no such role");
  return 0;
}

/* Reads the does facts of p into joint; INPUT after reporting. */
static gdlog_status joint_read(gdlog_game *g, const parsed *p, gdlog_move *joint, uint32_t *offs)
{
  for (int r = 0; r < g->n_roles; r++) offs[r] = UINT32_MAX;
  for (uint32_t i = 0; i < p->ast->n_clauses; i++) {
    const ast_clause *c = p->ast->clauses[i];
    if (!is_fact(g, p, c, "a joint move") || !joint_add(g, p, c, joint, offs)) return GDLOG_ERR_INPUT;
  }
  for (int r = 0; r < g->n_roles; r++)
    if (offs[r] == UINT32_MAX) {
      dl_diag_report(g->diag, DL_ERROR, &p->src, 0, "role '%s' has no move in this joint move",
                     g->role_names[r]);
      return GDLOG_ERR_INPUT;
    }
  return GDLOG_OK;
}

gdlog_status gdlog_parse_joint(gdlog_game *g, const gdlog_state *s, const char *name, const char *text, size_t len,
                               gdlog_move *joint)
{
  assert(g && g->sm && (!s || s->game == g) && (text || len == 0) && joint);
  call_begin(g);
  parsed p;
  gdlog_status st = GDLOG_ERR_INPUT;
  uint32_t *offs = malloc((size_t)g->n_roles * sizeof *offs);
  if (offs && parse_text(g, name ? name : "<moves>", text ? text : "", len, &p)) {
    st = joint_read(g, &p, joint, offs);
    if (st == GDLOG_OK && s) st = check_joint(g, s, joint, &p.src, offs);
  } else if (!offs) {
    free(offs);
    return nomem(g);
  }
  if (st != GDLOG_OK) st = call_fail(g, failure_kind(g, st));
  parsed_free(&p);
  free(offs);
  return st;
}

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

gdlog_status gdlog_parse_state(gdlog_game *g, const char *name, const char *text, size_t len, gdlog_state **s)
{
  assert(g && g->sm && (text || len == 0) && s);
  call_begin(g);
  *s = NULL;
  parsed p;
  gdlog_status st = GDLOG_ERR_INPUT;
  if (parse_text(g, name ? name : "<state>", text ? text : "", len, &p)) {
    dl_sm_list l = { 0 };
    uint32_t n = p.ast->n_clauses;
    l.ids = malloc((n ? n : 1) * sizeof *l.ids);
    int ok = l.ids != NULL;
    for (uint32_t i = 0; ok && i < n; i++) ok = (l.ids[l.n++] = fluent_of(g, &p, p.ast->clauses[i])) != DL_NO_TERM;
    if (ok) {
      dl_sort(l.ids, l.n, sizeof *l.ids, compare_tid, NULL);
      uint32_t k = 0;
      for (uint32_t i = 0; i < l.n; i++)
        if (k == 0 || l.ids[k - 1] != l.ids[i]) l.ids[k++] = l.ids[i];
      *s = state_make(g, l.ids, k);
      st = *s ? GDLOG_OK : GDLOG_ERR_NOMEM;
    } else if (!l.ids) st = GDLOG_ERR_NOMEM;
    dl_sm_list_free(&l);
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

gdlog_status gdlog_state_text(gdlog_game *g, const gdlog_state *s, char **text)
{
  assert(g && g->sm && s && s->game == g && text);
  call_begin(g);
  *text = NULL;
  char **lines = malloc((s->n ? s->n : 1) * sizeof *lines);
  if (!lines) return nomem(g);
  dl_buf all = { 0 };
  int ok = 1;
  for (uint32_t i = 0; i < s->n; i++) {
    dl_buf b = { 0 };
    dl_sm_term_text(g->sm, s->ids[i], g->format, &b);
    lines[i] = b.data;
    ok = ok && b.data && !b.failed;
  }
  if (ok) dl_sort(lines, s->n, sizeof *lines, compare_text, NULL);
  for (uint32_t i = 0; ok && i < s->n; i++) {
    dl_buf_addz(&all, lines[i]);
    dl_buf_add(&all, "\n", 1);
  }
  for (uint32_t i = 0; i < s->n; i++) free(lines[i]);
  free(lines);
  if (ok && !all.failed && !all.data) ok = dl_buf_reserve(&all, 1);
  if (!ok || all.failed) {
    dl_buf_free(&all);
    return nomem(g);
  }
  *text = all.data;
  return GDLOG_OK;
}
