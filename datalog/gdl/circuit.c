/* circuit.c: a ground game compiled into a circuit of counter gates with
 * differential propagation (see circuit.h). */
#include "datalog/gdl/circuit.h"

#include "datalog/base/sort.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define TOP 0x80000000u

enum { HOOK_LEGAL = 1, HOOK_NEXT = 2, HOOK_GOAL = 3, HOOK_TERMINAL = 4 };
enum { KIND_INPUT, KIND_CONST, KIND_AND, KIND_OR };
#define HAS_OUTPUTS 0x80000000u

struct dl_circuit {
  const dl_ground *g;
  const dl_terms *terms;
  /* gates */
  uint32_t n_gates, n_edges;
  uint32_t *counter;     /* threshold offset + true inputs; value = top bit */
  uint32_t *out_start;   /* n_gates + 1 */
  uint32_t *outs;        /* target << 2 | negated << 1 | (target is in a cyclic block) */
  uint32_t *hook;        /* HAS_OUTPUTS | keyword hook (0, or kind << 28 | index) */
  uint8_t *kind;
  uint32_t *gate_atom;   /* the atom a gate stands for, 0 for a rule's AND */
  /* cyclic blocks, numbered in Tarjan's order (a block's inputs come from
   * blocks of higher numbers) */
  uint32_t n_blocks;
  uint32_t *block;       /* per gate: 0, or block number + 1 */
  uint32_t *block_start, *block_members;
  uint8_t *val;          /* value of a block member */
  uint8_t *dirty;
  uint32_t *dirty_list, n_dirty;
  uint32_t *work;        /* worklist of a block's fixpoint */
  /* pending flips: gate << 1 | new value */
  uint32_t *stack;
  size_t sp, cap;
  int failed;
  /* roles, fluents, moves, goals */
  uint32_t n_roles;
  dl_tid *role_term;
  uint32_t n_fluents, words;
  dl_tid *fluent_term;
  uint32_t *fluent_gate;
  uint64_t *init, *cur, *next_bits, *scratch;
  uint32_t n_moves;
  uint32_t *move_role, *move_gate, *role_start;
  dl_tid *move_term;
  uint32_t *legal_list, *legal_n, *legal_pos;
  uint32_t *cur_move, *joint;
  uint32_t *goal_role;
  int32_t *goal_value;
  int32_t *goal_count, *goal_sum;
  int32_t terminal_count;
  dl_circuit_stats stats;
};

/* ---------------------------------------------------------------------
 * Propagation */

static int grow_stack(dl_circuit *c)
{
  size_t cap = c->cap * 2 + 64;
  uint32_t *s = realloc(c->stack, cap * sizeof *s);
  if (!s) {
    c->failed = 1;
    return 0;
  }
  c->stack = s;
  c->cap = cap;
  return 1;
}

static void run_hook(dl_circuit *c, uint32_t h, uint32_t up)
{
  uint32_t i = h & 0x0fffffffu;
  switch ((h >> 28) & 7) {
  case HOOK_LEGAL: {
    uint32_t r = c->move_role[i], *list = c->legal_list + c->role_start[r];
    if (up) {
      c->legal_pos[i] = c->legal_n[r];
      list[c->legal_n[r]++] = i;
    } else {
      uint32_t p = c->legal_pos[i], last = list[--c->legal_n[r]];
      list[p] = last;
      c->legal_pos[last] = p;
    }
    break;
  }
  case HOOK_NEXT:
    c->next_bits[i >> 6] ^= (uint64_t)1 << (i & 63);
    break;
  case HOOK_GOAL: {
    uint32_t r = c->goal_role[i];
    c->goal_count[r] += up ? 1 : -1;
    c->goal_sum[r] += up ? c->goal_value[i] : -c->goal_value[i];
    break;
  }
  default:
    c->terminal_count += up ? 1 : -1;
    break;
  }
}

/* Gate g has just flipped to value v: its keyword hook runs now (flips of a
 * gate come here in the order they happen), its outputs later. */
static inline void flip(dl_circuit *c, uint32_t g, uint32_t v)
{
  uint32_t h = c->hook[g];
  if (h & ~HAS_OUTPUTS) run_hook(c, h, v);
  if (!(h & HAS_OUTPUTS)) return;
  if (c->sp == c->cap && !grow_stack(c)) return;
  c->stack[c->sp++] = g << 1 | v;
}

static void mark_dirty(dl_circuit *c, uint32_t b)
{
  if (c->dirty[b]) return;
  c->dirty[b] = 1;
  c->dirty_list[c->n_dirty++] = b;
}

/* Adds d (+1 or -1; -d on a negated wire) to the counters of g's outputs
 * outside block `own` (0: none), queueing the outputs that flip. */
static inline void feed_outputs(dl_circuit *c, uint32_t g, uint32_t d, uint32_t own)
{
  uint32_t *counter = c->counter;
  const uint32_t *outs = c->outs;
  for (uint32_t i = c->out_start[g], end = c->out_start[g + 1]; i < end; i++) {
    uint32_t o = outs[i], t = o >> 2, dd = (o & 2) ? 0u - d : d;
    if (o & 1) {
      if (c->block[t] == own) continue;
      counter[t] += dd;
      mark_dirty(c, c->block[t] - 1);
      continue;
    }
    uint32_t before = counter[t], after = before + dd;
    counter[t] = after;
    if ((before ^ after) & TOP) flip(c, t, after >> 31);
  }
}

static void drain(dl_circuit *c)
{
  while (c->sp) {
    uint32_t e = c->stack[--c->sp];
    feed_outputs(c, e >> 1, (e & 1) ? 1u : UINT32_MAX, 0);
  }
}

/* Recomputes block b (members' least fixpoint from their inputs outside
 * it) and passes the members that changed on. */
