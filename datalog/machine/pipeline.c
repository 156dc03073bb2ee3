/* pipeline.c: load -> check -> domains -> reduce -> ground -> simplify ->
 * compile -> machine, and the choice of the backend (see pipeline.h). */
#include "datalog/machine/pipeline.h"

#include <assert.h>
#include <string.h>

#include "datalog/base/clock.h"
#include "datalog/compile/compile.h"
#include "datalog/machine/sm.h"
#include "datalog/simplify/simplify.h"
#include "lexer.h"

void dl_game_options_init(dl_game_options *o)
{
  assert(o);
  memset(o, 0, sizeof *o);
  o->max_atoms = DL_DEFAULT_MAX_ATOMS;
  o->max_instances = DL_DEFAULT_MAX_INSTANCES;
  o->auto_max_instances = DL_AUTO_MAX_INSTANCES;
  o->auto_max_atoms = DL_AUTO_MAX_ATOMS;
  o->auto_seconds = DL_AUTO_SECONDS;
}

int dl_game_load(dl_game *g, const dl_load_options *lo, const char *text, size_t len, dl_diag *diag)
{
  assert(g && lo && diag && !g->loaded);
  double t0 = dl_clock_now();
  g->loaded = text ? dl_load_memory(lo, text, len, diag) : dl_load(lo, diag);
  g->owns_loaded = 1;
  g->load_seconds = dl_clock_now() - t0;
  if (!g->loaded) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  g->kif = g->loaded->syntax == LX_KIF;
  return g->loaded->prog != NULL;
}

static void say(const dl_game_options *o, const char *stage)
{
  if (o->progress) o->progress(o->progress_ctx, stage, NULL);
}

/* Passes the grounder's progress on. */
static void ground_progress(void *ctx, const dl_ground_progress *p)
{
  const dl_game_options *o = ctx;
  o->progress(o->progress_ctx, "ground", p);
}

/* Reports that the program of g is no game; returns 0. */
static int no_role(const dl_game *g, dl_diag *diag)
{
  const dl_source *src = g->loaded->n_sources ? g->loaded->sources[0] : NULL;
  dl_diag_report(diag, DL_ERROR, NULL, 0, "%s has no role: a GDL game has role facts (gdlog model computes the "
                 "model of any program)", src ? src->name : "the program");
  return 0;
}

/* Whether program p has the predicate role/1 (else it is no game). */
static int has_role_predicate(const dl_program *p)
{
  for (uint32_t q = 0; q < p->n_preds; q++)
    if (p->preds[q].arity == 1 && strcmp(dl_program_pred_name(p, q), "role") == 0) return 1;
  return 0;
}

/* Reports the first fact of true or does in g's program (a state or moves
 * that `gdlog print` wrote into it, which `gdlog model` reads): a game's
 * states and joint moves give those, and the backends would read such a
 * fact differently.  0 after reporting, 1 when there is none. */
static int no_state_facts(const dl_game *g, dl_diag *diag)
{
  const dl_program *p = g->loaded->prog;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    const dl_rule *rule = &p->ast->rules[r];
    const char *name = dl_program_pred_name(p, p->head_pred[r]);
    if (!rule->trusted || (strcmp(name, "true") != 0 && strcmp(name, "does") != 0)) continue;
    dl_diag_report(diag, DL_ERROR, rule->src, rule->head->off,
                   "'%s' is given as a fact: in a game the current state gives true and the joint move gives does "
                   "(gdlog model reads such facts, as it reads --state and --does)", name);
    return 0;
  }
  return 1;
}

/* Whether the ground game has a role atom. */
static int has_role_atom(const dl_ground *gr)
{
  for (uint32_t a = 1; a <= dl_ground_atom_count(gr); a++)
    if (dl_ground_atom_role(gr, a) == DL_ATOM_ROLE) return 1;
  return 0;
}

/* Domains, G+ and (to GROUND) the ground game of g's program, within
 * max_atoms atoms of G+ and max_instances instances; 1, or 0 after
 * reporting. */
