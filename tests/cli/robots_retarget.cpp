// `mimic retarget --robot NAME --model URDF -o X.csv` on robots other than HRP-2 (issue 16): every stage
// (kinematic retarget, waist clamp, feet planted by the leg IK, the motion problem's joints and frames, the
// ZMP correction, the check) takes the loaded robot's description. A 2 s cut of the shipped boxing.bvh keeps
// the test to a few seconds; the CSV written is read back by `mimic check` at the same rate.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/run_mimic.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

// `frames` frames of data/mocap/boxing.bvh (120 Hz) from frame `first` on, written to `path`: the header as
// it is, the frame count replaced.
void write_boxing_cut(const fs::path& path, int frames, int first = 0) {
  std::ifstream in(source_dir() / "data" / "mocap" / "boxing.bvh");
  ASSERT_TRUE(in) << "cannot read data/mocap/boxing.bvh";
  std::ofstream out(path);
  std::string line;
  int read = -1, written = 0;  // read -1: header; then frame lines read
  while (std::getline(in, line) && written < frames) {
    if (read < 0 && line.rfind("Frames:", 0) == 0) {
      out << "Frames: " << frames << "\n";
    } else if (read < 0 && line.rfind("Frame Time:", 0) == 0) {
      out << line << "\n";
      read = 0;
    } else if (read < 0) {
      out << line << "\n";
    } else if (read++ >= first) {
      out << line << "\n";
      ++written;
    }
  }
  ASSERT_EQ(written, frames) << "data/mocap/boxing.bvh has fewer frames than the cut";
}

struct Folder {
  fs::path path;
  explicit Folder(const std::string& stem) : path(unique_temp_path(stem)) { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
};

std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// Retargets 2 s of boxing onto the robot (both objectives' default: imitation, ALM, ZMP correction) into a
// CSV at 200 Hz, then checks the CSV on the same robot.
void expect_retarget_passes_check(const std::string& robot, const fs::path& urdf, const std::string& joint) {
  const Folder dir("retarget_" + robot);
  write_boxing_cut(dir.path / "boxing_cut.bvh", 240);
  const fs::path csv = dir.path / ("boxing_" + robot + ".csv");
  const RunResult r = run_mimic({"-q", "retarget", (dir.path / "boxing_cut.bvh").string(), "--robot", robot,
                                 "--model", urdf.string(), "-o", csv.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* text : {"imitation: joint RMSE", "head/hand error RMS", "min ZMP margin", "wrote "})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.describe();
  // The columns are the robot's joint_order (a joint of the robot, no HRP-2 column).
  const std::string header = first_line(csv);
  EXPECT_NE(header.find(joint), std::string::npos) << header;
  EXPECT_EQ(header.find("RLEG_JOINT0"), std::string::npos) << header;

  const RunResult c =
      run_mimic({"check", csv.string(), "--rate", "200", "--robot", robot, "--model", urdf.string()});
  EXPECT_EQ(c.exit_code, 0) << c.describe();
  EXPECT_NE(c.out.find("OK: every limit holds, no self-collision, no sole corner below the floor"),
            std::string::npos)
      << c.describe();
}

TEST(CliRobotsRetarget, BoxingOnJvrc1PassesTheCheck) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  expect_retarget_passes_check("jvrc1", urdf, "R_SHOULDER_P");
}

// G1's optimised retarget (torso of 3, no neck, arms of 7 with wrists; its torso a box the guard's elbows
// start inside): the ALM converges in a few iterations since the box depth's gradient is right
// (closest_points.hpp; before, the violation stayed at 6.4 while the penalty grew to 1e8).
TEST(CliRobotsRetarget, BoxingOnG1PassesTheCheck) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  expect_retarget_passes_check("g1", urdf, "waist_yaw_joint");
}

// G1 on boxing 3.0 .. 5.0 s: from 1.0 s of the re-timed cut on, the right hand is in the head, 12 cm deep at
// 2.0 s (capsule radius 0.0815 m, the two segments nearly crossing: the distance gives no direction), and
// the cut ends there. The reference is cleared of that run first (motion/reference_clearance.hpp, with a
// warning); before, such a clip made the solver swing the wrist radians past its limit and exit 4.
TEST(CliRobotsRetarget, BoxingOnG1WithTheHandDeepInTheHeadPassesTheCheck) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const Folder dir("retarget_g1_deep");
  write_boxing_cut(dir.path / "boxing_cut.bvh", 240, 360);
  const fs::path csv = dir.path / "boxing_g1.csv";
  const RunResult r = run_mimic({"retarget", (dir.path / "boxing_cut.bvh").string(), "--robot", "g1",
                                 "--model", urdf.string(), "-o", csv.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("deep into head_link / right_wrist_yaw_link"), std::string::npos) << r.describe();
  const RunResult c =
      run_mimic({"check", csv.string(), "--rate", "200", "--robot", "g1", "--model", urdf.string()});
  EXPECT_EQ(c.exit_code, 0) << c.describe();
  EXPECT_NE(c.out.find("OK: every limit holds, no self-collision, no sole corner below the floor"),
            std::string::npos)
      << c.describe();
}

// G1's kinematic retarget runs on G1's own joints, re-timed within its torque limits
// (config/robots/g1.yaml retiming), and writes its CSV.
TEST(CliRobotsRetarget, KinematicBoxingOnG1WritesTheRobotsColumns) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const Folder dir("retarget_g1");
  write_boxing_cut(dir.path / "boxing_cut.bvh", 240);
  const fs::path csv = dir.path / "boxing_g1.csv";
  const RunResult r = run_mimic({"-q", "retarget", (dir.path / "boxing_cut.bvh").string(), "--robot", "g1",
                                 "--model", urdf.string(), "--kinematic-only", "-o", csv.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("29 joints"), std::string::npos) << r.describe();
  EXPECT_NE(first_line(csv).find("waist_yaw_joint"), std::string::npos) << first_line(csv);
}

// Without --model, --robot NAME loads the URDF its description names (${MIMIC_ROBOTS_DIR}/g1/...), not the
// job's default HRP-2 model: retarget, check and view alike (app::apply_robot_option).
TEST(CliRobotsRetarget, RobotWithoutModelUsesTheDescriptionsUrdf) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  ASSERT_EQ(setenv("MIMIC_ROBOTS_DIR", urdf.parent_path().parent_path().c_str(), 1), 0);
  const Folder dir("retarget_g1_no_model");
  write_boxing_cut(dir.path / "boxing_cut.bvh", 240);
  const fs::path csv = dir.path / "boxing_g1.csv";
  const RunResult r = run_mimic({"-q", "retarget", (dir.path / "boxing_cut.bvh").string(), "--robot", "g1",
                                 "--kinematic-only", "-o", csv.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("29 joints"), std::string::npos) << r.describe();
  // The kinematic baseline breaks limits (exit 4), but the check loads G1 and names its joints.
  const RunResult c = run_mimic({"check", csv.string(), "--rate", "200", "--robot", "g1"});
  EXPECT_NE(c.exit_code, 3) << c.describe();
  EXPECT_EQ(c.err.find("no joint"), std::string::npos) << c.describe();
  const RunResult v = run_mimic({"-q", "view", csv.string(), "--rate", "200", "--robot", "g1", "--fps", "5"});
  EXPECT_EQ(v.exit_code, 0) << v.describe();
}

}  // namespace
}  // namespace mimic::test
