/* group.c: the symmetry group of a game for the commands (see group.h). */
#include "datalog/cli/group.h"

#include <stdlib.h>

#include "datalog/base/clock.h"

/* The action's limits: points per part, elements of the group. */
#define MAX_POINTS 1000000u
#define MAX_ELEMENTS 100000u

/* Checks every generator on the game's machine, into t[i]; 1 when all
 * hold, else 0 (each failure reported). */
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

int cli_group_find(cli_ctx *c, dl_game *game, const dl_symmetry_check_options *o, cli_group *grp)
{
  const dl_program *p = game->loaded->prog;
  if (!game->domains && !(grp->own_domains = dl_domains_build(p, c->diag))) return 0;
  const dl_domains *d = game->domains ? game->domains : grp->own_domains;
  if (!(grp->graph = dl_rgraph_build(p, c->diag))) return 0;
  double t0 = dl_clock_now();
  grp->symmetry = dl_symmetry_find(grp->graph, c->diag);
  grp->seconds = dl_clock_now() - t0;
  if (!grp->symmetry) return 0;
  if (!(grp->checks = calloc(dl_symmetry_count(grp->symmetry) + 1, sizeof *grp->checks))) {
    dl_diag_fail(c->diag, DL_CAUSE_NOMEM, "out of memory");
    return 0;
  }
  if (o->playouts && !check_all(grp->symmetry, game->machine, o, grp->checks)) return 0;
  grp->act = dl_symmetry_act_of_game(grp->symmetry, p, d, MAX_POINTS, MAX_ELEMENTS, c->diag);
  return grp->act != NULL;
}

void cli_group_free(cli_group *grp)
{
  dl_symmetry_act_destroy(grp->act);
  free(grp->checks);
  dl_symmetry_destroy(grp->symmetry);
  dl_rgraph_destroy(grp->graph);
  dl_domains_destroy(grp->own_domains);
  *grp = (cli_group){ 0 };
}
