/* simplify.c: simplification of the pruned ground game (see simplify.h), in
 * rounds until nothing changes, so that the
 * propnet it makes has fewer components (ground.h counts them), in the
 * spirit of ggp-base's OptimizingPropNetFactory and Sancho:
 *
 *  - unused: the rules of a supporting atom (role other) that nothing uses go;
 *  - constants: an atom with a fact is true: it leaves the bodies that use
 *    it, rules that negate it go, and its other rules too; an atom with no
 *    rule (not an input) is false: rules that use it go, its negations leave;
 *  - aliases: a supporting atom whose one rule has one literal is replaced
 *    by that literal (or its negation) everywhere;
 *  - merges: a rule h :- b, where b is a supporting atom used only there,
 *    becomes b's rules with head h;
 *  - inlining: a supporting atom with one rule, never negated, is replaced
 *    by that rule's body where it is used, when that lowers the count;
 *  - factoring: rules of one head that differ in one literal only, h :- R &
 *    l1, ..., h :- R & lk, become h :- R & x with x :- l1, ..., x :- lk; x
 *    (a new supporting atom simp_N) is shared by every head whose group has
 *    the same literals l1..lk, and is made only when that lowers the count;
 *  - duplicate rules, and rules whose body contains another rule's body for
 *    the same head (for heads with few rules), go;
 *  - shared bodies: h :- B becomes h :- b when b (supporting or legal) has
 *    the one rule b :- B & c, where the input literal c stands beside the
 *    supporting atom h in every rule that reads h (h & c is all its readers
 *    see), unless b's predicate reads h's.
 *
 * Atoms of the game's keywords (true, does, legal, next, goal, terminal,
 * role, init, base, input) keep their identity; only supporting atoms are
 * renamed, inlined or removed.  Each step is an unfolding or folding of a
 * stratified ground program, so the keyword atoms hold in exactly the same
 * states and joint moves. */
#include "datalog/simplify/simplify.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "datalog/base/sort.h"
#include "datalog/ground/ground_impl.h"
#include "datalog/simplify/simplify_pgraph.h"

enum { MAX_ROUNDS = 16, SUBSUME_MAX = 64 };

/* Another round follows only one that made the propnet smaller by a
 * GAIN_MIN-th (2%) at least: a round costs about as much as the one
 * before, and those after the first gain little.  A next round that would
 * not factor (factor_again skips) only repeats the clean-up passes, and
 * follows only a round that gained a GAIN_MIN_UNFACTORED-th (5%): othello's
 * first round gains 4.3%, a second would gain 0.16% of its components for a
 * tenth of the whole grounding's time.  Over the corpus this costs 0.13% of
 * the components (queens 3.9%, amazons_10x10 1.0%, most games nothing). */
enum { GAIN_MIN = 50, GAIN_MIN_UNFACTORED = 20 };

/* Rounds stop once they have started with this many literals in all: a budget
 * counted in work, not seconds, so that the ground game does not depend on the
 * machine's load. Amazons (4.3 million literals) stops on its gain within it, after 2 rounds. */
#define SIMPLIFY_WORK_MAX 12000000u

typedef struct simp {
  dl_ground *g;
  vec32 lits;            /* per rule: head, n, body[n] */
  size_t *at;
  uint32_t *origin;
  uint8_t *alive;
  uint32_t n, cap;
  /* per atom, rebuilt by index_rules() */
  uint32_t *pos, *neg;       /* uses of the atom, positive and negative */
  uint8_t *fact;
  uint32_t *ustart, *uitem;  /* CSR: the rules using the atom (either sign), by index_uses() */
  uint32_t *hstart, *hitem;  /* CSR: the rules of the atom */
  uint32_t ix_atoms;
  vec32 tmp;
  uint32_t n_new;
  int changed;
  uint64_t kills;            /* rules removed or replaced */
  int skip_factor;           /* the last factoring changed under 2% of the rules */
  uint64_t edits;            /* changes to rules or atoms so far */
  uint64_t ix_edits;         /* edits when the index was built (UINT64_MAX: none built) */
  uint64_t ux_edits;         /* edits when its lists of uses were built (index_uses) */
  uint32_t dead;             /* rules killed since the last pack */
  /* heads whose rules changed since the last subsumed() */
  uint8_t *dirty;
  uint32_t dirty_cap;
  int all_dirty;             /* and every head counts as changed, until the first subsumed() */
  int dirty_lost;            /* a change could not be noted: every head counts as changed */
} simp;

static int32_t *lits_of(const simp *s, uint32_t i) { return &s->lits.a[s->at[i]]; }

static uint32_t absl(int32_t l) { return (uint32_t)(l < 0 ? -l : l); }

static int is_support(const simp *s, uint32_t a) { return s->g->atom_role[a] == DL_ATOM_OTHER; }

/* ---- rules and atoms --------------------------------------------------------------------------- */

/* Notes that the rules of head changed (see subsumed). */
static void touch(simp *s, int32_t head)
{
  uint32_t a = (uint32_t)head;
  if (s->dirty_lost) return;
  if (a >= s->dirty_cap) {
    uint32_t cap = a + 1 > 2 * s->dirty_cap ? a + 1 : 2 * s->dirty_cap;
    uint8_t *d = realloc(s->dirty, cap);
    if (!d) {
      s->dirty_lost = 1;
      return;
    }
    memset(d + s->dirty_cap, 0, cap - s->dirty_cap);
    s->dirty = d;
    s->dirty_cap = cap;
  }
  s->dirty[a] = 1;
}

/* Whether the rules of head a changed since the last subsumed(). */
static int edited(const simp *s, uint32_t a) { return s->dirty_lost || (a < s->dirty_cap && s->dirty[a]); }

/* edited, or every head counts (the first subsumed()). */
static int is_dirty(const simp *s, uint32_t a) { return s->all_dirty || edited(s, a); }

/* Appends rule head :- body[0..n), whose body is normalized (sorted, each
 * literal once) and not s->tmp's storage. */
