/* load.c: files to a checked program (see load.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_WILLNEED */
#include "datalog/program/load.h"
#include "datalog/base/clock.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datalog/read/normalize.h"
#include "datalog/read/parse.h"
#include "lexer.h"


/* A source of this file, and how its text is held: malloc'd, or a
 * mapping of the file (mapped bytes, 0 when malloc'd). */
typedef struct held_source {
  dl_source src;
  size_t mapped;
} held_source;

enum { MAP_AT_LEAST = 1 << 20 };  /* files from this size are mapped */

/* Maps the regular file fd of len bytes, with a zero byte after it: the
 * pages past the file's last one are anonymous, so zero.  Large inputs are
 * read without copying them or clearing pages for them (a file cut short
 * by another program while gdlog reads it would fault, as it would for
 * any program that maps its input).  NULL when it cannot be mapped (the
 * caller reads it). */
static char *map_file(int fd, size_t len, size_t *mapped)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE), size = (len + 1 + page - 1) / page * page;
  char *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  if (mmap(p, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
    munmap(p, size);
    return NULL;
  }
  madvise(p, len, MADV_WILLNEED);  /* read ahead, but pages count only once read (see dl_load_done_reading) */
  *mapped = size;
  return p;
}

/* The text of f mapped (map_file) when f is a regular file of
 * MAP_AT_LEAST bytes up to 2 GiB, its length in *len; NULL otherwise (the
 * caller reads it). */
static char *map_large(FILE *f, size_t *len, size_t *mapped)
{
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < MAP_AT_LEAST ||
      (uint64_t)st.st_size >= ((uint64_t)1 << 31))
    return NULL;
  char *text = map_file(fileno(f), (size_t)st.st_size, mapped);
  if (text) *len = (size_t)st.st_size;
  return text;
}

/* Reads f to its end into a malloc'd text with a zero byte after it;
 * NULL with *err (0: out of memory) or *too_large set. */
static char *read_all(FILE *f, size_t *len, int *err, int *too_large)
{
  size_t cap = 1 << 16, got;
  char *text = malloc(cap);
  *len = 0;
  while (text && (got = fread(text + *len, 1, cap - *len - 1, f)) > 0) {
    *len += got;
    if (*len + 1 < cap) continue;
    *too_large = cap >= ((size_t)1 << 31);
    char *q = *too_large ? NULL : realloc(text, cap * 2);
    if (!q) { free(text); text = NULL; break; }
    text = q;
    cap *= 2;
  }
  *err = ferror(f) ? errno : 0;
  if (text && *err) { free(text); text = NULL; }
  if (text) text[*len] = 0;
  return text;
}

