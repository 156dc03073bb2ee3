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
GGP_COMMIT=44db132b5f1aa8467b1b990914e2e3c64ecbd87b
GUAVA=${GUAVA:-/usr/share/java/guava.jar}
for t in java javac; do command -v $t > /dev/null || { echo "$t not found (apt-get install default-jdk-headless)"; exit 2; }; done
[ -f "$GUAVA" ] || { echo "no Guava at $GUAVA (apt-get install libguava-java)"; exit 2; }
[ -x "$GDLOG" ] || { echo "no gdlog binary at $GDLOG"; exit 2; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

if [ -z "${GGP_BASE:-}" ]; then
    GGP_BASE=$W/ggp-base
    git clone -q https://github.com/ggp-org/ggp-base "$GGP_BASE" && git -C "$GGP_BASE" checkout -q "$GGP_COMMIT" \
        || { echo "could not clone ggp-base (set GGP_BASE to a checkout)"; exit 2; }
fi
V=$GGP_BASE/lib/gdl-validation
CP="$GUAVA:$V/gdl-validation-0.2.2.jar:$V/java-cup-11b-runtime-2015.03.26.jar"
[ -f "$V/gdl-validation-0.2.2.jar" ] || { echo "no $V/gdl-validation-0.2.2.jar in GGP_BASE"; exit 2; }
mkdir -p "$W/src" "$W/classes"
cp -r "$GGP_BASE/src/main/java/." "$W/src/"
sed -i 's/new MapMaker().softValues().makeMap()/new java.util.concurrent.ConcurrentHashMap<>()/' \
    "$W/src/org/ggp/base/util/gdl/grammar/GdlPool.java"
javac -nowarn -d "$W/classes" -cp "$CP" -sourcepath "$W/src" "$HERE/peer/GdlValidate.java" 2> "$W/javac.err" \
    || { echo "javac failed:"; cat "$W/javac.err"; exit 2; }

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
