/* rulegraph.c: the rule graph (see rulegraph.h).
 *
 * Two walks over the rules.  The first types: it numbers argument
 * positions (per symbol; per body occurrence of a predicate given by facts;
 * one per distinct or =) and joins, in a union-find, the positions that
 * share a variable.  The second builds the graph: symbol vertices on first
 * use, each followed by its argument vertices; a constant's vertex per
 * class; a fact predicate's copy per tuple of classes, its facts written
 * once per copy at the end.  The fresh positions the first walk made are
 * read back in the same order by the second. */
#include "datalog/structure/rulegraph.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/ids.h"
#include "datalog/base/sort.h"

typedef struct copy {
  uint32_t pred;       /* the fact predicate */
  uint32_t vertex;     /* its SYMBOL vertex */
  uint32_t *classes;   /* per argument */
} copy;

struct dl_rgraph {
  const dl_program *p;
  dl_terms *terms;
  dl_rg_vertex *v;
  uint32_t n_v, cap_v;
  dl_ids edges;              /* from, to, from, to, ... */
  dl_sym keyword[DL_RG_KEYWORDS];
  uint8_t *fact_pred;        /* per predicate: given by ground facts only */
  /* positions */
  uint32_t *parent;          /* union-find */
  dl_sym *pos_sym;           /* for labels: the symbol and argument (from 1) */
  uint32_t *pos_arg;
  uint32_t n_pos, cap_pos;
  uint32_t *class_first;     /* per class (its root): its first symbol's position, else its first */
  uint8_t *class_fresh;      /* per position: fresh (a use of a fact predicate, distinct) */
  Pvoid_t pos_of;            /* JudyL: sym << 32 | arity -> first position + 1 */
  dl_ids fresh;              /* the fresh positions of the first walk, in order */
  uint32_t fresh_next;       /* the second walk's place in fresh */
  /* vertices */
  Pvoid_t symbol_of;         /* JudyL: sym << 32 | arity -> vertex + 1 */
  Pvoid_t constant_of;       /* JudyL: sym << 32 | class -> vertex + 1 */
  Pvoid_t classes_of;        /* JudyL: sym -> classes the constant has */
  Pvoid_t values;             /* Judy1: the constant vertices that stand for goal values */
  int untyped;               /* one class for all positions, no copies */
  int no_declarations;       /* base and input rules left out, and those only they read */
  uint8_t *left_out;         /* per predicate, with no_declarations: its rules are left out */
  copy *copies;
  uint32_t n_copies, cap_copies;
  /* the rule being walked */
  uint32_t rule;
  uint32_t *var_at;          /* per variable: its position (first walk) or vertex (second) + 1 */
  int building;              /* the second walk */
  int failed;                /* out of memory */
};

typedef struct keyword_spec {
  const char *name;
  uint32_t arity;
  uint8_t pos[2];            /* dl_rg_keyword_position of each argument */
} keyword_spec;

static const keyword_spec keywords[DL_RG_KEYWORDS] = {
  { "role", 1, { DL_RG_POS_ROLE } },
  { "init", 1, { DL_RG_POS_FLUENT } },
  { "true", 1, { DL_RG_POS_FLUENT } },
  { "does", 2, { DL_RG_POS_ROLE, DL_RG_POS_MOVE } },
  { "next", 1, { DL_RG_POS_FLUENT } },
  { "legal", 2, { DL_RG_POS_ROLE, DL_RG_POS_MOVE } },
  { "goal", 2, { DL_RG_POS_ROLE, DL_RG_POS_VALUE } },
  { "terminal", 0, { 0 } },
  { "base", 1, { DL_RG_POS_FLUENT } },
  { "input", 2, { DL_RG_POS_ROLE, DL_RG_POS_MOVE } },
};

/* ---- positions and their classes ---- */

static uint32_t new_position(dl_rgraph *g, dl_sym sym, uint32_t arg)
{
  if (g->n_pos == g->cap_pos) {
    uint32_t cap = g->cap_pos ? 2 * g->cap_pos : 256;
    uint32_t *parent = realloc(g->parent, cap * sizeof *parent);
    if (parent) g->parent = parent;
    dl_sym *sym_at = parent ? realloc(g->pos_sym, cap * sizeof *sym_at) : NULL;
    if (sym_at) g->pos_sym = sym_at;
    uint32_t *arg_at = sym_at ? realloc(g->pos_arg, cap * sizeof *arg_at) : NULL;
    if (!arg_at) {
      g->failed = 1;
      return 0;
    }
    g->pos_arg = arg_at, g->cap_pos = cap;
  }
  g->parent[g->n_pos] = g->n_pos, g->pos_sym[g->n_pos] = sym, g->pos_arg[g->n_pos] = arg;
  return g->n_pos++;
}

