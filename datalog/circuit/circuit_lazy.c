/* circuit_lazy.c: the lazy gates' evaluation (see circuit.h,
 * DL_CIRCUIT_LAZY): the gates that only legal moves, goals and terminal
 * need, evaluated on demand for the current state instead of kept up to
 * date at every change.  Their records, the legal moves filed by a fluent
 * they need and the lazy next rules filed by a key are made by the
 * compiler (datalog/compile/compile_lazy.c, which tells why chess wants
 * them); dl_circuit.lz in circuit_impl.h gives their layout.
 *
 * A lazy gate reads its inputs in order and stops an AND at its first false
 * input, an OR at its first true one.  Its value is kept until the state
 * changes (an epoch stamp per gate).  The legal moves of a role are tested
 * only when a fluent they need holds. */
#include "datalog/circuit/circuit_impl.h"

#include <assert.h>
#include <string.h>

/* Forgets every lazy value and restarts the stamps (they would wrap). */
static void restart_stamps(dl_circuit *c)
{
  for (uint32_t r = 0; r < c->lz_words; r += LZ_IN + c->lz[r + LZ_N]) c->lz[r + LZ_MEMO] = 0;
  memset(c->legal_epoch, 0, c->n_roles * sizeof *c->legal_epoch);
  c->true_epoch = 0;
  c->epoch = c->mepoch = 1;
}

/* The fluents of the current state that key list k (see
 * dl_circuit.true_list: k < n_roles, role k's lazy moves; n_roles, the
 * next rules), in increasing order, their number in *n.  The lists are
 * made once per state, each fluent appended to every list and counted
 * where it belongs: in chess some 70 fluents hold, of which the side to
 * move's pieces key its moves, and a branch per bucket mispredicted. */
static const uint32_t *true_fluents(dl_circuit *c, uint32_t k, uint32_t *n)
{
  uint32_t nk = c->n_roles + 1, nf = c->n_fluents + 1, *count = c->n_true;
  if (c->true_epoch != c->epoch) {
    memset(count, 0, nk * sizeof *count);
    for (uint32_t w = 0; w < c->words; w++)
      for (uint64_t bits = c->cur[w]; bits; bits &= bits - 1) {
        uint32_t f = w << 6 | (uint32_t)__builtin_ctzll(bits);
        const uint8_t *key = c->true_key + (size_t)f * nk;
        for (uint32_t j = 0; j < nk; j++) {
          c->true_list[(size_t)j * nf + count[j]] = f;
          count[j] += key[j];
        }
      }
    c->true_epoch = c->epoch;
  }
  *n = count[k];
  return c->true_list + (size_t)k * nf;
}

void cc_lazy_new_state(dl_circuit *c)
{
  if (++c->epoch >= 0x7fffffffu) restart_stamps(c);
}

/* Whether the fluent of input code w (f << 3 | 4) holds in state cur. */
static inline uint32_t fluent_holds(const uint64_t *cur, uint32_t w)
{
  return (uint32_t)(cur[w >> 9] >> (w >> 3 & 63)) & 1;
}

/* Whether the eager input or fluent of code w holds (its negation is not
 * applied). */
static inline uint32_t eager_holds(const uint32_t *net, const uint64_t *cur, uint32_t w)
{
  return w & 4 ? fluent_holds(cur, w) : net[(w >> 3) + NET_INFO] >> 31;
}

/* Whether input code w is a lazy gate's with a guard after it. */
static inline uint32_t guarded(uint32_t w) { return (w & (2 | LZ_GUARDED)) == (2 | LZ_GUARDED); }

/* The stamp a value of lazy gate r computed now has. */
static inline uint32_t stamp(const dl_circuit *c, uint32_t r) { return (r < c->lz_cone0 ? c->epoch : c->mepoch) << 1; }

static uint32_t any_legal_value(dl_circuit *c, uint32_t x, uint32_t *st);

/* The value of lazy gate x in the current state (and move, for the gates
 * of the move cone), with room for frames from st.  Iterative: a frame is
 * (gate, next input, true inputs so far); an input not yet known is
 * pushed, and read again once known. */
