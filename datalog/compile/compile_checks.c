/* compile_checks.c: checked and keyed moves and the any-legal gates of
 * an eager circuit (see compile_impl.h, cc_take_checks).
 *
 * A legal move's AND is fed every flip of each of its inputs, though while
 * another input is false no flip changes it: checkers' empty cell feeds the
 * 150 jumps that land on it, nearly all without the pieces that make them.
 * Such a move can lose a wire: it is then listed while the rest holds, and
 * the draw and the listing read that input's value instead (check_lit).  A
 * gate that ORs legal moves of one role (checkers' has_legal_move,
 * speedChess's hasAnyLegalMove, read by terminal) would then see moves that
 * do not hold, so it loses its wires too: it is set like an input from the
 * role's listed moves once a state has propagated (an any-legal gate,
 * al_gate).
 *
 * Which wires pay as checks depends on how often their gates flip and hold:
 * a check saves a feed per flip of its gate, but the move is then listed
 * whenever the rest holds, so the list changes more often and the draw
 * meets moves whose checks fail.  A first compile samples the states of
 * random playouts (cc_profile); the second chooses each move's checks from
 * those states (choose_checks).
 *
 * A move whose AND would keep a single positive wire, from a gate that
 * other moves of its role need too (amazons' queen on a square), may lose
 * that wire as well: it is keyed, listed with the others whenever the
 * gate holds, one hook for all (best_key, make_keys). */
#include "datalog/compile/compile_impl.h"

#include "datalog/base/rng.h"

#include <assert.h>

enum {
  PROFILE_STATES = 2048,          /* states sampled, at most */
  PROFILE_DEPTH = 1000,           /* states of one playout, at most */
  CHECK_MAX_IN = 32,              /* inputs of an AND whose checks are chosen, at most */
  /* costs in quarters of a feed (measured on checkers and speedChess) */
  FEED_COST = 4,                  /* a flip fed to the AND */
  LIST_COST = 24,                 /* a change of a move's listing */
  REJECT_COST = 1,                /* a listed move whose checks fail, per state */
  KEY_MIN = 2                     /* moves under a key, at least */
};
#define PROFILE_SAMPLES ((uint64_t)1 << 26)  /* rows times states, at most (8 MiB of bits) */

void cc_inputs_free(cc_inputs *in)
{
  free(in->in_start), free(in->in_edge), free(in->edge_src), free(in->negin);
}

int cc_list_inputs(const dl_circuit *c, cc_inputs *in)
{
  size_t ng = (size_t)c->n_gates + 1, ne = (size_t)c->n_edges + 1;
  in->in_start = calloc(ng + 1, sizeof *in->in_start);
  in->in_edge = malloc(ne * sizeof *in->in_edge);
  in->edge_src = malloc(ne * sizeof *in->edge_src);
  in->negin = calloc(ng, sizeof *in->negin);
  uint32_t *fill = malloc(ng * sizeof *fill);
  int ok = in->in_start && in->in_edge && in->edge_src && in->negin && fill;
  for (uint32_t e = 0; ok && e < c->n_edges; e++) {
    in->in_start[(c->outs[e] >> 2) + 1]++;
    in->negin[c->outs[e] >> 2] += c->outs[e] >> 1 & 1;
  }
  for (uint32_t g = 0; ok && g < c->n_gates; g++) in->in_start[g + 1] += in->in_start[g];
  if (ok) memcpy(fill, in->in_start, c->n_gates * sizeof *fill);
  for (uint32_t g = 0; ok && g < c->n_gates; g++)
    for (uint32_t i = c->out_start[g]; i < c->out_start[g + 1]; i++) {
      in->edge_src[i] = g;
      in->in_edge[fill[c->outs[i] >> 2]++] = i;
    }
  free(fill);
  return ok;
}

static uint32_t fan_out(const dl_circuit *c, uint32_t g) { return c->out_start[g + 1] - c->out_start[g]; }
static uint32_t fan_in(const cc_inputs *in, uint32_t t) { return in->in_start[t + 1] - in->in_start[t]; }

static uint32_t legal_move_of(const dl_circuit *c, uint32_t g)
{
  return (c->hook[g] >> 28 & 7) == HOOK_LEGAL ? (c->hook[g] & 0x0fffffffu) : NONE;
}

