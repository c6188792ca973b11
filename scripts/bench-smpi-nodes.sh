#!/usr/bin/env bash
# optcoll against SMPI's selectors and its node-aware algorithms on
# platforms of multi-core nodes (bench/smpi/platforms/crossbar-NxK.xml,
# fattree-32x32.xml: N hosts of K cores, ranks placed in blocks of K by the
# platform's .hosts file). docs/smpi.md, "Multi-core nodes".
#
#   scripts/bench-smpi-nodes.sh [--platforms "crossbar-8x8 ..."] [--ops "bcast ..."] [--sizes "8 65536 ..."]
#                               [--natives 0] [--jobs N] [--merge-only] [--smoke]
#
# Default: crossbar-8x8 and crossbar-16x16, Bcast, Reduce, Allreduce,
#   Allgather, Reduce_scatter_block at 8 B, 64 KiB and 1 MiB; optcoll (its own
#   choice; OPTCOLL_<OP>=<algorithm> in the environment forces one, and the
#   rows say so), SMPI's ompi, mpich and mvapich2 selectors and the
#   node-aware classics SMPI 3.32 has for the operation (natives_of below);
#   every result checked against an oracle where the buffers fit in
#   OPTCOLL_SMPI_CHECK_MEMORY bytes over all ranks (default 3 GiB).
#   One simulation per (platform, operation, size) below 1024 ranks; from
#   1024 ranks one per implementation, under OPTCOLL_SMPI_CELL_TIMEOUT
#   seconds (default 900; one over it is left out and listed).
#   Rows go to build-smpi/results/nodes/<platform>/<build>/ (restartable;
#   <build>: the commit, plus any OPTCOLL_<OP> forcing), and
#   scripts/smpi-nodes-report.py merges every build's rows into
#   bench/results/smpi-nodes.csv (each row with its commit and the
#   two-level bound) and bench/results/smpi-nodes-summary.csv.
# --natives 0: optcoll only (a rerun on a new commit: SMPI's rows stay).
# --smoke: crossbar-8x8, the five operations at 8 B and 64 KiB, optcoll
#   and SMP_binomial Bcast, one repetition, results checked, the node
#   layout checked (8 nodes of 8); nothing merged. CTest smpi_nodes.
#
# Waiting: SMPI runs every rank of a host on the simulating machine, and
# optcoll's OPTCOLL_WAIT=auto polls when a node has more ranks than the
# machine's cores; with smpi/test:0 a polling rank never advances the
# simulated clock and the simulation hangs. The rig sets OPTCOLL_WAIT=block.
set -euo pipefail
cd "$(dirname "$0")/.."
platforms="crossbar-8x8 crossbar-16x16"
ops="bcast reduce allreduce allgather reduce_scatter_block"
sizes="8 65536 1048576"
with_natives=1
jobs=${OPTCOLL_SMPI_JOBS:-1}
merge_only=0
smoke=0
while [ $# -gt 0 ]; do
  case "$1" in
    --platforms) platforms=$2; shift ;;
    --ops) ops=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --natives) with_natives=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --merge-only) merge_only=1 ;;
    --smoke) smoke=1 ;;
    *) echo "usage: $0 [--platforms \"NAME ...\"] [--ops \"OP ...\"] [--sizes \"B ...\"] [--natives 0] [--jobs N] [--merge-only] [--smoke]" >&2
       exit 2 ;;
  esac
  shift
done
smpirun=${OPTCOLL_SMPIRUN:-smpirun}
if ! command -v "$smpirun" >/dev/null; then
  echo "bench-smpi-nodes.sh: SimGrid's smpirun not installed: skipped (scripts/deps.sh installs libsimgrid-dev)" >&2
  exit 77
fi
[ "${OPTCOLL_SMPI_NO_BUILD:-0}" = 1 ] || [ "$merge_only" = 1 ] || scripts/build-smpi.sh >&2
# As scripts/bench-smpi.sh (the platforms README has the reasons).
cfg=(--cfg=smpi/test:0 --cfg=smpi/iprobe:0 --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:ompi
     --cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb "--cfg=smpi/tmpdir:${OPTCOLL_SMPI_TMPDIR:-/dev/shm}"
     --log=root.thres:critical)
export OPTCOLL_WAIT=block
check_memory=${OPTCOLL_SMPI_CHECK_MEMORY:-3221225472}
cell_timeout=${OPTCOLL_SMPI_CELL_TIMEOUT:-900}

