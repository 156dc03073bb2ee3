/* players.c: a game written for other players' propnet builders (see
 * players.h).  The plan marks, per rule of the game, whether it is left
 * out, written ground or written as it is; the writer follows it. */
#include "datalog/write/players.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/eval/eval.h"
#include "datalog/simplify/simplify.h"
#include "datalog/write/collapse.h"
#include "datalog/write/ground_write.h"
#include "datalog/write/unfold.h"

enum { LEFT_OUT, GROUND, AS_WRITTEN };          /* a rule of the game */
enum { NO_BODY, KEYWORD_RULES, KEYWORD_FACTS };  /* a static keyword predicate */

/* What the header says the plan decided. */
typedef struct figures {
  uint32_t rules_ground;       /* rules of the game written as their ground instances */
  uint32_t rules_as_written;   /* written as they are */
  uint32_t rules_left_out;     /* static, or needed by no keyword */
  uint32_t static_preds;       /* static predicates written as facts */
  uint32_t unfolded_preds;     /* recursive predicates unfolded (unfold.h) */
  uint32_t unfolded_rules;     /*   into this many rules */
  uint32_t collapsed_preds;    /* predicates that only renamed others (collapse.h) */
} figures;

/* About the bytes of a static fact per column (a short constant and a
 * space), to weigh a static relation's facts against its rules. */
enum { FACT_BYTES_PER_COLUMN = 4 };

struct dl_players_plan {
  const dl_program *game;
  const dl_ground *g;
  dl_players_options opt;
  uint8_t *how;            /* per rule of the game: LEFT_OUT, GROUND or AS_WRITTEN */
  uint8_t *static_facts;   /* per predicate: written as facts of the statics' model */
  uint8_t *keyword_rules;  /* per predicate: NO_BODY, or a static keyword one with a rule with a
                              body, written as its rules or as the facts grounding made */
  uint64_t *fact_bytes;    /* per such predicate: its facts from grounding */
  uint64_t *ground_bytes;  /* per rule of the game (and one more: the other facts of no rule) */
  uint64_t made_bytes;     /* base and input facts from G+ (the game has none): optional */
  int drop_made;           /* leave those out */
  uint64_t *rule_bytes;    /* per rule of the game, as written */
  uint64_t *pred_bytes;    /* per predicate: its rules as written */
  dl_eval *statics;        /* the statics' model, when a rule written as it is reads one */
  double budget;           /* bytes */
  uint8_t *as_written;     /* per rule of the game: how[r] == AS_WRITTEN */
  uint8_t *ground_reads;   /* per predicate: a rule written ground reads it */
  dl_unfold *unfold;       /* NULL: nothing unfolded */
  uint8_t *open;           /* per predicate: its rules and readers are all written as written */
  dl_collapse *written;    /* the rules written as written, unfolded and collapsed */
  figures fig;
};

/* A predicate whose atoms grounding computes from rules: dynamic, and
 * neither true nor does. */
static int grounded_pred(const dl_ground *g, uint32_t q)
{
  dl_atom_role role = dl_ground_pred_role(g, q);
  return dl_ground_pred_dynamic(g, q) && role != DL_ATOM_FLUENT && role != DL_ATOM_MOVE;
}

/* Per predicate, 1 when legal, next, goal or terminal read it, transitively
 * (they themselves included).  NULL when out of memory. */
static uint8_t *needed_preds(const dl_program *p, const dl_ground *g)
{
  uint8_t *need = calloc(p->n_preds + 1, 1);
  if (!need) return NULL;
  for (uint32_t q = 0; q < p->n_preds; q++) {
    dl_atom_role role = dl_ground_pred_role(g, q);
    need[q] = role == DL_ATOM_LEGAL || role == DL_ATOM_NEXT || role == DL_ATOM_GOAL || role == DL_ATOM_TERMINAL;
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t r = 0; r < p->ast->n_rules; r++) {
      if (!need[p->head_pred[r]]) continue;
      for (uint32_t k = 0; k < p->ast->rules[r].n_body; k++) {
        uint32_t q = p->lit_pred[r][k];
        if (q != DL_NO_PRED && !need[q]) need[q] = 1, changed = 1;
      }
    }
  }
  return need;
}

