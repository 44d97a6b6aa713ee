// ALM-specific behaviour: the penalty schedule of eq. (16), progress reports, and refusal of problems
// that break the interface. (Its optima are tested with Ipopt's in textbook.cpp.)
#include "mimic/optim/augmented_lagrangian.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/alm_subproblem.hpp"
#include "mimic/optim/kkt.hpp"
#include "optim/textbook_problems.hpp"

namespace mo = mimic::optim;

namespace {

double sigma_of(const mimic::ProgressEvent& e) {
  double sigma = 0.0;
  EXPECT_EQ(std::sscanf(e.message.c_str(), "sigma %lf", &sigma), 1) << e.message;
  return sigma;
}

// A problem whose evaluate() rebuilds the residual Jacobian with another structure.
class ChangesItsPattern : public mo::test::Hs6 {
 public:
  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    Hs6::evaluate(x, jacobians, out);
    if (jacobians) {
      mo::PatternBuilder b(1, 2);
      b.add_range(0, 0, 2);
      out.residual_jacobian = b.build();
    }
  }
};

}  // namespace

TEST(AugmentedLagrangian, ReportsEveryOuterIteration) {
  mo::test::Hs71 p;
  std::vector<mimic::ProgressEvent> events;
  const auto r = mo::solve_augmented_lagrangian(p, Eigen::Vector4d(1, 5, 5, 1), {},
                                                [&](const mimic::ProgressEvent& e) { events.push_back(e); });
  ASSERT_TRUE(r.success()) << r.summary();
  ASSERT_EQ(static_cast<int>(events.size()), r.iterations);
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].stage, "alm");
    EXPECT_EQ(events[i].iteration, static_cast<int>(i) + 1);
  }
  EXPECT_LE(events.back().violation, 1e-6);                  // the default tolerance (measured 2.4e-7)
  EXPECT_NEAR(events.back().objective, r.objective, 1e-12);  // the same value: measured identical
}

TEST(AugmentedLagrangian, PenaltyGrowsByAlphaUpToItsCapWhileTheViolationStays) {
  // An infeasible problem: the violation never decreases, so sigma follows eq. (16) from 1 by 5 to the cap
  // 625, stays there, and the solver gives up after `infeasible_patience` iterations at the cap.
  mo::test::Infeasible p(false);
  mo::AlmOptions o;
  o.initial_penalty = 1.0;
  o.penalty_growth = 5.0;
  o.max_penalty = 625.0;
  std::vector<double> sigmas;
  const auto r = mo::solve_augmented_lagrangian(
      p, Eigen::Vector2d(0.5, 0.0), o, [&](const mimic::ProgressEvent& e) { sigmas.push_back(sigma_of(e)); });
  EXPECT_EQ(r.status, mo::SolveStatus::kInfeasible) << r.summary();
  ASSERT_GE(sigmas.size(), 5u);
  const std::vector<double> expected = {1.0, 5.0, 25.0, 125.0, 625.0};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_DOUBLE_EQ(sigmas[i], expected[i]);
  for (std::size_t i = expected.size(); i < sigmas.size(); ++i) EXPECT_DOUBLE_EQ(sigmas[i], 625.0);
  EXPECT_LE(sigmas.size(), expected.size() + o.infeasible_patience);
}

// Solves `p` from x0 with the seed's schedule from `sigma0` (growth 10, cap 1e8), with or without the
// stagnation test; the penalty of each outer iteration in `sigmas`.
mo::SolveResult solve_seed(mo::Problem& p, const Eigen::VectorXd& x0, double sigma0, bool detect,
                           std::vector<double>& sigmas) {
  mo::AlmOptions o;
  o.schedule = mo::PenaltySchedule::kSeed;
  o.initial_penalty = sigma0;
  o.detect_stagnation = detect;
  return mo::solve_augmented_lagrangian(
      p, x0, o, [&](const mimic::ProgressEvent& e) { sigmas.push_back(sigma_of(e)); });
}

