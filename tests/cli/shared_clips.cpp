// `mimic retarget` on real third-party clips of ../shared/mocap (read from there; skipped visibly when the
// folder is absent, a failure under MIMIC_REQUIRE_SHARED_DATA=1): BVH skeletons of two dialects and C3D
// marker clips with a full-body set go through the full pipeline, load back and pass `mimic check`;
// a lower-body marker set is refused with exit code 3, one error line naming the file, and no output.
#include <gtest/gtest.h>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

struct Clip {
  const char* file;    // under ../shared/mocap
  const char* preset;  // recognised skeleton / marker set, as printed in the summary
};

void PrintTo(const Clip& clip, std::ostream* os) { *os << clip.file; }

class CliSharedClip : public testing::TestWithParam<Clip> {};

TEST_P(CliSharedClip, FullPipelineOutputsLoadBackAndPassCheck) {
  const Clip& clip = GetParam();
  MIMIC_REQUIRE_SHARED(input, std::string("mocap/") + clip.file);
  TempDir dir;
  const auto pos = dir / "motion.pos";
  // Seed 000's upper-body pipeline on every clip: 131_03 (a jog with a flight phase) and the Qualisys walk
  // travel, and `retarget.mode: auto` would make the robot walk them (tests/cli/whole_body.cpp).
  const RunResult r = run_mimic({"-q", "retarget", input.string(), "--upper-body-only", "-o", pos.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find(std::string("(preset ") + clip.preset + ")"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("optimisation: alm"), std::string::npos) << r.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"motion.pos", "motion.waist", "motion.zmp"}));
  const io::MotionFiles motion = expect_motion_files(pos);
  // Every joint stays inside its range as written (the check below re-derives it independently).
  EXPECT_TRUE(motion.pos.angles.allFinite());
  expect_check_passes(pos);
}

INSTANTIATE_TEST_SUITE_P(
    Clips, CliSharedClip,
    testing::Values(Clip{"bvh/bvh11__cmu_131_03.bvh", "cmu-3dsmax"},     // CMU units, mixed rotation orders
                    Clip{"bvh/makehuman__walk1.bvh", "makehuman-game"},  // decimetres, Z-up, 14 frames
                    Clip{"c3d/c3dorg-s00__nexgen_test1.c3d", "plug-in-gait"},  // metres, Y-up, full body
                    Clip{"c3d/ezc3d__Qualisys.c3d", "qualisys"}),  // first frame 705, heavy analog
    [](const testing::TestParamInfo<Clip>& info) {
      std::string name = std::filesystem::path(info.param.file).stem().string();
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

// Eb015 holds a lower-body gait marker set only: no head, no arms, nothing to retarget.
TEST(CliSharedClipRefused, LowerBodyMarkerSetExits3WithOneLineNamingTheFile) {
  MIMIC_REQUIRE_SHARED(input, "mocap/c3d/c3dorg-s01__Eb015pi.c3d");
  TempDir dir;
  const RunResult r = run_mimic({"-q", "retarget", input.string(), "-o", "out/eb015.pos"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  const auto lines = nonempty_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << "one error line expected\n" << r.describe();
  EXPECT_EQ(lines[0].rfind("[error] ", 0), 0u) << r.describe();
  EXPECT_NE(lines[0].find(input.string()), std::string::npos) << "the error names the file\n" << r.describe();
  EXPECT_NE(lines[0].find("unknown markers"), std::string::npos) << r.describe();
  EXPECT_EQ(r.out, "") << r.describe();
  EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
}

}  // namespace
}  // namespace mimic::test