static uint32_t find(dl_rgraph *g, uint32_t x)
{
  while (g->parent[x] != x) x = g->parent[x] = g->parent[g->parent[x]];
  return x;
}

/* Joins the classes of a and b; the smaller root stays, so a class's root
 * is its first position. */
static void join(dl_rgraph *g, uint32_t a, uint32_t b)
{
  a = find(g, a), b = find(g, b);
  if (a < b) g->parent[b] = a;
  else if (b < a) g->parent[a] = b;
}

/* The first of the positions of symbol sym/arity, made when new. */
static uint32_t symbol_positions(dl_rgraph *g, dl_sym sym, uint32_t arity)
{
  Word_t *slot;
  JLI(slot, g->pos_of, (Word_t)sym << 32 | arity);
  if (slot == PJERR) {
    g->failed = 1;
    return 0;
  }
  if (!*slot) {
    uint32_t first = g->n_pos;
    for (uint32_t i = 1; i <= arity; i++) new_position(g, sym, i);
    *slot = (Word_t)first + 1;
  }
  return (uint32_t)(*slot - 1);
}

/* A fresh position: made in the first walk, read back in the second. */
static uint32_t fresh_position(dl_rgraph *g, dl_sym sym, uint32_t arg)
{
  if (g->building) return g->fresh.ids[g->fresh_next++];
  uint32_t pos = new_position(g, sym, arg);
  if (!dl_ids_push(&g->fresh, pos)) g->failed = 1;
  return pos;
}

/* ---- vertices and edges ---- */

static uint32_t add_vertex(dl_rgraph *g, dl_rg_kind kind, uint32_t colour, dl_sym sym, uint32_t n)
{
  if (g->n_v == g->cap_v) {
    uint32_t cap = g->cap_v ? 2 * g->cap_v : 256;
    dl_rg_vertex *v = realloc(g->v, cap * sizeof *v);
    if (!v) {
      g->failed = 1;
      return 0;
    }
    g->v = v, g->cap_v = cap;
  }
  g->v[g->n_v] = (dl_rg_vertex){ (uint8_t)kind, colour, sym, n, 0, 0 };
  return g->n_v++;
}

static void add_edge(dl_rgraph *g, uint32_t from, uint32_t to)
{
  if (!dl_ids_push(&g->edges, from) || !dl_ids_push(&g->edges, to)) g->failed = 1;
}

/* The vertex of key in *map, made by make(g, key) when new (make uses
 * other maps only). */
static uint32_t vertex_in(dl_rgraph *g, Pvoid_t *map, Word_t key, uint32_t (*make)(dl_rgraph *, Word_t))
{
  Word_t *slot;
  JLI(slot, *map, key);
  if (slot == PJERR) {
    g->failed = 1;
    return 0;
  }
  if (!*slot) *slot = (Word_t)make(g, key) + 1;
  return (uint32_t)(*slot - 1);
}

/* A symbol's vertex, its argument vertices after it. */
static uint32_t make_symbol(dl_rgraph *g, dl_sym sym, uint32_t arity, uint32_t first_pos)
{
  uint32_t s = add_vertex(g, DL_RG_SYMBOL, DL_RG_SYMBOL, sym, arity);
  for (uint32_t i = 1; i <= arity; i++) add_edge(g, s, add_vertex(g, DL_RG_ARG, DL_RG_ARG, sym, i));
  if (!g->failed) g->v[s].pos = first_pos;
  return s;
}

static uint32_t make_symbol_of_key(dl_rgraph *g, Word_t key)
{
  dl_sym sym = (dl_sym)(key >> 32);
  uint32_t arity = (uint32_t)key;
  return make_symbol(g, sym, arity, symbol_positions(g, sym, arity));
}

static uint32_t symbol_vertex(dl_rgraph *g, dl_sym sym, uint32_t arity)
{
  Word_t key = (Word_t)sym << 32 | arity;
  return vertex_in(g, &g->symbol_of, key, make_symbol_of_key);
}

