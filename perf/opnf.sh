#!/usr/bin/env bash
# perf/opnf.sh [-t SECONDS] [GDLOG] -- propnet size: gdlog's
# ground game against ggp-base's OptimizingPropNetFactory (OPNF), side by
# side in one run.
#
# For each game: gdlog ground --stats --stats-format json gives the ground
# game's components (ground.h counts them as ggp-base does: atoms + rules
# with two or more body literals + atoms with two or more rules + atoms used
# negatively + next atoms); perf/peer/OpnfCount.java gives OPNF's
# components as create() returns them (the issue's figures) and after
# ggp-base's optional passes.  Prints a markdown table.
#
# Needs java and javac (Debian default-jdk-headless), Guava
# (libguava-java: /usr/share/java/guava.jar) and ggp-base's sources:
# GGP_BASE=DIR (a checkout), else it is cloned from GitHub at the commit
# below into a temporary directory.  Guava 31 has no MapMaker.softValues(),
# which ggp-base's GdlPool calls: the script swaps in a ConcurrentHashMap
# (the pool's memory policy only, not what it holds).
# Games: GAMES (names in ../shared/games/kif, or paths); a run past SECONDS
# (default 600) is `unfinished`.
set -u
T=600
while getopts "t:" o; do
    case $o in
        t) T=$OPTARG ;;
        *) echo "usage: $0 [-t SECONDS] [GDLOG]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=${1:-$HERE/../build/gdlog}
KIF=${KIF:-$HERE/../../shared/games/kif}
GAMES=${GAMES:-"ticTacToe connectFour breakthrough speedChess hex othello-comp2007 skirmish checkers"}
GUAVA=${GUAVA:-/usr/share/java/guava.jar}
for t in java javac python3; do command -v $t > /dev/null || { echo "$t not found (apt-get install default-jdk-headless python3)"; exit 2; }; done
[ -f "$GUAVA" ] || { echo "no Guava at $GUAVA (apt-get install libguava-java)"; exit 2; }
[ -x "$GDLOG" ] || { echo "no gdlog binary at $GDLOG"; exit 2; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

# The peer: ggp-base's sources (patched GdlPool) and OpnfCount, compiled.
# shellcheck source=perf/peer/ggp_base.sh
. "$HERE/peer/ggp_base.sh"
if ! { ggp_base_sources "$W" && ggp_base_compile "$W" "$HERE/peer/OpnfCount.java" "$GUAVA"; }; then
    echo "$GGP_ERROR"; exit 2
fi

game_file() { case $1 in */*) echo "$1" ;; *) echo "$KIF/$1.kif" ;; esac; }

# field NAME: the value after NAME in the peer's line in $W/opnf.out.
field() { tr ' ' '\n' < "$W/opnf.out" | grep -A1 -x "$1" | tail -1; }

echo "| game | gdlog components | OPNF components (create) | OPNF after its optional passes | OPNF s | gdlog / OPNF |"
echo "|---|---:|---:|---:|---:|---:|"
for g in $GAMES; do
    f=$(game_file "$g")
    ours=$("$GDLOG" ground "$f" --no-warnings --stats --stats-format json 2>&1 > /dev/null \
           | python3 -c 'import json,sys; print(json.load(sys.stdin)["ground"]["components"])' 2> /dev/null)
    if timeout "$T" java -Xmx6g -cp "$W/classes:$GUAVA" OpnfCount "$f" > "$W/opnf.out" 2> /dev/null; then
        c=$(field components) o=$(field components_optimised) s=$(field seconds)
        ratio=$(python3 -c "print('%.2f' % ($ours / $c))" 2> /dev/null)
        echo "| $(basename "$f" .kif) | ${ours:-error} | $c | $o | $s | ${ratio} |"
    else
        echo "| $(basename "$f" .kif) | ${ours:-error} | unfinished in $T s | | | |"
    fi
done
