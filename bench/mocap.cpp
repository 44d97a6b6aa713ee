// Reading speed of the mocap readers on the largest files of ../shared/mocap (and the shipped samples).
// Reports bytes/s (MB/s) and frames/s. Target (issue 3): >= 50 MB/s for BVH, so that reading is never the
// slow part of a run. The file is read into memory once outside the timed loop: the numbers are the
// parser's, not the disk's; BM_LoadFile includes the read for comparison.
#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mimic/mocap/load.hpp"

namespace {

std::filesystem::path shared_dir() {
  if (const char* env = std::getenv("MIMIC_SHARED_DIR"); env && *env) return env;
  return MIMIC_SHARED_DIR_DEFAULT;
}

std::vector<char> slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void report(benchmark::State& state, std::size_t bytes, int frames) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["MB/s"] =
      benchmark::Counter(static_cast<double>(bytes) / 1e6, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["frames/s"] = benchmark::Counter(frames, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ParseBvh(benchmark::State& state, const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return state.SkipWithError(("missing " + path.string()).c_str());
  const std::vector<char> text = slurp(path);
  int frames = 0;
  for (auto _ : state) {
    const mimic::mocap::Clip clip =
        mimic::mocap::parse_bvh({text.data(), text.size()}, path.filename().string());
    frames = clip.frame_count();
    benchmark::DoNotOptimize(clip.skeleton().values.data());
  }
  report(state, text.size(), frames);
}

void BM_ParseC3d(benchmark::State& state, const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return state.SkipWithError(("missing " + path.string()).c_str());
  const std::vector<char> data = slurp(path);
  int frames = 0;
  for (auto _ : state) {
    const mimic::mocap::Clip clip =
        mimic::mocap::parse_c3d(std::as_bytes(std::span<const char>(data)), path.filename().string());
    frames = clip.frame_count();
    benchmark::DoNotOptimize(clip.markers().positions.data());
  }
  report(state, data.size(), frames);
}

void BM_LoadFile(benchmark::State& state, const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return state.SkipWithError(("missing " + path.string()).c_str());
  int frames = 0;
  for (auto _ : state) {
    const mimic::mocap::Clip clip = mimic::mocap::load_clip(path);
    frames = clip.frame_count();
  }
  report(state, std::filesystem::file_size(path), frames);
}

// Forward kinematics of every frame (what retargeting does next), for scale.
void BM_GlobalTransforms(benchmark::State& state, const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return state.SkipWithError(("missing " + path.string()).c_str());
  const mimic::mocap::Clip clip = mimic::mocap::load_clip(path);
  const auto& skeleton = clip.skeleton();
  std::vector<Eigen::Isometry3d> transforms;
  for (auto _ : state) {
    for (int f = 0; f < skeleton.frame_count(); ++f) {
      skeleton.global_transforms(f, transforms);
      benchmark::DoNotOptimize(transforms.data());
    }
  }
  state.counters["frames/s"] =
      benchmark::Counter(skeleton.frame_count(), benchmark::Counter::kIsIterationInvariantRate);
}

const std::filesystem::path kBvhLargest = shared_dir() / "mocap/bvh/assimp__cmu_01_03.bvh";
const std::filesystem::path kBvhBoxing = shared_dir() / "mocap/bvh/assimp__Boxing_Toes.bvh";
const std::filesystem::path kBvhMixed = shared_dir() / "mocap/bvh/bvh11__cmu_131_01.bvh";
const std::filesystem::path kC3dLargest = shared_dir() / "mocap/c3d/c3dorg-s34__xsens_AlbertoINT.c3d";
const std::filesystem::path kC3dAnalog = shared_dir() / "mocap/c3d/ezc3d__Qualisys.c3d";
const std::filesystem::path kC3dFloat = shared_dir() / "mocap/c3d/btkdata__optitrack_mocap36.c3d";
const std::filesystem::path kSampleBvh = std::filesystem::path(MIMIC_SOURCE_DIR) / "data/mocap/boxing.bvh";
const std::filesystem::path kSampleC3d = std::filesystem::path(MIMIC_SOURCE_DIR) / "data/mocap/boxing.c3d";

}  // namespace

BENCHMARK_CAPTURE(BM_ParseBvh, cmu_01_03, kBvhLargest)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseBvh, Boxing_Toes, kBvhBoxing)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseBvh, cmu_131_01_mixed, kBvhMixed)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseBvh, sample_boxing, kSampleBvh)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadFile, bvh_cmu_01_03, kBvhLargest)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseC3d, xsens_int, kC3dLargest)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseC3d, qualisys_analog, kC3dAnalog)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseC3d, optitrack_float, kC3dFloat)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseC3d, sample_boxing, kSampleC3d)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GlobalTransforms, cmu_01_03, kBvhLargest)->Unit(benchmark::kMillisecond);

// The readers warn about the shared files' quirks (extra rows, marker gaps) on every iteration: keep
// the report readable.
int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::err);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
