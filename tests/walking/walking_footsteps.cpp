// Footstep YAML: what a plan reads as, and that every mistake is an InputError naming the file, the line
// and the key.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/walking/footsteps.hpp"
#include "mimic/walking/walking_schedule.hpp"

namespace mimic::walking {
namespace {

const std::string kStance = R"(initial_stance:
  right: { position: [0.0, -0.095] }
  left: { position: [0.0, 0.095] }
timing: { single_support: 0.8, double_support: 0.2 }
)";

std::string error_of(const std::string& yaml) {
  try {
    parse_footsteps(yaml, "/plans/walk.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(WalkingFootsteps, ReadsPositionsDisplacementsYawAndTimingOverrides) {
  const FootstepPlan plan = parse_footsteps(kStance + R"(initial_hold: 0.5
final_hold: 0.7
upper_body: arms/lift.yaml
steps:
  - { foot: right, displacement: [0.2, 0.01], waist_height_change: -0.02 }
  - { foot: left, position: [0.4, 0.1], yaw: 0.5, single_support: 1.0, step_height: 0.03 }
  - { foot: left, displacement: [0.1, 0.0] }
)",
                                            "/plans/walk.yaml");
  ASSERT_EQ(plan.steps.size(), 3u);
  EXPECT_EQ(plan.source, "/plans/walk.yaml");
  EXPECT_EQ(plan.upper_body, std::filesystem::path("/plans/arms/lift.yaml"));
  EXPECT_DOUBLE_EQ(plan.initial_hold, 0.5);
  EXPECT_DOUBLE_EQ(plan.final_hold, 0.7);
  EXPECT_DOUBLE_EQ(plan.final_transfer, 0.2);  // the file's double support

  // Positions are one addition or one rotation of metre-scale numbers: a few ulps (1e-15); the duration sums
  // six times of ~1 s (1e-12).
  const Footstep& first = plan.steps[0];
  EXPECT_EQ(first.foot, Foot::kRight);
  EXPECT_NEAR(first.target.position.x(), 0.2, 1e-15);
  EXPECT_NEAR(first.target.position.y(), -0.085, 1e-15);
  EXPECT_DOUBLE_EQ(first.waist_height_change, -0.02);
  EXPECT_DOUBLE_EQ(first.timing.single_support, 0.8);
  EXPECT_DOUBLE_EQ(first.timing.step_height, 0.05);  // the documented default
  EXPECT_EQ(first.line, 9);

  const Footstep& second = plan.steps[1];
  EXPECT_EQ(second.foot, Foot::kLeft);
  EXPECT_DOUBLE_EQ(second.target.yaw, 0.5);
  EXPECT_DOUBLE_EQ(second.timing.single_support, 1.0);
  EXPECT_DOUBLE_EQ(second.timing.double_support, 0.2);
  EXPECT_DOUBLE_EQ(second.timing.step_height, 0.03);
  EXPECT_DOUBLE_EQ(second.waist_height_change, 0.0);

  // A displacement is in the axes of the foot's previous placement, and the yaw is kept.
  const Footstep& third = plan.steps[2];
  EXPECT_NEAR(third.target.position.x(), 0.4 + 0.1 * std::cos(0.5), 1e-15);
  EXPECT_NEAR(third.target.position.y(), 0.1 + 0.1 * std::sin(0.5), 1e-15);
  EXPECT_DOUBLE_EQ(third.target.yaw, 0.5);

  EXPECT_NEAR(plan.duration(), 0.5 + 1.0 + 1.2 + 1.0 + 0.2 + 0.7, 1e-12);
}

TEST(WalkingFootsteps, ErrorsNameTheFileTheLineAndTheKey) {
  const std::string steps = "steps:\n  - { foot: right, displacement: [0.1, 0.0] }\n";
  EXPECT_EQ(error_of(kStance + "step:\n  - { foot: right }\n"),
            "/plans/walk.yaml:line 5: unknown key 'step' (did you mean 'steps'? expected one of: "
            "initial_stance, timing, initial_hold, final_hold, upper_body, steps)");
  EXPECT_EQ(error_of(kStance), "/plans/walk.yaml:line 1: missing required key 'steps'");
  EXPECT_EQ(error_of(kStance + "steps: []\n"),
            "/plans/walk.yaml:line 5: steps: expected a non-empty list of steps, found a list");
  EXPECT_EQ(error_of(kStance + "steps:\n  - { foot: rigth, position: [0.1, -0.095] }\n"),
            "/plans/walk.yaml:line 6: steps[0].foot: expected right or left, found 'rigth'");
  EXPECT_EQ(
      error_of(kStance + "steps:\n  - { foot: right, position: [0.1, -0.095], displacement: [0.1, 0] }\n"),
      "/plans/walk.yaml:line 6: steps[0].displacement: give either 'position' or 'displacement', not both");
  EXPECT_EQ(error_of(kStance + "steps:\n  - { foot: right }\n"),
            "/plans/walk.yaml:line 6: steps[0].position: missing 'position' or 'displacement'");
  EXPECT_EQ(error_of(kStance + "steps:\n  - { foot: right, position: [0.1] }\n"),
            "/plans/walk.yaml:line 6: steps[0].position: expected a list of 2 numbers, found a list of 1");
  EXPECT_EQ(error_of(kStance + "steps:\n  - { foot: left, displacement: [0.1, 0], single_support: -0.8 }\n"),
            "/plans/walk.yaml:line 6: steps[0].single_support: expected a number > 0 (s), found -0.8");
  EXPECT_EQ(
      error_of(kStance + "steps:\n  - { foot: left, displacement: [0.1, 0], step_hieght: 0.1 }\n"),
      "/plans/walk.yaml:line 6: unknown key 'steps[0].step_hieght' (did you mean 'step_height'? expected "
      "one of: foot, position, displacement, yaw, single_support, double_support, step_height, "
      "waist_height_change)");
  EXPECT_EQ(error_of(kStance + "final_hold: soon\n" + steps),
            "/plans/walk.yaml:line 5: final_hold: expected a number, found 'soon'");
  EXPECT_EQ(error_of(kStance + "initial_hold: -1\n" + steps),
            "/plans/walk.yaml:line 5: initial_hold: expected a number >= 0 (s), found -1");
  EXPECT_EQ(error_of("initial_stance:\n  right: { position: [0.0, -0.095] }\ntiming: { single_support: 0.8, "
                     "double_support: 0.2 }\n" +
                     steps),
            "/plans/walk.yaml:line 1: missing required key 'initial_stance.left'");
  EXPECT_EQ(
      error_of("initial_stance:\n  right: { position: [0.0, -0.095] }\n  left: { position: [0.0, 0.095] }\n"
               "timing: { single_support: 0.8 }\n" +
               steps),
      "/plans/walk.yaml:line 4: missing required key 'timing.double_support'");
  EXPECT_EQ(error_of(kStance + "steps:\n  - { foot: right, displacement: [0.1, 0], double_support: 0 }\n"),
            "/plans/walk.yaml:line 6: steps[0].double_support: expected a number > 0 (s), found 0");
  EXPECT_EQ(error_of(""),
            "/plans/walk.yaml: empty footstep file; expected 'initial_stance', 'timing' and 'steps'");
  EXPECT_NE(error_of(kStance + "steps: [ { foot: right\n").find("/plans/walk.yaml:line "), std::string::npos);
  EXPECT_THROW(load_footsteps("/no/such/steps.yaml"), InputError);
}

TEST(WalkingFootsteps, AStepOntoTheOtherSoleIsRefusedWithItsLine) {
  const model::RobotDescription& description = model::default_robot_description();
  // The right foot moved 0.1 m to the left would overlap the left sole (inner edges 0.056 m from each ankle).
  const FootstepPlan crossing = parse_footsteps(kStance + R"(steps:
  - { foot: left, displacement: [0.2, 0.0] }
  - { foot: right, displacement: [0.2, 0.1] }
)",
                                                "/plans/walk.yaml");
  try {
    WalkSchedule(crossing, description.right_sole, description.left_sole);
    FAIL() << "overlapping soles accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(
        e.what(),
        "/plans/walk.yaml:line 7: steps[1]: the right sole would land on the left sole (their rectangles "
        "overlap)");
  }
  // 0.02 m further apart than the sum of the inner edges is fine.
  const FootstepPlan close = parse_footsteps(
      kStance + "steps:\n  - { foot: right, displacement: [0.0, 0.061] }\n", "/plans/walk.yaml");
  EXPECT_NO_THROW(WalkSchedule(close, description.right_sole, description.left_sole));
}

}  // namespace
}  // namespace mimic::walking
