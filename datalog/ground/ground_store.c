/* ground_store.c: the ground game as grounding builds it (see
 * ground_impl.h): atoms made once per term (a dense array by term id), rules
 * appended with their origin, and the rule set that makes each rule once
 * (open addressing over rule indices, placed by the hash's high half). */
#include "datalog/ground/ground_impl.h"

#include <stdlib.h>
#include <string.h>

#include "datalog/base/sort.h"

int gr_push32(vec32 *v, int32_t x)
{
  if (v->n == v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 1024;
    int32_t *a = realloc(v->a, cap * sizeof *a);
    if (!a) return 0;
    v->a = a;
    v->cap = cap;
  }
  v->a[v->n++] = x;
  return 1;
}

int gr_oom(dl_ground *g)
{
  if (!g->failed) dl_diag_fail(g->diag, DL_CAUSE_NOMEM, "out of memory in grounding");
  g->failed = 1;
  return 0;
}

int gr_reserve_atom(dl_ground *g)
{
  if (g->n_atoms + 1 >= g->cap_atoms) {
    uint32_t cap = g->cap_atoms ? 2 * g->cap_atoms : 1024;
    dl_tid *a = realloc(g->atom_term, cap * sizeof *a);
    if (a) g->atom_term = a;
    uint8_t *b = a ? realloc(g->atom_role, cap) : NULL;
    if (b) g->atom_role = b;
    uint8_t *c = b ? realloc(g->atom_aux, cap) : NULL;
    if (!c) return 0;
    g->atom_aux = c;
    g->cap_atoms = cap;
  }
  return 1;
}

/* The id of the atom that is term t, made when new; 0 when out of memory. */
int32_t gr_atom_id(dl_ground *g, dl_tid t, uint8_t role)
{
  if (t >= g->n_term_slots) {
    uint32_t n = g->n_term_slots ? g->n_term_slots : 1024;
    while (n <= t) n *= 2;
    uint32_t *a = realloc(g->atom_of_term, (size_t)n * sizeof *a);
    if (!a) return gr_oom(g);
    memset(a + g->n_term_slots, 0, (size_t)(n - g->n_term_slots) * sizeof *a);
    g->atom_of_term = a;
    g->n_term_slots = n;
  }
  uint32_t *v = &g->atom_of_term[t];
  if (*v) return (int32_t)*v;
  if (!gr_reserve_atom(g)) return gr_oom(g);
  uint32_t id = ++g->n_atoms;
  g->atom_term[id] = t;
  g->atom_role[id] = role;
  g->atom_aux[id] = 0;
  *v = id;
  return (int32_t)id;
}

/* The atom pred(args[0..n)) as a term. */
dl_tid gr_atom_term(dl_ground *g, dl_sym pred, uint32_t n, const dl_tid *args)
{
  return n ? dl_terms_make(g->terms, pred, n, args) : dl_terms_constant(g->terms, pred);
}

int gr_add_rule(dl_ground *g, int32_t head, const int32_t *body, uint32_t n, uint32_t origin)
{
  if (g->n_rules == g->cap_rules) {
    uint32_t cap = g->cap_rules ? 2 * g->cap_rules : 1024;
    size_t *a = realloc(g->rule_at, cap * sizeof *a);
    if (a) g->rule_at = a;
    uint32_t *o = a ? realloc(g->rule_origin, cap * sizeof *o) : NULL;
    if (!o) return gr_oom(g);
    g->rule_origin = o;
    g->cap_rules = cap;
  }
  g->rule_at[g->n_rules] = g->lits.n;
  g->rule_origin[g->n_rules++] = origin;
  if (!gr_push32(&g->lits, head) || !gr_push32(&g->lits, (int32_t)n)) return gr_oom(g);
  for (uint32_t i = 0; i < n; i++)
    if (!gr_push32(&g->lits, body[i])) return gr_oom(g);
  return 1;
}

static int bsearch_int(const int32_t *a, uint32_t n, int32_t x)
{
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && a[lo] == x;
}

/* Sorts a body, keeps each literal once; 0 when it holds a and ~a. */
int gr_normalize_body(int32_t *body, uint32_t *n)
{
  dl_sort_int32(body, *n);
  uint32_t m = 0;
  for (uint32_t i = 0; i < *n; i++) {
    if (m && body[m - 1] == body[i]) continue;
    body[m++] = body[i];
  }
  *n = m;
  for (uint32_t i = 0; i < m; i++)
    if (body[i] < 0 && bsearch_int(body, m, -body[i])) return 0;
  return 1;
}

static uint64_t hash_rule(int32_t head, const int32_t *body, uint32_t n)
{
  uint64_t h = (uint64_t)(uint32_t)head * 0x9e3779b97f4a7c15ULL ^ n;
  for (uint32_t i = 0; i < n; i++) h = (h ^ (uint32_t)body[i]) * 0xff51afd7ed558ccdULL, h ^= h >> 29;
  return h ^ h >> 32;
}

/* The slot of rule head :- body[0..n) (hash h) in the set: holding it, or
 * empty.  A slot keeps the hash's high half, which also places it, so most
 * mismatches and every growth cost no look at the rule itself. */
static uint64_t *rule_slot(const dl_ground *g, uint64_t h, int32_t head, const int32_t *body, uint32_t n)
{
  uint64_t tag = h >> 32 << 32;
  for (uint32_t i = (uint32_t)(h >> 32) & g->rule_mask;; i = (i + 1) & g->rule_mask) {
    uint64_t *s = &g->rule_slots[i];
    if (!*s) return s;
    if ((*s >> 32 << 32) != tag) continue;
    const int32_t *x = gr_rule_lits(g, (uint32_t)*s - 1);
    if (x[0] == head && x[1] == (int32_t)n && memcmp(x + 2, body, n * sizeof *body) == 0) return s;
  }
}

/* Doubles the rule set (gr_add_rule_once grows it once half full). */
static int grow_rule_set(dl_ground *g)
{
  uint32_t cap = g->rule_slots ? 2 * (g->rule_mask + 1) : 4096, mask = cap - 1;
  uint64_t *old = g->rule_slots, *slots = calloc(cap, sizeof *slots);
  if (!slots) return gr_oom(g);
  for (uint32_t k = 0; old && k <= g->rule_mask; k++) {
    if (!old[k]) continue;
    uint32_t i = (uint32_t)(old[k] >> 32) & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = old[k];
  }
  free(old);
  g->rule_slots = slots;
  g->rule_mask = mask;
  return 1;
}

/* gr_add_rule, unless the same rule was added before. */
int gr_add_rule_once(dl_ground *g, int32_t head, const int32_t *body, uint32_t n, uint32_t origin)
{
  if ((!g->rule_slots || 2 * (uint64_t)g->rule_set_n >= g->rule_mask) && !grow_rule_set(g)) return 0;
  uint64_t h = hash_rule(head, body, n), *s = rule_slot(g, h, head, body, n);
  if (*s) return 1;
  if (!gr_add_rule(g, head, body, n, origin)) return 0;
  *s = h >> 32 << 32 | g->n_rules;
  g->rule_set_n++;
  return 1;
}
