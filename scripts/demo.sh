#!/usr/bin/env bash
# The demo (README command 1), from a fresh clone on Debian 12:
#  1. installs what is missing (scripts/deps.sh) and builds what the demo
#     needs: the optcoll CLI, optcoll-tune and liboptcoll_pmpi.so;
#  2. prints the circulant schedule of p = 17 (Table 1 of Träff 2024) and
#     verifies the schedules of every p <= 2000 and of sampled p up to 2^31-1;
#  3. runs every collective optcoll implements on 8 local ranks, optcoll
#     against the native MPI call (Open MPI): checks that the results are
#     equal, prints op, bytes, native us, optcoll us and their ratio;
#  4. runs an unmodified MPI program with LD_PRELOAD=liboptcoll_pmpi.so and
#     without, compares the output and shows the library's call summary;
#  5. writes demo-report/index.html (self-contained: SVG plots of time
#     against size per operation, the p = 17 schedule).
# About 2-4 minutes on a 2-core machine (most of it the build).
#   DEMO_NP=8 DEMO_MAX_BYTES=2097152 DEMO_REPS=7 scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
np=${DEMO_NP:-8}
max_bytes=${DEMO_MAX_BYTES:-2097152}
reps=${DEMO_REPS:-7}
start=$SECONDS
step() { printf '\n== [%d:%02d] %s\n' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)) "$*"; }

# Open MPI refuses to run as root and to oversubscribe unless told (CI runs
# as root on 2 cores); no cross-memory attach (often forbidden in containers).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none

step "1/5 dependencies and build (only the demo's targets)"
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPTCOLL_WARNINGS_AS_ERRORS=ON >/dev/null
# Ninja's [done/total] lines are the progress.
log=build/demo-build.log
if ! cmake --build build --parallel "$(nproc)" --target optcoll_cli optcoll_tune optcoll_pmpi optcoll_pmpi_plain 2>&1 |
  tee "$log" | awk '/^\[[0-9]+\/[0-9]+\]/ { printf "\r  building %s", $1; fflush() } END { print "" }'; then
  echo "build failed; the end of $log:"
  tail -40 "$log"
  exit 1
fi

step "2/5 the circulant schedule of p = 17, and the verifier"
build/optcoll schedule -p 17
build/optcoll verify --from 1 --to 2000
build/optcoll verify --from 1 --to 2147483647 --pow2 --sample-ranks 200

step "3/5 optcoll against native MPI on $np ranks (results checked; native/optcoll > 1: optcoll faster)"
mkdir -p demo-report
mpiexec -n "$np" build/optcoll-tune --check --max-bytes "$max_bytes" --reps "$reps" \
  --csv demo-report/results.csv -o demo-report/tuning.txt

step "4/5 drop-in: an unmodified MPI program, without and with LD_PRELOAD=build/liboptcoll_pmpi.so"
mpiexec -n 7 build/optcoll_pmpi_plain >demo-report/plain-native.txt
LD_PRELOAD="$PWD/build/liboptcoll_pmpi.so" OPTCOLL_VERBOSE=1 OPTCOLL_BCAST=optcoll OPTCOLL_REDUCE=optcoll \
  OPTCOLL_ALLGATHER=optcoll OPTCOLL_REDUCE_SCATTER=optcoll OPTCOLL_ALLREDUCE=optcoll OPTCOLL_GATHER=optcoll \
  OPTCOLL_SCATTER=optcoll OPTCOLL_ALLTOALL=optcoll OPTCOLL_ALLTOALLV=optcoll OPTCOLL_SCAN=optcoll OPTCOLL_EXSCAN=optcoll \
  mpiexec -n 7 build/optcoll_pmpi_plain >demo-report/plain-optcoll.txt
if cmp -s demo-report/plain-native.txt demo-report/plain-optcoll.txt; then
  echo "  same output with and without the library ($(grep -c digest demo-report/plain-native.txt) rank digests)"
else
  echo "  OUTPUT DIFFERS:"; diff demo-report/plain-native.txt demo-report/plain-optcoll.txt; exit 1
fi

step "5/5 report"
mpi=$(mpiexec --version 2>/dev/null | head -1)
build/optcoll report --results demo-report/results.csv -o demo-report/index.html --schedule-p 17 \
  --note "$(nproc) cores, $np ranks, $mpi, load average $(cut -d' ' -f1-3 /proc/loadavg); scripts/demo.sh on $(date -u +%F)"
echo "  wrote demo-report/index.html (and results.csv, tuning.txt: OPTCOLL_TUNING_FILE=demo-report/tuning.txt)"
step "done"
