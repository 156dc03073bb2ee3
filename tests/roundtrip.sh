#!/usr/bin/env bash
# roundtrip.sh GDLOG SHARED_GAMES_DIR
#
# Every print format must read back (issue 11).  For each valid game X of
# SHARED_GAMES_DIR/kif and each format F of infix, kif and asp:
#
#   GDLOG print --format F X | GDLOG model --syntax F --init -
#
# must print exactly what `GDLOG model --init X` prints.  Games listed in
# tests/gringo_skip.txt (too large) and tests/gdl_rejects.txt (not valid GDL)
# are left out, as gringo_diff.sh does; so is a game whose own model takes
# longer than ROUNDTRIP_BUDGET seconds (default 2), so that the whole test
# stays within about three minutes.  When the gdlog under test cannot read
# --syntax asp yet, the asp format is skipped with a note.
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
declare -A nPass nFail nSkip
for f in "${aFormats[@]}"; do nPass[$f]=0; nFail[$f]=0; nSkip[$f]=0; done

# --syntax asp is read by the library; the command line may not pass it yet.
bAsp=1
if ! "$zGdlog" model --syntax asp - < /dev/null > /dev/null 2>&1; then
    bAsp=0
    echo "note: skipping asp: this gdlog does not accept --syntax asp"
fi

for zGame in "$zShared"/kif/*.kif; do
    zName=$(basename "$zGame" .kif)
    if grep -qxF "$zName" "$zWork/skip"; then
        for f in "${aFormats[@]}"; do nSkip[$f]=$((nSkip[$f] + 1)); done
        continue
    fi
    if ! timeout "$iBudget" "$zGdlog" model --init "$zGame" > "$zWork/want" 2> /dev/null; then
        # too slow for the budget, or no model (a limit): nothing to compare
        for f in "${aFormats[@]}"; do nSkip[$f]=$((nSkip[$f] + 1)); done
        continue
    fi
    for f in "${aFormats[@]}"; do
        if [ "$f" = asp ] && [ $bAsp = 0 ]; then
            nSkip[$f]=$((nSkip[$f] + 1))
            continue
        fi
        if ! timeout "$iBudget" "$zGdlog" print --format "$f" "$zGame" > "$zWork/printed" 2> "$zWork/err"; then
            echo "FAIL $zName $f (print: $(grep -m1 error "$zWork/err"))"
            nFail[$f]=$((nFail[$f] + 1))
            continue
        fi
        if ! timeout "$((2 * iBudget))" "$zGdlog" model --syntax "$f" --init - < "$zWork/printed" \
                > "$zWork/got" 2> "$zWork/err"; then
            echo "FAIL $zName $f (read back: $(grep -m1 -e error -e warning "$zWork/err" || echo 'over budget'))"
            nFail[$f]=$((nFail[$f] + 1))
        elif ! cmp -s "$zWork/want" "$zWork/got"; then
            echo "FAIL $zName $f (another model: $(diff "$zWork/want" "$zWork/got" | grep -m1 '^[<>]'))"
            nFail[$f]=$((nFail[$f] + 1))
        else
            nPass[$f]=$((nPass[$f] + 1))
        fi
    done
done

iPass=0
iFail=0
for f in "${aFormats[@]}"; do
    echo "$f: ${nPass[$f]} passed, ${nFail[$f]} failed, ${nSkip[$f]} skipped"
    iPass=$((iPass + nPass[$f]))
    iFail=$((iFail + nFail[$f]))
done
echo "$iPass passed, $iFail failed"
[ $iFail -eq 0 ]
