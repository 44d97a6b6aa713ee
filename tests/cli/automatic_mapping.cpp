// The automatic landmark mapping end to end: the boxing clip renamed into other naming families (CRLF,
// zero-length End Sites, an inserted twist joint; tests/support/renamed_bvh.hpp) retargets without a
// preset to the .pos of the original; `mimic info CLIP --landmarks` prints the mapping, and refuses a
// skeleton that is not a humanoid with one line and the exit code of bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_mimic.hpp"
#include "support/renamed_bvh.hpp"

namespace mimic::test {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Largest difference between the numbers of two .pos files of the same shape (infinity if the shapes
// differ).
double max_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  double worst = 0.0, u = 0.0, v = 0.0;
  while (x >> u) {
    if (!(y >> v)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::abs(u - v));
  }
  return (y >> v) ? std::numeric_limits<double>::infinity() : worst;
}

TEST(CliAutomaticMapping, RenamedSkeletonsRetargetToTheOriginalsPos) {
  TempDir dir;
  const RunResult original =
      run_mimic({"-q", "retarget", boxing_bvh(), "--kinematic-only", "-o", (dir / "original.pos").string()});
  ASSERT_EQ(original.exit_code, 0) << original.describe();
  const std::string expected = read_text(dir / "original.pos");

  for (const Family& family : boxing_families()) {
    SCOPED_TRACE(family.name);
    const auto clip = dir / (family.name + ".bvh");
    std::ofstream(clip, std::ios::binary) << edited_bvh(boxing_bvh(), family.edit);
    // Mixamo and ASF names are known to shipped presets, which pick the same joints; force the automatic
    // mapping there. The other families are mapped automatically by default.
    std::vector<std::string> args = {"retarget", clip.string(), "--kinematic-only", "-o",
                                     (dir / (family.name + ".pos")).string()};
    if (family.name == "mixamo" || family.name == "asf") args.insert(args.end(), {"--preset", "automatic"});
    const RunResult r = run_mimic(args);
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_NE(r.out.find("(preset automatic)"), std::string::npos) << r.describe();
    const std::string pos = read_text(dir / (family.name + ".pos"));
    // Byte-identical, except where a twist joint splits a bone in two: the joint positions are then sums
    // of two parts of the offset instead of one (a rounding of the last bit, 1e-16 m; the landmarks agree
    // to 1e-12 m in tests/retarget/skeleton_mapping.cpp), and the per-frame IK, which stops when no joint
    // moves more than its tolerance of 1e-5 rad, may stop one iteration apart: the .pos agree within that
    // tolerance (measured: 5.1e-8 rad).
    if (family.edit.twist_name.empty() || family.edit.twist_fraction == 0.0) {
      EXPECT_EQ(pos, expected);
    } else {
      EXPECT_LE(max_difference(pos, expected), 1e-5);
    }
  }
}

TEST(CliAutomaticMapping, InfoLandmarksPrintsTheMappingAndRefusesNonHumanoids) {
  TempDir dir;
  const Family blender = boxing_families()[2];
  ASSERT_EQ(blender.name, "blender");
  const auto clip = dir / "blender.bvh";
  std::ofstream(clip, std::ios::binary) << edited_bvh(boxing_bvh(), blender.edit);
  const RunResult r = run_mimic({"info", clip.string(), "--landmarks"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("mapping: automatic"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("left_elbow      forearm.L"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("pelvis          hips"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("note: arms: left and right from the names and the pose"), std::string::npos)
      << r.describe();

  const RunResult preset = run_mimic({"info", boxing_bvh(), "--landmarks"});
  ASSERT_EQ(preset.exit_code, 0) << preset.describe();
  EXPECT_NE(preset.out.find("preset 'cmu-motionbuilder' lists LeftArm"), std::string::npos)
      << preset.describe();

  // A chain is no humanoid: exit 3 (bad input), one line naming what is missing.
  std::ofstream(dir / "chain.bvh", std::ios::binary)
      << "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
         "Yrotation\n JOINT B\n {\n  OFFSET 0 80 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n"
         "  {\n   OFFSET 0 80 0\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.01\n0 0 0 0 0 0 0 0 0\n";
  const RunResult chain = run_mimic({"info", (dir / "chain.bvh").string(), "--landmarks"});
  EXPECT_EQ(chain.exit_code, 3) << chain.describe();
  EXPECT_EQ(std::count(chain.err.begin(), chain.err.end(), '\n'), 1) << chain.describe();
  EXPECT_NE(chain.err.find("missing: the branches of a humanoid"), std::string::npos) << chain.describe();
}

}  // namespace
}  // namespace mimic::test
