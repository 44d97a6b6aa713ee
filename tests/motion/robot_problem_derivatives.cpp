// The motion problem's Jacobians on the robots beyond HRP-2 (issue 16) against central finite differences:
// G1 (a 3-joint waist, 7-joint arms with wrists, no neck, no hand joints, the URDF's joint order) and
// JVRC-1, with every row the retarget builds (joint and frame imitation, the blended torque residual,
// velocity, torque-limit and self-collision rows on every pair the arms move), at a point away from the
// reference. tests/motion/problem_derivatives.cpp covers HRP-2; these robots' index maps (active joints vs
// model joints vs spline coordinates) differ from it.
#include <gtest/gtest.h>

#include <random>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/collision_screening.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "motion/synthetic_reference.hpp"
#include "support/shared_data.hpp"

namespace mimic::motion {
namespace {

void expect_derivatives_match(const std::string& robot_name, const std::filesystem::path& urdf) {
  const model::Robot robot =
      model::load_robot((test::source_dir() / "config" / "robots" / (robot_name + ".yaml")).string(),
                        std::nullopt, urdf.string());
  const model::Model& model = robot.model;
  const MotionInput input = testing::synthetic_reference(model, 0.8, 2.0, 0.6, robot.description);
  const auto cmodel = std::make_shared<const geometry::CollisionModel>(
      geometry::build_collision_model(model, robot.description));
  ProblemOptions options;
  options.sigma = 3.0;
  options.torque_weight = 1e-3;
  options.limits.torque_factor = 0.5;
  options.geometry.collision = cmodel;
  options.collision_pairs = movable_pairs(model, *cmodel, active_joint_indices(model, robot.description));
  ASSERT_FALSE(options.collision_pairs.empty());
  for (int i = 0; i < input.sample_count(); i += 7) options.torque_samples.push_back(i);
  MotionProblem problem(model, robot.description, input, options);
  ASSERT_EQ(problem.num_variables() % static_cast<int>(problem.active_joints().size()), 0);

  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 0.1);
  Eigen::VectorXd x = problem.initial_guess();
  for (double& v : x) v += noise(rng);

  const optim::DerivativeCheckReport report = optim::check_derivatives(problem, x);
  EXPECT_TRUE(report.passed) << robot_name << ": " << report.summary();
  EXPECT_GT(report.checked_entries, 0);
}

TEST(RobotProblemDerivatives, G1MatchesFiniteDifferences) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  expect_derivatives_match("g1", urdf);
}

TEST(RobotProblemDerivatives, Jvrc1MatchesFiniteDifferences) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  expect_derivatives_match("jvrc1", urdf);
}

}  // namespace
}  // namespace mimic::motion