static int ground_game(dl_game *g, const dl_game_options *o, const dl_stop *stop, uint64_t max_atoms,
                       uint64_t max_instances, dl_stage to, dl_diag *diag)
{
  const dl_program *p = g->loaded->prog;
  double t0 = dl_clock_now();
  say(o, "domains");
  if (!g->domains && !(g->domains = dl_domains_build(p, diag))) return 0;
  double t1 = dl_clock_now();
  g->domains_seconds = t1 - t0;
  if (to == DL_STAGE_DOMAINS) return 1;
  say(o, "reduce (G+)");
  dl_reduce_options ro = { .mode = (dl_reduce_mode)o->reduce_mode, .max_atoms = max_atoms, .stop = stop,
                           .build_only = o->reduce_build_only };
  dl_reduction_destroy(g->reduction);  /* of an earlier build to REDUCE */
  g->reduction = NULL;
  dl_reduction *red = dl_reduce(p, g->domains, &ro, diag);
  g->reduce_seconds = dl_clock_now() - t1;
  if (to == DL_STAGE_REDUCE) g->reduction = red;
  if (!red || to == DL_STAGE_REDUCE) return red != NULL;
  dl_ground_options go = o->ground;
  go.demand = !o->ground_all && !o->as_written;
  go.max_instances = max_instances, go.stop = stop;
  go.progress = o->progress ? ground_progress : NULL, go.progress_ctx = (void *)o;
  if (o->as_written) go.no_prune = go.no_factor = go.no_split = go.no_exclude = go.no_simplify = 1;
  g->ground = dl_ground_build(p, red, &go, diag);
  dl_reduction_destroy(red);
  if (g->ground && !dl_simplify_ground(g->ground, &go, diag)) {
    dl_ground_destroy(g->ground);
    g->ground = NULL;
  }
  g->ground_seconds = dl_clock_now() - t0;
  return g->ground && (has_role_atom(g->ground) || no_role(g, diag));
}

/* The machine of the circuit of g's ground game; 1, or 0 after reporting. */
static int circuit_machine(dl_game *g, const dl_game_options *o, dl_diag *diag)
{
  double t0 = dl_clock_now();
  say(o, "compile");
  dl_circuit *c = dl_circuit_create_mode(g->ground, o->circuit_mode, diag);
  g->machine = c ? dl_machine_circuit(c, g->loaded->terms, diag) : NULL;
  if (g->machine) g->machine->format = g->kif ? DL_FMT_KIF : DL_FMT_INFIX;
  g->compile_seconds = dl_clock_now() - t0;
  if (c && !g->machine) {
    dl_circuit_destroy(c);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
  }
  g->backend = DL_BACKEND_CIRCUIT;
  return g->machine != NULL;
}

/* The machine of g's rules; 1, or 0 after reporting. */
static int rules_machine(dl_game *g, const dl_game_options *o, dl_diag *diag)
{
  dl_eval_options eo = { o->max_atoms, o->stop };
  dl_sm *sm = dl_sm_create_demand(g->loaded->prog, &eo, o->demand, diag);
  g->machine = sm ? dl_machine_rules(sm, g->loaded->terms, diag) : NULL;
  if (g->machine) g->machine->format = g->kif ? DL_FMT_KIF : DL_FMT_INFIX;
  if (sm && !g->machine) {
    dl_sm_destroy(sm);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
  }
  g->backend = DL_BACKEND_RULES;
  return g->machine != NULL;
}

/* Drops what an attempt at grounding left in g. */
static void drop_ground(dl_game *g)
{
  dl_machine_destroy(g->machine);
  dl_ground_destroy(g->ground);
  g->machine = NULL;
  g->ground = NULL;
}

/* The first error of d, for the note that says why AUTO took the rules. */
static const char *first_error(const dl_diag *d)
{
  for (size_t i = 0; i < dl_diag_count(d); i++)
    if (dl_diag_message(d, i)->severity == DL_ERROR) return dl_diag_message(d, i)->text;
  return "?";
}