static void recompute_block(dl_circuit *c, uint32_t b)
{
  const uint32_t *m = c->block_members + c->block_start[b];
  uint32_t n = c->block_start[b + 1] - c->block_start[b], own = b + 1, wn = 0;
  uint32_t *counter = c->counter;
  for (uint32_t k = 0; k < n; k++) {
    if (!(c->val[m[k]] & 1)) continue;
    for (uint32_t i = c->out_start[m[k]]; i < c->out_start[m[k] + 1]; i++)
      if ((c->outs[i] & 1) && c->block[c->outs[i] >> 2] == own) counter[c->outs[i] >> 2]--;
  }
  for (uint32_t k = 0; k < n; k++) {
    c->val[m[k]] = (uint8_t)((c->val[m[k]] & 1) << 1);
    if (counter[m[k]] & TOP) {
      c->val[m[k]] |= 1;
      c->work[wn++] = m[k];
    }
  }
  while (wn) {
    uint32_t x = c->work[--wn];
    for (uint32_t i = c->out_start[x]; i < c->out_start[x + 1]; i++) {
      uint32_t t = c->outs[i] >> 2;
      if (!(c->outs[i] & 1) || c->block[t] != own) continue;
      counter[t]++;
      if (!(c->val[t] & 1) && (counter[t] & TOP)) {
        c->val[t] |= 1;
        c->work[wn++] = t;
      }
    }
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t x = m[k], nv = c->val[x] & 1u, ov = (uint32_t)c->val[x] >> 1;
    c->val[x] = (uint8_t)nv;
    if (nv == ov) continue;
    if (c->hook[x] & ~HAS_OUTPUTS) run_hook(c, c->hook[x], nv);
    feed_outputs(c, x, nv ? 1u : UINT32_MAX, own);
  }
}

static int propagate(dl_circuit *c)
{
  for (;;) {
    drain(c);
    if (c->failed) return 0;
    if (!c->n_dirty) return 1;
    uint32_t best = 0;
    for (uint32_t k = 1; k < c->n_dirty; k++)
      if (c->dirty_list[k] > c->dirty_list[best]) best = k;
    uint32_t b = c->dirty_list[best];
    c->dirty_list[best] = c->dirty_list[--c->n_dirty];
    c->dirty[b] = 0;
    recompute_block(c, b);
  }
}

static void set_input(dl_circuit *c, uint32_t g, uint32_t v)
{
  c->counter[g] = v ? TOP : TOP - 1;
  flip(c, g, v);
}

/* ---------------------------------------------------------------------
 * State machine */

int dl_circuit_set_state(dl_circuit *c, const uint64_t *state)
{
  assert(c && state);
  if (c->failed) return 0;
  for (uint32_t w = 0; w < c->words; w++) {
    uint64_t diff = c->cur[w] ^ state[w];
    while (diff) {
      uint32_t bit = (uint32_t)__builtin_ctzll(diff), g = c->fluent_gate[w * 64 + bit];
      if (g != NONE) set_input(c, g, (uint32_t)(state[w] >> bit) & 1);
      diff &= diff - 1;
    }
    c->cur[w] = state[w];
  }
  return propagate(c);
}

const uint64_t *dl_circuit_state(const dl_circuit *c) { return c->cur; }

uint32_t dl_circuit_legal(const dl_circuit *c, uint32_t r, const uint32_t **moves)
{
  assert(c && r < c->n_roles && moves);
  *moves = c->legal_list + c->role_start[r];
  return c->legal_n[r];
}

int dl_circuit_terminal(const dl_circuit *c) { return c->terminal_count > 0; }

int dl_circuit_goal(const dl_circuit *c, uint32_t r, int32_t *value)
{
  assert(c && r < c->n_roles && value);
  if (c->goal_count[r] != 1) {
    *value = -c->goal_count[r];
    return 0;
  }
  *value = c->goal_sum[r];
  return 1;
}

static int set_moves(dl_circuit *c, const uint32_t *joint)
{
  for (uint32_t r = 0; r < c->n_roles; r++) {
    uint32_t m = joint[r], old = c->cur_move[r];
    assert(m < c->n_moves && c->move_role[m] == r);
    if (m == old) continue;
    if (old != NONE && c->move_gate[old] != NONE) set_input(c, c->move_gate[old], 0);
    if (m != NONE && c->move_gate[m] != NONE) set_input(c, c->move_gate[m], 1);
    c->cur_move[r] = m;
  }
  return propagate(c);
}

int dl_circuit_next(dl_circuit *c, const uint32_t *joint, uint64_t *next)
{
  assert(c && joint && next);
  if (c->failed || !set_moves(c, joint)) return 0;
  memcpy(next, c->next_bits, c->words * sizeof *next);
  return 1;
}

void dl_circuit_initial(const dl_circuit *c, uint64_t *state)
{
  assert(c && state);
  memcpy(state, c->init, c->words * sizeof *state);
}

void dl_rng_seed(dl_rng *rng, uint64_t seed) { rng->s = seed; }

