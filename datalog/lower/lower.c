/* lower.c: the ground rules rewritten before the circuit's compiler wires
 * them into gates (see compile_impl.h, cc_lower_rules, and README.md). */
#include "datalog/compile/compile_impl.h"

#include "datalog/base/sort.h"

#include <assert.h>

void cc_rule_set_free(rule_set *r)
{
  free(r->head);
  free(r->start);
  free(r->lits);
}

/* Room for n more rules of n_lits literals in all in r (no realloc chain
 * when the size is known); 1, or 0 when out of memory. */
static int rule_set_reserve(rule_set *r, uint32_t n, uint32_t n_lits)
{
  uint64_t cap = (uint64_t)r->n + n + 2, cap_lits = (uint64_t)r->n_lits + n_lits + 1;
  if (cap > INT32_MAX || cap_lits > INT32_MAX) return 0;
  if (cap > r->cap) {
    uint32_t *h = realloc(r->head, cap * sizeof *h);
    if (h) r->head = h;
    uint32_t *s = realloc(r->start, (cap + 1) * sizeof *s);
    if (s) r->start = s;
    if (!h || !s) return 0;
    if (r->n == 0) r->start[0] = 0;
    r->cap = (uint32_t)cap;
  }
  if (cap_lits > r->cap_lits) {
    int32_t *l = realloc(r->lits, cap_lits * sizeof *l);
    if (!l) return 0;
    r->lits = l;
    r->cap_lits = (uint32_t)cap_lits;
  }
  return 1;
}

int cc_rule_set_add(rule_set *r, uint32_t head, const int32_t *lits, uint32_t n)
{
  /* full: room for as many again (amortised doubling) */
  if ((r->n + 1 >= r->cap || r->n_lits + n > r->cap_lits) && !rule_set_reserve(r, r->n + 64, r->n_lits + n + 256))
    return 0;
  memcpy(r->lits + r->n_lits, lits, n * sizeof *lits);
  r->n_lits += n;
  r->head[r->n++] = head;
  r->start[r->n] = r->n_lits;
  return 1;
}
/* The moves: per legal(r,a) atom the does(r,a) atom, or when the ground
 * game has none a phantom (an id after the atoms) that gets an input gate
 * too, so that "none of the other moves" sees every move.  Per atom or
 * phantom its role (NONE: a does atom no joint move sets), per role the
 * list. */
static int settable_moves(build *b)
{
  dl_circuit *c = b->c;
  const dl_terms *t = c->terms;
  uint32_t n_legal = 0;
  int ok = idmap_init(&b->move_map, b->n_atoms);
  b->legal_does = malloc((b->n_atoms + 1) * sizeof *b->legal_does);
  ok = ok && b->legal_does;
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_LEGAL) continue;
    dl_tid x = dl_ground_atom_term(b->g, a);
    uint32_t r = cc_role_index(c, cc_arg(t, x, 0)), before = n_legal;
    if (r != NONE && idmap_add(&b->move_map, (uint64_t)r << 32 | cc_arg(t, x, 1), &n_legal) == before)
      b->legal_does[before] = 0;
  }
  size_t room = (size_t)b->n_atoms + n_legal + c->n_roles + 1;
  b->does_role = malloc(room * sizeof *b->does_role);
  b->umove_start = calloc(c->n_roles + 1, sizeof *b->umove_start);
  b->umoves = malloc(room * sizeof *b->umoves);
  b->complement = malloc(room * sizeof *b->complement);
  b->set = malloc(room * sizeof *b->set);
  b->of_role = malloc(room * sizeof *b->of_role);
  ok = ok && b->does_role && b->umove_start && b->umoves && b->complement && b->set && b->of_role;
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    b->does_role[a] = NONE;
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_MOVE) continue;
    dl_tid x = dl_ground_atom_term(b->g, a);
    uint32_t r = cc_role_index(c, cc_arg(t, x, 0));
    uint32_t id = r == NONE ? NONE : idmap_get(&b->move_map, (uint64_t)r << 32 | cc_arg(t, x, 1));
    if (id != NONE) {
      b->does_role[a] = r;
      b->legal_does[id] = a;
    }
  }
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {  /* phantoms, in the order of the legal atoms */
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_LEGAL) continue;
    dl_tid x = dl_ground_atom_term(b->g, a);
    uint32_t r = cc_role_index(c, cc_arg(t, x, 0));
    uint32_t id = r == NONE ? NONE : idmap_get(&b->move_map, (uint64_t)r << 32 | cc_arg(t, x, 1));
    if (id == NONE || b->legal_does[id]) continue;
    uint32_t p = b->n_atoms + 1 + b->n_phantoms++;
    b->legal_does[id] = p;
    b->does_role[p] = r;
  }
  b->any_base = b->n_atoms + b->n_phantoms;
  for (uint32_t a = 1; ok && a <= b->any_base; a++)
    if (b->does_role[a] != NONE) b->umove_start[b->does_role[a] + 1]++;
  for (uint32_t r = 0; ok && r < c->n_roles; r++) b->umove_start[r + 1] += b->umove_start[r];
  uint32_t *fill = ok ? malloc((c->n_roles + 1) * sizeof *fill) : NULL;
  if (fill) {
    memcpy(fill, b->umove_start, (c->n_roles + 1) * sizeof *fill);
    for (uint32_t a = 1; a <= b->any_base; a++)
      if (b->does_role[a] != NONE) b->umoves[fill[b->does_role[a]]++] = a;  /* sorted */
  }
  ok = ok && fill;
  free(fill);
  return ok ? 1 : cc_oom(b);
}

static int is_settable(const build *b, int32_t lit)
{
  uint32_t a = (uint32_t)(lit > 0 ? lit : -lit);  /* an "any" gate's, after the atoms, is none */
  return a <= b->n_atoms && dl_ground_atom_role(b->g, a) == DL_ATOM_MOVE && b->does_role[a] != NONE;
}

static uint32_t longest_rule(const rule_set *in)
{
  uint32_t longest = 1;
  for (uint32_t i = 0; i < in->n; i++)
    if (in->start[i + 1] - in->start[i] > longest) longest = in->start[i + 1] - in->start[i];
  return longest;
}

