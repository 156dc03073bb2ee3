/* cmd_equiv.c: gdlog equiv GAME OTHER: random playouts driven by GAME's
 * state machine (datalog/machine/machine.h) on its rules; at every state the
 * programs must give the same roles, initial state, terminal flag, legal
 * moves per role, goal values and next state for the chosen joint move.
 * Terms are compared as printed text: the programs have term stores of
 * their own.  The first difference is printed with the playout, the depth,
 * the moves that led there and the state, and the exit status is 1.
 *
 * OTHER is played by the backend --backend names, built by the pipeline
 * (datalog/machine/pipeline.h): auto (the default) chooses as every command
 * does; all plays OTHER on the rules and on the circuit, so that the rules
 * on GAME, the rules on OTHER and the circuit on OTHER are compared at
 * every state.  A ground OTHER is compiled rule for rule (nothing pruned,
 * split, factored or simplified).  Each machine plays its own states, so an
 * error of one is not hidden by another.
 *
 * Goal values are compared at every state, terminal or not (a correct
 * grounding keeps them all): a role's value when it has one, else the
 * number of values it has; ggp-base's contract (one goal value per role, a
 * number in 0..100) is checked at terminal states, and a role without a
 * legal move in a non-terminal state is an error of the program that has
 * it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/clock.h"
#include "datalog/base/diag.h"
#include "datalog/base/rng.h"
#include "datalog/base/sort.h"
#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"
#include "datalog/cli/structural.h"

/* --backend: the pipeline's, and both of them. */
enum { BACKEND_ALL = DL_BACKEND_CIRCUIT + 1 };

static const cli_option equiv_option_table[] = {
  { .name = "--playouts", .value = "N", .help = "number of random playouts (default 10)" },
  { .name = "--seed", .value = "S", .help = "seed of the random moves (default 1): the same seed plays\nthe same playouts" },
  { .name = "--max-depth", .value = "D", .help = "end a playout after D joint moves (default 10000)" },
  { .name = "--goal-default", .value = "V",
    .help = "a role with no goal value in a terminal state, on every\n"
            "side alike, scores V (0..100) instead of being an error, as\n"
            "in gdlog play (chess.kif has no goal at its move limit);\n"
            "several values stay an error" },
  { .name = "--backend", .value = "B",
    .one_of = CLI_ONE_OF({ "auto", DL_BACKEND_AUTO }, { "rules", DL_BACKEND_RULES },
                         { "circuit", DL_BACKEND_CIRCUIT }, { "all", BACKEND_ALL }),
    .help = "how OTHER is played: rules (its rules evaluated), circuit\n"
            "(its grounding compiled), all (both: GAME's rules, OTHER's\n"
            "rules and OTHER's circuit compared), or auto (default: the\n"
            "circuit when OTHER grounds within a budget, else the rules)" },
  { .name = "--circuit", .value = "M",
    .one_of = CLI_ONE_OF({ "auto", DL_CIRCUIT_AUTO }, { "eager", DL_CIRCUIT_EAGER }, { "lazy", DL_CIRCUIT_LAZY }),
    .help = "how the circuit evaluates (gdlog play --help): auto\n"
            "(default), eager or lazy" },
  { .name = "--structural",
    .help = "first compare the rule graphs (chapter 14.7): the same game\n"
            "up to renaming of symbols and variables and the order of\n"
            "rules and literals?  If so, print the renaming and play\n"
            "GAME renamed beside OTHER; if not, say so (status 1)" },
  { .name = "--no-declarations",
    .needs = "--structural",
    .help = "leave base and input rules out of the comparison: they\n"
            "declare fluents and moves, and many versions of a game\n"
            "differ only there" },
  { .name = "--syntax", .value = "S", .repeatable = 1,
    .one_of = CLI_ONE_OF({ "kif", LX_KIF }, { "infix", LX_INFIX }, { "asp", LX_ASP }),
    .help = "input syntax, kif, infix or asp: given once, of both files;\n"
            "twice, of GAME then of OTHER (default: each file's, by its\n"
            "content, else its extension)" },
  CLI_OPT_END
};

typedef struct equiv_options {
  uint64_t playouts, seed, max_depth;
  int32_t goal_default;  /* -1: none */
} equiv_options;

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

/* ---- sides: a program played by a machine ---------------------------------------- */

enum { MAX_SIDES = 3 };

