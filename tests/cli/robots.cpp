// `--robot NAME|FILE` (issue 16): `mimic info --robot jvrc1|g1 --model URDF` describes the robot as its
// shipped description loads it, with the standing pose report; `mimic check` of a standing motion on each;
// an unknown NAME is a usage error listing the shipped robots.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/run_mimic.hpp"
#include "mimic/model/robot.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

TEST(CliRobots, InfoDescribesJvrc1WithHeldFingers) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  const RunResult r = run_mimic({"info", "--robot", "jvrc1", "--model", urdf.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* text :
       {"joints (32, the description's joint_order)", "held joints (12, fixed at their value)",
        "total mass: 62.4000 kg", "standing pose report", "inside the support polygon"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.describe();
}

TEST(CliRobots, InfoDescribesG1) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const RunResult r = run_mimic({"info", "--robot", "g1", "--model", urdf.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* text : {"joints (29, the description's joint_order)", "held joints (0,",
                           "total mass: 33.3411 kg", "standing pose report"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.describe();
}

// A motion standing in the description's nominal pose for 2 s at 200 Hz (.pos in joint_order, .waist) passes
// `mimic check` on the robot: limits, ZMP, slip, self-collision at the default 0.01 m, soles on the floor.
void expect_standing_check_passes(const std::string& robot, const fs::path& urdf) {
  const model::Robot loaded = model::load_robot(
      (source_dir() / "config" / "robots" / (robot + ".yaml")).string(), std::nullopt, urdf.string());
  const Eigen::VectorXd q = loaded.description.nominal_q(loaded.model);
  const fs::path dir = fs::temp_directory_path() / ("mimic_test_stand_" + robot);
  fs::create_directories(dir);
  std::ofstream pos(dir / "stand.pos"), waist(dir / "stand.waist");
  pos.precision(17);
  waist.precision(17);
  for (int k = 0; k <= 400; ++k) {
    pos << k * 0.005;
    for (int j = 0; j < loaded.model.nj; ++j) pos << " " << q[loaded.model.idx_q(j)];
    pos << "\n";
    waist << k * 0.005 << " " << q[0] << " " << q[1] << " " << q[2] << " 0 0 0\n";
  }
  pos.close();
  waist.close();
  const RunResult r =
      run_mimic({"check", (dir / "stand.pos").string(), "--robot", robot, "--model", urdf.string()});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("OK: every limit holds, no self-collision, no sole corner below the floor"),
            std::string::npos)
      << r.describe();
  fs::remove_all(dir);
}

TEST(CliRobots, StandingMotionPassesTheCheckOnJvrc1) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  expect_standing_check_passes("jvrc1", urdf);
}

TEST(CliRobots, StandingMotionPassesTheCheckOnG1) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  expect_standing_check_passes("g1", urdf);
}

TEST(CliRobots, UnknownRobotNameIsAUsageError) {
  const RunResult r = run_mimic({"info", "--robot", "asimo"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("--robot: expected a shipped robot (g1, hrp2, jvrc1)"), std::string::npos)
      << r.describe();
}

}  // namespace
}  // namespace mimic::test
