#!/usr/bin/env bash
# The drop-in under an unmodified mpi4py program (Debian's python3-mpi4py):
# mpi4py_collectives.py runs without liboptcoll_pmpi.so, then with it
# preloaded and every operation forced to optcoll; the results must be the
# same and the OPTCOLL_VERBOSE=1 summary must show optcoll running
# MPI_Bcast, MPI_Allreduce and MPI_Iallreduce. Exit 77 (CTest: skipped)
# without mpi4py, or when mpi4py is built against another MPI library than
# the drop-in.
#
#   run_mpi4py_test.sh <mpiexec> <np> <libdir with liboptcoll_pmpi.so>
set -euo pipefail
mpiexec=$1 np=$2 lib=$3/liboptcoll_pmpi.so
here=$(cd "$(dirname "$0")" && pwd)
python=${OPTCOLL_TEST_PYTHON:-/usr/bin/python3}
if ! "$python" -c 'import mpi4py, numpy' 2>/dev/null; then
  echo "SKIPPED: $python has no mpi4py and numpy (Debian: python3-mpi4py python3-numpy)"
  exit 77
fi
ext=$("$python" -c 'import mpi4py.MPI as m; print(m.__file__)')
theirs=$(ldd "$ext" | sed -n 's/.*\(libmpi[a-z]*\.so[.0-9]*\) =>.*/\1/p' | head -1)
ours=$(ldd "$lib" | sed -n 's/.*\(libmpi[a-z]*\.so[.0-9]*\) =>.*/\1/p' | head -1)
if [ -z "$theirs" ] || [ "$theirs" != "$ours" ]; then
  echo "SKIPPED: mpi4py uses ${theirs:-no libmpi}, the drop-in ${ours:-none}"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mpiexec" -n "$np" "$python" "$here/mpi4py_collectives.py" >"$work/base.out"
env LD_PRELOAD="$lib" OPTCOLL_VERBOSE=1 OPTCOLL_BCAST=optcoll OPTCOLL_ALLREDUCE=optcoll \
  "$mpiexec" -n "$np" "$python" "$here/mpi4py_collectives.py" >"$work/pre.out" 2>"$work/pre.err"
cat "$work/base.out"
grep '^optcoll: rank 0' "$work/pre.err" || true
failures=0
if ! diff -u "$work/base.out" "$work/pre.out"; then
  echo "FAIL: results differ with the drop-in"
  failures=$((failures + 1))
fi
if [ "$np" -gt 1 ]; then
  for op in MPI_Bcast MPI_Allreduce MPI_Iallreduce; do
    n=$(sed -n "s/^optcoll: rank 0 calls:.*$op [^;]*\boptcoll=\([0-9]*\).*/\1/p" "$work/pre.err")
    if [ -z "$n" ] || [ "$n" = 0 ]; then
      echo "FAIL: the summary does not show optcoll running $op (optcoll=${n:-missing})"
      failures=$((failures + 1))
    else
      echo "ok   $op: optcoll=$n"
    fi
  done
fi
[ "$failures" = 0 ] && echo "mpi4py: same results, optcoll ran" && exit 0
exit 1