void cc_drop_wires(dl_circuit *c, const uint8_t *drop)
{
  uint32_t w = 0, from = c->out_start[0];
  for (uint32_t g = 0; g < c->n_gates; g++) {
    uint32_t end = c->out_start[g + 1];
    c->out_start[g] = w;
    for (uint32_t i = from; i < end; i++)
      if (!drop[i]) c->outs[w++] = c->outs[i];
    from = end;
  }
  c->out_start[c->n_gates] = w;
  c->n_edges = w;
}

/* Whether gate a, before the move cone and outside any block, is an OR
 * whose inputs are all plain wires from legal moves of one role; that role
 * into *role. */
static int ors_legal_moves(const dl_circuit *c, const cc_inputs *in, uint32_t a, uint32_t *role)
{
  if (a >= c->cone_start || c->kind[a] != KIND_OR || c->block[a] || fan_in(in, a) < 2 || in->negin[a] ||
      c->counter[a] != TOP - 1)
    return 0;
  *role = NONE;
  for (uint32_t j = in->in_start[a]; j < in->in_start[a + 1]; j++) {
    uint32_t g = in->edge_src[in->in_edge[j]], m = legal_move_of(c, g);
    if (m == NONE || c->block[g] || (*role != NONE && c->move_role[m] != *role)) return 0;
    *role = c->move_role[m];
  }
  return 1;
}

/* Per gate, whether it would be an any-legal gate (is_al), at most AL_MAX
 * of them. */
static void find_any_legal(const dl_circuit *c, const cc_inputs *in, uint8_t *is_al)
{
  for (uint32_t a = 0, r, n = 0; a < c->n_gates && n < AL_MAX; a++)
    if (ors_legal_moves(c, in, a, &r)) is_al[a] = 1, n++;
}

/* The any-legal gates marked in is_al made inputs, their input wires
 * marked in drop. */
static void take_any_legal(dl_circuit *c, const cc_inputs *in, const uint8_t *is_al, uint8_t *drop)
{
  for (uint32_t a = 0, r; a < c->n_gates; a++) {
    if (!is_al[a] || !ors_legal_moves(c, in, a, &r)) continue;
    uint32_t k = c->n_al++;
    c->al_gate[k] = a;
    c->al_role[k] = r;
    c->kind[a] = KIND_INPUT;
    for (uint32_t j = in->in_start[a]; j < in->in_start[a + 1]; j++) {
      drop[in->in_edge[j]] = 1;
      c->move_al[legal_move_of(c, in->edge_src[in->in_edge[j]])] |= (uint8_t)(1u << k);
    }
  }
}

/* Whether gate t is a legal move's own AND that needs all of its inputs,
 * lies before the move cone, outside any block, and outputs nothing but to
 * gates of is_al. */
static int plain_legal_and(const dl_circuit *c, const cc_inputs *in, const uint8_t *is_al, uint32_t t)
{
  if (t >= c->cone_start || c->kind[t] != KIND_AND || c->block[t] || legal_move_of(c, t) == NONE ||
      fan_in(in, t) < 2 || c->counter[t] + fan_in(in, t) - in->negin[t] != TOP)
    return 0;
  for (uint32_t i = c->out_start[t]; i < c->out_start[t + 1]; i++)
    if (!is_al[c->outs[i] >> 2]) return 0;
  return 1;
}

/* Whether gate g, with CHECK_FANOUT outputs or more, may be read as a
 * check. */
static int checkable(const dl_circuit *c, uint32_t g) { return fan_out(c, g) >= CHECK_FANOUT && !c->block[g]; }

/* Whether plain legal AND t has an input that may be read as a check. */
static int has_checkable(const dl_circuit *c, const cc_inputs *in, uint32_t t)
{
  for (uint32_t j = in->in_start[t]; j < in->in_start[t + 1]; j++)
    if (checkable(c, in->edge_src[in->in_edge[j]])) return 1;
  return 0;
}

/* An AND's input as the choice reads it: its gate's row << 2 | negated << 1
 * | checkable. */
