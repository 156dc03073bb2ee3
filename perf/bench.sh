#!/usr/bin/env bash
# bench.sh: gdlog against gringo on the same inputs; prints a ratio table.
#
#   perf/bench.sh [-r RUNS] [-n CHAIN_N] [-c CASE]... [--no-append] [GDLOG]
#
# Cases (-c, repeatable; default all):
#   chess  initial-state model of chess:
#            gdlog model --init chess.kif > /dev/null
#          vs gringo --text on `gdlog print --format asp chess.kif` plus
#            `true(X) :- init(X).`  (the translation is not timed)
#   chain  transitive closure over a CHAIN_N-node chain (perf/gen_chain.sh):
#            gdlog model chainN.dl  vs  gringo --text chainN.lp
# Each command runs once untimed (warm-up; its output gives the atom counts,
# which must match), then RUNS times (default 3) with its output going to
# /dev/null; the best wall time and the smallest peak RSS are reported. Wall
# time is taken with bash's EPOCHREALTIME around /usr/bin/time (1 ms steps;
# time's own %e has 10 ms steps), peak RSS is /usr/bin/time's %M.
# The table, the date, `uname -a`, the CPU model and the versions are appended
# to perf/results/RESULTS.md unless --no-append is given.
#
# Below the table, the targets of perf/README.md are checked (met / missed).
#
# GDLOG defaults to build/gdlog of this repository. Environment: RUNS, CHAIN_N,
# GNU_TIME (path of GNU time, default /usr/bin/time).
# Exit status: 0 done, 1 a command failed or the atom counts differ, 2 usage or
# a missing tool (gringo, /usr/bin/time, gdlog).

set -u
export LC_ALL=C

zHere=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
zRepo=$(cd "$zHere/.." && pwd)

usage() {
    echo "usage: $0 [-r RUNS] [-n CHAIN_N] [-c chess|chain]... [--no-append] [GDLOG]" >&2
    exit 2
}

nRuns=${RUNS:-3}
nChain=${CHAIN_N:-2001}
aCase=()
bAppend=1
while [ $# -gt 0 ]; do
    case $1 in
        -r) [ $# -ge 2 ] || usage; nRuns=$2; shift 2 ;;
        -n) [ $# -ge 2 ] || usage; nChain=$2; shift 2 ;;
        -c) [ $# -ge 2 ] || usage; aCase+=("$2"); shift 2 ;;
        --no-append) bAppend=0; shift ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) usage ;;
        *) break ;;
    esac
done
[ $# -le 1 ] || usage
GDLOG=${1:-$zRepo/build/gdlog}
[[ $nRuns =~ ^[1-9][0-9]*$ ]] || { echo "error: RUNS must be a positive integer" >&2; exit 2; }
[[ $nChain =~ ^[1-9][0-9]*$ ]] || { echo "error: CHAIN_N must be a positive integer" >&2; exit 2; }
[ ${#aCase[@]} -gt 0 ] || aCase=(chess chain)
for zCase in "${aCase[@]}"; do
    case $zCase in chess|chain) ;; *) echo "error: unknown case $zCase" >&2; exit 2 ;; esac
done

zTime=${GNU_TIME:-/usr/bin/time}
if [ ! -x "$zTime" ]; then
    echo "error: $zTime not found (GNU time; Debian package: time, apt-get install time)" >&2
    exit 2
fi
if ! command -v gringo > /dev/null 2>&1; then
    echo "error: gringo not found in PATH (Debian package: gringo)" >&2
    exit 2
fi
if [ ! -x "$GDLOG" ] || [ -d "$GDLOG" ]; then
    echo "error: gdlog not found at $GDLOG (build it, or pass its path)" >&2
    exit 2
fi
GDLOG=$(cd "$(dirname "$GDLOG")" && pwd)/$(basename "$GDLOG")
if [ -z "${EPOCHREALTIME:-}" ]; then
    echo "error: bash 5 or later is needed (EPOCHREALTIME)" >&2
    exit 2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gdlog_bench.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
bFailed=0

# measure NAME CMD...: warm-up run (output kept in $WORK/NAME.out), then $nRuns
# timed runs; sets zSec (best wall seconds) and zMiB (smallest peak RSS).
measure() {
    local zName=$1
    shift
    local i t0 t1 zLine zBestSec="" zBestKiB=""
    echo "  $zName: $*" >&2
    if ! "$@" > "$WORK/$zName.out" 2> "$WORK/$zName.err"; then
        echo "error: $zName failed:" >&2
        head -n 5 "$WORK/$zName.err" | sed 's/^/    /' >&2
        zSec=failed zMiB=failed
        bFailed=1
        return 1
    fi
    for ((i = 0; i < nRuns; i++)); do
        t0=$EPOCHREALTIME
        if ! "$zTime" -f '%e %M' -o "$WORK/time.txt" "$@" > /dev/null 2> "$WORK/$zName.err"; then
            echo "error: $zName failed in timed run $((i + 1)):" >&2
            head -n 5 "$WORK/$zName.err" | sed 's/^/    /' >&2
            zSec=failed zMiB=failed
            bFailed=1
            return 1
        fi
        t1=$EPOCHREALTIME
        zLine=$(tail -n 1 "$WORK/time.txt")
        read -r zBestSec zBestKiB <<< "$(awk -v t0="$t0" -v t1="$t1" -v l="$zLine" \
            -v bs="$zBestSec" -v bk="$zBestKiB" 'BEGIN {
                split(l, a, " "); s = t1 - t0; k = a[2]
                if (bs != "" && bs + 0 < s) s = bs
                if (bk != "" && bk + 0 < k) k = bk
                printf "%.3f %d\n", s, k }')"
    done
    zSec=$zBestSec
    zMiB=$(awk -v k="$zBestKiB" 'BEGIN { printf "%.1f", k / 1024 }')
    echo "    best of $nRuns: $zSec s, $zMiB MiB" >&2
}

