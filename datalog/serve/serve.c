/* serve.c: the request loop of gdlog serve (serve.h): the state table
 * (ids from 1, never reused; the least recently used evicted beyond
 * max_states), reading and splitting the requests, answering them on the
 * machine, and writing the replies escaped. */
#include "datalog/serve/serve.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/rng.h"
#include "datalog/structure/game_symmetry.h"

enum { SERVE_MAX_LINE = 16 << 20 };  /* bytes of one request, newline excluded */

/* The longest playout of `playouts` (joint moves), as the API's. */
enum { PLAYOUT_MAX_DEPTH = 1000000 };

/* ---- the states, by id (from 1, never reused), also in a list in the
 * order of their last use, to evict the least recently used when the
 * table is full; and the set of the ids evicted. ---- */

typedef struct state_entry {
  uint64_t id;
  dl_mstate *state;
  struct state_entry *older, *newer;  /* the neighbours in the order of use */
} state_entry;

typedef struct state_table {
  Pvoid_t by_id;                /* JudyL: id -> its state_entry (0: none) */
  Pvoid_t evicted;              /* Judy1: the ids evicted */
  state_entry *oldest, *newest; /* the ends of the order of use */
  size_t n;                     /* states kept */
  uint64_t last_id;             /* the last id handed out */
} state_table;

/* The entry of id, NULL when the table does not keep it. */
static state_entry *table_entry(const state_table *t, uint64_t id)
{
  PWord_t v = (PWord_t)JudyLGet(t->by_id, (Word_t)id, PJE0);
  state_entry *e = v ? (state_entry *)*v : NULL;
  return e && e->id == id ? e : NULL;  /* the id check: a Word_t narrower than ids */
}

/* Takes e out of the order of use. */
static void order_unlink(state_table *t, state_entry *e)
{
  *(e->older ? &e->older->newer : &t->oldest) = e->newer;
  *(e->newer ? &e->newer->older : &t->newest) = e->older;
}

/* Puts e (out of the order) at the newest end of the order of use. */
static void order_push(state_table *t, state_entry *e)
{
  e->older = t->newest, e->newer = NULL;
  *(t->newest ? &t->newest->newer : &t->oldest) = e;
  t->newest = e;
}

/* Marks e as the most recently used state. */
static void table_touch(state_table *t, state_entry *e)
{
  order_unlink(t, e);
  order_push(t, e);
}

/* Stores s under a new id into *id, as the most recently used; 0 when out
 * of memory (s not stored). */
static int table_add(state_table *t, dl_mstate *s, uint64_t *id)
{
  state_entry *e = malloc(sizeof *e);
  PWord_t v = e ? (PWord_t)JudyLIns(&t->by_id, (Word_t)(t->last_id + 1), PJE0) : NULL;
  if (!v || v == PJERR) {
    free(e);
    return 0;
  }
  *e = (state_entry){ .id = *id = ++t->last_id, .state = s };
  *v = (Word_t)e;
  order_push(t, e);
  t->n++;
  return 1;
}

/* Removes e from the table and returns its state. */
static dl_mstate *table_remove(state_table *t, state_entry *e)
{
  dl_mstate *s = e->state;
  *(PWord_t)JudyLGet(t->by_id, (Word_t)e->id, PJE0) = 0;  /* gone even if the delete runs out of memory */
  JudyLDel(&t->by_id, (Word_t)e->id, PJE0);
  order_unlink(t, e);
  free(e);
  t->n--;
  return s;
}

/* Frees the least recently used state (the table keeps one) and remembers
 * its id as evicted; 0 when there is no memory to remember it (nothing
 * evicted: a later request must not call it never made). */
static int table_evict_oldest(state_table *t)
{
  assert(t->oldest);
  if (Judy1Set(&t->evicted, (Word_t)t->oldest->id, PJE0) == JERR) return 0;
  free(table_remove(t, t->oldest));
  return 1;
}

