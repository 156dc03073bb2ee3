/* run.c: one plan of a rule version run over the relations (see
 * eval_impl.h): its steps over a frame of variable slots, then the head.
 * Terms are ids throughout; compound arguments are matched against the
 * term store.  eval.c chooses which versions run, in which rounds. */
#include "datalog/eval/eval_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/eval/plan.h"
#include "index/tupleset.h"

/* Kept out of line: run_step recurses once per step, and the large locals
 * (iterators, term lists, factor arrays) of rarer paths inlined into it
 * would make every level of the recursion take kilobytes of stack. */
#define COLD_PATH __attribute__((noinline))

/* Inlined into each caller: a chain's closure runs it once per derivation,
 * and the call alone cost 5%. */
#define INLINE_PATH inline __attribute__((always_inline))

/* Per scan with live variables (see plan.h): the combinations of their
 * values seen in this run of the plan. */
typedef struct seen_set {
  ix_tupleset set;
  uint8_t *found;           /* memo steps: per combination, whether a witness was found */
  uint64_t cap_found;
  uint64_t tries, repeats;
  int off;                  /* given up: repeats were too rare to pay */
} seen_set;

/* The tuples an invariant scan (see plan.h) matches, collected on its first
 * visit in a run. */
typedef struct matched {
  dl_tid *tuples;
  uint64_t n, cap;
  int state;                /* 0: not collected yet, 1: collected, 2: too many, not kept */
} matched;

/* Per filter step (see plan.h, pl_step.filter): the codes its column takes
 * in the tuples whose other columns have the values key[], as bits, made
 * when the relation had `size` tuples. */
typedef struct filter {
  uint64_t *bits;
  uint32_t n_codes;         /* codes the bits cover */
  int valid;
  uint64_t size;
  dl_tid key[IX_MAX_ARITY];
  uint64_t tests, marked;   /* tests answered, and tuples marked for them */
  int off;                  /* given up: the other columns changed too often to pay */
} filter;

/* Per scan with a look-ahead (see plan.h, pl_step.peek): its tests and
 * skips in this run; it stops looking once a trial skipped too little. */
typedef struct peek_count {
  uint32_t tries, skips;
  int off;
} peek_count;

typedef struct frame {
  dl_eval *e;
  const pl_plan *pl;
  dl_tid *env;              /* variable slots */
  int mode;                 /* where heads go: an emit_mode */
  int found;                /* a head was emitted since the plan's cut step began */
  seen_set *seen;           /* per step; NULL when no step has live variables */
  seen_set known;           /* at the cut: how often the head was there already */
  matched *matched;         /* per step: the tuples an invariant scan matches */
  filter *filters;          /* per step; NULL when no step is a filter */
  peek_count *peeks;        /* per step; NULL when no step looks ahead */
} frame;

/* ---- pattern execution ----------------------------------------------------------- */

/* The term of a pattern whose variables are bound; created when `make`,
 * else looked up (DL_NO_TERM when it does not exist). */
static dl_tid build(const frame *f, uint32_t p, int make)
{
  const pl_pat *pt = &f->pl->pats[p];
  if (pt->kind == P_CONST) return pt->value;
  if (pt->kind != P_FUN) return f->env[pt->value];
  dl_tid args[pt->n];
  for (uint32_t i = 0; i < pt->n; i++)
    if ((args[i] = build(f, f->pl->kids[pt->first + i], make)) == DL_NO_TERM) return DL_NO_TERM;
  return make ? dl_terms_make(f->e->terms, pt->value, pt->n, args)
              : dl_terms_find(f->e->terms, pt->value, pt->n, args);
}

/* build(f, p, make) without a call for a variable or a constant. */
static inline dl_tid build_fast(const frame *f, uint32_t p, int make)
{
  const pl_pat *pt = &f->pl->pats[p];
  if (pt->kind == P_READ || pt->kind == P_BIND) return f->env[pt->value];
  return pt->kind == P_CONST ? pt->value : build(f, p, make);
}

/* Matches term t against pattern p, binding its P_BIND variables. */
static int match(const frame *f, uint32_t p, dl_tid t)
{
  const pl_pat *pt = &f->pl->pats[p];
  switch (pt->kind) {
  case P_CONST: return t == pt->value;
  case P_READ: return f->env[pt->value] == t;
  case P_BIND: f->env[pt->value] = t; return 1;
  default: break;
  }
  const dl_terms *terms = f->e->terms;
  if (dl_terms_functor(terms, t) != pt->value || dl_terms_arity(terms, t) != pt->n) return 0;
  const dl_tid *args = dl_terms_args(terms, t);
  for (uint32_t i = 0; i < pt->n; i++)
    if (!match(f, f->pl->kids[pt->first + i], args[i])) return 0;
  return 1;
}

/* ---- running a plan --------------------------------------------------------------- */

/* The failures below report once: an evaluation that failed stops at its
 * next poll, and the steps before it may fail again. */
static void fail_limit(dl_eval *e, uint32_t pred)
{
  if (e->failed) return;
  e->failed = 1;
  dl_diag_fail(e->diag, DL_CAUSE_LIMIT,
                 "the model grew beyond %llu atoms while deriving '%s' (the model may be infinite, "
                 "e.g. function terms in recursion); raise the limit with --max-atoms",
                 (unsigned long long)e->opt.max_atoms, dl_program_pred_name(e->prog, pred));
}