static uint32_t make_constant(dl_rgraph *g, Word_t key)
{
  dl_sym sym = (dl_sym)(key >> 32);
  uint32_t v = add_vertex(g, DL_RG_SYMBOL, DL_RG_SYMBOL, sym, 0);
  Word_t *count;
  JLI(count, g->classes_of, sym);
  if (count == PJERR) g->failed = 1;
  else ++*count;
  if (!g->failed) g->v[v].pos = (uint32_t)key;
  return v;
}

/* The vertex of constant sym in position pos; marked a goal value when
 * pos is in goal values' class. */
static uint32_t constant_vertex(dl_rgraph *g, dl_sym sym, uint32_t pos)
{
  uint32_t c = find(g, pos);
  Word_t key = (Word_t)sym << 32 | (g->untyped ? 0 : c);
  uint32_t v = vertex_in(g, &g->constant_of, key, make_constant);
  int rc;
  if (c == find(g, DL_RG_POS_VALUE)) J1S(rc, g->values, v);
  (void)rc;
  return v;
}

/* The numeric value of name s, or -1 when it is none. */
static long long number_of(const dl_rgraph *g, dl_sym s)
{
  size_t len;
  const char *name = dl_terms_name(g->terms, s, &len);
  long long n = 0;
  for (size_t i = 0; i < len; i++) {
    if (name[i] < '0' || name[i] > '9' || n > 1000000000) return -1;
    n = 10 * n + (name[i] - '0');
  }
  return len ? n : -1;
}

static int compare_values(const void *x, const void *y, void *ctx)
{
  const dl_rgraph *g = ctx;
  dl_sym a = g->v[*(const uint32_t *)x].sym, b = g->v[*(const uint32_t *)y].sym;
  long long na = number_of(g, a), nb = number_of(g, b);
  if (na != nb) return na < nb ? -1 : 1;
  size_t la, lb;
  const char *sa = dl_terms_name(g->terms, a, &la), *sb = dl_terms_name(g->terms, b, &lb);
  int c = memcmp(sa, sb, la < lb ? la : lb);
  return c ? c : (la > lb) - (la < lb);
}

/* Gives each goal value a colour of its own, in the order of the values,
 * so that the colours of two games compare.  0 when out of memory. */
static int colour_values(dl_rgraph *g)
{
  Word_t n, v = 0;
  int rc;
  J1C(n, g->values, 0, -1);
  uint32_t *list = malloc((n + 1) * sizeof *list), k = 0;
  if (!list) return 0;
  J1F(rc, g->values, v);
  while (rc) {
    list[k++] = (uint32_t)v;
    J1N(rc, g->values, v);
  }
  dl_sort(list, k, sizeof *list, compare_values, g);
  for (uint32_t i = 0; i < k; i++) g->v[list[i]].colour = DL_RG_KINDS + DL_RG_KEYWORDS + i;
  free(list);
  return 1;
}

/* The copy of fact predicate q at the classes of positions pos[0..n). */
static uint32_t copy_vertex(dl_rgraph *g, uint32_t q, const uint32_t *pos, uint32_t n)
{
  for (uint32_t k = 0; k < g->n_copies; k++) {
    copy *c = &g->copies[k];
    uint32_t i = 0;
    while (c->pred == q && i < n && c->classes[i] == find(g, pos[i])) i++;
    if (c->pred == q && i == n) return c->vertex;
  }
  if (g->n_copies == g->cap_copies) {
    uint32_t cap = g->cap_copies ? 2 * g->cap_copies : 16;
    copy *copies = realloc(g->copies, cap * sizeof *copies);
    if (!copies) {
      g->failed = 1;
      return 0;
    }
    g->copies = copies, g->cap_copies = cap;
  }
  copy *c = &g->copies[g->n_copies];
  if (!(c->classes = malloc((n + 1) * sizeof *c->classes))) {
    g->failed = 1;
    return 0;
  }
  for (uint32_t i = 0; i < n; i++) c->classes[i] = find(g, pos[i]);
  c->pred = q, c->vertex = make_symbol(g, g->p->preds[q].name, n, n ? pos[0] : 0);
  uint32_t number = 1;
  for (uint32_t k = 0; k < g->n_copies; k++) number += g->copies[k].pred == q;
  for (uint32_t i = 0; !g->failed && i <= n; i++) g->v[c->vertex + i].copy = number;
  g->n_copies++;
  return c->vertex;
}

