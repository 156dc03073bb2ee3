/* ids.c: see ids.h. */
#include "datalog/base/ids.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void dl_ids_free(dl_ids *l)
{
  if (!l) return;
  free(l->ids);
  memset(l, 0, sizeof *l);
}

int dl_ids_reserve(dl_ids *l, uint32_t n)
{
  assert(l);
  if (n <= l->cap) return 1;
  uint32_t cap = l->cap ? l->cap : 16;
  while (cap < n) cap = cap > UINT32_MAX / 2 ? n : cap * 2;
  uint32_t *ids = realloc(l->ids, (size_t)cap * sizeof *ids);
  if (!ids) return 0;
  l->ids = ids;
  l->cap = cap;
  return 1;
}

int dl_ids_push(dl_ids *l, uint32_t id)
{
  assert(l);
  if (l->n == l->cap && !dl_ids_reserve(l, l->n + 1)) return 0;
  l->ids[l->n++] = id;
  return 1;
}
