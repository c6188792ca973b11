#!/usr/bin/env bash
# Regenerates the parts of docs/ that are the optcoll CLI's output, between
# marker comments:
#
#   docs/selection.md  <!-- settings:begin --> ... <!-- settings:end -->
#                      optcoll settings --markdown (every OPTCOLL_* variable)
#   docs/simulator.md  <!-- model:begin --> ... <!-- model:end -->
#                      optcoll model -p 16 -m 1048576 (the cost table)
#
#   scripts/render-docs.sh [--check] [--optcoll PATH]
#
# --check changes nothing: it prints a diff and exits 1 when a block differs
# from the command's output (CTest runs it as docs_generated). PATH defaults
# to build/optcoll. Then it runs scripts/render-benchmarks.py (the tables of
# docs/*.md, docs/benchmarks/*.md and docs/decisions/*.md from
# bench/results/*.csv) the same way, and scripts/check-doc-links.py (every
# relative link and #anchor of the Markdown files resolves), if python3 is
# there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
optcoll="$root/build/optcoll"
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --optcoll) optcoll="$2"; shift ;;
    *) echo "usage: $0 [--check] [--optcoll PATH]" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$optcoll" ] || { echo "render-docs: no optcoll binary at $optcoll (build it, or pass --optcoll)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stale=0

# replace FILE NAME GENERATED: the lines between <!-- NAME:begin --> and
# <!-- NAME:end --> of FILE become the file GENERATED.
replace() {
  local file="$root/$1" name="$2" gen="$3" out="$tmp/out"
  if [ "$(grep -c -x "<!-- $name:begin -->" "$file")" != 1 ] || [ "$(grep -c -x "<!-- $name:end -->" "$file")" != 1 ]; then
    echo "render-docs: $1 needs exactly one <!-- $name:begin --> and one <!-- $name:end --> line" >&2
    exit 2
  fi
  awk -v begin="<!-- $name:begin -->" -v end="<!-- $name:end -->" -v gen="$gen" '
    $0 == begin { print; while ((getline line < gen) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }' "$file" > "$out"
  if cmp -s "$file" "$out"; then return; fi
  if [ "$check" = 1 ]; then
    diff -u "$file" "$out" | sed "1s|.*|--- $1|;2s|.*|+++ $1 ($name, generated)|" || true
    stale=1
  else
    cp "$out" "$file"
    echo "rendered $1 ($name)"
  fi
}

"$optcoll" settings --markdown > "$tmp/settings"
replace docs/selection.md settings "$tmp/settings"

{ echo '```'; "$optcoll" model -p 16 -m 1048576; echo '```'; } > "$tmp/model"
replace docs/simulator.md model "$tmp/model"

if [ "$stale" = 1 ]; then
  echo "render-docs: docs/ differ from the CLI's output: run scripts/render-docs.sh" >&2
  exit 1
fi
if command -v python3 > /dev/null; then
  if [ "$check" = 1 ]; then python3 "$root/scripts/render-benchmarks.py" --check
  else python3 "$root/scripts/render-benchmarks.py"; fi
  python3 "$root/scripts/check-doc-links.py"
fi