TEST(AugmentedLagrangian, InfeasibilityIsReportedBeforeThePenaltyReachesItsCap) {
  // x1 + x2 = 1 and x1 + x2 = 3: no point violates less than 1. From sigma 10 the violation is 1 + O(1 /
  // sigma): it falls by more than 1 % until sigma = 100, then stays. The stagnation test
  // (AlmOptions::detect_stagnation) stops `infeasible_patience` (3) iterations later, at 1e5; without it
  // the solve climbs to the cap 1e8 and waits 3 more iterations there. Same verdict, same worst constraint.
  mo::test::Infeasible early_problem(true), late_problem(true);
  std::vector<double> early_sigmas, late_sigmas;
  const auto early = solve_seed(early_problem, Eigen::Vector2d(0.0, 0.0), 10.0, true, early_sigmas);
  const auto late = solve_seed(late_problem, Eigen::Vector2d(0.0, 0.0), 10.0, false, late_sigmas);
  ASSERT_EQ(early.status, mo::SolveStatus::kInfeasible) << early.summary();
  ASSERT_EQ(late.status, mo::SolveStatus::kInfeasible) << late.summary();
  EXPECT_EQ(early.iterations, 2 + mo::AlmOptions{}.infeasible_patience);
  EXPECT_DOUBLE_EQ(early_sigmas.back(), 1e5);
  EXPECT_DOUBLE_EQ(late_sigmas.back(), 1e8);
  EXPECT_GE(late.iterations, early.iterations + 6);  // 1e6 .. 1e8, then the patience at the cap
  EXPECT_NE(early.reason.find("did not decrease"), std::string::npos) << early.reason;
  ASSERT_TRUE(early.worst.has_value() && late.worst.has_value());
  EXPECT_EQ(early.worst->kind, late.worst->kind);
  EXPECT_EQ(early.worst->index, late.worst->index);
  EXPECT_NEAR(early.max_violation, 1.0, 1e-4);  // 1 + O(1 / sigma): measured 1.00001 at 1e5
}

TEST(AugmentedLagrangian, ALocalMinimumOfTheViolationIsReportedAsAtTheCap) {
  // HS71 from (1, 5, 5, 1) with sigma from 1e-3: the first iterations, with the objective dominating, move
  // x3 to -1.15, where the violation (x3 >= 1 by 2.15, measured) has a local minimum that no penalty gets
  // out of: the solve climbs to the cap and reports it there after 15 iterations. The stagnation test
  // stops as soon as the violation settles, with the same verdict and the same worst constraint, up to a tie:
  // x2 settles there too, the two bounds' violations differ by 4e-7 (early) and 2e-9 (late; measured), so
  // which of x2 >= 1 and x3 >= 1 is the worst is the rounding's choice.
  mo::test::Hs71 early_problem, late_problem;
  std::vector<double> early_sigmas, late_sigmas;
  const auto early = solve_seed(early_problem, Eigen::Vector4d(1, 5, 5, 1), 1e-3, true, early_sigmas);
  const auto late = solve_seed(late_problem, Eigen::Vector4d(1, 5, 5, 1), 1e-3, false, late_sigmas);
  ASSERT_EQ(early.status, mo::SolveStatus::kInfeasible) << early.summary();
  ASSERT_EQ(late.status, mo::SolveStatus::kInfeasible) << late.summary();
  EXPECT_LT(early.iterations, late.iterations);
  EXPECT_LT(early_sigmas.back(), 1e8);
  ASSERT_TRUE(early.worst.has_value() && late.worst.has_value());
  EXPECT_EQ(early.worst->kind, late.worst->kind);
  for (const auto* r : {&early, &late}) {
    EXPECT_TRUE(r->worst->index == 1 || r->worst->index == 2) << r->summary();
    EXPECT_NEAR(r->x[1], r->x[2], 1e-6);
  }
  EXPECT_NEAR(early.max_violation, late.max_violation, 1e-3);  // measured 2.15360 and 2.15360
}