/* The rules of in by head: atom a's are idx[start[a] .. start[a + 1]).
 * 1, or 0 when out of memory (both freed by the caller either way). */
static int rules_by_head(const build *b, const rule_set *in, uint32_t **start, uint32_t **idx)
{
  uint32_t *s = *start = calloc(b->n_atoms + 2, sizeof *s), *x = *idx = malloc((in->n + 1) * sizeof *x);
  uint32_t *fill = malloc((b->n_atoms + 1) * sizeof *fill);
  int ok = s && x && fill;
  for (uint32_t i = 0; ok && i < in->n; i++) s[in->head[i] + 1]++;
  for (uint32_t a = 0; ok && a <= b->n_atoms; a++) s[a + 1] += s[a];
  if (ok) memcpy(fill, s, (b->n_atoms + 1) * sizeof *fill);
  for (uint32_t i = 0; ok && i < in->n; i++) x[fill[in->head[i]]++] = i;
  free(fill);
  return ok;
}

/* The ground rules without what a joint move never sets: a rule needing
 * such a does atom goes, a negative literal of one disappears (a rule left
 * without literals makes its head a fact). */
static int clean_rules(build *b, rule_set *out)
{
  int32_t *tmp = NULL;
  uint32_t cap = 0;
  uint64_t lits = 0;
  for (uint32_t i = 0; i < b->n_rules; i++) {
    const int32_t *body;
    uint32_t n;
    dl_ground_rule(b->g, i, &body, &n);
    lits += n;
  }
  if (lits > INT32_MAX || !rule_set_reserve(out, b->n_rules, (uint32_t)lits)) return cc_oom(b);
  for (uint32_t i = 0; i < b->n_rules; i++) {
    const int32_t *body;
    uint32_t n, k = 0, drop = 0;
    uint32_t h = (uint32_t)dl_ground_rule(b->g, i, &body, &n);
    if (n == 0 || b->has_fact[h]) continue;
    if (n > cap) {
      free(tmp);
      cap = n * 2;
      if (!(tmp = malloc(cap * sizeof *tmp))) return cc_oom(b);
    }
    for (uint32_t j = 0; j < n; j++) {
      uint32_t a = (uint32_t)(body[j] > 0 ? body[j] : -body[j]);
      if (dl_ground_atom_role(b->g, a) == DL_ATOM_MOVE && b->does_role[a] == NONE) drop |= body[j] > 0;
      else tmp[k++] = body[j];
    }
    if (drop) continue;
    if (k == 0) b->has_fact[h] = 1;
    else if (!cc_rule_set_add(out, h, tmp, k)) {
      free(tmp);
      return cc_oom(b);
    }
  }
  free(tmp);
  return 1;
}

/* A rule of one head that has exactly one positive settable does literal:
 * its other literals (sorted) and that move. */
typedef struct candidate {
  uint32_t rule, move, rest_start, rest_len;
} candidate;

typedef struct factor_ctx {
  const int32_t *rest;
} factor_ctx;

static int cmp_candidate(const void *x, const void *y, void *ctx)
{
  const factor_ctx *f = ctx;
  const candidate *a = x, *b = y;
  if (a->rest_len != b->rest_len) return a->rest_len < b->rest_len ? -1 : 1;
  for (uint32_t k = 0; k < a->rest_len; k++) {
    int32_t p = f->rest[a->rest_start + k], q = f->rest[b->rest_start + k];
    if (p != q) return p < q ? -1 : 1;
  }
  return (a->move > b->move) - (a->move < b->move);
}

/* The id of the shared gate, an OR (kind 0) or AND (kind 1), of the
 * sorted set s[0..n) of literals (atoms, phantoms, shared gates, maybe
 * negated); the same set gives the same gate. */
static int node(build *b, uint8_t kind, const int32_t *s, uint32_t n, uint32_t *id)
{
  uint64_t h = 1469598103934665603ULL + kind;
  for (uint32_t k = 0; k < n; k++) h = (h ^ (uint32_t)s[k]) * 1099511628211ULL;
  h &= ~(uint64_t)0 >> 1;
  uint32_t found = idmap_get(&b->any_map, h);
  if (found != NONE && b->any_kind[found] == kind && b->any_start[found + 1] - b->any_start[found] == n &&
      memcmp(b->any_atoms + b->any_start[found], s, n * sizeof *s) == 0) {
    *id = found;
    return 1;
  }
  if (b->n_any + 2 > b->cap_any) {
    uint32_t cap = b->cap_any * 2 + 64;
    uint32_t *st = realloc(b->any_start, (cap + 1) * sizeof *st);
    if (st) b->any_start = st;
    uint8_t *kd = realloc(b->any_kind, cap + 1);
    if (kd) b->any_kind = kd;
    if (!st || !kd) return 0;
    if (b->n_any == 0) b->any_start[0] = 0;
    b->cap_any = cap;
  }
  uint32_t end = b->any_start[b->n_any];
  if (end + n > b->cap_any_atoms) {
    uint64_t cap = (uint64_t)b->cap_any_atoms * 2 + n + 256;
    int32_t *at = cap < INT32_MAX ? realloc(b->any_atoms, cap * sizeof *at) : NULL;
    if (!at) return 0;
    b->any_atoms = at;
    b->cap_any_atoms = (uint32_t)cap;
  }
  memcpy(b->any_atoms + end, s, n * sizeof *s);
  b->any_start[b->n_any + 1] = end + n;
  b->any_kind[b->n_any] = kind;
  *id = b->n_any++;
  if (found == NONE && b->n_any < b->any_map.mask / 2) {
    uint32_t next = *id;
    idmap_add(&b->any_map, h, &next);
  }
  return 1;
}

static int any_of(build *b, const int32_t *s, uint32_t n, uint32_t *id) { return node(b, 0, s, n, id); }

