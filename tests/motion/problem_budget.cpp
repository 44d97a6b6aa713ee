// The size budget of the trajectory problems (motion/problem_budget.hpp): the estimate, the refusal of a
// problem above it (BudgetError), of knots finer than the samples (InputError) and of a bad knot spacing,
// all before anything of the problem's size is allocated.
#include "mimic/motion/problem_budget.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/trajectory/bspline_basis.hpp"

namespace mm = mimic::motion;

namespace {

// The shipped smoothing problem: the planned walk, 8.7 s at 200 Hz, 14 coordinates, knots every 0.1 s.
mm::ProblemSize walk() { return {"smoothing", "trajectory.knot_spacing", 8.7, 0.1, 1741, 14}; }

std::string message_of(const mm::ProblemSize& size) {
  try {
    mm::check_problem_budget(size);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST(ProblemBudget, CountsControlPointsAsTheBasisDoes) {
  for (const double spacing : {0.1, 0.05, 0.033, 0.5}) {
    const mimic::trajectory::QuarticBspline basis(0.0, 8.7, spacing);
    EXPECT_EQ(mm::control_points(8.7, spacing), basis.num_control_points()) << spacing;
  }
  // No overflow where the basis could not be built at all.
  EXPECT_TRUE(std::isfinite(mm::control_points(8.7, 1e-300)));
}

TEST(ProblemBudget, TheShippedProblemsAreFarBelowIt) {
  EXPECT_NO_THROW(mm::check_problem_budget(walk()));
  // 8192 * 14 * 1741 + 2048 * 14 * 14 * 91 bytes: 0.24 GB (189 MB measured), a seventeenth of the budget.
  EXPECT_NEAR(mm::estimated_bytes(walk()), 8192.0 * 14 * 1741 + 2048.0 * 14 * 14 * 91, 1.0);
  EXPECT_LT(mm::estimated_bytes(walk()), mm::kProblemMemoryBudget / 16.0);
}

TEST(ProblemBudget, RefusesAnHourAt200HzWithTheSizesInOneLine) {
  mm::ProblemSize hour = walk();
  hour.duration = 3600.0;
  hour.samples = 720001;
  const std::string message = message_of(hour);
  EXPECT_NE(message.find("smoothing: the problem is too large: 720001 samples over 3600 s"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("above the budget of 4 GiB"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_THROW(mm::check_problem_budget(hour), mimic::BudgetError);
}

TEST(ProblemBudget, RefusesKnotsFinerThanTheSamplesNamingTheSetting) {
  mm::ProblemSize fine = walk();
  fine.knot_spacing = 1e-9;  // 8.7e9 control points: refused before the basis allocates them
  EXPECT_THROW(mm::check_problem_budget(fine), mimic::InputError);
  EXPECT_NE(message_of(fine).find("trajectory.knot_spacing: knots every 1e-09 s"), std::string::npos)
      << message_of(fine);
  // Samples 5 s apart: 300 samples cannot determine the control points of knots every 0.1 s over 1495 s.
  mm::ProblemSize sparse = {"smoothing", "trajectory.knot_spacing", 1495.0, 0.1, 300, 14};
  EXPECT_THROW(mm::check_problem_budget(sparse), mimic::InputError);
  // As many free control points as samples is still determined.
  mm::ProblemSize square = {"smoothing", "trajectory.knot_spacing", 1.0, 0.1, 8, 14};  // 14 - 6 = 8 free
  EXPECT_NO_THROW(mm::check_problem_budget(square));
  square.samples = 7;
  EXPECT_THROW(mm::check_problem_budget(square), mimic::InputError);
}

TEST(ProblemBudget, RefusesANonPositiveOrNonFiniteKnotSpacing) {
  for (const double spacing : {0.0, -0.1, std::nan(""), std::numeric_limits<double>::infinity()}) {
    mm::ProblemSize bad = walk();
    bad.knot_spacing = spacing;
    EXPECT_THROW(mm::check_problem_budget(bad), mimic::InputError) << spacing;
  }
}
