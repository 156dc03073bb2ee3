/* compile.c: compiling a ground game into a circuit of counter gates
 * (see compile.h and datalog/circuit/circuit.h): the gates of its atoms and
 * rules, its roles, fluents, moves and goals; datalog/lower/lower.c
 * rewrites the rules first, compile_layout.c lays the result out;
 * datalog/circuit/circuit.c evaluates it. */
#include "datalog/compile/compile_impl.h"

#include <assert.h>

int cc_oom(build *b)
{
  dl_diag_fail(b->diag, DL_CAUSE_NOMEM, "out of memory compiling the circuit");
  return 0;
}

dl_tid cc_arg(const dl_terms *t, dl_tid atom, uint32_t i)
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

void cc_report_atom(build *b, uint32_t atom, const char *what)
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
  if (!b->has_fact || !b->n_rules_of) return cc_oom(b);
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
  if (!rf) return cc_oom(b);
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
    return cc_oom(b);
  }
  for (uint32_t i = 0; i < n; i++) {
    dl_tid r = cc_arg(c->terms, dl_ground_atom_term(b->g, rf[i].atom), 0);
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

uint32_t cc_role_index(const dl_circuit *c, dl_tid r)
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
    return cc_oom(b);
  }
  c->fluent_term = malloc((b->n_atoms + 1) * sizeof *c->fluent_term);
  c->fluent_gate = malloc((b->n_atoms + 1) * sizeof *c->fluent_gate);
  if (!c->fluent_term || !c->fluent_gate) {
    idmap_free(&m);
    return cc_oom(b);
  }
  for (uint32_t a = 1; a <= b->n_atoms; a++) {
    dl_atom_role r = dl_ground_atom_role(b->g, a);
    if (r != DL_ATOM_FLUENT && r != DL_ATOM_NEXT && r != DL_ATOM_INIT) continue;
    dl_tid t = cc_arg(c->terms, dl_ground_atom_term(b->g, a), 0);
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
    uint32_t f = idmap_get(&m, cc_arg(c->terms, dl_ground_atom_term(b->g, a), 0));
    if (r == DL_ATOM_FLUENT) c->fluent_gate[f] = b->atom_gate[a];
    else if (r == DL_ATOM_NEXT) c->hook[b->atom_gate[a]] = (uint32_t)HOOK_NEXT << 28 | f;
    else if (b->has_fact[a]) c->init[f >> 6] |= (uint64_t)1 << (f & 63);
  }
  idmap_free(&m);
  return ok ? 1 : cc_oom(b);
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
  if (!c->legal_ng || !c->role_gate || !c->role_gate_neg) return cc_oom(b);
  for (uint32_t r = 0; r < nr; r++) {
    c->role_gate[r] = b->role_lit[r] ? b->atom_gate[b->role_lit[r] > 0 ? b->role_lit[r] : -b->role_lit[r]] : NONE;
    c->role_gate_neg[r] = b->role_lit[r] < 0;
  }
  c->cur_move = malloc(nr * sizeof *c->cur_move);
  c->joint = malloc(nr * sizeof *c->joint);
  if (!c->role_start || !c->legal_n || !c->cur_move || !c->joint) return cc_oom(b);
  memset(c->cur_move, 0xff, nr * sizeof *c->cur_move);
  for (uint32_t a = 1; a <= b->n_atoms; a++) {
    if (dl_ground_atom_role(b->g, a) != DL_ATOM_LEGAL) continue;
    uint32_t r = cc_role_index(c, cc_arg(c->terms, dl_ground_atom_term(b->g, a), 0));
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
    dl_tid x = dl_ground_atom_term(b->g, a), act = cc_arg(c->terms, x, 1);
    uint32_t r = cc_role_index(c, cc_arg(c->terms, x, 0));
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
  return ok ? 1 : cc_oom(b);
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
  if (!c->goal_role || !c->goal_value || !c->goal_count || !c->goal_sum) return cc_oom(b);
  n = 0;
  for (uint32_t a = 1; a <= b->n_atoms; a++) {
    dl_atom_role kind = dl_ground_atom_role(b->g, a);
    if (kind == DL_ATOM_TERMINAL) c->hook[b->atom_gate[a]] = (uint32_t)HOOK_TERMINAL << 28;
    if (kind != DL_ATOM_GOAL) continue;
    dl_tid x = dl_ground_atom_term(b->g, a);
    uint32_t r = cc_role_index(c, cc_arg(c->terms, x, 0));
    if (r == NONE) continue;  /* a goal of an x that is no role: no player has it */
    if (!parse_goal_value(c->terms, cc_arg(c->terms, x, 1), &c->goal_value[n])) {
      cc_report_atom(b, a, "a goal value that is not an integer from 0 to 999999999");
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
    dl_diag_fail(b->diag, DL_CAUSE_LIMIT, "the ground game is too large for a circuit");
    return 0;
  }
  b->cap_gates = (uint32_t)cap;
  c->counter = malloc(cap * sizeof *c->counter);
  c->kind = malloc(cap);
  c->gate_atom = malloc(cap * sizeof *c->gate_atom);
  c->hook = calloc(cap, sizeof *c->hook);
  b->atom_gate = malloc((b->n_atoms + 1) * sizeof *b->atom_gate);
  if (!c->counter || !c->kind || !c->gate_atom || !c->hook || !b->atom_gate) return cc_oom(b);
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

static uint32_t lit_gate(const build *b, int32_t lit)
{
  uint32_t a = (uint32_t)(lit > 0 ? lit : -lit);
  if (a <= b->n_atoms) return b->atom_gate[a];
  return a <= b->any_base ? b->phantom_gate[a - b->n_atoms - 1] : b->any_gate[a - b->any_base - 1];
}

static int wire_rules(build *b)
{
  rule_set r2 = { 0 };
  if (!cc_lower_rules(b, &r2)) {
    cc_rule_set_free(&r2);
    return 0;
  }
  uint32_t *only_len = calloc(b->n_atoms + 1, sizeof *only_len);
  b->any_gate = malloc(((size_t)b->n_any + 1) * sizeof *b->any_gate);
  if (!only_len || !b->any_gate) {
    free(only_len);
    cc_rule_set_free(&r2);
    return cc_oom(b);
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
    uint32_t n = b->any_start[k + 1] - b->any_start[k], kind = b->any_kind[k];
    if (kind == ANY_DEAD) {
      b->any_gate[k] = NONE;
      continue;
    }
    uint32_t need = kind == 2 ? b->c->n_roles : kind >= 3 ? kind - 1 : kind ? n : 1;  /* true inputs it needs */
    b->any_gate[k] = new_gate(b, b->any_kind[k] ? KIND_AND : KIND_OR, TOP - need, 0);
  }
  /* wired once every shared gate has its gate: one may read a later one */
  for (uint32_t k = 0; ok && k < b->n_any; k++)
    for (uint32_t j = b->any_start[k]; ok && b->any_kind[k] != ANY_DEAD && j < b->any_start[k + 1]; j++)
      ok = add_edge(b, lit_gate(b, b->any_atoms[j]), b->any_gate[k], b->any_atoms[j] < 0);
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
  cc_rule_set_free(&r2);
  return ok ? 1 : cc_oom(b);
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
  cc_selection_free(&b->sel);
}

dl_circuit *dl_circuit_create(const dl_ground *g, dl_diag *diag)
{
  return dl_circuit_create_mode(g, DL_CIRCUIT_AUTO, diag);
}

/* Compiles g in mode; a first compile surveys the gates to sample
 * (survey), a second chooses its checked moves from them (profile). */
static dl_circuit *compile(const dl_ground *g, dl_circuit_mode mode, cc_profile *survey, const cc_profile *profile,
                           dl_diag *diag)
{
  dl_circuit *c = calloc(1, sizeof *c);
  if (!c) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory compiling the circuit");
    return NULL;
  }
  c->g = g;
  c->terms = dl_ground_terms(g);
  build b;
  memset(&b, 0, sizeof b);
  b.c = c;
  b.g = g;
  b.diag = diag;
  b.mode = mode;
  b.survey = survey;
  b.profile = profile;
  b.n_atoms = dl_ground_atom_count(g);
  b.n_rules = dl_ground_rule_count(g);
  int ok = scan_rules(&b) && collect_roles(&b) && alloc_gates(&b) && wire_rules(&b) && collect_fluents(&b) &&
           collect_moves(&b) && collect_goals(&b) && cc_layout(&b);
  ok = ok && cc_settle(&b);
  free_build(&b);
  if (!ok) {
    dl_circuit_destroy(c);
    return NULL;
  }
  return c;
}

dl_circuit *dl_circuit_create_mode(const dl_ground *g, dl_circuit_mode mode, dl_diag *diag)
{
  assert(g && diag);
  cc_profile survey = { 0 };
  dl_circuit *c = compile(g, mode, &survey, NULL, diag);
  if (mode == DL_CIRCUIT_AUTO && c && c->lazy && !cc_lazy_pays(c)) {
    dl_circuit_destroy(c);  /* the size said lazy, the filing of the moves says no */
    cc_profile_free(&survey);
    mode = DL_CIRCUIT_EAGER;
    c = compile(g, mode, &survey, NULL, diag);
  }
  if (c && !c->lazy && survey.rows && cc_profile_sample(c, &survey) && cc_profile_pays(&survey)) {
    dl_circuit_destroy(c);  /* compiled again, with the moves' checks chosen from the samples */
    c = compile(g, mode, NULL, &survey, diag);
  }
  cc_profile_free(&survey);
  return c;
}
