#!/usr/bin/env bash
# check.sh: the whole test suite: ctest on the release build (all but the
# labels `slow` and `valgrind`, which are run by hand: `ctest -L slow`), then
# the suite under AddressSanitizer + UndefinedBehaviorSanitizer when
# tests/sanitize.sh exists.  Run tests/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
(cd build && ctest --output-on-failure -j"$(nproc)" -LE 'slow|valgrind')
if [ -f tests/sanitize.sh ]; then
  bash tests/sanitize.sh
fi
