#!/usr/bin/env python3
"""The SMPI benchmark's report, generated from its CSV (scripts/bench-smpi.sh).

    scripts/smpi-report.py bench/results/smpi-fattree-1024.csv [--model M.csv] [--out-dir DIR]

writes, into DIR (default: next to the CSV), <stem>.md (per p a table of every operation and
size: optcoll, the two selectors, the best classic algorithm, the ratio, the
check; the targets at p = 1024; the model check if --model is given) and
two SVG plots, <stem>-vs-p.svg (time against p at 1 MiB) and
<stem>-vs-size.svg (time against size at the largest p). Standard library only.
"""
import argparse
import csv
import math
import os
import sys
from collections import defaultdict
from byte_sizes import human

SELECTORS = ("ompi", "mpich")
OP_ORDER = [("bcast", "regular"), ("reduce", "regular"), ("allgather", "regular"), ("allgatherv", "regular"),
            ("allgatherv", "irregular"), ("allgatherv", "degenerate"), ("reduce_scatter_block", "regular"),
            ("reduce_scatter", "irregular"), ("allreduce", "regular"), ("gather", "regular"),
            ("gatherv", "irregular"), ("scatter", "regular"), ("scatterv", "irregular"), ("scan", "regular"),
            ("exscan", "regular"), ("alltoall", "regular"), ("alltoallv", "irregular")]


def load(path):
    meta, rows = [], []
    with open(path) as f:
        lines = [line for line in f if not (line.startswith("#") and meta.append(line[1:].strip()) is None)]
    for r in csv.DictReader(lines):
        r["p"], r["bytes"], r["us"] = int(r["p"]), int(r["bytes"]), float(r["us"])
        rows.append(r)
    return meta, rows


class Cell:
    """Everything measured for one (op, dist, p, bytes)."""

    def __init__(self):
        self.impl = {}  # impl -> row

    def us(self, impl):
        r = self.impl.get(impl)
        return r["us"] if r else None

    def ok(self, impl):
        r = self.impl.get(impl)
        return r is not None and r["check"] != "FAIL"

    def native_best(self):
        """The faster selector (or SMPI's only implementation) among correct ones."""
        cands = [(self.us(s), s) for s in SELECTORS + ("native",) if self.us(s) is not None and self.ok(s)]
        return min(cands) if cands else (None, None)

    def classic_best(self):
        cands = [(r["us"], i[5:]) for i, r in self.impl.items() if i.startswith("smpi:") and r["check"] != "FAIL"]
        return min(cands) if cands else (None, None)

    def ratio(self):
        o = self.us("optcoll")
        b, _ = self.native_best()
        return o / b if o is not None and b else None


def cells(rows):
    out = defaultdict(Cell)
    for r in rows:
        out[(r["op"], r["dist"], r["p"], r["bytes"])].impl[r["impl"]] = r
    return out


def fmt_us(v):
    return "" if v is None else (f"{v:.1f}" if v < 1000 else f"{v:.0f}")


