#!/usr/bin/env bash
# Instructions per 8 B Bcast and Allreduce call (callgrind): native
# blocking, native persistent (start + wait), optcoll blocking, optcoll
# persistent (start + wait), at every rank; build/mpi_requests --count-calls
# runs K calls of each in a function of its own, and callgrind's inclusive
# cost of that function / K is the count. Writes CSV with the machine's
# metadata (bench/results/ format).
#
#   scripts/callgrind-requests.sh [--np N] [--calls K] [--out FILE] [--build DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
np=2 calls=2000 out="" build=build
while [ $# -gt 0 ]; do
  case $1 in
    --np) np=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "usage: $0 [--np N] [--calls K] [--out FILE] [--build DIR]" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: valgrind)" >&2; exit 2; }
[ -x "$build/mpi_requests" ] || { echo "no $build/mpi_requests (build with OPTCOLL_BUILD_BENCH=ON)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
mpi=$("$build/mpi_requests" --help 2>&1 | head -0; mpiexec --version 2>&1 | head -1)
{
  echo "# title: instructions per 8 B call (callgrind, inclusive, per rank): native and optcoll, blocking and persistent"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(hostname), $(nproc) online CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "# mpi: $mpi"
  echo "# ranks: $np"
  echo "# command: scripts/callgrind-requests.sh --np $np --calls $calls"
  echo "op,rank,native_ir,native_persistent_ir,optcoll_ir,optcoll_persistent_ir,persistent_over_native"
} >"$work/out.csv"
for op in bcast allreduce; do
  mpiexec --oversubscribe -n "$np" valgrind --tool=callgrind --callgrind-out-file="$work/cg.$op.%q{OMPI_COMM_WORLD_RANK}" \
    "$build/mpi_requests" --count-calls "$calls" --op "$op" >"$work/$op.log" 2>&1 ||
    { cat "$work/$op.log" >&2; exit 1; }
  for ((r = 0; r < np; ++r)); do
    f="$work/cg.$op.$r"
    ir() {  # inclusive instructions of counted_<impl>, per call
      callgrind_annotate --inclusive=yes --threshold=100 "$f" 2>/dev/null |
        sed -n "s/^ *\([0-9,]*\) .*counted_$1(.*/\1/p" | head -1 | tr -d , |
        awk -v k="$calls" '{ if ($1 != "") printf "%.0f", $1 / k }'
    }
    n=$(ir native) np_=$(ir native_persistent) o=$(ir optcoll) op_=$(ir optcoll_persistent)
    ratio=$(awk -v a="$op_" -v b="$n" 'BEGIN { if (a != "" && b > 0) printf "%.3f", a / b }')
    echo "$op,$r,$n,$np_,$o,$op_,$ratio" >>"$work/out.csv"
  done
done
if [ -n "$out" ]; then cp "$work/out.csv" "$out"; fi
cat "$work/out.csv"
