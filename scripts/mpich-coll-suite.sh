#!/usr/bin/env bash
# mpich-coll-suite.sh: build and run MPICH's collective test suite
# (test/mpi/coll of MPICH's source) against an installed MPI, natively and,
# with --preload, under LD_PRELOAD=liboptcoll_pmpi.so with every collective
# that the drop-in intercepts forced through optcoll; report per test the
# native and the optcoll outcome and the regressions (native pass, optcoll
# not).
#
# Usage:
#   scripts/mpich-coll-suite.sh --mpich-src DIR [--mpi openmpi|mpich]
#       [--preload PATH/liboptcoll_pmpi.so] [--out results.csv]
#       [--timeout S] [-j N] [--filter REGEX] [--build-dir DIR]
#       [--no-dtp] [--large] [--heavy] [--strict-output] [--list]
#
#   --mpich-src DIR  an MPICH source tree (DIR/test/mpi/coll) or its test/mpi
#                    directory itself (DIR/coll). Needed: test/mpi/{coll,util,
#                    include,dtpools,maint}. Nothing is configured or written
#                    there; everything is built in --build-dir.
#   --mpi            openmpi (mpicc, mpiexec; default) or mpich (mpicc.mpich,
#                    mpiexec.mpich); override with --cc / --mpiexec.
#   --preload PATH   also run every test with LD_PRELOAD=PATH (a
#                    liboptcoll_pmpi.so built for this MPI), OPTCOLL_VERBOSE=1
#                    and OPTCOLL_<OP>=optcoll for all eleven OPTCOLL_<OP>
#                    variables (there is no single switch; see
#                    docs/drop-in.md). Without it only the native runs are
#                    made and the optcoll column reads "skip".
#   --out CSV        results (default: BUILD_DIR/results.csv); columns
#                    test,np,args,native,optcoll (pass|fail|timeout|skip),
#                    native_s,optcoll_s (seconds), optcoll_calls,native_calls,
#                    fallback_calls (the drop-in's routes at world rank 0,
#                    summed over operations, from its OPTCOLL_VERBOSE=1
#                    summary: 0 optcoll calls = the test never reached
#                    optcoll), note (why skipped; the testlist's other keys:
#                    timeLimit=, mem=, strict=, env=); args holds the
#                    program's arguments (the testlist's arg= values); the summary is printed and written to
#                    CSV.summary.
#   --timeout S      per run, seconds (default 60). Tests whose testlist
#                    line says timeLimit=N with N > S (the four DTPools Bcast
#                    tests of 262144 elements: 420 and 360 s) are skipped
#                    unless --heavy is given.
#   --heavy          run those too, each with its timeLimit=N (on a 2-core
#                    machine one of them takes 150 s, another over 420 s).
#   -j, --jobs N     runs at once (default 1; the machine's cores are shared,
#                    and most tests already oversubscribe them).
#   --filter REGEX   run only the tests whose "name np args" line matches
#                    (grep -E), e.g. '^(bcast|p_bcast|allred) '.
#   --no-dtp         leave out the DTPools (derived datatype) tests
#                    (testlist.dtp: bcast, bcast_comm_world_only).
#   --large          include the @largetest@ tests (gather_big, 20 GB).
#   --strict-output  pass only as runtests does: exit 0, " No Errors", and no
#                    other output line (default: exit 0 and " No Errors").
#   --list           print the test list and exit (after building).
#
# Exit status: 0 when no test regressed (or no --preload), 1 when some did,
# 2 on a usage or build error.
#
# Getting MPICH's tests. The suite is MPICH's, not ours: it is not committed
# here. Use the release that matches the MPICH under test (4.0.2 for Debian
# 12's MPICH); the harness was written against v4.0.2's test/mpi layout
# (coll/testlist.in, maint/dtp-test-config.txt, maint/gentests_dtp.sh).
#   * with network access:  curl -LO https://www.mpich.org/static/downloads/4.0.2/mpich-4.0.2.tar.gz
#                           tar xzf mpich-4.0.2.tar.gz  -> --mpich-src mpich-4.0.2
#   * from a git clone or a bare mirror of github.com/pmodels/mpich (where the
#     network is reachable only through the project's fetch of
#     github:pmodels/mpich, which leaves a bare git directory MIRROR):
#       mkdir DIR && git --git-dir=MIRROR archive v4.0.2 test/mpi | tar -x -C DIR
#       -> --mpich-src DIR   (about 20 MB; test/mpi/{coll,util,include,
#       dtpools,maint} are what is read)
#
# What is built, without MPICH's configure: a hand-made mpitestconf.h (Linux,
# POSIX threads), an mtest_mpix.h (under Open MPI 4.1 it maps MPI-4's
# MPI_<Op>_init to Open MPI's MPIX_<Op>_init from <mpi-ext.h>, so the
# persistent p_* tests build, and the drop-in intercepts both), libmtest
# (util/mtest.c, mtest_common.c, mtest_single.c, dtypes.c) and DTPools
# (dtpools/src/*.c), then every program of coll/Makefile.am that a test
# line names, with the per-program sources and -D flags of Makefile.am
# (nb* = the blocking tests with -DUSE_MTEST_NBC, ...). Tests are taken from
# coll/testlist.in (@largetest@ lines only with --large; runtests' strict=
# is ignored: the p_* tests run under Open MPI too) and from testlist.dtp,
# generated by maint/gentests_dtp.sh with configure's default types
# (MPI_INT, MPI_INT:4+MPI_DOUBLE:8). Not run: testlist.cvar (MPICH-only
# algorithm-selection CVARs of MPICH's own collectives) and testlist.gpu.
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -uo/d'; exit 2; }
die() { echo "mpich-coll-suite: $*" >&2; exit 2; }

