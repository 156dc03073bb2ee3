/* game_symmetry.c: the symmetry group of a game (see game_symmetry.h). */
#include "datalog/structure/game_symmetry.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/base/clock.h"

/* The action's limits: points per part, elements of the group. */
#define MAX_POINTS 100000u
#define MAX_ELEMENTS 100000u

int dl_game_symmetry_find(dl_game_symmetry *gs, const dl_program *p, const dl_domains *d, dl_diag *diag)
{
  assert(gs && p && diag);
  if (!d && !(d = gs->own_domains = dl_domains_build(p, diag))) return 0;
  if (!(gs->graph = dl_rgraph_build(p, NULL, diag))) return 0;
  double t0 = dl_clock_now();
  gs->symmetry = dl_symmetry_find(gs->graph, diag);
  gs->seconds = dl_clock_now() - t0;
  if (!gs->symmetry) return 0;
  if (!(gs->checks = calloc(dl_symmetry_count(gs->symmetry) + 1, sizeof *gs->checks))) {
    dl_diag_fail(diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  gs->act = dl_symmetry_act_of_game(gs->symmetry, p, d, MAX_POINTS, MAX_ELEMENTS, diag);
  return gs->act != NULL;
}

int dl_game_symmetry_check(dl_game_symmetry *gs, dl_machine *m, const dl_symmetry_check_options *o)
{
  assert(gs && gs->symmetry && gs->checks && m && o);
  int all = 1;
  for (uint32_t i = 0; i < dl_symmetry_count(gs->symmetry); i++) {
    int ok = dl_symmetry_check(gs->symmetry, i, m, o, &gs->checks[i]);
    if (ok < 0) return 0;
    all &= ok;
  }
  return all;
}

/* The two ways a state and the group's fluents can fail to match, reported. */
static dl_mstatus outside_domain(dl_machine *m)
{
  dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the state holds a fluent outside the domain of true");
  return DL_M_GAME;
}

static dl_mstatus never_reached(dl_machine *m)
{
  dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the image holds a fluent the game never reaches");
  return DL_M_GAME;
}

dl_mstatus dl_game_symmetry_bits(const dl_symmetry_act *a, dl_machine *m, const dl_mstate *s, dl_ids *scratch,
                                 uint64_t *bits)
{
  assert(a && m && s && scratch && bits);
  scratch->n = 0;
  dl_mstatus st = dl_machine_fluents(m, s, scratch);
  memset(bits, 0, dl_symmetry_act_words(a) * sizeof *bits);
  for (uint32_t i = 0; st == DL_M_OK && i < scratch->n; i++) {
    uint32_t j = dl_symmetry_act_index(a, DL_ACT_FLUENT, scratch->ids[i]);
    if (j == UINT32_MAX) return outside_domain(m);
    bits[j / 64] |= (uint64_t)1 << (j % 64);
  }
  return st;
}

/* The state of bitset bits into *s. */
static dl_mstatus bits_state(const dl_symmetry_act *a, dl_machine *m, const uint64_t *bits, dl_mstate **s)
{
  dl_ids ids = { 0 };
  int ok = 1;
  for (uint32_t w = 0; ok && w < dl_symmetry_act_words(a); w++)
    for (uint64_t b = bits[w]; ok && b; b &= b - 1)
      ok = dl_ids_push(&ids, dl_symmetry_act_term(a, DL_ACT_FLUENT, w * 64 + (uint32_t)__builtin_ctzll(b)));
  uint32_t unknown;
  dl_mstatus st = ok ? dl_machine_state_of(m, ids.ids, ids.n, s, &unknown) : dl_machine_nomem(m);
  if (st == DL_M_INPUT) st = never_reached(m);
  dl_ids_free(&ids);
  return st;
}

int dl_game_symmetry_bind(dl_game_symmetry *gs, dl_machine *m)
{
  assert(gs && gs->act && m);
  const dl_symmetry_act *a = gs->act;
  uint32_t n = dl_symmetry_act_size(a, DL_ACT_FLUENT), bit = 0, top = 0;
  if (gs->bound == m || !n || !dl_machine_fluent_bit(m, dl_symmetry_act_term(a, DL_ACT_FLUENT, 0), &bit)) return 1;
  free(gs->bit_of), free(gs->fluent_of), free(gs->in), free(gs->image);
  gs->bound = NULL;
  size_t words = dl_symmetry_act_words(a) + 1;
  gs->bit_of = malloc((size_t)n * sizeof *gs->bit_of);
  gs->in = malloc(words * sizeof *gs->in);
  gs->image = malloc(words * sizeof *gs->image);
  for (uint32_t j = 0; gs->bit_of && j < n; j++) {
    dl_machine_fluent_bit(m, dl_symmetry_act_term(a, DL_ACT_FLUENT, j), &gs->bit_of[j]);
    if (gs->bit_of[j] != UINT32_MAX && gs->bit_of[j] + 1 > top) top = gs->bit_of[j] + 1;
  }
  gs->fluent_of = malloc(((size_t)top + 1) * sizeof *gs->fluent_of);
  if (!gs->bit_of || !gs->fluent_of || !gs->in || !gs->image) {
    dl_machine_nomem(m);
    return 0;
  }
  memset(gs->fluent_of, 0xff, ((size_t)top + 1) * sizeof *gs->fluent_of);
  for (uint32_t j = 0; j < n; j++)
    if (gs->bit_of[j] != UINT32_MAX) gs->fluent_of[gs->bit_of[j]] = j;
  gs->n_bits = top;
  gs->bound = m;
  return 1;
}

/* State s of m as a bitset over the group's fluents, into bits: on a
 * bound machine bit by bit, else through the fluents' terms. */
static dl_mstatus read_state(const dl_game_symmetry *gs, dl_machine *m, const dl_mstate *s, uint64_t *bits)
{
  if (gs->bound != m) {
    dl_ids scratch = { 0 };
    dl_mstatus st = dl_game_symmetry_bits(gs->act, m, s, &scratch, bits);
    dl_ids_free(&scratch);
    return st;
  }
  memset(bits, 0, dl_symmetry_act_words(gs->act) * sizeof *bits);
  for (uint32_t w = 0; w < s->n; w++)
    for (uint64_t b = s->data[w]; b; b &= b - 1) {
      uint32_t f = w * 64 + (uint32_t)__builtin_ctzll(b), j = f < gs->n_bits ? gs->fluent_of[f] : UINT32_MAX;
      if (j == UINT32_MAX) return outside_domain(m);
      bits[j / 64] |= (uint64_t)1 << (j % 64);
    }
  return DL_M_OK;
}

/* The state of m whose fluents are the bitset bits into *out (like, a
 * state of m, gives a bound machine's size); as read_state. */
static dl_mstatus write_state(const dl_game_symmetry *gs, dl_machine *m, const dl_mstate *like, const uint64_t *bits,
                              dl_mstate **out)
{
  if (gs->bound != m) return bits_state(gs->act, m, bits, out);
  if (!(*out = dl_mstate_alloc(m, like->n, like->bytes))) return dl_machine_nomem(m);
  for (uint32_t w = 0; w < dl_symmetry_act_words(gs->act); w++)
    for (uint64_t b = bits[w]; b; b &= b - 1) {
      uint32_t f = gs->bit_of[w * 64 + (uint32_t)__builtin_ctzll(b)];
      if (f == UINT32_MAX || f / 64 >= like->n) {
        free(*out);
        *out = NULL;
        return never_reached(m);
      }
      (*out)->data[f / 64] |= (uint64_t)1 << (f % 64);
    }
  return DL_M_OK;
}

dl_mstatus dl_game_symmetry_state(const dl_game_symmetry *gs, dl_machine *m, const dl_mstate *s, uint64_t e,
                                  dl_mstate **out, uint64_t *hash)
{
  assert(gs && gs->act && m && s && out);
  *out = NULL;
  const dl_symmetry_act *a = gs->act;
  if (!dl_symmetry_act_size(a, DL_ACT_FLUENT)) {
    dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the game has too many fluents in the domain of true to map states");
    return DL_M_LIMIT;
  }
  /* A bound machine has its room; otherwise it is made per call. */
  int own = gs->bound != m;
  uint32_t words = dl_symmetry_act_words(a) + 1;
  uint64_t *in = own ? calloc(words, sizeof *in) : gs->in, *image = own ? calloc(words, sizeof *image) : gs->image;
  dl_mstatus st = in && image ? read_state(gs, m, s, in) : dl_machine_nomem(m);
  if (st == DL_M_OK && e != DL_CANONICAL) dl_symmetry_act_image(a, e, in, image);
  else if (st == DL_M_OK) dl_symmetry_act_canonical(a, in, image);
  if (st == DL_M_OK && hash) *hash = dl_symmetry_act_hash(a, image);
  if (st == DL_M_OK) st = write_state(gs, m, s, image, out);
  if (own) free(in), free(image);
  return st;
}

/* The role of m whose term is t, or -1. */
static int role_of_term(const dl_machine *m, dl_tid t)
{
  for (uint32_t r = 0; r < m->n_roles; r++)
    if (m->roles[r] == t) return (int)r;
  return -1;
}

dl_mstatus dl_game_symmetry_joint(const dl_game_symmetry *gs, dl_machine *m, uint64_t e, const uint32_t *joint,
                                  uint32_t *image)
{
  assert(gs && gs->act && m && joint && image);
  const dl_symmetry_act *a = gs->act;
  if (!dl_symmetry_act_size(a, DL_ACT_ACTION)) {
    dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the game has too many actions in the domain of does to map moves");
    return DL_M_LIMIT;
  }
  for (uint32_t r = 0; r < m->n_roles; r++) {
    int q = role_of_term(m, dl_symmetry_act_map(a, e, DL_ACT_ROLE, m->roles[r]));
    dl_tid action = dl_symmetry_act_map(a, e, DL_ACT_ACTION, dl_machine_move_term(m, joint[r]));
    uint32_t move = q < 0 || action == DL_NO_TERM ? DL_NO_MOVE : dl_machine_move_of(m, (uint32_t)q, action);
    if (move == DL_NO_MOVE) {
      dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the image of the move of role %u is no move of the game", r + 1);
      return DL_M_GAME;
    }
    image[q] = move;
  }
  return DL_M_OK;
}

void dl_game_symmetry_free(dl_game_symmetry *gs)
{
  dl_symmetry_act_destroy(gs->act);
  free(gs->checks);
  dl_symmetry_destroy(gs->symmetry);
  dl_rgraph_destroy(gs->graph);
  dl_domains_destroy(gs->own_domains);
  free(gs->bit_of), free(gs->fluent_of), free(gs->in), free(gs->image);
  *gs = (dl_game_symmetry){ 0 };
}
