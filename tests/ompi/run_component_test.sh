#!/usr/bin/env bash
# A test of mca_coll_optcoll.so (src/ompi/): runs an unmodified MPI program
# (any language) without the component, then with it (Open MPI finds it on
# OMPI_MCA_mca_base_component_path) under two policies:
#   forced: every OPTCOLL_<OP>=optcoll (environment): same output, and at
#     np > 1 rank 0's OPTCOLL_VERBOSE=1 summary shows optcoll running each
#     operation: at least the program's own count of moving calls ("calls <op>
#     moving=N ..." lines; Open MPI runs the local part of an intercommunicator
#     collective through the component too), or for each name in OPTCOLL_TEST_OPS
#     (without MPI_) at least one call; nothing falls back except the
#     program's unsupported calls;
#   native: every coll_optcoll_<op>=native (MCA parameters): same output,
#     and optcoll runs nothing.
# (Single-process communicators are left to Open MPI: no summary at np 1.)
# Exit 77 (CTest: skipped) for a Python program without mpi4py and numpy.
#
#   run_component_test.sh <mpiexec> <np> <component path> <program> [arguments]
set -euo pipefail
mpiexec=$1 np=$2 path=$3
shift 3
case $(basename "$1") in
  python3*)
    if ! "$1" -c 'import mpi4py, numpy' 2>/dev/null; then
      echo "SKIPPED: $1 has no mpi4py and numpy (Debian: python3-mpi4py python3-numpy)"
      exit 77
    fi
    ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

env -u OMPI_MCA_mca_base_component_path "$mpiexec" -n "$np" "$@" >"$work/base.out"
forced=()
native=()
for op in BCAST REDUCE ALLGATHER REDUCE_SCATTER ALLREDUCE GATHER SCATTER ALLTOALL ALLTOALLV SCAN EXSCAN; do
  forced+=("OPTCOLL_$op=optcoll")
  native+=("OMPI_MCA_coll_optcoll_${op,,}=native")
done
env OMPI_MCA_mca_base_component_path="$path" OPTCOLL_VERBOSE=1 "${forced[@]}" \
  "$mpiexec" -n "$np" "$@" >"$work/forced.out" 2>"$work/forced.err" || fail "forced: exit code"
env OMPI_MCA_mca_base_component_path="$path" OPTCOLL_VERBOSE=1 "${native[@]}" \
  "$mpiexec" -n "$np" "$@" >"$work/native.out" 2>"$work/native.err" || fail "native: exit code"
for run in forced native; do
  diff -u "$work/base.out" "$work/$run.out" || fail "$run: results differ from the run without the component"
done
summary=$(grep '^optcoll: rank 0 calls:' "$work/forced.err" || true)
echo "${summary:-(no summary)}"
count() {  # count <run> <op> <path>
  sed -n "s/^optcoll: rank 0 calls:.*MPI_$2 [^;]*\b$3=\([0-9]*\).*/\1/p" "$work/$1.err"
}
if [ "$np" -gt 1 ]; then
  [ -n "$summary" ] || fail "forced: no OPTCOLL_VERBOSE summary"
  if [ -n "${OPTCOLL_TEST_OPS:-}" ]; then
    for op in $OPTCOLL_TEST_OPS; do
      o=$(count forced "$op" optcoll) f=$(count forced "$op" fallback)
      if [ -z "$o" ] || [ "$o" = 0 ] || [ "$f" != 0 ]; then fail "MPI_$op: optcoll=${o:-missing} fallback=${f:-missing}"; fi
    done
  else
    while read -r op moving unsupported; do
      o=$(count forced "$op" optcoll) f=$(count forced "$op" fallback)
      [ -n "$o" ] && [ "$o" -ge "$moving" ] && [ "$f" = "$unsupported" ] ||
        fail "MPI_$op: optcoll=${o:-missing} fallback=${f:-missing}, the program made $moving moving calls ($unsupported unsupported)"
    done < <(sed -n 's/^calls MPI_\([A-Za-z_]*\) moving=\([0-9]*\).*/\1 \2/p' "$work/base.out" | while read -r op m; do
      u=$(sed -n "s/^calls MPI_$op .*\bunsupported=\([0-9]*\).*/\1/p" "$work/base.out")
      echo "$op $m ${u:-0}"
    done)
  fi
  if grep -q '^optcoll: rank 0 calls:.*optcoll=[1-9]' "$work/native.err"; then fail "native: optcoll ran calls"; fi
fi
[ "$failures" = 0 ] && echo "$(basename "$1"): same results with the component, optcoll ran" && exit 0
exit 1
