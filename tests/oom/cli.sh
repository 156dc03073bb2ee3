#!/usr/bin/env bash
# cli.sh GDLOG_OOM GAME: out-of-memory fault injection over the command
# line.  GDLOG_OOM is gdlog built with the failing allocator
# (tests/oom/alloc_env.c).  For each command below, one run without
# failures lists the first allocation of every site reached; then, for
# each of them, a run where that allocation fails (and one where every
# allocation from it on fails) must
#   - exit 1 with "out of memory" (or strerror's "Cannot allocate memory")
#     on stderr, or exit 0 with the right
#     output (a failure the command can do without; lines of timing left
#     out of the comparison);
#   - never crash;
#   - leave no more blocks allocated at exit than the run without failures
#     (the C library keeps a few);
#   - leave the -o file as it was (and no temporary file beside it).
# equiv, which writes no file, is judged on its standard output.
# Prints each finding and `N passed, N failed`; exit 1 on any finding.
set -u -o pipefail
if [ "$#" -ne 2 ]; then echo "usage: $0 GDLOG_OOM GAME" >&2; exit 2; fi
BIN=$1 GAME=$2
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
pass=0 fail=0
finding() { echo "FAIL $*"; fail=$((fail + 1)); }

# The output of a run, lines of timing left out.
normal() { grep -v '^% time' "$1" | sed 's/ (time .*$//'; }

# run_to FILE VAR=VALUE... -- ARGS...: one run of ARGS with those
# variables set, its output into FILE (the -o file, or standard output when
# $TO_STDOUT is 1), its standard error into $W/err; its exit status.
run_to() {
    local file=$1 env=(); shift
    while [ "$1" != -- ]; do env+=("$1"); shift; done
    shift
    if [ "$TO_STDOUT" = 1 ]; then
        env "${env[@]}" "$BIN" "$@" > "$file" 2> "$W/err"
    else
        env "${env[@]}" "$BIN" "$@" -o "$file" > /dev/null 2> "$W/err"
    fi
}

# check NAME N AFTER ARGS...: one run of ARGS where allocation N fails
# (every one after it too when AFTER is 1); its output in $W/out.
check() {
    local name=$1 n=$2 after=$3; shift 3
    printf 'untouched\n' > "$W/out"
    local env=(GDLOG_OOM_FAIL_AT="$n" GDLOG_OOM_LIVE="$W/live")
    [ "$after" = 1 ] && env+=(GDLOG_OOM_EVERY_AFTER=1)
    run_to "$W/out" "${env[@]}" -- "$@"
    local rc=$? what="$name: allocation $n"
    [ "$after" = 1 ] && what+=" and every one after"
    if [ "$rc" -ge 128 ]; then finding "$what: crashed (status $rc): $(head -c 300 "$W/err")"; return; fi
    if [ "$(cat "$W/live")" -gt "$LIVE" ]; then finding "$what: $(cat "$W/live") blocks left at exit, $LIVE without failures"; return; fi
    if [ "$rc" -eq 0 ]; then
        if diff -q <(normal "$W/out") <(normal "$W/expected") > /dev/null; then
            pass=$((pass + 1))
        else
            finding "$what: exit 0 with a wrong output"
        fi
        return
    fi
    if [ "$rc" -ne 1 ]; then finding "$what: exit status $rc"; return; fi
    if ! grep -q "out of memory\|Cannot allocate memory" "$W/err"; then
        finding "$what: exit 1 without 'out of memory': $(head -c 300 "$W/err")"; return
    fi
    if [ "$TO_STDOUT" != 1 ] && [ "$(cat "$W/out")" != untouched ]; then finding "$what: the -o file was changed"; return; fi
    if compgen -G "$W/out.*" > /dev/null; then finding "$what: a temporary file was left: $(ls "$W"/out.*)"; rm -f "$W"/out.*; return; fi
    pass=$((pass + 1))
}

# command_sites NAME ARGS...: every site of ARGS, failing once and for good.
command_sites() {
    local name=$1; shift
    run_to "$W/expected" GDLOG_OOM_SITES="$W/sites" GDLOG_OOM_LIVE="$W/live" -- "$@"
    local ok=$?
    LIVE=$(cat "$W/live")
    if [ "$ok" != 0 ]; then
        finding "$name: fails without fault injection: $(head -c 300 "$W/err")"; return
    fi
    local total points=0
    total=$(awk '/^total/ {print $2}' "$W/sites")
    while read -r n _; do
        [ "$n" = total ] && continue
        check "$name" "$n" 0 "$@"
        check "$name" "$n" 1 "$@"
        points=$((points + 1))
    done < "$W/sites"
    echo "$name: $total allocations from $points sites, each failed once and for good"
}

TO_STDOUT=0
command_sites "model --init" model --init "$GAME"
# A program with facts in its text (taken as input relations) and in a data file.
mkdir -p "$W/facts"
printf 'a\tb\nb\tc\nc\ta\n' > "$W/facts/e.facts"
printf 'start(a). e(c,d). e(d,f(e)).\nreach(X) :- start(X).\nreach(Y) :- reach(X) & e(X,Y).\n' > "$W/reach.dl"
command_sites "model --facts" model --facts "$W/facts" "$W/reach.dl"
command_sites "ground" ground "$GAME"
command_sites "ground --format asp" ground --format asp "$GAME"
# The game for players: all of it ground (simplified), and mostly as written.
command_sites "ground --for-players" ground --for-players "$GAME"
command_sites "ground --for-players --max-growth 1" ground --for-players --max-growth 1 "$GAME"
command_sites "reduce" reduce "$GAME"
command_sites "print" print "$GAME"
command_sites "play --trace" play --trace --random 1 "$GAME"
command_sites "play --circuit lazy" play --trace --random 1 --circuit lazy "$GAME"
# The joint move the trace plays in the initial state, for step.
"$BIN" play --trace --random 1 "$GAME" -o "$W/trace" 2> /dev/null
awk '/^\(does /{print; seen=1; next} seen{exit}' "$W/trace" > "$W/does.kif"
command_sites "step --init" step --init --does "$W/does.kif" "$GAME"
TO_STDOUT=1
command_sites "equiv" equiv --playouts 3 "$GAME" "$GAME"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
