// The motion problem's Jacobians (residuals and inequalities; it has no equalities) against central
// finite differences, for both objectives and the blended one, with and without a payload, at a point away
// from the reference so that velocities and accelerations are non-zero.
#include <gtest/gtest.h>

#include <random>

#include "mimic/model/payload.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "motion/synthetic_reference.hpp"

namespace mimic::motion {
namespace {

struct Case {
  Objective objective;
  bool payload;
  double torque_weight = 0.0;  // > 0: the blended objective (imitation + w * torque)
};

class ProblemDerivatives : public ::testing::TestWithParam<Case> {};

TEST_P(ProblemDerivatives, MatchFiniteDifferences) {
  model::Model model = testing::load_hrp2();
  if (GetParam().payload) {
    model::Payload payload{"r_gripper",
                           spatial::Inertia(2.0, spatial::Vec3(0.02, 0.0, -0.05),
                                            spatial::Mat3(Eigen::Vector3d(0.01, 0.02, 0.03).asDiagonal()))};
    model = model::with_payload(model, payload);
  }
  const MotionInput input = testing::synthetic_reference(model, 0.8);
  ProblemOptions options;
  options.objective = GetParam().objective;
  options.sigma = 3.0;
  options.torque_weight = GetParam().torque_weight;
  options.limits.torque_factor = 0.5;
  for (int i = 0; i < input.sample_count(); i += 7) options.torque_samples.push_back(i);
  MotionProblem problem(model, model::default_robot_description(), input, options);
  ASSERT_EQ(problem.num_variables() % static_cast<int>(problem.active_joints().size()), 0);
  ASSERT_GT(problem.num_variables(), 0);

  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 0.1);
  Eigen::VectorXd x = problem.initial_guess();
  for (double& v : x) v += noise(rng);

  const optim::DerivativeCheckReport report = optim::check_derivatives(problem, x);
  EXPECT_TRUE(report.passed) << report.summary();
  EXPECT_GT(report.checked_entries, 0);

  // The Jacobians are not trivially zero: the torque rows and the position rows carry real entries.
  optim::Evaluation e = optim::make_evaluation(problem);
  problem.evaluate(x, true, e);
  EXPECT_GT(e.inequality_jacobian.cwiseAbs().sum(), 1.0);
  EXPECT_GT(e.residual_jacobian.cwiseAbs().sum(), 1.0);
}

INSTANTIATE_TEST_SUITE_P(Objectives, ProblemDerivatives,
                         ::testing::Values(Case{Objective::kImitation, false},
                                           Case{Objective::kImitation, true}, Case{Objective::kTorque, false},
                                           Case{Objective::kTorque, true},
                                           Case{Objective::kImitation, false, 1e-3},
                                           Case{Objective::kImitation, true, 1e-3}),
                         [](const auto& info) {
                           const std::string name = info.param.torque_weight > 0.0 ? "Blended"
                                                    : info.param.objective == Objective::kImitation
                                                        ? "Imitation"
                                                        : "Torque";
                           return name + (info.param.payload ? "WithPayload" : "");
                         });

// The blended objective is the sum it is documented to be: f_blended(x) = f_imitation(x) + w f_torque(x)
// (both 1/2 |r|^2 with r = sqrt(dt) (...) per sample), with the same constraints as either, and w = 0 is
// the imitation problem itself.
TEST(ProblemBlendedObjective, IsImitationPlusWeightedTorque) {
  const model::Model model = testing::load_hrp2();
  const MotionInput input = testing::synthetic_reference(model, 0.8);
  const auto problem_with = [&](Objective objective, double weight) {
    ProblemOptions options;
    options.objective = objective;
    options.sigma = 3.0;
    options.torque_weight = weight;
    options.limits.torque_factor = 0.5;
    for (int i = 0; i < input.sample_count(); i += 7) options.torque_samples.push_back(i);
    return MotionProblem(model, model::default_robot_description(), input, options);
  };
  const double w = 2.5e-3;
  MotionProblem imitation = problem_with(Objective::kImitation, 0.0);
  MotionProblem torque = problem_with(Objective::kTorque, 0.0);
  MotionProblem blended = problem_with(Objective::kImitation, w);
  ASSERT_EQ(blended.num_variables(), imitation.num_variables());
  ASSERT_EQ(blended.num_residuals(), imitation.num_residuals() + torque.num_residuals());

  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 0.1);
  Eigen::VectorXd x = imitation.initial_guess();
  for (double& v : x) v += noise(rng);
  const auto evaluated = [&](MotionProblem& problem) {
    optim::Evaluation e = optim::make_evaluation(problem);
    problem.evaluate(x, false, e);
    return e;
  };
  const optim::Evaluation ei = evaluated(imitation), et = evaluated(torque), eb = evaluated(blended);
  ASSERT_GT(et.objective(), 0.0);
  // Sums of squares of the same numbers in another order: relative round-off.
  EXPECT_NEAR(eb.objective(), ei.objective() + w * et.objective(), 1e-12 * eb.objective());
  // The torque part is not negligible at this weight, or the identity would prove little.
  EXPECT_GT(w * et.objective(), 0.1 * ei.objective());
  ASSERT_EQ(eb.inequalities.size(), ei.inequalities.size());
  EXPECT_LE((eb.inequalities - ei.inequalities).cwiseAbs().maxCoeff(), 1e-12);
}

// The describe hook names the joint, the kind and the time of each constraint family.
TEST(ProblemDescribe, NamesJointKindAndTime) {
  const model::Model model = testing::load_hrp2();
  const MotionInput input = testing::synthetic_reference(model, 0.8);
  ProblemOptions options;
  options.torque_samples = {0, 40, 80};
  MotionProblem problem(model, model::default_robot_description(), input, options);
  const int m = static_cast<int>(problem.active_joints().size());
  const int velocity_rows = problem.num_inequalities() - 2 * m * 3;
  EXPECT_NE(
      problem.describe_constraint(optim::ConstraintKind::kInequality, 0, 0.1).find("CHEST_JOINT0 velocity"),
      std::string::npos);
  const std::string torque =
      problem.describe_constraint(optim::ConstraintKind::kInequality, velocity_rows + 2 * (m + 7), 0.1);
  EXPECT_NE(torque.find("RARM_JOINT3 torque at t=0.200 s"), std::string::npos) << torque;
  EXPECT_NE(
      problem.describe_constraint(optim::ConstraintKind::kUpperBound, 5, 0.01).find("RARM_JOINT1 angle"),
      std::string::npos);
}

}  // namespace
}  // namespace mimic::motion
