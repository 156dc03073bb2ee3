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

dl_mstatus dl_game_symmetry_bits(const dl_symmetry_act *a, dl_machine *m, const dl_mstate *s, dl_ids *scratch,
                                 uint64_t *bits)
{
  assert(a && m && s && scratch && bits);
  scratch->n = 0;
  dl_mstatus st = dl_machine_fluents(m, s, scratch);
  memset(bits, 0, dl_symmetry_act_words(a) * sizeof *bits);
  for (uint32_t i = 0; st == DL_M_OK && i < scratch->n; i++) {
    uint32_t j = dl_symmetry_act_index(a, DL_ACT_FLUENT, scratch->ids[i]);
    if (j == UINT32_MAX) {
      dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the state holds a fluent outside the domain of true");
      return DL_M_GAME;
    }
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
  if (st == DL_M_INPUT) {
    dl_diag_report(m->diag, DL_ERROR, NULL, 0, "the image holds a fluent the game never reaches");
    st = DL_M_GAME;
  }
  dl_ids_free(&ids);
  return st;
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
  uint32_t words = dl_symmetry_act_words(a) + 1;
  uint64_t *in = calloc(words, sizeof *in), *image = calloc(words, sizeof *image);
  dl_ids scratch = { 0 };
  dl_mstatus st = in && image ? dl_game_symmetry_bits(a, m, s, &scratch, in) : dl_machine_nomem(m);
  dl_ids_free(&scratch);
  if (st == DL_M_OK && e != DL_CANONICAL) dl_symmetry_act_image(a, e, in, image);
  else if (st == DL_M_OK) dl_symmetry_act_canonical(a, in, image);
  if (st == DL_M_OK && hash) *hash = dl_symmetry_act_hash(a, image);
  if (st == DL_M_OK) st = bits_state(a, m, image, out);
  free(in), free(image);
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
  *gs = (dl_game_symmetry){ 0 };
}
