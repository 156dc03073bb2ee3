/* collapse.c: predicates that only rename others, collapsed into the rules
 * that read them (see collapse.h). */
#include "datalog/write/collapse.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/arena.h"
#include "datalog/write/output.h"

/* A rule list that grows. */
typedef struct rule_list {
  dl_rule *rules;
  uint32_t n, cap;
} rule_list;

struct dl_collapse {
  const dl_program *game;  /* for the rules' names */
  dl_arena *arena;         /* the new rules' nodes */
  rule_list list;
  uint32_t n_preds;
  int64_t room;            /* bytes the rules may still grow by */
};

static int push_rule(rule_list *l, const dl_rule *r) { return ast_rules_push(&l->rules, &l->n, &l->cap, r); }

static int is_copy(const dl_rule *r) { return r->n_body == 1 && r->body[0].kind == DL_POS; }

/* The predicate of atom a (a constant when it is 0-ary). */
static dl_sym pred_of(const ast_term *a) { return a->value; }

/* ---- which predicate ------------------------------------------------------ */

/* What the list does with a predicate. */
typedef struct usage {
  uint32_t defs;    /* rules with it as head */
  uint32_t reads;   /* body literals of it */
  uint8_t blocked;  /* a rule of it is no copy rule or reads it; a rule reads it negated, or twice */
} usage;

/* The usage of predicate s, made zero when new (in arena); NULL when out
 * of memory. */
static usage *usage_of(Pvoid_t *by_pred, dl_arena *arena, dl_sym s)
{
  PWord_t v = (PWord_t)JudyLIns(by_pred, s, PJE0);
  if (v == PJERR) return NULL;
  if (!*v) *v = (Word_t)dl_arena_alloc(arena, sizeof(usage));
  return (usage *)*v;
}

/* How many body literals of rule read predicate s. */
static uint32_t reads_of(const dl_rule *rule, dl_sym s)
{
  uint32_t n = 0;
  for (uint32_t j = 0; j < rule->n_body; j++)
    n += (rule->body[j].kind == DL_POS || rule->body[j].kind == DL_NEG) && pred_of(rule->body[j].atom) == s;
  return n;
}

/* The usage of every predicate of the list, into *by_pred.  0 when out of
 * memory. */
static int count_usage(const dl_collapse *c, Pvoid_t *by_pred)
{
  for (uint32_t r = 0; r < c->list.n; r++) {
    const dl_rule *rule = &c->list.rules[r];
    usage *h = usage_of(by_pred, c->arena, pred_of(rule->head));
    if (!h) return 0;
    h->defs++;
    h->blocked |= !is_copy(rule) || pred_of(rule->body[0].atom) == pred_of(rule->head);
    for (uint32_t j = 0; j < rule->n_body; j++) {
      const dl_literal *l = &rule->body[j];
      if (l->kind != DL_POS && l->kind != DL_NEG) continue;
      usage *b = usage_of(by_pred, c->arena, pred_of(l->atom));
      if (!b) return 0;
      b->reads++;
      b->blocked |= l->kind == DL_NEG || reads_of(rule, pred_of(l->atom)) > 1;
    }
  }
  return 1;
}

/* The predicates of the list that qualify (collapse.h) but the room,
 * into *cand (a Judy1 set).  0 when out of memory. */
static int candidates(dl_collapse *c, dl_collapse_open_fn open, void *ctx, Pvoid_t *cand)
{
  dl_arena_mark mark = dl_arena_get_mark(c->arena);
  Pvoid_t by_pred = NULL;
  int ok = count_usage(c, &by_pred);
  Word_t s = 0;
  for (PWord_t v = ok ? (PWord_t)JudyLFirst(by_pred, &s, PJE0) : NULL; v && ok; v = (PWord_t)JudyLNext(by_pred, &s, PJE0)) {
    const usage *u = (const usage *)*v;
    if (!u->blocked && u->defs && u->reads && (u->defs == 1 || u->reads == 1) && open(ctx, (dl_sym)s))
      ok = Judy1Set(cand, s, PJE0) != JERR;
  }
  JudyLFreeArray(&by_pred, PJE0);
  dl_arena_release(c->arena, mark);
  return ok;
}

/* ---- unfolding ------------------------------------------------------------ */

/* t with every variable v numbered v + shift, in arena; NULL when out of
 * memory. */
static ast_term *shifted(dl_arena *arena, const ast_term *t, uint32_t shift)
{
  if (t->kind == AST_SYM) return (ast_term *)t;
  ast_term *c = dl_arena_alloc(arena, sizeof *c);
  if (!c) return NULL;
  *c = *t;
  if (t->kind == AST_VAR) {
    c->value += shift;
    return c;
  }
  if (!(c->args = dl_arena_alloc(arena, t->n * sizeof *c->args))) return NULL;
  for (uint32_t i = 0; i < t->n; i++)
    if (!(c->args[i] = shifted(arena, t->args[i], shift))) return NULL;
  return c;
}

