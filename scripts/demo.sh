#!/usr/bin/env bash
# Demo: builds optcoll, prints the circulant schedule of p = 17 (Table 1 of
# Träff 2024) and verifies the schedules of every p up to 2000 exhaustively
# and of p = 2^k-1, 2^k, 2^k+1 up to 2^31-1 on sampled ranks.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
echo "== optcoll schedule -p 17"
build/optcoll schedule -p 17
echo
echo "== optcoll verify --from 1 --to 2000"
build/optcoll verify --from 1 --to 2000
echo
echo "== optcoll verify --from 1 --to 2147483647 --pow2 --sample-ranks 200"
build/optcoll verify --from 1 --to 2147483647 --pow2 --sample-ranks 200
