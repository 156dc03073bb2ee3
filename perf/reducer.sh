#!/usr/bin/env bash
# perf/reducer.sh [-t SECONDS] [-p PLAYOUT_SECONDS] [-c N] [GDLOG] -- how fast two
# real GGP players' propnet builders build and play a game from different
# KIF texts of the same game, side by side in one run.
#
# The texts (VARIANTS, default "original ground players") are the game's
# own KIF file and what gdlog makes of it:
#   original  the file itself
#   ground    gdlog ground --no-warnings FILE           (the fully ground game)
#   players   gdlog ground --for-players --no-warnings FILE
# Another name V runs `gdlog $VARIANT_V FILE` (VARIANT_V holds the command's
# arguments before FILE); VARIANT_ground and VARIANT_players override the two
# above.  When gdlog fails (non-zero exit, or no output within SECONDS) the
# variant's rows say so and the run goes on.
#
# The peers (PEERS, default "sancho opnf"), each given every text in turn:
#   sancho  Sancho 1.61c's ForwardDeadReckonPropnetStateMachine
#           (perf/peer/SanchoBench.java), built as AlexLandau/gdl-perf builds
#           it: initialize, then optimizeStateTransitionMechanism with a
#           budget of SANCHO_OPTIMISE seconds (default 5).
#   opnf    ggp-base's OptimizingPropNetFactory.create, played on a plain
#           propnet state machine that recomputes every gate
#           (perf/peer/OpnfPlay.java).  With -c N, before its timed playouts
#           each propnet plays N random playouts beside ggp-base's
#           ProverStateMachine on the ORIGINAL file, and any difference in
#           roles, legal moves, terminal or goals fails the row: the variants
#           must be the same game.
# Per run: the KIF text's size in bytes, gdlog's time to make it, the build
# time, the propnet's components, random playouts per second from the
# initial state over PLAYOUT_SECONDS (-p, default 10; after WARMUP seconds,
# default 1, of untimed ones for the JIT compiler) per second of wall time
# and per second of the playing thread's CPU time (which a busy machine
# disturbs less), the peak resident memory of the Java process (GNU time's
# %M, else the last VmHWM read from /proc), the wall time of the whole Java
# run (start-up, build, checks and playouts), and a status: ok, `no build in
# L s` (the process had built nothing when it was killed after L = SECONDS
# + WARMUP + PLAYOUT_SECONDS + 30 seconds; -t SECONDS, default 600), `no
# result in L s (built in B s)` (built, then killed), or `failed: reason`.
# One Java process at a time.  Per game the variants are made first, then
# each variant runs on each peer, so all rows of a game come from one run.
# Prints a markdown table per peer, rows game x variant.
#
# Needs bash 5, java and javac (Debian default-jdk-headless) and Guava
# (libguava-java: /usr/share/java/guava.jar).  A peer whose parts are
# missing is skipped with a line saying how to get them (exit status 0):
# - sancho: sancho.jar, log4j-api-2.0-rc1.jar and lucene-core-4.8.1.jar from
#   lib/sancho of AlexLandau/gdl-perf (SANCHO_JARS=DIR, else the repository
#   is cloned from GitHub into a temporary directory), and JUnit 4 (Debian
#   junit4: Sancho calls org.junit.Assert outside its tests); Trove
#   (libtrove3-java) is put on the class path when present.  Sancho's
#   repackaged GdlPool calls MapMaker.softValues(), which Guava 31 lacks:
#   the script copies that one class with the call renamed to weakValues()
#   (same descriptor, same name length; an interning pool whose entries
#   still go when nothing else holds them) ahead of sancho.jar.  That set-up
#   is perf/peer/sancho.sh, shared with play.sh (PEER=sancho).
# - opnf: ggp-base's sources (GGP_BASE=DIR, a checkout, else cloned from
#   GitHub at the commit below), compiled with GdlPool's MapMaker map
#   replaced by a ConcurrentHashMap, as perf/opnf.sh does.
# Environment: GAMES (names in KIF, default ../shared/games/kif, or paths),
# VARIANTS, PEERS, JAVA_OPTS (default -Xmx8g), GNU_TIME (default
# /usr/bin/time), KEEP=DIR keeps the generated KIF files there.
set -u
T=600
P=10
C=0
usage() { echo "usage: $0 [-t SECONDS] [-p PLAYOUT_SECONDS] [-c CHECK_PLAYOUTS] [GDLOG]" >&2; exit 2; }
while getopts "t:p:c:h" o; do
    case $o in
        t) T=$OPTARG ;;
        p) P=$OPTARG ;;
        c) C=$OPTARG ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=${1:-$HERE/../build/gdlog}
