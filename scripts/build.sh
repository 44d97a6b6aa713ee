#!/usr/bin/env bash
# Configures and builds mimic (Release) into ${MIMIC_BUILD_DIR:-build}.
# Usage: scripts/build.sh [cmake --build arguments, e.g. --target mimic_app]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${MIMIC_BUILD_DIR:-build}"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build_dir" --parallel "$(nproc)" "$@"