dl_source *dl_load_source(const char *path, dl_diag *diag)
{
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    dl_diag_report(diag, DL_ERROR, NULL, 0, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  held_source *h = calloc(1, sizeof *h);
  size_t len = 0;
  int err = 0, too_large = 0;
  char *text = h && !is_stdin ? map_large(f, &len, &h->mapped) : NULL;
  if (h && !text) text = read_all(f, &len, &err, &too_large);
  if (!is_stdin) fclose(f);
  if (!h || !text) {
    free(h);
    int nomem = !too_large && (!err || err == ENOMEM);
    dl_diag_fail(diag, nomem ? DL_CAUSE_NOMEM : DL_CAUSE_INPUT, "cannot read %s: %s", path,
                 too_large ? "larger than 2 GiB" : err ? strerror(err) : "out of memory");
    return NULL;
  }
  h->src.name = is_stdin ? "<stdin>" : path;
  h->src.text = text;
  h->src.len = (uint32_t)len;
  return &h->src;
}

int dl_load_shorten_source(dl_source *src, uint32_t len)
{
  assert(src && len <= src->len);
  held_source *h = (held_source *)src;
  char *q = h->mapped ? malloc(len + 1) : realloc((char *)src->text, len + 1);
  if (!q) return 0;
  if (h->mapped) {
    memcpy(q, src->text, len);
    munmap((char *)src->text, h->mapped);
    h->mapped = 0;
  }
  q[len] = 0;
  src->text = q;
  src->len = len;
  return 1;
}

void dl_load_done_reading(const dl_source *src, uint32_t len)
{
  assert(src && len <= src->len);
  const held_source *h = (const held_source *)src;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  if (h->mapped && len >= page) madvise((char *)src->text, len / page * page, MADV_DONTNEED);
}

void dl_load_position(const dl_source *src, uint32_t off, unsigned *line, unsigned *col)
{
  assert(src && off <= src->len && line && col);
  const held_source *h = (const held_source *)src;
  uint32_t at = 0;
  *line = *col = 1;
  while (h->mapped && off - at > DL_LOAD_RELEASE_EVERY) {
    uint32_t to = at + DL_LOAD_RELEASE_EVERY;
    to += src->text[to - 1] == '\r' && src->text[to] == '\n';  /* not between CR and LF */
    lx_advance_position(src->text, at, to, line, col);
    dl_load_done_reading(src, at = to);
  }
  lx_advance_position(src->text, at, off, line, col);
}

void dl_load_free_source(dl_source *src)
{
  if (!src) return;
  held_source *h = (held_source *)src;
  if (h->mapped) munmap((char *)src->text, h->mapped);
  else free((char *)src->text);
  free(h);
}

/* Parses src into l->ast; clauses from gdlog's own inputs are trusted. */
static int parse_source(dl_loaded *l, dl_source *src, lx_syntax syntax, int trusted, dl_diag *diag)
{
  if (l->n_sources == 0) l->syntax = (int)syntax;
  l->sources[l->n_sources++] = src;
  uint32_t first = l->ast->n_clauses;
  if (!dl_parse(l->ast, l->terms, src, syntax, diag)) return 0;
  for (uint32_t i = first; i < l->ast->n_clauses; i++) l->ast->clauses[i]->trusted = (uint8_t)trusted;
  return 1;
}

static int parse_file(dl_loaded *l, const char *path, int syntax, int trusted, dl_diag *diag)
{
  dl_source *src = dl_load_source(path, diag);
  if (!src) return 0;
  lx_syntax syn = syntax >= 0 ? (lx_syntax)syntax : dl_parse_guess_syntax(path, src->text, src->len);
  return parse_source(l, src, syn, trusted, diag);
}

/* A source holding a copy of text[0..len) under name. */
static dl_source *copy_source(const char *name, const char *text, size_t len)
{
  held_source *h = calloc(1, sizeof *h);
  char *copy = malloc(len + 1);
  if (!h || !copy) { free(h); free(copy); return NULL; }
  if (len) memcpy(copy, text, len);
  copy[len] = 0;
  h->src.name = name;
  h->src.text = copy;
  h->src.len = (uint32_t)len;
  return &h->src;
}

static int parse_text(dl_loaded *l, const char *name, const char *text, dl_diag *diag)
{
  dl_source *src = copy_source(name, text, strlen(text));
  return src && parse_source(l, src, LX_INFIX, 1, diag);
}

static dl_sym symbol(dl_loaded *l, const char *name)
{
  return dl_terms_symbol(l->terms, name, strlen(name));
}

/* Checks that clauses [first, n) are ground facts of `pred`; with wrap, a
 * fact next(t) (a line of a model) becomes pred(t), and a fact of any other
 * name t becomes pred(t). */
static int fix_facts(dl_loaded *l, uint32_t first, const char *pred, int wrap, const char *option, dl_diag *diag)
{
  dl_sym want = symbol(l, pred), next = symbol(l, "next");
  for (uint32_t i = first; i < l->ast->n_clauses; i++) {
    ast_clause *c = l->ast->clauses[i];
    if (c->n_body || c->n_vars) {
      dl_diag_report(diag, DL_ERROR, c->src, c->off, "%s files hold ground facts only", option);
      return 0;
    }
    if (c->head->value == want) continue;
    if (wrap && c->head->value == next && ast_atom_arity(c->head) == 1) c->head = c->head->args[0];
    if (!wrap) {
      dl_diag_report(diag, DL_ERROR, c->src, c->off, "%s files hold %s(...) facts only", option, pred);
      return 0;
    }
    ast_term *t = dl_arena_alloc(l->ast->arena, sizeof *t);
    ast_term **args = dl_arena_alloc(l->ast->arena, sizeof *args);
    if (!t || !args) return 0;
    *t = (ast_term){ AST_FUN, c->head->off, want, 1, args };
    args[0] = c->head;
    c->head = t;
  }
  return 1;
}

/* True when c is the rule true(X) :- init(X), which --init adds. */
static int is_init_rule(dl_loaded *l, const ast_clause *c)
{
  const ast_term *h = c->head;
  if (c->n_body != 1 || c->n_vars != 1 || c->body[0]->kind != AST_ATOM) return 0;
  const ast_term *b = c->body[0]->atom;
  return h->value == symbol(l, "true") && ast_atom_arity(h) == 1 && h->args[0]->kind == AST_VAR &&
         b->value == symbol(l, "init") && ast_atom_arity(b) == 1 && b->args[0]->kind == AST_VAR;
}

/* Marks as trusted, among the program's clauses [first, n), the ground
 * facts true(t) and does(r,a) (a state and moves, as `print --state` and
 * `print --does` write them) and the rule true(X) :- init(X) (as `print
 * --init` writes it): GDL forbids rules for true and does, but these are
 * what gdlog's options add, so the printed program reads back. */
static void trust_state(dl_loaded *l, uint32_t first)
{
  dl_sym truth = symbol(l, "true"), does = symbol(l, "does");
  for (uint32_t i = first; i < l->ast->n_clauses; i++) {
    ast_clause *c = l->ast->clauses[i];
    uint32_t arity = ast_atom_arity(c->head);
    int fact = c->n_body == 0 && c->n_vars == 0;
    if ((fact && ((c->head->value == truth && arity == 1) || (c->head->value == does && arity == 2))) ||
        is_init_rule(l, c))
      c->trusted = 1;
  }
}

static int make_facts(dl_loaded *l, dl_diag *diag)
{
  if (!l->facts && !(l->facts = dl_facts_create())) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory reading the facts");
    return 0;
  }
  return 1;
}

