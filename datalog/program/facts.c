/* facts.c: relations from data files (see facts.h). */
#include "datalog/program/facts.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/program/load.h"
#include "lexer.h"

static const char suffix[] = ".facts";
enum { SUFFIX_LEN = sizeof suffix - 1 };

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names NAME.facts in dir, sorted, into *names (to free with each
 * name); their number, or -1 after reporting. */
static int list_files(const char *dir, char ***names, dl_diag *diag)
{
  DIR *d = opendir(dir);
  if (!d) {
    dl_diag_report(diag, DL_ERROR, NULL, 0, "cannot read the directory %s: %s", dir, strerror(errno));
    return -1;
  }
  char **v = NULL;
  int n = 0, cap = 0, ok = 1;
  for (struct dirent *de; ok && (de = readdir(d));) {
    size_t len = strlen(de->d_name);
    if (len <= SUFFIX_LEN || strcmp(de->d_name + len - SUFFIX_LEN, suffix) != 0) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      char **q = realloc(v, (size_t)cap * sizeof *q);
      ok = q != NULL;
      if (ok) v = q;
    }
    if (ok) ok = (v[n] = strdup(de->d_name)) != NULL;
    n += ok;
  }
  closedir(d);
  if (ok && n > 1) qsort(v, (size_t)n, sizeof *v, by_name);  /* v is NULL when n is 0 */
  *names = v;
  if (ok) return n;
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
  dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory reading the directory %s", dir);
  return -1;
}

/* Makes room for k more term ids in f's tuples, for want ids in all when
 * that is more than they need and less than twice the room they have (0:
 * no guess); 0 when out of memory. */
static int reserve_for(dl_facts_file *f, uint64_t k, uint64_t want)
{
  if (f->cap - f->used >= k) return 1;
  uint64_t cap = f->cap ? 2 * f->cap : 1024;
  if (want >= f->used + k && want < cap) cap = want;
  while (cap - f->used < k) cap *= 2;
  dl_tid *q = realloc(f->tuples, cap * sizeof *q);
  if (!q) return 0;
  f->tuples = q;
  f->cap = cap;
  return 1;
}

/* Makes room for k more term ids in f's tuples; 0 when out of memory. */
static int reserve(dl_facts_file *f, uint64_t k) { return reserve_for(f, k, 0); }

/* The term ids f's program facts will hold, guessed from those taken in
 * the text before off, as if the rest of the text held them as densely,
 * and a sixteenth more: a program of many facts then holds them in about
 * the room they need, where doubling the room leaves up to half of it
 * unused. */
static uint64_t ids_expected(const dl_facts_file *f, uint32_t off)
{
  if (off <= f->off) return 0;
  uint64_t ids = f->used * (uint64_t)(f->src->len - f->off) / (off - f->off);
  return ids + ids / 16;
}

/* A new empty file for predicate pred, at the end of fs->files; NULL when
 * out of memory. */
static dl_facts_file *add_file(dl_facts *fs, dl_sym pred)
{
  if (fs->n == fs->cap) {
    uint32_t cap = fs->cap ? 2 * fs->cap : 8;
    dl_facts_file *q = realloc(fs->files, cap * sizeof *q);
    if (!q) return NULL;
    fs->files = q;
    fs->cap = cap;
  }
  dl_facts_file *f = &fs->files[fs->n++];
  memset(f, 0, sizeof *f);
  f->pred = pred;
  f->arity = DL_FACTS_ANY_ARITY;
  return f;
}

/* The rows of one file being read. */
typedef struct reader {
  dl_facts_file *f;
  dl_source *src;           /* f's text, whose pages leave memory once read */
  dl_terms *terms;
  dl_diag *diag;
  uint32_t first_row;       /* where the first row starts, for messages */
} reader;

static int out_of_memory(reader *r)
{
  dl_diag_fail(r->diag, DL_CAUSE_NOMEM, "out of memory reading %s", r->f->src->name);
  return 0;
}

/* Appends the constant named z[0..n) to the tuples. */
static int add_column(reader *r, const char *z, size_t n)
{
  dl_facts_file *f = r->f;
  if (!reserve(f, 1)) return out_of_memory(r);
  dl_tid t = dl_terms_constant_named(r->terms, z, n, dl_terms_name_key(z, n));
  if (t == DL_NO_TERM) return out_of_memory(r);
  f->tuples[f->used++] = t;
  return 1;
}

static uint32_t count_columns(const char *z, uint32_t n)
{
  uint32_t cols = 1;
  for (const char *tab; (tab = memchr(z, '\t', n)); n -= (uint32_t)(tab + 1 - z), z = tab + 1) cols++;
  return cols;
}

/* Checks that the row at text[from, to) has as many columns as the first
 * row (which sets the file's arity). */
