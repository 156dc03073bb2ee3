/* collapse.c: predicates that only rename others, collapsed into the rules
 * that read them (see collapse.h). */
#include "datalog/write/collapse.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/arena.h"

struct dl_collapse {
  dl_arena *arena;  /* the new rules' nodes */
  dl_rule *rules;
  uint32_t n_rules, cap_rules;
  uint32_t n_preds;
};

/* A rule list that grows. */
typedef struct rule_list {
  dl_rule *rules;
  uint32_t n, cap;
} rule_list;

static int push_rule(rule_list *l, const dl_rule *r)
{
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? 2 * l->cap : 64;
    dl_rule *q = realloc(l->rules, cap * sizeof *q);
    if (!q) return 0;
    l->rules = q;
    l->cap = cap;
  }
  l->rules[l->n++] = *r;
  return 1;
}

static int is_copy(const dl_rule *r) { return r->n_body == 1 && r->body[0].kind == DL_POS; }

/* The predicate of atom a (a constant when it is 0-ary). */
static dl_sym pred_of(const ast_term *a) { return a->value; }

/* ---- which predicate ------------------------------------------------------ */

/* What the list does with a predicate. */
typedef struct usage {
  uint32_t defs;    /* rules with it as head */
  uint32_t reads;   /* body literals of it */
  uint8_t blocked;  /* a rule of it is no copy rule or reads it, or a rule that is no copy rule reads it */
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

/* The usage of every predicate of the list, into *by_pred.  0 when out of
 * memory. */
static int count_usage(const dl_collapse *c, Pvoid_t *by_pred)
{
  for (uint32_t r = 0; r < c->n_rules; r++) {
    const dl_rule *rule = &c->rules[r];
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
      b->blocked |= !is_copy(rule);
    }
  }
  return 1;
}

/* A predicate of the list that qualifies (collapse.h) in *p: 1 when there
 * is one, 0 when there is none, -1 when out of memory. */
static int choose(dl_collapse *c, dl_collapse_open_fn open, void *ctx, dl_sym *p)
{
  dl_arena_mark mark = dl_arena_get_mark(c->arena);
  Pvoid_t by_pred = NULL;
  int found = count_usage(c, &by_pred) ? 0 : -1;
  Word_t s = 0;
  for (PWord_t v = found ? NULL : (PWord_t)JudyLFirst(by_pred, &s, PJE0); v && !found;
       v = (PWord_t)JudyLNext(by_pred, &s, PJE0)) {
    const usage *u = (const usage *)*v;
    if (!u->blocked && u->defs && u->reads && (u->defs == 1 || u->reads == 1) && open(ctx, (dl_sym)s))
      found = 1, *p = (dl_sym)s;
  }
  JudyLFreeArray(&by_pred, PJE0);
  dl_arena_release(c->arena, mark);
  return found;
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

/* The rule reader, a copy rule, with its literal unfolded by def, a rule
 * of the predicate it reads: into *out, unless the two do not unify.
 * 0 when out of memory. */
static int unfold_into(dl_arena *arena, const dl_rule *reader, const dl_rule *def, rule_list *out)
{
  uint32_t nr = reader->n_vars, nv = nr + def->n_vars;
  const ast_term **val = calloc(nv + 1, sizeof *val);
  ast_term *head = shifted(arena, def->head, nr), *body = shifted(arena, def->body[0].atom, nr);
  int ok = val && head && body;
  if (ok && unify(reader->body[0].atom, head, val)) {
    dl_rule r = *reader;
    r.n_vars = nv;
    r.var_names = dl_arena_alloc(arena, (nv + 1) * sizeof *r.var_names);
    r.body = dl_arena_alloc(arena, sizeof *r.body);
    ok = r.var_names && r.body;
    if (ok) {
      if (nr) memcpy(r.var_names, reader->var_names, nr * sizeof *r.var_names);
      if (def->n_vars) memcpy(r.var_names + nr, def->var_names, def->n_vars * sizeof *r.var_names);
      r.body[0] = def->body[0];
      r.head = resolved(arena, reader->head, val);
      r.body[0].atom = resolved(arena, body, val);
      ok = r.head && r.body[0].atom && push_rule(out, &r);
    }
  }
  free(val);
  return ok;
}

/* Collapses predicate p: its readers unfolded, its rules gone.  0 when out
 * of memory (the list is then as it was). */
static int collapse(dl_collapse *c, dl_sym p)
{
  rule_list defs = { 0 }, out = { 0 };
  int ok = 1;
  for (uint32_t r = 0; ok && r < c->n_rules; r++)
    if (pred_of(c->rules[r].head) == p) ok = push_rule(&defs, &c->rules[r]);
  for (uint32_t r = 0; ok && r < c->n_rules; r++) {
    const dl_rule *rule = &c->rules[r];
    if (pred_of(rule->head) == p) continue;
    if (!is_copy(rule) || pred_of(rule->body[0].atom) != p) {
      ok = push_rule(&out, rule);
      continue;
    }
    for (uint32_t d = 0; ok && d < defs.n; d++) ok = unfold_into(c->arena, rule, &defs.rules[d], &out);
  }
  free(defs.rules);
  if (!ok) {
    free(out.rules);
    return 0;
  }
  free(c->rules);
  c->rules = out.rules, c->n_rules = out.n, c->cap_rules = out.cap;
  return 1;
}

dl_collapse *dl_collapse_create(const dl_rule *rules, uint32_t n, dl_collapse_open_fn open, void *ctx, dl_diag *diag)
{
  assert((rules || n == 0) && open && diag);
  dl_collapse *c = calloc(1, sizeof *c);
  int ok = c && (c->arena = dl_arena_create()) && (c->rules = malloc(((size_t)n + 1) * sizeof *c->rules));
  if (ok) {
    if (n) memcpy(c->rules, rules, n * sizeof *rules);
    c->n_rules = c->cap_rules = n;
  }
  dl_sym p;
  int found = 0;
  while (ok && (found = choose(c, open, ctx, &p)) == 1 && (ok = collapse(c, p))) c->n_preds++;
  if (ok && found == 0) return c;
  dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in collapsing predicates that rename others");
  dl_collapse_destroy(c);
  return NULL;
}

void dl_collapse_destroy(dl_collapse *c)
{
  if (!c) return;
  dl_arena_destroy(c->arena);
  free(c->rules);
  free(c);
}

const dl_rule *dl_collapse_rules(const dl_collapse *c, uint32_t *n)
{
  assert(c && n);
  *n = c->n_rules;
  return c->rules;
}

uint32_t dl_collapse_pred_count(const dl_collapse *c)
{
  assert(c);
  return c->n_preds;
}
