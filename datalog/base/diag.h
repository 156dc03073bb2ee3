/* diag.h: the diagnostics object.  Library code never prints or exits: it
 * records errors, warnings and notes here, each with a source place, and the
 * command line renders them as `file:line:col: error: text`, the source line
 * and a caret. */
#ifndef GDLOG_DIAG_H
#define GDLOG_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A text being read: it must outlive every message that points into it. */
typedef struct dl_source {
  const char *name;  /* file name as the user gave it, "<stdin>" for - */
  const char *text;  /* bytes; text[len] == 0 */
  uint32_t len;
} dl_source;

typedef enum dl_severity { DL_ERROR, DL_WARNING, DL_NOTE } dl_severity;

/* What an error says about its cause, for callers that map errors to a
 * status (the API, the machine, the command line's memory note): the input
 * is wrong (the default), memory ran out, a limit was reached (atoms,
 * instances, the size of a circuit), or the caller asked to stop (a
 * signal, an interrupt, a deadline). */
typedef enum dl_cause { DL_CAUSE_INPUT = 0, DL_CAUSE_NOMEM, DL_CAUSE_LIMIT, DL_CAUSE_STOP } dl_cause;

typedef struct dl_message {
  dl_severity severity;
  dl_cause cause;        /* errors only; DL_CAUSE_INPUT for the rest */
  const dl_source *src;  /* NULL: the message has no place */
  uint32_t off;          /* byte offset of the place in src->text */
  char *text;            /* the message, without place or severity */
} dl_message;

typedef struct dl_diag dl_diag;

/* Creates an empty diagnostics object; NULL when out of memory. */
dl_diag *dl_diag_create(void);

/* Frees the object and its messages; NULL is allowed. */
void dl_diag_destroy(dl_diag *d);

/* Records a message at src/off (src may be NULL); printf-style text. */
void dl_diag_report(dl_diag *d, dl_severity sev, const dl_source *src,
                    uint32_t off, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Same, with a va_list. */
void dl_diag_vreport(dl_diag *d, dl_severity sev, const dl_source *src,
                     uint32_t off, const char *fmt, va_list ap);

/* Records an error without a place whose cause is `cause`; printf-style
 * text. */
void dl_diag_fail(dl_diag *d, dl_cause cause, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The cause of the last error reported to d, kept or not (even when
 * there was no memory left to keep its text); DL_CAUSE_INPUT when d has
 * no error. */
dl_cause dl_diag_last_cause(const dl_diag *d);

/* Appends the messages kept in src to dst (their sources must outlive
 * dst's use of them), as if reported to dst. */
void dl_diag_append(dl_diag *dst, const dl_diag *src);

/* Drops every message of d and zeroes its counts: d is as new. */
void dl_diag_clear(dl_diag *d);

/* Number of messages kept: at most DL_DIAG_MAX_KEPT errors and as many
 * warnings, each with its notes (a note without a message before it goes
 * with the warnings); the rest are counted. */
size_t dl_diag_count(const dl_diag *d);

/* Number of errors reported, kept or not. */
size_t dl_diag_errors(const dl_diag *d);

/* Number of warnings reported, kept or not. */
size_t dl_diag_warnings(const dl_diag *d);

/* The i-th message kept, i < dl_diag_count(d). */
const dl_message *dl_diag_message(const dl_diag *d, size_t i);

/* Renders a message as text: "file:line:col: error: text\n", then the source
 * line and a caret line when it has a place.  Returns a malloc'd string the
 * caller frees, NULL when out of memory. */
char *dl_diag_render(const dl_message *m);

enum { DL_DIAG_MAX_KEPT = 50 };

#endif