/* ---- the walks ---- */

/* The keyword sym/arity is, or -1. */
static int keyword_of(const dl_rgraph *g, dl_sym sym, uint32_t arity)
{
  for (int k = 0; k < DL_RG_KEYWORDS; k++)
    if (g->keyword[k] == sym && keywords[k].arity == arity) return k;
  return -1;
}

static uint32_t walk_term(dl_rgraph *g, const ast_term *t, uint32_t pos);

/* Walks the arguments of an occurrence: the i-th at position pos[i]; in
 * the second walk, with edges from occ and from the argument vertices
 * after s (when s is not UINT32_MAX), and from the first to the second
 * (ordered). */
static void walk_args(dl_rgraph *g, const ast_term *t, const uint32_t *pos, uint32_t occ, uint32_t s, int ordered)
{
  uint32_t first = 0;
  for (uint32_t i = 0; i < ast_atom_arity(t) && !g->failed; i++) {
    uint32_t a = walk_term(g, t->args[i], pos[i]);
    if (!g->building) continue;
    add_edge(g, occ, a);
    if (s != UINT32_MAX) add_edge(g, s + 1 + i, a);
    if (ordered && i == 0) first = a;
    else if (ordered) add_edge(g, first, a);
  }
}

/* An occurrence of t with its arguments: at its symbol's positions, or,
 * for a body occurrence of fact predicate q (not DL_NO_PRED), at positions
 * of its own, typed by the classes they end in (the copy of q for them). */
static uint32_t walk_occurrence(dl_rgraph *g, const ast_term *t, dl_rg_kind kind, uint32_t q)
{
  uint32_t arity = ast_atom_arity(t), small[8] = { 0 }, *pos = arity <= 8 ? small : malloc(arity * sizeof *pos);
  if (!pos) {
    g->failed = 1;
    return 0;
  }
  uint32_t first = q == DL_NO_PRED ? symbol_positions(g, t->value, arity) : 0, s = 0, occ = 0;
  for (uint32_t i = 0; i < arity; i++) pos[i] = q == DL_NO_PRED ? first + i : fresh_position(g, t->value, i + 1);
  if (g->building && !g->failed)
    s = q == DL_NO_PRED ? symbol_vertex(g, t->value, arity) : copy_vertex(g, q, pos, arity);
  if (g->building) add_edge(g, s, occ = add_vertex(g, kind, kind, t->value, arity));
  walk_args(g, t, pos, occ, s, 0);
  if (pos != small) free(pos);
  return occ;
}

static uint32_t walk_term(dl_rgraph *g, const ast_term *t, uint32_t pos)
{
  if (t->kind == AST_FUN) return walk_occurrence(g, t, DL_RG_FUN, DL_NO_PRED);
  if (t->kind == AST_SYM) {
    if (!g->building) return 0;
    uint32_t occ = add_vertex(g, DL_RG_FUN, DL_RG_FUN, t->value, 0);
    add_edge(g, constant_vertex(g, t->value, pos), occ);
    return occ;
  }
  uint32_t *at = &g->var_at[t->value];
  if (!g->building) {
    if (*at) join(g, *at - 1, pos);
    else *at = pos + 1;
    return 0;
  }
  const dl_rule *r = &g->p->ast->rules[g->rule];
  uint32_t occ = add_vertex(g, DL_RG_VAR, DL_RG_VAR, r->var_names[t->value], g->rule);
  if (!*at) *at = add_vertex(g, DL_RG_VARIABLE, DL_RG_VARIABLE, r->var_names[t->value], g->rule) + 1;
  add_edge(g, *at - 1, occ);
  return occ;
}

static uint32_t walk_keyword_atom(dl_rgraph *g, const ast_term *a, int k)
{
  uint32_t pos[2] = { keywords[k].pos[0], keywords[k].pos[1] };
  uint32_t occ = g->building ? add_vertex(g, DL_RG_KEYWORD, DL_RG_KINDS + (uint32_t)k, a->value, keywords[k].arity) : 0;
  walk_args(g, a, pos, occ, UINT32_MAX, keywords[k].arity == 2);
  return occ;
}

