// Issue 13's acceptance, end to end through the smooth stage: a swing foot forced below the floor is
// reported by the check and corrected by the smoothing. The shipped bar walk's first right swing (1.5 s ..
// 2.6 s: both feet, right swing over 1.8 .. 2.5 s, both feet), with the right ankle pitched toe-down by a
// smooth bump of 0.6 rad in mid-swing: the toe corners go through the floor (reported as a ground violation
// of the right foot, as `mimic check` reports it); smooth_motion with the geometry rows lifts them back to
// the floor or above in every sample of the motion it writes. On the 50 Hz grid (every 4th sample) to keep
// it short; the geometry rows sit on the same samples as at 200 Hz.
#include <gtest/gtest.h>

#include <cmath>

#include "mimic/evaluation/check.hpp"
#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/smooth.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::pipeline {
namespace {

constexpr int kStride = 4;                // 50 Hz
constexpr int kFirst = 75, kLast = 130;   // 1.5 s .. 2.6 s at 50 Hz
constexpr double kBumpStart = 1.9 - 1.5;  // s into the window: the bump lies inside the swing
constexpr double kBumpEnd = 2.4 - 1.5;    // s
constexpr double kBumpPitch = 0.6;        // rad, toe down (RLEG_JOINT4 positive, as the breaches test)

// The window with the right ankle pitched by kBumpPitch sin^2 over [kBumpStart, kBumpEnd] (zero rate at
// both ends, so the plan stays smooth), v and a re-derived.
model::SampledMotion forced_toe_down(const model::Model& model, const model::SampledMotion& plan) {
  model::SampledMotion forced = plan;
  const int ankle = model.idx_q(model.joint_index("RLEG_JOINT4"));
  for (std::size_t k = 0; k < forced.times.size(); ++k) {
    const double t = forced.times[k];
    if (t <= kBumpStart || t >= kBumpEnd) continue;
    const double s = std::sin(M_PI * (t - kBumpStart) / (kBumpEnd - kBumpStart));
    forced.q(ankle, static_cast<Eigen::Index>(k)) += kBumpPitch * s * s;
  }
  model::differentiate(model, forced);
  return forced;
}

TEST(SmoothSwingBelowFloor, ForcedToeDownIsReportedAndCorrected) {
  const auto scenario = testing::load_scenario(kStride);
  const model::Model& model = scenario->model;
  const model::SampledMotion plan = testing::window(scenario->planned, kFirst, kLast);
  ASSERT_EQ(plan.phases.front(), model::ContactPhase::kDoubleSupport);
  ASSERT_EQ(plan.phases[30], model::ContactPhase::kLeftSupport);  // t = 2.1 s: the right foot swings
  ASSERT_EQ(plan.phases.back(), model::ContactPhase::kDoubleSupport);
  const model::SampledMotion forced = forced_toe_down(model, plan);
  const auto cmodel = std::make_shared<const geometry::CollisionModel>(geometry::build_collision_model(
      model, model::load_robot_description(model::default_robot_description_path())));

  // Reported: the check (limits with the job's factors, geometry with the default safety distance) finds
  // the right foot below the floor, as its one kind of ground offence.
  evaluation::CheckOptions options;
  options.factors = scenario->job.limits;
  options.collision = cmodel;
  const evaluation::Report before = evaluation::check_motion(model, scenario->feet, forced, options);
  ASSERT_TRUE(before.geometry.has_value());
  EXPECT_FALSE(before.geometry->above_ground());
  EXPECT_EQ(before.geometry->lowest_corner_foot, "right");
  // 0.6 rad toe-down on a foot a few centimetres above the floor: measured 6.2 mm below it; a corner
  // millimetres down is the bump's (the plan's swing sole stays flat, its corners at z >= 0 to round-off).
  EXPECT_LT(before.geometry->min_corner_height, -0.005);
  bool ground = false;
  for (const evaluation::Violation& v : before.violations)
    ground = ground || (v.kind == evaluation::ViolationKind::kGround && v.where == "right foot");
  EXPECT_TRUE(ground) << format_check_report(before);

  // Corrected: the smoothing keeps every sole corner at or above the floor (the check's 1e-6 m tolerance,
  // evaluation/geometry_check.hpp) in the motion it writes, and its verdict (the same check) passes.
  SmoothSettings settings = smooth_settings(scenario->job);
  settings.geometry.collision = cmodel;
  const SmoothResult result = smooth_motion(model, scenario->feet, forced, settings);
  ASSERT_TRUE(result.success) << result.failure << "\n" << result.solve.summary();
  const evaluation::GeometryReport after = evaluation::check_geometry(model, *cmodel, result.motion);
  EXPECT_TRUE(after.above_ground()) << after.lowest_corner_foot << ": " << after.min_corner_height << " m at "
                                    << after.min_corner_time;
  EXPECT_GE(after.min_corner_height, -1e-6);
  EXPECT_TRUE(after.collision_free())
      << after.closest_first << " / " << after.closest_second << ": " << after.min_distance;
}

}  // namespace
}  // namespace mimic::pipeline
