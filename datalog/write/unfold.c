/* unfold.c: recursive predicates unfolded along the arguments that change
 * in their recursion (see unfold.h). */
#include "datalog/write/unfold.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/arena.h"
#include "datalog/base/buf.h"
#include "strata/strata.h"

enum { MAX_UNFOLD_ARITY = 64 };

struct dl_unfold {
  const dl_program *game;
  const dl_ground *g;
  const uint8_t *as_written, *ground_reads;
  dl_arena *arena;        /* the unfolded rules' nodes */
  uint64_t *k_mask;       /* per predicate: its positions K, 0 when not unfolded */
  uint8_t *replaces;      /* per rule of the game */
  Pvoid_t occurring;      /* Judy1 of the unfolded names that atoms of the ground game have */
  char sep[16];           /* in no symbol of the game */
  uint32_t *n_names;      /* per predicate unfolded: into this many predicates */
  uint32_t n_over_budget; /* predicates not unfolded for room */
  double room_wanted;     /* the room that would have let the last of them be */
  dl_rule *rules;         /* the unfolded rules */
  uint32_t n_rules, cap_rules;
  uint32_t *inst_start;   /* per rule of the game: its ground instances, */
  uint32_t *inst;         /*   inst[inst_start[r] .. inst_start[r + 1]) */
  uint32_t n_preds;
  uint64_t bytes;
};

/* ---- which predicates ------------------------------------------------------- */

static int some_symbol_contains(const dl_terms *t, const char *sep)
{
  for (uint32_t s = 0; s < dl_terms_symbol_count(t); s++)
    if (strstr(dl_terms_name(t, s, NULL), sep)) return 1;
  return 0;
}

/* A separator that no symbol of the game contains: "__", else "_0_", ... */
static void choose_separator(dl_unfold *u)
{
  strcpy(u->sep, "__");
  for (unsigned i = 0; some_symbol_contains(u->game->terms, u->sep); i++) snprintf(u->sep, sizeof u->sep, "_%u_", i);
}

/* The component of the program's predicate graph that q is in has q only. */
static int alone_in_component(const dl_program *p, uint32_t q)
{
  for (uint32_t c = 0; c < p->strata->n_sccs; c++) {
    uint32_t n;
    const uint32_t *preds = dl_program_component_preds(p, c, &n);
    for (uint32_t i = 0; i < n; i++)
      if (preds[i] == q) return n == 1;
  }
  return 0;
}

/* Whether q may be unfolded (see unfold.h): dynamic, no keyword, read by
 * no rule written ground, all its rules written as written, and recursive
 * through itself alone. */
static int is_candidate(const dl_unfold *u, uint32_t q)
{
  const dl_program *p = u->game;
  if (dl_ground_pred_role(u->g, q) != DL_ATOM_OTHER || !dl_ground_pred_dynamic(u->g, q) || u->ground_reads[q] ||
      p->preds[q].arity == 0 || p->preds[q].arity > MAX_UNFOLD_ARITY)
    return 0;
  int recursive = 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    if (p->head_pred[r] != q) continue;
    if (!u->as_written[r]) return 0;
    for (uint32_t j = 0; j < p->ast->rules[r].n_body; j++) recursive |= p->lit_pred[r][j] == q;
  }
  return recursive && alone_in_component(p, q);
}

/* Rule r mentions an unfolded predicate (head or body). */
static int involved(const dl_unfold *u, uint32_t r)
{
  const dl_program *p = u->game;
  if (u->k_mask[p->head_pred[r]]) return 1;
  for (uint32_t j = 0; j < p->ast->rules[r].n_body; j++)
    if (p->lit_pred[r][j] != DL_NO_PRED && u->k_mask[p->lit_pred[r][j]]) return 1;
  return 0;
}

/* Marks in var the variables of rule r at positions K of its unfolded atoms. */
static void mark_k_vars(const dl_unfold *u, uint32_t r, uint8_t *var)
{
  const dl_program *p = u->game;
  const dl_rule *rule = &p->ast->rules[r];
  for (uint32_t j = 0; j <= rule->n_body; j++) {
    uint32_t q = j < rule->n_body ? p->lit_pred[r][j] : p->head_pred[r];
    const ast_term *a = j < rule->n_body ? rule->body[j].atom : rule->head;
    if (q == DL_NO_PRED || !u->k_mask[q]) continue;
    for (uint32_t i = 0; i < a->n; i++)
      if ((u->k_mask[q] >> i & 1) && a->args[i]->kind == AST_VAR) var[a->args[i]->value] = 1;
  }
}