/* See eval_impl.h. */
void dl_eval_fail_term(dl_eval *e, uint32_t pred)
{
  if (e->failed) return;
  if (dl_terms_over_limit(e->terms)) {  /* the growth limit of gdl/gamecheck.h */
    e->failed = 1;
    dl_diag_fail(e->diag, DL_CAUSE_LIMIT,
                   "more than %llu terms of recursive function symbols were built while deriving '%s' (the "
                   "model may be infinite); raise the limit with --max-terms N (0: no limit)",
                   (unsigned long long)dl_terms_watch_limit(e->terms), dl_program_pred_name(e->prog, pred));
    return;
  }
  if (!dl_terms_too_deep(e->terms)) {
    dl_eval_fail_memory(e);
    return;
  }
  e->failed = 1;
  dl_diag_fail(e->diag, DL_CAUSE_LIMIT,
                 "a term nests deeper than %d levels while deriving '%s' (the model is likely infinite: "
                 "function terms in recursion)", DL_MAX_TERM_DEPTH, dl_program_pred_name(e->prog, pred));
}

void dl_eval_fail_memory(dl_eval *e)
{
  if (e->failed) return;
  e->failed = 1;
  dl_diag_fail(e->diag, DL_CAUSE_NOMEM, "out of memory during evaluation");
}

/* Stops the evaluation when the caller's cancel flag is set; checked every
 * few thousand steps so that a long join stops promptly. */
static int cancelled(dl_eval *e)
{
  if ((++e->polls & 4095) || !e->opt.stop) return e->failed;
  int why = dl_stop_requested(e->opt.stop);
  if (!why) return e->failed;
  if (!e->failed) dl_diag_fail(e->diag, DL_CAUSE_STOP, "%s", dl_stop_message(why));
  e->failed = 1;
  return 1;
}

enum { STAGE_BATCH = 1 << 20 };  /* tuples staged before a sorted insert */

/* See eval_impl.h. */
void dl_eval_flush_staged(dl_eval *e, uint32_t pred, int mode)
{
  uint64_t added;
  if (!ix_relation_flush_to(e->rel[pred], mode == EMIT_LINEAR ? &e->fresh[pred] : NULL, &added)) {
    dl_eval_fail_memory(e);
    return;
  }
  e->atoms += added;
  if (e->opt.max_atoms && e->atoms > e->opt.max_atoms) fail_limit(e, pred);
}

/* The head's tuple, into tuple[0..n); 0 when a term of it does not exist
 * (make: could not be made). */
static inline int build_head(const frame *f, uint32_t n, int make, dl_tid *tuple)
{
  const uint32_t *head = f->pl->kids + f->pl->head;
  for (uint32_t i = 0; i < n; i++)
    if ((tuple[i] = build_fast(f, head[i], make)) == DL_NO_TERM) return 0;
  return 1;
}

enum { RECENT_BITS = 15 };  /* heads remembered by emitted_lately's cache */

/* Was the two-column head tuple of pred emitted lately, so that it is in
 * the relation or a fresh set already?  Remembers it if not.  A fresh
 * set's tuples go into the relation at the end of the round, and a
 * relation loses none until dl_eval_restart, which forgets them all
 * (dl_eval_forget_recent): an entry stays true across plan runs and rounds. */
static int emitted_lately(dl_eval *e, uint32_t pred, const dl_tid *tuple)
{
  if (!e->recent) {
    e->recent = malloc(((size_t)1 << RECENT_BITS) * sizeof *e->recent);
    e->recent_pred = calloc((size_t)1 << RECENT_BITS, sizeof *e->recent_pred);
    if (!e->recent || !e->recent_pred) {  /* out of memory: the relation is asked instead */
      free(e->recent), free(e->recent_pred);
      e->recent = NULL, e->recent_pred = NULL;
      return 0;
    }
  }
  uint64_t key = (uint64_t)tuple[0] << 32 | tuple[1];
  uint64_t slot = ((key ^ pred) * 0x9e3779b97f4a7c15ULL) >> (64 - RECENT_BITS);
  if (e->recent_pred[slot] == pred + 1 && e->recent[slot] == key) return 1;
  e->recent[slot] = key;
  e->recent_pred[slot] = pred + 1;
  return 0;
}

/* See eval_impl.h. */
void dl_eval_forget_recent(dl_eval *e)
{
  if (e->recent_pred) memset(e->recent_pred, 0, ((size_t)1 << RECENT_BITS) * sizeof *e->recent_pred);
}

/* See eval_impl.h. */
void dl_eval_emit(dl_eval *e, uint32_t pred, int mode, const dl_tid *tuple)
{
  ix_relation *h = e->rel[pred];
  uint32_t n = ix_relation_arity(h);
  e->stats.derivations++;
  int ok, is_new;
  if (mode == EMIT_FRESH) {
    if ((n == 2 && emitted_lately(e, pred, tuple)) || ix_relation_contains(h, tuple)) return;
    ok = ix_tupleset_insert(&e->fresh[pred], tuple, &is_new);
  } else if (n > 0) {  /* EMIT_DIRECT, EMIT_LINEAR */
    ix_tupleset *added = mode == EMIT_LINEAR ? &e->fresh[pred] : NULL;
    if (!ix_relation_stage(h, tuple, added)) dl_eval_fail_memory(e);
    else if (ix_relation_staged(h) >= STAGE_BATCH) dl_eval_flush_staged(e, pred, mode);
    return;
  } else {
    ok = ix_relation_insert(h, tuple, &is_new);
    if (ok && is_new) ok = ix_tupleset_push(&e->fresh[pred], tuple);
  }
  if (!ok) dl_eval_fail_memory(e);
  else if (is_new && ++e->atoms > e->opt.max_atoms && e->opt.max_atoms) fail_limit(e, pred);
}

static void emit(frame *f)
{
  const pl_plan *pl = f->pl;
  dl_tid tuple[IX_MAX_ARITY];
  if (!build_head(f, ix_relation_arity(f->e->rel[pl->head_pred]), 1, tuple)) {
    dl_eval_fail_term(f->e, pl->head_pred);
    return;
  }
  f->found = 1;
  dl_eval_emit(f->e, pl->head_pred, f->mode, tuple);
}

static void run_step(frame *f, uint32_t si);

