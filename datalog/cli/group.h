/* group.h: the symmetry group of a game as the commands symmetry and
 * explore find it: the rule graph, its automorphisms, each generator
 * checked on random playouts, and their action on the ground fluents,
 * actions and roles. */
#ifndef GDLOG_CLI_GROUP_H
#define GDLOG_CLI_GROUP_H

#include "datalog/cli/cli.h"
#include "datalog/structure/symmetry.h"
#include "datalog/structure/symmetry_act.h"
#include "datalog/structure/symmetry_check.h"

typedef struct cli_group {
  dl_domains *own_domains;           /* when the game had none */
  dl_rgraph *graph;
  dl_symmetry *symmetry;
  dl_symmetry_act *act;
  dl_symmetry_check_totals *checks;  /* per generator (zero without checks) */
  double seconds;                    /* of the automorphism search */
} cli_group;

/* Finds the group of game (built to a machine) into *grp (zeroed), each
 * generator checked with o unless o->playouts is 0.  1, or 0 after
 * reporting; free *grp with cli_group_free either way. */
int cli_group_find(cli_ctx *c, dl_game *game, const dl_symmetry_check_options *o, cli_group *grp);

void cli_group_free(cli_group *grp);

#endif