/* Writes every rule of the predicates the rules written as they are read
 * (grounded ones only) as they are too, until nothing changes.  0 when out
 * of memory. */
static int close_as_written(dl_players_plan *pl)
{
  const dl_program *p = pl->game;
  uint8_t *read = calloc(p->n_preds + 1, 1);
  if (!read) return 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t r = 0; r < p->ast->n_rules; r++)
      for (uint32_t k = 0; pl->how[r] == AS_WRITTEN && k < p->ast->rules[r].n_body; k++) {
        uint32_t q = p->lit_pred[r][k];
        if (q != DL_NO_PRED && grounded_pred(pl->g, q)) read[q] = 1;
      }
    for (uint32_t r = 0; r < p->ast->n_rules; r++)
      if (pl->how[r] == GROUND && read[p->head_pred[r]]) pl->how[r] = AS_WRITTEN, changed = 1;
  }
  free(read);
  return 1;
}

/* The output's bytes as planned: facts of no rule, ground rules' instances,
 * rules as written. */
static uint64_t planned_bytes(const dl_players_plan *pl)
{
  uint32_t n = pl->game->ast->n_rules;
  uint64_t sum = pl->ground_bytes[n] + (pl->drop_made ? 0 : pl->made_bytes);
  for (uint32_t q = 0; q < pl->game->n_preds; q++) sum += pl->keyword_rules[q] == KEYWORD_FACTS ? pl->fact_bytes[q] : 0;
  for (uint32_t r = 0; r < n; r++)
    sum += pl->how[r] == GROUND ? pl->ground_bytes[r] : pl->how[r] == AS_WRITTEN ? pl->rule_bytes[r] : 0;
  return sum;
}

/* What to write as written next: the ground rule r whose ground text
 * exceeds its text as written by the most (r), the static keyword
 * predicate q whose facts do (n_rules + q), or the base and input facts
 * made from G+, which the game can do without (n_rules + n_preds);
 * UINT32_MAX when none does. */
static uint32_t largest_ground_unit(const dl_players_plan *pl)
{
  uint32_t best = UINT32_MAX, n = pl->game->ast->n_rules;
  uint64_t gain = 0;
  if (!pl->drop_made && pl->made_bytes) best = n + pl->game->n_preds, gain = pl->made_bytes;
  for (uint32_t r = 0; r < n; r++)
    if (pl->how[r] == GROUND && pl->ground_bytes[r] > pl->rule_bytes[r] + gain)
      best = r, gain = pl->ground_bytes[r] - pl->rule_bytes[r];
  for (uint32_t q = 0; q < pl->game->n_preds; q++) {
    uint64_t rules = pl->pred_bytes[q];
    if (pl->keyword_rules[q] == KEYWORD_FACTS && pl->fact_bytes[q] > rules + gain)
      best = n + q, gain = pl->fact_bytes[q] - rules;
  }
  return best;
}

/* Writes unit u of largest_ground_unit as written. */
static void write_as_written(dl_players_plan *pl, uint32_t u)
{
  const dl_program *p = pl->game;
  if (u < p->ast->n_rules) {
    pl->how[u] = AS_WRITTEN;
    return;
  }
  if (u == p->ast->n_rules + p->n_preds) {
    pl->drop_made = 1;
    return;
  }
  pl->keyword_rules[u - p->ast->n_rules] = KEYWORD_RULES;
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    if (p->head_pred[r] == u - p->ast->n_rules) pl->how[r] = AS_WRITTEN;
}

/* A static predicate that is no keyword one (grounding writes those),
 * read by a rule written as it is and not decided yet; DL_NO_PRED when
 * there is none. */
