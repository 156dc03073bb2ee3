/* compile_select.c: ANDs of two wires fed by one only while the other
 * holds (eager circuits; see circuit_impl.h and datalog/circuit/DESIGN.md,
 * "Selected ANDs" and "Watched ANDs").
 *
 * hex's `next(connected ?k ?m ?n)` reads `true(step ?k)`: the flip of a
 * cell's connection feeds an AND for every step, of which at most one
 * holds.  A step counter is a one-hot group: its fluents' next values are
 * copies of one another's (next(step k+1) = true(step k)), each read by one
 * next value at most, and at most one holds initially, so at most one holds
 * in every reachable state.  An AND of a member and one other gate x is
 * then fed x's flips only while its member holds (x's demux record picks
 * the ANDs of the members that hold), and set from x's value when its
 * member turns true.  Nothing here is needed for the values to be right:
 * a state in which several members hold (one a user sets) feeds the ANDs
 * of all of them; the groups only make it cheap.
 *
 * Watched ANDs need no group: an AND of a gate x that changes with the
 * joint move and a gate s that changes with the state is listed under x
 * while s holds (x's watch record), so x feeds the ANDs listed only. */
#include "datalog/compile/compile_impl.h"

#include <assert.h>

enum { SELECT_MIN = 4 };  /* ANDs of one group a gate must feed to get a demux record, at least */
enum { WATCH_MIN = 4 };   /* watched ANDs a gate must feed to get a watch record, at least */
#define NEXT_NONE 0xfffffffeu  /* no gate makes the fluent true in a next state */

/* The fluent whose value gate g's value copies (an input, or a one-input
 * OR or AND of one), NEXT_NONE when g is never true (an OR of nothing),
 * or NONE. */
static uint32_t copy_source(const dl_circuit *c, const cc_inputs *in, const uint32_t *fluent_of, uint32_t g)
{
  if (c->kind[g] == KIND_INPUT) return fluent_of[g];
  if (c->kind[g] == KIND_OR && in->in_start[g + 1] == in->in_start[g] && c->counter[g] == TOP - 1) return NEXT_NONE;
  if ((c->kind[g] != KIND_AND && c->kind[g] != KIND_OR) || c->block[g] || in->in_start[g + 1] - in->in_start[g] != 1 ||
      in->negin[g] || c->counter[g] != TOP - 1)
    return NONE;
  uint32_t src = in->edge_src[in->in_edge[in->in_start[g]]];
  return c->kind[src] == KIND_INPUT ? fluent_of[src] : NONE;
}

/* Per fluent f, into copy[f]: the fluent its next value copies, NEXT_NONE
 * when it has no next gate, NONE when its next value is anything else. */
static void next_copies(const dl_circuit *c, const cc_inputs *in, const uint32_t *fluent_of, uint32_t *copy)
{
  for (uint32_t f = 0; f < c->n_fluents; f++) copy[f] = NEXT_NONE;
  for (uint32_t g = 0; g < c->n_gates; g++) {
    if ((c->hook[g] >> 28 & 7) != HOOK_NEXT) continue;
    uint32_t f = c->hook[g] & 0x0fffffffu;
    copy[f] = copy[f] == NEXT_NONE ? copy_source(c, in, fluent_of, g) : NONE;
  }
}