static int set_literal(build *b, const uint32_t *m, uint32_t n, int neg, int32_t *lit)
{
  uint32_t id;
  if (n == 1) {
    *lit = neg ? -(int32_t)m[0] : (int32_t)m[0];
    return 1;
  }
  for (uint32_t k = 0; k < n; k++) b->set[k] = (int32_t)m[k];
  if (!any_of(b, b->set, n, &id)) return 0;
  *lit = (int32_t)(b->any_base + 1 + id);
  if (neg) *lit = -*lit;
  return 1;
}

/* The literal for "role r makes one of the moves m[0..n)" (sorted,
 * distinct); 0 when that always holds (every move of r).  Joint moves set
 * one move per role, so for most of a role's moves it is "none of the
 * others". */
static int role_literal(build *b, uint32_t r, const uint32_t *m, uint32_t n, int32_t *lit)
{
  uint32_t u0 = b->umove_start[r], un = b->umove_start[r + 1] - u0;
  if (2 * n <= un) return set_literal(b, m, n, 0, lit);
  uint32_t nc = 0, *other = b->complement;
  for (uint32_t k = 0, j = 0; k < un; k++) {
    uint32_t a = b->umoves[u0 + k];
    while (j < n && m[j] < a) j++;
    if (j == n || m[j] != a) other[nc++] = a;
  }
  if (nc == 0) {
    *lit = 0;
    return 1;
  }
  return set_literal(b, other, nc, 1, lit);
}


/* The literal for "one of the moves m[0..n) is made" (sorted, distinct,
 * of any roles); 0 when that always holds: the OR of a literal per role. */
static int moves_literal(build *b, const uint32_t *m, uint32_t n, int32_t *lit)
{
  /* Every role makes one move: one of m is made iff fewer than all roles
   * make one of the others (a gate "at least roles of", negated): no
   * change when only which role passes changes. */
  uint32_t all = b->umove_start[b->c->n_roles], id;
  if (n > 1 && 2 * n > all) {
    uint32_t nc = 0;
    for (uint32_t a = 1, j = 0; a <= b->any_base; a++) {
      if (b->does_role[a] == NONE) continue;
      while (j < n && m[j] < a) j++;
      if (j == n || m[j] != a) b->set[nc++] = (int32_t)a;
    }
    if (nc == 0) {
      *lit = 0;
      return 1;
    }
    if (!node(b, 2, b->set, nc, &id)) return 0;
    *lit = -(int32_t)(b->any_base + 1 + id);
    return 1;
  }
  int32_t per[64];
  uint32_t np = 0, roles = b->c->n_roles;

  for (uint32_t r = 0; r < roles; r++) {
    uint32_t nr = 0;
    for (uint32_t k = 0; k < n; k++)
      if (b->does_role[m[k]] == r) b->of_role[nr++] = m[k];
    if (!nr) continue;
    int32_t l;
    if (!role_literal(b, r, b->of_role, nr, &l)) return 0;
    if (l == 0) {
      *lit = 0;
      return 1;
    }
    if (np == 64) return set_literal(b, m, n, 0, lit);  /* many roles: a plain OR */
    per[np++] = l;
  }
  if (np == 1) {
    *lit = per[0];
    return 1;
  }
  dl_sort_int32(per, np);
  if (!any_of(b, per, np, &id)) return 0;
  *lit = (int32_t)(b->any_base + 1 + id);
  return 1;
}

/* Atoms of no keyword whose every rule is one positive literal stand for
 * "one of these moves, or one of these atoms" when some of those literals
 * are moves or such atoms.  Chess's frame of a cell grounds to three
 * levels of them: aux_2(x1,y1,x2,y2) "a move from (x1,y1) to (x2,y2)"
 * (and not an en passant capture: 28 of them also need that atom),
 * aux_3(x,y,x2,y2) "a move to (x2,y2) from elsewhere than (x,y)" (63 of
 * those), aux_4(x,y) "a move neither from nor to (x,y)" (63 of those): a
 * move's flip flipped 63 aux_3 gates.  Read as its set (moves_literal:
 * for aux_4, "fewer than all roles make a move that touches (x,y)"), or
 * the atoms left, it flips the gates of its two squares.  Per atom its
 * moves, pool[at[a] .. at[a] + len[a]) (len 0: none), then its other
 * atoms, rest[a] of them (at most REST_MAX); cand[a] while it may still
 * have a set.  The sets' total stays within cap. */
typedef struct move_sets {
  uint32_t *at, *len, *rest, *pool, n_pool, cap;
  uint8_t *cand;
  int32_t *lit;  /* per atom with a set, its literal once made, else NO_LIT */
} move_sets;

#define NO_LIT INT32_MIN

enum { MOVE_SET_LEVELS = 16, REST_MAX = 64 };

/* The moves and atoms literal l of a rule of a set's atom adds to m, or
 * NONE when l is an atom that may still get a set of its own. */
static uint32_t add_to_set(const build *b, const move_sets *s, int32_t l, uint32_t *m, uint32_t *rest)
{
  if (is_settable(b, l)) {
    if (m) m[0] = (uint32_t)l;
    return 1;
  }
  if (s->cand[l] && !s->len[l]) return NONE;
  uint32_t n = s->len[l] ? s->len[l] + s->rest[l] : 1;
  *rest += s->len[l] ? s->rest[l] : 1;
  if (m && s->len[l]) memcpy(m, s->pool + s->at[l], n * sizeof *m);
  else if (m) m[0] = (uint32_t)l;
  return n;
}

/* Sorts the moves m[0..n) first (atoms up to any_base), then the atoms,
 * without repeats; their number, of which the atoms *rest. */
static uint32_t sort_set(const build *b, uint32_t *m, uint32_t n, uint32_t *rest)
{
  for (uint32_t k = 0; k < n; k++)  /* moves first: the others shifted past them */
    if (!is_settable(b, (int32_t)m[k])) m[k] += INT32_MAX / 2;
  dl_sort_int32((int32_t *)m, n);
  uint32_t d = 0;
  *rest = 0;
  for (uint32_t k = 0; k < n; k++)
    if (d == 0 || m[d - 1] != m[k]) m[d++] = m[k];
  for (uint32_t k = 0; k < d; k++)
    if (m[k] >= INT32_MAX / 2) m[k] -= INT32_MAX / 2, ++*rest;
  return d;
}