static uint32_t undecided_static(const dl_players_plan *pl, const uint8_t *decided)
{
  const dl_program *p = pl->game;
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    for (uint32_t k = 0; pl->how[r] == AS_WRITTEN && k < p->ast->rules[r].n_body; k++) {
      uint32_t q = p->lit_pred[r][k];
      if (q != DL_NO_PRED && !decided[q] && !dl_ground_pred_dynamic(pl->g, q) &&
          dl_ground_pred_role(pl->g, q) == DL_ATOM_OTHER)
        return q;
    }
  return DL_NO_PRED;
}

/* The model of the static predicates: the game evaluated with no true or
 * does atoms.  NULL after reporting. */
static dl_eval *statics_model(const dl_players_plan *pl, dl_diag *diag)
{
  dl_eval_options eo = { pl->opt.max_atoms, pl->opt.stop };
  dl_eval *e = dl_eval_create(pl->game, &eo, diag);
  if (e && !dl_eval_run(e)) {
    dl_eval_destroy(e);
    return NULL;
  }
  return e;
}

/* The static predicates that rules written as they are read: each as the
 * facts of its model when they are about as short as its rules, times the
 * budget's growth, else as its rules (which may read more).  1, or 0 after
 * reporting. */
static int decide_statics(dl_players_plan *pl, dl_diag *diag)
{
  const dl_program *p = pl->game;
  uint8_t *decided = calloc(p->n_preds + 1, 1);
  int ok = decided != NULL;
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
  for (uint32_t q; ok && (q = undecided_static(pl, decided)) != DL_NO_PRED;) {
    if (!pl->statics && !(pl->statics = statics_model(pl, diag))) ok = 0;
    if (!ok) break;
    decided[q] = 1;
    uint64_t facts = ix_relation_size(dl_eval_relation(pl->statics, q)) * FACT_BYTES_PER_COLUMN * (p->preds[q].arity + 1);
    if ((double)facts <= pl->opt.max_growth * (double)pl->pred_bytes[q]) {
      pl->static_facts[q] = 1;
      continue;
    }
    for (uint32_t r = 0; r < p->ast->n_rules; r++)
      if (p->head_pred[r] == q) pl->how[r] = AS_WRITTEN;
  }
  free(decided);
  return ok;
}

static uint8_t *ground_rules_kept(const dl_players_plan *pl);

/* Sets mark[q] for the predicates q that the ground rules to be written
 * read, and define too when heads is set.  0 when out of memory. */
static int mark_ground_preds(const dl_players_plan *pl, uint8_t *mark, int heads)
{
  uint8_t *keep = ground_rules_kept(pl);
  if (!keep) return 0;
  const dl_terms *t = dl_ground_terms(pl->g);
  for (uint32_t i = 0; i < dl_ground_rule_count(pl->g); i++) {
    const int32_t *body;
    uint32_t n;
    int32_t head = dl_ground_rule(pl->g, i, &body, &n);
    for (int32_t k = heads ? -1 : 0; keep[i] && k < (int32_t)n; k++) {
      int32_t lit = k < 0 ? head : body[k];
      dl_tid a = dl_ground_atom_term(pl->g, (uint32_t)(lit < 0 ? -lit : lit));
      uint32_t q = dl_program_pred(pl->game, dl_terms_functor(t, a));
      if (q != DL_NO_PRED) mark[q] = 1;
    }
  }
  free(keep);
  return 1;
}

/* What of the plan decide_unfolding may change, to undo it. */
typedef struct plan_copy {
  uint8_t *how, *keyword_rules, *static_facts;
  int drop_made;
} plan_copy;

/* Copies what decide_unfolding may change; 0 when out of memory. */
static int copy_plan(const dl_players_plan *pl, plan_copy *c)
{
  const dl_program *p = pl->game;
  c->how = malloc(p->ast->n_rules + 1);
  c->keyword_rules = malloc(p->n_preds + 1);
  c->static_facts = malloc(p->n_preds + 1);
  if (!c->how || !c->keyword_rules || !c->static_facts) return 0;
  memcpy(c->how, pl->how, p->ast->n_rules);
  memcpy(c->keyword_rules, pl->keyword_rules, p->n_preds);
  memcpy(c->static_facts, pl->static_facts, p->n_preds);
  c->drop_made = pl->drop_made;
  return 1;
}