TEST(AugmentedLagrangian, PenaltyStaysWhenTheViolationFallsFastEnough) {
  // Quadratic objective, one linear equality: each multiplier update (15) divides the violation by
  // 1 + n sigma, so sigma is never increased.
  mo::test::SeparableLeastSquares p(Eigen::VectorXd::LinSpaced(20, -1.0, 2.0), 3.0);
  mo::AlmOptions o;
  o.initial_penalty = 1.0;
  o.feasibility_tolerance = o.stationarity_tolerance = 1e-10;
  std::vector<double> sigmas;
  std::vector<double> violations;
  const auto r =
      mo::solve_augmented_lagrangian(p, Eigen::VectorXd::Zero(20), o, [&](const mimic::ProgressEvent& e) {
        sigmas.push_back(sigma_of(e));
        violations.push_back(e.violation);
      });
  ASSERT_TRUE(r.success()) << r.summary();
  ASSERT_GE(sigmas.size(), 3u);
  for (double s : sigmas) EXPECT_DOUBLE_EQ(s, 1.0);
  for (std::size_t i = 1; i < violations.size(); ++i) EXPECT_LT(violations[i], 0.25 * violations[i - 1]);
  EXPECT_LT((r.x - p.solution()).cwiseAbs().maxCoeff(), 1e-10);  // the requested tolerance; measured 4.4e-13
}

TEST(AugmentedLagrangian, RefusesAProblemThatChangesItsJacobianStructure) {
  ChangesItsPattern p;
  EXPECT_THROW(mo::solve_augmented_lagrangian(p, Eigen::Vector2d(-1.2, 1.0)), std::logic_error);
}

// Seed 000 eq. (16) as written: sigma multiplied by alpha after every outer iteration up to sigma-bar.
// HS71 to the motion problems' tolerances (1e-6), with the progress trace showing the schedule.
TEST(AugmentedLagrangian, SeedScheduleGrowsSigmaEveryIteration) {
  mo::test::Hs71 p;
  mo::AlmOptions o;
  o.schedule = mo::PenaltySchedule::kSeed;
  o.initial_penalty = 10.0;
  o.penalty_growth = 5.0;
  o.max_penalty = 1e5;
  std::vector<double> sigmas;
  const auto r =
      mo::solve_augmented_lagrangian(p, Eigen::Vector4d(1, 5, 5, 1), o,
                                     [&](const mimic::ProgressEvent& e) { sigmas.push_back(sigma_of(e)); });
  ASSERT_TRUE(r.success()) << r.summary();
  // To first order f(x) - f* = -lambda^T c(x): HS71's multipliers (0.55 on the product row, 0.16 on the sum
  // of squares) times the 1e-6 feasibility tolerance allow 7e-7 (measured 5.0e-7: the inner solves continue
  // from the last damping and stop nearer their tolerance; 6e-9 when each restarted it and took more steps).
  EXPECT_NEAR(r.objective, mo::test::Hs71::kOptimum, 7e-7);
  ASSERT_GE(sigmas.size(), 2u);
  // The message prints sigma with %.3g, exact for 10, 50, ..., 6250 (this run stops before 31250): parsing
  // back is exact up to one rounding, hence 1e-9 relative.
  for (std::size_t k = 0; k < sigmas.size(); ++k) {
    EXPECT_NEAR(sigmas[k], std::min(10.0 * std::pow(5.0, static_cast<double>(k)), 1e5), 1e-9 * sigmas[k])
        << k;
  }
}

TEST(AugmentedLagrangian, NonFiniteStartIsAnEvaluationError) {
  mo::test::SqrtResidual p;
  const auto r = mo::solve_augmented_lagrangian(p, Eigen::VectorXd::Constant(1, -1.0));
  EXPECT_EQ(r.status, mo::SolveStatus::kEvaluationError);
  EXPECT_FALSE(r.success());
}

TEST(AugmentedLagrangian, RejectsBadArguments) {
  mo::test::Hs6 p;
  EXPECT_THROW(mo::solve_augmented_lagrangian(p, Eigen::Vector3d(0, 0, 0)), std::invalid_argument);
  mo::AlmOptions o;
  o.penalty_growth = 1.0;
  EXPECT_THROW(mo::solve_augmented_lagrangian(p, Eigen::Vector2d(0, 0), o), std::invalid_argument);
}

