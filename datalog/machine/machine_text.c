/* machine_text.c: roles, moves, joint moves and states read from text and
 * states written as text, for every backend (machine.h).
 *
 * A text is read in the syntax its content shows ('(' first: KIF; a name
 * followed by '(': infix), at the first line that shows one.  A text that
 * does not show it (bare names such as `noop`, `straight-line` or
 * `XPLAYER`) is read in the game's own syntax, so that names read as the game's own names were: in a KIF game
 * a bare name may hold '-', and upper case is folded as KIF folds it (the
 * loader lower-cases a KIF game, and so does the KIF reader here). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/sort.h"
#include "datalog/machine/machine.h"
#include "datalog/read/ast.h"
#include "datalog/read/parse.h"

/* The syntax text[0..len) shows at the first line whose content shows one
 * (a state written one fluent a line in infix may start with bare names,
 * `a` before `control(xplayer)`), else the game's (kif). */
static lx_syntax text_syntax(const char *text, size_t len, int kif)
{
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(text + i, '\n', len - i);
    uint32_t n = (uint32_t)(nl ? (size_t)(nl - text) - i : len - i);
    lx_syntax as_kif = dl_parse_guess_syntax(".kif", text + i, n), as_infix = dl_parse_guess_syntax(".dl", text + i, n);
    if (as_kif == as_infix) return as_kif;  /* the line's content decided, not the name */
    i += (size_t)n + 1;
  }
  return kif ? LX_KIF : LX_INFIX;
}

/* A text being read: its source (the machine's m->text) and the clauses
 * read from it. */
typedef struct parsed {
  const dl_source *src;
  ast_program *ast;
} parsed;

void dl_machine_forget_text(dl_machine *m)
{
  assert(m);
  if (!m->text) return;
  free((char *)m->text->name);
  free((char *)m->text->text);
  free(m->text);
  m->text = NULL;
}

/* A copy of name and text[0..len) as m's text (the last one freed);
 * NULL when out of memory. */
static const dl_source *keep_text(dl_machine *m, const char *name, const char *text, size_t len)
{
  dl_machine_forget_text(m);
  dl_source *src = malloc(sizeof *src);
  char *copy = len < UINT32_MAX ? malloc(len + 1) : NULL, *z = strdup(name);
  if (!src || !copy || !z) {
    free(src), free(copy), free(z);
    return NULL;
  }
  if (len) memcpy(copy, text, len);
  copy[len] = 0;
  *src = (dl_source){ z, copy, (uint32_t)len };
  return m->text = src;
}

/* Reads text[0..len) into p, interning names in m's store; 0 after
 * reporting.  Free p with parsed_free (the text stays with m: messages
 * point into it). */