KIF=${KIF:-$HERE/../../shared/games/kif}
GAMES=${GAMES:-"ticTacToe connectFour breakthrough checkers hex skirmish speedChess othello-comp2007 amazons chess"}
VARIANTS=${VARIANTS:-"original ground players"}
PEERS=${PEERS:-"sancho opnf"}
JAVA_OPTS=${JAVA_OPTS:--Xmx8g}
WARMUP=${WARMUP:-1}
GNU_TIME=${GNU_TIME:-/usr/bin/time}
GUAVA=${GUAVA:-/usr/share/java/guava.jar}
# shellcheck source=perf/peer/ggp_base.sh
. "$HERE/peer/ggp_base.sh"
# shellcheck source=perf/peer/sancho.sh
. "$HERE/peer/sancho.sh"
[ "${BASH_VERSINFO[0]}" -ge 5 ] || { echo "needs bash 5 (EPOCHREALTIME)"; exit 2; }
[ -x "$GDLOG" ] || { echo "no gdlog binary at $GDLOG"; exit 2; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
mkdir -p "$W/run" "$W/kif"
[ -z "${KEEP:-}" ] || mkdir -p "$KEEP"

# --- the peers, set up; a peer that cannot be set up leaves PEERS --------
skip() { echo "skipping $1: $2" >&2; PEERS=$(echo " $PEERS " | sed "s/ $1 / /"); }
if ! command -v java > /dev/null || ! command -v javac > /dev/null; then
    for p in $PEERS; do skip "$p" "java and javac not found (apt-get install default-jdk-headless)"; done
elif [ ! -f "$GUAVA" ]; then
    for p in $PEERS; do skip "$p" "no Guava at $GUAVA (apt-get install libguava-java, or GUAVA=JAR)"; done
fi

OPNF_CP=
setup_opnf() {
    if ! { ggp_base_sources "$W" && ggp_base_compile "$W/opnf" "$HERE/peer/OpnfPlay.java" "$GUAVA"; }; then
        skip opnf "$GGP_ERROR"; return
    fi
    OPNF_CP=$W/opnf/classes:$GUAVA
}

for p in $PEERS; do
    case $p in
        sancho) setup_sancho "$W" || skip sancho "$SANCHO_ERROR" ;;
        opnf) setup_opnf ;;
        *) echo "unknown peer $p (sancho, opnf)"; exit 2 ;;
    esac
done