enum {
  SEEN_TRIAL = 1 << 16,     /* combinations tried before judging a seen set */
  SEEN_MAX = 1 << 23        /* combinations kept at most: then it starts afresh */
};

/* Counts a try of a seen set, giving it up after a trial in which repeats
 * were rare. */
static void judge_seen(seen_set *ss, int repeat)
{
  ss->repeats += repeat;
  if (++ss->tries == SEEN_TRIAL && ss->repeats < SEEN_TRIAL / 8) {
    ss->off = 1;
    ix_tupleset_free(&ss->set);
  }
}

/* The values of the live variables of scan s, into key[0..s->n_live). */
static void live_key(const frame *f, const pl_step *s, dl_tid *key)
{
  for (uint32_t k = 0; k < s->n_live; k++) key[k] = f->env[f->pl->kids[s->live + k]];
}

/* Whether the values of the live variables of scan si are new in this run
 * (always 1 once the seen set was given up, or when out of memory). */
static int first_seen(frame *f, uint32_t si, const pl_step *s)
{
  seen_set *ss = &f->seen[si];
  if (ss->off) return 1;
  dl_tid key[s->n_live];
  live_key(f, s, key);
  if (ss->set.n >= SEEN_MAX) ix_tupleset_clear(&ss->set);
  int fresh = 1;
  ix_tupleset_insert(&ss->set, key, &fresh);  /* out of memory: counts as new */
  judge_seen(ss, !fresh);
  return fresh;
}

/* Remembers that the witness search for key found one or not. */
static void remember(frame *f, seen_set *ss, const dl_tid *key, int found)
{
  if (ss->set.n >= SEEN_MAX) ix_tupleset_clear(&ss->set);
  int is_new;
  if (!ix_tupleset_insert(&ss->set, key, &is_new) || !is_new) return;
  if (ss->set.n > ss->cap_found) {
    uint64_t cap = ss->cap_found ? 2 * ss->cap_found : 1024;
    uint8_t *q = realloc(ss->found, cap);
    if (!q) {
      dl_eval_fail_memory(f->e);
      return;
    }
    ss->found = q;
    ss->cap_found = cap;
  }
  ss->found[ss->set.n - 1] = (uint8_t)found;
}

/* Past the cut: goes on with the witness search from step si + 1, or
 * reuses its outcome for the same values of the variables it reads. */
static void search_remembered(frame *f, uint32_t si, const pl_step *s)
{
  seen_set *ss = &f->seen[si];
  if (ss->off) {
    run_step(f, si + 1);
    return;
  }
  dl_tid key[s->n_live];
  live_key(f, s, key);
  uint64_t at;
  int known = ix_tupleset_find(&ss->set, key, &at);
  judge_seen(ss, known);
  if (known) {
    if (ss->found[at]) emit(f);
    return;
  }
  run_step(f, si + 1);
  if (!ss->off && !f->e->failed) remember(f, ss, key, f->found);
}

/* Does tuple match the step's column patterns?  Binds their variables. */
static int matches(frame *f, const pl_step *s, const dl_tid *tuple, uint32_t n)
{
  const uint32_t *cols = f->pl->kids + s->cols;
  for (uint32_t i = 0; i < n; i++)
    if (cols[i] != PL_NONE && !match(f, cols[i], tuple[i])) return 0;
  return 1;
}

/* Matches the free columns of a scanned tuple, then goes on unless the
 * live variables repeat a combination already run. */
static void scan_tuple(frame *f, uint32_t si, const pl_step *s, const dl_tid *tuple, uint32_t n)
{
  if (!matches(f, s, tuple, n)) return;
  if (s->memo && s->n_live) search_remembered(f, si, s);
  else if (!s->n_live || first_seen(f, si, s)) run_step(f, si + 1);
}

/* Whether step si is past the plan's cut and a head was already emitted. */
static inline int witnessed(const frame *f, uint32_t si)
{
  return si >= f->pl->cut && f->found;
}

/* Starts the iteration of a full or old scan over its index, with the
 * first n_key columns of the index's order bound to key[]. */
static void begin_scan(const dl_eval *e, const pl_step *s, ix_iter *it, uint32_t n_key, const dl_tid *key)
{
  const ix_relation *r = e->rel[s->pred];
  if (s->project) ix_iter_begin_distinct(it, r, s->index, n_key, s->n_distinct, key);
  else ix_iter_begin(it, r, s->index, n_key, key);
}

/* Is tuple, found by an old scan, one of the last round's delta? */
static int in_delta(const dl_eval *e, const pl_step *s, const dl_tid *tuple)
{
  return s->source == SRC_OLD && e->delta[s->pred].n && ix_tupleset_contains(&e->delta[s->pred], tuple);
}

enum {
  PEEK_TRIAL = 256,  /* look-aheads per run before judging them */
  PEEK_SKIPS = 16    /* skips they must make in the trial to go on */
};

/* Can a tuple of scan si lead nowhere, as the next step would look up one
 * of its values in a column that has never held it (see pl_step.peek)?
 * Where a run's first tests skip (almost) nothing, as in a chain's
 * closure, the rest of the run does not look. */
static inline int dead_end(frame *f, uint32_t si, const pl_step *s, const dl_tid *tuple)
{
  if (!s->peek || f->peeks[si].off) return 0;
  peek_count *pc = &f->peeks[si];
  int skip = !ix_relation_column_has(f->e->rel[f->pl->steps[si + 1].pred], s->peek_col, tuple[s->peek_from]);
  pc->skips += (uint32_t)skip;
  if (++pc->tries == PEEK_TRIAL) pc->off = pc->skips < PEEK_SKIPS;
  return skip;
}

/* Is a tuple that a full or old scan found to be passed over? */
static inline int passed_over(frame *f, uint32_t si, const pl_step *s, const dl_tid *tuple)
{
  return dead_end(f, si, s, tuple) || in_delta(f->e, s, tuple);
}

