#!/usr/bin/env python3
"""Renders the benchmark pages' tables from the CSV files under bench/results/.

    scripts/render-benchmarks.py          # rewrite the pages in place
    scripts/render-benchmarks.py --check  # exit 1 (and show a diff) if a page is out of date

A page (docs/*.md, docs/benchmarks/*.md, docs/decisions/*.md, or any
Markdown file given as an argument) holds prose and marker pairs, each marker on a line of its own; everything
between a pair is generated:

    <!-- csv: FILE [COLUMN=VALUE ...] [drop=COLUMN,COLUMN] -->
    ... a Markdown table of FILE's rows whose COLUMN equals VALUE (every
        filter must hold), without the dropped columns ...
    <!-- /csv -->

    <!-- csv-meta: FILE -->
    ... FILE's metadata (its leading "# key: value" lines) as a list ...
    <!-- /csv-meta -->

FILE is relative to bench/results/. A CSV file starts with "# key: value"
lines (title, date, machine, mpi, build, command, source, ...), then a
header row and the rows; values are printed exactly as written there. The
benchmark programs' output is turned into such a file (or a new one is
written) and the page's prose interprets the numbers; the prose never
carries a table of its own. Standard library only.
"""
import argparse
import csv
import difflib
import glob
import io
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
PAGES = [os.path.join(ROOT, "docs", d, "*.md") for d in ("", "benchmarks", "decisions")]

TABLE = re.compile(r"(?m)(^<!-- csv: (?P<spec>[^>]*?) -->\n)(?P<body>.*?)(^<!-- /csv -->)", re.S)
META = re.compile(r"(?m)(^<!-- csv-meta: (?P<spec>[^>]*?) -->\n)(?P<body>.*?)(^<!-- /csv-meta -->)", re.S)
NUMERIC = re.compile(r"^[-+]?[0-9][0-9.,]*(e[-+]?[0-9]+)?( ?(B|KiB|MiB|GB|MB|KB|us|ms|s|x|%|ns/B))?$")


class Failure(Exception):
    pass


def load(name):
    path = os.path.join(RESULTS, name)
    if not os.path.isfile(path):
        raise Failure(f"no such file: bench/results/{name}")
    meta, lines = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not lines and line.startswith("#"):
                key, _, value = line[1:].strip().partition(":")
                meta.append((key.strip(), value.strip()))
            else:
                lines.append(line)
    rows = list(csv.reader(lines))
    if not rows:
        raise Failure(f"bench/results/{name}: no header row")
    header, body = rows[0], [r for r in rows[1:] if r]
    for r in body:
        if len(r) != len(header):
            raise Failure(f"bench/results/{name}: row {r} has {len(r)} fields, the header {len(header)}")
    return meta, header, body


def cell(v):
    return v.replace("|", "\\|")


def render_table(spec):
    words = shlex.split(spec)
    if not words:
        raise Failure("empty csv marker")
    meta, header, body = load(words[0])
    filters, drop = [], set()
    for w in words[1:]:
        key, eq, value = w.partition("=")
        if not eq:
            raise Failure(f"csv marker '{spec}': '{w}' is not COLUMN=VALUE")
        if key == "drop":
            drop.update(x for x in value.split(",") if x)
            continue
        if key not in header:
            raise Failure(f"csv marker '{spec}': no column '{key}' in {words[0]}")
        filters.append((header.index(key), value))
    for d in drop:
        if d not in header:
            raise Failure(f"csv marker '{spec}': no column '{d}' to drop in {words[0]}")
    rows = [r for r in body if all(r[i] == v for i, v in filters)]
    if not rows:
        raise Failure(f"csv marker '{spec}': no row matches")
    keep = [i for i, h in enumerate(header) if h not in drop]
    align = []
    for i in keep:
        values = [r[i] for r in rows if r[i] != ""]
        align.append("---:" if values and all(NUMERIC.match(v) for v in values) else "---")
    out = ["| " + " | ".join(cell(header[i]) for i in keep) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(cell(r[i]) for i in keep) + " |" for r in rows]
    return "\n".join(out) + "\n"


def render_meta(spec, page):
    name = spec.strip()
    meta, _, _ = load(name)
    out = [f"- {k}: {v}" for k, v in meta]
    link = os.path.relpath(os.path.join(RESULTS, name), os.path.dirname(os.path.abspath(page)))
    out.append(f"- data: [bench/results/{name}]({link})")
    return "\n".join(out) + "\n"


def render(text, page):
    text = TABLE.sub(lambda m: m.group(1) + render_table(m.group("spec")) + m.group(4), text)
    return META.sub(lambda m: m.group(1) + render_meta(m.group("spec"), page) + m.group(4), text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="report out-of-date pages, change nothing")
    ap.add_argument("pages", nargs="*", help="Markdown files (default: docs/*.md, docs/benchmarks/*.md, docs/decisions/*.md)")
    args = ap.parse_args()
    pages = args.pages or sorted(p for pattern in PAGES for p in glob.glob(pattern))
    stale = 0
    for page in pages:
        with open(page, encoding="utf-8") as f:
            old = f.read()
        try:
            new = render(old, page)
        except Failure as e:
            print(f"{os.path.relpath(page, ROOT)}: {e}", file=sys.stderr)
            return 2
        if new == old:
            continue
        stale += 1
        if args.check:
            rel = os.path.relpath(page, ROOT)
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), rel,
                                                       rel + " (rendered)"))
        else:
            with open(page, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"rendered {os.path.relpath(page, ROOT)}")
    if args.check and stale:
        print(f"{stale} page(s) out of date with bench/results/: run scripts/render-benchmarks.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