static void mark_vars_of(const ast_term *t, uint8_t *var)
{
  if (t->kind == AST_VAR) var[t->value] = 1;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) mark_vars_of(t->args[i], var);
}

/* Whether each ground instance of rule r tells the values of its K
 * variables: each is in the head or a positive literal of a dynamic
 * predicate (the instance's atoms). */
static int k_vars_told(const dl_unfold *u, uint32_t r, uint8_t *need, uint8_t *told)
{
  const dl_program *p = u->game;
  const dl_rule *rule = &p->ast->rules[r];
  memset(need, 0, rule->n_vars + 1);
  memset(told, 0, rule->n_vars + 1);
  mark_k_vars(u, r, need);
  mark_vars_of(rule->head, told);
  for (uint32_t j = 0; j < rule->n_body; j++) {
    uint32_t q = p->lit_pred[r][j];
    if (rule->body[j].kind == DL_POS && dl_ground_pred_dynamic(u->g, q)) mark_vars_of(rule->body[j].atom, told);
  }
  for (uint32_t v = 0; v < rule->n_vars; v++)
    if (need[v] && !told[v]) return 0;
  return 1;
}

/* The most variables a rule of p has (at least 1). */
static uint32_t most_vars(const dl_program *p)
{
  uint32_t most = 1;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) most = p->ast->rules[r].n_vars > most ? p->ast->rules[r].n_vars : most;
  return most;
}

/* Drops the candidates that a rule written as written mentions when its
 * instances would not tell its K variables, until none does. */
static int drop_untold(dl_unfold *u)
{
  const dl_program *p = u->game;
  uint32_t most = most_vars(p);
  uint8_t *need = malloc(most + 1), *told = malloc(most + 1);
  int ok = need && told;
  for (int changed = 1; ok && changed;) {
    changed = 0;
    for (uint32_t r = 0; r < p->ast->n_rules; r++) {
      if (!u->as_written[r] || !involved(u, r) || k_vars_told(u, r, need, told)) continue;
      u->k_mask[p->head_pred[r]] = 0;
      for (uint32_t j = 0; j < p->ast->rules[r].n_body; j++)
        if (p->lit_pred[r][j] != DL_NO_PRED) u->k_mask[p->lit_pred[r][j]] = 0;
      changed = 1;
    }
  }
  free(need);
  free(told);
  return ok;
}

/* ---- names ------------------------------------------------------------------- */

/* The unfolded name of q's atom whose constants at K are the symbols
 * vals[0..): q's name, then each after the separator.  DL_NO_SYM when out
 * of memory. */
static dl_sym unfolded_name(dl_unfold *u, uint32_t q, const dl_sym *vals)
{
  dl_terms *t = u->game->terms;
  dl_buf b = { 0 };
  dl_buf_addz(&b, dl_terms_name(t, u->game->preds[q].name, NULL));
  for (uint32_t k = 0; k < (uint32_t)__builtin_popcountll(u->k_mask[q]); k++) {
    dl_buf_addz(&b, u->sep);
    dl_buf_addz(&b, dl_terms_name(t, vals[k], NULL));
  }
  dl_sym s = b.failed ? DL_NO_SYM : dl_terms_symbol(t, b.data, b.len);
  dl_buf_free(&b);
  return s;
}

/* The predicate of atom id of the ground game when it is one with
 * positions in u->k_mask, its arguments in *args; else DL_NO_PRED. */
static uint32_t masked_atom(const dl_unfold *u, uint32_t id, const dl_tid **args)
{
  const dl_terms *t = dl_ground_terms(u->g);
  dl_tid a = dl_ground_atom_term(u->g, id);
  uint32_t q = dl_program_pred(u->game, dl_terms_functor(t, a));
  if (q == DL_NO_PRED || !u->k_mask[q] || dl_terms_arity(t, a) != u->game->preds[q].arity) return DL_NO_PRED;
  *args = dl_terms_args(t, a);
  return q;
}

