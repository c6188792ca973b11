#!/usr/bin/env bash
# The MPI tests under MPICH: configures ./build-mpich with MPICH's compiler
# wrappers and mpiexec, builds only what the MPI tests need, runs them.
# (scripts/test.sh runs everything else, and the MPI tests under Open MPI,
# the Debian default, in ./build.) Arguments go to ctest.
#   scripts/test-mpich.sh                 # every MPI test
#   scripts/test-mpich.sh -E '\.np(4|6|8|16)$'    # what CI runs (scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
source scripts/ccache.sh
cmake -S . -B build-mpich -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" -DOPTCOLL_WARNINGS_AS_ERRORS=ON \
  -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
  -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich)" >/dev/null
cmake --build build-mpich --parallel "$(nproc)" --target optcoll_mpi_all
ctest --test-dir build-mpich -L mpi --output-on-failure "$@"
