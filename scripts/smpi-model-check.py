#!/usr/bin/env python3
"""optcoll's own models against SMPI: for every optcoll row of an SMPI CSV
(scripts/bench-smpi.sh), the same plan (algorithm and block count) priced by
`optcoll simulate` with the platform's parameters, alpha-beta (rounds in
lockstep) and LogGP (a clock per rank).

    scripts/smpi-model-check.py bench/results/smpi-fattree-1024.csv [--optcoll build/optcoll]

writes <stem>-model.csv (op,dist,p,bytes,alg,blocks,smpi_us,ab_us,loggp_us,loggp2_us,ab_err,loggp_err,
loggp2_err);
scripts/smpi-report.py --model summarises it. Operations `optcoll simulate`
has no plan for (Gather(v), Scatter(v): tree plans; Alltoallv) are skipped.
The `logp_tree` rows are built with the LogP parameters the MPI layer gave
the tree across nodes (L = alpha - 2o, o = g, in units of 10 ns, from the
CSV's calibration of that p and the reruns' OPTCOLL_OVERHEAD) and priced
with the platform's.

The platform parameters (docs/smpi.md, bench/smpi/platforms/README.md):
alpha = the latency of the longest route a round uses (the slowest message
of a lockstep round) plus the send and receive overheads (smpi/ois,
smpi/or), beta = 1 / link bandwidth; LogGP L = that latency, o = g = the
overhead, G = beta. On the fat trees the LogGP clock also knows the two
levels: ranks on one leaf switch (32 hosts) are 2 links apart, others 4
(`optcoll simulate --latency-group 32 --L 2e-6 --L-far 4e-6`; the
loggp2_us column).
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys

BETA = 1 / 12.5e9  # all four platforms: 12.5 GB/s links
OVERHEAD = 0.3e-6  # smpi/os, smpi/ois, smpi/or of every platform
RUN_OVERHEAD = 3.006e-7  # the o the reruns gave optcoll (OPTCOLL_OVERHEAD: the calibration's)
LOGP_UNIT = 10e-9  # the MPI layer's kLogpUnit


def calibrated_alpha(path):
    """{p: alpha} from the CSV's calibration lines (`... p=P ... alpha=A ...`)."""
    alpha = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                m = re.search(r"calibration: p=(\d+) optcoll model alpha=([0-9.e+-]+)", line)
                if m:
                    alpha[int(m.group(1))] = float(m.group(2))
    return alpha


def tree_logp(alpha):
    """OPTCOLL_LOGP of the tree the MPI layer builds across nodes (calibrate_logp.cpp)."""
    o = round(RUN_OVERHEAD / LOGP_UNIT)
    return f"{max(1, round((alpha - 2 * RUN_OVERHEAD) / LOGP_UNIT))},{o},{o}"