/* Records the unfolded names of the atoms of the ground game. */
static int name_occurring(dl_unfold *u)
{
  for (uint32_t id = 1; id <= dl_ground_atom_count(u->g); id++) {
    const dl_tid *args;
    uint32_t q = masked_atom(u, id, &args), n = 0;
    if (q == DL_NO_PRED) continue;
    dl_sym vals[MAX_UNFOLD_ARITY];
    for (uint32_t i = 0; i < u->game->preds[q].arity; i++)
      if (u->k_mask[q] >> i & 1) vals[n++] = dl_terms_functor(dl_ground_terms(u->g), args[i]);
    dl_sym s = unfolded_name(u, q, vals);
    if (s == DL_NO_SYM || Judy1Set(&u->occurring, s, PJE0) == JERR) return 0;
  }
  return 1;
}

/* ---- instances ------------------------------------------------------------------- */

/* Buckets the ground game's rules by the game rule they are instances of. */
static int index_instances(dl_unfold *u)
{
  uint32_t n = u->game->ast->n_rules, m = dl_ground_rule_count(u->g);
  u->inst_start = calloc((size_t)n + 2, sizeof *u->inst_start);
  u->inst = malloc(((size_t)m + 1) * sizeof *u->inst);
  if (!u->inst_start || !u->inst) return 0;
  for (uint32_t i = 0; i < m; i++) {
    uint32_t r = dl_ground_rule_origin(u->g, i);
    if (r < n) u->inst_start[r + 2]++;
  }
  for (uint32_t r = 0; r < n; r++) u->inst_start[r + 2] += u->inst_start[r + 1];
  for (uint32_t i = 0; i < m; i++) {
    uint32_t r = dl_ground_rule_origin(u->g, i);
    if (r < n) u->inst[u->inst_start[r + 1]++] = i;
  }
  return 1;
}

/* Matches pattern t against ground term x, binding variables in bind
 * (DL_NO_TERM: unbound) and recording them on trail. */
static int match(const dl_terms *terms, const ast_term *t, dl_tid x, dl_tid *bind, uint32_t *trail, uint32_t *n_trail)
{
  if (t->kind == AST_VAR) {
    if (bind[t->value] != DL_NO_TERM) return bind[t->value] == x;
    bind[t->value] = x;
    trail[(*n_trail)++] = t->value;
    return 1;
  }
  if (dl_terms_functor(terms, x) != t->value || dl_terms_arity(terms, x) != ast_atom_arity(t)) return 0;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (!match(terms, t->args[i], dl_terms_args(terms, x)[i], bind, trail, n_trail)) return 0;
  return 1;
}

typedef struct matcher {
  const dl_unfold *u;
  uint32_t r;
  const int32_t *body;
  uint32_t n_body;
  dl_tid *bind;
  uint32_t *trail, n_trail;
} matcher;

/* Matches the positive dynamic literals of the rule from the j-th on
 * against the instance's positive atoms, backtracking. */
static int match_body(matcher *m, uint32_t j)
{
  const dl_program *p = m->u->game;
  const dl_rule *rule = &p->ast->rules[m->r];
  while (j < rule->n_body && !(rule->body[j].kind == DL_POS && dl_ground_pred_dynamic(m->u->g, p->lit_pred[m->r][j])))
    j++;
  if (j == rule->n_body) return 1;
  const dl_terms *t = dl_ground_terms(m->u->g);
  for (uint32_t k = 0; k < m->n_body; k++) {
    if (m->body[k] < 0) continue;
    uint32_t mark = m->n_trail;
    if (match(t, rule->body[j].atom, dl_ground_atom_term(m->u->g, (uint32_t)m->body[k]), m->bind, m->trail, &m->n_trail) &&
        match_body(m, j + 1))
      return 1;
    while (m->n_trail > mark) m->bind[m->trail[--m->n_trail]] = DL_NO_TERM;
  }
  return 0;
}

/* The values of rule r's variables in its ground instance i, into bind
 * (n_vars entries); 0 when the instance does not match the rule. */
static int instance_values(const dl_unfold *u, uint32_t r, uint32_t i, dl_tid *bind, uint32_t *trail)
{
  const dl_rule *rule = &u->game->ast->rules[r];
  matcher m = { u, r, NULL, 0, bind, trail, 0 };
  for (uint32_t v = 0; v < rule->n_vars; v++) bind[v] = DL_NO_TERM;
  int32_t head = dl_ground_rule(u->g, i, &m.body, &m.n_body);
  return match(dl_ground_terms(u->g), rule->head, dl_ground_atom_term(u->g, (uint32_t)head), bind, trail, &m.n_trail) &&
         match_body(&m, 0);
}

