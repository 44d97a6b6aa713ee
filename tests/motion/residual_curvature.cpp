// SplineProblem's residual curvature (motion/spline_curvature.cpp) on the retarget problem with the torque
// objective (with a payload): S(x; w) v against central differences of the analytic gradient J_r(x)^T w along
// v for fixed w, on random directions and single control points; its pattern inside J_r^T J_r's; the same
// values on 1 and 2 threads; present for the torque and blended objectives, absent for the imitation.
//
// Tolerance: the reference's central differences (h = 1e-5, |v|_inf ~ 0.3) are good to ~1e-10 of the
// gradient's scale (truncation h^2 |g'''| / 6, rounding eps |g| / h); S's per-sample Hessians are central
// differences of the analytic torque gradient (dynamics/rnea_second_order.hpp), as accurate. 1e-7 of the
// largest entry leaves three orders of margin; a wrong basis coefficient or a missing block is off by O(1).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>

#include "mimic/core/thread_pool.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "motion/synthetic_reference.hpp"

namespace mimic::motion {
namespace {

Eigen::VectorXd weighted_gradient(optim::Problem& problem, const Eigen::VectorXd& x,
                                  const Eigen::VectorXd& w) {
  optim::Evaluation e = optim::make_evaluation(problem);
  problem.evaluate(x, true, e);
  return e.residual_jacobian.transpose() * w;
}

struct Fixture {
  Fixture(Objective objective, double torque_weight)
      : model(testing::load_hrp2_with_gripper_payload()),
        input(testing::synthetic_reference(model, 0.8)),
        problem(model, model::default_robot_description(), input, [&] {
          ProblemOptions options;
          options.objective = objective;
          options.torque_weight = torque_weight;
          for (int i = 7; i + 1 < input.sample_count(); i += 7) options.torque_samples.push_back(i);
          return options;
        }()) {}
  model::Model model;
  MotionInput input;
  MotionProblem problem;
};

TEST(ResidualCurvature, TorqueObjectiveMatchesCentralDifferences) {
  Fixture f(Objective::kTorque, 0.0);
  MotionProblem& problem = f.problem;
  ASSERT_TRUE(problem.has_residual_curvature());
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 0.1);
  Eigen::VectorXd x = problem.initial_guess();
  for (double& v : x) v += noise(rng);
  optim::Evaluation at = optim::make_evaluation(problem);
  problem.evaluate(x, true, at);
  const Eigen::VectorXd w = at.residuals;  // the weights the ALM uses

  optim::SymmetricMatrix s = problem.residual_curvature_pattern();
  problem.evaluate_residual_curvature(x, w, s);
  const auto product = [&](const Eigen::VectorXd& v) -> Eigen::VectorXd {
    return s.selfadjointView<Eigen::Lower>() * v;
  };
  const double h = 1e-5;
  std::vector<Eigen::VectorXd> directions;
  for (int k = 0; k < 3; ++k) {
    Eigen::VectorXd v(x.size());
    for (double& c : v) c = noise(rng);
    directions.push_back(v);
  }
  for (const int column : {0, static_cast<int>(x.size()) / 2, static_cast<int>(x.size()) - 1}) {
    directions.push_back(Eigen::VectorXd::Unit(x.size(), column));
  }
  for (const Eigen::VectorXd& v : directions) {
    const Eigen::VectorXd reference =
        (weighted_gradient(problem, x + h * v, w) - weighted_gradient(problem, x - h * v, w)) / (2.0 * h);
    const double scale = reference.cwiseAbs().maxCoeff();
    ASSERT_GT(scale, 1e-3);  // the curvature is real
    EXPECT_LE((product(v) - reference).cwiseAbs().maxCoeff(), 1e-7 * scale) << "scale " << scale;
  }

  // Inside J_r^T J_r's pattern: every stored pair shares a residual row.
  const optim::SparseMatrix j = problem.residual_jacobian_pattern();
  std::set<std::pair<int, int>> gram;
  for (int r = 0; r < j.rows(); ++r) {
    for (optim::SparseMatrix::InnerIterator a(j, r); a; ++a)
      for (optim::SparseMatrix::InnerIterator b(j, r); b; ++b)
        if (a.col() >= b.col()) gram.emplace(a.col(), b.col());
  }
  for (int c = 0; c < s.outerSize(); ++c)
    for (optim::SymmetricMatrix::InnerIterator it(s, c); it; ++it)
      EXPECT_TRUE(gram.count({static_cast<int>(it.row()), c})) << it.row() << " " << c;

  // The same values on two threads (bit for bit).
  core::ThreadPool pool(2);
  problem.set_thread_pool(&pool);
  optim::SymmetricMatrix threaded = problem.residual_curvature_pattern();
  problem.evaluate_residual_curvature(x, w, threaded);
  problem.set_thread_pool(nullptr);
  ASSERT_EQ(threaded.nonZeros(), s.nonZeros());
  for (Eigen::Index i = 0; i < s.nonZeros(); ++i) EXPECT_EQ(threaded.valuePtr()[i], s.valuePtr()[i]) << i;
}

TEST(ResidualCurvature, OnlyWithTorqueResiduals) {
  EXPECT_FALSE(Fixture(Objective::kImitation, 0.0).problem.has_residual_curvature());
  EXPECT_TRUE(Fixture(Objective::kImitation, 1e-4).problem.has_residual_curvature());
  Fixture imitation(Objective::kImitation, 0.0);
  optim::SymmetricMatrix s = imitation.problem.residual_curvature_pattern();
  EXPECT_THROW(
      imitation.problem.evaluate_residual_curvature(
          imitation.problem.initial_guess(), Eigen::VectorXd::Zero(imitation.problem.num_residuals()), s),
      std::logic_error);
}

}  // namespace
}  // namespace mimic::motion