static uint32_t walk_atom(dl_rgraph *g, const ast_term *a, uint32_t q, int in_body)
{
  int k = keyword_of(g, a->value, ast_atom_arity(a));
  if (k >= 0) return walk_keyword_atom(g, a, k);
  return walk_occurrence(g, a, DL_RG_PRED, in_body && g->fact_pred[q] ? q : DL_NO_PRED);
}

static uint32_t walk_literal(dl_rgraph *g, const dl_literal *l, uint32_t q)
{
  if (l->kind == DL_POS) return walk_atom(g, l->atom, q, 1);
  if (l->kind == DL_NEG) {
    uint32_t v = g->building ? add_vertex(g, DL_RG_NOT, DL_RG_NOT, 0, g->rule) : 0;
    uint32_t a = walk_atom(g, l->atom, q, 1);
    if (g->building) add_edge(g, v, a);
    return v;
  }
  dl_rg_kind kind = l->kind == DL_DISTINCT ? DL_RG_DISTINCT : DL_RG_EQUAL;
  uint32_t pos = fresh_position(g, 0, 0);
  uint32_t v = g->building ? add_vertex(g, kind, kind, 0, g->rule) : 0;
  uint32_t a = walk_term(g, l->a, pos), b = walk_term(g, l->b, pos);
  if (g->building) add_edge(g, v, a), add_edge(g, v, b);
  return v;
}

/* 1 when predicate q is base or input. */
static int is_declaration(const dl_rgraph *g, uint32_t q)
{
  const dl_pred *d = &g->p->preds[q];
  int k = keyword_of(g, d->name, d->arity);
  return k >= 0 && (!strcmp(keywords[k].name, "base") || !strcmp(keywords[k].name, "input"));
}

/* Marks read[] the predicates a rule of a predicate marked in read reads;
 * 1 when one was new. */
static int mark_read(const dl_program *p, uint8_t *read)
{
  int changed = 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++)
    for (uint32_t i = 0; read[p->head_pred[r]] && i < p->ast->rules[r].n_body; i++) {
      uint32_t q = p->lit_pred[r][i];
      if (q != DL_NO_PRED && !read[q]) read[q] = changed = 1;
    }
  return changed;
}

/* With no_declarations: the predicates whose rules are left out, base,
 * input, and those that only they read.  0 when out of memory. */
static int find_left_out(dl_rgraph *g)
{
  const dl_program *p = g->p;
  if (!g->no_declarations) return 1;
  uint8_t *read = calloc(p->n_preds + 1, 1);
  if (!read || !(g->left_out = calloc(p->n_preds + 1, 1))) {
    free(read);
    return 0;
  }
  for (uint32_t q = 0; q < p->n_preds; q++)
    read[q] = keyword_of(g, p->preds[q].name, p->preds[q].arity) >= 0 && !is_declaration(g, q);
  while (mark_read(p, read)) {
  }
  for (uint32_t q = 0; q < p->n_preds; q++) g->left_out[q] = !read[q];
  free(read);
  return 1;
}

static void walk_rule(dl_rgraph *g, uint32_t r)
{
  const dl_program *p = g->p;
  const dl_rule *rule = &p->ast->rules[r];
  if (g->fact_pred[p->head_pred[r]]) return;  /* written per copy */
  if (g->left_out && g->left_out[p->head_pred[r]]) return;
  g->rule = r;
  memset(g->var_at, 0, rule->n_vars * sizeof *g->var_at);
  uint32_t v = g->building ? add_vertex(g, DL_RG_RULE, DL_RG_RULE, 0, r) : 0;
  uint32_t head = walk_atom(g, rule->head, p->head_pred[r], 0);
  if (g->building) add_edge(g, v, head);
  for (uint32_t i = 0; i < rule->n_body && !g->failed; i++) {
    uint32_t l = walk_literal(g, &rule->body[i], p->lit_pred[r][i]);
    if (g->building) add_edge(g, v, l), add_edge(g, head, l);
  }
}

/* The facts of copy k: each a rule whose head is an occurrence of the
 * copy, its arguments at the copy's classes. */
