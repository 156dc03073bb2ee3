/* pipeline.h: a game built from options, in one place:
 *   load -> check -> domains -> reduce (G+) -> ground -> simplify -> compile -> machine
 * stopping at the stage the caller needs, with one set of limits (the
 * defaults below) and one place that decides the backend of the machine.
 * Every command of the command line that goes past loading (domains,
 * reduce, ground, play, step, serve, equiv), the public API and the tests
 * build games through it; loading alone is program/load.h's dl_load, which
 * check, print and model call (through the command line's cli_load) as
 * dl_game_load does.
 *
 * The backend: RULES evaluates the game's rules (any game); CIRCUIT grounds
 * the game and compiles the ground game (fast; the game must ground within
 * the limits); AUTO tries the circuit within a budget (instances and time)
 * and falls back on the rules when grounding does not fit, with a note
 * that says why.  With one_question (a caller that asks about one state,
 * as `gdlog step` does), AUTO takes the rules at once: one model costs less
 * than grounding the game. */
#ifndef GDLOG_PIPELINE_H
#define GDLOG_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "datalog/base/diag.h"
#include "datalog/base/stop.h"
#include "datalog/circuit/circuit.h"
#include "datalog/gdl/domains.h"
#include "datalog/gdl/reduce.h"
#include "datalog/ground/ground.h"
#include "datalog/machine/machine.h"
#include "datalog/machine/sm.h"
#include "datalog/program/load.h"

/* The default limits of every command and of the API. */
#define DL_DEFAULT_MAX_ATOMS 100000000ULL       /* atoms of one model, and of G+ */
#define DL_DEFAULT_MAX_INSTANCES 200000000ULL   /* rule instances of one grounding */
#define DL_AUTO_MAX_INSTANCES 2000000ULL        /* AUTO grounds at most this many ... */
#define DL_AUTO_MAX_ATOMS 4000000ULL            /* ... over a G+ of at most this many atoms ... */
#define DL_AUTO_SECONDS 10.0                    /* ... within this many seconds, else the rules */

/* Where the pipeline stops. */
typedef enum dl_stage {
  DL_STAGE_LOAD,      /* read, parsed, checked */
  DL_STAGE_DOMAINS,   /* and the domain graph */
  DL_STAGE_REDUCE,    /* and G+ evaluated (kept in the game only at this stage) */
  DL_STAGE_GROUND,    /* and the ground game */
  DL_STAGE_MACHINE    /* and a state machine on the chosen backend */
} dl_stage;

/* The backend of the machine (the values of gdlog_backend). */
typedef enum dl_backend { DL_BACKEND_AUTO = 0, DL_BACKEND_RULES, DL_BACKEND_CIRCUIT } dl_backend;

/* What the pipeline reports while it works (for a progress line): a stage
 * starts (p NULL), or the grounder's progress (p not NULL). */
typedef void (*dl_pipeline_progress)(void *ctx, const char *stage, const dl_ground_progress *p);

typedef struct dl_game_options {
  dl_backend backend;         /* DL_STAGE_MACHINE: which one */
  int one_question;           /* AUTO: the caller asks about one state (take the rules) */
  dl_sm_demand demand;        /* how the rules are evaluated (default AUTO) */
  dl_circuit_mode circuit_mode; /* how the circuit evaluates (default AUTO) */
  int ground_all;             /* ground every rule, not only those the game's keywords need */
  int as_written;             /* a ground program: one circuit rule per rule of it (no pruning,
                                 splitting, factoring or simplification) */
  int reduce_mode;            /* G+: a dl_reduce_mode (DL_REDUCE_LFP, the default, 0) */
  int reduce_build_only;      /* stage REDUCE: build G+ of the LFP mode, do not evaluate it */
  dl_ground_options ground;   /* the grounder's switches no_prune, no_factor, no_split,
                                 no_exclude and no_simplify (zero: all on); the pipeline
                                 sets the rest */
  uint64_t max_atoms;         /* per model and for G+ (0: none) */
  uint64_t max_instances;     /* per grounding (0: none) */
  uint64_t auto_max_instances;/* AUTO's budget: instances ... */
  uint64_t auto_max_atoms;    /* ... atoms of G+ ... */
  double auto_seconds;        /* ... and seconds of grounding (0: none) */
  const dl_stop *stop;        /* may be NULL */
  dl_pipeline_progress progress;  /* may be NULL */
  void *progress_ctx;
} dl_game_options;

/* A game at some stage of the pipeline.  Zero-initialise it; free it with
 * dl_game_free. */
typedef struct dl_game {
  dl_loaded *loaded;          /* owned unless given to dl_game_build */
  int owns_loaded;
  int kif;                    /* the game is written in KIF (texts default to it) */
  dl_domains *domains;
  dl_reduction *reduction;    /* built to stage REDUCE only: later stages drop it */
  dl_ground *ground;
  dl_machine *machine;
  dl_backend backend;         /* the machine's: RULES or CIRCUIT */
  double load_seconds, ground_seconds, compile_seconds;
  double domains_seconds, reduce_seconds;  /* of ground_seconds */
} dl_game;

/* Fills *o with the defaults: AUTO everywhere and the limits above. */
void dl_game_options_init(dl_game_options *o);

/* Loads the program of lo (file, or text[0..len) when text is not NULL)
 * into g (stage LOAD).  1, or 0 after reporting to diag (g->loaded may
 * then hold the sources the messages point into: free g after printing
 * them). */
int dl_game_load(dl_game *g, const dl_load_options *lo, const char *text, size_t len, dl_diag *diag);

/* Takes g on from its loaded program (dl_game_load, or loaded given: the
 * caller's, not freed by dl_game_free) up to stage `to`.  1, or 0 after
 * reporting to diag.  A program that is no game (no role predicate, or
 * no role once ground) is an error from stage GROUND on.  g may be built
 * again to a later stage (or to REDUCE with other options): the domains
 * are built once. */
int dl_game_build(dl_game *g, dl_loaded *loaded, const dl_game_options *o, dl_stage to, dl_diag *diag);

/* Frees what g holds (the machine first) and empties it. */
void dl_game_free(dl_game *g);

#endif
