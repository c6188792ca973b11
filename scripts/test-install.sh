#!/usr/bin/env bash
# The installed package: `cmake --install build` into build/install-test,
# then examples/consumer built against it once with find_package and once
# with pkg-config, both run under mpiexec; and the installed
# liboptcoll_pmpi.so preloaded into an unmodified MPI program.
# (Run by scripts/test.sh after the build; needs ./build built.)
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
prefix=$PWD/build/install-test
out=$PWD/build/consumer
rm -rf "$prefix" "$out"
cmake --install build --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'liboptcoll_pmpi.so' | head -1)")

echo "== find_package(optcoll)"
cmake -S examples/consumer -B "$out/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$out/cmake" >/dev/null
mpiexec -n 4 "$out/cmake/consumer"

echo "== pkg-config optcoll-mpi"
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs optcoll-mpi)
mpicxx -std=c++20 -O2 examples/consumer/main.cpp $flags -Wl,-rpath,"$libdir" -o "$out/consumer-pc"
mpiexec -n 3 "$out/consumer-pc"

echo "== LD_PRELOAD=<prefix>/liboptcoll_pmpi.so"
mpiexec -n 3 build/optcoll_pmpi_plain >"$out/plain-native.txt"
LD_PRELOAD="$libdir/liboptcoll_pmpi.so" OPTCOLL_VERBOSE=1 OPTCOLL_BCAST=optcoll OPTCOLL_REDUCE=optcoll \
  mpiexec -n 3 build/optcoll_pmpi_plain >"$out/plain-optcoll.txt" 2>"$out/plain-optcoll.err"
cmp "$out/plain-native.txt" "$out/plain-optcoll.txt"
grep -E '^optcoll: rank 0 calls: MPI_Bcast optcoll=[1-9]' "$out/plain-optcoll.err"
echo "installed package ok"
