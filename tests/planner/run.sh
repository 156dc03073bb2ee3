#!/usr/bin/env bash
# tests/planner/run.sh GDLOG: programs that exercise the planner's devices
# for existential variables (datalog/eval/plan.h).  For each NAME.dl here:
#  - the model equals NAME.expected (gringo's model of the same program,
#    `gdlog print --format asp NAME.dl | gringo --text`, pinned so that the
#    test runs without gringo);
#  - every line of NAME.stats (extended regular expressions) matches some
#    line of `gdlog model --stats` on stderr: which plans were chosen.
set -u
if [ "$#" -ne 1 ]; then echo "usage: $0 GDLOG" >&2; exit 2; fi
GDLOG=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LC_ALL=C
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
pass=0 fail=0
for dl in "$HERE"/*.dl; do
    name=$(basename "$dl" .dl)
    if ! "$GDLOG" model --stats "$dl" 2> "$W/stats" | sort > "$W/model"; then
        echo "FAIL $name: gdlog failed: $(head -1 "$W/stats")"; fail=$((fail + 1)); continue
    fi
    if ! diff -u "$HERE/$name.expected" "$W/model" > "$W/diff"; then
        echo "FAIL $name: model differs (- expected, + got):"; head -20 "$W/diff"; fail=$((fail + 1)); continue
    fi
    missing=""
    while IFS= read -r re; do
        [ -z "$re" ] && continue
        grep -Eq -- "$re" "$W/stats" || missing="$missing [$re]"
    done < <(grep -v '^#' "$HERE/$name.stats" 2>/dev/null)
    if [ -n "$missing" ]; then
        echo "FAIL $name: --stats has no line matching$missing"; sed 's/^/    /' "$W/stats" | head -30; fail=$((fail + 1)); continue
    fi
    echo "ok   $name"; pass=$((pass + 1))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
