/* grow.h: arrays that grow large (the term store's).  Such an array is a
 * malloc block while small; from DL_GROW_MAPPED bytes on it is a mapping
 * of its own, which mremap grows or shrinks without copying it and without
 * leaving the old block behind.  A program that keeps freed memory in its
 * heap (the command line does, for speed: see cli/guard.c) would otherwise
 * keep every size an array had on its way up resident, about as much again
 * as the array.  Mappings of 32 MiB and more ask for huge pages where the
 * system allows them.  Under AddressSanitizer every array stays a malloc block, so that
 * its bounds are checked. */
#ifndef GDLOG_GROW_H
#define GDLOG_GROW_H

#include <stddef.h>

enum { DL_GROW_MAPPED = 1 << 20 };

/* The array p (from dl_grow_to, or NULL for a new one) with room for bytes
 * (> 0) bytes, its first bytes kept up to the smaller of its old and new
 * room; the bytes past the old room are undefined.  NULL when out of
 * memory, and p is then unchanged. */
void *dl_grow_to(void *p, size_t bytes);

/* Frees an array from dl_grow_to; NULL is allowed. */
void dl_grow_free(void *p);

#endif
