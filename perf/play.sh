#!/usr/bin/env bash
# perf/play.sh [-r RUNS] [-t SECONDS] [-b BUDGET] [GDLOG] -- random playouts
# on the circuit: `gdlog play GAME --time SECONDS --format json`,
# RUNS times per game (default 3 runs of 5 s), beside its peer in the same
# run: SWI-Prolog over the game's rules translated to Prolog
# (perf/peer/kif2pl.py, perf/peer/playout.pl), the same seconds and seeds,
# gdlog and the peer taking turns.  Prints a markdown table: the playouts
# per second of gdlog (min and median of the runs, wall clock; and per second
# of process time, median, which a loaded machine disturbs less), states per
# second, mean depth, build time (ground + compile, median) and bytes per
# state, beside its target; then the peer's playouts per second
# (median, wall clock; and per second of process time), its mean depth (it plays the same random games, so it
# should be close to gdlog's) and the ratio gdlog/peer of the medians.
# A run of either side that takes longer than SECONDS + BUDGET (default
# 300 s) is stopped and reported.  Without swipl (Debian swi-prolog-nox) the
# peer columns stay empty and a line says so.  Before its timed runs the peer
# plays one untimed playout of each game (within PROBE seconds, default 60):
# when it fails, the game is translated again with every recursive predicate
# tabled (see perf/peer/kif2pl.py) and the figure is marked (tabling all).
# LANES (auto, 64 or 1; default auto) is gdlog's --lanes: 64 playouts at a
# time, bit-parallel, or one at a time, differential; the lanes column says
# which ran.  BACKEND=rules runs gdlog's other backend (--backend rules: the
# evaluator over the rules, no grounding; LANES is then not used, the lanes
# column says rules and the build column the load time).
set -u
RUNS=3
T=5
BUDGET=300
PROBE=${PROBE:-60}
while getopts "r:t:b:" o; do
    case $o in
        r) RUNS=$OPTARG ;;
        t) T=$OPTARG ;;
        b) BUDGET=$OPTARG ;;
        *) echo "usage: $0 [-r RUNS] [-t SECONDS] [-b BUDGET] [GDLOG]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=${1:-$HERE/../build/gdlog}
KIF=${KIF:-$HERE/../../shared/games/kif}
# GAMES: NAME:TARGET[:GOAL] entries; GOAL, when given, is passed to both
# sides as --goal-default GOAL (chess.kif has no goal at its move limit,
# step 201, where most random games end), and the table counts those
# playouts.
GAMES=${GAMES:-"ticTacToe:400000 connectFour:120000 breakthrough:20000 checkers:3600 speedChess:4500 hex:2000 othello-comp2007:600 chess:100:0 amazons:20"}
SWIPL=${SWIPL:-swipl}
LANES=${LANES:-auto}
BACKEND=${BACKEND:-circuit}
if [ "$BACKEND" = rules ]; then engine=(--backend rules); else engine=(--backend "$BACKEND" --lanes "$LANES"); fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
LIMIT=$(awk -v t="$T" -v b="$BUDGET" 'BEGIN { printf "%d", t + b + 0.999 }')

PEER=1
if ! command -v "$SWIPL" > /dev/null 2>&1; then
    echo "peer: skipped, $SWIPL not found (install Debian swi-prolog-nox); the peer columns stay empty."
    echo
    PEER=0
elif ! command -v python3 > /dev/null 2>&1; then
    echo "peer: skipped, python3 not found (perf/peer/kif2pl.py needs it); the peer columns stay empty."
    echo
    PEER=0
fi

# one_line FILE: the first 160 bytes of FILE on one line, without '|'.
one_line() { head -c 160 "$1" | tr '\n|' '  '; }

# peer_translate GAME TABLING: writes $OUT/peer.pl; 0 on success.
peer_translate() {
    python3 "$HERE/peer/kif2pl.py" --tabling "$2" "$KIF/$1.kif" -o "$OUT/peer.pl" 2> "$OUT/perr"
}

