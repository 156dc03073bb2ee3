/* wide_sweep_avx2.c: the gates' evaluation over lane words with AVX2, one
 * 32-byte operation per word (see wide_sweep_body.h).  Built with -mavx2
 * where the compiler targets x86; called only where the processor has AVX2
 * (cc_wide_pick_sweep). */
#define SWEEP_NAME cc_wide_sweep_avx2
#define PART_BYTES 32
#include "datalog/wide/wide_sweep_body.h"
