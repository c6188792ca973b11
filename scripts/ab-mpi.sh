#!/usr/bin/env bash
# One MPI benchmark program, R runs at NP ranks, merged: per build and row
# (op, dist, impl, p, bytes) the medians over the runs of every measured
# column and, for each optcoll time column (optcoll*_us), the median and
# range over the runs of its ratio to the run's native time (the native
# call is the common yardstick: machine noise between runs moves both). The
# ratio columns are <name>_over_native and <name>_range, <name> = blocking
# for optcoll_us, else the column's name without optcoll_ and _us
# (persistent). With two builds (--b) the runs alternate A, B, A, B, ...
# CSV with the machine's metadata (bench/results/ format).
#
#   scripts/ab-mpi.sh --a DIR [--b DIR] [--program NAME] [--args "ARGS"] [--names A,B] [--np N] [--runs R]
#                     [--launch "MPIEXEC ARGS"] [--note TEXT] --out FILE
#   scripts/ab-mpi.sh --from DIR [--names A,B] [--note TEXT] --out FILE   # merge DIR/{a,b}.<i>.csv of earlier runs
#
# --program defaults to mpi_requests (persistent mode; --max/--reps of the
# old interface are passed through to it), --launch to --oversubscribe.
set -euo pipefail
cd "$(dirname "$0")/.."
cmdline=""
for x in "$@"; do case $x in *[[:space:]]*) cmdline+=" \"$x\"" ;; *) cmdline+=" $x" ;; esac; done
a="" b="" names="a,b" np=8 runs=5 out="" program=mpi_requests args="" launch="--oversubscribe" from=""
max="" reps="" note=""
usage="usage: $0 --a DIR --b DIR [--program NAME] [--args \"ARGS\"] [--names A,B] [--np N] [--runs R] [--launch \"ARGS\"] --out FILE | --from DIR --out FILE"
while [ $# -gt 0 ]; do
  case $1 in
    --a) a=$2; shift 2 ;;
    --b) b=$2; shift 2 ;;
    --names) names=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --program) program=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    --launch) launch=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --note) note=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "$0: --out is needed" >&2; exit 2; }
[ -n "$max" ] && args+=" --max $max"
[ -n "$reps" ] && args+=" --reps $reps"
load=""
if [ -z "$from" ]; then
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  [ -n "$a" ] || { echo "$0: --a is needed" >&2; exit 2; }
  sides="a"
  [ -n "$b" ] && sides="a b"
  for d in "$a" $b; do [ -x "$d/$program" ] || { echo "$0: no $d/$program" >&2; exit 2; }; done
  export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
  from=$(mktemp -d)
  trap 'rm -rf "$from"' EXIT
  for i in $(seq "$runs"); do
    for side in $sides; do
      dir=$a; [ $side = b ] && dir=$b
      # shellcheck disable=SC2086
      mpiexec $launch -n "$np" "$dir/$program" $args --out "$from/$side.$i.csv" >/dev/null
    done
  done
fi
python3 - "$from" "$names" "$out" "$load" "$cmdline" "$note" <<'PY'
import csv, datetime, glob, statistics as st, sys
src, names, out, load, cmdline, note = sys.argv[1:]
names = names.split(",")
meta, rows, header = {}, [], None
sides = [x for x in "ab" if glob.glob(f"{src}/{x}.*.csv")]
if not sides:
    sys.exit(f"ab-mpi.sh: no a.<i>.csv in {src}")
for side, name in zip(sides, names):
    data = {}
    files = sorted(glob.glob(f"{src}/{side}.*.csv"))
    for f in files:
        lines = open(f).read().splitlines()
        for l in lines:
            if l.startswith("# ") and ":" in l:
                k, v = l[2:].split(":", 1)
                meta.setdefault(k.strip(), v.strip())
        for r in csv.DictReader(l for l in lines if not l.startswith("#")):
            key = (r["op"], r.get("dist", ""), r.get("impl", ""), int(r["p"]), int(r["bytes"]))
            data.setdefault(key, []).append(r)
    for key, rs in data.items():
        cells = {"op": key[0], "dist": key[1], "impl": key[2], "p": key[3], "bytes": key[4], "build": name}
        # (the program's own ratios are left out: the ratios below are per run)
        values = [c for c in rs[0] if c not in cells and c not in ("algorithm", "blocks") and rs[0][c] != ""
                  and "_over_" not in c]
        for c in values:  # every measured column: its median over the runs
            try:
                cells[c] = f"{st.median(float(r[c]) for r in rs):.4g}"
            except ValueError:
                cells[c] = rs[0][c]
        label = lambda c: "blocking" if c == "optcoll_us" else c[len("optcoll_"):-3]
        for c in [c for c in values if c.startswith("optcoll") and c.endswith("_us") and "native_us" in rs[0]]:
            q = [float(r[c]) / float(r["native_us"]) for r in rs]
            cells[f"{label(c)}_over_native"] = f"{st.median(q):.3f}"
            cells[f"{label(c)}_range"] = f"{min(q):.2f}..{max(q):.2f}"
        for c in ("algorithm", "blocks"):
            if c in rs[0]:
                cells[c] = rs[0][c]
        rows.append(cells)
        if header is None:
            header = [k for k in cells if k not in ("dist", "impl") or cells[k]]
rows.sort(key=lambda r: (r["op"] != "bcast", r["op"], r["dist"], r["p"], r["bytes"], r["impl"], names.index(r["build"])))
with open(out, "w") as f:
    runs = len(glob.glob(f"{src}/a.*.csv"))
    if len(sides) == 2:
        f.write(f"# title: optcoll against native, two builds or settings alternating ({names[0]}, {names[1]}), {runs} runs each\n")
    else:
        f.write(f"# title: optcoll against native, {runs} runs\n")
    now = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
    f.write(f"# date: {meta.get('date', now) if not load else now}\n")
    for k in ("machine", "mpi"):
        if k in meta: f.write(f"# {k}: {meta[k]}\n")
    f.write(f"# load_at_start: {load + ' (1, 5, 15 min)' if load else meta.get('load_at_start', '')}\n")
    if "ranks" in meta: f.write(f"# ranks: {meta['ranks']}\n")
    f.write(f"# command: scripts/ab-mpi.sh {cmdline.strip()}\n")
    if note: f.write(f"# note: {note}\n")
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow([r.get(k, "") for k in header])
PY
echo "wrote $out"
