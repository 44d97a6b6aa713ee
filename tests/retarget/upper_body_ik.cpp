// The upper-body IK is built from the robot description: its variables are the description's retarget
// joints in their order, a description with another retarget set gives an IK over those joints only, the
// arms' segments come from the arm groups, and a warm-started frame allocates nothing.
#include "mimic/retarget/upper_body_ik.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "mimic/model/robot.hpp"
#include "support/allocation_counter.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::retarget {
namespace {

model::Robot load_hrp2() {
  return model::load_robot(model::default_robot_description_path(), std::nullopt, test::hrp2_urdf().string());
}

std::vector<std::string> variable_names(const UpperBodyIk& ik, const model::Model& model) {
  std::vector<std::string> names;
  for (int j : ik.variables()) names.push_back(model.joint_names[static_cast<std::size_t>(j)]);
  return names;
}

// Targets that move every upper-body joint away from the zero pose: torso and head tilted forward, the
// shoulders turned, both arms reaching forward with the elbows bent.
UpperBodyTargets bent_forward_targets() {
  UpperBodyTargets t;
  t.torso_up = Eigen::Vector3d(0.3, 0.0, 1.0).normalized();
  t.shoulder_axis = Eigen::Vector3d(-0.2, 1.0, 0.0).normalized();
  t.head_up = Eigen::Vector3d(0.5, 0.0, 1.0).normalized();
  for (ArmTargets& arm : t.arms) {
    arm.upper_arm = Eigen::Vector3d(0.5, 0.0, -1.0).normalized();
    arm.forearm = Eigen::Vector3d(1.0, 0.0, 0.2).normalized();
    arm.hand = arm.forearm;
    arm.reach = 0.25 * arm.upper_arm + 0.42 * arm.forearm;
  }
  return t;
}

TEST(UpperBodyIk, VariablesAreTheRetargetCommandJointsInOrder) {
  const model::Robot robot = load_hrp2();
  const UpperBodyIk ik(robot.model, robot.description);
  EXPECT_EQ(variable_names(ik, robot.model), robot.description.command_joints("retarget"));
  EXPECT_EQ(ik.variables().size(), 16u);  // seed 000 section VI: chest 2, head 2, arms 6 + 6
}

// HRP-2's arm segments (models/hrp2.urdf): shoulder to elbow 0.25 m, elbow to wrist 0.25 m, wrist to
// gripper 0.17 m; the elbow is found as the first arm joint away from the shoulder. Sums of exact
// offsets: 1e-12 allows for rounding only.
TEST(UpperBodyIk, ArmSegmentsComeFromTheArmGroups) {
  const model::Robot robot = load_hrp2();
  const UpperBodyIk ik(robot.model, robot.description);
  EXPECT_NEAR(ik.arm_length(), 0.5, 1e-12);
  EXPECT_NEAR(ik.gripper_length(), 0.17, 1e-12);
}

TEST(UpperBodyIk, AnotherRetargetSetGivesAnIkOverThoseJointsOnly) {
  // HRP-2's description with the neck left out of commands.retarget, its URDF path made absolute.
  std::ifstream in(model::default_robot_description_path());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string full_set = "retarget: [torso, neck, right_arm, left_arm]";
  ASSERT_NE(text.find(full_set), std::string::npos);
  text = std::regex_replace(text, std::regex("retarget: \\[torso, neck, right_arm, left_arm\\]"),
                            "retarget: [torso, right_arm, left_arm]");
  text = std::regex_replace(text, std::regex("urdf: \\.\\./\\.\\./models/hrp2.urdf"),
                            "urdf: " + test::hrp2_urdf().string());
  const auto path = test::unique_temp_path("no_neck_robot", ".yaml");
  std::ofstream(path) << text;
  const model::Robot no_neck = model::load_robot(path.string());
  std::filesystem::remove(path);

  const UpperBodyIk ik(no_neck.model, no_neck.description);
  const std::vector<std::string> expected = no_neck.description.command_joints("retarget");
  EXPECT_EQ(variable_names(ik, no_neck.model), expected);
  ASSERT_EQ(ik.variables().size(), 14u);
  for (const std::string& neck_joint : no_neck.description.groups.neck)
    EXPECT_EQ(std::count(expected.begin(), expected.end(), neck_joint), 0) << neck_joint;

  // Solved on targets that tilt the head: the full IK turns the neck, this one leaves it where it was
  // (exactly) and still moves the torso and the arms.
  const model::Robot hrp2 = load_hrp2();
  UpperBodyIk full(hrp2.model, hrp2.description);
  UpperBodyIk partial(no_neck.model, no_neck.description);
  const Eigen::VectorXd start = hrp2.description.nominal_q(hrp2.model).tail(hrp2.model.nj);
  Eigen::VectorXd full_joints = start, partial_joints = start;
  full.solve_from_scratch(bent_forward_targets(), full_joints, 100);
  partial.solve_from_scratch(bent_forward_targets(), partial_joints, 100);
  double neck_motion = 0.0, variables_motion = 0.0;
  for (int j = 0; j < hrp2.model.nj; ++j) {
    const std::string& name = hrp2.model.joint_names[static_cast<std::size_t>(j)];
    const auto& neck = hrp2.description.groups.neck;
    if (std::count(neck.begin(), neck.end(), name)) neck_motion += std::abs(full_joints[j] - start[j]);
    if (std::count(expected.begin(), expected.end(), name)) {
      variables_motion += std::abs(partial_joints[j] - start[j]);
    } else {
      EXPECT_EQ(partial_joints[j], start[j]) << name;
    }
  }
  // Sums of |change| in rad (measured 0.84 for the neck of the full IK, 5.2 for the partial IK's joints).
  EXPECT_GT(neck_motion, 0.1);
  EXPECT_GT(variables_motion, 1.0);
}

TEST(UpperBodyIk, AWarmStartedFrameAllocatesNothing) {
  const model::Robot robot = load_hrp2();
  UpperBodyIk ik(robot.model, robot.description);
  const UpperBodyTargets targets = bent_forward_targets();
  Eigen::VectorXd joints = robot.description.nominal_q(robot.model).tail(robot.model.nj);
  ik.solve_from_scratch(targets, joints, 100);
  UpperBodyTargets next = targets;  // the next frame: the head turns a little further
  next.head_up = Eigen::Vector3d(0.6, 0.1, 1.0).normalized();
  IkResult result;
  const test::Counts counts = test::count_allocations([&] { result = ik.solve(next, joints, 0.005); });
  EXPECT_GT(result.iterations, 1);
  EXPECT_EQ(counts.total(), 0) << counts.news << " new, " << counts.mallocs << " malloc";
}

}  // namespace
}  // namespace mimic::retarget