/* ---- unfolded rules ---------------------------------------------------------------- */

static int is_ground(const ast_term *t)
{
  if (t->kind == AST_VAR) return 0;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++)
    if (!is_ground(t->args[i])) return 0;
  return 1;
}

/* t with the variables that have values in bind replaced by them (constants). */
static ast_term *substitute(dl_unfold *u, const ast_term *t, const dl_tid *bind)
{
  if (t->kind == AST_SYM || (t->kind == AST_VAR && bind[t->value] == DL_NO_TERM)) return (ast_term *)t;
  ast_term *c = dl_arena_alloc(u->arena, sizeof *c);
  if (!c) return NULL;
  *c = *t;
  if (t->kind == AST_VAR) {
    c->kind = AST_SYM;
    c->value = dl_terms_functor(u->game->terms, bind[t->value]);
    return c;
  }
  c->args = dl_arena_alloc(u->arena, t->n * sizeof *c->args);
  if (!c->args) return NULL;
  for (uint32_t i = 0; i < t->n; i++)
    if (!(c->args[i] = substitute(u, t->args[i], bind))) return NULL;
  return c;
}

/* Atom a of predicate q (substituted, K ground) as its unfolded atom;
 * *occurs tells whether an atom of the ground game has that name. */
static ast_term *rename_atom(dl_unfold *u, uint32_t q, const ast_term *a, int *occurs)
{
  dl_sym vals[MAX_UNFOLD_ARITY];
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->n; i++) {
    if (!(u->k_mask[q] >> i & 1)) continue;
    if (a->args[i]->kind != AST_SYM) return NULL;  /* no instance has it: not reached */
    vals[n++] = a->args[i]->value;
  }
  dl_sym s = unfolded_name(u, q, vals);
  ast_term *c = s == DL_NO_SYM ? NULL : dl_arena_alloc(u->arena, sizeof *c);
  if (!c || !(c->args = dl_arena_alloc(u->arena, a->n * sizeof *c->args))) return NULL;
  *occurs = Judy1Test(u->occurring, s, PJE0) == 1;
  c->kind = AST_FUN, c->off = a->off, c->value = s, c->n = 0;
  for (uint32_t i = 0; i < a->n; i++)
    if (!(u->k_mask[q] >> i & 1)) c->args[c->n++] = a->args[i];
  if (c->n == 0) c->kind = AST_SYM;
  return c;
}

/* The literal j of rule r under bind into *out; 0 when it is left out (it
 * held in the instance, or is a negated unfolded atom no atom has), -1
 * when out of memory or not renamable. */
static int unfold_literal(dl_unfold *u, uint32_t r, uint32_t j, const dl_tid *bind, dl_literal *out)
{
  const dl_program *p = u->game;
  const dl_literal *l = &p->ast->rules[r].body[j];
  *out = *l;
  if (l->kind == DL_DISTINCT || l->kind == DL_EQUAL) {
    out->a = substitute(u, l->a, bind);
    out->b = substitute(u, l->b, bind);
    if (!out->a || !out->b) return -1;
    return !(is_ground(out->a) && is_ground(out->b));
  }
  uint32_t q = p->lit_pred[r][j];
  if (!(out->atom = substitute(u, l->atom, bind))) return -1;
  if (!dl_ground_pred_dynamic(u->g, q)) return !is_ground(out->atom);
  if (!u->k_mask[q]) return 1;
  int occurs;
  if (!(out->atom = rename_atom(u, q, out->atom, &occurs))) return -1;
  return l->kind == DL_POS || occurs;
}

/* Adds rule r with the values in bind (its K variables' at least). */
static int add_unfolded(dl_unfold *u, uint32_t r, const dl_tid *bind)
{
  const dl_program *p = u->game;
  const dl_rule *rule = &p->ast->rules[r];
  dl_rule out = *rule;
  out.body = dl_arena_alloc(u->arena, (rule->n_body + 1) * sizeof *out.body);
  out.head = substitute(u, rule->head, bind);
  if (!out.body || !out.head) return 0;
  int occurs;
  if (u->k_mask[p->head_pred[r]] && !(out.head = rename_atom(u, p->head_pred[r], out.head, &occurs))) return 0;
  out.n_body = 0;
  for (uint32_t j = 0; j < rule->n_body; j++) {
    int kept = unfold_literal(u, r, j, bind, &out.body[out.n_body]);
    if (kept < 0) return 0;
    out.n_body += (uint32_t)kept;
  }
  return ast_rules_push(&u->rules, &u->n_rules, &u->cap_rules, &out);
}

