#!/usr/bin/env bash
# Calls beyond INT_MAX bytes through the drop-in (beyond_int_max.c, np 2):
# forced through optcoll (OPTCOLL_<OP>=optcoll), the program must find every
# byte right, and rank 0's OPTCOLL_VERBOSE=1 summary must show that optcoll
# ran each call and nothing went to MPI. Needs about 9 GiB of available
# memory on the node; without it, exit code 77 (Skipped).
#   run_beyond_int_test.sh <mpiexec> <libdir with liboptcoll_pmpi.so> <program>
set -euo pipefail
mpiexec=$1 lib=$2/liboptcoll_pmpi.so prog=$3
need_kib=$((9 * 1024 * 1024))
avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
if [ -z "$avail" ] || [ "$avail" -lt "$need_kib" ]; then
  echo "SKIP: ${avail:-?} KiB available, the test needs $need_kib"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
env LD_PRELOAD="$lib" OPTCOLL_VERBOSE=1 OPTCOLL_ALLGATHER=optcoll OPTCOLL_GATHER=optcoll OPTCOLL_SCATTER=optcoll \
  OPTCOLL_ALLTOALLV=optcoll OPTCOLL_BCAST=optcoll OPTCOLL_ALLREDUCE=optcoll "$mpiexec" -n 2 "$prog" >"$work/out" 2>"$work/err" || status=$?
cat "$work/out"
[ "$status" = 0 ] || { echo "FAIL: exit code $status"; cat "$work/err"; exit 1; }
bad=0
for op in MPI_Allgatherv_c MPI_Igatherv_c MPI_Scatterv_init_c MPI_Alltoallv_c MPI_Bcast_c MPI_Bcast MPI_Allreduce_c; do
  grep -qx "ok $op" "$work/out" || { echo "FAIL $op: no result"; bad=$((bad + 1)); }
  entry=$(grep -o "$op optcoll=[0-9]* native=[0-9]* fallback=[0-9]*" "$work/err" || true)
  if [ "$entry" = "$op optcoll=1 native=0 fallback=0" ]; then
    echo "ok   $entry"
  else
    echo "FAIL $op: ${entry:-not in the summary} (optcoll must run it)"
    bad=$((bad + 1))
  fi
done
[ $bad = 0 ] && echo "optcoll ran every call beyond INT_MAX bytes" && exit 0
grep '^optcoll' "$work/err" || true
exit 1
