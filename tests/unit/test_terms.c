/* test_terms.c: the term store: hash-consing gives equal ids to equal terms
 * and only to them, lookups never create, the argument index lists exactly
 * the terms with a given argument, and terms deeper than the limit are
 * refused. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "datalog/base/terms.h"

static void symbols(dl_terms *t)
{
  dl_sym a = dl_terms_symbol(t, "cell", 4), b = dl_terms_symbol(t, "cell", 4), c = dl_terms_symbol(t, "Cell", 4);
  CHECK(a == b, "the same name twice gives one symbol");
  CHECK(a != c, "names are case-sensitive in the store");
  size_t n;
  CHECK(strcmp(dl_terms_name(t, a, &n), "cell") == 0 && n == 4, "the name reads back");
}

static void hash_consing(dl_terms *t)
{
  dl_sym f = dl_terms_symbol(t, "f", 1);
  dl_tid x = dl_terms_constant(t, dl_terms_symbol(t, "x", 1)), y = dl_terms_constant(t, dl_terms_symbol(t, "y", 1));
  dl_tid xy[2] = { x, y }, yx[2] = { y, x };
  dl_tid a = dl_terms_make(t, f, 2, xy), b = dl_terms_make(t, f, 2, xy), c = dl_terms_make(t, f, 2, yx);
  CHECK(a == b, "equal terms get one id");
  CHECK(a != c, "f(x,y) and f(y,x) differ");
  CHECK(dl_terms_find(t, f, 1, &x) == DL_NO_TERM, "find does not create f(x)");
  CHECK(dl_terms_find(t, f, 2, xy) == a, "find finds f(x,y)");
  CHECK(dl_terms_arity(t, a) == 2 && dl_terms_args(t, a)[1] == y, "arguments read back");
  /* many terms: ids stay distinct and stable through rehashing */
  dl_sym g = dl_terms_symbol(t, "g", 1);
  dl_tid first = dl_terms_make(t, g, 1, &x), prev = first;
  uint32_t distinct = 1;
  for (int i = 0; i < 100000; i++) {
    dl_tid next = dl_terms_make(t, g, 1, &prev);
    if (next == DL_NO_TERM) break;  /* the depth limit ends the chain */
    distinct += next != prev;
    prev = next;
  }
  CHECK(dl_terms_make(t, g, 1, &x) == first, "ids survive rehashing");
  CHECK(distinct == DL_MAX_TERM_DEPTH - 1, "a chain of g(...) stops at the depth limit (%u terms)", distinct);
  CHECK(dl_terms_too_deep(t), "the store says why it refused");
}

static void argument_index(dl_terms *t)
{
  dl_sym cell = dl_terms_symbol(t, "cell", 4);
  dl_tid v[4];
  for (int i = 0; i < 4; i++) {
    char name[2] = { (char)('a' + i), 0 };
    v[i] = dl_terms_constant(t, dl_terms_symbol(t, name, 1));
  }
  dl_tid before[2] = { v[0], v[1] };
  dl_tid made = dl_terms_make(t, cell, 2, before);  /* made before the index exists */
  uint32_t n;
  const dl_tid *list = dl_terms_with_arg(t, cell, 2, 0, v[0], &n);
  CHECK(n == 1 && list[0] == made, "the index covers terms made before it");
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      dl_tid args[2] = { v[i], v[j] };
      dl_terms_make(t, cell, 2, args);
    }
  list = dl_terms_with_arg(t, cell, 2, 1, v[2], &n);
  int right = n == 4;
  for (uint32_t k = 0; k < n; k++) right &= dl_terms_args(t, list[k])[1] == v[2];
  CHECK(right, "cell(_, c) lists the 4 terms with c second (got %u)", n);
  CHECK(dl_terms_with_arg(t, cell, 3, 0, v[0], &n) == NULL && n == 0, "another arity has its own lists");
}

/* The index by a combination of arguments: covers the terms made before and
 * after it, each list holds every term with those arguments. */
