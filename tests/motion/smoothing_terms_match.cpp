// The smoothing problem's rows are its terms' rows, scaled: on a window of the shipped walk (double
// support, then left support) at a point away from the plan, every residual row is sqrt(dt) * tau_j
// (torques with the ground reaction) or sqrt(dt) w * (the support foot's displacement), every equality row
// the displacement in mm / mrad, every torque row +-tau_j / tau_max_j - 1, bit for bit, with the terms
// built here from src/mimic/terms and evaluated at the problem's own states. And evaluate is const: two
// SmoothingProblemData on two threads give the same rows, values and Jacobians, as the problem's own entry
// point. describe_constraint names the row a solver reports: a support foot's placement, a joint's torque.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/data.hpp"
#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/terms/support_foot.hpp"
#include "mimic/terms/term_sum.hpp"
#include "mimic/terms/torque_limits.hpp"
#include "mimic/terms/torque_residual.hpp"
#include "motion/smoothing_derivative_check.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::motion {
namespace {

using terms::RowKind;

struct Window {
  std::unique_ptr<testing::Scenario> scenario = testing::load_scenario();
  // 1.5 s .. 2.2 s: double support until 1.8 s, then left support (config/jobs/walk_bar_smooth.yaml).
  model::SampledMotion planned = testing::window(scenario->planned, 300, 440);
  SmoothingOptions options() const {
    SmoothingOptions o;
    o.limits.torque_factor = 0.9;
    for (int k = 0; k < 141; k += 7) o.torque_samples.push_back(k);
    for (int k = 3; k < 141; k += 20) o.equality_samples.push_back(k);
    return o;
  }
};

TEST(SmoothingTermsMatch, RowsAreTheScaledTermRows) {
  Window w;
  const model::Model& model = w.scenario->model;
  const stability::Feet& feet = w.scenario->feet;
  SmoothingProblem problem(model, feet, w.planned, w.options());
  ASSERT_GT(problem.num_equalities(), 0);
  const Eigen::VectorXd x = testing::away_from_plan(problem);
  optim::Evaluation out = optim::make_evaluation(problem);
  problem.evaluate(x, false, out);

  const terms::GroundReaction ground(model, feet.right_foot_body, feet.left_foot_body);
  std::vector<int> joints;
  for (int j = 0; j < model.nj; ++j) joints.push_back(j);
  std::array<std::vector<spatial::SE3>, 2> sole_reference;
  model::Data planned_data(model);
  const std::array<int, 2> frames = {feet.right_sole_frame, feet.left_sole_frame};
  for (int k = 0; k < problem.sample_count(); ++k) {
    dynamics::forward_kinematics(model, planned_data, w.planned.q.col(k));
    for (int f = 0; f < 2; ++f)
      sole_reference[f].push_back(dynamics::update_frame_placement(model, planned_data, frames[f]));
  }
  terms::TermSum sum(model);
  sum.add("torque", std::make_shared<terms::TorqueResidual>(model, joints, &ground));
  sum.add("limits", std::make_shared<terms::TorqueLimits>(model, joints, problem.limits().torque, &ground));
  for (int f = 0; f < 2; ++f)
    sum.add("foot " + std::to_string(f),
            std::make_shared<terms::SupportFoot>(model, frames[f], sole_reference[f], RowKind::kEquality, 1.0,
                                                 1.0));
  const double dt = w.planned.times[1] - w.planned.times[0];
  const double root_dt = std::sqrt(dt);
  const SmoothingOptions& options = problem.options();

  auto data = problem.create_data();
  terms::TermSumData rows = sum.create_data();
  int residual = 0, equality = 0;
  int torque_row =
      problem.num_inequalities() - 2 * model.nj * static_cast<int>(options.torque_samples.size());
  std::size_t next_torque = 0, next_equality = 0;
  trajectory::SampledBasis basis(problem.parameterization(), w.planned.times);
  basis.evaluate(x, data->samples);
  for (int k = 0; k < problem.sample_count(); ++k) {
    problem.set_state(k, *data);
    terms::SampleData& sample = data->sample;
    sample.fill(sum.needs(), false);
    sum.calc(sample, rows, false);
    const model::ContactPhase phase = w.planned.phases[static_cast<std::size_t>(k)];
    const std::array<bool, 2> contact = {model::right_foot_in_contact(phase),
                                         model::left_foot_in_contact(phase)};
    for (int j = 0; j < model.nj; ++j)
      ASSERT_EQ(out.residuals[residual++], root_dt * rows.residual.value[j])
          << "sample " << k << " joint " << j;
    for (int f = 0; f < 2; ++f) {
      if (!contact[f]) continue;
      const auto u = rows.equality.value.segment<6>(6 * f);
      for (int r = 0; r < 6; ++r) {
        const double weight = root_dt * (r < 3 ? options.foot_position_weight : options.foot_rotation_weight);
        ASSERT_EQ(out.residuals[residual++], weight * u[r])
            << "sample " << k << " foot " << f << " row " << r;
      }
    }
    const bool equality_sample =
        next_equality < options.equality_samples.size() && options.equality_samples[next_equality] == k;
    if (equality_sample) {
      ++next_equality;
      for (int f = 0; f < 2 && basis.slot_count(k) > 0; ++f) {
        if (!contact[f]) continue;
        const auto u = rows.equality.value.segment<6>(6 * f);
        for (int r = 0; r < 6; ++r) {
          const double scale = 1.0 / (r < 3 ? kSupportPositionScale : kSupportAngleScale);
          ASSERT_EQ(out.equalities[equality++], scale * u[r]) << "sample " << k << " foot " << f;
        }
      }
    }
    if (next_torque < options.torque_samples.size() && options.torque_samples[next_torque] == k) {
      ++next_torque;
      for (int j = 0; j < model.nj; ++j) {
        const double scaled = rows.inequality.value[j] * (1.0 / problem.limits().torque[j]);
        ASSERT_EQ(out.inequalities[torque_row++], scaled - 1.0) << "sample " << k << " joint " << j;
        ASSERT_EQ(out.inequalities[torque_row++], -scaled - 1.0) << "sample " << k << " joint " << j;
      }
    }
  }
  EXPECT_EQ(residual, problem.num_residuals());
  EXPECT_EQ(equality, problem.num_equalities());
  EXPECT_EQ(torque_row, problem.num_inequalities());
}

TEST(SmoothingTermsMatch, TwoThreadsWithTheirOwnDataGiveTheSameRows) {
  Window w;
  SmoothingProblem problem(w.scenario->model, w.scenario->feet, w.planned, w.options());
  const Eigen::VectorXd x = testing::away_from_plan(problem);
  optim::Evaluation serial = optim::make_evaluation(problem);
  problem.evaluate(x, true, serial);
  std::array<optim::Evaluation, 2> parallel = {optim::make_evaluation(problem),
                                               optim::make_evaluation(problem)};
  std::array<std::unique_ptr<SmoothingProblemData>, 2> data = {problem.create_data(), problem.create_data()};
  const SmoothingProblem& shared = problem;
  std::array<std::thread, 2> threads;
  for (int t = 0; t < 2; ++t) {
    threads[t] = std::thread([&, t] {
      for (int repeat = 0; repeat < 2; ++repeat) shared.evaluate(x, true, parallel[t], *data[t]);
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& out : parallel) {
    EXPECT_EQ(out.residuals, serial.residuals);
    EXPECT_EQ(out.equalities, serial.equalities);
    EXPECT_EQ(out.inequalities, serial.inequalities);
    EXPECT_TRUE(out.residual_jacobian.isApprox(serial.residual_jacobian, 0.0));
    EXPECT_TRUE(out.equality_jacobian.isApprox(serial.equality_jacobian, 0.0));
    EXPECT_TRUE(out.inequality_jacobian.isApprox(serial.inequality_jacobian, 0.0));
  }
}

TEST(SmoothingTermsMatch, DescribeNamesTheRow) {
  Window w;
  const model::Model& model = w.scenario->model;
  SmoothingProblem problem(model, w.scenario->feet, w.planned, w.options());
  const auto starts_with = [](const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
  };
  const auto at = [&](int k) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, " at t=%.3f s ", w.planned.times[static_cast<std::size_t>(k)]);
    return std::string(buffer);
  };
  // The first equality sample with free slots is in double support: right foot rows 0-5, left 6-11.
  const trajectory::SampledBasis basis(problem.parameterization(), w.planned.times);
  int first = -1;
  for (const int k : problem.options().equality_samples) {
    if (basis.slot_count(k) > 0) {
      first = k;
      break;
    }
  }
  ASSERT_GE(first, 0);
  ASSERT_EQ(w.planned.phases[static_cast<std::size_t>(first)], model::ContactPhase::kDoubleSupport);
  using optim::ConstraintKind;
  const std::string position = problem.describe_constraint(ConstraintKind::kEquality, 0, 1.0);
  EXPECT_TRUE(starts_with(position, "right support foot position" + at(first) + "is off")) << position;
  const std::string rotation = problem.describe_constraint(ConstraintKind::kEquality, 3, 1.0);
  EXPECT_TRUE(starts_with(rotation, "right support foot orientation" + at(first) + "is off")) << rotation;
  const std::string left = problem.describe_constraint(ConstraintKind::kEquality, 6, 1.0);
  EXPECT_TRUE(starts_with(left, "left support foot position" + at(first) + "is off")) << left;
  // The last torque sample's rows are the last ones: the upper and lower bound of each joint's torque.
  const int last = problem.options().torque_samples.back();
  const int row = problem.num_inequalities() - 2 * model.nj + 2 * 5 + 1;
  const std::string torque = problem.describe_constraint(ConstraintKind::kInequality, row, 0.5);
  EXPECT_TRUE(starts_with(torque, model.joint_names[5] + " torque" + at(last) + "exceeds its limit"))
      << torque;
  const std::string velocity = problem.describe_constraint(ConstraintKind::kInequality, 0, 0.5);
  EXPECT_NE(velocity.find(" velocity (control polygon near t="), std::string::npos) << velocity;
}

}  // namespace
}  // namespace mimic::motion