typedef struct side {
  const char *file;
  char *name;              /* in messages: the file, "FILE (circuit)" on the circuit */
  dl_diag *diag;           /* the machine's: forwarded to the command's */
  dl_game game;            /* the program (the command's) and its machine */
  dl_machine *m;
  dl_mstate *state, *next;
  dl_ids ids;              /* room for moves or fluents */
  uint32_t *joint;         /* per role: the move chosen */
  double cpu;              /* processor time in the machine's questions */
  atoms set;
} side;

typedef struct equiv {
  cli_ctx *c;
  equiv_options opt;
  side s[MAX_SIDES];
  int n_sides;
  dl_rng rng;
  uint64_t playout, depth, states, cut;
  uint64_t defaulted;      /* terminal states where a role scored --goal-default */
  atoms history;           /* the joint moves of this playout, printed */
  dl_buf joint_text;       /* the joint move being tried, printed */
  dl_loaded *renamed;      /* --structural: GAME renamed into OTHER's names */
  dl_buf renamed_text;     /*   its text, which messages point into */
  char *renamed_name;
} equiv;

/* Moves the messages of side s's machine to the command's diagnostics,
 * those without a place prefixed with its name. */
static void forward_diagnostics(equiv *q, side *s)
{
  if (!s->diag) return;
  for (size_t i = 0; i < dl_diag_count(s->diag); i++) {
    const dl_message *m = dl_diag_message(s->diag, i);
    if (dl_guard_signal() && !m->src && strcmp(m->text, "interrupted") == 0) continue;
    if (m->src) dl_diag_report(q->c->diag, m->severity, m->src, m->off, "%s", m->text);
    else dl_diag_report(q->c->diag, m->severity, NULL, 0, "%s: %s", s->name ? s->name : s->file, m->text);
  }
  dl_diag_clear(s->diag);
}

/* Adds the fluents of state st of side s to its set as pred(t); 0 when the
 * machine failed. */
static int add_fluents(side *s, const dl_mstate *st, const char *pred)
{
  if (s->m->ops->fluents(s->m, st, &s->ids) != DL_M_OK) return 0;
  for (uint32_t k = 0; k < s->ids.n; k++) atoms_add(&s->set, s->m->terms, pred, s->ids.ids[k], DL_NO_TERM);
  return 1;
}

/* Side s's initial state as its state; its init atoms into s->set. */
static int side_initial(side *s)
{
  atoms_clear(&s->set);
  free(s->state);
  s->state = NULL;
  return dl_machine_initial(s->m, &s->state) == DL_M_OK && add_fluents(s, s->state, "init");
}

/* The legal moves of role r in side s's state into s->ids; 0 after the
 * machine reported (a role without a legal move in a state that is not
 * terminal included). */
static int side_legal(side *s, uint32_t r)
{
  return dl_machine_legal(s->m, s->state, r, &s->ids) == DL_M_OK;
}

/* The goal atoms of role r in side s's state into s->set: goal(r,v) when it
 * has one value, goal(r,N values) when it has N != 1; 0 after the machine
 * reported. */
static int side_goals(side *s, uint32_t r)
{
  dl_goal_found g;
  if (dl_machine_goal_found(s->m, s->state, r, &g) != DL_M_OK) return 0;
  if (g.count == 0) return 1;
  dl_buf b = { 0 };
  dl_buf_addz(&b, "goal(");
  dl_machine_term_text(s->m, s->m->roles[r], DL_FMT_INFIX, &b);
  if (g.count == 1 && g.value >= 0) dl_buf_addf(&b, ",%d)", (int)g.value);
  else if (g.count == 1) dl_buf_addz(&b, ",a value that is not a number in 0..100)");
  else dl_buf_addf(&b, ",%u values of sum %lld)", g.count, (long long)g.sum);
  if (b.failed) dl_buf_free(&b);
  atoms_push(&s->set, b.data);
  return 1;
}

/* Checks ggp-base's goal contract for role r in side s's terminal state,
 * where no value is allowed when goal_default >= 0 (*defaulted set then);
 * 0 after reporting. */
static int side_goal_contract(side *s, uint32_t r, int32_t goal_default, int *defaulted)
{
  dl_goal_found g;
  if (goal_default >= 0) {
    if (dl_machine_goal_found(s->m, s->state, r, &g) != DL_M_OK) return 0;
    if (g.count == 0) return *defaulted = 1;
  }
  int value;
  return dl_machine_goal(s->m, s->state, r, &value) == DL_M_OK;
}

/* The move of role r among side s's legal moves printed as text, into
 * s->joint[r]; 0 when none is (the caller compared the legal sets first). */
