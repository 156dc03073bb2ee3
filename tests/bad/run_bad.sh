#!/usr/bin/env bash
# run_bad.sh GDLOG BAD_DIR [--files-only]
#
# The bad-input suite.  Every input file BAD_DIR/NAME.kif|.dl, and every file
# that BAD_DIR/gen.sh writes (cases too big or too binary to commit), is run
# as `GDLOG CMD NAME` from its own directory, CMD being the line in
# expected/NAME.args (default: model).  Its stderr must equal
# expected/NAME.err byte for byte, its stdout expected/NAME.out when that
# exists, and its exit status expected/NAME.status (default 1).
# Then, unless --files-only, command-line cases: standard input, -o keeping
# the old file, signals, and the limits.
#
# Environment: GDLOG_WRAPPER  a command put before GDLOG (e.g. valgrind ...)
#              GDLOG_SANITIZE the sanitizers GDLOG was built with (ASan does
#                             not enforce --max-memory: that case is skipped)
# The last line is "N passed, N failed"; exits 1 when a case failed.
set -u
if [ "$#" -lt 2 ]; then
    echo "usage: $0 GDLOG BAD_DIR [--files-only]" >&2
    exit 2
fi
GDLOG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DIR=$(cd "$2" && pwd)
FILES_ONLY=${3:-}
WRAP=${GDLOG_WRAPPER:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gdlog-bad.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
export LC_ALL=C
passed=0
failed=0

ok()   { passed=$((passed + 1)); echo "ok $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

# run_case INPUT: one file case; expected files are named after INPUT's name.
run_case() {
    local input=$1 name exp args status want_status
    name=$(basename "$input")
    exp=$DIR/expected/$name
    if [ ! -f "$exp.err" ]; then fail "$name" "no expected/$name.err"; return; fi
    args=model
    [ -f "$exp.args" ] && args=$(head -n 1 "$exp.args")
    want_status=1
    [ -f "$exp.status" ] && want_status=$(head -n 1 "$exp.status")
    # shellcheck disable=SC2086
    (cd "$(dirname "$input")" && timeout 120 $WRAP "$GDLOG" $args "$name") > "$TMP/out" 2> "$TMP/err"
    status=$?
    if [ "$status" != "$want_status" ]; then
        fail "$name" "exit status $status, expected $want_status"; sed 's/^/    /' "$TMP/err" | head -n 20
    elif ! cmp -s "$TMP/err" "$exp.err"; then
        fail "$name" "stderr differs"; diff "$exp.err" "$TMP/err" | cut -c1-200 | head -n 20
    elif [ -f "$exp.out" ] && ! cmp -s "$TMP/out" "$exp.out"; then
        fail "$name" "stdout differs"; diff "$exp.out" "$TMP/out" | cut -c1-200 | head -n 20
    else
        ok "$name"
    fi
}

bash "$DIR/gen.sh" "$TMP/gen" || { echo "gen.sh failed"; exit 2; }
for f in "$DIR"/*.kif "$DIR"/*.dl "$TMP"/gen/*; do
    [ -f "$f" ] && run_case "$f"
done
for e in "$DIR"/expected/*.err; do
    n=$(basename "$e" .err)
    [ -f "$DIR/$n" ] || [ -f "$TMP/gen/$n" ] || fail "$n" "expected/$n.err has no input"
done

[ "$FILES_ONLY" = "--files-only" ] || . "$DIR/cli_cases.sh"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
