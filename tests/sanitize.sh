#!/usr/bin/env bash
# sanitize.sh [BUILD_DIR [CTEST_ARGS...]]: builds gdlog with AddressSanitizer
# (leak checking on) and UndefinedBehaviorSanitizer into BUILD_DIR (default
# build-sanitize) and runs the test suite there (default: ctest -LE slow).
# Any sanitizer report fails the run: errors abort, nothing is recovered.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-sanitize}
shift || true
[ "$#" -gt 0 ] || set -- -LE slow
cmake -S . -B "$dir" -DGDLOG_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd "$dir" && ctest --output-on-failure -j"$(nproc)" "$@"
