// optim::CurvatureProduct on the motion problem with the torque objective (tau nonlinear in q through
// M(q) qdd + h(q, qd), with a payload): S(x; w) v, the forward difference of the analytic Jacobians, against
// the central difference of the analytic weighted gradient J(x)^T w along v (for fixed w), and the exact
// Hessian-vector product of f = 1/2 |r|^2, J^T J v + S(x; r) v, against the central difference of the
// analytic gradient J^T r.
#include <gtest/gtest.h>

#include <random>

#include "mimic/model/payload.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "mimic/optim/curvature_product.hpp"
#include "motion/synthetic_reference.hpp"

namespace mimic::motion {
namespace {

Eigen::VectorXd weighted_gradient(optim::Problem& problem, const Eigen::VectorXd& x,
                                  const optim::CurvatureWeights& w, bool residual_values) {
  optim::Evaluation e = optim::make_evaluation(problem);
  problem.evaluate(x, true, e);
  const Eigen::VectorXd& wr = residual_values ? e.residuals : w.residual;
  return e.residual_jacobian.transpose() * wr + e.inequality_jacobian.transpose() * w.inequality;
}

TEST(CurvatureProductMotion, TorqueObjectiveMatchesCentralDifferences) {
  model::Payload payload{"r_gripper",
                         spatial::Inertia(2.0, spatial::Vec3(0.02, 0.0, -0.05),
                                          spatial::Mat3(Eigen::Vector3d(0.01, 0.02, 0.03).asDiagonal()))};
  const model::Model model = model::with_payload(testing::load_hrp2(), payload);
  const MotionInput input = testing::synthetic_reference(model, 0.8);
  ProblemOptions options;
  options.objective = Objective::kTorque;
  for (int i = 7; i + 1 < input.sample_count(); i += 7) options.torque_samples.push_back(i);
  MotionProblem problem(model, model::default_robot_description(), input, options);

  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 0.1);
  Eigen::VectorXd x = problem.initial_guess();
  for (double& v : x) v += noise(rng);
  Eigen::VectorXd v(x.size());
  for (double& c : v) c = noise(rng);

  optim::Evaluation at = optim::make_evaluation(problem);
  problem.evaluate(x, true, at);
  optim::CurvatureWeights w;
  w.residual = at.residuals;
  w.equality.resize(0);
  w.inequality = Eigen::VectorXd::LinSpaced(at.inequalities.size(), 0.1, 2.0);  // multiplier estimates
  optim::CurvatureProduct product(problem);
  Eigen::VectorXd sv;
  ASSERT_TRUE(product.apply(x, at, w, v, sv));

  // Central differences with h = 1e-5 (|v|_inf ~ 0.3): truncation O(h^2) ~ 1e-10 relative, rounding
  // ~ 1e-16 |J^T w| / h ~ 1e-11 relative. The forward difference inside S is accurate to ~1e-7 relative
  // (its step is 1.5e-8 (1 + |x|) / |v|): 1e-5 of the largest entry covers both with a wide margin.
  const double h = 1e-5;
  const Eigen::VectorXd reference =
      (weighted_gradient(problem, x + h * v, w, false) - weighted_gradient(problem, x - h * v, w, false)) /
      (2.0 * h);
  const double scale = reference.cwiseAbs().maxCoeff();
  ASSERT_GT(scale, 1.0);  // the curvature is real
  EXPECT_LE((sv - reference).cwiseAbs().maxCoeff(), 1e-5 * scale);

  // The exact Hessian-vector product of 1/2 |r|^2 (no constraint weights).
  optim::CurvatureWeights residual_only = w;
  residual_only.inequality.setZero();
  ASSERT_TRUE(product.apply(x, at, residual_only, v, sv));
  const Eigen::VectorXd hv = at.residual_jacobian.transpose() * (at.residual_jacobian * v) + sv;
  const Eigen::VectorXd hv_reference = (weighted_gradient(problem, x + h * v, residual_only, true) -
                                        weighted_gradient(problem, x - h * v, residual_only, true)) /
                                       (2.0 * h);
  EXPECT_LE((hv - hv_reference).cwiseAbs().maxCoeff(), 1e-5 * hv_reference.cwiseAbs().maxCoeff());
  // And the Gauss-Newton part alone is not it: the second-order term matters on this problem.
  EXPECT_GT((hv - sv - hv_reference).cwiseAbs().maxCoeff(), 1e-3 * hv_reference.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace mimic::motion
