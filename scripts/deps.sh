#!/usr/bin/env bash
# Installs optcoll's build and test dependencies (Debian 12 packages only).
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config clang-format python3
          libgtest-dev libbenchmark-dev libcli11-dev libfmt-dev nlohmann-json3-dev
          openmpi-bin libopenmpi-dev mpich libmpich-dev clang-14 libclang-rt-14-dev ccache libsimgrid-dev
          gfortran  # Fortran programs under the Open MPI component (tests/ompi/)
          chromium  # the demo report's browser test (tests/cli/report_browser_test.sh)
          python3-mpi4py python3-numpy)  # the drop-in under mpi4py (tests/pmpi/run_mpi4py_test.sh)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${missing[*]}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
