#!/bin/bash
# run.sh GDLOG KIFDIR small|big: agree.py (the circuit against gdlog model)
# on a few games (small: a playout each; big: more games and playouts);
# qyshinsu and crossers3 read legal in next and terminal.  The small set
# runs with the circuit's lazy gates too (--circuit lazy; the default,
# auto, keeps these games eager).
# Exit 77 (skip) without the corpus.
gdlog=$1 kif=$2 size=$3
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$kif" ] || { echo "skip: no game corpus at $kif"; exit 77; }
if [ "$size" = big ]; then
  games="ticTacToe connectFour breakthrough atariGoVariant_7x7 cubicup_3player Hanoi_benderng biddingTicTacToe
         checkersSmall hex othello-comp2007 speedChess crossers3"
  n=5
else
  games="ticTacToe connectFour breakthroughSmall cubicup_3player qyshinsu"
  n=1
fi
status=0
modes=auto
[ "$size" = small ] && modes="auto lazy"
for mode in $modes; do
  for g in $games; do
    python3 "$here/agree.py" "$gdlog" "$kif/$g.kif" --playouts $n --seed 3 --max-depth 60 --circuit $mode || status=1
  done
done
exit $status
