#!/usr/bin/env bash
# gringo_diff.sh: compares gdlog's initial-state model with gringo's.
#
#   tests/gringo_diff.sh [--all] [-j JOBS] GDLOG [GAME|DIR]...
#
# For each game (a .kif file, or every .kif/.gdl/.lisp file of a directory;
# default ../shared/games/kif next to the repository):
#   GDLOG print --format asp GAME  + the rule `true(X) :- init(X).`
#   -> timeout $GRINGO_BUDGET gringo --text | asp_to_infix.pl | LC_ALL=C sort
# is compared (cmp) with
#   GDLOG model --init GAME | LC_ALL=C sort
# Result lines, sorted by game name:
#   ok NAME (N atoms)            both models are the same set
#   ok NAME (rejected by both)   gringo fails or finds no unique model, and gdlog
#                                exits non-zero with an `error:` line
#   ok NAME (rejected as pinned) gdlog rejects a game that is not valid GDL
#                                with the error pinned in tests/gdl_rejects.txt
#                                (NAME, a tab, the first error without the path)
#   skip NAME (...)              listed in tests/gringo_skip.txt (unless --all),
#                                or gringo over budget
#   FAIL NAME (...)              anything else, followed by the first diff lines
# The last line is exactly `N passed, N failed, N skipped`.
# Exit status: 0 no failure, 1 failures, 2 usage error, 77 (ctest's skip code)
# when a game path, the games directory or gringo is missing.
#
# Environment: GRINGO_BUDGET seconds per gringo run (default 20),
# GDLOG_BUDGET seconds per gdlog run (default 60), GRINGO_JOBS parallel games
# (default: number of cores), GRINGO_SKIP_FILE the skip list (default
# tests/gringo_skip.txt), KEEP_TMP=1 keeps the work directory.

set -u
export LC_ALL=C

zHere=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# check_one INDEX GAME: judges one game; writes $WORK/res/INDEX.{key,out}.
check_one() {
    local i=$1 zGame=$2
    local zName zDir zOut rc
    zName=$(basename "$zGame")
    zName=${zName%.*}
    zDir=$WORK/g$i
    zOut=$WORK/res/$i.out
    mkdir -p "$zDir"
    printf '%s\t%s\t%s\n' "$zName" "$zGame" "$i" > "$WORK/res/$i.key"

    if [ "$ALL" != 1 ] && is_skipped "$zName"; then
        echo "skip $zName (in gringo_skip.txt)" > "$zOut"
        return
    fi

    # 1. gdlog's ASP translation
    timeout "$GDLOG_BUDGET" "$GDLOG" print --format asp "$zGame" \
        > "$zDir/p.lp" 2> "$zDir/print.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        if [ $rc -ne 124 ] && [ $rc -lt 128 ] && grep -q 'error:' "$zDir/print.err"; then
            local zGot zWant
            zGot=$(first_error "$zDir/print.err" | sed 's/^[^:]*://')
            zWant=$(awk -F'\t' -v n="$zName" '$1 == n { print $2 }' "$REJECT_FILE" 2>/dev/null)
            if [ -n "$zWant" ] && [ "$zGot" = "$zWant" ]; then
                echo "ok $zName (rejected as pinned in gdl_rejects.txt)" > "$zOut"
            else
                { echo "FAIL $zName (gdlog rejects it: $zGot)"
                  [ -n "$zWant" ] && echo "    expected: $zWant"; } > "$zOut"
            fi
        else
            { echo "FAIL $zName (gdlog print exited with status $rc)"
              head -n 5 "$zDir/print.err" | sed 's/^/    /'; } > "$zOut"
        fi
        return
    fi
    echo 'true(X) :- init(X).' >> "$zDir/p.lp"

    # 2. gringo's model; a program gringo rejects or cannot reduce to facts
    #    (no unique stratified model) must be rejected by gdlog too
    timeout "$GRINGO_BUDGET" gringo --text "$zDir/p.lp" \
        > "$zDir/gringo.txt" 2> "$zDir/gringo.err"
    rc=$?
    if [ $rc -eq 124 ]; then
        echo "skip $zName (gringo over budget)" > "$zOut"
        return
    fi
    local zWhy=""
    if [ $rc -ne 0 ]; then
        zWhy="gringo exited with status $rc: $(first_error "$zDir/gringo.err")"
    elif ! perl "$zHere/asp_to_infix.pl" < "$zDir/gringo.txt" \
            > "$zDir/gringo.infix" 2> "$zDir/decode.err"; then
        zWhy="gringo finds no unique model: $(head -n 1 "$zDir/decode.err")"
    else
        sort "$zDir/gringo.infix" > "$zDir/gringo.sorted"
    fi

    # 3. gdlog's model
    timeout "$GDLOG_BUDGET" "$GDLOG" model --init "$zGame" \
        > "$zDir/gdlog.txt" 2> "$zDir/model.err"
    rc=$?
    if [ -n "$zWhy" ]; then
        if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -lt 128 ] \
                && grep -q 'error:' "$zDir/model.err"; then
            echo "ok $zName (rejected by both)" > "$zOut"
        else
            { echo "FAIL $zName (gdlog model exited with status $rc, but $zWhy)"
              head -n 5 "$zDir/model.err" | sed 's/^/    /'; } > "$zOut"
        fi
        return
    fi
    if [ $rc -ne 0 ]; then
        { if [ $rc -eq 124 ]; then
              echo "FAIL $zName (gdlog model over its budget of ${GDLOG_BUDGET} s)"
          else
              echo "FAIL $zName (gdlog model exited with status $rc, gringo found $(wc -l < "$zDir/gringo.sorted") atoms)"
          fi
          head -n 5 "$zDir/model.err" | sed 's/^/    /'; } > "$zOut"
        return
    fi
    sort "$zDir/gdlog.txt" > "$zDir/gdlog.sorted"
    if cmp -s "$zDir/gringo.sorted" "$zDir/gdlog.sorted"; then
        echo "ok $zName ($(wc -l < "$zDir/gdlog.sorted") atoms)" > "$zOut"
        [ "${KEEP_TMP:-0}" = 1 ] || rm -rf "$zDir"
    else
        { echo "FAIL $zName (gringo $(wc -l < "$zDir/gringo.sorted") atoms, gdlog $(wc -l < "$zDir/gdlog.sorted"); < only gringo, > only gdlog)"
          diff "$zDir/gringo.sorted" "$zDir/gdlog.sorted" | grep '^[<>]' | head -n 10 \
              | sed 's/^/    /'; } > "$zOut"
    fi
}