static void restore_plan(dl_players_plan *pl, const plan_copy *c)
{
  const dl_program *p = pl->game;
  memcpy(pl->how, c->how, p->ast->n_rules);
  memcpy(pl->keyword_rules, c->keyword_rules, p->n_preds);
  memcpy(pl->static_facts, c->static_facts, p->n_preds);
  pl->drop_made = c->drop_made;
}

static void free_plan_copy(plan_copy *c)
{
  free(c->how);
  free(c->keyword_rules);
  free(c->static_facts);
}

/* The room in the budget once every ground unit is written as written;
 * -1 when out of memory. */
static double largest_room(dl_players_plan *pl)
{
  plan_copy c;
  int ok = copy_plan(pl, &c);
  for (uint32_t u; ok && (u = largest_ground_unit(pl)) != UINT32_MAX;) {
    write_as_written(pl, u);
    ok = close_as_written(pl);
  }
  double room = ok ? pl->budget - (double)planned_bytes(pl) : -1;
  if (c.how && c.keyword_rules && c.static_facts) restore_plan(pl, &c);
  free_plan_copy(&c);
  return room;
}

/* Plans the unfolding (unfold.h) with the room the budget leaves. */
static int plan_unfolding(dl_players_plan *pl, dl_diag *diag)
{
  const dl_program *p = pl->game;
  memset(pl->ground_reads, 0, p->n_preds);
  if (!mark_ground_preds(pl, pl->ground_reads, 0)) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  for (uint32_t r = 0; r < p->ast->n_rules; r++) pl->as_written[r] = pl->how[r] == AS_WRITTEN;
  double room = pl->budget - (double)planned_bytes(pl);
  pl->unfold = dl_unfold_create(p, pl->g, pl->as_written, pl->ground_reads, pl->rule_bytes, room > 0 ? room : 0, diag);
  return pl->unfold != NULL;
}

/* Whether q is recursive in the rules written as written. */
static int recursive_as_written(const dl_players_plan *pl, uint32_t q)
{
  const dl_program *p = pl->game;
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    for (uint32_t k = 0; pl->how[r] == AS_WRITTEN && p->head_pred[r] == q && k < p->ast->rules[r].n_body; k++)
      if (p->lit_pred[r][k] == q) return 1;
  return 0;
}

/* Writes the rules that read a predicate recursive in the rules written as
 * written as written too, so that they can read its unfolded predicates.
 * 0 when out of memory. */
static int readers_as_written(dl_players_plan *pl)
{
  const dl_program *p = pl->game;
  for (uint32_t q = 0; q < p->n_preds; q++) {
    if (!recursive_as_written(pl, q)) continue;
    for (uint32_t r = 0; r < p->ast->n_rules; r++)
      for (uint32_t k = 0; pl->how[r] == GROUND && k < p->ast->rules[r].n_body; k++)
        if (p->lit_pred[r][k] == q) pl->how[r] = AS_WRITTEN;
  }
  return close_as_written(pl);
}

/* Makes room for one more unfolded predicate, wanted bytes of it, by
 * writing ground units as written, and plans the unfolding again.  1, or
 * 0 after reporting. */
static int make_room(dl_players_plan *pl, double wanted, dl_diag *diag)
{
  dl_unfold_destroy(pl->unfold);
  pl->unfold = NULL;
  int ok = 1;
  for (uint32_t u; ok && pl->budget - (double)planned_bytes(pl) < wanted && (u = largest_ground_unit(pl)) != UINT32_MAX;) {
    write_as_written(pl, u);
    ok = close_as_written(pl);
  }
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
  return ok && decide_statics(pl, diag) && plan_unfolding(pl, diag);
}