/* 1 when id was handed out and then evicted. */
static int table_evicted(const state_table *t, uint64_t id)
{
  return id <= t->last_id && Judy1Test(t->evicted, (Word_t)id, PJE0) == 1;
}

static void table_free(state_table *t)
{
  while (t->oldest) free(table_remove(t, t->oldest));
  JudyLFreeArray(&t->by_id, PJE0);
  Judy1FreeArray(&t->evicted, PJE0);
}

/* ---- the session ---- */

struct dl_serve {
  dl_diag *diag;          /* the messages of the request being answered */
  dl_machine *m;
  int kif;                /* the game is KIF: requests name its terms as KIF */
  int roles;
  dl_format fmt;          /* --format: of replies, and of the quotes that split requests */
  char **role_names;      /* in fmt */
  uint64_t max_depth, max_states;
  void (*soft)(int on);   /* the caller's hooks (dl_serve_options) */
  int (*signaled)(void);
  dl_rng rng;
  state_table states;
  uint32_t *joint;        /* one move per role */
  dl_ids moves;
  dl_buf reply;           /* the reply being made, without its newline */
  int quit;               /* quit was asked */
  FILE *out;              /* where the replies go */
  const dl_game_symmetry *symmetry;  /* may be NULL */
};
typedef dl_serve serve;