static void write_copy_facts(dl_rgraph *g, uint32_t k)
{
  const dl_program *p = g->p;
  for (uint32_t r = 0; r < p->ast->n_rules && !g->failed; r++) {
    const copy *c = &g->copies[k];
    if (p->head_pred[r] != c->pred) continue;
    const ast_term *a = p->ast->rules[r].head;
    g->rule = r;
    uint32_t v = add_vertex(g, DL_RG_RULE, DL_RG_RULE, 0, r);
    uint32_t occ = add_vertex(g, DL_RG_PRED, DL_RG_PRED, a->value, ast_atom_arity(a));
    add_edge(g, v, occ);
    add_edge(g, c->vertex, occ);
    walk_args(g, a, c->classes, occ, c->vertex, 0);
  }
}

/* The predicates given by ground facts only, no keyword among them. */
static int find_fact_preds(dl_rgraph *g)
{
  const dl_program *p = g->p;
  uint8_t *has_rule = calloc(p->n_preds + 1, 1);
  g->fact_pred = calloc(p->n_preds + 1, 1);
  if (!has_rule || !g->fact_pred) {
    free(has_rule);
    return 0;
  }
  for (uint32_t q = 0; q < p->n_preds; q++)
    g->fact_pred[q] = keyword_of(g, p->preds[q].name, p->preds[q].arity) < 0 && p->preds[q].arity > 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    uint32_t q = p->head_pred[r];
    has_rule[q] = 1;
    if (p->ast->rules[r].n_body || p->ast->rules[r].n_vars) g->fact_pred[q] = 0;
  }
  for (uint32_t q = 0; q < p->n_preds; q++) g->fact_pred[q] &= has_rule[q] && !g->untyped;
  free(has_rule);
  return 1;
}

/* The first position of each class, for labels. */
static int first_of_classes(dl_rgraph *g)
{
  uint8_t *fresh = calloc((size_t)g->n_pos + 1, 1);
  if (!fresh || !(g->class_first = malloc(((size_t)g->n_pos + 1) * sizeof *g->class_first))) {
    free(fresh);
    return 0;
  }
  for (uint32_t i = 0; i < g->fresh.n; i++) fresh[g->fresh.ids[i]] = 1;
  for (uint32_t x = 0; x < g->n_pos; x++) g->class_first[x] = UINT32_MAX;
  for (int pass = 0; pass < 2; pass++)  /* fresh positions, then symbols' over them: a symbol's wins */
    for (uint32_t x = g->n_pos; x-- > 0;)
      if (fresh[x] == !pass) g->class_first[find(g, x)] = x;
  g->class_fresh = fresh;
  return 1;
}

static uint32_t max_vars(const ast_program *ast)
{
  uint32_t n = 1;
  for (uint32_t r = 0; r < ast->n_rules; r++)
    if (ast->rules[r].n_vars > n) n = ast->rules[r].n_vars;
  return n;
}

/* The keyword symbols and the positions of their arguments. */
static void add_keywords(dl_rgraph *g)
{
  static const char *const names[DL_RG_POS_KEYWORDS] = { "true", "does", "does", "goal" };
  static const uint32_t args[DL_RG_POS_KEYWORDS] = { 1, 1, 2, 2 };
  for (int k = 0; k < DL_RG_KEYWORDS; k++)
    g->keyword[k] = dl_terms_symbol(g->terms, keywords[k].name, strlen(keywords[k].name));
  for (int k = 0; k < DL_RG_POS_KEYWORDS; k++)
    new_position(g, dl_terms_symbol(g->terms, names[k], strlen(names[k])), args[k]);
}

dl_rgraph *dl_rgraph_build(const dl_program *p, const dl_rgraph_options *o, dl_diag *diag)
{
  assert(p && p->ast && diag);
  dl_rgraph *g = calloc(1, sizeof *g);
  if (g) g->p = p, g->terms = p->terms, g->untyped = o && o->untyped, g->no_declarations = o && o->no_declarations;
  int ok = g && (g->var_at = calloc(max_vars(p->ast), sizeof *g->var_at));
  if (ok) add_keywords(g);
  ok = ok && !g->failed && find_fact_preds(g) && find_left_out(g);
  for (int building = 0; ok && building < 2; building++) {
    g->building = building, g->fresh_next = 0;
    for (uint32_t r = 0; r < p->ast->n_rules && !g->failed; r++) walk_rule(g, r);
  }
  for (uint32_t k = 0; ok && k < g->n_copies && !g->failed; k++) write_copy_facts(g, k);
  ok = ok && !g->failed && first_of_classes(g) && colour_values(g);
  if (!ok) {
    dl_rgraph_destroy(g);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory building the rule graph");
    return NULL;
  }
  free(g->var_at);
  g->var_at = NULL;
  return g;
}