/* Unfolds the recursive predicates of the rules written as written
 * (unfold.h) as far as the budget allows: the rules that read them are
 * written as written too, and when one more would fit if ground units were
 * written as written, they are, that many (a builder pays far more for a
 * recursive predicate than for the rules it instantiates).  When nothing
 * is unfolded the plan stays as it was.  1, or 0 after reporting. */
static int decide_unfolding(dl_players_plan *pl, dl_diag *diag)
{
  plan_copy before;
  int ok = copy_plan(pl, &before) && readers_as_written(pl);
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
  ok = ok && decide_statics(pl, diag) && plan_unfolding(pl, diag);
  double wanted = ok ? dl_unfold_room_wanted(pl->unfold) : 0, room = 0;
  if (ok && dl_unfold_over_budget(pl->unfold) && (room = largest_room(pl)) >= wanted) ok = make_room(pl, wanted, diag);
  if (ok && room < 0) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
    ok = 0;
  }
  if (ok && dl_unfold_pred_count(pl->unfold) == 0) {
    dl_unfold_destroy(pl->unfold);
    pl->unfold = NULL;
    restore_plan(pl, &before);
  }
  free_plan_copy(&before);
  return ok;
}

static void count_figures(dl_players_plan *pl)
{
  const dl_program *p = pl->game;
  figures *f = &pl->fig;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    f->rules_ground += pl->how[r] == GROUND;
    f->rules_as_written += pl->how[r] == AS_WRITTEN;
    f->rules_left_out += pl->how[r] == LEFT_OUT;
  }
  for (uint32_t q = 0; q < p->n_preds; q++) f->static_preds += pl->static_facts[q];
  if (!pl->unfold) return;
  f->unfolded_preds = dl_unfold_pred_count(pl->unfold);
  for (uint32_t r = 0; r < p->ast->n_rules; r++) f->unfolded_rules += dl_unfold_replaces(pl->unfold, r);
}

/* Per predicate, whether all of its rules and readers are among the rules
 * written as written: grounded and no keyword, with every rule written as
 * written, and no ground rule or fact to be written defines or reads it.
 * Into pl->open; 0 when out of memory. */
static int find_open(dl_players_plan *pl)
{
  const dl_program *p = pl->game;
  uint8_t *ground = calloc(p->n_preds + 1, 1);
  if (!ground || !mark_ground_preds(pl, ground, 1)) {
    free(ground);
    return 0;
  }
  for (uint32_t q = 0; q < p->n_preds; q++)
    pl->open[q] = !ground[q] && grounded_pred(pl->g, q) && dl_ground_pred_role(pl->g, q) == DL_ATOM_OTHER;
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    if (pl->how[r] != AS_WRITTEN) pl->open[p->head_pred[r]] = 0;
  free(ground);
  return 1;
}

/* dl_collapse_open_fn over the plan: a predicate of the game when it is
 * open, and every unfolded one (its rules and readers are all unfolded
 * rules). */
static int collapsible(void *ctx, dl_sym pred)
{
  const dl_players_plan *pl = ctx;
  uint32_t q = dl_program_pred(pl->game, pred);
  return q == DL_NO_PRED || pl->open[q];
}

/* The bytes the budget leaves after the plan and the unfolding. */
static int64_t written_room(const dl_players_plan *pl)
{
  double room = pl->budget - (double)planned_bytes(pl);
  for (uint32_t r = 0; pl->unfold && r < pl->game->ast->n_rules; r++)
    if (dl_unfold_replaces(pl->unfold, r)) room += (double)pl->rule_bytes[r];
  room -= pl->unfold ? (double)dl_unfold_bytes(pl->unfold) : 0;
  return room > 0 ? (int64_t)room : 0;
}

/* The rules to be written as written, unfolded (unfold.h) and with the
 * predicates that only rename others collapsed (collapse.h), into
 * pl->written.  1, or 0 after reporting. */