/* Walks the index of a full or old scan with an iterator. */
static COLD_PATH void scan_iter(frame *f, uint32_t si, const pl_step *s, const dl_tid *key, uint32_t n)
{
  dl_eval *e = f->e;
  dl_tid tuple[IX_MAX_ARITY];
  ix_iter it;
  begin_scan(e, s, &it, s->n_key, key);
  while (!witnessed(f, si) && !cancelled(e) && ix_iter_next(&it, tuple))
    if (!passed_over(f, si, s, tuple)) scan_tuple(f, si, s, tuple, n);
}

static int product_base(frame *f, const ix_factor *factors, uint32_t n_factors, dl_tid *base);

enum {
  RUN_AT_ONCE_FROM = 4,  /* run tuples staged at once at least (a chain's runs hold one) */
  RUN_SLICE = 4096       /* run tuples staged between two checks for a stop */
};

/* Stages the heads of a run's tuples at once (ix_relation_stage_run: a
 * dense head takes each tuple with one key addition); see emit_run. */
static inline void stage_run(frame *f, const ix_run *run, const dl_tid *head, const uint32_t *to_head)
{
  dl_eval *e = f->e;
  uint32_t pred = f->pl->head_pred;
  ix_relation *h = e->rel[pred];
  e->stats.derivations += run->n;
  if (!ix_relation_stage_run(h, head, run, to_head, f->mode == EMIT_LINEAR ? &e->fresh[pred] : NULL))
    dl_eval_fail_memory(e);
  else if (ix_relation_staged(h) >= STAGE_BATCH)
    dl_eval_flush_staged(e, pred, f->mode);
}

/* stage_run over a long run, RUN_SLICE tuples at a time, each slice a
 * poll's worth of work for a stop. */
static COLD_PATH void stage_run_slices(frame *f, const ix_run *run, const dl_tid *head, const uint32_t *to_head)
{
  for (uint64_t t = 0; t < run->n && !f->e->failed; t += RUN_SLICE) {
    ix_run slice = *run;
    slice.keys += t;
    slice.n = run->n - t < RUN_SLICE ? run->n - t : RUN_SLICE;
    stage_run(f, &slice, head, to_head);
    f->e->polls |= 4095;  /* the next call polls */
    if (cancelled(f->e)) return;
  }
}

/* The heads of the tuples of a run of a direct plan's last scan (see
 * pl_plan.direct): head[] holds the head columns the scan does not give,
 * its tuples give the others (its to_head).  Where the mode stages, a run
 * that is not short is staged at once (ix_relation_stage_run: a dense head
 * takes each tuple with one key addition); else tuple by tuple. */
static INLINE_PATH void emit_run(frame *f, const pl_step *s, const ix_run *run, dl_tid *head)
{
  dl_eval *e = f->e;
  const pl_plan *pl = f->pl;
  const uint32_t *to_head = pl->kids + s->to_head;
  f->found |= run->n > 0;
  if (f->mode != EMIT_FRESH && run->n >= RUN_AT_ONCE_FROM) {
    if (run->n <= RUN_SLICE) stage_run(f, run, head, to_head);
    else stage_run_slices(f, run, head, to_head);
    return;
  }
  uint32_t m = ix_relation_arity(e->rel[s->pred]);
  dl_tid tuple[IX_MAX_ARITY];
  for (uint64_t t = 0; t < run->n; t++) {
    if ((t & 4095) == 4095 && cancelled(e)) return;
    ix_run_tuple(run, t, tuple);
    for (uint32_t j = 0; j < m; j++)
      if (to_head[j] != PL_NONE) head[to_head[j]] = tuple[j];
    dl_eval_emit(e, pl->head_pred, f->mode, head);
  }
}

/* The heads of a direct plan's last scan, one per tuple of its run: the
 * columns it binds go straight to their head columns, the other head
 * columns are built once (as a product tail's base is, the scan standing
 * as its one factor). */
static void emit_run_heads(frame *f, const pl_step *s, const ix_run *run)
{
  ix_factor scan = { NULL, run->n, ix_relation_arity(f->e->rel[s->pred]), f->pl->kids + s->to_head };
  dl_tid head[IX_MAX_ARITY];
  if (product_base(f, &scan, 1, head)) emit_run(f, s, run, head);
}

/* Walks the index of a full or old scan with the key in key[]; a key that
 * binds every column is one membership test. */
static void scan_index(frame *f, uint32_t si, const pl_step *s, const dl_tid *key)
{
  dl_eval *e = f->e;
  const ix_relation *r = e->rel[s->pred];
  uint32_t n = ix_relation_arity(r);
  if (s->n_key == n) {
    if (ix_relation_contains(r, key) && !passed_over(f, si, s, key)) scan_tuple(f, si, s, key, n);
    return;
  }
  dl_tid tuple[IX_MAX_ARITY];
  ix_run run;
  if (!s->project && ix_relation_run(r, s->index, s->n_key, key, &run)) {
    if (f->pl->direct && si + 1 == f->pl->n_steps) {
      emit_run_heads(f, s, &run);
      return;
    }
    for (uint64_t i = 0; i < run.n && !witnessed(f, si) && !cancelled(e); i++) {
      ix_run_tuple(&run, i, tuple);
      if (!passed_over(f, si, s, tuple)) scan_tuple(f, si, s, tuple, n);
    }
    return;
  }
  scan_iter(f, si, s, key, n);
}

enum {
  FILTER_TRIAL = 1 << 12,  /* tests before judging a filter */
  FILTER_MARKS = 8         /* tuples marked per test at most, on average, for it to pay */
};

/* Does filter fl hold the codes for key, with r unchanged since? */
static int filter_current(const filter *fl, const ix_relation *r, const pl_step *s, const dl_tid *key, uint32_t n)
{
  if (!fl->valid || fl->size != ix_relation_size(r)) return 0;
  for (uint32_t i = 0; i < n; i++)
    if (i != s->filter_col && fl->key[i] != key[i]) return 0;
  return 1;
}