def table(cs, p):
    out = ["| op | size | optcoll us (algorithm, n) | ompi us | mpich us | best classic us | optcoll / faster selector | check |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for op, dist in OP_ORDER:
        for (o, d, pp, b), c in sorted(cs.items(), key=lambda kv: kv[0][3]):
            if (o, d, pp) != (op, dist, p) or "optcoll" not in c.impl:
                continue
            r = c.impl["optcoll"]
            alg = f" ({r['alg']}, {r['blocks']})" if r["alg"] else ""
            sel = [fmt_us(c.us(s)) + ("" if c.ok(s) else " (wrong)") if c.us(s) is not None else "" for s in SELECTORS]
            if "native" in c.impl:
                sel = [fmt_us(c.us("native")) + " (SMPI's only)", ""]
            cb, cn = c.classic_best()
            ratio = c.ratio()
            name = f"{op} ({dist})" if op in ("allgatherv", "reduce_scatter", "gatherv", "scatterv", "alltoallv") else op
            out.append(f"| {name} | {human(b)} | {fmt_us(r['us'])}{alg} | {sel[0]} | {sel[1]} | "
                       f"{fmt_us(cb) + ' ' + cn if cb else ''} | {f'{ratio:.2f}' if ratio else 'n/a'} | {r['check']} |")
    return out


def targets(cs, p):
    """The task's targets at p, evaluated: (text, met) per line."""
    res = []

    def cell(op, dist, b):
        return cs.get((op, dist, p, b))

    sizes = sorted({k[3] for k in cs if k[2] == p})
    for op in ("bcast", "reduce"):
        for b in (s for s in sizes if s >= 1 << 20):
            c = cell(op, "regular", b)
            if c and c.ratio():
                lim = 0.6 if b >= 16 << 20 else 0.7
                res.append((f"{op} {human(b)}: {c.ratio():.2f} (target <= {lim})", c.ratio() <= lim))
    for b in (s for s in sizes if s >= 1 << 20):
        c = cell("allgatherv", "degenerate", b)
        if c and c.us("optcoll"):
            worst = max(c.us(s) for s in SELECTORS if c.us(s) is not None) if any(c.us(s) for s in SELECTORS) else None
            best = min(c.us(s) for s in SELECTORS if c.us(s) is not None) if worst else None
            if best:
                f = best / c.us("optcoll")
                res.append((f"allgatherv degenerate {human(b)}: {f:.1f}x faster than the faster selector (target >= 10)",
                            f >= 10))
    for op, dist in (("allreduce", "regular"), ("reduce_scatter", "irregular"), ("reduce_scatter_block", "regular"),
                     ("allgather", "regular")):
        for b in (s for s in sizes if s >= 1 << 20):
            c = cell(op, dist, b)
            if c and c.ratio():
                res.append((f"{op} {human(b)}: {c.ratio():.2f} (target <= 0.85)", c.ratio() <= 0.85))
    worse = []
    for (o, d, pp, b), c in sorted(cs.items()):
        r = c.ratio()
        if r is not None and r > 1.05:
            worse.append(f"{o}/{d} p={pp} {human(b)} {r:.2f}")
    res.append((f"every other cell <= 1.05x the faster selector, all p: {len(worse)} above"
                + (": " + ", ".join(worse) if worse else ""), not worse))
    return res


# --- SVG -----------------------------------------------------------------
COLORS = {"optcoll": "#d62728", "ompi": "#1f77b4", "mpich": "#2ca02c", "native": "#1f77b4", "classic": "#7f7f7f"}


def panel(x0, y0, w, h, title, series, xlabel, xfmt):
    """One log-log panel; series: name -> [(x, y)]."""
    pts = [pt for s in series.values() for pt in s if pt[1] and pt[1] > 0]
    if not pts:
        return []
    lx = [math.log10(x) for x, _ in pts]
    ly = [math.log10(y) for _, y in pts]
    x_lo, x_hi = min(lx), max(lx) if max(lx) > min(lx) else min(lx) + 1
    y_lo, y_hi = math.floor(min(ly)), math.ceil(max(ly)) if math.ceil(max(ly)) > math.floor(min(ly)) else math.floor(min(ly)) + 1
    px = lambda x: x0 + 40 + (math.log10(x) - x_lo) / (x_hi - x_lo) * (w - 50)
    py = lambda y: y0 + h - 25 - (math.log10(y) - y_lo) / (y_hi - y_lo) * (h - 45)
    out = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#ccc"/>',
           f'<text x="{x0 + w / 2}" y="{y0 + 14}" text-anchor="middle" font-size="12">{title}</text>']
    for e in range(y_lo, y_hi + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{x0 + 40}" y1="{y:.1f}" x2="{x0 + w - 10}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 + 36}" y="{y + 3:.1f}" text-anchor="end" font-size="9">{fmt_pow(e)}</text>')
    for x in sorted({x for x, _ in pts}):
        out.append(f'<text x="{px(x):.1f}" y="{y0 + h - 12}" text-anchor="middle" font-size="8">{xfmt(x)}</text>')
    out.append(f'<text x="{x0 + w - 10}" y="{y0 + h - 2}" text-anchor="end" font-size="8">{xlabel}</text>')
    for name, s in series.items():
        s = [(x, y) for x, y in sorted(s) if y and y > 0]
        if not s:
            continue
        color = COLORS.get(name, COLORS["classic"])
        dash = ' stroke-dasharray="4 2"' if name == "classic" else ""
        d = " ".join(f"{'M' if i == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for i, (x, y) in enumerate(s))
        out.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="1.5"{dash}/>')
        out += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2" fill="{color}"/>' for x, y in s]
    return out


def fmt_pow(e):
    return {0: "1 us", 1: "10 us", 2: "100 us", 3: "1 ms", 4: "10 ms", 5: "100 ms", 6: "1 s"}.get(e, f"1e{e} us")


def svg(cs, title, key, xs_of, xlabel, xfmt):
    ops = [(o, d) for o, d in OP_ORDER if any(k[:2] == (o, d) for k in cs)]
    cols, w, h = 4, 260, 190
    rows_n = (len(ops) + cols - 1) // cols
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * w + 20}" height="{rows_n * h + 70}" '
           f'font-family="sans-serif">', f'<text x="10" y="20" font-size="14">{title}</text>']
    lx = 10
    for name, label in (("optcoll", "optcoll"), ("ompi", "SMPI ompi selector (or SMPI's only)"),
                        ("mpich", "SMPI mpich selector"), ("classic", "best classic algorithm")):
        out.append(f'<line x1="{lx}" y1="38" x2="{lx + 20}" y2="38" stroke="{COLORS[name]}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 24}" y="42" font-size="11">{label}</text>')
        lx += 40 + 7 * len(label)
    for i, (op, dist) in enumerate(ops):
        series = defaultdict(list)
        for x in xs_of(op, dist):
            c = cs.get(key(op, dist, x))
            if not c:
                continue
            for impl in ("optcoll", "ompi", "mpich"):
                if c.us(impl) is not None and c.ok(impl):
                    series[impl].append((x, c.us(impl)))
            if c.us("native") is not None:
                series["ompi"].append((x, c.us("native")))
            cb, _ = c.classic_best()
            if cb:
                series["classic"].append((x, cb))
        name = f"{op} ({dist})" if dist != "regular" or op == "allgatherv" else op
        out += panel(10 + (i % cols) * w, 55 + (i // cols) * h, w - 10, h - 10, name, series, xlabel, xfmt)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--model", help="the model check's CSV (scripts/smpi-model-check.py)")
    ap.add_argument("--out-dir", help="where the report goes (default: beside the CSV)")
    a = ap.parse_args()
    meta, rows = load(a.csv)
    cs = cells(rows)
    base = os.path.basename(os.path.splitext(a.csv)[0])
    stem = os.path.join(a.out_dir, base) if a.out_dir else os.path.splitext(a.csv)[0]
    ps = sorted({k[2] for k in cs})
    pmax = max(ps)
    cmd = f"scripts/smpi-report.py {a.csv}" + (f" --model {a.model}" if a.model else "") + (
        f" --out-dir {a.out_dir}" if a.out_dir else "")
    md = [f"# {base}: optcoll against SMPI's collectives", "",
          f"Generated by `{cmd}` from the CSV; the run:", ""]
    md += [f"    {m}" for m in meta]
    md += ["", "Times are simulated microseconds: every rank starts the call at the same simulated instant, and the "
           "time is the last rank's completion (the median of the repetitions; the simulation is deterministic, so "
           "they agree). \"optcoll / faster selector\" divides by the faster of SMPI's `ompi` and `mpich` selectors "
           "that gave the right result (SMPI's only implementation for Scan, Exscan, Gatherv, Scatterv); an empty "
           "cell was not measured (the run's `left out` lines, or not reached). Check: every implementation's "
           "result against an oracle (a plain SMPI algorithm; for Scan and Exscan a local sum), byte for byte "
           "(`-`: payload too large to keep per rank; `(wrong)`: a native that failed it). "
           "Plots: [time against p at 1 MiB](" + base + "-vs-p.svg), [time against size at p = "
           f"{pmax}](" + base + "-vs-size.svg).", ""]
    if pmax >= 1024:
        md += [f"## Targets at p = {pmax}", ""]
        md += [f"- {'met' if ok else '**missed**'}: {t}" for t, ok in targets(cs, pmax)]
        md.append("")
    for p in sorted(ps, reverse=True):
        md += [f"## p = {p}", ""] + table(cs, p) + [""]
    if a.model:
        md += model_section(a.model)
    with open(stem + ".md", "w") as f:
        f.write("\n".join(md))
    one_mib = 1 << 20
    with open(stem + "-vs-p.svg", "w") as f:
        f.write(svg(cs, f"{base}: time against p, 1 MiB", lambda o, d, x: (o, d, x, one_mib),
                    lambda o, d: sorted({k[2] for k in cs if k[:2] == (o, d) and k[3] == one_mib}), "p", str))
    with open(stem + "-vs-size.svg", "w") as f:
        f.write(svg(cs, f"{base}: time against size, p = {pmax}", lambda o, d, x: (o, d, pmax, x),
                    lambda o, d: sorted({k[3] for k in cs if k[:2] == (o, d) and k[2] == pmax}), "bytes", human))
    print(f"wrote {stem}.md, {stem}-vs-p.svg, {stem}-vs-size.svg", file=sys.stderr)


def model_section(path):
    with open(path) as f:
        lines = f.readlines()
    command = next((line[len("# command: "):].strip() for line in lines if line.startswith("# command: ")), path)
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    by_op = defaultdict(list)
    for r in rows:
        by_op[(r["op"], r["dist"])].append(r)
    two = any(r.get("loggp2_err") for r in rows)
    out = ["## Model check", "",
           f"Generated from `{path}` (`{command}`): optcoll's simulator (`optcoll simulate`, the same plan: "
           "algorithm and n) with the platform's parameters, against SMPI's time; error = model / SMPI - 1. "
           "Alpha-beta: rounds in lockstep, alpha the longest route's latency plus the two overheads. LogGP: a "
           "clock per rank, L that latency, o = g = the overhead"
           + ("; two-level LogGP: L 2 us between ranks on one leaf switch, 4 us across the spine." if two else "."),
           "",
           "| op | cells | alpha-beta: median error | worst | LogGP: median | worst |"
           + (" two-level LogGP: median | worst |" if two else "") + " cells beyond 25 % (alpha-beta"
           + (", two-level LogGP)" if two else ")") + " |",
           "|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if two else "") + "---:|"]
    for op, dist in OP_ORDER:
        rs = by_op.get((op, dist))
        if not rs:
            continue
        ab = sorted(float(r["ab_err"]) for r in rs)
        lg = sorted(float(r["loggp_err"]) for r in rs)
        lg2 = sorted(float(r["loggp2_err"]) for r in rs) if two else []
        worst = lambda v: max(v, key=abs)
        med = lambda v: v[len(v) // 2]
        far = sum(abs(x) > 0.25 for x in ab)
        line = f"| {op} ({dist}) | {len(rs)} | {med(ab):+.0%} | {worst(ab):+.0%} | {med(lg):+.0%} | {worst(lg):+.0%} |"
        if two:
            line += f" {med(lg2):+.0%} | {worst(lg2):+.0%} |"
        line += f" {far}" + (f", {sum(abs(x) > 0.25 for x in lg2)}" if two else "") + " |"
        out.append(line)
    out.append("")
    return out


if __name__ == "__main__":
    main()