uint64_t dl_rng_next(dl_rng *rng)
{
  uint64_t z = (rng->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint32_t dl_rng_below(dl_rng *rng, uint32_t n)
{
  assert(n >= 1);
  return (uint32_t)(((dl_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

dl_playout dl_circuit_playout(dl_circuit *c, const uint64_t *start, dl_rng *rng, uint32_t max_depth,
                              int32_t *goals)
{
  assert(c && start && rng && goals);
  dl_playout p = { DL_PLAYOUT_OK, 0, 0 };
  if (!dl_circuit_set_state(c, start)) {
    p.status = DL_PLAYOUT_NO_MEMORY;
    return p;
  }
  while (c->terminal_count <= 0) {
    if (p.depth >= max_depth) {
      p.status = DL_PLAYOUT_TOO_DEEP;
      return p;
    }
    for (uint32_t r = 0; r < c->n_roles; r++) {
      uint32_t n = c->legal_n[r];
      if (!n) {
        p.status = DL_PLAYOUT_NO_LEGAL;
        p.role = r;
        return p;
      }
      c->joint[r] = c->legal_list[c->role_start[r] + (n == 1 ? 0 : dl_rng_below(rng, n))];
    }
    if (!set_moves(c, c->joint)) break;
    memcpy(c->scratch, c->next_bits, c->words * sizeof *c->scratch);
    if (!dl_circuit_set_state(c, c->scratch)) break;
    p.depth++;
  }
  if (c->failed) {
    p.status = DL_PLAYOUT_NO_MEMORY;
    return p;
  }
  for (uint32_t r = 0; r < c->n_roles; r++)
    if (!dl_circuit_goal(c, r, &goals[r])) {
      p.status = DL_PLAYOUT_BAD_GOAL;
      p.role = r;
      return p;
    }
  return p;
}

/* ---------------------------------------------------------------------
 * Accessors */

dl_circuit_stats dl_circuit_get_stats(const dl_circuit *c) { return c->stats; }
const dl_terms *dl_circuit_terms(const dl_circuit *c) { return c->terms; }
uint32_t dl_circuit_role_count(const dl_circuit *c) { return c->n_roles; }

dl_tid dl_circuit_role_term(const dl_circuit *c, uint32_t r)
{
  assert(r < c->n_roles);
  return c->role_term[r];
}

uint32_t dl_circuit_fluent_count(const dl_circuit *c) { return c->n_fluents; }

dl_tid dl_circuit_fluent_term(const dl_circuit *c, uint32_t f)
{
  assert(f < c->n_fluents);
  return c->fluent_term[f];
}

uint32_t dl_circuit_state_words(const dl_circuit *c) { return c->words; }
uint32_t dl_circuit_move_count(const dl_circuit *c) { return c->n_moves; }

uint32_t dl_circuit_move_role(const dl_circuit *c, uint32_t m)
{
  assert(m < c->n_moves);
  return c->move_role[m];
}

dl_tid dl_circuit_move_term(const dl_circuit *c, uint32_t m)
{
  assert(m < c->n_moves);
  return c->move_term[m];
}

void dl_circuit_destroy(dl_circuit *c)
{
  if (!c) return;
  void *p[] = { c->counter, c->out_start, c->outs, c->hook, c->kind, c->gate_atom, c->block, c->block_start,
                c->block_members, c->val, c->dirty, c->dirty_list, c->work, c->stack, c->role_term,
                c->fluent_term, c->fluent_gate, c->init, c->cur, c->next_bits, c->scratch, c->move_role,
                c->move_gate, c->role_start, c->move_term, c->legal_list, c->legal_n, c->legal_pos,
                c->cur_move, c->joint, c->goal_role, c->goal_value, c->goal_count, c->goal_sum };
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
  free(c);
}

/* ---------------------------------------------------------------------
 * Compiling */

/* An open-addressing map from 64-bit keys to ids. */
typedef struct idmap {
  uint64_t *keys;
  uint32_t *vals;
  size_t mask;
} idmap;

static int idmap_init(idmap *m, size_t n)
{
  size_t cap = 16;
  while (cap < 2 * n + 16) cap *= 2;
  m->keys = malloc(cap * sizeof *m->keys);
  m->vals = malloc(cap * sizeof *m->vals);
  m->mask = cap - 1;
  if (!m->keys || !m->vals) return 0;
  memset(m->vals, 0xff, cap * sizeof *m->vals);
  return 1;
}

static void idmap_free(idmap *m)
{
  free(m->keys);
  free(m->vals);
}

static size_t idmap_slot(const idmap *m, uint64_t key)
{
  size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & m->mask;
  while (m->vals[h] != NONE && m->keys[h] != key) h = (h + 1) & m->mask;
  return h;
}

static uint32_t idmap_get(const idmap *m, uint64_t key) { return m->vals[idmap_slot(m, key)]; }

/* The id of key, adding it as *next (then incremented) when new.  The map
 * must have room (sized for every key at init). */
static uint32_t idmap_add(idmap *m, uint64_t key, uint32_t *next)
{
  size_t h = idmap_slot(m, key);
  if (m->vals[h] == NONE) {
    m->keys[h] = key;
    m->vals[h] = (*next)++;
  }
  return m->vals[h];
}

/* What the compiler keeps while building. */
typedef struct build {
  dl_circuit *c;
  const dl_ground *g;
  dl_diag *diag;
  uint32_t n_atoms, n_rules;
  uint8_t *has_fact;
  uint32_t *n_rules_of;    /* non-fact rules per head atom */
  uint32_t *atom_gate;
  uint32_t *does_role;             /* per atom or phantom: the role a joint move sets it for, or NONE */
  idmap move_map;                  /* (role, action) of each legal atom -> its index */
  uint32_t *legal_does;            /* per index: the does atom or phantom */
  uint32_t n_phantoms, any_base;   /* "any of" gate k is literal any_base + 1 + k */
  uint32_t *phantom_gate;
  uint32_t *umove_start, *umoves;  /* per role: the does atoms a joint move can set */
  uint32_t *complement;            /* room for a role's moves */
  int32_t *set;                    /* room for a role's moves, as literals */
  uint32_t *of_role;               /* room for a role's moves */
  idmap any_map;                   /* "any of these moves" gates: hash of the set -> id */
  uint32_t n_any, cap_any, cap_any_atoms;
  uint32_t *any_start, *any_gate;
  int32_t *any_atoms;              /* the literals of each "any of" gate */
  uint32_t *src, *dst;     /* edges */
  uint32_t n_edges, cap_edges;
  uint32_t cap_gates;
} build;

static int oom(build *b)
{
  dl_diag_report(b->diag, DL_ERROR, NULL, 0, "out of memory compiling the circuit");
  return 0;
}

static dl_tid arg(const dl_terms *t, dl_tid atom, uint32_t i)
{
  return dl_terms_arity(t, atom) > i ? dl_terms_args(t, atom)[i] : DL_NO_TERM;
}

static char *term_text(const dl_terms *t, dl_tid x)
{
  size_t len;
  const char *s = dl_terms_name(t, dl_terms_functor(t, x), &len);
  char *z = malloc(len + 1);
  if (z) {
    memcpy(z, s, len);
    z[len] = 0;
  }
  return z;
}

static void report_atom(build *b, uint32_t atom, const char *what)
{
  const dl_terms *t = b->c->terms;
  dl_tid x = dl_ground_atom_term(b->g, atom);
  char *name = term_text(t, x);
  dl_diag_report(b->diag, DL_ERROR, NULL, 0, "%s (a %s/%u atom, id %u of the ground game)", what,
                 name ? name : "?", dl_terms_arity(t, x), atom);
  free(name);
}

static int scan_rules(build *b)
{
  b->has_fact = calloc(b->n_atoms + 1, 1);
  b->n_rules_of = calloc(b->n_atoms + 1, sizeof *b->n_rules_of);
  if (!b->has_fact || !b->n_rules_of) return oom(b);
  for (uint32_t i = 0; i < b->n_rules; i++) {
    const int32_t *body;
    uint32_t n;
    int32_t h = dl_ground_rule(b->g, i, &body, &n);
    if (n == 0) b->has_fact[h] = 1;
    else b->n_rules_of[h]++;
  }
  return 1;
}

typedef struct role_fact {
  uint32_t origin, atom;
} role_fact;

static int role_fact_cmp(const void *x, const void *y)
{
  const role_fact *a = x, *b = y;
  if (a->origin != b->origin) return a->origin < b->origin ? -1 : 1;
  return a->atom < b->atom ? -1 : a->atom > b->atom;
}

static int collect_roles(build *b)
{
  dl_circuit *c = b->c;
  role_fact *rf = malloc((b->n_rules + 1) * sizeof *rf);
  if (!rf) return oom(b);
  uint32_t n = 0;
  for (uint32_t i = 0; i < b->n_rules; i++) {
    const int32_t *body;
    uint32_t len;
    int32_t h = dl_ground_rule(b->g, i, &body, &len);
    if (len == 0 && dl_ground_atom_role(b->g, (uint32_t)h) == DL_ATOM_ROLE)
      rf[n++] = (role_fact){ dl_ground_rule_origin(b->g, i), (uint32_t)h };
  }
  qsort(rf, n, sizeof *rf, role_fact_cmp);  /* stateless comparator */
  c->role_term = malloc((n + 1) * sizeof *c->role_term);
  if (!c->role_term) {
    free(rf);
    return oom(b);
  }
  for (uint32_t i = 0; i < n; i++) {
    dl_tid r = arg(c->terms, dl_ground_atom_term(b->g, rf[i].atom), 0);
    int dup = 0;
    for (uint32_t k = 0; k < c->n_roles; k++) dup |= c->role_term[k] == r;
    if (!dup) c->role_term[c->n_roles++] = r;
  }
  free(rf);
  if (c->n_roles == 0) {
    dl_diag_report(b->diag, DL_ERROR, NULL, 0, "the game has no role");
    return 0;
  }
  return 1;
}

static uint32_t role_index(const dl_circuit *c, dl_tid r)
{
  for (uint32_t k = 0; k < c->n_roles; k++)
    if (c->role_term[k] == r) return k;
  return NONE;
}

static int alloc_state(dl_circuit *c)
{
  c->words = (c->n_fluents + 63) / 64;
  size_t n = c->words ? c->words : 1;
  c->init = calloc(n, 8);
  c->cur = calloc(n, 8);
  c->next_bits = calloc(n, 8);
  c->scratch = calloc(n, 8);
  return c->init && c->cur && c->next_bits && c->scratch;
}

static int collect_fluents(build *b)
{
  dl_circuit *c = b->c;
  idmap m;
  if (!idmap_init(&m, b->n_atoms)) {
    idmap_free(&m);
    return oom(b);
  }
  c->fluent_term = malloc((b->n_atoms + 1) * sizeof *c->fluent_term);
  c->fluent_gate = malloc((b->n_atoms + 1) * sizeof *c->fluent_gate);
  if (!c->fluent_term || !c->fluent_gate) {
    idmap_free(&m);
    return oom(b);
  }
  for (uint32_t a = 1; a <= b->n_atoms; a++) {
    dl_atom_role r = dl_ground_atom_role(b->g, a);
    if (r != DL_ATOM_FLUENT && r != DL_ATOM_NEXT && r != DL_ATOM_INIT) continue;
    dl_tid t = arg(c->terms, dl_ground_atom_term(b->g, a), 0);
    uint32_t before = c->n_fluents, f = idmap_add(&m, t, &c->n_fluents);
    if (f == before) {
      c->fluent_term[f] = t;
      c->fluent_gate[f] = NONE;
    }
  }
  int ok = alloc_state(c);
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    dl_atom_role r = dl_ground_atom_role(b->g, a);
    if (r != DL_ATOM_FLUENT && r != DL_ATOM_NEXT && r != DL_ATOM_INIT) continue;
    uint32_t f = idmap_get(&m, arg(c->terms, dl_ground_atom_term(b->g, a), 0));
    if (r == DL_ATOM_FLUENT) c->fluent_gate[f] = b->atom_gate[a];
    else if (r == DL_ATOM_NEXT) c->hook[b->atom_gate[a]] = (uint32_t)HOOK_NEXT << 28 | f;
    else if (b->has_fact[a]) c->init[f >> 6] |= (uint64_t)1 << (f & 63);
  }
  idmap_free(&m);
  return ok ? 1 : oom(b);
}

static int collect_moves(build *b)
{
  dl_circuit *c = b->c;
  uint32_t nr = c->n_roles;
  c->role_start = calloc(nr + 1, sizeof *c->role_start);
  c->legal_n = calloc(nr, sizeof *c->legal_n);
  c->cur_move = malloc(nr * sizeof *c->cur_move);
  c->joint = malloc(nr * sizeof *c->joint);
  if (!c->role_start || !c->legal_n || !c->cur_move || !c->joint) return oom(b);
  memset(c->cur_move, 0xff, nr * sizeof *c->cur_move);
  for (uint32_t a = 1; a <= b->n_atoms; a++) {
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_LEGAL) continue;
    uint32_t r = role_index(c, arg(c->terms, dl_ground_atom_term(b->g, a), 0));
    if (r == NONE) continue;  /* legal(x,a) of an x that is no role: no player asks */
    c->role_start[r + 1]++;
    c->n_moves++;
  }
  for (uint32_t r = 0; r < nr; r++) c->role_start[r + 1] += c->role_start[r];
  size_t n = c->n_moves + 1;
  c->move_role = malloc(n * sizeof *c->move_role);
  c->move_term = malloc(n * sizeof *c->move_term);
  c->move_gate = malloc(n * sizeof *c->move_gate);
  c->legal_list = malloc(n * sizeof *c->legal_list);
  c->legal_pos = malloc(n * sizeof *c->legal_pos);
  uint32_t *fill = calloc(nr, sizeof *fill);
  int ok = c->move_role && c->move_term && c->move_gate && c->legal_list && c->legal_pos && fill;
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_LEGAL) continue;
    dl_tid x = dl_ground_atom_term(b->g, a), act = arg(c->terms, x, 1);
    uint32_t r = role_index(c, arg(c->terms, x, 0));
    if (r == NONE) continue;
    uint32_t id = c->role_start[r] + fill[r]++;
    c->move_role[id] = r;
    c->move_term[id] = act;
    c->move_gate[id] = NONE;
    c->hook[b->atom_gate[a]] = (uint32_t)HOOK_LEGAL << 28 | id;
  }
  for (uint32_t id = 0; ok && id < c->n_moves; id++) {
    uint32_t k = idmap_get(&b->move_map, (uint64_t)c->move_role[id] << 32 | c->move_term[id]);
    uint32_t a = b->legal_does[k];
    c->move_gate[id] = a <= b->n_atoms ? b->atom_gate[a] : b->phantom_gate[a - b->n_atoms - 1];
  }
  free(fill);
  return ok ? 1 : oom(b);
}

static int parse_goal_value(const dl_terms *t, dl_tid v, int32_t *out)
{
  if (v == DL_NO_TERM || dl_terms_arity(t, v) != 0) return 0;
  size_t len;
  const char *s = dl_terms_name(t, dl_terms_functor(t, v), &len);
  if (len == 0 || len > 9) return 0;
  int32_t x = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    x = x * 10 + (s[i] - '0');
  }
  *out = x;
  return 1;
}

static int collect_goals(build *b)
{
  dl_circuit *c = b->c;
  uint32_t n = 0;
  for (uint32_t a = 1; a <= b->n_atoms; a++) n += dl_ground_atom_role(b->g, a) == DL_ATOM_GOAL;
  c->goal_role = malloc((n + 1) * sizeof *c->goal_role);
  c->goal_value = malloc((n + 1) * sizeof *c->goal_value);
  c->goal_count = calloc(c->n_roles, sizeof *c->goal_count);
  c->goal_sum = calloc(c->n_roles, sizeof *c->goal_sum);
  if (!c->goal_role || !c->goal_value || !c->goal_count || !c->goal_sum) return oom(b);
  n = 0;
  for (uint32_t a = 1; a <= b->n_atoms; a++) {
    dl_atom_role kind = dl_ground_atom_role(b->g, a);
    if (kind == DL_ATOM_TERMINAL) c->hook[b->atom_gate[a]] = (uint32_t)HOOK_TERMINAL << 28;
    if (kind != DL_ATOM_GOAL) continue;
    dl_tid x = dl_ground_atom_term(b->g, a);
    uint32_t r = role_index(c, arg(c->terms, x, 0));
    if (r == NONE) continue;  /* a goal of an x that is no role: no player has it */
    if (!parse_goal_value(c->terms, arg(c->terms, x, 1), &c->goal_value[n])) {
      report_atom(b, a, "a goal value that is not an integer from 0 to 999999999");
      return 0;
    }
    c->goal_role[n] = r;
    c->hook[b->atom_gate[a]] = (uint32_t)HOOK_GOAL << 28 | n;
    n++;
  }
  return 1;
}

static uint32_t new_gate(build *b, uint8_t kind, uint32_t thr, uint32_t atom)
{
  dl_circuit *c = b->c;
  uint32_t id = c->n_gates++;
  assert(id < b->cap_gates);
  c->kind[id] = kind;
  c->counter[id] = thr;
  c->gate_atom[id] = atom;
  return id;
}

/* A wire from gate `from` to gate `to`, negated when neg: a negated input
 * counts as true while its source is false, as every source is before
 * settle(). */
static int add_edge(build *b, uint32_t from, uint32_t to, uint32_t neg)
{
  if (b->n_edges == b->cap_edges) {
    size_t cap = (size_t)b->cap_edges * 2 + 1024;
    if (cap > (size_t)INT32_MAX) return 0;
    uint32_t *s = realloc(b->src, cap * sizeof *s);
    if (s) b->src = s;
    uint32_t *d = realloc(b->dst, cap * sizeof *d);
    if (d) b->dst = d;
    if (!s || !d) return 0;
    b->cap_edges = (uint32_t)cap;
  }
  b->src[b->n_edges] = from;
  b->dst[b->n_edges++] = to << 1 | neg;
  b->c->counter[to] += neg;
  return 1;
}

/* Upper bound of gates: an input or derived gate per atom, an AND per rule. */
static int alloc_gates(build *b)
{
  dl_circuit *c = b->c;
  uint64_t cap = 2 * (uint64_t)b->n_atoms + 2 * (uint64_t)b->n_rules + 1;
  if (cap >= (1u << 28)) {
    dl_diag_report(b->diag, DL_ERROR, NULL, 0, "the ground game is too large for a circuit");
    return 0;
  }
  b->cap_gates = (uint32_t)cap;
  c->counter = malloc(cap * sizeof *c->counter);
  c->kind = malloc(cap);
  c->gate_atom = malloc(cap * sizeof *c->gate_atom);
  c->hook = calloc(cap, sizeof *c->hook);
  b->atom_gate = malloc((b->n_atoms + 1) * sizeof *b->atom_gate);
  if (!c->counter || !c->kind || !c->gate_atom || !c->hook || !b->atom_gate) return oom(b);
  return 1;
}

/* The gate of each atom: an input, a constant, the AND of its only rule, or
 * an OR of its rules. */
static void atom_gates(build *b, const uint32_t *only_rule_len)
{
  for (uint32_t a = 1; a <= b->n_atoms; a++) {
    dl_atom_role r = dl_ground_atom_role(b->g, a);
    if (r == DL_ATOM_FLUENT || r == DL_ATOM_MOVE) b->atom_gate[a] = new_gate(b, KIND_INPUT, TOP - 1, a);
    else if (b->has_fact[a]) b->atom_gate[a] = new_gate(b, KIND_CONST, TOP, a);
    else if (b->n_rules_of[a] == 1 && only_rule_len[a] >= 2)
      b->atom_gate[a] = new_gate(b, KIND_AND, TOP - only_rule_len[a], a);
    else b->atom_gate[a] = new_gate(b, KIND_OR, TOP - 1, a);
  }
}

/* Rules as they are wired: a literal is an atom literal (+a, -a) or, beyond
 * the atoms, an "any of these moves" gate (+(n_atoms + 1 + k)), negated
 * when it stands for "none of the other moves of the role". */
typedef struct rule_set {
  uint32_t n, cap, n_lits, cap_lits;
  uint32_t *head, *start;  /* start[n] is the end of the last rule */
  int32_t *lits;
} rule_set;

static void rule_set_free(rule_set *r)
{
  free(r->head);
  free(r->start);
  free(r->lits);
}

static int rule_set_add(rule_set *r, uint32_t head, const int32_t *lits, uint32_t n)
{
  if (r->n + 1 >= r->cap) {
    uint32_t cap = r->cap * 2 + 64;
    uint32_t *h = realloc(r->head, cap * sizeof *h);
    if (h) r->head = h;
    uint32_t *s = realloc(r->start, (cap + 1) * sizeof *s);
    if (s) r->start = s;
    if (!h || !s) return 0;
    if (r->n == 0) r->start[0] = 0;
    r->cap = cap;
  }
  if (r->n_lits + n > r->cap_lits) {
    uint64_t cap = (uint64_t)r->cap_lits * 2 + n + 256;
    if (cap > INT32_MAX) return 0;
    int32_t *l = realloc(r->lits, cap * sizeof *l);
    if (!l) return 0;
    r->lits = l;
    r->cap_lits = (uint32_t)cap;
  }
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
    uint32_t r = role_index(c, arg(t, x, 0)), before = n_legal;
    if (r != NONE && idmap_add(&b->move_map, (uint64_t)r << 32 | arg(t, x, 1), &n_legal) == before)
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
    uint32_t r = role_index(c, arg(t, x, 0));
    uint32_t id = r == NONE ? NONE : idmap_get(&b->move_map, (uint64_t)r << 32 | arg(t, x, 1));
    if (id != NONE) {
      b->does_role[a] = r;
      b->legal_does[id] = a;
    }
  }
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {  /* phantoms, in the order of the legal atoms */
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_LEGAL) continue;
    dl_tid x = dl_ground_atom_term(b->g, a);
    uint32_t r = role_index(c, arg(t, x, 0));
    uint32_t id = r == NONE ? NONE : idmap_get(&b->move_map, (uint64_t)r << 32 | arg(t, x, 1));
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
  return ok ? 1 : oom(b);
}