void dl_rgraph_destroy(dl_rgraph *g)
{
  if (!g) return;
  Word_t bytes;
  JLFA(bytes, g->pos_of);
  JLFA(bytes, g->symbol_of);
  JLFA(bytes, g->constant_of);
  JLFA(bytes, g->classes_of);
  J1FA(bytes, g->values);
  (void)bytes;
  for (uint32_t k = 0; k < g->n_copies; k++) free(g->copies[k].classes);
  free(g->copies);
  dl_ids_free(&g->edges);
  dl_ids_free(&g->fresh);
  free(g->parent), free(g->pos_sym), free(g->pos_arg), free(g->class_first), free(g->class_fresh);
  free(g->fact_pred);
  free(g->left_out);
  free(g->var_at);
  free(g->v);
  free(g);
}

/* ---- questions ---- */

uint32_t dl_rgraph_vertex_count(const dl_rgraph *g) { return g->n_v; }

const dl_rg_vertex *dl_rgraph_vertex(const dl_rgraph *g, uint32_t v)
{
  assert(v < g->n_v);
  return &g->v[v];
}

uint32_t dl_rgraph_edge_count(const dl_rgraph *g) { return g->edges.n / 2; }

void dl_rgraph_edge(const dl_rgraph *g, uint32_t i, uint32_t *from, uint32_t *to)
{
  assert(i < g->edges.n / 2);
  *from = g->edges.ids[2 * i], *to = g->edges.ids[2 * i + 1];
}

uint32_t dl_rgraph_symbol_vertex(const dl_rgraph *g, dl_sym sym, uint32_t n)
{
  Word_t *slot;
  JLG(slot, g->symbol_of, (Word_t)sym << 32 | n);
  return slot ? (uint32_t)(*slot - 1) : UINT32_MAX;
}

/* The class of pos, without path compression (g is read only here). */
static uint32_t class_of(const dl_rgraph *g, uint32_t pos)
{
  while (g->parent[pos] != pos) pos = g->parent[pos];
  return pos;
}

uint32_t dl_rgraph_constant_vertex(const dl_rgraph *g, dl_sym sym, uint32_t pos)
{
  assert(pos < g->n_pos);
  Word_t *slot;
  JLG(slot, g->constant_of, (Word_t)sym << 32 | (g->untyped ? 0 : class_of(g, pos)));
  return slot ? (uint32_t)(*slot - 1) : UINT32_MAX;
}

uint32_t dl_rgraph_arg_position(const dl_rgraph *g, uint32_t v, uint32_t i)
{
  assert(v < g->n_v && g->v[v].kind == DL_RG_SYMBOL && i < g->v[v].n);
  return g->v[v].pos + i;
}

uint32_t dl_rgraph_keyword_position(const dl_rgraph *g, dl_rg_keyword_position k)
{
  (void)g;
  assert(k < DL_RG_POS_KEYWORDS && (uint32_t)k < g->n_pos);
  return (uint32_t)k;  /* made first, in this order */
}

/* ---- text ---- */

static void add_name(const dl_rgraph *g, dl_sym s, dl_buf *out)
{
  size_t len;
  const char *name = dl_terms_name(g->terms, s, &len);
  dl_buf_add(out, name, len);
}

/* Appends "@p[i]", the first position of constant vertex x's class, when
 * its name has several classes. */
static void add_class(const dl_rgraph *g, const dl_rg_vertex *x, dl_buf *out)
{
  Word_t *count;
  JLG(count, g->classes_of, x->sym);
  if (!count || *count < 2) return;
  uint32_t first = g->class_first[x->pos];
  dl_buf_addz(out, "@");
  if (g->pos_sym[first]) add_name(g, g->pos_sym[first], out);
  else dl_buf_addz(out, "distinct");
  dl_buf_addf(out, "[%u]", g->pos_arg[first] ? g->pos_arg[first] : 1);
  if (g->class_fresh[first]) dl_buf_addf(out, "#%u", x->pos);  /* a class of uses only: its number */
}

