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
#include "mimic/spatial/rpy.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "mimic/trajectory/spline_fit.hpp"

namespace mimic::pipeline {

void smooth_waist(retarget::ReferenceMotion& reference, double knot_spacing) {
  const Eigen::Index n = reference.waist.rows();
  // The spline needs two knot intervals; a clip that short has nothing to smooth.
  if (n < 3 || reference.duration() < 2.0 * knot_spacing) return;
  std::vector<double> times(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k)
    times[static_cast<std::size_t>(k)] = static_cast<double>(k) / reference.rate;
  const Eigen::MatrixXd samples = reference.waist.transpose();
  // The fit's size and determination, checked before the basis is built (a knot spacing of 1e-9 s). Its
  // start fixes 3 control points per coordinate, its end 2: counting 2 at both ends is one point stricter.
  motion::check_problem_budget({"retarget: the waist fit", "trajectory.knot_spacing", reference.duration(),
                                knot_spacing, static_cast<long long>(n), 6, 2});
  const trajectory::SplineParameterization parameterization(
      trajectory::QuarticBspline(times.front(), times.back(), knot_spacing), 6,
      trajectory::EndSpec::fixed_at_rest(samples.col(0)), trajectory::EndSpec::at_rest());
  const trajectory::BsplineTrajectory fit =
      parameterization.trajectory(trajectory::fit_spline(parameterization, times, samples));
  for (Eigen::Index k = 0; k < n; ++k)
    reference.waist.row(k) = fit.position(times[static_cast<std::size_t>(k)]).transpose();
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
  if (reference.joints.rows() == 0) return;
  const model::Model& model = robot.model;
  const stability::Legs legs = stability::Legs::of(model, robot.feet);
  model::Data data(model);
  const std::array<spatial::SE3, 2> soles = half_sitting_soles(robot, data);
  // q carries the legs from sample to sample, so that each refit is seeded by the previous sample (the
  // first by the reference's own legs). The base part of q is not read: the root is passed explicitly.
  Eigen::VectorXd q =
      model::configuration(model, spatial::SE3::Identity(), reference.joints.row(0).transpose());
  for (Eigen::Index k = 0; k < reference.joints.rows(); ++k) {
    const Eigen::Vector3d rpy = reference.waist.row(k).tail<3>().transpose();
    const spatial::SE3 root(spatial::rpy_to_rotation(rpy), reference.waist.row(k).head<3>().transpose());
    const stability::LegRefit refit = stability::refit_legs(model, legs, root, soles[0], soles[1], q);
    if (!refit.ok()) {
      throw InfeasibleError(fmt::format(
          "t = {:.3f} s: the retargeted waist (height {:.3f} m) puts the {} out of the leg's reach ({}): "
          "lower the pelvis motion with retarget.scale",
          static_cast<double>(k) / reference.rate, root.p.z(),
          legs.leg[static_cast<std::size_t>(refit.failed_leg)].sole_frame(),
          stability::to_string(refit.result.status)));
    }
    for (const int joint : legs.joints()) reference.joints(k, joint) = q(model.idx_q(joint));
  }
}

WaistHeightRange reachable_waist_heights(const Robot& robot, const Eigen::Vector3d& waist_rpy) {
  const stability::Legs legs = stability::Legs::of(robot.model, robot.feet);
  model::Data data(robot.model);
  const std::array<spatial::SE3, 2> soles = half_sitting_soles(robot, data);
  const spatial::SE3 rest_root = data.oMi[0];
  const auto reachable = [&](double z) {
    const spatial::SE3 root(spatial::rpy_to_rotation(waist_rpy),
                            Eigen::Vector3d(rest_root.p.x(), rest_root.p.y(), z));
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
  if (reference.waist.rows() == 0) return 0;
  const Eigen::Vector3d rpy = reference.waist.row(0).tail<3>().transpose();
  const WaistHeightRange range = reachable_waist_heights(robot, rpy);
  const double low = range.lowest + 0.02, high = range.highest - 0.03;
  int clamped = 0;
  double deepest = 0.0;
  for (Eigen::Index k = 0; k < reference.waist.rows(); ++k) {
    double& z = reference.waist(k, 2);
    const double c = std::clamp(z, low, high);
    if (c != z) ++clamped, deepest = std::max(deepest, std::abs(c - z));
    z = c;
  }
  if (clamped > 0) {
    spdlog::warn(
        "the retargeted pelvis height left the legs' reach [{:.3f}, {:.3f}] m on {} of {} samples (by up to "
        "{:.3f} m): clamped",
        low, high, clamped, reference.waist.rows(), deepest);
  }
  return clamped;
}

void prepare_reference(const Robot& robot, retarget::ReferenceMotion& reference, double knot_spacing) {
  clamp_waist_height(robot, reference);
  smooth_waist(reference, knot_spacing);
  plant_feet(robot, reference);
}

}  // namespace mimic::pipeline