/* Work arrays of unfold_rule, each with room for a rule's variables. */
typedef struct scratch {
  dl_tid *bind;     /* per variable: its value in the instance at hand */
  uint32_t *trail;  /* the variables bound, for match's backtracking */
  uint32_t *ks;     /* the variables at positions K */
  dl_tid *key;      /* their values */
  uint8_t *is_k;    /* per variable: at a position K */
} scratch;

/* Adds the unfolded instances of rule r: one per tuple of values its
 * ground instances give its K variables.  1; 0 when an instance does not
 * match the rule; -1 when out of memory. */
static int unfold_rule(dl_unfold *u, uint32_t r, scratch *w)
{
  const dl_rule *rule = &u->game->ast->rules[r];
  dl_tid *bind = w->bind, *key = w->key;
  uint32_t *trail = w->trail, *ks = w->ks, n_k = 0;
  uint8_t *is_k = w->is_k;
  memset(is_k, 0, rule->n_vars + 1);
  mark_k_vars(u, r, is_k);
  for (uint32_t v = 0; v < rule->n_vars; v++)
    if (is_k[v]) ks[n_k++] = v;
  Pvoid_t seen = NULL;
  int rc = 1;
  for (uint32_t k = u->inst_start[r]; rc == 1 && k < u->inst_start[r + 1]; k++) {
    rc = instance_values(u, r, u->inst[k], bind, trail);
    for (uint32_t x = 0; rc == 1 && x < n_k; x++) key[x] = bind[ks[x]], rc = key[x] != DL_NO_TERM;
    PWord_t v = rc == 1 ? (PWord_t)JudyHSIns(&seen, key, n_k * sizeof *key, PJE0) : NULL;
    if (v == PJERR) rc = -1;
    if (rc != 1 || *v) continue;
    *v = 1;
    for (uint32_t x = 0; x < rule->n_vars; x++) bind[x] = is_k[x] ? bind[x] : DL_NO_TERM;
    if (!add_unfolded(u, r, bind)) rc = -1;
  }
  JudyHSFreeArray(&seen, PJE0);
  return rc;
}

/* ---- the positions K ------------------------------------------------------------- */

/* The atom of the ground game with id `id` when it is one of q's. */
static const dl_tid *args_of(const dl_unfold *u, uint32_t q, uint32_t id)
{
  const dl_terms *t = dl_ground_terms(u->g);
  dl_tid a = dl_ground_atom_term(u->g, id);
  if (dl_terms_functor(t, a) != u->game->preds[q].name || dl_terms_arity(t, a) != u->game->preds[q].arity) return NULL;
  return dl_terms_args(t, a);
}

/* Per candidate, the positions that hold a constant in every atom of the
 * ground game, into u->k_mask. */
static void constant_positions(dl_unfold *u)
{
  const dl_terms *t = dl_ground_terms(u->g);
  for (uint32_t id = 1; id <= dl_ground_atom_count(u->g); id++) {
    const dl_tid *args;
    uint32_t q = masked_atom(u, id, &args);
    for (uint32_t i = 0; q != DL_NO_PRED && i < u->game->preds[q].arity; i++)
      if (dl_terms_arity(t, args[i]) != 0) u->k_mask[q] &= ~((uint64_t)1 << i);
  }
}

/* The node of the projection of args on positions k (JudyHS: the
 * projection's ids -> node + 1), made when new; UINT32_MAX when out of
 * memory. */
static uint32_t node_of(Pvoid_t *node, uint32_t *n, const dl_tid *args, uint64_t k)
{
  dl_tid key[MAX_UNFOLD_ARITY];
  uint32_t m = 0;
  for (uint32_t i = 0; k >> i; i++)
    if (k >> i & 1) key[m++] = args[i];
  PWord_t v = (PWord_t)JudyHSIns(node, key, m * sizeof *key, PJE0);
  if (v == PJERR) return UINT32_MAX;
  if (!*v) *v = ++*n;
  return (uint32_t)*v - 1;
}

typedef struct graph {
  uint32_t n, n_edges, cap;
  uint32_t *from, *to;
} graph;

