#!/bin/sh
# coverage.sh: line coverage of a harness's corpus over the files it
# targets.  BUILD is a tree configured with clang and
#   -DCMAKE_C_FLAGS="-fprofile-instr-generate -fcoverage-mapping -DNDEBUG"
#   -DCMAKE_EXE_LINKER_FLAGS=-fprofile-instr-generate
# (NDEBUG as in the fuzzers' RelWithDebInfo build); its replay_HARNESS runs
# every input of the DIRs, then llvm-cov reports the files of the harness:
#   tests/fuzz/coverage.sh BUILD HARNESS DIR...
set -eu
build=$1 h=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
case $h in
  ground)  files="datalog/write/ground_write.c datalog/machine/pipeline.c datalog/gdl/reduce.c datalog/gdl/domains.c $(cd "$src" && ls datalog/ground/*.c)" ;;
  machine) files="$(cd "$src" && ls datalog/machine/*.c datalog/circuit/*.c datalog/compile/*.c datalog/wide/*.c)" ;;
  serve)   files="datalog/serve/serve.c datalog/machine/machine.c datalog/machine/machine_text.c" ;;
  step)    files="datalog/machine/machine_text.c datalog/machine/machine.c" ;;
  api)     files="datalog/api.c datalog/machine/machine.c datalog/machine/machine_text.c" ;;
  *) echo "coverage.sh: unknown harness $h" >&2; exit 2 ;;
esac
prof=$(mktemp -d)
LLVM_PROFILE_FILE="$prof/%p.profraw" "$build/tests/fuzz/replay_$h" "$@" >/dev/null 2>&1 || true
llvm-profdata merge -sparse "$prof"/*.profraw -o "$prof/all.profdata"
paths=""
for f in $files; do paths="$paths $src/$f"; done
llvm-cov report "$build/tests/fuzz/replay_$h" -instr-profile="$prof/all.profdata" $paths
rm -rf "$prof"