/* Starts an error reply with the message fmt; returns 0. */
static int fail(serve *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(serve *s, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  s->reply.len = 0;
  dl_buf_addz(&s->reply, "error ");
  dl_buf_addz(&s->reply, msg);
  return 0;
}

/* The first error the machine reported for the request; NULL when none. */
static const dl_message *first_error(const serve *s)
{
  for (size_t i = 0; i < dl_diag_count(s->diag); i++)
    if (dl_diag_message(s->diag, i)->severity == DL_ERROR) return dl_diag_message(s->diag, i);
  return NULL;
}

/* An error reply with the first message the machine reported for the
 * request (without its place), else what status st says; returns 0. */
static int fail_machine(serve *s, dl_mstatus st)
{
  const dl_message *m = first_error(s);
  if (m) return fail(s, "%.400s", m->text);
  return fail(s, "%s", st == DL_M_NOMEM ? "out of memory" : st == DL_M_LIMIT ? "limit reached" : "failed");
}

static void ok_begin(serve *s)
{
  s->reply.len = 0;
  dl_buf_addz(&s->reply, "ok");
}

static void ok_field(serve *s, const char *text)
{
  dl_buf_addz(&s->reply, " ");
  dl_buf_addz(&s->reply, text);
}

/* Reads field f, a whole number in decimal digits alone, into *n.
 * Returns 1, 0 when f is not one (empty, a sign, blanks, other bytes), -1
 * when it is beyond UINT64_MAX. */
static int read_count(const char *f, uint64_t *n)
{
  char *end;
  if (*f < '0' || *f > '9') return 0;
  errno = 0;
  unsigned long long v = strtoull(f, &end, 10);
  if (*end) return 0;
  if (errno == ERANGE) return -1;
  *n = v;
  return 1;
}

/* The id in field f into *id; 0 after an error reply. */
static int id_arg(serve *s, const char *f, uint64_t *id)
{
  int got = read_count(f, id);
  if (got < 0) return fail(s, "'%.100s' is not a state id (too large)", f);
  return got ? 1 : fail(s, "'%.100s' is not a state id", f);
}

/* The state of the id in field f into *st, which becomes the most recently
 * used; 0 after an error reply. */
static int state_arg(serve *s, const char *f, dl_mstate **st)
{
  uint64_t id = 0;
  if (!id_arg(s, f, &id)) return 0;
  state_entry *e = table_entry(&s->states, id);
  if (e) {
    table_touch(&s->states, e);
    *st = e->state;
    return 1;
  }
  if (table_evicted(&s->states, id))
    return fail(s, "state %s was evicted (least recently used, beyond --max-states %llu): load its fluents again", f,
                (unsigned long long)s->max_states);
  return fail(s, "no state %s (never made, or dropped)", f);
}

/* The role named in field f into *r; 0 after an error reply. */
static int role_arg(serve *s, const char *f, uint32_t *r)
{
  dl_mstatus st = dl_machine_parse_role(s->m, f, strlen(f), s->kif, r);
  return st == DL_M_OK ? 1 : fail_machine(s, st);
}

/* Replies `ok ID` with a new id for st (taken over), evicting the least
 * recently used state when --max-states are kept; 0 after an error reply
 * (st freed). */
static int ok_new_state(serve *s, dl_mstate *st)
{
  uint64_t id = 0;
  if ((s->max_states && s->states.n >= s->max_states && !table_evict_oldest(&s->states)) ||
      !table_add(&s->states, st, &id)) {
    free(st);
    return fail(s, "out of memory");
  }
  ok_begin(s);
  dl_buf_addf(&s->reply, " %llu", (unsigned long long)id);
  return 1;
}

/* ---- the requests: each gets its fields after the name (f[0..n)) and
 * makes the reply; returns 1 (ok) or 0 (error). ---- */

static int req_roles(serve *s, char **f, int n)
{
  (void)f, (void)n;
  ok_begin(s);
  for (int r = 0; r < s->roles; r++) ok_field(s, s->role_names[r]);
  return 1;
}

static int req_init(serve *s, char **f, int n)
{
  (void)f, (void)n;
  dl_mstate *st = NULL;
  dl_mstatus rc = dl_machine_initial(s->m, &st);
  return rc == DL_M_OK ? ok_new_state(s, st) : fail_machine(s, rc);
}

static int req_legal(serve *s, char **f, int n)
{
  (void)n;
  dl_mstate *st = NULL;
  uint32_t r = 0;
  if (!state_arg(s, f[0], &st) || !role_arg(s, f[1], &r)) return 0;
  dl_mstatus rc = dl_machine_legal(s->m, st, r, &s->moves);
  if (rc != DL_M_OK) return fail_machine(s, rc);  /* none in a state that is not terminal: the game's fault */
  if (s->moves.n == 0) return fail(s, "role '%s' has no legal move in this terminal state", s->role_names[r]);
  ok_begin(s);
  for (uint32_t i = 0; i < s->moves.n; i++) {
    dl_buf_addz(&s->reply, " ");
    dl_machine_term_text(s->m, s->m->ops->move_term(s->m, s->moves.ids[i]), s->fmt, &s->reply);
  }
  return 1;
}

/* The next state of the state in f[0] for the joint move f[1..n) into
 * *next (a new state); 0 after an error reply (name: the request's). */
static int next_of(serve *s, const char *name, char **f, int n, dl_mstate **next)
{
  dl_mstate *st = NULL;
  if (!state_arg(s, f[0], &st)) return 0;
  if (n - 1 != s->roles)
    return fail(s, "%s needs a state id and %d moves, one per role in the order of roles; got %d moves", name,
                s->roles, n - 1);
  for (int r = 0; r < s->roles; r++) {
    dl_mstatus rc = dl_machine_parse_move(s->m, (uint32_t)r, f[r + 1], strlen(f[r + 1]), s->kif, &s->joint[r]);
    if (rc != DL_M_OK) return fail_machine(s, rc);
  }
  dl_mstatus rc = dl_machine_next(s->m, st, s->joint, next);
  return rc == DL_M_OK ? 1 : fail_machine(s, rc);
}

static int req_next(serve *s, char **f, int n)
{
  dl_mstate *next = NULL;
  return next_of(s, "next", f, n, &next) && ok_new_state(s, next);
}

/* Adds the fluents of text (one a line, as gdlog_state_text writes them)
 * to the reply (begun) and frees text. */
static void add_fluents(serve *s, char *text)
{
  for (char *p = strtok(text, "\n"); p; p = strtok(NULL, "\n")) ok_field(s, p);
  free(text);
}

/* nextstate ID MOVE...: next and state in one round trip. */
static int req_nextstate(serve *s, char **f, int n)
{
  dl_mstate *next = NULL;
  char *text;
  if (!next_of(s, "nextstate", f, n, &next)) return 0;
  dl_mstatus rc = dl_machine_state_text(s->m, next, s->fmt, &text);  /* before the id: no id is lost to an error */
  if (rc != DL_M_OK) {
    free(next);
    return fail_machine(s, rc);
  }
  if (!ok_new_state(s, next)) {
    free(text);
    return 0;
  }
  add_fluents(s, text);
  return 1;
}

static int req_terminal(serve *s, char **f, int n)
{
  (void)n;
  dl_mstate *st = NULL;
  int terminal;
  if (!state_arg(s, f[0], &st)) return 0;
  dl_mstatus rc = dl_machine_terminal(s->m, st, &terminal);
  if (rc != DL_M_OK) return fail_machine(s, rc);
  ok_begin(s);
  ok_field(s, terminal ? "true" : "false");
  return 1;
}

static int req_goal(serve *s, char **f, int n)
{
  (void)n;
  dl_mstate *st = NULL;
  uint32_t r = 0;
  int v;
  if (!state_arg(s, f[0], &st) || !role_arg(s, f[1], &r)) return 0;
  dl_mstatus rc = dl_machine_goal(s->m, st, r, &v);
  if (rc != DL_M_OK) return fail_machine(s, rc);
  ok_begin(s);
  dl_buf_addf(&s->reply, " %d", v);
  return 1;
}

/* Adds the goal value of every role in st to the reply (begun); 0 after
 * an error reply. */
static int add_goals(serve *s, const dl_mstate *st)
{
  for (int r = 0; r < s->roles; r++) {
    int v;
    dl_mstatus rc = dl_machine_goal(s->m, st, (uint32_t)r, &v);
    if (rc != DL_M_OK) return fail_machine(s, rc);
    dl_buf_addf(&s->reply, " %d", v);
  }
  return 1;
}

static int req_goals(serve *s, char **f, int n)
{
  (void)n;
  dl_mstate *st = NULL;
  if (!state_arg(s, f[0], &st)) return 0;
  ok_begin(s);
  return add_goals(s, st);
}

static int req_state(serve *s, char **f, int n)
{
  (void)n;
  dl_mstate *st = NULL;
  char *text;
  if (!state_arg(s, f[0], &st)) return 0;
  dl_mstatus rc = dl_machine_state_text(s->m, st, s->fmt, &text);
  if (rc != DL_M_OK) return fail_machine(s, rc);
  ok_begin(s);
  add_fluents(s, text);
  return 1;
}

static int req_load(serve *s, char **f, int n)
{
  dl_buf text = { 0 };
  for (int i = 0; i < n; i++) {
    dl_buf_addz(&text, f[i]);
    dl_buf_addz(&text, "\n");
  }
  if (text.failed) {
    dl_buf_free(&text);
    return fail(s, "out of memory");
  }
  dl_mstate *st = NULL;
  dl_mstatus rc = dl_machine_parse_state(s->m, "<state>", text.data ? text.data : "", text.len, s->kif, &st);
  dl_buf_free(&text);
  return rc == DL_M_OK ? ok_new_state(s, st) : fail_machine(s, rc);
}

/* One random playout from st; its final state into *end (a new state).
 * 0 after an error reply. */
static int playout(serve *s, const dl_mstate *from, dl_mstate **end)
{
  dl_mstate *st = dl_mstate_copy(from);
  dl_mstatus rc = st ? DL_M_OK : DL_M_NOMEM;
  for (uint64_t depth = 0; rc == DL_M_OK; depth++) {
    int terminal;
    if ((rc = dl_machine_terminal(s->m, st, &terminal)) != DL_M_OK) break;
    if (terminal) {
      *end = st;
      return 1;
    }
    if (depth >= s->max_depth) {
      free(st);
      return fail(s, "no terminal state within %llu joint moves (--max-depth)", (unsigned long long)s->max_depth);
    }
    for (int r = 0; r < s->roles && rc == DL_M_OK; r++)
      if ((rc = dl_machine_legal(s->m, st, (uint32_t)r, &s->moves)) == DL_M_OK)
        s->joint[r] = s->moves.ids[dl_rng_below(&s->rng, s->moves.n)];
    dl_mstate *next = NULL;
    if (rc == DL_M_OK) rc = dl_machine_next_unchecked(s->m, st, s->joint, &next);
    free(st);
    st = next;
  }
  free(st);
  return fail_machine(s, rc);
}

static int req_random(serve *s, char **f, int n)
{
  (void)n;
  dl_mstate *st, *end = NULL;
  if (!state_arg(s, f[0], &st) || !playout(s, st, &end)) return 0;
  ok_begin(s);
  int ok = add_goals(s, end);
  free(end);
  return ok;
}

/* playouts ID N: each role's mean goal over N random playouts from ID
 * (gdlog_playouts, seeded from the session's generator). */
static int req_playouts(serve *s, char **f, int n)
{
  (void)n;
  dl_mstate *st = NULL;
  uint64_t count = 0;
  if (!state_arg(s, f[0], &st)) return 0;
  if (read_count(f[1], &count) != 1 || count < 1 || count > 1000000000ULL)
    return fail(s, "playouts: '%.100s' is not a number of playouts from 1 to 1000000000", f[1]);
  double *sum = calloc((size_t)s->roles + 1, sizeof *sum);
  if (!sum) return fail(s, "out of memory");
  dl_playout_options o = { .n = count, .seed = dl_rng_next(&s->rng), .max_depth = PLAYOUT_MAX_DEPTH,
                           .goal_default = -1 };
  dl_playout_totals t = { .goal_sum = sum };
  dl_mstatus rc = dl_machine_playouts(s->m, st, &o, &t);
  if (rc == DL_M_OK) {
    ok_begin(s);
    for (int r = 0; r < s->roles; r++) dl_buf_addf(&s->reply, " %.4f", sum[r] / (t.playouts ? (double)t.playouts : 1));
  }
  free(sum);
  return rc == DL_M_OK ? 1 : fail_machine(s, rc);
}

/* drop ID...: every id must be kept or evicted (then already freed), else
 * nothing is dropped. */
static int req_drop(serve *s, char **f, int n)
{
  dl_mstate *st = NULL;
  uint64_t id = 0;
  for (int i = 0; i < n; i++)
    if (!id_arg(s, f[i], &id) || (!table_evicted(&s->states, id) && !state_arg(s, f[i], &st))) return 0;
  for (int i = 0; i < n; i++) {
    read_count(f[i], &id);
    state_entry *e = table_entry(&s->states, id);  /* NULL: evicted, or given twice */
    if (e) free(table_remove(&s->states, e));
  }
  ok_begin(s);
  return 1;
}

/* The group's order into *order; 0 after an error reply when the session
 * has no symmetries. */
static int group_order(serve *s, uint64_t *order)
{
  if (!s->symmetry) return fail(s, "no symmetries: start gdlog serve with --symmetry");
  int exact;
  *order = dl_symmetry_act_order(s->symmetry->act, &exact);
  return 1;
}

static int req_symmetries(serve *s, char **f, int n)
{
  (void)f, (void)n;
  uint64_t order = 0;
  if (!group_order(s, &order)) return 0;
  ok_begin(s);
  dl_buf_addf(&s->reply, " %llu", (unsigned long long)order);
  return 1;
}

/* Replies `ok ID HASH` for the image of the state of field f under
 * element e (DL_CANONICAL: its canonical state). */
static int reply_image(serve *s, const char *f, uint64_t e)
{
  dl_mstate *st = NULL, *image = NULL;
  uint64_t hash = 0;
  if (!state_arg(s, f, &st)) return 0;
  dl_mstatus rc = dl_game_symmetry_state(s->symmetry, s->m, st, e, &image, &hash);
  if (rc != DL_M_OK) return fail_machine(s, rc);
  if (!ok_new_state(s, image)) return 0;
  dl_buf_addf(&s->reply, " %016llx", (unsigned long long)hash);
  return 1;
}

static int req_canonical(serve *s, char **f, int n)
{
  (void)n;
  uint64_t order = 0;
  return group_order(s, &order) && reply_image(s, f[0], DL_CANONICAL);
}

static int req_image(serve *s, char **f, int n)
{
  (void)n;
  uint64_t order = 0, e = 0;
  if (!group_order(s, &order)) return 0;
  if (read_count(f[1], &e) != 1 || e >= order)
    return fail(s, "'%.100s' is not a symmetry (0 .. %llu)", f[1], (unsigned long long)order - 1);
  return reply_image(s, f[0], e);
}

static int req_help(serve *s, char **f, int n);

static int req_quit(serve *s, char **f, int n)
{
  (void)f, (void)n;
  s->quit = 1;
  ok_begin(s);
  return 1;
}

typedef struct request {
  const char *name, *args;  /* args: the usage after the name */
  int min, max;             /* fields after the name; max -1: any */
  int (*run)(serve *s, char **f, int n);
} request;

static const request requests[] = {
  { "roles", "", 0, 0, req_roles },
  { "init", "", 0, 0, req_init },
  { "legal", " ID ROLE", 2, 2, req_legal },
  { "next", " ID MOVE...", 1, -1, req_next },
  { "nextstate", " ID MOVE...", 1, -1, req_nextstate },
  { "terminal", " ID", 1, 1, req_terminal },
  { "goal", " ID ROLE", 2, 2, req_goal },
  { "goals", " ID", 1, 1, req_goals },
  { "state", " ID", 1, 1, req_state },
  { "load", " FLUENT...", 0, -1, req_load },
  { "random", " ID", 1, 1, req_random },
  { "playouts", " ID N", 2, 2, req_playouts },
  { "drop", " ID...", 1, -1, req_drop },
  { "symmetries", "", 0, 0, req_symmetries },
  { "canonical", " ID", 1, 1, req_canonical },
  { "image", " ID E", 2, 2, req_image },
  { "help", "", 0, 0, req_help },
  { "quit", "", 0, 0, req_quit },
};
enum { N_REQUESTS = sizeof requests / sizeof requests[0] };

static int req_help(serve *s, char **f, int n)
{
  (void)f, (void)n;
  ok_begin(s);
  for (int i = 0; i < N_REQUESTS; i++) ok_field(s, requests[i].name);
  return 1;
}

/* ---- reading a request ---- */

/* The end of the field that starts at p: a blank (space, tab) ends it
 * outside parentheses and quoted symbols (|...| in KIF, '...' in infix,
 * where a symbol starts; a backslash escapes the next byte).  NULL when
 * its parentheses or quotes do not balance ("what" says which). */
static char *field_end(char *p, int infix, const char **what)
{
  char quote = infix ? '\'' : '|';
  int depth = 0, start = 1;  /* start: a symbol may start here */
  for (; *p && (depth > 0 || (*p != ' ' && *p != '\t')); p++) {
    if (*p == quote && start) {
      for (p++; *p && *p != quote; p++)
        if (*p == '\\' && p[1]) p++;
      if (!*p) return *what = "a quoted symbol that does not end", NULL;
    } else if (*p == '(') depth++;
    else if (*p == ')' && --depth < 0) return *what = "a ')' without its '('", NULL;
    start = *p == '(' || *p == ',' || *p == ' ' || *p == '\t';
  }
  if (depth > 0) return *what = "a '(' without its ')'", NULL;
  return p;
}

/* Splits line into fields (NUL-ended in place) in (*f)[0..*n); 0 after an
 * error reply. */
static int split(serve *s, char *line, char ***f, int *n, int *cap)
{
  *n = 0;
  for (char *p = line;;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) return 1;
    const char *what = NULL;
    char *end = field_end(p, s->fmt == DL_FMT_INFIX, &what);
    if (!end) return fail(s, "%s in '%.100s'", what, p);
    if (*n == *cap) {
      int c = *cap ? *cap * 2 : 16;
      char **g = realloc(*f, (size_t)c * sizeof *g);
      if (!g) return fail(s, "out of memory");
      *f = g, *cap = c;
    }
    (*f)[(*n)++] = p;
    if (!*end) return 1;
    *end = 0;
    p = end + 1;
  }
}

