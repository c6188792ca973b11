#!/usr/bin/env bash
# ThreadSanitizer (clang 14): builds the MPI layer and the MPI_THREAD_MULTIPLE
# test (tests/mpi/requests/mpi_threads_test.cpp: every collective from 4 threads per
# rank on distinct communicators, communicators created and freed meanwhile)
# into ./build-tsan and runs it under Open MPI at 2 and 3 ranks. Every report
# is fatal. MPI's own libraries are not instrumented: their internal
# synchronisation is invisible to TSan, so reports with a frame in them are
# suppressed (scripts/sanitizers/tsan.supp); optcoll's code never is. Run by
# scripts/test-sanitizers.sh.
#   scripts/test-tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
start=$(date +%s)
source scripts/ccache.sh
flags="-fsanitize=thread -fno-omit-frame-pointer"
# Warnings are gcc's business (the main build); clang's differ.
CC=clang-14 CXX=clang++-14 cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DOPTCOLL_BUILD_BENCH=OFF -DOPTCOLL_WARNINGS_AS_ERRORS=OFF -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
cmake --build build-tsan --parallel "$(nproc)" --target optcoll_mpi_threads_test
built=$(date +%s)
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:suppressions=$PWD/scripts/sanitizers/tsan.supp"
# Open MPI's components stay loaded, so that their frames keep their names.
export OMPI_MCA_mca_base_component_disable_dlclose=1
ctest --test-dir build-tsan --output-on-failure -R '^mpi_threads\.np(2|3)$'
echo "tsan: clean; build $((built - start)) s, tests $(($(date +%s) - built)) s"