def alpha_for(platform, p):
    """Latency of the longest route among p ranks (the first p hosts)."""
    if platform.startswith("fattree"):
        return 2e-6 if p <= 32 else 4e-6  # 2 links in a leaf, 4 across the spine
    if platform.startswith("torus"):
        # 8 x 8 x 16, hosts in x-fastest order: the first p hosts span
        # ceil(p / 64) planes; the longest shortest route, 0.1 us per hop
        dims = (8, 8, 16)
        span = [min(dims[0], p), min(dims[1], max(1, math.ceil(p / 8))), min(dims[2], max(1, math.ceil(p / 64)))]
        hops = sum(min(s - 1, d // 2) for s, d in zip(span, dims))
        return max(hops, 1) * 0.1e-6
    if platform.startswith("dragonfly"):
        # 4 hosts per router: 2 links; within a chassis 4; a group 5-6; across groups up to 7
        return 2e-6 if p <= 4 else 4e-6 if p <= 32 else 6e-6 if p <= 128 else 7e-6
    raise SystemExit(f"no model parameters for platform {platform}")


def two_level(platform, p):
    """(group, near latency, far latency) of the platform's two-level LogGP, or None."""
    if platform.startswith("fattree") and p > 32:
        return 32, 2e-6, 4e-6
    return None


def simulate_args(r):
    """The `optcoll simulate` arguments for a benchmark row (cases.hpp's sizes), or None."""
    op, dist, p, b = r["op"], r["dist"], int(r["p"]), int(r["bytes"])
    elems = max(b // 4, 1)
    if op in ("bcast", "reduce", "allreduce", "scan", "exscan"):
        return [op, "-m", str(4 * elems)]
    if op in ("allgather", "allgatherv", "reduce_scatter_block", "reduce_scatter"):
        name = "reduce_scatter" if op.startswith("reduce_scatter") else "allgather"
        return [name, "-m", r["total_bytes"], "--dist", dist]
    if op == "alltoall":
        return [op, "-m", str(4 * max(elems // p, 1))]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--optcoll", default="build/optcoll")
    ap.add_argument("--p", help="only these p (comma-separated)")
    a = ap.parse_args()
    only_p = {int(x) for x in a.p.split(",")} if a.p else None
    alphas = calibrated_alpha(a.csv)
    with open(a.csv) as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    out_rows = []
    for r in rows:
        if r["impl"] != "optcoll" or not r["alg"] or (only_p and int(r["p"]) not in only_p):
            continue
        args = simulate_args(r)
        if args is None:
            continue
        p = int(r["p"])
        latency = alpha_for(r["platform"], p)
        alpha = latency + 2 * OVERHEAD
        cmd = [a.optcoll, "simulate", *args, "-p", str(p), "--elem-size", "4", "--algorithm", r["alg"],
               "--alpha", repr(alpha), "--beta", repr(BETA), "--L", repr(latency), "--o", repr(OVERHEAD),
               "--g", repr(OVERHEAD), "--G", repr(BETA), "--json"]
        if r["op"] != "alltoall" and int(r["blocks"]) > 0:
            cmd += ["-n", r["blocks"]]
        env = dict(os.environ)
        if r["alg"] == "logp_tree":
            if p not in alphas:
                print(f"skipped (no calibration of p={p}): {r['op']} {r['bytes']}", file=sys.stderr)
                continue
            env["OPTCOLL_LOGP"] = tree_logp(alphas[p])
        res = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if res.returncode != 0:
            print(f"skipped ({res.stderr.strip()}): {' '.join(cmd)}", file=sys.stderr)
            continue
        j = json.loads(res.stdout)
        ab, lg = optcoll_times(j, r["alg"])
        lg2 = lg
        levels = two_level(r["platform"], p)
        if levels:
            group, near, far = levels
            cmd2 = [c for c in cmd]
            cmd2[cmd2.index("--L") + 1] = repr(near)
            cmd2 += ["--latency-group", str(group), "--L-far", repr(far)]
            res2 = subprocess.run(cmd2, capture_output=True, text=True, env=env)
            if res2.returncode != 0:
                raise SystemExit(f"failed: {' '.join(cmd2)}: {res2.stderr.strip()}")
            lg2 = optcoll_times(json.loads(res2.stdout), r["alg"])[1]
        smpi = float(r["us"])
        out_rows.append({"op": r["op"], "dist": r["dist"], "p": p, "bytes": r["bytes"], "alg": r["alg"],
                         "blocks": r["blocks"], "smpi_us": f"{smpi:.3f}", "ab_us": f"{ab * 1e6:.3f}",
                         "loggp_us": f"{lg * 1e6:.3f}", "loggp2_us": f"{lg2 * 1e6:.3f}",
                         "ab_err": f"{ab * 1e6 / smpi - 1:.4f}", "loggp_err": f"{lg * 1e6 / smpi - 1:.4f}",
                         "loggp2_err": f"{lg2 * 1e6 / smpi - 1:.4f}"})
    out = os.path.splitext(a.csv)[0] + "-model.csv"
    with open(out, "w", newline="") as f:
        f.write(f"# command: scripts/smpi-model-check.py {a.csv}" + (f" --p {a.p}" if a.p else "") + "\n")
        w = csv.DictWriter(f, fieldnames=list(out_rows[0].keys()) if out_rows else ["op"])
        w.writeheader()
        w.writerows(out_rows)
    print(f"wrote {out} ({len(out_rows)} rows)", file=sys.stderr)


def optcoll_times(j, alg):
    """(alpha-beta, LogGP) seconds of the plan in `optcoll simulate --json`'s output."""
    if "model_time" in j:  # the collectives: the plan asked for
        return j["model_time"], j["loggp_time"]
    e = j.get("algorithms", {}).get(alg)  # the exchanges: every algorithm
    if e is None:
        raise SystemExit(f"no time for {alg} in {json.dumps(j)[:300]}")
    return e["model_time"], e["loggp_time"]


if __name__ == "__main__":
    main()
