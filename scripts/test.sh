#!/usr/bin/env bash
# The whole test suite: formatting, build with warnings as errors, all CTest tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scripts/format.sh --check
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
