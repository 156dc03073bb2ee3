/* game_symmetry.c: the symmetry group of a game (see game_symmetry.h). */
#include "datalog/structure/game_symmetry.h"

#include <assert.h>
#include <stdlib.h>

#include "datalog/base/clock.h"

/* The action's limits: points per part, elements of the group. */
#define MAX_POINTS 1000000u
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

void dl_game_symmetry_free(dl_game_symmetry *gs)
{
  dl_symmetry_act_destroy(gs->act);
  free(gs->checks);
  dl_symmetry_destroy(gs->symmetry);
  dl_rgraph_destroy(gs->graph);
  dl_domains_destroy(gs->own_domains);
  *gs = (dl_game_symmetry){ 0 };
}
