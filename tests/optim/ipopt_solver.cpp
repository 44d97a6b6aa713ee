// Ipopt-specific behaviour: Hessian options, silence, progress, exceptions. (Its optima are tested with the
// ALM's in textbook.cpp.)
#include "mimic/optim/ipopt_solver.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "optim/textbook_problems.hpp"

namespace mo = mimic::optim;

namespace {

// Throws from evaluate() once it has been called `limit` times.
class ThrowsAfter : public mo::test::Hs71 {
 public:
  explicit ThrowsAfter(int limit) : limit_(limit) {}
  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    if (++calls_ > limit_) throw std::runtime_error("dynamics failed");
    Hs71::evaluate(x, jacobians, out);
  }

 private:
  int limit_;
  int calls_ = 0;
};

}  // namespace

TEST(IpoptSolver, GaussNewtonHessianOnLeastSquares) {
  mo::test::Rosenbrock p({.unit_disc = true});
  mo::IpoptOptions o;
  o.hessian = mo::IpoptOptions::Hessian::kGaussNewton;
  const auto r = mo::solve_with_ipopt(p, Eigen::Vector2d(0.0, 0.0), o);
  ASSERT_TRUE(r.success()) << r.summary();
  // Default tolerances (1e-6): measured 1.6e-7 from the 10-digit optimum (textbook_problems.hpp).
  EXPECT_NEAR(r.x[0], mo::test::Rosenbrock::kDiscOptimum[0], 2e-6);
  EXPECT_NEAR(r.x[1], mo::test::Rosenbrock::kDiscOptimum[1], 2e-6);
}

TEST(IpoptSolver, GaussNewtonHessianIncludesTheScalarObjectiveHessian) {
  // Rosenbrock as f0 with its exact Hessian and only a bound (no constraint curvature to miss): Ipopt
  // converges as with an exact Hessian.
  mo::test::Rosenbrock p({.bound_x = true, .as_objective_term = true});
  mo::IpoptOptions o;
  o.hessian = mo::IpoptOptions::Hessian::kGaussNewton;
  const auto r = mo::solve_with_ipopt(p, Eigen::Vector2d(-1.2, 1.0), o);
  ASSERT_TRUE(r.success()) << r.summary();
  EXPECT_NEAR(r.x[0], 0.5, 5e-7);  // measured 3.6e-8 in 19 iterations
  EXPECT_NEAR(r.x[1], 0.25, 5e-7);
  EXPECT_LT(r.iterations, 60);
}

TEST(IpoptSolver, GaussNewtonNeedsTheScalarObjectiveHessian) {
  mo::test::Rosenbrock p({.as_objective_term = true, .with_hessian = false});
  mo::IpoptOptions o;
  o.hessian = mo::IpoptOptions::Hessian::kGaussNewton;
  EXPECT_THROW(mo::solve_with_ipopt(p, Eigen::Vector2d(0.0, 0.0), o), std::invalid_argument);
  // Limited memory needs no Hessian at all.
  const auto r = mo::solve_with_ipopt(p, Eigen::Vector2d(-1.2, 1.0));
  ASSERT_TRUE(r.success()) << r.summary();
  EXPECT_NEAR(r.x[0], 1.0, 2e-6);  // limited memory at the default 1e-6: measured 9.9e-8 (x[1] 2e-7)
}

TEST(IpoptSolver, SilentUnlessVerbose) {
  mo::test::Hs71 p;
  testing::internal::CaptureStdout();
  const auto quiet = mo::solve_with_ipopt(p, Eigen::Vector4d(1, 5, 5, 1));
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  mo::IpoptOptions o;
  o.verbose = true;
  testing::internal::CaptureStdout();
  const auto loud = mo::solve_with_ipopt(p, Eigen::Vector4d(1, 5, 5, 1), o);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("iter"), std::string::npos);
  EXPECT_TRUE(quiet.success());
  EXPECT_TRUE(loud.success());
}

TEST(IpoptSolver, ReportsProgress) {
  mo::test::Rosenbrock p({.unit_disc = true});
  std::vector<mimic::ProgressEvent> events;
  const auto r = mo::solve_with_ipopt(p, Eigen::Vector2d(0.0, 0.0), {},
                                      [&](const mimic::ProgressEvent& e) { events.push_back(e); });
  ASSERT_TRUE(r.success());
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().stage, "ipopt");
  EXPECT_EQ(events.front().iteration, 0);
  EXPECT_EQ(events.back().iteration, r.iterations);
  EXPECT_NEAR(events.back().objective, r.objective, 1e-12);  // the same value: measured identical
}