/* Gives atom h (rules idx[0..n) of in) its set when each rule is one
 * positive literal and they make a set (add_to_set); clears cand[h] when
 * it never will. */
static void find_move_set(const build *b, const rule_set *in, const uint32_t *idx, uint32_t n, uint32_t h,
                          move_sets *s)
{
  uint32_t total = 0, rest = 0, *m = s->pool + s->n_pool;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = idx[k], add;
    int32_t l = in->lits[in->start[i]];
    if (in->start[i + 1] - in->start[i] != 1 || l <= 0) {
      s->cand[h] = 0;
      return;
    }
    if ((add = add_to_set(b, s, l, NULL, &rest)) == NONE) return;  /* not yet */
    total += add;
  }
  if (s->n_pool + (uint64_t)total > s->cap) {
    s->cand[h] = 0;  /* the pool only grows */
    return;
  }
  for (uint32_t k = 0, nm = 0; k < n; k++) nm += add_to_set(b, s, in->lits[in->start[idx[k]]], m + nm, &rest);
  uint32_t d = sort_set(b, m, total, &rest);
  if (rest == d || rest > REST_MAX) {
    s->cand[h] = 0;  /* no move, or too many atoms: read as it is */
    return;
  }
  s->at[h] = s->n_pool, s->len[h] = d - rest, s->rest[h] = rest, s->n_pool += d;
}

/* The sets, level by level (an atom's after those of the atoms it reads);
 * 1 when there is one. */
static int find_move_sets(const build *b, const rule_set *in, const uint32_t *start, const uint32_t *idx,
                          move_sets *s)
{
  int any = 0;
  for (uint32_t h = 1; h <= b->n_atoms; h++)
    s->cand[h] = start[h + 1] > start[h] && !b->has_fact[h] && dl_ground_atom_role(b->g, h) == DL_ATOM_OTHER;
  for (int level = 0, found = 1; found && level < MOVE_SET_LEVELS; level++) {
    found = 0;
    for (uint32_t h = 1; h <= b->n_atoms; h++) {
      if (!s->cand[h] || s->len[h]) continue;
      find_move_set(b, in, idx + start[h], start[h + 1] - start[h], h, s);
      found |= s->len[h] != 0;
    }
    any |= found;
  }
  return any;
}

/* The literal of atom a's set into *lit: its moves' (moves_literal), or
 * with other atoms an OR of that and them; 0 when it always holds.  1, or
 * 0 when out of memory. */
static int set_literal_of(build *b, move_sets *s, uint32_t a, int32_t *lit)
{
  const uint32_t *m = s->pool + s->at[a];
  if (s->lit[a] != NO_LIT) {
    *lit = s->lit[a];
    return 1;
  }
  if (!moves_literal(b, m, s->len[a], lit)) return 0;
  s->lit[a] = *lit;
  if (*lit == 0 || s->rest[a] == 0) return 1;
  int32_t *or = b->set;  /* moves_literal is done with it */
  uint32_t n = 0, id;
  or[n++] = *lit;
  for (uint32_t k = 0; k < s->rest[a]; k++) or[n++] = (int32_t)m[s->len[a] + k];
  dl_sort_int32(or, n);
  if (!any_of(b, or, n, &id)) return 0;
  *lit = s->lit[a] = (int32_t)(b->any_base + 1 + id);
  return 1;
}

/* The rules of in into out, a literal of an atom with a set as that set's
 * literal; the rules of those atoms go (their gates stay, false and
 * unread).  1, or 0 when out of memory. */
static int read_move_sets(build *b, const rule_set *in, move_sets *s, rule_set *out)
{
  int32_t *tmp = malloc((longest_rule(in) + 1) * sizeof *tmp);
  int ok = tmp && rule_set_reserve(out, in->n, in->n_lits);
  for (uint32_t i = 0; ok && i < in->n; i++) {
    uint32_t h = in->head[i], n = 0, keep = !s->len[h];
    for (uint32_t j = in->start[i]; keep && j < in->start[i + 1]; j++) {
      int32_t l = in->lits[j], m;
      uint32_t a = (uint32_t)(l > 0 ? l : -l);
      if (!s->len[a]) tmp[n++] = l;
      else if (!(ok = set_literal_of(b, s, a, &m))) keep = 0;
      else if (m) tmp[n++] = l > 0 ? m : -m;
      else keep = l > 0;  /* the set always holds */
    }
    if (!keep) continue;
    if (n == 0) b->has_fact[h] = 1;
    else ok = cc_rule_set_add(out, h, tmp, n);
  }
  free(tmp);
  return ok;
}

/* in, its atoms that stand for sets of moves read as those sets, into out
 * (see move_sets); in is left empty. */
static int inline_move_sets(build *b, rule_set *in, rule_set *out)
{
  uint32_t *start, *idx;
  move_sets s = { calloc(b->n_atoms + 1, 4), calloc(b->n_atoms + 1, 4), calloc(b->n_atoms + 1, 4), NULL, 0,
                  in->n_lits + 65536u, NULL, malloc((b->n_atoms + 1) * sizeof(int32_t)) };
  s.pool = malloc((size_t)s.cap * sizeof *s.pool), s.cand = malloc(b->n_atoms + 1);
  int ok = rules_by_head(b, in, &start, &idx) && s.at && s.len && s.rest && s.pool && s.cand && s.lit;
  for (uint32_t a = 0; ok && a <= b->n_atoms; a++) s.lit[a] = NO_LIT;
  int any = ok && find_move_sets(b, in, start, idx, &s);
  free(start), free(idx);
  if (ok && !any) *out = *in, *in = (rule_set){ 0 };
  else ok = ok && read_move_sets(b, in, &s, out);
  free(s.at), free(s.len), free(s.rest), free(s.pool), free(s.cand), free(s.lit);
  return ok ? 1 : cc_oom(b);
}

/* Emits the rules of head h (rules idx[0..n) of in): rules alike but for
 * their one move become one rule with an "any of these moves" literal. */
