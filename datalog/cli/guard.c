/* guard.c: limits, signals and atomic output for the command line (see
 * guard.h).  The handlers use only async-signal-safe calls: write, unlink,
 * alarm, signal, raise, _exit. */
#define _XOPEN_SOURCE 700  /* sigaltstack, SA_ONSTACK */
#define _DEFAULT_SOURCE    /* madvise */
#include "datalog/cli/guard.h"
#include "datalog/base/asan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#endif

enum { GRACE_SECONDS = 2 };  /* after a soft stop, how long the run may take to end */

static volatile sig_atomic_t g_cancel;    /* the signal that asked to stop */
static volatile sig_atomic_t g_soft;      /* signals only set g_cancel */
static volatile sig_atomic_t g_have_tmp;  /* g_tmp names a file to remove */
static char g_tmp[4096];                  /* the temporary output file */
static const char *g_final;               /* where it goes on success */
static char g_timeout_msg[200];
static uint64_t g_memory_mib;

static const char msg_int[] = "gdlog: interrupted\n";
static const char msg_crash[] = "gdlog: internal error: crashed (a stack overflow on a very deep term?); please report it\n";

static void say(const char *s, size_t n)
{
  ssize_t rc = write(STDERR_FILENO, s, n);
  (void)rc;
}

static void hard_stop(int sig)
{
  if (g_have_tmp) unlink(g_tmp);
  g_have_tmp = 0;
  if (sig == SIGSEGV || sig == SIGBUS) {
    say(msg_crash, sizeof msg_crash - 1);
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  if (sig == SIGALRM) say(g_timeout_msg, strlen(g_timeout_msg));
  else say(msg_int, sizeof msg_int - 1);
  _exit(sig == SIGALRM ? 1 : 128 + sig);
}

static void on_signal(int sig)
{
  if (!g_soft || g_cancel || sig == SIGSEGV || sig == SIGBUS) hard_stop(sig);
  g_cancel = sig;
  if (sig == SIGALRM) alarm(GRACE_SECONDS);
}

static void catch_signal(int sig, int flags)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = flags;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

void dl_guard_install(void)
{
  catch_signal(SIGINT, 0);
  catch_signal(SIGTERM, 0);
  catch_signal(SIGALRM, 0);
  if (DL_ASAN) return;  /* ASan handles SIGSEGV itself */
  static char altstack[1 << 16];
  stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
  if (sigaltstack(&ss, NULL) != 0) return;
  catch_signal(SIGSEGV, SA_ONSTACK | SA_RESETHAND);
  catch_signal(SIGBUS, SA_ONSTACK | SA_RESETHAND);
}

uint64_t dl_guard_default_memory(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  return (uint64_t)pages / 4 * 3 * (uint64_t)size >> 20;
}

/* glibc's defaults hand big blocks back to the kernel on free and map fresh
 * ones, zeroed page by page, and a page fault costs some microseconds on a
 * virtual machine: grounding amazons spent a fifth of its time in them, and
 * ticTacToe's grounding a third.  So (a process setting: it lives in the
 * command line, not in the library; embedders choose their own):
 * - blocks up to 32 MiB (glibc's largest threshold) come from the heap,
 *   which keeps what is freed;
 * - the heap grows by 1 GiB at a time, or by a sixteenth of the memory limit
 *   when that is less (address space only: pages come when written);
 * - the kernel is asked for transparent huge pages over that growth (one
 *   fault per 2 MiB; where the system allows them, see
 *   /sys/kernel/mm/transparent_hugepage);
 * - the heap's part below its first 2 MiB boundary, where huge pages cannot
 *   be, is one block that is never used, so that every block lives in huge
 *   pages (when that block cannot be made, that part is mapped in one call).
 * Grounding: hex 0.21 -> 0.12 s, othello 0.35 -> 0.20 s, chess 40 -> 31 s
 * (peak 1.83 -> 1.94 GB).  The heap starts anywhere below that boundary:
 * with its first blocks there, in 4 KiB pages (mapped in one call), the
 * more of a game's memory fell there the slower it ran (breakthrough 8.9
 * to 12.2 ms, ticTacToe's median 4.7 ms against 3.6 ms now). */
#ifdef __GLIBC__
enum { HUGE_PAGE = 2 << 20 };

#if defined(MADV_HUGEPAGE) && !DL_ASAN
/* The block below the heap's first huge page that nothing uses (see above):
 * never freed. */
static void *g_heap_head;
#endif

/* Grows the heap now (by pad), then asks for huge pages over the growth and
 * fills the heap's head (below its first huge page) with g_heap_head;
 * nothing when the heap could not grow. */
static void map_heap_early(uint64_t pad)
{
#if defined(MADV_HUGEPAGE) && !DL_ASAN
  enum { FIRST = 256 << 10 };
  char *p = malloc(FIRST);  /* more than the heap has yet: it grows by pad */
  uintptr_t at = (uintptr_t)p, h = (at + 4095) & ~(uintptr_t)4095;
  free(p);  /* back into the heap's top: the next block starts at p again */
  uintptr_t e = (uintptr_t)sbrk(0) & ~(uintptr_t)4095;
  if (!h || h >= e || e - h > pad + HUGE_PAGE) return;  /* not from the heap (it could not grow) */
  uintptr_t a = (h + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  /* malloc wrote the heap's top after that block: a huge page cannot be
   * where a small one is already (1 run in 10 had 460 more page faults) */
  if (at + FIRST + 16 > a) a += HUGE_PAGE;
  if (a < e) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
  if (a < e && (uintptr_t)(g_heap_head = malloc(a - at)) == at) return;  /* the next block starts at a */
  free(g_heap_head);
  g_heap_head = NULL;
#ifdef MADV_POPULATE_WRITE
  (void)madvise((void *)h, (a < e ? a : e) - h, MADV_POPULATE_WRITE);
#endif
#else
  (void)pad;
#endif
}
#endif

static void tune_malloc(uint64_t limit_mib)
{
#ifdef __GLIBC__
  uint64_t pad = 1024;
  if (limit_mib && limit_mib / 16 < pad) pad = limit_mib / 16;
  if (pad) mallopt(M_MMAP_THRESHOLD, (int)(pad < 32 ? pad : 32) << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, (int)(pad << 20));
  map_heap_early(pad << 20);
#else
  (void)limit_mib;
#endif
}

/* Limits the address space (see dl_guard_set_memory) into g_memory_mib. */
static int set_limit(uint64_t mib)
{
  struct rlimit rl;
  if (mib == 0 || DL_ASAN) return 1;  /* ASan reserves terabytes of address space */
  if (getrlimit(RLIMIT_AS, &rl) != 0) return 0;
  rlim_t want = mib >= (UINT64_MAX >> 21) ? RLIM_INFINITY : (rlim_t)(mib << 20);
  if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max) want = rl.rlim_max;
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) want = rl.rlim_cur;
  rl.rlim_cur = want;
  if (setrlimit(RLIMIT_AS, &rl) != 0) return 0;
  g_memory_mib = want == RLIM_INFINITY ? 0 : (uint64_t)want >> 20;
  return 1;
}

