#!/usr/bin/env bash
# Regenerates the planned motion of seed 001's experiment (walking while lowering the waist and lifting a
# bar held in the right hand): data/motions/walk_bar_planned.pos, .waist and .zmp, from
# config/walk/bar_walk.yaml (footsteps config/walk/bar_steps.yaml, arm keyframes bar_upper_body.yaml, the
# 0.7 kg bar as payload). config/jobs/walk_bar_smooth.yaml smooths it; its `contacts:` list repeats the
# support phases printed at the end (they change only when the footstep timing does).
# Usage: scripts/make_walk_sample.sh [path to the mimic binary]   (default: ${MIMIC_BUILD_DIR:-build}/bin/mimic)
set -euo pipefail
cd "$(dirname "$0")/.."
mimic="${1:-${MIMIC_BUILD_DIR:-build}/bin/mimic}"
if [ ! -x "$mimic" ]; then
  scripts/build.sh --target mimic_app
fi
report="$(mktemp --suffix=.json)"
trap 'rm -f "$report"' EXIT
"$mimic" walk --config config/walk/bar_walk.yaml --report "$report"
echo "support phases (config/jobs/walk_bar_smooth.yaml contacts:):"
python3 - "$report" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["contacts"]:
    print("  - {{ start: {:g}, end: {:g}, support: {} }}".format(c["start"], c["end"], c["support"]))
PY
