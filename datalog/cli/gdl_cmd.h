/* gdl_cmd.h: the GDL analysis commands of the command line (domains,
 * reduce), each with its own options.  Called by main.c with the whole
 * argument vector; returns the exit status (0, 1 bad input, 2 usage). */
#ifndef GDLOG_GDL_CMD_H
#define GDLOG_GDL_CMD_H

/* gdlog domains [--dot] [--syntax S] [-o FILE] FILE */
int dl_cmd_domains(int argc, char **argv);

/* gdlog reduce [--from domains] [--print] [--format text|json] [-o FILE] FILE */
int dl_cmd_reduce(int argc, char **argv);

#endif