/* The length of a limit's message without its advice: how to raise the
 * limit, and the guess that the model may be infinite, which hold for the
 * command's own limits and not for the auto backend's budget. */
static int limit_reason_length(const char *why)
{
  size_t n = strlen(why);
  static const char *const advice[] = { " (the model may be infinite", "; raise the limit" };
  for (size_t i = 0; i < sizeof advice / sizeof advice[0]; i++) {
    const char *a = strstr(why, advice[i]);
    if (a && (size_t)(a - why) < n) n = (size_t)(a - why);
  }
  return (int)n;
}

/* AUTO: the circuit when the game grounds within the budget, else the
 * rules.  The attempt reports into a diagnostics object of its own: its
 * messages reach diag when it succeeds; when it fails, one note says why
 * the rules answer, unless the failure is the caller's stop or memory. */
static int auto_machine(dl_game *g, const dl_game_options *o, dl_diag *diag)
{
  if (o->one_question) return rules_machine(g, o, diag);
  dl_diag *attempt = dl_diag_create();
  if (!attempt) {  /* out of memory gives up, as in the attempt */
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  dl_stop stop = o->stop ? *o->stop : (dl_stop){ 0 };
  if (o->auto_seconds > 0) stop.deadline = dl_clock_now() + o->auto_seconds;
  uint64_t atoms = o->max_atoms && o->max_atoms < o->auto_max_atoms ? o->max_atoms : o->auto_max_atoms;
  int ok = ground_game(g, o, &stop, atoms, o->auto_max_instances, DL_STAGE_GROUND, attempt) &&
           circuit_machine(g, o, attempt);
  if (ok) {
    dl_diag_append(diag, attempt);
    g->machine->diag = diag;  /* it was made reporting to the attempt's */
  }
  int give_up = !ok && (dl_stop_requested(o->stop) || dl_diag_last_cause(attempt) == DL_CAUSE_NOMEM);
  if (give_up) dl_diag_append(diag, attempt);
  else if (!ok) {
    const char *why = first_error(attempt);
    dl_diag_report(diag, DL_NOTE, NULL, 0, "the game is evaluated over its rules: it does not ground within the "
                   "budget of the auto backend (%.*s); --backend circuit grounds it without that budget",
                   limit_reason_length(why), why);
  }
  dl_diag_destroy(attempt);
  if (ok || give_up) return ok;
  drop_ground(g);
  return rules_machine(g, o, diag);
}

int dl_game_build(dl_game *g, dl_loaded *loaded, const dl_game_options *o, dl_stage to, dl_diag *diag)
{
  assert(g && o && diag && (loaded || g->loaded));
  if (loaded) g->loaded = loaded, g->owns_loaded = 0, g->kif = loaded->syntax == LX_KIF;
  if (!g->loaded->prog) return 0;
  if (to == DL_STAGE_LOAD) return 1;
  if (to >= DL_STAGE_GROUND && !has_role_predicate(g->loaded->prog)) return no_role(g, diag);
  if (to >= DL_STAGE_GROUND && !no_state_facts(g, diag)) return 0;
  if (to < DL_STAGE_MACHINE) return ground_game(g, o, o->stop, o->max_atoms, o->max_instances, to, diag);
  if (o->backend == DL_BACKEND_RULES) return rules_machine(g, o, diag);
  if (o->backend == DL_BACKEND_AUTO) return auto_machine(g, o, diag);
  return ground_game(g, o, o->stop, o->max_atoms, o->max_instances, DL_STAGE_GROUND, diag) &&
         circuit_machine(g, o, diag);
}

void dl_game_free(dl_game *g)
{
  if (!g) return;
  dl_machine_destroy(g->machine);
  dl_ground_destroy(g->ground);
  dl_reduction_destroy(g->reduction);
  dl_domains_destroy(g->domains);
  if (g->owns_loaded) dl_load_destroy(g->loaded);
  memset(g, 0, sizeof *g);
}
