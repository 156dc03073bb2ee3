/* test_threads.c: the library keeps no global state, so two evaluations can
 * run at once in two threads.  Two different programs (the book's
 * tic-tac-toe with true(X) :- init(X), and the transitive closure of a chain
 * built in memory) are loaded, evaluated and rendered alone first; then both
 * at once in two threads, several times, and each model must equal the one
 * computed alone: atom counts per predicate and the rendered text.
 *
 *   test_threads TICTACTOE.dl [CHAIN_EDGES] [ROUNDS] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datalog/base/buf.h"
#include "datalog/base/diag.h"
#include "datalog/eval/eval.h"
#include "datalog/program/load.h"
#include "datalog/write/output.h"

/* One evaluation: what to load, and the model it gave. */
typedef struct job {
  const char *name;      /* file name, for messages and syntax guessing */
  const char *text;      /* the program in memory, or NULL: read the file */
  const char *extra;     /* extra rules, or NULL */
  int ok;                /* 1 when it loaded, ran and rendered */
  uint32_t n_preds;
  uint64_t *counts;      /* atoms per predicate (malloc'd) */
  dl_buf model;          /* the rendered model */
} job;

static int buf_write(void *ctx, const char *data, size_t n)
{
  dl_buf *b = ctx;
  dl_buf_add(b, data, n);
  return !b->failed;
}

static void job_clear(job *j)
{
  free(j->counts);
  j->counts = NULL;
  dl_buf_free(&j->model);
  j->ok = 0;
}

/* Loads, evaluates and renders j's program into j (thread body). */
static void *job_run(void *arg)
{
  job *j = arg;
  dl_diag *diag = dl_diag_create();
  dl_load_options lo = { .file = j->name, .extra_rules = j->extra, .syntax = -1 };
  dl_loaded *l = NULL;
  dl_eval *e = NULL;
  if (!diag) return NULL;
  l = j->text ? dl_load_memory(&lo, j->text, strlen(j->text), diag) : dl_load(&lo, diag);
  if (l && l->prog) {
    dl_eval_options eo = { 0, NULL };
    e = dl_eval_create(l->prog, &eo, diag);
  }
  if (e && dl_eval_run(e)) {
    j->n_preds = l->prog->n_preds;
    j->counts = calloc(j->n_preds + 1, sizeof *j->counts);
    for (uint32_t p = 0; j->counts && p < j->n_preds; p++) j->counts[p] = ix_relation_size(dl_eval_relation(e, p));
    dl_sink sink = { buf_write, &j->model };
    j->ok = j->counts && dl_output_model_to(&sink, l->prog, e, DL_FMT_INFIX, NULL) && !j->model.failed;
  }
  for (size_t i = 0; i < dl_diag_count(diag); i++) {
    char *text = dl_diag_render(dl_diag_message(diag, i));
    fprintf(stderr, "%s", text ? text : "(out of memory)\n");
    free(text);
  }
  dl_eval_destroy(e);
  dl_load_destroy(l);
  dl_diag_destroy(diag);
  return NULL;
}

/* Checks that j's model is the reference's. */
static void same_model(const job *j, const job *ref, int round)
{
  CHECK(j->ok, "%s, round %d: evaluation failed", j->name, round);
  if (!j->ok) return;
  CHECK(j->n_preds == ref->n_preds, "%s, round %d: %u predicates, alone %u", j->name, round, j->n_preds, ref->n_preds);
  for (uint32_t p = 0; p < j->n_preds && p < ref->n_preds; p++)
    CHECK(j->counts[p] == ref->counts[p], "%s, round %d: predicate %u has %llu atoms, alone %llu", j->name, round, p,
          (unsigned long long)j->counts[p], (unsigned long long)ref->counts[p]);
  CHECK(j->model.len == ref->model.len && memcmp(j->model.data, ref->model.data, j->model.len) == 0,
        "%s, round %d: the rendered model differs from the one computed alone", j->name, round);
}

