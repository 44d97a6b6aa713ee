// SplineProblem's inequality layout (spline_problem.hpp): one stored row per FINITE bound of an inequality
// row, the upper one first. A one-sided row (the self-collision distance, a sole corner's height) had its
// infinite side stored as well before: a constant -1 row that no solver could ever activate. Checked
// against a problem whose rows carry the same finite bounds plus a finite far bound on the open side (the
// old layout's two rows per term row): the count, and each stored row's value and Jacobian row equal the
// old layout's row of that bound bit for bit, in both factor orders (ScaleOrder); row_keys and block_of
// name the rows as they are stored.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "mimic/model/configuration.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/motion/spline_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "mimic/terms/sample_data.hpp"

namespace mimic::motion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// u_r = sin(q_r) + 0.3 v_r + 0.1 a_r of dof r (r = the first 4 joint dofs), with the given bounds.
class AngleRows : public terms::Term {
 public:
  AngleRows(const model::Model& model, const Eigen::Vector4d& lower, const Eigen::Vector4d& upper)
      : Term(model, 4, terms::RowKind::kInequality, terms::kNeedsNothing) {
    lower_ = lower;
    upper_ = upper;
    for (int r = 0; r < rows(); ++r) {
      const int dof = first_dof() + r;
      pattern_.q(r, dof) = pattern_.v(r, dof) = pattern_.a(r, dof) = true;
    }
  }
  int first_dof() const { return model_.nv - model_.nj; }
  void calc(const terms::SampleData& sample, terms::TermData& data, bool partials) const override {
    for (int r = 0; r < rows(); ++r) {
      const int dof = first_dof() + r;
      const double q = sample.q[model_.idx_q(r)];
      data.value[r] = std::sin(q) + 0.3 * sample.v[dof] + 0.1 * sample.a[dof];
      if (!partials) continue;
      data.dq(r, dof) = std::cos(q);
      data.dv(r, dof) = 0.3;
      data.da(r, dof) = 0.1;
    }
  }
  std::string describe(int row) const override { return "angle " + std::to_string(row); }
};

// The first 4 joints as the spline's coordinates, the rest of the robot at its neutral posture.
class AngleProblem : public SplineProblem {
 public:
  AngleProblem(const model::Model& model, const Eigen::Vector4d& lower, const Eigen::Vector4d& upper,
               ScaleOrder order)
      : SplineProblem(
            model,
            trajectory::SplineParameterization(trajectory::QuarticBspline(0.0, 1.0, 0.25), 4,
                                               trajectory::EndSpec::free(), trajectory::EndSpec::free()),
            times(), dofs(model)) {
    terms::TermSum sum(model);
    sum.add("angle", std::make_shared<AngleRows>(model, lower, upper));
    const int set = add_row_set(std::move(sum), 0, [order](const terms::Term&) { return order; });
    for (int n = 0; n < sample_count(); ++n) add_block(n, set);
    lower_ = Eigen::VectorXd::Constant(num_variables(), -kInf);
    upper_ = Eigen::VectorXd::Constant(num_variables(), kInf);
    finish();
  }
  using SplineProblem::block_of;

  static std::vector<double> times() {
    std::vector<double> t;
    for (int n = 0; n <= 10; ++n) t.push_back(0.1 * n);
    return t;
  }
  static std::vector<std::vector<int>> dofs(const model::Model& model) {
    std::vector<std::vector<int>> d;
    for (int c = 0; c < 4; ++c) d.push_back({model.nv - model.nj + c});
    return d;
  }
  void set_state(int n, int /*state*/, SplineProblemData& data) const override {
    terms::SampleData& sample = data.sample;
    sample.index = n;
    sample.q = model::neutral(model_);
    sample.v.setZero();
    sample.a.setZero();
    for (int c = 0; c < 4; ++c) {
      sample.q[model_.idx_q(c)] = data.samples.q(c, n);
      sample.v[coordinate_dofs_[c][0]] = data.samples.qdot(c, n);
      sample.a[coordinate_dofs_[c][0]] = data.samples.qddot(c, n);
    }
  }
};

struct Layouts : ::testing::TestWithParam<ScaleOrder> {
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  // Row 0: lower bound only; 1: upper only; 2: both, asymmetric; 3: both, symmetric.
  const Eigen::Vector4d lower{-0.2, -kInf, -0.5, -0.4}, upper{kInf, 0.3, 0.7, 0.4};
  // The old layout: every open side closed by a bound far away.
  const Eigen::Vector4d far_lower{-0.2, -1e3, -0.5, -0.4}, far_upper{1e3, 0.3, 0.7, 0.4};
};

