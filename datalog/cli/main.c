/* main.c: the gdlog command line: the table of commands, and the dispatch
 * to one of them (cli.h; each command is a file cmd_NAME.c). */
#include <stdio.h>
#include <string.h>

#include "datalog/cli/cli.h"

/* The commands, in the order of `gdlog --help`.  Adding a command: its file
 * cmd_NAME.c defines cli_cmd_NAME, one line here, one source in the
 * add_executable(gdlog ...) line of CMakeLists.txt. */
#define CLI_COMMANDS(X) \
  X(model)              \
  X(print)              \
  X(check)              \
  X(domains)            \
  X(rulegraph)          \
  X(symmetry)           \
  X(explore)            \
  X(canon)              \
  X(reduce)             \
  X(ground)             \
  X(equiv)              \
  X(step)               \
  X(play)               \
  X(serve)

#define CLI_DECLARE(name) extern const cli_command cli_cmd_##name;
#define CLI_ENTRY(name) &cli_cmd_##name,
CLI_COMMANDS(CLI_DECLARE)
static const cli_command *const commands[] = { CLI_COMMANDS(CLI_ENTRY) NULL };

int main(int argc, char **argv)
{
  if (argc < 2) {
    cli_help(stderr, NULL, commands);
    return CLI_USAGE;
  }
  const char *a = argv[1];
  if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
    cli_help(stdout, NULL, commands);
    return CLI_OK;
  }
  if (strcmp(a, "--version") == 0) {
    printf("gdlog %s\n", GDLOG_VERSION);
    return CLI_OK;
  }
  for (int i = 0; commands[i]; i++)
    if (strcmp(a, commands[i]->name) == 0) return cli_run(commands[i], commands, argc - 1, argv + 1);
  if (a[0] == '-') return cli_usage(NULL, "unknown option '%s' (the command comes first: gdlog COMMAND [OPTIONS] FILE)", a);
  return cli_usage(NULL, "unknown command '%s'", a);
}
