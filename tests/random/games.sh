#!/usr/bin/env bash
# tests/random/games.sh GDLOG_BUILD_DIR COUNT [FIRST_SEED]: COUNT random GDL
# games (gengame.py SEED, SEED from FIRST_SEED, default 1), each
#  - played by machine_diff on every backend (10 playouts walked together,
#    128 wide playouts of the eager circuit replayed on the rules): all
#    must agree;
#  - broken on purpose (gengame.py SEED --break): `gdlog check` and
#    `gdlog play` must exit 1, their first error located at the line the
#    game's first comment names (FILE:LINE:COL: error:);
#  - with GDLOG_RANDOM_GRINGO=1, up to 4 states of the walk with the joint
#    move played there: the model of the game's rules with those true and
#    does facts by `gdlog model` equals gringo's of `gdlog print --format asp`.
# A failing game is kept in $GDLOG_RANDOM_KEEP, or else in a new temporary
# directory, never in the source tree; the output says how to run it again.
# Prints a line of figures every $GDLOG_RANDOM_EVERY (default 1000) games and
# at the end.
# Exit status: 0 all passed, 1 a failure, 2 usage, 77 (ctest's skip) without
# python3, the binaries, or (with GDLOG_RANDOM_GRINGO=1) gringo or perl.
set -u -o pipefail
if [ "$#" -lt 2 ]; then echo "usage: $0 GDLOG_BUILD_DIR COUNT [FIRST_SEED]" >&2; exit 2; fi
BUILD=$1
COUNT=$2
FIRST=${3:-1}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=$BUILD/gdlog
DIFF=$BUILD/tests/random/machine_diff
GRINGO=${GDLOG_RANDOM_GRINGO:-0}
export LC_ALL=C
command -v python3 > /dev/null || { echo "skip: python3 is not installed"; exit 77; }
[ -x "$GDLOG" ] && [ -x "$DIFF" ] || { echo "skip: no $GDLOG or $DIFF (build first)"; exit 77; }
if [ "$GRINGO" = 1 ]; then
    command -v gringo > /dev/null || { echo "skip: gringo is not installed (apt-get install gringo)"; exit 77; }
    command -v perl > /dev/null || { echo "skip: perl is not installed"; exit 77; }
fi
TIMEOUT=
command -v timeout > /dev/null && TIMEOUT="timeout ${GDLOG_RANDOM_SECONDS:-120}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
KEEP=${GDLOG_RANDOM_KEEP:-}

# keep SEED FILE HOW: keeps a failing game and says how to run it again.
keep() {
    if [ -z "$KEEP" ]; then
        KEEP=$(mktemp -d "${TMPDIR:-/tmp}/gdlog-games.XXXXXX") || return 1
    fi
    mkdir -p "$KEEP" && cp "$2" "$KEEP/" && cp "$W/out" "$KEEP/$(basename "$2" .kif).out" 2> /dev/null
    echo "  kept in $KEEP/$(basename "$2"); again: $3"
}

# diff_game SEED: the game of SEED on every backend; 0 when they agree.
diff_game() {
    local g=$W/game-$1.kif
    python3 "$HERE/gengame.py" "$1" > "$g" || { echo "FAIL seed $1: gengame.py failed"; return 1; }
    rm -rf "$W/dump" && mkdir "$W/dump"
    local dump=()
    [ "$GRINGO" = 1 ] && dump=(--dump "$W/dump")
    $TIMEOUT "$DIFF" --playouts 10 --seed "$1" "${dump[@]}" "$g" > "$W/out" 2>&1
    local rc=$?
    if [ "$rc" != 0 ] || ! grep -q " configurations agree: " "$W/out"; then
        echo "FAIL seed $1: machine_diff exit $rc: $(head -1 "$W/out")"
        keep "$1" "$g" "python3 $HERE/gengame.py $1 > g.kif && $DIFF --seed $1 g.kif"
        return 1
    fi
    states=$((states + $(sed -n 's/.* \([0-9]*\) states$/\1/p' "$W/out")))
    [ "$GRINGO" = 1 ] && { gringo_states "$1" "$g" || return 1; }
    rm -f "$g"
}

