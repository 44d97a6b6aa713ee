// `mimic smooth` moves the two legs on every robot: the shipped descriptions' commands.smooth name exactly
// their legs' joints (HRP-2, JVRC-1, G1: whatever the joint names), and a description that asks for other
// joints is refused at that key rather than smoothed with joints it did not name.
#include <gtest/gtest.h>

#include "mimic/core/error.hpp"
#include "mimic/pipeline/smooth.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

model::RobotDescription shipped(const std::string& robot) {
  // Descriptions only: their urdf: is not read, so no shared data is needed.
  return model::load_robot_description((source_dir() / "config" / "robots" / (robot + ".yaml")).string());
}

TEST(SmoothJoints, ShippedDescriptionsSmoothTheirLegs) {
  for (const char* robot : {"hrp2", "jvrc1", "g1"}) {
    const model::RobotDescription description = shipped(robot);
    EXPECT_NO_THROW(pipeline::check_smooth_joints(description)) << robot;
    EXPECT_EQ(description.command_joints("smooth").size(), 12u) << robot;
  }
}

TEST(SmoothJoints, OtherJointsAreRefusedAtTheKey) {
  model::RobotDescription description = shipped("g1");
  description.smooth_groups = {"right_leg", "torso"};
  try {
    pipeline::check_smooth_joints(description);
    FAIL() << "expected a ModelError";
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("commands.smooth"), std::string::npos) << message;
    EXPECT_NE(message.find("expected the joints of right_leg and left_leg"), std::string::npos) << message;
  }
  description.smooth_groups = {"left_leg", "right_leg"};  // the order does not matter
  EXPECT_NO_THROW(pipeline::check_smooth_joints(description));
}

}  // namespace
}  // namespace mimic::test
