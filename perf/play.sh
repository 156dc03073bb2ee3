#!/usr/bin/env bash
# perf/play.sh [-r RUNS] [-t SECONDS] [-b BUDGET] [GDLOG] -- random playouts
# on the circuit: `gdlog play GAME --time SECONDS --format json`,
# RUNS times per game (default 3 runs of 5 s), beside a peer in the same
# run, gdlog and the peer taking turns (gdlog run I, then peer run I).
# PEER (default swipl) chooses the peer:
#   swipl   SWI-Prolog over the game's rules translated to Prolog
#           (perf/peer/kif2pl.py, perf/peer/playout.pl), the same seconds
#           and seeds.
#   sancho  Sancho 1.61c's propnet state machine (perf/peer/SanchoBench.java,
#           set up by perf/peer/sancho.sh as reducer.sh does: SANCHO_JARS,
#           GUAVA, JUNIT, SANCHO_OPTIMISE, WARMUP, JAVA_OPTS), the same
#           seconds of timed playouts after its build (initialize, then
#           optimise for SANCHO_OPTIMISE s, default 5) and WARMUP s (default
#           1) of untimed ones; its random moves are not seeded.  A game's
#           --goal-default is gdlog's and the Prolog peer's only: Sancho just
#           plays.
# Prints a markdown table: the playouts per second of gdlog (min and median
# of the runs, wall clock; and per second of process time, median, which a
# loaded machine disturbs less), states per second, mean depth, build time
# (ground + compile, median) and bytes per state, beside its target; then the
# peer's playouts per second (median, wall clock; and per second of process
# time), its mean depth (it plays the same random games, so it should be
# close to gdlog's), its build time (median: Sancho's initialize + optimise,
# SWI-Prolog's load of the translation) and the ratio gdlog/peer of the
# medians.  A run of either side that takes longer than SECONDS + BUDGET
# (default 300 s; Sancho's also gets its optimise and warm-up seconds) is
# stopped and reported.  A peer run that fails or is stopped ends the peer's
# runs of that game and its reason fills the peer's columns: Sancho builds
# neither chess nor amazons in minutes, so those rows say `no build in L s`.
# Without its parts (swipl: Debian swi-prolog-nox and python3; sancho: see
# perf/peer/sancho.sh) the peer columns stay empty and a line says so.  For
# swipl, before its timed runs the peer plays one untimed playout of each
# game (within PROBE seconds, default 60): when it fails, the game is
# translated again with every recursive predicate tabled (see
# perf/peer/kif2pl.py) and the figure is marked (tabling all).
# LANES (auto, 256 or 1; default auto) is gdlog's --lanes: 256 playouts at a
# time, bit-parallel, or one at a time, differential; the lanes column says
# which ran.  Several values (LANES="256 1") run each of them in turn in every
# run, beside one peer run, and the table has one row per game: per lanes
# value gdlog's playouts/s and playouts/cpu-s (medians), gdlog's mean depth
# and build time (of the first value), the peer's columns, then per lanes
# value the ratio gdlog/peer.  BACKEND=rules runs gdlog's other backend
# (--backend rules: the evaluator over the rules, no grounding; LANES is then
# not used, the lanes column says rules and the build column the load time).
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
# GAMES: NAME:TARGET[:GOAL] entries; GOAL, when given, is passed to gdlog
# and the Prolog peer as --goal-default GOAL (chess.kif has no goal at its
# move limit, step 201, where most random games end), and the table counts
# those playouts.
GAMES=${GAMES:-"ticTacToe:400000 connectFour:120000 breakthrough:20000 checkers:3600 speedChess:4500 hex:2000 othello-comp2007:600 chess:100:0 amazons:20"}
PEER=${PEER:-swipl}
SWIPL=${SWIPL:-swipl}
LANES=${LANES:-auto}
BACKEND=${BACKEND:-circuit}
# The gdlog variants that take turns in each run: one per LANES value on the
# circuit; the rules backend has no lanes.
if [ "$BACKEND" = rules ]; then VARIANTS=rules; else VARIANTS=$LANES; fi
read -r -a VS <<< "$VARIANTS"; NV=${#VS[@]}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
LIMIT=$(awk -v t="$T" -v b="$BUDGET" 'BEGIN { printf "%d", t + b + 0.999 }')

# The peer, set up; PEER_ON=0 when it cannot run.
PEER_ON=1
case $PEER in
    swipl)
        PEER_NAME=SWI-Prolog PEER_BUILD="load s"
        if ! command -v "$SWIPL" > /dev/null 2>&1; then
            echo "peer: skipped, $SWIPL not found (install Debian swi-prolog-nox); the peer columns stay empty."
            echo
            PEER_ON=0
        elif ! command -v python3 > /dev/null 2>&1; then
            echo "peer: skipped, python3 not found (perf/peer/kif2pl.py needs it); the peer columns stay empty."
            echo
            PEER_ON=0
        fi
        ;;
    sancho)
        PEER_NAME=Sancho PEER_BUILD="build s (initialize + optimise)"
        # shellcheck source=perf/peer/sancho.sh
        . "$HERE/peer/sancho.sh"
        SLIMIT=$(awk -v l="$LIMIT" -v o="$SANCHO_OPTIMISE" -v w="$WARMUP" 'BEGIN { printf "%d", l + o + w + 0.999 }')
        if setup_sancho "$OUT"; then
            echo "peer: Sancho 1.61c (ForwardDeadReckonPropnetStateMachine, perf/peer/SanchoBench.java): a Java process per run, build = initialize, then optimise with a $SANCHO_OPTIMISE s budget; $WARMUP s of untimed playouts, then $T s; stopped after $SLIMIT s."
        else
            echo "peer: skipped, $SANCHO_ERROR; the peer columns stay empty."
            PEER_ON=0
        fi
        echo
        ;;
    *) echo "PEER: swipl or sancho, not $PEER" >&2; exit 2 ;;
