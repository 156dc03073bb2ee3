/* cmd_equiv.c: gdlog equiv GAME OTHER: random playouts driven by GAME's
 * state machine (datalog/gdl/sm.h); at every state both programs must give
 * the same roles, initial state, terminal flag, legal moves per role, goal
 * values and next state for the chosen joint move.  Terms are compared as
 * printed text: the two programs have term stores of their own.  The first
 * difference is printed with the playout, the depth, the moves that led
 * there and the state, and the exit status is 1.
 *
 * Goal values are compared at every state, terminal or not (as the goal
 * atoms of the model: a correct grounding keeps them all); ggp-base's
 * contract (one goal value per role, a number in 0..100) is checked at
 * terminal states, and a role without a legal move in a non-terminal state
 * is an error of the program that has it. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datalog/base/diag.h"
#include "datalog/base/sort.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/stats.h"
#include "datalog/cli/guard.h"
#include "datalog/gdl/sm.h"

static const cli_option equiv_option_table[] = {
  { .name = "--playouts", .value = "N", .help = "number of random playouts (default 10)" },
  { .name = "--seed", .value = "S", .help = "seed of the random moves (default 1): the same seed plays\nthe same playouts" },
  { .name = "--max-depth", .value = "D", .help = "end a playout after D joint moves (default 10000)" },
  CLI_OPT_SYNTAX,
  CLI_OPT_END
};

typedef struct equiv_options {
  uint64_t playouts, seed, max_depth, max_atoms;
} equiv_options;

/* ---- a deterministic generator (splitmix64), no global state ------------------ */

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* A number in 0..n-1, n > 0, without modulo bias. */
static uint32_t rng_below(rng *r, uint32_t n)
{
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = rng_next(r);
  while (x >= limit);
  return (uint32_t)(x % n);
}

/* ---- sets of printed atoms ------------------------------------------------------- */

typedef struct atoms {
  char **v;
  size_t n, cap;
  int failed;
} atoms;

static void atoms_clear(atoms *a)
{
  for (size_t i = 0; i < a->n; i++) free(a->v[i]);
  a->n = 0;
}

static void atoms_free(atoms *a)
{
  atoms_clear(a);
  free(a->v);
  memset(a, 0, sizeof *a);
}

/* Adds text, a malloc'd string the set now owns (NULL: out of memory). */
static void atoms_push(atoms *a, char *text)
{
  if (text && a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 64;
    char **v = realloc(a->v, cap * sizeof *v);
    if (v) {
      a->v = v;
      a->cap = cap;
    }
  }
  if (!text || a->n == a->cap) {
    a->failed = 1;
    free(text);
    return;
  }
  a->v[a->n++] = text;
}

/* pred(x), pred(x,y) or pred (y, x DL_NO_TERM), or x alone (pred NULL), as
 * a malloc'd string; NULL when out of memory. */
static char *atom_text(const dl_sm *sm, const char *pred, dl_tid x, dl_tid y)
{
  dl_buf b = { 0 };
  if (pred) dl_buf_addz(&b, pred);
  if (x != DL_NO_TERM) {
    if (pred) dl_buf_addz(&b, "(");
    dl_sm_term_text(sm, x, DL_FMT_INFIX, &b);
    if (y != DL_NO_TERM) {
      dl_buf_addz(&b, ",");
      dl_sm_term_text(sm, y, DL_FMT_INFIX, &b);
    }
    if (pred) dl_buf_addz(&b, ")");
  }
  if (!b.failed && !b.data) dl_buf_addz(&b, "");
  if (!b.failed) return b.data;
  dl_buf_free(&b);
  return NULL;
}

static void atoms_add(atoms *a, const dl_sm *sm, const char *pred, dl_tid x, dl_tid y)
{
  atoms_push(a, atom_text(sm, pred, x, y));
}

static int compare_text(const void *x, const void *y, void *ctx)
{
  (void)ctx;
  return strcmp(*(char *const *)x, *(char *const *)y);
}

static void atoms_sort(atoms *a) { dl_sort(a->v, a->n, sizeof *a->v, compare_text, NULL); }

/* The first atom, in byte order, that is in one set and not the other;
 * *side is 0 when it is in a, 1 when in b.  NULL when the sets are equal. */
