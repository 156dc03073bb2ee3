# cli_cases.sh: command-line cases of the bad-input suite, sourced by
# run_bad.sh (uses its GDLOG, DIR, TMP, WRAP, ok and fail).

C=$TMP/cli
mkdir -p "$C"
GAME=$DIR/cli/game.kif

# expect NAME WANT_STATUS GOT_STATUS [CONDITION_RESULT]: ok when they agree
expect() {
    if [ "$2" != "$3" ]; then fail "$1" "exit status $3, expected $2"; sed 's/^/    /' "$C/err" | head -n 5
    elif [ "${4:-0}" != 0 ]; then fail "$1" "output not as expected"; sed 's/^/    /' "$C/err" | head -n 5
    else ok "$1"; fi
}

# no file other than the ones named is left in the output directory
only_files() {
    local want=$1 got
    got=$(cd "$C/o" && ls -A | tr '\n' ' ')
    [ "$got" = "$want" ]
}

# ---- standard input works for every command ------------------------------------------
$WRAP "$GDLOG" model --init "$GAME" > "$C/want" 2> "$C/err"
for cmd in "model --init" "print --format kif" check domains reduce; do
    # shellcheck disable=SC2086
    $WRAP "$GDLOG" $cmd "$GAME" > "$C/file.out" 2> "$C/err"; s1=$?
    # shellcheck disable=SC2086
    $WRAP "$GDLOG" $cmd - < "$GAME" > "$C/stdin.out" 2> "$C/err"; s2=$?
    # (reduce's % comments name the file and times)
    diff <(grep -v '^%' "$C/file.out") <(grep -v '^%' "$C/stdin.out") > /dev/null
    expect "stdin: $cmd" "0 0" "$s1 $s2" $?
done
printf '(role white)\n(init (cell 1' | $WRAP "$GDLOG" model - > /dev/null 2> "$C/err"
s=$?; printf "<stdin>:2:7: error: unbalanced '(': it is never closed\n (init (cell 1\n       ^\n" | cmp -s - "$C/err"
expect "stdin: errors name <stdin>" 1 $s $?

# ---- files that cannot be read -------------------------------------------------------------
$WRAP "$GDLOG" model "$C" > /dev/null 2> "$C/err"; s=$?
echo "gdlog: error: cannot read $C: Is a directory" | cmp -s - "$C/err"; expect "a directory is an error" 1 $s $?
$WRAP "$GDLOG" model "$C/missing.kif" > /dev/null 2> "$C/err"; s=$?
echo "gdlog: error: cannot open $C/missing.kif: No such file or directory" | cmp -s - "$C/err"
expect "a missing file is an error" 1 $s $?

# ---- -o replaces the file only on success ------------------------------------------------
mkdir -p "$C/o"
echo old > "$C/o/model.txt"
$WRAP "$GDLOG" model -o "$C/o/model.txt" "$DIR/unbalanced_end.kif" 2> "$C/err"; s=$?
[ "$(cat "$C/o/model.txt")" = old ] && only_files "model.txt "; expect "-o: a syntax error keeps the old file" 1 $s $?
$WRAP "$GDLOG" model --max-atoms 10 -o "$C/o/model.txt" "$DIR/cli/infinite.kif" 2> "$C/err"; s=$?
[ "$(cat "$C/o/model.txt")" = old ] && only_files "model.txt "; expect "-o: a limit keeps the old file" 1 $s $?
$WRAP "$GDLOG" model --init -o "$C/o/model.txt" "$GAME" 2> "$C/err"; s=$?
cmp -s "$C/o/model.txt" "$C/want" && only_files "model.txt "; expect "-o: success replaces the file" 0 $s $?
$WRAP "$GDLOG" model --init -o /dev/null "$GAME" 2> "$C/err"; s=$?
[ -c /dev/null ]; expect "-o /dev/null is written, not replaced" 0 $s $?
$WRAP "$GDLOG" model -o "$C/no/such/dir/model.txt" "$GAME" 2> "$C/err"; s=$?
grep -q "cannot write" "$C/err"; expect "-o: an unwritable place is an error" 1 $s $?

