/* eval.c: semi-naive bottom-up evaluation over Judy-indexed relations (see
 * eval.h).  A rule version is compiled to a plan: a list of steps (scan an
 * atom, test a negation, test distinct) over a frame of variable slots,
 * followed by the head.  Terms are ids throughout; compound arguments are
 * matched against the term store. */
#include "datalog/eval.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "index/tupleset.h"

/* ---- plans ------------------------------------------------------------------ */

enum pat_kind {
  P_CONST,  /* value: term id */
  P_BIND,   /* value: slot, bound by this match */
  P_READ,   /* value: slot, bound before (read, or compared when matching) */
  P_FUN     /* value: function symbol; n children from kids[first] */
};

typedef struct pat {
  uint8_t kind;
  uint32_t value;
  uint32_t n, first;  /* P_FUN: children are pats[kids[first .. first+n)] */
} pat;

enum step_kind { S_SCAN, S_NEG, S_DISTINCT, S_EQUAL };
enum source { SRC_FULL, SRC_DELTA, SRC_OLD };

#define NO_PAT UINT32_MAX

typedef struct step {
  uint8_t kind;
  uint8_t source;       /* S_SCAN: which tuples of the relation */
  uint32_t pred;
  int index;            /* S_SCAN over FULL/OLD: the index used */
  uint32_t n_key;       /* S_SCAN: number of bound columns */
  uint32_t key;         /* S_SCAN: per column a build pattern (bound) or NO_PAT, at kids[key] */
  uint32_t cols;        /* S_SCAN: per column a match pattern or NO_PAT, at kids[cols];
                           S_NEG: per column a build pattern */
  uint32_t a, b;        /* S_DISTINCT, S_EQUAL: the two patterns */
  uint32_t enum_col;    /* S_SCAN: a column whose compound pattern has a known argument, */
  uint32_t enum_pat;    /*   enumerated from the term store's argument index, */
  uint32_t enum_arg;    /*   by that argument; NO_PAT when none */
} step;

typedef struct plan {
  step *steps;
  uint32_t n_steps, cap_steps;
  pat *pats;
  uint32_t n_pats, cap_pats;
  uint32_t *kids;       /* pattern lists */
  uint32_t n_kids, cap_kids;
  uint32_t head;        /* head patterns at kids[head] */
  uint32_t head_pred;
  uint32_t n_vars;
  uint32_t cut;         /* steps from here on bind no head variable: one witness is enough */
} plan;

/* ---- evaluator state ---------------------------------------------------------- */

struct dl_eval {
  const dl_program *prog;
  dl_terms *terms;
  dl_diag *diag;
  dl_eval_options opt;
  ix_relation **rel;        /* per predicate */
  ix_tupleset *delta;       /* per predicate: last round's new tuples */
  ix_tupleset *fresh;       /* per predicate: this round's new tuples */
  uint8_t *in_scc;          /* per predicate: member of the component being run */
  uint32_t *rule_start, *rule_order;  /* rules grouped by head component */
  uint64_t atoms;
  uint32_t polls;           /* steps since the cancel flag was read */
  int failed;
  dl_eval_stats stats;
};

/* Where a rule's new tuples go. */
enum emit_mode {
  EMIT_DIRECT,   /* into the relation: nothing reads it while its component runs */
  EMIT_FRESH,    /* into this round's fresh set: the relation is read this round */
  EMIT_LINEAR    /* into the relation and the fresh list: only deltas are read */
};

typedef struct frame {
  dl_eval *e;
  const plan *pl;
  dl_tid *env;              /* variable slots */
  int mode;                 /* where heads go: an emit_mode */
  int found;                /* a head was emitted since the plan's cut step began */
} frame;

/* ---- plan building ------------------------------------------------------------ */

static int plan_reserve(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
  if (need <= *cap) return 1;
  uint32_t c = *cap ? *cap * 2 : 32;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * elem);
  if (!q) return 0;
  *p = q;
  *cap = c;
  return 1;
}

static uint32_t new_kids(plan *pl, uint32_t n)
{
  if (!plan_reserve((void **)&pl->kids, &pl->cap_kids, pl->n_kids + n + 1, sizeof(uint32_t))) return NO_PAT;
  uint32_t at = pl->n_kids;
  pl->n_kids += n;
  return at;
}