static uint32_t and_input(const dl_circuit *c, const cc_inputs *in, const cc_profile *p, uint32_t i)
{
  uint32_t g = in->edge_src[i];
  return p->row[g] == NONE ? NONE : p->row[g] << 2 | (c->outs[i] >> 1 & 1) << 1 | (uint32_t)checkable(c, g);
}

/* Plain legal AND t's inputs (and_input) into a; their number, 0 when one
 * was not sampled or t has more than CHECK_MAX_IN. */
static uint32_t and_inputs(const dl_circuit *c, const cc_inputs *in, const cc_profile *p, uint32_t t, uint32_t *a)
{
  if (fan_in(in, t) > CHECK_MAX_IN) return 0;
  for (uint32_t j = in->in_start[t]; j < in->in_start[t + 1]; j++)
    if ((a[j - in->in_start[t]] = and_input(c, in, p, in->in_edge[j])) == NONE) return 0;
  return fan_in(in, t);
}

/* ---- sampled states ---- */

void cc_profile_free(cc_profile *p)
{
  free(p->row), free(p->offset), free(p->bits), free(p->first), free(p->and_start), free(p->and_in), free(p->keyable);
  memset(p, 0, sizeof *p);
}

/* Gives gate g a row (its dense number into offset, pack_net makes it an
 * offset). */
static void add_row(cc_profile *p, uint32_t g)
{
  if (p->row[g] != NONE) return;
  p->offset[p->rows] = g;
  p->row[g] = p->rows++;
}

/* Whether gate g may be a key: it has no hook and lies outside any block. */
static int keyable(const dl_circuit *c, uint32_t g) { return !(c->hook[g] & ~HAS_OUTPUTS) && !c->block[g]; }

/* The rows of a first compile: the inputs of every plain legal AND with a
 * checkable input.  1, or 0 when out of memory. */
static int survey(const dl_circuit *c, const cc_inputs *in, const uint8_t *is_al, cc_profile *p)
{
  size_t ng = (size_t)c->n_gates + 1;
  p->n_gates = c->n_gates;
  p->row = malloc(ng * sizeof *p->row);
  p->offset = malloc(ng * sizeof *p->offset);
  p->and_start = malloc(ng * sizeof *p->and_start);
  p->and_in = malloc(((size_t)c->n_edges + 1) * sizeof *p->and_in);
  p->keyable = calloc(ng, 1);
  if (!p->row || !p->offset || !p->and_start || !p->and_in || !p->keyable) return 0;
  memset(p->row, 0xff, ng * sizeof *p->row);
  p->and_start[0] = 0;
  for (uint32_t t = 0; t < c->n_gates; t++) {
    uint32_t *a = p->and_in + p->and_start[p->n_ands];
    if (!plain_legal_and(c, in, is_al, t) || !has_checkable(c, in, t)) continue;
    for (uint32_t j = in->in_start[t]; j < in->in_start[t + 1]; j++) {
      uint32_t g = in->edge_src[in->in_edge[j]];
      add_row(p, g);
      p->keyable[p->row[g]] = (uint8_t)keyable(c, g);
    }
    uint32_t n = and_inputs(c, in, p, t, a);
    if (n) p->n_ands++, p->and_start[p->n_ands] = p->and_start[p->n_ands - 1] + n;
  }
  return 1;
}

/* Records the rows' values in the current state of c as sample s. */
static void sample_state(const dl_circuit *c, cc_profile *p, uint32_t s, int first)
{
  for (uint32_t r = 0; r < p->rows; r++)
    p->bits[(size_t)r * p->words + s / 64] |= (uint64_t)(c->net[p->offset[r] + NET_INFO] >> 31) << (s % 64);
  p->first[s / 64] |= (uint64_t)first << (s % 64);
}

/* One random playout on c from the initial state, its states sampled from
 * sample *s on while there is room; it ends early where a role has no
 * legal move. */
static void sample_playout(dl_circuit *c, cc_profile *p, dl_rng *rng, uint64_t *state, uint32_t *joint, uint32_t *s)
{
  dl_circuit_initial(c, state);
  for (uint32_t depth = 0; depth < PROFILE_DEPTH && *s < p->states; depth++) {
    dl_circuit_set_state(c, state);
    sample_state(c, p, (*s)++, depth == 0);
    if (dl_circuit_terminal(c)) return;
    for (uint32_t r = 0; r < c->n_roles; r++)
      if (!cc_random_move(c, r, rng, &joint[r])) return;
    dl_circuit_next(c, joint, state);
  }
}

