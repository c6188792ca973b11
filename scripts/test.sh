#!/usr/bin/env bash
# The whole test suite: formatting, build with warnings as errors, all CTest
# tests (the MPI tests under Open MPI, the default MPI), the installed
# package (scripts/test-install.sh: examples/consumer via find_package and
# pkg-config, the installed liboptcoll_pmpi.so), then the MPI tests again
# under MPICH (scripts/test-mpich.sh, build dir ./build-mpich), then the
# quick SimGrid/SMPI profile (scripts/test-smpi.sh, ./build-smpi), then the
# libFuzzer targets for FUZZ_SECONDS (default 10) each (scripts/fuzz.sh,
# ./build-fuzz), then ASan + UBSan (scripts/test-sanitizers.sh, ./build-asan,
# about 10 minutes from scratch on 2 cores; OPTCOLL_SANITIZERS=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
phase() { echo "test.sh: $1 done, $(($(date +%s) - start)) s since the start"; }
scripts/build.sh
scripts/format.sh --check
phase build
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
phase "ctest (Open MPI)"
scripts/test-install.sh
phase install
# Under MPICH the MPI tests run at np 1, 2 and the odd np (3, 5, 7, 9);
# np 4, 8 and 16 (half of the MPICH time on 2 cores) run under Open MPI only.
scripts/test-mpich.sh -E '\.np(4|6|8|16)$'
phase MPICH
scripts/test-smpi.sh
phase "SMPI (quick profile)"
FUZZ_SECONDS=${FUZZ_SECONDS:-10} scripts/fuzz.sh
phase fuzz
if [ "${OPTCOLL_SANITIZERS:-1}" = 1 ]; then scripts/test-sanitizers.sh; fi
phase sanitizers
