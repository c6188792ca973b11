#!/usr/bin/env python3
"""Checks the relative links of the Markdown files in the repository.

    scripts/check-doc-links.py [FILE.md ...]   # default: every tracked *.md

Every link [text](target) or [text](target#anchor) whose target is not a URL
must name a file or folder that exists (relative to the page), and every
#anchor must be a heading of the target page (GitHub's slugs: lower case,
punctuation but '-' and '_' dropped, spaces as '-', "-1", "-2", ... for
repeats). Links inside code spans and fenced code blocks are not links.
Prints one line per broken link and exits 1 if there is any. Standard
library only; scripts/render-docs.sh --check runs it.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield i, line


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen, out = {}, set()
        for _, line in prose_lines(path):
            for a in HTML_ANCHOR.findall(line):
                out.add(a)
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
        _anchors[path] = out
    return _anchors[path]


def check(page):
    bad = []
    for number, line in prose_lines(page):
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            where = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            rel = os.path.relpath(page, ROOT)
            if not os.path.exists(where):
                bad.append(f"{rel}:{number}: {target}: no such file")
            elif anchor and where.endswith(".md") and anchor not in anchors(where):
                bad.append(f"{rel}:{number}: {target}: no heading #{anchor} in {os.path.relpath(where, ROOT)}")
    return bad


def markdown_files():
    """The repository's Markdown files: git's list, or without git every *.md
    outside build folders."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
                             check=True, capture_output=True, text=True).stdout
        return [os.path.join(ROOT, p) for p in out.split()]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            found += [os.path.join(folder, f) for f in files if f.endswith(".md")]
        return sorted(found)


def main():
    pages = sys.argv[1:]
    if not pages:
        pages = markdown_files()
    bad = [b for p in pages if os.path.isfile(p) for b in check(p)]
    for b in bad:
        print(b)
    if bad:
        print(f"check-doc-links: {len(bad)} broken link(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