static int check_width(reader *r, uint32_t from, uint32_t to)
{
  dl_facts_file *f = r->f;
  uint32_t cols = count_columns(f->src->text + from, to - from);
  if (f->arity == DL_FACTS_ANY_ARITY) {
    f->arity = cols;
    r->first_row = from;
  }
  if (cols == f->arity) return 1;
  unsigned line, col;
  lx_position(f->src->text, r->first_row, &line, &col);
  dl_diag_report(r->diag, DL_ERROR, f->src, from, "this row has %u column%s, but the first row (line %u) has %u",
                 cols, cols == 1 ? "" : "s", line, f->arity);
  return 0;
}

/* Reads the row text[from, to) (no line break), column after column. */
static int read_row(reader *r, uint32_t from, uint32_t to)
{
  const char *text = r->f->src->text;
  if (!check_width(r, from, to)) return 0;
  for (uint32_t at = from, col = 1;; col++) {
    const char *tab = memchr(text + at, '\t', to - at);
    uint32_t end = tab ? (uint32_t)(tab - text) : to;
    if (end == at) {
      dl_diag_report(r->diag, DL_ERROR, r->f->src, at, "column %u is empty: each column holds a constant", col);
      return 0;
    }
    if (!add_column(r, text + at, end - at)) return 0;
    if (!tab) break;
    at = end + 1;
  }
  r->f->n++;
  return 1;
}


/* Scans src's text a piece at a time, the pages of each leaving memory
 * after it: sets *ids to the term ids its rows hold at most (its lines
 * times the columns of the first one, as a row that has more is an error),
 * so that the tuples are allocated once.  0 after reporting a NUL byte. */
static int scan_text(reader *r, uint64_t *ids)
{
  dl_source *src = r->src;
  uint64_t lines = 1;
  for (uint32_t at = 0, step; at < src->len; at += step) {
    step = src->len - at < DL_LOAD_RELEASE_EVERY ? src->len - at : DL_LOAD_RELEASE_EVERY;
    const char *z = src->text + at, *end = z + step, *nul = memchr(z, 0, step);
    if (nul) {
      dl_diag_report(r->diag, DL_ERROR, src, (uint32_t)(nul - src->text), "NUL byte: this is not a text file");
      return 0;
    }
    for (; (z = memchr(z, '\n', (size_t)(end - z))); z++) lines++;
    dl_load_done_reading(src, at + step);
  }
  const char *nl = memchr(src->text, '\n', src->len);
  *ids = lines * count_columns(src->text, nl ? (uint32_t)(nl - src->text) : src->len);
  return 1;
}

/* Where the line that starts at src's offset at ends: its line break, or
 * the end of the text. */
static uint32_t line_end(const dl_source *src, uint32_t at)
{
  const char *nl = memchr(src->text + at, '\n', src->len - at);
  return nl ? (uint32_t)(nl - src->text) : src->len;
}

/* Has the term store fetch into the cache the entries of the constants of
 * the row text[from, to), which is read next: over many rows those
 * look-ups miss the cache, and each then overlaps with the row before. */
static void prefetch_row(const reader *r, uint32_t from, uint32_t to)
{
  const char *text = r->f->src->text;
  for (uint32_t at = from, end = from; end <= to; end++)  /* rows are short: no memchr */
    if (end == to || text[end] == '\t') {
      dl_terms_prefetch_constant(r->terms, dl_terms_name_key(text + at, end - at));
      at = end + 1;
    }
}

/* Reads the rows of f's text; empty lines are skipped, a carriage return
 * before a line break is not part of the row. */
static int read_rows(reader *r)
{
  dl_source *src = r->src;
  uint64_t ids;
  if (!scan_text(r, &ids)) return 0;
  if (!reserve(r->f, ids)) return out_of_memory(r);
  uint32_t end = line_end(src, 0);
  for (uint32_t at = 0, done = 0; at < src->len;) {
    uint32_t next = end + 1, next_end = next < src->len ? line_end(src, next) : src->len;
    if (next < next_end) prefetch_row(r, next, next_end);
    uint32_t to = end;
    if (to > at && src->text[to - 1] == '\r') to--;
    if (to > at && !read_row(r, at, to)) return 0;
    at = next;
    end = next_end;
    if (at - done >= DL_LOAD_RELEASE_EVERY) dl_load_done_reading(src, done = at);
  }
  return 1;
}

/* Drops src's text after its first row: what later messages show (an
 * arity that differs from the program's points at the first row). */
static void keep_first_row(dl_source *src)
{
  const char *nl = memchr(src->text, '\n', src->len);
  if (nl) dl_load_shorten_source(src, (uint32_t)(nl - src->text) + 1);  /* else it stays whole */
}