static uint32_t lazy_value_at(dl_circuit *c, uint32_t x, uint32_t *st)
{
  const uint32_t *net = c->net;
  const uint64_t *cur = c->cur;
  uint32_t *lz = c->lz, sp, v = 0;
  if ((lz[x] & ~1u) == stamp(c, x)) return lz[x] & 1;
  if (lz[x + LZ_NEED] & LZ_ANY) return any_legal_value(c, x, st);
  st[0] = x, st[1] = x + LZ_IN, st[2] = 0, sp = 3;
  while (sp) {
    uint32_t g = st[sp - 3], i = st[sp - 2], n = st[sp - 1], e = g + LZ_IN + lz[g + LZ_N], k = lz[g + LZ_NEED];
    v = n >= k;
    while (!v && n + (e - i) >= k) {
      uint32_t w = lz[i], j = i + 1 + guarded(w), b;  /* j: the next input */
      if (guarded(w) && !eager_holds(net, cur, lz[i + 1])) {
        i = j;  /* a false guard: the input is false (never negated) */
        continue;
      }
      if (j < e && (lz[j] & 2) && (!guarded(lz[j]) || eager_holds(net, cur, lz[j + 1])))
        __builtin_prefetch(lz + (lz[j] >> 3));  /* hides its miss */
      if (w & 2) {
        uint32_t m = lz[w >> 3];
        if ((m & ~1u) != stamp(c, w >> 3)) break;
        b = m & 1;
      } else b = eager_holds(net, cur, w);
      n += b ^ (w & 1);
      i = j;
      v = n >= k;
    }
    if (!v && n + (e - i) >= k) {  /* an input to evaluate first */
      st[sp - 2] = i, st[sp - 1] = n;
      uint32_t y = lz[i] >> 3;
      if (lz[y + LZ_NEED] & LZ_ANY) any_legal_value(c, y, st + sp);
      else st[sp] = y, st[sp + 1] = y + LZ_IN, st[sp + 2] = 0, sp += 3;
      continue;
    }
    lz[g] = stamp(c, g) | v;
    sp -= 3;
  }
  return v;
}

static uint32_t lazy_value(dl_circuit *c, uint32_t x) { return lazy_value_at(c, x, c->lz_stack); }

/* Whether a move of bucket bkt that is an input of "any legal" gate k
 * holds. */
static uint32_t any_in_bucket(dl_circuit *c, uint32_t bkt, uint32_t k, uint32_t *st)
{
  for (uint32_t i = c->lzm_start[bkt]; i < c->lzm_start[bkt + 1]; i++) {
    uint32_t m = c->lzm_moves[i];
    if ((c->any_in[m] >> k & 1) && lazy_value_at(c, c->move_lazy[m], st)) return 1;
  }
  return 0;
}

/* The value of "any legal" gate x (see dl_circuit.any_gate): only the
 * moves filed under a fluent of the state can hold (chess: the moves of
 * the pieces on the board, not all 3,800 of a side). */
static uint32_t any_legal_value(dl_circuit *c, uint32_t x, uint32_t *st)
{
  uint32_t k = c->lz[x + LZ_NEED] & ~LZ_ANY, base = c->any_role[k] * (c->n_fluents + 1), v = 0, n;
  const uint32_t *fl = true_fluents(c, c->any_role[k], &n);
  for (uint32_t i = 0; !v && i < n; i++) v = any_in_bucket(c, base + fl[i], k, st);
  if (!v) v = any_in_bucket(c, base + c->n_fluents, k, st);
  c->lz[x] = stamp(c, x) | v;
  return v;
}

int cc_lazy_terminal(dl_circuit *c)
{
  for (uint32_t k = 0; k < c->n_lz_terminal; k++)
    if (lazy_value(c, c->lz_terminal[k])) return 1;
  return 0;
}

void cc_lazy_goals(dl_circuit *c, uint32_t r, int32_t *count, int32_t *sum)
{
  for (uint32_t k = 0; k < c->n_lz_goal; k++) {
    uint32_t i = c->lz_goal[2 * k + 1];
    if (c->goal_role[i] != r || !lazy_value(c, c->lz_goal[2 * k])) continue;
    ++*count;
    *sum += c->goal_value[i];
  }
}

/* Appends to out[n ..] role r's lazy moves that may count while its gate
 * is closed: the ungated ones filed under a fluent of the state or under
 * none, in the order of their buckets (chess: its noop, where the
 * buckets hold some 200 moves of the pieces on the board); returns the
 * new length. */
static uint32_t ungated_candidates(const dl_circuit *c, uint32_t r, uint32_t *out, uint32_t n)
{
  for (uint32_t i = c->ungated_start[r]; i < c->ungated_start[r + 1]; i++) {
    uint32_t m = c->ungated[2 * i], f = c->ungated[2 * i + 1];
    if (f == c->n_fluents || (c->cur[f >> 6] >> (f & 63) & 1)) out[n++] = m;
  }
  return n;
}