static int add_edge(graph *gr, uint32_t a, uint32_t b)
{
  if (gr->n_edges == gr->cap) {
    uint32_t cap = gr->cap ? 2 * gr->cap : 256;
    uint32_t *f = realloc(gr->from, cap * sizeof *f), *t = f ? realloc(gr->to, cap * sizeof *t) : NULL;
    if (f) gr->from = f;
    if (!t) return 0;
    gr->to = t;
    gr->cap = cap;
  }
  gr->from[gr->n_edges] = a, gr->to[gr->n_edges++] = b;
  return 1;
}

/* The edges from the head to each literal of q in q's ground instances,
 * between their projections on k.  1; 0 when an instance's head is not an
 * atom of q (grounding split the rule through auxiliary atoms); -1 when
 * out of memory. */
static int instance_edges(const dl_unfold *u, uint32_t q, uint64_t k, Pvoid_t *node, graph *gr)
{
  const dl_program *p = u->game;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    if (p->head_pred[r] != q) continue;
    for (uint32_t x = u->inst_start[r]; x < u->inst_start[r + 1]; x++) {
      const int32_t *body;
      uint32_t n;
      const dl_tid *head = args_of(u, q, (uint32_t)dl_ground_rule(u->g, u->inst[x], &body, &n));
      if (!head) return 0;
      uint32_t h = node_of(node, &gr->n, head, k);
      for (uint32_t j = 0; h != UINT32_MAX && j < n; j++) {
        const dl_tid *args = args_of(u, q, (uint32_t)(body[j] < 0 ? -body[j] : body[j]));
        uint32_t b = args ? node_of(node, &gr->n, args, k) : 0;
        if (b == UINT32_MAX || (args && !add_edge(gr, h, b))) return -1;
      }
      if (h == UINT32_MAX) return -1;
    }
  }
  return 1;
}

/* Whether gr has no edge from a node to itself and no cycle (Kahn's
 * algorithm); -1 when out of memory. */
static int is_dag(const graph *gr)
{
  uint32_t *start = calloc((size_t)gr->n + 2, sizeof *start), *adj = malloc(((size_t)gr->n_edges + 1) * sizeof *adj);
  uint32_t *indeg = calloc((size_t)gr->n + 1, sizeof *indeg), *ready = malloc(((size_t)gr->n + 1) * sizeof *ready);
  int dag = -1;
  if (start && adj && indeg && ready) {
    dag = 1;
    for (uint32_t e = 0; e < gr->n_edges; e++) start[gr->from[e] + 2]++, indeg[gr->to[e]]++, dag &= gr->from[e] != gr->to[e];
    for (uint32_t x = 0; x < gr->n; x++) start[x + 2] += start[x + 1];
    for (uint32_t e = 0; e < gr->n_edges; e++) adj[start[gr->from[e] + 1]++] = gr->to[e];
    uint32_t n_ready = 0, done = 0;
    for (uint32_t x = 0; x < gr->n; x++)
      if (!indeg[x]) ready[n_ready++] = x;
    while (n_ready) {
      uint32_t x = ready[--n_ready];
      done++;
      for (uint32_t e = start[x]; e < start[x + 1]; e++)
        if (--indeg[adj[e]] == 0) ready[n_ready++] = adj[e];
    }
    dag &= done == gr->n;
  }
  free(start), free(adj), free(indeg), free(ready);
  return dag;
}

/* The number of projections on k of q's atoms (atoms[0..n_atoms)), if
 * the unfolded predicates on k depend on each other without a cycle (none
 * reads itself); else 0.  UINT32_MAX when out of memory. */
static uint32_t unfolded_count(const dl_unfold *u, uint32_t q, uint64_t k, const uint32_t *atoms, uint32_t n_atoms)
{
  Pvoid_t node = NULL;
  graph gr = { 0 };
  int rc = instance_edges(u, q, k, &node, &gr);
  for (uint32_t x = 0; rc == 1 && x < n_atoms; x++)
    if (node_of(&node, &gr.n, args_of(u, q, atoms[x]), k) == UINT32_MAX) rc = -1;
  int dag = rc == 1 ? is_dag(&gr) : rc;
  JudyHSFreeArray(&node, PJE0);
  free(gr.from), free(gr.to);
  return dag < 0 ? UINT32_MAX : dag ? gr.n : 0;
}

/* The ids of q's atoms in the ground game, their number in *n; NULL when
 * out of memory. */