/* A round: the chain once in one thread, and tic-tac-toe over and over in
 * another until the chain is done, each model checked. */
typedef struct pair {
  job *run, *ref;
  int round;
  atomic_int chain_done;
  uint64_t ttt_runs;
} pair;

static void *chain_thread(void *arg)
{
  pair *pr = arg;
  job_run(&pr->run[1]);
  atomic_store(&pr->chain_done, 1);
  return NULL;
}

static void *ttt_thread(void *arg)
{
  pair *pr = arg;
  do {
    job j = { .name = pr->ref[0].name, .extra = pr->ref[0].extra };
    job_run(&j);
    same_model(&j, &pr->ref[0], pr->round);
    job_clear(&j);
    pr->ttt_runs++;
  } while (!atomic_load(&pr->chain_done));
  return NULL;
}

/* edge(i,i+1) for i < n, and path as their transitive closure. */
static char *chain_program(unsigned n)
{
  dl_buf b = { 0 };
  char line[64];
  for (unsigned i = 0; i < n; i++) {
    snprintf(line, sizeof line, "edge(%u,%u).\n", i, i + 1);
    dl_buf_addz(&b, line);
  }
  dl_buf_addz(&b, "path(X,Y) :- edge(X,Y).\npath(X,Z) :- path(X,Y) & edge(Y,Z).\n");
  if (b.failed) { dl_buf_free(&b); return NULL; }
  return b.data;
}

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: test_threads TICTACTOE.dl [CHAIN_EDGES] [ROUNDS]\n"); return 2; }
  unsigned n_edges = argc > 2 ? (unsigned)atoi(argv[2]) : 2000;
  int rounds = argc > 3 ? atoi(argv[3]) : 3;
  char *chain = chain_program(n_edges);
  if (!chain) { fprintf(stderr, "out of memory\n"); return 1; }
  job ref[2] = { { .name = argv[1], .extra = "true(X) :- init(X)." }, { .name = "chain.dl", .text = chain } };
  for (int k = 0; k < 2; k++) {
    job_run(&ref[k]);
    CHECK(ref[k].ok, "%s alone: evaluation failed", ref[k].name);
  }
  if (!ref[0].ok || !ref[1].ok) return check_exit();
  uint64_t paths = (uint64_t)n_edges * (n_edges + 1) / 2, total = 0;
  for (uint32_t p = 0; p < ref[1].n_preds; p++) total += ref[1].counts[p];
  CHECK(total == n_edges + paths, "chain alone: %llu atoms, expected %llu", (unsigned long long)total,
        (unsigned long long)(n_edges + paths));
  uint64_t ttt_runs = 0;
  for (int round = 0; round < rounds; round++) {
    job run[2] = { { .name = ref[0].name, .extra = ref[0].extra }, { .name = ref[1].name, .text = ref[1].text } };
    pair pr = { run, ref, round, 0, 0 };
    pthread_t th[2];
    int started[2];
    started[1] = pthread_create(&th[1], NULL, chain_thread, &pr) == 0;
    started[0] = pthread_create(&th[0], NULL, ttt_thread, &pr) == 0;
    CHECK(started[0] && started[1], "round %d: pthread_create failed", round);
    if (!started[1]) atomic_store(&pr.chain_done, 1);
    for (int k = 0; k < 2; k++)
      if (started[k]) pthread_join(th[k], NULL);
    same_model(&run[1], &ref[1], round);
    job_clear(&run[1]);
    ttt_runs += pr.ttt_runs;
  }
  printf("tic-tac-toe ran %llu times while the chain ran %d times\n", (unsigned long long)ttt_runs, rounds);
  job_clear(&ref[0]);
  job_clear(&ref[1]);
  free(chain);
  printf("%d rounds of 2 threads (tic-tac-toe, chain of %u edges): %s\n", rounds, n_edges,
         check_failures ? "FAILED" : "models equal to those computed alone");
  return check_exit();
}
