/* ground_split.c: splits a rule whose join is large into pieces by
 * variable elimination (bucket elimination over the body's variables).
 *
 * A variable v outside the head, with B the literals that mention it:
 * exists v. (B and rest) = (exists v. B) and rest.  So the rule becomes
 * aux(I) :- B and head :- aux(I), rest, where I are the variables of B
 * that occur outside B.  The variables that occur only in B go with v.
 * Chess's `next (check ...)` rules have 6.8 million instances as one
 * join; as pieces, a few hundred thousand.  The pieces are instantiated
 * bottom-up, each over the instances the pieces before it made; an
 * auxiliary atom with one rule is inlined again by the pruning.
 *
 * Which variable goes first: the one whose bucket has the smallest
 * estimated join (sizes and distinct values of the literals' relations,
 * as the planner of ground_join.c estimates them).  A bucket must be safe: the
 * variables of its negative and (in)equality literals occur in a positive
 * one.  The split is made when the pieces are estimated at less than a
 * quarter of the original join. */
#include "datalog/ground/ground_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A literal of the rule being split: one of the rule's, or a piece's. */
typedef struct sp_lit {
  dl_literal lit;
  uint32_t pred;
  uint64_t vars;
  int binds;          /* a positive literal with variables: joined, estimated */
  int demand;         /* the head's demand: a filter for the last piece only */
  double size;
  double *dv;         /* [n_vars] distinct values per variable */
} sp_lit;

typedef struct splitter {
  dl_ground *g;
  const gr_rule *gr;
  uint32_t nv;
  uint64_t head;
  sp_lit *lits;
  uint32_t n;
  ast_term *var_nodes;    /* variable v as a term */
  uint32_t cap;           /* room for pieces: one per variable, and the last */
  ast_term *heads;        /* per piece: its head */
  ast_term **args;        /* per piece: n_vars room for its head's arguments */
  dl_rule *rules;         /* per piece */
  uint32_t **preds;       /* per piece: lit_pred */
  double total;           /* the pieces' estimated candidates */
  gr_pieces pc;
} splitter;

static void term_vars(const ast_term *t, uint64_t *m)
{
  if (t->kind == AST_VAR) *m |= (uint64_t)1 << t->value;
  for (uint32_t i = 0; t->kind == AST_FUN && i < t->n; i++) term_vars(t->args[i], m);
}

static uint64_t literal_vars(const dl_literal *l)
{
  uint64_t m = 0;
  if (l->atom) term_vars(l->atom, &m);
  if (l->a) term_vars(l->a, &m);
  if (l->b) term_vars(l->b, &m);
  return m;
}

