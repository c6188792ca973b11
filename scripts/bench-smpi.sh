#!/usr/bin/env bash
# optcoll against SMPI's own collectives at scale, on simulated networks
# (SimGrid/SMPI; docs/smpi.md). Builds ./build-smpi (scripts/build-smpi.sh),
# runs bench/smpi/collectives under smpirun, one simulation per task, and
# merges the rows into one CSV with the run's metadata.
#
#   scripts/bench-smpi.sh [--quick] [--platform NAME] [--p "16 64 ..."] [--ops "OP[:DIST] ..."] [--jobs N]
#                         [--merge-only] [--selftest] [--calibration]
#
# Full sweep (default): p in 1024 256 100 64 16 1000, every operation,
#   8 B .. 16 MiB (sizes per p below), Open MPI's and MPICH's selectors and
#   the classic algorithms; writes bench/results/smpi-<platform>.csv.
#   Tasks: (p, operation) up to p = 256; from p = 1000 on (or
#   OPTCOLL_SMPI_CELLS_FROM) cells, (p, operation, size, implementation),
#   each a simulation of its own under OPTCOLL_SMPI_CELL_TIMEOUT seconds
#   (one over it is left out and listed in the CSV). Tasks run in the order
#   of --p (largest first by default), --jobs at a time. Restartable:
#   finished tasks in build-smpi/results/<platform>/ (OPTCOLL_SMPI_WORK) are
#   kept; OPTCOLL_SMPI_FRESH=1 starts over; --merge-only only writes the CSV
#   (OPTCOLL_SMPI_OUT) from the finished tasks. OPTCOLL_SMPI_TMPDIR: where
#   SMPI puts each rank's copy of the program (default /dev/shm);
#   OPTCOLL_SMPI_DEADLINE: see bench() below.
# --quick: p = 64 and 100, every operation, 8 B and 64 KiB, optcoll only
#   (one repetition), results checked; writes
#   build-smpi/results/quick-<platform>.csv. The test suite runs it
#   (cmake/smpi.cmake).
# Calibration: optcoll measures alpha and beta at its first call on a
#   communicator, which costs minutes of simulation at p = 1024; the first
#   task at each p measures them and the others get the same numbers
#   (OPTCOLL_ALPHA, OPTCOLL_BETA, OPTCOLL_BLOCK_CAP: the same choices).
# OPTCOLL_SMPIRUN: the smpirun to use (scripts/smpi-bundle.sh makes one).
# --selftest: the check itself must fail when optcoll's result is wrong (one
#   byte of it flipped at the last rank, p = 16); exit 0 if it did.
# --calibration: optcoll's calibration at p = 64 on fattree-1024 must read
#   the platform: beta within 2 % of its links' 80 ps/B (12.5 GB/s), alpha
#   from the longest route's latency (4 links of 1 us) to that plus both
#   overheads and 0.4 us (5 us); exit 0 if it did.
# Exit status: 1 if an optcoll result differed from SMPI's, 77 if SimGrid is
# not installed (CTest: skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
platform=fattree-1024
ps=""
ops="bcast reduce allgather allgatherv:regular allgatherv:irregular allgatherv:degenerate reduce_scatter_block
     reduce_scatter allreduce gather gatherv scatter scatterv scan exscan alltoall alltoallv"
jobs=${OPTCOLL_SMPI_JOBS:-1}
merge_only=0
selftest=0
calibration=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --platform) platform=$2; shift ;;
    --p) ps=$2; shift ;;
    --ops) ops=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --merge-only) merge_only=1 ;;
    --selftest) selftest=1 ;;
    --calibration) calibration=1 ;;
    *) echo "usage: $0 [--quick] [--platform NAME] [--p \"P ...\"] [--ops \"OP[:DIST] ...\"] [--jobs N] [--merge-only] [--selftest] [--calibration]" >&2
       exit 2 ;;
  esac
  shift
done
smpirun=${OPTCOLL_SMPIRUN:-smpirun}
bench_env=""
if ! command -v "$smpirun" >/dev/null; then
  echo "bench-smpi.sh: SimGrid's smpirun not installed: skipped (scripts/deps.sh installs libsimgrid-dev)" >&2
  exit 77