# first_error FILE: the first line of FILE that mentions an error, or its first line.
first_error() {
    local z
    z=$(grep -m 1 'error' "$1")
    [ -n "$z" ] || z=$(head -n 1 "$1")
    printf '%s' "${z:0:200}"
}

# is_skipped NAME: true when NAME (or NAME.kif) is listed in gringo_skip.txt.
is_skipped() {
    [ -f "$SKIP_FILE" ] || return 1
    sed -e 's/#.*//' "$SKIP_FILE" | awk '{ print $1 }' \
        | grep -qxF -e "$1" -e "$1.kif"
}

if [ "${1:-}" = --one ]; then        # a worker started by xargs below
    check_one "$2" "$3"
    exit 0
fi

usage() {
    echo "usage: $0 [--all] [-j JOBS] GDLOG [GAME|DIR]..." >&2
    exit 2
}

ALL=0
JOBS=${GRINGO_JOBS:-$(nproc 2>/dev/null || echo 2)}
while [ $# -gt 0 ]; do
    case $1 in
        --all) ALL=1; shift ;;
        -j) [ $# -ge 2 ] || usage; JOBS=$2; shift 2 ;;
        -j*) JOBS=${1#-j}; shift ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) usage ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || usage
GDLOG=$1
shift
case $GDLOG in */*) ;; *) GDLOG=./$GDLOG ;; esac
if [ ! -x "$GDLOG" ] || [ -d "$GDLOG" ]; then
    echo "error: $GDLOG is not an executable" >&2
    exit 2
fi
GDLOG=$(cd "$(dirname "$GDLOG")" && pwd)/$(basename "$GDLOG")
if ! command -v gringo > /dev/null 2>&1; then
    echo "skip: gringo not found (Debian package gringo)"
    exit 77
fi
[ $# -ge 1 ] || set -- "$zHere/../../shared/games/kif"

# the games, in argument order; directories give their games sorted by name
aGame=()
for zArg in "$@"; do
    if [ -d "$zArg" ]; then
        while IFS= read -r -d '' z; do
            aGame+=("$z")
        done < <(find "$zArg" -maxdepth 1 -type f \
                     \( -name '*.kif' -o -name '*.gdl' -o -name '*.lisp' \) \
                     -print0 | sort -z)
    elif [ -f "$zArg" ]; then
        aGame+=("$zArg")
    else
        echo "skip: $zArg not found"
        exit 77
    fi
done
if [ ${#aGame[@]} -eq 0 ]; then
    echo "skip: no games in $*"
    exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gringo_diff.XXXXXX") || exit 2
if [ "${KEEP_TMP:-0}" = 1 ]; then
    echo "work directory: $WORK" >&2
else
    trap 'rm -rf "$WORK"' EXIT
fi
trap 'exit 130' INT TERM
mkdir -p "$WORK/res"
REJECT_FILE=${GDLOG_REJECT_FILE:-$zHere/gdl_rejects.txt}
export WORK GDLOG ALL REJECT_FILE
export GRINGO_BUDGET=${GRINGO_BUDGET:-20}
export GDLOG_BUDGET=${GDLOG_BUDGET:-60}
export SKIP_FILE=${GRINGO_SKIP_FILE:-$zHere/gringo_skip.txt}

for i in "${!aGame[@]}"; do
    printf '%s\0%s\0' "$i" "${aGame[$i]}"
done | xargs -0 -n 2 -P "$JOBS" "$BASH" "${BASH_SOURCE[0]}" --one

nPass=0 nFail=0 nSkip=0
while IFS=$'\t' read -r zName zGame i; do
    if [ ! -s "$WORK/res/$i.out" ]; then
        echo "FAIL $zName (no result: the check itself failed)"
        nFail=$((nFail + 1))
        continue
    fi
    cat "$WORK/res/$i.out"
    case $(head -c 4 "$WORK/res/$i.out") in
        "ok "*) nPass=$((nPass + 1)) ;;
        skip) nSkip=$((nSkip + 1)) ;;
        *) nFail=$((nFail + 1)) ;;
    esac
done < <(cat "$WORK"/res/*.key | sort -t $'\t' -k1,1 -k2,2)
# a worker that died before writing its key leaves a game unaccounted for
nMissing=$((${#aGame[@]} - nPass - nFail - nSkip))
if [ $nMissing -gt 0 ]; then
    echo "FAIL ($nMissing games gave no result)"
    nFail=$((nFail + nMissing))
fi

echo "$nPass passed, $nFail failed, $nSkip skipped"
[ $nFail -eq 0 ]
