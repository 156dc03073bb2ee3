/* ground_write.c: the formats of a ground game (see ground_write.h). */
#include "datalog/write/ground_write.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/json.h"

enum { FLUSH_AT = 1 << 16 };  /* written in pieces this size, which stay in cache */

static int flush(const dl_sink *out, dl_buf *b)
{
  if (b->failed) return 0;
  int ok = b->len == 0 || out->write(out->ctx, b->data, b->len);
  b->len = 0;
  return ok;
}

/* Each atom's text in one format, made once (and its terms' parts once):
 * a rule's literals are copies. */
typedef struct atom_texts {
  const dl_ground *g;
  dl_term_texts *tt;
} atom_texts;

/* The text of literal lit's atom, made when it is not yet (len: its length). */
static const char *literal_text(const atom_texts *t, int32_t lit, size_t *len)
{
  return dl_term_texts_get(t->tt, dl_ground_atom_term(t->g, (uint32_t)(lit < 0 ? -lit : lit)), len);
}

/* Appends atom a's text (out of memory: marks b failed, as dl_buf does). */
static void add_text(dl_buf *b, const atom_texts *t, uint32_t a)
{
  size_t len;
  const char *z = literal_text(t, (int32_t)a, &len);
  if (z) dl_buf_add(b, z, len);
  else b->failed = 1;
}

static void add_atom(dl_buf *b, const atom_texts *t, int32_t lit, dl_format fmt)
{
  uint32_t a = (uint32_t)(lit < 0 ? -lit : lit);
  if (lit < 0) dl_buf_addz(b, fmt == DL_FMT_KIF ? "(not " : fmt == DL_FMT_ASP ? "not " : "~");
  add_text(b, t, a);
  if (lit < 0 && fmt == DL_FMT_KIF) dl_buf_addz(b, ")");
}

/* A piece of a rule's text in one format: its n characters, padded to
 * SYNTAX_PIECE_MAX with NULs, so that it is copied as one word. */
enum { SYNTAX_PIECE_MAX = 8 };

typedef struct piece {
  char s[SYNTAX_PIECE_MAX];
  size_t n;
} piece;

#define PIECE(z) { z, sizeof z - 1 }

typedef struct rule_syntax {
  piece open, neck, and, not, not_end, end, fact_end;
} rule_syntax;

static const rule_syntax kif_syntax = { PIECE("(<= "), PIECE(" "), PIECE(" "), PIECE("(not "), PIECE(")"),
                                        PIECE(")\n"), PIECE("\n") };
static const rule_syntax infix_syntax = { PIECE(""), PIECE(" :- "), PIECE(" & "), PIECE("~"), PIECE(""),
                                          PIECE(".\n"), PIECE(".\n") };
static const rule_syntax asp_syntax = { PIECE(""), PIECE(" :- "), PIECE(", "), PIECE("not "), PIECE(""),
                                        PIECE(".\n"), PIECE(".\n") };

/* Appends piece p at w, which has room for SYNTAX_PIECE_MAX characters;
 * returns the end. */
static char *put(char *w, const piece *p)
{
  memcpy(w, p->s, SYNTAX_PIECE_MAX);
  return w + p->n;
}

/* Appends rule i.  Its literals' texts are made first (making one may move
 * the others; made ones move nothing), so that the buffer grows once per
 * rule and the texts are then copied straight in. */
static void add_rule(dl_buf *b, const dl_ground *g, const atom_texts *t, uint32_t i, const rule_syntax *sx)
{
  const int32_t *body;
  uint32_t n;
  int32_t head = dl_ground_rule(g, i, &body, &n);
  size_t need = 2 * SYNTAX_PIECE_MAX, len;
  for (uint32_t k = 0; k <= n; k++) {
    if (!literal_text(t, k ? body[k - 1] : head, &len)) {
      b->failed = 1;
      return;
    }
    need += len + 3 * SYNTAX_PIECE_MAX;
  }
  if (!dl_buf_reserve(b, need)) return;
  char *w = b->data + b->len;
  if (n) w = put(w, &sx->open);
  for (uint32_t k = 0; k <= n; k++) {
    int32_t lit = k ? body[k - 1] : head;
    const char *z = literal_text(t, lit, &len);
    if (k) w = put(w, k == 1 ? &sx->neck : &sx->and);
    if (lit < 0) w = put(w, &sx->not);
    memcpy(w, z, len);
    w += len;
    if (lit < 0) w = put(w, &sx->not_end);
  }
  w = put(w, n ? &sx->end : &sx->fact_end);
  *w = 0;
  b->len = (size_t)(w - b->data);
}