fi
[ "${OPTCOLL_SMPI_NO_BUILD:-0}" = 1 ] || scripts/build-smpi.sh >&2
xml=bench/smpi/platforms/$platform.xml
[ -f "$xml" ] || { echo "bench-smpi.sh: no platform $xml" >&2; exit 2; }
# The base state (restore_native in bench/smpi/native.hpp): the ompi
# selector, a binomial Bcast and a recursive-doubling Allreduce.
base=(--cfg=smpi/coll-selector:ompi --cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb)
cfg=(--cfg=smpi/test:0 --cfg=smpi/iprobe:0 --cfg=smpi/simulate-computation:no "${base[@]}"
     "--cfg=smpi/tmpdir:${OPTCOLL_SMPI_TMPDIR:-/dev/shm}" --log=root.thres:critical)
if [ "$calibration" = 1 ]; then
  hosts=$(mktemp)
  for i in $(seq 0 63); do echo "node-$i"; done >"$hosts"
  line=$("$smpirun" -platform bench/smpi/platforms/fattree-1024.xml -hostfile "$hosts" -np 64 \
    build-smpi/bench/smpi/collectives --ops bcast --sizes 8 --natives none --reps 1 "${cfg[@]}" 2>&1 |
    grep 'optcoll model' || true)
  rm -f "$hosts"
  echo "$line" >&2
  if echo "$line" | awk '{ for (i = 1; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 } }
      END { exit !(v["beta"] > 0.98 * 8e-11 && v["beta"] < 1.02 * 8e-11 && v["alpha"] >= 4e-6 && v["alpha"] <= 5e-6) }'; then
    echo "bench-smpi.sh: calibration ok (the platform's beta and alpha)" >&2
    exit 0
  fi
  echo "bench-smpi.sh: calibration FAILED: want beta = 8e-11 s/B (+-2 %) and alpha in [4e-6, 5e-6] s" >&2
  exit 1
fi
if [ "$selftest" = 1 ]; then
  hosts=$(mktemp)
  for i in $(seq 0 15); do echo "node-$i"; done >"$hosts"
  rc=0
  log=$("$smpirun" -platform "$xml" -hostfile "$hosts" -np 16 build-smpi/bench/smpi/collectives --ops allreduce,gather \
    --sizes 64 --natives none --inject-fault 1 "${cfg[@]}" 2>&1) || rc=$?
  rm -f "$hosts"
  echo "$log" | grep MISMATCH >&2 || true
  if [ "$rc" = 1 ] && [ "$(echo "$log" | grep -c 'MISMATCH.*optcoll differs')" = 2 ]; then
    echo "bench-smpi.sh: selftest ok (both injected faults found)" >&2
    exit 0
  fi
  echo "bench-smpi.sh: selftest FAILED: the injected faults were not reported (exit $rc)" >&2
  exit 1
fi

# Sizes per p and operation (bytes of the whole vector,
# bench/smpi/cases.hpp). At p >= 1000 Alltoall(v) stops at 64 KiB: from
# 1 KiB per pair on every implementation sends p(p - 1) messages per call,
# a million, minutes of host time per call.
sizes_for() {
  if [ "$quick" = 1 ]; then echo "8 65536"; return; fi
  if [ "$1" -ge 1000 ]; then
    case "$2" in alltoall*) echo "65536 8" ;; *) echo "16777216 1048576 65536 8" ;; esac  # the longest first
    return
  fi
  echo "8 256 8192 65536 262144 1048576 4194304 16777216"
}
# Repetitions after the warm-up: the simulation is deterministic (every
# p <= 256 row has us_min = us_max), so at p >= 1000, where one call can
# cost minutes of host time, one.
reps_for() { if [ "$1" -ge 1000 ]; then echo 1; else echo 5; fi; }
# The natives of (op, p, size): SMPI's Scan and Exscan are linear (rank r
# receives r messages at once into r temporary buffers), p^2/2 flows that
# SimGrid simulates in minutes from p = 256 on; beyond 8 KiB there only
# optcoll runs. Classic algorithms with p - 1 rounds cost a million
# messages per call at p = 1024; there the selectors and the logarithmic
# classics run.
natives_for() {
  local op=$1 p=$2 s=$3
  if [ "$quick" = 1 ]; then echo "--natives none --reps 1"; return; fi
  case "$op" in scan|exscan) if [ "$p" -ge 256 ] && [ "$s" -gt 8192 ]; then echo "--natives none"; return; fi ;; esac
  echo "--classics 1"
}
# At p >= 1000 every implementation of a case is a simulation of its own
# (a cell, below): SMPI's only one (Scan and Exscan up to 8 KiB, Gatherv,
# Scatterv), or the two selectors, then the logarithmic classics.
cell_natives() {
  local op=$1 s=$2
  case "$op" in
    scan|exscan) if [ "$s" -le 8192 ]; then echo native; fi; return ;;
    gatherv|scatterv) echo native; return ;;
  esac
  echo ompi mpich
}
log_classics() {
  case "$1" in
    bcast) echo ",smpi:binomial_tree,smpi:scatter_rdb_allgather" ;;
    reduce) echo ",smpi:binomial,smpi:scatter_gather,smpi:rab" ;;
    allgather) echo ",smpi:bruck,smpi:rdb" ;;
    allgatherv*) echo ",smpi:ompi_bruck,smpi:mpich_rdb" ;;
    reduce_scatter*) echo ",smpi:ompi_basic_recursivehalving,smpi:ompi_butterfly" ;;
    allreduce) echo ",smpi:rdb,smpi:rab_rdb" ;;
    gather|scatter) echo ",smpi:ompi_binomial" ;;
    alltoall|alltoallv) echo ",smpi:bruck" ;;
  esac
}