static int plan_written(dl_players_plan *pl, dl_diag *diag)
{
  const dl_program *p = pl->game;
  uint32_t n_unfolded = 0, n = 0;
  const dl_rule *unfolded = pl->unfold ? dl_unfold_rules(pl->unfold, &n_unfolded) : NULL;
  dl_rule *rules = malloc(((size_t)p->ast->n_rules + n_unfolded + 1) * sizeof *rules);
  if (!rules || !find_open(pl)) {
    free(rules);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    if (pl->how[r] == AS_WRITTEN && !(pl->unfold && dl_unfold_replaces(pl->unfold, r))) rules[n++] = p->ast->rules[r];
  for (uint32_t i = 0; i < n_unfolded; i++) rules[n++] = unfolded[i];
  pl->written = dl_collapse_create(p, rules, n, written_room(pl), collapsible, pl, diag);
  free(rules);
  if (pl->written) pl->fig.collapsed_preds = dl_collapse_pred_count(pl->written);
  return pl->written != NULL;
}

/* Every rule of a grounded predicate that a keyword needs starts ground;
 * then, while over the budget, the rule with the largest ground text goes
 * as written, with the rules it reads.  0 when out of memory. */
static int decide_rules(dl_players_plan *pl)
{
  const dl_program *p = pl->game;
  uint8_t *need = needed_preds(p, pl->g);
  if (!need) return 0;
  uint64_t game_bytes = 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    uint32_t h = p->head_pred[r];
    pl->how[r] = need[h] && grounded_pred(pl->g, h) ? GROUND : LEFT_OUT;
    game_bytes += pl->rule_bytes[r];
  }
  free(need);
  if (pl->opt.game_bytes) game_bytes = pl->opt.game_bytes;
  pl->budget = pl->opt.max_growth * (double)game_bytes;
  int ok = 1;
  for (uint32_t u; ok && (double)planned_bytes(pl) > pl->budget && (u = largest_ground_unit(pl)) != UINT32_MAX;) {
    write_as_written(pl, u);
    ok = close_as_written(pl);
  }
  return ok;
}

/* The game's predicate of ground rule i's head, or DL_NO_PRED. */
static uint32_t head_pred_of(const dl_players_plan *pl, uint32_t i)
{
  const int32_t *body;
  uint32_t n;
  dl_tid t = dl_ground_atom_term(pl->g, (uint32_t)dl_ground_rule(pl->g, i, &body, &n));
  return dl_program_pred(pl->game, dl_terms_functor(dl_ground_terms(pl->g), t));
}

/* What a rule of the ground game is to the plan. */
enum { PART_OF_RULE, KEYWORD_FACT, MADE_FACT, OTHER_FACT };

/* Ground rule i: an instance of a rule of the game (PART_OF_RULE), a fact
 * of a static keyword predicate that may be written as its rules instead
 * (KEYWORD_FACT, that predicate in *q), a base or input fact made from G+
 * where the game has no such predicate (MADE_FACT), or another fact. */
static int ground_rule_part(const dl_players_plan *pl, uint32_t i, uint32_t *q)
{
  if (dl_ground_rule_origin(pl->g, i) < pl->game->ast->n_rules) return PART_OF_RULE;
  *q = head_pred_of(pl, i);
  return *q == DL_NO_PRED ? MADE_FACT : pl->keyword_rules[*q] ? KEYWORD_FACT : OTHER_FACT;
}

/* Static keyword predicates with a rule that has a body (role, init, base,
 * input, ...): their facts may be written as those rules instead. */
static void find_keyword_rules(dl_players_plan *pl)
{
  const dl_program *p = pl->game;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    uint32_t h = p->head_pred[r];
    if (p->ast->rules[r].n_body && !dl_ground_pred_dynamic(pl->g, h) && dl_ground_pred_role(pl->g, h) != DL_ATOM_OTHER)
      pl->keyword_rules[h] = KEYWORD_FACTS;
  }
}

/* The bytes of the ground game's text per rule of the game, per static
 * keyword predicate with rules, and of the rest.  0 when out of memory. */
