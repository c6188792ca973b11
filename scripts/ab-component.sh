#!/usr/bin/env bash
# Blocking and persistent Bcast and Allreduce (bench/ompi/small_calls.c)
# under the Open MPI component (mca_coll_optcoll.so, OPTCOLL_BCAST=optcoll
# OPTCOLL_ALLREDUCE=optcoll) against --against: Open MPI's own (tuned,
# libnbc; default) or the drop-in (liboptcoll_pmpi.so preloaded, the same
# forcing). Runs alternate A B A B; per (np, op, bytes) the median over the
# runs of each run's median time per call. CSV with the machine's metadata
# (bench/results/ format).
#   scripts/ab-component.sh [--against tuned|dropin] [--runs R] [--nps "2 8"] [--bytes "8 32 128"] [--calls C] --out FILE
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 nps="2 8" sizes="8 32 128" calls=2000 out="" against=tuned
while [ $# -gt 0 ]; do
  case $1 in
    --against) against=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --nps) nps=$2; shift 2 ;;
    --bytes) sizes=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--runs R] [--nps \"2 8\"] [--bytes \"8 32 128\"] [--calls C] --out FILE" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "--out FILE is required" >&2; exit 2; }
[ -f build/mca_coll_optcoll.so ] || { echo "build/mca_coll_optcoll.so is missing (scripts/build.sh)" >&2; exit 2; }
components=$(dirname "$(find /usr/lib -name mca_coll_tuned.so -print -quit)")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/small_calls" bench/ompi/small_calls.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
for np in $nps; do
  for i in $(seq "$runs"); do
    if [ "$against" = dropin ]; then
      env -u OMPI_MCA_mca_base_component_path OPTCOLL_BCAST=optcoll OPTCOLL_ALLREDUCE=optcoll \
        mpiexec -n "$np" -x LD_PRELOAD="$PWD/build/liboptcoll_pmpi.so" "$work/small_calls" "$calls" 9 $sizes |
        sed "s/^/$np,against,$i,/" >>"$work/all.csv"
    else
      env -u OMPI_MCA_mca_base_component_path mpiexec -n "$np" "$work/small_calls" "$calls" 9 $sizes |
        sed "s/^/$np,against,$i,/" >>"$work/all.csv"
    fi
    env OMPI_MCA_mca_base_component_path="$PWD/build:$components" OPTCOLL_BCAST=optcoll OPTCOLL_ALLREDUCE=optcoll \
      mpiexec -n "$np" "$work/small_calls" "$calls" 9 $sizes | sed "s/^/$np,component,$i,/" >>"$work/all.csv"
  done
done
{
  what="Open MPI's own (tuned; persistent: libnbc)"
  [ "$against" = dropin ] && what="the drop-in (liboptcoll_pmpi.so, forced)"
  echo "# title: time per call (us): the optcoll component (forced) against $what, median of $runs alternating runs, each the median of 9 batches of $calls calls (slowest rank)"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(hostname), $(nproc) online CPUs, $(sed -n 's/^model name\t: //p' /proc/cpuinfo | head -1)"
  echo "# mpi: $(mpiexec --version 2>&1 | head -1)"
  echo "# command: scripts/ab-component.sh --against $against --runs $runs --nps \"$nps\" --bytes \"$sizes\" --calls $calls"
  echo "np,op,bytes,against,against_us,component_us,against_over_component"
  python3 - "$work/all.csv" "$against" <<'PY'
import csv, statistics, sys
rows = {}
for np, impl, _run, op, b, us in csv.reader(open(sys.argv[1])):
    rows.setdefault((int(np), op, int(b)), {}).setdefault(impl, []).append(float(us))
for (np, op, b), v in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
    t, o = statistics.median(v["against"]), statistics.median(v["component"])
    print(f"{np},{op},{b},{sys.argv[2]},{t:.2f},{o:.2f},{t / o:.2f}")
PY
} >"$out"
cat "$out"
