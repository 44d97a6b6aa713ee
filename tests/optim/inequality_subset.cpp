#include "mimic/optim/inequality_subset.hpp"

#include <gtest/gtest.h>

#include "mimic/optim/derivative_check.hpp"
#include "optim/textbook_problems.hpp"

namespace mo = mimic::optim;

TEST(InequalitySubset, KeepsTheChosenRowsAndEverythingElse) {
  mo::test::ManyInequalities full(Eigen::Vector3d(0.5, 2.0, -3.0));
  mo::InequalitySubset subset(full, {1, 2, 5});
  ASSERT_EQ(subset.num_inequalities(), 3);
  EXPECT_EQ(subset.num_residuals(), 3);
  mo::Evaluation e = mo::make_evaluation(subset);
  const Eigen::Vector3d x(0.1, 1.5, -2.0);
  subset.evaluate(x, true, e);
  EXPECT_DOUBLE_EQ(e.inequalities[0], -0.1 - 1.0);  // row 1: -x0 - 1
  EXPECT_DOUBLE_EQ(e.inequalities[1], 1.5 - 1.0);   // row 2: x1 - 1
  EXPECT_DOUBLE_EQ(e.inequalities[2], 2.0 - 1.0);   // row 5: -x2 - 1
  EXPECT_EQ(e.inequality_jacobian.coeff(0, 0), -1.0);
  EXPECT_EQ(e.inequality_jacobian.coeff(1, 1), 1.0);
  EXPECT_EQ(e.inequality_jacobian.coeff(2, 2), -1.0);
  EXPECT_EQ(e.inequality_jacobian.nonZeros(), 3);
  EXPECT_TRUE(e.residuals.isApprox(x - Eigen::Vector3d(0.5, 2.0, -3.0), 1e-15));  // the same subtraction
  EXPECT_EQ(subset.full_evaluation().inequalities.size(), 6);
  EXPECT_EQ(subset.describe_constraint(mo::ConstraintKind::kInequality, 2, 1.0), "x[2] >= -1");
  EXPECT_TRUE(mo::check_derivatives(subset, x).passed);
}

TEST(InequalitySubset, RejectsRowsOutOfOrderOrRange) {
  mo::test::ManyInequalities full(Eigen::Vector2d(0.0, 0.0));
  EXPECT_THROW(mo::InequalitySubset(full, {2, 1}), std::invalid_argument);
  EXPECT_THROW(mo::InequalitySubset(full, {4}), std::invalid_argument);
  EXPECT_NO_THROW(mo::InequalitySubset(full, {}));
}
