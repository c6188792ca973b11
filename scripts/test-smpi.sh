#!/usr/bin/env bash
# The SMPI tests: builds ./build-smpi (scripts/build-smpi.sh) and runs its
# CTest entries (cmake/smpi.cmake): the quick profile, p = 64 and 100, every
# operation, optcoll's results checked against SMPI's (under 5 minutes on 2
# cores), and the check's self-test. The full sweep is scripts/bench-smpi.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-smpi.sh
ctest --test-dir build-smpi --output-on-failure
