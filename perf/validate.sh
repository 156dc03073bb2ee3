#!/usr/bin/env bash
# perf/validate.sh [GDLOG] -- is gdlog's output for players ordinary GDL?
# For each game, `gdlog ground --for-players` (and any ARGS in
# PLAYERS_ARGS), then ggp-base's StaticValidator (peer/GdlValidate.java) on
# the game and on that output: syntax, arities, safety, stratification and
# GDL's keywords, as ggp-base's game server checks a game.  Prints one line
# per text; exit 1 when an output is invalid where its game is valid.
#
# Needs java and javac (Debian default-jdk-headless), Guava
# (libguava-java) and ggp-base's sources: GGP_BASE=DIR (a checkout, with
# lib/gdl-validation), else it is cloned from GitHub at the commit opnf.sh
# pins.  Games: GAMES (names in ../shared/games/kif, or paths).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=${1:-$HERE/../build/gdlog}
KIF=${KIF:-$HERE/../../shared/games/kif}
GAMES=${GAMES:-"ticTacToe connectFour breakthrough checkers hex skirmish speedChess othello-comp2007 amazons chess"}
GUAVA=${GUAVA:-/usr/share/java/guava.jar}
for t in java javac; do command -v $t > /dev/null || { echo "$t not found (apt-get install default-jdk-headless)"; exit 2; }; done
[ -f "$GUAVA" ] || { echo "no Guava at $GUAVA (apt-get install libguava-java)"; exit 2; }
[ -x "$GDLOG" ] || { echo "no gdlog binary at $GDLOG"; exit 2; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

# shellcheck source=perf/peer/ggp_base.sh
. "$HERE/peer/ggp_base.sh"
ggp_base_sources "$W" || { echo "$GGP_ERROR"; exit 2; }
V=$GGP_BASE_DIR/lib/gdl-validation
CP="$GUAVA:$V/gdl-validation-0.2.2.jar:$V/java-cup-11b-runtime-2015.03.26.jar"
[ -f "$V/gdl-validation-0.2.2.jar" ] || { echo "no $V/gdl-validation-0.2.2.jar in GGP_BASE"; exit 2; }
ggp_base_compile "$W" "$HERE/peer/GdlValidate.java" "$CP" || { echo "$GGP_ERROR"; exit 2; }

game_file() { case $1 in */*) echo "$1" ;; *) echo "$KIF/$1.kif" ;; esac; }

bad=0
for g in $GAMES; do
    f=$(game_file "$g") out=$W/$(basename "$f" .kif).players.kif
    # shellcheck disable=SC2086  # PLAYERS_ARGS is a list of options
    if ! "$GDLOG" ground --for-players --no-warnings ${PLAYERS_ARGS:-} "$f" -o "$out" 2> "$W/err"; then
        echo "$g: gdlog failed: $(head -1 "$W/err")"; continue
    fi
    java -cp "$W/classes:$CP" GdlValidate "$f" "$out" > "$W/v" 2>&1
    sed "s|$W/||" "$W/v"
    grep -q "^$f: valid" "$W/v" && grep -q "^$out: INVALID" "$W/v" && bad=1
done
exit $bad