static int is_settable(const build *b, int32_t lit)
{
  uint32_t a = (uint32_t)(lit > 0 ? lit : -lit);
  return dl_ground_atom_role(b->g, a) == DL_ATOM_MOVE && b->does_role[a] != NONE;
}

/* The ground rules without what a joint move never sets: a rule needing
 * such a does atom goes, a negative literal of one disappears (a rule left
 * without literals makes its head a fact). */
static int clean_rules(build *b, rule_set *out)
{
  int32_t *tmp = NULL;
  uint32_t cap = 0;
  for (uint32_t i = 0; i < b->n_rules; i++) {
    const int32_t *body;
    uint32_t n, k = 0, drop = 0;
    uint32_t h = (uint32_t)dl_ground_rule(b->g, i, &body, &n);
    if (n == 0 || b->has_fact[h]) continue;
    if (n > cap) {
      free(tmp);
      cap = n * 2;
      if (!(tmp = malloc(cap * sizeof *tmp))) return oom(b);
    }
    for (uint32_t j = 0; j < n; j++) {
      uint32_t a = (uint32_t)(body[j] > 0 ? body[j] : -body[j]);
      if (dl_ground_atom_role(b->g, a) == DL_ATOM_MOVE && b->does_role[a] == NONE) drop |= body[j] > 0;
      else tmp[k++] = body[j];
    }
    if (drop) continue;
    if (k == 0) b->has_fact[h] = 1;
    else if (!rule_set_add(out, h, tmp, k)) {
      free(tmp);
      return oom(b);
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

static int cmp_i32(const void *x, const void *y, void *ctx)
{
  (void)ctx;
  int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
  return (a > b) - (a < b);
}

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

/* The id of the "any of" gate (an OR) of the sorted set s[0..n) of
 * literals (does atoms, or other "any of" gates, maybe negated). */
static int any_of(build *b, const int32_t *s, uint32_t n, uint32_t *id)
{
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t k = 0; k < n; k++) h = (h ^ (uint32_t)s[k]) * 1099511628211ULL;
  h &= ~(uint64_t)0 >> 1;
  uint32_t found = idmap_get(&b->any_map, h);
  if (found != NONE && b->any_start[found + 1] - b->any_start[found] == n &&
      memcmp(b->any_atoms + b->any_start[found], s, n * sizeof *s) == 0) {
    *id = found;
    return 1;
  }
  if (b->n_any + 2 > b->cap_any) {
    uint32_t cap = b->cap_any * 2 + 64;
    uint32_t *st = realloc(b->any_start, (cap + 1) * sizeof *st);
    if (!st) return 0;
    b->any_start = st;
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
  *id = b->n_any++;
  if (found == NONE && b->n_any < b->any_map.mask / 2) {
    uint32_t next = *id;
    idmap_add(&b->any_map, h, &next);
  }
  return 1;
}

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
  dl_sort(per, np, sizeof *per, cmp_i32, NULL);
  uint32_t id;
  if (!any_of(b, per, np, &id)) return 0;
  *lit = (int32_t)(b->any_base + 1 + id);
  return 1;
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
      if (!rule_set_add(out, in->head[i], in->lits + s, e - s)) return 0;
      continue;
    }
    cand[nc] = (candidate){ i, (uint32_t)in->lits[at], nr, e - s - 1 };
    for (uint32_t j = s; j < e; j++)
      if (j != at) rest[nr++] = in->lits[j];
    dl_sort(rest + cand[nc].rest_start, cand[nc].rest_len, sizeof *rest, cmp_i32, NULL);
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
    else if (!rule_set_add(out, in->head[cand[k].rule], lits, len)) return 0;
    k = e;
  }
  return 1;
}

