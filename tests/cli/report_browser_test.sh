#!/usr/bin/env bash
# The demo report in a real browser: optcoll-tune measures every intercepted
# MPI call on a few ranks (tiny sizes, one repetition), `optcoll report`
# renders the CSV, headless Chromium loads the page, dumps the DOM it built
# and takes a screenshot. Checks, on the browser's DOM:
#   - one chart per MPI call, titled MPI_<call>, for exactly the calls listed
#     below (Allgather and Allgatherv apart, and so on);
#   - every chart's two series (native, optcoll) have one point per measured
#     size and strictly increasing x (no line running back to the smallest
#     size);
#   - the screenshot is a PNG.
# Without Chromium (Debian package `chromium`, scripts/deps.sh) the test
# exits 77, which CTest reports as skipped.
#
#   report_browser_test.sh <mpiexec> <optcoll-tune> <optcoll> <work dir>
set -euo pipefail
mpiexec=$1 tune=$2 cli=$3 work=$4
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: no chromium (apt-get install chromium, or scripts/deps.sh)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"

# The MPI calls the drop-in intercepts, one chart each.
calls="Bcast Reduce Allgather Allgatherv Reduce_scatter_block Reduce_scatter Allreduce Gather Gatherv Scatter
Scatterv Alltoall Alltoallv Scan Exscan"
sizes=3 # 8, 32 and 128 bytes

"$mpiexec" -n 3 "$tune" --max-bytes 128 --reps 1 --csv "$work/results.csv" >"$work/tune.out"
"$cli" report --results "$work/results.csv" -o "$work/index.html" --schedule-p 5 --note "browser test"

chrome() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" "$@"; }
chrome --dump-dom "file://$work/index.html" >"$work/dom.html" 2>"$work/chromium.err"
chrome --window-size=1400,3000 --screenshot="$work/index.png" "file://$work/index.html" >/dev/null 2>>"$work/chromium.err"
if [ "$(head -c 8 "$work/index.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
  echo "FAIL: no PNG screenshot at $work/index.png"
  exit 1
fi

# One line per chart: "<title> <points of series 1>|<points of series 2>|".
tr '\n' ' ' <"$work/dom.html" | sed 's/<svg/\n<svg/g' | grep '<polyline' |
  sed -E 's/^[^>]*>[^>]*font-weight="bold"[^>]*>([^<]*)<.*$/\1 &/' >"$work/charts.txt" || true
awk -v sizes="$sizes" '
  {
    title = $1
    line = $0
    n = 0
    while (match(line, /<polyline points="[^"]*"/)) {
      pts = substr(line, RSTART + 18, RLENGTH - 19)
      line = substr(line, RSTART + RLENGTH)
      n++
      k = split(pts, xy, " ")
      count = 0
      last = -1e300
      for (i = 1; i <= k; i++) {
        if (xy[i] == "") continue
        split(xy[i], c, ",")
        if (c[1] + 0 <= last) { printf "FAIL %s: series %d goes back in x (%s after %s)\n", title, n, c[1], last; bad = 1 }
        last = c[1] + 0
        count++
      }
      if (count != sizes) { printf "FAIL %s: series %d has %d points, not %d\n", title, n, count, sizes; bad = 1 }
    }
    if (n != 2) { printf "FAIL %s: %d series, not 2\n", title, n; bad = 1 }
    print title > "/dev/stderr"
  }
  END { exit bad }
' "$work/charts.txt" 2>"$work/titles.txt" || {
  echo "charts as the browser built them: $work/charts.txt"
  exit 1
}
expected=$(for c in $calls; do echo "MPI_$c"; done | sort)
got=$(sort "$work/titles.txt")
if [ "$got" != "$expected" ]; then
  echo "FAIL: the charts are not one per MPI call"
  diff <(echo "$expected") <(echo "$got") || true
  exit 1
fi
echo "ok: $(wc -l <"$work/titles.txt") charts, one per MPI call, every series increasing in x;" \
  "screenshot $work/index.png"