static const char *first_difference(const atoms *a, const atoms *b, int *side)
{
  size_t i = 0, j = 0;
  while (i < a->n || j < b->n) {
    int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i], b->v[j]);
    if (c < 0) { *side = 0; return a->v[i]; }
    if (c > 0) { *side = 1; return b->v[j]; }
    i++;
    j++;
  }
  return NULL;
}

/* ---- the run ------------------------------------------------------------------------ */

typedef struct side {
  const char *file;
  dl_diag *diag;           /* the state machine's: forwarded to the command's */
  dl_sm *sm;
  dl_sm_list state, next, moves, values;
  atoms set;
} side;

typedef struct equiv {
  cli_ctx *c;
  equiv_options opt;
  side s[2];
  rng rng;
  uint64_t playout, depth, states, cut;
  atoms history;           /* the joint moves of this playout, printed */
  dl_buf joint_text;       /* the joint move being tried, printed */
  dl_tid *joint[2];        /* per side, per role */
} equiv;

/* Moves the messages of side s's state machine to the command's
 * diagnostics, those without a place prefixed with its file. */
static void forward_diagnostics(equiv *q, side *s)
{
  for (size_t i = 0; s->diag && i < dl_diag_count(s->diag); i++) {
    const dl_message *m = dl_diag_message(s->diag, i);
    if (dl_guard_signal() && !m->src && strcmp(m->text, "interrupted") == 0) continue;
    if (m->src) dl_diag_report(q->c->diag, m->severity, m->src, m->off, "%s", m->text);
    else dl_diag_report(q->c->diag, m->severity, NULL, 0, "%s: %s", s->file, m->text);
  }
  dl_diag_destroy(s->diag);
  s->diag = dl_diag_create();
}

/* Prints where the playout is: the moves played and the state of side 0. */
static void print_place(const equiv *q)
{
  printf("moves:");
  for (size_t i = 0; i < q->history.n; i++) printf(" %s", q->history.v[i]);
  printf(q->history.n ? "\n" : " none (the initial state)\n");
  const side *s = &q->s[0];
  atoms a = { 0 };
  for (uint32_t i = 0; i < s->state.n; i++) atoms_add(&a, s->sm, "true", s->state.ids[i], DL_NO_TERM);
  atoms_sort(&a);
  printf("state (%u fluent%s):\n", s->state.n, s->state.n == 1 ? "" : "s");
  for (size_t i = 0; i < a.n; i++) printf("  %s\n", a.v[i]);
  atoms_free(&a);
}

/* Reports a difference of the two sets of side 0 and 1 (when there is one)
 * and returns 0; else 1. */
static int same(equiv *q, const char *what)
{
  if (q->s[0].set.failed || q->s[1].set.failed) {
    fprintf(stderr, "gdlog equiv: out of memory\n");
    return 0;
  }
  atoms_sort(&q->s[0].set);
  atoms_sort(&q->s[1].set);
  int in;
  const char *atom = first_difference(&q->s[0].set, &q->s[1].set, &in);
  if (!atom) return 1;
  printf("gdlog equiv: %s differs in playout %llu at depth %llu: %s holds in %s but not in %s\n", what,
         (unsigned long long)q->playout + 1, (unsigned long long)q->depth, atom, q->s[in].file, q->s[!in].file);
  if (q->joint_text.len) printf("joint move: %s\n", q->joint_text.data);
  print_place(q);
  return 0;
}

/* Reports that side i's state machine failed (its diagnostics say why). */
static int failed(equiv *q, int i, const char *what)
{
  printf("gdlog equiv: %s: asking for %s failed in playout %llu at depth %llu (the error follows)\n", q->s[i].file, what,
         (unsigned long long)q->playout + 1, (unsigned long long)q->depth);
  if (q->joint_text.len) printf("joint move: %s\n", q->joint_text.data);
  print_place(q);
  return 0;
}