TEST(AugmentedLagrangian, ScalarObjectiveWithoutHessianStillConverges) {
  // Without the Hessian of f0 the inner steps on f0 are damped gradient steps: slow, but correct.
  mo::test::Rosenbrock p({.unit_disc = true, .as_objective_term = true, .with_hessian = false});
  mo::AlmOptions o;
  o.max_inner_iterations = 5000;
  const auto r = mo::solve_augmented_lagrangian(p, Eigen::Vector2d(0.5, 0.5), o);
  ASSERT_TRUE(r.success()) << r.summary();
  std::printf("x - x* = (%.3g, %.3g)\n", r.x[0] - mo::test::Rosenbrock::kDiscOptimum[0],
              r.x[1] - mo::test::Rosenbrock::kDiscOptimum[1]);
  // Measured 2.6e-9 from the 10-digit optimum (default tolerances 1e-6); 1e-7 as in
  // textbook.cpp. The former 1e-3 against a 4-digit optimum hid a solver stopping a thousand times early.
  EXPECT_NEAR(r.x[0], mo::test::Rosenbrock::kDiscOptimum[0], 1e-7);
  EXPECT_NEAR(r.x[1], mo::test::Rosenbrock::kDiscOptimum[1], 1e-7);
}

TEST(AugmentedLagrangian, StopsAtItsTimeBudget) {
  // An infeasible problem whose evaluation takes 20 ms: without a budget the solver would run through its
  // 1000 outer iterations; with a budget of 0.2 s it stops with kTimeLimit after about ten evaluations. (Its
  // conflicting equalities keep the iterate moving: with the two inequalities alone the first inner solve
  // ends exactly at x1 = 1/2, where every later one is stationary before any evaluation.)
  class Slow : public mo::test::Infeasible {
   public:
    Slow() : Infeasible(true) {}
    void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      Infeasible::evaluate(x, jacobians, out);
    }
  } p;
  mo::AlmOptions o;
  o.max_outer_iterations = 1000;
  o.infeasible_patience = 1000;
  o.max_seconds = 0.2;
  const auto start = std::chrono::steady_clock::now();
  const auto r = mo::solve_augmented_lagrangian(p, Eigen::VectorXd::Zero(p.num_variables()), o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, mo::SolveStatus::kTimeLimit) << r.summary();
  EXPECT_FALSE(r.feasible);
  EXPECT_NE(r.reason.find("time budget of 0.2 s"), std::string::npos) << r.reason;
  // The budget is checked before each Gauss-Newton step: it is overrun by at most one step (a few
  // evaluations of 20 ms and the final measure), allow 1 s for a loaded machine.
  EXPECT_LT(seconds, 1.2);
  EXPECT_STREQ(mo::to_string(r.status), "time limit");
}

// A re-solve from the last solution (motion/refine.hpp's rounds): from zero multipliers the solver first
// moves back to where the active constraints are violated and rebuilds the multipliers over several outer
// iterations; from the last ones (AlmWarmStart, the penalty by the usual initial rule) it starts at the
// optimum's KKT point. Both reach the same optimum, the warm start in fewer outer iterations.
TEST(AugmentedLagrangian, WarmStartResolvesInFewerIterations) {
  mo::test::Hs71 p;
  mo::AlmOptions o;
  o.schedule = mo::PenaltySchedule::kSeed;  // the motion problems' schedule
  o.initial_penalty = 10.0;
  const auto first = mo::solve_augmented_lagrangian(p, Eigen::Vector4d(1, 5, 5, 1), o);
  ASSERT_TRUE(first.success()) << first.summary();
  const auto cold = mo::solve_augmented_lagrangian(p, first.x, o);
  o.warm_start = mo::AlmWarmStart{first.multipliers, 0.0};
  const auto warm = mo::solve_augmented_lagrangian(p, first.x, o);
  ASSERT_TRUE(cold.success()) << cold.summary();
  ASSERT_TRUE(warm.success()) << warm.summary();
  // Both to the default tolerances (1e-6) of the same optimum: 2e-7 as in
  // SeedScheduleGrowsSigmaEveryIteration.
  EXPECT_NEAR(cold.objective, mo::test::Hs71::kOptimum, 2e-7);
  EXPECT_NEAR(warm.objective, mo::test::Hs71::kOptimum, 2e-7);
  EXPECT_LT((warm.x - cold.x).lpNorm<Eigen::Infinity>(), 1e-5);
  EXPECT_LT(warm.iterations, cold.iterations) << warm.summary() << "\n" << cold.summary();
  std::printf("outer iterations: cold %d, warm %d\n", cold.iterations, warm.iterations);
}

