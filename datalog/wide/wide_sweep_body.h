/* wide_sweep_body.h: the gates' evaluation over lane words (see
 * circuit_wide_impl.h), written once and compiled twice: by
 * wide_sweep.c for any processor, in parts of 16 bytes (SSE2 on x86-64,
 * NEON on ARM), and by wide_sweep_avx2.c with AVX2, in one part of 32
 * bytes.  The includer defines SWEEP_NAME (the function's name) and
 * PART_BYTES (16 or 32).  Private to those two files. */
#include "datalog/wide/circuit_wide_impl.h"

typedef uint64_t part __attribute__((vector_size(PART_BYTES)));
enum { PARTS = sizeof(lane_word) / PART_BYTES };

/* A lane word as the parts the processor operates on; the same bytes. */
typedef struct word {
  part p[PARTS];
} word;

#define INLINE static inline __attribute__((always_inline))
#define EACH(i) for (int i = 0; i < PARTS; i++)

INLINE word w_zero(void)
{
  word r;
  EACH(i) r.p[i] = (part){ 0 };
  return r;
}
INLINE word w_ones(void)
{
  word r;
  EACH(i) r.p[i] = ~(part){ 0 };
  return r;
}
INLINE word w_and(word a, word b)
{
  EACH(i) a.p[i] &= b.p[i];
  return a;
}
INLINE word w_or(word a, word b)
{
  EACH(i) a.p[i] |= b.p[i];
  return a;
}
INLINE word w_andnot(word a, word b)  /* a and not b */
{
  EACH(i) a.p[i] &= ~b.p[i];
  return a;
}
INLINE word w_ornot(word a, word b)  /* a or not b */
{
  EACH(i) a.p[i] |= ~b.p[i];
  return a;
}
INLINE int w_differ(word a, word b)
{
  part d = a.p[0] ^ b.p[0];
  for (int i = 1; i < PARTS; i++) d |= a.p[i] ^ b.p[i];
  uint64_t any = 0;
  for (unsigned j = 0; j < PART_BYTES / 8; j++) any |= d[j];
  return any != 0;
}

/* The input x (gate << 1 | negated) of an at-least gate. */
INLINE word w_wire(const word *v, uint32_t x) { return x & 1 ? w_andnot(w_ones(), v[x >> 1]) : v[x >> 1]; }

/* The lanes where at least need of the n inputs hold (counted bit-sliced:
 * count[j] holds where j of those seen so far hold). */
INLINE word at_least(word *count, uint32_t need, const word *v, const uint32_t *in, uint32_t n)
{
  count[0] = w_ones();
  for (uint32_t j = 1; j <= need; j++) count[j] = w_zero();
  for (uint32_t i = 0; i < n; i++) {
    word x = w_wire(v, in[i]);
    for (uint32_t j = need; j >= 1; j--) count[j] = w_or(count[j], w_and(count[j - 1], x));
  }
  return count[need];
}

/* Evaluates the gate record r (no block); returns its length. */
INLINE uint32_t eval_record(word *v, word *count, const uint32_t *r)
{
  uint32_t op = r[0] >> 28, g = r[0] & GATE_MASK, np = r[1], nn = r[2];
  const uint32_t *in = r + 3;
  if (op == OP_THR) {
    v[g] = at_least(count, nn, v, in, np);  /* np: inputs, nn: the true ones needed */
    return 3 + np;
  }
  const uint32_t *neg = in + np;
  word all = w_ones(), any = w_zero();
  if (op == OP_AND) {
    for (uint32_t i = 0; i < np; i++) all = w_and(all, v[in[i]]);
    for (uint32_t i = 0; i < nn; i++) any = w_or(any, v[neg[i]]);
    v[g] = w_andnot(all, any);
  } else {
    for (uint32_t i = 0; i < np; i++) any = w_or(any, v[in[i]]);
    for (uint32_t i = 0; i < nn; i++) all = w_and(all, v[neg[i]]);
    v[g] = w_ornot(any, all);
  }
  return 3 + np + nn;
}