# ratio A B: A / B as "12.3x", or "-" when either is not a number.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) { print "-"; exit }
        printf "%.1fx\n", a / b }'
}

# count_gringo FILE: the atoms of a `gringo --text` output (# lines dropped).
count_gringo() {
    grep -c -v -e '^#' -e '^[[:space:]]*$' "$1"
}

aRow=()
aNote=()
aTarget=()

# target LABEL MAX-SEC [MAX-MB]: checks the last gdlog figures against a target.
target() {
    local zVerdict
    zVerdict=$(awk -v s="$zGdSec" -v m="$zGdMiB" -v ts="$2" -v tm="${3:-}" 'BEGIN {
        if (s !~ /^[0-9.]+$/) { print "not measured"; exit }
        ok = s + 0 < ts + 0
        if (tm != "") ok = ok && m * 1.048576 < tm + 0
        print ok ? "met" : "MISSED" }')
    aTarget+=("$1: gdlog < $2 s${3:+ and < $3 MB}: $zVerdict")
}

# run_case LABEL GDLOG-CMD... -- GRINGO-INPUT: one row of the table.
run_case() {
    local zLabel=$1
    shift
    local aCmd=()
    while [ "$1" != -- ]; do aCmd+=("$1"); shift; done
    local zLp=$2
    local nGd nGr zNote
    echo "$zLabel:" >&2
    measure gdlog "${aCmd[@]}"
    zGdSec=$zSec zGdMiB=$zMiB
    nGd=$( [ "$zSec" = failed ] || wc -l < "$WORK/gdlog.out")
    measure gringo gringo --text "$zLp"
    nGr=$( [ "$zSec" = failed ] || count_gringo "$WORK/gringo.out")
    aRow+=("| $zLabel | $zGdSec | $zGdMiB | $zSec | $zMiB | $(ratio "$zSec" "$zGdSec") | $(ratio "$zMiB" "$zGdMiB") |")
    zNote="$zLabel: gdlog ${nGd:-?} atoms, gringo ${nGr:-?} atoms"
    if [ -n "$nGd" ] && [ -n "$nGr" ] && [ "$nGd" = "$nGr" ]; then
        zNote+=" (match)"
    else
        zNote+=" (WARNING: the counts differ)"
        echo "warning: $zLabel: gdlog gives ${nGd:-?} atoms, gringo ${nGr:-?}" >&2
        bFailed=1
    fi
    aNote+=("$zNote")
}

for zCase in "${aCase[@]}"; do
    case $zCase in
    chess)
        zChess=$zRepo/tests/games/chess.kif
        [ -f "$zChess" ] || zChess=$(cd "$zRepo/.." && pwd)/shared/games/kif/chess.kif
        if [ ! -f "$zChess" ]; then
            echo "warning: chess.kif not found in tests/games/ or ../shared/games/kif/; case skipped" >&2
            continue
        fi
        if ! "$GDLOG" print --format asp "$zChess" > "$WORK/chess.lp" 2> "$WORK/print.err"; then
            echo "error: gdlog print --format asp $zChess failed:" >&2
            head -n 5 "$WORK/print.err" | sed 's/^/    /' >&2
            bFailed=1
            continue
        fi
        echo 'true(X) :- init(X).' >> "$WORK/chess.lp"
        run_case "chess init model" "$GDLOG" model --init "$zChess" -- "$WORK/chess.lp"
        target "chess init model" 0.75 300
        ;;
    chain)
        "$zHere/gen_chain.sh" "$nChain" "$WORK" > /dev/null || { bFailed=1; continue; }
        run_case "chain $nChain TC" "$GDLOG" model "$WORK/chain$nChain.dl" \
            -- "$WORK/chain$nChain.lp"
        [ "$nChain" != 2001 ] || target "chain 2001 TC (2,003,000 atoms)" 0.2
        ;;
    esac
done

[ ${#aRow[@]} -gt 0 ] || { echo "error: no case ran" >&2; exit 1; }

zTable=$(
    echo "| case | gdlog s | gdlog MiB | gringo s | gringo MiB | speed ratio | memory ratio |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${aRow[@]}"
)
echo
echo "$zTable"
echo
printf 'atoms: %s\n' "${aNote[@]}"
[ ${#aTarget[@]} -eq 0 ] || printf 'target: %s\n' "${aTarget[@]}"
echo "(ratios are gringo / gdlog: above 1x gdlog is faster or smaller; best of $nRuns runs)"

if [ $bAppend = 1 ]; then
    zResults=$zHere/results/RESULTS.md
    mkdir -p "$zHere/results"
    zCpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
    zVersion=$("$GDLOG" --version 2>&1 | head -n 1)
    {
        echo
        echo "## $(date '+%Y-%m-%d %H:%M:%S %z')"
        echo
        echo "- machine: \`$(uname -a)\`"
        echo "- CPU: ${zCpu:-unknown}, $(nproc 2>/dev/null || echo '?') cores"
        echo "- gdlog: \`$GDLOG\`, ${zVersion:-no --version}"
        echo "- gringo: $(gringo --version 2>/dev/null | head -n 1)"
        echo "- best of $nRuns runs; ratios are gringo / gdlog"
        echo
        echo "$zTable"
        echo
        printf -- '- atoms: %s\n' "${aNote[@]}"
        [ ${#aTarget[@]} -eq 0 ] || printf -- '- target: %s\n' "${aTarget[@]}"
    } >> "$zResults"
    echo "appended to $zResults"
fi
exit $bFailed
