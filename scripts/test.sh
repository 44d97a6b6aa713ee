#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs the whole test suite. This is the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build_dir="${MIMIC_BUILD_DIR:-build}"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" --timeout 1500