TEST(AugmentedLagrangian, WarmStartRejectsMultipliersOfAnotherProblem) {
  mo::test::Hs71 p;
  mo::AlmOptions o;
  mo::Multipliers m;
  m.equality.setZero(p.num_equalities() + 1);
  m.inequality.setZero(p.num_inequalities());
  m.lower_bound.setZero(p.num_variables());
  m.upper_bound.setZero(p.num_variables());
  o.warm_start = mo::AlmWarmStart{m, 0.0};
  EXPECT_THROW(mo::solve_augmented_lagrangian(p, Eigen::Vector4d(1, 5, 5, 1), o), std::invalid_argument);
  m.equality.setZero(p.num_equalities());
  m.inequality.setConstant(p.num_inequalities(), -1.0);
  o.warm_start = mo::AlmWarmStart{m, 0.0};
  EXPECT_THROW(mo::solve_augmented_lagrangian(p, Eigen::Vector4d(1, 5, 5, 1), o), std::invalid_argument);
}

// The ALM measures its KKT conditions from the merit gradient its inner solve left (alm_subproblem.hpp):
// the same numbers as measure_kkt's products at the result with its multipliers, to the last bit.
TEST(AugmentedLagrangian, KktMeasuresEqualAFreshMeasurement) {
  mo::test::Hs71 hs71;
  Eigen::VectorXd c(6);
  c << 3.0, -0.5, -2.0, 0.25, 1.5, -1.25;
  mo::test::ManyInequalities many(c);
  const std::vector<std::pair<mo::Problem*, Eigen::VectorXd>> cases = {{&hs71, Eigen::Vector4d(1, 5, 5, 1)},
                                                                       {&many, Eigen::VectorXd::Zero(6)}};
  for (const auto& [problem, x0] : cases) {
    const auto r = mo::solve_augmented_lagrangian(*problem, x0);
    ASSERT_TRUE(r.success()) << r.summary();
    mo::Evaluation e = mo::make_evaluation(*problem);
    problem->evaluate(r.x, true, e);
    Eigen::VectorXd lower, upper;
    problem->variable_bounds(lower, upper);
    const mo::KktMeasures k = mo::measure_kkt(*problem, r.x, e, lower, upper, r.multipliers);
    EXPECT_EQ(k.stationarity, r.stationarity);
    EXPECT_EQ(k.complementarity, r.complementarity);
    EXPECT_EQ(k.max_violation, r.max_violation);
  }
}

// The damping carries over between inner solves (alm_subproblem.hpp). On an equality-constrained quadratic
// the model is exact, so every step has quality 1 and the first inner solve ends with a small damping; each
// later one then needs a single step (measured: 3 outer iterations of 1 step). Restarting each inner solve
// from the initial rule, 1e-4 (1 + sigma) on H = I + sigma 1 1^T, the same solve stalls short of 1e-8 at
// 8.5e-8 after 12 outer iterations and 80 evaluations, as the growing damping of the penalty's scale meets
// the rounding of the growing penalty.
TEST(AugmentedLagrangian, InnerSolvesContinueFromTheLastDamping) {
  Eigen::VectorXd c(5);
  c << 0.3, -1.2, 2.0, 0.7, -0.4;
  mo::test::SeparableLeastSquares p(c, 1.0);
  mo::AlmOptions o;
  o.schedule = mo::PenaltySchedule::kSeed;
  o.initial_penalty = 10.0;
  o.stationarity_tolerance = 1e-8;
  o.feasibility_tolerance = 1e-8;
  std::vector<int> steps;
  const auto r =
      mo::solve_augmented_lagrangian(p, Eigen::VectorXd::Zero(5), o, [&](const mimic::ProgressEvent& e) {
        const std::size_t at = e.message.find(" Gauss-Newton steps");
        const std::size_t from = e.message.rfind(", ", at);
        steps.push_back(std::stoi(e.message.substr(from + 2, at - from - 2)));
      });
  ASSERT_TRUE(r.success()) << r.summary();
  EXPECT_LT((r.x - p.solution()).lpNorm<Eigen::Infinity>(), 1e-8);
  ASSERT_GE(steps.size(), 3u);
  for (std::size_t i = 1; i < steps.size(); ++i) EXPECT_LE(steps[i], 1) << "outer iteration " << i + 1;
}

