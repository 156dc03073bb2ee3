#!/usr/bin/env bash
# valgrind.sh ARGS...: runs $GDLOG_REAL ARGS (without GDLOG_REAL: the command
# ARGS) under valgrind memcheck; any memory error or leak makes the exit
# status 99 and prints the report.
# Skips (77) when valgrind is not installed.
command -v valgrind > /dev/null || { echo "skip: valgrind not installed"; exit 77; }
exec valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 ${GDLOG_REAL:+"$GDLOG_REAL"} "$@"