esac

# one_line FILE: the first 160 bytes of FILE on one line, without '|'.
one_line() { head -c 160 "$1" | tr '\n|' '  '; }

# lanes_label V: the column name of gdlog variant V (a LANES value).
lanes_label() { case $1 in 1) echo "gdlog 1 lane" ;; rules) echo "gdlog rules" ;; *) echo "gdlog $1 lanes" ;; esac; }

# peer_translate GAME TABLING: writes $OUT/peer.pl; 0 on success.
peer_translate() {
    python3 "$HERE/peer/kif2pl.py" --tabling "$2" "$KIF/$1.kif" -o "$OUT/peer.pl" 2> "$OUT/perr"
}

# peer_run SEED [ARGS]: one peer run into $OUT/p$SEED.json, for T seconds
# (or, for swipl, as ARGS say, within PROBE seconds), with the game's gdef
# options (--goal-default) as gdlog gets them (swipl only); 0 on success,
# else the reason in $OUT/perr.
peer_run() {
    if [ "$PEER" = sancho ]; then sancho_peer_run "$1"; return; fi
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

# sancho_peer_run SEED: one SanchoBench run on the game's file (the seed only
# names the result); its line `build_seconds B ... playouts_per_cpu_second
# Q` becomes the JSON object {"build_seconds": B, ...} in $OUT/p$SEED.json.
sancho_peer_run() {
    sancho_run "$KIF/$g.kif" "$T" "$SLIMIT" "$OUT/sancho.out" "$OUT/sancho.err"
    local rc=$?
    if [ $rc -eq 0 ] && grep -q '^build_seconds.*playouts_per_second' "$OUT/sancho.out"; then
        awk '/^build_seconds/ { s = "{"; for (i = 1; i < NF; i += 2) s = s (i > 1 ? ", " : "") "\"" $i "\": " $(i + 1); print s "}"; exit }' \
            "$OUT/sancho.out" > "$OUT/p$1.json"
        return 0
    fi
    sancho_why "$rc" "$OUT/sancho.err" "$SLIMIT" > "$OUT/perr"
    return 1
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

# The table's header: one gdlog variant, its columns as ever; several, a
# compact row with each variant's medians and ratio.
peer_head="peer ($PEER_NAME) playouts/s | peer playouts/cpu-s | peer mean depth | peer $PEER_BUILD"
if [ "$NV" -eq 1 ]; then
    echo "| game | lanes | playouts/s min | playouts/s median | playouts/cpu-s median | target | states/s median | mean depth | build s (ground + compile) | bytes/state | $peer_head | ratio gdlog/peer |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
    head="| game | target |" sep="|---|---:|" ratios=""
    for v in $VARIANTS; do
        head+=" $(lanes_label "$v") playouts/s | $(lanes_label "$v") playouts/cpu-s |" sep+="---:|---:|"
        ratios+=" ratio $(lanes_label "$v")/peer |"
    done
    echo "$head gdlog mean depth | gdlog build s (ground + compile) | $peer_head |$ratios"
    echo "$sep---:|---:|---:|---:|---:|---:|$(for v in $VARIANTS; do printf -- '---:|'; done)"
fi
for entry in $GAMES; do
    g=${entry%%:*} target=${entry#*:} gdef=()
    case $target in *:*) gdef=(--goal-default "${target#*:}"); target=${target%%:*} ;; esac
    rm -f "$OUT"/*.json "$OUT"/peer.pl "$OUT"/gerr.*
    perr="" tabling=static
    [ "$PEER_ON" = 1 ] && [ "$PEER" = swipl ] && peer_prepare "$g"
    rm -f "$OUT"/p*.json
    for i in $(seq 1 "$RUNS"); do
        # Each gdlog variant in turn; a variant that failed writes its reason
        # to $OUT/gerr.V and runs no more.
        for v in $VARIANTS; do
            [ -f "$OUT/gerr.$v" ] && continue
            if [ "$v" = rules ]; then engine=(--backend rules); else engine=(--backend "$BACKEND" --lanes "$v"); fi
            timeout "$LIMIT" "$GDLOG" play "$KIF/$g.kif" --time "$T" --seed "$i" "${engine[@]}" "${gdef[@]}" --format json > "$OUT/g.$v.$i.json" 2> "$OUT/err"
            rc=$?
            grep -v "^gdlog play: [0-9.]* s, " "$OUT/err" > "$OUT/err1"; mv "$OUT/err1" "$OUT/err"  # not the progress lines
            if [ $rc -eq 124 ]; then echo "no result within $LIMIT s" > "$OUT/gerr.$v"
            elif [ $rc -ne 0 ]; then echo "error: $(one_line "$OUT/err")" > "$OUT/gerr.$v"; fi
            [ -f "$OUT/gerr.$v" ] && rm -f "$OUT/g.$v."*.json
        done
        if [ "$PEER_ON" = 1 ] && [ -z "$perr" ]; then
            if ! peer_run "$i"; then
                perr="error: $(one_line "$OUT/perr")"
                rm -f "$OUT"/p*.json
            fi
        fi
        # When gdlog cannot play the game, one run of the peer is enough.
        ok=0
        for v in $VARIANTS; do [ -f "$OUT/gerr.$v" ] || ok=1; done
        [ $ok = 1 ] || break
    done
    python3 - "$g" "$target" "$perr" "$tabling" "$OUT" "$PEER_ON" "${VS[@]}" <<'PY'
import glob, json, os, statistics, sys
g, target, perr, tabling, out, peer_on = sys.argv[1:7]
variants = sys.argv[7:]
def load(prefix):
    return [json.load(open(f)) for f in sorted(glob.glob(os.path.join(out, prefix + "*.json")))]
def gerr(v):
    f = os.path.join(out, "gerr." + v)
    return open(f).read().strip() if os.path.exists(f) else ""
runs = {v: load("g.%s." % v) for v in variants}
peer = load("p")
for r in peer:  # Sancho gives playouts and states, not their ratio
    if "mean_depth" not in r:
        r["mean_depth"] = r["states"] / r["playouts"] if r["playouts"] else 0.0
med = lambda rs, k: statistics.median(r[k] for r in rs)
fig = lambda x: "%.1f" % x if x < 100 else "%.0f" % x
def build_cell(rs):
    if rs[0].get("backend") == "rules":  # no ground game: the load time
        return "%.3f (load)" % med(rs, "load_seconds")
    build = statistics.median(r["ground_seconds"] + r["compile_seconds"] for r in rs)
    return "%.3f (%.3f + %.3f)" % (build, med(rs, "ground_seconds"), med(rs, "compile_seconds"))
# The peer's cells: playouts/s (wall, cpu), mean depth, build; or why none.
if peer:
    p = med(peer, "playouts_per_second")
    note = " (tabling all)" if tabling == "all" else ""
    if "build_seconds" in peer[0]:  # Sancho: initialize, then optimise
        b, i = med(peer, "build_seconds"), med(peer, "initialize_seconds")
        pbuild = "%.3f (%.3f + %.3f)" % (b, i, b - i)
    else:
        pbuild = "%.3f" % med(peer, "load_seconds")
    pcells = [fig(p) + note, fig(med(peer, "playouts_per_cpu_second")), "%.1f" % med(peer, "mean_depth"), pbuild]
else:
    p = 0
    pcells = [perr or ("no run" if peer_on == "1" else ""), "", "", ""]
ratio = lambda rs: "%.1fx" % (med(rs, "playouts_per_second") / p) if rs and p > 0 else ""
if len(variants) == 1:
    rs = runs[variants[0]]
    if rs:
        pps = [r["playouts_per_second"] for r in rs]
        lanes = "rules" if rs[0].get("backend") == "rules" else "%d" % rs[0].get("lanes", 1)
        cells = [lanes, "%.0f" % min(pps), "%.0f" % statistics.median(pps), "%.0f" % med(rs, "playouts_per_cpu_second"),
                 target, "%.0f" % med(rs, "states_per_second"), "%.1f" % med(rs, "mean_depth"), build_cell(rs),
                 str(rs[0].get("bytes_per_state", "-"))]
    else:
        cells = ["", gerr(variants[0]) or "no run", "", "", target, "", "", "", ""]
    cells += pcells + [ratio(rs)]
else:
    cells = [target]
    for v in variants:
        rs = runs[v]
        if rs:
            # auto: say which ran
            ran = " (%d lanes)" % rs[0].get("lanes", 1) if v == "auto" else ""
            cells += ["%.0f%s" % (med(rs, "playouts_per_second"), ran), "%.0f" % med(rs, "playouts_per_cpu_second")]
        else:
            cells += [gerr(v) or "no run", ""]
    first = next((runs[v] for v in variants if runs[v]), [])
    cells += ["%.1f" % med(first, "mean_depth"), build_cell(first)] if first else ["", ""]
    cells += pcells + [ratio(runs[v]) for v in variants]
everything = [r for v in variants for r in runs[v]] + peer
defaulted = [(r["goal_defaulted"], r["playouts"], r["goal_default"]) for r in everything if "goal_default" in r]
if defaulted:
    k, n = sum(d[0] for d in defaulted), sum(d[1] for d in defaulted)
    g += " (no goal in %d of %d playouts: scored %d)" % (k, n, defaulted[0][2])
print("| %s | %s |" % (g, " | ".join(cells)))
PY
done