# ---- limits ---------------------------------------------------------------------------------------
$WRAP "$GDLOG" model --max-atoms 500 "$DIR/cli/infinite.kif" > /dev/null 2> "$C/err"; s=$?
printf "gdlog: error: the model grew beyond 500 atoms while deriving 'p' (the model may be infinite, e.g. function terms in recursion); raise the limit with --max-atoms\n" |
    cmp -s - "$C/err"
expect "--max-atoms names the relation and the flag" 1 $s $?
python3 -c "
print('(<= (r ?a ?b ?c ?d) (q ?a) (q ?b) (q ?c) (q ?d))')
for i in range(400): print('(q %d)' % i)" > "$C/join.kif"
start=$(date +%s)
$WRAP "$GDLOG" model --max-atoms 0 --timeout 0.5 "$C/join.kif" > /dev/null 2> "$C/err"; s=$?
end=$(date +%s)
printf "gdlog: error: stopped at the time limit of 0.5 s; raise it with --timeout SECONDS (0: no limit)\n" | cmp -s - "$C/err" &&
    [ $((end - start)) -lt 20 ]
expect "--timeout stops and names the flag" 1 $s $?
if [[ "${GDLOG_SANITIZE:-}" != *address* ]]; then
    $WRAP "$GDLOG" model --max-atoms 0 --max-memory 64 "$C/join.kif" > /dev/null 2> "$C/err"; s=$?
    grep -q "raise the limit with --max-memory" "$C/err"; expect "--max-memory stops and names the flag" 1 $s $?
fi
# a rule at the parser's limit of 1000 literals runs: the evaluator recurses
# once per literal (it overflowed the stack while each level took 12 KB)
python3 -c "
print('e(1,1).')
print('p(X0,X1000) :- ' + ' & '.join('e(X%d,X%d)' % (i, i + 1) for i in range(1000)) + '.')" > "$C/long_rule.dl"
$WRAP "$GDLOG" model "$C/long_rule.dl" > "$C/out" 2> "$C/err"; s=$?
printf 'e(1,1)\np(1,1)\n' | cmp -s - "$C/out"; expect "a rule of 1000 literals runs" 0 $s $?
"$GDLOG" model --max-memory lots "$GAME" 2> "$C/err"; s=$?; expect "--max-memory needs a size" 2 $s 0
"$GDLOG" model --timeout -1 "$GAME" 2> "$C/err"; s=$?; expect "--timeout needs seconds" 2 $s 0

# ---- signals: 130/143, the old file kept, no temporary file left -----------------------------------
if [ -z "$WRAP" ]; then
    echo old > "$C/o/model.txt"
    "$GDLOG" model --max-atoms 0 -o "$C/o/model.txt" "$C/join.kif" 2> "$C/err" & pid=$!
    sleep 0.5; kill -TERM $pid; wait $pid; s=$?
    [ "$(cat "$C/o/model.txt")" = old ] && only_files "model.txt "; expect "SIGTERM while evaluating" 143 $s $?
    python3 -c "
print('(<= (p ?x ?y) (n ?x) (n ?y))')
for i in range(3000): print('(n %d)' % i)" > "$C/deep.kif"  # 9 million atoms: output takes a while
    "$GDLOG" model -o "$C/o/model.txt" "$C/deep.kif" 2> "$C/err" & pid=$!
    for _ in $(seq 1000); do  # until the temporary output file has text
        [ -n "$(find "$C/o" -type f ! -name model.txt -size +0 2> /dev/null)" ] && break
        sleep 0.01
    done
    kill -INT $pid; wait $pid; s=$?
    [ "$(cat "$C/o/model.txt")" = old ] && only_files "model.txt "; expect "SIGINT while writing the output" 130 $s $?
    # reduce has the same signal handling as model (it had its own, without -o's cleanup)
    "$GDLOG" reduce --max-atoms 0 -o "$C/o/model.txt" "$C/join.kif" 2> "$C/err" & pid=$!
    sleep 0.5; kill -TERM $pid; wait $pid; s=$?
    [ "$(cat "$C/o/model.txt")" = old ] && only_files "model.txt " && echo "gdlog: interrupted" | cmp -s - "$C/err"
    expect "SIGTERM while reducing" 143 $s $?
fi