/* Makes filter fl hold the codes of key's tuples; 0 when it cannot (no
 * sorted run, or out of memory): then the test looks the tuple up. */
static int filter_make(filter *fl, const ix_relation *r, const pl_step *s, const dl_tid *key, uint32_t n)
{
  uint32_t n_codes = ix_relation_column_values(r, s->filter_col);
  ix_run run;
  if (!ix_relation_run(r, s->filter_index, n - 1, key, &run)) return 0;
  if (n_codes > fl->n_codes || !fl->bits) {
    uint32_t cap = n_codes > 2 * fl->n_codes ? n_codes : 2 * fl->n_codes;
    free(fl->bits);
    if (!(fl->bits = calloc(cap / 64 + 1, sizeof *fl->bits))) return fl->n_codes = fl->valid = 0;
    fl->n_codes = cap;
  } else if (fl->valid) {
    memset(fl->bits, 0, (fl->n_codes / 64 + 1) * sizeof *fl->bits);
  }
  ix_run_mark_codes(&run, s->filter_col, fl->bits);
  memcpy(fl->key, key, n * sizeof *key);
  fl->size = ix_relation_size(r);
  fl->valid = 1;
  fl->marked += run.n;
  return 1;
}

/* A whole-tuple test of a filter step: 1 when answered from its bits
 * (the tuple is there: on to the next step), 0 when the caller looks the
 * tuple up instead. */
static int filter_test(frame *f, uint32_t si, const pl_step *s, const dl_tid *key, uint32_t n)
{
  filter *fl = &f->filters[si];
  const ix_relation *r = f->e->rel[s->pred];
  if (fl->off || (!filter_current(fl, r, s, key, n) && !filter_make(fl, r, s, key, n))) return 0;
  if (++fl->tests == FILTER_TRIAL && fl->marked > FILTER_MARKS * fl->tests) fl->off = 1;
  uint32_t code = ix_relation_column_code(r, s->filter_col, key[s->filter_col]);
  if (code < fl->n_codes && fl->bits[code >> 6] >> (code & 63) & 1)
    scan_tuple(f, si, s, key, n);
  return 1;
}

/* Enumerates the terms that can match the step's partly known compound
 * column (from the term store's index by its known arguments), and scans
 * for each. */
static COLD_PATH void scan_enumerated(frame *f, uint32_t si, const pl_step *s, dl_tid *key)
{
  const pl_pat *ep = &f->pl->pats[s->enum_pat];
  const uint32_t *args = f->pl->kids + s->enum_args;
  dl_tid vals[s->n_enum_args];
  uint64_t mask = 0;
  for (uint32_t k = 0; k < s->n_enum_args; k++) {
    if ((vals[k] = build_fast(f, f->pl->kids[ep->first + args[k]], 0)) == DL_NO_TERM) return;
    mask |= (uint64_t)1 << (args[k] & 63);
  }
  uint32_t count;
  const dl_tid *list = s->n_enum_args == 1
                           ? dl_terms_with_arg(f->e->terms, ep->value, ep->n, args[0], vals[0], &count)
                           : dl_terms_with_args(f->e->terms, ep->value, ep->n, mask, vals, &count);
  if (count == DL_TERMS_NOMEM) {
    dl_eval_fail_memory(f->e);
    return;
  }
  if (count == 0) return;
  dl_tid local[64], *copy = count <= 64 ? local : malloc(count * sizeof *copy);  /* makes may move list */
  if (!copy) { dl_eval_fail_memory(f->e); return; }
  memcpy(copy, list, count * sizeof *copy);
  for (uint32_t i = 0; i < count && !f->e->failed && !witnessed(f, si); i++) {
    if (!match(f, s->enum_pat, copy[i])) continue;
    key[s->enum_col] = copy[i];
    scan_index(f, si, s, key);
  }
  if (copy != local) free(copy);
}

enum { MATCHED_MAX = 1 << 20 };  /* tuples an invariant scan keeps at most */

/* Collects the tuples invariant scan si matches; 0 when there are too many
 * to keep (or no memory): then the scan runs as usual. */
static COLD_PATH int collect_matched(frame *f, const pl_step *s, matched *m, uint32_t n)
{
  dl_tid tuple[IX_MAX_ARITY];
  ix_iter it;
  begin_scan(f->e, s, &it, 0, NULL);
  m->state = 2;
  while (ix_iter_next(&it, tuple)) {
    if (in_delta(f->e, s, tuple) || !matches(f, s, tuple, n)) continue;
    if (m->n == MATCHED_MAX) return 0;
    if (m->n == m->cap) {
      uint64_t cap = m->cap ? 2 * m->cap : 64;
      dl_tid *q = realloc(m->tuples, cap * n * sizeof *q);
      if (!q) return 0;
      m->tuples = q;
      m->cap = cap;
    }
    memcpy(m->tuples + m->n++ * n, tuple, n * sizeof *tuple);
  }
  m->state = 1;
  return 1;
}

/* An invariant scan: its matching tuples, collected on the first visit. */
static int scan_matched(frame *f, uint32_t si, const pl_step *s, uint32_t n)
{
  matched *m = &f->matched[si];
  if (m->state == 0 && !collect_matched(f, s, m, n)) {
    free(m->tuples);
    m->tuples = NULL;
    m->n = m->cap = 0;
  }
  if (m->state != 1) return 0;
  for (uint64_t t = 0; t < m->n && !witnessed(f, si) && !cancelled(f->e); t++) scan_tuple(f, si, s, m->tuples + t * n, n);
  return 1;
}