static int side_find_move(side *s, uint32_t r, const char *text)
{
  if (!side_legal(s, r)) return 0;
  for (uint32_t k = 0; k < s->ids.n; k++) {
    dl_buf b = { 0 };
    dl_machine_term_text(s->m, s->m->ops->move_term(s->m, s->ids.ids[k]), DL_FMT_INFIX, &b);
    int match = b.data && strcmp(b.data, text) == 0;
    dl_buf_free(&b);
    if (!match) continue;
    s->joint[r] = s->ids.ids[k];
    return 1;
  }
  return 0;
}

/* The next state of side s's state for its joint move into s->next; 0
 * after the machine reported. */
static int side_next(side *s)
{
  free(s->next);
  s->next = NULL;
  return dl_machine_next_unchecked(s->m, s->state, s->joint, &s->next) == DL_M_OK;
}

/* Makes side s's next state its state. */
static void side_advance(side *s)
{
  free(s->state);
  s->state = s->next;
  s->next = NULL;
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
  dl_ids ids = { 0 };
  if (s->m->ops->fluents(s->m, s->state, &ids) != DL_M_OK) a.failed = 1;
  for (uint32_t i = 0; i < ids.n; i++) atoms_add(&a, s->m->terms, "true", ids.ids[i], DL_NO_TERM);
  atoms_sort(&a);
  printf("state (%u fluent%s):\n", ids.n, ids.n == 1 ? "" : "s");
  dl_ids_free(&ids);
  for (size_t i = 0; i < a.n; i++) printf("  %s\n", a.v[i]);
  atoms_free(&a);
}

/* Whether a side's set lost an atom for want of memory (then reported). */
static int sets_failed(equiv *q)
{
  for (int i = 0; i < q->n_sides; i++)
    if (q->s[i].set.failed) {
      dl_diag_fail(q->c->diag, DL_CAUSE_NOMEM, "out of memory");
      return 1;
    }
  return 0;
}

/* Reports a difference between the set of side 0 and that of another side
 * (when there is one) and returns 0; else 1. */
static int same(equiv *q, const char *what)
{
  if (sets_failed(q)) return 0;
  for (int i = 0; i < q->n_sides; i++) atoms_sort(&q->s[i].set);
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
    const dl_machine *m = q->s[i].m;
    for (uint32_t r = 0; r < m->n_roles; r++) atoms_add(&q->s[i].set, m->terms, "role", m->roles[r], DL_NO_TERM);
  }
  if (sets_failed(q)) return 0;
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
    double c0 = dl_clock_cpu();
    if (!side_initial(&q->s[i])) q->s[i].set.failed = 1;
    q->s[i].cpu += dl_clock_cpu() - c0;
  }
  return same(q, "the initial state");
}

static int same_terminal(equiv *q, int *terminal)
{
  int t[MAX_SIDES];
  for (int i = 0; i < q->n_sides; i++) {
    side *s = &q->s[i];
    double c0 = dl_clock_cpu();
    int ok = dl_machine_terminal(s->m, s->state, &t[i]) == DL_M_OK;
    s->cpu += dl_clock_cpu() - c0;
    if (!ok) return failed(q, i, "terminal");
    atoms_clear(&s->set);
    if (t[i]) atoms_add(&s->set, s->m->terms, "terminal", DL_NO_TERM, DL_NO_TERM);
  }
  *terminal = t[0];
  return same(q, "terminal");
}

static int same_legal(equiv *q)
{
  for (int i = 0; i < q->n_sides; i++) {
    side *s = &q->s[i];
    atoms_clear(&s->set);
    for (uint32_t r = 0; r < s->m->n_roles; r++) {
      double c0 = dl_clock_cpu();
      int ok = side_legal(s, r);
      s->cpu += dl_clock_cpu() - c0;
      if (!ok) return failed(q, i, "the legal moves");
      for (uint32_t k = 0; k < s->ids.n; k++)
        atoms_add(&s->set, s->m->terms, "legal", s->m->roles[r], s->m->ops->move_term(s->m, s->ids.ids[k]));
    }
  }
  return same(q, "legal");
}

