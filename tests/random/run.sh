#!/usr/bin/env bash
# tests/random/run.sh GDLOG [COUNT [FIRST_SEED]]: gdlog against gringo on
# random programs (tests/random/gen.pl: recursion, negation, distinct,
# function terms, constants in heads, subsumed rules).  For each seed,
#   GDLOG model P.dl | sort
# must equal
#   GDLOG print --format asp P.dl | gringo --text | asp_to_infix.pl | sort.
# COUNT programs (default 300) from FIRST_SEED (default 1).  A failing
# program is kept as failed-SEED.dl in $GDLOG_RANDOM_KEEP, or else in a new
# temporary directory, named in the output and never removed; it is not
# written into the source tree.  gen.pl is deterministic, so
# `run.sh GDLOG 1 SEED` runs that program again.
# Exit status: 0 all equal, 1 a difference or an error, 2 usage, 77 (ctest's
# skip code) without gringo or perl.
set -u -o pipefail
if [ "$#" -lt 1 ]; then echo "usage: $0 GDLOG [COUNT [FIRST_SEED]]" >&2; exit 2; fi
GDLOG=$1
COUNT=${2:-300}
FIRST=${3:-1}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LC_ALL=C
command -v gringo > /dev/null || { echo "skip: gringo is not installed (apt-get install gringo)"; exit 77; }
command -v perl > /dev/null || { echo "skip: perl is not installed"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
KEEP=${GDLOG_RANDOM_KEEP:-}
# Keeps the program of a failing seed, in a directory made at the first one.
keep() {
    if [ -z "$KEEP" ]; then
        KEEP=$(mktemp -d "${TMPDIR:-/tmp}/gdlog-random.XXXXXX") || return 1
    fi
    mkdir -p "$KEEP" && cp "$W/p.dl" "$KEEP/failed-$1.dl" && echo "  kept in $KEEP/failed-$1.dl"
}
pass=0 fail=0 atoms=0
for ((seed = FIRST; seed < FIRST + COUNT; seed++)); do
    perl "$HERE/gen.pl" "$seed" > "$W/p.dl"
    ok=1
    if ! "$GDLOG" model "$W/p.dl" 2> "$W/err" | sort > "$W/gdlog"; then
        echo "FAIL seed $seed: gdlog model failed: $(head -1 "$W/err")"; ok=0
    elif ! "$GDLOG" print --format asp "$W/p.dl" > "$W/p.lp" 2> "$W/err"; then
        echo "FAIL seed $seed: gdlog print failed: $(head -1 "$W/err")"; ok=0
    elif ! gringo --text "$W/p.lp" 2> "$W/err" | perl "$HERE/../asp_to_infix.pl" | sort > "$W/gringo"; then
        echo "FAIL seed $seed: gringo or its translation failed: $(head -1 "$W/err")"; ok=0
    elif ! diff "$W/gringo" "$W/gdlog" > "$W/diff"; then
        echo "FAIL seed $seed: models differ (< gringo, > gdlog):"; head -10 "$W/diff"; ok=0
    fi
    if [ "$ok" = 1 ]; then
        pass=$((pass + 1))
        atoms=$((atoms + $(wc -l < "$W/gdlog")))
    else
        fail=$((fail + 1))
        keep "$seed"
    fi
done
echo "$pass passed, $fail failed ($atoms atoms in the models that agree)"
[ "$fail" -eq 0 ]