/* Factors the rules of every head (factor_head). */
static int factor_rules(build *b, const rule_set *in, rule_set *out)
{
  uint32_t *start = calloc(b->n_atoms + 2, sizeof *start), *idx = malloc((in->n + 1) * sizeof *idx);
  uint32_t longest = 1;
  for (uint32_t i = 0; i < in->n; i++)
    if (in->start[i + 1] - in->start[i] > longest) longest = in->start[i + 1] - in->start[i];
  candidate *cand = malloc((in->n + 1) * sizeof *cand);
  int32_t *rest = malloc(((size_t)in->n_lits + 1) * sizeof *rest), *lits = malloc((longest + 1) * sizeof *lits);
  uint32_t *moves = malloc((in->n + 1) * sizeof *moves);
  int ok = start && idx && cand && rest && lits && moves && idmap_init(&b->any_map, in->n);
  if (ok) {
    for (uint32_t i = 0; i < in->n; i++) start[in->head[i] + 1]++;
    for (uint32_t a = 0; a <= b->n_atoms; a++) start[a + 1] += start[a];
    uint32_t *fill = malloc((b->n_atoms + 1) * sizeof *fill);
    ok = fill != NULL;
    if (ok) {
      memcpy(fill, start, (b->n_atoms + 1) * sizeof *fill);
      for (uint32_t i = 0; i < in->n; i++) idx[fill[in->head[i]]++] = i;
    }
    free(fill);
  }
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    uint32_t n = start[a + 1] - start[a];
    if (n && !b->has_fact[a]) ok = factor_head(b, in, idx + start[a], n, out, cand, rest, moves, lits);
  }
  free(start), free(idx), free(cand), free(rest), free(lits), free(moves);
  return ok ? 1 : oom(b);
}

