#!/usr/bin/env python3
"""Merges the multi-core-node SMPI rows (scripts/bench-smpi-nodes.sh) into
bench/results/smpi-nodes.csv (every row, with its build and the two-level
bound) and bench/results/smpi-nodes-summary.csv (one row per platform,
operation, size and optcoll build: optcoll, the fastest selector, the
fastest node-aware classic, the bound, the ratios).

    scripts/smpi-nodes-report.py [--work build-smpi/results/nodes] [--cfg "SMPIRUN OPTIONS"]

docs/benchmarks/smpi-nodes.md renders the summary
(scripts/render-benchmarks.py). Standard library only.

The two-level bound (bound_us) of an operation on N nodes of K ranks, m
bytes (the whole vector), on the platforms of bench/smpi/platforms
(crossbar-NxK, fattree-32x32):

    bound = V / B + ceil(log2 N) * a_inter + ceil(log2 K) * a_intra

  V: the bytes one node's port must carry in one direction:
     Bcast, Reduce: m (every node but the root's receives, or sends, the
       whole vector, reduced within the node);
     Allgather, Reduce_scatter_block: (N - 1) / N * m (a node receives the
       other nodes' parts, or sends its contributions to them);
     Allreduce: 2 (N - 1) / N * m (a reduce-scatter and an allgather
       between nodes);
     Gather, Scatter: (N - 1) / N * m, m all ranks' blocks (the root's
       node receives, or sends, every other node's);
     Scan, Exscan: m (every node but the first receives the combination of
       the nodes before it, the whole vector).
  B = 12.5 GB/s, a node's port;
  a_inter = 2 us + 2 * 0.3 us: the nearest route between nodes (two links
     of 1 us: a port up and one down) and the send and receive overheads
     (smpi/os, smpi/or);
  a_intra = 0.2 us + 2 * 0.3 us: the loopback and the overheads;
  ceil(log2 N) rounds between nodes and ceil(log2 K) within one: a node
     that sends one message at a time reaches at most twice as many nodes
     (ranks) per round.
It is the bound of the two-level model (one message at a time per node
port, bandwidth and latency added), not a law of the simulator: on the fat
tree routes across the spine cost 4 us, and several ranks of a node may
have messages on its port at once.
"""
import argparse
import csv
import glob
import math
import os
import re
import sys
from byte_sizes import human

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORT_BW = 12.5e9
A_INTER = 2e-6 + 2 * 0.3e-6
A_INTRA = 0.2e-6 + 2 * 0.3e-6
OPS = ["bcast", "reduce", "allreduce", "allgather", "reduce_scatter_block", "gather", "scatter", "scan", "exscan"]
SELECTORS = ("ompi", "mpich", "mvapich2")


def port_bytes(op, m, n):
    if op in ("bcast", "reduce", "scan", "exscan"):
        return m
    if op in ("allgather", "reduce_scatter_block", "gather", "scatter"):
        return (n - 1) / n * m
    if op == "allreduce":
        return 2 * (n - 1) / n * m
    return None


def bound_us(op, m, n, k):
    v = port_bytes(op, m, n)
    if v is None:
        return None
    rounds = math.ceil(math.log2(n)) * A_INTER + math.ceil(math.log2(k)) * A_INTRA
    return (v / PORT_BW + rounds) * 1e6


