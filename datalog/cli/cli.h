/* cli.h: the command line's framework.  main.c holds the table of commands
 * (cli_command); opts.c parses a command's options from its table and
 * prints its --help; report.c prints the diagnostics and usage errors of
 * every command the same way; cli.c runs a command: limits, signals
 * (guard.h), loading, atomic output.  Each command is one file cmd_NAME.c
 * that defines one cli_command (see README.md, "Adding a command").
 *
 * Not library code: it prints and exits. */
#ifndef GDLOG_CLI_H
#define GDLOG_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/program/program.h"
#include "datalog/machine/pipeline.h"
#include "datalog/program/load.h"
#include "lexer.h"

/* Exit statuses (signals: 128 + the signal, see guard.h). */
enum { CLI_OK = 0, CLI_INPUT = 1, CLI_USAGE = 2 };

/* One word an option with a fixed set of values takes, and what it means
 * to the command: the value cli_choice returns for it. */
typedef struct cli_enum {
  const char *name;      /* the word on the command line: "kif" */
  int value;             /* what cli_choice returns for it: LX_KIF */
} cli_enum;

/* The values of an option, a NULL-ended cli_enum array for .one_of:
 * CLI_ONE_OF({ "kif", LX_KIF }, { "infix", LX_INFIX }). */
#define CLI_ONE_OF(...) ((const cli_enum[]){ __VA_ARGS__, { NULL, 0 } })

/* One option of a command. */
typedef struct cli_option {
  const char *name;      /* "--format", or "-o" */
  const char *value;     /* its value's name in the help ("F"); NULL: a flag */
  const char *help;      /* help text; '\n' starts a continuation line */
  const cli_enum *one_of;/* the values it takes (CLI_ONE_OF); NULL: any */
  int repeatable;        /* may be given more than once (cli_value_at) */
  const char *excludes;  /* an option it cannot be given with, or NULL */
  const char *needs;     /* an option it needs, or NULL */
} cli_option;

/* What a report is written in (--format of reduce and play, --stats-format
 * of ground). */
typedef enum cli_report_format { CLI_REPORT_TEXT, CLI_REPORT_JSON } cli_report_format;
#define CLI_TEXT_OR_JSON CLI_ONE_OF({ "text", CLI_REPORT_TEXT }, { "json", CLI_REPORT_JSON })

/* Options several commands share: use these in a command's table. */
#define CLI_OPT_SYNTAX \
  { .name = "--syntax", .value = "S", \
    .one_of = CLI_ONE_OF({ "kif", LX_KIF }, { "infix", LX_INFIX }, { "asp", LX_ASP }), \
    .help = "input syntax: kif, infix or asp (gringo's, as print writes\n" \
            "it; default: by the content of FILE, else its extension)" }
#define CLI_OPT_OUTPUT \
  { .name = "-o", .value = "FILE", \
    .help = "write the output to FILE (replaced only when all went\n" \
            "well); - is standard output" }
#define CLI_OPT_INIT \
  { .name = "--init", .excludes = "--state", \
    .help = "add true(T) for every derived init(T): the initial state\n" \
            "(not with --state)" }
#define CLI_OPT_STATE \
  { .name = "--state", .value = "FILE", .excludes = "--init", \
    .help = "add the facts of FILE as the current state (true(T) or\n" \
            "bare T; not with --init)" }
#define CLI_OPT_DOES \
  { .name = "--does", .value = "FILE", .help = "add the does(R,A) facts of FILE as the players' moves" }
#define CLI_OPT_STATS \
  { .name = "--stats", .help = "print strata, atoms per relation, time and memory on\n" \
                                "stderr" }
/* The options of the commands that drive a state machine (play, step,
 * serve, equiv): which backend (datalog/machine/pipeline.h) and how it
 * evaluates. */
#define CLI_OPT_BACKEND \
  { .name = "--backend", .value = "B", \
    .one_of = CLI_ONE_OF({ "auto", DL_BACKEND_AUTO }, { "rules", DL_BACKEND_RULES }, { "circuit", DL_BACKEND_CIRCUIT }), \
    .help = "auto (default: the circuit when the game grounds within\n" \
            "a budget, else the rules), rules (the evaluator over the\n" \
            "rules: any game) or circuit (the ground game compiled)" }
#define CLI_OPT_DEMAND \
  { .name = "--demand", .value = "D", \
    .one_of = CLI_ONE_OF({ "auto", DL_SM_DEMAND_AUTO }, { "on", DL_SM_DEMAND_ON }, { "off", DL_SM_DEMAND_OFF }), \
    .help = "how the rules backend evaluates: demand-driven (their\n" \
            "magic-set rewriting: only what legal, next, goal and\n" \
            "terminal need; on), as they are (off), or auto (default:\n" \
            "demand-driven when the full model is infinite or huge)" }