static uint32_t new_pat(plan *pl, uint8_t kind, uint32_t value)
{
  if (!plan_reserve((void **)&pl->pats, &pl->cap_pats, pl->n_pats + 1, sizeof(pat))) return NO_PAT;
  pat p = { kind, value, 0, 0 };
  pl->pats[pl->n_pats] = p;
  return pl->n_pats++;
}

/* Compiles term t.  Variables in bound[] read their slot; others are bound
 * here (first occurrence) and marked.  Ground terms become constants. */
static uint32_t compile_term(plan *pl, dl_terms *terms, const ast_term *t, uint8_t *bound)
{
  if (t->kind == AST_SYM) return new_pat(pl, P_CONST, dl_terms_constant(terms, t->value));
  if (t->kind == AST_VAR) {
    uint8_t kind = bound[t->value] ? P_READ : P_BIND;
    bound[t->value] = 1;
    return new_pat(pl, kind, t->value);
  }
  uint32_t kids = new_kids(pl, t->n), ground = 1;
  if (kids == NO_PAT) return NO_PAT;
  for (uint32_t i = 0; i < t->n; i++) {
    uint32_t k = compile_term(pl, terms, t->args[i], bound);
    if (k == NO_PAT) return NO_PAT;
    pl->kids[kids + i] = k;
    ground &= pl->pats[k].kind == P_CONST;
  }
  if (ground) {
    dl_tid args[t->n];
    for (uint32_t i = 0; i < t->n; i++) args[i] = pl->pats[pl->kids[kids + i]].value;
    dl_tid id = dl_terms_make(terms, t->value, t->n, args);
    return id == DL_NO_TERM ? NO_PAT : new_pat(pl, P_CONST, id);
  }
  uint32_t p = new_pat(pl, P_FUN, t->value);
  if (p == NO_PAT) return NO_PAT;
  pl->pats[p].n = t->n;
  pl->pats[p].first = kids;
  return p;
}

static int all_bound(const ast_term *t, const uint8_t *bound)
{
  if (t->kind == AST_VAR) return bound[t->value];
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (!all_bound(t->args[i], bound)) return 0;
  return 1;
}

static const ast_term *atom_arg(const ast_term *a, uint32_t i) { return a->args[i]; }

