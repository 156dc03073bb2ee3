#!/usr/bin/env bash
# gen_chain.sh N [DIR]: transitive closure over an N-node chain, for perf/bench.sh.
#
# Writes DIR/chainN.dl (gdlog infix, datalog/cli/README.md) and DIR/chainN.lp (ASP for
# gringo), DIR defaulting to the current directory; prints the two paths.
#   edge(1,2). edge(2,3). ... edge(N-1,N).
#   path(X,Y) :- edge(X,Y).
#   path(X,Z) :- path(X,Y) & edge(Y,Z).        (`,` in the .lp)
# The model has N-1 edge atoms and N(N-1)/2 path atoms (every i < j):
# N = 2000 gives 1,999 + 1,999,000 = 2,000,999 atoms.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 N [DIR]" >&2
    exit 2
fi
n=$1
zDir=${2:-.}
mkdir -p "$zDir"
awk -v n="$n" 'BEGIN { for (i = 1; i < n; i++) printf "edge(%d,%d).\n", i, i + 1 }' \
    > "$zDir/chain$n.edges.tmp"
{ cat "$zDir/chain$n.edges.tmp"
  echo 'path(X,Y) :- edge(X,Y).'
  echo 'path(X,Z) :- path(X,Y) & edge(Y,Z).'; } > "$zDir/chain$n.dl"
{ cat "$zDir/chain$n.edges.tmp"
  echo 'path(X,Y) :- edge(X,Y).'
  echo 'path(X,Z) :- path(X,Y), edge(Y,Z).'; } > "$zDir/chain$n.lp"
rm -f "$zDir/chain$n.edges.tmp"
echo "$zDir/chain$n.dl"
echo "$zDir/chain$n.lp"