/* Doubles the room of *line (*cap bytes; 256 at first); 0 when out of
 * memory (*line and *cap as they were). */
static int grow_line(char **line, size_t *cap)
{
  size_t n = *cap ? *cap * 2 : 256;
  char *l = realloc(*line, n);
  if (!l) return 0;
  *line = l, *cap = n;
  return 1;
}

/* Reads one line of in into *line (without its newline, NUL-ended; a CR
 * before the newline dropped); *len its length.  Returns 1 for a line, 0
 * at the end of input, -1 for a line too long, -3 for a line with a NUL
 * byte, -2 when out of memory (all three read to their end: the rest of
 * a line is never taken for a request). */
static int read_line(FILE *in, char **line, size_t *len, size_t *cap)
{
  int c, bad = 0, any = 0;
  *len = 0;
  while ((c = getc(in)) != EOF && c != '\n') {
    any = 1;
    if (bad) continue;
    if (c == 0) bad = -3;
    else if (*len >= SERVE_MAX_LINE) bad = -1;
    else if (*len + 2 > *cap && !grow_line(line, cap)) bad = -2;
    else (*line)[(*len)++] = (char)c;
  }
  if (!any && c == EOF) return 0;
  if (bad) return bad;
  if (*len && (*line)[*len - 1] == '\r') (*len)--;
  if (!*line && !grow_line(line, cap)) return -2;
  (*line)[*len] = 0;
  return 1;
}

