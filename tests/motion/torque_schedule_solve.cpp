// The torque objective as `mimic retarget --objective torque` now runs it (pipeline::motion_settings): the
// adaptive penalty schedule (the penalty grows only when the violation did not fall fourfold) and the
// integral on every 10th sample, against the seed's schedule on every sample (the previous default), on a
// 1 s clip whose reference breaks the velocity limits, with tightened torque limits. Both end within every
// limit at 200 Hz, and the new settings end at a dense torque integral no worse than the old ones' (on the
// whole boxing clip: 134.3 against 156.4, README).
#include <gtest/gtest.h>

#include "mimic/model/robot_description.hpp"
#include "mimic/motion/optimize_motion.hpp"
#include "motion/synthetic_reference.hpp"

namespace mimic::motion {
namespace {

MotionResult solve(const model::Model& model, const MotionInput& input, optim::PenaltySchedule schedule,
                   int stride) {
  MotionSettings settings;
  settings.objective = Objective::kTorque;
  settings.torque_objective_stride = stride;
  settings.limits.torque_factor = 0.3;
  settings.solver.alm.residual_sizing = true;
  settings.solver.alm.max_outer_iterations = 100;
  settings.solver.alm.initial_penalty = 10.0;
  settings.solver.alm.schedule = schedule;
  return optimize_motion(model, model::default_robot_description(), input, settings);
}

TEST(TorqueScheduleSolve, AdaptiveScheduleOnTheCoarseGridMeetsTheLimitsAtNoWorseIntegral) {
  const model::Model model = testing::load_hrp2();
  const MotionInput input = testing::synthetic_reference(model, 1.0);
  const MotionResult seed = solve(model, input, optim::PenaltySchedule::kSeed, 1);
  const MotionResult adaptive = solve(model, input, optim::PenaltySchedule::kAdaptive, 10);
  for (const MotionResult* r : {&seed, &adaptive}) {
    ASSERT_TRUE(r->success) << r->failure;
    // optimize_motion's 200 Hz check tolerance.
    EXPECT_LE(r->metrics.torque.ratio, 1.0 + 1e-6);
    EXPECT_LE(r->metrics.velocity.ratio, 1.0 + 1e-6);
  }
  const double a = seed.metrics.active_torque_integral, b = adaptive.metrics.active_torque_integral;
  std::printf(
      "dense integral: seed, every sample %.6g (%d outer iterations); adaptive, every 10th %.6g (%d)\n", a,
      seed.total_iterations, b, adaptive.total_iterations);
  ASSERT_GT(a, 1.0);
  // The rule's own error is about 1 % of the integral on such swings (tests/motion/torque_quadrature.cpp):
  // no worse than that above the dense solve's minimum.
  EXPECT_LE(b, 1.01 * a);
}

}  // namespace
}  // namespace mimic::motion
