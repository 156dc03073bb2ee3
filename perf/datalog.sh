#!/usr/bin/env bash
# datalog.sh: general Datalog workloads, gdlog against gringo and Souffle.
#
#   perf/datalog.sh [-r ROUNDS] [-w WORKLOAD]... [-s SCALE] [-S SEED]
#                   [-t SECONDS] [GDLOG]
#
# Workloads (-w, repeatable or comma-separated; default all):
#   chain      transitive closure of a 2,000-node chain
#   tree       transitive closure of a complete binary tree of 2^17-1 nodes
#   random     transitive closure of a random sparse graph: 20,000 nodes,
#              out-degree 1 or 2, in 100 clusters of 200 (perf/datalog/gen.py
#              says why)
#   reach      single-source reachability over 1,000,000 random edges
#              (250,000 nodes)
#   sg         same generation on a complete binary tree of depth 10
#   points     Andersen-style points-to analysis (new, assign, load, store) of
#              a synthetic program of 10,000 variables and 2,000 objects
#   triangles  triangle listing in a random graph (2,000 nodes, 100,000 edges)
#   load       reading 1,500,000 facts (random edges among 375,000 nodes)
#              with one rule that derives almost nothing: gdlog from data
#              files, as every workload above
#   loadtext   the same, but gdlog reads the facts as program text (the
#              program file holds them, as gringo's does)
#   chess      chess's initial-state model: gdlog model --init chess.kif
#              against gringo on `gdlog print --format asp --init chess.kif`
#              (made untimed), and Souffle on that text translated by
#              perf/datalog/gdl_souffle.py (untimed; function terms
#              flattened, facts inline)
# The data comes from perf/datalog/gen.py (seeded by -S, default 1); the
# rules from perf/datalog/W.dl (gdlog), W.lp (gringo), W.souffle.dl (loadtext: load's)
# (Souffle). gdlog and Souffle read the same tab-separated .facts files
# (gdlog's --facts, Souffle's -F); gringo, which reads no data files, has
# the facts in its program text. Every engine writes the derived relations
# only (gdlog's --show, gringo's #show, Souffle's .output).
#
# Commands timed (output to /dev/null; Souffle writes its .csv files):
#   gdlog model --facts FACTS --show RELS W.dl    gringo --text P.lp
#   BIN -j1 -F FACTS -D OUT                       (Souffle compiled)
#   souffle -j1 -F FACTS -D OUT W.souffle.dl      (Souffle interpreted)
# Souffle runs in both modes, one thread each. For the compiled mode,
# `souffle -j1 -o BIN W.souffle.dl` (C++ generated and compiled with c++)
# runs once per workload before the check, untimed; its seconds are listed
# under the table.
# First every engine runs once untimed, and the tuples of the workload's
# derived relations (tc, reach, sg, pt and hpt, tri; for chess all atoms)
# are counted in its output: when the counts differ, the workload is
# reported as a mismatch and not timed. Then ROUNDS rounds (default 3) run
# the engines one after the other, a different one first in each round
# (perf/datalog/rounds.py), never two at once. The table gives per engine
# the best and median wall seconds, the peak RSS (largest over the rounds,
# GNU time's %M), and the ratios other / gdlog of the best times and of
# the peak RSS: above 1x gdlog is faster or smaller.
#
# Options:
#   -r ROUNDS   timed rounds (default 3)
#   -w W        run only workload W (repeatable; W1,W2 allowed)
#   -s SCALE    multiply every workload's size, roughly its derived tuples,
#               by SCALE (default 1; 0.05 for a quick check); not chess
#   -S SEED     seed of the random data (default 1)
#   -t SECONDS  limit per run (default 600): a run past it is killed and
#               its engine marked unfinished
#   GDLOG       the gdlog binary (default build/gdlog of this repository)
# Souffle is optional: the binary is $SOUFFLE when set (an error when it is
# not executable), else `souffle` on PATH; without it its columns are left
# out. Its compiled mode needs c++ and python3.
# Needs python3, gringo and GNU time (/usr/bin/time, or GNU_TIME=...).
# Exit status: 0 done, 1 a run failed or counts differ, 2 usage or a
# missing tool.

