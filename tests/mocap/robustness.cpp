// Corrupted and truncated copies of the shared files (made here, in a temporary directory) end in an
// InputError or a usable clip: never a crash, a hang, another exception type or garbage that breaks
// forward kinematics. Also run under -DMIMIC_SANITIZE=ON (AddressSanitizer + UBSan). A hang is caught by
// ctest's timeout; how long these inputs take is measured in bench/mocap.cpp (BM_Corrupted*), on the same
// bytes (tests/mocap/corrupted_inputs.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "mimic/mocap/load.hpp"
#include "mocap/corrupted_inputs.hpp"
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
  fs::remove(path);
  return loaded;
}

class CorruptedShared : public testing::TestWithParam<const char*> {};

TEST_P(CorruptedShared, TruncatedCopiesFailCleanly) {
  MIMIC_REQUIRE_SHARED(original, std::string("mocap/") + GetParam());
  test::LogCapture quiet;  // truncated BVH rows are warnings; keep the test output readable
  const std::vector<char> bytes = read_bytes(original);
  TempDir dir;
  Outcome outcome;
  for (std::size_t length : test::truncation_lengths(bytes.size())) {
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
  int variant = 0;
  for (const test::ByteFlips& flips : test::byte_flip_variants(bytes.size())) {
    std::vector<char> copy = bytes;
    test::apply_flips(copy, flips);
    load_variant(dir.path(), "flip_" + std::to_string(variant++) + original.extension().string(), copy,
                 outcome);
  }
  EXPECT_EQ(outcome.errors + outcome.clips, test::kByteFlipVariants);
}

INSTANTIATE_TEST_SUITE_P(SharedFiles, CorruptedShared, testing::ValuesIn(test::kCorruptedSharedFiles),
                         [](const auto& info) {
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
  int variant = 0;
  for (const test::Garbage& garbage : test::garbage_variants()) {
    load_variant(dir.path(), "garbage_" + std::to_string(variant++) + (garbage.c3d ? ".c3d" : ".bvh"),
                 garbage.bytes, outcome);
  }
  EXPECT_EQ(outcome.errors, test::kGarbageVariants);
}

}  // namespace
}  // namespace mimic::mocap
