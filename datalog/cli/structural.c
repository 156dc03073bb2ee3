/* structural.c: games compared up to renaming (see structural.h).  The
 * renamed text is a's rules written as KIF, each name token replaced:
 * KIF separates tokens by parentheses and white space, and variables start
 * with '?'. */
#include "datalog/cli/structural.h"

#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/structure/symmetry.h"
#include "datalog/write/output.h"

static dl_rgraph *untyped_graph(cli_ctx *c, const dl_program *p)
{
  dl_rgraph_options o = { .untyped = 1, .no_declarations = cli_given(c, "--no-declarations") };
  return dl_rgraph_build(p, &o, c->diag);
}

int cli_canon_hash(cli_ctx *c, const dl_program *p, uint64_t *hash, uint32_t *vertices, uint32_t *edges)
{
  dl_rgraph *g = untyped_graph(c, p);
  dl_canon *k = g ? dl_canon_build(g, c->diag) : NULL;
  if (k) {
    *hash = dl_canon_hash(k);
    if (vertices) *vertices = dl_rgraph_vertex_count(g);
    if (edges) *edges = dl_rgraph_edge_count(g);
  }
  dl_canon_destroy(k);
  dl_rgraph_destroy(g);
  return k != NULL;
}

static int buf_sink(void *ctx, const char *data, size_t n)
{
  dl_buf_add(ctx, data, n);
  return !((dl_buf *)ctx)->failed;
}

/* The name of symbol vertex v of g. */
static const char *name_of(const dl_rgraph *g, const dl_terms *terms, uint32_t v, size_t *len)
{
  return dl_terms_name(terms, dl_rgraph_vertex(g, v)->sym, len);
}

/* The renaming of a's names into b's, into names (JudyHS: a's name -> b's
 * symbol + 1) and as lines into map.  0 after reporting a name that would
 * get two names. */
static int renaming(cli_ctx *c, const dl_rgraph *ga, const dl_canon *ka, const dl_program *a, const dl_rgraph *gb,
                    const dl_canon *kb, const dl_program *b, Pvoid_t *names, dl_buf *map)
{
  for (uint32_t v = 0; v < dl_rgraph_vertex_count(ga); v++) {
    if (dl_rgraph_vertex(ga, v)->kind != DL_RG_SYMBOL) continue;
    uint32_t w = dl_canon_vertex(kb, dl_canon_place(ka, v));
    size_t la, lb;
    const char *na = name_of(ga, a->terms, v, &la), *nb = name_of(gb, b->terms, w, &lb);
    Word_t *slot;
    JHSI(slot, *names, (void *)na, la);
    if (slot == PJERR) {
      dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
      return 0;
    }
    dl_sym to = dl_rgraph_vertex(gb, w)->sym;
    if (*slot && *slot != (Word_t)to + 1) {
      dl_diag_report(c->diag, DL_ERROR, NULL, 0,
                     "the renaming gives '%.*s' two names (as symbols of different arities)", (int)la, na);
      return 0;
    }
    if (!*slot && (la != lb || memcmp(na, nb, la))) dl_buf_addf(map, "  %.*s -> %.*s\n", (int)la, na, (int)lb, nb);
    *slot = (Word_t)to + 1;
  }
  return 1;
}

static int is_delimiter(char ch) { return ch == '(' || ch == ')' || ch == ' ' || ch == '\n' || ch == '\t'; }

/* text with every name token found in names replaced by its new name. */
static void rename_text(const dl_buf *text, Pvoid_t names, const dl_terms *terms, dl_buf *out)
{
  for (size_t i = 0; i < text->len;) {
    size_t j = i;
    while (j < text->len && !is_delimiter(text->data[j])) j++;
    if (j == i) {
      dl_buf_add(out, text->data + i++, 1);
      continue;
    }
    Word_t *slot = NULL;
    if (text->data[i] != '?') JHSG(slot, names, text->data + i, j - i);
    size_t len = j - i;
    const char *name = slot ? dl_terms_name(terms, (dl_sym)(*slot - 1), &len) : text->data + i;
    dl_buf_add(out, name, len);
    i = j;
  }
}

int cli_structural_compare(cli_ctx *c, const dl_program *a, const dl_program *b, dl_buf *map, dl_buf *renamed)
{
  dl_rgraph *ga = untyped_graph(c, a), *gb = ga ? untyped_graph(c, b) : NULL;
  dl_canon *ka = gb ? dl_canon_build(ga, c->diag) : NULL, *kb = ka ? dl_canon_build(gb, c->diag) : NULL;
  int result = kb ? dl_canon_equal(ka, kb) : -1;
  if (result == 0)
    dl_buf_addf(map, "  rule graphs of %u and %u vertices, canonical hashes %016llx and %016llx\n",
                dl_rgraph_vertex_count(ga), dl_rgraph_vertex_count(gb), (unsigned long long)dl_canon_hash(ka),
                (unsigned long long)dl_canon_hash(kb));
  Pvoid_t names = NULL;
  if (result == 1 && !renaming(c, ga, ka, a, gb, kb, b, &names, map)) result = -1;
  dl_buf text = { 0 };
  dl_sink sink = { buf_sink, &text };
  if (result == 1 && !dl_output_rules_to(&sink, a, DL_FMT_KIF, NULL)) result = -1;
  if (result == 1) rename_text(&text, names, b->terms, renamed);
  if (result == 1 && (renamed->failed || map->failed)) result = -1;
  if (result < 0 && dl_diag_errors(c->diag) == 0) dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
  Word_t bytes;
  JHSFA(bytes, names);
  (void)bytes;
  dl_buf_free(&text);
  dl_canon_destroy(kb), dl_canon_destroy(ka);
  dl_rgraph_destroy(gb), dl_rgraph_destroy(ga);
  return result;
}
