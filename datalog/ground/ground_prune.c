/* ground_prune.c: phases (4) and (5) of grounding (see ground.c): pruning
 * to a fixpoint, auxiliary atoms inlined, identical rules once and atoms
 * renumbered densely; then the figures of the ground game. */
#include "datalog/ground/ground_impl.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/sort.h"

/* ---- pruning ------------------------------------------------------------------------------- */

/* Lists, per atom, the alive rules where it occurs: as head (heads) or
 * positively in the body, inputs left out (uses).  CSR: start[n_atoms+2]. */
typedef struct csr { uint32_t *start, *item; } csr;

static int build_csr(const dl_ground *g, const uint8_t *alive, int heads, csr *c)
{
  uint32_t na = g->n_atoms + 2;
  c->start = calloc(na + 1, sizeof *c->start);
  size_t total = 0;
  for (int pass = 0; c->start && pass < 2; pass++) {
    for (uint32_t i = 0; i < g->n_rules; i++) {
      if (!alive[i]) continue;
      const int32_t *x = gr_rule_lits(g, i);
      if (heads) {
        if (pass == 0) c->start[x[0] + 1]++;
        else c->item[c->start[x[0]]++] = i;
        continue;
      }
      for (int32_t k = 0; k < x[1]; k++) {
        int32_t a = x[2 + k];
        if (a < 0 || gr_is_input(g->atom_role[a])) continue;
        if (pass == 0) c->start[a + 1]++;
        else c->item[c->start[a]++] = i;
      }
    }
    if (pass == 0) {
      for (uint32_t a = 0; a < na; a++) c->start[a + 1] += c->start[a];
      total = c->start[na];
      if (!(c->item = malloc((total + 1) * sizeof *c->item))) return 0;
    } else {
      for (uint32_t a = na; a > 0; a--) c->start[a] = c->start[a - 1];
      c->start[0] = 0;
    }
  }
  return c->start != NULL;
}

static void free_csr(csr *c)
{
  free(c->start);
  free(c->item);
}

/* Marks the atoms some alive rule can derive (inputs are given). */
static int derivable_atoms(const dl_ground *g, const uint8_t *alive, uint8_t *derivable)
{
  csr uses = { 0 };
  uint32_t *count = malloc((g->n_rules + 1) * sizeof *count);
  uint32_t *queue = malloc((g->n_atoms + 1) * sizeof *queue);
  int ok = count && queue && build_csr(g, alive, 0, &uses);
  uint32_t qn = 0;
  for (uint32_t a = 1; ok && a <= g->n_atoms; a++) derivable[a] = (uint8_t)gr_is_input(g->atom_role[a]);
  for (uint32_t i = 0; ok && i < g->n_rules; i++) {
    const int32_t *x = gr_rule_lits(g, i);
    count[i] = 0;
    for (int32_t k = 0; alive[i] && k < x[1]; k++)
      if (x[2 + k] > 0 && !gr_is_input(g->atom_role[x[2 + k]])) count[i]++;
    if (alive[i] && count[i] == 0 && !derivable[x[0]]) derivable[x[0]] = 1, queue[qn++] = (uint32_t)x[0];
  }
  for (uint32_t q = 0; ok && q < qn; q++)
    for (uint32_t u = uses.start[queue[q]]; u < uses.start[queue[q] + 1]; u++) {
      uint32_t i = uses.item[u];
      int32_t h = gr_rule_lits(g, i)[0];
      if (--count[i] == 0 && !derivable[h]) derivable[h] = 1, queue[qn++] = (uint32_t)h;
    }
  free_csr(&uses);
  free(count);
  free(queue);
  return ok;
}

