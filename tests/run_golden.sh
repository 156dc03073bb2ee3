#!/usr/bin/env bash
# run_golden.sh GDLOG GOLDEN_DIR
#
# For each NAME.dl and NAME.kif in GOLDEN_DIR: runs
#     GDLOG model ARGS GOLDEN_DIR/NAME.dl
# where ARGS is the first line of NAME.args (if that file exists), split into
# words, with @DIR@ in each word replaced by GOLDEN_DIR.  The output is sorted
# with LC_ALL=C and compared with NAME.expected (the complete model, one atom
# per line, sorted).  Prints "ok NAME" or "FAIL NAME" (with the reason and a
# diff), and as its last line "N passed, N failed".  Exits 1 if a case failed,
# 2 on usage errors.
#
# Environment: GOLDEN_TIMEOUT  seconds per case (default 60; needs timeout(1)).
#              GOLDEN_DIFF_LINES  maximum diff lines shown per case (default 60).
set -u

if [ "$#" -ne 2 ]; then
    echo "usage: $0 GDLOG GOLDEN_DIR" >&2
    exit 2
fi
GDLOG=$1
DIR=${2%/}
if [ ! -d "$DIR" ]; then
    echo "$0: $DIR: not a directory" >&2
    exit 2
fi
if [ ! -x "$GDLOG" ] && ! command -v "$GDLOG" >/dev/null 2>&1; then
    echo "warning: $GDLOG is not an executable; every case will fail" >&2
fi

TIMEOUT=${GOLDEN_TIMEOUT:-60}
DIFF_LINES=${GOLDEN_DIFF_LINES:-60}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gdlog-golden.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

export LC_ALL=C

run_timeout() {
    if command -v timeout >/dev/null 2>&1; then
        timeout "$TIMEOUT" "$@"
    else
        "$@"
    fi
}

# first lines of FILE, at most N of them, then a note if there were more
show() {
    local file=$1 n=$2 total
    total=$(wc -l < "$file")
    sed -n "1,${n}p" "$file" | sed 's/^/    /'
    if [ "$total" -gt "$n" ]; then
        echo "    ... ($((total - n)) more lines)"
    fi
}

passed=0
failed=0
found=0

for prog in "$DIR"/*.dl "$DIR"/*.kif; do
    [ -f "$prog" ] || continue
    found=$((found + 1))
    file=${prog##*/}
    name=${file%.*}
    base=$DIR/$name

    args=()
    if [ -f "$base.args" ]; then
        line=
        IFS= read -r line < "$base.args" || true
        line=${line%$'\r'}
        read -r -a words <<< "$line"
        for w in ${words[@]+"${words[@]}"}; do
            args+=("${w//@DIR@/$DIR}")
        done
    fi

    if [ ! -f "$base.expected" ]; then
        echo "FAIL $name"
        echo "    missing $base.expected"
        failed=$((failed + 1))
        continue
    fi

    out=$TMP/$name.out
    err=$TMP/$name.err
    run_timeout "$GDLOG" model ${args[@]+"${args[@]}"} "$prog" > "$out" 2> "$err"
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL $name"
        if [ "$status" -eq 124 ]; then
            echo "    timed out after ${TIMEOUT}s: $GDLOG model ${args[*]+${args[*]}} $prog"
        else
            echo "    exit status $status: $GDLOG model ${args[*]+${args[*]}} $prog"
        fi
        show "$err" 20
        failed=$((failed + 1))
        continue
    fi

    tr -d '\r' < "$out" | sort > "$TMP/$name.sorted"
    if diff -u --label "$name.expected" --label "gdlog output" "$base.expected" "$TMP/$name.sorted" > "$TMP/$name.diff"; then
        echo "ok $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        echo "    output differs from $name.expected (- expected, + got):"
        show "$TMP/$name.diff" "$DIFF_LINES"
        failed=$((failed + 1))
    fi
done

if [ "$found" -eq 0 ]; then
    echo "no .dl or .kif files in $DIR"
    failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
