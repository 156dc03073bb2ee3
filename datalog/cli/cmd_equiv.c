/* cmd_equiv.c: gdlog equiv GAME OTHER: random playouts driven by GAME's
 * state machine (datalog/machine/sm.h); at every state the programs must give
 * the same roles, initial state, terminal flag, legal moves per role, goal
 * values and next state for the chosen joint move.  Terms are compared as
 * printed text: the programs have term stores of their own.  The first
 * difference is printed with the playout, the depth, the moves that led
 * there and the state, and the exit status is 1.
 *
 * OTHER is played by a backend (--backend): the rules (sm.h, the evaluator
 * over OTHER's rules), or the circuit (datalog/circuit/circuit.h, issue 13)
 * compiled from OTHER's grounding; a ground OTHER is compiled as it is, one
 * circuit rule per ground rule (grounded again with no pruning, demand,
 * splitting, factoring or simplification), any other is grounded as `gdlog
 * play` grounds it.  auto, the default, takes the
 * circuit when OTHER is ground and the rules otherwise; all plays OTHER on
 * both, so that the rules on GAME, the rules on OTHER and the circuit on
 * OTHER are compared at every state.  Each backend plays its own states
 * (the circuit its bitsets), so an error of one is not hidden by another.
 *
 * Goal values are compared at every state, terminal or not (as the goal
 * atoms of the model: a correct grounding keeps them all); ggp-base's
 * contract (one goal value per role, a number in 0..100) is checked at
 * terminal states, and a role without a legal move in a non-terminal state
 * is an error of the program that has it.  The circuit tells a role's goal
 * value only when it has one; when it has several, their number is compared
 * with the rules' on the same program in the circuit's state, and the
 * rules' values stand for the circuit's (counted in the summary). */
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
#include "datalog/circuit/circuit.h"
#include "datalog/gdl/domains.h"
#include "datalog/ground/ground.h"
#include "datalog/gdl/reduce.h"
#include "datalog/machine/pipeline.h"
#include "datalog/machine/sm.h"
#include "datalog/write/output.h"

enum { BACKEND_AUTO, BACKEND_RULES, BACKEND_CIRCUIT, BACKEND_ALL };

static const cli_option equiv_option_table[] = {
  { .name = "--playouts", .value = "N", .help = "number of random playouts (default 10)" },
  { .name = "--seed", .value = "S", .help = "seed of the random moves (default 1): the same seed plays\nthe same playouts" },
  { .name = "--max-depth", .value = "D", .help = "end a playout after D joint moves (default 10000)" },
  { .name = "--backend", .value = "B",
    .one_of = CLI_ONE_OF({ "auto", BACKEND_AUTO }, { "rules", BACKEND_RULES }, { "circuit", BACKEND_CIRCUIT },
                         { "all", BACKEND_ALL }),
    .help = "how OTHER is played: rules (its rules evaluated), circuit\n"
            "(its grounding compiled: datalog/circuit/circuit.h), all (both:\n"
            "GAME's rules, OTHER's rules and OTHER's circuit compared), or\n"
            "auto (default): circuit when OTHER is ground, else rules" },
  { .name = "--circuit", .value = "M",
    .one_of = CLI_ONE_OF({ "auto", DL_CIRCUIT_AUTO }, { "eager", DL_CIRCUIT_EAGER }, { "lazy", DL_CIRCUIT_LAZY }),
    .help = "how the circuit evaluates (gdlog play --help): auto\n"
            "(default), eager or lazy" },
  { .name = "--syntax", .value = "S", .repeatable = 1,
    .one_of = CLI_ONE_OF({ "kif", LX_KIF }, { "infix", LX_INFIX }, { "asp", LX_ASP }),
    .help = "input syntax, kif, infix or asp: given once, of both files;\n"
            "twice, of GAME then of OTHER (default: each file's, by its\n"
            "content, else its extension)" },
  CLI_OPT_END
};