static int same_roles(equiv *q)
{
  for (int i = 0; i < 2; i++) {
    uint32_t n;
    const dl_tid *roles = dl_sm_roles(q->s[i].sm, &n);
    atoms_clear(&q->s[i].set);
    for (uint32_t r = 0; r < n; r++) atoms_add(&q->s[i].set, q->s[i].sm, "role", roles[r], DL_NO_TERM);
  }
  const atoms *a = &q->s[0].set, *b = &q->s[1].set;
  int equal = a->n == b->n;
  for (size_t i = 0; equal && i < a->n; i++) equal = strcmp(a->v[i], b->v[i]) == 0;
  if (equal) return 1;
  printf("gdlog equiv: the roles differ:\n  %s:", q->s[0].file);
  for (size_t i = 0; i < a->n; i++) printf(" %s", a->v[i]);
  printf("\n  %s:", q->s[1].file);
  for (size_t i = 0; i < b->n; i++) printf(" %s", b->v[i]);
  printf("\n");
  return 0;
}

/* Puts each side's initial state into its state, and compares them. */
static int same_initial(equiv *q)
{
  for (int i = 0; i < 2; i++) {
    side *s = &q->s[i];
    uint32_t n;
    const dl_tid *init = dl_sm_initial(s->sm, &n);
    s->state.n = 0;
    atoms_clear(&s->set);
    for (uint32_t k = 0; k < n; k++) {
      if (s->state.n == s->state.cap) {
        uint32_t cap = s->state.cap ? 2 * s->state.cap : 64;
        dl_tid *ids = realloc(s->state.ids, cap * sizeof *ids);
        if (!ids) { s->set.failed = 1; break; }
        s->state.ids = ids;
        s->state.cap = cap;
      }
      s->state.ids[s->state.n++] = init[k];
      atoms_add(&s->set, s->sm, "init", init[k], DL_NO_TERM);
    }
  }
  return same(q, "the initial state");
}

static int same_terminal(equiv *q, int *terminal)
{
  int t[2];
  for (int i = 0; i < 2; i++) {
    side *s = &q->s[i];
    if (!dl_sm_terminal(s->sm, s->state.ids, s->state.n, &t[i])) return failed(q, i, "terminal");
    atoms_clear(&s->set);
    if (t[i]) atoms_add(&s->set, s->sm, "terminal", DL_NO_TERM, DL_NO_TERM);
  }
  *terminal = t[0];
  return same(q, "terminal");
}

static int same_legal(equiv *q)
{
  for (int i = 0; i < 2; i++) {
    side *s = &q->s[i];
    uint32_t n_roles;
    const dl_tid *roles = dl_sm_roles(s->sm, &n_roles);
    atoms_clear(&s->set);
    for (uint32_t r = 0; r < n_roles; r++) {
      if (!dl_sm_legal(s->sm, s->state.ids, s->state.n, r, &s->moves)) return failed(q, i, "the legal moves");
      for (uint32_t k = 0; k < s->moves.n; k++) atoms_add(&s->set, s->sm, "legal", roles[r], s->moves.ids[k]);
    }
  }
  return same(q, "legal");
}

static int same_goals(equiv *q, int terminal)
{
  for (int i = 0; i < 2; i++) {
    side *s = &q->s[i];
    uint32_t n_roles;
    const dl_tid *roles = dl_sm_roles(s->sm, &n_roles);
    atoms_clear(&s->set);
    for (uint32_t r = 0; r < n_roles; r++) {
      if (!dl_sm_goal_values(s->sm, s->state.ids, s->state.n, r, &s->values)) return failed(q, i, "the goal values");
      for (uint32_t k = 0; k < s->values.n; k++) atoms_add(&s->set, s->sm, "goal", roles[r], s->values.ids[k]);
    }
  }
  if (!same(q, "goal")) return 0;
  for (int i = 0; terminal && i < 2; i++) {
    side *s = &q->s[i];
    uint32_t n_roles;
    dl_sm_roles(s->sm, &n_roles);
    for (uint32_t r = 0; r < n_roles; r++) {
      int value;
      if (!dl_sm_goal(s->sm, s->state.ids, s->state.n, r, &value)) return failed(q, i, "the goal values");
    }
  }
  return 1;
}

/* The term of side s's legal moves of role r printed as text, DL_NO_TERM
 * when none is (the caller compared the legal sets first). */