static int factor_head(build *b, const rule_set *in, const uint32_t *idx, uint32_t n, rule_set *out,
                       candidate *cand, int32_t *rest, uint32_t *moves, int32_t *lits)
{
  uint32_t nc = 0, nr = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = idx[k], s = in->start[i], e = in->start[i + 1], does = 0, at = 0;
    for (uint32_t j = s; j < e; j++)
      if (in->lits[j] > 0 && is_settable(b, in->lits[j])) does++, at = j;
    if (does != 1 || n < 2) {
      if (!cc_rule_set_add(out, in->head[i], in->lits + s, e - s)) return 0;
      continue;
    }
    cand[nc] = (candidate){ i, (uint32_t)in->lits[at], nr, e - s - 1 };
    for (uint32_t j = s; j < e; j++)
      if (j != at) rest[nr++] = in->lits[j];
    dl_sort_int32(rest + cand[nc].rest_start, cand[nc].rest_len);
    nc++;
  }
  factor_ctx f = { rest };
  dl_sort(cand, nc, sizeof *cand, cmp_candidate, &f);
  for (uint32_t k = 0; k < nc;) {
    uint32_t e = k + 1;
    while (e < nc && cand[e].rest_len == cand[k].rest_len &&
           memcmp(rest + cand[e].rest_start, rest + cand[k].rest_start, cand[k].rest_len * sizeof *rest) == 0)
      e++;
    uint32_t nm = 0, len = cand[k].rest_len;
    for (uint32_t j = k; j < e; j++)
      if (nm == 0 || moves[nm - 1] != cand[j].move) moves[nm++] = cand[j].move;
    memcpy(lits, rest + cand[k].rest_start, len * sizeof *lits);
    int32_t lit;
    if (!moves_literal(b, moves, nm, &lit)) return 0;
    if (lit) lits[len++] = lit;
    if (len == 0) b->has_fact[in->head[cand[k].rule]] = 1;
    else if (!cc_rule_set_add(out, in->head[cand[k].rule], lits, len)) return 0;
    k = e;
  }
  return 1;
}

/* Factors the rules of every head (factor_head). */
static int factor_rules(build *b, const rule_set *in, rule_set *out)
{
  if (!rule_set_reserve(out, in->n, in->n_lits)) return cc_oom(b);
  uint32_t *start, *idx, longest = longest_rule(in);
  candidate *cand = malloc((in->n + 1) * sizeof *cand);
  int32_t *rest = malloc(((size_t)in->n_lits + 1) * sizeof *rest), *lits = malloc((longest + 1) * sizeof *lits);
  uint32_t *moves = malloc((in->n + 1) * sizeof *moves);
  int ok = rules_by_head(b, in, &start, &idx) && cand && rest && lits && moves;
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    uint32_t n = start[a + 1] - start[a];
    if (n && !b->has_fact[a]) ok = factor_head(b, in, idx + start[a], n, out, cand, rest, moves, lits);
  }
  free(start), free(idx), free(cand), free(rest), free(lits), free(moves);
  return ok ? 1 : cc_oom(b);
}

static int has_lit(const rule_set *r, uint32_t i, int32_t lit)
{
  for (uint32_t j = r->start[i]; j < r->start[i + 1]; j++)
    if (r->lits[j] == lit) return 1;
  return 0;
}

/* Counts of the literals of one head's rules not shared yet, by literal
 * (count[lit], lit offset by the largest |lit|, all 0 between heads), and
 * the head's distinct literals: the most frequent is a scan of these, not
 * a sort per literal taken. */
typedef struct lit_counts {
  uint32_t *count;  /* indexed by lit + bias */
  int32_t *seen;    /* the head's distinct literals */
  uint32_t n_seen, bias;
} lit_counts;

static void count_rule(lit_counts *c, const rule_set *in, uint32_t i, int step)
{
  for (uint32_t j = in->start[i]; j < in->start[i + 1]; j++) {
    uint32_t *k = &c->count[in->lits[j] + (int64_t)c->bias];
    if (*k == 0 && step > 0) c->seen[c->n_seen++] = in->lits[j];
    *k += (uint32_t)step;
  }
}

/* The literal most frequent among the counted rules (the least such
 * literal on a tie), and its count. */
static int32_t frequent_literal(const lit_counts *c, uint32_t *count)
{
  uint32_t best = 0;
  int32_t lit = 0;
  for (uint32_t k = 0; k < c->n_seen; k++) {
    int32_t l = c->seen[k];
    uint32_t n = c->count[l + (int64_t)c->bias];
    if (n > best || (n == best && n && l < lit)) best = n, lit = l;
  }
  *count = best;
  return lit;
}

/* The rules of one head that share a literal L become L & OR(rests), the
 * rests as shared AND gates: heads whose rules differ only in L (next of a
 * counter's each value) then share the OR. */
static int share_head(build *b, const rule_set *in, const uint32_t *idx, uint32_t n, rule_set *out, uint8_t *used,
                      lit_counts *counts, int32_t *refs, int32_t *tmp)
{
  memset(used, 0, n);
  counts->n_seen = 0;
  if (n >= 2 && n <= 4096)
    for (uint32_t k = 0; k < n; k++) count_rule(counts, in, idx[k], 1);
  while (n >= 2 && n <= 4096) {
    uint32_t count, nr = 0, id;
    int32_t lit = frequent_literal(counts, &count), always = 0;
    if (count < 2) break;
    for (uint32_t k = 0; k < n; k++) {
      uint32_t i = idx[k], len = 0;
      if (used[k] || !has_lit(in, i, lit)) continue;
      used[k] = 1;
      count_rule(counts, in, i, -1);
      for (uint32_t j = in->start[i]; j < in->start[i + 1]; j++)
        if (in->lits[j] != lit) tmp[len++] = in->lits[j];
      if (len == 0) always = 1;
      else if (len == 1) refs[nr++] = tmp[0];
      else {
        dl_sort_int32(tmp, len);
        if (!node(b, 1, tmp, len, &id)) return 0;
        refs[nr++] = (int32_t)(b->any_base + 1 + id);
      }
    }
    int32_t rule[2] = { lit, 0 };
    if (!always) {
      dl_sort_int32(refs, nr);
      uint32_t d = 0;
      for (uint32_t k = 0; k < nr; k++)
        if (d == 0 || refs[d - 1] != refs[k]) refs[d++] = refs[k];
      if (d == 1) rule[1] = refs[0];
      else if (!node(b, 0, refs, d, &id)) return 0;
      else rule[1] = (int32_t)(b->any_base + 1 + id);
    }
    if (!cc_rule_set_add(out, in->head[idx[0]], rule, always ? 1 : 2)) return 0;
  }
  for (uint32_t k = 0; k < counts->n_seen; k++) counts->count[counts->seen[k] + (int64_t)counts->bias] = 0;
  for (uint32_t k = 0; k < n; k++)
    if (!used[k] && !cc_rule_set_add(out, in->head[idx[k]], in->lits + in->start[idx[k]],
                                  in->start[idx[k] + 1] - in->start[idx[k]]))
      return 0;
  return 1;
}

