// Reading speed of the mocap readers on the largest files of ../shared/mocap (and the shipped samples).
// Reports bytes/s (MB/s) and frames/s. Target (issue 3): >= 50 MB/s for BVH, so that reading is never the
// slow part of a run. The file is read into memory once outside the timed loop: the numbers are the
// parser's, not the disk's; BM_LoadFile includes the read for comparison.
//
// BM_Corrupted*: the pathological inputs of tests/mocap/robustness.cpp (truncated and byte-flipped copies
// of every shared file it corrupts, random garbage; the same bytes, from tests/mocap/corrupted_inputs.hpp),
// parsed from memory. One iteration reads the whole set of a file; "slowest_ms" is the slowest single
// input, where a reader that loops or goes quadratic on a damaged header shows up.
#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "../tests/mocap/corrupted_inputs.hpp"
#include "mimic/core/error.hpp"
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

// Parses one possibly damaged input (a .bvh or .c3d by `c3d`); an InputError is an expected outcome.
// Returns the seconds it took.
double parse_corrupted(std::span<const char> bytes, bool c3d) {
  const auto start = std::chrono::steady_clock::now();
  try {
    const mimic::mocap::Clip clip =
        c3d ? mimic::mocap::parse_c3d(std::as_bytes(bytes), "corrupted.c3d")
            : mimic::mocap::parse_bvh({bytes.data(), bytes.size()}, "corrupted.bvh");
    benchmark::DoNotOptimize(clip.frame_count());
  } catch (const mimic::InputError&) {
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void report_corrupted(benchmark::State& state, std::size_t inputs, double slowest) {
  state.counters["inputs/s"] =
      benchmark::Counter(static_cast<double>(inputs), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["slowest_ms"] = 1e3 * slowest;
}

void BM_CorruptedTruncated(benchmark::State& state, const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return state.SkipWithError(("missing " + path.string()).c_str());
  const std::vector<char> bytes = slurp(path);
  const bool c3d = path.extension() == ".c3d";
  const std::vector<std::size_t> lengths = mimic::test::truncation_lengths(bytes.size());
  double slowest = 0.0;
  for (auto _ : state) {
    for (std::size_t length : lengths)
      slowest = std::max(slowest, parse_corrupted(std::span(bytes).first(length), c3d));
  }
  report_corrupted(state, lengths.size(), slowest);
}

void BM_CorruptedByteFlips(benchmark::State& state, const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return state.SkipWithError(("missing " + path.string()).c_str());
  std::vector<char> bytes = slurp(path);
  const bool c3d = path.extension() == ".c3d";
  const std::vector<mimic::test::ByteFlips> variants = mimic::test::byte_flip_variants(bytes.size());
  double slowest = 0.0;
  for (auto _ : state) {
    for (const mimic::test::ByteFlips& flips : variants) {
      // Flipping in place and back (XOR) instead of copying: the copy would cost as much as a parse.
      mimic::test::apply_flips(bytes, flips);
      slowest = std::max(slowest, parse_corrupted(bytes, c3d));
      mimic::test::apply_flips(bytes, flips);
    }
  }
  report_corrupted(state, variants.size(), slowest);
}

void BM_CorruptedGarbage(benchmark::State& state) {
  const std::vector<mimic::test::Garbage> variants = mimic::test::garbage_variants();
  double slowest = 0.0;
  for (auto _ : state) {
    for (const mimic::test::Garbage& garbage : variants)
      slowest = std::max(slowest, parse_corrupted(garbage.bytes, garbage.c3d));
  }
  report_corrupted(state, variants.size(), slowest);
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
BENCHMARK(BM_CorruptedGarbage)->Unit(benchmark::kMillisecond);

// One truncation and one byte-flip case per corrupted file, named after it (e.g.
// BM_CorruptedTruncated/bvh/assimp__cmu_01_03.bvh).
void register_corrupted_cases() {
  for (const char* file : mimic::test::kCorruptedSharedFiles) {
    const std::filesystem::path path = shared_dir() / "mocap" / file;
    benchmark::RegisterBenchmark((std::string("BM_CorruptedTruncated/") + file).c_str(),
                                 BM_CorruptedTruncated, path)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("BM_CorruptedByteFlips/") + file).c_str(),
                                 BM_CorruptedByteFlips, path)
        ->Unit(benchmark::kMillisecond);
  }
}

// The readers warn about the shared files' quirks (extra rows, marker gaps) on every iteration: keep
// the report readable.
int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::err);
  register_corrupted_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