work=${OPTCOLL_SMPI_WORK:-build-smpi/results/$platform}
[ "$quick" = 1 ] && work=build-smpi/results/quick-$platform
{ [ "${OPTCOLL_SMPI_FRESH:-0}" = 1 ] || [ "$quick" = 1 ]; } && rm -rf "$work"
mkdir -p "$work"
hosts=$work/hostfile
for i in $(seq 0 1023); do echo "node-$i"; done >"$hosts"
[ -n "$ps" ] || { [ "$quick" = 1 ] && ps="64 100" || ps="1024 256 100 64 16 1000"; }
start=$(date +%s)
# OPTCOLL_SMPI_CELL_TIMEOUT: seconds a cell (p >= 1000) may take; one that
# takes longer is left out and listed in the CSV's metadata.
cell_timeout=${OPTCOLL_SMPI_CELL_TIMEOUT:-0}
# OPTCOLL_SMPI_DEADLINE: a Unix time; no simulation starts after it, and
# those running then are stopped (their rows so far are kept; the task is
# not marked done, so a later invocation runs it again).
deadline=${OPTCOLL_SMPI_DEADLINE:-0}
past_deadline() { [ "$deadline" != 0 ] && [ "$(date +%s)" -ge "$deadline" ]; }
bench() {  # bench P ARGS...: one simulation (environment: $bench_env; $bench_timeout seconds, 0: none)
  local p=$1 limit=${bench_timeout:-0} left
  shift
  if [ "$deadline" != 0 ]; then
    left=$((deadline - $(date +%s)))
    [ "$left" -gt 0 ] || return 124
    if [ "$limit" = 0 ] || [ "$left" -lt "$limit" ]; then limit=$left; fi
  fi
  # shellcheck disable=SC2086
  timeout -k 10 "$limit" env ${bench_env:-} nice -n 5 "$smpirun" -platform "$xml" -hostfile "$hosts" \
    -np "$p" build-smpi/bench/smpi/collectives --platform "$platform" "$@" "${cfg[@]}"
}
# What this invocation ran on, for the CSV's metadata (a sweep can be
# continued on another machine: every invocation that ran tasks is listed).
git_rev=${OPTCOLL_SMPI_GIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- src include bench 2>/dev/null || echo ' (modified)')}
invocation="host: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $jobs jobs; $(date -u +%Y-%m-%dT%H:%MZ); git $git_rev; --p \"$ps\""

# Calibration per p (see above): the model line the benchmark prints.
calibrate() {
  local p=$1 f=$work/model-p$1
  [ -s "$f" ] && return 0
  bench "$p" --ops bcast --sizes 1024 --natives none --reps 1 2>&1 | grep 'optcoll model' >"$f.tmp" || true
  if ! grep -q 'alpha=' "$f.tmp"; then echo "bench-smpi.sh: calibration at p=$p failed" >&2; return 1; fi
  mv "$f.tmp" "$f"
}
model_env() {  # the calibration of p as environment assignments (o, where measured, as OPTCOLL_OVERHEAD)
  sed -E -e 's/.*alpha=([^ ]+) beta=([^ ]+) block_cap=([^ ]+) poll=[^ ]+ o=([^ ]+).*/OPTCOLL_ALPHA=\1 OPTCOLL_BETA=\2 OPTCOLL_BLOCK_CAP=\3 OPTCOLL_OVERHEAD=\4/' \
    -e 's/.*alpha=([^ ]+) beta=([^ ]+) block_cap=([^ ]+).*/OPTCOLL_ALPHA=\1 OPTCOLL_BETA=\2 OPTCOLL_BLOCK_CAP=\3/' \
    "$work/model-p$1"
}

