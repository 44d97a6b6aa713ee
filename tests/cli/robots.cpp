// `--robot NAME|FILE` (issue 16): `mimic info --robot jvrc1|g1 --model URDF` describes the robot as its
// shipped description loads it, with the standing pose report; `mimic check` of a standing motion on each;
// an unknown NAME is a usage error listing the shipped robots.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/run_mimic.hpp"
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

TEST(CliRobots, UnknownRobotNameIsAUsageError) {
  const RunResult r = run_mimic({"info", "--robot", "asimo"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("--robot: expected a shipped robot (g1, hrp2, jvrc1)"), std::string::npos)
      << r.describe();
}

}  // namespace
}  // namespace mimic::test