static void add_number(dl_buf *b, int64_t x)
{
  char z[24];
  int n = snprintf(z, sizeof z, "%" PRId64, x);
  dl_buf_add(b, z, (size_t)n);
}

static int write_numeric(const dl_sink *out, dl_buf *b, const dl_ground *g, const atom_texts *t)
{
  uint32_t na = dl_ground_atom_count(g), nr = dl_ground_rule_count(g);
  dl_buf_addz(b, "gdlog-ground 1\natoms ");
  add_number(b, na);
  dl_buf_addz(b, "\n");
  for (uint32_t a = 1; a <= na; a++) {
    add_number(b, a);
    dl_buf_addz(b, " ");
    dl_buf_addz(b, dl_atom_role_name(dl_ground_atom_role(g, a)));
    dl_buf_addz(b, " ");
    add_text(b, t, a);
    dl_buf_addz(b, "\n");
    if (b->len >= FLUSH_AT && !flush(out, b)) return 0;
  }
  dl_buf_addz(b, "rules ");
  add_number(b, nr);
  dl_buf_addz(b, "\n");
  for (uint32_t i = 0; i < nr; i++) {
    const int32_t *body;
    uint32_t n;
    add_number(b, dl_ground_rule(g, i, &body, &n));
    dl_buf_addz(b, " ");
    add_number(b, n);
    for (uint32_t k = 0; k < n; k++) {
      dl_buf_addz(b, " ");
      add_number(b, body[k]);
    }
    dl_buf_addz(b, "\n");
    if (b->len >= FLUSH_AT && !flush(out, b)) return 0;
  }
  return flush(out, b);
}

int dl_ground_write_rules(const dl_sink *out, const dl_ground *g, dl_ground_format fmt, const uint8_t *keep)
{
  assert(!keep || fmt != DL_GROUND_NUMERIC);
  dl_buf b = { 0 };
  dl_format f = fmt == DL_GROUND_ASP ? DL_FMT_ASP : fmt == DL_GROUND_INFIX ? DL_FMT_INFIX : DL_FMT_KIF;
  atom_texts t = { g, dl_term_texts_create(dl_ground_terms(g), f) };
  const rule_syntax *sx = f == DL_FMT_KIF ? &kif_syntax : f == DL_FMT_ASP ? &asp_syntax : &infix_syntax;
  int ok = t.tt != NULL;
  if (ok && fmt == DL_GROUND_NUMERIC) ok = write_numeric(out, &b, g, &t);
  else if (ok) {
    for (uint32_t a = 1; ok && fmt == DL_GROUND_ASP && a <= dl_ground_atom_count(g); a++) {
      dl_atom_role r = dl_ground_atom_role(g, a);
      if (r != DL_ATOM_FLUENT && r != DL_ATOM_MOVE) continue;
      dl_buf_addz(&b, "#external ");
      add_atom(&b, &t, (int32_t)a, f);
      dl_buf_addz(&b, ".\n");
      if (b.len >= FLUSH_AT) ok = flush(out, &b);
    }
    for (uint32_t i = 0; ok && i < dl_ground_rule_count(g); i++) {
      if (keep && !keep[i]) continue;
      add_rule(&b, g, &t, i, sx);
      if (b.len >= FLUSH_AT) ok = flush(out, &b);
    }
    ok = ok && flush(out, &b);
  }
  dl_term_texts_destroy(t.tt);
  dl_buf_free(&b);
  return ok;
}

int dl_ground_write(const dl_sink *out, const dl_ground *g, dl_ground_format fmt)
{
  return dl_ground_write_rules(out, g, fmt, NULL);
}