/* A block's least fixpoint: its members from all false, evaluated in turn
 * until none changes (monotone: the wires inside are positive). */
static void eval_block(word *v, word *count, const uint32_t *r)
{
  const uint32_t *m = r + 2, *end = m + r[1];
  for (const uint32_t *q = m; q < end; q += record_len(q)) v[q[0] & GATE_MASK] = w_zero();
  for (int changed = 1; changed;) {
    changed = 0;
    for (const uint32_t *q = m; q < end;) {
      uint32_t g = q[0] & GATE_MASK;
      word before = v[g];
      q += eval_record(v, count, q);
      changed |= w_differ(before, v[g]);
    }
  }
}

/* A run of k ANDs of np positive and nn negated inputs at q; its length. */
static uint32_t and_run(word *v, const uint32_t *q, uint32_t k, uint32_t np, uint32_t nn)
{
  uint32_t len = k * (1 + np + nn);
  const uint32_t *end = q + len;
  if (np == 1 && nn == 1)
    for (; q < end; q += 3) v[q[0]] = w_andnot(v[q[1]], v[q[2]]);
  else if (np == 1 && nn == 2)
    for (; q < end; q += 4) v[q[0]] = w_andnot(v[q[1]], w_or(v[q[2]], v[q[3]]));
  else if (np == 1 && nn == 3)
    for (; q < end; q += 5) v[q[0]] = w_andnot(v[q[1]], w_or(w_or(v[q[2]], v[q[3]]), v[q[4]]));
  else if (np == 2 && nn == 0)
    for (; q < end; q += 3) v[q[0]] = w_and(v[q[1]], v[q[2]]);
  else
    for (; q < end; q += 1 + np + nn) {
      word all = w_ones(), any = w_zero();
      for (uint32_t i = 1; i <= np; i++) all = w_and(all, v[q[i]]);
      for (uint32_t i = np + 1; i <= np + nn; i++) any = w_or(any, v[q[i]]);
      v[q[0]] = w_andnot(all, any);
    }
  return len;
}

/* A run of k ORs of np positive and nn negated inputs at q; its length. */
static uint32_t or_run(word *v, const uint32_t *q, uint32_t k, uint32_t np, uint32_t nn)
{
  uint32_t len = k * (1 + np + nn);
  const uint32_t *end = q + len;
  if (np == 2 && nn == 0)
    for (; q < end; q += 3) v[q[0]] = w_or(v[q[1]], v[q[2]]);
  else if (np == 3 && nn == 0)
    for (; q < end; q += 4) v[q[0]] = w_or(w_or(v[q[1]], v[q[2]]), v[q[3]]);
  else if (np == 4 && nn == 0)
    for (; q < end; q += 5) v[q[0]] = w_or(w_or(v[q[1]], v[q[2]]), w_or(v[q[3]], v[q[4]]));
  else
    for (; q < end; q += 1 + np + nn) {
      word any = w_zero(), all = w_ones();
      for (uint32_t i = 1; i <= np; i++) any = w_or(any, v[q[i]]);
      for (uint32_t i = np + 1; i <= np + nn; i++) all = w_and(all, v[q[i]]);
      v[q[0]] = w_ornot(any, all);
    }
  return len;
}

void SWEEP_NAME(const uint32_t *code, uint32_t from, uint32_t to, lane_word *values, lane_word *counts)
{
  word *v = (word *)values, *count = (word *)counts;
  for (uint32_t p = from; p < to;) {
    const uint32_t *r = code + p;
    uint32_t k = r[0] & GATE_MASK;
    switch (r[0] >> 28) {
    case OP_AND: p += 3 + and_run(v, r + 3, k, r[1], r[2]); break;
    case OP_OR: p += 3 + or_run(v, r + 3, k, r[1], r[2]); break;
    case OP_THR:
      for (p++; k--;) p += eval_record(v, count, code + p);
      break;
    default:
      eval_block(v, count, r);
      p += 2 + r[1];
      break;
    }
  }
}
