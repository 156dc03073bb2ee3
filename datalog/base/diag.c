/* diag.c: the diagnostics object (see diag.h). */
#include "datalog/base/diag.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

struct dl_diag {
  dl_message msgs[2 * DL_DIAG_MAX_KEPT];
  size_t n_kept;
  size_t n_errors, n_warnings;
  size_t kept_errors, kept_others;  /* kept in each pool, notes with their message */
  int last_pool;                    /* pool of the last message: 0 errors, 1 others, -1 dropped */
  dl_cause last_cause;              /* of the last error, kept or not */
};

/* The text of a message whose own text found no memory: what is true of
 * it then. */
static const char nomem_text[] = "out of memory";

static void free_texts(dl_diag *d)
{
  for (size_t i = 0; i < d->n_kept; i++)
    if (d->msgs[i].text != nomem_text) free(d->msgs[i].text);
}

dl_diag *dl_diag_create(void)
{
  dl_diag *d = calloc(1, sizeof(dl_diag));
  if (d) d->last_pool = 1;
  return d;
}

void dl_diag_destroy(dl_diag *d)
{
  if (!d) return;
  free_texts(d);
  free(d);
}

/* Counts a message of text and keeps it when its pool has room. */
static void add(dl_diag *d, dl_severity sev, dl_cause cause, const dl_source *src, uint32_t off, const char *text)
{
  assert(!src || off <= src->len);
  assert(sev == DL_ERROR || cause == DL_CAUSE_INPUT);
  if (sev == DL_ERROR) d->n_errors++, d->last_cause = cause;
  if (sev == DL_WARNING) d->n_warnings++;
  /* Errors and warnings fill pools of their own, so that many warnings never
   * crowd out an error; a note goes with the message it belongs to. */
  int pool = sev == DL_ERROR ? 0 : sev == DL_WARNING ? 1 : d->last_pool;
  size_t *kept = pool == 0 ? &d->kept_errors : &d->kept_others;
  if (pool < 0 || *kept == DL_DIAG_MAX_KEPT) {
    d->last_pool = -1;
    return;
  }
  d->last_pool = pool;
  (*kept)++;
  dl_message *m = &d->msgs[d->n_kept];
  m->text = strdup(text);
  if (!m->text) m->text = (char *)nomem_text;  /* never written, never freed */
  m->severity = sev;
  m->cause = cause;
  m->src = src;
  m->off = src && off > src->len ? src->len : off;
  d->n_kept++;
}

/* dl_diag_vreport with a cause (errors only). */
static void report(dl_diag *d, dl_severity sev, dl_cause cause, const dl_source *src, uint32_t off, const char *fmt,
                   va_list ap)
{
  assert(d && fmt);
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  add(d, sev, cause, src, off, buf);
}

void dl_diag_vreport(dl_diag *d, dl_severity sev, const dl_source *src,
                     uint32_t off, const char *fmt, va_list ap)
{
  report(d, sev, DL_CAUSE_INPUT, src, off, fmt, ap);
}

void dl_diag_report(dl_diag *d, dl_severity sev, const dl_source *src,
                    uint32_t off, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(d, sev, DL_CAUSE_INPUT, src, off, fmt, ap);
  va_end(ap);
}

void dl_diag_fail(dl_diag *d, dl_cause cause, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(d, DL_ERROR, cause, NULL, 0, fmt, ap);
  va_end(ap);
}

dl_cause dl_diag_last_cause(const dl_diag *d)
{
  assert(d);
  return d->last_cause;
}

void dl_diag_append(dl_diag *dst, const dl_diag *src)
{
  assert(dst && src && dst != src);
  for (size_t i = 0; i < src->n_kept; i++) {
    const dl_message *m = &src->msgs[i];
    add(dst, m->severity, m->cause, m->src, m->off, m->text);
  }
  if (src->n_errors) dst->last_cause = src->last_cause;
}

void dl_diag_clear(dl_diag *d)
{
  assert(d);
  free_texts(d);
  memset(d, 0, sizeof *d);
  d->last_pool = 1;
}

size_t dl_diag_count(const dl_diag *d) { return d->n_kept; }
size_t dl_diag_errors(const dl_diag *d) { return d->n_errors; }
size_t dl_diag_warnings(const dl_diag *d) { return d->n_warnings; }
const dl_message *dl_diag_message(const dl_diag *d, size_t i)
{
  assert(i < d->n_kept);
  return &d->msgs[i];
}

static const char *severity_name(dl_severity s)
{
  return s == DL_ERROR ? "error" : s == DL_WARNING ? "warning" : "note";
}

/* Appends the source line around off and a caret under off.  Non-printable
 * bytes are shown as '?', and a long line is cut around the caret, with
 * "..." where it was cut. */
static size_t render_excerpt(char *out, size_t cap, const dl_source *src, uint32_t off)
{
  uint32_t start = off, end = off;
  while (start > 0 && src->text[start - 1] != '\n' && src->text[start - 1] != '\r') start--;
  while (end < src->len && src->text[end] != '\n' && src->text[end] != '\r') end++;
  int cut_left = off - start > 100, cut_right;
  if (cut_left) start = off - 60;
  cut_right = end - start > 160;
  if (cut_right) end = start + 160;
  size_t n = (size_t)snprintf(out, cap, " %s", cut_left ? "..." : "");
  for (uint32_t i = start; i < end && n + 2 < cap; i++) {
    unsigned char c = (unsigned char)src->text[i];
    out[n++] = (c == '\t') ? ' ' : (c < 32 || c > 126) ? '?' : (char)c;
  }
  n += (size_t)snprintf(out + n, cap - n, "%s\n %s", cut_right ? "..." : "", cut_left ? "   " : "");
  for (uint32_t i = start; i < off && n + 2 < cap; i++) out[n++] = ' ';
  n += (size_t)snprintf(out + n, cap - n, "^\n");
  return n;
}

char *dl_diag_render(const dl_message *m)
{
  assert(m && m->text);
  size_t cap = strlen(m->text) + 1024;
  char *out = malloc(cap);
  if (!out) return NULL;
  size_t n;
  if (m->src) {
    unsigned line, col;
    lx_position(m->src->text, m->off, &line, &col);
    n = (size_t)snprintf(out, cap, "%s:%u:%u: %s: %s\n", m->src->name, line, col,
                         severity_name(m->severity), m->text);
    if (n < cap) render_excerpt(out + n, cap - n, m->src, m->off);
  } else {
    snprintf(out, cap, "gdlog: %s: %s\n", severity_name(m->severity), m->text);
  }
  return out;
}