TEST(IpoptSolver, AutomaticHessianFallsBackToLimitedMemory) {
  // Gauss-Newton first: enough for least squares under a mildly curved constraint...
  mo::test::Rosenbrock disc({.unit_disc = true});
  const auto quick = mo::solve_with_ipopt(disc, Eigen::Vector2d(0.0, 0.0));
  ASSERT_TRUE(quick.success()) << quick.summary();
  EXPECT_EQ(quick.reason.find("limited-memory"), std::string::npos) << quick.reason;
  // ... not for HS71, whose equality's curvature it misses: then L-BFGS from x0.
  mo::test::Hs71 hs71;
  mo::IpoptOptions o;
  o.gauss_newton_iterations = 50;
  const auto r = mo::solve_with_ipopt(hs71, Eigen::Vector4d(1, 5, 5, 1), o);
  ASSERT_TRUE(r.success()) << r.summary();
  EXPECT_NE(r.reason.find("Gauss-Newton Hessian: iteration limit, then limited-memory"), std::string::npos)
      << r.reason;
  EXPECT_GT(r.iterations, 50);
  // Default tolerances (1e-6): measured 1.2e-7 from the 8-digit optimum.
  EXPECT_NEAR(r.objective, mo::test::Hs71::kOptimum, 1e-6);
}

TEST(IpoptSolver, ProblemExceptionsPropagate) {
  ThrowsAfter p(5);
  EXPECT_THROW(mo::solve_with_ipopt(p, Eigen::Vector4d(1, 5, 5, 1)), std::runtime_error);
}

TEST(IpoptSolver, ScreenedInequalitiesGiveTheFullProblemsSolution) {
  // From x0 = 0 no limit is within the screening margin: round 1 runs unconstrained, overshoots the
  // limits of the c_i outside [-1, 1], and round 2 adds exactly those.
  const int n = 1500;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  Eigen::VectorXd c(n);
  for (int i = 0; i < n; ++i) c[i] = u(rng);
  mo::test::ManyInequalities p(c);
  std::vector<std::string> messages;
  const auto screened = mo::solve_with_ipopt(
      p, Eigen::VectorXd::Zero(n), {}, [&](const mimic::ProgressEvent& e) { messages.push_back(e.message); });
  ASSERT_TRUE(screened.success()) << screened.summary();
  // Interior-point accuracy near degenerate limits (c_i just outside): about the square root of the
  // complementarity tolerance (1e-6 here): measured 2.5e-4, the same in the multipliers below.
  EXPECT_LT((screened.x - p.solution()).cwiseAbs().maxCoeff(), 5e-4);
  EXPECT_NE(screened.reason.find("screening round 2"), std::string::npos) << screened.reason;
  EXPECT_NE(messages.front().find("round 1, 0 of 3000"), std::string::npos) << messages.front();
  ASSERT_EQ(screened.multipliers.inequality.size(), 2 * n);
  for (int i = 0; i < n; ++i) {
    if (std::abs(c[i]) < 0.9) {
      EXPECT_EQ(screened.multipliers.inequality[2 * i], 0.0);  // never screened in
    } else if (c[i] > 1.0) {
      EXPECT_NEAR(screened.multipliers.inequality[2 * i], c[i] - 1.0, 5e-4);
    }
  }
  mo::IpoptOptions all;
  all.screen_inequalities = false;
  const auto unscreened = mo::solve_with_ipopt(p, Eigen::VectorXd::Zero(n), all);
  ASSERT_TRUE(unscreened.success()) << unscreened.summary();
  EXPECT_NEAR(screened.objective, unscreened.objective, 1e-7 * unscreened.objective);  // measured 1.9e-8
  EXPECT_EQ(unscreened.reason.find("screening"), std::string::npos);
}

TEST(IpoptSolver, StepsBackFromNonFiniteTrialPoints) {
  mo::test::SqrtResidual p;
  const auto r = mo::solve_with_ipopt(p, Eigen::VectorXd::Constant(1, 100.0));
  ASSERT_TRUE(r.success()) << r.summary();
  EXPECT_NEAR(r.x[0], 4.0, 1e-7);  // default tolerances: measured 5.6e-9
}
