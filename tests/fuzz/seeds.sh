#!/bin/sh
# seeds.sh: builds the seed corpus of a game harness from the real games of
# ../shared/games/kif (outside the source tree), into OUT (made if needed):
#   tests/fuzz/seeds.sh HARNESS OUT [GAMES_DIR] [MAX_BYTES]
# For ground, machine (and pipeline), every game whose text, comments
# stripped and blanks squeezed, fits in MAX_BYTES (default 8192) becomes a
# seed; these are not committed, they are rebuilt.  For serve, step and
# api, whose inputs are requests, states and calls on embedded games, the
# small hand-written seeds of seeds/HARNESS and the regressions.
set -eu
h=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
games=${3:-$here/../../../shared/games/kif}
max=${4:-8192}
mkdir -p "$out"

# The game of file $1, comments stripped and blanks squeezed, on stdout.
squeeze() { sed 's/;.*//' "$1" | tr -s ' \t\r\n' ' '; }

case $h in
  ground|machine|pipeline)
    for f in "$games"/*.kif; do
      n=$(basename "$f" .kif)
      squeeze "$f" > "$out/$n.kif"
      [ "$(wc -c < "$out/$n.kif")" -le "$max" ] || rm -f "$out/$n.kif"
    done ;;
  serve|step|api)
    # Their inputs are requests, states and moves, not games: the
    # hand-written seeds of seeds/<harness>/ and the regressions.
    cp "$here/regressions/$h"/* "$out"/ 2>/dev/null || true
    [ -d "$here/seeds/$h" ] && cp "$here/seeds/$h"/* "$out"/ ;;
  *) echo "seeds.sh: unknown harness $h" >&2; exit 2 ;;
esac
echo "$(ls "$out" | wc -l) seeds in $out"