static uint32_t find_root(uint32_t *parent, uint32_t x)
{
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/* The one-hot groups (see the top of this file): the components of the
 * fluents under "copies", each of whose members copies a member or has no
 * next gate, is copied by one at most, and of which one holds initially at
 * most; into c's grp_start, grp_fluent, fluent_grp and fluent_slot.  1, or
 * 0 when out of memory. */
static int find_groups(dl_circuit *c, const uint32_t *copy)
{
  size_t n = c->n_fluents, words = (n + 1) * sizeof(uint32_t);
  uint32_t *parent = malloc(words), *members = calloc(n + 1, 4), *inits = calloc(n + 1, 4), *indeg = calloc(n + 1, 4);
  uint8_t *bad = calloc(n + 1, 1);
  c->fluent_grp = malloc(words), c->fluent_slot = malloc(words);
  int ok = parent && members && inits && indeg && bad && c->fluent_grp && c->fluent_slot;
  uint32_t groups = 0, total = 0;
  for (uint32_t f = 0; ok && f < n; f++) parent[f] = f, c->fluent_grp[f] = NONE;
  for (uint32_t f = 0; ok && f < n; f++)
    if (copy[f] < n) {
      indeg[copy[f]]++;
      parent[find_root(parent, f)] = find_root(parent, copy[f]);
    }
  for (uint32_t f = 0; ok && f < n; f++) {
    uint32_t r = find_root(parent, f);
    members[r]++;
    inits[r] += (uint32_t)(c->init[f >> 6] >> (f & 63) & 1);
    bad[r] |= copy[f] == NONE || indeg[f] > 1;
  }
  for (uint32_t f = 0; ok && f < n; f++) {
    uint32_t r = find_root(parent, f);
    if (bad[r] || members[r] < 2 || inits[r] > 1) continue;
    if (c->fluent_grp[r] == NONE) c->fluent_grp[r] = groups++;
    c->fluent_grp[f] = c->fluent_grp[r];
    total++;
  }
  c->n_groups = groups;
  c->grp_start = ok ? calloc((size_t)groups + 2, sizeof *c->grp_start) : NULL;
  c->grp_fluent = ok ? malloc(((size_t)total + 1) * sizeof *c->grp_fluent) : NULL;
  c->grp_true = ok ? calloc((size_t)groups + 1, sizeof *c->grp_true) : NULL;
  c->grp_one = ok ? malloc(((size_t)groups + 1) * sizeof *c->grp_one) : NULL;
  ok = ok && c->grp_start && c->grp_fluent && c->grp_true && c->grp_one;
  for (uint32_t f = 0; ok && f < n; f++)
    if (c->fluent_grp[f] != NONE) c->grp_start[c->fluent_grp[f] + 2]++;
  for (uint32_t k = 0; ok && k < groups; k++) c->grp_start[k + 2] += c->grp_start[k + 1];
  for (uint32_t f = 0; ok && f < n; f++)
    if (c->fluent_grp[f] != NONE) {
      c->fluent_slot[f] = c->grp_start[c->fluent_grp[f] + 1]++;
      c->grp_fluent[c->fluent_slot[f]] = f;
    }
  for (uint32_t k = 0; ok && k < groups; k++) c->grp_one[k] = NONE;
  free(parent), free(members), free(inits), free(indeg), free(bad);
  return ok;
}

/* The other wire into dense gate a than o, when a is a plain AND of two
 * wires outside blocks and before the goal-only gates; else NONE. */
static uint32_t other_wire(const dl_circuit *c, const cc_inputs *in, uint32_t a, uint32_t o)
{
  if (c->kind[a] != KIND_AND || c->block[a] || a >= c->goal_start || in->in_start[a + 1] - in->in_start[a] != 2 ||
      c->counter[a] + 2 - in->negin[a] != TOP)
    return NONE;
  uint32_t j = in->in_start[a], e = in->in_edge[j] == o ? in->in_edge[j + 1] : in->in_edge[j];
  return e == o ? NONE : e;
}

/* The member of a one-hot group that selects dense gate a for the wire o
 * into it: a's other input (other_wire), a positive wire from the member's
 * input, when o's source is no member of that group; else NONE. */
static uint32_t selector_of(const dl_circuit *c, const cc_inputs *in, const uint32_t *fluent_of, uint32_t a, uint32_t o)
{
  uint32_t e = other_wire(c, in, a, o), f = e == NONE ? NONE : fluent_of[in->edge_src[e]];
  if (f == NONE || (c->outs[e] >> 1 & 1) || c->fluent_grp[f] == NONE) return NONE;
  uint32_t xf = fluent_of[in->edge_src[o]];
  return xf != NONE && c->fluent_grp[xf] == c->fluent_grp[f] ? NONE : f;
}

/* The gate s that lists dense gate a under the source x of the wire o
 * into it (a watched AND): a's other input (other_wire), a positive wire
 * from outside the move cone, while x is in it (x changes at every joint
 * move, s with the state); else NONE. */
static uint32_t watcher_of(const dl_circuit *c, const cc_inputs *in, uint32_t a, uint32_t o)
{
  uint32_t e = other_wire(c, in, a, o), s = e == NONE ? NONE : in->edge_src[e];
  if (s == NONE || (c->outs[e] >> 1 & 1) || s >= c->cone_start || in->edge_src[o] < c->cone_start) return NONE;
  return s;
}

void cc_selection_free(cc_selection *s)
{
  void *p[] = { s->dm_of, s->dm_grp, s->dm_base, s->dm_and, s->wt_of, s->wt_base, s->wa_and, s->wa_x, s->wa_s,
                s->wa_rec, s->wa_start, s->wa_list };
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
  memset(s, 0, sizeof *s);
}

/* What choosing the selected ANDs keeps: per gate whether it is taken,
 * per slot the mark of the gate x that last counted (2x + 1) or took (2x +
 * 2) its member's AND. */
typedef struct chooser {
  const cc_inputs *in;
  const uint32_t *fluent_of;
  uint8_t *taken, *drop;
  uint32_t *stamp;
} chooser;

/* The ANDs of gate x that members of one group select (that of the first;
 * one per member, an AND once), counted (step 0), taken (1: counted per
 * slot in sel_start) or taken and filed (2: their wires marked in drop,
 * their counters cleared as their member is false, each under its member's
 * slot and in x's record r); their group into *grp. */
static uint32_t x_ands(dl_circuit *c, chooser *ch, cc_selection *s, uint32_t x, int step, uint32_t *grp, uint32_t r)
{
  uint32_t n = 0, mark = 2 * x + 1 + (step > 0);
  *grp = NONE;
  for (uint32_t o = c->out_start[x]; o < c->out_start[x + 1]; o++) {
    uint32_t a = c->outs[o] >> 2, f = selector_of(c, ch->in, ch->fluent_of, a, o), slot = f == NONE ? 0 : c->fluent_slot[f];
    if (f == NONE || ch->taken[a] || ch->stamp[slot] == mark || (*grp != NONE && c->fluent_grp[f] != *grp)) continue;
    *grp = c->fluent_grp[f];
    ch->stamp[slot] = mark;
    n++;
    ch->taken[a] = step > 0;
    if (step == 1) c->sel_start[slot + 2]++;
    if (step < 2) continue;
    uint32_t k = c->sel_start[slot + 1]++, neg = c->outs[o] >> 1 & 1, first = ch->in->in_start[a];
    ch->drop[ch->in->in_edge[first]] = ch->drop[ch->in->in_edge[first + 1]] = 1;
    c->sel_and[k] = a, c->sel_x[k] = x << 1 | neg;
    s->dm_and[s->dm_base[r] + slot - c->grp_start[*grp]] = a << 1 | neg;
    c->counter[a] = TOP - 1;
  }
  return n;
}

/* Room for the records and selected ANDs counted: dm_words words of
 * records, n_sel ANDs. */
static int make_room(dl_circuit *c, cc_selection *s, uint32_t n_sel)
{
  s->dm_of = malloc(((size_t)c->n_gates + 1) * sizeof *s->dm_of);
  s->dm_grp = malloc(((size_t)s->n_dm + 1) * sizeof *s->dm_grp);
  s->dm_base = malloc(((size_t)s->n_dm + 1) * sizeof *s->dm_base);
  s->dm_and = malloc(((size_t)s->dm_words + 1) * sizeof *s->dm_and);
  c->sel_and = malloc(((size_t)n_sel + 1) * sizeof *c->sel_and);
  c->sel_x = malloc(((size_t)n_sel + 1) * sizeof *c->sel_x);
  if (!s->dm_of || !s->dm_grp || !s->dm_base || !s->dm_and || !c->sel_and || !c->sel_x) return 0;
  memset(s->dm_of, 0xff, ((size_t)c->n_gates + 1) * sizeof *s->dm_of);
  memset(s->dm_and, 0xff, ((size_t)s->dm_words + 1) * sizeof *s->dm_and);
  for (uint32_t k = 0; k < c->grp_start[c->n_groups]; k++) c->sel_start[k + 2] += c->sel_start[k + 1];
  c->stats.selected_ands = n_sel;
  return 1;
}

/* The demux records of the gates with SELECT_MIN selected ANDs or more
 * and those ANDs: counted, then filled. */
static int take_ands(dl_circuit *c, chooser *ch, cc_selection *s)
{
  uint32_t slots = c->grp_start[c->n_groups], grp;
  c->sel_start = calloc((size_t)slots + 2, sizeof *c->sel_start);
  if (!c->sel_start) return 0;
  for (int fill = 0; fill < 2; fill++) {
    uint64_t words = 0;
    uint32_t n_dm = 0, n_sel = 0;
    memset(ch->taken, 0, c->n_gates);
    memset(ch->stamp, 0xff, ((size_t)slots + 1) * sizeof *ch->stamp);
    for (uint32_t x = 0; x < c->n_gates; x++) {
      if (x_ands(c, ch, s, x, 0, &grp, NONE) < SELECT_MIN) continue;
      if (fill) s->dm_of[x] = n_dm, s->dm_grp[n_dm] = grp, s->dm_base[n_dm] = (uint32_t)words;
      n_sel += x_ands(c, ch, s, x, 1 + fill, &grp, n_dm);
      words += c->grp_start[grp + 1] - c->grp_start[grp];
      n_dm++;
    }
    if (!fill && words >= (1u << 29)) return 0;
    s->n_dm = n_dm, s->dm_words = (uint32_t)words;
    if (!fill && !make_room(c, s, n_sel)) return 0;
  }
  return 1;
}

/* With the groups found: the selected ANDs and their demux records; a
 * group that selects nothing is left alone. */
static int select_ands(dl_circuit *c, chooser *ch, cc_selection *s)
{
  ch->stamp = malloc(((size_t)c->grp_start[c->n_groups] + 1) * sizeof *ch->stamp);
  int ok = ch->stamp && take_ands(c, ch, s);
  for (uint32_t k = 0; ok && k < c->n_groups; k++)
    c->stats.one_hot_groups += c->sel_start[c->grp_start[k + 1]] > c->sel_start[c->grp_start[k]];
  for (uint32_t f = 0; ok && f < c->n_fluents; f++) {
    uint32_t k = c->fluent_grp[f];
    if (k != NONE && c->sel_start[c->grp_start[k + 1]] == c->sel_start[c->grp_start[k]]) c->fluent_grp[f] = NONE;
  }
  if (ok && !c->stats.one_hot_groups) c->n_groups = 0;
  ok = ok && (c->grp_mask = calloc((size_t)c->words + 1, sizeof *c->grp_mask)) != NULL;
  for (uint32_t f = 0; ok && f < c->n_fluents; f++)
    if (c->fluent_grp[f] != NONE) c->grp_mask[f >> 6] |= (uint64_t)1 << (f & 63);
  return ok;
}

/* Gate x's watched ANDs (watcher_of; none taken by a group), counted, or
 * filed as the watched ANDs from number n on, of x's record r: their wires
 * marked in drop, their counters cleared (their watcher is false). */
static uint32_t x_watched(dl_circuit *c, chooser *ch, cc_selection *s, uint32_t x, int fill, uint32_t n, uint32_t r)
{
  uint32_t k = 0;
  for (uint32_t o = c->out_start[x]; o < c->out_start[x + 1]; o++) {
    uint32_t a = c->outs[o] >> 2, w = ch->taken[a] ? NONE : watcher_of(c, ch->in, a, o);
    if (w == NONE) continue;
    if (fill) {
      uint32_t first = ch->in->in_start[a];
      ch->drop[ch->in->in_edge[first]] = ch->drop[ch->in->in_edge[first + 1]] = 1;
      s->wa_and[n + k] = a, s->wa_x[n + k] = x << 1 | (c->outs[o] >> 1 & 1), s->wa_s[n + k] = w, s->wa_rec[n + k] = r;
      c->counter[a] = TOP - 1;
    }
    k++;
  }
  return k;
}

/* The watch records of the gates with WATCH_MIN watched ANDs or more and
 * those ANDs (counted, then filed), listed per watcher. */
static int take_watches(dl_circuit *c, chooser *ch, cc_selection *s)
{
  for (int fill = 0; fill < 2; fill++) {
    uint32_t n_wt = 0, n_wa = 0, k;
    uint64_t words = 0;
    for (uint32_t x = c->cone_start; x < c->goal_start; x++) {
      if ((k = x_watched(c, ch, s, x, 0, 0, 0)) < WATCH_MIN) continue;
      if (fill) s->wt_of[x] = n_wt, s->wt_base[n_wt] = (uint32_t)words, x_watched(c, ch, s, x, 1, n_wa, n_wt);
      n_wt++, n_wa += k, words += 4 + k;
    }
    if (fill) break;
    if (words >= (1u << 29)) return 0;
    s->n_wt = n_wt, s->n_wa = n_wa, s->wt_words = (uint32_t)words;
    size_t g = (size_t)c->n_gates + 2, a = (size_t)n_wa + 1;
    s->wt_of = malloc(g * 4), s->wt_base = malloc(((size_t)n_wt + 1) * 4), s->wa_and = malloc(a * 4);
    s->wa_x = malloc(a * 4), s->wa_s = malloc(a * 4), s->wa_rec = malloc(a * 4);
    s->wa_start = calloc(g, 4), s->wa_list = malloc(a * 4);
    if (!s->wt_of || !s->wt_base || !s->wa_and || !s->wa_x || !s->wa_s || !s->wa_rec || !s->wa_start || !s->wa_list)
      return 0;
    memset(s->wt_of, 0xff, g * 4);
  }
  for (uint32_t i = 0; i < s->n_wa; i++) s->wa_start[s->wa_s[i] + 2]++;
  for (uint32_t g = 0; g < c->n_gates; g++) s->wa_start[g + 2] += s->wa_start[g + 1];
  for (uint32_t i = 0; i < s->n_wa; i++) s->wa_list[s->wa_start[s->wa_s[i] + 1]++] = i;
  c->stats.watched_ands = s->n_wa;
  return 1;
}

int cc_take_selections(build *b)
{
  dl_circuit *c = b->c;
  cc_selection *s = &b->sel;
  if (b->mode != DL_CIRCUIT_EAGER) return 1;
  uint32_t *fluent_of = malloc(((size_t)c->n_gates + 1) * sizeof *fluent_of);
  uint32_t *copy = malloc(((size_t)c->n_fluents + 1) * sizeof *copy);
  cc_inputs in = { 0 };
  chooser ch = { &in, fluent_of, calloc((size_t)c->n_gates + 1, 1), calloc((size_t)c->n_edges + 1, 1), NULL };
  int ok = fluent_of && copy && ch.taken && ch.drop && cc_list_inputs(c, &in);
  if (ok) {
    memset(fluent_of, 0xff, ((size_t)c->n_gates + 1) * sizeof *fluent_of);
    for (uint32_t f = 0; f < c->n_fluents; f++)
      if (c->fluent_gate[f] != NONE) fluent_of[c->fluent_gate[f]] = f;
    next_copies(c, &in, fluent_of, copy);
    ok = find_groups(c, copy) && (!c->n_groups || select_ands(c, &ch, s)) && take_watches(c, &ch, s);
  }
  if (ok) cc_drop_wires(c, ch.drop);
  cc_inputs_free(&in);
  free(fluent_of), free(copy), free(ch.taken), free(ch.drop), free(ch.stamp);
  return ok ? 1 : cc_oom(b);
}

/* Where the records lie in the net, after the gates: demux, then watch,
 * then select records. */
static uint32_t watch_offset(const dl_circuit *c, const cc_selection *s, uint32_t r)
{
  return c->net_words + 4 * s->n_dm + s->dm_words + s->wt_base[r];
}

static uint32_t select_offset(const dl_circuit *c, const cc_selection *s, uint32_t i)
{
  return c->net_words + 4 * s->n_dm + s->dm_words + s->wt_words + 6 * i;
}

uint64_t cc_selection_words(const cc_selection *s)
{
  return 4 * (uint64_t)s->n_dm + s->dm_words + s->wt_words + 6 * (uint64_t)s->n_wa;
}

uint32_t cc_special_outputs(const dl_circuit *c, const cc_selection *s, uint32_t g, uint32_t *out)
{
  uint32_t n = 0;
  if (s->n_dm && s->dm_of[g] != NONE) {
    if (out) out[n] = cc_demux_offset(c, s, s->dm_of[g]) << 2 | 1;
    n++;
  }
  if (s->n_wt && s->wt_of[g] != NONE) {
    if (out) out[n] = watch_offset(c, s, s->wt_of[g]) << 2 | 1;
    n++;
  }
  for (uint32_t j = s->n_wa ? s->wa_start[g] : 0; j < (s->n_wa ? s->wa_start[g + 1] : 0); j++, n++)
    if (out) out[n] = select_offset(c, s, s->wa_list[j]) << 2 | 1;
  return n;
}

uint32_t cc_demux_offset(const dl_circuit *c, const cc_selection *s, uint32_t r)
{
  assert(r < s->n_dm);
  return c->net_words + 4 * r + s->dm_base[r];
}

void cc_place_selections(dl_circuit *c, const cc_selection *s, const uint32_t *off)
{
  for (uint32_t r = 0; r < s->n_dm; r++) {
    uint32_t *d = c->net + cc_demux_offset(c, s, r), k = s->dm_grp[r];
    d[0] = 0, d[1] = k, d[2] = 0, d[3] = DEMUX;
    for (uint32_t j = 0; j < c->grp_start[k + 1] - c->grp_start[k]; j++) {
      uint32_t a = s->dm_and[s->dm_base[r] + j];
      d[4 + j] = a == NONE ? NONE : off[a >> 1] << 1 | (a & 1);
    }
  }
  for (uint32_t i = 0; c->sel_start && i < c->sel_start[c->grp_start[c->n_groups]]; i++) {
    c->sel_and[i] = off[c->sel_and[i]];
    c->sel_x[i] = off[c->sel_x[i] >> 1] << 1 | (c->sel_x[i] & 1);
  }
  for (uint32_t r = 0; r < s->n_wt; r++) {
    uint32_t *w = c->net + watch_offset(c, s, r);
    w[0] = 0, w[1] = 0, w[2] = 0, w[3] = WATCH;
  }
  for (uint32_t i = 0; i < s->n_wa; i++) {
    uint32_t *r = c->net + select_offset(c, s, i);
    r[0] = 0, r[1] = off[s->wa_and[i]], r[2] = off[s->wa_x[i] >> 1] << 1 | (s->wa_x[i] & 1), r[3] = SELECT;
    r[4] = watch_offset(c, s, s->wa_rec[i]), r[5] = NONE;
  }
}