static int same_goals(equiv *q, int terminal)
{
  for (int i = 0; i < q->n_sides; i++) {
    side *s = &q->s[i];
    atoms_clear(&s->set);
    for (uint32_t r = 0; r < s->m->n_roles; r++) {
      double c0 = dl_clock_cpu();
      int ok = side_goals(s, r);
      s->cpu += dl_clock_cpu() - c0;
      if (!ok) return failed(q, i, "the goal values");
    }
  }
  if (!same(q, "goal")) return 0;
  int defaulted = 0;
  for (int i = 0; terminal && i < q->n_sides; i++)
    for (uint32_t r = 0; r < q->s[i].m->n_roles; r++)
      if (!side_goal_contract(&q->s[i], r, q->opt.goal_default, &defaulted)) return failed(q, i, "the goal values");
  q->defaulted += defaulted;
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
  for (uint32_t r = 0; r < a->m->n_roles; r++) {
    if (!side_legal(a, r)) return failed(q, 0, "the legal moves");
    atoms_clear(&a->set);
    for (uint32_t k = 0; k < a->ids.n; k++)
      atoms_add(&a->set, a->m->terms, NULL, a->m->ops->move_term(a->m, a->ids.ids[k]), DL_NO_TERM);
    if (sets_failed(q)) return 0;
    if (a->set.n == 0) return failed(q, 0, "the legal moves");
    atoms_sort(&a->set);
    const char *text = a->set.v[dl_rng_below(&q->rng, (uint32_t)a->set.n)];
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
    double c0 = dl_clock_cpu();
    int ok = side_next(s);
    s->cpu += dl_clock_cpu() - c0;
    atoms_clear(&s->set);
    if (!ok || !add_fluents(s, s->next, "next")) return failed(q, i, "the next state");
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

/* The syntax of file i (0: GAME, 1: OTHER) for cli_load_as: --syntax given
 * twice is GAME's then OTHER's, given once both's; -1 (each file's own)
 * when not given. */
static int file_syntax(const cli_ctx *c, int i)
{
  return cli_choice_at(c, "--syntax", cli_value_at(c, "--syntax", 1) ? i : 0, -1);
}

/* Sets up side i: program l played by a machine on backend b. */
static int load_side(equiv *q, int i, const char *file, dl_loaded *l, dl_backend b)
{
  side *s = &q->s[i];
  q->n_sides = i + 1;
  s->file = file;
  s->diag = dl_diag_create();
  if (!s->diag) {
    dl_diag_fail(q->c->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  dl_game_options o;
  dl_game_options_init(&o);
  o.backend = b;
  o.circuit_mode = (dl_circuit_mode)cli_choice(q->c, "--circuit", DL_CIRCUIT_AUTO);
  o.as_written = is_ground(l->prog);
  o.max_atoms = q->c->max_atoms;
  o.stop = dl_guard_stop();
  dl_guard_soft(1);  /* the pipeline polls the stop */
  int ok = dl_game_build(&s->game, l, &o, DL_STAGE_MACHINE, s->diag);
  dl_guard_soft(0);
  s->m = s->game.machine;
  size_t len = strlen(file) + sizeof " (circuit)";
  if ((s->name = malloc(len)))  /* named before a failure too: its messages carry the name */
    snprintf(s->name, len, ok && i && s->game.backend == DL_BACKEND_CIRCUIT ? "%s (circuit)" : "%s", file);
  if (!ok) return 0;  /* forward_diagnostics prints why */
  if (s->name) s->joint = calloc(s->m->n_roles + 1, sizeof *s->joint);
  if (!s->joint) {
    dl_diag_fail(q->c->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  return 1;
}

/* --structural: compares the rule graphs of game and other; when they
 * are isomorphic, prints the renaming and makes q->renamed, GAME renamed.
 * 0 when they are not (said) or after reporting. */
static int rename_game(equiv *q, dl_loaded *game, dl_loaded *other)
{
  dl_buf map = { 0 };
  const char *a = q->c->args[0], *b = q->c->args[1];
  int same = cli_structural_compare(q->c, game->prog, other->prog, &map, &q->renamed_text);
  if (same == 1) printf("equiv: %s and %s are the same game up to renaming%s\n%s", a, b, map.len ? ":" : "",
                        map.len ? map.data : "");
  if (same == 0) printf("equiv: %s and %s are not the same game up to renaming:\n%s", a, b, map.data ? map.data : "");
  dl_buf_free(&map);
  size_t len = strlen(a) + sizeof " (renamed)";
  if (same == 1 && (q->renamed_name = malloc(len))) snprintf(q->renamed_name, len, "%s (renamed)", a);
  if (same != 1) return 0;
  if (!q->renamed_name) {
    dl_diag_fail(q->c->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  dl_load_options lo = { .file = q->renamed_name, .syntax = LX_KIF };
  q->renamed = dl_load_memory(&lo, q->renamed_text.data ? q->renamed_text.data : "", q->renamed_text.len, q->c->diag);
  return q->renamed && q->renamed->prog;
}

/* Sets up the sides: GAME on the rules (renamed with --structural), then
 * OTHER on the backends asked. */
static int load_sides(equiv *q)
{
  dl_loaded *game = cli_load_as(q->c, q->c->args[0], file_syntax(q->c, 0));
  const char *other = q->c->args[1];
  dl_loaded *l = game ? cli_load_as(q->c, other, file_syntax(q->c, 1)) : NULL;
  if (!l) return 0;
  int structural = cli_given(q->c, "--structural");
  if (structural && !rename_game(q, game, l)) return 0;
  if (!load_side(q, 0, structural ? q->renamed_name : q->c->args[0], structural ? q->renamed : game, DL_BACKEND_RULES))
    return 0;
  int b = cli_choice(q->c, "--backend", DL_BACKEND_AUTO);
  if (b == BACKEND_ALL)
    return load_side(q, 1, other, l, DL_BACKEND_RULES) && load_side(q, 2, other, l, DL_BACKEND_CIRCUIT);
  return load_side(q, 1, other, l, (dl_backend)b);
}

static void free_side(side *s)
{
  free(s->state);
  free(s->next);
  dl_game_free(&s->game);
  dl_diag_destroy(s->diag);
  dl_ids_free(&s->ids);
  atoms_free(&s->set);
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
  if (q->opt.goal_default >= 0)
    printf(", %llu terminal state%s without a goal value for a role (--goal-default %d)",
           (unsigned long long)q->defaulted, q->defaulted == 1 ? "" : "s", (int)q->opt.goal_default);
  double n = q->states ? (double)q->states : 1;
  printf(" (time %.3f s; processor time per state:", t);
  for (int i = 0; i < q->n_sides; i++) {
    const side *s = &q->s[i];
    printf("%s %.3f ms %s", i ? "," : "", 1e3 * s->cpu / n, dl_machine_backend(s->m));
    if (s->game.ground) printf(" (built in %.3f s)", s->game.ground_seconds + s->game.compile_seconds);
  }
  printf(")\n");
}

/* Loads the programs and runs the playouts; 1 when they agree. */
static int play_all(equiv *q)
{
  double t0 = dl_clock_now();
  dl_rng_seed(&q->rng, q->opt.seed);
  /* signals: soft (a cancel flag) only in the phases that poll it; in
   * parsing and compiling they end the run at once */
  int ok = load_sides(q) && same_roles(q);
  dl_guard_soft(1);
  for (q->playout = 0; ok && q->playout < q->opt.playouts; q->playout++) ok = playout(q);
  dl_guard_soft(0);
  fflush(stdout);
  for (int i = 0; i < q->n_sides; i++) forward_diagnostics(q, &q->s[i]);
  if (!ok || dl_guard_signal()) return 0;
  print_summary(q, dl_clock_now() - t0);
  return fflush(stdout) == 0;
}

static int run_equiv(cli_ctx *c)
{
  equiv q;
  memset(&q, 0, sizeof q);
  q.c = c;
  if (!cli_count_range(c, "--playouts", 10, 1, UINT64_MAX, &q.opt.playouts) ||
      !cli_count(c, "--seed", 1, &q.opt.seed) || !cli_count(c, "--max-depth", 10000, &q.opt.max_depth))
    return CLI_USAGE;
  if (!cli_goal_value(c, "--goal-default", &q.opt.goal_default)) return CLI_USAGE;
  if (cli_value_at(c, "--syntax", 2)) return cli_usage(c, "--syntax given more than twice (once per file at most)");
  if (strcmp(c->args[0], "-") == 0 && strcmp(c->args[1], "-") == 0)
    return cli_usage(c, "only one of the two files may be standard input");
  int ok = play_all(&q);
  for (int i = 0; i < MAX_SIDES; i++) free_side(&q.s[i]);
  atoms_free(&q.history);
  dl_buf_free(&q.joint_text);
  dl_load_destroy(q.renamed);
  dl_buf_free(&q.renamed_text);
  free(q.renamed_name);
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
           "rules; OTHER by the backend --backend names, auto by default (a ground\n"
           "OTHER is compiled rule for rule).  A role without a legal move in a\n"
           "non-terminal state, or without exactly one goal value in 0..100 in a\n"
           "terminal state (none is allowed with --goal-default), is an error\n"
           "(ggp-base's StateMachine contract).  Prints one summary line and exits 0\n"
           "when they agree; at the first difference prints the playout, the depth, the\n"
           "moves played, the state and the first atom that differs, and exits 1.",
  .options = equiv_option_table,
  .run = run_equiv,
};