static int push_rule(simp *s, int32_t head, const int32_t *body, uint32_t n, uint32_t origin)
{
  if (s->n == s->cap) {
    uint32_t cap = s->cap ? 2 * s->cap : 1024;
    size_t *at = realloc(s->at, cap * sizeof *at);
    if (at) s->at = at;
    uint32_t *o = at ? realloc(s->origin, cap * sizeof *o) : NULL;
    if (o) s->origin = o;
    uint8_t *al = o ? realloc(s->alive, cap) : NULL;
    if (!al) return 0;
    s->alive = al;
    s->cap = cap;
  }
  s->edits++;
  touch(s, head);
  s->at[s->n] = s->lits.n;
  s->origin[s->n] = origin;
  s->alive[s->n++] = 1;
  if (!gr_push32(&s->lits, head) || !gr_push32(&s->lits, (int32_t)n)) return 0;
  for (uint32_t k = 0; k < n; k++)
    if (!gr_push32(&s->lits, body[k])) return 0;
  return 1;
}

/* Adds rule head :- body[0..n) (normalized; a contradictory body adds nothing). */
static int add_rule(simp *s, int32_t head, const int32_t *body, uint32_t n, uint32_t origin)
{
  s->tmp.n = 0;
  for (uint32_t k = 0; k < n; k++)
    if (!gr_push32(&s->tmp, body[k])) return 0;
  return !gr_normalize_body(s->tmp.a, &n) || push_rule(s, head, s->tmp.a, n, origin);
}

static void kill_rule(simp *s, uint32_t i)
{
  if (!s->alive[i]) return;
  s->alive[i] = 0, s->changed = 1, s->kills++, s->dead++, s->edits++;
  touch(s, lits_of(s, i)[0]);
}

/* A new supporting atom simp_N, an atom of its own predicate (so that what
 * a predicate depends on, and how, stays what its atoms do); 0 when out of
 * memory. */
static int32_t new_atom(simp *s)
{
  dl_ground *g = s->g;
  if (!gr_reserve_atom(g)) return 0;
  dl_sym sym = dl_program_fresh_symbol(g->game, "simp", s->n_new++);
  dl_tid t = sym == DL_NO_SYM ? DL_NO_TERM : dl_terms_constant(g->terms, sym);
  if (t == DL_NO_TERM) return 0;
  uint32_t id = ++g->n_atoms;
  s->edits++;
  g->atom_term[id] = t;
  g->atom_role[id] = DL_ATOM_OTHER;
  g->atom_aux[id] = 0;
  return (int32_t)id;
}

/* ---- the index --------------------------------------------------------------------------------- */

static void free_index(simp *s)
{
  free(s->pos); free(s->neg); free(s->fact);
  free(s->ustart); free(s->uitem); free(s->hstart); free(s->hitem);
  s->pos = s->neg = s->ustart = s->uitem = s->hstart = s->hitem = NULL;
  s->fact = NULL;
}

/* Per atom: its alive rules (a CSR list), its uses counted, whether it has
 * a fact.  Built again only when a rule or an atom changed since the last
 * time.  The lists of uses are index_uses'. */
static int index_rules(simp *s)
{
  if (s->ix_edits == s->edits) return 1;
  free_index(s);
  s->ix_edits = s->ux_edits = UINT64_MAX;
  uint32_t na = s->g->n_atoms + 2;
  s->ix_atoms = s->g->n_atoms;
  s->pos = calloc(na, sizeof *s->pos);
  s->neg = calloc(na, sizeof *s->neg);
  s->fact = calloc(na, 1);
  s->hstart = calloc(na + 1, sizeof *s->hstart);
  if (!s->pos || !s->neg || !s->fact || !s->hstart) return 0;
  for (uint32_t i = 0; i < s->n; i++) {
    if (!s->alive[i]) continue;
    const int32_t *x = lits_of(s, i);
    s->hstart[x[0] + 1]++;
    if (x[1] == 0) s->fact[x[0]] = 1;
    for (int32_t k = 0; k < x[1]; k++) {
      int32_t l = x[2 + k];
      if (l > 0) s->pos[l]++;
      else s->neg[-l]++;
    }
  }
  for (uint32_t a = 0; a < na; a++) s->hstart[a + 1] += s->hstart[a];
  if (!(s->hitem = malloc((s->n + 1) * sizeof *s->hitem))) return 0;
  for (uint32_t i = 0; i < s->n; i++)
    if (s->alive[i]) s->hitem[s->hstart[lits_of(s, i)[0]]++] = i;
  for (uint32_t a = na; a > 0; a--) s->hstart[a] = s->hstart[a - 1];
  s->hstart[0] = 0;
  s->ix_edits = s->edits;
  return 1;
}

/* index_rules, and per atom the alive rules that use it (either sign, a
 * CSR list): only some passes need them. */
static int index_uses(simp *s)
{
  if (!index_rules(s)) return 0;
  if (s->ux_edits == s->edits) return 1;
  uint32_t na = s->ix_atoms + 2;
  free(s->ustart);
  free(s->uitem);
  s->uitem = NULL;
  if (!(s->ustart = malloc((na + 1) * sizeof *s->ustart))) return 0;
  s->ustart[0] = 0;
  for (uint32_t a = 0; a < na; a++) s->ustart[a + 1] = s->ustart[a] + s->pos[a] + s->neg[a];
  if (!(s->uitem = malloc(((size_t)s->ustart[na] + 1) * sizeof *s->uitem))) return 0;
  for (uint32_t i = 0; i < s->n; i++) {
    if (!s->alive[i]) continue;
    const int32_t *x = lits_of(s, i);
    for (int32_t k = 0; k < x[1]; k++) s->uitem[s->ustart[absl(x[2 + k])]++] = i;
  }
  for (uint32_t a = na; a > 0; a--) s->ustart[a] = s->ustart[a - 1];
  s->ustart[0] = 0;
  s->ux_edits = s->edits;
  return 1;
}

/* The index's rules of atom a (alive when the index was built). */
static uint32_t n_rules(const simp *s, uint32_t a) { return s->hstart[a + 1] - s->hstart[a]; }

/* The first of them (a must have one). */
static uint32_t first_rule(const simp *s, uint32_t a) { return s->hitem[s->hstart[a]]; }

/* The index's rules whose one literal is a (positive); read before any rule
 * changes after the index was built. */