static int parse_text(dl_machine *m, const char *name, const char *text, size_t len, int kif, parsed *p)
{
  memset(p, 0, sizeof *p);
  p->src = keep_text(m, name, text, len);
  p->ast = ast_program_create();
  if (!p->src || !p->ast) {
    dl_diag_fail(m->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  lx_syntax syn = text_syntax(p->src->text, p->src->len, kif);
  return dl_parse(p->ast, m->terms, p->src, syn, m->diag);
}

static void parsed_free(parsed *p)
{
  ast_program_destroy(p->ast);
}

/* The status of a text that did not read, once reported: NOMEM when
 * memory ran out while reading it, else INPUT. */
static dl_mstatus unread(const dl_machine *m)
{
  return dl_diag_last_cause(m->diag) == DL_CAUSE_NOMEM ? DL_M_NOMEM : DL_M_INPUT;
}

/* The term of ground ast term t, interned; DL_NO_TERM after reporting. */
static dl_tid term_of(dl_machine *m, const parsed *p, const ast_term *t)
{
  if (t->kind == AST_VAR) {
    dl_diag_report(m->diag, DL_ERROR, p->src, t->off, "a variable where a ground term is expected");
    return DL_NO_TERM;
  }
  dl_tid args[t->n ? t->n : 1];
  for (uint32_t i = 0; i < t->n; i++)
    if ((args[i] = term_of(m, p, t->args[i])) == DL_NO_TERM) return DL_NO_TERM;
  dl_tid id = t->n ? dl_terms_make(m->terms, t->value, t->n, args) : dl_terms_constant(m->terms, t->value);
  if (id != DL_NO_TERM) return id;
  if (dl_terms_too_deep(m->terms)) dl_diag_report(m->diag, DL_ERROR, p->src, t->off, "this term nests too deep");
  else dl_diag_fail(m->diag, DL_CAUSE_NOMEM, "out of memory");
  return id;
}

/* Whether clause c is a fact (no body, no variable); reports it when not. */
static int is_fact(dl_machine *m, const parsed *p, const ast_clause *c, const char *what)
{
  if (c->n_body == 0 && c->n_vars == 0) return 1;
  dl_diag_report(m->diag, DL_ERROR, p->src, c->off, "%s holds ground terms only, not rules or variables", what);
  return 0;
}

/* Whether atom a is name(...) with arity args. */
static int is_atom(const dl_machine *m, const ast_term *a, const char *name, uint32_t arity)
{
  size_t len;
  const char *z = dl_terms_name(m->terms, a->value, &len);
  return a->kind != AST_VAR && ast_atom_arity(a) == arity && len == strlen(name) && memcmp(z, name, len) == 0;
}

/* The one ground term written in text (what: "a move", "a role") into *t;
 * INPUT after reporting. */
static dl_mstatus read_term(dl_machine *m, const char *what, const char *text, size_t len, int kif, dl_tid *t)
{
  parsed p;
  dl_mstatus st = DL_M_INPUT;
  char name[16];
  snprintf(name, sizeof name, "<%s>", what + 2);
  if (parse_text(m, name, text, len, kif, &p)) {
    if (p.ast->n_clauses != 1)
      dl_diag_report(m->diag, DL_ERROR, p.src, 0, "%s is one ground term; this text holds %u", what,
                     p.ast->n_clauses);
    else if (is_fact(m, &p, p.ast->clauses[0], what) && (*t = term_of(m, &p, p.ast->clauses[0]->head)) != DL_NO_TERM)
      st = DL_M_OK;
  }
  parsed_free(&p);
  return st == DL_M_OK ? st : unread(m);
}

void dl_machine_term_text(const dl_machine *m, dl_tid t, dl_format fmt, dl_buf *out)
{
  assert(m && out);
  dl_output_term(out, m->terms, t, fmt);
}

/* The index of the role whose term is t, or UINT32_MAX. */
static uint32_t role_of(const dl_machine *m, dl_tid t)
{
  for (uint32_t r = 0; r < m->n_roles; r++)
    if (m->roles[r] == t) return r;
  return UINT32_MAX;
}

dl_mstatus dl_machine_parse_role(dl_machine *m, const char *text, size_t len, int kif, uint32_t *role)
{
  assert(m && (text || len == 0) && role);
  dl_tid t;
  dl_mstatus st = read_term(m, "a role", text, len, kif, &t);
  if (st != DL_M_OK) return st;
  if ((*role = role_of(m, t)) != UINT32_MAX) return DL_M_OK;
  dl_buf b = { 0 };
  dl_output_term(&b, m->terms, t, m->format);
  dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the game has no role '%s'", b.data && !b.failed ? b.data : "?");
  dl_buf_free(&b);
  return DL_M_INPUT;
}

/* The move of role whose action is t into *move; ILLEGAL after reporting
 * (at src/off) when the backend knows it is never legal. */
static dl_mstatus move_of(dl_machine *m, uint32_t role, dl_tid t, const dl_source *src, uint32_t off, uint32_t *move)
{
  if ((*move = m->ops->move_of(m, role, t)) != DL_NO_MOVE) return DL_M_OK;
  dl_buf a = { 0 }, r = { 0 };
  dl_output_term(&a, m->terms, t, m->format);
  dl_output_term(&r, m->terms, m->roles[role], m->format);
  dl_diag_report(m->diag, DL_ERROR, src, off, "illegal move: '%s' is never a legal move of role '%s' in this game",
                 a.data && !a.failed ? a.data : "?", r.data && !r.failed ? r.data : "?");
  dl_buf_free(&a);
  dl_buf_free(&r);
  return DL_M_ILLEGAL;
}

dl_mstatus dl_machine_parse_move(dl_machine *m, uint32_t role, const char *text, size_t len, int kif, uint32_t *move)
{
  assert(m && role < m->n_roles && (text || len == 0) && move);
  dl_tid t;
  dl_mstatus st = read_term(m, "a move", text, len, kif, &t);
  return st == DL_M_OK ? move_of(m, role, t, NULL, 0, move) : st;
}

/* The role of does-fact c into joint (its place into offs). */
static dl_mstatus joint_add(dl_machine *m, const parsed *p, const ast_clause *c, uint32_t *joint, uint32_t *offs)
{
  if (!is_atom(m, c->head, "does", 2)) {
    dl_diag_report(m->diag, DL_ERROR, p->src, c->off, "a joint move is does(ROLE,MOVE) facts only");
    return DL_M_INPUT;
  }
  const ast_term *a = c->head->args[1];
  dl_tid role = term_of(m, p, c->head->args[0]), action = term_of(m, p, a);
  if (role == DL_NO_TERM || action == DL_NO_TERM) return DL_M_INPUT;
  uint32_t r = role_of(m, role);
  if (r == UINT32_MAX) {
    dl_diag_report(m->diag, DL_ERROR, p->src, c->head->args[0]->off, "the game has no such role");
    return DL_M_INPUT;
  }
  if (offs[r] != UINT32_MAX) {
    dl_buf b = { 0 };
    dl_output_term(&b, m->terms, m->roles[r], m->format);
    dl_diag_report(m->diag, DL_ERROR, p->src, c->off, "role '%s' has two moves in this joint move",
                   b.data && !b.failed ? b.data : "?");
    dl_buf_free(&b);
    return DL_M_INPUT;
  }
  offs[r] = a->off;
  return move_of(m, r, action, p->src, a->off, &joint[r]);
}

/* Reads the does facts of p into joint. */
static dl_mstatus joint_read(dl_machine *m, const parsed *p, uint32_t *joint, uint32_t *offs)
{
  for (uint32_t r = 0; r < m->n_roles; r++) offs[r] = UINT32_MAX;
  for (uint32_t i = 0; i < p->ast->n_clauses; i++) {
    const ast_clause *c = p->ast->clauses[i];
    if (!is_fact(m, p, c, "a joint move")) return DL_M_INPUT;
    dl_mstatus st = joint_add(m, p, c, joint, offs);
    if (st != DL_M_OK) return st;
  }
  for (uint32_t r = 0; r < m->n_roles; r++)
    if (offs[r] == UINT32_MAX) {
      dl_buf b = { 0 };
      dl_output_term(&b, m->terms, m->roles[r], m->format);
      dl_diag_report(m->diag, DL_ERROR, p->src, 0, "role '%s' has no move in this joint move",
                     b.data && !b.failed ? b.data : "?");
      dl_buf_free(&b);
      return DL_M_INPUT;
    }
  return DL_M_OK;
}

dl_mstatus dl_machine_parse_joint(dl_machine *m, const dl_mstate *s, const char *name, const char *text, size_t len,
                                  int kif, uint32_t *joint)
{
  assert(m && (text || len == 0) && joint);
  uint32_t *offs = malloc(((size_t)m->n_roles + 1) * sizeof *offs);
  if (!offs) return dl_machine_nomem(m);
  parsed p;
  dl_mstatus st = DL_M_INPUT;
  if (parse_text(m, name ? name : "<moves>", text, len, kif, &p)) {
    st = joint_read(m, &p, joint, offs);
    if (st == DL_M_OK && s) st = dl_machine_check_joint(m, s, joint, p.src, offs);
  }
  parsed_free(&p);
  free(offs);
  return st == DL_M_INPUT ? unread(m) : st;
}

/* The fluent of state clause c: t for a fact true(t) or t. */
static dl_tid fluent_of(dl_machine *m, const parsed *p, const ast_clause *c)
{
  if (!is_fact(m, p, c, "a state")) return DL_NO_TERM;
  const ast_term *t = is_atom(m, c->head, "true", 1) ? c->head->args[0] : c->head;
  return term_of(m, p, t);
}

/* The state of the clauses of p into *s. */
static dl_mstatus state_read(dl_machine *m, const parsed *p, dl_mstate **s)
{
  uint32_t n = p->ast->n_clauses, unknown = 0;
  dl_tid *ids = malloc((n ? n : 1) * sizeof *ids), *order = malloc((n ? n : 1) * sizeof *order);
  dl_mstatus st = ids && order ? DL_M_OK : dl_machine_nomem(m);
  for (uint32_t k = 0; st == DL_M_OK && k < n; k++)
    if ((order[k] = ids[k] = fluent_of(m, p, p->ast->clauses[k])) == DL_NO_TERM) st = unread(m);
  if (st == DL_M_OK && (st = m->ops->state_of(m, ids, n, s, &unknown)) == DL_M_INPUT) {  /* the backend cannot hold fluent ids[unknown], which order places */
    uint32_t k = 0;
    while (k + 1 < n && order[k] != ids[unknown]) k++;
    dl_buf b = { 0 };
    dl_output_term(&b, m->terms, ids[unknown], m->format);
    dl_diag_report(m->diag, DL_ERROR, p->src, p->ast->clauses[k]->off,
                   "'%s' is not a fluent of the ground game (no state reached from init holds it)",
                   b.data && !b.failed ? b.data : "?");
    dl_buf_free(&b);
  }
  free(ids);
  free(order);
  return st;
}

dl_mstatus dl_machine_parse_state(dl_machine *m, const char *name, const char *text, size_t len, int kif,
                                  dl_mstate **s)
{
  assert(m && (text || len == 0) && s);
  *s = NULL;
  parsed p;
  dl_mstatus st = parse_text(m, name ? name : "<state>", text, len, kif, &p) ? state_read(m, &p, s) : DL_M_INPUT;
  parsed_free(&p);
  return st == DL_M_INPUT ? unread(m) : st;
}

/* Compares two lines of text. */
static int compare_text(const void *a, const void *b, void *ctx)
{
  (void)ctx;
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of fluents ids[0..n) in fmt, sorted, into *text; 0 when out of
 * memory. */
static int fluents_text(const dl_machine *m, const uint32_t *ids, uint32_t n, dl_format fmt, char **text)
{
  char **lines = calloc(n ? n : 1, sizeof *lines);
  if (!lines) return 0;
  dl_buf all = { 0 };
  int ok = 1;
  for (uint32_t i = 0; i < n && ok; i++) {
    dl_buf b = { 0 };
    dl_output_term(&b, m->terms, ids[i], fmt);
    ok = b.data && !b.failed;
    /* a fluent true(t) is written true(true(t)): the reader takes true(t) as the fluent t */
    if (ok && strncmp(b.data, fmt == DL_FMT_KIF ? "(true " : "true(", fmt == DL_FMT_KIF ? 6 : 5) == 0) {
      dl_buf w = { 0 };
      dl_buf_addf(&w, fmt == DL_FMT_KIF ? "(true %s)" : "true(%s)", b.data);
      dl_buf_free(&b);
      b = w;
      ok = b.data && !b.failed;
    }
    lines[i] = b.data;
  }
  if (ok) dl_sort(lines, n, sizeof *lines, compare_text, NULL);
  for (uint32_t i = 0; ok && i < n; i++) {
    dl_buf_addz(&all, lines[i]);
    dl_buf_add(&all, "\n", 1);
  }
  for (uint32_t i = 0; i < n; i++) free(lines[i]);
  free(lines);
  if (ok && !all.data) ok = dl_buf_reserve(&all, 1) && (all.data[0] = 0, 1);
  if (!ok || all.failed) {
    dl_buf_free(&all);
    return 0;
  }
  *text = all.data;
  return 1;
}

dl_mstatus dl_machine_state_text(dl_machine *m, const dl_mstate *s, dl_format fmt, char **text)
{
  assert(m && s && text);
  *text = NULL;
  dl_ids ids = { 0 };
  dl_mstatus st = m->ops->fluents(m, s, &ids);
  if (st == DL_M_OK && !fluents_text(m, ids.ids, ids.n, fmt, text)) st = dl_machine_nomem(m);
  dl_ids_free(&ids);
  return st;
}

/* ---- traced playouts ---- */

/* Appends (pred ARGS) in KIF. */
static void trace_atom(dl_buf *b, const dl_machine *m, const char *pred, const dl_tid *args, int n)
{
  dl_buf_addf(b, "(%s", pred);
  for (int i = 0; i < n; i++) {
    dl_buf_addz(b, " ");
    dl_machine_term_text(m, args[i], DL_FMT_KIF, b);
  }
  dl_buf_addz(b, ")\n");
}

/* A traced playout's room: a joint move, the legal moves, and the goal
 * atoms of each role in the state traced last. */
typedef struct trace_room {
  uint32_t *joint;
  dl_ids moves;
  dl_goal_found *found;
  int32_t *goals;
  double *goal_sum;
} trace_room;

/* Appends state s and what holds in it, in KIF: the atoms, and comments
 * for the rest (the state's number, a role's number of goal values when it
 * has not exactly one).  *terminal: whether s is. */
static dl_mstatus trace_state(dl_buf *b, dl_machine *m, const dl_mstate *s, uint64_t step, trace_room *r,
                              int *terminal)
{
  dl_ids *l = &r->moves;
  dl_buf_addf(b, "; state %llu\n", (unsigned long long)step);
  dl_mstatus st = m->ops->fluents(m, s, l);
  for (uint32_t i = 0; st == DL_M_OK && i < l->n; i++) trace_atom(b, m, "true", &l->ids[i], 1);
  for (uint32_t q = 0; st == DL_M_OK && q < m->n_roles; q++) {
    dl_goal_found *g = &r->found[q];
    if ((st = m->ops->legal(m, s, q, l)) != DL_M_OK || (st = dl_machine_goal_found(m, s, q, g)) != DL_M_OK) break;
    for (uint32_t i = 0; i < l->n; i++) trace_atom(b, m, "legal", (dl_tid[]){ m->roles[q], m->ops->move_term(m, l->ids[i]) }, 2);
    if (g->count == 1) {
      dl_buf_addz(b, "(goal ");
      dl_machine_term_text(m, m->roles[q], DL_FMT_KIF, b);
      dl_buf_addf(b, " %d)\n", g->value);
    } else {  /* none or several: a comment, as the atoms would not tell the role's count */
      dl_buf_addz(b, "; goal values of ");
      dl_machine_term_text(m, m->roles[q], DL_FMT_KIF, b);
      dl_buf_addf(b, ": %u\n", g->count);
    }
  }
  if (st == DL_M_OK) st = dl_machine_terminal(m, s, terminal);
  if (st == DL_M_OK && *terminal) dl_buf_addz(b, "terminal\n");
  return st;
}

/* Draws and appends the joint move of s into r->joint.  A role without a
 * legal move is the game's fault (reported as a playout's). */
static dl_mstatus trace_joint(dl_buf *b, dl_machine *m, const dl_mstate *s, dl_rng *rng, uint64_t index,
                              uint64_t step, trace_room *r)
{
  for (uint32_t q = 0; q < m->n_roles; q++) {
    dl_mstatus st = m->ops->legal(m, s, q, &r->moves);
    if (st != DL_M_OK) return st;
    if (r->moves.n == 0) return dl_machine_playout_fault(m, index, DL_FAULT_NO_LEGAL, q, (uint32_t)step);
    r->joint[q] = r->moves.ids[dl_rng_below(rng, r->moves.n)];
    trace_atom(b, m, "does", (dl_tid[]){ m->roles[q], m->ops->move_term(m, r->joint[q]) }, 2);
  }
  return DL_M_OK;
}

/* dl_machine_trace_playout, in room r. */
static dl_mstatus trace_playout(dl_buf *b, dl_machine *m, dl_rng *rng, const dl_playout_options *o, uint64_t index,
                                trace_room *r)
{
  dl_mstate *s = NULL, *next = NULL;
  int terminal = 0;
  dl_mstatus st = dl_machine_initial(m, &s);
  for (uint64_t step = 0; st == DL_M_OK; step++) {
    if ((st = trace_state(b, m, s, step, r, &terminal)) != DL_M_OK) break;
    if (terminal) {
      dl_playout_totals t = { .goal_sum = r->goal_sum };
      st = dl_machine_playout_end(m, o, index, (uint32_t)step, r->found, r->goals, &t);
      break;
    }
    if (step >= o->max_depth || (st = trace_joint(b, m, s, rng, index, step, r)) != DL_M_OK ||
        (st = dl_machine_next_unchecked(m, s, r->joint, &next)) != DL_M_OK)
      break;
    free(s);
    s = next, next = NULL;
  }
  free(s);
  return st;
}

dl_mstatus dl_machine_trace_playout(dl_machine *m, const dl_playout_options *o, uint64_t index, dl_rng *rng,
                                    dl_buf *out)
{
  assert(m && o && rng && out);
  size_t n = m->n_roles + 1;
  trace_room r = { calloc(n, sizeof *r.joint), { 0 }, calloc(n, sizeof *r.found), calloc(n, sizeof *r.goals),
                   calloc(n, sizeof *r.goal_sum) };
  dl_mstatus st = r.joint && r.found && r.goals && r.goal_sum ? trace_playout(out, m, rng, o, index, &r)
                                                              : dl_machine_nomem(m);
  dl_ids_free(&r.moves);
  free(r.joint), free(r.found), free(r.goals), free(r.goal_sum);
  return st;
}
