/* compile_impl.h: private to the circuit's compiler (compile.c: gates
 * from the ground game; datalog/lower/lower.c: the rules rewritten before
 * they are wired; compile_layout.c: the wires laid out, cyclic blocks, the first
 * settling; compile_checks.c: checked moves; compile_lazy.c: the lazy
 * gates' records; compile_wide.c: the
 * bit-parallel program).  The compiler fills the runtime's circuit
 * (datalog/circuit/circuit_impl.h); the runtime never includes this. */
#ifndef GDLOG_COMPILE_IMPL_H
#define GDLOG_COMPILE_IMPL_H

#include "datalog/circuit/circuit_impl.h"
#include "datalog/compile/compile.h"

#include <stdlib.h>
#include <string.h>

/* An open-addressing map from 64-bit keys to ids. */
typedef struct idmap {
  uint64_t *keys;
  uint32_t *vals;
  size_t mask;
} idmap;

static inline int idmap_init(idmap *m, size_t n)
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

static inline void idmap_free(idmap *m)
{
  free(m->keys);
  free(m->vals);
}

static inline size_t idmap_slot(const idmap *m, uint64_t key)
{
  size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & m->mask;
  while (m->vals[h] != NONE && m->keys[h] != key) h = (h + 1) & m->mask;
  return h;
}

static inline uint32_t idmap_get(const idmap *m, uint64_t key) { return m->vals[idmap_slot(m, key)]; }

/* The id of key, adding it as *next (then incremented) when new.  The map
 * must have room (sized for every key at init). */
static inline uint32_t idmap_add(idmap *m, uint64_t key, uint32_t *next)
{
  size_t h = idmap_slot(m, key);
  if (m->vals[h] == NONE) {
    m->keys[h] = key;
    m->vals[h] = (*next)++;
  }
  return m->vals[h];
}

#define ANY_DEAD 255

/* How the gates that checked moves may read behaved in sampled states of
 * a first compile of the same game (compile_checks.c): the rows are the
 * inputs of the plain legal ANDs with a gate of CHECK_FANOUT outputs or
 * more among them.  Bit s of a row's `words` words: the gate's
 * value in sampled state s; bit s of `first`: state s began a playout. */
typedef struct cc_profile {
  uint32_t n_gates;        /* dense gates of the first compile */
  uint32_t *row;           /* per dense gate: its row, or NONE */
  uint32_t *offset;        /* per row: the gate's offset in the first circuit */
  uint32_t rows, words, states;
  uint64_t *bits, *first;
  /* those ANDs' inputs: and_in[and_start[k] .. and_start[k + 1]), each
   * row << 2 | negated << 1 | checkable */
  uint32_t n_ands, *and_start, *and_in;
  uint8_t *keyable;        /* per row: whether its gate may key moves (no hook, no block) */
} cc_profile;

/* The demux records of the selected ANDs (see circuit_impl.h), in dense
 * gate numbers until pack_net lays them out: per gate its record (or
 * NONE); per record its group and, at dm_and[dm_base[r] ..], the AND of
 * each of the group's members (AND << 1 | its wire's sign, or NONE),
 * dm_words of those in all. */
typedef struct cc_selection {
  uint32_t n_dm, dm_words;
  uint32_t *dm_of, *dm_grp, *dm_base, *dm_and;
  /* Watched ANDs: per gate x its watch record (or NONE), per record its
   * offset among them (wt_words in all); per watched AND i the AND, x << 1
   * | its wire's sign, its watcher s and x's record; per gate s its
   * watched ANDs wa_list[wa_start[s] .. wa_start[s + 1]). */
  uint32_t n_wt, wt_words, n_wa;
  uint32_t *wt_of, *wt_base, *wa_and, *wa_x, *wa_s, *wa_rec, *wa_start, *wa_list;
} cc_selection;

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
  uint8_t *any_kind;               /* 0: OR, 1: AND, 2: at least n_roles of, k >= 3: at least k - 1 of,
                                    * ANY_DEAD: replaced (no gate) */
  uint32_t *src, *dst;     /* edges */
  uint32_t n_edges, cap_edges;
  uint32_t cap_gates;
  dl_circuit_mode mode;            /* AUTO is decided in cc_layout */
  int hooks_in_cone;               /* legal moves, goals or terminal read a move */
  cc_profile *survey;              /* a first compile: its rows chosen, no checks made */
  const cc_profile *profile;       /* a second compile: checks chosen from the sampled states */
  cc_selection sel;                /* the selected ANDs' records, until pack_net lays them out */
} build;

/* Rules as they are wired: a literal is an atom literal (+a, -a) or, beyond
 * the atoms, an "any of these moves" gate (+(n_atoms + 1 + k)), negated
 * when it stands for "none of the other moves of the role". */
typedef struct rule_set {
  uint32_t n, cap, n_lits, cap_lits;
  uint32_t *head, *start;  /* start[n] is the end of the last rule */
  int32_t *lits;
} rule_set;

/* Filing moves under a fluent they need (compile_lazy.c, compile_wide.c). */
enum { REQ = 4 };  /* fluents kept per gate while filing the moves */

/* Fluents (f < n_fluents) and moves (n_fluents + m) every true value of
 * the gate needs: at most REQ of them, a subset (that is all the filing
 * needs: any needed one will do). */
typedef struct req {
  uint32_t f[REQ];
} req;

static inline void req_add(req *r, uint32_t f)
{
  for (int k = 0; k < REQ; k++) {
    if (r->f[k] == f) return;
    if (r->f[k] == NONE) {
      r->f[k] = f;
      return;
    }
  }
}

