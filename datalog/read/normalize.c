/* normalize.c: clauses to flat rules in disjunctive normal form. */
#include "datalog/read/normalize.h"

#include <stdlib.h>
#include <string.h>

/* A disjunction of conjunctions of flat literals. */
typedef struct conj {
  dl_literal *lits;
  uint32_t n;
} conj;

typedef struct dnf {
  conj *alts;
  uint32_t n;
} dnf;

static void dnf_free(dnf *d)
{
  for (uint32_t i = 0; i < d->n; i++) free(d->alts[i].lits);
  free(d->alts);
  d->alts = NULL;
  d->n = 0;
}

static int dnf_single(dnf *d, dl_literal lit)
{
  d->alts = calloc(1, sizeof(conj));
  if (!d->alts) return 0;
  d->n = 1;
  d->alts[0].lits = malloc(sizeof(dl_literal));
  if (!d->alts[0].lits) return 0;
  d->alts[0].lits[0] = lit;
  d->alts[0].n = 1;
  return 1;
}

/* The neutral element of conjunction: one empty alternative. */
static int dnf_true(dnf *d)
{
  d->alts = calloc(1, sizeof(conj));
  d->n = d->alts ? 1 : 0;
  return d->alts != NULL;
}

/* d := d OR e (e is consumed). */
static int dnf_union(dnf *d, dnf *e)
{
  conj *q = realloc(d->alts, (size_t)(d->n + e->n) * sizeof *q);
  if (!q) return 0;
  memcpy(q + d->n, e->alts, e->n * sizeof *q);
  d->alts = q;
  d->n += e->n;
  free(e->alts);
  e->alts = NULL;
  e->n = 0;
  return 1;
}

/* d := d AND e (both consumed into d). */
static int dnf_product(dnf *d, dnf *e)
{
  uint64_t n = (uint64_t)d->n * e->n;
  if (n > DL_MAX_DISJUNCTS) return -1;
  conj *r = calloc(n ? n : 1, sizeof *r);
  if (!r) return 0;
  uint32_t k = 0;
  int ok = 1;
  for (uint32_t i = 0; i < d->n; i++)
    for (uint32_t j = 0; j < e->n; j++, k++) {
      r[k].n = d->alts[i].n + e->alts[j].n;
      r[k].lits = malloc((r[k].n ? r[k].n : 1) * sizeof(dl_literal));
      if (!r[k].lits) { ok = 0; continue; }
      if (d->alts[i].n) memcpy(r[k].lits, d->alts[i].lits, d->alts[i].n * sizeof(dl_literal));
      if (e->alts[j].n) memcpy(r[k].lits + d->alts[i].n, e->alts[j].lits, e->alts[j].n * sizeof(dl_literal));
    }
  dnf_free(d);
  dnf_free(e);
  d->alts = r;
  d->n = (uint32_t)n;
  return ok;
}

static int to_dnf(const ast_lit *l, int negated, dnf *out);

/* The DNF of subs joined by AND (conjunctive) or OR. */
static int combine(const ast_lit *l, int negated, int conjunctive, dnf *out)
{
  if (conjunctive ? !dnf_true(out) : 0) return 0;
  for (uint32_t i = 0; i < l->n; i++) {
    dnf e = { 0 };
    int r = to_dnf(l->subs[i], negated, &e);
    if (r == 1) r = conjunctive ? dnf_product(out, &e) : dnf_union(out, &e);
    dnf_free(&e);
    if (r != 1) return r;
  }
  return 1;
}

/* Returns 1, 0 when out of memory, -1 when the expansion is too large. */
static int to_dnf(const ast_lit *l, int negated, dnf *out)
{
  dl_literal lit = { 0 };
  lit.off = l->off;
  switch (l->kind) {
  case AST_ATOM:
    lit.kind = negated ? DL_NEG : DL_POS;
    lit.atom = l->atom;
    return dnf_single(out, lit);
  case AST_DISTINCT:
    lit.kind = negated ? DL_EQUAL : DL_DISTINCT;
    lit.a = l->atom->args[0];
    lit.b = l->atom->args[1];
    return dnf_single(out, lit);
  case AST_NOT:
    return to_dnf(l->subs[0], !negated, out);
  case AST_AND:
    return combine(l, negated, !negated, out);
  case AST_OR:
    return combine(l, negated, negated, out);
  }
  return 0;
}

static int add_rules(ast_program *prog, const ast_clause *c, const dnf *d)
{
  for (uint32_t i = 0; i < d->n; i++) {
    dl_rule r = { 0 };
    r.head = c->head;
    r.n_body = d->alts[i].n;
    r.body = dl_arena_alloc(prog->arena, (r.n_body ? r.n_body : 1) * sizeof(dl_literal));
    if (!r.body) return 0;
    if (r.n_body) memcpy(r.body, d->alts[i].lits, r.n_body * sizeof(dl_literal));
    r.n_vars = c->n_vars;
    r.var_names = c->var_names;
    r.src = c->src;
    r.off = c->off;
    r.trusted = c->trusted;
    if (!ast_program_add_rule(prog, &r)) return 0;
  }
  return 1;
}

int dl_normalize(ast_program *prog, uint32_t first, dl_diag *diag)
{
  for (uint32_t i = first; i < prog->n_clauses; i++) {
    const ast_clause *c = prog->clauses[i];
    ast_lit body = { .kind = AST_AND, .off = c->off, .n = c->n_body, .subs = c->body };
    dnf d = { 0 };
    int r = combine(&body, 0, 1, &d);
    if (r == 1) r = add_rules(prog, c, &d);
    dnf_free(&d);
    if (r == -1) {
      dl_diag_report(diag, DL_ERROR, c->src, c->off,
                     "the 'or' literals of this rule expand to more than %d rules", DL_MAX_DISJUNCTS);
      return 0;
    }
    if (r == 0) {
      dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while expanding a rule's 'or' literals");
      return 0;
    }
  }
  return 1;
}
