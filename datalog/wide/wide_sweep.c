/* wide_sweep.c: the gates' evaluation over lane words for any processor,
 * in parts of 16 bytes, and the choice of the fastest sweep the processor
 * runs (see wide_sweep_body.h). */
#define SWEEP_NAME cc_wide_sweep_generic
#define PART_BYTES 16
#include "datalog/wide/wide_sweep_body.h"

cc_sweep_fn *cc_wide_pick_sweep(void)
{
#if defined(GDLOG_SWEEP_AVX2) && (defined(__x86_64__) || defined(__i386__))
  if (__builtin_cpu_supports("avx2")) return cc_wide_sweep_avx2;
#endif
  return cc_wide_sweep_generic;
}
