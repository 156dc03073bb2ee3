/* rng.h: the one pseudo-random generator of gdlog (splitmix64): seeded,
 * so that the same seed gives the same playouts on every backend.  The
 * caller owns the state; inline, as playouts draw one number per move. */
#ifndef GDLOG_RNG_H
#define GDLOG_RNG_H

#include <assert.h>
#include <stdint.h>

typedef struct dl_rng {
  uint64_t s;
} dl_rng;

static inline void dl_rng_seed(dl_rng *rng, uint64_t seed) { rng->s = seed; }

static inline uint64_t dl_rng_next(dl_rng *rng)
{
  uint64_t z = (rng->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, n); n >= 1. */
static inline uint32_t dl_rng_below(dl_rng *rng, uint32_t n)
{
  assert(n >= 1);
  return (uint32_t)(((dl_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

#endif