def shape(platform):
    m = re.search(r"(\d+)x(\d+)$", platform)
    return int(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", default=os.path.join(ROOT, "build-smpi", "results", "nodes"))
    ap.add_argument("--cfg", default="--cfg=smpi/test:0 --cfg=smpi/iprobe:0 --cfg=smpi/simulate-computation:no "
                    "--cfg=smpi/coll-selector:ompi --cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb "
                    "--cfg=smpi/tmpdir:/dev/shm --log=root.thres:critical OPTCOLL_WAIT=block",
                    help="the smpirun settings, for the metadata (bench-smpi-nodes.sh passes its own)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "smpi-nodes.csv"))
    ap.add_argument("--summary", default=os.path.join(ROOT, "bench", "results", "smpi-nodes-summary.csv"))
    args = ap.parse_args()
    rows, meta = [], []
    for d in sorted(glob.glob(os.path.join(args.work, "*", "*"))):
        platform, build = os.path.basename(os.path.dirname(d)), os.path.basename(d)
        forced = ""
        label = build.split("-")[0]  # the commit (the directory's name), or its label file
        if os.path.exists(os.path.join(d, "label")):
            label = open(os.path.join(d, "label")).read().strip()
            meta.append(("build", f"{build} ({platform}): the rows say {label}"))
        if os.path.exists(os.path.join(d, "note")):
            note = "; ".join(line.strip() for line in open(os.path.join(d, "note")) if line.strip())
            meta.append(("note", f"{platform} {label}: {note}"))
        if os.path.exists(os.path.join(d, "forced")):
            forced = open(os.path.join(d, "forced")).read().strip()
        for f in sorted(glob.glob(os.path.join(d, "invocation-*"))):
            meta.append(("run", open(f).read().strip().removeprefix("host: ")))
        if os.path.exists(os.path.join(d, "model")):
            for line in open(os.path.join(d, "model")):
                meta.append((f"{platform} {label}", line.strip().removeprefix("collectives: ")))
        if os.path.exists(os.path.join(d, "left-out")):
            for line in open(os.path.join(d, "left-out")):
                meta.append(("left out", f"{label}: {line.strip()}"))
        for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
            for r in csv.reader(open(f)):
                if not r:
                    continue
                (plat, op, _dist, p, size, _total, impl, alg, blocks, us, _lo, _hi, _reps, check, wall) = r
                n, k = shape(plat)
                b = bound_us(op, int(size), n, k)
                rows.append({"platform": plat, "nodes": n, "ppn": k, "p": int(p), "op": op, "bytes": int(size),
                             "impl": impl, "alg": alg, "blocks": blocks, "us": float(us), "check": check,
                             "wall_s": wall, "bound_us": "" if b is None else f"{b:.3f}",
                             "build": label + (f" {forced}" if forced else "")})
    if not rows:
        print("smpi-nodes-report.py: no rows", file=sys.stderr)
        return 1
    order = {op: i for i, op in enumerate(OPS)}
    rows.sort(key=lambda r: (r["p"], r["platform"], order.get(r["op"], 99), r["op"], r["bytes"],
                             r["impl"] != "optcoll", r["build"], r["impl"]))
    head = [
        "# title: optcoll on SMPI platforms of multi-core nodes (crossbar-NxK: N hosts of K cores, one port each)",
        "# command: scripts/bench-smpi-nodes.sh (each build's invocations below); "
        "scripts/smpi-nodes-report.py merged them",
        "# simgrid: 3.32 (Debian 12 libsimgrid-dev)",
        f"# smpirun: {args.cfg}",
        "# time: us, the median over repetitions of the last rank's completion from a common start",
        "# bound_us: V / 12.5 GB/s + ceil(log2 N) * 2.6 us + ceil(log2 K) * 0.8 us; V: m (Bcast, Reduce, Scan, "
        "Exscan), (N-1)/N m (Allgather, Reduce_scatter_block, Gather, Scatter), 2(N-1)/N m (Allreduce) "
        "(scripts/smpi-nodes-report.py)",
        "# build: the commit the row was measured on (+: with uncommitted changes), and any OPTCOLL_<OP> forcing",
    ] + [f"# {k}: {v}" for k, v in meta]
    cols = ["platform", "nodes", "ppn", "p", "op", "bytes", "impl", "alg", "blocks", "us", "check", "wall_s",
            "bound_us", "build"]
    with open(args.out, "w", newline="") as f:
        f.write("\n".join(head) + "\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow([f"{r[c]:.3f}" if c == "us" else r[c] for c in cols])
    # The summary: per cell and optcoll build.
    cells = {}
    for r in rows:
        cells.setdefault((r["p"], r["platform"], order.get(r["op"], 99), r["op"], r["bytes"]), []).append(r)
    out = []
    for key in sorted(cells):
        rs = cells[key]
        # A native with a wrong result (check FAIL) is no candidate.
        # (SMPI has one Scan and one Exscan for every selector: `native`.)
        sel = [r for r in rs if (r["impl"] in SELECTORS or r["impl"] == "native") and r["check"] != "FAIL"]
        classic = [r for r in rs if r["impl"].startswith("smpi:") and r["check"] != "FAIL"]
        best_sel = min(sel, key=lambda r: r["us"], default=None)
        best_cl = min(classic, key=lambda r: r["us"], default=None)
        best = min(sel + classic, key=lambda r: r["us"], default=None)
        for o in [r for r in rs if r["impl"] == "optcoll"]:
            b = float(o["bound_us"]) if o["bound_us"] else None
            out.append([o["platform"], f'{o["nodes"]}x{o["ppn"]}', o["op"], human(o["bytes"]), o["build"],
                        f'{o["alg"]} n={o["blocks"]}', f'{o["us"]:.1f}', o["check"],
                        f'{best_sel["impl"]} {best_sel["us"]:.1f}' if best_sel else "",
                        f'{best_cl["impl"][5:]} {best_cl["us"]:.1f}' if best_cl else "",
                        "" if b is None else f"{b:.1f}",
                        "" if b is None else f'{o["us"] / b:.2f}',
                        f'{o["us"] / best["us"]:.2f}' if best else ""])
    with open(args.summary, "w", newline="") as f:
        f.write("\n".join(head[:1] + [
            "# source: bench/results/smpi-nodes.csv (every row and its metadata); scripts/smpi-nodes-report.py",
            "# best selector: the fastest of SMPI's ompi, mpich and mvapich2 (native: SMPI's one algorithm, Scan and "
            "Exscan); best node-aware: the fastest of "
            "SMPI's node-aware algorithms run for the operation (us); natives with a wrong result are left out "
            "(smpi-nodes.csv has them, check FAIL)",
            "# optcoll/best: optcoll's time over the fastest of both (below 1: optcoll faster)",
        ]) + "\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["platform", "nodes x ppn", "op", "size", "build", "optcoll alg", "optcoll us", "check",
                    "best selector us", "best node-aware us", "bound us", "optcoll/bound", "optcoll/best"])
        w.writerows(out)
    print(f"smpi-nodes-report.py: {os.path.relpath(args.out, ROOT)} ({len(rows)} rows), "
          f"{os.path.relpath(args.summary, ROOT)} ({len(out)} rows)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