#define CLI_OPT_CIRCUIT \
  { .name = "--circuit", .value = "M", \
    .one_of = CLI_ONE_OF({ "auto", DL_CIRCUIT_AUTO }, { "eager", DL_CIRCUIT_EAGER }, { "lazy", DL_CIRCUIT_LAZY }), \
    .help = "how the circuit evaluates the gates that only legal moves,\n" \
            "goals, terminal and next rules other than frames need: kept\n" \
            "up to date (eager), computed when asked (lazy: chess's check\n" \
            "tests), or as gdlog chooses (auto, the default)" }
#define CLI_OPT_END { .name = NULL }

typedef struct cli_ctx cli_ctx;

/* A command: one table entry of main.c, defined in its cmd_NAME.c. */
typedef struct cli_command {
  const char *name;         /* "model" */
  const char *summary;      /* one line for `gdlog --help` */
  const char *synopsis;     /* its arguments after the options: "FILE" */
  int min_args, max_args;   /* how many arguments (files) it takes */
  const char *about;        /* the paragraph of `gdlog NAME --help` */
  const cli_option *options;/* its own options, ended by CLI_OPT_END; the
                               common ones (limits, warnings, help) are added */
  int (*run)(cli_ctx *c);   /* does the work; returns CLI_OK, CLI_INPUT
                               (after reporting to c->diag) or CLI_USAGE
                               (after cli_usage) */
} cli_command;

enum { CLI_MAX_LOADS = 4 };

/* The state of one run of a command. */
struct cli_ctx {
  const cli_command *cmd;
  const char *const *args;  /* the arguments that are not options */
  int n_args;
  uint64_t max_atoms;       /* --max-atoms (default DL_DEFAULT_MAX_ATOMS; 0: none) */
  int max_atoms_given;
  uint64_t max_memory;      /* --max-memory in MiB (0: none) */
  double timeout;           /* --timeout in seconds (0: none) */
  int no_warnings;          /* --no-warnings */
  int warnings_as_errors;   /* --warnings-as-errors */
  dl_diag *diag;            /* where the command reports */
  /* private to opts.c and report.c */
  struct cli_given { const cli_option *opt; const char *value; } *given;
  int n_given;
  size_t printed;           /* messages of diag already printed */
  int hiding;               /* report.c: the notes of a hidden warning */
  int ended;                /* report.c: cli_report_end has printed */
  dl_loaded *loaded[CLI_MAX_LOADS];  /* cli.c: what cli_load read */
  int n_loaded;
};

/* ---- options (opts.c) ---- */

/* The value of option name, NULL when it was not given; for a repeatable
 * option, the first.  name must be in the command's table or common (an
 * assert; cli_has tells), as for cli_value_at and cli_given. */
const char *cli_value(const cli_ctx *c, const char *name);

/* The i-th value of a repeatable option, NULL after the last. */
const char *cli_value_at(const cli_ctx *c, const char *name, int i);

/* 1 when option name was given, else 0. */
int cli_given(const cli_ctx *c, const char *name);

/* Reads s as a count: decimal digits only (no sign, blank or anything
 * after them) of a number up to UINT64_MAX.  Returns 1 with the number in
 * *n; else 0, *n unchanged, errno ERANGE when the number is too large and
 * EINVAL when s is no count. */
int cli_parse_count(const char *s, uint64_t *n);

/* The value of option name as a count in *n (dflt when it was not given).
 * Returns 1, or 0 after a usage error (cli_parse_count refused it). */
int cli_count(const cli_ctx *c, const char *name, uint64_t dflt, uint64_t *n);

/* As cli_count, and a count below min or above max is a usage error too
 * (min <= max; dflt need not be in the range). */
int cli_count_range(const cli_ctx *c, const char *name, uint64_t dflt, uint64_t min, uint64_t max, uint64_t *n);

/* The value of option name as a goal value, 0..100, in *v (-1 when it
 * was not given).  Returns 1, or 0 after a usage error. */
int cli_goal_value(const cli_ctx *c, const char *name, int32_t *v);

/* 1 when the command has option name in its table. */
int cli_has(const cli_ctx *c, const char *name);

/* The value that the word given for option name stands for in its
 * .one_of; dflt when it was not given.  The parser has rejected every
 * other word.  name must have one_of (an assert). */
int cli_choice(const cli_ctx *c, const char *name, int dflt);

/* As cli_choice, for the i-th value of a repeatable option (dflt after the
 * last). */
int cli_choice_at(const cli_ctx *c, const char *name, int i, int dflt);

/* Parses the arguments of command cmd (argv[0] is the command's name) into
 * c, with all the commands of the table (NULL-ended) to tell an option of
 * another command from an unknown one.  Returns -1 when the command is to
 * run, else the exit status (usage error printed, or --help given). */
