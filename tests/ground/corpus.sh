#!/bin/bash
# corpus.sh: grounds every game of the corpus and checks the ground game
# against the game with agree.py (random walks; legal, goal, terminal, next).
# usage: tests/ground/corpus.sh GDLOG [GAMES_DIR] [STEPS]
# Prints one line per game: agree, DIFFER, ground-failed (error or over the
# time limit), check-timeout (the walks took over 300 s), or skipped (gdlog
# model cannot run the game itself), then the counts.  Exit 1 when a game differs.
gdlog=$(realpath "${1:?usage: corpus.sh GDLOG [GAMES_DIR] [STEPS]}")
dir=${2:-$(dirname "$0")/../../../shared/games/kif}
steps=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
agree="$here/../cases/ground/agree.py"
n_agree=0 n_differ=0 n_failed=0 n_skipped=0
for game in "$dir"/*.kif; do
  name=$(basename "$game" .kif)
  if ! timeout 20 "$gdlog" model --init "$game" > /dev/null 2>&1; then
    echo "$name skipped"; n_skipped=$((n_skipped + 1)); continue
  fi
  if ! timeout 60 "$gdlog" ground "$game" > /dev/null 2>&1; then
    echo "$name ground-failed"; n_failed=$((n_failed + 1)); continue
  fi
  out=$(timeout 300 python3 "$agree" "$gdlog" "$game" --steps "$steps" --walks 1 2>&1)
  rc=$?
  if [ $rc = 0 ]; then
    echo "$name $out"; n_agree=$((n_agree + 1))
  elif [ $rc = 124 ]; then
    echo "$name check-timeout"; n_skipped=$((n_skipped + 1))
  else
    echo "$name DIFFER: $(echo "$out" | head -5)"; n_differ=$((n_differ + 1))
  fi
done
echo "agree $n_agree, differ $n_differ, ground failed $n_failed, skipped $n_skipped"
[ "$n_differ" = 0 ]