/* Shares the rules of every head (share_head), or of the heads `only`
 * marks (others copied) when only is not NULL. */
static int share_rules(build *b, const rule_set *in, rule_set *out, const uint8_t *only)
{
  if (!rule_set_reserve(out, in->n, in->n_lits)) return cc_oom(b);
  uint32_t *start, *idx;
  uint8_t *used = malloc(in->n + 1);
  int32_t *refs = malloc((in->n + 1) * sizeof *refs), *tmp = malloc(((size_t)in->n_lits + 1) * sizeof *tmp);
  lit_counts counts = { NULL, malloc(((size_t)in->n_lits + 1) * sizeof(int32_t)), 0, 0 };
  for (uint32_t j = 0; j < in->n_lits; j++)
    if ((uint32_t)abs(in->lits[j]) > counts.bias) counts.bias = (uint32_t)abs(in->lits[j]);
  counts.count = calloc(2 * (size_t)counts.bias + 1, sizeof *counts.count);
  int ok = rules_by_head(b, in, &start, &idx) && used && refs && tmp && counts.count && counts.seen;
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    uint32_t n = start[a + 1] - start[a];
    if (!n) continue;
    if (!only || only[a]) ok = share_head(b, in, idx + start[a], n, out, used, &counts, refs, tmp);
    else
      for (uint32_t k = 0; ok && k < n; k++) {
        uint32_t i = idx[start[a] + k];
        ok = cc_rule_set_add(out, a, in->lits + in->start[i], in->start[i + 1] - in->start[i]);
      }
  }
  free(start), free(idx), free(used), free(refs), free(tmp), free(counts.count), free(counts.seen);
  return ok ? 1 : cc_oom(b);
}

/* Role r's literal most frequent in the rules of its legal atoms. */
static int32_t common_literal(build *b, const rule_set *in, uint32_t r, idmap *m, uint32_t *count)
{
  uint32_t n = 0, best = NONE;
  int32_t lit = 0;
  memset(m->vals, 0xff, (m->mask + 1) * sizeof *m->vals);
  for (uint32_t i = 0; i < in->n; i++) {
    uint32_t h = in->head[i];
    if (dl_ground_atom_role(b->g, h) != DL_ATOM_LEGAL ||
        cc_role_index(b->c, cc_arg(b->c->terms, dl_ground_atom_term(b->g, h), 0)) != r)
      continue;
    for (uint32_t j = in->start[i]; j < in->start[i + 1] && n <= m->mask / 2; j++) {
      uint32_t before = n, k = idmap_add(m, (uint32_t)in->lits[j], &n);
      if (k == before) count[k] = 0;
      if (++count[k] > (best == NONE ? 0 : count[best])) {
        best = k;
        lit = in->lits[j];
      }
    }
  }
  return best != NONE && count[best] >= 4 ? lit : 0;
}

/* Per role r, the legal atoms whose every rule has the role's most common
 * literal L (a turn: true(control(r))), L not itself a legal atom: into
 * b->role_lit and b->gated; per gated atom its L in lit_of. */
static int choose_gated(build *b, const rule_set *in, int32_t *lit_of)
{
  uint32_t roles = b->c->n_roles, legal_lits = 0;
  for (uint32_t i = 0; i < in->n; i++)
    if (dl_ground_atom_role(b->g, in->head[i]) == DL_ATOM_LEGAL) legal_lits += in->start[i + 1] - in->start[i];
  b->role_lit = calloc(roles, sizeof *b->role_lit);
  b->gated = calloc(b->n_atoms + 1, 1);
  uint8_t *all = malloc(b->n_atoms + 1);
  uint32_t *count = malloc(((size_t)legal_lits + 1) * sizeof *count);
  idmap m = { 0, 0, 0 };
  int ok = b->role_lit && b->gated && all && count && idmap_init(&m, legal_lits);
  for (uint32_t r = 0; ok && r < roles; r++) {
    int32_t lit = common_literal(b, in, r, &m, count);
    uint32_t la = (uint32_t)(lit > 0 ? lit : -lit);
    if (!lit || (la <= b->n_atoms && dl_ground_atom_role(b->g, la) == DL_ATOM_LEGAL)) continue;
    memset(all, 0, b->n_atoms + 1);
    for (uint32_t i = 0; i < in->n; i++) all[in->head[i]] = 1;
    for (uint32_t i = 0; i < in->n; i++) {
      uint32_t h = in->head[i];
      if (dl_ground_atom_role(b->g, h) != DL_ATOM_LEGAL ||
          cc_role_index(b->c, cc_arg(b->c->terms, dl_ground_atom_term(b->g, h), 0)) != r || !has_lit(in, i, lit))
        all[h] = 0;
    }
    uint32_t gated = 0;
    for (uint32_t a = 1; a <= b->n_atoms; a++) gated += all[a];
    if (gated < 2) continue;
    b->role_lit[r] = lit;
    for (uint32_t a = 1; a <= b->n_atoms; a++)
      if (all[a]) b->gated[a] = 1, lit_of[a] = lit;
  }
  idmap_free(&m);
  free(all), free(count);
  return ok;
}