static step *new_step(plan *pl, uint8_t kind)
{
  if (!plan_reserve((void **)&pl->steps, &pl->cap_steps, pl->n_steps + 1, sizeof(step))) return NULL;
  step *s = &pl->steps[pl->n_steps++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  return s;
}

/* The position of an argument of compound term t that is known before a
 * scan (ground, or its variables bound), through which the term store can
 * enumerate the candidates for t; -1 when there is none. */
static int probe_position(const ast_term *t, const uint8_t *bound)
{
  if (t->kind != AST_FUN || !dl_terms_arg_indexable(t->value, t->n, 0)) return -1;
  for (uint32_t j = 0; j < t->n; j++)
    if (all_bound(t->args[j], bound)) return (int)j;
  return -1;
}

/* Adds a scan of atom a (predicate pred) reading `source`.  Columns whose
 * terms are known go into the index key.  One column with a compound
 * pattern that is only partly known, like cell(X,Y,P) with X bound, is
 * enumerated from the term store and then also looked up by key. */
static int add_scan(dl_eval *e, plan *pl, const ast_term *a, uint32_t pred, uint8_t source, uint8_t *bound)
{
  uint32_t n = ast_atom_arity(a);
  uint64_t mask = 0;
  int enum_col = -1, enum_arg = -1;
  for (uint32_t i = 0; i < n && source != SRC_DELTA; i++) {
    if (all_bound(atom_arg(a, i), bound)) mask |= (uint64_t)1 << i;
    else if (enum_col < 0 && (enum_arg = probe_position(atom_arg(a, i), bound)) >= 0) enum_col = (int)i;
  }
  uint32_t key = new_kids(pl, n), cols = new_kids(pl, n);
  step *s = new_step(pl, S_SCAN);
  if (!s || key == NO_PAT || cols == NO_PAT) return 0;
  size_t at = (size_t)(s - pl->steps);
  s->source = source;
  s->pred = pred;
  s->key = key;
  s->cols = cols;
  s->enum_col = s->enum_pat = s->enum_arg = NO_PAT;
  uint64_t known = mask;  /* the columns bound before the step */
  if (enum_col >= 0) {
    uint32_t p = compile_term(pl, e->terms, atom_arg(a, (uint32_t)enum_col), bound);
    if (p == NO_PAT) return 0;
    pl->steps[at].enum_col = (uint32_t)enum_col;
    pl->steps[at].enum_pat = p;
    pl->steps[at].enum_arg = (uint32_t)enum_arg;
    pl->kids[key + (uint32_t)enum_col] = pl->kids[cols + (uint32_t)enum_col] = NO_PAT;
    mask |= (uint64_t)1 << enum_col;
  }
  for (uint32_t i = 0; i < n; i++) {
    if ((int)i == enum_col) continue;
    uint32_t p = compile_term(pl, e->terms, atom_arg(a, i), bound);
    if (p == NO_PAT) return 0;
    int in_key = known >> i & 1;
    pl->kids[key + i] = in_key ? p : NO_PAT;
    pl->kids[cols + i] = in_key ? NO_PAT : p;
    pl->steps[at].n_key += (uint32_t)in_key;
  }
  pl->steps[at].n_key += enum_col >= 0;
  pl->steps[at].index = 0;
  if (source != SRC_DELTA && (pl->steps[at].index = ix_relation_index(e->rel[pred], mask)) < 0) return 0;
  return 1;
}

static int add_test(dl_eval *e, plan *pl, const dl_literal *l, uint32_t pred, uint8_t *bound)
{
  step *s = new_step(pl, l->kind == DL_NEG ? S_NEG : l->kind == DL_DISTINCT ? S_DISTINCT : S_EQUAL);
  if (!s) return 0;
  size_t at = (size_t)(s - pl->steps);
  if (l->kind != DL_NEG) {
    uint32_t a = compile_term(pl, e->terms, l->a, bound), b = compile_term(pl, e->terms, l->b, bound);
    pl->steps[at].a = a;
    pl->steps[at].b = b;
    return a != NO_PAT && b != NO_PAT;
  }
  uint32_t n = ast_atom_arity(l->atom), cols = new_kids(pl, n);
  if (cols == NO_PAT) return 0;
  pl->steps[at].pred = pred;
  pl->steps[at].cols = cols;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t p = compile_term(pl, e->terms, atom_arg(l->atom, i), bound);  /* may move pl->kids */
    if (p == NO_PAT) return 0;
    pl->kids[cols + i] = p;
  }
  return 1;
}

static int lit_bound(const dl_literal *l, const uint8_t *bound)
{
  if (l->kind == DL_NEG) return all_bound(l->atom, bound);
  if (l->kind == DL_POS) return 0;
  return all_bound(l->a, bound) && all_bound(l->b, bound);
}

/* Expected matches of a positive atom given what is bound: the relation's
 * size divided by the distinct values of each bound column. */
static double estimate(const dl_eval *e, const ast_term *a, uint32_t pred, uint8_t source, const uint8_t *bound)
{
  double size = source == SRC_DELTA ? (double)e->delta[pred].n : (double)ix_relation_size(e->rel[pred]);
  for (uint32_t i = 0; i < ast_atom_arity(a); i++) {
    if (!all_bound(atom_arg(a, i), bound) && (source == SRC_DELTA || probe_position(atom_arg(a, i), bound) < 0))
      continue;
    uint32_t v = ix_relation_column_values(e->rel[pred], i);
    size /= v ? v : 1;
  }
  return size;
}

/* The source of body atom k in version `delta_at` (-1: all full). */
static uint8_t source_of(const dl_eval *e, const uint32_t *preds, uint32_t k, int delta_at)
{
  if (delta_at < 0 || !e->in_scc[preds[k]]) return SRC_FULL;
  if ((int)k == delta_at) return SRC_DELTA;
  return (int)k < delta_at ? SRC_OLD : SRC_FULL;
}

/* Marks the first step after which every head variable is bound: the steps
 * from there on only look for a witness, and one is enough. */