int cc_profile_sample(dl_circuit *c, cc_profile *p)
{
  assert(c && p && p->rows);
  uint64_t per_row = PROFILE_SAMPLES / 64 / p->rows;
  p->words = (uint32_t)(per_row < PROFILE_STATES / 64 ? per_row : PROFILE_STATES / 64);
  p->states = p->words * 64;
  if (p->words < 4) return 0;  /* too few states to tell */
  p->bits = calloc((size_t)p->rows * p->words, 8);
  p->first = calloc(p->words, 8);
  uint64_t *state = calloc(c->words + 1, 8);
  uint32_t *joint = calloc(c->n_roles + 1, sizeof *joint), s = 0;
  int ok = p->bits && p->first && state && joint;
  dl_rng rng;
  dl_rng_seed(&rng, 1);
  for (uint32_t round = 0; ok && s < p->states && round < p->states; round++)
    sample_playout(c, p, &rng, state, joint, &s);
  p->states = s;
  free(state), free(joint);
  dl_circuit_set_state(c, c->init);
  return ok && s >= 256;
}

/* ---- choosing the checks ---- */

/* The bits set in x (no popcnt instruction assumed). */
static inline uint64_t bits_in(uint64_t x)
{
  x -= x >> 1 & 0x5555555555555555u;
  x = (x & 0x3333333333333333u) + (x >> 2 & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return x * 0x0101010101010101u >> 56;
}

/* How often a value over the sampled states changes from one state of a
 * playout to the next. */
static uint64_t flips(const cc_profile *p, const uint64_t *v)
{
  uint64_t n = 0, carry = 0;
  for (uint32_t w = 0; w < p->words; w++) {
    uint64_t before = v[w] << 1 | carry;
    carry = v[w] >> 63;
    n += bits_in((v[w] ^ before) & ~p->first[w]);
  }
  return n;
}

/* Room for choosing one AND's checks: its n checkable inputs, each a
 * literal's values over the sampled states (lit, `words` words each), its
 * flips and its place among the AND's inputs (at), in the order they are
 * tried (most flips first); the suffix conjunctions of them (suf[i]:
 * inputs from i on); the conjunction of the inputs that stay wired (kept:
 * the others, then those tried and kept), the whole AND's (all), a scratch
 * value (x). */
typedef struct chooser {
  const cc_profile *p;
  uint32_t n, at[CHECK_MAX_IN];
  uint64_t f[CHECK_MAX_IN];
  uint64_t *lit, *suf, *kept, *all, *x;
} chooser;

static int chooser_init(chooser *ch, const cc_profile *p)
{
  size_t w = p->words;
  ch->p = p;
  ch->lit = malloc(CHECK_MAX_IN * w * 8);
  ch->suf = malloc((CHECK_MAX_IN + 1) * w * 8);
  ch->kept = malloc(w * 8), ch->all = malloc(w * 8), ch->x = malloc(w * 8);
  return ch->lit && ch->suf && ch->kept && ch->all && ch->x;
}

static void chooser_free(chooser *ch) { free(ch->lit), free(ch->suf), free(ch->kept), free(ch->all), free(ch->x); }

/* The cost, over the sampled states, of an AND whose wired inputs flip
 * `feeds` times in all and hold together in states v: their flips feed it
 * (FEED_COST), the flips of v change the list (LIST_COST), and the states
 * of v where the whole AND does not hold list a move whose checks fail
 * (REJECT_COST). */
static uint64_t wired_cost(const chooser *ch, uint64_t feeds, const uint64_t *v)
{
  uint64_t rejects = 0;
  for (uint32_t w = 0; w < ch->p->words; w++) rejects += bits_in(v[w] & ~ch->all[w]);
  return FEED_COST * feeds + LIST_COST * flips(ch->p, v) + REJECT_COST * rejects;
}

/* Loads an AND's n inputs a into ch: the checkable ones into lit (most
 * flips first), the others conjoined into kept; their flips into *feeds. */
static void load_inputs(chooser *ch, const uint32_t *a, uint32_t n, uint64_t *feeds)
{
  const cc_profile *p = ch->p;
  size_t w = p->words;
  ch->n = 0, *feeds = 0;
  memset(ch->kept, 0xff, w * 8);
  for (uint32_t j = 0; j < n; j++) {
    const uint64_t *v = p->bits + (size_t)(a[j] >> 2) * w;
    uint64_t neg = a[j] >> 1 & 1 ? ~(uint64_t)0 : 0, f = flips(p, v);  /* a negated literal flips as often */
    uint32_t k = ch->n;
    *feeds += f;
    if (!(a[j] & 1)) {
      for (size_t x = 0; x < w; x++) ch->kept[x] &= v[x] ^ neg;
      continue;
    }
    for (; k > 0 && ch->f[k - 1] < f; k--) {  /* insertion: most flips first */
      ch->f[k] = ch->f[k - 1], ch->at[k] = ch->at[k - 1];
      memcpy(ch->lit + k * w, ch->lit + (k - 1) * w, w * 8);
    }
    ch->f[k] = f, ch->at[k] = j;
    for (size_t x = 0; x < w; x++) ch->lit[k * w + x] = v[x] ^ neg;
    ch->n++;
  }
}

/* Chooses the checks of an AND of n inputs a (and_input): its checkable
 * inputs are tried, most flips first, and each whose wire costs more than
 * it saves (wired_cost) becomes a check (dropped[j] = 1); the AND keeps a
 * wire.  Returns how many, the cost of the wires kept into *cost; leaves
 * the whole AND's values in ch->all. */
static uint32_t choose_checks(chooser *ch, const uint32_t *a, uint32_t n, uint8_t *dropped, uint64_t *cost_out)
{
  size_t w = ch->p->words;
  uint64_t feeds;
  uint32_t n_drop = 0, wired = n;
  memset(dropped, 0, n);
  load_inputs(ch, a, n, &feeds);
  memset(ch->suf + ch->n * w, 0xff, w * 8);
  for (uint32_t i = ch->n; i-- > 0;)
    for (size_t x = 0; x < w; x++) ch->suf[i * w + x] = ch->suf[(i + 1) * w + x] & ch->lit[i * w + x];
  for (size_t x = 0; x < w; x++) ch->all[x] = ch->kept[x] & ch->suf[x];
  uint64_t cost = wired_cost(ch, feeds, ch->all);
  for (uint32_t i = 0; i < ch->n && wired > 1; i++) {
    for (size_t x = 0; x < w; x++) ch->x[x] = ch->kept[x] & ch->suf[(i + 1) * w + x];
    uint64_t without = wired_cost(ch, feeds - ch->f[i], ch->x);
    if (without < cost) {
      dropped[ch->at[i]] = 1, n_drop++, wired--;
      cost = without, feeds -= ch->f[i];
    } else {
      for (size_t x = 0; x < w; x++) ch->kept[x] &= ch->lit[i * w + x];
    }
  }
  *cost_out = cost;
  return n_drop;
}

/* The input of a plain legal AND (its n inputs a, ch->all their
 * conjunction) that keys it at the least cost into *cost, or NONE: a
 * positive one from a keyable gate.  Keyed, the move is listed wherever
 * that input holds: it fails its checks where the AND does not
 * (REJECT_COST), and its key's flips change the list once for KEY_MIN
 * moves at least. */
static uint32_t best_key(const chooser *ch, const uint32_t *a, uint32_t n, uint64_t *cost)
{
  const cc_profile *p = ch->p;
  uint32_t best = NONE;
  *cost = UINT64_MAX;
  for (uint32_t j = 0; j < n; j++) {
    if ((a[j] & 2) || !p->keyable[a[j] >> 2]) continue;
    const uint64_t *v = p->bits + (size_t)(a[j] >> 2) * p->words;
    uint64_t rejects = 0;
    for (uint32_t w = 0; w < p->words; w++) rejects += bits_in(v[w] & ~ch->all[w]);
    uint64_t x = REJECT_COST * rejects + LIST_COST * flips(p, v) / KEY_MIN;
    if (x < *cost) best = j, *cost = x;
  }
  return best;
}

int cc_profile_pays(const cc_profile *p)
{
  assert(p);
  chooser ch;
  uint8_t dropped[CHECK_MAX_IN];
  uint64_t cost;
  int pays = 0;
  if (!chooser_init(&ch, p)) {
    chooser_free(&ch);
    return 0;
  }
  uint32_t *keyed = calloc((size_t)p->rows + 1, sizeof *keyed);  /* per row: the ANDs it would rather key */
  for (uint32_t k = 0; keyed && k < p->n_ands && !pays; k++) {
    const uint32_t *a = p->and_in + p->and_start[k], n = p->and_start[k + 1] - p->and_start[k];
    uint64_t key_cost;
    pays = choose_checks(&ch, a, n, dropped, &cost) > 0;
    uint32_t j = best_key(&ch, a, n, &key_cost);
    pays |= j != NONE && key_cost < cost && ++keyed[a[j] >> 2] >= KEY_MIN;
  }
  chooser_free(&ch);
  free(keyed);
  return pays;
}

/* ---- keyed moves ---- */

/* The source gate of input j of gate t. */
static uint32_t input_gate(const cc_inputs *in, uint32_t t, uint32_t j) { return in->edge_src[in->in_edge[in->in_start[t] + j]]; }

/* Room for the keys' planning: per gate t, the input that keys it
 * (key_in, or NONE); per key gate, its moves' role << 1 | gated (tag, or
 * NONE; MIXED when they differ) and how many (count). */
typedef struct key_plan {
  uint32_t *key_in, *tag, *count;
} key_plan;
#define MIXED (NONE - 1)

static void key_plan_free(key_plan *k) { free(k->key_in), free(k->tag), free(k->count); }

static int key_plan_init(key_plan *k, uint32_t n_gates)
{
  size_t n = (size_t)n_gates + 1;
  k->key_in = malloc(n * sizeof *k->key_in), k->tag = malloc(n * sizeof *k->tag);
  k->count = calloc(n, sizeof *k->count);
  if (!k->key_in || !k->tag || !k->count) return 0;
  memset(k->key_in, 0xff, n * sizeof *k->key_in);
  memset(k->tag, 0xff, n * sizeof *k->tag);
  return 1;
}

/* Plain legal AND t (move m) would rather be keyed by input j: counted
 * under its gate. */
static void plan_key(const dl_circuit *c, const cc_inputs *in, key_plan *k, uint32_t t, uint32_t m, uint32_t j)
{
  uint32_t g = input_gate(in, t, j), tag = c->move_role[m] << 1 | c->move_gated[m];
  k->key_in[t] = j;
  k->tag[g] = k->tag[g] == NONE || k->tag[g] == tag ? tag : MIXED;
  k->count[g]++;
}

/* Whether t's planned key holds a key: KEY_MIN moves of one role, gated
 * alike. */
static int key_taken(const cc_inputs *in, const key_plan *k, uint32_t t)
{
  if (k->key_in[t] == NONE) return 0;
  uint32_t g = input_gate(in, t, k->key_in[t]);
  return k->tag[g] != MIXED && k->count[g] >= KEY_MIN;
}

/* The keys of the ANDs keyed in k (key_in; the others' NONE): numbered
 * per gate, their moves filed, the gate's hook made its key's, the ANDs'
 * legal hooks cleared (they have no wires left); per role, room for its
 * keys that hold.  1, or 0 when out of memory. */
static int make_keys(dl_circuit *c, const cc_inputs *in, key_plan *k)
{
  uint32_t *key_of = k->tag, n = 0;  /* the tags are read no more */
  memset(key_of, 0xff, ((size_t)c->n_gates + 1) * sizeof *key_of);
  for (uint32_t t = 0; t < c->n_gates; t++) {
    uint32_t g = k->key_in[t] == NONE ? NONE : input_gate(in, t, k->key_in[t]);
    if (g != NONE && key_of[g] == NONE) key_of[g] = n++;
  }
  size_t nk = (size_t)n + 1;
  c->n_keys = n;
  c->key_start = calloc(nk + 1, sizeof *c->key_start);
  c->key_moves = malloc(((size_t)c->n_moves + 1) * sizeof *c->key_moves);
  c->key_role = malloc(nk * sizeof *c->key_role), c->key_gated = malloc(nk);
  c->key_pos = malloc(nk * sizeof *c->key_pos), c->key_list = malloc(nk * sizeof *c->key_list);
  if (!c->key_start || !c->key_moves || !c->key_role || !c->key_gated || !c->key_pos || !c->key_list) return 0;
  for (uint32_t t = 0; t < c->n_gates; t++) {
    if (k->key_in[t] == NONE) continue;
    uint32_t g = input_gate(in, t, k->key_in[t]), key = key_of[g], m = legal_move_of(c, t);
    c->key_start[key + 1]++;
    c->key_role[key] = c->move_role[m], c->key_gated[key] = c->move_gated[m];
    c->role_key_start[c->move_role[m] + 1] += c->key_start[key + 1] == 1;
    c->hook[g] = (c->hook[g] & HAS_OUTPUTS) | (uint32_t)HOOK_KEY << 28 | key;
  }
  for (uint32_t x = 0; x < n; x++) c->key_start[x + 1] += c->key_start[x];
  for (uint32_t r = 0; r < c->n_roles; r++) c->role_key_start[r + 1] += c->role_key_start[r];
  memcpy(c->key_pos, c->key_start, n * sizeof *c->key_pos);  /* the places to fill, till the hooks run */
  for (uint32_t t = 0; t < c->n_gates; t++) {
    if (k->key_in[t] == NONE) continue;
    uint32_t key = key_of[input_gate(in, t, k->key_in[t])];
    c->key_moves[c->key_pos[key]++] = legal_move_of(c, t);
    c->hook[t] &= HAS_OUTPUTS;
  }
  c->stats.keyed_moves = c->key_start[n];
  c->stats.move_keys = n;
  return 1;
}

/* The sampled states where literal l (dense gate << 1 | negated) holds;
 * all of them for a gate not sampled. */
static uint64_t holds_count(const cc_profile *p, uint32_t l)
{
  if (p->row[l >> 1] == NONE) return p->states;
  const uint64_t *v = p->bits + (size_t)p->row[l >> 1] * p->words;
  uint64_t n = 0;
  for (uint32_t w = 0; w < p->words; w++) n += bits_in(v[w]);
  return (l & 1) ? p->states - n : n;
}

/* A move's n checks ls, the one that holds least often first: a draw
 * stops at the first that fails, and on a large circuit each is a miss in
 * the cache. */
static void order_checks(const cc_profile *p, uint32_t *ls, uint32_t n)
{
  uint64_t h[CHECK_MAX_IN];
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = ls[i], j = i;
    uint64_t x = holds_count(p, l);
    for (; j > 0 && h[j - 1] > x; j--) h[j] = h[j - 1], ls[j] = ls[j - 1];
    h[j] = x, ls[j] = l;
  }
}

