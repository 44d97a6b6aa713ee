// The narrowest stance the legs' collision shapes allow (pipeline/whole_body_leg_spacing.hpp): JVRC-1's
// thick legs (shank capsules of radius 0.0746 m) need more than the soles do, HRP-2's slender ones need less.
#include "mimic/pipeline/whole_body_leg_spacing.hpp"

#include <gtest/gtest.h>

#include <iostream>

#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/step_limits.hpp"
#include "support/shared_data.hpp"

namespace mimic::pipeline {
namespace {

constexpr double kSafety = 0.01;  // m, the job's default safety distance

// JVRC-1: the spacing lies between the walk.bvh turn's step that put its knees into each other (0.147 m)
// and the nominal stance (0.192 m); its closest pair is one of a right and a left leg shape; a larger
// clearance widens it.
TEST(WholeBodyLegSpacing, Jvrc1LegsNeedMoreThanItsSoles) {
  MIMIC_REQUIRE_SHARED(robots, "robots");
  io::RobotSettings settings;
  settings.config = test::source_dir() / "config" / "robots" / "jvrc1.yaml";
  settings.model = robots / "jvrc1" / "urdf" / "jvrc1.urdf";
  const Robot robot = load_robot(settings);
  ASSERT_TRUE(robot.collision);
  const stability::Legs legs = stability::Legs::of(robot.model, robot.feet);
  const LegSpacing s = leg_spacing(robot.model, robot.description, legs, *robot.collision, kSafety);
  std::cout << "JVRC-1: spacing " << s.spacing << " m (nominal " << s.nominal_spacing << " m, legs "
            << s.nominal_distance << " m apart there), closest " << robot.collision->pair_name(s.closest_pair)
            << "\n";
  EXPECT_NEAR(s.nominal_spacing, 0.192, 1e-3);
  EXPECT_GT(s.nominal_distance, kSafety + kLegClearance);
  // The walk.bvh turn's 0.147 m step put the knees into each other: the spacing excludes it.
  EXPECT_GT(s.spacing, 0.16);
  EXPECT_LT(s.spacing, s.nominal_spacing);
  ASSERT_GE(s.closest_pair, 0);
  const std::string pair = robot.collision->pair_name(s.closest_pair);
  EXPECT_TRUE(pair.find("R_") != std::string::npos && pair.find("L_") != std::string::npos) << pair;

  // A larger clearance asks for a wider stance.
  const LegSpacing wider = leg_spacing(robot.model, robot.description, legs, *robot.collision, kSafety, 0.02);
  EXPECT_GT(wider.spacing, s.spacing + 0.005);
}

// HRP-2: its slender legs need less than its soles' own bound, the soles' inner edges (0.056 m from each
// sole frame) min_width (0.03 m) apart: 0.142 m with the soles parallel, more with one turned. So HRP-2's
// plans do not change (measured: 0.132 m).
TEST(WholeBodyLegSpacing, Hrp2LegsNeedLessThanItsSoles) {
  const Robot robot = load_robot(io::RobotSettings{});
  ASSERT_TRUE(robot.collision);
  const LegSpacing s = leg_spacing(robot.model, robot.description,
                                   stability::Legs::of(robot.model, robot.feet), *robot.collision, kSafety);
  std::cout << "HRP-2: spacing " << s.spacing << " m (nominal " << s.nominal_spacing << " m, legs "
            << s.nominal_distance << " m apart there)\n";
  EXPECT_GT(s.nominal_distance, kSafety + kLegClearance);
  EXPECT_LT(s.spacing, 0.056 + 0.03 + 0.056);
}

}  // namespace
}  // namespace mimic::pipeline