static uint32_t uses_alone(const simp *s, uint32_t a)
{
  uint32_t n = 0;
  for (uint32_t u = s->ustart[a]; u < s->ustart[a + 1]; u++) {
    const int32_t *x = lits_of(s, s->uitem[u]);
    n += x[1] == 1 && x[2] == (int32_t)a;
  }
  return n;
}

/* ---- unused atoms and constants ---------------------------------------------------------------- */

/* Rules of supporting atoms nothing uses go, repeatedly. */
static int drop_unused(simp *s)
{
  if (!index_rules(s)) return 0;
  uint32_t *stack = malloc((s->g->n_atoms + 1) * sizeof *stack), sn = 0;
  if (!stack) return 0;
  for (uint32_t a = 1; a <= s->g->n_atoms; a++)
    if (is_support(s, a) && n_rules(s, a) && s->pos[a] + s->neg[a] == 0) stack[sn++] = a;
  while (sn) {
    uint32_t a = stack[--sn];
    for (uint32_t u = s->hstart[a]; u < s->hstart[a + 1]; u++) {
      uint32_t i = s->hitem[u];
      if (!s->alive[i]) continue;
      kill_rule(s, i);
      const int32_t *x = lits_of(s, i);
      for (int32_t k = 0; k < x[1]; k++) {
        uint32_t b = absl(x[2 + k]);
        if (x[2 + k] > 0) s->pos[b]--;
        else s->neg[b]--;
        if (is_support(s, b) && b != a && s->pos[b] + s->neg[b] == 0) stack[sn++] = b;
      }
    }
  }
  free(stack);
  return 1;
}

/* One sweep of constant folding; *more when it changed something. */
static int fold_constants(simp *s, int *more)
{
  if (!index_rules(s)) return 0;
  dl_ground *g = s->g;
  *more = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    if (!s->alive[i]) continue;
    int32_t *x = lits_of(s, i);
    if (x[1] > 0 && s->fact[x[0]]) { kill_rule(s, i), *more = 1; continue; }  /* a fact says it all */
    int32_t m = 0;
    for (int32_t k = 0; k < x[1]; k++) {
      int32_t l = x[2 + k];
      uint32_t a = absl(l);
      int is_false = !n_rules(s, a) && !gr_is_input(g->atom_role[a]);
      if ((l > 0 && is_false) || (l < 0 && s->fact[a])) { kill_rule(s, i), *more = 1; break; }
      if ((l > 0 && s->fact[a]) || (l < 0 && is_false)) { *more = 1; continue; }
      x[2 + m++] = l;
    }
    if (s->alive[i] && m != x[1]) x[1] = m, s->changed = 1, s->edits++, touch(s, x[0]);
  }
  /* a supporting fact left unused goes with drop_unused */
  return 1;
}

static int constants(simp *s)
{
  for (int more = 1; more;)
    if (!fold_constants(s, &more)) return 0;
  return 1;
}

/* ---- aliases and merges ------------------------------------------------------------------------ */

/* The literal a supporting atom stands for: its one rule's one literal, followed. */
static int32_t alias_of(const simp *s, int32_t l)
{
  for (int steps = 0; steps < 64; steps++) {
    uint32_t a = absl(l);
    if (!is_support(s, a) || n_rules(s, a) != 1) return l;
    const int32_t *x = lits_of(s, first_rule(s, a));
    if (x[1] != 1 || absl(x[2]) == a) return l;
    l = l > 0 ? x[2] : -x[2];
  }
  return l;
}

static int aliases(simp *s)
{
  if (!index_rules(s)) return 0;
  for (uint32_t i = 0; i < s->n; i++) {
    if (!s->alive[i]) continue;
    int32_t *x = lits_of(s, i);
    int replaced = 0;
    for (int32_t k = 0; k < x[1]; k++) {
      int32_t r = alias_of(s, x[2 + k]);
      if (r != x[2 + k] && absl(r) != (uint32_t)x[0]) x[2 + k] = r, replaced = 1;
    }
    if (!replaced) continue;
    s->changed = 1;
    s->edits++;
    touch(s, x[0]);
    uint32_t n = (uint32_t)x[1];
    if (!gr_normalize_body(x + 2, &n)) kill_rule(s, i);
    else x[1] = (int32_t)n;
  }
  return 1;
}

/* h :- b, b supporting and used only there: b's rules get head h.  Its
 * one use is that rule, so none of b's rules uses b: the counts of uses
 * say enough, without the lists of index_uses. */
static int merges(simp *s)
{
  if (!index_rules(s)) return 0;
  uint32_t n0 = s->n;
  for (uint32_t i = 0; i < n0; i++) {
    if (!s->alive[i]) continue;
    int32_t h = lits_of(s, i)[0], b = lits_of(s, i)[2];
    if (lits_of(s, i)[1] != 1 || b < 0 || b == h || !is_support(s, (uint32_t)b)) continue;
    if (s->pos[b] != 1 || s->neg[b]) continue;
    int merged = 0;  /* b's rules must not be rules merged already */
    for (uint32_t u = s->hstart[b]; u < s->hstart[b + 1]; u++) merged |= !s->alive[s->hitem[u]];
    if (merged) continue;
    kill_rule(s, i);
    for (uint32_t u = s->hstart[b]; u < s->hstart[b + 1]; u++) {
      uint32_t r = s->hitem[u];
      kill_rule(s, r);
      s->tmp.n = 0;
      if (!add_rule(s, h, lits_of(s, r) + 2, (uint32_t)lits_of(s, r)[1], s->origin[r])) return 0;
    }
  }
  return 1;
}

/* ---- inlining ---------------------------------------------------------------------------------- */

/* A supporting atom with one rule of two or more literals, never negated,
 * not used in its own rule nor in a rule inlined this sweep, is replaced by
 * that body where it is used, when its uses in rules of one literal (which
 * then become conjunctions) are fewer than two. */