/* GDL's keywords keep their facts as clauses: the game checks read them. */
static const char *const kept_names[] = { "role", "init", "true", "does", "next", "legal", "goal",
                                          "terminal", "base", "input", "distinct" };
enum { N_KEPT = sizeof kept_names / sizeof *kept_names };

/* What take_fact needs while the program is parsed. */
typedef struct taker {
  dl_loaded *l;
  dl_sym kept[N_KEPT];
  const dl_source *src;   /* the text the last fact was taken from, */
  uint32_t released;      /*   whose bytes before this have left memory */
} taker;

/* An ast_takes_fact: the program's ground facts go to l->facts, but for
 * GDL's keywords. */
static int takes_fact(void *ctx, dl_sym pred, uint32_t arity)
{
  taker *t = ctx;
  for (int i = 0; i < N_KEPT; i++)
    if (pred == t->kept[i]) return 0;
  return dl_facts_takes(t->l->facts, pred, arity);
}

/* An ast_take_fact: into l->facts.  The text of the facts taken leaves
 * memory as the parse goes (dl_load_done_reading): in a program of many
 * facts it is most of the text, and its syntax tree holds none of it. */
static int take_fact(void *ctx, dl_sym pred, uint32_t arity, const dl_tid *args, const dl_source *src, uint32_t off)
{
  taker *t = ctx;
  if (src != t->src) {
    t->src = src;
    t->released = 0;
  }
  if (off - t->released >= DL_LOAD_RELEASE_EVERY) dl_load_done_reading(src, t->released = off);
  return dl_facts_take(t->l->facts, pred, arity, args, src, off);
}

/* With o->take_facts, has the parse of the program give its ground facts
 * to l->facts (until end_taking). */
static int begin_taking(dl_loaded *l, const dl_load_options *o, taker *t, dl_diag *diag)
{
  if (!o->take_facts) return 1;
  if (!make_facts(l, diag)) return 0;
  t->l = l;
  t->src = NULL;
  t->released = 0;
  for (int i = 0; i < N_KEPT; i++)
    if ((t->kept[i] = symbol(l, kept_names[i])) == DL_NO_SYM) {
      dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory reading the program");
      return 0;
    }
  l->ast->takes_fact = takes_fact;
  l->ast->take_fact = take_fact;
  l->ast->take_ctx = t;
  return 1;
}

static void end_taking(dl_loaded *l)
{
  l->ast->takes_fact = NULL;
  l->ast->take_fact = NULL;
  l->ast->take_ctx = NULL;
}