static void scan(frame *f, uint32_t si, const pl_step *s)
{
  dl_eval *e = f->e;
  uint32_t n = ix_relation_arity(e->rel[s->pred]);
  if (s->invariant && f->matched && scan_matched(f, si, s, n)) return;
  if (s->source == SRC_DELTA) {
    const ix_tupleset *d = &e->delta[s->pred];
    for (uint64_t t = 0; t < d->n && !witnessed(f, si) && !cancelled(e); t++)
      if (!dead_end(f, si, s, ix_tupleset_get(d, t))) scan_tuple(f, si, s, ix_tupleset_get(d, t), n);
    return;
  }
  dl_tid key[IX_MAX_ARITY];
  const uint32_t *kp = f->pl->kids + s->key;
  for (uint32_t i = 0; i < n; i++)
    if (kp[i] != PL_NONE && (key[i] = build_fast(f, kp[i], 0)) == DL_NO_TERM) return;
  if (s->enum_col != PL_NONE) scan_enumerated(f, si, s, key);
  else if (!s->filter || !f->filters || !filter_test(f, si, s, key, n)) scan_index(f, si, s, key);
}

enum { PRODUCT_MAX = 1 << 12 };  /* heads a product tail stages at once at most */

_Static_assert(PL_NONE == IX_NO_COLUMN, "a tail step's to_head list serves as a factor's column list");

/* The tuples of scans from.. of the product tail as factors; their
 * product's size, 0 when it is empty, too large or not collected (then the
 * scans run as usual). */
static uint64_t product_factors(frame *f, uint32_t from, ix_factor *factors)
{
  const pl_plan *pl = f->pl;
  uint64_t product = 1;
  for (uint32_t si = from; si < pl->n_steps; si++) {
    const pl_step *s = &pl->steps[si];
    matched *m = &f->matched[si];
    uint32_t width = ix_relation_arity(f->e->rel[s->pred]);
    if (m->state == 0 && !collect_matched(f, s, m, width)) return 0;
    if (m->state != 1 || (product *= m->n) > PRODUCT_MAX) return 0;
    factors[si - from] = (ix_factor){ m->tuples, m->n, width, pl->kids + s->to_head };
  }
  return product;
}

/* The head columns that no factor gives, into base (0 in the others); 0
 * when a term cannot be made (reported). */
static int product_base(frame *f, const ix_factor *factors, uint32_t n_factors, dl_tid *base)
{
  const pl_plan *pl = f->pl;
  uint32_t arity = ix_relation_arity(f->e->rel[pl->head_pred]);
  for (uint32_t i = 0; i < arity; i++) base[i] = DL_NO_TERM;
  for (uint32_t k = 0; k < n_factors; k++)
    for (uint32_t j = 0; j < factors[k].width; j++)
      if (factors[k].column[j] != IX_NO_COLUMN) base[factors[k].column[j]] = 0;
  for (uint32_t i = 0; i < arity; i++)
    if (base[i] == DL_NO_TERM && (base[i] = build_fast(f, pl->kids[pl->head + i], 1)) == DL_NO_TERM) {
      dl_eval_fail_term(f->e, pl->head_pred);
      return 0;
    }
  return 1;
}

/* In the product tail (see pl_plan.tail), at step from: stages the heads of
 * every combination of the tuples of scans from.. at once.  0 when it
 * cannot (too many heads, or heads the relation reads this round): then
 * scan `from` runs as usual, and the product is tried again after it. */
static COLD_PATH int emit_product(frame *f, uint32_t from)
{
  dl_eval *e = f->e;
  const pl_plan *pl = f->pl;
  if (cancelled(e)) return 1;
  if (f->mode == EMIT_FRESH || !f->matched) return 0;
  ix_factor factors[IX_MAX_ARITY];
  uint32_t n_factors = pl->n_steps - from;
  uint64_t product = product_factors(f, from, factors);
  if (product == 0) return 0;
  dl_tid base[IX_MAX_ARITY];
  if (!product_base(f, factors, n_factors, base)) return 1;
  ix_relation *r = e->rel[pl->head_pred];
  ix_tupleset *added = f->mode == EMIT_LINEAR ? &e->fresh[pl->head_pred] : NULL;
  if (!ix_relation_stage_product(r, base, factors, n_factors, added, NULL)) dl_eval_fail_memory(e);
  else if (ix_relation_staged(r) >= STAGE_BATCH) dl_eval_flush_staged(e, pl->head_pred, f->mode);
  e->stats.derivations += product;
  e->stats.in_products += product;
  f->found = 1;
  return 1;
}

/* At the cut, before a witness search: is the head there already?  Then
 * the search cannot add anything (in chess's G+, six rules derive the same
 * threatened_with_capture atoms).  Given up when that is rare (f->known.off,
 * which the caller reads, as it reads whether a search follows at all). */
static COLD_PATH int head_known(frame *f)
{
  const ix_relation *r = f->e->rel[f->pl->head_pred];
  uint32_t n = ix_relation_arity(r);
  dl_tid tuple[IX_MAX_ARITY];
  if (!build_head(f, n, 0, tuple)) return 0;
  int known = ix_relation_contains(r, tuple);
  judge_seen(&f->known, known);
  return known;
}

static void run_step(frame *f, uint32_t si)
{
  if (si == f->pl->cut) {
    f->found = 0;
    if (si < f->pl->n_steps && !f->known.off && head_known(f)) return;
  }
  if (si == f->pl->n_steps) {
    emit(f);
    return;
  }
  if (si >= f->pl->tail && emit_product(f, si)) return;
  const pl_step *s = &f->pl->steps[si];
  dl_tid tuple[IX_MAX_ARITY];
  switch (s->kind) {
  case S_SCAN:
    scan(f, si, s);
    return;
  case S_NEG:
    for (uint32_t i = 0; i < ix_relation_arity(f->e->rel[s->pred]); i++)
      if ((tuple[i] = build_fast(f, f->pl->kids[s->cols + i], 0)) == DL_NO_TERM) {
        run_step(f, si + 1);  /* the term does not exist, so neither does the atom */
        return;
      }
    if (!ix_relation_contains(f->e->rel[s->pred], tuple)) run_step(f, si + 1);
    return;
  case S_DISTINCT:
  case S_EQUAL:
  {
    dl_tid a = build_fast(f, s->a, 1), b = build_fast(f, s->b, 1);
    if (a == DL_NO_TERM || b == DL_NO_TERM) dl_eval_fail_term(f->e, f->pl->head_pred);
    else if ((a != b) == (s->kind == S_DISTINCT)) run_step(f, si + 1);
    return;
  }
  }
}