typedef struct equiv_options {
  uint64_t playouts, seed, max_depth, max_atoms;
  int backend;
  dl_circuit_mode circuit;
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
static char *atom_text(const dl_terms *terms, const char *pred, dl_tid x, dl_tid y)
{
  dl_buf b = { 0 };
  if (pred) dl_buf_addz(&b, pred);
  if (x != DL_NO_TERM) {
    if (pred) dl_buf_addz(&b, "(");
    dl_output_term(&b, terms, x, DL_FMT_INFIX);
    if (y != DL_NO_TERM) {
      dl_buf_addz(&b, ",");
      dl_output_term(&b, terms, y, DL_FMT_INFIX);
    }
    if (pred) dl_buf_addz(&b, ")");
  }
  if (!b.failed && !b.data) dl_buf_addz(&b, "");
  if (!b.failed) return b.data;
  dl_buf_free(&b);
  return NULL;
}

static void atoms_add(atoms *a, const dl_terms *terms, const char *pred, dl_tid x, dl_tid y)
{
  atoms_push(a, atom_text(terms, pred, x, y));
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

/* ---- sides: a program played by a backend ---------------------------------------- */

enum { MAX_SIDES = 3 };

typedef struct side {
  const char *file;
  char *name;              /* in messages: the file, "FILE (circuit)" for a circuit */
  dl_diag *diag;           /* the backend's: forwarded to the command's */
  dl_loaded *loaded;
  const dl_terms *terms;
  uint32_t n_roles;
  const dl_tid *roles;     /* role terms, in order */
  dl_tid *role_ids;        /* circuit: its role terms */
  /* rules */
  dl_sm *sm;               /* circuit: the rules on the same program, made when a */
                           /*   role has several goal values (the circuit tells */
                           /*   only their number) */
  dl_sm_list state, next, moves, values;
  dl_tid *joint;           /* per role */
  /* circuit */
  dl_domains *domains;
  dl_ground *ground;
  dl_circuit *circuit;
  uint32_t words;
  uint64_t *bits, *next_bits;
  uint32_t *move_of;       /* per role: the move index chosen */
  uint64_t goals_by_count; /* roles' goal sets taken from sm (several values) */
  double build_seconds;    /* grounding and compiling */
  double cpu;              /* processor time in the backend's questions */
  atoms set;
} side;

typedef struct equiv {
  cli_ctx *c;
  equiv_options opt;
  side s[MAX_SIDES];
  int n_sides;
  rng rng;
  uint64_t playout, depth, states, cut;
  atoms history;           /* the joint moves of this playout, printed */
  dl_buf joint_text;       /* the joint move being tried, printed */
} equiv;

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int is_circuit(const side *s) { return s->circuit != NULL; }

/* Moves the messages of side s's backend to the command's diagnostics,
 * those without a place prefixed with its name. */
static void forward_diagnostics(equiv *q, side *s)
{
  for (size_t i = 0; s->diag && i < dl_diag_count(s->diag); i++) {
    const dl_message *m = dl_diag_message(s->diag, i);
    if (dl_guard_signal() && !m->src && strcmp(m->text, "interrupted") == 0) continue;
    if (m->src) dl_diag_report(q->c->diag, m->severity, m->src, m->off, "%s", m->text);
    else dl_diag_report(q->c->diag, m->severity, NULL, 0, "%s: %s", s->name ? s->name : s->file, m->text);
  }
  dl_diag_destroy(s->diag);
  s->diag = dl_diag_create();
}

/* The fluents of circuit state bits as terms, into *out. */
static int circuit_state_terms(side *s, const uint64_t *bits, dl_sm_list *out)
{
  out->n = 0;
  uint32_t n = dl_circuit_fluent_count(s->circuit);
  for (uint32_t f = 0; f < n; f++)
    if ((bits[f / 64] >> (f % 64) & 1) && !dl_sm_list_push(out, dl_circuit_fluent_term(s->circuit, f))) return 0;
  return 1;
}

/* Side s's initial state as its state; its init atoms into s->set. */
static int side_initial(side *s)
{
  atoms_clear(&s->set);
  if (is_circuit(s)) {
    dl_circuit_initial(s->circuit, s->bits);
    dl_circuit_set_state(s->circuit, s->bits);
    if (!circuit_state_terms(s, s->bits, &s->state)) return 0;
  } else {
    uint32_t n;
    const dl_tid *init = dl_sm_initial(s->sm, &n);
    s->state.n = 0;
    for (uint32_t k = 0; k < n; k++)
      if (!dl_sm_list_push(&s->state, init[k])) return 0;
  }
  for (uint32_t k = 0; k < s->state.n; k++) atoms_add(&s->set, s->terms, "init", s->state.ids[k], DL_NO_TERM);
  return 1;
}

/* Whether side s's state is terminal; 0 after the backend reported. */
static int side_terminal(side *s, int *terminal)
{
  if (is_circuit(s)) {
    *terminal = dl_circuit_terminal(s->circuit);
    return 1;
  }
  return dl_sm_terminal(s->sm, s->state.ids, s->state.n, terminal);
}

/* The legal moves of role r in side s's state, as terms into s->moves (for
 * the circuit in the order of its move list); 0 after the backend
 * reported, or out of memory. */
static int side_legal(side *s, uint32_t r)
{
  if (!is_circuit(s)) return dl_sm_legal(s->sm, s->state.ids, s->state.n, r, &s->moves);
  const uint32_t *moves;
  uint32_t n = dl_circuit_legal(s->circuit, r, &moves);
  s->moves.n = 0;
  for (uint32_t k = 0; k < n; k++)
    if (!dl_sm_list_push(&s->moves, dl_circuit_move_term(s->circuit, moves[k]))) return 0;
  return 1;
}

/* The circuit's rules twin: a state machine on the same program. */
static int circuit_twin(equiv *q, side *s)
{
  if (s->sm) return 1;
  dl_eval_options eo = { q->opt.max_atoms, dl_guard_stop() };
  s->sm = dl_sm_create_limited(s->loaded->prog, &eo, s->diag);
  return s->sm != NULL;
}

/* The goal values of role r in side s's state into s->values; 0 after the
 * backend reported. */
static int side_goal_values(equiv *q, side *s, uint32_t r)
{
  if (!is_circuit(s)) return dl_sm_goal_values(s->sm, s->state.ids, s->state.n, r, &s->values);
  int32_t v;
  s->values.n = 0;
  if (dl_circuit_goal(s->circuit, r, &v)) {
    /* the value's term: the store is the program's, which grounding extends */
    dl_terms *terms = s->loaded->prog->terms;
    char text[16];
    snprintf(text, sizeof text, "%d", (int)v);
    dl_sym sym = dl_terms_symbol(terms, text, strlen(text));
    dl_tid t = sym == DL_NO_SYM ? DL_NO_TERM : dl_terms_constant(terms, sym);
    return t != DL_NO_TERM && dl_sm_list_push(&s->values, t);
  }
  if (v == 0) return 1;
  /* several: the rules on the same program, in the circuit's state */
  if (!circuit_twin(q, s) || !dl_sm_goal_values(s->sm, s->state.ids, s->state.n, r, &s->values)) return 0;
  s->goals_by_count++;
  if (s->values.n == (uint32_t)-v) return 1;
  dl_buf rb = { 0 };
  dl_output_term(&rb, s->terms, s->roles[r], DL_FMT_INFIX);
  dl_diag_report(s->diag, DL_ERROR, NULL, 0,
                 "the circuit gives role '%s' %d goal values, the rules on the same program %u",
                 rb.data ? rb.data : "?", (int)-v, s->values.n);
  dl_buf_free(&rb);
  return 0;
}

/* Checks ggp-base's goal contract for role r in side s's terminal state;
 * 0 after reporting. */
static int side_goal_contract(side *s, uint32_t r)
{
  if (!is_circuit(s)) {
    int value;
    return dl_sm_goal(s->sm, s->state.ids, s->state.n, r, &value);
  }
  int32_t v;
  if (dl_circuit_goal(s->circuit, r, &v) && v >= 0 && v <= 100) return 1;
  dl_buf rb = { 0 };
  dl_output_term(&rb, s->terms, s->roles[r], DL_FMT_INFIX);
  if (v > 100) dl_diag_report(s->diag, DL_ERROR, NULL, 0, "the goal value of role '%s' is %d, not a number in 0..100",
                              rb.data ? rb.data : "?", (int)v);
  else if (v == 0) dl_diag_report(s->diag, DL_ERROR, NULL, 0, "role '%s' has no goal value in this terminal state",
                                  rb.data ? rb.data : "?");
  else dl_diag_report(s->diag, DL_ERROR, NULL, 0, "role '%s' has %d goal values in this terminal state",
                      rb.data ? rb.data : "?", (int)-v);
  dl_buf_free(&rb);
  return 0;
}

/* The move of role r among side s's legal moves printed as text, into
 * s->joint[r] (and s->move_of[r] for a circuit); 0 when none is (the
 * caller compared the legal sets first). */
static int side_find_move(side *s, uint32_t r, const char *text)
{
  if (!side_legal(s, r)) return 0;
  const uint32_t *moves = NULL;
  if (is_circuit(s)) dl_circuit_legal(s->circuit, r, &moves);
  for (uint32_t k = 0; k < s->moves.n; k++) {
    dl_buf b = { 0 };
    dl_output_term(&b, s->terms, s->moves.ids[k], DL_FMT_INFIX);
    int match = b.data && strcmp(b.data, text) == 0;
    dl_buf_free(&b);
    if (!match) continue;
    s->joint[r] = s->moves.ids[k];
    if (moves) s->move_of[r] = moves[k];
    return 1;
  }
  return 0;
}

/* The next state of side s's state for its joint move into s->next; 0
 * after the backend reported. */
static int side_next(side *s)
{
  if (!is_circuit(s)) return dl_sm_next(s->sm, s->state.ids, s->state.n, s->joint, &s->next);
  dl_circuit_next(s->circuit, s->move_of, s->next_bits);
  return circuit_state_terms(s, s->next_bits, &s->next);
}

/* Makes side s's next state its state. */
static void side_advance(side *s)
{
  dl_sm_list tmp = s->state;
  s->state = s->next;
  s->next = tmp;
  if (!is_circuit(s)) return;
  uint64_t *b = s->bits;
  s->bits = s->next_bits;
  s->next_bits = b;
  dl_circuit_set_state(s->circuit, s->bits);
}

/* ---- the run ------------------------------------------------------------------------ */

/* Prints where the playout is: the moves played and the state of side 0. */
static void print_place(const equiv *q)
{
  printf("moves:");
  for (size_t i = 0; i < q->history.n; i++) printf(" %s", q->history.v[i]);
  printf(q->history.n ? "\n" : " none (the initial state)\n");
  const side *s = &q->s[0];
  atoms a = { 0 };
  for (uint32_t i = 0; i < s->state.n; i++) atoms_add(&a, s->terms, "true", s->state.ids[i], DL_NO_TERM);
  atoms_sort(&a);
  printf("state (%u fluent%s):\n", s->state.n, s->state.n == 1 ? "" : "s");
  for (size_t i = 0; i < a.n; i++) printf("  %s\n", a.v[i]);
  atoms_free(&a);
}

/* Reports a difference between the set of side 0 and that of another side
 * (when there is one) and returns 0; else 1. */
static int same(equiv *q, const char *what)
{
  for (int i = 0; i < q->n_sides; i++) {
    if (q->s[i].set.failed) {
      fprintf(stderr, "gdlog equiv: out of memory\n");
      return 0;
    }
    atoms_sort(&q->s[i].set);
  }
  for (int i = 1; i < q->n_sides; i++) {
    int in;
    const char *atom = first_difference(&q->s[0].set, &q->s[i].set, &in);
    if (!atom) continue;
    const side *has = in ? &q->s[i] : &q->s[0], *lacks = in ? &q->s[0] : &q->s[i];
    printf("gdlog equiv: %s differs in playout %llu at depth %llu: %s holds in %s but not in %s\n", what,
           (unsigned long long)q->playout + 1, (unsigned long long)q->depth, atom, has->name, lacks->name);
    if (q->joint_text.len) printf("joint move: %s\n", q->joint_text.data);
    print_place(q);
    return 0;
  }
  return 1;
}

/* Reports that side i's backend failed (its diagnostics say why). */
static int failed(equiv *q, int i, const char *what)
{
  printf("gdlog equiv: %s: asking for %s failed in playout %llu at depth %llu (the error follows)\n", q->s[i].name,
         what, (unsigned long long)q->playout + 1, (unsigned long long)q->depth);
  if (q->joint_text.len) printf("joint move: %s\n", q->joint_text.data);
  print_place(q);
  return 0;
}

static int same_roles(equiv *q)
{
  for (int i = 0; i < q->n_sides; i++) {
    atoms_clear(&q->s[i].set);
    for (uint32_t r = 0; r < q->s[i].n_roles; r++) atoms_add(&q->s[i].set, q->s[i].terms, "role", q->s[i].roles[r], DL_NO_TERM);
  }
  const atoms *a = &q->s[0].set;
  for (int k = 1; k < q->n_sides; k++) {
    const atoms *b = &q->s[k].set;
    int equal = a->n == b->n;
    for (size_t i = 0; equal && i < a->n; i++) equal = strcmp(a->v[i], b->v[i]) == 0;
    if (equal) continue;
    printf("gdlog equiv: the roles differ:\n  %s:", q->s[0].name);
    for (size_t i = 0; i < a->n; i++) printf(" %s", a->v[i]);
    printf("\n  %s:", q->s[k].name);
    for (size_t i = 0; i < b->n; i++) printf(" %s", b->v[i]);
    printf("\n");
    return 0;
  }
  return 1;
}

/* Puts each side's initial state into its state, and compares them. */
static int same_initial(equiv *q)
{
  for (int i = 0; i < q->n_sides; i++) {
    double c0 = cpu_now();
    if (!side_initial(&q->s[i])) q->s[i].set.failed = 1;
    q->s[i].cpu += cpu_now() - c0;
  }
  return same(q, "the initial state");
}

static int same_terminal(equiv *q, int *terminal)
{
  int t[MAX_SIDES];
  for (int i = 0; i < q->n_sides; i++) {
    side *s = &q->s[i];
    double c0 = cpu_now();
    int ok = side_terminal(s, &t[i]);
    s->cpu += cpu_now() - c0;
    if (!ok) return failed(q, i, "terminal");
    atoms_clear(&s->set);
    if (t[i]) atoms_add(&s->set, s->terms, "terminal", DL_NO_TERM, DL_NO_TERM);
  }
  *terminal = t[0];
  return same(q, "terminal");
}

static int same_legal(equiv *q)
{
  for (int i = 0; i < q->n_sides; i++) {
    side *s = &q->s[i];
    atoms_clear(&s->set);
    for (uint32_t r = 0; r < s->n_roles; r++) {
      double c0 = cpu_now();
      int ok = side_legal(s, r);
      s->cpu += cpu_now() - c0;
      if (!ok) return failed(q, i, "the legal moves");
      for (uint32_t k = 0; k < s->moves.n; k++) atoms_add(&s->set, s->terms, "legal", s->roles[r], s->moves.ids[k]);
    }
  }
  return same(q, "legal");
}

static int same_goals(equiv *q, int terminal)
{
  for (int i = 0; i < q->n_sides; i++) {
    side *s = &q->s[i];
    atoms_clear(&s->set);
    for (uint32_t r = 0; r < s->n_roles; r++) {
      double c0 = cpu_now();
      int ok = side_goal_values(q, s, r);
      s->cpu += cpu_now() - c0;
      if (!ok) return failed(q, i, "the goal values");
      for (uint32_t k = 0; k < s->values.n; k++) atoms_add(&s->set, s->terms, "goal", s->roles[r], s->values.ids[k]);
    }
  }
  if (!same(q, "goal")) return 0;
  for (int i = 0; terminal && i < q->n_sides; i++)
    for (uint32_t r = 0; r < q->s[i].n_roles; r++)
      if (!side_goal_contract(&q->s[i], r)) return failed(q, i, "the goal values");
  return 1;
}

/* Chooses a random joint move among side 0's legal moves (each role's
 * moves in byte order of their printed form, so that the choice does not
 * depend on term ids), into every side's joint move and q->joint_text. */
static int choose_joint(equiv *q)
{
  side *a = &q->s[0];
  dl_buf_free(&q->joint_text);
  dl_buf_addz(&q->joint_text, "[");
  for (uint32_t r = 0; r < a->n_roles; r++) {
    if (!side_legal(a, r)) return failed(q, 0, "the legal moves");
    atoms_clear(&a->set);
    for (uint32_t k = 0; k < a->moves.n; k++) atoms_add(&a->set, a->terms, NULL, a->moves.ids[k], DL_NO_TERM);
    if (a->set.failed || a->set.n == 0) return failed(q, 0, "the legal moves");
    atoms_sort(&a->set);
    const char *text = a->set.v[rng_below(&q->rng, (uint32_t)a->set.n)];
    if (r) dl_buf_addz(&q->joint_text, ", ");
    dl_buf_addz(&q->joint_text, text);
    for (int i = 0; i < q->n_sides; i++)
      if (!side_find_move(&q->s[i], r, text)) return failed(q, i, "the legal moves");
  }
  dl_buf_addz(&q->joint_text, "]");
  return !q->joint_text.failed;
}

static int same_next(equiv *q)
{
  for (int i = 0; i < q->n_sides; i++) {
    side *s = &q->s[i];
    double c0 = cpu_now();
    int ok = side_next(s);
    s->cpu += cpu_now() - c0;
    if (!ok) return failed(q, i, "the next state");
    atoms_clear(&s->set);
    for (uint32_t k = 0; k < s->next.n; k++) atoms_add(&s->set, s->terms, "next", s->next.ids[k], DL_NO_TERM);
  }
  return same(q, "next");
}

/* One playout from the initial state; 1 when all sides agreed all along. */
static int playout(equiv *q)
{
  atoms_clear(&q->history);
  q->depth = 0;
  dl_buf_free(&q->joint_text);
  if (!same_initial(q)) return 0;
  for (;;) {
    int terminal = 0;
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
    for (int i = 0; i < q->n_sides; i++) side_advance(&q->s[i]);
    q->depth++;
  }
}

/* ---- loading ------------------------------------------------------------------------- */

/* Whether program p has no rule with a variable. */
static int is_ground(const dl_program *p)
{
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    if (p->ast->rules[r].n_vars) return 0;
  return 1;
}

/* Grounds side s's program and compiles its circuit: a ground program rule
 * for rule (nothing pruned, split, factored or simplified; instances that
 * the G+ reduction shows can never fire are left out), any other as gdlog
 * play grounds it. */
static int build_circuit(equiv *q, side *s)
{
  double t0 = cli_now();
  const dl_program *p = s->loaded->prog;
  int ground = is_ground(p);
  s->domains = dl_domains_build(p, s->diag);
  /* the least fixpoint: the domains reduction of a ground game can take the
   * products of its argument domains (checkers: more than 3 GB) */
  dl_reduce_options ro = { DL_REDUCE_LFP, q->opt.max_atoms, dl_guard_stop(), 0 };
  dl_guard_soft(1);  /* reducing and grounding poll the cancel flag */
  dl_reduction *red = s->domains ? dl_reduce(p, s->domains, &ro, s->diag) : NULL;
  dl_ground_options go = { .demand = !ground, .max_instances = DL_DEFAULT_MAX_INSTANCES, .stop = dl_guard_stop() };
  if (ground) go.no_prune = go.no_factor = go.no_split = go.no_simplify = 1;
  s->ground = red ? dl_ground_build(p, red, &go, s->diag) : NULL;
  dl_guard_soft(0);
  dl_reduction_destroy(red);
  s->circuit = s->ground && !dl_guard_signal() ? dl_circuit_create_mode(s->ground, q->opt.circuit, s->diag) : NULL;
  s->build_seconds = cli_now() - t0;
  if (!s->circuit) return 0;
  s->terms = dl_circuit_terms(s->circuit);
  s->words = dl_circuit_state_words(s->circuit);
  s->n_roles = dl_circuit_role_count(s->circuit);
  s->bits = calloc(s->words + 1, sizeof *s->bits);
  s->next_bits = calloc(s->words + 1, sizeof *s->next_bits);
  s->role_ids = calloc(s->n_roles + 1, sizeof *s->role_ids);
  s->move_of = calloc(s->n_roles + 1, sizeof *s->move_of);
  if (!s->bits || !s->next_bits || !s->role_ids || !s->move_of) return 0;
  for (uint32_t r = 0; r < s->n_roles; r++) s->role_ids[r] = dl_circuit_role_term(s->circuit, r);
  s->roles = s->role_ids;
  return 1;
}

/* The syntax of file i (0: GAME, 1: OTHER) for cli_load_as: --syntax given
 * twice is GAME's then OTHER's, given once both's; -1 (each file's own)
 * when not given. */
static int file_syntax(const cli_ctx *c, int i)
{
  return cli_choice_at(c, "--syntax", cli_value_at(c, "--syntax", 1) ? i : 0, -1);
}

/* Sets up side i on file (loaded already when l is not NULL), played by
 * the circuit or the rules. */
static int load_side(equiv *q, int i, const char *file, dl_loaded *l, int circuit)
{
  side *s = &q->s[i];
  q->n_sides = i + 1;
  s->file = file;
  s->diag = dl_diag_create();
  s->loaded = l ? l : s->diag ? cli_load_as(q->c, file, file_syntax(q->c, 0)) : NULL;
  size_t len = strlen(file) + sizeof " (circuit)";
  s->name = malloc(len);
  if (!s->loaded || !s->name) return 0;
  snprintf(s->name, len, circuit ? "%s (circuit)" : "%s", file);
  if (circuit) {
    if (!build_circuit(q, s)) return 0;
  } else {
    dl_eval_options eo = { q->opt.max_atoms, dl_guard_stop() };
    dl_guard_soft(1);  /* the evaluator polls the cancel flag */
    s->sm = dl_sm_create_limited(s->loaded->prog, &eo, s->diag);
    dl_guard_soft(0);
    if (!s->sm) return 0;
    s->terms = dl_sm_terms(s->sm);
    s->roles = dl_sm_roles(s->sm, &s->n_roles);
  }
  s->joint = calloc(s->n_roles + 1, sizeof *s->joint);
  return s->joint != NULL;
}

/* Sets up the sides: GAME on the rules, then OTHER on the backends asked. */
static int load_sides(equiv *q)
{
  if (!load_side(q, 0, q->c->args[0], NULL, 0)) return 0;
  const char *other = q->c->args[1];
  dl_loaded *l = cli_load_as(q->c, other, file_syntax(q->c, 1));
  if (!l) return 0;
  int b = q->opt.backend;
  if (b == BACKEND_AUTO) b = is_ground(l->prog) ? BACKEND_CIRCUIT : BACKEND_RULES;
  if (b == BACKEND_ALL) return load_side(q, 1, other, l, 0) && load_side(q, 2, other, l, 1);
  return load_side(q, 1, other, l, b == BACKEND_CIRCUIT);
}

static void free_side(side *s)
{
  dl_sm_destroy(s->sm);
  dl_circuit_destroy(s->circuit);
  dl_ground_destroy(s->ground);
  dl_domains_destroy(s->domains);
  dl_diag_destroy(s->diag);
  dl_sm_list_free(&s->state);
  dl_sm_list_free(&s->next);
  dl_sm_list_free(&s->moves);
  dl_sm_list_free(&s->values);
  atoms_free(&s->set);
  free(s->bits);
  free(s->next_bits);
  free(s->role_ids);
  free(s->move_of);
  free(s->joint);
  free(s->name);
}

/* The summary line of a run in which all sides agreed. */
static void print_summary(const equiv *q, double t)
{
  printf("equiv: ");
  for (int i = 0; i < q->n_sides; i++)
    printf("%s%s", i == 0 ? "" : i + 1 == q->n_sides ? " and " : ", ", q->s[i].name);
  printf(" agree: %llu playouts, %llu states compared", (unsigned long long)q->opt.playouts,
         (unsigned long long)q->states);
  if (q->cut) printf(", %llu cut at depth %llu", (unsigned long long)q->cut, (unsigned long long)q->opt.max_depth);
  for (int i = 0; i < q->n_sides; i++)
    if (q->s[i].goals_by_count)
      printf("; %llu time%s the circuit gave a role several goal values: compared by their number, the values "
             "taken from the rules on %s", (unsigned long long)q->s[i].goals_by_count,
             q->s[i].goals_by_count == 1 ? "" : "s", q->s[i].file);
  double n = q->states ? (double)q->states : 1;
  printf(" (time %.3f s; processor time per state:", t);
  for (int i = 0; i < q->n_sides; i++) {
    const side *s = &q->s[i];
    printf("%s %.3f ms %s", i ? "," : "", 1e3 * s->cpu / n, is_circuit(s) ? "circuit" : "rules");
    if (is_circuit(s)) printf(" (built in %.3f s)", s->build_seconds);
  }
  printf(")\n");
}

/* Loads the programs and runs the playouts; 1 when they agree. */
static int play_all(equiv *q)
{
  double t0 = cli_now();
  q->rng.s = q->opt.seed;
  /* signals: soft (a cancel flag) only in the phases that poll it; in
   * parsing and compiling they end the run at once */
  int ok = load_sides(q) && same_roles(q);
  dl_guard_soft(1);
  for (q->playout = 0; ok && q->playout < q->opt.playouts; q->playout++) ok = playout(q);
  dl_guard_soft(0);
  fflush(stdout);
  for (int i = 0; i < q->n_sides; i++) forward_diagnostics(q, &q->s[i]);
  if (!ok || dl_guard_signal()) return 0;
  print_summary(q, cli_now() - t0);
  return fflush(stdout) == 0;
}

static int run_equiv(cli_ctx *c)
{
  equiv q;
  memset(&q, 0, sizeof q);
  q.c = c;
  q.opt.max_atoms = c->max_atoms;
  q.opt.backend = cli_choice(c, "--backend", BACKEND_AUTO);
  q.opt.circuit = (dl_circuit_mode)cli_choice(c, "--circuit", DL_CIRCUIT_AUTO);
  if (!cli_count_range(c, "--playouts", 10, 1, UINT64_MAX, &q.opt.playouts) ||
      !cli_count(c, "--seed", 1, &q.opt.seed) || !cli_count(c, "--max-depth", 10000, &q.opt.max_depth))
    return CLI_USAGE;
  if (cli_value_at(c, "--syntax", 2)) return cli_usage(c, "--syntax given more than twice (once per file at most)");
  if (strcmp(c->args[0], "-") == 0 && strcmp(c->args[1], "-") == 0)
    return cli_usage(c, "only one of the two files may be standard input");
  int ok = play_all(&q);
  for (int i = 0; i < MAX_SIDES; i++) free_side(&q.s[i]);
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
           "joint move chosen.  Terms are compared as printed.  GAME is played by its\n"
           "rules; OTHER by its rules or by the circuit of its grounding (--backend; a\n"
           "ground OTHER is compiled rule for rule).  A role without a legal move in a\n"
           "non-terminal state, or without exactly one goal value in 0..100 in a\n"
           "terminal state, is an error (ggp-base's StateMachine contract).  Prints one\n"
           "summary line and exits 0 when they agree; at the first difference prints the\n"
           "playout, the depth, the moves played, the state and the first atom that\n"
           "differs, and exits 1.",
  .options = equiv_option_table,
  .run = run_equiv,
};