# SMPI 3.32's selectors and its algorithms that use the node structure
# (Comm::init_smp: one intra-node communicator per host, one of leaders).
# Not bcast__mvapich2_inter_node: alone it is only the leaders' part (the
# other ranks' results are wrong).
natives_of() {
  local sel=ompi,mpich,mvapich2
  case "$1" in
    bcast) echo "$sel,smpi:SMP_binomial,smpi:SMP_binary" ;;
    reduce) echo "$sel,smpi:mvapich2_two_level" ;;
    allreduce) echo "$sel,smpi:smp_rsag,smpi:smp_rsag_lr,smpi:smp_rsag_rab,smpi:smp_binomial,smpi:mvapich2_two_level" ;;
    allgather) echo "$sel,smpi:SMP_NTS,smpi:loosely_lr,smpi:smp_simple,smpi:mvapich2_smp" ;;
    gather) echo "$sel,smpi:mvapich2_two_level" ;;
    scatter) echo "$sel,smpi:mvapich2_two_level_binomial,smpi:mvapich2_two_level_direct" ;;
    *) echo "$sel" ;;
  esac
}

# The build the rows are measured on: the commit (and "+" if src, include
# or bench differ from it), and any OPTCOLL_<OP> forcing an algorithm.
forced=$(env | grep -E '^OPTCOLL_(BCAST|REDUCE|ALLREDUCE|ALLGATHER|ALLGATHERV|REDUCE_SCATTER)=' | sort | tr '\n' ' ' || true)
# OPTCOLL_SMPI_GIT replaces the commit (a benchmark built elsewhere: see
# OPTCOLL_SMPI_BUILD_DIR, the build directory whose bench/smpi/collectives
# runs; default build-smpi).
bindir=${OPTCOLL_SMPI_BUILD_DIR:-build-smpi}
build=${OPTCOLL_SMPI_GIT:-$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include bench 2>/dev/null || echo +)}
build_tag=$build${forced:+-$(echo "$forced" | tr -c 'A-Za-z0-9_=\n' '_' | sed 's/_*$//')}

run_sim() {  # run_sim PLATFORM NP TIMEOUT ARGS...: one simulation (environment: $model_env)
  local plat=$1 np=$2 limit=$3
  shift 3
  # shellcheck disable=SC2086
  timeout -k 10 "$limit" env ${model_env:-} nice -n 5 "$smpirun" -platform "bench/smpi/platforms/$plat.xml" \
    -hostfile "bench/smpi/platforms/$plat.hosts" -np "$np" "$bindir/bench/smpi/collectives" --platform "$plat" \
    --check-memory "$check_memory" "$@" "${cfg[@]}"
}
ranks_of() { wc -l <"bench/smpi/platforms/$1.hosts"; }

if [ "$smoke" = 1 ]; then
  t0=$(date +%s)
  csv=$(mktemp)
  rc=0
  log=$(run_sim crossbar-8x8 64 300 --ops "${ops// /,}" --sizes 8,65536 --natives none --reps 1 --csv "$csv" 2>&1) || rc=$?
  log+=$'\n'$(run_sim crossbar-8x8 64 300 --ops bcast --sizes 65536 --optcoll 0 --natives smpi:SMP_binomial --reps 1 \
    --csv "$csv" 2>&1) || rc=$?
  echo "$log" | grep -E '^collectives: (nodes|.*check)' >&2 || true
  rows=$(wc -l <"$csv")
  fails=$(grep -c ',FAIL,' "$csv" || true)
  rm -f "$csv"
  if [ "$rc" = 0 ] && echo "$log" | grep -q '^collectives: nodes 8 ppn 8..8$' && [ "$rows" = 11 ] && [ "$fails" = 0 ]; then
    echo "bench-smpi-nodes.sh: smoke ok (8 nodes of 8 ranks, $rows rows checked, $(($(date +%s) - t0)) s)" >&2
    exit 0
  fi
  echo "bench-smpi-nodes.sh: smoke FAILED (exit $rc, $rows rows, $fails wrong; want 8 nodes of 8 and 11 rows)" >&2
  exit 1
fi

failed=0
start=$(date +%s)
# Tasks: (platform, op, size, implementations); below 1024 ranks optcoll and
# the natives share a simulation, from 1024 on each has its own.
tasks=()
[ "$merge_only" = 1 ] || for plat in $platforms; do
  np=$(ranks_of "$plat")
  for op in $ops; do
    for s in $sizes; do
      impls=optcoll
      if [ "$with_natives" = 1 ]; then
        if [ "$np" -ge 1024 ]; then
          tasks+=("$plat|$op|$s|optcoll")
          for n in $(natives_of "$op" | tr ',' ' '); do tasks+=("$plat|$op|$s|$n"); done
          continue
        fi
        impls="optcoll,$(natives_of "$op")"
      fi
      tasks+=("$plat|$op|$s|$impls")
    done
  done
done