/* ---- a delta joined with one lookup ---------------------------------------------- */

/* Is the plan a delta's scan and then one lookup that gives the rest of the
 * head (pl_plan.direct)?  given[j]: head column j comes from the lookup's
 * tuples; *binds_only: the delta's columns only bind variables.
 * Transitive closures, reachability and same generation are of this shape. */
static int delta_lookup_shape(const frame *f, uint8_t *given, int *binds_only)
{
  const pl_plan *pl = f->pl;
  const dl_eval *e = f->e;
  if (pl->n_steps != 2 || !pl->direct || pl->tail < 2 || pl->cut < 2) return 0;
  const pl_step *d = &pl->steps[0], *s = &pl->steps[1];
  if (d->kind != S_SCAN || d->source != SRC_DELTA || d->n_live || d->invariant) return 0;
  if (s->kind != S_SCAN || s->source == SRC_DELTA || s->project || s->enum_col != PL_NONE || s->n_live ||
      s->invariant || s->filter || s->n_key >= ix_relation_arity(e->rel[s->pred]))
    return 0;
  const uint32_t *cols = pl->kids + d->cols, *to_head = pl->kids + s->to_head;
  *binds_only = 1;
  for (uint32_t i = 0; i < ix_relation_arity(e->rel[d->pred]); i++)
    *binds_only &= cols[i] == PL_NONE || pl->pats[cols[i]].kind == P_BIND;
  memset(given, 0, ix_relation_arity(e->rel[pl->head_pred]));
  for (uint32_t i = 0; i < ix_relation_arity(e->rel[s->pred]); i++)
    if (to_head[i] != PL_NONE) given[to_head[i]] = 1;
  return 1;
}

/* Builds the n values of patterns pats[] that are not PL_NONE (make: terms
 * are made) into out[]; 0 when a term does not exist (or cannot be made). */
static int build_some(const frame *f, const uint32_t *pats, uint32_t n, const uint8_t *skip, int make, dl_tid *out)
{
  for (uint32_t i = 0; i < n; i++)
    if (pats[i] != PL_NONE && !(skip && skip[i]) && (out[i] = build_fast(f, pats[i], make)) == DL_NO_TERM) return 0;
  return 1;
}

/* The heads of the lookup's run for the delta tuple matched in the frame
 * (key: the lookup's bound columns); the head columns the run does not
 * give (given[j] 0) are built once, when it has tuples. */
static void emit_lookup_heads(frame *f, const pl_step *s, const dl_tid *key, const uint8_t *given)
{
  dl_eval *e = f->e;
  const pl_plan *pl = f->pl;
  const ix_relation *r = e->rel[s->pred];
  ix_run run;
  if (!ix_relation_run(r, s->index, s->n_key, key, &run)) {
    scan_index(f, 1, s, key);
    return;
  }
  dl_tid head[IX_MAX_ARITY];
  if (run.n == 0) return;
  if (!build_some(f, pl->kids + pl->head, ix_relation_arity(e->rel[pl->head_pred]), given, 1, head)) {
    dl_eval_fail_term(e, pl->head_pred);
    return;
  }
  emit_run(f, s, &run, head);
}

enum {
  JOIN_SLICE = 4096,      /* delta tuples joined at once between two checks for a stop, */
  JOIN_BUDGET = 1 << 16   /*   or fewer once they derived that many heads */
};

/* The delta column that binds pattern p (a variable of the delta), or
 * IX_NO_COLUMN. */
static uint32_t delta_column(const frame *f, uint32_t p)
{
  const pl_plan *pl = f->pl;
  const uint32_t *cols = pl->kids + pl->steps[0].cols;
  if (pl->pats[p].kind == P_CONST || pl->pats[p].kind == P_FUN) return IX_NO_COLUMN;
  for (uint32_t i = 0; i < ix_relation_arity(f->e->rel[pl->steps[0].pred]); i++)
    if (cols[i] != PL_NONE && pl->pats[cols[i]].value == pl->pats[p].value) return i;
  return IX_NO_COLUMN;
}

/* Describes a plan of delta_lookup_shape whose delta only binds variables
 * as an ix_join, into *j (head_from and base with room for the head's
 * arity): its lookup binds one column to a delta variable, and each head
 * column the lookup does not give is a delta variable or a constant.
 * 0 when the plan is not of that form. */
static int join_of(const frame *f, const uint8_t *given, ix_join *j, uint32_t *head_from, dl_tid *base)
{
  const pl_plan *pl = f->pl;
  const pl_step *s = &pl->steps[1];
  const uint32_t *key = pl->kids + s->key, *head = pl->kids + pl->head;
  if (s->n_key != 1 || f->mode == EMIT_FRESH || s->pred == pl->head_pred) return 0;
  *j = (ix_join){ f->e->rel[s->pred], s->index, IX_NO_COLUMN, pl->kids + s->to_head, head_from, base };
  for (uint32_t c = 0; c < ix_relation_arity(j->run_rel); c++)
    if (key[c] != PL_NONE && (j->key_from = delta_column(f, key[c])) == IX_NO_COLUMN) return 0;
  for (uint32_t c = 0; c < ix_relation_arity(f->e->rel[pl->head_pred]); c++) {
    head_from[c] = IX_NO_COLUMN;
    base[c] = given[c] || pl->pats[head[c]].kind != P_CONST ? 0 : pl->pats[head[c]].value;
    if (given[c] || pl->pats[head[c]].kind == P_CONST) continue;
    if ((head_from[c] = delta_column(f, head[c])) == IX_NO_COLUMN) return 0;
  }
  return j->key_from != IX_NO_COLUMN;
}

