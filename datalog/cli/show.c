/* show.c: --show PRED[/N],... (cli.h): which predicates a model is printed
 * with, as gringo's #show.  The option may be given several times; the
 * names add up. */
#include <stdlib.h>
#include <string.h>

#include "datalog/cli/cli.h"

/* One item of a --show list: name[0..len), arity or -1 for any. */
typedef struct show_item {
  const char *name;
  size_t len;
  long arity;
} show_item;

/* Reads the item at *p (a list "a,b/2") and moves *p past it and its
 * comma.  Returns 1, 0 when the item is malformed. */
static int next_item(const char **p, show_item *it)
{
  size_t n = strcspn(*p, ",");
  const char *slash = memchr(*p, '/', n);
  it->name = *p;
  it->len = slash ? (size_t)(slash - *p) : n;
  it->arity = -1;
  int ok = it->len > 0;
  if (slash) {
    size_t digits = n - it->len - 1;
    ok = ok && digits > 0 && digits < 6 && strspn(slash + 1, "0123456789") >= digits;
    if (ok) it->arity = strtol(slash + 1, NULL, 10);
  }
  *p += n + ((*p)[n] == ',');
  return ok;
}

int cli_show_valid(const cli_ctx *c)
{
  const char *v;
  for (int i = 0; (v = cli_value_at(c, "--show", i)); i++) {
    const char *p = v;
    show_item it;
    do {
      if (!next_item(&p, &it)) return !cli_usage(c, "--show needs PRED or PRED/N, separated by commas, not '%s'", v);
    } while (*p);
  }
  return 1;
}

static int matches(const dl_program *p, uint32_t pred, const show_item *it)
{
  const char *name = dl_program_pred_name(p, pred);
  return strlen(name) == it->len && memcmp(name, it->name, it->len) == 0 &&
         (it->arity < 0 || (uint32_t)it->arity == p->preds[pred].arity);
}

/* Warns that --show names it, a predicate p lacks.  Returns 0 when the
 * warning is an error. */
static int warn_missing(cli_ctx *c, const dl_program *p, const show_item *it)
{
  show_item any = { it->name, it->len, -1 };
  uint32_t other = 0;
  while (other < p->n_preds && !matches(p, other, &any)) other++;
  if (it->arity < 0) return cli_warn(c, "--show: no predicate '%.*s' in the program", (int)it->len, it->name);
  if (other == p->n_preds)
    return cli_warn(c, "--show: no predicate '%.*s/%ld' in the program", (int)it->len, it->name, it->arity);
  return cli_warn(c, "--show: no predicate '%.*s/%ld' in the program (%.*s has arity %u)", (int)it->len, it->name,
                  it->arity, (int)it->len, it->name, p->preds[other].arity);
}

/* Clears skip[pred] (when skip) for each predicate of p an item of --show
 * names, and warns about the items that name none (when warn).  Returns 0 when a
 * warning is an error. */
static int for_each_shown(cli_ctx *c, const dl_program *p, uint8_t *skip, int warn)
{
  const char *v;
  int ok = 1;
  for (int i = 0; (v = cli_value_at(c, "--show", i)); i++) {
    const char *q = v;
    show_item it;
    while (*q && next_item(&q, &it)) {
      int found = 0;
      for (uint32_t pred = 0; pred < p->n_preds; pred++) {
        if (!matches(p, pred, &it)) continue;
        found = 1;
        if (skip) skip[pred] = 0;
      }
      if (!found && warn) ok &= warn_missing(c, p, &it);
    }
  }
  return ok;
}

int cli_show_check(cli_ctx *c, const dl_program *p) { return for_each_shown(c, p, NULL, 1); }

int cli_show_skip(cli_ctx *c, const dl_program *p, uint8_t **skip)
{
  *skip = NULL;
  if (!cli_given(c, "--show")) return 1;
  *skip = malloc(p->n_preds + 1);
  if (!*skip) {
    dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  memset(*skip, 1, p->n_preds + 1);
  for_each_shown(c, p, *skip, 0);
  return 1;
}
