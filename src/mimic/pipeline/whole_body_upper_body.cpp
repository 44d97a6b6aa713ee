#include "mimic/pipeline/whole_body_upper_body.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "mimic/geometry/distances.hpp"
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
// Clearance of the arms (m) kept beyond the safety distance: the legs' smoothing moves the thighs by a few
// millimetres, and the fit's next round shaves the corrections' peaks.
constexpr double kClearanceMargin = 0.01;
// s either side of a sample over which its clearance correction is spread (the largest correction of
// each joint within the window): a quarter of the cutoff's period, so that the fit passes most of it.
constexpr double kClearanceSpread = 0.25;
constexpr int kClearanceRounds = 6;

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

// Per sample of the motion (rows) and model joint (columns): the arms' least-norm change that brings every
// pair involving an arm's shape to `target` apart, to first order (zero where none is closer).
Eigen::MatrixXd clearance_corrections(const model::Model& model, const geometry::CollisionModel& cmodel,
                                      const model::SampledMotion& motion, const std::vector<bool>& arm,
                                      double target, int& close_samples) {
  model::Data data(model);
  geometry::CollisionData cdata(model, cmodel);
  Eigen::MatrixXd corrections = Eigen::MatrixXd::Zero(motion.size(), model.nj);
  std::vector<int> arm_columns;
  for (int j = 0; j < model.nj; ++j)
    if (arm[static_cast<std::size_t>(j)]) arm_columns.push_back(j);
  close_samples = 0;
  Eigen::VectorXd gradient(static_cast<Eigen::Index>(arm_columns.size()));
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    geometry::compute_near_distance_gradients(model, data, cmodel, cdata, motion.q.col(k), target);
    bool close = false;
    for (int i = 0; i < cdata.near_count; ++i) {
      const int pair = cdata.near_pairs[i];
      const double distance = cdata.distance[pair];
      if (distance >= target) continue;
      for (std::size_t c = 0; c < arm_columns.size(); ++c)
        gradient[static_cast<Eigen::Index>(c)] = cdata.distance_gradient(pair, model.idx_v(arm_columns[c]));
      const double norm2 = gradient.squaredNorm();
      if (norm2 < 1e-12) continue;  // no arm joint moves this pair (a leg against a leg)
      close = true;
      const double step = (target - distance) / norm2;
      for (std::size_t c = 0; c < arm_columns.size(); ++c)
        corrections(k, arm_columns[c]) += step * gradient[static_cast<Eigen::Index>(c)];
    }
    if (close) ++close_samples;
  }
  return corrections;
}

// Each entry replaced by the entry of largest magnitude of its column within +- `half` rows.
Eigen::MatrixXd spread(const Eigen::MatrixXd& corrections, Eigen::Index half) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(corrections.rows(), corrections.cols());
  for (Eigen::Index j = 0; j < corrections.cols(); ++j) {
    for (Eigen::Index k = 0; k < corrections.rows(); ++k) {
      const double value = corrections(k, j);
      if (value == 0.0) continue;
      for (Eigen::Index m = std::max<Eigen::Index>(0, k - half);
           m <= std::min<Eigen::Index>(corrections.rows() - 1, k + half); ++m) {
        if (std::abs(value) > std::abs(out(m, j))) out(m, j) = value;
      }
    }
  }
  return out;
}

}  // namespace

WalkWithUpperBody walk_with_upper_body(const Robot& robot, const retarget::ReferenceMotion& reference,
                                       const ClipFootstepPlan& planned, const walking::WalkSchedule& schedule,
                                       const walking::WalkingOptions& options, double safety_distance) {
  const model::Model& model = robot.model;
  const model::JointGroups& groups = robot.description.groups;
  const double period = options.preview.cart.period;
  const std::vector<bool> upper = joints_of(model, {&groups.right_leg, &groups.left_leg}, false);
  const std::vector<bool> arm = joints_of(model, {&groups.right_arm.joints, &groups.left_arm.joints}, true);

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
  Eigen::MatrixXd clearance = Eigen::MatrixXd::Zero(count, model.nj);
  const double target = safety_distance + kClearanceMargin;
  const auto half = static_cast<Eigen::Index>(std::lround(kClearanceSpread / period));
  // The reference's own peak: the same in every round.
  const auto [before, joint_before] = peak_acceleration(samples, period, upper);
  report.peak_acceleration_before = before;
  report.peak_joint_before = model.joint_names[static_cast<std::size_t>(joint_before)];
  for (int round = 0;; ++round) {
    // Step 2: the fit, within the ranges.
    Eigen::MatrixXd fitted = trajectory::smooth_samples_within(samples + clearance, period, kUpperBodyCutoff,
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
    report.clearance_rounds = round;

    // Step 4.
    if (!robot.collision) break;
    const Eigen::MatrixXd needed = clearance_corrections(model, *robot.collision, result.pattern.motion, arm,
                                                         target, report.clearance_samples);
    if (report.clearance_samples == 0 || round == kClearanceRounds) break;
    spdlog::info(
        "whole body: {} sample(s) of the walk bring an arm closer than {:.3f} m to another body; arms "
        "moved away (round {})",
        report.clearance_samples, target, round + 1);
    clearance.topRows(std::min(count, needed.rows())) +=
        spread(needed, half).topRows(std::min(count, needed.rows()));
    report.max_clearance_change = clearance.cwiseAbs().maxCoeff();
  }
  spdlog::info(
      "whole body: upper body smoothed (cutoff {} Hz{}): change RMS {:.4f} rad, max {:.4f} rad ({}); peak "
      "acceleration {:.1f} rad/s^2 ({}) -> {:.1f} ({})",
      report.cutoff,
      report.max_clearance_change > 0.0
          ? fmt::format(", arms moved by up to {:.3f} rad for clearance", report.max_clearance_change)
          : std::string(),
      report.rms_change, report.max_change, report.max_change_joint, report.peak_acceleration_before,
      report.peak_joint_before, report.peak_acceleration_after, report.peak_joint_after);
  return result;
}

}  // namespace mimic::pipeline
