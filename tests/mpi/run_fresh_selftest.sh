#!/usr/bin/env bash
# The differential driver's fresh-seed self-test (CTest
# mpi_differential_selftest_fresh):
#   run_fresh_selftest.sh MPIEXEC PROGRAM
# A run with a fresh seed whose call 7 is corrupted (--inject-fault 7) must
# print the seed first, report the mismatch with that seed, fail, and end
# with the command that repeats the run (mpiexec may add its own lines); that command (plus the same fault)
# must draw the same calls: the same mismatch lines, the same failure. A
# fresh seed whose call 7 has nothing to corrupt (an empty result) passes;
# then another seed is drawn.
set -uo pipefail
mpiexec=$1
program=$2
args=(--calls 12 --inject-fault 7)
fail() {
  echo "run_fresh_selftest: $1"
  exit 1
}
for attempt in 1 2 3 4 5; do
  out=$("$mpiexec" -n 2 "$program" --seed fresh "${args[@]}" 2>&1)
  rc=$?
  # (stdout's first line; the ranks' stderr may come in between)
  first=$(grep -m 1 '^differential: seed=' <<<"$out")
  seed=$(sed -n 's/^differential: seed=\([0-9][0-9]*\) (fresh) .*/\1/p' <<<"$first")
  [ -n "$seed" ] || fail "no fresh seed printed: $out"
  if [ "$rc" -eq 0 ]; then
    echo "seed $seed: call 7 had nothing to corrupt; another seed"
    continue
  fi
  mismatches=$(grep '^differential: MISMATCH ' <<<"$out" | sort)
  [ -n "$mismatches" ] || fail "seed $seed failed (exit $rc) without a MISMATCH line: $out"
  grep -qv "^differential: MISMATCH seed=$seed call=7: " <<<"$mismatches" &&
    fail "a mismatch line without seed $seed and call 7: $mismatches"
  last=$(grep '^differential: FAILED; repeat with: ' <<<"$out" | tail -n 1)
  repeat=${last#differential: FAILED; repeat with: mpiexec -n 2 }
  [ -n "$last" ] && [ "$repeat" != "$last" ] || fail "no repeat command at the end: $out"
  read -r -a words <<<"$repeat"
  [ "${words[0]}" = "$program" ] && [ "${words[1]}" = --seed ] && [ "${words[2]}" = "$seed" ] ||
    fail "the repeat command does not name the program and seed $seed: $repeat"
  again=$("$mpiexec" -n 2 "${words[@]}" --inject-fault 7 2>&1)
  rc2=$?
  [ "$rc2" -eq "$rc" ] || fail "the repeat command exited with $rc2, the fresh run with $rc"
  [ "$(grep '^differential: MISMATCH ' <<<"$again" | sort)" = "$mismatches" ] ||
    fail "the repeat command reported other mismatches: $again"
  echo "seed $seed: the fresh run and its repeat command report the same mismatch"
  exit 0
done
fail "5 fresh seeds without anything to corrupt in call 7"