# peer_run SEED [ARGS]: one peer run into $OUT/p$SEED.json, for T seconds
# (or as ARGS say, within PROBE seconds), with the game's gdef options
# (--goal-default) as gdlog gets them; 0 on success.
peer_run() {
    local seed=$1 limit=$LIMIT
    shift
    if [ $# -eq 0 ]; then set -- --time "$T"; else limit=$PROBE; fi
    set -- "$@" "${gdef[@]}"
    timeout "$limit" "$SWIPL" -O "$HERE/peer/playout.pl" -- "$OUT/peer.pl" "$@" --seed "$seed" \
        > "$OUT/p$seed.json" 2> "$OUT/perr"
    local rc=$?
    if [ $rc -eq 124 ]; then echo "no result within $limit s" > "$OUT/perr"; fi
    [ $rc -eq 0 ]
}

# peer_prepare GAME: translates GAME into $OUT/peer.pl and sets $tabling, or
# sets $perr.  Plain SLD resolution may loop on a recursive predicate over the
# state (a graph search): when one playout with the default translation fails
# within PROBE seconds, GAME is translated again with those predicates tabled
# too (kif2pl --tabling all).
peer_prepare() {
    tabling=static
    if ! peer_translate "$1" static; then perr="translation failed: $(one_line "$OUT/perr")"; return; fi
    peer_run 0 --random 1 && return
    tabling=all
    if ! peer_translate "$1" all; then perr="translation failed: $(one_line "$OUT/perr")"; fi
}

echo "| game | lanes | playouts/s min | playouts/s median | playouts/cpu-s median | target | states/s median | mean depth | build s (ground + compile) | bytes/state | peer (SWI-Prolog) playouts/s | peer playouts/cpu-s | peer mean depth | ratio gdlog/peer |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for entry in $GAMES; do
    g=${entry%%:*} target=${entry#*:} gdef=()
    case $target in *:*) gdef=(--goal-default "${target#*:}"); target=${target%%:*} ;; esac
    rm -f "$OUT"/*.json "$OUT"/peer.pl
    gerr="" perr="" tabling=static
    [ "$PEER" = 1 ] && peer_prepare "$g"
    rm -f "$OUT"/p*.json
    for i in $(seq 1 "$RUNS"); do
        if [ -z "$gerr" ]; then
            timeout "$LIMIT" "$GDLOG" play "$KIF/$g.kif" --time "$T" --seed "$i" "${engine[@]}" "${gdef[@]}" --format json > "$OUT/g$i.json" 2> "$OUT/err"
            rc=$?
            grep -v "^gdlog play: [0-9.]* s, " "$OUT/err" > "$OUT/err1"; mv "$OUT/err1" "$OUT/err"  # not the progress lines
            if [ $rc -eq 124 ]; then gerr="no result within $LIMIT s"; elif [ $rc -ne 0 ]; then gerr="error: $(one_line "$OUT/err")"; fi
            [ -n "$gerr" ] && rm -f "$OUT"/g*.json
        fi
        if [ "$PEER" = 1 ] && [ -z "$perr" ]; then
            if ! peer_run "$i"; then
                perr="error: $(one_line "$OUT/perr")"
                rm -f "$OUT"/p*.json
            fi
        fi
        # When gdlog cannot play the game, one run of the peer is enough.
        [ -n "$gerr" ] && break
    done
    python3 - "$g" "$target" "$gerr" "$perr" "$tabling" "$OUT" <<'PY'
import glob, json, os, statistics, sys
g, target, gerr, perr, tabling, out = sys.argv[1:7]
def load(prefix):
    return [json.load(open(f)) for f in sorted(glob.glob(os.path.join(out, prefix + "*.json")))]
runs, peer = load("g"), load("p")
med = lambda rs, k: statistics.median(r[k] for r in rs)
if runs:
    pps = [r["playouts_per_second"] for r in runs]
    if runs[0].get("backend") == "rules":  # no ground game: the load time, and no state bytes
        lanes, build_cell = "rules", "%.3f (load)" % med(runs, "load_seconds")
    else:
        build = statistics.median(r["ground_seconds"] + r["compile_seconds"] for r in runs)
        lanes = "%d" % runs[0].get("lanes", 1)
        build_cell = "%.3f (%.3f + %.3f)" % (build, med(runs, "ground_seconds"), med(runs, "compile_seconds"))
    cells = [lanes, "%.0f" % min(pps), "%.0f" % statistics.median(pps), "%.0f" % med(runs, "playouts_per_cpu_second"),
             target, "%.0f" % med(runs, "states_per_second"), "%.1f" % med(runs, "mean_depth"), build_cell,
             str(runs[0].get("bytes_per_state", "-"))]
else:
    cells = ["", gerr or "no run", "", "", target, "", "", "", ""]
if peer:
    p = med(peer, "playouts_per_second")
    note = " (tabling all)" if tabling == "all" else ""
    fig = lambda x: "%.1f" % x if x < 100 else "%.0f" % x
    cells += [fig(p) + note, fig(med(peer, "playouts_per_cpu_second")), "%.1f" % med(peer, "mean_depth")]
    cells.append("%.1fx" % (med(runs, "playouts_per_second") / p) if runs and p > 0 else "")
else:
    cells += [perr or ("no run" if os.path.exists(os.path.join(out, "peer.pl")) else ""), "", "", ""]
defaulted = [(r["goal_defaulted"], r["playouts"], r["goal_default"]) for r in runs + peer if "goal_default" in r]
if defaulted:
    k, n = sum(d[0] for d in defaulted), sum(d[1] for d in defaulted)
    g += " (no goal in %d of %d playouts: scored %d)" % (k, n, defaulted[0][2])
print("| %s | %s |" % (g, " | ".join(cells)))
PY
done
