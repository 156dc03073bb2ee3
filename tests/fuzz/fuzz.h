/* fuzz.h: the entry point every harness defines, for libFuzzer and for the
 * replay driver (replay.c) that runs saved inputs without libFuzzer. */
#ifndef GDLOG_FUZZ_H
#define GDLOG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Runs one input; returns 0 (libFuzzer's contract).  Crashes are the bugs. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