/* The literal of the shared AND gate "gated atom a and its L" (*cache
 * when set): the value a had before it lost L. */
static int with_lit(build *b, uint32_t a, int32_t l, int32_t *cache)
{
  if (*cache) return 1;
  int32_t s[2] = { (int32_t)a < l ? (int32_t)a : l, (int32_t)a < l ? l : (int32_t)a };
  uint32_t id;
  if (!node(b, 1, s, 2, &id)) return 0;
  *cache = (int32_t)(b->any_base + 1 + id);
  return 1;
}

/* The shared gates made before (k < n_any) that read a gated atom a read
 * "a and L" instead.  Only ORs and ANDs can (the others count moves); the
 * gate "a and L" itself keeps a. */
static int gated_in_nodes(build *b, const int32_t *lit_of, int32_t *and_of)
{
  for (uint32_t k = 0, n_any = b->n_any; k < n_any; k++) {
    if (b->any_kind[k] > 1) continue;
    for (uint32_t j = b->any_start[k]; j < b->any_start[k + 1]; j++) {
      int32_t l = b->any_atoms[j];
      uint32_t a = (uint32_t)(l > 0 ? l : -l);
      if (a > b->n_atoms || !b->gated[a]) continue;
      if (!with_lit(b, a, lit_of[a], &and_of[a])) return 0;
      if ((uint32_t)and_of[a] == b->any_base + 1 + k) continue;
      b->any_atoms[j] = l > 0 ? and_of[a] : -and_of[a];
    }
  }
  return 1;
}

/* Rule i of in without its head's L (hl: 0 when not gated), its reads of
 * gated atoms turned into reads of their value with L: a positive one
 * adds L to the rule, a negative one reads "not (a and L)"; a head gated
 * by the same L reads them as they are (it counts only while L holds).
 * Into out[0 .. *n); *added when some L was added. */
static int rewrite_body(build *b, const rule_set *in, uint32_t i, int32_t hl, const int32_t *lit_of,
                        int32_t *and_of, int32_t *out, uint32_t *n, int *added)
{
  uint32_t s = in->start[i], e = in->start[i + 1], k = 0;
  for (uint32_t j = s; j < e; j++)
    if (in->lits[j] != hl) out[k++] = in->lits[j];
  for (uint32_t j = 0, k0 = k; j < k0; j++) {
    int32_t l = out[j];
    uint32_t a = (uint32_t)(l > 0 ? l : -l);
    if (a > b->n_atoms || !b->gated[a] || lit_of[a] == hl) continue;
    if (l < 0) {
      if (!with_lit(b, a, lit_of[a], &and_of[a])) return 0;
      out[j] = -and_of[a];
      continue;
    }
    int have = 0;
    for (uint32_t q = 0; q < k; q++) have |= out[q] == lit_of[a];
    if (!have) out[k++] = lit_of[a], *added = 1;
  }
  *n = k;
  return 1;
}

/* Per role, the legal atoms whose every rule has the role's most common
 * literal L (a turn: true(control(r))) lose L: they flip only when the rest
 * changes, and are counted while L holds (gate_open).  What reads such an
 * atom reads it with L again (rewrite_body, gated_in_nodes: terminal :- not
 * anylegalmove, anylegalmove :- legal(r, m) must see L & rest); the heads
 * whose rules got L have it shared out again (anylegalmove :- L, OR(rests)). */
static int hoist_legal(build *b, const rule_set *in, rule_set *out)
{
  uint32_t longest = longest_rule(in);
  int32_t *lit_of = calloc(b->n_atoms + 1, sizeof *lit_of), *and_of = calloc(b->n_atoms + 1, sizeof *and_of);
  int32_t *tmp = malloc(2 * ((size_t)longest + 1) * sizeof *tmp);
  uint8_t *touched = calloc(b->n_atoms + 1, 1);
  rule_set mid = { 0 };
  int ok = lit_of && and_of && tmp && touched && rule_set_reserve(&mid, in->n, in->n_lits) &&
           choose_gated(b, in, lit_of) && gated_in_nodes(b, lit_of, and_of);
  for (uint32_t i = 0; ok && i < in->n; i++) {
    uint32_t h = in->head[i], n = 0;
    int added = 0;
    ok = rewrite_body(b, in, i, b->gated[h] ? lit_of[h] : 0, lit_of, and_of, tmp, &n, &added);
    touched[h] |= (uint8_t)added;
    if (!ok) break;
    if (n == 0) b->has_fact[h] = 1;
    else ok = cc_rule_set_add(&mid, h, tmp, n);
  }
  ok = ok && share_rules(b, &mid, out, touched);
  cc_rule_set_free(&mid);
  free(lit_of), free(and_of), free(tmp), free(touched);
  return ok ? 1 : cc_oom(b);
}

/* Moves in most "at least roles of" gates (a noop, in every cell's "none
 * of the moves that touch it" of an alternating game) flip them all at
 * every turn, though the count of the roles making them (one of them
 * noops) stays.  In a gate with a set Q of two or more such moves, Q
 * counts through the shared gates "at least j of Q", j = 1 .. min(|Q|,
 * roles) (a move per role: count(Q) is their sum): a turn that passes a
 * noop from one role to the other flips none of them.  The gates
 * rewritten are marked dead (kind ANY_DEAD) and the rules' literals
 * renamed. */
/* Literal l, when of one of the first n_any "any" gates, renamed by remap
 * (NONE: kept). */
static int32_t renamed(const build *b, const uint32_t *remap, uint32_t n_any, int32_t l)
{
  uint32_t a = (uint32_t)(l > 0 ? l : -l);
  if (a <= b->any_base || a - b->any_base - 1 >= n_any || remap[a - b->any_base - 1] == NONE) return l;
  return (l > 0 ? 1 : -1) * (int32_t)(b->any_base + 1 + remap[a - b->any_base - 1]);
}

