/* alloc.h: a failing allocator for fault injection.  A program that links
 * alloc.c replaces malloc, calloc, realloc, free and the aligned
 * allocators of the whole process (glibc supports replacing them: the C
 * library's own allocations and those of libJudy go through them too) and
 * forwards to glibc's.  Once armed, it counts allocations, and fails the
 * one numbered fail_at (and, with every_after, every one after it too),
 * returning NULL with errno ENOMEM.  It keeps the number of live blocks,
 * for a leak check, and can record where each allocation came from. */
#ifndef GDLOG_TESTS_OOM_ALLOC_H
#define GDLOG_TESTS_OOM_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* Arms the allocator: counting starts again from 0, allocation number
 * fail_at fails (0: none does), and with every_after each later one too. */
void oom_arm(long fail_at, int every_after);

/* Disarms it: no allocation fails; the count stays readable. */
void oom_disarm(void);

/* Allocations made since oom_arm (failed ones included). */
long oom_count(void);

/* Whether an allocation failed since oom_arm. */
int oom_failed(void);

/* Blocks allocated and not yet freed, over the whole process. */
long oom_live(void);

/* Records, while on, the site of each allocation counted: the innermost
 * caller inside this executable (gdlog's code is linked in statically;
 * the C library and libJudy are skipped, so an allocation in JudyLIns is
 * filed under gdlog's call of it; the executable's symbol table tells
 * them apart, so it must not be stripped).  Sites are offsets from the start of
 * the executable's text, for addr2line. */
void oom_record(int on);

/* The function a site lies in ("?" when unknown). */
const char *oom_site_name(uintptr_t site);

/* The site recorded for allocation i (1-based, i <= oom_count()), or 0
 * when none was recorded. */
uintptr_t oom_site(long i);

#endif