static dl_tid find_move(side *s, uint32_t r, const char *text)
{
  if (!dl_sm_legal(s->sm, s->state.ids, s->state.n, r, &s->moves)) return DL_NO_TERM;
  for (uint32_t k = 0; k < s->moves.n; k++) {
    dl_buf b = { 0 };
    dl_sm_term_text(s->sm, s->moves.ids[k], DL_FMT_INFIX, &b);
    int match = b.data && strcmp(b.data, text) == 0;
    dl_buf_free(&b);
    if (match) return s->moves.ids[k];
  }
  return DL_NO_TERM;
}

/* Chooses a random joint move among side 0's legal moves (each role's
 * moves in byte order of their printed form, so that the choice does not
 * depend on term ids), into q->joint for both sides and q->joint_text. */
static int choose_joint(equiv *q)
{
  side *a = &q->s[0];
  uint32_t n_roles;
  dl_sm_roles(a->sm, &n_roles);
  dl_buf_free(&q->joint_text);
  dl_buf_addz(&q->joint_text, "[");
  for (uint32_t r = 0; r < n_roles; r++) {
    if (!dl_sm_legal(a->sm, a->state.ids, a->state.n, r, &a->moves)) return failed(q, 0, "the legal moves");
    atoms_clear(&a->set);
    for (uint32_t k = 0; k < a->moves.n; k++) atoms_add(&a->set, a->sm, NULL, a->moves.ids[k], DL_NO_TERM);
    if (a->set.failed || a->set.n == 0) return failed(q, 0, "the legal moves");
    atoms_sort(&a->set);
    const char *text = a->set.v[rng_below(&q->rng, (uint32_t)a->set.n)];
    if (r) dl_buf_addz(&q->joint_text, ", ");
    dl_buf_addz(&q->joint_text, text);
    for (int i = 0; i < 2; i++)
      if ((q->joint[i][r] = find_move(&q->s[i], r, text)) == DL_NO_TERM) return failed(q, i, "the legal moves");
  }
  dl_buf_addz(&q->joint_text, "]");
  return !q->joint_text.failed;
}

static int same_next(equiv *q)
{
  for (int i = 0; i < 2; i++) {
    side *s = &q->s[i];
    if (!dl_sm_next(s->sm, s->state.ids, s->state.n, q->joint[i], &s->next)) return failed(q, i, "the next state");
    atoms_clear(&s->set);
    for (uint32_t k = 0; k < s->next.n; k++) atoms_add(&s->set, s->sm, "next", s->next.ids[k], DL_NO_TERM);
  }
  return same(q, "next");
}

/* One playout from the initial state; 1 when both sides agreed all along. */
static int playout(equiv *q)
{
  atoms_clear(&q->history);
  q->depth = 0;
  dl_buf_free(&q->joint_text);
  if (!same_initial(q)) return 0;
  for (;;) {
    int terminal;
    q->states++;
    if (!same_terminal(q, &terminal) || !same_legal(q) || !same_goals(q, terminal)) return 0;
    if (terminal) return 1;
    if (q->depth == q->opt.max_depth) {
      q->cut++;
      return 1;
    }
    if (!choose_joint(q) || !same_next(q)) return 0;
    atoms_push(&q->history, strdup(q->joint_text.data));
    dl_buf_free(&q->joint_text);
    for (int i = 0; i < 2; i++) {
      dl_sm_list tmp = q->s[i].state;
      q->s[i].state = q->s[i].next;
      q->s[i].next = tmp;
    }
    q->depth++;
  }
}

static int load_side(equiv *q, int i)
{
  side *s = &q->s[i];
  s->file = q->c->args[i];
  s->diag = dl_diag_create();
  dl_loaded *l = s->diag ? cli_load(q->c, s->file) : NULL;
  dl_eval_options eo = { q->opt.max_atoms, dl_guard_cancel_flag() };
  s->sm = l ? dl_sm_create_limited(l->prog, &eo, s->diag) : NULL;
  if (!s->sm) return 0;
  uint32_t n_roles;
  dl_sm_roles(s->sm, &n_roles);
  q->joint[i] = calloc(n_roles + 1, sizeof *q->joint[i]);
  return q->joint[i] != NULL;
}

