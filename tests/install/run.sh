#!/usr/bin/env bash
# run.sh BUILD_DIR SOURCE_DIR [CFLAGS...]: installs the build into a
# temporary prefix, builds tests/install/random_player.c against it through
# pkg-config, static and shared, and runs both on tic-tac-toe: each must
# print its playouts and the goals of both roles, which sum to 100.
set -euo pipefail
build=$1 src=$2
shift 2
extra=("$@")   # e.g. -fsanitize=address,undefined when the build has them
command -v pkg-config >/dev/null || { echo "skip: pkg-config not installed (tests/setup.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
pc=$(dirname "$(find "$tmp/prefix" -name gdlog.pc)")
export PKG_CONFIG_PATH=$pc
for f in include/gdlog.h; do [ -f "$tmp/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }; done
[ -x "$tmp/prefix/bin/gdlog" ] || { echo "FAIL: bin/gdlog not installed"; exit 1; }
libdir=$(pkg-config --variable=libdir gdlog)
[ -f "$libdir/libgdlog.a" ] && [ -e "$libdir/libgdlog.so" ] || { echo "FAIL: libgdlog.a or libgdlog.so missing in $libdir"; exit 1; }
# no Judy type leaks: the public header compiles without Judy.h on the path
cc=${CC:-cc}
# shared: pkg-config's flags and the run-time path of the library, as
# datalog/API.md gives the recipe (the player runs without LD_LIBRARY_PATH)
$cc -std=c11 -Wall -Wextra -Werror "${extra[@]}" -o "$tmp/player_shared" "$src/tests/install/random_player.c" \
  $(pkg-config --cflags --libs gdlog) -Wl,-rpath,"$(pkg-config --variable=libdir gdlog)"
# static: the archive, and the private dependencies of --static
$cc -std=c11 -Wall -Wextra -Werror "${extra[@]}" -o "$tmp/player_static" "$src/tests/install/random_player.c" \
  $(pkg-config --cflags gdlog) "$libdir/libgdlog.a" $(pkg-config --static --libs-only-l gdlog | sed 's/-lgdlog//')
# (ldd's output in a variable: grep -q in a pipe could SIGPIPE ldd under pipefail)
deps=$(ldd "$tmp/player_static")
if grep -q libgdlog <<<"$deps"; then echo "FAIL: player_static links libgdlog.so"; exit 1; fi
deps=$(ldd "$tmp/player_shared")
grep -q "$libdir/libgdlog.so" <<<"$deps" || { echo "FAIL: player_shared does not link $libdir/libgdlog.so"; exit 1; }
status=0
for kind in shared static; do
  out=$("$tmp/player_$kind" "$src/tests/games/ticTacToe.kif" 3 7)
  echo "--- $kind"
  echo "$out"
  n=$(grep -c '^  [0-9]* joint moves; goals xplayer=[0-9]* oplayer=[0-9]*$' <<<"$out" || true)
  bad=$(grep '^  .*goals' <<<"$out" | sed 's/.*xplayer=\([0-9]*\) oplayer=\([0-9]*\)/\1 \2/' | awk '$1 + $2 != 100' | wc -l)
  if [ "$n" != 3 ] || [ "$bad" != 0 ]; then echo "FAIL: $kind player: expected 3 playouts with goals summing to 100"; status=1; fi
  means=$(grep '^mean of 1000 playouts: xplayer=' <<<"$out" | sed 's/.*xplayer=\([0-9.]*\) oplayer=\([0-9.]*\)/\1 \2/')
  if ! awk '{ exit !($1 > 55 && $1 < 75 && $1 + $2 > 99.99 && $1 + $2 < 100.01) }' <<<"${means:-x}"; then
    echo "FAIL: $kind player: gdlog_playouts gave '$means'"; status=1
  fi
done
[ "$status" = 0 ] && echo "install_example: ok"
exit $status
