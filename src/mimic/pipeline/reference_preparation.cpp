#include "mimic/pipeline/reference_preparation.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/data.hpp"
#include "mimic/motion/problem_budget.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "mimic/trajectory/spline_fit.hpp"

namespace mimic::pipeline {

void smooth_waist(const model::Model& model, retarget::ReferenceMotion& reference, double knot_spacing) {
  model::SampledMotion& motion = reference.motion;
  const Eigen::Index n = motion.size();
  // The spline needs two knot intervals; a clip that short has nothing to smooth.
  if (n < 3 || reference.duration() < 2.0 * knot_spacing) return;
  // The fit's size and determination, checked before the basis is built (a knot spacing of 1e-9 s). Its
  // start fixes 3 control points per coordinate, its end 2: counting 2 at both ends is one point stricter.
  motion::check_problem_budget({"retarget: the waist fit", "trajectory.knot_spacing", reference.duration(),
                                knot_spacing, static_cast<long long>(n), 6, 2});
  // The pose as 6 smooth coordinates: the position, and the orientation as the rotation vector from the
  // first sample's (a chart that stays regular for the turns a waist makes; zero for an upright waist).
  const spatial::SE3 first = model::base_pose(model, motion.q.col(0));
  Eigen::MatrixXd samples(6, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const spatial::SE3 pose = model::base_pose(model, motion.q.col(k));
    samples.col(k) << pose.p, spatial::log3(first.R.transpose() * pose.R);
  }
  const trajectory::SplineParameterization parameterization(
      trajectory::QuarticBspline(motion.times.front(), motion.times.back(), knot_spacing), 6,
      trajectory::EndSpec::fixed_at_rest(samples.col(0)), trajectory::EndSpec::at_rest());
  const trajectory::BsplineTrajectory fit =
      parameterization.trajectory(trajectory::fit_spline(parameterization, motion.times, samples));
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::VectorXd pose = fit.position(motion.times[static_cast<std::size_t>(k)]);
    model::set_base_pose(model, motion.q.col(k),
                         spatial::SE3(first.R * spatial::exp3(pose.tail<3>()), pose.head<3>()));
  }
  model::differentiate(model, motion);
}

namespace {

// Where half-sitting puts the soles (right, left); leaves its forward kinematics in `data`.
std::array<spatial::SE3, 2> half_sitting_soles(const Robot& robot, model::Data& data) {
  dynamics::forward_kinematics(robot.model, data, robot.description.nominal_q(robot.model));
  return {dynamics::update_frame_placement(robot.model, data, robot.feet.right_sole_frame),
          dynamics::update_frame_placement(robot.model, data, robot.feet.left_sole_frame)};
}

}  // namespace

void plant_feet(const Robot& robot, retarget::ReferenceMotion& reference) {
  model::SampledMotion& motion = reference.motion;
  if (motion.size() == 0) return;
  const model::Model& model = robot.model;
  const stability::Legs legs = stability::Legs::of(model, robot.feet);
  model::Data data(model);
  const std::array<spatial::SE3, 2> soles = half_sitting_soles(robot, data);
  // q carries the legs from sample to sample, so that each refit is seeded by the previous sample (the
  // first by the reference's own legs). The base part of q is not read: the root is passed explicitly.
  Eigen::VectorXd q = motion.q.col(0);
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    const spatial::SE3 root = model::base_pose(model, motion.q.col(k));
    const stability::LegRefit refit = stability::refit_legs(model, legs, root, soles[0], soles[1], q);
    if (!refit.ok()) {
      throw InfeasibleError(fmt::format(
          "t = {:.3f} s: the retargeted waist (height {:.3f} m) puts the {} out of the leg's reach ({}): "
          "lower the pelvis motion with retarget.scale",
          motion.times[static_cast<std::size_t>(k)], root.p.z(),
          legs.leg[static_cast<std::size_t>(refit.failed_leg)].sole_frame(),
          stability::to_string(refit.result.status)));
    }
    for (const int joint : legs.joints()) motion.q(model.idx_q(joint), k) = q(model.idx_q(joint));
  }
  model::differentiate(model, motion);
}

WaistHeightRange reachable_waist_heights(const Robot& robot, const Eigen::Matrix3d& waist_rotation) {
  const stability::Legs legs = stability::Legs::of(robot.model, robot.feet);
  model::Data data(robot.model);
  const std::array<spatial::SE3, 2> soles = half_sitting_soles(robot, data);
  const spatial::SE3 rest_root = data.oMi[0];
  const auto reachable = [&](double z) {
    const spatial::SE3 root(waist_rotation, Eigen::Vector3d(rest_root.p.x(), rest_root.p.y(), z));
    // Seeded by the straight leg (the knee-forward branch): only whether a solution exists matters here.
    return legs.right().solve(root, soles[0]).ok() && legs.left().solve(root, soles[1]).ok();
  };
  const double z0 = rest_root.p.z();
  if (!reachable(z0)) {
    throw InfeasibleError(
        fmt::format("the half-sitting waist height {:.3f} m is out of the legs' reach", z0));
  }
  const auto bisect = [&](double inside, double outside) {
    while (std::abs(outside - inside) > 1e-4) {
      const double mid = 0.5 * (inside + outside);
      (reachable(mid) ? inside : outside) = mid;
    }
    return inside;
  };
  // One metre either way is beyond any humanoid leg.
  return {bisect(z0, z0 - 1.0), bisect(z0, z0 + 1.0)};
}

int clamp_waist_height(const Robot& robot, retarget::ReferenceMotion& reference) {
  model::SampledMotion& motion = reference.motion;
  if (motion.size() == 0) return 0;
  const model::Model& model = robot.model;
  const WaistHeightRange range = reachable_waist_heights(robot, model::base_pose(model, motion.q.col(0)).R);
  const double low = range.lowest + 0.02, high = range.highest - 0.03;
  int clamped = 0;
  double deepest = 0.0;
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    spatial::SE3 pose = model::base_pose(model, motion.q.col(k));
    const double c = std::clamp(pose.p.z(), low, high);
    if (c == pose.p.z()) continue;
    ++clamped, deepest = std::max(deepest, std::abs(c - pose.p.z()));
    pose.p.z() = c;
    model::set_base_pose(model, motion.q.col(k), pose);
  }
  if (clamped > 0) {
    spdlog::warn(
        "the retargeted pelvis height left the legs' reach [{:.3f}, {:.3f}] m on {} of {} samples (by up to "
        "{:.3f} m): clamped",
        low, high, clamped, motion.size(), deepest);
    model::differentiate(model, motion);
  }
  return clamped;
}

void prepare_reference(const Robot& robot, retarget::ReferenceMotion& reference, double knot_spacing) {
  clamp_waist_height(robot, reference);
  smooth_waist(robot.model, reference, knot_spacing);
  plant_feet(robot, reference);
}

}  // namespace mimic::pipeline
