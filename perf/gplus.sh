#!/usr/bin/env bash
# perf/gplus.sh [GDLOG] -- G+ with gdlog and gringo in one run.
#
# For each game, G+ (the game without negative literals, plus
# true(X) :- init(X). true(X) :- next(X). does(R,A) :- legal(R,A).) is
#   gdlog:  gdlog reduce GAME                      (derives the least fixpoint)
#   gringo: gringo --text G.lp, G.lp = gdlog reduce --program asp GAME (not timed)
# and both atom counts and wall times are printed, with the ratio gringo/gdlog.
# Games: chess.kif (11,096,919 atoms), alexChess.kif, amazons.kif from
# ../shared/games/kif.  Environment: GAMES (names), TIMEOUT seconds (default 900).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=${1:-$HERE/../build/gdlog}
KIF=${KIF:-$HERE/../../shared/games/kif}
T=${TIMEOUT:-900}
command -v gringo > /dev/null || { echo "gringo not found"; exit 2; }
[ -d "$KIF" ] || { echo "skip: $KIF not found"; exit 77; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
printf '| game | gdlog atoms | gdlog s | gringo atoms | gringo s | speed ratio |\n|---|---|---|---|---|---|\n'
for g in ${GAMES:-chess alexChess amazons}; do
    game=$KIF/$g.kif
    "$GDLOG" reduce --program asp "$game" > "$W/g.lp" || continue
    t0=$(now); out=$(timeout "$T" "$GDLOG" reduce "$game"); st=$?; t1=$(now)
    atoms=$(echo "$out" | awk '$1 == "%" && $2 ~ /\/[0-9]+$/ { n += $NF } END { print n }')
    [ $st -ne 0 ] && atoms="failed($st)"
    t2=$(now); ga=$(timeout "$T" gringo --text "$W/g.lp" | grep -c .); t3=$(now)
    gd=$(echo "$t1 - $t0" | bc); gr=$(echo "$t3 - $t2" | bc)
    printf '| %s | %s | %.2f | %s | %.2f | %.1fx |\n' "$g" "$atoms" "$gd" "$ga" "$gr" "$(echo "$gr / $gd" | bc -l)"
done