static int inlines(simp *s)
{
  if (!index_uses(s)) return 0;
  dl_ground *g = s->g;
  uint8_t *chosen = calloc(g->n_atoms + 1, 1), *touched = calloc(s->n + 1, 1);
  int ok = chosen && touched;
  uint32_t n0 = s->n;
  for (uint32_t a = 1; ok && a <= g->n_atoms; a++) {
    if (!is_support(s, a) || n_rules(s, a) != 1 || s->neg[a] || !s->pos[a] || uses_alone(s, a) >= 2) continue;
    uint32_t d = first_rule(s, a);
    const int32_t *x = lits_of(s, d);
    if (x[1] < 2 || touched[d]) continue;
    int bad = 0;
    for (int32_t k = 0; k < x[1]; k++) bad |= absl(x[2 + k]) == a || chosen[absl(x[2 + k])];
    for (uint32_t u = s->ustart[a]; u < s->ustart[a + 1]; u++) bad |= touched[s->uitem[u]] == 2;
    if (bad) continue;
    chosen[a] = 1;
    touched[d] = 2;
    for (uint32_t u = s->ustart[a]; u < s->ustart[a + 1]; u++) touched[s->uitem[u]] = 1;
  }
  vec32 body = { 0 };
  for (uint32_t i = 0; ok && i < n0; i++) {
    if (!s->alive[i] || touched[i] != 1) continue;
    const int32_t *x = lits_of(s, i);
    body.n = 0;
    int any = 0;
    for (int32_t k = 0; ok && k < x[1]; k++) {
      int32_t l = x[2 + k];
      if (l < 0 || !chosen[l]) { ok = gr_push32(&body, l); continue; }
      const int32_t *y = lits_of(s, first_rule(s, (uint32_t)l));
      for (int32_t e = 0; ok && e < y[1]; e++) ok = gr_push32(&body, y[2 + e]);
      any = 1;
    }
    if (!ok || !any) continue;
    kill_rule(s, i);
    ok = add_rule(s, x[0], body.a, (uint32_t)body.n, s->origin[i]);
  }
  for (uint32_t a = 1; ok && a <= g->n_atoms; a++)
    if (chosen[a]) kill_rule(s, first_rule(s, a));
  free(body.a);
  free(chosen);
  free(touched);
  return ok;
}

/* ---- factoring --------------------------------------------------------------------------------- */

/* One way to see a rule: head :- (body without literal skip) & body[skip]. */
typedef struct view { uint64_t hash; uint32_t rule, skip; } view;

static uint64_t mix(uint64_t h, int32_t x)
{
  h ^= (uint32_t)x;
  h *= 0x100000001b3ULL;
  return h ^ (h >> 29);
}

/* The end of a hash: every bit of h moves the top bits, which the radix
 * sort's first pass splits on (mix alone leaves them alike for bodies that
 * differ in small atom ids: one bucket per head, sorted bit by bit). */
static uint64_t finish(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 33);
}

/* A hash of the head, the length and the body without literal skip. */
static uint64_t view_hash(const int32_t *x, int32_t skip)
{
  uint64_t h = mix(mix(0xcbf29ce484222325ULL, x[0]), x[1]);
  for (int32_t k = 0; k < x[1]; k++)
    if (k != skip) h = mix(h, x[2 + k]);
  return h;
}

static int same_rest(const simp *s, const view *va, const view *vb)
{
  const int32_t *x = lits_of(s, va->rule), *y = lits_of(s, vb->rule);
  if (x[0] != y[0] || x[1] != y[1]) return 0;
  for (int32_t k = 0, e = 0; k < x[1] && e < y[1]; k++, e++) {
    if ((uint32_t)k == va->skip) k++;
    if ((uint32_t)e == vb->skip) e++;
    if (k >= x[1] || e >= y[1]) break;
    if (x[2 + k] != y[2 + e]) return 0;
  }
  return 1;
}

typedef struct group { uint32_t first, size, key, pre; } group;  /* a run of views */

static int group_cmp(const void *pa, const void *pb, void *ctx)
{
  const uint32_t *pre_gain = ctx;
  const group *a = pa, *b = pb;
  if (pre_gain[a->pre] != pre_gain[b->pre]) return pre_gain[a->pre] > pre_gain[b->pre] ? -1 : 1;
  if (a->size != b->size) return a->size > b->size ? -1 : 1;
  return (a->first > b->first) - (a->first < b->first);
}

/* The classes of literal sets: a set's class, and per class its gain and atom. */
typedef struct classes {
  Pvoid_t sets;  /* JudyHS: sorted literal set -> class + 1 */
  uint32_t *pre_gain, *gain;
  int32_t *atom;
  uint32_t n, cap;
  vec32 key;
} classes;

/* The class of the varying literals of views[members[0..m)]; UINT32_MAX when out of memory. */
static uint32_t class_of(const simp *s, classes *c, const view *v, const uint32_t *members, uint32_t m)
{
  c->key.n = 0;
  for (uint32_t e = 0; e < m; e++)
    if (!gr_push32(&c->key, lits_of(s, v[members[e]].rule)[2 + v[members[e]].skip])) return UINT32_MAX;
  dl_sort_int32(c->key.a, c->key.n);
  PPvoid_t slot = JudyHSIns(&c->sets, c->key.a, c->key.n * sizeof *c->key.a, PJE0);
  if (slot == PPJERR) return UINT32_MAX;
  if (!*slot) {
    if (c->n == c->cap) {
      uint32_t cap = c->cap ? 2 * c->cap : 256;
      uint32_t *pg = realloc(c->pre_gain, cap * sizeof *pg);
      if (pg) c->pre_gain = pg;
      uint32_t *gn = pg ? realloc(c->gain, cap * sizeof *gn) : NULL;
      if (gn) c->gain = gn;
      int32_t *at = gn ? realloc(c->atom, cap * sizeof *at) : NULL;
      if (!at) return UINT32_MAX;
      c->atom = at;
      c->cap = cap;
    }
    c->pre_gain[c->n] = c->gain[c->n] = 0;
    c->atom[c->n] = 0;
    *slot = (void *)(uintptr_t)++c->n;
  }
  return (uint32_t)(uintptr_t)*slot - 1;
}

/* Drops the views v[0..nv) whose hash no other view has: they are in no
 * group, and most views are so (othello: 4,576 of 300,254).  Two bitsets
 * over 8 nv slots by the hash's top bits; a view kept by a collision of
 * slots costs only its place in the sort.  The others keep their order.
 * Returns the views kept (all of them when out of memory). */