static int measure(dl_players_plan *pl)
{
  const dl_program *p = pl->game;
  uint32_t n = dl_ground_rule_count(pl->g);
  uint32_t *bytes = malloc(((size_t)n + 1) * sizeof *bytes);
  int ok = bytes && dl_ground_rule_bytes(pl->g, bytes) && dl_output_rule_sizes(p, DL_FMT_KIF, pl->rule_bytes);
  find_keyword_rules(pl);
  for (uint32_t r = 0; ok && r < p->ast->n_rules; r++) pl->pred_bytes[p->head_pred[r]] += pl->rule_bytes[r];
  for (uint32_t i = 0; ok && i < n; i++) {
    uint32_t q, part = (uint32_t)ground_rule_part(pl, i, &q);
    if (part == KEYWORD_FACT) pl->fact_bytes[q] += bytes[i];
    else if (part == MADE_FACT) pl->made_bytes += bytes[i];
    else pl->ground_bytes[part == PART_OF_RULE ? dl_ground_rule_origin(pl->g, i) : p->ast->n_rules] += bytes[i];
  }
  free(bytes);
  return ok;
}

dl_players_plan *dl_players_plan_create(const dl_program *game, const dl_ground *g, const dl_players_options *opt,
                                        dl_diag *diag)
{
  assert(game && g && opt && opt->max_growth > 0);
  uint32_t n = game->ast->n_rules;
  dl_players_plan *pl = calloc(1, sizeof *pl);
  if (pl) {
    pl->game = game, pl->g = g, pl->opt = *opt;
    pl->how = calloc(n + 1, 1);
    pl->static_facts = calloc(game->n_preds + 1, 1);
    pl->keyword_rules = calloc(game->n_preds + 1, 1);
    pl->fact_bytes = calloc(game->n_preds + 1, sizeof *pl->fact_bytes);
    pl->pred_bytes = calloc(game->n_preds + 1, sizeof *pl->pred_bytes);
    pl->ground_bytes = calloc(n + 1, sizeof *pl->ground_bytes);
    pl->rule_bytes = calloc(n + 1, sizeof *pl->rule_bytes);
    pl->as_written = calloc(n + 1, 1);
    pl->ground_reads = calloc(game->n_preds + 1, 1);
    pl->open = calloc(game->n_preds + 1, 1);
  }
  int ok = pl && pl->how && pl->static_facts && pl->keyword_rules && pl->fact_bytes && pl->pred_bytes && pl->ground_bytes &&
           pl->rule_bytes && pl->as_written && pl->ground_reads && pl->open && measure(pl) && decide_rules(pl);
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in planning the game for players");
  if (ok && decide_statics(pl, diag) && decide_unfolding(pl, diag) && plan_written(pl, diag)) {
    count_figures(pl);
    return pl;
  }
  dl_players_plan_destroy(pl);
  return NULL;
}

void dl_players_plan_destroy(dl_players_plan *pl)
{
  if (!pl) return;
  free(pl->how);
  free(pl->static_facts);
  free(pl->keyword_rules);
  free(pl->fact_bytes);
  free(pl->pred_bytes);
  free(pl->ground_bytes);
  free(pl->rule_bytes);
  free(pl->as_written);
  free(pl->ground_reads);
  free(pl->open);
  dl_collapse_destroy(pl->written);
  dl_unfold_destroy(pl->unfold);
  dl_eval_destroy(pl->statics);
  free(pl);
}

/* 1 when every rule is written ground. */
static int all_ground(const dl_players_plan *pl) { return pl->fig.rules_as_written == 0 && !pl->drop_made; }

/* The comment lines that say what the output is and what was done.  0
 * when a write failed. */
