#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run (issue 17): builds mimic and the tests of the readers
# (mocap), the file formats and job (io) and the text reading (core) with MIMIC_SANITIZE=ON in
# build-sanitize (or $MIMIC_SANITIZE_BUILD_DIR), runs those tests and the input mutation suite on the
# instrumented mimic (fewer mutants, a longer per-run limit: the instrumented binary is 2-3 times slower).
# Any sanitizer report fails the run (halt_on_error, no recovery from undefined behaviour).
# Usage: scripts/sanitize.sh [--mutants N]   (default 600)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${MIMIC_SANITIZE_BUILD_DIR:-build-sanitize}"
mutants=600
if [[ "${1:-}" == "--mutants" ]]; then mutants="$2"; fi
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
start=$(date +%s)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMIMIC_SANITIZE=ON \
  -DMIMIC_BUILD_BENCHMARKS=OFF "${launcher[@]}" >/dev/null
targets=(mimic_app)
for t in $(ninja -C "$build_dir" -t targets all | sed -n 's/^\(test_\(core\|io\|mocap\)_[a-z_0-9]*\): phony$/\1/p'); do
  targets+=("$t")
done
nice -n 5 cmake --build "$build_dir" --parallel "$(nproc)" --target "${targets[@]}"
built=$(date +%s)
# Distinct exit codes, so that the mutation suite reports a sanitizer finding as such (not as exit 1).
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:exitcode=86"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" -L '^(core|io|mocap)$' --timeout 900
python3 scripts/mutation_inputs.py --mimic "$build_dir/bin/mimic" --count "$mutants" --run-timeout 30 \
  --jobs "$(nproc)"
end=$(date +%s)
echo "sanitize.sh: build $((built - start)) s, tests and mutants $((end - built)) s"