static size_t drop_singletons(view *v, size_t nv)
{
  unsigned bits = 6;
  while (bits < 40 && ((size_t)1 << bits) < 8 * nv) bits++;
  size_t words = ((size_t)1 << bits) / 64;
  uint64_t *once = calloc(words, sizeof *once), *twice = calloc(words, sizeof *twice);
  if (!once || !twice) return free(once), free(twice), nv;
  for (size_t e = 0; e < nv; e++) {
    uint64_t i = v[e].hash >> (64 - bits), bit = (uint64_t)1 << (i & 63);
    if (once[i >> 6] & bit) twice[i >> 6] |= bit;
    once[i >> 6] |= bit;
  }
  size_t m = 0;
  for (size_t e = 0; e < nv; e++) {
    uint64_t i = v[e].hash >> (64 - bits);
    if (twice[i >> 6] >> (i & 63) & 1) v[m++] = v[e];
  }
  free(once);
  free(twice);
  return m;
}

/* The state of one factoring pass: the views of the rules that may share
 * a rest, their groups, and per rule the group that claimed it. */
typedef struct factoring {
  view *v;
  size_t nv;
  group *gr;
  uint32_t ng;
  uint32_t *claimed;  /* per rule: group + 1 that took it, 0: none */
  uint32_t *members;  /* room for a group's views */
  classes c;
} factoring;

/* Makes a view per literal of each live rule with two or more literals
 * whose head has two or more rules, and keeps those whose hash another
 * view shares.  Returns 0 when out of memory. */
static int collect_views(simp *s, factoring *f)
{
  size_t nv = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    const int32_t *x = lits_of(s, i);
    if (s->alive[i] && x[1] >= 2 && n_rules(s, (uint32_t)x[0]) >= 2) nv += (size_t)x[1];
  }
  view *v = f->v = malloc((nv + 1) * sizeof *v);
  if (!v) return 0;
  nv = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    const int32_t *x = lits_of(s, i);
    if (!s->alive[i] || x[1] < 2 || n_rules(s, (uint32_t)x[0]) < 2) continue;
    for (int32_t k = 0; k < x[1]; k++) v[nv].hash = view_hash(x, k), v[nv].rule = i, v[nv++].skip = (uint32_t)k;
  }
  f->nv = drop_singletons(v, nv);  /* the arrays per view are for those left */
  view *w = realloc(v, (f->nv + 1) * sizeof *v);
  if (w) f->v = w;
  return 1;
}

/* Groups the views by their rest (the rule without the view's literal),
 * each group's literal set classed, best classes first.  Returns 0 when
 * out of memory. */
static int group_views(const simp *s, factoring *f)
{
  view *v = f->v;
  /* by hash, stably (views were made in rule order): equal views are
     adjacent unless two hashes collide, which only splits a group */
  if (!dl_sort_by_key64(v, f->nv, sizeof *v, offsetof(view, hash))) return 0;
  for (size_t a = 0, b; a < f->nv; a = b) {
    for (b = a + 1; b < f->nv && same_rest(s, &v[a], &v[b]); b++) {}
    if (b - a < 2) continue;
    for (uint32_t e = 0; e < b - a; e++) f->members[e] = (uint32_t)a + e;
    uint32_t k = class_of(s, &f->c, v, f->members, (uint32_t)(b - a));
    if (k == UINT32_MAX) return 0;
    f->c.pre_gain[k] += (uint32_t)(b - a) - 1;
    f->gr[f->ng++] = (group){ .first = (uint32_t)a, .size = (uint32_t)(b - a), .pre = k, .key = 0 };
  }
  dl_sort(f->gr, f->ng, sizeof *f->gr, group_cmp, f->c.pre_gain);
  return 1;
}

/* Lets the groups claim their rules, best first: a group keeps the rules
 * no better group took, and its class gains what they save.  Returns 0
 * when out of memory. */
static int claim_rules(const simp *s, factoring *f)
{
  for (uint32_t q = 0; q < f->ng; q++) {
    group *g = &f->gr[q];
    uint32_t m = 0;
    for (uint32_t e = g->first; e < g->first + g->size; e++)
      if (!f->claimed[f->v[e].rule]) f->members[m++] = e;
    if (m < 2) { g->size = 0; continue; }
    uint32_t k = m == g->size ? g->pre : class_of(s, &f->c, f->v, f->members, m);
    if (k == UINT32_MAX) return 0;
    g->key = k;
    /* m rules become one; the head loses its or-gate when they were all its rules */
    f->c.gain[k] += m - 1 + (m == n_rules(s, (uint32_t)lits_of(s, f->v[f->members[0]].rule)[0]));
    for (uint32_t e = 0; e < m; e++) f->claimed[f->v[f->members[e]].rule] = q + 1;
    g->size = m;
  }
  return 1;
}

/* Rewrites group q's rules h :- R & l_i as h :- R & x, with x :- l_i made
 * once per class.  Returns 0 when out of memory. */
static int rewrite_group(simp *s, factoring *f, uint32_t q)
{
  const group *g = &f->gr[q];
  classes *c = &f->c;
  int new_class = !c->atom[g->key];
  if (new_class && !(c->atom[g->key] = new_atom(s))) return 0;
  int32_t xa = c->atom[g->key];
  uint32_t m = 0, r0 = 0;
  for (uint32_t e = g->first; e < f->nv && m < g->size; e++) {
    const view *w = &f->v[e];
    if (f->claimed[w->rule] != q + 1) continue;
    f->claimed[w->rule] = 0;
    if (++m == 1) r0 = e;
    if (new_class && !add_rule(s, xa, &lits_of(s, w->rule)[2 + w->skip], 1, UINT32_MAX)) return 0;
    kill_rule(s, w->rule);
  }
  const int32_t *x = lits_of(s, f->v[r0].rule);
  c->key.n = 0;
  for (int32_t e = 0; e < x[1]; e++)
    if (!gr_push32(&c->key, (uint32_t)e == f->v[r0].skip ? xa : x[2 + e])) return 0;
  return add_rule(s, x[0], c->key.a, (uint32_t)c->key.n, s->origin[f->v[r0].rule]);
}