static void mark_cut(plan *pl, const dl_rule *rule, const uint8_t *bound)
{
  if (pl->cut == UINT32_MAX && all_bound(rule->head, bound)) pl->cut = pl->n_steps;
}

/* Plans rule r with the delta at body literal delta_at (-1: none). */
static int build_plan(dl_eval *e, uint32_t r, int delta_at, plan *pl)
{
  const dl_rule *rule = &e->prog->ast->rules[r];
  const uint32_t *preds = e->prog->lit_pred[r];
  uint8_t bound[rule->n_vars + 1], placed[rule->n_body + 1];
  memset(bound, 0, sizeof bound);
  memset(placed, 0, sizeof placed);
  pl->n_vars = rule->n_vars;
  pl->head_pred = e->prog->head_pred[r];
  pl->cut = UINT32_MAX;
  mark_cut(pl, rule, bound);
  if (delta_at >= 0) {
    placed[delta_at] = 1;
    if (!add_scan(e, pl, rule->body[delta_at].atom, preds[delta_at], SRC_DELTA, bound)) return 0;
    mark_cut(pl, rule, bound);
  }
  for (;;) {
    for (uint32_t k = 0; k < rule->n_body; k++)
      if (!placed[k] && lit_bound(&rule->body[k], bound)) {
        placed[k] = 1;
        if (!add_test(e, pl, &rule->body[k], preds[k], bound)) return 0;
        mark_cut(pl, rule, bound);
      }
    int best = -1;
    double best_cost = 0;
    for (uint32_t k = 0; k < rule->n_body; k++) {
      if (placed[k] || rule->body[k].kind != DL_POS) continue;
      double c = estimate(e, rule->body[k].atom, preds[k], source_of(e, preds, k, delta_at), bound);
      if (best < 0 || c < best_cost) { best = (int)k; best_cost = c; }
    }
    if (best < 0) break;
    placed[best] = 1;
    if (!add_scan(e, pl, rule->body[best].atom, preds[best], source_of(e, preds, (uint32_t)best, delta_at), bound))
      return 0;
    mark_cut(pl, rule, bound);
  }
  uint32_t n = ast_atom_arity(rule->head);
  if ((pl->head = new_kids(pl, n)) == NO_PAT) return 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t p = compile_term(pl, e->terms, atom_arg(rule->head, i), bound);  /* may move pl->kids */
    if (p == NO_PAT) return 0;
    pl->kids[pl->head + i] = p;
  }
  return 1;
}

static void plan_free(plan *pl)
{
  free(pl->steps);
  free(pl->pats);
  free(pl->kids);
  memset(pl, 0, sizeof *pl);
}

/* ---- pattern execution ----------------------------------------------------------- */

/* The term of a pattern whose variables are bound; created when `make`,
 * else looked up (DL_NO_TERM when it does not exist). */
static dl_tid build(const frame *f, uint32_t p, int make)
{
  const pat *pt = &f->pl->pats[p];
  if (pt->kind == P_CONST) return pt->value;
  if (pt->kind != P_FUN) return f->env[pt->value];
  dl_tid args[pt->n];
  for (uint32_t i = 0; i < pt->n; i++)
    if ((args[i] = build(f, f->pl->kids[pt->first + i], make)) == DL_NO_TERM) return DL_NO_TERM;
  return make ? dl_terms_make(f->e->terms, pt->value, pt->n, args)
              : dl_terms_find(f->e->terms, pt->value, pt->n, args);
}

/* build(f, p, 1) without a call for a variable or a constant. */
static inline dl_tid build_fast(const frame *f, uint32_t p)
{
  const pat *pt = &f->pl->pats[p];
  if (pt->kind == P_READ || pt->kind == P_BIND) return f->env[pt->value];
  return pt->kind == P_CONST ? pt->value : build(f, p, 1);
}