int dl_ground_rule_bytes(const dl_ground *g, uint32_t *bytes)
{
  atom_texts t = { g, dl_term_texts_create(dl_ground_terms(g), DL_FMT_KIF) };
  int ok = t.tt != NULL;
  for (uint32_t i = 0; ok && i < dl_ground_rule_count(g); i++) {
    const int32_t *body;
    uint32_t n;
    int32_t head = dl_ground_rule(g, i, &body, &n);
    size_t len, sum = n ? kif_syntax.open.n + kif_syntax.end.n : kif_syntax.fact_end.n;
    for (uint32_t k = 0; ok && k <= n; k++) {
      int32_t lit = k ? body[k - 1] : head;
      ok = literal_text(&t, lit, &len) != NULL;
      sum += len + 1 + (lit < 0 ? kif_syntax.not.n + kif_syntax.not_end.n : 0);
    }
    bytes[i] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
  }
  dl_term_texts_destroy(t.tt);
  return ok;
}

/* ---- figures ----------------------------------------------------------------------------------- */

/* Lines of rules in source order: each count goes on from the last one, so
 * a ground game of many rules is read once, not once per rule. */
typedef struct line_cursor {
  const dl_source *src;
  uint32_t off, line;
} line_cursor;

static uint32_t line_of(line_cursor *c, const dl_source *src, uint32_t off)
{
  if (c->src != src || off < c->off) *c = (line_cursor){ src, 0, 1 };
  for (uint32_t i = c->off; src && i < off && i < src->len; i++) c->line += src->text[i] == '\n';
  c->off = off;
  return c->line;
}

static void addf(dl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));



