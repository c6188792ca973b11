#!/usr/bin/env bash
# The differential driver's long profile: CALLS calls (default 700) at every
# np in 2..16 under Open MPI (./build) and MPICH (./build-mpich): 10500 calls
# per MPI, larger counts than the CTest profile (up to 2^18 elements).
# Prints one result line per run and a summary for bench/results/ (docs/benchmarks/reliability.md); exits 1 on
# any mismatch or error. Takes about an hour on a 2-core machine.
#   scripts/test-differential-long.sh [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:-$(date +%Y%m%d)}
calls=${CALLS:-700}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  OMPI_MCA_btl_vader_single_copy_mechanism=none
cmake --build build --target optcoll_mpi_differential >/dev/null
cmake --build build-mpich --target optcoll_mpi_differential >/dev/null
total=0
bad=0
start=$(date +%s)
for mpi in openmpi mpich; do
  if [ $mpi = openmpi ]; then run=(mpiexec); dir=build; else run=(mpiexec.mpich); dir=build-mpich; fi
  for np in $(seq 2 16); do
    line=$("${run[@]}" -n "$np" "$dir"/tests/mpi/optcoll_mpi_differential --seed $((seed + np)) --calls "$calls" \
      --max-count 262147 2>&1 | grep -E "^differential: (seed|FAILED|MISMATCH|ERROR)" || true)
    echo "$mpi: $line"
    total=$((total + calls))
    echo "$line" | grep -q "mismatches=0 errors=0" || bad=$((bad + 1))
  done
done
echo "differential long profile: seed $seed, $total calls, np 2-16, Open MPI and MPICH, $bad failed runs," \
  "$(( $(date +%s) - start )) s"
[ $bad -eq 0 ]