/* Matches term t against pattern p, binding its P_BIND variables. */
static int match(const frame *f, uint32_t p, dl_tid t)
{
  const pat *pt = &f->pl->pats[p];
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

static void fail_limit(dl_eval *e, uint32_t pred)
{
  e->failed = 1;
  dl_diag_report(e->diag, DL_ERROR, NULL, 0,
                 "the model grew beyond %llu atoms while deriving '%s' (the model may be infinite, "
                 "e.g. function terms in recursion); raise the limit with --max-atoms",
                 (unsigned long long)e->opt.max_atoms, dl_program_pred_name(e->prog, pred));
}

static void fail_memory(dl_eval *e);

/* A head term could not be made: too deep, or out of memory. */
static void fail_term(dl_eval *e, uint32_t pred)
{
  if (!dl_terms_too_deep(e->terms)) {
    fail_memory(e);
    return;
  }
  e->failed = 1;
  dl_diag_report(e->diag, DL_ERROR, NULL, 0,
                 "a term nests deeper than %d levels while deriving '%s' (the model is likely infinite: "
                 "function terms in recursion)", DL_MAX_TERM_DEPTH, dl_program_pred_name(e->prog, pred));
}

static void fail_memory(dl_eval *e)
{
  e->failed = 1;
  dl_diag_report(e->diag, DL_ERROR, NULL, 0, "out of memory during evaluation");
}

/* Stops the evaluation when the caller's cancel flag is set; checked every
 * few thousand steps so that a long join stops promptly. */
static int cancelled(dl_eval *e)
{
  if ((++e->polls & 4095) || !e->opt.cancel || !*e->opt.cancel) return e->failed;
  if (!e->failed) dl_diag_report(e->diag, DL_ERROR, NULL, 0, "interrupted");
  e->failed = 1;
  return 1;
}

enum { STAGE_BATCH = 1 << 20 };  /* tuples staged before a sorted insert */

/* Inserts the tuples staged for pred and counts the new ones. */
static void flush_staged(dl_eval *e, uint32_t pred)
{
  int64_t added = ix_relation_flush(e->rel[pred]);
  if (added < 0) {
    fail_memory(e);
    return;
  }
  e->atoms += (uint64_t)added;
  if (e->opt.max_atoms && e->atoms > e->opt.max_atoms) fail_limit(e, pred);
}

static void emit(frame *f)
{
  dl_eval *e = f->e;
  const plan *pl = f->pl;
  uint32_t n = ix_relation_arity(e->rel[pl->head_pred]);
  dl_tid tuple[IX_MAX_ARITY];
  for (uint32_t i = 0; i < n; i++)
    if ((tuple[i] = build_fast(f, pl->kids[pl->head + i])) == DL_NO_TERM) {
      fail_term(e, pl->head_pred);
      return;
    }
  e->stats.derivations++;
  f->found = 1;
  int rc;
  if (f->mode == EMIT_FRESH) {
    if (ix_relation_contains(e->rel[pl->head_pred], tuple)) return;
    rc = ix_tupleset_insert(&e->fresh[pl->head_pred], tuple);
  } else if (f->mode == EMIT_DIRECT && n > 0) {
    if (!ix_relation_stage(e->rel[pl->head_pred], tuple)) fail_memory(e);
    else if (ix_relation_staged(e->rel[pl->head_pred]) >= STAGE_BATCH) flush_staged(e, pl->head_pred);
    return;
  } else {
    rc = ix_relation_insert(e->rel[pl->head_pred], tuple);
    if (rc == 1 && !ix_tupleset_push(&e->fresh[pl->head_pred], tuple)) rc = -1;
  }
  if (rc < 0) fail_memory(e);
  if (rc == 1 && ++e->atoms > e->opt.max_atoms && e->opt.max_atoms) fail_limit(e, pl->head_pred);
}

static void run_step(frame *f, uint32_t si);

/* Matches the free columns of a scanned tuple, then goes on. */
static void scan_tuple(frame *f, uint32_t si, const step *s, const dl_tid *tuple, uint32_t n)
{
  const uint32_t *cols = f->pl->kids + s->cols;
  for (uint32_t i = 0; i < n; i++)
    if (cols[i] != NO_PAT && !match(f, cols[i], tuple[i])) return;
  run_step(f, si + 1);
}

/* Whether step si is past the plan's cut and a head was already emitted. */
static inline int witnessed(const frame *f, uint32_t si)
{
  return si >= f->pl->cut && f->found;
}

/* Walks the index of a full or old scan with the key in key[]. */
static void scan_index(frame *f, uint32_t si, const step *s, const dl_tid *key)
{
  dl_eval *e = f->e;
  const ix_relation *r = e->rel[s->pred];
  dl_tid tuple[IX_MAX_ARITY];
  ix_iter it;
  ix_iter_begin(&it, r, s->index, s->n_key, key);
  while (!witnessed(f, si) && !cancelled(e) && ix_iter_next(&it, tuple)) {
    if (s->source == SRC_OLD && e->delta[s->pred].n && ix_tupleset_contains(&e->delta[s->pred], tuple)) continue;
    scan_tuple(f, si, s, tuple, ix_relation_arity(r));
  }
}

/* Enumerates the terms that can match the step's partly known compound
 * column (from the term store's argument index), and scans for each. */
static void scan_enumerated(frame *f, uint32_t si, const step *s, dl_tid *key)
{
  const pat *ep = &f->pl->pats[s->enum_pat];
  dl_tid v = build(f, f->pl->kids[ep->first + s->enum_arg], 0);
  if (v == DL_NO_TERM) return;
  uint32_t count;
  const dl_tid *list = dl_terms_with_arg(f->e->terms, ep->value, ep->n, s->enum_arg, v, &count);
  if (count == 0) return;
  dl_tid local[64], *copy = count <= 64 ? local : malloc(count * sizeof *copy);  /* makes may move list */
  if (!copy) { fail_memory(f->e); return; }
  memcpy(copy, list, count * sizeof *copy);
  for (uint32_t i = 0; i < count && !f->e->failed && !witnessed(f, si); i++) {
    if (!match(f, s->enum_pat, copy[i])) continue;
    key[s->enum_col] = copy[i];
    scan_index(f, si, s, key);
  }
  if (copy != local) free(copy);
}

static void scan(frame *f, uint32_t si, const step *s)
{
  dl_eval *e = f->e;
  uint32_t n = ix_relation_arity(e->rel[s->pred]);
  if (s->source == SRC_DELTA) {
    const ix_tupleset *d = &e->delta[s->pred];
    for (uint64_t t = 0; t < d->n && !witnessed(f, si) && !cancelled(e); t++) scan_tuple(f, si, s, ix_tupleset_get(d, t), n);
    return;
  }
  dl_tid key[IX_MAX_ARITY];
  const uint32_t *kp = f->pl->kids + s->key;
  for (uint32_t i = 0; i < n; i++)
    if (kp[i] != NO_PAT && (key[i] = build(f, kp[i], 0)) == DL_NO_TERM) return;
  if (s->enum_col != NO_PAT) scan_enumerated(f, si, s, key);
  else scan_index(f, si, s, key);
}

static void run_step(frame *f, uint32_t si)
{
  if (si == f->pl->cut) f->found = 0;
  if (si == f->pl->n_steps) {
    emit(f);
    return;
  }
  const step *s = &f->pl->steps[si];
  dl_tid tuple[IX_MAX_ARITY];
  switch (s->kind) {
  case S_SCAN:
    scan(f, si, s);
    return;
  case S_NEG:
    for (uint32_t i = 0; i < ix_relation_arity(f->e->rel[s->pred]); i++)
      if ((tuple[i] = build(f, f->pl->kids[s->cols + i], 0)) == DL_NO_TERM) {
        run_step(f, si + 1);  /* the term does not exist, so neither does the atom */
        return;
      }
    if (!ix_relation_contains(f->e->rel[s->pred], tuple)) run_step(f, si + 1);
    return;
  case S_DISTINCT:
  case S_EQUAL:
  {
    dl_tid a = build(f, s->a, 1), b = build(f, s->b, 1);
    if (a == DL_NO_TERM || b == DL_NO_TERM) fail_term(f->e, f->pl->head_pred);
    else if ((a != b) == (s->kind == S_DISTINCT)) run_step(f, si + 1);
    return;
  }
  }
}

static int run_plan(dl_eval *e, const plan *pl, int mode)
{
  dl_tid env[pl->n_vars + 1];
  frame f = { e, pl, env, mode, 0 };
  run_step(&f, 0);
  e->polls = 4095;
  return !cancelled(e);
}

/* ---- components ---------------------------------------------------------------- */

static int run_rule(dl_eval *e, uint32_t r, int delta_at, int mode)
{
  plan pl = { 0 };
  int ok = build_plan(e, r, delta_at, &pl);
  if (!ok) fail_memory(e);
  else ok = run_plan(e, &pl, mode);
  if (mode == EMIT_DIRECT && !e->failed) flush_staged(e, e->prog->head_pred[r]);
  plan_free(&pl);
  return ok && !e->failed;
}

/* Makes this round's new tuples the delta, moving them into the relations
 * unless they are there already.  Returns their number, -1 when out of memory. */
static int64_t merge(dl_eval *e, const uint32_t *preds, uint32_t n_preds, int inserted)
{
  int64_t total = 0;
  for (uint32_t i = 0; i < n_preds; i++) {
    uint32_t p = preds[i];
    ix_tupleset tmp = e->delta[p];
    e->delta[p] = e->fresh[p];
    e->fresh[p] = tmp;
    ix_tupleset_clear(&e->fresh[p]);
    for (uint64_t t = 0; !inserted && t < e->delta[p].n; t++)
      if (ix_relation_insert(e->rel[p], ix_tupleset_get(&e->delta[p], t)) < 0) return -1;
    total += (int64_t)e->delta[p].n;
  }
  return total;
}

/* Number of positive body atoms of rule r whose predicate is in the component. */
static uint32_t recursive_atoms(const dl_eval *e, uint32_t r)
{
  const dl_rule *rule = &e->prog->ast->rules[r];
  uint32_t n = 0;
  for (uint32_t k = 0; k < rule->n_body; k++)
    n += rule->body[k].kind == DL_POS && e->in_scc[e->prog->lit_pred[r][k]];
  return n;
}

/* Runs a recursive component in semi-naive rounds.  When every rule has at
 * most one recursive atom (linear recursion), each version reads only the
 * delta of the component's relations, so new tuples can go straight into the
 * relations and the next delta needs no hashing. */
static int run_recursive(dl_eval *e, uint32_t c, const uint32_t *preds, uint32_t n_preds)
{
  int linear = 1;
  for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++)
    linear &= recursive_atoms(e, e->rule_order[i]) <= 1;
  /* the first round reads whole relations, so its tuples wait in fresh sets */
  for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++)
    if (!run_rule(e, e->rule_order[i], -1, EMIT_FRESH)) return 0;
  int mode = EMIT_FRESH;
  for (;;) {
    e->stats.rounds++;
    int64_t n = merge(e, preds, n_preds, mode == EMIT_LINEAR);
    mode = linear ? EMIT_LINEAR : EMIT_FRESH;
    if (n < 0) { fail_memory(e); return 0; }
    if (n == 0) return 1;
    for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++) {
      uint32_t r = e->rule_order[i];
      const dl_rule *rule = &e->prog->ast->rules[r];
      for (uint32_t k = 0; k < rule->n_body; k++) {
        uint32_t p = e->prog->lit_pred[r][k];
        if (rule->body[k].kind != DL_POS || !e->in_scc[p] || e->delta[p].n == 0) continue;
        if (!run_rule(e, r, (int)k, mode)) return 0;
      }
    }
  }
}