/* t, or the value of the variable t is, as far as val binds. */
static const ast_term *walk(const ast_term *t, const ast_term *const *val)
{
  while (t->kind == AST_VAR && val[t->value]) t = val[t->value];
  return t;
}

static int occurs(uint32_t v, const ast_term *t, const ast_term *const *val)
{
  t = walk(t, val);
  if (t->kind == AST_VAR) return t->value == v;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (occurs(v, t->args[i], val)) return 1;
  return 0;
}

/* Unifies a and b, binding variables in val; 0 when they do not unify. */
static int unify(const ast_term *a, const ast_term *b, const ast_term **val)
{
  a = walk(a, val), b = walk(b, val);
  if (a->kind == AST_VAR && b->kind == AST_VAR && a->value == b->value) return 1;
  if (b->kind == AST_VAR) {
    const ast_term *x = a;
    a = b, b = x;
  }
  if (a->kind == AST_VAR) {
    if (occurs(a->value, b, val)) return 0;
    val[a->value] = b;
    return 1;
  }
  if (a->kind != b->kind || a->value != b->value || (a->kind == AST_FUN && a->n != b->n)) return 0;
  for (uint32_t i = 0; a->kind == AST_FUN && i < a->n; i++)
    if (!unify(a->args[i], b->args[i], val)) return 0;
  return 1;
}

/* t under val, in arena; NULL when out of memory. */
static ast_term *resolved(dl_arena *arena, const ast_term *t, const ast_term *const *val)
{
  t = walk(t, val);
  if (t->kind != AST_FUN) return (ast_term *)t;
  ast_term *c = dl_arena_alloc(arena, sizeof *c);
  if (!c || !(c->args = dl_arena_alloc(arena, t->n * sizeof *c->args))) return NULL;
  c->kind = AST_FUN, c->off = t->off, c->value = t->value, c->n = t->n;
  for (uint32_t i = 0; i < t->n; i++)
    if (!(c->args[i] = resolved(arena, t->args[i], val))) return NULL;
  return c;
}

/* Literal l under val into *out, in arena; 0 when out of memory. */
static int resolved_literal(dl_arena *arena, const dl_literal *l, const ast_term *const *val, dl_literal *out)
{
  *out = *l;
  if (l->kind == DL_DISTINCT || l->kind == DL_EQUAL)
    return (out->a = resolved(arena, l->a, val)) && (out->b = resolved(arena, l->b, val));
  return (out->atom = resolved(arena, l->atom, val)) != NULL;
}

/* The rule reader with its literal j unfolded by def, a rule of the
 * predicate that literal reads: into *out, unless the two do not unify.
 * 0 when out of memory. */
static int unfold_into(dl_arena *arena, const dl_rule *reader, uint32_t j, const dl_rule *def, rule_list *out)
{
  uint32_t nr = reader->n_vars, nv = nr + def->n_vars;
  const ast_term **val = calloc(nv + 1, sizeof *val);
  dl_literal lit = def->body[0];
  ast_term *head = shifted(arena, def->head, nr);
  lit.atom = shifted(arena, def->body[0].atom, nr);
  int ok = val && head && lit.atom;
  if (ok && unify(reader->body[j].atom, head, val)) {
    dl_rule r = *reader;
    r.n_vars = nv;
    r.var_names = dl_arena_alloc(arena, (nv + 1) * sizeof *r.var_names);
    r.body = dl_arena_alloc(arena, reader->n_body * sizeof *r.body);
    r.head = resolved(arena, reader->head, val);
    ok = r.var_names && r.body && r.head;
    if (ok && nr) memcpy(r.var_names, reader->var_names, nr * sizeof *r.var_names);
    if (ok && def->n_vars) memcpy(r.var_names + nr, def->var_names, def->n_vars * sizeof *r.var_names);
    for (uint32_t k = 0; ok && k < reader->n_body; k++)
      ok = resolved_literal(arena, k == j ? &lit : &reader->body[k], val, &r.body[k]);
    ok = ok && push_rule(out, &r);
  }
  free(val);
  return ok;
}

/* The bytes of rules[0..n) as KIF into *bytes; 0 when out of memory. */
static int rules_bytes(const dl_program *p, const dl_rule *rules, uint32_t n, int64_t *bytes)
{
  uint64_t b = 0;
  int ok = dl_output_rule_list_bytes(p, DL_FMT_KIF, rules, n, &b);
  *bytes = (int64_t)b;
  return ok;
}