static void free_side(side *s)
{
  dl_sm_destroy(s->sm);
  dl_diag_destroy(s->diag);
  dl_sm_list_free(&s->state);
  dl_sm_list_free(&s->next);
  dl_sm_list_free(&s->moves);
  dl_sm_list_free(&s->values);
  atoms_free(&s->set);
}

/* Loads both programs and runs the playouts; 1 when they agree. */
static int play_all(equiv *q)
{
  double t0 = cli_now();
  q->rng.s = q->opt.seed;
  dl_guard_soft(1);
  int ok = load_side(q, 0) && load_side(q, 1) && same_roles(q);
  for (q->playout = 0; ok && q->playout < q->opt.playouts; q->playout++) ok = playout(q);
  dl_guard_soft(0);
  fflush(stdout);
  forward_diagnostics(q, &q->s[0]);
  forward_diagnostics(q, &q->s[1]);
  if (!ok || dl_guard_signal()) return 0;
  double t = cli_now() - t0;
  dl_sm_stats a = dl_sm_get_stats(q->s[0].sm), b = dl_sm_get_stats(q->s[1].sm);
  printf("equiv: %s and %s agree: %llu playouts, %llu states compared", q->s[0].file, q->s[1].file,
         (unsigned long long)q->opt.playouts, (unsigned long long)q->states);
  if (q->cut) printf(", %llu cut at depth %llu", (unsigned long long)q->cut, (unsigned long long)q->opt.max_depth);
  double n = q->states ? (double)q->states : 1;
  printf(" (time %.3f s; models per state %.2f ms, %.2f ms of processor time, and %.2f ms, %.2f ms)\n", t,
         1e3 * a.seconds / n, 1e3 * a.cpu_seconds / n, 1e3 * b.seconds / n, 1e3 * b.cpu_seconds / n);
  return fflush(stdout) == 0;
}

/* The value of count option name, dflt when not given; 0 after a usage error. */
static int count_option(cli_ctx *c, const char *name, uint64_t dflt, uint64_t *n)
{
  const char *v = cli_value(c, name);
  *n = dflt;
  if (!v) return 1;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(v, &end, 10);
  if (errno || end == v || *end || v[0] < '0' || v[0] > '9') {
    cli_usage(c, "%s needs a number, not '%s'", name, v);
    return 0;
  }
  *n = x;
  return 1;
}

static int run_equiv(cli_ctx *c)
{
  equiv q;
  memset(&q, 0, sizeof q);
  q.c = c;
  q.opt.max_atoms = c->max_atoms;
  if (!count_option(c, "--playouts", 10, &q.opt.playouts) || !count_option(c, "--seed", 1, &q.opt.seed) ||
      !count_option(c, "--max-depth", 10000, &q.opt.max_depth))
    return CLI_USAGE;
  if (strcmp(c->args[0], "-") == 0 && strcmp(c->args[1], "-") == 0)
    return cli_usage(c, "only one of the two files may be standard input");
  int ok = play_all(&q);
  for (int i = 0; i < 2; i++) {
    free_side(&q.s[i]);
    free(q.joint[i]);
  }
  atoms_free(&q.history);
  dl_buf_free(&q.joint_text);
  return ok ? CLI_OK : CLI_INPUT;
}

const cli_command cli_cmd_equiv = {
  .name = "equiv",
  .summary = "check by random playouts that two programs play the same game",
  .synopsis = "GAME OTHER",
  .min_args = 2,
  .max_args = 2,
  .about = "Checks that two programs play the same game (OTHER is typically GAME's\n"
           "grounding): random playouts are driven by GAME's state machine, and at every\n"
           "state both must give the same roles (in order), initial state, terminal flag,\n"
           "legal moves of each role, goal values (at every state) and next state for the\n"
           "joint move chosen.  Terms are compared as printed.  A role without a legal move\n"
           "in a non-terminal state, or without exactly one goal value in 0..100 in a\n"
           "terminal state, is an error (ggp-base's StateMachine contract).  Prints one\n"
           "summary line and exits 0 when they agree; at the first difference prints the\n"
           "playout, the depth, the moves played, the state and the first atom that\n"
           "differs, and exits 1.",
  .options = equiv_option_table,
  .run = run_equiv,
};
