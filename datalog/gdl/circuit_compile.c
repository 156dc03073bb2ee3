/* circuit_compile.c: compiling a ground game into a circuit of counter gates
 * (see circuit.h); circuit.c evaluates it. */
#include "datalog/gdl/circuit_impl.h"

#include "datalog/base/sort.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

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
  int32_t *role_lit;               /* per role: the literal its gated legal atoms share, or 0 */
  uint8_t *gated;                  /* per atom: a gated legal atom */
  uint32_t *umove_start, *umoves;  /* per role: the does atoms a joint move can set */
  uint32_t *complement;            /* room for a role's moves */
  int32_t *set;                    /* room for a role's moves, as literals */
  uint32_t *of_role;               /* room for a role's moves */
  idmap any_map;                   /* "any of these moves" gates: hash of the set -> id */
  uint32_t n_any, cap_any, cap_any_atoms;
  uint32_t *any_start, *any_gate;
  int32_t *any_atoms;              /* the literals of each "any of" gate */
  uint8_t *any_kind;               /* 0: OR, 1: AND, 2: at least n_roles of */
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
  c->legal_ng = calloc(nr, sizeof *c->legal_ng);
  c->role_gate = malloc(nr * sizeof *c->role_gate);
  c->role_gate_neg = calloc(nr, 1);
  if (!c->legal_ng || !c->role_gate || !c->role_gate_neg) return oom(b);
  for (uint32_t r = 0; r < nr; r++) {
    c->role_gate[r] = b->role_lit[r] ? b->atom_gate[b->role_lit[r] > 0 ? b->role_lit[r] : -b->role_lit[r]] : NONE;
    c->role_gate_neg[r] = b->role_lit[r] < 0;
  }
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
  c->legal_out = malloc(n * sizeof *c->legal_out);
  c->move_gated = calloc(n, 1);
  uint32_t *fill = calloc(nr, sizeof *fill);
  int ok = c->move_role && c->move_term && c->move_gate && c->legal_list && c->legal_pos && c->legal_out &&
           c->move_gated && fill;
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_LEGAL) continue;
    dl_tid x = dl_ground_atom_term(b->g, a), act = arg(c->terms, x, 1);
    uint32_t r = role_index(c, arg(c->terms, x, 0));
    if (r == NONE) continue;
    uint32_t id = c->role_start[r] + fill[r]++;
    c->move_role[id] = r;
    c->move_term[id] = act;
    c->move_gate[id] = NONE;
    c->move_gated[id] = b->gated[a];
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
  dl_sort(per, np, sizeof *per, cmp_i32, NULL);
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

static int has_lit(const rule_set *r, uint32_t i, int32_t lit)
{
  for (uint32_t j = r->start[i]; j < r->start[i + 1]; j++)
    if (r->lits[j] == lit) return 1;
  return 0;
}

/* The literal most frequent in the rules idx[0..n) of in not used yet, and
 * its count. */
static int32_t frequent_literal(const rule_set *in, const uint32_t *idx, uint32_t n, const uint8_t *used,
                                int32_t *buf, uint32_t *count)
{
  uint32_t m = 0, best = 0;
  int32_t lit = 0;
  for (uint32_t k = 0; k < n; k++)
    if (!used[k])
      for (uint32_t j = in->start[idx[k]]; j < in->start[idx[k] + 1]; j++) buf[m++] = in->lits[j];
  dl_sort(buf, m, sizeof *buf, cmp_i32, NULL);
  for (uint32_t k = 0; k < m;) {
    uint32_t e = k + 1;
    while (e < m && buf[e] == buf[k]) e++;
    if (e - k > best) best = e - k, lit = buf[k];
    k = e;
  }
  *count = best;
  return lit;
}

/* The rules of one head that share a literal L become L & OR(rests), the
 * rests as shared AND gates: heads whose rules differ only in L (next of a
 * counter's each value) then share the OR. */
static int share_head(build *b, const rule_set *in, const uint32_t *idx, uint32_t n, rule_set *out, uint8_t *used,
                      int32_t *buf, int32_t *refs, int32_t *tmp)
{
  memset(used, 0, n);
  while (n >= 2 && n <= 4096) {
    uint32_t count, nr = 0, id;
    int32_t lit = frequent_literal(in, idx, n, used, buf, &count), always = 0;
    if (count < 2) break;
    for (uint32_t k = 0; k < n; k++) {
      uint32_t i = idx[k], len = 0;
      if (used[k] || !has_lit(in, i, lit)) continue;
      used[k] = 1;
      for (uint32_t j = in->start[i]; j < in->start[i + 1]; j++)
        if (in->lits[j] != lit) tmp[len++] = in->lits[j];
      if (len == 0) always = 1;
      else if (len == 1) refs[nr++] = tmp[0];
      else {
        dl_sort(tmp, len, sizeof *tmp, cmp_i32, NULL);
        if (!node(b, 1, tmp, len, &id)) return 0;
        refs[nr++] = (int32_t)(b->any_base + 1 + id);
      }
    }
    int32_t rule[2] = { lit, 0 };
    if (!always) {
      dl_sort(refs, nr, sizeof *refs, cmp_i32, NULL);
      uint32_t d = 0;
      for (uint32_t k = 0; k < nr; k++)
        if (d == 0 || refs[d - 1] != refs[k]) refs[d++] = refs[k];
      if (d == 1) rule[1] = refs[0];
      else if (!node(b, 0, refs, d, &id)) return 0;
      else rule[1] = (int32_t)(b->any_base + 1 + id);
    }
    if (!rule_set_add(out, in->head[idx[0]], rule, always ? 1 : 2)) return 0;
  }
  for (uint32_t k = 0; k < n; k++)
    if (!used[k] && !rule_set_add(out, in->head[idx[k]], in->lits + in->start[idx[k]],
                                  in->start[idx[k] + 1] - in->start[idx[k]]))
      return 0;
  return 1;
}

