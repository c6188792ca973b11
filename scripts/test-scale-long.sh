#!/usr/bin/env bash
# Scale long profile: the simulator runs Bcast and Reduce at p = 2^20+1
# (exact data flow; fingerprints where p x blocks exceeds the memory
# budget), and the sampled schedule checks run at p = 2^31-1 and the powers
# of two around it. Needs about 1 GB and a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/optcoll
cmake --build build --target optcoll_cli >/dev/null
p=$((1 << 20 | 1))
for op in bcast reduce; do
  /usr/bin/time -f "$op p=$p: %e s wall, %M KB max RSS" $cli simulate $op -p $p -m 1048576 --threads 2 |
    grep -E "^(bcast|reduce|rounds|data flow)"
done
/usr/bin/time -f "verify p=2^31-1: %e s wall, %M KB max RSS" \
  $cli verify --from 2147483647 --to 2147483647 --sample-ranks 2000 --threads 2
/usr/bin/time -f "verify pow2 2^k-1..2^k+1 up to 2^31-1: %e s wall, %M KB max RSS" \
  $cli verify --from 1 --to 2147483647 --pow2 --sample-ranks 200 --threads 2
