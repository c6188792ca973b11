#!/usr/bin/env bash
# Instructions per 8 B Bcast and Allreduce call (callgrind): native
# blocking, native persistent (start + wait), optcoll blocking, optcoll
# persistent (start + wait), and the same rounds written by hand over PMPI
# (by_hand_ir: mpi_requests' by_hand(); empty where not written for this p),
# at every rank; build/mpi_requests --count-calls
# runs K calls of each in a function of its own, and callgrind's inclusive
# cost of that function / K is the count. A rank that waits for another
# counts its polling too, so these vary with the machine's load. The *_own
# columns are optcoll's own instructions per call, without MPI's: the self
# cost of the optcoll:: functions under that implementation's function
# alone (a run of its own with --toggle-collect); they vary only with the
# number of polls in optcoll's waits (a few instructions each). Several
# builds (--builds "DIR ...", --names A,B,...) give a row per build. Writes
# CSV with the machine's metadata (bench/results/ format).
#
#   scripts/callgrind-requests.sh [--np N] [--calls K] [--out FILE] [--builds "DIR ..."] [--names A,...]
set -euo pipefail
cd "$(dirname "$0")/.."
np=2 calls=2000 out="" builds=build names=""
usage="usage: $0 [--np N] [--calls K] [--out FILE] [--builds \"DIR ...\"] [--names A,...]"
while [ $# -gt 0 ]; do
  case $1 in
    --np) np=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build | --builds) builds=$2; shift 2 ;;
    --names) names=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
read -r -a dirs <<<"$builds"
if [ -n "$names" ]; then IFS=, read -r -a labels <<<"$names"; else labels=("${dirs[@]}"); fi
[ "${#labels[@]}" = "${#dirs[@]}" ] || { echo "$0: as many --names as --builds" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: valgrind)" >&2; exit 2; }
for d in "${dirs[@]}"; do
  [ -x "$d/mpi_requests" ] || { echo "no $d/mpi_requests (build with OPTCOLL_BUILD_BENCH=ON)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
cmd="scripts/callgrind-requests.sh --np $np --calls $calls"
[ "${#dirs[@]}" = 1 ] && [ -z "$names" ] || cmd+=" --builds \"$builds\" --names ${names:-$builds}"
{
  echo "# title: instructions per 8 B call (callgrind, inclusive, per rank): native and optcoll, blocking and persistent; optcoll's own apart"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(hostname), $(nproc) online CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "# mpi: $(mpiexec --version 2>&1 | head -1)"
  echo "# ranks: $np"
  echo "# command: $cmd"
  echo "op,rank,build,native_ir,native_persistent_ir,optcoll_ir,optcoll_persistent_ir,persistent_over_native,optcoll_own_ir,optcoll_persistent_own_ir,by_hand_ir"
} >"$work/out.csv"
grind() {  # grind DIR OP PREFIX [ARGS...]: one run under callgrind, a profile per rank
  local dir=$1 op=$2 prefix=$3
  shift 3
  mpiexec --oversubscribe -n "$np" valgrind --tool=callgrind "$@" \
    --callgrind-out-file="$work/$prefix.%q{OMPI_COMM_WORLD_RANK}" \
    "$dir/mpi_requests" --count-calls "$calls" --op "$op" >"$work/$prefix.log" 2>&1 ||
    { cat "$work/$prefix.log" >&2; exit 1; }
}
ir() {  # ir FILE IMPL: inclusive instructions of counted_IMPL, per call
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
    sed -n "s/^ *\([0-9,]*\) .*counted_$2(.*/\1/p" | head -1 | tr -d , |
    awk -v k="$calls" '{ if ($1 != "") printf "%.0f", $1 / k }'
}
own() {  # own FILE: self instructions of the optcoll:: functions, per call
  callgrind_annotate --threshold=100 "$1" 2>/dev/null |
    awk -v k="$calls" '/^ *[0-9,]+ .*\?\?\?:optcoll::/ { gsub(",", "", $1); s += $1 } END { printf "%.0f", s / k }'
}
for i in "${!dirs[@]}"; do
  d=${dirs[$i]} label=${labels[$i]}
  for op in bcast allreduce; do
    grind "$d" "$op" "all.$op"
    for impl in optcoll optcoll_persistent; do grind "$d" "$op" "$impl.$op" "--toggle-collect=*counted_$impl(*"; done
    for ((r = 0; r < np; ++r)); do
      f="$work/all.$op.$r"
      n=$(ir "$f" native) np_=$(ir "$f" native_persistent) o=$(ir "$f" optcoll) op_=$(ir "$f" optcoll_persistent)
      ratio=$(awk -v a="$op_" -v b="$n" 'BEGIN { if (a != "" && b > 0) printf "%.3f", a / b }')
      echo "$op,$r,$label,$n,$np_,$o,$op_,$ratio,$(own "$work/optcoll.$op.$r"),$(own "$work/optcoll_persistent.$op.$r"),$(ir "$f" by_hand)" \
        >>"$work/out.csv"
    done
  done
done
if [ -n "$out" ]; then cp "$work/out.csv" "$out"; fi
cat "$work/out.csv"