static uint32_t lit_gate(const build *b, int32_t lit)
{
  uint32_t a = (uint32_t)(lit > 0 ? lit : -lit);
  if (a <= b->n_atoms) return b->atom_gate[a];
  return a <= b->any_base ? b->phantom_gate[a - b->n_atoms - 1] : b->any_gate[a - b->any_base - 1];
}

static int wire_rules(build *b)
{
  rule_set r1 = { 0 }, r2 = { 0 };
  if (!settable_moves(b) || !clean_rules(b, &r1) || !factor_rules(b, &r1, &r2)) {
    rule_set_free(&r1);
    rule_set_free(&r2);
    return 0;
  }
  rule_set_free(&r1);
  uint32_t *only_len = calloc(b->n_atoms + 1, sizeof *only_len);
  b->any_gate = malloc(((size_t)b->n_any + 1) * sizeof *b->any_gate);
  if (!only_len || !b->any_gate) {
    free(only_len);
    rule_set_free(&r2);
    return oom(b);
  }
  memset(b->n_rules_of, 0, (b->n_atoms + 1) * sizeof *b->n_rules_of);
  for (uint32_t i = 0; i < r2.n; i++) {
    b->n_rules_of[r2.head[i]]++;
    only_len[r2.head[i]] = r2.start[i + 1] - r2.start[i];
  }
  atom_gates(b, only_len);
  free(only_len);
  int ok = (b->phantom_gate = malloc(((size_t)b->n_phantoms + 1) * sizeof *b->phantom_gate)) != NULL;
  for (uint32_t p = 0; ok && p < b->n_phantoms; p++) b->phantom_gate[p] = new_gate(b, KIND_INPUT, TOP - 1, 0);
  for (uint32_t k = 0; ok && k < b->n_any; k++) {
    b->any_gate[k] = new_gate(b, KIND_OR, TOP - 1, 0);
    for (uint32_t j = b->any_start[k]; ok && j < b->any_start[k + 1]; j++)
      ok = add_edge(b, lit_gate(b, b->any_atoms[j]), b->any_gate[k], b->any_atoms[j] < 0);
  }
  for (uint32_t i = 0; ok && i < r2.n; i++) {
    uint32_t h = r2.head[i], n = r2.start[i + 1] - r2.start[i];
    const int32_t *body = r2.lits + r2.start[i];
    if (b->has_fact[h]) continue;
    uint32_t target = b->atom_gate[h];
    if (n >= 2 && b->n_rules_of[h] > 1) {
      target = new_gate(b, KIND_AND, TOP - n, 0);
      ok = add_edge(b, target, b->atom_gate[h], 0);
    }
    for (uint32_t k = 0; ok && k < n; k++) ok = add_edge(b, lit_gate(b, body[k]), target, body[k] < 0);
  }
  rule_set_free(&r2);
  return ok ? 1 : oom(b);
}

