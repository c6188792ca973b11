#!/usr/bin/env bash
# Builds liboptcoll, liboptcoll_mpi and the SMPI benchmark
# (build-smpi/bench/smpi/collectives) with SimGrid's smpicc/smpicxx into
# ./build-smpi (Release, warnings as errors). Run it under smpirun; see
# scripts/bench-smpi.sh and docs/smpi.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# smpicxx adds -std=gnu++11 ahead of CMake's -std=c++20 (the later one wins).
# -fno-gnu-unique: smpirun loads the program once per simulated rank, and
# GCC's "unique" symbols (inline variables, statics of inline functions)
# would be one object for all those copies, shared by every rank.
cmake -S . -B build-smpi -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPTCOLL_WARNINGS_AS_ERRORS=ON \
  -DCMAKE_CXX_FLAGS=-fno-gnu-unique \
  -DCMAKE_C_COMPILER=smpicc -DCMAKE_CXX_COMPILER=smpicxx -DMPI_C_COMPILER=smpicc -DMPI_CXX_COMPILER=smpicxx \
  -DOPTCOLL_SMPI=ON -DOPTCOLL_BUILD_TESTS=OFF -DOPTCOLL_BUILD_BENCH=OFF >/dev/null
cmake --build build-smpi --parallel "${OPTCOLL_JOBS:-$(nproc)}" --target smpi_collectives