static int split_shared_moves(build *b, rule_set *r)
{
  uint32_t n_any = b->n_any, n2 = 0, roles = b->c->n_roles;
  if (roles >= ANY_DEAD - 2) return 1;
  uint32_t *count = calloc((size_t)b->any_base + 1, sizeof *count), *remap = malloc(((size_t)n_any + 1) * sizeof *remap);
  int32_t *q = malloc(((size_t)b->any_base + 1) * sizeof *q), *s = malloc(((size_t)b->any_base + roles + 2) * sizeof *s);
  int ok = count && remap && q && s;
  for (uint32_t k = 0; ok && k < n_any; k++) {
    remap[k] = NONE;
    if (b->any_kind[k] != 2) continue;
    n2++;
    for (uint32_t j = b->any_start[k]; j < b->any_start[k + 1]; j++)
      if (b->any_atoms[j] > 0 && (uint32_t)b->any_atoms[j] <= b->any_base) count[b->any_atoms[j]]++;
  }
  uint32_t least = n2 / 2 > 4 ? n2 / 2 : 4, changed = 0;
  for (uint32_t k = 0; ok && k < n_any; k++) {
    if (b->any_kind[k] != 2) continue;
    uint32_t nq = 0, ns = 0, id;
    for (uint32_t j = b->any_start[k]; j < b->any_start[k + 1]; j++) {
      int32_t l = b->any_atoms[j];
      if (l > 0 && (uint32_t)l <= b->any_base && count[l] >= least) q[nq++] = l;
      else s[ns++] = l;
    }
    if (nq < 2) continue;
    for (uint32_t j = 1; ok && j <= nq && j <= roles; j++) {
      ok = node(b, j == 1 ? 0 : (uint8_t)(j + 1), q, nq, &id);
      s[ns++] = (int32_t)(b->any_base + 1 + id);
    }
    dl_sort_int32(s, ns);
    ok = ok && node(b, 2, s, ns, &id);
    if (!ok) break;
    remap[k] = id;
    b->any_kind[k] = ANY_DEAD;
    changed++;
  }
  for (uint32_t i = 0; ok && changed && i < r->n_lits; i++) r->lits[i] = renamed(b, remap, n_any, r->lits[i]);
  for (uint32_t j = 0; ok && changed && j < b->any_start[n_any]; j++)  /* a set with atoms reads one */
    b->any_atoms[j] = renamed(b, remap, n_any, b->any_atoms[j]);
  free(count), free(remap), free(q), free(s);
  return ok ? 1 : cc_oom(b);
}

/* Literal l with its atom, when an alias, replaced by what it stands for. */
static int32_t resolve_alias(const build *b, const int32_t *alias, int32_t l)
{
  uint32_t a = (uint32_t)(l > 0 ? l : -l);
  if (a > b->n_atoms || !alias[a]) return l;
  return l > 0 ? alias[a] : -alias[a];
}

/* An atom of no keyword with one rule of one literal (aux_0(1) :- not N8)
 * is that literal: what reads it reads the literal (one gate fewer to
 * flip), and its rule goes (its gate stays, false and unread).  A chain
 * of them is followed to its end; a cycle of them keeps one. */
static int drop_aliases(build *b, rule_set *r)
{
  uint32_t n = b->n_atoms, *rules = calloc(n + 1, sizeof *rules);
  int32_t *alias = calloc(n + 1, sizeof *alias);
  if (!rules || !alias) {
    free(rules), free(alias);
    return cc_oom(b);
  }
  for (uint32_t i = 0; i < r->n; i++) rules[r->head[i]]++;
  for (uint32_t i = 0; i < r->n; i++) {
    uint32_t h = r->head[i];
    if (rules[h] == 1 && r->start[i + 1] - r->start[i] == 1 && !b->has_fact[h] &&
        dl_ground_atom_role(b->g, h) == DL_ATOM_OTHER)
      alias[h] = r->lits[r->start[i]];
  }
  for (uint32_t k = 0; k < b->c->n_roles; k++) {
    uint32_t a = (uint32_t)(b->role_lit[k] > 0 ? b->role_lit[k] : -b->role_lit[k]);
    if (a && a <= n) alias[a] = 0;  /* the turn's gate is read by its atom */
  }
  for (uint32_t h = 1; h <= n; h++) {
    if (!alias[h]) continue;
    int32_t l = alias[h];
    for (uint32_t steps = 0; l != resolve_alias(b, alias, l) && steps <= n; steps++) {
      l = resolve_alias(b, alias, l);
      if ((uint32_t)(l > 0 ? l : -l) == h) break;
    }
    alias[h] = (uint32_t)(l > 0 ? l : -l) == h || l != resolve_alias(b, alias, l) ? 0 : l;
  }
  uint32_t kept = 0, at = 0;
  for (uint32_t i = 0; i < r->n; i++) {
    uint32_t s = r->start[i], e = r->start[i + 1];
    if (alias[r->head[i]]) continue;
    r->head[kept] = r->head[i];
    for (uint32_t j = s; j < e; j++) r->lits[at++] = resolve_alias(b, alias, r->lits[j]);
    r->start[++kept] = at;
  }
  r->n = kept, r->n_lits = at;
  for (uint32_t j = 0; j < (b->n_any ? b->any_start[b->n_any] : 0); j++)
    b->any_atoms[j] = resolve_alias(b, alias, b->any_atoms[j]);
  free(rules), free(alias);
  return 1;
}

int cc_lower_rules(build *b, rule_set *out)
{
  rule_set r1 = { 0 }, r2 = { 0 }, r0 = { 0 }, r3 = { 0 };
  int built = settable_moves(b) && clean_rules(b, &r1) && (idmap_init(&b->any_map, r1.n) || cc_oom(b)) &&
              inline_move_sets(b, &r1, &r2) && factor_rules(b, &r2, &r0) && split_shared_moves(b, &r0) &&
              share_rules(b, &r0, &r3, NULL) && hoist_legal(b, &r3, out) && drop_aliases(b, out);
  cc_rule_set_free(&r1);
  cc_rule_set_free(&r2);
  cc_rule_set_free(&r0);
  cc_rule_set_free(&r3);
  return built;
}