/* Marks the atoms the game's keyword atoms need, transitively. */
static int needed_atoms(const dl_ground *g, const uint8_t *alive, uint8_t *needed)
{
  csr heads = { 0 };
  uint32_t *stack = malloc((g->n_atoms + 1) * sizeof *stack);
  int ok = stack && build_csr(g, alive, 1, &heads);
  uint32_t sn = 0;
  for (uint32_t a = 1; ok && a <= g->n_atoms; a++)
    if ((needed[a] = (uint8_t)gr_is_goal_role(g->atom_role[a]))) stack[sn++] = a;
  while (ok && sn) {
    uint32_t a = stack[--sn];
    for (uint32_t u = heads.start[a]; u < heads.start[a + 1]; u++) {
      const int32_t *x = gr_rule_lits(g, heads.item[u]);
      for (int32_t k = 0; k < x[1]; k++) {
        uint32_t b = (uint32_t)(x[2 + k] < 0 ? -x[2 + k] : x[2 + k]);
        if (!needed[b]) needed[b] = 1, stack[sn++] = b;
      }
    }
  }
  free_csr(&heads);
  free(stack);
  return ok;
}

/* One round; *changed tells whether a rule or literal went.  One round
 * reaches the fixpoint, so a second changes nothing:
 *  - every rule left has a needed head, and the rules of a needed atom all
 *    stay, so the rules that made an atom derivable (their positive
 *    literals derivable) stay, and so does every atom's derivability;
 *  - hence no rule left loses a positive literal, no negative literal left
 *    becomes one of an underivable atom, and the needed atoms are the same. */
static int prune_round(dl_ground *g, uint8_t *alive, uint8_t *mark, int *changed)
{
  if (!derivable_atoms(g, alive, mark)) return 0;
  for (uint32_t i = 0; i < g->n_rules; i++) {
    int32_t *x = gr_rule_lits(g, i);
    int32_t m = 0;
    for (int32_t k = 0; alive[i] && k < x[1]; k++) {
      int32_t l = x[2 + k];
      uint32_t a = (uint32_t)(l < 0 ? -l : l);
      if (l > 0 && !mark[a]) alive[i] = 0, *changed = 1;
      else if (l < 0 && !mark[a]) *changed = 1;  /* never true: the literal holds */
      else x[2 + m++] = l;
    }
    if (alive[i]) x[1] = m;
  }
  if (!needed_atoms(g, alive, mark)) return 0;
  for (uint32_t i = 0; i < g->n_rules; i++)
    if (alive[i] && !mark[gr_rule_lits(g, i)[0]]) alive[i] = 0, *changed = 1;
  return 1;
}

