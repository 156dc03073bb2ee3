/* game_symmetry.c: the symmetry group of a game (see game_symmetry.h). */
#include "datalog/structure/game_symmetry.h"

#include <assert.h>
#include <stdlib.h>

#include "datalog/base/clock.h"

/* The action's limits: points per part, elements of the group. */
#define MAX_POINTS 1000000u
#define MAX_ELEMENTS 100000u

/* Checks every generator on m, into t[i]; 1 when all hold, else 0 (each
 * failure reported). */
static int check_all(const dl_symmetry *s, dl_machine *m, const dl_symmetry_check_options *o,
                     dl_symmetry_check_totals *t)
{
  int all = 1;
  for (uint32_t i = 0; i < dl_symmetry_count(s); i++) {
    int ok = dl_symmetry_check(s, i, m, o, &t[i]);
    if (ok < 0) return 0;
    all &= ok;
  }
  return all;
}

int dl_game_symmetry_find(dl_game_symmetry *gs, const dl_program *p, const dl_domains *d, dl_machine *m,
                          const dl_symmetry_check_options *o, dl_diag *diag)
{
  assert(gs && p && m && o && diag);
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
  if (o->playouts && !check_all(gs->symmetry, m, o, gs->checks)) return 0;
  gs->act = dl_symmetry_act_of_game(gs->symmetry, p, d, MAX_POINTS, MAX_ELEMENTS, diag);
  return gs->act != NULL;
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