/* Stages the heads of a delta_lookup_shape plan of join_of's form through
 * ix_relation_stage_join, a slice of the delta at a time; *at is left at
 * the first delta tuple it did not stage (the delta's end when it did all,
 * 0 when the plan is not of that form). */
static void join_at_once(frame *f, const uint8_t *given, uint64_t *at)
{
  dl_eval *e = f->e;
  const pl_plan *pl = f->pl;
  ix_join j;
  uint32_t head_from[IX_MAX_ARITY];
  dl_tid base[IX_MAX_ARITY];
  if (!join_of(f, given, &j, head_from, base)) return;
  const ix_tupleset *delta = &e->delta[pl->steps[0].pred];
  ix_tupleset *added = f->mode == EMIT_LINEAR ? &e->fresh[pl->head_pred] : NULL;
  while (*at < delta->n) {
    uint64_t to = delta->n - *at > JOIN_SLICE ? *at + JOIN_SLICE : delta->n, d0 = e->stats.derivations;
    int rc = ix_relation_stage_join(e->rel[pl->head_pred], &j, delta, at, to, JOIN_BUDGET, added,
                                    &e->stats.derivations);
    f->found |= e->stats.derivations > d0;
    if (rc < 0) dl_eval_fail_memory(e);
    if (rc <= 0) return;
    if (ix_relation_staged(e->rel[pl->head_pred]) >= STAGE_BATCH) dl_eval_flush_staged(e, pl->head_pred, f->mode);
    e->polls |= 4095;  /* the next call polls */
    if (cancelled(e)) {
      *at = delta->n;
      return;
    }
  }
}

/* Runs a plan of delta_lookup_shape as one loop over the delta, without
 * run_step's recursion and with the head's other columns built once per
 * delta tuple that finds tuples; 0 when the plan is not of that shape. */
static int run_delta_lookup(frame *f)
{
  uint8_t given[IX_MAX_ARITY];
  int binds_only;
  if (!delta_lookup_shape(f, given, &binds_only)) return 0;
  dl_eval *e = f->e;
  const pl_plan *pl = f->pl;
  const pl_step *d = &pl->steps[0], *s = &pl->steps[1];
  const ix_tupleset *delta = &e->delta[d->pred];
  const uint32_t *cols = pl->kids + d->cols;
  uint32_t n = ix_relation_arity(e->rel[d->pred]), m = ix_relation_arity(e->rel[s->pred]);
  dl_tid key[IX_MAX_ARITY];
  uint64_t t = 0;
  if (binds_only) join_at_once(f, given, &t);
  for (; t < delta->n && !e->failed && !cancelled(e); t++) {
    const dl_tid *tuple = ix_tupleset_get(delta, t);
    if (dead_end(f, 0, d, tuple)) continue;
    if (!binds_only && !matches(f, d, tuple, n)) continue;
    for (uint32_t i = 0; binds_only && i < n; i++)
      if (cols[i] != PL_NONE) f->env[pl->pats[cols[i]].value] = tuple[i];
    if (build_some(f, pl->kids + s->key, m, NULL, 0, key)) emit_lookup_heads(f, s, key, given);  /* else no such term */
  }
  return 1;
}

/* Allocates the frame's per-step sets of a plan run, for the plans that
 * have steps needing them; 0 when out of memory. */
static int frame_open(frame *f)
{
  const pl_plan *pl = f->pl;
  int any_live = 0, any_invariant = pl->tail < pl->n_steps, any_filter = 0, any_peek = 0;
  for (uint32_t si = 0; si < pl->n_steps; si++) {
    any_live |= pl->steps[si].n_live != 0;
    any_invariant |= pl->steps[si].invariant;
    any_filter |= pl->steps[si].filter;
    any_peek |= pl->steps[si].peek;
  }
  if (any_filter && !(f->filters = calloc(pl->n_steps, sizeof *f->filters))) return 0;
  if (any_peek && !(f->peeks = calloc(pl->n_steps, sizeof *f->peeks))) return 0;
  if (any_live && !(f->seen = calloc(pl->n_steps, sizeof *f->seen))) return 0;
  for (uint32_t si = 0; f->seen && si < pl->n_steps; si++) ix_tupleset_init(&f->seen[si].set, pl->steps[si].n_live);
  return !any_invariant || (f->matched = calloc(pl->n_steps, sizeof *f->matched)) != NULL;
}

static void frame_close(frame *f)
{
  for (uint32_t si = 0; f->seen && si < f->pl->n_steps; si++) {
    ix_tupleset_free(&f->seen[si].set);
    free(f->seen[si].found);
  }
  for (uint32_t si = 0; f->matched && si < f->pl->n_steps; si++) free(f->matched[si].tuples);
  for (uint32_t si = 0; f->filters && si < f->pl->n_steps; si++) free(f->filters[si].bits);
  free(f->seen);
  free(f->matched);
  free(f->filters);
  free(f->peeks);
}

int dl_eval_run_plan(dl_eval *e, const pl_plan *pl, int mode)
{
  dl_tid env[pl->n_vars + 1];
  frame f = { .e = e, .pl = pl, .env = env, .mode = mode };
  if (!frame_open(&f)) dl_eval_fail_memory(e);
  else if (!run_delta_lookup(&f)) run_step(&f, 0);
  frame_close(&f);
  e->polls = 4095;
  return !cancelled(e);
}
