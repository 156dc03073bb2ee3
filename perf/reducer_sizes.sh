#!/usr/bin/env bash
# perf/reducer_sizes.sh [-t SECONDS] [GDLOG [DIR]] -- the size of
# `gdlog ground --for-players` against the game's own text, for every game
# of DIR (default ../shared/games/kif beside the repository).
#
# One line per game: name, the file's bytes, the output's bytes and their
# ratio, or FAIL with gdlog's exit status (124: no output in SECONDS,
# default 120).  Then the median ratio, the largest, and the games above
# 10x (the bound the output must keep).  GDLOG defaults to build/gdlog.
set -u
limit=120
if [ "${1:-}" = -t ]; then limit=$2; shift 2; fi
here=$(cd "$(dirname "$0")" && pwd)
gdlog=${1:-$here/../build/gdlog}
dir=${2:-$here/../../shared/games/kif}
[ -x "$gdlog" ] || { echo "reducer_sizes.sh: no gdlog at $gdlog (build it first)" >&2; exit 1; }
[ -d "$dir" ] || { echo "reducer_sizes.sh: no games at $dir" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
ratios=()
for f in "$dir"/*.kif; do
  name=$(basename "$f" .kif)
  in=$(wc -c < "$f")
  timeout "$limit" "$gdlog" ground --for-players --no-warnings "$f" -o "$out" 2>/dev/null
  status=$?
  if [ "$status" -ne 0 ]; then
    printf '%s %d FAIL %d\n' "$name" "$in" "$status"
    continue
  fi
  bytes=$(wc -c < "$out")
  ratio=$(awk -v a="$bytes" -v b="$in" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$ratio $name")
  printf '%s %d %d %sx\n' "$name" "$in" "$bytes" "$ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '
  { r[NR] = $1; n[NR] = $2; if ($1 > 10) over = over " " $2 "(" $1 "x)" }
  END {
    if (!NR) exit
    printf "games written: %d, median %.2fx, largest %.2fx (%s)\n", NR, r[int((NR + 1) / 2)], r[NR], n[NR]
    print "above 10x:" (over ? over : " none")
  }'
