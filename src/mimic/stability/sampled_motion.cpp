#include "mimic/stability/sampled_motion.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/rpy.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/contact_phase.hpp"

namespace mimic::stability {

using spatial::SE3;
using spatial::Vec3;

namespace {

void require_openhrp_joints(const model::Model& model, const io::PosSequence& pos, const std::string& file) {
  if (pos.angles.cols() != model.nj)
    throw InputError(input_error_message(file, "",
                                         "has " + std::to_string(pos.angles.cols()) +
                                             " joint columns but the model " + model.source_path + " has " +
                                             std::to_string(model.nj) + " joints"));
}

}  // namespace

std::vector<ContactPhase> detect_contact_phases(const model::Model& model, const Feet& feet,
                                                const std::vector<double>& times, const Eigen::MatrixXd& q,
                                                const ContactDetectionOptions& options) {
  const Eigen::Index n = q.cols();
  model::Data data(model);
  Eigen::Matrix3Xd right(3, n), left(3, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    dynamics::forward_kinematics(model, data, q.col(k));
    right.col(k) = dynamics::update_frame_placement(model, data, feet.right_sole_frame).p;
    left.col(k) = dynamics::update_frame_placement(model, data, feet.left_sole_frame).p;
  }
  const double ground = n > 0 ? std::min(right.row(2).minCoeff(), left.row(2).minCoeff()) : 0.0;
  auto speed = [&](const Eigen::Matrix3Xd& p, Eigen::Index k) {
    if (n < 2) return 0.0;
    const Eigen::Index k0 = std::max<Eigen::Index>(k - 1, 0), k1 = std::min<Eigen::Index>(k + 1, n - 1);
    return (p.col(k1) - p.col(k0)).norm() /
           (times[static_cast<std::size_t>(k1)] - times[static_cast<std::size_t>(k0)]);
  };
  std::vector<ContactPhase> phases(static_cast<std::size_t>(n), ContactPhase::kDoubleSupport);
  for (Eigen::Index k = 0; k < n; ++k) {
    const bool r =
        right(2, k) - ground <= options.height_tolerance && speed(right, k) <= options.speed_tolerance;
    const bool l =
        left(2, k) - ground <= options.height_tolerance && speed(left, k) <= options.speed_tolerance;
    ContactPhase phase = ContactPhase::kDoubleSupport;
    if (r && !l) phase = ContactPhase::kRightSupport;
    if (l && !r) phase = ContactPhase::kLeftSupport;
    if (!r && !l)
      phase = right(2, k) <= left(2, k) ? ContactPhase::kRightSupport : ContactPhase::kLeftSupport;
    phases[static_cast<std::size_t>(k)] = phase;
  }
  return phases;
}

// A new support sole this close to z = 0 is on the ground (rounding of the switches, see the header).
constexpr double kGroundSnap = 1e-3;  // m

Eigen::MatrixXd reconstruct_base(const model::Model& model, const Feet& feet, const Eigen::MatrixXd& joints,
                                 const Eigen::MatrixXd* rpy, double hysteresis) {
  if (!model.has_free_flyer())
    throw ModelError(model.source_path + ": base reconstruction needs a free-flyer model");
  const Eigen::Index n = joints.rows();
  Eigen::MatrixXd base(n, 6);
  model::Data data(model);
  SE3 anchor_world;  // world pose of the foot in support
  bool anchor_right = true;
  Vec3 previous_rpy = Vec3::Zero();
  SE3 previous_oMb, previous_bMr, previous_bMl;  // base pose and sole placements at the previous sample
  for (Eigen::Index k = 0; k < n; ++k) {
    // Sole placements in the base frame (base at the identity).
    dynamics::forward_kinematics(model, data,
                                 model::configuration(model, SE3::Identity(), joints.row(k).transpose()));
    const SE3 bMr = dynamics::update_frame_placement(model, data, feet.right_sole_frame);
    const SE3 bMl = dynamics::update_frame_placement(model, data, feet.left_sole_frame);
    SE3 oMb;
    if (k == 0) {
      // Both soles flat on z = 0: the base orientation undoes the right sole's tilt; the base sits above the
      // origin at the height that puts the lower sole on the ground.
      anchor_right = bMr.p.z() <= bMl.p.z();
      const SE3& bMa = anchor_right ? bMr : bMl;
      oMb.R = rpy ? io::rpy_to_rotation(rpy->row(0).transpose()) : Eigen::Matrix3d(bMa.R.transpose());
      oMb.p = Vec3(0.0, 0.0, -(oMb.R * bMa.p).z());
      anchor_world = oMb * bMa;
    } else {
      // Heights in the world: the soles relative to the base, turned by the previous base orientation.
      const double dz = (previous_oMb.R * (bMr.p - bMl.p)).z();
      const bool switch_to_right = !anchor_right && dz < -hysteresis;
      const bool switch_to_left = anchor_right && dz > hysteresis;
      if (switch_to_right || switch_to_left) {
        // The new support foot stays where it was at the previous sample (both feet were down then): the
        // previous base times the previous sole placement, not the current one (the base has moved since).
        // Put back on the ground if it is about there.
        anchor_right = switch_to_right;
        anchor_world = previous_oMb * (anchor_right ? previous_bMr : previous_bMl);
        if (std::abs(anchor_world.p.z()) < kGroundSnap) anchor_world.p.z() = 0.0;
      }
      const SE3& bMa = anchor_right ? bMr : bMl;
      if (rpy) {
        oMb.R = io::rpy_to_rotation(rpy->row(k).transpose());
        oMb.p = anchor_world.p - oMb.R * bMa.p;
      } else {
        oMb = anchor_world * bMa.inverse();
      }
    }
    previous_oMb = oMb;
    previous_bMr = bMr;
    previous_bMl = bMl;
    previous_rpy = io::rotation_to_rpy(oMb.R, previous_rpy);
    base.row(k) << oMb.p.transpose(), previous_rpy.transpose();
  }
  return base;
}

SampledMotion sampled_motion(const model::Model& model, const Feet& feet, const io::MotionFiles& files,
                             const std::vector<model::ContactInterval>& intervals,
                             const ContactDetectionOptions& detection) {
  require_openhrp_joints(model, files.pos, "motion .pos");
  SampledMotion motion;
  motion.times = files.pos.times;
  const Eigen::Index n = files.pos.size();
  Eigen::MatrixXd base;
  if (files.waist) {
    base.resize(n, 6);
    base << files.waist->position, files.waist->rpy;
  } else {
    base = reconstruct_base(model, feet, files.pos.angles, files.hip ? &files.hip->rpy : nullptr);
    motion.base_reconstructed = true;
  }
  motion.q.resize(model.nq, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const SE3 oMb(io::rpy_to_rotation(base.row(k).tail<3>().transpose()), base.row(k).head<3>().transpose());
    motion.q.col(k) = model::configuration(model, oMb, files.pos.angles.row(k).transpose());
  }
  differentiate(model, motion.times, motion.q, motion.v, motion.a);
  motion.phases = intervals.empty() ? detect_contact_phases(model, feet, motion.times, motion.q, detection)
                                    : model::phases_from_intervals(motion.times, intervals);
  return motion;
}

}  // namespace mimic::stability