static int popcount64(uint64_t m)
{
  int n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

/* The estimated join of the binding literals in `set` (a mask over the
 * literals), greedily smallest first as the planner does. */
static double estimate(const splitter *s, const uint8_t *set)
{
  uint8_t used[64] = { 0 };
  uint64_t bound = 0;
  double total = 1;
  for (;;) {
    int best = -1;
    double best_f = 0;
    for (uint32_t k = 0; k < s->n; k++) {
      const sp_lit *l = &s->lits[k];
      if (!set[k] || !l->binds || used[k]) continue;
      double f = l->size;
      for (uint32_t v = 0; v < s->nv; v++)
        if ((bound & l->vars) >> v & 1) f /= l->dv[v] > 1 ? l->dv[v] : 1;
      if (best < 0 || f < best_f) best = (int)k, best_f = f;
    }
    if (best < 0) return total;
    used[best] = 1;
    bound |= s->lits[best].vars;
    total *= best_f;
  }
}

/* The bucket of variable v: the literals that mention it, the variables
 * eliminated with it, and its interface.  0 when not usable. */
static int bucket(const splitter *s, uint32_t v, uint8_t *in, uint64_t *iface)
{
  uint64_t vars = 0, pos = 0, other = 0;
  uint32_t count = 0;
  for (uint32_t k = 0; k < s->n; k++) {
    const sp_lit *l = &s->lits[k];
    in[k] = (uint8_t)(l->vars >> v & 1);
    if (!in[k]) {
      other |= l->vars;
      continue;
    }
    if (l->demand) return 0;
    count++;
    vars |= l->vars;
    if (l->binds) pos |= l->vars;
  }
  if (count == s->n || (vars & ~pos)) return 0;  /* all of the body; or unsafe */
  *iface = vars & (other | s->head);
  return 1;
}

/* The distinct values of each variable in the bucket in[] into dv[] (the
 * fewest any of its binding literals has), and their product over iface:
 * at most that many tuples of the bucket's piece. */
static double bucket_values(const splitter *s, const uint8_t *in, uint64_t iface, double *dv)
{
  double domain = 1;
  for (uint32_t v = 0; v < s->nv; v++) {
    dv[v] = 0;
    for (uint32_t k = 0; k < s->n; k++)
      if (in[k] && s->lits[k].binds && (s->lits[k].vars >> v & 1) && (dv[v] == 0 || s->lits[k].dv[v] < dv[v]))
        dv[v] = s->lits[k].dv[v];
    if (iface >> v & 1) domain *= dv[v] > 1 ? dv[v] : 1;
  }
  return domain;
}

/* Adds the piece aux(iface) :- bucket and puts its literal in place of
 * the bucket's.  Returns 0 when out of memory. */
static int make_piece(splitter *s, const uint8_t *in, uint64_t iface, double cost)
{
  dl_ground *g = s->g;
  uint32_t i = s->pc.n, nb = 0, na = (uint32_t)popcount64(iface);
  ast_term *h = &s->heads[i];
  ast_term **args = s->args + (size_t)i * s->nv;
  dl_sym sym = gr_aux_symbol(g);
  if (sym == DL_NO_SYM) return 0;
  *h = (ast_term){ na ? AST_FUN : AST_SYM, s->gr->r->off, sym, na, args };
  for (uint32_t v = 0, a = 0; v < s->nv; v++)
    if (iface >> v & 1) args[a++] = &s->var_nodes[v];
  dl_rule *r = &s->rules[i];
  *r = *s->gr->r;
  r->head = h;
  r->body = malloc(s->n * sizeof *r->body);
  s->preds[i] = malloc(s->n * sizeof **s->preds);
  double *dv = malloc(s->nv * sizeof *dv);
  if (!r->body || !s->preds[i] || !dv || !(s->pc.rel[i] = ix_relation_create(na))) {
    free(dv);
    return 0;
  }
  uint8_t dynamic = 0;
  double domain = bucket_values(s, in, iface, dv);
  uint32_t m = 0;
  for (uint32_t k = 0; k < s->n; k++) {
    if (!in[k]) {
      s->lits[m++] = s->lits[k];
      continue;
    }
    r->body[nb] = s->lits[k].lit;
    s->preds[i][nb++] = s->lits[k].pred;
    dynamic |= (uint8_t)gr_pred_dynamic(g, &s->pc, s->lits[k].pred);
    free(s->lits[k].dv);
  }
  r->n_body = nb;
  s->pc.dynamic[i] = dynamic;
  s->pc.n++;
  s->lits[m] = (sp_lit){ { DL_POS, s->gr->r->off, h, NULL, NULL }, s->pc.base + i, iface, 1, 0,
                         cost < domain ? cost : domain, dv };
  s->n = m + 1;
  s->total += cost;
  return 1;
}

/* Eliminates variables while a safe bucket exists; the cheapest first,
 * counting the bucket's join and its piece's tuples, which the rest of the
 * rule joins with: in hex's transfer(K) :- does(R,place(X,Y)) &
 * true(owner(K,R)) & true(connected(K,M,N)) & adjacent(X,Y,M,N), once X,Y
 * went into aux1(R,M,N), eliminating R would join as much as eliminating
 * M,N, but leave aux2(K,M,N) (6,561 tuples) to join with connected, not
 * aux2(K,R) (162) with owner. */
static int eliminate(splitter *s)
{
  uint8_t in[64], best_in[64];
  double dv[64];
  for (;;) {
    uint64_t live = 0;
    for (uint32_t k = 0; k < s->n; k++) live |= s->lits[k].vars;
    int best = -1;
    double best_cost = 0, best_rank = 0;
    uint64_t best_iface = 0;
    for (uint32_t v = 0; v < s->nv; v++) {
      uint64_t iface;
      if (!(live >> v & 1) || (s->head >> v & 1) || !bucket(s, v, in, &iface)) continue;
      double cost = estimate(s, in), tuples = bucket_values(s, in, iface, dv);
      double rank = cost + (tuples < cost ? tuples : cost);
      if (best < 0 || rank < best_rank) {
        best = (int)v, best_cost = cost, best_rank = rank, best_iface = iface;
        memcpy(best_in, in, s->n);
      }
    }
    if (best < 0 || s->pc.n + 1 >= s->cap) return 1;
    if (!make_piece(s, best_in, best_iface, best_cost)) return 0;
  }
}

/* The literals of the rule, with the statistics of the planner. */
static int load(splitter *s, const gr_lit_stats *st)
{
  const dl_rule *r = s->gr->r;
  for (uint32_t k = 0; k <= r->n_body; k++) {
    int demand = k == r->n_body;
    if (demand && st->size[k] < 0) break;
    sp_lit *l = &s->lits[s->n++];
    memset(l, 0, sizeof *l);
    if (!demand) l->lit = r->body[k], l->pred = s->gr->lit_pred[k];
    l->vars = demand ? s->head : literal_vars(&r->body[k]);
    l->demand = demand;
    l->binds = st->size[k] >= 0;
    l->size = st->size[k];
    if (!(l->dv = malloc(s->nv * sizeof *l->dv))) return 0;
    memcpy(l->dv, st->dv + (size_t)k * s->nv, s->nv * sizeof *l->dv);
  }
  return 1;
}

static int alloc_splitter(splitter *s, const dl_rule *r)
{
  uint32_t c = s->cap = s->nv + 2;
  s->lits = calloc(r->n_body + 2, sizeof *s->lits);
  s->var_nodes = calloc(s->nv + 1, sizeof *s->var_nodes);
  s->heads = calloc(c, sizeof *s->heads);
  s->args = calloc((size_t)c * (s->nv + 1), sizeof *s->args);
  s->rules = calloc(c, sizeof *s->rules);
  s->preds = calloc(c, sizeof *s->preds);
  s->pc.rel = calloc(c, sizeof *s->pc.rel);
  s->pc.dynamic = calloc(c, 1);
  if (!s->lits || !s->var_nodes || !s->heads || !s->args || !s->rules || !s->preds || !s->pc.rel || !s->pc.dynamic)
    return 0;
  for (uint32_t v = 0; v < s->nv; v++) s->var_nodes[v] = (ast_term){ AST_VAR, r->off, v, 0, NULL };
  return 1;
}

static void free_splitter(splitter *s)
{
  for (uint32_t k = 0; s->lits && k < s->n; k++) free(s->lits[k].dv);
  for (uint32_t i = 0; i < s->cap; i++) {
    if (s->rules) free(s->rules[i].body);
    if (s->preds) free(s->preds[i]);
    if (s->pc.rel) ix_relation_destroy(s->pc.rel[i]);
  }
  free(s->lits);
  free(s->var_nodes);
  free(s->heads);
  free(s->args);
  free(s->rules);
  free(s->preds);
  free(s->pc.rel);
  free(s->pc.dynamic);
}

/* The last piece: the rule's head over what is left of the body. */
static int make_last(splitter *s)
{
  uint32_t i = s->pc.n, nb = 0;
  dl_rule *r = &s->rules[i];
  *r = *s->gr->r;
  r->body = malloc((s->n + 1) * sizeof *r->body);
  s->preds[i] = malloc((s->n + 1) * sizeof **s->preds);
  if (!r->body || !s->preds[i]) return 0;
  for (uint32_t k = 0; k < s->n; k++) {
    if (s->lits[k].demand) continue;
    r->body[nb] = s->lits[k].lit;
    s->preds[i][nb++] = s->lits[k].pred;
  }
  r->n_body = nb;
  uint8_t all[64];
  memset(all, 1, sizeof all);
  s->total += estimate(s, all);
  return 1;
}

int gr_split(dl_ground *g, const gr_rule *gr, const gr_lit_stats *st, double original)
{
  assert(g && gr && st && gr->r->n_vars <= 64);
  const dl_rule *r = gr->r;
  splitter s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.gr = gr;
  s.nv = r->n_vars;
  s.pc.base = g->game->n_preds;
  term_vars(r->head, &s.head);
  int ok = r->n_body + 1 < 64 && alloc_splitter(&s, r) && load(&s, st) && eliminate(&s) && make_last(&s);
  int done = -1;
  if (ok && s.pc.n > 0 && s.total * 4 < original) {
    for (uint32_t i = 0; ok && i < s.pc.n; i++) {
      gr_rule piece = { &s.rules[i], s.preds[i], s.pc.base + i, gr->origin, 0 };
      ok = gr_instantiate(g, &piece, &s.pc);
    }
    gr_rule last = { &s.rules[s.pc.n], s.preds[s.pc.n], gr->head_pred, gr->origin, gr->use_demand };
    ok = ok && gr_instantiate(g, &last, &s.pc);
    done = ok;
  }
  if (!ok && done < 0) done = gr_oom(g);
  free_splitter(&s);
  return done;
}