static int by_rule(const void *a, const void *b, void *ctx)
{
  const dl_ground *g = ctx;
  const int32_t *x = gr_rule_lits(g, *(const uint32_t *)a), *y = gr_rule_lits(g, *(const uint32_t *)b);
  if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
  if (x[1] != y[1]) return (x[1] > y[1]) - (x[1] < y[1]);
  for (int32_t k = 0; k < x[1]; k++)
    if (x[2 + k] != y[2 + k]) return (x[2 + k] > y[2 + k]) - (x[2 + k] < y[2 + k]);
  return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* 1 when literal l is an auxiliary atom with one rule (def). */
static int expands(const dl_ground *g, const uint32_t *def, int32_t l)
{
  return l > 0 && g->atom_aux[l] && def[l] != UINT32_MAX && def[l] != 0;
}

/* Pushes literal l onto body, or, when it expands, its rule's body,
 * expanded the same way (auxiliary atoms of the pieces of a split rule use
 * each other; they never form a cycle). */
static int push_expanded(const dl_ground *g, const uint32_t *def, int32_t l, vec32 *body)
{
  if (!expands(g, def, l)) return gr_push32(body, l);
  const int32_t *y = gr_rule_lits(g, def[l] - 1);
  for (int32_t e = 0; e < y[1]; e++)
    if (!push_expanded(g, def, y[2 + e], body)) return 0;
  return 1;
}

/* Replaces each auxiliary atom that has one rule and is never negated by
 * that rule's body (a factor whose variables outside the head had one
 * binding compresses nothing), and keeps only the alive rules.  Afterwards all rules are alive. */
static int inline_aux(dl_ground *g, uint8_t *alive)
{
  uint32_t *def = calloc(g->n_atoms + 1, sizeof *def);  /* rule + 1 of a single-rule aux atom */
  size_t *at = malloc((g->n_rules + 1) * sizeof *at);
  uint32_t *origin = malloc((g->n_rules + 1) * sizeof *origin);
  vec32 lits = { 0 }, body = { 0 };
  int ok = def && at && origin;
  for (uint32_t i = 0; ok && i < g->n_rules; i++) {
    if (!alive[i]) continue;
    int32_t h = gr_rule_lits(g, i)[0];
    if (g->atom_aux[h]) def[h] = def[h] ? UINT32_MAX : i + 1;
  }
  for (uint32_t i = 0; ok && i < g->n_rules; i++) {  /* a negated one stays (an exclusion's element) */
    const int32_t *x = gr_rule_lits(g, i);
    for (int32_t k = 0; alive[i] && k < x[1]; k++)
      if (x[2 + k] < 0 && g->atom_aux[-x[2 + k]]) def[-x[2 + k]] = UINT32_MAX;
  }
  uint32_t m = 0;
  for (uint32_t i = 0; ok && i < g->n_rules; i++) {
    const int32_t *x = gr_rule_lits(g, i);
    if (!alive[i] || (g->atom_aux[x[0]] && def[x[0]] != UINT32_MAX)) continue;
    body.n = 0;
    int expanded = 0;  /* else the body is the rule's, normalized already */
    for (int32_t k = 0; ok && k < x[1]; k++) {
      expanded |= expands(g, def, x[2 + k]);
      ok = push_expanded(g, def, x[2 + k], &body);
    }
    uint32_t n = (uint32_t)body.n;
    if (!ok || (expanded && !gr_normalize_body(body.a, &n))) continue;
    at[m] = lits.n;
    origin[m++] = g->rule_origin[i];
    ok = gr_push32(&lits, x[0]) && gr_push32(&lits, (int32_t)n);
    for (uint32_t k = 0; ok && k < n; k++) ok = gr_push32(&lits, body.a[k]);
  }
  if (ok) {
    free(g->lits.a);
    g->lits = lits;
    if (m) {  /* memcpy takes no NULL, even for 0 bytes */
      memcpy(g->rule_at, at, m * sizeof *at);
      memcpy(g->rule_origin, origin, m * sizeof *origin);
    }
    g->n_rules = m;
    memset(alive, 1, m);
  } else free(lits.a);
  free(body.a);
  free(def);
  free(at);
  free(origin);
  return ok || gr_oom(g);
}

/* A rule and the first bits of its by_rule order within its head. */
typedef struct keyed { uint64_t key; uint32_t rule; } keyed;

/* The body's length (up to 255), its first literal and the high 24 bits
 * of its second, in by_rule's order: rules with different keys compare as
 * their keys do. */
static uint64_t rule_key(const int32_t *x)
{
  uint64_t n = x[1] < 255 ? (uint64_t)x[1] : 255;
  uint64_t l0 = x[1] > 0 ? (uint32_t)x[2] ^ 0x80000000u : 0, l1 = x[1] > 1 ? (uint32_t)x[3] ^ 0x80000000u : 0;
  return n << 56 | l0 << 24 | l1 >> 8;
}

/* Sorts one head's rules order[0..n) (in rule order) by by_rule: stably by
 * rule_key, then each run of equal keys by by_rule.  Heads with many rules
 * (breakthrough's next(cellHolds(..)): about 150) made the comparison sort
 * through a function pointer a tenth of the grounding.  Rules in order
 * already stay (by_rule is a total order: the sort would keep them).  0
 * when out of memory. */
static int sort_head_rules(const dl_ground *g, uint32_t *order, uint32_t n, keyed *scratch)
{
  uint32_t i = 1;
  while (i < n && by_rule(&order[i - 1], &order[i], (void *)g) < 0) i++;
  if (i == n) return 1;  /* most heads the second time, after simplification */
  if (n <= 16) {
    dl_sort(order, n, sizeof *order, by_rule, (void *)g);
    return 1;
  }
  for (i = 0; i < n; i++) scratch[i] = (keyed){ rule_key(gr_rule_lits(g, order[i])), order[i] };
  if (!dl_sort_by_key64(scratch, n, sizeof *scratch, offsetof(keyed, key))) return 0;
  for (i = 0; i < n; i++) order[i] = scratch[i].rule;
  for (uint32_t a = 0, b; a < n; a = b) {
    for (b = a + 1; b < n && scratch[b].key == scratch[a].key; b++) {}
    if (b - a > 1) dl_sort(order + a, b - a, sizeof *order, by_rule, (void *)g);
  }
  return 1;
}

/* Writes the alive rules to order[0..*n) as by_rule sorts them: bucketed
 * by head first (a counting sort, one pass), then each head's rules
 * sorted.  0 when out of memory. */
static int order_by_rule(const dl_ground *g, const uint8_t *alive, uint32_t *order, uint32_t *n)
{
  uint32_t *start = calloc((size_t)g->n_atoms + 2, sizeof *start);
  if (!start) return 0;
  *n = 0;
  for (uint32_t i = 0; i < g->n_rules; i++)
    if (alive[i]) start[gr_rule_lits(g, i)[0] + 1]++, ++*n;
  uint32_t most = 0;
  for (uint32_t a = 0; a <= g->n_atoms; a++) {
    most = start[a + 1] > most ? start[a + 1] : most;
    start[a + 1] += start[a];
  }
  for (uint32_t i = 0; i < g->n_rules; i++)
    if (alive[i]) order[start[gr_rule_lits(g, i)[0]]++] = i;
  keyed *scratch = most > 16 ? malloc(most * sizeof *scratch) : NULL;
  int ok = most <= 16 || scratch;
  for (uint32_t a = 0, lo = 0; ok && a <= g->n_atoms; lo = start[a++])  /* start[a]: the end of head a's rules now */
    if (start[a] - lo > 1) ok = sort_head_rules(g, order + lo, start[a] - lo, scratch);
  free(scratch);
  free(start);
  return ok;
}

/* Whether rules x and y (head, n, body[n]) are the same: a loop, not a
 * call of memcmp, for bodies of a few literals. */
static int same_rule(const int32_t *x, const int32_t *y)
{
  if (x[0] != y[0] || x[1] != y[1]) return 0;
  for (int32_t k = 0; k < x[1]; k++)
    if (x[2 + k] != y[2 + k]) return 0;
  return 1;
}

/* Keeps the alive rules, each different one once, sorted by head; atoms
 * renumbered 1.. in their old order, those no rule has left out. */
int gr_compact(dl_ground *g, const uint8_t *alive)
{
  uint32_t n = 0;
  uint32_t *order = malloc((g->n_rules + 1) * sizeof *order);
  int32_t *renum = calloc(g->n_atoms + 1, sizeof *renum);
  uint32_t *origin = malloc((g->n_rules + 1) * sizeof *origin);
  size_t *at = malloc((g->n_rules + 1) * sizeof *at);
  vec32 lits = { 0 };
  if (!order || !renum || !origin || !at) {
    free(order); free(renum); free(origin); free(at);
    return gr_oom(g);
  }
  if (!order_by_rule(g, alive, order, &n)) {
    free(order); free(renum); free(origin); free(at);
    return gr_oom(g);
  }
  for (uint32_t i = 0; i < n; i++) {
    const int32_t *x = gr_rule_lits(g, order[i]);
    renum[x[0]] = 1;
    for (int32_t k = 0; k < x[1]; k++) renum[x[2 + k] < 0 ? -x[2 + k] : x[2 + k]] = 1;
  }
  uint32_t na = 0;
  for (uint32_t a = 1; a <= g->n_atoms; a++)
    if (renum[a]) {
      renum[a] = (int32_t)++na;
      g->atom_term[na] = g->atom_term[a];
      g->atom_role[na] = g->atom_role[a];
    }
  size_t total = 1;
  for (uint32_t i = 0; i < n; i++) total += 2 + (size_t)gr_rule_lits(g, order[i])[1];
  lits.a = malloc(total * sizeof *lits.a);
  lits.cap = lits.a ? total : 0;
  uint32_t m = 0;
  int ok = lits.a != NULL;
  for (uint32_t i = 0; ok && i < n; i++) {
    const int32_t *x = gr_rule_lits(g, order[i]);
    if (i && same_rule(x, gr_rule_lits(g, order[i - 1]))) continue;
    origin[m] = g->rule_origin[order[i]];
    at[m++] = lits.n;
    int32_t *y = lits.a + lits.n;
    y[0] = renum[x[0]];
    y[1] = x[1];
    for (int32_t k = 0; k < x[1]; k++) y[2 + k] = x[2 + k] < 0 ? -renum[-x[2 + k]] : renum[x[2 + k]];
    lits.n += 2 + (size_t)x[1];
  }
  if (m) {
    memcpy(g->rule_origin, origin, m * sizeof *origin);
    memcpy(g->rule_at, at, m * sizeof *at);
  }
  free(origin);
  free(at);
  free(order);
  free(renum);
  free(g->lits.a);
  g->lits = lits;
  g->n_rules = m;
  g->n_atoms = na;
  free(g->atom_of_term);
  g->atom_of_term = NULL;
  g->n_term_slots = 0;
  free(g->rule_slots);
  g->rule_slots = NULL;
  g->rule_set_n = 0;
  return ok || gr_oom(g);
}

int gr_prune(dl_ground *g)
{
  double t0 = dl_clock_now();
  uint8_t *alive = malloc(g->n_rules + 1), *mark = calloc(g->n_atoms + 1, 1);
  int ok = alive && mark;
  if (ok) memset(alive, 1, g->n_rules + 1);
  if (ok && !g->opt->no_prune) {
    int changed = 0;
    ok = prune_round(g, alive, mark, &changed);
    g->stats.prune_rounds = 1;
#ifndef NDEBUG
    changed = 0;  /* a second round finds nothing (see prune_round) */
    ok = ok && prune_round(g, alive, mark, &changed);
    assert(!changed);
#endif
  }
  ok = ok ? inline_aux(g, alive) && gr_compact(g, alive) : gr_oom(g);
  free(alive);
  free(mark);
  g->stats.prune_seconds = dl_clock_now() - t0;
  return ok;
}

/* ---- figures ------------------------------------------------------------------------------ */

static int is_fact_role(dl_atom_role r)
{
  return r == DL_ATOM_ROLE || r == DL_ATOM_INIT || r == DL_ATOM_BASE || r == DL_ATOM_INPUT;
}

int gr_components_of(const dl_ground *g, const int32_t *lits, const size_t *at, uint32_t n, uint64_t *count)
{
  uint32_t *rules_of = calloc(g->n_atoms + 1, sizeof *rules_of);
  uint8_t *seen = calloc(g->n_atoms + 1, 1);  /* bit 1: the atom is used, bit 2: negated */
  if (!rules_of || !seen) { free(rules_of); free(seen); return 0; }
  uint64_t c = 0;
  for (uint32_t i = 0; i < n; i++) {
    const int32_t *x = lits + at[i];
    rules_of[x[0]]++;
    seen[x[0]] |= 1;
    c += x[1] >= 2;
    for (int32_t k = 0; k < x[1]; k++) seen[x[2 + k] < 0 ? -x[2 + k] : x[2 + k]] |= x[2 + k] < 0 ? 3 : 1;
  }
  for (uint32_t a = 1; a <= g->n_atoms; a++) {
    if (!seen[a] || is_fact_role(g->atom_role[a])) continue;
    c += 1 + (rules_of[a] >= 2) + (seen[a] >> 1) + (g->atom_role[a] == DL_ATOM_NEXT);
  }
  free(rules_of);
  free(seen);
  *count = c;
  return 1;
}

int gr_components(const dl_ground *g, uint64_t *count)
{
  return gr_components_of(g, g->lits.a, g->rule_at, g->n_rules, count);
}

int gr_count_figures(dl_ground *g)
{
  dl_ground_stats *s = &g->stats;
  s->facts = s->rules = s->literals = 0;
  for (uint32_t i = 0; i < g->n_rules; i++) {
    const int32_t *x = gr_rule_lits(g, i);
    if (x[1] == 0) s->facts++;
    else s->rules++;
    s->literals += (uint64_t)x[1];
    if (!g->kept_counted && g->rule_origin[i] != UINT32_MAX) g->rstats[g->rule_origin[i]].kept++;
  }
  g->kept_counted = 1;
  s->atoms = g->n_atoms;
  if (!gr_components(g, &s->components)) return gr_oom(g);
  s->bytes = g->lits.cap * sizeof(int32_t) + (size_t)g->cap_rules * (sizeof(size_t) + sizeof(uint32_t)) +
             (size_t)g->cap_atoms * (sizeof(dl_tid) + 1);
  return 1;
}
