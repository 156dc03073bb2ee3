/* load.h: reading a program from files: the game or program itself, the
 * optional state (--state) and moves (--does) files, and the rule
 * true(X) :- init(X) (--init).  Parses, normalises and checks; the result is
 * a checked program ready to evaluate. */
#ifndef GDLOG_LOAD_H
#define GDLOG_LOAD_H

#include "datalog/read/ast.h"
#include "datalog/base/diag.h"
#include "datalog/program/facts.h"
#include "datalog/program/program.h"
#include "datalog/base/terms.h"

typedef struct dl_load_options {
  const char *file;         /* the program; "-" is standard input */
  const char *state_file;   /* facts true(t), or bare terms t; may be NULL */
  const char *does_file;    /* facts does(r,a); may be NULL */
  const char *extra_rules;  /* infix rules added as trusted (e.g. "true(X) :- init(X)."); may be NULL */
  int syntax;               /* -1: by extension or sniffed; else an lx_syntax */
  const char *facts_dir;    /* input relations from NAME.facts files (facts.h); may be NULL */
  int take_facts;           /* the program's ground facts become input relations (facts.h), but
                               those of GDL's keywords: for evaluation, not for tools that
                               read the facts as rules */
} dl_load_options;

typedef struct dl_loaded {
  dl_terms *terms;
  ast_program *ast;
  dl_program *prog;         /* NULL when loading failed */
  dl_source *sources[4];
  int n_sources;
  int syntax;               /* the lx_syntax the program (the first source) was read in */
  dl_facts *facts;          /* the input relations: the program's facts (o->take_facts), then
                               those of o->facts_dir; NULL with neither option */
  double parse_seconds, check_seconds;
} dl_loaded;

/* Reads, parses and checks.  Always returns an object to free with
 * dl_load_destroy (NULL only when out of memory); its prog is NULL after
 * errors were reported to diag. */
dl_loaded *dl_load(const dl_load_options *opt, dl_diag *diag);

/* Like dl_load, with the program's text given in memory (text[0..len), any
 * bytes; o->file is only its name for messages and syntax guessing). */
dl_loaded *dl_load_memory(const dl_load_options *o, const char *text, size_t len, dl_diag *diag);

/* Frees the tuples of the input relations (l->facts), once an evaluator's
 * relations hold them; the program's inputs keep their names and arities,
 * with no tuples.  l is not NULL. */
void dl_load_drop_facts(dl_loaded *l);

/* Frees everything loaded; NULL is allowed. */
void dl_load_destroy(dl_loaded *l);

/* Reads a whole file ("-": standard input) into a NUL-terminated source;
 * NULL after reporting an error. */
dl_source *dl_load_source(const char *path, dl_diag *diag);

/* Keeps the first len bytes of src's text (made by dl_load_source), with a
 * zero byte after them: 1, or 0 when out of memory (src is unchanged). */
int dl_load_shorten_source(dl_source *src, uint32_t len);

/* Tells that the first len bytes of src's text (made by dl_load_source)
 * have been read: when the text is a mapping of its file, their pages
 * leave memory, to be read back from the file should a message show them. */
void dl_load_done_reading(const dl_source *src, uint32_t len);

/* Bytes of text read between two calls of dl_load_done_reading by the
 * readers of large inputs. */
enum { DL_LOAD_RELEASE_EVERY = 1 << 20 };

/* lx_position of offset off in src's text (made by dl_load_source): a
 * mapped text is read DL_LOAD_RELEASE_EVERY bytes at a time, each released
 * once counted (dl_load_done_reading), so that a place near the end of a
 * large file brings back at most that much of it into memory. */
void dl_load_position(const dl_source *src, uint32_t off, unsigned *line, unsigned *col);

/* Frees a source made by dl_load_source. */
void dl_load_free_source(dl_source *src);

#endif
