/* grow.c: arrays that grow large (see grow.h). */
#define _GNU_SOURCE /* mremap */
#include "datalog/base/grow.h"
#include "datalog/base/asan.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What precedes an array: its room and how it is held. */
typedef struct head {
  size_t len;     /* bytes of the block or the mapping, this head included */
  size_t mapped;  /* 1: a mapping, 0: a malloc block */
} head;

enum { HEAD = 16 };  /* the head's size, which keeps the array 16-byte aligned */

/* Mappings from this size ask for huge pages: one fault and one TLB entry
 * per 2 MiB, where a smaller array would keep up to 2 MiB more resident
 * than it wrote. */
#define HUGE_FROM ((size_t)32 << 20)
_Static_assert(sizeof(head) <= HEAD, "the head fits its room");

static head *head_of(void *p) { return (head *)((char *)p - HEAD); }

static size_t page_round(size_t n)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (n + page - 1) / page * page;
}

/* A new mapping of len bytes; NULL when out of memory. */
static head *map_new(size_t len)
{
  void *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return q == MAP_FAILED ? NULL : q;
}

/* h moved into a block of len bytes of the other kind (mapped or not),
 * keeping its first keep bytes; NULL when out of memory (h unchanged). */
static head *move(head *h, size_t len, int mapped, size_t keep)
{
  head *q = mapped ? map_new(len) : malloc(len);
  if (!q) return NULL;
  if (h) {
    memcpy(q, h, keep);
    if (h->mapped) munmap(h, h->len);
    else free(h);
  }
  return q;
}

void *dl_grow_to(void *p, size_t bytes)
{
  assert(bytes > 0);
  if (bytes > (size_t)-1 / 2) return NULL;
  head *h = p ? head_of(p) : NULL;
  size_t want = bytes + HEAD;
  int mapped = !DL_ASAN && want >= DL_GROW_MAPPED;
  size_t len = mapped ? page_round(want) : want;
  size_t keep = h ? (h->len < len ? h->len : len) : 0;
  head *q;
  if (h && h->mapped && mapped) {
    q = mremap(h, h->len, len, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) q = NULL;
  } else if (h && !h->mapped && !mapped) {
    q = realloc(h, len);
  } else {
    q = move(h, len, mapped, keep);
  }
  if (!q) return NULL;
#ifdef MADV_HUGEPAGE
  if (mapped && len >= HUGE_FROM) (void)madvise(q, len, MADV_HUGEPAGE);
#endif
  q->len = len;
  q->mapped = (size_t)mapped;
  return (char *)q + HEAD;
}

void dl_grow_free(void *p)
{
  if (!p) return;
  head *h = head_of(p);
  if (h->mapped) munmap(h, h->len);
  else free(h);
}
