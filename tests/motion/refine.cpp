// motion::refine on a problem small enough to know its answer: minimise 1/2 |x - target|^2 with x_k <= 1
// only at the constrained samples. Samples 3 and 7 have targets above the limit, so the first solve (rows at
// 0 and 9 only) violates there; the driver adds exactly those two, and the second solve holds everywhere.
// With max_refinements = 0 it stops after the first solve and reports the violations it left.
#include "mimic/motion/refine.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>

#include "mimic/optim/sparse.hpp"

namespace mimic::motion {
namespace {

constexpr int kSamples = 10;

class Bounded : public optim::Problem {
 public:
  Bounded(Eigen::VectorXd target, std::vector<int> constrained)
      : target_(std::move(target)), constrained_(std::move(constrained)) {}
  int num_variables() const override { return kSamples; }
  int num_residuals() const override { return kSamples; }
  int num_inequalities() const override { return static_cast<int>(constrained_.size()); }
  optim::SparseMatrix residual_jacobian_pattern() const override {
    optim::PatternBuilder builder(kSamples, kSamples);
    for (int k = 0; k < kSamples; ++k) builder.add(k, k);
    return builder.build();
  }
  optim::SparseMatrix inequality_jacobian_pattern() const override {
    optim::PatternBuilder builder(num_inequalities(), kSamples);
    for (int r = 0; r < num_inequalities(); ++r) builder.add(r, constrained_[r]);
    return builder.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out) override {
    out.residuals = x - target_;
    for (int r = 0; r < num_inequalities(); ++r) out.inequalities[r] = x[constrained_[r]] - 1.0;
    if (!jacobians) return;
    for (int k = 0; k < kSamples; ++k) optim::row_values(out.residual_jacobian, k)[0] = 1.0;
    for (int r = 0; r < num_inequalities(); ++r) optim::row_values(out.inequality_jacobian, r)[0] = 1.0;
  }

 private:
  Eigen::VectorXd target_;
  std::vector<int> constrained_;
};

struct Driver {
  Eigen::VectorXd target = Eigen::VectorXd::Constant(kSamples, 0.5);
  std::optional<Bounded> problem;
  std::vector<std::vector<int>> built;  // the torque samples of every round
  RefineSteps steps;
  Driver() {
    target[3] = 1.5;
    target[7] = 2.0;
    steps.build = [this](const std::vector<int>& samples) -> optim::Problem& {
      built.push_back(samples);
      return problem.emplace(target, samples);
    };
    steps.initial_guess = [] { return Eigen::VectorXd::Zero(kSamples).eval(); };
    steps.violating = [](const Eigen::VectorXd& x) {
      std::vector<int> violating;
      for (int k = 0; k < kSamples; ++k) {
        if (x[k] > 1.0 + 1e-6) violating.push_back(k);
      }
      return violating;
    };
  }
};

TEST(Refine, AddsTheViolatingSamplesAndSolvesAgain) {
  Driver d;
  RefineOptions options;
  options.max_refinements = 3;
  const RefineResult result = refine(d.steps, {0, 9}, options);
  ASSERT_EQ(result.solves, 2);
  EXPECT_EQ(d.built, (std::vector<std::vector<int>>{{0, 9}, {0, 3, 7, 9}}));
  EXPECT_EQ(result.torque_samples, (std::set<int>{0, 3, 7, 9}));
  EXPECT_TRUE(result.violating.empty());
  EXPECT_NEAR(result.solve.x[3], 1.0, 1e-5);
  EXPECT_NEAR(result.solve.x[7], 1.0, 1e-5);
  EXPECT_NEAR(result.solve.x[5], 0.5, 1e-5);
}

TEST(Refine, StopsAtMaxRefinements) {
  Driver d;
  RefineOptions options;
  options.max_refinements = 0;
  const RefineResult result = refine(d.steps, {0, 9}, options);
  EXPECT_EQ(result.solves, 1);
  EXPECT_EQ(result.torque_samples, (std::set<int>{0, 9}));
  EXPECT_EQ(result.violating, (std::vector<int>{3, 7}));
  EXPECT_NEAR(result.solve.x[7], 2.0, 1e-5);
}

// With row keys (the constrained sample), the second round starts from the first one's multipliers: row 3
// (constrained from the start, active, multiplier 0.5) keeps its, row 7 (new) starts at 0. Same solution as
// the cold re-solve, in no more outer iterations.
TEST(Refine, WarmStartedRoundReachesTheSameSolution) {
  const auto run = [](bool warm) {
    Driver d;
    if (warm) {
      d.steps.row_keys = [&d](terms::RowKind kind) {
        std::vector<std::string> keys;
        if (kind == terms::RowKind::kInequality)
          for (const int k : d.built.back()) keys.push_back(std::to_string(k));
        return keys;
      };
    }
    RefineOptions options;
    options.max_refinements = 3;
    options.solver.alm.schedule = optim::PenaltySchedule::kSeed;  // the motion problems' schedule
    return refine(d.steps, {0, 3, 9}, options);
  };
  const RefineResult cold = run(false), warm = run(true);
  ASSERT_EQ(cold.solves, 2);
  ASSERT_EQ(warm.solves, 2);
  EXPECT_TRUE(warm.violating.empty());
  // Both to the solver's default tolerances (1e-6) of x_3 = x_7 = 1.
  EXPECT_LT((warm.solve.x - cold.solve.x).lpNorm<Eigen::Infinity>(), 1e-5);
  EXPECT_NEAR(warm.solve.multipliers.inequality[1], 0.5, 1e-5);  // row of sample 3: target 1.5 - limit 1
  EXPECT_LE(warm.solve.iterations, cold.solve.iterations);
  std::printf("second round outer iterations: cold %d, warm %d\n", cold.solve.iterations,
              warm.solve.iterations);
}

}  // namespace
}  // namespace mimic::motion