# After a simulation: every implementation the part lacks, one simulation
# each (SimGrid aborts, or reports a deadlock and exits 0, on some of its
# own algorithms at some p and sizes); a native that fails again is left
# out (the log says so).
retry_singly() {
  local p=$1 op=$2 sizes=$3 part=$4 natives=$5 s impl line dist='[^,]*'  # an operation's one distribution
  [[ $op == *:* ]] && dist=${op#*:}
  for s in ${sizes//,/ }; do
    if ! grep -q ",${op%%:*},$dist,$p,$s,[^,]*,optcoll," "$part" 2>/dev/null; then
      bench "$p" --ops "$op" --sizes "$s" --csv "$part" --natives none || return 1
    fi
    [[ $natives == *"--natives none"* ]] && continue
    # shellcheck disable=SC2086
    line=$(bench "$p" --ops "$op" --sizes "$s" $natives --print-natives 1 2>/dev/null | tail -1)
    for impl in ${line##* } ; do
      impl=${impl//,/ }
      for i in $impl; do
        grep -q ",${op%%:*},$dist,$p,$s,[^,]*,$i," "$part" 2>/dev/null && continue
        bench "$p" --ops "$op" --sizes "$s" --csv "$part" --optcoll 0 --natives "$i" || true
        grep -q ",${op%%:*},$dist,$p,$s,[^,]*,$i," "$part" 2>/dev/null ||
          echo "bench-smpi.sh: SimGrid failed on $i, p=$p $op $s: left out" >&2
      done
    done
  done
}

# One cell (p >= 1000): p, op, size and one implementation, its own
# simulation under $cell_timeout.
run_cell() {
  local p=$1 op=$2 s=$3 impl=$4 name
  name=p$p-${op//:/-}-$s-${impl//:/_}
  local part=$work/$name.csv log=$work/$name.log
  [ -e "$work/$name.done" ] && return 0
  rm -f "$part"
  local t0 rc=0 bench_env args dt
  t0=$(date +%s)
  bench_env=$(model_env "$p")
  if [ "$impl" = optcoll ]; then args=(--natives none); else args=(--optcoll 0 --natives "$impl"); fi
  bench_timeout=$cell_timeout bench "$p" --ops "$op" --sizes "$s" --reps "$(reps_for "$p")" --csv "$part" "${args[@]}" \
    2>>"$log" || rc=$?
  dt=$(($(date +%s) - t0))
  grep '^collectives:' "$log" >&2 || true
  if past_deadline; then
    [ -s "$part" ] || return 0  # stopped by the deadline: not done
  elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "p=$p ${op%%:*} $s $impl: over the time limit, ${cell_timeout} s of wall time on the host" >"$work/$name.timeout"
    echo "bench-smpi.sh: p=$p $op $s $impl: over $cell_timeout s, left out" >&2
  elif [ ! -s "$part" ]; then
    echo "bench-smpi.sh: p=$p $op $s $impl: no result (exit $rc: SimGrid failed, or the algorithm does not take" \
      "this case), log: $log" >&2
    [ "$impl" != optcoll ] || return 1
  fi
  echo "$dt" >"$work/$name.done"
}

# One task (p < 1000): p, op and its sizes; a CSV part and a log.
run_task() {
  local p=$1 op=$2 sizes=$3 name
  name=p$p-${op//:/-}-${sizes// /-}
  local part=$work/$name.csv
  [ -s "$work/$name.done" ] && return 0
  rm -f "$part"
  local t0 rc=0 s
  t0=$(date +%s)
  local bench_env group="" group_natives="" n
  bench_env=$(model_env "$p")
  # Consecutive sizes with the same natives share one simulation.
  for s in $sizes ""; do
    n=$([ -n "$s" ] && natives_for "${op%%:*}" "$p" "$s" || echo end)
    if [ -n "$group" ] && [ "$n" != "$group_natives" ]; then
      # shellcheck disable=SC2086
      bench "$p" --ops "$op" --sizes "${group%,}" --csv "$part" $group_natives 2>>"$work/$name.log" || true
      retry_singly "$p" "$op" "${group%,}" "$part" "$group_natives" 2>>"$work/$name.log" || rc=$?
      group=""
      [ "$rc" = 0 ] || break
    fi
    group+="$s,"
    group_natives=$n
  done
  grep '^collectives:' "$work/$name.log" >&2 || true
  past_deadline && return 0  # stopped by the deadline: not done
  if [ "$rc" != 0 ]; then
    echo "bench-smpi.sh: p=$p $op $sizes failed (exit $rc), log: $work/$name.log" >&2
    return "$rc"
  fi
  echo "$(($(date +%s) - t0))" >"$work/$name.done"
}

failed=0
[ "$merge_only" = 1 ] && ps_run="" || ps_run=$ps
for p in $ps_run; do
  calibrate "$p" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || failed=1; done
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
# Tasks in order: the cells (p >= 1000) pass by pass, optcoll's at every
# such p, then the selectors', then the classics'; then one task per p < 1000
# and operation. Within each, the order of --p and of the sizes (at
# p >= 1000 the longest first).
tasks=()
cells_from=${OPTCOLL_SMPI_CELLS_FROM:-1000}  # smaller: cells (with the p >= 1000 natives) from there on
for pass in optcoll natives classics; do
  for p in $ps_run; do
    [ "$p" -ge "$cells_from" ] || continue
    for op in $ops; do
      for s in $(sizes_for "$p" "$op"); do
        case $pass in
          optcoll) impls=optcoll ;;
          natives) impls=$(cell_natives "${op%%:*}" "$s") ;;
          classics) impls=$(log_classics "${op%%:*}" | tr ',' ' ') ;;
        esac
        for i in $impls; do tasks+=("$p|$op|$s|$i"); done
      done
    done
  done
done
for p in $ps_run; do
  [ "$p" -lt "$cells_from" ] || continue
  for op in $ops; do tasks+=("$p|$op|$(sizes_for "$p" "$op")|"); done
done
[ "$merge_only" = 1 ] || [ ${#tasks[@]} = 0 ] || echo "$invocation" >"$work/invocation-$(date +%s)-$$"
for t in "${tasks[@]}"; do
  IFS='|' read -r p op sizes impl <<<"$t"
  [ -s "$work/model-p$p" ] || continue
  past_deadline && break
  if [ -n "$impl" ]; then run_cell "$p" "$op" "$sizes" "$impl" & else run_task "$p" "$op" "$sizes" & fi
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || failed=1; done
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
wall=$(($(date +%s) - start))

# Merge: metadata as '#' lines, then the header and every task's rows.
out=${OPTCOLL_SMPI_OUT:-bench/results/smpi-$platform.csv}
[ "$quick" = 1 ] && out=build-smpi/results/quick-$platform.csv
mkdir -p "$(dirname "$out")"
tasks_wall=$(cat "$work"/*.done 2>/dev/null | awk '{s += $1} END {print s + 0}')
{
  echo "# command: scripts/bench-smpi.sh$([ "$quick" = 1 ] && echo " --quick") --platform $platform --p \"$ps\""
  echo "# merged: $(date -u +%Y-%m-%dT%H:%MZ), git $git_rev"
  echo "# simgrid: 3.32 (Debian 12 libsimgrid-dev)"
  cat "$work"/invocation-* 2>/dev/null | sed 's/^/# /' || true
  echo "# platform: $xml; smpirun ${cfg[*]}"
  for p in $ps; do [ -s "$work/model-p$p" ] && echo "# calibration: $(sed 's/^collectives: //' "$work/model-p$p")"; done
  echo "# wall_s: $wall (this invocation), $tasks_wall (every task, summed)"
  cat "$work"/*.timeout 2>/dev/null | sed "s/^/# left out: /" || true
  echo "platform,op,dist,p,bytes,total_bytes,impl,alg,blocks,us,us_min,us_max,reps,check,wall_s"
  cat "$work"/p*.csv 2>/dev/null
} >"$out"
echo "bench-smpi.sh: $out ($(grep -vc '^#' "$out") lines), $wall s" >&2
if grep -q ',optcoll[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,FAIL,' "$out"; then
  echo "bench-smpi.sh: optcoll results differ from SMPI's:" >&2
  grep ',optcoll[^,]*,.*,FAIL,' "$out" >&2
  exit 1
fi
[ "$failed" = 0 ] || exit 1