# gringo_states SEED GAME: the model in each dumped state, gdlog's and gringo's.
gringo_states() {
    local s
    for s in "$W"/dump/*.state; do
        [ -e "$s" ] || continue
        local d=${s%.state}.does
        if ! "$GDLOG" model --state "$s" --does "$d" "$2" 2> "$W/err" | sort > "$W/m.gdlog"; then
            echo "FAIL seed $1: gdlog model failed: $(head -1 "$W/err")"
        elif ! "$GDLOG" print --format asp --state "$s" --does "$d" "$2" > "$W/p.lp" 2> "$W/err"; then
            echo "FAIL seed $1: gdlog print failed: $(head -1 "$W/err")"
        elif ! gringo --text "$W/p.lp" 2> "$W/err" | perl "$HERE/../asp_to_infix.pl" | sort > "$W/m.gringo"; then
            echo "FAIL seed $1: gringo or its translation failed: $(head -1 "$W/err")"
        elif ! diff "$W/m.gringo" "$W/m.gdlog" > "$W/out"; then
            echo "FAIL seed $1: models differ in $(basename "$s") (< gringo, > gdlog):"; head -10 "$W/out"
        else
            gringo_checked=$((gringo_checked + 1))
            continue
        fi
        cp "$s" "$d" "$W/" && keep "$1" "$2" "see $(basename "$s") and $(basename "$d") beside it (copied there too)"
        cp "$s" "$d" "$KEEP/" 2> /dev/null
        return 1
    done
}

# break_game SEED: the game of SEED broken; 0 when gdlog rejects it where it should.
break_game() {
    local g=$W/broken-$1.kif
    python3 "$HERE/gengame.py" "$1" --break > "$g" || { echo "FAIL seed $1: gengame.py --break failed"; return 1; }
    local head lines cmd why=
    head=$(head -1 "$g")
    lines=${head##* lines }
    for cmd in check "play --random 1"; do
        # shellcheck disable=SC2086
        $TIMEOUT "$GDLOG" $cmd "$g" > /dev/null 2> "$W/out"
        local rc=$? first
        first=$(grep -m1 ': error: ' "$W/out")
        if [ "$rc" != 1 ]; then why="gdlog $cmd exit $rc, not 1"
        elif ! [[ "$first" =~ ^"$g":([0-9]+):[0-9]+:\ error: ]]; then why="gdlog $cmd: no located error: $first"
        elif [[ ",$lines," != *",${BASH_REMATCH[1]},"* ]]; then why="gdlog $cmd: error at line ${BASH_REMATCH[1]}, not $lines: $first"
        fi
        [ -n "$why" ] && break
    done
    if [ -n "$why" ]; then
        echo "FAIL seed $1 --break (${head#; break }): $why"
        keep "$1" "$g" "python3 $HERE/gengame.py $1 --break > g.kif && $GDLOG check g.kif"
        return 1
    fi
    broken=$((broken + 1))
    rm -f "$g"
}

figures() {
    echo "$1: $passed games agree over $states states, $broken broken games rejected," \
         "$gringo_checked states checked against gringo, $failed failures ($SECONDS s)"
}

passed=0 failed=0 states=0 broken=0 gringo_checked=0
SECONDS=0
EVERY=${GDLOG_RANDOM_EVERY:-1000}
for ((seed = FIRST; seed < FIRST + COUNT; seed++)); do
    if diff_game "$seed"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    break_game "$seed" || failed=$((failed + 1))
    n=$((seed - FIRST + 1))
    [ $((n % EVERY)) = 0 ] && [ "$n" != "$COUNT" ] && figures "after $n seeds"
done
figures "seeds $FIRST..$((FIRST + COUNT - 1))"
[ "$failed" -eq 0 ]
