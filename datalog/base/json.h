/* json.h: JSON strings, for the reports written as JSON (ground --stats,
 * reduce, play): names and file names are arbitrary bytes, and the
 * output must stay valid JSON (RFC 8259) whatever they hold. */
#ifndef GDLOG_JSON_H
#define GDLOG_JSON_H

#include <stddef.h>

#include "datalog/base/buf.h"

/* Appends z[0..n) to b as a JSON string, quotes included.  '"' and '\'
 * are escaped with a backslash; the control characters below 0x20 are
 * written \b \t \n \f \r, or \u00XX for the others (NUL is \u0000).
 * Well-formed UTF-8 sequences are copied as they are (DEL too); each byte
 * that is no part of one (a stray continuation byte, a sequence cut
 * short, an overlong form, a surrogate, a code point above U+10FFFF)
 * becomes \ufffd, the replacement character.  So any bytes give valid
 * JSON, and valid UTF-8 text reads back as itself.  z may be NULL when n
 * is 0. */
void dl_json_string(dl_buf *b, const char *z, size_t n);

/* dl_json_string of the NUL-terminated string z. */
void dl_json_stringz(dl_buf *b, const char *z);

#endif
