#!/usr/bin/env bash
# Installs every Debian package that mimic's build, tests, benchmarks and plots need. Safe to re-run.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git
  libeigen3-dev coinor-libipopt-dev libcli11-dev libyaml-cpp-dev libspdlog-dev libfmt-dev
  liburdfdom-dev liburdfdom-headers-dev
  libassimp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  liborocos-kdl-dev
  gnuplot-nox
  libjs-three chromium
  python3
  dpkg-dev file  # cpack -G DEB: dpkg-shlibdeps computes the Depends, file finds the ELF files
  pybind11-dev python3-dev python3-numpy python3-pytest
)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
