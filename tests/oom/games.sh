#!/usr/bin/env bash
# games.sh BUILD_DIR GAMES_DIR: fault injection (oom_api, once and for good;
# oom_cli's command line) over a few small games of the corpus with
# different shapes: buttons (one player), 3pttc (three players),
# connectFour (gravity, lines), breakthroughSmall (captures).  Exit 77
# (skip) when the corpus is not there.
set -u -o pipefail
if [ "$#" -ne 2 ]; then echo "usage: $0 BUILD_DIR GAMES_DIR" >&2; exit 2; fi
BUILD=$1 DIR=$2
[ -d "$DIR/kif" ] || { echo "skip: no corpus at $DIR (the ../shared beside the clone)"; exit 77; }
GAMES=("$DIR/kif/buttons.kif" "$DIR/kif/3pttc.kif" "$DIR/kif/connectFour.kif" "$DIR/kif/breakthroughSmall.kif")
rc=0
"$BUILD/tests/oom/oom_api" "${GAMES[@]}" || rc=1
"$BUILD/tests/oom/oom_api" --every-after "${GAMES[@]}" || rc=1
for g in "${GAMES[@]:0:2}"; do
    bash "$(dirname "$0")/cli.sh" "$BUILD/tests/oom/gdlog_oom" "$g" || rc=1
done
exit $rc
