/* symmetry_check.c: generators checked along random playouts (see
 * symmetry_check.h). */
#include "datalog/structure/symmetry_check.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/clock.h"
#include "datalog/base/rng.h"
#include "datalog/base/sort.h"

typedef struct checker {
  const dl_symmetry *s;
  uint32_t gen;
  dl_machine *m;
  uint32_t *role_image;   /* per role r: the role g(r) */
  uint32_t *joint, *image_joint;
  dl_ids a, b;            /* scratch */
  dl_rng rng;
  dl_symmetry_check_totals *totals;
  double end;             /* when to stop (0: never) */
  uint64_t playout;
  uint32_t depth;
} checker;

static int differ(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int differ(checker *c, const char *fmt, ...)
{
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  dl_buf b = { 0 };
  dl_symmetry_write(c->s, c->gen, &b);
  dl_diag_report(c->m->diag, DL_ERROR, NULL, 0,
                 "symmetry %u (%s) fails on the game: playout %llu, after %u joint moves: %s", c->gen + 1,
                 b.data && !b.failed ? b.data : "?", (unsigned long long)c->playout + 1, c->depth, what);
  dl_buf_free(&b);
  return 0;
}

/* 1, 0 (differs, reported) or -1 (the machine failed) from a status. */
static int machine_failed(dl_mstatus st) { return st == DL_M_OK ? 1 : -1; }

static int nomem(checker *c)
{
  dl_machine_nomem(c->m);
  return -1;
}

static int compare_tid(const void *x, const void *y, void *ctx)
{
  (void)ctx;
  dl_tid a = *(const dl_tid *)x, b = *(const dl_tid *)y;
  return (a > b) - (a < b);
}

/* The image of t, a fluent, role or move (k). */
static dl_tid map_term(checker *c, dl_tid t, dl_rg_keyword_position k)
{
  uint32_t pos = dl_rgraph_keyword_position(dl_symmetry_graph(c->s), k);
  return dl_symmetry_apply(c->s, DL_SYM_GENERATOR, c->gen, c->m->terms, t, pos);
}

/* Replaces every term of l (fluents, roles or moves: k) by its image; 0
 * when out of memory. */
static int map_terms(checker *c, dl_ids *l, dl_rg_keyword_position k)
{
  for (uint32_t i = 0; i < l->n; i++)
    if ((l->ids[i] = map_term(c, l->ids[i], k)) == DL_NO_TERM) return 0;
  return 1;
}

/* The roles' images: each must be a role, and no two the same. */
static int map_roles(checker *c)
{
  const dl_machine *m = c->m;
  for (uint32_t r = 0; r < m->n_roles; r++) {
    dl_tid t = map_term(c, m->roles[r], DL_RG_POS_ROLE);
    if (t == DL_NO_TERM) return nomem(c);
    uint32_t q = 0;
    while (q < m->n_roles && m->roles[q] != t) q++;
    if (q == m->n_roles) return differ(c, "role %u maps to a term that is no role", r + 1);
    c->role_image[r] = q;
  }
  for (uint32_t r = 0; r < m->n_roles; r++)
    for (uint32_t q = r + 1; q < m->n_roles; q++)
      if (c->role_image[r] == c->role_image[q]) return differ(c, "roles %u and %u map to one role", r + 1, q + 1);
  return 1;
}

/* The image of state x into *image. */
static int map_state(checker *c, const dl_mstate *x, dl_mstate **image)
{
  c->a.n = 0;
  dl_mstatus st = dl_machine_fluents(c->m, x, &c->a);
  if (st != DL_M_OK) return -1;
  if (!map_terms(c, &c->a, DL_RG_POS_FLUENT)) return nomem(c);
  uint32_t unknown = 0;
  st = dl_machine_state_of(c->m, c->a.ids, c->a.n, image, &unknown);
  if (st == DL_M_INPUT) return differ(c, "the image of the state holds a fluent the game never reaches");
  return machine_failed(st);
}

/* The actions of role r's legal moves in x, as sorted terms into l;
 * mapped first when map is set. */
static int legal_actions(checker *c, const dl_mstate *x, uint32_t r, int map, dl_ids *l)
{
  dl_ids moves = { 0 };
  dl_mstatus st = dl_machine_legal(c->m, x, r, &moves);
  l->n = 0;
  int ok = st == DL_M_OK ? 1 : -1;
  for (uint32_t k = 0; ok == 1 && k < moves.n; k++)
    if (!dl_ids_push(l, dl_machine_move_term(c->m, moves.ids[k]))) ok = nomem(c);
  dl_ids_free(&moves);
  if (ok == 1 && map && !map_terms(c, l, DL_RG_POS_MOVE)) ok = nomem(c);
  if (ok == 1) dl_sort(l->ids, l->n, sizeof *l->ids, compare_tid, NULL);
  return ok;
}

/* terminal, goals and legal moves of x and of its image y agree. */
static int compare_state(checker *c, const dl_mstate *x, const dl_mstate *y, int *terminal)
{
  int ty;
  dl_mstatus st = dl_machine_terminal(c->m, x, terminal);
  if (st == DL_M_OK) st = dl_machine_terminal(c->m, y, &ty);
  if (st != DL_M_OK) return -1;
  if (*terminal != ty) return differ(c, "terminal in one state and not in its image");
  for (uint32_t r = 0; r < c->m->n_roles; r++) {
    dl_goal_found gx, gy;
    if ((st = dl_machine_goal_found(c->m, x, r, &gx)) != DL_M_OK ||
        (st = dl_machine_goal_found(c->m, y, c->role_image[r], &gy)) != DL_M_OK)
      return -1;
    if (gx.count != gy.count || gx.value != gy.value || gx.sum != gy.sum)
      return differ(c, "the goal of role %u differs from its image's", r + 1);
    if (*terminal) continue;
    int ok = legal_actions(c, x, r, 1, &c->a);
    if (ok == 1) ok = legal_actions(c, y, c->role_image[r], 0, &c->b);
    if (ok != 1) return ok;
    if (c->a.n != c->b.n || memcmp(c->a.ids, c->b.ids, c->a.n * sizeof *c->a.ids))
      return differ(c, "the legal moves of role %u are not those of its image", r + 1);
  }
  return 1;
}

/* A random joint move in x into c->joint and its image into
 * c->image_joint. */
static int random_joint(checker *c, const dl_mstate *x)
{
  dl_ids moves = { 0 };
  int ok = 1;
  for (uint32_t r = 0; ok == 1 && r < c->m->n_roles; r++) {
    moves.n = 0;
    if (dl_machine_legal(c->m, x, r, &moves) != DL_M_OK) ok = -1;
    else c->joint[r] = moves.ids[dl_rng_below(&c->rng, moves.n)];
    if (ok != 1) break;
    dl_tid action = map_term(c, dl_machine_move_term(c->m, c->joint[r]), DL_RG_POS_MOVE);
    if (action == DL_NO_TERM) ok = nomem(c);
    else if ((c->image_joint[c->role_image[r]] = dl_machine_move_of(c->m, c->role_image[r], action)) == DL_NO_MOVE)
      ok = differ(c, "the image of a legal move of role %u is no move", r + 1);
  }
  dl_ids_free(&moves);
  return ok;
}

/* One playout: at each state, its image compared; the next states of a
 * random joint move and of its image compared. */
static int check_playout(checker *c, uint32_t max_depth)
{
  dl_mstate *x = NULL, *y = NULL, *next = NULL, *image_next = NULL;
  int ok = machine_failed(dl_machine_initial(c->m, &x)), terminal = 0;
  if (ok == 1) ok = map_state(c, x, &y);
  for (c->depth = 0; ok == 1 && c->depth < max_depth && !(c->end && dl_clock_now() > c->end); c->depth++) {
    c->totals->states++;
    c->totals->moved += !dl_mstate_equal(x, y);
    if ((ok = compare_state(c, x, y, &terminal)) != 1 || terminal) break;
    if ((ok = random_joint(c, x)) != 1) break;
    if (dl_machine_next(c->m, x, c->joint, &next) != DL_M_OK ||
        dl_machine_next(c->m, y, c->image_joint, &image_next) != DL_M_OK) {
      ok = -1;
      break;
    }
    free(x), free(y);
    x = next, next = NULL;
    if ((ok = map_state(c, x, &y)) != 1) break;
    if (!dl_mstate_equal(y, image_next)) ok = differ(c, "the next state of the image of a joint move is not the image of the next state");
    free(image_next);
    image_next = NULL;
  }
  free(x), free(y), free(next), free(image_next);
  return ok;
}

int dl_symmetry_check(const dl_symmetry *s, uint32_t i, dl_machine *m, const dl_symmetry_check_options *o,
                      dl_symmetry_check_totals *t)
{
  assert(s && i < dl_symmetry_count(s) && m && o && t);
  checker c = { .s = s, .gen = i, .m = m, .totals = t };
  uint32_t n = m->n_roles ? m->n_roles : 1;
  c.role_image = malloc(n * sizeof *c.role_image);
  c.joint = malloc(n * sizeof *c.joint);
  c.image_joint = malloc(n * sizeof *c.image_joint);
  dl_rng_seed(&c.rng, o->seed);
  int ok = c.role_image && c.joint && c.image_joint ? map_roles(&c) : nomem(&c);
  c.end = o->seconds > 0 ? dl_clock_now() + o->seconds : 0;
  for (c.playout = 0; ok == 1 && c.playout < o->playouts; c.playout++) {
    if (c.playout && c.end && dl_clock_now() > c.end) break;
    t->playouts++;
    ok = check_playout(&c, o->max_depth ? o->max_depth : 10000);
  }
  free(c.role_image), free(c.joint), free(c.image_joint);
  dl_ids_free(&c.a), dl_ids_free(&c.b);
  return ok;
}