/* The body literal of rule that reads predicate p, or rule->n_body. */
static uint32_t literal_of(const dl_rule *rule, dl_sym p)
{
  uint32_t j = 0;
  while (j < rule->n_body && !(rule->body[j].kind == DL_POS && pred_of(rule->body[j].atom) == p)) j++;
  return j;
}

/* The list with predicate p collapsed into out, and how many bytes that
 * adds into *growth.  0 when out of memory. */
static int collapsed_list(dl_collapse *c, dl_sym p, rule_list *out, int64_t *growth)
{
  rule_list defs = { 0 };
  int64_t b = 0;
  int ok = 1;
  for (uint32_t r = 0; ok && r < c->list.n; r++)
    if (pred_of(c->list.rules[r].head) == p) ok = push_rule(&defs, &c->list.rules[r]);
  ok = ok && rules_bytes(c->game, defs.rules, defs.n, &b);
  *growth = -b;
  for (uint32_t r = 0; ok && r < c->list.n; r++) {
    const dl_rule *rule = &c->list.rules[r];
    uint32_t j = literal_of(rule, p), first = out->n;
    if (pred_of(rule->head) == p) continue;
    if (j == rule->n_body) {
      ok = push_rule(out, rule);
      continue;
    }
    for (uint32_t d = 0; ok && d < defs.n; d++) ok = unfold_into(c->arena, rule, j, &defs.rules[d], out);
    ok = ok && rules_bytes(c->game, rule, 1, &b);
    *growth -= b;
    ok = ok && rules_bytes(c->game, out->rules + first, out->n - first, &b);
    *growth += b;
  }
  free(defs.rules);
  return ok;
}

/* Collapses predicate p: its readers unfolded, its rules gone, when the
 * room allows.  1 when done, 0 when it would take more room, -1 when out
 * of memory (the list then stays as it was). */
static int collapse(dl_collapse *c, dl_sym p)
{
  rule_list out = { 0 };
  int64_t growth;
  if (!collapsed_list(c, p, &out, &growth)) {
    free(out.rules);
    return -1;
  }
  if (growth > c->room) {
    free(out.rules);
    return 0;
  }
  c->room -= growth;
  free(c->list.rules);
  c->list = out;
  return 1;
}

/* Collapses one predicate that qualifies: 1 when one was, 0 when none
 * qualifies, -1 when out of memory.  Those that would take more room are
 * added to *too_large. */
static int collapse_one(dl_collapse *c, dl_collapse_open_fn open, void *ctx, Pvoid_t *too_large)
{
  Pvoid_t cand = NULL;
  int rc = candidates(c, open, ctx, &cand) ? 0 : -1;
  Word_t s = 0;
  for (int f = rc ? 0 : Judy1First(cand, &s, PJE0); f == 1 && rc == 0; f = Judy1Next(cand, &s, PJE0)) {
    if (Judy1Test(*too_large, s, PJE0)) continue;
    rc = collapse(c, (dl_sym)s);
    if (rc == 0 && Judy1Set(too_large, s, PJE0) == JERR) rc = -1;
  }
  Judy1FreeArray(&cand, PJE0);
  return rc;
}

dl_collapse *dl_collapse_create(const dl_program *game, const dl_rule *rules, uint32_t n, int64_t room,
                                dl_collapse_open_fn open, void *ctx, dl_diag *diag)
{
  assert(game && (rules || n == 0) && open && diag);
  dl_collapse *c = calloc(1, sizeof *c);
  int ok = c && (c->arena = dl_arena_create());
  for (uint32_t r = 0; ok && r < n; r++) ok = push_rule(&c->list, &rules[r]);
  if (ok) c->game = game, c->room = room;
  Pvoid_t too_large = NULL;
  int rc = ok ? 1 : -1;
  while (rc == 1 && (rc = collapse_one(c, open, ctx, &too_large)) == 1) c->n_preds++;
  Judy1FreeArray(&too_large, PJE0);
  if (rc == 0) return c;
  dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in collapsing predicates that rename others");
  dl_collapse_destroy(c);
  return NULL;
}

void dl_collapse_destroy(dl_collapse *c)
{
  if (!c) return;
  dl_arena_destroy(c->arena);
  free(c->list.rules);
  free(c);
}

const dl_rule *dl_collapse_rules(const dl_collapse *c, uint32_t *n)
{
  assert(c && n);
  *n = c->list.n;
  return c->list.rules;
}

uint32_t dl_collapse_pred_count(const dl_collapse *c)
{
  assert(c);
  return c->n_preds;
}
