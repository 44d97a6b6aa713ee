// `mimic info` on the robot model and on the shipped clips; --help of every subcommand; --version.
#include <gtest/gtest.h>

#include <regex>

#include "cli/run_mimic.hpp"
#include "mimic/model/model.hpp"

namespace mimic::test {
namespace {

TEST(CliInfo, UrdfListsTheThirtyJointsInOpenHrpOrderAndTheTotalMass) {
  const RunResult r = run_mimic({"info", hrp2_urdf().string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("joints (30, OpenHRP order)"), std::string::npos) << r.describe();
  // Each joint on its own row "  <idx>  <name> ...", in OpenHRP order.
  const auto& names = model::openhrp_joint_names();
  ASSERT_EQ(names.size(), 30u);
  std::size_t previous = 0;
  for (std::size_t j = 0; j < names.size(); ++j) {
    const std::regex row("\\n\\s+" + std::to_string(j) + "\\s+" + names[j] + "\\s");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, row)) << names[j] << " not listed as joint " << j << "\n"
                                                  << r.out;
    const std::size_t at = static_cast<std::size_t>(m.position(0));
    EXPECT_GT(at, previous) << names[j] << " out of order";
    previous = at;
  }
  EXPECT_NE(r.out.find("total mass: 56.8680 kg"), std::string::npos) << r.describe();
  // CoM in half-sitting near (0.010, 0, 0.808) (hrp2.md section 7).
  EXPECT_NE(r.out.find("centre of mass in half-sitting"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("(0.00999, 0.00020, 0.80780)"), std::string::npos) << r.describe();
  for (const char* frame : {"r_sole", "l_sole", "r_gripper", "l_gripper", "gaze"})
    EXPECT_NE(r.out.find(frame), std::string::npos) << frame << "\n" << r.describe();
}

TEST(CliInfo, BvhClip) {
  const RunResult r = run_mimic({"info", sample("data/mocap/boxing.bvh").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* text : {"(BVH)", "skeleton: 31 joints + 7 end sites, 96 channels", "frames: 960",
                           "rate: 120.000 Hz", "units: cm (detected", "up axis: +y (detected)"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << "'" << text << "'\n" << r.describe();
  }
  for (const char* joint : {"Hips", "LeftForeArm", "RightHand", "Head"})
    EXPECT_NE(r.out.find(joint), std::string::npos) << joint;
}

TEST(CliInfo, C3dClip) {
  const RunResult r = run_mimic({"info", sample("data/mocap/boxing.c3d").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("(C3D)"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("markers: 41"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("LFHD"), std::string::npos) << r.describe();
}

TEST(CliHelp, EverySubcommandHelpExits0) {
  const RunResult top = run_mimic({"--help"});
  EXPECT_EQ(top.exit_code, 0) << top.describe();
  EXPECT_NE(top.out.find("Exit codes"), std::string::npos) << top.describe();
  for (const char* command : {"batch", "check", "info", "plot", "retarget", "smooth", "walk"}) {
    EXPECT_NE(top.out.find(std::string("  ") + command + " "), std::string::npos) << command << " not listed";
    const RunResult r = run_mimic({command, "--help"});
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << r.describe();
    EXPECT_NE(r.out.find(command), std::string::npos) << r.describe();
    EXPECT_EQ(r.err, "") << r.describe();
  }
}

TEST(CliHelp, Version) {
  const RunResult r = run_mimic({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out.rfind("mimic ", 0), 0u) << r.describe();
}

}  // namespace
}  // namespace mimic::test
