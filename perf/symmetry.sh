#!/usr/bin/env bash
# perf/symmetry.sh [-t SECONDS] [GDLOG [DIR]] -- gdlog symmetry on every game
# of DIR (default ../shared/games/kif beside the repository), each within
# SECONDS (default 10), as a markdown table: the game, the group's order on
# the ground fluents, actions and roles, the generators that act on the
# game (of those found in the rules), the states the playout check compared
# and how many of them the generators moved, the wall time of the whole
# run (load, machine, rule graph, bliss, checks), and a status: ok, `no
# result in S s`, or gdlog's first error line.  GDLOG defaults to
# build/gdlog.  Then a line per order: how many games have it.
set -u
limit=10
if [ "${1:-}" = -t ]; then limit=$2; shift 2; fi
here=$(cd "$(dirname "$0")" && pwd)
gdlog=${1:-$here/../build/gdlog}
dir=${2:-$here/../../shared/games/kif}
[ -x "$gdlog" ] || { echo "symmetry.sh: no gdlog at $gdlog (build it first)" >&2; exit 1; }
[ -d "$dir" ] || { echo "symmetry.sh: no games at $dir" >&2; exit 1; }
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
echo "| game | order | generators acting / found | states checked (moved) | seconds | status |"
echo "|---|---|---|---|---|---|"
orders=()
for f in "$dir"/*.kif; do
  name=$(basename "$f" .kif)
  start=$(date +%s.%N)
  timeout "$limit" "$gdlog" symmetry --no-warnings "$f" > "$out" 2> "$err"
  status=$?
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  if [ "$status" -eq 124 ]; then
    echo "| $name | | | | $seconds | no result in $limit s |"; continue
  elif [ "$status" -ne 0 ]; then
    echo "| $name | | | | $seconds | $(grep -m1 'error' "$err" | cut -c1-100 | tr '|' '/') |"; continue
  fi
  order=$(awk '/^order/ { print ($2 == "at" ? ">=" $4 : $2) }' "$out")
  found=$(grep -c '^generator' "$out")
  trivial=$(grep -c 'fixes every fluent' "$out")
  checked=$(awk '/moves [0-9]+ of the/ { m += $2; s += $5 } END { printf "%d (%d)", s, m }' "$out")
  echo "| $name | $order | $((found - trivial)) / $found | $checked | $seconds | ok |"
  orders+=("$order")
done
echo
printf '%s\n' "${orders[@]}" | sort | uniq -c | sort -rn | awk '{ printf "order %s: %d games\n", $2, $1 }'