static uint32_t *atoms_of(const dl_unfold *u, uint32_t q, uint32_t *n)
{
  uint32_t *atoms = malloc(((size_t)dl_ground_atom_count(u->g) + 1) * sizeof *atoms);
  *n = 0;
  for (uint32_t id = 1; atoms && id <= dl_ground_atom_count(u->g); id++)
    if (args_of(u, q, id)) atoms[(*n)++] = id;
  return atoms;
}

enum {
  MAX_SUBSET_POSITIONS = 10,  /* 1,023 sets of positions tried at most, */
  MAX_SUBSET_WORK = 1 << 21   /*   fewer when q has many atoms and instances */
};

/* The set of q's constant positions whose unfolding has no cycle and the
 * fewest predicates, into u->k_mask[q] (0: none).  0 when out of memory. */
static int choose_positions(dl_unfold *u, uint32_t q)
{
  uint64_t eligible = u->k_mask[q], best = 0, work = 1;
  uint32_t pos[MAX_UNFOLD_ARITY], n = 0, fewest = UINT32_MAX, n_atoms;
  for (uint32_t i = 0; eligible >> i; i++)
    if (eligible >> i & 1) pos[n++] = i;
  uint32_t *atoms = atoms_of(u, q, &n_atoms);
  if (!atoms) return 0;
  for (uint32_t r = 0; r < u->game->ast->n_rules; r++)
    work += u->game->head_pred[r] == q ? u->inst_start[r + 1] - u->inst_start[r] : 0;
  work += n_atoms;
  while (n > 0 && (n > MAX_SUBSET_POSITIONS || (((uint64_t)1 << n) - 1) * work > MAX_SUBSET_WORK)) n--;
  for (uint32_t set = 1; set < (1u << n); set++) {
    uint64_t k = 0;
    for (uint32_t i = 0; i < n; i++)
      if (set >> i & 1) k |= (uint64_t)1 << pos[i];
    uint32_t c = unfolded_count(u, q, k, atoms, n_atoms);
    if (c == UINT32_MAX) {
      free(atoms);
      return 0;
    }
    if (c && c < fewest) fewest = c, best = k;
  }
  free(atoms);
  u->k_mask[q] = best;
  u->n_names[q] = fewest;
  return 1;
}

/* ---- the plan ---------------------------------------------------------------------- */

/* Unfolds every rule written as written that mentions a candidate: 1;
 * 0 when an instance did not match its rule; -1 when out of memory. */
static int unfold_all(dl_unfold *u)
{
  const dl_program *p = u->game;
  uint32_t most = most_vars(p);
  scratch w = { malloc((most + 1) * sizeof *w.bind), malloc((most + 1) * sizeof *w.trail),
                malloc((most + 1) * sizeof *w.ks), malloc((most + 1) * sizeof *w.key), malloc(most + 1) };
  int rc = w.bind && w.trail && w.ks && w.key && w.is_k ? 1 : -1;
  u->n_rules = 0;
  for (uint32_t r = 0; r < p->ast->n_rules; r++) {
    u->replaces[r] = rc == 1 && u->as_written[r] && involved(u, r);
    if (u->replaces[r]) rc = unfold_rule(u, r, &w);
  }
  free(w.bind), free(w.trail), free(w.ks), free(w.key), free(w.is_k);
  return rc;
}

/* Chooses each candidate's positions K; 0 when out of memory. */
static int choose_all_positions(dl_unfold *u)
{
  const dl_program *p = u->game;
  for (uint32_t q = 0; q < p->n_preds; q++)
    u->k_mask[q] = is_candidate(u, q) ? ~(uint64_t)0 >> (64 - p->preds[q].arity) : 0;
  constant_positions(u);
  for (uint32_t q = 0; q < p->n_preds; q++)
    if (u->k_mask[q] && !choose_positions(u, q)) return 0;
  return 1;
}

/* The predicate unfolded into the most predicates. */
static uint32_t largest_unfolded(const dl_unfold *u)
{
  uint32_t best = DL_NO_PRED;
  for (uint32_t q = 0; q < u->game->n_preds; q++)
    if (u->k_mask[q] && (best == DL_NO_PRED || u->n_names[q] > u->n_names[best])) best = q;
  return best;
}

/* Leaves out the predicates whose unfolded rules cannot fit in room: each
 * unfolded predicate has a rule at least as long as q's shortest, and q's
 * rules as written go. */