int dl_guard_set_memory(uint64_t mib)
{
  g_memory_mib = 0;
  int ok = set_limit(mib);
  tune_malloc(g_memory_mib);
  return ok;
}

uint64_t dl_guard_memory(void) { return g_memory_mib; }

void dl_guard_set_timeout(double seconds)
{
  if (seconds <= 0) return;
  snprintf(g_timeout_msg, sizeof g_timeout_msg,
           "gdlog: error: stopped at the time limit of %g s; raise it with --timeout SECONDS (0: no limit)\n",
           seconds);
  struct itimerval it;
  memset(&it, 0, sizeof it);
  it.it_value.tv_sec = (time_t)seconds;
  it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
  if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &it, NULL);
}

const char *dl_guard_stop_message(void)
{
  if (g_cancel == SIGALRM) return g_timeout_msg;
  return g_cancel ? msg_int : NULL;
}

volatile sig_atomic_t *dl_guard_cancel_flag(void) { return &g_cancel; }

const dl_stop *dl_guard_stop(void)
{
  static const dl_stop stop = { &g_cancel, NULL, 0 };
  return &stop;
}

int dl_guard_signal(void) { return g_cancel; }

void dl_guard_soft(int on)
{
  g_soft = on;
  if (!on && g_cancel) alarm(0);  /* the stop is being handled: no grace alarm */
}

/* The mode a new output file gets: the old file's, else 0666 less umask. */
static mode_t output_mode(const struct stat *old)
{
  if (old) return old->st_mode & 07777;
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

FILE *dl_guard_open_output(const char *path)
{
  if (!path) return stdout;
  struct stat st;
  int exists = stat(path, &st) == 0;
  g_final = NULL;
  if (exists && !S_ISREG(st.st_mode)) return fopen(path, "w");  /* /dev/null, a pipe: no rename */
  if (strlen(path) + 12 > sizeof g_tmp) { errno = ENAMETOOLONG; return NULL; }
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  snprintf(g_tmp, sizeof g_tmp, "%s.tmpXXXXXX", path);
  int fd = mkstemp(g_tmp);
  g_have_tmp = fd >= 0;
  g_final = path;
  sigprocmask(SIG_SETMASK, &old, NULL);
  FILE *f = fd >= 0 && fchmod(fd, output_mode(exists ? &st : NULL)) == 0 ? fdopen(fd, "w") : NULL;
  if (!f && fd >= 0) {
    int err = errno;
    close(fd);
    dl_guard_close_output(NULL, 0);
    errno = err;
  }
  return f;
}

int dl_guard_close_output(FILE *f, int ok)
{
  if (f == stdout) return fflush(stdout) == 0 && ok;
  if (f && !g_final) return fclose(f) == 0 && ok;
  if (f) ok = fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
  if (f) ok = fclose(f) == 0 && ok;
  int err = errno;
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  if (ok && rename(g_tmp, g_final) != 0) { err = errno; ok = 0; }
  if (!ok) unlink(g_tmp);
  g_have_tmp = 0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  errno = err;
  return ok;
}
