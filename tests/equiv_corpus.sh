#!/usr/bin/env bash
# equiv_corpus.sh [--ground] GDLOG GAME_DIR: runs `gdlog equiv` on every
# game GAME_DIR/*.kif, against itself (default: shows that the state machine
# of datalog/machine/sm.h plays the corpus) or, with --ground, against its
# grounding by `gdlog ground`.  Each game gets a budget of
# EQUIV_BUDGET seconds (default 60) for equiv and as much for grounding;
# EQUIV_PLAYOUTS playouts (default 2), seed EQUIV_SEED (default 1).
# GDLOG_GROUND names another binary to ground with (default GDLOG), and
# EQUIV_GROUND_ARGS more options for it (e.g. "--for-players --max-growth 1":
# the game written for players, its rules as written where they can be).  With
# --ground, a GDLOG without the ground command skips (77).  EQUIV_BACKEND
# is equiv's --backend for the second program (default auto: the circuit for
# a ground game, else the rules; all: GAME's rules, and the ground game's
# rules and circuit).  EQUIV_GAMES, when set, lists the games to run (names
# without .kif); else every game of GAME_DIR.  EQUIV_STRICT=1 makes every
# game that is not ok (over budget, an error) fail the run too.  EQUIV_CIRCUIT
# is equiv's --circuit (auto, eager or lazy; default auto).  EQUIV_GOAL_DEFAULT,
# when set, is equiv's --goal-default (a terminal state without a goal value
# for a role, on both sides alike, is then not an error: chess.kif).
#
# One line per game:
#   ok      NAME  the summary of equiv
#   budget  NAME  equiv (or grounding) did not finish within the budget
#   error   NAME  the game breaks the state machine's contract, or a limit or
#                 an invalid game: the first error
#   DIFFER  NAME  the two programs differ (against itself: a bug of gdlog)
#   CRASH   NAME  gdlog ended by a signal or with an unexpected status
# then the counts.  Exits 1 when a game DIFFERs or CRASHes, 0 otherwise
# (77, skipped, when GAME_DIR does not exist).
set -u
ground=0
if [ "${1:-}" = "--ground" ]; then ground=1; shift; fi
if [ $# -ne 2 ]; then
  echo "usage: $0 [--ground] GDLOG GAME_DIR" >&2
  exit 2
fi
gdlog=$1
dir=$2
budget=${EQUIV_BUDGET:-60}
playouts=${EQUIV_PLAYOUTS:-2}
seed=${EQUIV_SEED:-1}
backend=${EQUIV_BACKEND:-auto}
circuit=${EQUIV_CIRCUIT:-auto}
if [ ! -d "$dir" ]; then
  echo "skip: no game directory $dir"
  exit 77
fi
ground_bin=${GDLOG_GROUND:-$gdlog}
if [ $ground = 1 ] && ! "$ground_bin" ground --help 2>/dev/null | grep -q "gdlog ground"; then
  echo "skip: $ground_bin has no ground command"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A count=([ok]=0 [budget]=0 [error]=0 [DIFFER]=0 [CRASH]=0)
report() {  # KIND NAME TEXT
  count[$1]=$((count[$1] + 1))
  printf '%-7s %-32s %s\n' "$1" "$2" "$3"
}

games=()
if [ -n "${EQUIV_GAMES:-}" ]; then
  for name in $EQUIV_GAMES; do games+=("$dir/$name.kif"); done
else
  games=("$dir"/*.kif)
fi

for game in "${games[@]}"; do
  name=$(basename "$game" .kif)
  if [ ! -f "$game" ]; then report error "$name" "no such game: $game"; continue; fi
  other=$game
  if [ $ground = 1 ]; then
    other=$tmp/$name.ground.kif
    # shellcheck disable=SC2086  # EQUIV_GROUND_ARGS is a list of options
    timeout -k 10 "$budget" "$ground_bin" ground ${EQUIV_GROUND_ARGS:-} "$game" -o "$other" >/dev/null 2>"$tmp/err"
    rc=$?
    # 137: timeout had to kill it, 10 s after the budget
    if [ $rc = 124 ] || [ $rc = 137 ]; then report budget "$name" "grounding took more than $budget s"; continue; fi
    if [ $rc = 1 ]; then report error "$name" "ground: $(grep -m1 'error' "$tmp/err")"; continue; fi
    if [ $rc != 0 ]; then report CRASH "$name" "ground exited with $rc"; continue; fi
  fi
  timeout -k 10 "$budget" "$gdlog" equiv "$game" "$other" --playouts "$playouts" --seed "$seed" --backend "$backend" --circuit "$circuit" \
    ${EQUIV_GOAL_DEFAULT:+--goal-default "$EQUIV_GOAL_DEFAULT"} >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc = 0 ]; then
    report ok "$name" "$(sed 's/^equiv: [^:]*: //' "$tmp/out")"
  elif [ $rc = 124 ] || [ $rc = 137 ]; then
    report budget "$name" "more than $budget s ($playouts playouts)"
  elif [ $rc = 1 ] && grep -q '^gdlog equiv: .* differs in playout\|^gdlog equiv: the roles differ' "$tmp/out"; then
    report DIFFER "$name" "$(head -1 "$tmp/out")"
  elif [ $rc = 1 ]; then
    report error "$name" "$(grep -m1 'error' "$tmp/err" | sed 's|^[^ ]*/||')"
  else
    report CRASH "$name" "exit status $rc: $(head -1 "$tmp/err")"
  fi
done
echo "games: ${count[ok]} ok, ${count[budget]} over budget, ${count[error]} errors, ${count[DIFFER]} differ, ${count[CRASH]} crash"
[ "${count[DIFFER]}" = 0 ] && [ "${count[CRASH]}" = 0 ] || exit 1
if [ "${EQUIV_STRICT:-0}" = 1 ] && [ $((count[budget] + count[error])) != 0 ]; then exit 1; fi
exit 0