/* Lays the edges out as a list of outputs per gate. */
static int layout_edges(build *b)
{
  dl_circuit *c = b->c;
  c->n_edges = b->n_edges;
  c->out_start = calloc((size_t)c->n_gates + 1, sizeof *c->out_start);
  c->outs = malloc(((size_t)b->n_edges + 1) * sizeof *c->outs);
  if (!c->out_start || !c->outs) return oom(b);
  for (uint32_t e = 0; e < b->n_edges; e++) c->out_start[b->src[e] + 1]++;
  for (uint32_t g = 0; g < c->n_gates; g++) c->out_start[g + 1] += c->out_start[g];
  uint32_t *fill = malloc(((size_t)c->n_gates + 1) * sizeof *fill);
  if (!fill) return oom(b);
  memcpy(fill, c->out_start, c->n_gates * sizeof *fill);
  for (uint32_t e = 0; e < b->n_edges; e++) c->outs[fill[b->src[e]]++] = b->dst[e];
  free(fill);
  return 1;
}

/* Tarjan's strongly connected components, iteratively; a component with a
 * cycle becomes a block.  Blocks are numbered in the order Tarjan finds
 * them (sinks first). */
typedef struct tarjan {
  uint32_t *index, *low, *pos, *tstack, *cstack;
  uint8_t *on;
  uint32_t next_index, tn, cn;
} tarjan;

static int self_loop(const dl_circuit *c, uint32_t v)
{
  for (uint32_t i = c->out_start[v]; i < c->out_start[v + 1]; i++)
    if (c->outs[i] >> 1 == v) return 1;
  return 0;
}

static void close_component(dl_circuit *c, tarjan *t, uint32_t v)
{
  uint32_t start = t->tn;
  do start--;
  while (t->tstack[start] != v);
  uint32_t size = t->tn - start;
  if (size > 1 || self_loop(c, v)) {
    c->n_blocks++;
    for (uint32_t k = start; k < t->tn; k++) c->block[t->tstack[k]] = c->n_blocks;
  }
  for (uint32_t k = start; k < t->tn; k++) t->on[t->tstack[k]] = 0;
  t->tn = start;
}

static void strong_components(dl_circuit *c, tarjan *t)
{
  for (uint32_t s = 0; s < c->n_gates; s++) {
    if (t->index[s] != NONE) continue;
    t->cstack[t->cn++] = s;
    t->index[s] = t->low[s] = t->next_index++;
    t->tstack[t->tn++] = s;
    t->on[s] = 1;
    while (t->cn) {
      uint32_t v = t->cstack[t->cn - 1];
      if (t->pos[v] < c->out_start[v + 1]) {
        uint32_t w = c->outs[t->pos[v]++] >> 1;
        if (t->index[w] == NONE) {
          t->index[w] = t->low[w] = t->next_index++;
          t->tstack[t->tn++] = w;
          t->on[w] = 1;
          t->cstack[t->cn++] = w;
        } else if (t->on[w] && t->index[w] < t->low[v]) t->low[v] = t->index[w];
        continue;
      }
      t->cn--;
      if (t->cn && t->low[v] < t->low[t->cstack[t->cn - 1]]) t->low[t->cstack[t->cn - 1]] = t->low[v];
      if (t->low[v] == t->index[v]) close_component(c, t, v);
    }
  }
}

