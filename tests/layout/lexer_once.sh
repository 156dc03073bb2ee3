#!/usr/bin/env bash
# lexer_once.sh SOURCE_DIR: the build runs re2c on lexer/gdl.re once, even
# under make -j.  Every library that compiles the generated lexer carries
# CMake's rule that makes it; if two of them may build at the same time,
# make runs re2c twice at once into the same file, a race that can leave a
# torn lexer.  So one target (gdlog_lexer) makes the lexer, and every other
# target with the rule must wait for it: by its turn the lexer is up to
# date and its copy of the rule does nothing.  Configures SOURCE_DIR into a
# temporary directory with Unix Makefiles and checks exactly that.  Exit 0
# when it holds, 1 otherwise, 77 (skip) when cmake or make is missing.
set -u -o pipefail
if [ "$#" -ne 1 ]; then echo "usage: $0 SOURCE_DIR" >&2; exit 2; fi
command -v cmake > /dev/null && command -v make > /dev/null || { echo "skip: cmake or make is missing"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
if ! cmake -S "$1" -B "$W/b" -G "Unix Makefiles" > "$W/log" 2>&1; then
    cat "$W/log"; echo "FAIL: cmake could not configure $1"; exit 1
fi
mapfile -t targets < <(grep -l '^	.*re2c .*gdl\.re' "$W"/b/CMakeFiles/*.dir/build.make |
                       sed 's|.*/CMakeFiles/||; s|\.dir/build\.make||')
pass=0 fail=0
if [ ! -f "$W/b/CMakeFiles/gdlog_lexer.dir/build.make" ]; then
    echo "FAIL: no target gdlog_lexer makes the lexer"; fail=$((fail + 1))
fi
for t in "${targets[@]}"; do
    [ "$t" = gdlog_lexer ] && continue
    if grep -q "^CMakeFiles/$t.dir/all: CMakeFiles/gdlog_lexer.dir/all" "$W/b/CMakeFiles/Makefile2"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $t runs re2c and does not wait for gdlog_lexer (add_dependencies($t gdlog_lexer))"
        fail=$((fail + 1))
    fi
done
echo "targets with the re2c rule: ${targets[*]:-none}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
