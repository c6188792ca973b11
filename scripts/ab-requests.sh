#!/usr/bin/env bash
# Two builds of bench/mpi_requests against each other (persistent mode), in
# one session: runs A, B, A, B, ... (R times each) at NP ranks, then writes
# per build and size the medians over the runs of native, optcoll blocking
# and optcoll persistent, and the ranges of optcoll / native over the runs
# (the native call is the common yardstick: machine noise between runs
# moves both). CSV with the machine's metadata (bench/results/ format).
#
#   scripts/ab-requests.sh --a DIR --b DIR [--names A,B] [--np N] [--runs R] [--max BYTES] [--reps K] --out FILE
set -euo pipefail
cd "$(dirname "$0")/.."
cmdline="$*"
a="" b="" names="a,b" np=8 runs=5 max=128 reps=201 out=""
while [ $# -gt 0 ]; do
  case $1 in
    --a) a=$2; shift 2 ;;
    --b) b=$2; shift 2 ;;
    --names) names=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 --a DIR --b DIR [--names A,B] [--np N] [--runs R] [--max BYTES] [--reps K] --out FILE" >&2; exit 2 ;;
  esac
done
[ -n "$a" ] && [ -n "$b" ] && [ -n "$out" ] || { echo "$0: --a, --b and --out are needed" >&2; exit 2; }
for d in "$a" "$b"; do [ -x "$d/mpi_requests" ] || { echo "$0: no $d/mpi_requests" >&2; exit 2; }; done
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$runs"); do
  for side in a b; do
    dir=$a; [ $side = b ] && dir=$b
    mpiexec --oversubscribe -n "$np" "$dir/mpi_requests" --max "$max" --reps "$reps" --out "$work/$side.$i.csv" >/dev/null
  done
done
python3 - "$work" "$runs" "$names" "$out" "$np" "$load" "$cmdline" <<'EOF'
import csv, statistics as st, sys, os, subprocess, datetime
work, runs, names, out, np, load, cmdline = sys.argv[1:]
names = names.split(",")
meta = {}
rows = []
for side, name in zip("ab", names):
    data = {}
    for i in range(1, int(runs) + 1):
        lines = open(f"{work}/{side}.{i}.csv").read().splitlines()
        for l in lines:
            if l.startswith("# ") and ":" in l:
                k, v = l[2:].split(":", 1)
                meta.setdefault(k.strip(), v.strip())
        for r in csv.DictReader(l for l in lines if not l.startswith("#")):
            data.setdefault((r["op"], int(r["bytes"])), []).append(
                (float(r["native_us"]), float(r["optcoll_us"]), float(r["optcoll_persistent_us"])))
    for (op, b), v in data.items():
        blk = [x[1] / x[0] for x in v]
        per = [x[2] / x[0] for x in v]
        rows.append([op, b, name, st.median(x[0] for x in v), st.median(x[1] for x in v),
                     st.median(x[2] for x in v), st.median(blk), f"{min(blk):.2f}..{max(blk):.2f}",
                     st.median(per), f"{min(per):.2f}..{max(per):.2f}"])
rows.sort(key=lambda r: (r[0] != "bcast", r[1], names.index(r[2])))
with open(out, "w") as f:
    f.write(f"# title: optcoll blocking and persistent against native, two builds alternating ({names[0]}, {names[1]})\n")
    f.write(f"# date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}\n")
    for k in ("machine", "mpi"):
        if k in meta: f.write(f"# {k}: {meta[k]}\n")
    f.write(f"# load_at_start: {load} (1, 5, 15 min)\n")
    f.write(f"# ranks: {np}\n")
    f.write(f"# command: scripts/ab-requests.sh {cmdline}\n")
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["op", "bytes", "build", "native_us", "optcoll_us", "optcoll_persistent_us", "blocking_over_native",
                "blocking_range", "persistent_over_native", "persistent_range"])
    for r in rows:
        w.writerow([r[0], r[1], r[2]] + [f"{x:.4g}" for x in r[3:6]] + [f"{r[6]:.3f}", r[7], f"{r[8]:.3f}", r[9]])
EOF
echo "wrote $out"
