#!/usr/bin/env bash
# tests/random/regressions/run.sh GDLOG_BUILD_DIR GAME.kif...: games that
# tests/random found wrong, kept small.  A game whose first line is
#   ; break KIND lines N[,M]
# breaks GDL: `gdlog check` must exit 1 with its first error at
# GAME:N:COL (or M); any other game must play alike on every backend
# (machine_diff, 20 playouts).  known_*.kif are games gdlog still gets
# wrong (ctest label known_failure, out of the default run).
# Exit status: 0 all passed, 1 a failure, 2 usage, 77 without the binaries.
set -u -o pipefail
if [ "$#" -lt 2 ]; then echo "usage: $0 GDLOG_BUILD_DIR GAME.kif..." >&2; exit 2; fi
BUILD=$1
shift
GDLOG=$BUILD/gdlog
DIFF=$BUILD/tests/random/machine_diff
[ -x "$GDLOG" ] && [ -x "$DIFF" ] || { echo "skip: no $GDLOG or $DIFF (build first)"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
failed=0
for g in "$@"; do
    head=$(head -1 "$g")
    if [[ "$head" == "; break "* ]]; then
        lines=${head##* lines }
        "$GDLOG" check "$g" > /dev/null 2> "$W/err"
        rc=$?
        first=$(grep -m1 ': error: ' "$W/err")
        rm -f "$W/err"
        if [ "$rc" = 1 ] && [[ "$first" =~ ^"$g":([0-9]+):[0-9]+:\ error: ]] &&
            [[ ",$lines," == *",${BASH_REMATCH[1]},"* ]]; then
            echo "ok $g: rejected at line ${BASH_REMATCH[1]}"
        else
            echo "FAIL $g: gdlog check exit $rc, want 1 with an error at line $lines: ${first:-no error}"
            failed=$((failed + 1))
        fi
    elif "$DIFF" --playouts 20 "$g" > "$W/out" 2>&1 && grep -q " configurations agree: " "$W/out"; then
        echo "ok $(cat "$W/out")"
        rm -f "$W/out"
    else
        echo "FAIL $g:"; cat "$W/out"; rm -f "$W/out"
        failed=$((failed + 1))
    fi
done
[ "$failed" -eq 0 ]
