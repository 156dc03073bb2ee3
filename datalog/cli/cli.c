/* cli.c: runs one command (cli.h): its options, the limits and signal
 * handling of guard.h, the diagnostics at the end, the exit status; and the
 * loading and output every command shares. */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/cli/cli.h"
#include "datalog/cli/guard.h"
#include "datalog/cli/progress.h"

/* Runs c's command after its options were parsed. */
static int run_parsed(cli_ctx *c)
{
  dl_guard_install();
  dl_guard_set_memory(c->max_memory);
  dl_guard_set_timeout(c->timeout);
  c->diag = dl_diag_create();
  if (!c->diag) {
    fputs("gdlog: out of memory\n", stderr);
    return CLI_INPUT;
  }
  int rc = c->cmd->run(c);
  cli_report(c);
  cli_report_end(c);
  if (rc == CLI_OK && !cli_ok(c)) rc = CLI_INPUT;
  return rc;
}

int cli_run(const cli_command *cmd, const cli_command *const *all, int argc, char **argv)
{
  cli_ctx c;
  memset(&c, 0, sizeof c);
  int rc = cli_parse(&c, cmd, all, argc, argv);
  if (rc < 0) rc = run_parsed(&c);
  int sig = dl_guard_signal();
  if (sig) rc = sig == SIGALRM ? CLI_INPUT : 128 + sig;
  for (int i = 0; i < c.n_loaded; i++) dl_load_destroy(c.loaded[i]);
  dl_diag_destroy(c.diag);
  free(c.given);
  free((void *)c.args);
  return rc;
}

dl_loaded *cli_load(cli_ctx *c, const char *file)
{
  return cli_load_as(c, file, cli_has(c, "--syntax") ? cli_choice(c, "--syntax", -1) : -1);
}

/* Loads the program of lo, owned by c; NULL after reporting. */
static dl_loaded *load(cli_ctx *c, const dl_load_options *lo)
{
  assert(c->n_loaded < CLI_MAX_LOADS && lo->file);
  assert(lo->syntax == -1 || lo->syntax == LX_KIF || lo->syntax == LX_INFIX || lo->syntax == LX_ASP);
  dl_loaded *l = dl_load(lo, c->diag);
  if (!l) {
    dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
    return NULL;
  }
  c->loaded[c->n_loaded++] = l;
  return l->prog && cli_ok(c) ? l : NULL;
}

dl_loaded *cli_load_as(cli_ctx *c, const char *file, int syntax)
{
  dl_load_options lo = { .file = file, .syntax = syntax };
  if (cli_has(c, "--state")) lo.state_file = cli_value(c, "--state");
  if (cli_has(c, "--does")) lo.does_file = cli_value(c, "--does");
  if (cli_has(c, "--facts")) lo.facts_dir = cli_value(c, "--facts");
  lo.take_facts = cli_has(c, "--facts");  /* the commands that evaluate programs take input relations */
  if (cli_has(c, "--init") && cli_given(c, "--init")) lo.extra_rules = "true(X) :- init(X).";
  return load(c, &lo);
}

void cli_game_progress(void *ctx, const char *stage, const dl_ground_progress *p)
{
  if (p) cli_progress_ground(ctx, p);
  else cli_progress_say(ctx, stage, NULL);
}

int cli_build_to(cli_ctx *c, const char *file, int one_question, dl_stage to, dl_game *g)
{
  cli_progress progress;
  cli_progress_begin(&progress, c->cmd->name);
  dl_game_options o;
  dl_game_options_init(&o);
  o.backend = (dl_backend)cli_choice(c, "--backend", DL_BACKEND_AUTO);
  if (cli_has(c, "--demand")) o.demand = (dl_sm_demand)cli_choice(c, "--demand", DL_SM_DEMAND_AUTO);
  if (cli_has(c, "--circuit")) o.circuit_mode = (dl_circuit_mode)cli_choice(c, "--circuit", DL_CIRCUIT_AUTO);
  o.one_question = one_question;
  o.max_atoms = c->max_atoms;
  o.stop = dl_guard_stop();
  o.progress = cli_game_progress;
  o.progress_ctx = &progress;
  dl_loaded *l = NULL;
  if (file) {
    dl_load_options lo = { .file = file, .syntax = cli_has(c, "--syntax") ? cli_choice(c, "--syntax", -1) : -1 };
    l = load(c, &lo);
  }
  dl_guard_soft(1);  /* the pipeline polls the stop */
  int ok = (l || (!file && g->loaded)) && dl_game_build(g, l, &o, to, c->diag);
  dl_guard_soft(0);
  cli_progress_end(&progress);
  return ok && cli_ok(c);
}

int cli_build_machine(cli_ctx *c, const char *file, int one_question, dl_game *g)
{
  return cli_build_to(c, file, one_question, DL_STAGE_MACHINE, g);
}

/* The name of the output in messages. */
static const char *output_name(const cli_ctx *c)
{
  const char *o = cli_has(c, "-o") ? cli_value(c, "-o") : NULL;
  return o && strcmp(o, "-") ? o : "the output";
}

FILE *cli_open_output(cli_ctx *c)
{
  const char *path = cli_has(c, "-o") ? cli_value(c, "-o") : NULL;
  if (path && strcmp(path, "-") == 0) path = NULL;
  FILE *f = dl_guard_open_output(path);
  if (!f) dl_diag_report(c->diag, DL_ERROR, NULL, 0, "cannot write %s: %s", path, strerror(errno));
  return f;
}

int cli_close_output(cli_ctx *c, FILE *f, int ok)
{
  int write_failed = ferror(f), err = errno;
  /* what failed without a word of its own (a writer, a buffer) ran out of memory */
  if (!ok && !write_failed && !dl_diag_errors(c->diag)) dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
  errno = 0;
  int placed = dl_guard_close_output(f, ok);
  if (!write_failed) err = errno;
  if (write_failed || (ok && !placed))
    dl_diag_report(c->diag, DL_ERROR, NULL, 0, "cannot write %s: %s", output_name(c), strerror(err ? err : EIO));
  return placed && ok;
}

int cli_write_output(cli_ctx *c, const dl_buf *b)
{
  if (b->failed) {
    dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  FILE *f = cli_open_output(c);
  return f && cli_close_output(c, f, b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len);
}
