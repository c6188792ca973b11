#!/usr/bin/env bash
# The drop-in test of liboptcoll_pmpi.so (one CTest entry per MPI and rank
# count): runs an unmodified MPI program (plain_collectives.c, built against
# plain MPI only) without the library, then under LD_PRELOAD with every
# policy, and linked against the library; each run must print exactly the
# same results, and the OPTCOLL_VERBOSE=1 summary must count what the
# program did:
#   forced optcoll (keyword or algorithm name): optcoll = moving calls,
#     native = trivial calls (p = 1 or no payload);
#   native: native = moving + trivial;
#   auto: optcoll + native = moving + trivial;
#   always fallback = intercommunicator + invalid + unsupported calls
#   (the last: datatypes optcoll does not take, unsupported_types.c).
#
#   run_pmpi_test.sh <mpiexec> <np> <libdir with liboptcoll_pmpi.so> <plain program> <linked program>
set -euo pipefail
mpiexec=$1 np=$2 lib=$3/liboptcoll_pmpi.so plain=$4 linked=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

run() {  # run <name> <program> [VAR=value...]: stdout to $work/<name>.out, stderr to .err
  local name=$1 prog=$2
  shift 2
  if ! env "$@" "$mpiexec" -n "$np" "$prog" >"$work/$name.out" 2>"$work/$name.err"; then
    echo "FAIL $name: exit code"; cat "$work/$name.err"; failures=$((failures + 1)); return 1
  fi
}

# The program's own count of one kind of call: calls <op> <kind> (0 if the
# program does not count that kind).
expected() {
  local n
  n=$(sed -n "s/^calls $1 .*\b$2=\([0-9]*\).*/\1/p" "$work/base.out")
  echo "${n:-0}"
}
# The library's count: counted <name> <op> <path>.
counted() { sed -n "s/^optcoll: rank 0 calls:.*$2 [^;]*\b$3=\([0-9]*\).*/\1/p" "$work/$1.err"; }

check() {  # check <name> <policy: optcoll|native|auto>
  local name=$1 policy=$2 op
  if ! diff -u "$work/base.out" "$work/$name.out"; then
    echo "FAIL $name: results differ from the run without optcoll"; failures=$((failures + 1)); return
  fi
  for op in $(sed -n 's/^calls \(MPI_[A-Za-z_]*\) .*/\1/p' "$work/base.out"); do
    local moving trivial bad o n f
    moving=$(expected "$op" moving) trivial=$(expected "$op" trivial)
    bad=$(($(expected "$op" inter) + $(expected "$op" invalid) + $(expected "$op" unsupported)))
    o=$(counted "$name" "$op" optcoll) n=$(counted "$name" "$op" native) f=$(counted "$name" "$op" fallback)
    local ok=1
    [ -n "$o" ] && [ -n "$n" ] && [ -n "$f" ] || ok=0
    if [ $ok = 1 ]; then
      [ "$f" = "$bad" ] || ok=0
      case $policy in
        optcoll) [ "$o" = "$moving" ] && [ "$n" = "$trivial" ] || ok=0 ;;
        native) [ "$o" = 0 ] && [ "$n" = $((moving + trivial)) ] || ok=0 ;;
        auto) [ $((o + n)) = $((moving + trivial)) ] || ok=0 ;;
      esac
    fi
    if [ $ok = 1 ]; then
      echo "ok   $name $op: optcoll=$o native=$n fallback=$f"
    else
      echo "FAIL $name $op ($policy): counted optcoll=$o native=$n fallback=$f;" \
        "the program made moving=$moving trivial=$trivial inter+invalid+unsupported=$bad"
      grep '^optcoll' "$work/$name.err" || true
      failures=$((failures + 1))
    fi
  done
}

run base "$plain"
cat "$work/base.out"
pre=(LD_PRELOAD="$lib" OPTCOLL_VERBOSE=1)
all=(OPTCOLL_BCAST=optcoll OPTCOLL_REDUCE=optcoll OPTCOLL_ALLGATHER=optcoll OPTCOLL_REDUCE_SCATTER=optcoll
  OPTCOLL_ALLREDUCE=optcoll OPTCOLL_GATHER=optcoll OPTCOLL_SCATTER=optcoll OPTCOLL_ALLTOALL=optcoll
  OPTCOLL_ALLTOALLV=optcoll OPTCOLL_SCAN=optcoll OPTCOLL_EXSCAN=optcoll)
run forced "$plain" "${pre[@]}" "${all[@]}" && check forced optcoll
# (and MPI_Init_thread instead of MPI_Init)
run named "$plain" "${pre[@]}" OPTCOLL_BCAST=binomial OPTCOLL_REDUCE=binomial_ordered OPTCOLL_ALLGATHER=circulant \
  OPTCOLL_REDUCE_SCATTER=ordered OPTCOLL_ALLREDUCE=dissemination OPTCOLL_GATHER=binomial OPTCOLL_SCATTER=two \
  OPTCOLL_ALLTOALL=bruck OPTCOLL_ALLTOALLV=shift OPTCOLL_SCAN=pipeline OPTCOLL_EXSCAN=pipeline PLAIN_MPI_INIT_THREAD=1 &&
  check named optcoll
run native "$plain" "${pre[@]}" OPTCOLL_BCAST=native OPTCOLL_REDUCE=native OPTCOLL_ALLGATHER=native \
  OPTCOLL_REDUCE_SCATTER=native OPTCOLL_ALLREDUCE=native OPTCOLL_GATHER=native OPTCOLL_SCATTER=native \
  OPTCOLL_ALLTOALL=native OPTCOLL_ALLTOALLV=native OPTCOLL_SCAN=native OPTCOLL_EXSCAN=native && check native native
run auto "$plain" "${pre[@]}" && check auto auto
# A tuning file: optcoll wins every bcast, loses every reduce.
printf 'bcast 2 8 10 1\nreduce 2 8 1 10\n' >"$work/tuning"
if run tuned "$plain" "${pre[@]}" OPTCOLL_TUNING_FILE="$work/tuning"; then
  check tuned auto
  o=$(counted tuned MPI_Bcast optcoll) r=$(counted tuned MPI_Reduce optcoll)
  if [ "$o" != "$(expected MPI_Bcast moving)" ] || [ "$r" != 0 ]; then
    echo "FAIL tuned: the tuning file was not followed (bcast optcoll=$o, reduce optcoll=$r)"
    failures=$((failures + 1))
  fi
fi
run linked "$linked" OPTCOLL_VERBOSE=1 "${all[@]}" && check linked optcoll

[ "$failures" = 0 ] && echo "all runs agree" && exit 0
echo "$failures failure(s)"
exit 1