static int write_header(const dl_sink *out, const dl_players_plan *pl, const char *source)
{
  const figures *f = &pl->fig;
  char z[1024];
  int n = snprintf(z, sizeof z,
                   "; The game of %s for propnet builders (gdlog ground --for-players).\n"
                   "; Rules of the game: %" PRIu32 " written as their ground instances over G+, %" PRIu32
                   " as written;\n"
                   "; %" PRIu32 " left out: static ones (evaluated; %" PRIu32
                   " static relations written as facts) and those\n"
                   "; that legal, next, goal and terminal do not need.\n%s",
                   source, f->rules_ground, f->rules_as_written, f->rules_left_out, f->static_preds,
                   pl->drop_made ? "; The game has no base or input: those of G+ would make the text too large.\n"
                                          : "");
  if (n > 0 && (size_t)n < sizeof z && f->unfolded_preds)
    n += snprintf(z + n, sizeof z - (size_t)n,
                  "; %" PRIu32 " recursive predicates unfolded along the arguments their recursion changes\n"
                  "; (one predicate per value; %" PRIu32 " of the rules as written replaced by their unfolded instances).\n",
                  f->unfolded_preds, f->unfolded_rules);
  if (n > 0 && (size_t)n < sizeof z && f->collapsed_preds)
    n += snprintf(z + n, sizeof z - (size_t)n,
                  "; %" PRIu32 " predicates that only renamed others collapsed into the rules that read them.\n",
                  f->collapsed_preds);
  if (n < 0 || (size_t)n >= sizeof z) n = snprintf(z, sizeof z, "; gdlog ground --for-players\n");
  return out->write(out->ctx, z, (size_t)n);
}

/* The static facts the rules written as they are read.  1, or 0 after
 * reporting. */
static int write_static_facts(const dl_sink *out, const dl_players_plan *pl, dl_diag *diag)
{
  const dl_program *p = pl->game;
  if (pl->fig.static_preds == 0) return 1;
  uint8_t *skip = malloc(p->n_preds + 1);
  int ok = skip != NULL;
  for (uint32_t q = 0; ok && q < p->n_preds; q++) skip[q] = !pl->static_facts[q];
  ok = ok && dl_output_model_to(out, p, pl->statics, DL_FMT_KIF, skip);
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory, or a failed write, in writing static facts");
  free(skip);
  return ok;
}

/* Per ground rule of g: written (facts of no rule, and the instances of
 * the rules written ground).  NULL when out of memory. */
static uint8_t *ground_rules_kept(const dl_players_plan *pl)
{
  uint32_t n = dl_ground_rule_count(pl->g);
  uint8_t *keep = malloc((size_t)n + 1);
  for (uint32_t i = 0; keep && i < n; i++) {
    uint32_t q;
    switch (ground_rule_part(pl, i, &q)) {
    case PART_OF_RULE: keep[i] = pl->how[dl_ground_rule_origin(pl->g, i)] == GROUND; break;
    case KEYWORD_FACT: keep[i] = pl->keyword_rules[q] == KEYWORD_FACTS; break;
    case MADE_FACT: keep[i] = !pl->drop_made; break;
    default: keep[i] = 1;
    }
  }
  return keep;
}

/* The game as planned, after the header.  0 after reporting. */
static int write_planned(const dl_sink *out, dl_players_plan *pl, dl_diag *diag)
{
  uint8_t *keep = ground_rules_kept(pl);
  int ok = keep != NULL;
  if (!ok) dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
  if (ok && !(ok = dl_ground_write_rules(out, pl->g, DL_GROUND_KIF, keep)))
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory, or a failed write, in writing ground rules");
  ok = ok && write_static_facts(out, pl, diag);
  uint32_t n;
  const dl_rule *rules = dl_collapse_rules(pl->written, &n);
  if (ok && !(ok = dl_output_rule_list_to(out, pl->game, DL_FMT_KIF, rules, n)))
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory, or a failed write, in writing rules");
  free(keep);
  return ok;
}

int dl_players_write_all(const dl_sink *out, dl_players_plan *pl, dl_ground *g, const dl_ground_options *simplify,
                         const char *source, dl_diag *diag)
{
  assert(out && pl && g == pl->g && simplify && source);
  if (!write_header(out, pl, source)) return 0;
  if (!all_ground(pl)) return write_planned(out, pl, diag);
  return dl_simplify_ground(g, simplify, diag) && dl_ground_write(out, g, DL_GROUND_KIF);
}