int cli_parse(cli_ctx *c, const cli_command *cmd, const cli_command *const *all, int argc, char **argv);

/* Writes the help of cmd (its options only), or with cmd NULL the list of
 * all commands, to f. */
void cli_help(FILE *f, const cli_command *cmd, const cli_command *const *all);

/* ---- reporting (report.c) ---- */

/* Prints a usage error of c's command (or of gdlog with c NULL) in the one
 * format: "gdlog CMD: text" then "Try 'gdlog CMD --help'." on stderr.
 * Returns CLI_USAGE. */
int cli_usage(const cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reports a warning (no place) to c->diag.  Returns 0 when warnings are
 * errors (--warnings-as-errors): the command then stops with CLI_INPUT. */
int cli_warn(cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints the messages of c->diag not printed yet (warnings and their notes
 * left out under --no-warnings).  The framework calls it when the command
 * is done; a command calls it itself only to print something after the
 * diagnostics (model's --stats).  Sources a message points into must be
 * alive: those of cli_load are. */
void cli_report(cli_ctx *c);

/* Empties c->diag without printing what it holds: for a command that
 * answers errors itself (serve, in its replies) and reads each request's
 * messages from an empty object.  Print what must be printed first. */
void cli_report_drop(cli_ctx *c);

/* The warnings reported to c->diag so far, kept or not. */
size_t cli_warnings(const cli_ctx *c);

/* 1 unless a warning was reported under --warnings-as-errors. */
int cli_ok(const cli_ctx *c);

/* The closing lines: errors not shown, the memory limit, a stop by a
 * signal or the time limit, warnings treated as errors.  Prints them once:
 * a command that prints after them (--stats) calls it first. */
void cli_report_end(cli_ctx *c);

/* ---- running (cli.c) ---- */

/* Runs command cmd with argv[0] its name; returns the exit status. */
int cli_run(const cli_command *cmd, const cli_command *const *all, int argc, char **argv);

/* Loads the program in file ("-": standard input) with --syntax and, when
 * the command has them, --init, --state and --does.  Returns it, owned by
 * c (freed after the last diagnostics are printed), or NULL after errors
 * were reported (or a warning under --warnings-as-errors).  At most
 * CLI_MAX_LOADS per run (an assert). */
dl_loaded *cli_load(cli_ctx *c, const char *file);

/* As cli_load, in syntax (an lx_syntax, or -1: guessed from the content
 * and name of file, dl_parse_guess_syntax) whatever --syntax says. */
dl_loaded *cli_load_as(cli_ctx *c, const char *file, int syntax);

/* Builds the game of file into a state machine in *g (zeroed before; free
 * it with dl_game_free after cli_report): its program read with --syntax
 * only (no --state, --does or --init), then the pipeline with the
 * command's --backend, --demand, --circuit and limits, a progress line on
 * stderr while it takes long.  one_question: the command asks about one
 * state (AUTO takes the rules).  1, or 0 after reporting. */
int cli_build_machine(cli_ctx *c, const char *file, int one_question, dl_game *g);

/* As cli_build_machine, up to stage `to` only; with file NULL, takes g
 * (built before, to an earlier stage) on to `to`. */
int cli_build_to(cli_ctx *c, const char *file, int one_question, dl_stage to, dl_game *g);

/* A dl_pipeline_progress that shows the pipeline's stages on the
 * command's progress line: ctx is a cli_progress (progress.h). */
void cli_game_progress(void *ctx, const char *stage, const dl_ground_progress *p);

/* The stream for the output: standard output, or (-o FILE) a temporary
 * file beside FILE that cli_close_output puts in place.  NULL after
 * reporting. */
FILE *cli_open_output(cli_ctx *c);

/* Finishes f from cli_open_output; ok: all of the output was made and
 * written (else a write failed, or memory ran out: reported here unless
 * an error was reported already, which says why the output is not made).
 * Returns 1 when the output is complete and in place. */
int cli_close_output(cli_ctx *c, FILE *f, int ok);

/* Writes b as the whole output (cli_open_output, cli_close_output). */
int cli_write_output(cli_ctx *c, const dl_buf *b);

/* ---- --show PRED[/N],... (show.c) ---- */

/* Checks the form of every --show value; returns 1, or 0 after a usage
 * error (an empty name, an arity that is not a number). */
int cli_show_valid(const cli_ctx *c);

/* Warns about each --show name program p has no predicate of.  Returns 0
 * when such a warning is an error (--warnings-as-errors). */
int cli_show_check(cli_ctx *c, const dl_program *p);

/* Sets *skip to a malloc'd array of p->n_preds + 1 bytes, 1 for each
 * predicate --show does not name; NULL when --show was not given.
 * Returns 0 when out of memory (reported). */
int cli_show_skip(cli_ctx *c, const dl_program *p, uint8_t **skip);

#endif