/* Rules of a head that differ in one literal: h :- R & x, x :- l1 | .. | lk.
 * Groups whose literal set many heads share go first; a group is
 * rewritten when its class pays for its atom (atom + or-gate). */
static int factor(simp *s)
{
  if (!index_rules(s)) return 0;
  factoring f = { 0 };
  uint32_t n0 = s->n;  /* the rules the views name; rewriting adds more */
  int ok = collect_views(s, &f);
  f.gr = malloc((f.nv + 1) * sizeof *f.gr);
  f.claimed = calloc((size_t)n0 + 1, sizeof *f.claimed);
  f.members = malloc((f.nv + 1) * sizeof *f.members);
  ok = ok && f.gr && f.claimed && f.members && group_views(s, &f) && claim_rules(s, &f);
  for (uint32_t q = 0; ok && q < f.ng; q++)
    if (f.gr[q].size >= 2 && f.c.gain[f.gr[q].key] > 2) ok = rewrite_group(s, &f, q);
  Word_t freed;
  JHSFA(freed, f.c.sets);
  (void)freed;
  free(f.c.key.a);
  free(f.c.pre_gain);
  free(f.c.gain);
  free(f.c.atom);
  free(f.v);
  free(f.gr);
  free(f.claimed);
  free(f.members);
  return ok;
}

/* ---- duplicates and subsumed rules ------------------------------------------------------------- */

static int subset(const int32_t *a, int32_t na, const int32_t *b, int32_t nb)
{
  int32_t j = 0;
  for (int32_t i = 0; i < na; i++) {
    while (j < nb && b[j] < a[i]) j++;
    if (j == nb || b[j] != a[i]) return 0;
    j++;
  }
  return 1;
}

/* A 64-bit signature of a body: a body holds another only when its
 * signature holds the other's. */
static uint64_t body_signature(const int32_t *body, int32_t n)
{
  uint64_t sig = 0;
  for (int32_t k = 0; k < n; k++) sig |= (uint64_t)1 << (((uint32_t)body[k] * 0x9e3779b1u) >> 26);
  return sig;
}

/* Kills each of the n (at most SUBSUME_MAX) rules item[] of one head (in
 * rule order) whose body holds the body of another one of them, or equals
 * the body of an earlier one. */
static void kill_subsumed(simp *s, const uint32_t *item, uint32_t n)
{
  uint64_t sig[SUBSUME_MAX];
  for (uint32_t u = 0; u < n; u++) {
    const int32_t *x = lits_of(s, item[u]);
    sig[u] = body_signature(x + 2, x[1]);
  }
  for (uint32_t u = 0; u < n; u++) {
    uint32_t i = item[u];
    const int32_t *x = lits_of(s, i);
    for (uint32_t w = 0; w < n && s->alive[i]; w++) {
      uint32_t j = item[w];
      if (j == i || !s->alive[j] || (sig[w] & ~sig[u])) continue;
      const int32_t *y = lits_of(s, j);
      int may_cover = y[1] < x[1] || (y[1] == x[1] && w < u);  /* smaller, or equal and earlier */
      if (may_cover && subset(y + 2, y[1], x + 2, x[1])) kill_rule(s, i);
    }
  }
}

/* Of two equal rules of heads with over SUBSUME_MAX rules, the later goes:
 * the edited ones are sorted by their hash, stably.  (view_hash itself is
 * not finished: factoring's groups go in its order, and so would its
 * output.)  The store has no two equal rules when loaded (gr_compact made
 * each once), so the heads not edited since need no look: breakthrough's
 * 19,096 rules of its 64 frame atoms. */
static int kill_duplicates(simp *s)
{
  view *order = malloc((s->n + 1) * sizeof *order);
  if (!order) return 0;
  uint32_t m = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    const int32_t *x = lits_of(s, i);
    if (s->alive[i] && n_rules(s, (uint32_t)x[0]) > SUBSUME_MAX && edited(s, (uint32_t)x[0]))
      order[m].hash = finish(view_hash(x, -1)), order[m].skip = 0, order[m++].rule = i;
  }
  int ok = dl_sort_by_key64(order, m, sizeof *order, offsetof(view, hash));
  for (uint32_t e = 1; ok && e < m; e++) {
    const int32_t *x = lits_of(s, order[e - 1].rule), *y = lits_of(s, order[e].rule);
    if (order[e - 1].hash == order[e].hash && x[1] == y[1] && memcmp(x, y, (size_t)(x[1] + 2) * sizeof *x) == 0)
      kill_rule(s, order[e].rule);
  }
  free(order);
  return ok;
}

/* Bodies are sorted; a rule whose body holds another body of its head goes
 * (of two equal rules, the later one; heads with over SUBSUME_MAX rules
 * lose only their duplicates).  Only heads whose rules changed since the
 * last time are looked at: removing rules makes no rule subsumed. */
static int subsumed(simp *s)
{
  if (!index_rules(s) || !kill_duplicates(s)) return 0;
  for (uint32_t a = 1; a <= s->ix_atoms; a++) {
    uint32_t n = n_rules(s, a);
    if (n >= 2 && n <= SUBSUME_MAX && is_dirty(s, a)) kill_subsumed(s, s->hitem + s->hstart[a], n);
  }
  s->all_dirty = 0;
  if (s->dirty) memset(s->dirty, 0, s->dirty_cap);
  return 1;
}

/* ---- shared bodies ----------------------------------------------------------------------------- */

/* An atom whose one rule has two or more literals, by the hash of that body. */
typedef struct sole { uint64_t hash; uint32_t atom, rule; } sole;

static uint64_t body_hash(const int32_t *body, uint32_t n)
{
  uint64_t h = mix(0xcbf29ce484222325ULL, (int32_t)n);
  for (uint32_t k = 0; k < n; k++) h = mix(h, body[k]);
  return finish(h);
}

/* The atoms a rule may read in place of its body: supporting and legal
 * atoms (legal may stand in a body; next, goal and terminal may not). */
static int may_share(const simp *s, uint32_t a)
{
  uint8_t r = s->g->atom_role[a];
  return r == DL_ATOM_OTHER || r == DL_ATOM_LEGAL;
}

