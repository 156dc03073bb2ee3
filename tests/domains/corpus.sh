#!/usr/bin/env bash
# corpus.sh GDLOG SHARED_GAMES_DIR
#
# For every game of SHARED_GAMES_DIR/kif/*.kif: `gdlog reduce` terminates and
# is sound, and the least fixpoint is inside the book's fixpoint.
#  - sound: every true(t) of the initial state and of the states of a few
#    random playouts (gdlog model --init, --state S --does D) is among the
#    kept true instances of `reduce --print`, and every legal(r,a) seen is
#    among the kept does(r,a); a game whose initial model has no role fails
#    (it would pass vacuously);
#  - contained: the instances kept by `reduce --print` are a subset of those
#    kept by `reduce --from domains --print` (when the domains are finite and
#    the book's iteration ends within the time limit; else that check is
#    skipped and counted).
# Games that `gdlog check` rejects are skipped.  Games listed in
# corpus_skip.txt (beside this script; "NAME.kif reason") are skipped with
# their reason.  Exit 77 when SHARED_GAMES_DIR does not exist.
# Environment: CORPUS_TIMEOUT seconds per gdlog run (default 60),
#   CORPUS_PLAYOUTS (default 2), CORPUS_STEPS per playout (default 4),
#   CORPUS_GAMES (a glob, default *.kif).
# Last line: "N passed, N failed".
set -u
if [ "$#" -ne 2 ]; then echo "usage: $0 GDLOG SHARED_GAMES_DIR" >&2; exit 2; fi
GDLOG=$1
SHARED=${2%/}
if [ ! -d "$SHARED/kif" ]; then echo "skip: $SHARED/kif not found"; exit 77; fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=${CORPUS_TIMEOUT:-60}
PLAYOUTS=${CORPUS_PLAYOUTS:-2}
STEPS=${CORPUS_STEPS:-4}
export LC_ALL=C
RANDOM=42
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
pass=0 fail=0 skipped=0 book_skipped=0 lfp_total=0 book_total=0

g() { timeout "$T" "$GDLOG" "$@"; }

# Why a g call failed: its exit status $1 and its stderr file $2.
failure() {
    if [ "$1" -eq 124 ]; then echo "timed out after $T s"; else head -1 "$2"; fi
}

# Picks one random legal move per role from the model in $W/model; writes $W/does.
pick_moves() {
    : > "$W/does"
    local r moves
    for r in $(sed -n 's/^(role \(.*\))$/\1/p' "$W/model"); do
        mapfile -t moves < <(grep -F "(legal $r " "$W/model" | sed "s/^(legal $r \(.*\))\$/\1/")
        [ "${#moves[@]}" -eq 0 ] && return 1
        echo "(does $r ${moves[$((RANDOM % ${#moves[@]}))]})" >> "$W/does"
    done
    [ -s "$W/does" ]
}

# Checks the state in $W/state and the legal moves in $W/model against the kept sets.
check_state() {
    local missing
    missing=$(comm -23 <(sort -u "$W/state") "$W/kept_true" | head -3)
    [ -n "$missing" ] && { echo "true not kept: $missing"; return 1; }
    missing=$(grep '^(legal ' "$W/model" | sed 's/^(legal /(does /' | sort -u | comm -23 - "$W/kept_does" | head -3)
    [ -n "$missing" ] && { echo "legal move not kept: $missing"; return 1; }
    return 0
}

playout() {
    local game=$1 step
    g model --format kif --init "$game" > "$W/model" 2> "$W/merr" || { echo "model --init failed: $(failure $? "$W/merr")"; return 1; }
    grep -q '^(role ' "$W/model" || { echo "no role in the initial model (was the file read as empty?)"; return 1; }
    grep '^(true ' "$W/model" > "$W/state"
    for ((step = 0; step <= STEPS; step++)); do
        g model --format kif --state "$W/state" "$game" > "$W/model" 2> "$W/merr" || { echo "model --state failed: $(failure $? "$W/merr")"; return 1; }
        check_state || return 1
        grep -qx 'terminal' "$W/model" && return 0
        [ "$step" -eq "$STEPS" ] && return 0
        pick_moves || return 0
        g model --format kif --state "$W/state" --does "$W/does" "$game" > "$W/model" 2> "$W/merr" || { echo "step failed: $(failure $? "$W/merr")"; return 1; }
        grep '^(next ' "$W/model" | sed 's/^(next /(true /' > "$W/state"
    done
}

check_game() {
    local game=$1 p why
    g reduce --print --print-format kif "$game" > "$W/kept" 2> "$W/err" || { echo "reduce failed: $(failure $? "$W/err")"; return 1; }
    grep '^(true ' "$W/kept" | sort -u > "$W/kept_true"
    grep '^(does ' "$W/kept" | sort -u > "$W/kept_does"
    for ((p = 0; p < PLAYOUTS; p++)); do
        why=$(playout "$game") || { echo "$why"; return 1; }
    done
    if g reduce --from domains --max-atoms 20000000 --print --print-format kif "$game" > "$W/book" 2> "$W/err"; then
        why=$(comm -23 <(grep -v '^%' "$W/kept" | sort -u) <(grep -v '^%' "$W/book" | sort -u) | head -3)
        [ -n "$why" ] && { echo "least fixpoint not inside the book's: $why"; return 1; }
        echo "$(grep -vc '^%' "$W/kept") $(grep -vc '^%' "$W/book")" > "$W/sizes"
    else
        echo "skipped $(failure $? "$W/err")" > "$W/sizes"
    fi
    return 0
}

for game in "$SHARED"/kif/${CORPUS_GAMES:-*.kif}; do
    name=$(basename "$game")
    reason=$(grep -s "^$name " "$HERE/corpus_skip.txt" | cut -d' ' -f2-)
    if [ -n "$reason" ]; then echo "skip $name: $reason"; skipped=$((skipped + 1)); continue; fi
    if ! g check "$game" > /dev/null 2>&1; then echo "skip $name: gdlog check rejects it"; skipped=$((skipped + 1)); continue; fi
    rm -f "$W/sizes"
    if why=$(check_game "$game"); then
        read -r a b < "$W/sizes"
        if [ "$a" = skipped ]; then
            book_skipped=$((book_skipped + 1))
            echo "ok   $name (the book's iteration did not finish, containment not checked: ${b#gdlog: })"
        else
            lfp_total=$((lfp_total + a)); book_total=$((book_total + b))
            echo "ok   $name (instances: least fixpoint $a, book's fixpoint $b)"
        fi
        pass=$((pass + 1))
    else
        echo "FAIL $name: $why"; fail=$((fail + 1))
    fi
done
echo "skipped $skipped games; containment checked on $((pass - book_skipped)) games:" \
     "least fixpoint $lfp_total instances, book's fixpoint $book_total"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
