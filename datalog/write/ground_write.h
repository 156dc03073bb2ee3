/* ground_write.h: writing a ground game (datalog/ground/ground.h) and its
 * figures.  Formats, one rule or fact per line:
 *  - KIF:    (<= (next (cell 1 1 x)) (does white (mark 1 1)) (not (true (cell 1 1 o))))
 *  - infix:  next(cell(1,1,x)) :- does(white,mark(1,1)) & ~true(cell(1,1,o)).
 *  - ASP:    gringo's syntax, names mangled as dl_output_term does; every
 *            true and does atom is declared #external, so gringo keeps them.
 *  - numeric, for propnet builders (datalog/ground/ground.h):
 *              gdlog-ground 1
 *              atoms N
 *              <id> <role> <atom in KIF>        N lines, ids 1..N
 *              rules M
 *              <head> <n> <lit> ... <lit>       M lines; -id is a negated atom
 * The caller owns the sink; these functions only format. */
#ifndef GDLOG_GROUND_WRITE_H
#define GDLOG_GROUND_WRITE_H

#include "datalog/base/buf.h"
#include "datalog/ground/ground.h"
#include "datalog/program/program.h"
#include "datalog/write/output.h"

typedef enum dl_ground_format {
  DL_GROUND_KIF,
  DL_GROUND_INFIX,
  DL_GROUND_ASP,
  DL_GROUND_NUMERIC
} dl_ground_format;

/* Writes ground game g in fmt to out, in pieces of about 1 MiB.  Returns
 * 1, or 0 when out of memory or a write failed. */
int dl_ground_write(const dl_sink *out, const dl_ground *g, dl_ground_format fmt);

/* dl_ground_write of only the rules i with keep[i] non-zero (keep NULL:
 * all; with a keep, fmt is not NUMERIC). */
int dl_ground_write_rules(const dl_sink *out, const dl_ground *g, dl_ground_format fmt, const uint8_t *keep);

/* The bytes of each rule i of g as KIF (about: a separator more or less)
 * into bytes[i]; bytes has dl_ground_rule_count(g) entries.  Returns 1, or
 * 0 when out of memory. */
int dl_ground_rule_bytes(const dl_ground *g, uint32_t *bytes);

/* Seconds of the phases before grounding, measured by the caller. */
typedef struct dl_ground_phases {
  double parse, domains, reduce;
  size_t peak_bytes;   /* the process's peak resident memory, 0 when unknown */
} dl_ground_phases;

/* Appends the figures of g: per rule of game (the program g was made from)
 * its place, candidates, instances, the ground rules left of them after
 * pruning ("rules": dl_ground_rule_stats.kept, auxiliary rules included)
 * and seconds; the phases; the size of the ground game.  As text (first a
 * line that says what each column counts, the columns as wide as their
 * widest cell), or as one JSON object (json). */
void dl_ground_write_stats(dl_buf *b, const dl_ground *g, const dl_program *game, const dl_ground_phases *ph,
                           int json);

#endif