static void addf(dl_buf *b, const char *fmt, ...)
{
  char z[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(z, sizeof z, fmt, ap);
  va_end(ap);
  if (n > 0) dl_buf_add(b, z, (size_t)n < sizeof z ? (size_t)n : sizeof z - 1);
}

static const char *rule_file(const dl_rule *r) { return r->src ? r->src->name : "<gdlog>"; }

/* Whether rule r of game has a row in the figures: the facts of the game
 * have none. */
static int has_row(const dl_ground *g, const dl_program *game, uint32_t r)
{
  return game->ast->rules[r].n_body > 0 || dl_ground_get_rule_stats(g, r).candidates > 0;
}

static int digits(uint64_t v)
{
  int n = 1;
  for (; v >= 10; v /= 10) n++;
  return n;
}

/* The widths of the columns of the table of rules: each the widest of its
 * title and its cells, so that long file and predicate names keep the
 * columns straight. */
typedef struct stats_widths {
  int place, head, candidates, instances, rules;
} stats_widths;

static stats_widths measure(const dl_ground *g, const dl_program *game)
{
  stats_widths w = { 4, 4, 10, 9, 5 };  /* rule, head, candidates, instances, rules */
  line_cursor lines = { NULL, 0, 1 };
  for (uint32_t r = 0; r < game->ast->n_rules; r++) {
    if (!has_row(g, game, r)) continue;
    const dl_rule *x = &game->ast->rules[r];
    dl_ground_rule_stats rs = dl_ground_get_rule_stats(g, r);
    int place = (int)strlen(rule_file(x)) + 1 + digits(line_of(&lines, x->src, x->off));
    int head = (int)strlen(dl_program_pred_name(game, game->head_pred[r]));
    if (place > w.place) w.place = place;
    if (head > w.head) w.head = head;
    if (digits(rs.candidates) > w.candidates) w.candidates = digits(rs.candidates);
    if (digits(rs.instances) > w.instances) w.instances = digits(rs.instances);
    if (digits(rs.kept) > w.rules) w.rules = digits(rs.kept);
  }
  return w;
}

/* Appends z and blanks up to width columns. */
static void add_padded(dl_buf *b, const char *z, int width)
{
  dl_buf_addz(b, z);
  for (int n = (int)strlen(z); n < width; n++) dl_buf_add(b, " ", 1);
}

static void stats_text(dl_buf *b, const dl_ground *g, const dl_program *game, const dl_ground_phases *ph)
{
  dl_ground_stats s = dl_ground_get_stats(g);
  stats_widths w = measure(g, game);
  line_cursor lines = { NULL, 0, 1 };
  dl_buf_addz(b, "columns: candidates = bindings of the positive body atoms over G+, instances = distinct "
                 "instances made of them, rules = ground rules left of those after pruning (auxiliary ones "
                 "included)\n");
  add_padded(b, "rule", w.place + 1);
  add_padded(b, "head", w.head);
  addf(b, " %*s %*s %*s %10s\n", w.candidates, "candidates", w.instances, "instances", w.rules, "rules", "seconds");
  for (uint32_t r = 0; r < game->ast->n_rules; r++) {
    if (!has_row(g, game, r)) continue;
    const dl_rule *x = &game->ast->rules[r];
    dl_ground_rule_stats rs = dl_ground_get_rule_stats(g, r);
    uint32_t line = line_of(&lines, x->src, x->off);
    dl_buf_addz(b, rule_file(x));
    addf(b, ":%-*u ", w.place - (int)strlen(rule_file(x)) - 1, line);
    add_padded(b, dl_program_pred_name(game, game->head_pred[r]), w.head);
    addf(b, " %*" PRIu64 " %*" PRIu64 " %*" PRIu64 " %10.6f\n", w.candidates, rs.candidates, w.instances,
         rs.instances, w.rules, rs.kept, rs.seconds);
  }
  addf(b, "phases: parse %.6f s, domains %.6f s, reduce %.6f s, statics %.6f s, instantiate %.6f s, "
          "prune %.6f s (%u rounds), simplify %.6f s (%u rounds, %" PRIu64 " -> %" PRIu64 " components)\n",
       ph->parse, ph->domains, ph->reduce, s.statics_seconds, s.instantiate_seconds, s.prune_seconds, s.prune_rounds,
       s.simplify_seconds, s.simplify_rounds, s.simplify_rounds ? s.simplify_before : s.components, s.components);
  addf(b, "ground: %" PRIu64 " rules, %" PRIu64 " facts, %" PRIu64 " atoms, %" PRIu64 " literals, %" PRIu64
          " components, %zu bytes",
       s.rules, s.facts, s.atoms, s.literals, s.components, s.bytes);
  if (ph->peak_bytes) addf(b, ", peak memory %zu bytes", ph->peak_bytes);
  dl_buf_addz(b, "\n");
}

static void stats_json(dl_buf *b, const dl_ground *g, const dl_program *game, const dl_ground_phases *ph)
{
  dl_ground_stats s = dl_ground_get_stats(g);
  line_cursor lines = { NULL, 0, 1 };
  dl_buf_addz(b, "{\"rules\": [");
  for (uint32_t r = 0, first = 1; r < game->ast->n_rules; r++) {
    const dl_rule *x = &game->ast->rules[r];
    dl_ground_rule_stats rs = dl_ground_get_rule_stats(g, r);
    if (!has_row(g, game, r)) continue;
    dl_buf_addz(b, first ? "\n  {\"file\": " : ",\n  {\"file\": ");
    first = 0;
    dl_json_stringz(b, rule_file(x));
    addf(b, ", \"line\": %u, \"head\": ", line_of(&lines, x->src, x->off));
    dl_json_stringz(b, dl_program_pred_name(game, game->head_pred[r]));
    addf(b, ", \"candidates\": %" PRIu64 ", \"instances\": %" PRIu64 ", \"rules\": %" PRIu64 ", \"seconds\": %.6f}",
         rs.candidates, rs.instances, rs.kept, rs.seconds);
  }
  addf(b, "],\n \"phases\": {\"parse\": %.6f, \"domains\": %.6f, \"reduce\": %.6f, \"statics\": %.6f, "
          "\"instantiate\": %.6f, \"prune\": %.6f, \"prune_rounds\": %u, \"simplify\": %.6f, "
          "\"simplify_rounds\": %u, \"components_before_simplify\": %" PRIu64 "},\n",
       ph->parse, ph->domains, ph->reduce, s.statics_seconds, s.instantiate_seconds, s.prune_seconds, s.prune_rounds,
       s.simplify_seconds, s.simplify_rounds, s.simplify_rounds ? s.simplify_before : s.components);
  addf(b, " \"ground\": {\"rules\": %" PRIu64 ", \"facts\": %" PRIu64 ", \"atoms\": %" PRIu64 ", \"literals\": %" PRIu64
          ", \"components\": %" PRIu64 ", \"bytes\": %zu, \"peak_bytes\": %zu}}\n",
       s.rules, s.facts, s.atoms, s.literals, s.components, s.bytes, ph->peak_bytes);
}

void dl_ground_write_stats(dl_buf *b, const dl_ground *g, const dl_program *game, const dl_ground_phases *ph,
                           int json)
{
  assert(b && g && game && ph);
  if (json) stats_json(b, g, game, ph);
  else stats_text(b, g, game, ph);
}