// The active-set loop of a model step refactorises only the columns its entering and leaving rows touch
// (alm_subproblem.cpp, [first_changed, last_changed]); a normal matrix of >= 256 rows is factorised as two
// halves (split_banded_cholesky.hpp), the bottom one redone only when last_changed reaches it. On a
// separable problem every variable takes the same path whatever their number, so a copy of 400 variables
// (split banded factor, its rows entering in both halves) must take the path of its 40-variable twin (sparse
// LDL^T, refactorised in full every time): the same outer and inner iterations, factorisations and
// evaluations. A bottom half left stale by a wrong range changes its Newton points and the count.
// A chain that the model steps cross in several active-set iterations: residuals 0.1 (x_i - c_i) and
// 3 (x_i + x_{i+1} - s_i), inequalities x_i <= u_i, -x_i <= u_i and the nonlinear 0.3 (x_i - x_{i+1})^2 <= 1.
// A bound that switches on along a step holds x_i and pushes x_{i+1} further (the sums): the next Newton
// point lies beyond the first, so rows screened against the first are tracked later. Many rows stay far off.
class CoupledChain : public mo::Problem {
 public:
  CoupledChain(int n, unsigned seed) : c_(n), u_(n), s_(n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> c(-3.0, 3.0), u(0.2, 2.0), s(1.5, 3.0);
    for (int i = 0; i < n; ++i) c_[i] = c(rng), u_[i] = u(rng), s_[i] = s(rng);
  }
  int num_variables() const override { return static_cast<int>(c_.size()); }
  int num_residuals() const override { return 2 * num_variables() - 1; }
  int num_inequalities() const override { return 3 * num_variables() - 1; }
  mo::SparseMatrix residual_jacobian_pattern() const override {
    const int n = num_variables();
    mo::PatternBuilder b(num_residuals(), n);
    for (int i = 0; i < n; ++i) b.add(i, i);
    for (int i = 0; i + 1 < n; ++i) b.add_range(n + i, i, 2);
    return b.build();
  }
  mo::SparseMatrix inequality_jacobian_pattern() const override {
    const int n = num_variables();
    mo::PatternBuilder b(num_inequalities(), n);
    for (int i = 0; i < n; ++i) {
      b.add(3 * i, i);
      b.add(3 * i + 1, i);
      if (i + 1 < n) b.add_range(3 * i + 2, i, 2);
    }
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    const int n = num_variables();
    for (int i = 0; i < n; ++i) {
      out.residuals[i] = 0.1 * (x[i] - c_[i]);
      out.inequalities[3 * i] = x[i] - u_[i];
      out.inequalities[3 * i + 1] = -x[i] - u_[i];
      if (i + 1 < n) {
        out.residuals[n + i] = 3.0 * (x[i] + x[i + 1] - s_[i]);
        const double d = x[i] - x[i + 1];
        out.inequalities[3 * i + 2] = 0.3 * d * d - 1.0;
      }
    }
    if (!jacobians) return;
    for (int i = 0; i < n; ++i) {
      out.residual_jacobian.coeffRef(i, i) = 0.1;
      out.inequality_jacobian.coeffRef(3 * i, i) = 1.0;
      out.inequality_jacobian.coeffRef(3 * i + 1, i) = -1.0;
      if (i + 1 < n) {
        out.residual_jacobian.coeffRef(n + i, i) = 3.0;
        out.residual_jacobian.coeffRef(n + i, i + 1) = 3.0;
        const double d = x[i] - x[i + 1];
        out.inequality_jacobian.coeffRef(3 * i + 2, i) = 0.6 * d;
        out.inequality_jacobian.coeffRef(3 * i + 2, i + 1) = -0.6 * d;
      }
    }
  }