# The calibration per platform and build: optcoll's first call measures
# alpha and beta (minutes at 1024 ranks); the other simulations of that
# platform get the same numbers (OPTCOLL_ALPHA, ...: the same choices).
calibrate() {
  local plat=$1 dir=$2 f=$2/model
  [ -e "$f" ] && return 0
  run_sim "$plat" "$(ranks_of "$plat")" "$cell_timeout" --ops bcast --sizes 1024 --natives none --reps 1 2>&1 |
    grep -E '^collectives: (nodes|p=.*optcoll model)' >"$f.tmp" || true
  # (A forced algorithm needs no calibration: then there is no model line.)
  grep -q 'alpha=' "$f.tmp" || [ -n "$forced" ] || { echo "bench-smpi-nodes.sh: calibration on $plat failed" >&2; return 1; }
  mv "$f.tmp" "$f"
}
model_env_of() {
  { grep 'optcoll model' "$1/model" || true; } |
    sed -E 's/.*alpha=([^ ]+) beta=([^ ]+) block_cap=([^ ]+) poll=[^ ]+ o=([^ ]+).*/OPTCOLL_ALPHA=\1 OPTCOLL_BETA=\2 OPTCOLL_BLOCK_CAP=\3 OPTCOLL_OVERHEAD=\4/'
}

run_task() {
  local plat=$1 op=$2 s=$3 impls=$4 dir name part log np rc=0 t0 i
  dir=build-smpi/results/nodes/$plat/$build_tag
  name=$op-$s-${impls//[:,]/_}
  part=$dir/$name.csv log=$dir/$name.log
  [ -e "$dir/$name.done" ] && return 0
  np=$(ranks_of "$plat")
  rm -f "$part"
  t0=$(date +%s)
  local model_env
  model_env=$(model_env_of "$dir")
  local args
  if [ "$impls" = optcoll ]; then
    args=(--natives none)
  elif [[ $impls == optcoll,* ]]; then
    args=(--natives "${impls#optcoll,}")
  else
    args=(--optcoll 0 --natives "$impls")
  fi
  run_sim "$plat" "$np" "$cell_timeout" --ops "$op" --sizes "$s" --csv "$part" "${args[@]}" 2>>"$log" || rc=$?
  # SimGrid aborts on some of its own algorithms: each implementation the
  # part lacks gets a simulation of its own, once.
  for i in ${impls//,/ }; do
    grep -q ",$i," "$part" 2>/dev/null && continue
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then  # over the limit: not again
      echo "$plat $op $s $i: over ${cell_timeout} s of host time (no result)" >>"$dir/left-out"
      continue
    fi
    if [ "$i" = optcoll ]; then args=(--natives none); else args=(--optcoll 0 --natives "$i"); fi
    run_sim "$plat" "$np" "$cell_timeout" --ops "$op" --sizes "$s" --csv "$part" "${args[@]}" 2>>"$log" || true
    grep -q ",$i," "$part" 2>/dev/null || echo "$plat $op $s $i: no result (SimGrid failed or over ${cell_timeout} s)" >>"$dir/left-out"
  done
  grep '^collectives: [a-z_]* regular' "$log" >&2 || true
  echo "$(($(date +%s) - t0))" >"$dir/$name.done"
}

invocation="host: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $jobs jobs; $(date -u +%Y-%m-%dT%H:%MZ); build $build_tag"
for plat in $platforms; do
  [ "$merge_only" = 1 ] && break
  dir=build-smpi/results/nodes/$plat/$build_tag
  mkdir -p "$dir"
  echo "$invocation; scripts/bench-smpi-nodes.sh --platforms \"$plat\" --ops \"$ops\" --sizes \"$sizes\"$([ "$with_natives" = 1 ] || echo ' --natives 0')" \
    >"$dir/invocation-$(date +%s)-$$"
  [ -n "$forced" ] && echo "$forced" >"$dir/forced"
  calibrate "$plat" "$dir" || failed=1
done
for t in "${tasks[@]}"; do
  IFS='|' read -r plat op s impls <<<"$t"
  [ -e "build-smpi/results/nodes/$plat/$build_tag/model" ] || continue
  run_task "$plat" "$op" "$s" "$impls" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || failed=1; done
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
echo "bench-smpi-nodes.sh: $(($(date +%s) - start)) s" >&2
python3 scripts/smpi-nodes-report.py --work build-smpi/results/nodes "--cfg=${cfg[*]} OPTCOLL_WAIT=block" || failed=1
if grep -q ',optcoll,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,FAIL,' build-smpi/results/nodes/*/*/*.csv 2>/dev/null; then
  echo "bench-smpi-nodes.sh: optcoll results differ from the oracle's" >&2
  exit 1
fi
[ "$failed" = 0 ] || exit 1
