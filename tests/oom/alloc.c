/* alloc.c: the failing allocator of alloc.h.  One thread only: the
 * programs that use it drive gdlog from one thread. */
#define _GNU_SOURCE
#include "tests/oom/alloc.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <execinfo.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);

extern const char __executable_start[];
extern const char etext[];

/* The allocator's own functions live in a section of their own, so that
 * the recorder can skip their frames. */
#define HOOK __attribute__((section("oom_hooks"), noinline))
extern const char __start_oom_hooks[];
extern const char __stop_oom_hooks[];

enum { FRAMES = 24 };

static long count;          /* allocations since oom_arm */
static long fail_at;        /* the one to fail; 0: none */
static int every_after;     /* fail every one after fail_at too */
static int failed;          /* one failed since oom_arm */
static long live;           /* blocks not yet freed */
static int recording;
static int in_hook;         /* inside the recorder: its own allocations pass */
static uintptr_t *sites;    /* sites[i - 1]: the site of allocation i */
static long n_sites, cap_sites;

void oom_arm(long at, int after)
{
  count = 0, fail_at = at, every_after = after, failed = 0;
}

void oom_disarm(void)
{
  fail_at = 0, every_after = 0;
}

long oom_count(void) { return count; }
int oom_failed(void) { return failed; }
long oom_live(void) { return live; }

uintptr_t oom_site(long i)
{
  return i >= 1 && i <= n_sites ? sites[i - 1] : 0;
}

/* The functions of the executable, from its symbol table (static ones
 * too), sorted by address: to tell libJudy's code (linked in when static)
 * from gdlog's, and to name sites. */
typedef struct func {
  uintptr_t start, end;   /* offsets from __executable_start */
  const char *name;       /* in the mapped file */
} func;

static func *funcs;
static size_t n_funcs;

static int compare_func(const void *a, const void *b)
{
  uintptr_t x = ((const func *)a)->start, y = ((const func *)b)->start;
  return (x > y) - (x < y);
}

/* Reads the function symbols of /proc/self/exe (mapped for good). */
static void load_funcs(void)
{
  int fd = open("/proc/self/exe", O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) < 0) return;
  const char *img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (img == MAP_FAILED) return;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB) continue;
    const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
    const char *names = img + sh[sh[i].sh_link].sh_offset;
    size_t n = sh[i].sh_size / sizeof *sym;
    funcs = __libc_malloc(n * sizeof *funcs);
    for (size_t k = 0; funcs && k < n; k++)
      if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && sym[k].st_value)
        funcs[n_funcs++] = (func){ sym[k].st_value, sym[k].st_value + sym[k].st_size, names + sym[k].st_name };
    qsort(funcs, n_funcs, sizeof *funcs, compare_func);
  }
}

const char *oom_site_name(uintptr_t site)
{
  size_t lo = 0, hi = n_funcs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (funcs[mid].start <= site) lo = mid + 1;
    else hi = mid;
  }
  return lo && site < funcs[lo - 1].end ? funcs[lo - 1].name : "?";
}

void oom_record(int on)
{
  if (on && !recording) {  /* backtrace loads libgcc_s at its first call */
    void *frames[FRAMES];
    in_hook = 1;
    backtrace(frames, FRAMES);
    if (!funcs) load_funcs();
    in_hook = 0;
  }
  if (on) n_sites = 0;
  recording = on;
}

/* Whether the code at offset pc is libJudy's. */
static int in_judy(uintptr_t pc)
{
  const char *f = oom_site_name(pc);
  return strncmp(f, "j__udy", 6) == 0 || strncmp(f, "Judy", 4) == 0;
}

/* The innermost caller inside the executable, outside the allocator and
 * libJudy. */
HOOK static uintptr_t site_of_caller(void)
{
  void *frames[FRAMES];
  int n = backtrace(frames, FRAMES);
  for (int k = 0; k < n; k++) {
    const char *pc = frames[k];
    if (pc >= __start_oom_hooks && pc < __stop_oom_hooks) continue;
    if (pc >= __executable_start && pc < etext && !in_judy((uintptr_t)(pc - __executable_start)))
      return (uintptr_t)(pc - __executable_start);
  }
  return 0;
}

HOOK static void record_site(void)
{
  in_hook = 1;
  if (n_sites == cap_sites) {
    long cap = cap_sites ? 2 * cap_sites : 4096;
    uintptr_t *a = __libc_realloc(sites, (size_t)cap * sizeof *a);
    if (!a) abort();
    sites = a, cap_sites = cap;
  }
  while (n_sites < count - 1) sites[n_sites++] = 0;  /* counted before recording */
  sites[n_sites++] = site_of_caller();
  in_hook = 0;
}

/* Counts an allocation; 1 when it must fail. */
HOOK static int must_fail(void)
{
  if (in_hook) return 0;
  count++;
  if (recording) record_site();
  int fail = fail_at && (count == fail_at || (every_after && count > fail_at));
  if (fail) failed = 1, errno = ENOMEM;
  return fail;
}

HOOK static void *counted(void *p)
{
  if (p) live++;
  return p;
}

HOOK void *malloc(size_t n)
{
  return must_fail() ? NULL : counted(__libc_malloc(n));
}

HOOK void *calloc(size_t n, size_t size)
{
  return must_fail() ? NULL : counted(__libc_calloc(n, size));
}

HOOK void *realloc(void *p, size_t n)
{
  if (!p) return malloc(n);
  if (n == 0) {
    free(p);
    return NULL;
  }
  return must_fail() ? NULL : __libc_realloc(p, n);
}

HOOK void free(void *p)
{
  if (p) live--;
  __libc_free(p);
}

HOOK void *memalign(size_t align, size_t n)
{
  return must_fail() ? NULL : counted(__libc_memalign(align, n));
}

HOOK void *aligned_alloc(size_t align, size_t n)
{
  return memalign(align, n);
}

HOOK int posix_memalign(void **p, size_t align, size_t n)
{
  void *q = memalign(align, n);
  if (!q) return ENOMEM;
  *p = q;
  return 0;
}

HOOK void *valloc(size_t n)
{
  return memalign(4096, n);
}

HOOK void *pvalloc(size_t n)
{
  return memalign(4096, (n + 4095) & ~(size_t)4095);
}
