#!/usr/bin/env bash
# run.sh GDLOG [DIR]
#
# The golden cases of the domains and reduce commands.  Each case NAME has
#   NAME.args      the arguments of gdlog, one line; paths relative to DIR
#   NAME.expected  its exact standard output
#   NAME.status    the exit status (optional, default 0)
#   NAME.stderr    its exact standard error (optional)
# Timing lines ("% time ...") and JSON "seconds" are blanked before comparing.
# Last line: "N passed, N failed"; exit 1 when a case failed.
set -u
if [ "$#" -lt 1 ]; then echo "usage: $0 GDLOG [DIR]" >&2; exit 2; fi
GDLOG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DIR=${2:-$(dirname "${BASH_SOURCE[0]}")}
cd "$DIR" || exit 2
blank() { sed -e '/^% time /d' -e 's/"seconds": [0-9.]*/"seconds": 0/'; }
pass=0 fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for args in *.args; do
    name=${args%.args}
    read -r -a argv < "$args"
    "$GDLOG" "${argv[@]}" > "$out" 2> "$err"
    status=$?
    want=0
    [ -f "$name.status" ] && want=$(cat "$name.status")
    why=""
    [ "$status" -ne "$want" ] && why="exit status $status, expected $want"
    if [ -z "$why" ] && ! diff <(blank < "$out") "$name.expected" > /dev/null; then
        why="output differs: diff <(gdlog ${argv[*]}) $DIR/$name.expected"
    fi
    if [ -z "$why" ] && [ -f "$name.stderr" ] && ! diff "$err" "$name.stderr" > /dev/null; then
        why="standard error differs from $name.stderr"
    fi
    if [ -z "$why" ]; then
        echo "ok   $name"; pass=$((pass + 1))
    else
        echo "FAIL $name: $why"; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
