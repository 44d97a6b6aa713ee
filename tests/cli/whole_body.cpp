// `mimic retarget`'s mode (issue 14, pipeline/retarget_mode.hpp) on the first seconds of the CMU walk
// 131_01 (../shared/mocap, skipped visibly when absent): auto sees that it travels, `--upper-body-only`
// warns how far the human travels, the shipped boxer (footwork in place) stays upper-body without a
// warning, a clip with a flight phase is refused by the whole-body mode, and the two mode flags exclude
// each other.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_mimic.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

// The first `frames` frames of a BVH; `lift` adds to the root's second channel (the CMU clips' height,
// Yposition) in frames [lift_from, lift_to): both feet leave the floor there, a jump.
void cut_bvh(const std::filesystem::path& in, const std::filesystem::path& out, int frames, double lift = 0.0,
             int lift_from = 0, int lift_to = 0) {
  std::ifstream file(in);
  std::ofstream cut(out);
  std::string line;
  int frame = -1;  // -1: header
  while (std::getline(file, line)) {
    if (frame < 0) {
      if (line.rfind("Frames:", 0) == 0) {
        cut << "Frames: " << frames << "\n";
        continue;
      }
      cut << line << "\n";
      if (line.rfind("Frame Time:", 0) == 0) frame = 0;
      continue;
    }
    if (frame >= frames) break;
    if (frame >= lift_from && frame < lift_to) {
      std::istringstream values(line);
      std::vector<double> v;
      for (double x; values >> x;) v.push_back(x);
      v[1] += lift;
      for (double x : v) cut << x << ' ';
      cut << "\n";
    } else {
      cut << line << "\n";
    }
    ++frame;
  }
}

// 4.5 s of CMU 131_01 (the whole clip is 8.3 s): enough steps and travel to count as walking, short
// enough for the suite.
constexpr int kCutFrames = 540;

// The walk's first 4.5 s travel far enough for auto to see that the clip walks; it keeps the upper body
// (the whole-body mode is opt-in while experimental), says what it measured and why, and warns.
TEST(CliWholeBody, AutoModeSeesThatTheWalkTravels) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/bvh/bvh11__cmu_131_01.bvh");
  TempDir dir;
  const auto bvh = dir / "walk.bvh";
  cut_bvh(clip, bvh, kCutFrames);
  const RunResult r =
      run_mimic({"retarget", bvh.string(), "--kinematic-only", "-o", (dir / "k.pos").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("leg lengths) from its start (above 0.50); the clip walks: --whole-body (experimental)"), std::string::npos)
      << r.describe();
  EXPECT_NE(r.err.find("the robot will stand still while the human travels"), std::string::npos)
      << r.describe();
}

TEST(CliWholeBody, UpperBodyOnlyOnAWalkWarnsThatTheRobotStandsStill) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/bvh/bvh11__cmu_131_01.bvh");
  TempDir dir;
  const auto bvh = dir / "walk.bvh";
  cut_bvh(clip, bvh, kCutFrames);
  const RunResult r = run_mimic(
      {"retarget", bvh.string(), "--upper-body-only", "--kinematic-only", "-o", (dir / "k.pos").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("mode: upper body (retarget.mode upper_body)"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("the robot will stand still while the human travels"), std::string::npos)
      << r.describe();
}

TEST(CliWholeBody, BoxerFootworkInPlaceStaysUpperBodyWithoutWarning) {
  TempDir dir;
  const RunResult r = run_mimic({"retarget", sample("data/mocap/boxing.bvh").string(), "--kinematic-only",
                                 "-o", (dir / "b.pos").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("mode: upper body: 5 step(s), the pelvis ends 0.084 m (0.10 leg lengths) from its "
                       "start (not above 0.50)"),
            std::string::npos)
      << r.describe();
  EXPECT_EQ(r.err.find("stand still"), std::string::npos) << r.describe();
}

TEST(CliWholeBody, FlightPhaseIsRefused) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/bvh/bvh11__cmu_131_01.bvh");
  TempDir dir;
  const auto bvh = dir / "jump.bvh";
  // 0.4 s up in the air, 8 CMU units (0.45 m) above the walk: both feet off the floor.
  cut_bvh(clip, bvh, kCutFrames, 8.0, 300, 348);
  const auto pos = dir / "out" / "jump.pos";
  const RunResult r = run_mimic({"-q", "retarget", bvh.string(), "--whole-body", "-o", pos.string()});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(single_error_line(r).find("running and jumping are not supported"), std::string::npos)
      << r.describe();
  EXPECT_FALSE(std::filesystem::exists(pos));
}

TEST(CliWholeBody, ModeFlagsExcludeEachOther) {
  const RunResult r = run_mimic({"retarget", sample("data/mocap/boxing.bvh").string(), "--whole-body",
                                 "--upper-body-only", "-o", "x.pos"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
}

}  // namespace
}  // namespace mimic::test
