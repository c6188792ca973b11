#!/usr/bin/env bash
# Packs the SMPI benchmark with SimGrid's runtime into build-smpi/bundle/, to
# run the sweep on a larger x86-64 Linux machine that has no SimGrid (and
# perhaps another libc): the program, smpimain, every shared library they
# load (from ldd), the dynamic loader, and bundle/smpirun, which takes the
# part of smpirun's command line bench-smpi.sh uses
# (-platform X -hostfile H -np N PROGRAM ARGS... --cfg=...). There:
#   OPTCOLL_SMPIRUN=$PWD/build-smpi/bundle/smpirun OPTCOLL_SMPI_NO_BUILD=1 \
#     scripts/bench-smpi.sh --jobs 16 ...
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${OPTCOLL_SMPI_NO_BUILD:-0}" = 1 ] || scripts/build-smpi.sh >&2
b=build-smpi/bundle
rm -rf "$b" && mkdir -p "$b/lib"
smpimain=/usr/lib/x86_64-linux-gnu/simgrid/smpimain
prog=build-smpi/bench/smpi/collectives
cp "$smpimain" "$b/"
cp "$prog" "$b/collectives"
for f in $(ldd "$smpimain" "$prog" | awk '/=>/ {print $3} /ld-linux/ && !/=>/ {print $1}' | sort -u); do
  cp -L "$f" "$b/lib/"
done
loader=$(basename "$(ldd "$smpimain" | awk '/ld-linux/ {print ($3 != "" ? $3 : $1)}' | tail -1)")
cat >"$b/smpirun" <<EOF
#!/usr/bin/env bash
# smpirun's part that bench-smpi.sh uses, with the bundled libraries.
set -euo pipefail
here=\$(cd "\$(dirname "\$0")" && pwd)
while [ \$# -gt 0 ]; do
  case "\$1" in
    -platform) platform=\$2; shift 2 ;;
    -hostfile) hostfile=\$2; shift 2 ;;
    -np) np=\$2; shift 2 ;;
    *) break ;;
  esac
done
shift  # the program: always the bundled one
args=(); cfgs=()
for a in "\$@"; do
  case "\$a" in --cfg=*|--log=*) cfgs+=("\$a") ;; *) args+=("\$a") ;; esac
done
export SMPI_GLOBAL_SIZE=\$np
exec "\$here/lib/$loader" --library-path "\$here/lib" "\$here/smpimain" "\$here/collectives" \\
  --cfg=smpi/privatization:1 --cfg=smpi/np:\$np --cfg=smpi/hostfile:\$hostfile \\
  --cfg=surf/precision:1e-9 --cfg=network/model:SMPI "\${cfgs[@]}" "\$platform" "\${args[@]}"
EOF
chmod +x "$b/smpirun"
du -sh "$b" >&2