/* The checks of every plain legal AND chosen from the profile and filed
 * per move (check_start, check_lit), their wires marked in drop, the ANDs'
 * counters needing as many inputs fewer; a keyed AND's every wire
 * dropped, its key's not filed as a check (k->key_in, NONE for the
 * others).  1, or 0 when out of memory. */
static int file_checks(dl_circuit *c, const cc_inputs *in, const uint8_t *is_al, const cc_profile *p, uint8_t *drop,
                       key_plan *k)
{
  chooser ch;
  if (!chooser_init(&ch, p)) {
    chooser_free(&ch);
    return 0;
  }
  uint32_t a[CHECK_MAX_IN], n;
  uint8_t dropped[CHECK_MAX_IN];
  uint64_t wired, keyed;
  for (uint32_t t = 0; t < c->n_gates; t++) {
    if (!plain_legal_and(c, in, is_al, t) || !(n = and_inputs(c, in, p, t, a))) continue;
    c->check_start[legal_move_of(c, t) + 1] = choose_checks(&ch, a, n, dropped, &wired);
    for (uint32_t j = 0; j < n; j++) drop[in->in_edge[in->in_start[t] + j]] = dropped[j];
    uint32_t j = best_key(&ch, a, n, &keyed);
    if (j != NONE && keyed < wired) plan_key(c, in, k, t, legal_move_of(c, t), j);
  }
  chooser_free(&ch);
  for (uint32_t t = 0; t < c->n_gates; t++) {  /* the keys planned and taken: every wire dropped */
    if (k->key_in[t] == NONE) continue;
    if (!key_taken(in, k, t)) {
      k->key_in[t] = NONE;
      continue;
    }
    c->check_start[legal_move_of(c, t) + 1] = fan_in(in, t) - 1;
    for (uint32_t j = in->in_start[t]; j < in->in_start[t + 1]; j++) drop[in->in_edge[j]] = 1;
  }
  for (uint32_t m = 0; m < c->n_moves; m++) {
    c->stats.checked_moves += c->check_start[m + 1] != 0;
    c->role_checked[c->move_role[m]] |= c->check_start[m + 1] != 0;
    c->check_start[m + 1] += c->check_start[m];
  }
  c->check_lit = malloc(((size_t)c->check_start[c->n_moves] + 1) * sizeof *c->check_lit);
  if (!c->check_lit) return 0;
  for (uint32_t t = 0, x; t < c->n_gates; t++) {
    if (!plain_legal_and(c, in, is_al, t)) continue;
    x = c->check_start[legal_move_of(c, t)];
    for (uint32_t j = in->in_start[t]; j < in->in_start[t + 1]; j++) {
      uint32_t i = in->in_edge[j], neg = c->outs[i] >> 1 & 1;
      if (!drop[i]) continue;
      c->counter[t] += !neg;  /* one input fewer to need */
      if (j - in->in_start[t] != k->key_in[t]) c->check_lit[x++] = in->edge_src[i] << 1 | neg;
    }
    order_checks(p, c->check_lit + c->check_start[legal_move_of(c, t)], x - c->check_start[legal_move_of(c, t)]);
  }
  return 1;
}

