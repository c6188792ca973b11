#!/usr/bin/env bash
# libFuzzer (clang 14) with ASan and UBSan: builds fuzz/ into ./build-fuzz
# and runs each target for a bounded time on its committed corpus
# (fuzz/corpus/<target>). New interesting inputs go to a scratch directory;
# --update-corpus merges them into the committed corpus (minimised).
#   scripts/fuzz.sh                     # every target, FUZZ_SECONDS (default 25) each
#   scripts/fuzz.sh schedule            # one target
#   FUZZ_SECONDS=600 scripts/fuzz.sh --update-corpus
# A crash leaves the input in build-fuzz/artifacts/ and fails the script;
# reproduce with build-fuzz/fuzz/fuzz_<target> <file>.
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
targets=()
for a in "$@"; do
  if [ "$a" = --update-corpus ]; then update=1; else targets+=("$a"); fi
done
[ ${#targets[@]} -eq 0 ] && targets=(schedule trees plan)
seconds=${FUZZ_SECONDS:-25}
command -v clang++-14 >/dev/null || { echo "fuzz.sh: clang++-14 is needed (apt-get install clang-14)"; exit 1; }
source scripts/ccache.sh
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# Warnings are gcc's business (the main build); clang's differ.
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DOPTCOLL_FUZZ=ON -DOPTCOLL_BUILD_TESTS=OFF -DOPTCOLL_BUILD_BENCH=OFF -DOPTCOLL_MPI=OFF \
  -DOPTCOLL_WARNINGS_AS_ERRORS=OFF -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" >/dev/null
cmake --build build-fuzz --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  corpus=fuzz/corpus/$t
  scratch=build-fuzz/new-corpus/$t
  mkdir -p "$corpus" "$scratch"
  # Inputs beyond what a target consumes only bloat the corpus.
  case $t in schedule) max_len=48 ;; plan) max_len=160 ;; *) max_len=512 ;; esac
  echo "fuzz_$t: ${seconds} s on $(ls "$corpus" | wc -l) corpus inputs"
  build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -max_len=$max_len -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix=build-fuzz/artifacts/"$t"- "$scratch" "$corpus" 2>&1 | grep -E "^(stat::number_of_executed_units|stat::new_units_added|==|fuzz invariant|SUMMARY|#[0-9]+ +DONE)|ERROR|runtime error" || true
  if ls build-fuzz/artifacts/"$t"-* >/dev/null 2>&1; then
    echo "fuzz_$t: FAILED, inputs in build-fuzz/artifacts/"
    exit 1
  fi
  if [ $update -eq 1 ]; then
    build-fuzz/fuzz/fuzz_"$t" -merge=1 -max_len=$max_len "$corpus" "$scratch" >/dev/null 2>&1
    echo "fuzz_$t: corpus now $(ls "$corpus" | wc -l) inputs"
  fi
done
echo "fuzz: clean"