mpi=openmpi src="" preload="" out="" timeout=60 jobs=1 filter="" build_dir=""
cc="" mpiexec="" dtp=1 large=0 heavy=0 strict_output=0 list_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --mpi=*) mpi=${1#*=}; shift ;;
    --mpich-src) src=$2; shift 2 ;;
    --mpich-src=*) src=${1#*=}; shift ;;
    --preload) preload=$2; shift 2 ;;
    --preload=*) preload=${1#*=}; shift ;;
    --out) out=$2; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    --timeout) timeout=$2; shift 2 ;;
    --timeout=*) timeout=${1#*=}; shift ;;
    -j|--jobs) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    --filter) filter=$2; shift 2 ;;
    --filter=*) filter=${1#*=}; shift ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --build-dir=*) build_dir=${1#*=}; shift ;;
    --cc) cc=$2; shift 2 ;;
    --mpiexec) mpiexec=$2; shift 2 ;;
    --no-dtp) dtp=0; shift ;;
    --large) large=1; shift ;;
    --heavy) heavy=1; shift ;;
    --strict-output) strict_output=1; shift ;;
    --list) list_only=1; shift ;;
    -h|--help) usage ;;
    *) die "unknown argument $1 (--help)" ;;
  esac
done

[ -n "$src" ] || die "--mpich-src DIR is required (--help says how to get it)"
if [ -d "$src/test/mpi/coll" ]; then T=$(cd "$src/test/mpi" && pwd)
elif [ -d "$src/coll" ] && [ -d "$src/util" ]; then T=$(cd "$src" && pwd)
else die "no test/mpi/coll under $src"; fi
for d in coll util include; do [ -d "$T/$d" ] || die "$T/$d is missing"; done
[ -f "$T/coll/testlist.in" ] || die "$T/coll/testlist.in is missing"
if [ "$dtp" = 1 ] && { [ ! -d "$T/dtpools/src" ] || [ ! -f "$T/maint/dtp-test-config.txt" ]; }; then
  echo "mpich-coll-suite: no dtpools/ or maint/dtp-test-config.txt: the DTPools tests are left out" >&2
  dtp=0
fi