 private:
  Eigen::VectorXd c_, u_, s_;
};

// min 9/2 (x1 + x2 - 2)^2 + 0.005 |x|^2 s.t. x1 <= 0.2, x2 <= 1.5 from 0: the first Newton point (1, 1)
// screens the x2 row off (1.5 > 1.01 |(1, 1)|_inf); the x1 row switches on along the way, and the next Newton
// point, about (0.2, 1.8), reaches past the bound: the x2 row is tracked late, its product replayed.
class HeldPair : public mo::Problem {
 public:
  int num_variables() const override { return 2; }
  int num_residuals() const override { return 3; }
  int num_inequalities() const override { return 2; }
  mo::SparseMatrix residual_jacobian_pattern() const override {
    mo::PatternBuilder b(3, 2);
    b.add_range(0, 0, 2);
    b.add(1, 0);
    b.add(2, 1);
    return b.build();
  }
  mo::SparseMatrix inequality_jacobian_pattern() const override {
    mo::PatternBuilder b(2, 2);
    b.add(0, 0);
    b.add(1, 1);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    out.residuals << 3.0 * (x[0] + x[1] - 2.0), 0.1 * x[0], 0.1 * x[1];
    out.inequalities << x[0] - 0.2, x[1] - 1.5;
    if (!jacobians) return;
    out.residual_jacobian.coeffRef(0, 0) = out.residual_jacobian.coeffRef(0, 1) = 3.0;
    out.residual_jacobian.coeffRef(1, 0) = out.residual_jacobian.coeffRef(2, 1) = 0.1;
    out.inequality_jacobian.coeffRef(0, 0) = out.inequality_jacobian.coeffRef(1, 1) = 1.0;
  }
};

// The model steps' row screening (alm_subproblem.hpp) leaves out only rows whose terms are exactly 0: with
// it the inner solves take the path they take with every row tracked, bit for bit (iterates, counts), on
// one thread and two, while it does screen rows and does replay late-tracked ones.
TEST(AugmentedLagrangian, RowScreeningChangesNoBitOfThePath) {
  for (const unsigned seed : {0u, 1u, 2u, 3u}) {
    for (const int threads : {1, 2}) {
      mimic::core::ThreadPool pool(threads);
      const auto run = [&](bool screening, long& screened, long& replayed) {
        CoupledChain chain(300, seed);
        HeldPair pair;
        mo::Problem& problem = seed == 0u ? static_cast<mo::Problem&>(pair) : chain;
        mo::detail::AlmSubproblem sub(problem, threads > 1 ? &pool : nullptr);
        sub.set_row_screening(screening);
        // The pair from 0; the chain from near 0, where its nonlinear rows have non-zero gradients.
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> start(-0.5, 0.5);
        Eigen::VectorXd x0 = Eigen::VectorXd::Zero(problem.num_variables());
        if (seed != 0u)
          for (double& v : x0) v = start(rng);
        EXPECT_TRUE(sub.start(x0));
        std::vector<Eigen::VectorXd> iterates;
        int steps = 0;
        for (const double sigma : {10.0, 10.0, 100.0, 1000.0}) {
          sub.set_penalty(sigma);
          sub.minimize(1e-9, 100, steps);
          iterates.push_back(sub.x());
          sub.update_multipliers();
        }
        screened = sub.screened_rows();
        replayed = sub.replayed_rows();
        return std::tuple{iterates, steps, sub.factorizations(), sub.evaluations()};
      };
      long screened_on = 0, replayed_on = 0, screened_off = 0, replayed_off = 0;
      const auto on = run(true, screened_on, replayed_on);
      const auto off = run(false, screened_off, replayed_off);
      const auto& [x_on, steps_on, factorizations_on, evaluations_on] = on;
      const auto& [x_off, steps_off, factorizations_off, evaluations_off] = off;
      EXPECT_EQ(steps_on, steps_off) << "seed " << seed << ", " << threads << " threads";
      EXPECT_EQ(factorizations_on, factorizations_off) << "seed " << seed;
      EXPECT_EQ(evaluations_on, evaluations_off) << "seed " << seed;
      for (std::size_t k = 0; k < x_on.size(); ++k) {
        for (Eigen::Index i = 0; i < x_on[k].size(); ++i)
          ASSERT_EQ(x_on[k][i], x_off[k][i]) << "outer " << k << ", x[" << i << "], seed " << seed;
      }
      EXPECT_GT(steps_on, seed == 0u ? 1 : 5);
      EXPECT_GT(factorizations_on, steps_on);  // the active-set loop iterated
      EXPECT_GT(screened_on, 0);
      if (seed == 0u) EXPECT_GT(replayed_on, 0);  // the held pair's x2 row (HeldPair)
      EXPECT_EQ(screened_off, 0);
      EXPECT_EQ(replayed_off, 0);
    }
  }
}