/* Answers the request in line (its fields split in place). */
static void answer(serve *s, char *line, char ***f, int *cap)
{
  int n;
  dl_diag_clear(s->diag);  /* the last request's messages were its reply */
  if (!split(s, line, f, &n, cap)) return;
  if (n == 0) {
    fail(s, "empty request (try help)");
    return;
  }
  for (int i = 0; i < N_REQUESTS; i++) {
    const request *q = &requests[i];
    if (strcmp((*f)[0], q->name)) continue;
    if (n - 1 < q->min || (q->max >= 0 && n - 1 > q->max)) {
      fail(s, "usage: %s%s", q->name, q->args);
      return;
    }
    q->run(s, *f + 1, n - 1);
    return;
  }
  fail(s, "unknown request '%.100s' (try help)", (*f)[0]);
}

/* The length of the character at p (n > 0 bytes left) when it is valid
 * UTF-8 (no overlong form, surrogate or code point beyond U+10FFFF) and not
 * an ASCII control character, else 0. */
static size_t printable_char(const unsigned char *p, size_t n)
{
  unsigned char c = p[0];
  if (c < 0x80) return c >= 0x20 && c != 0x7f;
  size_t len = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
  if (len == 0 || len > n) return 0;
  unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
  unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
  if (p[1] < lo || p[1] > hi) return 0;
  for (size_t i = 2; i < len; i++)
    if (p[i] < 0x80 || p[i] > 0xbf) return 0;
  return len;
}