TEST_P(Layouts, OneRowPerFiniteBoundEqualToTheTwoSidedLayoutsRow) {
  AngleProblem one_sided(robot.model, lower, upper, GetParam());
  AngleProblem two_sided(robot.model, far_lower, far_upper, GetParam());
  const int samples = one_sided.sample_count();
  ASSERT_EQ(two_sided.num_inequalities(), 8 * samples);
  ASSERT_EQ(one_sided.num_inequalities(), 6 * samples);

  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(one_sided.num_variables(), -0.3, 0.4);
  optim::Evaluation a = optim::make_evaluation(one_sided), b = optim::make_evaluation(two_sided);
  one_sided.evaluate(x, true, a);
  two_sided.evaluate(x, true, b);
  // The two-sided layout's rows per sample: 0 upper, 0 lower, 1 upper, 1 lower, ...; the one-sided one
  // keeps 0 lower, 1 upper, 2 upper, 2 lower, 3 upper, 3 lower.
  const int kept[6] = {1, 2, 4, 5, 6, 7};
  const std::vector<std::string> keys = one_sided.row_keys(terms::RowKind::kInequality);
  const std::vector<std::string> old_keys = two_sided.row_keys(terms::RowKind::kInequality);
  ASSERT_EQ(static_cast<int>(keys.size()), one_sided.num_inequalities());
  for (int n = 0; n < samples; ++n) {
    for (int i = 0; i < 6; ++i) {
      const int row = 6 * n + i, old_row = 8 * n + kept[i];
      EXPECT_EQ(a.inequalities[row], b.inequalities[old_row]) << "sample " << n << " row " << i;
      const std::span<double> values = optim::row_values(a.inequality_jacobian, row);
      const std::span<double> old_values = optim::row_values(b.inequality_jacobian, old_row);
      ASSERT_EQ(values.size(), old_values.size());
      for (std::size_t j = 0; j < values.size(); ++j) EXPECT_EQ(values[j], old_values[j]);
      EXPECT_EQ(keys[static_cast<std::size_t>(row)], old_keys[static_cast<std::size_t>(old_row)]);
      int term_row = -1;
      bool is_upper = false;
      const auto* block = one_sided.block_of(terms::RowKind::kInequality, row, term_row, is_upper);
      ASSERT_NE(block, nullptr);
      EXPECT_EQ(block->sample, n);
      EXPECT_EQ(term_row, kept[i] / 2);
      EXPECT_EQ(is_upper, kept[i] % 2 == 0);
    }
  }
  int term_row = -1;
  bool is_upper = false;
  EXPECT_EQ(one_sided.block_of(terms::RowKind::kInequality, 6 * samples, term_row, is_upper), nullptr);
}

// The stored rows' Jacobian against central differences of their values (the rows are smooth).
TEST_P(Layouts, JacobianMatchesFiniteDifferences) {
  AngleProblem problem(robot.model, lower, upper, GetParam());
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(problem.num_variables(), -0.3, 0.4);
  // The rows are |g| <= 6 (sin and linear terms of O(1) control points, times 1 / bound <= 5): with the
  // step h = 1e-6 the differences' rounding is ~ 2e-16 * 6 / 1e-6 ~ 1e-9 and their truncation
  // h^2 |g'''| / 6 ~ 1e-12, so 1e-8 absolute and 1e-6 relative leave a margin of 10 over the rounding.
  optim::DerivativeCheckOptions options;
  options.absolute_tolerance = 1e-8;
  options.relative_tolerance = 1e-6;
  const optim::DerivativeCheckReport report = optim::check_derivatives(problem, x, options);
  EXPECT_TRUE(report.passed) << report.summary();
  EXPECT_GT(report.checked_entries, 0);
}

INSTANTIATE_TEST_SUITE_P(SplineProblemOrders, Layouts,
                         ::testing::Values(ScaleOrder::kBeforeChainRule, ScaleOrder::kAfterChainRule));

TEST(OneSidedRows, ARowWithoutAFiniteBoundOrWithABoundOnTheWrongSideIsRefused) {
  const model::Robot robot = model::load_robot(model::default_robot_description_path());
  const Eigen::Vector4d lower{-0.2, -kInf, -0.5, -0.4}, upper{kInf, kInf, 0.7, 0.4};
  EXPECT_THROW(AngleProblem(robot.model, lower, upper, ScaleOrder::kBeforeChainRule), std::invalid_argument);
  const Eigen::Vector4d positive_lower{0.1, -kInf, -0.5, -0.4}, finite_upper{kInf, 0.3, 0.7, 0.4};
  EXPECT_THROW(AngleProblem(robot.model, positive_lower, finite_upper, ScaleOrder::kBeforeChainRule),
               std::invalid_argument);
}

}  // namespace
}  // namespace mimic::motion