static int find_blocks(build *b)
{
  dl_circuit *c = b->c;
  size_t n = (size_t)c->n_gates + 1;
  tarjan t = { malloc(n * 4), malloc(n * 4), malloc(n * 4), malloc(n * 4), malloc(n * 4), calloc(n, 1), 0, 0, 0 };
  c->block = calloc(n, sizeof *c->block);
  int ok = t.index && t.low && t.pos && t.tstack && t.cstack && t.on && c->block;
  if (ok) {
    memset(t.index, 0xff, n * 4);
    memcpy(t.pos, c->out_start, n * 4);
    strong_components(c, &t);
  }
  free(t.index), free(t.low), free(t.pos), free(t.tstack), free(t.cstack), free(t.on);
  return ok ? 1 : oom(b);
}

static int block_lists(build *b)
{
  dl_circuit *c = b->c;
  c->block_start = calloc((size_t)c->n_blocks + 1, sizeof *c->block_start);
  c->dirty = calloc((size_t)c->n_blocks + 1, 1);
  c->dirty_list = malloc(((size_t)c->n_blocks + 1) * sizeof *c->dirty_list);
  c->val = calloc((size_t)c->n_gates + 1, 1);
  if (!c->block_start || !c->dirty || !c->dirty_list || !c->val) return oom(b);
  uint32_t members = 0;
  for (uint32_t g = 0; g < c->n_gates; g++) {
    if (!c->block[g]) continue;
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++)
      if ((c->outs[i] & 1) && c->block[c->outs[i] >> 1] == c->block[g]) {
        report_atom(b, c->gate_atom[g], "recursion through negation in the ground game, at the negation of");
        return 0;
      }
    c->block_start[c->block[g]]++;
    members++;
  }
  for (uint32_t k = 0; k < c->n_blocks; k++) c->block_start[k + 1] += c->block_start[k];
  c->block_members = malloc(((size_t)members + 1) * sizeof *c->block_members);
  c->work = malloc(((size_t)members + 1) * sizeof *c->work);
  uint32_t *fill = malloc(((size_t)c->n_blocks + 1) * sizeof *fill);
  if (!c->block_members || !c->work || !fill) {
    free(fill);
    return oom(b);
  }
  memcpy(fill, c->block_start, ((size_t)c->n_blocks + 1) * sizeof *fill);
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (c->block[g]) c->block_members[fill[c->block[g] - 1]++] = g;
  free(fill);
  for (uint32_t e = 0; e < c->n_edges; e++) c->outs[e] = c->outs[e] << 1 | (c->block[c->outs[e] >> 1] != 0);
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (c->out_start[g + 1] > c->out_start[g]) c->hook[g] |= HAS_OUTPUTS;
  c->stats.cyclic_blocks = c->n_blocks;
  c->stats.cyclic_gates = members;
  return 1;
}

/* Brings every gate to its value with all inputs false (constants and NOTs
 * true), then sets the initial state. */
static int settle(build *b)
{
  dl_circuit *c = b->c;
  c->cap = (size_t)c->n_gates + c->n_edges + 64;
  c->stack = malloc(c->cap * sizeof *c->stack);
  if (!c->stack) return oom(b);
  for (uint32_t g = 0; g < c->n_gates; g++)
    if (!c->block[g] && (c->counter[g] & TOP)) flip(c, g, 1);
  for (uint32_t k = 0; k < c->n_blocks; k++) mark_dirty(c, k);
  if (!propagate(c) || !dl_circuit_set_state(c, c->init)) return oom(b);
  return 1;
}

static void count_stats(dl_circuit *c)
{
  dl_circuit_stats *s = &c->stats;
  s->gates = c->n_gates;
  s->edges = c->n_edges;
  for (uint32_t g = 0; g < c->n_gates; g++) {
    s->and_gates += c->kind[g] == KIND_AND;
    s->or_gates += c->kind[g] == KIND_OR;
    s->inputs += c->kind[g] == KIND_INPUT;
  }
  for (uint32_t e = 0; e < c->n_edges; e++) s->negated += (c->outs[e] >> 1) & 1;
  s->fluents = c->n_fluents;
  s->moves = c->n_moves;
  s->roles = c->n_roles;
  s->state_words = c->words;
  size_t g = c->n_gates, w = c->words ? c->words : 1;
  s->bytes = sizeof *c + g * (4 + 4 + 4 + 1 + 4 + 4 + 1) + (size_t)c->n_edges * 4 + c->cap * 4 +
             (size_t)c->n_fluents * 8 + w * 32 + (size_t)c->n_moves * 20 + s->cyclic_gates * 8;
}

static void free_build(build *b)
{
  free(b->has_fact);
  free(b->n_rules_of);
  free(b->atom_gate);
  free(b->does_role);
  idmap_free(&b->move_map);
  free(b->legal_does);
  free(b->phantom_gate);
  free(b->umove_start);
  free(b->umoves);
  free(b->complement);
  free(b->set);
  free(b->of_role);
  idmap_free(&b->any_map);
  free(b->any_start);
  free(b->any_atoms);
  free(b->any_gate);
  free(b->src);
  free(b->dst);
}

dl_circuit *dl_circuit_create(const dl_ground *g, dl_diag *diag)
{
  assert(g && diag);
  dl_circuit *c = calloc(1, sizeof *c);
  if (!c) {
    dl_diag_report(diag, DL_ERROR, NULL, 0, "out of memory compiling the circuit");
    return NULL;
  }
  c->g = g;
  c->terms = dl_ground_terms(g);
  build b;
  memset(&b, 0, sizeof b);
  b.c = c;
  b.g = g;
  b.diag = diag;
  b.n_atoms = dl_ground_atom_count(g);
  b.n_rules = dl_ground_rule_count(g);
  int ok = scan_rules(&b) && collect_roles(&b) && alloc_gates(&b) && wire_rules(&b) && collect_fluents(&b) &&
           collect_moves(&b) && collect_goals(&b) && layout_edges(&b) && find_blocks(&b) && block_lists(&b);
  if (ok) count_stats(c);
  ok = ok && settle(&b);
  free_build(&b);
  if (!ok) {
    dl_circuit_destroy(c);
    return NULL;
  }
  return c;
}