static int run_component(dl_eval *e, uint32_t c)
{
  const st_strata *s = e->prog->strata;
  uint32_t n_preds;
  const uint32_t *preds = dl_program_component_preds(e->prog, c, &n_preds);
  for (uint32_t i = 0; i < n_preds; i++) e->in_scc[preds[i]] = 1;
  int ok = 1;
  if (s->recursive[c]) {
    ok = run_recursive(e, c, preds, n_preds);
  } else {
    /* A rule may read a predicate it adds to (through another node, as in
     * p(a) :- p(b)); then new tuples wait until the component is done, as
     * a relation must not change under an iteration. */
    int reads_own = 0;
    for (uint32_t i = e->rule_start[c]; i < e->rule_start[c + 1]; i++)
      reads_own |= recursive_atoms(e, e->rule_order[i]) > 0;
    e->stats.rounds++;
    for (uint32_t i = e->rule_start[c]; ok && i < e->rule_start[c + 1]; i++)
      ok = run_rule(e, e->rule_order[i], -1, reads_own ? EMIT_FRESH : EMIT_DIRECT);
    if (ok && reads_own && merge(e, preds, n_preds, 0) < 0) {
      fail_memory(e);
      ok = 0;
    }
  }
  for (uint32_t i = 0; i < n_preds; i++) {
    uint32_t p = preds[i];
    e->in_scc[p] = 0;
    ix_tupleset_free(&e->delta[p]);
    ix_tupleset_free(&e->fresh[p]);
  }
  return ok;
}

