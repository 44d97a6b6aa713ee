// The smoothing problem's support-foot rows constrain the foot the PLAN has in support, and that foot's
// placement: on a window of the shipped walk (double support, left support, double support, right
// support), with both legs and the waist moved away from the plan, every equality row and every penalty row
// equals the scaled displacement of its sole from its planned placement, computed here by forward
// kinematics of the problem's own configurations. Swapping right and left in the problem's contact test
// puts the rows of a single-support sample on the swing foot, whose displacement differs by centimetres:
// that fails here through the feet, not through a torque figure far downstream.
#include <gtest/gtest.h>

#include <cmath>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/data.hpp"
#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/spatial/explog.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::motion {
namespace {

TEST(SmoothingProblem, SupportRowsMeasureThePlannedSupportFoot) {
  const auto scenario = testing::load_scenario();
  // 1.5 s .. 3.0 s: both feet until 1.8 s, left support to 2.5 s, both to 2.7 s, then right support
  // (config/jobs/walk_bar_smooth.yaml).
  const int first = 300, last = 600;
  const model::SampledMotion planned = testing::window(scenario->planned, first, last);
  const int n = static_cast<int>(planned.size());
  SmoothingOptions options;
  // Every sample but the two ends (there the spline is pinned to the plan and the problem writes no row).
  for (int k = 1; k < n - 1; ++k) options.equality_samples.push_back(k);
  SmoothingProblem problem(scenario->model, scenario->feet, planned, options);

  const auto in_contact = [&](int k, int foot) {
    const model::ContactPhase phase = planned.phases[static_cast<std::size_t>(k)];
    return foot == 0 ? model::right_foot_in_contact(phase) : model::left_foot_in_contact(phase);
  };
  int single = 0, rows = 0;
  for (int k = 1; k < n - 1; ++k) {
    rows += 6 * (in_contact(k, 0) + in_contact(k, 1));
    single += in_contact(k, 0) != in_contact(k, 1);
  }
  ASSERT_EQ(single, 200);  // 140 samples of left support (1.8 s .. 2.5 s), 60 of right support from 2.7 s
  ASSERT_EQ(problem.num_equalities(), rows);

  // Legs and waist moved by up to ~0.03 rad / 3 cm, each coordinate differently, so that every foot is
  // centimetres off its placement and the two feet are off by different amounts.
  Eigen::VectorXd x = problem.initial_guess();
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 0.03 * std::sin(1.3 * static_cast<double>(i) + 0.7);
  optim::Evaluation out = optim::make_evaluation(problem);
  problem.evaluate(x, false, out);
  const Eigen::MatrixXd q = problem.configurations(x);

  model::Data data(scenario->model);
  const std::array<int, 2> frames = {scenario->feet.right_sole_frame, scenario->feet.left_sole_frame};
  const double w = std::sqrt(planned.times[1] - planned.times[0]);
  int equality_row = 0, residual_row = 0;
  double largest = 0.0;
  for (int k = 0; k < n; ++k) {
    std::array<spatial::SE3, 2> reference, pose;
    dynamics::forward_kinematics(scenario->model, data, planned.q.col(k));
    for (int f = 0; f < 2; ++f)
      reference[f] = dynamics::update_frame_placement(scenario->model, data, frames[f]);
    dynamics::forward_kinematics(scenario->model, data, q.col(k));
    for (int f = 0; f < 2; ++f) pose[f] = dynamics::update_frame_placement(scenario->model, data, frames[f]);
    residual_row += scenario->model.nj;  // the torque rows come first
    for (int f = 0; f < 2; ++f) {
      if (!in_contact(k, f)) continue;
      const spatial::Vec3 dp = pose[f].p - reference[f].p;
      const spatial::Vec3 dr = spatial::log3(reference[f].R.transpose() * pose[f].R);
      largest = std::max(largest, dp.norm());
      // Both sides are the same double-precision kinematics of the same configuration: 1e-9 m / rad is
      // rounding (measured below 1e-12); a row on the wrong foot is off by millimetres to centimetres.
      const double penalty_position = w * options.foot_position_weight;
      const double penalty_rotation = w * options.foot_rotation_weight;
      EXPECT_LT((out.residuals.segment<3>(residual_row) / penalty_position - dp).cwiseAbs().maxCoeff(), 1e-9)
          << "penalty rows of the " << (f == 0 ? "right" : "left") << " foot, t = " << planned.times[k];
      EXPECT_LT((out.residuals.segment<3>(residual_row + 3) / penalty_rotation - dr).cwiseAbs().maxCoeff(),
                1e-9)
          << "penalty rows of the " << (f == 0 ? "right" : "left") << " foot, t = " << planned.times[k];
      residual_row += 6;
      if (k == 0 || k == n - 1) continue;
      EXPECT_LT((out.equalities.segment<3>(equality_row) * kSupportPositionScale - dp).cwiseAbs().maxCoeff(),
                1e-9)
          << "equality rows of the " << (f == 0 ? "right" : "left") << " foot, t = " << planned.times[k];
      EXPECT_LT((out.equalities.segment<3>(equality_row + 3) * kSupportAngleScale - dr).cwiseAbs().maxCoeff(),
                1e-9)
          << "equality rows of the " << (f == 0 ? "right" : "left") << " foot, t = " << planned.times[k];
      equality_row += 6;
    }
  }
  EXPECT_EQ(equality_row, problem.num_equalities());
  EXPECT_EQ(residual_row, problem.num_residuals());
  // The perturbation does move the feet (else the comparisons above would hold for any foot).
  EXPECT_GT(largest, 0.01);
}

}  // namespace
}  // namespace mimic::motion
