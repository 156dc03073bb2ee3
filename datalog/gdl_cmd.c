/* gdl_cmd.c: the domains and reduce commands (issue 3; in progress). */
#include "datalog/gdl_cmd.h"

#include <stdio.h>

int dl_cmd_domains(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  fputs("gdlog: error: the domains command is not built yet\n", stderr);
  return 2;
}

int dl_cmd_reduce(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  fputs("gdlog: error: the reduce command is not built yet\n", stderr);
  return 2;
}