/* Writes text[0..n) with every byte that is not part of a printable
 * character as \xHH, so that a reply is one line of valid UTF-8 (a client
 * reading text decodes it) even when it echoes bytes of a request. */
static void write_escaped(FILE *out, const char *text, size_t n)
{
  const unsigned char *p = (const unsigned char *)text;
  for (size_t i = 0; i < n;) {
    size_t len = printable_char(p + i, n - i);
    if (len) {
      fwrite(p + i, 1, len, out);
      i += len;
    } else fprintf(out, "\\x%02x", p[i++]);
  }
}

/* Writes the reply (escaped) and its newline, and flushes; 0 when the
 * output failed. */
static int send_reply(serve *s)
{
  if (s->reply.failed) {
    s->reply.failed = 0;
    fail(s, "out of memory");
    if (s->reply.failed) return fputs("error out of memory\n", s->out) >= 0 && fflush(s->out) == 0;
  }
  write_escaped(s->out, s->reply.data, s->reply.len);
  return putc('\n', s->out) != EOF && fflush(s->out) == 0 && !ferror(s->out);
}

/* ---- the session ---- */

/* The roles' names in the replies' syntax; 0 when out of memory. */
static int name_roles(serve *s)
{
  s->role_names = calloc((size_t)s->roles + 1, sizeof *s->role_names);
  for (int r = 0; s->role_names && r < s->roles; r++) {
    dl_buf b = { 0 };
    dl_machine_term_text(s->m, s->m->roles[r], s->fmt, &b);
    if (b.failed || !b.data) return 0;
    s->role_names[r] = b.data;
  }
  return s->role_names != NULL;
}
dl_serve *dl_serve_create(dl_machine *m, int kif, const dl_serve_options *o, dl_diag *diag)
{
  serve *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->diag = diag, s->m = m, s->kif = kif, s->fmt = o->fmt;
  s->max_depth = o->max_depth, s->max_states = o->max_states;
  s->soft = o->soft, s->signaled = o->signaled, s->symmetry = o->symmetry;
  dl_rng_seed(&s->rng, o->seed);
  m->format = o->fmt;
  s->roles = (int)m->n_roles;
  s->joint = malloc(((size_t)s->roles + 1) * sizeof *s->joint);
  if (s->joint && name_roles(s)) return s;
  dl_serve_destroy(s);
  return NULL;
}

