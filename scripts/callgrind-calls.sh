#!/usr/bin/env bash
# Instructions per 8 B MPI_Bcast and MPI_Allreduce call of an unmodified
# program (bench/dropin/loop.c) under two setups A and B, with optcoll
# forced where it runs (OPTCOLL_BCAST=optcoll OPTCOLL_ALLREDUCE=optcoll):
# callgrind collects each operation's loop alone, at every rank; the cost
# of MPI's progress polling (the waits: opal_progress, the shared memory
# transport, Testall / Waitall) is reported apart, since it measures how
# long a rank waited for the other, not what a call does. CSV with the
# machine's metadata (bench/results/ format).
#
# A setup is a library to preload (a build's liboptcoll_pmpi.so), or
# environment settings VAR=VALUE separated by spaces (the Open MPI
# component: OMPI_MCA_mca_base_component_path=DIR:<Open MPI's component
# dir>), or `native` (MPI's own collectives: Open MPI's tuned).
#
#   scripts/callgrind-calls.sh --a SETUP --b SETUP [--names A,B] [--np N] [--calls K] --out FILE
set -euo pipefail
cd "$(dirname "$0")/.."
a="" b="" names=a,b np=2 calls=2000 out=""
while [ $# -gt 0 ]; do
  case $1 in
    --a) a=$2; shift 2 ;;
    --b) b=$2; shift 2 ;;
    --names) names=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 --a SETUP --b SETUP [--names A,B] [--np N] [--calls K] --out FILE" >&2; exit 2 ;;
  esac
done
[ -n "$a" ] && [ -n "$b" ] && [ -n "$out" ] || { echo "usage: $0 --a SETUP --b SETUP [--names A,B] [--np N] [--calls K] --out FILE" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: valgrind)" >&2; exit 2; }
IFS=, read -r name_a name_b <<<"$names"
# The mpiexec options that make a setup.
setup() {
  case $1 in
    native) ;;
    *=*) for kv in $1; do printf -- '-x\n%s\n' "$kv"; done ;;
    *) printf -- '-x\nLD_PRELOAD=%s\n' "$1" ;;
  esac
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/loop" bench/dropin/loop.c
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
{
  echo "# title: instructions per 8 B call of an unmodified program (callgrind, per rank), two setups: what the calls do, and MPI's polling apart"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(hostname), $(nproc) online CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "# mpi: $(mpiexec --version 2>&1 | head -1)"
  echo "# ranks: $np"
  echo "# command: scripts/callgrind-calls.sh --a A --b B --names $names --np $np --calls $calls"
  echo "# setups: $name_a = $a; $name_b = $b"
  echo "op,rank,build,ir,polling_ir,call_ir"
} >"$work/out.csv"
for op in bcast allreduce; do
  for build in a b; do
    spec=$a name=$name_a
    [ "$build" = b ] && spec=$b name=$name_b
    mapfile -t opts < <(setup "$spec")
    mpiexec --oversubscribe -n "$np" ${opts[@]+"${opts[@]}"} -x OPTCOLL_BCAST=optcoll -x OPTCOLL_ALLREDUCE=optcoll \
      valgrind --tool=callgrind --toggle-collect="loop_$op" --callgrind-out-file="$work/cg.%q{OMPI_COMM_WORLD_RANK}" \
      "$work/loop" "$calls" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
    for ((r = 0; r < np; ++r)); do
      callgrind_annotate --threshold=100 "$work/cg.$r" 2>/dev/null | sed -n '/Ir *file:function/,$p' |
        awk -v k="$calls" -v op="$op" -v r="$r" -v name="$name" '
          NR > 2 && $1 ~ /^[0-9,]+$/ {
            gsub(",", "", $1); t += $1
            if ($0 ~ /opal_progress|btl_vader|libnbc_progress|test_all|wait_all|PMPI_Testall|PMPI_Waitall|mpi::wait_all/) p += $1
          }
          END { printf "%s,%d,%s,%.0f,%.0f,%.0f\n", op, r, name, t / k, p / k, (t - p) / k }' >>"$work/out.csv"
    done
  done
done
cp "$work/out.csv" "$out"
cat "$out"