/* The table of sole bodies, sorted by hash (atoms in order within a hash). */
static sole *sole_bodies(const simp *s, uint32_t *n)
{
  sole *t = malloc((s->g->n_atoms + 1) * sizeof *t);
  if (!t) return NULL;
  *n = 0;
  for (uint32_t a = 1; a <= s->ix_atoms; a++) {
    if (n_rules(s, a) != 1 || !may_share(s, a)) continue;
    const int32_t *x = lits_of(s, first_rule(s, a));
    if (x[1] >= 2) t[(*n)++] = (sole){ body_hash(x + 2, (uint32_t)x[1]), a, first_rule(s, a) };
  }
  if (!dl_sort_by_key64(t, *n, sizeof *t, offsetof(sole, hash))) return free(t), NULL;
  return t;
}

/* The first atom of t whose sole body is body[0..n); 0 when none. */
static uint32_t find_sole(const simp *s, const sole *t, uint32_t nt, const int32_t *body, uint32_t n)
{
  uint64_t h = body_hash(body, n);
  uint32_t lo = 0, hi = nt;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (t[mid].hash < h) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < nt && t[lo].hash == h; lo++) {
    const int32_t *x = lits_of(s, t[lo].rule);
    if ((uint32_t)x[1] == n && memcmp(x + 2, body, n * sizeof *body) == 0) return t[lo].atom;
  }
  return 0;
}

static int has_literal(const int32_t *x, int32_t l)
{
  for (int32_t k = 0; k < x[1]; k++)
    if (x[2 + k] == l) return 1;
  return 0;
}

/* A positive input literal (true or does) in every rule that uses supporting
 * atom a, so that a's rules may take it into their bodies; 0 when none. */
static int32_t context_of(const simp *s, uint32_t a)
{
  uint32_t u0 = s->ustart[a], u1 = s->ustart[a + 1];
  if (u0 == u1 || u1 - u0 > 256) return 0;
  const int32_t *x = lits_of(s, s->uitem[u0]);
  for (int32_t k = 0; k < x[1]; k++) {
    int32_t c = x[2 + k];
    if (c < 0 || !gr_is_input(s->g->atom_role[c])) continue;
    uint32_t u = u0 + 1;
    while (u < u1 && has_literal(lits_of(s, s->uitem[u]), c)) u++;
    if (u == u1) return c;
  }
  return 0;
}

/* The state of one sweep of shared_bodies.  The table and the graph are
 * made when a rule first needs them (most games have no context to use). */
typedef struct sharing {
  sole *table;     /* sole_bodies, or NULL */
  uint32_t n_table;
  sp_pgraph pg;
  uint8_t *mark;   /* per atom: 1 its value changed (h & c now), 2 a rule reads
                    * it in place of a body; neither may then be the other */
} sharing;

static int sharing_ready(const simp *s, sharing *sh)
{
  if (sh->table) return 1;
  sh->table = sole_bodies(s, &sh->n_table);
  return sh->table && sp_pgraph_build(s->g, s->lits.a, s->at, s->alive, s->n, &sh->pg);
}

/* For a rule x of a supporting atom with a context c: *b, the atom whose
 * sole body is x's body and c, or 0 when none.  Never an atom whose value
 * changed in this sweep (its table entry is stale), nor an atom of x's
 * head's predicate, nor one whose predicate reads it (the edge is then
 * added).  0 when out of memory. */
static int shared_atom(simp *s, sharing *sh, const int32_t *x, uint32_t *b)
{
  uint32_t h = (uint32_t)x[0], n = (uint32_t)x[1];
  int32_t c = is_support(s, h) ? context_of(s, h) : 0;
  *b = 0;
  if (!c || has_literal(x, c)) return 1;
  s->tmp.n = 0;
  for (uint32_t k = 0; k < n; k++)
    if (!gr_push32(&s->tmp, x[2 + k])) return 0;
  if (!gr_push32(&s->tmp, c) || !sharing_ready(s, sh)) return 0;
  n = (uint32_t)s->tmp.n;
  if (!gr_normalize_body(s->tmp.a, &n)) return 1;
  uint32_t a = find_sole(s, sh->table, sh->n_table, s->tmp.a, n);
  if (!a || a == h || sh->mark[a] == 1) return 1;
  uint32_t ph = sh->pg.pred[h], pa = sh->pg.pred[a];
  if (ph == pa || sp_pgraph_reaches(&sh->pg, pa, ph)) return 1;
  if (!sp_pgraph_add_read(&sh->pg, ph, pa)) return 0;
  *b = a;
  return 1;
}

/* h :- B, where h is a supporting atom read only beside the input literal c
 * and another atom b has the one rule b :- B & c, becomes h :- b: one
 * conjunction fewer (h's readers see h & c, the same either way).  Sharing
 * bodies without a context cost othello components (factoring then finds
 * less), so it is not done. */
static int shared_bodies(simp *s)
{
  if (!index_uses(s)) return 0;
  sharing sh = { .mark = calloc(s->g->n_atoms + 1, 1) };
  int ok = sh.mark != NULL;
  uint32_t n0 = s->n;
  for (uint32_t i = 0; ok && i < n0; i++) {
    int32_t h = lits_of(s, i)[0];
    uint32_t b;
    if (!s->alive[i] || lits_of(s, i)[1] < 2 || sh.mark[h] == 2) continue;
    ok = shared_atom(s, &sh, lits_of(s, i), &b);
    if (!ok || !b) continue;
    sh.mark[h] = 1;
    sh.mark[b] = 2;
    kill_rule(s, i);
    ok = add_rule(s, h, (const int32_t[]){ (int32_t)b }, 1, s->origin[i]);
  }
  sp_pgraph_free(&sh.pg);
  free(sh.table);
  free(sh.mark);
  return ok;
}

/* ---- the pass ---------------------------------------------------------------------------------- */