/* Reads dir/name into a new file of fs. */
static int read_file(dl_facts *fs, const char *dir, const char *name, dl_terms *terms, dl_diag *diag)
{
  size_t n = strlen(dir) + strlen(name) + 2;
  char *path = malloc(n);
  dl_sym pred = dl_terms_symbol(terms, name, strlen(name) - SUFFIX_LEN);
  dl_facts_file *f = path && pred != DL_NO_SYM ? add_file(fs, pred) : NULL;
  if (!f) {
    free(path);
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory reading %s", dir);
    return 0;
  }
  snprintf(path, n, "%s/%s", dir, name);
  dl_source *src = dl_load_source(path, diag);
  if (!src) {
    free(path);
    return 0;
  }
  src->name = path;  /* owned from here: dl_facts_destroy frees it */
  f->src = src;
  reader r = { f, src, terms, diag, 0 };
  if (!read_rows(&r)) return 0;
  keep_first_row(src);
  return 1;
}

dl_facts *dl_facts_create(void) { return calloc(1, sizeof(dl_facts)); }

int dl_facts_read(dl_facts *fs, const char *dir, dl_terms *terms, dl_diag *diag)
{
  assert(fs && dir && terms && diag);
  char **names;
  int n = list_files(dir, &names, diag);
  if (n < 0) return 0;
  int ok = 1;
  for (int i = 0; ok && i < n; i++) ok = read_file(fs, dir, names[i], terms, diag);
  if (ok && n == 0) dl_diag_report(diag, DL_WARNING, NULL, 0, "no .facts files in %s", dir);
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  return ok;
}

/* The file of the program's facts of pred, or NULL when it has none yet;
 * the facts come in runs of one predicate, so the last one is tried first. */
static dl_facts_file *program_file(dl_facts *fs, dl_sym pred)
{
  if (fs->last && fs->last_pred == pred) return &fs->files[fs->last - 1];
  PWord_t v = (PWord_t)JudyLGet(fs->of_pred, pred, PJE0);
  if (!v || v == PJERR || *v == 0) return NULL;  /* 0: its file could not be added */
  fs->last = *v;
  fs->last_pred = pred;
  return &fs->files[*v - 1];
}

/* A new file for the program's facts of pred; NULL when out of memory. */
static dl_facts_file *add_program_file(dl_facts *fs, dl_sym pred, uint32_t arity, const dl_source *src, uint32_t off)
{
  PWord_t v = (PWord_t)JudyLIns(&fs->of_pred, pred, PJE0);
  dl_facts_file *f = v != PJERR ? add_file(fs, pred) : NULL;
  if (!f) return NULL;
  *v = fs->n;
  f->arity = arity;
  f->src = src;
  f->off = off;
  f->in_program = 1;
  fs->last = fs->n;
  fs->last_pred = pred;
  return f;
}

int dl_facts_takes(dl_facts *fs, dl_sym pred, uint32_t arity)
{
  assert(fs && arity > 0);
  const dl_facts_file *f = program_file(fs, pred);
  return !f || f->arity == arity;
}

int dl_facts_take(dl_facts *fs, dl_sym pred, uint32_t arity, const dl_tid *args, const dl_source *src, uint32_t off)
{
  assert(fs && args && src && arity > 0);
  dl_facts_file *f = program_file(fs, pred);
  assert(!f || f->arity == arity);
  if (!f && !(f = add_program_file(fs, pred, arity, src, off))) return 0;
  int full = f->cap - f->used < arity;  /* the guess, a division, only when the room is full */
  if (full && !reserve_for(f, arity, f->src == src ? ids_expected(f, off) : 0)) return 0;
  memcpy(f->tuples + f->used, args, arity * sizeof *args);
  f->used += arity;
  f->n++;
  return 1;
}

dl_tid *dl_facts_hand_over(dl_facts *fs, uint32_t i)
{
  assert(fs && i < fs->n);
  dl_facts_file *f = &fs->files[i];
  dl_tid *tuples = f->tuples;
  f->tuples = NULL;
  f->n = f->used = f->cap = 0;
  return tuples;
}

void dl_facts_drop_tuples(dl_facts *fs)
{
  assert(fs);
  for (uint32_t i = 0; i < fs->n; i++) free(dl_facts_hand_over(fs, i));
}

void dl_facts_destroy(dl_facts *fs)
{
  if (!fs) return;
  for (uint32_t i = 0; fs->files && i < fs->n; i++) {
    dl_facts_file *f = &fs->files[i];
    free(f->tuples);
    if (!f->in_program && f->src) free((char *)f->src->name);
    if (!f->in_program) dl_load_free_source((dl_source *)f->src);
  }
  free(fs->files);
  JudyLFreeArray(&fs->of_pred, PJE0);
  free(fs);
}