// r(x) = (x - 1)^2: each Gauss-Newton step halves x - 1 and achieves 15/16 of the decrease its model
// predicts, so the damping falls by 3 per step, from 1e-4 of the normal matrix's largest diagonal entry
// (4 (x0 - 1)^2) towards 0 without a floor.
class SquaredResidual : public mo::Problem {
 public:
  int num_variables() const override { return 1; }
  int num_residuals() const override { return 1; }
  mo::SparseMatrix residual_jacobian_pattern() const override {
    mo::PatternBuilder b(1, 1);
    b.add(0, 0);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    out.residuals[0] = (x[0] - 1.0) * (x[0] - 1.0);
    if (jacobians) out.residual_jacobian.valuePtr()[0] = 2.0 * (x[0] - 1.0);
  }
};

// The Levenberg-Marquardt damping stops falling at 1e-12 of that entry (alm_subproblem.cpp, kMinDamping):
// 30 good steps would take it to 1e-4 / 3^30 = 5e-19 of it. The minimum is still approached (more slowly
// once the damping dominates the vanishing J^T J).
TEST(AugmentedLagrangian, TheDampingStopsFallingAtItsFloor) {
  SquaredResidual problem;
  mo::detail::AlmSubproblem sub(problem, nullptr);
  ASSERT_TRUE(sub.start(Eigen::VectorXd::Constant(1, 3.0)));
  int steps = 0;
  sub.minimize(1e-30, 30, steps);
  EXPECT_EQ(steps, 30);
  EXPECT_DOUBLE_EQ(sub.largest_diagonal(), 16.0);
  EXPECT_GE(sub.damping(), 1e-12 * 16.0);
  EXPECT_LE(sub.damping(), 3e-12 * 16.0);  // it reached the floor
  EXPECT_LT(std::abs(sub.x()[0] - 1.0), 1e-3);
}

TEST(AugmentedLagrangian, ASplitFactorTakesThePathOfAFullOne) {
  const auto solve = [](int n, int& factorizations) {
    Eigen::VectorXd c(n);
    for (int i = 0; i < n; ++i) c[i] = std::array<double, 5>{3.0, -0.5, -2.0, 0.25, 1.5}[i % 5];
    mo::test::ManyInequalities many(c);
    mo::AlmOptions o;
    o.initial_penalty = 10.0;  // the rule's would grow with n (|f| at x0)
    const auto r = mo::solve_augmented_lagrangian(many, Eigen::VectorXd::Zero(n), o, [&](const auto& e) {
      std::sscanf(e.message.c_str() + e.message.rfind(", ", e.message.find(" Gauss-Newton steps")) + 2,
                  "%*d Gauss-Newton steps, %d factorizations", &factorizations);
    });
    EXPECT_TRUE(r.success()) << r.summary();
    EXPECT_LE((r.x - many.solution()).lpNorm<Eigen::Infinity>(), 1e-6);
    return r;
  };
  int small_factorizations = 0, large_factorizations = 0;
  const auto small = solve(40, small_factorizations);
  const auto large = solve(400, large_factorizations);
  EXPECT_EQ(large.iterations, small.iterations);
  EXPECT_EQ(large.inner_iterations, small.inner_iterations);
  EXPECT_EQ(large.evaluations, small.evaluations);
  EXPECT_EQ(large_factorizations, small_factorizations);
  EXPECT_GT(small_factorizations, large.inner_iterations);  // the active-set loop did refactorise
}