static void combination_index(dl_terms *t)
{
  dl_sym move = dl_terms_symbol(t, "move", 4);
  dl_tid v[5];
  for (int i = 0; i < 5; i++) {
    char name[3] = { 'm', (char)('0' + i), 0 };
    v[i] = dl_terms_constant(t, dl_terms_symbol(t, name, 2));
  }
  for (int pass = 0; pass < 2; pass++) {  /* before the index exists, then after */
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 5; j++)
        for (int k = pass; k < 5; k += 2) {
          dl_tid args[3] = { v[i], v[j], v[k] };
          dl_terms_make(t, move, 3, args);
        }
    for (int i = 0; i < 5; i++)
      for (int k = 0; k < 5; k++) {
        dl_tid vals[2] = { v[i], v[k] };
        uint32_t n, found = 0;
        const dl_tid *list = dl_terms_with_args(t, move, 3, 5, vals, &n);  /* arguments 0 and 2 */
        for (uint32_t x = 0; x < n; x++) {
          const dl_tid *a = dl_terms_args(t, list[x]);
          found += dl_terms_functor(t, list[x]) == move && a[0] == v[i] && a[2] == v[k];
        }
        uint32_t want = pass || k % 2 == 0 ? 5 : 0;
        CHECK(found == want, "move(%d, _, %d) after pass %d: %u terms, want %u", i, k, pass, found, want);
      }
  }
  uint32_t n;
  CHECK(dl_terms_with_args(t, move, 3, 8, v, &n) == NULL && n == 0, "no argument 3 in move/3");
}

/* dl_terms_constant_named gives the ids that dl_terms_constant of
 * dl_terms_symbol gives, made in the same order, for numbers (found by
 * value) and for other names alike, in stores that saw the name either way
 * first. */
static void constants_by_name(void)
{
  static const char *const names[] = { "7", "x", "007", "0", "16777216", "12", "7", "x", "12", "0" };
  enum { N = sizeof names / sizeof *names };
  dl_terms *a = dl_terms_create(), *b = dl_terms_create();
  for (int i = 0; i < N; i++) {
    size_t n = strlen(names[i]);
    int64_t key = dl_terms_name_key(names[i], n);
    dl_terms_prefetch_constant(a, key);
    dl_tid by_name = dl_terms_constant_named(a, names[i], n, key);
    dl_tid by_symbol = dl_terms_constant(b, dl_terms_symbol(b, names[i], n));
    CHECK(by_name == by_symbol, "%s: constant %u by name, %u by symbol", names[i], by_name, by_symbol);
    size_t len;
    CHECK(strcmp(dl_terms_name(a, dl_terms_functor(a, by_name), &len), names[i]) == 0, "%s reads back", names[i]);
  }
  CHECK(dl_terms_count(a) == 6 && dl_terms_symbol_count(a) == dl_terms_symbol_count(b), "6 constants, as many symbols");
  dl_tid seven = dl_terms_constant(a, dl_terms_symbol(a, "7", 1));
  CHECK(dl_terms_constant_named(a, "7", 1, dl_terms_name_key("7", 1)) == seven, "a number's constant made by symbol is found by name");
  dl_terms_done_reading(a);
  CHECK(dl_terms_constant_named(a, "12", 2, dl_terms_name_key("12", 2)) == dl_terms_constant(b, dl_terms_symbol(b, "12", 2)),
        "after done_reading, numbers are found by symbol again");
  dl_terms_destroy(a);
  dl_terms_destroy(b);
}

/* A store of many numbers (its arrays outgrow a malloc block), cut to
 * size by dl_terms_done_reading, then grown again: every name and id reads
 * back. */
static void many_constants(void)
{
  enum { N = 300000, MORE = 50000 };
  dl_terms *t = dl_terms_create();
  char name[16];
  int ok = 1;
  for (uint32_t i = 0; ok && i < N + MORE; i++) {
    if (i == N) dl_terms_done_reading(t);
    size_t n = (size_t)snprintf(name, sizeof name, "%u", i * 7);
    ok = dl_terms_constant_named(t, name, n, dl_terms_name_key(name, n)) == i;
  }
  CHECK(ok, "number constants get ids in order");
  dl_sym f = dl_terms_symbol(t, "f", 1);
  dl_tid args[2] = { 5, N + 5 }, ft = dl_terms_make(t, f, 2, args);
  CHECK(ft == N + MORE && dl_terms_args(t, ft)[1] == N + 5, "a term made after them reads back");
  for (uint32_t i = 0; ok && i < N + MORE; i += 997) {
    size_t len;
    snprintf(name, sizeof name, "%u", i * 7);
    ok = strcmp(dl_terms_name(t, dl_terms_functor(t, i), &len), name) == 0 && dl_terms_arity(t, i) == 0;
  }
  CHECK(ok, "their names read back");
  dl_terms_destroy(t);
}

int main(void)
{
  constants_by_name();
  many_constants();
  dl_terms *t = dl_terms_create();
  symbols(t);
  hash_consing(t);
  argument_index(t);
  combination_index(t);
  dl_terms_destroy(t);
  return check_exit();
}
