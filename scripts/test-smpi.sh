#!/usr/bin/env bash
# The SMPI tests: builds ./build-smpi (scripts/build-smpi.sh) and runs its
# CTest entries (cmake/smpi.cmake): the quick profile, p = 64 and 100, every
# operation, optcoll's results checked against SMPI's (under 5 minutes on 2
# cores), the check's self-test and the multi-core-node smoke (crossbar-8x8,
# scripts/bench-smpi-nodes.sh --smoke, seconds). The full sweeps are
# scripts/bench-smpi.sh and scripts/bench-smpi-nodes.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-smpi.sh
ctest --test-dir build-smpi --output-on-failure
