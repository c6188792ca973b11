#!/usr/bin/env bash
# The drop-in stress test (stress_collectives.c) under mpiexec, every
# intercepted collective forced through optcoll (OPTCOLL_<OP>=optcoll in the
# environment CTest sets): the program must pass its own checks, and rank 0's
# OPTCOLL_VERBOSE=1 summary must show that optcoll ran every operation of
# the table (optcoll=N with N > 0) and that nothing fell back to PMPI_*.
# OPTCOLL_TEST_OPS replaces the table (names without MPI_, e.g. "Ibcast
# Bcast_init") for other self-checking programs (freed_handles.c).
#   run_stress_test.sh <mpiexec> <np> <program> [its arguments]
set -euo pipefail
mpiexec=$1 np=$2 prog=$3
shift 3
err=$(mktemp)
trap 'rm -f "$err"' EXIT
status=0
OPTCOLL_VERBOSE=1 "$mpiexec" -n "$np" "$prog" "$@" 2>"$err" || status=$?
cat "$err" >&2
[ "$status" = 77 ] && exit 77  # the program says it cannot run here (SKIPPED)
[ "$status" = 0 ] || { echo "FAIL: exit code $status"; exit 1; }
summary=$(grep '^optcoll: rank 0 calls:' "$err" || true)
[ -n "$summary" ] || { echo "FAIL: no OPTCOLL_VERBOSE summary"; exit 1; }
default_ops="Bcast Reduce Allgather Allgatherv Reduce_scatter_block Reduce_scatter Allreduce Gather Gatherv Scatter
  Scatterv Alltoall Alltoallv Scan Exscan"
read -r -a ops <<<"$(echo ${OPTCOLL_TEST_OPS:-$default_ops})"
bad=0
for op in "${ops[@]}"; do
  entry=$(echo "$summary" | grep -o "MPI_$op optcoll=[0-9]* native=[0-9]* fallback=[0-9]*" || true)
  o=$(echo "$entry" | sed -n 's/.*optcoll=\([0-9]*\).*/\1/p')
  f=$(echo "$entry" | sed -n 's/.*fallback=\([0-9]*\).*/\1/p')
  if [ -z "$o" ] || [ "$o" = 0 ] || [ "$f" != 0 ]; then
    echo "FAIL MPI_$op: ${entry:-not in the summary} (optcoll must run it, nothing may fall back)"
    bad=$((bad + 1))
  else
    echo "ok   $entry"
  fi
done
[ $bad = 0 ] && echo "$(basename "$prog"): optcoll ran every operation" && exit 0
exit 1
