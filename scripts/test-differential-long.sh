#!/usr/bin/env bash
# The differential driver's long profile: CALLS calls (default 700) at every
# np in 2..16 under Open MPI (./build) and MPICH (./build-mpich): 10500 calls
# per MPI, larger counts than the CTest profile (up to 2^18 elements), real
# values in about half the floating-point calls (tests/mpi/differential/differential.cpp).
# Prints one result line per run (and any mismatch, error or hang with the
# command that repeats it) and a summary for bench/results/
# (docs/benchmarks/reliability.md); exits 1 on any failure. Takes about an
# hour on a 2-core machine; run it in the background with nice. A range of np (NPS="2 3 4") runs it in pieces.
#   scripts/test-differential-long.sh [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:-$(date +%Y%m%d)}
calls=${CALLS:-700}
nps=${NPS:-$(seq 2 16)}
mpis=${MPIS:-openmpi mpich}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  OMPI_MCA_btl_vader_single_copy_mechanism=none
total=0
bad=0
start=$(date +%s)
for mpi in $mpis; do
  if [ "$mpi" = openmpi ]; then run=(mpiexec); dir=build; else run=(mpiexec.mpich); dir=build-mpich; fi
  cmake --build "$dir" --target optcoll_mpi_differential >/dev/null
  for np in $nps; do
    out=$("${run[@]}" -n "$np" "$dir"/tests/mpi/optcoll_mpi_differential --seed $((seed + np)) --calls "$calls" \
      --max-count 262147 --call-timeout 600 2>&1 || true)
    echo "$out" | grep -E "^differential: (seed=.*mismatches|FAILED|MISMATCH|ERROR|HANG)" | sed "s/^/$mpi: /" || true
    total=$((total + calls))
    echo "$out" | grep -q "mismatches=0 errors=0" || { bad=$((bad + 1)); echo "$mpi: np $np FAILED"; }
  done
done
echo "differential long profile: seed $seed, $total calls, np $(echo $nps | tr '\n' ' ')($mpis), $bad failed runs," \
  "$(($(date +%s) - start)) s"
[ $bad -eq 0 ]
