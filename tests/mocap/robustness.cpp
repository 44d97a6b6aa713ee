// Corrupted and truncated copies of the shared files (made here, in a temporary directory) end in an
// InputError or a usable clip: never a crash, a hang, another exception type or garbage that breaks
// forward kinematics. Also run under -DMIMIC_SANITIZE=ON (AddressSanitizer + UBSan).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <random>

#include "mimic/mocap/load.hpp"
#include "mocap/test_helpers.hpp"
#include "support/shared_data.hpp"

namespace mimic::mocap {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("mimic_mocap_robustness_" + std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::vector<char> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A clip that made it through must be usable: frames, positive rate, finite numbers where valid.
void expect_usable(const Clip& clip) {
  EXPECT_GT(clip.frame_count(), 0);
  EXPECT_GT(clip.rate(), 0.0);
  EXPECT_TRUE(std::isfinite(clip.conversion.scale));
  if (clip.is_skeleton()) {
    const SkeletonClip& s = clip.skeleton();
    EXPECT_TRUE(s.values.allFinite());
    for (const Joint& j : s.joints) EXPECT_TRUE(j.offset.allFinite());
    const auto g = s.global_transforms(s.frame_count() - 1);
    for (const auto& t : g) EXPECT_TRUE(t.matrix().allFinite());
  } else {
    const MarkerClip& m = clip.markers();
    EXPECT_EQ(m.positions.size(), m.states.size());
    for (std::size_t i = 0; i < m.positions.size(); ++i) {
      if (m.states[i] != SampleState::kMissing) {
        EXPECT_TRUE(m.positions[i].allFinite());
      }
    }
  }
}

struct Outcome {
  int errors = 0;
  int clips = 0;
};

// Loads `bytes` through a file in `dir`; counts the outcome (true: a clip); fails the test on anything else.
bool load_variant(const fs::path& dir, const std::string& name, const std::vector<char>& bytes,
                  Outcome& outcome) {
  const fs::path path = dir / name;
  write_bytes(path, bytes);
  const auto start = std::chrono::steady_clock::now();
  bool loaded = false;
  try {
    const Clip clip = load_clip(path);
    expect_usable(clip);
    ++outcome.clips;
    loaded = true;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    ++outcome.errors;
  } catch (const std::exception& e) {
    ADD_FAILURE() << name << ": unexpected exception type: " << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << name << " took too long";
  fs::remove(path);
  return loaded;
}

const char* kFiles[] = {
    "bvh/assimp__Boxing_Toes.bvh",
    "bvh/assimp__cmu_01_03.bvh",
    "bvh/bvh11__cmu_131_01.bvh",
    "bvh/bvh11__cmu_scaled_131_01.bvh",
    "bvh/bvh11__cmu_131_03.bvh",
    "bvh/makehuman__walk1.bvh",
    "bvh/makehuman__benchmark_pose.bvh",
    "bvh/bvhio__example_blanklines.bvh",
    "c3d/c3dorg-s01__Eb015pi.c3d",
    "c3d/c3dorg-s01__Eb015pr.c3d",
    "c3d/c3dorg-s01__Eb015vi.c3d",
    "c3d/c3dorg-s01__Eb015vr.c3d",
    "c3d/c3dorg-s01__Eb015si.c3d",
    "c3d/c3dorg-s01__Eb015sr.c3d",
    "c3d/btkdata__vicon_shd01.c3d",
    "c3d/btkdata__optitrack_mocap36.c3d",
    "c3d/c3dorg-s00__nexgen_test1.c3d",
    "c3d/ezc3d__Qualisys.c3d",
    "c3d/c3dorg-s34__xsens_AlbertoINT.c3d",
};

class CorruptedShared : public testing::TestWithParam<const char*> {};

TEST_P(CorruptedShared, TruncatedCopiesFailCleanly) {
  MIMIC_REQUIRE_SHARED(original, std::string("mocap/") + GetParam());
  test::LogCapture quiet;  // truncated BVH rows are warnings; keep the test output readable
  const std::vector<char> bytes = read_bytes(original);
  TempDir dir;
  Outcome outcome;
  std::vector<std::size_t> lengths = {0, 1, 2, 3, 10, 100, 511, 512, 513, 1024, 1500, 2048, 4096};
  for (int k = 1; k < 16; ++k) lengths.push_back(bytes.size() * k / 16);
  lengths.push_back(bytes.size() - 1);
  std::mt19937 rng(1234);
  for (int k = 0; k < 8; ++k)
    lengths.push_back(std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng));
  for (std::size_t length : lengths) {
    if (length >= bytes.size()) continue;
    const std::vector<char> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
    const bool loaded = load_variant(
        dir.path(), "cut_" + std::to_string(length) + original.extension().string(), cut, outcome);
    // A C3D cut before the end of its frames is an error (frames declared but missing); only the padding
    // of the last 512-byte block may go.
    if (original.extension() == ".c3d") {
      EXPECT_TRUE(!loaded || length + 512 > bytes.size()) << "cut at " << length;
    }
  }
  // Very short copies cannot be anything but an error.
  EXPECT_GE(outcome.errors, 8);
}

TEST_P(CorruptedShared, RandomByteFlipsNeverCrash) {
  MIMIC_REQUIRE_SHARED(original, std::string("mocap/") + GetParam());
  test::LogCapture quiet;
  const std::vector<char> bytes = read_bytes(original);
  TempDir dir;
  Outcome outcome;
  std::mt19937 rng(20240611u + static_cast<unsigned>(bytes.size()));
  // Half of the variants are corrupted in the first 4 KB, where the headers, hierarchy and parameters
  // live (where a reader takes decisions); the others anywhere.
  for (int variant = 0; variant < 40; ++variant) {
    std::vector<char> copy = bytes;
    const std::size_t region = variant % 2 == 0 ? std::min<std::size_t>(bytes.size(), 4096) : bytes.size();
    const int flips = 1 + static_cast<int>(rng() % 16);
    for (int i = 0; i < flips; ++i) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, region - 1)(rng);
      copy[at] = static_cast<char>(copy[at] ^ static_cast<char>(1 + rng() % 255));
    }
    load_variant(dir.path(), "flip_" + std::to_string(variant) + original.extension().string(), copy,
                 outcome);
  }
  EXPECT_EQ(outcome.errors + outcome.clips, 40);
}

INSTANTIATE_TEST_SUITE_P(SharedFiles, CorruptedShared, testing::ValuesIn(kFiles), [](const auto& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

// Arbitrary bytes with the right extension: never a crash.
TEST(CorruptedInput, RandomGarbage) {
  test::LogCapture quiet;
  TempDir dir;
  Outcome outcome;
  std::mt19937 rng(7);
  for (int variant = 0; variant < 200; ++variant) {
    std::vector<char> bytes(rng() % 3000);
    for (char& b : bytes) b = static_cast<char>(rng());
    if (variant % 4 == 1 && bytes.size() > 2) bytes[1] = 0x50;  // C3D key: gets past the first check
    load_variant(dir.path(), "garbage_" + std::to_string(variant) + (variant % 2 ? ".c3d" : ".bvh"), bytes,
                 outcome);
  }
  EXPECT_EQ(outcome.errors, 200);
}

}  // namespace
}  // namespace mimic::mocap