static int share_rules(build *b, const rule_set *in, rule_set *out)
{
  uint32_t *start = calloc(b->n_atoms + 2, sizeof *start), *idx = malloc((in->n + 1) * sizeof *idx);
  uint8_t *used = malloc(in->n + 1);
  int32_t *buf = malloc(((size_t)in->n_lits + 1) * sizeof *buf), *refs = malloc((in->n + 1) * sizeof *refs);
  int32_t *tmp = malloc(((size_t)in->n_lits + 1) * sizeof *tmp);
  uint32_t *fill = malloc((b->n_atoms + 1) * sizeof *fill);
  int ok = start && idx && used && buf && refs && tmp && fill;
  if (ok) {
    for (uint32_t i = 0; i < in->n; i++) start[in->head[i] + 1]++;
    for (uint32_t a = 0; a <= b->n_atoms; a++) start[a + 1] += start[a];
    memcpy(fill, start, (b->n_atoms + 1) * sizeof *fill);
    for (uint32_t i = 0; i < in->n; i++) idx[fill[in->head[i]]++] = i;
  }
  for (uint32_t a = 1; ok && a <= b->n_atoms; a++) {
    uint32_t n = start[a + 1] - start[a];
    if (n) ok = share_head(b, in, idx + start[a], n, out, used, buf, refs, tmp);
  }
  free(start), free(idx), free(used), free(buf), free(refs), free(tmp), free(fill);
  return ok ? 1 : oom(b);
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
        role_index(b->c, arg(b->c->terms, dl_ground_atom_term(b->g, h), 0)) != r)
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

/* Per role, the legal atoms whose every rule has the role's most common
 * literal L (a turn: true(control(r))) lose L: they flip only when the rest
 * changes, and are counted while L holds (gate_open). */
static int hoist_legal(build *b, const rule_set *in, rule_set *out)
{
  uint32_t roles = b->c->n_roles;
  b->role_lit = calloc(roles, sizeof *b->role_lit);
  b->gated = calloc(b->n_atoms + 1, 1);
  uint8_t *all = malloc(b->n_atoms + 1);
  uint32_t *count = malloc(((size_t)in->n_lits + 1) * sizeof *count);
  int32_t *tmp = malloc(((size_t)in->n_lits + 1) * sizeof *tmp);
  idmap m = { 0, 0, 0 };
  int ok = b->role_lit && b->gated && all && count && tmp && idmap_init(&m, in->n_lits);
  for (uint32_t r = 0; ok && r < roles; r++) {
    int32_t lit = common_literal(b, in, r, &m, count);
    if (!lit) continue;
    memset(all, 0, b->n_atoms + 1);
    for (uint32_t i = 0; i < in->n; i++) all[in->head[i]] = 1;
    for (uint32_t i = 0; i < in->n; i++) {
      uint32_t h = in->head[i];
      if (dl_ground_atom_role(b->g, h) != DL_ATOM_LEGAL ||
          role_index(b->c, arg(b->c->terms, dl_ground_atom_term(b->g, h), 0)) != r || !has_lit(in, i, lit))
        all[h] = 0;
    }
    uint32_t gated = 0;
    for (uint32_t a = 1; a <= b->n_atoms; a++) gated += all[a];
    if (gated < 2) continue;
    b->role_lit[r] = lit;
    for (uint32_t a = 1; a <= b->n_atoms; a++) b->gated[a] |= all[a];
  }
  for (uint32_t i = 0; ok && i < in->n; i++) {
    uint32_t h = in->head[i], n = 0;
    int32_t lit = b->gated[h] ? b->role_lit[role_index(b->c, arg(b->c->terms, dl_ground_atom_term(b->g, h), 0))] : 0;
    for (uint32_t j = in->start[i]; j < in->start[i + 1]; j++)
      if (in->lits[j] != lit) tmp[n++] = in->lits[j];
    if (n == 0) b->has_fact[h] = 1;
    else ok = rule_set_add(out, h, tmp, n);
  }
  idmap_free(&m);
  free(all), free(count), free(tmp);
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
  rule_set r1 = { 0 }, r0 = { 0 }, r3 = { 0 }, r2 = { 0 };
  int built = settable_moves(b) && clean_rules(b, &r1) && factor_rules(b, &r1, &r0) && share_rules(b, &r0, &r3) &&
              hoist_legal(b, &r3, &r2);
  rule_set_free(&r1);
  rule_set_free(&r0);
  rule_set_free(&r3);
  if (!built) {
    rule_set_free(&r2);
    return 0;
  }
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
    uint32_t n = b->any_start[k + 1] - b->any_start[k];
    uint32_t need = b->any_kind[k] == 2 ? b->c->n_roles : b->any_kind[k] ? n : 1;  /* true inputs it needs */
    b->any_gate[k] = new_gate(b, b->any_kind[k] ? KIND_AND : KIND_OR, TOP - need, 0);
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
    if (!c->block[g] && (c->counter[g] & TOP)) cc_flip(c, g, 1);
  for (uint32_t k = 0; k < c->n_blocks; k++) cc_mark_dirty(c, k);
  if (!cc_propagate(c) || !dl_circuit_set_state(c, c->init)) return oom(b);
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
  free(b->role_lit);
  free(b->gated);
  free(b->umove_start);
  free(b->umoves);
  free(b->complement);
  free(b->set);
  free(b->of_role);
  idmap_free(&b->any_map);
  free(b->any_start);
  free(b->any_atoms);
  free(b->any_kind);
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