mpi_env=()
case "$mpi" in
  openmpi)
    : "${cc:=mpicc}" "${mpiexec:=mpiexec}"
    mpi_env=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
      OMPI_MCA_hwloc_base_binding_policy=none OMPI_MCA_mpi_yield_when_idle=1) ;;
  mpich)
    : "${cc:=mpicc.mpich}" "${mpiexec:=mpiexec.mpich}" ;;
  *) die "--mpi must be openmpi or mpich" ;;
esac
command -v "$cc" >/dev/null || die "$cc not found"
command -v "$mpiexec" >/dev/null || die "$mpiexec not found"
if [ -n "$preload" ]; then
  [ -f "$preload" ] || die "--preload $preload: no such file"
  preload=$(cd "$(dirname "$preload")" && pwd)/$(basename "$preload")
  # A drop-in built for the other MPI would fail every run.
  needed=$(readelf -d "$preload" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
  case "$mpi:$needed" in
    openmpi:*libmpich*|mpich:*libmpi.so.4*) die "--preload $preload links $needed: not built for $mpi" ;;
  esac
fi
[[ "$timeout" =~ ^[0-9]+$ ]] || die "--timeout must be whole seconds"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer"
# Every OPTCOLL_<OP> of the drop-in (src/mpi/api/collectives.def).
optcoll_env=(OPTCOLL_BCAST=optcoll OPTCOLL_REDUCE=optcoll OPTCOLL_ALLGATHER=optcoll
  OPTCOLL_REDUCE_SCATTER=optcoll OPTCOLL_ALLREDUCE=optcoll OPTCOLL_GATHER=optcoll
  OPTCOLL_SCATTER=optcoll OPTCOLL_ALLTOALL=optcoll OPTCOLL_ALLTOALLV=optcoll
  OPTCOLL_SCAN=optcoll OPTCOLL_EXSCAN=optcoll)

: "${build_dir:=${TMPDIR:-/tmp}/mpich-coll-suite.$mpi}"
mkdir -p "$build_dir" || die "cannot create $build_dir"
B=$(cd "$build_dir" && pwd)
: "${out:=$B/results.csv}"
mkdir -p "$B/include" "$B/obj" "$B/bin" "$B/logs/build" "$B/logs/run" "$B/res"
rm -f "$B"/res/* "$B"/logs/run/*
t_start=$(date +%s)

# ---- configuration headers ---------------------------------------------------
# MPICH's headers, then what its configure would have generated.
# (Generated files are replaced only when they change, and copies keep their
# times, so that a second run rebuilds nothing.)
update() { if cmp -s "$1" "$2"; then rm -f "$1"; else mv -f "$1" "$2"; fi; }
for h in "$T"/include/*.h; do
  case "$(basename "$h")" in mpitestconf.h|mtest_mpix.h) continue ;; esac
  cmp -s "$h" "$B/include/$(basename "$h")" || cp -p "$h" "$B/include/"
done
cat >"$B/include/mpitestconf.h.new" <<'EOF'
/* Hand-made stand-in for MPICH test/mpi's configure output (Linux, gcc). */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define HAVE_STDARG_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_PTHREAD_H 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_LONG_INT 1
#define HAVE__BOOL 1
#define HAVE_FLOAT__COMPLEX 1
#define HAVE_DOUBLE__COMPLEX 1
#define HAVE_LONG_DOUBLE__COMPLEX 1
#define USE_LONG_DOUBLE_COMPLEX 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_MPI_WIN_CREATE 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#define HAVE_PTHREAD_BARRIER_INIT 1
#define SIZEOF_VOID_P 8
#endif
EOF
{
  echo '#ifndef MTEST_MPIX_H_INCLUDED'
  echo '#define MTEST_MPIX_H_INCLUDED'
  if [ "$mpi" = openmpi ]; then
    echo '/* Open MPI 4.1: MPI-4 persistent collectives are MPIX_<Op>_init (pcollreq). */'
    echo '#include <mpi-ext.h>'
    echo '#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && MPI_VERSION < 4'
    for op in Allgather Allgatherv Allreduce Alltoall Alltoallv Alltoallw Barrier Bcast \
      Exscan Gather Gatherv Reduce Reduce_scatter Reduce_scatter_block Scan Scatter Scatterv \
      Neighbor_allgather Neighbor_allgatherv Neighbor_alltoall Neighbor_alltoallv Neighbor_alltoallw; do
      echo "#define MPI_${op}_init MPIX_${op}_init"
    done
    echo '#endif'
  fi
  echo '#endif'
} >"$B/include/mtest_mpix.h.new"
update "$B/include/mpitestconf.h.new" "$B/include/mpitestconf.h"
update "$B/include/mtest_mpix.h.new" "$B/include/mtest_mpix.h"
echo "$cc $("$cc" --showme 2>/dev/null || "$cc" -show 2>/dev/null)" >"$B/include/compiler.new"
update "$B/include/compiler.new" "$B/include/compiler"
# newer_than TARGET FILES...: some FILE is newer than TARGET (or TARGET is missing).
newer_than() {
  local t=$1 f; shift
  [ -e "$t" ] || return 0
  for f in "$@"; do [ "$f" -nt "$t" ] && return 0; done
  return 1
}