/* ---- public --------------------------------------------------------------------- */

static int group_rules(dl_eval *e)
{
  const st_strata *s = e->prog->strata;
  const ast_program *ast = e->prog->ast;
  e->rule_start = calloc(s->n_sccs + 2, sizeof *e->rule_start);
  e->rule_order = malloc((ast->n_rules + 1) * sizeof *e->rule_order);
  if (!e->rule_start || !e->rule_order) return 0;
  for (uint32_t r = 0; r < ast->n_rules; r++) e->rule_start[s->scc_of[e->prog->head_node[r]] + 2]++;
  for (uint32_t c = 0; c < s->n_sccs; c++) e->rule_start[c + 2] += e->rule_start[c + 1];
  for (uint32_t r = 0; r < ast->n_rules; r++)
    e->rule_order[e->rule_start[s->scc_of[e->prog->head_node[r]] + 1]++] = r;
  return 1;
}

dl_eval *dl_eval_create(const dl_program *p, const dl_eval_options *opt, dl_diag *diag)
{
  dl_eval *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->prog = p;
  e->terms = p->terms;
  e->diag = diag;
  e->opt = *opt;
  uint32_t n = p->n_preds + 1;
  e->rel = calloc(n, sizeof *e->rel);
  e->delta = calloc(n, sizeof *e->delta);
  e->fresh = calloc(n, sizeof *e->fresh);
  e->in_scc = calloc(n, 1);
  int ok = e->rel && e->delta && e->fresh && e->in_scc && group_rules(e);
  for (uint32_t i = 0; ok && i < p->n_preds; i++) {
    if (p->preds[i].arity > IX_MAX_ARITY) {
      dl_diag_report(diag, DL_ERROR, p->preds[i].src, p->preds[i].off,
                     "'%s' has %u arguments; gdlog supports at most %d", dl_program_pred_name(p, i),
                     p->preds[i].arity, IX_MAX_ARITY);
      ok = 0;
      break;
    }
    e->rel[i] = ix_relation_create(p->preds[i].arity);
    ix_tupleset_init(&e->delta[i], p->preds[i].arity);
    ix_tupleset_init(&e->fresh[i], p->preds[i].arity);
    ok = e->rel[i] != NULL;
  }
  if (!ok) {
    dl_eval_destroy(e);
    return NULL;
  }
  return e;
}

void dl_eval_destroy(dl_eval *e)
{
  if (!e) return;
  for (uint32_t i = 0; e->rel && i < e->prog->n_preds; i++) {
    ix_relation_destroy(e->rel[i]);
    if (e->delta) ix_tupleset_free(&e->delta[i]);
    if (e->fresh) ix_tupleset_free(&e->fresh[i]);
  }
  free(e->rel);
  free(e->delta);
  free(e->fresh);
  free(e->in_scc);
  free(e->rule_start);
  free(e->rule_order);
  free(e);
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int dl_eval_run(dl_eval *e)
{
  double t0 = now();
  const st_strata *s = e->prog->strata;
  int ok = 1;
  for (uint32_t c = 0; ok && c < s->n_sccs; c++) ok = run_component(e, c);
  e->stats.atoms = 0;
  for (uint32_t p = 0; p < e->prog->n_preds; p++) e->stats.atoms += ix_relation_size(e->rel[p]);
  e->stats.seconds = now() - t0;
  return ok;
}

const ix_relation *dl_eval_relation(const dl_eval *e, uint32_t pred) { return e->rel[pred]; }
dl_eval_stats dl_eval_get_stats(const dl_eval *e) { return e->stats; }