/* 1 when the fact predicate named sym has several copies. */
static int several_copies(const dl_rgraph *g, dl_sym sym)
{
  uint32_t n = 0;
  for (uint32_t k = 0; k < g->n_copies && n < 2; k++) n += g->p->preds[g->copies[k].pred].name == sym;
  return n > 1;
}

void dl_rgraph_write_label(const dl_rgraph *g, uint32_t v, dl_buf *out)
{
  const dl_rg_vertex *x = dl_rgraph_vertex(g, v);
  static const char *const connective[] = { ":-", "not", "distinct", "=" };
  if (x->kind <= DL_RG_EQUAL) {
    dl_buf_addz(out, connective[x->kind]);
    return;
  }
  add_name(g, x->sym, out);
  if (x->copy && several_copies(g, x->sym)) dl_buf_addf(out, "#%u", x->copy);
  if (x->kind == DL_RG_ARG) dl_buf_addf(out, "[%u]", x->n);
  if (x->kind == DL_RG_SYMBOL && x->n == 0 && dl_rgraph_symbol_vertex(g, x->sym, 0) != v) add_class(g, x, out);
}

static const char *kind_name(uint8_t kind)
{
  static const char *const names[DL_RG_KINDS] = { "rule", "not", "distinct", "equal", "keyword", "predicate",
                                            "function", "variable-occurrence", "argument", "variable", "symbol" };
  return names[kind];
}

static const char *dot_shape(uint8_t kind)
{
  static const char *const shapes[DL_RG_KINDS] = { "diamond", "diamond", "diamond", "diamond", "box", "box",
                                             "ellipse", "ellipse", "circle", "plaintext", "plaintext" };
  return shapes[kind];
}

/* Appends s[0..len) as the inside of a DOT string. */
static void add_dot_text(dl_buf *out, const char *s, size_t len)
{
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '"' || s[i] == '\\') dl_buf_add(out, "\\", 1);
    dl_buf_add(out, s + i, 1);
  }
}

void dl_rgraph_write_dot(const dl_rgraph *g, dl_buf *out)
{
  static const char *const fill[] = { "white", "lightblue", "lightgreen", "lightyellow", "pink", "orange",
                                "lightgrey", "plum", "khaki", "cyan", "salmon", "wheat" };
  uint32_t n_fill = sizeof fill / sizeof *fill;
  dl_buf label = { 0 };
  dl_buf_addz(out, "digraph rulegraph {\n  node [style=filled];\n");
  for (uint32_t v = 0; v < g->n_v; v++) {
    label.len = 0;
    dl_rgraph_write_label(g, v, &label);
    dl_buf_addf(out, "  v%u [label=\"", v);
    add_dot_text(out, label.data ? label.data : "", label.len);
    dl_buf_addf(out, "\", shape=%s, fillcolor=%s];\n", dot_shape(g->v[v].kind), fill[g->v[v].colour % n_fill]);
  }
  for (uint32_t i = 0; i < g->edges.n; i += 2)
    dl_buf_addf(out, "  v%u -> v%u;\n", g->edges.ids[i], g->edges.ids[i + 1]);
  dl_buf_addz(out, "}\n");
  if (label.failed) out->failed = 1;
  dl_buf_free(&label);
}

void dl_rgraph_write_text(const dl_rgraph *g, dl_buf *out)
{
  dl_buf_addf(out, "vertices %u, edges %u\n", g->n_v, g->edges.n / 2);
  for (uint32_t v = 0; v < g->n_v; v++) {
    dl_buf_addf(out, "%u %s %u ", v, kind_name(g->v[v].kind), g->v[v].colour);
    dl_rgraph_write_label(g, v, out);
    dl_buf_addz(out, "\n");
  }
  for (uint32_t i = 0; i < g->edges.n; i += 2) dl_buf_addf(out, "%u -> %u\n", g->edges.ids[i], g->edges.ids[i + 1]);
}

void dl_rgraph_write_dimacs(const dl_rgraph *g, dl_buf *out)
{
  dl_buf_addf(out, "p edge %u %u\n", g->n_v, g->edges.n / 2);
  for (uint32_t v = 0; v < g->n_v; v++) dl_buf_addf(out, "n %u %u\n", v + 1, g->v[v].colour);
  for (uint32_t i = 0; i < g->edges.n; i += 2) dl_buf_addf(out, "e %u %u\n", g->edges.ids[i] + 1, g->edges.ids[i + 1] + 1);
}