/* Appends to cand[n ..] the moves of the bucket; returns the new length. */
static uint32_t bucket_candidates(const dl_circuit *c, uint32_t bkt, uint32_t *cand, uint32_t n)
{
  for (uint32_t k = c->lzm_start[bkt]; k < c->lzm_start[bkt + 1]; k++) cand[n++] = c->lzm_moves[k];
  return n;
}

/* Appends to out[n ..] role r's lazy moves that may be legal in this state
 * (gated ones only when open): those filed under a fluent of the state or
 * under none, bucket by bucket; returns the new length. */
static uint32_t role_candidates(dl_circuit *c, uint32_t r, int open, uint32_t *out, uint32_t n)
{
  uint32_t nf = c->n_fluents + 1, base = r * nf, nt;
  if (!open) return ungated_candidates(c, r, out, n);
  if (c->lzm_start[base + nf] == c->lzm_start[base]) return n;
  const uint32_t *fl = true_fluents(c, r, &nt);
  for (uint32_t i = 0; i < nt; i++) n = bucket_candidates(c, base + fl[i], out, n);
  return bucket_candidates(c, base + c->n_fluents, out, n);
}

uint32_t cc_lazy_moves(dl_circuit *c, uint32_t r, int open, uint32_t *out, uint32_t n)
{
  uint32_t end = role_candidates(c, r, open, out, n);
  for (uint32_t k = n; k < end; k++)
    if (lazy_value(c, c->move_lazy[out[k]])) out[n++] = out[k];
  return n;
}

/* Move m is legal in this state: the "any legal" gates it is an input of
 * hold (a playout draws before it asks terminal, which in chess asks
 * whether the side to move has a legal move: the draw has answered). */
static void holds_legal_move(dl_circuit *c, uint32_t m)
{
  for (uint32_t k = 0; k < c->n_any; k++)
    if (c->any_in[m] >> k & 1) c->lz[c->any_gate[k]] = stamp(c, c->any_gate[k]) | 1;
}

/* Draws from the eager legal moves and the lazy candidates without
 * replacement until a draw is legal: the first legal move of a uniformly
 * random order, so uniform among the legal moves.  In chess a side has
 * about 30 legal moves among 150-200 candidates, and a random playout
 * needs one: it tests about 6 instead of all. */
int cc_lazy_random_move(dl_circuit *c, uint32_t r, int open, uint32_t n_eager, dl_rng *rng, uint32_t *m)
{
  assert(c && c->lazy && r < c->n_roles && rng && m);
  uint32_t *cand = c->lz_cand, nc = role_candidates(c, r, open, cand, 0);
  for (uint32_t left = n_eager + nc; left; left--) {
    uint32_t k = left == 1 ? 0 : dl_rng_below(rng, left);
    if (k < n_eager) {
      *m = cc_legal_at(c, r, k);
      return 1;
    }
    uint32_t x = cand[k - n_eager];
    if (lazy_value(c, c->move_lazy[x])) {
      *m = x;
      holds_legal_move(c, x);
      return 1;
    }
    cand[k - n_eager] = cand[--nc];
  }
  return 0;
}

/* ORs into next the fluents of the next rules filed under key k that hold
 * (a fluent already true needs no rule). */
static void sink_bucket(dl_circuit *c, uint32_t k, uint64_t *next)
{
  for (uint32_t i = c->sk_start[k]; i < c->sk_start[k + 1]; i++) {
    const uint32_t *sk = c->sk_list + SK_WORDS * i;
    uint32_t f = sk[SK_FLUENT], guard = sk[SK_GUARD];
    uint64_t bit = (uint64_t)1 << (f & 63);
    if (next[f >> 6] & bit || (guard != NONE && !eager_holds(c->net, c->cur, guard))) continue;
    if (lazy_value(c, sk[SK_GATE])) next[f >> 6] |= bit;
  }
}

void cc_lazy_next(dl_circuit *c, const uint32_t *joint, uint64_t *next)
{
  if (!c->n_sinks) return;
  if (++c->mepoch >= 0x7fffffffu) restart_stamps(c);
  uint32_t n;
  const uint32_t *fl = true_fluents(c, c->n_roles, &n);
  for (uint32_t i = 0; i < n; i++) sink_bucket(c, fl[i], next);
  for (uint32_t r = 0; r < c->n_roles; r++) sink_bucket(c, c->n_fluents + joint[r], next);
  sink_bucket(c, c->n_fluents + c->n_moves, next);
}