# ---- libmtest and DTPools ----------------------------------------------------
cflags=(-O2 -w -I"$B/include")
build_lib() {
  local lib=$1; shift
  local objs=() f o
  for f in "$@"; do
    o="$B/obj/$(basename "${f%.c}").o"
    objs+=("$o")
    newer_than "$o" "$f" "$B"/include/* "${deps[@]}" || continue
    "$cc" "${cflags[@]}" "${libflags[@]}" -c "$f" -o "$o" >>"$B/logs/build/lib.log" 2>&1 ||
      { cat "$B/logs/build/lib.log" >&2; die "compiling $f failed"; }
  done
  if newer_than "$lib" "${objs[@]}"; then rm -f "$lib" && ar rcs "$lib" "${objs[@]}"; fi
}
: >"$B/logs/build/lib.log"
deps=()
libs=("$B/obj/libmtest.a")
if [ "$dtp" = 1 ]; then
  mkdir -p "$B/dtpools" && cp -rp "$T/dtpools/include" "$T/dtpools/src" "$B/dtpools/"
  # dtpools_internal.h includes "../dtpoolsconf.h".
  printf '#define HAVE_STDLIB_H 1\n#define HAVE_STRING_H 1\n#define HAVE_STDINT_H 1\n#define HAVE_STRDUP 1\n#define HAVE_MEMSET 1\n' \
    >"$B/dtpools/dtpoolsconf.h.new"
  update "$B/dtpools/dtpoolsconf.h.new" "$B/dtpools/dtpoolsconf.h"
  cflags+=(-I"$B/dtpools/include")
  # dtpools_custom.c calls MPI_Type_hvector / MPI_Type_hindexed, removed in
  # MPI-3 (Open MPI 4's mpi.h turns them into errors); the MPI-2 names take
  # the same arguments.
  cat >"$B/dtpools/mpi1compat.h.new" <<'EOF2'
#include <mpi.h>
#undef MPI_Type_hvector
#undef MPI_Type_hindexed
#define MPI_Type_hvector MPI_Type_create_hvector
#define MPI_Type_hindexed MPI_Type_create_hindexed
EOF2
  update "$B/dtpools/mpi1compat.h.new" "$B/dtpools/mpi1compat.h"
  libflags=(-include "$B/dtpools/mpi1compat.h")
  deps=("$B"/dtpools/*.h "$B"/dtpools/include/*.h)
  build_lib "$B/obj/libdtpools.a" "$B"/dtpools/src/*.c
  libs+=("$B/obj/libdtpools.a")
else
  cflags+=(-I"$T/dtpools/include")
fi
libflags=() deps=()
[ "$dtp" = 1 ] && deps=("$B"/dtpools/include/*.h)
build_lib "$B/obj/libmtest.a" "$T/util/mtest.c" "$T/util/mtest_common.c" "$T/util/mtest_single.c" "$T/util/dtypes.c"

# ---- the test list -------------------------------------------------------------
# One line per test: "name np key=value ...", as runtests reads it.
tl="$B/testlist.all"
: >"$tl"
disabled=()
while IFS= read -r line; do
  line=${line%%#*}
  [[ "$line" =~ ^[[:space:]]*$ ]] && continue
  if [[ "$line" =~ ^@([a-z_]+)@(.*)$ ]]; then
    if [ "${BASH_REMATCH[1]}" = largetest ] && [ "$large" = 1 ]; then line=${BASH_REMATCH[2]}
    else disabled+=("${BASH_REMATCH[2]}|@${BASH_REMATCH[1]}@ (configure-disabled)"); continue; fi
  fi
  echo "$line" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//' >>"$tl"
done <"$T/coll/testlist.in"
if [ "$dtp" = 1 ]; then
  # gentests_dtp.sh writes <dir>/testlist.dtp for every directory of the
  # config file under the current directory; the seeds run across all lines.
  g="$B/gentests" && rm -rf "$g" && mkdir -p "$g"
  (cd "$g" && for d in $(grep -v '^#' "$T/maint/dtp-test-config.txt" | cut -d: -f1 | xargs -n1 dirname | sort -u); do
      mkdir -p "$d"; done &&
    bash "$T/maint/gentests_dtp.sh" --with-dtpools-datatypes=MPI_INT,MPI_INT:4+MPI_DOUBLE:8 >"$B/logs/build/gentests.log" 2>&1) ||
    die "gentests_dtp.sh failed (logs/build/gentests.log)"
  tr -s ' \t' ' ' <"$g/coll/testlist.dtp" | sed 's/ $//' >>"$tl"
fi

# ---- programs (coll/Makefile.am) ---------------------------------------------
# name -> sources and -D flags; a program without _SOURCES is name.c.
declare -A prog_src prog_def
while IFS= read -r l; do
  if [[ "$l" =~ ^([A-Za-z0-9_]+)_SOURCES[[:space:]]*=[[:space:]]*(.*)$ ]]; then
    prog_src[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
  elif [[ "$l" =~ ^([A-Za-z0-9_]+)_CPPFLAGS[[:space:]]*=[[:space:]]*(.*)$ ]]; then
    prog_def[${BASH_REMATCH[1]}]=$(echo "${BASH_REMATCH[2]}" | sed 's/\$([A-Z_]*)//g')
  fi
done <"$T/coll/Makefile.am"
mapfile -t progs < <(cut -d' ' -f1 "$tl" | sort -u)

compile_one() {
  local p=$1 srcs=() s
  for s in ${prog_src[$p]:-$p.c}; do srcs+=("$T/coll/$s"); done
  newer_than "$B/bin/$p" "${srcs[@]}" "${libs[@]}" "$B"/include/* "$T/coll/Makefile.am" || return 0
  # shellcheck disable=SC2086
  if "$cc" "${cflags[@]}" ${prog_def[$p]:-} "${srcs[@]}" "${libs[@]}" -lm -o "$B/bin/$p" \
      >"$B/logs/build/$p.log" 2>&1; then echo ok >"$B/logs/build/$p.status"
  else rm -f "$B/bin/$p"; echo failed >"$B/logs/build/$p.status"; fi
}
for p in "${progs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  compile_one "$p" &
done
wait
built=() broken=()
for p in "${progs[@]}"; do
  if [ -x "$B/bin/$p" ]; then built+=("$p"); else broken+=("$p"); fi
done
t_built=$(date +%s)
echo >&2 "mpich-coll-suite: $mpi: built ${#built[@]} of ${#progs[@]} programs in $((t_built - t_start)) s${broken:+; failed to compile: ${broken[*]}}"
for p in "${broken[@]}"; do
  echo >&2 "  $p: $(grep -m1 -E 'error|undefined reference' "$B/logs/build/$p.log" | cut -c1-200)"
done

if [ -n "$filter" ]; then
  grep -E -- "$filter" "$tl" >"$tl.run" || true
else cp "$tl" "$tl.run"; fi
if [ "$list_only" = 1 ]; then cat "$tl.run"; exit 0; fi

# ---- running -----------------------------------------------------------------
# run_one IDX MODE NAME NP OPTS...: writes res/IDX.MODE = "status seconds".
run_one() {
  local idx=$1 mode=$2 name=$3 np=$4; shift 4
  local args=() envs=() lim=$timeout kv
  for kv in "$@"; do
    case "$kv" in
      arg=*) args+=("${kv#arg=}") ;;
      env=*) envs+=("${kv#env=}") ;;
      timeLimit=*) [ "${kv#timeLimit=}" -gt "$lim" ] 2>/dev/null && lim=${kv#timeLimit=} ;;
    esac
  done
  # stdout and stderr apart: the drop-in's OPTCOLL_VERBOSE=1 summary (rank
  # 0's routes per operation, on stderr) must not run into " No Errors".
  local log="$B/logs/run/$idx.$name.np$np.$mode" status rc t0 t1 calls=""
  local extra=()
  [ "$mode" = optcoll ] && extra=(LD_PRELOAD="$preload" OPTCOLL_VERBOSE=1 "${optcoll_env[@]}")
  t0=$(date +%s.%N)
  (cd "$B/bin" && exec env "${mpi_env[@]}" "${envs[@]}" "${extra[@]}" \
    timeout -k 10 "$lim" "$mpiexec" -n "$np" "./$name" "${args[@]}") >"$log.out" 2>"$log.err" </dev/null
  rc=$?
  t1=$(date +%s.%N)
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then status=timeout
  elif [ "$rc" = 0 ] && grep -qE '^[[:space:]]*No [Ee]rrors[[:space:]]*$' "$log.out" &&
    { [ "$strict_output" = 0 ] ||
      ! cat "$log.out" "$log.err" | grep -vE '^optcoll: rank 0 calls:' |
        grep -qvE '^[[:space:]]*(No [Ee]rrors|Test Passed)[[:space:]]*$'; }; then
    status=pass
  else status=fail; fi
  echo "rc=$rc lim=$lim" >>"$log.err"
  # Rank 0's calls by route, summed over the operations.
  [ "$mode" = optcoll ] && calls=$(grep -h '^optcoll: rank 0 calls:' "$log.err" | tr ' ;' '\n\n' |
    awk -F= '$1 ~ /^(optcoll|native|fallback)$/ { n[$1] += $2; seen = 1 }
      END { if (seen) printf "%d %d %d", n["optcoll"], n["native"], n["fallback"] }')
  awk -v s="$status" -v a="$t0" -v b="$t1" -v c="$calls" 'BEGIN { printf "%s %.1f %s\n", s, b - a, c }' >"$B/res/$idx.$mode"
}

modes=(native)
[ -n "$preload" ] && modes+=(optcoll)
mapfile -t lines <"$tl.run"
for i in "${!lines[@]}"; do
  read -r -a f <<<"${lines[$i]}"
  name=${f[0]}
  [ -x "$B/bin/$name" ] || continue
  tlim=$(printf '%s\n' "${f[@]}" | sed -n 's/^timeLimit=\([0-9]*\)$/\1/p' | head -1)
  if [ -n "$tlim" ] && [ "$tlim" -gt "$timeout" ] && [ "$heavy" = 0 ]; then
    echo "heavy: timeLimit=$tlim > --timeout $timeout (--heavy runs it)" >"$B/res/$i.note"
    continue
  fi
  for m in "${modes[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run_one "$i" "$m" "${f[@]}" &
  done
done
wait
t_end=$(date +%s)

# ---- report ----------------------------------------------------------------------
# split_opts KEY=VALUE...: sets pargs (the program's arguments, from arg=)
# and popts (the other testlist keys: timeLimit=, mem=, strict=, env=, ...).
split_opts() {
  local kv a=() o=()
  for kv in "$@"; do case "$kv" in arg=*) a+=("${kv#arg=}") ;; *) o+=("$kv") ;; esac; done
  pargs="${a[*]:-}" popts="${o[*]:-}"
}
csv_field() { case "$1" in *[,\"]*) printf '"%s"' "${1//\"/\"\"}" ;; *) printf '%s' "$1" ;; esac; }
{
  echo "test,np,args,native,optcoll,native_s,optcoll_s,optcoll_calls,native_calls,fallback_calls,note"
  for i in "${!lines[@]}"; do
    read -r -a f <<<"${lines[$i]}"
    name=${f[0]} np=${f[1]:-1}
    split_opts "${f[@]:2}"
    nat=skip ops=skip nt="" ot="" oc="" nc="" fc="" note=$popts
    if [ ! -x "$B/bin/$name" ]; then note="compile failed (logs/build/$name.log)${note:+; $note}"
    else
      [ -f "$B/res/$i.native" ] && read -r nat nt <"$B/res/$i.native"
      [ -f "$B/res/$i.optcoll" ] && read -r ops ot oc nc fc <"$B/res/$i.optcoll"
      [ -f "$B/res/$i.note" ] && note="$(cat "$B/res/$i.note")${note:+; $note}"
    fi
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$name" "$np" "$(csv_field "$pargs")" "$nat" "$ops" "$nt" "$ot" \
      "$oc" "$nc" "$fc" "$(csv_field "$note")"
  done
  for d in "${disabled[@]}"; do
    read -r -a f <<<"${d%%|*}"
    split_opts "${f[@]:2}"
    printf '%s,%s,%s,skip,skip,,,,,,%s\n' "${f[0]}" "${f[1]:-1}" "$(csv_field "$pargs")" \
      "$(csv_field "${d#*|}${popts:+; $popts}")"
  done
} >"$out"

# rows CONDITION: "name np=N args (status)" of the CSV rows where the Python
# expression CONDITION (over the columns) holds.
rows() {
  python3 - "$out" "$1" <<'EOF'
import csv, sys
bad = ("fail", "timeout")
for r in csv.DictReader(open(sys.argv[1])):
    if eval(sys.argv[2], {"bad": bad}, dict(r)):
        st = r["optcoll"] if "optcoll in bad" in sys.argv[2] else r["native"]
        print(f'{r["test"]} np={r["np"]}{" " + r["args"] if r["args"] else ""} ({st})')
EOF
}
total=$(rows 'True' | wc -l)
ran=$(rows 'native != "skip"' | wc -l)
npass=$(rows 'native == "pass"' | wc -l)
opass=$(rows 'optcoll == "pass"' | wc -l)
join() { local first=1 x; for x in "$@"; do [ $first = 1 ] || printf '; '; printf '%s' "$x"; first=0; done; }
mapfile -t regress < <(rows 'native == "pass" and optcoll in bad')
mapfile -t nfail < <(rows 'native in bad')
{
  echo "mpich-coll-suite: $mpi, $("$mpiexec" --version 2>&1 | head -1)"
  echo "tests: $total listed, $ran run, $((total - ran)) skipped; programs built: ${#built[@]}/${#progs[@]}"
  echo "native passes: $npass/$ran${nfail:+; native failures: $(join "${nfail[@]}")}"
  if [ -n "$preload" ]; then
    echo "optcoll passes: $opass/$ran (LD_PRELOAD=$preload)"
    echo "regressions (native pass, optcoll fail/timeout): ${#regress[@]}${regress:+: }$(join "${regress[@]}")"
  else
    echo "optcoll: not run (no --preload)"
  fi
  echo "time: $((t_end - t_start)) s (build $((t_built - t_start)) s, runs $((t_end - t_built)) s, -j $jobs); csv: $out; logs: $B/logs"
} | tee "$out.summary"
[ -n "$preload" ] && [ "${#regress[@]}" -gt 0 ] && exit 1
exit 0
