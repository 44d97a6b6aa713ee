#include "mimic/pipeline/step_limits.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/data.hpp"

namespace mimic::pipeline {
namespace {

constexpr double kGravity = 9.81;  // m/s^2, as the cart-table model (stability/cart_table.hpp)

}  // namespace

StepLimits hrp2_step_limits() {
  StepLimits limits;
  // jrl-walkgen's relative-feet hull for HRP-2 (RelativeFeetInequalities, the footstep constraints of
  // Herdt et al., "Online walking motion generation with automatic foot step placement", Advanced
  // Robotics 2010): the moving foot's centre within x in [-0.28, 0.28] m at 0.2 m beside the support foot,
  // [-0.2, 0.2] at 0.3 m, x = 0 at 0.4 m. mimic's walking pattern generator reaches less at the
  // half-sitting waist height (0.32 m steps at 0.7 s swings peak at 1.2 of the knee's velocity limit,
  // 0.36 m are out of reach); with the waist 0.05 m lower (config/robots/hrp2.yaml's waist_lowering, not a
  // scaled default), 0.32 m steps peak at 0.87: 0.30 m forward. Backward 0.24 m and 0.08 m wider than the
  // nominal stance (the extra width shrinking with the step's length) walk the plans of the walking clips
  // of ../shared/mocap (CMU 131_01, Qualisys, OptiTrack) within the joint velocity limits.
  limits.max_forward = 0.30;
  limits.max_backward = 0.24;
  limits.max_lateral = 0.08;
  // 1 cm of self-collision safety distance (evaluation/geometry_check.hpp) plus 1 cm per foot of collision
  // shape beyond the sole rectangle (JVRC-1's foot box is 8 mm wider than its sole on each side).
  limits.min_width = 0.03;
  // HRP-2's hip yaws reach 30 deg inwards, 45 outwards (hrp2.md, RLEG_JOINT0): a relative yaw of 0.3 rad
  // between the feet turns each hip by about 0.15 rad from the waist, leaving room for the pelvis's own
  // yaw; the shipped JVRC-1 and G1 walks turn 0.3 rad in one step.
  limits.max_turn = 0.3;
  // The shipped bar walk (config/walk/bar_steps.yaml): 0.7 s swings of 0.3 m strides stay within HRP-2's
  // joint velocity limits; jrl-walkgen's HRP-2 example walk uses 0.78 s. The transfer: 0.1 s (20 preview
  // periods of 5 ms) keeps the ZMP reference from jumping between the soles; jrl-walkgen goes down to
  // 0.02 s with its own filter.
  limits.min_single_support = 0.7;
  limits.min_double_support = 0.1;
  // Twice the shortest: walk.bvh's plan keeps its 1.19 s swings, which HRP-2 walks (notes/stop27.md).
  limits.max_single_support = 2.0 * limits.min_single_support;
  limits.step_height = 0.05;  // walking::StepTiming's default (jrl-walkgen's example: 0.07 m)
  // 5 Tc, Tc = sqrt(0.8078 / 9.81) = 0.287 s (CoM height in half-sitting, hrp2.md [S7]).
  limits.settle_time = 5.0 * std::sqrt(0.8078 / kGravity);
  // Hip (RLEG_JOINT0) to sole in half-sitting, models/hrp2.urdf (step_limits() computes it so).
  limits.leg_length = 0.64971462701;
  // RLEG_JOINT0 (hip yaw) 0.035 m above the hip roll and pitch, 0.3 m thigh, 0.3 m shank (models/hrp2.urdf).
  limits.thigh_shank = 0.635;
  // HRP-2's soles (config/robots/hrp2.yaml).
  limits.right_sole = {-0.100, 0.130, -0.075, 0.056};
  limits.left_sole = {-0.100, 0.130, -0.056, 0.075};
  return limits;
}

StepLimits step_limits(const model::RobotDescription& description, const model::Model& model) {
  model::Data data(model);
  const Eigen::VectorXd q = description.nominal_q(model);
  dynamics::forward_kinematics(model, data, q);
  dynamics::update_frame_placements(model, data);
  // Both legs: the shorter one (a description's legs are mirror images; this is the safe side if not).
  double leg = INFINITY, segments = INFINITY;
  for (const auto& [joints, sole] :
       {std::pair{&description.groups.right_leg, &description.frames.right_sole},
        std::pair{&description.groups.left_leg, &description.frames.left_sole}}) {
    const auto origin = [&](const std::string& joint) -> const Eigen::Vector3d& {
      return data.oMi[static_cast<std::size_t>(model::Model::body_of_joint(model.joint_index(joint)))]
          .translation();
    };
    const auto& sole_position = data.oMf[static_cast<std::size_t>(model.frame_index(*sole))].translation();
    leg = std::min(leg, (origin(joints->front()) - sole_position).norm());
    // Hip to knee to ankle: coinciding joint origins (a hip's yaw, roll and pitch) add nothing.
    double length = 0.0;
    for (std::size_t j = 1; j < joints->size(); ++j)
      length += (origin((*joints)[j]) - origin((*joints)[j - 1])).norm();
    segments = std::min(segments, length);
  }
  const double com_height =
      dynamics::center_of_mass(model, data, q).z() -
      0.5 * (data.oMf[static_cast<std::size_t>(model.frame_index(description.frames.right_sole))]
                 .translation()
                 .z() +
             data.oMf[static_cast<std::size_t>(model.frame_index(description.frames.left_sole))]
                 .translation()
                 .z());

  const StepLimits reference = hrp2_step_limits();
  const double length = leg / reference.leg_length, time = std::sqrt(length);
  const model::WalkingDescription& given = description.walking;
  StepLimits limits;
  limits.max_forward = given.max_forward.value_or(length * reference.max_forward);
  limits.max_backward = given.max_backward.value_or(length * reference.max_backward);
  limits.max_lateral = given.max_lateral.value_or(length * reference.max_lateral);
  limits.min_width = given.min_width.value_or(reference.min_width);
  limits.max_turn = given.max_turn.value_or(reference.max_turn);
  limits.min_single_support = given.min_single_support.value_or(time * reference.min_single_support);
  limits.min_double_support = given.min_double_support.value_or(time * reference.min_double_support);
  // Absent: HRP-2's ratio to the shortest swing (2), so that a given min_single_support stays below it.
  limits.max_single_support = given.max_single_support.value_or(
      reference.max_single_support / reference.min_single_support * limits.min_single_support);
  if (limits.max_single_support < limits.min_single_support)
    throw std::invalid_argument("walking: max_single_support " + std::to_string(limits.max_single_support) +
                                " s < min_single_support " + std::to_string(limits.min_single_support) +
                                " s");
  limits.step_height = given.step_height.value_or(length * reference.step_height);
  limits.waist_lowering = given.waist_lowering.value_or(0.0);
  limits.settle_time = 5.0 * std::sqrt(com_height / kGravity);
  limits.leg_length = leg;
  limits.thigh_shank = segments;
  limits.right_sole = description.right_sole;
  limits.left_sole = description.left_sole;
  return limits;
}

double footstep_scale(const StepLimits& limits, double human_leg) {
  if (!(human_leg > 0.0) || !std::isfinite(human_leg))
    throw std::invalid_argument("footstep_scale: the human leg length must be > 0");
  return limits.thigh_shank / human_leg;
}

std::array<walking::FootPlacement, 2> nominal_stance(const model::RobotDescription& description,
                                                     const model::Model& model) {
  model::Data data(model);
  dynamics::forward_kinematics(model, data, description.nominal_q(model));
  dynamics::update_frame_placements(model, data);
  std::array<walking::FootPlacement, 2> stance;
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string& frame = i == 0 ? description.frames.right_sole : description.frames.left_sole;
    const spatial::SE3& pose = data.oMf[static_cast<std::size_t>(model.frame_index(frame))];
    stance[i].position = pose.translation().head<2>();
    // The yaw of the sole's x axis on the ground (the nominal soles are flat).
    stance[i].yaw = std::atan2(pose.rotation()(1, 0), pose.rotation()(0, 0));
  }
  return stance;
}

}  // namespace mimic::pipeline