/* Declares the input relations of l->facts to the program. */
static int declare_inputs(dl_loaded *l, dl_diag *diag)
{
  for (uint32_t i = 0; l->facts && i < l->facts->n; i++) {
    const dl_facts_file *f = &l->facts->files[i];
    ast_input in = { f->pred, f->arity == DL_FACTS_ANY_ARITY ? AST_ANY_ARITY : f->arity, f->src, f->off,
                     f->in_program, f->tuples, f->n };
    if (!ast_program_add_input(l->ast, in)) {
      dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory reading the facts");
      return 0;
    }
  }
  return 1;
}

/* Parses the side files and extra rules, normalises and checks; t0 is when
 * parsing began. */
static int load_rest(dl_loaded *l, const dl_load_options *o, double t0, dl_diag *diag)
{
  trust_state(l, 0);
  uint32_t first = l->ast->n_clauses;
  if (o->state_file && (!parse_file(l, o->state_file, -1, 1, diag) ||
                        !fix_facts(l, first, "true", 1, "--state", diag)))
    return 0;
  first = l->ast->n_clauses;
  if (o->does_file && (!parse_file(l, o->does_file, -1, 1, diag) ||
                       !fix_facts(l, first, "does", 0, "--does", diag)))
    return 0;
  if (o->extra_rules && !parse_text(l, "<gdlog>", o->extra_rules, diag)) return 0;
  if (o->facts_dir && !(make_facts(l, diag) && dl_facts_read(l->facts, o->facts_dir, l->terms, diag))) return 0;
  if (!declare_inputs(l, diag)) return 0;
  dl_terms_done_reading(l->terms);
  l->parse_seconds = dl_clock_now() - t0;
  t0 = dl_clock_now();
  if (!dl_normalize(l->ast, 0, diag)) return 0;
  l->prog = dl_program_build(l->ast, l->terms, diag);
  l->check_seconds = dl_clock_now() - t0;
  return l->prog != NULL;
}

static int load_all(dl_loaded *l, const dl_load_options *o, dl_diag *diag)
{
  double t0 = dl_clock_now();
  taker t;
  int ok = begin_taking(l, o, &t, diag) && parse_file(l, o->file, o->syntax, 0, diag);
  end_taking(l);
  return ok && load_rest(l, o, t0, diag);
}

static dl_loaded *loaded_create(void)
{
  dl_loaded *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  l->terms = dl_terms_create();
  l->ast = ast_program_create();
  if (!l->terms || !l->ast) {
    dl_load_destroy(l);
    return NULL;
  }
  return l;
}

dl_loaded *dl_load(const dl_load_options *o, dl_diag *diag)
{
  dl_loaded *l = loaded_create();
  if (!l) return NULL;
  size_t errors = dl_diag_errors(diag);
  if (!load_all(l, o, diag) && dl_diag_errors(diag) == errors)
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while reading %s", o->file);
  return l;
}

dl_loaded *dl_load_memory(const dl_load_options *o, const char *text, size_t len, dl_diag *diag)
{
  dl_loaded *l = loaded_create();
  if (!l) return NULL;
  size_t errors = dl_diag_errors(diag);
  double t0 = dl_clock_now();
  dl_source *src = len < UINT32_MAX ? copy_source(o->file, text, len) : NULL;
  int ok = 0;
  if (src) {
    lx_syntax syn = o->syntax >= 0 ? (lx_syntax)o->syntax : dl_parse_guess_syntax(o->file, src->text, src->len);
    taker t;
    ok = begin_taking(l, o, &t, diag) && parse_source(l, src, syn, 0, diag);
    end_taking(l);
    ok = ok && load_rest(l, o, t0, diag);
  }
  if (!ok && dl_diag_errors(diag) == errors)
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory while reading %s", o->file);
  return l;
}

void dl_load_drop_facts(dl_loaded *l)
{
  assert(l);
  if (!l->facts) return;
  dl_facts_drop_tuples(l->facts);
  for (uint32_t i = 0; i < l->ast->n_inputs; i++) {
    l->ast->inputs[i].tuples = NULL;
    l->ast->inputs[i].n = 0;
  }
}

void dl_load_destroy(dl_loaded *l)
{
  if (!l) return;
  dl_program_destroy(l->prog);
  ast_program_destroy(l->ast);
  dl_terms_destroy(l->terms);
  for (int i = 0; i < l->n_sources; i++) dl_load_free_source(l->sources[i]);
  dl_facts_destroy(l->facts);
  free(l);
}