set -u
export LC_ALL=C

zHere=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
zRepo=$(cd "$zHere/.." && pwd)
zData=$zHere/datalog
aAll=(chain tree random reach sg points triangles load loadtext chess)

usage() {
    echo "usage: $0 [-r ROUNDS] [-w WORKLOAD]... [-s SCALE] [-S SEED] [-t SECONDS] [GDLOG]" >&2
    echo "       $0 --help" >&2
    exit 2
}

nRounds=3
zScale=1
nSeed=1
nLimit=600
aWork=()
aPos=()
while [ $# -gt 0 ]; do
    case $1 in
        -r) [ $# -ge 2 ] || usage; nRounds=$2; shift 2 ;;
        -w) [ $# -ge 2 ] || usage; IFS=, read -r -a aTmp <<< "$2"; aWork+=("${aTmp[@]}"); shift 2 ;;
        -s) [ $# -ge 2 ] || usage; zScale=$2; shift 2 ;;
        -S) [ $# -ge 2 ] || usage; nSeed=$2; shift 2 ;;
        -t) [ $# -ge 2 ] || usage; nLimit=$2; shift 2 ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        --) shift; aPos+=("$@"); break ;;
        -*) usage ;;
        *) aPos+=("$1"); shift ;;
    esac
done
[ ${#aPos[@]} -le 1 ] || usage
GDLOG=${aPos[0]:-$zRepo/build/gdlog}
[[ $nRounds =~ ^[1-9][0-9]*$ ]] || { echo "error: -r needs a positive integer" >&2; exit 2; }
[[ $nSeed =~ ^[0-9]+$ ]] || { echo "error: -S needs a non-negative integer" >&2; exit 2; }
[[ $nLimit =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "error: -t needs a number of seconds" >&2; exit 2; }
[[ $zScale =~ ^[0-9]*[.]?[0-9]+$ ]] && awk -v s="$zScale" 'BEGIN { exit !(s > 0) }' \
    || { echo "error: -s needs a positive number" >&2; exit 2; }
[ ${#aWork[@]} -gt 0 ] || aWork=("${aAll[@]}")
for zW in "${aWork[@]}"; do
    [[ " ${aAll[*]} " == *" $zW "* ]] || { echo "error: unknown workload '$zW' (${aAll[*]})" >&2; exit 2; }
done

zTime=${GNU_TIME:-/usr/bin/time}
export GNU_TIME=$zTime
[ -x "$zTime" ] || { echo "error: $zTime not found (GNU time; Debian package: time)" >&2; exit 2; }
command -v python3 > /dev/null 2>&1 || { echo "error: python3 not found" >&2; exit 2; }
command -v gringo > /dev/null 2>&1 || { echo "error: gringo not found in PATH (Debian package: gringo)" >&2; exit 2; }
if [ ! -x "$GDLOG" ] || [ -d "$GDLOG" ]; then
    echo "error: gdlog not found at $GDLOG (build it, or pass its path)" >&2
    exit 2
fi
GDLOG=$(cd "$(dirname "$GDLOG")" && pwd)/$(basename "$GDLOG")
zGringo=$(command -v gringo)
if [ -n "${SOUFFLE:-}" ]; then
    zSouffle=$(command -v "$SOUFFLE" 2> /dev/null || true)
    [ -n "$zSouffle" ] && [ -x "$zSouffle" ] && [ ! -d "$zSouffle" ] \
        || { echo "error: SOUFFLE=$SOUFFLE is not an executable" >&2; exit 2; }
else
    zSouffle=$(command -v souffle 2> /dev/null || true)
    [ -n "$zSouffle" ] || echo "souffle not found in PATH (nor SOUFFLE set): Souffle skipped" >&2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gdlog_datalog.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
bFailed=0

# fmt N: N with thousands separators.
fmt() { sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta' <<< "$1"; }

# ratio A B: A / B as "12.3x", or "-" when either is not a number.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) { print "-"; exit }
        printf "%.2fx\n", a / b }'
}

# check NAME OUT -- CMD...: the untimed run; its stdout to OUT.
check_run() {
    local zName=$1 zOut=$2
    shift 3
    echo "  $zName: $*" >&2
    if ! timeout -s KILL "$nLimit" "$@" > "$zOut" 2> "$WORK/$zName.err"; then
        echo "  error: $zName failed or passed ${nLimit} s:" >&2
        tail -n 5 "$WORK/$zName.err" | sed 's/^/    /' >&2
        return 1
    fi
}

# counts ENGINE DIR RELS...: "rel=N ..." counted in ENGINE's output.
counts() {
    local zEng=$1 zDir=$2 zRel n zOut=""
    shift 2
    for zRel in "$@"; do
        case $zEng:$zRel in
            souffle*:ALL) n=$(cat "$zDir/$zEng.d"/*.csv 2> /dev/null | wc -l) ;;
            souffle*:*) n=$(wc -l < "$zDir/$zEng.d/$zRel.csv" 2> /dev/null || echo '?') ;;
            gdlog:ALL) n=$(wc -l < "$zDir/gdlog.out") ;;
            gringo:ALL) n=$(grep -v '^#' "$zDir/gringo.out" | grep -c .) ;;
            *) n=$(grep -c "^$zRel(" "$zDir/$zEng.out") ;;
        esac
        zOut+="${zOut:+ }$zRel=$n"
    done
    echo "$zOut"
}

aRow=()
aNote=()
aComp=()
for zW in "${aWork[@]}"; do
    zDir=$WORK/$zW
    mkdir -p "$zDir"
    echo "$zW:" >&2
    aEng=(gdlog gringo)
    if [ "$zW" = chess ]; then
        zChess=$zRepo/tests/games/chess.kif
        [ -f "$zChess" ] || zChess=$(cd "$zRepo/.." && pwd)/shared/games/kif/chess.kif
        if [ ! -f "$zChess" ]; then
            echo "  chess.kif not found in tests/games/ or ../shared/games/kif/: skipped" >&2
            continue
        fi
        if ! "$GDLOG" print --format asp --init "$zChess" > "$zDir/p.lp" 2> "$zDir/print.err"; then
            echo "  error: gdlog print --format asp --init failed:" >&2
            head -n 5 "$zDir/print.err" | sed 's/^/    /' >&2
            bFailed=1
            continue
        fi
        aRel=(ALL)
        zSize="chess.kif, initial state"
        aGd=("$GDLOG" model --init "$zChess")
        # Souffle: the same text with its function terms flattened
        # (true(cell(X,Y,P)) as true__cell(X,Y,P)), every relation written
        if [ -n "$zSouffle" ]; then
            if ! python3 "$zData/gdl_souffle.py" < "$zDir/p.lp" > "$zDir/chess.souffle.dl" 2> "$zDir/souffle_gen.err"; then
                echo "  error: perf/datalog/gdl_souffle.py failed:" >&2
                head -n 5 "$zDir/souffle_gen.err" | sed 's/^/    /' >&2
                bFailed=1
                continue
            fi
            zSfProg=$zDir/chess.souffle.dl
            mkdir -p "$zDir/souffle_c.d" "$zDir/souffle_i.d"
            aSfC=("$zDir/souffle_bin" -j1 -D "$zDir/souffle_c.d")
            aSfI=("$zSouffle" -j1 -D "$zDir/souffle_i.d" "$zSfProg")
            aEng+=(souffle_c souffle_i)
        fi
    else
        if ! zSize=$(python3 "$zData/gen.py" "$zW" "$zScale" "$nSeed" "$zDir"); then
            bFailed=1
            continue
        fi
        case $zW in
            chain|tree|random) aShow=(tc/2) ;;
            reach) aShow=(reach/1) ;;
            sg) aShow=(sg/2) ;;
            points) aShow=(pt/2 hpt/2) ;;
            triangles) aShow=(tri/3) ;;
            load|loadtext) aShow=(p/1) ;;
        esac
        aRel=("${aShow[@]%/*}")
        zRules=${zW/#loadtext/load}
        { cat "$zDir/facts.lp" "$zData/$zRules.lp"; printf '#show %s.\n' "${aShow[@]}"; } > "$zDir/p.lp"
        aGd=("$GDLOG" model --facts "$zDir/facts" --show "$(IFS=,; echo "${aShow[*]}")" "$zData/$zRules.dl")
        if [ "$zW" = loadtext ]; then
            cat "$zDir/facts.lp" "$zData/$zRules.dl" > "$zDir/p.dl"
            aGd=("$GDLOG" model --show "$(IFS=,; echo "${aShow[*]}")" "$zDir/p.dl")
        fi
        rm -f "$zDir/facts.lp"
        if [ -n "$zSouffle" ]; then
            zSfProg=$zData/$zRules.souffle.dl
            mkdir -p "$zDir/souffle_c.d" "$zDir/souffle_i.d"
            aSfC=("$zDir/souffle_bin" -j1 -F "$zDir/facts" -D "$zDir/souffle_c.d")
            aSfI=("$zSouffle" -j1 -F "$zDir/facts" -D "$zDir/souffle_i.d" "$zSfProg")
            aEng+=(souffle_c souffle_i)
        fi
    fi
    aGr=("$zGringo" --text "$zDir/p.lp")
    echo "  data: $zSize" >&2

    # 0. Souffle's compiled mode: the binary, untimed in the rounds
    zBad=""
    if [[ " ${aEng[*]} " == *" souffle_c "* ]]; then
        zT0=$(date +%s.%N)
        if check_run souffle_compile /dev/null -- "$zSouffle" -j1 -o "$zDir/souffle_bin" "$zSfProg" \
            && [ -x "$zDir/souffle_bin" ]; then
            zT1=$(date +%s.%N)
            zSec=$(awk -v a="$zT0" -v b="$zT1" 'BEGIN { printf "%.1f", b - a }')
            echo "    compiled in $zSec s" >&2
            aComp+=("$zW $zSec s")
        else
            zBad+=" souffle_compile"
            aComp+=("$zW failed")
        fi
    fi

    # 1. one untimed run each; the counts must agree
    declare -A aCount=()
    for zEng in "${aEng[@]}"; do
        case $zEng in
            gdlog) check_run gdlog "$zDir/gdlog.out" -- "${aGd[@]}" || zBad+=" gdlog" ;;
            gringo) check_run gringo "$zDir/gringo.out" -- "${aGr[@]}" || zBad+=" gringo" ;;
            souffle_c) [[ $zBad == *souffle_compile* ]] \
                || check_run souffle_c /dev/null -- "${aSfC[@]}" || zBad+=" souffle_c" ;;
            souffle_i) check_run souffle_i /dev/null -- "${aSfI[@]}" || zBad+=" souffle_i" ;;
        esac
        aCount[$zEng]=$(counts "$zEng" "$zDir" "${aRel[@]}")
        echo "    $zEng: ${aCount[$zEng]}" >&2
    done
    rm -f "$zDir"/*.out
    zTuples=""
    for zPair in ${aCount[gdlog]}; do
        zTuples+="${zTuples:+, }${zPair%%=*} $(fmt "${zPair#*=}")"
    done
    [ "${aRel[0]}" != ALL ] || zTuples="atoms $(fmt "${aCount[gdlog]#ALL=}")"
    if [ -n "$zBad" ]; then
        aRow+=("| $zW | - | failed or past ${nLimit} s in the check run:$zBad (see stderr) |")
        aNote+=("$zW: $zSize; not timed")
        bFailed=1
        continue
    fi
    bSame=1
    for zEng in "${aEng[@]}"; do
        [ "${aCount[$zEng]}" = "${aCount[gdlog]}" ] || bSame=0
    done
    if [ $bSame = 0 ]; then
        zMsg=""
        for zEng in "${aEng[@]}"; do zMsg+="${zMsg:+; }$zEng ${aCount[$zEng]}"; done
        echo "  MISMATCH ($zMsg): not timed" >&2
        aRow+=("| $zW | MISMATCH: $zMsg | not timed |")
        aNote+=("$zW: $zSize; counts differ, not timed")
        bFailed=1
        continue
    fi
    aNote+=("$zW: $zSize")

    # 2. the timed rounds
    aArgs=(gdlog "${aGd[@]}" -- gringo "${aGr[@]}")
    [[ " ${aEng[*]} " != *" souffle_c "* ]] || aArgs+=(-- souffle_c "${aSfC[@]}" -- souffle_i "${aSfI[@]}")
    declare -A aBest=() aMed=() aMiB=()
    while read -r zEng zB zM zK; do
        if [ "$zB" = unfinished ]; then
            aBest[$zEng]=unfinished aMed[$zEng]=- aMiB[$zEng]=-
            bFailed=1
        else
            aBest[$zEng]=$zB aMed[$zEng]=$zM
            aMiB[$zEng]=$(awk -v k="$zK" 'BEGIN { printf "%.1f", k / 1024 }')
        fi
        echo "    $zEng: best ${aBest[$zEng]} s, median ${aMed[$zEng]} s, ${aMiB[$zEng]} MiB" >&2
    done < <(python3 "$zData/rounds.py" "$nRounds" "$nLimit" "${aArgs[@]}")
    zRow="| $zW | $zTuples"
    for zEng in gdlog gringo souffle_c souffle_i; do
        [[ $zEng != souffle* ]] || [ -n "$zSouffle" ] || continue
        if [ -z "${aBest[$zEng]:-}" ]; then
            zRow+=" | - | -"
        elif [ "${aBest[$zEng]}" = unfinished ]; then
            zRow+=" | unfinished | -"
        else
            zRow+=" | ${aBest[$zEng]} / ${aMed[$zEng]} | ${aMiB[$zEng]}"
        fi
        [ "$zEng" = gdlog ] && continue
        zRow+=" | $(ratio "${aBest[$zEng]:-}" "${aBest[gdlog]}") | $(ratio "${aMiB[$zEng]:-}" "${aMiB[gdlog]}")"
    done
    aRow+=("$zRow |")
    unset aCount aBest aMed aMiB
done

[ ${#aRow[@]} -gt 0 ] || { echo "error: no workload ran" >&2; exit 1; }

echo
zHead="| workload | tuples | gdlog s best / median | gdlog MiB | gringo s best / median | gringo MiB | gringo/gdlog time | gringo/gdlog RSS |"
zSep="|---|---|---:|---:|---:|---:|---:|---:|"
if [ -n "$zSouffle" ]; then
    for zMode in compiled interpreted; do
        zHead+=" souffle $zMode s best / median | souffle $zMode MiB | souffle $zMode/gdlog time | souffle $zMode/gdlog RSS |"
        zSep+="---:|---:|---:|---:|"
    done
fi
echo "$zHead"
echo "$zSep"
printf '%s\n' "${aRow[@]}"
echo
[ ${#aNote[@]} -eq 0 ] || printf -- '- %s\n' "${aNote[@]}"
echo "- $nRounds rounds, scale $zScale, seed $nSeed; $("$GDLOG" --version 2>&1 | head -n 1);" \
    "$(gringo --version 2>/dev/null | head -n 1)${zSouffle:+; souffle $("$zSouffle" --version 2>&1 | grep -m 1 -i version | sed 's/^ *Version: *//')}"
[ ${#aComp[@]} -eq 0 ] || echo "- souffle -j1 -o BIN W.souffle.dl (compiled mode, untimed in the rounds): $(printf '%s, ' "${aComp[@]}" | sed 's/, $//')"
echo "- ratios: other engine / gdlog, of the best times and of the peak RSS (above 1x gdlog is faster or smaller)"
exit $bFailed
