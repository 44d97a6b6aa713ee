#include "mimic/pipeline/whole_body_upper_body.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "mimic/trajectory/smoothing_fit.hpp"
#include "mimic/walking/walking_upper_body.hpp"

namespace mimic::pipeline {
namespace {

// The cutoff (Hz, on the plan's clock) of the smoothing fit. What a walking human's arms and chest do lies
// below about 3 Hz on the clip's clock (the arm swing at the stride frequency, about 1 Hz, and its first
// harmonics), and the plan's clock is that of the re-timing (which already slowed the clip down where the
// velocity limits required it) further slowed down by the plan's stretch (>= 1). At 1 Hz the fit keeps 94
// % of a 0.5 Hz swing and 99.6 % of a 0.25 Hz one; measured on HRP-2 (README): Qualisys's peak upper-body
// acceleration 341 -> 2.5 rad/s^2, joint change RMS 0.009 rad.
constexpr double kUpperBodyCutoff = 1.0;
// The peak |second difference| / period^2 over the `upper` joints (columns) of samples every `period` s.
std::pair<double, Eigen::Index> peak_acceleration(const Eigen::MatrixXd& q, double period,
                                                  const std::vector<bool>& upper) {
  double peak = 0.0;
  Eigen::Index joint = 0;
  for (Eigen::Index k = 1; k + 1 < q.rows(); ++k) {
    for (Eigen::Index j = 0; j < q.cols(); ++j) {
      if (!upper[static_cast<std::size_t>(j)]) continue;
      const double a = std::abs(q(k - 1, j) - 2.0 * q(k, j) + q(k + 1, j)) / (period * period);
      if (a > peak) peak = a, joint = j;
    }
  }
  return {peak, joint};
}

std::vector<bool> joints_of(const model::Model& model,
                            std::initializer_list<const std::vector<std::string>*> lists, bool value) {
  std::vector<bool> mask(static_cast<std::size_t>(model.nj), !value);
  for (const auto* list : lists)
    for (const std::string& name : *list) mask[static_cast<std::size_t>(model.joint_index(name))] = value;
  return mask;
}

}  // namespace

WalkWithUpperBody walk_with_upper_body(const Robot& robot, const retarget::ReferenceMotion& reference,
                                       const ClipFootstepPlan& planned, const walking::WalkSchedule& schedule,
                                       const walking::WalkingOptions& options) {
  const model::Model& model = robot.model;
  const model::JointGroups& groups = robot.description.groups;
  const double period = options.preview.cart.period;
  const std::vector<bool> upper = joints_of(model, {&groups.right_leg, &groups.left_leg}, false);

  // Step 1: the Hermite pieces on the walk's grid (k period from 0, as the pattern's samples), long enough
  // for the reference and the walk.
  std::vector<double> times = reference.motion.times;
  for (double& t : times) t = planned.plan_time(t);
  const walking::UpperBodyTrajectory hermite =
      walking::UpperBodyTrajectory::cubic(times, reference.motion.q.bottomRows(model.nj).transpose());
  const auto count =
      static_cast<Eigen::Index>(std::ceil(std::max(times.back(), schedule.duration()) / period)) + 1;
  std::vector<double> grid(static_cast<std::size_t>(count));
  Eigen::MatrixXd samples(count, model.nj);
  Eigen::VectorXd row(model.nj);
  for (Eigen::Index k = 0; k < count; ++k) {
    grid[static_cast<std::size_t>(k)] = static_cast<double>(k) * period;
    hermite.at(grid[static_cast<std::size_t>(k)], row);
    samples.row(k) = row.transpose();
  }

  WalkWithUpperBody result;
  WalkUpperBodyReport& report = result.report;
  report.cutoff = kUpperBodyCutoff;
  const auto [before, joint_before] = peak_acceleration(samples, period, upper);
  report.peak_acceleration_before = before;
  report.peak_joint_before = model.joint_names[static_cast<std::size_t>(joint_before)];
  // Step 2: the fit, within the ranges.
  Eigen::MatrixXd fitted = trajectory::smooth_samples_within(samples, period, kUpperBodyCutoff,
                                                             model.lower_limit, model.upper_limit);
  double sum_sq = 0.0, max_change = 0.0, values = 0.0;
  for (Eigen::Index j = 0; j < model.nj; ++j) {
    if (!upper[static_cast<std::size_t>(j)]) continue;
    sum_sq += (fitted.col(j) - samples.col(j)).squaredNorm();
    const double change = (fitted.col(j) - samples.col(j)).cwiseAbs().maxCoeff();
    if (change > max_change)
      max_change = change, report.max_change_joint = model.joint_names[static_cast<std::size_t>(j)];
    values += static_cast<double>(count);
  }
  report.rms_change = std::sqrt(sum_sq / std::max(values, 1.0));
  report.max_change = max_change;
  const auto [after, joint_after] = peak_acceleration(fitted, period, upper);
  report.peak_acceleration_after = after;
  report.peak_joint_after = model.joint_names[static_cast<std::size_t>(joint_after)];

  // Step 3.
  result.pattern = walking::generate_walking_pattern(
      model, robot.description, schedule, walking::UpperBodyTrajectory::cubic(grid, std::move(fitted)),
      options);
  spdlog::info(
      "whole body: upper body smoothed (cutoff {} Hz): change RMS {:.4f} rad, max {:.4f} rad ({}); peak "
      "acceleration {:.1f} rad/s^2 ({}) -> {:.1f} ({})",
      report.cutoff, report.rms_change, report.max_change, report.max_change_joint,
      report.peak_acceleration_before, report.peak_joint_before, report.peak_acceleration_after,
      report.peak_joint_after);
  return result;
}

}  // namespace mimic::pipeline
