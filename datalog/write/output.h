/* output.h: writing terms, models and programs as text.  The caller owns the
 * stream; these functions only format. */
#ifndef GDLOG_OUTPUT_H
#define GDLOG_OUTPUT_H

#include <stdio.h>

#include "datalog/base/buf.h"
#include "datalog/base/text.h"
#include "datalog/eval/eval.h"
#include "datalog/program/program.h"

/* Where output goes: write(ctx, data, n) takes n bytes and returns 1, or
 * 0 when it failed. */
typedef struct dl_sink {
  int (*write)(void *ctx, const char *data, size_t n);
  void *ctx;
} dl_sink;

/* Writes every atom of the model of e, one per line, predicates in byte
 * order of their names and each predicate's atoms sorted argument by
 * argument (terms in byte order of their printed form).  Predicates whose
 * entry in skip is non-zero are left out (skip may be NULL).  Returns 1, or 0
 * when out of memory or a write failed. */
int dl_output_model(FILE *out, const dl_program *p, const dl_eval *e, dl_format fmt,
                    const uint8_t *skip);

/* dl_output_model into a sink, in pieces of at most about 1 MiB that each
 * end with a whole line. */
int dl_output_model_to(const dl_sink *out, const dl_program *p, const dl_eval *e, dl_format fmt,
                       const uint8_t *skip);

/* Writes the rules of p (flat, after normalisation) in fmt.  Returns 1, or 0
 * when out of memory or a write failed. */
int dl_output_program(FILE *out, const dl_program *p, dl_format fmt);

/* dl_output_program into a sink, only the rules r with keep[r] non-zero
 * (keep NULL: all). */
int dl_output_rules_to(const dl_sink *out, const dl_program *p, dl_format fmt, const uint8_t *keep);

/* Writes rules[0..n), rules over p's term store that need not be p's own,
 * as dl_output_rules_to writes p's.  Returns 1, or 0 when out of memory or
 * a write failed. */
int dl_output_rule_list_to(const dl_sink *out, const dl_program *p, dl_format fmt, const dl_rule *rules, uint32_t n);

/* The bytes dl_output_rule_list_to would write for rules[0..n), into
 * *bytes.  Returns 1, or 0 when out of memory. */
int dl_output_rule_list_bytes(const dl_program *p, dl_format fmt, const dl_rule *rules, uint32_t n, uint64_t *bytes);

/* The length in bytes of each rule r of p as dl_output_program writes it
 * in fmt, into bytes[r] (bytes has p->ast->n_rules entries).  Returns 1, or
 * 0 when out of memory. */
int dl_output_rule_sizes(const dl_program *p, dl_format fmt, uint64_t *bytes);

#endif