void dl_serve_destroy(dl_serve *s)
{
  if (!s) return;
  table_free(&s->states);
  for (int r = 0; s->role_names && r < s->roles; r++) free(s->role_names[r]);
  free(s->role_names);
  free(s->joint);
  dl_ids_free(&s->moves);
  dl_buf_free(&s->reply);
  free(s);
}

int dl_serve_run(dl_serve *s, FILE *in, FILE *out)
{
  char *line = NULL, **f = NULL;
  size_t len, cap = 0;
  int fcap = 0, wrote = 1, err = 0;
  s->out = out;
  while (!s->quit) {
    int got = read_line(in, &line, &len, &cap);
    if (got == 0) break;
    if (got == -2) fail(s, "out of memory");
    else if (got == -1) fail(s, "the request is longer than %d bytes", SERVE_MAX_LINE);
    else if (got == -3) fail(s, "the request holds a NUL byte");
    else {
      if (s->soft) s->soft(1);
      answer(s, line, &f, &fcap);
      if (s->soft) s->soft(0);
    }
    if (!send_reply(s)) {
      wrote = 0, err = errno;
      break;
    }
    if (s->signaled && s->signaled()) break;  /* the caller turns it into the exit status */
  }
  if (wrote && ferror(in)) err = errno;
  dl_diag_clear(s->diag);  /* the last request's messages were its reply; then why the session failed */
  if (!wrote) dl_diag_report(s->diag, DL_ERROR, NULL, 0, "cannot write the reply: %s", strerror(err));
  else if (ferror(in)) dl_diag_report(s->diag, DL_ERROR, NULL, 0, "cannot read the requests: %s", strerror(err));
  free(line);
  free(f);
  return wrote && !ferror(in);
}

void dl_serve_reply_error(FILE *out, const char *text)
{
  fputs("error ", out);
  write_escaped(out, text, strlen(text));
  putc('\n', out);
  fflush(out);
}
