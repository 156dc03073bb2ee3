#!/usr/bin/env bash
# perf/play.sh [-r RUNS] [-t SECONDS] [GDLOG] -- random playouts on the
# circuit (issue 13): `gdlog play GAME --time SECONDS --format json`, RUNS
# times per game (default 3 runs of 5 s).  Prints a markdown table: the
# playouts per second (min and median of the runs, wall clock; and per
# second of process time, median, which a loaded machine disturbs less),
# states per second, mean depth, build time (ground + compile, median) and
# bytes per state, beside the target of issue 13.
# Peer (SWI-Prolog over the rules translated to Prolog): not done yet.
set -u
RUNS=3
T=5
while getopts "r:t:" o; do
    case $o in
        r) RUNS=$OPTARG ;;
        t) T=$OPTARG ;;
        *) echo "usage: $0 [-r RUNS] [-t SECONDS] [GDLOG]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=${1:-$HERE/../build/gdlog}
KIF=${KIF:-$HERE/../../shared/games/kif}
GAMES=${GAMES:-"ticTacToe:400000 connectFour:120000 breakthrough:20000 checkers:3600 speedChess:4500 hex:2000 othello-comp2007:600"}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "| game | playouts/s min | playouts/s median | playouts/cpu-s median | target | states/s median | mean depth | build s (ground + compile) | bytes/state |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for entry in $GAMES; do
    g=${entry%%:*} target=${entry#*:}
    rm -f "$OUT"/*.json
    for i in $(seq 1 "$RUNS"); do
        if ! "$GDLOG" play "$KIF/$g.kif" --time "$T" --seed "$i" --format json > "$OUT/$i.json" 2> "$OUT/err"; then
            echo "| $g | error: $(head -c 200 "$OUT/err" | tr '\n' ' ') | | | $target | | | | |"
            continue 2
        fi
    done
    python3 - "$g" "$target" "$OUT"/*.json <<'PY'
import json, statistics, sys
g, target, files = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = [json.load(open(f)) for f in files]
def med(k):
    return statistics.median(r[k] for r in runs)
pps = [r["playouts_per_second"] for r in runs]
build = statistics.median(r["ground_seconds"] + r["compile_seconds"] for r in runs)
print("| %s | %.0f | %.0f | %.0f | %s | %.0f | %.1f | %.3f (%.3f + %.3f) | %d |" % (
    g, min(pps), statistics.median(pps), med("playouts_per_cpu_second"), target, med("states_per_second"),
    med("mean_depth"), build, med("ground_seconds"), med("compile_seconds"), runs[0]["bytes_per_state"]))
PY
done