static void drop_too_large(dl_unfold *u, const uint64_t *rule_bytes, double room)
{
  const dl_program *p = u->game;
  for (uint32_t q = 0; q < p->n_preds; q++) {
    double shortest = 0, written = 0;
    for (uint32_t r = 0; u->k_mask[q] && r < p->ast->n_rules; r++) {
      if (p->head_pred[r] != q) continue;
      written += (double)rule_bytes[r];
      if (shortest == 0 || (double)rule_bytes[r] < shortest) shortest = (double)rule_bytes[r];
    }
    double least = shortest * u->n_names[q] - written;
    if (u->k_mask[q] && least > room) u->k_mask[q] = 0, u->n_over_budget++, u->room_wanted = least;
  }
}

/* Unfolds what can be, leaving out the predicate unfolded into the most
 * while the unfolded rules exceed the rules they replace by more than room
 * bytes.  0 when out of memory. */
static int plan(dl_unfold *u, const uint64_t *rule_bytes, double room)
{
  const dl_program *p = u->game;
  choose_separator(u);
  if (!index_instances(u) || !choose_all_positions(u)) return 0;
  if (!drop_untold(u) || !name_occurring(u)) return 0;
  drop_too_large(u, rule_bytes, room);
  for (;;) {
    int rc = unfold_all(u);
    if (rc < 0) return 0;
    if (rc == 0) memset(u->k_mask, 0, p->n_preds * sizeof *u->k_mask);
    if (!dl_output_rule_list_bytes(p, DL_FMT_KIF, u->rules, u->n_rules, &u->bytes)) return 0;
    uint64_t replaced = 0;
    for (uint32_t r = 0; r < p->ast->n_rules; r++) replaced += u->replaces[r] ? rule_bytes[r] : 0;
    uint32_t q = largest_unfolded(u);
    if (q == DL_NO_PRED || (double)u->bytes <= (double)replaced + room) break;
    u->k_mask[q] = 0;
    u->n_over_budget++;
    u->room_wanted = (double)u->bytes - (double)replaced;
  }
  for (uint32_t q = 0; q < p->n_preds; q++) u->n_preds += u->k_mask[q] != 0;
  if (u->n_preds == 0) memset(u->replaces, 0, p->ast->n_rules), u->n_rules = 0, u->bytes = 0;
  return 1;
}

dl_unfold *dl_unfold_create(const dl_program *game, const dl_ground *g, const uint8_t *as_written,
                            const uint8_t *ground_reads, const uint64_t *rule_bytes, double room, dl_diag *diag)
{
  assert(game && g && as_written && ground_reads && rule_bytes && diag);
  dl_unfold *u = calloc(1, sizeof *u);
  if (u) {
    u->game = game, u->g = g, u->as_written = as_written, u->ground_reads = ground_reads;
    u->arena = dl_arena_create();
    u->k_mask = calloc(game->n_preds + 1, sizeof *u->k_mask);
    u->replaces = calloc(game->ast->n_rules + 1, 1);
    u->n_names = calloc(game->n_preds + 1, sizeof *u->n_names);
  }
  if (u && u->arena && u->k_mask && u->replaces && u->n_names && plan(u, rule_bytes, room)) return u;
  dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory in unfolding recursive predicates");
  dl_unfold_destroy(u);
  return NULL;
}

void dl_unfold_destroy(dl_unfold *u)
{
  if (!u) return;
  dl_arena_destroy(u->arena);
  free(u->k_mask);
  free(u->replaces);
  Judy1FreeArray(&u->occurring, PJE0);
  free(u->n_names);
  free(u->rules);
  free(u->inst_start);
  free(u->inst);
  free(u);
}

uint32_t dl_unfold_pred_count(const dl_unfold *u) { return u->n_preds; }

int dl_unfold_replaces(const dl_unfold *u, uint32_t r)
{
  assert(r < u->game->ast->n_rules);
  return u->replaces[r];
}

uint64_t dl_unfold_bytes(const dl_unfold *u) { return u->bytes; }

uint32_t dl_unfold_over_budget(const dl_unfold *u) { return u->n_over_budget; }

double dl_unfold_room_wanted(const dl_unfold *u) { return u->room_wanted; }

const dl_rule *dl_unfold_rules(const dl_unfold *u, uint32_t *n)
{
  assert(u && n);
  *n = u->n_rules;
  return u->rules;
}