/* With the profile: checks chosen and filed, and when any move is
 * checked, the any-legal gates taken; the wires they no longer need
 * dropped.  1, or 0 when out of memory. */
static int make_checks(dl_circuit *c, const cc_profile *p, uint8_t *drop, uint8_t *is_al)
{
  cc_inputs in = { 0 };
  key_plan k = { 0 };
  int ok = cc_list_inputs(c, &in) && key_plan_init(&k, c->n_gates);
  if (ok) find_any_legal(c, &in, is_al);
  ok = ok && file_checks(c, &in, is_al, p, drop, &k);
  if (ok && c->stats.checked_moves) take_any_legal(c, &in, is_al, drop);
  ok = ok && make_keys(c, &in, &k);  /* after take_any_legal, which reads the legal hooks */
  if (ok) cc_drop_wires(c, drop);
  cc_inputs_free(&in);
  key_plan_free(&k);
  return ok;
}

int cc_take_checks(build *b)
{
  dl_circuit *c = b->c;
  c->check_start = calloc((size_t)c->n_moves + 1, sizeof *c->check_start);
  c->move_al = calloc((size_t)c->n_moves + 1, 1);
  c->role_checked = calloc((size_t)c->n_roles + 1, 1);
  size_t nr = (size_t)c->n_roles + 1;
  c->role_key_start = calloc(nr + 1, sizeof *c->role_key_start);
  c->key_n = calloc(nr, sizeof *c->key_n), c->key_ng = calloc(nr, sizeof *c->key_ng);
  c->key_cnt = calloc(nr, sizeof *c->key_cnt), c->key_cntg = calloc(nr, sizeof *c->key_cntg);
  uint8_t *drop = calloc((size_t)c->n_edges + 1, 1), *is_al = calloc((size_t)c->n_gates + 1, 1);
  int ok = c->check_start && c->move_al && c->role_checked && c->role_key_start && c->key_n && c->key_ng &&
           c->key_cnt && c->key_cntg && drop && is_al;
  if (ok && b->mode == DL_CIRCUIT_EAGER && b->survey) {
    cc_inputs in = { 0 };
    ok = cc_list_inputs(c, &in);
    if (ok) find_any_legal(c, &in, is_al);
    ok = ok && survey(c, &in, is_al, b->survey);
    cc_inputs_free(&in);
  } else if (ok && b->mode == DL_CIRCUIT_EAGER && b->profile && b->profile->n_gates == c->n_gates) {
    ok = make_checks(c, b->profile, drop, is_al);
  }
  free(drop), free(is_al);
  return ok ? 1 : cc_oom(b);
}