# --- helpers --------------------------------------------------------------
game_file() { case $1 in */*) echo "$1" ;; *) echo "$KIF/$1.kif" ;; esac; }
now() { echo "$EPOCHREALTIME"; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# cell TEXT: TEXT fit for a table cell (one line, no |).
cell() { echo "$1" | head -1 | tr -d '\r' | sed 's/|/\\|/g' | cut -c1-160; }

# variant_args V: gdlog's arguments before FILE for variant V, or nothing
# for original.
variant_args() {
    local v=$1 var="VARIANT_$1"
    case $v in *[!A-Za-z0-9_]*) echo "bad variant name $v" >&2; return 1 ;; esac
    if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
    case $v in
        original) echo "" ;;
        ground) echo "ground --no-warnings" ;;
        players) echo "ground --for-players --no-warnings" ;;
        *) echo "unknown variant $v: set VARIANT_$v to gdlog's arguments before FILE" >&2; return 1 ;;
    esac
}

# run_java LIMIT OUT ERR CMD...: runs CMD in $W/run with stdout in OUT and
# stderr in ERR, killed after LIMIT seconds; sets RC (124 when killed) and
# MEM (peak resident KiB, empty if unknown).
run_java() {
    local lim=$1 out=$2 err=$3; shift 3
    MEM=
    if [ -x "$GNU_TIME" ]; then
        (cd "$W/run" && "$GNU_TIME" -f %M -o "$W/mem" timeout -k 10 "$lim" "$@" > "$out" 2> "$err")
        RC=$?
        MEM=$(tail -1 "$W/mem" 2> /dev/null | grep -E '^[0-9]+$')
    else
        (cd "$W/run" && exec "$@" > "$out" 2> "$err") &
        local pid=$! start=$SECONDS hwm
        while kill -0 "$pid" 2> /dev/null; do
            hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2> /dev/null)
            [ -z "$hwm" ] || MEM=$hwm
            if [ $((SECONDS - start)) -ge "$lim" ]; then kill "$pid" 2> /dev/null; sleep 1; kill -9 "$pid" 2> /dev/null; fi
            sleep 0.5
        done
        wait "$pid"; RC=$?
        [ $((SECONDS - start)) -lt "$lim" ] || RC=124
    fi
}

# field NAME FILE: the value after NAME on the peer's result line.
field() { grep -m1 '^build_seconds' "$2" | tr ' ' '\n' | grep -A1 -x "$1" | tail -1; }
mib() { [ -n "$1" ] && awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# status RC OUT ERR: the row's status.
status() {
    local rc=$1 out=$2 err=$3 built
    built=$(grep -m1 '^built in' "$err" | awk '{ printf "%.1f", $3 }')
    if [ "$rc" -eq 0 ] && grep -q '^build_seconds.*playouts_per_second' "$out"; then
        if grep -q ' checked ' "$out"; then echo "ok, $(field checked "$out") playouts checked"; else echo ok; fi
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        if [ -n "$built" ]; then echo "no result in $LIMIT s (built in $built s)"; else echo "no build in $LIMIT s"; fi
    elif [ "$rc" -eq 3 ] && grep -q '^check failed' "$err"; then
        echo "failed: $(cell "$(grep -m1 '^check failed' "$err")")"
    else
        local why
        why=$(grep -m1 -E 'Exception|Error' "$err")
        [ -n "$why" ] || why=$(grep -v -E '^built in|StatusLogger' "$err" | tail -1)
        echo "failed: exit $rc: $(cell "${why:-no output}")"
    fi
}

declare -A ROWS
add_row() { ROWS[$1]+="$2"$'\n'; echo "$1: $2" >&2; }

# --- the runs ---------------------------------------------------------------
LIMIT=$(awk -v t="$T" -v p="$P" -v w="$WARMUP" 'BEGIN { print int(t + p + w + 30) }')
read -r -a _p <<< "$PEERS"; PEERS="${_p[*]:-}"
echo "peers: ${PEERS:-none}; variants: $VARIANTS; -t $T, -p $P, -c $C; gdlog: $("$GDLOG" --version 2>&1 | head -1)" >&2
for g in $GAMES; do
    f=$(game_file "$g")
    name=$(basename "$f" .kif)
    [ -f "$f" ] || { for p in $PEERS; do add_row "$p" "| $name | | | | | | | | | | | failed: no file $f |"; done; continue; }
    # Make the variants first.
    declare -A VFILE VBYTES VSECS VERR
    for v in $VARIANTS; do
        VERR[$v]='' VSECS[$v]=- VFILE[$v]=''
        if ! a=$(variant_args "$v"); then VERR[$v]="failed: unknown variant"; continue; fi
        if [ "$v" = original ] && [ -z "$a" ]; then
            VFILE[$v]=$f
        else
            out=$W/kif/$name.$v.kif
            t0=$(now)
            # shellcheck disable=SC2086
            timeout -k 10 "$T" "$GDLOG" $a "$f" > "$out" 2> "$W/gdlog.err"
            rc=$?
            VSECS[$v]=$(secs "$t0" "$(now)")
            if [ $rc -eq 124 ]; then VERR[$v]="failed: gdlog $a: no output in $T s"
            elif [ $rc -ne 0 ]; then VERR[$v]="failed: gdlog $a exited $rc: $(cell "$(grep -v '^$' "$W/gdlog.err" | head -1)")"
            else VFILE[$v]=$out; [ -z "${KEEP:-}" ] || cp "$out" "$KEEP/"; fi
        fi
        [ -z "${VFILE[$v]}" ] || VBYTES[$v]=$(wc -c < "${VFILE[$v]}")
    done
    # Then each variant on each peer.
    for v in $VARIANTS; do
        for p in $PEERS; do
            if [ -n "${VERR[$v]}" ]; then
                add_row "$p" "| $name | $v | | ${VSECS[$v]} | | | | | | | | ${VERR[$v]} |"
                continue
            fi
            kf=${VFILE[$v]} o=$W/$p.out e=$W/$p.err t0=$(now)
            case $p in
                sancho)
                    sancho_cmd "$kf" "$P"
                    run_java "$LIMIT" "$o" "$e" "${SANCHO_CMD[@]}"
                    st=$(status "$RC" "$o" "$e") run=$(secs "$t0" "$(now)")
                    init=$(field initialize_seconds "$o") b=$(field build_seconds "$o")
                    opt=$([ -n "$b" ] && awk -v b="$b" -v i="$init" 'BEGIN { printf "%.3f", b - i }')
                    add_row "$p" "| $name | $v | ${VBYTES[$v]} | ${VSECS[$v]} | $init | $opt | $(field components "$o") | $(field playouts_per_second "$o") | $(field playouts_per_cpu_second "$o") | $(mib "$MEM") | $run | $st |"
                    ;;
                opnf)
                    # shellcheck disable=SC2086
                    run_java "$LIMIT" "$o" "$e" java $JAVA_OPTS -cp "$OPNF_CP" OpnfPlay "$kf" "$P" "$f" "$C" 1 "$WARMUP"
                    st=$(status "$RC" "$o" "$e") run=$(secs "$t0" "$(now)")
                    add_row "$p" "| $name | $v | ${VBYTES[$v]} | ${VSECS[$v]} | $(field build_seconds "$o") | $(field components "$o") | $(field links "$o") | $(field playouts_per_second "$o") | $(field playouts_per_cpu_second "$o") | $(mib "$MEM") | $run | $st |"
                    ;;
            esac
        done
    done
    unset VFILE VBYTES VSECS VERR
done

# --- the tables -------------------------------------------------------------
for p in $PEERS; do
    echo
    case $p in
        sancho)
            echo "Sancho 1.61c (ForwardDeadReckonPropnetStateMachine; build = initialize, then optimise with a ${SANCHO_OPTIMISE} s budget; playouts over $P s)"
            echo
            echo "| game | variant | KIF bytes | gdlog s | build s | optimise s | components | playouts/s | playouts/cpu s | peak MiB | run s | status |"
            echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
            ;;
        opnf)
            echo "ggp-base OptimizingPropNetFactory.create (components and links as created; playouts over $P s, every gate recomputed)"
            echo
            echo "| game | variant | KIF bytes | gdlog s | build s | components | links | playouts/s | playouts/cpu s | peak MiB | run s | status |"
            echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
            ;;
    esac
    printf '%s' "${ROWS[$p]:-}"
done
exit 0
