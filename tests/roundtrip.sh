#!/usr/bin/env bash
# roundtrip.sh GDLOG SHARED_GAMES_DIR
#
# Every print format must read back.  For each valid game X of
# SHARED_GAMES_DIR/kif and each format F of infix, kif and asp:
#
#   GDLOG print --format F X | GDLOG model --syntax F --init -
#
# must print exactly what `GDLOG model --init X` prints.  Games listed in
# tests/gringo_skip.txt (too large) and tests/gdl_rejects.txt (not valid GDL)
# are left out, as gringo_diff.sh does; so is a game whose own model takes
# longer than ROUNDTRIP_BUDGET seconds (default 2), so that the whole test
# stays within about three minutes; a print or read back over its budget
# (a loaded machine) is skipped, not failed.  ROUNDTRIP_JOBS games run at
# once (default 2).  When the gdlog under test cannot read --syntax asp
# yet, the asp format is skipped with a note.
#
# Output: `FAIL GAME FORMAT (why)` per failure, one summary line per format
# (`infix: N passed, N failed, N skipped`), and last `N passed, N failed`
# over all (game, format) pairs.  Exit status: 0 no failure, 1 failures,
# 2 usage error, 77 (ctest's skip code) when SHARED_GAMES_DIR is absent.
set -u
export LC_ALL=C

if [ $# -ne 2 ]; then
    echo "usage: roundtrip.sh GDLOG SHARED_GAMES_DIR" >&2
    exit 2
fi
zGdlog=$1
zShared=$2
zHere=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
iBudget=${ROUNDTRIP_BUDGET:-2}

if [ ! -d "$zShared/kif" ]; then
    echo "skip: $zShared/kif not found (the shared game corpus is not beside the clone)"
    exit 77
fi

zWork=$(mktemp -d "${TMPDIR:-/tmp}/roundtrip.XXXXXX")
trap 'rm -rf "$zWork"' EXIT

# The names of the games to leave out: the first field of each list line.
sed -e 's/#.*//' -e 's/[[:space:]].*//' "$zHere/gringo_skip.txt" "$zHere/gdl_rejects.txt" \
    | grep -v '^$' | sort -u > "$zWork/skip"

aFormats=(infix kif asp)

# --syntax asp is read by the library; the command line may not pass it yet.
export bAsp=1
if ! "$zGdlog" model --syntax asp - < /dev/null > /dev/null 2>&1; then
    bAsp=0
    echo "note: skipping asp: this gdlog does not accept --syntax asp"
fi

# check_game GAME: writes `pass F`, `fail F WHY` or `skip F WHY` lines for
# each format F to $zWork/res/NAME.
# The messages of a run without their places (printed text has other lines
# and columns): the same warnings must come back, and nothing else.
messages() {
    grep -E '(error|warning): ' | sed -E 's/^[^ ]*:[0-9]+:[0-9]+: //' | LC_ALL=C sort
}

check_game() {
    local zGame=$1 zName zDir zRes f rc
    zName=$(basename "$zGame" .kif)
    zDir=$zWork/g.$zName
    zRes=$zWork/res/$zName
    mkdir -p "$zDir"
    : > "$zRes"
    if grep -qxF "$zName" "$zWork/skip"; then
        for f in infix kif asp; do echo "skip $f listed" >> "$zRes"; done
        return
    fi
    if ! timeout "$iBudget" "$zGdlog" model --init "$zGame" > "$zDir/want" 2> "$zDir/want.err"; then
        # too slow for the budget, or no model (a limit): nothing to compare
        for f in infix kif asp; do echo "skip $f model over budget" >> "$zRes"; done
        return
    fi
    for f in infix kif asp; do
        if [ "$f" = asp ] && [ "$bAsp" = 0 ]; then
            echo "skip $f no --syntax asp" >> "$zRes"
            continue
        fi
        timeout "$iBudget" "$zGdlog" print --format "$f" "$zGame" > "$zDir/printed" 2> "$zDir/err"
        rc=$?
        if [ $rc -eq 124 ]; then
            echo "skip $f print over budget" >> "$zRes"
            continue
        elif [ $rc -ne 0 ]; then
            echo "fail $f print: $(grep -m1 error "$zDir/err")" >> "$zRes"
            continue
        fi
        timeout "$((2 * iBudget))" "$zGdlog" model --syntax "$f" --init - < "$zDir/printed" \
            > "$zDir/got" 2> "$zDir/err"
        rc=$?
        if [ $rc -eq 124 ]; then
            echo "skip $f read back over budget" >> "$zRes"
        elif [ $rc -ne 0 ]; then
            echo "fail $f read back: $(grep -m1 -e error -e warning "$zDir/err")" >> "$zRes"
        elif ! cmp -s <(messages < "$zDir/want.err") <(messages < "$zDir/err"); then
            echo "fail $f read back with other messages: $(diff <(messages < "$zDir/want.err") <(messages < "$zDir/err") | grep -m1 '^[<>]')" >> "$zRes"
        elif ! cmp -s "$zDir/want" "$zDir/got"; then
            echo "fail $f another model: $(diff "$zDir/want" "$zDir/got" | grep -m1 '^[<>]')" >> "$zRes"
        else
            echo "pass $f" >> "$zRes"
        fi
    done
    rm -rf "$zDir"
}
export -f check_game messages
export zGdlog zWork iBudget
mkdir -p "$zWork/res"
printf '%s\0' "$zShared"/kif/*.kif | xargs -0 -P "${ROUNDTRIP_JOBS:-2}" -n 1 bash -c 'check_game "$1"' _

# one pass over the results: FAIL lines, a summary per format, the total
for zRes in "$zWork"/res/*; do sed "s|^|$(basename "$zRes") |" "$zRes"; done | awk '
    $2 == "fail" { nFail[$3]++; zWhy = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", zWhy)
                   printf "FAIL %s %s (%s)\n", $1, $3, zWhy; next }
    $2 == "pass" { nPass[$3]++; next }
                 { nSkip[$3]++ }
    END {
        split("infix kif asp", aF, " ")
        for (i = 1; i <= 3; i++) {
            f = aF[i]
            printf "%s: %d passed, %d failed, %d skipped\n", f, nPass[f], nFail[f], nSkip[f]
            p += nPass[f]; n += nFail[f]
        }
        printf "%d passed, %d failed\n", p, n
        exit n > 0
    }'