/* Drops dead rules from the store. */
static int pack(simp *s)
{
  if (!s->dead) return 1;  /* the rules keep their numbers */
  s->dead = 0;
  s->edits++;
  vec32 lits = { .a = malloc((s->lits.n + 1) * sizeof *lits.a), .cap = s->lits.n + 1 };
  if (!lits.a) return 0;
  uint32_t m = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    if (!s->alive[i]) continue;
    const int32_t *x = lits_of(s, i);
    size_t len = (size_t)x[1] + 2;
    memcpy(lits.a + lits.n, x, len * sizeof *x);
    s->at[m] = lits.n;
    lits.n += len;
    s->origin[m] = s->origin[i];
    s->alive[m++] = 1;
  }
  free(s->lits.a);
  s->lits = lits;
  s->n = m;
  return 1;
}

/* pack, once the dead rules are an eighth of the store: between passes
 * they only cost a test of alive[] (passes take rules in their order,
 * which packing keeps, so it changes no result).  A round ends packed:
 * gr_components_of counts every rule of the store. */
static int tidy(simp *s)
{
  return s->dead < s->n / 8 || pack(s);
}

/* Takes the pruned rules of g (g has none until store gives them back):
 * their bodies are normalized already (gr_compact renumbers atoms in their
 * order, which keeps bodies sorted), and every head counts as changed
 * (all_dirty). */
static int load(simp *s)
{
  dl_ground *g = s->g;
#ifndef NDEBUG
  for (uint32_t i = 0; i < g->n_rules; i++) {
    const int32_t *x = gr_rule_lits(g, i);
    for (int32_t k = 1; k < x[1]; k++) assert(x[1 + k] < x[2 + k]);
  }
#endif
  if (!(s->alive = malloc((size_t)g->cap_rules + 1))) return 0;
  memset(s->alive, 1, g->n_rules);
  s->lits = g->lits;
  s->at = g->rule_at;
  s->origin = g->rule_origin;
  s->n = g->n_rules;
  s->cap = g->cap_rules;  /* of at, origin and alive alike */
  s->edits += s->n;
  g->lits = (vec32){ 0 };
  g->rule_at = NULL;
  g->rule_origin = NULL;
  g->n_rules = g->cap_rules = 0;
  return 1;
}

/* Gives the rules back to g (sorted, renumbered by gr_compact). */
static int store(simp *s)
{
  dl_ground *g = s->g;
  if (!pack(s)) return 0;
  assert(!g->lits.a && !g->rule_at && !g->rule_origin);
  g->lits = s->lits;
  g->rule_at = s->at;
  g->rule_origin = s->origin;
  g->n_rules = s->n;
  g->cap_rules = s->cap;
  s->lits = (vec32){ 0 };
  s->at = NULL;
  s->origin = NULL;
  memset(s->alive, 1, s->n);
  return gr_compact(g, s->alive);
}

/* Factoring, unless the last one changed under 2% of the rules (5% with
 * over FACTOR_BIG rules): it is the costliest pass (a sort of every rule's
 * views) and then finds little.  Othello's first changes 2.6%; its second
 * took a twelfth of the grounding for 136 of its 250,000 components.  In
 * small games it costs little and finds more (pawnToQueen: 7% of them). */
enum { FACTOR_BIG = 100000 };

static int factor_again(simp *s)
{
  if (s->skip_factor) return 1;
  uint64_t before = s->kills;
  int ok = factor(s);
  uint64_t changed = s->kills - before;
  s->skip_factor = changed * 50 < s->n || (s->n > FACTOR_BIG && changed * 20 < s->n);
  return ok;
}

/* factor_again, and when it changed rules, merges and inlines at once:
 * the heads left with one rule, and the new atoms, are theirs to take
 * (speedChess, checkers and skirmish then need a round fewer for the same
 * components; over the corpus, 0.5% fewer components). */
static int factor_and_inline(simp *s)
{
  uint64_t kills = s->kills;
  if (!factor_again(s) || !tidy(s)) return 0;
  return s->kills == kills || (merges(s) && tidy(s) && inlines(s) && tidy(s));
}

static int round_of(simp *s)
{
  return drop_unused(s) && constants(s) && aliases(s) && drop_unused(s) && merges(s) && tidy(s) && inlines(s) &&
         tidy(s) && subsumed(s) && tidy(s) && shared_bodies(s) && tidy(s) && factor_and_inline(s) && pack(s);
}

/* The rounds, until one gains little; the figures before them are g's. */
static int simplify(dl_ground *g)
{
  double t0 = dl_clock_now();
  simp s = { .g = g, .ix_edits = UINT64_MAX, .ux_edits = UINT64_MAX, .all_dirty = 1 };
  g->stats.simplify_before = g->stats.components;
  int ok = load(&s);
  uint64_t work = 0;  /* literals the rounds have started with */
  uint64_t before = g->stats.simplify_before, after;
  for (uint32_t r = 0; ok && r < MAX_ROUNDS; r++, before = after) {
    work += s.lits.n;
    s.changed = 0;
    s.kills = 0;
    ok = round_of(&s);
    g->stats.simplify_rounds++;
    if (!s.changed || s.kills * 50 < s.n) break;  /* a fixpoint, or nearly: under 2% */
    if (work > SIMPLIFY_WORK_MAX) break;          /* big games: simplifying costs more than it saves */
    if (!(ok = ok && gr_components_of(g, s.lits.a, s.at, s.n, &after))) break;
    uint64_t gain_min = s.skip_factor ? GAIN_MIN_UNFACTORED : GAIN_MIN;
    if (after >= before || (before - after) * gain_min < before) break;  /* it saved little: so would the next */
  }
  ok = ok && store(&s);
  free_index(&s);
  free(s.lits.a);
  free(s.at);
  free(s.origin);
  free(s.alive);
  free(s.tmp.a);
  free(s.dirty);
  g->stats.simplify_seconds = dl_clock_now() - t0;
  return ok || gr_oom(g);
}

int dl_simplify_ground(dl_ground *g, const dl_ground_options *opt, dl_diag *diag)
{
  assert(g && opt && diag && !g->failed);
  if (opt->no_simplify || g->n_rules > DL_SIMPLIFY_MAX_RULES) return 1;
  if (opt->progress) {
    dl_ground_progress p = { "simplify", 0, 0, g->n_rules };
    opt->progress(opt->progress_ctx, &p);
  }
  g->diag = diag;  /* gr_oom reports there */
  int ok = simplify(g) && gr_count_figures(g);
  g->diag = NULL;
  return ok;
}
