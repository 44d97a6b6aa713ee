#!/usr/bin/env bash
# Sets up (Debian packages), builds, and runs the main job on the shipped sample:
# data/mocap/boxing.bvh -> out/boxing.pos (+ .waist, .zmp) and a summary (out/boxing.json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh --target mimic_app
build_dir="${MIMIC_BUILD_DIR:-build}"
mkdir -p out
"$build_dir/bin/mimic" retarget data/mocap/boxing.bvh -o out/boxing.pos --report out/boxing.json
"$build_dir/bin/mimic" check out/boxing.pos
