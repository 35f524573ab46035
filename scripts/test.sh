#!/usr/bin/env bash
# The whole test suite, twice: an ordinary optimised build, then a build
# under AddressSanitizer + UndefinedBehaviorSanitizer (halt on the first
# error). ctest runs the cmocka unit tests and the end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOREPLAN_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCOREPLAN_SANITIZE=ON -DCOREPLAN_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
COREPLAN_SKIP_LARGE=1 \
  ctest --test-dir build-asan --output-on-failure