static inline void req_meet(req *r, const req *o)
{
  req m;
  memset(&m, 0xff, sizeof m);
  for (int k = 0; k < REQ && r->f[k] != NONE; k++)
    for (int j = 0; j < REQ && o->f[j] != NONE; j++)
      if (r->f[k] == o->f[j]) req_add(&m, r->f[k]);
  *r = m;
}

/* Folds into *q what the input `one` of a gate needs: an AND (is_and)
 * needs what any of its inputs needs, an OR what all of them need (first:
 * one is its first input). */
static inline void req_fold(req *q, const req *one, int is_and, int first)
{
  if (is_and)
    for (int k = 0; k < REQ && one->f[k] != NONE; k++) req_add(q, one->f[k]);
  else if (first) *q = *one;
  else req_meet(q, one);
}

/* Counts in count[key] the needed keys below limit of r. */
static inline void count_needed(const req *r, uint32_t limit, uint32_t *count)
{
  for (int k = 0; k < REQ && r->f[k] != NONE; k++)
    if (r->f[k] < limit) count[r->f[k]]++;
}

/* Of r's needed keys below limit, the one with the least count; limit
 * when it has none. */
static inline uint32_t rarest_needed(const req *r, uint32_t limit, const uint32_t *count)
{
  uint32_t best = limit;
  for (int k = 0; k < REQ && r->f[k] != NONE; k++)
    if (r->f[k] < limit && (best == limit || count[r->f[k]] < count[best])) best = r->f[k];
  return best;
}

/* compile.c */
int cc_oom(build *b);
dl_tid cc_arg(const dl_terms *t, dl_tid atom, uint32_t i);
void cc_report_atom(build *b, uint32_t atom, const char *what);
uint32_t cc_role_index(const dl_circuit *c, dl_tid r);

/* datalog/lower/lower.c */
void cc_rule_set_free(rule_set *r);
int cc_rule_set_add(rule_set *r, uint32_t head, const int32_t *lits, uint32_t n);
/* The ground rules, rewritten to be wired (into *out, empty before): the
 * does atoms no joint move sets dropped, atoms that stand for sets of
 * moves read as those sets, the rules of a head alike but for their move
 * factored into one with an "any of these moves" literal, shared literals
 * hoisted, legal atoms gated by their role's turn literal. */
int cc_lower_rules(build *b, rule_set *out);

/* compile_layout.c */
/* Finds the cyclic blocks (recursion through negation reported), orders
 * the gates, counts the stats and packs the gates into their records. */
int cc_layout(build *b);
/* Brings every gate to its value, then sets the initial state. */
int cc_settle(build *b);

/* compile_checks.c */
/* Every gate's inputs: the wires outs[in_edge[in_start[t] .. in_start[t +
 * 1])], from edge_src of each; per gate its negated inputs (negin). */
typedef struct cc_inputs {
  uint32_t *in_start, *in_edge, *edge_src, *negin;
} cc_inputs;
/* Lists the dense gates' inputs into *in (zeroed before); 1, or 0 when
 * out of memory (free it either way). */
int cc_list_inputs(const dl_circuit *c, cc_inputs *in);
void cc_inputs_free(cc_inputs *in);
/* Drops the wires marked in drop (per edge) from the output lists. */
void cc_drop_wires(dl_circuit *c, const uint8_t *drop);
/* Checked moves and any-legal gates (eager circuits; see circuit_impl.h):
 * with b->profile, the wires they no longer need dropped from the dense
 * gates, before pack_net packs them (after cc_wide_build, which keeps every
 * wire); with b->survey, the rows to sample chosen instead.  Allocates
 * check_start, move_al and role_checked in every mode. */
int cc_take_checks(build *b);
/* Fills p's bits from random playouts on c, the circuit of the compile
 * that chose p's rows (fixed seed: the same game compiles the same way).
 * 1, or 0 when out of memory or no state could be sampled. */
int cc_profile_sample(dl_circuit *c, cc_profile *p);
/* Whether the sampled states of p make any wire a check (else the first
 * compile is the circuit). */
int cc_profile_pays(const cc_profile *p);
void cc_profile_free(cc_profile *p);

/* compile_select.c */
/* In an eager circuit (dense gates, after cc_take_checks): the one-hot
 * groups of fluents (c's grp_* and fluent_* arrays) and the ANDs their
 * members select, their wires dropped, their records into b->sel (none in
 * other modes).  1, or 0 when out of memory. */
int cc_take_selections(build *b);
void cc_selection_free(cc_selection *s);
/* Where demux record r lies in c's net (after net_words, set). */
uint32_t cc_demux_offset(const dl_circuit *c, const cc_selection *s, uint32_t r);
/* The words of s's records, laid out after the gates. */
uint64_t cc_selection_words(const cc_selection *s);
/* Writes into out (when not NULL) dense gate g's outputs into s's records
 * (net_words set); returns their number. */
uint32_t cc_special_outputs(const dl_circuit *c, const cc_selection *s, uint32_t g, uint32_t *out);
/* Writes s's demux records into c's net (allocated for them) and renames
 * the selected ANDs and their gates by their offsets (off). */
void cc_place_selections(dl_circuit *c, const cc_selection *s, const uint32_t *off);

/* compile_wide.c */
/* The bit-parallel program of an eager circuit (c->wide) from the dense
 * gates in topological order, before pack_net frees them. */
int cc_wide_build(build *b);

/* compile_lazy.c */
/* The lazy part of the circuit from its gates g0 .. n_gates (dense, their
 * wires still in out_start/outs; off: the offsets of the eager gates). */
int cc_lazy_build(build *b, const uint32_t *off, uint32_t g0);
/* For DL_CIRCUIT_AUTO, on a lazy circuit set to its initial state: whether
 * its lazy moves are filed well enough for lazy gates to pay (a state
 * tests at most LAZY_TESTED percent of them). */
int cc_lazy_pays(const dl_circuit *c);

#endif
